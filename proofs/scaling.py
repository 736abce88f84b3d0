"""Inverse-scaling symmetry and positive homogeneity (docs/theory.md A7; Breslow 2026).

The symmetric rank-1 form is invariant under ``Q → αQ, K → K/α`` for every σ and ``α ≠ 0``.
The gated form is invariant for a given α iff ``σ(αa) = α σ(a)`` for all a; for all ``α > 0``
iff σ is positively homogeneous of degree 1, iff ``σ(z) = σ(1)·max(z,0) + σ(−1)·max(−z,0)``;
for all ``α ≠ 0`` iff σ is linear. Degree-p homogeneity is ``σ(z) = σ(1)z^p (z > 0)``,
``σ(−1)|z|^p (z < 0)``; it gives the symmetry ``Q → αQ, K → α^(−p)K``; conversely a
one-parameter family of rescalings ``(αQ, g(α)K)`` forces homogeneity and ``g(α) = α^(−p)``
(assuming the multiplicative Cauchy equation has only power solutions: regularity named below).

Each claim's statement is a formula, and its derivation ends in a kernel fact of exactly it:
the symmetric form's invariance (general n, d); for the gated form, the defect identities
``Gated(αQ, K/α) − Gated(Q, K) = (1/α)Σ_j (σ(α·x·q_j) − ασ(x·q_j))(x·k_j)V_jo`` and its
d = n = 1 case, and the same with ``α^(−p)K``; for degree 1 and for all α ≠ 0, the two
directions over an uninterpreted σ (Z3: the instances that force the form, and the form that
gives homogeneity) with the SymPy computations beside them; for degree p and for the converse,
the substitution identities of the argument (the converse's with its regularity assumption,
so it and every ``scaling.activation.*`` claim, which uses it, rest on that assumption);
per activation, the decided properties, each negated where it is refuted.

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
from symbolic.calc import conjoined, held_and
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.gated.analysis import (
    CONCLUSION_RULE,
    RULES,
    ActivationAnalysis,
    analyze_item,
    conclusion,
    decided_statement,
    decision_steps,
    parsed_item,
    shown_text,
    table_items,
)
from symbolic.kernel import (
    Exists,
    ForAll,
    assume,
    check_valid_formula,
    cong,
)
from symbolic.steps import equal_step

ORDER = 20
PROG = "python -m proofs.scaling"

sigma, g = (sympy.Function(n) for n in ("sigma", "g"))
alpha, t = sympy.symbols("alpha t", positive=True)
p = sympy.Symbol("p", real=True)  # a degree: any real number
a, c, c1, c2, x = sympy.symbols("a c c1 c2 x", real=True)
real_alpha = sympy.Symbol("alpha", real=True)  # α in a Z3 formula: its sign is a hypothesis
nz_alpha = sympy.Symbol("alpha", real=True, nonzero=True)

REGULARITY = (
    "every measurable solution g: (0,∞) → (0,∞) of g(αβ) = g(α)g(β) is g(α) = α^(−p) "
    "for some real p (Cauchy's multiplicative equation; measurability of σ makes g "
    "measurable)"
)


def _mul(*factors: sympy.Expr) -> sympy.Expr:
    """A product kept as written (``σ(1·a)``, ``(αt)^p``): a formula before evaluation."""
    return sympy.Mul(*factors, evaluate=False)


def _eq(lhs: sympy.Expr, rhs: sympy.Expr) -> sympy.Basic:
    return sympy.Eq(lhs, rhs, evaluate=False)


def _sums():
    """Unit sums of the forms at general n, d (indexed): Σ_j, x·q_j, x·k_j, V_jo."""
    n, d = sympy.symbols("n d", integer=True, positive=True)
    j, i, o = sympy.symbols("j i o", integer=True)
    xs, Q, K, V = (sympy.IndexedBase(s) for s in ("x", "Q", "K", "V"))
    uj = sympy.Sum(xs[i] * Q[j, i], (i, 0, d - 1))
    vj = sympy.Sum(xs[i] * K[j, i], (i, 0, d - 1))
    return (lambda body: sympy.Sum(body, (j, 0, n - 1))), uj, vj, V[j, o], (xs, Q, K, i, d, j)


def _unit_gated(q: sympy.Expr, k: sympy.Expr) -> sympy.Expr:
    """``Gated(1; q, k, 1) = σ(1·q)·(1·k)·1``: d = n = 1, x = 1, V = 1, as written."""
    return _mul(sigma(_mul(1, q)), _mul(1, k), 1)


# --- A7, for every σ: the symmetric form -------------------------------------------------------


def _symmetric_parts():
    total, uj, vj, Vjo, (xs, Q, K, i, d, j) = _sums()
    scaled_u = sympy.Sum(xs[i] * (nz_alpha * Q[j, i]), (i, 0, d - 1))  # x·(αq_j)
    scaled_v = sympy.Sum(xs[i] * (K[j, i] / nz_alpha), (i, 0, d - 1))  # x·(k_j/α)
    score = _eq(_mul(scaled_u, scaled_v), _mul(uj, vj))
    whole = _eq(total(sigma(score.lhs) * Vjo), total(sigma(score.rhs) * Vjo))
    return score, Vjo, whole


SYMMETRIC_STATEMENT = _symmetric_parts()[2]


# --- the gated form: what a rescaling changes ----------------------------------------------------


def _gated_parts():
    total, uj, vj, Vjo, _ = _sums()
    defect = _eq(
        total(sigma(nz_alpha * uj) * (vj / nz_alpha) * Vjo) - total(sigma(uj) * vj * Vjo),
        total((sigma(nz_alpha * uj) - nz_alpha * sigma(uj)) * vj * Vjo) / nz_alpha,
    )
    special = _eq(
        _unit_gated(nz_alpha * a, 1 / nz_alpha) - _unit_gated(a, 1),
        (sigma(nz_alpha * a) - nz_alpha * sigma(a)) / nz_alpha,
    )
    return defect, special


GATED_STATEMENT = held_and(*_gated_parts())


def _generalized_identity():
    total, uj, vj, Vjo, _ = _sums()
    return _eq(
        total(sigma(alpha * uj) * (alpha ** (-p) * vj) * Vjo) - total(sigma(uj) * vj * Vjo),
        alpha ** (-p) * total((sigma(alpha * uj) - alpha**p * sigma(uj)) * vj * Vjo),
    )


GENERALIZED_STATEMENT = _generalized_identity()


# --- degree 1, degree p, every α ≠ 0 --------------------------------------------------------------


def _pos(e: sympy.Expr) -> sympy.Basic:
    return sympy.StrictLessThan(0, e)  # written as Z3 reads ``e > 0`` back


def _instance(al: sympy.Expr, z: sympy.Expr, guard) -> sympy.Basic:
    """The homogeneity hypothesis at (α, a) = (al, z), under its guard on α: an instance of
    ``∀α (guard), a: σ(αa) = α·σ(a)``, kept as written."""
    return sympy.Implies(guard(al), _eq(sigma(_mul(al, z)), _mul(al, sigma(z))))


def _halves(y: sympy.Expr, right: sympy.Expr, left: sympy.Expr) -> sympy.Basic:
    """σ(y) = right·y for y > 0, left·(−y) for y < 0, 0 at 0: ``σ(y) = right·max(y, 0) +
    left·max(−y, 0)`` by cases (Z3 has no max)."""
    return sympy.And(
        sympy.Implies(_pos(y), _eq(sigma(y), _mul(right, y))),
        sympy.Implies(sympy.StrictGreaterThan(0, y), _eq(sigma(y), _mul(left, _mul(-1, y)))),
        sympy.Implies(_eq(0, y), _eq(0, sigma(y))),
    )


DEGREE_ONE_FORWARD = sympy.Implies(
    sympy.And(_instance(x, 1, _pos), _instance(_mul(-1, x), -1, _pos), _instance(2, 0, _pos)),
    _halves(x, sigma(1), sigma(-1)),
)
DEGREE_ONE_BACKWARD = sympy.Implies(
    ForAll((x,), _halves(x, c1, c2)), _instance(real_alpha, a, _pos)
)


def _max(e: sympy.Expr) -> sympy.Expr:
    return sympy.Max(e, 0, evaluate=False)  # max(t, 0) kept as written although t > 0


# the max form on each half-line: the cases Z3 works with
MAX_FORM_CASES = (
    _eq(sigma(1) * _max(t) + sigma(-1) * _max(-t), sigma(1) * t),
    _eq(sigma(1) * _max(-t) + sigma(-1) * _max(t), sigma(-1) * t),
)
DEGREE_ONE_STATEMENT = held_and(DEGREE_ONE_FORWARD, *MAX_FORM_CASES, DEGREE_ONE_BACKWARD)


def _defect_at(al: sympy.Expr, z: sympy.Expr) -> sympy.Expr:
    """``σ(αz) − α^p·σ(z)`` at given (α, z), kept as written: ``σ(t·1) − t^p·σ(1)``."""
    return sympy.Add(
        sigma(_mul(al, z)),
        _mul(-1, _mul(sympy.Pow(al, p, evaluate=False), sigma(z))),
        evaluate=False,
    )


DEGREE_P_PARTS = (
    _eq(_defect_at(t, 1), sigma(t) - t**p * sigma(1)),
    _eq(_defect_at(t, -1), sigma(-t) - t**p * sigma(-1)),
    _eq(_defect_at(2, 0), (1 - 2**p) * sigma(0)),
    _eq(c1 * sympy.Pow(_mul(alpha, t), p, evaluate=False), alpha**p * (c1 * t**p)),
    _eq(c2 * sympy.Pow(_mul(alpha, t), p, evaluate=False), alpha**p * (c2 * t**p)),
)
DEGREE_P_STATEMENT = held_and(*DEGREE_P_PARTS)


def _nonzero(e: sympy.Expr) -> sympy.Basic:
    return sympy.Ne(0, e)  # written as Z3 reads ``e ≠ 0`` back


ALL_ALPHA_FORWARD = sympy.Implies(
    sympy.And(
        _instance(x, 1, _nonzero),
        _instance(_mul(-1, x), -1, _nonzero),
        _instance(-1, 1, _nonzero),
        _instance(2, 0, _nonzero),
    ),
    _eq(sigma(x), _mul(sigma(1), x)),
)
ALL_ALPHA_BACKWARD = sympy.Implies(
    ForAll((x,), _eq(sigma(x), _mul(c, x))), _instance(real_alpha, a, _nonzero)
)
ALL_ALPHA_ODD = _eq(
    sympy.Add(sigma(_mul(-1, 1)), _mul(-1, _mul(-1, sigma(1))), evaluate=False),
    sigma(-1) + sigma(1),
)  # (α, a) = (−1, 1): σ(−1) = −σ(1)
# σ(z) = c·z at αa and at a
ALL_ALPHA_LINEAR = _eq(_mul(c, _mul(nz_alpha, a)), _mul(nz_alpha, _mul(c, a)))
ALL_ALPHA_STATEMENT = held_and(
    ALL_ALPHA_ODD, ALL_ALPHA_FORWARD, ALL_ALPHA_LINEAR, ALL_ALPHA_BACKWARD
)


# --- the converse ------------------------------------------------------------------------------

a0, b_real, s_real = sympy.symbols("a0 beta s", real=True)


def _symmetry_at(al: sympy.Expr, z: sympy.Expr) -> sympy.Basic:
    """What the rescaling (αQ, g(α)K) being a symmetry says at d = n = 1: σ(α·z)·g(α) = σ(z)."""
    return _eq(_mul(sigma(_mul(al, z)), g(al)), sigma(z))


REGULARITY_FORMULA = Exists((p,), ForAll((alpha,), _eq(g(alpha), alpha ** (-p))))
CONVERSE_PARTS = (
    # a symmetry at d = n = 1, x = K = V = 1, Q = a
    _eq(
        _unit_gated(alpha * a, g(alpha)) - _unit_gated(a, 1), sigma(alpha * a) * g(alpha) - sigma(a)
    ),
    # g(α) ≠ 0 (σ(a0) ≠ 0: σ ≢ 0)
    sympy.Implies(
        sympy.And(_symmetry_at(real_alpha, a0), _nonzero(sigma(a0))), _nonzero(g(real_alpha))
    ),
    # g is multiplicative: σ(αβ·a0) two ways
    sympy.Implies(
        sympy.And(
            _symmetry_at(real_alpha, _mul(b_real, a0)),
            _symmetry_at(b_real, a0),
            _symmetry_at(_mul(real_alpha, b_real), a0),
            _nonzero(sigma(a0)),
        ),
        _eq(g(_mul(real_alpha, b_real)), _mul(g(real_alpha), g(b_real))),
    ),
    # g is positive: g(s·s) = g(s)·g(s) ≠ 0
    sympy.Implies(
        sympy.And(
            _eq(g(_mul(s_real, s_real)), _mul(g(s_real), g(s_real))),
            _nonzero(g(_mul(s_real, s_real))),
        ),
        _pos(g(_mul(s_real, s_real))),
    ),
    REGULARITY_FORMULA,
    # with g(α) = α^(−p), the symmetry is degree-p homogeneity
    _eq(
        sigma(alpha * a) * alpha ** (-p) - sigma(a),
        alpha ** (-p) * (sigma(alpha * a) - alpha**p * sigma(a)),
    ),
)
CONVERSE_STATEMENT = held_and(*CONVERSE_PARTS)

CLAIMS = {
    "symmetric": Claim(
        "scaling.symmetric_invariant",
        "the symmetric rank-1 form is inverse-scaling invariant",
        "Sym(x; αQ, K/α, V)_o = Σ_j σ((x·αq_j)(x·k_j/α)) V_jo = Σ_j σ((x·q_j)(x·k_j)) V_jo = "
        "Sym(x; Q, K, V)_o for every σ, every α ≠ 0 and any n, d",
        "A7",
        statement=SYMMETRIC_STATEMENT,
    ),
    "gated": Claim(
        "scaling.gated_iff",
        "the gated form keeps a rescaling iff σ commutes with it: the two identities that prove it",
        "The statement is the two identities of the argument, for a fixed α ≠ 0: "
        "Gated(x; αQ, K/α, V)_o − Gated(x; Q, K, V)_o = (1/α)·Σ_j (σ(α·x·q_j) − α·σ(x·q_j))"
        "(x·k_j) V_jo for general n, d (so σ(αa) = α·σ(a) for all a keeps the rescaling), and at "
        "d = n = 1, x = K = V = 1, Q = a the difference is (σ(αa) − α·σ(a))/α (so keeping it "
        "forces σ(αa) = α·σ(a) for all a). Together: invariant for all x, Q, K, V ⇔ "
        "σ(αa) = α·σ(a) for all a.",
        "A7",
        statement=GATED_STATEMENT,
    ),
    "degree1": Claim(
        "scaling.degree_one",
        "positive homogeneity of degree 1, characterized",
        "σ(αz) = α·σ(z) for all α > 0, z  ⇔  σ(z) = σ(1)·max(z,0) + σ(−1)·max(−z,0). "
        "(⇒) for every x, the instances (α, a) = (x, 1), (−x, −1), (2, 0) force the form at x "
        "(Z3; the form written by cases z > 0, z < 0, z = 0, which is the max form on each "
        "half-line: SymPy); (⇐) every σ of that shape is degree-1 homogeneous (Z3).",
        "A7",
        uses=("scaling.gated_iff",),
        statement=DEGREE_ONE_STATEMENT,
    ),
    "degree_p": Claim(
        "scaling.degree_p",
        "positive homogeneity of degree p: the substitutions that prove it",
        "σ(αz) = α^p·σ(z) for all α > 0, z  ⇔  σ(z) = σ(1)·z^p for z > 0, σ(−1)·|z|^p for "
        "z < 0, and σ(0) = 0 when p ≠ 0. The statement is the substitution identities of the "
        "argument: (⇒) (α, z) = (t, ±1) and (2, 0) in σ(αz) − α^p·σ(z) give σ(±t) − t^p·σ(±1) "
        "and (1 − 2^p)·σ(0); (⇐) c·(αt)^p = α^p·(c·t^p) on each half-line.",
        "A7",
        statement=DEGREE_P_STATEMENT,
    ),
    "generalized": Claim(
        "scaling.generalized_symmetry",
        "degree-p activations keep Q → αQ, K → α^(−p)K: the identity that proves it",
        "Gated(x; αQ, α^(−p)K, V)_o − Gated(x; Q, K, V)_o = α^(−p)·Σ_j (σ(α·x·q_j) − "
        "α^p·σ(x·q_j))(x·k_j) V_jo for every α > 0 and any n, d: when σ is positively "
        "homogeneous of degree p every term vanishes, so the rescaling is a symmetry.",
        "A7",
        uses=("scaling.degree_p",),
        statement=GENERALIZED_STATEMENT,
    ),
    "all_alpha": Claim(
        "scaling.all_nonzero_alpha_iff_linear",
        "all α ≠ 0, negative too, forces linearity",
        "σ(αa) = α·σ(a) for all α ≠ 0, a  ⇔  σ(z) = σ(1)·z. (⇒) for every x the instances "
        "(α, a) = (x, 1), (−x, −1), (−1, 1), (2, 0) force σ(x) = σ(1)·x (Z3; α = −1 gives "
        "σ(−1) = −σ(1), which makes the degree-1 form σ(1)·z); (⇐) σ(z) = c·z gives "
        "c·(αa) = α·(c·a) (SymPy), and σ(αa) = α·σ(a) over an uninterpreted σ (Z3).",
        "A7",
        uses=("scaling.degree_one", "exchange.lemma"),
        statement=ALL_ALPHA_STATEMENT,
    ),
    "converse": Claim(
        "scaling.converse",
        "a family of rescaling symmetries forces homogeneity: the steps",
        "If σ ≢ 0 and for every α > 0 some g(α) makes (αQ, g(α)K) a symmetry of the gated form, "
        "then σ is positively homogeneous of some degree p and g(α) = α^(−p). The statement is "
        "the steps of that argument: the specialisation σ(αa)g(α) = σ(a) (d = n = 1, SymPy); "
        "with σ(a0) ≠ 0, g(α) ≠ 0, g is multiplicative (σ(αβ·a0) two ways) and positive "
        "(g(α) = g(√α)²) (Z3, over uninterpreted σ and g); the regularity assumption "
        "(admitted, named): g(α) = α^(−p); then σ(αa) = α^p·σ(a) (SymPy).",
        "A7",
        assumptions=("σ measurable", REGULARITY),
        uses=("scaling.gated_iff", "scaling.degree_p"),
        statement=CONVERSE_STATEMENT,
    ),
}


def _concluded(steps: list[Step], rule: str, note: str = "") -> Derivation:
    """The steps, then their conjunction: the claim's statement."""
    return Derivation(conjoined(steps, rule, note))


