"""Issue 25, red-team round 9: tampered exports (digests recomputed, as a forger does) whose
false statements re-checked as proved or spot-checked.

* an SMT obligation read a bound integer/rational/odd variable as a real (its sign only) in
  an existential place: ``∃q ∈ ℚ: q² = 2``, ``∃n ∈ ℤ: 2n = 1``, ``(∀n ∈ ℤ: 2n ≠ 1) ⇒ ⊥``
  were proved (z3 unsat). Reading over the reals is sound only where the variable is read
  universally (free, ∀ asserted, ∃ denied); elsewhere the formula now leaves the fragment;
* ``cong`` into a sum whose index is a symbol of a condition its premise holds under:
  ``pw(x) = 0`` holds where ``x ≠ 0`` (``trans`` of ``pw(x) = x·x⁻¹ − 1`` and
  ``x·x⁻¹ − 1 = 0``), and summed over ``x ∈ {−1, 0, 1}`` gave ``Σ pw(x) = 0`` though
  ``pw(0) = 1`` (the sum is 1): now a disagreement;
* a spot check took an enclosure of 1024 bits holding 0 as agreement: ``cos(10⁻²⁰⁰) = 1``
  (off by 5·10⁻⁴⁰¹, mpmath at 1000 digits) and ``cos(t) = 1 − t²/2`` at ``t = 10⁻²⁰⁰`` (off by
  4·10⁻⁸⁰²) were spot-checked; the point is now looked at with the precision its numbers ask.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.formula_smt import HEADER, smt_obligation
from symbolic.evidence.manifest import Checks
from symbolic.evidence.rules import derive
from symbolic.evidence.solvers import run_z3
from symbolic.evidence.spot_checks import spot_check
from symbolic.kernel import Exists, ForAll

pytestmark = pytest.mark.xdist_group("hostile-certificates")

x = sympy.Symbol("x", real=True)
h = sympy.Symbol("h", real=True)
n = sympy.Symbol("n", integer=True)
q = sympy.Symbol("q", rational=True)
k = sympy.Symbol("k", odd=True)


def U(cls, *args):
    return cls(*args, evaluate=False)


def _read(f):
    return read_formula(sympy.srepr(f))


# -- 1. a bound variable that is more than a real, read existentially --------------------------

FALSE_EXISTENTIALS = {
    "∃q∈ℚ: q² = 2": Exists((q,), U(sympy.Eq, U(sympy.Pow, q, 2), 2), sympy.S.Reals),
    "∃n∈ℤ: 2n = 1": Exists((n,), U(sympy.Eq, U(sympy.Mul, 2, n), 1), sympy.S.Reals),
    "∃n∈ℤ: 0 < n < 1": Exists(
        (n,), U(sympy.And, U(sympy.Gt, n, 0), U(sympy.Lt, n, 1)), sympy.S.Reals
    ),
    "∃k odd: k = 2": Exists((k,), U(sympy.Eq, k, 2), sympy.S.Reals),
    "¬∀n∈[−10,10]: 2n ≠ 1": U(
        sympy.Not, ForAll((n,), U(sympy.Ne, U(sympy.Mul, 2, n), 1), sympy.Interval(-10, 10))
    ),
    "(∀n∈[−10,10]: 2n ≠ 1) ⇒ ⊥": U(
        sympy.Implies,
        ForAll((n,), U(sympy.Ne, U(sympy.Mul, 2, n), 1), sympy.Interval(-10, 10)),
        sympy.false,
    ),
}


@pytest.mark.parametrize("name", sorted(FALSE_EXISTENTIALS))
def test_a_false_existential_over_integers_or_rationals_has_no_obligation(name):
    """Each is false (no integer is 1/2 or in (0, 1), √2 is irrational, 2 is even); read over
    the reals each negation was unsat (z3 proved it). Now outside the fragment: no obligation."""
    assert smt_obligation(_read(FALSE_EXISTENTIALS[name])) is None


def test_universal_integers_stay_in_the_fragment_and_are_proved():
    """Read universally, over every real, the obligation is stronger: still printed, proved."""
    free = U(sympy.Eq, U(sympy.Add, U(sympy.Mul, 2, n), n), U(sympy.Mul, 3, n))
    forall = ForAll((n,), free, sympy.Interval(-10, 10))
    denied = U(sympy.Not, Exists((n,), U(sympy.Ne, n, n), sympy.S.Reals))
    for f in (free, forall, denied):
        text = smt_obligation(_read(f))
        assert text is not None and run_z3(text) == "unsat"


def test_the_forged_rational_existential_is_not_proved_end_to_end(tmp_path):
    """The forger writes ∃q ∈ ℚ: q² = 2 with the obligation the old printer made (z3 unsat);
    the re-check proved it (exit 0). Now the fact needs another check: never proved."""
    f = FALSE_EXISTENTIALS["∃q∈ℚ: q² = 2"]
    old = (
        f"{HEADER}\n(set-logic ALL)\n(assert (not (exists ((|q| Real)) (= (* |q| |q|) 2.0))))\n"
        "(check-sat)\n(exit)\n"
    )
    s1 = fact_node("s1", f, "sympy", obligation=(Checks.SMT, old))
    write_export(tmp_path, [s1], statement=s1)
    rows, code, _ = rc.recheck(tmp_path)
    assert code != rc.EXIT_OK
    assert not any(r.outcome == "proved" for r in rows)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["not", "ante", "cons", "and"]), max_size=5), st.booleans())
def test_a_restricted_variable_is_read_only_where_universal(wraps, universal_quantifier):
    """Property: under any nesting of ¬, ⇒ (either side) and ∧, a quantifier over an integer
    has an obligation exactly when it is read universally (∀ at even negation depth, ∃ at
    odd) — and a real variable always has one."""
    cls = ForAll if universal_quantifier else Exists
    body = U(sympy.Ge, U(sympy.Mul, n, n), 0)
    f, flips = cls((n,), body, sympy.S.Reals), 0
    for w in wraps:
        if w == "not":
            f, flips = U(sympy.Not, f), flips + 1
        elif w == "ante":
            f, flips = U(sympy.Implies, f, U(sympy.Eq, x, x)), flips + 1
        elif w == "cons":
            f = U(sympy.Implies, U(sympy.Eq, x, x), f)
        else:
            f = U(sympy.And, f, U(sympy.Eq, x, x))
    universal = (flips % 2 == 0) == universal_quantifier
    assert (smt_obligation(_read(f)) is not None) == universal
    real = f.xreplace({n: sympy.Symbol("r", real=True)})
    assert smt_obligation(_read(real)) is not None


# -- 2. cong into a sum over a symbol of its premise's conditions ------------------------------


def _cong_export(d, pw_branch_at_zero=True):
    """s1: pw(x) = x·x⁻¹ − 1, s2: x·x⁻¹ − 1 = 0 (both smt, where x ≠ 0), s3 = trans: pw(x) = 0
    (where x ≠ 0), s4 = cong into Σ_{x=−1}^{1}: the statement."""
    body = U(sympy.Add, U(sympy.Mul, x, U(sympy.Pow, x, -1)), -1)
    pw = (
        U(sympy.Piecewise, (1, U(sympy.Le, U(sympy.Mul, x, x), 0)), (body, True))
        if pw_branch_at_zero
        else U(sympy.Mul, 2, x)
    )
    fa, fb = U(sympy.Eq, pw, body), U(sympy.Eq, body, 0)
    nodes = [
        fact_node("s1", fa, "sympy", obligation=(Checks.SMT, smt_obligation(_read(fa)))),
        fact_node("s2", fb, "sympy", obligation=(Checks.SMT, smt_obligation(_read(fb)))),
    ]
    fc = U(sympy.Eq, pw, 0)
    nodes.append(fact_node("s3", fc, "rule", rule="trans", premises=["s1", "s2"]))
    lam = sympy.Lambda(h, sympy.Sum(h, (x, -1, 1)))
    fd = derive("cong", [_read(fc)], _read(lam))  # the formula as the re-check derives it
    nodes.append(fact_node("s4", fd, "rule", rule="cong", premises=["s3"], detail=lam))
    write_export(d, nodes, statement=nodes[-1])


def test_cong_into_a_sum_over_a_conditioned_symbol_disagrees(tmp_path):
    """Σ_{x=−1}^{1} pw(x) with pw(x) = 1 at x = 0 and x/x − 1 elsewhere is 1 (by hand), not
    Σ 0 = 0: the re-check proved it (exit 0). Now cong's row disagrees."""
    assert sum(1 if v == 0 else v / v - 1 for v in (-1, 0, 1)) == 1
    _cong_export(tmp_path)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    cong = [r for r in rows if r.check == Checks.RULE and "cong" in r.answer]
    assert cong and all(r.outcome == "DISAGREES" for r in cong)
    assert not any(r.check == "claim" and r.outcome == "proved" for r in rows)


