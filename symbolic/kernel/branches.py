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

from symbolic.kernel.inputs import sympy_value

_BRANCH_HEADS = (sympy.Max, sympy.Min, sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Piecewise)


def resolve_closed_branches(expr: sympy.Expr) -> sympy.Expr:
    """``Max``/``Min``/``Abs``/``sign``/``Heaviside`` of *closed* arguments replaced by the branch
    that outward-rounded intervals certify (``Max(1, sigmoid(400))`` → ``1``); undecided ones stay.
    An argument with symbols is dropped from a ``Max``/``Min`` when a closed one beats it for
    every value (``_beaten``: ``Max(1, sigmoid(400) − 3|x − 1|)`` → ``1``). Sound: a branch is
    taken only when the enclosures separate it (and, for an argument with symbols, SymPy's
    assumptions give the sign of its non-constant part, as in ``check_sign``)."""
    from symbolic.kernel.intervals import CannotEnclose, _decide_condition, tight_enclosure

    def sign_of(e):
        e = sympy_value(e)
        if e.is_Rational:
            return int(e.p > 0) - int(e.p < 0)
        try:
            return tight_enclosure(e, max_bits=1024).sign or None
        except CannotEnclose:
            return None

    def visit(e):
        if not e.args or not e.has(*_BRANCH_HEADS):
            return e
        with sympy.evaluate(False):  # rebuild without SymPy deciding branches by float
            e = e.func(*(visit(a) for a in e.args))
        if isinstance(e, (sympy.Max, sympy.Min)):
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
                    sympy.Heaviside: sympy.Integer(int(sg > 0)),
                }[e.func]
        return e

    return visit(expr)


def _beaten(arg: sympy.Expr, best: sympy.Expr, is_max: bool, sign_of) -> bool:
    """Does the closed ``best`` win against ``arg`` for every value of its symbols? ``arg`` is
    split as ``k + r`` (``k`` closed): for ``Max``, ``r ≤ 0`` by SymPy's assumptions and
    ``k ≤ best`` certified give ``arg ≤ best`` (``Max(1, sigmoid(400) − 3|x − 1|) = 1``); for
    ``Min`` the mirror image."""
    from symbolic.kernel.sympy_checks import assumed_sign  # the reader check_sign uses

    k, r = arg.as_independent(*arg.free_symbols, as_Add=True)
    if assumed_sign(r, "nonpositive" if is_max else "nonnegative")[0] is not True:
        return False
    sg = sign_of(best - k if is_max else k - best)
    return sg is not None and sg >= 0


MAX_EXACT_POWER_BITS = 100_000  # an exact power b**n beyond this stays unevaluated
MAX_ROOT_INDEX_BITS = 64  # b**(p/q) with q beyond 2**64 too: SymPy would factor b for roots


def _evaluated(e: sympy.Basic) -> sympy.Basic:
    """Rebuild bottom up with SymPy's ordinary evaluation, except exact powers too large to
    compute (2**2**2**2**2**2, 3**(1 + 10**-1240)): those, and everything above them, stay
    unevaluated for the enclosures to judge (SymPy would recombine and compute them)."""
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
            for node in sympy.preorder_traversal(e):
                if isinstance(node, sympy.Pow) and (
                    _too_large_to_compute(node.base, node.exp) or _tower(node)
                ):
                    return True
    return False


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


def at(expr: sympy.Basic, point) -> sympy.Basic:
    """``expr`` at ``point``: substituted unevaluated, closed branches decided by enclosures,
    then evaluated (a branch the enclosures cannot separate is left to SymPy)."""
    with sympy.evaluate(False):
        raw = sympy_value(expr).xreplace({k: sympy_value(v) for k, v in dict(point).items()})
    try:
        return _evaluated(resolve_closed_branches(raw))
    except (TypeError, ValueError, ZeroDivisionError):  # e.g. 0/0 met while rebuilding
        return raw
