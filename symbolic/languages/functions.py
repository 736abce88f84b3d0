"""The one table of elementary functions: a row per function, a column per consumer.

A function of one real argument that activations may use (``exp``, ``tanh``, ``sin``, ...) is
one :class:`FunctionSpec` in :data:`FUNCTIONS`. Each consumer reads its column and nothing else:

==================  =======================================================================
``names``           the activation parser's names for it (``symbolic.languages``)
``head``            the SymPy class; also its name in ``srepr``/``sstr`` text (formula reader,
                    LaTeX printer)
``numpy``           float64 evaluation on arrays (``numeric_checks.evaluate``)
``estimate``        the parser's float64 estimate of a constant ``f(v)``
``ill_conditioned`` when that estimate may be wrong in sign or size (then it is recomputed at
                    high precision)
``sign``            what the parser knows of ``f(a)``'s sign from ``a``'s (:class:`SignRule`)
``recheck``         the re-check's own interval evaluator (``symbolic.evidence.numbers``)
``latex``           the LaTeX operator for hand-written formulas (``symbolic.render.latex_text``)
``enclosure``       the kernel's interval enclosure (``symbolic.kernel.enclose``); the kernel
                    keeps its own table (it imports nothing from here), and the tests check it
                    covers every row
==================  =======================================================================

``exp_growth`` is the one optional column: for a bounded function that SymPy may rewrite
through ``exp`` (``tanh``, ``erf``), how a constant argument enters that exponent, which the
parser bounds (``tanh(1e6)`` is 1.0 in float64, but ``simplify`` makes it ``exp(2e6)``).

Adding a function is one row here (plus its interval enclosure in the kernel's table,
``symbolic/kernel/intervals.py``, if the kernel lacks it). Max, Min, Abs and Piecewise are not
rows: every consumer handles these branches by their structure.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

import flint
import numpy as np
import sympy
from mpmath import iv, libmp

from symbolic.kernel import enclose


class SignRule(enum.Enum):
    """What the sign of ``f(a)`` is at every real x, given what is known of ``a``'s."""

    POSITIVE = "real and > 0 wherever a is real"  # exp, cosh, erfc
    SAME_SIGN = "real wherever a is, with a's sign (odd, increasing)"  # tanh, sinh, erf
    REAL = "real wherever a is; sign unknown"  # sin, cos
    LOG = "real where a > 0; >= 0 where a = 1 + (something >= 0)"  # log


class OutsideDomain(ValueError):
    """A re-check evaluator cannot enclose the function on this interval."""


RECHECK_MAX_EXP_ARGUMENT = 10**6  # the re-check encloses exp only up to this argument
CANCELLATION = 2.0**-40  # a float64 result below this share of its argument's size may lie
_T = sympy.Dummy("t", real=True)


def _arb_point(raw: tuple):
    """An mpmath raw binary number ``(sign, man, exp, bc)`` as the exact Arb number."""
    sign, man, exp, _ = raw
    if not man:
        if exp:  # ±inf, nan
            raise OutsideDomain("an infinite or undefined end point")
        return flint.arb(0)
    return flint.arb(((-int(man) if sign else int(man)), int(exp)))


def _iv_raw(a, rounding: str) -> tuple:
    """An exact Arb number as an mpmath raw number of ``iv.prec`` bits, rounded ``rounding``."""
    man, exp = (int(v) for v in a.mid().man_exp())
    return libmp.from_man_exp(man, exp, iv.prec, rounding)


ARB_EXTRA_BITS = 32  # working precision above the interval's
ARB_DOUBLINGS = 4  # a ball wider than the interval's precision is refined this often at most


def monotone_enclosure(f: Callable, x, increasing: bool = True):
    """``f`` monotone on ``x = [a, b]`` (``f`` maps an Arb ball to an Arb ball: ``arb.erf``,
    ``arb.gamma``, ...): the lower end of Arb's ball for f(a) and the upper end of its ball for
    f(b) (swapped when decreasing), each rounded outward to ``iv.prec``. Arb's balls are
    rigorous; the end points are converted exactly, so no accuracy of mpmath is assumed. These
    conversions are the re-check's own, deliberately not the kernel's (``kernel/special.py``):
    a rounding slip there must not be repeated in the evaluator that re-checks it."""
    a_raw, b_raw = x._mpi_
    if not increasing:
        a_raw, b_raw = b_raw, a_raw
    a, b = _arb_point(a_raw), _arb_point(b_raw)
    saved = flint.ctx.prec
    try:
        prec = iv.prec + ARB_EXTRA_BITS
        for _ in range(ARB_DOUBLINGS + 1):
            flint.ctx.prec = prec
            lo, hi = f(a).lower(), f(b).upper()
            if not (lo.is_finite() and hi.is_finite()):
                raise OutsideDomain("Arb gives no finite enclosure")
            width, scale = (hi - lo).abs_upper(), max(lo.abs_upper(), hi.abs_upper())
            if width <= scale * flint.arb(2) ** (-iv.prec):
                break
            prec *= 2
    finally:
        flint.ctx.prec = saved
    return iv.make_mpf((_iv_raw(lo, libmp.round_floor), _iv_raw(hi, libmp.round_ceiling)))


