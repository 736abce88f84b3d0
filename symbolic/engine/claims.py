"""The proof engine's objects, first half: claims, steps, derivations, numeric checks.

Everything here is a frozen dataclass; nothing prints. Text, JSON and LaTeX are renderings of
these objects (``symbolic.render``). Verdicts and facts come from the trusted kernel
(``symbolic.kernel``) and nowhere else: a **Step** is a kernel ``Fact`` (the formula that was
checked, and the verdict on it) with the rule that justifies it and an optional prose note; its
statement is rendered from the fact's formula, never typed in.

A **Claim** is a named statement with its source item (``docs/theory.md``). A **Derivation** is
the sequence of steps that proves it: proved iff every *checked* step is proved; definitions and
assumptions are admitted, counted apart (``Result.assumptions``). A **Result** joins a claim,
its derivation and the numeric cross-checks; a **Report** is what one theorem module returns.

>>> import sympy
>>> from symbolic.kernel import check_equal
>>> a, b = sympy.symbols("a b", real=True)
>>> Derivation((Step(check_equal(a*b, b*a), rule="commutativity"),)).verdict.status
'proved'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import sympy

from symbolic.kernel import (
    CHECKED,
    DEFINITION,
    Fact,
    KernelViolation,
    Verdict,
    combine,
)
from symbolic.render.formula_text import formula_text, source_text

ResultStatus = Literal["proved", "refuted", "unknown", "failed"]
FAILED: ResultStatus = "failed"

# Process exit codes of every command (docs/cli.md).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


class Displayed:
    """Markdown, LaTeX, HTML (Jupyter) and a short ``repr``, each from
    ``symbolic.render.notebook``'s ``<kind>_markdown`` / ``_latex_repr`` / ``_html_repr`` /
    ``_repr`` for the class's kind."""

    _shown_as = ""

    def _render(self, suffix: str) -> str:
        from symbolic.render import notebook

        return getattr(notebook, f"{self._shown_as}{suffix}")(self)

    def _repr_markdown_(self) -> str:
        return self._render("_markdown")

    def _repr_latex_(self) -> str:
        return self._render("_latex_repr")

    def _repr_html_(self) -> str:
        return self._render("_html_repr")

    def __repr__(self) -> str:
        return self._render("_repr")


@dataclass(frozen=True)
class Claim:
    """A named mathematical statement.

    ``statement`` is the theorem itself: a SymPy formula (``Eq``, ``Implies``, ``ForAll``, ...)
    shown as the theorem in every rendering. A claim is proved only by a kernel fact whose
    formula *is* that statement (``Result.status``). ``note`` is prose beside it, never
    instead of it.
    """

    name: str
    title: str
    note: str
    source: str
    kind: str = "theorem"  # theorem | lemma | proposition | corollary
    assumptions: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    statement: sympy.Basic | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "statement": source_text(self.statement) if self.statement is not None else None,
            "note": self.note,
            "source": self.source,
            "kind": self.kind,
            "assumptions": list(self.assumptions),
            "uses": list(self.uses),
        }


@dataclass(frozen=True)
class Step:
    """One line of a derivation: a kernel fact, the rule that justifies it, and a prose note.

    ``statement`` and ``formula`` are the fact's: what is shown is what was checked.
    """

    fact: Fact
    rule: str
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.fact, Fact):
            raise KernelViolation(
                f"Step(fact={self.fact!r:.60}, ...): a step is a kernel Fact "
                "(symbolic.kernel.check_* / define / assume), not text"
            )

    @property
    def verdict(self) -> Verdict:
        return self.fact.verdict

    @property
    def formula(self) -> sympy.Basic:
        return self.fact.formula

    @property
    def kind(self) -> str:
        return self.fact.kind

    @property
    def statement(self) -> str:
        return formula_text(self.fact)

    def to_json(self) -> dict[str, Any]:
        return {
            "statement": self.statement,
            "formula": source_text(self.formula),
            "kind": self.kind,
            "domain": list(self.fact.domain),
            "note": self.note or None,
            "rule": self.rule,
            "verdict": self.verdict.to_json(),
        }


