"""The kernel's inference rules, re-derived by the re-check on its own (issue 25).

``derive(rule, premises, detail)`` is the formula a rule concludes from its premises'
formulas (read from the manifest) and its argument; the re-check compares it with the step's
formula. A few lines per rule, independent of ``symbolic.kernel.rules``:

* ``trans``: ``a0 = a1, a1 = a2, …, a(n−1) = an`` ⊢ ``a0 = an``;
* ``symm``: ``a = b`` ⊢ ``b = a``;
* ``cong``: ``a = b`` and ``λh. C`` ⊢ ``C[h:=a] = C[h:=b]``, no binder of ``C`` around ``h``
  capturing a symbol of ``a`` or ``b`` (but the index of a finite sum or product that ranges
  over all integers or all reals: the premise holds at each of its values);
* ``inst``: ``∀ v…: body`` and ``((v1, t1), …)`` ⊢ ``body[v:=t]``, each ``t`` real and finite
  with every sign and integrality assumption of ``v`` and inside ``v``'s set;
* ``mp``: ``A ⇒ B``, ``A`` ⊢ ``B``;
* ``conj``: ``A, B, …`` ⊢ ``A ∧ B ∧ …``;
* ``unfold``: the definition ``c = value`` and ``E`` (or ``λc. E``) ⊢ ``E = E[c:=value]``;
* ``iff``: ``A ⇒ B``, ``B ⇒ A`` ⊢ ``A ⇔ B``;
* ``gen``: ``F`` and ``(v1, …)`` ⊢ ``∀ v1, …: F`` (over the variables' assumed sets);
* ``scalar_transpose``: no premise, ``E`` of shape 1×1 ⊢ ``E = Eᵀ``.

Substitution is literal, as the kernel's: nothing it rebuilds is evaluated.

``ValueError`` when the premises do not have the rule's shape.
"""

from __future__ import annotations

import sympy

from symbolic.evidence.formula_reader import canonical_srepr
from symbolic.kernel import Exists, ForAll


def _srepr_equal(a: sympy.Basic, b: sympy.Basic) -> bool:
    return canonical_srepr(a) == canonical_srepr(b)


def _eq(f: sympy.Basic, what: str) -> sympy.Eq:
    if not isinstance(f, sympy.Eq):
        raise ValueError(f"{what}: premise {sympy.sstr(f)[:60]} is not an equation")
    return f


def _lambda(detail: sympy.Basic | None, what: str) -> sympy.Lambda:
    if not isinstance(detail, sympy.Lambda) or len(detail.variables) != 1:
        raise ValueError(f"{what}: the argument is not a one-variable Lambda")
    return detail


_FACTS = (
    "real",
    "finite",
    "integer",
    "positive",
    "negative",
    "nonnegative",
    "nonpositive",
    "nonzero",
    "zero",
)


def bound_by(node: sympy.Basic) -> set:
    """What ``node`` binds inside it (a Derivative's or Limit's variables too: a term put in
    for another symbol must not bring them into what is differentiated)."""
    if isinstance(node, (ForAll, Exists, sympy.Lambda, sympy.Derivative)):
        return set(node.variables)
    if isinstance(node, sympy.Limit):
        return {node.args[1]}
    return set(getattr(node, "bound_symbols", ()) or ())


def _no_capture_by_instance(body: sympy.Basic, mapping: dict) -> None:
    free = set().union(*(t.free_symbols for t in mapping.values()))
    for node in sympy.preorder_traversal(body):
        if bound_by(node) & set(mapping):  # ∀x: (… ∧ ∃x: x ≠ y) at x := y: ∃y: y ≠ y
            raise ValueError("inst: a binder of the premise binds the variable again")
        if any(node.has(v) for v in mapping) and bound_by(node) & free:
            raise ValueError("inst: a binder of the premise captures a symbol of the terms")


def quantified(rule: str, premises: list, detail: sympy.Basic | None) -> set:
    """The symbols ``gen`` quantifies, ``inst`` instantiates in an open premise, or a binder of
    ``cong``'s context binds (an index over which the premise is read for every value)."""
    if rule == "gen" and isinstance(detail, sympy.Tuple):
        return set(detail)
    if rule == "cong" and isinstance(detail, sympy.Lambda) and premises:
        bound = {s for n in sympy.preorder_traversal(detail.expr) for s in bound_by(n)}
        return bound & premises[0].free_symbols
    if rule == "inst" and isinstance(detail, sympy.Tuple) and premises:
        if not isinstance(premises[0], ForAll):
            return {p[0] for p in detail if isinstance(p, sympy.Tuple) and len(p) == 2}
    return set()


