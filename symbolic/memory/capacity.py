"""Capacities of the associative-memory stores under both similarity laws (docs/theory.md Part B).

``ISR(M) = E‖interference‖² / E‖signal‖²``; for weights ``w_m = f(s_m)`` and independent unit
values ``ISR(M) = (M − 1)·E[f(s)²]/f(1)²``, so the capacity (``ISR(M*) = 1``) is

    M* = 1 + f(1)² / E[f(s)²].

``E[f(s)²]`` comes in closed form from the even moments or the moment generating function of
the law (``symbolic.memory.similarity_law``), or — SwiGLU — as a certified interval. Least
squares is a projection (``P = Kᵀ(KKᵀ)⁻¹K``): ``ISR(M) = (M − d)/(d + 2)`` for keys with
i.i.d. Gaussian entries, capacity ``2d + 2``; for unit keys the leading order in ``1/d`` is
``2d + 1`` (the table's ``theory_gaussian`` and ``theory_exact``).

Softmax's capacity-maximizing β and logit scaling with ``M``: ``symbolic.memory.schedules``.

Everything here computes and returns objects; ``proofs.capacity`` turns them into claims.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import finf, fnan, fninf, to_rational

from symbolic.kernel import enclose
from symbolic.memory.similarity_law import (
    IV_PREC,
    LAW_NAMES,
    beta_,
    certified_expectation,
    d_,
    hyp0f1_enclosure,
    iv_precision,
    mgf2,
    moment,
    s,
)
from symbolic.memory.stores import STORES, MemoryStore

SOURCE_D, SOURCE_BETA = 64, 8  # the setting of the source's table
# The source's figures are "≈" values; its largest rounding is 65 → "≈ 64" (1.6 %), so a
# closed form reproduces a figure when it is within 2 % of it.
SOURCE_TOLERANCE = sympy.Rational(2, 100)


@dataclass(frozen=True)
class CertifiedValue:
    """A number with a certified enclosure ``[lo, hi]`` (floats rounded outward: for an
    ``exact`` rational, lo and hi are the floats either side of it, equal when it is one)."""

    lo: float
    hi: float
    mid: float
    method: str  # "exact" | "interval"
    certificate: str
    mid_mp: Any = None  # the midpoint as an mpmath number (a capacity past the float range)

    @property
    def approx(self) -> Any:
        """The midpoint to show after "≈": the float, or the mpmath number when the float
        overflowed (1 + exp(1512) is no ``inf``)."""
        return self.mid if math.isfinite(self.mid) or self.mid_mp is None else self.mid_mp

    def to_json(self) -> dict[str, Any]:
        return {
            "lo": self.lo,
            "hi": self.hi,
            "value": self.mid,
            "method": self.method,
            "certificate": self.certificate,
        }


@dataclass(frozen=True)
class LawCapacity:
    """The capacity of one store under one law."""

    law: str
    capacity: CertifiedValue
    formula: str  # M* in words and symbols
    expr: sympy.Expr | None  # M* in closed form in d (and beta); None when there is none
    second_moment: sympy.Expr | None  # E[f(s)²] in closed form (None: certified numeric)
    kind: str  # "closed form" | "certified numeric" | "asymptotic"
    log_isr_slope: float | None  # ln(E[f²]/f(1)²): ISR(M) = (M − 1)·exp(slope)
    note: str = ""


@dataclass(frozen=True)
class StoreCapacity:
    store: MemoryStore
    d: int
    beta: sympy.Rational
    gaussian: LawCapacity
    exact: LawCapacity

    def law(self, name: str) -> LawCapacity:
        return {"gaussian": self.gaussian, "exact": self.exact}[name]

    @property
    def relative_difference(self) -> float:
        """(exact − Gaussian) / Gaussian."""
        return (self.exact.capacity.mid - self.gaussian.capacity.mid) / self.gaussian.capacity.mid


# --- numbers with enclosures ------------------------------------------------------------


def to_float(x: Any) -> float:
    """An mpmath number (or degenerate interval) as a float, ±inf past the float range."""
    try:
        return float(mpmath.mpf(x.a) if isinstance(x, iv.mpf) else x)
    except OverflowError:
        return float("inf") if mpmath.mpf(x) > 0 else float("-inf")


def digits(x: Any, n: int) -> str:
    """``x`` (a number or a degenerate interval end point) to ``n`` significant digits."""
    return mpmath.nstr(mpmath.mpf(x.a) if isinstance(x, iv.mpf) else x, n)


def from_iv(v: iv.mpf, certificate: str = "") -> CertifiedValue:
    return CertifiedValue(
        float_bound(v.a, up=False),
        float_bound(v.b, up=True),
        to_float(v.mid),
        "interval",
        certificate or interval_text(v.a, v.b, 15),
        mpmath.mpf(v.mid.a) if isinstance(v.mid, iv.mpf) else v.mid,
    )


def certified(expr: sympy.Expr) -> CertifiedValue:
    """A closed SymPy expression as a rational (exact) or a kernel interval
    (``symbolic.kernel.enclose``)."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        lo, hi = float_bound(expr, up=False), float_bound(expr, up=True)
        return CertifiedValue(lo, hi, float(expr), "exact", sympy.sstr(expr))
    return from_iv(enclose(expr, IV_PREC))


