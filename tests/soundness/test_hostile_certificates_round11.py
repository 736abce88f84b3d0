"""Red-team round 11: tampered exports that re-checked as a pass, a false alarm, or did not stop.

* **Claimed nowhere.** A rule step holds where the denominators it was proved with are nonzero,
  also those its formula no longer shows. With ``D = (x + 1)² − x² − 2x − 1`` (zero for every
  x, which SymPy's ``is_zero`` does not say): ``inst`` of ``y/y = 1`` and ``0/y = 0`` at
  ``y := D``, ``cong`` of ``D = 0`` into ``h/D``, ``symm`` and ``trans`` concluded ``1 = 0``,
  re-checked ``proved`` (exit 0). So did ``1 = 2`` from ``1 = 1 + 0/max(y, 0)``, ``… = f(y)``,
  ``f(y) = 2 + 0/min(y, 0)``, ``… = 2``: each fact claimed somewhere, together nowhere. A rule
  step's conditions must now be shown to hold together at a point (``vacuity``): unknown else.
  (The kernel derives the same ``1 = 0``: see the report.)
* **Names that look alike.** ``∃x ∈ ℝ: x > х`` (Cyrillic х) holds and read as ``∃x: x > x``;
  so with ``x`` followed by a zero-width space, a fullwidth ``ｘ``, a right-to-left override, a
  name ``x²`` (negative: ``x² < 0``): each re-checked ``proved``. Now a disagreement
  (``names``).
* **A FIFO named recheck.json** made the re-check wait for ever writing its record; a second
  name (hard link) of another file was written through. Both are refused.
* **A false alarm.** ``n² ≠ 2`` for an integer n is true; its obligation reads n over the
  reals, where n = √2 makes it ``sat``: the re-check said DISAGREES. A ``sat`` of an obligation
  that asks more than the formula refutes nothing: ``unknown``.
"""

from __future__ import annotations

import json
import os
import unicodedata
from fractions import Fraction

import mpmath
import pytest
import sympy
from forged_exports import fact_node, one_is_zero_rules, write_export, zero_everywhere
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.files import write_file
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.formula_smt import smt_obligation
from symbolic.evidence.manifest import MANIFEST_NAME, RECORD_NAME, Checks
from symbolic.evidence.names import character_problem, skeleton
from symbolic.evidence.numbers import end_points, ivalue
from symbolic.evidence.solvers import cvc5_available
from symbolic.evidence.vacuity import nonzero_everywhere
from symbolic.kernel import ASSUMED, Exists

pytestmark = pytest.mark.xdist_group("hostile-certificates")
AGREED = rc.EXIT_OK if cvc5_available() else rc.EXIT_UNKNOWN  # no second solver: unknown

x = sympy.Symbol("x", real=True)
y = sympy.Symbol("y", real=True)
h = sympy.Symbol("h")
ONE, ZERO, TWO = sympy.Integer(1), sympy.Integer(0), sympy.Integer(2)


def U(cls, *args):
    return cls(*args, evaluate=False)


def _smt(f) -> tuple[str, str]:
    """The SMT obligation of ``f`` as the re-check prints it from the manifest's formula."""
    return Checks.SMT, smt_obligation(read_formula(sympy.srepr(f)))


def _checked(i: str, f) -> dict:
    return fact_node(i, f, "sympy", obligation=_smt(f))


def _rule(i: str, f, rule: str, premises, detail=None) -> dict:
    return fact_node(i, f, "rule", rule=rule, premises=premises, detail=detail)


def _inv(e):
    return U(sympy.Pow, e, -1)


# -- 1. a rule step claimed nowhere -------------------------------------------------------------

D = zero_everywhere(x)  # (x + 1)² − x² − 2x − 1, unevaluated


def _one_is_zero() -> list[dict]:
    """1 = 0 from three true facts and five rule steps, each holding where D ≠ 0 (nowhere)."""
    return [
        _checked("s1", U(sympy.Eq, U(sympy.Mul, y, _inv(y)), ONE)),  # y/y = 1 where y ≠ 0
        _checked("s2", U(sympy.Eq, D, ZERO)),
        _checked("s3", U(sympy.Eq, U(sympy.Mul, ZERO, _inv(y)), ZERO)),  # 0/y = 0 where y ≠ 0
    ] + one_is_zero_rules(D, y, h)


def test_d_is_zero_everywhere_though_sympy_does_not_say_so():
    assert sympy.expand(D) == 0 and D.is_zero is None
    assert all(D.subs(x, v) == 0 for v in (-3, 0, sympy.Rational(7, 2), 10**6))


