"""Evaluate a SymPy activation on numpy arrays by walking its tree (no code generation).

The expression comes from the whitelist parser or the activation table, so the heads are few;
an unknown head raises ``LookupError`` instead of guessing. Elementary functions are evaluated by
their row's ``numpy`` column (``symbolic.languages.functions``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy

from symbolic.activations import z
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
