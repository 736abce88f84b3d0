"""``literal`` / ``literal_replace``: replacement and nothing else, without clearing SymPy's
cache (``with sympy.evaluate(False)`` clears it on entry and exit: a fifth of a run's CPU).
Checked against that context on random expressions, so a builder that evaluated a node, or
dropped one, fails."""

from __future__ import annotations

import sympy
import sympy.core.parameters
from hypothesis import example, given
from hypothesis import strategies as st

from symbolic.kernel import literal, literal_replace

x, y = sympy.symbols("x y", real=True)
f = sympy.Function("f")
LEAVES = st.sampled_from([x, y, sympy.Integer(0), sympy.Integer(1), sympy.Integer(2), sympy.pi])
HEADS = st.sampled_from(
    [
        lambda a, b: sympy.Add(a, b, evaluate=False),
        lambda a, b: sympy.Mul(a, b, evaluate=False),
        lambda a, b: sympy.Pow(a, b, evaluate=False),
        lambda a, b: sympy.Max(a, b, evaluate=False),
        lambda a, b: f(a, b),
        lambda a, b: sympy.Piecewise((a, sympy.Gt(b, 0, evaluate=False)), (b, True)),
    ]
)


def _built(head, a, b):
    try:
        return head(a, b)
    except (TypeError, ValueError):  # a NaN compared while building, and the like
        return None


def _terms(sub):
    return st.builds(_built, HEADS, sub, sub).filter(lambda e: e is not None)


TERMS = st.recursive(LEAVES, _terms, max_leaves=12)
EXPRS = st.one_of(TERMS, st.builds(lambda a, b: sympy.Eq(a, b, evaluate=False), TERMS, TERMS))
VALUES = st.sampled_from([sympy.Integer(0), sympy.Integer(1), x + 1, sympy.Rational(1, 2), y])


def _outcome(build):
    try:
        return build()
    except (TypeError, ValueError) as exc:
        return type(exc)


def _old_way(expr, rule):
    with sympy.evaluate(False):
        return expr.xreplace(rule)


def _same_branches_dropped(e):
    """``ITE(c, b, b)`` as ``b``: SymPy's ``ITE`` drops its condition even with evaluation off
    (a nested Piecewise holds one), which ``literal_replace`` rightly does not."""
    if not isinstance(e, sympy.Basic) or not e.args:
        return e
    if isinstance(e, sympy.ITE) and e.args[1] == e.args[2]:
        return _same_branches_dropped(e.args[1])
    return literal(e.func, [_same_branches_dropped(a) for a in e.args])


@given(EXPRS, VALUES, VALUES)
@example(  # found by Hypothesis: ITE(0 > 0, 0 > 0, 0 > 0) is 0 > 0 under evaluate(False)
    sympy.Piecewise(
        (x, sympy.ITE(y > 0, x > 0, y > 0)), (sympy.Piecewise((x, y > 0), (y, True)), True)
    ),
    sympy.Integer(0),
    sympy.Integer(0),
)
def test_literal_replace_is_xreplace_with_evaluation_off(expr, vx, vy):
    rule = {x: vx, y: vy}
    old = _outcome(lambda: _old_way(expr, rule))
    new = _outcome(lambda: literal_replace(expr, rule))
    assert new == old or _same_branches_dropped(new) == old


def test_nothing_is_evaluated_and_the_cache_is_not_cleared(monkeypatch):
    cleared = []
    monkeypatch.setattr(sympy.core.parameters, "clear_cache", lambda: cleared.append(1))
    e = sympy.Eq(sympy.Add(x, x, evaluate=False), sympy.Mul(2, y, evaluate=False), evaluate=False)
    got = literal_replace(e, {y: x})
    assert got.args[0].args == (x, x) and got.args[1].args == (2, x)  # x + x = 2·x as written
    assert isinstance(got, sympy.Eq)  # not the value True
    branch = sympy.Piecewise((x, x > 0), (0, True))
    one = sympy.Integer(1)
    assert literal_replace(branch, {x: one}).args[0].args == (1, sympy.Gt(one, 0, evaluate=False))
    assert literal(sympy.Pow, (sympy.Integer(0), sympy.Integer(2))).args == (0, 2)
    assert not cleared
    assert literal_replace(e, {}) is e
