"""LaTeX rendering: the escaping rules as exact strings, a Hypothesis property for any text, the
renderers of claims, steps, derivations and tables, and pdflatex compiles (skipped without it)."""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdf_tools import compile_pdf
from render_doubles import Result, Step, Verdict, kernel_result  # noqa: E402

from symbolic import backing, sources
from symbolic.engine import (
    Admitted,
    Claim,
    Derivation,
    NumericCheck,
    Report,
    Table,
)
from symbolic.render import latex_claims, latex_document, latex_tables, latex_text
from symbolic.render.latex_claims import environment, label, verification_line
from symbolic.render.latex_document import document
from symbolic.render.latex_steps import derivation_latex, step_latex, visible_width
from symbolic.render.latex_tables import cell_latex, tabular_latex
from symbolic.render.latex_text import escape, math

PROVED = Verdict.proved("sympy", "difference simplifies to 0")
NO_PDFLATEX = "pdflatex not installed (Debian: texlive-latex-base, texlive-latex-recommended)"
needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason=NO_PDFLATEX)


def test_docstring_examples_run():
    failed, attempted = doctest.testmod(latex_text, raise_on_error=False)
    assert attempted > 0 and failed == 0


# -- text: one rule per row, exact strings -------------------------------------------------------

ESCAPES = [
    ("plain words, 1 + 2 = 3.", "plain words, 1 + 2 = 3."),
    ("50% & $5 #1", r"50\% \& \ensuremath{\$}5 \#1"),
    ("{x}", r"\{x\}"),
    ("~^\\", r"\textasciitilde{}\textasciicircum{}\textbackslash{}"),
    ("a<b>c|d", r"a\textless{}b\textgreater{}c\textbar{}d"),
    ('say "hi"', r'say \texttt{"}hi\texttt{"}'),
    ("`", r"\`{}"),
    ("--", "-{}-"),
    ("a -- b", "a -{}- b"),
    ("σ ⊙ τ", r"\ensuremath{\sigma} \ensuremath{\odot} \ensuremath{\tau}"),
    ("∀a ∃c", r"\ensuremath{\forall}a \ensuremath{\exists}c"),
    ("p ⇔ q ⇒ r", r"p \ensuremath{\Leftrightarrow} q \ensuremath{\Rightarrow} r"),
    ("α β", r"\ensuremath{\alpha} \ensuremath{\beta}"),
    (
        "≠≤≥→∈",
        r"\ensuremath{\neq}\ensuremath{\leq}\ensuremath{\geq}\ensuremath{\to}"
        r"\ensuremath{\in}",
    ),
    ("ℝ", r"\ensuremath{\mathbb{R}}"),
    ("xᵀ", r"x\textsuperscript{\ensuremath{\top}}"),
    ("A⁻¹", r"A\textsuperscript{\ensuremath{-}1}"),
    ("n·d²", r"n\ensuremath{\cdot}d\textsuperscript{2}"),
    ("x₁", r"x\textsubscript{1}"),
    ("√d", r"\ensuremath{\surd}d"),
    ("a × b − c", r"a \ensuremath{\times} b \ensuremath{-} c"),
    ("…", r"\ldots{}"),
    (
        "ε φ λ Σ Α Ω",
        r"\ensuremath{\varepsilon} \ensuremath{\varphi} \ensuremath{\lambda} "
        r"\ensuremath{\Sigma} A \ensuremath{\Omega}",
    ),
    ("ͳ", r"\textsf{[U+0373]}"),  # an archaic Greek letter: no TeX command
    ("✓ ✗", r"\ensuremath{\checkmark} \ensuremath{\times}"),
    ("x^{n×d}", r"x\textsuperscript{n\ensuremath{\times}d}"),
    ("t^p", r"t\textsuperscript{p}"),
    ("α^(−1)K", r"\ensuremath{\alpha}\textsuperscript{\ensuremath{-}1}K"),
    ("e^(x", r"e\textasciicircum{}(x"),
    ("q_{js}", r"q\textsubscript{js}"),
    ("Σ_j x_b", r"\ensuremath{\Sigma}\textsubscript{j} x\textsubscript{b}"),
    ("M_ik", r"M\textsubscript{ik}"),
    ("q_jᵀ", r"q\textsubscript{j}\textsuperscript{\ensuremath{\top}}"),
    ("exchange_lemma", r"exchange\_\allowbreak{}lemma"),
    ("d_out", r"d\textsubscript{out}"),
    ("2*n/d", r"2*\allowbreak{}n/\allowbreak{}d"),
    ("proofs.exchange", r"proofs.\allowbreak{}exchange"),
    ("1.5", "1.5"),
    ("é", r"\'{e}"),
    ("e\u0301", r"\'{e}"),
    ("x\u0303", r"\~{x}"),
    ("ß æ ø", r"\ss{} \ae{} \o{}"),
    ("½", r"1/\allowbreak{}2"),
    ("a\nb\tc", "a b c"),
    ("\u00a0", "~"),
    ("😀", r"\textsf{[U+1F600]}"),
    ("\x00", r"\textsf{[U+0000]}"),
    ("中", r"\textsf{[U+4E2D]}"),
]


