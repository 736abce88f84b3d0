"""Rigorous interval enclosures of special functions, consulted by ``symbolic.kernel.intervals``.

``SPECIAL`` maps a SymPy function class to a callable taking ``mpmath.iv`` intervals (one per
argument) and returning an interval guaranteed to contain the function's value on them.
An entry belongs here only with a proof of its enclosure (series with a bounded remainder,
monotonicity) and tests against high-precision values.

``mpmath.iv`` is not relied on for special functions: its documentation promises rigorous
rounding for the arithmetic and elementary functions only, so ``iv.gamma`` and ``iv.besseli``
are not used here.

* ``hyper([], [b], x)`` — ``₀F₁(; b; x)`` for a rational ``b > 0`` and ``x ≥ 0`` (the exact law's
  moment generating function, ``E[exp(2βs)] = ₀F₁(; d/2; β²)``). The series
  ``Σ_k x^k / (k! (b)_k)`` has positive terms; the ratio of consecutive terms
  ``r_k = x / ((k+1)(b+k))`` decreases in ``k``, so once ``r_k ≤ 1/2`` the remainder after term
  ``t_k`` is at most ``t_k·r_k/(1 − r_k) ≤ t_k`` (a geometric series). Every operation is an
  ``iv`` operation (outward rounding); ``x`` is an interval, so the terms are evaluated at its
  upper end for the tail bound and the sum is monotone in ``x`` (positive terms), giving
  ``[S(x.a), S(x.b) + tail]`` directly from interval arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import sympy
from mpmath import iv

MAX_TERMS = 400_000  # past this the enclosure is refused (the caller's check is unknown)
TAIL_BITS = 70  # the series is cut when the tail bound is below 2^-70 of the sum


class SeriesTooLong(ValueError):
    """The enclosure would need more than ``MAX_TERMS`` series terms."""


def hyp0f1(b: Any, x: Any) -> Any:
    """An interval containing ``₀F₁(; b; x)`` for every ``b``, ``x`` in the given intervals,
    ``b > 0``, ``x ≥ 0``."""
    b, x = iv.mpf(b), iv.mpf(x)
    if not b.a > 0:
        raise ValueError(f"0F1: b ∈ {b} must be > 0")
    if x.a < 0:
        raise ValueError(f"0F1: x ∈ {x} must be ≥ 0")
    quiet = int(mpmath.sqrt(2 * x.b)) + 1  # r_k ≤ 1/2 is possible only from about here on
    if quiet > MAX_TERMS:
        raise SeriesTooLong(f"0F1 at x ≤ {mpmath.nstr(x.b, 6)} needs ~{quiet:,} terms")
    term, total, k = iv.mpf(1), iv.mpf(1), 0
    small = iv.mpf(2) ** -TAIL_BITS
    while True:
        term = term * x / ((k + 1) * (b + k))
        total += term
        k += 1
        if k > MAX_TERMS:
            raise SeriesTooLong(f"0F1 series not cut after {MAX_TERMS:,} terms")
        if k < quiet:
            continue
        r = x / ((k + 1) * (b + k))  # ratio to the next term; decreasing in k
        if r.b <= 0.5:
            tail = term * r / (1 - r)
            if tail.b <= (small * total).a:
                return total + iv.mpf([0, tail.b])


def _half_integer(v: Any, name: str) -> sympy.Rational:
    """A point interval at an integer or half-integer, as that rational (else ValueError)."""
    v = iv.mpf(v)
    if v.a != v.b:
        raise ValueError(f"{name}: a point argument is needed, got {v}")
    twice = mpmath.mpf(v.a) * 2
    if twice != int(twice):
        raise ValueError(f"{name}: only integer and half-integer arguments, got {v.a}")
    return sympy.Rational(int(twice), 2)


def gamma(v: Any) -> Any:
    """``Γ`` at a positive integer or half-integer, exactly: ``Γ(n) = (n−1)!`` and
    ``Γ(n + 1/2) = (2n)! √π / (4ⁿ n!)`` — one interval multiplication by ``√π``."""
    q = _half_integer(v, "gamma")
    if q <= 0:
        raise ValueError(f"gamma({q}): only positive arguments")
    if q.q == 1:
        return iv.mpf(int(sympy.factorial(q - 1)))
    n = int(q - sympy.Rational(1, 2))
    ratio = sympy.factorial(2 * n) / (4**n * sympy.factorial(n))
    return iv.mpf(int(ratio.p)) / int(ratio.q) * iv.sqrt(iv.pi)


def besseli(nu: Any, x: Any) -> Any:
    """``I_ν(x)`` for a (half-)integer ``ν ≥ 0`` and ``x ≥ 0``:
    ``I_ν(x) = (x/2)^ν ₀F₁(; ν + 1; x²/4) / Γ(ν + 1)`` (DLMF 10.25.2), from ``hyp0f1`` and
    ``gamma`` above."""
    q = _half_integer(nu, "besseli order")
    x = iv.mpf(x)
    if q < 0 or x.a < 0:
        raise ValueError(f"besseli({q}, {x}): only ν ≥ 0 and x ≥ 0")
    half = x / 2
    power = half ** int(q) if q.q == 1 else half ** int(q - sympy.Rational(1, 2)) * iv.sqrt(half)
    return power * hyp0f1(iv.mpf(int((q + 1).p)) / int((q + 1).q), half * half) / gamma(
        iv.mpf(int((q + 1).p)) / int((q + 1).q))


SPECIAL: dict[type, Callable[..., Any]] = {sympy.besseli: besseli, sympy.gamma: gamma}
