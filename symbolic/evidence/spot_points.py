"""Points a spot check takes from its formula's own structure (round 10): random points
(wide ranges, seeded by the text) missed a false region placed between two thresholds —
``Piecewise((1, (1000 < y) & (y < 900000)), (0, True)) = 0`` passed 6/6.

Each *switch* — a relation (a ``Piecewise`` condition), ``Heaviside``, ``sign``, ``Abs``, a
``Max``/``Min`` kink, a ``floor``/``ceiling``/``frac``/``Mod`` jump — gives, the other symbols
at a random point, the values ``c`` of a symbol where it switches: exactly when linear, by
exact root isolation for a polynomial, through exp/log/a power's inverse, and piece by piece
(each ``Abs``, ``Max``, … resolved between the inner switches). The symbol is tried at each
``c``, between consecutive ones and at ``c ± δ``, evaluated as a random point is
(``spot_checks._at_point``). A switch not solved, or more than the bounds here, make the spot
check ``unknown``: a region past them is unseen."""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import sympy
from mpmath import iv

from symbolic.evidence.numbers import NotEnclosed, enclose, end_points, in_set, ivalue, satisfies

MAX_STRUCTURAL = 64  # points per formula taken from its thresholds
MAX_SWITCHES = 64  # switch expressions read per formula
MAX_THRESHOLDS = 48  # thresholds per symbol
MAX_KINK_ARGUMENTS = 8  # arguments of a Max or Min (28 pairs)
POINTS_S = 10.0  # CPU seconds to evaluate the formula at all of them
MAX_DEGREE = 12  # a switch polynomial of higher degree is not solved
MAX_PASSES = 3  # rounds of piecewise resolution (a switch inside a switch inside a switch)
THRESHOLDS_S = 2.0  # CPU seconds to find a formula's thresholds
NEAR = Fraction(1, 1000)  # the largest δ of c ± δ (a quarter of the gap to a neighbour if less)
ROOT_BITS = 200  # a polynomial's irrational roots isolated to within 2^−200
MAX_NUMBER_BITS = 4096  # a threshold whose exact value is larger is not used

_INTEGER_JUMPS = (sympy.floor, sympy.ceiling, sympy.frac)
_SIGN_SWITCHES = (sympy.Heaviside, sympy.sign, sympy.Abs)


def switches(sides) -> list[tuple[sympy.Expr, bool]]:
    """``(g, integer)``: the formula switches where ``g = 0`` (``integer``: where ``g`` is an
    integer), from the two sides of the formula (its own relation is not a switch)."""
    out: dict = {}
    for side in sides:
        for n in sympy.preorder_traversal(side):
            found = []
            if isinstance(n, sympy.core.relational.Relational):
                scalar = not any(isinstance(e, sympy.MatrixExpr) for e in n.args[:2])
                found = [(n.lhs - n.rhs, False)] if scalar else []
            elif isinstance(n, _SIGN_SWITCHES) and n.args:
                found = [(n.args[0], False)]
            elif isinstance(n, _INTEGER_JUMPS) and n.args:
                found = [(n.args[0], True)]
            elif isinstance(n, sympy.Mod) and not n.args[1].free_symbols and n.args[1] != 0:
                found = [(n.args[0] / n.args[1], True)]
            elif isinstance(n, (sympy.Max, sympy.Min)):
                if len(n.args) > MAX_KINK_ARGUMENTS:
                    raise Truncated(f"a {type(n).__name__} of {len(n.args)} arguments")
                found = [(a - b, False) for a, b in itertools.combinations(n.args, 2)]
            for g, integer in found:
                if isinstance(g, sympy.Expr) and g.free_symbols:
                    out.setdefault((g, integer), None)
            if len(out) > MAX_SWITCHES:
                raise Truncated(f"more than {MAX_SWITCHES} switches")
    return list(out)


def _sign_at(e: sympy.Expr, v: sympy.Symbol, m: Fraction) -> int:
    """The sign of ``e`` at ``v = m`` (a closed value otherwise), exactly or by enclosure."""
    value = e.xreplace({v: sympy.Rational(m.numerator, m.denominator)})
    if value.is_Rational:
        return int(value.p > 0) - int(value.p < 0)
    if value.free_symbols:
        raise NotEnclosed("a symbol left")
    if enclose(value, ">")[0]:
        return 1
    if enclose(value, "<")[0]:
        return -1
    raise NotEnclosed("a sign not decided")