def symmetric_derivation() -> Derivation:
    score, Vjo, whole = _symmetric_parts()
    hole = sympy.Symbol("w")
    first = equal_step(
        score.lhs,
        score.rhs,
        "α·(1/α) = 1, α ≠ 0 (constants out of Σ_i)",
        note="(x·αq_j)(x·k_j/α) = (x·q_j)(x·k_j)  (general d)",
    )
    term = Step(
        cong(first.fact, sympy.Lambda(hole, sigma(hole) * Vjo)),
        "congruence: put both sides in σ(·)·V_jo",
        note="σ((x·αq_j)(x·k_j/α))·V_jo = σ((x·q_j)(x·k_j))·V_jo for every unit j",
    )
    last = equal_step(
        whole.lhs,
        whole.rhs,
        "sum over the units j = 0, …, n − 1",
        note="Sym(x; αQ, K/α, V)_o = Sym(x; Q, K, V)_o  (general n, d, any σ)",
    )
    return Derivation((first, term, last))


def gated_derivation() -> Derivation:
    defect, special = _gated_parts()
    return _concluded(
        [
            equal_step(
                defect.lhs,
                defect.rhs,
                "general n, d: linearity of Σ",
                note="Gated(αQ, K/α) − Gated(Q, K) = (1/α)·Σ_j (σ(α·x·q_j) − α·σ(x·q_j))"
                "(x·k_j) V_jo: zero when σ(αa) = α·σ(a) for all a",
            ),
            equal_step(
                special.lhs,
                special.rhs,
                "(⇒) specialise d = n = 1, x = 1, K = 1, V = 1, Q = a",
                note="Gated(1; αa, 1/α, 1) − Gated(1; a, 1, 1) = (σ(αa) − α·σ(a))/α: keeping "
                "the rescaling forces σ(αa) = α·σ(a) for every a",
            ),
        ],
        "both identities",
    )