@pytest.mark.parametrize(("text", "expected"), ESCAPES)
def test_escape(text, expected):
    assert escape(text) == expected


# -- text: any string at all ---------------------------------------------------------------------


def _unescaped(code: str) -> str:
    """``code`` without escaped characters (``\\{``, ``\\%``, ...) and control words."""
    return re.sub(r"\\[{}%&#$_]|\\[A-Za-z]+|\\[^A-Za-z]", "", code)


@given(st.text() | st.text(st.sampled_from(list("\\{}$&#^_%~-ᵀ⁻¹²x ({)}"))))
def test_escape_is_safe_for_any_text(text):
    code = escape(text)
    assert code.isascii()
    assert "\n" not in code and "\r" not in code  # no paragraph break inside an argument
    bare = _unescaped(code)
    assert not set("%&#$") & set(bare)  # no comment, alignment, parameter or math shift
    depth = 0
    for char in bare:  # braces are balanced, so every group closes inside the argument
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0
    assert depth == 0
    assert "--" not in code  # no en/em-dash ligature from user hyphens


@given(st.text(alphabet="abcxyz0123 ,()+=", max_size=40))
def test_escape_leaves_plain_text_alone(text):
    assert escape(text) == text


# -- mathematics ---------------------------------------------------------------------------------

a, b, d = sympy.symbols("a b d", real=True)

MATHS = [
    (sympy.sqrt(d), r"\sqrt{d}"),
    (sympy.Eq(a * b, b * a, evaluate=False), "a b = a b"),
    (sympy.Symbol("σ"), r"\sigma"),
    (sympy.Function("sigma")(a), r"\sigma\left(a\right)"),
]


@pytest.mark.parametrize(("expr", "expected"), MATHS)
def test_math(expr, expected):
    assert math(expr) == expected


@pytest.mark.parametrize(
    ("code", "width"),
    [
        ("x", 1),
        (r"\sigma{\left(a \right)}", 4),
        (r"\frac{1}{2} + x", 3),
        ("a_{1} b^{2}", 4),
    ],
)
def test_visible_width(code, width):
    assert visible_width(code) == width


# -- formulas wider than a line: where TeX may break them (issue 28) -------------------------------

x = sympy.Symbol("x", real=True)
SERIES = sum(sympy.Symbol(f"c_{k}") * x**k for k in range(10))
SERIES_CODE = " + ".join(["c_{0}", "c_{1} x", *(f"c_{{{k}}} x^{{{k}}}" for k in range(2, 10))])
MATRICES = [sympy.MatrixSymbol(name, 3, 3) for name in ("Q", "K", "V", "W_q", "W_k", "W_v")]

BREAKABLE_MATH = [
    # a wide product may break between its factors (\* shows a × there); a narrow one not
    (
        sympy.Mul(*(d + k for k in range(1, 8)), evaluate=False),
        r" \* ".join(f"(d + {k})" for k in range(1, 8)),
    ),
    (2 * a * b, "2 a b"),
    # a wide numerator is set on the line, after 1/denominator
    (
        SERIES / d,
        r"\frac{1}{d} \* (" + SERIES_CODE + ")",
    ),
    # a function's arguments are not braced (a braced group cannot break)
    (sympy.log(1 + x), r"\log(x + 1 )"),
    # ₀F₁ on the line, not SymPy's two-row box with \middle|
    (
        sympy.hyper((), (32,), 64 * (x / 10 + 1) ** 4),
        r"{}_{0}F_{1}\Bigl(;\, 32;\, 64 \Bigl(\frac{x}{10} + 1\Bigr)^{4}\Bigr)",
    ),
    # a derivative at a wide point: the point on the line, not in a subscript
    (
        sympy.Subs(sympy.Derivative(sympy.Function("σ")(x), x), x, SERIES),
        r"{\sigma}^{\prime}(" + SERIES_CODE + ")",
    ),
    (
        sympy.Subs(sympy.Derivative(sympy.Function("G")(a, x), x), x, SERIES),
        r"\partial_{2} G(a,\allowbreak " + SERIES_CODE + ")",
    ),
    # a wide matrix product may break between its factors (no × there)
    (
        sympy.MatMul(*MATRICES, *MATRICES, *MATRICES),
        r" \allowbreak ".join(["Q", "K", "V", "W_{q}", "W_{k}", "W_{v}"] * 3),
    ),
]


