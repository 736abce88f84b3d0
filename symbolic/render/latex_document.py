r"""The LaTeX document of reports: ``python -m proofs --latex`` (``--fragment``, ``--appendix``).

``document(reports)`` is a standalone ``article`` using only ``PACKAGES`` (``amsmath``,
``amsthm``, ``booktabs``, ...), which ``pdflatex`` compiles with Debian's ``texlive-latex-base``
and ``texlive-latex-recommended``; ``document(reports, fragment=True)`` is the same body without
a preamble, for pasting into a paper (``tests/pdf_tools.py`` compiles them in the test suite).
Everything is rendered from the engine's objects (``Claim``, ``Step``, ``Derivation``,
``Table``, ``Result``, ``Report``), the very objects the text and JSON outputs print:

* every claim is a ``theorem`` / ``lemma`` / ``proposition`` / ``corollary`` with a label, its
  statement, assumptions, the claims it uses (``\ref`` when they are in the document)
  (``latex_claims``);
* its derivation is a list of checked steps, each with its rule and verdict; only a derivation
  whose every step was verified is typeset as a ``proof`` (with a QED box) (``latex_steps``);
* one line per result says how it was verified (methods, backends, witnesses, numeric checks);
* every table is a ``booktabs`` table that wraps to the line width (``latex_tables``).

Text goes through ``latex_text.escape`` and formulas through ``latex_text.math``: the only
places where strings and SymPy objects become LaTeX.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symbolic import sources
from symbolic.engine import Report, Table, overall_status
from symbolic.errors import InvalidArgument
from symbolic.render.latex_claims import Labels, result_latex, status_text
from symbolic.render.latex_tables import table_latex
from symbolic.render.latex_text import escape
from symbolic.render.text import MARK, plural, summary_line

SECTION_LEVELS = ("chapter", "section", "subsection", "subsubsection", "paragraph")


def claims_table(reports: Sequence[Report], timings: bool = False) -> Table:
    """One row per claim: module, claim, source items, verdict, backing (and time)."""
    from symbolic.backing import claim_backing

    columns = ("module", "claim", "source", "verdict", "backing") + (("time",) * timings)
    rows = []
    for rep in reports:
        for res in rep.results:
            row = (
                rep.module.removeprefix("proofs."),
                res.claim.name,
                res.claim.source,
                f"{MARK[res.status]} {status_text(res)}",
                claim_backing(rep, res),
            )
            rows.append(row + ((f"{res.verdict.seconds:.2f} s",) * timings))
    return Table("claims", "Claims checked", columns, tuple(rows))


# --- Reports and the document ---------------------------------------------------------------


def report_latex(
    report: Report,
    labels: Labels,
    index: int = 0,
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> str:
    """One theorem module: a section with its results (and, unless ``appendix``, its tables)."""
    from symbolic.backing import claim_backing

    statuses = [r.status for r in report.results]
    key = labels.unique("sec", report.module)
    intro = (
        rf"{{\raggedright\noindent Module \texttt{{{escape(report.module)}}} "
        rf"(\texttt{{python -m {escape(report.module)}}}); source "
        f"{labels.source(report.source)}: {escape(summary_line(statuses))}"
    )
    if timings:
        intro += f" in {report.seconds:.2f} s"
    intro += f", overall \\textbf{{{escape(report.status)}}}.\\par}}"
    parts = [rf"\{section_level}{{{escape(report.title)}}}\label{{{key}}}", intro]
    parts += [
        result_latex(r, labels.defined[(index, i)], labels, timings, claim_backing(report, r))
        for i, r in enumerate(report.results)
    ]
    if not appendix:
        parts += [
            table_latex(t, labels.unique("tab", report.module, t.name)) for t in report.tables
        ]
    return "\n\n".join(parts)


TITLE = "Machine-checked results: gated MLPs, bilinear attention and memory capacity"
PACKAGES = ("amsmath", "amssymb", "amsthm")  # required
OPTIONAL_PACKAGES = ("booktabs",)  # nicer rules
THEOREMS = (
    ("theorem", r"\newtheorem{theorem}{Theorem}[section]"),
    ("lemma", r"\newtheorem{lemma}[theorem]{Lemma}"),
    ("proposition", r"\newtheorem{proposition}[theorem]{Proposition}"),
    ("corollary", r"\newtheorem{corollary}[theorem]{Corollary}"),
    ("claim", r"\newtheorem{claim}[theorem]{Claim}"),
)
# Everything the body needs beyond PACKAGES, each defined only when the paper has not:
# theorem environments, the step list, booktabs rules.
MACROS = (
    *(rf"\ifx\{env}\undefined{code}\fi" for env, code in THEOREMS),
    r"\ifx\proofsteps\undefined\newenvironment{proofsteps}{\begin{list}{}{%",
    r"  \setlength{\leftmargin}{2.2em}\setlength{\labelwidth}{2em}\setlength{\labelsep}{0.2em}%",
    r"  \setlength{\itemsep}{2pt}\setlength{\parsep}{0pt}\setlength{\topsep}{3pt}}%",
    r"  \raggedright}{\end{list}}\fi",
    r"\providecommand{\toprule}{\hline}\providecommand{\midrule}{\hline}",
    r"\providecommand{\bottomrule}{\hline}",
)


def _authors(field: str) -> str:
    """``Mor Geva, Roei Schuster and Jonathan Berant`` from BibTeX's ``Last, First and ...``."""
    names = [
        " ".join(reversed([p.strip() for p in n.split(",", 1)])) if "," in n else n.strip()
        for n in re.split(r"\s+and\s+", field)
        if n.strip()
    ]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def bibliography_latex(keys: Sequence[str]) -> str:
    """A ``thebibliography`` of the cited keys, from docs/references.bib (standalone document:
    no BibTeX run needed)."""
    entries = sources.bib_entries()
    items = []
    for k in keys:
        e = entries.get(k)
        if e is None:
            continue
        venue = (
            e.get("booktitle")
            or e.get("journal")
            or (f"arXiv:{e['eprint']}" if "eprint" in e else "")
        )
        fields = [
            _authors(e.get("author", "")),
            rf"\emph{{{e['title']}}}" if "title" in e else "",
            venue,
            e.get("year", ""),
        ]
        items.append(rf"\bibitem{{{k}}} " + ". ".join(f.rstrip(".") for f in fields if f) + ".")
    if not items:
        return ""
    return "\n".join([r"\begin{thebibliography}{99}", *items, r"\end{thebibliography}"])