def test_one_equals_zero_from_a_divisor_zero_everywhere_is_not_proved(tmp_path):
    nodes = _one_is_zero()
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_UNKNOWN  # it was 0: "1 = 0" proved
    claim = next(r for r in rows if r.check == "claim")
    assert claim.outcome == "unknown"
    assert any(r.node == "s8" and r.check == "conditions" for r in rows)


def test_conditions_true_apart_and_false_together_are_not_proved(tmp_path):
    """1 = 2 where max(y, 0) ≠ 0 and min(y, 0) ≠ 0: y > 0 and y < 0. Each fact is claimed
    where one holds (y > 0, or y < 0); ``trans`` unites their conditions."""
    a, b = sympy.Max(y, 0, evaluate=False), sympy.Min(y, 0, evaluate=False)
    f = sympy.Piecewise((ONE, U(sympy.Gt, y, 0)), (TWO, True), evaluate=False)
    one_a = U(sympy.Add, ONE, U(sympy.Mul, ZERO, _inv(a)))  # 1 + 0/max(y, 0)
    two_b = U(sympy.Add, TWO, U(sympy.Mul, ZERO, _inv(b)))
    nodes = [
        _checked("s1", U(sympy.Eq, ONE, one_a)),
        _checked("s2", U(sympy.Eq, one_a, f)),  # y > 0: f = 1
        _checked("s3", U(sympy.Eq, f, two_b)),  # y < 0: f = 2
        _checked("s4", U(sympy.Eq, two_b, TWO)),
        _rule("s5", U(sympy.Eq, ONE, TWO), "trans", ["s1", "s2", "s3", "s4"]),
    ]
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_UNKNOWN  # it was 0: "1 = 2" proved
    assert all(r.outcome == "proved" for r in rows if r.node in ("s1", "s2", "s3", "s4"))
    assert any(r.node == "s5" and r.check == "conditions" for r in rows)


def test_a_condition_that_holds_somewhere_still_proves(tmp_path):
    """(x² + 1)/(x² + 1) = 1 by ``inst`` of y/y = 1: claimed wherever x² + 1 ≠ 0 (everywhere)."""
    e = U(sympy.Add, U(sympy.Pow, x, TWO), ONE)
    nodes = [
        _checked("s1", U(sympy.Eq, U(sympy.Mul, y, _inv(y)), ONE)),
        _rule(
            "s2",
            U(sympy.Eq, U(sympy.Mul, e, _inv(e)), ONE),
            "inst",
            ["s1"],
            sympy.Tuple(sympy.Tuple(y, e)),
        ),
    ]
    write_export(tmp_path, nodes, statement=nodes[-1])
    rows, code, _ = rc.recheck(tmp_path)
    assert code == AGREED, [r.cells() for r in rows]


@settings(max_examples=20, deadline=None)
@given(
    st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=12),
    st.fractions(min_value=0, max_value=40, max_denominator=12),
    st.integers(min_value=0, max_value=12),
)
def test_new_enclosures_hold_the_values_mpmath_computes(b, z, k):
    """₀F₁(; b; z) and the rising factorial (b)_k, enclosed by the re-check, hold the values
    mpmath computes at 50 digits (its series and product, independently of Arb)."""
    bq, zq = sympy.Rational(b.numerator, b.denominator), sympy.Rational(z.numerator, z.denominator)
    with mpmath.workdps(50):
        want_f = mpmath.hyp0f1(mpmath.mpf(b.numerator) / b.denominator, mpmath.mpf(zq.p) / zq.q)
        want_r = mpmath.rf(mpmath.mpf(b.numerator) / b.denominator, k)
        for e, want in (
            (sympy.hyper((), (bq,), zq, evaluate=False), want_f),
            (sympy.RisingFactorial(bq, k, evaluate=False), want_r),
        ):
            lo, hi = end_points(ivalue(e))
            tol = abs(want) * mpmath.mpf(10) ** -40
            assert mpmath.mpf(lo.numerator) / lo.denominator <= want + tol
            assert want - tol <= mpmath.mpf(hi.numerator) / hi.denominator


# -- 2. names that look alike --------------------------------------------------------------------

LOOKALIKES = {
    "Cyrillic х": "\u0445",
    "zero-width space": "x\u200b",
    "fullwidth ｘ": "\uff58",
    "right-to-left override": "x\u202e",
    "mathematical italic 𝑥": "\U0001d465",
    "variation selector": "x\ufe00",
    "Armenian օ": "\u0585",  # ∃o: o > օ
    "dotless ı": "\u0131",  # ∃i: i > ı
    "capital I": "I",  # ∃l: l > I (alike in many sans-serif fonts)
}


