"""Names that print as another name (red-team round 11): what a reviewer reads of a formula
must be what was checked, and two names that look alike make its text say another formula.

``∃x ∈ ℝ: x > х`` (the second name the Cyrillic ``х``) holds — take x = х + 1 — and was
re-checked ``proved``; read as one name it is ``∃x: x > x``, false. So were a name with a
zero-width space (``x\\u200b`` prints as ``x``), a fullwidth ``ｘ``, a right-to-left override
(which turns the rest of the line around where it is shown) and ``x²`` (a name, printed as a
square). Refused here:

* ``character_problem``: in a name, a character that is not printable ASCII or an accented
  Latin, Greek or Cyrillic letter that is its own compatibility form (NFKC: a fullwidth,
  mathematical, superscript or subscript letter is another letter's look-alike) — so no
  invisible or format character, no combining mark, no superscript digit, no non-ASCII digit,
  no letter of another script; in the words of an assumption stated in words, no control,
  format or invisible character;
* ``lookalike_names``: two different names of one claim that look alike — the same after
  NFKC and after the Cyrillic and Greek letters drawn like Latin ones are read as those (and
  ``I``, ``1`` as ``l``, ``0`` as ``O``);
* ``alike_symbols``: two symbols of one formula that print alike — a binder's variable (of a
  sum, an integral, a Lambda, a quantifier) and another symbol of its name inside it, or two
  free symbols of one name whose sets have no value in common (``x > 0`` of a positive x and
  ``x < 0`` of a negative one: ``Ne(x, x)`` was spot-checked). Free symbols of one name whose
  sets meet (a real ``a`` beside a nonzero ``a``, as ``conj`` of two facts makes) read as one
  symbol over the common set, which the formula implies.
"""

from __future__ import annotations

import unicodedata

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.symbol import Str

# Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables, the letters alone),
# and the ASCII ones many fonts draw alike: I, l and 1; O and 0
_LATIN_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁԛԝһӏɡАВЕКМНОРСТХУІЈЅԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧονϲϳıI10",
    "aeopcyxijsdqwhlgABEKMHOPCTXYlJSQWABEZHlKMNOPTYXovcjillO",
)
_INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
# the letters a name may hold beyond ASCII: accented Latin, Greek, Cyrillic (whose look-alikes
# of Latin letters ``skeleton`` reads as those); Armenian օ, Cherokee Ꭺ, IPA ɑ, … are refused
_LETTER_BLOCKS = ((0x00C0, 0x017F), (0x0370, 0x03FF), (0x0400, 0x04FF))


def character_problem(name: str, words: bool = False) -> str | None:
    """Why ``name`` holds a character that does not print as itself, or None. ``words``: the
    text of an assumption stated in words (spaces and symbols allowed, nothing invisible)."""
    for c in name:
        category = unicodedata.category(c)
        if words:
            bad = category in _INVISIBLE or (category.startswith("Z") and c != " ")
        else:
            bad = not (" " < c < "\x7f") and not (
                category.startswith("L")
                and unicodedata.normalize("NFKC", c) == c
                and any(lo <= ord(c) <= hi for lo, hi in _LETTER_BLOCKS)
            )
        if bad:
            return (
                f"the name {name[:40]!r} holds U+{ord(c):04X} ({unicodedata.name(c, category)}), "
                "which does not print as itself"
            )
    return None


def skeleton(name: str) -> str:
    """What ``name`` looks like: its NFKC form, letters drawn like Latin ones read as those."""
    return unicodedata.normalize("NFKC", name).translate(_LATIN_LOOKALIKES)


def names_of(formula: sympy.Basic) -> set[str]:
    """The names a formula shows: symbols', undefined functions', matrices'."""
    found, stack = set(), [formula]
    while stack:
        n = stack.pop()
        if isinstance(n, AppliedUndef):
            found.add(n.func.__name__)
        if isinstance(n, (sympy.Symbol, Str)):
            found.add(n.name)
        stack += [a for a in n.args if isinstance(a, sympy.Basic)]
    return found


def lookalike_names(formulas) -> str | None:
    """Two different names among ``formulas`` (a claim's) that look alike, or None."""
    seen: dict[str, str] = {}
    for f in formulas:
        for name in sorted(names_of(f)):
            other = seen.setdefault(skeleton(name), name)
            if other != name:
                return f"the names {other[:40]!r} and {name[:40]!r} look alike"
    return None


def alike_symbols(formula: sympy.Basic) -> str | None:
    """Two symbols of ``formula`` that print alike where reading them as one says another
    formula (``alike_symbols`` above); why, or None."""
    from symbolic.evidence.rules import bound_by

    for n in sympy.preorder_traversal(formula):
        for v in bound_by(n):
            printed = sympy.sstr(v)
            if any(s != v and sympy.sstr(s) == printed for s in n.atoms(sympy.Symbol)):
                return f"a bound variable {printed[:40]} and another symbol of its name print alike"
    free: dict[str, sympy.Symbol] = {}
    for s in sorted(formula.free_symbols, key=sympy.srepr):
        if isinstance(s, sympy.Symbol):
            other = free.setdefault(sympy.sstr(s), s)
            if other != s and _disjoint(other, s):
                return f"two symbols {sympy.sstr(s)[:40]} of no common value print alike"
    return None


def _disjoint(a: sympy.Symbol, b: sympy.Symbol) -> bool:
    """No value meets the assumptions of both (positive and negative, integer and 1/2 < …)."""
    merged: dict = {}
    for key, value in [*a.assumptions0.items(), *b.assumptions0.items()]:
        if merged.setdefault(key, value) != value:
            return True
    try:
        sympy.Symbol("t", **merged)
    except Exception:  # noqa: BLE001 - InconsistentAssumptions: no value has them all
        return True
    return False
