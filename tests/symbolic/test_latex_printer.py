"""The project's LaTeX printer, rule by rule, as exact strings (latexify_py style), and the
SymPy-syntax spans of prose."""

from __future__ import annotations

import doctest

import pytest
import sympy

from symbolic import latex_printer
from symbolic.activations import SELU_ALPHA, SELU_SCALE
from symbolic.latex import prose
from symbolic.latex_printer import latex, parse_span, sympy_spans

x, a, b = sympy.symbols("x a b", real=True)
z = sympy.Symbol("z")
sigma = sympy.Function("sigma")
Q = sympy.MatrixSymbol("Q", 3, 3)


class ForAll(sympy.Basic):
    """The shape of symbolic.kernel.logic.ForAll: ``variables`` and ``body``."""

    @property
    def variables(self):
        return self.args[0]

    @property
    def body(self):
        return self.args[1]


class Exists(ForAll):
    pass


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
    (sympy.Piecewise((z, z > 0), (sympy.exp(z) - 1, True)),
     r"\begin{cases} z & \text{for}\: z > 0 \\\mathrm{e}^{z} - 1 & \text{otherwise} \end{cases}"),
    (ForAll(sympy.Tuple(a, b), sympy.Eq(sigma(a) * b, sigma(b) * a)),
     r"\forall a, b \in \mathbb{R}\colon b \sigma\left(a\right) = a \sigma\left(b\right)"),
    (Exists(sympy.Tuple(z), sympy.Eq(z, 1)), r"\exists z\colon z = 1"),
    (sympy.Implies(sympy.Eq(a, 1), sympy.Ne(b, 0)), r"a = 1 \Rightarrow b \neq 0"),
]


@pytest.mark.parametrize(("expr", "expected"), RULES)
def test_rule(expr, expected):
    assert latex(expr) == expected


SPANS = [
    ("2*d**2/3 + 1", r"\frac{2 d^{2}}{3} + 1"),
    ("exp(-2*beta**2/d + 2*beta) + 1", r"\mathrm{e}^{- \frac{2 \beta^{2}}{d} + 2 \beta} + 1"),
    ("besseli(d/2 - 1, 2*beta)", r"I_{\frac{d}{2} - 1}\left(2 \beta\right)"),
    ("tanh(log(1 + E))", r"\tanh{\left(\log{\left(1 + \mathrm{e} \right)} \right)}"),
    ("5253504936777402467096674926473/5000000000000000000000000000000",
     r"\lambda_{\mathrm{SELU}}"),
    ("Piecewise((z, z > 0), (exp(z) - 1, True))",
     r"\begin{cases} z & \text{for}\: z > 0 \\\mathrm{e}^{z} - 1 & \text{otherwise} \end{cases}"),
]


@pytest.mark.parametrize(("text", "expected"), SPANS)
def test_sympy_span(text, expected):
    assert sympy_spans(text) == [(0, len(text), expected)]


@pytest.mark.parametrize("text", ["relu(s)", "a/b", "M*_gauss", "x + y", "(", "2**", "__import__"
                                  "('os')", "1/0"])
def test_text_that_is_no_sympy_syntax_is_left_alone(text):
    assert sympy_spans(text) == [] or parse_span(text) is not None


PROSE = [
    ("M* = 2*d**2/3 + 1 at d = 64", r"M\textsuperscript{*} = $\frac{2 d^{2}}{3} + 1$ at d = 64"),
    ("σ(2·-1)", r"\ensuremath{\sigma}(2\ensuremath{\cdot}\ensuremath{-}1)"),
    ("b_qKᵀ + b_k", r"b\textsubscript{q}K\textsuperscript{\ensuremath{\top}} + b\textsubscript{k}"),
    ("(xQ + 1b_q)Kᵀ + 1b_k", r"(xQ + 1b\textsubscript{q})K\textsuperscript{\ensuremath{\top}}"
     r" + 1b\textsubscript{k}"),  # the ones column times b_q: a subscript, not "1b q"
    ("exchange_lemma x1_a", r"exchange\_\allowbreak{}lemma x1\_\allowbreak{}a"),
    ("10^456.3393", r"10\textsuperscript{456.3393}"),
    ("1.2e+06 memories", r"$1.2\times 10^{6}$ memories"),
    ("E[exp(2βs)]", r"E[\ensuremath{\exp}(2\ensuremath{\beta}s)]"),
]


@pytest.mark.parametrize(("text", "expected"), PROSE)
def test_prose(text, expected):
    assert prose(text) == expected
