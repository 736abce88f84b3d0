"""The activation parser's bounds on constants and exponents: a float64 estimate of every
constant SymPy builds (``ConstantEstimates.measure``), taken *before* SymPy could evaluate it
exactly (``10**10**10``) or to high precision (``max(exp(exp(700)), 0)``), recomputed at high
precision where float64 may lie (``ill_conditioned``), and the limits on exponents SymPy's own
rewriting turns into big work (``check_exponent``)."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable

import sympy

from symbolic.activations import z
from symbolic.languages.domain_sign import ACCURATE_BITS, accurate_value
from symbolic.languages.expression_limits import (
    MAX_CONSTANT,
    MAX_CONSTANT_SIZE,
    MAX_EXPONENT,
    MAX_EXPONENT_RATIONAL,
    MAX_RATIONAL_BITS,
    MIN_CONSTANT,
    NearZero,
    Reject,
    number_text,
    short,
)
from symbolic.languages.expression_signs import Info, sign_by_form
from symbolic.languages.functions import BY_HEAD, CANCELLATION, FUNCTIONS


def float_pow(b: float, p: float) -> float:
    v = b ** (int(p) if p.is_integer() else p)
    if isinstance(v, complex):
        raise ValueError("a negative number to a fractional power")
    return float(v)


# float64 estimates of the constants SymPy may produce, keyed by the SymPy class: the branches
# here, the elementary functions from their rows in the functions table.
APPROX: dict[type, Callable[..., float]] = {
    sympy.Add: lambda *v: math.fsum(v),
    sympy.Mul: lambda *v: math.prod(v),
    sympy.Pow: float_pow,
    sympy.Abs: abs,
    sympy.Max: max,
    sympy.Min: min,
    **{f.head: f.estimate for f in FUNCTIONS},
}
RELATIONS = {
    sympy.StrictGreaterThan: operator.gt,
    sympy.GreaterThan: operator.ge,
    sympy.StrictLessThan: operator.lt,
    sympy.LessThan: operator.le,
}


class ConstantEstimates:
    """Size, float64 estimate and sign by form of every SymPy expression the parser builds,
    recorded once per expression in ``info`` (``measure``)."""

    info: dict[sympy.Basic, Info]

    def measure(self, e: sympy.Basic) -> Info:
        """Size and float64 estimate of ``e``; raise Reject for a constant SymPy could only
        handle at great cost (huge, tiny, inexact zero) or that is not a real number."""
        known = self.info.get(e)
        if known is not None:
            return known
        kids = [self.measure(a) for a in e.args]
        constant = e != z and all(k.constant for k in kids)
        value = None
        if constant and isinstance(e, sympy.Expr):
            value = self.approximate(e, [k.value for k in kids])
        if isinstance(e, (sympy.Pow, sympy.exp)):
            check_exponent(e, kids)
        size = 1 + sum(k.size for k in kids)
        if value is not None and size > MAX_CONSTANT_SIZE and not isinstance(e, sympy.Rational):
            raise Reject(
                f"is a constant of {size} SymPy nodes; at most {MAX_CONSTANT_SIZE}: "
                "write it as a decimal"
            )
        pieces = isinstance(e, sympy.Piecewise) + sum(k.pieces for k in kids)
        info = Info(size, pieces, constant, value, *sign_by_form(e, kids, value), tuple(kids))
        self.info[e] = info
        return info

    def approximate(self, e: sympy.Expr, values: list[float | None]) -> float:
        if isinstance(e, sympy.Rational):
            bits = max(int(e.p).bit_length(), int(e.q).bit_length())
            if bits > MAX_RATIONAL_BITS:
                raise Reject(f"gives an exact number of {bits} bits; at most {MAX_RATIONAL_BITS}")
            try:
                value = int(e.p) / int(e.q)
            except OverflowError:
                value = math.inf
            check_size(value, exactly_zero=e.p == 0)
            return value
        if e is sympy.pi or e is sympy.E:
            return float(e)
        if e is sympy.I:
            raise Reject("is not real")
        if e.is_Number or e is sympy.zoo:  # only Rationals are built; nan, oo, zoo mean trouble
            raise Reject(f"is undefined (SymPy gives {e})")
        if isinstance(e, sympy.Piecewise):
            return self.approximate_piecewise(e)
        rule = APPROX.get(type(e))
        if rule is None or any(v is None for v in values):
            raise Reject(f"gives the constant {type(e).__name__}, which cannot be checked")
        spec = BY_HEAD.get(type(e))
        growth = spec.exp_growth if spec is not None else None
        if growth is not None and growth(values[0]) > math.log(MAX_CONSTANT):
            raise Reject(
                f"saturates: {type(e).__name__} of a constant as large as "
                f"{values[0]:.3g} stands for an exponential beyond "
                f"{MAX_CONSTANT:.0e}; use a smaller argument"
            )
        try:
            value = rule(*values)
        except OverflowError:
            value = math.inf
        except ZeroDivisionError:
            raise Reject("divides by zero") from None
        except ValueError:
            raise Reject(
                "is undefined or not real (e.g. log or sqrt of a negative number)"
            ) from None
        if ill_conditioned(e, values, value):  # float64 cannot tell its size or sign
            value = accurate_value(e)
            if value is None:
                raise NearZero(
                    "is a constant too close to 0 to tell its sign (below "
                    f"float64's range or within 2^-{ACCURATE_BITS} of it)",
                    e,
                )
        check_size(value, exactly_zero=False)
        return value

    def approximate_piecewise(self, e: sympy.Piecewise) -> float:
        for piece, condition in e.args:
            if condition is sympy.true:
                return self.measure(piece).value
            compare = RELATIONS.get(type(condition))
            if compare is None:
                break
            lhs, rhs = (self.measure(s).value for s in condition.args)
            if lhs is None or rhs is None:
                break
            if compare(lhs, rhs):
                return self.measure(piece).value
        raise Reject("gives a piecewise constant whose case cannot be decided")


def ill_conditioned(e: sympy.Expr, values: list[float], value: float) -> bool:
    """Is the float64 estimate of the constant ``e`` possibly wrong in sign or size: tiny (or
    0.0 for a constant that is not exactly 0), a sum that cancels, or a function whose row
    says so (a log near 1, a sine near a root)?"""
    if abs(value) < MIN_CONSTANT:
        return True
    if isinstance(e, sympy.Add):
        return abs(value) < CANCELLATION * max(abs(v) for v in values)
    spec = BY_HEAD.get(type(e))
    return spec is not None and spec.ill_conditioned(values[0], value)


def check_size(value: float, *, exactly_zero: bool) -> None:
    """Constants stay within [MIN_CONSTANT, MAX_CONSTANT] in size, or are exactly 0."""
    if math.isnan(value):
        raise Reject("is undefined")
    if not abs(value) <= MAX_CONSTANT:
        raise Reject(f"is too large: constants must be at most {MAX_CONSTANT:.0e} in size")
    if not exactly_zero and abs(value) < MIN_CONSTANT:
        raise Reject(
            f"is too small: constants must be exactly 0 or at least "
            f"{MIN_CONSTANT:.0e} in size (to float64 precision)"
        )


def check_exponent(e: sympy.Pow | sympy.exp, kids: list[Info]) -> None:
    """Bound the exponent of a power as SymPy has built it; SymPy's own rewriting of powers is
    what turns big numbers there into big work.

    * |exponent| stays within MAX_EXPONENT also after SymPy combines powers.
    * A variable exponent of a rational base has a constant part within MAX_EXPONENT:
      SymPy's factor_terms (used by max and min) computes base**constant exactly.
    * Numbers in a variable exponent, or in the exponent of a power that may be complex
      (x**(1/3), exp(sqrt(x))), stay within MAX_EXPONENT_RATIONAL: SymPy's realness queries
      (made by tanh, max, abs, ...) run a polynomial gcd of that degree
      (tanh(x**(123456789/10**9)) never returns).
    """
    if isinstance(e, sympy.exp):
        exponent, info = e.args[0], kids[0]
        bounded = not info.real
    else:
        exponent, info = e.exp, kids[1]
        if info.value is not None and abs(info.value) > MAX_EXPONENT:
            raise Reject(
                f"gives the exponent {exponent} once SymPy combines powers; "
                f"|exponent| must be at most {MAX_EXPONENT}"
            )
        if exponent.is_Integer:
            return
        constant_part = exponent.as_coeff_Add()[0]
        if e.base.is_Rational and not info.constant and abs(constant_part) > MAX_EXPONENT:
            raise Reject(
                f"has the constant {short(constant_part)} in a variable exponent "
                f"of {short(e.base)}; it must be at most {MAX_EXPONENT} in size"
            )
        # e.g. 2**(1/3); a real constant power of a base that is ≥ 0 for every x (abs(x),
        # relu(x)) stays real and cheap: abs(x)**1.0000001 is a valid activation
        cheap_real = info.constant and info.real and kids[0].nonneg and e.base.free_symbols
        bounded = not cheap_real and (not info.constant or not (kids[0].positive and info.real))
    if not bounded:
        return
    numbers = [exponent] if exponent.is_Rational else exponent.atoms(sympy.Rational)
    worst = max((max(abs(int(r.p)), int(r.q)) for r in numbers), default=0)
    if worst > MAX_EXPONENT_RATIONAL:
        raise Reject(
            f"has {number_text(worst)} in an exponent; numerators and denominators in "
            f"a variable exponent or in a power of x must be at most "
            f"{MAX_EXPONENT_RATIONAL}, e.g. x**(1/3), 2**(x/3)"
        )
