"""python -m proofs.scaling: rescaling symmetries, homogeneity, and agreement with exchange."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from proofs import scaling
from symbolic import layers
from symbolic.activations import ACTIVATIONS


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("scaling")


def test_every_theorem_and_activation_is_proved(report):
    assert report.status == "proved"
    names = [r.claim.name for r in report.results]
    assert set(scaling.CLAIMS[k].name for k in scaling.CLAIMS) <= set(names)
    assert len(names) == len(scaling.CLAIMS) + len(ACTIVATIONS)


def test_converse_names_its_regularity_assumption(report):
    converse = next(r for r in report.results if r.claim.name == "scaling.converse")
    assert any("measurable" in a for a in converse.claim.assumptions)
    assumed = [s for s in converse.derivation.steps if s.verdict.method == "assumption"]
    assert len(assumed) == 1 and "Cauchy" in assumed[0].verdict.certificate


def test_verdicts_agree_with_exchange(report):
    import shared_reports

    ex = {o["activation"]: o for o in shared_reports.report("exchange").data["activations"]}
    for obj in report.data["activations"]:
        other = ex[obj["activation"]]
        for key in ("linear", "homogeneity_degree", "inverse_scaling_symmetric", "status"):
            assert obj[key] == other[key], (obj["activation"], key)


def test_table_matches_theory(report):
    rows = {row[0]: row for row in report.tables[0].rows}
    for name, act in ACTIVATIONS.items():
        degree = "none" if act.degree is None else str(act.degree)
        assert rows[name][1] == degree
        assert rows[name][2] == ("kept" if act.degree == 1 else "broken")
        assert rows[name][4] == ("kept" if act.linear else "broken")


def test_cli_json_for_a_user_activation(capsys):
    code = scaling.main(["--activation", "abs(x)**2.5", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    obj = json.loads(captured.out)
    assert obj["homogeneity_degree"] == "5/2" and obj["inverse_scaling_symmetric"] is False
    assert obj["generalized_symmetry"] == "Q → αQ, K → α^(-5/2)K for all α > 0"
    assert obj["all_nonzero_alpha_symmetric"] is False


# --- Hypothesis properties of the identities on random layers ------------------------------

shapes = st.tuples(st.integers(1, 4), st.integers(1, 5), st.integers(1, 3))
finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)
alphas = st.floats(0.1, 10, allow_nan=False)


@st.composite
def layer(draw):
    d, n, dout = draw(shapes)
    return (draw(arrays(np.float64, (2, d), elements=finite)),
            draw(arrays(np.float64, (n, d), elements=finite)),
            draw(arrays(np.float64, (n, d), elements=finite)),
            draw(arrays(np.float64, (n, dout), elements=finite)))


def _close(a, b, tol=1e-9):
    scale = max(np.max(np.abs(a)), np.max(np.abs(b)), 1.0)
    return np.max(np.abs(a - b)) <= tol * scale


@given(layer(), alphas, st.booleans(), st.sampled_from(list(ACTIVATIONS)))
def test_symmetric_form_ignores_inverse_scaling(w, alpha, negative, name):
    x, Q, K, V = w
    al = -alpha if negative else alpha
    s = ACTIVATIONS[name].numpy
    assert _close(layers.symmetric_rank1(x, al * Q, K / al, V, s),
                  layers.symmetric_rank1(x, Q, K, V, s))


@given(layer(), alphas, st.sampled_from([n for n, a in ACTIVATIONS.items() if a.degree]))
def test_degree_p_activations_keep_the_generalized_rescaling(w, alpha, name):
    x, Q, K, V = w
    act = ACTIVATIONS[name]
    p = float(act.degree)
    assert _close(layers.gated(x, alpha * Q, alpha ** (-p) * K, V, act.numpy),
                  layers.gated(x, Q, K, V, act.numpy))


@given(st.floats(0.05, 20), st.floats(-5, 5))
def test_scalar_condition_is_exactly_the_layer_condition(alpha, a):
    """d = n = 1, x = K = V = 1: the layer difference is (σ(αa) − ασ(a))/α."""
    for act in ACTIVATIONS.values():
        one = np.ones((1, 1))
        diff = (layers.gated(one, np.array([[alpha * a]]), one / alpha, one, act.numpy)
                - layers.gated(one, np.array([[a]]), one, one, act.numpy))[0, 0]
        want = (act.numpy(np.array(alpha * a)) - alpha * act.numpy(np.array(a))) / alpha
        assert abs(diff - want) <= 1e-9 * max(1.0, abs(want))
