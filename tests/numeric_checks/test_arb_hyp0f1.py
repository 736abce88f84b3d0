"""₀F₁(; b; x) from Arb's balls (python-flint) against mpmath at 60 digits, written here: the
enclosure must contain the value, at orders where a term-by-term series would need millions of
terms (d = 1500 under YaRN: x ≈ 1.7·10¹³, 5.9·10⁶ terms) and on intervals of x."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import iv

from symbolic.memory.similarity_law import hyp0f1_enclosure, iv_precision

pytest.importorskip("flint", reason="python-flint (a dependency)")


def reference(b: sympy.Rational, x) -> mpmath.mpf:
    with mpmath.workdps(60):
        return mpmath.hyp0f1(mpmath.mpf(b.p) / b.q, mpmath.mpf(x))


def contains(box: iv.mpf, value: mpmath.mpf) -> bool:
    # box.a.a: the end point as an mpf (exact: its bits are fewer than 60 digits')
    with mpmath.workdps(60):
        return mpmath.mpf(box.a.a) <= value <= mpmath.mpf(box.b.b)


@pytest.mark.parametrize(
    "d, x",
    [(1500, "1.7342740638482830534935e13"), (4096, "3e11"), (64, "64"), (3, "0.5"), (1, "2e9")],
)
def test_the_enclosure_contains_the_value_where_the_series_is_too_long(d, x):
    b = sympy.Rational(d, 2)
    with iv_precision():
        box = hyp0f1_enclosure(b, iv.mpf(x))
    assert contains(box, reference(b, x))
    with mpmath.workdps(60):  # x itself is a 64-bit interval: ln F moves by width/√x
        assert (mpmath.mpf(box.b.b) - mpmath.mpf(box.a.a)) / mpmath.mpf(box.a.a) < 1e-12


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5000), st.floats(0, 1e14), st.floats(0, 1e3))
def test_an_interval_of_x_is_enclosed_at_both_ends(d, x, width):
    b = sympy.Rational(d, 2)
    with iv_precision():
        box = hyp0f1_enclosure(b, iv.mpf([x, x + width]))
    assert contains(box, reference(b, x)) and contains(box, reference(b, x + width))
