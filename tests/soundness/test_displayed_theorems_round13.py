"""Red-team round 13: the toolkit's own theorems as displayed (docs/theory.md A7, B; the
dashboard of ``python -m proofs``).

Truth is established here independently of the toolkit: capacities by the closed forms written
out below (second moments of s by hand: E[s^(2k)] = (2k−1)!!/d^k under the Gaussian law,
(2k−1)!!/(d(d+2)⋯(d+2k−2)) under the exact one) in exact rational arithmetic, transcendental
values by mpmath at 50 digits (the Gaussian softmax capacity 1 + exp(2β − 2β²/d), the exact one
by quadrature of the density (1 − s²)^((d−3)/2)), and counts by listing the admitted facts.

* The dashboard counted an admitted fact once per claim resting on it: "21 assumptions" for
  Cauchy's equation, admitted once by scaling.converse; "15 oracle results" for 5.
* ``--json`` capacity intervals were ``[float(v), float(v)]``: ``float(53/3)`` lies above 53/3,
  so the "interval" of a closed form excluded its value; the unit-key least-squares value
  (leading order 2d + 1) was given as an interval although it encloses nothing.
* A capacity past the float range (softmax at d = 4096, β = 1000: 3.4e656) crashed the run
  (OverflowError writing its interval) and was shown "≈ inf"; the "evaluate at d" illustration
  of softmax at d = 4096 exited 2 (Γ(2048) has more than the kernel's 12,000 bits), and a
  schedule without an exact-law crossing (d = 2048, β = 100, YaRN) crashed the statement
  (TypeError): the documented range d ≤ 4096, β ≤ 1000 did not run.
* docs/theory.md A7 said σ(0) = 0 "when p > 0"; it holds for every p ≠ 0 (σ(0) = 2^p·σ(0)).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


# --- truth, independent of the toolkit -------------------------------------------------------


def double_factorial(n: int) -> int:
    out = 1
    while n > 1:
        out, n = out * n, n - 2
    return out


def even_moment(k: int, law: str, d: int) -> Fraction:
    """E[s^(2k)]: (2k−1)!!/d^k (Gaussian), (2k−1)!!/(d(d+2)⋯(d+2k−2)) (exact)."""
    den = d**k if law == "gaussian" else 1
    if law == "exact":
        for j in range(k):
            den *= d + 2 * j
    return Fraction(double_factorial(2 * k - 1), den)


def true_rational_capacity(name: str, law: str, d: int) -> Fraction:
    """1 + f(1)²/E[f(s)²] for the stores whose f² is a monomial on each half-line."""
    if name == "outer_product":  # f = s, f² = s²
        return 1 + 1 / even_moment(1, law, d)
    p = {"relu": 1, "relu2": 2, "relu3": 3, "relu4": 4, "glu_relu": 2}[name]
    return 1 + 1 / (even_moment(p, law, d) / 2)  # relu(s)^p: half the mass


@mpmath.workdps(50)
def true_softmax(law: str, d: int, beta: Fraction) -> mpmath.mpf:
    b = mpmath.mpf(beta.numerator) / beta.denominator
    if law == "gaussian":
        return 1 + mpmath.exp(2 * b - 2 * b * b / d)
    c = mpmath.gamma(mpmath.mpf(d) / 2) / (
        mpmath.sqrt(mpmath.pi) * mpmath.gamma(mpmath.mpf(d - 1) / 2)
    )
    mgf = mpmath.quad(
        lambda s: c * (1 - s * s) ** (mpmath.mpf(d - 3) / 2) * mpmath.exp(2 * b * s), [-1, 0, 1]
    )
    return 1 + mpmath.exp(2 * b) / mgf


def capacity_json(d: int, beta: Fraction) -> dict:
    from symbolic.memory.capacity import store_capacity
    from symbolic.memory.capacity_report import capacity_data

    names = (
        "outer_product",
        "least_squares",
        "relu",
        "relu2",
        "relu3",
        "relu4",
        "glu_relu",
        "softmax",
    )
    caps = {
        n: store_capacity(n, d, sympy.Rational(beta.numerator, beta.denominator)) for n in names
    }
    return capacity_data(caps, {}, d, float(beta), 2048)


# --- the dashboard's count of admitted facts ---------------------------------------------------


def test_dashboard_counts_an_admitted_fact_once():
    """scaling.activation.<σ> rest, through their uses, on the one assumption of
    scaling.converse (Cauchy's multiplicative equation): one assumption, not one per claim."""
    from proofs import scaling
    from proofs.__main__ import Run, dashboard
    from symbolic.engine import Report, resolve_reports

    items = [item for item in scaling.table_items() if item[0] in ("relu", "silu", "gelu")]
    results = scaling.theorem_results() + [
        scaling.activation_result(scaling.analyze_item(label, expr), act, False)
        for label, expr, act in items
    ]
    report = resolve_reports([Report("proofs.scaling", "A7", "A7", tuple(results), ())])[0]
    resting = [r for r in report.results if r.status == "proved" and r.rests_on]
    owners = {(a.kind, a.via or r.claim.name, a.statement) for r in resting for a in r.rests_on}
    assert len(resting) >= 4 and len(owners) == 1  # the truth, listed
    line = dashboard([Run("scaling", report)], 0.0).splitlines()[-1]
    assert f"{len(resting)} proved resting on admitted facts: 1 assumption," in line, line


_FACT = st.tuples(st.sampled_from(["assumption", "oracle"]), st.sampled_from("abc"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["c1", "c2", "c3"]),
            st.lists(st.tuples(_FACT, st.booleans()), max_size=4),
        ),
        max_size=6,
    )
)
def test_admitted_facts_are_the_distinct_ones(claims):
    """A fact inherited through a use (``via``: the claim it belongs to) is the same fact as that
    claim's own: the count is the number of distinct (kind, owner, statement)."""
    from proofs.__main__ import admitted_facts

    results, truth = [], set()
    for name, facts in claims:
        rests = []
        for (kind, owner), inherited in facts:
            via = owner if inherited else ""
            rests.append(
                SimpleNamespace(kind=kind, statement=f"fact {owner}", certificate="", via=via)
            )
            truth.add((kind, via or name, f"fact {owner}"))
        results.append(SimpleNamespace(claim=SimpleNamespace(name=name), rests_on=tuple(rests)))
    assert {f[:3] for f in admitted_facts(results)} == truth


