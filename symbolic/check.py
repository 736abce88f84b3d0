"""Derivation steps checked by SymPy: thin wrappers that turn kernel facts into steps.

``equal_step(lhs, rhs, rule, note=...)`` is the step ``lhs = rhs`` checked by
``symbolic.kernel.check_equal``; its statement is that formula, and ``note`` is prose shown
beside it (never instead of it).

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> equal_step((a + b)**2, a**2 + 2*a*b + b**2, "expand").verdict.status
'proved'
>>> equal_step(a * 2, a + 1, "expand").verdict.reason
'lhs − rhs is certified nonzero at a = 7/5'
>>> equal_step(sympy.Integer(2), sympy.Integer(3), "arithmetic").verdict.status
'refuted'
"""

from __future__ import annotations

import sympy

from symbolic.engine import Step
from symbolic.kernel import SIMPLIFY_TIMEOUT_S, check_equal, check_matrix_equal, zero_verdict

__all__ = ["SIMPLIFY_TIMEOUT_S", "decide_zero", "equal_matrices_step", "equal_step"]

decide_zero = zero_verdict  # read-only use: a verdict that guides a search, never a step


def equal_step(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    rule: str,
    *,
    note: str = "",
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
) -> Step:
    """A derivation step ``lhs = rhs`` checked by SymPy."""
    return Step(check_equal(lhs, rhs, timeout_s), rule, note)


def equal_matrices_step(
    lhs: sympy.MatrixBase,
    rhs: sympy.MatrixBase,
    rule: str,
    *,
    note: str = "",
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
) -> Step:
    """A step ``lhs = rhs`` between explicit matrices, checked entry by entry."""
    return Step(check_matrix_equal(lhs, rhs, timeout_s), rule, note)