Z3_RULE = "Z3 over an uninterpreted σ: negation unsat"


def degree_one_derivation() -> Derivation:
    positive, negative = MAX_FORM_CASES
    return _concluded(
        [
            Step(
                check_valid_formula(DEGREE_ONE_FORWARD),
                Z3_RULE,
                note="(⇒) σ(αa) = α·σ(a) at (x, 1), (−x, −1), (2, 0) ⇒ σ(x) = σ(1)·x for x > 0, "
                "σ(−1)·(−x) for x < 0, 0 at 0",
            ),
            equal_step(
                positive.lhs,
                positive.rhs,
                "max(t, 0) = t, max(−t, 0) = 0 for t > 0",
                note="on z = t > 0 the max form is σ(1)·t",
            ),
            equal_step(
                negative.lhs,
                negative.rhs,
                "the same at z = −t < 0",
                note="on z = −t < 0 the max form is σ(−1)·t: it is the form by cases above",
            ),
            Step(
                check_valid_formula(DEGREE_ONE_BACKWARD),
                Z3_RULE,
                note="(⇐) σ(x) = c1·max(x,0) + c2·max(−x,0) for all x, α > 0 ⇒ σ(αa) = α·σ(a)",
            ),
        ],
        "both directions together",
    )


def degree_p_derivation() -> Derivation:
    rules = (
        ("(⇒) substitute (α, z) = (t, 1) in σ(αz) − α^p σ(z)", "σ(t) = σ(1)·t^p for t > 0"),
        ("(⇒) substitute (α, z) = (t, −1)", "σ(−t) = σ(−1)·t^p = σ(−1)·|−t|^p"),
        ("(⇒) substitute (α, z) = (2, 0)", "(1 − 2^p)·σ(0) = 0, so σ(0) = 0 when p ≠ 0"),
        ("(⇐) (αt)^p = α^p t^p, α, t > 0", "σ(αt) = σ(1)(αt)^p = α^p·σ(t) for t > 0"),
        ("(⇐) the same on z = −t < 0", "σ(−αt) = σ(−1)(αt)^p = α^p·σ(−t) for t > 0"),
    )
    return _concluded(
        [
            equal_step(f.lhs, f.rhs, rule, note=note)
            for f, (rule, note) in zip(DEGREE_P_PARTS, rules, strict=True)
        ],
        "the five substitutions together",
    )


