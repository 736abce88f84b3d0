"""Spot checks (issue 25): a SymPy-decided formula the re-check cannot prove, evaluated at
random points of its domain by the re-check's own numbers (``symbolic.evidence.numbers``),
then re-simplified by SymPy. ``spot_check(formula)`` returns ``(outcome, text)`` with outcome
``"spot-checked"`` (never ``"proved"``), ``"DISAGREES"`` or ``"unknown"``.
"""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import sympy
from sympy.core.function import AppliedUndef

from symbolic.evidence.numbers import NotEnclosed, difference, enclose, exact, in_set, satisfies
from symbolic.kernel import Exists, ForAll

SPOT_POINTS = 4  # random points of the domain per spot-checked formula
SPOT_BITS = 128
SPOT_SYMPY_S = 2.0  # CPU seconds to evaluate a formula at one point
SPOT_SIMPLIFY_S = 0.5  # CPU seconds for SymPy's own re-simplification in the re-check


def _seed(formula: sympy.Basic) -> int:
    return int.from_bytes(hashlib.sha256(sympy.srepr(formula).encode()).digest()[:8], "big")


def _sample(
    rng: random.Random, s: sympy.Symbol, dom: sympy.Basic, small: bool = True
) -> Fraction | None:
    """A random value of ``s`` in ``dom``. An integer that sizes a matrix or indexes one is
    small (sizes 2..3, indices 0..1: mostly in range); any other integer is drawn from −60..60
    (an identity false only from n = 4 on is not missed by four points near 0)."""
    wide = 0 if small else 60
    for _ in range(40):
        if s.is_integer:
            value = Fraction(
                rng.randint(2, 3 + wide)
                if s.is_positive
                else rng.randint(0, 1 + wide)
                if s.is_nonnegative
                else rng.randint(-2 - wide, 2 + wide)
            )
        else:
            value = Fraction(rng.randint(-400, 400), rng.randint(1, 97))
        if isinstance(dom, sympy.Interval) and dom.start.is_finite and dom.end.is_finite:
            a, b = (exact(dom.start), exact(dom.end))
            if a is not None and b is not None and not s.is_integer:
                value = a + (b - a) * Fraction(rng.randint(1, 999), 1000)
        try:
            if satisfies(s, value) and in_set(value, dom):
                return value
        except NotEnclosed:
            return None
    return None


def _random_functions(exprs, rng: random.Random) -> dict:
    """Every undefined function σ (in name order) replaced by a random quadratic: an identity
    for all σ holds for that one."""
    heads = {a.func for e in exprs for a in e.atoms(AppliedUndef)}
    return {
        head: [sympy.Rational(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(3)]
        for head in sorted(heads, key=str)
    }


def _random_matrices(exprs, rng: random.Random) -> dict:
    out = {}
    for m in sorted({m for e in exprs for m in e.atoms(sympy.MatrixSymbol)}, key=str):
        rows, cols = m.shape
        if not (isinstance(rows, sympy.Integer) and isinstance(cols, sympy.Integer)):
            raise NotEnclosed("a matrix of symbolic shape")
        out[m] = sympy.ImmutableMatrix(
            int(rows), int(cols), lambda i, j: sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4))
        )
    return out


def _random_entries(exprs, rng: random.Random) -> dict:
    """Every entry ``x[i, j]`` of an ``IndexedBase`` at integer indices (in name order) given
    a random rational: an identity for all entries holds for these."""
    found = {a for e in exprs for a in e.atoms(sympy.Indexed)}
    if any(not all(i.is_Integer for i in a.indices) for a in found):
        raise NotEnclosed("an entry at a symbolic index")
    return {
        a: sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4)) for a in sorted(found, key=str)
    }


def _calculus_done(e: sympy.Basic) -> sympy.Basic:
    return e.replace(lambda n: isinstance(n, (sympy.Derivative, sympy.Subs)), lambda n: n.doit())


def _explicit(e: sympy.Basic) -> sympy.Basic:
    """A matrix expression of explicit blocks (``BlockMatrix``, products) as one matrix."""
    if isinstance(e, sympy.MatrixExpr) and not isinstance(e, sympy.MatrixBase):
        return e.as_explicit()
    return e


