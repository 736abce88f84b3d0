"""Red-team round 10: tampered exports that re-checked as a pass, crashed or did not stop.

* A fact no engine decided — a spot check that could evaluate its formula at no point
  (``I_y(e^y·sin y) = 7``, false at y = 0: I₀(0) = 1) — was ``not re-checked`` and the
  re-check exited 0: undecided is exit 3.
* An export folder nested 1,100 levels deep made the listing (``os.walk``, one recursion per
  level) raise ``RecursionError``: a traceback. The listing walks with a stack of its own.
* Two claims of one name (in two modules) hid the first one's admitted facts: the rows that
  say a claim rests on an assumption go by name, and the second claim's empty ``rests_on``
  won. A name twice now disagrees.
* A Z3 benchmark folding constants (thirty squarings of 10 through ``define-fun``) ran Z3
  past its own time limit for minutes, and cvc5 past its resource and clock limits; each solver
  run is now a child process held to hard limits, ``unknown`` past them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence import solvers
from symbolic.evidence.files import MAX_DEPTH, listing
from symbolic.evidence.manifest import MANIFEST_NAME, SPOT_SCHEMA, Checks

pytestmark = pytest.mark.xdist_group("hostile-certificates")

y = sympy.Symbol("y", real=True)


def U(cls, *args):
    return cls(*args, evaluate=False)


def _spot(formula) -> tuple[str, str]:
    return Checks.SPOT, json.dumps({"schema": SPOT_SCHEMA, "formula_srepr": sympy.srepr(formula)})


# -- 1. a fact nothing decided is not a pass ----------------------------------------------------


def test_a_spot_check_that_evaluated_no_point_is_undecided_not_a_pass(tmp_path):
    """γ = 7 (Euler's constant): false, γ = 0.5772… (a known value; γ < 1 as
    γ = lim (H_n − ln n) and H_n − ln n decreases from 1). The re-check's evaluator has no γ
    and SymPy does not simplify γ − 7 to 0: no point, no engine — it exited 0."""
    f = U(sympy.Eq, sympy.EulerGamma, sympy.Integer(7))
    s1 = fact_node("s1", f, "sympy", obligation=_spot(f))
    write_export(tmp_path, [s1], statement=s1)
    rows, code, _ = rc.recheck(tmp_path)
    fact = next(r for r in rows if r.node == "s1")
    assert fact.outcome == "not re-checked"
    assert code == rc.EXIT_UNKNOWN


# -- 2. a deep folder is a row, never a traceback ---------------------------------------------


def _remove_tree(top: Path) -> None:
    """``top`` and everything under it, by a stack (``shutil.rmtree`` and pytest's clean-up of
    old temporary folders recurse once per level: a tree left 1,100 deep breaks them)."""
    stack, made = [str(top)], []
    while stack:
        folder = stack.pop()
        made.append(folder)
        with os.scandir(folder) as entries:
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                else:
                    os.unlink(e.path)
    for folder in reversed(made):
        os.rmdir(folder)


def test_a_folder_nested_a_thousand_levels_deep_is_a_row_not_a_traceback(tmp_path):
    write_export(tmp_path, [])  # a claim of no steps: only the folder is read
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        for _ in range(1100):  # relative steps: no path longer than the system takes
            os.mkdir("a")
            os.chdir("a")
        Path("f").write_text("x", encoding="utf-8")
        os.chdir(here)
        rows, code, _ = rc.recheck(tmp_path)
    finally:
        os.chdir(here)
        if (tmp_path / "a").exists():
            _remove_tree(tmp_path / "a")
    assert code == rc.EXIT_DISAGREE
    assert any(r.check == "file" and "deeper than" in r.answer for r in rows)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=MAX_DEPTH + 3), min_size=1, max_size=4))
def test_the_listing_finds_every_file_within_its_depth_and_refuses_the_rest(
    tmp_path_factory, depths
):
    root = tmp_path_factory.mktemp("tree")
    want = set()
    for k, depth in enumerate(depths):
        folder = "/".join([f"d{k}"] * depth)
        (root / folder).mkdir(parents=True, exist_ok=True)
        name = f"{folder}/f{k}" if folder else f"f{k}"
        (root / name).write_text(str(k), encoding="utf-8")
        if depth <= MAX_DEPTH:
            want.add(name)
    found, refused = listing(root)
    assert set(found) == want
    assert bool(refused) == any(d > MAX_DEPTH for d in depths)


# -- 3. one name, two claims ------------------------------------------------------------------


def test_a_second_claim_of_one_name_does_not_hide_the_first_ones_assumption(tmp_path):
    """0 = 1 by symm from the assumption 1 = 0: proved, resting on an admitted fact — the
    re-check said so only until a second claim of that name (another module, no steps)
    overwrote what the rests-on rows read by name: then "proved", no admitted fact, exit 0."""
    one_is_zero = U(sympy.Eq, sympy.Integer(1), sympy.Integer(0))
    s1 = fact_node("s1", one_is_zero, "assumption", kind="assumption")
    s2 = fact_node(
        "s2",
        U(sympy.Eq, sympy.Integer(0), sympy.Integer(1)),
        "rule",
        rule="symm",
        premises=["s1"],
    )
    write_export(tmp_path, [s1, s2], statement=s2)
    data = json.loads((tmp_path / MANIFEST_NAME).read_text(encoding="utf-8"))
    first = data["claims"][0]
    data["claims"].append(
        dict(first, module="other", steps=[], rests_on=[], statement=None, statement_srepr=None)
    )
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data), encoding="utf-8")
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any(r.check == "claim" and "two claims" in r.answer for r in rows)
    assert not any(r.check == "claim" and r.outcome == "proved" for r in rows)


# -- 4. a solver held to hard limits ----------------------------------------------------------

SQUARINGS = "\n".join(
    ["(set-logic ALL)", "(define-fun a0 () Real 10.0)"]
    + [f"(define-fun a{i} () Real (* a{i - 1} a{i - 1}))" for i in range(1, 33)]
    + ["(assert (= a32 3.0))", "(check-sat)", "(exit)"]
)


def test_constant_folding_past_the_solvers_own_limit_is_cut_off(monkeypatch):
    """10^(2^32) by thirty-two squarings: Z3 folds it without looking at its timeout (over a
    minute and gigabytes at a 10 s limit). Held to a hard limit it answers unknown."""
    monkeypatch.setattr(solvers, "HARD_SLACK_S", 0.3)
    answer = solvers.run_z3(SQUARINGS, timeout_ms=100)
    assert answer == solvers.OVER_LIMIT


def test_the_hard_limits_leave_an_ordinary_benchmark_alone():
    text = "(set-logic ALL)\n(declare-fun x () Real)\n(assert (< (* x x) 0.0))\n(check-sat)\n"
    assert solvers.run_z3(text) == "unsat"
    if solvers.cvc5_available():
        assert solvers.run_cvc5(text, 100_000) == "unsat"
        steps = solvers.cvc5_proof(text)
        assert steps is not None and steps[0] > 0


# -- 5. a name that prints as something else --------------------------------------------------

PRINTED_AS = [
    ("Eq(1, 0)", U(sympy.Eq, sympy.Symbol("1", zero=True), sympy.Integer(0))),
    ("E < 0", U(sympy.Lt, sympy.Symbol("E", negative=True), sympy.Integer(0))),
    ("x**2 - 10 > 0", U(sympy.Gt, sympy.Symbol("x**2 - 10", positive=True), sympy.Integer(0))),
    ("sin(y) >= 0", U(sympy.Ge, sympy.Symbol("sin(y)", nonnegative=True), sympy.Integer(0))),
]


@pytest.mark.parametrize(("text", "formula"), PRINTED_AS, ids=[t for t, _ in PRINTED_AS])
def test_a_statement_whose_names_print_as_a_false_formula_disagrees(tmp_path, text, formula):
    """Each text reads false (1 ≠ 0; e > 0; at x = 0, −10 < 0; sin(−π/2) = −1), yet each
    formula holds by its symbol's sign alone (a zero, a negative, a positive, a nonnegative
    symbol with that name), and the SMT obligation proved it: the claim re-checked as proved,
    exit 0, under a statement that says something false."""
    from symbolic.evidence.formula_reader import read_formula
    from symbolic.evidence.formula_smt import smt_obligation

    s1 = fact_node(
        "s1",
        formula,
        "sympy",
        obligation=(Checks.SMT, smt_obligation(read_formula(sympy.srepr(formula)))),
    )
    assert s1["formula"] == text
    write_export(tmp_path, [s1], statement=s1)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert not any(r.outcome == "proved" for r in rows)


def test_the_toolkits_own_names_are_still_names():
    """Names the toolkit writes (capacity's E[f(s)^2], K^T, M*_sym,exact; Greek; primes) and
    an assumption stated in words are not refused."""
    from symbolic.evidence.manifest import misleading_name
    from symbolic.kernel import ASSUMED

    for name in ("E[f(s)^2]", "f(1)^2", "K^T", "K^+", "M*_sym,exact", "Γ", "ι3", "x_0_0", "x'"):
        assert misleading_name(U(sympy.Gt, sympy.Symbol(name, positive=True), 0)) is None, name
    words = ASSUMED(sympy.Symbol("σ is measurable, and 1 + 1 = 2"))
    assert misleading_name(words) is None
    assert misleading_name(sympy.Function("exp")(y)) is not None


@settings(max_examples=30, deadline=None)
@given(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True),
    st.integers(min_value=-(10**6), max_value=10**6),
)
def test_identifiers_are_names_and_numbers_are_not(name, number):
    from symbolic.evidence.manifest import misleading_name
    from symbolic.kernel import CONSTANT_NAMES

    plain = sympy.Symbol(name, real=True)
    assert (misleading_name(plain) is None) == (name not in CONSTANT_NAMES)
    assert misleading_name(sympy.Symbol(str(number), real=True)) is not None


# -- 6. a JSON document of too many values ----------------------------------------------------


def test_a_manifest_of_millions_of_empty_objects_is_refused_before_it_is_built(tmp_path):
    """48 MB of ``[{}, {}, …]`` took 1.4 GB and 20 CPU seconds to read (a 256 MB manifest, the
    size allowed, some 7 GB): the values are counted before anything is built."""
    from symbolic.evidence.files import MAX_JSON_ITEMS, read_json

    with pytest.raises(ValueError, match="values"):
        read_json(b"[" + b"{}," * MAX_JSON_ITEMS + b"{}]")
    (tmp_path / MANIFEST_NAME).write_bytes(b'{"claims": [' + b"{}," * MAX_JSON_ITEMS + b"{}]}")
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE and "values" in rows[0].answer


# -- 7. an SMT obligation that printed gigabytes ----------------------------------------------


def _nested(head, depth: int):
    e = sympy.Symbol("x", real=True)
    for _ in range(depth):
        e = head(e)
    return e


@pytest.mark.parametrize(
    "formula",
    [
        U(sympy.Eq, _nested(lambda e: U(sympy.Pow, e, 32), 6), 0),  # 32^6 copies of x
        U(sympy.Ge, _nested(lambda e: U(sympy.Abs, U(sympy.Add, e, 1)), 40), 0),  # 3^40
        U(sympy.Ge, _nested(lambda e: U(sympy.Max, U(sympy.Add, e, 1), 2), 40), 0),  # 2^40
    ],
    ids=["power-tower", "abs-40", "max-40"],
)
def test_an_obligation_too_long_to_print_is_outside_the_fragment(formula):
    """A formula of a few hundred characters whose SMT text repeats a subterm at each level
    (a power as a product of its base, |a| and max(a, b) as ite): 4 GB, 10¹⁹ characters.
    Such a fact is spot-checked instead."""
    from symbolic.evidence.formula_reader import read_formula
    from symbolic.evidence.formula_smt import smt_obligation

    assert len(sympy.srepr(formula)) < 5000
    assert smt_obligation(read_formula(sympy.srepr(formula))) is None


def test_a_deep_but_short_obligation_is_still_printed():
    from symbolic.evidence.formula_smt import smt_obligation

    text = smt_obligation(U(sympy.Ge, _nested(lambda e: U(sympy.Abs, U(sympy.Add, e, 1)), 8), 0))
    assert text is not None and "(ite (>= " in text
