"""CPU time of ``python -m proofs``, per theorem module, for one or more source trees.

On a shared machine wall time measures the neighbours; CPU time (``time.process_time()``)
measures us. Each run is a fresh interpreter that imports ``symbolic`` and every theorem
module and calls ``build_report()`` in ``python -m proofs`` order, timing each with
``process_time()``, then (not in the total) the LaTeX document of ``--latex``. With several
trees the runs alternate (A, B, A, B, ...) so that both see the same load, and the medians are
compared as ratios to the first tree:

    python benchmarks/proofs_cpu.py [--runs 3] [--tree /path/to/old/checkout] [--tree .]
    python benchmarks/proofs_cpu.py --calls --tree /path/to/old/checkout --tree .

``--calls`` counts Python function calls per phase instead (cProfile; one run, as the count does
not vary): a load-independent measure of the work, for when the machine is too busy for CPU
seconds to compare.

Not a test: the suite never asserts times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_RUNS = 3  # a median of three is stable enough for ratios; each run is several seconds

CHILD = r"""
import json, time
t0 = time.process_time()
import symbolic
from proofs.__main__ import discover
from symbolic.api import report_of
modules = discover()
times = {"import": time.process_time() - t0}
reports = []
for m in modules:
    start = time.process_time()
    reports.append(report_of(m.module))
    times[m.name] = time.process_time() - start
    times[m.name + ":claims"] = len(reports[-1].results)
times["total"] = time.process_time() - t0
from symbolic.render.latex_document import document
start = time.process_time()
document(reports)
times["latex (after)"] = time.process_time() - start
print(json.dumps(times))
"""

# The same phases counted in Python function calls (cProfile): slower, but the same count under
# any load — a measure of the work done where a busy machine makes CPU seconds unreliable.
CHILD_CALLS = r"""
import cProfile, json, pstats
profile = cProfile.Profile()
profile.enable()
import symbolic
from proofs.__main__ import discover
from symbolic.api import report_of
modules = discover()
profile.disable()
calls = {"import": pstats.Stats(profile).total_calls}
reports = []
for m in modules:
    profile = cProfile.Profile()
    profile.enable()
    reports.append(report_of(m.module))
    profile.disable()
    calls[m.name] = pstats.Stats(profile).total_calls
    calls[m.name + ":claims"] = len(reports[-1].results)
calls["total"] = sum(v for k, v in calls.items() if not k.endswith(":claims"))
from symbolic.render.latex_document import document
profile = cProfile.Profile()
profile.enable()
document(reports)
profile.disable()
calls["latex (after)"] = pstats.Stats(profile).total_calls
print(json.dumps(calls))
"""


def cpu_run(tree: Path, child: str = CHILD) -> dict[str, float]:
    """One fresh interpreter's CPU seconds (or, with ``CHILD_CALLS``, function calls) per
    phase, with ``tree`` first on the path."""
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="a source tree to time (repeatable; default: this checkout)",
    )
    parser.add_argument(
        "--calls",
        action="store_true",
        help="count Python function calls instead of CPU seconds (load-independent; one run)",
    )
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    runs, child, unit = (1, CHILD_CALLS, "M calls") if args.calls else (args.runs, CHILD, "s CPU")
    scale = 1e-6 if args.calls else 1.0

    samples: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for i in range(runs):
        for tree in trees:
            run = cpu_run(tree, child)
            samples[tree].append({k: v * scale if ":" not in k else v for k, v in run.items()})
            total = samples[tree][-1]["total"]
            print(f"  run {i + 1} {tree}: total {total:.2f} {unit}", flush=True)

    phases = [k for k in samples[trees[0]][0] if not k.endswith(":claims")]
    medians = {t: {k: statistics.median(s[k] for s in samples[t]) for k in phases} for t in trees}
    header = "phase".ljust(14) + "".join(f"{'tree ' + str(j + 1):>10}" for j in range(len(trees)))
    if len(trees) > 1:
        header += "".join(f"{'ratio ' + str(j + 1) + '/1':>11}" for j in range(1, len(trees)))
    print(f"median {'million function calls' if args.calls else 'CPU seconds'} over {runs} runs")
    for j, t in enumerate(trees):
        print(f"  tree {j + 1}: {t}")
    print(header)
    for k in phases:
        base = medians[trees[0]][k]
        row = k.ljust(14) + "".join(f"{medians[t][k]:10.2f}" for t in trees)
        row += "".join(f"{medians[t][k] / base:11.2f}" if base else f"{'-':>11}" for t in trees[1:])
        claims = samples[trees[0]][0].get(k + ":claims")
        print(row + (f"   ({claims} claims)" if claims is not None else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
