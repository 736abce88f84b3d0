"""The project's LaTeX printer, rule by rule, as exact strings (latexify_py style), and the
SymPy-syntax spans of prose."""

from __future__ import annotations

import doctest

import pytest
import sympy

from symbolic.activations import SELU_ALPHA, SELU_SCALE
from symbolic.kernel import Exists, ForAll
from symbolic.render import latex_printer
from symbolic.render.latex_breaks import breakable
from symbolic.render.latex_printer import latex
from symbolic.render.latex_spans import parse_span, sympy_spans
from symbolic.render.latex_text import prose

x, a, b, t = sympy.symbols("x a b t", real=True)
aa, al = sympy.symbols("aa al")
z = sympy.Symbol("z")
sigma = sympy.Function("sigma")
Q = sympy.MatrixSymbol("Q", 3, 3)


def test_docstring_examples_run():
    failed, attempted = doctest.testmod(latex_printer, raise_on_error=False)
    assert attempted > 0 and failed == 0


RULES = [
    (sympy.E, r"\mathrm{e}"),
    (sympy.exp(x), r"\mathrm{e}^{x}"),
    (sympy.exp(-x) + 1, r"1 + \mathrm{e}^{- x}"),
    (sympy.log(1 + sympy.E), r"\log{\left(1 + \mathrm{e} \right)}"),
    (sympy.Max(0, x), r"\operatorname{relu}\left(x\right)"),
    (sympy.Max(0, x) ** 2, r"\operatorname{relu}\left(x\right)^{2}"),
    (sympy.Max(x, x / 100), r"\max\left(\frac{x}{100}, x\right)"),
    (sigma(a) * b, r"b \sigma\left(a\right)"),
    (sympy.Function("σ")(a), r"\sigma\left(a\right)"),
    (sympy.Function("relu")(a), r"\operatorname{relu}\left(a\right)"),
    (sympy.Function("Gated")(x), r"\operatorname{Gated}\left(x\right)"),
    (sympy.Symbol("β"), r"\beta"),
    (sympy.Symbol("b_q"), "b_{q}"),
    (Q.T * Q, r"Q^{\top} Q"),
    (sympy.OneMatrix(3, 1) * sympy.MatrixSymbol("b_q", 1, 3), r"\mathbf{1} b_{q}"),
    (SELU_SCALE, r"\lambda_{\mathrm{SELU}}"),
    (SELU_ALPHA * z, r"z \alpha_{\mathrm{SELU}}"),
    (-SELU_SCALE * SELU_ALPHA, r"- \lambda_{\mathrm{SELU}}\alpha_{\mathrm{SELU}}"),
    (sympy.Rational(123456789, 10**9), "0.123456789"),
    (sympy.Rational(1, 3), r"\frac{1}{3}"),
    (sympy.besseli(x / 2 - 1, 2 * a), r"I_{\frac{x}{2} - 1}\left(2 a\right)"),
    (
        sympy.Piecewise((z, z > 0), (sympy.exp(z) - 1, True)),
        r"\begin{cases} z & \text{for}\: z > 0 \\\mathrm{e}^{z} - 1 & \text{otherwise} \end{cases}",
    ),
    # the kernel's quantifiers print themselves (symbolic.kernel.logic), each variable with its
    # domain: never "∈ ℝ" for a variable that ranges over (0, ∞)
    (
        ForAll((a, b), sympy.Eq(sigma(a) * b, sigma(b) * a)),
        r"\forall a \in \mathbb{R}, b \in \mathbb{R}\colon "
        r"b \sigma\left(a\right) = a \sigma\left(b\right)",
    ),
    (Exists((z,), sympy.Eq(z, 1)), r"\exists z \in \mathbb{R}\colon z = 1"),
    (
        ForAll((t,), t**2 > 0, sympy.Interval.open(0, sympy.oo)),
        r"\forall t \in \left(0, \infty\right)\colon t^{2} > 0",
    ),
    (sympy.Implies(sympy.Eq(a, 1), sympy.Ne(b, 0)), r"a = 1 \Rightarrow b \neq 0"),
    # names (issue 28): a multi-letter symbol is one italic word, not a product of letters
    (
        sympy.Eq(sigma(aa * al), al * sigma(aa)),
        r"\sigma\left(\mathit{aa} \mathit{al}\right) = \mathit{al} \sigma\left(\mathit{aa}\right)",
    ),
    (sympy.Function("theta_0")(t), r"\theta_{0}\left(t\right)"),
    (sympy.Function("ell")(a, b), r"\ell\left(a, b\right)"),
    (sympy.Symbol("theta_0"), r"\theta_{0}"),
    (sympy.Symbol("d_out"), r"d_{\mathrm{out}}"),
    (sympy.Symbol("thetadot"), r"\dot{\theta}"),
    (sympy.Function("rank_r_scores")(x), r"\operatorname{rank\_r\_scores}\left(x\right)"),
    (sympy.sin(x), r"\sin{\left(x \right)}"),  # SymPy's own function names stay
    # an elementwise function is written as applied (issue 28: no (d ↦ σ(d))_∘)
    (Q.applyfunc(sympy.Lambda(z, sigma(z))), r"\sigma\left(Q\right)"),
    (Q.applyfunc(sympy.Lambda(z, sympy.exp(z))), r"\exp\left(Q\right)"),
    # logic: "true ⇒ P" is P; a truth value is a word in math, not \text{True}
    (sympy.Implies(sympy.true, sympy.Eq(a, b), evaluate=False), "a = b"),
    (sympy.true, r"\mathrm{true}"),
    # a symbolic matrix: its shape and one entry, never every entry
    (
        sympy.Matrix(
            2, 2, lambda i, j: sigma(sum(sympy.Symbol(f"K_{i}{j}{k}") * x for k in range(3)))
        ),
        r"\left[\, \sigma\left(K_{000} x + K_{001} x + K_{002} x\right) \;\cdots \,"
        r"\right]_{2 \times 2}",
    ),
    (sympy.Matrix([[1, 2], [3, 4]]), r"\left(\begin{matrix}1 & 2\\3 & 4\end{matrix}\right)"),
    (sympy.Matrix([[a, b]]), r"\left(\begin{matrix}a & b\end{matrix}\right)"),  # short: in full
]


