"""symbolic.kernel.special: rigorous enclosures against 50-digit mpmath, and properties."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import iv

from symbolic.kernel import special
from symbolic.kernel.special import SeriesTooLong, besseli, gamma, hyp0f1


def _inside(enclosure, value) -> bool:
    with mpmath.workdps(60):
        return mpmath.mpf(enclosure.a) <= value <= mpmath.mpf(enclosure.b)


@pytest.mark.parametrize("b, x", [(32, 64), (0.5, 0), (1, 1e-30), (750, 1e4), (3, 2500)])
def test_hyp0f1_examples(b, x):
    with mpmath.workdps(50):
        ref = mpmath.hyp0f1(mpmath.mpf(b), mpmath.mpf(x))
    enc = hyp0f1(iv.mpf(b), iv.mpf(x))
    assert _inside(enc, ref)
    assert enc.delta <= 1e-12 * abs(ref)  # at the default 53-bit iv precision


@pytest.mark.parametrize("nu, x", [(31, 16), (0, 1), (1.5, 3), (127, 32)])
def test_besseli_examples(nu, x):
    with mpmath.workdps(50):
        ref = mpmath.besseli(mpmath.mpf(nu), mpmath.mpf(x))
    assert _inside(besseli(iv.mpf(nu), iv.mpf(x)), ref)


@pytest.mark.parametrize("v", [1, 2, 0.5, 15.5, 32, 2047.5])
def test_gamma_examples(v):
    with mpmath.workdps(50):
        assert _inside(gamma(iv.mpf(v)), mpmath.gamma(mpmath.mpf(v)))


@given(st.integers(1, 600), st.floats(0, 5000))
def test_hyp0f1_contains_the_value(twice_b, x):
    b = mpmath.mpf(twice_b) / 2
    with mpmath.workdps(50):
        ref = mpmath.hyp0f1(b, mpmath.mpf(x), maxterms=10**6)
    assert _inside(hyp0f1(iv.mpf(twice_b) / 2, iv.mpf(x)), ref)


@given(st.integers(0, 300), st.floats(0, 200))
def test_besseli_contains_the_value(twice_nu, x):
    with mpmath.workdps(50):
        ref = mpmath.besseli(mpmath.mpf(twice_nu) / 2, mpmath.mpf(x))
    assert _inside(besseli(iv.mpf(twice_nu) / 2, iv.mpf(x)), ref)


def test_refusals_are_errors_not_wrong_intervals(monkeypatch):
    with pytest.raises(ValueError):
        gamma(iv.mpf([-0.5, 0.5]))  # a pole inside: no finite ball
    with pytest.raises(ValueError):
        hyp0f1(iv.mpf(2), iv.mpf(-1))
    with pytest.raises(ValueError):
        besseli(iv.mpf(0.5), iv.mpf(-1))  # not real
    monkeypatch.setattr(special, "MAX_PREC", 96)  # 0F1(; 2; 1e300) needs ~600 bits
    with pytest.raises(SeriesTooLong):
        hyp0f1(iv.mpf(2), iv.mpf(1e300))


def test_kernel_compares_the_bessel_form():
    import sympy

    from symbolic.kernel import check_compare

    b, d = sympy.Integer(8), sympy.Integer(64)
    exact = 1 + sympy.exp(2 * b) / (
        sympy.gamma(d / 2) * b ** (1 - d / 2) * sympy.besseli(d / 2 - 1, 2 * b)
    )
    assert check_compare(exact, ">", 1 + sympy.exp(2 * b - 2 * b**2 / d)).verdict.status == "proved"
    assert (
        check_compare(exact, "<", 1 + sympy.exp(2 * b - 2 * b**2 / d)).verdict.status == "refuted"
    )


@settings(max_examples=20)  # each example is five 50-digit references
@given(st.integers(1, 200), st.floats(0, 2000), st.floats(0, 2000))
def test_hyp0f1_on_intervals_contains_both_ends_and_is_tight(twice_b, x1, x2):
    """Arb at the corners [F(b.b; x.a), F(b.a; x.b)] holds the value at every corner of the
    box, and is no wider than the box itself makes it (point boxes: a few units in the last
    place of the 53-bit interval)."""
    lo_x, hi_x = sorted((x1, x2))
    b = iv.mpf([twice_b, twice_b + 1]) / 2
    enc = hyp0f1(b, iv.mpf([lo_x, hi_x]))
    with mpmath.workdps(50):
        for bb, xx in ((b.a, lo_x), (b.b, lo_x), (b.a, hi_x), (b.b, hi_x)):
            assert _inside(enc, mpmath.hyp0f1(mpmath.mpf(bb), mpmath.mpf(xx), maxterms=10**6))
    point = hyp0f1(iv.mpf(twice_b) / 2, iv.mpf(hi_x))
    assert point.delta <= 2.0**-48 * point.a


# -- erf and erfc in the tail, through kernel/intervals.py --


@settings(max_examples=15, deadline=None)
@given(st.fractions(6, 26, max_denominator=16), st.sampled_from([64, 256]))
def test_erfc_tail_encloses_the_true_value_tightly(x, bits):
    """erfc(x) for x ≥ 6 is enclosed tightly at any precision (a lost remainder bound or a
    one-sided tail fails this), and erf(x) − 1 is certified nonzero with its true value inside
    (erf(26) − 1 is −5.7e-296, which a one-sided tail bound could not tell from 0)."""
    import sympy

    from symbolic.kernel import enclose, tight_enclosure

    point = sympy.Rational(x.numerator, x.denominator)
    with mpmath.workdps(400):
        truth = mpmath.erfc(mpmath.mpf(x.numerator) / x.denominator)
        box = enclose(sympy.erfc(point), bits)
        lo, hi = mpmath.mpf(box.a), mpmath.mpf(box.b)
        assert 0 < lo <= truth <= hi
        assert hi - lo <= truth * mpmath.mpf(10) ** -15
        near_one = tight_enclosure(sympy.erf(point) - 1)
        assert near_one.excludes_zero and near_one.lo <= -truth <= near_one.hi


def _inside_at(enclosure, value, bits: int) -> bool:
    with mpmath.workprec(bits):
        return mpmath.mpf(enclosure.a) <= value <= mpmath.mpf(enclosure.b)


@settings(max_examples=40)
@given(
    st.integers(1, 200),
    st.integers(1, 10**30),
    st.integers(1, 10**30),
    st.sampled_from([128, 512, 2048]),
)
def test_hyp0f1_keeps_every_bit_of_its_argument(twice_b, p, q, bits):
    """At high interval precision the argument's end points have ``bits`` bits: the series is
    summed at them exactly. (Regression: they were rounded to mpmath.mp's 53 bits, to nearest,
    and the enclosure missed the value by ~2^-53 of the first term: ``--beta 1e-300`` refuted
    the true M*_exact > M*_gauss.) The value is compared at 3·bits."""
    old = iv.prec
    try:
        iv.prec = bits
        x = iv.mpf(p % 1000) / iv.mpf(q | 1)  # an odd denominator: not a binary number
        enc = hyp0f1(iv.mpf(twice_b) / 2, x * x)
    finally:
        iv.prec = old
    with mpmath.workprec(3 * bits):
        exact = mpmath.mpf(p % 1000) / (q | 1)
        ref = mpmath.hyp0f1(mpmath.mpf(twice_b) / 2, exact * exact)
    assert _inside_at(enc, ref, 3 * bits)


def test_hyp0f1_at_a_tiny_argument_of_4096_bits():
    old = iv.prec
    try:
        iv.prec = 4096
        beta = iv.mpf(1) / iv.mpf(10) ** 300
        enc = besseli(iv.mpf(31), 2 * beta)
    finally:
        iv.prec = old
    with mpmath.workprec(12000):
        b = mpmath.mpf(1) / mpmath.mpf(10) ** 300
        ref = b**31 / mpmath.factorial(31) * (1 + b * b / 32 + b**4 / (2 * 32 * 33))
    assert _inside_at(enc, ref, 12000)


def test_an_argument_near_an_integer_keeps_every_bit():
    """Γ and I_ν at 31 + 2^-60 (256-bit intervals): the value there, not at 31 (the end points
    reach Arb exactly; rounded to 53 bits they would be 31)."""
    old = iv.prec
    try:
        iv.prec = 256
        near = iv.mpf(31) + iv.mpf(2) ** -60
        g, i = gamma(near), besseli(near, iv.mpf(1))
    finally:
        iv.prec = old
    with mpmath.workprec(800):
        x = mpmath.mpf(31) + mpmath.mpf(2) ** -60
        assert _inside_at(g, mpmath.gamma(x), 800) and not _inside_at(g, mpmath.gamma(31), 800)
        i_near, i_31 = mpmath.besseli(x, 1), mpmath.besseli(31, 1)
        assert _inside_at(i, i_near, 800) and not _inside_at(i, i_31, 800)


@settings(max_examples=30)
@given(st.integers(1, 10**40), st.integers(60, 400))
def test_a_float_of_many_bits_is_enclosed_with_every_bit(n, precision):
    """A SymPy Float of ``precision`` bits is an exact binary rational; its enclosure holds that
    rational (regression: it went through mpmath.mpf and was rounded to 53 bits)."""
    import sympy

    from symbolic.kernel import enclose

    value = sympy.Float(sympy.Rational(n, 3**25), precision=precision)
    exact = sympy.Rational(value)  # every bit of the binary float
    enc = enclose(value, 2 * precision)
    with mpmath.workprec(4 * precision):
        want = mpmath.mpf(int(exact.p)) / int(exact.q)
    assert _inside_at(enc, want, 4 * precision)