@pytest.mark.parametrize("name", LOOKALIKES.values(), ids=list(LOOKALIKES))
def test_exists_x_greater_than_a_lookalike_disagrees(tmp_path, name):
    """∃x ∈ ℝ: x > x′ holds for every x′ (x = x′ + 1); shown as ∃x: x > x it is false."""
    other = sympy.Symbol(name, real=True)
    latin = {"\u0585": "o", "\u0131": "i", "I": "l"}.get(name, "x")  # the letter it looks like
    v = sympy.Symbol(latin, real=True)
    f = Exists(v, U(sympy.Gt, v, other), sympy.S.Reals)
    node = _checked("s1", f)
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE  # it was 0: proved


def test_a_superscript_in_a_name_prints_as_a_power(tmp_path):
    """A negative symbol named x²: ``x² < 0`` proved."""
    f = U(sympy.Lt, sympy.Symbol("x\u00b2", negative=True), ZERO)
    node = _checked("s1", f)
    write_export(tmp_path, [node], statement=node)
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE


def test_a_bidi_override_in_an_assumptions_words_disagrees(tmp_path):
    """Shown where bidi text is honoured, the words after the override run right to left."""
    words = sympy.Symbol("the weights are \u202e0 < bounded")
    node = fact_node("s1", ASSUMED(words), "assumption", kind="assumption")
    write_export(tmp_path, [node], statement=node)
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE  # it was 0: admitted


@pytest.mark.parametrize("name", ["sigma", "\u03c3", "K^+", "M*_{law}", "alpha_1", "W_Q"])
def test_names_of_the_toolkit_and_greek_letters_are_names(name):
    assert character_problem(name) is None


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=6))
def test_an_accepted_name_prints_as_itself(name):
    """A name that passes is its own NFKC form, has nothing invisible, and its look-alike
    skeleton is one of printable characters."""
    if character_problem(name) is None:
        assert unicodedata.normalize("NFKC", name) == name
        assert name.isprintable() and " " not in name
        assert skeleton(name).isprintable()


# -- 3. the record is written only to a regular file of one name ---------------------------------


def test_a_fifo_named_recheck_json_is_not_written(tmp_path):
    """A reader is opened first, so that the old code (which blocked until one came) writes
    into the FIFO instead of hanging: it must refuse."""
    fifo = tmp_path / RECORD_NAME
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(OSError):
            write_file(fifo, b"{}")
        assert os.read(reader, 10) == b""
    finally:
        os.close(reader)


