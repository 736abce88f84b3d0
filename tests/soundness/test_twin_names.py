"""Two different symbols that print alike get no verdict (symbolic/kernel/shown_names.py).

``alpha`` (positive) and ``α`` (negative) are two variables, and ``alpha > α`` is true; but the
text printer shows ``α > α`` and LaTeX ``\\alpha > \\alpha``: a false statement shown proved.
So were ``x > x`` (two x, other assumptions) and ``x1 > x_1`` (LaTeX: x₁ > x₁). The truth of
"prints alike" is the project's own printers' output, compared in each test.
"""

from __future__ import annotations

import unicodedata

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import claim, equal, valid
from symbolic.errors import InvalidArgument
from symbolic.kernel import ForAll, check_valid_formula
from symbolic.render.formula_text import text
from symbolic.render.latex_printer import latex


def _alike(a: sympy.Basic, b: sympy.Basic) -> bool:
    return text(a) == text(b) or _typeset(latex(a)) == _typeset(latex(b))


def _typeset(code: str) -> str:
    """LaTeX code as set: a Unicode Greek letter is its command (``latex_symbols``), an empty
    script nothing."""
    code = code.replace("_{}", "").replace("^{}", "")
    out = []
    for ch in code:
        name = unicodedata.name(ch, "")
        if name.startswith(("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")):
            letter = name.rsplit(" ", 1)[1].lower()
            ch = "\\" + (letter if "SMALL" in name else letter.capitalize())
        out.append(ch)
    return "".join(out)


POS, NEG = {"positive": True}, {"negative": True}
TWINS = [
    (sympy.Symbol("alpha", **POS), sympy.Symbol("α", **NEG)),
    (sympy.Symbol("x", **POS), sympy.Symbol("x", **NEG)),
    (sympy.Symbol("x1", **POS), sympy.Symbol("x_1", **NEG)),
    (sympy.Symbol("sigma", **POS), sympy.Symbol("σ", **NEG)),
    (sympy.Symbol("Theta_1", **POS), sympy.Symbol("Θ1", **NEG)),
    (sympy.Symbol("t", **POS), sympy.Symbol("t_", **NEG)),  # LaTeX t_{}: an empty subscript
]


@pytest.mark.parametrize(("a", "b"), TWINS, ids=lambda s: s.name)
def test_a_true_relation_between_twins_is_not_proved(a, b):
    assert _alike(a, b)  # the premise: the printers show them alike
    fact = check_valid_formula(sympy.Gt(a, b, evaluate=False))
    assert fact.undecided and "print alike" in fact.reason


def test_through_the_api_the_claim_is_unknown_and_says_why():
    a, b = TWINS[0]

    @claim("twins.api")
    def twins():
        yield valid(sympy.Ne(a, b, evaluate=False))

    result = twins()
    assert result.status == "unknown" and "rename one" in result.reason


def test_twin_functions_are_twins_too():
    f, f_real = sympy.Function("f"), sympy.Function("f", real=True)
    y = sympy.Symbol("y", real=True)
    assert _alike(f(y), f_real(y))
    result = equal(sympy.Mul(2, f_real(y), evaluate=False) + f(y) - f_real(y), f(y) + f_real(y))
    assert not result.fact.proved and "print alike" in result.fact.reason


def test_names_that_print_apart_are_decided():
    """``x`` and ``_x`` (a Dummy), and ``Kj``/``K_j`` print apart."""
    pairs = [
        (sympy.Symbol("x", **POS), sympy.Dummy("x", **NEG)),
        (sympy.Symbol("K_j", **POS), sympy.Symbol("Kj", **NEG)),
    ]
    for a, b in pairs:
        assert check_valid_formula(sympy.Gt(a, b, evaluate=False)).proved, (a, b)


def test_a_conjunction_of_lemmas_may_reuse_a_letter():
    """Each conjunct is read apart (the theorem modules conjoin lemmas whose ``a`` is real in
    one and nonzero in another, each shown as a step of its own)."""
    a_real, a_nonzero = sympy.Symbol("a", real=True), sympy.Symbol("a", nonzero=True, real=True)
    both = sympy.And(
        sympy.Ge(a_real**2, 0, evaluate=False), sympy.Gt(a_nonzero**2, 0, evaluate=False)
    )
    assert check_valid_formula(both).proved
    mixed = sympy.And(sympy.Gt(a_nonzero**2 + a_real**2, 0, evaluate=False), sympy.true)
    assert check_valid_formula(mixed).undecided


def test_a_quantifier_refuses_a_twin_of_its_variable_in_its_body():
    alpha, greek = sympy.Symbol("alpha", real=True), sympy.Symbol("α", positive=True)
    with pytest.raises(InvalidArgument, match="print alike"):
        ForAll((alpha,), sympy.Gt(alpha**2 + greek, 1, evaluate=False))


NAMES = [
    "x",
    "x1",
    "x_1",
    "alpha",
    "α",
    "beta",
    "β",
    "lambda",
    "lamda",
    "λ",
    "t",
    "t_",
    "θ0",
    "K_j",
    "Kj",
]
KINDS = [{"real": True}, POS, NEG, {"integer": True}]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(KINDS), st.data())
def test_only_symbols_the_printers_show_alike_are_left_undecided(n1, n2, k1, data):
    """Against the printers themselves: a relation between two different symbols is refused
    exactly when the text or LaTeX printer shows them alike."""
    k2 = data.draw(st.sampled_from([k for k in KINDS if (n1, k) != (n2, k1)]))
    a, b = sympy.Symbol(n1, **k1), sympy.Symbol(n2, **k2)
    fact = check_valid_formula(sympy.Ne(a, b + 1, evaluate=False))
    twins = "print alike" in fact.reason
    assert twins == _alike(a, b)
    if twins:
        assert fact.undecided


def test_the_case_split_point_prints_apart_from_the_users_symbols():
    """``check_identity`` splits x into t, −t, 0 with a fresh positive t; beside a user's t it
    was ``t_``, which LaTeX sets as ``t_{}``: t again."""
    from symbolic.kernel import check_identity

    x = sympy.Symbol("x", real=True)
    users = [sympy.Symbol(n, positive=True) for n in ("t", "u", "t_2")]
    fact = check_identity(x**3 * users[1], x * users[0] ** 2 * users[2], x)
    assert not fact.proved  # false at x = 1, t = 2
    bound = {v for p in fact.parts if isinstance(p.formula, ForAll) for v in p.formula.variables}
    assert bound and not any(_alike(v, s) for v in bound for s in users)
