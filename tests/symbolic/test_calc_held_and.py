"""``calc.held_and``: the conjunction ``sympy.And`` builds (flattened, ``true`` dropped, duplicates
merged, SymPy's order), without its canonical-form pass — so that a statement built with it is
the very formula the kernel's ``conj`` concludes, or visibly not."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.calc import held_and
from symbolic.engine import same_statement
from symbolic.kernel import check_equal, conj

a, b, c = sympy.symbols("a b c", real=True)
f = sympy.Function("f", real=True)

FORMULAS = (
    sympy.Eq((a + b) ** 2, a**2 + 2 * a * b + b**2, evaluate=False),
    sympy.Eq(sympy.Max(a, 0, evaluate=False) + f(b), f(b) + sympy.Max(a, 0), evaluate=False),
    sympy.Implies(sympy.Eq(a, b), sympy.Eq(f(a), f(b))),
    sympy.Not(sympy.Eq(a * c, c, evaluate=False), evaluate=False),
    sympy.Lt(a, b),
    sympy.And(sympy.Eq(c, 1), sympy.Gt(b, 0)),  # nested: flattened
    sympy.true,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FORMULAS), min_size=2, max_size=6))
def test_the_formula_sympy_and_builds(formulas):
    expected = sympy.And(*formulas, evaluate=False)
    held = held_and(*formulas)
    assert held == expected and type(held) is type(expected)
    assert sympy.srepr(held) == sympy.srepr(expected) and hash(held) == hash(expected)
    assert held.args == expected.args


def test_false_and_a_single_formula():
    assert held_and(FORMULAS[0], sympy.false) is sympy.false
    assert held_and(FORMULAS[0], sympy.true) == FORMULAS[0]
    assert held_and(FORMULAS[0], FORMULAS[0]) == FORMULAS[0]


def test_the_statement_of_a_conjunction_of_facts():
    first = check_equal((a + b) ** 2, a**2 + 2 * a * b + b**2)
    second = check_equal(sympy.Max(a, 0) * 2, 2 * sympy.Max(a, 0))
    statement = held_and(first.formula, second.formula)
    assert same_statement(conj(first, second).formula, statement)
