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
from dataclasses import replace

import sympy
from sympy import Inverse, MatMul, MatrixSymbol, Sum, Transpose

from numeric_checks import layers as numeric
from proofs._cli import run, torch_option
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation
from symbolic.check import equal_matrices_step
from symbolic.dimension_free import entry_step, matrix_step
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.kernel import check_equal
from symbolic.layer_witness import LayerWitness, certified_layer_witness, sympy_sigma
from symbolic.layers import symbolic_matrix

B, d, n, r, d_out = sympy.symbols("B d n r d_out", integer=True, positive=True)
s, i = sympy.symbols("s i", integer=True, nonnegative=True)
ORDER = 40  # place in `python -m proofs` (A8, after the symmetries of A6–A7)
sigma = sympy.Function("sigma")  # uninterpreted: nothing is assumed about σ
alpha = sympy.Symbol("alpha", nonzero=True)

x = MatrixSymbol("x", 1, d)  # one token (every unit's score is a function of one row)
Q_j, K_j = MatrixSymbol("Q_j", d, r), MatrixSymbol("K_j", d, r)
A = MatrixSymbol("A", r, r)

EXPLICIT_GL = ((3, 2), (2, 3))  # (d, r) of the symbolic-entry GL(r) cross-checks
ALPHAS = tuple(sympy.Rational(a) for a in ("-1", "2", "1/2"))  # tried in A = [[α, 1], [0, 1]]
ASSUMPTIONS = ("d, r ≥ 1 symbolic (general dimension)",
               "σ: R → R arbitrary (an uninterpreted function)")


def _dot(w: MatrixSymbol, col: sympy.Expr) -> sympy.Expr:
    """``x·w_col = Σ_i x[0, i] w[i, col]``: the token against one column."""
    return Sum(x[0, i] * w[i, col], (i, 0, d - 1))


SCORES = Claim(
    "rank_r.scores", "A rank-r score is a sum of r rank-1 scores",
    "x Q_jK_jᵀ xᵀ = Σ_s (x·q_js)(x·k_js) for Q_j, K_j ∈ R^{d×r}; the rank-r layer is the "
    "bilinear-attention layer with M_j = Q_jK_jᵀ, and at r = 1 it is the symmetric rank-1 form.",
    "A8", assumptions=ASSUMPTIONS)


EXPLICIT = "[B=2, d=3, r=2, n=2, d_out=2; symbolic entries]"


def _explicit_layer() -> tuple[sympy.Matrix, list, list, sympy.Matrix]:
    """x, [Q_j], [K_j], V with symbolic entries at the sizes ``EXPLICIT`` names."""
    xs, vs = symbolic_matrix("x", 2, 3), symbolic_matrix("V", 2, 2)
    qs = [symbolic_matrix(f"Q{u}", 3, 2) for u in range(2)]
    ks = [symbolic_matrix(f"K{u}", 3, 2) for u in range(2)]
    return xs, qs, ks, vs


