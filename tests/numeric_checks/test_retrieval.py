"""Retrieval error at capacity: the models (symbolic.memory.retrieval) and the Monte Carlo with real
vectors (numeric_checks.retrieval), at small d with few trials."""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from numeric_checks import retrieval as mc
from numeric_checks.capacity import unit_rows
from symbolic.memory.retrieval import (
    MODELS,
    error_probability,
    model_probability,
    similarity_density,
    similarity_tail,
)
from symbolic.memory.stores import STORES
from tests.commands import in_process

SIGMAS = 4  # bands of 4 standard errors: a correct estimator fails one once in 16,000


def _relu(t: np.ndarray) -> np.ndarray:
    return np.maximum(t, 0.0)


@settings(max_examples=8, deadline=None)
@given(
    model=st.sampled_from(MODELS),
    d=st.integers(8, 32),
    m=st.integers(2, 300),
    extra=st.integers(1, 300),
)
def test_model_error_grows_with_memories(model, d, m, extra):
    # ISR(M) = (M − 1)·E[u²] with relu's E[u²] = 1/(2d): more memories, more noise, more rivals
    def p(M):
        return model_probability(model, _relu, d, M, (M - 1) / (2 * d), nodes=16)

    assert 0 <= p(m) <= p(m + extra) <= 1


@settings(max_examples=10, deadline=None)
@given(d=st.integers(3, 64), M=st.integers(1, 500))
def test_spherical_model_zero_interference_zero_error(d, M):
    assert model_probability("spherical", np.zeros_like, d, M, 0.0, nodes=16) == 0.0


