"""Plain-text rendering of reports, results and tables: the dashboard, ``-v`` and the text
output of every command (JSON is ``Report.to_json``).

Returns strings; only the command-line layer prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sympy

from symbolic.engine import Report, Result, Step, Table, Verdict, overall_status
from symbolic.render.formula_text import text

MARK = {"proved": "✓", "refuted": "✗", "unknown": "?", "failed": "✗"}


def cell_text(cell: object) -> str:
    if cell is None:
        return "—"
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, float):
        return f"{cell:,.6g}" if abs(cell) < 1e6 else f"{cell:,.4e}"
    if isinstance(cell, sympy.Basic):
        return sympy.sstr(cell)
    return str(cell)


def table_text(table: Table) -> str:
    rows = [list(table.columns)] + [[cell_text(c) for c in row] for row in table.rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(table.columns))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()  # noqa: E731
    lines = [table.title, fmt(rows[0]), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows[1:]]
    lines += [f"  note: {n}" for n in table.notes]
    return "\n".join(lines)


def verdict_text(v: Verdict, verbose: bool = False) -> str:
    text = f"{MARK[v.status]} {v.status} by {v.method}"
    if v.witness:
        text += " at " + ", ".join(f"{k} = {val}" for k, val in v.witness)
    if verbose:
        details = [v.reason, v.certificate, v.backend]
        if v.timeout_s is not None:
            details.append(f"timeout {v.timeout_s:g} s")
        details.append(f"{v.seconds * 1000:.1f} ms")
        text += "\n" + "\n".join(f"          {d}" for d in details if d)
    elif v.certificate and v.status != "proved":
        text += f"  [{v.certificate}]"
    return text


ADMITTED_MARK = {
    "definition": "≔ definition",
    "assumption": "⊢ assumed",
    "oracle": "⊢ oracle result",
}


def premises_text(step: Step, index: dict[int, int]) -> str:
    """``from steps 1, 3`` for a step made by a kernel rule (its premises that are steps)."""
    found = [index[id(p)] for p in step.fact.parts if id(p) in index]
    if not step.fact.rule:
        return ""
    where = f" from step{'s' * (len(found) != 1)} {', '.join(map(str, found))}" if found else ""
    return f"kernel rule {step.fact.rule}{where}"


def step_text(i: int, step: Step, verbose: bool, index: dict[int, int] | None = None) -> str:
    """The checked formula, the note beside it, and what decided it (or that it is admitted)."""
    lines = [f"  {i:>2}. {step.statement}"]
    if step.note:
        lines.append(f"      ({step.note})")
    if step.fact.rule:
        lines.append(
            f"      by {step.rule} — {MARK[step.verdict.status]} {step.verdict.status}: "
            + premises_text(step, index or {})
        )
    elif step.kind == "checked":
        lines.append(f"      by {step.rule} — {verdict_text(step.verdict, verbose)}")
    else:
        extra = f": {step.verdict.certificate}" if step.kind == "oracle" else ""
        lines.append(f"      {ADMITTED_MARK[step.kind]} ({step.rule}){extra}")
    return "\n".join(lines)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def admitted_text(result: Result) -> str:
    """``(1 assumption, 2 oracle results)``: what a proved claim rests on, its own and through
    the claims it uses (``Admitted.via``); "" when nothing."""
    rests = (*result.assumptions, *result.oracles)
    counts = [(len(result.assumptions), "assumption"), (len(result.oracles), "oracle result")]
    text = ", ".join(plural(n, noun) for n, noun in counts if n)
    via = sum(1 for a in rests if getattr(a, "via", ""))
    if via:
        text += " through uses" if via == len(rests) else f", {via} of them through uses"
    return f" ({text})" if text else ""


def status_text(result: Result, strict: bool = False) -> str:
    """``✓ proved``, ``✓ proved (1 assumption)``, ``? unknown`` (``--strict`` refusing it), …"""
    status = result.strict_status() if strict else result.status
    text = f"{MARK[status]} {status}"
    if status == "proved":
        text += admitted_text(result)
    elif strict and result.status == "proved":
        text += f" (--strict: rests on{admitted_text(result)})"
    return text


def result_text(result: Result, verbose: bool = False, backing: str | None = None) -> str:
    """A claim, its derivation and numeric checks; ``backing``: how it is backed
    (``symbolic.backing``; computed without a second solver when not given)."""
    from symbolic.backing import backing as backing_of

    c = result.claim
    head = (
        f"[{result.status}{admitted_text(result)}] {c.kind.capitalize()} {c.name} "
        f"({c.source}): {c.title}"
    )
    lines = [head]
    if c.statement is not None:
        lines.append(f"  {text(c.statement)}")
    lines.append(f"  ({c.note})" if c.statement is not None else f"  {c.note}")
    lines += [f"  assuming {a}" for a in c.assumptions]
    lines.append(f"  backed by {backing or backing_of(result)}")
    index = {id(s.fact): i for i, s in enumerate(result.derivation.steps, 1)}
    lines += [step_text(i, s, verbose, index) for i, s in enumerate(result.derivation.steps, 1)]
    for n in result.numeric:
        mark = "✓" if n.agrees else "✗ DISAGREES"
        lines.append(
            f"  numeric check ({n.backend}, {n.samples} samples): {n.name}: "
            f"{n.measured()} {mark}"
            + (f" — {n.detail}" if n.detail and (verbose or not n.agrees) else "")
        )
    if result.status != "proved":
        lines.append(f"  reason: {result.reason}")
    return "\n".join(lines)


def summary_line(statuses: Iterable[str]) -> str:
    statuses = list(statuses)
    counts = {s: statuses.count(s) for s in ("proved", "refuted", "unknown", "failed")}
    return ", ".join(f"{n} {s}" for s, n in counts.items())


def report_text(report: Report, verbose: bool = False) -> str:
    from symbolic.backing import claim_backing

    parts = [f"== {report.title} ({report.source}) =="]
    parts += [result_text(r, verbose, claim_backing(report, r)) for r in report.results]
    parts += [table_text(t) for t in report.tables]
    parts.append(
        f"{report.module}: {summary_line(r.status for r in report.results)} "
        f"in {report.seconds:.2f} s — {report.status}"
    )
    return "\n\n".join(parts)


def reports_text(reports: Sequence[Report], verbose: bool = False) -> str:
    return "\n\n".join(report_text(r, verbose) for r in reports)


SUMMARY_COLUMNS = ("module", "claim", "source item", "verdict", "backing", "time")


def claims_table(reports: Sequence[Report], strict: bool = False) -> Table:
    """One row per claim (module, claim, source item, verdict, backing, time): the dashboard.
    ``backing`` in the words of ``symbolic.backing``."""
    from symbolic.backing import claim_backing

    rows = tuple(
        (
            rep.module,
            r.claim.name,
            r.claim.source,
            status_text(r, strict),
            claim_backing(rep, r),
            f"{r.verdict.seconds:.3f} s",
        )
        for rep in reports
        for r in rep.results
    )
    statuses = [r.strict_status() if strict else r.status for rep in reports for r in rep.results]
    return Table(
        "claims",
        "Checked claims",
        SUMMARY_COLUMNS,
        rows,
        notes=(f"{summary_line(statuses)}; overall {overall_status(statuses)}.",),
    )