def _divides_by_zero(e: sympy.Basic) -> bool:
    return any(
        isinstance(n, sympy.Pow) and n.exp.is_negative and n.base.is_zero
        for n in sympy.preorder_traversal(e)
    )


def _plain(v: sympy.Basic) -> bool:
    """A variable whose assumptions are real or integer with a sign at most (the sets a
    quantifier writes; odd, even, prime, ... are not among them)."""
    a = v.assumptions0
    if a in ({}, {"commutative": True}):
        return True
    if v.is_real is not True:
        return False
    kind = {"integer": True} if v.is_integer else {"real": True}
    signs = ("positive", "negative", "nonnegative", "nonpositive", "nonzero")
    sign = next(({k: True} for k in signs if a.get(k)), {})
    return sympy.Symbol("t", **kind, **sign).assumptions0 == a


def _unrestricted_index(s: sympy.Basic) -> bool:
    """An index over all integers or all reals (no sign, no zero, no other assumption)."""
    signs = ("positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero")
    return (
        isinstance(s, sympy.Symbol)
        and bool(s.is_real)
        and all(getattr(s, f"is_{k}") is None for k in signs)
    )


def _no_capture(
    context: sympy.Lambda, values: tuple, indices: bool = True, what: str = "cong"
) -> None:
    hole, free = context.variables[0], set().union(*(v.free_symbols for v in values))
    for node in sympy.preorder_traversal(context.expr):
        if hole in bound_by(node):  # the substitution would rename a bound variable too
            raise ValueError(f"{what}: a binder binds {hole} again")
        if not node.has(hole):
            continue
        captured = bound_by(node) & free
        if captured and not (
            indices
            and isinstance(node, (sympy.Sum, sympy.Product))
            and all(_unrestricted_index(s) for s in captured)
        ):
            raise ValueError(f"{what}: a binder captures {sorted(map(str, captured))}")


def _admits(var: sympy.Symbol, dom: sympy.Basic | None, term: sympy.Basic) -> bool:
    """Is ``term`` a value of ``var`` (its assumptions) in ``dom``? Decided from SymPy's
    assumptions on the term alone, but a number's sign certified by the re-check's own
    numbers (``side_conditions.has``); False when they do not say."""
    from symbolic.evidence.side_conditions import has

    if not (has(term, "extended_real") and has(term, "finite")):
        return False  # certified for a number (√(log cos 10⁻⁶⁰) is imaginary), not SymPy's word
    if any(getattr(var, f"is_{k}") and not has(term, k) for k in _FACTS):
        return False
    if any(has(term, k) is not v for k, v in var.assumptions0.items()):
        return False  # every assumption of the variable (odd, even, prime, ...) as well
    return dom is None or _within(term, dom)


def _above(term: sympy.Basic, bound: sympy.Basic, strict: bool) -> bool:
    """``term − bound`` positive (``strict``) or nonnegative, a number's sign certified."""
    from symbolic.evidence.side_conditions import has

    if term.free_symbols or bound.free_symbols:  # SymPy's assumptions, as it simplifies
        gap = term - bound
    else:  # a number: nothing computed, its sign certified
        gap = sympy.Add(term, sympy.Mul(-1, bound, evaluate=False), evaluate=False)
    return bool(has(gap, "positive" if strict else "nonnegative"))


def _within(term: sympy.Basic, dom: sympy.Basic) -> bool:
    if dom == sympy.S.Reals:
        return True
    if dom == sympy.S.Integers:
        return bool(term.is_integer)
    if dom in (sympy.S.Naturals0, sympy.S.Naturals):
        low = 0 if dom == sympy.S.Naturals0 else 1
        return bool(term.is_integer) and _above(term, sympy.Integer(low), False)
    if isinstance(dom, sympy.Union):
        return any(_within(term, part) for part in dom.args)
    if isinstance(dom, sympy.Interval):
        lo_ok = dom.start == -sympy.oo or _above(term, dom.start, dom.left_open)
        hi_ok = dom.end == sympy.oo or _above(dom.end, term, dom.right_open)
        return lo_ok and hi_ok
    return False


def _put(expr: sympy.Basic, mapping: dict) -> sympy.Basic:
    with sympy.evaluate(False):
        return expr.xreplace(mapping)


