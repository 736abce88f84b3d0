"""python -m proofs.capacity: every claim proved, the JSON contract, bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.capacity import build_report, main
from symbolic.errors import InvalidArgument
from symbolic.memory.stores import PART_B as STORES

# With the shared reports (tests/conftest.py): the commands below with other arguments reuse
# the SymPy cache the capacity report left on that worker.
pytestmark = pytest.mark.xdist_group("shared-reports")


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("capacity")  # what python -m proofs builds


def test_every_claim_is_proved(report):
    assert report.status == "proved"
    bad = {r.claim.name: r.verdict.reason for r in report.results if r.status != "proved"}
    assert not bad
    assert all(n.agrees for r in report.results for n in r.numeric)


def test_every_store_has_a_claim(report):
    names = {r.claim.name for r in report.results}
    assert {f"capacity-{s}" for s in STORES} <= names
    assert {
        "source-table",
        "ls-exact-recall",
        "ls-overload",
        "softmax-optimal-beta",
        "schedule-logn",
        "schedule-yarn",
        "gaussian-underestimates",
    } <= names


def test_data_carries_both_laws_and_formulas(report):
    stores = report.data["stores"]
    assert set(stores) == set(STORES)
    for v in stores.values():
        assert isinstance(v["gaussian"], float) and isinstance(v["exact"], float)
        assert v["formula_gaussian"] and v["formula_exact"]
        assert v["source"] is None or v["source"] > 0  # None: a store the source does not list
    assert stores["relu2"]["gaussian"] == pytest.approx(2731.6667, abs=1e-3)
    assert stores["relu2"]["exact"] == 2817
    assert stores["softmax"]["exact"] == pytest.approx(1272264.445, rel=1e-9)
    assert report.data["softmax"]["optimal_beta"]["gaussian"]["beta"] == 32
    yarn = report.data["softmax"]["schedules"]["yarn"]["crossing"]
    assert yarn["exact"]["below_one_up_to_2e6"] and yarn["exact"]["status"] == "proved"
    assert yarn["exact"]["log10_memories"] == pytest.approx(72.555, abs=1e-3)


def test_json_prints_the_stores_at_top_level(report, monkeypatch, capsys):
    monkeypatch.setattr("proofs.capacity.build_report", lambda **kw: report)  # built once
    assert main(["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["d"] == 64 and doc["beta"] == 8
    assert doc["stores"]["softmax"]["gaussian"] == pytest.approx(1202605.284, rel=1e-9)
    assert doc["status"] == "proved" and set(doc["claims"].values()) == {"proved"}


def test_other_dimension_and_temperature(capsys):
    assert main(["--d", "16", "--beta", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["stores"]["relu2"]["exact"] == pytest.approx(1 + 2 * 16 * 18 / 3)
    assert doc["source"]["applies"] is False


@pytest.mark.parametrize("argv", [["--d", "2"], ["--beta", "-1"], ["--d", "x"]])
def test_bad_input_is_one_line_and_exit_2(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit from parse_args
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "error" in err and "\n" not in err and "Traceback" not in err


def test_build_report_rejects_small_d():
    with pytest.raises(InvalidArgument, match="d"):
        build_report(d=2)


def test_latex_document(report, monkeypatch, tmp_path):
    monkeypatch.setattr("proofs.capacity.build_report", lambda **kw: report)  # built once
    out = tmp_path / "capacity.tex"
    assert main(["--latex", str(out)]) == 0
    assert "capacity" in out.read_text(encoding="utf-8").lower()


# --- issue 11: every command answers in bounded time, with a result or a one-line error ----


@pytest.mark.parametrize("schedule", ["constant", "yarn"])
def test_tiny_beta_is_proved_not_failed(schedule):
    # ISR(2) = 1 − 2e-300 < 1: the grid check compares ln ISR, which does not round to 0
    from proofs.capacity import schedule_result
    from symbolic.memory.schedules import first_crossing

    crossings = {
        law: first_crossing(schedule, law, 64, 1e-300, 2048) for law in ("gaussian", "exact")
    }
    result = schedule_result(schedule, crossings, 64, 1e-300, 2048)
    assert result.status == "proved" and all(n.agrees for n in result.numeric)


def test_json_safe_turns_infinities_into_null():
    from symbolic.memory.capacity_report import json_safe

    doc = json_safe({"a": float("inf"), "b": [1.0, float("nan")], "c": {"d": 2}})
    assert doc == {"a": None, "b": [1.0, None], "c": {"d": 2}}
    json.dumps(doc, allow_nan=False)


def test_large_dimension_least_squares_checks_are_capped():
    from proofs.capacity import ls_exact_recall, ls_overload
    from symbolic.memory.capacity_checks import LS_CHECK_MAX_D

    for result in (ls_exact_recall(4096), ls_overload(4096)):
        (check,) = result.numeric
        assert f"d = {LS_CHECK_MAX_D}" in check.name and check.agrees


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
def test_latex_to_a_full_device_is_one_line_exit_2(report, monkeypatch, capsys):
    monkeypatch.setattr("proofs.capacity.build_report", lambda **kw: report)
    assert main(["--latex", "/dev/full"]) == 2
    err = capsys.readouterr().err.strip()
    assert "No space left" in err and "\n" not in err


@pytest.mark.slow
def test_sympy_timeout_is_honoured_exit_3():
    assert main(["--sympy-timeout", "0.000001"]) == 3


@pytest.mark.slow
def test_infinite_crossing_gives_valid_json():
    # the YaRN crossing at 10^456 is certified (≈ 250,000 series terms); its M is past the
    # float range, so the report's data (what --json prints) holds null and log10 M. Only
    # that crossing is computed: the rest of a d = 256 build adds nothing to this property.
    from symbolic.memory.capacity_report import capacity_data
    from symbolic.memory.schedules import first_crossing

    crossing = first_crossing("yarn", "exact", 256, 16, 2048)
    assert crossing.status == "proved" and crossing.memories == float("inf")
    data = capacity_data({}, {"yarn": {"exact": crossing}}, 256, 16, 2048)
    doc = json.loads(json.dumps(data, allow_nan=False))
    yarn = doc["softmax"]["schedules"]["yarn"]["crossing"]["exact"]
    assert yarn["memories"] is None and yarn["log10_memories"] > 308


# --- issue 23: proofs, not prose ------------------------------------------------------------

ORACLE_CLAIMS = {
    "gaussian-underestimates",
    "capacity-swiglu",
    "source-table",
    "schedule-constant",
    "schedule-logn",
    "schedule-yarn",
}


def test_every_claim_ends_in_its_statement_and_no_step_is_empty(report):
    for r in report.results:
        assert r.claim.statement is not None, r.claim.name
        assert r.derivation.steps[-1].formula == r.claim.statement, r.claim.name
        assert r.derivation.empty_steps == (), (r.claim.name, r.derivation.empty_steps)


def test_exactly_the_oracle_claims_rest_on_oracles_and_strict_refuses_them(report):
    resting = {r.claim.name for r in report.results if r.oracles}
    assert resting == ORACLE_CLAIMS
    admitting = ORACLE_CLAIMS | {"ls-exact-recall"}  # which assumes KᵀK invertible
    assert {r.claim.name for r in report.results if r.assumptions} == {"ls-exact-recall"}
    assert all(r.strict_status() == "unknown" for r in report.results if r.claim.name in admitting)
    assert all(
        r.strict_status() == "proved" for r in report.results if r.claim.name not in admitting
    )
    own = {r.claim.name for r in report.results if r._own_admitted}
    assert own == {
        "capacity-swiglu",
        "schedule-constant",
        "schedule-logn",
        "schedule-yarn",
        "ls-exact-recall",
    }


def _with_statement(result, statement):
    from dataclasses import replace

    return replace(result, claim=replace(result.claim, statement=statement))


@pytest.mark.parametrize(
    "name", ["capacity-relu2", "capacity-softmax", "ls-exact-recall", "capacity-least_squares"]
)
def test_a_statement_off_by_a_sign_or_a_term_is_failed(report, name):
    import sympy

    from symbolic.memory.capacity_formulas import mstar

    result = next(r for r in report.results if r.claim.name == name)
    d = sympy.Symbol("d", positive=True)
    wrong = result.claim.statement.xreplace(
        {mstar("exact"): -mstar("exact"), sympy.Integer(1): sympy.Integer(-1), d: d + 1}
    )
    assert wrong != result.claim.statement
    assert _with_statement(result, wrong).status == "failed"
    assert _with_statement(result, result.claim.statement).status == "proved"


def test_store_statements_are_the_theory_closed_forms():
    import sympy

    from symbolic.memory.capacity_formulas import mstar, store_statement
    from symbolic.memory.stores import STORES as ALL

    d = sympy.Symbol("d", positive=True)
    relu2 = ALL["relu2"]
    statement = store_statement(relu2)
    assert set(statement.args) == {
        sympy.Eq(mstar("gaussian"), relu2.theory_gaussian),
        sympy.Eq(mstar("exact"), relu2.theory_exact),
    }
    assert relu2.theory_exact == 1 + 2 * d * (d + 2) / 3


def test_a_value_step_shows_the_formula_before_its_value(report):
    import sympy

    relu = next(r for r in report.results if r.claim.name == "capacity-relu")
    values = [s.formula for s in relu.derivation.steps if s.rule.startswith("evaluate at")]
    assert values and all(v.rhs == 129 and v.lhs != v.rhs for v in values)
    assert all(v.lhs.has(sympy.Integer(64)) for v in values)  # 1 + 2·64, unevaluated


def test_the_exact_crossing_oracle_states_its_formula(report):
    from symbolic.kernel import ORACLE, Exists, ForAll

    yarn = next(r for r in report.results if r.claim.name == "schedule-yarn")
    (oracle_step,) = [s for s in yarn.derivation.steps if s.kind == ORACLE]
    quantified = {type(a) for a in oracle_step.formula.args}
    assert quantified == {ForAll, Exists}
    assert "ln M* ∈" in oracle_step.verdict.certificate


@settings(max_examples=25)
@given(
    st.integers(3, 300), st.sampled_from(["relu", "relu2", "relu3", "glu_relu", "outer_product"])
)
def test_second_moment_form_agrees_with_quadrature(d, name):
    """The moment form the derivations define M* with, at a random d, against mpmath.quad of
    E[f(s)²] under the exact law (an independent computation)."""
    import mpmath
    import sympy

    from symbolic.memory.capacity_formulas import second_moment_form
    from symbolic.memory.similarity_law import quad_expectation, s
    from symbolic.memory.stores import STORES as ALL

    form = second_moment_form(ALL[name], "exact").subs(sympy.Symbol("d", positive=True), d)
    f2 = sympy.lambdify(s, ALL[name].weight ** 2, "mpmath")
    with mpmath.workdps(20):
        got = quad_expectation("exact", d, f2)
    assert float(got) == pytest.approx(float(sympy.sympify(form).doit()), rel=1e-10)


def test_the_formula_builders_docstring_examples_run():
    import doctest

    import symbolic.memory.capacity_formulas as formulas

    failed, attempted = doctest.testmod(formulas, raise_on_error=False)
    assert attempted >= 2 and failed == 0


def test_put_keeps_the_formula_and_a_moment_is_its_value():
    import sympy

    from symbolic.memory.capacity_formulas import moment_fact, moment_form, moment_value, put

    d = sympy.Symbol("d", positive=True)
    shown = put(1 + 2 * d, {d: 64})
    assert shown != 129 and sympy.sympify(str(shown)) == 129
    for law in ("exact", "gaussian"):
        for k in (1, 2, 3, 6):
            fact = moment_fact(law, k)
            assert fact.formula == sympy.Eq(
                moment_form(law, k), moment_value(law, k), evaluate=False
            )
            assert fact.status == "proved" and fact.formula.lhs != fact.formula.rhs
    assert moment_value("exact", 3) == 15 / (d * (d + 2) * (d + 4))
