"""Special-function numerics before/after, in one run: CPU time and output of the commands that
lean on the certified ``₀F₁``, ``erf``/``erfc``, ``I_ν`` and ``Γ`` enclosures, for two or more
source trees (e.g. a ``git worktree`` of the old revision and this checkout):

    python benchmarks/flint_numerics.py --tree /path/to/old --tree . [--runs 1] [--proofs-runs 3]

For each tree and command: the child's CPU seconds (user + system, ``RUSAGE_CHILDREN``), wall
seconds, exit code, the summary line, and whether its output equals the first tree's once times
are masked (a difference is written to ``--diffs``). The runs alternate between trees so that
both see the same load. Then ``benchmarks/proofs_cpu.py`` times ``python -m proofs`` on the
same trees. Not a test: the suite never asserts times.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A direct timing of the enclosures, through APIs both old and new trees have.
MICRO = r"""
import time, sympy
from mpmath import iv
from symbolic.kernel.intervals import enclose
from symbolic.memory.similarity_law import hyp0f1_enclosure, iv_precision
cases = {
    "erf(1/3), erf(5), erfc(7), erfc(26) at 64 and 1024 bits": lambda: [
        enclose(f(x), bits) for f, x in [(sympy.erf, sympy.Rational(1, 3)), (sympy.erf, 5),
        (sympy.erfc, 7), (sympy.erfc, 26)] for bits in (64, 1024)],
    "I_31(16), I_749(16), Γ(1499/2) at 64 bits": lambda: [
        enclose(e, 64) for e in (sympy.besseli(31, 16), sympy.besseli(749, 16),
        sympy.gamma(sympy.Rational(1499, 2)))],
    "0F1(; 750; x), x = 64, 1e4, 1e8 (series), 1.7e13 (YaRN)": lambda: [
        hyp0f1_enclosure(750, iv.mpf(x)) for x in (64, 1e4, 1e8, 1.7e13)],
}
for name, run in cases.items():
    start, n = time.process_time(), 0
    while time.process_time() - start < 0.5 or n < 3:
        run(); n += 1
    print(f"{name}: {(time.process_time() - start) / n * 1e3:.2f} ms")
"""

COMMANDS = {
    "capacity --d 256 --beta 16": [
        sys.executable,
        "-m",
        "proofs.capacity",
        "--d",
        "256",
        "--beta",
        "16",
    ],
    "capacity --d 1500": [sys.executable, "-m", "proofs.capacity", "--d", "1500"],
    "enclosures (micro)": [sys.executable, "-c", MICRO],
}
TIMES = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b")  # "in 18.82 s", "(0.4 s)": masked


def run(tree: Path, argv: list[str]) -> dict:
    """One child run with ``tree`` first on the path: CPU and wall seconds, code, output."""
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(
        argv, cwd=tree, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, "rc": done.returncode, "out": done.stdout + done.stderr}


def summary(out: str) -> str:
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="a source tree (repeatable)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each command per tree")
    parser.add_argument("--proofs-runs", type=int, default=3, help="0 skips python -m proofs")
    parser.add_argument("--diffs", type=Path, default=Path("/tmp/flint_numerics_diffs.txt"))
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in (args.tree or [ROOT])]

    results: dict[tuple[str, Path], list[dict]] = {}
    for name, command in COMMANDS.items():
        for _ in range(args.runs):
            for tree in trees:
                results.setdefault((name, tree), []).append(run(tree, command))

    diffs = []
    for name in COMMANDS:
        print(f"\n== {name}")
        first = results[(name, trees[0])][-1]["out"]
        for tree in trees:
            rs = results[(name, tree)]
            cpu = statistics.median(r["cpu"] for r in rs)
            wall = statistics.median(r["wall"] for r in rs)
            out = rs[-1]["out"]
            same = TIMES.sub("<t>", out) == TIMES.sub("<t>", first)
            print(
                f"  {tree}: cpu {cpu:.2f} s, wall {wall:.2f} s, exit {rs[-1]['rc']}, "
                f"output {'same as first tree' if same else 'DIFFERS'} (times masked)"
            )
            if name == "enclosures (micro)":
                print("    " + out.strip().replace("\n", "\n    "))
            else:
                print(f"    {summary(out)}")
            if not same:
                diffs += difflib.unified_diff(
                    TIMES.sub("<t>", first).splitlines(),
                    TIMES.sub("<t>", out).splitlines(),
                    f"{trees[0]} {name}",
                    f"{tree} {name}",
                    lineterm="",
                )
    args.diffs.write_text("\n".join(diffs) + "\n")
    if diffs:
        print(f"\noutput differences: {args.diffs}")

    if args.proofs_runs:
        print("\n== python -m proofs (benchmarks/proofs_cpu.py)", flush=True)
        cmd = [sys.executable, str(ROOT / "benchmarks" / "proofs_cpu.py"), "--runs"]
        cmd += [str(args.proofs_runs)] + [a for t in trees for a in ("--tree", str(t))]
        subprocess.run(cmd, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
