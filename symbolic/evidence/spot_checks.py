"""Spot checks (issue 25): a SymPy-decided formula the re-check cannot prove, evaluated at
random points of its domain by the re-check's own numbers (``symbolic.evidence.numbers``),
then re-simplified by SymPy. ``spot_check(formula)`` returns ``(outcome, text)`` with outcome
``"spot-checked"`` (never ``"proved"``), ``"DISAGREES"`` or ``"unknown"``.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random

import sympy
from mpmath import iv
from mpmath.libmp import finf, fnan, fninf
from sympy.core.function import AppliedUndef

from symbolic.evidence.formula_reader import canonical_srepr
from symbolic.evidence.numbers import (
    RECHECK_BITS,
    NotEnclosed,
    difference,
    enclose,
    end_points,
    ivalue,
)
from symbolic.evidence.spot_points import at_thresholds
from symbolic.evidence.spot_sampling import (
    LIMIT,
    WIDE,
    concrete_function,
    lattice_exposed,
    lattice_values,
    random_entries,
    random_functions,
    random_matrices,
    sample,
)
from symbolic.kernel import Exists, ForAll, at, float_blind_risk, literal, put

SPOT_POINTS = 4  # random points of the domain per spot-checked formula
SPOT_LARGE = (10**6, -(10**12))  # and points this far out (a symbol's assumptions permitting):
# max(x, 1000) = 1000 holds at every point of [−400, 400]
MAX_POINT_BITS = 1_000_000  # a point whose exact numbers would be larger is not evaluated
SPOT_BITS = 128
SPOT_SYMPY_S = 2.0  # CPU seconds to evaluate a formula at one point
SPOT_SIMPLIFY_S = 0.5  # CPU seconds for SymPy's own re-simplification in the re-check


def _seed(formula: sympy.Basic) -> int:
    text = canonical_srepr(formula)  # one seed, whichever equal symbols SymPy's cache gave
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _calculus_done(e: sympy.Basic) -> sympy.Basic:
    return e.replace(lambda n: isinstance(n, (sympy.Derivative, sympy.Subs)), lambda n: n.doit())


def _explicit(e: sympy.Basic) -> sympy.Basic:
    """A matrix expression of explicit blocks (``BlockMatrix``, products) as one matrix: each
    ``BlockMatrix`` assembled first, so that ``doit`` multiplies explicit matrices (the entries
    of a product of blocks, ``as_explicit`` of the whole, are symbolic sums: 5× the CPU of a
    whole module's re-check)."""
    if isinstance(e, sympy.MatrixExpr) and not isinstance(e, sympy.MatrixBase):
        e = e.replace(
            lambda n: isinstance(n, sympy.BlockMatrix),
            lambda n: sympy.ImmutableMatrix(n.as_explicit()),
        ).doit()
        if isinstance(e, sympy.MatrixExpr) and not isinstance(e, sympy.MatrixBase):
            return e.as_explicit()
    return e


MAX_UNROLLED = 1000  # terms of a sum or product with integer bounds written out by hand


def _unrolled(e: sympy.Basic) -> sympy.Basic:
    """Sums and products with integer bounds written out as their terms, an empty one as 0 or 1
    (SymPy's ``doit`` took partial fractions of every term: 2 s to spot-check a 3 × 3 layer).
    Bounds in reverse order (Karr's convention) are left to ``doit``."""
    if not e.args:
        return e
    if isinstance(e, (sympy.Sum, sympy.Product)):
        *inner, (i, a, b) = e.limits  # the last limit is the outermost
        a, b = _unrolled(a), _unrolled(b)
        if a.is_Integer and b.is_Integer and -1 <= b - a < MAX_UNROLLED:
            body = e.func(e.function, *inner) if inner else e.function
            terms = [_unrolled(put(body, {i: sympy.Integer(k)})) for k in range(a, b + 1)]
            return sympy.Add(*terms) if isinstance(e, sympy.Sum) else sympy.Mul(*terms)
    args = [_unrolled(a) for a in e.args]
    return literal(e.func, args) if float_blind_risk(e) else e.func(*args)


def _done(side: sympy.Basic) -> sympy.Basic:
    """``side.doit()``, but a side holding a branch of a closed number left as written: its
    branches were decided by enclosures (``kernel.put``) or are left to the evaluators."""
    if float_blind_risk(side):
        side = at(side, {})
        if float_blind_risk(side):
            return side
    return _explicit(side.doit())


def _made_concrete(e: sympy.Basic, matrices: dict, functions: dict) -> sympy.Basic:
    e = e.xreplace(matrices)
    for head, (c, w) in functions.items():
        e = e.replace(
            lambda x, h=head: isinstance(x, AppliedUndef) and x.func == h,
            lambda x, c=c, w=w: concrete_function(x.args, c, w),
        )
    return e


def _sizes_and_indices(body: sympy.Basic) -> dict:
    """The symbols that size or index something — a matrix's shape, an entry's index, the
    limits of a sum over entries (width 0: small), any other sum's or product's limits
    (``LIMIT``) — and the width each is drawn from."""
    out: dict = {}
    entries = (sympy.matrices.expressions.matexpr.MatrixElement, sympy.Indexed)
    for e in sorted(body.atoms(sympy.Sum, sympy.Product), key=lambda e: e.has(*entries)):
        width = 0 if e.has(*entries) else LIMIT  # Σ_{i<d} K[j, i]·x[i]: d is a size
        for limit in e.limits:
            out.update(dict.fromkeys(set().union(*(b.free_symbols for b in limit[1:])), width))
    for m in body.atoms(sympy.MatrixSymbol):
        out.update(dict.fromkeys(m.shape[0].free_symbols | m.shape[1].free_symbols, 0))
    for e in body.atoms(sympy.matrices.expressions.matexpr.MatrixElement, sympy.Indexed):
        out.update(dict.fromkeys(set().union(*(i.free_symbols for i in e.args[1:])), 0))
    return out


def _bound_form(e: sympy.Basic, values: dict) -> sympy.Basic:
    """``e`` with the point put in and each σ(a, …) as 9·(2 + s + s²), s = 9·(a + …), nothing
    evaluated: as large as the random function that replaces σ (coefficients and weights at
    most 9)."""
    with sympy.evaluate(False):
        e = e.xreplace(values)
        return e.replace(
            lambda n: isinstance(n, AppliedUndef),
            lambda n: 9 * (2 + 9 * sympy.Add(*n.args) + (9 * sympy.Add(*n.args)) ** 2),
        )


def _too_large(e: sympy.Basic) -> bool:
    """Would SymPy, evaluating the closed ``e`` (values put in, nothing computed yet), build a
    number of more than ``MAX_POINT_BITS`` bits? Estimated by the re-check's intervals from
    each power's base and exponent and each factorial's argument: a symbol reads as 0 bits, so
    ``(((x^256)^256)^256)^256`` at x = 10^12 is refused here, never computed."""
    for n in sympy.preorder_traversal(e):
        factorial = isinstance(n, _FACTORIAL_LIKE)
        if not (isinstance(n, sympy.Pow) or factorial) or n.free_symbols:
            continue
        try:
            if factorial:
                if any(_bits(ivalue(a)) > 14 for a in n.args):  # (2^14)! has 200,000 bits
                    return True
                continue
            exponent = _bits(ivalue(n.exp))
            if _bits(ivalue(n.base)) * 2.0 ** max(exponent, 0) > MAX_POINT_BITS:
                return True
        except (NotEnclosed, ValueError, TypeError, ZeroDivisionError, OverflowError):
            continue  # no number here the evaluators can bound: SymPy keeps it symbolic
    return False


_FACTORIAL_LIKE = (
    sympy.factorial,
    sympy.gamma,
    sympy.RisingFactorial,
    sympy.FallingFactorial,
    sympy.binomial,
)


def _bits(box) -> float:
    """log₂ of the largest |end| of an interval (its smallest nonzero one, below 1)."""
    out = 0.0
    for raw in box._mpi_:
        if raw in (finf, fninf, fnan):
            return math.inf
        if raw[1]:
            out = max(out, abs(raw[2] + raw[3]))
    return out


def _calculus_sides(body: sympy.Basic) -> tuple[list, set]:
    """``body``'s two sides with d/dt and |_{t=0} done (t is theirs, not a point's), and the
    symbols that size or index something: the same at every point, so computed once."""
    from symbolic.limits import deadline

    with deadline(SPOT_SYMPY_S):
        sides = [_calculus_done(side) for side in (body.lhs, body.rhs)]
        exposed = lattice_exposed(body)
        return sides, _sizes_and_indices(body), exposed, lattice_values(body)


def _random_point(prepared: tuple, rng: random.Random, ranges, scale: int | None) -> dict:
    values = {}
    for v, dom in ranges:
        value = sample(
            rng, v, dom, width=prepared[1].get(v, WIDE), scale=scale, fine=v in prepared[2]
        )
        if value is None:
            raise NotEnclosed(f"no point of the domain of {v}")
        values[v] = sympy.Rational(value.numerator, value.denominator)
    return values


def _at_point(
    body: sympy.Basic,
    prepared: tuple,
    rng: random.Random,
    ranges,
    scale: int | None = None,
    values: dict | None = None,
) -> bool | None:
    """The relation ``body`` at one random point (of size ``scale`` where given), from its
    ``_calculus_sides``. Its two sides are made concrete and evaluated apart: the relation is
    never rebuilt with SymPy evaluating it, which would compare sides still holding σ and
    symbolic sums (numerically, with no guarantee). The point, σ and the matrices are put in
    unevaluated, and a point whose numbers would be too large to compute is not evaluated
    (``_too_large``)."""
    from symbolic.limits import deadline

    calculus = prepared[0]
    if values is None:
        values = _random_point(prepared, rng, ranges, scale)
    if any(_too_large(_bound_form(side, values)) for side in calculus):
        raise NotEnclosed("a point whose numbers are too large to compute")
    with deadline(SPOT_SYMPY_S):
        sides = [put(side, values) for side in calculus]
    fine = prepared[3]
    matrices, functions = random_matrices(sides, rng, fine), random_functions(sides, rng, fine)
    if (matrices or functions) and any(map(float_blind_risk, sides)):
        raise NotEnclosed("a branch of a closed number inside a matrix or σ")
    with deadline(SPOT_SYMPY_S):
        concrete = (_made_concrete(_unrolled(side), matrices, functions) for side in sides)
        lhs, rhs = (_done(side) for side in concrete)
        # x[0, 1] of an IndexedBase, once summed out
        entries = random_entries((lhs, rhs), rng, fine)
        if entries:
            lhs, rhs = (_explicit(side.xreplace(entries).doit()) for side in (lhs, rhs))
    op = body.rel_op
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        if op != "==" or getattr(lhs, "shape", None) != getattr(rhs, "shape", None):
            raise NotEnclosed("a matrix relation")
        verdicts = [_scalar(sympy.Eq(a, b, evaluate=False)) for a, b in zip(lhs, rhs, strict=True)]
        if False in verdicts:
            return False
        return None if None in verdicts else True
    return _scalar(sympy.Rel(lhs, rhs, op, evaluate=False))


MAX_SCALE_BITS = 1 << 15  # the precision an identity's point may ask for (_scale)


def _scale(e: sympy.Basic) -> float:
    """The largest |log₂ |v|| of a closed subterm ``v`` of ``e`` (enclosed at 64 bits), and
    the bits of its fractions: how far below or above 1, and how finely, its numbers reach.
    ``cos(10⁻²⁰⁰) − 1`` is −5·10⁻⁴⁰¹, inside every enclosure of 1024 bits; its subterm
    10⁻²⁰⁰ (665 bits) says to look at twice that."""
    env: dict = {}
    out = 0.0
    old = iv.prec
    iv.prec = 64
    try:
        for n in sympy.postorder_traversal(e):
            if not isinstance(n, sympy.Expr) or n.free_symbols:
                continue
            if n.is_Rational:  # 1 − 10⁻⁴⁰⁰/2 is near 1, but exact to 1329 bits
                out = max(out, int(n.p).bit_length(), int(n.q).bit_length())
            try:
                env[n] = box = ivalue(n, env)
            except (NotEnclosed, ArithmeticError, ValueError, TypeError, AttributeError):
                continue  # a subterm with no value (an untaken branch): the others say
            out = max(out, _bits(box))
    finally:
        iv.prec = old
    return out


def _not_real_parts(d: sympy.Expr) -> tuple[bool, bool]:
    """For the closed ``d`` — a number the real evaluators cannot enclose — whether its real
    and its imaginary part (SymPy's ``as_real_imag``, principal branches, as SymPy proved the
    identity) are each enclosed away from 0. A point where a side is not real was not
    counted: ``√x = √|x|``, ``log x = log |x|``, ``x^(1/3) = max(x, 0)^(1/3)`` (false at
    x = −1: i ≠ 1, iπ ≠ 0) and ``√x ≥ 0`` (i is no nonnegative real) were spot-checked at
    the positive points alone."""
    from symbolic.limits import deadline

    out = [False, False]
    try:
        with deadline(SPOT_SIMPLIFY_S):  # a point no number came of: little more time
            for k, part in enumerate(d.as_real_imag()):
                try:
                    out[k] = enclose(part, "!=")[0] is True
                except NotEnclosed:
                    continue
    except Exception:  # noqa: BLE001 - no parts within the limit: the point is not counted
        return False, False
    return out[0], out[1]


def _scalar(e) -> bool | None:
    d = difference(e)
    try:
        decided, lo, hi, _ = enclose(d, e.rel_op)
    except NotEnclosed:
        real, imaginary = _not_real_parts(d)
        if imaginary and e.rel_op != "!=" or real and e.rel_op == "==":
            return False  # different numbers here; an order between sides not both real
        raise
    if e.rel_op == "==" and decided is None and lo <= 0 <= hi:
        # consistent with the identity at this point (not a proof) — at a precision finer
        # than its numbers: 1024 bits do not see cos(10⁻²⁰⁰) ≠ 1
        from symbolic.limits import deadline

        with deadline(SPOT_SYMPY_S):  # past it, the point is not counted
            bits = 2 * _scale(d) + 128
            if bits > RECHECK_BITS[-1]:
                if bits > MAX_SCALE_BITS:
                    return None  # numbers too far from 1 to tell apart: the point is not counted
                old = iv.prec
                iv.prec = int(bits)
                try:
                    a, b = end_points(ivalue(d))
                finally:
                    iv.prec = old
                if a > 0 or b < 0:
                    return False
        return True
    return decided


@functools.cache
def _hyperexpand_ready() -> None:
    """SymPy builds ``hyperexpand``'s table of formulas on its first call (~0.4 s of CPU): built
    once, outside ``SPOT_SIMPLIFY_S``, so that re-simplifying ``₀F₁ = Γ·I_ν`` (0.06 s warm) does
    not pass or fail by what the process happened to re-check before."""
    sympy.hyperexpand(sympy.hyper((), (sympy.Rational(3, 2),), sympy.Symbol("z")))


def _sympy_resimplifies(body: sympy.Basic) -> bool:
    from symbolic.limits import deadline

    if body.has(sympy.hyper, sympy.meijerg):
        _hyperexpand_ready()
    try:
        with deadline(SPOT_SIMPLIFY_S):
            d = (body.lhs - body.rhs).doit()
            return sympy.expand(d) == 0 or sympy.simplify(d) == 0
    except Exception:  # noqa: BLE001 - SymPy gave no answer (BudgetExceeded included)
        return False


def spot_check(formula: sympy.Basic) -> tuple[str, str]:
    """A SymPy-decided formula re-checked the weak way: exact/interval evaluation at
    ``SPOT_POINTS`` random points of the domain (undefined functions replaced by random
    functions, ``random_functions``; matrices by random rational matrices; a point that
    contradicts it ends the check); where no point could be evaluated, SymPy's own
    simplification of ``lhs − rhs`` in this process (within ``SPOT_SIMPLIFY_S``); and at the
    points its own thresholds give (``spot_points``: ``unknown`` when there are more than it
    tries). ``spot-checked`` — never ``proved``; ``DISAGREES`` when a point contradicts it."""
    if isinstance(formula, ForAll):
        ranges, body = list(formula.ranges()), formula.body
    elif isinstance(formula, Exists):
        return "unknown", "an existential is not spot-checked"
    else:
        ranges, body = [], formula
    if not isinstance(body, sympy.core.relational.Relational):
        return "unknown", f"a {type(body).__name__} is not spot-checked"
    bound = {v for v, _ in ranges}
    free = set(body.free_symbols) | {
        s
        for m in body.atoms(sympy.MatrixSymbol)
        for s in m.shape[0].free_symbols | m.shape[1].free_symbols
    }
    ranges += [
        (s, sympy.S.Reals) for s in sorted(free - bound, key=str) if isinstance(s, sympy.Symbol)
    ]
    rng = random.Random(_seed(formula))
    agree = tried = 0
    try:
        prepared = _calculus_sides(body)
    except Exception:  # noqa: BLE001 - no derivative within the limit: no point is evaluated
        prepared = None
    for scale in (None,) * SPOT_POINTS + SPOT_LARGE:
        tried += 1
        try:
            if prepared is None:
                continue
            verdict = _at_point(body, prepared, rng, ranges, scale)
        except Exception:  # noqa: BLE001 - no value at this point (an index out of range, a
            continue  # singular matrix, the time limit): the point is not counted
        if verdict is False:
            return "DISAGREES", "the formula fails at a random point of its domain"
        agree += verdict is True
    text = f"{agree}/{tried} random points"
    if prepared is not None:  # and at the points its own thresholds give (spot_points)
        point = lambda values: _at_point(body, prepared, rng, ranges, values=values)  # noqa: E731
        base = lambda: _random_point(prepared, rng, ranges, None)  # noqa: E731
        held, near, more = at_thresholds(point, base, prepared, ranges, WIDE)
        if held is False:
            return "DISAGREES", "the formula fails at a point of its domain its thresholds give"
        if held is None:  # a region past the points tried is unseen: not a pass
            return "unknown", f"not spot-checked ({text}; thresholds not all found or tried)"
        text += f", {near}/{more} threshold points" if more else ""
    if agree:
        return "spot-checked", text
    if body.rel_op == "==" and _sympy_resimplifies(body):  # only where no point was evaluated
        return "spot-checked", f"{text}, SymPy re-simplifies to 0"
    return "unknown", f"not spot-checked ({text})"
