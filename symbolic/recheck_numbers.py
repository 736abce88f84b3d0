"""The re-check's own numbers (issue 25): an interval evaluator, exact rationals, and the
checks of certificates, bounds, witnesses and spot checks — no kernel code.

* ``ivalue(e)`` encloses a closed expression in ``mpmath.iv`` (outward rounding); ``erf`` and
  ``besseli`` from mpmath's values at 32 extra bits, widened (monotone on the arguments used).
* ``exact(e)`` is the exact rational value of a rational expression (``+``, ``·``, integer
  powers), or None.
* ``relation_holds(rel, lo, hi)`` says whether ``d rel 0`` holds for every ``d ∈ [lo, hi]``
  (True), for none (False), or is not decided (None).
* ``check_comparison``, ``check_bound``, ``check_witness``, ``spot_check``: each returns
  ``(outcome, text)`` with outcome ``"proved"``, ``"refuted"``, ``"spot-checked"``,
  ``"DISAGREES"`` or ``"unknown"``.
"""

from __future__ import annotations

import hashlib
import math
import random
from fractions import Fraction

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import to_rational
from sympy.core.function import AppliedUndef

from symbolic.formula_reader import read_fraction
from symbolic.kernel import Exists, ForAll

RECHECK_BITS = (64, 256, 1024)
BOUND_BITS, BOUND_PIECES = 128, 4096
MAX_EXP_ARGUMENT = 10**6
SPOT_POINTS = 4  # random points of the domain per spot-checked formula
SPOT_BITS = 128
SPOT_SYMPY_S = 2.0  # CPU seconds to evaluate a formula at one point
SPOT_SIMPLIFY_S = 0.5  # CPU seconds for SymPy's own re-simplification in the re-check


class NotEnclosed(Exception):
    """The evaluator cannot enclose this expression (or the enclosure decides nothing)."""


def _monotone(f, x):
    """``f`` increasing: [f(a)↓, f(b)↑] from mpmath's arbitrary-precision value, widened by
    2^-(prec-8) relative (mpmath's special functions are accurate to the working precision)."""
    a, b = (mpmath.mp.make_mpf(raw) for raw in x._mpi_)  # exact end points
    with mpmath.workprec(iv.prec + 32):
        lo, hi = f(a), f(b)
        eps = mpmath.mpf(2) ** (8 - iv.prec)
        tiny = mpmath.mpf(2) ** -1000
        lo, hi = lo - abs(lo) * eps - tiny, hi + abs(hi) * eps + tiny
    return iv.mpf([lo, hi])


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
        d = ivalue(cond.lhs - cond.rhs, env)
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
        return iv.exp(ivalue(ex, env) * iv.log(b))
    if isinstance(e, sympy.exp):
        x = ivalue(e.args[0], env)
        if x.b > MAX_EXP_ARGUMENT:
            raise NotEnclosed("exp of an argument beyond 10^6")
        return iv.exp(x)
    if isinstance(e, sympy.log):
        x = ivalue(e.args[0], env)
        if x.a <= 0:
            raise NotEnclosed("log of a non-positive interval")
        return iv.log(x)
    if isinstance(e, sympy.tanh):
        x = ivalue(e.args[0], env)
        t = iv.exp(2 * x)
        return 1 - 2 / (t + 1)
    if isinstance(e, sympy.erf):
        return _monotone(mpmath.erf, ivalue(e.args[0], env))
    order = exact(e.args[0]) if isinstance(e, sympy.besseli) else None
    if order is not None and order.denominator == 1 and order >= 0:  # I_n, n read exactly
        x = ivalue(e.args[1], env)
        if x.a <= 0:
            raise NotEnclosed("besseli at a non-positive argument")
        n = int(order)
        return _monotone(lambda t: mpmath.besseli(n, t), x)
    if isinstance(e, sympy.gamma):
        n = exact(e.args[0])
        if n is not None and n.denominator == 1 and 1 <= n <= MAX_FACTORIAL:
            return iv.mpf(math.factorial(int(n) - 1))  # Γ(n) = (n − 1)!, exactly
        x = ivalue(e.args[0], env)
        if x.a < 2:  # Γ increases on [x₀ ≈ 1.4616, ∞); 2 keeps clear of its minimum
            raise NotEnclosed("gamma below 2")
        return _monotone(mpmath.gamma, x)
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


def _exact(raw) -> Fraction:
    """An mpmath raw float (sign, man, exp, bc) as an exact fraction."""
    p, q = to_rational(raw)
    return Fraction(p, q)