def mgf_capacity(d: int, beta: sympy.Rational) -> CertifiedValue:
    """Softmax under the exact law, ``1 + exp(2β)/₀F₁(; d/2; β²)``, certified."""
    top = enclose(sympy.exp(2 * beta), IV_PREC)
    with iv_precision():
        return from_iv(
            1 + top / hyp0f1_enclosure(sympy.Rational(d, 2), iv.mpf(beta.p) ** 2 / beta.q**2)
        )


def exact_fraction(x: Any) -> Fraction:
    """``x`` (a float, an integer, a SymPy rational, an mpmath number or a degenerate interval
    end) as the exact fraction it is; ValueError for ±inf and nan."""
    if isinstance(x, sympy.Rational):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, (int, float, Fraction)):
        return Fraction(x)
    raw = x._mpi_[0] if isinstance(x, iv.mpf) else mpmath.mpf(x)._mpf_
    if raw in (fnan, finf, fninf):
        raise ValueError(f"not a finite number: {mpmath.mpf(raw)}")
    return Fraction(*to_rational(raw))


def float_bound(x: Any, up: bool) -> float:
    """The float nearest ``x`` on the side that keeps an enclosure (≥ x when ``up``, ≤ x
    otherwise): ``float()`` rounds to nearest, so ``float(53/3)`` lies above 53/3 and a
    degenerate ``[float(v), float(v)]`` would exclude v. ``x`` is compared exactly
    (``exact_fraction``); ±inf past the float range."""
    try:
        exact = exact_fraction(x)
    except ValueError:
        return to_float(x)
    try:
        f = float(exact)  # correctly rounded to nearest
    except OverflowError:  # past the largest float: ±inf on the far side, ±max on the near
        big = sys.float_info.max
        if exact > 0:
            return math.inf if up else big
        return -big if up else -math.inf
    if up and Fraction(f) < exact:
        return math.nextafter(f, math.inf)
    if not up and Fraction(f) > exact:
        return math.nextafter(f, -math.inf)
    return f


