"""Red-team round 12: tampered exports that re-checked as a pass.

* **An assumption "refuted".** The kernel admits an assumption or oracle result as asserted
  (status proved) and negates only a checked fact. A manifest whose part ``F = ∀z ∈ ℝ:
  max(0, z) ≥ 0`` (true) is an assumption with status ``refuted`` made ``¬F`` pass as
  ``admitted``; with a proved fact beside it, ``conj`` proved the false ``¬F ∧ 1 ≠ 0`` —
  exit 0, resting on the admitted fact it lists as ``F``, the very formula it denies. An
  admitted fact must now be ``proved``, and a negation of an admitted part disagrees.
* **A rule step's status ignored.** ``conj`` of two proved facts with status ``refuted`` (the
  kernel's rules prove or leave unknown, never refute) re-checked ``proved``: what the
  manifest claims was not what was checked. Now a disagreement; ``unknown`` stays unknown.
* **The re-check's own keys in a step.** The re-check keeps a fact's conditions in the node
  under ``"_conditions"``; a step that brought ``"_conditions": null`` switched off the
  conditions (vacuity) check, and ``1 = 0`` (every step claimed where ``D ≠ 0``, D zero
  everywhere: round 11) re-checked ``proved``, exit 0. Keys starting with ``_`` are refused.
* **A certificate that says something else.** The re-check read a certificate's
  ``formula_srepr`` and value, never its schema, its formula text or its expectation: a file
  reading ``Ne(1, 1)``, ``expected: refuted`` or of another schema over the ``srepr`` of
  ``1 ≠ 0`` passed. What a file says must be its formula and the fact's status. Its value was
  read with ``\\d``, which takes every script's digits (``１/１``): ASCII digits only.
* **σ's random stand-in had a linear odd part.** ``exp(σ(x) − σ(−x)) = exp(x·(σ(1) −
  σ(−1)))`` holds for every ``c0 + c1·s + c2·s² + c3/(1 + s²)`` and is false for σ(z) = z³
  (at x = 2: e¹⁶ ≠ e⁴): spot-checked, exit 0. The bump is now off-centre (``1 + (s − t)²``).
"""

from __future__ import annotations

import json

import pytest
import sympy
from forged_exports import fact_node, one_is_zero_rules, write_export, zero_everywhere
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.manifest import CERT_SCHEMA, MANIFEST_NAME, SPOT_SCHEMA, Checks
from symbolic.evidence.spot_checks import spot_check
from symbolic.evidence.spot_relations import relation_spot_check
from symbolic.kernel import ForAll

pytestmark = pytest.mark.xdist_group("hostile-certificates")

x = sympy.Symbol("x", real=True)
y = sympy.Symbol("y", real=True)
z = sympy.Symbol("z", real=True)
h = sympy.Symbol("h")
sigma = sympy.Function("sigma")
ONE, ZERO, TWO = sympy.Integer(1), sympy.Integer(0), sympy.Integer(2)


def U(cls, *args):
    return cls(*args, evaluate=False)


def _inv(e):
    return U(sympy.Pow, e, -1)


def _certified(i: str, comparison) -> dict:
    """A closed comparison with its exact certificate (no solver runs)."""
    return fact_node(i, comparison, "exact", obligation=(Checks.CERTIFICATE, _cert(comparison)))


def _cert(comparison, **changed) -> str:
    """The certificate the export writes (schema, formula text, expectation, exact value)."""
    gap = sympy.Rational(comparison.lhs - comparison.rhs)
    cert = {
        "schema": CERT_SCHEMA,
        "formula": sympy.sstr(read_formula(sympy.srepr(comparison))),
        "formula_srepr": sympy.srepr(comparison),
        "expected": "proved",
        "value": f"{gap.p}/{gap.q}",
    }
    cert.update(changed)
    return json.dumps({k: v for k, v in cert.items() if v is not None})


def _claim_row(rows):
    return next(r for r in rows if r.check == "claim")


