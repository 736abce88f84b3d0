"""docs/theory.md C1: tied-key memories, symmetric σ(s²) against gated σ(s)·s."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from shared_reports import report as shared_report

from numeric_checks.capacity import estimate
from symbolic.activations import ACTIVATIONS
from symbolic.memory_stores import PART_B, STORES
from symbolic.similarity_law import moment, quad_expectation, s
from symbolic.tied_memory import abs_moment, propose_square, t, tied_form, tied_law

TIED = sorted(n for n, m in STORES.items() if m.part == "C1")
# the closed-form stores, found when the property first draws (not at collection: ~1 s per worker)
CLOSED = st.deferred(lambda: st.sampled_from([n for n in TIED if tied_form(n).closed]))


@pytest.mark.xdist_group("shared-reports")  # reads tests/shared_reports.py
def test_every_claim_is_proved_with_agreeing_numeric_checks():
    report = shared_report("tied_memory")
    assert report.status == "proved"
    assert all(n.agrees for r in report.results for n in r.numeric)
    names = {r.claim.name for r in report.results}
    assert {"tied.symmetric-even", "tied.relu-gate-doubles", "tied.relu2-symmetric-wins",
            "tied.capacity-relu", "tied.capacity-hardswish"} <= names
    rows = {r["store"]: r for r in report.data["stores"]}
    assert set(rows) == set(TIED)
    assert rows["sym_relu"]["exact"] == 1409 and rows["gated_relu"]["exact"] == 2817


def test_the_tied_stores_stay_out_of_the_source_table():
    assert not set(TIED) & set(PART_B) and len(TIED) == 2 * len(ACTIVATIONS)


def test_closed_forms_in_d():
    assert tied_law("sym_relu2", "exact", 8).capacity == tied_law("gated_relu2", "exact",
                                                                  8).capacity  # the tie
    d = sympy.Symbol("d", positive=True)
    assert sympy.simplify(tied_law("gated_relu", "gaussian", 64).expr - (1 + 2 * d**2 / 3)) == 0
    assert tied_law("sym_gelu", "exact", 64).kind == "numeric"  # no polynomial: says so
    # its polynomial holds on |s| ≤ 1 only; the Gaussian law weighs |s| > 1 too: quadrature
    assert tied_law("sym_hardtanh", "gaussian", 64).kind == "numeric"


@pytest.mark.parametrize("n", [1, 3, 4, 5])
def test_absolute_moments_against_quadrature(n):
    want = abs_moment("exact", n).subs(sympy.Symbol("d", positive=True), 10)
    with mpmath.workdps(20):
        got = quad_expectation("exact", 10, lambda x: abs(x) ** n)
    assert float(got) == pytest.approx(float(want), rel=1e-12)
    if n % 2 == 0:
        assert abs_moment("gaussian", n) == moment("gaussian", n // 2)


@given(CLOSED, st.integers(1, 999), st.sampled_from([1, -1]))
def test_half_line_polynomial_identity(name, k, sign):
    """f(±t)² = P±(t) at every rational 0 < t < 1 (exactly), for every closed-form store."""
    form = tied_form(name)
    q = sympy.Rational(k, 1000)
    poly = form.plus if sign > 0 else form.minus
    assert sympy.sympify(form.store.weight.subs(s, sign * q) ** 2 - poly.subs(t, q)) == 0


@given(st.sampled_from(sorted(ACTIVATIONS)), st.floats(-1, 1))
def test_symmetric_weight_is_even(act, x):
    w = STORES[f"sym_{act}"].normalized_weight
    assert w(np.array([x]), 1.0)[0] == w(np.array([-x]), 1.0)[0]


def test_no_polynomial_is_proposed_for_silu():
    assert propose_square(STORES["gated_silu"].weight, 1) is None


@pytest.mark.parametrize("name", ["sym_relu", "gated_relu", "sym_silu"])
def test_monte_carlo_with_real_vectors_sides_with_the_exact_law(name):
    e = estimate(name, 8, rel_se=1e-2)
    se = (e.ci95[1] - e.ci95[0]) / (2 * 1.959963984540054)
    assert abs(e.capacity - e.theory["exact"]) <= 4 * se, (e.capacity, e.ci95, e.theory)