def _made_concrete(e: sympy.Basic, matrices: dict, functions: dict) -> sympy.Basic:
    e = e.xreplace(matrices)
    for head, c in functions.items():
        e = e.replace(
            lambda x, h=head: isinstance(x, AppliedUndef) and x.func == h,
            lambda x, c=c: c[0] + c[1] * sum(x.args) + c[2] * sum(x.args) ** 2,
        )
    return e


def _sizes_and_indices(body: sympy.Basic) -> set:
    """The symbols that size or index something — a matrix's shape, an entry's index, a sum's
    or product's limits: sampled small."""
    out = set()
    for m in body.atoms(sympy.MatrixSymbol):
        out |= m.shape[0].free_symbols | m.shape[1].free_symbols
    for e in body.atoms(sympy.matrices.expressions.matexpr.MatrixElement, sympy.Indexed):
        out |= set().union(*(i.free_symbols for i in e.args[1:]))
    for e in body.atoms(sympy.Sum, sympy.Product):
        for limit in e.limits:
            out |= set().union(*(b.free_symbols for b in limit[1:]))
    return out


def _at_point(body: sympy.Basic, rng: random.Random, ranges) -> bool | None:
    """The relation ``body`` at one random point. Its two sides are made concrete and evaluated
    apart: the relation is never rebuilt with SymPy evaluating it, which would compare sides
    still holding σ and symbolic sums (numerically, with no guarantee)."""
    from symbolic.limits import deadline

    values = {}
    small = _sizes_and_indices(body)
    for v, dom in ranges:
        value = _sample(rng, v, dom, small=v in small)
        if value is None:
            raise NotEnclosed(f"no point of the domain of {v}")
        values[v] = sympy.Rational(value.numerator, value.denominator)
    with deadline(SPOT_SYMPY_S):  # d/dt and |_{t=0} first: t is theirs, not the point's
        sides = [_calculus_done(side).xreplace(values) for side in (body.lhs, body.rhs)]
    matrices, functions = _random_matrices(sides, rng), _random_functions(sides, rng)
    with deadline(SPOT_SYMPY_S):
        lhs, rhs = (_explicit(_made_concrete(side, matrices, functions).doit()) for side in sides)
        entries = _random_entries((lhs, rhs), rng)  # x[0, 1] of an IndexedBase, once summed out
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


def _scalar(e) -> bool | None:
    decided, lo, hi, _ = enclose(difference(e), e.rel_op)
    if e.rel_op == "==" and decided is None and lo <= 0 <= hi:
        return True  # consistent with the identity at this point (not a proof)
    return decided


def _sympy_resimplifies(body: sympy.Basic) -> bool:
    from symbolic.limits import deadline

    try:
        with deadline(SPOT_SIMPLIFY_S):
            d = (body.lhs - body.rhs).doit()
            return sympy.expand(d) == 0 or sympy.simplify(d) == 0
    except Exception:  # noqa: BLE001 - SymPy gave no answer (BudgetExceeded included)
        return False


def spot_check(formula: sympy.Basic) -> tuple[str, str]:
    """A SymPy-decided formula re-checked the weak way: exact/interval evaluation at
    ``SPOT_POINTS`` random points of the domain (undefined functions replaced by random
    quadratics, matrices by random rational matrices; a point that contradicts it ends the
    check), then SymPy's own simplification of ``lhs − rhs`` in this process (within
    ``SPOT_SIMPLIFY_S``). ``spot-checked`` — never ``proved``; ``DISAGREES`` when a point
    contradicts the formula."""
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
    for _ in range(SPOT_POINTS):
        tried += 1
        try:
            verdict = _at_point(body, rng, ranges)
        except Exception:  # noqa: BLE001 - no value at this point (an index out of range, a
            continue  # singular matrix, the time limit): the point is not counted
        if verdict is False:
            return "DISAGREES", "the formula fails at a random point of its domain"
        agree += verdict is True
    text = f"{agree}/{tried} random points"
    if body.rel_op == "==" and _sympy_resimplifies(body):
        return "spot-checked", f"{text}, SymPy re-simplifies to 0"
    if agree:
        return "spot-checked", text
    return "unknown", f"not spot-checked ({text})"
