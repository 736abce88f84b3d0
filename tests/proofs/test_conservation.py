"""python -m proofs.conservation: Noether for gradient flow, its instances, the η² law."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks import conservation as numeric
from proofs import conservation
from symbolic import layers
from symbolic.activations import ACTIVATIONS, z
from symbolic.engine import Result
from symbolic.kernel import check_identity, counterexample


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("conservation")


def test_every_claim_is_proved(report):
    assert report.status == "proved" and report.exit_code == 0
    names = {r.claim.name for r in report.results}
    assert {
        "conservation.noether",
        "conservation.rank_r",
        "conservation.gated_qk_broken",
        "conservation.discrete_step",
        "conservation.weight_decay",
    } <= names
    assert {f"conservation.{i.key}" for i in conservation.INSTANCES} <= names
    assert not any(r.rests_on for r in report.results)  # nothing admitted
    assert all(n.agrees for r in report.results for n in r.numeric)


def test_each_derivation_ends_in_its_statement(report):
    for result in report.results:
        last = result.derivation.steps[-1]
        assert last.formula == result.claim.statement, result.claim.name
        assert last.fact.rule == "conj" and not result.derivation.empty_steps


def _one_sign_changed(statement: sympy.Basic) -> sympy.Basic:
    first, *rest = statement.args  # every statement here is a conjunction
    if isinstance(first, sympy.Implies):
        changed = sympy.Implies(first.args[0], sympy.Not(first.args[1]))
    elif isinstance(first, sympy.Not) or hasattr(first, "body"):
        changed = sympy.Not(first, evaluate=False)
    elif isinstance(first, sympy.Ne):
        changed = sympy.Ne(-first.lhs, 0, evaluate=False)
    elif first.rhs == 0 or getattr(first.rhs, "is_ZeroMatrix", False):
        changed = sympy.Eq(-first.lhs, 0, evaluate=False)
    else:
        changed = sympy.Eq(first.lhs, -first.rhs, evaluate=False)
    return sympy.And(changed, *rest, evaluate=False)


def test_a_changed_statement_is_failed(report):
    for result in report.results:
        wrong = Result(
            replace(result.claim, statement=_one_sign_changed(result.claim.statement)),
            result.derivation,
            result.numeric,
        )
        assert wrong.status == "failed", result.claim.name
        assert "not the claim's statement" in wrong.reason


def test_the_velocity_step_differentiates_the_group(report):
    """The generator Aθ is d/da of the rescaled rows at a = 1, shown as such (it read X = X)."""
    gated = next(r for r in report.results if r.claim.name == "conservation.gated_qk")
    velocity = gated.derivation.steps[0].formula
    assert velocity.lhs.has(sympy.Subs) and not velocity.rhs.has(sympy.Subs)


def test_the_broken_claim_rests_on_certified_witnesses(report):
    broken = next(r for r in report.results if r.claim.name == "conservation.gated_qk_broken")
    witnessed = [s for s in broken.derivation.steps if s.verdict.witness]
    assert len(witnessed) == len(conservation.BROKEN_GATES)
    assert all(
        s.verdict.method == "interval" and isinstance(s.formula, sympy.Not) for s in witnessed
    )


@pytest.mark.parametrize("gate, wrong", [("relu", 2), ("relu2", 1), ("relu2", 3)])
def test_a_wrong_degree_is_not_proved(gate, wrong):
    act = ACTIVATIONS[gate]
    fact = check_identity(z * sympy.diff(act.expr, z), wrong * act.expr, z)
    assert not fact.proved


def test_a_wrong_sign_in_the_conserved_quantity_is_refuted():
    """‖q‖² + ‖k‖² (generator diag(1, 1)) is not conserved by the ReLU gate: a certified
    nonzero ⟨Aθ, ∇F⟩ at a rational point."""
    inst = conservation.INSTANCES[0]
    x = layers.symbolic_matrix("x", 1, 2)
    W = conservation._weights(inst)
    f = layers.gated(x, W["Q"], W["K"], W["V"], sympy.Lambda(z, ACTIVATIONS["relu"].expr))[0, 0]
    plus = {s: s for w in ("Q", "K") for s in W[w][0, :]}
    point = {s: sympy.Integer(1) for s in f.free_symbols}
    fact = counterexample(conservation._along(f, plus), 0, point)
    assert fact.refuted


def test_silu_claimed_conserved_is_refuted():
    x = layers.symbolic_matrix("x", 1, 2)
    W = conservation._weights(conservation.INSTANCES[0])
    silu = sympy.Lambda(z, ACTIVATIONS["silu"].expr)
    f = layers.gated(x, W["Q"], W["K"], W["V"], silu)[0, 0]
    velocity = {
        s: v.subs(conservation.p, 1)
        for s, v in conservation._velocity(conservation.INSTANCES[0], W).items()
    }
    point = {s: sympy.Integer(1) for s in f.free_symbols}
    assert counterexample(conservation._along(f, velocity), 0, point).refuted


def test_a_broken_euler_step_fails_the_instance(monkeypatch):
    """The instance's proof rests on Euler's relation: a wrong degree in the table breaks it."""
    from dataclasses import replace

    monkeypatch.setitem(ACTIVATIONS, "relu", replace(ACTIVATIONS["relu"], degree=2))
    caches = (conservation.euler_step, conservation._euler_sides)  # both read the table's p
    for cached in caches:
        cached.cache_clear()
    try:
        derivation = conservation.instance_derivation(conservation.INSTANCES[0])
    finally:
        for cached in caches:
            cached.cache_clear()
    assert derivation.verdict.status != "proved"


# --- Hypothesis properties: exact rational arithmetic ----------------------------------------

RATIONALS = st.fractions(min_value=-4, max_value=4, max_denominator=7).map(sympy.Rational)


@cache
def _relu_gate_rates() -> tuple[sympy.Expr, sympy.Expr, list[sympy.Symbol]]:
    """For the ReLU gate at d = 2: ⟨q, ∇_q F⟩ − ⟨k, ∇_k F⟩, ⟨q, ∇_q F⟩ + ⟨k, ∇_k F⟩, symbols."""
    inst = conservation.INSTANCES[0]
    x = layers.symbolic_matrix("x", 1, 2)
    W = conservation._weights(inst)
    f = layers.gated(x, W["Q"], W["K"], W["V"], sympy.Lambda(z, ACTIVATIONS["relu"].expr))[0, 0]
    velocity = {s: v.subs(conservation.p, 1) for s, v in conservation._velocity(inst, W).items()}
    plus = {s: s for s in velocity}
    return (
        conservation._along(f, velocity),
        conservation._along(f, plus),
        sorted(f.free_symbols, key=str),
    )


@settings(max_examples=15)
@given(st.lists(RATIONALS, min_size=7, max_size=7))
def test_the_relu_gate_derivative_identity_holds_exactly(values):
    """⟨q, ∇_q F⟩ − ⟨k, ∇_k F⟩ = 0 at random rational x, θ (ReLU gate, exact)."""
    minus, _, symbols = _relu_gate_rates()
    assert minus.xreplace(dict(zip(symbols, values, strict=True))) == 0


def test_the_property_can_fail():
    """The same evaluation of ‖q‖² + ‖k‖²'s rate is nonzero: the property is not vacuous."""
    _, plus, symbols = _relu_gate_rates()
    assert plus.xreplace(dict.fromkeys(symbols, sympy.Integer(1))) != 0