def _body(
    reports: Sequence[Report],
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> tuple[str, list[str]]:
    """The document body, and the bibliography keys it cites."""
    from symbolic.versions import versions

    labels = Labels(reports)
    statuses = [r.status for rep in reports for r in rep.results]
    parts = []
    if not appendix:
        tools = ", ".join(f"{k} {v}" for k, v in versions().items() if v)
        intro = (
            rf"{{\raggedright\noindent {plural(len(statuses), 'claim')} from "
            rf"{plural(len(reports), 'theorem module')}: "
            rf"{escape(summary_line(statuses))}; overall "
            rf"\textbf{{{overall_status(statuses)}}}. "
            "Every step of every derivation was checked by the backend named beside it "
            "(SymPy, Z3, exact or interval arithmetic); a result's verification line lists "
            "its methods, witnesses and numeric cross-checks. Each claim names its source, "
            rf"an item of \texttt{{{sources.THEORY_NAME}}}. "
            rf"Checked with {escape(tools)}. Regenerate with "
            r"\texttt{python -m proofs -{}-latex FILE.tex}.\par}"
        )
        if not reports:
            intro = r"\noindent No theorem modules found: nothing was checked."
        parts.append(intro)
        if statuses:
            parts.append(
                table_latex(claims_table(reports, timings), labels.unique("tab", "claims"))
            )
    parts += [
        report_latex(r, labels, k, timings=timings, appendix=appendix, section_level=section_level)
        for k, r in enumerate(reports)
    ]
    return "\n\n".join(parts) + "\n", list(labels.cited)


def document(
    reports: Sequence[Report],
    fragment: bool = False,
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> str:
    """The reports as a standalone LaTeX ``article``, or as a fragment to paste into a paper.

    ``appendix``: statements and proofs only (no summary, claims table or module tables).
    ``section_level``: the sectioning command of a module (``subsection`` to nest the fragment
    under a section of the paper). ``timings``: print check times (they differ run to run, so
    they are off by default and two runs give byte-identical files).
    """
    if section_level not in SECTION_LEVELS:
        raise InvalidArgument(
            f"section_level={section_level!r}: expected one of {', '.join(SECTION_LEVELS)}"
        )
    body, cited = _body(reports, timings=timings, appendix=appendix, section_level=section_level)
    macros = "\n".join(MACROS)
    if fragment:
        needs = "\n".join(
            [
                "% LaTeX fragment generated by transformer-proofs (python -m proofs --latex).",
                "% Safe to \\input into an article, one or two columns. The preamble needs:",
                f"%   \\usepackage{{{','.join(PACKAGES)}}}",
                f"% and optionally \\usepackage{{{','.join(OPTIONAL_PACKAGES)}}} (booktabs rules).",
                "% Tables wrap to the line. Theorem environments (theorem, lemma,",
                "% proposition, corollary, claim) are defined below unless the paper has them.",
                "% \\cite keys are those of docs/references.bib (\\bibliography{references}).",
            ]
        )
        return f"{needs}\n{macros}\n\n{body}"
    preamble = "\n".join(
        [
            r"\documentclass[11pt]{article}",
            r"\usepackage[a4paper,margin=2.2cm]{geometry}",
            f"\\usepackage{{{','.join(PACKAGES + OPTIONAL_PACKAGES)}}}",
            r"\setlength{\emergencystretch}{3em}",
            macros,
            rf"\title{{{escape(reports[0].title) if len(reports) == 1 else TITLE}}}",
            r"\author{transformer-proofs}",
            r"\date{}",
        ]
    )
    bib = bibliography_latex(cited)
    return (
        f"{preamble}\n\\begin{{document}}\n\\maketitle\n\n{body}"
        + (f"\n{bib}\n" if bib else "")
        + "\\end{document}\n"
    )
