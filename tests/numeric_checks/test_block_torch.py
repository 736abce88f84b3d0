"""The block conservation laws under real torch training (``numeric_checks.block_torch``): the
laws hold against their controls, and the check fails where no symmetry is (RoPE on QK)."""

from __future__ import annotations

import pytest

from numeric_checks import block_torch

torch = pytest.importorskip("torch", reason="torch is optional: the torch training check skips")


def test_the_laws_hold_under_torch_sgd():
    checks = block_torch.law_checks()
    assert set(checks) == set(block_torch.LAWS)
    for law, (drift, scaling) in checks.items():
        assert drift.agrees and drift.backend == "torch", law
        assert drift.max_error < block_torch.RATIO_TOL / 10  # ~1e-4: far from the bound
        assert scaling.agrees and 3.6 < float(scaling.detail.split()[-1]) < 4.4


def test_the_check_fails_where_the_group_is_no_symmetry():
    """With RoPE, GL(r) of QK is broken (a certified witness in --discover): its quantity drifts
    at first order, like the control, and the check says so; VO and the gain still hold."""
    checks = block_torch.law_checks(rope=True)
    assert not checks["qk"][0].agrees and checks["qk"][0].max_error > 10 * block_torch.RATIO_TOL
    assert not checks["qk"][1].agrees  # doubling η doubles the drift: first order
    assert checks["vo"][0].agrees and checks["gain"][0].agrees


def test_with_a_layernorm_bias_the_gain_law_stacks_the_bias():
    """LayerNorm's bias moves with its gain (b → b D), so g_i² + b_i² − Σ‖W_i,:‖² is conserved
    and g_i² − Σ‖W_i,:‖² (the law as an RMSNorm block states it) drifts at first order."""
    checks = block_torch.law_checks(norm="layer")
    assert all(drift.agrees and scaling.agrees for drift, scaling in checks.values())
    assert "LayerNorm gain and bias" in checks["gain"][0].name
    run = block_torch.train(norm="layer")
    assert run.drift["gain without b"] > 10 * block_torch.RATIO_TOL * run.drift["gain+"]


def test_the_block_learns_and_the_quantities_are_the_laws():
    run = block_torch.train(eta=1e-3, steps=20)
    assert run.loss[1] < run.loss[0]
    block = block_torch._block(False, 1)
    q = block_torch.quantities(block)
    with torch.no_grad():  # by hand, head 0: W_Qᵀ W_Q − W_Kᵀ W_K with W = weightᵀ
        wq, wk = block.q[0].weight.T.numpy(), block.k[0].weight.T.numpy()
    assert abs(q["qk"][0] - (wq.T @ wq - wk.T @ wk)).max() < 1e-12
    assert block_torch.skip_reason() is None


def test_without_torch_the_check_says_why(monkeypatch):
    monkeypatch.setattr(block_torch, "skip_reason", lambda: "torch is not installed")
    checks = block_torch.law_checks()
    for law in block_torch.LAWS:
        (check,) = checks[law]
        assert check.expect == "none" and "torch is not installed" in check.detail
