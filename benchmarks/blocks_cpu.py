"""CPU seconds of the two block commands, for one or more source trees, in one run.

    python benchmarks/blocks_cpu.py [--runs 1] [--rev 000e1f0] [--tree .]

Each measurement is a fresh ``python -m proofs.symmetry --layer NAME --discover --json
--no-torch`` with the tree first on ``PYTHONPATH``; its CPU time (user + system, from
``os.wait4``) measures this process and not the neighbours on a shared machine. ``--rev`` adds a
commit of this repository as a tree (``git archive`` into a temporary directory), so "before"
and "after" are timed by the same script under the same load; the runs alternate between trees.
The decisions of every tree are printed beside the times, so a faster tree that decides less is
visible. Not a test: the suite never asserts times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = ("llama_block", "gpt2_block")


def cpu_run(tree: Path, block: str) -> tuple[float, dict[str, str]]:
    """CPU seconds of one command and its decisions (symmetry → decision)."""
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    argv = [sys.executable, "-m", "proofs.symmetry", "--layer", block, "--discover", "--json"]
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(
            [*argv, "--no-torch"], cwd=tree, env=env, stdout=out, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        text = out.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        return usage.ru_utime + usage.ru_stime, {"exit": str(os.waitstatus_to_exitcode(status))}
    data = json.loads(text)
    decisions = {
        (s.get("symmetry") or s.get("transform")): s["decision"] for s in data["symmetries"]
    }
    return usage.ru_utime + usage.ru_stime, decisions


def archive(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` (``git archive``), unpacked under ``into``."""
    target = into / rev
    target.mkdir(parents=True)
    tar = subprocess.run(
        ["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=tar.stdout, check=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--rev", action="append", default=[], help="a commit to time as a tree")
    parser.add_argument("--tree", action="append", default=[], help="a checkout to time")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {rev: archive(rev, Path(tmp)) for rev in args.rev}
        trees |= {t: Path(t).resolve() for t in args.tree or ([] if args.rev else ["."])}
        if args.rev and not args.tree:
            trees["."] = ROOT
        seconds: dict[tuple[str, str], list[float]] = {}
        decided: dict[tuple[str, str], dict[str, str]] = {}
        for _ in range(args.runs):
            for block in BLOCKS:
                for name, tree in trees.items():
                    cpu, decisions = cpu_run(tree, block)
                    seconds.setdefault((name, block), []).append(cpu)
                    decided[(name, block)] = decisions
    for block in BLOCKS:
        for name in trees:
            cpu = statistics.median(seconds[(name, block)])
            counts: dict[str, int] = {}
            for outcome in decided[(name, block)].values():
                counts[outcome] = counts.get(outcome, 0) + 1
            shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            print(f"{block:12s} {name:12s} {cpu:7.1f} s CPU  ({shown})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
