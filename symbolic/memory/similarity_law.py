"""The law of the similarity ``s = k·q`` of two independent uniform unit vectors in ``R^d``.

docs/theory.md Part B uses two laws for ``s``:

* ``gaussian`` — the source's approximation ``s ~ N(0, 1/d)``;
* ``exact`` — the finite-d law: density ``c_d (1 − s²)^((d−3)/2)`` on ``[−1, 1]``,
  ``c_d = Γ(d/2) / (√π Γ((d−1)/2))`` (``s²`` is ``Beta(1/2, (d−1)/2)``).

Closed forms, derived step by step in ``proofs.capacity``:

* ``E[s^(2k)]``: exact ``(1/2)_k / (d/2)_k = (2k−1)!! / (d(d+2)⋯(d+2k−2))``,
  Gaussian ``(2k−1)!! / d^k``; odd moments vanish under both laws.
* ``E[exp(2βs)]``: exact ``₀F₁(; d/2; β²) = Γ(d/2) β^(1−d/2) I_{d/2−1}(2β)``,
  Gaussian ``exp(2β²/d)``.

Besides the SymPy forms this module gives mpmath densities (for numeric quadrature in the
cross-checks) and two *certified* evaluators: an enclosure of ``₀F₁`` (Arb's ball arithmetic,
through ``symbolic.kernel.special``) and of ``E[g(s)]`` for a smooth ``g`` in ``mpmath.iv``
(composite Simpson rule with the fourth-derivative remainder bounded by interval evaluation,
plus a bound on the truncated tails; ``Γ`` of the normalizer from Arb).

>>> moment("exact", 2, 64), moment("gaussian", 2, 64)
(1/1408, 3/4096)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import mpmath
import sympy
from mpmath import iv

from symbolic.kernel import gamma_interval, hyp0f1_interval

s = sympy.Symbol("s", real=True)
d_ = sympy.Symbol("d", positive=True)
beta_ = sympy.Symbol("beta", positive=True)
k_ = sympy.Symbol("k", integer=True, nonnegative=True)

HALF = sympy.Rational(1, 2)
LAW_NAMES = ("gaussian", "exact")

# Working precision of the interval evaluations (bits): rounding stays far below the
# quadrature's own enclosure width (~1e-6 relative).
IV_PREC = 64
# Composite Simpson panels of the certified quadrature (the panel width scales with the 1/√d
# width of the law, so the relative enclosure width does not grow with d: ~1e-6).
SIMPSON_PANELS = 192
PANELS_PER_BOUND = 4
JET_ORDER = 4  # Taylor degree of the interval jets: Simpson's remainder needs f⁽⁴⁾
# The panels are doubled (at most MAX_REFINEMENTS times) while the enclosure is wider than
# REFINE_ABOVE relative to its midpoint; interval over-estimation of f⁽⁴⁾ is worst at small d.
MAX_REFINEMENTS = 3
REFINE_ABOVE = mpmath.mpf("1e-4")
# Half-width of the integration window in standard deviations (1/√d): the neglected tails
# weigh about exp(−72) and are bounded rigorously.
WINDOW_SDS = 12


@dataclass(frozen=True)
class SimilarityLaw:
    """One law of ``s``: its density (SymPy, in ``s`` and ``d``), support and moments."""

    name: str
    title: str
    density: sympy.Expr
    support: tuple[sympy.Expr, sympy.Expr]


def exact_normalizer(d: sympy.Expr = d_) -> sympy.Expr:
    """``c_d = Γ(d/2) / (√π Γ((d−1)/2))``."""
    return sympy.gamma(d / 2) / (sympy.sqrt(sympy.pi) * sympy.gamma((d - 1) / 2))


LAWS: dict[str, SimilarityLaw] = {
    "gaussian": SimilarityLaw(
        "gaussian",
        "Gaussian approximation s ~ N(0, 1/d)",
        sympy.sqrt(d_ / (2 * sympy.pi)) * sympy.exp(-d_ * s**2 / 2),
        (-sympy.oo, sympy.oo),
    ),
    "exact": SimilarityLaw(
        "exact",
        "exact finite-d law, density ∝ (1 − s²)^((d−3)/2) on [−1, 1]",
        exact_normalizer() * (1 - s**2) ** ((d_ - 3) / 2),
        (sympy.Integer(-1), sympy.Integer(1)),
    ),
}


def law(name: str) -> SimilarityLaw:
    try:
        return LAWS[name]
    except KeyError:
        raise KeyError(f"unknown law {name!r}; valid laws: {', '.join(LAWS)}") from None


def moment(law_name: str, k: int | sympy.Expr, d: int | sympy.Expr = d_) -> sympy.Expr:
    """``E[s^(2k)]`` in closed form (a rational number for integer ``k`` and ``d``)."""
    k, d = sympy.sympify(k), sympy.sympify(d)
    if law_name == "exact":
        return sympy.rf(HALF, k) / sympy.rf(d / 2, k)
    law(law_name)
    return sympy.rf(HALF, k) * (2 / d) ** k


def mgf2(law_name: str, beta: sympy.Expr = beta_, d: sympy.Expr = d_) -> sympy.Expr:
    """``E[exp(2βs)]`` in closed form (``₀F₁`` for the exact law)."""
    beta, d = sympy.sympify(beta), sympy.sympify(d)
    if law_name == "exact":
        return sympy.hyper([], [d / 2], beta**2)
    law(law_name)
    return sympy.exp(2 * beta**2 / d)


# --- numeric (mpmath) -------------------------------------------------------------------


def mp_density(law_name: str, d: int) -> Callable[[mpmath.mpf], mpmath.mpf]:
    """The density as an mpmath function of ``s`` (for ``mpmath.quad`` cross-checks)."""
    if law_name == "exact":
        c = mpmath.gamma(mpmath.mpf(d) / 2) / (
            mpmath.sqrt(mpmath.pi) * mpmath.gamma(mpmath.mpf(d - 1) / 2)
        )
        a = mpmath.mpf(d - 3) / 2
        return lambda x: c * (1 - x * x) ** a if abs(x) < 1 else mpmath.mpf(0)
    law(law_name)
    sd = 1 / mpmath.sqrt(d)
    return lambda x: mpmath.npdf(x, 0, sd)


def quad_expectation(law_name: str, d: int, g: Callable[[mpmath.mpf], mpmath.mpf]) -> mpmath.mpf:
    """``E[g(s)]`` by adaptive mpmath quadrature (numeric, for cross-checks only)."""
    rho = mp_density(law_name, d)
    w = WINDOW_SDS / mpmath.sqrt(d)
    if law_name == "exact":
        lo, hi = -1, 1
        pts = [lo] + ([-w, 0, w] if w < 1 else [0]) + [hi]
    else:
        pts = [-mpmath.inf, -w, 0, w, mpmath.inf]
    return mpmath.quad(lambda x: g(x) * rho(x), pts)


def mp_mgf2(law_name: str, beta: float, d: int) -> mpmath.mpf:
    """``E[exp(2βs)]`` evaluated from the closed form (mpmath)."""
    if law_name == "exact":
        return mp_hyp0f1(mpmath.mpf(d) / 2, mpmath.mpf(beta) ** 2)
    return mpmath.exp(2 * mpmath.mpf(beta) ** 2 / d)


def mp_hyp0f1(b: Any, z: Any) -> mpmath.mpf:
    """``₀F₁(; b; z)`` (``z ≥ 0``) in mpmath, also where its default term budget gives up.

    Between the series and the asymptotic regime (``z`` near ``b²``, e.g. ``b = 750``,
    ``z ≈ 4e7``) ``mpmath.hyp0f1`` stops after 6,000 terms. There, for large ``b``, the
    uniform (Debye) expansion of ``I_ν(νt)``, ``ν = b − 1``, to the term ``u₃/ν³`` is used
    (relative error ~``ν⁻⁴``); for small ``b`` the series is retried with a larger budget.
    Numeric only: certified values come from ``hyp0f1_enclosure``.
    """
    if b - 1 >= DEBYE_FROM and z >= max(b, DEBYE_ABOVE_Z):  # the series: ≳ √z terms
        return _debye_hyp0f1(mpmath.mpf(b), mpmath.mpf(z))
    try:
        return mpmath.hyp0f1(b, z)
    except mpmath.libmp.NoConvergence:
        terms = int(20 * (mpmath.sqrt(abs(z)) + abs(b))) + 10_000
        return mpmath.hyp0f1(b, z, maxterms=terms)


DEBYE_FROM = 50  # order ν from which the Debye expansion's ν⁻⁴ error is below 1e-6
DEBYE_ABOVE_Z = 10**6  # below, the series (≲ 3,000 terms) is exact and fast: 1e-12 cross-checks


def _debye_hyp0f1(b: mpmath.mpf, z: mpmath.mpf) -> mpmath.mpf:
    """``Γ(b) z^((1−b)/2) I_{b−1}(2√z)`` with ``I_ν(νt)`` from Debye's expansion
    (DLMF 10.41.3: ``e^{νη}/(√(2πν)(1 + t²)^{1/4}) Σ_k u_k(p)/ν^k``, ``p = (1 + t²)^{-1/2}``,
    ``η = √(1 + t²) + ln(t/(1 + √(1 + t²)))``; ``u_1..u_3`` from DLMF 10.41.10)."""
    nu = b - 1
    t = 2 * mpmath.sqrt(z) / nu
    r = mpmath.sqrt(1 + t * t)
    p = 1 / r
    eta = r + mpmath.log(t / (1 + r))
    u = [
        1,
        (3 * p - 5 * p**3) / 24,
        (81 * p**2 - 462 * p**4 + 385 * p**6) / 1152,
        (30375 * p**3 - 369603 * p**5 + 765765 * p**7 - 425425 * p**9) / 414720,
    ]
    series = sum(c / nu**k for k, c in enumerate(u))
    log_i = nu * eta - mpmath.log(2 * mpmath.pi * nu) / 2 - mpmath.log(r) / 2 + mpmath.log(series)
    return mpmath.exp(mpmath.loggamma(b) + (1 - b) / 2 * mpmath.log(z) + log_i)


# --- certified (mpmath.iv) --------------------------------------------------------------


@contextmanager
def iv_precision(bits: int = IV_PREC) -> Iterator[None]:
    """Run the body with ``mpmath.iv`` at ``bits`` of working precision (restored after)."""
    previous = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = previous


def hyp0f1_enclosure(b: int | sympy.Rational, x: iv.mpf) -> iv.mpf:
    """A certified interval containing ``₀F₁(; b; x)`` for ``b = d/2 > 0`` and every ``x ≥ 0``
    in the interval ``x``, at ``IV_PREC`` bits: the kernel's Arb enclosure
    (``symbolic.kernel.special.hyp0f1``; ``SeriesTooLong`` where Arb gives no finite ball)."""
    b = sympy.Rational(b)
    if b <= 0 or (2 * b).q != 1:
        raise ValueError(f"b={b}: the enclosure needs b = d/2 for an integer d >= 1")
    with iv_precision():
        x = iv.mpf(x)
        if x.a < 0:
            raise ValueError(f"x={x}: the enclosure needs x >= 0")
        return hyp0f1_interval(iv.mpf(int(2 * b)) / 2, x)  # d/2 is a binary number: exact


def _iv_namespace() -> dict:
    """Names used by ``sympy.lambdify(..., 'mpmath')`` code, mapped to interval functions."""
    return {
        "exp": iv.exp,
        "log": iv.log,
        "sqrt": iv.sqrt,
        "pi": iv.pi,
        "mpf": iv.mpf,
        "gamma": gamma_interval,
    }


class Jet:
    """A Taylor polynomial of degree ``JET_ORDER`` with interval coefficients.

    Evaluating a function on ``Jet.variable(box)`` gives, for every ``ξ`` in the box,
    enclosures of ``f⁽ᵏ⁾(ξ)/k!`` (interval automatic differentiation): the recurrences below
    are the derivatives of products, quotients, ``exp`` and real powers. Only what the
    integrands of this module need is implemented.
    """

    __slots__ = ("c",)

    def __init__(self, coefficients: list) -> None:
        self.c = coefficients

    @classmethod
    def variable(cls, box: iv.mpf) -> Jet:
        return cls([box, iv.mpf(1)] + [iv.mpf(0)] * (JET_ORDER - 1))

    @staticmethod
    def _lift(x: object) -> Jet:
        return x if isinstance(x, Jet) else Jet([iv.mpf(x)] + [iv.mpf(0)] * JET_ORDER)

    def __add__(self, other: object) -> Jet:
        o = self._lift(other)
        return Jet([a + b for a, b in zip(self.c, o.c, strict=True)])

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return Jet([-a for a in self.c])

    def __sub__(self, other: object) -> Jet:
        return self + (-self._lift(other))

    def __rsub__(self, other: object) -> Jet:
        return self._lift(other) + (-self)

    def __mul__(self, other: object) -> Jet:
        if not isinstance(other, Jet):
            return Jet([a * other for a in self.c])
        a, b = self.c, other.c
        return Jet(
            [sum((a[j] * b[k - j] for j in range(k + 1)), iv.mpf(0)) for k in range(JET_ORDER + 1)]
        )

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Jet:
        if not isinstance(other, Jet):
            return Jet([a / other for a in self.c])
        a, b, q = self.c, other.c, []
        for k in range(JET_ORDER + 1):
            q.append((a[k] - sum((b[j] * q[k - j] for j in range(1, k + 1)), iv.mpf(0))) / b[0])
        return Jet(q)

    def __rtruediv__(self, other: object) -> Jet:
        return self._lift(other) / self

    def __pow__(self, r: object) -> Jet:
        if isinstance(r, Jet):  # a constant exponent, lifted by the lambdified code
            r = r.c[0]
        if isinstance(r, int) or (r.delta == 0 and r.a >= 0 and r.a == int(r.a)):
            out = self._lift(1)
            for _ in range(r if isinstance(r, int) else int(r.a)):
                out = out * self
            return out
        a = self.c
        if not a[0].a > 0:  # a real power of a possibly non-positive number: unbounded
            return Jet([iv.mpf([-mpmath.inf, mpmath.inf])] * (JET_ORDER + 1))
        p = [a[0] ** r]
        for k in range(1, JET_ORDER + 1):
            p.append(sum(((r + 1) * j - k) * a[j] * p[k - j] for j in range(1, k + 1)) / (k * a[0]))
        return Jet(p)

    def exp(self) -> Jet:
        a, e = self.c, [iv.exp(self.c[0])]
        for k in range(1, JET_ORDER + 1):
            e.append(sum((j * a[j] * e[k - j] for j in range(1, k + 1)), iv.mpf(0)) / k)
        return Jet(e)


def _exp(x: object) -> object:
    return x.exp() if isinstance(x, Jet) else iv.exp(x)


@cache
def _iv_functions(g: sympy.Expr, law_name: str, d: int) -> tuple[Callable, Callable]:
    """Interval versions of the integrand ``g(s)·ρ(s)`` and of its fourth derivative."""
    if law_name == "exact":  # the normalizer is applied separately, as an interval
        rho = (1 - s**2) ** sympy.Rational(d - 3, 2)
    else:
        rho = sympy.exp(-sympy.Integer(d) * s**2 / 2)
    integrand = sympy.lambdify(s, g * rho, modules=[_iv_namespace(), "mpmath"])
    # the same code on jets: constants become constant jets (iv.mpf cannot multiply a Jet)
    jet_integrand = sympy.lambdify(
        s, g * rho, modules=[{**_iv_namespace(), "exp": _exp, "mpf": Jet._lift}, "mpmath"]
    )

    def fourth(box: iv.mpf) -> iv.mpf:
        return jet_integrand(Jet.variable(box)).c[4] * 24

    return integrand, fourth


def _iv_normalizer(law_name: str, d: int) -> iv.mpf:
    if law_name == "exact":
        return gamma_interval(iv.mpf(d) / 2) / (iv.sqrt(iv.pi) * gamma_interval(iv.mpf(d - 1) / 2))
    return iv.sqrt(iv.mpf(d) / (2 * iv.pi))


@cache  # the same enclosure is asked for by the proofs, the Monte Carlo's theory and tests
def certified_expectation(
    law_name: str, d: int, g: sympy.Expr, bound: sympy.Expr, panels: int = SIMPSON_PANELS
) -> iv.mpf:
    """A certified interval containing ``E[g(s)]`` under the law, for ``d ≥ 3``.

    ``g`` is a smooth SymPy expression in ``s`` and ``bound`` an expression ``≥ |g(s)|`` of the
    form ``c·s^(2j)`` used to bound the neglected tails. On the window ``|s| ≤ T``
    (``T = 12/√d``, capped at 1) the composite Simpson rule is evaluated in interval arithmetic
    and each panel's remainder ``−h⁵/2880 · g⁽⁴⁾(ξ)`` is enclosed by evaluating the fourth
    derivative of the integrand over the whole panel. Outside the window:

    * exact law — the density decreases in ``|s|``, so the tails weigh at most
      ``2 (1 − T) · max|bound| · c_d (1 − T²)^((d−3)/2)``;
    * Gaussian — for ``s ≥ T``, ``e^(−d s²/2) ≤ e^(−d T s/2)`` and
      ``∫_T^∞ s^n e^(−a s) ds`` has the closed form ``e^(−aT) Σ_j n!/(n−j)! T^(n−j)/a^(j+1)``.
    """
    if d < 3:
        raise ValueError(f"d={d}: the certified quadrature needs d >= 3")
    f, f4 = _iv_functions(sympy.sympify(g), law_name, d)
    with iv_precision():
        # The window end is a float64 number T (rounded down from 12/√d, or exactly 1), so the
        # nodes -T + 2T·j/(2·panels) are exact rationals, enclosed by iv.mpf.
        T = sympy.Rational(float(mpmath.mpf(WINDOW_SDS) / mpmath.sqrt(d)))
        if law_name == "exact":
            T = min(T, sympy.Integer(1))
        total = _simpson_enclosure(f, f4, T, panels)
        for _ in range(MAX_REFINEMENTS):
            if total.delta <= REFINE_ABOVE * abs(total.mid):
                break
            panels *= 2
            total = _simpson_enclosure(f, f4, T, panels)
        total *= _iv_normalizer(law_name, d)
        total += iv.mpf([0, 1]) * _tail_bound(law_name, d, _iv_rational(T), bound)
        return total


def _simpson_enclosure(f: Callable, f4: Callable, T: sympy.Rational, panels: int) -> iv.mpf:
    """Enclosure of ``∫_{−T}^{T} f`` from ``panels`` Simpson panels.

    Each panel's integral lies in ``Simpson − h⁵/2880·f⁽⁴⁾(ξ)``; ``f⁽⁴⁾`` is enclosed over
    groups of ``PANELS_PER_BOUND`` panels at once (its interval evaluation is the costly part).
    Where that enclosure is unbounded (next to ``s = ±1`` for even ``d``, where the base of the
    power ``(1 − s²)^((d−3)/2)`` reaches 0) the cruder ``h·f(panel)`` is used.
    """
    nodes = [_iv_rational(-T + T * j / panels) for j in range(2 * panels + 1)]
    values = [f(x) for x in nodes]
    h = _iv_rational(2 * T / panels)
    total = iv.mpf(0)
    for first in range(0, panels, PANELS_PER_BOUND):
        group = range(first, min(first + PANELS_PER_BOUND, panels))
        box = iv.mpf([nodes[2 * group[0]].a, nodes[2 * group[-1] + 2].b])
        remainder = f4(box)
        bounded = remainder.a != -mpmath.inf and remainder.b != mpmath.inf
        for i in group:
            lo, mid, hi = 2 * i, 2 * i + 1, 2 * i + 2
            if bounded:
                simpson = h / 6 * (values[lo] + 4 * values[mid] + values[hi])
                total += simpson - h**5 / 2880 * remainder
            else:
                total += h * f(iv.mpf([nodes[lo].a, nodes[hi].b]))
    return total


def _iv_rational(q: sympy.Rational) -> iv.mpf:
    """The interval enclosing the rational ``q``."""
    q = sympy.Rational(q)
    return iv.mpf(q.p) / q.q


def _tail_bound(law_name: str, d: int, T: iv.mpf, bound: sympy.Expr) -> iv.mpf:
    coeff, power = sympy.Poly(bound, s).terms()[0][1], sympy.Poly(bound, s).degree()
    coeff = iv.mpf(sympy.Rational(coeff).p) / sympy.Rational(coeff).q
    if law_name == "exact":
        if T.a >= 1:
            return iv.mpf(0)
        rho_T = _iv_normalizer("exact", d) * (1 - T * T) ** (iv.mpf(d - 3) / 2)
        return 2 * (1 - T) * coeff * rho_T  # |s| ≤ 1, so |bound| ≤ coeff there
    a = iv.mpf(d) * T / 2
    n = power
    series = iv.mpf(0)
    falling = iv.mpf(1)
    for j in range(n + 1):
        series += falling * T ** (n - j) / a ** (j + 1)
        falling *= n - j
    return 2 * coeff * _iv_normalizer("gaussian", d) * iv.exp(-a * T) * series
