"""The certificate reader accepts every formula the toolkit itself exports.

The reader (``symbolic.evidence.formula_reader``) is a whitelist: a node type it does not know
makes the re-check of that claim a disagreement. A whole-project ``--recheck`` once found eight
claims whose formulas held ``Equivalent``, ``Union``, ``Integral`` or ``hyper`` (with
``TupleArg``), all missing from the whitelist. This test reads, for every node type in any
statement or step's formula (with its parts) of the real reports, the shortest formula holding
it, so a new node type is caught by the suite, not by a ten-minute export."""

from __future__ import annotations

import pytest
import sympy

from symbolic.evidence.formula_reader import read_formula

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


def _covering(formulas):
    """The smallest formulas (by node count) that hold, between them, every node type that any
    of them holds: reading those exercises every node type the export writes."""
    typed = []
    for where, f in formulas:
        nodes = [type(n).__name__ for n in sympy.preorder_traversal(f)]
        typed.append((len(nodes), where, f, set(nodes)))
    chosen, seen = [], set()
    for _, where, f, types in sorted(typed, key=lambda t: t[0]):
        if types - seen:
            chosen.append((where, f))
            seen |= types
    return chosen, seen


def test_every_node_type_the_export_writes_is_read_back():
    import shared_reports

    formulas = [
        (f"{claim} {where}", formula)
        for run in shared_reports.runs()
        for claim, where, formula in _formulas(run.report)
    ]
    chosen, types = _covering(formulas)
    assert len(formulas) > 1000 and {"Equivalent", "Union", "Integral", "hyper"} <= types
    unread, unstable = [], []
    for where, formula in chosen:
        try:
            once = read_formula(sympy.srepr(formula))
        except Exception as exc:  # noqa: BLE001 - each one listed below
            unread.append(f"{where}: {exc}")
            continue
        if sympy.srepr(read_formula(sympy.srepr(once))) != sympy.srepr(once):
            unstable.append(where)
    assert unread == []
    assert unstable == []
