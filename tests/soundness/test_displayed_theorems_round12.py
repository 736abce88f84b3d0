"""Red-team round 12: the toolkit's own theorems as displayed (docs/theory.md B, C1).

Truth is established here independently of the toolkit: the capacities by mpmath quadrature
of the activations written out below (not the toolkit's table), the exact values by hand.

* A closed form stated for a law must be that law's capacity: hardtanh, ReLU6 and hard-swish
  are polynomials on |s| ≤ 1 only, and the Gaussian law weighs |s| > 1 (hardtanh at d = 4:
  true M*_gated,gaussian = 7.6733…, the old statement said 1 + d²/3 = 6.333…).
* A number shown after "=" is the exact value (8195/3, not 2,731.67); a certified interval is
  shown with the ends the statement holds, not rounded inward.
"""

from __future__ import annotations

import re
from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs import capacity as capacity_proofs
from proofs import tied_memory
from symbolic.memory.capacity import interval_text, store_capacity
from symbolic.memory.capacity_formulas import enclosure_ends, exact_text, value_text
from symbolic.memory.similarity_law import d_

mpmath.mp.dps = 30


def _clip(z, lo, hi):
    return min(max(z, lo), hi)


# the activations of the closed-form tied claims, written out independently of the table
ACTS = {
    "identity": lambda z: z,
    "relu": lambda z: max(z, 0),
    "leaky_relu": lambda z: z if z > 0 else z / 100,
    "abs": abs,
    "relu2": lambda z: max(z, 0) ** 2,
    "relu3": lambda z: max(z, 0) ** 3,
    "hardtanh": lambda z: _clip(z, -1, 1),
    "relu6": lambda z: _clip(z, 0, 6),
    "hardswish": lambda z: z * _clip(z + 3, 0, 6) / 6,
}


def true_capacity(act: str, form: str, law: str, d: int) -> mpmath.mpf:
    """``1 + f(1)²/E[f(s)²]`` by mpmath quadrature of f itself under the law."""
    sigma = ACTS[act]
    f = (lambda z: sigma(z * z)) if form == "sym" else (lambda z: sigma(z) * z)
    d = mpmath.mpf(d)
    if law == "gaussian":
        rho = lambda z: mpmath.sqrt(d / (2 * mpmath.pi)) * mpmath.exp(-d * z * z / 2)  # noqa: E731
        cuts = [-mpmath.inf, -6, -3, -1, 0, 1, 3, 6, mpmath.inf]
    else:
        c = mpmath.gamma(d / 2) / (mpmath.sqrt(mpmath.pi) * mpmath.gamma((d - 1) / 2))
        rho = lambda z: c * (1 - z * z) ** ((d - 3) / 2)  # noqa: E731
        cuts = [-1, 0, 1]
    second = mpmath.quad(lambda z: f(z) ** 2 * rho(z), cuts)
    return 1 + f(mpmath.mpf(1)) ** 2 / second


def _conjuncts(statement: sympy.Basic) -> list[sympy.Eq]:
    return list(statement.args) if isinstance(statement, sympy.And) else [statement]


@pytest.mark.parametrize("act", ["hardtanh", "relu6", "hardswish", "relu", "leaky_relu"])
def test_every_stated_tied_capacity_is_that_laws_capacity(act):
    """Each ``M*_form,law = closed form`` of tied.capacity-<act> holds at d = 4 (and d = 3),
    where the Gaussian law puts visible weight beyond |s| = 1."""
    statement = tied_memory.capacity_statement(act)
    seen = set()
    for eq in _conjuncts(statement):
        form, law = str(eq.lhs).removeprefix("M*_").split(",")
        seen.add((form, law))
        for d in (3, 4):
            stated = (
                mpmath.mpf(sympy.Rational(eq.rhs.subs(d_, d)).p)
                / sympy.Rational(eq.rhs.subs(d_, d)).q
            )
            truth = true_capacity(act, form, law, d)
            assert abs(stated - truth) <= mpmath.mpf(10) ** -12 * truth, (act, form, law, d)
    assert ("sym", "exact") in seen and ("gated", "exact") in seen


def test_partial_polynomial_claims_say_which_law_they_cover():
    result = tied_memory.closed_result("hardtanh", 4)
    assert "gaussian" not in str(result.claim.statement)
    assert "exact law only" in result.claim.note
    assert result.status == "proved"


MOMENT_STORES = ("relu2", "relu3", "relu4", "softmax")  # rational, rational, …, transcendental
# a number after "=" that ends the expression (not "= 2*d + 1", not "= 8195/3")
NUMBER_AFTER_EQUALS = re.compile(
    r"= (-?[0-9][0-9,]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)(?=$|[ );]|, )(?! ?[*/+^-])"
)


