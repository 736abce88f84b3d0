"""Numeric cross-checks of the block symmetries (``symbolic.blocks``), in numpy float64, with
the sub-layer written independently of its symbolic form (``attention_numpy``).

* invariant: ``A(X; gθ)`` and ``A(X; θ)`` agree on random sub-layers (T = 5, d = 6, r = 4,
  causal mask, RoPE with the usual frequencies) and random group elements, to ``REL_TOL`` of
  the output's scale;
* broken: the sub-layer at the witness's exact values (rounded to float64, RoPE at the
  witness's frequency atan(4/3)) reproduces the certified difference to ``WITNESS_REL_TOL``.
"""

from __future__ import annotations

import numpy as np

from numeric_checks.activations import REL_TOL, SEED, relative_gap
from symbolic.blocks import BlockDecision, BlockForm, attention_numpy
from symbolic.blocks.decide import WITNESS_OMEGA
from symbolic.engine import NumericCheck

TRIALS = 3
SIZES = {"T": 5, "d": 6, "r": 4}
WITNESS_REL_TOL = 1e-9  # the witnesses' differences are ~1e-2; float64 rounding is ~1e-15


def _random_parameters(block: BlockForm, rng: np.random.Generator, decision: BlockDecision):
    from symbolic.blocks import parameters

    out = {
        name: rng.standard_normal(tuple(_size(s) for s in m.shape))
        for name, m in parameters(block, decision.heads).items()
    }
    out["G"] = np.diag(rng.uniform(0.5, 2.0, SIZES["d"]))  # a gain is diagonal
    return out


def _size(s) -> int:
    return SIZES[str(s)] if str(s) in SIZES else int(s)


def _group_element(kind: str, rows, cols, rng: np.random.Generator) -> np.ndarray:
    n, m = _size(rows), _size(cols)
    if kind == "GL":
        return rng.standard_normal((n, m)) + 2.0 * np.eye(n)
    if kind == "O":
        q, _ = np.linalg.qr(rng.standard_normal((n, n)))
        return q
    if kind == "diagonal":
        return np.diag(rng.uniform(0.5, 2.0, n) * rng.choice([-1.0, 1.0], n))
    return rng.standard_normal((n, m))


def block_check(block: BlockForm, decision: BlockDecision) -> tuple[NumericCheck, ...]:
    if decision.invariant is True:
        rng = np.random.default_rng(SEED)
        worst = 0.0
        for _ in range(TRIALS):
            p = _random_parameters(block, rng, decision)
            X = rng.standard_normal((SIZES["T"], SIZES["d"]))
            g = {
                k: _group_element(kind, rows, cols, rng)
                for k, (rows, cols, kind) in decision.candidate.group.items()
            }
            moved = decision.candidate.act(p, g)
            worst = max(
                worst, relative_gap(attention_numpy(block, X, moved), attention_numpy(block, X, p))
            )
        return (
            NumericCheck(
                "A(X; gθ) = A(X; θ) on random sub-layers and group elements",
                "numpy",
                TRIALS,
                worst,
                REL_TOL,
                worst <= REL_TOL,
            ),
        )
    if decision.invariant is False and decision.witness is not None:
        w = decision.witness
        values = {k: np.array(m.tolist(), dtype=np.float64) for k, m in w["values"].items()}
        g = {k: np.array(m.tolist(), dtype=np.float64) for k, m in w["group"].items()}
        X = values.pop("X")
        omega = np.array([float(WITNESS_OMEGA)] * (values["WQ0"].shape[1] // 2))
        moved = decision.candidate.act(values, g)
        row, col = w["entry"]
        gap = float(
            attention_numpy(block, X, moved, omega=omega)[row, col]
            - attention_numpy(block, X, values, omega=omega)[row, col]
        )
        want = float(w["difference"].evalf(30))
        error = abs(gap - want) / max(1.0, abs(want))
        return (
            NumericCheck(
                "the witness replayed: A(X; gθ) − A(X; θ) at the certified entry",
                "numpy",
                1,
                error,
                WITNESS_REL_TOL,
                error <= WITNESS_REL_TOL and gap != 0.0,
                detail=f"float64 {gap:.6g}, exact {want:.6g}",
            ),
        )
    return ()