# --- --json capacity intervals -----------------------------------------------------------------


@pytest.mark.parametrize("d", [3, 5, 64, 1000])
def test_json_intervals_enclose_the_closed_forms(d):
    """[lo, hi] of every closed-form capacity holds its exact value (53/3 at d = 5)."""
    data = capacity_json(d, Fraction(3, 2))
    for name in ("outer_product", "relu", "relu2", "relu3", "relu4", "glu_relu"):
        for law in ("gaussian", "exact"):
            lo, hi = data["stores"][name][f"{law}_interval"]
            truth = true_rational_capacity(name, law, d)
            assert Fraction(lo) <= truth <= Fraction(hi), (name, law, d, lo, hi, truth)
    assert data["stores"]["least_squares"]["gaussian_interval"] == [2 * d + 2] * 2
    # unit keys: 2d + 1 is a leading-order value (Monte Carlo 2d + 1 − 1.5/d), no enclosure
    assert data["stores"]["least_squares"]["exact_interval"] is None


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 400), st.fractions(Fraction(1, 4), Fraction(12), max_denominator=8))
def test_json_softmax_intervals_enclose_the_capacity(d, beta):
    data = capacity_json(d, beta)
    for law in ("gaussian", "exact"):
        lo, hi = data["stores"]["softmax"][f"{law}_interval"]
        truth = true_softmax(law, d, beta)
        assert mpmath.mpf(lo) <= truth <= mpmath.mpf(hi), (law, d, beta, lo, hi, truth)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(-(10**6), 10**6).filter(bool),
    st.integers(1, 10**6),
    st.integers(-700, 700),
    st.sampled_from([6, 9, 12, 15]),
)
def test_written_bounds_enclose_and_read_back_exactly(p, q, e, places):
    """``interval_text`` ends, read back as the decimals they are, enclose the value, far
    beyond the float range too (3.4e656 crashed the certificate's text)."""
    from symbolic.memory.capacity import interval_text

    value = Fraction(p, q) * Fraction(10) ** e
    x = sympy.Rational(value.numerator, value.denominator)
    lo_text, hi_text = interval_text(x, x, places)[1:-1].split(", ")
    lo, hi = (Fraction(t.replace(",", "")) for t in (lo_text, hi_text))
    assert lo <= value <= hi
    from symbolic.memory.capacity import float_bound  # the JSON's float ends, outward

    down, up = float_bound(x, up=False), float_bound(x, up=True)
    assert (down == -math.inf or Fraction(down) <= value) and (
        up == math.inf or value <= Fraction(up)
    )


