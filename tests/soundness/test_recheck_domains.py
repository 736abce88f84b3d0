"""A witness is re-checked in the domain the manifest's formula gives, whatever its set:
an interval, a union of intervals (``ℝ∖{0}``, as rank_r's gated breaks have), a finite set."""

from __future__ import annotations

from fractions import Fraction

import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.evidence.certificates import check_witness
from symbolic.evidence.formula_reader import read_formula
from symbolic.kernel import ForAll

x = sympy.Symbol("x", real=True)
NONZERO = sympy.Union(sympy.Interval.open(-sympy.oo, 0), sympy.Interval.open(0, sympy.oo))


def _point(v) -> dict:
    return {"x": sympy.srepr(sympy.Rational(v.numerator, v.denominator))}


@given(st.fractions(min_value=-50, max_value=50))
def test_a_union_domain_admits_its_parts_and_refuses_the_gap(v):
    formula = ForAll((x,), sympy.Eq(x**2, x), NONZERO)  # false at every x ∉ {0, 1}
    cert = {"value": str(v * v - v)}  # lhs − rhs at the witness, as the export writes it
    outcome, text = check_witness(formula, _point(v), cert, read_formula)
    if v == 0:
        assert outcome == "DISAGREES" and "outside the domain" in text
    elif v == 1:
        assert outcome != "refuted"
    else:
        assert outcome == "refuted", text


def test_a_witness_in_a_finite_set_and_outside_it():
    formula = ForAll((x,), sympy.Eq(x**2, x), sympy.FiniteSet(0, 2))
    assert check_witness(formula, _point(Fraction(2)), {"value": "2"}, read_formula)[0] == "refuted"
    outcome, text = check_witness(formula, _point(Fraction(3)), {"value": "6"}, read_formula)
    assert outcome == "DISAGREES" and "outside the domain" in text
