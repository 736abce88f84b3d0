"""What symmetry breaking buys, measured as memory (docs/theory.md C1).

Two stores of ``M`` pairs with tied query/key vectors ``q_m = k_m``, queried with a stored key:

* ``sym_<σ>`` — the symmetric rank-1 form, score ``(x·q)(x·k) = s²``, weights ``f(s) = σ(s²)``;
* ``gated_<σ>`` — the gated form, weights ``f(s) = σ(s)·s``.

As for every weight store, ``M* = 1 + f(1)²/E[f(s)²]`` (lemma ``isr-weights``). ``E[f²]`` is
split by the sign of ``s``: ``E[f²] = E[f²; s > 0] + E[f²; s < 0]`` and, the law being even,
``E[f(s)²; s < 0] = ∫_0 f(−t)² ρ(t) dt``. ``σ(s²)`` is even in ``s``, so anti-aligned keys
(``s ≈ −1``) weigh exactly what aligned ones do: their share of the interference is 1/2 for
every σ, and a key ``−k_i`` is recalled as strongly as ``k_i`` itself.

Closed forms: when ``f(±t)²`` is a polynomial ``P±(t)`` on ``0 < t ≤ 1`` (every ReLU power,
leaky ReLU, |z|, identity, and — on the exact law's support — hardtanh, ReLU6, hard-swish,
ELU/SELU of ``s²``), ``E[f²] = ½ Σ_n (c⁺_n + c⁻_n) E|s|^n`` with the absolute moments

    exact law:  E|s|^n = Γ(d/2) Γ((n+1)/2) / (√π Γ((d+n)/2)),
    Gaussian:   E|s|^n = (2/d)^(n/2) Γ((n+1)/2) / √π.

The polynomials are *proposed* here by exact interpolation at rational points; the kernel
checks ``∀ t ∈ (0, 1]: f(±t)² = P±(t)`` (and on ``(0, ∞)`` for the Gaussian law) in
``proofs.tied_memory``. Where ``P±`` holds on ``(0, 1]`` only, the exact law (supported on
``[−1, 1]``) has the closed form and the Gaussian law, which also weighs ``|s| > 1`` (at d = 4
hardtanh's tails move M* by 27 %), a numeric value. Other activations get a numeric value
(Gauss–Legendre on each half-line, panels split at the weight's kinks, not certified).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import sympy

from symbolic.activations import ACTIVATIONS
from symbolic.memory.similarity_law import LAW_NAMES, WINDOW_SDS, d_, moment, s
from symbolic.memory.stores import STORES, TIED_FORMS, MemoryStore

t = sympy.Symbol("t", real=True)  # a point of the half-line: s = ±t
# Proposal of a polynomial f(±t)²: exact interpolation through the first MAX_DEGREE + 1 of
# these rational points in (0, 1), confirmed at the rest (a proposal only: the kernel checks).
PROPOSAL_POINTS = tuple(sympy.Rational(j, 17) for j in range(1, 17))
MAX_DEGREE = 12
# A polynomial on (0, 1] is tried on all of (0, ∞) only if it also matches at these points.
BEYOND_POINTS = tuple(sympy.Integer(x) for x in (2, 3, 5, 8, 13, 100))
GL_NODES = 128  # Gauss–Legendre nodes per half-line of the numeric quadrature
SIDES = (("plus", 1), ("minus", -1))  # s = t and s = −t


@cache
def abs_moment(law: str, n: int, d: sympy.Expr = d_) -> sympy.Expr:
    """``E|s|^n`` in closed form under the law (``E[s^(2k)]`` for even ``n``)."""
    if n % 2 == 0:
        return moment(law, n // 2, d)
    n, d = sympy.Integer(n), sympy.sympify(d)
    half = (n + 1) / 2
    if law == "exact":
        return sympy.gammasimp(
            sympy.gamma(d / 2)
            * sympy.gamma(half)
            / (sympy.sqrt(sympy.pi) * sympy.gamma((d + n) / 2))
        )
    return (2 / d) ** (n / 2) * sympy.gamma(half) / sympy.sqrt(sympy.pi)


def propose_square(f: sympy.Expr, sign: int) -> sympy.Expr | None:
    """A polynomial ``P(t)`` with ``f(sign·t)² = P(t)`` at every proposal point, or None."""
    values = []
    for p in PROPOSAL_POINTS:
        v = sympy.sympify(f.xreplace({s: sign * p}) ** 2)  # a rational point: no subs needed
        if not v.is_Rational:
            return None
        values.append(v)
    fit = _interpolate(PROPOSAL_POINTS[: MAX_DEGREE + 1], values[: MAX_DEGREE + 1])
    rest = zip(PROPOSAL_POINTS[MAX_DEGREE + 1 :], values[MAX_DEGREE + 1 :], strict=True)
    if any(fit.xreplace({t: p}) != v for p, v in rest):
        return None
    return fit


def _interpolate(xs: tuple, ys: list) -> sympy.Expr:
    """The polynomial in ``t`` through the rational points, by Newton's divided differences
    in exact fractions (SymPy's ``interpolate`` expands symbolically: ~50× slower)."""
    xs, coef = (
        [Fraction(int(x.p), int(x.q)) for x in xs],
        [Fraction(int(y.p), int(y.q)) for y in ys],
    )
    for j in range(1, len(xs)):
        for i in range(len(xs) - 1, j - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (xs[i] - xs[i - j])
    poly = [Fraction(0)] * len(xs)  # monomial coefficients, low degree first (Horner)
    for c, x in zip(reversed(coef), reversed(xs), strict=True):
        poly = [c + (poly[0] * -x if poly else 0)] + [
            poly[k - 1] - x * poly[k] if k < len(poly) else poly[k - 1] for k in range(1, len(poly))
        ]
    return sum(
        (sympy.Rational(c.numerator, c.denominator) * t**k for k, c in enumerate(poly) if c),
        sympy.Integer(0),
    )


def holds_beyond(f: sympy.Expr, sign: int, poly: sympy.Expr) -> bool:
    """Does ``P`` also match ``f(sign·t)²`` at points past 1 (worth a kernel check on (0, ∞))?"""
    return all(
        sympy.sympify(f.xreplace({s: sign * p}) ** 2 - poly.xreplace({t: p})) == 0
        for p in BEYOND_POINTS
    )


@dataclass(frozen=True)
class TiedLaw:
    """One law's capacity of a tied store (``capacity`` None: undefined, ``reason`` says why)."""

    law: str
    capacity: float | None
    expr: sympy.Expr | None  # M* in closed form in d; None for numeric values
    second_moment: sympy.Expr | None  # E[(f/f(1))²] in closed form in d
    kind: str  # "closed form" | "numeric" | "undefined"
    anti_aligned_share: float | None  # E[f²; s < 0] / E[f²]
    reason: str = ""


@dataclass(frozen=True)
class TiedForm:
    """What the capacity of a tied store rests on: the half-line polynomials, if any."""

    store: MemoryStore
    plus: sympy.Expr | None  # f(t)² on 0 < t ≤ 1, as a polynomial in t
    minus: sympy.Expr | None  # f(−t)² on 0 < t ≤ 1
    everywhere: bool  # the polynomials also hold on t > 0 (proposal; the kernel decides)

    @property
    def closed(self) -> bool:
        return self.plus is not None and self.minus is not None

    @property
    def signal(self) -> sympy.Expr:
        """``f(1) = σ(1)`` (both forms)."""
        return ACTIVATIONS[self.store.activation].sympy_at(sympy.Integer(1))


@cache
def tied_form(name: str) -> TiedForm:
    store = STORES[name]
    f = store.weight
    plus, minus = propose_square(f, 1), propose_square(f, -1)
    everywhere = (
        plus is not None
        and minus is not None
        and holds_beyond(f, 1, plus)
        and holds_beyond(f, -1, minus)
    )
    return TiedForm(store, plus, minus, everywhere)


def half_expectation(poly: sympy.Expr, law: str) -> sympy.Expr:
    """``∫_0 P(t) ρ(t) dt = ½ Σ_n c_n E|s|^n`` for a polynomial ``P`` (the law is even)."""
    total = sympy.Integer(0)
    for (n,), c in sympy.Poly(poly, t).terms():
        total += c * abs_moment(law, n) / 2
    return total


@cache
def both_halves(form: TiedForm, law: str) -> sympy.Expr:
    """``∫_0 (f(t)² + f(−t)²) ρ(t) dt`` from the summed polynomial: odd powers cancel before
    any Γ appears."""
    return half_expectation(sympy.expand(form.plus + form.minus), law)


@cache
def closed_law(form: TiedForm, law: str) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """``(M*, E[f²; s > 0], E[f²; s < 0])`` in closed form in ``d`` (normalized by f(1)²)."""
    at_one = form.signal**2
    plus, minus = (half_expectation(p, law) / at_one for p in (form.plus, form.minus))
    return sympy.cancel(1 + at_one / both_halves(form, law)), plus, minus


def numeric_halves(store: MemoryStore, law: str, d: int) -> tuple[float, float]:
    """``E[(f/f(1))²; s > 0]`` and ``…; s < 0`` by Gauss–Legendre (numeric, not certified)."""
    halves = []
    for _, sign in SIDES:

        def y2(nodes: np.ndarray, sign: int = sign) -> np.ndarray:
            y = store.normalized_weight(sign * nodes, 1.0)
            return y * y

        halves.append(half_line_quadrature(y2, law, d, kinks(store.weight, sign)))
    return halves[0], halves[1]


def half_line_quadrature(y2, law: str, d: int, breaks: tuple[float, ...] = ()) -> float:
    """``∫_0^T y2(t) ρ(t) dt``, ``T = min(1, 12/√d)`` (exact law) or ``12/√d`` (Gaussian; the
    tails beyond weigh ~e^(−72)), by Gauss–Legendre on each panel between the kinks ``breaks``
    of ``y2`` (a kink inside a panel costs the rule its accuracy). Under the exact law the
    variable is ``t = sin θ``: the density ``(1 − t²)^((d−3)/2)`` has a square-root singularity
    at ``t = 1`` for even d (at d = 4 plain nodes in t missed by 6·10⁻⁷), and in θ the
    integrand ``cos^(d−2) θ · y2(sin θ)`` is smooth."""
    x, w = _legendre()
    end = min(1.0, WINDOW_SDS / math.sqrt(d)) if law == "exact" else WINDOW_SDS / math.sqrt(d)
    cuts = [0.0, *sorted(b for b in set(breaks) if 0 < b < end), end]
    total = 0.0
    if law == "exact":
        log_c = math.lgamma(d / 2) - math.lgamma((d - 1) / 2) - 0.5 * math.log(math.pi)
        for a, b in itertools.pairwise(cuts):
            lo, hi = math.asin(a), math.asin(b)
            theta = (x + 1) * (hi - lo) / 2 + lo
            cos = np.cos(theta)
            rho = np.exp(log_c + (d - 2) * np.log(cos))  # ρ(sin θ)·cos θ
            total += float(np.sum(w * (hi - lo) / 2 * rho * y2(np.sin(theta))))
        return total
    for a, b in itertools.pairwise(cuts):
        nodes = (x + 1) * (b - a) / 2 + a
        rho = math.sqrt(d / (2 * math.pi)) * np.exp(-d * nodes * nodes / 2)
        total += float(np.sum(w * (b - a) / 2 * rho * y2(nodes)))
    return total


@cache
def kinks(f: sympy.Expr, sign: int) -> tuple[float, ...]:
    """The points ``t > 0`` where ``f(±t)`` may have a kink: real roots of the differences of
    Max/Min arguments, of Abs arguments and of Piecewise conditions that are polynomials in s
    (for the quadrature's panels only; a kink missed costs accuracy, never a verdict)."""
    differences = []
    for atom in f.atoms(sympy.Max, sympy.Min):
        differences += [a - b for i, a in enumerate(atom.args) for b in atom.args[i + 1 :]]
    differences += [a.args[0] for a in f.atoms(sympy.Abs)]
    for pw in f.atoms(sympy.Piecewise):
        differences += [
            c.lhs - c.rhs for _, c in pw.args if isinstance(c, sympy.core.relational.Relational)
        ]
    out = set()
    for g in (piece for diff in differences for piece in _pieces(diff)):
        try:
            poly = sympy.Poly(sympy.expand(g), s)
        except sympy.PolynomialError:
            continue
        if poly.degree() < 1:
            continue
        out |= {sign * float(r) for r in poly.real_roots() if sign * float(r) > 0}
    return tuple(sorted(out))


def _pieces(g: sympy.Expr, limit: int = 64) -> list[sympy.Expr]:
    """``g`` with each Max/Min inside replaced by each of its arguments (hardtanh's
    ``max(−1, min(1, s))`` gives ``−1 − 1`` and ``−1 − s``: its kink at s = −1)."""
    inner = sorted(g.atoms(sympy.Max, sympy.Min), key=sympy.default_sort_key)
    if not inner:
        return [g]
    out: list[sympy.Expr] = []
    for a in inner[0].args:
        out += _pieces(g.xreplace({inner[0]: a}), limit)
        if len(out) >= limit:
            break
    return out[:limit]


@cache
def _legendre() -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(GL_NODES)


@cache
def tied_law(name: str, law: str, d: int) -> TiedLaw:
    """The capacity of tied store ``name`` under ``law`` at dimension ``d``."""
    form = tied_form(name)
    if form.signal.is_zero:
        return TiedLaw(
            law,
            None,
            None,
            None,
            "undefined",
            None,
            "the signal f(1) = σ(1) is 0: every recall is pure interference",
        )
    if form.closed and (law == "exact" or form.everywhere):
        # the Gaussian law also weighs |s| > 1, where a polynomial of |s| ≤ 1 no longer is f²
        # (hardtanh at d = 4: 27 % off): there the quadrature of f itself below
        expr, plus, minus = closed_law(form, law)
        kind = "closed form"
        at_d = {d_: d}
        share = float((minus / (plus + minus)).subs(at_d))
        # E[(f/f(1))²] = 1/(M* − 1), cancelled from the sum itself (4× cheaper, same form)
        moment2 = sympy.cancel(both_halves(form, law) / form.signal**2)
        return TiedLaw(law, float(expr.subs(at_d)), expr, moment2, kind, share)
    plus, minus = numeric_halves(form.store, law, d)
    return TiedLaw(law, 1 + 1 / (plus + minus), None, None, "numeric", minus / (plus + minus))


def tied_table(d: int) -> list[dict]:
    """Every activation × form × law at dimension ``d`` (rows for the table and JSON)."""
    rows = []
    for act in ACTIVATIONS:
        for form_name in TIED_FORMS:
            name = f"{form_name}_{act}"
            laws = {law: tied_law(name, law, d) for law in LAW_NAMES}
            rows.append(
                {
                    "store": name,
                    "activation": act,
                    "form": form_name,
                    "weights": STORES[name].weight_text,
                    **{law: v.capacity for law, v in laws.items()},
                    **{f"kind_{law}": v.kind for law, v in laws.items()},
                    **{
                        f"formula_{law}": None if v.expr is None else sympy.sstr(v.expr)
                        for law, v in laws.items()
                    },
                    "anti_aligned_share": laws["exact"].anti_aligned_share,
                    "reason": laws["exact"].reason,
                }
            )
    return rows
