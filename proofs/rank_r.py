"""Rank-r bilinear attention and its symmetries (docs/theory.md A8).

Statement. With Q_j, K_j ∈ R^{d×r} (columns q_js, k_js) and M_j = Q_jK_jᵀ = Σ_s q_jsk_jsᵀ, the
score of unit j is x M_j xᵀ = Σ_s (x·q_js)(x·k_js). The rank-r layer Σ_j σ(score_j) v_j is
invariant under (Q_j, K_j) → (Q_jA, K_jA^{-T}) for every A ∈ GL(r) — at r = 1 the inverse
scaling (αq, k/α) — and under the exchange Q_j ↔ K_j. Moving σ onto the query factor,
Σ_j Σ_s σ(x·q_js)(x·k_js) v_j, breaks both for every nonlinear activation of the table
(certified witnesses at d = r = 2), and keeps both for linear σ.

The score and GL(r) identities are proved at general d, r (SymPy ``MatrixSymbol`` algebra with
``Inverse(A)``; entries as finite sums with symbolic bounds) and cross-checked at r = 2 and 3
with symbolic entries; layers are evaluated on random float64 inputs for every activation
(numpy; torch when installed).

Run: ``python -m proofs.rank_r [-v] [--json] [--latex [FILE]] [--no-torch]``
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import sympy
from sympy import Inverse, MatrixSymbol, Sum, Transpose

from numeric_checks import layers as numeric
from proofs._cli import run, torch_option
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation, z
from symbolic.calc import Calc, held_and, in_context, rule_step, zero_or_witnessed_break
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.gated.properties import candidate_points
from symbolic.gated.witness import LayerWitness
from symbolic.kernel import (
    ForAll,
    check_sum_equal,
    conj,
    counterexample,
    domain_of,
    inst,
    literal_replace,
    negate,
)
from symbolic.layers import symbolic_matrix
from symbolic.steps import entry_step, equal_matrices_step, matrix_step

B, d, n, r, d_out = sympy.symbols("B d n r d_out", integer=True, positive=True)
s, i = sympy.symbols("s i", integer=True, nonnegative=True)
c = sympy.Symbol("c", integer=True, nonnegative=True)  # an output column
ORDER = 40  # place in `python -m proofs` (A8, after the symmetries of A6–A7)
sigma = sympy.Function("sigma")  # uninterpreted: nothing is assumed about σ
alpha = sympy.Symbol("alpha", nonzero=True)

x = MatrixSymbol("x", 1, d)  # one token (every unit's score is a function of one row)
Q_j, K_j = MatrixSymbol("Q_j", d, r), MatrixSymbol("K_j", d, r)
A = MatrixSymbol("A", r, r)
v_j = MatrixSymbol("v_j", 1, d_out)  # unit j's value row

EXPLICIT_GL = ((3, 2), (2, 3))  # (d, r) of the symbolic-entry GL(r) cross-checks
ALPHAS = tuple(sympy.Rational(a) for a in ("-1", "2", "1/2"))  # tried in A = [[α, 1], [0, 1]]
ASSUMPTIONS = (
    "d, r ≥ 1 symbolic (general dimension)",
    "σ: R → R arbitrary (an uninterpreted function)",
)

P, S = layers.held_product, layers.held_apply


def _eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Eq:
    return sympy.Eq(lhs, rhs, evaluate=False)


def _dot(w: MatrixSymbol, col: sympy.Expr) -> sympy.Expr:
    """``x·w_col = Σ_i x[0, i] w[i, col]``: the token against one column."""
    return Sum(x[0, i] * w[i, col], (i, 0, w.shape[0] - 1))


def _score_sum(first: MatrixSymbol, second: MatrixSymbol) -> sympy.Expr:
    """``Σ_s (x·first_s)(x·second_s)``, the two factors in the order given."""
    return Sum(
        sympy.Mul(_dot(first, s), _dot(second, s), evaluate=False), (s, 0, first.shape[1] - 1)
    )


def _unit(score: sympy.Expr) -> sympy.MatrixExpr:
    """Unit j's output ``σ(score) v_j`` (a 1×1 score matrix: σ elementwise)."""
    if isinstance(score, sympy.MatrixExpr):
        return P(S(sigma, score), v_j)
    return sympy.MatMul(sigma(score), v_j, evaluate=False)