def scores() -> Derivation:
    halves = MatMul(MatMul(x, Q_j, evaluate=False), Transpose(MatMul(x, K_j, evaluate=False)),
                    evaluate=False)
    q1, k1 = MatrixSymbol("q", d, 1), MatrixSymbol("k", d, 1)
    xs, qs, ks, vs = _explicit_layer()
    return Derivation((
        matrix_step(MatMul(x, Q_j, Transpose(K_j), Transpose(x), evaluate=False),
                    halves,
                    "(xK_j)ᵀ = K_jᵀxᵀ; associativity",
                    note="[general d, r] x Q_jK_jᵀ xᵀ = (xQ_j)(xK_j)ᵀ"),
        entry_step(halves[0, 0],
                   Sum(_dot(Q_j, s) * _dot(K_j, s), (s, 0, r - 1)),
                   "entry (0, 0) of a product of a row and a column",
                   note="[general d, r] (xQ_j)(xK_j)ᵀ = Σ_s (x·q_js)(x·k_js)"),
        entry_step(layers.rank_r_scores(x, [Q_j], [K_j])[0, 0],
                   Sum(_dot(Q_j, s) * _dot(K_j, s), (s, 0, r - 1)),
                   "the layer's scores: row sums of (xQ_j) ⊙ (xK_j)",
                   note="[general d, r] rank_r_scores(x, [Q_j], [K_j]) = Σ_s (x·q_js)(x·k_js)"),
        entry_step(layers.rank_r_scores(x, [q1], [k1])[0, 0],
                   (x * q1)[0, 0] * (x * k1)[0, 0],
                   "a sum over one value of s",
                   note="[general d; r = 1] rank_r_scores(x, [q], [k]) = (x·q)(x·k)"),
        equal_matrices_step(layers.rank_r(xs, qs, ks, vs, sigma),
                            layers.bilinear(xs, [a * b.T for a, b in zip(qs, ks, strict=True)],
                                            vs, sigma),
                            "expand every entry",
                            note=f"{EXPLICIT} rank_r(x, {{Q_j}}, {{K_j}}, V, σ) = bilinear(x, "
                            "{Q_jK_jᵀ}, V, σ)"),
    ))


GL_R = Claim(
    "rank_r.gl", "GL(r) symmetry of the rank-r layer",
    "For every A ∈ GL(r): (Q_jA)(K_jA^{-T})ᵀ = Q_jK_jᵀ, so (Q_j, K_j) → (Q_jA, K_jA^{-T}) leaves "
    "every score and the rank-r layer unchanged, for every σ. At r = 1 (A = α ≠ 0) this is the "
    "inverse scaling (αq, k/α).", "A8", uses=("rank_r.scores",),
    assumptions=(*ASSUMPTIONS, "A ∈ R^{r×r} invertible"))


def gl_r() -> Derivation:
    moved = MatMul(MatMul(Q_j, A, evaluate=False),
                   Transpose(MatMul(K_j, Transpose(Inverse(A)), evaluate=False)), evaluate=False)
    score = MatMul(x, moved, Transpose(x), evaluate=False)
    q1, k1 = MatrixSymbol("q", d, 1), MatrixSymbol("k", d, 1)
    steps = [
        matrix_step(moved,
                    Q_j * K_j.T,
                    "(K_jA^{-T})ᵀ = A^{-1}K_jᵀ; A A^{-1} = I",
                    note="[general d, r] (Q_jA)(K_jA^{-T})ᵀ = Q_jK_jᵀ"),
        matrix_step(score,
                    x * Q_j * K_j.T * x.T,
                    "step 1 inside the score",
                    note="[general d, r] x(Q_jA)(K_jA^{-T})ᵀxᵀ = x Q_jK_jᵀ xᵀ: the score is unchanged"),
        matrix_step(MatMul(alpha * q1, Transpose(k1 / alpha), evaluate=False),
                    q1 * k1.T,
                    "scalars commute with matrices; α/α = 1",
                    note="[general d; r = 1] (αq)(k/α)ᵀ = qkᵀ: the inverse scaling"),
    ]
    for dd, rr in EXPLICIT_GL:
        a = symbolic_matrix("A", rr, rr)
        qe, ke = symbolic_matrix("Q", dd, rr), symbolic_matrix("K", dd, rr)
        adj, det = a.adjugate(), a.det()
        steps.append(equal_matrices_step(a * adj,
                                         det * sympy.eye(rr),
                                         "expand every entry",
                                         note=f"[r = {rr}; symbolic entries] A·adj(A) = det(A)·I, so A^{{-1}} = adj(A)/det A"))
        steps.append(equal_matrices_step((qe * a) * (ke * adj.T).T,
                                         det * qe * ke.T,
                                         "expand every entry",
                                         note=f"[d = {dd}, r = {rr}; symbolic entries] (Q_jA)(K_j adj(A)ᵀ)ᵀ = det(A)·Q_jK_jᵀ; "
            "divide by det A ≠ 0"))
    return Derivation(tuple(steps))


