"""Inverse-scaling symmetry and positive homogeneity (docs/theory.md A7; Breslow 2026).

The symmetric rank-1 form is invariant under ``Q → αQ, K → K/α`` for every σ and ``α ≠ 0``.
The gated form is invariant for a given α iff ``σ(αa) = α σ(a)`` for all a; for all ``α > 0``
iff σ is positively homogeneous of degree 1, iff ``σ(z) = σ(1)·max(z,0) + σ(−1)·max(−z,0)``;
for all ``α ≠ 0`` iff σ is linear. Degree-p homogeneity is ``σ(z) = σ(1)z^p (z > 0)``,
``σ(−1)|z|^p (z < 0)``; it gives the symmetry ``Q → αQ, K → α^(−p)K``; conversely a
one-parameter family of rescalings ``(αQ, g(α)K)`` forces homogeneity and ``g(α) = α^(−p)``
(assuming the multiplicative Cauchy equation has only power solutions: regularity named below).

Run ``python -m proofs.scaling`` (``-v``, ``--json``, ``--latex``), or add
``--activation EXPR`` for any activation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from numeric_checks.scaling import (
    generalized_symmetry_checks,
    scaling_identity_checks,
    symmetric_scaling_checks,
)
from proofs._cli import run_with_activations
from symbolic import layers
from symbolic.analysis import (
    RULES,
    ActivationAnalysis,
    shown_text,
    analyze_item,
    decision_steps,
    parsed_item,
    table_items,
)
from symbolic.check import equal_matrices_step, equal_step
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.kernel import Exists, ForAll, assume, check_zero_on
from symbolic.kernel.sympy_checks import HALF_LINE
from symbolic.smt import uninterpreted_sigma, z3_step

ORDER = 20
PROG = "python -m proofs.scaling"

sigma, g, h = (sympy.Function(n) for n in ("sigma", "g", "h"))
alpha, beta, t, p = sympy.symbols("alpha beta t p", positive=True)
a, c, u, v = sympy.symbols("a c u v", real=True)
nz_alpha = sympy.Symbol("alpha", real=True, nonzero=True)
SIZES = {"d": 3, "n": 2, "d_out": 2}  # explicit-matrix checks

REGULARITY = ("every measurable solution h: (0,∞) → (0,∞) of h(αβ) = h(α)h(β) is h(α) = α^p "
              "(Cauchy's multiplicative equation; measurability of σ makes h measurable)")

CLAIMS = {
    "symmetric": Claim(
        "scaling.symmetric_invariant", "the symmetric rank-1 form is inverse-scaling invariant",
        "σ((x(αQ)ᵀ) ⊙ (x(K/α)ᵀ))V = σ((xQᵀ) ⊙ (xKᵀ))V for every σ and every α ≠ 0", "A7"),
    "gated": Claim(
        "scaling.gated_iff", "the gated form keeps a rescaling iff σ commutes with it",
        "for a fixed α ≠ 0: (σ(x(αQ)ᵀ) ⊙ x(K/α)ᵀ)V = (σ(xQᵀ) ⊙ xKᵀ)V for all x, Q, K, V  ⇔  "
        "σ(αa) = α·σ(a) for all a", "A7"),
    "degree1": Claim(
        "scaling.degree_one", "positive homogeneity of degree 1, characterized",
        "σ(αz) = α·σ(z) for all α > 0, z  ⇔  σ(z) = σ(1)·max(z,0) + σ(−1)·max(−z,0)", "A7",
        uses=("scaling.gated_iff",)),
    "degree_p": Claim(
        "scaling.degree_p", "positive homogeneity of degree p, characterized",
        "σ(αz) = α^p·σ(z) for all α > 0, z  ⇔  σ(z) = σ(1)·z^p for z > 0, σ(−1)·|z|^p for "
        "z < 0, and σ(0) = 0 when p ≠ 0", "A7"),
    "generalized": Claim(
        "scaling.generalized_symmetry", "degree-p activations keep Q → αQ, K → α^(−p)K",
        "if σ is positively homogeneous of degree p then (σ(x(αQ)ᵀ) ⊙ x(α^(−p)K)ᵀ)V = "
        "(σ(xQᵀ) ⊙ xKᵀ)V for every α > 0", "A7", uses=("scaling.degree_p",)),
    "all_alpha": Claim(
        "scaling.all_nonzero_alpha_iff_linear", "all α ≠ 0, negative too, forces linearity",
        "σ(αa) = α·σ(a) for all α ≠ 0, a  ⇔  σ(z) = σ(1)·z", "A7",
        uses=("scaling.degree_one", "exchange.lemma")),
    "converse": Claim(
        "scaling.converse", "a family of rescaling symmetries forces homogeneity",
        "if σ ≢ 0 and for every α > 0 some g(α) makes (αQ, g(α)K) a symmetry of the gated form, "
        "then σ is positively homogeneous of some degree p and g(α) = α^(−p)", "A7",
        assumptions=("σ measurable", REGULARITY), uses=("scaling.gated_iff", "scaling.degree_p")),
}


def _sums():
    """Unit sums of the forms at general n, d (indexed)."""
    n, d = sympy.symbols("n d", integer=True, positive=True)
    j, i, o = sympy.symbols("j i o", integer=True)
    x, Q, K, V = (sympy.IndexedBase(s) for s in ("x", "Q", "K", "V"))
    uj = sympy.Sum(x[i] * Q[j, i], (i, 0, d - 1))
    vj = sympy.Sum(x[i] * K[j, i], (i, 0, d - 1))
    return lambda body: sympy.Sum(body, (j, 0, n - 1)), uj, vj, V[j, o]


def _explicit():
    x = layers.symbolic_matrix("x", 1, SIZES["d"])
    Q, K = (layers.symbolic_matrix(s, SIZES["n"], SIZES["d"]) for s in ("q", "k"))
    return x, Q, K, layers.symbolic_matrix("v", SIZES["n"], SIZES["d_out"])


def symmetric_derivation() -> Derivation:
    total, uj, vj, Vjo = _sums()
    x, Q, K, V = _explicit()
    return Derivation((
        equal_step((nz_alpha * uj) * (vj / nz_alpha),
                   uj * vj,
                   "α·(1/α) = 1, α ≠ 0",
                   note="(x·αq_j)(x·k_j/α) = (x·q_j)(x·k_j)  (general d)"),
        equal_step(total(sigma((nz_alpha * uj) * (vj / nz_alpha)) * Vjo),
                   total(sigma(uj * vj) * Vjo),
                   "general n, d",
                   note="Sym(x; αQ, K/α, V) = Sym(x; Q, K, V)  (general n, d, any σ)"),
        equal_matrices_step(layers.symmetric_rank1(x, nz_alpha * Q, K / nz_alpha, V, sigma),
                            layers.symmetric_rank1(x, Q, K, V, sigma),
                            f"explicit symbolic matrices, d = {SIZES['d']}, n = {SIZES['n']}",
                            note="Sym(x; αQ, K/α, V) = Sym(x; Q, K, V) entry by entry"),
    ))


def gated_derivation() -> Derivation:
    total, uj, vj, Vjo = _sums()
    one = sympy.Matrix([[1]])
    difference = total(sigma(nz_alpha * uj) * (vj / nz_alpha) * Vjo) - total(
        sigma(uj) * vj * Vjo)
    defect = total((sigma(nz_alpha * uj) - nz_alpha * sigma(uj)) * vj * Vjo) / nz_alpha
    return Derivation((
        equal_step(difference - defect,
                   0,
                   "general n, d: linearity of Σ",
                   note="Gated(αQ, K/α) − Gated(Q, K) = "
                   "(1/α)·Σ_j (σ(α·x·q_j) − α·σ(x·q_j))(x·k_j) V_jo"),
        equal_step((layers.gated(one, sympy.Matrix([[nz_alpha * a]]), one / nz_alpha, one, sigma)
                    - layers.gated(one, sympy.Matrix([[a]]), one, one, sigma))[0],
                   (sigma(nz_alpha * a) - nz_alpha * sigma(a)) / nz_alpha,
                   "(⇒) specialise d = n = 1, x = 1, K = 1, V = 1, Q = a",
                   note="Gated(1; αa, 1/α, 1) − Gated(1; a, 1, 1) = (σ(αa) − α·σ(a))/α"),
        equal_step(defect.replace(sigma(nz_alpha * uj), nz_alpha * sigma(uj)).doit(),
                   0,
                   "(⇐) substitute σ(αa) = α·σ(a)",
                   note="σ(αa) = α·σ(a) makes every term of the difference vanish"),
    ))


def degree_one_derivation() -> Derivation:
    def form(zz):
        return sigma(1) * sympy.Max(zz, 0) + sigma(-1) * sympy.Max(-zz, 0)

    def forward(z3):
        s, x = uninterpreted_sigma(z3), z3.Real("x")
        H = lambda al, aa: z3.Implies(al > 0, s(al * aa) == al * s(aa))  # noqa: E731
        rhs = s(1) * z3.If(x > 0, x, 0) + s(-1) * z3.If(-x > 0, -x, 0)
        return z3.Implies(z3.And(H(x, 1), H(-x, -1), H(2, 0)), s(x) == rhs)

    def backward(z3):
        s, al, aa, x, c1, c2 = uninterpreted_sigma(z3), *z3.Reals("al aa x c1 c2")
        shape = z3.ForAll([x], s(x) == c1 * z3.If(x > 0, x, 0) + c2 * z3.If(-x > 0, -x, 0))
        return z3.Implies(z3.And(shape, al > 0), s(al * aa) == al * s(aa))

    return Derivation((
        equal_step(form(t),
                   t * sigma(1),
                   "(⇒) instance (α, z) = (t, 1), t > 0",
                   note="σ(t) = t·σ(1) = σ(1)·max(t,0) + σ(−1)·max(−t,0) for t > 0"),
        equal_step(form(-t),
                   t * sigma(-1),
                   "(⇒) instance (α, z) = (t, −1), t > 0",
                   note="σ(−t) = t·σ(−1) = σ(1)·max(−t,0) + σ(−1)·max(t,0) for t > 0"),
        equal_step(form(0),
                   0,
                   "(⇒) instance (α, z) = (2, 0): σ(0) = 2σ(0)",
                   note="σ(0) = 0 = σ(1)·max(0,0) + σ(−1)·max(0,0)"),
        z3_step(forward,
                "Z3 over an uninterpreted σ: negation unsat",
                note="(⇒) σ(αa) = ασ(a) at (x, 1), (−x, −1), (2, 0) ⇒ "
                "σ(x) = σ(1)·max(x,0) + σ(−1)·max(−x,0)"),
        Step(check_zero_on((form(alpha * t) - alpha * form(t))
                           + (form(-alpha * t) - alpha * form(-t)), t, HALF_LINE),
             "(⇐) SymPy on both half-lines",
             note="max(±αt, 0) = α·max(±t, 0) for α, t > 0, so the form is degree-1 homogeneous"),
        z3_step(backward,
                "Z3 over an uninterpreted σ: negation unsat",
                note="(⇐) σ(x) = c1·max(x,0) + c2·max(−x,0) for all x, α > 0 ⇒ σ(αa) = α·σ(a)"),
    ))


def degree_p_derivation() -> Derivation:
    c1, c2 = sympy.symbols("c1 c2", real=True)
    return Derivation((
        equal_step(sigma(t * 1) - t**p * sigma(1),
                   sigma(t) - t**p * sigma(1),
                   "(⇒) substitute (α, z) = (t, 1) in σ(αz) − α^p σ(z) = 0",
                   note="σ(t) = σ(1)·t^p for t > 0"),
        equal_step(sigma(t * -1) - t**p * sigma(-1),
                   sigma(-t) - t**p * sigma(-1),
                   "(⇒) substitute (α, z) = (t, −1)",
                   note="σ(−t) = σ(−1)·t^p = σ(−1)·|−t|^p"),
        equal_step(sigma(0) - 2**p * sigma(0),
                   (1 - 2**p) * sigma(0),
                   "(⇒) substitute (α, z) = (2, 0)",
                   note="(1 − 2^p)·σ(0) = 0, so σ(0) = 0 when p ≠ 0"),
        equal_step(c1 * (alpha * t) ** p,
                   alpha**p * (c1 * t**p),
                   "(⇐) (αt)^p = α^p t^p, α, t > 0",
                   note="σ(αt) = σ(1)(αt)^p = α^p·σ(t) for t > 0"),
        equal_step(c2 * (alpha * t) ** p,
                   alpha**p * (c2 * t**p),
                   "(⇐) the same on z = −t < 0",
                   note="σ(−αt) = σ(−1)(αt)^p = α^p·σ(−t) for t > 0"),
    ))


def generalized_derivation() -> Derivation:
    total, uj, vj, Vjo = _sums()
    moved = total(sigma(alpha * uj) * (alpha ** (-p) * vj) * Vjo)
    return Derivation((
        equal_step(moved.replace(sigma(alpha * uj), alpha**p * sigma(uj)),
                   total(sigma(uj) * vj * Vjo),
                   "substitute σ(α·u) = α^p·σ(u); α^p·α^(−p) = 1",
                   note="Gated(x; αQ, α^(−p)K, V) = Gated(x; Q, K, V)  (general n, d)"),
    ))


def all_alpha_derivation() -> Derivation:
    odd_form = sigma(1) * sympy.Max(u, 0) + (-sigma(1)) * sympy.Max(-u, 0)

    def forward(z3):
        s, x = uninterpreted_sigma(z3), z3.Real("x")
        H = lambda al, aa: s(al * aa) == al * s(aa)  # noqa: E731
        return z3.Implies(z3.And(H(x, 1), H(-x, -1), H(-1, 1), H(2, 0)), s(x) == s(1) * x)

    return Derivation((
        equal_step(sigma(-1 * 1) + sigma(1),
                   sigma(-1) + sigma(1),
                   "α = −1, a = 1",
                   note="α = −1 gives σ(−1) = −σ(1)"),
        Step(check_zero_on((odd_form - sigma(1) * u).subs(u, t)
                           + (odd_form - sigma(1) * u).subs(u, -t), t, HALF_LINE),
             "SymPy on both half-lines", note="σ(1)·max(z,0) − σ(1)·max(−z,0) = σ(1)·z"),
        z3_step(forward,
                "Z3 over an uninterpreted σ: negation unsat",
                note="(⇒) instances at (x, 1), (−x, −1), (−1, 1), (2, 0) ⇒ σ(x) = σ(1)·x"),
        equal_step(c * (nz_alpha * a),
                   nz_alpha * (c * a),
                   "(⇐) σ(z) = c·z",
                   note="c·(αa) = α·(c·a) for every α ≠ 0"),
    ))


def converse_derivation() -> Derivation:
    a0 = sympy.Symbol("a0", real=True)
    one = sympy.Matrix([[1]])
    symmetry = (layers.gated(one, sympy.Matrix([[alpha * a]]), sympy.Matrix([[g(alpha)]]), one,
                             sigma) - layers.gated(one, sympy.Matrix([[a]]), one, one, sigma))[0]
    assumed = assume(REGULARITY, Exists((p,), ForAll((alpha,), sympy.Eq(h(alpha), alpha**p))))
    return Derivation((
        equal_step(symmetry,
                   sigma(alpha * a) * g(alpha) - sigma(a),
                   "specialise d = n = 1, x = 1, K = 1, V = 1, Q = a",
                   note="a symmetry (αQ, g(α)K) gives σ(αa)·g(α) = σ(a) for all a; at a0 with "
                   "σ(a0) ≠ 0, g(α) ≠ 0, so σ(αa) = h(α)·σ(a) with h = 1/g"),
        equal_step(h(alpha) * h(beta) * sigma(a0) - h(alpha * beta) * sigma(a0),
                   (h(alpha) * h(beta) - h(alpha * beta)) * sigma(a0),
                   "σ(αβ·a0) two ways, then divide by σ(a0) ≠ 0",
                   note="h(α)h(β)σ(a0) = h(α)σ(βa0) = σ(αβa0) = h(αβ)σ(a0): h(αβ) = h(α)h(β)"),
        equal_step(h(sympy.sqrt(alpha)) * h(sympy.sqrt(alpha)),
                   h(sympy.sqrt(alpha)) ** 2,
                   "β = α in h(αβ) = h(α)h(β), at √α",
                   note="h(α) = h(√α)² > 0 (h ≠ 0): h maps (0,∞) into (0,∞)"),
        Step(assumed, "regularity assumption (named in the claim)",
             note="h(α) = α^p for some real p"),
        equal_step((alpha * beta) ** p,
                   alpha**p * beta**p,
                   "check: α^p solves the equation",
                   note="(αβ)^p = α^p·β^p for α, β > 0"),
        equal_step(sigma(t * 1) - t**p * sigma(1),
                   sigma(t) - t**p * sigma(1),
                   "σ(αa) = α^p σ(a) at (α, a) = (t, ±1), as in scaling.degree_p",
                   note="σ(t) = σ(1)t^p and σ(−t) = σ(−1)t^p: σ is homogeneous of degree p"),
        equal_step(1 / h(alpha).subs(h(alpha), alpha**p),
                   alpha ** (-p),
                   "g = 1/h",
                   note="g(α) = 1/h(α) = α^(−p)"),
    ))


def theorem_results() -> list[Result]:
    build = {"symmetric": symmetric_derivation, "gated": gated_derivation,
             "degree1": degree_one_derivation, "degree_p": degree_p_derivation,
             "generalized": generalized_derivation, "all_alpha": all_alpha_derivation,
             "converse": converse_derivation}
    numeric = {"symmetric": symmetric_scaling_checks(), "gated": scaling_identity_checks()}
    return [Result(CLAIMS[k], f(), numeric.get(k, ())) for k, f in build.items()]


def _rescalings(an: ActivationAnalysis) -> dict[str, Any]:
    p = an.degree
    return {
        "generalized_symmetry": None if p is None else
        f"Q → αQ, K → α^(-{shown_text(p)})K for all α > 0",
        "all_nonzero_alpha_symmetric": an.is_linear,
    }


def activation_result(an: ActivationAnalysis, act, torch: bool = False) -> Result:
    p = an.degree
    parts = []
    if an.every_degree:
        parts.append("σ ≡ 0 is positively homogeneous of every degree: every rescaling "
                     "Q → αQ, K → g(α)K leaves Gated (≡ 0) unchanged")
    elif p is not None:
        parts.append(f"σ is positively homogeneous of degree {shown_text(p)}: Gated keeps "
                     f"Q → αQ, K → α^(−{shown_text(p)})K for every α > 0")
    elif an.homogeneity.holds.status == "refuted":
        parts.append("σ is not positively homogeneous of any degree: no family of rescalings "
                     "(αQ, g(α)K), one for every α > 0, is a symmetry of Gated "
                     "(scaling.converse, under its regularity assumption)")
    inv = an.inverse_scaling_symmetric
    if inv is not None:
        parts.append("Q → αQ, K → K/α " + ("is" if inv else "is not") + " a symmetry (α > 0)")
    if an.is_linear is not None:
        parts.append("negative α " + ("keep" if an.is_linear else "break") +
                     " it (σ " + ("" if an.is_linear else "not ") + "linear)")
    claim = Claim(f"scaling.activation.{an.label}"[:60], f"rescalings of the gated form with "
                  f"σ = {an.label}", "; ".join(parts) + ".", "A7", kind="proposition",
                  assumptions=(f"σ(z) = {shown_text(an.expr)}",),
                  uses=("scaling.gated_iff", "scaling.degree_p", "scaling.converse"))
    steps = (*decision_steps(an.homogeneity, RULES[1]),
             *decision_steps(an.inverse_scaling, RULES[2]),
             *decision_steps(an.linear, RULES[0])[-1:])
    return Result(claim, Derivation(steps), generalized_symmetry_checks(an, act, torch))


def scaling_table(analyses: Sequence[ActivationAnalysis]) -> Table:
    def kept(v):
        return "?" if v is None else "kept" if v else "broken"

    rows = []
    for an in analyses:
        p = an.degree
        witness = an.inverse_scaling.holds.verdict.witness
        rows.append((
            an.label,
            shown_text(p) if p is not None else
            ("none" if an.homogeneity.holds.status == "refuted" else "?"),
            kept(an.inverse_scaling_symmetric),
            f"K → α^(−{shown_text(p)})K" if p is not None else "none",
            kept(an.is_linear),
            ", ".join(f"{k} = {val}" for k, val in witness) or "—",
            an.status,
        ))
    return Table("rescalings", "Which rescalings Q → αQ, K → g(α)K are symmetries of the gated "
                 "form", ("activation", "degree p", "K → K/α (α > 0)", "general α > 0",
                          "all α ≠ 0", "break witness", "status"), tuple(rows),
                 notes=("The symmetric rank-1 form keeps K → K/α for every σ and α ≠ 0.",
                        "general α > 0: the only g making (αQ, g(α)K) a symmetry is α^(−p) "
                        "(scaling.converse)."))


def build_report(activations: Sequence[str] | None = None, torch: bool = False) -> Report:
    """The rescaling theorems and the per-activation table (torch cross-checks when asked)."""
    if activations:
        items, theorems = [parsed_item(text) for text in activations], []
    else:
        items, theorems = table_items(), theorem_results()
    analyses = [analyze_item(label, expr) for label, expr, _ in items]
    per_activation = [activation_result(an, act, torch) for an, (_, _, act) in
                      zip(analyses, items, strict=True)]
    data = {"activations": [{**an.to_json(), **_rescalings(an)} for an in analyses]}
    return Report("proofs.scaling", "Inverse scaling and positive homogeneity", "A7",
                  tuple(theorems + per_activation), (scaling_table(analyses),), data=data)


def main(argv: Sequence[str] | None = None) -> int:
    return run_with_activations(build_report, __doc__, PROG, argv)


if __name__ == "__main__":
    raise SystemExit(main())
