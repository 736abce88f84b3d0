"""Issue 25: an export a hostile reviewer tampers with is refused, and reading it runs no code.

One small export (``mini``: a claim whose steps are a Z3 fact, a SymPy identity re-checked as
an SMT obligation, a SymPy identity outside it (spot-checked), a closed comparison, a bound and
a refuted identity with its witness) is shared; each test copies it and attacks one file. A
forger who also rewrites the manifest's digests is simulated by ``reseal``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.formula_reader import UnreadableFormula, read_formula, read_fraction
from symbolic.evidence.formula_smt import smt_obligation
from symbolic.evidence.manifest import (
    MANIFEST_NAME,
    RECORD_NAME,
    SPOT_SCHEMA,
    Checks,
)
from symbolic.evidence.report import CONCLUDES, Row, counts
from symbolic.evidence.solvers import cvc5_available, run_cvc5

pytestmark = pytest.mark.xdist_group("hostile-certificates")

x = sympy.Symbol("x", real=True)
t = sympy.Symbol("t", positive=True)
a, b = sympy.symbols("a b", real=True)


def mini_report():
    from symbolic.engine import Claim, Derivation, Report, Result, Step
    from symbolic.kernel import (
        check_bound_on,
        check_compare,
        check_equal,
        check_valid,
        counterexample,
        negate,
    )

    refuted = counterexample(sympy.exp(t), 1 + t, {t: sympy.Rational(7, 5)})
    steps = (
        Step(check_valid(lambda z3: z3.Implies(z3.Real("x") > 1, z3.Real("x") > 0)), "z3"),
        Step(check_equal((a + b) ** 2, a**2 + 2 * a * b + b**2), "expand"),
        Step(check_equal(sympy.exp(a) * sympy.exp(b), sympy.exp(a + b)), "exp law"),
        Step(check_compare(sympy.Integer(2817), ">", sympy.Rational(8195, 3)), "compare"),
        Step(check_compare(sympy.exp(1), ">", sympy.Rational(27, 10)), "e > 2.7"),
        Step(check_bound_on(sympy.exp(x) - x, x, 0, 1, "<", 2), "bound"),
        Step(negate(refuted), "exp(t) ≠ 1 + t"),
    )
    # stated as its last step: a claim with no statement re-checks as unknown (exit 3)
    claim = Claim("mini.claim", "mini", "a small claim", "A6", statement=steps[-1].formula)
    return Report("proofs.mini", "Mini", "A6", (Result(claim, Derivation(steps)),))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    from proofs._cli import ModuleRun
    from symbolic.evidence.export import export

    out = tmp_path_factory.mktemp("mini")
    export([ModuleRun("mini", mini_report())], out, second=False)
    return out


@pytest.fixture
def copy(exported, tmp_path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(exported, target)
    return target


def manifest(d: Path) -> dict:
    return json.loads((d / MANIFEST_NAME).read_text(encoding="utf-8"))


def reseal(d: Path, change=None) -> None:
    """The manifest rewritten as a forger would: every file's digest recomputed, and
    ``change(manifest)`` applied first."""
    data = manifest(d)
    if change:
        change(data)
    data["files"] = {
        name: hashlib.sha256((d / name).read_bytes()).hexdigest()
        for name in data["files"]
        if (d / name).exists()
    }
    (d / MANIFEST_NAME).write_text(json.dumps(data), encoding="utf-8")


def node(d: Path, node_id: str) -> dict:
    def walk(nodes):
        for n in nodes:
            if n["id"] == node_id:
                return n
            found = walk(n.get("parts", []))
            if found:
                return found
        return None

    return walk(manifest(d)["claims"][0]["steps"])


def file_of(d: Path, node_id: str, role: str) -> Path:
    entry = next(o for o in node(d, node_id)["obligations"] if o["role"] == role)
    return d / entry["file"]


def bad_rows(d: Path) -> list[Row]:
    """The rows that disagree — but a claim's row that only inherits a fact's disagreement."""
    rows, code, _ = rc.recheck(d)
    bad = [r for r in rows if not r.ok]
    assert (code == rc.EXIT_DISAGREE) == bool(bad)
    inherited = (CONCLUDES,)
    return [r for r in bad if not (r.check == "claim" and r.answer in inherited)]


# -- the untouched export ------------------------------------------------------------------


def test_the_untouched_export_rechecks(exported):
    rows, code, _ = rc.recheck(exported)
    outcome = {(r.node, r.check): r.outcome for r in rows}
    assert outcome[("s1", Checks.Z3)] == ("proved" if cvc5_available() else "unknown")
    assert outcome[("s1", Checks.SMT)] == "proved"
    assert outcome[("s2", Checks.SMT)] == "proved"
    assert outcome[("s3", Checks.SPOT)] == "spot-checked"  # never "proved"
    assert outcome[("s4", Checks.CERTIFICATE)] == "proved"
    assert outcome[("s6", Checks.BOUND)] == "proved"
    assert outcome[("s7.p1", Checks.WITNESS)] == "refuted"
    assert outcome[("s7", Checks.NEGATION)] == "proved"
    assert code == (rc.EXIT_OK if cvc5_available() else rc.EXIT_UNKNOWN)
    counted = counts(rows)
    assert counted["facts"] == 8 and counted["facts spot-checked"] == 1


def test_the_comparison_itself_is_exported_not_a_closed_number(exported):
    cert = json.loads(file_of(exported, "s4", Checks.CERTIFICATE).read_text())
    assert cert["formula"] == "2817 > 8195/3" and cert["value"] == "256/3"
    assert "expression_srepr" not in cert and "relation" not in cert


# -- reading runs no code --------------------------------------------------------------------


PAYLOADS = [
    "exp(\"__import__('os').system('touch {f}')\")",
    "FiniteSet(\"__import__('os').system('touch {f}')\")",
    "Tuple(\"__import__('os').system('touch {f}')\")",
    "Poly(\"__import__('os').system('touch {f}')\")",
    "Integral(\"__import__('os').system('touch {f}')\")",
    "Sum(\"__import__('os').system('touch {f}')\")",
    "Abs(\"__import__('os').system('touch {f}')\")",
    "Symbol.__class__",
    "__import__('os')",
    "lambdify(1)",
    "Add(Rational(256, 3), Mul(Integer(0), exp(\"__import__('os').system('touch {f}') * 0\")))",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_formula_is_read_without_running_code(tmp_path, payload):
    target = tmp_path / "PAYLOAD_RAN"
    with pytest.raises(UnreadableFormula):
        read_formula(payload.format(f=target))
    assert not target.exists()


def test_a_payload_in_a_certificate_is_a_failure_and_does_not_run(copy, tmp_path):
    target = tmp_path / "PAYLOAD_RAN"
    cert_path = file_of(copy, "s4", Checks.CERTIFICATE)
    cert = json.loads(cert_path.read_text())
    cert["formula_srepr"] = (
        "Add(Rational(256, 3), Mul(Integer(0), exp(\"__import__('os')"
        f".system('touch {target}') * 0\")))"
    )
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    bad = bad_rows(copy)
    assert [(r.node, r.check) for r in bad] == [("s4", Checks.CERTIFICATE)]
    assert "argument 1 is a string" in bad[0].answer
    assert not target.exists()


@pytest.mark.parametrize(
    "text, why",
    [
        ("Pow(Integer(10), Integer(100000000))", "exponent"),
        ("Integer(" + "9" * 5000 + ")", "not srepr text"),  # Python's own digit limit
        ("Integer(" + "9" * 1000 + ")", "digits"),
        ("factorial(Integer(100000000))", "beyond"),
        ("Add(" * 300 + "Integer(1)" + ")" * 300, "nest|not srepr"),
    ],
)
def test_bounds_on_numbers_and_nesting(text, why):
    with pytest.raises(UnreadableFormula, match=why):
        read_formula(text)


def test_a_tower_of_powers_is_refused_by_its_size_not_per_exponent():
    """Each exponent of ((2^256)^256)^256 is within MAX_EXPONENT, but the number has 2^24 bits
    (four levels took 1.8 GB in the interval evaluator): refused when read. A small tower is
    read unevaluated and computed exactly."""
    from symbolic.evidence.numbers import exact

    tower = "Integer(2)"
    for _ in range(2):
        tower = f"Pow({tower}, Integer(256))"
    with pytest.raises(UnreadableFormula, match="too large"):
        read_formula(tower)
    with pytest.raises(UnreadableFormula, match="too large"):
        read_formula(f"Mul({', '.join(['Pow(Integer(3), Integer(256))'] * 500)})")
    e = read_formula("Pow(Pow(Integer(2), Integer(3)), Integer(2))")
    assert isinstance(e, sympy.Pow) and exact(e) == 64


@pytest.mark.parametrize("text", ["1e1000000000", "1" * 5000, "1/0", "0x10", " 1", "1.5"])
def test_fractions_are_bounded_digits_only(text):
    with pytest.raises(UnreadableFormula):
        read_fraction(text)


def test_a_huge_enclosure_end_point_is_refused(copy):
    cert_path = file_of(copy, "s5", Checks.CERTIFICATE)
    cert = json.loads(cert_path.read_text())
    cert["enclosure"]["lo"] = "1e1000000000"
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    assert [r.node for r in bad_rows(copy)] == ["s5"]


# -- solver options, symlinks -----------------------------------------------------------------


def test_solver_options_in_a_file_are_refused(copy, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    target = file_of(copy, "s1", Checks.Z3)
    text = f'(set-option :regular-output-channel "{victim}")\n' + target.read_text()
    target.write_text(text)
    reseal(copy)
    bad = bad_rows(copy)
    assert [(r.node, r.check) for r in bad] == [("s1", Checks.Z3)]
    assert "refused" in bad[0].answer
    assert victim.read_text(encoding="utf-8") == "precious"
    if cvc5_available():  # the runner itself refuses it too
        assert run_cvc5(text).startswith("error: command")
        assert victim.read_text(encoding="utf-8") == "precious"


def test_the_manifest_strategy_must_be_one_of_the_portfolio(copy):
    def change(data):
        data["claims"][0]["steps"][0]["obligations"][0]["cvc5_strategy"] = "--dump-models"

    reseal(copy, change)
    if cvc5_available():
        assert [r.node for r in bad_rows(copy)] == ["s1"]


def test_the_record_is_never_written_through_a_symlink(copy, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (copy / RECORD_NAME).unlink(missing_ok=True)
    os.symlink(victim, copy / RECORD_NAME)
    rc.recheck(copy)
    assert victim.read_text(encoding="utf-8") == "precious"


def test_a_symlinked_obligation_is_refused(copy, tmp_path):
    target = file_of(copy, "s2", Checks.SMT)
    elsewhere = tmp_path / "elsewhere.smt2"
    shutil.move(target, elsewhere)
    os.symlink(elsewhere, target)
    bad = bad_rows(copy)
    assert any("symbolic link" in r.answer for r in bad)


# -- binding: files, formulas, expected answers -----------------------------------------------


def test_a_folder_without_a_manifest_fails(tmp_path):
    (tmp_path / "lonely.smt2").write_text("(assert false)\n(check-sat)\n")
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE and "manifest.json" in rows[0].answer


def test_a_removed_added_or_edited_file_is_caught(copy):
    file_of(copy, "s2", Checks.SMT).unlink()
    (copy / "mini" / "extra.smt2").write_text("(check-sat)\n")
    edited = file_of(copy, "s4", Checks.CERTIFICATE)
    edited.write_text(edited.read_text().replace("256/3", "257/3"))
    answers = " | ".join(r.answer for r in bad_rows(copy))
    assert "missing" in answers and "not in the manifest" in answers
    assert "changed since the export" in answers


def test_assert_false_added_to_an_obligation_is_caught(copy):
    target = file_of(copy, "s2", Checks.SMT)
    target.write_text(target.read_text().replace("(check-sat)", "(assert false)\n(check-sat)"))
    bad = bad_rows(copy)  # the digest, and the file is not the formula's obligation
    assert [(r.check, r.node) for r in bad] == [("file", ""), (Checks.SMT, "s2")]
    assert "changed since the export" in bad[0].answer
    reseal(copy)  # and with the digest forged: the file is no longer the formula's obligation
    bad = bad_rows(copy)
    assert [r.node for r in bad] == ["s2"] and "not the formula's obligation" in bad[0].answer


def test_a_flipped_goal_with_status_sat_is_a_disagreement(copy):
    target = file_of(copy, "s1", Checks.Z3)
    text = target.read_text()
    flipped = re.sub(r"\(not (\$x\d+)\)", r"\1", text)
    assert flipped != text
    target.write_text("(set-info :status sat)\n; expected answer: sat\n" + flipped)
    reseal(copy)
    bad = bad_rows(copy)
    assert [(r.node, r.check) for r in bad] == [("s1", Checks.Z3)]
    assert bad[0].z3 == "sat"


def test_a_false_smt_obligation_surfaces_sat(tmp_path):
    """A SymPy step that is false: its obligation, printed from its formula, is ``sat`` for
    both solvers — a disagreement at the first answer (no ``:status`` turns it into an
    error)."""
    f = sympy.Eq(x**2, x, evaluate=False)
    write_export(
        tmp_path, [fact_node("s1", f, "sympy", obligation=(Checks.SMT, smt_obligation(f)))]
    )
    bad = bad_rows(tmp_path)
    assert [(r.node, r.z3) for r in bad] == [("s1", "sat")]
    if cvc5_available():
        assert bad[0].cvc5 == "sat"


def test_a_false_identity_outside_the_smt_fragment_fails_its_spot_check(tmp_path):
    f = sympy.Eq(sympy.exp(x), 1 + x, evaluate=False)
    spot = {"schema": SPOT_SCHEMA, "formula_srepr": sympy.srepr(f)}
    write_export(
        tmp_path, [fact_node("s1", f, "sympy", obligation=(Checks.SPOT, json.dumps(spot)))]
    )
    bad = bad_rows(tmp_path)
    assert [r.check for r in bad] == [Checks.SPOT] and "random point" in bad[0].answer


def test_a_certificate_formula_replaced_by_one_is_caught(copy):
    cert_path = file_of(copy, "s5", Checks.CERTIFICATE)
    cert = json.loads(cert_path.read_text())
    cert["formula_srepr"] = "Integer(1)"
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    bad = bad_rows(copy)
    assert [r.node for r in bad] == ["s5"] and "not the step's" in bad[0].answer


def test_an_enclosure_with_lo_above_hi_is_refused(copy):
    cert_path = file_of(copy, "s5", Checks.CERTIFICATE)
    cert = json.loads(cert_path.read_text())
    lo, hi = cert["enclosure"]["lo"], cert["enclosure"]["hi"]
    cert["enclosure"] = {"lo": hi, "hi": lo, "bits": 64}
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    bad = bad_rows(copy)
    assert [r.node for r in bad] == ["s5"] and "lo = " in bad[0].answer


def test_a_relation_weakened_from_greater_to_unequal_is_caught(copy):
    cert_path = file_of(copy, "s5", Checks.CERTIFICATE)
    cert = json.loads(cert_path.read_text())
    cert["formula_srepr"] = cert["formula_srepr"].replace("StrictGreaterThan", "Unequality")
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    assert [r.node for r in bad_rows(copy)] == ["s5"]


def test_a_witness_outside_its_domain_is_refused(copy):
    """The witness t = −3/7 breaks t > 0: refused whether the certificate keeps the symbol's
    assumption or strips it (the domain is the manifest's formula, not the file's)."""
    cert_path = file_of(copy, "s7.p1", Checks.WITNESS)
    cert = json.loads(cert_path.read_text())
    cert["point"] = {"t": "Rational(-3, 7)"}
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    bad = bad_rows(copy)  # and ¬F (step 7) no longer has a refuted part
    assert [r.node for r in bad] == ["s7.p1", "s7"] and "outside the domain" in bad[0].answer
    cert["formula_srepr"] = cert["formula_srepr"].replace(", positive=True", "")
    cert_path.write_text(json.dumps(cert))
    reseal(copy)
    assert [r.node for r in bad_rows(copy)] == ["s7.p1", "s7"]


def test_a_changed_statement_is_caught(copy):
    last = manifest(copy)["claims"][0]["steps"][-1]

    def bind(data):
        data["claims"][0]["statement_srepr"] = last["formula_srepr"]
        data["claims"][0]["statement"] = last["formula"]  # the text is bound too

    reseal(copy, bind)
    rows, _, _ = rc.recheck(copy)  # bound; its weakest fact (step 3) is spot-checked
    import importlib.util

    weakest = "spot-checked" if importlib.util.find_spec("cvc5") else "unknown"  # no 2nd solver
    assert [(r.answer, r.outcome) for r in rows if r.check == "claim"] == [(CONCLUDES, weakest)]

    def change(data):
        data["claims"][0]["statement_srepr"] = sympy.srepr(sympy.Eq(x, x, evaluate=False))

    reseal(copy, change)
    bad = bad_rows(copy)
    assert [r.check for r in bad] == ["claim"] and "statement" in bad[0].answer


def test_a_missing_obligation_is_caught(copy):
    def drop(data):
        data["claims"][0]["steps"][1]["obligations"] = []

    reseal(copy, drop)
    answers = [r.answer for r in bad_rows(copy)]
    assert "obligation missing from the manifest" in answers


def test_an_admitted_step_must_be_listed_in_rests_on(copy):
    def admit(data):
        data["claims"][0]["steps"][2]["kind"] = "assumption"

    reseal(copy, admit)
    assert any("rests_on" in r.answer for r in bad_rows(copy))


# -- kernel rules, re-derived ------------------------------------------------------------------


def test_a_rule_step_is_rederived_from_its_premises(tmp_path):
    c = sympy.Symbol("c", real=True)
    p1, p2 = sympy.Eq(a, b, evaluate=False), sympy.Eq(b, c, evaluate=False)
    nodes = [
        fact_node("s1", p1, "assumption", kind="assumption"),
        fact_node("s2", p2, "assumption", kind="assumption"),
        fact_node(
            "s3", sympy.Eq(a, c, evaluate=False), "rule", rule="trans", premises=["s1", "s2"]
        ),
    ]
    write_export(tmp_path, nodes, rests_on=[sympy.sstr(p1), sympy.sstr(p2)])
    assert bad_rows(tmp_path) == []
    nodes[2] = fact_node(
        "s3", sympy.Eq(c, a, evaluate=False), "rule", rule="trans", premises=["s1", "s2"]
    )
    write_export(tmp_path, nodes, rests_on=[sympy.sstr(p1), sympy.sstr(p2)])
    assert [r.node for r in bad_rows(tmp_path)] == ["s3"]


@pytest.mark.parametrize(
    "rule, premises, detail, conclusion",
    [
        ("symm", [sympy.Eq(a, b)], None, sympy.Eq(b, a)),
        (
            "cong",
            [sympy.Eq(a, b)],
            sympy.Lambda(x, sympy.exp(x) + 1),
            sympy.Eq(sympy.exp(a) + 1, sympy.exp(b) + 1),
        ),
        ("mp", [sympy.Implies(a > 0, b > 0), a > 0], None, b > 0),
        ("conj", [a > 0, b > 0], None, sympy.And(a > 0, b > 0)),
        (
            "unfold",
            [sympy.Eq(x, a + 1)],
            sympy.Lambda(x, 2 * x),  # literal, as the kernel's
            sympy.Eq(2 * x, sympy.Mul(2, a + 1, evaluate=False)),
        ),
    ],
)
def test_each_rule_concludes_its_shape(rule, premises, detail, conclusion):
    from symbolic.evidence.rules import derive

    assert derive(rule, premises, detail) == conclusion
    with pytest.raises(ValueError):
        derive(rule, [], detail)
    if rule != "conj":  # any formulas conjoin; the other rules need their premises' shape
        with pytest.raises(ValueError):
            derive(rule, [sympy.Ne(a, b)] * len(premises), detail)


def test_inst_substitutes_the_bound_variables():
    from symbolic.evidence.rules import derive
    from symbolic.kernel import ForAll

    law = ForAll((x,), sympy.Eq(sympy.exp(x) * sympy.exp(-x), 1))
    assert derive("inst", [law], sympy.Tuple(sympy.Tuple(x, a))) == sympy.Eq(
        sympy.exp(a) * sympy.exp(-a), 1
    )


# -- a hand-made export ------------------------------------------------------------------------


# -- properties ---------------------------------------------------------------------------------

_atoms = st.sampled_from([x, t, a, sympy.Integer(2), sympy.Rational(-3, 7), sympy.pi])
_exprs = st.recursive(
    _atoms,
    lambda inner: st.one_of(
        st.builds(lambda p, q: p + q, inner, inner),
        st.builds(lambda p, q: p * q, inner, inner),
        st.builds(lambda p, n: p**n, inner, st.integers(-3, 3)),
        st.builds(sympy.exp, inner),
        st.builds(sympy.Max, inner, inner),
    ),
    max_leaves=8,
)


@given(_exprs, _exprs)
def test_the_reader_round_trips_what_srepr_writes(lhs, rhs):
    f = sympy.Eq(lhs, rhs, evaluate=False)
    read = read_formula(sympy.srepr(f))  # built unevaluated: the same terms, maybe reordered
    assert (read.lhs.doit(), read.rhs.doit()) == (lhs.doit(), rhs.doit())
    assert sympy.srepr(read_formula(sympy.srepr(read))) == sympy.srepr(read)  # a fixed point


_poly = st.lists(st.integers(-5, 5), min_size=1, max_size=4)


@settings(max_examples=25, deadline=None)
@given(_poly, _poly, st.integers(1, 3))
def test_a_polynomial_identity_is_unsat_and_a_wrong_one_sat(p, q, shift):
    """(P·Q) = expand(P·Q) holds for every real: Z3 answers unsat on its obligation; with the
    constant term moved by ``shift`` it fails everywhere: sat."""
    from symbolic.evidence.solvers import run_z3

    pe = sum(c * a**k for k, c in enumerate(p))
    qe = sum(c * a**k for k, c in enumerate(q))
    true = sympy.Eq(pe * qe, sympy.expand(pe * qe), evaluate=False)
    false = sympy.Eq(pe * qe, sympy.expand(pe * qe) + shift, evaluate=False)
    assert run_z3(smt_obligation(true)) == "unsat"
    assert run_z3(smt_obligation(false)) == "sat"


def test_a_claim_using_one_that_rests_on_admitted_facts_is_marked():
    claims = [
        {"module": "m", "name": "a", "uses": [], "rests_on": ["assumed(h)"]},
        {"module": "m", "name": "b", "uses": ["a"], "rests_on": []},
        {"module": "m", "name": "c", "uses": ["b"], "rests_on": []},
        {"module": "m", "name": "d", "uses": [], "rests_on": []},
    ]
    rows = rc._resting_rows(claims)
    assert [(r.claim, r.answer) for r in rows] == [
        ("m:a", "admitted facts"),
        ("m:b", "admitted facts (through a)"),
        ("m:c", "admitted facts (through a)"),
    ]
    assert counts(rows)["claims resting on admitted facts"] == 3


# -- a manifest rewritten as a forger would (session 11's red-team round) ----------------------


def _claim_row(d: Path) -> Row:
    rows, _, _ = rc.recheck(d)
    return next(r for r in rows if r.check == "claim")


def test_a_statement_or_step_text_that_is_not_its_formula_disagrees(copy):
    def lie(data):
        data["claims"][0]["statement_srepr"] = data["claims"][0]["steps"][-1]["formula_srepr"]
        data["claims"][0]["statement"] = "Eq(1, 2)"

    reseal(copy, lie)
    row = _claim_row(copy)
    assert row.outcome == "DISAGREES" and "statement's text" in row.answer

    def lie_in_a_step(data):
        bind = data["claims"][0]["steps"][-1]
        data["claims"][0]["statement_srepr"] = bind["formula_srepr"]
        data["claims"][0]["statement"] = bind["formula"]
        data["claims"][0]["steps"][1]["formula"] = "Eq(a + b, 0)"

    reseal(copy, lie_in_a_step)
    assert "s2: its text" in _claim_row(copy).answer


def test_a_refuted_last_step_refutes_the_claim_it_never_proves_it(copy):
    def refuted_statement(data):
        part = dict(data["claims"][0]["steps"][-1]["parts"][0])  # exp(t) = 1 + t, refuted
        part["id"] = "s8"  # (one id per fact: a second s7.p1 is a disagreement of its own)
        data["claims"][0]["steps"].append(part)
        data["claims"][0]["statement_srepr"] = part["formula_srepr"]
        data["claims"][0]["statement"] = part["formula"]

    reseal(copy, refuted_statement)
    assert _claim_row(copy).outcome == "refuted"


def test_an_admitted_fact_in_a_part_must_be_listed(copy):
    def hide(data):
        data["claims"][0]["steps"][-1]["parts"][0]["kind"] = "assumption"

    reseal(copy, hide)
    row = _claim_row(copy)
    assert row.outcome == "DISAGREES" and "rests_on" in row.answer


def test_uses_that_is_not_a_list_is_a_row_not_a_traceback(copy):
    reseal(copy, lambda data: data["claims"][0].update(uses=7))
    rows, code, _ = rc.recheck(copy)
    assert code == rc.EXIT_DISAGREE
    assert any("uses is not a list" in r.answer for r in rows if r.check == "claim")


def test_a_fact_nothing_re_checks_is_unknown_not_a_pass(copy):
    def opt_out(data):
        data["claims"][0]["steps"][1]["method"] = "numeric"

    reseal(copy, opt_out)
    rows, code, _ = rc.recheck(copy)
    assert code == rc.EXIT_UNKNOWN
    assert ("s2", Checks.NONE, "unknown") in [(r.node, r.check, r.outcome) for r in rows]


def _definition_nodes(value_formula):
    c = sympy.Symbol("c", real=True)
    return c, fact_node("s1", value_formula(c), "definition", kind="definition")


def test_a_definition_must_name_a_fresh_symbol(tmp_path):
    _, bad = _definition_nodes(lambda c: sympy.Eq(sympy.Integer(2), sympy.Integer(1)))
    write_export(tmp_path, [bad], statement=bad, rests_on=())
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert [r.answer for r in rows if not r.ok][0].startswith("not a definition")


def test_gen_and_inst_over_a_defined_name_disagree(tmp_path):
    """From the definition c := 1, gen gives ∀c: c = 1 and inst then 2 = 1: the kernel refuses
    both (a defined name is a constant), and so does the re-check of a forged manifest."""
    c, definition = _definition_nodes(lambda c: sympy.Eq(c, 1, evaluate=False))
    from symbolic.kernel import ForAll

    general = ForAll((c,), sympy.Eq(c, 1, evaluate=False))
    gen_node = fact_node("s2", general, "rule", rule="gen", premises=["s1"])
    gen_node["detail_srepr"] = sympy.srepr(sympy.Tuple(c))
    write_export(tmp_path, [definition, gen_node], statement=gen_node, rests_on=())
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert "gen over c, a defined name" in next(r.answer for r in rows if r.node == "s2")


def _rule_node(node_id, formula, rule, premises, detail):
    n = fact_node(node_id, formula, "rule", rule=rule, premises=premises)
    n["detail_srepr"] = sympy.srepr(detail)
    return n


def test_the_rule_checker_reads_every_assumption_and_one_definition_per_name(tmp_path):
    """Mirrors of the kernel's side conditions, for a forged manifest: inst of an odd n at 0,
    and 1 = 2 from two definitions of x."""
    n = sympy.Symbol("n", odd=True)
    hyp = fact_node("s1", sympy.Ne(n, 0, evaluate=False), "assumption", kind="assumption")
    forged = _rule_node(
        "s2", sympy.Ne(0, 0, evaluate=False), "inst", ["s1"], sympy.Tuple(sympy.Tuple(n, 0))
    )
    write_export(tmp_path, [hyp, forged], rests_on=[hyp["formula"]], statement=forged)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE  # n is free in the assumption: fixed there
    assert "inst over n" in next(r.answer for r in rows if r.node == "s2")
    from symbolic.evidence.rules import derive

    with pytest.raises(ValueError, match="not a value of n"):  # and 0 is not odd
        derive("inst", [sympy.Ne(n, 0, evaluate=False)], sympy.Tuple(sympy.Tuple(n, 0)))

    twice = tmp_path / "twice"
    twice.mkdir()
    x = sympy.Symbol("x", real=True)
    d1 = fact_node("s1", sympy.Eq(x, 1, evaluate=False), "definition", kind="definition")
    d2 = fact_node("s2", sympy.Eq(x, 2, evaluate=False), "definition", kind="definition")
    u1 = _rule_node("s3", sympy.Eq(x, 1, evaluate=False), "unfold", ["s1"], x)
    u2 = _rule_node("s4", sympy.Eq(x, 2, evaluate=False), "unfold", ["s2"], x)
    s5 = _rule_node("s5", sympy.Eq(1, x, evaluate=False), "symm", ["s3"], sympy.Tuple())
    s6 = _rule_node("s6", sympy.Eq(1, 2, evaluate=False), "trans", ["s5", "s4"], sympy.Tuple())
    for node_ in (u1, u2, s5, s6):
        if node_["kernel_rule"] in ("symm", "trans"):
            node_["detail_srepr"] = None
    write_export(twice, [d1, d2, u1, u2, s5, s6], statement=s6, rests_on=())
    rows, code, _ = rc.recheck(twice)
    assert code == rc.EXIT_DISAGREE
    assert "twice" in next(r.answer for r in rows if r.node == "s6")


def test_a_claim_with_two_facts_of_one_id_disagrees(copy):
    def twin(data):
        data["claims"][0]["steps"][1]["id"] = data["claims"][0]["steps"][0]["id"]

    reseal(copy, twin)
    rows, code, _ = rc.recheck(copy)
    assert code == rc.EXIT_DISAGREE
    assert any("two facts of the claim have the id" in r.answer for r in rows)


def test_the_smt_reading_of_a_division_is_the_kernels():
    """∃y: 1/y = 0 is false (the guard y ≠ 0 sits inside ∃, not around the atom); 1/(1 − 1)
    and two symbols printed as one name are outside the fragment."""
    from symbolic.evidence.solvers import run_z3
    from symbolic.kernel import Exists

    y = sympy.Symbol("y", real=True)
    no_root = Exists((y,), sympy.Eq(sympy.Pow(y, -1, evaluate=False), 0, evaluate=False))
    assert run_z3(smt_obligation(no_root)) == "sat"
    zero = sympy.Pow(sympy.Add(1, -1, evaluate=False), -1, evaluate=False)
    assert smt_obligation(sympy.Eq(zero, 5, evaluate=False)) is None
    xp = sympy.Symbol("x", positive=True)
    assert smt_obligation(sympy.Eq(xp, x)) is None  # (the kernel's ForAll now refuses this)
    identity = sympy.Eq(x / (x - 1), 1 + 1 / (x - 1))  # claimed where x ≠ 1: holds
    assert run_z3(smt_obligation(identity)) == "unsat"


def test_witnesses_and_rules_read_every_assumption():
    from fractions import Fraction

    from symbolic.evidence.numbers import satisfies
    from symbolic.evidence.rules import derive

    p = sympy.Symbol("p", prime=True)
    assert not satisfies(p, Fraction(4)) and satisfies(p, Fraction(7))
    c, k = sympy.Symbol("c", real=True), sympy.Symbol("k", integer=True)
    with pytest.raises(ValueError, match="unfold: a binder captures"):
        derive("unfold", [sympy.Eq(c, k)], sympy.Sum(c, (k, 1, 3)))


def test_a_spot_check_samples_integers_beyond_the_few_near_zero():
    from symbolic.evidence.spot_checks import spot_check

    n = sympy.Symbol("n", integer=True, positive=True)
    assert spot_check(sympy.Eq(sympy.Min(n, 3), n, evaluate=False))[0] == "DISAGREES"


# -- round 4 (session 11): the re-check's numbers and certificates ----------------------------


def test_an_infinite_or_outsized_enclosure_is_not_a_number():
    """mpmath's to_rational reads ±∞ as 0: 1/(x − x + 1)-style poles decided ≤ 0 from [0, 0]."""
    from mpmath import iv

    from symbolic.evidence.numbers import NotEnclosed, _moderate, enclose, end_points

    with pytest.raises(NotEnclosed, match="infinite"):
        end_points(iv.mpf(1) / iv.mpf([-1, 1]))
    with pytest.raises(NotEnclosed, match="too large"):  # sin(2^(10^256/3)) ran for ever
        _moderate(iv.mpf(2) ** 5000)
    assert enclose(sympy.sin(sympy.Integer(3)), ">")[0] is True
    assert end_points(iv.mpf([1, 2])) == (1, 2)


