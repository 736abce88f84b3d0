"""``python -m proofs``: discovery, dashboard, exit codes, --list, --only, --json, --latex.

Most tests call ``main(argv, package)`` in this process on a *fake* package of theorem modules
written to a temporary directory, so that every exit code can be provoked cheaply. The tests
marked ``subprocess`` run the real ``python -m proofs`` (the real ``__main__.py`` and ``_cli.py``
linked into a fake ``proofs`` package). One slow test checks the real theorem modules: JSON
against the documented schema, LaTeX through pdflatex.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import proofs.__main__ as cli
from symbolic.backing import BACKING, ordered

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DOC = ROOT / "docs" / "json-schema.md"
NO_PDFLATEX = "pdflatex not installed (Debian: texlive-latex-base, texlive-latex-recommended)"
needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason=NO_PDFLATEX)

MODULE = '''
"""{doc}"""
import sympy
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.kernel import check_equal
{order}
A = sympy.Symbol("a", real=True)

def build_report():
    def result(name, uses=(), fact=None):
        fact = fact or check_equal(sympy.Add(A, A, evaluate=False), 2 * A)
        claim = Claim(name, name.title(), "a + a = 2a", "A6", uses=uses, statement=fact.formula)
        return Result(claim, Derivation((Step(fact, "arithmetic"),)))
    {body}
'''

PROVED_BODY = """return Report("proofs.{name}", "{name} module", "A6",
                  (result("{name}_lemma"), result("{name}_theorem", uses=("{name}_lemma",))),
                  (Table("t", "A table", ("activation", "degree"), (("relu", 1),)),))"""


def module_source(name: str, body: str = PROVED_BODY, order: int | None = None) -> str:
    return MODULE.format(
        doc=f"The {name} theorems (THEORY A6).",
        order=f"ORDER = {order}" if order is not None else "",
        body=body.format(name=name),
    )


class Tree:
    """A package directory of fake theorem modules."""

    def __init__(self, root: Path, name: str):
        self.root, self.name, self.path = root, name, root / name
        self.path.mkdir()
        (self.path / "__init__.py").write_text('"""Fake theorem modules."""\n')

    def __call__(self, module: str, source: str) -> None:
        (self.path / f"{module}.py").write_text(source, encoding="utf-8")

    def main(self, capsys, *args: str) -> tuple[int, str, str]:
        """``main(args)`` in this process on this package: (exit code, stdout, stderr)."""
        sys.path.insert(0, str(self.root))
        try:
            package = importlib.import_module(self.name)
            try:
                code = cli.main(list(args), package=package)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
        finally:
            sys.path.remove(str(self.root))
            for name in [m for m in sys.modules if m.split(".")[0] == self.name]:
                del sys.modules[name]
        out, err = capsys.readouterr()
        return code, out, err

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """The real ``python -m proofs`` on this package (which must be called ``proofs``)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [sys.executable, "-m", "proofs", *args],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )


@pytest.fixture
def tree(tmp_path):
    """An empty fake package, checked in process."""
    return Tree(tmp_path, f"fake_proofs_{uuid.uuid4().hex}")


@pytest.fixture
def proofs_tree(tmp_path):
    """An empty fake ``proofs`` package holding the real runner, for ``python -m proofs``."""
    t = Tree(tmp_path, "proofs")
    for real in ("__main__.py", "_cli.py"):
        (t.path / real).symlink_to(ROOT / "proofs" / real)
    return t


def add_two_modules(t: Tree) -> Tree:
    t("alpha", module_source("alpha", order=20))
    t("beta", module_source("beta", order=10))
    t("_private", module_source("private"))  # starts with _: not a theorem module
    t("helper", '"""No build_report here."""\nVALUE = 1\n')
    return t


@pytest.fixture
def two_modules(tree):
    return add_two_modules(tree)


# -- the dashboard and exit codes ------------------------------------------------------------------


