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
  ``t_k`` is at most ``t_k·r_k/(1 − r_k) ≤ t_k`` (a geometric series). The terms grow with
  ``x`` and shrink with ``b`` (positive terms), so for intervals ``x``, ``b`` the value lies in
  ``[S(x.a; b.b), S(x.b; b.a) + tail]``, the tail bounded at ``x.b``, ``b.a``.

  Both sums are taken in this module's own binary floating point with directed rounding
  (``_Directed``: an integer mantissa of ``prec + GUARD_BITS`` bits and an exponent; every
  product, quotient and sum rounded down for the lower sum, up for the upper one, so rounding
  is enclosed as with ``iv``), ~10× faster than ``iv`` arithmetic term by term.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import sympy
from mpmath import iv, libmp

MAX_TERMS = 400_000  # past this the enclosure is refused (the caller's check is unknown)
TAIL_BITS = 70  # the series is cut when the tail bound is below 2^-70 of the sum


class SeriesTooLong(ValueError):
    """The enclosure would need more than ``MAX_TERMS`` series terms."""


GUARD_BITS = 64  # mantissa bits beyond the interval precision: ≤ 400,000 roundings stay below it


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
    return hyp0f1_bounds(b, x, iv.prec, TAIL_BITS, MAX_TERMS)


def hyp0f1_bounds(b: Any, x: Any, prec: int, tail_bits: int, max_terms: int) -> Any:
    """The interval ``[S(x.a; b.b), S(x.b; b.a) + tail]`` at ``prec`` bits (``b.a > 0``,
    ``x.a ≥ 0``, finite): the series cut where the tail bound is below ``2^-tail_bits`` of
    the upper sum; ``SeriesTooLong`` past ``max_terms`` terms."""
    bits = prec + GUARD_BITS
    (xln, xld), (xhn, xhd) = _exact(x.a), _exact(x.b)
    (bln, bld), (bhn, bhd) = _exact(b.a), _exact(b.b)
    # term k+1 = term k · x / ((k+1)(b+k)) = term k · x_n b_d / (x_d (k+1)(b_n + k b_d))
    up_num, lo_num = xhn * bld, xln * bhd
    quiet = int(mpmath.sqrt(2 * x.b)) + 1
    hi_term, hi_sum = _Directed(1, 0, bits, up=True), _Directed(1, 0, bits, up=True)
    k = 0
    while True:
        hi_term.scale(up_num, xhd * (k + 1) * (bln + k * bld))
        hi_sum.add(hi_term)
        k += 1
        if k > max_terms:
            raise SeriesTooLong(f"0F1 series not cut after {max_terms:,} terms")
        if k < quiet:
            continue
        den = xhd * (k + 1) * (bln + k * bld)  # the ratio r_k = up_num/den to the next term
        if 2 * up_num <= den:  # r_k ≤ 1/2 and decreasing: the tail is ≤ t_k r_k/(1 − r_k)
            tail = hi_term.copy()
            tail.scale(up_num, den - up_num)
            if tail.at_most(hi_sum, tail_bits):
                hi_sum.add(tail)
                break
    lo_term, lo_sum = _Directed(1, 0, bits, up=False), _Directed(1, 0, bits, up=False)
    for j in range(k):  # the same terms at x.a, b.b, rounded down; no tail
        lo_term.scale(lo_num, xld * (j + 1) * (bhn + j * bhd))
        lo_sum.add(lo_term)
    return iv.make_mpf(
        (
            libmp.from_man_exp(lo_sum.m, lo_sum.e, prec, libmp.round_floor),
            libmp.from_man_exp(hi_sum.m, hi_sum.e, prec, libmp.round_ceiling),
        )
    )