@pytest.mark.parametrize(("expr", "expected"), BREAKABLE_MATH)
def test_a_wide_formula_is_printed_where_tex_may_break_it(expr, expected):
    assert math(expr, breakable=True) == expected
    assert r"\*" not in math(expr) and r"\allowbreak" not in math(expr)  # only when breakable


def test_parentheses_around_a_sum_are_tall_and_only_their_own_middle_bar_keeps_them_sized():
    from symbolic.render.latex_breaks import breakable

    assert breakable(r"\left(\sum_{i=0}^{n} x_{i}\right) y") == (
        r"\Bigl(\sum_{i=0}^{n} x_{i}\Bigr) \allowbreak y"
    )
    nested = r"\left(a + \left(\begin{matrix} 1 \end{matrix}\middle| b\right)\right)"
    assert breakable(nested) == (
        r"\Bigl(a + \left(\begin{matrix} 1 \end{matrix}\middle| b\right)\Bigr)"
    )


def test_break_points_have_no_width():
    assert visible_width(r"a \* b \allowbreak c") == 3


# -- claims, steps, derivations ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "env"),
    [
        ("theorem", "theorem"),
        ("Lemma", "lemma"),
        ("corollary", "corollary"),
        ("proposition", "proposition"),
        ("definition", "claim"),
    ],
)
def test_environment(kind, env):
    assert environment(kind) == env


@pytest.mark.parametrize(
    ("parts", "key"),
    [
        (("claim", "proofs.exchange", "exchange.lemma"), "claim:proofs.exchange:exchange.lemma"),
        (("claim", "m", "a_b c"), "claim:m:a+5f+b+20+c"),
    ],
)
def test_label(parts, key):
    assert label(*parts) == key


TEXT_STEP = Step("σ(0) = 0", "substitute a = 0", PROVED)
FORMULA_STEP = Step(
    "(a + b)² = a² + 2ab + b²",
    "expand",
    PROVED,
    formula=sympy.Eq((a + b) ** 2, a**2 + 2 * a * b + b**2, evaluate=False),
)
SQUARE = r"\left(a + b\right)^{2}"
EXPANDED = "a^{2} + 2 a b + b^{2}"
WITNESS_STEP = Step(
    "σ(2) ≠ 2σ(1)",
    "certified",
    Verdict.proved("interval", "sign certified", witness=(("z0", "2"),)),
)
DEFINITION_STEP = Step("c := σ(1) = 1", "definition of c", Verdict.proved("definition"))

STEPS = [
    (
        TEXT_STEP,
        r"\item[(1)] \ensuremath{\sigma}(0) = 0\par"
        "\n"
        r"{\footnotesize substitute a = 0 \hfill \ensuremath{\checkmark} sympy\par}",
    ),
    (
        FORMULA_STEP,
        r"\item[(1)] $\displaystyle "
        f"{SQUARE} = {EXPANDED}"
        r"$\par"
        "\n"
        r"{\footnotesize expand \hfill \ensuremath{\checkmark} sympy\par}",
    ),
    (
        WITNESS_STEP,
        r"\item[(1)] \ensuremath{\sigma}(2) \ensuremath{\neq} 2\ensuremath{\sigma}(1)"
        r"\par"
        "\n"
        r"{\footnotesize certified; at z0 = 2 \hfill "
        r"\ensuremath{\checkmark} interval\par}",
    ),
    (
        DEFINITION_STEP,
        r"\item[(1)] c := \ensuremath{\sigma}(1) = 1\par"
        "\n"
        r"{\footnotesize definition of c \hfill \textit{definition}\par}",
    ),
]


@pytest.mark.parametrize(("step", "expected"), STEPS)
def test_step_latex(step, expected):
    assert step_latex(1, step) == expected


class KernelStep:
    """A step of the kernel redesign's shape: formula, note and kind (no statement needed)."""

    def __init__(self, formula, note="", kind="checked", rule="by Z3", verdict=PROVED):
        self.formula, self.note, self.kind, self.rule, self.verdict = (
            formula,
            note,
            kind,
            rule,
            verdict,
        )
        self.statement = "unused"