@settings(max_examples=15)
@given(st.integers(1, 3), st.data())
def test_the_discrete_eta2_law_holds_exactly(k, data):
    """(θ − ηg)ᵀA(θ − ηg) − θᵀAθ = η²gᵀAg when ⟨g, Aθ⟩ = 0, A symmetric (exact rationals)."""
    draw = lambda n: sympy.Matrix(data.draw(st.lists(RATIONALS, min_size=n, max_size=n)))  # noqa: E731
    A = draw(k * k).reshape(k, k)
    A = A + A.T
    theta, g = draw(k), draw(k)
    a_theta = A * theta
    if (a_theta.T * a_theta)[0, 0] != 0:  # make ⟨g, Aθ⟩ = 0: project g off Aθ
        g = g - (g.T * a_theta)[0, 0] / (a_theta.T * a_theta)[0, 0] * a_theta
    eta = data.draw(RATIONALS)
    step = theta - eta * g
    assert (step.T * A * step - theta.T * A * theta)[0, 0] == eta**2 * (g.T * A * g)[0, 0]


# --- the training check ------------------------------------------------------------------------


def test_numpy_training_follows_the_eta2_law():
    runs, checks = numeric.training_report(steps=20, torch=False)
    assert runs[0].backend == "numpy"
    assert all(c.agrees for c in checks), [c.name for c in checks if not c.agrees]
    relu_qk = numeric.ratios(runs, "relu", "qk")
    silu_qk = numeric.ratios(runs, "silu", "qk")
    assert all(abs(r - 4) < 0.2 for r in relu_qk) and all(abs(r - 2) < 0.1 for r in silu_qk)


