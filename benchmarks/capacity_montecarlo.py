"""Benchmark: the softmax capacity Monte Carlo at d = 64, β = 8, M = 2·10⁶ memories.

Measures, each in a fresh subprocess (so peak memory is the run's own):

* ``montecarlo`` — ``numeric_checks.capacity.estimate_isr("softmax", 64, 2_000_000, 8)``
  (Rao–Blackwell estimator, default queries and draws): wall time, peak RSS;
* ``floor`` — drawing the same random unit vectors chunk by chunk plus the same query × key
  matrix product, and nothing else: the cost no implementation can avoid;
* ``baseline`` — the interpreter with numpy and the toolkit imported (peak RSS only).

Prints one JSON document and a summary; targets (issue 5): under 60 s wall on a 2-core machine,
under 500 MB peak, within 2× of the floor.

    python benchmarks/capacity_montecarlo.py [--memories 2000000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
D, BETA, MEMORIES = 64, 8.0, 2_000_000
TARGETS = {"seconds": 60.0, "peak_mb": 500.0, "ratio_to_floor": 2.0}

_CHILD = r"""
import json, resource, sys, time
import numpy as np
from numeric_checks import capacity as mc

what, d, beta, M = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
out = {}
if what == "montecarlo":
    t = time.perf_counter()
    isr, se, draws, Q = mc.estimate_isr("softmax", d, M, beta)
    out = {"seconds": time.perf_counter() - t, "isr": isr, "se": se, "draws": draws,
           "queries": Q}
elif what == "floor":
    # the same generator calls, chunks and product as weight_draw, nothing else
    Q = mc.MAX_QUERIES
    pairs = mc.pairs_needed("softmax", d, beta)
    draws = max(1, -(-pairs // (Q * (M - 1))))
    t = time.perf_counter()
    seeds = np.random.SeedSequence([mc.DEFAULT_SEED, d, M, 0])
    chunk = max(Q, mc.CHUNK_ELEMENTS // max(Q, d))
    for child in seeds.spawn(draws):
        key_seed, _ = child.spawn(2)
        rng = np.random.default_rng(key_seed)
        queries = None
        for start, stop in mc._chunks(M, chunk):
            keys = mc.unit_rows(rng, (stop - start, d))
            if queries is None:
                queries = keys[:Q].copy()
            queries @ keys.T
    out = {"seconds": time.perf_counter() - t, "draws": draws, "queries": Q}
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(what: str, memories: int) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, what, str(D), str(BETA), str(memories)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=MEMORIES)
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs of each")
    args = parser.parse_args()
    baseline = run("baseline", args.memories)
    mc = min(
        (run("montecarlo", args.memories) for _ in range(args.repeat)), key=lambda r: r["seconds"]
    )
    floor = min(
        (run("floor", args.memories) for _ in range(args.repeat)), key=lambda r: r["seconds"]
    )
    ratio = mc["seconds"] / floor["seconds"]
    doc = {
        "d": D,
        "beta": BETA,
        "memories": args.memories,
        "estimator": "rao-blackwell",
        "montecarlo": mc,
        "floor": floor,
        "baseline_peak_mb": baseline["peak_mb"],
        "ratio_to_floor": ratio,
        "targets": TARGETS,
        "meets": {
            "seconds": mc["seconds"] < TARGETS["seconds"],
            "peak_mb": mc["peak_mb"] < TARGETS["peak_mb"],
            "ratio_to_floor": ratio < TARGETS["ratio_to_floor"],
        },
    }
    print(json.dumps(doc, indent=2))
    print(
        f"softmax MC, d = {D}, β = {BETA:g}, M = {args.memories:,}: "
        f"{mc['seconds']:.2f} s, peak {mc['peak_mb']:.0f} MB "
        f"(interpreter + imports alone: {baseline['peak_mb']:.0f} MB); floor "
        f"{floor['seconds']:.2f} s; ratio {ratio:.2f}; ISR = {mc['isr']:.5f} ± "
        f"{1.96 * mc['se']:.5f}",
        file=sys.stderr,
    )
    return 0 if all(doc["meets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
