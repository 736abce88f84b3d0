"""Certificates: exact rationals, interval enclosures that really enclose, no float tolerance."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.kernel import CannotEnclose, enclose
from symbolic.steps import certified_sign, certify_nonzero

E, R = sympy.E, sympy.Rational


@pytest.mark.parametrize(
    ("expr", "status", "method"),
    [
        (R(1, 10**30), "proved", "exact"),
        (sympy.Integer(0), "refuted", "exact"),
        (1 + R(1, 10**30) * sympy.exp(2) - 1, "proved", "interval"),
        (sympy.exp(1) + R(1, 10**300) - E, "proved", "exact"),  # SymPy cancels E exactly
        (sympy.exp(3) * R(1, 10**200), "proved", "interval"),
        (2 / (1 + sympy.exp(-2)) - 4 / (1 + sympy.exp(-1)), "proved", "interval"),
        (sympy.sinh(1) - (E - 1 / E) / 2, "unknown", "interval"),  # zero, but not syntactically
    ],
)
def test_certify_nonzero(expr, status, method):
    verdict = certify_nonzero(expr)
    assert (verdict.status, verdict.method) == (status, method)


def test_tiny_difference_needs_high_precision_and_gets_it():
    verdict = certify_nonzero(sympy.exp(R(1, 10**100)) - 1)  # ≈ 1e-100: 64 bits cannot see it
    assert verdict.status == "proved"
    bits = int(verdict.reason.split(" at ")[1].split()[0])
    assert bits >= 512


def test_sign():
    assert certified_sign(R(-3, 7)) == -1
    assert certified_sign(sympy.exp(-80) - R(1, 10**30)) == -1  # e^-80 ≈ 1.8e-35
    assert certified_sign(sympy.Integer(0)) == 0


def test_not_real_is_refused():
    with pytest.raises(CannotEnclose):
        enclose(sympy.sqrt(R(-1, 2) - sympy.exp(-1)))
    with pytest.raises(CannotEnclose):
        enclose(sympy.Symbol("x") + 1)


def _contains(expr: sympy.Expr, reference: mpmath.mpf) -> bool:
    """The 128-bit enclosure contains a reference computed with ~265 bits."""
    box = enclose(expr, 128)
    return box.a <= reference <= box.b


rationals = st.fractions(min_value=-12, max_value=12, max_denominator=1000).map(
    lambda f: R(f.numerator, f.denominator)
)


@given(rationals)
def test_enclosures_contain_the_true_value(q):
    funcs = {
        sympy.exp: mpmath.exp,
        sympy.tanh: mpmath.tanh,
        sympy.erf: mpmath.erf,
        sympy.sinh: mpmath.sinh,
        sympy.cosh: mpmath.cosh,
    }
    with mpmath.workdps(80):
        x = mpmath.mpf(q.p) / q.q
        for sym, ref in funcs.items():
            assert _contains(sym(q), ref(x)), sym
        assert _contains(x_silu := q / (1 + sympy.exp(-q)), x / (1 + mpmath.exp(-x))), x_silu


@given(rationals, rationals)
def test_certified_sign_matches_high_precision(p, q):
    expr = sympy.tanh(p) - sympy.erf(q)
    with mpmath.workdps(80):
        ref = mpmath.tanh(mpmath.mpf(p.p) / p.q) - mpmath.erf(mpmath.mpf(q.p) / q.q)
    sign = certified_sign(expr)
    if ref != 0:
        assert sign == (1 if ref > 0 else -1)