def generalized_derivation() -> Derivation:
    f = GENERALIZED_STATEMENT
    return Derivation(
        (
            equal_step(
                f.lhs,
                f.rhs,
                "general n, d: linearity of Σ, α^p·α^(−p) = 1",
                note="Gated(x; αQ, α^(−p)K, V) − Gated(x; Q, K, V) = α^(−p)·Σ_j (σ(α·x·q_j) − "
                "α^p·σ(x·q_j))(x·k_j) V_jo: zero for σ of degree p",
            ),
        )
    )


def all_alpha_derivation() -> Derivation:
    odd, linear = ALL_ALPHA_ODD, ALL_ALPHA_LINEAR
    return _concluded(
        [
            equal_step(
                odd.lhs,
                odd.rhs,
                "(⇒) substitute (α, a) = (−1, 1) in σ(αa) − α·σ(a)",
                note="α = −1 gives σ(−1) = −σ(1): the degree-1 form becomes σ(1)·z",
            ),
            Step(
                check_valid_formula(ALL_ALPHA_FORWARD),
                Z3_RULE,
                note="(⇒) instances at (x, 1), (−x, −1), (−1, 1), (2, 0) ⇒ σ(x) = σ(1)·x",
            ),
            equal_step(
                linear.lhs,
                linear.rhs,
                "(⇐) substitute σ(z) = c·z",
                note="σ(αa) = c·(αa) = α·(c·a) = α·σ(a) for every α ≠ 0",
            ),
            Step(
                check_valid_formula(ALL_ALPHA_BACKWARD),
                Z3_RULE,
                note="(⇐) the same over an uninterpreted σ: σ(z) = c·z for all z ⇒ "
                "σ(αa) = α·σ(a) for every α ≠ 0, a",
            ),
        ],
        "both directions together",
    )