def outward(lo: Any, hi: Any, places: int = 9) -> tuple[sympy.Rational, sympy.Rational]:
    """Rationals ``a ≤ lo`` and ``b ≥ hi`` with ``places`` significant digits, in exact
    arithmetic on the ends (floats, rationals or mpmath numbers: a float end of a certified
    interval may be rounded inward by an ulp, and an end past the float range is no float)."""

    def cut(x: Any, up: bool) -> sympy.Rational:
        v = exact_fraction(x)
        if v == 0:
            return sympy.Integer(0)
        with mpmath.workprec(64):
            e = int(mpmath.floor(mpmath.log10(mpmath.mpf(abs(v.numerator)) / v.denominator)))
        scale = Fraction(10) ** (places - 1 - e)
        q = v * scale
        n = -((-q.numerator) // q.denominator) + 1 if up else q.numerator // q.denominator - 1
        return sympy.Rational(n * scale.denominator, scale.numerator)

    return cut(lo, False), cut(hi, True)


def exact_text(r: sympy.Rational) -> str:
    """A rational written exactly: an integer, a terminating decimal, or ``p/q``."""
    r = sympy.Rational(r)
    if r.q == 1:
        return f"{int(r.p):,}" if abs(r.p) < 10**21 else _scientific(r)
    q, places = int(r.q), 0
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    if q != 1:
        return f"{r.p}/{r.q}"
    while (r * 10**places).q != 1:
        places += 1
    if r != 0 and not Fraction(1, 10**6) <= abs(Fraction(int(r.p), int(r.q))) < 10**21:
        return _scientific(r)
    scaled = str(abs(int(r * 10**places))).rjust(places + 1, "0")
    return ("-" if r < 0 else "") + f"{int(scaled[:-places]):,}.{scaled[-places:]}"


def _scientific(r: sympy.Rational) -> str:
    """A terminating decimal far from 1 written exactly as ``d.ddde±k`` (450,045,720,000,… with
    650 digits is ``4.5004572e+656``)."""
    n, k = Fraction(int(r.p), int(r.q)), 0
    while n.denominator != 1:
        n, k = n * 10, k - 1
    m = abs(n.numerator)
    while m % 10 == 0:
        m, k = m // 10, k + 1
    digits = str(m)
    mantissa = digits[0] + (f".{digits[1:]}" if len(digits) > 1 else "")
    return ("-" if r < 0 else "") + f"{mantissa}e{k + len(digits) - 1:+d}"


def bound_text(x: Any, places: int, up: bool) -> str:
    """``x`` rounded outward (up for an upper bound) to ``places`` digits, written exactly."""
    return exact_text(outward(x, x, places)[int(up)])


def interval_text(lo: Any, hi: Any, places: int) -> str:
    """``[a, b]`` with ``a ≤ lo`` and ``b ≥ hi`` written exactly (``outward``): a printed
    certified interval still encloses (nearest rounding could cut an end inward)."""
    return f"[{bound_text(lo, places, False)}, {bound_text(hi, places, True)}]"


def rational(x: float | int | str) -> sympy.Rational:
    """A command-line number as the exact rational it denotes in decimal (``0.1`` → 1/10)."""
    return sympy.Rational(str(x))


# --- stores -------------------------------------------------------------------------------

_t = sympy.Symbol("t", positive=True)


def half_line_squares(f: sympy.Expr) -> tuple[sympy.Poly, sympy.Poly]:
    """``f(s)²`` on ``s = t > 0`` and on ``s = −t < 0``, as polynomials in ``t``."""
    return (
        sympy.Poly(sympy.expand(f.subs(s, _t) ** 2), _t),
        sympy.Poly(sympy.expand(f.subs(s, -_t) ** 2), _t),
    )


@cache  # pure SymPy: asked for by the store table, its derivations and the source check
def second_moment(store: MemoryStore, law: str) -> sympy.Expr | None:
    """``E[f(s)²]`` in closed form in ``d`` (and ``beta``); None when there is none."""
    if store.expectation == "moments":
        total = sympy.Integer(0)
        for poly in half_line_squares(store.weight):
            for (degree,), coeff in poly.terms():
                if degree % 2:
                    raise ValueError(f"store {store.name}: f² has the odd power t^{degree}")
                # the law is symmetric: E[s^(2k); s > 0] = E[s^(2k); s < 0] = E[s^(2k)]/2
                total += coeff * moment(law, degree // 2) / 2
        return sympy.factor(total)
    if store.expectation == "mgf":
        return mgf2(law)
    return None


@cache
def capacity_expr(store: MemoryStore, law: str) -> sympy.Expr | None:
    """``M* = 1 + f(1)²/E[f(s)²]`` in closed form, or None."""
    if store.expectation == "projection":  # the table's forms: 2d + 2 (Gaussian keys), 2d + 1
        return store.theory(law)
    moment2 = second_moment(store, law)
    if moment2 is None:
        return None
    at_one = store.weight.subs(s, 1) ** 2
    return 1 + sympy.powsimp(at_one / moment2)


def store_capacity(name: str, d: int, beta: sympy.Rational | int = SOURCE_BETA) -> StoreCapacity:
    """Both laws' capacities of store ``name`` at dimension ``d`` (and softmax ``beta``)."""
    if not STORES[name].uses_beta:  # one cached value per (store, d) when β plays no part
        beta = SOURCE_BETA
    return _store_capacity(name, d, sympy.Rational(beta))


@cache
def _store_capacity(name: str, d: int, beta: sympy.Rational) -> StoreCapacity:
    store = STORES[name]
    laws = [_law_capacity(store, law, d, sympy.Rational(beta)) for law in LAW_NAMES]
    return StoreCapacity(store, d, sympy.Rational(beta), *laws)


def _law_capacity(store: MemoryStore, law: str, d: int, beta: sympy.Rational) -> LawCapacity:
    values = {d_: d, beta_: beta}
    if store.expectation == "tied":
        return _tied_capacity(store, law, d)
    if store.expectation == "projection":
        expr = capacity_expr(store, law)
        if law == "gaussian":
            return LawCapacity(
                law,
                certified(expr.subs(values)),
                "2d + 2 (keys with i.i.d. N(0, 1/d) entries: leverage "
                "P_ii ~ Beta(d/2, (M−d)/2), ISR = (M − d)/(d + 2))",
                expr,
                None,
                "closed form",
                None,
            )
        return LawCapacity(
            law,
            certified(expr.subs(values)),
            "2d + 1, leading order in 1/d (unit keys; the 1/d term is not "
            "derived: Monte Carlo gives 2d + 1 − 1.5/d)",
            expr,
            None,
            "asymptotic",
            None,
            "leading order ISR ≈ (M − d)/(d + 1); Monte Carlo: M* = 16.82, "
            "32.91, 64.95, 128.98 at d = 8, 16, 32, 64",
        )
    at_one = store.weight.subs(s, 1) ** 2
    if store.expectation == "quadrature":
        moment2 = certified_expectation(law, d, store.weight**2, store.square_bound)
        top = enclose(at_one.subs(values), IV_PREC)
        with iv_precision():
            cap = 1 + top / moment2
            slope = moment2 / top
        enc = from_iv(cap, f"E[f(s)²] ∈ {interval_text(moment2.a, moment2.b, 12)}")
        lead = leading_order_capacity(store, law)
        formula = (
            f"1 + f(1)²/E[f(s)²], E certified by interval Simpson quadrature "
            f"(leading order in 1/d: {sympy.sstr(lead)})"
        )
        return LawCapacity(
            law, enc, formula, None, None, "certified numeric", float(mpmath.log(slope.mid))
        )
    expr = capacity_expr(store, law)
    moment2 = second_moment(store, law)
    enc = (
        mgf_capacity(d, beta)
        if law == "exact" and store.expectation == "mgf"
        else certified(expr.subs(values))
    )
    log_slope = mpmath.log(_mp_value(moment2.subs(values))) - mpmath.log(
        _mp_value(at_one.subs(values))
    )
    return LawCapacity(law, enc, sympy.sstr(expr), expr, moment2, "closed form", float(log_slope))


def _tied_capacity(store: MemoryStore, law: str, d: int) -> LawCapacity:
    """docs/theory.md C1 stores, from ``symbolic.memory.tied_memory`` (closed form or numeric)."""
    from symbolic.memory.tied_memory import tied_law

    v = tied_law(store.name, law, d)
    if v.capacity is None:
        raise ValueError(f"store {store.name}: capacity undefined ({v.reason})")
    if v.expr is not None:
        return LawCapacity(
            law,
            certified(v.expr.subs(d_, d)),
            sympy.sstr(v.expr),
            v.expr,
            v.second_moment,
            v.kind,
            -math.log(v.capacity - 1),
        )
    value = CertifiedValue(
        v.capacity,
        v.capacity,
        v.capacity,
        "numeric",
        "Gauss–Legendre quadrature on each half-line, not certified",
    )
    return LawCapacity(
        law,
        value,
        "1 + f(1)²/E[f(s)²], E by Gauss–Legendre quadrature (numeric, not certified)",
        None,
        None,
        v.kind,
        -math.log(v.capacity - 1),
    )


def _mp_value(expr: sympy.Expr) -> mpmath.mpf:
    fn = sympy.lambdify((), sympy.sympify(expr), modules="mpmath")
    return mpmath.mpf(fn())


def leading_term(f2: sympy.Expr) -> tuple[int, sympy.Expr]:
    """``(n, c)`` with ``f2(s) = c·s^n + o(s^n)`` at 0, ``c ≠ 0`` (n ≤ 12)."""
    for n in range(13):
        c = sympy.powsimp(sympy.expand(f2 / s**n)).subs(s, 0)
        if c.is_finite and c != 0:
            return n, c
    raise ValueError(f"{sympy.sstr(f2)}: no leading term of degree ≤ 12 at s = 0")


def leading_order_capacity(store: MemoryStore, law: str) -> sympy.Expr:
    """``1 + f(1)²/(c·E[s^n])`` from the leading term ``c·s^n`` of ``f²`` at 0 (n even)."""
    n, c = leading_term(store.weight**2)
    return 1 + store.weight.subs(s, 1) ** 2 / (c * moment(law, n // 2))


def isr(name: str, law: str, d: int, beta: float, M: float) -> float:
    """ISR(M) from the theory (least squares with unit keys: leading order in 1/d only)."""
    cap = store_capacity(name, d, rational(beta)).law(law)
    if cap.log_isr_slope is not None:
        return (M - 1) * float(mpmath.exp(cap.log_isr_slope))
    if M <= d:
        return 0.0
    if law == "gaussian":
        return (M - d) / (d + 2)
    # unit keys: leading order only (crosses 1 at 2d + 1; the true crossing is ≈ 2d + 1 − 1.5/d,
    # a 1/d term not derived here — the earlier first-order form gave + 1/(2d), the wrong sign)
    return (M - d) / (d + 1)
