"""Decision procedures for an activation σ (a SymPy expression in ``activations.z``).

Untrusted: they *propose* — a witness point, the degree p, a simpler form of σ — and the kernel
decides the property's formula itself:

* ``decide_linear``: ``∀z: σ(z) = σ(1)·z`` (docs/theory.md A6), refuted by
  ``kernel.counterexample`` at a certified point, or proved by ``kernel.check_identity`` (cases
  z > 0, z < 0, z = 0).
* ``decide_homogeneity``: docs/theory.md A7's complete procedure. ``σ(u) ≠ 0`` (u = ±1) and
  α = 2 force ``2^p = σ(2u)/σ(u)``; ``kernel.check_homogeneous`` proves
  ``∀α > 0, z: σ(αz) = α^p σ(z)`` for that p, or ``kernel.refute_homogeneous`` refutes every
  degree at a certified point. Undecided
  premises give ``unknown``, never a refutation. σ ≡ 0 is homogeneous of every degree.

Witnesses are found by trying points (simple rationals, scaled copies of σ's own constants, the
roots of its switching arguments) — the search is never the proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import mpmath
import sympy
from sympy.polys.polyerrors import BasePolynomialError

from symbolic.activations import z
from symbolic.engine import PROVED, Step, Verdict
from symbolic.errors import InvalidExpression
from symbolic.kernel import DEGREE as P
from symbolic.kernel import (
    MAX_BITS,
    Fact,
    check_homogeneous,
    check_identity,
    check_nonzero,
    counterexample,
    define,
    homogeneity_formula,
    negate,
    put,
    refute_homogeneous,
    undecided,
    zero_verdict,
)
from symbolic.limits import BudgetExceeded, current_limits, deadline
from symbolic.steps import certified_sign, certify_nonzero

t = sympy.Symbol("t", positive=True)  # a point of the open half-line z > 0

# Points tried first: simple rationals of both signs and several scales.
BASE_POINTS = tuple(
    sympy.Rational(v)
    for v in (
        "2",
        "-1",
        "-2",
        "1/2",
        "-1/2",
        "3",
        "-3",
        "1/3",
        "0",
        "10",
        "-10",
        "1/10",
        "-1/10",
        "7/3",
        "-7/3",
        "100",
        "-100",
        "1/1000",
        "-1/1000",
    )
)
SEARCH_BITS = 256  # first-pass precision of the witness search
SECOND_PASS_POINTS = 6  # points retried at full precision (differences below 2^-256)
MAX_DERIVED_POINTS = 40  # points made from σ's own constants (kinks, thresholds)
ANALYSIS_TIMEOUT_S = 8.0  # each decision (linearity, homogeneity) of one activation; a smaller
# SymPy limit in force (--sympy-timeout) caps it too: the searches are SymPy work like any other
CANONICAL_TIMEOUT_S = 5.0  # SymPy's simplify of σ itself, tried only when undecided


def value_at(expr: sympy.Expr, point: sympy.Expr) -> sympy.Expr:
    """σ(point), checked to be a real number (bad activations are user errors); computed once
    per (σ, point): the decisions of one analysis ask for σ(1) and σ(−1) several times."""
    key = (expr, point, sympy.core.parameters.global_parameters.evaluate)
    if key not in _VALUES:
        if len(_VALUES) >= 1024:
            _VALUES.pop(next(iter(_VALUES)))
        _VALUES[key] = _value_at(expr, point)
    return _VALUES[key]


_VALUES: dict = {}


def _value_at(expr: sympy.Expr, point: sympy.Expr) -> sympy.Expr:
    try:
        value = put(expr, {z: point})
        undefined = value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo)
        not_real = value.is_real is False or value.has(sympy.I)
    except (ValueError, TypeError, OverflowError, MemoryError, RecursionError) as exc:
        raise InvalidExpression(
            f"the activation cannot be evaluated at x = {point} "
            f"({type(exc).__name__}); simplify it or bound its size"
        ) from None
    if undefined:
        raise InvalidExpression(f"the activation is undefined at x = {point}")
    if not_real:
        raise InvalidExpression(f"the activation is not real-valued at x = {point}")
    return value


def _decades_from_one(c: sympy.Rational) -> tuple:
    """``|log10 c|``, then ``c``: an order for constants in which ``c`` and ``1/c`` (equally far
    from 1, which SymPy cannot order symbolically) come one after the other."""
    distance = abs(mpmath.log10(mpmath.mpf(int(c.p))) - mpmath.log10(mpmath.mpf(int(c.q))))
    return float(distance), c


def candidate_points(expr: sympy.Expr) -> Iterator[sympy.Rational]:
    """Base points, σ's kinks and the points halfway between adjacent kinks, then points made
    from σ's own rational constants c: ±c, ±c/2, ±2c, ±(c+1), ±3c/2, ±1/c, and midpoints
    between two constants (a bump at or between thresholds is found)."""
    seen: set[sympy.Expr] = set()
    for p in BASE_POINTS:
        seen.add(p)
        yield p
    for p in chain(kink_points(expr), kink_midpoints(expr)):  # where a max/min/abs/piecewise
        if p not in seen:  # switches, and between two such points: bumps live there
            seen.add(p)
            yield p
    constants = sorted(
        {abs(a) for a in expr.atoms(sympy.Rational) if a != 0 and abs(a) != 1},
        key=_decades_from_one,
    )
    derived = [
        q for c in constants for q in (c, c / 2, 2 * c, c + 1, c * sympy.Rational(3, 2), 1 / c)
    ]  # 1/c: the scale at which σ(c·x) changes (x·erf(10⁶x) is x·erf(1) at 10⁻⁶, x beyond)
    derived += [(c1 + c2) / 2 for i, c1 in enumerate(constants) for c2 in constants[i + 1 :]]
    count = 0
    for p in derived:
        for q in (p, -p):
            if q not in seen and count < MAX_DERIVED_POINTS:
                seen.add(q)
                count += 1
                yield q


MAX_KINK_POINTS = 16  # roots of switching arguments tried as witness points
KINK_TIMEOUT_S = 2.0


def _switching_arguments(expr: sympy.Expr) -> list[sympy.Expr]:
    """Expressions in z whose sign decides a branch: Abs/sign/Heaviside arguments, differences
    of Max/Min arguments, and Piecewise conditions."""
    found = []
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, (sympy.Abs, sympy.sign, sympy.Heaviside)):
            found.append(node.args[0])
        elif isinstance(node, (sympy.Max, sympy.Min)):
            found += [a - b for i, a in enumerate(node.args) for b in node.args[i + 1 :]]
        elif isinstance(node, sympy.Piecewise):
            found += [
                c.lhs - c.rhs
                for _, c in node.args
                if isinstance(c, sympy.core.relational.Relational)
            ]
    return [a for a in found if a.has(z)]


ROOT_STARTS = tuple(range(-10, 11))  # starting points of the numeric root search
ROOT_DIGITS = 40  # a numeric root becomes a rational this close to it: far inside a 1e-9 tent


def _numeric_roots(arg: sympy.Expr) -> list[sympy.Rational]:
    """Rationals within 1e-30 of real roots of ``arg`` that SymPy cannot solve in closed form.

    Only candidate points: a witness found there is still certified exactly or by intervals.
    """
    found: list[sympy.Rational] = []
    with mpmath.workdps(ROOT_DIGITS + 10):
        f = numeric_function(arg)
        for start in ROOT_STARTS:
            try:
                root = mpmath.findroot(f, mpmath.mpf(start), tol=mpmath.mpf(10) ** -ROOT_DIGITS)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                continue
            if mpmath.im(root) == 0:
                q = sympy.Rational(mpmath.nstr(mpmath.re(root), ROOT_DIGITS))
                if all(abs(q - other) > sympy.Rational(1, 10**12) for other in found):
                    found.append(q)
    return found


def numeric_function(arg: sympy.Expr):
    """``arg`` as an mpmath function of z (by substitution: no code generation)."""

    def f(x):
        value = arg.evalf(ROOT_DIGITS + 10, subs={z: sympy.Float(x, ROOT_DIGITS + 10)})
        return mpmath.mpf(str(value)) if value.is_real else mpmath.mpc(complex(value))

    return f


def kink_points(expr: sympy.Expr) -> list[sympy.Expr]:
    """Real roots (exact closed forms) of the switching arguments of σ, at most a few
    (computed once per σ: every search of one analysis asks for them)."""
    key = (expr, current_limits())
    if key not in _KINKS:
        if len(_KINKS) >= 256:
            _KINKS.pop(next(iter(_KINKS)))
        _KINKS[key] = _kink_points(expr)
    return list(_KINKS[key])


_KINKS: dict = {}


def _kink_points(expr: sympy.Expr) -> list[sympy.Expr]:
    points: list[sympy.Expr] = []
    try:
        with deadline(KINK_TIMEOUT_S):
            for arg in _switching_arguments(expr):
                roots = sympy.solveset(arg, z, domain=sympy.S.Reals)
                if not isinstance(roots, sympy.FiniteSet):
                    roots = _numeric_roots(arg)
                for r in roots:
                    if r.is_real and r.is_finite and r not in points:
                        points.append(r)
                if len(points) >= MAX_KINK_POINTS:
                    break
    except (BudgetExceeded, NotImplementedError, TypeError, ValueError, RecursionError):
        pass
    return points[:MAX_KINK_POINTS]


MIDPOINT_DIGITS = 40  # a midpoint between two kinks, as a rational this close to it


def kink_midpoints(expr: sympy.Expr) -> list[sympy.Rational]:
    """Rationals halfway between adjacent kinks of σ: a bump where a switching argument that no
    closed form solves is positive between two of its numeric roots (``max(0, −cos(7x/3) −
    0.9999)``, 0.012 wide at 3π/7) holds no simple rational and no kink, only the points
    between them. Candidate points only: a witness found there is certified like any other."""
    found: list[sympy.Rational] = []
    try:
        with mpmath.workdps(MIDPOINT_DIGITS + 10):
            values = sorted(
                {mpmath.mpf(str(sympy.N(k, MIDPOINT_DIGITS + 10))) for k in kink_points(expr)}
            )
            for lo, hi in zip(values, values[1:], strict=False):
                mid = sympy.Rational(mpmath.nstr((lo + hi) / 2, MIDPOINT_DIGITS))
                if mid not in found:
                    found.append(mid)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return []
    return found[:MAX_KINK_POINTS]


def find_witness(
    difference: sympy.Expr,
    points: Iterator[sympy.Rational],
    variable: sympy.Symbol = z,
    hairline: Callable[[], Sequence[sympy.Expr]] = tuple,
) -> tuple[sympy.Rational, Verdict] | None:
    """The first point where ``difference`` is certified nonzero, with its certificate.

    A first pass stops at ``SEARCH_BITS`` so that points where the difference is exactly 0 are
    cheap; a second pass goes to the full precision for differences that are nonzero by a hair,
    at the first few points and at those ``hairline()`` gives (σ's kinks: a bump between thresholds
    1e−174 apart is that high only there).
    """
    tried: list[tuple[sympy.Rational, sympy.Expr]] = []
    for p in points:  # first pass, lazily: most witnesses are among the first points
        try:
            value = put(difference, {variable: p})
        except (ZeroDivisionError, ValueError, TypeError):
            continue
        if value.has(sympy.zoo, sympy.nan, sympy.I):
            continue
        verdict = certify_nonzero(value, max_bits=SEARCH_BITS)
        if verdict.status == PROVED:
            return p, verdict
        tried.append((p, value))
    kinks = hairline()  # asked only now: most witnesses are found in the first pass
    second = tried[:SECOND_PASS_POINTS] + [(p, v) for p, v in tried if p in kinks]
    for p, value in dict(second).items():
        verdict = certify_nonzero(value, max_bits=MAX_BITS)
        if verdict.status == PROVED:
            return p, verdict
    return None


EVERY_DEGREE = sympy.Symbol("every")  # the degree of σ ≡ 0: homogeneous of every degree
C = sympy.Symbol("c", real=True)  # the slope σ(1) of a linear σ


@dataclass(frozen=True)
class Decision:
    """A property of σ: its kernel fact (formula and verdict) and the steps shown before it."""

    holds: Fact
    steps: tuple[Step, ...] = ()
    witness: sympy.Rational | None = None  # z0 refuting the property, when found
    value: sympy.Expr | None = None  # the parameter found: slope c or degree p

    @property
    def status(self) -> str:
        return self.holds.status

    @cached_property
    def decided(self) -> Fact:
        """The decision as a fact: the property when proved (or undecided), its negation when
        refuted — then proved, by the certified witness (made once, shared by the claims that
        state it)."""
        return negate(self.holds) if self.holds.refuted else self.holds


def simplified(expr: sympy.Expr) -> sympy.Expr | None:
    """A shorter form of σ proposed by SymPy (simplify, exp form) — a hint the kernel re-checks."""
    try:
        with deadline(CANONICAL_TIMEOUT_S):
            forms = []
            if expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.exp):
                forms.append(sympy.cancel(sympy.expand(expr.rewrite(sympy.exp))))
            if not forms or sympy.count_ops(forms[0]) > 3:
                forms.append(sympy.simplify(expr))
                if expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.exp):
                    forms.append(sympy.simplify(expr.rewrite(sympy.exp)))
            best = min(forms, key=sympy.count_ops)
            shorter = sympy.count_ops(best) < sympy.count_ops(expr)
    except (
        BudgetExceeded,
        RecursionError,
        TypeError,
        ValueError,
        OverflowError,
        MemoryError,
        AttributeError,
    ):
        return None
    return best if shorter else None


def slope_form(c: sympy.Expr, expr: sympy.Expr | None = None) -> sympy.Expr:
    """``c·z`` as written (``1·z`` stays a product: σ(z) = z reads ``z = 1·z``, not ``z = z``);
    for a σ that is literally ``c·z`` (``-z/3``), ``σ(1)·z`` with σ(1) shown as the value of σ
    at 1, so that the linearity step relates two different expressions."""
    form = sympy.Mul(c, z, evaluate=False)
    if expr is not None and form == expr:
        return sympy.Mul(sympy.Subs(expr, z, 1), z, evaluate=False)
    return form


def linear_formula(expr: sympy.Expr, c: sympy.Expr) -> Fact:
    return undecided(sympy.Eq(expr, slope_form(c), evaluate=False), "analysis stopped")


# What SymPy raises when it gives up on an expression (not a verdict: the property is undecided).
# PolynomialError is no ValueError: a branch condition such as ``-(x-1)(x-1.0000001) > 0`` sent
# to a polynomial routine raised it through every command.
SYMPY_GAVE_UP = (
    ValueError,
    TypeError,
    ArithmeticError,
    RecursionError,
    MemoryError,
    BasePolynomialError,
    NotImplementedError,
)


def _bounded(decide, expr: sympy.Expr, formula: sympy.Basic) -> Decision:
    start = time.process_time()  # the limits count CPU seconds
    try:
        with deadline(current_limits().sympy_seconds(ANALYSIS_TIMEOUT_S)):
            return decide(expr)
    except BudgetExceeded as exc:
        why = f"analysis stopped after {time.process_time() - start:.1f} s: {exc}"
        fact = undecided(formula, why, "sympy")
        return Decision(fact, (Step(fact, "time limit"),))
    except InvalidExpression:
        raise  # the user's input: a one-line error, exit 2
    except SYMPY_GAVE_UP as exc:
        # SymPy gave up inside the search ("not comparable", a polynomial routine handed a
        # branch it cannot read, ...): the search proposes nothing
        fact = undecided(
            formula,
            f"analysis stopped: {type(exc).__name__}: {' '.join(str(exc).split())[:120]}",
            "sympy",
        )
        return Decision(fact, (Step(fact, "search failed"),))


def decide_linear(expr: sympy.Expr) -> Decision:
    """Is σ(z) = σ(1)·z for every real z?"""
    return _bounded(_decide_linear, expr, sympy.Eq(sympy.Function("sigma")(z), C * z))


def _decide_linear(expr: sympy.Expr) -> Decision:
    c = value_at(expr, sympy.Integer(1))
    steps = [Step(define(C, c), "substitute z = 1 (b = 1 in the lemma)")]
    found = find_witness(expr - c * z, candidate_points(expr), hairline=lambda: kink_points(expr))
    if found:
        point, _ = found
        fact = counterexample(expr, slope_form(c, expr), {z: point}, (z,))
        if fact.refuted:
            return Decision(fact, tuple(steps), witness=point, value=c)
    # A rational slope σ(1) is checked on σ itself first; a transcendental one suggests σ in
    # disguise (σ(1) = 1 − tanh(1) − 1 + 2/(1 + e⁻²)): a simpler form of σ first.
    fact = check_identity(expr, slope_form(c, expr), z) if c.is_Rational else None
    if fact is None or not fact.proved:
        form = simplified(expr)
        if form is not None:
            fact = check_identity(expr, slope_form(c, expr), z, hint=form)
        elif fact is None:
            fact = check_identity(expr, slope_form(c, expr), z)
    return Decision(fact, tuple(steps), value=c)


MAX_DEGREE_DENOMINATOR = 1000  # rational degrees tried exactly: p = a/b with b ≤ this


def _exact_degree(ratio: sympy.Expr) -> sympy.Expr:
    """p with 2^p = ratio: a rational when one is verified exactly, else an exact closed form.

    Candidates read off the value (a rational with a small denominator) or from ``expand_log``
    are kept only when SymPy proves ``2^p = ratio``; otherwise p stays ``log(ratio)/log(2)``.
    The degree is never rounded. (A proposal: the kernel checks σ's homogeneity for this p.)
    """
    closed = sympy.log(ratio) / sympy.log(2)
    if closed.is_Rational:
        return closed
    try:
        approx = sympy.N(closed, 40)
    except (ValueError, TypeError, OverflowError, RecursionError):
        return closed
    if approx.is_Number and approx.is_real:
        guess = sympy.Rational(approx).limit_denominator(MAX_DEGREE_DENOMINATOR)
        close = abs(guess - approx) < sympy.Rational(1, 10**25)
        if close and zero_verdict(2**guess - ratio, timeout_s=1.0).status == PROVED:
            return guess
    try:  # SymPy's forced expansion of log(a/b) with a, b < 0 ran for minutes (σ = −gelu):
        with deadline(EXPAND_LOG_TIMEOUT_S):  # the quotient is taken with a positive divisor
            expanded = sympy.expand_log(sympy.log(_positive_quotient(ratio)), force=True)
    except (BudgetExceeded, *SYMPY_GAVE_UP):
        return closed
    expanded = expanded / sympy.log(2)
    if expanded.is_number and sympy.count_ops(expanded) < sympy.count_ops(closed):
        if zero_verdict(2**expanded - ratio, timeout_s=1.0).status == PROVED:
            return expanded  # e.g. log(2**pi)/log(2) -> pi, verified 2^p = ratio
    return closed


EXPAND_LOG_TIMEOUT_S = 1.0  # SymPy's expand_log of the forced 2^p, a proposal only


def _positive_quotient(ratio: sympy.Expr) -> sympy.Expr:
    """``ratio`` as a quotient whose divisor is certified positive (−a/−b for a divisor certified
    negative; σ(2)/σ(1) of a σ negative at 1), unevaluated, or ``ratio`` itself: the forced
    expansion of log(a/b) splits it into log a − log b, logs of negative numbers otherwise."""
    num, den = sympy.fraction(ratio)
    if den == 1 or certified_sign(den) != -1:
        return ratio
    return sympy.Mul(-num, sympy.Pow(-den, -1, evaluate=False), evaluate=False)


def decide_homogeneity(expr: sympy.Expr, linear: Decision | None = None) -> Decision:
    """Is σ positively homogeneous of some degree p? ``value`` is p when it is
    (``EVERY_DEGREE`` for σ ≡ 0).

    When ``linear`` proves σ(z) = c·z, degree 1 follows (c·αz = α·c·z); c = 0 is σ ≡ 0.
    """
    if linear is not None and linear.holds.proved:
        c = linear.value
        if zero_verdict(c).status == PROVED:  # σ ≡ 0: σ(αz) = α^p σ(z) for every p
            fact = check_homogeneous(expr, z, P, hint=sympy.Integer(0))
            value = EVERY_DEGREE if fact.proved else None
        else:
            fact = (
                check_homogeneous(expr, z, 1, hint=slope_form(c), given=linear.holds)
                if slope_form(c, expr) == slope_form(c)
                else check_homogeneous(expr, z, 1)
            )
            value = sympy.Integer(1) if fact.proved else None
        return Decision(fact, (), value=value)
    return _bounded(_decide_homogeneity, expr, homogeneity_formula(expr, z, P))


def _decide_homogeneity(expr: sympy.Expr) -> Decision:
    s_pos, s_neg = value_at(expr, sympy.Integer(1)), value_at(expr, sympy.Integer(-1))
    zero_pos, zero_neg = (zero_verdict(v).status == PROVED for v in (s_pos, s_neg))
    if zero_pos and zero_neg:
        return _homogeneity_when_zero_at_units(expr)
    steps: list[Step] = []
    for u, value in ((1, s_pos), (-1, s_neg)):
        nonzero = check_nonzero(value)
        if nonzero.proved:
            steps.append(Step(nonzero, f"σ({u}) certified nonzero"))
            break
    else:
        formula = homogeneity_formula(expr, z, P)
        fact = undecided(formula, "cannot certify σ(1) ≠ 0 or σ(−1) ≠ 0, nor both = 0", "interval")
        return Decision(fact, tuple(steps))
    u = sympy.Integer(u)
    ratio = value_at(expr, 2 * u) / value
    sign = certified_sign(ratio)
    if sign is not None and sign < 0 or zero_verdict(ratio).status == PROVED:
        fact = refute_homogeneous(expr, z, u, 2 * u)
        return Decision(fact, tuple(steps), witness=u)
    p = _exact_degree(ratio)
    steps.append(Step(define(P, p), f"α = 2 forces 2^p = σ({2 * u})/σ({u})"))
    for side in (1, -1):
        diff = expr.xreplace({z: side * t}) - value_at(expr, sympy.Integer(side)) * t**p
        found = find_witness(
            diff,
            chain(  # and the kinks on this half-line (z = −√3/2 is t = √3/2 for z < 0)
                (q for q in candidate_points(expr) if certified_sign(q) == 1),
                (
                    side * k
                    for k in chain(kink_points(expr), kink_midpoints(expr))
                    if certified_sign(side * k) == 1
                ),
            ),
            variable=t,
            hairline=lambda side=side: [side * k for k in kink_points(expr)],
        )
        if found:
            z0 = side * found[0]
            fact = refute_homogeneous(expr, z, u, z0)
            if fact.refuted:
                return Decision(fact, tuple(steps), witness=z0)
    # A clean degree (a rational p) is checked on σ itself first; a degree that is a closed form
    # such as log(σ(2)/σ(1))/log(2) suggests σ in disguise: read p off a simpler form first.
    fact = check_homogeneous(expr, z, p) if p.is_Rational else None
    if fact is None or not fact.proved:
        form = simplified(expr)
        if form is not None:
            p = _form_degree(form, p)
            fact = check_homogeneous(expr, z, p, hint=form)
        elif fact is None:
            fact = check_homogeneous(expr, z, p)
    return Decision(fact, tuple(steps), value=p if fact.proved else None)


def _form_degree(form: sympy.Expr, p: sympy.Expr) -> sympy.Expr:
    """The degree read off a simpler form of σ when it is exact there (a proposal: the kernel
    checks σ = form and the form's homogeneity)."""
    for u in (1, -1):
        one = form.subs(z, u)
        if certified_sign(one) is not None:
            ratio = form.subs(z, 2 * u) / one
            q = _exact_degree(ratio)
            return q if q.is_Rational or sympy.count_ops(q) < sympy.count_ops(p) else p
    return p


def _homogeneity_when_zero_at_units(expr) -> Decision:
    """σ(1) = σ(−1) = 0: homogeneous (of every degree) iff σ vanishes everywhere."""
    found = find_witness(expr, candidate_points(expr), hairline=lambda: kink_points(expr))
    if found and found[0] != 0:
        fact = refute_homogeneous(expr, z, sympy.Integer(1), found[0])
        if fact.refuted:
            return Decision(fact, (), witness=found[0])
    fact = check_homogeneous(expr, z, P)
    return Decision(fact, (), value=EVERY_DEGREE if fact.proved else None)
