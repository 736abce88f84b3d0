"""``calc.zero_or_witnessed_break``: ``e = 0`` decided by SymPy is the proved identity, or —
refuted at a point — the kernel's certified counterexample at that point, negated: the same
fact a witness search gives (``negate(counterexample(...))``)."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.calc import zero_or_witnessed_break
from symbolic.kernel import counterexample, negate

a, b = sympy.symbols("a b", real=True)


def test_an_identity_is_proved_as_itself():
    fact = zero_or_witnessed_break((a + b) ** 2 - a**2 - 2 * a * b - b**2, (a, b))
    assert fact.proved and isinstance(fact.formula, sympy.Eq)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4))
def test_a_false_identity_is_the_negation_a_witness_gives(k):
    expr = sympy.exp(k * a) - k * sympy.exp(a) + 0 * b  # an identity exactly when k = 1
    fact = zero_or_witnessed_break(expr, (a,))
    if k == 1:
        assert fact.proved and isinstance(fact.formula, sympy.Eq)
        return
    assert fact.proved and isinstance(fact.formula, sympy.Not)
    assert fact.formula == negate(counterexample(expr, 0, {a: sympy.Integer(1)}, (a,))).formula