MAX_EXACT_BITS = 1_000_000  # an exact power larger than this is left to intervals
MAX_FACTORIAL = 10_000  # Γ(n) = (n − 1)! computed exactly up to this n


def exact(e: sympy.Basic) -> Fraction | None:
    """The exact value of a rational expression (``+``, ``·``, integer powers of rationals),
    or None."""
    if isinstance(e, sympy.Rational):
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, (sympy.Add, sympy.Mul)):
        parts = [exact(a) for a in e.args]
        if any(p is None for p in parts):
            return None
        out = Fraction(0) if isinstance(e, sympy.Add) else Fraction(1)
        for p in parts:
            out = out + p if isinstance(e, sympy.Add) else out * p
        return out
    if isinstance(e, sympy.Pow) and isinstance(e.args[1], sympy.Integer):
        b, n = exact(e.args[0]), int(e.args[1])
        if b is None or (b == 0 and n < 0):
            return None
        size = max(b.numerator.bit_length(), b.denominator.bit_length())
        if size * abs(n) > MAX_EXACT_BITS:
            return None
        return b**n
    return None


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
        a, b = (_exact(raw) for raw in box._mpi_)
        last = (a, b, f"iv {bits} bits")
        decided = relation_holds(rel, a, b)
        if decided is not None:
            return decided, a, b, f"iv {bits} bits"
    return None, *last


def _exported(cert: dict) -> tuple[Fraction, Fraction]:
    """The certificate's value or enclosure as exact end points (``lo ≤ hi`` checked)."""
    if "value" in cert:
        v = read_fraction(cert["value"])
        return v, v
    enc = cert.get("enclosure")
    if not isinstance(enc, dict):
        raise NotEnclosed("neither a value nor an enclosure")
    lo, hi = read_fraction(enc.get("lo")), read_fraction(enc.get("hi"))
    if lo > hi:
        raise ValueError(f"enclosure end points lo = {lo} > hi = {hi}")
    return lo, hi


def _compare(e: sympy.Expr, rel: str, cert: dict, want: bool) -> tuple[str, str]:
    lo, hi = _exported(cert)
    if relation_holds(rel, lo, hi) is not want:
        return "DISAGREES", f"the exported [{lo}, {hi}] does not decide {rel} 0 as claimed"
    decided, a, b, how = enclose(e, rel)
    if decided is None:
        return "unknown", f"{how}: {rel} 0 not decided"
    if decided is not want:
        return "DISAGREES", f"{how}: {rel} 0 is {decided}"
    if not (a <= hi and lo <= b):
        return "DISAGREES", f"{how}: disjoint from the exported enclosure"
    return ("proved" if want else "refuted"), f"{how}: {rel} 0"


def check_comparison(formula: sympy.Basic, expected: str, cert: dict) -> tuple[str, str]:
    """A closed comparison ``lhs rel rhs`` (the formula itself), re-decided."""
    if not isinstance(formula, sympy.core.relational.Relational) or formula.free_symbols:
        return "DISAGREES", "not a closed comparison"
    return _compare(difference(formula), formula.rel_op, cert, expected == "proved")


def check_bound(formula: sympy.Basic) -> tuple[str, str]:
    """``∀ x ∈ [lo, hi]: lhs rel rhs`` by a bisection of its own (on the closed interval)."""
    if not (
        isinstance(formula, ForAll)
        and len(formula.variables) == 1
        and isinstance(formula.domain, sympy.Interval)
        and isinstance(formula.body, sympy.core.relational.Relational)
    ):
        return "DISAGREES", "not a bound ∀ x ∈ [lo, hi]: lhs rel rhs"
    var, body = formula.variables[0], formula.body
    if body.free_symbols - {var}:
        return "DISAGREES", "a bound with other free symbols"
    rel, gap_expr = body.rel_op, difference(body)
    old = iv.prec
    iv.prec = BOUND_BITS
    try:
        lo, hi = ivalue(formula.domain.start), ivalue(formula.domain.end)
        pending, done = [iv.mpf([lo.a, hi.b])], 0
        while pending:
            piece = pending.pop()
            gap = ivalue(gap_expr, {var: piece})
            decided = relation_holds(rel, *(_exact(r) for r in gap._mpi_))
            if decided:
                done += 1
                continue
            if decided is False:
                return "DISAGREES", f"{rel} fails on all of [{piece.a}, {piece.b}]"
            if done + len(pending) >= BOUND_PIECES:
                return "unknown", f"not decided in {BOUND_PIECES} pieces"
            mid = iv.mpf((piece.a + piece.b) / 2).a
            pending += [iv.mpf([piece.a, mid]), iv.mpf([mid, piece.b])]
    except (NotEnclosed, ZeroDivisionError, ValueError, OverflowError) as exc:
        return "unknown", f"not re-enclosed: {exc}"
    finally:
        iv.prec = old
    return "proved", f"∀ {var}: {rel} on {done} iv pieces"


