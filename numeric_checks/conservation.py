"""Conservation laws under real training (docs/theory.md D): the η² law, measured.

A LLaMA-style block ``w2(σ(w1(x)) * w3(x))`` (three bias-free linear maps; ``q_j, k_j`` are the
rows ``j`` of ``W1, W3`` and ``v_j`` the column ``j`` of ``W2``) is trained by plain gradient
descent on random data (mean squared error to random targets, float64). Per unit ``j`` two
quantities are tracked: ``‖q_j‖² − ‖k_j‖²`` (the gate/key rescaling, a symmetry iff σ has
degree 1) and ``‖k_j‖² − ‖v_j‖²`` (the key/value rescaling, a symmetry for every σ).

One step ``θ → θ − ηg`` changes ``θᵀAθ`` by exactly ``−2η⟨g, Aθ⟩ + η²gᵀAg``; when the
rescaling is a symmetry ``⟨g, Aθ⟩ = 0`` and only ``η²gᵀAg`` is left (``proofs.conservation``).
``train`` records the measured drift and the η² prediction ``Σ_steps η²gᵀAg``: for ReGLU both
quantities follow it to rounding and halving η divides the drift by ~4; for SwiGLU
``‖q_j‖² − ‖k_j‖²`` drifts at first order (halving η halves it), ``‖k_j‖² − ‖v_j‖²`` still
follows η².

Backends: torch (real ``torch.nn.Linear``, autograd, ``torch.optim.SGD``) when installed, and
numpy with hand-written gradients always; both start from the same weights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from numeric_checks.activations import torch_available
from symbolic.activations import ACTIVATIONS, np_sigmoid
from symbolic.engine import NumericCheck

SEED = 20260623  # the paper's date: every run trains the same blocks on the same data
SHAPE = dict(batch=16, d=6, hidden=8)  # small: a step costs microseconds
ETAS = (1e-3, 2e-3, 4e-3)  # step sizes: each doubles the last
STEPS = 200  # gradient steps per run
MAX_STEPS = 10_000  # the command line's bound (a run of 10⁴ steps takes about a second)
GATES = ("relu", "silu")  # ReGLU and SwiGLU
QUANTITIES = ("qk", "kv")  # ‖q_j‖² − ‖k_j‖² and ‖k_j‖² − ‖v_j‖²
QUANTITY_TEXT = {"qk": "‖q_j‖² − ‖k_j‖²", "kv": "‖k_j‖² − ‖v_j‖²"}
# Rounding: each step adds ~1e-16·‖θ‖² per quantity and ⟨g, Aθ⟩ = 0 holds to ~1e-16·|g||θ|;
# over ≤ 10⁴ steps that is ≤ 1e-11 absolute, against an η² drift ≥ 1e-7 here: 1e-6 relative
# leaves a wide margin, and a first-order drift misses it by orders of magnitude.
LAW_REL_TOL = 1e-6
# Doubling η multiplies an η² drift by 4 and a first-order one by 2 (same step count); the
# trajectory itself moves with η (by ηT·curvature ≈ 1 % here), so the ratios land within 5 %.
RATIO_TOL = 0.05
TORCH_REL_TOL = 1e-9  # torch and numpy follow the same float64 trajectory to ~1e-13


def _relu_prime(a: np.ndarray) -> np.ndarray:
    return (a > 0).astype(a.dtype)


def _silu_prime(a: np.ndarray) -> np.ndarray:
    s = np_sigmoid(a)
    return s * (1.0 + a * (1.0 - s))


DERIVATIVES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": _relu_prime,  # ReLU is not differentiable at 0; random data never hits it
    "silu": _silu_prime,
}


@dataclass(frozen=True)
class Run:
    """One training run: per step, the drift of each quantity (max over units of |Q_j(t) −
    Q_j(0)|) and the law's error; at the end, per unit drift and η² prediction."""

    gate: str
    eta: float
    steps: int
    backend: str
    drift: dict[str, np.ndarray]  # quantity -> (steps + 1,) max_j |Q_j(t) − Q_j(0)|
    final: dict[str, np.ndarray]  # quantity -> (hidden,) Q_j(T) − Q_j(0)
    eta2: dict[str, np.ndarray]  # quantity -> (hidden,) Σ_steps η² gᵀAg
    first: dict[str, np.ndarray]  # quantity -> (hidden,) Σ_steps −2η⟨g, Aθ⟩
    weights: tuple[np.ndarray, np.ndarray, np.ndarray]  # W1, W2, W3 after training

    def law_error(self, quantity: str) -> float:
        """``max_j |drift_j − η²-prediction_j| / max_j |η²-prediction_j|``."""
        miss = np.max(np.abs(self.final[quantity] - self.eta2[quantity]))
        return float(miss / max(np.max(np.abs(self.eta2[quantity])), 1e-300))

    def full_law_error(self, quantity: str) -> float:
        """The same against the full one-step law ``−2η⟨g, Aθ⟩ + η²gᵀAg`` (every σ)."""
        full = self.first[quantity] + self.eta2[quantity]
        miss = np.max(np.abs(self.final[quantity] - full))
        return float(miss / max(np.max(np.abs(full)), 1e-300))

    def total_drift(self, quantity: str) -> float:
        return float(np.max(np.abs(self.final[quantity])))