def test_a_second_name_of_another_file_is_not_written_through(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    export = tmp_path / "out"
    export.mkdir()
    os.link(precious, export / RECORD_NAME)
    with pytest.raises(OSError):
        write_file(export / RECORD_NAME, b"{}")
    assert precious.read_text() == "keep me"


def test_the_re_check_ends_beside_a_fifo_record(tmp_path):
    f = U(sympy.Eq, U(sympy.Mul, x, x), U(sympy.Pow, x, TWO))
    node = _checked("s1", f)
    write_export(tmp_path, [node], statement=node)
    os.mkfifo(tmp_path / RECORD_NAME)
    reader = os.open(tmp_path / RECORD_NAME, os.O_RDONLY | os.O_NONBLOCK)
    try:
        rows, code, _ = rc.recheck(tmp_path)
        assert code == AGREED and os.read(reader, 10) == b""
    finally:
        os.close(reader)
    assert json.loads((tmp_path / MANIFEST_NAME).read_text())["claims"]


# -- 4. a sat of an obligation that asks more than the formula -----------------------------------


def test_an_integer_fact_true_only_for_integers_is_unknown_not_a_disagreement(tmp_path):
    """n² ≠ 2 for every integer n (√2 is irrational); over the reals n = √2 is a model."""
    n = sympy.Symbol("n", integer=True)
    node = _checked("s1", U(sympy.Ne, U(sympy.Pow, n, TWO), TWO))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_UNKNOWN  # it was 1: DISAGREES
    assert next(r for r in rows if r.node == "s1").outcome == "unknown"


def test_a_real_fact_refuted_by_the_solvers_still_disagrees(tmp_path):
    node = _checked("s1", U(sympy.Ne, U(sympy.Pow, x, TWO), TWO))
    write_export(tmp_path, [node], statement=node)
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE


# -- 5. a condition the statement does not show -------------------------------------------------


def _through(tmp_path, a, mid, b):
    """The re-check of ``a = b`` from the checked steps ``a = mid``, ``mid = b`` by ``trans``."""
    nodes = [
        _checked("s1", U(sympy.Eq, a, mid)),
        _checked("s2", U(sympy.Eq, mid, b)),
        _rule("s3", U(sympy.Eq, a, b), "trans", ["s1", "s2"]),
    ]
    write_export(tmp_path, nodes, statement=nodes[-1])
    return rc.recheck(tmp_path)


def test_a_statement_true_only_where_a_dropped_divisor_is_nonzero_is_not_proved(tmp_path):
    """pw(x) = 0 at x = 1 and 1 elsewhere; pw(x) = (x − 1)/(x − 1) and (x − 1)/(x − 1) = 1
    hold where x ≠ 1, and ``trans`` drops the divisor: ``pw(x) = 1``, false at x = 1, was
    proved (exit 0)."""
    pw = sympy.Piecewise((ZERO, U(sympy.Eq, x, ONE)), (ONE, True), evaluate=False)
    q = U(sympy.Mul, U(sympy.Add, x, -1), _inv(U(sympy.Add, x, -1)))
    assert pw.subs(x, 1) == 0  # the statement fails at x = 1
    rows, code, _ = _through(tmp_path, pw, q, ONE)
    assert code == rc.EXIT_UNKNOWN
    assert next(r for r in rows if r.check == "claim").outcome == "unknown"


def test_a_dropped_divisor_nonzero_everywhere_still_proves(tmp_path):
    """(x² + 1)/(x² + 1) is 1 for every x: the statement that drops it is as true."""
    e = U(sympy.Add, U(sympy.Pow, x, TWO), ONE)
    q = U(sympy.Mul, e, _inv(e))
    rows, code, _ = _through(tmp_path, x, U(sympy.Mul, x, q), x)
    assert code == AGREED, [r.cells() for r in rows]


def test_bessel_and_0f1_are_read_positive_only_where_every_term_is():
    """I_ν(z) > 0 for ν > −1, z > 0 (each term of its series is); I_{−3/2} changes sign
    (mpmath: negative at 1/2, positive at 3), so it is not read as nonzero."""
    d, beta = sympy.Symbol("d", positive=True), sympy.Symbol("beta", positive=True)
    assert nonzero_everywhere(sympy.besseli(d / 2 - 1, 2 * beta))
    assert nonzero_everywhere(sympy.hyper((), (d / 2,), beta**2))
    z = sympy.Symbol("z", positive=True)
    assert mpmath.besseli(-1.5, 0.5) < 0 < mpmath.besseli(-1.5, 3)
    assert not nonzero_everywhere(sympy.besseli(sympy.Rational(-3, 2), z))


# -- 6. two symbols of one name -----------------------------------------------------------------


def _spot(f) -> tuple[str, str]:
    from symbolic.evidence.manifest import SPOT_SCHEMA

    return Checks.SPOT, json.dumps({"schema": SPOT_SCHEMA, "formula_srepr": sympy.srepr(f)})


def test_two_free_symbols_of_one_name_and_no_common_value_disagree(tmp_path):
    """``Ne(x, x)`` of a positive and a negative x: true, shown as x ≠ x (spot-checked)."""
    xp, xn = sympy.Symbol("x", positive=True), sympy.Symbol("x", negative=True)
    f = U(sympy.Ne, xp, xn)
    node = fact_node("s1", f, "sympy", obligation=_spot(f))
    write_export(tmp_path, [node], statement=node)
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE  # it was 0: spot-checked


def test_a_sums_index_and_another_symbol_of_its_name_disagree(tmp_path):
    """Σ_{i=1}^{3} i′ = 3i′ (i′ a real beside the integer index i): shown Σ i = 3i, false."""
    i, other = sympy.Symbol("i", integer=True), sympy.Symbol("i", real=True)
    f = U(sympy.Eq, sympy.Sum(other, (i, 1, 3)), U(sympy.Mul, 3, other))
    node = fact_node("s1", f, "sympy", obligation=_spot(f))
    write_export(tmp_path, [node], statement=node)
    assert rc.recheck(tmp_path)[1] == rc.EXIT_DISAGREE  # it was 0: spot-checked


def test_symbols_of_one_name_whose_sets_meet_are_still_one_reading():
    """``conj`` of a fact of a real a and one of a nonzero a (the toolkit's exchange lemma):
    read as one a ≠ 0, which the conjunction implies."""
    from symbolic.evidence.manifest import printed_alike

    a, b = sympy.Symbol("a", real=True), sympy.Symbol("a", nonzero=True, real=True)
    f = U(sympy.And, U(sympy.Eq, U(sympy.Mul, a, 0), 0), U(sympy.Eq, U(sympy.Mul, b, _inv(b)), 1))
    assert printed_alike(f) is None


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.integers(min_value=-9, max_value=9), min_size=1, max_size=4),
    st.fractions(min_value=-5, max_value=5, max_denominator=7),
)
def test_a_divisor_zero_everywhere_is_found_and_one_zero_at_a_point_is_not(coefficients, r):
    """D = Σ c_k (x + 1)^k − expand(Σ c_k (x + 1)^k), k ≥ 1, is 0 for every x (SymPy's
    ``expand`` says so); D + (x − r) is 0 at x = r alone. A step holding where D ≠ 0 claims
    nothing; one holding where D + x − r ≠ 0 claims almost everywhere."""
    from symbolic.evidence.vacuity import nowhere

    terms = [
        U(sympy.Mul, c, U(sympy.Pow, U(sympy.Add, x, ONE), k))
        for k, c in enumerate(coefficients, 1)
    ]
    p = U(sympy.Add, *terms, ZERO)
    zero = U(sympy.Add, p, U(sympy.Mul, -1, sympy.expand(p)))
    at = sympy.Rational(r.numerator, r.denominator)
    shifted = U(sympy.Add, zero, x, -at)
    assert sympy.expand(zero.doit()) == 0 and sympy.expand(shifted.doit()) == x - at
    for d, empty in ((zero, True), (shifted, False)):
        f = U(sympy.Eq, U(sympy.Mul, d, _inv(d)), ONE)
        node = {"id": "s1", "_formula": f, "method": "rule", "kernel_rule": "trans", "premises": []}
        assert (nowhere(node, {"s1": node}) is not None) is empty