def _exact(v: Any) -> tuple[int, int]:
    """A finite binary floating-point number (an interval's end point, an ``mpf``, an ``int``
    or a ``float``) as an exact fraction ``(n, 2^j)``, every bit kept: ``mpmath.mpf(v)`` would
    round an end point to ``mpmath.mp``'s 53 bits, to nearest — an argument moved by 2^-53 and
    an enclosure that no longer holds the value."""
    if isinstance(v, int):
        return v, 1
    if isinstance(v, float):
        if not mpmath.isfinite(v):
            raise ValueError(f"0F1: the arguments must be finite, got {v}")
        return v.as_integer_ratio()
    raw = v._mpi_[0] if hasattr(v, "_mpi_") else getattr(v, "_mpf_", None)
    if raw is None or (hasattr(v, "_mpi_") and v._mpi_[0] != v._mpi_[1]):
        raise ValueError(f"0F1: a binary number is needed, got {v!r}")
    if raw in (libmp.finf, libmp.fninf, libmp.fnan):
        raise ValueError(f"0F1: the arguments must be finite, got {v}")
    return libmp.to_rational(raw)


class _Directed:
    """A positive number ``m·2^e`` whose operations round down (``up=False``) or up; ``m`` is
    kept to at most ``bits`` bits."""

    __slots__ = ("m", "e", "bits", "up")

    def __init__(self, m: int, e: int, bits: int, up: bool) -> None:
        self.m, self.e, self.bits, self.up = m, e, bits, up
        self._trim()

    def copy(self) -> _Directed:
        return _Directed(self.m, self.e, self.bits, self.up)

    def _trim(self) -> None:
        """Exactly ``bits`` bits of mantissa: short ones shifted up (exact), long ones rounded."""
        excess = self.m.bit_length() - self.bits
        if excess < 0 and self.m:
            self.m <<= -excess
            self.e += excess
        elif excess > 0:
            low = self.m & ((1 << excess) - 1)
            self.m = (self.m >> excess) + (1 if self.up and low else 0)
            self.e += excess

    def scale(self, num: int, den: int) -> None:
        """``self ← self · num/den`` (positive integers), rounded."""
        m = self.m * num
        shift = self.bits + den.bit_length() - m.bit_length() + 1
        if shift > 0:
            m <<= shift
            self.e -= shift
        q, r = divmod(m, den)
        self.m = q + (1 if self.up and r else 0)
        self._trim()

    def add(self, other: _Directed) -> None:
        """``self ← self + other`` (same rounding direction), rounded."""
        if other.e >= self.e:
            self.m += other.m << (other.e - self.e)
        else:
            shift = self.e - other.e
            if not other.m:
                return
            if shift > other.m.bit_length() + 1:  # other < one unit of self's last place
                self.m += 1 if self.up else 0
            else:
                low = other.m & ((1 << shift) - 1)
                self.m += (other.m >> shift) + (1 if self.up and low else 0)
        self._trim()

    def at_most(self, other: _Directed, bits: int) -> bool:
        """``self ≤ 2^-bits · other``, exactly."""
        a_e, b_e = self.e + bits, other.e
        low = min(a_e, b_e)
        return self.m << (a_e - low) <= other.m << (b_e - low)


def _half_integer(v: Any, name: str) -> sympy.Rational:
    """A point interval at an integer or half-integer, as that rational (else ValueError)."""
    v = iv.mpf(v)
    if v.a != v.b:
        raise ValueError(f"{name}: a point argument is needed, got {v}")
    p, q = _exact(v.a)  # exactly: rounded to 53 bits, 31 + 2^-60 would pass as 31
    value = sympy.Rational(p, q)
    if (2 * value).q != 1:
        raise ValueError(f"{name}: only integer and half-integer arguments, got {v.a}")
    return value


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
    return (
        power
        * hyp0f1(iv.mpf(int((q + 1).p)) / int((q + 1).q), half * half)
        / gamma(iv.mpf(int((q + 1).p)) / int((q + 1).q))
    )


SPECIAL: dict[type, Callable[..., Any]] = {sympy.besseli: besseli, sympy.gamma: gamma}
