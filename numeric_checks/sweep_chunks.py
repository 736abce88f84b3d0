"""The chunks of a capacity sweep: what a worker runs (``numeric_checks.sweep``).

``plan`` cuts a point into fixed chunks; chunk ``i`` draws from its own generator
``SeedSequence(entropy, spawn_key=(i,))`` and returns partial sufficient statistics (count, sum
and centred sum of squares; least squares: sums and cross-products of signal and
interference), which ``merge_moments``/``merge_sums`` combine in chunk order — so a point's
numbers do not depend on which worker ran which chunk. Dask pickles the chunk functions by
reference: they are module-level functions here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from numeric_checks.capacity import pairs_needed, unit_rows
from numeric_checks.importance import importance_pairs, tilt
from numeric_checks.sweep_grid import Point
from symbolic.memory.stores import STORES

MAX_PAIRS = 2_000_000_000  # per point; above it the sample is capped and the row says so
MIN_PAIRS = 1 << 20
QUERIES = 64  # fresh queries per Rao–Blackwell chunk
CHUNK_ELEMENTS = 1 << 22  # floats of one chunk's largest array (32 MB)
LS_DRAWS = 200  # least-squares key matrices at each of the two M around the crossing


@dataclass(frozen=True)
class Plan:
    """How a point is cut: ``chunks`` calls of ``function(*args, index)``."""

    point: Point
    function: Callable[..., dict]
    args: tuple
    chunks: int
    pairs: int
    capped: bool


def _rng(entropy: list[int], index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))


def _moments(y: np.ndarray) -> dict:
    mean = float(y.mean())
    return {"n": int(y.size), "mean": mean, "m2": float(np.square(y - mean).sum())}


def weight_chunk(
    store: str, d: int, beta: float, keys: int, entropy: list[int], index: int
) -> dict:
    """Rao–Blackwell: ``QUERIES × keys`` pairs of fresh unit vectors, moments of y."""
    rng = _rng(entropy, index)
    q = unit_rows(rng, (QUERIES, d))
    k = unit_rows(rng, (keys, d))
    w = STORES[store].normalized_weight(q @ k.T, beta)
    np.square(w, out=w)
    return _moments(w.ravel())


def importance_chunk(
    store: str, d: int, beta: float, pairs: int, entropy: list[int], index: int
) -> dict:
    """Importance sampling: ``pairs`` independent shifted pairs, moments of ``L·y``."""
    return _moments(importance_pairs(store, d, beta, tilt(d, beta), pairs, _rng(entropy, index)))


def ls_chunk(d: int, memories: int, draws: int, entropy: list[int], index: int) -> dict:
    """Least squares: ``draws`` unit key matrices (M × d); per-draw signal Σ P_ii² and
    interference Σ (P_ii − P_ii²), as sums and cross-products."""
    rng = _rng(entropy, index)
    q, _ = np.linalg.qr(unit_rows(rng, (draws, memories, d)))
    lev = np.einsum("rmd,rmd->rm", q, q)
    sig, inter = (lev**2).sum(1), (lev - lev**2).sum(1)
    return {
        "n": draws,
        "s": float(sig.sum()),
        "i": float(inter.sum()),
        "ss": float((sig * sig).sum()),
        "ii": float((inter * inter).sum()),
        "si": float((sig * inter).sum()),
    }


def merge_moments(parts: Sequence[dict]) -> dict:
    """Chan et al.'s pairwise update, in the given (chunk) order: deterministic."""
    n, mean, m2 = 0, 0.0, 0.0
    for p in parts:
        if n == 0:
            n, mean, m2 = p["n"], p["mean"], p["m2"]
            continue
        total = n + p["n"]
        delta = p["mean"] - mean
        mean += delta * p["n"] / total
        m2 += p["m2"] + delta * delta * n * p["n"] / total
        n = total
    return {"n": n, "mean": mean, "m2": m2}


def merge_sums(parts: Sequence[dict]) -> dict:
    out = dict.fromkeys(("n", "s", "i", "ss", "ii", "si"), 0.0)
    for p in parts:
        for k in out:
            out[k] += p[k]
    return out


def plan(point: Point, max_pairs: int = MAX_PAIRS) -> list[Plan]:
    """The chunks of a point (least squares: two plans, at M and M + 1)."""
    entropy = point.entropy()
    d = point.d
    if STORES[point.store].estimator == "leverage":
        lo = _ls_lower(point)
        out = []
        for j, m in enumerate((lo, lo + 1)):
            per = max(1, CHUNK_ELEMENTS // (m * d))
            chunks = math.ceil(LS_DRAWS / per)
            out.append(
                Plan(point, ls_chunk, (d, m, per, entropy + [j]), chunks, chunks * per, False)
            )
        return out
    beta = point.effective_beta or 1.0
    if point.estimator == "importance":
        want = _importance_pairs(point)
    else:
        want = pairs_needed(point.store, d, beta, point.rel_se_target, cap=False)
    capped = want > max_pairs
    pairs = max(MIN_PAIRS, min(want, max_pairs))
    if point.estimator == "importance":
        per = max(1024, CHUNK_ELEMENTS // d)
        return [
            Plan(
                point,
                importance_chunk,
                (point.store, d, beta, per, entropy),
                math.ceil(pairs / per),
                math.ceil(pairs / per) * per,
                capped,
            )
        ]
    keys = max(1024, CHUNK_ELEMENTS // max(d, QUERIES))
    per = QUERIES * keys
    return [
        Plan(
            point,
            weight_chunk,
            (point.store, d, beta, keys, entropy),
            math.ceil(pairs / per),
            math.ceil(pairs / per) * per,
            capped,
        )
    ]


def _importance_pairs(point: Point) -> int:
    """Pairs for the target precision: CV² of the weighted term measured by a pilot of 2¹⁶
    pairs (its own generator, not one of the chunks), with a factor 2 of headroom."""
    beta = point.effective_beta
    pilot = importance_pairs(
        point.store,
        point.d,
        beta,
        tilt(point.d, beta),
        1 << 16,
        np.random.default_rng(np.random.SeedSequence(point.entropy(), spawn_key=(2**31,))),
    )
    cv2 = float(pilot.var() / pilot.mean() ** 2)
    return int(2 * cv2 / point.rel_se_target**2) + 1


def _ls_lower(point: Point) -> int:
    if point.memories is not None:
        return max(point.d + 1, point.memories)
    from symbolic.memory.capacity import store_capacity

    return max(point.d + 1, math.floor(store_capacity(point.store, point.d).exact.capacity.mid))
