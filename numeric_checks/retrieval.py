"""Monte Carlo of the retrieval error at capacity with real vectors (issue 15).

Each trial is an **independent memory draw** queried once with its stored key ``q = k_0``: the
recall ``r = Σ_m w_m v_m`` is decoded to ``argmax_m ⟨r, v_m⟩`` (= the nearest stored value, the
values being unit vectors) and the trial errs when that is not ``v_0``. Trials are independent
Bernoulli draws, so the error count is binomial and the 95 % interval is Wilson's score
interval. (Several queries of one memory would not be independent: with positive weights every
recall of a memory shares the component ``ū·Σ_m v_m``, docs/theory.md's Monte Carlo pitfall, and
the same competitor profits from it in every query.)

Sufficient structure used: the keys enter only through ``s_m = ⟨k_m, q⟩``. By rotation
invariance a uniform unit key in a frame with ``q = e_1`` has ``s = g_1/√(g_1² + χ²_{d−1})``,
so each key costs two random numbers instead of ``d`` — an exact draw of its similarity, not
an approximation. The values are real unit vectors (``d`` normals each): the decoding needs
every score ``⟨r, v_m⟩``. Memory is bounded: a batch holds at most ``CHUNK_ELEMENTS`` value
entries; when one memory is larger (softmax at d = 64: M* ≈ 1.27·10⁶) its values are made in
chunks twice from the same per-chunk seeds — once to sum the recall, once to score it.

Cost is ``≈ 2·M·d`` normals per trial. Measured on the shared 2-core machine: the default
(d = 16, 10,000 trials for each of five stores) took 9.4 s of CPU; d = 32 with 2,000 trials
36 s; the outer product and ReLU at d = 64 with 100,000 trials 36 s. Softmax at d = 64
(M* ≈ 1.27·10⁶) is estimated at ~2 s a trial, so thousands of trials are a cluster's job.

    python -m numeric_checks.retrieval --store outer_product,relu,relu2,relu3,softmax --d 16
    python -m numeric_checks.retrieval --store outer_product --d 64 --queries 200000 --json
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from numeric_checks.capacity import Z95, unit_rows
from numeric_checks.sweep import comma_list, integer_text
from symbolic.errors import InvalidArgument, OneLineErrorParser
from symbolic.memory.retrieval import capacity_memories, default_beta, error_probability, validate
from symbolic.memory.stores import STORES

DEFAULT_STORES = ("outer_product", "relu", "relu2", "relu3", "softmax")
DEFAULT_D = 16
DEFAULT_QUERIES = 10_000  # trials per store: at d = 16 (errors 20-55 %) the CI is about ±1 %
DEFAULT_SEED = 20240531
CHUNK_ELEMENTS = 1 << 21  # value entries (float64) of one batch: 16 MB, any M
# Work bound, in estimated seconds on one core: ~2·M·d normals (values and normalisation) of
# NORMAL_S each per trial; beyond MAX_SECONDS the run is refused with the figure.
NORMAL_S = 2e-8
MAX_SECONDS = 600.0


@dataclass(frozen=True)
class RetrievalEstimate:
    store: str
    d: int
    beta: float | None
    memories: int
    queries: int
    errors: int
    ci95: tuple[float, float]  # Wilson score interval
    seed: int
    seconds: float
    gaussian: float  # symbolic.memory.retrieval's models at the same M
    spherical: float
    fluctuating: float

    @property
    def rate(self) -> float:
        return self.errors / self.queries

    def to_json(self) -> dict:
        return {
            "store": self.store,
            "d": self.d,
            "beta": self.beta,
            "memories": self.memories,
            "queries": self.queries,
            "errors": self.errors,
            "rate": self.rate,
            "ci95": list(self.ci95),
            "interval": "Wilson score, 95 %",
            "seed": self.seed,
            "seconds": self.seconds,
            "model": {
                "gaussian": self.gaussian,
                "spherical": self.spherical,
                "fluctuating": self.fluctuating,
            },
        }


def wilson(errors: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a binomial proportion (covers near its level for any p)."""
    p = errors / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo = 0.0 if errors == 0 else max(0.0, centre - half)  # exact ends: no round-off past p̂
    return lo, 1.0 if errors == n else min(1.0, centre + half)


def similarities(rng: np.random.Generator, shape: tuple[int, int], d: int) -> np.ndarray:
    """``⟨k, q⟩`` of uniform unit keys ``k`` with a fixed unit ``q`` (exact: ``g₁/‖g‖``)."""
    g = rng.standard_normal(shape)
    return g / np.sqrt(g * g + rng.chisquare(d - 1, shape))


Weight = Callable[[np.ndarray, float], np.ndarray]  # u = f(s)/f(1), as in the store table


def _chunk(
    rng: np.random.Generator, weight: Weight, d: int, B: int, n: int, first: bool, beta: float
) -> tuple[np.ndarray, np.ndarray]:
    """Weights ``u = f(s)/f(1)`` (B, n) and unit values (B, n, d) of one chunk of memories;
    in the first chunk memory 0 is the queried one (``s = 1``, ``u = 1``)."""
    s = similarities(rng, (B, n), d)
    if first:
        s[:, 0] = 1.0
    u = weight(s, beta)
    return u, unit_rows(rng, (B, n, d))


