"""The API's side of issue 24: exact numbers, one-line errors for what is not a number or a
statement, ``@claim(statement=...)``, and the README example unchanged."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import InvalidArgument, assert_proved, claim, equal, nonzero, positive, valid

x = sympy.Symbol("x", real=True)


@pytest.mark.parametrize(
    "step, status",
    [
        (lambda: equal(0.1 + 0.2, 0.3), "refuted"),
        (lambda: equal(math.sqrt(2), sympy.sqrt(2)), "refuted"),
        (lambda: equal(1.0000000000000002, 1), "refuted"),
        (lambda: nonzero(1e-300), "proved"),
        (lambda: positive(1e-100), "proved"),
        (lambda: positive((0.1 + 0.2) - 0.3), "proved"),  # Python's difference is 2⁻⁵⁴
        (lambda: equal(0.5 * x, x / 2), "proved"),
    ],
)
def test_a_float_is_its_binary_value(step, status):
    assert step().fact.status == status


@settings(max_examples=50, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300))
def test_property_positive_of_a_float_is_its_sign(f):
    fact = positive(f).fact
    assert fact.status == ("proved" if Fraction(f) > 0 else "refuted")


@pytest.mark.parametrize(
    "call, named",
    [
        (lambda: equal(sympy.true, sympy.false), "lhs="),
        (lambda: equal(sympy.Matrix([[1]]), 1), "matrix"),
        (lambda: nonzero(sympy.eye(2)), "expr="),
        (lambda: positive(x > 1), "expr="),
        (lambda: equal("x", 1), "lhs="),
        (lambda: equal(float("nan"), 0), "lhs="),
        (lambda: valid(x + 1), "valid(formula="),
        (lambda: valid(lambda z3: z3.Real("x") + 1), "build(z3)"),
        (lambda: valid(sympy.sin(x) <= 1), "sin"),
    ],
)
def test_what_is_not_a_number_or_a_statement_is_a_one_line_error(call, named):
    with pytest.raises(InvalidArgument) as info:
        call()
    assert named in str(info.value) and "\n" not in str(info.value)


def test_matrices_of_different_shapes_are_not_equal():
    assert equal(sympy.Matrix([[1, 2]]), sympy.Matrix([[1], [2]])).fact.status == "refuted"


def test_a_claim_states_its_formula_and_the_docstring_is_its_note():
    @claim("t.stated", statement=sympy.Eq((x + 1) ** 2, x**2 + 2 * x + 1))
    def stated():
        """Squaring a sum."""
        yield equal((x + 1) ** 2, x**2 + 2 * x + 1)

    result = stated()
    assert result.claim.statement == sympy.Eq((x + 1) ** 2, x**2 + 2 * x + 1)
    assert result.claim.note == "Squaring a sum."
    assert_proved(result)


def test_without_a_statement_the_claim_states_its_last_step():
    @claim("t.last")
    def last():
        """Prose only."""
        yield equal(x * 2, x + x)

    result = last()
    assert result.claim.statement == result.derivation.steps[-1].formula


def test_a_statement_must_be_a_formula():
    with pytest.raises(InvalidArgument, match="statement"):
        claim("t.bad", statement="x = x")
    with pytest.raises(InvalidArgument, match="statement"):
        claim("t.bad", statement=x + 1)
