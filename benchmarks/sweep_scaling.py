"""Benchmark: the sweep on 1 and 2 local Dask workers, and its overhead over one process.

One grid (``relu3`` and ``softmax`` at d = 64, β = 8, relative standard error 1e-3; about
10⁸ pairs at the default --rel-se 1e-3), measured in one run of this script:

* ``serial`` — the same chunks in this process (``--workers 0``, no Dask);
* ``dask_1`` / ``dask_2`` — a LocalCluster with 1 and 2 worker processes (start-up included);
* ``single_process_mc`` — ``numeric_checks.capacity.estimate_isr`` (the single-process Monte
  Carlo of real memories) on the same number of (query, key) pairs.

Prints wall times and the ratios dask_1/dask_2 (scaling) and dask_1/single_process_mc,
serial/single_process_mc (overhead at equal work), and whether the three sweep runs gave
identical rows.

    python benchmarks/sweep_scaling.py [--rel-se 5e-4]
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

for _k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_k, "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from numeric_checks import capacity as mc  # noqa: E402
from numeric_checks.sweep import grid, plan, run_sweep  # noqa: E402

STORES, D, BETA, REL_SE = ["relu3", "softmax"], 64, 8.0, 1e-3


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rel-se", type=float, default=REL_SE, help="smaller: more work per run")
    args = ap.parse_args()
    points = grid(STORES, [D], [BETA], rel_se=args.rel_se)
    pairs = {p.store: sum(x.pairs for x in plan(p)) for p in points}
    times, rows = {}, {}
    for name, workers in (("serial", 0), ("dask_1", 1), ("dask_2", 2)):
        t = time.perf_counter()
        rows[name] = run_sweep(points, workers=workers, progress=False)
        times[name] = time.perf_counter() - t
    t = time.perf_counter()
    for store, n in pairs.items():
        M = round(mc.store_capacity(store, D, mc.rational(BETA)).exact.capacity.mid)
        Q = mc.MAX_QUERIES
        mc.estimate_isr(store, D, M, BETA, draws=max(1, round(n / (Q * (M - 1)))))
    times["single_process_mc"] = time.perf_counter() - t
    doc = {"pairs": pairs, "seconds": times,
           "ratio_dask1_over_dask2": times["dask_1"] / times["dask_2"],
           "ratio_dask1_over_single_process_mc": times["dask_1"] / times["single_process_mc"],
           "ratio_serial_over_single_process_mc": times["serial"] / times["single_process_mc"],
           "identical_rows": rows["serial"] == rows["dask_1"] == rows["dask_2"],
           "cpus": os.cpu_count(), "load_average": os.getloadavg()}
    print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
