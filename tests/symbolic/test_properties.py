"""Decision procedures for linearity and positive homogeneity (docs/theory.md A6, A7)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic.activations import ACTIVATIONS, z
from symbolic.gated.properties import decide_homogeneity, decide_linear
from symbolic.steps import certify_nonzero

R, Max, Min, Abs, exp = sympy.Rational, sympy.Max, sympy.Min, sympy.Abs, sympy.exp
relu = lambda e: Max(0, e)  # noqa: E731


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_table_verdicts_match_theory(name):
    act = ACTIVATIONS[name]
    linear, homogeneity = decide_linear(act.expr), decide_homogeneity(act.expr)
    assert linear.holds.status == ("proved" if act.linear else "refuted")
    if act.degree is None:
        assert homogeneity.holds.status == "refuted"
        assert homogeneity.value is None
    else:
        assert homogeneity.holds.status == "proved"
        assert homogeneity.value == act.degree


CASES = [
    # (σ, linear?, degree or None)  — disguised linear functions
    (relu(z) - relu(-z), True, 1),
    (sympy.log(exp(z)), True, 1),
    (Max(z, 1) + Min(z, 1) - 1, True, 1),
    ((exp(z) - exp(-z)) / 2 - sympy.sinh(z) + z, True, 1),
    (2 / (1 + exp(-2 * z)) - 1 - sympy.tanh(z) + z, True, 1),
    (z * sympy.erf(z) + z * sympy.erf(-z) + 3 * z, True, 1),
    # nonlinear by a hair
    (z + R(1, 10**30) * z**2, False, None),
    (z + R(1, 10**300) * exp(z), False, None),
    (z + relu(z - 10**9), False, None),
    (relu(z - R(1, 10**9)), False, None),
    (Max(z, R(1, 10**9)), False, None),
    (z + R(1, 10**30) * relu(z), False, 1),
    (Max(z, R(1, 10**9) * z), False, 1),
    # non-integer and irrational degrees
    (relu(z) ** R(3, 2), False, R(3, 2)),
    (z * Abs(z) ** R(1, 2), False, R(3, 2)),
    (Abs(z) ** R(1, 3), False, R(1, 3)),
    (Abs(z) ** sympy.pi, False, sympy.pi),
    (sympy.sqrt(z**2), False, 1),
    (relu(z) + relu(-z) ** 2, False, None),
    (2**z, False, None),
]


@pytest.mark.parametrize(("expr", "linear", "degree"), CASES, ids=[str(c[0]) for c in CASES])
def test_user_style_activations(expr, linear, degree):
    lin = decide_linear(expr)
    hom = decide_homogeneity(expr, lin)  # a proved-linear σ has degree 1 at once
    assert lin.holds.status == ("proved" if linear else "refuted")
    if degree is None:
        assert hom.holds.status == "refuted"
    else:
        assert hom.holds.status == "proved" and sympy.simplify(hom.value - degree) == 0


def test_zero_is_homogeneous_of_every_degree():
    """σ ≡ 0 satisfies σ(αz) = α^p σ(z) for every p: the degree is EVERY_DEGREE, not 1."""
    from symbolic.gated.analysis import analyze
    from symbolic.gated.properties import EVERY_DEGREE

    lin = decide_linear(sympy.Integer(0))
    assert lin.holds.status == "proved"
    an = analyze(sympy.Integer(0), "zero")
    assert an.homogeneity.holds.status == "proved" and an.degree == EVERY_DEGREE
    assert an.every_degree is True
    out = an.to_json()
    assert out["homogeneity_degree"] == "every" and out["homogeneous_of_every_degree"] is True
    assert an.inverse_scaling_symmetric is True


def test_refutation_carries_a_certified_witness():
    decision = decide_linear(z + R(1, 10**30) * z**2)
    z0 = decision.witness
    diff = (z + R(1, 10**30) * z**2).subs(z, z0) - decision.value * z0
    assert certify_nonzero(diff).status == "proved"
    assert str(z0) in dict(decision.holds.verdict.witness).values()


coefficients = st.fractions(min_value=-20, max_value=20, max_denominator=50).map(
    lambda f: R(f.numerator, f.denominator)
)
degrees = st.fractions(min_value=R(1, 4), max_value=4, max_denominator=8).map(
    lambda f: R(f.numerator, f.denominator)
)


@given(coefficients)
def test_every_line_through_zero_is_linear(c):
    decision = decide_linear(c * z)
    assert decision.holds.status == "proved" and decision.value == c


@given(coefficients.filter(lambda c: c != 0), st.integers(min_value=1, max_value=60))
def test_any_quadratic_term_is_caught(c, k):
    decision = decide_linear(c * z + R(1, 10**k) * z**2)
    assert decision.holds.status == "refuted"


@given(coefficients, coefficients, degrees)
@example(R(3, 2), R(2, 3), R(1, 4))  # c and 1/c: SymPy could not order |log c| (a TypeError)
def test_two_sided_power_laws_are_homogeneous_of_their_degree(a, b, p):
    if a == 0 and b == 0:
        return
    expr = a * relu(z) ** p + b * relu(-z) ** p
    decision = decide_homogeneity(expr)
    assert decision.holds.status == "proved" and decision.value == p


@given(degrees, st.integers(min_value=1, max_value=40))
def test_power_law_plus_a_hair_is_not_homogeneous(p, k):
    expr = relu(z) ** p + R(1, 10**k) * relu(z) ** (p + 1)
    assert decide_homogeneity(expr).holds.status == "refuted"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("expr", "near_the_limit"),
    [
        ((sympy.exp(z) - sympy.exp(-z)) / 2 - sympy.sinh(z) + z, False),  # 0.3 s
        (2 / (1 + sympy.exp(-2 * z)) - 1 - sympy.tanh(z) + z, True),
    ],
)
def test_homogeneity_procedure_sees_through_disguise_on_its_own(expr, near_the_limit):
    """Proved with degree 1. The tanh disguise takes 1.3 s of its 3 s CPU limit alone, and on
    this 2-core machine a busy neighbour core slows CPU time itself (seen twice in full runs):
    there, unknown at the limit is accepted — never refuted, never another degree."""
    sympy.core.cache.clear_cache()  # as a fresh process has it
    decision = decide_homogeneity(expr)
    reasons = _reasons(decision.holds)
    if near_the_limit and decision.holds.status == "unknown":
        assert "time limit" in reasons, reasons
        return
    assert decision.holds.status == "proved" and decision.value == 1, reasons


def _reasons(fact, depth: int = 0) -> str:
    """Each verdict of a fact's tree with its reason and time (what a failure must show)."""
    v = fact.verdict
    lines = [f"{'  ' * depth}{v.status} {v.method} {v.seconds or 0:.2f} s: {v.reason}"]
    return "\n".join(lines + [_reasons(p, depth + 1) for p in fact.parts])


