"""The tied stores' quadrature (symbolic.memory.tied_memory) against mpmath's adaptive quadrature of
the same weights under each law, written here from the densities: at small d, where the exact
law's density is singular at |s| = 1 (even d) and the Gaussian law weighs |s| > 1."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.memory.stores import STORES
from symbolic.memory.tied_memory import tied_law
from tests.commands import in_process

# the points where these weights have kinks, for mpmath's subdivision
CUTS = (0, 1, 3**0.5, 6**0.5, 3, 6)


def mpmath_capacity(name: str, law: str, d: int) -> float:
    weight = STORES[name].normalized_weight

    def f2(x):
        return float(weight(np.array([float(x)]), 1.0)[0]) ** 2

    if law == "exact":
        c = (
            mpmath.gamma(mpmath.mpf(d) / 2)
            / mpmath.gamma(mpmath.mpf(d - 1) / 2)
            / mpmath.sqrt(mpmath.pi)
        )
        pts = [-1, 0, 1]
        e = mpmath.quad(lambda x: f2(x) * c * (1 - x * x) ** (mpmath.mpf(d - 3) / 2), pts)
    else:
        pts = sorted({-mpmath.inf, mpmath.inf, *CUTS, *(-c for c in CUTS)})
        e = mpmath.quad(
            lambda x: f2(x) * mpmath.sqrt(d / (2 * mpmath.pi)) * mpmath.exp(-d * x * x / 2), pts
        )
    return float(1 + 1 / e)


NUMERIC = [
    n
    for n in STORES
    if STORES[n].part == "C1"
    and n.split("_", 1)[1] in ("hardtanh", "relu6", "hardswish", "silu", "gelu")
]


@pytest.mark.parametrize("name", NUMERIC)
@pytest.mark.parametrize("law", ["exact", "gaussian"])
def test_quadrature_matches_mpmath_at_d_4(name, law):
    # at d = 4 the Gaussian law puts 4.6 % of its mass beyond |s| = 1, where hardtanh is flat:
    # the polynomial of |s| ≤ 1 with Gaussian moments was 27 % off there
    assert tied_law(name, law, 4).capacity == pytest.approx(
        mpmath_capacity(name, law, 4), rel=1e-10
    )


@settings(max_examples=12, deadline=None)
@given(
    st.integers(3, 40),
    st.sampled_from(["sym_hardtanh", "gated_hardswish", "gated_silu"]),
    st.sampled_from(["exact", "gaussian"]),
)
def test_quadrature_matches_mpmath_at_every_small_d(d, name, law):
    assert tied_law(name, law, d).capacity == pytest.approx(
        mpmath_capacity(name, law, d), rel=1e-10
    )


@pytest.mark.parametrize("d", ["3", "4", "8", "16"])
def test_tied_memory_is_decided_at_small_d(d):
    done = in_process("proofs.tied_memory", ["--d", d])
    assert done.returncode == 0, done.stdout[-3000:]
    assert "12 proved, 0 refuted, 0 unknown, 0 failed" in done.stderr + done.stdout


@settings(max_examples=5, deadline=None)
@given(
    st.integers(3, 100),
    st.sampled_from(["exact", "gaussian"]),
    st.sampled_from([("gated_relu", "sym_relu"), ("gated_relu3", "sym_relu2")]),
)
def test_at_matched_degree_the_gate_doubles_capacity_minus_one(d, law, pair):
    # gated relu^(2p−1) and symmetric relu^p both weigh s^(2p) on s > 0; the gate zeroes the
    # anti-aligned half (docs/capacity.md, "What the comparison measures")
    gated, sym = (mpmath_capacity(n, law, d) - 1 for n in pair)
    assert gated == pytest.approx(2 * sym, rel=1e-9)
    assert tied_law(pair[0], law, d).capacity - 1 == pytest.approx(gated, rel=1e-9)
