"""Capacities of the associative-memory stores under both similarity laws (docs/theory.md Part B).

``ISR(M) = E‖interference‖² / E‖signal‖²``; for weights ``w_m = f(s_m)`` and independent unit
values ``ISR(M) = (M − 1)·E[f(s)²]/f(1)²``, so the capacity (``ISR(M*) = 1``) is

    M* = 1 + f(1)² / E[f(s)²].

``E[f(s)²]`` comes in closed form from the even moments or the moment generating function of
the law (``symbolic.similarity_law``), or — SwiGLU — as a certified interval. Least squares is
a projection (``P = Kᵀ(KKᵀ)⁻¹K``): ``ISR(M) = (M − d)/(d + 2)`` for keys with i.i.d. Gaussian
entries, capacity ``2d + 2``; for unit keys the leading order in ``1/d`` is ``2d + 1``.

Softmax with logit scaling ``β(M)`` (``SCHEDULES``) crosses ``ISR = 1`` where
``F(x) = ln(M − 1) + ln E[exp(2β s)] − 2β`` changes sign (``x = ln M``); ``first_crossing``
finds it and certifies, in interval arithmetic, that ``ISR < 1`` on every ``M`` before it.

Everything here computes and returns objects; ``proofs.capacity`` turns them into claims.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

import mpmath
import sympy
from mpmath import iv

from symbolic.certify import enclose
from symbolic.kernel import Fact, check_bound_on, check_compare, oracle, undecided
from symbolic.memory_stores import STORES, MemoryStore
from symbolic.similarity_law import (
    IV_PREC,
    LAW_NAMES,
    SeriesTooLong,
    beta_,
    certified_expectation,
    d_,
    hyp0f1_enclosure,
    iv_precision,
    mgf2,
    moment,
    mp_hyp0f1,
    s,
)

SOURCE_D, SOURCE_BETA = 64, 8  # the setting of the source's table
# The source's figures are "≈" values; its largest rounding is 65 → "≈ 64" (1.6 %), so a
# closed form reproduces a figure when it is within 2 % of it.
SOURCE_TOLERANCE = sympy.Rational(2, 100)
QWEN_TRAINING_LENGTH = 2048  # L of Qwen's LogN scaling
SEED_MEMORIES = 2_000_000  # "interference kept low up to 2 million memories"
# Bracket of a certified crossing: x = ln M is known to ±CROSSING_REL_WIDTH·max(1, x).
CROSSING_REL_WIDTH = mpmath.mpf("1e-6")
SCAN_LIMIT_X = 10_000  # search crossings up to M = e^10000
MAX_CERTIFY_STEPS = 2000


@dataclass(frozen=True)
class CertifiedValue:
    """A number with a certified enclosure (``exact``: lo = hi, a rational)."""

    lo: float
    hi: float
    mid: float
    method: str  # "exact" | "interval"
    certificate: str

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


def _digits(x: Any, n: int) -> str:
    """``x`` (a number or a degenerate interval end point) to ``n`` significant digits."""
    return mpmath.nstr(mpmath.mpf(x.a) if isinstance(x, iv.mpf) else x, n)


def from_iv(v: iv.mpf, certificate: str = "") -> CertifiedValue:
    return CertifiedValue(
        to_float(v.a),
        to_float(v.b),
        to_float(v.mid),
        "interval",
        certificate or f"[{_digits(v.a, 15)}, {_digits(v.b, 15)}]",
    )


def certified(expr: sympy.Expr) -> CertifiedValue:
    """A closed SymPy expression as a rational (exact) or a ``symbolic.certify`` interval."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return CertifiedValue(float(expr), float(expr), float(expr), "exact", sympy.sstr(expr))
    return from_iv(enclose(expr, IV_PREC))


def mgf_capacity(d: int, beta: sympy.Rational) -> CertifiedValue:
    """Softmax under the exact law, ``1 + exp(2β)/₀F₁(; d/2; β²)``, certified."""
    top = enclose(sympy.exp(2 * beta), IV_PREC)
    with iv_precision():
        return from_iv(
            1 + top / hyp0f1_enclosure(sympy.Rational(d, 2), iv.mpf(beta.p) ** 2 / beta.q**2)
        )


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
    if store.expectation == "projection":
        return 2 * d_ + 2 if law == "gaussian" else 2 * d_ + 1
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
        enc = from_iv(cap, f"E[f(s)²] ∈ [{_digits(moment2.a, 12)}, {_digits(moment2.b, 12)}]")
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
    """docs/theory.md C1 stores, from ``symbolic.tied_memory`` (closed form or numeric)."""
    from symbolic.tied_memory import tied_law

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


# --- softmax: the capacity-maximizing β ---------------------------------------------------


