"""Exact powers too large to compute, kept unevaluated so that no check hangs on one.

SymPy computes ``3**(10**8)`` while merely building a sum with it, in one C call that no time
limit interrupts. ``has_huge_power`` finds such powers, ``difference`` builds ``lhs − rhs``
around them and ``evaluated`` rebuilds an expression with SymPy's evaluation everywhere else:
the enclosures (``symbolic.kernel.intervals``) judge what is left.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.float_blind import sign_judged_by_float
from symbolic.kernel.logic import literal
from symbolic.limits import BudgetExceeded, deadline

MAX_EXACT_POWER_BITS = 100_000  # an exact power b**n beyond this stays unevaluated
MAX_ROOT_INDEX_BITS = 64  # b**(p/q) with q beyond 2**64 too: SymPy would factor b for roots


def evaluated(e: sympy.Basic) -> sympy.Basic:
    """Rebuild bottom up with SymPy's ordinary evaluation, except exact powers too large to
    compute (2**2**2**2**2**2, 3**(1 + 10**-1240)) and heads SymPy would take by the float sign
    of a closed number (``float_blind``): those, and everything above them, stay unevaluated
    for the enclosures to judge (SymPy would recombine and compute them)."""
    return _rebuilt(e)[0]


def _rebuilt(e: sympy.Basic) -> tuple[sympy.Basic, bool]:
    """``e`` rebuilt, and whether it holds a power left unevaluated."""
    if not e.args:
        return e, False
    built = [_rebuilt(a) for a in e.args]
    args = tuple(a for a, _ in built)
    if any(kept for _, kept in built):
        try:
            return e.func(*args, evaluate=False), True
        except TypeError:  # a constructor without the keyword (ExprCondPair) evaluates nothing
            return e.func(*args), True
    if isinstance(e, sympy.Pow) and _too_large_to_compute(*args):
        return sympy.Pow(*args, evaluate=False), True
    if sign_judged_by_float(e, args):  # Max(0, log(cos(1e-60))) would be its negative argument
        return literal(e.func, args), True
    return e.func(*args), False


def _too_large_to_compute(base: sympy.Basic, exponent: sympy.Basic) -> bool:
    if not (base.is_Rational and exponent.is_Rational) or base in (0, 1, -1):
        return False
    bits = max(int(base.p).bit_length(), int(base.q).bit_length())
    if int(exponent.q).bit_length() > MAX_ROOT_INDEX_BITS:
        return True
    return abs(exponent) * bits > MAX_EXACT_POWER_BITS


def has_huge_power(*exprs: sympy.Basic) -> bool:
    """Does an expression hold an exact power too large to compute (``Pow(3, 10**8)``)? SymPy
    would compute it while merely building a sum or product with it (``Mul`` collects numeric
    powers), in one C call that no time limit interrupts."""
    for e in exprs:
        if isinstance(e, sympy.Basic):
            if any(huge_here(node) for node in sympy.preorder_traversal(e)):
                return True
    return False


def huge_here(node: sympy.Basic) -> bool:
    """Is ``node`` itself such a power (its arguments not asked)?"""
    if isinstance(node, sympy.Pow):
        return _too_large_to_compute(node.base, node.exp) or _tower(node)
    return isinstance(node, sympy.exp) and _huge_exponent_generator(node.args[0])


MAX_EXP_COEFFICIENT_BITS = 20


def _huge_exponent_generator(arg: sympy.Basic) -> bool:
    """``exp(−10¹²·x² − x)``: SymPy's polynomial routines (``cancel``) read it as a power of
    ``exp(x²)`` with exponent 10¹², in one C call that no limit interrupts (or that dies of
    SIGFPE); ``exp(−4·10¹²)`` as a power of e alike. A number of more than
    ``MAX_EXP_COEFFICIENT_BITS`` bits in the argument."""
    return any(
        max(int(r.p).bit_length(), int(r.q).bit_length()) > MAX_EXP_COEFFICIENT_BITS
        for r in arg.atoms(sympy.Rational)
    )


def _tower(node: sympy.Pow) -> bool:
    """``2**(2**32)`` written unevaluated: a numeric base raised to an unevaluated integer power
    (whose value SymPy would compute, then raise the base to)."""
    return (
        node.base.is_Rational
        and node.base not in (0, 1, -1)
        and any(
            isinstance(p, sympy.Pow) and p.base.is_Integer and p.exp.is_Integer and p.exp > 1
            for p in sympy.preorder_traversal(node.exp)
        )
    )


def difference(lhs: sympy.Expr, rhs: sympy.Expr) -> sympy.Expr:
    """``lhs − rhs``, built unevaluated when either side holds a power too large to compute."""
    if has_huge_power(lhs, rhs):
        return sympy.Add(lhs, sympy.Mul(-1, rhs, evaluate=False), evaluate=False)
    return lhs - rhs


MAX_GENERAL_EXPONENT = 64  # a power of a term holding such a symbol: expand would multiply it out


def powers_as_symbols(expr: sympy.Basic, limit_s: float) -> sympy.Basic | None:
    """``expr`` with each outermost power too large to compute (``huge_here``) a symbol of its
    own, assumed nothing (one per distinct power), expanded and cancelled within ``limit_s``: an
    identity of that form for every value of those symbols holds at the powers' values
    (``2¹⁰⁰⁰⁰⁰⁰⁰⁰ + 1 − 2¹⁰⁰⁰⁰⁰⁰⁰⁰`` is ``h + 1 − h``, which is 1). None when there is none,
    when expanding could still take long (a symbol raised past ``MAX_GENERAL_EXPONENT``) or
    took longer than the limit, or when a symbol is in a divisor (two symbols may stand for
    equal powers, 2^(10⁸) and 4^(5·10⁷): their difference is no divisor to cancel)."""
    found: dict = {}

    def walk(e: sympy.Basic) -> sympy.Basic:
        if huge_here(e):
            return found.setdefault(e, sympy.Dummy(f"h{len(found)}"))
        if not e.args:
            return e
        return literal(e.func, [walk(a) for a in e.args])

    general = walk(expr)
    if not found or has_huge_power(general):
        return None
    for n in sympy.preorder_traversal(general):
        if isinstance(n, sympy.Pow) and n.base.free_symbols & set(found.values()):
            if not (n.exp.is_Integer and 0 < n.exp <= MAX_GENERAL_EXPONENT):
                return None
    try:
        with deadline(limit_s) as dl:
            value = sympy.cancel(sympy.expand(general))
    except (BudgetExceeded, RecursionError, MemoryError, TypeError, ValueError, ArithmeticError):
        return None
    return None if dl.expired else value