def converse_derivation() -> Derivation:
    special, nonzero, multiplicative, positive, regular, homogeneous = CONVERSE_PARTS
    return _concluded(
        [
            equal_step(
                special.lhs,
                special.rhs,
                "specialise d = n = 1, x = 1, K = 1, V = 1, Q = a",
                note="a symmetry (αQ, g(α)K) gives σ(αa)·g(α) = σ(a) for every α > 0, a",
            ),
            Step(
                check_valid_formula(nonzero), Z3_RULE, note="at a0 with σ(a0) ≠ 0 (σ ≢ 0): g(α) ≠ 0"
            ),
            Step(
                check_valid_formula(multiplicative),
                Z3_RULE,
                note="σ(αβ·a0) two ways: σ(αβa0)g(α)g(β) = σ(βa0)g(β) = σ(a0) = σ(αβa0)g(αβ), "
                "so g(αβ) = g(α)g(β)",
            ),
            Step(
                check_valid_formula(positive),
                Z3_RULE,
                note="at β = α = s = √α: g(α) = g(√α)² and g(α) ≠ 0, so g maps (0,∞) into (0,∞)",
            ),
            Step(
                assume(REGULARITY, regular),
                "regularity assumption (named in the claim)",
                note="Cauchy's multiplicative equation: g(α) = α^(−p) for some real p",
            ),
            equal_step(
                homogeneous.lhs,
                homogeneous.rhs,
                "substitute g(α) = α^(−p)",
                note="σ(αa)·α^(−p) = σ(a) is σ(αa) = α^p·σ(a): σ is positively homogeneous "
                "of degree p (scaling.degree_p), and g(α) = α^(−p)",
            ),
        ],
        "the steps together (resting on the regularity assumption)",
    )


