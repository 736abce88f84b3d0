"""The trust boundary, checked on the source: only ``symbolic/kernel/`` makes verdicts and facts.

An AST scan of every module outside the kernel fails on: a call of ``Verdict(...)`` or
``Fact(...)``; an import or use of the kernel's private names (``_mint``, ``_fact``,
``_verdict``, ``_revise``, ``_guard``, ``_MINTING``); ``object.__setattr__`` (which would
bypass the frozen dataclasses); an import of ``z3`` outside the kernel's Z3 checker and the
re-check's solver runner (``symbolic/evidence/solvers.py``, which decides nothing); a theorem
module importing another theorem module. The scanner is itself tested on planted violations,
so a scanner that finds nothing fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("symbolic", "proofs", "numeric_checks")
KERNEL = ROOT / "symbolic" / "kernel"
PRIVATE = {"_mint", "_fact", "_verdict", "_revise", "_guard", "_MINTING"}
MINTED = {"Verdict", "Fact"}
Z3_ALLOWED = {KERNEL / f"z3_{m}.py" for m in ("checks", "translate", "read")} | {
    ROOT / "symbolic" / "evidence" / "solvers.py"
}


def violations(source: str, path: Path) -> list[str]:
    """What in ``source`` (a module at ``path``) crosses the trust boundary."""
    found = []
    inside_kernel = KERNEL in path.parents
    tree = ast.parse(source)
    shown = path.relative_to(ROOT) if ROOT in path.parents else path
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom, ast.Call, ast.Attribute, ast.Name)):
            continue
        where = f"{shown}:{node.lineno}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names]
            module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            if any(n.split(".")[0] == "z3" for n in names) or module.split(".")[0] == "z3":
                if path not in Z3_ALLOWED:
                    found.append(
                        f"{where}: imports z3 "
                        "(only symbolic/kernel/z3_checks.py and symbolic/evidence/solvers.py may)"
                    )
            if not inside_kernel and set(names) & PRIVATE:
                found.append(f"{where}: imports kernel-private {sorted(set(names) & PRIVATE)}")
            if (
                path.parent == ROOT / "proofs"
                and module.startswith("proofs.")
                and module != "proofs._cli"
            ):
                found.append(f"{where}: theorem module imports {module} (import symbolic)")
        if inside_kernel:
            continue
        if isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id
                if isinstance(f, ast.Name)
                else f.attr
                if isinstance(f, ast.Attribute)
                else None
            )
            if name in MINTED:
                found.append(f"{where}: constructs {name} (only the kernel may)")
            if (
                isinstance(f, ast.Attribute)
                and f.attr == "__setattr__"
                and isinstance(f.value, ast.Name)
                and f.value.id == "object"
            ):
                found.append(f"{where}: object.__setattr__ bypasses frozen kernel objects")
            if (
                isinstance(f, ast.Attribute)
                and f.attr == "__new__"
                and isinstance(f.value, ast.Name)
                and f.value.id in MINTED | {"object"}
            ):
                found.append(f"{where}: {f.value.id}.__new__ bypasses the kernel's constructor")
            if isinstance(f, ast.Attribute) and f.attr in (
                "__setstate__",
                "__reduce__",
                "__reduce_ex__",
            ):
                found.append(f"{where}: {f.attr} rebuilds objects outside their constructor")
        if isinstance(node, ast.Attribute) and node.attr in PRIVATE:
            found.append(f"{where}: uses kernel-private {node.attr}")
        if isinstance(node, ast.Name) and node.id in PRIVATE:
            found.append(f"{where}: uses kernel-private {node.id}")
    return found


def modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_no_module_outside_the_kernel_makes_verdicts_or_facts():
    found = [v for p in modules() for v in violations(p.read_text(encoding="utf-8"), p)]
    assert not found, "\n".join(found)


def test_the_scan_covers_the_packages():
    names = {p.relative_to(ROOT).as_posix() for p in modules()}
    assert {
        "symbolic/gated/analysis.py",
        "proofs/exchange.py",
        "numeric_checks/capacity.py",
        "symbolic/kernel/verdict.py",
    } <= names


@pytest.mark.parametrize(
    "planted, what",
    [
        (
            "from symbolic.kernel import Verdict\nv = Verdict('proved', 'z3')\n",
            "constructs Verdict",
        ),
        ("import symbolic.kernel.fact as f\nf.Fact(1, 2)\n", "constructs Fact"),
        ("from symbolic.kernel.verdict import _mint\n", "kernel-private"),
        ("import symbolic.kernel.verdict as v\nwith v._mint():\n    pass\n", "kernel-private"),
        ("object.__setattr__(x, 'status', 'proved')\n", "object.__setattr__"),
        ("from symbolic.kernel import Fact\nf = Fact.__new__(Fact)\n", "bypasses the kernel's"),
        ("f = object.__new__(cls)\n", "bypasses the kernel's"),
        ("f.__setstate__(state)\n", "rebuilds objects"),
        ("f.__reduce_ex__(2)\n", "rebuilds objects"),
        ("import z3\n", "imports z3"),
    ],
)
def test_the_scan_finds_planted_violations(planted, what):
    found = violations(planted, ROOT / "symbolic" / "planted.py")
    assert any(what in v for v in found), found


def test_a_theorem_module_importing_another_is_found():
    found = violations("from proofs.exchange import analyze_item\n", ROOT / "proofs" / "x.py")
    assert any("theorem module imports proofs.exchange" in v for v in found)


def test_mutation_tooling_is_not_installed():
    """The mutation engine and the pdflatex runner are test/benchmark tooling (issue 10 §6)."""
    assert not (ROOT / "symbolic" / "mutation.py").exists()
    assert not any(
        "pdflatex" in p.read_text(encoding="utf-8")
        and "subprocess" in p.read_text(encoding="utf-8")
        for p in modules()
    )


def private_imports(source: str, path: Path) -> list[str]:
    """Names starting with one underscore imported from another project module (the kernel's
    own modules share their minting helpers among themselves: allowed there)."""
    found = []
    inside_kernel = KERNEL in path.parents
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if node.module.split(".")[0] not in PACKAGES:
            continue
        if inside_kernel and node.module.startswith("symbolic.kernel"):
            continue
        private = [
            a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
        ]
        if private:
            found.append(
                f"{path.relative_to(ROOT)}:{node.lineno}: imports {private} from {node.module}"
            )
    return found


def test_no_module_imports_another_modules_private_names():
    """What one module uses of another is public (named without the underscore)."""
    found = [v for p in modules() for v in private_imports(p.read_text(encoding="utf-8"), p)]
    assert not found, "\n".join(found)


def test_the_private_import_scan_finds_a_planted_one():
    planted = (
        "from symbolic.languages.activation_language import _Parser\nfrom numpy import _core\n"
    )
    found = private_imports(planted, ROOT / "symbolic" / "planted.py")
    assert len(found) == 1 and "_Parser" in found[0]
    kernel_internal = "from symbolic.kernel.verdict import _verdict\n"
    assert private_imports(kernel_internal, KERNEL / "planted.py") == []