def softmax_optimum(d: int) -> dict[str, Any]:
    """β maximizing the softmax capacity under each law (see ``proofs.capacity``)."""
    g_beta = sympy.Rational(d, 2)
    exact_at = mgf_capacity(d, g_beta)
    asymptotic = 2 * sympy.sqrt(sympy.pi) * beta_ ** ((d_ - 1) / 2) / sympy.gamma(d_ / 2)
    return {
        "gaussian": {
            "beta": float(g_beta),
            "capacity": to_float(mpmath.exp(d / 2) + 1),
            "formula": "β* = d/2, M* = 1 + exp(d/2)",
        },
        "exact": {
            "beta": None,
            "increasing_in_beta": True,
            "capacity_at_gaussian_optimum": exact_at.mid,
            "formula": "M*(β) strictly increasing, unbounded: no finite maximizer; "
            f"M* − 1 ~ {sympy.sstr(asymptotic)} as β → ∞",
        },
    }


# --- softmax: logit scaling with the number of memories -----------------------------------


def _max(ctx: Any, a: Any, b: Any) -> Any:
    """max for mpmath numbers and for intervals (the hull where they overlap)."""
    if ctx is iv:
        return iv.mpf([max(a.a, b.a), max(a.b, b.b)])
    return max(a, b)


@dataclass(frozen=True)
class Schedule:
    """A logit-scaling rule β(M), written in ``x = ln M``; nondecreasing in ``x``."""

    name: str
    title: str
    formula: str
    beta: Callable[[Any, Any, Any, Any], Any]  # (ctx, x, beta0, ln L) -> β


SCHEDULES: dict[str, Schedule] = {
    sc.name: sc
    for sc in (
        Schedule("constant", "no scaling", "β(M) = β0", lambda ctx, x, b0, lnL: b0 + 0 * x),
        Schedule(
            "logn",
            "Su / Qwen LogN",
            "β(M) = β0·max(1, log_L M)",
            lambda ctx, x, b0, lnL: b0 * _max(ctx, x / lnL, ctx.mpf(1)),
        ),
        Schedule(
            "yarn",
            "YaRN (Qwen2.5-1M)",
            "β(M) = β0·(0.1·ln(M/L) + 1)² for M > L",
            lambda ctx, x, b0, lnL: b0 * (_max(ctx, x - lnL, ctx.mpf(0)) / 10 + 1) ** 2,
        ),
    )
}


def log_isr(ctx: Any, law: str, d: int, beta: Any, x: Any) -> Any:
    """``F = ln ISR(e^x) = ln(e^x − 1) + ln E[exp(2βs)] − 2β`` in ``ctx`` (mpmath or iv)."""
    log_m = 2 * beta**2 / d if law == "gaussian" else ctx.log(_hyp0f1(ctx, d, beta))
    return x + ctx.log(1 - ctx.exp(-x)) + log_m - 2 * beta


def _hyp0f1(ctx: Any, d: int, beta: Any) -> Any:
    if ctx is iv:
        return hyp0f1_enclosure(sympy.Rational(d, 2), beta**2)
    return mp_hyp0f1(mpmath.mpf(d) / 2, beta**2)


def schedule_isr(name: str, law: str, d: int, beta0: float, L: int, M: float) -> float:
    """ISR(M) under the schedule (mpmath, 30 digits; ±inf past the float range)."""
    with mpmath.workdps(30):
        x = mpmath.log(M)
        beta = SCHEDULES[name].beta(mpmath.mp, x, mpmath.mpf(beta0), mpmath.log(L))
        return to_float(mpmath.exp(log_isr(mpmath.mp, law, d, beta, x)))


@dataclass(frozen=True)
class Crossing:
    """Where ISR first reaches 1 under a schedule and law (``x = ln M``)."""

    schedule: str
    law: str
    root_x: float | None  # None: no crossing found up to SCAN_LIMIT_X
    lo_x: float | None
    hi_x: float | None
    beta_at_root: float | None
    verdict: Fact  # the first of ``facts`` (kept for callers that show one)
    facts: tuple[Fact, ...] = ()  # every fact the certificate rests on

    @property
    def status(self) -> str:
        statuses = {f.verdict.status for f in (self.facts or (self.verdict,))}
        for worst in ("refuted", "unknown"):
            if worst in statuses:
                return worst
        return "proved"

    @property
    def memories(self) -> float | None:
        return None if self.root_x is None else to_float(mpmath.exp(self.root_x))

    @property
    def log10_memories(self) -> float | None:
        return None if self.root_x is None else self.root_x / float(mpmath.log(10))


