"""A block identity ``A(X; gθ) = A(X; θ)`` proved where the transformation acts (issue 26).

``after`` is ``before`` with some parameters substituted (``xreplace`` without evaluation), so the
two trees have the same shape down to the substituted leaves. Deciding the whole identity makes
the kernel bring every softmax and norm of both sides to normal form, most of them untouched by
the substitution. Here the kernel decides only the smallest subterms where the group elements
cancel (``W_V B · B^{−1} W_O``, ``(N G D) · D^{−1} W``, the scores ``Q A · (K A^{−T})ᵀ``), and the
kernel's rules carry each such fact up to the whole: ``cong`` puts it in its context (the node
with one argument replaced by a hole), ``trans`` chains the arguments of a node. The conclusion
is the identity as written, ``Eq(after, before)``, or nothing (the caller decides the whole).

Which subterms to try is a heuristic with no part in soundness: a pair is tried when both sides
use the same parameters and every group element it uses appears with its inverse (elsewhere a
group element cannot cancel, e.g. ``W_V B`` against ``W_V``). A tried subterm the kernel does not
prove ends the localisation (``None``): the caller then seeks a witness or decides the whole.
"""

from __future__ import annotations

from collections.abc import Collection

import sympy
from sympy.core.relational import Equality
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from symbolic.kernel import Fact, RuleError, check_matrix_expr_equal, cong, literal, trans

_NODES = (
    sympy.MatAdd,
    sympy.MatMul,
    sympy.HadamardProduct,
    sympy.Transpose,
)


def _uses(expr: sympy.Basic, inside: bool = False) -> set[tuple[sympy.Basic, bool]]:
    """The matrix symbols of ``expr``, each with whether it occurs under an ``Inverse``."""
    if isinstance(expr, sympy.MatrixSymbol):
        return {(expr, inside)}
    inside = inside or isinstance(expr, sympy.Inverse)
    out: set = set()
    for a in expr.args:
        out |= _uses(a, inside)
    return out


def _plausible(a: sympy.Basic, b: sympy.Basic, group: Collection[sympy.Basic]) -> bool:
    ua, ub = _uses(a), _uses(b)
    params = {s for s, _ in ua if s not in group}
    if params != {s for s, _ in ub if s not in group}:
        return False
    moved = {s for s, _ in ua if s in group}
    return all((g, True) in ua and (g, False) in ua for g in moved)


class _Search:
    """The search's state: kernel checks left (a bound on the work of a failing search) and the
    facts found so far (a subterm that occurs twice, as the scores in softmax's numerator and
    denominator, is decided once)."""

    def __init__(self, group: Collection[sympy.Basic], timeout_s: float, checks: int) -> None:
        self.group, self.timeout_s, self.checks = frozenset(group), timeout_s, checks
        self.found: dict[tuple[sympy.Basic, sympy.Basic], Fact | None] = {}


def _children(node_a, node_b, search: _Search) -> Fact | None:
    """``node_a = node_b`` from their differing arguments, each proved, by cong and trans."""
    diffs = [i for i, (x, y) in enumerate(zip(node_a.args, node_b.args, strict=True)) if x != y]
    facts = []
    args = list(node_a.args)
    for i in diffs:
        fact = _localised(node_a.args[i], node_b.args[i], search)
        if fact is None or not _is(fact, node_a.args[i], node_b.args[i]):
            return None
        hole = sympy.MatrixSymbol("_hole", *node_a.args[i].shape)
        context = literal(node_a.func, (*args[:i], hole, *args[i + 1 :]))
        facts.append(cong(fact, sympy.Lambda(hole, context)))
        args[i] = node_b.args[i]
    if len(facts) == 1:
        return facts[0]
    try:
        return trans(*facts)
    except RuleError:  # links that do not match exactly: no conclusion
        return None


def localised(
    a: sympy.MatrixExpr,
    b: sympy.MatrixExpr,
    group: Collection[sympy.Basic],
    timeout_s: float,
    checks: int = 12,
) -> Fact | None:
    """A proved fact ``Eq(a, b)`` (``a`` and ``b`` differ), or None (see the module docstring);
    ``group``: the group elements' matrix symbols; ``checks``: the kernel checks allowed."""
    fact = _localised(a, b, _Search(group, timeout_s, checks))
    return fact if fact is not None and _is(fact, a, b) else None


def _localised(a, b, search: _Search) -> Fact | None:
    key = (a, b)
    if key not in search.found:
        search.found[key] = _decide(a, b, search)
    return search.found[key]


def _decide(a, b, search: _Search) -> Fact | None:
    group = search.group
    same_node = (
        isinstance(a, _NODES)
        and a.func == b.func
        and len(a.args) == len(b.args)
        and all(
            getattr(x, "shape", None) == getattr(y, "shape", None)
            for x, y in zip(a.args, b.args, strict=True)
        )
    )
    if same_node:
        pairs = [(x, y) for x, y in zip(a.args, b.args, strict=True) if x != y]
        if all(_plausible(x, y, group) for x, y in pairs):
            fact = _children(a, b, search)
            return fact if fact is not None and _is(fact, a, b) else None
    if isinstance(a, ElementwiseApplyFunction):
        if not (
            isinstance(b, ElementwiseApplyFunction)
            and a.function == b.function
            and _plausible(a.expr, b.expr, group)
        ):
            return None
        fact = _localised(a.expr, b.expr, search)
        if fact is None:
            return None
        hole = sympy.MatrixSymbol("_hole", *a.expr.shape)
        context = literal(ElementwiseApplyFunction, (a.function, hole))
        lifted = cong(fact, sympy.Lambda(hole, context))
        return lifted if _is(lifted, a, b) else None
    if not _plausible(a, b, group) or search.checks <= 0:
        return None
    search.checks -= 1
    fact = check_matrix_expr_equal(a, b, timeout_s=search.timeout_s)
    return fact if fact.proved else None


def _is(fact: Fact, a, b) -> bool:
    f = fact.formula
    return fact.proved and isinstance(f, Equality) and f.lhs == a and f.rhs == b


__all__ = ["localised"]
