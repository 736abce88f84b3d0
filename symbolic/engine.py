"""The proof engine's objects: claims, steps, verdicts, derivations and reports.

Everything here is a frozen dataclass; nothing prints. Text, JSON and LaTeX are renderings of
these objects (``symbolic.render`` and ``symbolic.latex``).

A **Claim** is a named statement with its source item in ``THEORY.md``. A **Derivation** is the
sequence of **Steps** that proves it; every step carries the **Verdict** of the backend that
checked it. A **Result** joins a claim, its derivation and the numeric cross-checks; a **Report**
is what one theorem module returns.

>>> v = Verdict.proved("sympy", "simplify(lhs - rhs) == 0")
>>> Derivation((Step("a*b = b*a", rule="commutativity", verdict=v),)).verdict.status
'proved'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import sympy

Status = Literal["proved", "refuted", "unknown"]
ResultStatus = Literal["proved", "refuted", "unknown", "failed"]
Method = Literal["sympy", "z3", "exact", "interval", "numeric", "composite"]

PROVED: Status = "proved"
REFUTED: Status = "refuted"
UNKNOWN: Status = "unknown"
FAILED: ResultStatus = "failed"

# Process exit codes of every command (DESIGN.md, "Command-line contract").
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


@dataclass(frozen=True)
class Verdict:
    """What a backend decided about one statement. Never a bare bool.

    ``witness`` maps names to exact values (as strings) for a refutation or an instance;
    ``certificate`` says how the witness was certified (an exact value or an interval).
    """

    status: Status
    method: str
    reason: str = ""
    witness: tuple[tuple[str, str], ...] = ()
    certificate: str = ""
    backend: str = ""
    timeout_s: float | None = None
    seconds: float = 0.0

    @classmethod
    def proved(cls, method: str, reason: str = "", **kw: Any) -> Verdict:
        return cls(PROVED, method, reason, **kw)

    @classmethod
    def refuted(cls, method: str, reason: str = "", **kw: Any) -> Verdict:
        return cls(REFUTED, method, reason, **kw)

    @classmethod
    def unknown(cls, method: str, reason: str = "", **kw: Any) -> Verdict:
        return cls(UNKNOWN, method, reason, **kw)

    @property
    def decided(self) -> bool:
        return self.status != UNKNOWN

    def with_time(self, seconds: float) -> Verdict:
        return replace(self, seconds=seconds)

    def negated(self, reason: str = "") -> Verdict:
        """The verdict on the negation of the statement (proved <-> refuted)."""
        flip = {PROVED: REFUTED, REFUTED: PROVED, UNKNOWN: UNKNOWN}
        return replace(self, status=flip[self.status], reason=reason or self.reason)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "method": self.method,
            "reason": self.reason,
            "witness": dict(self.witness) or None,
            "certificate": self.certificate or None,
            "backend": self.backend or None,
            "timeout_s": self.timeout_s,
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Claim:
    """A named mathematical statement.

    ``formula`` (optional) is a SymPy object (``Eq``, ``Equivalent``, ...) rendered by the
    printers; ``statement`` is the plain-text form that is always present.
    """

    name: str
    title: str
    statement: str
    source: str
    kind: str = "theorem"  # theorem | lemma | proposition | corollary
    assumptions: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    formula: sympy.Basic | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "statement": self.statement,
            "source": self.source,
            "kind": self.kind,
            "assumptions": list(self.assumptions),
            "uses": list(self.uses),
            "formula": sympy.sstr(self.formula) if self.formula is not None else None,
        }


@dataclass(frozen=True)
class Step:
    """One line of a derivation: a statement, the rule that justifies it, and its verdict.

    ``statement`` is plain text; ``formula`` the same statement as a SymPy object when it has
    one (the LaTeX printer prefers it).
    """

    statement: str
    rule: str
    verdict: Verdict
    formula: sympy.Basic | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "statement": self.statement,
            "formula": sympy.sstr(self.formula) if self.formula is not None else None,
            "rule": self.rule,
            "verdict": self.verdict.to_json(),
        }


def combine(verdicts: Iterable[Verdict], what: str = "step") -> Verdict:
    """Proved iff every verdict is proved; refuted if one is refuted (named); else unknown."""
    verdicts = tuple(verdicts)
    seconds = sum(v.seconds for v in verdicts)
    methods = sorted({v.method for v in verdicts})
    method = methods[0] if len(methods) == 1 else "+".join(methods) if methods else "none"
    for i, v in enumerate(verdicts, 1):
        if v.status == REFUTED:
            return replace(v, reason=f"{what} {i} refuted: {v.reason}", seconds=seconds)
    for i, v in enumerate(verdicts, 1):
        if v.status == UNKNOWN:
            return replace(v, reason=f"{what} {i} undecided: {v.reason}", seconds=seconds)
    if not verdicts:
        return Verdict.unknown("none", f"no {what}s", seconds=seconds)
    return Verdict.proved(method, f"all {len(verdicts)} {what}s verified", seconds=seconds)


@dataclass(frozen=True)
class Derivation:
    """A sequence of checked steps. It holds only if every step was verified."""

    steps: tuple[Step, ...]

    @property
    def verdict(self) -> Verdict:
        return combine((s.verdict for s in self.steps), "step")

    @property
    def methods(self) -> tuple[str, ...]:
        """The backends used, each once (a combined method ``exact+sympy`` counts as two)."""
        return tuple(sorted({m for s in self.steps for m in s.verdict.method.split("+")}))

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]


@dataclass(frozen=True)
class NumericCheck:
    """A numeric cross-check of a symbolic result.

    ``agrees`` is False when the numbers contradict the symbolic verdict: that is a failure.
    """

    name: str
    backend: str  # "numpy" | "torch" | "mpmath"
    samples: int
    max_error: float
    tolerance: float
    agrees: bool
    detail: str = ""

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
        return self.verdict.status

    @property
    def methods(self) -> tuple[str, ...]:
        return self.derivation.methods

    def to_json(self) -> dict[str, Any]:
        return {
            "claim": self.claim.to_json(),
            "status": self.status,
            "verdict": self.verdict.to_json(),
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

    @property
    def status(self) -> ResultStatus:
        return overall_status(r.status for r in self.results)

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


def exit_code_for(status: str) -> int:
    return {PROVED: EXIT_OK, UNKNOWN: EXIT_UNKNOWN}.get(status, EXIT_FAILED)
