"""The symmetry engine's rewrite is a kernel inference (issue 23): σ(c·w) inside the layer's sums
is rewritten by instantiating the kernel-proved ``∀t: σ(c·t) = R(t)`` at ``t := w`` (``inst``,
w real), put in place by congruence and chained by ``trans``, so the decision's last fact states
``F(x; Tθ) = F(x; θ)`` for the original layer (σ the activation). A wrong rewrite backed by an
unrelated proved fact is not proved; Hypothesis: random positive scalings of a homogeneous σ."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.symmetry import activation_spec
from symbolic.kernel import check_identity
from symbolic.layer_language import table_layer
from symbolic.symmetry import invariance as decision
from symbolic.symmetry import rewrite as rewrite
from symbolic.symmetry.invariance import decide
from symbolic.symmetry.rewrite import ActivationFacts, Rewriter, inlined
from symbolic.transform_language import parse_transform

GATED = table_layer("gated")


def _original(transform, activation: str) -> sympy.Eq:
    """``F(x; Tθ) = F(x; θ)``, entry (0, o) at general sizes, σ the activation (not rewritten)."""
    after, before = decision._general_entries(GATED, transform)
    facts = {"sigma": ActivationFacts(activation_spec(activation))}
    return sympy.Eq(
        inlined(after, facts, literal=False), inlined(before, facts, literal=False), evaluate=False
    )


def _rules(fact) -> set[str]:
    found, stack = set(), [fact]
    while stack:
        f = stack.pop()
        found.add(f.rule)
        stack.extend(f.parts)
    return found


def test_the_last_fact_states_the_original_layer_and_is_concluded_by_rules():
    t = parse_transform("Q -> a*Q, K -> K/a", GATED)
    got = decide(GATED, t, {"sigma": activation_spec("relu")})
    last = got.steps[-1].fact
    assert got.invariant is True and last.proved
    assert got.statement == last.formula == _original(t, "relu")
    # σ(a·w) as the layer has it, on the left: Max(0, Σ a·Q·x), not a·Max(0, Σ Q·x)
    assert any(m.args[1].has(t.parameter) for m in last.formula.lhs.atoms(sympy.Max))
    assert last.rule == "trans" and {"inst", "cong"} <= _rules(last)
    links = [s.fact for s in got.steps if s.fact.rule == "cong"]
    assert links and all(link.parts[0].rule in ("inst", "trans") for link in links)


def test_a_rewrite_backed_by_an_unrelated_fact_is_not_proved(monkeypatch):
    """The proposer is told ReLU has degree 2, and its instance check is replaced by one that
    returns a proved fact about something else (∀t: max(0, 2t) = 2·max(0, t)). The rewritten
    sides then agree (a²·σ(w)·k/a² = σ(w)·k): the rewrite made outside the kernel (before
    issue 23) decided "invariant" here. The kernel's chain does not connect the layer to them
    (inst gives max(0, 2w), not max(0, a·w)), and a certified witness decides instead."""
    t_ = sympy.Symbol("t", real=True)
    unrelated = check_identity(sympy.Max(0, 2 * t_), 2 * sympy.Max(0, t_), t_)
    assert unrelated.proved
    monkeypatch.setattr(ActivationFacts, "degree", lambda self: sympy.Integer(2))
    monkeypatch.setattr(rewrite, "check_identity", lambda lhs, rhs, var: unrelated)
    monkeypatch.setattr(rewrite, "plausible", lambda diff: True)  # no filter in the way
    rewrite._INSTANCES.clear()
    try:
        got = decide(
            GATED,
            parse_transform("Q -> a*Q, K -> K/a**2", GATED),
            {"sigma": activation_spec("relu")},
        )
    finally:
        rewrite._INSTANCES.clear()
    assert got.invariant is False and got.witness is not None


def test_an_argument_not_known_to_be_real_is_refused():
    """``inst`` needs w real: σ(a·y) with y complex (SymPy's default) gives no chain."""
    a = sympy.Symbol("a", positive=True)
    sigma = sympy.Function("sigma")
    facts = {"sigma": ActivationFacts(activation_spec("relu"))}
    for y, chained in ((sympy.Symbol("y"), False), (sympy.Symbol("y", real=True), True)):
        rewriter = Rewriter(facts, a)
        expr = sigma(a * y) + y
        assert rewriter(expr) != expr  # the proposal is made either way
        found = rewriter.in_kernel(inlined(expr, facts, literal=False), expr)
        assert (found is not None) is chained
        if chained:
            links, end = found
            assert end == links[-1][1].formula.rhs and not end.has(sympy.Max(0, a * y))


SCALINGS = st.fractions(min_value=sympy.Rational(1, 9), max_value=9, max_denominator=9)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(("relu", "leaky_relu")), SCALINGS)
def test_random_positive_scalings_of_a_homogeneous_activation(activation, c):
    """``Q -> c·a·Q, K -> K/(c·a)``: invariant for a 1-homogeneous σ at every c > 0, and the
    chain runs from the original layer's entry to the original ``F(x; θ)``."""
    c = sympy.Rational(c.numerator, c.denominator)
    t = parse_transform(f"Q -> {c}*a*Q, K -> K/({c}*a)", GATED)
    got = decide(GATED, t, {"sigma": activation_spec(activation)})
    assert got.invariant is True and not got.every_sigma
    original = _original(t, activation)
    assert got.statement == original and got.steps[-1].fact.proved
    chain = [s for s in got.steps if not hasattr(s.formula, "body")]  # after the ∀ instances
    assert chain[0].formula.lhs == original.lhs and chain[-2].formula.rhs == original.rhs
