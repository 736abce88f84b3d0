"""Associative-memory capacity: ISR, closed forms under both similarity laws, logit scaling.

docs/theory.md Part B. ``M`` stored pairs of independent uniform unit vectors, a stored key as the
query, ``ISR(M) = E‖interference‖² / E‖signal‖²`` and the capacity ``M*`` with ``ISR(M*) = 1``.
For every store of ``symbolic.memory.stores.STORES`` this module derives the capacity under the
source's Gaussian approximation ``s ~ N(0, 1/d)`` (which reproduces the source's table) and
under the exact finite-d law of ``s`` (density ``∝ (1 − s²)^((d−3)/2)``), the least-squares
store above ``d``, the softmax β that maximizes capacity, and where the logit-scaling
schedules (constant, LogN, YaRN) first reach ``ISR = 1``.

Each claim's statement is a formula. A store's is ``M*_gaussian = … ∧ M*_exact = …`` (THEORY's
closed forms), ``M*_law`` defined as ``1 + f(1)²/E[f(s)²]`` with ``E[f(s)²]`` written in the
lemmas' moments (or ₀F₁); the derivation unfolds it, puts the lemmas' facts in place and checks
the algebra. SwiGLU's capacities and the exact law's crossings are certified outside the
kernel: oracle results with their formulas (``lo ≤ M* ≤ hi``; ``∀ x ≤ x_lo: ln ISR < 0 ∧
∃ x in the bracket: ln ISR > 0``), refused by ``--strict`` like every claim that uses them.

    python -m proofs.capacity [--d 64] [--beta 8] [--training-length 2048] [--json] [--latex F]

``--json`` prints ``{"stores": {name: {"gaussian": M*, "exact": M*, ...}}, "d": ..,
"beta": .., "softmax": {...}, ...}``. Monte Carlo with real vectors:
``python -m numeric_checks.capacity``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

import mpmath
import sympy

from proofs._cli import run
from symbolic.calc import Calc
from symbolic.check import equal_step
from symbolic.engine import Claim, Derivation, Report, Result, Step
from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    ForAll,
    check_bound_on,
    check_compare,
    check_equal,
    define,
    oracle,
    symm,
    undecided,
    unfold,
)
from symbolic.memory.capacity import (
    SOURCE_BETA,
    SOURCE_D,
    SOURCE_TOLERANCE,
    StoreCapacity,
    capacity_expr,
    leading_order_capacity,
    leading_term,
    outward,
    rational,
    store_capacity,
)
from symbolic.memory.capacity_checks import (
    law_checks,
    ls_overload_checks,
    ls_recall_checks,
    mgf_checks,
    moment_checks,
    schedule_checks,
    softmax_beta_checks,
    store_checks,
    swiglu_check,
)
from symbolic.memory.capacity_formulas import (
    BESSEL_FORM,
    HALF,
    capacity_chain,
    capacity_form,
    checked,
    concluded,
    conjunction,
    eq,
    half_line_steps,
    identities,
    lemma_facts,
    moment_form,
    moment_value,
    mstar,
    put,
    second_moment_form,
    signal_form,
    square_degrees,
    store_statement,
)
from symbolic.memory.capacity_report import capacity_data, memories_text, report_json, tables
from symbolic.memory.schedules import (
    QWEN_TRAINING_LENGTH,
    SCHEDULES,
    Crossing,
    crossing_facts,
    first_crossing,
    log_isr,
)
from symbolic.memory.similarity_law import (
    LAW_NAMES,
    LAWS,
    beta_,
    d_,
    exact_normalizer,
    k_,
    mgf2,
    moment,
    s,
)
from symbolic.memory.stores import PART_B

MAX_D = 4096  # largest --d
MAX_BETA = 1000.0  # largest --beta
ORDER = 50  # place in `python -m proofs` (Part B, after Part A)
SOURCE = "B"
MIN_D = 3  # the exact law's density (1 − s²)^((d−3)/2) is bounded only from d = 3 on
CERTIFIED_WIDTH = 1e-3  # a certified numeric capacity must be known to 0.1 % (it is to <1e-4)


# --- lemmas ---------------------------------------------------------------------------------

W = sympy.symbols("w1:5", real=True)  # the weights of four memories
Z, E2, F1 = sympy.symbols("Z E[f(s)^2] f(1)^2", positive=True)
M_ = sympy.Symbol("M", positive=True)


def isr_rows() -> list[tuple]:
    delta = {(m, n): sympy.Symbol(f"c_{m}{n}", real=True) for m in range(4) for n in range(4)}
    norm2 = sum(W[m] * W[n] * delta[m, n] for m in range(4) for n in range(4))
    isr = (M_ - 1) * E2 / F1
    return [
        (
            put(norm2, {c: int(m == n) for (m, n), c in delta.items()}),
            sum(x**2 for x in W),
            "E[v_m·v_n] = δ_mn (independent unit values)",
            "E_v‖Σ_m w_m v_m‖² = Σ_{m,n} w_m w_n E[v_m·v_n] = Σ_m w_m² (shown for 4 memories)",
        ),
        (
            sum((x / Z) ** 2 for x in W[1:]) / (W[0] / Z) ** 2,
            sum(x**2 for x in W[1:]) / W[0] ** 2,
            "cancel Z",
            "Σ_{m≠i}(w_m/Z)² / (w_i/Z)² = Σ_{m≠i} w_m² / w_i²: normalizing leaves ISR",
        ),
        (
            put(isr, {M_: 1 + F1 / E2}),
            1,
            "substitute M = 1 + f(1)²/E[f(s)²]",
            "ISR(M) = (M − 1)E[f(s)²]/f(1)² equals 1 at M* = 1 + f(1)²/E[f(s)²]",
        ),
    ]


def isr_lemma() -> Result:
    statement, steps = identities(isr_rows())
    claim = Claim(
        "isr-weights",
        "ISR of a store with weights f(s)",
        "For w_m = f(s_m) and independent unit values: E‖Σ_{m≠i} w_m v_m‖² = (M−1)E[f(s)²] and "
        "‖w_i v_i‖² = f(1)², so ISR(M) = (M−1)E[f(s)²]/f(1)² and M* = 1 + f(1)²/E[f(s)²]; "
        "normalizing the weights (softmax's 1/Z) leaves the ratio unchanged",
        SOURCE,
        "lemma",
        (
            "values v_m independent of the keys and of each other, uniform on the unit sphere",
            "the query is the stored key k_i, so s_i = k_i·k_i = 1",
        ),
        statement=statement,
    )
    return Result(claim, Derivation(steps))


SP = sympy.Symbol("s", positive=True)  # s > 0: one half of the support
T = sympy.Symbol("t", positive=True)


def law_rows() -> list[tuple]:
    beta_fn = sympy.gamma(HALF) * sympy.gamma((d_ - 1) / 2) / sympy.gamma(d_ / 2)
    beta_density = T ** (-HALF) * (1 - T) ** ((d_ - 3) / 2) / beta_fn
    rho, phi = LAWS["exact"].density, LAWS["gaussian"].density
    return [
        (
            sympy.Mul(SP, put(beta_density, {T: SP**2}), evaluate=False),
            rho.subs(s, SP),
            "s = g₁/‖g‖ (rotation invariance); s² = G₁/(G₁+G₂), G₁ ~ Γ(1/2), G₂ ~ Γ((d−1)/2) "
            "independent, is Beta(1/2, (d−1)/2); density of ±√t: f_s(s) = |s|·f_{s²}(s²)",
            "|s|·Beta(1/2, (d−1)/2)-density(s²) = c_d (1 − s²)^((d−3)/2)",
        ),
        (put(rho, {s: -s}), rho, "(−s)² = s²", "the density is even: ρ(−s) = ρ(s)"),
        (put(phi, {s: -s}), phi, "(−s)² = s²", "the Gaussian density is even too"),
    ]


def law_lemma(d: int) -> Result:
    statement, steps = identities(law_rows())
    claim = Claim(
        "similarity-law",
        "The exact law of the similarity of two unit vectors",
        "s = k·q for independent uniform unit k, q ∈ R^d has density c_d (1 − s²)^((d−3)/2) on "
        "[−1, 1], c_d = Γ(d/2)/(√π Γ((d−1)/2)); s² ~ Beta(1/2, (d−1)/2); both laws are even "
        "(the statement: the change of variables t = s² and the evenness, checked pointwise)",
        SOURCE,
        "lemma",
        (f"d ≥ {MIN_D}",),
        statement=statement,
    )
    numeric = law_checks(d)
    return Result(claim, Derivation(steps), numeric)


P_ = sympy.Symbol("p", integer=True, positive=True)


def moments_rows() -> list[tuple]:
    a = (d_ - 3) / 2
    rho = LAWS["exact"].density
    rows = [
        (
            sympy.Mul(
                2,
                put(s ** (2 * k_) * (1 - s**2) ** a, {s: sympy.sqrt(T)}),
                1 / (2 * sympy.sqrt(T)),
                evaluate=False,
            ),
            T ** (k_ - HALF) * (1 - T) ** a,
            "substitute s = √t on each half-line, ds = dt/(2√t)",
            "∫_{−1}^{1} s^(2k)(1−s²)^a ds = ∫_0^1 t^(k−1/2)(1−t)^a dt",
        ),
        (
            exact_normalizer()
            * sympy.gamma(k_ + HALF)
            * sympy.gamma((d_ - 1) / 2)
            / sympy.gamma(k_ + d_ / 2),
            moment("exact", k_),
            "Euler's Beta integral; gammasimp",
            "c_d·B(k + 1/2, (d−1)/2) = (1/2)_k/(d/2)_k",
        ),
        (
            (2 / d_) ** k_ * sympy.gamma(k_ + HALF) / sympy.sqrt(sympy.pi),
            moment("gaussian", k_),
            "Gaussian moments ∫ s^(2k) N(0, 1/d); gammasimp",
            "E_N[s^(2k)] = (2/d)^k Γ(k+1/2)/√π = (1/2)_k (2/d)^k",
        ),
        (
            put(rho * s ** (2 * P_), {s: -s}),
            rho * s ** (2 * P_),
            "substitute s → −s (the density is even)",
            "s^(2p)ρ(s) is even, so E[relu(s)^(2p)] = ∫_0^1 s^(2p)ρ = E[s^(2p)]/2",
        ),
    ]
    for law in LAW_NAMES:
        for kk in (1, 2, 3):
            rows.append(
                (
                    moment_form(law, kk),
                    moment_value(law, kk),
                    "expand the rising factorials",
                    f"{law}: E[s^{2 * kk}]",
                )
            )
    return rows


def moments_lemma(d: int) -> Result:
    statement, steps = identities(moments_rows())
    claim = Claim(
        "even-moments",
        "Even moments of s under both laws",
        "E[s^(2k)] = (1/2)_k/(d/2)_k = (2k−1)!!/(d(d+2)⋯(d+2k−2)) (exact law) and "
        "(2k−1)!!/d^k (Gaussian); odd moments vanish; E[relu(s)^(2p)] = E[s^(2p)]/2 "
        "(the statement: the substitution, Euler's Beta integral and the evenness as identities "
        "of integrands and Gamma functions)",
        SOURCE,
        "lemma",
        uses=("similarity-law",),
        statement=statement,
    )
    numeric = moment_checks(d)
    return Result(claim, Derivation(steps), tuple(numeric))


def mgf_rows() -> list[tuple]:
    phi = sympy.sqrt(d_ / (2 * sympy.pi)) * sympy.exp(-d_ * s**2 / 2)
    return [
        (
            (2 * beta_) ** (2 * k_) * moment("exact", k_) / sympy.factorial(2 * k_),
            beta_ ** (2 * k_) / (sympy.factorial(k_) * sympy.rf(d_ / 2, k_)),
            "exp series, odd moments vanish; gammasimp",
            "(2β)^(2k) E[s^(2k)]/(2k)! = β^(2k)/(k! (d/2)_k)",
        ),
        (
            mgf2("exact"),
            BESSEL_FORM,
            "₀F₁ as a modified Bessel function (hyperexpand)",
            "₀F₁(; d/2; β²) = Γ(d/2) β^(1−d/2) I_{d/2−1}(2β)",
        ),
        (
            sympy.exp(2 * beta_ * s) * phi,
            sympy.exp(2 * beta_**2 / d_) * phi.subs(s, s - 2 * beta_ / d_),
            "complete the square; the shifted density integrates to 1",
            "exp(2βs)·N(s; 0, 1/d) = exp(2β²/d)·N(s; 2β/d, 1/d)",
        ),
    ]


def mgf_lemma(d: int, beta: sympy.Rational) -> Result:
    statement, steps = identities(mgf_rows())
    claim = Claim(
        "mgf",
        "The moment generating function of s",
        "E[exp(2βs)] = Σ_k β^(2k)/(k!(d/2)_k) = ₀F₁(; d/2; β²) = Γ(d/2) β^(1−d/2) I_{d/2−1}(2β) "
        "(exact law) and exp(2β²/d) (Gaussian) (the statement: the series' terms, the Bessel "
        "form and the completed square)",
        SOURCE,
        "lemma",
        uses=("even-moments",),
        statement=statement,
    )
    numeric = mgf_checks(d, beta)
    return Result(claim, Derivation(steps), tuple(numeric))


def swiglu_enclosure(cap: StoreCapacity, law: str) -> tuple[sympy.Rational, sympy.Rational]:
    """Rational ends outside the certified interval of SwiGLU's ``M*`` under the law."""
    enc = cap.law(law).capacity
    return outward(enc.lo, enc.hi)


