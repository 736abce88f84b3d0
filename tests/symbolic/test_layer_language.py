"""The layer and transform languages (issue 13): grammar, shapes, messages, and agreement of a
parsed table layer with its ``symbolic.layers`` implementation (numpy and exact SymPy)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import layers
from symbolic.activations import ACTIVATIONS
from symbolic.errors import InvalidExpression
from symbolic.gated.witness import sympy_sigma
from symbolic.languages import layer_language, transform_language
from symbolic.languages.layer_language import (
    entry,
    evaluate,
    parse_layer,
    resolve_layer,
    symbol_values,
    table_layer,
)
from symbolic.languages.transform_language import domain_text, parse_param, parse_transform

EXPRESSED = [name for name, form in layers.LAYER_FORMS.items() if form.expression]
SIZES = {"1": 1, "d": 3, "n": 2}


def test_every_table_row_has_an_expression_or_says_why_not():
    for name, form in layers.LAYER_FORMS.items():
        assert form.expression or "index notation" in form.expression_note, name
    assert set(EXPRESSED) == {"mlp", "static_query", "symmetric_rank1", "gated"}


def test_the_gated_layer_parses_with_its_parameters_and_shape():
    layer = resolve_layer("gated")
    assert layer.parameters == ("Q", "K", "V") and layer.shape == ("1", "d")
    assert layer.functions == ("sigma",) and layer.table_name == "gated"
    assert table_layer("static_query").shape_of("Q") == ("d", "d")


def _args(name, values, sigma):
    order = {"mlp": "KV", "static_query": "QKV", "symmetric_rank1": "QKV", "gated": "QKV"}[name]
    return (values["x"], *(values[p] for p in order), sigma)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(EXPRESSED), st.sampled_from(sorted(ACTIVATIONS)), st.integers(0, 2**32 - 1))
def test_parsed_table_layers_agree_with_layers_py_in_numpy(name, act, seed):
    rng = np.random.default_rng(seed)
    layer = table_layer(name)
    values = {"x": rng.standard_normal((1, SIZES["d"]))}
    values |= {p: rng.standard_normal((SIZES[r], SIZES[c])) for p, (r, c) in layer.shapes}
    sigma = ACTIVATIONS[act].numpy
    ours = evaluate(layer, values["x"], values, {"sigma": sigma})
    assert np.array_equal(ours, layers.LAYER_FORMS[name].fn(*_args(name, values, sigma)))


@settings(max_examples=5, deadline=None)
@given(
    st.sampled_from(EXPRESSED),
    st.lists(st.fractions(-3, 3, max_denominator=4), min_size=32, max_size=32),
)
def test_parsed_table_layers_agree_with_layers_py_at_rational_points(name, numbers):
    layer = table_layer(name)
    symbols = symbol_values(layer, SIZES)
    point = dict(
        zip([s for m in symbols.values() for s in m], map(sympy.Rational, numbers), strict=False)
    )
    exact = {k: m.xreplace(point) for k, m in symbols.items()}
    sigma = sympy_sigma(ACTIVATIONS["silu"])
    ours = evaluate(layer, exact["x"], exact, {"sigma": sigma})
    theirs = layers.LAYER_FORMS[name].fn(*_args(name, exact, sigma))
    assert (ours - theirs).applyfunc(sympy.expand) == sympy.zeros(1, SIZES["d"])


def test_entry_at_general_sizes_is_the_explicit_layer_once_sizes_are_set():
    layer = table_layer("gated")
    n, d = sympy.symbols("n d", integer=True, positive=True)
    bases = {p: sympy.IndexedBase(p) for p in layer.parameters}
    sigma = sympy.Function("sigma")
    general = entry(
        layer,
        {"1": 1, "d": d, "n": n},
        {p: (lambda r, c, b=b: b[r, c]) for p, b in bases.items()},
        {"sigma": sigma},
        sympy.Integer(0),
        sympy.Integer(1),
    )
    explicit = general.subs({n: 2, d: 3}).doit()
    x = sympy.IndexedBase("x", real=True)  # the token's entries are real
    mats = {p: sympy.Matrix(2, 3, lambda i, j, b=b: b[i, j]) for p, b in bases.items()}
    want = layers.gated(
        sympy.Matrix(1, 3, lambda i, j: x[j]), mats["Q"], mats["K"], mats["V"], sigma
    )[0, 1]
    assert sympy.expand(explicit - want) == 0


@pytest.mark.parametrize("peel", [1, 2, 3])
def test_entry_with_units_written_apart_is_the_same_entry(peel):
    """``peel``: the first units of every sum over n written apart, n = peel + N; at N = 2
    the entry is the explicit layer with peel + 2 units."""
    layer = table_layer("gated")
    d = sympy.Symbol("d", integer=True, positive=True)
    big_n = sympy.Symbol("N", integer=True, nonnegative=True)
    bases = {p: sympy.IndexedBase(p) for p in layer.parameters}
    sigma = sympy.Function("sigma")
    general = entry(
        layer,
        {"1": 1, "d": d, "n": peel + big_n},
        {p: (lambda r, c, b=b: b[r, c]) for p, b in bases.items()},
        {"sigma": sigma},
        sympy.Integer(0),
        sympy.Integer(1),
        peel=peel,
    )
    units = peel + 2
    explicit = general.subs({big_n: 2, d: 2}).doit()
    x = sympy.IndexedBase("x", real=True)
    mats = {p: sympy.Matrix(units, 2, lambda i, j, b=b: b[i, j]) for p, b in bases.items()}
    want = layers.gated(
        sympy.Matrix(1, 2, lambda i, j: x[j]), mats["Q"], mats["K"], mats["V"], sigma
    )[0, 1]
    assert sympy.expand(explicit - want) == 0
    assert any(
        i.indices[0] == peel - 1 for i in general.atoms(sympy.Indexed) if i.base == bases["Q"]
    )  # the last unit written apart appears by number


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "sigma(x @ Q) @ V",
            "--layer 'sigma(x @ Q) @ V' : x @ Q at column 7: shapes 1×d and n×d "
            "do not match (d ≠ n); did you mean a transpose (.T)?",
        ),
        (
            "x.__class__",
            "--layer 'x.__class__' : attribute access '.__class__' at column 1 is not "
            "allowed; only .T (transpose)",
        ),
        ("Q", "--layer 'Q' : the layer must be a row (1×…) computed from the token x; got n×d"),
        (
            "sigma(x @ K.T) * V",
            "--layer 'sigma(x @ K.T) * V' : sigma(x @ K.T) * V at column 1: "
            "shapes 1×n and n×d differ; * + - need equal shapes (or a number)",
        ),
        (
            "sigma(x @ K.T) @ V / 0",
            "--layer 'sigma(x @ K.T) @ V / 0' : sigma(x @ K.T) @ V / 0 at column 1 divides by 0",
        ),
        (
            "relu",
            "--layer 'relu' : 'relu' at column 1 is an activation; call it, e.g. relu(x @ K.T)",
        ),
        (
            "y @ K.T",
            "--layer 'y @ K.T' : unknown name 'y' at column 1; the token is x, parameters "
            "are capitalised (Q, K, V, W1), activations are called (sigma(...), relu(...))",
        ),
        ("rank_r", "--layer 'rank_r' : a sum over units"),
        (
            "__import__('os').system('x')",
            "--layer \"__import__('os').system('x')\" : calling "
            "__import__('os').system at column 1 is not allowed; call sigma (the --activation) "
            "or a table activation by name",
        ),
        (
            "relu(x @ K.T)(x)",
            "--layer 'relu(x @ K.T)(x)' : calling relu(x @ K.T) at column 1 is not allowed",
        ),
    ],
)
def test_bad_layers_are_rejected_with_one_line(text, message):
    with pytest.raises(InvalidExpression) as err:
        resolve_layer(text)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_numbers_and_scalars_are_exact():
    layer = parse_layer("0.5 * sigma(x @ W1.T) @ W2 - x / 4")
    x = sympy.Matrix([[1, 2]])
    w = {"W1": sympy.Matrix([[1, 0]]), "W2": sympy.Matrix([[2, 2]])}
    out = evaluate(layer, x, w, {"sigma": sympy.Lambda(sympy.Symbol("t"), sympy.Symbol("t"))})
    assert out == sympy.Matrix([[sympy.Rational(3, 4), sympy.Rational(1, 2)]])


def test_transforms_parse_into_coefficients_and_units():
    gated = table_layer("gated")
    a = parse_param("a > 0")
    t = parse_transform("Q -> a*Q, K -> a**(-2)*K", gated, a)
    assert [(str(s.target), s.coefficient) for s in t.substitutions] == [("Q", a), ("K", a**-2)]
    assert t.one_parameter and not t.indexed
    unit = parse_transform("Q[j] -> a*Q[j], K[j] -> K[j]/a", gated, a)
    assert unit.unit_index == "j" and unit.shown() == "Q[j] -> a*Q[j], K[j] -> K[j]/a"
    swap = parse_transform("Q[0] -> Q[1], Q[1] -> Q[0]", gated)
    assert swap.fixed_units == (0, 1) and not swap.one_parameter
    assert t.per_unit().shown() == "Q[j] -> a*Q[j], K[j] -> (a**(-2))*K[j]"


@pytest.mark.parametrize(
    ("text", "domain", "assumption"),
    [
        ("a > 0", "a > 0", "positive"),
        ("a < 0", "a < 0", "negative"),
        ("b != 0", "b != 0", "nonzero"),
    ],
)
def test_the_parameter_domain(text, domain, assumption):
    p = parse_param(text)
    assert domain_text(p) == domain and p.assumptions0[assumption] is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q -> a**Q", "power at column 6: the exponent must be a number"),
        ("Q -> a**1000*Q", "power at column 6: the exponent must be a number of size at most 12"),
        ("Q -> W", "'W' at column 6 is not a parameter of the layer; its parameters: Q, K, V"),
        ("Q -> Q*K", "must be a coefficient times one parameter"),
        ("Q[j] -> K", "a row maps to a row"),
        ("Q -> K, Q -> V", "a target is substituted twice"),
        ("lambda: Q", "':' at column 7 is not allowed"),
        ("Q -> __import__('os')", "call at column 6 is not allowed"),
        ("Q -> Q/(a-a)", "never by 0"),
    ],
)
def test_bad_transforms_are_rejected_with_one_line(text, message):
    with pytest.raises(InvalidExpression) as err:
        parse_transform(text, table_layer("gated"))
    assert message in str(err.value) and str(err.value).startswith("--transform ")


@pytest.mark.parametrize("text", ["a >= 0", "x > 0", "a > 1", "__import__('os')", "a > 0 > b"])
def test_bad_parameter_domains_are_rejected(text):
    with pytest.raises(InvalidExpression, match="--param"):
        parse_param(text)


@pytest.mark.parametrize("module", [layer_language, transform_language])
def test_the_module_examples_run(module):
    assert doctest.testmod(module, raise_on_error=True).attempted > 0