def test_a_capacity_past_the_float_range_is_shown_not_inf():
    """Softmax at d = 4096, β = 1000: M*_gauss = 1 + exp(1511.71875) ≈ 3.39712e656."""
    from proofs.capacity import store_result
    from symbolic.memory.capacity import store_capacity

    result = store_result(store_capacity("softmax", 4096, 1000))
    assert result.status == "proved"
    note = result.claim.note
    assert "inf" not in note
    shown = mpmath.mpf(note.split("≈ ")[1].split(" ")[0])
    truth = 1 + mpmath.exp(mpmath.mpf(2000) - mpmath.mpf(2 * 10**6) / 4096)
    assert abs(shown - truth) <= mpmath.mpf(10) ** -5 * truth


def test_a_huge_evaluation_is_left_out_not_a_bad_input():
    """Softmax's exact law at d = 4096 holds Γ(2048) (19,000 bits): the run exited 2."""
    from proofs.capacity import store_result
    from symbolic.memory.capacity import store_capacity

    result = store_result(store_capacity("softmax", 4096, 8))
    assert result.status == "proved"
    truth = 1 + mpmath.exp(16 - mpmath.mpf(128) / 4096)
    shown = mpmath.mpf(result.claim.note.split("≈ ")[1].split(" ")[0])
    assert abs(shown - truth) <= mpmath.mpf(10) ** -5 * truth


def test_a_schedule_without_an_exact_crossing_states_its_range():
    """YaRN at d = 2048, β0 = 100: no exact-law crossing up to ln M = 10,019.9; the statement
    says ln ISR < 0 on that range (true: at β = 100, ln ISR(2048) < 7.63 − 190.28 by mpmath;
    beyond, ln E[e^(2βs)] − 2β decreases in β while β grows like (ln M)²)."""
    from proofs.capacity import schedule_result
    from symbolic.memory.schedules import first_crossing

    crossings = {law: first_crossing("yarn", law, 2048, 100, 2048) for law in ("gaussian", "exact")}
    result = schedule_result("yarn", crossings, 2048, 100, 2048)
    assert result.status == "proved"
    exact = [a for a in sympy.And.make_args(result.claim.statement) if "hyper" in str(a)]
    assert len(exact) == 1 and "∀" in str(result.derivation.steps[-1].statement)
    assert mpmath.log(2047) + mpmath.log(mpmath.hyp0f1(1024, 10**4)) - 200 < 0


# --- docs/theory.md A7 -------------------------------------------------------------------------


