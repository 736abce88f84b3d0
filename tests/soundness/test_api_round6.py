"""API red-team round 6: users' claims whose SymPy value is a convention (a derivative at a kink,
a reversed or non-integer range of a sum), floats built in Z3, domains shown as checked, and
divisions inside a Piecewise branch that is not taken. Each class fails before its fix; the
corpus (``api_corpus_round6``, truths by hand and mpmath at 50+ digits) must have no WRONG."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import mpmath
import pytest
import sympy
import z3
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic import api
from symbolic.errors import InvalidArgument
from symbolic.kernel import ForAll


def _corpus():
    name = "api_corpus_round6"
    if name not in sys.modules:
        path = Path(__file__).with_name(f"{name}.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


corpus = _corpus()
x = sympy.Symbol("x", real=True)
k = sympy.Symbol("k", integer=True)
n = sympy.Symbol("n", integer=True)
m = sympy.Symbol("m", integer=True, positive=True)


def _status(build) -> str:
    try:
        return build().fact.status
    except InvalidArgument:
        return "refused"


def test_the_corpus_is_large():
    assert len(corpus.CORPUS) >= 60
    assert len({e.id for e in corpus.CORPUS}) == len(corpus.CORPUS)


@pytest.mark.parametrize("entry", corpus.CORPUS, ids=lambda e: e.id)
def test_no_wrong_verdict(entry):
    """proved only if true, refuted only if false; a convention's value neither."""
    got = _status(entry.build)
    assert not (got == "proved" and entry.expect != "true"), entry.why
    assert not (got == "refuted" and entry.expect != "false"), entry.why


@pytest.mark.parametrize("entry", [e for e in corpus.CORPUS if e.mp], ids=lambda e: e.id)
def test_the_truths_agree_with_mpmath(entry):
    with mpmath.workdps(60):  # at least 50 digits, whatever another test left set
        assert entry.mp() == (entry.expect == "true")


def at0(f):
    return sympy.Subs(sympy.Derivative(f, x), x, 0)


@pytest.mark.parametrize(
    "claim",
    [
        lambda: api.equal(at0(sympy.Max(0, x)), sympy.Rational(1, 2)),  # relu'(0): none
        lambda: api.equal(at0(sympy.Abs(x)), 0),  # |x|'(0): none
        lambda: api.equal(sympy.Derivative(sympy.Max(0, x), x), sympy.Heaviside(x)),
    ],
)
def test_a_derivative_at_a_kink_is_not_proved(claim):
    """SymPy's max(0, x)' = Heaviside(x) gives relu'(0) = 1/2; relu has no derivative at 0."""
    assert claim().fact.status == "unknown"


def test_a_smooth_derivative_is_still_proved():
    assert api.equal(at0(x**3 + 2 * x), 2).fact.proved


def _at(f, c):
    return sympy.Subs(sympy.Derivative(f, x), x, c)


@settings(max_examples=10, deadline=None)
@given(st.fractions(-20, 20).filter(lambda c: c != 0), st.integers(-3, 3))
def test_a_derivative_away_from_every_kink_is_the_classical_one(c, shift):
    """relu'(c) at a rational c ≠ 0 is 1 or 0: every branch argument is a nonzero rational at c,
    so one smooth branch holds around it (decided); at c = 0 it is still not decided."""
    c = sympy.Rational(c.numerator, c.denominator)
    relu = sympy.Max(0, x - shift)
    slope = 1 if c > shift else 0
    if c == shift:
        assert api.equal(_at(relu, c), slope).fact.status == "unknown"
        return
    assert api.equal(_at(relu, c), slope).fact.proved
    assert api.equal(_at(relu, c), 1 - slope).fact.refuted
    # |x − s|'(c) = ±1: never refuted, and the other sign never proved (SymPy's simplify of
    # it lets the Subs variable out: Piecewise((−1, x = 0), (0, True)), so it may stay unknown)
    assert not api.equal(_at(sympy.Abs(x - shift), c), 2 * slope - 1).fact.refuted
    assert not api.equal(_at(sympy.Abs(x - shift), c), 1 - 2 * slope).fact.proved


def test_a_derivative_at_a_point_that_is_no_rational_or_of_a_jump_stays_undecided():
    assert api.equal(_at(sympy.Max(0, x), sympy.sqrt(2)), 1).fact.status == "unknown"
    assert api.equal(_at(sympy.floor(x), sympy.Rational(1, 2)), 0).fact.status == "unknown"
    assert api.equal(_at(sympy.Max(0, x**2 - 1), 1), 2).fact.status == "unknown"  # a kink at 1


