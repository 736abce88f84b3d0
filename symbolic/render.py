"""Plain-text rendering of reports, results and tables (JSON is ``Report.to_json``).

Returns strings; only the command-line layer prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sympy

from symbolic.engine import Report, Result, Step, Table, Verdict, overall_status
from symbolic.formula_text import text

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


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def admitted_text(result: Result) -> str:
    """``(1 assumption, 2 oracle results)``: what a proved claim rests on, its own and through
    the claims it uses (``Admitted.via``); "" when nothing."""
    rests = (*result.assumptions, *result.oracles)
    counts = [(len(result.assumptions), "assumption"), (len(result.oracles), "oracle result")]
    text = ", ".join(_plural(n, noun) for n, noun in counts if n)
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


# --- Markdown, for Jupyter (``_repr_markdown_``) -----------------------------------------------


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def derivation_markdown(derivation) -> str:
    """A numbered list: each step's checked formula, its note, the rule and what decided it."""
    lines = []
    for i, step in enumerate(derivation.steps, 1):
        if step.kind == "checked":
            v = step.verdict
            how = f"{MARK[v.status]} {v.status} by {v.method}"
            if v.witness:
                how += " at " + ", ".join(f"{k} = {val}" for k, val in v.witness)
        else:
            how = ADMITTED_MARK[step.kind]
        note = f" — {_md(step.note)}" if step.note else ""
        lines.append(f"{i}. `{step.statement}`{note}  \n   *{_md(step.rule)}* — **{how}**")
    return "\n".join(lines)


def result_markdown(result: Result) -> str:
    c = result.claim
    head = (
        f"**{c.kind.capitalize()} `{c.name}`** ({_md(c.source)}): {_md(c.title)} — "
        f"**{status_text(result)}**"
    )
    parts = [head, "", _md(c.note), "", derivation_markdown(result.derivation)]
    for n in result.numeric:
        parts.append(
            f"- numeric check ({n.backend}): {_md(n.name)}: max error {n.max_error:.3g}"
            f" vs {n.tolerance:.3g} {'✓' if n.agrees else '✗ DISAGREES'}"
        )
    if result.status != "proved":
        parts.append(f"\n*reason:* {_md(result.reason)}")
    return "\n".join(parts)


def report_markdown(report: Report) -> str:
    parts = [
        f"### {_md(report.title)} ({_md(report.source)}) — {MARK[report.status]} {report.status}"
    ]
    parts += [result_markdown(r) for r in report.results]
    return "\n\n".join(parts)


# --- Jupyter: LaTeX (MathJax), HTML and a short repr --------------------------------------
#
# ``Result``, ``Derivation`` and ``Report`` delegate ``_repr_latex_``, ``_repr_html_`` and
# ``__repr__`` to these (one line each): the notebook shows the paper's notation, from the
# same printers as the LaTeX document and the HTML blueprint.


def _mathjax_text(text: str) -> str:
    """Text inside MathJax's ``\\text{}`` (which reads Unicode but no markup): plain notation
    as Unicode scripts (``R^d`` is ℝᵈ), braces and backslashes kept out."""
    from symbolic.html import plain_text

    text = plain_text(text).replace("\\", "∖").replace("{", "(").replace("}", ")")
    return rf"\text{{{text.replace('$', 'S')}}}"


def _step_row(i: int, step: Step) -> str:
    from symbolic.latex import bare_truth, step_formula, step_kind

    f = step_formula(step)
    if f is not None:
        from symbolic.latex_printer import latex

        body = latex(f)
    elif bare_truth(step):
        body = _mathjax_text(step.note or step.rule)
    else:
        body = _mathjax_text(step.statement)
    kind = step_kind(step)
    how = (
        ADMITTED_MARK.get(kind)
        if kind != "checked"
        else (f"{MARK[step.verdict.status]} {step.verdict.status} by {step.verdict.method}")
    )
    why = " · ".join(p for p in (step.rule, how) if p)
    return rf"({i}) & {body} \\ & \quad{{\small {_mathjax_text(why)}}}"


