"""The certificate reader accepts every formula the toolkit itself exports.

The reader (``symbolic.formula_reader``) is a whitelist: a node type it does not know makes the
re-check of that claim a disagreement. A whole-project ``--recheck`` once found eight claims
whose formulas held ``Equivalent``, ``Union``, ``Integral`` or ``hyper`` (with ``TupleArg``), all
missing from the whitelist. This test reads every statement and every step's formula (with its
parts) of the real reports, so a new node type is caught by the suite, not by a ten-minute
export."""

from __future__ import annotations

import pytest
import sympy

from symbolic.formula_reader import read_formula

pytestmark = pytest.mark.xdist_group("shared-reports")  # reads tests/shared_reports.py


def _formulas(report):
    for result in report.results:
        if result.claim.statement is not None:
            yield result.claim.name, "statement", result.claim.statement
        stack = [(f"s{i}", step.fact) for i, step in enumerate(result.derivation.steps, 1)]
        while stack:
            where, fact = stack.pop()
            yield result.claim.name, where, fact.formula
            stack += [(f"{where}.p{j}", p) for j, p in enumerate(fact.parts, 1)]


def test_every_exported_formula_is_read_back_as_itself_twice():
    import shared_reports

    unread, unstable, seen = [], [], 0
    for run in shared_reports.runs():
        for claim, where, formula in _formulas(run.report):
            seen += 1
            text = sympy.srepr(formula)
            try:
                once = read_formula(text)
            except Exception as exc:  # noqa: BLE001 - each one listed below
                unread.append(f"{claim} {where}: {exc}")
                continue
            if sympy.srepr(read_formula(sympy.srepr(once))) != sympy.srepr(once):
                unstable.append(f"{claim} {where}")
    assert seen > 1000
    assert unread == []
    assert unstable == []
