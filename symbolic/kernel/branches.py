"""Branches at a point, decided by enclosures rather than by SymPy's float comparisons.

SymPy evaluates ``Max``/``Min``/``Abs``/``Piecewise`` of numbers as it builds them, comparing
with ``evalf`` at a working precision that two arguments differing by ``1e-44`` defeat
(``Max(0, log(e⁻¹⁰⁰ + 1) − log(e⁻⁹⁹ + 1))`` came out as its negative argument). Here a point is
substituted without evaluation (``at``), every branch with closed arguments is taken only when
outward-rounded intervals separate it (``resolve_closed_branches``), and only then is the rest
evaluated.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.conventions import BRANCH_HEADS  # checkers split or resolve these
from symbolic.kernel.float_blind import float_blind_risk
from symbolic.kernel.huge_powers import evaluated
from symbolic.kernel.intervals import CannotEnclose, _decide_condition, tight_enclosure
from symbolic.kernel.logic import literal, literal_replace, sympy_value


def _flattened(e: sympy.Expr) -> list:
    """The arguments of a ``Max``/``Min`` with nested ones of the same head spliced in
    (``Max(Max(π, x), 1 + π)`` compares π with 1 + π, as SymPy's own constructor would)."""
    out = []
    for a in e.args:
        out.extend(_flattened(a) if a.func is e.func else [a])
    return out


def resolve_closed_branches(expr: sympy.Expr) -> sympy.Expr:
    """``Max``/``Min``/``Abs``/``sign``/``Heaviside`` of *closed* arguments replaced by the branch
    that outward-rounded intervals certify (``Max(1, sigmoid(400))`` → ``1``); undecided ones stay.
    An argument with symbols is dropped from a ``Max``/``Min`` when a closed one beats it for
    every value (``_beaten``: ``Max(1, sigmoid(400) − 3|x − 1|)`` → ``1``). Sound: a branch is
    taken only when the enclosures separate it (and, for an argument with symbols, SymPy's
    assumptions give the sign of its non-constant part, as in ``check_sign``)."""

    def sign_of(e):
        e = sympy_value(e)
        if not e.has(*BRANCH_HEADS):  # exact arithmetic and SymPy's exact values (atan 0 = 0)
            e = evaluated(e)
        if e.is_Rational:
            return int(e.p > 0) - int(e.p < 0)
        try:
            return tight_enclosure(e, max_bits=1024).sign or None
        except CannotEnclose:
            return None

    def visit(e):
        if not e.args or not e.has(*BRANCH_HEADS):
            return e
        e = literal(e.func, [visit(a) for a in e.args])  # SymPy would decide branches by float
        if isinstance(e, (sympy.Max, sympy.Min)):
            e = literal(e.func, _flattened(e))
            closed = [a for a in e.args if not a.free_symbols]
            if not closed:
                return e
            best = closed[0]
            for a in closed[1:]:
                sg = sign_of(a - best)
                if sg is None:
                    return e
                if (sg > 0) == isinstance(e, sympy.Max):
                    best = a
            rest = [
                a
                for a in e.args
                if a.free_symbols and not _beaten(a, best, isinstance(e, sympy.Max), sign_of)
            ]
            if len(rest) == len(e.args) - 1 and len(closed) == 1:
                return e  # nothing decided
            return e.func(best, *rest) if rest else best
        if isinstance(e, sympy.Piecewise):  # closed conditions decided by enclosures
            for value, cond in e.args:
                if cond.free_symbols:
                    return e
                try:
                    truth = _decide_condition(cond, {}, 1024)
                except CannotEnclose:
                    return e
                if truth is None:
                    return e
                if truth:
                    return value
            return e
        if isinstance(e, (sympy.Abs, sympy.sign, sympy.Heaviside)) and not e.free_symbols:
            sg = sign_of(e.args[0])
            if sg is not None:
                return {
                    sympy.Abs: sg * e.args[0],
                    sympy.sign: sympy.Integer(sg),
                    sympy.Heaviside: _heaviside(e, sg),
                }[e.func]
        return e

    return visit(expr)


def _heaviside(e: sympy.Heaviside, sg: int) -> sympy.Expr:
    """``Heaviside(x, H0)`` for a certified sign of x: 0, 1, or at x = 0 SymPy's value there, H0
    (1/2 unless given: ``Heaviside(0) = 1/2``)."""
    if sg:
        return sympy.Integer(int(sg > 0))
    return e.args[1] if len(e.args) > 1 else sympy.S.Half


def _beaten(arg: sympy.Expr, best: sympy.Expr, is_max: bool, sign_of) -> bool:
    """Does the closed ``best`` win against ``arg`` for every value of its symbols? ``arg`` is
    split as ``k + r`` (``k`` closed): for ``Max``, ``r ≤ 0`` by SymPy's assumptions and
    ``k ≤ best`` certified give ``arg ≤ best`` (``Max(1, sigmoid(400) − 3|x − 1|) = 1``); for
    ``Min`` the mirror image."""
    k, r = arg.as_independent(*arg.free_symbols, as_Add=True)
    if assumed_sign(r, "nonpositive" if is_max else "nonnegative")[0] is not True:
        return False
    sg = sign_of(best - k if is_max else k - best)
    return sg is not None and sg >= 0


def assumed_sign(expr: sympy.Expr, sign: str) -> tuple[bool | None, str]:
    """SymPy's assumptions on ``expr``'s sign (``expr.is_positive``, ...) and why undecided."""
    try:
        answer = getattr(expr, f"is_{sign}")
    except (TypeError, ValueError, RecursionError) as exc:
        return None, f"assumptions failed: {type(exc).__name__}"
    return answer, f"assumptions cannot decide whether it is {sign}"


def at(expr: sympy.Basic, point) -> sympy.Basic:
    """``expr`` at ``point``: substituted unevaluated, closed branches decided by enclosures,
    then evaluated — unless a branch the enclosures cannot separate is left: then unevaluated
    (SymPy would take it by a float comparison; an enclosure of the whole stays sound)."""
    raw = literal_replace(sympy_value(expr), {k: sympy_value(v) for k, v in dict(point).items()})
    try:
        resolved = resolve_closed_branches(raw)
        if any(not b.free_symbols for b in resolved.atoms(*BRANCH_HEADS)):
            return resolved  # SymPy would pick the branch the enclosures could not, by a float
        return evaluated(resolved)
    except (TypeError, ValueError, ZeroDivisionError):  # e.g. 0/0 met while rebuilding
        return raw


def put(expr: sympy.Basic, values) -> sympy.Basic:
    """``expr`` at ``values`` by SymPy's ordinary substitution, except where a branch or a root
    there would be taken by the float sign of a closed number (``float_blind``: ``Max(0,
    log(cos(1e-60)))`` is its negative argument to SymPy) or SymPy cannot compare the branches:
    then ``at``, whose branches the enclosures decide."""
    values = dict(values)
    if float_blind_risk(literal_replace(expr, values)):
        return at(expr, values)
    try:
        return expr.xreplace(values)
    except (TypeError, ValueError):  # SymPy could not compare the branches there
        return at(expr, values)
