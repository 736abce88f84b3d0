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

import importlib
import inspect
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from symbolic.engine import Report
from symbolic.render.html_graphs import dot_source, graph_svg, module_dot
from symbolic.render.html_links import claim_index, module_file, source_file
from symbolic.render.html_pages import (
    CSS,
    graph_page,
    index_page,
    module_page,
    source_page,
    theory_page,
)
from symbolic.render.html_status import complete_claims

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


def write_site(
    reports: Sequence[Report], directory: str | Path, data: Mapping[str, Any] | None = None
) -> Path:
    """Write the site to ``directory`` (created if needed); returns the index path.

    ``data`` (the ``--json`` document) is accepted for the claim index it carries; the pages
    are built from the reports themselves.
    """
    out = Path(directory)
    modules_svg = graph_svg(dot_text=module_dot(reports))  # fails before anything is written
    index = claim_index(reports)
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
        (out / module_file(rep.module)).write_text(
            module_page(rep, index, used_by, svg, lines, complete), encoding="utf-8"
        )
        if paths[rep.module] is not None:
            (out / "src").mkdir(exist_ok=True)
            (out / source_file(rep.module)).write_text(
                source_page(rep.module, paths[rep.module]), encoding="utf-8"
            )
    return out / "index.html"
