"""Mutation score of the proof engine: mutants of every theorem module's steps, caught / total.

Builds every theorem module's report (``python -m proofs`` discovers them), takes every step
whose formula is an equation, makes its mutants (``symbolic.mutation``: sign flip, dropped term,
changed exponent, σ moved to the other factor, α > 0 → α < 0, changed constant) and runs each
through the engine and the certified counterexample search. Prints, per module and in total,
``caught / (total − equivalent)``, then every equivalent mutant (proved by the checker and ~0 at
every sampled point: the mutation did not change the statement), every mutant caught without a
certified witness, and every mutant proved wrongly (a soundness bug; exit code 1).

    python benchmarks/mutation_score.py [--limit 8 | --all] [--only exchange] [--json FILE]

Not a test: ``tests/soundness/test_mutations.py`` asserts the same (the full harvest is its
``slow`` part).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from a checkout
    sys.path.insert(0, str(ROOT))

from proofs.__main__ import discover  # noqa: E402
from symbolic.mutation import (  # noqa: E402
    MAX_MUTANTS_PER_FORMULA,
    Outcome,
    Score,
    check,
    harvest,
    module_name,
    mutants,
)


def run(only: list[str], limit: int | None, quiet: bool) -> tuple[list[Outcome], dict]:
    outcomes: list[Outcome] = []
    info: dict = {}
    for m in discover():
        if only and m.name not in only:
            continue
        if m.module is None:
            print(f"{m.name}: {m.error}", file=sys.stderr)
            info[m.name] = {"error": m.error}
            continue
        start = time.perf_counter()
        report = m.module.build_report()
        built = time.perf_counter() - start
        steps = harvest(report)
        made = [x for origin, step in steps for x in mutants(step.formula, origin, limit)]
        start = time.perf_counter()
        checked = [check(x) for x in made]
        outcomes += checked
        info[m.name] = {"steps": len(steps), "mutants": len(made),
                        "build_seconds": round(built, 2),
                        "check_seconds": round(time.perf_counter() - start, 2)}
        if not quiet:
            print(f"  {m.name}: {len(steps)} equational steps, {len(made)} mutants "
                  f"(report {built:.1f} s, checks {info[m.name]['check_seconds']:.1f} s)",
                  file=sys.stderr)
    return outcomes, info


def _row(o: Outcome) -> str:
    m = o.mutant
    return f"  {m.description[:150]} — {o.checker.reason[:90]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=MAX_MUTANTS_PER_FORMULA,
                        help="mutants kept per step (an operator-balanced, seeded sample)")
    parser.add_argument("--all", action="store_true", help="every mutant of every step")
    parser.add_argument("--only", action="append", default=[], metavar="MODULE")
    parser.add_argument("--json", metavar="FILE", help="also write every outcome")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes, info = run(args.only, None if args.all else args.limit, args.quiet)
    score = Score.of(outcomes, module_name)
    print(score.text("mutants of the theorem modules' equational steps"))
    for status, title in (("equivalent", "equivalent mutants (proved; ~0 at every sampled point)"),
                          ("failed", "caught without a certified witness (not proved)"),
                          ("unsound", "PROVED although a certified witness refutes them"),
                          ("suspect", "PROVED although they do not vanish numerically")):
        rows = [o for o in outcomes if o.status == status]
        if rows:
            print(f"{title}: {len(rows)}")
            for o in rows:
                vanishes = " [vanishes numerically]" if status == "failed" and o.vanishes else ""
                print(_row(o) + vanishes)
    slowest = max(outcomes, key=lambda o: o.seconds, default=None)
    if slowest is not None:
        print(f"slowest mutant: {slowest.mutant.description[:120]} in {slowest.seconds:.2f} s")
    print(f"total {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "modules": info, "score": {g: dict(c) for g, c in score.counts.items()},
            "outcomes": [{"origin": o.mutant.origin, "operator": o.mutant.operator,
                          "site": o.mutant.site, "status": o.status,
                          "checker": o.checker.status, "witness": dict(o.witness),
                          "certificate": o.certificate, "seconds": round(o.seconds, 3)}
                         for o in outcomes]}, indent=2, ensure_ascii=False))
    wrong = score.total()["unsound"] + score.total()["suspect"]
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
