"""A noncommutative divisor is shown as invertible. SymPy cancels ``G⁻¹G`` to 1 for any
noncommutative G, and calls G nonzero (it is no number), so ``G⁻¹G = 1`` was proved with no
condition at all — where it holds only for an invertible G. The domain now shows
``G invertible``; a chain through it that ends in a statement without that condition is
``unknown``, and least squares' exact recall assumes KᵀK invertible, counted as an assumption."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.calc import Calc
from symbolic.engine import Claim, Derivation, Result
from symbolic.kernel import check_equal

G, H = sympy.symbols("G H", commutative=False)
x = sympy.Symbol("x", real=True)


def inverse_times(g):
    return sympy.Mul(sympy.Pow(g, -1, evaluate=False), g, evaluate=False)


def test_a_noncommutative_inverse_is_claimed_where_invertible():
    fact = check_equal(inverse_times(G), 1)
    assert fact.status == "proved" and "G invertible" in fact.domain
    assert not any("G ≠ 0" in d for d in fact.domain)
    scalar = check_equal(inverse_times(x), 1)
    assert scalar.status == "proved" and "x ≠ 0" in scalar.domain


def test_a_chain_through_an_inverse_does_not_prove_an_unconditioned_statement():
    """B := G⁻¹, then B·G = G⁻¹G = 1: the statement B·G = 1 shows no inverse, so the chain,
    which holds where G is invertible, does not prove it (it did, with no condition)."""
    from symbolic.engine import Step
    from symbolic.kernel import define, unfold

    B = sympy.Symbol("B", commutative=False)
    inv = define(B, sympy.Pow(G, -1, evaluate=False))
    by_b = unfold(inv, sympy.Mul(B, G, evaluate=False))
    calc = Calc(sympy.Mul(B, G, evaluate=False)).eq(by_b.formula.rhs, "unfold B", by=by_b)
    calc = calc.eq(sympy.Integer(1), "cancel")
    claim = Claim("t.inv", "t", "B·G = 1", "A6", statement=sympy.Eq(B * G, 1, evaluate=False))
    steps = (Step(inv, "B := G⁻¹"),) + calc.steps()
    result = Result(claim, Derivation(steps))
    assert result.status == "unknown" and "G invertible" in result.reason


def test_least_squares_exact_recall_assumes_the_gram_matrix_invertible():
    from proofs.capacity import ls_exact_recall

    result = ls_exact_recall(8)
    assert result.status == "proved"
    assert len(result.assumptions) == 1 and not result.oracles


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["A", "B", "K", "W"]), st.integers(1, 3))
def test_every_negative_power_of_a_noncommutative_symbol_is_shown_invertible(name, k):
    g = sympy.Symbol(name, commutative=False)
    lhs = sympy.Mul(
        sympy.Pow(g, -k, evaluate=False), sympy.Pow(g, k, evaluate=False), evaluate=False
    )
    fact = check_equal(lhs, 1)
    assert f"{name} invertible" in fact.domain
