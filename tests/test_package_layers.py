"""The packages' layers, checked on the source: a module imports only from its own layer or
the layers below it (docs/architecture.md). The order, bottom up:

    errors, versions, limits → kernel → formula text → engine, steps → languages and the activation
    and layer tables → Part A (gated), memory → symmetry, blocks → render, evidence → api →
    numeric_checks → proofs

An import upward is a violation unless it is in ``UPWARD``, each with its reason (today: the
engine's objects show themselves in Jupyter through the renderers, a lazy import at display
time). The scan reads every ``import`` in the code, also inside functions; it is itself tested
on planted imports, so a scanner that finds nothing fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("symbolic", "proofs", "numeric_checks")

# Bottom up; a module belongs to the longest prefix that names it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("symbolic.errors", "symbolic.versions", "symbolic.limits"),
    ("symbolic.kernel",),
    ("symbolic.render.formula_text",),
    (
        "symbolic.engine",
        "symbolic.calc",
        "symbolic.steps",
        "symbolic.sources",
    ),
    ("symbolic.languages", "symbolic.activations", "symbolic.layers"),
    ("symbolic.gated", "symbolic.memory"),
    ("symbolic.symmetry", "symbolic.blocks"),
    ("symbolic.render", "symbolic.evidence", "symbolic.backing"),
    ("symbolic.api", "symbolic"),
    ("numeric_checks",),
    ("proofs",),
)

# (importer prefix, imported prefix): why the upward import is allowed.
UPWARD = {
    ("symbolic.engine", "symbolic.render.notebook"): (
        "Result, Report and Derivation show themselves in Jupyter (_repr_html_ and friends): "
        "a lazy import when they are displayed, never when they are built"
    ),
}


def layer_of(module: str) -> int:
    best, layer = "", None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > len(best):
                best, layer = p, i
    if layer is None:
        raise KeyError(module)
    return layer


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imported(tree: ast.AST, here: str) -> list[tuple[int, str]]:
    """Every project module ``tree`` imports (absolute imports; ``from p import m`` gives
    ``p.m`` when that is a module of the project, else ``p``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                found.append((node.lineno, full if _is_module(full) else node.module))
    return [(n, m) for n, m in found if m.split(".")[0] in PACKAGES]


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _allowed(here: str, there: str) -> bool:
    return any(
        (here == a or here.startswith(a + ".")) and (there == b or there.startswith(b + "."))
        for a, b in UPWARD
    )


def violations(source: str, here: str) -> list[str]:
    out = []
    mine = layer_of(here)
    for line, there in imported(ast.parse(source), here):
        if layer_of(there) > mine and not _allowed(here, there):
            out.append(f"{here}:{line} imports {there} (a higher layer)")
    return out


def modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_every_module_has_a_layer():
    missing = []
    for p in modules():
        try:
            layer_of(module_name(p))
        except KeyError:
            missing.append(module_name(p))
    assert not missing, missing


def test_no_module_imports_a_higher_layer():
    found = [v for p in modules() for v in violations(p.read_text("utf-8"), module_name(p))]
    assert not found, "\n".join(found)


def test_every_upward_exception_is_still_needed():
    """An exception no import uses any more is removed, so the list stays the truth."""
    used = set()
    for p in modules():
        here = module_name(p)
        for _, there in imported(ast.parse(p.read_text("utf-8")), here):
            for a, b in UPWARD:
                if (here == a or here.startswith(a + ".")) and (
                    there == b or there.startswith(b + ".")
                ):
                    used.add((a, b))
    assert used == set(UPWARD)


@pytest.mark.parametrize(
    "here, source",
    [
        ("symbolic.kernel.fact", "from symbolic.engine import Step\n"),
        ("symbolic.engine.claims", "def f():\n    from symbolic.evidence import export\n"),
        ("symbolic.languages.functions", "import numeric_checks.evaluate\n"),
        ("numeric_checks.capacity", "from proofs import capacity\n"),
    ],
)
def test_the_scan_finds_planted_upward_imports(here, source):
    assert violations(source, here)


def test_the_scan_allows_downward_imports():
    assert not violations("from symbolic.kernel import check_equal\n", "symbolic.engine.claims")
