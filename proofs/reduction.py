"""From bilinear attention to the gated MLP (docs/theory.md A1, A3, A4, A5).

Statement.
* A1: an MLP is a key–value memory, σ(xKᵀ)V = Σ_j σ(x·k_j) v_j.
* A3: the bilinear-attention score x M_j xᵀ sees only the symmetric part (M_j + M_jᵀ)/2: at
  general d, x ((M + Mᵀ)/2) xᵀ = ½ x M xᵀ + ½ (x M xᵀ)ᵀ, whose entry is that of x M xᵀ; at
  d = 4 outright.
* A4: with M_j = q_jᵀk_j the score is (x·q_j)(x·k_j); stacking the units gives the symmetric
  rank-1 form Sym(x) = σ((xQᵀ) ⊙ (xKᵀ))V.
* A5: moving σ onto the query factor gives the gated form Gated(x) = (σ(xQᵀ) ⊙ (xKᵀ))V — LLaMA's
  w2(silu(w1 x) * w3 x) with Q = W1, K = W3, V = W2ᵀ; and Gated ≡ Sym for all inputs iff
  σ(ab) = σ(a)b for all a, b iff σ is linear: stated as the conjunction of its four kernel
  facts (Gated − Sym as a sum of σ(a)b − σ(ab) terms, its value at d = n = 1, and the two Z3
  implications over an uninterpreted σ), with a certified witness for every nonlinear
  activation of the table.
* Storage: n·d² + n·d (full bilinear) vs 2ndr + nd (rank r) vs 3nd (rank 1, gated).

Identities are proved at general dimension (``MatrixSymbol`` algebra; entries as finite sums with
symbolic bounds) or at the explicit sizes each step names, then evaluated on random float64
layers for every activation (numpy; torch when installed, with LLaMA's block built from
``torch.nn.Linear``).

Run: ``python -m proofs.reduction [-v] [--json] [--latex [FILE]] [--no-torch]``
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sympy
from sympy import HadamardProduct, MatrixSymbol, Sum, Transpose

from numeric_checks import layers as numeric
from proofs._cli import run, torch_option
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation
from symbolic.calc import Calc, held_and, rule_step, zero_or_witnessed_break
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.gated.witness import LayerWitness, certified_layer_witness
from symbolic.kernel import (
    ForAll,
    check_matrix_expr_equal,
    check_valid_formula,
    cong,
    conj,
    counterexample,
    inst,
    literal_replace,
    negate,
    scalar_transpose,
    symm,
)
from symbolic.layers import symbolic_matrix
from symbolic.steps import entry_step, equal_matrices_step, equal_step, uninterpreted_sigma, z3_step

B, d, n, r, d_out = sympy.symbols("B d n r d_out", integer=True, positive=True)
b, c, j, i, k, l = sympy.symbols("b c j i k l", integer=True, nonnegative=True)
ORDER = 4  # place in `python -m proofs` (A1, A3–A5)
sigma = sympy.Function("sigma", real=True)  # uninterpreted σ: ℝ → ℝ, nothing else assumed
GENERAL = "[general B, d, n, d_out]"

x = MatrixSymbol("x", B, d)
Q = MatrixSymbol("Q", n, d)
K = MatrixSymbol("K", n, d)
V = MatrixSymbol("V", n, d_out)
x1 = MatrixSymbol("x", 1, d)  # one token
M = MatrixSymbol("M", d, d)
q_j, k_j = MatrixSymbol("q_j", 1, d), MatrixSymbol("k_j", 1, d)
W1, W3 = MatrixSymbol("W1", n, d), MatrixSymbol("W3", n, d)
W2 = MatrixSymbol("W2", d, n)

LLAMA_7B = {d: 4096, n: 11008}  # LLaMA-7B: model width and MLP hidden width
RANK_EXAMPLE = 8  # the rank r shown in the parameter table

ASSUMPTIONS = (
    "B, d, n, d_out ≥ 1 symbolic (general dimension)",
    "σ: R → R arbitrary (an uninterpreted function)",
)

P, A = layers.held_product, layers.held_apply


def _eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Eq:
    return sympy.Eq(lhs, rhs, evaluate=False)


def dot(w: MatrixSymbol, row: sympy.Expr) -> sympy.Expr:
    """``x_b · w_row = Σ_i x[b, i] w[row, i]``: a token against one row of a weight matrix."""
    return Sum(x[b, i] * w[row, i], (i, 0, d - 1))


def mlp(x_, K_, V_, s):
    """``σ(xKᵀ)V`` as written."""
    return P(A(s, P(x_, Transpose(K_))), V_)


def symmetric(x_, Q_, K_, V_, s):
    """``σ((xQᵀ) ⊙ (xKᵀ))V`` as written."""
    return P(A(s, HadamardProduct(P(x_, Transpose(Q_)), P(x_, Transpose(K_)))), V_)


def gated(x_, Q_, K_, V_, s):
    """``(σ(xQᵀ) ⊙ (xKᵀ))V`` as written."""
    return P(HadamardProduct(A(s, P(x_, Transpose(Q_))), P(x_, Transpose(K_))), V_)


# Entry [b, c] of each layer as SymPy writes the entries of a product (sums over fresh indices);
# built once, so that a statement and the derivation that ends in it share the very same terms.
MLP_ENTRY = mlp(x, K, V, sigma)[b, c]
SYM_ENTRY = symmetric(x, Q, K, V, sigma)[b, c]
GATED_ENTRY = gated(x, Q, K, V, sigma)[b, c]


# --- A1 ---------------------------------------------------------------------------------------

KEY_VALUE = Claim(
    "reduction.key_value",
    "An MLP is a key–value memory",
    "σ(xKᵀ)V = Σ_j σ(x·k_j) v_j: rows of K are keys, rows of V are values.",
    "A1",
    kind="proposition",
    assumptions=ASSUMPTIONS,
    statement=_eq(MLP_ENTRY, Sum(sigma(dot(K, j)) * V[j, c], (j, 0, n - 1))),
)


def key_value() -> Derivation:
    return Derivation(
        (
            entry_step(
                MLP_ENTRY,
                KEY_VALUE.statement.rhs,
                "entries of a matrix product; σ acts entry by entry",
                note=f"{GENERAL} σ(xKᵀ)V[b, c] = Σ_j σ(x_b·k_j) V[j, c]",
            ),
        )
    )


# --- A3 ---------------------------------------------------------------------------------------

HALF_M = sympy.MatMul(sympy.S.Half, layers.held_sum(M, Transpose(M)), evaluate=False)
SCORE = P(x1, M, Transpose(x1))  # x M xᵀ, a 1×1 matrix: its one entry is the score
AVERAGE = layers.held_sum(
    sympy.MatMul(sympy.S.Half, SCORE, evaluate=False),
    sympy.MatMul(sympy.S.Half, Transpose(SCORE), evaluate=False),
)
AVERAGE_ENTRY, SCORE_ENTRY = AVERAGE[0, 0], SCORE[0, 0]
SYMMETRIC_PART = Claim(
    "reduction.symmetric_part",
    "The bilinear score sees only the symmetric part",
    "x ((M + Mᵀ)/2) xᵀ = x M xᵀ for every x ∈ R^{1×d}, M ∈ R^{d×d}: distribute, then x Mᵀ xᵀ "
    "= (x M xᵀ)ᵀ, and a 1×1 matrix is its own transpose; hence the bilinear-attention layer "
    "Σ_j σ(x M_j xᵀ) v_j depends on each M_j only through (M_j + M_jᵀ)/2 (checked entry by entry "
    "at B = 2, d = 3, n = 2).",
    "A3",
    assumptions=("d ≥ 1 symbolic (general dimension)",),
    statement=_eq(P(x1, HALF_M, Transpose(x1)), SCORE),
)


def _half(m: sympy.MatrixExpr) -> sympy.MatrixExpr:
    return sympy.MatMul(sympy.S.Half, m, evaluate=False)


def symmetric_part() -> Derivation:
    e = 4  # explicit size of the cross-check
    xe, me = symbolic_matrix("x", 1, e), symbolic_matrix("M", e, e)
    sz = dict(B=2, d=3, n=2, d_out=2)  # explicit sizes of the layer cross-check
    xs, vs = symbolic_matrix("x", sz["B"], sz["d"]), symbolic_matrix("V", sz["n"], sz["d_out"])
    ms = [symbolic_matrix(f"M{u}", sz["d"], sz["d"]) for u in range(sz["n"])]
    hole = sympy.MatrixSymbol("H", 1, 1)
    own = Step(
        symm(scalar_transpose(SCORE)),
        "a 1×1 matrix is its own transpose",
        note="[general d] (x M xᵀ)ᵀ = x M xᵀ",
    )
    both = rule_step(
        cong(own.fact, sympy.Lambda(hole, layers.held_sum(_half(SCORE), _half(hole)))),
        "step 3 in the context ½ x M xᵀ + ½ (·)",
    )
    chain = (
        Calc(P(x1, HALF_M, Transpose(x1)))
        .eq(
            layers.held_sum(_half(SCORE), _half(P(x1, Transpose(M), Transpose(x1)))),
            "distribute the product over the sum",
            check=check_matrix_expr_equal,
            note="[general d] x ((M + Mᵀ)/2) xᵀ = ½ x M xᵀ + ½ x Mᵀ xᵀ",
        )
        .eq(
            AVERAGE,
            "transpose of a product: x Mᵀ xᵀ = (x M xᵀ)ᵀ",
            check=check_matrix_expr_equal,
            note="[general d] = ½ x M xᵀ + ½ (x M xᵀ)ᵀ",
        )
        .eq(both.formula.rhs, "step 3 in the context ½ x M xᵀ + ½ (·)", by=both.fact)
        .eq(SCORE, "½ A + ½ A = A", check=check_matrix_expr_equal)
        .steps(note="[general d] x ((M + Mᵀ)/2) xᵀ = x M xᵀ")
    )
    return Derivation(
        (
            equal_step(
                (xe * ((me + me.T) / 2) * xe.T)[0, 0],
                (xe * me * xe.T)[0, 0],
                "expand",
                note=f"[d = {e}; symbolic entries] x ((M + Mᵀ)/2) xᵀ = x M xᵀ",
            ),
            equal_matrices_step(
                layers.bilinear(xs, ms, vs, sigma),
                layers.bilinear(xs, [(m + m.T) / 2 for m in ms], vs, sigma),
                "expand every entry",
                note="[B=2, d=3, n=2, d_out=2; symbolic entries] bilinear(x, {M_j}, "
                "V, σ) = bilinear(x, {(M_j + M_jᵀ)/2}, V, σ)",
            ),
            own,
            *chain,
        )
    )


# --- A4 ---------------------------------------------------------------------------------------

RANK1_FORM = P(x1, P(Transpose(q_j), k_j), Transpose(x1))  # x (q_jᵀk_j) xᵀ
RANK1_SCORE_ENTRY = RANK1_FORM[0, 0]


def _row_dot(w: MatrixSymbol) -> sympy.Expr:
    """``x·w = Σ_i x_i w_i`` for one token x and one row w."""
    return Sum(x1[0, i] * w[0, i], (i, 0, d - 1))


RANK1_SCORE = Claim(
    "reduction.rank1_score",
    "A rank-1 score is a product of two dot products",
    "With M_j = q_jᵀk_j (q_j, k_j ∈ R^{1×d}): x M_j xᵀ = (x·q_j)(x·k_j).",
    "A4",
    kind="lemma",
    assumptions=("d ≥ 1 symbolic (general dimension)",),
    statement=_eq(RANK1_SCORE_ENTRY, _row_dot(q_j) * _row_dot(k_j)),
)
# Σ_j σ(x_b M_j x_bᵀ) V[j, c] with M_j[i, l] = Q[j, i] K[j, l]: the bilinear layer of rank-1 units
BILINEAR_RANK1_ENTRY = Sum(
    sigma(Sum(x[b, i] * Q[j, i] * K[j, l] * x[b, l], (l, 0, d - 1), (i, 0, d - 1))) * V[j, c],
    (j, 0, n - 1),
)
SYMMETRIC_RANK1 = Claim(
    "reduction.symmetric_rank1",
    "Stacking rank-1 units gives the symmetric rank-1 form",
    "Σ_j σ(x q_jᵀk_j xᵀ) v_j = σ((xQᵀ) ⊙ (xKᵀ))V, where the rows of Q, K are q_j, k_j "
    "(entry [b, c], the score of unit j written with M_j[i, l] = Q[j, i]K[j, l]).",
    "A4",
    uses=("reduction.rank1_score",),
    assumptions=ASSUMPTIONS,
    statement=_eq(BILINEAR_RANK1_ENTRY, SYM_ENTRY),
)


def rank1_score() -> Derivation:
    return Derivation(
        (
            entry_step(
                RANK1_SCORE_ENTRY,
                RANK1_SCORE.statement.rhs,
                "associativity, x (q_jᵀk_j) xᵀ = (x q_jᵀ)(k_j xᵀ): a product of two 1×1 "
                "matrices, so the double sum Σ_i Σ_l x_i q_i k_l x_l factors",
                note="[general d] x (q_jᵀ k_j) xᵀ = (x·q_j)(x·k_j)",
            ),
        )
    )


def symmetric_rank1() -> Derivation:
    sz = dict(B=2, d=3, n=3, d_out=2)  # explicit sizes of the layer cross-check
    sizes = "[B=2, d=3, n=3, d_out=2; symbolic entries]"
    xs = symbolic_matrix("x", sz["B"], sz["d"])
    qs, ks = (symbolic_matrix(name, sz["n"], sz["d"]) for name in "QK")
    vs = symbolic_matrix("V", sz["n"], sz["d_out"])
    ms = [qs[u, :].T * ks[u, :] for u in range(sz["n"])]  # M_j = q_jᵀ k_j
    return Derivation(
        (
            equal_matrices_step(
                layers.bilinear(xs, ms, vs, sigma),
                layers.symmetric_rank1(xs, qs, ks, vs, sigma),
                "expand every entry",
                note=f"{sizes} bilinear(x, {{q_jᵀk_j}}, V, σ) = symmetric_rank1(x, Q, K, V, σ)",
            ),
            entry_step(
                BILINEAR_RANK1_ENTRY,
                SYM_ENTRY,
                "reduction.rank1_score in every unit (the double sum factors into "
                "(x_b·q_j)(x_b·k_j)); these are the entries of (xQᵀ) ⊙ (xKᵀ)",
                note=f"{GENERAL} Σ_j σ(x_b q_jᵀk_j x_bᵀ) V[j, c] = σ((xQᵀ) ⊙ (xKᵀ))V[b, c]",
            ),
        )
    )


# --- A5 ---------------------------------------------------------------------------------------

# torch.nn.Linear(bias=False) computes y[b, o] = Σ_i h[b, i]·W[o, i]; LLaMA's MLP, entry [b, c]:
# w2(silu(w1(x)) * w3(x))[b, c] = Σ_j W2[c, j]·σ(Σ_i x[b, i] W1[j, i])·(Σ_i x[b, i] W3[j, i])
LLAMA_ENTRY = Sum(
    W2[c, j]
    * sigma(Sum(x[b, i] * W1[j, i], (i, 0, d - 1)))
    * Sum(x[b, i] * W3[j, i], (i, 0, d - 1)),
    (j, 0, n - 1),
)
GATED_W_ENTRY = gated(x, W1, W3, Transpose(W2), sigma)[b, c]
GATED_UNIT_SUM = Sum(sigma(dot(Q, j)) * dot(K, j) * V[j, c], (j, 0, n - 1))
GATED_FORM = Claim(
    "reduction.gated_form",
    "The gated MLP moves σ onto the query factor",
    "Gated(x) = (σ(xQᵀ) ⊙ (xKᵀ))V = Σ_j σ(x·q_j)(x·k_j) v_j — Sym with σ(a·b) replaced by "
    "σ(a)·b. LLaMA's w2(silu(w1(x)) * w3(x)), with torch.nn.Linear's y[b, o] = Σ_i h[b, i]W[o, i], "
    "is Gated with Q = W1, K = W3, V = W2ᵀ, σ = silu.",
    "A5",
    kind="proposition",
    assumptions=ASSUMPTIONS,
    statement=held_and(_eq(GATED_ENTRY, GATED_UNIT_SUM), _eq(LLAMA_ENTRY, GATED_W_ENTRY)),
)


def gated_form() -> Derivation:
    unit_sum = entry_step(
        GATED_ENTRY,
        GATED_UNIT_SUM,
        "entries of the products; σ on the query factor only",
        note=f"{GENERAL} Gated(x)[b, c] = Σ_j σ(x_b·q_j)(x_b·k_j) V[j, c]",
    )
    llama = entry_step(
        LLAMA_ENTRY,
        GATED_W_ENTRY,
        "w(h)[b, o] = Σ_i h[b, i]W[o, i] for torch.nn.Linear(bias=False), so "
        "W2[c, j] = (W2ᵀ)[j, c]",
        note="[general B, d, n] w2(σ(w1(x)) ⊙ w3(x))[b, c] = gated(x, W1, W3, W2ᵀ, σ)[b, c]",
    )
    return Derivation(
        (unit_sum, llama, rule_step(conj(unit_sum.fact, llama.fact), "conjunction of steps 1, 2"))
    )


q, kk, c0 = sympy.symbols("q k c", real=True)
a_, b_, z_, w_ = sympy.symbols("a b z w", real=True)
ONE = sympy.Matrix([[1]])
# Gated − Sym, entry [b, c], with σ uninterpreted: a sum of σ(a_j)b_j − σ(a_j b_j) terms
DIFFERENCE_TERMS = Sum(
    sigma(dot(Q, j)) * dot(K, j) * V[j, c] - sigma(dot(Q, j) * dot(K, j)) * V[j, c], (j, 0, n - 1)
)


def _unit_matrices(query: sympy.Expr, key: sympy.Expr) -> dict[str, sympy.ImmutableMatrix]:
    return {
        "x": sympy.ImmutableMatrix(ONE),
        "Q": sympy.ImmutableMatrix([[query]]),
        "K": sympy.ImmutableMatrix([[key]]),
        "V": sympy.ImmutableMatrix(ONE),
    }


def _held_unit_difference(query: sympy.Expr, key: sympy.Expr) -> sympy.MatrixExpr:
    """Gated − Sym at d = n = 1, x = V = 1, Q = q, K = k, written out (not evaluated)."""
    u = _unit_matrices(query, key)
    return layers.held_sum(
        gated(u["x"], u["Q"], u["K"], u["V"], sigma),
        sympy.MatMul(-1, symmetric(u["x"], u["Q"], u["K"], u["V"], sigma), evaluate=False),
    )


# as Z3's answer reads back (its products keep Z3's order of factors)
FORWARD = sympy.Implies(
    ForAll((a_, b_), sympy.Eq(sympy.Mul(sigma(a_), b_, evaluate=False), sigma(a_ * b_))),
    sympy.Eq(sigma(z_), sympy.Mul(sigma(1), z_, evaluate=False)),
)
BACKWARD = sympy.Implies(
    ForAll((w_,), sympy.Eq(sigma(w_), c0 * w_)), sympy.Eq(sigma(a_) * b_, sigma(a_ * b_))
)
AT_ONE_UNIT = _eq(
    _held_unit_difference(q, kk), sympy.ImmutableMatrix([[sigma(q) * kk - sigma(q * kk)]])
)
GATED_IFF_LINEAR = Claim(
    "reduction.gated_iff_linear",
    "Gated ≡ Sym exactly for linear σ",
    "the four kernel facts of the argument Gated ≡ Sym for all d, n, x, Q, K, V ⇔ "
    "σ(a)·b = σ(a·b) for all real a, b ⇔ σ(z) = c·z: (1) Gated − Sym is, entry by entry at "
    "general dimension, the sum of σ(x·q_j)(x·k_j) − σ((x·q_j)(x·k_j)) times v_j, so "
    "σ(a)b = σ(ab) gives Gated ≡ Sym; (2) at d = n = 1, x = V = 1 it is σ(q)k − σ(qk), so "
    "Gated ≡ Sym gives σ(a)b = σ(ab); (3) that identity makes σ linear, σ(z) = σ(1)z; (4) a "
    "linear σ satisfies it. The glue between them (a sum of zero terms is zero; a layer "
    "identity holds at d = n = 1) is the reading, not a kernel step.",
    "A5",
    uses=("reduction.symmetric_rank1", "reduction.gated_form"),
    assumptions=("σ: R → R arbitrary (uninterpreted in the Z3 steps)",),
    statement=held_and(
        _eq(GATED_ENTRY - SYM_ENTRY, DIFFERENCE_TERMS), AT_ONE_UNIT, FORWARD, BACKWARD
    ),
)


def gated_minus_symmetric(sig: Callable, v: Mapping) -> object:
    """Gated − Sym at d = n = 1 (``v`` holds 1×1 x, Q, K, V): σ(xq)(xk)v − σ((xq)(xk))v."""
    return (
        layers.gated(v["x"], v["Q"], v["K"], v["V"], sig)
        - layers.symmetric_rank1(v["x"], v["Q"], v["K"], v["V"], sig)
    )[0, 0]


def _unit_values(query: sympy.Expr, key: sympy.Expr) -> dict[str, sympy.Matrix]:
    return {"x": ONE, "Q": sympy.Matrix([[query]]), "K": sympy.Matrix([[key]]), "V": ONE}


def gated_iff_linear() -> Derivation:
    def forward(z3):  # (∀a,b: σ(a)b = σ(ab)) ⇒ σ(z) = σ(1)z
        s = uninterpreted_sigma(z3)
        a, bb, zz = z3.Reals("a b z")
        hyp = z3.ForAll([a, bb], s(a) * bb == s(a * bb), patterns=[z3.MultiPattern(s(a), s(bb))])
        return z3.Implies(hyp, s(zz) == s(1) * zz)

    steps = (
        entry_step(
            GATED_ENTRY - SYM_ENTRY,
            DIFFERENCE_TERMS,
            "entries of both layers; the sums over j combine",
            note=f"{GENERAL} Gated(x)[b, c] − Sym(x)[b, c] = Σ_j (σ(x_b·q_j)(x_b·k_j) − "
            "σ((x_b·q_j)(x_b·k_j))) V[j, c]: zero when σ(a)b = σ(ab) (⇐)",
        ),
        Step(
            check_matrix_expr_equal(AT_ONE_UNIT.lhs, AT_ONE_UNIT.rhs),
            "evaluate both layers at d = n = 1",
            note="[d = n = 1, x = 1, V = 1, Q = q, K = k] Gated − Sym = σ(q)·k − σ(q·k): "
            "Gated ≡ Sym gives σ(q)k = σ(qk) for all q, k (⇒)",
        ),
        z3_step(
            forward,
            "Z3 over an uninterpreted σ: negation unsat (trigger σ(a), σ(b))",
            note="(⇒) for every σ: (∀a, b: σ(a)·b = σ(a·b)) ⇒ σ(z) = σ(1)·z for all z",
        ),
        Step(
            check_valid_formula(BACKWARD),
            "Z3 over an uninterpreted σ: negation unsat",
            note="(⇐) for every σ: (∀z: σ(z) = c·z) ⇒ σ(a)·b = σ(a·b) for all a, b",
        ),
    )
    return Derivation(
        (*steps, rule_step(conj(*(s.fact for s in steps)), "conjunction of steps 1–4"))
    )


# --- A5 per activation: a certified witness for every nonlinear σ -----------------------------


def _unit_difference(act: Activation) -> sympy.Expr:
    """σ(q)·k − σ(q·k) for a table activation, written out (so that a linear σ reads
    k·q − k·q, not 0)."""
    return sympy.Add(act.sympy_at(q) * kk, -act.sympy_at(q * kk), evaluate=False)


def _verdict_formula(act: Activation) -> sympy.Basic:
    """What the table says of σ: σ(q)k − σ(qk) = 0 for all q, k when it is linear, otherwise
    not (¬∀ q, k)."""
    zero = _eq(_unit_difference(act), 0)
    return zero if act.linear else sympy.Not(ForAll(sorted((q, kk), key=str), zero), evaluate=False)


ACTIVATION_WITNESSES = Claim(
    "reduction.activations",
    "Each activation of the table, decided",
    "for each activation σ of the table (by its 'linear' entry): σ(q)·k − σ(q·k) = 0 for all q, k "
    "when σ is linear (Gated ≡ Sym, reduction.gated_iff_linear); otherwise not, by a witness at "
    "d = n = 1, x = 1, V = 1, Q = 1, K = k where Gated − Sym = σ(1)·k − σ(k) ≠ 0, certified by "
    "exact rational or interval arithmetic: Gated ≢ Sym.",
    "A5",
    kind="corollary",
    uses=("reduction.gated_iff_linear",),
    statement=held_and(*(_verdict_formula(a) for a in ACTIVATIONS.values())),
)


def _decide_activation(act: Activation) -> tuple[Step, LayerWitness | None]:
    """A certified witness of Gated ≢ Sym; when none is found, SymPy on Gated − Sym itself."""
    w = certified_layer_witness(act, gated_minus_symmetric, lambda p: _unit_values(1, p))
    if w is None:
        fact = zero_or_witnessed_break(_unit_difference(act), (q, kk))
        note = (
            f"{act.name}: Gated ≡ Sym undecided"
            if not fact.proved
            else f"{act.name}: σ(q)·k − σ(q·k) ≠ 0 at a point SymPy found, so Gated ≢ Sym"
            if isinstance(fact.formula, sympy.Not)
            else f"{act.name}: σ(q)·k − σ(q·k) = 0 for all q, k, so Gated ≡ Sym"
        )
        return Step(
            fact, "SymPy on the difference (no witness among the candidate points)", note=note
        ), None
    fact = negate(
        counterexample(_unit_difference(act), 0, {q: sympy.Integer(1), kk: w.point}, (q, kk))
    )
    return Step(
        fact,
        f"certified at q = 1, k = {w.point} ({w.fact.verdict.method})",
        note=f"{act.name}: σ(1)·({w.point}) − σ({w.point}) ≠ 0, so Gated ≢ Sym",
    ), w


def activation_witnesses() -> tuple[Derivation, Table, tuple[numeric.WitnessCase, ...]]:
    steps, rows, cases = [], [], []
    for act in ACTIVATIONS.values():
        step, w = _decide_activation(act)
        steps.append(step)
        holds = None if step.verdict.status != "proved" else w is None
        rows.append(
            (
                act.name,
                act.note or None,
                holds,
                f"q = 1, k = {w.point}" if w else None,
                step.verdict.certificate or None,
                step.verdict.method,
            )
        )
        if w is not None:
            cases.append(numeric.witness_case(w, gated_minus_symmetric))
    table = Table(
        "gated-vs-symmetric",
        "Gated ≡ Sym, per activation (A5)",
        (
            "activation",
            "known as",
            "Gated ≡ Sym",
            "witness (d = n = 1, x = V = 1)",
            "Gated − Sym at the witness",
            "method",
        ),
        tuple(rows),
        ("a witness is found by trying points; the certificate, not the search, is the proof",),
    )
    steps.append(rule_step(conj(*(s.fact for s in steps)), f"conjunction of steps 1–{len(steps)}"))
    return Derivation(tuple(steps)), table, tuple(cases)


# --- Parameter counts -------------------------------------------------------------------------


def _times(*factors: sympy.Expr) -> sympy.Expr:
    return sympy.Mul(*factors, evaluate=False)


def _plus(*terms: sympy.Expr) -> sympy.Expr:
    return sympy.Add(*terms, evaluate=False)


# the entries counted, as written: n matrices M_j ∈ R^{d×d} and V; n pairs Q_j, K_j ∈ R^{d×r}
# and V; Q, K, V
FULL = _plus(_times(n, _times(d, d)), _times(n, d))
RANK_R = _plus(_times(n, _plus(_times(d, r), _times(d, r))), _times(n, d))
RANK_1 = _plus(_times(n, d), _times(n, d), _times(n, d))
QK_RATIO = _times(_times(n, d**2), sympy.Pow(_times(2, n, d, r), -1, evaluate=False))


def _at_rank_one(e: sympy.Expr) -> sympy.Expr:
    """``e`` at r = 1, the substitution written out (not evaluated)."""
    return literal_replace(e, {r: sympy.Integer(1)})


COUNTS = {"bilinear": FULL, "rank_r": RANK_R, "symmetric_rank1": RANK_1}
RATIO = _eq(
    _times(
        layers.parameter_count("bilinear"),
        sympy.Pow(layers.parameter_count("rank_r"), -1, evaluate=False),
    ),
    (d + 1) / (2 * r + 1),
)
PARAMETERS = Claim(
    "reduction.parameters",
    "Storage: full bilinear vs rank r vs rank 1",
    "Per layer (values V ∈ R^{n×d} included): full bilinear n·d² + n·d, rank r 2ndr + nd, rank 1 "
    "(symmetric or gated: the same weights Q, K, V) 3nd, and rank r at r = 1 is rank 1; "
    "full/rank-r = (d + 1)/(2r + 1), and for the query–key weights alone n·d²/(2ndr) = d/(2r).",
    "A3",
    kind="proposition",
    assumptions=("n, d, r ≥ 1 symbolic",),
    statement=held_and(
        *(_eq(count, layers.parameter_count(form)) for form, count in COUNTS.items()),
        _eq(_at_rank_one(RANK_R), RANK_1),
        RATIO,
        _eq(QK_RATIO, d / (2 * r)),
    ),
)


def parameter_counts() -> tuple[Derivation, Table]:
    what = {
        "bilinear": "M_1..M_n and V",
        "rank_r": "Q_j, K_j and V",
        "symmetric_rank1": "Q, K, V (the gated form has the same)",
    }
    counts = [
        equal_step(
            count,
            layers.parameter_count(form),
            f"count the entries of {what[form]}",
            note=f"parameters({form}) = {layers.parameter_count(form)}",
        )
        for form, count in COUNTS.items()
    ]
    rank_one = (
        Calc(_at_rank_one(RANK_R))
        .eq(
            _at_rank_one(layers.parameter_count("rank_r")),
            "step 2 at r = 1",
            by=inst(counts[1].fact, {r: sympy.Integer(1)}),
        )
        .eq(layers.parameter_count("symmetric_rank1"), "2nd·1 + nd = 3nd")
        .eq(RANK_1, "step 3, read right to left", by=symm(counts[2].fact))
    )
    ratio = equal_step(RATIO.lhs, RATIO.rhs, "cancel n·d", note="full / rank r = (d + 1)/(2r + 1)")
    qk = equal_step(
        QK_RATIO, d / (2 * r), "cancel n·d", note="query–key weights only: n·d² / (2ndr) = d/(2r)"
    )
    steps = [*counts, *rank_one.steps(note="rank r at r = 1 is rank 1: 2nd + nd = 3nd"), ratio, qk]
    steps.append(
        rule_step(
            conj(
                counts[0].fact, counts[1].fact, counts[2].fact, steps[-3].fact, ratio.fact, qk.fact
            ),
            "conjunction of the counts, the r = 1 chain and the two ratios",
        )
    )
    forms = ("mlp", "static_query", "bilinear", "rank_r", "symmetric_rank1", "gated")
    at = {**LLAMA_7B, r: RANK_EXAMPLE}
    rows = tuple(
        (
            f.name,
            f.source,
            f.weights,
            layers.parameter_count(f.name),
            int(layers.parameter_count(f.name).subs(at)),
        )
        for f in (layers.LAYER_FORMS[name] for name in forms)
    )
    table = Table(
        "parameter-counts",
        "Parameters per layer (A3)",
        (
            "layer form",
            "THEORY",
            "weights",
            "parameters",
            f"at d = {LLAMA_7B[d]}, n = {LLAMA_7B[n]}, r = {RANK_EXAMPLE}",
        ),
        rows,
        ("d = 4096, n = 11008 are LLaMA-7B's widths",),
    )
    return Derivation(tuple(steps)), table


# --- The report -------------------------------------------------------------------------------


def build_report(torch: bool = False) -> Report:
    """Every claim of A1, A3–A5 with its derivation and numeric cross-checks."""

    def checks(*names: str):
        return numeric.checks(names, torch=torch)

    witnesses, witness_table, cases = activation_witnesses()
    counts, count_table = parameter_counts()
    llama = numeric.llama_swiglu() if torch else ()
    results = (
        Result(KEY_VALUE, key_value(), checks("key_value_sum")),
        Result(SYMMETRIC_PART, symmetric_part(), checks("symmetric_part")),
        Result(RANK1_SCORE, rank1_score(), checks("rank1_bilinear")),
        Result(SYMMETRIC_RANK1, symmetric_rank1(), checks("rank1_bilinear")),
        Result(GATED_FORM, gated_form(), checks("gated_unit_sum") + llama),
        Result(GATED_IFF_LINEAR, gated_iff_linear(), checks("gated_is_symmetric_when_linear")),
        Result(
            ACTIVATION_WITNESSES,
            witnesses,
            numeric.replay_all("Gated − Sym at each certified witness", cases, torch),
        ),
        Result(PARAMETERS, counts, numeric.parameter_counts(torch)),
    )
    return Report(
        "proofs.reduction",
        "Bilinear attention → rank 1 → gated",
        "A1, A3–A5",
        results,
        (witness_table, count_table),
    )


def main(argv: list[str] | None = None) -> int:
    return run(build_report, __doc__, "python -m proofs.reduction", options=torch_option, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