def test_a_kernel_step_is_typeset_from_its_formula_with_its_note_beside_it():
    step = KernelStep(sympy.Eq(a * b, b * a, evaluate=False), note="commutativity")
    code = step_latex(1, step)
    assert code.startswith(r"\item[(1)] $\displaystyle a b = a b$\par")
    assert "by Z3; commutativity" in code and "unused" not in code


def test_an_assumption_step_is_marked_admitted():
    step = KernelStep(sympy.Eq(a, b), kind="assumption", verdict=Verdict.proved("assumption"))
    assert r"\textit{assumption (admitted, not checked)}" in step_latex(1, step)


def test_a_derivation_is_a_step_list_that_breaks_across_pages():
    code = derivation_latex([FORMULA_STEP, TEXT_STEP])
    assert code.startswith(r"\begin{proofsteps}") and code.endswith(r"\end{proofsteps}")
    assert code.count(r"\item[") == 2 and r"\begin{align" not in code


def test_a_formula_sympy_made_trivial_keeps_its_statement_as_a_note():
    step = Step(
        "(−u)(−v) = uv", "(−a)(−b) = ab", PROVED, formula=sympy.Eq(-a * -b, a * b, evaluate=False)
    )  # both sides are a*b
    code = step_latex(1, step)
    assert r"$\displaystyle a b = a b$" in code
    assert r"(\ensuremath{-}u)(\ensuremath{-}v) = uv" in code


def test_a_step_sympy_evaluated_to_true_shows_its_rule_never_true():
    step = Step("True", "σ(1) certified nonzero", PROVED, formula=sympy.true)
    assert step_latex(1, step) == (
        r"\item[(1)] \ensuremath{\sigma}(1) certified nonzero\par"
        "\n"
        r"{\footnotesize \ensuremath{\checkmark} sympy\par}"
    )
    noted = Step("True   [d ∈ ℕ]", "count", PROVED, formula=sympy.true, note="n·d entries")
    assert step_latex(1, noted).startswith(
        r"\item[(1)] n\ensuremath{\cdot}d entries   [d "
        r"\ensuremath{\in} \ensuremath{\mathbb{N}}]\par"
    )
    assert "True" not in step_latex(1, noted)


class RuleFact:
    rule = "trans"


def test_a_kernel_rule_is_the_justification():
    step = KernelStep(sympy.Eq(a, b), rule="a = c, c = b", verdict=Verdict.proved("rule"))
    step.fact = RuleFact()
    assert step_latex(1, step).endswith(r"\hfill \ensuremath{\checkmark} by trans\par}")


def test_an_oracle_result_is_never_called_an_assumption():
    result = kernel_result("c", admitted=(("oracle", "∫ f = 1.5"),))
    assert latex_claims.status_text(result) == "proved (1 oracle result)"
    tex = document([report(result)])
    assert "It rests on 1 oracle result." in tex and "assumption" not in tex.lower().replace(
        "assumption (admitted", ""
    )
    assert r"\ensuremath{\checkmark} proved (1 oracle result)" in tex  # the claims table
    both = kernel_result("c", admitted=(("oracle", "∫ f = 1.5"), ("assumption", "σ measurable")))
    assert latex_claims.status_text(both) == "proved (1 assumption, 1 oracle result)"


def test_admitted_facts_inherited_through_uses_are_shown():
    inherited = (Admitted("assumption", "σ measurable", "", "lemma"),)
    result = kernel_result("c", uses=("lemma",), inherited=inherited)
    assert latex_claims.status_text(result) == "proved (1 assumption through uses)"
    assert (
        r"rests, through the claims it uses, on assumption \ensuremath{\sigma} measurable "
        r"(via \texttt{lemma})"
    ) in verification_line(result)
    assert latex_claims.inherited_latex(kernel_result("c")) is None
    mixed = kernel_result("c", admitted=(("oracle", "∫ f = 1.5"),), inherited=inherited)
    assert latex_claims.status_text(mixed) == (
        "proved (1 assumption, 1 oracle result, 1 of them through uses)"
    )


def test_a_formula_sympy_evaluated_to_true_is_shown_as_its_text():
    step = Step("x = x for every x", "reflexivity", PROVED, formula=sympy.true)
    assert r"\item[(1)] x = x for every x\par" in step_latex(1, step)


