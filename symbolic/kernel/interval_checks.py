"""The interval checkers: signs and comparisons of closed numbers, bounds on an interval.

* ``check_nonzero(e)``: ``e ≠ 0`` — exact for rationals, else an enclosure excluding 0;
* ``check_compare(a, rel, b)``: ``a rel b`` for closed expressions, on intervals, never floats;
* ``check_bound_on(e, x, lo, hi, rel, bound)``: ``∀x ∈ [lo, hi]: e rel bound`` by bisection.

Each runs under the context's time limit; every enclosure is ``symbolic.kernel.intervals``'.
A float tolerance never certifies anything: ``1 + 1e-30 − 1`` is certified nonzero.
"""

from __future__ import annotations

import sympy
from mpmath import iv

from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.float_blind import float_blind_risk
from symbolic.kernel.huge_powers import difference
from symbolic.kernel.inputs import as_input
from symbolic.kernel.intervals import (
    EVALUATION_ERRORS,
    MAX_BITS,
    CannotEnclose,
    enclose,
    tight_enclosure,
)
from symbolic.kernel.logic import ForAll, sympy_value
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, Clock, Verdict, _revise
from symbolic.limits import BudgetExceeded, deadline
from symbolic.versions import backend

CERTIFY_TIMEOUT_S = 2.0
BOUND_PIECES = 4096  # the most pieces check_bound_on splits [lo, hi] into


def _closed(expr) -> sympy.Expr:
    expr = sympy_value(expr)
    if expr.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I):
        raise CannotEnclose("not a finite real number")
    return expr


ENCLOSE_ERRORS = (CannotEnclose, *EVALUATION_ERRORS)


# What a closed complex number is split into a + b·i through: arithmetic, the principal branches
# of roots and log, the elementary functions, modulus and parts — no convention of SymPy's own
_COMPLEX_NODES = (sympy.Number, sympy.NumberSymbol, sympy.core.numbers.ImaginaryUnit)
_COMPLEX_NODES += (sympy.Add, sympy.Mul, sympy.Pow, sympy.exp, sympy.log, sympy.sin, sympy.cos)
_COMPLEX_NODES += (sympy.tan, sympy.sinh, sympy.cosh, sympy.tanh, sympy.Abs, sympy.re, sympy.im)
_COMPLEX_NODES += (sympy.conjugate,)


def complex_parts(value: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr] | None:
    """(a, b), real, of a closed non-real number ``a + b·i`` (``2·i − 2``, ``2·(−1)^{1/3} + 2``)
    as ``expand(complex=True)`` writes it; None for a number that may be real, or holds a root or
    a sign-sensitive head of a closed irrational number (SymPy would pick its branch by a float:
    ``float_blind``), or a head off the real line by SymPy's own convention (``floor(iπ)``)."""
    value = sympy_value(value)
    if value.free_symbols or value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    if not (value.has(sympy.I) or value.is_extended_real is False) or float_blind_risk(value):
        return None
    if not all(isinstance(n, _COMPLEX_NODES) for n in sympy.preorder_traversal(value)):
        return None  # floor(iπ) = 3i, sign, Max, ...: SymPy's conventions off the real line
    split = sympy.expand(value, complex=True)
    b = split.coeff(sympy.I)
    a = sympy.expand(split - b * sympy.I)
    if any(p.has(sympy.I) or p.is_extended_real is not True for p in (a, b)):
        return None
    return a, b


def complex_safe(*exprs: sympy.Basic) -> bool:
    """Is every node of ``exprs`` a symbol or one of ``_COMPLEX_NODES``? Only then may a value of
    theirs (at a point: SymPy evaluates ``floor(log x)`` at −1 to its own ``floor(iπ) = 3i``) be
    judged nonzero by its imaginary part."""
    return all(
        isinstance(n, (sympy.Symbol, *_COMPLEX_NODES))
        for e in exprs
        for n in sympy.preorder_traversal(sympy_value(e))
    )