def domination_lemma(caps: dict[str, StoreCapacity]) -> Result:
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    rows = [
        (
            moment("exact", k_) / moment("gaussian", k_),
            (d_ / 2) ** k_ / sympy.rf(d_ / 2, k_),
            "gammasimp",
            "E_exact[s^(2k)]/E_N[s^(2k)] = (d/2)^k/(d/2)_k = Π_{j<k} (d/2)/(d/2 + j)",
        ),
        (
            sympy.simplify((d_ / 2) / (d_ / 2 + j) - 1),
            "nonpositive",
            "SymPy assumptions",
            "each factor (d/2)/(d/2 + j) ≤ 1 for j ≥ 0",
        ),
        (
            (beta_ ** (2 * k_) / (sympy.factorial(k_) * sympy.rf(d_ / 2, k_)))
            / ((2 * beta_**2 / d_) ** k_ / sympy.factorial(k_)),
            (d_ / 2) ** k_ / sympy.rf(d_ / 2, k_),
            "gammasimp",
            "the MGF series terms have the same ratio: ₀F₁(; d/2; β²) ≤ exp(2β²/d)",
        ),
    ]
    statement, steps = checked(rows)
    formulas, parts = list(statement.args), list(steps[: len(rows)])
    for name, cap in caps.items():
        store, values = cap.store, {d_: cap.d, beta_: cap.beta}
        if store.expectation == "projection":
            continue
        if store.expectation == "quadrature":  # SwiGLU: the certified intervals of its claim
            lo_e, _ = swiglu_enclosure(cap, "exact")
            _, hi_g = swiglu_enclosure(cap, "gaussian")
            formula = sympy.StrictGreaterThan(lo_e, hi_g, evaluate=False)
            fact = check_compare(lo_e, ">", hi_g)
            rule = "exact arithmetic on the certified enclosures of capacity-swiglu"
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
        formulas.append(formula)
        parts.append(Step(fact, rule, note))
    claim = Claim(
        "gaussian-underestimates",
        "The Gaussian approximation underestimates capacity",
        "E_exact[s^(2k)] ≤ E_N[s^(2k)] and E_exact[exp(2βs)] ≤ exp(2β²/d), termwise because "
        "(d/2)_k ≥ (d/2)^k; hence M*_exact ≥ M*_gauss for every store built from even moments "
        "or the MGF (compared at this d), and, by the certified intervals of capacity-swiglu, "
        "for SwiGLU",
        SOURCE,
        "lemma",
        uses=("even-moments", "mgf", "capacity-swiglu"),
        statement=conjunction(*formulas),
    )
    return Result(
        claim, Derivation(concluded(list(steps[: len(rows)]) + parts[len(rows) :], parts))
    )