SCORE = P(x, Q_j, Transpose(K_j), Transpose(x))  # x Q_jK_jᵀ xᵀ
HALVES = P(P(x, Q_j), Transpose(P(x, K_j)))  # (xQ_j)(xK_j)ᵀ
HALVES_ENTRY = HALVES[0, 0]
LAYER_SCORE_ENTRY = layers.rank_r_scores(x, [Q_j], [K_j])[0, 0]  # what the layer computes
SCORE_SUM, SWAPPED_SUM = _score_sum(Q_j, K_j), _score_sum(K_j, Q_j)


def _at_rank_one(e: sympy.Basic) -> sympy.Basic:
    """``e`` at r = 1, the substitution written out (not evaluated)."""
    return literal_replace(e, {r: sympy.Integer(1)})


RANK_ONE_PRODUCT = _at_rank_one(sympy.Mul(_dot(Q_j, 0), _dot(K_j, 0), evaluate=False))
SCORES = Claim(
    "rank_r.scores",
    "A rank-r score is a sum of r rank-1 scores",
    "x Q_jK_jᵀ xᵀ = (xQ_j)(xK_j)ᵀ = Σ_s (x·q_js)(x·k_js) for Q_j, K_j ∈ R^{d×r}; the layer "
    "(layers.rank_r_scores) computes that sum; at r = 1 it is the rank-1 score (x·q)(x·k) of "
    "the symmetric form. The rank-r layer is the bilinear layer with M_j = Q_jK_jᵀ (checked "
    "entry by entry at B = 2, d = 3, r = 2, n = 2).",
    "A8",
    assumptions=ASSUMPTIONS,
    statement=held_and(
        _eq(SCORE, HALVES),
        _eq(HALVES_ENTRY, SCORE_SUM),
        _eq(LAYER_SCORE_ENTRY, SCORE_SUM),
        _eq(_at_rank_one(HALVES_ENTRY), RANK_ONE_PRODUCT),
    ),
)


EXPLICIT = "[B=2, d=3, r=2, n=2, d_out=2; symbolic entries]"


def _explicit_layer() -> tuple[sympy.Matrix, list, list, sympy.Matrix]:
    """x, [Q_j], [K_j], V with symbolic entries at the sizes ``EXPLICIT`` names."""
    xs, vs = symbolic_matrix("x", 2, 3), symbolic_matrix("V", 2, 2)
    qs = [symbolic_matrix(f"Q{u}", 3, 2) for u in range(2)]
    ks = [symbolic_matrix(f"K{u}", 3, 2) for u in range(2)]
    return xs, qs, ks, vs


def scores() -> Derivation:
    xs, qs, ks, vs = _explicit_layer()
    matrix = matrix_step(
        SCORE,
        HALVES,
        "(xK_j)ᵀ = K_jᵀxᵀ; associativity",
        note="[general d, r] x Q_jK_jᵀ xᵀ = (xQ_j)(xK_j)ᵀ",
    )
    entry = entry_step(
        HALVES_ENTRY,
        SCORE_SUM,
        "entry (0, 0) of a product of a row and a column",
        note="[general d, r] (xQ_j)(xK_j)ᵀ = Σ_s (x·q_js)(x·k_js)",
    )
    layer = entry_step(
        LAYER_SCORE_ENTRY,
        SCORE_SUM,
        "the layer's scores: row sums of (xQ_j) ⊙ (xK_j)",
        note="[general d, r] rank_r_scores(x, [Q_j], [K_j]) = Σ_s (x·q_js)(x·k_js)",
    )
    rank_one = (
        Calc(_at_rank_one(HALVES_ENTRY))
        .eq(_at_rank_one(SCORE_SUM), "step 3 at r = 1", by=inst(entry.fact, {r: sympy.Integer(1)}))
        .eq(
            RANK_ONE_PRODUCT,
            "a sum over the one value s = 0",
            check=check_sum_equal,
            note="[general d; r = 1] = (x·q)(x·k), the rank-1 score (reduction.rank1_score)",
        )
        .steps(note="[general d; r = 1] (xq)(xk)ᵀ = (x·q)(x·k)")
    )
    return Derivation(
        (
            equal_matrices_step(
                layers.rank_r(xs, qs, ks, vs, sigma),
                layers.bilinear(xs, [a * b.T for a, b in zip(qs, ks, strict=True)], vs, sigma),
                "expand every entry",
                note=f"{EXPLICIT} rank_r(x, {{Q_j}}, {{K_j}}, V, σ) = bilinear(x, "
                "{Q_jK_jᵀ}, V, σ)",
            ),
            matrix,
            entry,
            layer,
            *rank_one,
            rule_step(
                conj(matrix.fact, entry.fact, layer.fact, rank_one[-1].fact),
                "conjunction of steps 2, 3, 4 and 7",
            ),
        )
    )