def trial_errors(
    weight: Weight, d: int, M: int, B: int, beta: float, seed: np.random.SeedSequence
) -> int:
    """Errors among ``B`` independent memories of ``M`` pairs, each queried with ``k_0``
    (``weight``: a store's ``normalized_weight``)."""
    size = max(1, CHUNK_ELEMENTS // (B * d))
    starts = range(0, M, size)
    seeds = seed.spawn(len(starts))
    if len(starts) == 1:  # one pass
        u, V = _chunk(np.random.default_rng(seeds[0]), weight, d, B, M, True, beta)
        r = np.matmul(u[:, None, :], V)[:, 0, :]
        scores = np.matmul(V, r[:, :, None])[:, :, 0]
        return int(np.count_nonzero(scores.argmax(axis=1) != 0))
    r = np.zeros((B, d))
    for start, child in zip(starts, seeds, strict=True):  # pass 1: the recall
        u, V = _chunk(
            np.random.default_rng(child), weight, d, B, min(size, M - start), start == 0, beta
        )
        r += np.matmul(u[:, None, :], V)[:, 0, :]
    own = best = None
    for start, child in zip(starts, seeds, strict=True):  # pass 2: the same values, scored
        _, V = _chunk(
            np.random.default_rng(child), weight, d, B, min(size, M - start), start == 0, beta
        )
        scores = np.matmul(V, r[:, :, None])[:, :, 0]
        if start == 0:
            own, scores = scores[:, 0], scores[:, 1:]
        top = scores.max(axis=1) if scores.shape[1] else np.full(B, -np.inf)
        best = top if best is None else np.maximum(best, top)
    return int(np.count_nonzero(best > own))


def estimate(
    store: str,
    d: int,
    queries: int = DEFAULT_QUERIES,
    seed: int = DEFAULT_SEED,
    beta: float | None = None,
    memories: int | None = None,
) -> RetrievalEstimate:
    """Decoding errors of ``queries`` independent trials at ``M = round(M*)`` (or ``memories``)."""
    start = time.perf_counter()
    beta = default_beta(d) if beta is None else beta
    validate(store, d, beta)
    if queries < 1:
        raise InvalidArgument(f"--queries {queries}: give at least 1")
    if seed < 0:
        raise InvalidArgument(f"--seed {seed}: give a non-negative integer")
    M = capacity_memories(store, d, beta)[1] if memories is None else memories
    seconds = queries * 2 * M * d * NORMAL_S
    if seconds > MAX_SECONDS:
        raise InvalidArgument(
            f"--store {store} --d {d} --queries {queries}: {queries} memories of {M:,} pairs "
            f"are estimated at ~{seconds:.2g} s (bound {MAX_SECONDS:g} s); give fewer --queries "
            "or a smaller --d"
        )
    model = error_probability(store, d, M, beta)
    batch = max(1, min(queries, CHUNK_ELEMENTS // (M * d)))
    root = np.random.SeedSequence([seed, d, M, list(STORES).index(store)])
    starts = range(0, queries, batch)
    weight = STORES[store].normalized_weight
    errors = sum(
        trial_errors(weight, d, M, min(batch, queries - b), beta, child)
        for b, child in zip(starts, root.spawn(len(starts)), strict=True)
    )
    return RetrievalEstimate(
        store,
        d,
        model.beta,
        M,
        queries,
        errors,
        wilson(errors, queries),
        seed,
        time.perf_counter() - start,
        model.gaussian,
        model.spherical,
        model.fluctuating,
    )


# --- command line ----------------------------------------------------------------------------


def text_table(rows: Sequence[RetrievalEstimate]) -> str:
    head = (
        f"{'store':<14} {'d':>4} {'M':>9} {'queries':>8} {'errors':>7}  "
        f"{'MC rate [95% Wilson CI]':<34} {'fluct.':>9} {'spherical':>9} {'Gaussian':>9}"
    )
    lines = [head, "-" * len(head)]
    for e in rows:
        mc = f"{e.rate:.4%} [{e.ci95[0]:.4%}, {e.ci95[1]:.4%}]"
        lines.append(
            f"{e.store:<14} {e.d:>4} {e.memories:>9,} {e.queries:>8} {e.errors:>7}  "
            f"{mc:<34} {e.fluctuating:>9.4%} {e.spherical:>9.4%} {e.gaussian:>9.4%}"
        )
    betas = {e.beta for e in rows if e.beta is not None}
    lines.append(
        "M = round(M*), exact-law capacity; one query per memory draw; "
        f"seed {rows[0].seed}"
        + (f"; softmax β = {', '.join(f'{b:g}' for b in sorted(betas))}" if betas else "")
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m numeric_checks.retrieval"
    parser = OneLineErrorParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store",
        type=comma_list(str, "store names"),
        default=list(DEFAULT_STORES),
        help="stores, comma-separated (default: " + ",".join(DEFAULT_STORES) + ")",
    )
    parser.add_argument(
        "--d",
        type=comma_list(integer_text, "integers"),
        default=[DEFAULT_D],
        help=f"dimensions, comma-separated (default {DEFAULT_D})",
    )
    parser.add_argument(
        "--queries",
        type=integer_text,
        default=DEFAULT_QUERIES,
        help=f"independent trials per store (default {DEFAULT_QUERIES})",
    )
    parser.add_argument("--beta", type=float, help="softmax β (default √d)")
    parser.add_argument("--seed", type=integer_text, default=DEFAULT_SEED)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        for store in args.store:  # every bad name before any work
            for d in args.d:
                validate(store, d, default_beta(d) if args.beta is None else args.beta)
        rows = [
            estimate(store, d, args.queries, args.seed, args.beta)
            for d in args.d
            for store in args.store
        ]
    except InvalidArgument as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([r.to_json() for r in rows], indent=1))
    else:
        print(text_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