def derive(rule: str, premises: list[sympy.Basic], detail: sympy.Basic | None) -> sympy.Basic:
    if rule == "trans":
        eqs = [_eq(p, rule) for p in premises]
        if not eqs:
            raise ValueError("trans: no premises")
        for left, right in zip(eqs, eqs[1:], strict=False):
            if not _srepr_equal(left.rhs, right.lhs):
                raise ValueError("trans: the chain breaks")
        return sympy.Eq(eqs[0].lhs, eqs[-1].rhs, evaluate=False)
    if rule == "symm":
        (p,) = premises
        p = _eq(p, rule)
        return sympy.Eq(p.rhs, p.lhs, evaluate=False)
    if rule == "cong":
        (p,) = premises
        p, lam = _eq(p, rule), _lambda(detail, rule)
        _no_capture(lam, (p.lhs, p.rhs))
        h = lam.variables[0]
        return sympy.Eq(_put(lam.expr, {h: p.lhs}), _put(lam.expr, {h: p.rhs}), evaluate=False)
    if rule == "inst":
        (p,) = premises
        if not isinstance(detail, sympy.Tuple):
            raise ValueError("inst: a premise and a tuple of (variable, term) pairs")
        variables = (
            p.variables
            if isinstance(p, ForAll)
            else tuple(v for v in p.free_symbols if isinstance(v, sympy.Symbol))
        )
        domains = dict(p.ranges()) if isinstance(p, ForAll) else {}
        mapping = {}
        for pair in detail:
            if not isinstance(pair, sympy.Tuple) or len(pair) != 2 or pair[0] not in variables:
                raise ValueError("inst: a pair that is not (variable, term)")
            if not _admits(pair[0], domains.get(pair[0]), pair[1]):
                raise ValueError(f"inst: {sympy.sstr(pair[1])[:40]} is not a value of {pair[0]}")
            mapping[pair[0]] = pair[1]
        _no_capture_by_instance(p.body if isinstance(p, ForAll) else p, mapping)
        body = _put(p.body if isinstance(p, ForAll) else p, mapping)
        if _divides_by_zero(body):
            raise ValueError("inst: the instance divides by 0")
        if not isinstance(p, ForAll):
            return body
        rest = [(v, d) for v, d in p.ranges() if v not in mapping]
        return (
            ForAll([v for v, _ in rest], body, sympy.Tuple(*[d for _, d in rest])) if rest else body
        )
    if rule == "mp":
        implication, antecedent = premises
        if not isinstance(implication, sympy.Implies) or not _srepr_equal(
            implication.args[0], antecedent
        ):
            raise ValueError("mp: the premises are not A ⇒ B and A")
        return implication.args[1]
    if rule == "conj":
        if len(premises) < 2:
            raise ValueError("conj: fewer than two premises")
        return sympy.And(*premises, evaluate=False)
    if rule == "unfold":
        (p,) = premises
        p = _eq(p, rule)
        if not isinstance(p.lhs, sympy.Symbol):
            raise ValueError("unfold: the premise is not a definition c = value")
        if isinstance(detail, sympy.Lambda):
            if not _srepr_equal(detail.variables[0], p.lhs):
                raise ValueError("unfold: the definition's name is not the Lambda's variable")
            detail = detail.expr
        if detail is None:
            raise ValueError("unfold: no expression to unfold in")
        _no_capture(sympy.Lambda(p.lhs, detail), (p.rhs,), indices=False, what="unfold")
        return sympy.Eq(detail, _put(detail, {p.lhs: p.rhs}), evaluate=False)
    if rule == "iff":
        forward, backward = premises
        if not (
            isinstance(forward, sympy.Implies)
            and isinstance(backward, sympy.Implies)
            and _srepr_equal(forward.args[0], backward.args[1])
            and _srepr_equal(forward.args[1], backward.args[0])
        ):
            raise ValueError("iff: the premises are not A ⇒ B and B ⇒ A")
        return sympy.Equivalent(*forward.args, evaluate=False)
    if rule == "gen":
        (p,) = premises
        if not isinstance(detail, sympy.Tuple) or not detail:
            raise ValueError("gen: no variables")
        if any(v not in p.free_symbols for v in detail):
            raise ValueError("gen: a variable that is not free in the premise")
        if not all(_plain(v) for v in detail):
            raise ValueError("gen: a variable whose assumptions no quantifier's set writes")
        return ForAll(tuple(detail), p)
    if rule == "scalar_transpose":
        if premises or not isinstance(detail, sympy.MatrixExpr) or detail.shape != (1, 1):
            raise ValueError("scalar_transpose: no premise and a 1×1 matrix expression")
        return sympy.Eq(detail, sympy.Transpose(detail), evaluate=False)
    raise ValueError(f"unknown rule {rule!r}")