@pytest.mark.parametrize(("expr", "expected"), RULES)
def test_rule(expr, expected):
    assert latex(expr) == expected


LONG_DENOMINATOR = sum(sympy.Symbol(f"c_{k}") * x**k for k in range(8))
BREAKABLE = [
    # parentheses TeX can break inside: plain, or \Bigl( around a fraction
    (sigma(a + b) * sigma(a / b), r"\sigma\Bigl(\frac{a}{b}\Bigr) \allowbreak \sigma(a + b)"),
    (sympy.Function("f")(a, b), r"f(a,\allowbreak b)"),
    # a long exponent of e is exp(...); a wide denominator comes after a slash
    (sympy.exp(a**2 + b**2 + x * a + x * b + 1), r"\exp\mathopen{}(a^{2} + a x + b^{2} + b x + 1)"),
    (
        (a + b) / LONG_DENOMINATOR,
        r"(a + b) \allowbreak \Big/ (c_{0} + c_{1} x + c_{2} x^{2} + "
        r"c_{3} x^{3} + c_{4} x^{4} + c_{5} x^{5} + c_{6} x^{6} + "
        r"c_{7} x^{7})",
    ),
    # a long exact number may break every ten digits
    (sympy.Integer(10) ** 20 + 1, r"1000000000\allowbreak 0000000000\allowbreak 1"),
    (
        sympy.Subs(sympy.Derivative(sigma(x), x), x, a),
        r"\Bigl[\frac{d}{d x} \sigma(x)\Bigr]_{\substack{ x=a }}",
    ),
    (
        ForAll((a, b), sympy.Eq(a, b)),
        r"\forall a \in \mathbb{R},\allowbreak b \in \mathbb{R}\colon\allowbreak a = b",
    ),
    (
        ForAll((t,), t**2 > 0, sympy.Interval.open(0, sympy.oo)),
        r"\forall t \in (0,\allowbreak \infty)\colon\allowbreak t^{2} > 0",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), BREAKABLE)
def test_breakable_rule(expr, expected):
    assert breakable(latex(expr, breakable=True)) == expected


