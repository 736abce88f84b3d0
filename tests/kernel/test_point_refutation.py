"""``check_equal`` refutes at a point of the symbols' domains before ``simplify`` runs
(``symbolic.kernel.probes._refuted_at_a_point``), and ``in_domain`` judges a point
against every assumption of a symbol."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.kernel import check_equal, check_matrix_equal
from symbolic.kernel import probes as pr
from symbolic.kernel import sympy_checks as sc
from symbolic.kernel.points import in_domain

x = sympy.Symbol("x", real=True)
t = sympy.Symbol("t", positive=True)
n = sympy.Symbol("n", integer=True, nonnegative=True)
k = sympy.Symbol("k", integer=True, negative=True)

ASSUMPTION_SETS = [
    {},
    {"real": True},
    {"positive": True},
    {"negative": True},
    {"nonnegative": True},
    {"nonpositive": True},
    {"nonzero": True, "real": True},
    {"integer": True},
    {"integer": True, "positive": True},
    {"integer": True, "nonnegative": True},
    {"integer": True, "negative": True},
    {"even": True},
    {"odd": True},
    {"prime": True},
    {"rational": True},
    {"zero": True},
    {"composite": True},
]  # composite: no probe value fits


def test_a_false_identity_is_refuted_with_a_point_of_the_domain():
    fact = check_equal(2 * x, x + 1)
    assert fact.refuted and fact.verdict.witness == (("x", "7/5"),)
    assert fact.verdict.method == "exact" and "value = 2/5" in fact.verdict.certificate
    # a nonnegative integer: 7/5 and -3/7 lie outside, 2 is the first value inside
    fact = check_equal(n**2, n)
    assert fact.refuted and fact.verdict.witness == (("n", "2"),)
    # a negative integer: -3
    assert check_equal(k**2, -k).verdict.witness == (("k", "-3"),)


def test_a_transcendental_difference_is_certified_by_intervals():
    fact = check_equal(sympy.exp(t), 1 + t + t**2 / 2)
    assert fact.refuted and fact.verdict.method == "interval"
    assert fact.verdict.witness == (("t", "7/5"),)


DOMAIN_ONLY = [  # true on the symbol's domain, false outside it (SymPy leaves each unreduced)
    (sympy.sqrt(t**2 + 2 * t + 1), t + 1),  # |t + 1| = t + 1 needs t ≥ −1
    (sympy.sqrt(n**2 + 2 * n + 1), n + 1),
    (sympy.sqrt(k**2 - 2 * k + 1), 1 - k),  # needs k ≤ 1
]


def test_a_claim_true_on_the_domain_is_never_refuted_outside_it(monkeypatch):
    from symbolic.kernel import points

    for lhs, rhs in DOMAIN_ONLY:
        assert not check_equal(lhs, rhs).refuted
    # a probe point outside the domains is refused by counterexample's own domain check ...
    monkeypatch.setattr(
        pr,
        "_probe_point",
        lambda e, start=0: {s: sympy.Integer(3 if s.is_negative else -3) for s in e.free_symbols},
    )
    for lhs, rhs in DOMAIN_ONLY:
        assert not check_equal(lhs, rhs).refuted
    # ... and without that check the same claims are refuted: the cases reach the probe, and
    # only the domains keep them sound
    monkeypatch.setattr(points, "in_domain", lambda symbol, value: True)
    for lhs, rhs in DOMAIN_ONLY:
        assert check_equal(lhs, rhs).refuted


def test_undefined_at_the_point_or_uninterpreted_is_not_refuted():
    assert not check_equal(1 / (x - sympy.Rational(7, 5)), 0).refuted  # pole at the probe
    f = sympy.Function("f")
    assert check_equal(f(x), x).status == "unknown"
    A = sympy.MatrixSymbol("A", 2, 2)
    assert pr._refuted_at_a_point(sympy.Trace(A) - 1) is None


def test_true_identities_are_still_proved():
    assert check_equal(sympy.sin(x) ** 2 + sympy.cos(x) ** 2, 1).proved  # needs simplify
    assert check_equal(sympy.tanh(x), (sympy.exp(2 * x) - 1) / (sympy.exp(2 * x) + 1)).proved
    assert check_equal((x**2 - 1) / (x - 1), x + 1).proved


def test_matrix_entries_are_refuted_at_a_point_too():
    fact = check_matrix_equal(sympy.Matrix([[x, 1]]), sympy.Matrix([[x, x]]))
    assert fact.refuted and "x = 7/5" in fact.verdict.reason


def test_the_probe_is_off_where_the_symbols_range_over_less_than_their_domain():
    # check_zero_on decides a branch on its own region: a point outside it would prove nothing
    assert sc.zero_verdict(x - 1).status == "unknown"
    assert sc.zero_verdict(x - 1, universal=True).status == "refuted"


# Each declared assumption read directly off a fraction: the oracle the kernel is checked by.
DECLARED = {
    "real": lambda f: True,
    "rational": lambda f: True,
    "positive": lambda f: f > 0,
    "negative": lambda f: f < 0,
    "nonnegative": lambda f: f >= 0,
    "nonpositive": lambda f: f <= 0,
    "nonzero": lambda f: f != 0,
    "zero": lambda f: f == 0,
    "integer": lambda f: f.denominator == 1,
    "even": lambda f: f.denominator == 1 and f.numerator % 2 == 0,
    "odd": lambda f: f.denominator == 1 and f.numerator % 2 == 1,
    "prime": lambda f: f.denominator == 1 and sympy.isprime(f.numerator),
    "composite": lambda f: f.denominator == 1 and f > 1 and not sympy.isprime(f.numerator),
}


@settings(max_examples=60, deadline=None)
@given(
    assumptions=st.sampled_from(ASSUMPTION_SETS),
    value=st.fractions(min_value=-20, max_value=20, max_denominator=12),
)
def test_in_domain_judges_a_rational_by_every_assumption(assumptions, value):
    s = sympy.Symbol("s", **assumptions)
    inside = in_domain(s, sympy.Rational(value.numerator, value.denominator))
    assert inside is all(DECLARED[key](value) for key in assumptions)


@settings(max_examples=40, deadline=None)
@given(assumptions=st.sampled_from(ASSUMPTION_SETS))
def test_the_probe_point_lies_in_every_symbols_domain(assumptions):
    s = sympy.Symbol("s", **assumptions)
    point = pr._probe_point(s + x)
    if point is None:  # no value of PROBE_VALUES fits: no probe at all
        assert not any(in_domain(s, v) for v in pr.PROBE_VALUES)
        return
    from fractions import Fraction

    value = Fraction(int(point[s].p), int(point[s].q))
    assert all(DECLARED[key](value) for key in assumptions)


polys = st.lists(st.integers(-4, 4), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(p=polys, q=polys)
def test_the_probe_never_refutes_a_true_identity(p, q):
    """(P·Q written out) plus a hyperbolic term that is 0 (only simplify sees it) minus P·Q:
    the probe finds no refutation; with the constant term changed, it refutes at the point."""
    P = sum(c * x**i for i, c in enumerate(p))
    Q = sum(c * x**i for i, c in enumerate(q))
    disguise = sympy.cosh(x) ** 2 - sympy.sinh(x) ** 2 - 1
    assert pr._refuted_at_a_point(sympy.expand(P * Q) + disguise - P * Q) is None
    refuted = pr._refuted_at_a_point(sympy.expand(P * Q) + disguise + 1 - P * Q)
    assert refuted is not None and refuted.witness == (("x", "7/5"),)


def test_a_disguised_true_identity_is_proved_not_refuted():
    disguise = sympy.cosh(x) ** 2 - sympy.sinh(x) ** 2 - 1
    assert check_equal(sympy.expand((x + 2) ** 3) + disguise, (x + 2) ** 3).proved
