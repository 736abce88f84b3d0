"""The kernel red-team round 5 (session 12): each test a class of false closed statement proved
by chaining public kernel calls (truth by hand), now refused. Each fails on the kernel before
the fix."""

from __future__ import annotations

import sys

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    ForAll,
    RuleError,
    check_equal,
    check_valid_formula,
    cong,
    conj,
    define,
    gen,
    inst,
    mp,
)

x, y, h = sympy.symbols("x y h", real=True)


def U(head, *args):
    return head(*args, evaluate=False)


def test_a_definitions_free_variables_are_fixed_like_its_name():
    """c := x, then ∀x: c = x, instances at 0 and 1: 0 = c = 1."""
    c = sympy.Symbol("c", real=True)
    with pytest.raises(RuleError, match="defined name"):
        gen(define(c, x), (x,))
    with pytest.raises(RuleError, match="defined name"):
        inst(define(c, x), {x: sympy.Integer(0)})


def test_definitions_in_terms_of_each_other_are_refused():
    """c := d + 1 and d := c + 1 together are false: Z3 then proves anything from them."""
    c, d = sympy.symbols("c d", real=True)
    with pytest.raises(RuleError, match="in terms of itself"):
        conj(define(c, d + 1), define(d, c + 1))
    chain = conj(define(c, d + 1), define(d, sympy.Integer(2)))  # a chain is no cycle
    assert chain.proved


@settings(max_examples=25, deadline=None)
@given(st.integers(-50, 50))
def test_a_definition_meets_its_names_assumptions(k):
    """c > 0 defined as k ≤ 0 would prove 1 = 2 (Z3: c = k ⇒ 1 = 2 holds vacuously)."""
    c = sympy.Symbol("c", positive=True)
    if k > 0:
        assert define(c, sympy.Integer(k)).admitted
    else:
        with pytest.raises(ValueError, match="not decided to be"):
            define(c, sympy.Integer(k))


def test_a_closed_divisor_sympy_cannot_decide_is_certified_before_a_rule_uses_it():
    """c = max(1, 2) − 2 is 0 though SymPy's is_zero says None: y·y⁻¹ = 1 at c, then cong
    and trans, gave 1 = 0."""
    c = U(sympy.Add, U(sympy.Max, sympy.Integer(1), sympy.Integer(2)), sympy.Integer(-2))
    assert c.is_zero is None
    per_y = check_valid_formula(ForAll((y,), U(sympy.Eq, U(sympy.Mul, y, U(sympy.Pow, y, -1)), 1)))
    with pytest.raises(RuleError, match="not certified nonzero"):
        inst(per_y, {y: c})
    with pytest.raises(RuleError, match="not certified nonzero"):
        context = sympy.Lambda(h, U(sympy.Mul, h, U(sympy.Pow, c, -1)))
        cong(check_equal(c, sympy.Integer(0)), context)
    nonzero = U(sympy.Add, U(sympy.Max, sympy.Integer(1), sympy.Integer(2)), sympy.Integer(-1))
    assert inst(per_y, {y: nonzero}).proved  # a divisor certified nonzero is fine


@settings(max_examples=20, deadline=None)
@given(st.fractions(min_value=-20, max_value=20, max_denominator=9))
def test_an_instance_never_divides_by_a_closed_zero(q):
    """Property: whatever its form, a closed divisor equal to 0 never gets through inst."""
    q = sympy.Rational(q.numerator, q.denominator)
    zero = U(sympy.Add, U(sympy.Max, q, q - 1), -q)  # max(q, q − 1) − q = 0
    per_y = check_valid_formula(ForAll((y,), U(sympy.Eq, U(sympy.Mul, y, U(sympy.Pow, y, -1)), 1)))
    with pytest.raises(RuleError):
        inst(per_y, {y: zero})


def test_a_quantifier_cannot_bind_a_second_symbol_of_its_variables_name():
    """∀ x ∈ ℝ, y > 0: y > 0, then y := x with x positive: '∀ x ∈ ℝ: x > 0' proved."""
    x_pos, y_pos = sympy.Symbol("x", positive=True), sympy.Symbol("y", positive=True)
    fact = check_valid_formula(ForAll((x, y_pos), U(sympy.Gt, y_pos, 0)))
    with pytest.raises(InvalidArgument, match="print alike"):
        inst(fact, {y_pos: x_pos})


def test_a_log_with_a_base_is_no_input():
    """SymPy calls the unevaluated log(2, −8) real (it reads args[0]): it is ln 2/(ln 8 + iπ)."""
    squares = check_valid_formula(ForAll((x,), U(sympy.Ge, x**2, 0)))
    with pytest.raises(RuleError, match="base"):
        inst(squares, {x: U(sympy.log, sympy.Integer(2), sympy.Integer(-8))})
    with pytest.raises(InvalidArgument, match="base"):
        check_equal(U(sympy.log, sympy.Integer(8), sympy.Integer(2)), sympy.Integer(3))


def test_a_float_put_in_place_by_a_rule_is_refused():
    """A number means its exact value: a rule's term may not bring in a Float."""
    fact = check_valid_formula(ForAll((x,), U(sympy.Ge, x**2, 0)))
    with pytest.raises(RuleError, match="Float"):
        inst(fact, {x: sympy.Float("0.1")})


def test_a_quantifier_inside_a_connective_is_parenthesised():
    """'∀ a: A ∧ B' would read as ∀ a: (A ∧ B)."""
    a = sympy.Symbol("a", positive=True)
    q = ForAll((a,), U(sympy.Gt, a * x**2, -1))
    both = U(sympy.And, q, U(sympy.Eq, x, 1))
    assert "(∀ a ∈ (0, ∞): a*x**2 > -1)" in sympy.sstr(both)
    assert r"\left(\forall a" in sympy.latex(both)
    assert sympy.sstr(U(sympy.Not, q)).startswith("~(∀")


def test_mp_through_a_vacuous_implication_needs_consistent_definitions():
    """The chain of finding F02: c > 0 := −1, Z3's vacuous c = −1 ⇒ 1 = 2, mp."""
    c = sympy.Symbol("c", positive=True)
    with pytest.raises(ValueError):
        definition = define(c, sympy.Integer(-1))
        implication = check_valid_formula(
            U(sympy.Implies, definition.formula, U(sympy.Eq, sympy.Integer(1), sympy.Integer(2)))
        )
        mp(implication, definition)


def test_a_closed_divisor_not_certified_in_time_leaves_the_conclusion_unknown(monkeypatch):
    """Under a tiny time limit 1/log 2's divisor was not certified, the rule raised, the
    command's whole report was lost (exit 3, nothing printed) — and the failure was cached for
    the rest of the process. Now: that conclusion is unknown, and the divisor is asked again."""
    from types import SimpleNamespace

    from symbolic.kernel import check_equal, symm

    kernel_rules = sys.modules[symm.__module__]  # the kernel's private cache and its checker

    x = sympy.Symbol("x", real=True)
    log2 = sympy.log(2)
    fact = check_equal(sympy.sin(x) ** 2 / log2 + sympy.cos(x) ** 2 / log2, 1 / log2)
    assert fact.proved
    kernel_rules._NONZERO.pop(log2, None)
    real = kernel_rules.certified_sign
    stopped = SimpleNamespace(reason="time limit of 0.0001 s reached")
    monkeypatch.setattr(kernel_rules, "certified_sign", lambda *a, **k: (None, stopped))
    undecided = symm(fact)
    assert undecided.status == "unknown" and "in time" in undecided.verdict.reason
    monkeypatch.setattr(kernel_rules, "certified_sign", real)
    assert symm(fact).proved  # asked again, certified
