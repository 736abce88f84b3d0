"""Closed terms without a value: a pole, a logarithm of 0, a division by an unevaluated 0.

``admitted_input`` refuses ``zoo`` and ``nan`` as written, but a term built unevaluated keeps its
head: ``gamma(0, evaluate=False)``, ``log(0)``, ``cot(0)``, ``factorial(-1)``, ``(1 − 1)⁻¹``
reach a checker as nodes whose value SymPy gives as ``zoo`` (or ``nan``, ``±∞``). A formula
holding one is defined nowhere, so it claims nothing: SymPy's rewrites still cancel such a node
against itself (``Γ(0) − Γ(0)`` to 0, ``0·Γ(0)`` to 0), and ``inst`` at a pole would prove
``0·Γ(0) = Γ(1)`` from ``x·Γ(x) = Γ(x + 1)``. ``valueless(e)`` finds such a term: each closed
function application or power is rebuilt with SymPy's evaluation (``huge_powers.evaluated``:
never a power too large to compute), under a short limit; a value that is no finite number marks
it, and so does a special function SymPy leaves unevaluated at its pole whose numeric value is
none (``hyper((1,), (), 1)``, ``expint(1, 0)``: ``(1 − x)·₁F₀(1;;x) = 1`` was refuted at x = 1
by SymPy's ``0·₁F₀(1;;1) = 0``); so does a ``Subs`` at a number where its term, put in as
written, has none (``(x² − 1)/(x − 1)`` at 1, which SymPy cancels first), and a closed sum,
product, integral or limit SymPy computes to no number (``Σ 1/k``, ``lim_{x→∞} sin x``), which
its rewrites still cancel against itself. Not finding one proves nothing (a limit reached is
no finding): it only ever vetoes.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.huge_powers import evaluated, has_huge_power, huge_here
from symbolic.kernel.logic import literal_replace
from symbolic.limits import BudgetExceeded, deadline

VALUE_TIMEOUT_S = 0.25  # for one closed term's value
_NO_VALUE = (sympy.S.ComplexInfinity, sympy.S.NaN, sympy.S.Infinity, sympy.S.NegativeInfinity)
_BINDERS = (sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit, sympy.Derivative, sympy.Subs)
_SEEN: dict = {}  # closed term → has no value (bounded: cleared when full)
_SEEN_MAX = 4096


def valueless(*exprs: sympy.Basic) -> sympy.Basic | None:
    """The first closed function application or power in ``exprs`` whose value is no finite
    number (``gamma(0)``, ``log(0)``, ``(1 − 1)⁻¹``), or None."""
    for e in exprs:
        if not isinstance(e, sympy.Basic):
            continue
        subtrees = _Subtrees()
        for node in sympy.preorder_traversal(e):
            if subtrees.candidate(node) and _no_value(node):
                return node
            if isinstance(node, sympy.Subs) and _subs_valueless(node):
                return node
            if isinstance(node, _SUMMING) and _diverges(node):
                return node
    return None


_SUMMING = (sympy.Sum, sympy.Product, sympy.Integral, sympy.Limit)
_DIVERGED = (*_NO_VALUE, sympy.AccumBounds)


def _diverges(node: sympy.Basic) -> bool:
    """A closed sum, product, integral or limit SymPy computes to ±∞, ``zoo``, ``nan`` or an
    ``AccumBounds``: it has no value (``Σ 1/k``, ``∫₀¹ dx/x``, ``lim_{x→∞} sin x``), though
    SymPy still cancels it against itself (``Σ 1/k − Σ 1/k = 0`` was proved). Computed under
    ``VALUE_TIMEOUT_S``; not computed in time: no veto."""
    if node.free_symbols or has_huge_power(node):
        return False
    known = _SEEN.get(node)
    if known is None:
        try:
            with deadline(VALUE_TIMEOUT_S):
                known = bool(node.doit().has(*_DIVERGED))
        except ArithmeticError:
            known = True
        except ValueError:  # SymPy's "the limit does not exist" (left and right differ)
            known = isinstance(node, sympy.Limit)
        except (BudgetExceeded, TypeError, AttributeError, RecursionError):
            return False
        except NotImplementedError:
            known = False
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[node] = known
    return known


def _subs_valueless(node: sympy.Subs) -> bool:
    """``Subs(e, x, c)`` at a number ``c`` where ``e``, put in as written, has no value: the
    term ``(c² − 1)/(c − 1)`` at ``c = 1`` is 0/0, though SymPy cancels inside the ``Subs``
    first (``Subs((x² − 1)/(x − 1), x, 1) = 2`` was proved, ``= 5`` refuted). A derivative or
    another binder inside is taken, not put in: not judged here."""
    if node.expr.has(*_BINDERS) or any(p.free_symbols for p in node.point):
        return False
    rule = dict(zip(node.variables, node.point, strict=True))
    try:
        return valueless(literal_replace(node.expr, rule)) is not None
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def pole_reason(*exprs: sympy.Basic) -> str | None:
    """Why a formula holding ``exprs`` claims nothing (``valueless``), or None."""
    pole = valueless(*exprs)
    if pole is None:
        return None
    if isinstance(pole, _SUMMING):  # SymPy's ±∞ or bounds (an AccumBounds) is no number
        why = "SymPy computes no number for it (it diverges, or SymPy gives only bounds)"
        return f"{sympy.sstr(pole)[:60]}: {why}; a formula holding it claims nothing"
    return f"{sympy.sstr(pole)[:60]} has no value (a pole, log 0, a division by 0): defined nowhere"


class _Subtrees:
    """Per formula, each node's subtree facts, computed once from its children's (a walk that
    asked ``free_symbols``, ``has`` and ``has_huge_power`` of every node walked each subtree
    again: quadratic in the depth). A candidate is a closed function application or power with
    no binder and no huge power inside: ``not free_symbols``, ``not has(*_BINDERS)`` and ``not
    has_huge_power``, exactly."""

    def __init__(self) -> None:
        self._closed: dict = {}
        self._plain: dict = {}

    def candidate(self, node: sympy.Basic) -> bool:
        return (
            isinstance(node, (sympy.Function, sympy.Pow)) and self.plain(node) and self.closed(node)
        )

    def closed(self, node: sympy.Basic) -> bool:
        """``not node.free_symbols``; a class keeping Basic's union over its arguments is
        closed when every argument is, any other (Symbol, Lambda, Indexed, …) is asked."""
        known = self._closed.get(node)
        if known is None:
            if node.args and _free_symbols_of(type(node)) is _UNION_OF_ARGS:
                known = all(self.closed(a) for a in node.args)
            else:
                known = not node.free_symbols
            self._closed[node] = known
        return known

    def plain(self, node: sympy.Basic) -> bool:
        """No binder and no huge power anywhere in ``node`` (``preorder_traversal`` walks
        ``args``, as this does)."""
        known = self._plain.get(node)
        if known is None:
            known = (
                not isinstance(node, _BINDERS)
                and not huge_here(node)
                and all(self.plain(a) for a in node.args)
            )
            self._plain[node] = known
        return known


_UNION_OF_ARGS = sympy.Basic.__dict__["free_symbols"]
_FREE_SYMBOLS_OF: dict = {}


def _free_symbols_of(cls: type):
    """The ``free_symbols`` a class's instances use, from its MRO (``cls.free_symbols`` would
    ask the metaclass of a function class, whose own property answers for the class)."""
    found = _FREE_SYMBOLS_OF.get(cls)
    if found is None:
        found = next(
            k.__dict__["free_symbols"] for k in cls.__mro__ if "free_symbols" in k.__dict__
        )
        _FREE_SYMBOLS_OF[cls] = found
    return found


def _numeric_pole(value: sympy.Basic) -> bool:
    """A special function SymPy leaves unevaluated at its pole (``hyper((1,), (), 1)``, which is
    1/(1 − 1); ``expint(1, 0)``; ``hyper((1, 1), (2,), 1)``): its numeric value is no finite
    number, or mpmath divides by 0 (an ``ArithmeticError``, which the caller reads as a pole).
    Asked only of a function application SymPy did not compute; only ever a veto."""
    if not isinstance(value, sympy.Function):
        return False
    return bool(sympy.N(value, 15).has(*_NO_VALUE))


def _no_value(node: sympy.Basic) -> bool:
    known = _SEEN.get(node)
    if known is None:
        try:
            with deadline(VALUE_TIMEOUT_S):
                value = evaluated(node)
                known = bool(value.has(*_NO_VALUE)) or _numeric_pole(value)
        except ArithmeticError:  # ZeroDivisionError: mpmath's own pole
            known = True
        except (BudgetExceeded, TypeError, ValueError, AttributeError, RecursionError):
            return False  # not decided: no veto, and asked again next time
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[node] = known
    return known
