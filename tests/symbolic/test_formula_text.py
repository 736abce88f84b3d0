"""The plain-text rendering of checked formulas (symbolic/render/formula_text.py)."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.render.formula_text import source_text, text

x = sympy.MatrixSymbol("x", 2, 3)  # two tokens: the ones column is 2×1
Q = sympy.MatrixSymbol("Q", 3, 3)
b_q = sympy.MatrixSymbol("b_q", 1, 3)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        (x * Q + sympy.OneMatrix(2, 1) * b_q, "x*Q + 𝟏*b_q"),  # the ones column, not the number 1
        (sympy.Eq(sympy.Function("sigma")(0), 0), "σ(0) = 0"),
        (sympy.Ne(sympy.Symbol("alpha"), 1), "α ≠ 1"),
    ],
)
def test_formula_text(expr, expected):
    assert text(expr) == expected


def test_the_memo_tells_formulas_apart_that_print_differently():
    """``text`` and ``source_text`` are memoised by the formula; SymPy's equality keeps apart
    what prints differently (a float's precision, a symbol's assumptions), so a hit is never
    another formula's text."""
    z = sympy.Symbol("z")
    pairs = [
        (sympy.Float("0.1", 15) * z, sympy.Float("0.1", 30) * z),
        (sympy.Symbol("a") + 1, sympy.Symbol("a", positive=True) + 1),
        (sympy.Integer(1) * z, sympy.Float(1) * z),
    ]
    for a, b in pairs:
        assert text(a) == _uncached(a) and text(b) == _uncached(b)
        assert source_text(a) == sympy.sstr(a) and source_text(b) == sympy.sstr(b)
    mutable = sympy.Matrix([[z, 1]]).as_mutable()  # unhashable: printed, not memoised
    assert text(mutable) == _uncached(mutable) and source_text(mutable) == sympy.sstr(mutable)


@given(st.floats(-1e6, 1e6, allow_nan=False), st.integers(2, 40))
def test_the_memo_gives_what_the_printer_gives(value, digits):
    expr = sympy.Float(value, digits) * sympy.Symbol("w") + 1
    assert text(expr) == _uncached(expr) and source_text(expr) == sympy.sstr(expr)


def _uncached(expr):
    from symbolic.render.formula_text import TextPrinter

    return " ".join(TextPrinter({"order": "none"}).doprint(expr).split())


a, b, c = sympy.symbols("a b c")


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        (sympy.Xor(a, b), "a ⊕ b"),  # SymPy's "a ^ b" reads as a power, or as a ∧ b
        (sympy.And(a, sympy.Xor(b, c)), "a ∧ (b ⊕ c)"),  # was "a ∧ b ^ c"
        (sympy.Or(a, sympy.Xor(b, c)), "a ∨ (b ⊕ c)"),
        (sympy.Xor(a, sympy.And(b, c)), "a ⊕ (b ∧ c)"),
        (sympy.Equivalent(a, b), "a ⇔ b"),
        (sympy.And(a, sympy.Equivalent(b, c)), "a ∧ (b ⇔ c)"),
    ],
)
def test_connectives_print_as_logic_with_their_brackets(expr, expected):
    assert text(expr) == expected


@given(st.lists(st.sampled_from([sympy.And, sympy.Or, sympy.Xor]), min_size=2, max_size=2))
def test_a_connective_inside_another_is_bracketed(heads):
    outer, inner = heads
    if outer is inner:  # SymPy flattens a ∧ (b ∧ c)
        return
    shown = text(outer(a, inner(b, c)))
    assert "^" not in shown
    assert "(" in shown or (outer, inner) == (sympy.Or, sympy.And)  # ∧ binds tighter than ∨
