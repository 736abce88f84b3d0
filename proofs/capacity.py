"""Associative-memory capacity: ISR, closed forms under both similarity laws, logit scaling.

docs/theory.md Part B. ``M`` stored pairs of independent uniform unit vectors, a stored key as the
query, ``ISR(M) = E‖interference‖² / E‖signal‖²`` and the capacity ``M*`` with ``ISR(M*) = 1``.
For every store of ``symbolic.memory.stores.STORES`` this module derives the capacity under the
source's Gaussian approximation ``s ~ N(0, 1/d)`` (which reproduces the source's table) and
under the exact finite-d law of ``s`` (density ``∝ (1 − s²)^((d−3)/2)``), the least-squares
store above ``d``, the softmax β that maximizes capacity, and where the logit-scaling
schedules (constant, LogN, YaRN) first reach ``ISR = 1``.

Each claim's statement is a formula. A store's is ``M*_gaussian = … ∧ M*_exact = …`` (the
store table's theory forms), ``M*_law`` defined as ``1 + f(1)²/E[f(s)²]`` with ``E[f(s)²]``
written in the lemmas' moments (or ₀F₁); the derivation unfolds it, puts the lemmas' facts in
place and checks the algebra. SwiGLU's capacities and the exact law's crossings are certified
outside the kernel: oracle results with their formulas (``lo ≤ M* ≤ hi``; ``∀ x ≤ x_lo:
ln ISR < 0 ∧ ∃ x in the bracket: ln ISR > 0``), refused by ``--strict`` like every claim that
uses them.

    python -m proofs.capacity [--d 64] [--beta 8] [--training-length 2048] [--json] [--latex F]

``--json`` prints ``{"stores": {name: {"gaussian": M*, "exact": M*, ...}}, "d": ..,
"beta": .., "softmax": {...}, ...}``. Monte Carlo with real vectors:
``python -m numeric_checks.capacity``.

This module holds the claims, in the order of Part B; what they are built from is in
``symbolic.memory``: the identities (``capacity_identities``), statements and per-store parts
(``capacity_formulas``), numeric cross-checks (``capacity_checks``), tables, ``--json`` and
arguments (``capacity_report``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import sympy

from proofs._cli import run
from symbolic.calc import Calc
from symbolic.engine import Claim, Derivation, Report, Result, Step
from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    assume,
    define,
    oracle,
    symm,
    undecided,
    unfold,
)
from symbolic.memory import capacity_checks as checks
from symbolic.memory import capacity_identities as rows
from symbolic.memory.capacity import (
    SOURCE_BETA,
    SOURCE_D,
    SOURCE_TOLERANCE,
    StoreCapacity,
    capacity_expr,
    leading_order_capacity,
    leading_term,
    rational,
    store_capacity,
)
from symbolic.memory.capacity_formulas import (
    capacity_chain,
    checked,
    concluded,
    conjunction,
    domination_step,
    enclosed_statement,
    enclosure_ends,
    eq,
    exact_text,
    half_line_steps,
    identities,
    integral_definition,
    lemma_facts,
    mstar,
    put,
    second_moment_form,
    signal_form,
    source_step,
    square_degrees,
    store_statement,
    value_text,
)
from symbolic.memory.capacity_report import (
    MIN_D,
    add_arguments,
    capacity_data,
    memories_text,
    report_json,
    tables,
    validate_arguments,
)
from symbolic.memory.schedules import (
    QWEN_TRAINING_LENGTH,
    SCHEDULES,
    Crossing,
    crossing_facts,
    first_crossing,
)
from symbolic.memory.similarity_law import (
    LAW_NAMES,
    beta_,
    d_,
    s,
)
from symbolic.memory.stores import PART_B
from symbolic.steps import equal_step

ORDER = 50  # place in `python -m proofs` (Part B, after Part A)
SOURCE = "B"
CERTIFIED_WIDTH = 1e-3  # a certified numeric capacity must be known to 0.1 % (it is to <1e-4)


# --- lemmas ---------------------------------------------------------------------------------


def isr_lemma() -> Result:
    statement, steps = identities(rows.isr_rows())
    claim = Claim(
        "isr-weights",
        "ISR of a store with weights f(s)",
        "For w_m = f(s_m) and independent unit values: E‖Σ_{m≠i} w_m v_m‖² = (M−1)E[f(s)²] and "
        "‖w_i v_i‖² = f(1)², so ISR(M) = (M−1)E[f(s)²]/f(1)² and M* = 1 + f(1)²/E[f(s)²]; "
        "normalizing the weights (softmax's 1/Z) leaves the ratio unchanged (the statement: the "
        "expansion E[v_m·v_n] = δ_mn checked at 4 memories; the (M − 1) count and the "
        "normalization at general M)",
        SOURCE,
        "lemma",
        (
            "values v_m independent of the keys and of each other, uniform on the unit sphere",
            "the query is the stored key k_i, so s_i = k_i·k_i = 1",
        ),
        statement=statement,
    )
    return Result(claim, Derivation(steps))


def law_lemma(d: int) -> Result:
    statement, steps = identities(rows.law_rows())
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
    numeric = checks.law_checks(d)
    return Result(claim, Derivation(steps), numeric)


def moments_lemma(d: int) -> Result:
    statement, steps = identities(rows.moments_rows())
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
    numeric = checks.moment_checks(d)
    return Result(claim, Derivation(steps), tuple(numeric))


def mgf_lemma(d: int, beta: sympy.Rational) -> Result:
    statement, steps = identities(rows.mgf_rows())
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
    numeric = checks.mgf_checks(d, beta)
    return Result(claim, Derivation(steps), tuple(numeric))


def domination_lemma(caps: dict[str, StoreCapacity]) -> Result:
    termwise = rows.domination_rows()
    statement, steps = checked(termwise)
    n = len(termwise)
    formulas, parts = list(statement.args), list(steps[:n])
    for formula, step in filter(None, map(domination_step, caps.values())):
        formulas.append(formula)
        parts.append(step)
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
    return Result(claim, Derivation(concluded(list(steps[:n]) + parts[n:], parts)))


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
        f"weights {store.weight_text}: M*_gauss = {g.formula} "
        f"{value_text(store.theory('gaussian').subs(values), g.capacity.approx)} and "
        f"M*_exact = {e.formula} "
        f"{value_text(store.theory('exact').subs(values), e.capacity.approx)} at d = {d}"
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
        try:
            values_at.append(
                equal_step(
                    put(closed, values),
                    closed.subs(values),
                    f"evaluate at d = {d}" + (f", β = {beta}" if store.uses_beta else ""),
                    note=f"{law}: M* "
                    + value_text(closed.subs(values), cap.law(law).capacity.approx),
                )
            )
        except InvalidArgument:
            # the value at this d holds a number past the kernel's input bound (Γ(d/2) of
            # softmax's exact law at d = 4096 has 19,000 bits): the illustration is left out;
            # the statement, the closed form in d, does not rest on it
            pass
    steps = concluded(steps + values_at, chains)
    numeric = checks.store_checks(store, d, beta)
    return Result(claim, Derivation(steps), tuple(numeric))


def _ends(cap: StoreCapacity, law: str) -> str:
    """The certified interval as the statement holds it (its rational ends, written exactly)."""
    return "[{}, {}]".format(*map(exact_text, enclosure_ends(cap, law)))


def swiglu_result(cap: StoreCapacity) -> Result:
    store, d = cap.store, cap.d
    g, e = cap.gaussian, cap.exact
    claim = Claim(
        f"capacity-{store.name}",
        f"Capacity of the {store.title} store",
        f"weights {store.weight_text}: M*_gauss = {g.formula} ∈ {_ends(cap, 'gaussian')} and "
        f"M*_exact = {e.formula} ∈ {_ends(cap, 'exact')} at d = {d}; E[f(s)²] has no closed "
        "form: the statement is the certified intervals (oracle results)",
        SOURCE,
        uses=("isr-weights", "even-moments", "mgf"),
        statement=conjunction(*(enclosed_statement(cap, law) for law in ("gaussian", "exact"))),
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
                define(mstar(law), integral_definition(cap, law)),
                "M* = 1 + f(1)²/E[f(s)²] (lemma isr-weights)",
                note=f"{law} law",
            )
        )
        formula = enclosed_statement(cap, law)
        text = (
            f"{law}: M* ∈ {_ends(cap, law)} (leading order in 1/d: "
            f"{value_text(None, float(lead.subs({d_: d})))})"
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
        numeric.append(checks.swiglu_check(store, law, d, enc))
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
        statement=eq(put(rows.LS_ISR, {rows.M_: closed}), 1),
    )
    step = equal_step(
        put(rows.LS_ISR, {rows.M_: closed}),
        1,
        "substitute M = 2d + 2 into ls-overload's ISR",
        note="ISR(2d + 2) = 1",
    )
    return Result(claim, Derivation((step,)))


def source_result(caps64: dict[str, StoreCapacity]) -> Result:
    tol = SOURCE_TOLERANCE
    sourced = {n: c for n, c in caps64.items() if math.isfinite(c.store.source)}
    pairs = [source_step(cap, tol) for cap in sourced.values()]
    formulas, steps = [f for f, _ in pairs], [step for _, step in pairs]
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
        uses=tuple(f"capacity-{n}" for n in sourced),
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
    # G⁻¹G = I holds where G is invertible: assumed (the keys' full column rank), not a SymPy
    # rewrite — SymPy cancels G⁻¹G for any noncommutative G, and the kernel shows "G invertible"
    invertible = assume("KᵀK is invertible (full column rank)", eq(by_b.formula.rhs, 1))
    calc = (
        calc.eq(B_ * G_, "fold KᵀK = G", by=by_g)
        .eq(by_b.formula.rhs, "unfold B", by=by_b)
        .eq(sympy.Integer(1), "G⁻¹G = I: KᵀK is invertible", by=invertible)
    )
    steps = (pinv, gram, inv) + calc.steps(note="K⁺K = I, so W k_i = V K⁺ K e_i = v_i")
    numeric = checks.ls_recall_checks(d)
    return Result(claim, Derivation(steps), numeric)


def ls_overload(d: int) -> Result:
    statement, steps = identities(rows.ls_rows())
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
    numeric = checks.ls_overload_checks(d)
    return Result(claim, Derivation(steps), numeric)


# --- softmax ---------------------------------------------------------------------------------


def softmax_beta_result(d: int) -> Result:
    statement, steps = checked(rows.softmax_rows())
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
    numeric = checks.softmax_beta_checks(d)
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
    numeric = checks.schedule_checks(name, crossings, beta0, d, L)
    return Result(claim, Derivation(concluded(steps, steps)), tuple(numeric))


# --- report ----------------------------------------------------------------------------------


def build_report(
    d: int = SOURCE_D, beta: float = SOURCE_BETA, training_length: int = QWEN_TRAINING_LENGTH
) -> Report:
    """Every capacity claim of Part B at dimension ``d`` and softmax temperature ``beta``."""
    validate_arguments(d, beta, training_length)
    d, beta_q = int(d), rational(beta)
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


def main(argv: Sequence[str] | None = None) -> int:
    return run(
        build_report,
        __doc__,
        "python -m proofs.capacity",
        add_arguments,
        lambda a: {"d": a.d, "beta": a.beta, "training_length": a.training_length},
        argv,
        report_json,
    )


if __name__ == "__main__":
    sys.exit(main())