def test_a_row_starting_with_a_bracket_is_not_read_as_an_optional_argument():
    table = Table("t", "t", ("a",), (("[1, 2]",), ("*",), (" [x",)))
    code = tabular_latex(table)
    assert r"{}[1, 2] \\" in code and r"{}* \\" in code and r"{} [x \\" in code


def test_verification_line_names_methods_witnesses_and_numeric_checks():
    numeric = (NumericCheck("replay", "numpy", 8, 1e-17, 1e-12, True),)
    result = Result(Claim("c", "t", "s", "A6"), Derivation((TEXT_STEP, WITNESS_STEP)), numeric)
    line = verification_line(result)
    assert r"\ensuremath{\checkmark} proved by interval + sympy (2 steps)" in line
    assert "witness z0 = 2" in line
    assert (
        r"numeric check replay (numpy, 8 samples): agrees to $1\times 10^{-17}$ "
        r"(tolerance $1\times 10^{-12}$)" in line
    )
    assert " s;" not in line and " s)" not in line  # no time without timings
    assert "0.000 s" in verification_line(result, timings=True)


Z3_STEP = Step("x > 1 ⇒ x > 0", "Z3: negation unsat", Verdict.proved("z3"))


@pytest.mark.parametrize(
    ("steps", "checks", "expected"),
    [
        ((TEXT_STEP, WITNESS_STEP), None, "backed by sympy, interval"),
        ((Z3_STEP, TEXT_STEP), None, "backed by z3, sympy"),  # no second solver ran: says what did
        ((Z3_STEP,), {("c", 1, ()): {"cvc5": "unsat"}}, "backed by z3+cvc5"),
        ((Z3_STEP,), {("c", 1, ()): {"cvc5": "unknown"}}, "backed by z3"),
        ((Z3_STEP,), {("other", 1, ()): {"cvc5": "unsat"}}, "backed by z3"),
        ((Z3_STEP, Z3_STEP), {("c", 1, ()): {"cvc5": "unsat"}}, "backed by z3"),  # step 2 unchecked
        (
            (TEXT_STEP, Step("σ measurable", "assumed", Verdict.proved("assumption"))),
            None,
            "backed by sympy, assumption",
        ),
    ],
)
def test_verification_line_says_how_the_claim_is_backed(steps, checks, expected):
    result = Result(Claim("c", "t", "s", "A6"), Derivation(steps))
    report = Report("proofs.m", "M", "A6", (result,), second_checks=checks)
    line = verification_line(result, backing=backing.claim_backing(report, result))
    assert re.search(re.escape(f"; {expected}") + "[;.]", line)
    tex = document([report])
    cell = r"& \raggedright " + expected.removeprefix("backed by ") + r" \tabularnewline"
    assert expected in tex and cell in tex


def test_many_numeric_checks_are_summarized_and_disagreements_named():
    checks = tuple(NumericCheck(f"c{i}", "numpy", 10, 0.0, 1e-12, i != 3) for i in range(5))
    line = verification_line(Result(Claim("c", "t", "s", "A6"), Derivation((TEXT_STEP,)), checks))
    assert "5 numeric cross-checks (numpy 5; 50 samples)" in line
    assert "1 DISAGREE" in line and "numeric check c3" in line and "c2" not in line


# -- tables --------------------------------------------------------------------------------------

CELLS = [
    (None, r"\textemdash{}"),
    (True, "yes"),
    (False, "no"),
    (64, "64"),
    (2731.67, "2,731.67"),
    (1202605.28, r"$1.2026\times 10^{6}$"),
    (1e-7, r"$1\times 10^{-7}$"),
    ("relu_2", r"relu\_\allowbreak{}2"),
    (1 + 2 * d**2 / 3, r"$\frac{2 d^{2}}{3} + 1$"),
    (sympy.Rational("1.0507009873554804934193349852946"), r"$\lambda_{\mathrm{SELU}}$"),
    (sympy.Rational(10507, 100000000) * d, "$0.00010507 d$"),
    ("10^456.3393", "$10^{456.3393}$"),
    ("2*d**2/3 + 1", r"$\frac{2 d^{2}}{3} + 1$"),
]


@pytest.mark.parametrize(("cell", "expected"), CELLS)
def test_cell_latex(cell, expected):
    assert cell_latex(cell) == expected


