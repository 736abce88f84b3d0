"""Facts: a formula bound to the verdict on *that* formula.

A ``Fact`` is what every checker of the kernel returns: the SymPy formula that was checked
(``Eq``, ``Ne``, a relational, a Boolean, ``ForAll``), the verdict, the symbols' domain as
shown, and its kind — ``checked`` (a backend decided it), ``definition`` (``c := σ(1)``),
``assumption`` (a hypothesis admitted by name) or ``oracle`` (a result certified by a procedure
outside the kernel, e.g. a certified quadrature, admitted with its certificate). Admitted
facts are never *proved*: derivations count them apart, and ``python -m proofs --strict``
refuses claims that rest on assumptions.
Like a verdict, a fact can only be made inside the kernel (see ``symbolic.kernel.verdict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import sympy

from symbolic.kernel.bound_ranges import unmet_binder
from symbolic.kernel.conventions import convention_of
from symbolic.kernel.shown_names import misleading_name
from symbolic.kernel.valueless import pole_reason
from symbolic.kernel.verdict import (
    PROVED,
    REFUTED,
    UNKNOWN,
    KernelViolation,
    Sealed,
    Verdict,
    _guard,
    _mint,
    _revise,
)

FactKind = Literal["checked", "definition", "assumption", "oracle"]
CHECKED: FactKind = "checked"
DEFINITION: FactKind = "definition"
ASSUMPTION: FactKind = "assumption"
ORACLE: FactKind = "oracle"  # certified by a procedure outside the kernel: admitted, counted


@dataclass(frozen=True, slots=True)
class Fact(Sealed):
    """The formula that was checked, and what was decided about it.

    A fact made by an inference rule (``symbolic.kernel.rules``) has ``rule`` set, its premises
    in ``parts`` and the rule's argument (a context ``Lambda``, a substitution) in ``detail``.
    """

    formula: sympy.Basic
    verdict: Verdict
    kind: FactKind = CHECKED
    domain: tuple[str, ...] = ()  # e.g. ("t > 0",): the symbols' assumptions, shown
    parts: tuple[Fact, ...] = ()  # the cases that established it (a split by sign, ...)
    smt2: str = ""  # Z3 facts: the SMT-LIB 2 benchmark (negated goal) that was decided
    rule: str = ""  # the inference rule that made it (trans, symm, cong, inst, mp, conj, unfold)
    detail: sympy.Basic | None = None  # the rule's argument

    def __init_subclass__(cls, **kw: Any) -> None:
        raise KernelViolation("Fact is final: it cannot be subclassed")

    def __post_init__(self) -> None:
        _guard("fact")
        if not isinstance(self.formula, sympy.Basic):
            raise TypeError(f"formula={self.formula!r}: a fact's formula is a SymPy object")
        if not isinstance(self.verdict, Verdict):
            raise TypeError("a fact carries a kernel Verdict")

    @property
    def status(self) -> str:
        return self.verdict.status

    @property
    def reason(self) -> str:
        return self.verdict.reason

    @property
    def proved(self) -> bool:
        return self.kind == CHECKED and self.verdict.status == PROVED

    @property
    def refuted(self) -> bool:
        return self.verdict.status == REFUTED

    @property
    def undecided(self) -> bool:
        return self.verdict.status == UNKNOWN

    @property
    def admitted(self) -> bool:
        return self.kind != CHECKED

    @property
    def rests_on(self) -> tuple[Fact, ...]:
        """The assumptions and oracle results this fact depends on, itself included,
        through the premises of every rule that made it (each once, in order)."""
        seen: dict[int, Fact] = {}
        stack = [self]
        while stack:
            f = stack.pop()
            if f.kind in (ASSUMPTION, ORACLE):
                seen.setdefault(id(f), f)
            stack.extend(reversed(f.parts))
        return tuple(seen.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "formula": sympy.sstr(self.formula),
            "kind": self.kind,
            "domain": list(self.domain),
            "verdict": self.verdict.to_json(),
            "parts": [p.to_json() for p in self.parts],
            "smt2": bool(self.smt2),
            "rule": self.rule or None,
        }


def definitions(fact: Fact) -> dict[sympy.Basic, list[sympy.Basic]]:
    """The definitions ``c := v`` in ``fact``'s derivation (itself, premises, parts): name → its
    values. A defined name is a constant there, not a variable (``rules.gen``, ``rules.inst``,
    ``admitted.negate``), and one name defined twice differently proves anything."""
    found: dict[sympy.Basic, list[sympy.Basic]] = {}
    stack = [fact]
    while stack:
        f = stack.pop()
        if f.kind == DEFINITION:
            values = found.setdefault(f.formula.lhs, [])
            if f.formula.rhs not in values:
                values.append(f.formula.rhs)
        stack.extend(f.parts)
    return found


def fixed_names(fact: Fact) -> frozenset:
    """The symbols ``fact``'s derivation fixes: the names its definitions give, and the free
    symbols of its definitions' values, assumptions and oracle results (∀-introduction's side
    condition: no variable free in an open hypothesis is generalised or instantiated; from
    ``c := x``, ``∀x: c = x`` would give 0 = c = 1)."""
    names, stack = set(definitions(fact)), [fact]
    while stack:
        f = stack.pop()
        if f.kind in (ASSUMPTION, ORACLE, DEFINITION):
            names |= {s for s in f.formula.free_symbols if isinstance(s, sympy.Symbol)}
        stack.extend(f.parts)
    return frozenset(names)


_WORDS = sympy.Function("assumed")  # ``admitted.ASSUMED``: its arguments are words, not names


def _negative_integer_possible(e: sympy.Basic) -> bool:
    return e.is_integer is not False and e.is_nonnegative is not True


def binomial_convention(formula: sympy.Basic) -> str | None:
    """A binomial ``C(a, b)`` whose arguments may both be negative integers with ``b ≤ a``:
    there SymPy's value (Knuth's, ``C(−1, −1) = 0``) is a convention; the limit of
    ``Γ(a + 1)/(Γ(b + 1)·Γ(a − b + 1))``, which ``combsimp`` rewrites it to, is
    ``(−1)^(a−b)·C(−b − 1, a − b)`` (``C(−1, −1) = 1``, Mathematica's). So
    ``C(n + 5, n + 5) = 1`` was proved for every integer n, and ``C(n, n) = 1`` refuted at −3."""
    if not isinstance(formula, sympy.Basic) or not formula.has(sympy.binomial):
        return None
    for node in formula.atoms(sympy.binomial):
        a, b = node.args
        if (
            _negative_integer_possible(a)
            and _negative_integer_possible(b)
            and (b - a).is_positive is not True
        ):
            return (
                f"{sympy.sstr(node)[:60]} may be taken at negative integers with "
                f"{sympy.sstr(b)[:20]} ≤ {sympy.sstr(a)[:20]}, where its value is a convention "
                "(SymPy's C(−1, −1) = 0, Γ's limit 1)"
            )
    return None


def _words(formula: sympy.Basic) -> set:
    return {
        n
        for n in formula.atoms(sympy.core.function.AppliedUndef)
        if n.func.__name__ == _WORDS.__name__
    }


def _forged_words(formula: sympy.Basic, parts: tuple) -> str | None:
    """A function named ``assumed`` that no admitted premise brought in: every printer shows
    ``assumed(x)`` as its argument alone (an assumption stated in words), so a user's
    ``uninterpreted("assumed")`` made ``assumed(x) = x`` show as ``x = x``, refuted."""
    found = _words(formula) if isinstance(formula, sympy.Basic) else set()
    if not found:
        return None
    stack, admitted = list(parts), set()
    while stack:
        f = stack.pop()
        if f.kind in (ASSUMPTION, ORACLE):
            admitted |= _words(f.formula)
        stack.extend(f.parts)
    forged = sorted(found - admitted, key=sympy.default_sort_key)
    if not forged:
        return None
    return (
        f"the function {forged[0].func.__name__} prints as its argument "
        f"({sympy.sstr(forged[0].args[0])[:40]}): rename it"
    )


def _fact(formula: sympy.Basic, verdict: Verdict, **kw: Any) -> Fact:
    """A fact, minted. A checked one whose formula rests on a SymPy convention (a derivative at
    a kink, a reversed or non-integer range, an infinite sum with parameters: ``conventions``;
    a bound variable declared more than its range gives: ``bound_ranges``) or holds a closed
    term without a value (``Γ(0)``, ``log 0``: ``valueless``) or two different symbols that
    print alike (``α > α`` for ``alpha > α``) or a name that prints as something
    else (an uninterpreted ``exp``, a symbol named ``pi``: ``shown_names``; a function named
    ``assumed`` no admitted premise brought in) or a binomial at negative integers (a convention)
    is unknown, whatever its checker found."""
    if verdict.status != UNKNOWN and kw.get("kind", CHECKED) == CHECKED:
        why = (
            convention_of(formula)
            or unmet_binder(formula)
            or pole_reason(formula)
            or misleading_name(formula, words_of=_WORDS)
            or _forged_words(formula, kw.get("parts", ()))
            or binomial_convention(formula)
        )
        if why is not None:
            verdict = _revise(
                verdict, status=UNKNOWN, reason=f"undecided: {why}", witness=(), certificate=""
            )
    with _mint():
        return Fact(formula, verdict, **kw)


__all__ = [
    "ASSUMPTION",
    "CHECKED",
    "DEFINITION",
    "ORACLE",
    "Fact",
    "FactKind",
    "PROVED",
    "REFUTED",
    "UNKNOWN",
]
