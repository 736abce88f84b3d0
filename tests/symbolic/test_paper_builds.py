"""The real theorem modules typeset as a paper: the standalone document, and the fragment in the
one- and two-column hosts of docs/paper.md, compiled once each (one build shared by the tests
of this file), with nothing off the page and none of the raw forms of issue 28 in the source."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pdf_tools import Compiled, compile_pdf

from symbolic import sources
from symbolic.render import latex_document

NO_PDFLATEX = "pdflatex not installed (Debian: texlive-latex-base, texlive-latex-recommended)"
pytestmark = [
    pytest.mark.skipif(shutil.which("pdflatex") is None, reason=NO_PDFLATEX),
    pytest.mark.slow,
    pytest.mark.xdist_group("shared-reports"),
]

PAPER = Path(__file__).resolve().parents[2] / "docs" / "paper.md"
HOST = re.compile(r"<!-- host: (?P<name>[\w-]+)[^>]*-->\s*```latex\n(?P<code>.*?)```", re.S)
OVERFULL_PT = 1.0  # an overfull box sticking out more than this is a failure

# What the typesetting must never show again (issue 28), as it appeared in the .tex.
RAW_FORMS = (
    r"\operatorname{theta_",
    r"\operatorname{ell}",
    "[U+",
    r"\text{True}",
    r"\left(\text{True}",
    "URL not recorded",
    "N..",
    r"R\textsuperscript",
    r"\textasciitilde",
    r"\textasciicircum",
    r"d\_\allowbreak{}out",
    r"\item[(1)] True",
    r"\proofsfit",
)


def hosts() -> dict[str, str]:
    """The host documents of docs/paper.md, by name (``one-column``, ``two-column``)."""
    return {m["name"]: m["code"] for m in HOST.finditer(PAPER.read_text(encoding="utf-8"))}


def in_host(host: str, fragment: str, bibliography: str) -> str:
    """A host with the fragment in place of its ``\\input``; the bibliography stands in for the
    BibTeX run (``\\bibliographystyle`` and ``\\bibliography``), so one pdflatex pass suffices."""
    lines = []
    for line in host.splitlines():
        if line.startswith(r"\input{"):
            lines.append(fragment)
        elif line.startswith(r"\bibliography{"):
            lines.append(bibliography)
        elif not line.startswith(r"\bibliographystyle"):
            lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, tuple[str, Compiled]]:
    import shared_reports

    reports = [r.report for r in shared_reports.runs() if r.report]
    fragment = latex_document.document(reports, fragment=True)
    bibliography = latex_document.bibliography_latex(sorted(sources.bib_keys()))
    texts = {"standalone": latex_document.document(reports)}
    texts |= {name: in_host(code, fragment, bibliography) for name, code in hosts().items()}
    return {
        name: (tex, compile_pdf(tex, tmp_path_factory.mktemp(name))) for name, tex in texts.items()
    }


def test_docs_show_a_one_and_a_two_column_host():
    found = hosts()
    assert set(found) == {"one-column", "two-column"}
    assert r"\documentclass[twocolumn]{article}" in found["two-column"]
    assert all(
        rf"\usepackage{{{','.join(latex_document.PACKAGES)}}}" in code for code in found.values()
    )


@pytest.mark.parametrize("name", ["standalone", "one-column", "two-column"])
def test_nothing_runs_off_the_page(builds, name):
    tex, compiled = builds[name]
    assert compiled.errors == ()
    assert compiled.undefined_references == ()
    assert [w for w in compiled.overfull_pt if w > OVERFULL_PT] == []
    assert compiled.pdf is not None


@pytest.mark.parametrize("name", ["standalone", "one-column"])
def test_no_raw_form_is_left_in_the_source(builds, name):
    tex, _ = builds[name]
    assert [form for form in RAW_FORMS if form in tex] == []


def test_every_table_chunk_is_exactly_the_line_width(builds):
    """The claims table (and every other) is one width: each chunk's columns add up to the
    line (no chunk at its natural width, none shrunk)."""
    tex, _ = builds["standalone"]
    specs = re.findall(r"\\begin\{tabular\}\{@\{\}((?:p\{[^{}]*\})+)@\{\}\}", tex)
    assert len(specs) >= 10
    for spec in specs:
        shares = [int(s) for s in re.findall(r"\*(\d+)/1000", spec)]
        assert sum(shares) <= 1000 and sum(shares) >= 1000 - len(shares)
