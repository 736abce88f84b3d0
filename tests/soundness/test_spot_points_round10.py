"""Red-team round 10: spot checks at the points a formula's own thresholds give.

A spot check evaluated a formula at six points drawn from wide ranges with a seed taken from
the formula's text: a forger could place a false region between two thresholds where no
random point falls, and the re-check said ``spot-checked`` (exit 0). ``Piecewise((1, (1000 <
y) & (y < 900000)), (0, True)) = 0`` is false at y = 2000; it passed 6/6 random points. Each
switch of a formula (a ``Piecewise`` condition, ``Heaviside``, ``sign``, ``Abs``, ``Max`` and
``Min`` kinks, ``floor``/``ceiling``/``frac``/``Mod`` jumps) now proposes the values where it
switches — solved exactly when linear in a symbol, by exact root isolation when polynomial,
piece by piece when built of such pieces — and the points at, between and beside them.

Every FALSE case carries a witness point at which ``lhs − rhs`` is computed here by mpmath
at 50 digits (independently of the re-check's evaluators) and is far from 0. Every TRUE case
holds by hand (each is a one-line identity of the piecewise functions involved; SymPy's
``Heaviside(0) = 1/2``).
"""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.manifest import SPOT_SCHEMA, Checks
from symbolic.evidence.spot_checks import spot_check
from symbolic.evidence.spot_points import MAX_STRUCTURAL, structural_points, switches
from symbolic.kernel import ForAll

x, y, z = sympy.symbols("x y z", real=True)
p = sympy.Symbol("p", positive=True)
n = sympy.Symbol("n", integer=True)
H, R, S2 = sympy.Heaviside, sympy.Rational, sympy.sqrt(2)


def E(a, b):
    return sympy.Eq(a, b, evaluate=False)


def band(e, a, b):
    return sympy.Piecewise((1, (e > a) & (e < b)), (0, True))


FALSE = {  # name: (formula, witness point)
    "a Piecewise band": (E(band(y, 1000, 900000), 0), {y: 2000}),
    "a Heaviside band": (E(H(y - 10**5) * H(2 * 10**5 - y), 0), {y: 150000}),
    "a hat at 12345": (E(sympy.Max(0, 1 - abs(y - 12345)), 0), {y: 12345}),
    "a floor jump": (E(sympy.floor(p / 10**4) - sympy.floor((p + 1) / 10**4), 0), {p: R(19999, 2)}),
    "min below 1/1000": (E(sympy.Min(p, R(1, 1000)), R(1, 1000)), {p: R(1, 2000)}),
    "two narrow pieces": (E(band(y, 1000, 1001) + H(y - 5000) * H(5001 - y), 0), {y: R(10001, 2)}),
    "a bump at sqrt 2": (E(sympy.Max(0, 1 - 10**40 * abs(y - S2)), 0), {y: S2}),
    "a bump at pi": (E(sympy.Max(0, 1 - 10**100 * abs(y - sympy.pi)), 0), {y: sympy.pi}),
    "a band in x - y": (E(band(x - y, 1000, 1001), 0), {x: R(2001, 2), y: 0}),
    "a nested hat": (E(sympy.Max(0, R(1, 2) - abs(abs(y - 12345) - 10)), 0), {y: 12355}),
    "a quadratic band": (
        E(band(y**2, 2 * 10**6, 2 * 10**6 + 1), 0),
        {y: sympy.sqrt(2 * 10**6 + R(1, 2))},
    ),
    "an integer spike": (E(sympy.Piecewise((1, sympy.Eq(n, 777)), (0, True)), 0), {n: 777}),
    "a band of a forall": (
        ForAll((y,), E(band(y, 1000, 1001), 0), sympy.Interval(0, 10**6)),
        {y: R(2001, 2)},
    ),
    "sign at 31337": (E(sympy.sign(y - 31337) ** 2, 1), {y: 31337}),
    "a bump at a cube root": (E(sympy.Max(0, 1 - 10**50 * abs(y**3 - 2)), 0), {y: sympy.cbrt(2)}),
    "max = min": (
        E(sympy.Piecewise((1, sympy.Eq(sympy.Max(x, y), sympy.Min(x, y))), (0, True)), 0),
        {x: 3, y: 3},
    ),
    "a band beside a true part": (
        E(sympy.Max(y, 3) + sympy.Min(y, 3) + band(y, 777, 778), y + 3),
        {y: R(1555, 2)},
    ),
    "a band in exp(y)": (
        E(band(sympy.exp(y), 10**6, 10**6 + 1), 0),
        {y: sympy.log(10**6 + R(1, 2))},
    ),
    "a band in sqrt(p)": (E(band(sympy.sqrt(p), 3000, 3001), 0), {p: R(6001, 2) ** 2}),
    "a Heaviside band times a line": (
        E((y - 4000) * H(y - 4000) * H(4001 - y), 0),
        {y: R(8001, 2)},
    ),
}