def test_breakable_keeps_scripts_and_one_sided_delimiters():
    code = r"\left. f \right|_{x} \left(u\right)^{2} \left|v\right| \left[\, a \,\right]"
    assert breakable(code) == r"\left. f \right|_{x} (u)^{2} \left|v\right| [\, a \,]"


SPANS = [
    ("2*d**2/3 + 1", r"\frac{2 d^{2}}{3} + 1"),
    ("exp(-2*beta**2/d + 2*beta) + 1", r"\mathrm{e}^{- \frac{2 \beta^{2}}{d} + 2 \beta} + 1"),
    ("besseli(d/2 - 1, 2*beta)", r"I_{\frac{d}{2} - 1}\left(2 \beta\right)"),
    ("tanh(log(1 + E))", r"\tanh{\left(\log{\left(1 + \mathrm{e} \right)} \right)}"),
    ("5253504936777402467096674926473/5000000000000000000000000000000", r"\lambda_{\mathrm{SELU}}"),
    (
        "Piecewise((z, z > 0), (exp(z) - 1, True))",
        r"\begin{cases} z & \text{for}\: z > 0 \\\mathrm{e}^{z} - 1 & \text{otherwise} \end{cases}",
    ),
]


@pytest.mark.parametrize(("text", "expected"), SPANS)
def test_sympy_span(text, expected):
    assert sympy_spans(text) == [(0, len(text), expected)]


@pytest.mark.parametrize(
    "text", ["relu(s)", "a/b", "M*_gauss", "x + y", "(", "2**", "__import__('os')", "1/0"]
)
def test_text_that_is_no_sympy_syntax_is_left_alone(text):
    assert sympy_spans(text) == [] or parse_span(text) is not None


PROSE = [
    ("M* = 2*d**2/3 + 1 at d = 64", r"M\textsuperscript{*} = $\frac{2 d^{2}}{3} + 1$ at d = 64"),
    ("σ(2·-1)", r"\ensuremath{\sigma}(2\ensuremath{\cdot}\ensuremath{-}1)"),
    ("b_qKᵀ + b_k", r"b\textsubscript{q}K\textsuperscript{\ensuremath{\top}} + b\textsubscript{k}"),
    (
        "(xQ + 1b_q)Kᵀ + 1b_k",
        r"(xQ + 1b\textsubscript{q})K\textsuperscript{\ensuremath{\top}}"
        r" + 1b\textsubscript{k}",
    ),  # the ones column times b_q: a subscript, not "1b q"
    ("exchange_lemma x1_a", r"exchange\_\allowbreak{}lemma x1\_\allowbreak{}a"),
    ("10^456.3393", r"10\textsuperscript{456.3393}"),
    ("1.2e+06 memories", r"$1.2\times 10^{6}$ memories"),
    ("E[exp(2βs)]", r"E[\ensuremath{\exp}(2\ensuremath{\beta}s)]"),
    # issue 28: ℝ, dotted Greek letters, "distributed as", nested exponents, d_out
    (
        "Q ∈ R^{d×d}, x ∈ R^d",
        r"Q \ensuremath{\in} \ensuremath{\mathbb{R}^{d\times d}}, "
        r"x \ensuremath{\in} \ensuremath{\mathbb{R}^{d}}",
    ),
    (
        "σ: R → R",
        r"\ensuremath{\sigma}: \ensuremath{\mathbb{R}} \ensuremath{\to} "
        r"\ensuremath{\mathbb{R}}",
    ),
    ("θ̇ = −g", r"\ensuremath{\dot{\theta}} = \ensuremath{-}g"),
    ("s² ~ Beta", r"s\textsuperscript{2} \ensuremath{\sim} Beta"),
    (
        "(1 − s²)^((d−3)/2)",
        r"(1 \ensuremath{-} s\textsuperscript{2})\textsuperscript{(d"
        r"\ensuremath{-}3)/\allowbreak{}\allowbreak{}2}",
    ),
    ("d_out ≥ 1", r"d\textsubscript{out} \ensuremath{\geq} 1"),
    ("RELU → R2", r"RELU \ensuremath{\to} R2"),  # no ℝ inside a word
]


@pytest.mark.parametrize(("text", "expected"), PROSE)
def test_prose(text, expected):
    assert prose(text) == expected


