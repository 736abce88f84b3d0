"""The HTML blueprint: ``python -m proofs --html DIR`` writes a static, offline site.

* ``index.html``: the summary, the list of modules first, then the graph of the modules (a node
  per module, an edge where a claim of one uses a claim of another) that fits a screen;
* ``graph.html``: the dependency graph of every claim, one Graphviz cluster per module;
* ``<module>.html``: one page per theorem module: its own claim graph, every claim with its
  statement (MathML of the LaTeX printer's formula: the paper's notation), its source item, the
  Python line that states it, the claims it uses and its derivation, each step with its rule,
  backend and verdict, witnesses with their certificates;
* ``src/<module>.py.html``: the module's Python source with numbered lines (the claims link
  there); ``theory.html``: the items of docs/theory.md that the claims cite; ``style.css``.

In the graphs a node's shape says what it is (``NODE_SHAPES``: theorems and propositions are
boxes, lemmas ellipses, corollaries rounded boxes; admitted facts, assumptions and oracle
results, are octagons and hexagons tied to the claims that rest on them by dashed edges), its
fill its status, and a dark green fill a claim proved *including every ancestor* (every claim it
uses, transitively, proved too, and nothing admitted on the way), as leanblueprint does.

No JavaScript, no network: browsers render MathML and inline SVG natively. Built from the
report objects (the ones the text, JSON and LaTeX printers render).
"""

from __future__ import annotations

import html
import importlib
import inspect
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import sympy

from symbolic import sources
from symbolic.engine import Report, Result, Step
from symbolic.errors import ToolkitError
from symbolic.latex import (
    MARKUP,
    admitted,
    bare_truth,
    status_text,
    step_formula,
    step_kind,
    step_note,
)
from symbolic.latex_printer import latex as printer_latex
from symbolic.latex_printer import parse_span, sympy_spans

DOT_TIMEOUT_S = 60


class GraphvizMissing(ToolkitError, FileNotFoundError):
    """Graphviz ``dot`` is not installed."""


# --- Status colours: rules as data ----------------------------------------------------------

STATUS_COLOURS = {  # status -> (fill, label in the legend)
    "complete": ("#3f9a4f", "proved, with every ancestor"),
    "proved": ("#b7e4b0", "proved"),
    "assumptions": ("#fbe3a1", "proved, resting on admitted facts"),
    "refuted": ("#f4a6a6", "refuted"),
    "unknown": ("#d9d9d9", "unknown"),
    "failed": ("#e06666", "failed"),
}
NODE_SHAPES = {  # what a node is -> Graphviz shape and style
    "theorem": ("box", "filled"),
    "proposition": ("box", "filled"),
    "corollary": ("box", "rounded,filled"),
    "lemma": ("ellipse", "filled"),
    "claim": ("box", "filled"),
    "assumption": ("octagon", "dashed,filled"),
    "oracle": ("hexagon", "dashed,filled"),
    "module": ("folder", "filled"),
}
ADMITTED_FILL = "#fff3cc"


def status_class(result: Result) -> str:
    """The legend class of a result: proved, assumptions (resting on an assumption or an
    oracle result, its own or one inherited through its uses), refuted, unknown or failed."""
    rests = getattr(result, "rests_on", None)  # its own (rule premises too) and inherited
    if rests is None:
        rests = [s for s in admitted(result) if step_kind(s) in ("assumption", "oracle")]
    return "assumptions" if result.status == "proved" and rests else result.status


def complete_claims(index: Mapping[str, tuple[Report, Result]]) -> set[str]:
    """The claims proved including every ancestor: proved, resting on nothing admitted, and
    every claim they use (transitively) in the index and complete too."""
    memo: dict[str, bool] = {}

    def complete(name: str, path: frozenset) -> bool:
        if name in memo:
            return memo[name]
        if name not in index or name in path:  # unknown or circular: not established here
            return False
        result = index[name][1]
        ok = status_class(result) == "proved" and all(
            complete(u, path | {name}) for u in result.claim.uses
        )
        memo[name] = ok
        return ok

    return {name for name in index if complete(name, frozenset())}


def node_class(name: str, result: Result, complete: set[str]) -> str:
    return "complete" if name in complete else status_class(result)


