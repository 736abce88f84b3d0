"""Closed numbers whose sign SymPy judges by a float (``symbolic/kernel/float_blind.py``).

``log(cos(10⁻⁶⁰)) ≈ −5·10⁻¹²¹`` is 0.0 as a float and SymPy calls it positive; built or
rewritten by SymPy, ``Max(x, x + c)`` became ``x + c``, ``|c·x|`` became ``c·|x|`` and
``(c²)^(1/2)`` became ``c`` — so the kernel proved false identities and refuted true ones. Truth
here is by hand: each constant's sign is that of its Taylor expansion (log cos t ≈ −t²/2,
log cosh t ≈ t²/2, log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹) ≈ e⁻¹⁰⁰ − e⁻⁹⁹ < 0), confirmed by mpmath.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from symbolic import equal, positive
from symbolic.kernel import at, tight_enclosure

R = sympy.Rational
x = sympy.Symbol("x", real=True)
L = sympy.log(sympy.cos(R(1, 10**60)))  # < 0
P = -sympy.log(sympy.cosh(R(1, 10**60)))  # < 0
S = sympy.log(1 + sympy.exp(-100)) - sympy.log(1 + sympy.exp(-99))  # < 0


def Max(*a):
    return sympy.Max(*a, evaluate=False)


def Abs(a):
    return sympy.Abs(a, evaluate=False)


def test_the_constants_are_negative_and_sympy_says_otherwise():
    with mpmath.workdps(400):
        assert mpmath.log(mpmath.cos(mpmath.mpf(10) ** -60)) < 0
        assert -mpmath.log(mpmath.cosh(mpmath.mpf(10) ** -60)) < 0
        assert mpmath.log(1 + mpmath.exp(-100)) - mpmath.log(1 + mpmath.exp(-99)) < 0
    assert L.is_positive  # SymPy's float-blind answer, which the kernel must not use


TRUE = [
    (Max(x**2, x**2 + L), x**2),
    (Max(x, x + L), x),
    (sympy.Min(x, x + L, evaluate=False), x + L),
    (Abs(x**2 * L), -(x**2) * L),
    (sympy.Pow(L**2 * x**2, R(1, 2), evaluate=False), -L * sympy.Abs(x)),
    (Max(x, x + P), x),
    (Max(x, x + S), x),
    (Abs(x * S), -S * sympy.Abs(x)),
    (sympy.Heaviside(S * x**2 + S, evaluate=False), 0),
]
FALSE = [
    (Max(x**2, x**2 + L), x**2 + L),
    (Max(x, x + L), x + L),
    (sympy.Min(x, x + L, evaluate=False), x),
    (Abs(x**2 * L), x**2 * L),
    (sympy.Pow(L**2 * x**2, R(1, 2), evaluate=False), L * sympy.Abs(x)),
    (Max(x, x + S), x + S),
    (Abs(x * S), S * sympy.Abs(x)),
]


@pytest.mark.parametrize(("lhs", "rhs"), TRUE)
def test_a_true_identity_is_proved(lhs, rhs):
    """Proved with each constant a symbol of its certified sign (was refuted)."""
    assert equal(lhs, rhs).fact.proved


@pytest.mark.parametrize(("lhs", "rhs"), FALSE)
def test_a_false_identity_is_refuted_at_a_point(lhs, rhs):
    """Refuted at a point of the formula itself, by enclosures (was proved)."""
    fact = equal(lhs, rhs).fact
    assert fact.refuted and fact.verdict.witness


def test_a_point_never_takes_a_root_or_branch_by_the_float():
    """σ at a point: (L²)^(1/2) + L is 0, not 2L (SymPy's |L| = L)."""
    value = at(sympy.Pow(L**2, R(1, 2), evaluate=False) + L, {})
    assert not tight_enclosure(value, max_bits=2048).excludes_zero
    assert positive(Max(0, L) - L).fact.proved  # −L > 0, by the enclosure


@settings(max_examples=8, deadline=None)
@given(st.integers(12, 200), st.sampled_from(["cos", "cosh"]))
@example(60, "cos")
def test_a_tiny_constant_never_flips_a_verdict(k, head):
    """c = log(cos 10⁻ᵏ) < 0 or −log(cosh 10⁻ᵏ) < 0: Max(x, x + c) = x is never refuted and
    = x + c never proved; |c·x| = −c|x| never refuted."""
    t = R(1, 10**k)
    c = sympy.log(sympy.cos(t)) if head == "cos" else -sympy.log(sympy.cosh(t))
    assert not equal(Max(x, x + c), x).fact.refuted
    assert not equal(Max(x, x + c), x + c).fact.proved
    assert not equal(Abs(c * x), -c * sympy.Abs(x)).fact.refuted
    assert not equal(Abs(c * x), c * sympy.Abs(x)).fact.proved


@pytest.mark.parametrize(
    ("expr", "sign", "truth"),
    [
        (sympy.exp(x) * L, "negative", True),
        (sympy.exp(x) * L, "positive", False),
        (x**2 * L, "nonpositive", True),
        (x**2 * L, "nonnegative", False),
        (sympy.exp(x) - L, "positive", True),
        (Abs(L * x), "nonnegative", True),
        (Max(0, L * x**2), "positive", False),
    ],
)
def test_a_sign_is_judged_with_the_constants_certified_sign(expr, sign, truth):
    """SymPy's sign of exp(x)·L is taken with L a negative symbol (was unknown: untrusted);
    a false sign is refuted at a point, never proved."""
    from symbolic.kernel import check_sign

    fact = check_sign(expr, sign)
    assert fact.status == ("proved" if truth else "refuted"), fact.verdict.reason


# --- review of the day's kernel changes (helper review): each was wrong before its fix -----------

k = sympy.Symbol("k", integer=True)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sympy.Subs(sympy.Derivative(x * sympy.Sum(1, (k, 3, 1)), x), x, 1), -1),  # empty: 0
        (sympy.Subs(sympy.Derivative(x * sympy.Product(k, (k, 3, 1)), x), x, 1), R(1, 2)),
        (sympy.Subs(sympy.Derivative(sympy.Subs(sympy.Max(x, 0), x, x - 1), x), x, 1), R(1, 2)),
        (sympy.Subs(sympy.Derivative(sympy.Subs(sympy.Abs(x), x, x - 1), x), x, 1), 0),
        (
            sympy.Subs(sympy.Derivative(sympy.Sum(sympy.Abs(x - k), (k, 0, 2)), x), (x, k), (1, 5)),
            0,
        ),
        (
            sympy.Subs(sympy.Derivative(sympy.Integral(sympy.Abs(x), (x, 0, x - 1)), (x, 2)), x, 1),
            0,
        ),
    ],
)
def test_a_derivative_at_a_point_with_a_binder_inside_is_not_decided(lhs, rhs):
    """A derivative at a point is classical only where no binder inside moves the kink or hides
    a reversed range: max(x − 1, 0)′ at 1, |x − 1|′ at 1 have none; Karr's Σ_{3}^{1} = −1."""
    assert equal(lhs, rhs).fact.status == "unknown"


