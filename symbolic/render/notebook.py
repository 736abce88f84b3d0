"""How reports, results and derivations show themselves in Python and Jupyter: Markdown
(``_repr_markdown_``), LaTeX for MathJax (``_repr_latex_``), HTML (``_repr_html_``) and a short
``repr``.

``Result``, ``Derivation`` and ``Report`` (``symbolic.engine``) look up
``<kind>_markdown`` / ``<kind>_latex_repr`` / ``<kind>_html_repr`` / ``<kind>_repr`` here by
name; each is one function of the same printers as the text, the LaTeX document and the HTML
blueprint.
"""

from __future__ import annotations

import html as html_lib

from symbolic.engine import Report, Result, Step
from symbolic.render.html_pages import claim_html, step_html
from symbolic.render.html_text import plain_text
from symbolic.render.latex_printer import latex
from symbolic.render.latex_steps import bare_truth, step_formula, step_kind
from symbolic.render.text import ADMITTED_MARK, MARK, admitted_text, status_text

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
    text = plain_text(text).replace("\\", "∖").replace("{", "(").replace("}", ")")
    return rf"\text{{{text.replace('$', 'S')}}}"


def _step_row(i: int, step: Step) -> str:
    f = step_formula(step)
    if f is not None:
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
    steps = "\n".join(step_html(s) for s in derivation.steps)
    return _notebook_html(f'<ol class="steps">\n{steps}\n</ol>')


def result_html_repr(result: Result) -> str:
    """A result as HTML: the blueprint's claim section."""
    code = claim_html(result, {}, [])
    return _notebook_html(code.replace('class="claim ', 'class="tp-claim ', 1))


def report_html_repr(report: Report) -> str:
    """A report as HTML: its title and status, then each result's claim section."""
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
