"""numeric_checks.layers: every layer identity on random float64 layers (numpy, torch), the
LLaMA-style block built from torch.nn.Linear, parameter counts and witness replay."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from numeric_checks import layers as numeric
from symbolic import layers
from symbolic.activations import ACTIVATIONS

pytestmark = pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only


@pytest.mark.parametrize("name", sorted(numeric.IDENTITIES))
def test_every_identity_holds_on_numpy(name):
    check = numeric.check(name)
    assert check.agrees, check
    assert check.samples == numeric.TRIALS and check.max_error <= numeric.REL_TOL


@pytest.mark.parametrize("name", sorted(numeric.IDENTITIES))
def test_every_identity_holds_on_torch(name):
    pytest.importorskip("torch")
    check = numeric.check(name, backend="torch")
    assert check.agrees and check.backend == "torch", check


def _gated_vs_symmetric(g, act):
    x, q, k, v = g.normal(2, 3), g.weights(4, 3), g.weights(4, 3), g.normal(4, 2)
    s = g.sigma(act)
    return layers.gated(x, q, k, v, s), layers.symmetric_rank1(x, q, k, v, s)


def test_a_false_identity_is_reported_as_disagreeing(monkeypatch):
    """The check can fail: Gated = Sym is false for relu, and the check says so."""
    wrong = numeric.Identity(
        "wrong", "A5", "Gated = Sym (false)", _gated_vs_symmetric, activations=("relu",)
    )
    monkeypatch.setitem(numeric.IDENTITIES, "wrong", wrong)
    check = numeric.check("wrong")
    assert not check.agrees and check.max_error > 1e-3


@given(st.sampled_from(sorted(numeric.IDENTITIES)), st.integers(0, 2**32 - 1))
def test_identities_hold_for_any_seed(name, seed):
    assert numeric.check(name, trials=3, seed=seed).agrees


def test_normwise_error_is_relative_to_the_output_scale():
    assert numeric.normwise_error(np.array([1e6, 0.0]), np.array([1e6, 1e-6])) == 1e-12
    assert numeric.normwise_error(np.zeros(3), np.zeros(3)) == 0.0


def test_parameter_counts_agree():
    checks = numeric.parameter_counts(torch=True)
    assert all(c.agrees for c in checks) and checks[0].max_error == 0


def test_llama_block_equals_the_gated_form():
    pytest.importorskip("torch")
    checks = numeric.llama_swiglu()
    assert [c.backend for c in checks] == ["torch", "numpy", "mpmath"]
    assert all(c.agrees for c in checks), checks


def test_llama_block_is_not_gated_with_the_roles_exchanged():
    """Q = W1 (under silu) and K = W3 matter: exchanging them changes the output."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    block = numeric.llama_mlp(6, 16)
    x = torch.randn(4, 6, dtype=torch.float64)
    with torch.no_grad():
        real = block(x)
        w1, w2, w3 = block.w1.weight, block.w2.weight, block.w3.weight
        silu = ACTIVATIONS["silu"].torch_fn()
        right = layers.gated(x, w1, w3, w2.T, silu)
        swapped = layers.gated(x, w3, w1, w2.T, silu)
    assert numeric.normwise_error(real, right) <= numeric.REL_TOL
    assert numeric.normwise_error(real, swapped) > 1e-3


def _diff(sig, v):
    return (
        layers.gated(v["x"], v["Q"], v["K"], v["V"], sig)
        - layers.symmetric_rank1(v["x"], v["Q"], v["K"], v["V"], sig)
    )[0, 0]


ONE = sympy.Matrix([[1]])
AT_K2 = {"x": ONE, "Q": ONE, "K": sympy.Matrix([[2]]), "V": ONE}


def test_replay_accepts_a_correct_witness_and_rejects_a_wrong_one():
    relu = ACTIVATIONS["relu2"]  # σ(1)·2 − σ(2) = 2 − 4 = −2
    good = numeric.WitnessCase(relu, _diff, AT_K2, -2.0)
    assert numeric.replay_witnesses("relu2", [good]).agrees
    wrong = numeric.WitnessCase(relu, _diff, AT_K2, -2.5)
    assert not numeric.replay_witnesses("relu2", [wrong]).agrees
    identity = numeric.WitnessCase(ACTIVATIONS["identity"], _diff, AT_K2, 0.0)
    result = numeric.replay_witnesses("identity", [identity])
    assert not result.agrees and "identity" in result.detail  # 0 is no witness


def test_replay_on_torch():
    pytest.importorskip("torch")
    case = numeric.WitnessCase(
        ACTIVATIONS["relu"], _diff, {"x": ONE, "Q": ONE, "K": sympy.Matrix([[-1]]), "V": ONE}, -1.0
    )
    checks = numeric.replay_all("relu", [case], torch=True)
    assert [c.backend for c in checks] == ["numpy", "torch"] and all(c.agrees for c in checks)


def test_torch_option_parsing(monkeypatch):
    from proofs._cli import NO_TORCH_ENV, base_parser, torch_option

    p = base_parser("prog", None)
    assert torch_option(p.parse_args(["--no-torch"])) == {"torch": False}
    monkeypatch.delenv(NO_TORCH_ENV, raising=False)
    assert torch_option(p.parse_args([]))["torch"] == numeric.torch_available()
    monkeypatch.setenv(NO_TORCH_ENV, "1")
    assert torch_option(p.parse_args([])) == {"torch": False}