def _bump_above_thresholds(k: int) -> sympy.Expr:
    """x + relu(min(x − tanh k, 1 − x)): nonzero only on (tanh k, 1), of height (1 − tanh k)/2
    at its kink (1 + tanh k)/2 — about 2e−174 for k = 200."""
    return z + Max(0, Min(z - sympy.tanh(k), 1 - z))


def _bump_height(k: int, z0: sympy.Expr) -> mpmath.mpf:
    """σ(z0) − σ(1)·z0 at 800 digits, by mpmath alone (σ(1) = 1: the bump is 0 there)."""
    with mpmath.workdps(800):
        x, t = mpmath.mpf(str(sympy.N(z0, 820))), mpmath.tanh(k)
        return max(mpmath.mpf(0), min(x - t, 1 - x))


@settings(max_examples=4)  # about 1 s each
@given(st.integers(20, 400))
@example(200)  # a report took 10 s and said unknown: the kink was tried at 256 bits only
def test_a_bump_between_irrational_thresholds_is_found_at_its_kink(k):
    """The kink (1 + tanh k)/2 is tried at full precision, with the branches the kernel's
    enclosures take there (SymPy's Max could not compare 1/2 − tanh(k)/2 with 0, and a skipped
    point left linearity unknown)."""
    linear = decide_linear(_bump_above_thresholds(k))
    assert linear.status == "refuted", linear.holds.reason
    assert _bump_height(k, linear.witness) > 0  # independently: the witness is in the bump


@settings(max_examples=6)  # about 0.2 s each
@given(st.fractions(min_value=-100, max_value=100).filter(lambda c: c != 0))
@example(Fraction(5))  # 28 constant activations of the campaign had the inverse scaling unknown
def test_a_constant_activation_breaks_the_inverse_scaling(c):
    """σ ≡ c ≠ 0: σ(αa) = c ≠ αc = ασ(a) for α ≠ 1 — refuted at a point of α alone (the kernel
    refuses a witness value for z, which a constant does not have)."""
    from symbolic.gated.analysis import analyze

    an = analyze(sympy.Rational(c.numerator, c.denominator), str(c))
    assert an.inverse_scaling.holds.status == "refuted", an.inverse_scaling.holds.reason
    assert an.inverse_scaling_symmetric is False and an.degree == 0
    alpha = sympy.Rational(dict(an.inverse_scaling.holds.verdict.witness)["alpha"])
    assert alpha > 0 and alpha != 1  # c ≠ αc exactly