EXCHANGE = Claim(
    "rank_r.exchange", "Exchange symmetry of the rank-r layer",
    "Exchanging Q_j ↔ K_j leaves every score Σ_s (x·q_js)(x·k_js), hence the rank-r layer, "
    "unchanged for every σ: M_j becomes M_jᵀ, which has the same symmetric part.", "A8",
    uses=("rank_r.scores", "reduction.symmetric_part"), assumptions=ASSUMPTIONS)


def exchange() -> Derivation:
    xs, qs, ks, vs = _explicit_layer()
    return Derivation((
        matrix_step(K_j * Q_j.T,
                    Transpose(MatMul(Q_j, Transpose(K_j), evaluate=False)),
                    "transpose of a product",
                    note="[general d, r] K_jQ_jᵀ = (Q_jK_jᵀ)ᵀ"),
        entry_step(layers.rank_r_scores(x, [K_j], [Q_j])[0, 0],
                   layers.rank_r_scores(x, [Q_j], [K_j])[0, 0],
                   "(x·k_js)(x·q_js) = (x·q_js)(x·k_js) in every term",
                   note="[general d, r] rank_r_scores(x, [K_j], [Q_j]) = rank_r_scores(x, [Q_j], [K_j])"),
        equal_matrices_step(layers.rank_r(xs, ks, qs, vs, sigma),
                            layers.rank_r(xs, qs, ks, vs, sigma),
                            "expand every entry",
                            note=f"{EXPLICIT} rank_r(x, {{K_j}}, {{Q_j}}, V, σ) = rank_r(x, "
                            "{Q_j}, {K_j}, V, σ)"),
    ))


# --- The gated rank-r variant -----------------------------------------------------------------

GATED_BREAKS = Claim(
    "rank_r.gated_breaks", "Moving σ onto the query factor breaks both symmetries",
    "The gated rank-r layer Σ_j (Σ_s σ(x·q_js)(x·k_js)) v_j keeps the GL(r) and exchange "
    "symmetries when σ is linear, and for every nonlinear activation of the table breaks both: "
    "certified witnesses at d = r = 2, n = 1, x = (1, 0), V = 1.", "A8",
    uses=("rank_r.gl", "rank_r.exchange"),
    assumptions=("σ from the activation table",))

X_E1, ONE = sympy.Matrix([[1, 0]]), sympy.Matrix([[1]])


def _first_column(value: sympy.Expr) -> sympy.Matrix:
    """A 2×2 weight whose first column, as seen by x = (1, 0), is (value, 0)."""
    return sympy.Matrix([[value, 0], [0, 0]])


def _shear(a: sympy.Expr) -> sympy.Matrix:
    """``A = [[α, 1], [0, 1]]``, invertible for α ≠ 0 (det A = α)."""
    return sympy.Matrix([[a, 1], [0, 1]])


def exchange_difference(sig: Callable, v: Mapping) -> object:
    """gated_rank_r(Q, K) − gated_rank_r(K, Q) for one unit."""
    return (layers.gated_rank_r(v["x"], [v["Q"]], [v["K"]], v["V"], sig)
            - layers.gated_rank_r(v["x"], [v["K"]], [v["Q"]], v["V"], sig))[0, 0]


def gl_difference(sig: Callable, v: Mapping) -> object:
    """gated_rank_r(QA, KA^{-T}) − gated_rank_r(Q, K) for one unit."""
    moved_q, moved_k = v["Q"] @ v["A"], v["K"] @ v["A_inv_T"]
    return (layers.gated_rank_r(v["x"], [moved_q], [moved_k], v["V"], sig)
            - layers.gated_rank_r(v["x"], [v["Q"]], [v["K"]], v["V"], sig))[0, 0]


def _exchange_values(q: sympy.Expr, k: sympy.Expr) -> dict[str, sympy.Matrix]:
    return {"x": X_E1, "Q": _first_column(q), "K": _first_column(k), "V": ONE}


def _gl_values(a: sympy.Expr, p: sympy.Expr) -> dict[str, sympy.Matrix]:
    shear = _shear(a)
    return {"x": X_E1, "Q": _first_column(p), "K": _first_column(1), "V": ONE, "A": shear,
            "A_inv_T": shear.inv().T}


