"""Softmax's β: the capacity-maximizing β and logit scaling with the number of memories.

docs/theory.md Part B. Under the Gaussian law ``M* = 1 + exp(2β − 2β²/d)`` is maximal at
``β = d/2``; under the exact law ``M*(β)`` increases without bound (``softmax_optimum``).

Softmax with logit scaling ``β(M)`` (``SCHEDULES``) crosses ``ISR = 1`` where
``F(x) = ln(M − 1) + ln E[exp(2β s)] − 2β`` changes sign (``x = ln M``); ``first_crossing``
finds it and certifies, in interval arithmetic, that ``ISR < 1`` on every ``M`` before it.
``exact_crossing`` and ``crossing_facts`` restate the exact law's certificate with its formula
for ``proofs.capacity``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import mpmath
import sympy
from mpmath import iv

from symbolic.kernel import (
    ORACLE,
    Exists,
    Fact,
    ForAll,
    SeriesTooLong,
    check_bound_on,
    check_compare,
    oracle,
    undecided,
)
from symbolic.memory.capacity import (
    bound_text,
    digits,
    interval_text,
    mgf_capacity,
    outward,
    rational,
    to_float,
)
from symbolic.memory.similarity_law import (
    beta_,
    d_,
    hyp0f1_enclosure,
    iv_precision,
    mp_hyp0f1,
)

QWEN_TRAINING_LENGTH = 2048  # L of Qwen's LogN scaling
SEED_MEMORIES = 2_000_000  # "interference kept low up to 2 million memories"
# Bracket of a certified crossing: x = ln M is known to ±CROSSING_REL_WIDTH·max(1, x).
CROSSING_REL_WIDTH = mpmath.mpf("1e-6")
SCAN_LIMIT_X = 10_000  # search crossings up to M = e^10000
MAX_CERTIFY_STEPS = 2000

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
    return _mp_hyp0f1(d, mpmath.mpf(beta), mpmath.mp.prec)


@lru_cache(maxsize=4096)
def _mp_hyp0f1(d: int, beta: mpmath.mpf, prec: int) -> mpmath.mpf:
    """``₀F₁(; d/2; β²)`` at ``prec`` bits, once per run for each β: a schedule's β is constant
    below L, so the crossing scan asks for the same value at many ``x``."""
    with mpmath.workprec(prec):
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
    scanned_x: mpmath.mpf | None = None  # no crossing: ISR < 1 certified on [ln 2, scanned_x]

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
                return Crossing(name, law, None, None, None, None, facts[0], facts, x)
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
                "unknown", f"ln ISR(e^{digits(hi, 12)}) ∈ {above} is not certainly > 0"
            )
    return _interval_fact(
        "proved",
        f"{below.reason}; ln ISR > {bound_text(above.a, 6, up=False)} "
        f"at ln M ≈ {digits(hi, 12)} (intermediate value theorem)",
        certificate=f"ln M* ∈ {interval_text(lo, hi, 12)}",
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
                    f"{digits(x.a, 12)} (an earlier crossing?)",
                )
    return _Outcome("proved", f"ISR < 1 on [2, e^{digits(x_end.a, 12)}] ({boxes} interval boxes)")


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
                f"ln ISR not certified < 0 at ln M = {digits(x.a, 12)} (an earlier crossing?)",
            )
        x = iv.mpf(min(reach, x_end.a))
    return _Outcome(
        "proved",
        f"ISR < 1 on [2, e^{digits(x_end.a, 12)}] "
        f"({steps} monotone steps, {exact_steps} with the certified 0F1)",
    )


# --- the crossings as formulas (for proofs.capacity) ----------------------------------------


def exact_log_isr(name: str, d: int, beta0: sympy.Rational, L: int) -> sympy.Expr:
    """``ln ISR(e^x) = x + ln(1 − e^(−x)) + ln ₀F₁(; d/2; β(x)²) − 2β(x)`` (exact law)."""
    b = schedule_beta_expr(name, beta0, L)
    return (
        _x
        + sympy.log(1 - sympy.exp(-_x))
        + sympy.log(sympy.hyper([], [sympy.Rational(d, 2)], b**2))
        - 2 * b
    )


def exact_crossing(
    name: str, c: Crossing, d: int, beta0: sympy.Rational, L: int
) -> sympy.Basic | None:
    """What the exact law's certificate says: ``ln ISR < 0`` on ``[ln 2, lo]`` and ``> 0`` at
    a point of ``[lo, hi]`` (rational ends outside the float bracket); None: no crossing."""
    if c.root_x is None:
        return None
    F = exact_log_isr(name, d, beta0, L)
    lo, hi = outward(c.lo_x, c.hi_x, 12)
    return sympy.And(
        ForAll(
            (_x,),
            sympy.StrictLessThan(F, 0, evaluate=False),
            domain=sympy.Interval(sympy.log(2), lo),
        ),
        Exists((_x,), sympy.StrictGreaterThan(F, 0, evaluate=False), domain=sympy.Interval(lo, hi)),
        evaluate=False,
    )


def crossing_facts(
    name: str, law: str, c: Crossing, d: int, beta0: sympy.Rational, L: int
) -> tuple[Fact, ...]:
    """The facts of a certified crossing; the exact law's oracle result restated with its
    formula (the same certificate, admitted the same way)."""
    facts = c.facts or (c.verdict,)
    formula = exact_crossing(name, c, d, beta0, L) if law == "exact" else None
    if law == "exact" and c.root_x is None and c.scanned_x is not None:
        # no crossing up to the scan limit: the certificate is ln ISR < 0 on [ln 2, scanned_x]
        # (a rational end below it), stated as that formula like a crossing's
        formula = ForAll(
            (_x,),
            sympy.StrictLessThan(exact_log_isr(name, d, beta0, L), 0, evaluate=False),
            domain=sympy.Interval(sympy.log(2), outward(c.scanned_x, c.scanned_x, 12)[0]),
        )
    if formula is None or len(facts) != 1 or facts[0].kind != ORACLE:
        return facts
    (fact,) = facts
    said = fact.formula.args[0].name if fact.formula.args else sympy.sstr(fact.formula)
    if fact.status != "proved":
        return (undecided(formula, fact.verdict.reason, fact.verdict.method),)
    return (oracle(said, fact.verdict.method, fact.verdict.certificate, formula),)
