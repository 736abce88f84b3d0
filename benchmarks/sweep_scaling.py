"""Benchmark: the sweep on 1 and 2 local Dask worker processes, against what the machine gives.

One grid — ``relu3`` and ``softmax`` at d = 64, β = 8, relative standard error 5e-4: 94 chunks
of about 4·10⁶ (query, key) pairs — measured in one run of this script:

* ``serial`` — the chunks in this process (``--workers 0``, no Dask);
* ``dask_1`` / ``dask_2`` — a real multi-process ``LocalCluster`` with 1 and 2 workers, as
  ``python -m numeric_checks.sweep --workers N`` starts it. Three times each: ``start`` (the
  cluster up and every worker has imported the sweep), ``compute`` (the grid on the warm
  cluster, rows merged in this process) and ``end_to_end`` (start + compute + close);
* ``pool_1`` / ``pool_2`` — the same chunk calls through a ``multiprocessing`` pool of 1 and 2
  processes: the scaling the machine allows at that moment (it is shared: another process on
  one of the cores halves anything's two-process speed-up; the load average is printed).

Each configuration runs ``--repeat`` times, interleaved (1, 2, 1, 2, …), and the best time is kept.
Each worker's first chunk costs about 0.3 s more than the others (a fresh process touches its large
arrays' pages for the first time, ~0.1 s per 32 MB on a small VM); a grid of a few seconds cannot
amortize that (at ``--rel-se 1e-3``, 24 chunks, the 2-worker ratio is ~1.6), so the default grid is
94 chunks. Prints JSON: the times, the ratios (1 worker / 2 workers) for compute, end to end and the
pool, and whether every sweep run gave bitwise-identical rows.

    python benchmarks/sweep_scaling.py [--rel-se 1e-3] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from multiprocessing import get_context
from pathlib import Path

for _k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_k, "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from numeric_checks import sweep  # noqa: E402

STORES, D, BETA, REL_SE = ["relu3", "softmax"], 64, 8.0, 5e-4


def _chunk(task: tuple) -> dict:
    function, args, index = task
    return function(*args, index)


def _warm() -> None:
    import numeric_checks.sweep  # noqa: F401


def dask_run(points: list, workers: int) -> tuple[dict, list]:
    from dask.distributed import Client, LocalCluster

    t0 = time.perf_counter()
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
        env=dict(sweep.BLAS_ENV),
    )
    client = Client(cluster)
    client.run(_warm)
    t1 = time.perf_counter()
    rows = sweep.run_sweep(points, client=client, progress=False)
    t2 = time.perf_counter()
    client.close()
    cluster.close()
    t3 = time.perf_counter()
    return {"start": t1 - t0, "compute": t2 - t1, "end_to_end": t3 - t0}, rows


def pool_run(tasks: list, processes: int) -> float:
    with get_context("spawn").Pool(processes) as pool:
        pool.map(_chunk, tasks[:processes])  # imports done, as the warm cluster's
        t = time.perf_counter()
        pool.map(_chunk, tasks, chunksize=1)
        return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rel-se", type=float, default=REL_SE, help="smaller: more work per run")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each configuration")
    args = ap.parse_args()
    points = sweep.grid(STORES, [D], [BETA], rel_se=args.rel_se)
    plans = [pl for p in points for pl in sweep.plan(p)]
    tasks = [(pl.function, pl.args, i) for pl in plans for i in range(pl.chunks)]
    load = {"before": os.getloadavg()}
    t = time.perf_counter()
    serial = sweep.run_sweep(points, workers=0, progress=False)
    best: dict[str, dict] = {"serial": {"compute": time.perf_counter() - t}}
    identical = True
    for _ in range(args.repeat):
        for n in (1, 2):
            times, rows = dask_run(points, n)
            identical &= json.dumps(rows) == json.dumps(serial)
            old = best.setdefault(f"dask_{n}", times)
            best[f"dask_{n}"] = {k: min(v, old[k]) for k, v in times.items()}
            pool = pool_run(tasks, n)
            best[f"pool_{n}"] = {
                "compute": min(pool, best.get(f"pool_{n}", {}).get("compute", pool))
            }
    load["after"] = os.getloadavg()

    def ratio(kind: str, key: str) -> float:
        return round(best[f"{kind}_1"][key] / best[f"{kind}_2"][key], 3)

    doc = {
        "grid": {
            "stores": STORES,
            "d": D,
            "beta": BETA,
            "rel_se": args.rel_se,
            "chunks": len(tasks),
            "pairs": sum(pl.pairs for pl in plans),
        },
        "seconds": {k: {kk: round(vv, 3) for kk, vv in v.items()} for k, v in best.items()},
        "speedup_2_workers_compute": ratio("dask", "compute"),
        "speedup_2_workers_end_to_end": ratio("dask", "end_to_end"),
        "speedup_2_processes_pool": ratio("pool", "compute"),
        "identical_rows": identical,
        "cpus": os.cpu_count(),
        "repeat": args.repeat,
        "load_average": load,
    }
    print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
