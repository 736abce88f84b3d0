"""Red-team round 10 of the activation analysis (``python -m proofs.exchange --activation``).

About 70 new activations (piecewise-linear identities through relu6/hardtanh/hardswish, max/min
identities, bumps at irrational kinks, saturating functions with constants near float's range,
constants of degree 0) were decided by hand and checked in mpmath; no verdict was wrong. One
class stayed ``unknown`` where a certified refutation is at hand: a bump at a *negative*
irrational kink, ``x + relu(1e-6 - abs(x + sqrt(3)/2))``. The homogeneity search on the
half-line z < 0 tries ``z = −t`` for candidate points t > 0, and the kinks kept their sign among
the candidates, so ``t = √3/2`` was never tried; now each half-line also gets its own kinks.

And σ ≡ 0 written through SiLU (``silu(x) + silu(-x) - x*tanh(x/2)``: s(x) − s(−x) = tanh(x/2))
was proved linear and homogeneous of every degree, yet its inverse scaling stayed ``unknown``
after 10 s of CPU: the degree-1 instance re-decided ``σ(αz) = ασ(z)`` on σ as written instead
of using the identity ``σ = 0`` just proved; it now takes that identity as the kernel's ``given``.
"""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.engine import PROVED, REFUTED
from symbolic.gated.analysis import analyze_item, parsed_item


def _mp_bump(kink: mpmath.mpf, width: float, base):
    """σ by hand: base(z) plus a tent of height ``width`` at ``kink``."""
    return lambda v: base(v) + max(mpmath.mpf(0), mpmath.mpf(width) - abs(v - kink))


NEGATIVE_KINKS = [
    ("x + relu(1e-6 - abs(x + sqrt(3)/2))", -mpmath.sqrt(3) / 2, 1e-6, lambda v: v),
    ("abs(x) + relu(1e-9 - abs(x + pi))", -mpmath.pi, 1e-9, abs),
    ("relu(x) + relu(1e-9 - abs(x + log(2)))", -mpmath.log(2), 1e-9, lambda v: max(v, 0)),
]


@pytest.mark.parametrize(("text", "kink", "width", "base"), NEGATIVE_KINKS)
def test_a_bump_at_a_negative_irrational_kink_is_refuted(text, kink, width, base):
    with mpmath.workdps(50):  # the truth, by hand: σ(1), σ(2) force degree 1, and at z = −1,
        sigma = _mp_bump(kink, width, base)  # α = |k|: σ(αz) = σ(k) ≠ |k|·σ(−1)
        assert sigma(2) == 2 * sigma(1) and sigma(kink) != abs(kink) * sigma(-1)
    label, expr, _ = parsed_item(text)
    a = analyze_item(label, expr)
    assert a.homogeneity.holds.status == REFUTED
    assert a.status == PROVED and a.inverse_scaling_symmetric is False


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 30).filter(lambda m: int(m**0.5) ** 2 != m), st.integers(1, 5))
def test_bumps_at_negative_square_roots_are_never_homogeneous(m, q):
    """σ = x + relu(1e-6 − |x + √m/q|): σ(z) = z except at the bump, which σ(−1) = −1 and
    σ(−2) = −2 do not see; degree 1 is what z = ±1, ±2 force, and the bump breaks it."""
    label, expr, _ = parsed_item(f"x + relu(1e-6 - abs(x + sqrt({m})/{q}))")
    a = analyze_item(label, expr)
    assert a.homogeneity.holds.status == REFUTED
    assert a.linear.holds.status == REFUTED


def test_a_zero_written_through_silu_keeps_inverse_scaling():
    with mpmath.workdps(50):  # σ = x·(s(x) − s(−x)) − x·tanh(x/2) ≡ 0, checked at points
        for v in (mpmath.mpf("0.3"), mpmath.mpf(-7) / 3, mpmath.mpf(11)):
            silu = lambda u: u / (1 + mpmath.exp(-u))  # noqa: E731
            assert abs(silu(v) + silu(-v) - v * mpmath.tanh(v / 2)) < mpmath.mpf(10) ** -45
    label, expr, _ = parsed_item("silu(x) + silu(-x) - x*tanh(x/2)")
    a = analyze_item(label, expr)
    assert a.status == PROVED and a.every_degree and a.inverse_scaling_symmetric is True