@pytest.mark.parametrize("name", MOMENT_STORES)
def test_numbers_after_equals_are_exact(name):
    """``M*_gauss = 2*d**2/3 + 1 = 2,731.67`` showed a rounded value as an equality."""
    cap = store_capacity(name, 64)
    result = capacity_proofs.store_result(cap)
    values = {d_: 64, sympy.Symbol("beta", positive=True): 8}
    exact = {
        law: sympy.nsimplify(cap.store.theory(law).subs(values).subs({"beta": 8}))
        for law in ("gaussian", "exact")
    }
    notes = [step.note or "" for step in result.derivation.steps]
    texts = [result.claim.note] + [note for note in notes if "M*" in note]
    for text in texts:
        for number in NUMBER_AFTER_EQUALS.findall(text):
            if "d = " + number in text or "β = " + number in text:
                continue
            shown = Fraction(number.replace(",", ""))
            assert any(v.is_Rational and Fraction(str(v)) == shown for v in exact.values()), (
                name,
                number,
                text,
            )


def test_certified_interval_shown_as_stated():
    """The SwiGLU interval was printed rounded to 8 digits (its lower end rounded up)."""
    cap = store_capacity("swiglu", 64)
    result = capacity_proofs.store_result(cap)
    for law in ("gaussian", "exact"):
        lo, hi = enclosure_ends(cap, law)
        shown = f"[{exact_text(lo)}, {exact_text(hi)}]"
        assert shown in result.claim.note
        truth = true_swiglu(law, 64)
        assert lo <= sympy.Rational(str(mpmath.nstr(truth, 25))) <= hi


def true_swiglu(law: str, d: int) -> mpmath.mpf:
    f = lambda z: z * z / (1 + mpmath.exp(-z))  # noqa: E731  silu(s)·s
    d = mpmath.mpf(d)
    if law == "gaussian":
        rho = lambda z: mpmath.sqrt(d / (2 * mpmath.pi)) * mpmath.exp(-d * z * z / 2)  # noqa: E731
        cuts = [-mpmath.inf, -1, 0, 1, mpmath.inf]
    else:
        c = mpmath.gamma(d / 2) / (mpmath.sqrt(mpmath.pi) * mpmath.gamma((d - 1) / 2))
        rho = lambda z: c * (1 - z * z) ** ((d - 3) / 2)  # noqa: E731
        cuts = [-1, 0, 1]
    return 1 + f(mpmath.mpf(1)) ** 2 / mpmath.quad(lambda z: f(z) ** 2 * rho(z), cuts)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(-(10**9), 10**9),
    st.integers(0, 6),
    st.integers(0, 6),
    st.sampled_from([1, 3, 7, 21]),
)
def test_exact_text_is_exact(p, twos, fives, other):
    r = sympy.Rational(p, 2**twos * 5**fives * other)
    text = exact_text(r)
    if "/" in text:
        q = int(r.q)
        for prime in (2, 5):
            while q % prime == 0:
                q //= prime
        assert q != 1
        num, den = text.split("/")
        assert sympy.Rational(int(num), int(den)) == r
    else:
        assert Fraction(text.replace(",", "")) == Fraction(int(r.p), int(r.q))
    shown = value_text(r, float(r))
    if "≈" not in shown:
        assert Fraction(shown.removeprefix("= ").replace(",", "")) == Fraction(int(r.p), int(r.q))
    assert value_text(sympy.exp(14) + 1, 1.2e6).startswith("≈")


def test_oracle_certificate_encloses_the_true_second_moment():
    """The SwiGLU oracle's printed E[f(s)²] interval (nearest-rounded before) encloses the
    value mpmath computes, and is the outward rounding of the certified enclosure."""
    cap = store_capacity("swiglu", 64)
    for law in ("gaussian", "exact"):
        shown = cap.law(law).capacity.certificate
        lo, hi = (Fraction(x.replace(",", "")) for x in shown.split("∈ [")[1][:-1].split(", "))
        f1 = 1 / (1 + mpmath.exp(-1))
        second = f1**2 / (true_swiglu(law, 64) - 1)
        assert lo <= Fraction(mpmath.nstr(second, 30)) <= hi