MOVED = P(P(Q_j, A), Transpose(P(K_j, Transpose(Inverse(A)))))  # (Q_jA)(K_jA^{-T})ᵀ
M_HOLE = MatrixSymbol("M", d, d)
q1, k1 = MatrixSymbol("q", d, 1), MatrixSymbol("k", d, 1)
SCALED = P(alpha * q1, Transpose(k1 / alpha))
GL_R = Claim(
    "rank_r.gl",
    "GL(r) symmetry of the rank-r layer",
    "for every A ∈ GL(r): (Q_jA)(K_jA^{-T})ᵀ = Q_jK_jᵀ, so (Q_j, K_j) → (Q_jA, K_jA^{-T}) leaves "
    "unit j's output σ(x M_j xᵀ) v_j unchanged, for every σ; at r = 1 (A = α ≠ 0) this is the "
    "inverse scaling (αq, k/α). Cross-checked with A^{-1} = adj(A)/det A at r = 2, 3.",
    "A8",
    uses=("rank_r.scores",),
    assumptions=(*ASSUMPTIONS, "A ∈ R^{r×r} invertible"),
    statement=held_and(
        _eq(MOVED, P(Q_j, Transpose(K_j))),
        _eq(_unit(P(x, MOVED, Transpose(x))), _unit(P(x, P(Q_j, Transpose(K_j)), Transpose(x)))),
        _eq(SCALED, P(q1, Transpose(k1))),
    ),
)


def gl_r() -> Derivation:
    moved = matrix_step(
        MOVED,
        P(Q_j, Transpose(K_j)),
        "(K_jA^{-T})ᵀ = A^{-1}K_jᵀ; A A^{-1} = I",
        note="[general d, r] (Q_jA)(K_jA^{-T})ᵀ = Q_jK_jᵀ",
    )
    unit = in_context(
        moved,
        M_HOLE,
        _unit(P(x, M_HOLE, Transpose(x))),
        "(Q_jA)(K_jA^{-T})ᵀ = Q_jK_jᵀ inside unit j's output σ(x · xᵀ) v_j (congruence)",
        note="[general d, r] the score x M_j xᵀ, hence σ(score)·v_j, is unchanged",
    )
    scalar = matrix_step(
        SCALED,
        P(q1, Transpose(k1)),
        "scalars commute with matrices; α/α = 1",
        note="[general d; r = 1] (αq)(k/α)ᵀ = qkᵀ: the inverse scaling",
    )
    steps = []
    for dd, rr in EXPLICIT_GL:
        a = sympy.ImmutableMatrix(symbolic_matrix("A", rr, rr))
        qe = sympy.ImmutableMatrix(symbolic_matrix("Q", dd, rr))
        ke = sympy.ImmutableMatrix(symbolic_matrix("K", dd, rr))
        adj, det = a.adjugate(), a.det()
        steps.append(
            matrix_step(
                P(a, adj),
                det * sympy.eye(rr),
                "expand every entry",
                note=f"[r = {rr}; symbolic entries] A·adj(A) = det(A)·I, so "
                "A^{-1} = adj(A)/det A",
            )
        )
        steps.append(
            matrix_step(
                P(P(qe, a), Transpose(P(ke, Transpose(adj)))),
                det * (qe * ke.T),
                "expand every entry",
                note=f"[d = {dd}, r = {rr}; symbolic entries] "
                "(Q_jA)(K_j adj(A)ᵀ)ᵀ = det(A)·Q_jK_jᵀ; divide by det A ≠ 0",
            )
        )
    return Derivation(
        (
            *steps,
            moved,
            unit,
            scalar,
            rule_step(
                conj(moved.fact, unit.fact, scalar.fact),
                f"conjunction of steps {len(steps) + 1}–{len(steps) + 3}",
            ),
        )
    )