def test_degree_p_homogeneity_needs_sigma_zero_for_every_nonzero_p():
    """σ(z) = 1/|z| (z ≠ 0), σ(0) = 1 meets the old wording for p = −1 (σ(0) free when p < 0)
    but σ(2·0) = 1 ≠ 2^(−1)·σ(0): not homogeneous. The docs now say p ≠ 0, as the claim does."""
    sigma = lambda z: Fraction(1) if z == 0 else 1 / abs(Fraction(z))  # noqa: E731
    assert sigma(2 * 0) != Fraction(1, 2) * sigma(0)
    theory = (ROOT / "docs" / "theory.md").read_text(encoding="utf-8")
    a7 = theory.split("### A7")[1].split("### A8")[0]
    assert "`σ(0) = 0`\n  when `p ≠ 0`" in a7 and "p > 0" not in a7


# --- the text printer shows the formula that was checked ----------------------------------------


def _read_back(text: str, values: dict[str, Fraction]) -> Fraction:
    """The printed text's value, by a walk of its syntax tree (numbers, names, + − * / **)."""
    import ast

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return Fraction(node.value)
        if isinstance(node, ast.Name):
            return values[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = walk(node.left), walk(node.right)
            ops = {
                ast.Add: a.__add__,
                ast.Sub: a.__sub__,
                ast.Mult: a.__mul__,
                ast.Div: a.__truediv__,
            }
            if isinstance(node.op, ast.Pow):
                assert b.denominator == 1
                return a ** int(b)
            return ops[type(node.op)](b)
        raise AssertionError(f"unexpected {ast.dump(node)}")

    return walk(ast.parse(text, mode="eval"))


_X, _Y = sympy.symbols("x y", positive=True)
_LEAVES = st.one_of(
    st.sampled_from([_X, _Y]),
    st.integers(-3, 3).map(sympy.Integer),
    st.tuples(st.integers(-5, 5), st.integers(2, 4)).map(lambda t: sympy.Rational(*t)),
)


def _unevaluated(children):
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda t: sympy.Add(*t, evaluate=False)),
        pair.map(lambda t: sympy.Mul(*t, evaluate=False)),
        pair.map(lambda t: sympy.Mul(t[0], sympy.Pow(t[1], -1, evaluate=False), evaluate=False)),
        children.map(lambda a: sympy.Mul(-1, a, evaluate=False)),
        st.tuples(children, st.sampled_from([-2, -1, 2, 3])).map(
            lambda t: sympy.Pow(t[0], t[1], evaluate=False)
        ),
    )


KNOWN = [  # printed -1*2/5/3, -1/1/2, 1/(-x + 3*2), 1/1/y before
    sympy.Mul(-1, 2, sympy.Pow(sympy.Rational(5, 3), -1, evaluate=False), evaluate=False),
    sympy.Mul(-1, sympy.Pow(sympy.Rational(1, 2), -1, evaluate=False), evaluate=False),
    sympy.Mul(
        sympy.Pow(
            sympy.Add(sympy.Mul(-1, _X, evaluate=False), 3, evaluate=False), -1, evaluate=False
        ),
        sympy.Pow(2, -1, evaluate=False),
        evaluate=False,
    ),
    sympy.Mul(1, sympy.Pow(sympy.Pow(_Y, -1, evaluate=False), -1, evaluate=False), evaluate=False),
]


def _same_value(expr: sympy.Expr) -> None:
    from symbolic.render.formula_text import text

    values = {"x": Fraction(7, 5), "y": Fraction(3, 2)}
    try:
        truth = expr.subs({_X: sympy.Rational(7, 5), _Y: sympy.Rational(3, 2)}).doit()
    except ZeroDivisionError:
        return
    if not truth.is_Rational:  # a division by zero on the way (zoo, nan)
        return
    shown = text(expr)
    try:
        read = _read_back(shown, values)
    except ZeroDivisionError:
        return
    assert read == Fraction(int(truth.p), int(truth.q)), (sympy.srepr(expr), shown)


@pytest.mark.parametrize("expr", KNOWN, ids=range(len(KNOWN)))
def test_printed_products_read_as_the_formula(expr):
    _same_value(expr)