Witness = tuple[tuple[str, str], ...]  # (name, exact value) pairs


def _break_step(act: Activation, what: str, difference: Callable,
                searches: list[tuple[Callable[[sympy.Expr], Witness], Callable]],
                symbolic: dict) -> tuple[Step, LayerWitness | None]:
    """A certified witness that ``what`` breaks, else SymPy on the symbolic difference."""
    for describe, values in searches:
        w = certified_layer_witness(act, difference, values)
        if w is not None:
            w = replace(w, where=describe(w.point))
            place = ", ".join(f"{k} = {v}" for k, v in w.where)
            return Step(w.fact, f"certified ({w.fact.verdict.method}) at {place}",
                        note=f"{act.name}: {what} broken — the layer difference at {place} "
                        "is nonzero"), w
    fact = check_equal(difference(sympy_sigma(act), symbolic), 0)
    outcome = ("not broken: on the witness family the difference is 0 for all values"
               if fact.proved else "undecided")
    return Step(fact, "SymPy on the difference (no witness among the candidate points)",
                note=f"{act.name}: {what} {outcome}"), None


def gated_breaks() -> tuple[Derivation, Table, tuple[numeric.WitnessCase, ...],
                            tuple[numeric.WitnessCase, ...]]:
    t = sympy.Symbol("t", real=True)
    c, p, k = sympy.symbols("c p k", real=True)
    linear = sympy.Lambda(t, c * t)
    unit = sympy.Identity(1)  # one unit with value 1: units are independent
    steps = [entry_step(layers.gated_rank_r(x, [Q_j], [K_j], unit, linear)[0, 0],
                        layers.rank_r(x, [Q_j], [K_j], unit, linear)[0, 0],
                        "c moves out of every sum",
                        note="[general d, r; one unit] σ(z) = c·z ⇒ gated_rank_r = rank_r: both "
                        "symmetries hold")]
    rows, exchange_cases, gl_cases = [], [], []
    for act in ACTIVATIONS.values():
        ex_step, ex = _break_step(act, "exchange Q_j ↔ K_j", exchange_difference,
                                  [(lambda v: (("q", "1"), ("k", str(v))),
                                    lambda v: _exchange_values(1, v))],
                                  _exchange_values(p, k))
        gl_searches = [(lambda v, a=a: (("A", f"[[{a}, 1], [0, 1]]"), ("q", str(v)), ("k", "1")),
                        lambda v, a=a: _gl_values(a, v)) for a in ALPHAS]
        gl_step, gl = _break_step(act, "GL(2)", gl_difference, gl_searches,
                                  _gl_values(alpha, p))
        steps += [ex_step, gl_step]
        if ex is not None:
            exchange_cases.append(numeric.witness_case(ex, exchange_difference))
        if gl is not None:
            gl_cases.append(numeric.witness_case(gl, gl_difference))
        rows.append((act.name, _cell(ex_step, ex), _cell(gl_step, gl)))
    table = Table("gated-rank-r", "Gated rank-r layer: symmetries per activation (A8)",
                  ("activation", "exchange Q_j ↔ K_j", "GL(2)"), tuple(rows),
                  ("witnesses at d = r = 2, n = 1, x = (1, 0), V = 1, Q_j = [[q, 0], [0, 0]], "
                   "K_j = [[k, 0], [0, 0]]",))
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
        Result(GATED_BREAKS, breaks,
               numeric.replay_all("exchange witnesses replayed through layers.gated_rank_r",
                                  exchange_cases, torch)
               + numeric.replay_all("GL(2) witnesses replayed through layers.gated_rank_r",
                                    gl_cases, torch)),
    )
    return Report("proofs.rank_r", "Rank-r bilinear attention", "A8", results, (table,))


def main(argv: list[str] | None = None) -> int:
    return run(build_report, __doc__, "python -m proofs.rank_r",
               options=torch_option, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
