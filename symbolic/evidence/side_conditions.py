"""The kernel's side conditions on definitions and rules, re-derived by the re-check from the
manifest alone (issue 25; red-team round 5) — its own code, no kernel import:

* ``fixed_names``: what a rule may not treat as a variable — the names the definitions a fact
  rests on give, the free symbols of their values (from ``c := x``, ``∀x: c = x`` gives
  0 = c = 1), and the symbols free in its assumptions and oracle results; one value per
  defined name, and no definitions in a cycle (``c := d + 1, d := c + 1`` proves 0 = 2);
* ``definition_problem``: a definition is ``c := v`` of a fresh name whose value has every
  assumption of ``c`` (``c > 0 := −1`` proves anything), a sign of a number certified;
* ``conditions``: the denominators a fact holds where nonzero though its formula may no longer
  show them (``trans`` or ``mp`` drops a premise's), carried from premises to conclusion;
  ``condition_problem``: ``inst`` and ``¬`` only of a fact whose conditions are its formula's
  own denominators, ``gen`` only of one with none;
* ``uncertified_divisor``: a closed divisor of a rule step not certified nonzero by the
  re-check's own numbers (SymPy's ``is_zero`` of ``max(1, 2) − 2`` is undecided).
"""

from __future__ import annotations

import sympy

from symbolic.evidence.formula_reader import canonical_srepr
from symbolic.evidence.numbers import NotEnclosed, enclose

# -- numbers' signs ---------------------------------------------------------------------------

_SIGN_OF = {  # a sign assumption, as the certified signs of a number that have it
    "positive": (1,),
    "negative": (-1,),
    "nonnegative": (0, 1),
    "nonpositive": (0, -1),
    "nonzero": (1, -1),
    "zero": (0,),
}
_SIGNS: dict[str, int | None] = {}  # (canonical) srepr of a closed term → its certified sign
_UNDECIDED = (
    NotEnclosed,
    ValueError,
    TypeError,
    AttributeError,
    ZeroDivisionError,
    OverflowError,
    RecursionError,
)


def certified_sign(term: sympy.Basic) -> int | None:
    """The sign of a closed term, exactly or by the re-check's intervals; None undecided."""
    key = canonical_srepr(term)
    if key not in _SIGNS:
        sign = None
        try:
            if enclose(term, ">")[0]:
                sign = 1
            elif enclose(term, "<")[0]:
                sign = -1
            elif enclose(term, "==")[0]:
                sign = 0
        except _UNDECIDED:
            sign = None
        _SIGNS[key] = sign
    return _SIGNS[key]


def has(term: sympy.Basic, key: str) -> bool | None:
    """``term.is_<key>``, but a sign of a number (no symbols) certified, never SymPy's guess;
    in a term with symbols, its numbers are first replaced by what is certified of them
    (``_certified_numbers``): SymPy holds ``x² + log(cos 10⁻⁶⁰)`` positive (a float says the
    log is 0), and it is −5·10⁻¹²¹ at x = 0."""
    plain = key.removeprefix("extended_")
    if plain in _SIGN_OF and not term.free_symbols:
        sign = certified_sign(term)
        return None if sign is None else sign in _SIGN_OF[plain]
    if key in _REAL_OF and not term.free_symbols:  # real (and finite): enclosed, as a sign is
        sign = certified_sign(term)  # SymPy holds √(log cos 10⁻⁶⁰) real: a float says log ≥ 0
        return None if sign is None else _REAL_OF[key] if key != "antihermitian" else sign == 0
    return getattr(_certified_numbers(term), f"is_{key}", None)


# what an enclosed (real, finite) number is: the reality assumptions a variable may ask
_REAL_OF = {
    "real": True,
    "extended_real": True,
    "finite": True,
    "infinite": False,
    "complex": True,
    "hermitian": True,
    "imaginary": False,
    "antihermitian": None,  # only 0 is
}


_SIGN_DUMMY = {1: {"positive": True}, -1: {"negative": True}}


