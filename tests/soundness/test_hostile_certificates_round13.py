"""Red-team round 13: forged exports that re-checked as a pass (exit 0).

* **Spot checks drawn from a lattice.** A spot check evaluated a formula at points drawn from
  small sets: reals ``p/q`` with q ≤ 97, an interval's points ``k/1000``, integers in −62..62,
  and eighteen far values (multiples of 10⁶ and −10¹², or one more). A formula can vanish on
  all of them and nowhere near: ``∀x ∈ [0, 1]: sin(1000πx) = 0``, ``sin(M·π·x) = 0`` with
  M = lcm(1..97), a product of ``(1000x − k)`` over k < 1000, a product of ``(n − r)`` or of
  ``sin(π(n − r)/10²⁰)`` over the integers drawn, ``sin(M·π·σ(0))`` and ``sin(12π·K[0, 1])``
  over σ's and matrices' random stand-ins (denominators ≤ 5), and ``Σ_{i=1}^{m} i = m(m + 1)/2
  + Π_{|k|≤14}(m − k)`` (a sum's limit only from −11..11), ``∀n ∈ [0, 100] ∩ ℤ: Π_{k≤62}(n −
  k) = 0`` (n only from 0..62) — each false, each
  ``spot-checked`` (exit 0). Now a far value (a sum's limit's too) is anywhere between 10⁶
  and 10⁷ (and −10¹² …), an interval's point is a random fraction of a random 32-bit prime
  denominator (an integer's: any integer of it), and a value inside ``sin``, ``cos``, ``Γ``, …
  (σ's and matrices' too) gets such a fine part.
* **Points where a side is not real.** A point where the real evaluators could not enclose
  a side (``√x`` at a negative x) was not counted, even where the two sides are different
  complex numbers: ``√x = √|x|``, ``log x = log |x|`` and ``x^(1/3) = max(x, 0)^(1/3)`` — false
  at x = −1 (i ≠ 1, iπ ≠ 0, e^{iπ/3} ≠ 0; the last also for the real cube root, −1 ≠ 0) —
  were spot-checked at their positive points alone, and so was ``√x ≥ 0``. Now such a point
  refutes an identity when the real or imaginary part of ``lhs − rhs`` is enclosed away from
  0, and an order (``≥``, ``<``, …) when the imaginary part is.
* **The domain a step shows.** A step's ``domain`` (``x ∈ (0, ∞)``) is the only place a
  reader of the manifest sees its symbols' sets — a formula's text prints a real and a
  negative ``x`` alike — and nothing read it: ``|x| = −x`` of a negative x, shown with
  ``x ∈ (0, ∞)``, re-checked proved. A set shown for a symbol of the formula must now be that
  symbol's set.

The truth of each forged formula is established here by hand (a point where it fails,
evaluated exactly by SymPy at that point), independently of the re-check.
"""

from __future__ import annotations

import json
import math
from functools import reduce

import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.formula_smt import smt_obligation
from symbolic.evidence.manifest import SPOT_SCHEMA, Checks
from symbolic.evidence.solvers import cvc5_available
from symbolic.evidence.spot_relations import relation_spot_check
from symbolic.kernel import ForAll

pytestmark = pytest.mark.xdist_group("hostile-certificates")

x = sympy.Symbol("x", real=True)
n = sympy.Symbol("n", integer=True)
sigma = sympy.Function("sigma")
K = sympy.MatrixSymbol("K", 2, 2)
PI = sympy.pi
AGREED = rc.EXIT_OK if cvc5_available() else rc.EXIT_UNKNOWN  # no second solver: unknown


def U(cls, *args):
    return cls(*args, evaluate=False)


