"""Certificates for witnesses: exact rational arithmetic, else mpmath interval arithmetic.

``enclose(expr, bits)`` evaluates a closed SymPy expression (no free symbols) in interval
arithmetic (``mpmath.iv``), giving an interval guaranteed to contain its value: every operation
rounds outward, and functions ``iv`` lacks are built from ones it has (``tanh`` from ``exp``) or
enclosed rigorously (``erf`` by its alternating Taylor series with the remainder bound, or by
the tail bound ``erfc(x) ≤ exp(−x²)/(x√π)`` for large ``|x|``).

``certify_nonzero(expr)`` decides ``expr ≠ 0``: exactly when SymPy reduces ``expr`` to a
rational, otherwise by enclosures at increasing precision until the interval excludes 0.
A float tolerance never certifies anything: ``1 + 1e-30 − 1`` is certified nonzero.

>>> import sympy
>>> certify_nonzero(sympy.Rational(1, 10**30)).status
'proved'
>>> certify_nonzero(2 / (1 + sympy.exp(-2)) - 4 / (1 + sympy.exp(-1))).certificate[:6]
'value '
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import mpmath
import sympy
from mpmath import iv

from symbolic.budget import BudgetExceeded, time_limit
from symbolic.engine import Verdict
from symbolic.versions import backend

START_BITS = 64
MAX_BITS = 4096  # separates differences down to ~1e-1200 relative to the terms
CERTIFY_TIMEOUT_S = 2.0
ERF_TAIL_FROM = 6  # |x| ≥ 6: use the erfc tail bound instead of the Taylor series


class CannotEnclose(Exception):
    """The expression has a form the interval evaluator does not handle (or is not real)."""


def _erf(x):
    """A rigorous enclosure of erf on the interval x (``iv`` has no erf)."""
    lo, hi = x.a, x.b
    if lo >= ERF_TAIL_FROM or hi <= -ERF_TAIL_FROM:
        sign = 1 if lo >= ERF_TAIL_FROM else -1
        m = iv.mpf(lo if sign > 0 else -hi)  # |x| ≥ m ≥ 6: 0 < erfc(|x|) ≤ exp(−m²)/(m√π)
        tail = iv.exp(-m * m) / (m * iv.sqrt(iv.pi))
        inner = 1 - iv.mpf([0, tail.b])
        return inner if sign > 0 else -inner
    if lo < 0 < hi or hi - lo > 1 or max(abs(lo), abs(hi)) >= ERF_TAIL_FROM:
        # erf is increasing: enclose the end points separately.
        a, b = _erf(iv.mpf(lo)), _erf(iv.mpf(hi))
        return iv.mpf([a.a, b.b])
    # 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1)); terms decrease in size once n+1 > x², and the
    # remainder of an alternating series with decreasing terms is bounded by the next term.
    total, term, n = iv.mpf(0), x, 0
    x2 = x * x
    while True:
        piece = term / (2 * n + 1)
        if n + 1 > x2.b and abs(piece).b < iv.mpf(2) ** (-(iv.prec + 8)):
            remainder = abs(piece).b
            total += iv.mpf([-remainder, remainder])
            break
        total += piece
        n += 1
        term = -term * x2 / n
    return 2 / iv.sqrt(iv.pi) * total


def _abs(x):
    if x.a >= 0:
        return x
    if x.b <= 0:
        return -x
    return iv.mpf([0, max(-x.a, x.b)])


def _pow(base, exponent: sympy.Expr, bits: int):
    if exponent.is_Integer:
        e = int(exponent)
        result = iv.mpf(1)
        b = base if e >= 0 else 1 / base
        for _ in range(abs(e)):
            result = result * b
        if e % 2 == 0 and result.a < 0:  # even power of an interval straddling 0
            result = iv.mpf([0, result.b])
        return result
    if exponent == sympy.S.Half:
        if base.a < 0:
            raise CannotEnclose("square root of a possibly negative number")
        return iv.sqrt(base)
    if base.a <= 0:
        raise CannotEnclose("non-integer power of a possibly non-positive number")
    return iv.exp(_enclose(exponent, bits) * iv.log(base))


_FUNCS = {
    sympy.exp: iv.exp,
    sympy.log: lambda x: iv.log(x) if x.a > 0 else _raise("log of a possibly non-positive number"),
    sympy.tanh: lambda x: 1 - 2 / (iv.exp(2 * x) + 1),
    sympy.sinh: lambda x: (iv.exp(x) - iv.exp(-x)) / 2,
    sympy.cosh: lambda x: (iv.exp(x) + iv.exp(-x)) / 2,
    sympy.erf: _erf,
    sympy.erfc: lambda x: 1 - _erf(x),
    sympy.Abs: _abs,
}


def _raise(message: str):
    raise CannotEnclose(message)


def _enclose(expr: sympy.Expr, bits: int):
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / iv.mpf(int(expr.q))
    if expr is sympy.pi:
        return iv.pi
    if expr is sympy.E:
        return iv.e
    if expr.is_Float:
        return iv.mpf(mpmath.mpf(expr._mpf_))  # a binary float is an exact rational
    if expr.is_Add:
        total = iv.mpf(0)
        for arg in expr.args:
            total += _enclose(arg, bits)
        return total
    if expr.is_Mul:
        prod = iv.mpf(1)
        for arg in expr.args:
            prod *= _enclose(arg, bits)
        return prod
    if expr.is_Pow:
        return _pow(_enclose(expr.base, bits), expr.exp, bits)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [_enclose(a, bits) for a in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return iv.mpf([pick(p.a for p in parts), pick(p.b for p in parts)])
    if isinstance(expr, sympy.Piecewise):
        return _enclose_piecewise(expr, bits)
    fn = _FUNCS.get(expr.func)
    if fn is not None and len(expr.args) == 1:
        return fn(_enclose(expr.args[0], bits))
    raise CannotEnclose(f"no interval rule for {expr.func.__name__}")


def _enclose_piecewise(expr: sympy.Piecewise, bits: int):
    for value, cond in expr.args:
        truth = _decide_condition(cond, bits)
        if truth is None:
            raise CannotEnclose("a Piecewise condition is undecided at this precision")
        if truth:
            return _enclose(value, bits)
    raise CannotEnclose("no Piecewise branch applies")


def _decide_condition(cond, bits: int) -> bool | None:
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if isinstance(cond, sympy.core.relational.Relational):
        d = _enclose(cond.lhs - cond.rhs, bits)
        rel = cond.rel_op
        if rel in (">", ">="):
            if d.a > 0:
                return True
            if d.b < 0:
                return False
        if rel in ("<", "<="):
            if d.b < 0:
                return True
            if d.a > 0:
                return False
    return None


def enclose(expr: sympy.Expr, bits: int = START_BITS):
    """An ``mpmath.iv`` interval containing the value of the closed expression ``expr``."""
    expr = sympy.sympify(expr)
    if expr.free_symbols:
        raise CannotEnclose(f"expression has free symbols {sorted(map(str, expr.free_symbols))}")
    old = iv.prec
    iv.prec = bits
    try:
        return _enclose(expr, bits)
    finally:
        iv.prec = old


@dataclass(frozen=True)
class Enclosure:
    """``lo ≤ value ≤ hi`` at ``bits`` of working precision (strings keep every digit)."""

    lo: mpmath.mpf
    hi: mpmath.mpf
    bits: int

    @property
    def excludes_zero(self) -> bool:
        return self.lo > 0 or self.hi < 0

    @property
    def sign(self) -> int:
        return 1 if self.lo > 0 else -1 if self.hi < 0 else 0

    def text(self, digits: int = 12) -> str:
        # Widen by one unit in the last printed digit so the printed interval still encloses.
        lo_text = mpmath.nstr(self.lo - abs(self.lo) * mpmath.mpf(10) ** (1 - digits), digits)
        hi_text = mpmath.nstr(self.hi + abs(self.hi) * mpmath.mpf(10) ** (1 - digits), digits)
        return f"[{lo_text}, {hi_text}]"


def tight_enclosure(expr: sympy.Expr, until_sign: bool = True,
                    max_bits: int = MAX_BITS) -> Enclosure:
    """Enclose at increasing precision until the sign is known (or ``max_bits`` is reached)."""
    bits = START_BITS
    while True:
        box = enclose(expr, bits)
        with mpmath.workprec(bits):  # keep every bit of the end points
            enc = Enclosure(mpmath.mpf(box.a), mpmath.mpf(box.b), bits)
        if (until_sign and enc.excludes_zero) or bits >= max_bits:
            return enc
        bits *= 2


def certify_nonzero(expr: sympy.Expr, timeout_s: float = CERTIFY_TIMEOUT_S,
                    max_bits: int = MAX_BITS) -> Verdict:
    """Verdict on ``expr ≠ 0`` for a closed expression: exact, or by interval arithmetic."""
    start = time.perf_counter()
    try:
        with time_limit(timeout_s):
            value = sympy.sympify(expr)
            if value.is_Rational:
                seconds = time.perf_counter() - start
                if value != 0:
                    return Verdict.proved("exact", "exact rational value",
                                          certificate=f"value = {value}",
                                          backend=backend("sympy"), seconds=seconds)
                return Verdict.refuted("exact", "the value is exactly 0",
                                       certificate="value = 0", seconds=seconds)
            enc = tight_enclosure(value, max_bits=max_bits)
    except BudgetExceeded as exc:
        return Verdict.unknown("interval", str(exc), timeout_s=timeout_s,
                               seconds=time.perf_counter() - start)
    except (CannotEnclose, ZeroDivisionError, OverflowError, ValueError) as exc:
        return Verdict.unknown("interval", f"cannot enclose: {exc}",
                               seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if enc.excludes_zero:
        return Verdict.proved("interval", f"interval excludes 0 at {enc.bits} bits",
                              certificate=f"value ∈ {enc.text()} ({enc.bits}-bit mpmath.iv)",
                              backend=backend("mpmath"), timeout_s=timeout_s, seconds=seconds)
    return Verdict.unknown("interval", f"interval {enc.text()} contains 0 at {enc.bits} bits",
                           backend=backend("mpmath"), timeout_s=timeout_s, seconds=seconds)


def certified_float(expr: sympy.Expr) -> float:
    """A float inside the certified enclosure of ``expr`` (for numeric replay)."""
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return float(expr)
    box = enclose(expr, 128)
    return float((mpmath.mpf(box.a) + mpmath.mpf(box.b)) / 2)


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