EXCHANGE = Claim(
    "rank_r.exchange",
    "Exchange symmetry of the rank-r layer",
    "exchanging Q_j ↔ K_j leaves every score Σ_s (x·q_js)(x·k_js), hence unit j's output "
    "σ(score)·v_j, unchanged for every σ; it turns M_j = Q_jK_jᵀ into M_jᵀ (step 1), which has "
    "the same symmetric part (reduction.symmetric_part).",
    "A8",
    uses=("rank_r.scores", "reduction.symmetric_part"),
    assumptions=ASSUMPTIONS,
    statement=_eq(_unit(SWAPPED_SUM), _unit(SCORE_SUM)),
)


def exchange() -> Derivation:
    hole = sympy.Symbol("t", real=True)
    transpose = matrix_step(
        P(K_j, Transpose(Q_j)),
        Transpose(P(Q_j, Transpose(K_j))),
        "transpose of a product",
        note="[general d, r] K_jQ_jᵀ = (Q_jK_jᵀ)ᵀ",
    )
    swap = entry_step(
        SWAPPED_SUM,
        SCORE_SUM,
        "(x·k_js)(x·q_js) = (x·q_js)(x·k_js) in every term (commutativity)",
        note="[general d, r] the score with Q_j ↔ K_j is the score",
    )
    unit = in_context(
        swap,
        hole,
        _unit(hole),
        "step 2 inside σ(·)·v_j (congruence)",
        note="[general d, r] unit j's output is unchanged",
    )
    return Derivation((transpose, swap, unit))


# --- The gated rank-r variant -----------------------------------------------------------------

X_E1, ONE = sympy.Matrix([[1, 0]]), sympy.Matrix([[1]])
p, kq = sympy.symbols("q k", real=True)  # the free weight entries of the witness families
t_ = sympy.Symbol("t", real=True)
c0 = sympy.Symbol("c", real=True)
LINEAR = sympy.Lambda(t_, c0 * t_)
UNIT_V = sympy.Identity(1)  # one unit with value 1: units are independent
LINEAR_CASE = _eq(
    layers.gated_rank_r(x, [Q_j], [K_j], UNIT_V, LINEAR)[0, 0],
    layers.rank_r(x, [Q_j], [K_j], UNIT_V, LINEAR)[0, 0],
)


def _first_column(value: sympy.Expr) -> sympy.Matrix:
    """A 2×2 weight whose first column, as seen by x = (1, 0), is (value, 0)."""
    return sympy.Matrix([[value, 0], [0, 0]])


def _shear(a: sympy.Expr) -> sympy.Matrix:
    """``A = [[α, 1], [0, 1]]``, invertible for α ≠ 0 (det A = α)."""
    return sympy.Matrix([[a, 1], [0, 1]])


def exchange_difference(sig: Callable, v: Mapping) -> object:
    """gated_rank_r(Q, K) − gated_rank_r(K, Q) for one unit."""
    return (
        layers.gated_rank_r(v["x"], [v["Q"]], [v["K"]], v["V"], sig)
        - layers.gated_rank_r(v["x"], [v["K"]], [v["Q"]], v["V"], sig)
    )[0, 0]


def gl_difference(sig: Callable, v: Mapping) -> object:
    """gated_rank_r(QA, KA^{-T}) − gated_rank_r(Q, K) for one unit."""
    moved_q, moved_k = v["Q"] @ v["A"], v["K"] @ v["A_inv_T"]
    return (
        layers.gated_rank_r(v["x"], [moved_q], [moved_k], v["V"], sig)
        - layers.gated_rank_r(v["x"], [v["Q"]], [v["K"]], v["V"], sig)
    )[0, 0]


def _exchange_values(q: sympy.Expr, k: sympy.Expr) -> dict[str, sympy.Matrix]:
    return {"x": X_E1, "Q": _first_column(q), "K": _first_column(k), "V": ONE}