def lcm_upto(k: int) -> int:
    return reduce(lambda a, b: a * b // math.gcd(a, b), range(1, k + 1))


M97 = lcm_upto(97)


def _read(f):
    return read_formula(sympy.srepr(f))


def _zero_sum(e):
    """``e − e``: 0, and outside the SMT fragment when e is (exp): a spot check, not solvers."""
    return U(sympy.Add, e, U(sympy.Mul, -1, e))


def _spot(formula) -> tuple[str, str]:
    text = json.dumps(
        {
            "schema": SPOT_SCHEMA,
            "formula": sympy.sstr(_read(formula)),
            "formula_srepr": sympy.srepr(formula),
            "expected": "proved",
        }
    )
    return Checks.SPOT, text


# -- 1. spot checks drawn from a lattice ---------------------------------------------------------

GRID_SINE = ForAll((x,), U(sympy.Eq, sympy.sin(U(sympy.Mul, 1000, PI, x)), 0), sympy.Interval(0, 1))
LCM_SINE = U(sympy.Eq, sympy.sin(U(sympy.Mul, M97, PI, x)), 0)
GRID_PRODUCT = ForAll(
    (x,),
    U(
        sympy.Eq,
        U(
            sympy.Add,
            U(sympy.Mul, *[U(sympy.Add, U(sympy.Mul, 1000, x), -k) for k in range(1, 1000)]),
            _zero_sum(sympy.exp(x)),
        ),
        0,
    ),
    sympy.Interval(0, 1),
)
DRAWN = [*range(-62, 63)] + [
    s * 10**e * k + d for s, e in ((1, 6), (-1, 12)) for k in range(1, 10) for d in (0, 1)
]
INTEGER_PRODUCT = U(
    sympy.Eq,
    U(sympy.Add, U(sympy.Mul, *[U(sympy.Add, n, -r) for r in DRAWN]), _zero_sum(sympy.exp(n))),
    0,
)
INTEGER_SINES = U(
    sympy.Eq,
    U(
        sympy.Mul,
        *[
            sympy.sin(U(sympy.Mul, sympy.Rational(1, 10**20), PI, U(sympy.Add, n, -r)))
            for r in DRAWN
        ],
    ),
    0,
)
SIGMA_SINE = U(
    sympy.Eq,
    U(sympy.Add, sympy.sin(U(sympy.Mul, lcm_upto(800), PI, sigma(sympy.Integer(0)))), x),
    x,
)
ENTRY_SINE = U(sympy.Eq, U(sympy.Add, sympy.sin(U(sympy.Mul, 12, PI, K[0, 1])), x), x)

# Each false: (formula, a point where it fails as {symbol: value}, σ there or None).
m = sympy.Symbol("m", integer=True)
i = sympy.Symbol("i", integer=True)
SUM_LIMIT = U(  # Σ_{i=1}^{m} i = m(m + 1)/2 + Π_{|k|≤14}(m − k): a limit was drawn from −11..11
    sympy.Eq,
    sympy.Sum(i, (i, 1, m)),
    U(
        sympy.Add,
        U(sympy.Mul, m, U(sympy.Add, m, 1), sympy.Rational(1, 2)),
        U(sympy.Mul, *[U(sympy.Add, m, -k) for k in range(-14, 15)]),
    ),
)

INTEGER_INTERVAL = ForAll(  # ∀n ∈ [0, 100] ∩ ℤ: Π_{k ≤ 62}(n − k) = 0: n was drawn from 0..62
    (n,),
    U(
        sympy.Eq,
        U(
            sympy.Add,
            U(sympy.Mul, *[U(sympy.Add, n, -k) for k in range(63)]),
            _zero_sum(sympy.exp(n)),
        ),
        0,
    ),
    sympy.Interval(0, 100),
)

FALSE_ON_A_LATTICE = {
    "Π_{k ≤ 62}(n − k) = 0 on [0, 100] ∩ ℤ": (INTEGER_INTERVAL.body, {n: sympy.Integer(63)}),
    "Σ i = m(m + 1)/2 + Π(m − k)": (SUM_LIMIT, {m: sympy.Integer(15)}),
    "sin(1000πx) = 0 on [0, 1]": (GRID_SINE.body, {x: sympy.Rational(1, 2000)}),
    "sin(lcm(1..97)·πx) = 0": (LCM_SINE, {x: sympy.Rational(1, 2 * M97)}),
    "Π(1000x − k) = 0 on [0, 1]": (GRID_PRODUCT.body, {x: sympy.Rational(1, 2000)}),
    "Π(n − r) = 0 over the integers drawn": (INTEGER_PRODUCT, {n: sympy.Integer(63)}),
    "Π sin(π(n − r)/10²⁰) = 0": (INTEGER_SINES, {n: sympy.Integer(63)}),
    "sin(lcm(1..800)·π·σ(0)) = 0 for every σ": (
        SIGMA_SINE,
        {sigma(sympy.Integer(0)): sympy.Rational(1, 2 * lcm_upto(800)), x: sympy.Integer(0)},
    ),
    "sin(12π·K[0, 1]) = 0 for every K": (
        ENTRY_SINE,
        {K[0, 1]: sympy.Rational(1, 24), x: sympy.Integer(0)},
    ),
}
FORGED = {
    "Π_{k ≤ 62}(n − k) = 0 on [0, 100] ∩ ℤ": INTEGER_INTERVAL,
    "Σ i = m(m + 1)/2 + Π(m − k)": SUM_LIMIT,
    "sin(1000πx) = 0 on [0, 1]": GRID_SINE,
    "sin(lcm(1..97)·πx) = 0": LCM_SINE,
    "Π(1000x − k) = 0 on [0, 1]": GRID_PRODUCT,
    "Π(n − r) = 0 over the integers drawn": INTEGER_PRODUCT,
    "Π sin(π(n − r)/10²⁰) = 0": INTEGER_SINES,
    "sin(lcm(1..800)·π·σ(0)) = 0 for every σ": SIGMA_SINE,
    "sin(12π·K[0, 1]) = 0 for every K": ENTRY_SINE,
}


@pytest.mark.parametrize("name", sorted(FALSE_ON_A_LATTICE))
def test_each_lattice_formula_is_false(name):
    """The independent truth: at the point given, lhs − rhs is exactly nonzero."""
    body, point = FALSE_ON_A_LATTICE[name]
    gap = (body.lhs - body.rhs).xreplace(point).doit()
    assert gap.is_number and gap != 0, (name, gap)


@pytest.mark.parametrize("name", sorted(FORGED))
def test_a_formula_vanishing_on_the_drawn_points_is_not_spot_checked(name):
    """Each was ``spot-checked`` at 6/6 points (exit 0); now a point off the lattice fails."""
    assert relation_spot_check(_read(FORGED[name]))[0] == "DISAGREES"


def test_a_forged_lattice_identity_does_not_recheck(tmp_path):
    """End to end: the export of ``sin(lcm(1..97)·πx) = 0`` with its spot file re-checked 0."""
    node = fact_node("s1", LCM_SINE, "sympy", obligation=_spot(LCM_SINE))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert next(r for r in rows if r.node == "s1").outcome == "DISAGREES"


@settings(max_examples=4, deadline=None)
@given(st.integers(97, 160), st.integers(1, 30))
def test_no_multiple_of_lcm_1_to_97_makes_a_sine_vanish_at_every_point(k, c):
    """Property: sin(c·lcm(1..k)·πx) = 0 (false at x = 1/(2c·lcm(1..k))) is never spot-checked."""
    m = c * lcm_upto(k)
    f = U(sympy.Eq, sympy.sin(U(sympy.Mul, m, PI, x)), 0)
    assert sympy.sin(m * PI * sympy.Rational(1, 2 * m)) == 1
    assert relation_spot_check(_read(f))[0] == "DISAGREES"


@pytest.mark.parametrize(
    "formula",
    [
        U(
            sympy.Eq,
            U(
                sympy.Add,
                sympy.sin(U(sympy.Mul, M97, PI, x)) ** 2,
                sympy.cos(U(sympy.Mul, M97, PI, x)) ** 2,
            ),
            1,
        ),
        U(sympy.Eq, sympy.gamma(U(sympy.Add, x, 1)), U(sympy.Mul, x, sympy.gamma(x))),
        U(sympy.Eq, U(sympy.Add, sympy.sin(sigma(x)) ** 2, sympy.cos(sigma(x)) ** 2), 1),
        ForAll(
            (x,),
            U(sympy.Eq, sympy.sin(U(sympy.Mul, 2, x)), 2 * sympy.sin(x) * sympy.cos(x)),
            sympy.Interval(0, 1),
        ),
    ],
    ids=["sin²+cos² at M·πx", "Γ(x+1) = xΓ(x)", "sin²σ+cos²σ", "sin 2x on [0, 1]"],
)
def test_true_identities_off_the_lattice_are_still_spot_checked(formula):
    assert relation_spot_check(_read(formula))[0] == "spot-checked"


# -- 2. points where a side is not real ---------------------------------------------------------

NOT_REAL = {
    "√x = √|x|": U(sympy.Eq, sympy.sqrt(x), sympy.sqrt(sympy.Abs(x))),
    "log x = log |x|": U(sympy.Eq, sympy.log(x), sympy.log(sympy.Abs(x))),
    "x^(1/3) = max(x, 0)^(1/3)": U(
        sympy.Eq,
        U(sympy.Pow, x, sympy.Rational(1, 3)),
        U(sympy.Pow, sympy.Max(x, 0), sympy.Rational(1, 3)),
    ),
    "√x·eˣ = √|x|·eˣ": U(
        sympy.Eq,
        U(sympy.Mul, sympy.sqrt(x), sympy.exp(x)),
        U(sympy.Mul, sympy.sqrt(sympy.Abs(x)), sympy.exp(x)),
    ),
}


@pytest.mark.parametrize("name", sorted(NOT_REAL))
def test_each_is_false_at_minus_one(name):
    f = NOT_REAL[name]
    gap = sympy.expand_complex((f.lhs - f.rhs).subs(x, -1))
    assert gap != 0 and sympy.N(abs(gap)) > sympy.Rational(1, 2), (name, gap)


@pytest.mark.parametrize("name", sorted(NOT_REAL))
def test_different_complex_sides_refute_an_identity(name):
    assert relation_spot_check(_read(NOT_REAL[name]))[0] == "DISAGREES"


def test_an_order_between_sides_not_both_real_fails():
    """√x ≥ 0 for every real x: at x = −1, √x = i, no nonnegative real (spot-checked before)."""
    assert sympy.im(sympy.sqrt(sympy.Integer(-1))) == 1
    formula = U(sympy.Ge, sympy.sqrt(x), 0)
    assert relation_spot_check(_read(formula))[0] == "DISAGREES"


@pytest.mark.parametrize(
    "formula",
    [
        U(sympy.Eq, U(sympy.Pow, sympy.sqrt(x), 2), x),  # i² = −1 at x = −1 as well
        U(sympy.Eq, sympy.exp(sympy.log(x)), x),
        U(sympy.Eq, U(sympy.Mul, sympy.sqrt(x), sympy.sqrt(x)), x),
        U(sympy.Ge, sympy.sqrt(U(sympy.Pow, x, 2)), 0),
    ],
    ids=["(√x)² = x", "e^(log x) = x", "√x·√x = x", "√(x²) ≥ 0"],
)
def test_identities_true_for_complex_values_are_still_spot_checked(formula):
    assert relation_spot_check(_read(formula))[0] == "spot-checked"


# -- 3. the domain a step shows -------------------------------------------------------------------

NEG = sympy.Symbol("x", negative=True)
ABS_NEG = U(sympy.Eq, sympy.Abs(NEG), U(sympy.Mul, -1, NEG))  # |x| = −x: true for x < 0


def test_abs_x_is_minus_x_for_negative_x_only():
    assert sympy.Abs(sympy.Integer(-3)) == 3 and sympy.Abs(sympy.Integer(1)) != -1


def _domain_export(d, domain):
    node = fact_node("s1", ABS_NEG, "sympy", obligation=(Checks.SMT, smt_obligation(ABS_NEG)))
    node["domain"] = domain
    write_export(d, [node], statement=node)
    return rc.recheck(d)


@pytest.mark.parametrize(
    "domain",
    [["x ∈ (0, ∞)"], ["x ∈ ℤ"], ["x ∈ (−∞, 0)", "x ∈ [0, ∞)"], "x ∈ (−∞, 0)", [None]],
    ids=["positive", "integer", "one-wrong-of-two", "a text", "not-text"],
)
def test_a_domain_that_shows_another_set_disagrees(tmp_path, domain):
    """|x| = −x, proved of a negative x, read with ``x ∈ (0, ∞)`` beside it says |1| = −1."""
    rows, code, _ = _domain_export(tmp_path, domain)
    assert code == rc.EXIT_DISAGREE
    assert "domain" in next(r for r in rows if r.node == "s1").answer


@pytest.mark.parametrize("domain", [["x ∈ (−∞, 0)"], [], ["x − 1 ≠ 0"]])
def test_the_domain_the_export_writes_still_agrees(tmp_path, domain):
    rows, code, _ = _domain_export(tmp_path, domain)
    assert code == AGREED, [r.cells() for r in rows]


_KINDS = [
    {},
    {"positive": True},
    {"negative": True},
    {"nonnegative": True},
    {"nonzero": True},
    {"integer": True},
    {"integer": True, "positive": True},
    {"integer": True, "nonnegative": True},
    {"odd": True},
    {"prime": True},
    {"rational": True},
]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(_KINDS), st.sampled_from(_KINDS))
def test_a_symbols_set_is_shown_only_as_its_own(own, shown):
    """Property: the set the export writes for a symbol of one kind passes beside a formula
    of that symbol, and beside a symbol of another kind (another set) disagrees."""
    from symbolic.evidence.manifest import domain_problem
    from symbolic.kernel import domain_text as shown_set

    a, b = sympy.Symbol("v", **own), sympy.Symbol("v", **shown)
    formula = U(sympy.Eq, a, a)
    text = shown_set(b)
    problem = domain_problem({"domain": [] if text is None else [text]}, formula)
    assert (problem is None) == (text is None or text == shown_set(a))


def test_a_claim_without_a_statement_is_unknown_not_a_pass(tmp_path):
    """The statement removed (and the steps free to be swapped): the steps bind to nothing
    stated, so the claim is ``not re-checked`` and the re-check exits 3, never 0."""
    node = fact_node("s1", ABS_NEG, "sympy", obligation=(Checks.SMT, smt_obligation(ABS_NEG)))
    node["domain"] = ["x ∈ (−∞, 0)"]
    write_export(tmp_path / "stated", [dict(node)], statement=node)
    assert rc.recheck(tmp_path / "stated")[1] == AGREED
    write_export(tmp_path / "bare", [dict(node)])
    rows, code, _ = rc.recheck(tmp_path / "bare")
    assert code == rc.EXIT_UNKNOWN
    assert [r.outcome for r in rows if r.check == "claim"] == ["not re-checked"]
