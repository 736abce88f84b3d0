"""What the activation parser knows of a value's sign at every real x: by its form
(``sign_by_form``, cheap and conservative, one rule per function from the functions table) and,
when the form says nothing, decided exactly (``SignsByAlgebra``, through ``domain_sign``).

An activation must be defined and real at every real x, so "real" here means exactly that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

from symbolic.activations import z
from symbolic.languages.domain_sign import Sign, sign_everywhere
from symbolic.languages.expression_limits import MAX_CONSTANT_SIZE, short
from symbolic.languages.functions import BY_HEAD, SignRule
from symbolic.limits import BudgetExceeded, deadline


@dataclass(frozen=True)
class Info:
    """What the parser knows of one SymPy expression, computed bottom up once per expression:
    tree size, number of Piecewise, whether it is free of ``z`` and then its float64 estimate
    (None for booleans and other non-numbers), its sign by form, and the same of its args."""

    size: int
    pieces: int
    constant: bool
    value: float | None
    real: bool  # defined and real at every real x, by its form (see sign_by_form) ...
    nonneg: bool  # ... and nonnegative
    positive: bool  # ... and positive
    kids: tuple[Info, ...]  # of the arguments


def sign_by_form(e: sympy.Basic, kids: list[Info], value: float | None) -> tuple[bool, bool, bool]:
    """(real, nonnegative, positive) for every real x, judged by the form of ``e`` alone: a
    value is real when it is defined and real at every real x, which an activation must be.

    Conservative (``1 - sigmoid(x)`` is not known positive) and cheap: no SymPy assumption
    queries, which are what runs away on large inputs.
    """
    if value is not None:
        return True, value >= 0, value > 0
    if e == z:
        return True, False, False
    real = all(k.real for k in kids)
    if isinstance(e, sympy.Pow):
        base, power = kids
        if e.exp.is_Integer and e.exp > 0:
            return base.real, base.nonneg or e.exp.is_even and base.real, base.positive
        if power.value is not None and power.value > 0:  # a fractional power such as sqrt
            return base.nonneg, base.nonneg, base.positive
        real = base.positive and power.real  # 1/b, b**(-1/2), b**x: b must be positive
        return real, real, real
    spec = BY_HEAD.get(type(e))
    if spec is not None:
        return _by_rule(spec.sign, e, kids[0])
    if isinstance(e, sympy.Abs):
        return real, True, False
    if isinstance(e, (sympy.Add, sympy.Max)):
        at_least = any if isinstance(e, sympy.Max) else all
        nonneg = at_least(k.nonneg for k in kids)
        if isinstance(e, sympy.Max) and any(-a in e.args for a in e.args):  # max(x, -x) = |x|
            nonneg = True
        return real, nonneg, nonneg and any(k.positive for k in kids)
    if isinstance(e, (sympy.Mul, sympy.Min, sympy.Piecewise)):
        return real, all(k.nonneg for k in kids), all(k.positive for k in kids)
    if isinstance(e, ExprCondPair):  # a Piecewise piece: the sign of its value
        return kids[0].real, kids[0].nonneg, kids[0].positive
    return False, False, False


def _by_rule(rule: SignRule, e: sympy.Expr, arg: Info) -> tuple[bool, bool, bool]:
    """(real, nonnegative, positive) of ``f(arg)`` by the function's row in the table."""
    if rule is SignRule.POSITIVE:
        return arg.real, arg.real, arg.real
    if rule is SignRule.SAME_SIGN:
        return arg.real, arg.nonneg, arg.positive
    if rule is SignRule.REAL:
        return arg.real, False, False
    # LOG: real for a positive argument; log(1 + nonnegative) >= 0, as in softplus
    at_least_one = (
        isinstance(e.args[0], sympy.Add)
        and all(k.nonneg for k in arg.kids)
        and sum(k.value for k in arg.kids if k.value is not None) >= 1
    )
    return arg.positive, at_least_one, False


