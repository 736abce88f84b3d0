"""Whether a rule step claims its formula anywhere (red-team round 11): the conditions it holds
under (``side_conditions.conditions``: the denominators it was proved with, ``d ≠ 0``, also
those its formula no longer shows) must hold together at some point.

A fact claimed nowhere proves nothing, and the rules carry it on: from ``y/y = 1``, ``0/y = 0``
and ``D = 0`` with ``D = (x + 1)² − x² − 2x − 1`` (zero everywhere, which SymPy's ``is_zero``
does not say), ``inst`` at ``y := D``, ``cong`` into ``h/D`` and ``trans`` concluded ``1 = 0``:
each step holds where ``D ≠ 0``, i.e. nowhere, and the last one no longer shows it. Conditions
that each hold somewhere may also hold together nowhere (``max(y, 0) ≠ 0`` and
``min(y, 0) ≠ 0``: ``trans`` unites them).

``nowhere(node, by_id)`` says why a rule step is not shown to be claimed anywhere, or None when
a point is found — the definitions it rests on put in (``c := D``, then ``c ≠ 0`` is ``D ≠ 0``)
— where every condition is certified nonzero by the re-check's own numbers (exact or interval:
``numbers.enclose``), uninterpreted functions read as one concrete function (a point for some
σ, as an SMT obligation's ``claimed somewhere`` reads them), or else where Z3 shows the
conditions satisfiable (``formula_smt``). Not shown is ``unknown``: never proved.

``unshown(node, by_id)``, for a claim's last step: a condition its formula does not show, in
the formula's own symbols, must hold for every value of them (``nonzero_everywhere``): what a
reviewer reads is the statement, and ``pw(x) = 1`` proved where x ≠ 1 is not ``pw(x) = 1``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from sympy.core.function import AppliedUndef

from symbolic.evidence.formula_reader import canonical_srepr
from symbolic.evidence.numbers import NotEnclosed, enclose, satisfies
from symbolic.evidence.side_conditions import (
    a_definition,
    conditions,
    own_conditions,
    rested_on,
)

POINTS = 24  # candidate points tried per set of conditions
SEARCH_S = 4.0  # CPU seconds for the point search of one set of conditions
_VALUES = [Fraction(v) for v in (6, 7, 5, 3, 8, 2, 10, 4, 1, 11, 12, 9)] + [
    Fraction(p, q) for p, q in ((9, 2), (13, 3), (7, 4), (1, 2), (17, 5), (1, 3))
]
_CANDIDATES = [*_VALUES, *(-v for v in _VALUES), Fraction(0)]
_UNDECIDED = (NotEnclosed, ArithmeticError, ValueError, TypeError, AttributeError, RecursionError)
_FOUND: dict[str, str | None] = {}  # canonical conditions → why nowhere (None: a point found)


def condition_rows(claim: str, node: dict, by_id: dict[str, dict]) -> list:
    """A rule step's row ``conditions``, ``unknown``, when it is not shown to be claimed
    anywhere (``nowhere``); no row else."""
    from symbolic.evidence.report import Row

    why = nowhere(node, by_id) if node.get("method") == "rule" else None
    return [Row(claim, node["id"], "conditions", why, "unknown")] if why else []


def unshown(node: dict, by_id: dict[str, dict]) -> str | None:
    """Why a claim's last step holds only under a condition its formula does not show and that
    is not shown to hold for every value of the formula's symbols — or None. ``trans`` drops a
    premise's denominators: from ``pw(x) = (x − 1)/(x − 1)`` and ``(x − 1)/(x − 1) = 1`` (each
    true where x ≠ 1), with ``pw(x) = 0`` at x = 1 and 1 elsewhere, ``pw(x) = 1`` was shown
    ``proved`` — false at x = 1. A condition in symbols the formula no longer holds only has to
    hold somewhere (``nowhere``): a closed ``1 = 0`` holding where x ≠ 0 is false anywhere."""
    formula = node["_formula"]
    shown = own_conditions(formula)
    values = _definitions(node, by_id)
    unfolded = _unfolded(formula, values)  # c := y²: a condition on c is one on y
    for d in sorted(conditions(node, by_id) - shown, key=canonical_srepr):
        value = _unfolded(d, values)
        if _shares(value, unfolded) and not nonzero_everywhere(value):
            return (
                f"holds where {sympy.sstr(d)[:60]} ≠ 0, a condition its formula does not show "
                "and that is not shown to hold everywhere"
            )
    return None


def _shares(d: sympy.Basic, formula: sympy.Basic) -> bool:
    """Whether the condition ``d ≠ 0`` constrains what ``formula`` claims for every value: a
    symbol or an uninterpreted function of both (``σ(1) = σ(2)`` holding where some y has
    ``[σ(1) = σ(2)]·y ≠ 0`` is claimed for every σ and holds for few)."""
    heads = {f.func for f in formula.atoms(AppliedUndef)}
    return bool(d.free_symbols & formula.free_symbols) or any(
        f.func in heads for f in d.atoms(AppliedUndef)
    )


def nonzero_everywhere(d: sympy.Basic) -> bool:
    """``d ≠ 0`` for every value of its symbols: by their assumptions (SymPy's, a number's sign
    certified; ``I_ν(z)`` with ν > −1 and z > 0, and ``₀F₁(; b; z)`` with b > 0 and z ≥ 0, read
    as positive: every term of their series is), or by Z3 (``d = 0`` unsatisfiable)."""
    from symbolic.evidence.formula_smt import smt_obligation
    from symbolic.evidence.side_conditions import has
    from symbolic.evidence.solvers import run_z3

    positive = {}
    for n in sympy.preorder_traversal(d):
        if isinstance(n, sympy.besseli) and has(n.args[1], "positive"):
            if has(sympy.Add(n.args[0], 1), "positive"):  # ν + 1 > 0: Γ(k + ν + 1) > 0
                positive[n] = sympy.Dummy("I", positive=True)
        if isinstance(n, sympy.hyper) and not n.ap and len(n.bq) == 1:
            if has(n.bq[0], "positive") and has(n.argument, "nonnegative"):
                positive[n] = sympy.Dummy("F", positive=True)
    with sympy.evaluate(False):
        read = d.xreplace(positive) if positive else d
    if has(read, "nonzero"):
        return True
    text = smt_obligation(sympy.Ne(d, 0, evaluate=False))
    return text is not None and run_z3(text) == "unsat"


def nowhere(node: dict, by_id: dict[str, dict]) -> str | None:
    """Why the fact's conditions are not shown to hold together anywhere, or None (no
    condition, or a point found)."""
    held = conditions(node, by_id)
    if not held:
        return None
    values = _definitions(node, by_id)
    terms = [_unfolded(d, values) for d in held]
    key = "\n".join(sorted(canonical_srepr(t) for t in terms))
    if key not in _FOUND:
        _FOUND[key] = _search(terms, values)
    return _FOUND[key]


def _definitions(node: dict, by_id: dict[str, dict]) -> dict:
    """The values of the names defined among the facts ``node`` rests on (premises, parts)."""
    values: dict = {}
    for n in rested_on([node.get("id")], by_id):
        if n.get("kind") == "definition" and a_definition(n["_formula"]):
            values.setdefault(n["_formula"].lhs, n["_formula"].rhs)
    return values


def _unfolded(term: sympy.Basic, values: dict) -> sympy.Basic:
    """``term`` with each defined name replaced by its value, through chains of definitions
    (a cycle is refused by ``side_conditions.fixed_names``; here it only stops)."""
    for _ in range(len(values) + 1):
        if not term.free_symbols & set(values):
            break
        with sympy.evaluate(False):
            term = term.xreplace(values)
    return term


def _search(terms: list[sympy.Basic], values: dict) -> str | None:
    from symbolic.limits import BudgetExceeded, deadline

    shown = ", ".join(sorted(sympy.sstr(t)[:50] for t in terms)[:2])
    try:
        with deadline(SEARCH_S):
            if _a_point(terms):
                return None
    except BudgetExceeded:
        pass
    answer = _z3_answer(terms, values)
    if answer == "sat":
        return None
    return (
        f"no point is shown where its conditions hold ({shown} ≠ 0; z3 {answer}): "
        "it may claim nothing"
    )


def _a_point(terms: list[sympy.Basic]) -> bool:
    """A point (values meeting each symbol's assumptions) where every term is certified
    nonzero, σ read as a concrete function."""
    concrete = [_concrete(t) for t in terms]
    symbols = sorted(set().union(*(t.free_symbols for t in concrete)), key=canonical_srepr)
    if any(not isinstance(s, sympy.Symbol) for s in symbols):
        return False  # a matrix or an entry: no point of its own here
    allowed = [[v for v in _CANDIDATES if satisfies(s, v)] for s in symbols]
    if any(not a for a in allowed):
        return False
    for k in range(POINTS):
        pairs = enumerate(zip(symbols, allowed, strict=True))
        picked = {s: a[(k + 3 * j) % len(a)] for j, (s, a) in pairs}
        point = {s: sympy.Rational(v.numerator, v.denominator) for s, v in picked.items()}
        if all(_nonzero_at(t, point) for t in concrete):
            return True
    return False


def _concrete(term: sympy.Basic) -> sympy.Basic:
    """``term`` with each uninterpreted function ``f(a, b, …)`` read as ``2 + (a + 2b + …)²``:
    a point for this σ is a point for some σ."""
    found = {
        f: sympy.Add(
            2,
            sympy.Pow(
                sympy.Add(*(sympy.Mul(k, a) for k, a in enumerate(f.args, 1))), 2, evaluate=False
            ),
            evaluate=False,
        )
        for f in term.atoms(AppliedUndef)
    }
    if not found:
        return term
    with sympy.evaluate(False):
        return term.xreplace(found)


def _nonzero_at(term: sympy.Basic, point: dict) -> bool:
    with sympy.evaluate(False):
        at = term.xreplace(point)
    if at.free_symbols or at.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        return False
    try:
        return enclose(at, "!=")[0] is True
    except _UNDECIDED:
        return False


def _z3_answer(terms: list[sympy.Basic], values: dict) -> str:
    """Z3 on "the conditions, and the definitions, hold together" (``sat``: they do), or why
    not asked (outside the SMT fragment)."""
    from symbolic.evidence.formula_smt import asks_more, smt_obligation
    from symbolic.evidence.solvers import run_z3

    parts = [sympy.Ne(t, 0, evaluate=False) for t in terms]
    parts += [sympy.Eq(c, v, evaluate=False) for c, v in values.items()]
    negated = sympy.Not(sympy.And(*parts, evaluate=False), evaluate=False)
    if asks_more(negated):  # a point over the reals is none of an integer n: max(0, min(n,
        return "not asked: an integer or rational symbol"  # 1 − n)) ≠ 0 at n = 1/2 only
    text = smt_obligation(negated)
    return "not asked: outside the SMT fragment" if text is None else run_z3(text)
