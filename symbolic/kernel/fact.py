"""Facts: a formula bound to the verdict on *that* formula.

A ``Fact`` is what every checker of the kernel returns: the SymPy formula that was checked
(``Eq``, ``Ne``, a relational, a Boolean, ``ForAll``), the verdict, the symbols' domain as
shown, and its kind — ``checked`` (a backend decided it), ``definition`` (``c := σ(1)``),
``assumption`` (a hypothesis admitted by name) or ``oracle`` (a result certified by a procedure
outside the kernel, e.g. a certified quadrature, admitted with its certificate). Admitted facts are never *proved*: derivations
count them apart, and ``python -m proofs --strict`` refuses claims that rest on assumptions.
Like a verdict, a fact can only be made inside the kernel (see ``symbolic.kernel.verdict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import sympy

from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, Verdict, _guard, _mint

FactKind = Literal["checked", "definition", "assumption", "oracle"]
CHECKED: FactKind = "checked"
DEFINITION: FactKind = "definition"
ASSUMPTION: FactKind = "assumption"
ORACLE: FactKind = "oracle"  # certified by a procedure outside the kernel: admitted, counted


@dataclass(frozen=True)
class Fact:
    """The formula that was checked, and what was decided about it."""

    formula: sympy.Basic
    verdict: Verdict
    kind: FactKind = CHECKED
    domain: tuple[str, ...] = ()  # e.g. ("t > 0",): the symbols' assumptions, shown
    parts: tuple[Fact, ...] = ()  # the cases that established it (a split by sign, ...)
    smt2: str = ""  # Z3 facts: the SMT-LIB 2 benchmark (negated goal) that was decided

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

    def to_json(self) -> dict[str, Any]:
        return {"formula": sympy.sstr(self.formula), "kind": self.kind,
                "domain": list(self.domain), "verdict": self.verdict.to_json(),
                "parts": [p.to_json() for p in self.parts], "smt2": bool(self.smt2)}


def _fact(formula: sympy.Basic, verdict: Verdict, **kw: Any) -> Fact:
    with _mint():
        return Fact(formula, verdict, **kw)


__all__ = ["ASSUMPTION", "CHECKED", "DEFINITION", "ORACLE", "Fact", "FactKind", "PROVED", "REFUTED",
           "UNKNOWN"]
