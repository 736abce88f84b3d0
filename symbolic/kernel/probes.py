"""Probe points: where a claim "for every value of its symbols" is tried before SymPy rewrites.

A probe point gives each free symbol a value of ``PROBE_VALUES`` inside its domain (its SymPy
assumptions; ``points.in_domain``). ``_refuted_at_a_point`` refutes ``expr = 0`` there when the
value is certified nonzero (``points.counterexample``), ``_refuted_at_points`` tries every
rotation of the values (0 and ±1 among them, where SymPy's sign handlers go wrong), and
``_sign_refuted_at_a_point`` refutes a claimed sign at a point where another one is certified.
A probe only ever refutes, with its point as the witness; it never proves.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.branches import at
from symbolic.kernel.float_blind import has_closed_irrational
from symbolic.kernel.inputs import denominators
from symbolic.kernel.interval_checks import _sign_verdict, certified_sign
from symbolic.kernel.intervals import MAX_BITS
from symbolic.kernel.logic import literal_replace, sympy_value
from symbolic.kernel.points import counterexample, in_domain
from symbolic.kernel.valueless import pole_reason
from symbolic.kernel.verdict import PROVED, REFUTED, Verdict, _revise
from symbolic.limits import BudgetExceeded, deadline

PROBE_VALUES = (
    sympy.Rational(7, 5),
    sympy.Rational(-3, 7),
    sympy.Integer(2),
    sympy.Integer(-3),
    sympy.Integer(0),
    sympy.Integer(1),
    sympy.Integer(-1),
)  # tried in order; the first in a symbol's domain is its value
PROBE_BITS = 256  # a true identity's difference encloses 0: the probe gives up at this precision
PROBE_TIMEOUT_S = 0.5


def _probe_point(expr: sympy.Expr, start: int = 0) -> dict | None:
    """A point of the domains of ``expr``'s free symbols (their SymPy assumptions), or None
    when a symbol is no plain scalar symbol or has no value of ``PROBE_VALUES`` in its domain.
    ``start``: the values are tried from this one on (cyclically), for another point."""
    point = {}
    values = PROBE_VALUES[start:] + PROBE_VALUES[:start]
    for s in sorted(expr.free_symbols, key=str):
        if not isinstance(s, sympy.Symbol) or not s.is_commutative:
            return None
        value = next((v for v in values if in_domain(s, v) is True), None)
        if value is None:
            return None
        point[s] = value
    return point or None


def _probe_points(expr: sympy.Expr) -> list[dict]:
    """The distinct points ``_probe_point`` gives from each start: 0 and ±1-like values, where
    SymPy's sign handlers go wrong (atan 0 = 0), are among them."""
    points: list[dict] = []
    for start in range(len(PROBE_VALUES)):
        p = _probe_point(expr, start)
        if p is not None and p not in points:
            points.append(p)
    return points


def _refuted_at_points(expr: sympy.Expr, defined: tuple = ()) -> Verdict | None:
    """``_refuted_at_a_point`` at each of ``_probe_points``: the first refutation, or None."""
    for start in range(len(PROBE_VALUES)):
        found = _refuted_at_a_point(expr, defined, start)
        if found is not None:
            return found
    return None


def _refuted_at_a_point(expr: sympy.Expr, defined: tuple = (), start: int = 0) -> Verdict | None:
    """``expr = 0`` for every value of its free symbols, refuted by ``counterexample`` at the
    point ``_probe_point`` chooses (in the kernel, inside each symbol's domain); None when
    there is no such point or the value there is not certified nonzero. ``defined``: the
    denominators of the formula ``expr`` came from (which building it may have cancelled);
    each must be certified nonzero at the point, where alone the formula claims anything."""
    if expr.has(
        sympy.MatrixExpr,
        sympy.Sum,
        sympy.Product,
        sympy.Integral,
        sympy.Derivative,
        sympy.core.function.AppliedUndef,
    ):
        return None
    point = _probe_point(expr, start)
    if point is None or not _nonzero_at(defined, point):
        return None
    found = counterexample(expr, 0, point, timeout_s=PROBE_TIMEOUT_S, max_bits=PROBE_BITS).verdict
    if found.status != REFUTED:
        return None
    where = ", ".join(f"{k} = {v}" for k, v in found.witness)
    return _revise(found, reason=f"lhs − rhs is certified nonzero at {where}")


def _nonzero_at(defined: tuple, point: dict) -> bool:
    """Is every denominator of ``defined`` certified nonzero at ``point``?"""
    return all(
        d.free_symbols <= set(point)
        and _sign_verdict(at(d, point), "≠", PROBE_TIMEOUT_S, PROBE_BITS).status == PROVED
        for d in defined
    )


