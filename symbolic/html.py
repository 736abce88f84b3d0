"""The HTML blueprint: ``python -m proofs --html DIR`` writes a static, offline site.

* ``index.html``: the summary, the dependency graph of every claim (an SVG laid out by Graphviz
  ``dot``, nodes coloured by status and linked to the claims) and the list of modules;
* ``<module>.html``: one page per theorem module: every claim with its statement (MathML from
  SymPy's presentation printer where there is a formula), its source item, the claims it uses
  and its derivation, each step with its rule, backend and verdict, witnesses with their
  certificates;
* ``theory.html``: the items of docs/theory.md that the claims cite; ``style.css``.

No JavaScript, no network: browsers render MathML and inline SVG natively. Built from the
report objects (the ones the text, JSON and LaTeX printers render).
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import sympy
from sympy.printing.mathml import MathMLPresentationPrinter

from symbolic import sources
from symbolic.engine import Report, Result, Step
from symbolic.errors import ToolkitError
from symbolic.latex import admitted, status_text, step_formula, step_kind, step_note
from symbolic.latex_printer import NAMED_CONSTANTS, parse_span, sympy_spans

DOT_TIMEOUT_S = 60


class GraphvizMissing(ToolkitError, FileNotFoundError):
    """Graphviz ``dot`` is not installed."""


# --- Status colours: rules as data ----------------------------------------------------------

STATUS_COLOURS = {  # status -> (fill, label in the legend)
    "proved": ("#b7e4b0", "proved"),
    "assumptions": ("#fbe3a1", "proved with assumptions"),
    "refuted": ("#f4a6a6", "refuted"),
    "unknown": ("#d9d9d9", "unknown"),
    "failed": ("#e06666", "failed"),
}


def status_class(result: Result) -> str:
    """The legend class of a result: proved, assumptions, refuted, unknown or failed."""
    if result.status == "proved" and any(step_kind(s) in ("assumption", "oracle") for s in admitted(result)):
        return "assumptions"
    return result.status


# --- MathML ---------------------------------------------------------------------------------

_NAMES = {"sigma": "σ", "phi": "φ"}


class _MathML(MathMLPresentationPrinter):
    """SymPy's presentation MathML, with the kernel's quantifiers (by class name)."""

    def _print(self, expr, *args, **kwargs):
        name = type(expr).__name__
        if name in ("ForAll", "Exists") and hasattr(expr, "body"):
            row = self.dom.createElement("mrow")
            op = self.dom.createElement("mo")
            op.appendChild(self.dom.createTextNode("∀" if name == "ForAll" else "∃"))
            row.appendChild(op)
            for i, v in enumerate(expr.variables):
                if i:
                    comma = self.dom.createElement("mo")
                    comma.appendChild(self.dom.createTextNode(","))
                    row.appendChild(comma)
                row.appendChild(self._print(v))
            colon = self.dom.createElement("mo")
            colon.appendChild(self.dom.createTextNode(":"))
            row.appendChild(colon)
            row.appendChild(self._print(expr.body))
            return row
        return super()._print(expr, *args, **kwargs)


def _prepare(expr: sympy.Basic) -> sympy.Basic:
    named = {c.value: sympy.Symbol(c.latex.replace("\\", "").replace("{", "").replace(
        "}", "").replace("mathrm", "").replace("lambda", "λ").replace("alpha", "α"))
        for c in NAMED_CONSTANTS}
    swap = {r: (named[abs(r)] if r > 0 else -named[abs(r)])
            for r in expr.atoms(sympy.Rational) if abs(r) in named}
    expr = expr.xreplace(swap) if swap else expr
    funcs = {f: sympy.Function(_NAMES[type(f).__name__])(*f.args)
             for f in expr.atoms(sympy.core.function.AppliedUndef)
             if type(f).__name__ in _NAMES}
    return expr.xreplace(funcs) if funcs else expr


def mathml(expr: sympy.Basic, display: bool = False) -> str:
    """``<math>`` of a SymPy object (presentation MathML); escaped text if the printer fails."""
    try:
        code = _MathML().doprint(_prepare(expr))
    except Exception:
        return f"<code>{html.escape(sympy.sstr(expr))}</code>"
    code = code.replace("&ExponentialE;", "e")
    mode = ' display="block"' if display else ""
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML"{mode}>{code}</math>'


def prose_html(text: str) -> str:
    """Text with its SymPy-syntax spans as MathML (the rest escaped)."""
    out, pos = [], 0
    for a, b, _ in sympy_spans(text):
        expr = parse_span(text[a:b])
        out.append(html.escape(text[pos:a]))
        out.append(mathml(expr) if expr is not None else html.escape(text[a:b]))
        pos = b
    out.append(html.escape(text[pos:]))
    return "".join(out)


# --- Pages ----------------------------------------------------------------------------------

CSS = """body{font-family:Georgia,serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
line-height:1.45;color:#222}h1,h2,h3{font-family:Helvetica,Arial,sans-serif}
a{color:#1a5fb4}.claim{border-left:4px solid #ccc;padding:.3rem 1rem;margin:1.5rem 0}
.claim.proved{border-color:#5aa55a}.claim.assumptions{border-color:#d9a400}
.claim.refuted,.claim.failed{border-color:#c33}.claim.unknown{border-color:#999}
.badge{font:600 .8rem Helvetica,Arial,sans-serif;padding:.1rem .4rem;border-radius:.3rem}
.badge.proved{background:#b7e4b0}.badge.assumptions{background:#fbe3a1}
.badge.refuted,.badge.failed{background:#f4a6a6}.badge.unknown{background:#d9d9d9}
ol.steps li{margin:.4rem 0}.why{font-size:.85rem;color:#555}.meta{font-size:.9rem;color:#444}
.graph svg{max-width:100%;height:auto}.legend span{margin-right:1rem;padding:.1rem .4rem}
pre{white-space:pre-wrap;font-family:inherit}"""


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n"
            "<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def _anchor(name: str) -> str:
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def _module_file(module: str) -> str:
    return module.removeprefix("proofs.") + ".html"


def _claim_index(reports: Sequence[Report]) -> dict[str, tuple[Report, Result]]:
    index: dict[str, tuple[Report, Result]] = {}
    for rep in reports:
        for res in rep.results:
            index.setdefault(res.claim.name, (rep, res))
    return index


def _source_html(source: str) -> str:
    try:
        found = sources.resolve(source)
    except sources.UnresolvedSource:
        return f"{html.escape(source)} (not an item of {sources.THEORY_NAME})"
    return ", ".join(f'<a href="theory.html#{i.id}">{html.escape(i.id)}</a> '
                     f"({html.escape(i.title)})" for i in found)


def step_html(step: Step) -> str:
    """One derivation step: statement (MathML or text), rule, note, backend, verdict, witness."""
    f = step_formula(step)
    body = mathml(f) if f is not None else prose_html(step.statement)
    v = step.verdict
    kind = step_kind(step)
    verdict = {"definition": "definition", "assumption": "assumption (admitted, not checked)"
               }.get(kind, f"{v.status} by {v.method}" + (f" ({v.backend})" if v.backend else ""))
    why = [prose_html(step.rule)] if step.rule else []
    note = step_note(step)
    if note:
        why.append(prose_html(note))
    why.append(html.escape(verdict))
    if v.witness:
        why.append("witness " + html.escape(", ".join(f"{k} = {val}" for k, val in v.witness)))
    if v.certificate:
        why.append("certificate: " + html.escape(v.certificate))
    return f'<li>{body}<div class="why">{" · ".join(why)}</div></li>'


def claim_html(result: Result, index: Mapping[str, tuple[Report, Result]],
               used_by: Sequence[str], backing: str | None = None) -> str:
    """One claim's section; ``backing``: how it is backed (``symbolic.backing``; without a
    second solver when not given)."""
    from symbolic.backing import backing as backing_of

    c = result.claim
    cls = status_class(result)
    f = c.statement
    statement = (mathml(f, display=True) + f"<p>{prose_html(c.note)}</p>" if f is not None
                 else f"<p>{prose_html(c.note)}</p>")

    def link(name: str) -> str:
        if name not in index:
            return f"<code>{html.escape(name)}</code> (not checked here)"
        rep, _ = index[name]
        return (f'<a href="{_module_file(rep.module)}#{_anchor(name)}">'
                f"<code>{html.escape(name)}</code></a>")

    meta = [f"source {_source_html(c.source)}",
            f'backed by <span class="backing">{html.escape(backing or backing_of(result))}'
            "</span>"]
    if c.uses:
        meta.append("uses " + ", ".join(link(u) for u in c.uses))
    if used_by:
        meta.append("used by " + ", ".join(link(u) for u in used_by))
    if c.assumptions:
        meta.append("assumptions: " + "; ".join(prose_html(a) for a in c.assumptions))
    steps = "\n".join(step_html(s) for s in result.derivation.steps)
    numeric = "".join(
        f"<li>{html.escape(n.name)} ({html.escape(n.backend)}, {n.samples} samples): "
        f"{'agrees' if n.agrees else 'DISAGREES'}</li>" for n in result.numeric)
    return (f'<section class="claim {cls}" id="{_anchor(c.name)}">\n'
            f"<h3>{html.escape(c.kind.capitalize())}: {html.escape(c.title)} "
            f'<span class="badge {cls}">{html.escape(status_text(result))}</span></h3>\n'
            f'<p class="meta"><code>{html.escape(c.name)}</code> · {" · ".join(meta)}</p>\n'
            f"{statement}\n<ol class=\"steps\">\n{steps}\n</ol>\n"
            + (f"<p class=\"meta\">Numeric cross-checks:</p><ul>{numeric}</ul>\n" if numeric
               else "") + "</section>")


def module_page(report: Report, index: Mapping[str, tuple[Report, Result]],
                used_by: Mapping[str, list[str]]) -> str:
    from symbolic.backing import claim_backing

    claims = "\n".join(claim_html(r, index, used_by.get(r.claim.name, []),
                                  claim_backing(report, r)) for r in report.results)
    body = (f'<p><a href="index.html">← all modules</a></p>\n<h1>{html.escape(report.title)}</h1>\n'
            f"<p class=\"meta\">Module <code>{html.escape(report.module)}</code> "
            f"(<code>python -m {html.escape(report.module)}</code>) · source "
            f"{_source_html(report.source)} · overall {html.escape(report.status)}</p>\n{claims}")
    return _page(report.title, body)


# --- The dependency graph -------------------------------------------------------------------


def dot_source(reports: Sequence[Report]) -> str:
    """The Graphviz description of the claim graph (one cluster per module)."""
    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    index = _claim_index(reports)
    lines = ["digraph claims {", '  graph [rankdir=LR, fontname="Helvetica", ranksep=0.6];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
             "  edge [color=\"#777777\", arrowsize=0.6];"]
    for k, rep in enumerate(reports):
        lines.append(f"  subgraph cluster_{k} {{")
        lines.append(f"    label={q(rep.module.removeprefix('proofs.'))}; color=\"#bbbbbb\";")
        for res in rep.results:
            name = res.claim.name
            if index[name][1] is not res:
                continue
            fill = STATUS_COLOURS[status_class(res)][0]
            url = f"{_module_file(rep.module)}#{_anchor(name)}"
            lines.append(f"    {q(name)} [fillcolor={q(fill)}, URL={q(url)}, "
                         f"tooltip={q(res.claim.title)}];")
        lines.append("  }")
    for name, (_, res) in index.items():
        for used in res.claim.uses:
            if used in index:
                lines.append(f"  {q(used)} -> {q(name)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def graph_svg(reports: Sequence[Report]) -> str:
    """The claim graph as inline SVG, laid out by ``dot``; ``GraphvizMissing`` without it."""
    dot = shutil.which("dot")
    if dot is None:
        raise GraphvizMissing("--html: Graphviz 'dot' was not found on PATH; install it "
                              "(Debian/Ubuntu: apt-get install graphviz; macOS: brew install "
                              "graphviz) and run again")
    done = subprocess.run([dot, "-Tsvg"], input=dot_source(reports), capture_output=True,
                          text=True, timeout=DOT_TIMEOUT_S, check=False)
    if done.returncode:
        raise ToolkitError(f"--html: dot failed (exit {done.returncode}): {done.stderr.strip()}")
    svg = done.stdout
    return svg[svg.index("<svg"):]  # drop the XML prolog and doctype: inline in HTML


def index_page(reports: Sequence[Report], svg: str) -> str:
    statuses = [status_class(r) for rep in reports for r in rep.results]
    counts = ", ".join(f"{statuses.count(s)} {label}" for s, (_, label) in STATUS_COLOURS.items()
                       if statuses.count(s))
    legend = "".join(f'<span style="background:{fill}">{html.escape(label)}</span>'
                     for fill, label in STATUS_COLOURS.values())
    from symbolic.backing import report_backing

    rows = "\n".join(
        f'<li><a href="{_module_file(r.module)}">{html.escape(r.title)}</a> '
        f"(<code>{html.escape(r.module)}</code>, {len(r.results)} claims, "
        f"{html.escape(r.status)}; backed by {html.escape(report_backing(r))})</li>"
        for r in reports)
    body = (f"<h1>Machine-checked claims</h1>\n<p>{len(statuses)} claims in {len(reports)} "
            f"modules: {html.escape(counts)}. Every step was checked by the backend named beside "
            f"it. The mathematics: <a href=\"theory.html\">the theory items</a>.</p>\n"
            f"<h2>Dependency graph</h2>\n<p class=\"legend\">{legend}</p>\n"
            f'<div class="graph">{svg}</div>\n<h2>Modules</h2>\n<ul>\n{rows}\n</ul>')
    return _page("Machine-checked claims", body)


def theory_page() -> str:
    items = "\n".join(f'<section id="{i.id}"><h3>{html.escape(i.id)}. {html.escape(i.title)}'
                      f"</h3><pre>{html.escape(i.text)}</pre></section>"
                      for i in sources.items().values())
    return _page("Theory items", f'<p><a href="index.html">← index</a></p>\n<h1>The '
                 f"mathematics checked ({sources.THEORY_NAME})</h1>\n{items}")


def write_site(reports: Sequence[Report], directory: str | Path,
               data: Mapping[str, Any] | None = None) -> Path:
    """Write the site to ``directory`` (created if needed); returns the index path.

    ``data`` (the ``--json`` document) is accepted for the claim index it carries; the pages
    are built from the reports themselves.
    """
    out = Path(directory)
    svg = graph_svg(reports)  # fails before anything is written when dot is missing
    out.mkdir(parents=True, exist_ok=True)
    index = _claim_index(reports)
    used_by: dict[str, list[str]] = {}
    for name, (_, res) in index.items():
        for u in res.claim.uses:
            used_by.setdefault(u, []).append(name)
    (out / "style.css").write_text(CSS + "\n", encoding="utf-8")
    (out / "index.html").write_text(index_page(reports, svg), encoding="utf-8")
    (out / "theory.html").write_text(theory_page(), encoding="utf-8")
    for rep in reports:
        (out / _module_file(rep.module)).write_text(module_page(rep, index, used_by),
                                                    encoding="utf-8")
    return out / "index.html"
