"""The kernel's layering, checked on the source (AST): one import direction inside, one face out.

* Inside ``symbolic/kernel/`` the imports between its modules form no cycle — counting every
  import, also one inside a function (a lazy import cannot hide a cycle) — and no kernel module
  imports another inside a function. The kernel imports nothing of the project but itself and
  the leaf modules ``symbolic.errors``, ``symbolic.versions`` and ``symbolic.limits``.
* Outside, code imports the kernel's public face ``symbolic.kernel`` (names in its ``__all__``),
  never a submodule — except the tests and benchmarks in ``SUBMODULE_ACCESS``, which test or
  patch one submodule's internals and say why.
* The piecewise heads are listed once, and no kernel module is longer than ``MAX_LINES``.

Each scanner is tested on planted violations, so a scanner that finds nothing fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import symbolic.kernel

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "symbolic" / "kernel"
SCANNED = ("symbolic", "proofs", "numeric_checks", "tests", "benchmarks")
KERNEL_MAY_IMPORT = {"symbolic.errors", "symbolic.versions", "symbolic.limits"}  # leaves of ours
MAX_LINES = 500

# Files outside the kernel that may import a kernel submodule, and why.
SUBMODULE_ACCESS = {
    "tests/kernel/test_limits.py": "the minting door and sympy_checks under a time limit",
    "tests/kernel/test_branches.py": "huge_powers' cap on root indices",
    "tests/kernel/test_special.py": "the special-function enclosures themselves (besseli, gamma)",
    "tests/kernel/test_special_arb.py": "the Arb ball ↔ interval conversions and their rounding",
    "tests/symbolic/test_capacity.py": "lowers special's precision cap to see the refusal",
    "tests/kernel/test_point_refutation.py": "probes' probe point, sympy_checks, points.in_domain",
    "tests/symbolic/test_check.py": "sympy_checks' budget of the quick exp form",
    "tests/mutation_engine.py": "the null checker replaces the deciders inside each module",
    "tests/kernel/test_valueless_walk.py": "valueless' node walk against SymPy's own subtree tests",
    "benchmarks/point_refutation.py": "times check_equal without sympy_checks' point probe",
}


def kernel_modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(KERNEL.glob("*.py")) if p.stem != "__init__"}


def imported_modules(tree: ast.AST) -> list[tuple[str, ast.AST, bool]]:
    """Every module an import names (``from a import b`` names ``a`` and ``a.b``), with the
    node and whether it sits inside a function or class."""
    found: list[tuple[str, ast.AST, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            )
            if isinstance(child, ast.Import):
                found.extend((a.name, child, nested) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.append((child.module, child, nested))
                found.extend((f"{child.module}.{a.name}", child, nested) for a in child.names)
            visit(child, inner)

    visit(tree, False)
    return found


def kernel_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Kernel module → the kernel modules it imports (anywhere in it)."""
    graph = {}
    for name, source in sources.items():
        targets = set()
        for module, _, _ in imported_modules(ast.parse(source)):
            parts = module.split(".")
            if parts[:2] == ["symbolic", "kernel"] and len(parts) > 2 and parts[2] in sources:
                targets.add(parts[2])
        graph[name] = targets - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of ``graph`` as a path that returns to its start, or ``[]``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def kernel_sources() -> dict[str, str]:
    return {name: p.read_text(encoding="utf-8") for name, p in kernel_modules().items()}


def test_the_kernel_imports_form_no_cycle():
    cycle = find_cycle(kernel_graph(kernel_sources()))
    assert not cycle, " → ".join(cycle)


def test_the_cycle_scan_finds_a_planted_cycle_through_a_lazy_import():
    planted = {
        "a": "from symbolic.kernel.b import x\n",
        "b": "def f():\n    from symbolic.kernel import c\n",
        "c": "import symbolic.kernel.a\n",
        "d": "from symbolic.kernel.a import y\n",
    }
    assert find_cycle(kernel_graph(planted)) == ["a", "b", "c", "a"]
    assert find_cycle(kernel_graph({**planted, "c": "\n"})) == []


def lazy_kernel_imports(source: str, shown: str) -> list[str]:
    found = {
        node.lineno: f"{shown}:{node.lineno}: imports {module} inside a function"
        for module, node, nested in reversed(imported_modules(ast.parse(source)))
        if nested and module.startswith("symbolic.kernel")
    }
    return [found[line] for line in sorted(found)]


