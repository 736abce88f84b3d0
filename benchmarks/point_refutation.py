"""What the kernel's point refutation buys: ``check_equal`` on false steps, with and without it.

``check_equal`` tries the difference at a point of the symbols' domains before ``simplify``
runs (``symbolic.kernel.probes._refuted_at_a_point``). This takes the mutants of the
equational steps of the theorem modules (``tests/mutation_engine.py``, as
``benchmarks/mutation_score.py`` does) and gives each to ``check_equal`` twice in this one
run — with the probe, and with it switched off (``simplify`` alone, as before it existed) —
and prints the CPU seconds of each and their ratio, with the verdicts of each: the probe may
only turn ``unknown`` into ``refuted``, so the proved (equivalent) mutants are the same either
way. Then the same for the *original* (true) steps, none of which may be refuted; their time
the probe may only add to. Exit 1 if either rule is broken.

    python benchmarks/point_refutation.py [--only scaling] [--limit 8]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):  # runnable as a script from a checkout
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import sympy  # noqa: E402
from mutation_engine import MAX_MUTANTS_PER_FORMULA, harvest, mutants  # noqa: E402

from proofs.__main__ import check as build  # noqa: E402
from proofs.__main__ import discover  # noqa: E402
from symbolic.kernel import check_equal, sympy_checks  # noqa: E402


def scalar(e) -> bool:
    return isinstance(e, sympy.Expr) and not e.has(sympy.MatrixExpr, sympy.Sum)


def timed(pairs, probe: bool) -> tuple[float, Counter]:
    saved = sympy_checks._refuted_at_a_point, sympy_checks._refuted_at_points
    if not probe:
        sympy_checks._refuted_at_a_point = lambda *a, **k: None
        sympy_checks._refuted_at_points = lambda *a, **k: None
    try:
        sympy.core.cache.clear_cache()
        start = time.process_time()
        counts = Counter(check_equal(lhs, rhs).status for lhs, rhs in pairs)
        return time.process_time() - start, counts
    finally:
        sympy_checks._refuted_at_a_point, sympy_checks._refuted_at_points = saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="MODULE")
    parser.add_argument("--limit", type=int, default=MAX_MUTANTS_PER_FORMULA)
    args = parser.parse_args(argv)
    originals, made = [], []
    for run in build([m for m in discover() if not args.only or m.name in args.only]):
        if run.report is None:
            continue
        for origin, step in harvest(run.report):
            f = step.formula
            if scalar(f.lhs) and scalar(f.rhs):
                originals.append((f.lhs, f.rhs))
                made += [
                    (m.lhs, m.rhs)
                    for m in mutants(f, origin, args.limit)
                    if scalar(m.lhs) and scalar(m.rhs)
                ]
    bad = 0
    for what, pairs in (("mutants", made), ("original steps (true)", originals)):
        off, off_counts = timed(pairs, probe=False)
        on, on_counts = timed(pairs, probe=True)
        print(f"{what}: {len(pairs)} checks")
        print(f"  simplify alone:       {off:7.2f} CPU s  {dict(off_counts)}")
        print(f"  point, then simplify: {on:7.2f} CPU s  {dict(on_counts)}")
        print(f"  ratio (with/without): {on / off:.2f}" if off else "  ratio: -")
        if what == "mutants":
            bad += abs(on_counts["proved"] - off_counts["proved"])
        else:
            bad += on_counts["refuted"]  # a true step refuted would be a soundness bug
    print(f"rules broken: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