def theorem_results() -> list[Result]:
    build = {
        "symmetric": symmetric_derivation,
        "gated": gated_derivation,
        "degree1": degree_one_derivation,
        "degree_p": degree_p_derivation,
        "generalized": generalized_derivation,
        "all_alpha": all_alpha_derivation,
        "converse": converse_derivation,
    }
    numeric = {"symmetric": symmetric_scaling_checks(), "gated": scaling_identity_checks()}
    return [Result(CLAIMS[k], f(), numeric.get(k, ())) for k, f in build.items()]


EVERY_RESCALING = "Q → αQ, K → g(α)K for every g and all α > 0 (σ ≡ 0)"


def _rescalings(an: ActivationAnalysis) -> dict[str, Any]:
    p = an.degree
    return {
        "generalized_symmetry": None
        if p is None
        else EVERY_RESCALING
        if an.every_degree  # σ ≡ 0: "α^(-every)" was no rescaling at all
        else f"Q → αQ, K → α^(-{shown_text(p)})K for all α > 0",
        "all_nonzero_alpha_symmetric": an.is_linear,
    }


def _general_cell(an: ActivationAnalysis) -> str:
    """The rescalings (αQ, g(α)K) that are symmetries, as a table cell."""
    if an.every_degree:
        return "every g(α)"
    return f"K → α^(−{shown_text(an.degree)})K" if an.degree is not None else "none"


