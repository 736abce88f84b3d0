"""What a notebook shows: ``_repr_latex_`` (MathJax), ``_repr_html_`` and a short ``__repr__``
of results, derivations and reports, from the same printers as the paper and the blueprint."""

from __future__ import annotations

import sympy
from render_doubles import Result, Step, Verdict  # noqa: E402

from symbolic.engine import Claim, Derivation, Report
from symbolic.render import notebook

a, b = sympy.symbols("a b", real=True)


PROVED = Verdict.proved("sympy", "ok")
FORMULA = Step("ab = ba", "commutativity", PROVED, formula=sympy.Eq(a * b, b * a, evaluate=False))
ORACLE = Step("∫ f = 1.5", "quadrature", Verdict.proved("oracle"))
CLAIM = Claim(
    "comm",
    "Products commute",
    "ab = ba for x ∈ R^d",
    "A6",
    kind="lemma",
    statement=sympy.Eq(a * b, b * a, evaluate=False),
)
RESULT = Result(CLAIM, Derivation((FORMULA, ORACLE)))
REPORT = Report("proofs.fake", "Fake module", "A6", (RESULT,))


def test_short_reprs():
    assert notebook.result_repr(RESULT) == "<Result comm: proved (1 oracle result), 2 steps>"
    assert notebook.derivation_repr(RESULT.derivation) == (
        "<Derivation: 2 steps (1 checked, 1 oracle)>"
    )
    assert notebook.derivation_repr(Derivation(())) == "<Derivation: 0 steps>"
    assert notebook.report_repr(REPORT) == "<Report proofs.fake: proved, 1 result>"


def test_latex_repr_is_mathjax_in_the_papers_notation():
    code = notebook.result_latex_repr(RESULT)
    assert code == (
        r"$$\begin{array}{l} \textbf{Lemma}\ \text{comm}\colon\ \text{Products commute}\quad "
        r"\textbf{\text{✓ proved (1 oracle result)}} \\ a b = a b \end{array}$$"
        "\n"
        r"$$\begin{array}{rl} (1) & a b = a b \\ & \quad{\small \text{commutativity · ✓ proved "
        r"by sympy}} \\ (2) & \text{∫ f = 1.5} \\ & \quad{\small \text{quadrature · ⊢ oracle "
        r"result}} \end{array}$$"
    )


def test_latex_repr_text_has_no_markup_mathjax_would_misread():
    claim = Claim("c", "braces {x} and $5", "R^{d×d} and a\\b", "A6")
    code = notebook.result_latex_repr(Result(claim, Derivation((ORACLE,))))
    assert r"\text{braces (x) and S5}" in code and r"\text{ℝᵈ×ᵈ and a∖b}" in code


def test_report_latex_repr_has_each_result():
    code = notebook.report_latex_repr(REPORT)
    assert code.startswith(r"$$\textbf{\text{Fake module}}\quad \text{✓ proved}$$")
    assert code.count(r"\textbf{Lemma}") == 1


def test_html_reprs_are_the_blueprints_sections_with_mathml():
    code = notebook.result_html_repr(RESULT)
    assert code.startswith("<style>") and '<section class="tp-claim assumptions"' in code
    assert "<math" in code and "oracle result (certified outside the kernel)" in code
    assert "ℝ<sup>d</sup>" in code
    assert code.count("<li>") == 2 == notebook.derivation_html_repr(RESULT.derivation).count("<li>")
    report = notebook.report_html_repr(REPORT)
    assert "<h3>Fake module (proofs.fake): ✓ proved</h3>" in report and "tp-claim" in report