def test_tabular_is_booktabs_with_numeric_columns_right_aligned():
    table = Table("cap", "Capacity", ("store", "M*"), (("relu", 128.0), ("softmax", None)))
    assert tabular_latex(table) == "\n".join(
        [
            r"\begin{tabular}{lr}",
            r"\toprule",
            r"\textbf{store} & \textbf{M\textsuperscript{*}} \\",
            r"\midrule",
            r"relu & 128 \\",
            r"softmax & \textemdash{} \\",
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )


def test_the_statement_formula_is_the_theorem_and_the_note_is_beside_it():
    labels = latex_claims.Labels([])
    short = Claim(
        "c", "Short", "commutativity", "A6", statement=sympy.Eq(a * b, b * a, evaluate=False)
    )
    code = latex_claims.claim_latex(Result(short, Derivation(())), "claim:c", labels)
    assert code.startswith(
        "\\begin{theorem}[Short]\\label{claim:c}\\raggedright\n"
        "\\[ \\displaystyle a b = a b \\]\ncommutativity\n"
    )
    long_f = sympy.Eq(sum(sympy.Symbol(f"c_{k}") * a**k for k in range(12)), b)
    code = latex_claims.claim_latex(
        Result(Claim("c", "Long", "", "A6", statement=long_f), Derivation(())), "claim:c", labels
    )
    assert "\\par{\\centering $\\displaystyle a^{11} c_{11} + " in code  # breakable, centred


def test_a_table_wraps_to_exactly_the_line_width_or_becomes_paragraphs():
    table = Table(
        "cap",
        "Capacity",
        ("store", "M*", "kind"),
        (("relu", 128.0, "exact interval quadrature"), ("softmax", None, "bound")),
    )
    code = latex_tables.table_latex(table, "tab:cap")
    need = latex_tables.column_shares(table)[1]
    assert rf"\ifdim\linewidth<{need:.1f}em" in code
    spec = re.search(r"\\begin\{tabular\}\{@\{\}((?:p\{[^{}]*\})+)@\{\}\}", code)[1]
    shares = [int(p) for p in re.findall(r"\*(\d+)/1000", spec)]
    assert len(shares) == 3 and 997 <= sum(shares) <= 1000
    assert r"\raggedleft 128 & \raggedright exact" in code  # numbers right-aligned
    assert (
        r"\noindent \textbf{store:} relu; \textbf{M\textsuperscript{*}:} 128; "
        r"\textbf{kind:} exact interval quadrature\par"
    ) in code  # the narrow-line form
    assert r"\resizebox" not in code and "proofsfit" not in code  # never shrunk


def test_a_column_is_at_least_its_widest_unbreakable_cell():
    table = Table("t", "t", ("a", "b"), (("x" * 20, "one two three four five six"),))
    (wide, _), (narrow, _) = latex_tables.column_shares(table)[0]
    assert wide == round(20 * latex_tables.CHAR_EM, 1) and narrow == round(
        5 * latex_tables.CHAR_EM, 1
    )


def test_a_long_table_is_chunked_by_lines():
    table = Table("t", "t", ("n",), tuple((i,) for i in range(60)))
    code = latex_tables.table_latex(table, "tab:t")
    # (twice: at \\footnotesize, and at \\scriptsize for a narrower line)
    assert code.count(r"\begin{tabular}") == 2 * 3 and code.count("continued") == 2 * 2


def test_the_bibliography_has_no_double_period_and_no_private_note():
    bib = latex_document.bibliography_latex(["breslow2026", "wang-associative-memory", "geva2021"])
    assert (
        r"\bibitem{breslow2026} N. Breslow. \emph{Gated {MLPs} as Symmetry-Broken Rank-1 "
        r"Bilinear Attention}. arXiv:2606.22172. 2026."
    ) in bib
    assert r"\bibitem{geva2021} Mor Geva, Roei Schuster, Jonathan Berant and Omer Levy." in bib
    assert ".." not in bib and "not recorded" not in bib


# -- documents -----------------------------------------------------------------------------------

LEMMA = Claim(
    "lemma",
    "Exchange lemma",
    "∀a,b: σ(a)b = σ(b)a ⇔ ∃c ∀z: σ(z) = c·z",
    "A6",
    kind="lemma",
    assumptions=("σ: ℝ → ℝ arbitrary",),
)
USES = Claim("uses", "Uses the lemma", "SiLU breaks it", "A6", uses=("lemma", "elsewhere"))
REFUTED = Step("1 = 2", "arithmetic", Verdict.refuted("exact", "1 ≠ 2"))


def report(*results: Result, module: str = "proofs.fake", tables=()) -> Report:
    return Report(module, "Fake module", "A6", results, tables, seconds=0.1)


def test_document_is_a_standalone_article():
    tex = document([report(Result(LEMMA, Derivation((TEXT_STEP,))))])
    assert tex.startswith(r"\documentclass[11pt]{article}")
    for package in ("amsmath", "amsthm", "booktabs"):
        assert package in tex.split(r"\begin{document}")[0]
    assert tex.rstrip().endswith(r"\end{document}")
    assert r"\begin{lemma}[Exchange lemma]\label{claim:proofs.fake:lemma}" in tex


def test_fragment_has_no_preamble_and_says_what_it_needs():
    tex = document([report(Result(LEMMA, Derivation((TEXT_STEP,))))], fragment=True)
    assert r"\documentclass" not in tex and r"\begin{document}" not in tex
    assert tex.startswith("% LaTeX fragment") and r"%   \usepackage{amsmath" in tex


def test_uses_are_references_when_the_claim_is_in_the_document():
    tex = document(
        [report(Result(LEMMA, Derivation((TEXT_STEP,))), Result(USES, Derivation((TEXT_STEP,))))]
    )
    assert r"Lemma~\ref{claim:proofs.fake:lemma} (\texttt{lemma})" in tex
    assert r"\texttt{elsewhere} (not in this document)" in tex


def test_only_a_verified_derivation_is_typeset_as_a_proof():
    tex = document([report(Result(LEMMA, Derivation((REFUTED,))))])
    assert r"\begin{proof}" not in tex
    assert r"\paragraph{Derivation \textbf{not verified}: refuted.}" in tex


def test_repeated_claim_names_get_distinct_labels():
    result = Result(LEMMA, Derivation((TEXT_STEP,)))
    tex = document([report(result), report(result), report(result, module="proofs.other")])
    keys = re.findall(r"\\label\{(claim:[^}]*)\}", tex)
    assert len(keys) == 3 and len(set(keys)) == 3


def test_no_reports_is_a_document_that_says_so():
    assert "No theorem modules found" in document([])


# -- pdflatex --------------------------------------------------------------------------------------


def sample_reports() -> list[Report]:
    """Every kind of content: formulas, text steps, witnesses, failures, long and wide tables."""
    lemma = Claim(
        LEMMA.name,
        LEMMA.title,
        LEMMA.note,
        "A6",
        kind="lemma",
        assumptions=LEMMA.assumptions,
        statement=sympy.Equivalent(sympy.Eq(a, b), sympy.Eq(b, a)),
    )
    numeric = tuple(NumericCheck(f"check {i}", "numpy", 10, 1e-16, 1e-12, True) for i in range(3))
    small = Table(
        "activations",
        "Activations (A6)",
        ("activation", "σ(z)", "linear", "degree"),
        (
            ("relu", sympy.Max(0, d), False, 1),
            ("selu", sympy.Rational(10507, 10000) * d, False, None),
        ),
        notes=("— means not homogeneous",),
    )
    long = Table(
        "sweep",
        "A long sweep",
        ("d", "M*", "name"),
        tuple((n, float(n) ** 3, f"row_{n}") for n in range(1, 45)),
    )
    return [
        report(
            Result(lemma, Derivation((FORMULA_STEP, FORMULA_STEP)), numeric),
            Result(USES, Derivation((TEXT_STEP, WITNESS_STEP))),
            tables=(small, long),
        ),
        report(
            Result(Claim("bad", "Refuted", "1 = 2", "B"), Derivation((REFUTED,))),
            module="proofs.other",
        ),
    ]


@needs_pdflatex
def test_document_compiles_without_errors_warnings_or_overfull_lines(tmp_path):
    compiled = compile_pdf(document(sample_reports()), tmp_path)
    assert compiled.errors == ()
    assert compiled.warnings == ()  # undefined references, floats too large, ...
    assert compiled.overfull == 0
    assert compiled.pdf is not None


@needs_pdflatex
def test_fragment_compiles_inside_a_paper(tmp_path):
    bib = latex_document.bibliography_latex(sorted(sources.bib_keys()))  # the paper's \bibliography
    paper = "\n".join(
        [
            r"\documentclass{article}",
            rf"\usepackage{{{','.join(latex_document.PACKAGES)}}}",
            r"\begin{document}",
            document(sample_reports(), fragment=True),
            bib,
            r"\end{document}",
        ]
    )
    compiled = compile_pdf(paper, tmp_path)
    assert compiled.errors == () and compiled.undefined_references == ()


WIDE_FORMULAS = (
    # the kinds of formula that ran off a two-column line (issue 28): products of many
    # fractions, a fraction with a wide numerator, the log of a hypergeometric function in a
    # chain of inequalities, a long matrix product
    sympy.Eq(
        1 + sympy.Mul(sympy.Rational(1, 2), *(1 / (d + 2 * k) for k in range(6)), evaluate=False),
        1 + sympy.Mul(10395, *(1 / (d / 2 + k) for k in range(6)), evaluate=False),
        evaluate=False,
    ),
    sympy.Eq(
        sympy.Integral(
            x**4
            * (1 - x**2) ** (d / 2 - sympy.Rational(3, 2))
            * sympy.gamma(d / 2)
            / (sympy.sqrt(sympy.pi) * (1 + sympy.exp(-x)) ** 2 * sympy.gamma(d / 2 - 1)),
            (x, -1, 1),
        ),
        b,
    ),
    sympy.And(
        x - 16 * (x / 10 + 1) ** 2 + sympy.log(sympy.hyper((), (32,), 64 * (x / 10 + 1) ** 4)) > 0,
        x + 2 * (x / 10 + 1) ** 4 - 16 * (x / 10 + 1) ** 2 + sympy.log(1 - sympy.exp(-x)) < 0,
    ),
    sympy.Eq(sympy.MatMul(*MATRICES, *MATRICES, *MATRICES), sympy.MatMul(*MATRICES[::-1])),
)


@needs_pdflatex
def test_wide_formulas_fit_a_two_column_line(tmp_path):
    steps = tuple(Step("wide", "expand", PROVED, formula=f) for f in WIDE_FORMULAS)
    claims = [
        Result(Claim(f"wide{i}", "Wide", "", "A6", statement=f), Derivation(steps))
        for i, f in enumerate(WIDE_FORMULAS)
    ]
    paper = "\n".join(
        [
            r"\documentclass[twocolumn]{article}",
            rf"\usepackage{{{','.join(latex_document.PACKAGES)}}}",
            r"\begin{document}",
            document([report(*claims)], fragment=True, appendix=True),
            r"\end{document}",
        ]
    )
    compiled = compile_pdf(paper, tmp_path)
    assert compiled.errors == ()
    assert [w for w in compiled.overfull_pt if w > 1.0] == []


@needs_pdflatex
@pytest.mark.slow
def test_fragment_compiles_in_a_two_column_article_with_a_long_derivation(tmp_path):
    long = Result(
        Claim("long", "Long", "many steps", "A6"),
        Derivation(tuple(FORMULA_STEP for _ in range(120))),
    )
    body = document(
        [report(long), *sample_reports()], fragment=True, appendix=True, section_level="subsection"
    )
    paper = "\n".join(
        [
            r"\documentclass[twocolumn]{article}",
            rf"\usepackage{{{','.join(latex_document.PACKAGES)}}}",
            r"\begin{document}",
            r"\section{Appendix}",
            body,
            latex_document.bibliography_latex(sorted(sources.bib_keys())),
            r"\end{document}",
        ]
    )
    compiled = compile_pdf(paper, tmp_path)
    assert compiled.errors == () and compiled.undefined_references == ()
    text = (
        subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True, text=True).stdout
        if shutil.which("pdftotext")
        else ""
    )
    if text:  # no step lost: the 120th is there
        assert "(120)" in text


