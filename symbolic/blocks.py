"""Transformer blocks and their parameter symmetries (issue 26), decided by the kernel.

A block acts on a sequence ``X`` (T×d, T symbolic). Its **attention sub-layer** is written once
as a SymPy ``MatrixExpr`` at symbolic sizes T, d, r (the head dimension) with ``HEADS`` heads:

    N(X) = norm(X)·G (+ 1·b)            RMSNorm or LayerNorm, gain G (d×d, diagonal), bias b
    S_h  = rope(N W_Q,h (+ 1·b_Q,h)) · rope(N W_K,h (+ 1·b_K,h))ᵀ / √r + M     (M: the mask)
    A(X) = Σ_h softmax(S_h) · (N W_V,h (+ 1·b_V,h)) · W_O,h (+ 1·b_O)

softmax is row-wise (``exp`` elementwise, divided by its row sums), the causal mask an additive
T×T matrix, ``rope(Y) = C ⊙ Y + S ⊙ (Y P)`` with C, S the positions' cosines and sines and P the
pair rotation (the form of every implementation). The block is ``H = X + A(X)`` followed by
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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from symbolic.block_proof import localised
from symbolic.engine import Step
from symbolic.kernel import (
    Fact,
    check_equal,
    check_matrix_expr_equal,
    check_sum_equal,
    cong,
    counterexample,
    negate,
    undecided,
)

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


def _ones(rows, cols) -> sympy.MatrixExpr:
    return sympy.OneMatrix(rows, cols)


def head_count(p: Mapping[str, Any]) -> int:
    """The heads of a parameter table (``WQ0``, ``WQ1``, …)."""
    return sum(1 for k in p if k.startswith("WQ"))


def attention(block: BlockForm, p: Mapping[str, Any]) -> sympy.MatrixExpr:
    """The attention sub-layer A(X) at symbolic sizes (see the module docstring), written as
    nested nodes that SymPy does not regroup: the normed sequence, each head's Q, K, V, scores,
    softmax weights and ``V W_O`` are subterms, so that an identity can be localised to the
    subterm a transformation changes (``symbolic.block_proof``)."""
    X = sympy.MatrixSymbol("X", T, d)
    M = sympy.MatrixSymbol("M", T, T)
    C, S, P = (
        sympy.MatrixSymbol("C", T, r),
        sympy.MatrixSymbol("S", T, r),
        sympy.MatrixSymbol("P", r, r),
    )
    mul, add, had = sympy.MatMul, sympy.MatAdd, sympy.HadamardProduct
    normed = _norm(block, X, p["G"], p.get("b"))

    def affine(w: str, h: int) -> sympy.MatrixExpr:
        y = mul(normed, p[f"W{w}{h}"])
        return add(y, mul(_ones(T, 1), p[f"b{w}{h}"])) if block.biases else y

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
        weights = had(e, _ew(_fn(1 / _t), mul(e, _ones(T, T))))
        terms.append(mul(weights, mul(affine("V", h), p[f"WO{h}"])))
    out = terms[0]
    for term in terms[1:]:  # nested sums: a permutation of heads 0 and 1 is local to the first
        out = add(out, term)
    return add(out, mul(_ones(T, 1), p["bO"])) if block.biases else out


def _norm(block: BlockForm, Y, gain, bias) -> sympy.MatrixExpr:
    """RMSNorm (or LayerNorm: centred first) of each row of Y, times the gain (+ the bias)."""
    mul, add, had = sympy.MatMul, sympy.MatAdd, sympy.HadamardProduct
    centred = add(Y, mul(sympy.Integer(-1) / d, Y, _ones(d, d))) if block.norm == "layer" else Y
    mean_square = mul(1 / d, had(centred, centred), _ones(d, d))
    normed = mul(had(_ew(_fn(1 / sympy.sqrt(_t + EPSILON)), mean_square), centred), gain)
    return add(normed, mul(_ones(T, 1), bias)) if block.biases else normed


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


# --- the candidates -----------------------------------------------------------------------


def inverse(m):
    return m.inv() if _sym(m) else np.linalg.inv(m)


@dataclass(frozen=True)
class Candidate:
    """A group acting on the sub-layer's parameters: ``act(params, g)`` (SymPy or numpy),
    the group's elements as matrix symbols (``group``: name → (rows, cols, kind)), and, for a
    continuous group acting by ``W₁ → W₁A, W₂ → W₂A^{−T}`` (or ``A^{−1}W₂``), the conserved
    matrix of gradient flow (``symbolic.block_laws``)."""

    name: str
    text: str  # the substitution, as shown
    group: Mapping[str, tuple[Any, Any, str]]
    act: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]
    conserved: str | None = None
    law: str | None = None  # the name of the law in symbolic.block_laws


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
            conserved="diag(Gᵀ G − Σ W Wᵀ) (the gains' diagonal)",
            law="gain",
        ),
    ]
    return out if heads >= 2 else out[1:]


def key_shift_facts(block: BlockForm) -> tuple[Fact, Fact]:
    """The softmax shift realised by the key bias: ``b_K,0 → b_K,0 + c`` moves the scores of
    head 0 by a constant per row, ``S + (Q cᵀ/√r)·1ᵀ`` (``check_matrix_expr_equal``), and
    ``softmax(s + u·1) = softmax(s)`` row by row at general T (``check_sum_equal``)."""
    from symbolic.block_laws import softmax_shift_fact

    p = parameters(block)
    c = sympy.MatrixSymbol("c", 1, r)
    X = sympy.MatrixSymbol("N", T, d)  # the normed sequence: any T×d matrix
    q = X * p["WQ0"] + _ones(T, 1) * p["bQ0"]

    def scores(bk):
        return q * (X * p["WK0"] + _ones(T, 1) * bk).T / sympy.sqrt(r)

    with sympy.evaluate(False):
        shifted = scores(p["bK0"] + c)
    moved = check_matrix_expr_equal(
        shifted, scores(p["bK0"]) + q * c.T / sympy.sqrt(r) * _ones(1, T)
    )
    return moved, softmax_shift_fact()


@dataclass(frozen=True)
class BlockDecision:
    """One candidate decided: ``invariant`` True (kernel proof), False (certified witness) or
    None (unknown); ``sizes`` says where it holds."""

    block: str
    candidate: Candidate
    invariant: bool | None
    steps: tuple[Step, ...]
    sizes: str
    witness: Mapping[str, Any] | None = None
    numeric_values: Mapping[str, Any] = field(default_factory=dict)
    heads: int = HEADS

    @property
    def outcome(self) -> str:
        return {True: "invariant", False: "broken", None: "unknown"}[self.invariant]

    @property
    def statement(self) -> sympy.Basic:
        return self.steps[-1].formula


def general_sizes(heads: int = HEADS) -> str:
    return f"general T, d, r; {heads} head{'s' if heads != 1 else ''}"


def decide_candidate(block: BlockForm, cand: Candidate, heads: int = HEADS) -> BlockDecision:
    """The kernel's identity on the sub-layer at symbolic sizes (``symbolic.block_proof``: the
    kernel decides the subterms the group acts on, its rules carry them to the whole; else the
    whole at once); when it is not proved, a certified witness at explicit sizes; else
    unknown. The witness is sought before the whole identity (the costlier try)."""
    p = parameters(block, heads)
    g = {k: sympy.MatrixSymbol(k, rows, cols) for k, (rows, cols, _) in cand.group.items()}
    before = attention(block, p)
    with sympy.evaluate(False):  # A(X; gθ) as written: W_V B B⁻¹ W_O is not folded into A(X; θ)
        moved = cand.act(p, g)
        after = before.xreplace({p[k]: v for k, v in moved.items() if v != p[k]})
    fact = localised(after, before, set(g.values()), BLOCK_TIMEOUT_S, checks=6 + 4 * heads)
    found = None
    if fact is None:
        found = block_witness(block, cand, heads)
    if fact is None and found is None:
        fact = check_matrix_expr_equal(after, before, timeout_s=BLOCK_TIMEOUT_S)
    if fact is not None and fact.proved:
        how = (
            "kernel checks on the subterms the group acts on, carried to the whole by cong "
            "and trans"
            if fact.rule
            else "matrix algebra (transpose, inverse, products inside softmax and the norms)"
        )
        kinds = ", ".join(f"{k} {kind}" for k, (_, _, kind) in cand.group.items())
        steps = [
            Step(
                fact,
                f"{general_sizes(heads)}: {how}",
                note=f"A(X; gθ) = A(X; θ){' for ' + kinds if kinds else ''}",
            )
        ]
        context = block_context(block)
        if context is not None:
            steps.append(
                Step(
                    cong(fact, context),
                    "cong: the block is X + A followed by H + MLP(norm₂(H)), whose parameters "
                    "the group does not move (kernel rule)",
                    note="block(X; gθ) = block(X; θ)",
                )
            )
        return BlockDecision(
            block.name, cand, True, tuple(steps), general_sizes(heads), heads=heads
        )
    if found is not None:
        witness, wfact = found
        return BlockDecision(
            block.name,
            cand,
            False,
            (
                Step(
                    negate(wfact),
                    "certified witness: one entry of A(X; gθ) − A(X; θ) is nonzero (kernel)",
                ),
            ),
            witness_sizes_text(heads),
            witness=witness,
            heads=heads,
        )
    return BlockDecision(
        block.name,
        cand,
        None,
        (
            Step(
                undecided(
                    fact.formula,
                    "neither the matrix identity nor a certified witness within the bounds",
                    "sympy+interval",
                ),
                "bounded search",
            ),
        ),
        "—",
        heads=heads,
    )


# --- witnesses at explicit sizes: T = 2, d = 2, r = 2, one head moved ---------------------------

WITNESS_T, WITNESS_D, WITNESS_R = 2, 2, 2


def witness_sizes_text(heads: int = HEADS) -> str:
    return (
        f"T = {WITNESS_T}, d = {WITNESS_D}, r = {WITNESS_R}, {general_sizes(heads).split('; ')[1]}"
    )


WITNESS_OMEGA = sympy.atan(sympy.Rational(4, 3))  # cos ω = 3/5, sin ω = 4/5: exact tables


def _rope_tables(t_len: int, width: int) -> tuple[sympy.Matrix, sympy.Matrix, sympy.Matrix]:
    """C, S (positions 0..T−1, the frequency ω = atan(4/3) in every plane, so that the cosines
    and sines at positions 0 and 1 are rational) and the pair rotation P."""
    C = sympy.Matrix(t_len, width, lambda t, i: sympy.cos(t * WITNESS_OMEGA))
    S = sympy.Matrix(t_len, width, lambda t, i: sympy.sin(t * WITNESS_OMEGA))
    P = sympy.zeros(width, width)
    for i in range(0, width, 2):
        P[i, i + 1], P[i + 1, i] = 1, -1
    return C, S, P


WITNESS_GROUP = {"GL": [[2, 1], [0, 1]], "diagonal": None}


def block_witness(block: BlockForm, cand: Candidate, heads: int = HEADS):
    """A certified nonzero entry of ``A(X; gθ) − A(X; θ)`` at small exact values (explicit
    sizes, causal mask, RoPE at positions 0 and 1), or None. The point is fixed: symbols for
    X's first row, exact rationals elsewhere; the kernel's ``counterexample`` decides."""
    import random

    rng = random.Random(13)
    values = [sympy.Rational(v) for v in ("1", "-1", "2", "1/2", "-2", "3/2")]
    sizes = {T: WITNESS_T, d: WITNESS_D, r: WITNESS_R}
    p = parameters(block, heads)
    explicit = {
        k: sympy.Matrix(
            *[sizes.get(s, s) for s in m.shape],
            lambda i, j, k=k: (
                sympy.Symbol(f"{k}_{i}{j}", real=True) if k != "G" or i == j else sympy.Integer(0)
            ),
        )
        for k, m in p.items()
    }  # the gain is diagonal
    X = sympy.Matrix(WITNESS_T, WITNESS_D, lambda i, j: sympy.Symbol(f"X_{i}{j}", real=True))
    g = {}
    for k, (_, _, kind) in cand.group.items():
        if kind == "GL":
            g[k] = sympy.Matrix(WITNESS_GROUP["GL"])
        elif kind == "O":  # a reflection: orthogonal, and commutes with no RoPE rotation
            g[k] = sympy.Matrix([[1, 0], [0, -1]])
        elif kind == "diagonal":
            g[k] = sympy.diag(2, sympy.Rational(1, 2))
        else:
            return None
    moved = cand.act(explicit, g)
    try:
        after = _explicit_attention(block, X, moved)[WITNESS_T - 1, 0]
        before = _explicit_attention(block, X, explicit)[WITNESS_T - 1, 0]
    except (TypeError, ValueError):
        return None
    symbols = sorted((after - before).free_symbols, key=str)
    for _ in range(6):
        point = {s: rng.choice(values) for s in symbols}
        fact = counterexample(after, before, point, tuple(symbols))
        if fact.refuted:
            rest = {
                v: sympy.Integer(1)
                for m in (X, *explicit.values())
                for v in m.free_symbols
                if v not in point
            }  # the difference has none
            values = {k: m.xreplace({**rest, **point}) for k, m in {"X": X, **explicit}.items()}
            return {
                "sizes": witness_sizes_text(heads),
                "entry": (WITNESS_T - 1, 0),
                "values": values,
                "group": dict(g),
                "difference": (after - before).xreplace(point),
            }, fact
    return None


def _explicit_attention(
    block: BlockForm, X: sympy.Matrix, p: Mapping[str, sympy.Matrix]
) -> sympy.Matrix:
    """The sub-layer on explicit matrices (causal mask, RoPE tables of ``_rope_tables``)."""
    t_len, width = X.shape
    y = X - X * sympy.ones(width, width) / width if block.norm == "layer" else X
    rows = [
        sympy.sqrt(sum(y[i, j] ** 2 for j in range(width)) / width + EPSILON) for i in range(t_len)
    ]
    normed = sympy.Matrix(t_len, width, lambda i, j: y[i, j] / rows[i]) * p["G"]
    if block.biases:
        normed = normed + sympy.ones(t_len, 1) * p["b"]
    C, S, P = _rope_tables(t_len, WITNESS_R)
    out = sympy.zeros(t_len, width)
    for h in range(head_count(p)):

        def affine(w, h=h):
            z = normed * p[f"W{w}{h}"]
            return z + sympy.ones(t_len, 1) * p[f"b{w}{h}"] if block.biases else z

        q, k, v = affine("Q"), affine("K"), affine("V")
        if block.rope:
            q = q.multiply_elementwise(C) + (q * P).multiply_elementwise(S)
            k = k.multiply_elementwise(C) + (k * P).multiply_elementwise(S)
        scores = q * k.T / sympy.sqrt(WITNESS_R)
        weights = sympy.zeros(t_len, t_len)
        for i in range(t_len):  # causal: position i sees 0..i
            e = [sympy.exp(scores[i, j]) for j in range(i + 1)]
            for j in range(i + 1):
                weights[i, j] = e[j] / sum(e)
        out = out + weights * v * p[f"WO{h}"]
    return out + sympy.ones(t_len, 1) * p["bO"] if block.biases else out


# --- RoPE-commuting rotations: the scores' entry at symbolic positions -----------------------


def rope_rotation_facts() -> list[Fact]:
    """``rope(q A, t)·rope(k A^{−T}, s)ᵀ = rope(q, t)·rope(k, s)ᵀ`` for A acting in each RoPE
    plane as ``a I + b J`` (J the quarter turn: the matrices that commute with every rotation,
    i.e. the scaled rotations, a² + b² ≠ 0), one and two planes (``check_equal``). A position's
    rotation is ``[[c, s], [−s, c]]`` with c, s symbolic (cos and sin of any position times any
    frequency), so the identity is rational: A^{−T} = A/(a² + b²), written out."""
    facts = []
    for planes in (1, 2):
        q = sympy.Matrix(1, 2 * planes, lambda i, j: sympy.Symbol(f"q{j}", real=True))
        k = sympy.Matrix(1, 2 * planes, lambda i, j: sympy.Symbol(f"k{j}", real=True))
        at_t, at_s, A, A_inv_T = (
            sympy.diag(*[_plane(f"{n}{i}", f"{m}{i}", inv) for i in range(planes)])
            for n, m, inv in (
                ("c_t", "s_t", False),
                ("c_s", "s_s", False),
                ("a", "b", False),
                ("a", "b", True),
            )
        )
        with sympy.evaluate(False):
            lhs = (q * A * at_t * (k * A_inv_T * at_s).T)[0, 0]
        rhs = sympy.expand((q * at_t * (k * at_s).T)[0, 0])
        facts.append(check_equal(lhs, rhs, timeout_s=BLOCK_TIMEOUT_S))
    return facts


def _plane(cos_name: str, sin_name: str, inverse_transpose: bool) -> sympy.Matrix:
    """``[[c, s], [−s, c]]`` (c, s real symbols), or its inverse transpose
    ``[[c, s], [−s, c]]/(c² + s²)``."""
    c, s = sympy.Symbol(cos_name, real=True), sympy.Symbol(sin_name, real=True)
    scale = 1 / (c**2 + s**2) if inverse_transpose else 1
    return sympy.Matrix([[c * scale, s * scale], [-s * scale, c * scale]])


__all__ = [
    "BLOCKS",
    "BlockDecision",
    "BlockForm",
    "Candidate",
    "attention",
    "attention_numpy",
    "candidates",
    "decide_candidate",
    "parameters",
    "rope_rotation_facts",
]


# --- pre-norm scale invariance: X → cX, c > 0 ------------------------------------------------


def norm_scale_facts() -> tuple[Fact, Fact, Fact]:
    """Entry (t, i) of RMSNorm at general d: (1) ``RMSNorm(cX) = RMSNorm(X)`` for c > 0 when
    ε = 0 (sum normal form), so any f(RMSNorm(X)) is invariant; (2) with ε > 0 it is not
    (a certified witness at d = 1, ε = 10⁻⁵, X = 1/1000, c = 2); (3) the residual sum
    ``X + RMSNorm(X)·W`` is not invariant even at ε = 0 (d = 1, X = W = 1, c = 2)."""
    c = sympy.Symbol("c", positive=True)
    X = sympy.IndexedBase("X", real=True)
    i, k = sympy.symbols("i k", integer=True)
    eps = sympy.Symbol("epsilon", nonnegative=True)

    def rms(scale, e):
        return scale * X[i] / sympy.sqrt(sympy.Sum(scale**2 * X[k] ** 2, (k, 0, d - 1)) / d + e)

    exact = check_sum_equal(rms(c, 0), rms(1, 0))
    x, w = sympy.symbols("x w", real=True)

    def rms1(scale, e):  # d = 1
        return scale * x / sympy.sqrt(scale**2 * x**2 + e)

    with_eps = counterexample(
        rms1(c, eps), rms1(1, eps), {c: 2, x: sympy.Rational(1, 1000), eps: EPSILON}, (c, x, eps)
    )
    residual = counterexample(
        c * x + rms1(c, 0) * w, x + rms1(1, 0) * w, {c: 2, x: 1, w: 1}, (c, x, w)
    )
    return exact, with_eps, residual