def first_crossing(name: str, law: str, d: int, beta0: float, L: int) -> Crossing:
    """The first ``M`` with ISR(M) = 1, certified: ISR < 1 on ``[2, e^lo]``, ISR(e^hi) > 1."""
    sched = SCHEDULES[name]
    with mpmath.workdps(30):
        b0, lnL = mpmath.mpf(rational(beta0)), mpmath.log(L)
        F = lambda x: log_isr(mpmath.mp, law, d, sched.beta(mpmath.mp, x, b0, lnL), x)  # noqa: E731
        x, step = mpmath.log(2), mpmath.mpf("0.25")
        x_prev = x  # ISR(2) ≥ 1 already: the crossing is at the start
        while F(x) < 0:
            if x > SCAN_LIMIT_X:
                facts = _certify(sched, law, d, rational(beta0), L, x, None)
                return Crossing(name, law, None, None, None, None, facts[0], facts)
            x_prev, x = x, x + step + x / 50
        root = mpmath.findroot(F, (x_prev, x), solver="anderson") if x_prev != x else x
        delta = CROSSING_REL_WIDTH * max(1, abs(root))
        lo, hi = root - delta, root + delta
        beta_root = sched.beta(mpmath.mp, root, b0, lnL)
    facts = _certify(sched, law, d, rational(beta0), L, lo, hi)
    return Crossing(name, law, float(root), float(lo), float(hi), float(beta_root), facts[0], facts)


_x = sympy.Symbol("x", positive=True)  # x = ln M


def schedule_beta_expr(name: str, beta0: sympy.Rational, L: int) -> sympy.Expr:
    """β(x) of a schedule as a SymPy expression in ``x = ln M`` (for the kernel)."""
    lnL = sympy.log(L)
    return {
        "constant": beta0 + 0 * _x,
        "logn": beta0 * sympy.Max(1, _x / lnL),
        "yarn": beta0 * (sympy.Max(_x - lnL, 0) / 10 + 1) ** 2,
    }[name]


def gaussian_log_isr_expr(name: str, d: int, beta0: sympy.Rational, L: int) -> sympy.Expr:
    """``ln ISR(e^x) = x + ln(1 − e^(−x)) + 2β²/d − 2β`` under the Gaussian law."""
    b = schedule_beta_expr(name, beta0, L)
    return _x + sympy.log(1 - sympy.exp(-_x)) + 2 * b**2 / d - 2 * b


def _certify(
    sched: Schedule,
    law: str,
    d: int,
    beta0: sympy.Rational,
    L: int,
    lo: mpmath.mpf,
    hi: mpmath.mpf | None,
) -> tuple[Fact, ...]:
    """The facts certifying a crossing. Gaussian law: kernel facts on the formula ``ln ISR``
    (``check_bound_on`` below the bracket, ``check_compare`` above it). Exact law: this
    module's monotone-step certificate (an oracle fact; see ``_below_one_exact``)."""
    if law != "gaussian":
        return (_certify_crossing(sched, law, d, beta0, L, lo, hi),)
    F = gaussian_log_isr_expr(sched.name, d, beta0, L)
    lo_q = sympy.Rational(str(lo))
    ln2 = sympy.log(2)
    facts = []
    if lo_q > ln2:
        facts.append(check_bound_on(F, _x, ln2, lo_q, "<", 0))
    else:  # the bracket starts below ln 2: the claim below it is ISR(2) < 1
        facts.append(check_compare(F.subs(_x, ln2), "<", 0))
    if hi is not None:
        facts.append(check_compare(F.subs(_x, sympy.Rational(str(hi))), ">", 0))
    return tuple(facts)


class _Outcome(NamedTuple):
    """What an interval search of this module found (made a fact by ``_interval_fact``)."""

    status: str
    reason: str


def _interval_fact(status: str, reason: str, certificate: str = "", **kw: Any) -> Fact:
    """This module's own interval certificate: an *oracle* fact when it holds (admitted and
    counted, not kernel-proved), ``unknown`` otherwise."""
    if status == "proved":
        return oracle(reason, "interval", certificate or reason)
    return undecided(sympy.Symbol(reason), reason, "interval")


def _certify_crossing(
    sched: Schedule,
    law: str,
    d: int,
    beta0: sympy.Rational,
    L: int,
    lo: mpmath.mpf,
    hi: mpmath.mpf | None,
) -> Fact:
    """ISR < 1 on ``[2, e^lo]`` and (unless ``hi`` is None: no crossing) ISR(e^hi) > 1."""
    try:
        return _certify_crossing_iv(sched, law, d, beta0, L, lo, hi)
    except SeriesTooLong as exc:
        return _interval_fact("unknown", f"not certified: {exc}")


