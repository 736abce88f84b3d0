"""Evaluate a SymPy activation on numpy arrays by walking its tree (no code generation).

The expression comes from the whitelist parser or the activation table, so the heads are few;
an unknown head raises ``LookupError`` instead of guessing. Elementary functions are evaluated by
their row's ``numpy`` column (``symbolic.languages.functions``). ``precise_function`` and
``correctly_rounded`` give σ correctly rounded to float64 instead, computed at high precision.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy

from symbolic.activations import z
from symbolic.kernel import at
from symbolic.languages.functions import BY_HEAD

# The elementary functions come from their rows in the functions table; these are branches.
_BRANCHES: dict[type, Callable[[np.ndarray], np.ndarray]] = {
    sympy.Abs: np.abs,
    sympy.sign: np.sign,
}


def numpy_function(expr: sympy.Expr, var: sympy.Symbol = z) -> Callable[[np.ndarray], np.ndarray]:
    """A float64 numpy function equal to ``expr`` as a function of ``var``."""

    def f(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(all="ignore"):
            return np.broadcast_to(_eval(expr, var, x), x.shape).astype(np.float64)

    return f


def _eval(e: sympy.Expr, var: sympy.Symbol, x: np.ndarray) -> np.ndarray:
    if e == var:
        return x
    if e.is_Number or e in (sympy.pi, sympy.E):
        return np.float64(float(e))
    if e.is_Add:
        return sum((_eval(a, var, x) for a in e.args), np.float64(0.0))
    if e.is_Mul:
        out = np.float64(1.0)
        for a in e.args:
            out = out * _eval(a, var, x)
        return out
    if e.is_Pow:
        base = _eval(e.base, var, x)
        if e.exp.is_Integer:
            return base ** int(e.exp)
        return np.power(base, _eval(e.exp, var, x))
    if isinstance(e, (sympy.Max, sympy.Min)):
        reduce = np.maximum if isinstance(e, sympy.Max) else np.minimum
        out = _eval(e.args[0], var, x)
        for a in e.args[1:]:
            out = reduce(out, _eval(a, var, x))
        return out
    if isinstance(e, sympy.Piecewise):
        conds = [_condition(c, var, x) for _, c in e.args]
        values = [np.broadcast_to(_eval(v, var, x), x.shape) for v, _ in e.args]
        return np.select(conds, values, default=np.nan)
    spec = BY_HEAD.get(e.func)
    fn = spec.numpy if spec is not None else _BRANCHES.get(e.func)
    if fn is not None:
        return fn(_eval(e.args[0], var, x))
    raise LookupError(f"no numpy rule for {e.func.__name__}")


def _condition(c, var: sympy.Symbol, x: np.ndarray) -> np.ndarray:
    if c in (sympy.true, True):
        return np.ones(x.shape, dtype=bool)
    if c in (sympy.false, False):
        return np.zeros(x.shape, dtype=bool)
    ops = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}
    if isinstance(c, sympy.core.relational.Relational) and c.rel_op in ops:
        return np.broadcast_to(ops[c.rel_op](_eval(c.lhs, var, x), _eval(c.rhs, var, x)), x.shape)
    if isinstance(c, sympy.And):
        return np.logical_and.reduce([_condition(a, var, x) for a in c.args])
    if isinstance(c, sympy.Or):
        return np.logical_or.reduce([_condition(a, var, x) for a in c.args])
    if isinstance(c, sympy.Not):
        return np.logical_not(_condition(c.args[0], var, x))
    if isinstance(c, sympy.logic.boolalg.ITE):  # if A then B else C (nested Piecewise)
        a, b, d = (_condition(arg, var, x) for arg in c.args)
        return np.where(a, b, d)
    raise LookupError(f"no numpy rule for condition {c}")


PRECISE_DIGITS = 30  # σ evaluated by SymPy/mpmath at this many digits, then rounded to float64
PRECISE_MAXN = 400  # working digits SymPy's adaptive evalf may use for cancelling terms


def precise_function(expr: sympy.Expr) -> Callable[[np.ndarray], np.ndarray]:
    """σ correctly rounded to float64: each value computed at ``PRECISE_DIGITS`` digits (by
    substitution, no code generation). For σ that float64 evaluates with cancellation
    (``x·(cosh²x − sinh²x)``), where a kept symmetry would otherwise look broken. Where
    float64 overflows σ (2**2**2**2**2**x at x = 1) its value is kept: beyond float64's range
    there is nothing to compare, and the exact value may take unbounded work."""
    fast = numpy_function(expr)
    expr = _constants_evaluated(expr)

    def value(v: float) -> float:
        rough = float(fast(np.array([v]))[0])
        if not np.isfinite(rough):
            return rough
        try:  # at(): substituted unevaluated, branches decided by enclosures
            out = at(expr, {z: sympy.Rational(v)}).evalf(PRECISE_DIGITS, maxn=PRECISE_MAXN)
            if out.is_real:  # not chopped: tanh(345) - 1 is -2.4e-300, not 0
                return float(out)
            re, im = out.as_real_imag()  # a round-off imaginary part of a real value
            return float(re) if abs(im) <= 10.0**-PRECISE_DIGITS * (abs(re) + 1) else float("nan")
        except (ValueError, TypeError, ArithmeticError):  # SymPy could not evaluate it (a
            return float("nan")  # branch no enclosure decides stays a Piecewise: no float)

    vectorized = np.vectorize(value, otypes=[np.float64])
    return lambda a: vectorized(np.asarray(a, dtype=np.float64))


def _constants_evaluated(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with each cancelling constant sum (``erf(26) - 1``) evaluated once, to more
    digits than are kept: SymPy's adaptive evaluation of it is costly at every point. Other
    constants stay exact (a Float √2 in gelu would turn an exact 0 into round-off noise)."""
    if not expr.free_symbols:
        return _evaluated_if_cancelling(expr)
    if not expr.args or isinstance(expr, sympy.Piecewise):
        return expr
    return expr.func(*(_constants_evaluated(a) for a in expr.args))


def _evaluated_if_cancelling(constant: sympy.Expr) -> sympy.Expr:
    if not isinstance(constant, sympy.Add):
        return constant
    terms = [abs(sympy.N(a, 15)) for a in constant.args]
    value = constant.evalf(2 * PRECISE_DIGITS, maxn=PRECISE_MAXN)
    return value if abs(value) < 2.0**-30 * max(terms) else constant


def correctly_rounded(expr: sympy.Expr) -> Callable[[sympy.Expr], float]:
    """σ at an exact point, correctly rounded to float64 (no float in between)."""
    exact = _constants_evaluated(expr)
    return lambda v: float(at(exact, {z: v}).evalf(PRECISE_DIGITS, maxn=PRECISE_MAXN))