# --- MathML ---------------------------------------------------------------------------------


def _merge_italic_words(code: str) -> str:
    """``\\mathit{aa}`` comes out of latex2mathml letter by letter: make it one identifier."""
    return re.sub(
        r'<mrow>((?:<mi mathvariant="italic">[^<]*</mi>)+)</mrow>',
        lambda m: (
            '<mi mathvariant="italic">' + "".join(re.findall(r">([^<]*)</mi>", m[1])) + "</mi>"
        ),
        code,
    )


def mathml(expr: sympy.Basic, display: bool = False) -> str:
    """``<math>`` of a SymPy object: the project's LaTeX printer (the paper's notation: no
    SymPy function names) converted by latex2mathml; the LaTeX as code if that fails."""
    try:
        code = printer_latex(expr)
    except Exception:  # a printer bug must not lose the page
        return f"<code>{html.escape(sympy.sstr(expr))}</code>"
    try:
        from latex2mathml.converter import convert
    except ImportError:  # pragma: no cover - a declared dependency
        return f"<code>{html.escape(code)}</code>"
    try:
        return _merge_italic_words(convert(code, display="block" if display else "inline"))
    except Exception:
        return f"<code>{html.escape(code)}</code>"


def _scripts_html(text: str) -> str:
    """Plain text with its notation as HTML (the LaTeX printer's rules, ``latex.MARKUP``):
    ``R^{d×d}`` is ℝ<sup>d×d</sup>, ``E[s^(2k)]`` has a superscript, ``Σ_{m≠i}`` a
    subscript, ``d_out`` is d<sub>out</sub>; the rest escaped."""
    out, pos = [], 0
    for m in MARKUP.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        if m[0] == "~":
            out.append("∼")
        elif m["reals"]:
            out.append("ℝ")
        elif m["rsup"] is not None or m["rsup1"] is not None:
            power = m["rsup"] if m["rsup"] is not None else m["rsup1"]
            out.append(f"ℝ<sup>{html.escape(power)}</sup>")
        elif m["starbase"]:
            out.append(
                html.escape(m["starbase"])
                + "<sup>*</sup>"
                + (f"<sub>{html.escape(m['starsub'])}</sub>" if m["starsub"] else "")
            )
        elif m["base"]:
            out.append(f"{html.escape(m['base'])}<sub>{html.escape(m['sub1'])}</sub>")
        else:
            tag = "sub" if m["sub"] is not None else "sup"
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(f"<{tag}>{_scripts_html(inner)}</{tag}>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def prose_html(text: str) -> str:
    """Text with its SymPy-syntax spans as MathML, its plain notation (scripts, ℝ) as HTML,
    the rest escaped."""
    out, pos = [], 0
    for a, b, _ in sympy_spans(text):
        expr = parse_span(text[a:b])
        out.append(_scripts_html(text[pos:a]))
        out.append(mathml(expr) if expr is not None else html.escape(text[a:b]))
        pos = b
    out.append(_scripts_html(text[pos:]))
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
.graph svg{max-width:100%;height:auto}.graph.modules svg{max-height:44rem}
.legend span{margin-right:.6rem;padding:.1rem .4rem;font-size:.85rem;white-space:nowrap}
.key.complete{background:#3f9a4f;color:#fff}.key.proved{background:#b7e4b0}
.key.assumptions{background:#fbe3a1}.key.refuted{background:#f4a6a6}
.key.unknown{background:#d9d9d9}.key.failed{background:#e06666}
.claim.complete{border-color:#3f9a4f}.badge.complete{background:#3f9a4f;color:#fff}
table.modules{border-collapse:collapse;font-size:.9rem}
table.modules td,table.modules th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}
pre{white-space:pre-wrap;font-family:inherit}
pre.source{font:.8rem/1.35 monospace;white-space:pre}
.steps math,.claim>math{max-width:100%;overflow-x:auto;overflow-y:hidden}
.steps math{display:inline-block;vertical-align:middle}.line{display:block}
.line:target{background:#fff3b0}.line a{color:#999;text-decoration:none}"""


def _page(title: str, body: str, css: str = "style.css") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{css}">\n</head>\n<body>\n'
        f"{body}\n</body>\n</html>\n"
    )


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
    return ", ".join(
        f'<a href="theory.html#{i.id}">{html.escape(i.id)}</a> ({html.escape(i.title)})'
        for i in found
    )


def step_html(step: Step) -> str:
    """One derivation step: statement (MathML or text), rule, note, backend, verdict, witness.
    A formula SymPy evaluated to a truth value shows its note (else its rule), never "True"."""
    f = step_formula(step)
    if f is not None:
        body, rule, note = mathml(f), step.rule, step_note(step)
    elif bare_truth(step):
        said = step_note(step) or step.rule
        body = prose_html(said + step.statement[len(str(step.formula)) :])
        rule, note = (step.rule if step_note(step) else ""), ""
    else:
        body, rule, note = prose_html(step.statement), step.rule, step_note(step)
    v = step.verdict
    kind = step_kind(step)
    fact_rule = getattr(getattr(step, "fact", None), "rule", None)
    method = f"rule {fact_rule}" if v.method == "rule" and fact_rule else v.method
    verdict = {
        "definition": "definition",
        "assumption": "assumption (admitted, not checked)",
        "oracle": "oracle result (certified outside the kernel)",
    }.get(kind, f"{v.status} by {method}" + (f" ({v.backend})" if v.backend else ""))
    why = [prose_html(rule)] if rule else []
    if note:
        why.append(prose_html(note))
    why.append(html.escape(verdict))
    if v.witness:
        why.append("witness " + html.escape(", ".join(f"{k} = {val}" for k, val in v.witness)))
    if v.certificate:
        why.append("certificate: " + prose_html(v.certificate))
    return f'<li>{body}<div class="why">{" · ".join(why)}</div></li>'


# --- Where a claim is stated in Python ------------------------------------------------------

_LITERAL = re.compile(r"""(?<!\w)(f?)(["'])((?:(?!\2)[^\\\n])*)\2""")


def module_source(module: str) -> Path | None:
    """The Python file of a theorem module, or None when it cannot be found."""
    try:
        found = inspect.getsourcefile(importlib.import_module(module))
    except (ImportError, TypeError, OSError):
        return None
    return Path(found) if found else None


def claim_lines(source: str, names: Sequence[str]) -> dict[str, int]:
    """The line stating each claim: a string literal (an f-string's fixed parts) that matches
    the claim's name, preferring one just after ``Claim(``; names not found are left out."""
    lines = source.splitlines()
    after_claim = {i + d for i, line in enumerate(lines) if "Claim(" in line for d in range(4)}
    literals = []  # (line number, pattern)
    for i, line in enumerate(lines):
        for m in _LITERAL.finditer(line):
            text = m[3]
            if not text:
                continue
            if m[1]:  # an f-string: its {fields} match anything
                parts = re.split(r"\{[^{}]*\}", text)
                pattern = ".+".join(re.escape(p) for p in parts)
            else:
                pattern = re.escape(text)
            literals.append((i, re.compile(pattern)))
    found = {}
    for name in names:
        hits = [i for i, pattern in literals if pattern.fullmatch(name)]
        best = [i for i in hits if i in after_claim] or hits
        if best:
            found[name] = best[0] + 1
    return found


def _source_file(module: str) -> str:
    return f"src/{module.removeprefix('proofs.')}.py.html"


def source_page(module: str, path: Path) -> str:
    """The module's source with numbered, linkable lines (``#L12``)."""
    rows = "\n".join(
        f'<span id="L{n}" class="line"><a href="#L{n}">{n:>4}</a>  {html.escape(line)}</span>'
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    )
    body = (
        f'<p><a href="../{_module_file(module)}">← {html.escape(module)}</a></p>\n'
        f'<h1><code>{html.escape(module)}</code></h1>\n<pre class="source">{rows}</pre>'
    )
    return _page(module, body, css="../style.css")


def claim_html(
    result: Result,
    index: Mapping[str, tuple[Report, Result]],
    used_by: Sequence[str],
    backing: str | None = None,
    line: int | None = None,
    complete: set[str] | None = None,
) -> str:
    """One claim's section; ``backing``: how it is backed (``symbolic.backing``; without a
    second solver when not given); ``line``: where its module states it; ``complete``: the
    claims proved including every ancestor."""
    from symbolic.backing import backing as backing_of

    c = result.claim
    cls = node_class(c.name, result, complete or set())
    f = c.statement
    statement = (
        mathml(f, display=True) + f"<p>{prose_html(c.note)}</p>"
        if f is not None
        else f"<p>{prose_html(c.note)}</p>"
    )

    def link(name: str) -> str:
        if name not in index:
            return f"<code>{html.escape(name)}</code> (not checked here)"
        rep, _ = index[name]
        return (
            f'<a href="{_module_file(rep.module)}#{_anchor(name)}">'
            f"<code>{html.escape(name)}</code></a>"
        )

    module = index[c.name][0].module if c.name in index else ""
    meta = [f"source {_source_html(c.source)}"]
    if line is not None:
        meta.append(
            f'stated in <a href="{_source_file(module)}#L{line}">'
            f"<code>{html.escape(module.replace('.', '/'))}.py</code>, line {line}</a>"
        )
    meta.append(
        f'backed by <span class="backing">{html.escape(backing or backing_of(result))}</span>'
    )
    if c.uses:
        meta.append("uses " + ", ".join(link(u) for u in c.uses))
    if used_by:
        meta.append("used by " + ", ".join(link(u) for u in used_by))
    if c.assumptions:
        meta.append("assumptions: " + "; ".join(prose_html(a) for a in c.assumptions))
    inherited = getattr(result, "inherited", ()) or ()
    if inherited:
        meta.append(
            "rests, through the claims it uses, on "
            + "; ".join(
                f"{html.escape(a.kind)} {prose_html(a.statement)}"
                + (f" (via {link(a.via)})" if a.via else "")
                for a in inherited
            )
        )
    badge = status_text(result) + (", with every ancestor" if cls == "complete" else "")
    steps = "\n".join(step_html(s) for s in result.derivation.steps)
    numeric = "".join(
        f"<li>{_scripts_html(n.name)} ({html.escape(n.backend)}, {n.samples} samples): "
        f"{'agrees' if n.agrees else 'DISAGREES'}</li>"
        for n in result.numeric
    )
    return (
        f'<section class="claim {cls}" id="{_anchor(c.name)}">\n'
        f"<h3>{html.escape(c.kind.capitalize())}: {_scripts_html(c.title)} "
        f'<span class="badge {cls}">{html.escape(badge)}</span></h3>\n'
        f'<p class="meta"><code>{html.escape(c.name)}</code> · {" · ".join(meta)}</p>\n'
        f'{statement}\n<ol class="steps">\n{steps}\n</ol>\n'
        + (f'<p class="meta">Numeric cross-checks:</p><ul>{numeric}</ul>\n' if numeric else "")
        + "</section>"
    )


def module_page(
    report: Report,
    index: Mapping[str, tuple[Report, Result]],
    used_by: Mapping[str, list[str]],
    svg: str = "",
    lines: Mapping[str, int] | None = None,
    complete: set[str] | None = None,
) -> str:
    """A module's page: its claim graph (``svg``), then every claim."""
    from symbolic.backing import claim_backing

    lines = lines or {}
    claims = "\n".join(
        claim_html(
            r,
            index,
            used_by.get(r.claim.name, []),
            claim_backing(report, r),
            lines.get(r.claim.name),
            complete,
        )
        for r in report.results
    )
    graph = (
        f'<h2>Claims and what they use</h2>\n{legend_html()}\n<div class="graph">{svg}</div>'
        if svg
        else ""
    )
    body = (
        f'<p><a href="index.html">← all modules</a></p>\n<h1>{html.escape(report.title)}</h1>\n'
        f'<p class="meta">Module <code>{html.escape(report.module)}</code> '
        f"(<code>python -m {html.escape(report.module)}</code>) · source "
        f"{_source_html(report.source)} · overall {html.escape(report.status)}</p>\n"
        f"{graph}\n{claims}"
    )
    return _page(report.title, body)


# --- The dependency graphs ------------------------------------------------------------------


def _q(text: str) -> str:
    """A dot string; a line break in ``text`` is dot's ``\\n``."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


GRAPH_HEAD = (
    '  graph [rankdir=LR, fontname="Helvetica", ranksep=0.5, nodesep=0.15];',
    '  node [fontname="Helvetica", fontsize=10, margin="0.08,0.03", height=0.3];',
    '  edge [color="#777777", arrowsize=0.6];',
)


_SUPERSCRIPTS = str.maketrans(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ"
)
_SUBSCRIPTS = str.maketrans(
    "0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"
)


def plain_text(text: str) -> str:
    """Text for a tooltip (no markup there): ``α^(−p)`` is α⁻ᵖ, ``q_js`` is qⱼₛ, ``R^d`` is ℝᵈ
    where Unicode has the script letters (else the script is written ``^(…)`` or ``_(…)``)."""

    def script(inner: str, table: dict) -> str:
        out = inner.translate(table)
        if all(not c.isascii() or not c.isalnum() for c in out):
            return out
        return f"{'_' if table is _SUBSCRIPTS else '^'}({inner})"

    out, pos = [], 0
    for m in MARKUP.finditer(text):
        out.append(text[pos : m.start()])
        if m[0] == "~":
            out.append("∼")
        elif m["reals"]:
            out.append("ℝ")
        elif m["rsup"] is not None or m["rsup1"] is not None:
            out.append(
                "ℝ" + script(m["rsup"] if m["rsup"] is not None else m["rsup1"], _SUPERSCRIPTS)
            )
        elif m["starbase"]:
            out.append(
                m["starbase"] + "*" + (script(m["starsub"], _SUBSCRIPTS) if m["starsub"] else "")
            )
        elif m["base"]:
            out.append(m["base"] + script(m["sub1"], _SUBSCRIPTS))
        else:
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(script(inner, _SUBSCRIPTS if m["sub"] is not None else _SUPERSCRIPTS))
        pos = m.end()
    return "".join(out) + text[pos:]


def _claim_node(
    name: str, result: Result, module: str, complete: set[str], line: int | None, prefix: str = ""
) -> str:
    cls = node_class(name, result, complete)
    shape, style = NODE_SHAPES.get(result.claim.kind.lower(), NODE_SHAPES["claim"])
    font = ', fontcolor="white"' if cls == "complete" else ""
    where = f" ({module.replace('.', '/')}.py:{line})" if line else ""
    url = f"{prefix}{_module_file(module)}#{_anchor(name)}"
    return (
        f"{_q(name)} [shape={shape}, style={_q(style)}, "
        f"fillcolor={_q(STATUS_COLOURS[cls][0])}{font}, URL={_q(url)}, "
        f"tooltip={_q(plain_text(result.claim.title) + where)}];"
    )


def _admitted_nodes(name: str, result: Result) -> list[str]:
    """A node per assumption or oracle result the claim rests on, with a dashed edge."""
    out = []
    for i, step in enumerate(admitted(result)):
        kind = step_kind(step)
        if kind not in ("assumption", "oracle"):
            continue
        node = f"{name}#{kind}{i}"
        shape, style = NODE_SHAPES[kind]
        out.append(
            f"{_q(node)} [label={_q(kind)}, shape={shape}, style={_q(style)}, "
            f"fillcolor={_q(ADMITTED_FILL)}, fontsize=8, "
            f"tooltip={_q(plain_text(step.statement[:200]))}];"
        )
        out.append(f"{_q(node)} -> {_q(name)} [style=dashed];")
    return out


def dot_source(
    reports: Sequence[Report], module: str | None = None, lines: Mapping[str, int] | None = None
) -> str:
    """The Graphviz description of the claim graph: one cluster per module, or, for
    ``module``, that module's claims with the claims they use from other modules."""
    index = _claim_index(reports)
    complete = complete_claims(index)
    lines = lines or {}
    out = ["digraph claims {", *GRAPH_HEAD]
    shown: set[str] = set()
    for k, rep in enumerate(reports):
        if module is not None and rep.module != module:
            continue
        out.append(f"  subgraph cluster_{k} {{")
        out.append(f'    label={_q(rep.module.removeprefix("proofs."))}; color="#bbbbbb";')
        for res in rep.results:
            name = res.claim.name
            if index[name][1] is not res:
                continue
            shown.add(name)
            out.append("    " + _claim_node(name, res, rep.module, complete, lines.get(name)))
            out += ["    " + line for line in _admitted_nodes(name, res)]
        out.append("  }")
    for name in sorted(shown):
        for used in index[name][1].claim.uses:
            if used not in index:
                continue
            if used not in shown:  # another module's claim, on a module's page
                rep, res = index[used]
                out.append(
                    "  "
                    + _claim_node(used, res, rep.module, complete, None).replace(
                        "];", ', penwidth=0.5, fontcolor="#555555"];'
                    )
                )
                shown.add(used)
            out.append(f"  {_q(used)} -> {_q(name)};")
    out.append("}")
    return "\n".join(out) + "\n"


def module_dot(reports: Sequence[Report]) -> str:
    """The graph of the modules: a node per module (its claims counted by status), an edge
    where a claim of one uses a claim of the other (labelled with how many uses)."""
    index = _claim_index(reports)
    complete = complete_claims(index)
    out = [
        "digraph modules {",
        GRAPH_HEAD[0].replace("ranksep=0.5", "ranksep=0.8"),
        *GRAPH_HEAD[1:],
    ]
    edges: dict[tuple[str, str], int] = {}
    for rep in reports:
        classes = [node_class(r.claim.name, r, complete) for r in rep.results]
        worst = next(
            (c for c in ("failed", "refuted", "unknown", "assumptions", "proved") if c in classes),
            "complete",
        )
        counts = ", ".join(
            f"{classes.count(c)} {STATUS_COLOURS[c][1]}" for c in STATUS_COLOURS if classes.count(c)
        )
        label = f"{rep.module.removeprefix('proofs.')}\n{len(rep.results)} claims"
        font = ', fontcolor="white"' if worst == "complete" else ""
        out.append(
            f"  {_q(rep.module)} [label={_q(label)}, shape=folder, style=filled, "
            f"fillcolor={_q(STATUS_COLOURS[worst][0])}{font}, fontsize=12, "
            f"URL={_q(_module_file(rep.module))}, tooltip={_q(counts)}];"
        )
        for res in rep.results:
            for used in res.claim.uses:
                if used in index and index[used][0].module != rep.module:
                    key = (index[used][0].module, rep.module)
                    edges[key] = edges.get(key, 0) + 1
    for (a, b), n in sorted(edges.items()):
        out.append(f"  {_q(a)} -> {_q(b)} [label={_q(str(n))}, fontsize=9];")
    out.append("}")
    return "\n".join(out) + "\n"


def graph_svg(reports: Sequence[Report] | None = None, dot_text: str | None = None) -> str:
    """A graph as inline SVG, laid out by ``dot`` (``dot_text``, or the claim graph of
    ``reports``); ``GraphvizMissing`` without it."""
    dot = shutil.which("dot")
    if dot is None:
        raise GraphvizMissing(
            "--html: Graphviz 'dot' was not found on PATH; install it "
            "(Debian/Ubuntu: apt-get install graphviz; macOS: brew install "
            "graphviz) and run again"
        )
    source = dot_text if dot_text is not None else dot_source(reports or ())
    done = subprocess.run(
        [dot, "-Tsvg"],
        input=source,
        capture_output=True,
        text=True,
        timeout=DOT_TIMEOUT_S,
        check=False,
    )
    if done.returncode:
        raise ToolkitError(f"--html: dot failed (exit {done.returncode}): {done.stderr.strip()}")
    svg = done.stdout
    return svg[svg.index("<svg") :]  # drop the XML prolog and doctype: inline in HTML


def legend_html() -> str:
    fills = "".join(
        f'<span class="key {cls}">{html.escape(label)}</span>'
        for cls, (_, label) in STATUS_COLOURS.items()
    )
    shapes = (
        "Shapes: theorems and propositions are boxes, lemmas ellipses, corollaries "
        "rounded boxes; admitted facts (assumptions: octagons, oracle results: hexagons) "
        "are tied to the claims resting on them by dashed edges."
    )
    return f'<p class="legend">{fills}</p>\n<p class="meta">{shapes}</p>'


def index_page(reports: Sequence[Report], svg: str) -> str:
    """The index: the summary, the modules (first), then the graph of the modules (``svg``)."""
    from symbolic.backing import report_backing

    index = _claim_index(reports)
    complete = complete_claims(index)
    statuses = [node_class(r.claim.name, r, complete) for rep in reports for r in rep.results]
    counts = ", ".join(
        f"{statuses.count(s)} {label}"
        for s, (_, label) in STATUS_COLOURS.items()
        if statuses.count(s)
    )
    rows = "\n".join(
        f'<tr><td><a href="{_module_file(r.module)}">{html.escape(r.title)}</a></td>'
        f"<td><code>{html.escape(r.module)}</code></td><td>{len(r.results)}</td>"
        f"<td>{html.escape(r.status)}</td><td>backed by {html.escape(report_backing(r))}</td>"
        "</tr>"
        for r in reports
    )
    body = (
        f"<h1>Machine-checked claims</h1>\n<p>{len(statuses)} claims in {len(reports)} "
        f"modules: {html.escape(counts)}. Every step was checked by the backend named beside "
        f'it. The mathematics: <a href="theory.html">the theory items</a>.</p>\n'
        f'<h2>Modules</h2>\n<table class="modules"><tr><th>module</th><th>name</th>'
        f"<th>claims</th><th>status</th><th>backing</th></tr>\n{rows}\n</table>\n"
        f"<h2>How the modules use each other</h2>\n"
        f"<p class=\"meta\">A module's colour is its weakest claim's; an edge counts the "
        f"claims of one module that use claims of the other. Every claim, one cluster per "
        f'module: <a href="graph.html">the full dependency graph</a>; each module\'s own on '
        f"its page.</p>\n{legend_html()}\n"
        f'<div class="graph modules">{svg}</div>'
    )
    return _page("Machine-checked claims", body)


def graph_page(svg: str) -> str:
    return _page(
        "Dependency graph",
        '<p><a href="index.html">← index</a></p>\n'
        f"<h1>Every claim and what it uses</h1>\n{legend_html()}\n"
        f'<div class="graph">{svg}</div>',
    )


def theory_page() -> str:
    items = "\n".join(
        f'<section id="{i.id}"><h3>{html.escape(i.id)}. {html.escape(i.title)}'
        f"</h3><pre>{_scripts_html(i.text)}</pre></section>"
        for i in sources.items().values()
    )
    return _page(
        "Theory items",
        f'<p><a href="index.html">← index</a></p>\n<h1>The '
        f"mathematics checked ({sources.THEORY_NAME})</h1>\n{items}",
    )


def write_site(
    reports: Sequence[Report], directory: str | Path, data: Mapping[str, Any] | None = None
) -> Path:
    """Write the site to ``directory`` (created if needed); returns the index path.

    ``data`` (the ``--json`` document) is accepted for the claim index it carries; the pages
    are built from the reports themselves.
    """
    out = Path(directory)
    modules_svg = graph_svg(dot_text=module_dot(reports))  # fails before anything is written
    index = _claim_index(reports)
    complete = complete_claims(index)
    lines: dict[str, int] = {}
    paths = {rep.module: module_source(rep.module) for rep in reports}
    for rep in reports:
        if paths[rep.module] is not None:
            lines |= claim_lines(
                paths[rep.module].read_text(encoding="utf-8"), [r.claim.name for r in rep.results]
            )
    claims_svg = graph_svg(dot_text=dot_source(reports, lines=lines))
    used_by: dict[str, list[str]] = {}
    for name, (_, res) in index.items():
        for u in res.claim.uses:
            used_by.setdefault(u, []).append(name)
    out.mkdir(parents=True, exist_ok=True)
    (out / "style.css").write_text(CSS + "\n", encoding="utf-8")
    (out / "index.html").write_text(index_page(reports, modules_svg), encoding="utf-8")
    (out / "graph.html").write_text(graph_page(claims_svg), encoding="utf-8")
    (out / "theory.html").write_text(theory_page(), encoding="utf-8")
    for rep in reports:
        svg = graph_svg(dot_text=dot_source(reports, module=rep.module, lines=lines))
        (out / _module_file(rep.module)).write_text(
            module_page(rep, index, used_by, svg, lines, complete), encoding="utf-8"
        )
        if paths[rep.module] is not None:
            (out / "src").mkdir(exist_ok=True)
            (out / _source_file(rep.module)).write_text(
                source_page(rep.module, paths[rep.module]), encoding="utf-8"
            )
    return out / "index.html"
