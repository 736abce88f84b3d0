"""Conservation laws of the block symmetries (issue 26), each an identity the kernel checks.

For a loss that depends on two matrices only through a product — the scores through
``P = W_Q W_Kᵀ`` (``X P Xᵀ``), the values through ``P = W_V W_O``, a gain through ``G W`` —
the chain rule gives the gradients from ``Γ = ∂L/∂P`` (a generic matrix):

* QK: ``∇_Q = Γ W_K``, ``∇_K = Γᵀ W_Q``; along gradient flow ``θ̇ = −∇L``
  ``d/dt (W_Qᵀ W_Q − W_Kᵀ W_K) = −(∇_Qᵀ W_Q + W_Qᵀ ∇_Q) + (∇_Kᵀ W_K + W_Kᵀ ∇_K) = 0``
  (r×r: the matrix-valued quantity of the GL(r) action ``W_Q → W_Q A, W_K → W_K A^{−T}``);
* VO: ``∇_V = Γ W_Oᵀ``, ``∇_O = W_Vᵀ Γ``; ``d/dt (W_Vᵀ W_V − W_O W_Oᵀ) = 0``;
* gain: the gain is diagonal, ``G = diag(g)``: ``∇_{g_i} = Σ_k Γ_ik W_ik``, ``∇_{W_ik} = g_i Γ_ik``;
  ``d/dt (g_i² − ‖W_{i,:}‖²) = 0`` — the diagonal of ``Gᵀ G − W Wᵀ``, whose off-diagonal
  entries are not conserved for a diagonal gain (they are only for a full matrix G);
* softmax translation: ``softmax(s + u·1) = softmax(s)`` (at general T, in sum normal form), so
  a parameter that only shifts a row of scores (the key bias) has gradient 0 and stays put.

Each matrix law is checked in its discrete form, the one training measures: one SGD step of
size η changes the quantity by exactly ``η²(∇_Qᵀ∇_Q − ∇_Kᵀ∇_K)`` (an identity in η with no
first-order term — that term is the gradient-flow law above), so doubling η multiplies its
drift by ≈ 4 (``numeric_checks.block_training``). The kernel decides each on the formula shown
(``check_matrix_expr_equal`` at symbolic sizes, ``check_sum_equal``); that ``Γ`` is the loss's
derivative is the chain rule, written into the formula.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from symbolic.kernel import Fact, check_matrix_expr_equal, check_sum_equal, conj

d, r, m, T = sympy.symbols("d r m T", integer=True, positive=True)


@dataclass(frozen=True)
class Law:
    name: str
    quantity: str
    group: str
    fact: Fact


ETA = sympy.Symbol("eta", positive=True)


def _step_law(
    a: sympy.MatrixExpr,
    ga: sympy.MatrixExpr,
    a_left: bool,
    b: sympy.MatrixExpr,
    gb: sympy.MatrixExpr,
    b_left: bool,
    name: str,
    quantity: str,
    group: str,
) -> Law:
    """One SGD step ``a → a − η∇_a, b → b − η∇_b`` changes ``q(a) − q(b)`` (``q(x) = xᵀx`` or
    ``x xᵀ``) by exactly ``η²(q(∇_a) − q(∇_b))``: no first-order term, which is the
    gradient-flow law ``d/dt (q(a) − q(b)) = 0``."""

    def q(x, left):
        return x.T * x if left else x * x.T

    lhs = q(a - ETA * ga, a_left) - q(b - ETA * gb, b_left)
    rhs = q(a, a_left) - q(b, b_left) + ETA**2 * (q(ga, a_left) - q(gb, b_left))
    return Law(name, quantity, group, check_matrix_expr_equal(lhs, rhs))


def qk_law(biases: bool = False) -> Law:
    """GL(r) of QK. With biases (GPT-2) the group acts on the stacked ``Ŵ = [W; b]`` ((d+1)×r:
    ``b_Q, b_K`` move with ``W_Q, W_K``) and the quantity conserved is
    ``Ŵ_Qᵀ Ŵ_Q − Ŵ_Kᵀ Ŵ_K = W_Qᵀ W_Q + b_Qᵀ b_Q − W_Kᵀ W_K − b_Kᵀ b_K``: ``W_Qᵀ W_Q − W_Kᵀ W_K``
    alone drifts (by the change of ``b_Qᵀ b_Q``; RK4 gradient flow: 8·10⁻³ at t = 3, the
    stacked one 4·10⁻¹⁰). The identity is the same, stated for the stacked matrices."""
    rows = d + 1 if biases else d
    hat = "Ŵ" if biases else "W"
    Wq, Wk = sympy.MatrixSymbol(f"{hat}_Q", rows, r), sympy.MatrixSymbol(f"{hat}_K", rows, r)
    G = sympy.MatrixSymbol("Γ", rows, rows)
    return _step_law(
        Wq,
        G * Wk,
        True,
        Wk,
        G.T * Wq,
        True,
        "qk",
        "Ŵ_Qᵀ Ŵ_Q − Ŵ_Kᵀ Ŵ_K with Ŵ = [W; b] (W_Qᵀ W_Q + b_Qᵀ b_Q − W_Kᵀ W_K − b_Kᵀ b_K)"
        if biases
        else "W_Qᵀ W_Q − W_Kᵀ W_K",
        "GL(r): Ŵ_Q → Ŵ_Q A, Ŵ_K → Ŵ_K A^{−T} (biases alike)"
        if biases
        else "GL(r): W_Q → W_Q A, W_K → W_K A^{−T}",
    )


def vo_law(biases: bool = False) -> Law:
    """GL(r) of VO; with a value bias the group acts on ``Ŵ_V = [W_V; b_V]`` and the quantity is
    ``Ŵ_Vᵀ Ŵ_V − W_O W_Oᵀ = W_Vᵀ W_V + b_Vᵀ b_V − W_O W_Oᵀ`` (``W_Vᵀ W_V − W_O W_Oᵀ`` drifts:
    0.64 at t = 3 under RK4 gradient flow)."""
    rows = d + 1 if biases else d
    Wv = sympy.MatrixSymbol("Ŵ_V" if biases else "W_V", rows, r)
    Wo = sympy.MatrixSymbol("W_O", r, d)
    G = sympy.MatrixSymbol("Γ", rows, d)
    return _step_law(
        Wv,
        G * Wo.T,
        True,
        Wo,
        Wv.T * G,
        False,
        "vo",
        "Ŵ_Vᵀ Ŵ_V − W_O W_Oᵀ with Ŵ_V = [W_V; b_V] (W_Vᵀ W_V + b_Vᵀ b_V − W_O W_Oᵀ)"
        if biases
        else "W_Vᵀ W_V − W_O W_Oᵀ",
        "GL(r): Ŵ_V → Ŵ_V B, W_O → B^{−1} W_O (b_V alike)"
        if biases
        else "GL(r): W_V → W_V B, W_O → B^{−1} W_O",
    )


def gain_law(biases: bool = False) -> Law:
    """The gain of a norm is diagonal, ``diag(g)``, and so is its symmetry ``G → G D``: the law is
    the diagonal one. With ``P = diag(g) W`` (W: d×m, every map reading the normed sequence) and
    ``Γ = ∂L/∂P``, ``∇_{g_i} = Σ_k Γ_ik W_ik`` and ``∇_{W_ik} = g_i Γ_ik``; one SGD step changes
    ``g_i² − Σ_k W_ik²`` by exactly ``η²((Σ_k Γ_ik W_ik)² − Σ_k g_i² Γ_ik²)``. With a norm's bias
    b (LayerNorm: ``P = [N, 1]·[diag(g); b]·W``) column i of the stacked gain is ``(g_i, b_i)``,
    each with its own ``Γ``, and ``g_i² + b_i² − Σ_k W_ik²`` changes likewise; the fact is the
    conjunction of both. The full matrix ``Gᵀ G − W Wᵀ`` is conserved only for a full matrix G
    (the GL(d) action): for a diagonal gain its off-diagonal entries drift."""
    i, k = sympy.symbols("i k", integer=True)
    g, b, W, gam, gam_b = (sympy.IndexedBase(n, real=True) for n in ("g", "b", "W", "Γ", "Γ_b"))

    def over_k(term: sympy.Expr) -> sympy.Expr:
        return sympy.Sum(term, (k, 0, m - 1))

    def step(column: list[tuple[sympy.Expr, sympy.Expr]]) -> Fact:
        """One SGD step of the gain column ``(value, its Γ)…`` and of row i of W."""
        grads = [over_k(c * W[i, k]) for _, c in column]
        grad_w = sum(v * c for v, c in column)
        lhs = sum((v - ETA * gr) ** 2 for (v, _), gr in zip(column, grads, strict=True))
        lhs -= over_k((W[i, k] - ETA * grad_w) ** 2)
        rhs = sum(v**2 for v, _ in column) - over_k(W[i, k] ** 2)
        rhs += ETA**2 * (sum(gr**2 for gr in grads) - over_k(grad_w**2))
        return check_sum_equal(lhs, rhs)

    fact = conj(step([(g[i], gam[i, k])]), step([(g[i], gam[i, k]), (b[i], gam_b[i, k])]))
    return Law(
        "gain",
        "g_i² − ‖W_i,:‖² (+ b_i² with a norm bias; gain diag(g))",
        "G → G D, W → D^{−1} W (D diagonal)",
        fact,
    )


def softmax_shift_fact() -> Fact:
    """``softmax(s + u·1)_j = softmax(s)_j`` at general T (sum normal form)."""
    s = sympy.IndexedBase("s", real=True)
    u = sympy.Symbol("u", real=True)
    j, k = sympy.symbols("j k", integer=True)

    def soft(shift):
        return sympy.exp(s[j] + shift) / sympy.Sum(sympy.exp(s[k] + shift), (k, 0, T - 1))

    return check_sum_equal(soft(u), soft(0))


def shift_law(biases: bool = True) -> Law:
    return Law(
        "shift",
        "the key bias b_K (gradient 0)",
        "softmax(s + u·1) = softmax(s)",
        softmax_shift_fact(),
    )


# each takes ``biases``: the block's (GPT-2's biases move with their weights, and the quantity
# conserved is the stacked one; the gain law states both forms, the shift law needs the bias)
LAWS = {"qk": qk_law, "vo": vo_law, "gain": gain_law, "shift": shift_law}

__all__ = ["LAWS", "Law", "gain_law", "qk_law", "shift_law", "softmax_shift_fact", "vo_law"]