TRUE = {
    "Heaviside(0) = 1/2": E(
        H(y - 5), sympy.Piecewise((0, y < 5), (R(1, 2), sympy.Eq(y, 5)), (1, True))
    ),
    "≥ and < at sqrt 2": E(
        sympy.Piecewise((1, y >= S2), (0, True)), sympy.Piecewise((0, y < S2), (1, True))
    ),
    "y³ ≥ 2 and y < cbrt 2": E(
        sympy.Piecewise((1, y**3 >= 2), (0, True)),
        sympy.Piecewise((0, y < sympy.cbrt(2)), (1, True)),
    ),
    "e^y ≥ 7 and y < log 7": E(
        sympy.Piecewise((1, sympy.exp(y) >= 7), (0, True)),
        sympy.Piecewise((0, y < sympy.log(7)), (1, True)),
    ),
    "max + min": E(sympy.Max(y, 7) + sympy.Min(y, 7), y + 7),
    "relu": E(sympy.Piecewise((y - 1000, y > 1000), (0, True)), sympy.Max(y - 1000, 0)),
    "floor and ceiling": E(sympy.floor(y) + sympy.ceiling(-y), 0),
    "max − min": E(sympy.Max(x, y) - sympy.Min(x, y), abs(x - y)),
    "sign · abs at sqrt 2": E(sympy.sign(y - S2) * abs(y - S2), y - S2),
    "the hat": E(
        sympy.Max(0, 1 - abs(y - 12345)),
        sympy.Piecewise((1 - abs(y - 12345), abs(y - 12345) < 1), (0, True)),
    ),
    "min on [7, ∞)": ForAll((y,), E(sympy.Min(y, 7), 7), sympy.Interval(7, sympy.oo)),
    "min on (0, 1/1000]": ForAll(
        (p,), E(sympy.Min(p, R(1, 1000)), p), sympy.Interval(0, R(1, 1000))
    ),
    "1 on (0, 1)": ForAll(
        (y,), E(sympy.Piecewise((1, y < 1), (0, True)), 1), sympy.Interval.open(0, 1)
    ),
    "an integer's abs": E(sympy.Piecewise((n, n >= 0), (-n, True)), abs(n)),
    "frac": E(sympy.frac(y), y - sympy.floor(y)),
    "mod": E(sympy.Mod(y, 5), y - 5 * sympy.floor(y / 5)),
    "ceiling − floor": E(
        sympy.ceiling(y) - sympy.floor(y),
        sympy.Piecewise((0, sympy.Eq(sympy.frac(y), 0)), (1, True)),
    ),
}


def _mp_difference(formula, point) -> mpmath.mpf:
    body = formula.body if isinstance(formula, ForAll) else formula
    d = (body.lhs - body.rhs).xreplace({s: sympy.sympify(v) for s, v in point.items()})
    with mpmath.workdps(50):
        return mpmath.mpf(sympy.N(d, 50))


@pytest.mark.parametrize("name", sorted(FALSE))
def test_a_false_region_between_thresholds_disagrees(name):
    formula, witness = FALSE[name]
    assert abs(_mp_difference(formula, witness)) > 1e-6  # false: independent of the tool
    outcome, text = spot_check(formula)
    assert outcome == "DISAGREES", text


@pytest.mark.parametrize("name", sorted(TRUE))
def test_a_true_piecewise_identity_never_disagrees(name):
    outcome, text = spot_check(TRUE[name])
    assert outcome == "spot-checked", text


def test_threshold_points_are_evaluated_and_counted():
    text = spot_check(TRUE["max − min"])[1]
    assert "threshold points" in text and " 0/" not in text


