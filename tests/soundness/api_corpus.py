"""The adversarial corpus of issue 24: claims written through the public API (``equal``,
``valid``, ``nonzero``, ``positive``, ``assume``, ``@claim``), each with its truth established
by hand and re-derived with mpmath alone (``python benchmarks/api_campaign.py --verify-truth``
runs every entry's ``mp`` function; none of them calls the toolkit).

Data only. Each :class:`Entry` gives

* ``id`` and ``family`` (the class of trap);
* ``build``: a function that calls the public API and returns the ``Step`` (or the ``Result`` of a
  ``@claim``);
* ``expect``: ``"true"`` (the statement holds for every value of its symbols in their declared
  domains, where its terms are defined: a denominator is nonzero), ``"false"`` (it fails
  somewhere there), or ``"refuse"`` (no meaning the kernel may decide: the API must refuse it
  with ``InvalidArgument``);
* ``why``: how the truth was established;
* ``mp``: re-derives the truth with mpmath (True: holds, False: fails), or None;
* ``shown``: optional test of the decided fact's formula (the statement displayed must be the one
  decided: e.g. an integer variable shown as an integer).

Semantics the truths follow (docs/api.md): a Python float or SymPy ``Float`` is its exact binary
value; a Python expression such as ``0.1 + 0.2`` is evaluated by Python before the API sees it
(the claim is about the float Python computed); a symbol ranges over its SymPy assumptions (a
symbol without assumptions over ℝ); an identity with a denominator is claimed where the
denominator is nonzero.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy
from sympy import Rational as R

from symbolic import api
from symbolic.kernel import Exists, ForAll

mp = mpmath.mp


@dataclass(frozen=True)
class Entry:
    id: str
    family: str
    build: Callable[[], Any]
    expect: str  # "true" | "false" | "refuse"
    why: str
    mp: Callable[[], bool] | None = None
    shown: Callable[[Any], bool] | None = None


# --- mpmath helpers (no toolkit code) ------------------------------------------------------------

DPS = 60
TINY = mpmath.mpf(10) ** -45


def exact(f: float) -> mpmath.mpf:
    """A Python float as mpmath sees it: exact (53 bits fit in mpmath's working precision)."""
    with mpmath.workdps(DPS):
        return mpmath.mpf(f)


def all_zero(fn: Callable[..., Any], points: list[tuple]) -> bool:
    """True when ``fn`` is 0 (to 45 digits) at every point; False at the first that is not."""
    with mpmath.workdps(DPS):
        return all(
            abs(fn(*[mpmath.mpf(p) if not isinstance(p, mpmath.mpf) else p for p in pt])) < TINY
            for pt in points
        )


def holds(pred: Callable[..., bool], points: list[tuple]) -> bool:
    with mpmath.workdps(DPS):
        return all(pred(*[mpmath.mpf(p) for p in pt]) for pt in points)


GRID = [(-3,), (-1,), ("-0.5",), ("0.25",), (1,), (2,), ("7.5",)]
GRID_NO1 = [g for g in GRID if g != (1,)]
GRID2 = [(a, b) for a in (-2, "-0.5", "0.3", 1, 3) for b in (-1, "0.7", 2)]


# --- symbols --------------------------------------------------------------------------------------

x, y = sympy.symbols("x y", real=True)
a, b = sympy.symbols("a b", real=True)
p = sympy.Symbol("p", positive=True)
q = sympy.Symbol("q", negative=True)
n = sympy.Symbol("n", integer=True)
m = sympy.Symbol("m", integer=True, positive=True)
r = sympy.Symbol("r", rational=True)
ev = sympy.Symbol("e", even=True)
z = sympy.Symbol("z")  # no assumptions
P, Q = sympy.symbols("P Q")  # used as Boolean atoms
i, j = sympy.symbols("i j", integer=True)
X = sympy.IndexedBase("X")
sigma = api.uninterpreted("sigma")
E = sympy.Eq
NE = sympy.Ne


def U(*args):
    return sympy.Mul(*args, evaluate=False)


def Pw(base, e):
    return sympy.Pow(base, e, evaluate=False)


def Ad(*args):
    return sympy.Add(*args, evaluate=False)


# --- user-defined SymPy classes that lie ---------------------------------------------------------


class LiarOne(sympy.Expr):
    """Prints as 1, simplifies to 0."""

    is_commutative = True

    def _eval_simplify(self, **kw):
        return sympy.Integer(0)

    def _sympystr(self, printer):
        return "1"

    def _eval_evalf(self, prec):
        return sympy.Float(1)


class AlwaysPositive(sympy.Function):
    """A function that claims every value is positive."""

    def _eval_is_positive(self):
        return True

    def _eval_is_real(self):
        return True


class ShySymbol(sympy.Symbol):
    """A Symbol subclass that lies about its sign."""

    @property
    def is_positive(self):  # noqa: D401
        return True


class ZeroAdd(sympy.Add):
    """An Add that claims to be zero."""

    @property
    def is_zero(self):
        return True


# --- the corpus ----------------------------------------------------------------------------------

CORPUS: list[Entry] = []


def add(id, family, build, expect, why, mp=None, shown=None):
    CORPUS.append(Entry(id, family, build, expect, why, mp, shown))


eq, va, nz, po = api.equal, api.valid, api.nonzero, api.positive

# Floats: a Python float is its exact binary value.
F = "float"
add(
    "f.sum",
    F,
    lambda: eq(0.1 + 0.2, 0.3),
    "false",
    "0.1+0.2 is 0.30000000000000004 ≠ 0.3 (binary)",
    lambda: exact(0.1 + 0.2) == exact(0.3),
)
add(
    "f.sqrt2",
    F,
    lambda: eq(math.sqrt(2), sympy.sqrt(2)),
    "false",
    "a float is rational; √2 is not",
    lambda: abs(exact(math.sqrt(2)) - mpmath.sqrt(2)) < TINY,
)
add(
    "f.ulp",
    F,
    lambda: eq(1.0000000000000002, 1),
    "false",
    "1 + 2⁻⁵² ≠ 1",
    lambda: exact(1.0000000000000002) == 1,
)
add(
    "f.tiny_nz",
    F,
    lambda: nz(1e-300),
    "true",
    "1e-300 is a positive double",
    lambda: exact(1e-300) != 0,
)
add("f.tiny_pos", F, lambda: po(1e-100), "true", "1e-100 > 0", lambda: exact(1e-100) > 0)
add(
    "f.diff_pos",
    F,
    lambda: po((0.1 + 0.2) - 0.3),
    "true",
    "Python computes 5.551115123125783e-17 > 0",
    lambda: exact((0.1 + 0.2) - 0.3) > 0,
)
add("f.half", F, lambda: eq(0.5, R(1, 2)), "true", "0.5 is exactly 1/2", lambda: exact(0.5) == 0.5)
add(
    "f.quarter_sum",
    F,
    lambda: eq(0.25 + 0.25, 0.5),
    "true",
    "exact in binary",
    lambda: exact(0.25 + 0.25) == exact(0.5),
)
add(
    "f.absorb",
    F,
    lambda: eq(1e16 + 1.0, 1e16),
    "true",
    "Python rounds 1e16+1 to 1e16",
    lambda: exact(1e16 + 1.0) == exact(1e16),
)
add(
    "f.denormal",
    F,
    lambda: nz(5e-324),
    "true",
    "the least subnormal is 2⁻¹⁰⁷⁴ > 0",
    lambda: exact(5e-324) > 0,
)
add("f.denormal_eq0", F, lambda: eq(5e-324, 0), "false", "2⁻¹⁰⁷⁴ ≠ 0", lambda: exact(5e-324) == 0)
add("f.neg_tiny", F, lambda: po(-1e-300), "false", "−1e-300 < 0", lambda: exact(-1e-300) > 0)
add(
    "f.times3",
    F,
    lambda: eq(0.1 * 3, 0.3),
    "false",
    "0.1*3 is 0.30000000000000004",
    lambda: exact(0.1 * 3) == exact(0.3),
)
add(
    "f.third",
    F,
    lambda: eq(1 / 3, R(1, 3)),
    "false",
    "a double is never 1/3",
    lambda: exact(1 / 3) * 3 == 1,
)
add(
    "f.x_half",
    F,
    lambda: eq(x * 0.5, x / 2),
    "true",
    "0.5 = 1/2 exactly",
    lambda: all_zero(lambda t: t * exact(0.5) - t / 2, GRID),
)
add(
    "f.x_tenth",
    F,
    lambda: eq(x * 0.1, x / 10),
    "false",
    "binary 0.1 ≠ 1/10: differs at x = 1",
    lambda: all_zero(lambda t: t * exact(0.1) - t / 10, GRID),
)
add(
    "f.pi",
    F,
    lambda: eq(math.pi, sympy.pi),
    "false",
    "π is irrational",
    lambda: abs(exact(math.pi) - mpmath.pi) < TINY,
)
add(
    "f.pi_pos",
    F,
    lambda: po(sympy.pi - math.pi),
    "true",
    "π − 3.141592653589793 ≈ 1.22e-16 > 0",
    lambda: mpmath.pi - exact(math.pi) > 0,
)
add(
    "f.e_neg",
    F,
    lambda: po(math.e - sympy.E),
    "false",
    "the double 2.718281828459045 is below e by 1.45e-16",
    lambda: exact(math.e) - mpmath.e > 0,
)
add(
    "f.big",
    F,
    lambda: eq(1e308 * 10 if False else 1e308, 10**308),
    "false",
    "the double 1e308 is not 10³⁰⁸",
    lambda: exact(1e308) == mpmath.mpf(10) ** 308,
)
add(
    "f.int_valued",
    F,
    lambda: eq(2.0**60, 2**60),
    "true",
    "2⁶⁰ is a double",
    lambda: exact(2.0**60) == 2**60,
)
add(
    "f.sq",
    F,
    lambda: eq(0.1**2, 0.01),
    "false",
    "0.1**2 = 0.010000000000000002 in Python",
    lambda: exact(0.1**2) == exact(0.01),
)
add("f.neg_zero", F, lambda: eq(-0.0, 0), "true", "−0.0 is the number 0", lambda: exact(-0.0) == 0)
add(
    "f.valid_sum",
    F,
    lambda: va(E(sympy.Float(0.1) + sympy.Float(0.2), sympy.Float(0.3))),
    "false",
    "SymPy rounds 0.1+0.2 to the double 0.30000000000000004 ≠ 0.3",
    lambda: exact(0.1 + 0.2) == exact(0.3),
)
add(
    "f.valid_x",
    F,
    lambda: va(E(0.1 * x, x / 10, evaluate=False)),
    "false",
    "binary 0.1 ≠ 1/10 (x = 1); evaluate=False: SymPy's Eq would round it to True itself",
    lambda: exact(0.1) == mpmath.mpf(1) / 10,
)
add(
    "f.valid_half",
    F,
    lambda: va(E(0.5 * x + 0.5 * x, x)),
    "true",
    "exact",
    lambda: exact(0.5) * 2 == 1,
)
add(
    "f.nz_tenth_minus",
    F,
    lambda: nz(Ad(sympy.Float(0.1), -R(1, 10))),
    "true",
    "binary 0.1 − 1/10 = 5.55e-18 ≠ 0",
    lambda: exact(0.1) - mpmath.mpf(1) / 10 != 0,
)
add("f.sym_float", F, lambda: eq(x + 1e-20, x), "false", "1e-20 ≠ 0", lambda: exact(1e-20) == 0)
add("f.nan", F, lambda: eq(float("nan"), 0), "refuse", "NaN is not a number")
add("f.inf", F, lambda: po(float("inf")), "refuse", "∞ is not a real number")

# SymPy Float: its exact binary value, no rounding in the kernel.
SF = "sympy-float"
add(
    "sf.tenth",
    SF,
    lambda: eq(sympy.Float("0.1"), R(1, 10)),
    "false",
    "Float('0.1') is the 53-bit double, not 1/10",
    lambda: exact(0.1) == mpmath.mpf(1) / 10,
)
add(
    "sf.tenth_pos",
    SF,
    lambda: po(Ad(sympy.Float("0.1"), -R(1, 10))),
    "true",
    "the double above 1/10 by 5.55e-18",
    lambda: exact(0.1) - mpmath.mpf(1) / 10 > 0,
)
add(
    "sf.prec100",
    SF,
    lambda: eq(sympy.Float("0.1", 100), sympy.Float("0.1")),
    "false",
    "a 100-digit 0.1 and a 53-bit 0.1 differ",
    lambda: abs(mpmath.mpf("0.1") - exact(0.1)) < TINY,
)
add(
    "sf.same",
    SF,
    lambda: eq(sympy.Float("0.1"), sympy.Float(0.1)),
    "true",
    "both are the double nearest 1/10",
    lambda: exact(0.1) == exact(0.1),
)
add("sf.two", SF, lambda: eq(sympy.Float(2), 2), "true", "2.0 = 2", lambda: True)
add(
    "sf.lt",
    SF,
    lambda: po(Ad(R(1, 3), -sympy.Float(1 / 3))),
    "true",
    "the double nearest 1/3 is below it",
    lambda: mpmath.mpf(1) / 3 - exact(1 / 3) > 0,
)
add(
    "sf.x",
    SF,
    lambda: eq(sympy.Float("0.25") * x, x / 4),
    "true",
    "0.25 is exact",
    lambda: exact(0.25) == mpmath.mpf(1) / 4,
)
add(
    "sf.x_false",
    SF,
    lambda: eq(sympy.Float("0.3") * x, 3 * x / 10),
    "false",
    "0.3 is not exact (x = 1)",
    lambda: exact(0.3) == mpmath.mpf(3) / 10,
)
add(
    "sf.tiny",
    SF,
    lambda: eq(sympy.Float("1e-400"), 0),
    "false",
    "1e-400 ≠ 0 (SymPy floats have a wide exponent)",
    lambda: mpmath.mpf("1e-400") == 0,
)
add(
    "sf.nz_tiny",
    SF,
    lambda: nz(sympy.Float("1e-400")),
    "true",
    "1e-400 ≠ 0",
    lambda: mpmath.mpf("1e-400") != 0,
)
add(
    "sf.sub",
    SF,
    lambda: nz(Ad(sympy.Float("0.3"), sympy.Float("-0.1"), sympy.Float("-0.2"))),
    "true",
    "the exact sum of the three doubles is −2.78e-17",
    lambda: exact(0.3) - exact(0.1) - exact(0.2) != 0,
)
add(
    "sf.neg",
    SF,
    lambda: po(Ad(sympy.Float("0.3"), sympy.Float("-0.1"), sympy.Float("-0.2"))),
    "false",
    "the exact sum is −2.78e-17 < 0",
    lambda: exact(0.3) - exact(0.1) - exact(0.2) > 0,
)

# Z3's translation keeps what the symbols mean.
Z = "z3-meaning"
add(
    "z.pos_cubic",
    Z,
    lambda: va(p**3 - p**2 + p > 0),
    "true",
    "p(p² − p + 1) > 0 for p > 0 (the quadratic has no real root)",
    lambda: holds(lambda t: t**3 - t**2 + t > 0, [("0.001",), ("0.5",), (1,), (7,)]),
)
add(
    "z.int_sq",
    Z,
    lambda: va(n**2 >= n),
    "true",
    "n² − n = n(n − 1) ≥ 0 for integers",
    lambda: holds(lambda t: t**2 >= t, [(k,) for k in range(-5, 6)]),
)
add(
    "z.int_sq_real",
    Z,
    lambda: va(x**2 >= x),
    "false",
    "x = 1/2: 1/4 < 1/2",
    lambda: holds(lambda t: t**2 >= t, [("0.5",)]),
)
add(
    "z.same_name",
    Z,
    lambda: va(E(sympy.Symbol("x", positive=True), sympy.Symbol("x", real=True))),
    "false",
    "two different symbols: x⁺ = 1, x = 2",
    lambda: mpmath.mpf(1) == 2,
)
add(
    "z.dummy",
    Z,
    lambda: va(E(sympy.Dummy("x"), x)),
    "false",
    "a Dummy is another variable",
    lambda: mpmath.mpf(1) == 2,
)
add(
    "z.dummy_self",
    Z,
    lambda: (lambda d: va(sympy.Implies(d > 0, d**2 > 0)))(sympy.Dummy("x")),
    "true",
    "d > 0 ⇒ d² > 0",
    lambda: holds(lambda t: t**2 > 0, [("0.01",), (3,)]),
)
add(
    "z.bound_free",
    Z,
    lambda: va(sympy.Implies(E(x, 1), ForAll((x,), E(x, 1)))),
    "false",
    "x = 1 makes the hypothesis true; ∀x: x = 1 is false",
    lambda: mpmath.mpf(2) == 1,
)
add(
    "z.bound_free2",
    Z,
    lambda: va(sympy.Implies(ForAll((x,), x**2 >= 0), x**2 >= 0)),
    "true",
    "instance of a true universal",
    lambda: holds(lambda t: t**2 >= 0, GRID),
)
add("z.bool_em", Z, lambda: va(sympy.Or(P, sympy.Not(P))), "true", "excluded middle", lambda: True)
add(
    "z.bool_imp",
    Z,
    lambda: va(sympy.Implies(P, Q)),
    "false",
    "P true, Q false",
    lambda: (not True) or False,
)
add(
    "z.bool_mixed",
    Z,
    lambda: va(sympy.Implies(sympy.And(P, x > 0), sympy.Or(P, x > 1))),
    "true",
    "P holds in the hypothesis",
    lambda: True,
)
add(
    "z.int_ne_half",
    Z,
    lambda: va(NE(2 * n, 1)),
    "true",
    "2n is even",
    lambda: holds(lambda t: 2 * t != 1, [(k,) for k in range(-4, 5)]),
)
add(
    "z.real_ne_half",
    Z,
    lambda: va(NE(2 * x, 1)),
    "false",
    "x = 1/2",
    lambda: holds(lambda t: 2 * t != 1, [("0.5",)]),
)
add("z.posint", Z, lambda: va(m >= 1), "true", "positive integers are ≥ 1", lambda: True)
add("z.neg", Z, lambda: va(q < 0), "true", "q is negative", lambda: True)
add(
    "z.neg_sq",
    Z,
    lambda: va(q**3 < 0),
    "true",
    "odd power of a negative number",
    lambda: holds(lambda t: t**3 < 0, [("-0.1",), (-3,)]),
)
add("z.pos_false", Z, lambda: va(p > 1), "false", "p = 1/2", lambda: mpmath.mpf(0.5) > 1)
add(
    "z.rational",
    Z,
    lambda: va(NE(r**2, 2)),
    "true",
    "√2 is irrational",
    lambda: abs(mpmath.sqrt(2) - mpmath.mpf(1414213562373095) / 10**15) > 0,
)
add("z.even", Z, lambda: va(NE(ev, 1)), "true", "an even number is not 1", lambda: True)
add(
    "z.nonneg",
    Z,
    lambda: va(sympy.Symbol("w", nonnegative=True) >= 0),
    "true",
    "declared",
    lambda: True,
)
add(
    "z.nonzero",
    Z,
    lambda: va(sympy.Symbol("v", nonzero=True, real=True) ** 2 > 0),
    "true",
    "v ≠ 0",
    lambda: holds(lambda t: t**2 > 0, [("-0.1",), (2,)]),
)
add(
    "z.complex",
    Z,
    lambda: va(sympy.Symbol("c", complex=True, real=False) ** 2 >= 0),
    "refuse",
    "a non-real symbol has no order",
)
add(
    "z.noassump",
    Z,
    lambda: va(z**2 >= 0),
    "true",
    "a symbol without assumptions ranges over ℝ (docs/api.md)",
    lambda: holds(lambda t: t**2 >= 0, GRID),
)
add(
    "z.int_two_names",
    Z,
    lambda: va(E(sympy.Symbol("n", integer=True) * 2, sympy.Symbol("n", real=True) * 2)),
    "false",
    "integer n = 0, real n = 1/2",
    lambda: 2 * 0 == 2 * mpmath.mpf(0.5),
)
add(
    "z.forall_int",
    Z,
    lambda: va(ForAll((n,), n**2 >= n)),
    "true",
    "as z.int_sq",
    lambda: holds(lambda t: t**2 >= t, [(k,) for k in range(-5, 6)]),
)
add(
    "z.exists_int",
    Z,
    lambda: va(Exists((n,), E(2 * n, 1))),
    "false",
    "no integer n has 2n = 1",
    lambda: any(2 * k == 1 for k in range(-5, 6)),
)
add(
    "z.exists_real",
    Z,
    lambda: va(Exists((x,), E(2 * x, 1))),
    "true",
    "x = 1/2",
    lambda: 2 * mpmath.mpf(0.5) == 1,
)
add(
    "z.uf",
    Z,
    lambda: va(sympy.Implies(E(x, y), E(sigma(x), sigma(y)))),
    "true",
    "congruence",
    lambda: True,
)
add(
    "z.uf_false",
    Z,
    lambda: va(E(sigma(x), sigma(y))),
    "false",
    "σ = identity, x ≠ y",
    lambda: 1 == 2,
)
add("z.uf_pos_int", Z, lambda: va(sigma(m) ** 2 >= 0), "true", "a square", lambda: True)
add(
    "z.sin",
    Z,
    lambda: va(sympy.sin(x) <= 1),
    "true",
    "|sin| ≤ 1 (Z3 has no sin: refusal is fine)",
    lambda: holds(lambda t: mpmath.sin(t) <= 1, GRID),
)
add(
    "z.abs", Z, lambda: va(E(sympy.Abs(x), x)), "false", "x = −1", lambda: abs(mpmath.mpf(-1)) == -1
)
add(
    "z.sqrt",
    Z,
    lambda: va(sympy.sqrt(p) > 0),
    "true",
    "√p > 0 for p > 0",
    lambda: holds(lambda t: mpmath.sqrt(t) > 0, [("0.01",), (4,)]),
)
add(
    "z.pos_uf",
    Z,
    lambda: va(sympy.Function("g", positive=True)(x) > 0),
    "true",
    "g is declared positive (refusal is fine)",
    lambda: True,
)
add("z.nonboolean", Z, lambda: va(x + 1), "refuse", "not a statement")
add("z.number", Z, lambda: va(5), "refuse", "not a statement")
add("z.true", Z, lambda: va(sympy.true), "true", "True", lambda: True)
add("z.false", Z, lambda: va(sympy.false), "false", "False", lambda: False)

# The formula shown is the formula Z3 checked.
ZS = "z3-shown"


def _shown_int(fact) -> bool:
    return all(s.is_integer for s in fact.formula.free_symbols if str(s) == "n")


add(
    "zs.int_times2",
    ZS,
    lambda: va(lambda z3: z3.Int("n") * 2 != 1),
    "true",
    "2n is even",
    lambda: holds(lambda t: 2 * t != 1, [(k,) for k in range(-4, 5)]),
    _shown_int,
)
add(
    "zs.int_div",
    ZS,
    lambda: va(lambda z3: z3.Int("n") / 2 == 0),
    "false",
    "integer division: n = 2 gives 1 ≠ 0",
    lambda: 2 // 2 == 0,
)
add(
    "zs.toreal",
    ZS,
    lambda: va(lambda z3: z3.ToReal(z3.Int("n")) / 2 != z3.RealVal("1/4")),
    "true",
    "n/2 = 1/4 needs n = 1/2",
    lambda: True,
    _shown_int,
)
add(
    "zs.toint",
    ZS,
    lambda: va(lambda z3: z3.ToReal(z3.ToInt(z3.Real("x"))) <= z3.Real("x")),
    "true",
    "⌊x⌋ ≤ x",
    lambda: holds(lambda t: mpmath.floor(t) <= t, GRID),
    lambda f: f.formula.has(sympy.floor),
)
add(
    "zs.toint_eq",
    ZS,
    lambda: va(lambda z3: z3.ToReal(z3.ToInt(z3.Real("x"))) == z3.Real("x")),
    "false",
    "x = 1/2",
    lambda: mpmath.floor(0.5) == 0.5,
)
add(
    "zs.mod",
    ZS,
    lambda: va(lambda z3: z3.Int("n") % 2 < 2),
    "true",
    "n mod 2 ∈ {0, 1} (refusal is fine)",
    lambda: True,
)
add(
    "zs.bool",
    ZS,
    lambda: va(lambda z3: z3.Or(z3.Bool("b"), z3.Not(z3.Bool("b")))),
    "true",
    "excluded middle",
    lambda: True,
)
add(
    "zs.real_div0",
    ZS,
    lambda: va(lambda z3: z3.Real("x") / z3.Real("x") == 1),
    "true",
    "x/x = 1 where x ≠ 0 (docs: one semantics of division)",
    lambda: True,
)
add(
    "zs.div_zero_ne",
    ZS,
    lambda: va(lambda z3: 1 / z3.Real("x") != 0),
    "true",
    "1/x ≠ 0 where defined",
    lambda: True,
)
add(
    "zs.uf_int",
    ZS,
    lambda: va(
        lambda z3: (
            z3.Function("h", z3.IntSort(), z3.RealSort())(z3.Int("n"))
            == z3.Function("h", z3.IntSort(), z3.RealSort())(z3.Int("n"))
        )
    ),
    "true",
    "reflexivity (refusal of Int-argument functions is fine)",
    lambda: True,
)
add(
    "zs.bv",
    ZS,
    lambda: va(lambda z3: z3.BitVec("v", 8) + 1 != z3.BitVec("v", 8)),
    "true",
    "8-bit v+1 ≠ v (refusal is fine)",
    lambda: True,
)
add("zs.plain", ZS, lambda: va(lambda z3: z3.Real("x") ** 2 >= 0), "true", "a square", lambda: True)
add(
    "zs.plain_false",
    ZS,
    lambda: va(lambda z3: z3.Real("x") ** 2 > 0),
    "false",
    "x = 0",
    lambda: mpmath.mpf(0) ** 2 > 0,
)
add("zs.nonbool", ZS, lambda: va(lambda z3: z3.Real("x") + 1), "refuse", "not a formula")
add(
    "zs.int_neg_div",
    ZS,
    lambda: va(lambda z3: (z3.Int("n") * 2) / 2 == z3.Int("n")),
    "true",
    "2n div 2 = n for every integer n (refusal is fine)",
    lambda: True,
)

# One semantics of division across SymPy and Z3: claimed where the denominator is nonzero.
D = "division"
c1 = (x**2 - 1) / (x - 1)
add(
    "d.eq_cancel",
    D,
    lambda: eq(c1, x + 1),
    "true",
    "x ≠ 1: (x−1)(x+1)/(x−1)",
    lambda: all_zero(lambda t: (t**2 - 1) / (t - 1) - (t + 1), GRID_NO1),
)
add(
    "d.va_cancel",
    D,
    lambda: va(E(c1, x + 1)),
    "true",
    "as d.eq_cancel",
    lambda: all_zero(lambda t: (t**2 - 1) / (t - 1) - (t + 1), GRID_NO1),
)
xinv = U(x, Pw(x, -1))
add(
    "d.eq_xinv",
    D,
    lambda: eq(xinv, 1),
    "true",
    "x·x⁻¹ = 1 for x ≠ 0",
    lambda: all_zero(lambda t: t / t - 1, GRID),
)
add(
    "d.va_xinv",
    D,
    lambda: va(E(xinv, 1)),
    "true",
    "as d.eq_xinv",
    lambda: all_zero(lambda t: t / t - 1, GRID),
)
add(
    "d.va_ne0",
    D,
    lambda: va(NE(1 / x, 0)),
    "true",
    "1/x ≠ 0 for x ≠ 0",
    lambda: holds(lambda t: 1 / t != 0, GRID),
)
add("d.va_eq0", D, lambda: va(E(1 / x, 0)), "false", "x = 1", lambda: 1 / mpmath.mpf(1) == 0)
add(
    "d.va_cancel2",
    D,
    lambda: va(E(x * y / y, x)),
    "true",
    "y ≠ 0",
    lambda: all_zero(lambda s, t: s * t / t - s, GRID2),
)
add(
    "d.eq_wrong",
    D,
    lambda: eq(c1, x - 1),
    "false",
    "x = 0: −1/−1 = 1 ≠ −1",
    lambda: all_zero(lambda t: (t**2 - 1) / (t - 1) - (t - 1), GRID_NO1),
)
add(
    "d.va_wrong",
    D,
    lambda: va(E(c1, x - 1)),
    "false",
    "as d.eq_wrong",
    lambda: all_zero(lambda t: (t**2 - 1) / (t - 1) - (t - 1), GRID_NO1),
)
add(
    "d.eq_sq",
    D,
    lambda: eq((x**2 - x) / (x - 1), x),
    "true",
    "x ≠ 1",
    lambda: all_zero(lambda t: (t**2 - t) / (t - 1) - t, GRID_NO1),
)
add(
    "d.va_sq",
    D,
    lambda: va(E((x**2 - x) / (x - 1), x)),
    "true",
    "x ≠ 1",
    lambda: all_zero(lambda t: (t**2 - t) / (t - 1) - t, GRID_NO1),
)
add(
    "d.va_pos_denom",
    D,
    lambda: va(1 / (x**2 + 1) > 0),
    "true",
    "never singular",
    lambda: holds(lambda t: 1 / (t**2 + 1) > 0, GRID),
)
add(
    "d.va_recip",
    D,
    lambda: va(sympy.Implies(x > 0, 1 / x > 0)),
    "true",
    "x > 0",
    lambda: holds(lambda t: 1 / t > 0, [("0.1",), (3,)]),
)
add("d.va_recip_false", D, lambda: va(1 / x > 0), "false", "x = −1", lambda: 1 / mpmath.mpf(-1) > 0)
add(
    "d.va_neg_pow",
    D,
    lambda: va(E(x**-2 * x**2, 1)),
    "true",
    "x ≠ 0",
    lambda: all_zero(lambda t: t**-2 * t**2 - 1, GRID),
)
add(
    "d.eq_two_den",
    D,
    lambda: eq(1 / x + 1 / y, (x + y) / (x * y)),
    "true",
    "x, y ≠ 0",
    lambda: all_zero(lambda s, t: 1 / s + 1 / t - (s + t) / (s * t), GRID2),
)
add(
    "d.va_two_den",
    D,
    lambda: va(E(1 / x + 1 / y, (x + y) / (x * y))),
    "true",
    "x, y ≠ 0",
    lambda: all_zero(lambda s, t: 1 / s + 1 / t - (s + t) / (s * t), GRID2),
)
add(
    "d.va_forall_den",
    D,
    lambda: va(ForAll((x,), NE(1 / x, 0))),
    "true",
    "bound x ≠ 0",
    lambda: holds(lambda t: 1 / t != 0, GRID),
)
add("d.eq_pos_den", D, lambda: eq(p / p, 1), "true", "p > 0", lambda: True)
add("d.nz_num", D, lambda: nz(1 / sympy.Integer(3)), "true", "1/3 ≠ 0", lambda: True)
add(
    "d.eq_div0",
    D,
    lambda: eq(U(sympy.Integer(1), Pw(sympy.Integer(0), -1)), 0),
    "refuse",
    "1/0 is undefined (an unknown verdict is fine)",
)

# Witnesses are points of the formula's variables: Indexed entries are functions of the base.
W = "witness"
add(
    "w.kronecker",
    W,
    lambda: eq(sympy.KroneckerDelta(i, j) * (X[i] - X[j]), 0),
    "true",
    "i = j makes X[i] = X[j]; i ≠ j makes δ = 0",
    lambda: all_zero(lambda s, t: (1 if s == t else 0) * (s * s - t * t), [(1, 1), (1, 2)]),
)
add(
    "w.kronecker2",
    W,
    lambda: eq(sympy.KroneckerDelta(i, j) * X[i], sympy.KroneckerDelta(i, j) * X[j]),
    "true",
    "as w.kronecker",
    lambda: True,
)
add("w.indexed_double", W, lambda: eq(2 * X[i], X[i] + X[i]), "true", "2t = t + t", lambda: True)
add(
    "w.indexed_false",
    W,
    lambda: eq(X[i] * X[j], X[i] ** 2),
    "false",
    "X = identity on ℤ, i = 1, j = 2",
    lambda: 1 * 2 == 1**2,
)
add(
    "w.indexed_diff",
    W,
    lambda: eq(X[i] - X[j], 0),
    "false",
    "X(1) = 0, X(2) = 1 at i=1, j=2",
    lambda: 0 - 1 == 0,
)
add("w.uf_same", W, lambda: eq(sigma(x) - sigma(x), 0), "true", "trivially", lambda: True)
add("w.uf_false", W, lambda: eq(sigma(x), sigma(y)), "false", "σ = id", lambda: 1 == 2)
add("w.uf_arg", W, lambda: eq(sigma(2 * x), 2 * sigma(x)), "false", "σ = 1", lambda: 1 == 2 * 1)
add(
    "w.int_points",
    W,
    lambda: eq(n * (n + 1) % 2, 0),
    "true",
    "n(n+1) is even",
    lambda: all((k * (k + 1)) % 2 == 0 for k in range(-6, 7)),
)
add(
    "w.even_point",
    W,
    lambda: eq(ev**2 % 4, 0),
    "true",
    "(2k)² = 4k²",
    lambda: all((2 * k) ** 2 % 4 == 0 for k in range(-6, 7)),
)
add(
    "w.pos_false",
    W,
    lambda: eq(sympy.sqrt(p**2), -p),
    "false",
    "√(p²) = p ≠ −p",
    lambda: mpmath.sqrt(mpmath.mpf(2) ** 2) == -2,
)
add(
    "w.neg_true",
    W,
    lambda: eq(sympy.sqrt(q**2), -q),
    "true",
    "q < 0: |q| = −q",
    lambda: holds(lambda t: abs(mpmath.sqrt(t**2) + t) < TINY, [(-3,), ("-0.2",)]),
)
add(
    "w.int_false",
    W,
    lambda: eq(sympy.floor(n / 2) * 2, n),
    "false",
    "n = 1: 0 ≠ 1",
    lambda: math.floor(1 / 2) * 2 == 1,
)
add(
    "w.int_true",
    W,
    lambda: eq(sympy.floor(n), n),
    "true",
    "n is an integer",
    lambda: all(math.floor(k) == k for k in range(-5, 6)),
)

# Bounds: every evaluation inside the limits; huge numbers give unknown; bad arguments an error.
B = "bounds"
add(
    "b.pow_eq",
    B,
    lambda: eq(Pw(3, 10**8), Pw(9, 5 * 10**7)),
    "true",
    "9^(5·10⁷) = 3^(10⁸)",
    lambda: mpmath.log(3) * 10**8 - mpmath.log(9) * 5 * 10**7 == 0,
)
add(
    "b.pow_ne",
    B,
    lambda: eq(Pw(3, 10**8), Pw(9, 5 * 10**7 + 1)),
    "false",
    "ratio 9",
    lambda: abs(mpmath.log(9)) < TINY,
)
add(
    "b.pow_zero",
    B,
    lambda: eq(Pw(2, 10**9), 0),
    "false",
    "a power of 2 is not 0",
    lambda: mpmath.mpf(2) ** 10**9 == 0,
)
add(
    "b.pow_pos",
    B,
    lambda: po(Pw(10, -(10**8))),
    "true",
    "10^(−10⁸) > 0",
    lambda: mpmath.mpf(10) ** (-(10**8)) > 0,
)
add(
    "b.pow_nz_diff",
    B,
    lambda: nz(Ad(Pw(2, 10**8), -Pw(2, 10**8))),
    "false",
    "exactly 0",
    lambda: False,
)
add(
    "b.big_int",
    B,
    lambda: eq(sympy.Integer(10) ** 400 + 1, sympy.Integer(10) ** 400),
    "false",
    "differ by 1",
    lambda: 10**400 + 1 == 10**400,
)
add("b.tower", B, lambda: po(Pw(2, Pw(2, Pw(2, Pw(2, 5))))), "true", "a power of 2", lambda: True)
add(
    "b.sym_pow",
    B,
    lambda: eq(Pw(x, 10**7) * Pw(x, 10**7), Pw(x, 2 * 10**7)),
    "true",
    "x^a x^a = x^(2a)",
    lambda: True,
)
add(
    "b.expand_huge",
    B,
    lambda: eq((x + 1) ** 3000, (x + 1) ** 3000 + 0 * x),
    "true",
    "the same",
    lambda: True,
)
add(
    "b.expand_huge_false",
    B,
    lambda: eq(Pw(x + 1, 400), Pw(x - 1, 400)),
    "false",
    "x = 1",
    lambda: 2**400 == 0**400,
)
add("b.true_false", B, lambda: eq(sympy.true, sympy.false), "refuse", "Booleans are not numbers")
add(
    "b.shapes",
    B,
    lambda: eq(sympy.Matrix([[1, 2]]), sympy.Matrix([[1], [2]])),
    "false",
    "a 1×2 and a 2×1 matrix are not equal (refusal is fine)",
    lambda: False,
)
add("b.matrix_scalar", B, lambda: eq(sympy.Matrix([[1]]), 1), "refuse", "a matrix is not a number")
add("b.matrix_nz", B, lambda: nz(sympy.eye(2)), "refuse", "≠ 0 of a matrix is not defined")
add("b.bool_nz", B, lambda: nz(sympy.true), "refuse", "a Boolean is not a number")
add("b.rel_pos", B, lambda: po(x > 1), "refuse", "a relation is not a number")
add("b.set", B, lambda: eq(sympy.Interval(0, 1), sympy.Interval(0, 1)), "refuse", "sets")
add("b.string", B, lambda: eq("x", 1), "refuse", "strings are never parsed")
add("b.none", B, lambda: eq(None, 1), "refuse", "None")
add("b.bool_py", B, lambda: eq(True, 1), "refuse", "a Python bool is not a number")
add("b.tuple", B, lambda: nz((1, 2)), "refuse", "a tuple")
add("b.complex", B, lambda: po(sympy.I), "refuse", "i has no sign (unknown is fine)")
add("b.oo", B, lambda: po(sympy.oo), "refuse", "∞ is not a real number")
add("b.zoo", B, lambda: eq(sympy.zoo, sympy.zoo), "refuse", "complex infinity")
add("b.nan", B, lambda: eq(sympy.nan, sympy.nan), "refuse", "NaN")
add(
    "b.matrix_ok",
    B,
    lambda: eq(sympy.Matrix([[x, 1]]) * 2, sympy.Matrix([[2 * x, 2]])),
    "true",
    "entrywise",
    lambda: True,
)
add(
    "b.matrix_false",
    B,
    lambda: eq(sympy.Matrix([[x, 1]]), sympy.Matrix([[x, 2]])),
    "false",
    "1 ≠ 2",
    lambda: 1 == 2,
)
add("b.valid_matrix", B, lambda: va(sympy.Matrix([[1]])), "refuse", "not a statement")
add("b.assume_empty", B, lambda: api.assume("  "), "refuse", "an assumption needs words")
add("b.assume_str", B, lambda: api.assume("x > 0", "x > 0"), "refuse", "strings are never parsed")

# User-defined SymPy classes are refused by name.
C = "user-class"
add("c.liar", C, lambda: eq(LiarOne(), 0), "refuse", "its meaning is its author's")
add("c.liar_nz", C, lambda: nz(LiarOne()), "refuse", "as c.liar")
add("c.always_pos", C, lambda: po(-1 - AlwaysPositive(x) ** 2), "refuse", "lies about its sign")
add("c.always_pos_closed", C, lambda: po(-1 - AlwaysPositive(1) ** 2), "refuse", "as above")
add(
    "c.always_pos_valid",
    C,
    lambda: va(sympy.StrictGreaterThan(AlwaysPositive(x), 0, evaluate=False)),
    "refuse",
    "as above",
)
add("c.shy", C, lambda: po(-ShySymbol("s")), "refuse", "a Symbol subclass")
add("c.shy_eq", C, lambda: eq(Ad(U(ShySymbol("s"), 0), 1), 1), "refuse", "a Symbol subclass")
add("c.zeroadd", C, lambda: eq(ZeroAdd(x, 1, evaluate=False), 0), "refuse", "an Add subclass")
add(
    "c.uf_ok",
    C,
    lambda: eq(sigma(x) * 2, sigma(x) + sigma(x)),
    "true",
    "uninterpreted functions are fine",
    lambda: True,
)
add(
    "c.plain_function",
    C,
    lambda: eq(sympy.Function("f")(x) * 0, 0),
    "true",
    "a SymPy undefined function is fine",
    lambda: True,
)
add(
    "c.liar_in_matrix",
    C,
    lambda: eq(sympy.Matrix([[LiarOne()]]), sympy.Matrix([[0]])),
    "refuse",
    "a user class inside a matrix",
)
add("c.liar_claim", C, lambda: _claim_of(lambda: eq(LiarOne(), 0)), "refuse", "inside @claim")

# Control: ordinary identities and numbers.
K = "control"
add(
    "k.pyth",
    K,
    lambda: eq(sympy.sin(x) ** 2 + sympy.cos(x) ** 2, 1),
    "true",
    "Pythagoras",
    lambda: all_zero(lambda t: mpmath.sin(t) ** 2 + mpmath.cos(t) ** 2 - 1, GRID),
)
add(
    "k.binom_false",
    K,
    lambda: eq((a + b) ** 2, a**2 + b**2),
    "false",
    "2ab ≠ 0 at a = b = 1",
    lambda: all_zero(lambda s, t: (s + t) ** 2 - s**2 - t**2, GRID2),
)
add(
    "k.binom",
    K,
    lambda: eq((a + b) ** 2, a**2 + 2 * a * b + b**2),
    "true",
    "expand",
    lambda: all_zero(lambda s, t: (s + t) ** 2 - s**2 - 2 * s * t - t**2, GRID2),
)
add(
    "k.exp_log",
    K,
    lambda: eq(sympy.exp(sympy.log(p)), p),
    "true",
    "p > 0",
    lambda: all_zero(lambda t: mpmath.exp(mpmath.log(t)) - t, [(1,), (3,), ("0.2",)]),
)
add(
    "k.sqrt_sq",
    K,
    lambda: eq(sympy.sqrt(x**2), x),
    "false",
    "x = −1",
    lambda: all_zero(lambda t: mpmath.sqrt(t**2) - t, GRID),
)
add(
    "k.sqrt_abs",
    K,
    lambda: eq(sympy.sqrt(x**2), sympy.Abs(x)),
    "true",
    "|x|",
    lambda: all_zero(lambda t: mpmath.sqrt(t**2) - abs(t), GRID),
)
add(
    "k.maxmin",
    K,
    lambda: eq(sympy.Max(x, y) + sympy.Min(x, y), x + y),
    "true",
    "one each",
    lambda: all_zero(lambda s, t: max(s, t) + min(s, t) - s - t, GRID2),
)
add(
    "k.atan",
    K,
    lambda: eq(sympy.atan(p) + sympy.atan(1 / p), sympy.pi / 2),
    "true",
    "p > 0",
    lambda: all_zero(
        lambda t: mpmath.atan(t) + mpmath.atan(1 / t) - mpmath.pi / 2, [("0.3",), (2,)]
    ),
)
add(
    "k.atan_false",
    K,
    lambda: eq(sympy.atan(x) + sympy.atan(1 / x), sympy.pi / 2),
    "false",
    "x = −1: −π/2",
    lambda: all_zero(lambda t: mpmath.atan(t) + mpmath.atan(1 / t) - mpmath.pi / 2, [(-1,)]),
)
add(
    "k.sqrt6",
    K,
    lambda: eq(sympy.sqrt(2) * sympy.sqrt(3), sympy.sqrt(6)),
    "true",
    "√2√3 = √6",
    lambda: all_zero(lambda: mpmath.sqrt(2) * mpmath.sqrt(3) - mpmath.sqrt(6), [()]),
)
add(
    "k.ramanujan",
    K,
    lambda: eq(sympy.exp(sympy.pi * sympy.sqrt(163)), 640320**3 + 744),
    "false",
    "differs by 7.5e-13",
    lambda: all_zero(lambda: mpmath.exp(mpmath.pi * mpmath.sqrt(163)) - 640320**3 - 744, [()]),
)
add(
    "k.ramanujan_sign",
    K,
    lambda: po(sympy.exp(sympy.pi * sympy.sqrt(163)) - 640320**3 - 744),
    "false",
    "it is below",
    lambda: mpmath.exp(mpmath.pi * mpmath.sqrt(163)) - 640320**3 - 744 > 0,
)
add(
    "k.pi_355",
    K,
    lambda: po(sympy.pi - R(355, 113)),
    "false",
    "π < 355/113",
    lambda: mpmath.pi > mpmath.mpf(355) / 113,
)
add(
    "k.355_pi",
    K,
    lambda: po(R(355, 113) - sympy.pi),
    "true",
    "π < 355/113",
    lambda: mpmath.mpf(355) / 113 > mpmath.pi,
)
add(
    "k.sin_pi",
    K,
    lambda: nz(sympy.sin(sympy.pi)),
    "false",
    "sin π = 0",
    lambda: abs(mpmath.sin(mpmath.pi)) > TINY,
)
add(
    "k.sin_pi6",
    K,
    lambda: nz(Ad(sympy.sin(sympy.pi / 6), -R(1, 2))),
    "false",
    "sin π/6 = 1/2",
    lambda: abs(mpmath.sin(mpmath.pi / 6) - 0.5) > TINY,
)
add(
    "k.pos_sq1", K, lambda: po(x**2 + 1), "true", "≥ 1", lambda: holds(lambda t: t**2 + 1 > 0, GRID)
)
add(
    "k.pos_sq",
    K,
    lambda: po(x**2),
    "false",
    "x = 0 (unknown is fine)",
    lambda: holds(lambda t: t**2 > 0, [(0,)]),
)
add(
    "k.nz_exp",
    K,
    lambda: nz(sympy.exp(x)),
    "true",
    "exp > 0",
    lambda: holds(lambda t: mpmath.exp(t) != 0, GRID),
)
add("k.pos_p", K, lambda: po(p), "true", "declared", lambda: True)
add("k.pos_negp", K, lambda: po(-p), "false", "−p < 0 (unknown is fine)", lambda: False)
add("k.pos_sigma", K, lambda: po(sigma(x)), "false", "σ = −1 (unknown is fine)", lambda: False)
add("k.pos_sigma_sq", K, lambda: po(sigma(x) ** 2 + 1), "true", "≥ 1", lambda: True)
add(
    "k.tanh",
    K,
    lambda: eq(sympy.tanh(x), (sympy.exp(2 * x) - 1) / (sympy.exp(2 * x) + 1)),
    "true",
    "definition",
    lambda: all_zero(
        lambda t: mpmath.tanh(t) - (mpmath.exp(2 * t) - 1) / (mpmath.exp(2 * t) + 1), GRID
    ),
)
add(
    "k.near_miss",
    K,
    lambda: eq(x + Pw(10, -60), x),
    "false",
    "10⁻⁶⁰ ≠ 0",
    lambda: mpmath.mpf(10) ** -60 == 0,
)
add(
    "k.valid_poly",
    K,
    lambda: va(sympy.Implies(x > 0, x**3 > 0)),
    "true",
    "odd power",
    lambda: holds(lambda t: t**3 > 0, [("0.1",), (2,)]),
)
add("k.valid_poly_false", K, lambda: va(x**2 > 0), "false", "x = 0", lambda: mpmath.mpf(0) ** 2 > 0)
add(
    "k.valid_exists",
    K,
    lambda: va(Exists((x,), E(x**2, 2))),
    "true",
    "√2",
    lambda: abs(mpmath.sqrt(2) ** 2 - 2) < TINY,
)
add(
    "k.valid_forall",
    K,
    lambda: va(ForAll((x,), x**2 >= 0)),
    "true",
    "a square",
    lambda: holds(lambda t: t**2 >= 0, GRID),
)
add(
    "k.antisym",
    K,
    lambda: eq(
        (sigma(a) * b - sigma(b) * a).subs({a: b, b: a}, simultaneous=True),
        -(sigma(a) * b - sigma(b) * a),
    ),
    "true",
    "the README example",
    lambda: True,
)


# @claim: the statement is the formula; the docstring is prose.
CL = "claim"


def _claim_of(step_fn, statement=None, doc="A claim."):
    def body():
        yield step_fn()

    body.__doc__ = doc
    kw = {} if statement is None else {"statement": statement}
    return api.claim("corpus.claim", **kw)(body)()


add(
    "cl.proved",
    CL,
    lambda: _claim_of(lambda: eq((x + 1) ** 2, x**2 + 2 * x + 1)),
    "true",
    "expand",
    lambda: all_zero(lambda t: (t + 1) ** 2 - t**2 - 2 * t - 1, GRID),
)
add(
    "cl.refuted",
    CL,
    lambda: _claim_of(lambda: eq((x + 1) ** 2, x**2 + 1)),
    "false",
    "x = 1",
    lambda: all_zero(lambda t: (t + 1) ** 2 - t**2 - 1, GRID),
)
add(
    "cl.float_doc",
    CL,
    lambda: _claim_of(lambda: eq(0.1 + 0.2, 0.3), doc="0.1 + 0.2 = 0.3"),
    "false",
    "as f.sum",
    lambda: exact(0.1 + 0.2) == exact(0.3),
)
add(
    "cl.statement",
    CL,
    lambda: _claim_of(
        lambda: eq((x + 1) ** 2, x**2 + 2 * x + 1), statement=E((x + 1) ** 2, x**2 + 2 * x + 1)
    ),
    "true",
    "the statement is the step's formula",
    lambda: True,
)
add(
    "cl.statement_float",
    CL,
    lambda: _claim_of(lambda: eq(0.5 * x, x / 2), statement=E(0.5 * x, x / 2, evaluate=False)),
    "true",
    "0.5 is exact",
    lambda: exact(0.5) * 2 == 1,
)
add(
    "cl.statement_bad",
    CL,
    lambda: _claim_of(lambda: eq(x, x + 0 * x), statement="x = x"),
    "refuse",
    "a statement is a formula, never text",
)
add(
    "cl.statement_liar",
    CL,
    lambda: _claim_of(lambda: eq(x + 1, 1 + x), statement=E(LiarOne(), 0, evaluate=False)),
    "refuse",
    "a user class in the statement",
)
add("cl.yield_junk", CL, lambda: _claim_of(lambda: 42), "refuse", "a claim yields steps")
add("cl.valid", CL, lambda: _claim_of(lambda: va(E(xinv, 1))), "true", "as d.va_xinv", lambda: True)
add(
    "cl.valid_int",
    CL,
    lambda: _claim_of(lambda: va(n**2 >= n)),
    "true",
    "as z.int_sq",
    lambda: True,
)


# --- red-team round (session 11): each a class of defect found and fixed --------------------------

# Heaviside at 0 is SymPy's H0 (1/2 unless given), never 0.
add(
    "k.heaviside_half",
    K,
    lambda: eq(sympy.Heaviside(0, evaluate=False), 0),
    "false",
    "SymPy defines Heaviside(0) = 1/2",
    lambda: sympy.Heaviside(0) == 0,
)
add(
    "k.heaviside_h0",
    K,
    lambda: eq(sympy.Heaviside(0, 1, evaluate=False), 0),
    "false",
    "Heaviside(0, H0) = H0 = 1",
    lambda: sympy.Heaviside(0, 1) == 0,
)
add(
    "k.heaviside_sum",
    K,
    lambda: eq(sympy.Heaviside(x) + sympy.Heaviside(-x), 1),
    "true",
    "1 + 0, 0 + 1, and 1/2 + 1/2 at 0",
    lambda: all(sympy.Heaviside(t) + sympy.Heaviside(-t) == 1 for t in (-2, 0, R(1, 3))),
)
add(
    "k.heaviside_given",
    K,
    lambda: eq(sympy.Heaviside(x, 1), 1 - sympy.Heaviside(-x, 0)),
    "true",
    "at 0: 1 = 1 − 0; elsewhere both are the step",
    lambda: all(sympy.Heaviside(t, 1) == 1 - sympy.Heaviside(-t, 0) for t in (-2, 0, R(1, 3))),
)
# A division in free symbols only is claimed at the top, even inside a quantifier.
add(
    "d.exists_free_den",
    D,
    lambda: va(Exists((y,), E(y * x, 1 / x))),
    "true",
    "for x ≠ 0, y = 1/x² gives y·x = 1/x",
    lambda: all_zero(lambda t: (1 / t**2) * t - 1 / t, GRID),
)
add(
    "d.not_forall_free_den",
    D,
    lambda: va(sympy.Not(ForAll((y,), NE(y, 1 / x)))),
    "true",
    "for x ≠ 0, y = 1/x is the exception",
    lambda: True,
)
add(
    "d.forall_bound_den",
    D,
    lambda: va(ForAll((y,), E(y * (1 / y), 1))),
    "true",
    "y·(1/y) = 1 wherever y ≠ 0 (the guard binds y)",
    lambda: all_zero(lambda t: t * (1 / t) - 1, GRID),
)
add(
    "d.forall_nowhere",
    D,
    lambda: va(ForAll((y,), E(1 / ((y + 1) ** 2 - y**2 - 2 * y - 1), 1))),
    "refuse",
    "the denominator is 0 for every y: the formula is defined nowhere",
)
# An uninterpreted function that is not declared real (or plain) is not ℝ → ℝ.
add(
    "z.fn_not_real",
    Z,
    lambda: va(Exists((y,), E(sympy.Function("f", real=False)(x), y, evaluate=False))),
    "refuse",
    "f(x) is declared non-real: no real y equals it (Z3 would take f as ℝ → ℝ)",
)
add(
    "z.fn_extended_real",
    Z,
    lambda: va(Exists((y,), E(sympy.Function("f", extended_real=True)(x), y, evaluate=False))),
    "refuse",
    "f(x) may be ±∞: ℝ → ℝ is not what was declared",
)
add(
    "z.fn_zero_false",
    Z,
    lambda: va(NE(sympy.Function("f", zero=False)(x), 0, evaluate=False)),
    "refuse",
    "true by declaration; Z3 would refute it with f ≡ 0",
)
# A matrix identity is claimed where every entry's denominators are nonzero.
add(
    "w.matrix_undefined",
    W,
    lambda: eq(
        sympy.Matrix([[1 / (5 * x - 7) + sympy.Piecewise((1, E(x, R(7, 5))), (0, True))]]),
        sympy.Matrix([[1 / (5 * x - 7)]]),
    ),
    "true",
    "the bump sits at x = 7/5, exactly where 1/(5x − 7) is undefined",
    lambda: True,
)
add(
    "b.domain_arity",
    B,
    lambda: va(
        ForAll((x, y), x + y > 0, sympy.Tuple(sympy.Interval(0, 1), *[sympy.Interval(0, 1)] * 2))
    ),
    "refuse",
    "three sets for two variables",
)
