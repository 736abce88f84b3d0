"""Numeric cross-checks of the rescaling symmetries (docs/theory.md A7) on random layers.

* the symmetric rank-1 form is unchanged by ``Q → αQ, K → K/α`` for every table activation
  and random ``α`` of both signs;
* the gated form's change equals ``(1/α)·Σ_j (σ(α x·q_j) − α σ(x·q_j))(x·k_j) v_j``;
* per activation: degree-p activations keep ``Q → αQ, K → α^(−p)K`` for random ``α > 0``;
  ``α = −1`` keeps the gated form only for linear σ; non-homogeneous σ break ``K → K/α``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from numeric_checks.activations import (
    FAITHFUL_POINTS,
    REL_TOL,
    SEED,
    blind_at_floats,
    expected_check,
    faithful,
    kept_gap,
    random_layer,
    relative_gap,
    scaling_blind,
    scaling_break,
    scaling_witness_gap,
    symmetry_gap,
    torch_available,
    witness_layer_gap,
)
from numeric_checks.evaluate import numpy_function, precise_function
from symbolic import layers
from symbolic.activations import ACTIVATIONS, Activation, z
from symbolic.engine import NumericCheck
from symbolic.gated.analysis import ActivationAnalysis
from symbolic.gated.properties import candidate_points
from symbolic.kernel import put, zero_verdict
from symbolic.steps import certified_float, certify_nonzero

ALPHA_RANGE = (0.2, 5.0)  # |α| drawn log-uniformly from this range
TRIALS = 6  # random layers per activation in the identity checks


def _alpha(rng: np.random.Generator, signed: bool) -> float:
    value = float(np.exp(rng.uniform(*np.log(ALPHA_RANGE))))
    return value * (rng.choice([-1.0, 1.0]) if signed else 1.0)


def _backends(act: Activation | None, sigma: Callable, torch: bool):
    yield "numpy", np.asarray, sigma
    if torch and act is not None and act.torch is not None and torch_available():
        import torch

        yield "torch", (lambda a: torch.tensor(a, dtype=torch.float64)), act.torch_fn()


def symmetric_scaling_checks() -> tuple[NumericCheck, ...]:
    """Sym(αQ, K/α) = Sym(Q, K) for every table activation and random α ≠ 0."""
    rng = np.random.default_rng(SEED)
    worst, count = 0.0, 0
    for act in ACTIVATIONS.values():
        for _ in range(TRIALS):
            x, Q, K, V = random_layer(rng)
            al = _alpha(rng, signed=True)
            worst = max(
                worst,
                relative_gap(
                    layers.symmetric_rank1(x, al * Q, K / al, V, act.numpy),
                    layers.symmetric_rank1(x, Q, K, V, act.numpy),
                ),
            )
            count += 1
    return (
        NumericCheck(
            "Sym(x; αQ, K/α, V) = Sym(x; Q, K, V), random α ≠ 0",
            "numpy",
            count,
            worst,
            REL_TOL,
            worst <= REL_TOL,
        ),
    )


def scaling_identity_checks() -> tuple[NumericCheck, ...]:
    """Gated(αQ, K/α) − Gated(Q, K) = (1/α)(σ(αU) − ασ(U)) ⊙ W · V, every table activation."""
    rng = np.random.default_rng(SEED)
    worst, count = 0.0, 0
    for act in ACTIVATIONS.values():
        s = act.numpy
        for _ in range(TRIALS):
            x, Q, K, V = random_layer(rng)
            al = _alpha(rng, signed=True)
            one, other = layers.gated(x, al * Q, K / al, V, s), layers.gated(x, Q, K, V, s)
            U, W = x @ Q.T, x @ K.T
            want = ((s(al * U) - al * s(U)) * W / al) @ V
            scale = max(float(np.max(np.abs(one))), float(np.max(np.abs(other))), 1e-300)
            worst = max(worst, float(np.max(np.abs(one - other - want))) / scale)
            count += 1
    return (
        NumericCheck(
            "Gated(αQ, K/α) − Gated(Q, K) = (1/α)·Σ_j (σ(αu_j) − ασ(u_j)) w_j v_j",
            "numpy",
            count,
            worst,
            REL_TOL,
            worst <= REL_TOL,
        ),
    )


def generalized_symmetry_checks(
    an: ActivationAnalysis, act: Activation | None, torch: bool = False
) -> tuple[NumericCheck, ...]:
    sigma = act.numpy if act is not None else numpy_function(an.expr)
    precise = precise_function(an.expr) if act is None else None
    if precise is not None and not faithful(sigma, precise, _witness_points(an)):
        sigma = precise  # float64 cannot evaluate σ (relu(x − √2) − relu(x − fl(√2))): as the
    checks = []  # exchange checks do, every layer then uses σ correctly rounded
    p = an.degree
    for backend, to_backend, fn in _backends(act, sigma, torch):
        rng = np.random.default_rng(SEED)
        refine = precise if backend == "numpy" else None  # kept: redone with σ correctly rounded
        if p is not None and not an.every_degree:  # when float64 shows a change (it cancels
            state = copy.deepcopy(rng.bit_generator.state)  # inside x·(cosh²5x − sinh²5x))
            gap, refined = _degree_gap(fn, float(p), to_backend, rng), False
            if gap > REL_TOL and refine is not None:
                rng.bit_generator.state = state
                gap, refined = _degree_gap(refine, float(p), to_backend, rng), True
            checks.append(
                expected_check(
                    f"gated: Q → αQ, K → α^(−{p})K, random α > 0",
                    backend,
                    gap,
                    True,
                    None,
                    refined=refined,
                )
            )
        else:
            kept = an.inverse_scaling_symmetric
            double = lambda Q, K: (2.0 * Q, K / 2.0)  # noqa: E731
            gap, refined = kept_gap(
                fn, refine if kept else None, layers.gated, double, to_backend, rng
            )
            checks.append(
                expected_check(
                    "gated: Q → 2Q, K → K/2",
                    backend,
                    gap,
                    kept,
                    scaling_break(an),
                    scaling_witness_gap(an, fn, to_backend),
                    refined=refined,
                    blind=lambda: scaling_blind(an),
                )
            )
        odd, q, size = _oddness(an)
        kept = True if an.is_linear else odd
        negate = lambda Q, K: (-Q, -K)  # noqa: E731
        refiner = refine if kept else None
        gap, refined = kept_gap(fn, refiner, layers.gated, negate, to_backend, rng)
        wgap = None if q is None else witness_layer_gap(fn, to_backend, (-q, -1.0), (q, 1.0))
        checks.append(
            expected_check(
                "gated: Q → −Q, K → −K (α = −1)",
                backend,
                gap,
                kept,
                size,
                wgap,
                refined=refined,
                blind=lambda q=q: q is not None and blind_at_floats(an.expr, (q, -q), _odd_break),
            )
        )
    return tuple(checks)


def _witness_points(an: ActivationAnalysis) -> tuple[float, ...]:
    """Where float64 σ must be faithful: the fixed points and every witness of the analysis."""
    found = [*(an.exchange_witness or ())]
    d = an.inverse_scaling
    if d.witness is not None and d.value is not None:
        found += [d.witness, d.value * d.witness]
    return FAITHFUL_POINTS + tuple(float(v) for v in found)


def _degree_gap(fn: Callable, p: float, to_backend: Callable, rng: np.random.Generator) -> float:
    """The largest change of random gated layers under Q → αQ, K → α^(−p)K, three random α > 0."""
    gap = 0.0
    for _ in range(3):
        al = _alpha(rng, False)
        transform = lambda Q, K, al=al: (al * Q, al**-p * K)  # noqa: E731
        gap = max(gap, symmetry_gap(fn, layers.gated, transform, to_backend, rng))
    return gap


def _odd_break(sigma: Callable, q, minus_q) -> tuple[float, float]:
    """σ(q) + σ(−q) and its scale, as ``_oddness`` measures it."""
    at_q, at_minus_q = sigma(q), sigma(minus_q)
    return at_q + at_minus_q, max(1.0, abs(at_q), abs(at_minus_q))


def _oddness(an: ActivationAnalysis) -> tuple[bool | None, float | None, float | None]:
    """Is σ odd (α = −1 alone is then a symmetry)? With a point q where σ(q) + σ(−q) ≠ 0,
    certified, when it is not, and that sum's size relative to 1 or σ(±q) (a break of
    5·10⁻¹²¹, by ``max(x, x·cos 10⁻⁶⁰)``, is below float64's resolution). Linear σ is odd;
    tanh is odd without being linear. Points are put in by the kernel (``put``): SymPy's
    ``subs`` compares branches by float and raised "not comparable" for
    ``relu(x·cosh 10⁻⁶⁰ − x)``."""
    for q in candidate_points(an.expr):
        if q <= 0:
            continue
        try:
            at_q, at_minus_q = put(an.expr, {z: q}), put(an.expr, {z: -q})
        except (ValueError, TypeError):
            continue
        if certify_nonzero(at_q + at_minus_q).status == "proved":
            size = abs(certified_float(at_q + at_minus_q))
            scale = max(1.0, abs(certified_float(at_q)), abs(certified_float(at_minus_q)))
            return False, float(q), size / scale
    verdict = zero_verdict(an.expr.subs(z, -z) + an.expr, timeout_s=1.0)
    return {"proved": True}.get(verdict.status), None, None
