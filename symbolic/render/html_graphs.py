"""The dependency graphs of the HTML blueprint: Graphviz descriptions of the claims (one
cluster per module, or one module with the claims it uses) and of the modules, laid out by
``dot`` as inline SVG.

A node's shape says what it is and its fill its status (``html_status``); admitted facts,
assumptions and oracle results, are octagons and hexagons tied by dashed edges to the claims
that rest on them.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence

from symbolic.engine import Report, Result
from symbolic.errors import ToolkitError
from symbolic.render.html_links import anchor, claim_index, module_file
from symbolic.render.html_status import (
    ADMITTED_FILL,
    NODE_SHAPES,
    STATUS_COLOURS,
    complete_claims,
    node_class,
)
from symbolic.render.html_text import plain_text
from symbolic.render.latex_claims import admitted
from symbolic.render.latex_steps import step_kind

DOT_TIMEOUT_S = 60


class GraphvizMissing(ToolkitError, FileNotFoundError):
    """Graphviz ``dot`` is not installed."""


def _q(text: str) -> str:
    """A dot string; a line break in ``text`` is dot's ``\\n``."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


GRAPH_HEAD = (
    '  graph [rankdir=LR, fontname="Helvetica", ranksep=0.5, nodesep=0.15];',
    '  node [fontname="Helvetica", fontsize=10, margin="0.08,0.03", height=0.3];',
    '  edge [color="#777777", arrowsize=0.6];',
)


def _claim_node(
    name: str, result: Result, module: str, complete: set[str], line: int | None, prefix: str = ""
) -> str:
    cls = node_class(name, result, complete)
    shape, style = NODE_SHAPES.get(result.claim.kind.lower(), NODE_SHAPES["claim"])
    font = ', fontcolor="white"' if cls == "complete" else ""
    where = f" ({module.replace('.', '/')}.py:{line})" if line else ""
    url = f"{prefix}{module_file(module)}#{anchor(name)}"
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
    index = claim_index(reports)
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
    index = claim_index(reports)
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
            f"URL={_q(module_file(rep.module))}, tooltip={_q(counts)}];"
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
