"""Derivations that end in their claim: equation chains and rule steps (untrusted helpers).

``Calc`` writes a chain ``a₀ = a₁ = … = aₙ`` as a reader writes it: each link is checked by a
kernel checker (or given as a fact already proved), and ``steps()`` returns the links followed by
the kernel's transitivity step ``a₀ = aₙ`` — the fact a claim with that statement is proved by.
``rule_step`` wraps any kernel rule's fact as a step. Nothing here decides anything: the kernel's
checkers and rules (``symbolic.kernel.rules``) do.

>>> import sympy
>>> a = sympy.Symbol("a", real=True)
>>> calc = Calc((a + 1)**2)
>>> calc = calc.eq(a**2 + 2*a + 1, "expand").eq(a*(a + 2) + 1, "factor a out of two terms")
>>> last = calc.steps()[-1]
>>> last.formula, last.fact.rule, last.verdict.status
(Eq((a + 1)**2, a*(a + 2) + 1), 'trans', 'proved')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy

from symbolic.engine import Step
from symbolic.kernel import (
    Fact,
    check_equal,
    cong,
    conj,
    conjunction,
    counterexample,
    inst,
    negate,
    symm,
    trans,
    unfold,
)

Checker = Callable[[sympy.Basic, sympy.Basic], Fact]


@dataclass(frozen=True)
class Calc:
    """A chain of equalities from ``start``; immutable (``eq`` returns the longer chain)."""

    start: sympy.Basic
    links: tuple[Step, ...] = ()

    @property
    def end(self) -> sympy.Basic:
        return self.links[-1].formula.rhs if self.links else self.start

    def eq(
        self,
        rhs: sympy.Basic,
        rule: str,
        *,
        note: str = "",
        check: Checker = check_equal,
        by: Fact | None = None,
    ) -> Calc:
        """The next link ``end = rhs``: checked by ``check`` (SymPy's ``check_equal`` unless
        said), or ``by`` a fact already made whose formula is exactly that equation."""
        fact = by if by is not None else check(self.end, rhs)
        if by is not None and fact.formula != sympy.Eq(self.end, rhs, evaluate=False):
            raise ValueError(
                f"Calc.eq(by=...): the fact says {sympy.sstr(fact.formula)[:80]}, "
                f"not {sympy.sstr(self.end)[:40]} = {sympy.sstr(rhs)[:40]}"
            )
        return Calc(self.start, self.links + (Step(fact, rule, note),))

    def steps(self, rule: str = "", note: str = "") -> tuple[Step, ...]:
        """The links, then (for two or more) the transitivity step ``start = end``."""
        if len(self.links) < 2:
            return self.links
        n = len(self.links)
        closing = Step(
            trans(*(s.fact for s in self.links)),
            rule or f"transitivity: the chain of the {n} steps above",
            note,
        )
        return self.links + (closing,)


def held_and(*formulas: sympy.Basic) -> sympy.Basic:
    """``A ∧ B ∧ …`` as the kernel's ``conj`` concludes it (``conjunction``: ``sympy.And``'s
    structure without its canonical-relation pass, most of a statement's cost on formulas
    holding sums, derivatives or ``Max``)."""
    return conjunction(*formulas)


def conjoined(steps: list[Step] | tuple[Step, ...], rule: str, note: str = "") -> tuple[Step, ...]:
    """The steps, then the kernel's conjunction of their facts (a claim stating them all)."""
    return (*steps, Step(conj(*(s.fact for s in steps)), rule, note))


def rule_step(fact: Fact, rule: str, note: str = "") -> Step:
    """A kernel rule's fact as a derivation step."""
    return Step(fact, rule, note)


def in_context(
    step: Step, hole: sympy.Symbol, context: sympy.Basic, rule: str, note: str = ""
) -> Step:
    """``C[a] = C[b]`` from the step ``a = b`` (``context`` mentions ``hole`` where a goes)."""
    return Step(cong(step.fact, sympy.Lambda(hole, context)), rule, note)


def reversed_step(step: Step, note: str = "") -> Step:
    """``b = a`` from the step ``a = b``."""
    return Step(symm(step.fact), "symmetry of equality", note)


def instance(
    step: Step, substitution: Mapping[sympy.Symbol, sympy.Basic], rule: str = "", note: str = ""
) -> Step:
    """The step's fact at the given terms (each checked to lie in its variable's set)."""
    shown = ", ".join(f"{sympy.sstr(v)} := {sympy.sstr(t)}" for v, t in substitution.items())
    return Step(inst(step.fact, substitution), rule or f"instance at {shown}", note)


def unfolded(definition: Step, expr: sympy.Basic, note: str = "") -> Step:
    """``E = E[c := v]`` from the definition step ``c := v``."""
    return Step(unfold(definition.fact, expr), "unfold the definition", note)


__all__ = [
    "Calc",
    "conjoined",
    "held_and",
    "in_context",
    "instance",
    "reversed_step",
    "rule_step",
    "unfolded",
]


def zero_or_witnessed_break(expr: sympy.Expr, variables: tuple) -> Fact:
    """``expr = 0`` for all values, decided by SymPy (``check_equal``): the proved identity; or,
    when SymPy refutes it at a point, the kernel's certified counterexample at that very point
    over ``variables``, negated — ``¬∀ variables: expr = 0``, the fact a witness search gives
    and the form a "broken" statement holds (the refuted open equation concludes no such
    statement; handed on, it made the claim "failed"). When the kernel cannot certify that
    point in time, the negation is unknown, and so is the claim. Otherwise SymPy's fact as it
    is (proved, or unknown)."""
    fact = check_equal(expr, 0)
    found = dict(fact.verdict.witness) if fact.refuted else {}
    if set(found) != {str(v) for v in variables}:
        return fact
    point = {}
    for v in variables:
        value = Fraction(found[str(v)])  # the kernel writes its rational points as "7/5"
        point[v] = sympy.Rational(value.numerator, value.denominator)
    return negate(counterexample(expr, 0, point, variables))
