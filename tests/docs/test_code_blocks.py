"""Every ``python`` code block in docs/ runs (in one namespace per page, top to bottom), so the
docs cannot rot. A block run elsewhere is preceded by a comment naming the test that runs it
(``<!-- the test suite runs this block: ... -->``); a block that cannot run on its own (a file
to save, a fragment of a table, a cluster) says why (``<!-- not run as a block: why -->``), and
the count of those is pinned, so a new unrun block fails until it is looked at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCK = re.compile(r"(<!--[^>]*-->\s*)?```python\n(.*?)```", re.S)


def pages() -> list[Path]:
    return sorted(p for p in DOCS.glob("*.md") if "```python" in p.read_text(encoding="utf-8"))


def test_there_are_pages_with_code():
    assert any(p.name == "api.md" for p in pages())


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_python_block_runs(page):
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    ran = skipped = 0
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        marker, code = match.groups()
        if marker and (
            "the test suite runs this block" in marker or "not run as a block:" in marker
        ):
            skipped += 1  # run by the named test (e.g. as a theorem module), or said why not
            continue
        exec(compile(code, f"{page.name} block {ran + 1}", "exec"), namespace)  # noqa: S102
        ran += 1
    assert ran + skipped >= 1


NOT_RUN = 3  # tests/proofs/test_parity.py (a file to save), a table fragment, a SLURM cluster


def test_blocks_not_run_are_few_and_say_why():
    # the python blocks' markers (the bash blocks' are pinned in test_bash_blocks.py)
    markers = [
        m
        for p in pages()
        for m in re.findall(
            r"<!-- not run as a block: ([^>]*)-->\s*```python", p.read_text(encoding="utf-8")
        )
    ]
    assert len(markers) == NOT_RUN and all(m.strip() for m in markers)
