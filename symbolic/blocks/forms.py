"""Transformer blocks and their parameter symmetries (issue 26), decided by the kernel.

A block acts on a sequence ``X`` (T×d, T symbolic). Its **attention sub-layer** is written once
as a SymPy ``MatrixExpr`` at symbolic sizes T, d, r (the head dimension) with ``HEADS`` heads:

    N(X) = norm(X)·G (+ 1·b)            RMSNorm or LayerNorm, gain G (d×d, diagonal), bias b
    S_h  = rope(N W_Q,h (+ 1·b_Q,h)) · rope(N W_K,h (+ 1·b_K,h))ᵀ / √r + M     (M: the mask)
    A(X) = Σ_h softmax(S_h) · (N W_V,h (+ 1·b_V,h)) · W_O,h (+ 1·b_O)

softmax is row-wise (``exp`` elementwise, divided by its row sums), the causal mask an additive
T×T matrix, ``rope(Y) = C ⊙ Y + S ⊙ (Y P)`` with C, S the positions' cosines and sines (named
``C_rope``, ``S_rope`` in the formulas, apart from a group element ``C``) and P the pair rotation
(the form of every implementation). The block is ``H = X + A(X)`` followed by
``H + MLP(norm₂(H))``; the MLP is per token, written in the layer language
(``symbolic.languages.layer_language``) and decided there.

Each candidate symmetry is a substitution of the sub-layer's parameters by a group element
(``Candidate.act``, one function for SymPy and numpy). It is **invariant** when the kernel
proves ``A(X; gθ) = A(X; θ)`` (``check_matrix_expr_equal``: at general T, d, r, for every
invertible A — the group GL(r) — every mask, every RoPE table), **broken** when the kernel
certifies an entry of the difference nonzero at exact rational values and explicit sizes
(``counterexample``), else **unknown**. The block depends on those parameters only through the
sub-layer: an invariance proved for the sub-layer is carried to the whole block by the kernel's
``cong`` (``block_context``: ``X + A`` then ``H + MLP(norm₂(H))``); a break is the sub-layer's.
RoPE's rotations are position dependent: the RoPE-commuting maps are proved on the scores'
entry ``rope(q A, t)·rope(k A^{−T}, s)ᵀ`` with every position's rotation symbolic
(``check_equal``, a rational identity), one and two planes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

T, d, r = sympy.symbols("T d r", integer=True, positive=True)
HEADS = 2  # the heads written out by default (--heads H): the number stated with every claim
MAX_HEADS = 6  # more heads make the head permutation's identity too large to decide in time
BLOCK_TIMEOUT_S = 60.0  # CPU seconds for one sub-layer identity (the kernel's limits still cap)
_t = sympy.Dummy("t", real=True)
EPSILON = sympy.Rational(1, 10**5)  # the norms' ε, as in torch's RMSNorm/LayerNorm defaults


@dataclass(frozen=True)
class BlockForm:
    """A table entry: the attention sub-layer's choices and the MLP in the layer language."""

    name: str
    title: str
    norm: str  # "rms" | "layer"
    rope: bool
    biases: bool
    mlp: str  # per token, the layer language: units are the rows of W1, W3, W2
    mlp_activation: str


BLOCKS = {
    b.name: b
    for b in (
        BlockForm(
            "llama_block",
            "RMSNorm → attention with RoPE → residual → RMSNorm → SwiGLU → residual",
            "rms",
            True,
            False,
            "(silu(x @ W1.T) * (x @ W3.T)) @ W2",
            "silu",
        ),
        BlockForm(
            "gpt2_block",
            "LayerNorm → attention (biases) → residual → LayerNorm → GELU MLP → residual",
            "layer",
            False,
            True,
            "gelu(x @ W1.T) @ W2",
            "gelu",
        ),
    )
}


def check_heads(heads: Any) -> int:
    """The number of heads, 1 ≤ H ≤ MAX_HEADS (an ``int`` or its decimal text), or a one-line
    ``InvalidArgument``."""
    from symbolic.errors import InvalidArgument

    text = str(heads).strip()
    ok = text.isascii() and text.isdigit() and len(text) <= 3
    if isinstance(heads, bool) or not (ok and 1 <= int(text) <= MAX_HEADS):
        raise InvalidArgument(
            f"--heads {text[:20]!r}: the number of heads is a whole number from 1 to {MAX_HEADS}"
        )
    return int(text)


