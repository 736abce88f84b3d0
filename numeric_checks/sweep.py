"""Capacity sweeps: Monte Carlo over stores × d × β × schedules × M, on Dask (docs/theory.md C3).

Each grid point is split into fixed chunks of real random vectors. Chunk ``i`` of a point draws
from its own generator, ``SeedSequence(entropy=(seed, *point), spawn_key=(i,))`` — one child per
*chunk*, not per worker — and returns partial sufficient statistics (count, sum and centred
sum of squares; least squares: the sums and cross-products of signal and interference). The
client merges them in chunk order, so a point's numbers are bitwise identical whichever worker
ran which chunk and however many workers there were (tested).

What a chunk measures (every row names its estimator):

* weight stores, ``rao-blackwell`` — ``Q = 64`` fresh random unit queries against ``K`` fresh
  unit keys, terms ``y = (f(s)/f(1))²`` for all ``Q·K`` pairs (values integrated out:
  ``E_v‖Σ w_m v_m‖² = Σ w_m²``). Two pairs share at most one vector, and pairs sharing one
  vector have independent similarities, so the terms are pairwise uncorrelated and
  ``se = sd/√n`` is exact. ISR(M) = (M − 1)·E[y] (lemma ``isr-weights``), so
  ``M̂* = 1 + 1/Ê[y]`` — a sweep estimates ``E[y]`` and never stores ``M`` keys (softmax at
  d = 256 has M* ≈ 10¹³);
* ``importance`` — the same ``E[y]`` from keys shifted towards their query, with exact
  likelihood-ratio weights (``numeric_checks.importance``): the heavy tail of softmax at large β;
  ``auto`` (default) picks it for softmax when ``4β²/d > 8`` and ``rao-blackwell`` otherwise,
  on the β the point uses (under ``--schedule logn``/``yarn`` that is β(M), not the base β);
* ``least_squares`` — leverages ``P_ii`` of ``P = Kᵀ(KKᵀ)⁻¹K`` by QR of real unit key
  matrices at the two integers around the crossing, capacity by linear interpolation.

The sample size aims at a relative standard error ``--rel-se`` (default 3e-3) from the exact
law's CV² of ``y``; when it would exceed ``--max-pairs`` it is capped, and the row says so
(``capped``, the achieved ``rel_se``) and a warning is printed: never silently.

Results: one tidy table, a row per grid point (``--out FILE.csv`` or ``.json``; rows are
written as points finish, and a rerun with the same ``--out`` skips the points already there).

    python -m numeric_checks.sweep                                # the default grid, local Dask
    python -m numeric_checks.sweep --store relu2,softmax --d 16,32,64 --beta 4,8 --json
    python -m numeric_checks.sweep --store softmax --d 64 --beta 8 --schedule yarn,logn \\
        --memories 10000,1000000,2000000
    python -m numeric_checks.sweep --scheduler tcp://10.0.0.5:8786 --out sweep.csv
    python -m numeric_checks.sweep --workers 0 --store relu --d 8     # in this process, no Dask
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from numeric_checks.capacity import Z95, pairs_needed, unit_rows
from numeric_checks.importance import importance_pairs, tilt
from symbolic.errors import InvalidArgument
from symbolic.memory.stores import PART_B, STORES

EXTRA = "pip install 'transformer-proofs[sweep]'  (or: pip install 'dask[distributed]' tqdm)"
DEFAULT_STORES = tuple(PART_B)  # the C1 stores (sym_*, gated_*) are asked for by name
DEFAULT_D = (8, 16, 32, 64, 128, 256)
DEFAULT_SEED = 20240531
DEFAULT_REL_SE = 3e-3  # relative standard error of E[y] per point (capacity to ~±0.6 %)
MAX_PAIRS = 2_000_000_000  # per point; above it the sample is capped and the row says so
MIN_PAIRS = 1 << 20
QUERIES = 64  # fresh queries per Rao–Blackwell chunk
CHUNK_ELEMENTS = 1 << 22  # floats of one chunk's largest array (32 MB)
LS_DRAWS = 200  # least-squares key matrices at each of the two M around the crossing
IMPORTANCE_ABOVE = 8.0  # auto: importance sampling for softmax when 4β²/d exceeds this
MAX_D = 4096
TRAINING_LENGTH = 2048
ESTIMATORS = ("auto", "rao-blackwell", "importance")
SCHEDULE_NAMES = ("constant", "logn", "yarn")
BLAS_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
KEY_COLUMNS = ("store", "d", "beta", "schedule", "memories", "estimator", "seed", "rel_se_target")
COLUMNS = KEY_COLUMNS + (
    "quantity",
    "estimate",
    "ci95_lo",
    "ci95_hi",
    "exact",
    "gaussian",
    "exact_kind",
    "estimate_vs_exact",
    "isr",
    "isr_ci95_lo",
    "isr_ci95_hi",
    "effective_beta",
    "pairs",
    "chunks",
    "rel_se",
    "capped",
)


@dataclass(frozen=True)
class Point:
    """One grid point: a store at ``d`` (softmax: ``beta``, ``schedule``), at ``memories`` M
    (None: the capacity itself), with an estimator, seed and target precision."""

    store: str
    d: int
    beta: float | None
    schedule: str | None
    memories: int | None
    estimator: str
    seed: int
    rel_se_target: float

    def key(self) -> tuple[str, ...]:
        return tuple(_cell(getattr(self, c)) for c in KEY_COLUMNS)

    def entropy(self) -> list[int]:
        digest = hashlib.sha256(repr(self.key()).encode()).digest()
        return [self.seed, *(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))]

    @property
    def effective_beta(self) -> float | None:
        """β(M) under the schedule (β itself without one)."""
        if self.beta is None or self.schedule in (None, "constant"):
            return self.beta
        import mpmath

        from symbolic.memory.schedules import SCHEDULES

        with mpmath.workdps(30):
            return float(
                SCHEDULES[self.schedule].beta(
                    mpmath.mp,
                    mpmath.log(self.memories),
                    mpmath.mpf(self.beta),
                    mpmath.log(TRAINING_LENGTH),
                )
            )


def _cell(x: Any) -> str:
    """A key column as the text the results table holds (so resumed keys compare equal)."""
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(x)
    return str(x)


# --- the grid ----------------------------------------------------------------------------


def grid(
    stores: Iterable[str] = DEFAULT_STORES,
    ds: Iterable[int] = DEFAULT_D,
    betas: Iterable[float | str] = ("sqrt",),
    schedules: Iterable[str] = ("constant",),
    memories: Iterable[int] | None = None,
    estimator: str = "auto",
    seed: int = DEFAULT_SEED,
    rel_se: float = DEFAULT_REL_SE,
) -> list[Point]:
    """The points of stores × d × β × schedules × M (β and schedules only matter for softmax).

    ``betas`` holds numbers or ``"sqrt"`` (β = √d). Without ``memories`` a point estimates the
    capacity; schedules other than ``constant`` need ``memories`` (they are defined in M).
    """
    stores, ds, betas, schedules = list(stores), list(ds), list(betas), list(schedules)
    ms = list(memories) if memories else [None]
    _validate(stores, ds, betas, schedules, ms, estimator, rel_se)
    points: list[Point] = []
    for store in stores:
        uses_beta = STORES[store].uses_beta
        for d in ds:
            for beta in betas if uses_beta else [None]:
                b = None if beta is None else (math.sqrt(d) if beta == "sqrt" else float(beta))
                for sched in schedules if uses_beta else [None]:
                    for m in ms:
                        p = Point(store, d, b, sched, m, estimator, seed, rel_se)
                        # on the β the point uses: β(M) under a schedule, not the base β
                        est = _estimator(store, d, p.effective_beta, estimator)
                        p = dataclasses.replace(p, estimator=est)
                        if p not in points:
                            points.append(p)
    return points


def _estimator(store: str, d: int, beta: float | None, asked: str) -> str:
    if store == "least_squares":
        return "qr"
    if asked == "importance" or (
        asked == "auto" and store == "softmax" and 4 * beta * beta / d > IMPORTANCE_ABOVE
    ):
        return "importance"
    return "rao-blackwell"


def _validate(
    stores: list[str],
    ds: list[int],
    betas: list,
    schedules: list[str],
    ms: list,
    estimator: str,
    rel_se: float,
) -> None:
    for s in stores:
        if s not in STORES:
            raise InvalidArgument(f"--store {s}: unknown store; valid stores: " + ", ".join(STORES))
    for d in ds:
        if not 3 <= d <= MAX_D:
            raise InvalidArgument(f"--d {d}: the dimension must be an integer in [3, {MAX_D}]")
    for b in betas:
        if b != "sqrt" and not (isinstance(b, (int, float)) and 0 < b <= 1000 and math.isfinite(b)):
            raise InvalidArgument(f"--beta {b}: β must be 'sqrt' or a number in (0, 1000]")
    for sc in schedules:
        if sc not in SCHEDULE_NAMES:
            raise InvalidArgument(f"--schedule {sc}: valid schedules: " + ", ".join(SCHEDULE_NAMES))
    if any(sc != "constant" for sc in schedules) and ms == [None]:
        raise InvalidArgument("--schedule logn/yarn set β from M: give --memories too")
    for m in ms:
        if m is not None and not 2 <= m <= 10**18:
            raise InvalidArgument(f"--memories {m}: M must be an integer in [2, 1e18]")
    if estimator not in ESTIMATORS:
        raise InvalidArgument(
            f"--estimator {estimator}: valid estimators: " + ", ".join(ESTIMATORS)
        )
    if not 1e-5 <= rel_se <= 0.5:
        raise InvalidArgument(f"--rel-se {rel_se}: must lie in [1e-5, 0.5]")


# --- chunks: what a worker runs ------------------------------------------------------------


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
    if point.store == "least_squares":
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

    return max(point.d + 1, math.floor(store_capacity("least_squares", point.d).exact.capacity.mid))


# --- turning statistics into a row ---------------------------------------------------------


def _theory(point: Point) -> dict[str, Any]:
    from symbolic.memory.capacity import rational, store_capacity
    from symbolic.memory.schedules import schedule_isr

    if point.memories is None:
        cap = store_capacity(point.store, point.d, rational(point.beta or 8))
        return {
            "exact": cap.exact.capacity.mid,
            "gaussian": cap.gaussian.capacity.mid,
            "exact_kind": cap.exact.kind,
        }
    if point.store == "softmax":
        return {
            law: schedule_isr(
                point.schedule or "constant",
                law,
                point.d,
                point.beta,
                TRAINING_LENGTH,
                point.memories,
            )
            for law in ("exact", "gaussian")
        } | {"exact_kind": "closed form"}
    from symbolic.memory.capacity import isr

    return {
        law: isr(point.store, law, point.d, point.beta or 8, point.memories)
        for law in ("exact", "gaussian")
    } | {"exact_kind": store_capacity(point.store, point.d, rational(point.beta or 8)).exact.kind}


def row(point: Point, stats: list[dict], plans: list[Plan]) -> dict[str, Any]:
    """One line of the results table (no timings: the table of a rerun is byte-identical)."""
    out: dict[str, Any] = {c: getattr(point, c) for c in KEY_COLUMNS}
    out.update(_theory(point))
    out.update(
        effective_beta=point.effective_beta,
        chunks=sum(p.chunks for p in plans),
        pairs=sum(p.pairs for p in plans),
        capped=any(p.capped for p in plans),
    )
    if point.store == "least_squares":
        isr_se = [_ratio(merge_sums(s)) for s in stats]
        (a, sa), (b, sb) = isr_se
        lo = plans[0].args[1]
        slope = b - a
        cap = lo + (1 - a) / slope
        se_cap = math.hypot(-(b - 1) / slope**2 * sa, -(1 - a) / slope**2 * sb)
        isr_m, isr_sd = (a, sa)
        out["memories"] = point.memories
        est, lo_ci, hi_ci = cap, cap - Z95 * se_cap, cap + Z95 * se_cap
        out["rel_se"] = se_cap / cap
    else:
        m = merge_moments(stats[0])
        mean, se = m["mean"], math.sqrt(m["m2"] / (m["n"] - 1) / m["n"])
        out["rel_se"] = se / mean
        if point.memories is None:
            est = 1 + 1 / mean
            lo_ci, hi_ci = 1 + 1 / (mean + Z95 * se), 1 + 1 / max(mean - Z95 * se, 1e-300)
            isr_m, isr_sd = (est - 1) * mean, (est - 1) * se  # ISR at the estimated M*: 1
        else:
            est = (point.memories - 1) * mean
            lo_ci, hi_ci = (
                est - Z95 * (point.memories - 1) * se,
                est + Z95 * (point.memories - 1) * se,
            )
            isr_m, isr_sd = est, (point.memories - 1) * se
    out.update(
        quantity="capacity" if point.memories is None else "isr",
        estimate=est,
        ci95_lo=lo_ci,
        ci95_hi=hi_ci,
        isr=isr_m,
        isr_ci95_lo=isr_m - Z95 * isr_sd,
        isr_ci95_hi=isr_m + Z95 * isr_sd,
    )
    exact = out.get("exact")
    out["estimate_vs_exact"] = (est / exact - 1) if exact and math.isfinite(exact) else None
    return {c: out.get(c) for c in COLUMNS}


def _ratio(t: dict) -> tuple[float, float]:
    """ISR = Σ interference / Σ signal over draws, delta-method standard error."""
    n = t["n"]
    r = t["i"] / t["s"]
    # Σ (i − r s)² = ii − 2r si + r² ss
    var = max(t["ii"] - 2 * r * t["si"] + r * r * t["ss"], 0.0) / (n - 1)
    return r, math.sqrt(var / n) / (t["s"] / n)


# --- running ---------------------------------------------------------------------------------


class DaskMissing(InvalidArgument):
    """``dask[distributed]`` is needed for this run and is not installed."""


def _dask_client(workers: int | None, scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise DaskMissing(
            f"{'--scheduler' if scheduler else '--workers'} needs Dask, which is "
            f"not installed: {EXTRA}; or run in this process with --workers 0"
        ) from None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise InvalidArgument(
                f"--scheduler {scheduler}: cannot connect ({exc}); start "
                "one with 'dask scheduler' and 'dask worker ADDRESS'"
            ) from None
        client.run(os.environ.update, BLAS_ENV)  # later BLAS pools; nanny sets them at spawn
        return client, None
    import logging

    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
        env=dict(BLAS_ENV),
    )
    return Client(cluster), cluster


def run_sweep(
    points: Sequence[Point],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | None = None,
    max_pairs: int = MAX_PAIRS,
    progress: bool = True,
    done: Sequence[dict] = (),
    client: Any = None,
) -> list[dict[str, Any]]:
    """Estimate every point; ``workers=0`` runs the chunks in this process (no Dask).

    ``client``: an open ``dask.distributed.Client`` to use (and leave open) instead of starting
    a cluster. Rows already in ``done`` (a previous run's table, same key columns) are kept, not
    redone; with ``out`` the table is rewritten as each point finishes.
    """
    have = {
        tuple(_cell(r[c]) if not isinstance(r[c], str) else r[c] for c in KEY_COLUMNS): r
        for r in done
    }
    rows = {p: have[p.key()] for p in points if p.key() in have}
    todo = [p for p in points if p not in rows]
    plans = {p: plan(p, max_pairs) for p in todo}
    for p, ps in plans.items():
        if any(x.capped for x in ps):
            print(
                f"numeric_checks.sweep: warning: {p.store} d={p.d} beta={p.beta}: the "
                f"sample is capped at --max-pairs {max_pairs:g}; its rel_se is reported",
                file=sys.stderr,
            )
    tasks = [(p, j, i) for p in todo for j, pl in enumerate(plans[p]) for i in range(pl.chunks)]
    results: dict[tuple, dict] = {}
    remaining = {p: sum(pl.chunks for pl in plans[p]) for p in todo}
    bar = _bar(len(tasks), progress)

    def finished(task: tuple, stats: dict) -> None:
        p, j, i = task
        results[task] = stats
        remaining[p] -= 1
        bar.update(1)
        if remaining[p] == 0:
            stats_by_plan = [
                [results.pop((p, jj, ii)) for ii in range(pl.chunks)]
                for jj, pl in enumerate(plans[p])
            ]
            rows[p] = row(p, stats_by_plan, plans[p])
            if out:
                write_table(out, [rows[q] for q in points if q in rows])

    if workers == 0:
        for t in tasks:
            pl = plans[t[0]][t[1]]
            finished(t, pl.function(*pl.args, t[2]))
    elif tasks and client is not None:
        _run_on(client, tasks, plans, finished)
    elif tasks:
        client, cluster = _dask_client(workers, scheduler)
        try:
            _run_on(client, tasks, plans, finished)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    bar.close()
    table = [rows[p] for p in points]
    if out:
        write_table(out, table)
    return table


def _run_on(
    client: Any,
    tasks: list[tuple],
    plans: dict[Point, list[Plan]],
    finished: Callable[[tuple, dict], None],
) -> None:
    """Submit every chunk and hand each result to ``finished`` as it arrives."""
    from dask.distributed import as_completed

    futures = {}
    for t in tasks:
        pl = plans[t[0]][t[1]]
        futures[client.submit(pl.function, *pl.args, t[2], pure=False)] = t
    for fut in as_completed(futures):
        finished(futures[fut], fut.result())


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, wanted: bool):
    if not wanted or total == 0:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, unit="chunk", desc="sweep", file=sys.stderr, mininterval=0.5)


# --- the results table -----------------------------------------------------------------------


def write_table(path: str, rows: Sequence[dict]) -> None:
    """CSV or JSON by extension, written to a temporary file and renamed (never half a file)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        if path.endswith(".json"):
            json.dump([_json_row(r) for r in rows], fh, indent=1)
        else:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS)
            writer.writeheader()
            for r in rows:
                writer.writerow({k: "" if v is None else v for k, v in r.items()})
    os.replace(tmp, path)


