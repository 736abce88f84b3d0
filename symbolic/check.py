"""The SymPy step checker: decide ``lhs = rhs`` or say ``unknown``.

A difference that SymPy rewrites to exactly ``0`` is *proved*; one that evaluates to an exact
nonzero number is *refuted* (exact arithmetic); anything else is *unknown* — an undecided
simplification is never a pass. Every call is bounded by ``SIMPLIFY_TIMEOUT_S``.

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> equal_step((a + b)**2, a**2 + 2*a*b + b**2, "expand").verdict.status
'proved'
>>> equal_step(a * 2, a + 1, "expand").verdict.status
'unknown'
>>> equal_step(sympy.Integer(2), sympy.Integer(3), "arithmetic").verdict.status
'refuted'
"""

from __future__ import annotations

import time

import sympy

from symbolic.budget import BudgetExceeded, current_limits, time_limit
from symbolic.engine import Step, Verdict
from symbolic.versions import backend

# Long enough for every derivation in the toolkit (each takes milliseconds); short enough that a
# hostile expression gives `unknown` quickly.
SIMPLIFY_TIMEOUT_S = 3.0


def _zero_form(expr: sympy.Expr) -> sympy.Expr:
    """Cheap rewrites first, ``simplify`` last."""
    if expr == 0:
        return expr
    for rewrite in (sympy.expand, sympy.cancel, sympy.simplify, _exp_form):
        expr = rewrite(expr)
        if expr == 0:
            break
    return expr


def _exp_form(expr: sympy.Expr) -> sympy.Expr:
    """Hyperbolic functions written with exp, then simplified (catches disguised identities)."""
    if not expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth):
        return expr
    return sympy.simplify(sympy.expand(expr.rewrite(sympy.exp)))


def decide_zero(expr: sympy.Expr, timeout_s: float = SIMPLIFY_TIMEOUT_S) -> Verdict:
    """Verdict on ``expr == 0`` (identically, for all values of its symbols).

    ``budget.limits(sympy_timeout_s=...)`` caps ``timeout_s`` for every call in its block.
    """
    forced = current_limits().sympy_timeout_s
    if forced is not None:
        timeout_s = min(timeout_s, forced)
    start = time.perf_counter()
    label = backend("sympy")
    try:
        with time_limit(timeout_s):
            reduced = _zero_form(sympy.sympify(expr))
            nonzero_number = reduced.is_number and reduced.is_zero is False
    except BudgetExceeded as exc:
        return Verdict.unknown("sympy", f"simplification undecided: {exc}", backend=label,
                               timeout_s=timeout_s, seconds=time.perf_counter() - start)
    except (RecursionError, MemoryError, OverflowError) as exc:
        return Verdict.unknown("sympy", f"simplification failed: {type(exc).__name__}",
                               backend=label, timeout_s=timeout_s,
                               seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if reduced == 0:
        return Verdict.proved("sympy", "difference simplifies to 0", backend=label,
                              timeout_s=timeout_s, seconds=seconds)
    if nonzero_number:
        method = "exact" if reduced.is_Rational else "sympy"
        return Verdict.refuted(method, f"difference is the nonzero number {sympy.sstr(reduced)}",
                               certificate=f"lhs - rhs = {sympy.sstr(reduced)}",
                               backend=label, timeout_s=timeout_s, seconds=seconds)
    return Verdict.unknown("sympy", f"difference not reduced to 0: {sympy.sstr(reduced)[:120]}",
                           backend=label, timeout_s=timeout_s, seconds=seconds)


def equal_step(lhs: sympy.Expr, rhs: sympy.Expr, rule: str, statement: str | None = None,
               timeout_s: float = SIMPLIFY_TIMEOUT_S) -> Step:
    """A derivation step ``lhs = rhs`` checked by SymPy."""
    lhs, rhs = sympy.sympify(lhs), sympy.sympify(rhs)
    text = statement or f"{sympy.sstr(lhs)} = {sympy.sstr(rhs)}"
    formula = sympy.Eq(lhs, rhs, evaluate=False)
    return Step(text, rule, decide_zero(lhs - rhs, timeout_s), formula=formula)


def equal_matrices_step(lhs: sympy.MatrixBase, rhs: sympy.MatrixBase, rule: str,
                        statement: str, timeout_s: float = SIMPLIFY_TIMEOUT_S) -> Step:
    """A step ``lhs = rhs`` between matrices, checked entry by entry."""
    if lhs.shape != rhs.shape:
        verdict = Verdict.refuted("exact", f"shapes differ: {lhs.shape} vs {rhs.shape}")
        return Step(statement, rule, verdict)
    verdicts = [decide_zero(a - b, timeout_s) for a, b in zip(lhs, rhs, strict=True)]
    from symbolic.engine import combine

    return Step(statement, rule, combine(verdicts, "entry"))
