"""python -m proofs.absorption (docs/theory.md A2): a static query absorbs into the keys."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from commands import in_process
from hypothesis import given
from hypothesis import strategies as st

from proofs import absorption
from symbolic import layers
from symbolic.activations import ACTIVATIONS

ROUND_OFF = 1e-12  # float64 layers of width ≤ 8: errors are ~1e-15


def cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m proofs.absorption`` through its ``main`` in this process."""
    return in_process("proofs.absorption", list(args))


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("absorption")


def test_every_claim_is_proved_with_numeric_checks(report):
    assert report.status == "proved" and report.exit_code == 0
    assert [r.claim.name for r in report.results] == [
        "absorption.static_query",
        "absorption.mlp_is_static_query",
        "absorption.with_biases",
    ]
    for result in report.results:
        assert all(s.verdict.status == "proved" for s in result.derivation.steps)
        assert result.numeric and all(n.agrees and n.backend == "numpy" for n in result.numeric)


def test_steps_say_at_which_sizes_they_hold(report):
    steps = [s for r in report.results for s in r.derivation.steps if s.note]
    general = [s for s in steps if s.note.startswith("[general B, d, n, d_out]")]
    explicit = [s for s in steps if s.note.startswith("[B=2, d=3, n=2, d_out=2")]
    assert len(general) + len(explicit) == len(steps) and len(explicit) == 1
    assert {s.verdict.method for s in steps} == {"sympy", "rule"}


def test_each_derivation_ends_in_its_statement_by_the_kernels_rules(report):
    for result in report.results:
        last = result.derivation.steps[-1]
        assert last.formula == result.claim.statement
        assert last.fact.rule in ("cong", "conj") and not result.derivation.empty_steps


def test_the_layers_are_equal_because_their_scores_are(report):
    """The last step puts step 1's scores into σ(·)V: the layer identity is a congruence."""
    steps = report.results[0].derivation.steps
    assert steps[-1].fact.parts == (steps[0].fact,)
    assert steps[-1].formula.lhs == absorption.layer(steps[0].formula.lhs)


def test_a_statement_changed_by_one_sign_is_failed(report):
    from statement_mutations import assert_each_fails_with_one_sign_changed

    assert_each_fails_with_one_sign_changed(report)


def test_the_bias_derivation_goes_through_the_augmented_token(report):
    steps = report.results[2].derivation.steps
    assert "K̃Q̃ᵀ = [KQᵀ, (b_qKᵀ + b_k)ᵀ]" in steps[0].note
    assert steps[2].rule.startswith("absorption.static_query's first step at width d + 1")
    assert steps[3].fact.rule == "cong" and steps[5].fact.rule == "trans"


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
def test_torch_checks_are_added_when_asked():
    pytest.importorskip("torch")
    rep = absorption.build_report(torch=True)
    assert {n.backend for r in rep.results for n in r.numeric} == {"numpy", "torch"}
    assert rep.status == "proved"


def test_command_prints_the_derivation_and_exits_0():
    out = cli("--no-torch")
    assert out.returncode == 0, out.stderr
    assert "[proved] Theorem absorption.static_query (A2)" in out.stdout
    assert "(xQ)Kᵀ = x(KQᵀ)ᵀ" in out.stdout and "✓ proved by sympy" in out.stdout
    assert out.stdout.rstrip().endswith("— proved")


def test_command_json_and_bad_usage():
    out = cli("--no-torch", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["status"] == "proved"
    bad = cli("--bogus")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@given(
    st.integers(1, 4),
    st.integers(1, 8),
    st.integers(1, 8),
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(ACTIVATIONS)),
)
def test_absorption_property(batch, dim, units, seed, act):
    """σ((xQ)Kᵀ)V = σ(x(KQᵀ)ᵀ)V and σ(xKᵀ)V = σ((xI)Kᵀ)V on random layers."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, dim))
    q, k = (rng.standard_normal(s) / np.sqrt(dim) for s in ((dim, dim), (units, dim)))
    v = rng.standard_normal((units, 3))
    s = ACTIVATIONS[act].numpy
    lhs = layers.static_query(x, q, k, v, s)
    rhs = layers.mlp(x, layers.absorbed_keys(q, k), v, s)
    assert np.abs(lhs - rhs).max() <= ROUND_OFF * max(1.0, np.abs(lhs).max())
    assert np.array_equal(layers.mlp(x, k, v, s), layers.static_query(x, np.eye(dim), k, v, s))