def test_kernel_modules_import_each_other_at_the_top():
    """No lazy imports inside the kernel: the order of its modules is the order of its imports."""
    found = [
        v
        for name, source in kernel_sources().items()
        for v in lazy_kernel_imports(source, f"symbolic/kernel/{name}.py")
    ]
    assert not found, "\n".join(found)


def test_the_kernel_imports_nothing_of_the_project_above_it():
    found = []
    for name, source in kernel_sources().items():
        for module, node, _ in imported_modules(ast.parse(source)):
            top = module.split(".")[0]
            if top in ("symbolic", "proofs", "numeric_checks", "tests"):
                if not (module.startswith("symbolic.kernel.") or module in KERNEL_MAY_IMPORT):
                    if not any(module.startswith(f"{m}.") for m in KERNEL_MAY_IMPORT):
                        found.append(f"symbolic/kernel/{name}.py:{node.lineno}: imports {module}")
    assert not found, "\n".join(found)


def submodule_imports(source: str, shown: str, public: set[str]) -> list[str]:
    """Imports in ``source`` that reach past the kernel's face into one of its submodules."""
    found = []
    for node in ast.walk(ast.parse(source)):
        reached: list[str] = []
        if isinstance(node, ast.Import):
            reached = [a.name for a in node.names if a.name.startswith("symbolic.kernel.")]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module.startswith("symbolic.kernel."):
                reached = [node.module]
            elif node.module == "symbolic.kernel":
                reached = [
                    f"symbolic.kernel.{a.name}"
                    for a in node.names
                    if a.name not in public and a.name != "*"
                ]
        found += [f"{shown}:{node.lineno}: imports {m}" for m in reached]
    return found


def outside_modules() -> list[Path]:
    return sorted(
        p for pkg in SCANNED for p in (ROOT / pkg).rglob("*.py") if KERNEL not in p.parents
    )


def test_outside_the_kernel_only_its_public_face_is_imported():
    public = set(symbolic.kernel.__all__)
    found = [
        v
        for p in outside_modules()
        if (shown := p.relative_to(ROOT).as_posix()) not in SUBMODULE_ACCESS
        for v in submodule_imports(p.read_text(encoding="utf-8"), shown, public)
    ]
    assert not found, "\n".join(found)


def test_every_exception_is_still_needed():
    """An entry of ``SUBMODULE_ACCESS`` whose file no longer reaches a submodule is removed."""
    public = set(symbolic.kernel.__all__)
    stale = [
        shown
        for shown in SUBMODULE_ACCESS
        if not submodule_imports((ROOT / shown).read_text(encoding="utf-8"), shown, public)
    ]
    assert not stale, stale


def test_the_face_scan_finds_planted_submodule_imports():
    public = set(symbolic.kernel.__all__)
    planted = (
        "from symbolic.kernel.logic import ForAll\n"
        "import symbolic.kernel.verdict as v\n"
        "from symbolic.kernel import sympy_checks\n"
        "def f():\n    from symbolic.kernel.branches import at\n"
        "from symbolic.kernel import check_equal, ForAll\n"
    )
    found = submodule_imports(planted, "planted.py", public)
    assert [v.split(": imports ")[1] for v in found] == [
        "symbolic.kernel.logic",
        "symbolic.kernel.verdict",
        "symbolic.kernel.sympy_checks",
        "symbolic.kernel.branches",
    ]


def test_the_public_face_exports_what_it_names():
    missing = [n for n in symbolic.kernel.__all__ if not hasattr(symbolic.kernel, n)]
    assert not missing and len(set(symbolic.kernel.__all__)) == len(symbolic.kernel.__all__)


def test_the_piecewise_heads_are_listed_once():
    """One list of the heads whose value depends on a branch (``branches.BRANCH_HEADS``)."""
    lists = []
    for name, source in kernel_sources().items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Tuple):
                heads = {e.attr for e in node.elts if isinstance(e, ast.Attribute)}
                if {"Piecewise", "Heaviside", "Max"} <= heads:
                    lists.append(f"{name}:{node.lineno}")
    assert len(lists) == 1, lists


def test_no_kernel_module_is_over_the_size_limit():
    long = {
        name: n
        for name, source in kernel_sources().items()
        if (n := source.count("\n")) > MAX_LINES
    }
    assert not long, long