# -- 1. an admitted fact is asserted: never refuted, never negated ------------------------------

F = ForAll((z,), U(sympy.Ge, U(sympy.Max, ZERO, z), ZERO))  # ∀z: max(0, z) ≥ 0 — true
NOT_F = U(sympy.Not, F)


def test_max_of_zero_is_never_negative():
    """The independent truth: max(0, z) ≥ 0 for every real z, so ¬F is false."""
    for value in (-(10**6), -3, sympy.Rational(-1, 7), 0, sympy.Rational(5, 3), 10**9):
        assert sympy.Max(0, value) >= 0


def _negated_assumption(kind: str, status: str = "refuted") -> list[dict]:
    part = fact_node("s1.p1", F, kind, kind=kind, status=status)
    s1 = fact_node("s1", NOT_F, "exact", premises=["s1.p1"], parts=[part])
    s2 = _certified("s2", U(sympy.Ne, ONE, ZERO))
    s3 = fact_node(
        "s3",
        U(sympy.And, NOT_F, U(sympy.Ne, ONE, ZERO)),
        "rule",
        rule="conj",
        premises=["s1", "s2"],
    )
    return [s1, s2, s3]


@pytest.mark.parametrize("kind", ["assumption", "oracle"])
def test_an_admitted_fact_marked_refuted_proves_no_negation(tmp_path, kind):
    """¬(∀z: max(0, z) ≥ 0) ∧ 1 ≠ 0 is false; it re-checked proved (exit 0), resting on an
    admitted fact listed as ∀z: max(0, z) ≥ 0 — a true formula a reviewer would accept."""
    nodes = _negated_assumption(kind)
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    part = next(r for r in rows if r.node == "s1.p1")
    assert part.outcome == "DISAGREES" and "status proved" in part.answer
    assert next(r for r in rows if r.node == "s1").outcome == "DISAGREES"
    assert _claim_row(rows).outcome == "DISAGREES"


def test_a_negation_of_an_admitted_part_disagrees_whatever_its_status(tmp_path):
    """The kernel negates only a checked fact; an admitted part (status proved, as admitted)
    shows no refutation: the negation disagrees, never passes as admitted."""
    nodes = _negated_assumption("assumption", status="proved")
    nodes[0]["premises"] = ["s1.p1"]
    write_export(tmp_path, nodes[:1], statement=nodes[0])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert next(r for r in rows if r.node == "s1").outcome == "DISAGREES"


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from(["definition", "assumption", "oracle"]),
    st.text(max_size=8).filter(lambda s: s != "proved"),
)
def test_an_admitted_fact_is_proved_or_disagrees(tmp_path_factory, kind, status):
    """Property: an admitted fact with any status but ``proved`` disagrees (a definition
    ``c := 1``, an assumption or oracle result ``c = 1``)."""
    c = sympy.Symbol("c", real=True)
    node = fact_node("s1", U(sympy.Eq, c, ONE), kind, kind=kind, status=status)
    d = tmp_path_factory.mktemp("admitted")
    write_export(d, [node], statement=node)
    rows, code, _ = rc.recheck(d)
    assert code == rc.EXIT_DISAGREE
    assert next(r for r in rows if r.node == "s1").outcome == "DISAGREES"


# -- 2. a rule proves or leaves unknown ----------------------------------------------------------


def _conj_of_certificates(status: str) -> list[dict]:
    a, b = U(sympy.Ne, ONE, ZERO), U(sympy.Gt, TWO, ONE)
    conj = fact_node(
        "s3", U(sympy.And, a, b), "rule", status=status, rule="conj", premises=["s1", "s2"]
    )
    return [_certified("s1", a), _certified("s2", b), conj]


def test_a_rule_step_marked_refuted_disagrees(tmp_path):
    """1 ≠ 0 ∧ 2 > 1, claimed ``refuted`` by the manifest, re-checked ``proved`` (exit 0)."""
    nodes = _conj_of_certificates("refuted")
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    row = next(r for r in rows if r.node == "s3")
    assert row.outcome == "DISAGREES" and "proved or unknown" in row.answer