def _resolved(e: sympy.Expr, v: sympy.Symbol, m: Fraction) -> sympy.Expr:
    """``e`` with each switch replaced by the piece it takes at ``v = m`` (an interior point
    of an interval no inner switch crosses): a polynomial there where its pieces are."""
    if not e.has(v) or e == v:
        return e
    if isinstance(e, (sympy.Abs, sympy.Heaviside, sympy.sign)):
        a = _resolved(e.args[0], v, m)
        s = _sign_at(a, v, m)
        if s == 0:
            raise NotEnclosed("at a switch")
        if isinstance(e, sympy.Abs):
            return a if s > 0 else -a
        return sympy.Integer(s) if isinstance(e, sympy.sign) else sympy.Integer(int(s > 0))
    if isinstance(e, (sympy.Max, sympy.Min)):
        args = [_resolved(a, v, m) for a in e.args]
        best = args[0]
        for a in args[1:]:
            s = _sign_at(a - best, v, m)
            if s == 0:
                raise NotEnclosed("at a kink")
            if (s > 0) == isinstance(e, sympy.Max):
                best = a
        return best
    if isinstance(e, _INTEGER_JUMPS):
        a = _resolved(e.args[0], v, m)
        lo, hi = _approx(a.xreplace({v: sympy.Rational(m.numerator, m.denominator)}))
        k = math.floor(lo)
        if not (k < lo and hi < k + 1):
            raise NotEnclosed("at a jump")
        return a - k if isinstance(e, sympy.frac) else sympy.Integer(k + (e.func != sympy.floor))
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _holds(cond, v, m):
                return _resolved(value, v, m)
        raise NotEnclosed("no branch")
    if isinstance(e, (sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log)):
        return e.func(*(_resolved(a, v, m) for a in e.args))
    raise NotEnclosed(f"a {type(e).__name__} is not resolved")


def _holds(cond, v: sympy.Symbol, m: Fraction) -> bool:
    """A ``Piecewise`` condition at ``v = m``, away from its switches."""
    if cond in (sympy.true, sympy.false):
        return cond == sympy.true
    if isinstance(cond, (sympy.And, sympy.Or)):
        parts = [_holds(c, v, m) for c in cond.args]
        return all(parts) if isinstance(cond, sympy.And) else any(parts)
    if isinstance(cond, sympy.Not):
        return not _holds(cond.args[0], v, m)
    if not isinstance(cond, sympy.core.relational.Relational):
        raise NotEnclosed("a condition not resolved")
    s = _sign_at(_resolved(cond.lhs - cond.rhs, v, m), v, m)
    if s == 0:
        raise NotEnclosed("at a switch")
    if cond.rel_op in ("==", "!="):  # away from its switch: not equal
        return cond.rel_op == "!="
    return s == (1 if cond.rel_op in (">", ">=") else -1)


def _approx(c: sympy.Expr) -> tuple[Fraction, Fraction]:
    """Rational end points of ``c`` (equal when ``c`` is rational), within 2^−256."""
    if c.is_Rational:
        q = Fraction(int(c.p), int(c.q))
        if max(abs(q.numerator).bit_length(), q.denominator.bit_length()) > MAX_NUMBER_BITS:
            raise NotEnclosed("a threshold too large")
        return q, q
    if c.free_symbols or not isinstance(c, sympy.Expr):
        raise NotEnclosed("not a closed number")
    old = iv.prec
    iv.prec = 320
    try:
        lo, hi = end_points(ivalue(c))
    except (ArithmeticError, ValueError, TypeError) as exc:
        raise NotEnclosed(str(exc)) from None
    finally:
        iv.prec = old
    if hi - lo > Fraction(1, 2**256) or max(abs(lo), abs(hi)) > 2**MAX_NUMBER_BITS:
        raise NotEnclosed("a threshold not enclosed")
    return lo, hi


