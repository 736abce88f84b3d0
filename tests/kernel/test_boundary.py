"""The forgeries of issue 10 are impossible, and what is shown is what was checked."""

from __future__ import annotations

import dataclasses
import sys
import textwrap

import pytest
import sympy

from symbolic.engine import Claim, Derivation, Result, Step
from symbolic.kernel import Fact, KernelViolation, Verdict, check_equal, define
from symbolic.steps import equal_step

a = sympy.Symbol("a", real=True)


def test_a_verdict_cannot_be_made_outside_the_kernel():
    with pytest.raises(KernelViolation):
        Verdict("proved", "z3")
    assert not hasattr(Verdict, "proved")  # no factory classmethods either


def test_a_proved_verdict_cannot_be_copied_into_a_new_status():
    v = check_equal(sympy.Integer(1), sympy.Integer(2)).verdict
    assert v.status == "refuted"
    with pytest.raises(KernelViolation):
        dataclasses.replace(v, status="proved")


def test_a_fact_cannot_be_made_outside_the_kernel():
    good = check_equal(a, a)
    with pytest.raises(KernelViolation):
        Fact(sympy.Eq(1, 2, evaluate=False), good.verdict)
    with pytest.raises(KernelViolation):
        dataclasses.replace(good, formula=sympy.Eq(1, 2, evaluate=False))


def test_forgery_1_a_step_from_prose_and_a_verdict_raises():
    with pytest.raises(KernelViolation, match="a step is a kernel Fact"):
        Step("1 = 2", "arithmetic", check_equal(a, a).verdict)


def test_forgery_2_prose_is_no_longer_a_statement():
    with pytest.raises(TypeError):
        equal_step(a, a, "arithmetic", "1 = 2")  # the statement argument is gone
    step = equal_step(a, a, "arithmetic", note="1 = 2")
    assert step.statement == "a = a"  # shown: the checked formula; the prose is only a note
    assert step.note == "1 = 2" and step.to_json()["statement"] == "a = a"


def test_definitions_are_shown_and_never_counted_as_proved():
    c = sympy.Symbol("c")
    d = Derivation((Step(define(c, sympy.Integer(3)), "name it"),))
    assert d.steps[0].statement == "c := 3" and d.steps[0].kind == "definition"
    assert d.verdict.status == "unknown"  # a derivation of definitions only proves nothing
    with pytest.raises(ValueError):
        define(c, c + 1)


def test_a_claim_formula_must_be_a_proved_step():
    twice = sympy.Add(a, a, evaluate=False)
    f = sympy.Eq(twice, 2 * a, evaluate=False)
    claim = Claim("t.c", "t", "a + a = 2a", "A1", statement=f)
    other = Result(claim, Derivation((equal_step(sympy.Mul(a, 1, evaluate=False), a, "x"),)))
    assert other.status == "failed"
    same = Result(claim, Derivation((Step(check_equal(twice, 2 * a), "x"),)))
    assert same.status == "proved"


FORGED = textwrap.dedent('''
    """A module that tries to print 1 = 2 as proved."""
    from symbolic.engine import Claim, Derivation, Report, Result, Step, Verdict

    def build_report():
        step = Step("1 = 2", "arithmetic", Verdict("proved", "z3"))
        return Report("forged", "Forged", "A1",
                      (Result(Claim("forged.c", "t", "1 = 2", "A1"), Derivation((step,))),))
''')


def test_python_m_proofs_fails_naming_a_forging_module(tmp_path, capsys, monkeypatch):
    from proofs.__main__ import main

    pkg = tmp_path / "forgedpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "forged.py").write_text(FORGED)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    package = importlib.import_module("forgedpkg")
    try:
        code = main([], package=package)
    finally:
        sys.modules.pop("forgedpkg", None)
        sys.modules.pop("forgedpkg.forged", None)
    out = capsys.readouterr()
    assert code == 1
    assert "forged" in out.out and "KernelViolation" in out.out + out.err
    assert "✓ proved" not in out.out.split("Theorem modules")[-1].split("forged")[1][:40]


def test_rational_bounds_keep_sign_and_every_bit():
    """Enclosure.rational_bounds: exact end points that still enclose (issue 16 found it
    dropping the sign and rounding to 53 bits)."""
    import sympy

    from symbolic.kernel import tight_enclosure

    value = -sympy.sqrt(2) / 3
    enc = tight_enclosure(value)
    lo, hi = enc.rational_bounds()
    assert lo < hi < 0
    assert lo <= value <= hi
    assert hi - lo < sympy.Rational(1, 2**55)
