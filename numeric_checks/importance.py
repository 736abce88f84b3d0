"""Tail-aware Monte Carlo of ``E[(f(s)/f(1))²]``: importance sampling by a Gaussian mean shift.

For softmax at large β the weight ``exp(2β(s − 1))`` lives in the tail ``s → 1`` of the
similarity law: plain sampling sees the tail rarely, its sample variance underestimates the
true one, and "95 %" intervals miss far more often than 5 % (docs/theory.md, notes on Part B).

Here every pair is real vectors: a random unit query ``q`` and a key ``k = x/‖x‖`` with
``x = g + μq``, ``g ~ N(0, I_d)`` — a Gaussian shifted towards the query. Without the shift
``k`` would be uniform on the sphere; with it, the likelihood ratio of the unshifted to the
shifted law of ``x`` is known exactly,

    L(x) = φ(x)/φ(x − μq) = exp(−μ x·q + μ²/2),

so ``y = L(x)·(f(s)/f(1))²`` with ``s = k·q`` is an unbiased estimate of ``E[(f(s)/f(1))²]``
under the *exact* law of ``s`` — the law is never used, only Gaussian vectors and their ratio.
The pairs are independent, so the usual ``se = sd/√n`` holds; ``μ`` is chosen so that the
shifted similarity concentrates where ``ρ(s)e^{2βs}`` peaks (``tilt``), which makes ``y``
nearly constant there and its variance small. The shift is tuned for softmax: for a store
whose weight is not concentrated near ``s = 1`` (the outer product) the likelihood ratio is
heavy-tailed and the plain estimator is the right one (``auto`` uses this only for softmax).
"""

from __future__ import annotations

import math

import numpy as np

from symbolic.memory.stores import STORES


def peak_similarity(d: int, beta: float) -> float:
    """``s*`` maximizing ``(1 − s²)^((d−3)/2)·e^{2βs}``: ``2β(1 − s²) = (d − 3)s``."""
    a = d - 3
    if beta <= 0:
        return 0.0
    return (-a + math.sqrt(a * a + 16 * beta * beta)) / (4 * beta)


def tilt(d: int, beta: float) -> float:
    """The shift ``μ`` for which ``k·q ≈ s*``: ``μ/√(d − 1 + μ²) = s*``."""
    s_star = min(peak_similarity(d, beta), 0.999)
    return s_star * math.sqrt((d - 1) / (1 - s_star * s_star))


def importance_pairs(
    store: str, d: int, beta: float, mu: float, pairs: int, rng: np.random.Generator
) -> np.ndarray:
    """``pairs`` independent terms ``y = L·(f(s)/f(1))²`` (their mean estimates E[(f/f(1))²])."""
    ratio = STORES[store].normalized_weight
    q = rng.standard_normal((pairs, d))
    q /= np.sqrt(np.einsum("ij,ij->i", q, q))[:, None]
    x = rng.standard_normal((pairs, d))
    proj = np.einsum("ij,ij->i", x, q) + mu  # x·q after the shift x → g + μq
    x += mu * q
    s = proj / np.sqrt(np.einsum("ij,ij->i", x, x))
    w = ratio(s, beta)
    log_lr = -mu * proj + mu * mu / 2
    return np.exp(log_lr) * w * w
