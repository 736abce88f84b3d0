"""Issues 16, 25: `python -m proofs --smt2 DIR` exports the obligations and a manifest,
`--recheck DIR` re-checks them from the files alone.

One export of the real ``reduction`` module (two Z3 benchmarks, SMT obligations, sign
certificates, spot checks) is shared; each test copies it before corrupting a file. The cvc5
parts skip without ``cvc5``. The hostile cases are in tests/soundness/test_hostile_certificates.py.
"""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import proofs.__main__ as cli
from symbolic.evidence import fact_checks
from symbolic.evidence import recheck as rc
from symbolic.evidence.benchmarks import digest
from symbolic.evidence.manifest import (
    CERT_SCHEMA,
    MANIFEST_NAME,
    MANIFEST_SCHEMA,
    RECORD_NAME,
    Checks,
)
from symbolic.evidence.solvers import cvc5_available, run_cvc5, run_z3

pytestmark = pytest.mark.xdist_group("smt2-export")  # one worker builds the exported run

needs_cvc5 = pytest.mark.skipif(
    not cvc5_available(), reason="cvc5 not installed (pip install -e '.[smt]')"
)


@pytest.fixture(scope="module")
def run_and_export(tmp_path_factory) -> tuple[Path, dict]:
    """``python -m proofs --only reduction --json --smt2 DIR``, in this process."""
    from symbolic.evidence.export import export

    out = tmp_path_factory.mktemp("smt2")
    runs = cli.check(cli.select(cli.discover(), ["reduction"]))
    answers = export(runs, out).answers
    return out, cli.json_report(runs, 0.0, answers=answers)


@pytest.fixture(scope="module")
def exported(run_and_export) -> Path:
    return run_and_export[0]