def _in_set(value: Fraction, s: sympy.Basic) -> bool:
    if s == sympy.S.Reals:
        return True
    if isinstance(s, sympy.Union):  # (−∞, 0) ∪ (0, ∞): in one of its parts
        return any(_in_set(value, part) for part in s.args)
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


def _satisfies(s: sympy.Symbol, value: Fraction) -> bool:
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
        if want is None or key not in tests:
            continue
        if tests[key] != want:
            return False
    return True


def check_witness(formula: sympy.Basic, point: dict, cert: dict, read) -> tuple[str, str]:
    """An identity ``∀ v ∈ D: lhs = rhs`` (or ``lhs = rhs`` in its free symbols) refuted at a
    witness point: every variable given a rational in its domain (its assumptions and the
    quantifier's set, from the manifest's formula), and ``lhs − rhs ≠ 0`` there."""
    if isinstance(formula, ForAll):
        ranges, body = formula.ranges(), formula.body
    else:
        ranges, body = [(s, sympy.S.Reals) for s in formula.free_symbols], formula
    if not isinstance(body, sympy.Eq):
        return "DISAGREES", "a witness refutes an identity lhs = rhs only"
    if not isinstance(point, dict) or set(point) != {str(v) for v, _ in ranges}:
        return "DISAGREES", "the witness does not give every variable a value"
    values = {}
    for v, dom in ranges:
        q = read(point[str(v)])
        if not isinstance(q, sympy.Rational):
            return "DISAGREES", f"{v} = {q} is not a rational"
        value = Fraction(int(q.p), int(q.q))
        if not _satisfies(v, value) or not _in_set(value, dom):
            return "DISAGREES", f"witness outside the domain: {v} = {value}"
        values[v] = q
    e = difference(body).xreplace(values)
    if e.free_symbols:
        return "DISAGREES", f"free symbols at the witness: {sorted(map(str, e.free_symbols))}"
    outcome, text = _compare(e, "!=", cert, True)
    if outcome == "proved":
        return "refuted", f"{text} at {', '.join(f'{k} = {v}' for k, v in values.items())}"
    return outcome, text


def degree_form(formula: sympy.Basic):
    """``∃p ∀α ∈ (0, ∞), z ∈ ℝ: A(α, z) = α^p·R(z)`` read off the formula: (p, α, z, A, R),
    or None when it has another shape. ``R`` is what multiplies ``α^p``; neither ``A`` nor
    ``R`` may hold ``p``, and ``R`` not ``α``."""
    if not (isinstance(formula, Exists) and len(formula.variables) == 1):
        return None
    inner = formula.body
    if formula.domain != sympy.S.Reals or not isinstance(inner, ForAll):
        return None
    ranges = list(inner.ranges())
    if len(ranges) != 2 or not isinstance(inner.body, sympy.Eq):
        return None
    (p,), ((alpha, a_dom), (z, z_dom)) = formula.variables, ranges
    if a_dom != sympy.Interval.open(0, sympy.oo) or z_dom != sympy.S.Reals:
        return None
    lhs, rhs = inner.body.lhs, inner.body.rhs
    factors = list(sympy.Mul.make_args(rhs))
    power = sympy.Pow(alpha, p, evaluate=False)
    if sum(1 for f in factors if f == power) != 1:
        return None
    factors.remove(power)
    rest = sympy.Mul(*factors, evaluate=False) if factors else sympy.S.One
    if p in lhs.free_symbols or rest.free_symbols - {z} or lhs.free_symbols - {alpha, z}:
        return None
    return p, alpha, z, lhs, rest


