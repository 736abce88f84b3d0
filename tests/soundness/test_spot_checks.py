"""Spot checks (``spot_checks.spot_check``): an identity the re-check cannot prove is
evaluated at random points of its domain, with every uninterpreted part made concrete — σ by a
random quadratic, a matrix by a random rational matrix, an entry ``x[i]`` of an ``IndexedBase``
by a random rational, a block matrix written out, ``d/dt`` taken first. A true identity is
``spot-checked``; one that fails at a point is ``DISAGREES``, never a pass."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence.spot_checks import spot_check

n = sympy.Symbol("n", integer=True, positive=True)
i = sympy.Symbol("i", integer=True, nonnegative=True)
t, lam, q0 = sympy.symbols("t lambda Q_0", real=True)
x, y = sympy.IndexedBase("x", real=True), sympy.IndexedBase("y", real=True)
sigma = sympy.Function("sigma")
A, B, C, D = (sympy.MatrixSymbol(name, n, n) for name in "ABCD")


def _eq(a, b):
    return sympy.Eq(a, b, evaluate=False)


CASES = {
    "entries of an IndexedBase in sums": (
        _eq(sympy.Sum(x[i] * y[i], (i, 0, n - 1)), sympy.Sum(y[i] * x[i], (i, 0, n - 1))),
        _eq(sympy.Sum(x[i] * y[i], (i, 0, n - 1)), sympy.Sum(x[i] * x[i], (i, 0, n - 1))),
    ),
    "σ applied inside a sum": (
        _eq(
            sympy.Sum(sigma(x[i]) * y[i] - sigma(x[i] * y[i]), (i, 0, n - 1)),
            sympy.Sum(sigma(x[i]) * y[i], (i, 0, n - 1))
            - sympy.Sum(sigma(x[i] * y[i]), (i, 0, n - 1)),
        ),
        _eq(
            sympy.Sum(sigma(x[i]) * y[i], (i, 0, n - 1)),
            sympy.Sum(sigma(x[i] * y[i]), (i, 0, n - 1)),
        ),
    ),
    "a block matrix product": (
        _eq(sympy.BlockMatrix([[A, B]]) * sympy.BlockMatrix([[C], [D]]), A * C + B * D),
        _eq(sympy.BlockMatrix([[A, B]]) * sympy.BlockMatrix([[C], [D]]), C * A + B * D),
    ),
    "a derivative in t": (
        _eq(
            sympy.Derivative(q0 * sympy.exp(-2 * lam * t), t),
            -2 * lam * q0 * sympy.exp(-2 * lam * t),
        ),
        _eq(
            sympy.Derivative(q0 * sympy.exp(-2 * lam * t), t),
            2 * lam * q0 * sympy.exp(-2 * lam * t),
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_true_identity_is_spot_checked_and_a_false_one_disagrees(name):
    true, false = CASES[name]
    outcome, text = spot_check(true)
    assert outcome == "spot-checked" and not text.startswith("0/"), text
    assert spot_check(false)[0] == "DISAGREES"


@settings(max_examples=25, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(-3, 3))
def test_a_perturbed_sum_identity_disagrees(a, b, wrong):
    """Σ_i (a·x_i + b·y_i) = a·Σ x_i + b·Σ y_i, and the same with b changed by ``wrong``."""
    lhs = sympy.Sum(a * x[i] + b * y[i], (i, 0, n - 1))
    rhs = a * sympy.Sum(x[i], (i, 0, n - 1)) + (b + wrong) * sympy.Sum(y[i], (i, 0, n - 1))
    outcome = spot_check(_eq(lhs, rhs))[0]
    assert outcome == ("spot-checked" if wrong == 0 else "DISAGREES")


k, m = sympy.symbols("k m", integer=True)


@settings(max_examples=20, deadline=None)
@given(
    st.integers(-3, 3),
    st.integers(0, 4),  # terms: 0 is an empty sum (or product)
    st.lists(st.integers(-3, 3), min_size=1, max_size=3),
    st.sampled_from([sympy.Sum, sympy.Product]),
)
def test_written_out_sums_are_sympy_sums(a, length, coefficients, head):
    """A sum or product with integer bounds (empty included), nested with a bound that depends
    on the outer index, written out term by term, is what SymPy's ``doit`` computes (a reversed
    inner one is left for it)."""
    from symbolic.evidence.spot_checks import _unrolled

    b = a + length - 1
    f = sum(c * k**p for p, c in enumerate(coefficients)) + m
    nested = head(head(f, (m, 0, k)), (k, a, b))
    assert _unrolled(nested).doit() == nested.doit()
    assert _unrolled(head(f, (m, 0, 2), (k, a, b))) == head(f, (m, 0, 2), (k, a, b)).doit()


def test_a_reversed_sum_is_left_to_sympy():
    from symbolic.evidence.spot_checks import _unrolled

    reversed_sum = sympy.Sum(k, (k, 3, 0))
    assert _unrolled(reversed_sum) == reversed_sum
