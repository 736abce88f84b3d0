"""python -m proofs.exchange: the theorems, the activation table and the command line."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy
from commands import in_process
from hypothesis import given
from hypothesis import strategies as st

from proofs import exchange
from symbolic.activations import ACTIVATIONS, z
from symbolic.kernel import ForAll

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real command in a fresh interpreter (end to end: imports, exit code, streams)."""
    return subprocess.run(
        [sys.executable, "-m", "proofs.exchange", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """The same command in this process (fast)."""
    code = exchange.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def report():
    import shared_reports

    return shared_reports.report("exchange")


def test_every_theorem_and_activation_is_proved(report):
    assert report.status == "proved" and report.exit_code == 0
    names = [r.claim.name for r in report.results]
    assert names[:4] == [
        "exchange.lemma",
        "exchange.lemma_z3",
        "exchange.symmetric_invariant",
        "exchange.gated_iff",
    ]
    assert len(names) == 4 + len(ACTIVATIONS)


def test_lemma_uses_both_backends(report):
    by_name = {r.claim.name: r for r in report.results}
    assert by_name["exchange.lemma"].methods == ("sympy",)
    assert by_name["exchange.lemma_z3"].methods == ("z3",)


# --- proofs, not prose (issue 23) ----------------------------------------------------------------


def test_every_derivation_ends_in_its_statement_and_no_step_is_empty(report):
    for r in report.results:
        assert r.claim.statement is not None, r.claim.name
        assert r.derivation.steps[-1].formula == r.claim.statement, r.claim.name
        assert r.derivation.empty_steps == (), (r.claim.name, r.derivation.empty_steps)
        assert r.status == "proved", (r.claim.name, r.reason)


def _flip_sign(formula: sympy.Basic) -> sympy.Basic:
    """The formula with its first equation's right side negated (a statement one sign off)."""
    eq = next(
        e for e in sympy.preorder_traversal(formula) if isinstance(e, sympy.Eq) and e.rhs != 0
    )
    return formula.xreplace({eq: sympy.Eq(eq.lhs, -eq.rhs, evaluate=False)})


@pytest.mark.parametrize(
    "name",
    [
        "exchange.lemma",
        "exchange.lemma_z3",
        "exchange.symmetric_invariant",
        "exchange.gated_iff",
        "activation.relu",
        "activation.silu",
    ],
)
def test_a_statement_one_sign_off_is_failed(report, name):
    r = next(r for r in report.results if r.claim.name == name)
    wrong = _flip_sign(r.claim.statement)
    assert wrong != r.claim.statement
    changed = dataclasses.replace(r, claim=dataclasses.replace(r.claim, statement=wrong))
    assert changed.status == "failed" and "not the claim's statement" in changed.reason


def test_lemma_z3_statement_is_what_z3_reads_back():
    """Each part of the Z3 lemma, translated to Z3 and back, is the part as written: the
    statement is the formula Z3 decided, not a look-alike."""
    from symbolic.kernel import check_valid_formula

    for part in exchange.LEMMA_PARTS:
        fact = check_valid_formula(part)
        assert fact.proved and fact.formula == part


def test_a_refuted_property_is_stated_negated_never_proved(report):
    """relu is not linear: the linearity fact is refuted, the claim states ¬(∀z: σ(z) = σ(1)z)
    and proves that; the claim with the property itself as its statement is not proved."""
    relu = next(r for r in report.results if r.claim.name == "activation.relu")
    negated, homogeneous = relu.claim.statement.args[0], relu.claim.statement.args[1]
    linear = next(a for a in (negated, homogeneous) if isinstance(a, sympy.Not)).args[0]
    assert isinstance(linear, ForAll)
    positive = relu.claim.statement.xreplace({sympy.Not(linear, evaluate=False): linear})
    claim = dataclasses.replace(relu.claim, statement=positive)
    assert dataclasses.replace(relu, claim=claim).status == "failed"


def test_user_activations_get_statements(capsys):
    report = exchange.build_report(activations=["x*sigmoid(x)", "relu(x)**1.5"])
    assert [r.status for r in report.results] == ["proved", "proved"]
    for r in report.results:
        assert r.derivation.steps[-1].formula == r.claim.statement
        assert isinstance(r.claim.statement, sympy.And)
    silu, power = report.results
    assert all(isinstance(part, sympy.Not) for part in silu.claim.statement.args)
    assert sum(isinstance(part, sympy.Not) for part in power.claim.statement.args) == 2


# --- the identities, by Hypothesis on a concrete σ -----------------------------------------------

reals = st.floats(-4, 4, allow_nan=False, allow_infinity=False)
nonzero = reals.filter(lambda v: abs(v) > 1e-3)


@given(nonzero, nonzero, reals, st.sampled_from(["tanh", "silu", "relu", "gelu"]))
def test_the_lemma_identities_hold_numerically(av, bv, cv, name):
    """Each substitution identity of exchange.lemma, with σ a table activation and random
    a, b, c, evaluated in floats: lhs = rhs up to round-off."""
    act = ACTIVATIONS[name].expr
    concrete = sympy.Lambda(z, act)
    for eq in exchange.SUBSTITUTIONS:
        values = {
            exchange.a: av,
            exchange.b: bv,
            exchange.c: cv,
            exchange.a_nz: av,
            exchange.b_nz: bv,
        }
        lhs, rhs = (
            side.doit().replace(exchange.sigma, concrete).subs(values) for side in (eq.lhs, eq.rhs)
        )
        assert abs(complex(lhs) - complex(rhs)) <= 1e-9 * max(1.0, abs(complex(rhs)))


def test_table_rows_match_theory(report):
    rows = {row[0]: row for row in report.tables[0].rows}
    assert rows["identity"][1:5] == ("yes", "kept", "1", "kept")
    assert rows["relu"][1:5] == ("no", "broken", "1", "kept")
    assert rows["relu2"][1:5] == ("no", "broken", "2", "broken")
    assert rows["silu"][1:5] == ("no", "broken", "none", "broken")


def test_text_output_shows_every_step_with_its_backend(report):
    out = in_process("proofs.exchange", ["--no-torch"], report=report)
    assert out.returncode == 0, out.stderr
    assert "proved by z3" in out.stdout and "proved by sympy" in out.stdout
    assert "proved by interval" in out.stdout and "proved by exact" in out.stdout
    assert "Traceback" not in out.stderr


def test_json_contract_for_user_activations(capsys):
    code, stdout, stderr = run_main(
        capsys,
        "--activation",
        "x*sigmoid(x)",
        "--activation",
        "relu(x)**1.5",
        "--activation",
        "max(x,1)+min(x,1)-1",
        "--json",
    )
    assert code == 0, stderr
    silu, power, linear = json.loads(stdout)
    for obj in (silu, power, linear):
        assert {
            "activation",
            "expression",
            "linear",
            "exchange_symmetric",
            "homogeneity_degree",
            "inverse_scaling_symmetric",
            "status",
            "evidence",
        } <= obj.keys()
    assert silu["activation"] == "x*sigmoid(x)" and silu["linear"] is False
    assert silu["homogeneity_degree"] is None and silu["inverse_scaling_symmetric"] is False
    assert power["homogeneity_degree"] == "3/2" and power["inverse_scaling_symmetric"] is False
    assert linear["linear"] is True and linear["exchange_symmetric"] is True
    assert silu["evidence"]["exchange"]["witness"] == {"a": "2", "b": "1"}


def test_single_activation_json_is_one_object(capsys):
    code, stdout, _ = run_main(capsys, "--activation", "relu", "--json")
    obj = json.loads(stdout)
    assert obj["linear"] is False and obj["homogeneity_degree"] == 1
    assert obj["inverse_scaling_symmetric"] is True and obj["status"] == "proved"


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch {marker}')",
        "x*sigmoid(",
        "sqrt(x)",
        "lambda: 1",
        "1/x",
        "",
        "open('{marker}', 'w')",
    ],
)
def test_bad_input_is_one_line_and_exit_2(text, tmp_path, capsys):
    marker = tmp_path / "pwned"
    code, stdout, stderr = run_main(capsys, "--activation", text.format(marker=marker))
    assert code == 2
    assert stdout == "" and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert "--activation" in stderr
    assert not marker.exists()


def test_bad_input_end_to_end(tmp_path):
    marker = tmp_path / "pwned"
    out = cli("--activation", f"__import__('os').system('touch {marker}')")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert not marker.exists()


def test_unknown_option_is_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        exchange.main(["--nonsense"])
    assert exc.value.code == 2 and "--nonsense" in capsys.readouterr().err