def test_a_rule_step_the_export_left_unknown_stays_unknown(tmp_path):
    nodes = _conj_of_certificates("unknown")
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_UNKNOWN
    assert next(r for r in rows if r.node == "s3").outcome == "unknown"


def test_a_rule_step_marked_proved_still_rechecks(tmp_path):
    nodes = _conj_of_certificates("proved")
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert all(r.ok for r in rows), [r.cells() for r in rows if not r.ok]
    assert _claim_row(rows).outcome == "proved"


@pytest.mark.parametrize(
    "changed",
    [
        {"formula": "Ne(1, 1)"},
        {"expected": "refuted"},
        {"schema": "transformer-proofs/certificate/v1"},
        {"schema": None},
    ],
    ids=["formula text", "expected", "old schema", "no schema"],
)
def test_a_certificate_that_says_another_formula_or_outcome_disagrees(tmp_path, changed):
    one = U(sympy.Ne, ONE, ZERO)
    node = fact_node("s1", one, "exact", obligation=(Checks.CERTIFICATE, _cert(one, **changed)))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert next(r for r in rows if r.node == "s1").outcome == "DISAGREES"


@pytest.mark.parametrize(
    "value", ["\uff11/\uff11", "\u0661", "1/\u0967"], ids=["fullwidth", "arabic", "devanagari"]
)
def test_a_value_in_another_scripts_digits_is_refused(tmp_path, value):
    """``\\d`` matched every script's digits: ``１/１`` (fullwidth) re-checked as 1, a value that
    prints as other glyphs than the number read. ASCII digits only: a one-line refusal."""
    one = U(sympy.Ne, ONE, ZERO)
    node = fact_node("s1", one, "exact", obligation=(Checks.CERTIFICATE, _cert(one, value=value)))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert "not a fraction" in next(r for r in rows if r.node == "s1").answer


def test_the_certificate_the_export_writes_still_proves(tmp_path):
    one = U(sympy.Ne, ONE, ZERO)
    node = fact_node("s1", one, "exact", obligation=(Checks.CERTIFICATE, _cert(one)))
    write_export(tmp_path, [node], statement=node)
    rows, _, _ = rc.recheck(tmp_path)
    assert next(r for r in rows if r.node == "s1").outcome == "proved"


def test_a_spot_check_file_whose_text_lies_disagrees(tmp_path):
    """The text a reader of the file sees must be its formula: here Eq(x, x + 1) over x = x."""
    f = U(sympy.Eq, sympy.exp(x), sympy.exp(x))
    spot = {"schema": SPOT_SCHEMA, "formula": "Eq(x, x + 1)", "formula_srepr": sympy.srepr(f)}
    node = fact_node("s1", f, "sympy", obligation=(Checks.SPOT, json.dumps(spot)))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert "formula text" in next(r for r in rows if r.node == "s1").answer


# -- 3. the re-check's own keys in a step ----------------------------------------------------------

D = zero_everywhere(x)  # (x + 1)² − x² − 2x − 1, unevaluated


def test_d_is_zero_everywhere():
    assert sympy.expand(D) == 0


def _assumed(i: str, formula) -> dict:
    return fact_node(i, formula, "assumption", kind="assumption")


def _one_is_zero(injected) -> list[dict]:
    """1 = 0 from three assumptions (each true: y/y = 1 and 0/y = 0 where y ≠ 0, D = 0) by
    rule steps each claimed where D ≠ 0 — nowhere. ``injected``: what each rule step brings
    under the re-check's own key ``_conditions``."""
    nodes = [
        _assumed("s1", ForAll((y,), U(sympy.Eq, U(sympy.Mul, y, _inv(y)), ONE))),
        _assumed("s2", U(sympy.Eq, D, ZERO)),
        _assumed("s3", ForAll((y,), U(sympy.Eq, U(sympy.Mul, ZERO, _inv(y)), ZERO))),
    ] + one_is_zero_rules(D, y, h)
    for n in nodes[3:]:
        n["_conditions"] = injected
    return nodes


