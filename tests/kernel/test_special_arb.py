"""symbolic.kernel.special's Arb conversions and identities: the interval ↔ ball conversions are
exact or outward (checked with exact fractions), each function's enclosure holds mpmath's
50-digit values on random intervals, and broken versions (an inward rounding, a dropped radius,
the wrong function) are caught by these same checks."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import iv, libmp

from symbolic.kernel import special


def _fraction(a: flint.arb) -> Fraction:
    """An exact Arb number (midpoint or radius) as a fraction."""
    man, exp = (int(v) for v in a.man_exp())
    return Fraction(man) * Fraction(2) ** exp


def _ends(box) -> tuple[Fraction, Fraction]:
    lo, hi = box._mpi_
    return Fraction(*libmp.to_rational(lo)), Fraction(*libmp.to_rational(hi))


def _at_prec(bits: int, f, *args):
    old = iv.prec
    iv.prec = bits
    try:
        return f(*args)
    finally:
        iv.prec = old


# -- the conversions ------------------------------------------------------------------------


def ball_violation(lo: Fraction, hi: Fraction, box) -> str | None:
    """Why ``special.ball(box)`` fails to hold ``[lo, hi]`` tightly, or None."""
    b = special.ball(box)
    mid, rad = _fraction(b.mid()), _fraction(b.rad())
    if mid - rad > lo or mid + rad < hi:
        return f"ball {b} misses [{lo}, {hi}]"
    if lo == hi and rad:
        return "a point interval became a ball of nonzero radius"
    if rad > (hi - lo) / 2 * (1 + Fraction(1, 2**28)):  # Arb's radius: 30 bits, rounded up
        return f"radius {rad} much wider than {(hi - lo) / 2}"
    return None


def interval_violation(mid: Fraction, rad: Fraction, bits: int, convert=None) -> str | None:
    """Why ``special.interval`` fails to hold the ball ``mid ± rad`` outward and tightly at
    ``bits`` bits, or None."""
    m_man, m_exp = _dyadic(mid)
    r_man, r_exp = _dyadic(rad)
    b = flint.arb((m_man, m_exp), (r_man, r_exp))
    # Arb may round the radius up: the ball to hold is the one Arb has
    rad = _fraction(b.rad())
    box = _at_prec(bits, convert or special.interval, b, b)
    lo, hi = _ends(box)
    if lo > mid - rad or hi < mid + rad:
        return f"[{lo}, {hi}] is not outward of {mid} ± {rad}"
    slack = (abs(mid) + rad) * Fraction(2) ** (2 - bits)
    if lo < mid - rad - slack or hi > mid + rad + slack:
        return f"[{lo}, {hi}] wider than rounding makes it"
    return None


def _dyadic(q: Fraction) -> tuple[int, int]:
    exp = -(q.denominator.bit_length() - 1)
    assert q.denominator == 1 << -exp
    return q.numerator, exp


dyadics = st.builds(
    lambda man, exp: Fraction(man) * Fraction(2) ** exp,
    st.integers(-(2**300), 2**300),
    st.integers(-400, 100),
)


@settings(max_examples=200)
@given(dyadics, dyadics)
def test_an_interval_becomes_a_ball_holding_it_exactly(a, b):
    lo, hi = sorted((a, b))
    box = iv.make_mpf(
        (libmp.from_man_exp(*_dyadic(lo)), libmp.from_man_exp(*_dyadic(hi)))
    )  # exact end points, every bit
    assert ball_violation(lo, hi, box) is None
    assert ball_violation(lo, lo, iv.make_mpf((box._mpi_[0], box._mpi_[0]))) is None


@settings(max_examples=200)
@given(dyadics, dyadics, st.sampled_from([53, 64, 128, 1024]))
def test_a_ball_becomes_an_outward_interval(mid, rad, bits):
    assert interval_violation(mid, abs(rad), bits) is None


def _nearest_raw(a, rounding):  # the broken conversion: rounds to nearest, not outward
    man, exp = (int(v) for v in a.mid().man_exp())
    return libmp.from_man_exp(man, exp, iv.prec, libmp.round_nearest)


def _inward_raw(a, rounding):  # the broken conversion: floor and ceiling swapped
    man, exp = (int(v) for v in a.mid().man_exp())
    flip = libmp.round_ceiling if rounding == libmp.round_floor else libmp.round_floor
    return libmp.from_man_exp(man, exp, iv.prec, flip)


def _midpoints_only(lower, upper):  # the broken conversion: the ball's radius dropped
    return special.interval(lower.mid(), upper.mid())


@pytest.mark.parametrize("broken", [_nearest_raw, _inward_raw])
def test_an_inward_rounding_is_caught(monkeypatch, broken):
    """Exact numbers of 101 bits at 53: rounded to nearest (or the wrong way) one end moves
    inside; the check above finds it."""
    cases = [Fraction(k * 2**100 + 1, 2**90) for k in range(1, 9)]
    assert all(interval_violation(m, Fraction(0), 53) is None for m in cases)
    monkeypatch.setattr(special, "_exact_raw", broken)
    assert any(interval_violation(m, Fraction(0), 53) for m in cases)


def test_a_dropped_radius_is_caught():
    mid, rad = Fraction(3, 4), Fraction(1, 2**40)
    assert interval_violation(mid, rad, 64) is None
    assert interval_violation(mid, rad, 64, convert=_midpoints_only) is not None


# -- the identities: each enclosure holds mpmath's 50-digit values -------------------------------


def containment_violation(f, reference, points: list[float], bits: int = 53) -> str | None:
    """Why ``f`` on the interval spanned by ``points`` (first and last: its ends) fails to hold
    ``reference`` at every one of them, or None."""
    lo, hi = min(points), max(points)
    box = _at_prec(bits, f, iv.mpf([lo, hi]))
    a, b = (mpmath.mp.make_mpf(raw) for raw in box._mpi_)  # the end points, every bit
    if a > b:
        return f"reversed interval {box}"
    with mpmath.workprec(max(170, 3 * bits)):  # 50 digits, or more for a narrower enclosure
        for p in points:
            value = reference(mpmath.mpf(p))
            if not a <= value <= b:
                return f"{box} misses {value} at {p}"
    return None


def _besseli_of_order(nu):
    return lambda x: special.besseli(iv.mpf(nu), x)


IDENTITIES = {
    "erf": (special.erf, mpmath.erf, st.floats(-30, 30)),
    "erfc": (special.erfc, mpmath.erfc, st.floats(-10, 2000)),
    "gamma": (special.gamma, mpmath.gamma, st.floats(0.01, 160)),
    "besseli_7/2": (_besseli_of_order(3.5), lambda x: mpmath.besseli(3.5, x), st.floats(0, 600)),
    "hyp0f1_750": (
        lambda x: special.hyp0f1(iv.mpf(750), x),
        lambda x: mpmath.hyp0f1(750, x, maxterms=10**6),
        st.floats(0, 1e5),
    ),
}

# the wrong function in each one's place: each must be caught on the sample points below
WRONG = {
    "erf": special.erfc,
    "erfc": special.erf,
    "gamma": lambda v: special.interval(
        *(2 * [special.evaluate(flint.arb.lgamma, special.ball(v))])
    ),
    "besseli_7/2": _besseli_of_order(2.5),
    "hyp0f1_750": lambda x: special.hyp0f1(iv.mpf(749.5), x),
}
SAMPLES = {
    "erf": [-3.0, -0.5, 0.25, 1.0, 7.0],
    "erfc": [-1.0, 0.5, 3.0, 27.0, 400.0],
    "gamma": [0.5, 1.5, 3.25, 40.0, 150.5],
    "besseli_7/2": [0.5, 2.0, 30.0, 500.0],
    "hyp0f1_750": [1.0, 64.0, 5000.0, 90000.0],
}


@pytest.mark.parametrize("name", IDENTITIES)
def test_examples_are_enclosed(name):
    f, reference, _ = IDENTITIES[name]
    for p in SAMPLES[name]:
        assert containment_violation(f, reference, [p]) is None


@pytest.mark.parametrize("name", IDENTITIES)
def test_the_wrong_function_is_caught(name):
    _, reference, _ = IDENTITIES[name]
    assert any(containment_violation(WRONG[name], reference, [p]) for p in SAMPLES[name])


@pytest.mark.parametrize("name", IDENTITIES)
def test_an_inward_nudge_is_caught(monkeypatch, name):
    """End points rounded the wrong way (inward, by less than one unit in the last place) miss
    the 50-digit value at some sample: the containment checks see one-ulp errors."""
    f, reference, _ = IDENTITIES[name]
    monkeypatch.setattr(special, "_exact_raw", _inward_raw)
    assert any(containment_violation(f, reference, [p]) for p in SAMPLES[name])


@pytest.mark.parametrize("name", IDENTITIES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_intervals_are_enclosed(name, data):
    """The enclosure on a random interval (a random point in 1 of 4 cases) holds the value at
    both ends and at a point inside, at 53 or 200 bits."""
    f, reference, floats = IDENTITIES[name]
    a = data.draw(floats)
    b = data.draw(st.one_of(st.just(a), floats))
    lo, hi = sorted((a, b))
    if name == "gamma" and hi - lo > 1:  # Γ on one ball: a narrower box keeps it meaningful
        hi = lo + 1
    inside = lo + (hi - lo) * data.draw(st.floats(0, 1))
    bits = data.draw(st.sampled_from([53, 200]))
    assert containment_violation(f, reference, [lo, inside, hi], bits) is None


def test_point_arguments_are_refined_to_the_working_precision():
    """At exact points the precision is raised until the ball is 2^-iv.prec narrow (regression:
    a ball that did not narrow at the first doubling was returned, 0F1 at the YaRN crossing of
    d = 1500 came back with a negative lower end and capacity --d 1500 crashed in log)."""
    for k in range(120):
        x = 10 ** (2 + k / 10)
        box = _at_prec(64, special.hyp0f1, iv.mpf(750), iv.mpf(x))
        assert 0 < box.a and box.delta <= box.a * 2.0**-60, x
