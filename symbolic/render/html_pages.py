"""The pages of the HTML blueprint: a claim's section (statement in MathML, source item, the
Python line that states it, the claims it uses and its derivation, step by step), a module's
page, the index, the full graph, the theory items and a module's numbered source.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path

from symbolic import sources
from symbolic.engine import Report, Result, Step
from symbolic.render.html_links import anchor, claim_index, module_file, source_file
from symbolic.render.html_status import STATUS_COLOURS, complete_claims, legend_html, node_class
from symbolic.render.html_text import mathml, prose_html, scripts_html
from symbolic.render.latex_claims import status_text
from symbolic.render.latex_steps import bare_truth, step_formula, step_kind, step_note

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


def source_page(module: str, path: Path) -> str:
    """The module's source with numbered, linkable lines (``#L12``)."""
    rows = "\n".join(
        f'<span id="L{n}" class="line"><a href="#L{n}">{n:>4}</a>  {html.escape(line)}</span>'
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    )
    body = (
        f'<p><a href="../{module_file(module)}">← {html.escape(module)}</a></p>\n'
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
            f'<a href="{module_file(rep.module)}#{anchor(name)}">'
            f"<code>{html.escape(name)}</code></a>"
        )

    module = index[c.name][0].module if c.name in index else ""
    meta = [f"source {_source_html(c.source)}"]
    if line is not None:
        meta.append(
            f'stated in <a href="{source_file(module)}#L{line}">'
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
        f"<li>{scripts_html(n.name)} ({html.escape(n.backend)}, {n.samples} samples): "
        f"{'agrees' if n.agrees else 'DISAGREES'}</li>"
        for n in result.numeric
    )
    return (
        f'<section class="claim {cls}" id="{anchor(c.name)}">\n'
        f"<h3>{html.escape(c.kind.capitalize())}: {scripts_html(c.title)} "
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


def index_page(reports: Sequence[Report], svg: str) -> str:
    """The index: the summary, the modules (first), then the graph of the modules (``svg``)."""
    from symbolic.backing import report_backing

    index = claim_index(reports)
    complete = complete_claims(index)
    statuses = [node_class(r.claim.name, r, complete) for rep in reports for r in rep.results]
    counts = ", ".join(
        f"{statuses.count(s)} {label}"
        for s, (_, label) in STATUS_COLOURS.items()
        if statuses.count(s)
    )
    rows = "\n".join(
        f'<tr><td><a href="{module_file(r.module)}">{html.escape(r.title)}</a></td>'
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
        f"</h3><pre>{scripts_html(i.text)}</pre></section>"
        for i in sources.items().values()
    )
    return _page(
        "Theory items",
        f'<p><a href="index.html">← index</a></p>\n<h1>The '
        f"mathematics checked ({sources.THEORY_NAME})</h1>\n{items}",
    )
