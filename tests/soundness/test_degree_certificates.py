"""Issue 25: ``∃p ∀α > 0, z: σ(αz) = α^p·σ(z)`` refuted (σ not positively homogeneous) is
exported with its witness (u, z0) and re-checked by ``certificates.check_no_degree`` from
the formula alone. A forged certificate for a homogeneous σ is never a refutation."""

from __future__ import annotations

import json

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.activations import ACTIVATIONS, z
from symbolic.evidence.certificates import check_no_degree, degree_form
from symbolic.evidence.export import certificate
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.manifest import Checks, required_checks
from symbolic.kernel import DEGREE, Exists, ForAll, homogeneity_formula, refute_homogeneous

P, A = sympy.Symbol("p", real=True), sympy.Symbol("alpha", positive=True)


def _exported(expr, u, z0):
    fact = refute_homogeneous(expr, z, sympy.Integer(u), z0)
    formula = read_formula(sympy.srepr(fact.formula))  # as the re-check reads the manifest
    cert = certificate(fact)
    return fact, formula, (json.loads(json.dumps(cert)) if cert else None)


def _forged(formula, u, z0) -> dict:
    return {"degree_witness": {"u": sympy.srepr(sympy.Integer(u)), "z0": sympy.srepr(z0)}}


def test_a_non_homogeneous_activation_is_refuted_from_its_certificate():
    fact, formula, cert = _exported(ACTIVATIONS["gelu"].sympy_at(z), 1, sympy.Rational(3, 2))
    assert fact.status == "refuted" and cert is not None
    need = required_checks(formula, fact.kind, fact.verdict.method, fact.status, True)
    assert need == frozenset({Checks.WITNESS})
    assert check_no_degree(formula, cert, read_formula)[0] == "refuted"


def test_a_zero_unit_route_and_a_negative_ratio_route():
    # σ = z²·sign-free bump: σ(±1) = 0 but σ(1/2) ≠ 0 (first route)
    bump = (z - 1) * (z + 1) * z
    fact, formula, cert = _exported(bump, 1, sympy.Rational(1, 2))
    assert fact.status == "refuted"
    assert check_no_degree(formula, cert, read_formula)[0] == "refuted"
    # σ(2)/σ(1) < 0: 2^p is never negative (second route)
    fact, formula, cert = _exported(3 - z**2, 1, sympy.Rational(1, 2))
    assert fact.status == "refuted"
    outcome, text = check_no_degree(formula, cert, read_formula)
    assert outcome == "refuted" and "≤ 0" in text


def test_a_forged_certificate_for_a_homogeneous_activation_is_not_a_refutation():
    for name in ("relu", "leaky_relu", "identity"):
        _, formula, _ = _exported(ACTIVATIONS[name].sympy_at(z), 1, sympy.Rational(3, 2))
        for u, z0 in ((1, sympy.Rational(3, 2)), (-1, sympy.Rational(-5, 7)), (1, -2)):
            outcome = check_no_degree(
                formula,
                _forged(formula, u, sympy.Integer(z0) if isinstance(z0, int) else z0),
                read_formula,
            )[0]
            assert outcome != "refuted", (name, u, z0)


def test_other_shapes_and_bad_witnesses_disagree():
    sigma = sympy.Function("sigma")
    wrong = Exists(
        (P,),
        ForAll((A, z), sympy.Eq(A**P * sigma(z), sigma(A * z)), sympy.Interval.open(0, sympy.oo)),
    )
    assert degree_form(wrong) is None
    assert check_no_degree(wrong, {}, read_formula)[0] == "DISAGREES"
    _, formula, cert = _exported(ACTIVATIONS["gelu"].sympy_at(z), 1, sympy.Rational(3, 2))
    for bad in (
        {"u": sympy.srepr(sympy.Integer(2)), "z0": cert["degree_witness"]["z0"]},
        {"u": cert["degree_witness"]["u"], "z0": sympy.srepr(sympy.Integer(0))},
        {"u": cert["degree_witness"]["u"]},
    ):
        assert check_no_degree(formula, {"degree_witness": bad}, read_formula)[0] == "DISAGREES"


@settings(max_examples=30)
@given(
    st.fractions(min_value=-20, max_value=20).filter(lambda q: q != 0),
    st.sampled_from([1, -1]),
    st.integers(1, 9),
    st.integers(0, 9),
)
def test_positive_power_laws_are_never_refuted(z0, u, a, b):
    """a·relu(z)^k + b·relu(−z)^k is homogeneous of degree k: whatever the witness, the
    re-check never refutes ∃p."""
    k = 1 + (a + b) % 3
    expr = a * sympy.Max(0, z) ** k + b * sympy.Max(0, -z) ** k
    formula = read_formula(sympy.srepr(Exists((DEGREE,), homogeneity_formula(expr, z, DEGREE))))
    forged = _forged(formula, u, sympy.Rational(z0.numerator, z0.denominator))
    assert check_no_degree(formula, forged, read_formula)[0] != "refuted"
