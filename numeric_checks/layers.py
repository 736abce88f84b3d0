"""Numeric cross-checks of the layer identities of docs/theory.md A1–A5 and A8.

Every identity of ``proofs.absorption``, ``proofs.reduction`` and ``proofs.rank_r`` is one entry
of ``IDENTITIES``: a function drawing a random layer (random shapes, float64 values) and
returning both sides, computed with the same ``symbolic.layers`` functions the proofs reason
about. ``check(name)`` evaluates it on ``TRIALS`` layers, cycling through every activation of
the table (numpy callables, or torch's real functions with ``backend="torch"``).

``llama_swiglu`` builds the gated MLP exactly as LLaMA's code does — ``w2(silu(w1(x)) * w3(x))``
from ``torch.nn.Linear`` layers — and compares it with ``layers.gated(x, W1, W3, W2ᵀ, silu)``
(torch, numpy) and with the SymPy gated form evaluated in certified interval arithmetic.

``replay_witnesses`` re-evaluates certified counterexamples in float64.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from numeric_checks.activations import REL_TOL, SEED, torch_available
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation
from symbolic.engine import NumericCheck

TRIALS = 2 * len(ACTIVATIONS)  # random layers per identity: every activation twice
MAX_DIM = 8  # d, n ≤ 8; B, d_out, r ≤ 4 (REL_TOL's round-off bound assumes width ≤ 8)
# A certified witness difference must be this far from 0 for float64 to show the break;
# every witness of the activation table is ≥ 1e-2.
WITNESS_FLOOR = 1e-8
LLAMA_SHAPE = dict(batch=5, d=16, hidden=44)  # LLaMA's hidden = 8/3·d, rounded (here small)
LLAMA_SYMBOLIC_SHAPE = dict(batch=1, d=3, hidden=4)  # small enough for exact SymPy entries

Array = Any  # numpy.ndarray | torch.Tensor


def normwise_error(a: Array, b: Array) -> float:
    """``max|a − b| / max(|a|, |b|)``: relative to the output's scale, so that an entry that
    cancels to ~0 does not inflate the error (float64 round-off is relative to the terms)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    return float(np.max(np.abs(a - b), initial=0.0)) / max(scale, 1e-300)


@dataclass
class Draw:
    """Random shapes and values for one trial, on one backend."""

    rng: np.random.Generator
    backend: str  # "numpy" | "torch"

    def dim(self, high: int = MAX_DIM) -> int:
        return int(self.rng.integers(1, high + 1))

    def array(self, a: np.ndarray) -> Array:
        if self.backend == "torch":
            import torch

            return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))
        return np.asarray(a, dtype=np.float64)

    def normal(self, *shape: int, scale: float = 1.0) -> Array:
        return self.array(scale * self.rng.standard_normal(shape))

    def weights(self, rows: int, d: int) -> Array:
        """Rows of norm ~1, so that scores x·k stay O(1) at every width."""
        return self.normal(rows, d, scale=1.0 / np.sqrt(d))

    def invertible(self, r: int) -> tuple[Array, Array]:
        """``A ∈ GL(r)`` with condition number ≤ e² (orthogonal × diagonal), and ``A^{-T}``."""
        orth, _ = np.linalg.qr(self.rng.standard_normal((r, r)))
        a = orth @ np.diag(np.exp(self.rng.uniform(-1.0, 1.0, r)))
        return self.array(a), self.array(np.linalg.inv(a).T)

    def sigma(self, act: Activation) -> Callable[[Array], Array]:
        return act.torch_fn() if self.backend == "torch" else act.numpy


Sides = Callable[[Draw, Activation], tuple[Array, Array]]


@dataclass(frozen=True)
class Identity:
    """A layer identity: its THEORY item, its statement and how to evaluate both sides."""

    name: str
    source: str
    statement: str
    sides: Sides
    activations: tuple[str, ...] | None = None  # None: every activation of the table


