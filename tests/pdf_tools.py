"""Compiling generated LaTeX with ``pdflatex`` (test tooling, not part of the installed package).

``compile_pdf(tex, directory)`` writes the document, runs ``pdflatex`` until references settle and
returns what TeX said: errors, overfull boxes, undefined references and citations.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

# --- Compiling (tests, benchmarks, users checking a document) -------------------------------

PDFLATEX = (
    "pdflatex",
    "-interaction=nonstopmode",
    "-halt-on-error",
    "-no-mktex=tfm",
    "-no-mktex=pk",
)  # a missing font is an error, never generated
MAX_RUNS = 3  # labels, then longtable widths, settle in at most three runs
PDFLATEX_TIMEOUT_S = 120


@dataclass(frozen=True)
class Compiled:
    """What ``pdflatex`` said about a document (from its final run's log)."""

    pdf: Path | None
    runs: int
    errors: tuple[str, ...]  # TeX's "! ..." error lines, or pdflatex's exit status
    warnings: tuple[str, ...]  # "LaTeX Warning: ..." and "Package ... Warning: ..." lines
    overfull: int  # overfull boxes: text or tables wider than the line
    overfull_pt: tuple[float, ...] = ()  # how far each overfull \hbox sticks out (points)

    @property
    def undefined_references(self) -> tuple[str, ...]:
        return tuple(w for w in self.warnings if "undefined" in w.lower())


def compile_pdf(tex: str, directory: Path | str, name: str = "document") -> Compiled:
    """Write ``tex`` to ``directory/name.tex`` and run ``pdflatex`` until references settle.

    Raises ``FileNotFoundError`` when ``pdflatex`` is not installed (Debian:
    ``texlive-latex-base`` and ``texlive-latex-recommended``).
    """
    directory = Path(directory)
    source = directory / f"{name}.tex"
    source.write_text(tex, encoding="utf-8")
    log_path = directory / f"{name}.log"
    runs = 0
    while runs < MAX_RUNS:
        runs += 1
        done = subprocess.run(
            [*PDFLATEX, f"-output-directory={directory}", str(source)],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
            timeout=PDFLATEX_TIMEOUT_S,
            cwd=directory,
        )
        log = log_path.read_text(encoding="latin-1") if log_path.exists() else ""
        if done.returncode or "Rerun" not in log:
            break
    lines = log.splitlines()
    errors = [line for line in lines if re.match(r"!( |pdfTeX error)", line)]  # not box dumps
    if done.returncode and not errors:
        errors.append(f"pdflatex exited with status {done.returncode}")
    pdf = directory / f"{name}.pdf"
    return Compiled(
        pdf=pdf if pdf.exists() else None,
        runs=runs,
        errors=tuple(errors),
        warnings=tuple(line for line in lines if re.match(r"(LaTeX|Package \w+) Warning", line)),
        overfull=sum(line.startswith("Overfull") for line in lines),
        overfull_pt=tuple(
            float(w)
            for w in re.findall(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)", log, re.M)
        ),
    )