def test_a_witness_gives_values_to_symbols_never_to_entries():
    from symbolic.evidence.certificates import check_witness

    X = sympy.IndexedBase("x")
    same_entry = sympy.Eq(X[sympy.Add(0, 1, evaluate=False)], X[1], evaluate=False)
    point = {str(s): "1" for s in same_entry.free_symbols}
    outcome, _ = check_witness(same_entry, point, {}, read_formula)
    assert outcome == "DISAGREES"


def test_no_degree_reads_only_the_kernels_shape():
    """α positive and z real, nothing more: a positive z (u = −1 plugged in) or an integer α
    (α = 1/2 plugged in) is not that shape."""
    from symbolic.evidence.certificates import degree_form
    from symbolic.kernel import Exists, ForAll

    p = sympy.Symbol("p", real=True)
    alpha = sympy.Symbol("alpha", positive=True)
    for z in (sympy.Symbol("z", real=True), sympy.Symbol("z", positive=True)):
        body = sympy.Eq(alpha * z, sympy.Mul(sympy.Pow(alpha, p, evaluate=False), z))
        shape = degree_form(
            Exists(
                (p,),
                ForAll(
                    (alpha, z), body, sympy.Tuple(sympy.Interval.open(0, sympy.oo), sympy.S.Reals)
                ),
            )
        )
        assert (shape is not None) == (not z.is_positive)


def test_cong_reads_no_fixed_name_as_an_index(tmp_path):
    k, h = sympy.Symbol("k", integer=True), sympy.Symbol("h")
    hyp = fact_node("s1", sympy.Eq(k, 1, evaluate=False), "assumption", kind="assumption")
    context = sympy.Lambda(h, sympy.Sum(h, (k, 1, 3)))
    six_is_three = sympy.Eq(sympy.Sum(k, (k, 1, 3)), sympy.Sum(1, (k, 1, 3)), evaluate=False)
    forged = _rule_node("s2", six_is_three, "cong", ["s1"], context)
    write_export(tmp_path, [hyp, forged], rests_on=[hyp["formula"]], statement=forged)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert "cong over k" in next(r.answer for r in rows if r.node == "s2")