# -- 7. a ≠, < or > that random points cannot refute ----------------------------------------------


@pytest.mark.parametrize(
    "formula",
    [
        U(sympy.Ne, sympy.exp(x), TWO),  # false at x = ln 2: e^{ln 2} = 2
        U(sympy.Gt, U(sympy.Pow, U(sympy.Add, sympy.exp(x), -2), TWO), ZERO),  # 0 at x = ln 2
    ],
    ids=["exp(x) != 2", "(exp(x) - 2)**2 > 0"],
)
def test_a_relation_false_only_where_its_sides_meet_is_not_spot_checked(tmp_path, formula):
    assert sympy.exp(sympy.log(2)) == 2
    node = fact_node("s1", formula, "sympy", obligation=_spot(formula))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_UNKNOWN  # it was 0: spot-checked
    assert next(r for r in rows if r.node == "s1").outcome == "not re-checked"


def test_a_strict_sign_the_assumptions_give_is_still_spot_checked(tmp_path):
    """The toolkit's own strict spot check (capacity): positive for positive x, d, β."""
    xp, d, beta = (sympy.Symbol(n, positive=True) for n in ("x", "d", "beta"))
    e = 2 * xp * (4 * xp / (xp + 1) ** 2) ** (d / 2 - sympy.Rational(3, 2))
    formula = U(sympy.Gt, e * sympy.exp(2 * beta * (1 - xp) / (xp + 1)) / (xp + 1), ZERO)
    node = fact_node("s1", formula, "sympy", obligation=_spot(formula))
    write_export(tmp_path, [node], statement=node)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == AGREED, [r.cells() for r in rows]


def test_a_dropped_condition_on_sigma_alone_is_not_proved(tmp_path):
    """σ(1) = σ(2) where some y has [σ(1) = σ(2)]·y ≠ 0: the condition holds for some σ (so
    the step is claimed somewhere) and the statement, for every σ, is false (σ(s) = s). Its
    symbols are not the statement's, its function is: it must hold for every σ."""
    sig = sympy.Function("sigma")
    a, b = sig(ONE), sig(TWO)
    d = sympy.Piecewise((y, U(sympy.Eq, a, b)), (ZERO, True), evaluate=False)
    mid = U(sympy.Add, b, U(sympy.Mul, ZERO, _inv(d)))
    rows, code, _ = _through(tmp_path, a, mid, b)
    assert code == rc.EXIT_UNKNOWN  # it was 0 (with the first fix of this round, too)
    assert next(r for r in rows if r.check == "claim").outcome == "unknown"
