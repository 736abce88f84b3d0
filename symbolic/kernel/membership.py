"""Membership: does a term lie in a variable's set, with every assumption of the variable?

Decided from SymPy's assumptions for every value of the term's symbols, and for a number (no
symbols) by a sign certified exactly or by intervals, never SymPy's working-precision guess.
``rules.inst`` asks it of each term it puts in place, ``admitted.define`` of a definition's value
(``c`` declared positive cannot be defined as −1).
"""

from __future__ import annotations

import mpmath
import sympy

from symbolic.kernel.float_blind import (
    float_blind_risk,
    has_closed_irrational,
    with_signs_for_numbers,
)
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.intervals import CannotEnclose, enclose
from symbolic.kernel.logic import symbol_set, sympy_value

# What SymPy's assumptions raise at a pole: cot(0) is evaluated (mpmath divides by 0), csc(0)
# reaches a method Zero lacks (AttributeError): undecided, never a traceback.
ASSUMPTION_ERRORS = (ArithmeticError, AttributeError, TypeError, ValueError)


def member(term: sympy.Basic, s: sympy.Set) -> bool:
    """Is ``term`` in ``s`` for every value of its symbols? Decided from SymPy's assumptions;
    False when they do not say (the instantiation is then refused)."""
    term = sympy_value(term)
    if not _real_and_finite(term):
        return False
    if s == sympy.S.Reals:
        return True
    if s in (sympy.S.Integers, sympy.S.Naturals, sympy.S.Naturals0):
        low = {sympy.S.Integers: None, sympy.S.Naturals: 1, sympy.S.Naturals0: 0}[s]
        return bool(term.is_integer) and (low is None or bool(_has(term - low, "nonnegative")))
    if isinstance(s, sympy.Interval):

        def above(x, bound, strict):
            if bound in (-sympy.oo, sympy.oo):
                return bound == -sympy.oo
            return bool(_has(x - bound, "positive" if strict else "nonnegative"))

        def below(x, bound, strict):
            if bound in (-sympy.oo, sympy.oo):
                return bound == sympy.oo
            return bool(_has(bound - x, "positive" if strict else "nonnegative"))

        return above(term, s.start, s.left_open) and below(term, s.end, s.right_open)
    if isinstance(s, sympy.Union):
        if s == symbol_set(sympy.Symbol("_", nonzero=True, real=True)):
            return bool(_has(term, "nonzero"))
        return any(member(term, part) for part in s.args)
    return False


def _real_and_finite(term: sympy.Basic) -> bool:
    """A finite real for every value of its symbols? SymPy's assumptions, except where a root,
    a logarithm or a branch acts on a closed number whose sign SymPy takes from a float
    (``float_blind``: it calls ``√(log cos 10⁻⁶⁰)`` real, the logarithm being 0.0 as a float):
    such a number by its enclosure (only a finite real has one), such a term with each closed
    number a symbol of its certified sign."""
    if float_blind_risk(term):
        if not term.free_symbols:
            try:
                box = enclose(term)
            except (CannotEnclose, *ASSUMPTION_ERRORS):
                return False
            return bool(mpmath.isfinite(box.a) and mpmath.isfinite(box.b))
        term = with_signs_for_numbers(term, lambda c: certified_sign(c)[0])
        if term is None or float_blind_risk(term):
            return False
    try:  # SymPy's assumptions of cot(0) evaluate it: mpmath divides by 0
        return bool(term.is_extended_real and term.is_finite)
    except ASSUMPTION_ERRORS:
        return False


_SIGN_OF = {  # a sign assumption, as the certified signs of a number that have it
    "positive": (1,),
    "negative": (-1,),
    "nonnegative": (0, 1),
    "nonpositive": (0, -1),
    "nonzero": (1, -1),
    "zero": (0,),
}


def _has(term: sympy.Basic, key: str) -> bool | None:
    """``term.is_<key>``, but a sign of a number (no symbols) certified by intervals, never
    SymPy's working-precision guess; in a term with symbols each closed number is a symbol of
    its certified sign (``float_blind``), or undecided."""
    plain = key.removeprefix("extended_")
    if plain in ("real", "finite"):  # never SymPy's guess on a float-blind number
        return True if _real_and_finite(term) else None
    if plain in _SIGN_OF and not term.free_symbols:
        sign, _ = certified_sign(term)
        return None if sign is None else sign in _SIGN_OF[plain]
    if plain in _SIGN_OF and has_closed_irrational(term):  # y + log(cos(1e-60)) "positive"
        term = with_signs_for_numbers(term, lambda c: certified_sign(c)[0])
        if term is None or has_closed_irrational(term):
            return None
    try:
        return getattr(term, f"is_{key}", None)
    except ASSUMPTION_ERRORS:  # an assumption SymPy derives by evaluating a pole (cot 0)
        return None


def unmet(term: sympy.Basic, v: sympy.Symbol) -> list[str]:
    """The assumptions of ``v`` (odd, even, prime, ... as well as sign and integrality) that
    ``term`` is not decided to have for every value of its symbols."""
    term = sympy_value(term)
    if v.is_commutative is False:  # an operator's name: what it is not follows from that
        return [] if term.is_commutative is False else ["not commutative"]
    given = getattr(v, "_assumptions_orig", None)  # as declared: the rest follow from these
    declared = {"commutative": True, **(v.assumptions0 if given is None else given)}
    wanted = sorted(  # what v is before what it is not; plain names before extended_ ones
        ((k, b) for k, b in declared.items() if b is not None),
        key=lambda kb: (not kb[1], kb[0].startswith("extended_"), kb[0]),
    )
    return [key if value else f"not {key}" for key, value in wanted if _has(term, key) is not value]


def satisfies(term: sympy.Basic, v: sympy.Symbol) -> bool:
    """Does ``term`` have every assumption of ``v``? A variable ranges over its domain *and* its
    assumed set (the Z3 translation reads both)."""
    return not unmet(term, v)