def test_all_proved_prints_the_dashboard_and_exits_0(two_modules, capsys):
    code, out, err = two_modules.main(capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Checked claims"
    assert re.split(r"\s{2,}", lines[1]) == [
        "module",
        "claim",
        "source item",
        "verdict",
        "backing",
        "time",
    ]
    rows = [line for line in lines if line.startswith("proofs.")]
    assert [row.split()[1] for row in rows] == [
        "beta_lemma",
        "beta_theorem",
        "alpha_lemma",
        "alpha_theorem",
    ]  # ORDER 10 before ORDER 20
    assert all("✓ proved" in row and "sympy" in row for row in rows)
    modules = lines.index("Theorem modules")
    assert re.split(r"\s{2,}", lines[modules + 1]) == [
        "module",
        "title",
        "source items",
        "claims",
        "status",
        "backing",
        "time",
    ]
    assert re.split(r"\s{2,}", lines[modules + 3])[5] == "sympy"  # every claim's words
    assert "private" not in out and "helper" not in out
    assert re.search(
        r"python -m proofs: 4 claims in 2 modules — 4 proved, 0 refuted, "
        r"0 unknown, 0 failed — proved \(exit 0\) in \d+\.\d\d s$",
        out,
    )


def test_verbose_prints_every_derivation_before_the_dashboard(two_modules, capsys):
    code, out, _ = two_modules.main(capsys, "-v")
    assert code == 0
    assert out.index("1. a + a = 2*a") < out.index("Checked claims")


@pytest.mark.parametrize(
    ("verdict", "code", "status"),
    [
        ("check_equal(sympy.Function('f')(A), A)", 3, "unknown"),
        ("check_equal(sympy.Integer(1), sympy.Integer(2))", 1, "refuted"),
    ],
)
def test_an_undecided_or_refuted_claim_sets_the_exit_code(tree, capsys, verdict, code, status):
    tree("alpha", module_source("alpha"))
    tree(
        "gamma",
        module_source(
            "gamma",
            body=f"""return Report("proofs.gamma", "g", "A6",
                  (result("gamma_claim", fact={verdict}),))""",
        ),
    )
    exit_code, out, _ = tree.main(capsys)
    assert exit_code == code
    assert f"proofs.gamma gamma_claim: {status}" in out  # listed under "Not proved"
    assert f"— {status} (exit {code})" in out


@pytest.mark.parametrize(
    "source",
    [
        module_source("delta", body='raise RuntimeError("boom")'),
        "def build_report(:\n",  # a syntax error: the module does not even import
    ],
)
def test_a_crashing_module_is_a_failure_not_a_skip(tree, capsys, source):
    tree("alpha", module_source("alpha"))
    tree("delta", source)
    code, out, err = tree.main(capsys)
    assert code == 1
    assert re.search(r"delta\s+.*(RuntimeError: boom|SyntaxError).*✗ failed", out)
    assert "Traceback" in err and "module delta" in err


def test_a_module_without_claims_is_unknown(tree, capsys):
    tree("empty", module_source("empty", body='return Report("proofs.empty", "e", "A6")'))
    code, out, _ = tree.main(capsys)
    assert code == 3
    assert "empty: no claims" in out


def test_no_theorem_modules_is_unknown_never_a_pass(tree, capsys):
    code, _, err = tree.main(capsys)
    assert code == 3
    assert "no theorem modules found" in err


# -- options ---------------------------------------------------------------------------------------


def test_list_shows_the_modules_in_run_order_without_checking_them(two_modules, capsys):
    two_modules("slow", module_source("slow", body='raise AssertionError("must not run")'))
    code, out, _ = two_modules.main(capsys, "--list")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[3:]] == ["beta", "alpha", "slow"]
    assert "The alpha theorems (THEORY A6)." in out


def test_list_json(two_modules, capsys):
    doc = json.loads(two_modules.main(capsys, "--list", "--json")[1])
    assert doc["schema"] == "transformer-proofs/modules/v1"
    assert [(m["name"], m["order"]) for m in doc["modules"]] == [("beta", 10), ("alpha", 20)]


@pytest.mark.parametrize("name", ["alpha", "proofs.alpha"])
def test_only_checks_the_named_module(two_modules, capsys, name):
    code, out, _ = two_modules.main(capsys, "--only", name)
    assert code == 0
    assert "alpha_lemma" in out and "beta" not in out


def test_only_an_unknown_name_is_a_one_line_usage_error(two_modules, capsys):
    code, out, err = two_modules.main(capsys, "--only", "nope")
    assert code == 2 and out == ""
    assert err == (
        "python -m proofs: error: --only 'nope': no theorem module of that name; "
        "valid names: beta, alpha\n"
    )


@pytest.mark.parametrize("args", [["--fragment"], ["--json", "--latex", "x.tex"], ["--bogus"]])
def test_bad_usage_exits_2_with_one_line(two_modules, capsys, args):
    code, _, err = two_modules.main(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1


# -- JSON ------------------------------------------------------------------------------------------


def documented_schema() -> dict:
    """The JSON Schema block of docs/json-schema.md (the reference, so docs cannot drift)."""
    blocks = re.findall(r"```json\n(.*?)```", SCHEMA_DOC.read_text(encoding="utf-8"), re.S)
    return json.loads(next(b for b in blocks if '"$schema"' in b))


JSON_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "integer": int,
    "number": (int, float),
}


