"""API red-team round 11: users' claims decided by Z3 (``valid``), the translation SymPy ⇄ Z3
and the reading of Z3's answers back.

Each truth here is established independently of the tool: by hand (the roots of x² − 2 are
±√2, of x³ − x − 1 one real root), by exact integer arithmetic (a discriminant that is positive
and not a square), or by Python's exact conversion of a binary float (``Fraction(float)``).

Defects found in this round, each fixed at its root:

* a refutation's witness was Z3's truncated decimal for an algebraic value
  (``x = -1.4142135623?`` for ``x² ≠ 2``): no exact point, and 1.4142135623 does not refute
  the formula. Now an exact value (``-sqrt(2)``, ``CRootOf(t**3 - t - 1, 0)``) whose root index
  is checked by Sturm counts, and the counter-model is checked (the negated goal evaluated in
  it) before a ``sat`` is called a refutation;
* a counter-model holding the floor of an algebraic number gave ``y = ToReal(ToInt(93733.6…?))``
  as its witness (Z3's evaluator leaves that term as it is): the floor is now computed exactly;
* a free symbol Z3 left out of its model was missing from the witness
  (``x < 0 ∨ (P ∧ ¬P)`` gave ``x = 0`` only);
* inside ``valid(lambda z3: ...)``, ``RealVal`` of a SymPy ``Float``, an ``mpmath.mpf`` or a
  NumPy ``float32``/``float16`` was read from its rounded text: ``RealVal(np.float32(0.1)) * 10
  = 1`` was proved (the number is 13421773/134217728);
* a hand-built ``z3.Var`` bound by no quantifier raised ``IndexError``, and a Z3 numeral of more
  than 4300 digits ``ValueError`` (Python's ``int`` limit): tracebacks, now refusals;
* a formula whose denominators vanish everywhere, when Z3 could not show that in time, was
  proved vacuously (1/d² > 0 for d = ⌊n(n+1)/2⌋ − n(n+1)/2): now unknown;
* a quantifier binding one variable twice (``∀ x ∈ [0, 1], x ∈ [5, 6]: x > 0``) was proved,
  though its text reads false at x = 0: now refused;
* ``Equivalent`` of three statements, a quantifier over ``EmptySet`` or over ``[0, 1] ∖ ℝ`` were
  refused (the last with Z3's own message about ``None``) although they translate exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import api
from symbolic.errors import InvalidArgument
from symbolic.kernel import Exists, ForAll
from symbolic.limits import limits

x, y = sympy.symbols("x y", real=True)
t = sympy.Symbol("t")
P = sympy.Symbol("P")


def _fact(formula):
    return api.valid(formula).fact


def _witness_value(text: str) -> sympy.Expr:
    """The tool's witness text read back for the test (names: ``sqrt``, ``CRootOf``, ``t``)."""
    assert "?" not in text and "." not in text, text
    return sympy.parse_expr(
        text, local_dict={"sqrt": sympy.sqrt, "CRootOf": sympy.CRootOf, "t": t}, evaluate=True
    )


# -- the witness of an algebraic counter-model is exact


def test_sqrt2_witness_is_exact():
    fact = _fact(sympy.Ne(x**2, 2))  # false at x = ±√2 (by hand)
    assert fact.status == "refuted"
    assert dict(fact.verdict.witness)["x"] in ("sqrt(2)", "-sqrt(2)")


def test_cubic_witness_is_its_real_root():
    fact = _fact(sympy.Ne(x**3 - x - 1, 0))  # one real root, ≈ 1.3247 (discriminant −23 < 0)
    assert fact.status == "refuted"
    assert dict(fact.verdict.witness)["x"] == "CRootOf(t**3 - t - 1, 0)"