# --- the stores ------------------------------------------------------------------------------


def store_result(cap: StoreCapacity) -> Result:
    if cap.store.expectation == "projection":
        return ls_capacity_result(cap)
    if cap.store.expectation == "quadrature":
        return swiglu_result(cap)
    store, d, beta = cap.store, cap.d, cap.beta
    values = {d_: d, beta_: beta}
    g, e = cap.gaussian, cap.exact
    claim = Claim(
        f"capacity-{store.name}",
        f"Capacity of the {store.title} store",
        f"weights {store.weight_text}: M*_gauss = {g.formula} = {g.capacity.mid:,.6g} and "
        f"M*_exact = {e.formula} = {e.capacity.mid:,.6g} at d = {d}"
        + (f", β = {beta}" if store.uses_beta else ""),
        SOURCE,
        uses=("isr-weights", "even-moments", "mgf"),
        statement=store_statement(store),
    )
    steps: list[Step] = list(half_line_steps(store)) if store.expectation == "moments" else []
    chains, values_at = [], []
    for law in ("gaussian", "exact"):
        closed = store.theory(law)
        chain = capacity_chain(
            store.name,
            law,
            signal_form(store),
            second_moment_form(store, law),
            closed,
            "exp(β)² = exp(2β); cancel" if store.expectation == "mgf" else "cancel",
            mstar(law),
            lemma_facts(
                law,
                square_degrees(store) if store.expectation == "moments" else (),
                mgf=store.expectation == "mgf",
            ),
        )
        steps += chain
        chains.append(chain[-1])
        values_at.append(
            equal_step(
                put(closed, values),
                closed.subs(values),
                f"evaluate at d = {d}" + (f", β = {beta}" if store.uses_beta else ""),
                note=f"{law}: M* = {cap.law(law).capacity.mid:,.6g}",
            )
        )
    steps = concluded(steps + values_at, chains)
    numeric = store_checks(store, d, beta)
    return Result(claim, Derivation(steps), tuple(numeric))


