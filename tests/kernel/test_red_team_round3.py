"""The kernel red-team round 3 of session 11: each test a class of unsound step found by chaining
public kernel calls, now refused or undecided (truth by hand and mpmath). Each fails on the
kernel before the fix."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import api
from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    ForAll,
    RuleError,
    check_equal,
    check_homogeneous,
    check_identity,
    check_matrix_expr_equal,
    check_sign,
    check_sum_equal,
    counterexample,
    inst,
    mp,
)

x = sympy.Symbol("x", real=True)


def test_a_condition_carried_by_mp_blocks_inst_at_the_point_it_excludes():
    """mp keeps 'x ≠ 0' only in the shown domain: inst at 0 would prove Ne(0, 0)."""
    cancelled = sympy.Eq((x**2 + x) / x, x + 1)
    implication = api.valid(sympy.Implies(cancelled, sympy.Ne(x, 0))).fact
    concluded = mp(implication, check_equal((x**2 + x) / x, x + 1))
    with pytest.raises(RuleError, match="holds under"):
        inst(concluded, {x: sympy.Integer(0)})


def test_the_case_split_does_not_capture_a_users_t():
    """x³ = x·t² is false (x = 1, t = 2); the cases x = t, −t once captured the user's t."""
    t = sympy.Symbol("t", positive=True)
    assert not check_identity(x**3, x * t**2, x).proved


def test_homogeneity_is_of_a_function_of_its_variable_alone():
    z, t = sympy.Symbol("z", real=True), sympy.Symbol("t", positive=True)
    with pytest.raises(ValueError, match="alone"):
        check_homogeneous(z + z * (z**2 - t**2) * (z**2 - 1), z, 1)


def test_a_hint_with_a_denominator_does_not_stand_for_sigma():
    """σ = z except σ(1) = 5 is not homogeneous; its hint (z² − z)/(z − 1) equals it only
    where z ≠ 1."""
    z = sympy.Symbol("z", real=True)
    sigma = sympy.Piecewise((z, sympy.Ne(z, 1)), (5, True))
    hint = (z**2 - z) / (z - 1)
    given_ = api.valid(ForAll((z,), sympy.Eq(sigma, hint))).fact
    assert not check_homogeneous(sigma, z, 1, hint=hint, given=given_).proved
    assert not check_homogeneous(sigma, z, 1, hint=hint).proved


def test_a_formula_defined_nowhere_is_not_refuted():
    d = (x + 1) ** 2 - x**2 - 2 * x - 1  # 0 for every x
    assert check_equal(1 / d + 1, 1 / d).status == "unknown"
    assert check_equal(1 / (x - 1) + 1, 1 / (x - 1)).refuted  # defined at x = 0: refuted


def test_signs_of_numbers_are_certified_not_sympys_guess():
    """c = log(e⁻¹⁰⁰ + 1) − log(e⁻⁹⁹ + 1) ≈ −6.39e−44 (mpmath, 200 digits)."""
    c = sympy.log(sympy.exp(-100) + 1) - sympy.log(sympy.exp(-99) + 1)
    assert check_sign(c, "negative").proved
    assert check_sign(c, "nonnegative").refuted
    assert check_sign(-c, "nonnegative").proved
    y = sympy.Symbol("y", nonnegative=True)
    with pytest.raises(RuleError):
        inst(check_sign(y, "nonnegative"), {y: c})  # c is not a value of y


def test_sums_keep_their_indices_bound_and_their_values():
    i, j = sympy.symbols("i j", integer=True)
    captured = sympy.Sum((i + j) ** 2, (i, 1, 3), (j, i, i))
    assert not check_sum_equal(captured, 56).proved
    r = sympy.Symbol("r", real=True)
    half = sympy.Sum(sympy.Pow(-1, 2 * r), (r, sympy.Rational(1, 2), sympy.Rational(5, 2)))
    assert not check_sum_equal(half, 3).proved  # its value is −3 (SymPy's doit; by hand)
    assert check_sum_equal(sympy.Sum(i, (i, 1, 3), (i, 2, 2)), 6).status == "unknown"


def test_matrix_powers_with_a_symbolic_exponent_are_not_decided():
    n, k = sympy.symbols("n k", integer=True, positive=True)
    Z = sympy.ZeroMatrix(n, n)
    assert check_matrix_expr_equal(sympy.MatPow(Z, k), Z).status == "unknown"
    C = sympy.MatrixSymbol("C", sympy.Symbol("m", integer=True, positive=True), n)
    D = sympy.MatrixSymbol("D", n, sympy.Symbol("m", integer=True, positive=True))
    assert not check_matrix_expr_equal((C * D).I, D.I * C.I).refuted  # D⁻¹ undefined there


def test_numbers_too_long_to_print_are_refused_with_a_clear_error():
    with pytest.raises(InvalidArgument, match="bits"):
        counterexample(sympy.Integer(10) ** 5000 * x, x, {x: sympy.Integer(1)})


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4))
def test_the_half_line_point_never_captures(a):
    """With the user's own positive t: ∀x: x^a = x·t^(a−1) holds (for every t) only at a = 1;
    x^a·t = t·x^a always."""
    t = sympy.Symbol("t", positive=True)
    assert check_identity(x**a, x * t ** (a - 1), x).proved == (a == 1)
    assert check_identity(x**a * t, t * x**a, x).proved


def test_cong_in_sums_takes_no_fixed_name_for_an_index():
    """From k := 1 (or the assumption k = 1), Σ_{k=1..3} k = Σ_{k=1..3} 1 would follow: 6 = 3."""
    from symbolic.kernel import assume, cong_in_sums, define, unfold

    k, h = sympy.Symbol("k", integer=True), sympy.Symbol("h")
    context = sympy.Lambda(h, sympy.Sum(h, (k, 1, 3)))
    for premise in (
        unfold(define(k, sympy.Integer(1)), k),
        assume("k is one", sympy.Eq(k, 1, evaluate=False)),
    ):
        with pytest.raises(RuleError, match="fixed there"):
            cong_in_sums(premise, context)
