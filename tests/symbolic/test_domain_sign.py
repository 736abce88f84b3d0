"""The exact sign decisions behind the parser's realness checks
(symbolic/languages/domain_sign.py)."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.languages.domain_sign import UNKNOWN, Sign, accurate_value, sign_everywhere

x = sympy.Symbol("x", real=True)


@pytest.mark.parametrize(
    ("expr", "sign"),
    [
        (x**2 - 2 * x + 1, Sign(nonneg=True)),
        (x**2 - 2 * x + 2, Sign(nonneg=True, positive=True)),
        (-(x**2) - 1, Sign(negative=True)),
        (x**4 - x**2 + 1, Sign(nonneg=True, positive=True)),
        (x**2 - 2 * x, UNKNOWN),  # negative on (0, 2)
        (x**3, UNKNOWN),
        (1 - sympy.tanh(x) ** 2, Sign(nonneg=True, positive=True)),
        (sympy.cosh(x) - 1, Sign(nonneg=True)),  # 0 at x = 0
        (sympy.cosh(x) - 1 - sympy.Rational(1, 10**6), UNKNOWN),
        (sympy.exp(x) - 1, UNKNOWN),
        (sympy.exp(2 * x) + sympy.exp(-x), Sign(nonneg=True, positive=True)),
        (sympy.exp(x) - x, UNKNOWN),  # positive, but not a rational function of e^x: not decided
    ],
)
def test_examples(expr, sign):
    assert sign_everywhere(expr, x) == sign


def _poly(coefficients):
    return sum(sympy.Rational(c) * x**k for k, c in enumerate(coefficients))


@settings(deadline=None)
@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=6),
    st.lists(st.fractions(-6, 6, max_denominator=4), min_size=12, max_size=12),
)
def test_a_decided_sign_holds_at_every_sample(coefficients, samples):
    """Whatever sign is claimed holds at random rational points, exactly (also for the square,
    which is nonnegative, so the decider must say so whenever the square is not 0)."""
    for expr in (_poly(coefficients), _poly(coefficients) ** 2):
        sign = sign_everywhere(expr, x)
        for v in samples:
            value = expr.subs(x, v)
            assert not sign.nonneg or value >= 0
            assert not sign.positive or value > 0
            assert not sign.negative or value < 0
    square = sympy.expand(_poly(coefficients) ** 2)
    if square.free_symbols:
        assert sign_everywhere(square, x).nonneg


@pytest.mark.parametrize(
    ("constant", "expected"),
    [
        (sympy.erf(26) - 1, -mpmath.erfc(26)),
        (sympy.tanh(345) - 1, -2 / (mpmath.exp(690) + 1)),
        (sympy.exp(40) + 1 - sympy.exp(40), mpmath.mpf(1)),
        (1 / (1 + sympy.exp(-400)) - 1, -1 / (mpmath.exp(400) + 1)),
    ],
)
def test_accurate_values(constant, expected):
    """float64 gives 0.0 (or garbage) for each; the enclosure gives the value to ~1e-12."""
    value = accurate_value(constant)
    assert value is not None and abs(value - expected) <= 1e-12 * abs(expected)


def test_a_constant_below_float64_or_equal_to_zero_has_no_accurate_value():
    assert accurate_value(sympy.exp(-sympy.exp(700))) is None
    assert accurate_value(sympy.tanh(1) - sympy.tanh(1)) is None
