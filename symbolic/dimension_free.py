"""Checkers for identities between layer expressions at general dimension.

``matrix_step`` decides a ``MatrixExpr`` identity (transpose, inverse, block and distributive
rules) at symbolic shapes; ``entry_step`` decides an identity between entries written as finite
sums with symbolic bounds, in a normal form that applies only linearity of sums and renaming of
bound indices. Both say *proved* only when the difference reduces to zero; otherwise *unknown*.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import cache

import sympy

from symbolic.budget import BudgetExceeded, time_limit
from symbolic.check import SIMPLIFY_TIMEOUT_S, decide_zero
from symbolic.engine import Step, Verdict
from symbolic.versions import backend


def matrix_identity(lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr,
                    timeout_s: float | None = None) -> Verdict:
    """Verdict on ``lhs = rhs`` for all values of the matrix symbols, at their symbolic shapes.

    Proved when SymPy's matrix-expression algebra rewrites ``lhs − rhs`` to a zero matrix
    (``doit``, ``block_collapse``, ``expand``); otherwise unknown, never refuted.
    """
    start = time.perf_counter()
    label, limit = backend("sympy"), timeout_s or SIMPLIFY_TIMEOUT_S
    if lhs.shape != rhs.shape:
        return Verdict.refuted("sympy", f"shapes differ: {lhs.shape} vs {rhs.shape}",
                               backend=label)
    try:
        with time_limit(limit):
            zero = _reduces_to_zero(_matrix_normal_form(lhs) - _matrix_normal_form(rhs))
    except (BudgetExceeded, RecursionError, TypeError, ValueError) as exc:
        return Verdict.unknown("sympy", f"matrix algebra undecided: {exc}", backend=label,
                               timeout_s=limit, seconds=time.perf_counter() - start)
    common = dict(backend=label, timeout_s=limit, seconds=time.perf_counter() - start)
    if zero:
        return Verdict.proved("sympy", f"MatrixExpr difference reduces to ZeroMatrix{lhs.shape}",
                              **common)
    return Verdict.unknown("sympy", "MatrixExpr difference not reduced to zero", **common)


def _reduces_to_zero(diff: sympy.MatrixExpr) -> bool:
    reduced = _matrix_normal_form(diff)
    if isinstance(reduced, sympy.ZeroMatrix) or reduced == 0:
        return True
    if isinstance(reduced, sympy.BlockMatrix):
        return all(_reduces_to_zero(b) for b in reduced.blocks)
    if isinstance(reduced, sympy.MatrixBase):
        return all(sympy.expand(e) == 0 for e in reduced)
    return False


def _matrix_normal_form(m: sympy.MatrixExpr) -> sympy.MatrixExpr:
    """``doit``, ``block_collapse``, ``expand`` — also inside every elementwise σ(·), so that
    σ(A) and σ(A') become identical when A and A' do (equal arguments, equal values)."""
    from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

    m = sympy.expand(sympy.block_collapse(m.doit())).doit()
    inner = {f: ElementwiseApplyFunction(sympy.Lambda(_ELEMENT, f.function(_ELEMENT)),
                                         _matrix_normal_form(f.expr))
             for f in m.atoms(ElementwiseApplyFunction)}
    return m.xreplace(inner) if inner else m


_ELEMENT = sympy.Dummy("ω")  # the one bound variable of every normalized σ(·) (see above)


def matrix_step(statement: str, lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr, rule: str,
                formula: sympy.Basic | None = None) -> Step:
    """A derivation step ``lhs = rhs`` between matrix expressions, checked by SymPy.

    ``formula`` is what the LaTeX printer shows (the plain ``statement`` when None): pass it
    when ``lhs`` and ``rhs`` print well, not when SymPy has already rewritten them.
    """
    return Step(statement, rule, matrix_identity(lhs, rhs), formula=formula)


def sum_normal_form(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with every finite sum rewritten by sound rules only.

    A sum over a single value is evaluated; factors free of a summation index move out of its
    sum and sums of terms split (linearity); bound indices are renamed by nesting depth
    (``Dummy`` symbols ``ι0``, ``ι1``, … from the outside in), so two sums that differ only in
    the names of their indices become identical. (SymPy flattens nested sums into one ``Sum``
    whose first limit is the innermost; the rules below respect that order.)
    """
    return _levels(_linear(expr), {}, 0)


def _linear(e: sympy.Basic) -> sympy.Basic:
    if not isinstance(e, sympy.Sum):
        return e.func(*(_linear(a) for a in e.args)) if e.args else e
    body = _linear(e.function)
    for v, lo, hi in e.limits:  # innermost first
        lo, hi = _linear(lo), _linear(hi)
        body = body.xreplace({v: lo}) if lo == hi else _split_sum(body, v, lo, hi)
    return body


def _split_sum(body: sympy.Expr, v: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr) -> sympy.Expr:
    if body.is_Add:
        return sympy.Add(*(_split_sum(t, v, lo, hi) for t in body.args))
    factors = sympy.Mul.make_args(body)
    outside = [f for f in factors if v not in f.free_symbols]
    inside = [f for f in factors if v in f.free_symbols]
    if not inside:
        return sympy.Mul(*outside) * (hi - lo + 1)
    return sympy.Mul(*outside) * sympy.Sum(sympy.Mul(*inside), (v, lo, hi))


def _levels(e: sympy.Basic, env: dict, depth: int) -> sympy.Basic:
    if isinstance(e, sympy.Sum):
        limits = []
        for v, lo, hi in reversed(e.limits):  # outermost first
            name = _level(depth)
            limits.append((name, _levels(lo, env, depth), _levels(hi, env, depth)))
            env, depth = {**env, v: name}, depth + 1
        return sympy.Sum(_levels(e.function, env, depth), *reversed(limits))
    if e in env:
        return env[e]
    return e.func(*(_levels(a, env, depth) for a in e.args)) if e.args else e


@cache
def _level(depth: int) -> sympy.Dummy:
    """The bound index at nesting ``depth``: one Dummy per depth, never equal to a user symbol."""
    return sympy.Dummy(f"ι{depth}", integer=True)


def exchange_outer_sums(expr: sympy.Expr) -> sympy.Expr:
    """``Σ_k Σ_i f = Σ_i Σ_k f`` for the two outermost indices of a finite sum (Fubini)."""
    if not isinstance(expr, sympy.Sum) or len(expr.limits) < 2:
        raise ValueError(f"expected a double sum, got {sympy.sstr(expr)[:80]}")
    *rest, (i, ilo, ihi), (k, klo, khi) = expr.limits
    if i in (klo.free_symbols | khi.free_symbols) or k in (ilo.free_symbols | ihi.free_symbols):
        raise ValueError("the bounds of the two outer sums depend on each other")
    return sympy.Sum(expr.function, *rest, (k, klo, khi), (i, ilo, ihi))


def entry_identity(lhs: sympy.Expr, rhs: sympy.Expr) -> Verdict:
    """Verdict on ``lhs = rhs`` between entries (finite sums), compared in ``sum_normal_form``."""
    verdict = decide_zero(sum_normal_form(lhs) - sum_normal_form(rhs))
    if verdict.status == "proved":
        verdict = replace(verdict, reason="equal in sum normal form (linearity, index renaming)")
    return verdict


def entry_step(statement: str, lhs: sympy.Expr, rhs: sympy.Expr, rule: str,
               formula: sympy.Basic | None = None) -> Step:
    """A derivation step between entries of matrix expressions, checked by SymPy."""
    return Step(statement, rule, entry_identity(lhs, rhs), formula=formula)
