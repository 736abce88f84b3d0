"""Every ``bash`` block of README.md and docs/*.md runs as a user runs it: a real ``bash``
subprocess (``set -e``: any failing command fails the block), in a fresh copy of the checkout
(the commands use repository paths such as ``benchmarks/``), with this interpreter's folder
first on ``PATH`` (``python``, ``python3``) and the copy on ``PYTHONPATH``. No traceback may
reach stderr.

A block preceded by ``<!-- slow: why -->`` runs as a ``slow`` test (still run in CI). A block
that cannot run on its own says why (``<!-- not run as a block: why -->``): those are pinned
below by page and first line, so a new unrun block fails until it is looked at, and a block
that can run again must lose its marker."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"(?:<!--\s*(slow|not run as a block):([^>]*)-->\s*\n)?```bash\n(.*?)```", re.S)
TIMEOUT_S = 600
IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info", ".ruff_cache"
)

# (page, first line of the block): why it does not run here. Pinned: keep it short.
NOT_RUN = {
    (
        "README.md",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
        "python -m proofs.exchange",
    ): "creates a virtual environment and installs from PyPI",
    (
        "README.md",
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && '
        "python -m pytest -q -n 2",
    ): "installs, then runs the whole suite (which holds this test)",
    (
        "capacity.md",
        "python -m numeric_checks.capacity --store all --d 64            # Monte "
        "Carlo, every store",
    ): "minutes of Monte Carlo",
    (
        "capacity.md",
        'pip install -e ".[sweep]"                       # dask[distributed] and '
        "tqdm (optional extra)",
    ): "installs from PyPI; the default grid is hours of Monte Carlo",
    (
        "capacity.md",
        "dask scheduler                                   # prints tcp://HOST:8786",
    ): "needs a Dask scheduler and workers on other machines",
    (
        "capacity.md",
        "python -m numeric_checks.retrieval                                   "
        "# d = 16, 10,000 trials per store",
    ): "minutes of Monte Carlo (10⁴–10⁵ trials per store)",
    (
        "capacity.md",
        "python -m numeric_checks.sweep --store softmax --d 64 --beta 8 --schedule "
        "constant,logn,yarn \\",
    ): "minutes of Monte Carlo (twelve points at a 0.3 % standard error)",
    ("ci.md", "set -u"): "a CI step: installs the package, then one full run",
    ("ci.md", "python - <<'EOF'"): "compares the reports of two CI runs (main.json, pr.json)",
    (
        "cli.md",
        "python -m proofs                                  # everything; exit code for CI",
    ): "six full runs (minutes); tests/proofs/test_main.py runs each option",
    (
        "guide.md",
        'pip install -e ".[test]"       # sympy, z3-solver, numpy; pytest and '
        "hypothesis for the tests",
    ): "installs from PyPI; its full run is the one cli.md's LaTeX block makes",
    (
        "smt.md",
        'pip install -e ".[smt]"                 # cvc5 from PyPI (the second solver)',
    ): "installs from PyPI, then every theorem through two solvers (minutes)",
}


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    marker: str | None
    why: str
    code: str

    @property
    def first(self) -> str:
        return self.code.strip().splitlines()[0]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks() -> list[Block]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            out.append(
                Block(
                    page.name,
                    text.count("\n", 0, m.start(3)),
                    m.group(1),
                    (m.group(2) or "").strip(),
                    m.group(3),
                )
            )
    return out


def test_the_pages_have_bash_blocks():
    assert any(b.page == "README.md" for b in blocks())


def test_blocks_not_run_are_the_pinned_ones_and_say_why():
    unrun = {(b.page, b.first): b.why for b in blocks() if b.marker == "not run as a block"}
    assert set(unrun) == set(NOT_RUN), "a bash block lost or gained its 'not run' marker"
    assert all(unrun.values()), "a 'not run as a block' marker must say why"


def _params():
    for b in blocks():
        if b.marker == "not run as a block":
            continue
        marks = [pytest.mark.slow] if b.marker == "slow" else []
        yield pytest.param(b, id=b.id, marks=marks)


# An optional extra a block needs (README: `.[smt]`, `.[sweep]`, `.[plot]`), by what it runs:
# without it the block is skipped with the reason (.ci/run installs every extra, so CI runs it).
EXTRAS = (
    ("--smt2", "cvc5", "smt"),
    ("--recheck", "cvc5", "smt"),
    ("numeric_checks.sweep", "dask.distributed", "sweep"),
    ("--plot", "matplotlib", "plot"),
)


def _missing_extra(code: str) -> str | None:
    import importlib.util

    for needle, module, extra in EXTRAS:
        if needle in code:
            try:
                found = importlib.util.find_spec(module) is not None
            except ModuleNotFoundError:
                found = False
            if not found:
                return f"needs {module} (pip install -e '.[{extra}]')"
    return None


@pytest.mark.parametrize("block", list(_params()))
def test_bash_block_runs(block: Block, tmp_path: Path):
    missing = _missing_extra(block.code)
    if missing:
        pytest.skip(missing)
    work = tmp_path / "checkout"
    shutil.copytree(ROOT, work, ignore=IGNORE)
    # this interpreter's folder first: its python and python3 (a virtual environment's, so
    # its packages), as the user's activated environment
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(work),
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.code],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, (
        f"{block.id} exit {done.returncode}\n{block.code}\nstderr:\n{done.stderr[-3000:]}"
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
