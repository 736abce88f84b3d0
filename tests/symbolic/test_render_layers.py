"""The renderers (``symbolic/render/``) import in one direction: each module only those listed
before it in the package's docstring, never one after it (so no import cycles and no lazy
imports to dodge them), and every module is small and says what it is."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import symbolic.render

RENDER = Path(symbolic.render.__file__).parent
ORDER = (
    "formula_text",
    "text",
    "latex_breaks",
    "latex_printer",
    "latex_spans",
    "latex_symbols",
    "latex_text",
    "latex_steps",
    "latex_claims",
    "latex_tables",
    "latex_document",
    "html_text",
    "html_status",
    "html_links",
    "html_graphs",
    "html_pages",
    "html_site",
    "notebook",
)
MAX_LINES = 500


def render_imports(path: Path) -> set[str]:
    """The ``symbolic.render`` modules that ``path`` imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("symbolic.render."):
                found.add(node.module.removeprefix("symbolic.render."))
            elif node.module == "symbolic.render":
                found |= {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {
                a.name.removeprefix("symbolic.render.")
                for a in node.names
                if a.name.startswith("symbolic.render.")
            }
    return found


def test_the_order_lists_every_module_once():
    modules = {p.stem for p in RENDER.glob("*.py")} - {"__init__"}
    assert sorted(ORDER) == sorted(modules)
    docstring = symbolic.render.__doc__
    positions = [docstring.index(f"``{name}``") for name in ORDER]
    assert positions == sorted(positions)  # the docstring lists them in this order


@pytest.mark.parametrize("name", ORDER)
def test_a_module_imports_only_modules_before_it(name):
    later = render_imports(RENDER / f"{name}.py") - set(ORDER[: ORDER.index(name)])
    assert not later, f"symbolic.render.{name} imports {sorted(later)}, listed after it"


@pytest.mark.parametrize("name", ORDER)
def test_a_module_is_small_and_says_what_it_is(name):
    path = RENDER / f"{name}.py"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES
    assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