def swiglu_definition(cap: StoreCapacity, law: str) -> sympy.Expr:
    """``1 + f(1)²/∫ f(s)² ρ(s) ds`` at this d: what ``M*`` of SwiGLU is."""
    lo, hi = LAWS[law].support
    second = put(sympy.Integral(cap.store.weight**2 * LAWS[law].density, (s, lo, hi)), {d_: cap.d})
    return capacity_form(signal_form(cap.store), second)


def swiglu_enclosed(cap: StoreCapacity, law: str) -> sympy.Basic:
    """``lo ≤ M*_law ≤ hi``, the certified interval."""
    lo, hi = swiglu_enclosure(cap, law)
    return sympy.And(sympy.LessThan(lo, mstar(law)), sympy.LessThan(mstar(law), hi), evaluate=False)


def swiglu_result(cap: StoreCapacity) -> Result:
    store, d = cap.store, cap.d
    g, e = cap.gaussian, cap.exact
    claim = Claim(
        f"capacity-{store.name}",
        f"Capacity of the {store.title} store",
        f"weights {store.weight_text}: M*_gauss = {g.formula} = {g.capacity.mid:,.6g} and "
        f"M*_exact = {e.formula} = {e.capacity.mid:,.6g} at d = {d}; E[f(s)²] has no closed "
        "form: the statement is the certified intervals (oracle results)",
        SOURCE,
        uses=("isr-weights", "even-moments", "mgf"),
        statement=conjunction(*(swiglu_enclosed(cap, law) for law in ("gaussian", "exact"))),
    )
    n, c = leading_term(store.weight**2)
    steps = [
        equal_step(
            put(sympy.powsimp(sympy.expand(store.weight**2 / s**n)), {s: 0}),
            c,
            "leading term at s = 0",
            note=f"f(s)² = {sympy.sstr(c)}·s^{n} + O(s^{n + 1}): leading-order "
            f"M* = 1 + f(1)²/({sympy.sstr(c)}·E[s^{n}])",
        )
    ]
    parts, numeric = [], []
    for law in LAW_NAMES:
        enc = cap.law(law).capacity
        lead = leading_order_capacity(store, law)
        steps.append(
            Step(
                define(mstar(law), swiglu_definition(cap, law)),
                "M* = 1 + f(1)²/E[f(s)²] (lemma isr-weights)",
                note=f"{law} law",
            )
        )
        formula = swiglu_enclosed(cap, law)
        text = (
            f"{law}: M* ∈ [{enc.lo:,.8g}, {enc.hi:,.8g}] (leading order in 1/d: "
            f"{float(lead.subs({d_: d})):,.6g})"
        )
        fact = (
            oracle(text, "interval", enc.certificate, formula)
            if enc.hi - enc.lo <= CERTIFIED_WIDTH * enc.mid
            else undecided(formula, f"enclosure wider than {CERTIFIED_WIDTH:.0e}", "interval")
        )
        parts.append(
            Step(
                fact,
                "certified quadrature: interval Simpson rule, f⁽⁴⁾ enclosed per "
                "panel group, tails bounded; enclosure narrower than "
                f"{CERTIFIED_WIDTH:.0e} relative",
                note=text,
            )
        )
        steps.append(parts[-1])
        numeric.append(swiglu_check(store, law, d, enc))
    return Result(claim, Derivation(concluded(steps, parts)), tuple(numeric))


