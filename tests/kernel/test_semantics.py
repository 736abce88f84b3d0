"""One meaning per formula across the kernel (issues 23 and 24): numbers are exact, a formula
with a denominator is claimed where it is defined (SymPy and Z3 alike), a witness is a point of
the formula's variables, a negation is formed on the quantified formula, and the kernel reads
only SymPy's own classes."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    ForAll,
    check_equal,
    check_identity,
    check_nonzero,
    check_valid,
    check_valid_formula,
    counterexample,
    negate,
)

x, y, a = sympy.symbols("x y a", real=True)


# --- negate: on the quantified formula ----------------------------------------------------------


def test_a_refuted_identity_negates_to_not_forall():
    fact = negate(check_equal(2 * a, a + 1))
    assert fact.proved
    assert fact.formula == sympy.Not(
        ForAll((a,), sympy.Eq(2 * a, a + 1, evaluate=False)), evaluate=False
    )
    assert not fact.formula.free_symbols  # "¬(2a = a + 1)" for all a would be false at a = 1


def test_a_proved_identity_negates_to_a_refuted_not_forall():
    fact = negate(check_equal((a + 1) ** 2, a**2 + 2 * a + 1))
    assert fact.refuted and isinstance(fact.formula.args[0], ForAll)


def test_a_negation_over_an_uninterpreted_function_is_not_proved():
    sigma = sympy.Function("sigma", real=True)
    refuted = check_valid_formula(sympy.Eq(sigma(x), sigma(y)))
    assert refuted.refuted
    assert negate(refuted).status == "unknown"


# --- counterexample: exactly the formula's variables ----------------------------------------------


def test_a_witness_with_an_extra_key_is_refused():
    with pytest.raises(ValueError, match="not its variables"):
        counterexample(a * y, 0, {a: 1, y: 2, x: 3})


def test_a_witness_assigns_every_variable_of_the_claim():
    fact = counterexample(a * y, 0, {a: 1}, (a,))  # y = 1 is filled in: a·y = 1 ≠ 0
    assert fact.refuted and dict(fact.verdict.witness) == {"a": "1", "y": "1"}
    assert fact.formula.variables == (a, y)
    assert counterexample(a * y, 0, {a: 0}).status == "unknown"  # y = 1 gives 0


def test_an_indexed_entry_is_no_variable():
    i, j = sympy.symbols("i j", integer=True)
    xb = sympy.IndexedBase("x")
    with pytest.raises(ValueError, match="genuine symbols"):
        counterexample(
            sympy.KroneckerDelta(i, j) * (xb[i] - xb[j]), 0, {i: 1, j: 1, xb[i]: 1, xb[j]: 2}
        )


def test_a_witness_at_a_pole_refutes_nothing():
    fact = counterexample((x**2 - 1) / (x - 1), x + 1 + 1, {x: 1})
    assert fact.status == "unknown"


# --- one semantics for division -----------------------------------------------------------------


def test_a_cancelled_singularity_leaves_the_domain():
    fact = check_identity((x**2 - x) / (x - 1), x, x)
    assert fact.proved
    assert fact.formula.domain == sympy.Complement(
        sympy.S.Reals, sympy.FiniteSet(1), evaluate=False
    )
    assert "ℝ ∖ {1}" in sympy.sstr(fact.formula)


def test_equal_shows_the_denominator_it_needs():
    fact = check_equal((x**2 - 1) / (x - 1), x + 1)
    assert fact.proved and "x - 1 ≠ 0" in fact.domain


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        ((x**2 - 1) / (x - 1), x + 1),
        (sympy.Mul(x, sympy.Pow(x, -1, evaluate=False), evaluate=False), sympy.Integer(1)),
        ((x**2 - x) / (x - 1), x),
        (1 / x + 1 / y, (x + y) / (x * y)),
        ((x**2 - 1) / (x - 1), x - 1),
        (1 / x, sympy.Integer(0)),
    ],
)
def test_sympy_and_z3_never_disagree(lhs, rhs):
    by_sympy = check_equal(lhs, rhs)
    by_z3 = check_valid_formula(sympy.Eq(lhs, rhs, evaluate=False))
    assert {by_sympy.status, by_z3.status} != {"proved", "refuted"}


@settings(max_examples=25, deadline=None)
@given(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3), st.booleans())
def test_property_cancelled_factors_agree(r, c0, c1, true_identity):
    """(x − r)(c1 x + c0)/(x − r) = c1 x + c0 (+1 when false): SymPy and Z3 agree."""
    num = sympy.expand((x - r) * (c1 * x + c0))
    rhs = c1 * x + c0 + (0 if true_identity else 1)
    lhs = sympy.Mul(num, sympy.Pow(x - r, -1), evaluate=False)
    by_sympy = check_equal(lhs, rhs)
    by_z3 = check_valid_formula(sympy.Eq(lhs, rhs, evaluate=False))
    assert {by_sympy.status, by_z3.status} != {"proved", "refuted"}
    wanted = "proved" if true_identity else "refuted"
    assert by_z3.status == wanted


# --- Z3: what the symbols mean ------------------------------------------------------------------


def test_assumptions_are_hypotheses():
    p = sympy.Symbol("p", positive=True)
    n = sympy.Symbol("n", integer=True)
    assert check_valid_formula(p**3 - p**2 + p > 0).proved
    assert check_valid_formula(n**2 >= n).proved
    assert check_valid_formula(x**2 >= x).refuted


def test_symbols_are_identified_by_identity_not_name():
    """Two symbols named x are two variables; shown alike (``x = x``), no verdict is given."""
    twins = check_valid_formula(sympy.Eq(sympy.Symbol("x", positive=True), x))
    assert twins.undecided and "print alike" in twins.reason
    assert check_valid_formula(sympy.Eq(sympy.Dummy("x"), x)).refuted  # shown _x = x


def test_boolean_symbols_are_booleans():
    P = sympy.Symbol("P")
    assert check_valid_formula(sympy.Or(P, sympy.Not(P))).proved


def test_unsupported_assumptions_are_refused():
    r = sympy.Symbol("r", rational=True)
    with pytest.raises(InvalidArgument, match="no Z3 translation"):
        check_valid_formula(sympy.Ne(r**2, 2))


def test_the_formula_shown_keeps_the_integer_sort():
    fact = check_valid(lambda z3: z3.Int("n") * 2 != 1)
    assert fact.proved
    (n,) = fact.formula.free_symbols
    assert n.is_integer


def test_integer_division_is_refused():
    with pytest.raises(InvalidArgument, match="div"):
        check_valid(lambda z3: z3.Int("n") / 2 == 0)


# --- numbers are exact; only SymPy's own classes ------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
)
def test_property_floats_are_their_binary_values(u, v):
    fact = check_equal(sympy.Float(u), sympy.Float(v))
    truth = Fraction(u) == Fraction(v)
    assert fact.status == ("proved" if truth else "refuted")


def test_sympy_float_minus_rational_is_not_rounded():
    assert check_equal(sympy.Float("0.1"), sympy.Rational(1, 10)).refuted
    assert check_nonzero(
        sympy.Add(sympy.Float("0.1"), -sympy.Rational(1, 10), evaluate=False)
    ).proved


class _Liar(sympy.Expr):
    is_commutative = True

    def _eval_simplify(self, **kw):
        return sympy.Integer(0)


def test_a_user_subclass_is_refused_by_name():
    with pytest.raises(InvalidArgument, match="_Liar"):
        check_equal(_Liar(), 0)


def test_a_function_with_methods_of_its_own_is_refused():
    liar = sympy.Function("g", _eval_is_positive=lambda self: True)
    with pytest.raises(InvalidArgument, match="not one of SymPy's own classes"):
        check_equal(liar(x), 0)


def test_a_huge_power_gives_unknown_not_a_hang():
    lhs = sympy.Pow(3, 10**8, evaluate=False)
    rhs = sympy.Pow(9, 5 * 10**7, evaluate=False)
    assert check_equal(lhs, rhs).status == "unknown"