def initial_weights(seed: int = SEED) -> tuple[np.ndarray, ...]:
    """x (batch × d), targets (batch × d), W1, W2 (d × hidden), W3 (hidden × d)."""
    rng = np.random.default_rng(seed)
    b, d, h = SHAPE["batch"], SHAPE["d"], SHAPE["hidden"]
    x = rng.standard_normal((b, d)) / np.sqrt(d)  # tokens of norm ≈ 1 (as after a norm layer)
    target = rng.standard_normal((b, d))
    w1, w3 = (rng.standard_normal((h, d)) / np.sqrt(d) for _ in range(2))
    w2 = rng.standard_normal((d, h)) / np.sqrt(h)
    return x, target, w1, w2, w3


def unit_quantities(w1: np.ndarray, w2: np.ndarray, w3: np.ndarray) -> dict[str, np.ndarray]:
    """Per unit: ``‖q_j‖² − ‖k_j‖²`` and ``‖k_j‖² − ‖v_j‖²`` (q = W1 rows, k = W3 rows, v = W2
    columns) — also the ``gᵀAg`` terms when given the gradients."""
    q, k, v = (np.sum(w1**2, axis=1), np.sum(w3**2, axis=1), np.sum(w2**2, axis=0))
    return {"qk": q - k, "kv": k - v}


def unit_pairings(w, g) -> dict[str, np.ndarray]:
    """Per unit ``⟨g, Aθ⟩``: ``⟨g_q, q⟩ − ⟨g_k, k⟩`` and ``⟨g_k, k⟩ − ⟨g_v, v⟩``."""
    (w1, w2, w3), (g1, g2, g3) = w, g
    q, k, v = np.sum(g1 * w1, axis=1), np.sum(g3 * w3, axis=1), np.sum(g2 * w2, axis=0)
    return {"qk": q - k, "kv": k - v}


def numpy_gradients(x, target, w1, w2, w3, gate: str):
    """Loss ``½·mean_b ‖y_b − target_b‖²`` of ``y = (σ(xW1ᵀ) ⊙ xW3ᵀ)W2ᵀ`` and its gradients
    (G1, G2, G3), by hand."""
    sigma, sigma_prime = ACTIVATIONS[gate].numpy, DERIVATIVES[gate]
    a, b = x @ w1.T, x @ w3.T
    s = sigma(a)
    hidden = s * b
    e = (hidden @ w2.T - target) / x.shape[0]  # dL/dy
    back = e @ w2  # dL/dhidden
    loss = 0.5 * x.shape[0] * float(np.sum(e * e))
    return loss, ((back * b * sigma_prime(a)).T @ x, e.T @ hidden, (back * s).T @ x)


def _numpy_steps(gate: str, eta: float, steps: int, seed: int):
    x, target, w1, w2, w3 = initial_weights(seed)
    for _ in range(steps):
        _, g = numpy_gradients(x, target, w1, w2, w3, gate)
        yield (w1, w2, w3), g
        w1, w2, w3 = w1 - eta * g[0], w2 - eta * g[1], w3 - eta * g[2]
    yield (w1, w2, w3), None