def ls_capacity_result(cap: StoreCapacity) -> Result:
    g, e = cap.gaussian, cap.exact
    closed = capacity_expr(cap.store, "gaussian")
    claim = Claim(
        f"capacity-{cap.store.name}",
        f"Capacity of the {cap.store.title} store",
        f"keys with i.i.d. N(0, 1/d) entries: ISR(M) = (M − d)/(d + 2) for M ≥ d, "
        f"M* = 2d + 2 = {g.capacity.mid:g} at d = {cap.d}",
        SOURCE,
        assumptions=(
            f"not claimed: unit keys give 2d + 1 + O(1/d) = {e.capacity.mid:g} "
            "(leading order; Monte Carlo in numeric_checks.capacity)",
        ),
        uses=("ls-overload",),
        statement=eq(put(LS_ISR, {M_: closed}), 1),
    )
    step = equal_step(
        put(LS_ISR, {M_: closed}),
        1,
        "substitute M = 2d + 2 into ls-overload's ISR",
        note="ISR(2d + 2) = 1",
    )
    return Result(claim, Derivation((step,)))


def source_result(caps64: dict[str, StoreCapacity]) -> Result:
    tol = SOURCE_TOLERANCE
    formulas, steps = [], []
    for name, cap in caps64.items():
        src, values = sympy.Rational(cap.store.source), {d_: cap.d, beta_: cap.beta}
        if cap.gaussian.kind == "closed form":
            closed = cap.store.theory_gaussian
            with sympy.evaluate(False):
                gap = put(sympy.Abs(closed - src) / src, values)
            formulas.append(sympy.StrictLessThan(gap, tol, evaluate=False))
            steps.append(
                Step(
                    check_compare(gap, "<", tol),
                    "exact or outward-rounded enclosure of the closed form",
                    note=f"{name}: |M*_gauss − source|/source < {float(tol):.0%} "
                    f"(source {float(src):g})",
                )
            )
            continue
        lo, hi = swiglu_enclosure(cap, "gaussian")  # every value the certificate allows
        gap = sympy.Abs(mstar("gaussian") - src) / src
        formulas.append(
            ForAll(
                (mstar("gaussian"),),
                sympy.StrictLessThan(gap, tol, evaluate=False),
                domain=sympy.Interval(lo, hi),
            )
        )
        steps.append(
            Step(
                check_bound_on(gap, mstar("gaussian"), lo, hi, "<", tol),
                "interval arithmetic over the certified interval of capacity-swiglu",
                note=f"{name}: |M*_gauss − source|/source < {float(tol):.0%} for "
                f"every M*_gauss in [{float(lo):,.6g}, {float(hi):,.6g}]",
            )
        )
    claim = Claim(
        "source-table",
        "The Gaussian approximation reproduces the source's table",
        f"at d = {SOURCE_D}, β = {SOURCE_BETA} every Gaussian capacity is within "
        f"{float(tol):.0%} of the source's '≈' figure",
        SOURCE,
        "proposition",
        (
            f"the source rounds; its largest rounding is 65 → '≈ 64' (1.6 %), hence the "
            f"{float(tol):.0%} tolerance",
        ),
        uses=tuple(f"capacity-{n}" for n in PART_B),
        statement=conjunction(*formulas),
    )
    return Result(claim, Derivation(concluded(steps, steps)))


