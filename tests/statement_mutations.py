"""A claim's statement changed by one sign (test tooling, not installed): the same derivation
must then leave the claim ``failed`` — proof that the claim is bound to its statement."""

from __future__ import annotations

from dataclasses import replace

import sympy

from symbolic.engine import Result


def one_sign_changed(statement: sympy.Basic) -> sympy.Basic:
    """The statement with the sign of one right-hand side flipped (the first conjunct's, the
    conclusion's of an implication, under a negation or a quantifier)."""
    if isinstance(statement, sympy.And):
        first, *rest = statement.args
        return sympy.And(one_sign_changed(first), *rest, evaluate=False)
    if isinstance(statement, sympy.Not):
        return sympy.Not(one_sign_changed(statement.args[0]), evaluate=False)
    if isinstance(statement, sympy.Implies):
        return sympy.Implies(statement.args[0], one_sign_changed(statement.args[1]))
    if hasattr(statement, "body"):  # ForAll / Exists
        return type(statement)(statement.variables, one_sign_changed(statement.body))
    if statement.rhs == 0:
        return sympy.Eq(-statement.lhs, 0, evaluate=False)
    return sympy.Eq(statement.lhs, -statement.rhs, evaluate=False)


def assert_each_fails_with_one_sign_changed(report) -> None:
    for result in report.results:
        wrong = Result(
            replace(result.claim, statement=one_sign_changed(result.claim.statement)),
            result.derivation,
            result.numeric,
        )
        assert wrong.status == "failed", result.claim.name
        assert "not the claim's statement" in wrong.reason, result.claim.name
