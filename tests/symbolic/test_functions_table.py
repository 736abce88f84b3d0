"""The one table of elementary functions (symbolic/languages/functions.py): every row fills every
column, the columns agree with each other and with SymPy, and every consumer covers exactly the
table's rows (the kernel, which keeps its own enclosures, covers at least them)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy
from mpmath import iv

from numeric_checks.evaluate import numpy_function
from symbolic.activations import z
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.numbers import ivalue
from symbolic.languages import activation_language, expression_estimates
from symbolic.languages.functions import BY_HEAD, BY_NAME, FUNCTIONS, FunctionSpec, SignRule
from symbolic.render.latex_spans import parse_span
from symbolic.render.latex_text import OPERATORS

ROWS = pytest.mark.parametrize("spec", FUNCTIONS, ids=lambda f: f.name)
POINTS = [sympy.Rational(-5, 2), sympy.Rational(-3, 10), sympy.Rational(7, 10), 2]


def points(spec: FunctionSpec) -> list[sympy.Rational]:
    return [p for p in POINTS if p > 0] if spec.sign is SignRule.LOG else POINTS


def exact(spec: FunctionSpec, p) -> mpmath.mpf:
    with mpmath.workprec(200):
        return mpmath.mpf(sympy.N(spec.head(p), 60))


def contains(box, value) -> bool:
    return box.a <= value <= box.b


@ROWS
def test_every_row_fills_every_column(spec):
    assert spec.names and all(isinstance(n, str) and n.isidentifier() for n in spec.names)
    assert isinstance(spec.head, type) and issubclass(spec.head, sympy.Function)
    for column in (spec.numpy, spec.estimate, spec.ill_conditioned, spec.recheck):
        assert callable(column)
    assert isinstance(spec.sign, SignRule)
    assert spec.latex.startswith("\\")
    assert spec.exp_growth is None or callable(spec.exp_growth)


def test_rows_are_distinct():
    assert len(BY_HEAD) == len(FUNCTIONS)
    assert len(BY_NAME) == sum(len(f.names) for f in FUNCTIONS)


@ROWS
def test_float_columns_agree_with_sympy(spec):
    for p in points(spec):
        value = float(exact(spec, p))
        assert spec.estimate(float(p)) == pytest.approx(value, rel=1e-12, abs=1e-15)
        assert spec.numpy(np.array([float(p)]))[0] == pytest.approx(value, rel=1e-12, abs=1e-15)
        assert not spec.ill_conditioned(float(p), value)


@ROWS
def test_interval_columns_enclose_the_value(spec):
    # the kernel's enclosure (its own table) and the re-check's, each around SymPy's value
    for p in points(spec):
        value = exact(spec, p)
        x = iv.mpf(int(p.p)) / int(p.q) if isinstance(p, sympy.Rational) else iv.mpf(p)
        assert contains(spec.enclosure(x), value)
        assert contains(spec.recheck(x), value)


@ROWS
def test_sign_rule_holds(spec):
    xs = np.linspace(-4, 4, 81)
    if spec.sign is SignRule.LOG:
        assert np.all(spec.numpy(1 + np.abs(xs)) >= 0)  # log(1 + nonnegative) >= 0
        return
    ys = spec.numpy(xs)
    assert np.all(np.isfinite(ys))  # real at every real x
    if spec.sign is SignRule.POSITIVE:
        assert np.all(ys > 0)
    elif spec.sign is SignRule.SAME_SIGN:
        assert np.array_equal(np.sign(ys), np.sign(xs))


def test_the_parser_reads_exactly_the_rows():
    elementary = {n for n, f in activation_language.FUNCTIONS.items() if f.build in BY_HEAD}
    assert elementary == set(BY_NAME)
    for name, spec in BY_NAME.items():
        argument = "1 + x**2" if spec.sign is SignRule.LOG else "x"
        assert activation_language.parse_activation(f"{name}({argument})").expr.has(spec.head)
    assert all(name in activation_language.describe_allowed() for name in BY_NAME)


def test_the_float_estimates_are_the_rows():
    for spec in FUNCTIONS:
        assert expression_estimates.APPROX[spec.head] is spec.estimate


@ROWS
def test_every_consumer_reads_the_row(spec):
    expr = spec.head(z)
    x = np.array([0.5, 1.5])
    assert np.allclose(numpy_function(expr)(x), spec.numpy(x))
    assert read_formula(sympy.srepr(expr)) == expr
    assert contains(ivalue(spec.head(sympy.Rational(1, 2))), exact(spec, sympy.Rational(1, 2)))
    assert OPERATORS[spec.name] == spec.latex
    assert parse_span(f"{spec.name}(x)**2") == spec.head(sympy.Symbol("x")) ** 2


def test_the_table_covers_the_heads_in_the_activations():
    from symbolic.activations import ACTIVATIONS

    structural = (sympy.Max, sympy.Min, sympy.Abs, sympy.Piecewise)
    for a in ACTIVATIONS.values():
        for f in a.expr.atoms(sympy.Function):
            assert isinstance(f, structural) or type(f) in BY_HEAD, (a.name, f)


def test_a_sine_near_a_root_is_recomputed():
    # float64 rounds 3.14159265358979323846264338328 to pi's double, whose sine is +1.2e-16;
    # the exact sine is about -2e-31, so the square root of it is not real
    spec = BY_NAME["sin"]
    assert spec.ill_conditioned(math.pi, math.sin(math.pi))
    with pytest.raises(ValueError, match="not real"):
        activation_language.parse_activation("sqrt(sin(3.14159265358979323846264338328))")