class SignsByAlgebra:
    """The parser's exact sign decisions, recorded in its ``info`` (see ``Info``)."""

    info: dict[sympy.Basic, Info]
    measure: Callable[[sympy.Basic], Info]  # from ConstantEstimates

    def positive_by_algebra(self, e: sympy.Expr) -> bool:
        """Is ``e`` > 0 at every real x, decided exactly? Then the parser knows it from now."""
        if not sign_everywhere(e, z).positive:
            return False
        self.info[e] = replace(self.measure(e), nonneg=True, positive=True)
        return True

    def real_by_algebra(self, e: sympy.Expr, info: Info) -> Info:
        """``log(b)``, ``b**p``: real at every x when b's sign, decided exactly, allows it
        (``log(x**2 - 2*x + 2)``, ``sqrt(cosh(x) - 1)``, ``(1 - tanh(x)**2)**-1``,
        ``(-1 - x**2)**-1``)."""
        if isinstance(e, sympy.log):
            base, need_positive = e.args[0], True
        elif isinstance(e, sympy.Pow) and info.kids[1].value is not None:
            base, need_positive = e.base, info.kids[1].value < 0
        else:
            return info
        sign = sign_everywhere(base, z)
        if isinstance(e, sympy.log) and not sign.positive and positive_in_exp_form(base):
            sign = Sign(nonneg=True, positive=True)  # log(cosh(x) + sinh(x)): e^x > 0
        if isinstance(e, sympy.Pow) and e.exp.is_Integer and e.exp < 0 and sign.negative:
            even = bool(e.exp.is_even)  # 1/(-1 - x**2): a negative base, never 0
            known = replace(info, real=True, nonneg=even, positive=even)
        elif not (sign.positive if need_positive else sign.nonneg):
            return info
        elif isinstance(e, sympy.log):
            known = replace(info, real=True)
        else:
            known = replace(info, real=True, nonneg=True, positive=sign.positive)
        self.info[e] = known
        return known

    def not_real(self, e: sympy.Basic) -> str:
        """Name the innermost part of ``e`` that is not real at every real x, and the fix."""
        while True:
            parts = (
                e.args[:1]
                if isinstance(e, ExprCondPair)
                else [a for a in e.args if isinstance(a, (sympy.Expr, ExprCondPair))]
            )
            inner = next((a for a in parts if not self.info[a].real), None)
            if inner is None:
                break
            e = inner
        shown = short(e.xreplace({z: sympy.Symbol("x", real=True)}))
        if isinstance(e, sympy.log):
            return (
                f"{shown} is the log of a value that may be 0 or negative; "
                "use e.g. log(1 + exp(x)) or log(1 + x**2)"
            )
        if isinstance(e, sympy.Pow) and self.info[e.exp].value is not None:
            if self.info[e.exp].value < 0:
                return (
                    f"{shown} divides by a value that may be 0; divide by a positive "
                    "value such as 1 + abs(x)"
                )
            return (
                f"{shown} is a fractional power of a value that may be negative; "
                "use e.g. abs(x)**0.5 or relu(x)**0.5"
            )
        if isinstance(e, sympy.Pow):
            return (
                f"{shown} is a variable power of a base that may be 0 or negative; "
                "use a positive base, e.g. 2**x or exp(x)"
            )
        return f"{shown} is not known to be real"


def positive_everywhere(e: sympy.Expr) -> bool:
    """Is ``e`` > 0 at every real x (decided exactly)?"""
    return sign_everywhere(e, z).positive


POSITIVITY_TIMEOUT_S = 1.0  # SymPy's exp form of a log argument, tried when its form says nothing


def positive_in_exp_form(arg: sympy.Expr) -> bool:
    """Is ``arg`` positive for every real x once written with exp and simplified (bounded)?"""
    if arg.count_ops() > MAX_CONSTANT_SIZE:
        return False
    try:
        with deadline(POSITIVITY_TIMEOUT_S):
            return sympy.simplify(arg.rewrite(sympy.exp)).is_positive is True
    except (BudgetExceeded, RecursionError, TypeError, ValueError, AttributeError):
        return False