@settings(max_examples=300, deadline=None)
@given(st.recursive(_LEAVES, _unevaluated, max_leaves=8))
def test_printed_arithmetic_reads_back_to_its_value(expr):
    """The text of an unevaluated formula (a derivation's ``put`` substitutes without
    evaluating), read back by its syntax, has the formula's exact value."""
    _same_value(expr)


# --- the LaTeX printer too ---------------------------------------------------------------------


def _latex_value(code: str, values: dict[str, Fraction]) -> Fraction:
    """The value of the LaTeX of rational arithmetic (\\frac, brackets, juxtaposition, ^{n})."""
    import re

    code = re.sub(r"\\(left|right|Bigl|Bigr|allowbreak)", " ", code)
    toks, i = re.findall(r"\\[a-zA-Z]+|\\\*|\d+|[xy]|[-+^{}()]", code), 0

    def peek():
        return toks[i] if i < len(toks) else None

    def eat(expected=None):
        nonlocal i
        tok, i = toks[i], i + 1
        assert expected is None or tok == expected, (expected, tok, code)
        return tok

    def expr():
        v = -term() if peek() == "-" and eat() else term()
        while peek() in ("+", "-"):
            v = v + term() if eat() == "+" else v - term()
        return v

    def term():
        v = factor()
        while (c := peek()) is not None and c not in ("+", "-", ")", "}"):
            if c in (r"\cdot", r"\*"):
                eat()
            v *= factor()
        return v

    def factor():
        if peek() == "-":
            eat()
            return -factor()
        c = eat()
        if c in ("(", "{"):
            v = expr()
            eat(")" if c == "(" else "}")
        elif c == r"\frac":
            eat("{")
            a = expr()
            eat("}")
            eat("{")
            v = a / expr()
            eat("}")
        else:
            v = values[c] if c in values else Fraction(int(c))
        if peek() == "^":
            eat()
            e = factor()
            v = v ** int(e)
        return v

    out = expr()
    assert peek() is None, (toks[i:], code)
    return out


LATEX_KNOWN = [  # printed x - y y and \frac{1}{(-1) - y x y} before
    sympy.Mul(_X, sympy.Mul(sympy.Mul(-1, _Y, evaluate=False), _Y, evaluate=False), evaluate=False),
    sympy.Pow(
        sympy.Mul(
            -1,
            sympy.Mul(
                sympy.Mul(-1, _Y, evaluate=False), sympy.Mul(_X, _Y, evaluate=False), evaluate=False
            ),
            evaluate=False,
        ),
        -1,
        evaluate=False,
    ),
    sympy.Pow(sympy.Pow(-1, -1, evaluate=False), -2, evaluate=False),  # RecursionError before
]


def _same_latex_value(expr: sympy.Expr) -> None:
    from symbolic.render.latex_printer import ProofsLatexPrinter

    try:
        truth = expr.subs({_X: sympy.Rational(7, 5), _Y: sympy.Rational(3, 2)}).doit()
    except ZeroDivisionError:
        return
    if not truth.is_Rational:
        return
    code = ProofsLatexPrinter({}).doprint(expr)  # not memoised: equal trees may differ
    if r"\infty" in code:  # a division by zero inside (1/0**2 is SymPy's zoo)
        return
    try:
        read = _latex_value(code, {"x": Fraction(7, 5), "y": Fraction(3, 2)})
    except ZeroDivisionError:
        return
    assert read == Fraction(int(truth.p), int(truth.q)), (sympy.srepr(expr), code)


@pytest.mark.parametrize("expr", LATEX_KNOWN, ids=range(len(LATEX_KNOWN)))
def test_latex_products_read_as_the_formula(expr):
    _same_latex_value(expr)


@settings(max_examples=300, deadline=None)
@given(st.recursive(_LEAVES, _unevaluated, max_leaves=8))
def test_latex_arithmetic_reads_back_to_its_value(expr):
    _same_latex_value(expr)