def test_the_command_line_exports(tmp_path, capsys):
    assert cli.main(["--only", "absorption", "--smt2", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert re.search(
        r"wrote 0 Z3 benchmarks, \d+ SMT obligations, \d+ certificates and \d+ "
        r"spot checks for \d+ facts to .*, with manifest.json",
        err,
    )
    assert json.loads((tmp_path / "manifest.json").read_text())["schema"] == MANIFEST_SCHEMA


def test_json_says_how_each_claim_is_backed(run_and_export):
    from tests.proofs.test_main import documented_schema, validate

    doc = run_and_export[1]
    schema = documented_schema()
    assert validate(doc, schema, schema) == []
    claim = doc["claims"]["reduction.gated_iff_linear"]
    assert [a["z3"] for a in claim["solvers"]] == ["unsat", "unsat"]
    assert claim["backing"].startswith("z3+cvc5" if cvc5_available() else "z3,")
    assert {c["backing"] for c in doc["claims"].values()} >= {"sympy"}


@pytest.fixture
def copy(exported, tmp_path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(exported, target)
    return target


def smt2_files(d: Path) -> list[Path]:
    """Z3's own benchmarks (``.obl.smt2``: formulas printed by the export)."""
    return sorted(f for f in d.rglob("*.smt2") if not f.name.endswith(".obl.smt2"))


def cert_files(d: Path) -> list[Path]:
    return sorted(d.rglob("*.cert.json"))


def claim_of(f: Path) -> str:
    """The claim an exported file belongs to (``reduction.activations.s07.p1.cert.json``)."""
    return re.match(r"(.+?)\.s\d+\.", f.name).group(1)


def test_export_writes_self_contained_benchmarks(exported):
    files = smt2_files(exported)
    assert len(files) == 2 and len(cert_files(exported)) >= 10
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert text.startswith("; transformer-proofs obligation: module reduction, claim ")
        assert "(set-logic ALL)" in text and "set-info" not in text  # the answer: manifest
        assert "(declare-fun sigma (Real) Real)" in text
        assert text.rstrip().endswith("(check-sat)\n(exit)")
        assert run_z3(text) == "unsat"


@needs_cvc5
def test_cvc5_agrees_on_the_exported_files(exported):
    for f in smt2_files(exported):
        assert run_cvc5(f.read_text(encoding="utf-8")) == "unsat", f.name


def test_certificates_are_exact_data(exported):
    from symbolic.evidence.formula_reader import read_formula

    for f in cert_files(exported):
        cert = json.loads(f.read_text(encoding="utf-8"))
        assert cert["schema"] == CERT_SCHEMA and cert["expected"] in ("proved", "refuted")
        read_formula(cert["formula_srepr"])  # the formula itself, readable
        if "enclosure" in cert:
            lo, hi = (Fraction(cert["enclosure"][k]) for k in ("lo", "hi"))
            assert lo < hi and (lo > 0 or hi < 0)
        elif "value" in cert:  # the comparison itself: lhs − rhs is 0 only for an equation
            assert (Fraction(cert["value"]) == 0) == cert["formula_srepr"].startswith("Equality")


@needs_cvc5
def test_recheck_reproduces_every_verdict(exported, capsys):
    # --z3-timeout caps the re-check's Z3 too: the one obligation Z3 cannot decide (cvc5 does)
    # costs 2 s, not Z3_TIMEOUT_MS
    assert cli.main(["--recheck", str(exported), "--z3-timeout", "2000"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"8 claims .* \d+ facts — proved \d+ \(by a second engine \d+\)", out)
    assert "z3-benchmark 2" in out and "71 of 71 checked facts exported (100%)" in out
    assert "0 disagreements" in out and "DISAGREES" not in out


def test_a_flipped_goal_is_a_disagreement(copy):
    target = smt2_files(copy)[0]
    text = target.read_text(encoding="utf-8")
    flipped = re.sub(r"\(not (\$x\d+)\)", r"\1", text)
    assert flipped != text
    target.write_text(flipped, encoding="utf-8")
    from symbolic.limits import limits

    with limits(z3_timeout_ms=2000):
        rows, code, _ = rc.recheck(copy, only=[claim_of(target)])
    bad = [r for r in rows if not r.ok and r.check != "claim"]  # the claim's row inherits it
    name = target.relative_to(copy).as_posix()
    assert code == rc.EXIT_DISAGREE and [r.files for r in bad if r.files] == [(name,), (name,)]
    assert "changed since the export" in bad[0].answer and bad[1].z3 == "sat"


def test_only_some_claims_are_rechecked_and_every_digest_all_the_same(copy, capsys):
    """``--recheck DIR --only NAME``: the named claims (by claim or module) are re-checked, a
    changed file anywhere is still a disagreement, an unknown name is a usage error."""
    rows, code, _ = rc.recheck(copy, only=["reduction.activations"])
    agreed = rc.EXIT_OK if cvc5_available() else rc.EXIT_UNKNOWN  # no second solver: unknown
    assert code == agreed and {r.claim for r in rows} == {"reduction:reduction.activations"}
    other = next(f for f in smt2_files(copy) if claim_of(f) != "reduction.activations")
    other.write_text(other.read_text(encoding="utf-8") + " ", encoding="utf-8")
    rows, code, _ = rc.recheck(copy, only=["reduction.activations"])
    assert code == rc.EXIT_DISAGREE and any("changed since the export" in r.answer for r in rows)
    assert cli.main(["--recheck", str(copy), "--only", "reduction.activations"]) == 1
    assert "DISAGREES" in capsys.readouterr().out
    assert cli.main(["--recheck", str(copy), "--only", "no.such.claim"]) == 2
    assert "neither a module nor a claim" in capsys.readouterr().err


def test_a_corrupted_certificate_is_a_disagreement(copy):
    target = next(f for f in cert_files(copy) if "enclosure" in json.loads(f.read_text()))
    cert = json.loads(target.read_text(encoding="utf-8"))
    lo, hi = (Fraction(cert["enclosure"][k]) for k in ("lo", "hi"))
    cert["enclosure"] = {"lo": str(-hi), "hi": str(-lo), "bits": 64}  # the sign flipped
    target.write_text(json.dumps(cert), encoding="utf-8")
    rows, code, _ = rc.recheck(copy, only=[claim_of(target)])
    assert code == rc.EXIT_DISAGREE
    name = target.relative_to(copy).as_posix()
    inherited = ("claim", Checks.NEGATION)  # the ¬F resting on it, and its claim
    assert {r.files for r in rows if not r.ok and r.check not in inherited and r.files} == {(name,)}


def test_without_cvc5_the_second_check_is_not_a_pass(exported, monkeypatch):
    from symbolic.evidence import solvers as rk

    monkeypatch.setattr(rk, "cvc5_available", lambda: False)
    rows, code, versions = rc.recheck(exported, only=["reduction.activations"])
    assert code == rc.EXIT_UNKNOWN and versions["cvc5"] == "not installed"
    assert all(r.ok for r in rows)


def test_recheck_of_an_empty_or_missing_directory(tmp_path):
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE  # no manifest: nothing is bound
    assert cli.main(["--recheck", str(tmp_path / "missing")]) == 2


@pytest.mark.parametrize("bound, ok", [(2, True), (1, False)])
def test_a_bound_is_rebisected(bound, ok):
    """``∀ x ∈ [0, 1]: exp(x) − x < bound``: re-checked by a bisection of the re-check's own
    (true for bound 2; for bound 1 it fails at x = 0 and is not a pass)."""
    from symbolic.evidence.certificates import check_bound
    from symbolic.kernel import ForAll

    x = sympy.Symbol("x", real=True)
    f = ForAll((x,), sympy.Lt(sympy.exp(x) - x, bound, evaluate=False), sympy.Interval(0, 1))
    outcome, text = check_bound(f)
    assert (outcome == "proved") is ok, text


@pytest.mark.parametrize(
    "value, ok", [(sympy.Rational(7, 5), True), (sympy.Rational(-3, 7), False)]
)
def test_a_point_refutation_is_exported_and_its_domain_rechecked(value, ok):
    """check_equal's refutation at a point becomes a certificate; the re-check evaluates it
    and refuses a witness outside the symbol's domain (t > 0), whatever the value there."""
    from symbolic.evidence.certificates import check_witness
    from symbolic.evidence.export import certificate
    from symbolic.evidence.formula_reader import read_formula
    from symbolic.kernel import check_equal

    t = sympy.Symbol("t", positive=True)
    fact = check_equal(sympy.exp(t), 1 + t)
    cert = certificate(fact)
    assert fact.refuted and cert["point"] == {"t": sympy.srepr(sympy.Rational(7, 5))}
    cert["point"] = {"t": sympy.srepr(value)}  # a tampered witness must not pass
    outcome, text = check_witness(
        read_formula(cert["formula_srepr"]), cert["point"], cert, read_formula
    )
    assert (outcome == "refuted") is ok, text
    if not ok:
        assert "outside the domain" in text


def test_certificate_formulas_round_trip():
    from symbolic.evidence.formula_reader import read_formula

    x = sympy.Symbol("x", real=True)
    for e in (
        sympy.exp(x) - sympy.Rational(3, 7) * sympy.erf(2) + sympy.pi,
        sympy.Max(0, x),
        sympy.Piecewise((x, x > 0), (0, True)),
        sympy.Interval.open(0, sympy.oo),
    ):
        assert sympy.srepr(read_formula(sympy.srepr(e))) == sympy.srepr(e)


# -- the remaining parts of issue 16: cvc5's strategies, module commands, backing ----------------


def test_the_manifest_names_only_strategies_of_the_portfolio():
    from symbolic.evidence.solvers import strategy_options

    assert strategy_options("--nl-cov") == (("nl-cov", "true"),)
    assert strategy_options("") == ()
    assert strategy_options("--dump-models") is None  # not a strategy: refused


def test_the_portfolio_tries_the_header_strategy_then_quick_then_full(monkeypatch):
    from symbolic.evidence import solvers as rk

    calls = []

    full = rk.CVC5_PORTFOLIO_UNITS

    def fake(text, units, options=()):
        calls.append((options, units))
        return "unsat" if options == (("nl-cov", "true"),) and units == full else "unknown"

    monkeypatch.setattr(rk, "run_cvc5", fake)
    assert rk.run_cvc5_portfolio("", first=(("mbqi", "true"),)) == ("unsat", "--nl-cov")
    quick = [(o, rk.CVC5_QUICK_UNITS) for o in rk.CVC5_PORTFOLIO]
    upto = rk.CVC5_PORTFOLIO[: rk.CVC5_PORTFOLIO.index((("nl-cov", "true"),)) + 1]
    assert calls == [((("mbqi", "true"),), full), *quick, *[(o, full) for o in upto]]
    monkeypatch.setattr(rk, "run_cvc5", lambda *a, **k: "unknown")
    assert rk.run_cvc5_portfolio("") == (
        "unknown",
        "defaults, --enum-inst, --mbqi, --nl-cov, --nl-cov --nl-ext=none",
    )
    for options in rk.CVC5_PORTFOLIO:  # the manifest's name of a strategy reads back as it
        assert rk.strategy_options(rk.strategy_name(options)) == options


def degree_one_run():
    """``scaling.degree_one`` alone, as ``python -m proofs --only scaling`` would export it."""
    from proofs._cli import ModuleRun
    from proofs.scaling import CLAIMS, degree_one_derivation
    from symbolic.engine import Report, Result

    report = Report(
        "proofs.scaling", "Scaling", "A7", (Result(CLAIMS["degree1"], degree_one_derivation()),)
    )
    return ModuleRun("scaling", report)


@needs_cvc5
def test_cvc5_decides_degree_one_step_4_by_its_coverings_solver(tmp_path, monkeypatch):
    """The obligation cvc5 left unknown (nonlinear after instantiation): --nl-cov decides it,
    the exported header records the strategy, and the re-check from the file agrees. (cvc5's
    defaults spend their resource limit on it — the real portfolio tries them first, see the
    portfolio test — so this test offers cvc5 the coverings strategy alone, and no proofs.)"""
    from symbolic.evidence import solvers as rk
    from symbolic.evidence.export import export
    from symbolic.evidence.formula_reader import read_formula

    monkeypatch.setattr(rk, "CVC5_PORTFOLIO", ((("nl-cov", "true"),),))
    monkeypatch.setattr(rk, "_STRATEGY", {"--nl-cov": (("nl-cov", "true"),)})
    monkeypatch.setattr(rk, "cvc5_proof", lambda *a, **k: None)
    answers = export([degree_one_run()], tmp_path).answers
    step4 = answers[("scaling", "scaling.degree_one", 4, ())]
    assert (step4["z3"], step4["cvc5"], step4["cvc5_options"]) == ("unsat", "unsat", "--nl-cov")
    target = tmp_path / "scaling" / "scaling.degree_one.s04.smt2"
    text = target.read_text(encoding="utf-8")
    assert "; cvc5 options: --nl-cov\n(set-logic ALL)" in text  # a comment, for a reader
    step6 = next(
        s
        for s in json.loads((tmp_path / MANIFEST_NAME).read_text())["claims"][0]["steps"]
        if s["id"] == "s4"
    )
    entry = next(o for o in step6["obligations"] if o["role"] == Checks.Z3)
    assert entry["cvc5_strategy"] == "--nl-cov"  # the manifest's, tried first by the re-check
    ctx = fact_checks.Context(
        tmp_path, True, json.loads((tmp_path / MANIFEST_NAME).read_text())["files"]
    )
    step6["_formula"] = read_formula(step6["formula_srepr"])
    row = fact_checks._smt_row(
        ctx, "scaling.degree_one", step6, entry, step6["_formula"], Checks.Z3
    )
    assert row.outcome == "proved" and row.cvc5 == "unsat" and row.cvc5_options == "--nl-cov"


def tiny_report(**_):
    """A module with one claim resting on Z3 and SymPy (the module command tests' double)."""
    import sympy

    from symbolic.engine import Claim, Derivation, Report, Result
    from symbolic.steps import equal_step, z3_step

    a = sympy.Symbol("a", real=True)
    x_pos = z3_step(lambda z3: z3.Implies(z3.Real("x") > 1, z3.Real("x") > 0), note="x > 1 ⇒ x > 0")
    twice = equal_step(sympy.Add(a, a, evaluate=False), 2 * a, "expand")
    steps = Derivation((twice, x_pos))
    claim = Claim("tiny.positive", "positive", "x > 1 ⇒ x > 0", "A6", statement=x_pos.formula)
    return Report("proofs.tiny", "Tiny", "A6", (Result(claim, steps),))


def test_a_module_command_exports_shows_the_backing_and_rechecks(tmp_path, capsys):
    from proofs._cli import run

    out, prog = tmp_path / "out", "python -m proofs.tiny"
    assert run(tiny_report, "Tiny.", prog, argv=["--smt2", str(out)]) == 0
    text, err = capsys.readouterr()
    assert (
        f"{prog}: wrote 1 Z3 benchmarks, 2 SMT obligations, 0 certificates and 0 spot "
        f"checks for 2 facts to {out}" in err
    )
    assert ("backed by z3+cvc5, sympy" if cvc5_available() else "backed by z3, sympy") in text
    assert [f.relative_to(out).as_posix() for f in smt2_files(out)] == [
        "tiny/tiny.positive.s02.smt2"
    ]
    assert run(tiny_report, "Tiny.", prog, argv=[]) == 0
    assert "backed by z3, sympy" in capsys.readouterr().out  # no second solver: says what ran

    def must_not_build(**_):
        raise AssertionError("--recheck runs no theorem")

    code = run(must_not_build, "Tiny.", prog, argv=["--recheck", str(out)])
    assert code == (0 if cvc5_available() else 3)
    assert f"{prog} --recheck: 1 claims" in capsys.readouterr().out

    # the re-check's record backs a later run without cvc5 running again — while it holds
    # this very obligation
    assert run(tiny_report, "Tiny.", prog, argv=["--rechecked", str(out)]) == 0
    assert (
        "backed by z3+cvc5, sympy" if cvc5_available() else "backed by z3, sympy"
    ) in capsys.readouterr().out
    record = out / RECORD_NAME
    data = json.loads(record.read_text(encoding="utf-8"))
    data["obligations"][0]["digest"] = "0" * 64  # another benchmark's
    record.write_text(json.dumps(data), encoding="utf-8")
    assert run(tiny_report, "Tiny.", prog, argv=["--rechecked", str(out)]) == 0
    assert "backed by z3, sympy" in capsys.readouterr().out
    record.unlink()
    assert run(tiny_report, "Tiny.", prog, argv=["--rechecked", str(out)]) == 2
    err = capsys.readouterr().err
    assert "recheck.json: cannot read a re-check record" in err and "Traceback" not in err


def test_a_module_commands_json_carries_backing_and_solvers(tmp_path, capsys):
    from proofs._cli import run
    from tests.proofs.test_main import documented_schema, validate

    assert run(tiny_report, "Tiny.", "p", argv=["--json", "--smt2", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = documented_schema()
    result = doc["results"][0]
    assert validate(result, {"$ref": "#/$defs/result"}, schema) == []
    assert [a["z3"] for a in result["solvers"]] == ["unsat"]
    assert result["backing"] == ("z3+cvc5, sympy" if cvc5_available() else "z3, sympy")


def test_smt2_into_a_folder_that_cannot_be_made_is_bad_usage(tmp_path, capsys):
    from proofs._cli import run

    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:  # argparse's exit, before any work
        run(tiny_report, "Tiny.", "p", argv=["--smt2", str(blocker / "sub")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--smt2" in err and "Traceback" not in err


BENCHMARK = """; a comment
(declare-fun sigma (Real) Real)
(declare-fun x () Real)
(assert (let (($x1 (= (sigma x) x))) (let ((?x2 (* 2.0 x))) (not (=> $x1 (= (sigma x) ?x2))))))
(check-sat)
"""


@given(
    st.permutations(["(declare-fun sigma (Real) Real)", "(declare-fun x () Real)"]),
    st.integers(3, 10**6),
    st.integers(3, 10**6),
)
def test_a_digest_ignores_let_names_declaration_order_and_comments(decls, n1, n2):
    """Z3 names and shares let-terms by its own term ids: the digest sees through that, and
    through the order of declarations, but not through a change of the obligation."""
    renamed = BENCHMARK.replace("$x1", f"$x{n1}").replace("?x2", f"?x{n2}")
    head = "; another header\n" + "\n".join(decls) + "\n"
    shuffled = head + "\n".join(renamed.splitlines()[3:]) + "\n"
    inlined = head + "(assert (not (=> (= (sigma x) x) (= (sigma x) (* 2.0 x)))))\n(check-sat)\n"
    assert digest(shuffled) == digest(BENCHMARK) == digest(inlined)
    assert digest(BENCHMARK.replace("2.0", "3.0")) != digest(BENCHMARK)