def _torch_steps(gate: str, eta: float, steps: int, seed: int):
    import torch

    from numeric_checks.layers import llama_mlp

    x, target, w1, w2, w3 = initial_weights(seed)
    block = llama_mlp(SHAPE["d"], SHAPE["hidden"], ACTIVATIONS[gate].torch_fn())
    with torch.no_grad():
        for lin, w in ((block.w1, w1), (block.w2, w2), (block.w3, w3)):
            lin.weight.copy_(torch.from_numpy(w))
    xt, tt = torch.from_numpy(x), torch.from_numpy(target)
    opt = torch.optim.SGD(block.parameters(), lr=eta)
    lins = (block.w1, block.w2, block.w3)
    for _ in range(steps):
        opt.zero_grad()
        loss = 0.5 * ((block(xt) - tt) ** 2).sum() / xt.shape[0]
        loss.backward()
        yield (
            tuple(lin.weight.detach().numpy().copy() for lin in lins),
            tuple(lin.weight.grad.numpy().copy() for lin in lins),
        )
        opt.step()
    yield tuple(lin.weight.detach().numpy().copy() for lin in lins), None


def train(
    gate: str, eta: float, steps: int = STEPS, backend: str = "numpy", seed: int = SEED
) -> Run:
    """Train the block with gate σ = ``gate`` for ``steps`` steps of size ``eta``."""
    if gate not in DERIVATIVES:
        raise ValueError(f"gate={gate!r}: expected one of {', '.join(DERIVATIVES)}")
    walk = (_torch_steps if backend == "torch" else _numpy_steps)(gate, eta, steps, seed)
    zero = {k: np.zeros(SHAPE["hidden"]) for k in QUANTITIES}
    eta2, first = dict(zero), dict(zero)
    drift: dict[str, list[float]] = {k: [] for k in QUANTITIES}
    start = None
    for w, g in walk:
        now = unit_quantities(*w)
        start = now if start is None else start
        for k in QUANTITIES:
            drift[k].append(float(np.max(np.abs(now[k] - start[k]))))
        if g is None:
            break
        square, pairing = unit_quantities(*g), unit_pairings(w, g)
        for k in QUANTITIES:
            eta2[k] = eta2[k] + eta**2 * square[k]
            first[k] = first[k] - 2 * eta * pairing[k]
    final = {k: now[k] - start[k] for k in QUANTITIES}
    return Run(
        gate, eta, steps, backend, {k: np.array(v) for k, v in drift.items()}, final, eta2, first, w
    )


def sweep(
    etas: Sequence[float] = ETAS, steps: int = STEPS, backend: str = "numpy", seed: int = SEED
) -> tuple[Run, ...]:
    """Every gate of ``GATES`` at every step size."""
    return tuple(train(gate, eta, steps, backend, seed) for gate in GATES for eta in etas)


def ratios(runs: Sequence[Run], gate: str, quantity: str) -> list[float]:
    """drift(2η)/drift(η) for consecutive step sizes of one gate (4: η² law; 2: first order)."""
    drifts = [r.total_drift(quantity) for r in runs if r.gate == gate]
    return [b / a for a, b in zip(drifts, drifts[1:], strict=False)]


def expected_ratio(gate: str, quantity: str) -> float:
    """4 where the rescaling is a symmetry (η² law), 2 where it is not (first order)."""
    return 2.0 if (gate, quantity) == ("silu", "qk") else 4.0


def training_checks(runs: Sequence[Run]) -> tuple[NumericCheck, ...]:
    """The η² law where the rescaling is a symmetry; first-order drift where it is not."""
    out = []
    backend = runs[0].backend
    for gate in GATES:
        mine = [r for r in runs if r.gate == gate]
        for q in QUANTITIES:
            symmetric = expected_ratio(gate, q) == 4.0
            law = max(r.full_law_error(q) for r in mine)
            out.append(
                NumericCheck(
                    f"{gate}: drift of {QUANTITY_TEXT[q]} = Σ(−2η⟨g, Aθ⟩ + η²gᵀAg), every run",
                    backend,
                    len(mine),
                    law,
                    LAW_REL_TOL,
                    law <= LAW_REL_TOL,
                    f"η = {', '.join(f'{r.eta:g}' for r in mine)}, {mine[0].steps} steps",
                )
            )
            eta2 = max(r.law_error(q) for r in mine)
            out.append(
                NumericCheck(
                    f"{gate}: drift of {QUANTITY_TEXT[q]} "
                    + ("= Σ η²gᵀAg (η² law)" if symmetric else "≠ Σ η²gᵀAg (first-order drift)"),
                    backend,
                    len(mine),
                    eta2,
                    LAW_REL_TOL,
                    (eta2 <= LAW_REL_TOL) == symmetric,
                    "relative miss of the η² prediction"
                    + ("" if symmetric else " (must exceed the tolerance)"),
                    expect="agree" if symmetric else "differ",
                )
            )
            rs = ratios(runs, gate, q)
            want = expected_ratio(gate, q)
            miss = max(abs(r / want - 1) for r in rs)
            out.append(
                NumericCheck(
                    f"{gate}: drift of {QUANTITY_TEXT[q]} at 2η / at η ≈ {want:g}",
                    backend,
                    len(rs),
                    miss,
                    RATIO_TOL,
                    miss <= RATIO_TOL,
                    "ratios " + ", ".join(f"{r:.4f}" for r in rs),
                )
            )
    return tuple(out)