def _roots(h: sympy.Expr, v: sympy.Symbol, depth: int = 0) -> list[sympy.Expr]:
    """Values of ``v`` where ``h`` vanishes: a polynomial's exactly when linear, else rational
    midpoints of isolating intervals (within 2^−``ROOT_BITS``) for rational coefficients;
    ``a·F(u) + b`` with ``F`` exp, log or a fractional power through ``F``'s inverse (``e^y >
    10⁶`` switches at ``y = log 10⁶``, exactly)."""
    if not h.is_polynomial(v):
        return _inverted(h, v, depth) if depth < 3 else None
    p = sympy.Poly(h, v)
    coefficients = p.all_coeffs()
    if p.degree() < 1:
        return []
    if p.degree() > MAX_DEGREE or any(c.free_symbols for c in coefficients):
        return None  # not solved: the caller's spot check is not a pass
    if p.degree() == 1:
        return [-coefficients[1] / coefficients[0]]
    if not all(c.is_Rational for c in coefficients):
        return None
    eps = sympy.Rational(1, 2**ROOT_BITS)
    return [(a + b) / 2 for (a, b), _ in p.intervals(eps=eps)]


def _inverted(h: sympy.Expr, v: sympy.Symbol, depth: int) -> list[sympy.Expr] | None:
    terms = sympy.Add.make_args(h)
    moving = [t for t in terms if t.has(v)]
    if len(moving) != 1:
        return None
    coefficient, core = moving[0].as_independent(v, as_Add=False)
    target = -sympy.Add(*(t for t in terms if not t.has(v))) / coefficient
    if coefficient == 0 or target.free_symbols:
        return None
    if isinstance(core, sympy.log):
        inner = sympy.exp(target)
    elif _approx(target)[0] <= 0:  # e^u and u^q (q not an integer) take positive values
        return []
    elif isinstance(core, sympy.exp):
        inner = sympy.log(target)
    elif isinstance(core, sympy.Pow) and core.exp.is_Rational and not core.exp.is_Integer:
        inner = target ** (1 / core.exp)
    else:
        return None
    argument = core.args[0]
    return _roots(argument - inner, v, depth + 1)


def _levels(h: sympy.Expr, v: sympy.Symbol, m: Fraction) -> list[sympy.Expr]:
    """The integers ``h`` jumps at that are near its value at ``m``, and near 0."""
    lo, _ = _approx(h.xreplace({v: sympy.Rational(m.numerator, m.denominator)}))
    k = math.floor(lo)
    return [sympy.Integer(j) for j in sorted({k - 1, k, k + 1, k + 2, -1, 0, 1})]


def thresholds(gs, v: sympy.Symbol, base: dict) -> list[tuple[sympy.Expr, Fraction, Fraction]]:
    """Where the switches ``gs`` switch in ``v``, the other symbols at ``base``: each as
    ``(exact value, lo, hi)``, sorted."""
    others = {s: x for s, x in base.items() if s != v}
    found: dict = {}
    pending = []
    m0 = Fraction(base[v].p, base[v].q)
    for g, integer in gs:
        h = g.xreplace(others)
        if h.free_symbols - {v}:
            raise Truncated(f"a switch {g} in a symbol with no value")
        if h.free_symbols:
            pending.append((h, integer))
    solved = all(
        _solve(found, h, v, integer, None, m0) for h, integer in pending if h.is_polynomial(v)
    )
    pending = [(h, integer) for h, integer in pending if not h.is_polynomial(v)]
    for _ in range(MAX_PASSES if pending else 0):  # the rest piece by piece between the cuts
        cuts = sorted(found.values(), key=lambda t: t[1])
        before, solved_here = len(found), True
        for ms, span in _between([(lo, hi) for _, lo, hi in cuts], m0):
            for h, integer in pending:
                if len(found) <= MAX_THRESHOLDS:
                    piece, m = _piece(h, v, ms)
                    if piece is None:
                        solved_here = False
                        continue
                    solved_here &= _solve(found, piece, v, integer, span, m)
        if len(found) == before or len(found) > MAX_THRESHOLDS:
            break
    solved = solved and (not pending or solved_here)
    if len(found) > MAX_THRESHOLDS:
        raise Truncated(f"more than {MAX_THRESHOLDS} thresholds of {v}")
    if not solved:  # a switch whose thresholds are not known: a region could hide there
        raise Truncated(f"a switch in {v} not solved")
    return sorted(found.values(), key=lambda t: t[1])