# --- least squares ---------------------------------------------------------------------------

KP, KM, KT, G_, B_ = sympy.symbols("K^+ K K^T G B", commutative=False)


def ls_exact_recall(d: int) -> Result:
    claim = Claim(
        "ls-exact-recall",
        "Least squares recalls exactly up to d memories",
        "for M ≤ d keys in general position W = V K⁺ gives W k_i = v_i: ISR = 0; K⁺K = I "
        "with K⁺ = (KᵀK)⁻¹Kᵀ for full column rank",
        SOURCE,
        assumptions=(
            "keys i.i.d. uniform on the sphere, hence linearly independent for M ≤ d "
            "with probability 1",
        ),
        statement=eq(KP * KM, 1),
    )
    pinv, gram, inv = (
        Step(define(KP, B_ * KT), "K⁺ = (KᵀK)⁻¹Kᵀ for full column rank"),
        Step(define(G_, KT * KM), "the Gram matrix"),
        Step(define(B_, G_**-1), "KᵀK is invertible (full column rank)"),
    )
    first = unfold(pinv.fact, KP * KM)  # K⁺K = (B Kᵀ) K
    by_g = symm(unfold(gram.fact, B_ * G_))  # B (Kᵀ K) = B G
    by_b = unfold(inv.fact, B_ * G_)  # B G = G⁻¹ G
    calc = Calc(KP * KM).eq(first.formula.rhs, "unfold K⁺", by=first)
    if calc.end != by_g.formula.lhs:
        calc = calc.eq(by_g.formula.lhs, "associativity")
    calc = (
        calc.eq(B_ * G_, "fold KᵀK = G", by=by_g)
        .eq(by_b.formula.rhs, "unfold B", by=by_b)
        .eq(sympy.Integer(1), "G⁻¹G = I")
    )
    steps = (pinv, gram, inv) + calc.steps(note="K⁺K = I, so W k_i = V K⁺ K e_i = v_i")
    numeric = ls_recall_checks(d)
    return Result(claim, Derivation(steps), numeric)


LS_ISR = (M_ - d_) / (d_ + 2)  # ISR(M) of least squares, keys with i.i.d. Gaussian entries


