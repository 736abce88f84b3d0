"""Exact and outward-rounded interval certificates: the kernel's numeric checkers.

``enclose(expr, bits, env)`` evaluates a SymPy expression in ``mpmath.iv`` interval arithmetic
(``env`` gives intervals for free symbols), giving an interval guaranteed to contain every value:
each operation rounds outward, functions ``iv`` lacks are built from ones it has (``tanh`` from
``exp``) or enclosed rigorously by Arb's ball arithmetic (``erf``, ``erfc`` and ``special.SPECIAL``,
in ``symbolic.kernel.special``). Branches (``Max``, ``Min``, ``Abs``, ``Piecewise``) are taken only
when the interval decides them.

The checkers return facts about the formula they were given:

* ``check_nonzero(e)``: ``e ≠ 0`` — exact for rationals, else an enclosure excluding 0;
* ``check_compare(a, rel, b)``: ``a rel b`` for closed expressions, on intervals, never floats;
* ``check_bound_on(e, x, lo, hi, rel, bound)``: ``∀x ∈ [lo, hi]: e rel bound`` by bisection;
* ``counterexample(lhs, rhs, point)``: the identity ``∀vars: lhs = rhs`` *refuted* at ``point``
  when ``lhs − rhs`` there is certified nonzero (and ``point`` lies in the symbols' domain).

A float tolerance never certifies anything: ``1 + 1e-30 − 1`` is certified nonzero.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import to_rational

from symbolic.kernel import special
from symbolic.kernel.branches import difference
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.inputs import as_input, denominators, sympy_value
from symbolic.kernel.limits import BudgetExceeded, current_limits, deadline
from symbolic.kernel.logic import ForAll, domain_of
from symbolic.kernel.special import SPECIAL
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _verdict
from symbolic.versions import backend

START_BITS = 64
MAX_BITS = 4096  # separates differences down to ~1e-1200 relative to the terms
CERTIFY_TIMEOUT_S = 2.0
BOUND_PIECES = 4096  # the most pieces check_bound_on splits [lo, hi] into


class CannotEnclose(Exception):
    """The expression has a form the interval evaluator does not handle (or is not real)."""


def _erf(x):
    """A rigorous enclosure of erf on the interval x, from Arb (``iv`` has no rigorous erf)."""
    return special.erf(x)


def _erfc(x):
    """erfc = 1 − erf, kept relative for large x (erfc(26) ≈ 5.7e-296), from Arb."""
    return special.erfc(x)


def _abs(x):
    if x.a >= 0:
        return x
    if x.b <= 0:
        return -x
    return iv.mpf([0, max(-x.a, x.b)])


def _log(x):
    if x.a <= 0:
        raise CannotEnclose("log of a possibly non-positive number")
    return iv.log(x)


MAX_EXP_ARGUMENT = 2**40  # exp beyond this has an exponent too long to hold: not enclosed


def _exp(x):
    if max(abs(x.a), abs(x.b)) > MAX_EXP_ARGUMENT:
        raise CannotEnclose("exp of a number too large to enclose")
    return iv.exp(x)


def _pow(base, exponent: sympy.Expr, env, bits: int):
    if exponent.is_Integer:
        e = int(exponent)
        if abs(e) > 10**6:
            if base.a > 0:
                return _exp(iv.mpf(e) * iv.log(base))
            raise CannotEnclose("huge integer power of a possibly non-positive number")
        b = base if e >= 0 else 1 / base
        result = b ** abs(e) if abs(e) else iv.mpf(1)
        if e % 2 == 0 and result.a < 0:  # even power of an interval straddling 0
            result = iv.mpf([0, result.b])
        return result
    if exponent == sympy.S.Half:
        if base.a < 0:
            raise CannotEnclose("square root of a possibly negative number")
        return iv.sqrt(base)
    if base.a <= 0:
        if base.a == 0 and base.b == 0 and _enclose(exponent, env, bits).a > 0:
            return iv.mpf(0)
        raise CannotEnclose("non-integer power of a possibly non-positive number")
    return _exp(_enclose(exponent, env, bits) * iv.log(base))


def _asinh(x):
    return iv.log(x + iv.sqrt(x * x + 1)) if x.a >= 0 else -_asinh(-x)


def _acosh(x):
    if x.a < 1:
        raise CannotEnclose("acosh of a number possibly below 1")
    return iv.log(x + iv.sqrt(x * x - 1))


def _atanh(x):
    if not (x.a > -1 and x.b < 1):
        raise CannotEnclose("atanh outside (−1, 1)")
    return iv.log((1 + x) / (1 - x)) / 2


_FUNCS = {
    sympy.asinh: _asinh,
    sympy.acosh: _acosh,
    sympy.atanh: _atanh,
    sympy.exp: _exp,
    sympy.log: _log,
    sympy.tanh: lambda x: 1 - 2 / (_exp(2 * x) + 1),
    sympy.sinh: lambda x: (_exp(x) - _exp(-x)) / 2,
    sympy.cosh: lambda x: (_exp(x) + _exp(-x)) / 2,
    sympy.erf: _erf,
    sympy.erfc: _erfc,
    sympy.Abs: _abs,
}


def _enclose(expr: sympy.Expr, env: Mapping, bits: int):
    if expr in env:
        return env[expr]
    if expr.is_Integer:
        return iv.mpf(int(expr.p))
    if expr.is_Rational:
        return iv.mpf(int(expr.p)) / iv.mpf(int(expr.q))
    if expr is sympy.pi:
        return iv.pi
    if expr is sympy.E:
        return iv.e
    if expr.is_Float:
        p, q = to_rational(expr._mpf_)  # a binary float is an exact rational: every bit of
        return iv.mpf(p) / iv.mpf(q)  # it (mpmath.mpf would round to mpmath.mp's 53 bits)
    if expr.is_Add:
        total = iv.mpf(0)
        for arg in expr.args:
            total += _enclose(arg, env, bits)
        return total
    if expr.is_Mul:
        prod = iv.mpf(1)
        for arg in expr.args:
            prod *= _enclose(arg, env, bits)
        return prod
    if expr.is_Pow:
        return _pow(_enclose(expr.base, env, bits), expr.exp, env, bits)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [_enclose(a, env, bits) for a in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return iv.mpf([pick(p.a for p in parts), pick(p.b for p in parts)])
    if isinstance(expr, sympy.Piecewise):
        return _enclose_piecewise(expr, env, bits)
    if isinstance(expr, sympy.Heaviside):
        x = _enclose(expr.args[0], env, bits)
        if x.a > 0:
            return iv.mpf(1)
        if x.b < 0:
            return iv.mpf(0)
        raise CannotEnclose("Heaviside at a possibly zero argument")
    if isinstance(expr, sympy.sign):
        x = _enclose(expr.args[0], env, bits)
        if x.a > 0:
            return iv.mpf(1)
        if x.b < 0:
            return iv.mpf(-1)
        raise CannotEnclose("sign of a possibly zero argument")
    if isinstance(expr, sympy.CRootOf) and expr.is_real:
        return _root_interval(expr, bits)
    special = SPECIAL.get(expr.func)
    if special is not None:
        return special(*(_enclose(a, env, bits) for a in expr.args))
    fn = _FUNCS.get(expr.func)
    if fn is not None and len(expr.args) == 1:
        return fn(_enclose(expr.args[0], env, bits))
    raise CannotEnclose(f"no interval rule for {expr.func.__name__}")


MAX_ROOT_REFINEMENTS = 400  # bisection-like refinements of a root's isolating interval


def _root_interval(root: sympy.CRootOf, bits: int):
    """A real algebraic root enclosed by its isolating interval (exact rationals, from SymPy's
    root isolation), refined until it is about ``2**-bits`` wide."""
    interval = root._get_interval()
    width = sympy.Rational(1, 2 ** min(bits, 256))
    for _ in range(MAX_ROOT_REFINEMENTS):
        if interval.b - interval.a <= width * (1 + abs(interval.a)):
            break
        interval = interval.refine()
    lo, hi = sympy.Rational(interval.a), sympy.Rational(interval.b)
    return iv.mpf(
        [(iv.mpf(int(lo.p)) / iv.mpf(int(lo.q))).a, (iv.mpf(int(hi.p)) / iv.mpf(int(hi.q))).b]
    )


def _enclose_piecewise(expr: sympy.Piecewise, env, bits: int):
    for value, cond in expr.args:
        truth = _decide_condition(cond, env, bits)
        if truth is None:
            raise CannotEnclose("a Piecewise condition is undecided at this precision")
        if truth:
            return _enclose(value, env, bits)
    raise CannotEnclose("no Piecewise branch applies")


def _decide_condition(cond, env, bits: int) -> bool | None:
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if isinstance(cond, sympy.And):
        values = [_decide_condition(c, env, bits) for c in cond.args]
        return False if False in values else None if None in values else True
    if isinstance(cond, sympy.Or):
        values = [_decide_condition(c, env, bits) for c in cond.args]
        return True if True in values else None if None in values else False
    if isinstance(cond, sympy.core.relational.Relational):
        d = _enclose(cond.lhs - cond.rhs, env, bits)
        rel = cond.rel_op
        if rel in (">", ">="):
            if d.a > 0 or (rel == ">=" and d.a >= 0):
                return True
            if d.b < 0 or (rel == ">" and d.b <= 0):
                return False
        if rel in ("<", "<="):
            if d.b < 0 or (rel == "<=" and d.b <= 0):
                return True
            if d.a > 0 or (rel == "<" and d.a >= 0):
                return False
    return None


def enclose(expr: sympy.Expr, bits: int = START_BITS, env: Mapping | None = None):
    """An ``mpmath.iv`` interval containing every value of ``expr`` (free symbols from ``env``)."""
    expr = sympy_value(expr)
    env = dict(env or {})
    free = expr.free_symbols - set(env)
    if free:
        raise CannotEnclose(f"expression has free symbols {sorted(map(str, free))}")
    old = iv.prec
    iv.prec = bits
    try:
        return _enclose(expr, env, bits)
    except (
        ZeroDivisionError,
        OverflowError,
        ValueError,
        TypeError,
        MemoryError,
        RecursionError,
    ) as exc:
        raise CannotEnclose(f"interval evaluation failed ({type(exc).__name__})") from None
    finally:
        iv.prec = old


@dataclass(frozen=True)
class Enclosure:
    """``lo ≤ value ≤ hi`` at ``bits`` of working precision."""

    lo: mpmath.mpf
    hi: mpmath.mpf
    bits: int

    @property
    def excludes_zero(self) -> bool:
        return self.lo > 0 or self.hi < 0

    @property
    def sign(self) -> int:
        return 1 if self.lo > 0 else -1 if self.hi < 0 else 0

    def text(self, digits: int = 12) -> str:
        """The interval, printed outward (the printed end points still enclose)."""
        with mpmath.workprec(self.bits + 16):
            lo = mpmath.nstr(self.lo - abs(self.lo) * mpmath.mpf(10) ** (1 - digits), digits)
            hi = mpmath.nstr(self.hi + abs(self.hi) * mpmath.mpf(10) ** (1 - digits), digits)
        return f"[{lo}, {hi}]"

    def rational_bounds(self) -> tuple[sympy.Rational, sympy.Rational]:
        """The end points as exact rationals (a binary float is a rational): every bit and the
        sign kept (``mpmath.mpf(x).man_exp`` would round to 53 bits and drop the sign)."""

        def exact(x: mpmath.mpf) -> sympy.Rational:
            p, q = to_rational(x._mpf_)
            return sympy.Rational(p, q)

        return exact(self.lo), exact(self.hi)


def tight_enclosure(
    expr: sympy.Expr, until_sign: bool = True, max_bits: int = MAX_BITS, env: Mapping | None = None
) -> Enclosure:
    """Enclose at increasing precision until the sign is known (or ``max_bits`` is reached)."""
    bits = START_BITS
    while True:
        box = enclose(expr, bits, env)
        with mpmath.workprec(bits):  # keep every bit of the end points
            enc = Enclosure(mpmath.mpf(box.a), mpmath.mpf(box.b), bits)
        if (until_sign and enc.excludes_zero) or bits >= max_bits:
            return enc
        bits *= 2


def _closed(expr) -> sympy.Expr:
    expr = sympy_value(expr)
    if expr.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I):
        raise CannotEnclose("not a finite real number")
    return expr


def _sign_verdict(value: sympy.Expr, wanted: str, timeout_s: float, max_bits: int):
    """Verdict on ``value wanted 0`` (wanted in ≠, >, <, ≥, ≤) for a closed expression."""
    start = time.perf_counter()
    seconds = current_limits().sympy_seconds(timeout_s)
    try:
        with deadline(seconds) as dl:
            value = _closed(value)
            if value.is_Rational:
                sign = int(value.p > 0) - int(value.p < 0)
                how, cert, method, label = (
                    "exact rational value",
                    f"value = {value}",
                    "exact",
                    backend("sympy"),
                )
            else:
                enc = tight_enclosure(value, max_bits=max_bits)
                sign, method, label = enc.sign, "interval", backend("mpmath")
                how = f"interval at {enc.bits} bits"
                cert = f"value ∈ {enc.text()} ({enc.bits}-bit mpmath.iv)"
    except BudgetExceeded as exc:
        return _verdict(
            UNKNOWN, "interval", str(exc), timeout_s=seconds, seconds=time.perf_counter() - start
        )
    except (
        CannotEnclose,
        ZeroDivisionError,
        OverflowError,
        ValueError,
        TypeError,
        MemoryError,
        RecursionError,
    ) as exc:
        return _verdict(
            UNKNOWN, "interval", f"cannot enclose: {exc}", seconds=time.perf_counter() - start
        )
    elapsed = time.perf_counter() - start
    if dl.expired:
        return _verdict(
            UNKNOWN,
            method,
            f"time limit of {seconds:g} s passed",
            timeout_s=seconds,
            seconds=elapsed,
        )
    holds = {"≠": sign != 0, ">": sign > 0, "<": sign < 0}
    fails = {
        "≠": method == "exact" and sign == 0,
        ">": method == "exact" and sign <= 0 or (method == "interval" and sign < 0),
        "<": method == "exact" and sign >= 0 or (method == "interval" and sign > 0),
    }
    common = dict(certificate=cert, backend=label, timeout_s=seconds, seconds=elapsed)
    if holds[wanted]:
        return _verdict(PROVED, method, how, **common)
    if fails[wanted]:
        return _verdict(REFUTED, method, how, **common)
    return _verdict(UNKNOWN, method, f"{how}: sign not decided", **common)


def check_nonzero(
    expr: sympy.Expr, timeout_s: float = CERTIFY_TIMEOUT_S, max_bits: int = MAX_BITS
) -> Fact:
    """The fact ``expr ≠ 0`` for a closed expression: exact, or by interval arithmetic."""
    expr = as_input(expr, "expr")
    return _fact(sympy.Ne(expr, 0, evaluate=False), _sign_verdict(expr, "≠", timeout_s, max_bits))


_RELATIONS = {">": (sympy.StrictGreaterThan, 1), "<": (sympy.StrictLessThan, -1)}


def check_compare(
    lhs: sympy.Expr,
    rel: str,
    rhs: sympy.Expr,
    timeout_s: float = CERTIFY_TIMEOUT_S,
    max_bits: int = MAX_BITS,
) -> Fact:
    """The fact ``lhs rel rhs`` (rel ``>`` or ``<``) for closed expressions, certified by exact
    arithmetic or outward-rounded enclosures of ``lhs − rhs`` — never by floats."""
    if rel not in _RELATIONS:
        raise ValueError(f"rel={rel!r}: expected '>' or '<'")
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    cls, _ = _RELATIONS[rel]
    verdict = _sign_verdict(difference(lhs, rhs), rel, timeout_s, max_bits)
    return _fact(cls(lhs, rhs, evaluate=False), verdict)


def check_bound_on(
    expr: sympy.Expr,
    var: sympy.Symbol,
    lo: sympy.Expr,
    hi: sympy.Expr,
    rel: str,
    bound: sympy.Expr,
    timeout_s: float = CERTIFY_TIMEOUT_S,
    bits: int = 128,
) -> Fact:
    """The fact ``∀ var ∈ [lo, hi]: expr rel bound`` (rel ``<`` or ``>``), by interval
    evaluation on a bisection of ``[lo, hi]`` into at most ``BOUND_PIECES`` pieces."""
    if rel not in _RELATIONS:
        raise ValueError(f"rel={rel!r}: expected '>' or '<'")
    cls, sign = _RELATIONS[rel]
    expr, bound = as_input(expr, "expr"), as_input(bound, "bound")
    lo, hi = as_input(lo, "lo"), as_input(hi, "hi")
    formula = ForAll((var,), cls(expr, bound, evaluate=False), domain=sympy.Interval(lo, hi))
    start = time.perf_counter()
    seconds = current_limits().sympy_seconds(timeout_s)
    label = backend("mpmath")
    try:
        with deadline(seconds) as dl:
            old = iv.prec
            iv.prec = bits
            try:
                a, b = enclose(lo, bits), enclose(hi, bits)
                pending, done = [iv.mpf([a.a, b.b])], 0
                while pending:
                    piece = pending.pop()
                    gap = enclose(expr - bound, bits, {var: piece})
                    if (sign > 0 and gap.a > 0) or (sign < 0 and gap.b < 0):
                        done += 1
                        continue
                    if done + len(pending) >= BOUND_PIECES:
                        raise CannotEnclose(f"not decided with {BOUND_PIECES} pieces")
                    mid = iv.mpf((piece.a + piece.b) / 2).a
                    pending += [iv.mpf([piece.a, mid]), iv.mpf([mid, piece.b])]
            finally:
                iv.prec = old
    except BudgetExceeded as exc:
        return _fact(
            formula,
            _verdict(
                UNKNOWN,
                "interval",
                str(exc),
                backend=label,
                timeout_s=seconds,
                seconds=time.perf_counter() - start,
            ),
        )
    except CannotEnclose as exc:
        return _fact(
            formula,
            _verdict(
                UNKNOWN,
                "interval",
                f"bound undecided: {exc}",
                backend=label,
                seconds=time.perf_counter() - start,
            ),
        )
    elapsed = time.perf_counter() - start
    if dl.expired:
        return _fact(
            formula,
            _verdict(
                UNKNOWN,
                "interval",
                f"time limit of {seconds:g} s passed",
                backend=label,
                timeout_s=seconds,
                seconds=elapsed,
            ),
        )
    return _fact(
        formula,
        _verdict(
            PROVED,
            "interval",
            f"{done} pieces enclosed at {bits} bits",
            certificate=f"[{lo}, {hi}] split into {done} pieces",
            backend=label,
            timeout_s=seconds,
            seconds=elapsed,
        ),
    )


# A sign assumption of a symbol, as the relation to 0 certified for a value that is not rational
# (nonnegative as > 0: an irrational spelling of 0 stays undecided).
_SIGN_RELATIONS = {
    "positive": ">",
    "negative": "<",
    "nonzero": "≠",
    "nonnegative": ">",
    "nonpositive": "<",
}


def _read_off(
    value: sympy.Expr, facts: Mapping[str, bool], skip: frozenset = frozenset()
) -> bool | None:
    """Each assumption of ``facts`` (but those in ``skip``) read from ``value``'s own."""
    for key, wanted in facts.items():
        if key in skip:
            continue
        got = getattr(value, f"is_{key}", None)
        if got is None:
            return None
        if got != wanted:
            return False
    return True