def _piece(h: sympy.Expr, v: sympy.Symbol, ms) -> tuple:
    for m in ms:
        try:
            return _resolved(h, v, m), m
        except (NotEnclosed, ArithmeticError, ValueError, TypeError):
            continue
    return None, None


def _solve(found: dict, h: sympy.Expr, v: sympy.Symbol, integer: bool, span, m) -> bool:
    """``found`` with the roots of ``h`` (of ``h − k`` at integer levels): False when they
    could not be found."""
    try:
        for k in _levels(h, v, m) if integer else [0]:
            roots = _roots(h - k, v)
            if roots is None:
                return False
            for c in roots:
                _add(found, c, span)
    except (NotEnclosed, ArithmeticError, ValueError, TypeError, sympy.PolynomialError):
        return False
    return True


def _add(found: dict, c: sympy.Expr, span) -> None:
    """``c`` among the thresholds, when real, enclosed and inside ``span`` (an interval's
    open ends, ``None`` unbounded)."""
    if not c.is_real:
        return
    try:
        lo, hi = _approx(c)
    except NotEnclosed:
        return
    if span is not None:
        a, b, _ = span
        if (a is not None and not a < lo) or (b is not None and not hi < b):
            return
    found.setdefault(c, (c, lo, hi))


def _between(cuts, m0: Fraction) -> list:
    """Interior rational points of each interval the cuts make (two, should one be a switch of
    a piece), with the interval's span ``(lo, hi, first point)``."""
    if not cuts:
        return [((m0, m0 + Fraction(1, 7)), (None, None, m0))]
    first, last = cuts[0][0], cuts[-1][1]
    out = [((first - Fraction(1, 3), first - Fraction(1, 7)), (None, first, first - 1))]
    for (_, hi), (lo, _) in itertools.pairwise(cuts):
        if hi < lo:
            out.append((((hi + lo) / 2, hi + (lo - hi) / 3), (hi, lo, (hi + lo) / 2)))
    out.append(((last + Fraction(1, 3), last + Fraction(1, 7)), (last, None, last + 1)))
    return out


def candidates(ts, v: sympy.Symbol, dom: sympy.Basic) -> list[sympy.Expr]:
    """Values of ``v`` to try, in order: each threshold, the midpoints between consecutive
    ones, ``c ± δ``, then one beyond each end; each in ``dom`` and ``v``'s assumptions. The
    ends of ``dom`` and 0 (a sign assumption's end) are cuts too: ``min(p, 1/1000) = 1/1000``
    fails between 0 and 1/1000 only."""
    ends = [sympy.S.Zero] if _signed(v) else []
    if isinstance(dom, sympy.Interval):
        ends += [e for e in (dom.start, dom.end) if e.is_Rational]
    for end in ends:
        q = Fraction(int(end.p), int(end.q))
        if all(q != lo for _, lo, _ in ts):
            ts = sorted([*ts, (end, q, q)], key=lambda t: t[1])
    exact_points, mids, near, outer = [], [], [], []
    for i, (c, lo, hi) in enumerate(ts):
        exact_points.append(c)
        if lo != hi:
            exact_points.append((lo + hi) / 2)
        gaps = [NEAR]
        if i:
            gaps.append((lo - ts[i - 1][2]) / 4)
        if i + 1 < len(ts):
            gaps.append((ts[i + 1][1] - hi) / 4)
            if hi < ts[i + 1][1]:
                mids.append((hi + ts[i + 1][1]) / 2)
        delta = min(g for g in gaps)
        if delta > 0:
            near += [lo - delta, hi + delta]
    if ts:
        outer = [ts[0][1] - 1, ts[-1][2] + 1]
    out: list = []
    for value in exact_points + mids + near + outer:
        for x in _as_values(value, v):
            if x not in out and _admissible(x, v, dom):
                out.append(x)
    return out


def _signed(v: sympy.Symbol) -> bool:
    return any(
        getattr(v, f"is_{a}") is not None
        for a in ("positive", "negative", "nonnegative", "nonpositive")
    )