def test_witness_of_two_algebraic_values():
    fact = _fact(sympy.Or(sympy.Ne(x**2, 2), sympy.Ne(y**2 - y, 1)))
    assert fact.status == "refuted"
    w = dict(fact.verdict.witness)
    assert w["x"] in ("sqrt(2)", "-sqrt(2)")
    assert w["y"] in ("1/2 - sqrt(5)/2", "-sqrt(5)/2 + 1/2", "1/2 + sqrt(5)/2", "sqrt(5)/2 + 1/2")


def _irrational(abc: tuple[int, int, int]) -> bool:
    a, b, c = abc
    d = b * b - 4 * a * c
    return d > 0 and math.isqrt(d) ** 2 != d


def _irrational_quadratics():
    coefficient = st.integers(-9, 9)
    return st.tuples(coefficient.filter(bool), coefficient, coefficient).filter(_irrational)


@settings(max_examples=15, deadline=None)
@given(_irrational_quadratics())
def test_quadratic_witness_is_an_exact_root(abc):
    """a·x² + b·x + c ≠ 0 with b² − 4ac > 0 not a square: false at two irrational roots; the
    witness must be one of them exactly (substituted and expanded, it gives 0)."""
    a, b, c = abc
    p = a * x**2 + b * x + c
    fact = _fact(sympy.Ne(p, 0))
    assert fact.status == "refuted"
    value = _witness_value(dict(fact.verdict.witness)["x"])
    assert sympy.expand(p.subs(x, value)) == 0


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 30).filter(lambda k: round(k ** (1 / 3)) ** 3 != k))
def test_cube_root_witness_is_exact(k):
    """x³ ≠ k for a non-cube k: false at the real cube root of k only."""
    fact = _fact(sympy.Ne(x**3, k))
    assert fact.status == "refuted"
    assert dict(fact.verdict.witness)["x"] == f"CRootOf(t**3 - {k}, 0)"


def test_witness_of_a_quartic_root():
    """x⁴ − 10x² + 1 = 0 ∧ x > 3 holds only at √2 + √3 ≈ 3.146, the largest of the four real
    roots ±√2 ± √3 (by hand), so its negation is refuted there."""
    fact = _fact(sympy.Not(sympy.And(sympy.Eq(x**4 - 10 * x**2 + 1, 0), x > 3)))
    assert fact.status == "refuted"
    assert dict(fact.verdict.witness)["x"] == "CRootOf(t**4 - 10*t**2 + 1, 3)"


def _icbrt(n: int) -> int:
    r = round(n ** (1 / 3))
    while r**3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 60).filter(lambda m: _icbrt(m) ** 3 != m), st.integers(1, 10**6))
def test_floor_of_an_algebraic_value_in_the_witness(m, k):
    """¬(x³ = m ∧ y = ⌊k·x⌋) is false at x = ∛m, y = ⌊k·∛m⌋, the integer cube root of k³·m
    (exact integer arithmetic). Z3's model gives y as ``ToReal(ToInt(…?))``, which its evaluator
    does not reduce: the floor is computed exactly, the counter-model checked with it."""
    fact = _fact(sympy.Not(sympy.And(sympy.Eq(x**3, m), sympy.Eq(sympy.floor(k * x), y))))
    assert fact.status == "refuted"
    w = dict(fact.verdict.witness)
    assert w["x"] == f"CRootOf(t**3 - {m}, 0)"
    assert w["y"] == str(_icbrt(k**3 * m))


# -- every free symbol is in the witness, and the counter-model is checked


def test_witness_names_every_free_symbol():
    fact = _fact(sympy.Or(x < 0, sympy.And(P, sympy.Not(P))))
    assert fact.status == "refuted"
    w = dict(fact.verdict.witness)
    assert set(w) == {"x", "P"} and Fraction(w["x"]) >= 0


def test_a_model_that_does_not_refute_is_not_a_refutation(monkeypatch):
    """Z3's ``sat`` is reported as a refutation only when its model, evaluated in the negated
    goal, makes it true. Here Z3 is made to answer ``sat`` with an empty model for x < 1, true
    at x = 0 (the value the empty model completes to): unknown, not refuted."""
    check, model = z3.Solver.check, z3.Solver.model

    def empty_model(self):
        solver = z3.Solver()
        check(solver)
        return model(solver)

    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.sat)
    monkeypatch.setattr(z3.Solver, "model", empty_model)
    assert _fact(x < 1).status == "unknown"