def derivation_latex_repr(derivation) -> str:
    """A derivation for MathJax: numbered rows, each formula with its rule and verdict."""
    rows = r" \\ ".join(_step_row(i, s) for i, s in enumerate(derivation.steps, 1))
    return rf"$$\begin{{array}}{{rl}} {rows} \end{{array}}$$" if rows else r"$\text{no steps}$"


def result_latex_repr(result: Result) -> str:
    """A result for MathJax: the claim's kind, name, title and status, its statement (the
    formula, else the note), then its derivation."""
    from symbolic.latex_printer import latex

    c = result.claim
    head = (
        rf"\textbf{{{c.kind.capitalize()}}}\ {_mathjax_text(c.name)}\colon\ "
        rf"{_mathjax_text(c.title)}\quad \textbf{{{_mathjax_text(status_text(result))}}}"
    )
    statement = latex(c.statement) if c.statement is not None else _mathjax_text(c.note)
    steps = derivation_latex_repr(result.derivation).strip("$")
    return rf"$$\begin{{array}}{{l}} {head} \\ {statement} \end{{array}}$$" + f"\n$${steps}$$"


def report_latex_repr(report: Report) -> str:
    """A report for MathJax: its title and status, then each result."""
    head = (
        rf"$$\textbf{{{_mathjax_text(report.title)}}}\quad "
        rf"{_mathjax_text(f'{MARK[report.status]} {report.status}')}$$"
    )
    return "\n".join([head, *(result_latex_repr(r) for r in report.results)])


_NOTEBOOK_CSS = (
    ".tp-claim{border-left:4px solid #ccc;padding:.2rem .8rem;margin:.6rem 0}"
    ".tp-claim.proved,.tp-claim.complete{border-color:#5aa55a}"
    ".tp-claim.assumptions{border-color:#d9a400}"
    ".tp-claim.refuted,.tp-claim.failed{border-color:#c33}"
    ".tp-claim .why{font-size:.85em;color:#555}"
)


def _notebook_html(body: str) -> str:
    return f'<style>{_NOTEBOOK_CSS}</style>\n<div class="tp">{body}</div>'


def derivation_html_repr(derivation) -> str:
    """A derivation as HTML (MathML formulas, as in the blueprint)."""
    from symbolic.html import step_html

    steps = "\n".join(step_html(s) for s in derivation.steps)
    return _notebook_html(f'<ol class="steps">\n{steps}\n</ol>')


def result_html_repr(result: Result) -> str:
    """A result as HTML: the blueprint's claim section."""
    from symbolic.html import claim_html

    code = claim_html(result, {}, [])
    return _notebook_html(code.replace('class="claim ', 'class="tp-claim ', 1))


def report_html_repr(report: Report) -> str:
    """A report as HTML: its title and status, then each result's claim section."""
    import html as html_lib

    from symbolic.html import claim_html

    claims = "\n".join(
        claim_html(r, {}, []).replace('class="claim ', 'class="tp-claim ', 1)
        for r in report.results
    )
    return _notebook_html(
        f"<h3>{html_lib.escape(report.title)} "
        f"({html_lib.escape(report.module)}): {MARK[report.status]} "
        f"{html_lib.escape(report.status)}</h3>\n{claims}"
    )


def result_repr(result: Result) -> str:
    """``<Result uses-lemma: proved (1 oracle result), 3 steps>``."""
    return (
        f"<Result {result.claim.name}: {result.status}"
        f"{admitted_text(result) if result.status == 'proved' else ''}, "
        f"{len(result.derivation.steps)} step{'s' * (len(result.derivation.steps) != 1)}>"
    )


def derivation_repr(derivation) -> str:
    """``<Derivation: 5 steps (4 checked, 1 definition)>``."""
    kinds: dict[str, int] = {}
    for s in derivation.steps:
        kinds[s.kind] = kinds.get(s.kind, 0) + 1
    inside = ", ".join(f"{n} {k}" for k, n in kinds.items())
    n = len(derivation.steps)
    return f"<Derivation: {n} step{'s' * (n != 1)}" + (f" ({inside})>" if inside else ">")


def report_repr(report: Report) -> str:
    """``<Report proofs.capacity: proved, 20 results>``."""
    n = len(report.results)
    return f"<Report {report.module}: {report.status}, {n} result{'s' * (n != 1)}>"