def _col(a: Array) -> Array:
    return a.reshape(-1, 1)


def _row(a: Array) -> Array:
    return a.reshape(1, -1)


# --- A1, A2 -----------------------------------------------------------------------------------


def _key_value_sum(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, K, V, s = g.normal(B, d), g.weights(n, d), g.normal(n, dout), g.sigma(act)
    loop = sum(_col(s(x @ K[j])) * _row(V[j]) for j in range(n))
    return layers.mlp(x, K, V, s), loop


def _absorption(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Qs, K, V = g.normal(B, d), g.weights(d, d), g.weights(n, d), g.normal(n, dout)
    s = g.sigma(act)
    return layers.static_query(x, Qs, K, V, s), layers.mlp(x, layers.absorbed_keys(Qs, K), V, s)


def _mlp_is_static_query(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, K, V, s = g.normal(B, d), g.weights(n, d), g.normal(n, dout), g.sigma(act)
    eye = g.array(np.eye(d))
    return layers.mlp(x, K, V, s), layers.static_query(x, eye, K, V, s)


def _absorption_with_bias(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Qs, K, V = g.normal(B, d), g.weights(d, d), g.weights(n, d), g.normal(n, dout)
    s = g.sigma(act)
    bq, bk = g.normal(d), g.normal(n)
    lhs = layers.static_query_with_bias(x, Qs, bq, K, bk, V, s)
    absorbed_keys, absorbed_bias = layers.absorbed_keys(Qs, K), layers.absorbed_bias(bq, K, bk)
    return lhs, layers.mlp_with_bias(x, absorbed_keys, absorbed_bias, V, s)


def _augmented_static_query(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Qs, K, V = g.normal(B, d), g.weights(d, d), g.weights(n, d), g.normal(n, dout)
    s = g.sigma(act)
    bq, bk = g.normal(d), g.normal(n)
    lhs = layers.static_query_with_bias(x, Qs, bq, K, bk, V, s)
    rhs = layers.static_query(
        layers.augment(x), layers.augmented_query(Qs, bq), layers.augmented_keys(K, bk), V, s
    )
    return lhs, rhs


def _biased_mlp_is_static_query(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, K, V, s = g.normal(B, d), g.weights(n, d), g.normal(n, dout), g.sigma(act)
    b = g.normal(n)
    eye = g.array(np.eye(d + 1))
    rhs = layers.static_query(layers.augment(x), eye, layers.augmented_keys(K, b), V, s)
    return layers.mlp_with_bias(x, K, b, V, s), rhs


# --- A3, A4, A5 -------------------------------------------------------------------------------


def _symmetric_part(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, V, s = g.normal(B, d), g.normal(n, dout), g.sigma(act)
    Ms = [g.weights(d, d) for _ in range(n)]
    return layers.bilinear(x, Ms, V, s), layers.bilinear(x, [(M + M.T) / 2 for M in Ms], V, s)


def _rank1_bilinear(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Q, K, V = g.normal(B, d), g.weights(n, d), g.weights(n, d), g.normal(n, dout)
    s = g.sigma(act)
    Ms = [_col(Q[j]) @ _row(K[j]) for j in range(n)]  # M_j = q_jᵀ k_j
    return layers.bilinear(x, Ms, V, s), layers.symmetric_rank1(x, Q, K, V, s)


def _gated_unit_sum(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Q, K, V = g.normal(B, d), g.weights(n, d), g.weights(n, d), g.normal(n, dout)
    s = g.sigma(act)
    loop = sum(_col(s(x @ Q[j]) * (x @ K[j])) * _row(V[j]) for j in range(n))
    return layers.gated(x, Q, K, V, s), loop


def _gated_is_symmetric_when_linear(g: Draw, act: Activation):
    B, d, n, dout = g.dim(4), g.dim(), g.dim(), g.dim(4)
    x, Q, K, V = g.normal(B, d), g.weights(n, d), g.weights(n, d), g.normal(n, dout)
    c = float(g.rng.normal())
    s = lambda t: c * t  # noqa: E731  σ(z) = c·z, a linear activation with a random slope
    return layers.gated(x, Q, K, V, s), layers.symmetric_rank1(x, Q, K, V, s)


# --- A8 ---------------------------------------------------------------------------------------


def _rank_r_layer(g: Draw):
    B, d, n, r, dout = g.dim(4), g.dim(), g.dim(), g.dim(4), g.dim(4)
    x, V = g.normal(B, d), g.normal(n, dout)
    Qs = [g.normal(d, r, scale=1 / np.sqrt(d * r)) for _ in range(n)]
    Ks = [g.normal(d, r, scale=1 / np.sqrt(d)) for _ in range(n)]
    return x, Qs, Ks, V


def _rank_r_is_bilinear(g: Draw, act: Activation):
    x, Qs, Ks, V = _rank_r_layer(g)
    s = g.sigma(act)
    Ms = [Q @ K.T for Q, K in zip(Qs, Ks, strict=True)]
    return layers.rank_r(x, Qs, Ks, V, s), layers.bilinear(x, Ms, V, s)


def _rank_r_scores_loop(g: Draw, act: Activation):
    x, Qs, Ks, _ = _rank_r_layer(g)
    loop = [
        sum((x @ Q[:, t]) * (x @ K[:, t]) for t in range(Q.shape[1]))
        for Q, K in zip(Qs, Ks, strict=True)
    ]
    return layers.rank_r_scores(x, Qs, Ks), np.stack([np.asarray(c) for c in loop], axis=-1)


def _rank_r_gl(g: Draw, act: Activation):
    x, Qs, Ks, V = _rank_r_layer(g)
    s = g.sigma(act)
    Qs2, Ks2 = [], []
    for Q, K in zip(Qs, Ks, strict=True):  # a different A ∈ GL(r) for every unit
        A, A_inv_t = g.invertible(Q.shape[1])
        Qs2.append(Q @ A)
        Ks2.append(K @ A_inv_t)
    return layers.rank_r(x, Qs, Ks, V, s), layers.rank_r(x, Qs2, Ks2, V, s)


def _rank_r_exchange(g: Draw, act: Activation):
    x, Qs, Ks, V = _rank_r_layer(g)
    s = g.sigma(act)
    return layers.rank_r(x, Qs, Ks, V, s), layers.rank_r(x, Ks, Qs, V, s)


IDENTITIES: dict[str, Identity] = {
    i.name: i
    for i in (
        Identity("key_value_sum", "A1", "σ(x Kᵀ) V = Σ_j σ(x·k_j) v_j", _key_value_sum),
        Identity("absorption", "A2", "σ((x Q) Kᵀ) V = σ(x (K Qᵀ)ᵀ) V", _absorption),
        Identity("mlp_is_static_query", "A2", "σ(x Kᵀ) V = σ((x I) Kᵀ) V", _mlp_is_static_query),
        Identity(
            "absorption_with_bias",
            "A2",
            "σ((x Q + b_q) Kᵀ + b_k) V = σ(x (K Qᵀ)ᵀ + b_q Kᵀ + b_k) V",
            _absorption_with_bias,
        ),
        Identity(
            "augmented_static_query",
            "A2",
            "σ((x Q + b_q) Kᵀ + b_k) V = σ((x̃ Q̃) K̃ᵀ) V",
            _augmented_static_query,
        ),
        Identity(
            "biased_mlp_is_static_query",
            "A2",
            "σ(x Kᵀ + b) V = σ((x̃ I) K̃ᵀ) V",
            _biased_mlp_is_static_query,
        ),
        Identity(
            "symmetric_part",
            "A3",
            "Σ_j σ(x M_j xᵀ) v_j = Σ_j σ(x (M_j + M_jᵀ)/2 xᵀ) v_j",
            _symmetric_part,
        ),
        Identity(
            "rank1_bilinear",
            "A4",
            "bilinear with M_j = q_jᵀ k_j = σ((x Qᵀ) ⊙ (x Kᵀ)) V",
            _rank1_bilinear,
        ),
        Identity(
            "gated_unit_sum",
            "A5",
            "(σ(x Qᵀ) ⊙ (x Kᵀ)) V = Σ_j σ(x·q_j)(x·k_j) v_j",
            _gated_unit_sum,
        ),
        Identity(
            "gated_is_symmetric_when_linear",
            "A5",
            "σ(z) = c·z ⇒ Gated = Sym",
            _gated_is_symmetric_when_linear,
            activations=("identity",),
        ),
        Identity(
            "rank_r_is_bilinear",
            "A8",
            "rank-r layer = bilinear layer with M_j = Q_j K_jᵀ",
            _rank_r_is_bilinear,
        ),
        Identity(
            "rank_r_scores",
            "A8",
            "x Q_j K_jᵀ xᵀ = Σ_s (x·q_js)(x·k_js)",
            _rank_r_scores_loop,
            activations=("identity",),
        ),
        Identity("rank_r_gl", "A8", "rank-r layer invariant under (Q_j A, K_j A^{-T})", _rank_r_gl),
        Identity(
            "rank_r_exchange", "A8", "rank-r layer invariant under Q_j ↔ K_j", _rank_r_exchange
        ),
    )
}


def check(
    name: str, backend: str = "numpy", trials: int = TRIALS, seed: int = SEED
) -> NumericCheck:
    """Evaluate the identity ``name`` on ``trials`` random layers; agree within ``REL_TOL``."""
    identity = IDENTITIES[name]
    acts = [ACTIVATIONS[a] for a in identity.activations or ACTIVATIONS]
    if backend == "torch":
        acts = [a for a in acts if a.torch is not None]
    g = Draw(np.random.default_rng([seed, list(IDENTITIES).index(name)]), backend)
    worst = 0.0
    for t in range(trials):
        lhs, rhs = identity.sides(g, acts[t % len(acts)])
        worst = max(worst, normwise_error(lhs, rhs))
    return NumericCheck(
        f"{name}: {identity.statement}",
        backend,
        trials,
        worst,
        REL_TOL,
        worst <= REL_TOL,
        f"{len(acts)} activations, random shapes ≤ {MAX_DIM}",
    )


def checks(names: Iterable[str], torch: bool = False) -> tuple[NumericCheck, ...]:
    """``check`` for each name on numpy, and on torch too when asked and installed."""
    backends = ["numpy"] + (["torch"] if torch and torch_available() else [])
    return tuple(check(n, b) for n in names for b in backends)


# --- Parameter counts ------------------------------------------------------------------------

COUNT_SIZES = ((1, 1, 1), (3, 5, 2), (8, 4, 3))  # (d, n, r) at which weights are counted


def _weights_of(form: str, g: Draw, d: int, n: int, r: int) -> list:
    """The weights ``form`` runs with, in the order of its signature (after x)."""
    return {
        "mlp": lambda: [g.normal(n, d), g.normal(n, d)],
        "static_query": lambda: [g.normal(d, d), g.normal(n, d), g.normal(n, d)],
        "bilinear": lambda: [[g.normal(d, d) for _ in range(n)], g.normal(n, d)],
        "rank_r": lambda: [
            [g.normal(d, r) for _ in range(n)],
            [g.normal(d, r) for _ in range(n)],
            g.normal(n, d),
        ],
        "symmetric_rank1": lambda: [g.normal(n, d), g.normal(n, d), g.normal(n, d)],
        "gated": lambda: [g.normal(n, d), g.normal(n, d), g.normal(n, d)],
        "gated_rank_r": lambda: [
            [g.normal(d, r) for _ in range(n)],
            [g.normal(d, r) for _ in range(n)],
            g.normal(n, d),
        ],
    }[form]()


def _entries(weights) -> int:
    return sum(_entries(w) if isinstance(w, list) else int(np.asarray(w).size) for w in weights)


def parameter_counts(torch: bool = False) -> tuple[NumericCheck, ...]:
    """Entries of the weights each layer form actually runs with vs its ``LAYER_FORMS`` formula;
    with torch, LLaMA's block: ``sum(p.numel())`` vs the gated formula 3nd."""
    g = Draw(np.random.default_rng(SEED), "numpy")
    worst, problems = 0, []
    for form in layers.LAYER_FORMS:
        for d, n, r in COUNT_SIZES:
            weights = _weights_of(form, g, d, n, r)
            out = layers.LAYER_FORMS[form].fn(g.normal(2, d), *weights, np.tanh)
            if out.shape != (2, d):
                problems.append(f"{form} at d={d}, n={n}, r={r} returned shape {out.shape}")
            worst = max(
                worst, abs(_entries(weights) - int(layers.parameter_count(form, d=d, n=n, r=r)))
            )
    runs = len(layers.LAYER_FORMS) * len(COUNT_SIZES)
    out = [
        NumericCheck(
            "entries of the weights each layer form runs with = LAYER_FORMS formula",
            "numpy",
            runs,
            float(worst),
            0.0,
            worst == 0 and not problems,
            "; ".join(problems),
        )
    ]
    if torch and torch_available():
        worst = 0
        for d, n, _ in COUNT_SIZES:
            params = sum(p.numel() for p in llama_mlp(d, n).parameters())
            worst = max(worst, abs(params - int(layers.parameter_count("gated", d=d, n=n))))
        out.append(
            NumericCheck(
                "LLaMA block (3 nn.Linear): sum of parameters().numel() = 3nd",
                "torch",
                len(COUNT_SIZES),
                float(worst),
                0.0,
                worst == 0,
            )
        )
    return tuple(out)


# --- Certified witnesses replayed in float64 --------------------------------------------------


@dataclass(frozen=True)
class WitnessCase:
    """A counterexample: a layer difference evaluated at exact values, with its certified value.

    ``difference(sigma, values)`` must be built from ``symbolic.layers`` so that the SymPy
    evaluation (certified) and the float64 replay compute the same thing.
    """

    activation: Activation
    difference: Callable[[Callable, Mapping[str, Any]], Any]
    values: Mapping[str, sympy.Matrix]
    certified: float  # a float inside the certified enclosure of the exact difference


def replay_witnesses(
    name: str, cases: Sequence[WitnessCase], backend: str = "numpy"
) -> NumericCheck:
    """Each witness in float64: matches its certified value and is far from 0."""
    worst, failures = 0.0, []
    for case in cases:
        g = Draw(np.random.default_rng(SEED), backend)
        values = {
            k: g.array(np.array(v.tolist(), dtype=np.float64)) for k, v in case.values.items()
        }
        got = float(np.asarray(case.difference(g.sigma(case.activation), values)).reshape(-1)[0])
        err = abs(got - case.certified) / max(abs(case.certified), 1e-300)
        worst = max(worst, err)
        if err > REL_TOL or abs(got) < WITNESS_FLOOR:
            failures.append(
                f"{case.activation.name}: float64 {got:.6g} vs certified {case.certified:.6g}"
            )
    detail = "; ".join(failures) or f"every difference ≥ {WITNESS_FLOOR:g} and as certified"
    return NumericCheck(name, backend, len(cases), worst, REL_TOL, not failures, detail)


def replay_all(
    name: str, cases: Sequence[WitnessCase], torch: bool = False
) -> tuple[NumericCheck, ...]:
    out = [replay_witnesses(name, cases)]
    if torch and torch_available():
        out.append(replay_witnesses(name, [c for c in cases if c.activation.torch], "torch"))
    return tuple(out)


# --- The gated MLP as LLaMA builds it ---------------------------------------------------------


def llama_mlp(d: int, hidden: int, gate=None):
    """LLaMA's feed-forward block (Meta's ``FeedForward``; ``LlamaMLP`` in transformers):
    three bias-free ``nn.Linear`` layers and ``w2(silu(w1(x)) * w3(x))``, in float64
    (``gate``: another torch function in place of silu, e.g. ``F.relu`` for ReGLU)."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    sigma = F.silu if gate is None else gate

    class FeedForward(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w1 = torch.nn.Linear(d, hidden, bias=False)
            self.w2 = torch.nn.Linear(hidden, d, bias=False)
            self.w3 = torch.nn.Linear(d, hidden, bias=False)

        def forward(self, x):
            return self.w2(sigma(self.w1(x)) * self.w3(x))

    return FeedForward().to(torch.float64)


def llama_swiglu(seed: int = SEED) -> tuple[NumericCheck, ...]:
    """The torch-built LLaMA block equals the toolkit's gated form with Q = W1, K = W3, V = W2ᵀ."""
    import torch

    silu = ACTIVATIONS["silu"]
    torch.manual_seed(seed)
    out: list[NumericCheck] = []
    for backend, shape in (("torch", LLAMA_SHAPE), ("mpmath", LLAMA_SYMBOLIC_SHAPE)):
        block = llama_mlp(shape["d"], shape["hidden"])
        x = torch.randn(shape["batch"], shape["d"], dtype=torch.float64)
        with torch.no_grad():
            real = block(x).numpy()
            W1, W2, W3 = (w.weight.detach() for w in (block.w1, block.w2, block.w3))
            if backend == "torch":
                form = layers.gated(x, W1, W3, W2.T, silu.torch_fn()).numpy()
                err = normwise_error(real, form)
                out.append(
                    NumericCheck(
                        "LLaMA w2(silu(w1 x) * w3 x) = layers.gated(x, W1, W3, W2ᵀ, F.silu)",
                        "torch",
                        shape["batch"],
                        err,
                        REL_TOL,
                        err <= REL_TOL,
                        _shape_text(shape),
                    )
                )
                as_np = [a.numpy() for a in (x, W1, W3, W2.T)]
                form = layers.gated(*as_np, silu.numpy)
                err = normwise_error(real, form)
                out.append(
                    NumericCheck(
                        "LLaMA block = layers.gated with the table's numpy silu",
                        "numpy",
                        shape["batch"],
                        err,
                        REL_TOL,
                        err <= REL_TOL,
                        _shape_text(shape),
                    )
                )
            else:
                err = normwise_error(real, _exact_gated(x, W1, W3, W2.T, silu))
                out.append(
                    NumericCheck(
                        "LLaMA block = SymPy gated form (exact weights, σ = "
                        "z·sigmoid(z), certified enclosure)",
                        "mpmath",
                        shape["batch"],
                        err,
                        REL_TOL,
                        err <= REL_TOL,
                        _shape_text(shape),
                    )
                )
    return tuple(out)


def _shape_text(shape: Mapping[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in shape.items())


def _exact_gated(x, Q, K, V, act: Activation) -> np.ndarray:
    """``layers.gated`` on SymPy matrices holding the float64 weights exactly (binary floats are
    rationals), with σ the table's SymPy expression; each entry enclosed by ``certify``."""
    from symbolic.steps import certified_float

    exact = [sympy.Matrix(a.tolist()).applyfunc(sympy.Rational) for a in (x, Q, K, V)]
    sigma = sympy.Lambda(sympy.Symbol("t", real=True), act.sympy_at(sympy.Symbol("t", real=True)))
    value = layers.gated(*exact, sigma)
    return np.array([[certified_float(e) for e in row] for row in value.tolist()])


def witness_case(w, difference: Callable) -> WitnessCase:
    """The numeric replay of a certified layer witness (``symbolic.gated.witness``)."""
    from symbolic.steps import certified_float

    return WitnessCase(w.activation, difference, w.values, certified_float(w.exact))