# -- numbers inside valid(lambda z3: ...) are their exact values


@pytest.mark.parametrize(
    "number",
    [sympy.Float(0.1), mpmath.mpf(0.1), np.float32(0.1), np.float16(0.1), np.longdouble(0.1)],
    ids=["sympy.Float", "mpmath.mpf", "float32", "float16", "longdouble"],
)
def test_binary_numbers_in_z3_are_exact(number):
    """None of these numbers is 1/10 (each is a binary fraction), so 10·v = 1 is false; each
    is exactly the fraction Python's ``Fraction`` gives its float (every one converts exactly)."""
    exact = Fraction(float(number))
    assert exact != Fraction(1, 10)
    assert api.valid(lambda z3: z3.RealVal(number) * 10 == 1).fact.status == "refuted"
    same = api.valid(lambda z3: z3.RealVal(number) == z3.Q(exact.numerator, exact.denominator))
    assert same.fact.status == "proved"


@settings(max_examples=25, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, width=32))
def test_float32_numeral_is_its_exact_value(f):
    exact = Fraction(float(np.float32(f)))  # float32 → float64 is exact
    fact = api.valid(
        lambda z3: z3.RealVal(np.float32(f)) == z3.RealVal(f"{exact.numerator}/{exact.denominator}")
    ).fact
    assert fact.status == "proved"


def test_numbers_without_an_exact_numeral_are_refused():
    with pytest.raises(InvalidArgument):
        api.valid(lambda z3: z3.RealVal(sympy.pi) > 3)
    with pytest.raises(InvalidArgument):
        api.valid(lambda z3: z3.IntVal(np.float32(2.5)) == 2)
    assert api.valid(lambda z3: z3.IntVal(np.int64(7)) == 7).fact.status == "proved"
    assert api.valid(lambda z3: z3.RealVal("0.1") * 10 == 1).fact.status == "proved"


# -- Z3 terms that bind nothing, and formulas that translate exactly


def test_unbound_de_bruijn_variable_is_refused():
    with pytest.raises(InvalidArgument, match="bound by no quantifier"):
        api.valid(lambda z3: z3.Var(0, z3.RealSort()) > 0)

    def shadow(z3):
        r = z3.Real("r")
        return z3.ForAll([r], z3.Exists([r], z3.Var(1, z3.RealSort()) > r))

    with pytest.raises(InvalidArgument, match="bound by no quantifier"):
        api.valid(shadow)


def test_equivalent_of_three_statements():
    z_ = sympy.Symbol("z", real=True)
    all_equal = sympy.Equivalent(x > 0, y > 0, z_ > 0)
    assert _fact(all_equal).status == "refuted"  # x = 1, y = z = −1
    assert _fact(sympy.Implies(sympy.And(all_equal, x > 0), z_ > 0)).status == "proved"


def test_a_variable_bound_twice_is_refused():
    """∀ x ∈ [0, 1], x ∈ [5, 6]: x > 0 was proved (Z3 read the body's x as the second one),
    while the text reads false at x = 0 of the first set: which x is meant is not said."""
    twice = ForAll((x, x), x > 0, sympy.Tuple(sympy.Interval(0, 1), sympy.Interval(5, 6)))
    with pytest.raises(InvalidArgument, match="binds a variable twice"):
        api.valid(twice)


def test_empty_domains():
    assert _fact(ForAll((x,), x > 5, sympy.S.EmptySet)).status == "proved"
    assert _fact(Exists((x,), x > 5, sympy.S.EmptySet)).status == "refuted"
    nothing = sympy.Complement(sympy.Interval(0, 1), sympy.S.Reals, evaluate=False)
    assert _fact(Exists((x,), x > -1, nothing)).status == "refuted"
    assert _fact(ForAll((x,), x > 5, nothing)).status == "proved"