def activation_result(an: ActivationAnalysis, act, torch: bool = False) -> Result:
    p = an.degree
    parts = []
    if an.every_degree:
        parts.append(
            "σ ≡ 0 is positively homogeneous of every degree: every rescaling "
            "Q → αQ, K → g(α)K leaves Gated (≡ 0) unchanged"
        )
    elif p is not None:
        parts.append(
            f"σ is positively homogeneous of degree {shown_text(p)}: Gated keeps "
            f"Q → αQ, K → α^(−{shown_text(p)})K for every α > 0"
        )
    elif an.homogeneity.holds.status == "refuted":
        parts.append(
            "σ is not positively homogeneous of any degree: no family of rescalings "
            "(αQ, g(α)K), one for every α > 0, is a symmetry of Gated "
            "(scaling.converse, under its regularity assumption)"
        )
    inv = an.inverse_scaling_symmetric
    if inv is not None:
        parts.append("Q → αQ, K → K/α " + ("is" if inv else "is not") + " a symmetry (α > 0)")
    if an.is_linear is not None:
        parts.append(
            "negative α "
            + ("keep" if an.is_linear else "break")
            + " it (σ "
            + ("" if an.is_linear else "not ")
            + "linear)"
        )
    claim = Claim(
        f"scaling.activation.{an.label}"[:60],
        f"rescalings of the gated form with σ = {an.label}",
        "; ".join(parts) + ".",
        "A7",
        kind="proposition",
        assumptions=(f"σ(z) = {shown_text(an.expr)}",),
        uses=("scaling.gated_iff", "scaling.degree_p", "scaling.converse"),
        statement=decided_statement(_scaling_decisions(an)),
    )
    steps = (
        *decision_steps(an.homogeneity, RULES[1]),
        *decision_steps(an.inverse_scaling, RULES[2]),
        *decision_steps(an.linear, RULES[0])[-1:],
    )
    steps += (Step(conclusion(_scaling_decisions(an)), CONCLUSION_RULE),)
    return Result(claim, Derivation(steps), generalized_symmetry_checks(an, act, torch))