@settings(max_examples=30, deadline=None)
@given(
    st.floats(1e-12, 1e12, allow_nan=False),
    st.floats(0, 1e-3),
    st.integers(3, 15),
)
def test_interval_text_is_outward(x, rel, places):
    lo = mpmath.mpf(x)
    hi = lo * (1 + mpmath.mpf(rel))
    text = interval_text(lo, hi, places)
    a, b = (Fraction(t.replace(",", "")) for t in text[1:-1].split(", "))
    assert a <= Fraction(float(lo)) and Fraction(float(hi)) <= b


def test_crossing_certificate_is_the_stated_bracket():
    """The oracle's printed ``ln M* ∈ [a, b]`` was rounded to nearest (narrower than the
    ``∃ x ∈ [a, b]`` its statement holds); now it is that bracket, and it holds the root."""
    from symbolic.memory.capacity import rational
    from symbolic.memory.schedules import crossing_facts, first_crossing

    crossing = first_crossing("constant", "exact", 64, 8, 2048)
    (fact,) = crossing_facts("constant", "exact", crossing, 64, rational(8), 2048)
    exists = next(a for a in fact.formula.args if "∃" in str(a) or "Exists" in type(a).__name__)
    lo, hi = exists.domain.inf, exists.domain.sup
    assert fact.verdict.certificate == f"ln M* ∈ [{exact_text(lo)}, {exact_text(hi)}]"
    # the crossing of ln(M − 1) − 2β + ln ₀F₁(; d/2; β²) = 0 at β = 8, d = 64, by mpmath
    root = mpmath.findroot(
        lambda x: mpmath.log(mpmath.exp(x) - 1) - 16 + mpmath.log(mpmath.hyp0f1(32, 64)), 14
    )
    assert lo <= sympy.Rational(mpmath.nstr(root, 25)) <= hi


def test_isr_lemma_states_general_m():
    """isr-weights said "(M−1)E[f(s)²]" for every M but stated identities of 4 memories only."""
    result = capacity_proofs.isr_lemma()
    assert result.status == "proved"
    sums = [e for e in sympy.preorder_traversal(result.claim.statement) if isinstance(e, sympy.Sum)]
    assert any(str(e.limits[0][2]) == "M" for e in sums)
    m = sympy.Symbol("M", integer=True, positive=True)
    counted = [
        eq
        for eq in _conjuncts(result.claim.statement)
        if isinstance(eq.lhs, sympy.Sum) and eq.lhs.function.free_symbols.isdisjoint({m})
    ]
    assert counted and all(sympy.simplify(eq.lhs.doit() - eq.rhs) == 0 for eq in counted)
    assert "4 memories" in result.claim.note


def test_elementwise_sigma_prints_as_sigma():
    """The text of A2's statements showed ``Lambda(u, sigma(u)).(…)`` where the LaTeX and the
    paper write ``σ(…)``; a known function is left as SymPy writes it."""
    from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

    from proofs import absorption
    from symbolic.render.formula_text import text

    shown = text(absorption.ABSORPTION.statement)
    assert shown == "σ((x*Q)*K.T)*V = σ(x*(K*Q.T).T)*V"
    u, X = sympy.Symbol("u"), sympy.MatrixSymbol("X", 2, 2)
    assert "Lambda" in text(ElementwiseApplyFunction(sympy.Lambda(u, sympy.exp(u)), X))


def _step_references(rule: str) -> set[int]:
    """The step numbers a rule's text names: ``step 5``, ``steps 1, 2 and 4``, ``steps 1–3``."""
    out: set[int] = set()
    for m in re.finditer(r"steps? ((?:\d+(?:\s*[–-]\s*\d+)?(?:,\s*|\s+and\s+)?)+)", rule):
        for part in re.split(r",\s*|\s+and\s+", m.group(1).strip()):
            if re.fullmatch(r"\d+\s*[–-]\s*\d+", part):
                a, b = map(int, re.split(r"\s*[–-]\s*", part))
                out |= set(range(a, b + 1))
            elif part.isdigit():
                out.add(int(part))
    return out


def test_rule_texts_name_the_premises_the_kernel_used():
    """rank_r.gl's step 6 read "by step 1 inside unit j's output" while the kernel's rule took
    step 5: a rule's text may name steps only if they are its premises."""
    from proofs import absorption, rank_r

    for derivation in (
        rank_r.gl_r(),
        rank_r.exchange(),
        absorption.absorption(),
        absorption.mlp_is_static_query(),
        absorption.with_biases(),
    ):
        steps = derivation.steps
        index = {id(s.fact): i for i, s in enumerate(steps, 1)}
        for i, step in enumerate(steps, 1):
            named = _step_references(step.rule)
            if step.fact.rule and named:
                used = {index[id(p)] for p in step.fact.parts if id(p) in index}
                assert named == used, (i, step.rule, sorted(used))