@settings(max_examples=10, deadline=None)
@given(d=st.sampled_from([3, 4, 9, 16, 40]), x=st.floats(-0.99, 0.99))
def test_similarity_tail_is_the_integral_of_the_density(d, x):
    t, w = np.polynomial.legendre.leggauss(200)
    nodes = x + (1 - x) * (t + 1) / 2
    direct = (1 - x) / 2 * float(w @ similarity_density(d, nodes))
    assert similarity_tail(d, np.array(x)) == pytest.approx(direct, rel=1e-4, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(d=st.integers(3, 256), x=st.floats(-1.0, 1.0))
@example(d=9, x=0.9888065303179274)  # interpolating F̄ itself was 1.5e-4 off here
@example(d=64, x=0.99999)  # within a cell of x = 1: F̄ ≈ 1e-155
@example(d=4, x=0.9999)  # ρ ∝ √(1 − t): the last cell's quadrature was 2e-4 off
def test_similarity_tail_keeps_its_relative_accuracy_up_to_x_1(d, x):
    # P(t > x) = I_{(1−x)/2}((d−1)/2, (d−1)/2), the regularised incomplete beta function
    a = mpmath.mpf(d - 1) / 2
    with mpmath.workdps(30):
        exact = float(mpmath.betainc(a, a, 0, (1 - mpmath.mpf(x)) / 2, regularized=True))
    assume(exact > 1e-290)  # far below, the table's subnormals carry no relative accuracy
    assert similarity_tail(d, np.array(x)) == pytest.approx(exact, rel=1e-5)


def test_models_at_capacity_d64_match_the_session_figures():
    # spherical model: 0.039 % (outer product), 0.078 % (relu), 0.46 % (softmax, β = 8); the
    # Gaussian model's Gaussian tails give ~5× more for the outer product.
    outer = error_probability("outer_product", 64)
    assert outer.memories == 65 and outer.isr == pytest.approx(1.0)
    assert outer.spherical == pytest.approx(3.914e-4, rel=1e-3)
    assert outer.gaussian == pytest.approx(1.861e-3, rel=1e-3)
    assert outer.quadrature_error < 1e-8


@settings(max_examples=10, deadline=None)
@given(d=st.integers(3, 24), M=st.integers(2, 60), seed=st.integers(0, 2**32 - 1))
def test_zero_interference_never_errs_with_real_vectors(d, M, seed):
    only_own = lambda S, beta: (S == 1.0).astype(float)  # noqa: E731  u_0 = 1, others 0
    assert mc.trial_errors(only_own, d, M, 20, 1.0, np.random.SeedSequence(seed)) == 0


def test_two_pass_chunks_score_the_same_values(monkeypatch):
    # forced small chunks: the two-pass path must decide as one pass over the same draws
    monkeypatch.setattr(mc, "CHUNK_ELEMENTS", 5 * 8 * 4)  # B = 4, d = 8: 5 memories a chunk
    weight, d, M, B, seed = STORES["outer_product"].normalized_weight, 8, 23, 4, 7
    seq = np.random.SeedSequence(seed)
    chunked = mc.trial_errors(weight, d, M, B, 1.0, seq)
    parts = [
        mc._chunk(np.random.default_rng(c), weight, d, B, min(5, M - start), start == 0, 1.0)
        for start, c in zip(range(0, M, 5), np.random.SeedSequence(seed).spawn(5), strict=True)
    ]
    u = np.concatenate([p[0] for p in parts], axis=1)
    V = np.concatenate([p[1] for p in parts], axis=1)
    scores = np.einsum("bmd,bd->bm", V, np.einsum("bm,bmd->bd", u, V))
    assert chunked == int(np.count_nonzero(scores.argmax(axis=1) != 0))


def _brute_force_rate(d: int, M: int, trials: int, seed: int) -> float:
    """Full real keys (not the similarity shortcut), the outer-product store."""
    rng = np.random.default_rng(seed)
    K, V = unit_rows(rng, (trials, M, d)), unit_rows(rng, (trials, M, d))
    u = np.einsum("bmd,bd->bm", K, K[:, 0])
    scores = np.einsum("bmd,bd->bm", V, np.einsum("bm,bmd->bd", u, V))
    return float(np.mean(scores.argmax(axis=1) != 0))


def test_similarity_shortcut_agrees_with_full_keys():
    weight, d, M, n = STORES["outer_product"].normalized_weight, 8, 9, 1500
    rate = mc.trial_errors(weight, d, M, n, 1.0, np.random.SeedSequence(1)) / n
    brute = _brute_force_rate(d, M, n, 2)
    se = math.sqrt(2 * brute * (1 - brute) / n)
    assert abs(rate - brute) < SIGMAS * se, (rate, brute)


def test_both_models_over_estimate_at_small_d_gaussian_most():
    e = mc.estimate("outer_product", 16, queries=2000)
    assert e.ci95[0] <= e.rate <= e.ci95[1]
    assert e.ci95[1] < e.spherical < e.gaussian  # 12 % [11, 14] < 19.9 % < 23.9 %


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 10**6), frac=st.floats(0, 1))
def test_wilson_interval_contains_the_rate(n, frac):
    k = round(frac * n)
    lo, hi = mc.wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def test_wilson_known_value():
    assert mc.wilson(0, 10)[1] == pytest.approx(1.959963984540054**2 / (10 + 1.959963984540054**2))


def test_cli_json():
    out = in_process(
        "numeric_checks.retrieval",
        ["--store", "outer_product,relu", "--d", "6", "--queries", "300", "--json"],
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["store"] for r in rows] == ["outer_product", "relu"]
    assert all(r["queries"] == 300 and r["ci95"][0] <= r["rate"] <= r["ci95"][1] for r in rows)


@pytest.mark.parametrize(
    "argv, text",
    [
        (["--store", "nope"], "--store nope"),
        (["--store", "least_squares"], "projection"),
        (["--d", "2"], "--d 2"),
        (["--d", "abc"], "'abc'"),
        (["--queries", "0"], "--queries 0"),
        (["--seed", "-1"], "--seed -1"),
        (["--d", "-3"], "--d -3"),  # was a math domain error traceback (default β = √d)
        (["--d", "1e400"], "'1e400'"),  # was an OverflowError traceback
        (["--beta", "-1", "--store", "softmax"], "--beta -1"),
        (["--store", "relu3", "--d", "64", "--queries", "100000"], "estimated at"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, text):
    out = in_process("numeric_checks.retrieval", argv)
    err = out.stderr.strip()
    assert out.returncode == 2 and text in err and "\n" not in err and "Traceback" not in err