def test_cong_into_a_sum_of_a_premise_without_conditions_still_re_derives():
    """The check is on conditions, not on sums: a premise with no divisor passes."""
    from symbolic.evidence.side_conditions import captured_condition

    fc = U(sympy.Eq, U(sympy.Add, x, x), U(sympy.Mul, 2, x))
    by_id = {"s3": {"id": "s3", "_formula": fc, "method": "sympy", "premises": []}}
    node = {"id": "s4", "method": "rule", "kernel_rule": "cong", "premises": ["s3"]}
    lam = sympy.Lambda(h, sympy.Sum(h, (x, -1, 1)))
    assert captured_condition(node, by_id, lam) is None
    held = {"s3": {"id": "s3", "_formula": U(sympy.Eq, U(sympy.Pow, x, -1), 1), "premises": []}}
    assert captured_condition(node, held, lam) is not None


# -- 3. spot checks below 1024 bits ---------------------------------------------------------------

T = U(sympy.Pow, sympy.Integer(10), sympy.Integer(-200))


@pytest.mark.parametrize(
    "formula",
    [
        U(sympy.Eq, U(sympy.cos, T), 1),
        U(
            sympy.Eq,
            U(sympy.cos, T),
            U(sympy.Add, 1, U(sympy.Mul, sympy.Rational(-1, 2), U(sympy.Pow, T, 2))),
        ),
        U(
            sympy.Eq,
            U(sympy.cos, U(sympy.Mul, x, T)),
            U(
                sympy.Add,
                1,
                U(sympy.Mul, sympy.Rational(-1, 2), U(sympy.Pow, U(sympy.Mul, x, T), 2)),
            ),
        ),
    ],
    ids=["cos(1e-200)=1", "taylor-2", "taylor-2-at-x"],
)
def test_a_false_identity_finer_than_1024_bits_is_not_spot_checked(formula):
    """cos(10⁻²⁰⁰) − 1 = −5·10⁻⁴⁰¹ and cos(t) − 1 + t²/2 = t⁴/24 ≈ 4·10⁻⁸⁰² (mpmath, 1000
    digits, below): every 1024-bit enclosure of the difference held 0 (spot-checked)."""
    mpmath.mp.dps = 1000
    try:
        t = mpmath.mpf(10) ** -200
        assert mpmath.cos(t) - 1 < -(mpmath.mpf(10) ** -401)
        assert mpmath.cos(t) - (1 - t**2 / 2) > mpmath.mpf(10) ** -802
    finally:
        mpmath.mp.dps = 15
    assert spot_check(_read(formula))[0] == "DISAGREES"


