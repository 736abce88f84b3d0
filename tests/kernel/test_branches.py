"""``branches.at``: a formula at a point, where SymPy's evaluation would not end in time.

Exact powers that are too large to compute (``2**(2**17)``) or whose root index is beyond 64
bits (``(3/2)**(1 + 10**-1240)``: SymPy factors the base looking for perfect powers, which took
seconds a point) stay unevaluated, and so does everything above them (a ``Mul`` would recombine
and compute them again). The value is unchanged: the enclosures judge it.
"""

from __future__ import annotations

import mpmath
import sympy
from hypothesis import assume, given
from hypothesis import strategies as st

from symbolic.kernel import at, tight_enclosure
from symbolic.kernel.huge_powers import MAX_ROOT_INDEX_BITS

x = sympy.Symbol("x", real=True)
R = sympy.Rational
HAIR = R(1, 10**1240)  # p − 1 of relu(x)**p in test_near_misses


def _kept_powers(e: sympy.Basic) -> list[sympy.Pow]:
    return [
        p
        for p in sympy.preorder_traversal(e)
        if isinstance(p, sympy.Pow)
        and p.base.is_Rational
        and p.exp.is_Rational
        and not p.exp.is_Integer
    ]


def test_a_power_with_a_huge_root_index_stays_as_written():
    value = at(x ** (1 + HAIR), {x: R(3, 2)})
    assert value == sympy.Pow(R(3, 2), 1 + HAIR, evaluate=False)
    enc = tight_enclosure(value - R(3, 2), max_bits=8192)
    assert enc.lo > 0  # (3/2)^(1 + 1e-1240) > 3/2, certified: the value was not lost


def test_what_holds_a_kept_power_stays_unevaluated_too():
    value = at(5 * x ** (1 + HAIR) * (x + 1) ** (1 + HAIR) - 3, {x: R(3, 2)})
    assert len(_kept_powers(value)) == 2  # not recombined into (15/4)**(1 + 1e-1240)
    with mpmath.workprec(8192):
        want = 5 * mpmath.mpf(3.75) ** (1 + mpmath.mpf(10) ** -1240) - 3
    enc = tight_enclosure(value, until_sign=False, max_bits=8192)
    assert enc.lo <= want <= enc.hi


def test_a_small_root_index_is_evaluated_as_before():
    assert at(x ** R(1, 2), {x: 4}) == 2
    assert at(x ** R(3, 2) + x, {x: R(9, 4)}) == R(27, 8) + R(9, 4)


def test_an_exact_power_too_large_to_compute_stays_unevaluated():
    value = at(2 ** (2**x) + 1, {x: 17})  # 2**131072: beyond the 100,000-bit cap
    assert value.has(sympy.Pow(2, 2**17, evaluate=False))
    assert at(2 ** (2**x) + 1, {x: 4}) == 2**16 + 1


@given(
    st.integers(2, 50),
    st.integers(1, 50),
    st.integers(MAX_ROOT_INDEX_BITS + 1, 400),
    st.integers(-3, 3),
)
def test_kept_powers_keep_their_value(num, den, index_bits, shift):
    """Property: at random rational points, with a root index of 65 to 400 bits, the result
    is left unevaluated and its certified enclosure holds the true value b**e + shift."""
    base = R(num, den)
    assume(base != 1)  # 1**e is 1 at any root index
    exponent = 1 + R(1, 2**index_bits + 1)
    value = at(x**exponent + shift, {x: base})
    assert _kept_powers(value)
    with mpmath.workprec(2048):
        want = (
            mpmath.mpf(num)
            / den
            * mpmath.power(mpmath.mpf(num) / den, mpmath.mpf(1) / (2**index_bits + 1))
            + shift
        )
    enc = tight_enclosure(value, until_sign=False, max_bits=1024)
    assert enc.lo <= want <= enc.hi


# --- a closed argument of Max/Min that wins for every value (resolve_closed_branches) ----------


def _sigmoid(e):
    return 1 / (1 + sympy.exp(-e))


def test_a_closed_argument_that_always_wins_decides_the_branch():
    from symbolic.kernel import resolve_closed_branches as resolve

    at_most = _sigmoid(400) - 3 * sympy.Abs(x - 1)  # ≤ sigmoid(400) < 1 for every x
    assert resolve(sympy.Max(1, at_most, evaluate=False)) == 1
    assert resolve(sympy.Min(-1, -at_most, evaluate=False)) == -1
    # k + r with r ≥ 0 may exceed 1: kept; and a k above the closed argument: kept
    kept = sympy.Max(1, _sigmoid(400) + 3 * sympy.Abs(x - 1), evaluate=False)
    assert resolve(kept).has(sympy.Max)
    assert resolve(sympy.Max(1, 2 - x**2, evaluate=False)).has(sympy.Max)
    # k = best exactly: Max(0, −x²) = 0
    assert resolve(sympy.Max(0, -(x**2), evaluate=False)) == 0


@given(
    st.fractions(-3, 3, max_denominator=7),
    st.fractions(-3, 3, max_denominator=7),
    st.fractions(-5, 5, max_denominator=9),
)
def test_resolving_max_min_keeps_the_value_at_every_point(c, k, v):
    """Max(c, k − |x − 1| − x²) and Min(c, k + |x| + x²): wherever the closed c is kept, it is
    the value of the branch at every point (checked exactly at x = v)."""
    from symbolic.kernel import resolve_closed_branches as resolve

    c, k, v = R(c), R(k), R(v)
    for head, arg in (
        (sympy.Max, k - sympy.Abs(x - 1) - x**2),
        (sympy.Min, k + sympy.Abs(x) + x**2),
    ):
        branch = head(c, arg, evaluate=False)
        resolved = resolve(branch)
        assert resolved.xreplace({x: v}) == head(c, arg.xreplace({x: v}))
