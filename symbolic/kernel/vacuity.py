"""A rule's conclusion must claim something: its divisors nonzero together at some point.

A fact claims its formula where its divisors are nonzero. A divisor that is 0 everywhere but not
to SymPy's ``is_zero`` — ``D = (x + 1)² − x² − 2x − 1``, unexpanded — makes every fact through
it vacuous, and a chain of them proved ``1 = 0``: ``y/y = 1`` at ``y := D``, ``cong`` into
``h/D``, ``trans`` (found by the round-11 certificate red team). So each rule's conclusion and
premises are evaluated at a few points of their symbols' domains, each undefined function a
fixed polynomial: some point must certify every divisor nonzero (exactly or by intervals), or
the rule is refused — when at every point some divisor is exactly 0, or when no enclosure
decides and SymPy simplifies a divisor to 0. Divisors no point decides and SymPy does not take
to 0 (``₀F₁(; d/2; β²)``), or that cannot be evaluated at a point, are let be. A finite sum
or an integral is evaluated at the point, each IndexedBase entry is read like an undefined
function (one polynomial per head), a matrix of a fixed shape (fixed once the point gives its
dimensions) as a fixed rational matrix, and a name the derivation defines (``c := 0``) as its
value — ``rules._conclude`` passes the premises' definitions (round 11c: each of these carried
a proof of ``0 = 1``).
"""

from __future__ import annotations

import sympy
from sympy.core.function import AppliedUndef

from symbolic.kernel.inputs import denominators
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import literal_replace
from symbolic.kernel.points import in_domain
from symbolic.limits import BudgetExceeded, deadline

VALUES = tuple(  # integers enough that an integer's divisor (k − 1)(k − 2) is nonzero somewhere
    sympy.Rational(v)
    for v in ("7/5", "-3/7", "2", "-3", "11/13", "-17/19", "1", "-1", "5/2", "0", "3", "-2", "4")
)
SIGN_TIMEOUT_S = 0.5  # per divisor and point
SIMPLIFY_S = 1.0  # for all the divisors, where no point decides
_SEEN: dict = {}  # divisors → shown nonzero together somewhere (a decided answer only)


def vacuous_divisor(*formulas: sympy.Basic, defined=None) -> sympy.Expr | None:
    """A divisor of ``formulas`` when no point tried shows them all nonzero together, else
    None (also when they cannot be evaluated at a point). ``defined``: the definitions
    ``c := v`` of the derivation (name → value); a defined name is its value, not a variable
    (``c := 0`` and ``(c² + c)/c = c + 1`` proved ``0 = 1``)."""
    divisors = tuple(denominators(*formulas))
    if not divisors:
        return None
    if defined:
        divisors = tuple(_unfolded(d, defined) for d in divisors)
    if divisors not in _SEEN:
        found = _somewhere(divisors)
        if found is None:
            return None
        _SEEN[divisors] = found
    return None if _SEEN[divisors] else divisors[0]


def _unfolded(d: sympy.Expr, defined) -> sympy.Expr:
    """``d`` with each defined name replaced by its value, until none is left (the rules refuse
    a circular definition; a bounded number of rounds all the same)."""
    for _ in range(len(defined) + 1):
        if not d.has(*defined):
            break
        d = literal_replace(d, defined)
    return d


def _somewhere(divisors: tuple) -> bool | None:
    """True: a point where each divisor is certified nonzero; False: at every point tried some
    divisor is exactly 0, or one expands or simplifies to 0; None: undecided (no enclosure of a
    divisor excludes 0 — ``₀F₁`` at a point — or it cannot be evaluated at a point)."""
    if any(sympy.expand(d) == 0 for d in divisors):
        return False
    heads = _heads(divisors)
    undecided = False
    for shape in _POLYNOMIALS:
        concrete = [_concrete(d, shape, heads) for d in divisors]
        free = set().union(*(d.free_symbols for d in concrete))
        matrices = {m for m in free if isinstance(m, sympy.MatrixSymbol)}  # of a shape d × d
        free = (free - matrices).union(
            *(m.shape[0].free_symbols | m.shape[1].free_symbols for m in matrices)
        )
        symbols = sorted(free, key=str)
        if not all(isinstance(s, sympy.Symbol) and s.is_commutative for s in symbols):
            return None
        for start in range(len(VALUES)):
            point = _point(symbols, start)
            if point is None:
                continue
            signs = [_sign(d, point, shape, heads) for d in concrete]
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


