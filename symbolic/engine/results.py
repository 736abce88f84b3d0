"""The proof engine's objects, second half: results, tables and reports, and their statuses.

A **Result** joins a claim, its derivation and the numeric cross-checks; its status is proved only
when the derivation ends in a proved fact whose formula is the claim's statement. A **Report** is
what one theorem module returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import sympy

from symbolic.engine.claims import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_UNKNOWN,
    FAILED,
    Admitted,
    Claim,
    Derivation,
    Displayed,
    NumericCheck,
    ResultStatus,
    Step,
    same_statement,
)
from symbolic.kernel import (
    ASSUMPTION,
    DEFINITION,
    ORACLE,
    PROVED,
    REFUTED,
    UNKNOWN,
    Verdict,
    conclusion_gap,
    refutation_gap,
)
from symbolic.render.formula_text import formula_text


@dataclass(frozen=True, repr=False)  # repr: Displayed
class Result(Displayed):
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
    # and the definitions the used claims' derivations show (a step may unfold one of them)
    shown_by_uses: frozenset = frozenset()

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
        step) is a proved kernel fact whose formula *is* the statement (``same_statement``),
        every step says something, and the conclusion rests on no condition or definition the
        statement does not show (``kernel.conclusion_gap``); refuted only by a kernel fact of its
        negation (the statement refuted, or its negation proved resting on no assumption:
        ``kernel.refutation_gap``); a numeric disagreement, a claim without a statement, a
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
            gap = refutation_gap(last)  # an assumed negation is no counterexample
            if gap is not None:
                return UNKNOWN, gap
            return REFUTED, "its negation is proved: " + formula_text(last)[:80]
        if verdict.status == PROVED:
            if same_statement(last.formula, statement):
                if self.blocked_by:
                    name, status = self.blocked_by[0]
                    return UNKNOWN, f"uses {name}, which is {status}"
                # shown as its statement alone: no condition or definition may hide in a step
                steps = (s.fact for s in self.derivation.steps)
                gap = conclusion_gap(steps, last, statement, shown_elsewhere=self.shown_by_uses)
                if gap is not None:
                    return UNKNOWN, gap
                return PROVED, verdict.reason
            return FAILED, (
                "the derivation concludes "
                + formula_text(last)[:80]
                + ", not the claim's statement"
            )
        if verdict.status == REFUTED:
            if last.verdict.status == REFUTED and same_statement(last.formula, statement):
                if last.rests_on:  # kernel.negate says so itself; a refutation is certified
                    return UNKNOWN, "its refutation rests on an assumption, which refutes nothing"
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


@dataclass(frozen=True, repr=False)  # repr: Displayed
class Report(Displayed):
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
    used claims rest on (``inherited``, named by the claim they come through), the used claims
    that are not proved (``blocked_by``) and the definitions their derivations show
    (``shown_by_uses``: a step may unfold one, as the claim it comes from shows it). Used claims
    are resolved first. A name not among ``results`` is left alone (its claim was not checked
    in this run): it shows no definition.

    Each result stays itself: two claims of one name (in a module, or in two) are two results,
    never one shown twice (a refuted ``mine.lemma`` was shown as the proved one of that name,
    exit 0). A claim that uses such a name cannot say which it rests on: it is blocked
    (``ambiguous``). The three fields are computed here, whatever the result came with."""
    results = tuple(results)
    by_name: dict[str, list[int]] = {}
    for i, r in enumerate(results):
        by_name.setdefault(r.claim.name, []).append(i)
    done: dict[int, Result] = {}

    def resolved(index: int, path: tuple[str, ...]) -> Result:
        if index in done:
            return done[index]
        r = results[index]
        admitted: dict[tuple[str, str, str], Admitted] = {}
        blocked: dict[str, str] = {}
        shown: set = set()
        for used in r.claim.uses:
            if used not in by_name:
                continue
            if used in path:
                blocked[used] = "circular"
                continue
            if len(by_name[used]) > 1:
                blocked[used] = f"ambiguous ({len(by_name[used])} claims of that name)"
            for j in by_name[used]:
                u = resolved(j, path + (used,))
                for a in u._own_admitted:
                    admitted.setdefault((a.kind, a.statement, used), replace(a, via=used))
                for a in u.inherited:
                    admitted.setdefault((a.kind, a.statement, a.via), a)
                own_status = replace(u, blocked_by=()).status  # its own derivation's
                if own_status != PROVED:
                    blocked.setdefault(used, own_status)
                for n, st in u.blocked_by:
                    blocked.setdefault(n, st)
                shown |= u.shown_by_uses | _shown_definitions(u)
        r = replace(  # always: what a result was built with is not taken on trust (a module's
            r,  # build_report gave its Result shown_by_uses holding ``c := 0``, proving c = 0)
            inherited=tuple(admitted.values()),
            blocked_by=tuple(blocked.items()),
            shown_by_uses=frozenset(shown),
        )
        done[index] = r
        return r

    return tuple(resolved(i, (r.claim.name,)) for i, r in enumerate(results))


def _shown_definitions(result: Result) -> set:
    """The definitions among a result's derivation steps (``c = v`` formulas)."""
    return {s.fact.formula for s in result.derivation.steps if s.fact.kind == DEFINITION}


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


def exit_code_for(status: str) -> int:
    return {PROVED: EXIT_OK, UNKNOWN: EXIT_UNKNOWN}.get(status, EXIT_FAILED)