def torch_agrees(steps: int, seed: int = SEED) -> NumericCheck:
    """torch (nn.Linear, autograd, SGD) and the numpy hand gradients end at the same weights."""
    worst = 0.0
    for gate in GATES:
        a, b = (
            train(gate, ETAS[0], steps, "numpy", seed),
            train(gate, ETAS[0], steps, "torch", seed),
        )
        for wa, wb in zip(a.weights, b.weights, strict=True):
            worst = max(worst, float(np.max(np.abs(wa - wb)) / np.max(np.abs(wa))))
    return NumericCheck(
        "torch SGD and numpy hand gradients reach the same weights",
        "torch",
        len(GATES),
        worst,
        TORCH_REL_TOL,
        worst <= TORCH_REL_TOL,
        f"{steps} steps at η = {ETAS[0]:g}",
    )


def training_report(
    steps: int = STEPS, torch: bool = False, seed: int = SEED
) -> tuple[tuple[Run, ...], tuple[NumericCheck, ...]]:
    """The sweep on torch when asked and installed (numpy otherwise), and its checks."""
    backend = "torch" if torch and torch_available() else "numpy"
    runs = sweep(ETAS, steps, backend, seed)
    checks = training_checks(runs)
    if backend == "torch":
        checks += (torch_agrees(min(steps, 20), seed),)
    return runs, checks


def records(runs: Sequence[Run]) -> list[dict]:
    """The runs as JSON-able records (what ``plot`` draws and ``--json`` prints)."""
    return [
        {
            "gate": r.gate,
            "eta": r.eta,
            "steps": r.steps,
            "backend": r.backend,
            "drift": {q: r.drift[q].tolist() for q in QUANTITIES},
            "law_error": {q: r.law_error(q) for q in QUANTITIES},
        }
        for r in runs
    ]


def plot(runs: Sequence[dict], path: str) -> str:
    """Drift against step count (log scale), both gates and quantities, from ``records``;
    writes ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    styles = {"relu": "-", "silu": "--"}
    names = {"relu": "ReGLU", "silu": "SwiGLU"}
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    etas = sorted({r["eta"] for r in runs})
    for ax, q in zip(axes, QUANTITIES, strict=True):
        for r in runs:
            drift = np.asarray(r["drift"][q][1:])
            ax.plot(
                np.arange(1, len(drift) + 1),
                np.maximum(drift, 1e-300),
                styles[r["gate"]],
                color=colors[etas.index(r["eta"]) % len(colors)],
                label=f"{names[r['gate']]}, η = {r['eta']:g}",
            )
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="gradient steps",
            title=f"drift of {QUANTITY_TEXT[q]} (max over units)",
        )
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("max_j |Q_j(t) − Q_j(0)|")
    axes[0].legend(fontsize=8)
    fig.suptitle(
        f"LLaMA-style block {SHAPE}, plain gradient descent ({runs[0]['backend']}): "
        "η² law (ReGLU both; SwiGLU k–v) vs first-order drift (SwiGLU q–k)",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --- the quick checks that python -m proofs runs (numpy, milliseconds) ----------------------

PAIRING_TOL = 1e-12  # ⟨g, Aθ⟩ relative to |g|·|θ|: float64 rounding of a sum of ~50 products
BROKEN_FLOOR = 1e-3  # SwiGLU's ⟨g, Aθ⟩ is O(1) relative; far above rounding
INVARIANCE_TRIALS = 4  # random layers per activation
INVARIANCE_SHAPE = dict(batch=5, d=6, n=7, d_out=3)
ALPHA_RANGE = (0.2, 5.0)  # the rescaling a drawn log-uniformly from this range


def _relative_pairing(gate: str, quantity: str, seed: int = SEED) -> float:
    x, target, w1, w2, w3 = initial_weights(seed)
    _, g = numpy_gradients(x, target, w1, w2, w3, gate)
    pairing = unit_pairings((w1, w2, w3), g)[quantity]
    scale = np.sqrt(sum(np.sum(a * a) for a in g) * sum(np.sum(w * w) for w in (w1, w2, w3)))
    return float(np.max(np.abs(pairing)) / scale)


def pairing_checks(seed: int = SEED) -> tuple[NumericCheck, NumericCheck]:
    """``⟨∇L, Aθ⟩`` per unit from the numpy gradients: ≈ 0 for ReGLU (both rescalings),
    far from 0 for SwiGLU's gate/key rescaling."""
    zero = max(_relative_pairing("relu", q, seed) for q in QUANTITIES)
    broken = _relative_pairing("silu", "qk", seed)
    return (
        NumericCheck(
            "ReGLU block, MSE loss: ⟨∇L, Aθ⟩ = 0 per unit (both rescalings)",
            "numpy",
            SHAPE["hidden"],
            zero,
            PAIRING_TOL,
            zero <= PAIRING_TOL,
            "relative to |∇L|·|θ|",
        ),
        NumericCheck(
            "SwiGLU block, MSE loss: ⟨∇_q L, q⟩ − ⟨∇_k L, k⟩ ≠ 0",
            "numpy",
            SHAPE["hidden"],
            broken,
            BROKEN_FLOOR,
            broken >= BROKEN_FLOOR,
            "relative to |∇L|·|θ|; must exceed the floor",
            expect="differ",
        ),
    )