def _gl_values(a: sympy.Expr, q: sympy.Expr) -> dict[str, sympy.Matrix]:
    shear = _shear(a)
    return {
        "x": X_E1,
        "Q": _first_column(q),
        "K": _first_column(1),
        "V": ONE,
        "A": shear,
        "A_inv_T": shear.inv().T,
    }


@cache
def _written_out(family: str, act: Activation) -> sympy.Expr:
    """The layer difference on a witness family for σ = ``act``: computed with σ uninterpreted,
    then σ replaced by the activation without evaluating (a linear σ gives k·p − p·k, not 0)."""
    difference, values, _ = FAMILIES[family]
    with_sigma = difference(sigma, values)
    applied = {f: literal_replace(act.expr, {z: f.args[0]}) for f in with_sigma.atoms(sigma)}
    return literal_replace(with_sigma, applied)


@cache
def _quantified(family: str) -> tuple[tuple[sympy.Symbol, ...], sympy.Basic]:
    """The family's free entries in the order ``negate`` writes them, and their domain (read
    off their assumptions once: the same for every activation)."""
    variables = tuple(sorted(FAMILIES[family][2], key=str))
    return variables, domain_of(variables)


# what each symmetry's difference is, on its witness family, as a function of the free entries
FAMILIES = {
    "exchange": (exchange_difference, _exchange_values(p, kq), (p, kq)),
    "gl": (gl_difference, _gl_values(alpha, p), (alpha, p)),
}


def _verdict_formula(act: Activation, family: str) -> sympy.Basic:
    """What the table says: the difference is 0 for all values when σ is linear, otherwise
    not (¬∀)."""
    zero = _eq(_written_out(family, act), 0)
    if act.linear:
        return zero
    variables, domain = _quantified(family)
    return sympy.Not(ForAll(variables, zero, domain=domain), evaluate=False)  # as negate writes it


GATED_BREAKS = Claim(
    "rank_r.gated_breaks",
    "Moving σ onto the query factor breaks both symmetries",
    "the gated rank-r layer Σ_j (Σ_s σ(x·q_js)(x·k_js)) v_j is the rank-r layer when σ is "
    "linear (so it keeps the GL(r) and exchange symmetries), and for every nonlinear "
    "activation of the table (by its 'linear' entry) breaks both: the layer difference is "
    "nonzero at a certified witness of the families d = r = 2, n = 1, x = (1, 0), V = 1, "
    "Q_j = [[p, 0], [0, 0]], K_j = [[k, 0], [0, 0]] (exchange) and K_j = [[1, 0], [0, 0]], "
    "A = [[α, 1], [0, 1]] (GL(2)).",
    "A8",
    uses=("rank_r.gl", "rank_r.exchange"),
    assumptions=("σ from the activation table",),
    statement=held_and(
        LINEAR_CASE,
        *(
            _verdict_formula(act, family)
            for act in ACTIVATIONS.values()
            for family in ("exchange", "gl")
        ),
    ),
)

Witness = tuple[tuple[str, str], ...]  # (name, exact value) pairs


def _break_step(
    act: Activation,
    what: str,
    family: str,
    searches: list[tuple[Callable[[sympy.Expr], Witness], Callable, Callable[[sympy.Expr], dict]]],
) -> tuple[Step, LayerWitness | None]:
    """A certified witness that ``what`` breaks: the first candidate point where the kernel
    refutes ``difference = 0`` (the layers, evaluated exactly, only skip points where they
    differ by 0); else SymPy on the difference for all values."""
    variables = FAMILIES[family][2]
    written = _written_out(family, act)
    for describe, search_values, point in searches:
        for value in candidate_points(act.expr):
            # the written-out difference at the point: the layer difference's value, exactly,
            # without multiplying the layers out for every candidate (a search, not a proof)
            there = written.xreplace(point(value))
            if there.is_zero or there.has(sympy.zoo, sympy.nan, sympy.I):
                continue
            fact = negate(counterexample(written, 0, point(value), variables))
            if not fact.proved:
                continue
            # the layer difference's exact value there is ``there`` (the written-out difference
            # at the point): the replay compares the numeric layers with it
            w = LayerWitness(act, value, search_values(value), there, fact, where=describe(value))
            place = ", ".join(f"{k} = {v}" for k, v in w.where)
            return Step(
                fact,
                f"certified ({fact.verdict.method}) at {place}",
                note=f"{act.name}: {what} broken — the layer difference at {place} is nonzero",
            ), w
    fact = zero_or_witnessed_break(written, variables)
    outcome = (
        "undecided"
        if not fact.proved
        else "broken: certified at the point where SymPy refuted 'the difference is 0'"
        if isinstance(fact.formula, sympy.Not)
        else "not broken: on the witness family the difference is 0 for all values"
    )
    return Step(
        fact,
        "SymPy on the difference (no witness among the candidate points)",
        note=f"{act.name}: {what} {outcome}",
    ), None


