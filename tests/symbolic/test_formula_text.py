"""The plain-text rendering of checked formulas (symbolic/formula_text.py)."""

from __future__ import annotations

import pytest
import sympy

from symbolic.formula_text import text

x = sympy.MatrixSymbol("x", 2, 3)  # two tokens: the ones column is 2×1
Q = sympy.MatrixSymbol("Q", 3, 3)
b_q = sympy.MatrixSymbol("b_q", 1, 3)


@pytest.mark.parametrize(("expr", "expected"), [
    (x * Q + sympy.OneMatrix(2, 1) * b_q, "x*Q + 𝟏*b_q"),  # the ones column, not the number 1
    (sympy.Eq(sympy.Function("sigma")(0), 0), "σ(0) = 0"),
    (sympy.Ne(sympy.Symbol("alpha"), 1), "α ≠ 1"),
])
def test_formula_text(expr, expected):
    assert text(expr) == expected