def test_a_false_band_behind_more_thresholds_than_are_tried_is_not_a_pass():
    """Seventy true pieces ``max(y, 10k) + min(y, 10k) − y − 10k`` (0 by hand) pad the
    switches past ``MAX_SWITCHES``: the band behind them is never a pass (``unknown``), and
    the padding alone is not a disagreement."""
    padding = sum(sympy.Max(y, 10 * k) + sympy.Min(y, 10 * k) - y - 10 * k for k in range(70))
    assert spot_check(E(padding + band(y, R(20001, 2), R(20003, 2)), 0))[0] != "spot-checked"
    assert spot_check(E(padding, 0))[0] in ("unknown", "spot-checked")
    few = E(sum(sympy.Max(0, 1 - abs(y - 10 * k)) for k in range(5)), 0)
    base = {y: sympy.Integer(1)}
    points = structural_points([few.lhs, few.rhs], base, [(y, sympy.S.Reals)], {}, 60)
    assert 0 < len(points) <= MAX_STRUCTURAL
    assert {(y - 30, False), (y - 10, False)} <= set(switches([few.lhs]))


@pytest.mark.parametrize(
    "formula",
    [
        E(band(sympy.sin(y), 1 - R(1, 10**6), 1), 0),  # false at π/2 + 1/1000 (mpmath)
        E(band(sympy.tanh(y), R(1, 2), R(1, 2) + R(1, 10**9)), 0),  # false at atanh(1/2 + 10⁻⁹/2)
        E(band(sympy.Function("sigma")(y), 10**6, 10**6 + 1), 0),  # false for σ = id at 10⁶ + 1/2
    ],
)
def test_a_switch_whose_thresholds_are_not_found_is_not_a_pass(formula):
    """No thresholds are found for a band in sin, tanh or σ: not ``spot-checked``."""
    assert spot_check(formula)[0] != "spot-checked"


def test_points_stay_in_the_domain_and_the_assumptions():
    """A threshold outside the domain (y = 1 of (0, 1), p = 0 of p > 0) is never tried."""
    body = E(sympy.Piecewise((1, y < 1), (0, y > -1), (5, True)) + abs(p), 1 + p)
    ranges = [(y, sympy.Interval.open(0, 1)), (p, sympy.S.Reals)]
    base = {y: R(1, 2), p: R(3)}
    for values in structural_points([body.lhs, body.rhs], base, ranges, {}, 60):
        assert 0 < values[y] < 1 and values[p] > 0


@settings(max_examples=15, deadline=None)
@given(
    st.integers(-(10**9), 10**9),
    st.integers(1, 10**6),
    st.integers(1, 10**6),
    st.sampled_from(["piecewise", "heaviside", "hat"]),
)
def test_a_narrow_false_region_anywhere_disagrees(at, num, den, shape):
    """A region of width num/den·10⁻³ at any integer: false there (its value is 1 at its
    middle, by hand), and found; the same region subtracted from itself stays spot-checked."""
    a, b = sympy.Integer(at), at + R(num, den * 1000)
    piece = {
        "piecewise": band(y, a, b),
        "heaviside": H(y - a) * H(b - y),
        "hat": sympy.Max(0, 1 - abs(y - (a + b) / 2) * 2 / (b - a)),
    }[shape]
    assert spot_check(E(piece, 0))[0] == "DISAGREES"
    assert spot_check(E(piece + 1, 1 + piece))[0] == "spot-checked"


def test_a_tampered_export_with_a_false_banded_identity_disagrees(tmp_path):
    """The re-check of an export whose spot-checked step is a false band (Heaviside: outside
    the SMT fragment, so a spot check is its obligation) — it had exited 0."""
    f = FALSE["a Heaviside band"][0]
    spot = json.dumps({"schema": SPOT_SCHEMA, "formula_srepr": sympy.srepr(f)})
    s1 = fact_node("s1", f, "sympy", obligation=(Checks.SPOT, spot))
    write_export(tmp_path, [s1], statement=s1)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any(r.node == "s1" and r.check == Checks.SPOT and not r.ok for r in rows)


def test_a_hypergeometric_identity_is_spot_checked_in_a_cold_process():
    """capacity.mgf's ₀F₁ = Γ·β^(1−d/2)·I_(d/2−1)(2β): no random point evaluates, so SymPy's own
    re-simplification decides it (0.06 s). In a fresh process SymPy first builds hyperexpand's
    table (~0.4 s), which once counted against the 0.5 s budget: the whole-project re-check
    exited 3 or 0 by what it had re-checked before. The table is now built outside it."""
    import subprocess
    import sys

    code = (
        "import sympy\n"
        "from symbolic.evidence.spot_checks import spot_check\n"
        "d, b = sympy.symbols('d beta', positive=True)\n"
        "f = sympy.Eq(sympy.hyper((), (d/2,), b**2),"
        " b**(1 - d/2)*sympy.besseli(d/2 - 1, 2*b)*sympy.gamma(d/2))\n"
        "print(spot_check(f)[0])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "spot-checked", done.stdout + done.stderr
