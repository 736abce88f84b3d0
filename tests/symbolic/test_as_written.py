"""The symmetry and block engines build their unevaluated trees node by node, not under
``with sympy.evaluate(False)`` (which clears SymPy's whole cache on entry and on exit): each tree
is the one that context built (``srepr`` equal, so a node evaluated, reordered or dropped fails),
and building it clears no cache. The context is run here only to produce the expected trees."""

from __future__ import annotations

import pytest
import sympy
import sympy.core.parameters
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from proofs.symmetry import activation_spec
from symbolic.activations import z
from symbolic.blocks import BLOCKS, attention, candidates, key_shift_facts, parameters
from symbolic.blocks.forms import T, d, ones_matrix, r
from symbolic.blocks.proof import _NODES
from symbolic.kernel import literal as as_written
from symbolic.kernel import literal_replace as replaced
from symbolic.symmetry import rewrite
from symbolic.symmetry.rewrite import ActivationFacts, Rewriter, inlined


@pytest.fixture
def clears(monkeypatch):
    """The calls of SymPy's ``clear_cache`` from now on (the cache is still cleared)."""
    calls = []
    clear = sympy.core.parameters.clear_cache

    def counted():
        calls.append(1)
        clear()

    monkeypatch.setattr(sympy.core.parameters, "clear_cache", counted)
    return calls


def _same(new, old):
    assert sympy.srepr(new) == sympy.srepr(old)
    assert new == old


@pytest.mark.parametrize("name", sorted(BLOCKS))
@pytest.mark.parametrize("heads", [1, 2])
def test_block_substitution_is_the_one_the_context_built(name, heads, clears):
    block = BLOCKS[name]
    p = parameters(block, heads)
    before = attention(block, p)
    for cand in candidates(block, heads):
        g = {k: sympy.MatrixSymbol(k, rows, cols) for k, (rows, cols, _) in cand.group.items()}
        with sympy.evaluate(False):
            old_moved = cand.act(p, g)
            old = before.xreplace({p[k]: v for k, v in old_moved.items() if v != p[k]})
        clears.clear()
        moved = cand.act(p, g)
        new = replaced(before, {p[k]: v for k, v in moved.items() if v != p[k]})
        assert not clears, cand.name
        assert sympy.srepr(moved) == sympy.srepr(old_moved), cand.name
        _same(new, old)
        assert new != before or not cand.group  # the substitution did happen


def test_each_matrix_node_with_a_hole_is_the_one_the_context_built(clears):
    block = BLOCKS["gpt2_block"]
    expr = attention(block, parameters(block))
    seen = set()
    for node in sympy.preorder_traversal(expr):
        kind = node.func
        if not (kind in _NODES or kind in (sympy.Inverse, ElementwiseApplyFunction)):
            continue
        i = len(node.args) - 1  # the matrix argument (ElementwiseApplyFunction: its operand)
        hole = sympy.MatrixSymbol("_hole", *node.args[i].shape)
        args = (*node.args[:i], hole)
        with sympy.evaluate(False):
            old = kind(*args)
        clears.clear()
        new = as_written(kind, args)
        assert not clears, kind
        _same(new, old)
        seen.add(kind)
    assert seen == {*_NODES, ElementwiseApplyFunction}


def test_a_one_by_one_elementwise_application_and_a_scalar_node_as_the_context():
    """A 1×1 operand is applied at once by the constructor: left to the kernel's ``literal``."""
    u = sympy.Symbol("u")
    f = sympy.Lambda(u, sympy.exp(u) + 0 * u)
    for args in ((f, sympy.MatrixSymbol("m", 1, 1)), (f, sympy.MatrixSymbol("m", 2, 3))):
        with sympy.evaluate(False):
            old = ElementwiseApplyFunction(*args)
        _same(as_written(ElementwiseApplyFunction, args), old)
    two = (sympy.Integer(2), sympy.Integer(3))
    with sympy.evaluate(False):
        old = sympy.Mul(*two)
    _same(as_written(sympy.Mul, two), old)
    assert as_written(sympy.Mul, two) != 6


def test_key_shift_scores_are_the_ones_the_context_built(clears):
    block = BLOCKS["gpt2_block"]
    p = parameters(block)
    c = sympy.MatrixSymbol("c", 1, r)
    X = sympy.MatrixSymbol("N", T, d)
    q = X * p["WQ0"] + ones_matrix(T, 1) * p["bQ0"]
    with sympy.evaluate(False):
        old = q * (X * p["WK0"] + ones_matrix(T, 1) * (p["bK0"] + c)).T / sympy.sqrt(r)
    clears.clear()
    moved, _ = key_shift_facts(block)
    assert moved.proved
    _same(moved.formula.lhs, old)
    assert sympy.Pow(r, sympy.Rational(-1, 2)) not in moved.formula.lhs.args  # (√r)^{−1} as written


def _old_inlined(expr, facts, literal=True):
    """``inlined`` as it was, under the context."""
    if isinstance(expr, AppliedUndef) and expr.func.__name__ in facts:
        arg = _old_inlined(expr.args[0], facts, literal)
        with sympy.evaluate(not literal):
            return facts[expr.func.__name__].spec.expr.xreplace({z: arg})
    if not expr.args:
        return expr
    args = tuple(_old_inlined(a, facts, literal) for a in expr.args)
    if args == expr.args:
        return expr
    with sympy.evaluate(not literal):
        return expr.func(*args)


@pytest.mark.parametrize("activation", ["relu", "gelu", "tanh", "silu", "abs", "x**2 + x"])
def test_inlined_is_the_tree_the_context_built(activation):
    sigma = sympy.Function("sigma")
    a = sympy.Symbol("a", positive=True)
    k = sympy.Symbol("k", integer=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    x, V = sympy.IndexedBase("x", real=True), sympy.IndexedBase("V", real=True)
    body = V[k, 0] * sigma(a * x[k] * 2) + sigma(-x[k]) * sigma(sigma(x[0] / a))
    expr = sympy.Sum(body, (k, 0, n - 1)) + 3 * sigma(1 - x[1])
    facts = {"sigma": ActivationFacts(activation_spec(activation))}
    for literal in (True, False):
        new = inlined(expr, facts, literal)
        _same(new, _old_inlined(expr, facts, literal))
        assert not new.has(sigma)


A = sympy.Symbol("a", positive=True)


@pytest.mark.parametrize(
    ("activation", "c"), [("relu", 2), ("tanh", -1), ("gelu", -3), ("relu", 2 * A), ("gelu", -A)]
)
def test_an_instance_states_sigma_of_c_t_as_the_context_built_it(monkeypatch, activation, c):
    """The left side of ``∀t: σ(c·t) = R(t)`` (the kernel's check and its proof replaced by a
    recorder: only the statement's tree is looked at)."""
    asked = []
    monkeypatch.setattr(rewrite, "_INSTANCES", {})
    monkeypatch.setattr(rewrite, "plausible", lambda diff: True)
    monkeypatch.setattr(rewrite, "check_identity", lambda lhs, rhs, t: asked.append(lhs))
    facts = ActivationFacts(activation_spec(activation))
    fn, c = sympy.Function("sigma"), sympy.sympify(c)
    with pytest.raises(AttributeError):  # the recorder is no fact
        Rewriter({"sigma": facts}, A).verified(facts, fn, c, fn(rewrite._T))
    with sympy.evaluate(False):
        old = facts.spec.expr.xreplace({z: c * rewrite._T})
    (lhs,) = asked
    _same(lhs, old)