def parameters(block: BlockForm, heads: int = HEADS) -> dict[str, sympy.MatrixSymbol]:
    """The attention sub-layer's parameters as matrix symbols at symbolic sizes."""
    shapes: dict[str, tuple] = {"G": (d, d)}
    if block.biases:
        shapes["b"] = (1, d)
        shapes["bO"] = (1, d)
    for h in range(heads):
        shapes.update({f"WQ{h}": (d, r), f"WK{h}": (d, r), f"WV{h}": (d, r), f"WO{h}": (r, d)})
        if block.biases:
            shapes.update({f"bQ{h}": (1, r), f"bK{h}": (1, r), f"bV{h}": (1, r)})
    return {k: sympy.MatrixSymbol(k, *s) for k, s in shapes.items()}


def _fn(expr: sympy.Expr) -> sympy.Lambda:
    return sympy.Lambda(_t, expr)


def _ew(f: sympy.Lambda, m: sympy.MatrixExpr) -> sympy.MatrixExpr:
    return ElementwiseApplyFunction(f, m)


def ones_matrix(rows, cols) -> sympy.MatrixExpr:
    """The rows × cols matrix of ones (a symbolic-size ``OneMatrix``)."""
    return sympy.OneMatrix(rows, cols)


def head_count(p: Mapping[str, Any]) -> int:
    """The heads of a parameter table (``WQ0``, ``WQ1``, …)."""
    return sum(1 for k in p if k.startswith("WQ"))


def attention(block: BlockForm, p: Mapping[str, Any]) -> sympy.MatrixExpr:
    """The attention sub-layer A(X) at symbolic sizes (see the module docstring), written as
    nested nodes that SymPy does not regroup: the normed sequence, each head's Q, K, V, scores,
    softmax weights and ``V W_O`` are subterms, so that an identity can be localised to the
    subterm a transformation changes (``symbolic.blocks.proof``)."""
    X = sympy.MatrixSymbol("X", T, d)
    M = sympy.MatrixSymbol("M", T, T)
    C, S, P = (  # named apart from the group elements a user types (A, B, C, …: ``B @ C``)
        sympy.MatrixSymbol("C_rope", T, r),
        sympy.MatrixSymbol("S_rope", T, r),
        sympy.MatrixSymbol("P", r, r),
    )
    mul, add, had = sympy.MatMul, sympy.MatAdd, sympy.HadamardProduct
    normed = _norm(block, X, p["G"], p.get("b"))

    def affine(w: str, h: int) -> sympy.MatrixExpr:
        y = mul(normed, p[f"W{w}{h}"])
        return add(y, mul(ones_matrix(T, 1), p[f"b{w}{h}"])) if block.biases else y

    def rope(y: sympy.MatrixExpr) -> sympy.MatrixExpr:
        return add(had(C, y), had(S, mul(y, P))) if block.rope else y

    terms = []
    for h in range(head_count(p)):
        scores = add(
            mul(
                1 / sympy.sqrt(r), mul(rope(affine("Q", h)), sympy.Transpose(rope(affine("K", h))))
            ),
            M,
        )
        e = _ew(_fn(sympy.exp(_t)), scores)
        weights = had(e, _ew(_fn(1 / _t), mul(e, ones_matrix(T, T))))
        terms.append(mul(weights, mul(affine("V", h), p[f"WO{h}"])))
    out = terms[0]
    for term in terms[1:]:  # nested sums: a permutation of heads 0 and 1 is local to the first
        out = add(out, term)
    return add(out, mul(ones_matrix(T, 1), p["bO"])) if block.biases else out


def _norm(block: BlockForm, Y, gain, bias) -> sympy.MatrixExpr:
    """RMSNorm (or LayerNorm: centred first) of each row of Y, times the gain (+ the bias)."""
    mul, add, had = sympy.MatMul, sympy.MatAdd, sympy.HadamardProduct
    centred = (
        add(Y, mul(sympy.Integer(-1) / d, Y, ones_matrix(d, d))) if block.norm == "layer" else Y
    )
    mean_square = mul(1 / d, had(centred, centred), ones_matrix(d, d))
    normed = mul(had(_ew(_fn(1 / sympy.sqrt(_t + EPSILON)), mean_square), centred), gain)
    return add(normed, mul(ones_matrix(T, 1), bias)) if block.biases else normed


