"""A name that prints as something else gets no verdict (symbolic/kernel/shown_names.py).

``uninterpreted("exp")`` is an arbitrary function named exp: ``exp(x + y) = exp(x)·exp(y)`` is
false for it and was refuted — shown as a refutation of the exponential law. A negative symbol
named ``pi`` was proved ``pi < 0``. The truth of "prints alike" is the project's own printer:
each test compares the text of the formula with the text of the formula it reads as.
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import uninterpreted, valid
from symbolic.render.formula_text import text

x, y = sympy.symbols("x y", real=True)


def test_an_uninterpreted_exp_does_not_refute_the_exponential_law():
    fake = uninterpreted("exp")
    law = sympy.Eq(fake(x + y), fake(x) * fake(y))
    real = sympy.Eq(sympy.exp(x + y, evaluate=False), sympy.exp(x) * sympy.exp(y), evaluate=False)
    assert text(law) == text(real)  # the premise: one text for both
    fact = valid(law).fact  # Z3 refuted it: false for some function named exp
    assert fact.undecided and "prints as a function" in fact.reason


@pytest.mark.parametrize(
    ("name", "kind", "reads_as"),
    [
        ("pi", {"negative": True}, sympy.pi),
        ("E", {"negative": True}, sympy.E),
        ("1", {"negative": True}, sympy.Integer(1)),
        ("x**2 - 10", {"negative": True}, sympy.Add(x**2, -10, evaluate=False)),
    ],
)
def test_a_symbol_named_as_a_constant_or_a_formula_is_not_proved(name, kind, reads_as):
    fake = sympy.Symbol(name, **kind)
    assert text(sympy.Lt(fake, 0, evaluate=False)) == text(sympy.Lt(reads_as, 0, evaluate=False))
    fact = valid(sympy.Lt(fake, 0, evaluate=False)).fact
    assert fact.undecided and "prints as" in fact.reason


def test_an_assumption_in_words_keeps_its_words():
    """``assume`` takes words with spaces (``σ is continuous``): they are no names."""
    from symbolic.kernel import assume

    fact = assume("sigma is continuous on the reals")
    assert fact.kind == "assumption"


HEADS = ["exp", "log", "sin", "gamma", "besseli", "sqrt", "Abs", "Max"]
PLAIN = ["f", "g", "sigma", "phi", "G", "L", "h_1"]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(HEADS + PLAIN))
def test_only_names_of_known_functions_are_refused(name):
    """Against SymPy's own namespace: an uninterpreted function is refused exactly when a
    function of that name is one SymPy (or its printer) applies."""
    f = uninterpreted(name)
    fact = valid(sympy.Eq(f(x) * 2, f(x) + f(x), evaluate=False)).fact
    known = callable(getattr(sympy, name, None))
    assert ("prints as a function" in fact.reason) is known
    assert fact.proved is not known
