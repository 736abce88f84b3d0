"""Steps between layer expressions at general dimension (checked by the kernel).

``matrix_step`` is a ``MatrixExpr`` identity at symbolic shapes
(``symbolic.kernel.check_matrix_expr_equal``); ``entry_step`` an identity between entries written
as finite sums with symbolic bounds (``check_sum_equal``, in ``sum_normal_form``).
``exchange_outer_sums`` builds the Fubini-swapped form of a double sum for a derivation to
state (the kernel then checks the step it appears in).
"""

from __future__ import annotations

import sympy

from symbolic.engine import Step
from symbolic.kernel import check_matrix_expr_equal, check_sum_equal, sum_normal_form

__all__ = [
    "entry_identity",
    "entry_step",
    "exchange_outer_sums",
    "matrix_identity",
    "matrix_step",
    "sum_normal_form",
]


def matrix_identity(lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr):
    """The kernel's verdict on ``lhs = rhs`` at symbolic shapes (read-only)."""
    return check_matrix_expr_equal(lhs, rhs).verdict


def entry_identity(lhs: sympy.Expr, rhs: sympy.Expr):
    """The kernel's verdict on ``lhs = rhs`` between entries in sum normal form (read-only)."""
    return check_sum_equal(lhs, rhs).verdict


def matrix_step(lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr, rule: str, *, note: str = "") -> Step:
    """A derivation step ``lhs = rhs`` between matrix expressions, checked by SymPy."""
    return Step(check_matrix_expr_equal(lhs, rhs), rule, note)


def entry_step(lhs: sympy.Expr, rhs: sympy.Expr, rule: str, *, note: str = "") -> Step:
    """A derivation step between entries of matrix expressions, checked in sum normal form."""
    return Step(check_sum_equal(lhs, rhs), rule, note)


def exchange_outer_sums(expr: sympy.Expr) -> sympy.Expr:
    """``Σ_k Σ_i f = Σ_i Σ_k f`` for the two outermost indices of a finite sum (Fubini)."""
    if not isinstance(expr, sympy.Sum) or len(expr.limits) < 2:
        raise ValueError(f"expected a double sum, got {sympy.sstr(expr)[:80]}")
    *rest, (i, ilo, ihi), (k, klo, khi) = expr.limits
    if i in (klo.free_symbols | khi.free_symbols) or k in (ilo.free_symbols | ihi.free_symbols):
        raise ValueError("the bounds of the two outer sums depend on each other")
    return sympy.Sum(expr.function, *rest, (k, klo, khi), (i, ilo, ihi))