def _recheck_exp(x):
    if x.b > RECHECK_MAX_EXP_ARGUMENT:
        raise OutsideDomain("exp of an argument beyond 10^6")
    return iv.exp(x)


def _recheck_log(x):
    if x.a <= 0:
        raise OutsideDomain("log of a non-positive interval")
    return iv.log(x)


def _recheck_tanh(x):
    return 1 - 2 / (iv.exp(2 * x) + 1)


def _recheck_sinh(x):
    return (_recheck_exp(x) - _recheck_exp(-x)) / 2


def _recheck_cosh(x):
    return (_recheck_exp(x) + _recheck_exp(-x)) / 2


_vector_erf = np.vectorize(math.erf, otypes=[float])


def _np_erf(x: np.ndarray) -> np.ndarray:
    return _vector_erf(x)


def _np_erfc(x: np.ndarray) -> np.ndarray:
    return 1.0 - _vector_erf(x)


def _recheck_erf(x):
    return monotone_enclosure(flint.arb.erf, x)


def _recheck_erfc(x):
    return monotone_enclosure(flint.arb.erfc, x, increasing=False)


def never_ill_conditioned(argument: float, value: float) -> bool:  # noqa: ARG001
    return False


def ill_conditioned_near_one(argument: float, value: float) -> bool:  # noqa: ARG001
    return abs(argument - 1) < 2.0**-20  # log near 1: the argument's rounding dominates


def ill_conditioned_near_root(argument: float, value: float) -> bool:
    # sin(3.14159265358979323846264338328) is about -2e-31, but 1.2e-16 at float64's pi
    return abs(value) < CANCELLATION * max(1.0, abs(argument))


@dataclass(frozen=True)
class FunctionSpec:
    """One elementary function of one real argument (see the module docstring's columns)."""

    names: tuple[str, ...]
    head: type[sympy.Function]
    numpy: Callable[[np.ndarray], np.ndarray]
    estimate: Callable[[float], float]
    ill_conditioned: Callable[[float, float], bool]
    sign: SignRule
    recheck: Callable
    latex: str
    exp_growth: Callable[[float], float] | None = None

    @property
    def name(self) -> str:
        """The SymPy name (``srepr``/``sstr``): ``exp``, ``erfc``."""
        return self.head.__name__

    def enclosure(self, x, bits: int = 64):
        """The kernel's interval enclosure of the function on the interval ``x``."""
        return enclose(self.head(_T), bits, {_T: x})


FUNCTIONS: tuple[FunctionSpec, ...] = (
    FunctionSpec(
        names=("exp",), head=sympy.exp, numpy=np.exp, estimate=math.exp,
        ill_conditioned=never_ill_conditioned, sign=SignRule.POSITIVE,
        recheck=_recheck_exp, latex=r"\exp",
    ),
    FunctionSpec(
        names=("log",), head=sympy.log, numpy=np.log, estimate=math.log,
        ill_conditioned=ill_conditioned_near_one, sign=SignRule.LOG,
        recheck=_recheck_log, latex=r"\log",
    ),
    FunctionSpec(
        names=("tanh",), head=sympy.tanh, numpy=np.tanh, estimate=math.tanh,
        ill_conditioned=never_ill_conditioned, sign=SignRule.SAME_SIGN,
        recheck=_recheck_tanh, latex=r"\tanh", exp_growth=lambda v: 2 * abs(v),
    ),
    FunctionSpec(
        names=("sinh",), head=sympy.sinh, numpy=np.sinh, estimate=math.sinh,
        ill_conditioned=never_ill_conditioned, sign=SignRule.SAME_SIGN,
        recheck=_recheck_sinh, latex=r"\sinh",
    ),
    FunctionSpec(
        names=("cosh",), head=sympy.cosh, numpy=np.cosh, estimate=math.cosh,
        ill_conditioned=never_ill_conditioned, sign=SignRule.POSITIVE,
        recheck=_recheck_cosh, latex=r"\cosh",
    ),
    FunctionSpec(
        names=("erf",), head=sympy.erf, numpy=_np_erf, estimate=math.erf,
        ill_conditioned=never_ill_conditioned, sign=SignRule.SAME_SIGN,
        recheck=_recheck_erf, latex=r"\operatorname{erf}", exp_growth=lambda v: v * v,
    ),
    FunctionSpec(
        names=("erfc",), head=sympy.erfc, numpy=_np_erfc, estimate=math.erfc,
        ill_conditioned=never_ill_conditioned, sign=SignRule.POSITIVE,
        recheck=_recheck_erfc, latex=r"\operatorname{erfc}", exp_growth=lambda v: v * v,
    ),
    FunctionSpec(
        names=("sin",), head=sympy.sin, numpy=np.sin, estimate=math.sin,
        ill_conditioned=ill_conditioned_near_root, sign=SignRule.REAL,
        recheck=iv.sin, latex=r"\sin",
    ),
    FunctionSpec(
        names=("cos",), head=sympy.cos, numpy=np.cos, estimate=math.cos,
        ill_conditioned=ill_conditioned_near_root, sign=SignRule.REAL,
        recheck=iv.cos, latex=r"\cos",
    ),
)  # fmt: skip
BY_HEAD: dict[type, FunctionSpec] = {f.head: f for f in FUNCTIONS}
BY_NAME: dict[str, FunctionSpec] = {n: f for f in FUNCTIONS for n in f.names}