def _scaling_decisions(an: ActivationAnalysis):
    """The decisions a rescaling claim states: homogeneity, inverse scaling, linearity."""
    return an.homogeneity, an.inverse_scaling, an.linear


def scaling_table(analyses: Sequence[ActivationAnalysis]) -> Table:
    def kept(v):
        return "?" if v is None else "kept" if v else "broken"

    rows = []
    for an in analyses:
        p = an.degree
        witness = an.inverse_scaling.holds.verdict.witness
        rows.append(
            (
                an.label,
                ("every" if an.every_degree else shown_text(p))
                if p is not None
                else ("none" if an.homogeneity.holds.status == "refuted" else "?"),
                kept(an.inverse_scaling_symmetric),
                _general_cell(an),
                kept(an.is_linear),
                ", ".join(f"{k} = {val}" for k, val in witness) or "—",
                an.status,
            )
        )
    return Table(
        "rescalings",
        "Which rescalings Q → αQ, K → g(α)K are symmetries of the gated form",
        (
            "activation",
            "degree p",
            "K → K/α (α > 0)",
            "general α > 0",
            "all α ≠ 0",
            "break witness",
            "status",
        ),
        tuple(rows),
        notes=(
            "The symmetric rank-1 form keeps K → K/α for every σ and α ≠ 0.",
            "general α > 0: the only g making (αQ, g(α)K) a symmetry is α^(−p) (scaling.converse); "
            "for σ ≡ 0 every g does.",
        ),
    )


def build_report(activations: Sequence[str] | None = None, torch: bool = False) -> Report:
    """The rescaling theorems and the per-activation table (torch cross-checks when asked)."""
    if activations:
        items, theorems = [parsed_item(text) for text in activations], []
    else:
        items, theorems = table_items(), theorem_results()
    analyses = [analyze_item(label, expr) for label, expr, _ in items]
    per_activation = [
        activation_result(an, act, torch) for an, (_, _, act) in zip(analyses, items, strict=True)
    ]
    data = {"activations": [{**an.to_json(), **_rescalings(an)} for an in analyses]}
    return Report(
        "proofs.scaling",
        "Inverse scaling and positive homogeneity",
        "A7",
        tuple(theorems + per_activation),
        (scaling_table(analyses),),
        data=data,
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run_with_activations(build_report, __doc__, PROG, argv)


if __name__ == "__main__":
    raise SystemExit(main())
