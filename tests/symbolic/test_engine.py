"""The engine's objects: verdict algebra, statuses and exit codes."""

from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.engine import (
    Claim,
    Derivation,
    NumericCheck,
    Report,
    Result,
    Step,
    Table,
    combine,
    exit_code_for,
    overall_status,
)
from symbolic.kernel import check_equal, negate  # noqa: E402

_a = sympy.Symbol("a", real=True)
# Real kernel facts of each status (verdicts cannot be made outside the kernel).
PF, RF, UF = (
    check_equal(_a, _a),
    check_equal(sympy.Integer(1), sympy.Integer(0)),
    check_equal(sympy.Function("f")(_a), _a),
)  # f uninterpreted: undecided
P, R, U = PF.verdict, RF.verdict, UF.verdict
CLAIM = Claim("t.claim", "a claim", "a = a", "A0")


def test_combine_needs_every_step():
    assert combine([P, P]).status == "proved"
    assert combine([P, U, P]).status == "unknown"
    assert combine([P, U, R]).status == "refuted"
    assert "step 3 refuted" in combine([P, U, R]).reason
    assert combine([]).status == "unknown"  # nothing checked is never a pass


@given(st.lists(st.sampled_from([P, R, U]), min_size=1, max_size=8))
def test_combine_is_the_weakest_link(verdicts):
    status = combine(verdicts).status
    statuses = {v.status for v in verdicts}
    for worst in ("refuted", "unknown", "proved"):
        if worst in statuses:
            assert status == worst
            break


def test_negation_swaps_proved_and_refuted_only():
    assert negate(PF).status == "refuted" and negate(RF).status == "proved"
    assert negate(UF).status == "unknown"


def test_numeric_disagreement_fails_a_proved_result():
    bad = NumericCheck("x", "numpy", 1, 1.0, 1e-12, False)
    result = Result(CLAIM, Derivation((Step(PF, "refl"),)), (bad,))
    assert result.verdict.status == "proved" and result.status == "failed"


@pytest.mark.parametrize(
    ("statuses", "status", "code"),
    [
        (["proved"], "proved", 0),
        (["proved", "unknown"], "unknown", 3),
        (["unknown", "failed"], "failed", 1),
        (["refuted", "proved"], "refuted", 1),
        ([], "unknown", 3),
    ],
)
def test_overall_status_and_exit_code(statuses, status, code):
    assert overall_status(statuses) == status
    assert exit_code_for(status) == code


def test_report_json_is_serialisable():
    x = sympy.Symbol("x")
    step = Step(check_equal(sympy.Mul(x, 1, evaluate=False), x), "unit")
    claim = Claim("t.claim", "a claim", "x·1 = x", "A0", statement=step.formula)
    report = Report(
        "m",
        "title",
        "A0",
        (Result(claim, Derivation((step,))),),
        (Table("t", "T", ("a", "b"), ((1, x),)),),
    )
    doc = json.loads(json.dumps(report.to_json()))
    assert doc["status"] == "proved"
    assert doc["results"][0]["steps"][0]["formula"] == "Eq(x*1, x)"
    assert doc["results"][0]["claim"]["statement"] == "Eq(x*1, x)"
    assert doc["tables"][0]["rows"] == [[1, "x"]]
