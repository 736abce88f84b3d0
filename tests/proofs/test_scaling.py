"""python -m proofs.scaling: rescaling symmetries, homogeneity, and agreement with exchange."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from proofs import scaling
from symbolic import layers
from symbolic.activations import ACTIVATIONS, z


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
    # the degree of the regularity assumption is any real p, as Cauchy's equation gives it
    (p,) = assumed[0].formula.variables
    assert p.is_real and p.is_positive is None


# --- proofs, not prose (issue 23) ----------------------------------------------------------------


def test_every_derivation_ends_in_its_statement_and_no_step_is_empty(report):
    for r in report.results:
        assert r.claim.statement is not None, r.claim.name
        assert r.derivation.steps[-1].formula == r.claim.statement, r.claim.name
        assert r.derivation.empty_steps == (), (r.claim.name, r.derivation.empty_steps)
        assert r.status == "proved", (r.claim.name, r.reason)


def test_the_converse_and_every_activation_claim_rest_on_the_regularity_assumption():
    """The converse's derivation contains the admitted regularity; every scaling.activation.*
    claim uses the converse, so --strict refuses them too, and only them."""
    from proofs.__main__ import check

    run = check(
        [m for m in __import__("proofs.__main__").__main__.discover() if m.name == "scaling"]
    )[0]
    resting = {r.claim.name for r in run.report.results if r.rests_on}
    expected = {"scaling.converse"} | {f"scaling.activation.{n}" for n in ACTIVATIONS}
    assert resting == expected
    assert all(
        r.strict_status() == "unknown" for r in run.report.results if r.claim.name in expected
    )
    assert all(
        r.strict_status() == "proved" for r in run.report.results if r.claim.name not in expected
    )


def _flip_sign(formula: sympy.Basic) -> sympy.Basic:
    """The formula with its first equation's right side negated (a statement one sign off)."""
    eq = next(
        e for e in sympy.preorder_traversal(formula) if isinstance(e, sympy.Eq) and e.rhs != 0
    )
    return formula.xreplace({eq: sympy.Eq(eq.lhs, -eq.rhs, evaluate=False)})


@pytest.mark.parametrize("key", list(scaling.CLAIMS))
def test_a_statement_one_sign_off_is_failed(report, key):
    r = next(r for r in report.results if r.claim.name == scaling.CLAIMS[key].name)
    wrong = _flip_sign(r.claim.statement)
    assert wrong != r.claim.statement
    changed = dataclasses.replace(r, claim=dataclasses.replace(r.claim, statement=wrong))
    assert changed.status == "failed" and "not the claim's statement" in changed.reason


def test_z3_statements_are_what_z3_reads_back():
    """The parts proved by Z3, translated to Z3 and back, are the parts as written."""
    from symbolic.kernel import check_valid_formula

    for part in (
        scaling.DEGREE_ONE_FORWARD,
        scaling.DEGREE_ONE_BACKWARD,
        scaling.ALL_ALPHA_FORWARD,
        scaling.ALL_ALPHA_BACKWARD,
        *scaling.CONVERSE_PARTS[1:4],
    ):
        fact = check_valid_formula(part)
        assert fact.proved and fact.formula == part


def test_a_wrong_degree_one_form_is_refuted_by_z3():
    """The forward direction with σ(−1) where σ(1) belongs is false: Z3 finds a counter-model
    (the check is not a rubber stamp)."""
    from symbolic.kernel import check_valid_formula

    hypotheses, form = scaling.DEGREE_ONE_FORWARD.args
    wrong = sympy.Implies(hypotheses, form.xreplace({scaling.sigma(1): scaling.sigma(-1)}))
    assert check_valid_formula(wrong).status == "refuted"