def test_true_identities_are_still_spot_checked():
    pyth = U(
        sympy.Eq,
        U(sympy.Add, U(sympy.Pow, U(sympy.cos, x), 2), U(sympy.Pow, U(sympy.sin, x), 2)),
        1,
    )
    tiny = U(
        sympy.Eq, U(sympy.Mul, U(sympy.cos, T), U(sympy.cos, T)), U(sympy.Pow, U(sympy.cos, T), 2)
    )
    for f in (pyth, tiny):
        assert spot_check(_read(f))[0] == "spot-checked"


# -- 4. SymPy's float-blind assumptions in inst and definitions ----------------------------------

L60 = U(sympy.log, U(sympy.cos, U(sympy.Pow, sympy.Integer(10), sympy.Integer(-60))))
z = sympy.Symbol("z", real=True)


def _inst_export(d, premise, term, conclusion):
    s1 = fact_node("s1", premise, "sympy", obligation=(Checks.SMT, smt_obligation(_read(premise))))
    detail = sympy.Tuple(sympy.Tuple(z, term))
    s2 = fact_node("s2", conclusion, "rule", rule="inst", premises=["s1"], detail=detail)
    write_export(d, [s1, s2], statement=s2)


def test_log_cos_tiny_is_negative_by_mpmath():
    mpmath.mp.dps = 200
    try:
        assert mpmath.log(mpmath.cos(mpmath.mpf(10) ** -60)) < -(mpmath.mpf(10) ** -121)
    finally:
        mpmath.mp.dps = 15


