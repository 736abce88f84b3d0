"""Numeric cross-checks of the layer-level exchange identities (docs/theory.md A6).

* the symmetric rank-1 form is unchanged by ``Q ↔ K`` for every activation of the table;
* the gated form's change under ``Q ↔ K`` equals ``Σ_j H(x·q_j, x·k_j) v_j`` with
  ``H(u, v) = σ(u)v − σ(v)u`` (the identity behind "invariant iff σ linear"), and vanishes for
  linear σ.
"""

from __future__ import annotations

import numpy as np

from numeric_checks.activations import REL_TOL, SEED, random_layer, relative_gap, torch_available
from symbolic import layers
from symbolic.activations import ACTIVATIONS
from symbolic.engine import NumericCheck

TRIALS = 8  # random layers per activation
LINEAR_SLOPE = -1.75  # an arbitrary linear σ(z) = c·z for the "⇐" direction


def _backends(torch: bool):
    yield "numpy", np.asarray, lambda act: act.numpy
    if torch and torch_available():
        import torch

        yield (
            "torch",
            (lambda a: torch.tensor(a, dtype=torch.float64)),
            (lambda act: act.torch_fn()),
        )


def exchange_identity_checks(kind: str, torch: bool = False) -> tuple[NumericCheck, ...]:
    checks = []
    for backend, to_backend, fn_of in _backends(torch):
        rng = np.random.default_rng(SEED)
        worst, samples = 0.0, 0
        for act in ACTIVATIONS.values():
            if act.torch is None and backend == "torch":
                continue
            sigma = fn_of(act)
            for _ in range(TRIALS):
                x, Q, K, V = (to_backend(m) for m in random_layer(rng))
                if kind == "symmetric":
                    got = np.asarray(layers.symmetric_rank1(x, Q, K, V, sigma))
                    want = np.asarray(layers.symmetric_rank1(x, K, Q, V, sigma))
                    worst = max(worst, relative_gap(got, want))
                else:  # compare the difference with the size of the outputs it comes from
                    one = np.asarray(layers.gated(x, Q, K, V, sigma))
                    other = np.asarray(layers.gated(x, K, Q, V, sigma))
                    u, v = x @ Q.T, x @ K.T
                    want = np.asarray((sigma(u) * v - sigma(v) * u) @ V)
                    scale = max(float(np.max(np.abs(one))), float(np.max(np.abs(other))), 1e-300)
                    worst = max(worst, float(np.max(np.abs(one - other - want))) / scale)
                samples += 1
        name = (
            "Sym(x; Q, K, V) = Sym(x; K, Q, V), every table activation"
            if kind == "symmetric"
            else "Gated(Q, K) − Gated(K, Q) = Σ_j H(x·q_j, x·k_j) v_j, every table activation"
        )
        checks.append(NumericCheck(name, backend, samples, worst, REL_TOL, worst <= REL_TOL))
    if kind == "gated":
        rng = np.random.default_rng(SEED)
        worst = 0.0
        for _ in range(TRIALS):
            x, Q, K, V = random_layer(rng)
            linear = lambda t: LINEAR_SLOPE * t  # noqa: E731
            worst = max(
                worst,
                relative_gap(layers.gated(x, Q, K, V, linear), layers.gated(x, K, Q, V, linear)),
            )
        checks.append(
            NumericCheck(
                f"σ(z) = {LINEAR_SLOPE}·z: Gated(Q, K) = Gated(K, Q)",
                "numpy",
                TRIALS,
                worst,
                REL_TOL,
                worst <= REL_TOL,
            )
        )
    return tuple(checks)