@pytest.mark.parametrize(
    "claim",
    [
        lambda: api.equal(sympy.Sum(1, (k, 3, 1)), -1),  # Karr; the empty sum is 0
        lambda: api.equal(sympy.Product(k, (k, 3, 1)), sympy.Rational(1, 2)),  # empty: 1
        lambda: api.equal(sympy.Sum(k, (k, 1, n)), n * (n + 1) / 2),  # n = −5: 0 vs 10
        lambda: api.equal(sympy.Sum(k, (k, sympy.Rational(1, 2), 3)), 6),  # no integer range
    ],
)
def test_a_sum_over_a_reversed_or_fractional_range_is_not_decided(claim):
    assert claim().fact.status == "unknown"


def test_a_sum_over_a_range_never_reversed_is_still_proved():
    assert api.equal(sympy.Sum(k, (k, 1, m)), m * (m + 1) / 2).fact.proved
    assert api.equal(sympy.Sum(1, (k, 3, 2)), 0).fact.proved  # b = a − 1: the empty sum


@settings(max_examples=20, deadline=None)
@given(st.integers(-5, 5), st.integers(2, 6))
@example(3, 2)
def test_a_reversed_range_is_never_decided_either_way(a, gap):
    """Sum(1, (k, a, a − gap)): 0 to a reader, −(gap − 1) by Karr: no verdict for either."""
    b = a - gap
    for claimed in (0, b - a + 1):
        assert api.equal(sympy.Sum(1, (k, a, b)), claimed).fact.status == "unknown"


@settings(max_examples=25, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
@example(0.1)
@example(1 / 3)
def test_a_float_built_in_z3_is_its_exact_value(f):
    """Z3's RealVal(0.1) reads the text '0.1'; in a check it is the float's binary value, as
    on the SymPy path, and z3 is left as it was."""
    p, q = f.as_integer_ratio()
    assert api.valid(lambda z3_: z3_.RealVal(f) == z3_.RealVal(f"{p}/{q}")).fact.proved
    assert api.valid(lambda z3_: z3_.Real("t") + f == z3_.Real("t") + z3_.Q(p, q)).fact.proved
    assert api.equal(f, sympy.Rational(p, q)).fact.proved
    assert str(z3.RealVal(0.1)) == "1/10"  # restored after the check


def test_the_float_tenth_in_z3_is_not_a_tenth():
    assert api.valid(lambda z3_: z3_.RealVal(0.1) * 10 == 1).fact.refuted
    assert api.valid(lambda z3_: z3_.Real("t") * 0.1 == z3_.Real("t") / 10).fact.refuted


def test_a_fractional_float_where_z3_needs_an_integer_is_refused():
    with pytest.raises(InvalidArgument, match="truncate"):
        api.valid(lambda z3_: z3_.Function("g", z3_.IntSort(), z3_.RealSort())(2.5) == 0)


def test_the_domain_names_odd_and_prime():
    o = sympy.Symbol("o", odd=True)
    q = sympy.Symbol("q", prime=True)
    assert "o ∈ ℤ (odd)" in api.nonzero(o).fact.domain
    assert "q ∈ ℕ₊ (prime)" in api.positive(q - 1 + 1).fact.domain


def test_a_bound_variables_own_assumptions_are_shown_beside_the_explicit_set():
    """∀ p ∈ [−1, 1]: p² ≤ p is false (p = −1); for a positive p it is decided on (0, 1]."""
    p = sympy.Symbol("p", positive=True)
    fact = api.valid(ForAll((p,), p**2 <= p, sympy.Interval(-1, 1))).fact
    assert fact.proved
    assert "p ∈ [-1, 1] ∩ (0, ∞)" in sympy.sstr(fact.formula)
    assert r"\cap" in sympy.latex(fact.formula)


def test_a_division_in_a_branch_not_taken_claims_nothing():
    """At x = 0 the first branch is taken: −1 < 0, so the claim is false there."""
    claim = sympy.Ge(sympy.Piecewise((-1, sympy.Eq(x, 0)), (1 / x**2, True)), 0)
    fact = api.valid(claim).fact
    assert fact.refuted and dict(fact.verdict.witness) == {"x": "0"}
    assert not any("x ≠ 0" in d for d in fact.domain)


def test_a_division_in_a_branch_taken_is_still_claimed_there():
    claim = sympy.Eq(
        sympy.Piecewise((0, x > 1), (1 / x, True)) * x, sympy.Piecewise((0, x > 1), (1, True))
    )
    fact = api.valid(claim).fact
    assert fact.proved and any(d.startswith("x ≠ 0 where") for d in fact.domain)