def test_a_middle_bar_keeps_its_left_and_right():
    """₀F₁(; d/2; β²) prints with \\middle|, which TeX accepts only between \\left and
    \\right: the breakable form must not make those fixed-size (it did: "Missing }")."""
    import sympy

    from symbolic.render.latex_breaks import breakable
    from symbolic.render.latex_printer import latex

    d, beta = sympy.symbols("d beta", positive=True)
    code = breakable(latex(sympy.hyper((), (d / 2,), beta**2)))
    assert code.count(r"\left") == code.count(r"\right") >= 1 and r"\middle" in code


def test_a_fact_over_the_half_line_prints_its_interval():
    """A kernel fact ``∀ t ∈ (0, ∞): …`` keeps its interval in the LaTeX document (a dead second
    quantifier rule of the printer, reachable only by a look-alike class, said ``t ∈ ℝ``)."""
    from symbolic.engine import Step
    from symbolic.kernel import check_zero_on
    from symbolic.render.latex_steps import step_latex

    half_line = sympy.Interval.open(0, sympy.oo)
    fact = check_zero_on((t**2 - 1) - (t - 1) * (t + 1), t, half_line)
    assert fact.verdict.status == "proved" and fact.formula.domain == half_line
    code = step_latex(1, Step(fact, "expand"))
    assert r"\forall t \in \left(0, \infty\right)\colon" in code
    assert r"\mathbb{R}" not in code
    assert "∀ t ∈ (0, ∞): " in Step(fact, "expand").statement


# --- printing once per sub-expression ------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sympy.printing.latex import LatexPrinter  # noqa: E402

from symbolic.render.latex_printer import ProofsLatexPrinter  # noqa: E402


class _SympysMatMul(ProofsLatexPrinter):
    """The project's printer with SymPy's own matrix products, parentheses and no memo."""

    _print_MatMul = LatexPrinter._print_MatMul
    parenthesize = LatexPrinter.parenthesize

    def _print(self, expr, **kwargs):
        return self._print_once(expr, **kwargs)


A, B, C = (sympy.MatrixSymbol(n, 3, 3) for n in "ABC")
_MATRICES = st.recursive(
    st.sampled_from([A, B, C, A.T, -B]),
    lambda kids: st.one_of(
        st.tuples(kids, kids).map(lambda p: p[0] * p[1]),
        st.tuples(kids, kids).map(lambda p: p[0] + p[1]),
        st.tuples(st.sampled_from([-3, -1, 2, sympy.Rational(-1, 2)]), kids).map(
            lambda p: sympy.MatMul(p[0], p[1])
        ),
        kids.map(lambda m: m.T),
    ),
    max_leaves=6,
)


@settings(max_examples=40, deadline=None)
@given(_MATRICES)
def test_matrix_products_print_as_sympy_prints_them(m):
    """The sign and parentheses of a matrix product read off its leading factor (SymPy negates
    the whole product, a doit, to ask) print exactly what SymPy's rules print."""
    assert ProofsLatexPrinter().doprint(m) == _SympysMatMul().doprint(m)


def _tower(depth: int) -> sympy.Expr:
    e = x
    for k in range(depth):
        e = 1 + (x + k) / (e * (a + k))
    return e


@pytest.mark.parametrize("breakable", [False, True])
@pytest.mark.parametrize("depth", [3, 14])
def test_each_part_is_printed_once_and_as_without_the_memo(breakable, depth, monkeypatch):
    """A breakable fraction measures its parts and, when they fit, SymPy prints them again
    (and a report prints the same σ(…) in many places): each sub-expression is printed once per
    printer and state, and the code is what printing everything afresh gives."""
    seen = []
    once = ProofsLatexPrinter._print_once

    def counted(self, e, **kw):
        if type(self) is ProofsLatexPrinter:
            state = (self._settings["mul_symbol_latex"], self._function_name)
            seen.append((sympy.srepr(e), state, tuple(sorted(kw.items()))))
        return once(self, e, **kw)

    monkeypatch.setattr(ProofsLatexPrinter, "_print_once", counted)
    e = _tower(depth) + sigma(_tower(depth) / 3) * (A * B - 2 * C.T)[0, 1]
    code = ProofsLatexPrinter({"breakable": breakable}).doprint(e)
    assert code == _SympysMatMul({"breakable": breakable}).doprint(e)
    assert len(seen) == len(set(seen))