def ls_rows() -> list[tuple]:
    Kt, A, K = sympy.symbols("K^T A K", commutative=False)
    al, be = sympy.symbols("alpha b", positive=True)  # Beta(α, b) parameters
    beta_law = {al: d_ / 2, be: (M_ - d_) / 2}
    mean, second = al / (al + be), al * (al + 1) / ((al + be) * (al + be + 1))
    return [
        (
            sympy.Mul(Kt, A, A**-1, A, K, evaluate=False),
            Kt * A * K,
            "P² = Kᵀ A (KKᵀ) A K with A = (KKᵀ)⁻¹, so KKᵀ = A⁻¹",
            "P = Kᵀ(KKᵀ)⁻¹K is a projection (Pᵀ = P, tr P = d)",
        ),
        (put(mean, beta_law), d_ / M_, "Beta(d/2, (M−d)/2) mean", "E[P_ii] = d/M (also tr P / M)"),
        (
            put(second, beta_law),
            d_ * (d_ + 2) / (M_ * (M_ + 2)),
            "Beta second moment",
            "E[P_ii²] = d(d+2)/(M(M+2))",
        ),
        (
            put((mean - second) / second, beta_law),
            LS_ISR,
            "Σ_{m≠i} P_mi² = P_ii − P_ii² (P² = P); cancel",
            "ISR(M) = (E P_ii − E P_ii²)/E P_ii² = (M − d)/(d + 2)",
        ),
        (put(LS_ISR, {M_: 2 * d_ + 2}), 1, "substitute M = 2d + 2", "ISR(2d + 2) = 1"),
    ]


def ls_overload(d: int) -> Result:
    statement, steps = identities(ls_rows())
    claim = Claim(
        "ls-overload",
        "Least squares above d memories",
        "for M ≥ d the recall of k_i is Σ_m P_mi v_m with P = Kᵀ(KKᵀ)⁻¹K a rank-d projection; "
        "ISR = (E[P_ii] − E[P_ii²])/E[P_ii²]; for keys with i.i.d. N(0, 1/d) entries "
        "P_ii ~ Beta(d/2, (M−d)/2), so ISR = (M − d)/(d + 2) and M* = 2d + 2",
        SOURCE,
        assumptions=(
            "keys with i.i.d. Gaussian entries (rotation-invariant key matrix, so the "
            "row space of K is uniformly distributed); unit-norm keys give "
            "M* = 2d + 1 + O(1/d), checked by Monte Carlo",
        ),
        statement=statement,
    )
    numeric = ls_overload_checks(d)
    return Result(claim, Derivation(steps), numeric)


# --- softmax ---------------------------------------------------------------------------------


def softmax_rows() -> list[tuple]:
    expo = 2 * beta_ - 2 * beta_**2 / d_
    x = sympy.Symbol("x", positive=True)
    a = (d_ - 3) / 2
    rho_e = (1 - s**2) ** a * sympy.exp(2 * beta_ * s)
    sub = (1 - x) / (1 + x)  # maps x ∈ (0, ∞) onto s ∈ (−1, 1)
    return [
        (
            put(sympy.diff(expo, beta_), {beta_: d_ / 2}),
            0,
            "differentiate",
            "d/dβ (2β − 2β²/d) = 0 at β = d/2",
        ),
        (
            sympy.diff(expo, beta_, 2),
            "negative",
            "SymPy assumptions",
            "d²/dβ² (2β − 2β²/d) = −4/d < 0: a maximum",
        ),
        (
            put(expo, {beta_: d_ / 2}),
            d_ / 2,
            "substitute β = d/2",
            "ln(M* − 1) = 2β* − 2β*²/d = d/2 at the optimum",
        ),
        (
            2 * rho_e - 2 * s * rho_e - 2 * (1 - s) * rho_e,
            0,
            "differentiate under ∫ (smooth integrand, compact support); linearity",
            "d/dβ [2β − ln E e^(2βs)] = 2 − 2E[s e^(2βs)]/E[e^(2βs)] "
            "= 2 E[(1 − s) e^(2βs)]/E[e^(2βs)]",
        ),
        (
            (2 * x / (1 + x)) * (4 * x / (1 + x) ** 2) ** a * sympy.exp(2 * beta_ * sub),
            "positive",
            "SymPy assumptions",
            "(1 − s)(1 − s²)^((d−3)/2) e^(2βs) > 0 on −1 < s < 1 (s = (1−x)/(1+x), x > 0)",
        ),
    ]


def softmax_beta_result(d: int) -> Result:
    statement, steps = checked(softmax_rows())
    claim = Claim(
        "softmax-optimal-beta",
        "The capacity-maximizing β of softmax",
        "Gaussian law: M* = 1 + exp(2β − 2β²/d) is maximal at β* = d/2 with M* = 1 + exp(d/2). "
        "Exact law: M*(β) = 1 + exp(2β)/E[exp(2βs)] strictly increases with β (no finite "
        "maximizer; M* − 1 ~ 2√π β^((d−1)/2)/Γ(d/2)) because s < 1 almost surely",
        SOURCE,
        uses=("mgf",),
        statement=statement,
    )
    numeric = softmax_beta_checks(d)
    return Result(claim, Derivation(steps), numeric)