def _certify_crossing_iv(
    sched: Schedule,
    law: str,
    d: int,
    beta0: sympy.Rational,
    L: int,
    lo: mpmath.mpf,
    hi: mpmath.mpf | None,
) -> Fact:
    with iv_precision():
        b0 = iv.mpf(beta0.p) / beta0.q
        lnL = iv.log(iv.mpf(L))
        beta = lambda x: sched.beta(iv, x, b0, lnL)  # noqa: E731
        below = (_below_one_gaussian if law == "gaussian" else _below_one_exact)(
            beta, d, iv.mpf(lo)
        )
        if below.status != "proved" or hi is None:
            return _interval_fact(below.status, below.reason)
        x_hi = iv.mpf(hi)
        above = log_isr(iv, law, d, beta(x_hi), x_hi)
        if not above.a > 0:
            return _interval_fact(
                "unknown", f"ln ISR(e^{_digits(hi, 12)}) ∈ {above} is not certainly > 0"
            )
    return _interval_fact(
        "proved",
        f"{below.reason}; ln ISR > {_digits(above.a, 6)} at ln M = "
        f"{_digits(hi, 12)} (intermediate value theorem)",
        certificate=f"ln M* ∈ [{_digits(lo, 12)}, {_digits(hi, 12)}]",
    )


def _below_one_gaussian(beta: Callable, d: int, x_end: iv.mpf) -> _Outcome:
    """ISR < 1 for all ``x ∈ [ln 2, x_end]`` under the Gaussian law, by interval boxes.

    On a box ``[x1, x2]``: ``ln(M − 1) ≤ ln(e^x2 − 1)`` and ``β ∈ [β(x1), β(x2)]``; the term
    ``2β²/d − 2β`` is convex in ``β``, so its maximum is at an end of that range.
    """
    h = lambda b: 2 * b * b / d - 2 * b  # noqa: E731
    x, width, boxes = iv.log(iv.mpf(2)), iv.mpf(1), 0
    while x.a < x_end.a:
        x2 = iv.mpf(min(x.b + width.a, x_end.a))
        bound = x2 + iv.log(1 - iv.exp(-x2)) + _max(iv, h(beta(x)), h(beta(x2)))
        boxes += 1
        if bound.b < 0:
            x, width = x2, width * 2
        else:
            width = width / 2
            if width.b < mpmath.mpf(2) ** -40 or boxes > MAX_CERTIFY_STEPS:
                return _Outcome(
                    "unknown",
                    f"ln ISR not certified < 0 near ln M = "
                    f"{_digits(x.a, 12)} (an earlier crossing?)",
                )
    return _Outcome("proved", f"ISR < 1 on [2, e^{_digits(x_end.a, 12)}] ({boxes} interval boxes)")


def _below_one_exact(beta: Callable, d: int, x_end: iv.mpf) -> _Outcome:
    """ISR < 1 for all ``x ∈ [ln 2, x_end]`` under the exact law, by monotone steps.

    ``ln E[exp(2βs)] − 2β`` decreases in ``β`` (proved in ``proofs.capacity``) and ``β(x)``
    increases, so a bound ``c ≥ ln E − 2β`` at ``β(x1)`` holds for every ``x ≥ x1``, and
    ISR < 1 wherever ``ln(e^x − 1) < −c``, i.e. up to ``x = ln(1 + e^(−c))``. For ``c`` the
    cheaper of two upper bounds is used first — the Gaussian one (the exact MGF is at most
    ``exp(2β²/d)``) and ``ln(c_d 2^a Γ(a+1)) − (a+1) ln(2β + a/2)``, ``a = (d−3)/2``, from
    ``1 − s² ≤ 2(1 − s) e^(−(1−s)/2)`` — and the certified ``₀F₁`` only where they stall.
    """
    a = iv.mpf(d - 3) / 2
    c_d = iv.gamma(iv.mpf(d) / 2) / (iv.sqrt(iv.pi) * iv.gamma(iv.mpf(d - 1) / 2))
    gamma_const = iv.log(c_d) + a * iv.log(iv.mpf(2)) + iv.loggamma(a + 1)
    x, steps, exact_steps = iv.log(iv.mpf(2)), 0, 0
    while x.a < x_end.a:
        steps += 1
        b = iv.mpf(beta(x).a)  # every x' ≥ x has β(x') ≥ b
        c = min((2 * b * b / d - 2 * b).b, (gamma_const - (a + 1) * iv.log(2 * b + a / 2)).b)
        reach = iv.log(1 + iv.exp(iv.mpf(-c))).a
        if reach - x.a < (x_end.a - x.a) / 4:
            exact_steps += 1
            c = min(c, (iv.log(_hyp0f1(iv, d, b)) - 2 * b).b)
            reach = iv.log(1 + iv.exp(iv.mpf(-c))).a
        if reach <= x.a or steps > MAX_CERTIFY_STEPS:
            return _Outcome(
                "unknown",
                f"ln ISR not certified < 0 at ln M = {_digits(x.a, 12)} (an earlier crossing?)",
            )
        x = iv.mpf(min(reach, x_end.a))
    return _Outcome(
        "proved",
        f"ISR < 1 on [2, e^{_digits(x_end.a, 12)}] "
        f"({steps} monotone steps, {exact_steps} with the certified 0F1)",
    )
