"""Red-team round 6 of the Python API: hostile claims, each with its truth established apart from
the toolkit — by hand (the ``why``), and where a number decides it by mpmath at 50 digits (the
``mp`` function: True holds, False fails; it never calls the toolkit).

``expect``: ``"true"`` (holds for every value of its symbols in their declared domains where
its terms are defined), ``"false"`` (fails somewhere there), ``"none"`` (no value a reader
gives it, or one only a SymPy convention gives: a derivative at a kink, a reversed or
non-integer range, a divergent series; it must be refused or left unknown, never proved nor
refuted). Data only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy
from sympy import Rational as R
from sympy import oo, pi

from symbolic import api
from symbolic.kernel import Exists, ForAll

mpmath.mp.dps = 50


@dataclass(frozen=True)
class Entry:
    id: str
    build: Callable[[], Any]
    expect: str  # "true" | "false" | "none"
    why: str
    mp: Callable[[], bool] | None = None


x, y = sympy.symbols("x y", real=True)
p = sympy.Symbol("p", positive=True)
n = sympy.Symbol("n", integer=True)
m = sympy.Symbol("m", integer=True, positive=True)
k = sympy.Symbol("k", integer=True)
z = sympy.Symbol("z")  # no assumptions: SymPy reads it complex
o = sympy.Symbol("o", odd=True)
e2 = sympy.Symbol("e", even=True)
eq, valid, nonzero, positive = api.equal, api.valid, api.nonzero, api.positive


def U(head, *args):
    return head(*args, evaluate=False)


def at0(f):
    """The derivative of ``f`` (in x) at x = 0, unevaluated."""
    return sympy.Subs(sympy.Derivative(f, x), x, 0)


CORPUS: list[Entry] = []


def add(id_, build, expect, why, mp=None):
    CORPUS.append(Entry(id_, build, expect, why, mp))


def _at80(check):
    with mpmath.workdps(80):
        return check()


# --- (a) derivatives at kinks: no derivative exists there ---------------------------------------
add("a.relu_half", lambda: eq(at0(sympy.Max(0, x)), R(1, 2)), "none", "relu: left 0, right 1")
add("a.relu_zero", lambda: eq(at0(sympy.Max(0, x)), 0), "none", "relu: no derivative at 0")
add("a.abs_zero", lambda: eq(at0(sympy.Abs(x)), 0), "none", "|x|: left −1, right 1")
add("a.min_half", lambda: eq(at0(sympy.Min(0, x)), R(1, 2)), "none", "min(0,x): 1 left, 0 right")
add("a.min_nz", lambda: nonzero(at0(sympy.Min(0, x))), "none", "no derivative at 0")
add("a.sign_zero", lambda: eq(at0(sympy.sign(x)), 0), "none", "sign jumps at 0")
add("a.floor_zero", lambda: eq(at0(sympy.floor(x)), 0), "none", "floor jumps at 0")
add(
    "a.piecewise_one",
    lambda: eq(at0(sympy.Piecewise((x**2, x < 0), (x, True))), 1),
    "none",
    "left derivative 0, right 1",
)
add(
    "a.max_heaviside",
    lambda: eq(U(sympy.Derivative, sympy.Max(0, x), x), sympy.Heaviside(x)),
    "none",
    "the left side is undefined at x = 0",
)
add(
    "a.abs_pos",
    lambda: positive(at0(sympy.Abs(x)) + 1),
    "none",
    "|x|'(0) does not exist",
)
add("a.smooth", lambda: eq(at0(x**2), 0), "true", "(x²)' = 2x, 0 at 0")
add("a.smooth_exp", lambda: eq(at0(sympy.exp(2 * x)), 2), "true", "(e^{2x})' = 2e^{2x}")
# --- (b) sums and products: reversed, non-integer, divergent -------------------------------------
add("b.karr_sum", lambda: eq(sympy.Sum(1, (k, 3, 1)), -1), "none", "empty sum is 0; Karr: −1")
add("b.karr_sum0", lambda: eq(sympy.Sum(1, (k, 3, 1)), 0), "none", "Karr gives −1, reader 0")
add("b.karr_prod", lambda: eq(sympy.Product(k, (k, 3, 1)), R(1, 2)), "none", "empty product 1")
add("b.empty_ok", lambda: eq(sympy.Sum(1, (k, 3, 2)), 0), "true", "b = a − 1: the empty sum")
add(
    "b.sym_n",
    lambda: eq(sympy.Sum(k, (k, 1, n)), n * (n + 1) / 2),
    "none",
    "n = −5: reader 0, formula 10 (Karr agrees with the formula)",
)
add("b.sym_m", lambda: eq(sympy.Sum(k, (k, 1, m)), m * (m + 1) / 2), "true", "Gauss, m ≥ 1")
add("b.half_bounds", lambda: eq(sympy.Sum(k, (k, R(1, 2), 3)), 6), "none", "k = 1/2 … ?")
add("b.half_bounds2", lambda: eq(sympy.Sum(k, (k, R(1, 2), R(5, 2))), 2), "none", "no integers")
add(
    "b.zeta_all_x",
    lambda: eq(sympy.Sum(1 / k**x, (k, 1, oo)), sympy.zeta(x)),
    "none",
    "x = −1: the sum diverges (no value), ζ(−1) = −1/12; true for x > 1",
)
add(
    "b.geometric_all_x",
    lambda: eq(sympy.Sum(x**k, (k, 0, oo)), 1 / (1 - x)),
    "none",
    "x = 2: diverges (no value), 1/(1−2) = −1; true for |x| < 1",
)
add(
    "b.basel",
    lambda: eq(sympy.Sum(1 / k**2, (k, 1, oo)), pi**2 / 6),
    "true",
    "Euler",
    lambda: abs(mpmath.nsum(lambda j: 1 / j**2, [1, mpmath.inf]) - mpmath.pi**2 / 6) < 1e-40,
)
add("b.ramanujan", lambda: eq(sympy.Sum(k, (k, 1, oo)), -R(1, 12)), "none", "1 + 2 + … diverges")
add("b.grandi", lambda: eq(sympy.Sum((-1) ** k, (k, 0, oo)), R(1, 2)), "none", "diverges")
add("b.harmonic_pos", lambda: positive(sympy.Sum(1 / k, (k, 1, oo))), "none", "diverges")
add(
    "b.harmonic_diff",
    lambda: eq(U(sympy.Add, sympy.Sum(1 / k, (k, 1, oo)), -sympy.Sum(1 / k, (k, 2, oo))), 1),
    "none",
    "∞ − ∞",
)
add("b.two_pow", lambda: eq(sympy.Sum(2**k, (k, 0, oo)), -1), "none", "2-adic value, diverges")
# --- (c) floats through Z3 -----------------------------------------------------------------------
add(
    "c.z3_tenth",
    lambda: valid(lambda z3: z3.RealVal(0.1) * 10 == 1),
    "false",
    "0.1 is 3602879701896397/2⁵⁵; ×10 ≠ 1",
)
add(
    "c.z3_times_tenth",
    lambda: valid(lambda z3: z3.Real("x") * 0.1 == z3.Real("x") / 10),
    "false",
    "x = 1: the float 0.1 ≠ 1/10",
)
add("c.z3_half", lambda: valid(lambda z3: z3.RealVal(0.5) * 2 == 1), "true", "0.5 is exact")
add(
    "c.z3_third",
    lambda: valid(lambda z3: z3.RealVal(1 / 3) * 3 < 1),
    "true",
    "fl(1/3) = 6004799503160661/2⁵⁴ < 1/3",
    lambda: mpmath.mpf(6004799503160661) / 2**54 * 3 < 1,
)
add(
    "c.sympy_tenth",
    lambda: valid(sympy.Eq(x * 0.1, x / 10, evaluate=False)),
    "false",
    "the same float on the SymPy path",
)
add("c.eq_sum", lambda: eq(0.1 + 0.2, 0.3), "false", "0.30000000000000004 ≠ 0.3 (binary)")
# --- (e) Piecewise divisions in a branch not taken -----------------------------------------------
add(
    "e.value_branch",
    lambda: valid(sympy.Ge(sympy.Piecewise((-1, sympy.Eq(x, 0)), (1 / x**2, True)), 0)),
    "false",
    "x = 0 takes the first branch: −1 < 0",
)
add(
    "e.value_branch_true",
    lambda: valid(sympy.Ge(sympy.Piecewise((1, sympy.Eq(x, 0)), (1 / x**2, True)), 0)),
    "true",
    "1 at 0, 1/x² > 0 elsewhere",
)
add(
    "e.guarded",
    lambda: valid(
        sympy.Eq(
            sympy.Piecewise((0, x > 0), (1 / x, True)) * x, sympy.Piecewise((0, x > 0), (1, True))
        )
    ),
    "true",
    "for x ≤ 0, x ≠ 0: (1/x)·x = 1",
)
# --- special functions at branch points, poles, outside their domains ----------------------------
add("s.log_sq", lambda: eq(sympy.log(x**2), 2 * sympy.log(x)), "false", "x = −1: 0 vs 2πi")
add("s.log_sq_pos", lambda: eq(sympy.log(p**2), 2 * sympy.log(p)), "true", "p > 0")
add("s.sqrt_sq", lambda: eq(sympy.sqrt(x**2), x), "false", "x = −1")
add("s.sqrt_abs", lambda: eq(sympy.sqrt(x**2), sympy.Abs(x)), "true", "real x")
add("s.cbrt_neg", lambda: eq(U(sympy.Pow, -8, R(1, 3)), -2), "false", "principal root 1 + i√3")
add("s.sqrt_prod", lambda: eq(sympy.sqrt(x * y), sympy.sqrt(x) * sympy.sqrt(y)), "false", "−1,−1")
add("s.asin_sin", lambda: eq(sympy.asin(sympy.sin(x)), x), "false", "x = 2: asin(sin 2) = π − 2")
add("s.atan_tan", lambda: eq(sympy.atan(sympy.tan(x)), x), "false", "x = 2: 2 − π")
add("s.asin2_pos", lambda: positive(sympy.asin(2)), "false", "asin 2 is not real")
add("s.gamma_half", lambda: eq(sympy.gamma(R(1, 2)) ** 2, pi), "true", "Γ(1/2) = √π")
add(
    "s.gamma_mhalf",
    lambda: eq(sympy.gamma(-R(1, 2)), -2 * sympy.sqrt(pi)),
    "true",
    "Γ(−1/2) = −2√π",
    lambda: abs(mpmath.gamma(-0.5) + 2 * mpmath.sqrt(mpmath.pi)) < 1e-40,
)
add("s.gamma_pole", lambda: nonzero(U(sympy.gamma, 0)), "none", "pole at 0")
add("s.zeta_m1", lambda: eq(U(sympy.zeta, -1), -R(1, 12)), "true", "ζ(−1) = −1/12")
add(
    "s.zeta3",
    lambda: positive(sympy.zeta(3) - R(6, 5)),
    "true",
    "ζ(3) = 1.2020569…",
    lambda: mpmath.zeta(3) > mpmath.mpf(6) / 5,
)
add("s.polylog21", lambda: eq(U(sympy.polylog, 2, 1), pi**2 / 6), "true", "Li₂(1) = ζ(2)")
add("s.floor_neg", lambda: eq(sympy.floor(x) + sympy.floor(-x), -1), "false", "x = 2: 0")
add("s.floor_int", lambda: eq(sympy.floor(n) + sympy.floor(-n), 0), "true", "n ∈ ℤ")
add("s.ceil_floor", lambda: eq(sympy.ceiling(x) - sympy.floor(x), 1), "false", "x = 2: 0")
add("s.frac_neg", lambda: eq(sympy.frac(-R(1, 2)), R(1, 2)), "true", "frac(−1/2) = 1/2")
add("s.mod_neg", lambda: eq(U(sympy.Mod, -1, 3), 2), "true", "−1 = −1·3 + 2")
add("s.mod_odd", lambda: eq(sympy.Mod(o, 2), 1), "true", "odd")
add("s.mod_half", lambda: eq(U(sympy.Mod, -R(7, 2), 2), R(1, 2)), "true", "−7/2 = −2·2 + 1/2")
add("s.abs_ix", lambda: eq(sympy.Abs(sympy.I * x), sympy.Abs(x)), "true", "|ix| = |x|")
add("s.abs_expix", lambda: eq(sympy.Abs(sympy.exp(sympy.I * x)), 1), "true", "real x")
add("s.abs_complex_sq", lambda: eq(sympy.Abs(z) ** 2, z**2), "true", "z ranges over ℝ")
add("s.pow_even", lambda: eq((-1) ** e2, 1), "true", "even exponent")
add("s.pow_odd", lambda: eq((-1) ** o, -1), "true", "odd exponent")
add("s.sin_npi", lambda: eq(sympy.sin(n * pi), 0), "true", "n ∈ ℤ")
add("s.sin_xpi", lambda: eq(sympy.sin(x * pi), 0), "false", "x = 1/2")
add("s.log_m1", lambda: eq(U(sympy.log, -1), sympy.I * pi), "true", "principal log")
add("s.lambert", lambda: eq(sympy.LambertW(-1 / sympy.E), -1), "true", "W(−1/e) = −1")
add("s.binom", lambda: eq(sympy.binomial(n, 2), n * (n - 1) / 2), "true", "polynomial in n")
# --- logic: quantifiers, false premises, integer assumptions -------------------------------------
add("l.n_sq", lambda: valid(n**2 >= n), "true", "integers")
add("l.exists_half", lambda: valid(Exists((n,), sympy.Eq(2 * n, 1))), "false", "no integer")
add("l.forall_exists", lambda: valid(ForAll((x,), Exists((y,), y > x))), "true", "y = x + 1")
add("l.exists_forall", lambda: valid(Exists((y,), ForAll((x,), y > x))), "false", "x = y")
add(
    "l.false_premise",
    lambda: valid(sympy.Implies(sympy.And(x > 1, x < 0), sympy.Eq(x, 5))),
    "true",
    "vacuous",
)
add(
    "l.int_premise",
    lambda: valid(sympy.Implies(sympy.Eq(2 * n, 1), sympy.Eq(n, 7))),
    "true",
    "2n = 1 has no integer solution",
)
add(
    "l.positive_domain",
    lambda: valid(ForAll((p,), p**2 <= p, sympy.Interval(-1, 1))),
    "true",
    "p's own assumption: the range is (0, 1], where p² ≤ p (false at p = −1)",
)
# --- constants close together, huge exponents ----------------------------------------------------
add(
    "k.e_pi",
    lambda: positive(sympy.exp(pi) - pi**sympy.E),
    "true",
    "23.1407 > 22.4592",
    lambda: mpmath.exp(mpmath.pi) > mpmath.pi**mpmath.e,
)
add(
    "k.ramanujan",
    lambda: positive(640320**3 + 744 - sympy.exp(pi * sympy.sqrt(163))),
    "true",
    "e^{π√163} = 640320³ + 744 − 7.5·10⁻¹³",
    lambda: 640320**3 + 744 > mpmath.exp(mpmath.pi * mpmath.sqrt(163)),
)
add("k.tiny", lambda: positive(pi + R(1, 10**60) - pi), "true", "10⁻⁶⁰ > 0")
add(
    "k.sqrt2_tight",
    lambda: positive(
        sympy.sqrt(2) - R(14142135623730950488016887242096980785696718753769480731766797, 10**61)
    ),
    "true",
    "√2 = 1.41421356237309504880168872420969807856967187537694807317667973…",
    lambda: _at80(
        lambda: (
            mpmath.sqrt(2)
            > mpmath.mpf(14142135623730950488016887242096980785696718753769480731766797) / 10**61
        )
    ),
)
add(
    "k.huge",
    lambda: positive(U(sympy.Add, U(sympy.Pow, 2, 10**6), -U(sympy.Pow, 10, 301029))),
    "true",
    "10⁶·log₁₀2 = 301029.99…",
    lambda: 10**6 * mpmath.log10(2) > 301029,
)
add(
    "k.huge_false",
    lambda: positive(U(sympy.Add, U(sympy.Pow, 2, 10**6), -U(sympy.Pow, 10, 301030))),
    "false",
    "10⁶·log₁₀2 < 301030",
    lambda: 10**6 * mpmath.log10(2) > 301030,
)
# --- limits and integrals with parameters ---------------------------------------------------
add("i.sinc", lambda: eq(sympy.Limit(sympy.sin(x) / x, x, 0), 1), "true", "sin x / x → 1")
add("i.sign_right", lambda: eq(sympy.Limit(sympy.sign(x), x, 0), 1), "true", "dir='+' shown")
add("i.sign_both", lambda: eq(sympy.Limit(sympy.sign(x), x, 0, "+-"), 1), "none", "no limit")
add("i.exp_p", lambda: eq(sympy.Integral(sympy.exp(-p * x), (x, 0, oo)), 1 / p), "true", "p > 0")
add(
    "i.exp_y",
    lambda: eq(sympy.Integral(sympy.exp(-y * x), (x, 0, oo)), 1 / y),
    "none",
    "y = −1: diverges (no value); true for y > 0",
)
add("i.pv", lambda: eq(sympy.Integral(1 / x, (x, -1, 1)), 0), "none", "not integrable")
add("i.poly", lambda: eq(sympy.Integral(x**2, (x, -1, 1)), R(2, 3)), "true", "x³/3 from −1 to 1")
