"""Outward-rounded interval enclosures: the kernel's numeric evaluator.

``enclose(expr, bits, env)`` evaluates a SymPy expression in ``mpmath.iv`` interval arithmetic
(``env`` gives intervals for free symbols), giving an interval guaranteed to contain every value:
each operation rounds outward, functions ``iv`` lacks are built from ones it has (``tanh`` from
``exp``) or enclosed rigorously by Arb's ball arithmetic (``erf``, ``erfc`` and
``special.SPECIAL``, in ``symbolic.kernel.special``). Branches (``Max``, ``Min``, ``Abs``,
``Piecewise``) are taken only when the interval decides them. ``tight_enclosure`` doubles the
precision until the sign is known. The checkers built on it are in ``interval_checks`` (signs,
comparisons, bounds) and ``points`` (counterexamples).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import to_rational

from symbolic.kernel.logic import sympy_value
from symbolic.kernel.special import SPECIAL
from symbolic.kernel.special import erf as arb_erf
from symbolic.kernel.special import erfc as arb_erfc

START_BITS = 64
MAX_BITS = 4096  # separates differences down to ~1e-1200 relative to the terms


class CannotEnclose(Exception):
    """The expression has a form the interval evaluator does not handle (or is not real)."""


# What an interval evaluation may raise besides CannotEnclose: each means "not enclosed".
EVALUATION_ERRORS = (
    ZeroDivisionError,
    OverflowError,
    ValueError,
    TypeError,
    MemoryError,
    RecursionError,
)


def _erf(x):
    """A rigorous enclosure of erf on the interval x, from Arb (``iv`` has no rigorous erf)."""
    return arb_erf(x)


def _erfc(x):
    """erfc = 1 − erf, kept relative for large x (erfc(26) ≈ 5.7e-296), from Arb."""
    return arb_erfc(x)


def _abs(x):
    if x.a >= 0:
        return x
    if x.b <= 0:
        return -x
    return iv.mpf([0, max(-x.a, x.b)])


def _log(x):
    if x.a <= 0:
        raise CannotEnclose("log of a possibly non-positive number")
    return iv.log(x)


MAX_EXP_ARGUMENT = 2**40  # exp beyond this has an exponent too long to hold: not enclosed


def _exp(x):
    if x.b < -MAX_EXP_ARGUMENT:  # 0 < exp(x) < e^(−2^40) < 2^(−2^40): enclosed without computing it
        return iv.mpf([0, mpmath.ldexp(1, -MAX_EXP_ARGUMENT)])
    if max(abs(x.a), abs(x.b)) > MAX_EXP_ARGUMENT:
        raise CannotEnclose("exp of a number too large to enclose")
    return iv.exp(x)


def _pow(base, exponent: sympy.Expr, env, bits: int):
    if exponent.is_Integer:
        e = int(exponent)
        if abs(e) > 10**6:
            if base.a > 0:
                return _exp(iv.mpf(e) * iv.log(base))
            raise CannotEnclose("huge integer power of a possibly non-positive number")
        b = base if e >= 0 else 1 / base
        result = b ** abs(e) if abs(e) else iv.mpf(1)
        if e % 2 == 0 and result.a < 0:  # even power of an interval straddling 0
            result = iv.mpf([0, result.b])
        return result
    if exponent == sympy.S.Half:
        if base.a < 0:
            raise CannotEnclose("square root of a possibly negative number")
        return iv.sqrt(base)
    if base.a <= 0:
        if base.a == 0 and base.b == 0 and _enclose(exponent, env, bits).a > 0:
            return iv.mpf(0)
        raise CannotEnclose("non-integer power of a possibly non-positive number")
    return _exp(_enclose(exponent, env, bits) * iv.log(base))


def _asinh(x):
    return iv.log(x + iv.sqrt(x * x + 1)) if x.a >= 0 else -_asinh(-x)


def _acosh(x):
    if x.a < 1:
        raise CannotEnclose("acosh of a number possibly below 1")
    return iv.log(x + iv.sqrt(x * x - 1))


def _atanh(x):
    if not (x.a > -1 and x.b < 1):
        raise CannotEnclose("atanh outside (−1, 1)")
    return iv.log((1 + x) / (1 - x)) / 2


def _tanh(x):
    """tanh, increasing: its ends from x's ends, each as 1 − 2/(e^{2t} + 1) for t < 0 and
    2/(e^{−2t} + 1) − 1 for t ≥ 0, so that no exponential grows (tanh(10¹²) was not enclosed)."""

    def at(t):
        t = iv.mpf(t)
        return 2 / (_exp(-2 * t) + 1) - 1 if t.a >= 0 else 1 - 2 / (_exp(2 * t) + 1)

    return iv.mpf([at(x.a).a, at(x.b).b])


_FUNCS = {
    sympy.asinh: _asinh,
    sympy.acosh: _acosh,
    sympy.atanh: _atanh,
    sympy.exp: _exp,
    sympy.log: _log,
    sympy.tanh: _tanh,
    sympy.sinh: lambda x: (_exp(x) - _exp(-x)) / 2,
    sympy.cosh: lambda x: (_exp(x) + _exp(-x)) / 2,
    sympy.sin: iv.sin,  # mpmath's interval sin and cos round outward and include the extrema
    sympy.cos: iv.cos,
    sympy.erf: _erf,
    sympy.erfc: _erfc,
    sympy.Abs: _abs,
}


_CONSTANTS = {sympy.EulerGamma: "euler", sympy.Catalan: "catalan", sympy.GoldenRatio: "phi"}


def _enclose(expr: sympy.Expr, env: Mapping, bits: int):
    if expr in env:
        return env[expr]
    if expr.is_Integer:
        return iv.mpf(int(expr.p))
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / iv.mpf(int(expr.q))
    if expr is sympy.pi:
        return iv.pi
    if expr is sympy.E:
        return iv.e
    if expr in _CONSTANTS:  # mpmath's iv rounds its constants outward at iv.prec
        return getattr(iv, _CONSTANTS[expr])
    if expr.is_Float:
        p, q = to_rational(expr._mpf_)  # a binary float is an exact rational: every bit of
        return iv.mpf(p) / iv.mpf(q)  # it (mpmath.mpf would round to mpmath.mp's 53 bits)
    if expr.is_Add:
        total = iv.mpf(0)
        for arg in expr.args:
            total += _enclose(arg, env, bits)
        return total
    if expr.is_Mul:
        prod = iv.mpf(1)
        for arg in expr.args:
            prod *= _enclose(arg, env, bits)
        return prod
    if expr.is_Pow:
        return _pow(_enclose(expr.base, env, bits), expr.exp, env, bits)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [_enclose(a, env, bits) for a in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return iv.mpf([pick(p.a for p in parts), pick(p.b for p in parts)])
    if isinstance(expr, sympy.Piecewise):
        return _enclose_piecewise(expr, env, bits)
    if isinstance(expr, sympy.Heaviside):
        x = _enclose(expr.args[0], env, bits)
        if x.a > 0:
            return iv.mpf(1)
        if x.b < 0:
            return iv.mpf(0)
        raise CannotEnclose("Heaviside at a possibly zero argument")
    if isinstance(expr, sympy.sign):
        x = _enclose(expr.args[0], env, bits)
        if x.a > 0:
            return iv.mpf(1)
        if x.b < 0:
            return iv.mpf(-1)
        raise CannotEnclose("sign of a possibly zero argument")
    if isinstance(expr, sympy.CRootOf) and expr.is_real:
        return _root_interval(expr, bits)
    special = SPECIAL.get(expr.func)
    if special is not None:
        return special(*(_enclose(a, env, bits) for a in expr.args))
    fn = _FUNCS.get(expr.func)
    if fn is not None and len(expr.args) == 1:
        return fn(_enclose(expr.args[0], env, bits))
    raise CannotEnclose(f"no interval rule for {expr.func.__name__}")


MAX_ROOT_REFINEMENTS = 400  # bisection-like refinements of a root's isolating interval


def _root_interval(root: sympy.CRootOf, bits: int):
    """A real algebraic root enclosed by its isolating interval (exact rationals, from SymPy's
    root isolation), refined until it is about ``2**-bits`` wide."""
    interval = root._get_interval()
    width = sympy.Rational(1, 2 ** min(bits, 256))
    for _ in range(MAX_ROOT_REFINEMENTS):
        if interval.b - interval.a <= width * (1 + abs(interval.a)):
            break
        interval = interval.refine()
    lo, hi = sympy.Rational(interval.a), sympy.Rational(interval.b)
    return iv.mpf(
        [(iv.mpf(int(lo.p)) / iv.mpf(int(lo.q))).a, (iv.mpf(int(hi.p)) / iv.mpf(int(hi.q))).b]
    )


def _enclose_piecewise(expr: sympy.Piecewise, env, bits: int):
    for value, cond in expr.args:
        truth = _decide_condition(cond, env, bits)
        if truth is None:
            raise CannotEnclose("a Piecewise condition is undecided at this precision")
        if truth:
            return _enclose(value, env, bits)
    raise CannotEnclose("no Piecewise branch applies")


def _decide_condition(cond, env, bits: int) -> bool | None:
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if isinstance(cond, sympy.And):
        values = [_decide_condition(c, env, bits) for c in cond.args]
        return False if False in values else None if None in values else True
    if isinstance(cond, sympy.Or):
        values = [_decide_condition(c, env, bits) for c in cond.args]
        return True if True in values else None if None in values else False
    if isinstance(cond, sympy.core.relational.Relational):
        d = _enclose(cond.lhs - cond.rhs, env, bits)
        rel = cond.rel_op
        if rel in (">", ">="):
            if d.a > 0 or (rel == ">=" and d.a >= 0):
                return True
            if d.b < 0 or (rel == ">" and d.b <= 0):
                return False
        if rel in ("<", "<="):
            if d.b < 0 or (rel == "<=" and d.b <= 0):
                return True
            if d.a > 0 or (rel == "<" and d.a >= 0):
                return False
    return None


def enclose(expr: sympy.Expr, bits: int = START_BITS, env: Mapping | None = None):
    """An ``mpmath.iv`` interval containing every value of ``expr`` (free symbols from ``env``)."""
    expr = sympy_value(expr)
    env = dict(env or {})
    free = expr.free_symbols - set(env)
    if free:
        raise CannotEnclose(f"expression has free symbols {sorted(map(str, free))}")
    old = iv.prec
    iv.prec = bits
    try:
        return _enclose(expr, env, bits)
    except EVALUATION_ERRORS as exc:
        raise CannotEnclose(f"interval evaluation failed ({type(exc).__name__})") from None
    finally:
        iv.prec = old


@dataclass(frozen=True)
class Enclosure:
    """``lo ≤ value ≤ hi`` at ``bits`` of working precision."""

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
        """The interval, printed outward (the printed end points still enclose)."""
        with mpmath.workprec(self.bits + 16):
            lo = mpmath.nstr(self.lo - abs(self.lo) * mpmath.mpf(10) ** (1 - digits), digits)
            hi = mpmath.nstr(self.hi + abs(self.hi) * mpmath.mpf(10) ** (1 - digits), digits)
        return f"[{lo}, {hi}]"

    def rational_bounds(self) -> tuple[sympy.Rational, sympy.Rational]:
        """The end points as exact rationals (a binary float is a rational): every bit and the
        sign kept (``mpmath.mpf(x).man_exp`` would round to 53 bits and drop the sign)."""

        def exact(x: mpmath.mpf) -> sympy.Rational:
            p, q = to_rational(x._mpf_)
            return sympy.Rational(p, q)

        return exact(self.lo), exact(self.hi)


def tight_enclosure(
    expr: sympy.Expr, until_sign: bool = True, max_bits: int = MAX_BITS, env: Mapping | None = None
) -> Enclosure:
    """Enclose at increasing precision until the sign is known (or ``max_bits`` is reached)."""
    bits = START_BITS
    while True:
        box = enclose(expr, bits, env)
        with mpmath.workprec(bits):  # keep every bit of the end points
            enc = Enclosure(mpmath.mpf(box.a), mpmath.mpf(box.b), bits)
        if (until_sign and enc.excludes_zero) or bits >= max_bits:
            return enc
        bits *= 2
