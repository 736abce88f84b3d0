"""Red-team round 12 of the activation analysis (``python -m proofs.exchange --activation``).

About 300 hand-decided activations (disguised linear and ReLU forms, rational and irrational
thresholds with redundant branches, half-line homogeneity, near-misses down to 1e-100, closed
degrees, deep nesting, odd spellings of table names, undefined inputs) and ~600 random
piecewise-linear and smooth trees checked in mpmath at 50-60 digits gave no wrong verdict and
no wrong rejection of undefined input. Four classes gave a wrong *exit code* or an avoidable
``unknown``:

1. ``failed`` (exit 1) with every verdict right — the numeric cross-checks. A witness such as
   a = 1/3 has no float64; where σ is steep there (``x + sin(1e12·π·x)``, a tent
   ``x + relu(1 − 1e12·|x − 1/3|)``) the float64 replay of σ(a)·b − σ(b)·a "disagreed" with its
   exact certificate, and a break that lies between float64 numbers (a tent 10⁻¹⁸ wide) was
   "shown by no layer". Now the replay uses σ correctly rounded at the exact witness when the
   rounding of the point is what differs, and such a break is reported as lying between
   float64 numbers (the replay at the exact point must still agree with the certificate).
2. ``failed`` in ``python -m proofs.scaling``: its random-α check of a kept degree used float64
   σ only, so ``relu(x)·(cosh²3x − sinh²3x)`` (= relu) "broke" it by cancellation; it now redoes
   the same layers with σ correctly rounded, as the exchange checks did.
3. Valid input refused (exit 2): a divisor or log argument bounded away from 0 by a bounded
   function (``x/(2 + sin(x))``, ``log(1 + erf(x))``) and any divisor negative everywhere
   (``x/(-1 - x**2)``: the check passed, then SymPy's ``x·d⁻¹`` was judged "may be 0").
4. ``unknown`` (exit 3) for σ negative at 1 (``-gelu(x)``, ``x*(sin(x) - 2)``): the proposal of
   an exact degree asked SymPy to expand log(σ(2)/σ(1)) of two negative numbers, which ran
   past the 8 s limit.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks.activations import _witness_check, expected_check, precise_function
from numeric_checks.evaluate import numpy_function
from proofs import exchange
from symbolic.errors import InvalidExpression
from symbolic.gated.analysis import analyze_item, parsed_item
from symbolic.languages.activation_language import parse_activation


def _analysis(text: str):
    label, expr, _ = parsed_item(text)
    return analyze_item(label, expr)


def _tent(height: str, width_scale: int, centre: tuple[int, int]):
    """σ(v) = v + max(0, height − width_scale·|v − centre|), by hand in mpmath; the constants
    are made at the precision in force when σ is called."""

    def sigma(v):
        c = mpmath.mpf(centre[0]) / centre[1]
        return v + max(mpmath.mpf(0), mpmath.mpf(height) - width_scale * abs(v - c))

    return sigma


def test_a_steep_sigma_at_a_witness_without_a_float_is_not_a_numeric_failure():
    sigma = _tent("1", 10**12, (1, 3))
    with mpmath.workdps(50):  # the truth: the exchange defect at (1/3, 1) is 1 ...
        third = mpmath.mpf(1) / 3
        assert sigma(third) - sigma(mpmath.mpf(1)) * third == 1
        nearest = mpmath.mpf(float(third))  # ... and σ(fl(1/3)) misses the top by 1.85e-5
        assert abs(sigma(nearest) - sigma(third)) > mpmath.mpf(10) ** -5
    a = _analysis("x + relu(1 - 1e12*abs(x - 1/3))")
    assert a.is_linear is False and a.inverse_scaling_symmetric is False
    precise = precise_function(a.expr)  # what cross_check replays with: float64 σ is not
    check, _ = _witness_check(a, precise, precise)  # faithful at the witness (fl(x) − fl(1/3))
    assert check.agrees, check.detail  # was: exchange witness replayed DISAGREES (exit 1)


def test_the_witness_replay_of_a_fast_oscillation_agrees_with_its_certificate():
    """σ = x + sin(10¹²·π·x) at the witness (1/3, 1): sin(10¹²π/3) = sin(π/3) (10¹² ≡ 4 mod 6,
    sin(4π/3) = −√3/2), while fl(1/3) is 1.9e-17 off 1/3, i.e. 6e-5 off in the argument."""
    with mpmath.workdps(50):
        third = mpmath.mpf(1) / 3
        arg = mpmath.mpf(10) ** 12 * mpmath.pi * third
        assert abs(mpmath.sin(arg) + mpmath.sqrt(3) / 2) < mpmath.mpf(10) ** -30
        shifted = mpmath.mpf(10) ** 12 * mpmath.pi * mpmath.mpf(float(third))
        assert abs(mpmath.sin(shifted) - mpmath.sin(arg)) > mpmath.mpf(10) ** -5
    a = _analysis("x + sin(1e12*pi*x)")
    assert a.exchange_witness == (sympy.Rational(1, 3), 1)
    check, _ = _witness_check(a, numpy_function(a.expr), precise_function(a.expr))
    assert check.agrees, check.detail  # was: differs by 3.36e-05 ✗ DISAGREES


def test_a_break_between_float64_numbers_is_not_a_numeric_failure(capsys):
    """A tent 10⁻¹⁸ wide at 1/3: certified, but no float64 number reaches it."""
    sigma = _tent("1e-6", 10**12, (1, 3))
    with mpmath.workdps(50):
        third = mpmath.mpf(1) / 3
        assert abs(sigma(third) - third - mpmath.mpf(10) ** -6) < mpmath.mpf(10) ** -40
        for f in (float(third), float(third) * (1 + 2**-52), float(third) * (1 - 2**-52)):
            assert sigma(mpmath.mpf(f)) == mpmath.mpf(f)  # invisible at the floats nearby
    text = "x + relu(1e-6 - 1e12*abs(x - 1/3))"
    code = exchange.main([f"--activation={text}", "--json", "--no-torch"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["numeric_agrees"] is True and doc["linear"] is False
    assert code == 0  # was 1: "failed" (no layer shows the break) with every verdict right
    from numeric_checks.activations import exchange_blind

    assert exchange_blind(_analysis(text))


def test_a_visible_break_is_never_excused():
    """The escape hatches stay shut where float64 does see the point: a certified break that no
    layer shows still fails, and σ = |x| at (−1, 1) is not 'between floats'."""
    from numeric_checks.activations import _at_exact, exchange_blind

    a = _analysis("abs(x)")
    assert not exchange_blind(a)
    assert _at_exact(a.expr, sympy.Integer(-1), sympy.Integer(1), 2.0) is None
    check = expected_check("gated form: Q ↔ K", "numpy", 0.0, False, 0.5, 0.0, blind=False)
    assert not check.agrees
    check = expected_check("gated form: Q ↔ K", "numpy", 0.0, False, 0.5, 0.0, blind=lambda: False)
    assert not check.agrees


@settings(max_examples=5, deadline=None)
@given(
    st.integers(1, 40).filter(lambda k: k % 3),
    st.sampled_from([3, 5, 7, 9, 11, 13]),
    st.sampled_from(["1", "1e-3", "1e-6"]),
)
def test_tents_at_points_without_a_float_replay_their_certificate(k, q, height):
    """σ = x + relu(h − 10¹²·|x − k/q|): the witness replay agrees with the certificate."""
    centre = sympy.Rational(k, q)
    if centre.q & (centre.q - 1) == 0:  # a dyadic centre has a float64: nothing to show
        return
    a = _analysis(f"x + relu({height} - 1e12*abs(x - {k}/{q}))")
    if a.exchange_witness is None:
        return
    w = a.exchange_witness[0]
    with mpmath.workdps(50):  # the certificate's value, by hand: σ(w)·1 − σ(1)·w
        tent = _tent(height, 10**12, (k, q))
        wv = mpmath.mpf(w.p) / w.q
        assert tent(wv) - tent(mpmath.mpf(1)) * wv != 0
    precise = precise_function(a.expr)  # what cross_check replays with: float64 σ is not
    check, _ = _witness_check(a, precise, precise)  # faithful at the witness (fl(x) − fl(k/q))
    assert check.agrees, check.detail


# -- valid activations the parser refused: a divisor or log argument bounded away from 0 -------
#
# ``x/(2 + sin(x))``, ``log(1 + erf(x))``, ``sqrt(1 - erf(x)**2)`` are defined and real at every
# real x (sin ≥ −1, erf > −1, erf² < 1) but were refused with exit 2 ("divides by a value that
# may be 0"): the parser's exact sign decisions cover polynomials and rational functions of
# exp(c·x) only. ``domain_sign.value_range`` now bounds such arguments by interval arithmetic on
# the ranges of the bounded functions; a divisor that does reach 0 (``1 + sin(x)``) is refused.


@pytest.mark.parametrize(
    ("text", "where_smallest"),
    [
        ("x/(2 + sin(x))", "2 + sin(-pi/2) = 1"),
        ("x/(1.0000001 + sin(x))", "1e-7 at x = -pi/2"),
        ("log(1 + erf(x))", "erf(x) > -1 for every real x"),
        ("sqrt(1 - erf(x)**2)", "erf(x)**2 < 1"),
        ("x/(3 + sin(x) + cos(x))", "3 - sqrt(2) > 0"),
    ],
)
def test_a_divisor_bounded_away_from_zero_is_accepted(text, where_smallest):
    with mpmath.workdps(50):  # the truth: the argument's infimum over a fine grid and by hand
        grid = [mpmath.mpf(k) / 64 for k in range(-640, 641)]
        inner = {
            "x/(2 + sin(x))": lambda v: 2 + mpmath.sin(v),
            "x/(1.0000001 + sin(x))": lambda v: mpmath.mpf("1.0000001") + mpmath.sin(v),
            "log(1 + erf(x))": lambda v: 1 + mpmath.erf(v),
            "sqrt(1 - erf(x)**2)": lambda v: 1 - mpmath.erf(v) ** 2,
            "x/(3 + sin(x) + cos(x))": lambda v: 3 + mpmath.sin(v) + mpmath.cos(v),
        }[text]
        assert min(inner(v) for v in grid) >= 0, where_smallest
    a = _analysis(text)  # was: InvalidExpression, exit 2
    assert a.is_linear is False


@pytest.mark.parametrize(
    "text",
    [
        "x/(1 + sin(x))",
        "log(1 + sin(x))",
        "x/(2 + 2*sin(x))",
        "x/(erf(x) + 0.999)",
        "x/(1 + sin(x)*cos(x)*2)",
        "sqrt(sin(x) + 1 - 1e-100)",
        "x/(erfc(x) - 1e-300)",
    ],
)
def test_a_divisor_that_reaches_zero_is_still_refused(text):
    with pytest.raises(InvalidExpression):
        parse_activation(text)


@settings(max_examples=25, deadline=None)
@given(
    st.fractions(min_value=-4, max_value=4, max_denominator=50),
    st.fractions(min_value=-4, max_value=4, max_denominator=50).filter(lambda a: a != 0),
    st.sampled_from(["sin", "cos", "erf", "tanh"]),
)
def test_a_bounded_divisor_is_accepted_only_when_it_never_vanishes(c, a, f):
    """x/(c + a·f(x)): f = sin, cos reach ±1, so it is defined everywhere iff c > |a| (or
    c < −|a|); erf and tanh never reach ±1, so iff c ≥ |a| (or c ≤ −|a|). The parser may be
    conservative, never generous; and it accepts every c beyond |a| + 1/100."""
    text = f"x/({c.numerator}/{c.denominator} + ({a.numerator}/{a.denominator})*{f}(x))"
    try:
        parse_activation(text)
        accepted = True
    except InvalidExpression:
        accepted = False
    attains = f in ("sin", "cos")
    defined = abs(c) > abs(a) if attains else abs(c) >= abs(a)
    if accepted:
        assert defined, text
    if abs(c) > abs(a) + Fraction(1, 100):
        assert accepted, text


@pytest.mark.parametrize(
    "text", ["x/(-1 - x**2)", "x/(-1 - abs(x))", "x/(-2 + sin(x))", "x/(-1 - exp(x))"]
)
def test_a_divisor_negative_everywhere_is_accepted(text):
    """The division check allowed a negative divisor (``-right`` positive), but SymPy builds
    ``x/d`` as ``x·d⁻¹`` and ``d⁻¹`` was then judged "may be 0": refused with exit 2. Truth:
    −1 − x² ≤ −1, −1 − |x| ≤ −1, −2 + sin x ≤ −1, −1 − eˣ < −1."""
    with mpmath.workdps(50):
        d = {
            "x/(-1 - x**2)": lambda v: -1 - v**2,
            "x/(-1 - abs(x))": lambda v: -1 - abs(v),
            "x/(-2 + sin(x))": lambda v: -2 + mpmath.sin(v),
            "x/(-1 - exp(x))": lambda v: -1 - mpmath.exp(v),
        }[text]
        assert max(d(mpmath.mpf(k) / 16) for k in range(-320, 321)) <= -1
    assert _analysis(text).is_linear is False


# -- σ negative at 1: the degree proposal hung in SymPy ----------------------------------------
#
# ``-gelu(x)``, ``x*(sin(x) - 2)``, ``x*(tanh(x) - 2)``: σ(1) < 0, so α = 2 forces
# 2^p = σ(2)/σ(1), a quotient of two negative numbers. The proposal of an exact p asked SymPy
# for ``expand_log(log(σ(2)/σ(1)), force=True)``, which did not return within minutes; the
# analysis hit its 8 s limit and the homogeneity verdict was ``unknown`` (exit 3) although a
# certified refutation is immediate. The quotient now has a positive divisor, under a limit.


def _negative_at_one_cases():
    with mpmath.workdps(50):
        gelu = lambda v: v / 2 * (1 + mpmath.erf(v / mpmath.sqrt(2)))  # noqa: E731
        return [
            ("-gelu(x)", lambda v: -gelu(v)),
            ("x*(sin(x) - 2)", lambda v: v * (mpmath.sin(v) - 2)),
            ("x*(tanh(x) - 2)", lambda v: v * (mpmath.tanh(v) - 2)),
        ]


@pytest.mark.parametrize(("text", "sigma"), _negative_at_one_cases())
def test_an_activation_negative_at_one_gets_its_homogeneity_refuted(text, sigma):
    with mpmath.workdps(50):  # the truth: the degree α = 2 forces misses σ at 1/2
        one, two, half = (sigma(mpmath.mpf(v)) for v in (1, 2, "0.5"))
        assert one < 0 and two < 0
        p = mpmath.log(two / one) / mpmath.log(2)
        assert abs(half - mpmath.mpf("0.5") ** p * one) > mpmath.mpf(10) ** -3
    a = _analysis(text)
    assert a.homogeneity.holds.refuted  # was: unknown, "analysis stopped after 8.0 s"
    assert a.status == "proved" and a.inverse_scaling_symmetric is False


def test_a_degree_kept_through_float64_cancellation_is_not_a_numeric_failure():
    """σ = relu(x)·(cosh²x − sinh²x) = relu(x): degree 1 proved, but float64 evaluates the
    bracket with cancellation (cosh²(10) ≈ 1.2e8, so an error of order 1e-8), and the random-α
    layer check of ``python -m proofs.scaling`` compared float64 σ only: "failed", exit 1.
    Now, as the exchange checks already did, the same layers are redone with σ correctly
    rounded when float64 shows a change."""
    with mpmath.workdps(50):  # the truth: the bracket is exactly 1 (checked at a few points)
        for v in ("0.3", "2.5", "-4", "5"):
            w = mpmath.mpf(v)
            assert abs(mpmath.cosh(w) ** 2 - mpmath.sinh(w) ** 2 - 1) < mpmath.mpf(10) ** -30
    from numeric_checks.scaling import generalized_symmetry_checks

    a = _analysis("relu(x)*(cosh(x)**2 - sinh(x)**2)")
    assert a.degree == 1 and a.inverse_scaling_symmetric is True
    failed = [c for c in generalized_symmetry_checks(a, None) if not c.agrees]
    assert failed == [], [c.detail for c in failed]


def test_a_break_float64_cancels_inside_sigma_is_not_a_scaling_failure():
    """σ = relu(x − √2) − relu(x − 1.4142135623730951): σ(2) = 1.4142135623730951 − √2 ≈ 5e-17
    while σ(1) = 0, so Q → 2Q, K → K/2 is broken (certified). In float64 √2 and
    1.4142135623730951 are one number and σ is 0 everywhere: ``python -m proofs.scaling``
    compared float64 σ and "failed" (exit 1). As the exchange checks do, σ not evaluated
    faithfully by float64 at the witness is now used correctly rounded."""
    sigma = lambda v: max(0, v - mpmath.sqrt(2)) - max(0, v - mpmath.mpf("1.4142135623730951"))  # noqa: E731
    with mpmath.workdps(50):
        assert sigma(mpmath.mpf(1)) == 0
        assert mpmath.mpf("5e-17") < sigma(mpmath.mpf(2)) < mpmath.mpf("6e-17")
    from numeric_checks.scaling import generalized_symmetry_checks

    a = _analysis("relu(x - sqrt(2)) - relu(x - 1.4142135623730951)")
    assert a.inverse_scaling_symmetric is False
    failed = [c for c in generalized_symmetry_checks(a, None) if not c.agrees]
    assert failed == [], [c.detail for c in failed]
