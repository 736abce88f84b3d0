"""Wall time of ``python -m proofs`` against its budget (DESIGN.md: under 5 s on 2 cores).

Runs the real command several times in fresh interpreters (start-up and imports included, as a
user or CI sees it), pinned to ``--cores`` CPUs when the machine has more, and prints every run,
the median and the ratio median / budget; then one ``--json`` run's per-module breakdown
(``build_report()`` times measured inside the process) to show where the time goes.

    python benchmarks/proofs_wall.py [--runs 5] [--cores 2] [--budget 5.0]

Exit code 0 when the median is within the budget, 1 when it is not. Not a test: wall time depends
on the machine and its load, so the suite never asserts it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_S = 5.0  # DESIGN.md, "Budgets": every symbolic theorem, no Monte Carlo
DEFAULT_RUNS = 5  # enough for a stable median; each run is a few seconds
DEFAULT_CORES = 2  # the budget's machine


def pin(cores: int):
    """A ``preexec_fn`` restricting the child to the first ``cores`` CPUs we may use."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) <= cores:
        return None
    return lambda: os.sched_setaffinity(0, allowed[:cores])


def wall(args: list[str], cores: int) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        preexec_fn=pin(cores),
        check=False,
    )
    return time.perf_counter() - start, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument(
        "--cores",
        type=int,
        default=DEFAULT_CORES,
        help="pin the command to this many CPUs (when the machine has more)",
    )
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds")
    args = parser.parse_args(argv)

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python -m proofs: {args.runs} runs on min({cpus}, {args.cores}) CPUs "
        f"(load average {load:.2f} before the runs)"
    )
    times = []
    for i in range(1, args.runs + 1):
        seconds, done = wall([], args.cores)
        times.append(seconds)
        print(f"  run {i}: {seconds:.2f} s (exit {done.returncode})")
        if done.returncode:  # timed all the same; say why it did not pass
            print("    " + (done.stdout.strip().splitlines() or ["(no output)"])[-1])
        if done.returncode not in (0, 1, 3):
            print(done.stderr, file=sys.stderr)
            return 1
    median = statistics.median(times)
    print(
        f"median {median:.2f} s (min {min(times):.2f}, max {max(times):.2f}); "
        f"budget {args.budget:.1f} s; ratio {median / args.budget:.2f}"
    )

    seconds, done = wall(["--json"], args.cores)
    report = json.loads(done.stdout)
    print(
        f"breakdown of one --json run ({seconds:.2f} s wall; {report['seconds']:.2f} s after "
        "interpreter start-up):"
    )
    for m in report["modules"]:
        print(
            f"  {m['name']:<12} import {m['import_seconds']:5.2f} s  build_report() "
            f"{m['seconds']:5.2f} s  {len(m['results']):3d} claims  {m['status']}"
        )
    return 0 if median <= args.budget else 1


if __name__ == "__main__":
    raise SystemExit(main())
