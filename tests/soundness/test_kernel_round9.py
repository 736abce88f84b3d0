"""Round 9: the kernel's rules against the flaws the re-check's round 9 found in its own copy.

Each false conclusion below was proved before (truth by hand, or by SymPy's ``doit`` of the
finished sums); now the rule refuses. The valid uses next to them still go through.
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from symbolic import kernel as K
from symbolic.kernel import RuleError

x, y = sympy.symbols("x y", real=True)
h = sympy.Symbol("h")


def test_inst_never_reaches_into_a_binder_of_the_same_name():
    """∀x: ∃x: x ≠ y is true; at x := y the inner ∃x is another variable, and replacing it gave
    ∃y: y ≠ y (false), proved."""
    inner = K.Exists((x,), sympy.Ne(x, y), sympy.S.Reals)
    fact = K.check_valid_formula(K.ForAll((x,), sympy.And(x * x >= 0, inner), sympy.S.Reals))
    assert fact.status == "proved"
    with pytest.raises(RuleError, match="bound again"):
        K.inst(fact, {x: y})


def test_unfold_never_reaches_into_a_sum_over_the_defined_name():
    """c := y unfolded in Σ_{c=1}^{2} c·y gave Σ_{y=1}^{2} y·y: 3y = 5 for every y, proved."""
    c, n = sympy.Symbol("c", integer=True), sympy.Symbol("n", integer=True)
    definition = K.define(c, n)
    total = sympy.Sum(c * n, (c, 1, 2))
    assert total.doit() == 3 * n and total.xreplace({c: n}).doit() == 5  # the bound c replaced
    with pytest.raises(RuleError, match="bound again"):
        K.unfold(definition, total)
    assert K.unfold(definition, c * n + 1).status == "proved"  # a free occurrence still unfolds


def test_cong_in_sums_refuses_a_premise_that_holds_only_off_a_denominators_zero():
    """pw(x) = 0 holds where x ≠ 0 (it came through x/x − 1 = 0); Σ_{x=−1}^{1} pw(x) = Σ 0 was
    proved, but pw(0) = 1 so the left sum is 1."""
    k = sympy.Symbol("x", integer=True)
    q = sympy.Mul(k, sympy.Pow(k, -1, evaluate=False), evaluate=False) - 1
    pw = sympy.Piecewise((1, k * k <= 0), (q, True))
    premise = K.trans(K.check_equal(pw, q), K.check_equal(q, 0))
    assert premise.status == "proved"
    assert sum(pw.subs(k, v) for v in (-1, 1)) + 1 == 1  # pw(0) = 1 by its first branch
    with pytest.raises(RuleError, match="condition"):
        K.cong_in_sums(premise, sympy.Lambda(h, sympy.Sum(h, (k, -1, 1))))


def test_cong_in_sums_still_rewrites_term_by_term():
    k, n = sympy.Symbol("k", integer=True), sympy.Symbol("n", integer=True, positive=True)
    a = sympy.IndexedBase("a")
    fact = K.check_equal(2 * a[k], a[k] + a[k])
    assert K.cong_in_sums(fact, sympy.Lambda(h, sympy.Sum(h, (k, 1, n)))).status == "proved"


@given(st.integers(30, 90))
def test_a_root_of_a_float_blind_negative_number_is_not_real(digits):
    """log(cos 10⁻ᵏ) ≈ −10⁻²ᵏ/2 is a float 0.0, and SymPy calls its square root real: it is
    imaginary, so no real variable may be instantiated at it (nor at it plus a square); its
    negative's root is a real, positive number and is admitted."""
    w = sympy.Symbol("w", real=True)
    fact = K.check_equal(sympy.Abs(w) ** 2, w**2)
    c = sympy.log(sympy.cos(sympy.Rational(1, 10**digits)))
    for imaginary in (sympy.sqrt(c), sympy.sqrt(c + x**2)):
        with pytest.raises(RuleError, match="cannot decide"):
            K.inst(fact, {w: imaginary})
    minus_c = sympy.Mul(-1, c, evaluate=False)  # sympy.sqrt(-c) is I·√c: SymPy thinks c > 0
    real = sympy.Pow(minus_c, sympy.Rational(1, 2), evaluate=False)
    assert K.inst(fact, {w: real}).status == "proved"