def gated_breaks() -> tuple[
    Derivation, Table, tuple[numeric.WitnessCase, ...], tuple[numeric.WitnessCase, ...]
]:
    steps = [
        entry_step(
            LINEAR_CASE.lhs,
            LINEAR_CASE.rhs,
            "c moves out of every sum",
            note="[general d, r; one unit] σ(z) = c·z ⇒ gated_rank_r = rank_r: both "
            "symmetries hold",
        )
    ]
    rows, exchange_cases, gl_cases = [], [], []
    for act in ACTIVATIONS.values():
        ex_step, ex = _break_step(
            act,
            "exchange Q_j ↔ K_j",
            "exchange",
            [
                (
                    lambda v: (("q", "1"), ("k", str(v))),
                    lambda v: _exchange_values(1, v),
                    lambda v: {p: sympy.Integer(1), kq: v},
                )
            ],
        )
        gl_searches = [
            (
                lambda v, a=a: (("A", f"[[{a}, 1], [0, 1]]"), ("q", str(v)), ("k", "1")),
                lambda v, a=a: _gl_values(a, v),
                lambda v, a=a: {alpha: a, p: v},
            )
            for a in ALPHAS
        ]
        gl_step, gl = _break_step(act, "GL(2)", "gl", gl_searches)
        steps += [ex_step, gl_step]
        if ex is not None:
            exchange_cases.append(numeric.witness_case(ex, exchange_difference))
        if gl is not None:
            gl_cases.append(numeric.witness_case(gl, gl_difference))
        rows.append((act.name, _cell(ex_step, ex), _cell(gl_step, gl)))
    steps.append(
        rule_step(conj(*(st.fact for st in steps)), f"conjunction of steps 1–{len(steps)}")
    )
    table = Table(
        "gated-rank-r",
        "Gated rank-r layer: symmetries per activation (A8)",
        ("activation", "exchange Q_j ↔ K_j", "GL(2)"),
        tuple(rows),
        (
            "witnesses at d = r = 2, n = 1, x = (1, 0), V = 1, Q_j = [[q, 0], [0, 0]], "
            "K_j = [[k, 0], [0, 0]]",
        ),
    )
    return Derivation(tuple(steps)), table, tuple(exchange_cases), tuple(gl_cases)


def _cell(step: Step, witness: LayerWitness | None) -> str:
    if step.verdict.status != "proved":
        return "undecided"
    if witness is None:
        return "not broken (difference ≡ 0)"
    place = ", ".join(f"{k} = {v}" for k, v in witness.where)
    return f"broken at {place} ({step.verdict.method})"


def build_report(torch: bool = False) -> Report:
    """Every claim of A8 with its derivation and numeric cross-checks."""

    def checks(*names: str):
        return numeric.checks(names, torch=torch)

    breaks, table, exchange_cases, gl_cases = gated_breaks()
    results = (
        Result(SCORES, scores(), checks("rank_r_scores", "rank_r_is_bilinear")),
        Result(GL_R, gl_r(), checks("rank_r_gl")),
        Result(EXCHANGE, exchange(), checks("rank_r_exchange")),
        Result(
            GATED_BREAKS,
            breaks,
            numeric.replay_all(
                "exchange witnesses replayed through layers.gated_rank_r", exchange_cases, torch
            )
            + numeric.replay_all(
                "GL(2) witnesses replayed through layers.gated_rank_r", gl_cases, torch
            ),
        ),
    )
    return Report("proofs.rank_r", "Rank-r bilinear attention", "A8", results, (table,))


def main(argv: list[str] | None = None) -> int:
    return run(build_report, __doc__, "python -m proofs.rank_r", options=torch_option, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