def test_the_converse_steps_are_not_rubber_stamps():
    """Without σ(a0) ≠ 0 the multiplicativity of g does not follow (σ ≡ 0 allows any g), and
    g(αβ) = g(α) + g(β) does not follow either: Z3 refutes both."""
    from symbolic.kernel import check_valid_formula

    hypotheses, conclusion = scaling.CONVERSE_PARTS[2].args
    without = sympy.Implies(
        sympy.And(*(h for h in hypotheses.args if not isinstance(h, sympy.Ne))), conclusion
    )
    additive = sympy.Implies(hypotheses, sympy.Eq(conclusion.lhs, sympy.Add(*conclusion.rhs.args)))
    assert check_valid_formula(without).status == "refuted"
    assert check_valid_formula(additive).status == "refuted"


def test_activation_statements_negate_what_is_refuted(report):
    rows = {r.claim.name: r for r in report.results}
    relu2 = rows["scaling.activation.relu2"].claim.statement
    negated = [a for a in relu2.args if isinstance(a, sympy.Not)]
    assert len(negated) == 2  # not linear, not inverse-scaling symmetric; homogeneous (p = 2)
    silu = rows["scaling.activation.silu"].claim.statement
    assert all(isinstance(a, sympy.Not) for a in silu.args)


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
    return (
        draw(arrays(np.float64, (2, d), elements=finite)),
        draw(arrays(np.float64, (n, d), elements=finite)),
        draw(arrays(np.float64, (n, d), elements=finite)),
        draw(arrays(np.float64, (n, dout), elements=finite)),
    )


def _close(a, b, tol=1e-9):
    scale = max(np.max(np.abs(a)), np.max(np.abs(b)), 1.0)
    return np.max(np.abs(a - b)) <= tol * scale


@given(layer(), alphas, st.booleans(), st.sampled_from(list(ACTIVATIONS)))
def test_symmetric_form_ignores_inverse_scaling(w, alpha, negative, name):
    x, Q, K, V = w
    al = -alpha if negative else alpha
    s = ACTIVATIONS[name].numpy
    assert _close(
        layers.symmetric_rank1(x, al * Q, K / al, V, s), layers.symmetric_rank1(x, Q, K, V, s)
    )


@given(layer(), alphas, st.sampled_from([n for n, a in ACTIVATIONS.items() if a.degree]))
def test_degree_p_activations_keep_the_generalized_rescaling(w, alpha, name):
    x, Q, K, V = w
    act = ACTIVATIONS[name]
    p = float(act.degree)
    assert _close(
        layers.gated(x, alpha * Q, alpha ** (-p) * K, V, act.numpy),
        layers.gated(x, Q, K, V, act.numpy),
    )


@given(st.floats(0.05, 20), st.floats(-5, 5))
def test_scalar_condition_is_exactly_the_layer_condition(alpha, a):
    """d = n = 1, x = K = V = 1: the layer difference is (σ(αa) − ασ(a))/α."""
    for act in ACTIVATIONS.values():
        one = np.ones((1, 1))
        diff = (
            layers.gated(one, np.array([[alpha * a]]), one / alpha, one, act.numpy)
            - layers.gated(one, np.array([[a]]), one, one, act.numpy)
        )[0, 0]
        want = (act.numpy(np.array(alpha * a)) - alpha * act.numpy(np.array(a))) / alpha
        assert abs(diff - want) <= 1e-9 * max(1.0, abs(want))


@given(
    st.floats(0.1, 10),
    st.floats(-5, 5),
    st.floats(-3, 3),
    st.floats(-3, 3),
    st.sampled_from(["tanh", "silu", "relu", "elu"]),
)
def test_degree_p_identities_hold_numerically(tv, av, pv, cv, name):
    """The substitution identities of scaling.degree_p with σ a table activation and random
    t > 0, p, c: lhs = rhs up to round-off."""
    concrete = sympy.Lambda(z, ACTIVATIONS[name].expr)
    values = {
        scaling.t: tv,
        scaling.a: av,
        scaling.p: pv,
        scaling.c1: cv,
        scaling.c2: cv,
        scaling.alpha: 1.7,
    }
    for eq in scaling.DEGREE_P_PARTS:
        lhs, rhs = (
            complex(side.doit().replace(scaling.sigma, concrete).subs(values))
            for side in (eq.lhs, eq.rhs)
        )
        assert abs(lhs - rhs) <= 1e-9 * max(1.0, abs(rhs))
