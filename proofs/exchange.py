"""Exchange symmetry of the gated MLP (docs/theory.md A5–A7; Breslow 2026).

The symmetric rank-1 form ``σ(xQᵀ ⊙ xKᵀ)V`` is invariant under ``Q ↔ K`` for every σ. The gated
form ``(σ(xQᵀ) ⊙ xKᵀ)V`` is invariant for all inputs and weights iff ``σ(a)b = σ(b)a`` for all
real a, b, iff σ is linear (the lemma ``∀a,b σ(a)b = σ(b)a ⇔ ∃c ∀z σ(z) = cz``). Every
activation gets a verdict on linearity and positive homogeneity (hence on the inverse-scaling
symmetry), each break with a certified witness.

Run ``python -m proofs.exchange`` (``-v`` for every check, ``--json``, ``--latex``), or
``python -m proofs.exchange --activation "x*sigmoid(x)"`` for any activation.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from numeric_checks.activations import cross_check
from numeric_checks.exchange import exchange_identity_checks
from proofs._cli import run_with_activations
from symbolic import layers
from symbolic.activations import Activation
from symbolic.analysis import (
    ActivationAnalysis,
    shown_text,
    analyze_item,
    as_result,
    parsed_item,
    table_items,
)
from symbolic.check import equal_matrices_step, equal_step
from symbolic.engine import Claim, Derivation, Report, Result, Table
from symbolic.smt import uninterpreted_sigma, z3_step

ORDER = 10
PROG = "python -m proofs.exchange"

sigma = sympy.Function("sigma")
a, b, c, w = sympy.symbols("a b c w", real=True)
EXPLICIT_SIZES = {"d": 3, "n": 2, "d_out": 2}  # sizes of the explicit-matrix checks

LEMMA = Claim(
    "exchange.lemma", "exchange lemma",
    "∀a,b ∈ ℝ: σ(a)·b = σ(b)·a  ⇔  ∃c ∀z: σ(z) = c·z; then c = σ(1), σ(0) = 0 and "
    "σ(z)/z is constant on z ≠ 0",
    "A6", kind="lemma",
    assumptions=("σ: ℝ → ℝ arbitrary (uninterpreted)",),
)
LEMMA_Z3 = Claim(
    "exchange.lemma_z3", "exchange lemma, by Z3 over an uninterpreted σ", LEMMA.note,
    "A6", kind="lemma", assumptions=LEMMA.assumptions,
)
SYM = Claim(
    "exchange.symmetric_invariant", "the symmetric rank-1 form is exchange-invariant",
    "σ((xQᵀ) ⊙ (xKᵀ))V = σ((xKᵀ) ⊙ (xQᵀ))V for every σ, x, Q, K, V (any d, n)", "A4, A6",
)
GATED = Claim(
    "exchange.gated_iff", "the gated form is exchange-invariant iff σ is linear",
    "(σ(xQᵀ) ⊙ xKᵀ)V = (σ(xKᵀ) ⊙ xQᵀ)V for all d, n, x, Q, K, V  ⇔  ∀a,b: σ(a)b = σ(b)a  "
    "⇔  σ linear", "A5, A6", uses=("exchange.lemma",),
)


def h(u: sympy.Expr, v: sympy.Expr) -> sympy.Expr:
    """The exchange defect ``σ(u)·v − σ(v)·u``."""
    return sigma(u) * v - sigma(v) * u


def lemma_derivation() -> Derivation:
    linear = sympy.Lambda(w, c * w)
    return Derivation((
        equal_step(h(a, 1),
                   sigma(a) - sigma(1) * a,
                   "(⇒) substitute b = 1",
                   note="H(a, 1) = σ(a) − σ(1)·a, so H ≡ 0 gives σ(a) = σ(1)·a: c = σ(1)"),
        equal_step(h(a, b).replace(sigma, linear),
                   0,
                   "(⇐) substitute σ(z) = c·z",
                   note="σ(z) = c·z gives H(a, b) = c·a·b − c·b·a = 0"),
        equal_step(h(0, b),
                   sigma(0) * b,
                   "substitute a = 0",
                   note="H(0, b) = σ(0)·b, so H ≡ 0 gives σ(0) = 0 (b = 1)"),
        equal_step(h(a, b) / (a * b),
                   sigma(a) / a - sigma(b) / b,
                   "divide by a·b ≠ 0",
                   note="H(a, b)/(a·b) = σ(a)/a − σ(b)/b, so σ(z)/z is constant on z ≠ 0"),
    ))


def lemma_z3_derivation() -> Derivation:
    def hypothesis(z3, s):
        u, v = z3.Reals("u v")
        return z3.ForAll([u, v], s(u) * v == s(v) * u)

    def forward(z3):
        s, x = uninterpreted_sigma(z3), z3.Real("x")
        return z3.Implies(hypothesis(z3, s), s(x) == s(1) * x)

    def backward(z3):
        s, x, k, u, v = uninterpreted_sigma(z3), *z3.Reals("x k u v")
        return z3.Implies(z3.ForAll([x], s(x) == k * x), s(u) * v == s(v) * u)

    def at_zero(z3):
        s = uninterpreted_sigma(z3)
        return z3.Implies(hypothesis(z3, s), s(0) == 0)

    def ratio(z3):
        s, x, y = uninterpreted_sigma(z3), *z3.Reals("x y")
        return z3.Implies(z3.And(hypothesis(z3, s), x != 0, y != 0), s(x) / x == s(y) / y)

    return Derivation((
        z3_step(forward,
                note="(∀u,v σ(u)v = σ(v)u) ⇒ σ(x) = σ(1)·x for every x  [∃c: take c = σ(1)]"),
        z3_step(backward, note="(∀x σ(x) = k·x) ⇒ σ(u)·v = σ(v)·u for every u, v"),
        z3_step(at_zero, note="(∀u,v σ(u)v = σ(v)u) ⇒ σ(0) = 0"),
        z3_step(ratio, note="(∀u,v σ(u)v = σ(v)u) ∧ x ≠ 0 ∧ y ≠ 0 ⇒ σ(x)/x = σ(y)/y"),
    ))


def _general_unit_sums():
    """Output column o of the forms at general n, d via indexed sums."""
    n, d = sympy.symbols("n d", integer=True, positive=True)
    j, i = sympy.symbols("j i", integer=True)
    x, Q, K, V = (sympy.IndexedBase(s) for s in ("x", "Q", "K", "V"))
    o = sympy.Symbol("o", integer=True)
    u = sympy.Sum(x[i] * Q[j, i], (i, 0, d - 1))  # x·q_j
    v = sympy.Sum(x[i] * K[j, i], (i, 0, d - 1))  # x·k_j
    return n, j, u, v, V[j, o]


def symmetric_derivation() -> Derivation:
    n, j, u, v, vj = _general_unit_sums()
    form = sympy.Sum(sigma(u * v) * vj, (j, 0, n - 1))
    swapped = sympy.Sum(sigma(v * u) * vj, (j, 0, n - 1))
    sizes = EXPLICIT_SIZES
    x = layers.symbolic_matrix("x", 1, sizes["d"])
    Q, K = (layers.symbolic_matrix(s, sizes["n"], sizes["d"]) for s in ("q", "k"))
    V = layers.symbolic_matrix("v", sizes["n"], sizes["d_out"])
    return Derivation((
        equal_step(form,
                   swapped,
                   "general n, d: (x·q_j)(x·k_j) = (x·k_j)(x·q_j) (commutativity)",
                   note="Σ_j σ((x·q_j)(x·k_j)) V_jo = Σ_j σ((x·k_j)(x·q_j)) V_jo  (general n, d)"),
        equal_matrices_step(layers.symmetric_rank1(x, Q, K, V, sigma),
                            layers.symmetric_rank1(x, K, Q, V, sigma),
                            f"explicit symbolic matrices, d = {sizes['d']}, n = {sizes['n']}",
                            note="Sym(x; Q, K, V) = Sym(x; K, Q, V) entry by entry"),
    ))


def gated_derivation() -> Derivation:
    n, j, u, v, vj = _general_unit_sums()
    difference = sympy.Sum(sigma(u) * v * vj, (j, 0, n - 1)) - sympy.Sum(
        sigma(v) * u * vj, (j, 0, n - 1))
    defect = sympy.Sum(h(u, v) * vj, (j, 0, n - 1))
    one = sympy.Matrix([[1]])
    qa, kb = sympy.Matrix([[a]]), sympy.Matrix([[b]])
    sizes = EXPLICIT_SIZES
    x = layers.symbolic_matrix("x", 1, sizes["d"])
    Q, K = (layers.symbolic_matrix(s, sizes["n"], sizes["d"]) for s in ("q", "k"))
    V = layers.symbolic_matrix("v", sizes["n"], sizes["d_out"])
    linear = sympy.Lambda(w, c * w)
    return Derivation((
        equal_matrices_step(layers.gated(one, qa, kb, one, sigma) - layers.gated(one, kb, qa, one,
                                                                               sigma),
                            sympy.Matrix([[h(a, b)]]),
                            "(⇒) specialise d = n = 1, x = 1, V = 1, Q = a, K = b",
                            note="Gated(1; a, b, 1) − Gated(1; b, a, 1) = σ(a)·b − σ(b)·a = H(a, b)"),
        equal_step(difference - defect,
                   0,
                   "general n, d: linearity of Σ",
                   note="Gated(x; Q, K) − Gated(x; K, Q) = Σ_j H(x·q_j, x·k_j) V_jo  (general n, d)"),
        equal_step(defect.replace(sigma, linear).doit(),
                   0,
                   "(⇐) the lemma: H ≡ 0 ⇔ σ(z) = c·z; substitute",
                   note="with σ(z) = c·z every H(x·q_j, x·k_j) = 0, so the difference is 0"),
        equal_matrices_step(layers.gated(x, Q, K, V, linear),
                            layers.gated(x, K, Q, V, linear),
                            f"explicit symbolic matrices, d = {sizes['d']}, n = {sizes['n']}",
                            note="σ(z) = c·z: Gated(x; Q, K, V) = Gated(x; K, Q, V) entry by entry"),
    ))


def analyse_all(items: Sequence[tuple[str, sympy.Expr, Activation | None]], torch: bool = False
                ) -> list[tuple[ActivationAnalysis, Result]]:
    """Analysis and checked result of each (label, σ, table entry or None)."""
    out = []
    for label, expr, act in items:
        analysis = analyze_item(label, expr)
        out.append((analysis, as_result(analysis, f"activation.{_slug(label)}",
                                        numeric=cross_check(analysis, act, torch))))
    return out


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in label)[:40]


def _kept(v: bool | None) -> str:
    return "?" if v is None else "kept" if v else "broken"


def _degree_cell(an: ActivationAnalysis) -> str:
    if an.degree is not None:
        return "every" if an.every_degree else shown_text(an.degree)
    return "none" if an.homogeneity.holds.status == "refuted" else "?"


def activation_table(analyses: Sequence[ActivationAnalysis]) -> Table:
    rows = []
    for an in analyses:
        witness = an.exchange_witness
        rows.append((
            an.label,
            "?" if an.is_linear is None else "yes" if an.is_linear else "no",
            _kept(an.exchange_symmetric),
            _degree_cell(an),
            _kept(an.inverse_scaling_symmetric),
            "—" if witness is None else f"a = {witness[0]}, b = {witness[1]}",
            an.status,
        ))
    return Table("activations", "What each activation does to the gated form's symmetries",
                 ("activation", "linear", "Q↔K", "degree p", "Q→αQ, K→K/α", "exchange witness",
                  "status"), tuple(rows),
                 notes=("Q↔K kept ⇔ σ linear (A6); Q→αQ, K→K/α (α > 0) kept ⇔ degree 1 (A7).",
                        "The symmetric rank-1 form keeps both symmetries for every σ."))


def theorem_results(torch: bool = False) -> list[Result]:
    return [
        Result(LEMMA, lemma_derivation()),
        Result(LEMMA_Z3, lemma_z3_derivation()),
        Result(SYM, symmetric_derivation(), exchange_identity_checks("symmetric", torch)),
        Result(GATED, gated_derivation(), exchange_identity_checks("gated", torch)),
    ]


def build_report(activations: Sequence[str] | None = None, torch: bool = False) -> Report:
    """The exchange theorems and the activation table; or only the given activations.

    ``torch``: add the cross-checks on torch's real functions (the command line does, when
    torch is installed).
    """
    if activations:
        items = [parsed_item(text) for text in activations]
        theorems: list[Result] = []
    else:
        items, theorems = table_items(), theorem_results(torch)
    analysed = analyse_all(items, torch)
    analyses = [an for an, _ in analysed]
    return Report("proofs.exchange", "Exchange symmetry of the gated MLP", "A5–A7",
                  tuple(theorems + [r for _, r in analysed]), (activation_table(analyses),),
                  data={"activations": [an.to_json() for an in analyses]})


def main(argv: Sequence[str] | None = None) -> int:
    return run_with_activations(build_report, __doc__, PROG, argv)


if __name__ == "__main__":
    raise SystemExit(main())