# TeX's specials, the Unicode mathematics of docs/theory.md, then anything at all.
HOSTILE = st.text(
    st.one_of(
        st.sampled_from(list("\\{}$&#^_%~<>|\"`'-[]*\n\t")),
        st.sampled_from(list("σ⊙∀∃⇔⇒αβ≠≤≥→∈ℝᵀ⁻¹√·×−…")),
        st.characters(),
    ),
    max_size=60,
)


@needs_pdflatex
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=6, max_size=6))
def test_any_text_compiles_in_every_place_text_goes(tmp_path_factory, texts):
    title, statement, assumption, step, rule, cell = texts
    claim = Claim(
        title or "x",
        title,
        statement,
        assumption,
        kind=rule,
        assumptions=(assumption,),
        uses=(step,),
    )
    result = Result(
        claim,
        Derivation((Step(step, rule, PROVED),)),
        (NumericCheck(cell, "numpy", 1, 0.0, 1.0, True),),
    )
    table = Table(cell, title, (cell, step), ((cell, statement), (None, rule)), notes=(cell,))
    rep = Report(statement, title, rule, (result,), (table,))
    compiled = compile_pdf(document([rep]), tmp_path_factory.mktemp("tex"))
    assert compiled.errors == ()
    assert compiled.undefined_references == ()
