"""Helpers around the kernel's certificates for untrusted code (witness search, replay).

The certificates themselves — exact rational arithmetic, else outward-rounded ``mpmath.iv``
enclosures — are the kernel's (``symbolic.kernel.intervals``); this module re-exports them and
adds readings that *guide* a search (a certified sign, a float inside an enclosure) without
deciding anything.

>>> import sympy
>>> certify_nonzero(sympy.Rational(1, 10**30)).status
'proved'
>>> certified_sign(2 / (1 + sympy.exp(-2)) - 4 / (1 + sympy.exp(-1)))
-1
"""

from __future__ import annotations

import mpmath
import sympy

from symbolic.kernel import (
    CERTIFY_TIMEOUT_S,
    MAX_BITS,
    START_BITS,
    CannotEnclose,
    Enclosure,
    check_nonzero,
    enclose,
    tight_enclosure,
)

__all__ = [
    "CERTIFY_TIMEOUT_S",
    "MAX_BITS",
    "START_BITS",
    "CannotEnclose",
    "Enclosure",
    "certified_float",
    "certified_sign",
    "certify_nonzero",
    "enclose",
    "tight_enclosure",
]


def certify_nonzero(
    expr: sympy.Expr, timeout_s: float = CERTIFY_TIMEOUT_S, max_bits: int = MAX_BITS
):
    """The kernel's verdict on ``expr ≠ 0`` (read-only; steps use ``check_nonzero``'s fact)."""
    return check_nonzero(expr, timeout_s, max_bits).verdict


def certified_float(expr: sympy.Expr) -> float:
    """A float inside the certified enclosure of ``expr`` (for numeric replay), at a precision
    that makes the enclosure narrow (cancellation such as cosh(80)² − sinh(80)² needs bits)."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return float(expr)
    bits = 128
    while True:
        try:
            box = enclose(expr, bits)
        except CannotEnclose:  # a replay value only: SymPy's own evaluation will do
            value = sympy.N(expr, 30)
            return float(value) if value.is_real else float("nan")
        lo, hi = mpmath.mpf(box.a), mpmath.mpf(box.b)
        mid = (lo + hi) / 2
        if hi - lo <= abs(mid) * mpmath.mpf(2) ** -60 or bits >= MAX_BITS:
            return float(mid)
        bits *= 2


def certified_sign(expr: sympy.Expr) -> int | None:
    """The sign (−1, 0, 1) of a closed expression, exactly or by intervals; None if undecided."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return int(expr.p > 0) - int(expr.p < 0)
    try:
        sign = tight_enclosure(expr).sign
    except (CannotEnclose, ZeroDivisionError, OverflowError, ValueError):
        return None
    return sign or None
