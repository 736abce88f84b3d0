"""The status of a claim in the HTML blueprint, as data and the rules that read it: its legend
class and fill (``STATUS_COLOURS``), its node shape (``NODE_SHAPES``), and whether it is proved
including every ancestor (``complete_claims``, as leanblueprint does).
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from symbolic.engine import Report, Result
from symbolic.render.latex_claims import admitted
from symbolic.render.latex_steps import step_kind

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