def read_table(path: str) -> list[dict]:
    """A previous run's rows (key columns as text), or [] when the file does not exist."""
    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            if path.endswith(".json"):
                rows = json.load(fh)
            else:
                rows = list(csv.DictReader(fh))
    except (OSError, ValueError) as exc:
        raise InvalidArgument(
            f"--out {path}: cannot read it to resume ({exc}); move it away or pick another file"
        ) from None
    if rows and set(KEY_COLUMNS) - set(rows[0]):
        raise InvalidArgument(
            f"--out {path}: not a sweep table (columns "
            f"{', '.join(sorted(set(KEY_COLUMNS) - set(rows[0])))} missing)"
        )
    for r in rows:
        for c in KEY_COLUMNS:
            r[c] = _cell(r[c]) if not isinstance(r[c], str) else r[c]
    return rows


def _json_row(r: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}


def text_table(rows: Sequence[dict]) -> str:
    head = (
        f"{'store':<14} {'d':>5} {'beta':>7} {'schedule':<9} {'M':>9} {'estimator':<13} "
        f"{'quantity':<8} {'estimate [95% CI]':<36} {'exact':>12} {'Gaussian':>12} "
        f"{'MC/exact':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        est = f"{_num(r['estimate'])} [{_num(r['ci95_lo'])}, {_num(r['ci95_hi'])}]"
        vs = r["estimate_vs_exact"]
        lines.append(
            f"{r['store']:<14} {r['d']:>5} {_num(r['beta']):>7} {r['schedule'] or '':<9} "
            f"{_num(r['memories']):>9} {r['estimator']:<13} {r['quantity']:<8} {est:<36} "
            f"{_num(r['exact']):>12} {_num(r['gaussian']):>12} "
            f"{'' if vs in (None, '') else f'{float(vs):+.2%}':>9}"
            + ("  (capped)" if str(r["capped"]) == "True" else "")
        )
    return "\n".join(lines)


def _num(x: Any) -> str:
    if x in (None, ""):
        return ""
    x = float(x)
    return f"{x:.5g}" if math.isfinite(x) else str(x)


# --- plot --------------------------------------------------------------------------------------


def plot_capacity_vs_d(rows: Sequence[dict], path: str) -> str:
    """Capacity against d for every store in ``rows`` (capacity rows of the constant schedule):
    exact law (solid), Gaussian (dashed), Monte Carlo (points with 95 % intervals), log–log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    caps = [
        r for r in rows if r["quantity"] == "capacity" and r["schedule"] in (None, "", "constant")
    ]
    stores = list(dict.fromkeys(r["store"] for r in caps))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, store in enumerate(stores):
        rs = sorted((r for r in caps if r["store"] == store), key=lambda r: int(r["d"]))
        d = np.array([int(r["d"]) for r in rs])
        c = colors[i % len(colors)]
        ax.plot(d, [float(r["exact"]) for r in rs], "-", color=c, label=store)
        ax.plot(d, [float(r["gaussian"]) for r in rs], "--", color=c, lw=0.9)
        est = np.array([float(r["estimate"]) for r in rs])
        err = [
            est - np.array([float(r["ci95_lo"]) for r in rs]),
            np.array([float(r["ci95_hi"]) for r in rs]) - est,
        ]
        ax.errorbar(d, est, yerr=err, fmt="o", color=c, ms=4, capsize=3)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="d",
        ylabel="capacity M* (ISR = 1)",
        title="Capacity vs d: exact (solid), Gaussian (dashed), Monte Carlo (points, "
        "95% CI); softmax β = √d",
    )
    ax.set_xticks(
        sorted({int(r["d"]) for r in caps}), [str(x) for x in sorted({int(r["d"]) for r in caps})]
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --- command line ----------------------------------------------------------------------------


class OneLineErrorParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def comma_list(kind: Callable[[str], Any], name: str) -> Callable[[str], list]:
    def parse(text: str) -> list:
        try:
            items = [kind(x.strip()) for x in text.split(",") if x.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r}: expected a comma-separated list of {name}"
            ) from None
        if not items:
            raise argparse.ArgumentTypeError(f"{text!r}: empty list")
        return items

    return parse


def _beta(text: str) -> float | str:
    return "sqrt" if text == "sqrt" else float(text)


def integer_text(text: str) -> int:
    value = float(text)  # 1e6 is accepted
    if value != int(value):
        raise ValueError(text)
    return int(value)


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m numeric_checks.sweep"
    parser = OneLineErrorParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store",
        type=comma_list(str, "store names"),
        default=list(DEFAULT_STORES),
        help="stores (default: all)",
    )
    parser.add_argument(
        "--d",
        type=comma_list(integer_text, "integers"),
        default=list(DEFAULT_D),
        help="dimensions (default 8,16,32,64,128,256)",
    )
    parser.add_argument(
        "--beta",
        type=comma_list(_beta, "numbers or 'sqrt'"),
        default=["sqrt"],
        help="softmax β values, or 'sqrt' for β = √d (default)",
    )
    parser.add_argument(
        "--schedule",
        type=comma_list(str, "schedule names"),
        default=["constant"],
        help="softmax logit scaling: constant, logn, yarn (need --memories)",
    )
    parser.add_argument(
        "--memories",
        type=comma_list(integer_text, "integers"),
        help="M values: estimate ISR(M) there (default: the capacity)",
    )
    parser.add_argument("--estimator", default="auto", help="auto | rao-blackwell | importance")
    parser.add_argument(
        "--rel-se",
        type=float,
        default=DEFAULT_REL_SE,
        help=f"target relative standard error (default {DEFAULT_REL_SE:g})",
    )
    parser.add_argument(
        "--max-pairs",
        type=integer_text,
        default=MAX_PAIRS,
        help=f"cap on the pairs of one point (default {MAX_PAIRS:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="local Dask workers (default: one per core); 0 runs in this process without Dask",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="use an existing Dask cluster (tcp://host:8786)"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--out", metavar="FILE", help="results table (.csv or .json); a rerun resumes from it"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--plot", metavar="FILE.png", help="capacity against d (matplotlib)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        if args.workers is not None and args.workers < 0:
            raise InvalidArgument(f"--workers {args.workers}: give 0 (in this process) or more")
        if args.workers is not None and args.scheduler:
            raise InvalidArgument("--workers and --scheduler exclude each other")
        if args.max_pairs < MIN_PAIRS:
            raise InvalidArgument(f"--max-pairs {args.max_pairs}: at least {MIN_PAIRS}")
        if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
            raise InvalidArgument(f"--out {args.out}: folder does not exist")
        if args.out and not args.out.endswith((".csv", ".json")):
            raise InvalidArgument(f"--out {args.out}: use a .csv or .json file name")
        if args.plot:
            from importlib.util import find_spec

            if find_spec("matplotlib") is None:
                raise InvalidArgument(
                    "--plot needs matplotlib: pip install 'transformer-proofs[plot]'"
                )
        points = grid(
            args.store,
            args.d,
            args.beta,
            args.schedule,
            args.memories,
            args.estimator,
            args.seed,
            args.rel_se,
        )  # bad input first: exit 2
        if args.workers != 0:  # fail before any work when Dask is missing
            try:
                import dask.distributed  # noqa: F401
            except ImportError:
                raise DaskMissing(
                    f"Dask is not installed: {EXTRA}; or run in this process with --workers 0"
                ) from None
        done = read_table(args.out) if args.out else []
        rows = run_sweep(
            points,
            workers=args.workers,
            scheduler=args.scheduler,
            out=args.out,
            max_pairs=args.max_pairs,
            progress=not args.no_progress,
            done=done,
        )
        if args.plot:
            plot_capacity_vs_d(rows, args.plot)
    except InvalidArgument as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([_json_row(r) for r in rows], indent=1))
    else:
        print(text_table(rows))
    print(
        f"{len(rows)} points in {time.perf_counter() - start:.1f} s"
        + (f"; table: {Path(args.out).resolve()}" if args.out else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    # Run the module's own import, not this ``__main__`` copy: Dask pickles the task functions
    # by reference (``numeric_checks.sweep.weight_chunk``), which a worker imports; functions of
    # ``__main__`` would be pickled by value with everything their globals reach.
    from numeric_checks.sweep import main as _main

    sys.exit(_main())