def test_inst_at_a_term_sympy_holds_positive_by_a_float_disagrees(tmp_path):
    """∀z ∈ (0, ∞): z > 0 at z := x² + log(cos 10⁻⁶⁰): SymPy holds the term positive (its
    float says the log is 0); at x = 0 it is −5·10⁻¹²¹. ``x² + log(cos 10⁻⁶⁰) > 0`` was
    proved (exit 0)."""
    term = U(sympy.Add, U(sympy.Pow, x, 2), L60)
    premise = ForAll((z,), U(sympy.Gt, z, 0), sympy.Interval.open(0, sympy.oo))
    _inst_export(tmp_path, premise, term, U(sympy.Gt, term, 0))
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any(r.check == Checks.RULE and r.outcome == "DISAGREES" for r in rows)


def test_inst_at_a_closed_term_sympy_holds_real_by_a_float_disagrees(tmp_path):
    """∀z ∈ ℝ: z² ≥ 0 at z := √(log cos 10⁻⁶⁰), imaginary (the log is negative): its square
    is −5·10⁻¹²¹, and ``(√(log cos 10⁻⁶⁰))² ≥ 0`` was proved (exit 0)."""
    term = U(sympy.Pow, L60, sympy.Rational(1, 2))
    premise = ForAll((z,), U(sympy.Ge, U(sympy.Pow, z, 2), 0), sympy.S.Reals)
    _inst_export(tmp_path, premise, term, U(sympy.Ge, U(sympy.Pow, term, 2), 0))
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE


def test_certified_numbers_decide_definitions_and_conditions():
    from symbolic.evidence.side_conditions import definition_problem, has, own_conditions

    c = sympy.Symbol("c", positive=True)
    d = U(sympy.Add, U(sympy.Pow, x, 2), L60)
    assert definition_problem(U(sympy.Eq, c, d)) is not None  # c > 0 := x² + (−5·10⁻¹²¹)
    assert own_conditions(U(sympy.Eq, U(sympy.Mul, d, U(sympy.Pow, d, -1)), 1)) == {d}
    pi_plus = U(sympy.Add, U(sympy.Pow, x, 2), sympy.pi)
    assert definition_problem(U(sympy.Eq, c, pi_plus)) is None  # still decided
    assert has(U(sympy.Mul, sympy.sqrt(2), U(sympy.Pow, x, 2)), "nonnegative") is True


# -- 5. a binder that binds the substituted variable again ----------------------------------------


def test_inst_through_a_binder_of_the_same_variable_disagrees(tmp_path):
    """∀x: (x·x ≥ 0 ∧ ∃x: x ≠ y) is true; at x := y the inner ∃x was renamed ∃y: y ≠ y, and
    ``y·y ≥ 0 ∧ ∃y: y ≠ y`` (false: no y differs from itself) was proved (exit 0)."""
    y = sympy.Symbol("y", real=True)
    body = U(
        sympy.And,
        U(sympy.Ge, U(sympy.Mul, x, x), 0),
        Exists((x,), U(sympy.Ne, x, y), sympy.S.Reals),
    )
    premise = ForAll((x,), body, sympy.S.Reals)
    s1 = fact_node("s1", premise, "sympy", obligation=(Checks.SMT, smt_obligation(_read(premise))))
    false = U(
        sympy.And,
        U(sympy.Ge, U(sympy.Mul, y, y), 0),
        Exists((y,), U(sympy.Ne, y, y), sympy.S.Reals),
    )
    detail = sympy.Tuple(sympy.Tuple(x, y))
    s2 = fact_node("s2", false, "rule", rule="inst", premises=["s1"], detail=detail)
    write_export(tmp_path, [s1, s2], statement=s2)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any("binds the variable again" in r.answer for r in rows)


def test_unfold_through_a_sum_over_the_defined_name_disagrees(tmp_path):
    """c := y, unfolded in Σ_{c=1}^{2} c·y (= 3y) renamed the index: Σ_{y=1}^{2} y·y (= 5),
    so ``3y = 5`` for every y was proved (exit 0, resting on the definition)."""
    c, y = sympy.Symbol("c", real=True), sympy.Symbol("y", real=True)
    s1 = fact_node("s1", U(sympy.Eq, c, y), "definition", kind="definition")
    e = sympy.Sum(U(sympy.Mul, c, y), (c, 1, 2))
    with sympy.evaluate(False):
        renamed = e.xreplace({c: y})
    assert sympy.Sum(c * y, (c, 1, 2)).doit() == 3 * y and renamed.doit() == 5
    s2 = fact_node(
        "s2",
        U(sympy.Eq, e, renamed),
        "rule",
        rule="unfold",
        premises=["s1"],
        detail=sympy.Lambda(c, e),
    )
    write_export(tmp_path, [s1, s2], statement=s2)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any("binds c again" in r.answer for r in rows)


