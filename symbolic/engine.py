"""The proof engine's objects: claims, steps, derivations, results and reports.

Everything here is a frozen dataclass; nothing prints. Text, JSON and LaTeX are renderings of
these objects (``symbolic.render`` and ``symbolic.latex``). Verdicts and facts come from the
trusted kernel (``symbolic.kernel``) and nowhere else: a **Step** is a kernel ``Fact`` (the
formula that was checked, and the verdict on it) with the rule that justifies it and an optional
prose note; its statement is rendered from the fact's formula, never typed in.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import sympy

from symbolic.formula_text import formula_text, source_text
from symbolic.kernel import (
    ASSUMPTION,
    CHECKED,
    DEFINITION,
    ORACLE,
    PROVED,
    REFUTED,
    UNKNOWN,
    Fact,
    KernelViolation,
    Verdict,
    combine,
)

ResultStatus = Literal["proved", "refuted", "unknown", "failed"]
FAILED: ResultStatus = "failed"

# Process exit codes of every command (docs/cli.md).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


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
            raise KernelViolation(f"Step(fact={self.fact!r:.60}, ...): a step is a kernel Fact "
                                  "(symbolic.kernel.check_* / define / assume), not text")

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


@dataclass(frozen=True)
class Derivation:
    """A sequence of checked steps. It holds only if every step was verified."""

    steps: tuple[Step, ...]

    @property
    def checked(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.kind == CHECKED)

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
        return tuple(sorted({m for s in self.checked for m in s.verdict.method.split("+")}))

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]

    def _repr_markdown_(self) -> str:
        from symbolic.render import derivation_markdown

        return derivation_markdown(self)


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
            return (f"differs by {x} where the verdict predicts a difference (round-off {tol})"
                    if self.agrees else f"differs by only {x} where the verdict predicts a "
                    f"difference above {tol}")
        if self.expect == "below":
            return (f"largest value {x}, below the bound {tol}" if self.agrees
                    else f"largest value {x}, NOT below the bound {tol}")
        if self.expect == "none":
            return "nothing compared"
        return (f"agrees to {x} (tolerance {tol})" if self.agrees
                else f"differs by {x}, above the tolerance {tol}")

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
class Result:
    """A claim with its derivation and numeric cross-checks.

    The status is the derivation's verdict, except that any disagreeing numeric check makes it
    ``failed``: symbolic and numeric must agree.
    """

    claim: Claim
    derivation: Derivation
    numeric: tuple[NumericCheck, ...] = ()

    @property
    def verdict(self) -> Verdict:
        return self.derivation.verdict

    @property
    def status(self) -> ResultStatus:
        if any(not n.agrees for n in self.numeric):
            return FAILED
        if self.verdict.status == PROVED and not self.establishes_formula:
            return FAILED
        return self.verdict.status

    @property
    def establishes_formula(self) -> bool:
        """A claim with a formula is established only by a proved step with that formula."""
        f = self.claim.statement
        return f is None or any(s.formula == f and s.fact.proved for s in self.derivation.steps)

    @property
    def assumptions(self) -> tuple[Step, ...]:
        return tuple(s for s in self.derivation.admitted if s.kind == ASSUMPTION)

    @property
    def oracles(self) -> tuple[Step, ...]:
        return tuple(s for s in self.derivation.admitted if s.kind == ORACLE)

    @property
    def rests_on(self) -> tuple[Step, ...]:
        """What ``--strict`` refuses: assumptions and oracle results (definitions are fine)."""
        return self.assumptions + self.oracles

    @property
    def definitions(self) -> tuple[Step, ...]:
        return tuple(s for s in self.derivation.admitted if s.kind == DEFINITION)

    def strict_status(self) -> ResultStatus:
        """``--strict``: a claim that rests on an assumption or an oracle is not proved."""
        status = self.status
        return UNKNOWN if status == PROVED and self.rests_on else status

    @property
    def reason(self) -> str:
        bad = [n for n in self.numeric if not n.agrees]
        if bad:
            return f"numeric check disagrees: {bad[0].name}"
        if self.status == FAILED:
            return "no proved step has the claim's formula"
        return self.verdict.reason

    @property
    def methods(self) -> tuple[str, ...]:
        return self.derivation.methods

    def _repr_markdown_(self) -> str:
        from symbolic.render import result_markdown

        return result_markdown(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "claim": self.claim.to_json(),
            "status": self.status,
            "strict_status": self.strict_status(),
            "verdict": self.verdict.to_json(),
            "assumptions": [s.to_json() for s in self.assumptions],
            "oracles": [s.to_json() for s in self.oracles],
            "definitions": len(self.definitions),
            "methods": list(self.methods),
            "steps": self.derivation.to_json(),
            "numeric": [n.to_json() for n in self.numeric],
        }


Cell = Any  # str | int | float | sympy.Basic | None


@dataclass(frozen=True)
class Table:
    """A table of results (activations, layer forms, memory stores), rendered by the printers."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "columns": list(self.columns),
            "rows": [[_json_cell(c) for c in row] for row in self.rows],
            "notes": list(self.notes),
        }


def _json_cell(cell: Cell) -> Any:
    if cell is None or isinstance(cell, (bool, int, float, str)):
        return cell
    if isinstance(cell, sympy.Basic):
        return sympy.sstr(cell)
    return str(cell)


@dataclass(frozen=True)
class Report:
    """What a theorem module returns: its results, its tables and free-form data for JSON."""

    module: str
    title: str
    source: str
    results: tuple[Result, ...] = ()
    tables: tuple[Table, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    # issue 16: the second solver's answers on this module's exported Z3 obligations, by
    # (claim, step, part path); None when they were not exported (symbolic.backing)
    second_checks: Mapping[tuple, dict] | None = None

    @property
    def status(self) -> ResultStatus:
        return overall_status(r.status for r in self.results)

    def status_under(self, strict: bool = False) -> ResultStatus:
        return overall_status(r.strict_status() if strict else r.status for r in self.results)

    def _repr_markdown_(self) -> str:
        from symbolic.render import report_markdown

        return report_markdown(self)

    @property
    def exit_code(self) -> int:
        return exit_code_for(self.status)

    def to_json(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "title": self.title,
            "source": self.source,
            "status": self.status,
            "seconds": round(self.seconds, 4),
            "results": [r.to_json() for r in self.results],
            "tables": [t.to_json() for t in self.tables],
            "data": dict(self.data),
        }


def overall_status(statuses: Iterable[str]) -> ResultStatus:
    """failed/refuted beat unknown, which beats proved. An empty set is unknown, never a pass."""
    statuses = set(statuses)
    if not statuses:
        return UNKNOWN
    for worst in (FAILED, REFUTED, UNKNOWN):
        if worst in statuses:
            return worst  # type: ignore[return-value]
    return PROVED


__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_UNKNOWN", "EXIT_USAGE", "FAILED", "PROVED",
           "REFUTED", "UNKNOWN", "Claim", "Derivation", "NumericCheck", "Report", "Result",
           "Step", "Table", "Verdict", "combine", "exit_code_for", "overall_status"]


def exit_code_for(status: str) -> int:
    return {PROVED: EXIT_OK, UNKNOWN: EXIT_UNKNOWN}.get(status, EXIT_FAILED)
