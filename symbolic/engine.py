"""The proof engine's objects: claims, steps, derivations, results and reports.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import sympy

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
from symbolic.render.formula_text import formula_text, source_text

ResultStatus = Literal["proved", "refuted", "unknown", "failed"]
FAILED: ResultStatus = "failed"

# Process exit codes of every command (docs/cli.md).
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


class _Displayed:
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


@dataclass(frozen=True, repr=False)  # repr: _Displayed
class Derivation(_Displayed):
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


@dataclass(frozen=True, repr=False)  # repr: _Displayed
class Result(_Displayed):
    """A claim with its derivation and numeric cross-checks.

    The status is the derivation's verdict, except that any disagreeing numeric check makes it
    ``failed``: symbolic and numeric must agree.
    """

    claim: Claim
    derivation: Derivation
    numeric: tuple[NumericCheck, ...] = ()
    # set by ``resolve_uses``: admitted facts reached through the claims it uses, and the used
    # claims that are not proved (name, status)
    inherited: tuple[Admitted, ...] = ()
    blocked_by: tuple[tuple[str, str], ...] = ()

    @property
    def verdict(self) -> Verdict:
        return self.derivation.verdict

    @property
    def status(self) -> ResultStatus:
        return self._judgement[0]

    @property
    def reason(self) -> str:
        return self._judgement[1]

    @cached_property  # a Result is immutable: judged once (``replace`` makes a new one)
    def _judgement(self) -> tuple[ResultStatus, str]:
        """The claim's status and why. Proved only when the derivation's conclusion (its last
        step) is a proved kernel fact whose formula *is* the statement (``same_statement``) and
        every step says something; refuted only by a kernel fact of its negation (the statement
        refuted, or its negation proved); a numeric disagreement, a claim without a statement, a
        step with identical sides or a chain that ends elsewhere is ``failed``; undecided is
        ``unknown``, also when a claim it uses is not proved."""
        bad = [n for n in self.numeric if not n.agrees]
        if bad:
            return FAILED, f"numeric check disagrees: {bad[0].name}"
        if self.claim.statement is None:
            return FAILED, "the claim has no statement formula: nothing to prove"
        empty = self.derivation.empty_steps
        if empty:
            return FAILED, (
                f"step {empty[0]} relates a formula to itself "
                f"({self.derivation.steps[empty[0] - 1].statement[:60]}): no evidence "
                "(SymPy built both sides into one expression before any check; "
                "relate two different expressions, e.g. with evaluate=False)"
            )
        verdict = self.verdict
        if not self.derivation.steps:
            return UNKNOWN, "no steps"
        last = self.derivation.steps[-1].fact
        statement = self.claim.statement
        if (
            verdict.status == PROVED
            and isinstance(last.formula, sympy.Not)
            and same_statement(last.formula.args[0], statement)
        ):
            return REFUTED, "its negation is proved: " + formula_text(last)[:80]
        if verdict.status == PROVED:
            if same_statement(last.formula, statement):
                if self.blocked_by:
                    name, status = self.blocked_by[0]
                    return UNKNOWN, f"uses {name}, which is {status}"
                return PROVED, verdict.reason
            return FAILED, (
                "the derivation concludes "
                + formula_text(last)[:80]
                + ", not the claim's statement"
            )
        if verdict.status == REFUTED:
            if last.verdict.status == REFUTED and same_statement(last.formula, statement):
                return REFUTED, last.verdict.reason
            return FAILED, verdict.reason
        return UNKNOWN, verdict.reason

    @property
    def establishes_formula(self) -> bool:
        """The derivation's last step is a fact whose formula is the claim's statement."""
        steps = self.derivation.steps
        return (
            self.claim.statement is not None
            and bool(steps)
            and same_statement(steps[-1].formula, self.claim.statement)
        )

    @property
    def _own_admitted(self) -> tuple[Admitted, ...]:
        seen: dict[int, Admitted] = {}
        for step in self.derivation.steps:
            for f in step.fact.rests_on:
                seen.setdefault(id(f), Admitted(f.kind, formula_text(f), f.verdict.certificate))
        return tuple(seen.values())

    @property
    def assumptions(self) -> tuple[Admitted, ...]:
        """The assumptions it rests on: its own, those its rules' premises rest on, and those
        of the claims it uses (``inherited``, named by the claim they come through)."""
        return tuple(a for a in self._own_admitted + self.inherited if a.kind == ASSUMPTION)

    @property
    def oracles(self) -> tuple[Admitted, ...]:
        return tuple(a for a in self._own_admitted + self.inherited if a.kind == ORACLE)

    @property
    def rests_on(self) -> tuple[Admitted, ...]:
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
    def methods(self) -> tuple[str, ...]:
        return self.derivation.methods

    _shown_as = "result"

    def to_json(self) -> dict[str, Any]:
        return {
            "claim": self.claim.to_json(),
            "status": self.status,
            "strict_status": self.strict_status(),
            "verdict": self.verdict.to_json(),
            "reason": self.reason,
            "assumptions": [a.to_json() for a in self.assumptions],
            "oracles": [a.to_json() for a in self.oracles],
            "blocked_by": [list(b) for b in self.blocked_by],
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


@dataclass(frozen=True, repr=False)  # repr: _Displayed
class Report(_Displayed):
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

    _shown_as = "report"

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


def resolve_uses(results: Iterable[Result]) -> tuple[Result, ...]:
    """Each result with what it inherits through ``uses``, transitively: the admitted facts the
    used claims rest on (``inherited``, named by the claim they come through) and the used
    claims that are not proved (``blocked_by``). A name not among ``results`` is left alone
    (its claim was not checked in this run)."""
    results = tuple(results)
    by_name = {r.claim.name: r for r in results}
    memo: dict[str, tuple[tuple[Admitted, ...], tuple[tuple[str, str], ...]]] = {}

    def upstream(
        name: str, path: tuple[str, ...]
    ) -> tuple[tuple[Admitted, ...], tuple[tuple[str, str], ...]]:
        if name in memo:
            return memo[name]
        admitted: dict[tuple[str, str, str], Admitted] = {}
        blocked: dict[str, str] = {}
        for used in by_name[name].claim.uses:
            if used not in by_name:
                continue
            if used in path:
                blocked[used] = "circular"
                continue
            r = by_name[used]
            for a in r._own_admitted:
                admitted.setdefault((a.kind, a.statement, used), replace(a, via=used))
            if r.status != PROVED:
                blocked[used] = r.status
            more, more_blocked = upstream(used, path + (used,))
            for a in more:
                admitted.setdefault((a.kind, a.statement, a.via), a)
            for n, st in more_blocked:
                blocked.setdefault(n, st)
        memo[name] = (tuple(admitted.values()), tuple(blocked.items()))
        return memo[name]

    out = []
    for r in results:
        inherited, blocked = upstream(r.claim.name, (r.claim.name,))
        out.append(
            replace(r, inherited=inherited, blocked_by=blocked) if inherited or blocked else r
        )
    return tuple(out)


def resolve_reports(reports: Iterable[Report]) -> list[Report]:
    """The reports with every result's ``uses`` resolved against the results of all of them."""
    reports = list(reports)
    resolved = iter(resolve_uses(r for rep in reports for r in rep.results))
    return [replace(rep, results=tuple(next(resolved) for _ in rep.results)) for rep in reports]


def overall_status(statuses: Iterable[str]) -> ResultStatus:
    """failed/refuted beat unknown, which beats proved. An empty set is unknown, never a pass."""
    statuses = set(statuses)
    if not statuses:
        return UNKNOWN
    for worst in (FAILED, REFUTED, UNKNOWN):
        if worst in statuses:
            return worst  # type: ignore[return-value]
    return PROVED


__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "EXIT_USAGE",
    "FAILED",
    "PROVED",
    "REFUTED",
    "UNKNOWN",
    "Admitted",
    "Claim",
    "Derivation",
    "NumericCheck",
    "Report",
    "Result",
    "Step",
    "Table",
    "Verdict",
    "combine",
    "exit_code_for",
    "overall_status",
    "resolve_reports",
    "resolve_uses",
    "same_statement",
    "says_nothing",
]


def exit_code_for(status: str) -> int:
    return {PROVED: EXIT_OK, UNKNOWN: EXIT_UNKNOWN}.get(status, EXIT_FAILED)
