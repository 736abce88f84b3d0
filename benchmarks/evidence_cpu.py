"""CPU time of the export (``--smt2``) and the re-check (``--recheck``), per module, for one or
more source trees.

Each measure is a fresh ``python -m proofs.<module> --smt2 DIR`` and then
``python -m proofs --recheck DIR``, timed by the CPU its process tree used (``RUSAGE_CHILDREN``:
the interpreter and the Z3 and cvc5 processes it ran), so a busy machine does not inflate it as
it does wall time. With several trees the runs alternate (A, B, A, B, ...) and the medians are
compared as ratios to the first tree:

    python benchmarks/evidence_cpu.py --tree /path/to/old/checkout --tree . [--runs 1]
        [--module capacity --module reduction]

Not a test: the suite never asserts times.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("capacity", "reduction", "conservation")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(args: list[str], tree: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1"}
    before = _children_cpu()
    done = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} in {tree}: exit {done.returncode}\n{done.stderr}")
    return _children_cpu() - before


def measure(tree: Path, module: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as out:
        export = _timed([sys.executable, "-m", f"proofs.{module}", "--smt2", out], tree)
        recheck = _timed([sys.executable, "-m", "proofs", "--recheck", out], tree)
    return export, recheck


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, help="a checkout (default: this)")
    parser.add_argument("--module", action="append", choices=MODULES + ("exchange", "scaling"))
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    modules = args.module or list(MODULES)
    times: dict = {(t, m, phase): [] for t in trees for m in modules for phase in (0, 1)}
    for _ in range(args.runs):
        for m in modules:
            for t in trees:
                export, recheck = measure(t, m)
                times[(t, m, 0)].append(export)
                times[(t, m, 1)].append(recheck)
    first = trees[0]
    print(f"{'module':14} {'phase':8} " + " ".join(f"{t.name[:12]:>12}" for t in trees), end="")
    print("  ratio" if len(trees) > 1 else "")
    totals = {t: 0.0 for t in trees}
    for m in modules:
        for phase, name in ((0, "export"), (1, "recheck")):
            med = {t: statistics.median(times[(t, m, phase)]) for t in trees}
            for t in trees:
                totals[t] += med[t]
            ratios = " ".join(f"{med[t] / med[first]:.2f}" for t in trees[1:])
            cells = " ".join(f"{med[t]:12.2f}" for t in trees)
            print(f"{m:14} {name:8} {cells}  {ratios}")
    cells = " ".join(f"{totals[t]:12.2f}" for t in trees)
    ratios = " ".join(f"{totals[t] / totals[first]:.2f}" for t in trees[1:])
    print(f"{'total':14} {'':8} {cells}  {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
