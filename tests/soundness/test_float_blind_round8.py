"""Float-blind closed numbers through every entry point but ``equal``/``check_sign`` (round 8).

``c = log(cos 10⁻⁶⁰) ≈ −5·10⁻¹²¹`` is 0.0 as a float and SymPy calls it positive; SymPy takes
every branch, root and sign assumption of it by that float as it builds or rewrites a formula.
Round 7 fixed ``check_equal``, ``check_sign`` and ``at``; here the other doors: the rules'
membership test (``inst`` put ``y + c`` for a positive variable), ``define``, ``check_zero_on``'s
piecewise split, closed formulas with bound variables (an ``Integral``, a ``Sum``, a ``Limit``:
no free symbol, so the float-blind path was skipped), closed ``floor``/roots, the sum normal
form (``python -m proofs.symmetry --activation 'abs(x*log(cos(1e-60)))' --transform 'Q -> -Q,
V -> -V'`` was proved invariant; F(x; Tθ) = −F(x; θ)) and the re-check's spot checks (every
true claim holding such a number DISAGREED, false ones were spot-checked).

Truth by hand: log cos t ≈ −t²/2 < 0 and −log cosh t ≈ −t²/2 < 0 for small t ≠ 0; confirmed by
mpmath at 300 digits in the first test.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic import equal
from symbolic.evidence.spot_checks import spot_check
from symbolic.kernel import (
    RuleError,
    check_sign,
    check_sum_equal,
    check_zero_on,
    define,
    inst,
)

R = sympy.Rational
x = sympy.Symbol("x", real=True)
z = sympy.Symbol("z", real=True)
y = sympy.Symbol("y", positive=True)
u = sympy.Symbol("u", positive=True)
k = sympy.Symbol("k", integer=True)
n = sympy.Symbol("n", integer=True, positive=True)
L = sympy.log(sympy.cos(R(1, 10**60)))  # < 0, "positive" to SymPy
P = -sympy.log(sympy.cosh(R(1, 10**60)))  # < 0


def Max(*a):
    return sympy.Max(*a, evaluate=False)


def Abs(a):
    return sympy.Abs(a, evaluate=False)


def Eq(a, b):
    return sympy.Eq(a, b, evaluate=False)


def test_the_constant_is_negative_and_sympy_says_positive():
    with mpmath.workdps(300):
        value = mpmath.log(mpmath.cos(mpmath.mpf(10) ** -60))
        assert value < 0 and mpmath.mpf(10) ** -200 + value < 0  # y + L < 0 at y = 1e-200
    assert L.is_positive and (y + L).is_positive  # what the kernel must not use


def test_inst_never_puts_a_number_of_the_wrong_sign_in_place():
    """∀u > 0: u > 0 at u := y + L gave the fact y + L > 0 for all y > 0 (false at 10⁻²⁰⁰)."""
    fact = check_sign(u, "positive")
    with pytest.raises(RuleError):
        inst(fact, {u: y + L})
    with pytest.raises(RuleError):
        inst(check_sign(u, "nonnegative"), {u: x**2 + L})
    assert inst(fact, {u: y - L}).proved  # −L > 0: this one lies in the set


def test_a_definition_value_is_judged_with_the_constants_certified_sign():
    with pytest.raises(ValueError):
        define(sympy.Symbol("c", positive=True), y + L)
    define(sympy.Symbol("d", negative=True), -y + L)  # −y + L < 0: accepted (was refused)


def test_check_zero_on_never_splits_by_the_float():
    """Max(z, z + L) − z − L (= −L > 0 everywhere) was proved 0 on ℝ."""
    assert not check_zero_on(Max(z, z + L) - z - L, z, sympy.S.Reals).proved
    assert check_zero_on(Max(z, z + L) - z, z, sympy.S.Reals).proved


@pytest.mark.parametrize(
    ("lhs", "rhs", "truth"),
    [
        (sympy.Integral(Max(x, x + L), (x, 0, 1)), R(1, 2), True),
        (sympy.Integral(Max(x, x + L), (x, 0, 1)), R(1, 2) + L, False),
        (sympy.Sum(Abs(L) * k, (k, 1, 3)), 6 * L, False),
        (sympy.Sum(Abs(L) * k, (k, 1, 3)), -6 * L, True),
        (sympy.Limit(Max(x, x + L), x, 0), 0, True),
        (sympy.Limit(Max(x, x + L), x, 0), L, False),
        (sympy.floor(L, evaluate=False), -1, True),
        (sympy.floor(L, evaluate=False), 0, False),
        (sympy.ceiling(L, evaluate=False), 0, True),
        (sympy.Pow(L**2, R(1, 2), evaluate=False), -L, True),
    ],
)
def test_a_closed_formula_never_takes_a_branch_by_the_float(lhs, rhs, truth):
    """No free symbol, so round 7's path was skipped and SymPy's rewrite decided."""
    fact = equal(lhs, rhs).fact
    assert not (fact.refuted if truth else fact.proved), fact.verdict.reason


def test_the_sum_normal_form_keeps_the_sign_of_a_closed_factor():
    """|L·a_k| summed is −L·Σ|a_k|, not L·Σ|a_k|: the symmetry engine's general-n step, by
    which ``--activation 'abs(x*log(cos(1e-60)))' --transform 'Q -> -Q, V -> -V'`` was proved
    invariant (now undecided)."""
    a = sympy.IndexedBase("a", real=True)
    lhs = sympy.Sum(Abs(L * a[k]), (k, 0, n - 1))
    assert not check_sum_equal(lhs, L * sympy.Sum(sympy.Abs(a[k]), (k, 0, n - 1))).proved
    assert check_sum_equal(lhs, -L * sympy.Sum(sympy.Abs(a[k]), (k, 0, n - 1))).proved


@pytest.mark.parametrize(
    ("formula", "truth"),
    [
        (Eq(Max(x, x + L), x), True),
        (Eq(Max(x, x + L), x + L), False),
        (Eq(sympy.sign(L, evaluate=False), -1), True),
        (Eq(sympy.sign(L, evaluate=False), 1), False),
        (Eq(sympy.Pow(L**2, R(1, 2), evaluate=False), -L), True),
        (Eq(sympy.Sum(Max(0, L) * k, (k, 1, 3)), 6 * L), False),
        (Eq(Abs(L * x), -L * sympy.Abs(x)), True),
    ],
)
def test_the_recheck_spot_check_decides_branches_by_enclosures(formula, truth):
    """A true exported formula DISAGREED (SymPy took Max(1, 1 + L) = 1 + L at the point); a
    false one was spot-checked."""
    outcome, _ = spot_check(formula)
    assert outcome != ("DISAGREES" if truth else "spot-checked")


@settings(max_examples=6, deadline=None)
@given(st.integers(12, 150), st.sampled_from(["cos", "cosh"]))
@example(60, "cos")
def test_a_tiny_negative_constant_never_enters_a_positive_variable(e, head):
    """c = log(cos 10⁻ᵉ) or −log(cosh 10⁻ᵉ), both < 0: y + c is not in (0, ∞), and
    Max(z, z + c) − z − c (= −c) is never proved 0."""
    t = R(1, 10**e)
    c = sympy.log(sympy.cos(t)) if head == "cos" else -sympy.log(sympy.cosh(t))
    with pytest.raises(RuleError):
        inst(check_sign(u, "positive"), {u: y + c})
    assert not check_zero_on(Max(z, z + c) - z - c, z, sympy.S.Reals).proved