def check_no_degree(formula: sympy.Basic, cert: dict, read) -> tuple[str, str]:
    """``∃p ∀α > 0, z: A(α, z) = α^p·R(z)`` refuted from two of its instances, at the
    certificate's ``u = ±1`` and ``z0 ≠ 0`` (rationals):

    * α = |z0|, z = sign(z0) needs A(|z0|, sign z0) = |z0|^p·R(sign z0). Where R(sign z0) is
      exactly 0 and A(|z0|, sign z0) ≠ 0, no p satisfies it.
    * Otherwise α = 2, z = u needs 2^p·R(u) = A(2, u): with R(u) ≠ 0, 2^p = A(2, u)/R(u), so
      no p when that ratio is ≤ 0, else only p = log₂ of it; then the first instance at that
      p must fail (≠ 0, certified).

    Every value is decided by the re-check's own exact or interval evaluation."""
    shape = degree_form(formula)
    if shape is None:
        return "DISAGREES", "not of the form ∃p ∀α > 0, z: A(α, z) = α^p·R(z)"
    p, alpha, z, lhs, rest = shape
    wit = cert.get("degree_witness")
    if not isinstance(wit, dict) or set(wit) != {"u", "z0"}:
        return "DISAGREES", "the certificate gives no witness u, z0"
    u, z0 = read(wit["u"]), read(wit["z0"])
    if u not in (sympy.S.One, sympy.S.NegativeOne) or not isinstance(z0, sympy.Rational):
        return "DISAGREES", "u must be ±1 and z0 a rational"
    if z0 == 0:
        return "DISAGREES", "z0 = 0"
    sign, size = (sympy.S.One if z0 > 0 else sympy.S.NegativeOne), abs(z0)
    at_z0 = lhs.xreplace({alpha: size, z: sign})
    r_sign = rest.xreplace({z: sign})
    where = f"u = {u}, z0 = {z0}"
    if exact(r_sign) == 0:
        decided, _, _, how = enclose(at_z0, "!=")
        if decided is True:
            return "refuted", f"{how}: R({sign}) = 0 but A({size}, {sign}) ≠ 0 ({where})"
        return "unknown", f"{how}: A({size}, {sign}) ≠ 0 not decided ({where})"
    r_u = rest.xreplace({z: u})
    if enclose(r_u, "!=")[0] is not True:
        return "unknown", f"R({u}) ≠ 0 not decided ({where})"
    ratio = sympy.Mul(lhs.xreplace({alpha: 2, z: u}), sympy.Pow(r_u, -1), evaluate=False)
    decided, _, _, how = enclose(ratio, ">")
    if decided is False:
        return "refuted", f"{how}: 2^p = A(2, {u})/R({u}) ≤ 0 has no real p ({where})"
    if decided is None:
        return "unknown", f"{how}: the sign of A(2, {u})/R({u}) not decided ({where})"
    forced = sympy.log(ratio) / sympy.log(2)
    miss = sympy.Add(at_z0, -(size**forced) * r_sign, evaluate=False)
    decided, _, _, how = enclose(miss, "!=")
    if decided is True:
        return "refuted", f"{how}: p = log₂(A(2, {u})/R({u})) misses at α = {size} ({where})"
    return "unknown", f"{how}: the miss at α = {size} not decided ({where})"


# -- spot checks --------------------------------------------------------------------------------


def _seed(formula: sympy.Basic) -> int:
    return int.from_bytes(hashlib.sha256(sympy.srepr(formula).encode()).digest()[:8], "big")


def _sample(rng: random.Random, s: sympy.Symbol, dom: sympy.Basic) -> Fraction | None:
    for _ in range(40):
        if s.is_integer:  # sizes 2..3, indices 0..1: small, and mostly in range
            value = Fraction(
                rng.randint(2, 3)
                if s.is_positive
                else rng.randint(0, 1)
                if s.is_nonnegative
                else rng.randint(-2, 2)
            )
        else:
            value = Fraction(rng.randint(-400, 400), rng.randint(1, 97))
        if isinstance(dom, sympy.Interval) and dom.start.is_finite and dom.end.is_finite:
            a, b = (exact(dom.start), exact(dom.end))
            if a is not None and b is not None and not s.is_integer:
                value = a + (b - a) * Fraction(rng.randint(1, 999), 1000)
        try:
            if _satisfies(s, value) and _in_set(value, dom):
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


def _at_point(body: sympy.Basic, rng: random.Random, ranges) -> bool | None:
    """The relation ``body`` at one random point. Its two sides are made concrete and evaluated
    apart: the relation is never rebuilt with SymPy evaluating it, which would compare sides
    still holding σ and symbolic sums (numerically, with no guarantee)."""
    from symbolic.kernel import deadline

    values = {}
    for v, dom in ranges:
        value = _sample(rng, v, dom)
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
    from symbolic.kernel import deadline

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
