"""Steps and readings for theorem modules and untrusted search: thin wrappers around the kernel.

A **step** is a kernel fact with the rule that justifies it and a prose note (never instead of
the formula): ``equal_step`` (``lhs = rhs`` by SymPy), ``equal_matrices_step`` (explicit
matrices), ``z3_step`` (a formula ``build(z3)`` Z3 checks, so callers never import z3),
``matrix_step`` (a ``MatrixExpr`` identity at symbolic shapes), ``entry_step`` (entries written
as finite sums with symbolic bounds, in ``sum_normal_form``). ``exchange_outer_sums`` builds
the Fubini-swapped form of a double sum for a derivation to state.

A **reading** guides a search without deciding anything: ``matrix_identity``,
``entry_identity``, ``certify_nonzero`` (the kernel's verdict, read-only), ``certified_float``
(a float inside a certified enclosure, for numeric replay), ``certified_sign``.

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> equal_step((a + b)**2, a**2 + 2*a*b + b**2, "expand").verdict.status
'proved'
>>> equal_step(a * 2, a + 1, "expand").verdict.reason
'lhs − rhs is certified nonzero at a = 7/5'
>>> certify_nonzero(sympy.Rational(1, 10**30)).status
'proved'
>>> certified_sign(2 / (1 + sympy.exp(-2)) - 4 / (1 + sympy.exp(-1)))
-1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import sympy

from symbolic.engine import Step
from symbolic.kernel import (
    CERTIFY_TIMEOUT_S,
    MAX_BITS,
    SIMPLIFY_TIMEOUT_S,
    Z3_TIMEOUT_MS,
    CannotEnclose,
    as_input,
    check_equal,
    check_matrix_equal,
    check_matrix_expr_equal,
    check_nonzero,
    check_sum_equal,
    check_valid,
    enclose,
    tight_enclosure,
)


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


def z3_step(
    build: Callable[[Any], Any],
    rule: str = "Z3: is the negation unsat?",
    *,
    note: str = "",
    timeout_ms: int = Z3_TIMEOUT_MS,
) -> Step:
    """A derivation step whose formula ``build(z3)`` Z3 checks."""
    return Step(check_valid(build, timeout_ms), rule, note)


def uninterpreted_sigma(z3mod: Any, name: str = "sigma") -> Any:
    """An uninterpreted function σ: R → R (nothing assumed about it)."""
    return z3mod.Function(name, z3mod.RealSort(), z3mod.RealSort())


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


def certify_nonzero(
    expr: sympy.Expr, timeout_s: float = CERTIFY_TIMEOUT_S, max_bits: int = MAX_BITS
):
    """The kernel's verdict on ``expr ≠ 0`` (read-only; steps use ``check_nonzero``'s fact)."""
    return check_nonzero(expr, timeout_s, max_bits).verdict


def certified_float(expr: sympy.Expr) -> float:
    """A float inside the certified enclosure of ``expr`` (for numeric replay), at a precision
    that makes the enclosure narrow (cancellation such as cosh(80)² − sinh(80)² needs bits)."""
    expr = as_input(expr, "expr")  # never text: sympify would parse and run it
    if expr.is_Rational:
        return float(expr)
    bits = 128
    while True:
        try:
            box = enclose(expr, bits)
        except CannotEnclose:  # a replay value only: SymPy's own evaluation will do
            value = sympy.N(expr, 30)
            return float(value) if value.is_real else float("nan")
        lo, hi = mpmath.mpf(box.a), mpmath.mpf(box.b)
        mid = (lo + hi) / 2
        if hi - lo <= abs(mid) * mpmath.mpf(2) ** -60 or bits >= MAX_BITS:
            return float(mid)
        bits *= 2


def certified_sign(expr: sympy.Expr) -> int | None:
    """The sign (−1, 0, 1) of a closed expression, exactly or by intervals; None if undecided."""
    expr = as_input(expr, "expr")  # never text: sympify would parse and run it
    if expr.is_Rational:
        return int(expr.p > 0) - int(expr.p < 0)
    try:
        sign = tight_enclosure(expr).sign
    except (CannotEnclose, ZeroDivisionError, OverflowError, ValueError):
        return None
    return sign or None