def validate(value, schema: dict, root: dict, path: str = "$") -> list[str]:
    """The subset of JSON Schema that docs/json-schema.md uses; returns the violations."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    errors = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        ok = any(
            isinstance(value, JSON_TYPES[t])
            and not (t in ("integer", "number") and isinstance(value, bool))
            for t in types
        )
        if not ok:
            return [f"{path}: {value!r} is not {types}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} != {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append(f"{path}: {value!r} does not match {schema['pattern']!r}")
    if isinstance(value, dict):
        errors += [f"{path}: missing {k!r}" for k in schema.get("required", ()) if k not in value]
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                errors += validate(item, props[key], root, f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: undocumented key {key!r}")
            elif isinstance(extra, dict):
                errors += validate(item, extra, root, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += validate(item, schema["items"], root, f"{path}[{i}]")
    return errors


def test_the_validator_catches_violations():
    schema = documented_schema()
    assert validate({"schema": "x"}, schema, schema)
    assert validate([], schema, schema) == ["$: [] is not ['object']"]


def test_json_follows_the_documented_schema(two_modules, capsys):
    code, out, _ = two_modules.main(capsys, "--json")
    assert code == 0
    doc = json.loads(out)
    schema = documented_schema()
    assert validate(doc, schema, schema) == []
    assert doc["summary"] == {
        "modules": 2,
        "claims": 4,
        "proved": 4,
        "refuted": 0,
        "unknown": 0,
        "failed": 0,
        "resting_on_admitted": 0,
    }
    assert [m["name"] for m in doc["modules"]] == ["beta", "alpha"]
    assert doc["claims"]["alpha_lemma"]["used_by"] == ["alpha_theorem"]
    assert doc["claims"]["alpha_theorem"]["uses"] == ["alpha_lemma"]
    assert doc["missing_uses"] == []


def test_json_of_a_crash_follows_the_schema_too(tree, capsys):
    tree("delta", module_source("delta", body='raise RuntimeError("boom")'))
    code, out, _ = tree.main(capsys, "--json")
    doc = json.loads(out)
    schema = documented_schema()
    assert validate(doc, schema, schema) == []
    assert code == doc["exit_code"] == 1
    assert doc["modules"][0]["error"] == "build_report() raised RuntimeError: boom"


def test_a_refused_input_in_a_module_is_one_line_that_names_its_line(tree, capsys):
    """The toolkit's own refusal (``InvalidArgument``) inside a module is one line naming the
    module's line that gave it, no traceback; a bug (``RuntimeError``) keeps its traceback."""
    body = 'from symbolic import equal\n    equal(sympy.Float("nan"), 1)'
    tree("eps", module_source("eps", body=body))
    code, out, err = tree.main(capsys)
    assert code == 1 and "Traceback" not in err + out
    assert re.search(r"raised InvalidArgument: lhs: nan .*\(at .*eps\.py:\d+\)", out)
    tree("zeta", module_source("zeta", body='raise RuntimeError("boom")'))
    code, _, err = tree.main(capsys)
    assert code == 1 and "Traceback" in err and "RuntimeError: boom" in err


def test_json_with_no_modules_is_unknown(tree, capsys):
    code, out, _ = tree.main(capsys, "--json")
    doc = json.loads(out)
    assert code == doc["exit_code"] == 3 and doc["status"] == "unknown"


def test_json_lists_uses_of_claims_not_checked(two_modules, capsys):
    doc = json.loads(two_modules.main(capsys, "--json", "--only", "alpha")[1])
    assert doc["missing_uses"] == []
    two_modules(
        "gamma",
        module_source(
            "gamma",
            body="""return Report("proofs.gamma", "g",
                "A6", (result("gamma_claim", uses=("alpha_lemma", "nowhere")),))""",
        ),
    )
    doc = json.loads(two_modules.main(capsys, "--json")[1])
    assert doc["missing_uses"] == ["nowhere"]
    assert doc["claims"]["alpha_lemma"]["used_by"] == ["alpha_theorem", "gamma_claim"]


# -- LaTeX -----------------------------------------------------------------------------------------


def test_latex_fragment_goes_to_stdout(two_modules, capsys):
    code, out, _ = two_modules.main(capsys, "--latex", "--fragment")
    assert code == 0
    assert out.startswith("% LaTeX fragment") and r"\documentclass" not in out


# -- the worked example of docs/adding-a-theorem.md ------------------------------------------