n = sympy.Symbol("n", integer=True, positive=True)  # the MLP's units
_ACTIVATIONS = {
    "silu": _t / (1 + sympy.exp(-_t)),
    "gelu": _t * (1 + sympy.erf(_t / sympy.sqrt(2))) / 2,
}


def block_context(block: BlockForm) -> sympy.Lambda | None:
    """The whole block around its attention sub-layer, a context with one hole ``Ah`` (T×d):
    ``H = X + Ah``, then ``H + MLP(norm₂(H))`` — SwiGLU ``(silu(N W1ᵀ) ⊙ (N W3ᵀ)) W2`` or the GELU
    MLP ``gelu(N W1ᵀ) W2`` (units: the rows of W1, W3, W2; the table's MLP without biases),
    ``norm₂`` with its own gain ``G2`` (and bias ``b2``). The MLP's parameters are not moved by
    the attention candidates, so ``cong`` carries ``A(X; gθ) = A(X; θ)`` to the block. None for a
    form without an MLP of the two table shapes."""
    if not block.mlp or block.mlp_activation not in _ACTIVATIONS:
        return None
    mul, add, had = sympy.MatMul, sympy.MatAdd, sympy.HadamardProduct
    X, hole = sympy.MatrixSymbol("X", T, d), sympy.MatrixSymbol("Ah", T, d)
    W1, W2, W3 = (sympy.MatrixSymbol(f"W{i}", n, d) for i in (1, 2, 3))
    H = add(X, hole)
    N = _norm(block, H, sympy.MatrixSymbol("G2", d, d), sympy.MatrixSymbol("b2", 1, d))
    gate = _ew(_fn(_ACTIVATIONS[block.mlp_activation]), mul(N, sympy.Transpose(W1)))
    units = had(gate, mul(N, sympy.Transpose(W3))) if "W3" in block.mlp else gate
    return sympy.Lambda(hole, add(H, mul(units, W2)))


# --- numpy: an independent implementation, for the cross-checks -----------------------------


def attention_numpy(
    block: BlockForm,
    X: np.ndarray,
    p: Mapping[str, np.ndarray],
    causal: bool = True,
    omega: np.ndarray | None = None,
) -> np.ndarray:
    """The same sub-layer in numpy, written from the definitions (norms, RoPE by angle, causal
    mask, softmax), not from the symbolic form."""
    t_len, width = X.shape
    y = X - X.mean(axis=1, keepdims=True) if block.norm == "layer" else X
    normed = y / np.sqrt((y * y).mean(axis=1, keepdims=True) + float(EPSILON)) @ p["G"]
    if block.biases:
        normed = normed + p["b"]
    out = np.zeros_like(X)
    for h in range(head_count(p)):
        q, k, v = (normed @ p[f"W{w}{h}"] + (p[f"b{w}{h}"] if block.biases else 0) for w in "QKV")
        if block.rope:
            q, k = rope_numpy(q, omega), rope_numpy(k, omega)
        scores = q @ k.T / np.sqrt(q.shape[1])
        if causal:
            scores = scores + np.triu(np.full((t_len, t_len), -1e9), 1)
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        out = out + (e / e.sum(axis=1, keepdims=True)) @ v @ p[f"WO{h}"]
    return out + p["bO"] if block.biases else out


ROPE_BASE = 10000.0


def rope_numpy(y: np.ndarray, omega: np.ndarray | None = None) -> np.ndarray:
    """Rotate each pair (2i, 2i+1) of row t by the angle t·ω_i, ω_i = base^(−2i/r) unless
    given."""
    t_len, width = y.shape
    if omega is None:
        omega = ROPE_BASE ** (-np.arange(0, width, 2) / width)
    angle = np.arange(t_len)[:, None] * omega[None, :]
    c, s = np.cos(angle), np.sin(angle)
    out = y.copy()
    out[:, 0::2] = y[:, 0::2] * c - y[:, 1::2] * s
    out[:, 1::2] = y[:, 0::2] * s + y[:, 1::2] * c
    return out
