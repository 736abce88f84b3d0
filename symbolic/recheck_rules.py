"""The kernel's inference rules, re-derived by the re-check on its own (issue 25).

``derive(rule, premises, detail)`` is the formula a rule concludes from its premises'
formulas (read from the manifest) and its argument; the re-check compares it with the step's
formula. A few lines per rule, independent of ``symbolic.kernel.rules``:

* ``trans``: ``a0 = a1, a1 = a2, …, a(n−1) = an`` ⊢ ``a0 = an``;
* ``symm``: ``a = b`` ⊢ ``b = a``;
* ``cong``: ``a = b`` and ``λh. C`` ⊢ ``C[h:=a] = C[h:=b]``;
* ``inst``: ``∀ v…: body`` and ``((v1, t1), …)`` ⊢ ``body[v:=t]``;
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

from symbolic.kernel.logic import ForAll


def _srepr_equal(a: sympy.Basic, b: sympy.Basic) -> bool:
    return sympy.srepr(a) == sympy.srepr(b)


def _eq(f: sympy.Basic, what: str) -> sympy.Eq:
    if not isinstance(f, sympy.Eq):
        raise ValueError(f"{what}: premise {sympy.sstr(f)[:60]} is not an equation")
    return f


def _lambda(detail: sympy.Basic | None, what: str) -> sympy.Lambda:
    if not isinstance(detail, sympy.Lambda) or len(detail.variables) != 1:
        raise ValueError(f"{what}: the argument is not a one-variable Lambda")
    return detail


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
        mapping = {}
        for pair in detail:
            if not isinstance(pair, sympy.Tuple) or len(pair) != 2 or pair[0] not in variables:
                raise ValueError("inst: a pair that is not (variable, term)")
            mapping[pair[0]] = pair[1]
        if not isinstance(p, ForAll):
            return _put(p, mapping)
        body = _put(p.body, mapping)
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
        return ForAll(tuple(detail), p)
    if rule == "scalar_transpose":
        if premises or not isinstance(detail, sympy.MatrixExpr) or detail.shape != (1, 1):
            raise ValueError("scalar_transpose: no premise and a 1×1 matrix expression")
        return sympy.Eq(detail, sympy.Transpose(detail), evaluate=False)
    raise ValueError(f"unknown rule {rule!r}")