def schedule_result(
    name: str, crossings: dict[str, Crossing], d: int, beta0: float, L: int
) -> Result:
    sched = SCHEDULES[name]
    where = "; ".join(
        f"{law}: M ≈ {memories_text(c)}" if c.root_x is not None else f"{law}: none"
        for law, c in crossings.items()
    )
    rules = {
        "gaussian": (
            "ln ISR < 0 below the bracket: interval bisection",
            "ln ISR > 0 at its upper end: interval enclosure",
        ),
        "exact": (
            "ln E[exp(2βs)] − 2β decreases in β (softmax-optimal-beta) and β(M) "
            "increases: monotone steps with certified bounds (oracle); intermediate "
            "value theorem",
        ),
    }
    steps = [
        Step(f, rules[law][min(i, len(rules[law]) - 1)], note=f"{law} law")
        for law, c in crossings.items()
        for i, f in enumerate(crossing_facts(name, law, c, d, rational(beta0), L))
    ]
    claim = Claim(
        f"schedule-{name}",
        f"Softmax with {sched.title}: first crossing of ISR = 1",
        f"{sched.formula} (β0 = {beta0}, L = {L}, d = {d}): ISR(M) < 1 for every 2 ≤ M below the "
        f"first crossing and ISR > 1 just after it — {where}; x = ln M",
        SOURCE,
        assumptions=("ISR under each law as in capacity-softmax, β = β(M)",),
        uses=("softmax-optimal-beta", "gaussian-underestimates"),
        statement=conjunction(*(s.formula for s in steps)),
    )
    numeric = schedule_checks(name, crossings, beta0, d, L)
    return Result(claim, Derivation(concluded(steps, steps)), tuple(numeric))


# --- report ----------------------------------------------------------------------------------


def build_report(
    d: int = SOURCE_D, beta: float = SOURCE_BETA, training_length: int = QWEN_TRAINING_LENGTH
) -> Report:
    """Every capacity claim of Part B at dimension ``d`` and softmax temperature ``beta``."""
    if int(d) != d or d < MIN_D:
        raise InvalidArgument(f"--d {d}: the dimension must be an integer ≥ {MIN_D}")
    if int(d) == d and d > MAX_D:
        raise InvalidArgument(
            f"--d {d}: at most {MAX_D} (the exact-law series are summed to a fixed precision)"
        )
    if not (beta > 0 and math.isfinite(beta) and beta <= MAX_BETA):
        raise InvalidArgument(f"--beta {beta}: β must be a positive number ≤ {MAX_BETA:g}")
    if int(training_length) != training_length or training_length < 2:
        raise InvalidArgument(f"--training-length {training_length}: L must be an integer ≥ 2")
    d, beta_q = int(d), rational(beta)
    with mpmath.workdps(30):
        if any(
            log_isr(mpmath.mp, law, d, mpmath.mpf(beta_q.p) / beta_q.q, mpmath.log(2)) >= 0
            for law in LAW_NAMES
        ):
            raise InvalidArgument(
                f"--d {d} --beta {beta:g}: softmax interference already "
                "equals the signal at M = 2 (ISR(2) ≥ 1), so there is no "
                "crossing to find; use a smaller β for this d"
            )
    caps = {name: store_capacity(name, d, beta_q) for name in PART_B}
    caps64 = {name: store_capacity(name, SOURCE_D, sympy.Integer(SOURCE_BETA)) for name in PART_B}
    crossings = {
        name: {law: first_crossing(name, law, d, beta, training_length) for law in LAW_NAMES}
        for name in SCHEDULES
    }
    results = [
        isr_lemma(),
        law_lemma(d),
        moments_lemma(d),
        mgf_lemma(d, beta_q),
        domination_lemma(caps),
    ]
    results += [store_result(cap) for cap in caps.values()]
    results += [source_result(caps64), ls_exact_recall(d), ls_overload(d), softmax_beta_result(d)]
    results += [schedule_result(n, c, d, beta, training_length) for n, c in crossings.items()]
    data = capacity_data(caps, crossings, d, beta, training_length)
    return Report(
        "proofs.capacity", "Associative-memory capacity", SOURCE, tuple(results), tables(data), data
    )


# --- command line ----------------------------------------------------------------------------


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--d", type=int, default=SOURCE_D, help="key dimension (default 64)")
    parser.add_argument(
        "--beta",
        type=float,
        default=SOURCE_BETA,
        help="softmax inverse temperature β (default 8 = √64)",
    )
    parser.add_argument(
        "--training-length",
        type=int,
        default=QWEN_TRAINING_LENGTH,
        metavar="L",
        help="training length of the logit-scaling schedules (default 2048, Qwen)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run(
        build_report,
        __doc__,
        "python -m proofs.capacity",
        _add_arguments,
        lambda a: {"d": a.d, "beta": a.beta, "training_length": a.training_length},
        argv,
        report_json,
    )


if __name__ == "__main__":
    sys.exit(main())
