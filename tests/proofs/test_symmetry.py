"""``python -m proofs.symmetry`` (issue 13): the done-when commands, the generator and conserved
quantity, certified witnesses that really are nonzero, agreement of the discovered table with
``proofs.exchange`` / ``proofs.scaling`` on a representative subset (the whole table:
``benchmarks/symmetry_table.py``), and a Hypothesis property per kept symmetry."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs import exchange, scaling, symmetry
from symbolic import layers
from symbolic.activations import ACTIVATIONS
from symbolic.gated.witness import sympy_sigma
from symbolic.languages.layer_language import table_layer
from symbolic.languages.transform_language import parse_param, parse_transform
from symbolic.limits import limits
from symbolic.symmetry.invariance import decide, generator_of


def _json(capsys, *argv) -> tuple[int, object]:
    code = symmetry.main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_gated_silu_breaks_the_exchange_with_a_certified_witness(capsys):
    code, out = _json(
        capsys, "--layer", "gated", "--transform", "Q -> K, K -> Q", "--activation", "silu"
    )
    assert code == 0 and out["invariant"] is False and out["status"] == "proved"
    w = out["witness"]
    assert w["certificate"] and w["entry"] == [0, 0] and out["generator"] is None
    # the witness, recomputed from its exact values by layers.py: nonzero, the value shown
    x, Q, K, V = (
        sympy.Matrix([[sympy.Rational(v) for v in row] for row in w[k]])
        for k in ("x", "Q", "K", "V")
    )
    s = sympy_sigma(ACTIVATIONS["silu"])
    diff = (layers.gated(x, K, Q, V, s) - layers.gated(x, Q, K, V, s))[0, 0]
    lo, hi = map(float, re.findall(r"[-\d.]+(?:e[-+]?\d+)?", w["certificate"])[:2])
    assert 0 < lo <= float(diff) <= hi or lo <= float(diff) <= hi < 0  # the enclosure holds it
    assert out["evidence"]["numeric"][0]["agrees"]


def test_symmetric_rank1_keeps_the_exchange_for_every_sigma_at_general_sizes(capsys):
    code, out = _json(
        capsys,
        "--layer",
        "symmetric_rank1",
        "--transform",
        "Q -> K, K -> Q",
        "--activation",
        "silu",
    )
    assert code == 0 and out["invariant"] is True and out["sizes"] == "general n, d"
    assert out["every_sigma"] and out["evidence"]["methods"] == ["sympy"]
    assert out["evidence"]["steps"][0]["verdict"]["status"] == "proved"


def test_relu_gated_rescaling_conserves_q_minus_k_per_unit(capsys):
    code, out = _json(
        capsys, "--layer", "gated", "--transform", "Q -> a*Q, K -> K/a", "--activation", "relu"
    )
    assert code == 0 and out["invariant"] is True
    assert out["generator"] == "diag(1·I_Q, −1·I_K)" and out["conserved"] == "‖Q‖² − ‖K‖²"
    assert out["conserved_per_unit"] == "‖q_j‖² − ‖k_j‖²"
    assert out["per_unit"]["sizes"] == "general n, d (every unit k with its own a[k])"
    assert "conservation.noether" in out["conserved_by"]
    kinds = [s["formula"] for s in out["evidence"]["steps"]]
    assert any("Eq(Max(0, a*t), a*Max(0, t))" in f for f in kinds)  # the instance it rests on


def test_a_typed_layer_is_decided_for_exchange(capsys):
    code, out = _json(
        capsys, "--layer", "(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", "--transform", "Q -> K, K -> Q"
    )
    assert code == 0 and out["invariant"] is True and out["layer"].startswith("(sigma")


def test_a_layer_calling_table_activations_names_them(capsys):
    code, out = _json(
        capsys,
        "--layer",
        "relu(x @ K.T) @ V",
        "--transform",
        "K -> -K, V -> -V",
        "--activation",
        "silu",
    )
    assert code == 0 and out["invariant"] is False
    assert out["evidence"]["claim"]["assumptions"] == ["relu(z) = Max(0, z)"]


def test_proofs_does_not_run_it_as_a_theorem_module():
    from proofs.__main__ import discover

    assert "symmetry" not in [m.name for m in discover()]
    assert not hasattr(symmetry, "build_report")


def test_silu_gated_rescaling_is_refuted_at_a_parameter_value(capsys):
    code, out = _json(capsys, "--transform", "Q -> a*Q, K -> K/a", "--activation", "silu")
    assert code == 0 and out["invariant"] is False and out["witness"]["parameter"] is not None
    assert out["conserved"] is None and out["generator"] == "diag(1·I_Q, −1·I_K)"


def test_missing_transform_and_bad_input_exit_2(capsys):
    assert symmetry.main(["--layer", "gated"]) == 2
    assert symmetry.main(["--layer", "x @ Q", "--transform", "Q -> K"]) == 2
    assert symmetry.main(["--discover", "--transform", "Q -> K"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and "Traceback" not in err


def test_undecided_at_the_bound_is_unknown_exit_3(capsys):
    """With SymPy given no time, the ReLU MLP's rescaling is neither proved nor refuted (no witness
    exists): unknown, exit 3, never a pass."""
    code, out = _json(
        capsys, "--layer", "mlp", "--transform", "K -> a*K, V -> V/a", "--sympy-timeout", "1e-6"
    )
    assert code == 3 and out["invariant"] is None and out["status"] == "unknown"
    assert (
        out["conserved"] is None and out["evidence"]["steps"][0]["verdict"]["status"] == "unknown"
    )


@pytest.mark.parametrize(
    ("text", "generator", "conserved"),
    [
        ("Q -> a*Q, K -> a**(-2)*K", "diag(1·I_Q, −2·I_K)", "‖Q‖² − 2‖K‖²"),
        ("Q[j] -> a*Q[j], K[j] -> K[j]/a", "diag(1·I_q_j, −1·I_k_j)", "‖q_j‖² − ‖k_j‖²"),
        ("K -> a**(3/2)*K, V -> V/a", "diag(3/2·I_K, −1·I_V)", "(3/2)‖K‖² − ‖V‖²"),
        ("Q -> K, K -> Q", None, None),
        ("Q -> a*K, K -> Q", None, None),
    ],
)
def test_generator_and_conserved_quantity(text, generator, conserved):
    t = parse_transform(text, table_layer("gated"), parse_param("a > 0"))
    assert generator_of(t) == (generator, conserved)


def test_no_generator_without_the_identity_in_the_family():
    t = parse_transform("Q -> a*Q, K -> K/a", table_layer("gated"), parse_param("a < 0"))
    assert generator_of(t) == (None, None)


SUBSET = ("relu", "silu", "relu2", "tanh", "identity")  # degree 1, smooth, degree 2, odd, linear


@pytest.mark.parametrize("name", SUBSET)
def test_discovered_rows_agree_with_exchange_and_scaling(name):
    ex = exchange.build_report(activations=[name]).data["activations"][0]
    sc = scaling.build_report(activations=[name]).data["activations"][0]
    want = {
        "Q -> K, K -> Q": ex["exchange_symmetric"],
        "Q[j] -> a*Q[j], K[j] -> K[j]/a": sc["inverse_scaling_symmetric"],
    }
    if sc["homogeneity_degree"] not in (None, 1):
        want[f"Q[j] -> a*Q[j], K[j] -> a**(-{sc['homogeneity_degree']})*K[j]"] = True
    layer = table_layer("gated")
    spec = symmetry.activation_spec(name)
    for text, kept in want.items():
        got = decide(layer, parse_transform(text, layer), {"sigma": spec})
        assert got.invariant is kept, (name, text)


def test_discover_proposes_the_standard_family(capsys):
    code, out = _json(capsys, "--layer", "mlp", "--discover", "--activation", "relu")
    table = {d["transform"]: d["invariant"] for d in out["symmetries"]}
    assert code == 0 and out["activation"] == "relu"
    assert table["K[0] -> K[1], K[1] -> K[0], V[0] -> V[1], V[1] -> V[0]"] is True
    assert table["K[j] -> a*K[j], V[j] -> V[j]/a"] is True  # ReLU MLP: ‖w1_j‖² − ‖w2_j‖²
    assert table["K -> -K, V -> -V"] is False
    conserved = {d["transform"]: d["conserved"] for d in out["symmetries"]}
    assert conserved["K[j] -> a*K[j], V[j] -> V[j]/a"] == "‖k_j‖² − ‖v_j‖²"


_KEPT = {
    "Q -> a*Q, K -> K/a": "relu",
    "K -> a*K, V -> V/a": "silu",
    "Q -> a*Q, K -> a**(-2)*K": "relu2",
}
_DECIDED = {}


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(_KEPT)), st.floats(0.05, 20), st.integers(0, 2**32 - 1))
def test_kept_rescalings_hold_at_random_scalings(text, a, seed):
    """A decided-invariant rescaling leaves random gated layers unchanged at any a > 0."""
    layer = table_layer("gated")
    if text not in _DECIDED:
        t = parse_transform(text, layer)
        _DECIDED[text] = decide(layer, t, {"sigma": symmetry.activation_spec(_KEPT[text])})
    d = _DECIDED[text]
    assert d.invariant is True
    rng = np.random.default_rng(seed)
    x, Q, K, V = (rng.standard_normal(s) for s in ((1, 3), (4, 3), (4, 3), (4, 3)))
    moved = {
        s.target.name: float(s.coefficient.subs(d.transform.parameter, a))
        for s in d.transform.substitutions
    }
    sigma = ACTIVATIONS[_KEPT[text]].numpy
    before = layers.gated(x, Q, K, V, sigma)
    after = layers.gated(
        x, moved.get("Q", 1) * Q, moved.get("K", 1) * K, moved.get("V", 1) * V, sigma
    )
    assert np.allclose(after, before, rtol=1e-10, atol=1e-10 * np.max(np.abs(before)))


PROOF_ATTEMPT_S = 0.1  # the kernel's attempts at false identities, bounded (unknown at the bound)


def test_a_wrong_proposal_is_refused_by_the_kernel(monkeypatch):
    """Told that SiLU is 1-homogeneous (and every identity plausible), the rewrite is still
    not used: the kernel does not prove σ(a·t) = a·σ(t) for SiLU, and a witness decides."""
    from symbolic.symmetry import invariance as decision
    from symbolic.symmetry import rewrite as rewrite

    monkeypatch.setattr(rewrite.ActivationFacts, "degree", lambda self: sympy.Integer(1))
    for module in (decision, rewrite):
        monkeypatch.setattr(module, "plausible", lambda diff: True)
    rewrite._INSTANCES.clear()
    layer = table_layer("gated")
    with limits(sympy_timeout_s=PROOF_ATTEMPT_S):
        got = decide(
            layer,
            parse_transform("Q -> a*Q, K -> K/a", layer),
            {"sigma": symmetry.activation_spec("silu")},
        )
    rewrite._INSTANCES.clear()
    assert got.invariant is False and got.witness is not None


def test_a_forged_proof_fails_the_numeric_cross_check(monkeypatch, capsys):
    """A decision that claims invariance where there is none (here forced by replacing the
    general proof with a trivial one) is caught: the numeric check disagrees, exit 1."""
    from symbolic.steps import equal_step
    from symbolic.symmetry import invariance as decision

    trivial = equal_step(sympy.Integer(0), sympy.Integer(0), "forged")
    monkeypatch.setattr(decision, "_general_proof", lambda *args: ((trivial,), True))
    code = symmetry.main(["--transform", "Q -> K, K -> Q", "--activation", "silu"])
    assert code == 1 and "[failed]" in capsys.readouterr().out


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
def test_torch_cross_checks_use_the_real_functions():
    """A per-unit rescaling on torch tensors (rows assigned on a clone), torch's F.gelu."""
    pytest.importorskip("torch")
    kept = symmetry.symmetry_report(
        layer="gated", transform="K[j] -> a*K[j], V[j] -> V[j]/a", activation="gelu", torch=True
    )
    assert [n.backend for n in kept.results[0].numeric] == ["numpy", "torch"]
    assert all(n.agrees for n in kept.results[0].numeric)
