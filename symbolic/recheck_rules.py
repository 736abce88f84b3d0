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
* ``unfold``: the definition ``c = value`` and ``λc. E`` ⊢ ``E[c] = E[c:=value]``.

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
        return sympy.Eq(lam.expr.xreplace({h: p.lhs}), lam.expr.xreplace({h: p.rhs}),
                        evaluate=False)
    if rule == "inst":
        (p,) = premises
        if not isinstance(p, ForAll) or not isinstance(detail, sympy.Tuple):
            raise ValueError("inst: a ∀ premise and a tuple of (variable, term) pairs")
        mapping = {}
        for pair in detail:
            if not isinstance(pair, sympy.Tuple) or len(pair) != 2 or pair[0] not in p.variables:
                raise ValueError("inst: a pair that is not (bound variable, term)")
            mapping[pair[0]] = pair[1]
        return p.body.xreplace(mapping)
    if rule == "mp":
        implication, antecedent = premises
        if not isinstance(implication, sympy.Implies) or not _srepr_equal(
                implication.args[0], antecedent):
            raise ValueError("mp: the premises are not A ⇒ B and A")
        return implication.args[1]
    if rule == "conj":
        if len(premises) < 2:
            raise ValueError("conj: fewer than two premises")
        return sympy.And(*premises, evaluate=False)
    if rule == "unfold":
        (p,) = premises
        p, lam = _eq(p, rule), _lambda(detail, rule)
        if not isinstance(p.lhs, sympy.Symbol) or not _srepr_equal(lam.variables[0], p.lhs):
            raise ValueError("unfold: the definition's name is not the Lambda's variable")
        return sympy.Eq(lam.expr, lam.expr.xreplace({p.lhs: p.rhs}), evaluate=False)
    raise ValueError(f"unknown rule {rule!r}")
