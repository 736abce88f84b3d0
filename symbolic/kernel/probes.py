"""Probe points: where a claim "for every value of its symbols" is tried before SymPy rewrites.

A probe point gives each free symbol a value of ``PROBE_VALUES`` inside its domain (its SymPy
assumptions; ``points.in_domain``). ``_refuted_at_a_point`` refutes ``expr = 0`` there when the
value is certified nonzero (``points.counterexample``), ``_refuted_at_points`` tries every
rotation of the values (0 and ±1 among them, where SymPy's sign handlers go wrong), and
``_sign_refuted_at_a_point`` refutes a claimed sign at a point where another one is certified.
A probe only ever refutes, with its point as the witness; it never proves. ``_limit_doubted``
only vetoes: a ``Limit`` with parameters that SymPy computed for generic values of them is put
at their exceptional values (``lim_{x→0} y/(y + x)`` is 1 to SymPy, 0 at y = 0).
"""

from __future__ import annotations

import sympy

from symbolic.kernel.branches import at
from symbolic.kernel.float_blind import has_closed_irrational
from symbolic.kernel.interval_checks import _sign_verdict, certified_sign
from symbolic.kernel.intervals import MAX_BITS
from symbolic.kernel.logic import literal_replace, sympy_value
from symbolic.kernel.points import counterexample, denominators, in_domain
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


LIMIT_VALUES = (sympy.Integer(0), sympy.Integer(1), sympy.Integer(-1))
LIMIT_POINTS = 12  # parameter points tried for one formula
LIMIT_CHECK_S = 3.0  # for all of them


def _limit_doubted(expr: sympy.Expr) -> str | None:
    """Why SymPy's rewrite to 0 of ``expr``, holding a ``Limit`` with parameters, is doubted:
    SymPy's limit is the one for *generic* parameters (``lim_{x→0} y/(y + x) = 1``, where at
    ``y = 0`` it is 0). At each exceptional value of a parameter — a real zero of a coefficient
    of the term's numerator or denominator as polynomials in the limit's variable — and at 0, ±1,
    the formula is put in with the limits closed and computed; a value certified nonzero there,
    or one not computed (in ``LIMIT_CHECK_S`` in all), vetoes (never refutes: SymPy's closed
    limit is no certificate). More than two parameters: not checked, vetoed."""
    limits = [lim for lim in expr.atoms(sympy.Limit) if lim.free_symbols]
    if not limits:
        return None
    params = sorted(set().union(*(lim.free_symbols for lim in limits)), key=str)
    base = _probe_point(expr)
    if len(params) > 2 or base is None:
        return "SymPy's limit with parameters holds for generic values of them: not checked"
    hidden = expr.xreplace({lim: sympy.Dummy() for lim in limits})
    outside = tuple(d for d in denominators(hidden) if d.free_symbols <= set(base))
    inside = tuple(d for lim in limits for d in denominators(lim.args[0]))
    points = [
        {**base, s: v}
        for s in params
        for v in sorted(_exceptional(limits, s) | set(LIMIT_VALUES), key=sympy.default_sort_key)
        if in_domain(s, v) is True
    ]
    try:
        with deadline(LIMIT_CHECK_S):
            for point in points[:LIMIT_POINTS]:
                if any(sympy.expand(d.xreplace(point)) == 0 for d in inside):
                    continue  # a term 0/0 for every value of the variable: nothing claimed
                why = _limit_differs(expr, point, outside)
                if why is not None:
                    return why
    except BudgetExceeded:
        return "SymPy's limit holds for generic values of its parameters: not checked in time"
    return None


def _limit_differs(expr: sympy.Expr, point: dict, outside: tuple) -> str | None:
    where = ", ".join(f"{k} = {sympy.sstr(w)}" for k, w in point.items())
    try:
        value = at(expr, point).doit()
    except (ArithmeticError, TypeError, ValueError, NotImplementedError, RecursionError):
        value = None
    if value is None or value.free_symbols or value.has(sympy.Limit):
        return f"SymPy's limit holds for generic values of its parameters: not computed at {where}"
    if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):  # a limit diverges there,
        if not _nonzero_at(outside, point):  # unless the formula claims nothing there
            return None
    elif _sign_verdict(value, "≠", PROBE_TIMEOUT_S, PROBE_BITS).status != PROVED:
        return None
    return (
        f"SymPy's limit holds for generic values of its parameters; at {where} the formula, "
        f"its limits computed there, is {sympy.sstr(value)[:40]}"
    )


def _exceptional(limits: list, s: sympy.Symbol) -> set:
    """Real zeros in ``s`` of the coefficients of each limit's term (numerator and denominator
    as polynomials in its variable, about its point), where the generic limit may not hold."""
    out: set = set()
    for lim in limits:
        term, z, z0 = lim.args[:3]
        shifted = term.xreplace({z: 1 / z}) if z0.is_infinite else term.xreplace({z: z + z0})
        try:
            with deadline(PROBE_TIMEOUT_S):
                parts = sympy.together(shifted).as_numer_denom()
        except (BudgetExceeded, TypeError, ValueError):
            continue
        for part in parts:
            try:
                with deadline(PROBE_TIMEOUT_S):
                    for c in sympy.Poly(part, z).coeffs():
                        zeros = sympy.solveset(c, s, sympy.S.Reals) if c.free_symbols == {s} else 0
                        if isinstance(zeros, sympy.FiniteSet) and len(zeros) <= 4:
                            out |= set(zeros)
            except (BudgetExceeded, sympy.PolynomialError, TypeError, ValueError):
                continue
            except NotImplementedError:
                continue
    return out
