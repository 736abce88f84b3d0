"""Round 11c red team of the kernel's vacuity and name checks.

* ``vacuity.vacuous_divisor`` read a defined name as a variable (``c := 0``, then
  ``(c² + c)/c = c + 1`` carried into ``0 = 1``), let a divisor with a finite sum be
  (``Σₖ₌₁ⁿ k − n(n + 1)/2`` carried ``0 = 1`` too), and read every undefined function as one
  polynomial (``σ(x) − τ(x)`` was refused as 0: a false refusal).
* ``shown_names.misleading_name`` let names through that print as a power (``x^2``, ``x²``), a
  number (``½``), a constant (``e``, ``ℯ``, ``π``, ``inf``), a LaTeX command (``\\infty``) or a
  function (``arctan``, ``Γ``), and pairs that print alike while ``logic.print_key`` tells them
  apart (é composed and decomposed, Cyrillic а and a, ``x_1`` and ``x_{1}``, ``γ`` beside
  EulerGamma).
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sympy import Function, IndexedBase, Integer, Lambda, Sum, Symbol

from symbolic.kernel import (
    RuleError,
    check_equal,
    check_sign,
    cong,
    define,
    inst,
    misleading_name,
    name_problem,
    symm,
    trans,
    unfold,
)

h = Symbol("h", real=True)
y = Symbol("y", real=True)


def _zero_one_through(divisor: sympy.Expr, zero):
    """``0 = 1`` from ``(D² + D)/D = D + 1`` and ``D = 0`` (``zero``), by cong and trans."""
    first = check_equal((y**2 + y) / y, y + 1)
    at = inst(first, {y: divisor})
    g = cong(zero, Lambda(h, (h**2 + h) / divisor))
    left = check_equal(g.formula.rhs, Integer(0))
    g2 = cong(zero, Lambda(h, h + 1))
    right = check_equal(g2.formula.rhs, Integer(1))
    return trans(symm(left), symm(g), at, g2, right)


def test_a_definition_does_not_carry_zero_equals_one():
    # needs rules._conclude to pass the premises' definitions: vacuous_divisor(..., defined=...)
    c = Symbol("c", real=True)
    d = define(c, Integer(0))
    first = check_equal((c**2 + c) / c, c + 1)
    with pytest.raises(RuleError):
        zero = unfold(d, c)  # c = 0
        g = cong(zero, Lambda(h, (h**2 + h) / c))
        left = check_equal(g.formula.rhs, Integer(0))
        g2 = cong(zero, Lambda(h, h + 1))
        right = check_equal(g2.formula.rhs, Integer(1))
        trans(symm(left), symm(g), first, g2, right)


def test_a_finite_sum_divisor_is_evaluated():
    n = Symbol("n", integer=True, positive=True)
    k = Symbol("k", integer=True)
    divisor = Sum(k, (k, 1, n)) - n * (n + 1) / 2
    zero = check_equal(divisor, Integer(0))
    assert zero.proved
    with pytest.raises(RuleError):
        _zero_one_through(divisor, zero)


def test_indexed_entries_are_read_as_polynomials_of_their_own():
    n = Symbol("n", integer=True, positive=True)
    k = Symbol("k", integer=True)
    a, b = IndexedBase("a", real=True), IndexedBase("b", real=True)
    telescoped = Sum(a[k], (k, 1, n + 1)) - Sum(a[k], (k, 1, n)) - a[n + 1]
    first = check_equal((y**2 + y) / y, y + 1)
    with pytest.raises(RuleError):
        inst(first, {y: telescoped})
    assert inst(first, {y: a[n] - b[n]}).proved
    assert inst(first, {y: a[n] - a[n + 1]}).proved


@pytest.mark.parametrize("which", ["det", "trace"])
def test_a_matrix_divisor_is_evaluated(which):
    a, b = sympy.MatrixSymbol("A", 2, 2), sympy.MatrixSymbol("B", 2, 2)
    head = sympy.Determinant if which == "det" else sympy.Trace
    divisor = head(a.T) - head(a)  # 0 for every A
    zero = check_equal(divisor, Integer(0))
    assert zero.proved
    with pytest.raises(RuleError):
        cong(zero, Lambda(h, (h**2 + h) / divisor))
    assert cong(zero, Lambda(h, (h**2 + h) / (head(a) - head(b)))).proved


def test_two_functions_are_not_one():
    x = Symbol("x", real=True)
    f, g = Function("f", real=True), Function("g", real=True)
    first = check_equal((y**2 + y) / y, y + 1)
    for divisor in (f(x) - g(x), f(x) * g(x + 1) - f(x + 1) * g(x)):
        assert inst(first, {y: divisor}).proved
    s = Function("s", real=True)
    with pytest.raises(RuleError):
        inst(first, {y: s((x + 1) ** 2) - s(x**2 + 2 * x + 1)})


MISLEADING = ["x²", "x¹", "½", "⁻1", "x^2", "x__2", "x^{-1}", "e", "ℯ", "𝑒", "inf", "π",
              "x·x", "\\infty", "\\frac{1}{2}", "x\u200b", "e\u0301", "\u0440i",
              "sin", "Log", "sqrt"]  # fmt: skip


@pytest.mark.parametrize("name", MISLEADING)
def test_a_name_that_prints_as_something_else_is_unknown(name):
    fact = check_sign(Symbol(name, negative=True), "negative")
    assert fact.undecided, (name, fact.reason)


TWINS = [
    ("\u00e9", "e\u0301"),
    ("a", "\u0430"),
    ("A", "Alpha"),
    ("A", "\u0391"),
    ("o", "omicron"),
    ("x", "\U0001d465"),
    ("x_1", "x_{1}"),
    ("x1", "x_{1}"),
]


@pytest.mark.parametrize(("first", "second"), TWINS)
def test_names_that_print_alike_are_unknown(first, second):
    p, q = Symbol(first, positive=True), Symbol(second, negative=True)
    fact = check_sign(p - q, "positive")  # shown as x − x > 0
    assert fact.undecided, (first, second, fact.reason)


@pytest.mark.parametrize(
    ("name", "constant"),
    [("gamma", sympy.EulerGamma), ("phi", sympy.GoldenRatio), ("G", sympy.Catalan)],
)
def test_a_symbol_beside_the_constant_it_prints_as_is_unknown(name, constant):
    fact = check_sign(Symbol(name, negative=True) - constant, "negative")  # LaTeX: γ − γ < 0
    assert fact.undecided, fact.reason


@pytest.mark.parametrize(
    "name", ["abs", "arctan", "Gamma", "Γ", "Exp", "sgn", "Sqrt", "ln", "\u0455in", "\u0435xp"]
)
def test_a_function_named_as_a_known_one_is_refused(name):
    assert name_problem(name, function=True) is not None


ORDINARY = ["x₁", "ℓ", "K^+", "W^Q", "x^T", "f(1)^2", "E[f(s)^2]", "Γ", "alpha", "theta_1",
            "x'", "e_1", "I_n", "b2", "Q_j", "µ", "in"]  # fmt: skip


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_stay_names(name):
    assert name_problem(name) is None
    x = Symbol(name, positive=True)
    assert check_sign(x + 1, "positive").proved


def test_ordinary_functions_stay_names():
    for name in ("f", "sigma", "softplus", "sigmoid", "g_1", "Q", "phi"):
        assert name_problem(name, function=True) is None, name


LOOK = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445"}


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="aeopcxyz", min_size=1, max_size=5), st.data())
def test_a_lookalike_letter_makes_twins(name, data):
    i = data.draw(st.sampled_from([i for i, ch in enumerate(name) if ch in LOOK] or [None]))
    if i is None:
        return
    assume(name_problem(name) is None)  # (e is Euler's number)
    twin = name[:i] + LOOK[name[i]] + name[i + 1 :]
    p, q = Symbol(name, positive=True), Symbol(twin, negative=True)
    assert misleading_name(sympy.Gt(p, q, evaluate=False)) is not None
    assert misleading_name(sympy.Gt(p, Symbol(name + "b", negative=True))) is None