def test_the_worked_example_in_the_docs(tree, capsys):
    doc = (ROOT / "docs" / "adding-a-theorem.md").read_text(encoding="utf-8")
    source = re.search(r"test_the_worked_example_in_the_docs -->\n```python\n(.*?)```", doc, re.S)
    tree("parity", source[1])
    code, out, _ = tree.main(capsys)
    assert code == 0
    assert re.search(r"parity\.symmetric_even\s+C1\s+✓ proved\s+sympy", out)
    doc = json.loads(tree.main(capsys, "--json")[1])
    assert doc["missing_uses"] == ["exchange.symmetric_invariant"]


# -- the real command: python -m proofs ------------------------------------------------------


def test_command_exit_codes_and_messages(proofs_tree):
    assert proofs_tree.run().returncode == 3  # no theorem modules: unknown, never a pass
    add_two_modules(proofs_tree)
    out = proofs_tree.run()
    assert out.returncode == 0 and "— proved (exit 0)" in out.stdout
    out = proofs_tree.run("--only", "nope")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "--only 'nope'" in out.stderr


def test_command_json_follows_the_documented_schema(proofs_tree):
    add_two_modules(proofs_tree)
    out = proofs_tree.run("--json")
    schema = documented_schema()
    assert out.returncode == 0 and validate(json.loads(out.stdout), schema, schema) == []


@needs_pdflatex
def test_command_latex_writes_a_file_that_compiles(proofs_tree):
    from pdf_tools import compile_pdf

    add_two_modules(proofs_tree)
    out = proofs_tree.run("--latex", "out.tex")
    assert out.returncode == 0 and out.stdout == ""
    tex = (proofs_tree.root / "out.tex").read_text(encoding="utf-8")
    assert tex.startswith(r"\documentclass")
    compiled = compile_pdf(tex, proofs_tree.root, "compiled")
    assert compiled.errors == () and compiled.warnings == ()


# -- the real theorem modules ---------------------------------------------------------------


@pytest.mark.xdist_group("shared-reports")  # reads tests/shared_reports.py
def test_the_real_modules_follow_the_schema():
    """(That their LaTeX compiles without errors or undefined references:
    tests/symbolic/test_paper_builds.py, on the same reports.)"""
    import shared_reports

    runs = list(shared_reports.runs())
    text = json.dumps(cli.json_report(runs, 0.0), ensure_ascii=False)
    doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not strict JSON"))
    schema = documented_schema()
    assert validate(doc, schema, schema) == []
    assert doc["exit_code"] == {"proved": 0, "unknown": 3}.get(doc["status"], 1)


def test_the_schema_refuses_a_backing_outside_the_vocabulary():
    schema = documented_schema()
    word = {"$ref": "#/$defs/backing"}
    assert validate("z3+cvc5, sympy, oracle", word, schema) == []
    assert validate("none", word, schema) == []
    assert validate("z3+cvc6", word, schema) and validate("admitted", word, schema)


@given(st.lists(st.sampled_from(sorted(BACKING)), unique=True), st.randoms())
def test_backing_words_come_in_one_order_whatever_the_order_found(words, rnd):
    """The same words, found in any order, are shown alike, in the vocabulary's order."""
    shuffled = list(words)
    rnd.shuffle(shuffled)
    shown = ordered(shuffled)
    assert shown == ordered(words)
    assert shown.split(", ") == ([w for w in BACKING if w in words] or ["none"])


@pytest.mark.parametrize("command", ["proofs", "proofs.exchange"])
@pytest.mark.parametrize("hidden, named", [("flint", "python-flint"), ("z3", "z3-solver")])
def test_a_missing_core_dependency_is_one_line_and_exit_2(command, hidden, named):
    """An interpreter without a core dependency (a partial install): one line naming what to
    install, exit 2, no traceback — for ``python -m proofs`` and for a module command."""
    program = (
        f"import sys, runpy; sys.modules[{hidden!r}] = None; "
        f"sys.argv = [{command!r}, '--json']; runpy.run_module({command!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "pip install -e ." in lines[0]
    assert "Traceback" not in done.stderr


def test_every_module_of_the_package_is_a_theorem_module_or_a_listed_tool():
    """Discovery skips only ``TOOL_MODULES``: every other module of ``proofs`` is found as a
    theorem module (a new one is never skipped), and each listed tool is not one (a stale entry,
    or a theorem module listed by mistake, fails)."""
    import pkgutil

    import proofs

    names = {
        i.name
        for i in pkgutil.iter_modules(proofs.__path__)
        if not (i.name.startswith("_") or i.ispkg)
    }
    found = {m.name for m in cli.discover()}
    assert found == names - cli.TOOL_MODULES
    assert cli.TOOL_MODULES <= names
    for tool in cli.TOOL_MODULES:
        assert not cli._is_theorem_module(importlib.import_module(f"proofs.{tool}")), tool