@pytest.mark.parametrize("injected", [None, [], 0, ""], ids=["null", "[]", "0", "''"])
def test_a_step_that_brings_the_rechecks_own_conditions_is_refused(tmp_path, injected):
    """With ``"_conditions": null`` in its rule steps, 1 = 0 re-checked proved (exit 0) in a
    claim without a statement (no claim-level check)."""
    write_export(tmp_path, _one_is_zero(injected))
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert "not one the export writes" in _claim_row(rows).answer
    assert not any(r.node == "s8" and r.outcome == "proved" for r in rows)


@settings(max_examples=15, deadline=None)
@given(
    st.text(min_size=0, max_size=10).map(lambda s: "_" + s),
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.just([])),
    st.integers(0, 2),
)
def test_any_key_of_the_rechecks_own_in_any_step_is_refused(tmp_path_factory, key, value, where):
    """Property: a key starting with ``_`` (the re-check's own: ``_formula``, ``_conditions``)
    in any step or part of a manifest makes the claim disagree, whatever its value."""
    nodes = _conj_of_certificates("proved")
    nodes[where][key] = value
    d = tmp_path_factory.mktemp("keys")
    write_export(d, nodes, statement=nodes[-1])
    manifest = json.loads((d / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert key in manifest["claims"][0]["steps"][where]
    rows, code, _ = rc.recheck(d)
    assert code == rc.EXIT_DISAGREE
    assert "not one the export writes" in _claim_row(rows).answer


# -- 4. σ's stand-in: no linear odd part -----------------------------------------------------------


def _read(f):
    return read_formula(sympy.srepr(f))


def _odd_part_is_linear(a: int):
    """exp(σ(a·x) − σ(−a·x)) = exp(x·(σ(a) − σ(−a))): for σ(t) = t³ the exponents are 2a³x³
    and 2a³x, different at x = 2 (and at every x ∉ {0, 1, −1}) — false."""
    return U(
        sympy.Eq,
        sympy.exp(
            U(sympy.Add, sigma(U(sympy.Mul, a, x)), U(sympy.Mul, -1, sigma(U(sympy.Mul, -a, x))))
        ),
        sympy.exp(
            U(
                sympy.Mul,
                x,
                U(sympy.Add, sigma(sympy.Integer(a)), U(sympy.Mul, -1, sigma(sympy.Integer(-a)))),
            )
        ),
    )


def test_the_odd_part_identity_is_false_for_a_cube():
    lhs = (2 * x) ** 3 - (-2 * x) ** 3
    rhs = x * (2**3 - (-2) ** 3)
    assert (lhs - rhs).subs(x, 2) == 96


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4))
def test_an_identity_only_a_linear_odd_part_satisfies_is_not_spot_checked(a):
    assert relation_spot_check(_read(_odd_part_is_linear(a)))[0] == "DISAGREES"


@settings(max_examples=5, deadline=None)
@given(st.integers(1, 4), st.integers(-3, 3))
def test_identities_for_every_sigma_are_still_spot_checked(a, shift):
    """exp(σ(ax + s) − σ(−ax)) = exp(σ(s + xa))·exp(−σ(−ax)) holds for every σ."""
    u = U(sympy.Add, U(sympy.Mul, a, x), shift)
    v = U(sympy.Add, shift, U(sympy.Mul, x, a))
    w = sigma(U(sympy.Mul, -a, x))
    f = U(
        sympy.Eq,
        sympy.exp(U(sympy.Add, sigma(u), U(sympy.Mul, -1, w))),
        U(sympy.Mul, sympy.exp(sigma(v)), sympy.exp(U(sympy.Mul, -1, w))),
    )
    assert spot_check(_read(f))[0] == "spot-checked"
