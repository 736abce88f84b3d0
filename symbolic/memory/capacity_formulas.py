"""The formulas the capacity claims are stated in (``proofs.capacity``, ``proofs.tied_memory``).

A claim's statement is a formula and its derivation ends in a kernel fact with exactly that
formula. The builders here write formulas *without evaluating them* (``put``), so a step relates
a formula (``1 + 2·64``, ``E[s⁴] = (1/2)(3/2)/((d/2)(d/2 + 1))``) to its value, never a number
computed in Python to itself; ``capacity_chain`` is the derivation of a capacity: the definition
``M* := 1 + f(1)²/E[f(s)²]``, its unfolding, the lemmas' facts put in place (``cong``) and the
kernel's check of the remaining algebra, tied together by ``trans``. Nothing here decides
anything: the kernel's checkers and rules do.

>>> moment_fact("exact", 2).formula
Eq(((1/2 + 1)/2)/(((d/2)*(d/2 + 1))), 3/(d*(d + 2)))
>>> moment_fact("exact", 2).status
'proved'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import mpmath
import sympy

from symbolic.calc import Calc
from symbolic.engine import Step
from symbolic.kernel import (
    Fact,
    ForAll,
    check_bound_on,
    check_compare,
    check_equal,
    check_sign,
    cong,
    conj,
    define,
    literal_replace,
    unfold,
)
from symbolic.memory.capacity import StoreCapacity, exact_text, half_line_squares, outward
from symbolic.memory.similarity_law import LAW_NAMES, LAWS, beta_, d_, mgf2, s
from symbolic.memory.stores import MemoryStore
from symbolic.steps import equal_step

_T = sympy.Symbol("t", positive=True)  # a point of a half-line: s = ±t

HALF = sympy.Rational(1, 2)


def put(expr: sympy.Basic, mapping: dict) -> sympy.Basic:
    """``expr`` with the terms of ``mapping`` put in and nothing evaluated."""
    return literal_replace(sympy.sympify(expr), dict(mapping))


def eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Basic:
    return sympy.Eq(lhs, rhs, evaluate=False)


_SIGN = {
    "positive": sympy.StrictGreaterThan,
    "negative": sympy.StrictLessThan,
    "nonnegative": sympy.GreaterThan,
    "nonpositive": sympy.LessThan,
}


def signed(expr: sympy.Expr, sign: str) -> sympy.Basic:
    """The formula ``expr > 0`` (``positive``), ``expr ≤ 0`` (``nonpositive``), ..."""
    return _SIGN[sign](expr, 0, evaluate=False)


def conjunction(*formulas: sympy.Basic) -> sympy.Basic:
    """A statement of several parts: what ``conj`` concludes from facts of these formulas."""
    return formulas[0] if len(formulas) == 1 else sympy.And(*formulas, evaluate=False)


def concluded(steps: Sequence[Step], parts: Sequence[Step]) -> tuple[Step, ...]:
    """``steps`` closed by the conjunction of the facts of ``parts`` (the claim's statement)."""
    steps = tuple(steps)
    if len(parts) == 1 and steps and steps[-1] is parts[0]:
        return steps
    if len(parts) == 1:
        return steps + (parts[0],)
    where = ", ".join(str(next(i for i, s in enumerate(steps, 1) if s is p)) for p in parts)
    return steps + (Step(conj(*(p.fact for p in parts)), f"conjunction of steps {where}"),)


def identities(rows: Sequence[tuple]) -> tuple[sympy.Basic, tuple[Step, ...]]:
    """``(statement, steps)`` for rows ``(lhs, rhs, rule, note)``: each ``lhs = rhs`` checked
    by SymPy, the statement their conjunction."""
    steps = tuple(
        Step(known, rule, note)
        if (known := _known(lhs, rhs)) is not None
        else equal_step(lhs, rhs, rule, note=note)
        for lhs, rhs, rule, note in rows
    )
    return conjunction(*(eq(r[0], r[1]) for r in rows)), concluded(steps, steps)


def _known(lhs: sympy.Expr, rhs: sympy.Expr) -> Fact | None:
    """A fact checked once and shared (a moment, the Bessel form), when ``lhs = rhs`` is one."""
    if (lhs, rhs) == (mgf2("exact"), BESSEL_FORM):
        return bessel_fact()
    key = _moment_keys().get(lhs)
    if key is not None and rhs == moment_value(*key):
        return moment_fact(*key)
    return None


@cache
def _moment_keys() -> dict[sympy.Expr, tuple[str, int]]:
    """``moment_form(law, k) -> (law, k)``: which shared moment fact a row's left side is."""
    return {moment_form(law, k): (law, k) for law in LAW_NAMES for k in range(1, MAX_MOMENT + 1)}


@cache
def moment_form(law: str, k: int) -> sympy.Expr:
    """``E[s^(2k)]`` under the law: lemma even-moments' formula at ``k``, its rising
    factorials written out, ``(1/2)_k/(d/2)_k = Π_{j<k} (1/2 + j)/(d/2 + j)`` (exact law) or
    ``(2/d)^k (1/2)_k`` (Gaussian), unevaluated."""
    with sympy.evaluate(False):
        top = sympy.Mul(HALF, *(HALF + j for j in range(1, k))) if k > 1 else HALF
        if law == "gaussian":
            return sympy.Mul(sympy.Pow(2 / d_, k), top)
        bottom = sympy.Mul(d_ / 2, *(d_ / 2 + j for j in range(1, k))) if k > 1 else d_ / 2
        return sympy.Mul(top, sympy.Pow(bottom, -1))


@cache
def moment_value(law: str, k: int) -> sympy.Expr:
    """``(2k−1)!!/(d(d+2)⋯(d+2k−2))`` (exact law) or ``(2k−1)!!/d^k`` (Gaussian)."""
    below = sympy.Mul(*(d_ + 2 * j for j in range(k))) if law == "exact" else d_**k
    return sympy.factorial2(2 * k - 1) / below


@cache
def moment_fact(law: str, k: int) -> Fact:
    """``E[s^(2k)] = moment_value``: the lemma's formula at ``k``, expanded (checked once)."""
    return check_equal(moment_form(law, k), moment_value(law, k))


def by_facts(calc: Calc, facts: Sequence[tuple[Fact, str]]) -> Calc:
    """``calc`` continued by putting each fact ``a = b`` in place of ``a`` in its end
    (``cong``): equals for equals, no simplification."""
    hole = sympy.Dummy("h")
    for fact, rule in facts:
        a = fact.formula.lhs
        if not calc.end.has(a):
            continue
        step = cong(fact, sympy.Lambda(hole, put(calc.end, {a: hole})))
        calc = calc.eq(step.formula.rhs, rule, by=step)
    return calc


def capacity_form(top: sympy.Expr, second: sympy.Expr) -> sympy.Expr:
    """``M* = 1 + f(1)²/E[f(s)²]`` (lemma isr-weights), written out."""
    return sympy.Add(
        1, sympy.Mul(top, sympy.Pow(second, -1, evaluate=False), evaluate=False), evaluate=False
    )


def lemma_facts(law: str, degrees: Sequence[int] = (), mgf: bool = False) -> list[tuple[Fact, str]]:
    """The lemmas' facts for ``E[s^n]``, ``n`` in ``degrees`` (even), or for ₀F₁ (``mgf``)."""
    if mgf:
        return [(bessel_fact(), "₀F₁ as a Bessel function (lemma mgf)")] if law == "exact" else []
    return [(moment_fact(law, n // 2), f"E[s^{n}] (lemma even-moments)") for n in degrees]


MAX_MOMENT = 12  # E[s^24]: the highest even moment a store of this toolkit needs is E[s^12]


def capacity_chain(
    name: str,
    law: str,
    top: sympy.Expr,
    second: sympy.Expr,
    closed: sympy.Expr,
    rule: str,
    symbol: sympy.Symbol,
    facts: Sequence[tuple[Fact, str]] = (),
) -> tuple[Step, ...]:
    """``symbol := 1 + top/second``, then ``symbol = 1 + top/second = … = closed``: the
    definition, its unfolding, the lemmas' ``facts`` put in place, the kernel's check of the
    algebra (``rule``) and the chain (its last step: ``symbol = closed``)."""
    value = capacity_form(top, second)
    definition = Step(
        define(symbol, value),
        "M* = 1 + f(1)²/E[f(s)²] (lemma isr-weights)",
        note=f"{name}, {law} law",
    )
    calc = Calc(symbol).eq(value, "unfold the definition", by=unfold(definition.fact, symbol))
    calc = by_facts(calc, facts)
    calc = calc.eq(closed, rule)
    return (definition,) + calc.steps(note=f"{law}: M* = {sympy.sstr(closed)}")


BESSEL_FORM = sympy.gamma(d_ / 2) * beta_ ** (1 - d_ / 2) * sympy.besseli(d_ / 2 - 1, 2 * beta_)


@cache
def bessel_fact() -> Fact:
    """``₀F₁(; d/2; β²) = Γ(d/2) β^(1−d/2) I_{d/2−1}(2β)``, checked once (lemma mgf, and the
    softmax store through it)."""
    return check_equal(mgf2("exact"), BESSEL_FORM)


# --- the stores' formulas ----------------------------------------------------------------


def second_moment_form(store: MemoryStore, law: str) -> sympy.Expr:
    """``E[f(s)²]`` as the lemmas give it: ``½ Σ_n (c⁺_n + c⁻_n) E[s^n]`` from the half-line
    polynomials ``f(±t)² = Σ c±_n tⁿ`` (the law is even), or the MGF ``E[exp(2βs)]``."""
    if store.expectation == "mgf":
        return mgf2(law)
    plus, minus = half_line_squares(store.weight)
    terms = [
        moment_form(law, n // 2)
        if c == 1
        else sympy.Mul(c, moment_form(law, n // 2), evaluate=False)
        for (n,), c in (plus + minus).terms()
    ]
    total = terms[0] if len(terms) == 1 else sympy.Add(*terms, evaluate=False)
    return sympy.Mul(HALF, total, evaluate=False)


def signal_form(store: MemoryStore) -> sympy.Expr:
    """``f(1)²``, written out."""
    return sympy.Pow(put(store.weight, {s: 1}), 2, evaluate=False)


def mstar(law: str) -> sympy.Symbol:
    """The name ``M*`` of a store's capacity under a law (defined in its derivation)."""
    return sympy.Symbol(f"M*_{law}")  # a name for its value, no assumption the value lacks


def square_degrees(store: MemoryStore) -> list[int]:
    """The powers ``n`` of ``f(t)² + f(−t)² = Σ c_n tⁿ``."""
    return [n for (n,), _ in sum(half_line_squares(store.weight)).terms()]


def checked(rows: Sequence[tuple]) -> tuple[sympy.Basic, tuple[Step, ...]]:
    """Like ``identities``, with sign rows ``(expr, "positive" | ..., rule, note)``."""
    formulas, steps = [], []
    for lhs, rhs, rule, note in rows:
        if isinstance(rhs, str):
            formulas.append(signed(lhs, rhs))
            steps.append(Step(check_sign(lhs, rhs), rule, note))
        else:
            formulas.append(eq(lhs, rhs))
            steps.append(equal_step(lhs, rhs, rule, note=note))
    return conjunction(*formulas), concluded(steps, steps)


def half_line_steps(store: MemoryStore) -> tuple[Step, ...]:
    """``f(±t)² = P±(t)`` for every ``t > 0``, checked by the kernel."""
    steps = []
    for sign, poly in zip((1, -1), half_line_squares(store.weight), strict=True):
        lhs = sympy.Pow(store.weight.xreplace({s: sign * _T}), 2, evaluate=False)
        if lhs == poly.as_expr():  # f(t)² already is P: write f(t) out unevaluated (relu(t)²)
            lhs = sympy.Pow(put(store.weight, {s: sign * _T}), 2, evaluate=False)
        if lhs == poly.as_expr():  # f(t) = t: show the substitution itself
            lhs = sympy.Subs(store.weight**2, s, sign * _T)
        side = "" if sign > 0 else "−"
        steps.append(
            equal_step(
                lhs,
                poly.as_expr(),
                f"substitute s = {side}t, t > 0",
                note=f"f({side}t)² = {sympy.sstr(poly.as_expr())}",
            )
        )
    return tuple(steps)


def store_statement(store: MemoryStore) -> sympy.Basic:
    """``M*_gauss = …  ∧  M*_exact = …``: docs/theory.md's closed forms (the table's)."""
    return conjunction(*(eq(mstar(law), store.theory(law)) for law in ("gaussian", "exact")))


# --- stores without a closed form (certified quadrature) ----------------------------------


def value_text(value: sympy.Expr | None, approx: Any) -> str:
    """How a value is shown after its formula: ``= v`` when it is a rational written exactly,
    ``= p/q ≈ x`` when its decimals do not end, ``≈ x`` (6 digits) otherwise — never a rounded
    number after ``=``. ``approx``: a float, or an mpmath number past the float range."""
    shown = f"{approx:,.6g}" if isinstance(approx, float) else mpmath.nstr(approx, 6)
    if isinstance(value, sympy.Rational):
        text = exact_text(value)
        return f"= {text}" if "/" not in text else f"= {text} ≈ {shown}"
    return f"≈ {shown}"


def enclosure_ends(cap: StoreCapacity, law: str) -> tuple[sympy.Rational, sympy.Rational]:
    """Rational ends outside the certified interval of a quadrature store's ``M*`` under the law."""
    enc = cap.law(law).capacity
    return outward(enc.lo, enc.hi)


def integral_definition(cap: StoreCapacity, law: str) -> sympy.Expr:
    """``1 + f(1)²/∫ f(s)² ρ(s) ds`` at this d: what ``M*`` of a store without a closed form is."""
    lo, hi = LAWS[law].support
    second = put(sympy.Integral(cap.store.weight**2 * LAWS[law].density, (s, lo, hi)), {d_: cap.d})
    return capacity_form(signal_form(cap.store), second)


def enclosed_statement(cap: StoreCapacity, law: str) -> sympy.Basic:
    """``lo ≤ M*_law ≤ hi``, the certified interval."""
    lo, hi = enclosure_ends(cap, law)
    return sympy.And(sympy.LessThan(lo, mstar(law)), sympy.LessThan(mstar(law), hi), evaluate=False)


# --- per-store parts of the lemmas ----------------------------------------------------------


def domination_step(cap: StoreCapacity) -> tuple[sympy.Basic, Step] | None:
    """``M*_exact ≥ M*_gauss`` for one store (lemma gaussian-underestimates): equal when the
    two laws' forms agree, compared at this d otherwise, by the certified intervals for a
    quadrature store; None for least squares (a projection, not weights)."""
    store, values, name = cap.store, {d_: cap.d, beta_: cap.beta}, cap.store.name
    if store.expectation == "projection":
        return None
    if store.expectation == "quadrature":  # the certified intervals of its claim
        lo_e, _ = enclosure_ends(cap, "exact")
        _, hi_g = enclosure_ends(cap, "gaussian")
        formula = sympy.StrictGreaterThan(lo_e, hi_g, evaluate=False)
        fact = check_compare(lo_e, ">", hi_g)
        rule = f"exact arithmetic on the certified enclosures of capacity-{name}"
        note = f"{name}: M*_exact ≥ {lo_e} > {hi_g} ≥ M*_gauss"
    elif store.theory_exact == store.theory_gaussian:
        forms = [
            capacity_form(signal_form(store), second_moment_form(store, law))
            for law in ("exact", "gaussian")
        ]
        formula, fact = eq(*forms), check_equal(*forms)
        rule, note = "the two laws' second moments agree", f"{name}: M*_exact = M*_gauss"
    else:
        sides = [put(store.theory(law), values) for law in ("exact", "gaussian")]
        formula = sympy.StrictGreaterThan(*sides, evaluate=False)
        fact = check_compare(sides[0], ">", sides[1])
        rule = "exact or outward-rounded enclosures of both closed forms"
        note = f"{name}: M*_exact > M*_gauss at d = {cap.d}" + (
            f", β = {cap.beta}" if store.uses_beta else ""
        )
    return formula, Step(fact, rule, note)


def source_step(cap: StoreCapacity, tol: sympy.Rational) -> tuple[sympy.Basic, Step]:
    """``|M*_gauss − source|/source < tol`` for one store (proposition source-table): on the
    closed form, or for every value of a quadrature store's certified interval."""
    name = cap.store.name
    src, values = sympy.Rational(cap.store.source), {d_: cap.d, beta_: cap.beta}
    if cap.gaussian.kind == "closed form":
        with sympy.evaluate(False):
            gap = put(sympy.Abs(cap.store.theory_gaussian - src) / src, values)
        step = Step(
            check_compare(gap, "<", tol),
            "exact or outward-rounded enclosure of the closed form",
            note=f"{name}: |M*_gauss − source|/source < {float(tol):.0%} (source {float(src):g})",
        )
        return sympy.StrictLessThan(gap, tol, evaluate=False), step
    lo, hi = enclosure_ends(cap, "gaussian")  # every value the certificate allows
    gap = sympy.Abs(mstar("gaussian") - src) / src
    formula = ForAll(
        (mstar("gaussian"),),
        sympy.StrictLessThan(gap, tol, evaluate=False),
        domain=sympy.Interval(lo, hi),
    )
    step = Step(
        check_bound_on(gap, mstar("gaussian"), lo, hi, "<", tol),
        f"interval arithmetic over the certified interval of capacity-{name}",
        note=f"{name}: |M*_gauss − source|/source < {float(tol):.0%} for "
        f"every M*_gauss in [{exact_text(lo)}, {exact_text(hi)}]",
    )
    return formula, step
