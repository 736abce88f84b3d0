"""The identities that the capacity lemmas' statements are made of (``proofs.capacity``).

Each ``*_rows`` function returns rows ``(lhs, rhs, rule, note)`` (``rhs`` a sign such as
``"positive"`` for a sign row): ``identities``/``checked`` of ``symbolic.memory.capacity_formulas``
turn them into the statement (their conjunction) and the kernel's checks of each row. The rows
are the mathematics of docs/theory.md Part B, in the order the lemmas use them: the ISR of a
weighted recall, the exact law of the similarity, its even moments and MGF, the Gaussian
approximation's domination, least squares above ``d``, the softmax optimum.
"""

from __future__ import annotations

import sympy

from symbolic.memory.capacity_formulas import BESSEL_FORM, HALF, moment_form, moment_value, put
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

W = sympy.symbols("w1:5", real=True)  # the weights of four memories
Z, E2, F1 = sympy.symbols("Z E[f(s)^2] f(1)^2", positive=True)
M_ = sympy.Symbol("M", positive=True)
# general M: the weights w_m of memories m = 1..M, the queried one m = 1
W_ = sympy.IndexedBase("w", real=True)
# the queried memory's weight, a symbol of its own (the sum runs over the others): a condition
# w_1 ≠ 0 on an entry w[1] has no point a re-check can show on its own
W1 = sympy.Symbol("w_1", real=True)
M_INT, m_ = sympy.Symbol("M", integer=True, positive=True), sympy.Symbol("m", integer=True)


def isr_rows() -> list[tuple]:
    delta = {(m, n): sympy.Symbol(f"c_{m}{n}", real=True) for m in range(4) for n in range(4)}
    norm2 = sum(W[m] * W[n] * delta[m, n] for m in range(4) for n in range(4))
    isr = (M_ - 1) * E2 / F1
    return [
        (
            put(norm2, {c: int(m == n) for (m, n), c in delta.items()}),
            sum(x**2 for x in W),
            "E[v_m·v_n] = δ_mn (independent unit values)",
            "E_v‖Σ_m w_m v_m‖² = Σ_{m,n} w_m w_n E[v_m·v_n] = Σ_m w_m² (checked at 4 memories)",
        ),
        (
            sympy.Sum((W_[m_] / Z) ** 2, (m_, 2, M_INT)) / (W1 / Z) ** 2,
            sympy.Sum(W_[m_] ** 2, (m_, 2, M_INT)) / W1**2,
            "cancel Z",
            "Σ_{m≠i}(w_m/Z)² / (w_i/Z)² = Σ_{m≠i} w_m² / w_i²: normalizing leaves ISR "
            "(general M, the queried memory i = 1)",
        ),
        (
            sympy.Sum(E2, (m_, 2, M_INT)),
            (M_INT - 1) * E2,
            "linearity of E; the M − 1 other keys are i.i.d.",
            "E‖interference‖² = Σ_{m≠i} E[f(s_m)²] = (M − 1)E[f(s)²] (general M)",
        ),
        (
            put(isr, {M_: 1 + F1 / E2}),
            1,
            "substitute M = 1 + f(1)²/E[f(s)²]",
            "ISR(M) = (M − 1)E[f(s)²]/f(1)² equals 1 at M* = 1 + f(1)²/E[f(s)²]",
        ),
    ]


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


def domination_rows() -> list[tuple]:
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    return [
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
