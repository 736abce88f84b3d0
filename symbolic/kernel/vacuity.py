"""A rule's conclusion must claim something: its divisors nonzero together at some point.

A fact claims its formula where its divisors are nonzero. A divisor that is 0 everywhere but not
to SymPy's ``is_zero`` — ``D = (x + 1)² − x² − 2x − 1``, unexpanded — makes every fact through
it vacuous, and a chain of them proved ``1 = 0``: ``y/y = 1`` at ``y := D``, ``cong`` into
``h/D``, ``trans`` (found by the round-11 certificate red team). So each rule's conclusion and
premises are evaluated at a few points of their symbols' domains, each undefined function a
fixed polynomial: some point must certify every divisor nonzero (exactly or by intervals), or
the rule is refused — when at every point some divisor is exactly 0, or when no enclosure
decides and SymPy simplifies a divisor to 0. Divisors no point decides and SymPy does not take
to 0 (``₀F₁(; d/2; β²)``), or that cannot be evaluated at a point (a matrix, a sum, an entry),
are let be, as before.
"""

from __future__ import annotations

import itertools

import sympy
from sympy.core.function import AppliedUndef

from symbolic.kernel.inputs import denominators
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import literal_replace
from symbolic.kernel.points import in_domain
from symbolic.limits import BudgetExceeded, deadline

VALUES = tuple(
    sympy.Rational(v) for v in ("7/5", "-3/7", "2", "-3", "11/13", "-17/19", "1", "-1", "5/2", "0")
)
SIGN_TIMEOUT_S = 0.5  # per divisor and point
SIMPLIFY_S = 1.0  # for all the divisors, where no point decides
_SEEN: dict = {}  # divisors → shown nonzero together somewhere (a decided answer only)


def vacuous_divisor(*formulas: sympy.Basic) -> sympy.Expr | None:
    """A divisor of ``formulas`` when no point tried shows them all nonzero together, else
    None (also when they cannot be evaluated at a point)."""
    divisors = tuple(denominators(*formulas))
    if not divisors:
        return None
    if divisors not in _SEEN:
        found = _somewhere(divisors)
        if found is None:
            return None
        _SEEN[divisors] = found
    return None if _SEEN[divisors] else divisors[0]


def _somewhere(divisors: tuple) -> bool | None:
    """True: a point where each divisor is certified nonzero; False: at every point tried some
    divisor is exactly 0, or one expands or simplifies to 0; None: undecided (no enclosure of a
    divisor excludes 0 — ``₀F₁`` at a point — or it cannot be evaluated at a point)."""
    if any(sympy.expand(d) == 0 for d in divisors):
        return False
    symbols = sorted(set().union(*(d.free_symbols for d in divisors)), key=str)
    if not all(isinstance(s, sympy.Symbol) and s.is_commutative for s in symbols):
        return None
    if any(d.has(sympy.MatrixExpr, sympy.Indexed, sympy.Integral, sympy.Sum) for d in divisors):
        return None
    undecided = False
    for start, shape in itertools.product(range(len(VALUES)), _POLYNOMIALS):
        point = _point(symbols, start)
        if point is None:
            continue
        signs = [_sign(_concrete(d, shape), point) for d in divisors]
        if all(s is not None and s != 0 for s in signs):
            return True
        undecided = undecided or 0 not in signs
    return _simplifies_to_zero(divisors) if undecided else False


def _simplifies_to_zero(divisors: tuple) -> bool | None:
    """False when SymPy's ``simplify`` takes a divisor to 0 (sin² + cos² − 1), else None."""
    try:
        with deadline(SIMPLIFY_S):
            return False if any(sympy.simplify(d) == 0 for d in divisors) else None
    except (BudgetExceeded, *_EVALUATION_ERRORS):
        return None


# Each undefined function σ(u₁, …, uₖ) read as one of these polynomials (a σ for which some
# point shows the divisors nonzero makes the fact, which holds for every σ, say something).
_POLYNOMIALS = (
    lambda args: (
        1
        + sum(sympy.Rational(3 + k, 7 + k) * a for k, a in enumerate(args))
        + sympy.Rational(2, 9) * sum(args) ** 2
    ),
    lambda args: (
        sympy.Rational(-5, 3)
        + sum(sympy.Rational(11, 4 + k) * a for k, a in enumerate(args))
        + sympy.Rational(1, 13) * sum(args) ** 3
    ),
)


def _concrete(d: sympy.Expr, shape) -> sympy.Expr:
    return d.replace(lambda n: isinstance(n, AppliedUndef), lambda n: shape(n.args))


def _point(symbols: list, start: int) -> dict | None:
    values = VALUES[start:] + VALUES[:start]
    point = {}
    for i, s in enumerate(symbols):
        rotated = values[i % len(values) :] + values[: i % len(values)]
        value = next((v for v in rotated if in_domain(s, v) is True), None)
        if value is None:
            return None
        point[s] = value
    return point


def _sign(d: sympy.Expr, point: dict) -> int | None:
    """The certified sign of ``d`` at ``point`` (0 only when exactly 0), None when undecided."""
    try:
        sign, _ = certified_sign(literal_replace(d, point).doit(), timeout_s=SIGN_TIMEOUT_S)
    except _EVALUATION_ERRORS:
        return None
    return sign


_EVALUATION_ERRORS = (TypeError, ValueError, ZeroDivisionError, ArithmeticError, RecursionError)
