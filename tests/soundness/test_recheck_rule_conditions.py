"""The re-check derives ``inst`` and ``cong`` with their side conditions, as the kernel does:
a tampered manifest that instantiates ``∀ x > 0`` at −1, or slips a sum's index into a
congruence, is refused (``ValueError``: the re-check reports a disagreement)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.evidence.rules import derive
from symbolic.kernel import ForAll

x = sympy.Symbol("x", real=True)
t = sympy.Symbol("t", positive=True)
h = sympy.Symbol("h")
n = sympy.Symbol("n", integer=True, positive=True)


def _inst(premise, term):
    return derive("inst", [premise], sympy.Tuple(sympy.Tuple(premise_var(premise), term)))


def premise_var(premise):
    return (
        premise.variables[0]
        if isinstance(premise, ForAll)
        else sorted(premise.free_symbols, key=str)[0]
    )


def test_inst_outside_the_domain_or_the_assumptions_is_refused():
    positive = ForAll((x,), sympy.Gt(x, 0), sympy.Interval.open(0, sympy.oo))
    assert _inst(positive, sympy.Integer(2)) == sympy.Gt(2, 0, evaluate=False)
    with pytest.raises(ValueError, match="not a value"):
        _inst(positive, sympy.Integer(-1))
    open_fact = sympy.Eq(sympy.Abs(t, evaluate=False), t, evaluate=False)  # t > 0 assumed
    with pytest.raises(ValueError, match="not a value"):
        _inst(open_fact, sympy.Integer(-1))
    with pytest.raises(ValueError, match="not a value"):
        _inst(open_fact, sympy.Symbol("u"))  # not known to be real


@given(st.fractions(min_value=-3, max_value=3))
def test_inst_in_a_closed_interval_exactly_when_the_term_lies_in_it(r):
    fact = ForAll((x,), sympy.Le(x**2, x), sympy.Interval(0, 1))
    term = sympy.Rational(r.numerator, r.denominator)
    if Fraction(0) <= r <= 1:
        assert derive("inst", [fact], sympy.Tuple(sympy.Tuple(x, term))) is not None
    else:
        with pytest.raises(ValueError):
            derive("inst", [fact], sympy.Tuple(sympy.Tuple(x, term)))


def test_cong_refuses_a_capture_but_an_unrestricted_sum_index():
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    j = sympy.Symbol("j", integer=True)
    captured = sympy.Lambda(h, sympy.Sum(h, (k, 0, n)))
    with pytest.raises(ValueError, match="captures"):
        derive("cong", [sympy.Eq(k, k + 0 * k, evaluate=False)], captured)
    free = sympy.Lambda(h, sympy.Sum(h, (j, 0, n)))
    out = derive("cong", [sympy.Eq(2 * j, j + j, evaluate=False)], free)
    assert isinstance(out, sympy.Eq)
    lam = sympy.Lambda(h, ForAll((x,), sympy.Eq(h, x), sympy.S.Reals))
    with pytest.raises(ValueError, match="captures"):
        derive("cong", [sympy.Eq(x, 2 * x - x, evaluate=False)], lam)