def _as_values(value, v: sympy.Symbol) -> list:
    if isinstance(value, Fraction):
        value = sympy.Rational(value.numerator, value.denominator)
    if not v.is_integer:
        return [value]
    if not value.is_Rational:
        return []
    return [sympy.floor(value), sympy.ceiling(value)]


def _admissible(x: sympy.Expr, v: sympy.Symbol, dom: sympy.Basic) -> bool:
    try:
        if x.is_Rational:
            q = Fraction(int(x.p), int(x.q))
            return satisfies(v, q) and in_set(q, dom)
        if v.is_rational or v.is_integer or (dom != sympy.S.Reals and not dom.is_Interval):
            return False  # an irrational value only in an interval, checked exactly below
        lo, hi = _approx(x)
        if not (lo > 0 or hi < 0) or not (satisfies(v, lo) and satisfies(v, hi)):
            return False
        if dom == sympy.S.Reals:
            return True
        for end, strict, above in ((dom.start, dom.left_open, 1), (dom.end, dom.right_open, 0)):
            if end in (sympy.oo, -sympy.oo):
                continue
            rel = (">" if strict else ">=") if above else ("<" if strict else "<=")
            if enclose(sympy.Add(x, -end, evaluate=False), rel)[0] is not True:
                return False
        return True
    except (NotEnclosed, ArithmeticError, ValueError, TypeError):
        return False


class Truncated(Exception):
    """More switches, thresholds or points than a spot check tries: a false region could hide
    past them, so the spot check is not a pass (``unknown``)."""


def structural_points(sides, base: dict, ranges, widths: dict, wide: int) -> list[dict]:
    """The points (at most ``MAX_STRUCTURAL``, else ``Truncated``): ``base`` with one symbol
    moved to a value its switches propose (taken in turn over the symbols: each one's
    thresholds, then midpoints, then ``c ± δ``)."""
    gs = switches(sides)
    if not gs:
        return []
    moved = {v for v, _ in ranges if widths.get(v, wide) == wide and v in base}
    if any(not g.free_symbols <= moved for g, _ in gs):  # a size, a limit, a sum's index
        raise Truncated("a switch in a symbol whose values are not moved")
    per_symbol = []
    for v, dom in ranges:
        mine = [(g, integer) for g, integer in gs if v in g.free_symbols]
        if not mine:
            continue
        ts = thresholds(mine, v, base)
        if ts:
            per_symbol.append((v, candidates(ts, v, dom)))
    out: list[dict] = []
    for group in itertools.zip_longest(*(values for _, values in per_symbol)):
        for (v, _), x in zip(per_symbol, group, strict=True):
            if x is not None:
                out.append({**base, v: x})
    if len(out) > MAX_STRUCTURAL:
        raise Truncated(f"{len(out)} points from its thresholds, more than {MAX_STRUCTURAL}")
    return out


def at_thresholds(evaluate, base_point, prepared: tuple, ranges, wide: int) -> tuple:
    """The formula at the points its own switches propose, the other symbols at a random
    point (``base_point()``): ``(verdict, agreed, tried)``. ``verdict`` is False at the first
    point where ``evaluate(values)`` — the spot check's own evaluation
    (``spot_checks._at_point``), certified as at a random point — is False; None when the
    points could not all be found or tried (``Truncated``, past ``THRESHOLDS_S`` or
    ``POINTS_S``): a region past them is unseen; True otherwise."""
    from symbolic.limits import deadline

    try:
        base = base_point()
    except Exception:  # noqa: BLE001 - no random point at all: the random points say so
        return True, 0, 0
    try:
        with deadline(THRESHOLDS_S):
            points = structural_points(prepared[0], base, ranges, prepared[1], wide)
    except Exception:  # noqa: BLE001 - Truncated, the time limit, SymPy: not all found
        return None, 0, 0
    agreed, start = 0, time.process_time()
    for tried, values in enumerate(points, 1):
        if time.process_time() - start > POINTS_S:  # each point is held to its own limits
            return None, agreed, tried - 1
        try:
            verdict = evaluate(values)
        except Exception:  # noqa: BLE001 - no value at this point: it is not counted
            continue
        if verdict is False:
            return False, agreed, tried
        agreed += verdict is True
    return True, agreed, len(points)