# -- 6. assumptions of a function, which srepr never shows -----------------------------------------


def test_an_inst_term_with_a_positive_function_disagrees(tmp_path):
    """``Function('f', positive=True)(x)`` in an inst's detail: SymPy read it positive, and
    ``f(x) > 0`` — of the plain f every formula shows (srepr drops a function's assumptions,
    so the comparison saw one f) — was proved (exit 0). False for f ≡ −1."""
    f = sympy.Function("f")
    premise = ForAll((z,), U(sympy.Gt, z, 0), sympy.Interval.open(0, sympy.oo))
    s1 = fact_node("s1", premise, "sympy", obligation=(Checks.SMT, smt_obligation(_read(premise))))
    detail = sympy.Tuple(sympy.Tuple(z, f(x)))
    s2 = fact_node("s2", U(sympy.Gt, f(x), 0), "rule", rule="inst", premises=["s1"], detail=detail)
    s2["detail_srepr"] = s2["detail_srepr"].replace("Function('f')", "Function('f', positive=True)")
    assert "positive=True" in s2["detail_srepr"]
    write_export(tmp_path, [s1, s2], statement=s2)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert not any(r.check == "claim" and r.outcome == "proved" for r in rows)


def test_a_manifest_formula_refuses_a_function_with_assumptions():
    from symbolic.evidence.formula_reader import UnreadableFormula
    from symbolic.evidence.manifest import manifest_formula

    text = "Function('f', positive=True)(Symbol('x', real=True))"
    assert read_formula(text).is_positive  # SymPy reads it positive ...
    assert "positive" not in sympy.srepr(read_formula(text))  # ... and srepr does not say so
    with pytest.raises(UnreadableFormula, match="assumptions"):
        manifest_formula(f"StrictGreaterThan({text}, Integer(0))", "detail")
    assert manifest_formula("Function('f')(Symbol('x', real=True))", "step").func.__name__ == "f"


# -- 7. an obligation claimed nowhere -------------------------------------------------------------


def _x_minus_x():
    return U(sympy.Add, x, U(sympy.Mul, -1, x))


VACUOUS = {
    "1/(x − x) = 5": U(sympy.Eq, U(sympy.Pow, _x_minus_x(), -1), 5),
    "∀y: 1/(max(y,0)·min(y,0)) = 7": ForAll(
        (h,),
        U(
            sympy.Eq,
            U(sympy.Pow, U(sympy.Mul, U(sympy.Max, h, 0), U(sympy.Min, h, 0)), -1),
            7,
        ),
        sympy.S.Reals,
    ),
}


@pytest.mark.parametrize("name", sorted(VACUOUS))
def test_an_obligation_claimed_nowhere_is_not_proved(tmp_path, name):
    """Its divisor is 0 at every point (x − x; max(y, 0)·min(y, 0)), so the obligation
    asserts no point and z3 answers unsat: the statement was proved (exit 0), though it is
    nowhere defined. Now ``unknown``."""
    f = VACUOUS[name]
    s1 = fact_node("s1", f, "sympy", obligation=(Checks.SMT, smt_obligation(_read(f))))
    write_export(tmp_path, [s1], statement=s1)
    rows, code, _ = rc.recheck(tmp_path)
    assert code != rc.EXIT_OK
    assert not any(r.outcome == "proved" for r in rows)
    assert any("no point shown" in r.answer for r in rows)


def test_a_divisor_zero_only_somewhere_is_still_proved(tmp_path):
    """x·x⁻¹ = 1 and Piecewise((1, x = 0), (1/(x − x), True)) = 1 are claimed somewhere
    (x ≠ 0; x = 0): proved as before."""
    from symbolic.evidence.formula_smt import claimed_somewhere

    ok = [
        U(sympy.Eq, U(sympy.Mul, x, U(sympy.Pow, x, -1)), 1),
        U(
            sympy.Eq,
            U(sympy.Piecewise, (1, U(sympy.Eq, x, 0)), (U(sympy.Pow, _x_minus_x(), -1), True)),
            1,
        ),
    ]
    for f in ok:
        places = claimed_somewhere(_read(f))
        assert places and all(run_z3(p) == "sat" for p in places)
    s1 = fact_node("s1", ok[0], "sympy", obligation=(Checks.SMT, smt_obligation(_read(ok[0]))))
    write_export(tmp_path, [s1], statement=s1)
    rows, _, _ = rc.recheck(tmp_path)
    assert any(r.check == Checks.SMT and r.outcome == "proved" for r in rows)