def test_a_silu_run_misses_the_eta2_law_and_the_check_says_so():
    run = numeric.train("silu", numeric.ETAS[0], 5)
    assert run.law_error("qk") > 1e3 * numeric.LAW_REL_TOL
    assert run.full_law_error("qk") <= numeric.LAW_REL_TOL
    fake = [numeric.train("silu", eta, 5) for eta in numeric.ETAS]
    relabelled = [
        numeric.Run("relu", r.eta, r.steps, r.backend, r.drift, r.final, r.eta2, r.first, r.weights)
        for r in fake
    ]  # SwiGLU runs called ReGLU
    assert not all(c.agrees for c in numeric.training_checks(relabelled + fake))


def test_hand_gradients_match_finite_differences():
    x, target, w1, w2, w3 = numeric.initial_weights()
    for gate in numeric.GATES:
        _, (g1, _, _) = numeric.numpy_gradients(x, target, w1, w2, w3, gate)
        h = 1e-6
        bump = np.zeros_like(w1)
        bump[1, 2] = h
        up = numeric.numpy_gradients(x, target, w1 + bump, w2, w3, gate)[0]
        down = numeric.numpy_gradients(x, target, w1 - bump, w2, w3, gate)[0]
        assert abs((up - down) / (2 * h) - g1[1, 2]) < 1e-6


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
def test_torch_training_agrees_with_numpy():
    pytest.importorskip("torch")
    check = numeric.torch_agrees(steps=3)
    assert check.agrees, check.max_error


def test_cli_train_and_plot(tmp_path, capsys, monkeypatch):
    """--train adds the training table; --plot writes the figure (the symbolic claims are
    replaced by the training result alone: the shared report checks them)."""
    pytest.importorskip("matplotlib")
    from symbolic.engine import Report

    def trained_only(train=False, torch=False, steps=numeric.STEPS):
        runs, _ = numeric.training_report(steps, torch)
        return Report(
            "proofs.conservation",
            "training",
            "D",
            tables=(conservation.training_table(runs),),
            data={"training": numeric.records(runs)},
        )

    monkeypatch.setattr(conservation, "build_report", trained_only)
    out = tmp_path / "drift.png"
    code = conservation.main(["--train", "--steps", "10", "--no-torch", "--plot", str(out)])
    captured = capsys.readouterr()
    assert code == 3, captured.err  # no claims: unknown, never a pass
    assert "drift(2η)/drift(η)" in captured.out and out.stat().st_size > 1000


@pytest.mark.parametrize(
    "argv", [["--steps", "0", "--train"], ["--steps", "x"], ["--plot", "/no/such/folder/a.png"]]
)
def test_bad_cli_input_is_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        code = conservation.main(argv)
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