def _valued_at(expr: sympy.Expr, point: dict) -> bool:
    """Has every closed term of ``expr`` put at ``point`` (as written) a value? ``at`` lets SymPy
    evaluate, and SymPy takes ``(1 − 1)·₁F₀(1;;1)`` to 0: a sign there would refute a formula
    that has no value at the point."""
    try:
        return pole_reason(literal_replace(sympy_value(expr), point)) is None
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def _defined_somewhere(defined: tuple) -> bool:
    """Is every denominator of ``defined`` certified nonzero at one point of the domains?"""
    point = _probe_point(sympy.Mul(*defined))
    return point is not None and _nonzero_at(defined, point)


_SIGNS_ALLOWED = {
    "positive": (1,),
    "negative": (-1,),
    "nonnegative": (0, 1),
    "nonpositive": (0, -1),
    "nonzero": (1, -1),
}


def _sign_refuted_at_a_point(expr: sympy.Expr, sign: str) -> Verdict | None:
    """``expr`` has the sign for every value of its symbols, refuted at the probe point (inside
    each symbol's domain) when the value there is certified to have another sign."""
    if expr.has(sympy.MatrixExpr, sympy.Sum, sympy.Product, sympy.Integral, sympy.Derivative):
        return None
    for point in _probe_points(expr):
        if not (_nonzero_at(denominators(expr), point) and _valued_at(expr, point)):
            continue
        got, decided = certified_sign(at(expr, point), PROBE_TIMEOUT_S)
        if got is not None and got not in _SIGNS_ALLOWED[sign]:
            break
    else:
        return None
    where = ", ".join(f"{k} = {sympy.sstr(v)}" for k, v in point.items())
    return _revise(
        decided,
        status=REFUTED,
        reason=f"the sign is {got} at {where}",
        witness=tuple((str(k), sympy.sstr(v)) for k, v in point.items()),
    )


def _zero_contradicted(expr: sympy.Expr) -> Verdict | None:
    """The certificate that ``expr``, which SymPy rewrote to 0, is nonzero at a point (a closed
    number: itself), or None. Asked only when ``expr`` holds a closed irrational number, whose
    sign SymPy judges by a low-precision float (``log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹)`` has
    ``is_zero`` True; ``log(cos(10⁻⁶⁰))`` is "positive"); at a point, to ``MAX_BITS`` (a
    difference of 10⁻¹²¹ there is no zero)."""
    if not has_closed_irrational(expr):
        return None
    if not expr.free_symbols:
        found = _sign_verdict(expr, "≠", PROBE_TIMEOUT_S, MAX_BITS)
        return found if found.status == PROVED else None
    if expr.has(sympy.MatrixExpr, sympy.Sum, sympy.Product, sympy.Integral, sympy.Derivative):
        return None
    for point in _probe_points(expr)[:2]:
        if _nonzero_at(denominators(expr), point) and _valued_at(expr, point):
            found = _sign_verdict(at(expr, point), "≠", PROBE_TIMEOUT_S, MAX_BITS)
            if found.status == PROVED:
                return found
    return None


DOUBT_DIGITS = 300  # SymPy's rewrite to 0 is doubted where the value at this precision is not 0
DOUBT_BELOW = sympy.Rational(1, 10**250)


def _zero_doubted(expr: sympy.Expr) -> str | None:
    """Why SymPy's rewrite of ``expr`` (holding closed irrational numbers) to 0 is doubted: at a
    point (a closed ``expr``: itself) its value at ``DOUBT_DIGITS`` digits is clearly nonzero.
    For numbers the enclosures cannot hold (``loggamma(cos(10⁻⁶⁰)) ≈ 2.9·10⁻¹²¹``, which SymPy
    calls zero by a float): never a refutation (an evaluation is no certificate), only unknown."""
    points = [{}] if not expr.free_symbols else _probe_points(expr)[:2]
    for point in points:
        try:
            with deadline(PROBE_TIMEOUT_S):  # bounded: a doubt is only ever a veto
                value = sympy.N(at(expr, point), DOUBT_DIGITS, maxn=2 * DOUBT_DIGITS)
        except (
            BudgetExceeded,
            TypeError,
            ValueError,
            ZeroDivisionError,
            ArithmeticError,
            RecursionError,
        ):
            continue
        if not point and value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            return f"SymPy rewrote it to 0, but the number has no value ({sympy.sstr(value)})"
        if not (value.is_Number and value.is_finite):  # no value at this point: no evidence
            continue
        if value.is_real is not False and abs(value) > DOUBT_BELOW:
            where = ", ".join(f"{k} = {v}" for k, v in point.items()) or "the number"
            shown = sympy.sstr(sympy.N(value, 4))
            return f"SymPy rewrote it to 0, but at {where} it is {shown} ({DOUBT_DIGITS} digits)"
    return None
