"""A claim is proved only as its statement formula (issue 23): what a reviewer tried.

* a claim titled "P = NP" whose one step is a proved ``a + a = 2a``;
* a claim whose statement is ``1 = 2`` and whose step is ``x = x``;
* a claim that re-uses another claim's steps;
* steps with identical sides, and a chain that ends elsewhere;
* admitted facts propagating through ``uses`` and ``--strict``.
"""

from __future__ import annotations

import pytest
import sympy

from symbolic.calc import Calc
from symbolic.engine import Claim, Derivation, Result, Step, resolve_uses
from symbolic.kernel import assume, check_equal, check_nonzero

a, x = sympy.symbols("a x", real=True)
P, NP = sympy.symbols("P NP", real=True)


def result(statement, *steps, name="t.claim", uses=()):
    return Result(
        Claim(name, "title", "prose", "A1", uses=uses, statement=statement),
        Derivation(tuple(steps)),
    )


def test_p_equals_np_is_not_proved_by_an_unrelated_step():
    step = Step(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), "arithmetic")
    assert step.verdict.status == "proved"
    r = result(sympy.Eq(P, NP), step)
    assert r.status == "failed" and "not the claim's statement" in r.reason
    assert r.strict_status() == "failed"


def test_a_prose_only_claim_is_never_proved():
    r = result(None, Step(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), "arithmetic"))
    assert r.status == "failed" and "no statement formula" in r.reason


def test_one_equals_two_with_an_identical_sides_step_fails():
    same = Step(check_equal(x, x), "reflexivity")
    r = result(sympy.Eq(sympy.Integer(1), sympy.Integer(2), evaluate=False), same)
    assert r.status == "failed"
    r2 = result(sympy.Eq(x, x, evaluate=False), same)
    assert r2.status == "failed" and "relates a formula to itself" in r2.reason


def test_the_statement_proved_by_its_last_step():
    statement = sympy.Eq((a + 1) ** 2, a * (a + 2) + 1, evaluate=False)
    steps = Calc((a + 1) ** 2).eq(a**2 + 2 * a + 1, "expand").eq(a * (a + 2) + 1, "factor").steps()
    assert result(statement, *steps).status == "proved"
    # the same steps do not prove a claim with another statement, nor one with a sign changed
    other = sympy.Eq((a + 1) ** 2, a * (a + 2) - 1, evaluate=False)
    assert result(other, *steps).status == "failed"
    # nor do they prove it when the chain is cut before its end
    assert result(statement, *steps[:-1]).status == "failed"


def test_refuted_only_by_the_statement_itself():
    wrong = Step(check_equal(2 * a, a + 1), "expand")
    assert wrong.verdict.status == "refuted"
    assert result(sympy.Eq(2 * a, a + 1, evaluate=False), wrong).status == "refuted"
    assert result(sympy.Eq(P, NP), wrong).status == "failed"


def test_refuted_by_its_proved_negation():
    from symbolic.kernel import check_compare

    statement = sympy.Gt(sympy.pi, sympy.Rational(22, 7), evaluate=False)
    neg = Step(check_compare(sympy.pi, "<", sympy.Rational(22, 7)), "intervals")
    assert result(statement, neg).status == "failed"  # π < 22/7 is not written as ¬(π > 22/7)
    from symbolic.kernel import negate

    flipped = Step(negate(check_compare(sympy.pi, ">", sympy.Rational(22, 7))), "negation")
    if isinstance(flipped.formula, sympy.Not) and flipped.formula.args[0] == statement:
        assert result(statement, flipped).status == "refuted"


def test_a_closed_statement_by_a_certificate():
    step = Step(check_nonzero(sympy.exp(1) - sympy.Rational(2718, 1000)), "intervals")
    assert result(step.formula, step).status == "proved"


def test_admitted_facts_propagate_through_uses():
    hyp = Step(assume("regularity", sympy.Eq(P, NP)), "assumption")
    base = result(sympy.Eq(P, NP), hyp, name="t.base")
    fine = Step(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), "arithmetic")
    user = result(fine.formula, fine, name="t.user", uses=("t.base",))
    second = result(fine.formula, fine, name="t.second", uses=("t.user",))
    resolved = {r.claim.name: r for r in resolve_uses([base, user, second])}
    for name in ("t.base", "t.user", "t.second"):
        r = resolved[name]
        assert r.status == "proved" and r.strict_status() == "unknown", name
        assert [s.statement for s in r.assumptions] == [base.assumptions[0].statement]
    assert resolved["t.second"].assumptions[0].via == "t.base"


def test_a_claim_using_an_unproved_claim_is_not_proved():
    bad = result(
        sympy.Eq(P, NP),
        Step(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), "x"),
        name="t.bad",
    )
    fine = Step(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), "arithmetic")
    user = result(fine.formula, fine, name="t.user", uses=("t.bad",))
    resolved = {r.claim.name: r for r in resolve_uses([bad, user])}
    assert resolved["t.user"].status == "unknown"
    assert "uses t.bad" in resolved["t.user"].reason


# -- the toolkit's own claims ------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_reports_all():
    import shared_reports

    return [r.report for r in shared_reports.runs() if r.report is not None]


def test_every_claim_of_the_toolkit_is_its_statement(shared_reports_all):
    """Every claim states a formula, its last step's fact is that formula, and no step of any
    derivation relates a formula to itself (what -v, --latex, --html and --json show)."""
    results = [r for rep in shared_reports_all for r in rep.results]
    assert len(results) >= 100
    missing = [r.claim.name for r in results if r.claim.statement is None]
    assert not missing, missing
    empty = [(r.claim.name, i) for r in results for i in r.derivation.empty_steps]
    assert not empty, empty
    elsewhere = [
        r.claim.name
        for r in results
        if r.status == "proved" and r.derivation.steps[-1].formula != r.claim.statement
    ]
    assert not elsewhere, elsewhere
    assert all(r.status == "proved" for r in results), [
        (r.claim.name, r.status, r.reason) for r in results if r.status != "proved"
    ]