def _certified_numbers(term: sympy.Basic) -> sympy.Basic:
    """``term`` with every closed part that is not a rational number (``log(cos 10⁻⁶⁰)``,
    ``π``, ``√2``) replaced by a fresh symbol with its certified sign (a complex one, no
    assumption, where none is certified): SymPy's assumptions then reason from that, never
    from a float. A rational part SymPy reads exactly is kept."""
    if not term.free_symbols or not isinstance(term, sympy.Basic):
        return term
    found: dict = {}
    stack = [term]
    while stack:
        e = stack.pop()
        if e.free_symbols:
            stack += list(e.args)
        elif isinstance(e, sympy.Expr) and not (e.is_Rational or e.is_Matrix or e in found):
            sign = certified_sign(e)
            found[e] = (
                sympy.Integer(0)
                if sign == 0
                else sympy.Dummy("c", **_SIGN_DUMMY.get(sign, {}))
                if sign is not None
                else sympy.Dummy("c")
            )
    if not found:
        return term
    with sympy.evaluate(False):
        return term.xreplace(found)


def unmet(term: sympy.Basic, v: sympy.Symbol) -> list[str]:
    """The assumptions of ``v`` that ``term`` is not decided to have for every value of its
    symbols (a noncommutative name asks a noncommutative value, nothing more)."""
    if v.is_commutative is False:
        return [] if term.is_commutative is False else ["not commutative"]
    wanted = sorted(  # what v is before what it is not; plain names before extended_ ones
        ((k, b) for k, b in v.assumptions0.items() if b is not None),
        key=lambda kb: (not kb[1], kb[0].startswith("extended_"), kb[0]),
    )
    return [k if b else f"not {k}" for k, b in wanted if has(term, k) is not b]


# -- definitions and fixed names --------------------------------------------------------------


def a_definition(formula: sympy.Basic) -> bool:
    """``c = v``: a name and a value that does not use it (what ``kernel.define`` makes)."""
    return (
        isinstance(formula, sympy.Eq)
        and isinstance(formula.lhs, sympy.Symbol)
        and formula.lhs not in formula.rhs.free_symbols
    )


def definition_problem(formula: sympy.Basic) -> str | None:
    """Why ``formula`` is not a definition the kernel makes, or None."""
    if not a_definition(formula):
        return "not a definition c := v of a fresh name"
    missing = unmet(formula.rhs, formula.lhs)
    if missing:
        return f"the value of {formula.lhs} is not decided to be {missing[0]}"
    return None


def _circular(values: dict) -> str | None:
    """A defined name whose value, unfolded through the other definitions, holds the name."""
    for start in sorted(values, key=str):
        seen, stack = set(), [start]
        while stack:
            for used in values[stack.pop()].free_symbols & set(values):
                if used == start:
                    return str(start)
                if used not in seen:
                    seen.add(used)
                    stack.append(used)
    return None


def rested_on(ids: list, by_id: dict[str, dict]):
    """The nodes ``ids`` name and those they rest on (premises and parts), each once."""
    stack, seen = list(ids), set()
    while stack:
        i = stack.pop()
        if not isinstance(i, str) or i in seen or i not in by_id:
            continue
        seen.add(i)
        n = by_id[i]
        yield n
        stack += list(n.get("premises", [])) + [
            p.get("id") for p in n.get("parts", []) if isinstance(p, dict)
        ]


def fixed_names(ids: list, by_id: dict[str, dict]) -> set:
    """The names fixed by the definitions the facts ``ids`` rest on (premises and parts), the
    free symbols of their values, and the symbols free in their assumptions and oracle
    results; ``ValueError`` when a name is defined twice, differently, or definitions refer to
    each other in a cycle (either proves anything)."""
    values: dict = {}
    fixed: set = set()
    for n in rested_on(ids, by_id):
        f = n["_formula"]
        if n.get("kind") == "definition" and a_definition(f):
            values.setdefault(f.lhs, {})[canonical_srepr(f.rhs)] = f.rhs
        if n.get("kind") in ("assumption", "oracle", "definition"):  # fixed there
            fixed |= {s for s in f.free_symbols if isinstance(s, sympy.Symbol)}
    twice = sorted(str(name) for name, v in values.items() if len(v) > 1)
    if twice:
        raise ValueError(f"the premises define {twice[0]} twice, differently")
    circular = _circular({name: next(iter(v.values())) for name, v in values.items()})
    if circular:
        raise ValueError(f"the premises define {circular} in terms of itself")
    return set(values) | fixed


# -- conditions: denominators a fact holds where nonzero ---------------------------------------