# Each undefined function σ(u₁, …, uₖ), and each entry a[i, …] of an IndexedBase, read as a
# polynomial in its arguments, one of its own for each head (the j-th head: σ(x) − τ(x) is not
# 0): a choice for which some point shows the divisors nonzero makes the fact, which holds for
# every σ, say something.
_POLYNOMIALS = (
    lambda args, j: (
        1
        + sympy.Rational(5 * j, 7)
        + sum(sympy.Rational(3 + k + j, 7 + k + 2 * j) * a for k, a in enumerate(args))
        + sympy.Rational(2 + j, 9) * sum(args) ** 2
    ),
    lambda args, j: (
        sympy.Rational(-5, 3)
        + sympy.Rational(7 * j, 11)
        + sum(sympy.Rational(11 + j, 4 + k) * a for k, a in enumerate(args))
        + sympy.Rational(1, 13 + j) * sum(args) ** 3
    ),
)


def _is_head(n: sympy.Basic) -> bool:
    return isinstance(n, (AppliedUndef, sympy.Indexed)) or (
        isinstance(n, sympy.MatrixSymbol) and all(k.is_Integer for k in n.shape)
    )


def _head(n: sympy.Basic) -> sympy.Basic:
    return (
        n.base
        if isinstance(n, sympy.Indexed)
        else n
        if isinstance(n, sympy.MatrixSymbol)
        else n.func
    )


def _heads(divisors: tuple) -> dict:
    kinds = (AppliedUndef, sympy.Indexed, sympy.MatrixSymbol)
    found = {_head(n) for d in divisors for n in d.atoms(*kinds)}
    return {h: j for j, h in enumerate(sorted(found, key=lambda h: (str(h), repr(h))))}


def _concrete(d: sympy.Expr, shape, heads: dict) -> sympy.Expr:
    """``d`` with each head read as a polynomial; a matrix of a fixed shape as a fixed matrix of
    rationals, its own for each name (det(Aᵀ) − det(A) is 0, det(A) is not)."""

    def value(n: sympy.Basic) -> sympy.Basic:
        j = heads.get(_head(n), len(heads))
        if isinstance(n, sympy.MatrixSymbol):
            rows, cols = (int(k) for k in n.shape)
            return sympy.ImmutableMatrix(rows, cols, lambda r, c: _entry(r, c, j))
        return shape(n.args[1:] if isinstance(n, sympy.Indexed) else n.args, j)

    return d.replace(_is_head, value)


def _entry(r: int, c: int, j: int) -> sympy.Rational:
    """A fixed rational, scattered over (row, column, name) so that the matrices are generic."""
    return sympy.Rational(
        (37 * r + 59 * c + 71 * j + 13 * r * c + 5) % 61 - 30, 1 + (r + 2 * c + j) % 7
    )


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


def _sign(d: sympy.Expr, point: dict, shape, heads: dict) -> int | None:
    """The certified sign of ``d`` at ``point`` (0 only when exactly 0), None when undecided."""
    try:  # a finite sum or an integral at the point is a number (Σₖ₌₁ⁿ k − n(n + 1)/2 at n := 2)
        with deadline(SIGN_TIMEOUT_S):
            value = _concrete(literal_replace(d, point), shape, heads).doit()
            value = _concrete(value, shape, heads).doit()
        sign, _ = certified_sign(value, timeout_s=SIGN_TIMEOUT_S)
    except (BudgetExceeded, *_EVALUATION_ERRORS):
        return None
    return sign


_EVALUATION_ERRORS = (
    TypeError,
    ValueError,
    ZeroDivisionError,
    ArithmeticError,
    RecursionError,
    LookupError,  # an entry of a matrix whose shape the point fixed
    NotImplementedError,
    AttributeError,
)
