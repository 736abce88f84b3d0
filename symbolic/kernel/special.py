"""Rigorous interval enclosures of special functions from Arb's ball arithmetic (python-flint),
consulted by ``symbolic.kernel.intervals``.

``SPECIAL`` maps a SymPy function class to a callable taking ``mpmath.iv`` intervals (one per
argument) and returning an interval guaranteed to contain the function's value on them; ``erf``
and ``erfc`` serve ``intervals``' own table, ``hyp0f1`` the similarity law's certified MGF.

``mpmath.iv`` promises rigorous rounding for the arithmetic and elementary functions only, so
its ``gamma``, ``besseli`` and ``erf`` are not used. Arb (FLINT) promises it for every function:
its result is a ball ``mid ± rad`` containing the function's value at every point of the argument
balls. The two conversions keep that guarantee:

* interval → ball (``ball``): the end points of an ``iv`` interval are binary numbers
  ``±man·2^exp``, so its midpoint ``(a + b)/2`` and half-width ``(b − a)/2`` are too; Arb sets
  the midpoint exactly and rounds the radius up (a point interval becomes an exact ball);
* ball → interval (``interval``): ``arb.lower()`` / ``arb.upper()`` are binary numbers at or
  below / at or above every point of the ball (``mid ∓ rad`` rounded down / up); their mantissa
  and exponent become the interval's end points rounded down / up to ``iv.prec`` bits
  (``libmp.from_man_exp`` with ``round_floor`` / ``round_ceiling``).

Monotone functions are evaluated at the interval's end points (exact point balls), which keeps
the enclosure as narrow as the interval itself makes it: ``erf`` increases, ``erfc`` decreases,
``₀F₁(; b; x)`` increases in ``x ≥ 0`` and decreases in ``b > 0`` (positive series terms),
``I_ν(x)`` increases in ``x ≥ 0`` for ``ν ≥ 0`` (so does every term of its series). Elsewhere the
whole argument ball is handed to Arb.

Precision is bounded: Arb works at ``iv.prec + GUARD_BITS`` and, while the ball is wider than
``2^-iv.prec`` relative or not finite, at twice that, up to ``MAX_PREC`` bits (a wide argument
ball, whose width no precision removes, stops the doubling). A finite ball is an enclosure
whatever its width; a non-finite one at the cap raises ``SeriesTooLong`` (a ``ValueError``: the
caller's check is ``unknown``, never wrong).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import flint
import sympy
from mpmath import iv, libmp

GUARD_BITS = 32  # Arb's working precision beyond the interval's
MAX_PREC = 1 << 15  # Arb's working precision is never raised past this (bits)


class SeriesTooLong(ValueError):
    """Arb gave no finite enclosure (its series or asymptotic expansion) within ``MAX_PREC``
    bits of working precision."""


@contextmanager
def arb_precision(bits: int) -> Iterator[None]:
    """Run the body with Arb's working precision at ``bits`` (restored after)."""
    saved = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = saved


def _man_exp(raw: tuple) -> tuple[int, int]:
    """An mpmath raw binary number ``(sign, man, exp, bc)`` as ``(±man, exp)``, exactly."""
    sign, man, exp, _ = raw
    if not man:
        if exp:  # ±inf, nan
            raise ValueError("an infinite or undefined end point")
        return 0, 0
    return (-int(man) if sign else int(man)), int(exp)


def _point(raw: tuple) -> flint.arb:
    """An mpmath raw binary number as the exact Arb number (a ball of radius 0)."""
    return flint.arb(_man_exp(raw))


def ball(x: Any) -> flint.arb:
    """The ball ``(a + b)/2 ± (b − a)/2`` holding every point of the interval ``x = [a, b]``:
    midpoint and radius are exact binary numbers, set exactly (the radius rounded up)."""
    lo, hi = iv.mpf(x)._mpi_
    if lo == hi:
        return _point(lo)
    (am, ae), (bm, be) = _man_exp(lo), _man_exp(hi)
    e = min(ae, be) - 1
    am, bm = am << (ae - e), bm << (be - e)  # a, b in units of 2^e: both even
    return flint.arb(((am + bm) >> 1, e), ((bm - am) >> 1, e))  # exactly (a+b)/2, (b−a)/2


def _exact_raw(a: flint.arb, rounding: str) -> tuple:
    """An exact Arb number (radius 0) as an mpmath raw number of ``iv.prec`` bits, rounded in
    the given direction (``round_floor``, ``round_ceiling``)."""
    man, exp = (int(v) for v in a.mid().man_exp())
    return libmp.from_man_exp(man, exp, iv.prec, rounding)