def test_numerals_past_pythons_digit_limit():
    """A Z3 numeral of 5001 digits: Python's ``int`` refuses to read more than 4300 digits, so
    reading it raised ``ValueError`` (a traceback); it is past the kernel's number limit anyway."""
    with pytest.raises(InvalidArgument, match="too many digits"):
        api.valid(lambda z3: z3.RealVal("1" + "0" * 5000) > 0)
    with pytest.raises(InvalidArgument, match="too many digits"):
        api.valid(lambda z3: z3.IntVal("1" + "0" * 5000) > 0)


def test_witness_past_pythons_digit_limit():
    """¬(y = x² ∧ x > 10³⁰⁰⁰) is false at any x > 10³⁰⁰⁰: the witness's y has over 6000 digits,
    written exactly (Z3's own text, not Python's ``int``, which stops at 4300 digits)."""
    big = sympy.Integer(10) ** 3000
    fact = _fact(sympy.Not(sympy.And(sympy.Eq(y, x**2), x > big)))
    assert fact.status == "refuted"
    w = dict(fact.verdict.witness)
    assert len(w["x"]) == 3001 and w["x"].isdigit() and w["x"] > "1" + "0" * 3000
    assert len(w["y"]) in (6001, 6002) and w["y"].isdigit()


def test_a_formula_not_known_to_be_defined_anywhere_is_not_proved():
    """d = ⌊n(n+1)/2⌋ − n(n+1)/2 is 0 for every integer n (n(n+1) is even), so 1/d² > 0 is
    defined nowhere. Z3 does not show that in the time given; the claim was then proved
    vacuously (the hypothesis d ≠ 0 is never met). It is unknown now, or refused when Z3 does
    decide that d vanishes everywhere."""
    n = sympy.Symbol("n", integer=True)
    d = sympy.floor(n * (n + 1) / 2) - n * (n + 1) / 2
    with limits(z3_timeout_ms=300):
        try:
            status = _fact(sympy.Gt(1 / d**2, 0)).status
        except InvalidArgument as exc:
            assert "defined nowhere" in str(exc)
            status = "refused"
    assert status in ("unknown", "refused")


# -- a property: Z3's verdict agrees with exact evaluation at points

_n = sympy.Symbol("n", integer=True)
_RELATIONS = (sympy.Eq, sympy.Ne, sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)


class _Undefined(Exception):
    pass


def _value(e, point):
    """``e`` at ``point``, exactly (Fractions); a Piecewise evaluates only the branch taken."""
    if e in point:
        return point[e]
    if isinstance(e, sympy.Rational):
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, (sympy.Add, sympy.Mul)):
        parts = [_value(a, point) for a in e.args]
        return sum(parts, Fraction(0)) if isinstance(e, sympy.Add) else math.prod(parts)
    if isinstance(e, sympy.Pow):
        base, k = _value(e.base, point), int(e.exp)
        if k < 0 and base == 0:
            raise _Undefined
        return base**k
    if isinstance(e, sympy.floor):
        return Fraction(math.floor(_value(e.args[0], point)))
    if isinstance(e, sympy.Piecewise):
        return next(_value(v, point) for v, c in e.args if _holds(c, point))
    raise NotImplementedError(type(e))


def _holds(f, point):
    """``f`` at ``point``; every denominator outside a Piecewise branch is evaluated (the claim
    is made where all of them are nonzero), so connectives do not short-circuit."""
    if f in (sympy.true, sympy.false):
        return bool(f)
    if type(f) in _RELATIONS:
        a, b = _value(f.lhs, point), _value(f.rhs, point)
        return {
            sympy.Eq: a == b,
            sympy.Ne: a != b,
            sympy.Lt: a < b,
            sympy.Le: a <= b,
            sympy.Gt: a > b,
            sympy.Ge: a >= b,
        }[type(f)]
    parts = [_holds(a, point) for a in f.args]
    if isinstance(f, sympy.And):
        return all(parts)
    if isinstance(f, sympy.Or):
        return any(parts)
    if isinstance(f, sympy.Not):
        return not parts[0]
    if isinstance(f, sympy.Implies):
        return not parts[0] or parts[1]
    raise NotImplementedError(type(f))