def _in_domain(symbol: sympy.Symbol, value: sympy.Expr) -> bool | None:
    """Does ``value`` satisfy the assumptions SymPy attaches to ``symbol``? None: undecided.

    A rational value is judged on every assumption (SymPy decides each of a rational number
    exactly: ``nonnegative``, ``even``, ``prime``, ...). Otherwise the signs are certified by
    intervals (``_SIGN_RELATIONS``) and the other assumptions read from the value."""
    value = as_input(value, str(symbol))  # never text: a number or a SymPy object
    facts = {k: v for k, v in symbol.assumptions0.items() if v is not None}
    if value.is_Rational:
        return _read_off(value, facts)
    if facts.get("integer") or facts.get("rational"):
        return False  # a rational number would have been given as one
    for wanted in sorted({rel for key, rel in _SIGN_RELATIONS.items() if facts.get(key)}):
        v = _sign_verdict(value, wanted, CERTIFY_TIMEOUT_S, MAX_BITS)
        if v.status != PROVED:
            return None if v.status == UNKNOWN else False
    return _read_off(value, facts, skip=frozenset(_SIGN_RELATIONS) | {"zero"})


FILL_VALUES = tuple(sympy.Rational(v) for v in ("1", "2", "1/2", "-1", "0", "7/5"))


