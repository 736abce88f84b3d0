"""The kernel's tanh enclosure holds at every size: tanh was enclosed as 1 − 2/(e^{2x} + 1),
whose exponential is not enclosed beyond 2^40, so tanh(10¹²) had no enclosure and
``x·tanh(10¹¹x − 10¹¹π)`` was left unknown. It now takes each end through an exponential that
does not grow."""

from __future__ import annotations

import mpmath
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.kernel import enclose


def _holds(v: sympy.Expr) -> bool:
    box = enclose(sympy.tanh(v), 80)
    with mpmath.workdps(80):
        true = mpmath.tanh(mpmath.mpf(sympy.N(v, 90)))
        return box.a <= true <= box.b and box.b - box.a <= mpmath.mpf(2) ** -60


def test_tanh_of_huge_arguments_is_enclosed():
    for v in (10**12, -(10**12), 10**300, -(10**300)):
        assert _holds(sympy.Integer(v))
    assert enclose(sympy.tanh(sympy.Integer(10) ** 12), 64).a > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(-(10**15), 10**15), st.integers(1, 10**6))
def test_the_enclosure_holds_the_value_at_every_size(p, q):
    assert _holds(sympy.Rational(p, q))
