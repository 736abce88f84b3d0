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
from symbolic.memory.similarity_law import moment, quad_expectation, s
from symbolic.memory.stores import PART_B, STORES
from symbolic.memory.tied_memory import abs_moment, propose_square, t, tied_form, tied_law

TIED = sorted(n for n, m in STORES.items() if m.part == "C1")
# the closed-form stores, found when the property first draws (not at collection: ~1 s per worker)
CLOSED = st.deferred(lambda: st.sampled_from([n for n in TIED if tied_form(n).closed]))


@pytest.mark.xdist_group("shared-reports")  # reads tests/shared_reports.py
def test_every_claim_is_proved_with_agreeing_numeric_checks():
    report = shared_report("tied_memory")
    assert report.status == "proved"
    assert all(n.agrees for r in report.results for n in r.numeric)
    names = {r.claim.name for r in report.results}
    assert {
        "tied.symmetric-even",
        "tied.relu-gate-doubles",
        "tied.relu2-symmetric-wins",
        "tied.capacity-relu",
        "tied.capacity-hardswish",
    } <= names
    rows = {r["store"]: r for r in report.data["stores"]}
    assert set(rows) == set(TIED)
    assert rows["sym_relu"]["exact"] == 1409 and rows["gated_relu"]["exact"] == 2817


def test_the_tied_stores_stay_out_of_the_source_table():
    assert not set(TIED) & set(PART_B) and len(TIED) == 2 * len(ACTIVATIONS)


def test_closed_forms_in_d():
    assert (
        tied_law("sym_relu2", "exact", 8).capacity == tied_law("gated_relu2", "exact", 8).capacity
    )  # the tie
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


# --- issue 23: proofs, not prose ------------------------------------------------------------


@pytest.fixture(scope="module")
def report():
    return shared_report("tied_memory")


@pytest.mark.xdist_group("shared-reports")
def test_every_claim_ends_in_its_statement_and_no_step_is_empty(report):
    for r in report.results:
        assert r.claim.statement is not None, r.claim.name
        assert r.derivation.steps[-1].formula == r.claim.statement, r.claim.name
        assert r.derivation.empty_steps == (), (r.claim.name, r.derivation.empty_steps)
        assert not r.rests_on and r.strict_status() == "proved", r.claim.name


def test_the_capacity_statement_is_the_closed_forms():
    from proofs.tied_memory import capacity_statement, mstar

    d = sympy.Symbol("d", positive=True)
    parts = set(capacity_statement("relu").args)
    assert sympy.Eq(mstar("gated", "exact"), 1 + 2 * d**2 / 3 + 4 * d / 3) in parts
    assert sympy.Eq(mstar("sym", "exact"), 1 + d**2 / 3 + 2 * d / 3) in parts
    assert len(parts) == 4


def test_the_doubling_statement_is_written_as_in_the_theory():
    from proofs.tied_memory import doubling_statement, mstar

    statement = doubling_statement("exact")
    gated, sym = mstar("gated", "exact"), mstar("sym", "exact")
    assert statement.lhs == gated - 1
    assert isinstance(statement.rhs, sympy.Mul) and statement.rhs.args[0] == 2  # 2(M* − 1)
    assert sympy.expand(statement.rhs - 2 * (sym - 1)) == 0


def test_evenness_is_stated_for_an_uninterpreted_sigma():
    from proofs.tied_memory import evenness_statement, sigma

    parts = evenness_statement().args
    assert {p.rhs for p in parts} == {sigma(s**2), sigma(1)}
    assert all(p.lhs != p.rhs for p in parts)


@pytest.mark.xdist_group("shared-reports")
@pytest.mark.parametrize(
    "name",
    [
        "tied.symmetric-even",
        "tied.capacity-relu",
        "tied.relu-gate-doubles",
        "tied.relu2-symmetric-wins",
    ],
)
def test_a_statement_off_by_a_sign_is_failed(report, name):
    from dataclasses import replace

    result = next(r for r in report.results if r.claim.name == name)
    parts = list(result.claim.statement.args)
    wrong = sympy.And(
        sympy.Eq(parts[0].lhs, -parts[0].rhs, evaluate=False), *parts[1:], evaluate=False
    )
    assert replace(result, claim=replace(result.claim, statement=wrong)).status == "failed"


@given(CLOSED, st.integers(3, 200))
def test_the_moment_form_of_m_star_agrees_with_quadrature(name, d):
    """E[f(s)²] as the derivation writes it (½ Σ (c⁺_n + c⁻_n) E|s|^n), at a random d, against
    mpmath.quad under the exact law (independent of the closed forms)."""
    from proofs.tied_memory import second_form

    form = tied_form(name)
    want = sympy.sympify(second_form(form, "exact").subs(sympy.Symbol("d", positive=True), d))
    f2 = sympy.lambdify(s, form.store.weight**2, "mpmath")
    with mpmath.workdps(20):
        got = quad_expectation("exact", d, f2)
    assert float(got) == pytest.approx(float(want), rel=1e-9)
