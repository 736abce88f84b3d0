"""Closed numbers whose sign SymPy judges by a float, and the heads that act on that sign.

SymPy's assumptions on a closed transcendental value are computed numerically at a low
precision: ``log(cos(10⁻⁶⁰)) ≈ −5·10⁻¹²¹`` evaluates to 0.0 there (cos(10⁻⁶⁰) rounds to 1.0) and
SymPy answers ``is_positive`` True; ``log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹)`` is "zero". Every head
whose value depends on a sign then goes wrong as SymPy builds it: ``Max(x, x + c)`` becomes
``x + c``, ``Abs(c)`` becomes ``c``, ``(c²)^(1/2)`` becomes ``c``. The kernel never lets SymPy
evaluate such a head of such a number (``huge_powers.evaluated``), checks SymPy's rewrites of a
formula holding one against a point (``probes``), and proves such a formula only with each
number replaced by a symbol of its certified sign (``sympy_checks``).
"""

from __future__ import annotations

import sympy

from symbolic.kernel.conventions import BRANCH_HEADS
from symbolic.kernel.logic import literal

# Heads whose value SymPy takes from the sign (or zeroness) of an argument as it builds them.
SIGN_SENSITIVE = (*BRANCH_HEADS, sympy.floor, sympy.ceiling, sympy.log)


_BRANCHING = (*BRANCH_HEADS, sympy.floor, sympy.ceiling)  # looked into, never one number


def closed_irrational(n: sympy.Basic) -> bool:
    """Is ``n`` a closed number holding a function value or a sum, and no rational written as
    one (``1**2 + 3``)? (π, √2 and their products SymPy evaluates to any precision it asks for;
    ``log(cos(10⁻⁶⁰))`` and ``log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹)`` it does not.)"""
    return (
        isinstance(n, (sympy.Function, sympy.Add))
        and not isinstance(n, sympy.core.function.AppliedUndef)
        and not n.free_symbols
        and not n.is_Rational
        and not _rational_as_written(n)
    )


def _rational_as_written(n: sympy.Basic) -> bool:
    """Rationals, sums, products and integer powers of them only: exact to SymPy."""
    if n.is_Rational:
        return True
    if isinstance(n, sympy.Pow):
        return n.exp.is_Integer and _rational_as_written(n.base)
    return isinstance(n, (sympy.Add, sympy.Mul)) and all(map(_rational_as_written, n.args))


def has_closed_irrational(expr: sympy.Basic) -> bool:
    """Does ``expr`` hold a ``closed_irrational`` number?"""
    return any(closed_irrational(n) for n in sympy.preorder_traversal(expr))


def sign_judged_by_float(e: sympy.Basic, args: tuple) -> bool:
    """Would SymPy, building ``e.func(*args)``, take a branch or a root by the sign of a closed
    irrational number: a sign-sensitive head of arguments holding one, or a power with a
    non-integer exponent of a base holding one."""
    if isinstance(e, sympy.Pow):  # a root takes the sign of its base: (c²)^(1/2) is |c|
        return not args[1].is_Integer and has_closed_irrational(args[0])
    return isinstance(e, SIGN_SENSITIVE) and any(has_closed_irrational(a) for a in args)


def float_blind_risk(expr: sympy.Basic) -> bool:
    """Does ``expr`` have a head SymPy would take by the float sign of a closed number?"""
    return any(  # (a mutable matrix has no args)
        getattr(n, "args", None) and sign_judged_by_float(n, n.args)
        for n in sympy.preorder_traversal(expr)
    )


def with_signs_for_numbers(expr: sympy.Basic, sign_of) -> sympy.Basic | None:
    """``expr`` with each outermost ``closed_irrational`` number replaced by a symbol of its sign
    as ``sign_of`` certifies it (1 or −1; None: undecided, and then None here): SymPy's
    assumptions on such a symbol are exact, and an identity it proves for every number of that
    sign holds for the number."""
    found = signs_for_numbers((expr,), sign_of, strict=True)
    return None if found is None else found[0]


def signs_for_numbers(exprs: tuple, sign_of, strict: bool = False) -> tuple | None:
    """``exprs`` with each outermost ``closed_irrational`` number replaced by a symbol of its
    certified sign, one symbol per number across all of ``exprs`` (the two sides of an identity
    share it). ``strict``: a number whose sign is not certified gives None; otherwise the
    numbers inside it are replaced instead (``Integral(|c|, …) + c`` has no enclosure, ``c``
    has) — replacing any closed subterm by a symbol of its sign only generalizes, so whatever
    holds for every value of those symbols holds for the numbers. Numbers left in place are
    still judged by SymPy's float: a caller asks ``float_blind_risk`` / ``has_closed_irrational``
    of the result."""
    found: dict = {}

    def visit(e: sympy.Basic) -> sympy.Basic:
        if isinstance(e, _BRANCHING) and has_closed_irrational(e):
            return rebuilt(e, e.args)  # |c| stays |c₀| with c₀ < 0, which SymPy takes as −c₀
        if closed_irrational(e):
            if e not in found and -e in found:  # −(log a − log b) is written log b − log a
                return -found[-e]
            if e not in found:
                sign = sign_of(e)
                if sign not in (1, -1):
                    if strict:
                        raise LookupError(e)
                    return rebuilt(e, e.args)
                kind = {"positive": True} if sign == 1 else {"negative": True}
                found[e] = sympy.Dummy(f"c{len(found)}", **kind)
            return found[e]
        if not getattr(e, "args", None) or not has_closed_irrational(e):
            return e
        args = e.args
        if isinstance(e, sympy.Add) and e.free_symbols:  # x + log(a) − log(b): one number
            closed = [a for a in args if not a.free_symbols]
            if len(closed) > 1:
                args = (*(a for a in args if a.free_symbols), sympy.Add(*closed))
        return rebuilt(e, args)

    def rebuilt(e: sympy.Basic, args: tuple) -> sympy.Basic:
        new = tuple(visit(a) for a in args)  # a head of a number left in place: as written
        return literal(e.func, new) if sign_judged_by_float(e, new) else e.func(*new)

    try:
        return tuple(visit(e) for e in exprs)
    except LookupError:
        return None
