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

from symbolic.kernel.branches import MAX_ROOT_INDEX_BITS, at
from symbolic.kernel.intervals import tight_enclosure

x = sympy.Symbol("x", real=True)
R = sympy.Rational
HAIR = R(1, 10**1240)  # p − 1 of relu(x)**p in test_near_misses


def _kept_powers(e: sympy.Basic) -> list[sympy.Pow]:
    return [p for p in sympy.preorder_traversal(e)
            if isinstance(p, sympy.Pow) and p.base.is_Rational and p.exp.is_Rational
            and not p.exp.is_Integer]


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
    value = at(2 ** (2 ** x) + 1, {x: 17})  # 2**131072: beyond the 100,000-bit cap
    assert value.has(sympy.Pow(2, 2**17, evaluate=False))
    assert at(2 ** (2 ** x) + 1, {x: 4}) == 2**16 + 1


@given(st.integers(2, 50), st.integers(1, 50), st.integers(MAX_ROOT_INDEX_BITS + 1, 400),
       st.integers(-3, 3))
def test_kept_powers_keep_their_value(num, den, index_bits, shift):
    """Property: at random rational points, with a root index of 65 to 400 bits, the result
    is left unevaluated and its certified enclosure holds the true value b**e + shift."""
    base = R(num, den)
    assume(base != 1)  # 1**e is 1 at any root index
    exponent = 1 + R(1, 2**index_bits + 1)
    value = at(x ** exponent + shift, {x: base})
    assert _kept_powers(value)
    with mpmath.workprec(2048):
        want = mpmath.mpf(num) / den * mpmath.power(mpmath.mpf(num) / den,
                                                    mpmath.mpf(1) / (2**index_bits + 1)) + shift
    enc = tight_enclosure(value, until_sign=False, max_bits=1024)
    assert enc.lo <= want <= enc.hi
