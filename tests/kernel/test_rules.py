"""The kernel's inference rules: each concludes exactly its conclusion, refuses premises of the
wrong shape, never proves from an undecided or refuted premise, and keeps what the premises rest
on. Hypothesis: a conclusion the rules prove holds at random rational points."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic.kernel import (
    Fact,
    ForAll,
    RuleError,
    assume,
    check_bound_on,
    check_equal,
    check_identity,
    check_sign,
    check_zero_on,
    cong,
    conj,
    define,
    gen,
    iff,
    inst,
    mp,
    negate,
    scalar_transpose,
    symm,
    trans,
    undecided,
    unfold,
)

a, b = sympy.symbols("a b", real=True)
t = sympy.Symbol("t", positive=True)
h = sympy.Symbol("h")


def test_trans_concludes_the_ends_of_the_chain():
    f1 = check_equal((a + 1) ** 2, a**2 + 2 * a + 1)
    f2 = check_equal(a**2 + 2 * a + 1, a * (a + 2) + 1)
    fact = trans(f1, f2)
    assert fact.formula == sympy.Eq((a + 1) ** 2, a * (a + 2) + 1, evaluate=False)
    assert fact.proved and fact.rule == "trans" and fact.parts == (f1, f2)


def test_trans_refuses_a_broken_chain():
    f1 = check_equal((a + 1) ** 2, a**2 + 2 * a + 1)
    f2 = check_equal(a * (a + 2) + 1, a**2 + 2 * a + 1)
    with pytest.raises(RuleError, match="ends in"):
        trans(f1, f2)


def test_a_false_premise_proves_nothing():
    wrong = check_equal(2 * a, a + 1)
    assert wrong.refuted
    right = check_equal(a + 1, 1 + a)
    assert trans(wrong, right).status == "unknown"
    assert symm(undecided(sympy.Eq(a, b), "stopped")).status == "unknown"


def test_cong_puts_both_sides_in_the_context_literally():
    f = check_equal(a * (a + 1), a**2 + a)
    fact = cong(f, sympy.Lambda(h, sympy.exp(h) + h))
    assert fact.formula.lhs == sympy.exp(a * (a + 1)) + a * (a + 1)
    assert fact.proved and isinstance(fact.detail, sympy.Lambda)


def test_cong_refuses_a_capturing_binder():
    i = sympy.Symbol("i", integer=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    f = check_equal(i * (i + 1), i**2 + i)
    with pytest.raises(RuleError, match="capture"):
        cong(f, sympy.Lambda(h, sympy.Sum(h, (i, 1, n))))


def test_inst_checks_the_domain_and_does_not_evaluate():
    fa = check_identity(sympy.Max(a, 0) + sympy.Min(a, 0), a, a)
    assert isinstance(fa.formula, ForAll)
    fact = inst(fa, {a: t**2})
    assert fact.proved and fact.formula != sympy.true
    with pytest.raises(RuleError, match="cannot decide"):
        inst(fa, {a: sympy.I})
    with pytest.raises(RuleError, match="not a variable"):
        inst(fa, {b: 1})


def test_inst_of_an_open_fact_respects_the_symbols_assumptions():
    f = check_equal(sympy.sqrt(t**2), t)  # holds for t > 0 only
    assert f.proved
    with pytest.raises(RuleError):
        inst(f, {t: a})  # a real a may be negative: sqrt(a²) = a is false at a = −1
    assert inst(f, {t: t + 1}).proved


def test_mp_and_conj():
    imp = assume("A implies B", sympy.Implies(sympy.Eq(a, 0), sympy.Eq(a**2, 0)))
    ante = assume("a is 0", sympy.Eq(a, 0))
    fact = mp(imp, ante)
    assert fact.formula == sympy.Eq(a**2, 0) and fact.proved
    assert {f.verdict.certificate for f in fact.rests_on} == {"A implies B", "a is 0"}
    with pytest.raises(RuleError, match="antecedent"):
        mp(imp, assume("other", sympy.Eq(a, 1)))
    both = conj(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), check_equal(a * a, a**2))
    assert isinstance(both.formula, sympy.And) and both.proved and not both.rests_on


def test_iff_and_gen():
    fwd = assume("A ⇒ B", sympy.Implies(sympy.Eq(a, 0), sympy.Eq(a**3, 0)))
    back = assume("B ⇒ A", sympy.Implies(sympy.Eq(a**3, 0), sympy.Eq(a, 0)))
    assert iff(fwd, back).formula == sympy.Equivalent(sympy.Eq(a, 0), sympy.Eq(a**3, 0))
    with pytest.raises(RuleError, match="converse"):
        iff(fwd, fwd)
    f = check_equal(sympy.sqrt(t**2), t)
    g = gen(f, (t,))
    assert isinstance(g.formula, ForAll) and g.formula.domain == sympy.Interval.open(0, sympy.oo)
    assert inst(g, {t: t + 1}).proved
    with pytest.raises(RuleError, match="not a free symbol"):
        gen(f, (a,))


def test_unfold_a_definition():
    c = sympy.Symbol("c", real=True)
    definition = define(c, a**2 + 1)
    fact = unfold(definition, c * b)
    assert fact.formula == sympy.Eq(c * b, (a**2 + 1) * b, evaluate=False)
    with pytest.raises(RuleError, match="definition"):
        unfold(check_equal(sympy.Add(a, a, evaluate=False), 2 * a), a * b)


def test_rules_take_only_kernel_facts():
    with pytest.raises(RuleError):
        symm(sympy.Eq(a, b))  # a formula is not a fact


def test_facts_are_sealed():
    import copy
    import pickle

    f = check_equal(sympy.Add(a, a, evaluate=False), 2 * a)
    with pytest.raises(TypeError):
        pickle.dumps(f)
    assert copy.deepcopy(f) is f and not hasattr(f, "__dict__")
    with pytest.raises(TypeError):
        type("Forged", (Fact,), {})


RATIONALS = st.fractions(min_value=-50, max_value=50, max_denominator=20)


@given(RATIONALS, RATIONALS, st.integers(min_value=1, max_value=4))
def test_a_proved_chain_holds_at_random_points(p, q, k):
    """trans/cong conclusions are true: evaluate both sides exactly at a rational point."""
    e0 = (a + b) ** k
    e1 = sympy.expand(e0)
    e2 = sympy.factor(e1)
    chain = trans(check_equal(e0, e1), check_equal(e1, e2))
    lifted = cong(chain, sympy.Lambda(h, h**2 - 3 * h))
    point = {
        a: sympy.Rational(p.numerator, p.denominator),
        b: sympy.Rational(q.numerator, q.denominator),
    }
    for fact in (chain, lifted):
        assert fact.proved
        assert fact.formula.lhs.subs(point) == fact.formula.rhs.subs(point)


def test_a_scalar_is_its_own_transpose_and_only_a_scalar():
    d = sympy.Symbol("d", integer=True, positive=True)
    x, M = sympy.MatrixSymbol("x", 1, d), sympy.MatrixSymbol("M", d, d)
    fact = scalar_transpose(x * M * x.T)
    assert fact.proved and fact.formula.rhs == sympy.Transpose(x * M * x.T)
    with pytest.raises(RuleError, match="1×1"):
        scalar_transpose(M)
    with pytest.raises(RuleError):
        scalar_transpose(x)  # 1×d: not a scalar unless d = 1


def test_a_subs_that_sympy_would_evaluate_in_turn_is_refused():
    """SymPy's Subs.doit substitutes one variable after the other: Subs(a²b − ab², (a, b),
    (b, a)) came out 0 and the kernel proved it equal to 0 (false at a = 1, b = 2)."""
    from symbolic.errors import InvalidArgument

    swap = sympy.Subs(a**2 * b - a * b**2, (a, b), (b, a))
    with pytest.raises(InvalidArgument, match="one variable after the other"):
        check_equal(swap, 0)
    single = sympy.Subs(a**2 * b - a * b**2, (a,), (b,))  # one variable: no trap
    assert check_equal(single, 0).proved


# --- cong_in_sums: congruence under a finite sum whose index occurs in the equation ---------

i_ = sympy.Symbol("i", integer=True)
n_ = sympy.Symbol("n", integer=True, positive=True)
X = sympy.IndexedBase("X", real=True)


def test_cong_in_sums_rewrites_under_an_integer_index_literally_and_rechecks_as_cong():
    from symbolic.evidence.rules import derive
    from symbolic.kernel import cong_in_sums

    f = check_equal(X[i_] * (X[i_] + 1), X[i_] ** 2 + X[i_])
    context = sympy.Lambda(h, sympy.Sum(h * X[i_ + 1], (i_, 0, n_ - 1)))
    fact = cong_in_sums(f, context)
    assert fact.proved and fact.rule == "cong" and fact.parts == (f,)
    assert fact.formula.lhs.has(X[i_] * (X[i_] + 1)) and fact.formula.rhs.has(X[i_] ** 2 + X[i_])
    # the re-check derives the same conclusion from the premise and the context alone
    assert sympy.srepr(derive("cong", [f.formula], context)) == sympy.srepr(fact.formula)
    # cong itself still refuses the capture
    with pytest.raises(RuleError, match="capture"):
        cong(f, context)


@pytest.mark.parametrize(
    "index",
    [
        sympy.Symbol("k", integer=True, nonnegative=True),  # ℕ₀: a reversed sum runs below 0
        sympy.Symbol("k", positive=True),  # (0, ∞): not every integer
    ],
)
def test_cong_in_sums_refuses_an_index_whose_set_misses_integers(index):
    from symbolic.kernel import cong_in_sums

    f = check_equal(index * (index + 1), index**2 + index)
    with pytest.raises(RuleError, match="capture"):
        cong_in_sums(f, sympy.Lambda(h, sympy.Sum(h, (index, 0, n_))))


def test_cong_in_sums_refuses_capture_by_other_binders():
    from symbolic.kernel import cong_in_sums

    f = check_equal(a * (a + 1), a**2 + a)
    with pytest.raises(RuleError, match="capture"):
        cong_in_sums(f, sympy.Lambda(h, sympy.Integral(h, (a, 0, 1))))
    with pytest.raises(RuleError, match="capture"):
        cong_in_sums(f, sympy.Lambda(h, sympy.Lambda(a, h)))


def test_cong_in_sums_proves_nothing_from_an_unproved_premise():
    from symbolic.kernel import cong_in_sums

    f = undecided(sympy.Eq(X[i_], 2 * X[i_]), "no")
    fact = cong_in_sums(f, sympy.Lambda(h, sympy.Sum(h, (i_, 0, n_))))
    assert not fact.proved and fact.status == "unknown"


def test_inst_refuses_an_entry_not_known_to_be_real():
    fa = check_identity(sympy.Max(0, 2 * a), 2 * sympy.Max(0, a), a)
    assert fa.proved
    with pytest.raises(RuleError, match="cannot decide"):
        inst(fa, {a: sympy.IndexedBase("Y")[i_]})  # SymPy: complex
    assert inst(fa, {a: X[i_]}).proved  # real=True entries


@given(st.integers(min_value=0, max_value=5), st.lists(RATIONALS, min_size=7, max_size=7))
def test_a_rewrite_under_a_sum_holds_at_random_values(n, values):
    """cong_in_sums conclusions are true: both sums evaluated exactly at random entries."""
    from symbolic.kernel import cong_in_sums

    fa = check_identity(sympy.Max(0, 2 * a), 2 * sympy.Max(0, a), a)
    at = inst(fa, {a: X[i_] - X[i_ + 1]})
    fact = cong_in_sums(at, sympy.Lambda(h, sympy.Sum(h * X[i_], (i_, 0, n_ - 1))))
    assert fact.proved
    point = {X[j]: sympy.Rational(v.numerator, v.denominator) for j, v in enumerate(values)}

    def value(e):
        return e.xreplace({n_: n}).doit().xreplace(point)

    assert value(fact.formula.lhs) == value(fact.formula.rhs)


# conj builds A ∧ B ∧ … without sympy.And's canonical-relation pass (kernel.logic.conjunction).
_CONJ_X, _CONJ_Y = sympy.symbols("x y", real=True)
_CONJ_POOL = (
    sympy.Eq(_CONJ_X + 1, _CONJ_Y, evaluate=False),
    sympy.Eq(sympy.Max(0, _CONJ_X) ** 2, _CONJ_Y, evaluate=False),
    sympy.StrictGreaterThan(_CONJ_X**2 + 1, 0, evaluate=False),
    sympy.And(sympy.Eq(_CONJ_X, _CONJ_X * 1, evaluate=False), sympy.Ne(_CONJ_Y, 3)),
    sympy.Implies(sympy.Gt(_CONJ_X, 0), sympy.Gt(_CONJ_X**3, 0)),
    sympy.true,
)


@given(st.lists(st.sampled_from(_CONJ_POOL), min_size=1, max_size=6))
def test_conjunction_has_exactly_the_conjuncts_in_sympys_structure(formulas):
    from symbolic.kernel import conjunction

    built = conjunction(*formulas)
    flat = {g for f in formulas if f is not sympy.true for g in sympy.And.make_args(f)}
    assert set(sympy.And.make_args(built)) == (flat or {sympy.true})
    assert built == sympy.And(*formulas)  # no two conjuncts here are equivalent relations


def test_conj_keeps_relations_sympy_would_merge_and_false_ends_it():
    from symbolic.kernel import conjunction

    x, y = _CONJ_X, _CONJ_Y
    kept = conjunction(sympy.Lt(x, y), sympy.Gt(y, x))  # one relation twice, as written
    assert set(kept.args) == {sympy.Lt(x, y), sympy.Gt(y, x)}
    assert not isinstance(sympy.And(sympy.Lt(x, y), sympy.Gt(y, x)), sympy.And)  # SymPy merges
    assert conjunction(sympy.Lt(x, y), sympy.false) is sympy.false


def test_a_defined_name_is_a_constant_for_gen_and_inst():
    """From c := 1 neither ∀c: c = 1 (gen) nor 2 = 1 (inst) follows, directly or through a
    rule whose premise rests on the definition; an undefined variable still generalises."""
    c = sympy.Symbol("c", real=True)
    definition = define(c, sympy.Integer(1))
    with pytest.raises(RuleError, match="defined name"):
        gen(definition, (c,))
    with pytest.raises(RuleError, match="defined name"):
        inst(definition, {c: sympy.Integer(2)})
    unfolded = unfold(definition, c * a)  # c·a = 1·a: c is the constant, a a variable
    with pytest.raises(RuleError, match="defined name"):
        gen(symm(unfolded), (c,))
    assert gen(unfolded, (a,)).proved
    assert inst(unfolded, {a: sympy.Integer(3)}).proved


@given(st.fractions(), st.fractions())
def test_no_instance_of_a_definition_is_minted(v, w):
    c = sympy.Symbol("c", real=True)
    definition = define(c, sympy.Rational(v.numerator, v.denominator))
    with pytest.raises(RuleError, match="defined name"):
        inst(definition, {c: sympy.Rational(w.numerator, w.denominator)})


# -- the kernel red-team round of session 11: each a class of unsound step, now refused ------


def test_inst_and_gen_read_every_assumption_of_a_variable():
    """An odd n, an even m, a prime p: inst only at a value with all of the variable's
    assumptions, gen only over a variable whose set a quantifier writes."""
    n, m = sympy.Symbol("n", odd=True), sympy.Symbol("m", even=True)
    nonzero = check_sign(n, "nonzero")  # true for odd n
    with pytest.raises(RuleError, match="set of n"):
        inst(nonzero, {n: sympy.Integer(0)})
    assert inst(nonzero, {n: sympy.Integer(3)}).proved
    even = check_sign(sympy.Pow(-1, m, evaluate=False), "positive")
    with pytest.raises(RuleError, match="no set a quantifier writes"):
        gen(even, (m,))
    with pytest.raises(RuleError, match="set of m"):
        inst(even, {m: sympy.Integer(1)})


def test_a_bound_variable_ranges_over_its_domain_and_its_assumptions():
    """check_identity over ℝ of a positive x decides it under x > 0: inst at −3 is refused
    (√−3·√−2 = −√6, not √6)."""
    x = sympy.Symbol("x", positive=True)
    fact = check_identity(sympy.sqrt(x) * sympy.sqrt(x + 1), sympy.sqrt(x**2 + x), x)
    assert fact.proved
    with pytest.raises(RuleError, match="set of x"):
        inst(fact, {x: sympy.Integer(-3)})


def test_one_name_defined_twice_proves_nothing_and_is_never_negated():
    x = sympy.Symbol("x", real=True)
    one, two = unfold(define(x, sympy.Integer(1)), x), unfold(define(x, sympy.Integer(2)), x)
    with pytest.raises(RuleError, match="define x differently"):
        trans(symm(one), two)
    with pytest.raises(ValueError, match="fixed by a definition"):
        negate(one)  # ¬∀x: x = 1 would be refuted, though x is the constant 1


@pytest.mark.parametrize(
    "binder",
    [
        lambda e, v: sympy.Subs(e, v, 0),
        lambda e, v: sympy.Derivative(e, v),
        lambda e, v: sympy.Integral(e, (v, 0, 1)),
    ],
)
def test_inst_refuses_a_term_that_a_binder_would_capture(binder):
    x, y = sympy.symbols("x y", real=True)
    expr = binder(x * y, x)
    fact = check_equal(expr, expr.doit())
    assert fact.proved
    with pytest.raises(RuleError, match="capture"):
        inst(fact, {y: x})


def test_cong_refuses_a_context_whose_subs_captures():
    p = sympy.Symbol("p", positive=True)
    fact = check_equal(sympy.sqrt(p) * sympy.sqrt(p + 1), sympy.sqrt(p**2 + p))
    with pytest.raises(RuleError, match="capture"):
        cong(fact, sympy.Lambda(h, sympy.Subs(h, p, -3)))


def test_inst_refuses_an_instance_that_divides_by_zero():
    fact = check_equal((a**2 - 1) / (a - 1), a + 1)
    with pytest.raises(RuleError, match="divides by 0"):
        inst(fact, {a: sympy.Integer(1)})
    assert inst(fact, {a: sympy.Integer(2)}).proved


def test_zero_on_a_domain_not_known_nonempty_is_not_refuted():
    x = sympy.Symbol("x", real=True)
    empty = sympy.ConditionSet(x, sympy.Eq(sympy.sin(x), 2), sympy.S.Reals)
    assert check_zero_on(sympy.Integer(1), x, empty).status == "unknown"
    assert check_zero_on(sympy.Integer(1), x, sympy.Interval(0, 1)).refuted


def test_a_bound_on_an_interval_the_wrong_way_round_is_a_clear_error():
    with pytest.raises(ValueError, match="lo must be below hi"):
        check_bound_on(a, a, 1, 0, "<", sympy.Rational(1, 2))


@given(st.integers(-20, 20))
def test_an_odd_variable_is_instantiated_exactly_at_odd_integers(k):
    n = sympy.Symbol("n", odd=True)
    fact = check_sign(n, "nonzero")
    if k % 2:
        assert inst(fact, {n: sympy.Integer(k)}).proved
    else:
        with pytest.raises(RuleError):
            inst(fact, {n: sympy.Integer(k)})


def test_no_variable_free_in_an_assumption_is_generalised_or_instantiated():
    """∀-introduction's side condition: from the assumption c = 1 neither ∀c: c = 1 nor 2 = 1."""
    c = sympy.Symbol("c", real=True)
    hypothesis = assume("c is one", sympy.Eq(c, 1, evaluate=False))
    with pytest.raises(RuleError, match="free in an assumption"):
        gen(hypothesis, (c,))
    with pytest.raises(RuleError, match="free in an assumption"):
        inst(symm(hypothesis), {c: sympy.Integer(2)})


def test_unfold_refuses_a_value_a_binder_would_capture():
    c, k = sympy.Symbol("c", real=True), sympy.Symbol("k", integer=True)
    with pytest.raises(RuleError, match="capture"):
        unfold(define(c, k), sympy.Sum(c, (k, 1, 3)))
    assert unfold(define(c, k), 2 * c).proved