def _at_degree(exponent, degree) -> float:
    """A rescaling exponent (a number, or a SymPy expression in the degree ``p``) at ``p``."""
    free = getattr(exponent, "free_symbols", set())
    return float(exponent.subs({s: degree for s in free}) if free else exponent)


def invariance_checks(
    layer: Callable,
    weights: Sequence[str],
    exponents: Sequence[tuple[str, object]],
    gates: Sequence[str] = (),
    seed: int = SEED,
) -> tuple[NumericCheck, ...]:
    """The layer (``symbolic.layers``) is unchanged when unit j's rows of each weight are
    scaled by ``a^e`` (``e`` may contain the degree ``p``), for random layers, a and j; every
    table activation when ``gates`` is empty."""
    from numeric_checks.layers import normwise_error

    rng = np.random.default_rng(seed)
    b, d, n, d_out = (INVARIANCE_SHAPE[k] for k in ("batch", "d", "n", "d_out"))
    names = list(gates) or list(ACTIVATIONS)
    worst = 0.0
    for name in names:
        act = ACTIVATIONS[name]
        degree = act.degree if act.degree is not None else 1
        for _ in range(INVARIANCE_TRIALS):
            x = rng.standard_normal((b, d))
            W = {w: rng.standard_normal((n, d_out if w in ("V", "W2") else d)) for w in weights}
            a = float(np.exp(rng.uniform(*np.log(ALPHA_RANGE))))
            j = int(rng.integers(n))
            moved = {w: M.copy() for w, M in W.items()}
            for w, e in exponents:
                moved[w][j] *= a ** _at_degree(e, degree)
            before = layer(x, *(W[w] for w in weights), act.numpy)
            after = layer(x, *(moved[w] for w in weights), act.numpy)
            worst = max(worst, normwise_error(before, after))
    from numeric_checks.activations import REL_TOL

    return (
        NumericCheck(
            f"{layer.__name__}: unchanged by the rescaling of one unit's rows",
            "numpy",
            len(names) * INVARIANCE_TRIALS,
            worst,
            REL_TOL,
            worst <= REL_TOL,
            ", ".join(names),
        ),
    )


def step_checks(seed: int = SEED) -> tuple[NumericCheck, ...]:
    """A few numpy gradient steps of the ReGLU block follow the η² law to rounding."""
    run = train("relu", ETAS[0], QUICK_STEPS, "numpy", seed)
    miss = max(run.law_error(q) for q in QUANTITIES)
    return (
        NumericCheck(
            "ReGLU block: drift = Σ η²gᵀAg over a few steps (both rescalings)",
            "numpy",
            QUICK_STEPS,
            miss,
            LAW_REL_TOL,
            miss <= LAW_REL_TOL,
            f"η = {ETAS[0]:g}",
        ),
    )


QUICK_STEPS = 5  # steps of the quick check in python -m proofs