# -- 8. identities for every σ that a quadratic of a + b satisfies ---------------------------------

sigma = sympy.Function("sigma")
y_ = sympy.Symbol("y", real=True)

QUADRATIC_BLIND = {
    # (x+1)³ − 3x³ + 3(x−1)³ − (x−2)³ = 6 (by hand): false for σ = t³
    "third difference": U(
        sympy.Eq,
        U(
            sympy.Add,
            sigma(U(sympy.Add, x, 1)),
            U(sympy.Mul, -3, sigma(x)),
            U(sympy.Mul, 3, sigma(U(sympy.Add, x, -1))),
            U(sympy.Mul, -1, sigma(U(sympy.Add, x, -2))),
        ),
        0,
    ),
    "σ(x, y) = σ(y, x)": U(sympy.Eq, sigma(x, y_), sigma(y_, x)),  # false for σ(a, b) = a
    "σ(x, y+1) = σ(x+1, y)": U(
        sympy.Eq, sigma(x, U(sympy.Add, y_, 1)), sigma(U(sympy.Add, x, 1), y_)
    ),
}


@pytest.mark.parametrize("name", sorted(QUADRATIC_BLIND))
def test_an_identity_only_quadratics_of_a_sum_satisfy_is_not_spot_checked(name):
    """σ was replaced by a random quadratic of the sum of its arguments: each of these held
    at every point (spot-checked), though false for σ(t) = t³ or σ(a, b) = a."""
    assert spot_check(_read(QUADRATIC_BLIND[name]))[0] == "DISAGREES"


@settings(max_examples=8, deadline=None)
@given(st.integers(-3, 3), st.integers(1, 4))
def test_identities_for_every_sigma_are_still_spot_checked(shift, scale):
    """Property: σ(a) + σ(b) = σ(b) + σ(a) and c·σ(c·x + s) = σ(s + x·c)·c hold for every σ,
    so for the random one at every point."""
    a = U(sympy.Add, U(sympy.Mul, scale, x), shift)
    b = U(sympy.Add, shift, U(sympy.Mul, x, scale))
    f = U(sympy.Eq, U(sympy.Mul, scale, sigma(a)), U(sympy.Mul, sigma(b), scale))
    g = U(sympy.Eq, U(sympy.Add, sigma(a), sigma(y_)), U(sympy.Add, sigma(y_), sigma(b)))
    assert spot_check(_read(f))[0] == "spot-checked"
    assert spot_check(_read(g))[0] == "spot-checked"


# -- 9. a sum's limit drawn from {2, 3} ---------------------------------------------------------

m_ = sympy.Symbol("m", integer=True, positive=True)
i_ = sympy.Symbol("i", integer=True)
k_ = sympy.Symbol("k", integer=True, nonnegative=True)


@pytest.mark.parametrize(
    "formula",
    [
        U(sympy.Eq, sympy.Sum(i_, (i_, 1, m_)), U(sympy.Add, U(sympy.Mul, 3, m_), -3)),
        U(sympy.Eq, sympy.Sum(i_, (i_, 0, k_)), k_),
    ],
    ids=["sum 1..m = 3m-3", "sum 0..k = k"],
)
def test_a_sum_identity_true_at_the_small_limits_alone_is_not_spot_checked(formula):
    """Σ_{i=1}^{m} i = m(m+1)/2 is 3m − 3 at m = 2, 3 only (10 ≠ 9 at m = 4); Σ_{i=0}^{k} i
    is k at k = 0, 1 only (3 ≠ 2 at k = 2): a sum's limit was drawn like a matrix size (2..3,
    0..1), and both were spot-checked."""
    assert sympy.Sum(i_, (i_, 1, 4)).doit() == 10 and sympy.Sum(i_, (i_, 0, 2)).doit() == 3
    assert spot_check(_read(formula))[0] == "DISAGREES"
