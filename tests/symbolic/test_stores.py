"""The store table (symbolic.memory.stores): every row fills every column, and what the
Monte Carlo and the proofs read of a store is a column, never its name."""

from __future__ import annotations

import ast
import dataclasses
import math
from pathlib import Path

import pytest
import sympy

from symbolic.memory.similarity_law import beta_, d_
from symbolic.memory.stores import PART_B, STORES, MemoryStore

ROOT = Path(__file__).resolve().parents[2]
ESTIMATORS = {"weights", "tilted", "leverage"}
EXPECTATIONS = {"moments", "mgf", "quadrature", "projection", "tied"}
WITHOUT_WEIGHTS = {"projection"}  # least squares: a projection, not weights f(s)
WITHOUT_THEORY = {"quadrature", "tied"}  # certified enclosures; symbolic.memory.tied_memory


def column_filled(store: MemoryStore, column: str) -> bool:
    """Whether ``store`` fills ``column``; a column that does not apply to the store's kind is
    filled by its documented empty value (None, "" or NaN) and by nothing else."""
    value = getattr(store, column)
    kind = store.expectation
    if column in ("weight", "normalized_weight"):
        return (value is None) == (kind in WITHOUT_WEIGHTS)
    if column in ("theory_gaussian", "theory_exact"):
        if kind in WITHOUT_THEORY:
            return value is None
        return isinstance(value, sympy.Expr) and value.free_symbols <= {d_, beta_}
    if column == "square_bound":
        return (value is not None) == (kind == "quadrature")
    if column in ("form", "activation"):
        return bool(value) == (store.part == "C1")
    if column == "source":
        return isinstance(value, (int, float)) and (math.isnan(value) or value > 0)
    if column == "source_text":
        return bool(value) == (not math.isnan(store.source))
    if column == "note":
        return isinstance(value, str)
    if column == "estimator":
        return value in ESTIMATORS
    if column == "expectation":
        return value in EXPECTATIONS
    if column == "part":
        return value in ("B", "C1")
    return isinstance(value, str) and bool(value)  # name, title, weight_text


@pytest.mark.parametrize("name", list(STORES))
def test_every_row_fills_every_column(name):
    store = STORES[name]
    empty = [f.name for f in dataclasses.fields(store) if not column_filled(store, f.name)]
    assert not empty, f"{name}: columns {empty} not filled"


def test_the_column_check_knows_every_column():
    columns = {f.name for f in dataclasses.fields(MemoryStore)}
    assert columns == {
        "name",
        "title",
        "weight_text",
        "weight",
        "normalized_weight",
        "expectation",
        "source",
        "source_text",
        "note",
        "square_bound",
        "part",
        "form",
        "activation",
        "theory_gaussian",
        "theory_exact",
        "estimator",
    }, "a new column needs its rule in column_filled"


def test_the_theory_and_estimator_columns_are_keyword_only_and_required():
    fields = {f.name: f for f in dataclasses.fields(MemoryStore)}
    for column in ("theory_gaussian", "theory_exact", "estimator"):
        assert fields[column].kw_only and fields[column].default is dataclasses.MISSING


def test_the_theory_forms_are_the_derived_capacities():
    from symbolic.memory.capacity import capacity_expr

    for store in PART_B.values():
        for law in ("gaussian", "exact"):
            if store.theory(law) is None:
                continue
            derived = capacity_expr(store, law)
            if derived.has(sympy.hyper):
                derived = sympy.hyperexpand(derived)
            assert sympy.simplify(derived - store.theory(law)) == 0, (store.name, law)


# Names of stores that code outside the table may not branch on.
STORE_NAMES = set(STORES)
OWNERS = ("symbolic/memory", "proofs/capacity.py", "numeric_checks")


def name_comparisons(source: str) -> list[str]:
    """``x == "softmax"``, ``"least_squares" in ...``, ``x != "relu2"``: comparisons of a store
    name literal (dispatch on a name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        for side in (node.left, *node.comparators):
            if isinstance(side, ast.Constant) and side.value in STORE_NAMES:
                found.append(f"{node.lineno}: compares with {side.value!r}")
    return found


def test_no_code_dispatches_on_a_store_name():
    found = []
    for owner in OWNERS:
        root = ROOT / owner
        for path in sorted([root] if root.is_file() else root.rglob("*.py")):
            if path.name == "stores.py":
                continue
            found += [f"{path.relative_to(ROOT)}:{v}" for v in name_comparisons(path.read_text())]
    assert not found, "\n".join(found)


def test_the_dispatch_scan_finds_a_planted_comparison():
    assert name_comparisons('if store == "least_squares":\n    pass\n')
    assert name_comparisons('with_schedules = "softmax" in stores\n')
    assert not name_comparisons('if store.estimator == "leverage":\n    pass\n')