def test_a_rewrite_to_zero_of_a_number_no_enclosure_holds_is_doubted():
    """loggamma(cos 10⁻⁶⁰) ≈ γ·5·10⁻¹²¹ ≈ 2.9·10⁻¹²¹ (mpmath); SymPy calls it zero by a float."""
    g = sympy.loggamma(sympy.cos(R(1, 10**60)))
    with mpmath.workdps(300):
        assert mpmath.loggamma(mpmath.cos(mpmath.mpf(10) ** -60)) > mpmath.mpf(10) ** -122
    assert equal(g, 0).fact.status == "unknown"
    assert equal(x + g, x).fact.status == "unknown"
    assert equal(sympy.log(2) + sympy.log(3), sympy.log(6)).fact.proved  # exact algebra stays


def test_two_threads_building_z3_formulas_leave_z3_as_it_was():
    import threading
    import time

    import z3

    from symbolic.kernel import check_valid

    original = z3.RealVal

    def slow(seconds):
        def build(z):
            time.sleep(seconds)
            return z.Real("x") * 0.5 == z.Real("x") / 2

        return build

    done = []
    threads = [
        threading.Thread(target=lambda s=s: done.append(check_valid(slow(s)).status))
        for s in (0.1, 0.3)
    ]
    for t in threads:
        t.start()
        time.sleep(0.05)
    for t in threads:
        t.join()
    assert done == ["proved", "proved"]
    assert z3.RealVal is original and z3.z3.RealVal is original