@dataclass(frozen=True, repr=False)  # repr: Displayed
class Derivation(Displayed):
    """A sequence of checked steps. It holds only if every step was verified."""

    steps: tuple[Step, ...]

    @property
    def checked(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.kind == CHECKED)

    @property
    def empty_steps(self) -> tuple[int, ...]:
        """The steps (1-based) that relate a formula to itself, or state a bare truth value:
        ``X = X`` is no evidence of anything, whoever checked it."""
        return tuple(i for i, s in enumerate(self.steps, 1) if says_nothing(s.formula))

    @property
    def admitted(self) -> tuple[Step, ...]:
        """Definitions and assumptions: shown and counted, never proved."""
        return tuple(s for s in self.steps if s.kind != CHECKED)

    @property
    def verdict(self) -> Verdict:
        """The conjunction of every step but the definitions (admitted assumptions and oracle
        results count as holding: the claim is then shown and counted as resting on them).
        A derivation of definitions only is unknown."""
        return combine((s.verdict for s in self.steps if s.kind != DEFINITION), "step")

    @property
    def methods(self) -> tuple[str, ...]:
        """The backends used, each once (a combined method ``exact+sympy`` counts as two)."""
        found = {m for s in self.checked for m in s.verdict.method.split("+")}
        return tuple(sorted(found - {"rule"}))  # a kernel rule adds no backend

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]

    _shown_as = "derivation"


@dataclass(frozen=True)
class NumericCheck:
    """A numeric cross-check of a symbolic result.

    ``agrees`` is False when the numbers contradict the symbolic verdict: that is a failure.
    ``expect`` says what the number is: ``agree`` an error the verdict wants within the
    tolerance; ``differ`` a difference the verdict predicts (a broken symmetry), wanted above
    the tolerance; ``below`` a largest value wanted below the bound ``tolerance``; ``none``
    nothing compared (an undecided verdict, values beyond float64 range).
    """

    name: str
    backend: str  # "numpy" | "torch" | "mpmath"
    samples: int
    max_error: float
    tolerance: float
    agrees: bool
    detail: str = ""
    expect: str = "agree"

    def measured(self) -> str:
        """What the number says, in words: "agrees to 3e-15 (tolerance 1e-11)", "differs by
        1.02 where the verdict predicts a difference (round-off 1e-11)", …"""
        x, tol = f"{self.max_error:.3g}", f"{self.tolerance:.3g}"
        if self.expect == "differ":
            return (
                f"differs by {x} where the verdict predicts a difference (round-off {tol})"
                if self.agrees
                else f"differs by only {x} where the verdict predicts a difference above {tol}"
            )
        if self.expect == "below":
            return (
                f"largest value {x}, below the bound {tol}"
                if self.agrees
                else f"largest value {x}, NOT below the bound {tol}"
            )
        if self.expect == "none":
            return "nothing compared"
        return (
            f"agrees to {x} (tolerance {tol})"
            if self.agrees
            else f"differs by {x}, above the tolerance {tol}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": self.backend,
            "samples": self.samples,
            "max_error": self.max_error,
            "tolerance": self.tolerance,
            "agrees": self.agrees,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Admitted:
    """An admitted fact a claim rests on: ``kind`` assumption or oracle, its statement, its
    certificate (for an oracle), and ``via``: the used claim it comes through ("" for its own)."""

    kind: str
    statement: str
    certificate: str = ""
    via: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "statement": self.statement,
            "certificate": self.certificate or None,
            "via": self.via or None,
        }


def same_statement(formula: sympy.Basic, statement: sympy.Basic) -> bool:
    """Is ``formula`` the claim's ``statement``? The canonical form is SymPy's own tree: the two
    are structurally equal (same node classes, same arguments, same symbols with the same
    assumptions); nothing is simplified, so a derivation must end in the statement as written."""
    return formula == statement


def says_nothing(formula: sympy.Basic) -> bool:
    """A bare truth value, or a relation (or ``⇔``) between two identical sides, also under
    quantifiers (``∀ z: z = z``)."""
    from symbolic.kernel import Exists, ForAll

    while isinstance(formula, (ForAll, Exists)):
        formula = formula.body
    if formula in (sympy.true, sympy.false):
        return True
    if isinstance(formula, (sympy.core.relational.Relational, sympy.Equivalent)):
        args = formula.args
        return len(args) == 2 and args[0] == args[1]
    return False
