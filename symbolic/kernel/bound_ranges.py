"""Bound variables whose assumptions their range does not give: never decided.

A ``Sum``, ``Product``, ``Integral``, ``Limit`` or ``Subs`` binds its variable to a range the
formula states (``k = −3, …, n``; ``x ∈ [−1, 1]``; ``p → −1``; ``p := −1``), but SymPy rewrites
the term under the *symbol's* assumptions: with ``k`` declared positive, the inner sum
``Σ_{j=1}^{k} 1`` is read as never reversed although ``k`` runs from −3, and with ``p``
declared positive, ``log(p²) − 2 log p`` simplifies to 0 at ``p = −1``, where it is −2πi.
``unmet_binder(formula)`` names the first bound variable with an assumption its range does
not imply (a sum's index is an integer, and positive when its range starts at 1 or above; an
integral's, a limit's variable is real, of the sign of its range or approach; a ``Subs`` point
must have every assumption of its variable), or gives None. A differentiation variable must
range over real numbers (a derivative in an ``integer`` variable is SymPy's formula, not a
derivative). ``fact._fact`` leaves a checked fact holding one unknown, with that reason.

Signs of bounds and points are SymPy's assumptions for rationals and for terms in symbols
without closed irrational parts; a closed irrational number's sign is its enclosure's, never
SymPy's float (``float_blind``); anything else is not known, so not implied.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.intervals import CannotEnclose, enclose
from symbolic.kernel.logic import kind_and_sign

_SIGN_KEYS = frozenset(
    ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero")
    + ("extended_positive", "extended_negative", "extended_nonnegative")
    + ("extended_nonpositive", "extended_nonzero")
)
_BOUND_BITS = 128
_ENCLOSE_ERRORS = (CannotEnclose, ArithmeticError, TypeError, ValueError, OverflowError)


def unmet_binder(formula: sympy.Basic) -> str | None:
    """Why a bound variable of ``formula`` carries an assumption its range does not give, or
    None (see the module docstring)."""
    if not isinstance(formula, sympy.Basic) or not formula.has(
        sympy.Sum, sympy.Product, sympy.Integral, sympy.Limit, sympy.Subs, sympy.Derivative
    ):
        return None
    for node in sympy.preorder_traversal(formula):
        why = _node_reason(node)
        if why is not None:
            return why
    return None


def _node_reason(node: sympy.Basic) -> str | None:
    if isinstance(node, (sympy.Sum, sympy.Product)):
        for limit in node.limits:
            if len(limit) == 3:
                why = _check(node, limit[0], {"integer": True}, _range_sign(*limit[1:], True))
                if why or (why := _pole_in_range(node, *limit)):
                    return why
    elif isinstance(node, sympy.Integral):
        for limit in node.limits:
            if len(limit) == 3:
                why = _check(node, limit[0], {"real": True}, _range_sign(*limit[1:], False))
                if why:
                    return why
    elif isinstance(node, sympy.Limit):
        _, z, z0, direction = node.args
        return _check(node, z, {"real": True}, _approach_sign(z0, str(direction)))
    elif isinstance(node, sympy.Subs):
        for v, point in zip(node.variables, node.point, strict=True):
            wrong = [k for k, want in v.assumptions0.items() if _holds(point, k) is not want]
            if wrong:
                return (
                    f"{_short(node)} puts {sympy.sstr(point)[:30]} for {v}, which is declared "
                    f"{_declared(v, wrong)}: not decided to hold of the point, and "
                    f"SymPy rewrites the term under {v}'s assumptions"
                )
    elif isinstance(node, sympy.Derivative):
        for v, _count in node.variable_count:
            found = kind_and_sign(v) if isinstance(v, sympy.Symbol) else ("real", None)
            if found is None or found[0] != "real":
                return (
                    f"{_short(node)} differentiates in {v}, which does not range over real "
                    "numbers (declare it real=True, with a sign at most)"
                )
    return None


def _pole_in_range(node, k: sympy.Symbol, lo: sympy.Basic, hi: sympy.Basic) -> str | None:
    """Why the term of a sum or product over ``k = lo, …, hi`` may have a pole at one of its
    indices, or None: a denominator in ``k`` not known nonzero (under ``k``'s assumptions, which
    ``_check`` has found the range to give) with a real zero that may be an integer of the range,
    or zeros not listed. ``Σ_{k=1}^{N} (k − 3)/(k − 3) = N`` was proved, its domain shown as
    ``k − 3 ≠ 0``: the index runs over 3 (for N ≥ 3), where the term has no value."""
    for sub in sympy.preorder_traversal(node.function):
        if not (isinstance(sub, sympy.Pow) and sub.exp.is_negative and k in sub.free_symbols):
            continue
        if sub.base.is_nonzero:
            continue
        zeros = None
        if sub.base.free_symbols == {k}:
            try:
                zeros = sympy.solveset(sub.base, k, domain=sympy.S.Reals)
            except (NotImplementedError, TypeError, ValueError):
                zeros = None
        if not isinstance(zeros, sympy.FiniteSet) or any(
            r.is_integer is not False
            and (r - lo).is_negative is not True
            and (hi - r).is_negative is not True
            for r in zeros
        ):
            return (
                f"{_short(node)}: its term has a pole ({_short(sub.base)} = 0) at an index the "
                f"range of {k} may hold, where it has no value: state the range without it"
            )
    return None


def _check(node, v, kind: dict, sign: str | None) -> str | None:
    """The reason ``v`` (bound by ``node`` to a range of ``kind`` and ``sign``) has more
    assumptions than the range gives, or None."""
    if not isinstance(v, sympy.Symbol):
        return None
    implied = sympy.Symbol("t", **kind, **({sign: True} if sign else {})).assumptions0
    extra = sorted(k for k, want in v.assumptions0.items() if implied.get(k) != want)
    if not extra:
        return None
    return (
        f"{_short(node)} binds {v}, declared {_declared(v, extra)}, which its range does not "
        f"give; SymPy rewrites the term under {v}'s assumptions, not over the range: declare "
        f"the bound variable with no more than its range ({', '.join(sorted(kind))}"
        + (f", {sign}" if sign else "")
        + ")"
    )


def _declared(v: sympy.Symbol, keys: list) -> str:
    """Three of ``keys`` as ``v`` declares them, what it is first (``even, not odd``, never
    ``even, odd`` for an even ``v``)."""
    a = v.assumptions0
    shown = sorted(keys, key=lambda k: (not a[k], k.startswith("extended_"), k))[:3]
    return ", ".join(k if a[k] else f"not {k}" for k in shown)


def _range_sign(lo: sympy.Basic, hi: sympy.Basic, integers: bool) -> str | None:
    """The sign every point of the range between ``lo`` and ``hi`` has: for a sum (``integers``,
    a forward range from ``lo``) read off its start or end; for an integral (either order; its
    end points have measure 0) off both ends."""
    if integers:
        if lo is sympy.S.NegativeInfinity:
            return _strongest(hi, ("negative", "nonpositive"))
        return _strongest(lo, ("positive", "nonnegative")) or (
            _strongest(hi, ("negative", "nonpositive")) if hi is not sympy.S.Infinity else None
        )
    if _holds(lo, "nonnegative") and _holds(hi, "nonnegative"):
        return "positive"
    if _holds(lo, "nonpositive") and _holds(hi, "nonpositive"):
        return "negative"
    return None


def _approach_sign(z0: sympy.Basic, direction: str) -> str | None:
    """The sign of the points near ``z0`` a limit in ``direction`` runs over."""
    if z0 is sympy.S.Infinity:
        return "positive"
    if z0 is sympy.S.NegativeInfinity:
        return "negative"
    if _holds(z0, "zero"):
        return {"+": "positive", "-": "negative"}.get(direction, "nonzero")
    return _strongest(z0, ("positive", "negative"))


def _strongest(value: sympy.Basic, keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if _holds(value, k)), None)


def _holds(value: sympy.Basic, key: str) -> bool | None:
    """``value.is_<key>``, where it can be trusted: exactly for a rational or ±∞, from SymPy's
    assumptions for a term in symbols without closed irrational parts, by an enclosure for a
    closed number's sign, realness and finiteness; else None."""
    if value in (sympy.S.Infinity, sympy.S.NegativeInfinity) and key in _SIGN_KEYS:
        return getattr(value, f"is_extended_{key.removeprefix('extended_')}", None)
    if key == "commutative" or value in (sympy.S.Infinity, sympy.S.NegativeInfinity):
        return getattr(value, f"is_{key}", None)
    if value.is_Rational:
        return getattr(value, f"is_{key}", None)
    composite = any(
        n.is_number and not n.is_Atom for n in sympy.preorder_traversal(value) if n is not value
    ) or (value.is_number and not value.is_Atom)
    if not composite:
        return getattr(value, f"is_{key}", None)
    if value.free_symbols:
        return None
    plain = key.removeprefix("extended_")
    if plain in _SIGN_KEYS or plain in ("real", "finite"):
        try:
            box = enclose(value, _BOUND_BITS)
        except _ENCLOSE_ERRORS:
            return None
        if plain in ("real", "finite"):
            return True
        sign = 1 if box.a > 0 else -1 if box.b < 0 else 0
        if sign == 0:  # 0 not excluded: no sign known
            return None
        return {
            "positive": sign > 0,
            "negative": sign < 0,
            "nonnegative": sign > 0,
            "nonpositive": sign < 0,
            "nonzero": True,
            "zero": False,
        }[plain]
    return getattr(value, f"is_{key}", None)


def _short(node: sympy.Basic) -> str:
    text = " ".join(sympy.sstr(node).split())
    return text if len(text) <= 60 else text[:57] + "..."
