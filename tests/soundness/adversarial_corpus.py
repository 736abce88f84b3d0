"""The adversarial activation corpus of issue 11: user text for
``python -m proofs.exchange --activation TEXT`` whose truth was established independently of the
toolkit (by hand, and by mpmath at 700 digits: ``python benchmarks/adversarial_campaign.py
--verify-truth`` re-checks every entry with an evaluator of its own that shares no code with the
toolkit's parser or analysis).

Data only. Each :class:`Entry` gives

* ``text``: exactly what a user types after ``--activation``;
* ``linear``: σ(z) = σ(1)·z for every real z (True/False), or None: invalid input (undefined or
  not real somewhere, or not in the grammar), which must be rejected with exit 2;
* ``degree``: the positive-homogeneity degree p as an exact SymPy-syntax string ("1", "3/2",
  "0" for a nonzero constant, "pi", "tanh(345)"), "any" for σ ≡ 0 (homogeneous of every
  degree), None when σ is homogeneous of no degree (or the input is invalid);
* ``inverse_scaling``: Gated keeps Q → αQ, K → K/α, i.e. p = 1 exactly or σ ≡ 0 (None: invalid);
* ``why``: one line, how the truth was established (identities are argued algebraically; a
  refutation names the points where the 700-digit difference is nonzero);
* ``family``: the class of trap;
* ``points``: extra real points (mpmath expressions: atanh, asinh, acosh, erfinv, polyroot(...)
  are available) where a refutation shows, e.g. the centre of a 1e-9-wide bump; the verifier
  also evaluates every entry at a fixed grid of points of both signs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    text: str
    linear: bool | None
    degree: str | None
    inverse_scaling: bool | None
    why: str
    family: str
    points: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return self.linear is not None


def _lin(text, why, family, points=()):
    """σ(z) = c·z with c ≠ 0: linear, degree 1."""
    return Entry(text, True, "1", True, why, family, tuple(points))


def _hom(text, p, why, family, points=()):
    """Not linear, positively homogeneous of degree p (p = 1 exactly keeps inverse scaling)."""
    return Entry(text, False, p, p == "1", why, family, tuple(points))


def _none(text, why, family, points=()):
    """Not linear, homogeneous of no degree."""
    return Entry(text, False, None, False, why, family, tuple(points))


def _const(text, why, family, points=()):
    """A nonzero constant: not linear, degree 0."""
    return Entry(text, False, "0", False, why, family, tuple(points))


def _zero(text, why, family, points=()):
    """σ ≡ 0: linear, homogeneous of every degree, keeps inverse scaling."""
    return Entry(text, True, "any", True, why, family, tuple(points))


def _bad(text, why, family, points=()):
    """Invalid input: must be rejected (exit 2)."""
    return Entry(text, None, None, None, why, family, tuple(points))


ISSUE = "issue-example"
DISGUISED = "disguised-linear"
TINY = "tiny-perturbation"
NUDGED = "nudged-constant"
DEGREE = "noninteger-degree"
CONST = "degree0-constant"
ZERO = "zero-function"
ODD = "odd-even"
PIECE = "piecewise-maxmin"
HUGE = "huge-small-magnitude"
INVALID = "invalid-domain"
SYNTAX = "hostile-syntax"
FORM = "valid-beyond-form"
TABLE = "table-baseline"

# Reused refutation arguments.
_P1 = "σ(1)=1, σ(2)=2 force p=1"
_A = "A = log(1 + e^−100) − log(1 + e^−99) ≈ −6.4e−44 < 0, a constant SymPy calls 0 by a float"
_ORIGIN = "σ(0) ≠ 0 and σ is not constant, so no degree (p>0 needs σ(0)=0, p=0 needs constant)"

CORPUS: tuple[Entry, ...] = (
    # -- the issue's own examples, verbatim ------------------------------------------------------
    _const(
        "max(1, sigmoid(400) - 3*abs(x-1))",
        "sigmoid(400) < 1 so the 2nd argument is < 1: σ ≡ 1",
        ISSUE,
    ),
    _none(
        "elu(elu(x))",
        "elu(x)>0 iff x>0: σ(x)=x (x>0), exp(e^x-1)-1 (x≤0); σ(-1)=-0.4685.. ≠ -1 so not "
        "linear; " + _P1 + ", σ(-2)=-0.5788.. ≠ 2σ(-1)=-0.9370..",
        ISSUE,
    ),
    _none(
        "x + relu(1e-9 - abs(tanh(x) - 0.5))",
        "bump of height 1e-9 at z0=atanh(1/2): σ(z0)=z0+1e-9; " + _P1 + ", fails at z0",
        ISSUE,
        ("atanh(0.5)",),
    ),
    _none(
        "x + relu(x-1e12)*exp(exp(x))",
        "σ(z)=z for z≤1e12 and σ(z)>z beyond (positive product): " + _P1 + ", fails at 2e12 "
        "(algebra: the point overflows any evaluator)",
        ISSUE,
    ),
    _none(
        "x + relu(1e-9 - abs(x**5 - x - 1))",
        "bump at the real root r=1.1673.. of x^5-x-1: σ(r)=r+1e-9; " + _P1 + ", fails at r",
        ISSUE,
        ("polyroot(1,0,0,0,-1,-1,1.1673)",),
    ),
    _none(
        "relu(x) + relu(1e-9 - abs(x - 1 + tanh(200)))",
        "1-tanh(200)≈2e-174 lies inside the 1e-9 bump, so σ(0)=1e-9-(1-tanh 200)>0; " + _ORIGIN,
        ISSUE,
    ),
    _none(
        "2**2**2**2**2**x",
        "right-associative: σ(0)=2^2^2^2^1=65536 ≠ 0 and σ is strictly increasing; " + _ORIGIN,
        ISSUE,
    ),
    _hom(
        "abs(x)**1.0000001",
        "10000001/10000000",
        "|αz|^p = α^p|z|^p; p=1.0000001 ≠ 1; |x|^p ≠ c·x at x=-1",
        ISSUE,
    ),
    _hom(
        "abs(x)**(1 + 1/10000)",
        "10001/10000",
        "|αz|^p = α^p|z|^p with p = 10001/10000 ≠ 1; not linear at x=-1",
        ISSUE,
    ),
    _none(
        "x + relu(x - tanh(200))*relu(1 - x)",
        "extra term >0 exactly on (tanh 200, 1), width 2e-174: σ(m)>m at its midpoint m; "
        "σ(1)=1, σ(2)=2 force p=1, fails at m",
        ISSUE,
        ("(1 + tanh(200))/2",),
    ),
    _lin("log(cosh(x) + sinh(x))", "cosh x + sinh x = e^x > 0, so σ = log(e^x) = x", ISSUE),
    _lin("x*(cosh(x)**2 - sinh(x)**2)", "cosh²−sinh² = 1, so σ = x", ISSUE),
    _hom(
        "relu(x)**tanh(345)",
        "tanh(345)",
        "relu(αz)^p = α^p relu(z)^p; p = tanh(345) = 1 − 2e-300 < 1 (differences ~1e-300 at "
        "700 digits); σ(-1)=0 ≠ -1",
        ISSUE,
    ),
    _hom(
        "abs(x)**erf(26)",
        "erf(26)",
        "p = erf(26) = 1 − erfc(26), erfc(26) ≈ 5e-296 > 0, so p < 1; |x|^p not linear at -1",
        ISSUE,
    ),
    _bad(
        "x # comment", "'#' is not in the grammar (a comment; the parser must not drop it)", ISSUE
    ),
    _lin("-x/3", "σ = −z/3", ISSUE),
    # -- disguised linear functions ------------------------------------------------------------
    _lin("max(x, 0) + min(x, 0)", "max(a,b)+min(a,b) = a+b = x", DISGUISED),
    _lin("relu(x) - relu(-x)", "max(x,0) − max(−x,0) = x for both signs", DISGUISED),
    _lin("abs(x) - 2*relu(-x)", "x≥0: x; x<0: −x+2x = x", DISGUISED),
    _lin("log(exp(x))", "log e^x = x for real x", DISGUISED),
    _lin("log(exp(3*x))", "= 3x", DISGUISED),
    _lin("exp(log(1 + x**2)) - 1 - x**2 + x", "exp(log(1+x²)) = 1+x² (>0), so σ = x", DISGUISED),
    _lin("sinh(x) + cosh(x) - exp(x) + x", "sinh+cosh = e^x, so σ = x", DISGUISED),
    _lin("(exp(x) - exp(-x))/2 - sinh(x) + 2*x", "(e^x−e^−x)/2 = sinh x, so σ = 2x", DISGUISED),
    _lin("sigmoid(x) + sigmoid(-x) - 1 + x", "sigmoid(x)+sigmoid(−x) = 1, so σ = x", DISGUISED),
    _lin("softplus(x) - softplus(-x)", "log(1+e^x) − log(1+e^−x) = log e^x = x", DISGUISED),
    _lin("silu(x) - silu(-x)", "x·s(x) + x·s(−x) = x (s(x)+s(−x)=1)", DISGUISED),
    _lin("gelu(x) - gelu(-x)", "x/2(1+erf) + x/2(1−erf) = x (erf odd)", DISGUISED),
    _lin("x*sigmoid(x) + x*sigmoid(-x)", "x(s(x)+s(−x)) = x", DISGUISED),
    _lin("max(x, 2*x) + min(x, 2*x)", "max+min = sum = 3x", DISGUISED),
    _lin("(abs(x) + x)/2 - relu(x) + x", "(|x|+x)/2 = relu(x), so σ = x", DISGUISED),
    _lin(
        "hardtanh(x) - max(-1, min(1, x)) + x", "hardtanh is max(−1,min(1,x)), so σ = x", DISGUISED
    ),
    _lin(
        "leaky_relu(x) - 0.01*x - 0.99*relu(x) + x",
        "x≥0: x−.01x−.99x+x = x; x<0: .01x−.01x−0+x = x",
        DISGUISED,
    ),
    _lin("leaky_relu(x) - leaky_relu(-x)", "x≥0: x+.01x; x<0: .01x+x: σ = 1.01x", DISGUISED),
    _lin("relu6(x) - min(relu(x), 6) + x", "relu6 = min(relu,6), so σ = x", DISGUISED),
    _lin("sqrt(x**2) - abs(x) + x", "sqrt(x²) = |x|, so σ = x", DISGUISED),
    _lin("x*(tanh(x)**2 + 1/cosh(x)**2)", "tanh² + sech² = 1, so σ = x", DISGUISED),
    _lin("x*sigmoid(x)*(1 + exp(-x))", "sigmoid(x)(1+e^−x) = 1, so σ = x", DISGUISED),
    _lin("x*(cosh(x) - sinh(x))*exp(x)", "cosh − sinh = e^−x, so σ = x", DISGUISED),
    _lin("log(exp(x)*exp(x))/2", "log e^{2x} / 2 = x", DISGUISED),
    _lin("min(x, x + abs(x))", "x + |x| ≥ x, so σ = x", DISGUISED),
    _lin("max(x, x - abs(x))", "x − |x| ≤ x, so σ = x", DISGUISED),
    _lin("max(min(x, 1e6), x)", "min(x,1e6) ≤ x, so σ = x", DISGUISED),
    _lin("min(max(x, -1e6), x)", "max(x,−1e6) ≥ x, so σ = x", DISGUISED),
    _lin("max(x, min(x, 0))", "min(x,0) ≤ x, so σ = x", DISGUISED),
    _lin("x + tanh(x) + tanh(-x)", "tanh odd, so σ = x", DISGUISED),
    _lin("x*exp(abs(x) - max(x, -x))", "|x| = max(x,−x), so σ = x·e^0 = x", DISGUISED),
    _lin("x*2**(relu(x) - max(x, 0))", "relu = max(x,0), so σ = x", DISGUISED),
    _lin("x*(1 + relu(-abs(x)))", "−|x| ≤ 0 so relu(−|x|) = 0: σ = x", DISGUISED),
    _lin("x + relu(-abs(x) - 1e-9)", "−|x|−1e-9 < 0, so σ = x", DISGUISED),
    _lin("x + relu(sigmoid(x) - 1)", "sigmoid < 1 strictly, so σ = x", DISGUISED),
    _lin("x + relu(tanh(x) - 1)", "tanh < 1, so σ = x", DISGUISED),
    _lin("x + relu(erf(x) - 1)", "erf < 1, so σ = x", DISGUISED),
    _lin("x + relu(abs(tanh(x)) - 1)", "|tanh| < 1, so σ = x", DISGUISED),
    _lin("x + min(0, cosh(x) - 1)", "cosh ≥ 1, so σ = x", DISGUISED),
    _lin("x + min(0, exp(x))", "e^x > 0, so σ = x", DISGUISED),
    _lin("x + relu(1 - cosh(x))", "1 − cosh ≤ 0, so σ = x", DISGUISED),
    _lin("x + relu(sinh(x)**2 - cosh(x)**2 + 1)", "sinh²−cosh²+1 = 0, so σ = x", DISGUISED),
    _lin("x + relu(-softplus(x))", "softplus > 0, so σ = x", DISGUISED),
    _lin(
        "x + relu(softplus(x) - softplus(x + 1))",
        "softplus increasing, so the relu is 0",
        DISGUISED,
    ),
    _lin("x + relu(x - abs(x))", "x ≤ |x|, so σ = x", DISGUISED),
    _lin("max(x, min(x, 1e-9))", "min(x,1e-9) ≤ x, so σ = x", DISGUISED),
    _lin("min(x, max(x, 1e-9))", "max(x,1e-9) ≥ x, so σ = x", DISGUISED),
    _lin("max(x, min(x, -x))", "min(x,−x) = −|x| ≤ x, so σ = x", DISGUISED),
    # -- tiny perturbations --------------------------------------------------------------------
    _none(
        "x + 1e-30*x**2",
        "σ(2)/σ(1) = 2(1+2e-30)/(1+1e-30) forces p = 1+1.4e-30, but σ(−2)/σ(−1) < 2",
        TINY,
    ),
    _none("x + 1e-30*x**3", "σ(2z)/σ(z) = 2(1+4e-30z²)/(1+1e-30z²) depends on z", TINY),
    _hom(
        "x + 1e-100*abs(x)",
        "1",
        "both terms are degree 1; σ(−1) = −1+1e-100 ≠ −σ(1) = −1−1e-100, so not linear",
        TINY,
    ),
    _hom("x + 1e-30*relu(x)", "1", "sum of degree-1 terms; σ(−1) = −1 ≠ −(1+1e-30)", TINY),
    _none(
        "x*(1 + 1e-12*sigmoid(x))",
        "σ(2z)/σ(z) = 2(1+1e-12 s(2z))/(1+1e-12 s(z)) varies with z",
        TINY,
    ),
    _none("x + 1e-20*tanh(x)", "σ(2)/σ(1) ≠ σ(4)/σ(2) at 700 digits (tanh not linear)", TINY),
    _none(
        "x + 1e-9*relu(1e-9 - abs(x - pi))",
        "bump of height 1e-18 at π: σ(π) = π+1e-18; " + _P1,
        TINY,
        ("pi",),
    ),
    _none("x + relu(1e-9 - abs(x - e))", "bump at e: σ(e) = e+1e-9; " + _P1, TINY, ("E",)),
    _none("x + relu(1e-9 - abs(x - sqrt(2)))", "bump at √2; " + _P1, TINY, ("sqrt(2)",)),
    _none("x + relu(1e-9 - abs(exp(x) - 3))", "bump at log 3; " + _P1, TINY, ("log(3)",)),
    _none("x + relu(1e-9 - abs(x**2 - 2))", "bumps at ±√2; " + _P1, TINY, ("sqrt(2)",)),
    _none("x + relu(1e-9 - abs(sinh(x) - 1))", "bump at asinh 1; " + _P1, TINY, ("asinh(1)",)),
    _none(
        "x + relu(1e-9 - abs(erf(x) - 0.5))", "bump at erfinv(1/2); " + _P1, TINY, ("erfinv(0.5)",)
    ),
    _none(
        "x + relu(1e-9 - abs(x**3 - x - 1))",
        "bump at the plastic number 1.3247..; " + _P1,
        TINY,
        ("polyroot(1,0,-1,-1,1.3247)",),
    ),
    _none("x + relu(1e-9 - abs(cosh(x) - 2))", "bumps at ±acosh 2; " + _P1, TINY, ("acosh(2)",)),
    _none("x + relu(1e-9 - abs(sigmoid(x) - 0.9))", "bump at log 9; " + _P1, TINY, ("log(9)",)),
    _none("x + relu(1e-9 - abs(x - 1e6*pi))", "bump at 1e6·π; " + _P1, TINY, ("1e6*pi",)),
    _none(
        "x + relu(1e-9 - abs(tanh(x) - 0.999))",
        "bump at atanh(0.999); " + _P1,
        TINY,
        ("atanh(0.999)",),
    ),
    _none("x + relu(1e-9 - abs(x - log(2)))", "bump at log 2; " + _P1, TINY, ("log(2)",)),
    _none(
        "relu(x) + relu(1e-9 - abs(x - pi))", "bump at π; σ(1)=1, σ(2)=2 force p=1", TINY, ("pi",)
    ),
    _none(
        "abs(x) + relu(1e-9 - abs(abs(x) - e))",
        "bumps at ±e; σ(1)=1, σ(2)=2 force p=1",
        TINY,
        ("E",),
    ),
    _none("x + relu(1e-9 - abs(x + 1e6*e))", "bump at −1e6·e; " + _P1, TINY, ("-1e6*E",)),
    _none("x + relu(1e-15 - abs(x - pi))", "bump of width 1e-15 at π; " + _P1, TINY, ("pi",)),
    _none(
        "x + 1e-9*relu(1e-9 - abs(x - 1/3))", "bump at 1/3 of height 1e-18; " + _P1, TINY, ("1/3",)
    ),
    _none(
        "x + relu(x - 1e6)",
        "σ = x up to 1e6, 2x−1e6 beyond; " + _P1 + ", σ(2e6)=3e6",
        TINY,
        ("2e6",),
    ),
    _none("x + 1e-12*relu(x - 1e6)", "kink at 1e6; " + _P1 + ", σ(2e6) ≠ 2e6", TINY, ("2e6",)),
    _none("max(x, 2*x - 1e6)", "x up to 1e6, 2x−1e6 beyond; " + _P1, TINY, ("2e6",)),
    _none("min(x, 1e6)", "saturates at 1e6: σ(2e6) = 1e6 ≠ 2e6; " + _P1, TINY, ("2e6",)),
    _none("relu(x) + relu(x - 1e6)", "σ(1)=1, σ(2)=2 force p=1; σ(2e6)=3e6", TINY, ("2e6",)),
    _none("x + 1e-12*relu(x + 1e6)", "σ(0) = 1e-6 ≠ 0, not constant", TINY),
    _none(
        "x + relu(abs(x) - 1e12)", "kinks at ±1e12; " + _P1 + ", σ(2e12) = 3e12", TINY, ("2e12",)
    ),
    _none("x + 1e-30", "σ(0) = 1e-30 ≠ 0, not constant", TINY),
    _none("x - 1e-100", "σ(0) = −1e-100 ≠ 0, not constant", TINY),
    _lin("x*(1 + 1e-30)", "σ = (1+1e-30)·x", TINY),
    _lin("x + 1e-30*x", "σ = (1+1e-30)·x", TINY),
    _hom("(1 + 1e-30)*relu(x)", "1", "c·relu; σ(−1) = 0 ≠ −σ(1)", TINY),
    _hom("relu(x) + 1e-30*relu(-x)", "1", "degree-1 terms; σ(−1) = 1e-30 ≠ −1", TINY),
    _none("x + 1e-30*abs(x)**1.5", "degrees 1 and 3/2 mixed: σ(2)/σ(1) ≠ σ(4)/σ(2)", TINY),
    _none("abs(x) + 1e-30*x**2", "degrees 1 and 2 mixed", TINY),
    _none("relu(x)**2 + 1e-30*relu(x)", "degrees 2 and 1 mixed", TINY),
    _none("x + 1e-30*exp(x)", "σ(0) = 1e-30 ≠ 0, not constant", TINY),
    _none("x + 1e-30*sigmoid(x)", "σ(0) = 5e-31 ≠ 0, not constant", TINY),
    _none(
        "x + 1e-30*relu(1 - abs(x - 1e6))", "bump of height 1e-30 at 1e6; " + _P1, TINY, ("1e6",)
    ),
    # -- constants nudged ----------------------------------------------------------------------
    _hom("relu(x)**1.0000001", "10000001/10000000", "relu(αz)^p = α^p relu(z)^p, p ≠ 1", NUDGED),
    _hom(
        "abs(x)**(1 - 1e-12)",
        "999999999999/1000000000000",
        "p = 1 − 1e-12 ≠ 1; α^p ≠ α at α=2 by 1.4e-12",
        NUDGED,
    ),
    _hom("abs(x)**0.9999999", "9999999/10000000", "p = 0.9999999", NUDGED),
    _hom("relu(x)**(1 + 1/10000)", "10001/10000", "p = 1.0001", NUDGED),
    _hom("relu(x)**0.9999", "9999/10000", "p = 0.9999", NUDGED),
    _lin("1.0000001*x", "σ = c·x", NUDGED),
    _lin("x*1.000000000001", "σ = c·x", NUDGED),
    _hom("max(x, 0.9999999*x)", "1", "x (x≥0), 0.9999999x (x<0): degree 1; σ(−1) ≠ −1", NUDGED),
    _hom("max(x, 1.0000001*x)", "1", "1.0000001x (x≥0), x (x<0): degree 1, not linear", NUDGED),
    _hom("max(x, x*(1 - 1e-12))", "1", "slope 1−1e-12 on x<0: degree 1, not linear", NUDGED),
    _hom("max(x, x*(1 + 1e-30))", "1", "slope 1+1e-30 on x>0: degree 1, not linear", NUDGED),
    _hom("abs(x)**tanh(20)", "tanh(20)", "p = tanh 20 = 1 − 8.5e-18", NUDGED),
    _hom("relu(x)**erf(5)", "erf(5)", "p = erf 5 = 1 − 1.5e-12", NUDGED),
    _hom("abs(x)**sigmoid(40)", "1/(1 + exp(-40))", "p = sigmoid(40) = 1 − 4.2e-18", NUDGED),
    _hom(
        "x*abs(x)**(1e-12)",
        "1000000000001/1000000000000",
        "z|z|^q has degree 1+q, q = 1e-12",
        NUDGED,
    ),
    _hom("x*abs(x)**(1/10000)", "10001/10000", "z|z|^q has degree 1+q", NUDGED),
    _hom("abs(x)**(2 - tanh(345))", "2 - tanh(345)", "p = 1 + 2e-300 > 1", NUDGED),
    _hom("abs(x)**(2*sigmoid(600))", "2/(1 + exp(-600))", "p = 2/(1+e^−600) = 2 − 5e-261", NUDGED),
    _hom("relu(x)**(1 + exp(-600))", "1 + exp(-600)", "p = 1 + 2.6e-261 ≠ 1", NUDGED),
    _hom("abs(x)**(1 - exp(-600))", "1 - exp(-600)", "p = 1 − 2.6e-261 ≠ 1", NUDGED),
    _hom("abs(x)**cosh(0)", "1", "cosh 0 = 1: |x|", NUDGED),
    _hom("abs(x)**log(e)", "1", "log e = 1: |x|", NUDGED),
    _hom("relu(x)**(cosh(1)**2 - sinh(1)**2)", "1", "cosh²1 − sinh²1 = 1 exactly: relu", NUDGED),
    _hom(
        "abs(x)**(2*sigmoid(1) + 2*sigmoid(-1) - 1)",
        "1",
        "sigmoid(1)+sigmoid(−1) = 1, so p = 1 exactly",
        NUDGED,
    ),
    _hom("abs(x)**(tanh(1)*cosh(1)/sinh(1))", "1", "tanh·cosh/sinh = 1 exactly", NUDGED),
    _hom("relu(x)**(sigmoid(3) + sigmoid(-3))", "1", "sigmoid(3)+sigmoid(−3) = 1 exactly", NUDGED),
    _hom(
        "abs(x)**(1 + sigmoid(400) - 1)",
        "1/(1 + exp(-400))",
        "p = sigmoid(400) = 1 − 1.9e-174 < 1",
        NUDGED,
    ),
    # -- non-integer and transcendental degrees ------------------------------------------------
    _hom("relu(x)**1.5", "3/2", "relu(αz)^1.5 = α^1.5 relu(z)^1.5", DEGREE),
    _hom("abs(x)**0.5", "1/2", "degree 1/2", DEGREE),
    _hom("abs(x)**(1/3)", "1/3", "degree 1/3", DEGREE),
    _hom("relu(x)**(2/3)", "2/3", "degree 2/3", DEGREE),
    _hom("abs(x)**pi", "pi", "degree π", DEGREE),
    _hom("relu(x)**e", "E", "degree e", DEGREE),
    _hom("abs(x)**(pi/2)", "pi/2", "degree π/2", DEGREE),
    _hom("abs(x)**log(3)", "log(3)", "degree log 3 = 1.0986..", DEGREE),
    _hom("abs(x)**sqrt(2)", "sqrt(2)", "degree √2", DEGREE),
    _hom("relu(x)**(1/pi)", "1/pi", "degree 1/π", DEGREE),
    _hom("abs(x)**(e - 2)", "E - 2", "degree e − 2 = 0.718..", DEGREE),
    _hom("x*abs(x)**(pi - 1)", "pi", "z|z|^(π−1): odd, degree π", DEGREE),
    _hom("relu(x)**2.5 + 3*relu(-x)**2.5", "5/2", "both terms degree 5/2", DEGREE),
    _hom("abs(x)**7.25", "29/4", "degree 29/4", DEGREE),
    _hom("abs(x)**100", "100", "degree 100", DEGREE),
    _hom("relu(x)**0.01", "1/100", "degree 1/100", DEGREE),
    _hom("abs(x)**(3/2)*sigmoid(0)", "3/2", "sigmoid(0) = 1/2: |x|^1.5/2", DEGREE),
    _hom("(abs(x)**0.5)**3", "3/2", "(|x|^½)³ = |x|^{3/2}", DEGREE),
    _hom("sqrt(abs(x))", "1/2", "degree 1/2", DEGREE),
    _hom("sqrt(relu(x))*abs(x)", "3/2", "½ + 1", DEGREE),
    _hom("abs(x)**log(2)", "log(2)", "degree log 2 = 0.693..", DEGREE),
    _hom("abs(x)**(pi**2/10)", "pi**2/10", "degree π²/10 = 0.987.. (just below 1)", DEGREE),
    _hom("abs(x)**erf(1)", "erf(1)", "degree erf 1 = 0.8427..", DEGREE),
    _hom("abs(x)**tanh(1)", "tanh(1)", "degree tanh 1 = 0.7616..", DEGREE),
    _hom("abs(x)**sqrt(3) + abs(x)**sqrt(3)", "sqrt(3)", "2|x|^√3", DEGREE),
    _hom("relu(x)**pi - relu(-x)**pi", "pi", "z|z|^(π−1): degree π", DEGREE),
    _none("abs(x)**pi + abs(x)**e", "degrees π and e mixed: σ(2)/σ(1) ≠ σ(4)/σ(2)", DEGREE),
    _none("relu(x)**1.5 + relu(x)**2", "degrees 3/2 and 2 mixed", DEGREE),
    _hom("sqrt(x**4)", "2", "sqrt(x⁴) = x²", DEGREE),
    _hom("(x**2)**0.75", "3/2", "(x²)^{3/4} = |x|^{3/2}", DEGREE),
    _hom("(x**4)**(1/8)", "1/2", "(x⁴)^{1/8} = |x|^{1/2}", DEGREE),
    _hom("x**2", "2", "degree 2", DEGREE),
    _hom("-x**4", "4", "−(x⁴): degree 4", DEGREE),
    # -- degree-0 constants written obscurely --------------------------------------------------
    _const("5", "constant 5", CONST),
    _const("pi", "constant π", CONST),
    _const("e", "constant e", CONST),
    _const("-1", "constant −1", CONST),
    _const("1e-30", "constant 1e-30", CONST),
    _const("cosh(x)**2 - sinh(x)**2", "= 1", CONST),
    _const("sigmoid(x) + sigmoid(-x)", "= 1", CONST),
    _const("tanh(x)**2 + 1/cosh(x)**2", "tanh² + sech² = 1", CONST),
    _const("exp(x)*exp(-x)", "= 1", CONST),
    _const("erf(x) + erf(-x) + 2", "erf odd: = 2", CONST),
    _const("softplus(x) - softplus(-x) - x + 3", "softplus(x)−softplus(−x) = x: = 3", CONST),
    _const("max(2, tanh(x) + 1)", "tanh + 1 < 2: = 2", CONST),
    _const("min(-1, tanh(x))", "tanh > −1: = −1", CONST),
    _const("max(1, 1 - abs(x))", "1 − |x| ≤ 1: = 1", CONST),
    _const("min(0.5, 0.5 + x**2)", "= 1/2", CONST),
    _const("max(sigmoid(x), 1)", "sigmoid < 1: = 1", CONST),
    _const("min(exp(x), 0) + 7", "e^x > 0: = 7", CONST),
    _const("relu(-abs(x)) + 1", "= 1", CONST),
    _const("relu(sigmoid(x) - 1) + e", "= e", CONST),
    _const("hardtanh(5 + x**2)", "5 + x² > 1: = 1", CONST),
    _const("relu6(6 + abs(x))", "6 + |x| ≥ 6: = 6", CONST),
    _const("log(exp(2))", "= 2", CONST),
    _const("max(1e-30, -abs(x))", "−|x| ≤ 0 < 1e-30: = 1e-30", CONST),
    _const("x - x + 1", "= 1", CONST),
    _const("cosh(0)", "= 1", CONST),
    _const("max(1, sigmoid(400))", "sigmoid(400) < 1: = 1", CONST),
    _const("tanh(345)", "constant 1 − 2e-300 ≠ 0", CONST),
    _const("sigmoid(400)", "constant 1 − 1.9e-174", CONST),
    _const("1 - sigmoid(30)", "constant e^−30/(1+e^−30) ≈ 9.4e-14 > 0", CONST),
    _const("erf(26) - 1", "constant −erfc(26) ≈ −5e-296 ≠ 0", CONST),
    _const("tanh(345) - 1", "constant −2e-300 ≠ 0", CONST),
    _const("max(3, 3 - relu(x))", "3 − relu ≤ 3: = 3", CONST),
    _const("2**(x - x)", "= 1", CONST),
    _const("(cosh(x) - sinh(x))*exp(x)", "e^−x·e^x = 1", CONST),
    _const("exp(log(2))", "= 2", CONST),
    _const("max(1, sigmoid(400) - 3*abs(x-1))**2", "= 1", CONST),
    _const("max(pi, 3 + sigmoid(x)/10)", "3 + s/10 < 3.1 < π: = π", CONST),
    _const("max(e, 2 + 0.7*sigmoid(x))", "2 + 0.7s < 2.7 < e: = e", CONST),
    _const(
        "max(2.718281828, 2 + 0.718281828*sigmoid(x))", "2 + 0.718281828·s < 2.718281828", CONST
    ),
    _const("min(1, 1 + exp(x)) - 2", "1 + e^x > 1: = −1", CONST),
    _none("min(e, 2 + tanh(x)**2)", "σ(0) = 2, σ(10) = e: not constant, σ(0) ≠ 0", CONST),
    _none("min(-2, -2 - relu(x))", "= −2 − relu(x): σ(0) = −2 ≠ 0, not constant", CONST),
    # -- σ ≡ 0 written obscurely ---------------------------------------------------------------
    _zero("0", "σ ≡ 0", ZERO),
    _zero("0*x", "σ ≡ 0", ZERO),
    _zero("x - x", "σ ≡ 0", ZERO),
    _zero("relu(x) - max(x, 0)", "relu = max(x,0)", ZERO),
    _zero("relu(x) - relu(-x) - x", "relu(x) − relu(−x) = x", ZERO),
    _zero("abs(x) - max(x, -x)", "|x| = max(x,−x)", ZERO),
    _zero("relu(-abs(x))", "−|x| ≤ 0", ZERO),
    _zero("relu(sigmoid(x) - 1)", "sigmoid < 1", ZERO),
    _zero("relu(tanh(x) - 1)", "tanh < 1", ZERO),
    _zero("min(0, exp(x))", "e^x > 0", ZERO),
    _zero("max(0, -cosh(x))", "−cosh < 0", ZERO),
    _zero("cosh(x)**2 - sinh(x)**2 - 1", "cosh² − sinh² = 1", ZERO),
    _zero("sigmoid(x) + sigmoid(-x) - 1", "s(x) + s(−x) = 1", ZERO),
    _zero("softplus(x) - softplus(-x) - x", "softplus(x) − softplus(−x) = x", ZERO),
    _zero("gelu(x) - gelu(-x) - x", "gelu(x) − gelu(−x) = x", ZERO),
    _zero("silu(x) - silu(-x) - x", "silu(x) − silu(−x) = x", ZERO),
    _zero("x*(cosh(x) - sinh(x)) - x*exp(-x)", "cosh − sinh = e^−x", ZERO),
    _zero("relu(1 - cosh(x))", "1 − cosh ≤ 0", ZERO),
    _zero("max(1, sigmoid(400) - 3*abs(x-1)) - 1", "the max is ≡ 1 (issue example)", ZERO),
    _zero("relu(sigmoid(400) - 1 - abs(x))", "sigmoid(400) − 1 < 0", ZERO),
    _zero("min(relu(x), relu(-x))", "one of relu(x), relu(−x) is 0, both ≥ 0", ZERO),
    _zero("relu(x)*relu(-x)", "one factor is 0", ZERO),
    _zero("abs(x) - sqrt(x**2)", "sqrt(x²) = |x|", ZERO),
    _zero("hardtanh(x) - max(-1, min(1, x))", "the definition of hardtanh", ZERO),
    _zero("relu(x)**2*relu(-x)", "one factor is 0", ZERO),
    _zero("min(abs(x), 0)", "|x| ≥ 0", ZERO),
    _zero("1e-30*relu(-x**2)", "−x² ≤ 0", ZERO),
    _zero("relu(x - abs(x))", "x ≤ |x|", ZERO),
    _zero("exp(x)*relu(-sigmoid(x))", "−sigmoid < 0", ZERO),
    _zero("tanh(x)**2 + 1/cosh(x)**2 - 1", "tanh² + sech² = 1", ZERO),
    # -- odd/even tricks -----------------------------------------------------------------------
    _hom("x*abs(x)", "2", "odd, degree 2", ODD),
    _hom("x*abs(x)**0.5", "3/2", "z|z|^{1/2}: degree 3/2", ODD),
    _hom("x*abs(x)**2", "3", "= x³", ODD),
    _hom("x*abs(x)**(1/3)", "4/3", "degree 4/3", ODD),
    _none("x*abs(x)/(1 + abs(x))", "σ(2)/σ(1) = 8/3 ≠ σ(4)/σ(2) = 48/15", ODD),
    _hom("max(x, 0.2*x)", "1", "leaky slope 0.2: degree 1, σ(−1) = −0.2 ≠ −1", ODD),
    _hom("max(x, -0.5*x)", "1", "x (x≥0), −x/2 (x<0): degree 1, not linear", ODD),
    _lin("max(x, 1*x)", "= x", ODD),
    _hom("min(x, 3*x)", "1", "x (x≥0), 3x (x<0)", ODD),
    _hom("max(-x, 0.01*x)", "1", "0.01x (x≥0), −x (x<0)", ODD),
    _hom("leaky_relu(x) + leaky_relu(-x)", "1", "= 0.99|x|", ODD),
    _hom("abs(x) + x", "1", "= 2 relu(x)", ODD),
    _hom("abs(x)*x**2", "3", "|x|³", ODD),
    _hom("x**2*abs(x)**0.5", "5/2", "|x|^{5/2}", ODD),
    _hom("relu(x)**2 - relu(-x)**2", "2", "= x|x|", ODD),
    _hom("relu(x)**3 - relu(-x)**3", "3", "= x³", ODD),
    _lin("relu(x)**1 - relu(-x)**1", "= x", ODD),
    _none("gelu(x) + gelu(-x)", "= x·erf(x/√2): even, σ(2)/σ(1) ≠ σ(4)/σ(2)", ODD),
    _none("silu(x) + silu(-x)", "= x·tanh(x/2)", ODD),
    _hom("max(x, -x)**1.5", "3/2", "|x|^{3/2}", ODD),
    _hom("max(x, 0.5*x)**2", "2", "x² (x≥0), x²/4 (x<0)", ODD),
    _hom("(x - abs(x))**2", "2", "= 4 relu(−x)²", ODD),
    _hom("-relu(-x)", "1", "= min(x,0)", ODD),
    _hom("relu(x) - 2*relu(-x)", "1", "slopes 1 and 2", ODD),
    _none("tanh(x)*abs(x)", "σ(2)/σ(1) ≠ σ(4)/σ(2)", ODD),
    _hom("(-x)**3", "3", "= −x³", ODD),
    _hom("abs(-x)", "1", "= |x|", ODD),
    # -- piecewise via max/min nesting ---------------------------------------------------------
    _hom("max(min(x, 2*x), 0.5*x)", "1", "x (x≥0), 0.5x (x<0)", PIECE),
    _hom("min(max(x, 0), max(2*x, 0))", "1", "= relu(x)", PIECE),
    _none("max(min(x, 1), -1)", "hardtanh: σ(2) = 1 = σ(1)·2^0 but σ(1/2) = 1/2", PIECE),
    _hom("max(x, min(2*x, 3*x))", "1", "2x (x≥0), x (x<0)", PIECE),
    _hom("min(max(x, -x), max(2*x, -2*x))", "1", "= |x|", PIECE),
    _none("max(0, min(x, 6))", "relu6: σ(1)=1, σ(2)=2 force p=1, σ(12)=6", PIECE),
    _none("min(max(x, 0), 1e6)", "saturates at 1e6: σ(2e6) = 1e6", PIECE, ("2e6",)),
    _hom("max(max(x, 0), max(-x, 0))", "1", "= |x|", PIECE),
    _hom("max(x, 0, 0.1*x)", "1", "= relu(x)", PIECE),
    _hom("min(x, 0, 2*x)", "1", "0 (x≥0), 2x (x<0)", PIECE),
    _hom("max(min(x, 0), min(2*x, 0))", "1", "= min(x, 0)", PIECE),
    _none("max(x - 1, min(x + 1, 0))", "σ(1) = 0, σ(2) = 1", PIECE),
    _none("max(x, min(x + 1, 0))", "σ(−1/2) = 0, σ(−2) = −1", PIECE),
    _none("min(max(x, -1), max(x, 1))", "= max(x, −1): σ(0)=0, σ(−2) = −1 = σ(−4)", PIECE),
    _hom("max(min(max(x, 0), 2*x), -x)", "1", "= |x|", PIECE),
    _hom("max(min(max(min(x, 3*x), 0.5*x), 2*x), 0.25*x)", "1", "x (x≥0), x/4 (x<0)", PIECE),
    _hom("min(max(x, 0.5*x), max(2*x, 0.25*x))", "1", "x (x≥0), x/2 (x<0)", PIECE),
    _none("max(x, min(1, 2*x))", "σ(1/4)=1/2, σ(1/2)=1, σ(1)=1", PIECE),
    _none("relu(relu(x) - relu(x - 1))", "= min(relu x, 1): σ(1)=σ(2)=1, σ(1/2)=1/2", PIECE),
    _none("relu(x) - relu(x - 1) - relu(x - 2) + relu(x - 3)", "σ(1)=1, σ(2)=1, σ(4)=0", PIECE),
    _hom("max(x, 0) + min(x, 0)*0.5", "1", "x (x≥0), x/2 (x<0)", PIECE),
    _hom("min(max(x, -2*x), max(3*x, -x))", "1", "x≥0: min(x,3x)=x; x<0: min(−2x,−x)=−x", PIECE),
    # -- huge and small magnitudes (overflow float64) ------------------------------------------
    _none("exp(exp(x))", "σ(0) = e ≠ 0, not constant", HUGE),
    _none("exp(x)**100", "= e^{100x}: σ(0) = 1, not constant", HUGE),
    _lin("1e12*x", "σ = 1e12·x", HUGE),
    _lin("1e-100*x", "σ = 1e-100·x", HUGE),
    _hom("1e-100*relu(x)**2", "2", "degree 2", HUGE),
    _hom("1e12*abs(x)**0.01", "1/100", "degree 1/100", HUGE),
    _none("x*exp(-x**2)", "σ(2)/σ(1) = 2e^−3 < 1 but σ(1/2)/σ(1/4) = 2e^{-3/16}", HUGE),
    _lin("sinh(690)*x", "σ = sinh(690)·x ≈ 1.1e299·x", HUGE),
    _lin("x*exp(690)", "σ = e^690·x", HUGE),
    _lin("x*exp(-690)", "σ = e^−690·x ≈ 4.5e-300·x", HUGE),
    _hom("relu(x)*exp(-690)", "1", "c·relu, c = e^−690", HUGE),
    _none("x + exp(-690)", "σ(0) = e^−690 ≠ 0", HUGE),
    _none("x + exp(-690)*x**2", "σ(2)/σ(1) forces p = 1 + ~1e-300, σ(−2)/σ(−1) < 2", HUGE),
    _lin("(exp(690)*x + x) - exp(690)*x", "= x exactly (float64 cancels it to 0)", HUGE),
    _none("tanh(1e12*x)", "σ(2)/σ(1) = 1 + ~1e-300 but σ(2e-13)/σ(1e-13) = 1.98", HUGE, ("1e-13",)),
    _none("tanh(x*1e-12)*1e12", "= x − 1e-24x³/3 + ...: not linear; σ(2)/σ(1) ≠ σ(4)/σ(2)", HUGE),
    _none("sinh(x*1e-6)*1e6", "= x + 1e-12x³/6 + ...: not linear, mixed degrees", HUGE),
    _none(
        "log(1 + exp(1e6*x))/1e6", "σ(0) = log(2)/1e6 ≠ 0, not constant; e^{1e6} overflows", HUGE
    ),
    _none("softplus(1e3*x)*1e-3", "σ(0) = log(2)/1000 ≠ 0", HUGE),
    _lin("exp(x)*exp(-x)*x", "= x", HUGE),
    _lin("x*exp(1e-12)", "σ = e^{1e-12}·x", HUGE),
    _hom("relu(x)**100*1e-100", "100", "degree 100", HUGE),
    _none("exp(-exp(x))", "σ(0) = 1/e ≠ 0", HUGE),
    _none("exp(x**2)", "σ(0) = 1 ≠ 0, not constant", HUGE),
    _lin("x*(cosh(20*x)**2 - sinh(20*x)**2)", "= x (float64 cancellation at |x| > 1)", HUGE),
    _lin("x*(sigmoid(50*x) + sigmoid(-50*x))", "= x", HUGE),
    _const("cosh(40*x)**2 - sinh(40*x)**2", "= 1 (float64: cancellation beyond |x| ~ 0.5)", HUGE),
    _lin("exp(700)*x", "σ = e^700·x (e^700 ≈ 1.01e304 overflows the toolkit's 1e300 bound)", HUGE),
    _lin("x*1e12*1e12*1e12", "σ = 1e36·x", HUGE),
    _none("relu(x)**100 + 1e-100*relu(x)", "degrees 100 and 1 mixed", HUGE),
    # -- invalid: undefined or not real somewhere ----------------------------------------------
    _bad("sqrt(x)", "not real at x = −1", INVALID, ("-1",)),
    _bad("log(x)", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("1/x", "undefined at 0", INVALID),
    _bad("x**-1", "undefined at 0", INVALID),
    _bad("x**(-2)", "undefined at 0", INVALID),
    _bad("x**0.5", "not real at x = −1", INVALID, ("-1",)),
    _bad("log(abs(x))", "undefined at 0", INVALID),
    _bad("log(x**2)", "undefined at 0", INVALID),
    _bad("1/abs(x)", "undefined at 0", INVALID),
    _bad("abs(x)**-0.5", "undefined at 0", INVALID),
    _bad("x/x", "0/0 at x = 0 (SymPy would cancel it to 1)", INVALID),
    _bad("x**2/x", "0/0 at x = 0 (SymPy would cancel it to x)", INVALID),
    _bad("sqrt(-1 - x**2)", "not real anywhere", INVALID),
    _bad("log(-exp(x))", "log of a negative number everywhere", INVALID),
    _bad("log(sigmoid(x) - 1)", "sigmoid − 1 < 0 everywhere", INVALID),
    _bad("sqrt(tanh(x))", "not real at x < 0", INVALID, ("-1",)),
    _bad("(-2)**x", "negative base to a variable power: not real at x = 1/2", INVALID),
    _bad("x**x", "not real at x = −1/2", INVALID, ("-1/2",)),
    _bad("0**x", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("1/(x - 1)", "undefined at 1", INVALID),
    _bad("1/(x**2 - 2)", "undefined at ±√2", INVALID, ("sqrt(2)",)),
    _bad("1/sinh(x)", "undefined at 0", INVALID),
    _bad("1/tanh(x)", "undefined at 0", INVALID),
    _bad("1/(exp(x) - 1)", "undefined at 0", INVALID),
    _bad("log(tanh(x))", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("sqrt(x - abs(x))", "not real at x < 0", INVALID, ("-1",)),
    _bad("sqrt(sinh(x))", "not real at x < 0", INVALID, ("-1",)),
    _bad("log(relu(x))", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("1/relu(x)", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("relu(x)**-1", "undefined at x ≤ 0", INVALID, ("-1",)),
    _bad("exp(1/x)", "undefined at 0", INVALID),
    _bad("tanh(1/x)", "undefined at 0", INVALID),
    _bad("x*log(abs(x))", "0·log 0 undefined at 0 (only the limit is 0)", INVALID),
    _bad("sqrt(x**3)", "not real at x < 0", INVALID, ("-1",)),
    _bad("x**3/abs(x)", "0/0 at 0", INVALID),
    _bad("1/(x - pi)", "undefined at π", INVALID, ("pi",)),
    # -- hostile syntax: invalid ---------------------------------------------------------------
    _bad("x^2", "'^' is not in the grammar (bitwise xor in Python)", SYNTAX),
    _bad("x // 2", "floor division is not in the grammar", SYNTAX),
    _bad("lambda: x", "not an expression of the grammar", SYNTAX),
    _bad("relu[x]", "subscript is not in the grammar", SYNTAX),
    _bad("x.real", "attribute access is not in the grammar", SYNTAX),
    _bad("foo(x)", "unknown function", SYNTAX),
    _bad("y", "unknown name", SYNTAX),
    _bad("sigmoid x", "syntax error", SYNTAX),
    _bad("__import__('os')", "not in the grammar", SYNTAX),
    _bad("max(x)", "max needs at least 2 arguments", SYNTAX),
    _bad("exp(x, 2)", "exp takes 1 argument", SYNTAX),
    _bad("x if x > 0 else 0", "conditional expression is not in the grammar", SYNTAX),
    _bad("x > 0", "a comparison is not an activation", SYNTAX),
    _bad("", "empty input", SYNTAX),
    _bad("   ", "blank input", SYNTAX),
    _bad("x; x", "two statements", SYNTAX),
    _bad("2 x", "syntax error (implicit multiplication)", SYNTAX),
    _bad("x % 2", "remainder is not in the grammar", SYNTAX),
    _bad("True*x", "booleans are not in the grammar", SYNTAX),
    _bad("1j*x", "complex numbers are not real", SYNTAX),
    _bad("relu(x=1)", "keyword argument", SYNTAX),
    _bad("x**2 # square", "'#' comment is not in the grammar", SYNTAX),
    _bad("(x", "unbalanced bracket", SYNTAX),
    _bad("RELU(x)", "names are case-sensitive: RELU is unknown", SYNTAX),
    _bad("x\n+1", "a control character (newline) in the input", SYNTAX),
    # -- hostile but valid syntax --------------------------------------------------------------
    _lin("  x  ", "σ = x (surrounding spaces)", SYNTAX),
    _lin("- - x", "−(−x) = x", SYNTAX),
    _lin("-(-(-x))", "= −x", SYNTAX),
    _lin("+x", "= x", SYNTAX),
    _lin("--x", "Python reads −(−x) = x", SYNTAX),
    _lin("x*-1", "= −x", SYNTAX),
    _lin("x**1", "= x", SYNTAX),
    _hom("x ** 2", "2", "= x²", SYNTAX),
    _lin("(((x)))", "= x", SYNTAX),
    _lin("x*1.", "= x", SYNTAX),
    _lin("x*.5", "= x/2", SYNTAX),
    _lin("x*1_000", "= 1000x (Python digit separators)", SYNTAX),
    _lin("1E3*x", "= 1000x", SYNTAX),
    _lin("x*2e+0", "= 2x", SYNTAX),
    _none("(1 + x**2)**-1", "σ(0) = 1 ≠ 0, not constant", SYNTAX),
    _none("2**-x", "σ(0) = 1 ≠ 0, not constant", SYNTAX),
    _lin("x*2**-1", "= x/2", SYNTAX),
    _hom("relu( x )", "1", "= relu", SYNTAX),
    _hom("max( x ,0 )", "1", "= relu", SYNTAX),
    _lin("-+-x", "−(+(−x)) = x", SYNTAX),
    _lin("x/-3", "= −x/3", SYNTAX),
    _hom("x*-x", "2", "= −x²", SYNTAX),
    _hom("(-x)**2", "2", "= x²", SYNTAX),
    _lin("x - -x", "= 2x", SYNTAX),
    _lin("0.5*x + 0.5*x", "= x", SYNTAX),
    _lin("x/2/2*4", "= x", SYNTAX),
    _lin("z", "the variable may be called z", SYNTAX),
    _hom("x*z", "2", "x and z are the same variable: = x²", SYNTAX),
    _lin("identity", "bare table name", SYNTAX),
    _hom(" relu ", "1", "bare table name with spaces", SYNTAX),
    _const("exp(x)**0", "(e^x)^0 = 1, the base is positive", SYNTAX),
    _lin("x**1.0", "= x", SYNTAX),
    _hom("x**2.0", "2", "= x²", SYNTAX),
    _hom("x**(4/2)", "2", "= x²", SYNTAX),
    _lin("max(x,x)", "= x", SYNTAX),
    _lin("min(x, x, x)", "= x", SYNTAX),
    _lin("x/1e12*1e12", "= x", SYNTAX),
    _lin("pi*x", "= πx", SYNTAX),
    _lin("e*x", "= e·x", SYNTAX),
    _none("e**x", "σ(0) = 1 ≠ 0", SYNTAX),
    _lin("x*e**-1", "= x/e", SYNTAX),
    _lin("x+0", "= x", SYNTAX),
    # -- valid although a form-based domain check cannot see it --------------------------------
    _none(
        "sqrt(x**2 - 2*x + 1)", "= |x − 1| (radicand (x−1)² ≥ 0): σ(0) = 1 ≠ 0, not constant", FORM
    ),
    _none("log(x**2 - 2*x + 2)", "(x−1)² + 1 ≥ 1: σ(0) = log 2 ≠ 0, not constant", FORM),
    _none("1/(1 - tanh(x)**2)", "= cosh² x ≥ 1: σ(0) = 1, not constant", FORM),
    _none("sqrt(1 - tanh(x)**2)", "= sech x ∈ (0,1]: σ(0) = 1, not constant", FORM),
    _none("log(sigmoid(x))", "= −softplus(−x): σ(0) = −log 2, not constant", FORM),
    _none("log(1 - sigmoid(x))", "1 − s(x) = s(−x) > 0: = −softplus(x), σ(0) = −log 2", FORM),
    _none("sqrt(cosh(x) - 1)", "= √2|sinh(x/2)|: σ(2)/σ(1) ≠ σ(4)/σ(2)", FORM),
    _none("log(2 - tanh(x))", "2 − tanh > 1: σ(0) = log 2 ≠ 0", FORM),
    _lin(
        "2*tanh(x)/(1 - tanh(x)**2) - sinh(2*x) + x",
        "2tanh/(1−tanh²) = 2 tanh·cosh² = sinh 2x; 1 − tanh² > 0: σ = x",
        FORM,
    ),
    _const("log(cosh(x) + sinh(x)) - x + 1", "cosh + sinh = e^x > 0: σ = 1", FORM),
    _none("log(exp(x) + exp(-x))", "= log(2 cosh x): σ(0) = log 2", FORM),
    _hom("(x**2)**0.5", "1", "= |x|", FORM),
    # -- the table, as bare names --------------------------------------------------------------
    _hom("relu", "1", "relu(αz) = α relu(z); relu(−1) = 0 ≠ −1", TABLE),
    _hom("leaky_relu", "1", "degree 1, slopes 1 and 0.01", TABLE),
    _hom("abs", "1", "degree 1, even", TABLE),
    _hom("relu2", "2", "degree 2", TABLE),
    _hom("relu3", "3", "degree 3", TABLE),
    _none("gelu", "σ(1)=0.8413, σ(2)=1.9545, σ(4)=3.99987: ratios differ", TABLE),
    _none("gelu_tanh", "ratios σ(2)/σ(1) ≠ σ(4)/σ(2)", TABLE),
    _none("quick_gelu", "ratios σ(2)/σ(1) ≠ σ(4)/σ(2)", TABLE),
    _none("silu", "ratios σ(2)/σ(1) ≠ σ(4)/σ(2)", TABLE),
    _none("mish", "ratios σ(2)/σ(1) ≠ σ(4)/σ(2)", TABLE),
    _none("sigmoid", "σ(0) = 1/2 ≠ 0, not constant", TABLE),
    _none("tanh", "σ(1) = 0.7616, σ(2) = 0.9640, σ(4) = 0.99933", TABLE),
    _none("softplus", "σ(0) = log 2 ≠ 0", TABLE),
    _none("elu", _P1 + "; σ(−1) = e^−1 − 1 ≠ −1, σ(−2) ≠ 2σ(−1)", TABLE),
    _none("selu", "σ(1) = λ, σ(2) = 2λ force p = 1; σ(−2) ≠ 2σ(−1)", TABLE),
    _none("hardtanh", "σ(1) = σ(2) = 1 force p = 0, σ(1/2) = 1/2", TABLE),
    _none("relu6", _P1 + ", σ(12) = 6", TABLE),
    _none("hardswish", "σ(1) = 2/3, σ(2) = 5/3, σ(4) = 4", TABLE),
    # -- session 12: constants whose sign SymPy judges by a low-precision float -----------------
    _none(
        "x + abs(softplus(-100) - softplus(-99))*x**2",
        _A + ": σ = x + |A|x², σ(2) − 2σ(1) = 2|A| ≠ 0, σ(2)/σ(1) ≠ σ(4)/σ(2)",
        TINY,
    ),
    _hom(
        "abs(x)**(1 + abs(softplus(-100) - softplus(-99)))",
        "1 - log(1 + exp(-100)) + log(1 + exp(-99))",
        _A + ": σ = |x|^(1 + |A|), degree 1 + |A| ≠ 1",
        TINY,
    ),
    _lin("max(x, x + log(1+exp(-100)) - log(1+exp(-99)))", _A + ": max(x, x + A) = x", TINY),
    _zero("relu(log(1+exp(-100)) - log(1+exp(-99)))*exp(x)", _A + ": relu(A) = 0, σ ≡ 0", TINY),
    _lin(
        "x + max(0, log(1+exp(-100*x**2)) - log(1+exp(-99*x**2)))",
        "e^(−100x²) ≤ e^(−99x²) and log increases: the max is 0 (at x = 0 both are log 2), σ = x",
        TINY,
    ),
    _lin(
        "x + max(0, log(1+exp(-800*x**2)) - log(1+exp(-799*x**2)))",
        "e^(−800x²) ≤ e^(−799x²): the max is 0, σ = x (at x = 1 the gap is below 2^−1024)",
        TINY,
    ),
)


# -- round 7 (activation red team): families the corpus lacked -------------------------------
# Truth by hand and by the campaign's evaluator at 700 digits; erfc, sin, cos and integer
# literals in another base (0x10, 0o17) need the evaluator's table to hold them.
HALF = "r7-halfline"
IRR = "r7-irrational-kink"
SLIVER = "r7-sliver"
CANCEL = "r7-cancelling-degrees"
TRIG = "r7-trig-hyperbolic-identity"
ERF = "r7-erf-softplus-gelu"
CONSTW = "r7-constant-written-oddly"
HUGE7 = "r7-1e300"
CLOSED = "r7-degree-closed-form"
PREC = "r7-precedence-syntax"
STEP = "r7-near-step"

_B300 = "1e10**30"  # 10^300 (a literal is at most 1e12)
_S300 = "1e-100**3"  # 10^-300

BLIND = "r7-float-blind-constant"
_L7 = "log(cos(1e-60))"  # −5e−121: cos(1e−60) rounds to 1.0 in any float evaluation
_LH = "log(cosh(1e-60))"  # +5e−121
W = "log(cos(1e-60)) = log(1 − 5e−121 + …) ≈ −5e−121 < 0"
WH = "log(cosh(1e-60)) ≈ +5e−121 > 0"

CORPUS += (
    # -- homogeneous (or linear) on one half-line only -----------------------------------------
    _none(
        "relu(x)**2 + relu(-x)**3",
        "σ(1) = 1, σ(2) = 4 force p = 2; σ(−2) = 8 ≠ 4σ(−1) = 4",
        HALF,
    ),
    _none("relu(x) + relu(-x)**2", "σ(2)/σ(1) = 2 forces p = 1; σ(−2) = 4 ≠ 2σ(−1) = 2", HALF),
    _none(
        "max(x, 0) + min(x, 0)*sigmoid(x)",
        "x > 0: σ = x forces p = 1; σ(−1) = −1/(1+e), σ(−2) = −2/(1+e²) ≠ 2σ(−1)",
        HALF,
    ),
    _hom(
        "relu(x)*exp(-relu(-x))",
        "1",
        "x > 0: relu(−x) = 0 so σ = x; x ≤ 0: relu(x) = 0: σ = relu(x)",
        HALF,
    ),
    _hom("relu(x)*(1 + relu(-x))", "1", "relu(x)·relu(−x) = 0 everywhere: σ = relu(x)", HALF),
    _none(
        "relu(x)**sqrt(2) + relu(-x)**sqrt(3)",
        "degree √2 for x > 0 (σ(1) = 1, σ(2) = 2^√2), σ(−2) = 2^√3 ≠ 2^√2 σ(−1)",
        HALF,
    ),
    _hom(
        "relu(x)**sqrt(2) - 5*relu(-x)**sqrt(2)",
        "sqrt(2)",
        "each piece is |·|^√2 on its half-line: degree √2",
        HALF,
    ),
    _none(
        "x + relu(-x)*(exp(x) - 1)",
        "x < 0: σ = 2x − x e^x; σ(−1) = −2 + 1/e, σ(−2) = −4 + 2/e² ≠ 2σ(−1)",
        HALF,
    ),
    _hom(
        "max(x, min(0, x/sqrt(2)))",
        "1",
        "x ≥ 0: max(x, 0) = x; x < 0: max(x, x/√2) = x/√2: degree 1; σ(−1) = −1/√2 ≠ −σ(1)",
        HALF,
    ),
    # -- kinks at irrational or near-rational thresholds ---------------------------------------
    _lin(
        "x + relu(x - pi)*relu(e - x)",
        "e < π: x > π and x < e never both hold, so one relu is 0: σ = x",
        IRR,
    ),
    _none(
        "x + relu(x - e)*relu(pi - x)",
        "bump on (e, π): σ(3) = 3 + (3 − e)(π − 3) ≠ 3",
        IRR,
        ("3",),
    ),
    _lin(
        "x + relu(x - 355/113)*relu(pi - x)",
        "355/113 = 3.14159292… > π: the bump (355/113, π) is empty, σ = x",
        IRR,
    ),
    _none(
        "x + relu(x - 3.1415926)*relu(pi - x)",
        "3.1415926 < π: a bump on (3.1415926, π), e.g. at 3.14159263 σ ≠ x",
        IRR,
        ("3.14159263",),
    ),
    _none(
        "x + relu(min(x - sqrt(2), sqrt(3) - x))",
        "a tent on (√2, √3): σ(3/2) = 3/2 + min(3/2 − √2, √3 − 3/2) ≠ 3/2",
        IRR,
        ("1.5",),
    ),
    _none("max(x, sqrt(2)*x - 1)", "σ(1) = 1, σ(2) = 2 force p = 1; σ(10) = 10√2 − 1 ≠ 10", IRR),
    _lin(
        "min(x, sqrt(2)*relu(x))",
        "x ≥ 0: min(x, √2x) = x; x < 0: min(x, 0) = x: σ = x",
        IRR,
    ),
    _lin("max(x, min(0, sqrt(2)*x))", "x ≥ 0: max(x, 0) = x; x < 0: √2x < x: σ = x", IRR),
    _hom(
        "max(x, x*pi/3.1415926)",
        "1",
        "π/3.1415926 > 1: x ≥ 0 gives x·π/3.1415926, x < 0 gives x; degree 1, slopes differ",
        IRR,
    ),
    _hom(
        "max(x, x*pi*113/355)",
        "1",
        "113π/355 < 1: x ≥ 0 gives x, x < 0 gives 113πx/355 (> x); degree 1, not linear",
        IRR,
    ),
    _lin(
        "min(max(x, -e), e) + relu(x - e) - relu(-x - e)",
        "clip to [−e, e] plus the excess on each side: x > e: e + x − e; x < −e: −e + x + e",
        IRR,
    ),
    _none(
        "min(max(x, -pi), e) + relu(x - e) - relu(-x - e)",
        "−π < x < −e: σ = x + x + e = 2x + e ≠ x; σ(−3) = −6 + e, σ(−6) = −3 − π + e... not "
        "homogeneous: σ(1) = 1, σ(2) = 2 force p = 1 and σ(−3) ≠ 3σ(−1) = −3",
        IRR,
        ("3",),
    ),
    # -- linear except on a sliver (c, c + 1e-40), or on an empty one --------------------------
    _none(
        "x + relu(min(x - 1, 1 + 1e-40 - x))",
        "a tent of height 5e−41 at 1 + 5e−41: σ(1 + 5e−41) ≠ 1 + 5e−41",
        SLIVER,
        ("1 + 5e-41",),
    ),
    _none(
        "x + relu(min(x + 1e-40, -x))",
        "a tent on (−1e−40, 0): σ(−5e−41) = −5e−41 + 5e−41 = 0 ≠ −5e−41",
        SLIVER,
        ("5e-41",),
    ),
    _none(
        "x + relu(min(x - pi, pi + 1e-40 - x))",
        "a tent on (π, π + 1e−40): nonzero at π + 5e−41",
        SLIVER,
        ("pi + 5e-41",),
    ),
    _lin(
        "x + relu(min(x - 1, 1 - x))",
        "min(x − 1, 1 − x) = −|x − 1| ≤ 0: the relu is 0, σ = x",
        SLIVER,
    ),
    _lin(
        "x + relu(min(x - 1 - 1e-40, 1 - x))",
        "x − 1 − 1e−40 > 0 and 1 − x > 0 never both: the relu is 0, σ = x",
        SLIVER,
    ),
    _none(
        "x + relu(min(x - sqrt(2), 1.4142135623730951 - x))",
        "1.4142135623730951 > √2 = 1.41421356237309504…: a tent of width ~4.5e−17",
        SLIVER,
        ("(sqrt(2) + 1.4142135623730951)/2",),
    ),
    _lin(
        "x + relu(min(x - 1.4142135623730952, sqrt(2) - x))",
        "1.4142135623730952 > √2: the interval (1.4142135623730952, √2) is empty, σ = x",
        SLIVER,
    ),
    _none(
        "x + relu(min(x - 1.414213562373095, sqrt(2) - x))",
        "1.414213562373095 < √2: a tent on (1.414213562373095, √2) of width ~4.9e−17",
        SLIVER,
        ("(sqrt(2) + 1.414213562373095)/2",),
    ),
    # -- pieces of different degrees that cancel (or not) --------------------------------------
    _none(
        "max(relu(x)**2, relu(x)**3)",
        "0 < x < 1: x², x > 1: x³; σ(1) = 1, σ(2) = 8 force p = 3, but σ(1/2) = 1/4 ≠ 1/8",
        CANCEL,
    ),
    _zero(
        "min(relu(x)**2, relu(x)**3) + max(relu(x)**2, relu(x)**3) - relu(x)**2 - relu(x)**3",
        "min(a, b) + max(a, b) = a + b: σ ≡ 0",
        CANCEL,
    ),
    _zero("min(x**2, x**2 + 1e-40) - x**2", "min(a, a + 1e−40) = a: σ ≡ 0", CANCEL),
    _const("max(x**2, x**2 + 1e-40) - x**2", "max(a, a + 1e−40) = a + 1e−40: σ ≡ 1e−40", CANCEL),
    _lin("max(x, x + 1e-40) - 1e-40", "max(x, x + 1e−40) = x + 1e−40: σ = x", CANCEL),
    _const(
        "max(x, x + 1e-40) - max(x, x - 1e-40)",
        "(x + 1e−40) − x = 1e−40: a nonzero constant",
        CANCEL,
    ),
    _none(
        "relu(x)**2 + relu(x - 1e-40)**3 - relu(x)**3",
        "x > 1e−40: x² + (x − 1e−40)³ − x³ = x² − 3·1e−40x² + …; not homogeneous "
        "(σ(1), σ(2), σ(4) imply different degrees)",
        CANCEL,
    ),
    _lin(
        "((x + 1e-20)**2 - (x - 1e-20)**2)*2.5e19",
        "(x + h)² − (x − h)² = 4hx = 4e−20x, times 2.5e19: σ = x",
        CANCEL,
    ),
    _zero(
        "(x + 1)**3 - (x - 1)**3 - 6*x**2 - 2",
        "(x + 1)³ − (x − 1)³ = 6x² + 2: σ ≡ 0",
        CANCEL,
    ),
    _lin(
        "(x + 1)**3 - (x - 1)**3 - 6*x**2 - 2 + 1e-100*x",
        "(x + 1)³ − (x − 1)³ = 6x² + 2: σ = 1e−100·x",
        CANCEL,
    ),
    # -- trigonometric and hyperbolic identities -----------------------------------------------
    _lin("2*sinh(x)*cosh(x) - sinh(2*x) + x", "sinh 2x = 2 sinh x cosh x: σ = x", TRIG),
    _lin("cosh(2*x) - 2*sinh(x)**2 - 1 + x", "cosh 2x = 1 + 2 sinh² x: σ = x", TRIG),
    _lin("sin(x)**2 + cos(x)**2 - 1 + x", "sin² + cos² = 1: σ = x", TRIG),
    _lin("sin(2*x) - 2*sin(x)*cos(x) + x", "sin 2x = 2 sin x cos x: σ = x", TRIG),
    _lin("cos(x)**2 - sin(x)**2 - cos(2*x) + 3*x", "cos 2x = cos² − sin²: σ = 3x", TRIG),
    _lin("x*cos(x)**2 + x*sin(x)**2", "x(cos² + sin²) = x", TRIG),
    _hom("relu(x)*(sin(x)**2 + cos(x)**2)", "1", "σ = relu(x)", TRIG),
    _lin("cosh(x) - sqrt(1 + sinh(x)**2) + x", "cosh x > 0 and cosh² = 1 + sinh²: σ = x", TRIG),
    _lin("tanh(x)*cosh(x) - sinh(x) + x", "tanh·cosh = sinh: σ = x", TRIG),
    _lin("x*cos(1)**2 + x*sin(1)**2", "cos²1 + sin²1 = 1: σ = x", TRIG),
    _none("sin(pi*x)", "σ(1) = sin π = 0 but σ(1/2) = 1: σ(1) = 2^p σ(1/2) ≠ 0 for every p", TRIG),
    _none("x + sin(x)**2*relu(-x)", "x ≥ 0: x (p = 1); σ(−2) = −2 + 2 sin²2 ≠ 2σ(−1)", TRIG),
    _none("sin(abs(x))", "σ(1) = sin 1, σ(2) = sin 2: ratio forces p, σ(4) = sin 4 < 0", TRIG),
    # -- erf, erfc, softplus, gelu variants ----------------------------------------------------
    _lin("erf(x) + erfc(x) - 1 + x", "erfc = 1 − erf: σ = x", ERF),
    _lin("erfc(x) + erfc(-x) - 2 + x", "erfc(−x) = 2 − erfc(x): σ = x", ERF),
    _zero("erfc(-x) - erf(x) - 1", "erfc(−x) = 1 + erf(x): σ ≡ 0", ERF),
    _lin("x*erfc(-x) - x*erf(x)", "erfc(−x) = 1 + erf(x): σ = x", ERF),
    _zero(
        "gelu(x) - x*erfc(-x/sqrt(2))/2",
        "gelu(x) = x(1 + erf(x/√2))/2 and erfc(−y) = 1 + erf(y): σ ≡ 0",
        ERF,
    ),
    _zero(
        "gelu(x) + gelu(-x) - x*erf(x/sqrt(2))",
        "gelu(x) + gelu(−x) = x·erf(x/√2): σ ≡ 0",
        ERF,
    ),
    _zero(
        "2*softplus(x) - x - 2*log(2*cosh(x/2))",
        "1 + e^x = e^(x/2)·2cosh(x/2): 2softplus(x) − x = 2log(2cosh(x/2)); σ ≡ 0",
        ERF,
    ),
    _lin(
        "2*softplus(x) - 2*log(2*cosh(x/2))",
        "2softplus(x) = x + 2log(2cosh(x/2)): σ = x",
        ERF,
    ),
    _lin("2*sigmoid(2*x) - 1 - tanh(x) + x", "tanh x = 2σ(2x) − 1: σ = x", ERF),
    _lin(
        "mish(x) - x*(exp(2*x) + 2*exp(x))/(exp(2*x) + 2*exp(x) + 2) + x",
        "tanh(log(1 + e^x)) = ((1 + e^x)² − 1)/((1 + e^x)² + 1) = (e^2x + 2e^x)/(e^2x + 2e^x + 2)",
        ERF,
    ),
    _none(
        "softplus(x) - log(2)",
        "σ(0) = 0; σ(1) = log((1 + e)/2), σ(−1) = log((1 + 1/e)/2) < 0 < σ(1) and "
        "σ(2)/σ(1) ≠ σ(−2)/σ(−1)",
        ERF,
    ),
    _none("x*erfc(x)", "σ(0) = 0, σ(1) = erfc 1, σ(−1) = −erfc(−1); ratios differ", ERF),
    _none("gelu(relu(x))", "x > 0: x(1 + erf(x/√2))/2, not homogeneous", ERF),
    # -- constants written oddly ---------------------------------------------------------------
    _zero("x*(0.1 + 0.2 - 0.3)", "decimal literals are exact: 0.1 + 0.2 − 0.3 = 0, σ ≡ 0", CONSTW),
    _lin("x*(0.1 + 0.2)/0.3", "exactly 1: σ = x", CONSTW),
    _hom("relu(x)**(sin(1)**2 + cos(1)**2)", "1", "the exponent is exactly 1: σ = relu(x)", CONSTW),
    _hom(
        "abs(x)**(sinh(1) + cosh(1) - e + 1)",
        "1",
        "sinh 1 + cosh 1 = e: the exponent is 1, σ = |x|",
        CONSTW,
    ),
    _lin("x*(2**0.5)**2/2", "(√2)² = 2: σ = x", CONSTW),
    _lin("x*cos(pi/3)*2", "cos(π/3) = 1/2: σ = x", CONSTW),
    _lin("0x10*x - 0o17*x", "hex 16 − octal 15 = 1: σ = x", CONSTW),
    _hom(
        "relu(x)**(pi - 22/7 + 1)",
        "1 + pi - 22/7",
        "22/7 > π: the degree 1 + π − 22/7 ≈ 0.99874 ≠ 1",
        CONSTW,
    ),
    _hom("abs(x)**1e-100", "10**-100", "degree 10^−100 (≠ 0: |x|^p vanishes at 0)", CONSTW),
    _lin("x*tanh(20)**0 + x*(cosh(3)**2 - sinh(3)**2 - 1)", "1 + 0: σ = x", CONSTW),
    # -- 1e300 and 1e-300 ----------------------------------------------------------------------
    _hom(_B300 + "*relu(x)*" + _S300, "1", "10^300·10^−300 = 1: σ = relu(x)", HUGE7),
    _hom("relu(" + _B300 + "*x)/" + _B300, "1", "relu(cx)/c = relu(x) for c > 0", HUGE7),
    _hom(
        "max(x, " + _S300 + "*x)",
        "1",
        "x ≥ 0: x; x < 0: 10^−300·x > x: a leaky relu with slope 10^−300, degree 1",
        HUGE7,
    ),
    _hom(
        "max(x, -" + _S300 + "*x)",
        "1",
        "x < 0: −10^−300x > 0 > x: σ = 10^−300|x| there, degree 1",
        HUGE7,
    ),
    _lin("x*(1 + " + _S300 + ") - " + _S300 + "*x", "exact rationals: σ = x", HUGE7),
    _none(
        "relu(x)*tanh(" + _B300 + "*x)",
        "x > 0: x·tanh(10^300 x): at z = 10^−300, σ(2z)/σ(z) = 2tanh(2)/tanh(1) ≠ 2; "
        "σ(1), σ(2) force p = 1 up to e^(−2·10^300)",
        HUGE7,
        ("1e-300",),
    ),
    _none(
        "tanh(" + _S300 + "*x)*" + _B300,
        "10^300 tanh(10^−300 x) = x − 10^−600x³/3 + …: not linear, not homogeneous "
        "(σ(2)/σ(1) ≠ σ(4)/σ(2) at the 10^−600 level)",
        HUGE7,
        ("1e150", "1e299"),
    ),
    _none(
        "x*sigmoid(" + _B300 + "*x)",
        "≈ relu(x) except near 0: at z = 10^−300, σ(2z)/σ(z) = 2σ(2)/σ(1) ≠ 2",
        HUGE7,
        ("1e-300",),
    ),
    _none(
        "min(1, " + _B300 + "*relu(x))",
        "0 for x ≤ 0, 10^300x on [0, 10^−300], 1 after: σ(1) = σ(2) force p = 0 but "
        "σ(10^−301) = 1/10",
        HUGE7,
        ("1e-301",),
    ),
    _none(
        "x + " + _S300 + "*relu(x)**2",
        "σ(1) = 1 + 10^−300, σ(2) = 2 + 4·10^−300: p = log2(σ(2)/σ(1)) ≠ 1, and σ(−1) = −1",
        HUGE7,
    ),
    _bad(
        _B300 + "*log(1 + " + _S300 + "*x)",
        "1 + 10^−300x ≤ 0 for x ≤ −10^300: log undefined",
        HUGE7,
        ("2e300",),
    ),
    # -- degrees given as closed forms ----------------------------------------------------------
    _hom("relu(x)**(log(8)/log(2))", "3", "log 8/log 2 = 3: σ = relu(x)³", CLOSED),
    _hom("abs(x)**(log(2)/log(4))", "1/2", "log 2/log 4 = 1/2: σ = |x|^(1/2)", CLOSED),
    _hom(
        "relu(x)**(2*log(3)/log(9))",
        "1",
        "2 log 3/log 9 = 1: σ = relu(x), degree exactly 1 (keeps inverse scaling)",
        CLOSED,
    ),
    _hom(
        "abs(x)**(log(6)/log(2) - log(3)/log(2))",
        "1",
        "log 6 − log 3 = log 2: degree 1",
        CLOSED,
    ),
    _hom(
        "relu(x)**(log(10)/log(2) - log(5)/log(2) + 1/2)",
        "3/2",
        "log 10 − log 5 = log 2: exponent 1 + 1/2",
        CLOSED,
    ),
    # -- precedence and hostile syntax ----------------------------------------------------------
    _bad("x**2**0.5", "** is right-associative: x^(√2), not real for x < 0", PREC),
    _lin("-2**0.5*x", "−(2^0.5)·x = −√2x (unary minus binds looser than **)", PREC),
    _bad("(x**3)**(1/3)", "the principal cube root of x³ < 0 is not real", PREC),
    _lin("2**2**-1*x", "2^(2^−1) = √2: σ = √2x", PREC),
    _bad(
        "abs(x)**sqrt(2)*abs(x)**(1 - sqrt(2))",
        "|x|^(1 − √2) is undefined at 0 (a negative power of 0)",
        PREC,
    ),
    _bad("relu(x)**-sqrt(2)", "a negative power of 0 for x ≤ 0", PREC),
    _bad("(x**2 + 0)**(-1/4)", "a negative power of 0 at x = 0", PREC),
    _lin("x*+1*-1*-1", "σ = x", PREC),
    _hom("relu(x)+relu(-x)", "1", "σ = |x|", PREC),
    # -- closed constants whose float value is blind to their sign (SymPy took their branches
    # by a float: 12 of these were WRONG before round 7; see test_activations_round7.py) ------
    _lin("x + relu(-" + _LH + ")", WH + ": relu(−L) = 0, σ = x", BLIND),
    _lin("x + relu(" + _L7 + ")", W + ": relu(L) = 0, σ = x", BLIND),
    _lin("x + relu6(" + _L7 + ")", W + ": relu6(L) = min(max(L, 0), 6) = 0, σ = x", BLIND),
    _lin("max(x, x + " + _L7 + ")", W + ": max(x, x + L) = x", BLIND),
    _lin("x + abs(x)*relu(" + _L7 + ")", W + ": relu(L) = 0, σ = x", BLIND),
    _lin("x + relu(x**2*" + _L7 + ")", W + ": x²L ≤ 0, the relu is 0, σ = x", BLIND),
    _hom("abs(x)**(1 + relu(-" + _LH + "))", "1", WH + ": the exponent is 1, σ = |x|", BLIND),
    _lin("min(0, " + _LH + ")*exp(x) + x", WH + ": min(0, L) = 0, σ = x", BLIND),
    _zero(
        "(elu(-" + _L7 + ") + " + _L7 + ")*exp(x)",
        W + ": −L > 0 so elu(−L) = −L, σ ≡ 0",
        BLIND,
    ),
    _lin(
        "x + sqrt(" + _L7 + "**2) + " + _L7,
        W + ": sqrt(L²) = |L| = −L, σ = x",
        BLIND,
    ),
    _zero(
        "sqrt(x**2*" + _L7 + "**2) + abs(x)*" + _L7,
        W + ": sqrt(x²L²) = |x||L| = −|x|L, σ ≡ 0",
        BLIND,
    ),
    _lin("relu(-sqrt(" + _L7 + "**2)) + x", W + ": −sqrt(L²) < 0, relu = 0, σ = x", BLIND),
    _none(
        "relu(x - " + _LH + ")",
        WH + ": a kink at L > 0; σ(1) = 1 − L, σ(2) = 2 − L, σ(4) = 4 − L: no degree",
        BLIND,
    ),
    _hom(
        "x + relu(-x*" + _LH + ")",
        "1",
        WH + ": x ≥ 0: σ = x; x < 0: σ = (1 − L)x; degree 1, slopes differ",
        BLIND,
    ),
    _lin("x*max(1, 1 - " + _LH + ")", WH + ": max(1, 1 − L) = 1, σ = x", BLIND),
)
