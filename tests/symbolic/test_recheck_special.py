"""The re-check's special functions (erf, erfc, Γ, I_n) come from Arb's rigorous balls: the
enclosure holds the value at 4× the precision, is about as narrow as the interval's precision,
and a conversion rounded the wrong way is caught."""

from __future__ import annotations

import contextlib

import flint
import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import iv, libmp

import symbolic.languages.functions as functions
from symbolic.evidence.numbers import NotEnclosed, ivalue

CASES = [
    (flint.arb.erf, mpmath.erf, True),
    (flint.arb.erfc, mpmath.erfc, False),
    (flint.arb.gamma, mpmath.gamma, True),
    (lambda t: t.bessel_i(3), lambda t: mpmath.besseli(3, t), True),
]


@contextlib.contextmanager
def _iv_prec(bits: int):
    saved = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = saved


def _holds(enclosure, f, x, increasing: bool) -> bool:
    with mpmath.workprec(4 * iv.prec + 200):
        a, b = (mpmath.mp.make_mpf(raw) for raw in x._mpi_)
        lo, hi = (f(a), f(b)) if increasing else (f(b), f(a))
        ea, eb = (mpmath.mp.make_mpf(raw) for raw in enclosure._mpi_)
        return ea <= lo and hi <= eb


@pytest.mark.parametrize("arb_f, mp_f, increasing", CASES)
@pytest.mark.parametrize("prec", [53, 200, 1000])
def test_a_point_is_enclosed_tightly(arb_f, mp_f, increasing, prec):
    with _iv_prec(prec):
        x = iv.mpf(mpmath.mpf(5) / 2)
        enclosure = functions.monotone_enclosure(arb_f, x, increasing)
        assert _holds(enclosure, mp_f, x, increasing)
        width = (enclosure.b - enclosure.a) / abs(enclosure.b)
        assert width <= mpmath.mpf(2) ** (8 - prec)


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(range(len(CASES))),
    lo=st.floats(2.0, 30.0),
    span=st.floats(0.0, 3.0),
    prec=st.sampled_from([53, 120, 300]),
)
def test_random_intervals_are_enclosed(case, lo, span, prec):
    arb_f, mp_f, increasing = CASES[case]
    with _iv_prec(prec):
        x = iv.mpf([lo, lo + span])
        assert _holds(functions.monotone_enclosure(arb_f, x, increasing), mp_f, x, increasing)


def test_an_inward_rounding_is_caught(monkeypatch):
    """Rounding the ends to nearest instead of outward: at some point the enclosure misses the
    value (the check above sees it), so the outward rounding is what keeps it rigorous."""

    def nearest(a, rounding):  # noqa: ARG001
        man, exp = (int(v) for v in a.mid().man_exp())
        return libmp.from_man_exp(man, exp, iv.prec, libmp.round_nearest)

    monkeypatch.setattr(functions, "_iv_raw", nearest)
    missed = 0
    with _iv_prec(53):
        for k in range(1, 200):
            x = iv.mpf(mpmath.mpf(k) / 7)
            missed += not _holds(
                functions.monotone_enclosure(flint.arb.erf, x), mpmath.erf, x, True
            )
    assert missed > 0


def test_the_recheck_evaluator_reads_special_functions_through_arb():
    gamma = sympy.gamma(sympy.Rational(7, 2), evaluate=False)  # kept as Γ, not 15√π/8
    value = ivalue(gamma + sympy.besseli(2, sympy.Integer(3)))
    with mpmath.workprec(300):
        exact = mpmath.gamma(mpmath.mpf(7) / 2) + mpmath.besseli(2, 3)
        assert mpmath.mp.make_mpf(value._mpi_[0]) <= exact <= mpmath.mp.make_mpf(value._mpi_[1])
    with pytest.raises(NotEnclosed):
        ivalue(sympy.gamma(sympy.Rational(3, 2), evaluate=False))  # below 2: refused
