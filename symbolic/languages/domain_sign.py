"""Signs the activation parser needs and its float64 estimates cannot give.

The parser (``symbolic.languages.activation_language``) accepts an activation only if it is
defined and real at every real x, which it judges by form and by float64 estimates of its
constants. Two things are beyond that, and both are decided exactly here:

* **constants float64 cannot resolve**: ``erf(26) - 1`` is 0.0 in float64 (it is -5.7e-296),
  ``exp(40) + 1 - exp(40)`` cancels. ``accurate_value`` encloses the constant by outward-rounded
  interval arithmetic (``kernel.intervals``) until its sign is certain and returns a float64
  value inside that enclosure (so with that sign), refined to float64's precision where
  the enclosure allows, or None.
* **arguments positive by algebra, not by form**: ``x**2 - 2*x + 1 = (x - 1)**2 ≥ 0``,
  ``1 - tanh(x)**2 > 0``, ``cosh(x) - 1 ≥ 0``. ``sign_everywhere`` decides polynomials in x
  and rational functions of ``exp(c·x)`` (after SymPy's exp rewrite, with t = e^{gx} > 0) by
  exact root counting (Sturm sequences) of numerator and denominator: sound, and complete for
  those classes. Beyond them it bounds the value over all real x by outward-rounded interval
  arithmetic on the ranges of the bounded functions (``value_range``: sin, cos ∈ [−1, 1],
  tanh, erf ∈ (−1, 1), erfc ∈ (0, 2), exp > 0, ...), which decides ``2 + sin(x) ≥ 1`` and
  ``1 + erf(x) > 0``. Anything else is "unknown", and the parser keeps rejecting it.

``no_root_in_domain`` does the same for the transform language's divisors: a polynomial in the
transform's parameter ``a`` with no real root in ``a``'s domain (``a**2 - a + 1``, never 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import gcd

import mpmath
import sympy
from mpmath import iv

from symbolic.kernel import CannotEnclose, enclose, tight_enclosure
from symbolic.limits import BudgetExceeded, deadline

ACCURATE_BITS = 2048  # enough to resolve constants down to ~1e-600 beside terms of size 1
MAX_DEGREE = 40  # of a polynomial (in x or in t = e^{gx}) that sign_everywhere examines
MAX_OPS = 60  # SymPy operations in an argument that sign_everywhere rewrites


def accurate_value(constant: sympy.Expr) -> float | None:
    """``constant`` to float64 with a certified sign, or None when its sign stays unknown
    within ``ACCURATE_BITS`` (or it cannot be enclosed)."""
    try:
        box = tight_enclosure(constant, max_bits=ACCURATE_BITS)
    except CannotEnclose:
        return None
    if not box.excludes_zero:
        return None
    lo, hi, bits = box.lo, box.hi, box.bits
    while hi - lo > abs(lo) * 2.0**-56 and bits < ACCURATE_BITS:  # to float64's precision
        bits *= 2
        try:
            finer = enclose(constant, bits)
        except CannotEnclose:
            break
        with mpmath.workprec(bits):  # keep every bit of the end points
            lo, hi = max(lo, mpmath.mpf(finer.a)), min(hi, mpmath.mpf(finer.b))
    with mpmath.workprec(bits):
        value = float((lo + hi) / 2)
    if value == 0.0 or (value > 0) != (box.sign > 0):  # below float64's range
        return None
    return value


@dataclass(frozen=True)
class Sign:
    """What holds for every real x: ``nonneg`` (≥ 0), ``positive`` (> 0), ``negative`` (< 0)."""

    nonneg: bool = False
    positive: bool = False
    negative: bool = False


UNKNOWN = Sign()


def sign_everywhere(expr: sympy.Expr, var: sympy.Symbol) -> Sign:
    """The sign of ``expr`` at every real ``var``, decided exactly, or UNKNOWN; when neither
    algebra applies, the range of ``expr`` over all real ``var`` (``value_range``) may decide
    it (``2 + sin(x) ≥ 1``, ``1 + erf(x) > 0``)."""
    if expr.count_ops() > MAX_OPS:
        return UNKNOWN
    try:
        if expr.is_polynomial(var):
            return _rational_sign(expr, var, lower=None)
        in_t = _in_exponential(expr.rewrite(sympy.exp), var)
        if in_t is not None:
            found = _rational_sign(in_t[0], in_t[1], lower=0)
            if found != UNKNOWN:
                return found
    except (
        sympy.PolynomialError,
        sympy.polys.polyerrors.PolificationFailed,
        ValueError,
        TypeError,
        RecursionError,
    ):
        pass
    return _range_sign(expr, var)


def _in_exponential(expr: sympy.Expr, var: sympy.Symbol):
    """``expr`` as a rational function of t = exp(g·var) (t > 0), or None: every occurrence of
    ``var`` must sit in some exp(c·var) with c rational."""
    exps = [e for e in expr.atoms(sympy.exp) if e.has(var)]
    rates = []
    for e in exps:
        c = sympy.cancel(e.args[0] / var)
        if not c.is_Rational or c == 0:
            return None
        rates.append(Fraction(int(c.p), int(c.q)))
    if not rates:
        return None
    g = Fraction(
        reduce(gcd, (r.numerator for r in rates)),
        reduce(lambda a, b: a * b // gcd(a, b), (r.denominator for r in rates)),
    )
    t = sympy.Dummy("t", positive=True)
    replaced = expr.xreplace(
        {e: t ** sympy.Integer(r / g) for e, r in zip(exps, rates, strict=True)}
    )
    if replaced.has(var):
        return None
    return sympy.together(replaced), t


def _rational_sign(expr: sympy.Expr, var: sympy.Symbol, lower) -> Sign:
    """Sign of a rational function on (lower, ∞) (lower None: all of ℝ)."""
    num, den = sympy.fraction(sympy.together(expr))
    n, d = sympy.Poly(num, var), sympy.Poly(den, var)
    if (
        max(n.degree(), d.degree()) > MAX_DEGREE
        or not (n.domain.is_QQ or n.domain.is_ZZ)
        or not (d.domain.is_QQ or d.domain.is_ZZ)
    ):
        return UNKNOWN
    sn, sd = _poly_sign(n, lower), _poly_sign(d, lower)
    if not (sd.positive or sd.negative):  # the denominator may vanish
        return UNKNOWN
    flip = sd.negative
    if sn.positive:
        return Sign(nonneg=not flip, positive=not flip, negative=flip)
    if sn.negative:
        return Sign(nonneg=flip, positive=flip, negative=not flip)
    if sn.nonneg and not flip:
        return Sign(nonneg=True)
    return UNKNOWN


def _poly_sign(p: sympy.Poly, lower) -> Sign:
    """Sign of a polynomial with rational coefficients on (lower, ∞), by exact root counting."""
    if p.is_zero:
        return UNKNOWN
    odd = sympy.Poly(1, p.gen)
    for factor, multiplicity in p.sqf_list()[1]:
        if multiplicity % 2:
            odd *= factor
    roots = _roots_inside(p, lower)
    odd_roots = _roots_inside(odd, lower)
    at = _sample_point(p, lower)
    positive_there = p.eval(at) > 0
    if roots == 0:
        return Sign(nonneg=positive_there, positive=positive_there, negative=not positive_there)
    if odd_roots == 0 and positive_there:
        return Sign(nonneg=True)
    return UNKNOWN


def _roots_inside(p: sympy.Poly, lower) -> int:
    """Distinct real roots of ``p`` in (lower, ∞)."""
    if p.degree() < 1:
        return 0
    if lower is None:
        return p.count_roots()
    return p.count_roots(lower, None) - (1 if p.eval(lower) == 0 else 0)


def _sample_point(p: sympy.Poly, lower) -> sympy.Rational:
    """A rational point of (lower, ∞) that is not a root of ``p``."""
    start = sympy.Integer(0 if lower is None else lower)
    for k in range(1, p.degree() + 2):
        point = start + k
        if p.eval(point) != 0:
            return point
    raise ValueError("no sample point")  # unreachable: p has at most degree roots


def no_root_in_domain(divisor: sympy.Expr, a: sympy.Symbol) -> bool:
    """For the transform language's divisors: is ``divisor`` a polynomial in the parameter ``a``
    (rational coefficients) with no real root in ``a``'s domain (``a > 0``, ``a < 0``, ``a ≠
    0``, read off its assumptions)? Decided by its exact real roots (``CRootOf``, signs exact):
    ``a**2 - a + 1`` (≥ 3/4) was refused as "may be 0" though never 0. Anything else, or
    undecided within the limit: False (the divisor stays refused)."""
    try:
        with deadline(2.0):
            if divisor.free_symbols != {a} or not divisor.is_polynomial(a):
                return False
            poly = sympy.Poly(divisor, a)
            if not all(c.is_Rational for c in poly.all_coeffs()):
                return False
            inside = {"positive": "is_positive", "negative": "is_negative"}
            kind = next((k for k in inside if getattr(a, f"is_{k}")), None)
            for root in sympy.real_roots(poly):
                if kind is None and not (root.is_zero is True and a.is_nonzero is True):
                    return False  # a real a: no root at all; a ≠ 0: none but 0
                if kind is not None and getattr(root, inside[kind]) is not False:
                    return False
            return True
    except (BudgetExceeded, sympy.PolynomialError, TypeError, ValueError, RecursionError):
        return False


RANGE_BITS = 128  # working precision of value_range's outward-rounded interval arithmetic


@dataclass(frozen=True)
class Range:
    """Every value lies in ``box`` (an ``mpmath.iv`` interval, possibly infinite); ``lo_open``
    / ``hi_open``: the finite end point itself is never attained."""

    box: object
    lo_open: bool = False
    hi_open: bool = False

    @property
    def lo(self) -> mpmath.mpf:
        return mpmath.mpf(self.box.a)

    @property
    def hi(self) -> mpmath.mpf:
        return mpmath.mpf(self.box.b)


EVERYTHING = Range(iv.mpf(["-inf", "inf"]))
_OPEN_RANGES = {  # functions bounded whatever their (real) argument, end points never attained
    sympy.tanh: (-1, 1, True),
    sympy.erf: (-1, 1, True),
    sympy.erfc: (0, 2, True),
    sympy.sin: (-1, 1, False),
    sympy.cos: (-1, 1, False),
}


def _range_sign(expr: sympy.Expr, var: sympy.Symbol) -> Sign:
    """The sign read off ``value_range`` (sound: every step rounds outward)."""
    try:
        with deadline(1.0):
            old = iv.prec
            iv.prec = RANGE_BITS
            try:
                r = value_range(expr, var)
            finally:
                iv.prec = old
    except (BudgetExceeded, CannotEnclose, ArithmeticError, ValueError, TypeError):
        return UNKNOWN
    positive = r.lo > 0 or (r.lo == 0 and r.lo_open)
    negative = r.hi < 0 or (r.hi == 0 and r.hi_open)
    return Sign(nonneg=r.lo >= 0, positive=positive, negative=negative)


def value_range(e: sympy.Expr, var: sympy.Symbol) -> Range:
    """A range holding ``e`` at every real ``var`` (``e`` real there: the parser checked it);
    ``EVERYTHING`` where nothing better is known. Constants are enclosed by the kernel."""
    if not e.has(var):
        return Range(enclose(e, RANGE_BITS))
    if e == var:
        return EVERYTHING
    if e.func in _OPEN_RANGES:
        lo, hi, open_ends = _OPEN_RANGES[e.func]
        return Range(iv.mpf([lo, hi]), open_ends, open_ends)
    if isinstance(e, sympy.exp):
        arg = value_range(e.args[0], var)
        return Range(iv.exp(arg.box), arg.lo == -mpmath.inf or arg.lo_open, arg.hi_open)
    if isinstance(e, sympy.cosh):
        return Range(iv.mpf([1, "inf"]))
    if isinstance(e, sympy.Abs):
        arg = value_range(e.args[0], var)
        if arg.lo >= 0:
            return arg
        return Range(iv.mpf([0, max(-arg.lo, arg.hi)]))
    if isinstance(e, (sympy.Max, sympy.Min)):
        return _extremum(e, [value_range(a, var) for a in e.args])
    if isinstance(e, sympy.Add):
        return _sum([value_range(a, var) for a in e.args])
    if isinstance(e, sympy.Mul):
        return _product([value_range(a, var) for a in e.args])
    if isinstance(e, sympy.Pow) and not e.exp.has(var):
        return _power(value_range(e.base, var), e.exp)
    return EVERYTHING


def _extremum(e: sympy.Expr, parts: list[Range]) -> Range:
    pick = max if isinstance(e, sympy.Max) else min
    lo, hi = pick(p.lo for p in parts), pick(p.hi for p in parts)
    lo_open = all(p.lo_open for p in parts if p.lo == lo)  # the end point of every part there
    hi_open = all(p.hi_open for p in parts if p.hi == hi)
    return Range(iv.mpf([lo, hi]), lo_open, hi_open)


def _sum(parts: list[Range]) -> Range:
    box = iv.mpf(0)
    for p in parts:
        box += p.box
    return Range(box, any(p.lo_open for p in parts), any(p.hi_open for p in parts))


def _product(parts: list[Range]) -> Range:
    """Products of ranges; a factor of unknown sign or an unbounded one beside a factor that
    may be 0 gives EVERYTHING (no 0·∞). Open ends are kept through positive constants only."""
    acc = parts[0]
    for p in parts[1:]:
        for a, b in ((acc, p), (p, acc)):
            if a.lo == a.hi and a.lo > 0:  # a positive constant factor: open ends kept
                acc = Range(a.box * b.box, b.lo_open, b.hi_open)
                break
            if a.lo == a.hi and a.hi < 0:  # a negative one: ends swapped
                acc = Range(a.box * b.box, b.hi_open, b.lo_open)
                break
        else:
            finite = all(abs(v) != mpmath.inf for v in (acc.lo, acc.hi, p.lo, p.hi))
            if not finite and not (acc.lo > 0 and p.lo > 0):
                return EVERYTHING
            acc = Range(acc.box * p.box)
    return acc


def _power(base: Range, exponent: sympy.Expr) -> Range:
    if exponent == -1 and base.lo > 0:  # 1/b for b > 0: the ends swap, 1/∞ = 0 never attained
        return Range(1 / base.box, base.hi == mpmath.inf or base.hi_open, base.lo_open)
    if exponent.is_Integer and exponent > 0:
        n = int(exponent)
        box = base.box**n
        if n % 2 == 0 and base.lo < 0 < base.hi:
            box = iv.mpf([0, mpmath.mpf(box.b)])
        return Range(box)
    if exponent.is_Rational and exponent > 0 and base.lo >= 0:
        return Range(iv.exp(iv.mpf(exponent.p) / exponent.q * iv.log(base.box)))
    return EVERYTHING
