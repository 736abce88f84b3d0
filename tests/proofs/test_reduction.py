"""python -m proofs.reduction (docs/theory.md A1, A3–A5): bilinear attention → rank 1 → gated."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from commands import in_process
from hypothesis import given
from hypothesis import strategies as st

from proofs import reduction
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation, z
from symbolic.gated.witness import sympy_sigma

ROUND_OFF = 1e-12  # float64 layers of width ≤ 8: errors are ~1e-15
NONLINEAR = sorted(a for a in ACTIVATIONS if a != "identity")


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("reduction")


@pytest.fixture(scope="module")
def by_name(report):
    return {r.claim.name: r for r in report.results}


def test_every_claim_is_proved(report):
    assert report.status == "proved" and report.exit_code == 0
    assert [r.claim.source for r in report.results] == [
        "A1",
        "A3",
        "A4",
        "A4",
        "A5",
        "A5",
        "A5",
        "A3",
    ]
    for result in report.results:
        assert all(s.verdict.status == "proved" for s in result.derivation.steps), result.claim
        assert result.numeric and all(n.agrees for n in result.numeric)


def test_each_derivation_ends_in_its_statement(report):
    for result in report.results:
        assert result.derivation.steps[-1].formula == result.claim.statement, result.claim.name
        assert not result.derivation.empty_steps, result.claim.name


def test_a_statement_changed_by_one_sign_is_failed(report):
    from statement_mutations import assert_each_fails_with_one_sign_changed

    assert_each_fails_with_one_sign_changed(report)


def test_symmetric_part_is_proved_at_general_d_without_admitted_facts(by_name):
    """x((M + Mᵀ)/2)xᵀ = x M xᵀ at general d: a chain whose one non-algebraic link is the kernel
    rule that a 1×1 matrix is its own transpose, put in context by congruence."""
    result = by_name["reduction.symmetric_part"]
    steps = result.derivation.steps
    assert steps[0].note.startswith("[d = 4; symbolic entries]")
    assert steps[2].fact.rule == "symm" and steps[2].fact.parts[0].rule == "scalar_transpose"
    assert [s.fact.rule for s in steps[3:]] == ["", "", "cong", "", "trans"]
    assert steps[4].formula.rhs == reduction.AVERAGE  # ½ x M xᵀ + ½ (x M xᵀ)ᵀ
    assert steps[-1].formula == result.claim.statement
    assert steps[-1].formula.rhs == reduction.SCORE
    assert not result.rests_on and result.strict_status() == "proved"


def test_iff_linear_is_proved_by_sympy_and_by_z3(by_name):
    result = by_name["reduction.gated_iff_linear"]
    assert result.methods == ("sympy", "z3")  # a kernel rule is not a backend
    z3_steps = [s for s in result.derivation.steps if s.verdict.method == "z3"]
    assert len(z3_steps) == 2 and all("uninterpreted" in s.rule for s in z3_steps)
    assert {s.formula for s in z3_steps} == {reduction.FORWARD, reduction.BACKWARD}


def test_the_layer_steps_relate_different_forms(by_name):
    """The LLaMA step and the d = n = 1 step compare forms as written, not two evaluations of
    the same SymPy expression (they read X = X before)."""
    llama = by_name["reduction.gated_form"].derivation.steps[1]
    assert llama.formula.lhs.has(reduction.W2[reduction.c, reduction.j])
    unit = by_name["reduction.gated_iff_linear"].derivation.steps[1]
    assert unit.formula.lhs.has(sympy.HadamardProduct) and unit.formula.lhs != unit.formula.rhs


def test_the_activation_table(report, by_name):
    rows = {row[0]: row for row in report.tables[0].rows}
    assert set(rows) == set(ACTIVATIONS)
    assert rows["identity"][2] is True and rows["identity"][3] is None
    assert rows["relu"][2:] == (False, "q = 1, k = -1", "value = -1", "exact")
    assert rows["silu"][2] is False and rows["silu"][5] == "interval"
    assert rows["silu"][4].startswith("value ∈ [-0.2994769986")
    for name in NONLINEAR:  # every nonlinear activation has a certified witness
        assert rows[name][2] is False and rows[name][5] in ("exact", "interval"), rows[name]
    steps = by_name["reduction.activations"].derivation.steps
    assert len(steps) == len(ACTIVATIONS) + 1 and steps[-1].fact.rule == "conj"
    identity = steps[0].formula  # the difference written out, not evaluated to 0 = 0
    assert len(identity.lhs.args) == 2 and identity.rhs == 0 and identity.lhs != 0
    replay = by_name["reduction.activations"].numeric[0]
    assert replay.samples == len(NONLINEAR) and replay.agrees


def test_parameter_counts_are_counts_not_their_values(by_name):
    steps = by_name["reduction.parameters"].derivation.steps
    n, d = (sympy.Symbol(s, integer=True, positive=True) for s in "nd")
    assert steps[0].formula.lhs == reduction.FULL and steps[0].formula.rhs == n * d**2 + n * d
    assert "n*(d*d)" in str(reduction.FULL)  # the count as written, not its value
    assert [s.fact.rule for s in steps[3:7]] == ["inst", "", "symm", "trans"]


def test_parameter_table_and_counts(report):
    rows = {row[0]: row for row in report.tables[1].rows}
    n, d = (sympy.Symbol(s, integer=True, positive=True) for s in "nd")
    assert rows["bilinear"][3] == n * d**2 + n * d
    assert rows["gated"][4] == 3 * 4096 * 11008
    assert rows["bilinear"][4] // rows["gated"][4] == (4096 + 1) // 3


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
def test_llama_block_is_checked_against_the_gated_form():
    pytest.importorskip("torch")
    rep = reduction.build_report(torch=True)
    gated = {r.claim.name: r for r in rep.results}["reduction.gated_form"]
    names = [n.name for n in gated.numeric]
    assert any("LLaMA w2(silu(w1 x) * w3 x)" in nm for nm in names)
    assert any("SymPy gated form" in nm for nm in names)
    assert rep.status == "proved"


def _custom(name: str, expr: sympy.Expr) -> Activation:
    return Activation(name, expr, lambda a: a, None, "", linear=False, degree=None)


def test_witness_search_on_new_activations():
    """A linear activation gets no witness; a nonlinear one gets a certified one."""
    twice = _custom("twice", 2 * z)
    assert (
        reduction.certified_layer_witness(
            twice, reduction.gated_minus_symmetric, lambda p: reduction._unit_values(1, p)
        )
        is None
    )
    step, witness = reduction._decide_activation(twice)
    assert witness is None and step.verdict.status == "proved" and "Gated ≡ Sym" in step.note
    cube = _custom("cube", z**3)
    step, witness = reduction._decide_activation(cube)
    assert witness is not None and witness.exact != 0 and step.verdict.method == "exact"


def test_command_prints_each_step_with_its_backend(report):
    out = in_process("proofs.reduction", ["--no-torch"], report=report)
    assert out.returncode == 0, out.stderr
    for backend in ("sympy", "z3", "exact", "interval"):
        assert f"proved by {backend}" in out.stdout
    assert "Gated ≡ Sym, per activation (A5)" in out.stdout


@given(
    st.fractions(-4, 4, max_denominator=8),
    st.fractions(-4, 4, max_denominator=8),
    st.sampled_from(sorted(ACTIVATIONS)),
)
def test_gated_minus_symmetric_at_one_unit(q, k, act):
    """At d = n = 1, x = V = 1: Gated − Sym = σ(q)k − σ(qk), numerically and symbolically."""
    a = ACTIVATIONS[act]
    values = {
        "x": np.ones((1, 1)),
        "Q": np.array([[float(q)]]),
        "K": np.array([[float(k)]]),
        "V": np.ones((1, 1)),
    }
    got = reduction.gated_minus_symmetric(a.numpy, values)
    want = a.numpy(np.array(float(q)))[()] * float(k) - a.numpy(np.array(float(q * k)))[()]
    assert abs(got - want) <= ROUND_OFF * max(1.0, abs(want))
    exact = reduction.gated_minus_symmetric(
        sympy_sigma(a), reduction._unit_values(sympy.Rational(q), sympy.Rational(k))
    )
    assert (
        sympy.simplify(
            exact
            - (
                a.sympy_at(sympy.Rational(q)) * sympy.Rational(k)
                - a.sympy_at(sympy.Rational(q * k))
            )
        )
        == 0
    )


@given(
    st.integers(1, 3),
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(ACTIVATIONS)),
)
def test_rank1_bilinear_is_symmetric_rank1(batch, dim, units, seed, act):
    """Σ_j σ(x q_jᵀk_j xᵀ) v_j = σ((xQᵀ) ⊙ (xKᵀ))V, and the symmetric part suffices."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, dim))
    q, k = (rng.standard_normal((units, dim)) / np.sqrt(dim) for _ in range(2))
    v = rng.standard_normal((units, 2))
    s = ACTIVATIONS[act].numpy
    ms = [np.outer(q[j], k[j]) for j in range(units)]
    sym = layers.symmetric_rank1(x, q, k, v, s)
    scale = max(1.0, np.abs(sym).max())
    assert np.abs(layers.bilinear(x, ms, v, s) - sym).max() <= ROUND_OFF * scale
    halves = [(m + m.T) / 2 for m in ms]
    assert np.abs(layers.bilinear(x, halves, v, s) - sym).max() <= ROUND_OFF * scale


@given(
    st.integers(1, 3),
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(ACTIVATIONS)),
)
def test_linear_in_index_form_is_the_gated_layer(batch, dim, units, seed, act):
    """reduction.gated_form's second fact on random layers: with torch.nn.Linear's
    y[b, o] = Σ_i h[b, i]·W[o, i], w2(σ(w1 x) ⊙ w3 x) = gated(x, W1, W3, W2ᵀ, σ)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, dim))
    w1, w3 = (rng.standard_normal((units, dim)) / np.sqrt(dim) for _ in range(2))
    w2 = rng.standard_normal((dim, units))
    s = ACTIVATIONS[act].numpy
    linear = lambda h, w: np.einsum("bi,oi->bo", h, w)  # noqa: E731
    llama = linear(s(linear(x, w1)) * linear(x, w3), w2)
    gated = layers.gated(x, w1, w3, w2.T, s)
    assert np.abs(llama - gated).max() <= ROUND_OFF * max(1.0, np.abs(gated).max())