def interval(lower: flint.arb, upper: flint.arb) -> Any:
    """The ``iv`` interval from the lower end of the ball ``lower`` to the upper end of the ball
    ``upper``, rounded outward: ``lower()``/``upper()`` round down/up to Arb's precision
    (``iv.prec + GUARD_BITS``), ``_exact_raw`` once more in the same direction to ``iv.prec``."""
    with arb_precision(iv.prec + GUARD_BITS):
        lo, hi = lower.lower(), upper.upper()
    if not (lo.is_finite() and hi.is_finite()):
        raise SeriesTooLong("Arb gave no finite enclosure")
    return iv.make_mpf((_exact_raw(lo, libmp.round_floor), _exact_raw(hi, libmp.round_ceiling)))


def evaluate(f: Callable[..., flint.arb], *args: flint.arb) -> flint.arb:
    """``f(*args)`` in Arb, at a working precision raised (bounded by ``MAX_PREC``) until the ball
    is finite and ``2^-iv.prec`` narrow relative, or (arguments that are not exact points) stops
    narrowing."""
    target, wide = iv.prec, not all(a.is_exact() for a in args)
    prec, accuracy = target + GUARD_BITS, None
    while True:
        with arb_precision(prec):
            value = f(*args)
        if value.is_finite():
            if value.is_exact() or value.rel_accuracy_bits() >= target:
                return value
            if wide and accuracy is not None and value.rel_accuracy_bits() <= accuracy:
                return value  # the argument's width, not the precision, sets the ball's
            accuracy = value.rel_accuracy_bits()
        if prec >= MAX_PREC:
            if value.is_finite():
                return value
            raise SeriesTooLong(f"Arb gave no finite enclosure at {MAX_PREC:,} bits")
        prec = min(2 * prec, MAX_PREC)


def _monotone(f: Callable[[flint.arb], flint.arb], x: Any, increasing: bool) -> Any:
    """``f`` monotone on the interval ``x``: Arb at its two end points (exact balls)."""
    lo, hi = (evaluate(f, _point(raw)) for raw in iv.mpf(x)._mpi_)
    return interval(lo, hi) if increasing else interval(hi, lo)


def erf(x: Any) -> Any:
    """``erf`` on the interval ``x`` (increasing)."""
    return _monotone(flint.arb.erf, x, increasing=True)


def erfc(x: Any) -> Any:
    """``erfc`` on the interval ``x`` (decreasing); Arb keeps it relative for large ``x``
    (``erfc(26) ≈ 5.7e-296``, ``erfc(10^10) ≈ 10^-(4.3·10^19)``)."""
    return _monotone(flint.arb.erfc, x, increasing=False)


def gamma(v: Any) -> Any:
    """``Γ`` on the interval ``v`` (the whole interval as one ball; a pole in it: ValueError)."""
    value = evaluate(flint.arb.gamma, ball(v))
    return interval(value, value)


def hyp0f1(b: Any, x: Any) -> Any:
    """An interval containing ``₀F₁(; b; x)`` for every ``b``, ``x`` in the given intervals,
    ``b > 0``, ``x ≥ 0``: ``[F(b.b; x.a), F(b.a; x.b)]``, each end from Arb at exact points."""
    b, x = iv.mpf(b), iv.mpf(x)
    if not b.a > 0:
        raise ValueError(f"0F1: b ∈ {b} must be > 0")
    if x.a < 0:
        raise ValueError(f"0F1: x ∈ {x} must be ≥ 0")
    (b_lo, b_hi), (x_lo, x_hi) = b._mpi_, x._mpi_
    lower = evaluate(flint.arb.hypgeom_0f1, _point(x_lo), _point(b_hi))
    upper = evaluate(flint.arb.hypgeom_0f1, _point(x_hi), _point(b_lo))
    return interval(lower, upper)


def besseli(nu: Any, x: Any) -> Any:
    """``I_ν(x)`` on intervals: at the end points of ``x`` when ``ν ≥ 0`` and ``x ≥ 0`` (where it
    increases in ``x``), else on the whole ball; ``ν`` as one ball. Not real (``x < 0`` at a
    non-integer ``ν``): ValueError."""
    nu, x = iv.mpf(nu), iv.mpf(x)
    order = ball(nu)
    if nu.a >= 0 and x.a >= 0:
        lo, hi = (evaluate(flint.arb.bessel_i, _point(raw), order) for raw in x._mpi_)
        return interval(lo, hi)
    value = evaluate(flint.arb.bessel_i, ball(x), order)
    return interval(value, value)


SPECIAL: dict[type, Callable[..., Any]] = {sympy.besseli: besseli, sympy.gamma: gamma}