_atoms = st.sampled_from([x, _n, sympy.Integer(0), sympy.Integer(1), sympy.Integer(-2)])
_atoms |= st.sampled_from([sympy.Rational(1, 2), sympy.Rational(-3, 2)])
_terms = st.recursive(
    _atoms,
    lambda e: st.one_of(
        st.tuples(e, e).map(lambda p: p[0] + p[1]),
        st.tuples(e, e).map(lambda p: p[0] * p[1]),
        e.map(sympy.floor),
        e.map(lambda a: 1 / (a - sympy.Rational(1, 3))),
        st.tuples(e, e, e).map(lambda p: sympy.Piecewise((p[0], p[2] > 0), (p[1], True))),
    ),
    max_leaves=5,
)
_claims = st.recursive(
    st.tuples(st.sampled_from(_RELATIONS), _terms, _terms).map(lambda r: r[0](r[1], r[2])),
    lambda f: st.one_of(
        st.tuples(f, f).map(lambda p: sympy.And(*p)),
        st.tuples(f, f).map(lambda p: sympy.Or(*p)),
        st.tuples(f, f).map(lambda p: sympy.Implies(*p)),
        f.map(sympy.Not),
    ),
    max_leaves=3,
)
_POINTS = [
    {x: Fraction(a, b), _n: Fraction(k)}
    for a in (-7, -2, 0, 1, 3, 5)
    for b in (1, 3)
    for k in (-2, 0, 1, 3)
]


@settings(max_examples=30, deadline=None)
@given(_claims)
def test_verdicts_agree_with_exact_evaluation(claim):
    """Proved: true at every sampled point where it is defined. Refuted with a rational witness:
    false (and defined) there. Mixed integer/real terms, floor, Piecewise, division."""
    if claim in (sympy.true, sympy.false) or not isinstance(claim, sympy.logic.boolalg.Boolean):
        return
    try:
        with limits(z3_timeout_ms=500):
            fact = _fact(claim)
    except InvalidArgument:
        return  # refused (a formula defined nowhere, ...): no verdict
    if fact.status == "proved":
        for point in _POINTS:
            try:
                assert _holds(claim, point), (claim, point)
            except _Undefined:
                pass
    elif fact.status == "refuted":
        w = dict(fact.verdict.witness)
        free = {str(s): s for s in claim.free_symbols}
        assert set(w) == set(free)
        if all("t" not in v for v in w.values()):  # rational (not CRootOf/sqrt) values
            point = {free[k]: Fraction(v) for k, v in w.items()}
            assert not _holds(claim, point), (claim, w)


def test_high_degree_polynomials_in_two_variables_are_not_handed_to_z3():
    """x⁶⁴ = 3x + 1 ∧ y⁶⁰ − xy = 2 never returned from Z3 (its nonlinear arithmetic ignores
    the timeout and interrupt there): unknown, without a solver run; one variable of high
    degree, or two of low degree, are still decided."""
    from symbolic.kernel import check_valid_formula

    x, y = sympy.symbols("x y", real=True)
    hard = sympy.Not(
        sympy.And(sympy.Eq(x**64, 3 * x + 1), sympy.Eq(y**60 - x * y, 2), x > 1, y > 1)
    )
    fact = check_valid_formula(hard)
    assert fact.undecided and "not attempted" in fact.reason
    assert check_valid_formula(sympy.Ge(x**30 + 1, 0)).proved
    assert check_valid_formula(sympy.Ge(x**4 + y**4, 0)).proved
