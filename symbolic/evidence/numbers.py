"""The re-check's own numbers (issue 25): an interval evaluator and exact rationals — no
kernel code.

* ``ivalue(e)`` encloses a closed expression in ``mpmath.iv`` (outward rounding); elementary
  functions by their rows' ``recheck`` column (``symbolic.languages.functions``), ``besseli`` and
  ``gamma`` from mpmath's values at 32 extra bits, widened (monotone on the arguments used).
* ``exact(e)`` is the exact rational value of a rational expression (``+``, ``·``, integer
  powers), or None.
* ``relation_holds(rel, lo, hi)`` says whether ``d rel 0`` holds for every ``d ∈ [lo, hi]``
  (True), for none (False), or is not decided (None); ``enclose(e, rel)`` decides ``e rel 0``
  exactly or at increasing precision.
* ``in_set(value, s)`` and ``satisfies(symbol, value)``: a rational in a domain, and in a
  symbol's assumptions.

The checks that use them: ``symbolic.evidence.certificates`` (certificates, bounds, witnesses)
and ``symbolic.evidence.spot_checks``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import sympy
from mpmath import iv
from mpmath.libmp import finf, fnan, fninf, to_rational

from symbolic.languages.functions import BY_HEAD, OutsideDomain, monotone_enclosure

RECHECK_BITS = (64, 256, 1024)


class NotEnclosed(Exception):
    """The evaluator cannot enclose this expression (or the enclosure decides nothing)."""


def _special(f, x):
    """An increasing special function on ``x`` from Arb's rigorous balls (no mpmath accuracy
    assumed), or ``NotEnclosed``."""
    try:
        return monotone_enclosure(f, x)
    except OutsideDomain as exc:
        raise NotEnclosed(str(exc)) from None


def _decide(cond, env) -> bool:
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if isinstance(cond, sympy.And):
        return all(_decide(c, env) for c in cond.args)
    if isinstance(cond, sympy.Or):
        return any(_decide(c, env) for c in cond.args)
    if isinstance(cond, sympy.Not):
        return not _decide(cond.args[0], env)
    if isinstance(cond, sympy.core.relational.Relational):
        d = ivalue(difference(cond), env)  # unevaluated: cond.lhs − cond.rhs would compute
        op = cond.rel_op
        if op in (">", ">="):
            d, op = -d, "<" if op == ">" else "<="
        if op in ("<", "<="):
            if d.b < 0 or (op == "<=" and d.b <= 0):
                return True
            if d.a > 0 or (op == "<" and d.a >= 0):
                return False
        if op == "==" and (d.a > 0 or d.b < 0):
            return False
        if op == "!=" and (d.a > 0 or d.b < 0):
            return True
    raise NotEnclosed(f"condition {cond} not decided")


def ivalue(e: sympy.Expr, env: dict | None = None):
    """An ``mpmath.iv`` interval containing the value of the closed expression ``e``."""
    env = env or {}
    if e in env:
        return env[e]
    if e.is_Integer:
        return iv.mpf(int(e))
    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q)
    if e is sympy.pi:
        return iv.pi
    if e is sympy.E:
        return iv.e
    if isinstance(e, sympy.Add):
        total = iv.mpf(0)
        for a in e.args:
            total += ivalue(a, env)
        return total
    if isinstance(e, sympy.Mul):
        total = iv.mpf(1)
        for a in e.args:
            total *= ivalue(a, env)
        return total
    if isinstance(e, sympy.Pow):
        base, ex = e.args
        if ex.is_Integer:
            b = ivalue(base, env)
            n = int(ex)
            r = b ** abs(n) if n % 2 or b.a >= 0 or b.b <= 0 else _even_power(b, abs(n))
            return 1 / r if n < 0 else r
        if ex == sympy.S.Half:
            return iv.sqrt(ivalue(base, env))
        b = ivalue(base, env)
        if b.a <= 0:
            raise NotEnclosed(f"{base} ** {ex}: base not certified positive")
        return iv.exp(_moderate(ivalue(ex, env) * iv.log(b)))
    spec = BY_HEAD.get(type(e))
    if spec is not None and len(e.args) != 1:
        raise NotEnclosed(f"{type(e).__name__} with {len(e.args)} arguments")
    if spec is not None:  # an elementary function: its row's re-check evaluator
        try:
            return spec.recheck(_moderate(ivalue(e.args[0], env)))
        except OutsideDomain as exc:
            raise NotEnclosed(str(exc)) from None
    order = exact(e.args[0]) if isinstance(e, sympy.besseli) else None
    if order is not None and order.denominator == 1 and order >= 0:  # I_n, n read exactly
        x = _moderate(ivalue(e.args[1], env))
        if x.a <= 0:
            raise NotEnclosed("besseli at a non-positive argument")
        n = int(order)
        return _special(lambda t: t.bessel_i(n), x)
    if isinstance(e, sympy.gamma):
        n = exact(e.args[0])
        if n is not None and n.denominator == 1 and 1 <= n <= MAX_FACTORIAL:
            return iv.mpf(math.factorial(int(n) - 1))  # Γ(n) = (n − 1)!, exactly
        x = _moderate(ivalue(e.args[0], env))
        if x.a < 2:  # Γ increases on [x₀ ≈ 1.4616, ∞); 2 keeps clear of its minimum
            raise NotEnclosed("gamma below 2")
        return _special(flint.arb.gamma, x)
    if isinstance(e, sympy.RisingFactorial):  # (a)_k = a(a + 1)…(a + k − 1), k read exactly
        k = exact(e.args[1])
        if k is None or k.denominator != 1 or not 0 <= k <= MAX_FACTORIAL:
            raise NotEnclosed("a rising factorial whose count is not a small natural number")
        a, total = ivalue(e.args[0], env), iv.mpf(1)
        for i in range(int(k)):
            total *= a + i
        return total
    if isinstance(e, sympy.hyper) and not e.ap and len(e.bq) == 1:  # ₀F₁(; b; x)
        b, x = exact(e.bq[0]), _moderate(ivalue(e.argument, env))
        if b is None or b <= 0 or x.a < 0 or x.b > MAX_0F1_ARGUMENT:
            raise NotEnclosed("0F1 other than at b > 0 (exact) and 0 <= x <= 10^6")
        bb = flint.arb(flint.fmpq(b.numerator, b.denominator))
        return _special(lambda t: t.hypgeom_0f1(bb), x)  # increasing in x ≥ 0 for b > 0
    if isinstance(e, sympy.Abs):
        x = ivalue(e.args[0], env)
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return iv.mpf([0, max(-x.a, x.b)])
    if isinstance(e, (sympy.Max, sympy.Min)):
        xs = [ivalue(a, env) for a in e.args]
        pick = max if isinstance(e, sympy.Max) else min
        return iv.mpf([pick(x.a for x in xs), pick(x.b for x in xs)])
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _decide(cond, env):
                return ivalue(value, env)
        raise NotEnclosed("no Piecewise branch applies")
    raise NotEnclosed(f"cannot enclose {type(e).__name__}")


def _even_power(b, n):
    m = iv.mpf(max(-b.a, b.b)) ** n
    return iv.mpf([0, m.b]) if n else iv.mpf(1)


MAX_END_BITS = 100_000  # |end point| below 2^100000, and above 2^−100000 unless 0


def end_points(box) -> tuple[Fraction, Fraction]:
    """An ``mpmath.iv`` interval's end points (raw floats: sign, man, exp, bc) as exact
    fractions. An infinite end (a division by an interval holding 0: mpmath would make it 0),
    one beyond ``MAX_END_BITS`` and an inverted box are ``NotEnclosed``."""
    out = []
    for raw in box._mpi_:
        sign, man, exp, bc = raw
        if raw in (finf, fninf, fnan) or (man and abs(exp + bc) > MAX_END_BITS):
            raise NotEnclosed("an enclosure with an infinite or outsized end")
        out.append(Fraction(*to_rational(raw)))
    if out[0] > out[1]:
        raise NotEnclosed("an inverted enclosure")
    return out[0], out[1]


MAX_ARGUMENT = iv.mpf(2) ** 4096  # beyond: sin, cos, … would reduce a huge argument forever


def _moderate(x):
    """``x`` when both ends are within ±2^4096, else ``NotEnclosed``."""
    if not (-MAX_ARGUMENT < x.a and x.b < MAX_ARGUMENT):
        raise NotEnclosed("an argument too large to evaluate a function at")
    return x


MAX_0F1_ARGUMENT = 10**6  # ₀F₁(; b; x) grows as exp(2√x)
MAX_EXACT_BITS = 1_000_000  # an exact power larger than this is left to intervals
MAX_FACTORIAL = 10_000  # Γ(n) = (n − 1)! computed exactly up to this n


def exact(e: sympy.Basic) -> Fraction | None:
    """The exact value of a rational expression (``+``, ``·``, integer powers of rationals),
    or None."""
    if isinstance(e, sympy.Rational):
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, (sympy.Add, sympy.Mul)):
        parts = [exact(a) for a in e.args]
        if any(p is None for p in parts) or sum(map(_size, parts)) > MAX_EXACT_BITS:
            return None  # a sum or product of many large numbers is left to intervals
        out = Fraction(0) if isinstance(e, sympy.Add) else Fraction(1)
        for p in parts:
            out = out + p if isinstance(e, sympy.Add) else out * p
        return out
    if isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Integer):
        b, n = exact(e.args[0]), int(e.args[1])
        if b is None or (b == 0 and n < 0):
            return None
        if _size(b) * abs(n) > MAX_EXACT_BITS:
            return None
        return b**n
    return None


def _size(q: Fraction) -> int:
    return max(abs(q.numerator).bit_length(), q.denominator.bit_length())


def relation_holds(rel: str, lo: Fraction, hi: Fraction) -> bool | None:
    """``d rel 0`` for every ``d ∈ [lo, hi]`` (True), for none (False), or undecided (None)."""
    if rel == ">":
        return True if lo > 0 else False if hi <= 0 else None
    if rel == ">=":
        return True if lo >= 0 else False if hi < 0 else None
    if rel == "<":
        return True if hi < 0 else False if lo >= 0 else None
    if rel == "<=":
        return True if hi <= 0 else False if lo > 0 else None
    if rel == "!=":
        return True if (lo > 0 or hi < 0) else False if lo == hi == 0 else None
    if rel == "==":
        return True if lo == hi == 0 else False if (lo > 0 or hi < 0) else None
    raise NotEnclosed(f"relation {rel!r}")


def difference(rel: sympy.core.relational.Relational) -> sympy.Expr:
    """``lhs − rhs``, unevaluated (nothing is computed before the evaluators run)."""
    return sympy.Add(
        rel.lhs, sympy.Mul(sympy.S.NegativeOne, rel.rhs, evaluate=False), evaluate=False
    )


def enclose(e: sympy.Expr, rel: str) -> tuple[bool | None, Fraction, Fraction, str]:
    """Decide ``e rel 0``: exactly when ``e`` is rational, else by ``ivalue`` at increasing
    precision; (decision, lo, hi, how)."""
    value = exact(e)
    if value is not None:
        return relation_holds(rel, value, value), value, value, "exact"
    last = None
    for bits in RECHECK_BITS:
        old = iv.prec
        iv.prec = bits
        try:
            box = ivalue(e)
        except (NotEnclosed, ZeroDivisionError, ValueError, OverflowError) as exc:
            raise NotEnclosed(str(exc)) from None
        finally:
            iv.prec = old
        a, b = end_points(box)
        last = (a, b, f"iv {bits} bits")
        decided = relation_holds(rel, a, b)
        if decided is not None:
            return decided, a, b, f"iv {bits} bits"
    return None, *last


# -- domains ----------------------------------------------------------------------------------


def in_set(value: Fraction, s: sympy.Basic) -> bool:
    """``value`` in the set ``s`` (ℝ, an interval, a union, a finite set), decided exactly or
    by ``enclose``; ``NotEnclosed`` for another kind of set."""
    if s == sympy.S.Reals:
        return True
    if isinstance(s, sympy.Union):  # (−∞, 0) ∪ (0, ∞): in one of its parts
        return any(in_set(value, part) for part in s.args)
    if isinstance(s, sympy.FiniteSet):
        return any(exact(e) == value for e in s.args)
    if isinstance(s, sympy.Interval):
        for end, strict, above in ((s.start, s.left_open, True), (s.end, s.right_open, False)):
            if end in (sympy.oo, -sympy.oo):
                continue
            d = sympy.Add(
                sympy.Rational(value.numerator, value.denominator),
                sympy.Mul(-1, end, evaluate=False),
                evaluate=False,
            )
            rel = (">" if strict else ">=") if above else ("<" if strict else "<=")
            if enclose(d, rel)[0] is not True:
                return False
        return True
    raise NotEnclosed(f"a domain {type(s).__name__}")


def satisfies(s: sympy.Symbol, value: Fraction) -> bool:
    """``value`` meets the assumptions of the symbol ``s`` (positive, integer, …)."""
    tests = {
        "positive": value > 0,
        "negative": value < 0,
        "nonnegative": value >= 0,
        "nonpositive": value <= 0,
        "zero": value == 0,
        "nonzero": value != 0,
        "integer": value.denominator == 1,
        "rational": True,
        "real": True,
        "finite": True,
        "extended_real": True,
        "complex": True,
        "commutative": True,
        "infinite": False,
        "extended_positive": value > 0,
        "extended_negative": value < 0,
        "extended_nonnegative": value >= 0,
        "extended_nonpositive": value <= 0,
        "extended_nonzero": value != 0,
        "even": value.denominator == 1 and value.numerator % 2 == 0,
        "odd": value.denominator == 1 and value.numerator % 2 == 1,
    }
    for key, want in s.assumptions0.items():
        if want is None:
            continue
        if key not in tests:  # prime, composite, irrational, ...: SymPy on the exact rational
            got = getattr(sympy.Rational(value.numerator, value.denominator), f"is_{key}", None)
            if got is not want:
                return False
        elif tests[key] != want:
            return False
    return True