def denominators(formula: sympy.Basic) -> set:
    """The bases of the negative powers in ``formula`` that hold a symbol."""
    return {
        n.base
        for n in sympy.preorder_traversal(formula)
        if isinstance(n, sympy.Pow) and n.exp.is_negative and n.base.free_symbols
    }


def own_conditions(formula: sympy.Basic) -> set:
    """The denominators in the formula's free symbols alone (one holding a bound variable is
    guarded at its quantifier) not known nonzero: where it claims nothing."""
    free = formula.free_symbols
    return {
        d
        for d in denominators(formula)
        if d.free_symbols <= free and _certified_numbers(d).is_zero is not False
    }


def conditions(node: dict, by_id: dict[str, dict], busy: frozenset = frozenset()) -> set:
    """The conditions ``d ≠ 0`` a fact holds under: a checked or admitted fact's are its
    formula's own; a rule's those of its premises and its conclusion's own, but ``inst``'s,
    which are its conclusion's own (its premise's, checked to be the premise formula's own,
    are put in place there)."""
    if "_conditions" in node:
        return node["_conditions"]
    nid = node.get("id")
    if nid in busy:
        raise ValueError(f"the premises of {nid} come back to it")
    found = set(own_conditions(node["_formula"]))
    if node.get("method") == "rule" and node.get("kernel_rule") != "inst":
        for p in node.get("premises", []):
            if p in by_id:
                found |= conditions(by_id[p], by_id, busy | {nid})
    node["_conditions"] = found
    return found


def condition_problem(node: dict, by_id: dict[str, dict]) -> str | None:
    """``inst`` (and ``¬``, for its refuted part) only of a fact whose conditions are its
    formula's own denominators; ``gen`` only of one with no condition (the kernel's rule)."""
    rule = node.get("kernel_rule") if node.get("method") == "rule" else "negation"
    if rule not in ("inst", "gen", "negation"):
        return None
    for p in node.get("premises", []):
        if p not in by_id:
            continue
        premise = by_id[p]
        held = conditions(premise, by_id)
        extra = held if rule == "gen" else held - denominators(premise["_formula"])
        if extra:
            shown = sorted(sympy.sstr(d) for d in extra)[0]
            return (
                f"{rule} of {p}, which holds where {shown} ≠ 0, a condition its formula "
                "does not state"
            )
    return None


def captured_condition(node: dict, by_id: dict[str, dict], context: sympy.Basic) -> str | None:
    """``cong`` into a context whose binder (a sum's index) ranges over a symbol of a
    condition its premise holds under: the premise says nothing where ``d = 0``, and the
    binder takes every value (``x·x⁻¹ − 1 = 0`` where ``x ≠ 0``, summed over ``x`` from −1 to 1
    at 0 too: pw(0) = 1 was summed as 0). Why, or None."""
    from symbolic.evidence.rules import bound_by

    if not isinstance(context, sympy.Lambda) or len(context.variables) != 1:
        return None  # derive refuses it
    hole = context.variables[0]
    held = set()
    for p in node.get("premises", []):
        if p in by_id:
            held |= conditions(by_id[p], by_id)
    symbols = set().union(*(d.free_symbols for d in held)) if held else set()
    for n in sympy.preorder_traversal(context.expr):
        if n.has(hole) and bound_by(n) & symbols:
            shown = sorted(map(str, bound_by(n) & symbols))[0]
            return f"cong binds {shown}, and its premise holds only where a divisor in {shown} ≠ 0"
    return None


# -- closed divisors --------------------------------------------------------------------------

_NONZERO: dict[str, bool] = {}  # srepr of a closed divisor → certified nonzero


def uncertified_divisor(*formulas: sympy.Basic) -> str | None:
    """A closed divisor (the base of a negative power, no symbols) among ``formulas`` that the
    re-check's numbers do not certify nonzero — where a formula divides by 0 it claims
    nothing — or None."""
    for f in formulas:
        for n in sympy.preorder_traversal(f):
            if not (isinstance(n, sympy.Pow) and n.exp.is_negative and not n.base.free_symbols):
                continue
            key = canonical_srepr(n.base)
            if key not in _NONZERO:
                try:
                    _NONZERO[key] = enclose(n.base, "!=")[0] is True
                except _UNDECIDED:
                    _NONZERO[key] = False
            if not _NONZERO[key]:
                return sympy.sstr(n.base)[:60]
    return None