def _sign_verdict(
    value: sympy.Expr, wanted: str, timeout_s: float, max_bits: int, complex_ok: bool = False
):
    """Verdict on ``value wanted 0`` (wanted in ≠, >, <, ≥, ≤) for a closed expression.
    ``complex_ok``: the caller vouches (``complex_safe``) that ``value`` comes from a formula of
    arithmetic, roots, log and the elementary functions only: a non-real value is nonzero where
    its imaginary part is."""
    clock = Clock(timeout_s, "interval")
    try:
        with deadline(clock.limit) as dl:
            parts = complex_parts(value) if wanted == "≠" and complex_ok else None
            if parts is not None and parts == (0, 0):  # SymPy's rewrite to exactly 0
                why = "real and imaginary parts are exactly 0"
                return clock.verdict(REFUTED, why, method="exact", certificate=why)
            if parts is not None and parts[1] != 0:  # a + b·i ≠ 0 where b ≠ 0 (a, b real)
                found = _sign_verdict(parts[1], "≠", timeout_s, max_bits, True)
                if found.status == PROVED:
                    why = f"its imaginary part is nonzero: {found.reason}"
                    return _revise(found, reason=why, certificate=f"Im: {found.certificate}")
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
        return clock.verdict(UNKNOWN, str(exc))
    except ENCLOSE_ERRORS as exc:
        return clock.verdict(UNKNOWN, f"cannot enclose: {exc}", timeout_s=None)
    if dl.expired:
        return clock.verdict(UNKNOWN, f"time limit of {clock.limit:g} s passed", method=method)
    holds = {"≠": sign != 0, ">": sign > 0, "<": sign < 0}
    fails = {
        "≠": method == "exact" and sign == 0,
        ">": method == "exact" and sign <= 0 or (method == "interval" and sign < 0),
        "<": method == "exact" and sign >= 0 or (method == "interval" and sign > 0),
    }
    status = PROVED if holds[wanted] else REFUTED if fails[wanted] else UNKNOWN
    reason = how if status != UNKNOWN else f"{how}: sign not decided"
    return clock.verdict(status, reason, method=method, certificate=cert, backend=label)


def certified_sign(value: sympy.Expr, timeout_s: float = 2.0) -> tuple[int | None, Verdict]:
    """The sign of the closed ``value`` (1, −1; 0 only when exactly 0), certified exactly or
    by intervals, with the verdict that decided it (its certificate); None when undecided.
    Never SymPy's own sign of a number, which compares at a working precision
    (log(e⁻¹⁰⁰ + 1) − log(e⁻⁹⁹ + 1) came out nonnegative)."""
    above = _sign_verdict(value, ">", timeout_s, MAX_BITS)
    if above.status == PROVED:
        return 1, above
    below = _sign_verdict(value, "<", timeout_s, MAX_BITS)
    if below.status == PROVED:
        return -1, below
    if above.status == below.status == REFUTED:
        return 0, below
    # undecided: the verdict that says why (a time limit on one side is not a refutation)
    return None, next((v for v in (above, below) if v.status != REFUTED), below)


def check_nonzero(
    expr: sympy.Expr, timeout_s: float = CERTIFY_TIMEOUT_S, max_bits: int = MAX_BITS
) -> Fact:
    """The fact ``expr ≠ 0`` for a closed expression: exact, or by interval arithmetic."""
    expr = as_input(expr, "expr")
    verdict = _sign_verdict(expr, "≠", timeout_s, max_bits, complex_safe(expr))
    return _fact(sympy.Ne(expr, 0, evaluate=False), verdict)


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
    if (hi - lo).is_positive is not True:
        raise ValueError(f"[{sympy.sstr(lo)}, {sympy.sstr(hi)}]: lo must be below hi")
    formula = ForAll((var,), cls(expr, bound, evaluate=False), domain=sympy.Interval(lo, hi))
    clock = Clock(timeout_s, "interval", backend("mpmath"))
    try:
        with deadline(clock.limit) as dl:
            done = _bisect(expr - bound, var, lo, hi, sign, bits)
    except BudgetExceeded as exc:
        return _fact(formula, clock.verdict(UNKNOWN, str(exc)))
    except CannotEnclose as exc:
        return _fact(formula, clock.verdict(UNKNOWN, f"bound undecided: {exc}", timeout_s=None))
    if dl.expired:
        return _fact(formula, clock.verdict(UNKNOWN, f"time limit of {clock.limit:g} s passed"))
    certificate = f"[{lo}, {hi}] split into {done} pieces"
    reason = f"{done} pieces enclosed at {bits} bits"
    return _fact(formula, clock.verdict(PROVED, reason, certificate=certificate))


def _bisect(gap: sympy.Expr, var: sympy.Symbol, lo, hi, sign: int, bits: int) -> int:
    """The number of pieces of ``[lo, hi]`` on each of which ``gap`` is enclosed with ``sign``
    (at most ``BOUND_PIECES``; else ``CannotEnclose``)."""
    old = iv.prec
    iv.prec = bits
    try:
        a, b = enclose(lo, bits), enclose(hi, bits)
        pending, done = [iv.mpf([a.a, b.b])], 0
        while pending:
            piece = pending.pop()
            box = enclose(gap, bits, {var: piece})
            if (sign > 0 and box.a > 0) or (sign < 0 and box.b < 0):
                done += 1
                continue
            if done + len(pending) >= BOUND_PIECES:
                raise CannotEnclose(f"not decided with {BOUND_PIECES} pieces")
            mid = iv.mpf((piece.a + piece.b) / 2).a
            pending += [iv.mpf([piece.a, mid]), iv.mpf([mid, piece.b])]
        return done
    finally:
        iv.prec = old