def counterexample(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    point: Mapping[sympy.Symbol, sympy.Expr],
    variables: tuple[sympy.Symbol, ...] | None = None,
    timeout_s: float = CERTIFY_TIMEOUT_S,
    max_bits: int = MAX_BITS,
) -> Fact:
    """The identity ``∀ variables: lhs = rhs`` (where its denominators are nonzero), refuted when
    ``lhs − rhs`` at ``point`` is certified nonzero; else unknown.

    A witness is a point of the formula's variables: ``point`` may give values only to free
    symbols of ``lhs`` and ``rhs`` (genuine symbols: an ``Indexed`` entry is a function of its
    base, not a variable, and an uninterpreted function no number) — an extra or non-symbol key
    is a ``ValueError``. A variable it leaves out is given the first value of ``FILL_VALUES`` in
    its domain (it can only be one that cancels from ``lhs − rhs``: otherwise the difference is
    not a number there), so that the witness assigns every variable of the formula. Each value
    must lie in its symbol's domain and every denominator be certified nonzero there (else
    unknown)."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    point = {k: as_input(v, str(k)) for k, v in dict(point).items()}
    free = lhs.free_symbols | rhs.free_symbols
    not_symbols = sorted(str(k) for k in set(point) | free if not isinstance(k, sympy.Symbol))
    if not_symbols:
        raise ValueError(
            f"a witness assigns genuine symbols only, not {not_symbols} (an Indexed "
            "entry is a function of its base)"
        )
    if lhs.has(sympy.core.function.AppliedUndef) or rhs.has(sympy.core.function.AppliedUndef):
        raise ValueError("a point cannot refute an identity of uninterpreted functions")
    variables = tuple(variables or sorted(point, key=str))
    extra = set(point) - free
    if extra or set(variables) != set(point):
        raise ValueError(
            f"the point must assign the formula's variables "
            f"{sorted(map(str, free))} and nothing else"
            + (f"; {sorted(map(str, extra))} are not its variables" if extra else "")
            + ("; variables and point differ" if set(variables) != set(point) else "")
        )
    for v in sorted(free - set(point), key=str):  # cancelled from lhs − rhs: any value will do
        value = next((c for c in FILL_VALUES if _in_domain(v, c) is True), None)
        if value is None:
            raise ValueError(f"the point gives no value for {v}")
        point[v] = value
    variables = tuple(sorted(point, key=str))
    formula = ForAll(variables, sympy.Eq(lhs, rhs, evaluate=False), domain=domain_of(variables))
    witness = tuple((str(v), sympy.sstr(point[v])) for v in variables)
    for v in variables:
        inside = _in_domain(v, point[v])
        if inside is not True:
            why = "outside" if inside is False else "not certified inside"
            return _fact(
                formula,
                _verdict(
                    UNKNOWN,
                    "interval",
                    f"{v} = {point[v]} is {why} the domain of {v}",
                    witness=witness,
                ),
            )
    try:
        from symbolic.kernel.branches import at

        instance = at(difference(lhs, rhs), point)
        singular = [at(d, point) for d in denominators(lhs, rhs)]
    except (
        TypeError,
        ValueError,
        ZeroDivisionError,
        OverflowError,
        AttributeError,
        NotImplementedError,
        RecursionError,
    ) as exc:
        return _fact(
            formula,
            _verdict(
                UNKNOWN,
                "interval",
                f"cannot evaluate at the point ({type(exc).__name__})",
                witness=witness,
            ),
        )
    for d in singular:  # the identity is claimed only where its denominators are nonzero
        defined = _sign_verdict(d, "≠", timeout_s, max_bits)
        if defined.status != PROVED:
            return _fact(
                formula,
                _verdict(
                    UNKNOWN,
                    "interval",
                    "a denominator is not certified nonzero at the point",
                    witness=witness,
                ),
            )
    nonzero = _sign_verdict(instance, "≠", timeout_s, max_bits)
    if nonzero.status == PROVED:
        verdict = _verdict(
            REFUTED,
            nonzero.method,
            "lhs − rhs is certified nonzero at the witness",
            witness=witness,
            certificate=nonzero.certificate,
            backend=nonzero.backend,
            timeout_s=nonzero.timeout_s,
            seconds=nonzero.seconds,
        )
    else:
        verdict = _verdict(
            UNKNOWN,
            nonzero.method,
            f"not certified at the point: {nonzero.reason}",
            witness=witness,
            seconds=nonzero.seconds,
        )
    return _fact(formula, verdict)
