"""The candidate symmetries of a block: groups acting on the attention sub-layer's parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from symbolic.blocks.forms import (
    HEADS,
    BlockForm,
    T,
    d,
    head_count,
    ones_matrix,
    parameters,
    r,
)
from symbolic.blocks.laws import softmax_shift_fact
from symbolic.kernel import (
    Fact,
    check_matrix_expr_equal,
    literal,
)

# --- the candidates -----------------------------------------------------------------------


def inverse(m):
    return m.inv() if _sym(m) else np.linalg.inv(m)


@dataclass(frozen=True)
class Candidate:
    """A group acting on the sub-layer's parameters: ``act(params, g)`` (SymPy or numpy),
    the group's elements as matrix symbols (``group``: name → (rows, cols, kind)), and, for a
    continuous group acting by ``W₁ → W₁A, W₂ → W₂A^{−T}`` (or ``A^{−1}W₂``), the conserved
    matrix of gradient flow (``symbolic.blocks.laws``)."""

    name: str
    text: str  # the substitution, as shown
    group: Mapping[str, tuple[Any, Any, str]]
    act: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]
    conserved: str | None = None
    law: str | None = None  # the name of the law in symbolic.blocks.laws


def _swap_heads(p, g):
    out = dict(p)
    for key in [k for k in p if k[-1:] == "0"]:
        other = key[:-1] + "1"
        out[key], out[other] = p[other], p[key]
    return out


def _qk(p, g, biases):
    A = g["A"]
    out = {**p, "WQ0": product(p["WQ0"], A), "WK0": product(p["WK0"], inverse(A).T)}
    if biases:
        out["bQ0"] = product(p["bQ0"], A)
        out["bK0"] = product(p["bK0"], inverse(A).T)
    return out


def _vo(p, g, biases):
    B = g["B"]
    out = {**p, "WV0": product(p["WV0"], B), "WO0": product(inverse(B), p["WO0"])}
    if biases:
        out["bV0"] = product(p["bV0"], B)
    return out


def _gain(p, g, biases):
    D = g["D"]
    out = {**p, "G": product(p["G"], D)}
    if biases:
        out["b"] = product(p["b"], D)
    for h in range(head_count(p)):
        for w in "QKV":
            out[f"W{w}{h}"] = product(inverse(D), p[f"W{w}{h}"])
    return out


def _sym(m) -> bool:
    return isinstance(m, (sympy.MatrixExpr, sympy.MatrixBase))


def product(a, b):
    return a * b if _sym(a) or _sym(b) else a @ b


def candidates(block: BlockForm, heads: int = HEADS) -> list[Candidate]:
    """The standard candidates of the attention sub-layer, in a fixed order (the head
    permutation only with two heads or more)."""
    bias = block.biases
    out = [
        Candidate(
            "head permutation",
            f"head 0 ↔ head 1 (W_Q, W_K, W_V, W_O{', b_Q, b_K, b_V' if bias else ''})",
            {},
            _swap_heads,
        ),
        Candidate(
            "GL(r) of QK" + (" with RoPE" if block.rope else ""),
            "W_Q,0 → W_Q,0 A, W_K,0 → W_K,0 A^{−T}"
            + (" (b_Q,0, b_K,0 alike)" if bias else "")
            + ", A ∈ GL(r)",
            {"A": (r, r, "GL")},
            lambda p, g: _qk(p, g, bias),
            conserved="Ŵ_Qᵀ Ŵ_Q − Ŵ_Kᵀ Ŵ_K, Ŵ = [W; b] (W with its bias row)"
            if bias
            else "W_Qᵀ W_Q − W_Kᵀ W_K",
            law="qk",
        ),
        Candidate(
            "GL(r) of VO",
            "W_V,0 → W_V,0 B, W_O,0 → B^{−1} W_O,0"
            + (" (b_V,0 alike)" if bias else "")
            + ", B ∈ GL(r)",
            {"B": (r, r, "GL")},
            lambda p, g: _vo(p, g, bias),
            conserved="Ŵ_Vᵀ Ŵ_V − W_O W_Oᵀ, Ŵ_V = [W_V; b_V]" if bias else "W_Vᵀ W_V − W_O W_Oᵀ",
            law="vo",
        ),
        Candidate(
            ("RMSNorm" if block.norm == "rms" else "LayerNorm") + " gain absorption",
            "G → G D" + (", b → b D" if bias else "") + ", W_{Q,K,V},h → D^{−1} W, "
            "D invertible diagonal",
            {"D": (d, d, "diagonal")},
            lambda p, g: _gain(p, g, bias),
            conserved="diag(Ĝᵀ Ĝ − Σ W Wᵀ), Ĝ = [G; b] (G with the norm's bias row: "
            "g_i² + b_i² − Σ ‖W_i,:‖²)"
            if bias
            else "diag(Gᵀ G − Σ W Wᵀ) (the gains' diagonal)",
            law="gain",
        ),
    ]
    return out if heads >= 2 else out[1:]


def key_shift_facts(block: BlockForm) -> tuple[Fact, Fact]:
    """The softmax shift realised by the key bias: ``b_K,0 → b_K,0 + c`` moves the scores of
    head 0 by a constant per row, ``S + (Q cᵀ/√r)·1ᵀ`` (``check_matrix_expr_equal``), and
    ``softmax(s + u·1) = softmax(s)`` row by row at general T (``check_sum_equal``)."""
    p = parameters(block)
    c = sympy.MatrixSymbol("c", 1, r)
    X = sympy.MatrixSymbol("N", T, d)  # the normed sequence: any T×d matrix
    q = X * p["WQ0"] + ones_matrix(T, 1) * p["bQ0"]

    def scores(bk):
        return q * (X * p["WK0"] + ones_matrix(T, 1) * bk).T / sympy.sqrt(r)

    # scores(b_K,0 + c) as written: the matrix algebra reads no evaluation switch, the scalar
    # 1/√r is kept unevaluated, (√r)^{−1}, first in the product (where MatMul puts scalars)
    keys = (X * p["WK0"] + ones_matrix(T, 1) * (p["bK0"] + c)).T
    shifted = sympy.MatMul(literal(sympy.Pow, (sympy.sqrt(r), sympy.Integer(-1))), q, keys)
    moved = check_matrix_expr_equal(
        shifted, scores(p["bK0"]) + q * c.T / sympy.sqrt(r) * ones_matrix(1, T)
    )
    return moved, softmax_shift_fact()
