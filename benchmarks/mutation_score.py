"""Mutation score of the proof engine: what the kernel decides about deliberately broken claims.

Builds every theorem module's report (``python -m proofs`` discovers them), takes every step
whose formula is an equation, makes its mutants (``tests/mutation_engine.py``: sign
flip, dropped term, changed exponent, σ moved to the other factor, α > 0 → α < 0, changed
constant) and gives each to the kernel: the checker's fact on the mutated formula, then
``counterexample`` at instances the engine proposes. Then near-misses of table activations
(tiny term, nudged exponent, moved switch point, far kink) through the ``--activation`` path.

A mutant is *caught* only when the kernel refutes it. Printed per module and in total:
refuted / unknown / proved (equivalent, or wrongly); every unknown mutant with the kernel's
reason; every activation decision that is unknown or rejected. Exit 1 if anything is proved
wrongly (or an activation decision is wrong).

    python benchmarks/mutation_score.py [--limit 8 | --all] [--only exchange] [--json FILE]
    python benchmarks/mutation_score.py --null-checker   # every backend answers unknown:
                                                         # must print 0 refuted
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):  # runnable as a script from a checkout
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from mutation_engine import (  # noqa: E402
    MAX_MUTANTS_PER_FORMULA,
    Outcome,
    Score,
    activation_mutants,
    check,
    check_activation,
    harvest,
    module_name,
    mutants,
    null_checker,
)

from proofs.__main__ import discover  # noqa: E402


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
        info[m.name] = {
            "steps": len(steps),
            "mutants": len(made),
            "build_seconds": round(built, 2),
            "check_seconds": round(time.perf_counter() - start, 2),
        }
        if not quiet:
            print(
                f"  {m.name}: {len(steps)} equational steps, {len(made)} mutants "
                f"(report {built:.1f} s, checks {info[m.name]['check_seconds']:.1f} s)",
                file=sys.stderr,
            )
    return outcomes, info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--limit",
        type=int,
        default=MAX_MUTANTS_PER_FORMULA,
        help="mutants kept per step (an operator-balanced, seeded sample)",
    )
    parser.add_argument("--all", action="store_true", help="every mutant of every step")
    parser.add_argument("--only", action="append", default=[], metavar="MODULE")
    parser.add_argument(
        "--no-activations", action="store_true", help="skip the activation near-misses"
    )
    parser.add_argument(
        "--null-checker",
        action="store_true",
        help="every backend answers unknown (must give 0 refuted)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write every outcome")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with null_checker() if args.null_checker else nullcontext():
        outcomes, info = run(args.only, None if args.all else args.limit, args.quiet)
        acts = [] if args.no_activations else [check_activation(m) for m in activation_mutants()]
    title = "NULL CHECKER — " if args.null_checker else ""
    score = Score.of(outcomes, module_name)
    print(score.text(f"{title}mutants of the theorem modules' equational steps"))
    for status, heading in (
        ("unknown", "unknown (not refuted, not proved) — not caught"),
        ("equivalent", "equivalent (proved; ~0 at every sampled point): excluded"),
        ("unsound", "PROVED although the kernel refutes them at a point"),
        ("suspect", "PROVED although they do not vanish numerically"),
    ):
        rows = [o for o in outcomes if o.status == status]
        if rows:
            print(f"{heading}: {len(rows)}")
            for o in rows:
                vanishes = " [vanishes numerically]" if o.vanishes else ""
                print(f"  {o.mutant.description[:150]} — {o.reason[:100]}{vanishes}")
    tally: Counter = Counter()
    per_op: dict[str, Counter] = {}
    for a in acts:
        for v in a.verdicts.values():
            tally[v] += 1
            per_op.setdefault(a.mutant.operator, Counter())[v] += 1
    if acts:

        def fmt(c: Counter) -> str:
            return (
                f"{sum(c.values())} decisions: {c['refuted']} refuted, {c['proved']} proved "
                f"(right), {c['unknown']} unknown, {c['rejected']} rejected input, "
                f"{c['wrong']} WRONG"
            )

        print(
            f"{title}activation near-misses ({len(acts)} activations × 3 decisions): {fmt(tally)}"
        )
        for op in sorted(per_op):
            print(f"  {op:<16} {fmt(per_op[op])}")
        for a in acts:
            odd = {p: v for p, v in a.verdicts.items() if v in ("unknown", "rejected", "wrong")}
            if odd:
                why = a.reasons.get("input") or "; ".join(a.reasons[p][:80] for p in odd)
                print(f"  {a.mutant.text}: {odd} — {why[:160]}")
    total_refuted = score.refuted + tally["refuted"]
    print(
        f"{title}total: {score.mutants} step mutants + {sum(tally.values())} activation "
        f"decisions; refuted {total_refuted}, unknown {score.total()['unknown'] + tally['unknown']}"
        f", proved {sum(score.total()[s] for s in ('equivalent', 'unsound', 'suspect'))}"
        f" + {tally['proved']}, wrong {score.wrong + tally['wrong']}"
    )
    slowest = max(outcomes, key=lambda o: o.seconds, default=None)
    if slowest is not None:
        print(f"slowest mutant: {slowest.mutant.description[:120]} in {slowest.seconds:.2f} s")
    print(f"total {time.perf_counter() - start:.1f} s")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "null_checker": args.null_checker,
                    "modules": info,
                    "score": {g: dict(c) for g, c in score.counts.items()},
                    "outcomes": [
                        {
                            "origin": o.mutant.origin,
                            "operator": o.mutant.operator,
                            "site": o.mutant.site,
                            "status": o.status,
                            "checker": o.fact.status,
                            "witness": dict(o.witness),
                            "certificate": o.certificate,
                            "reason": o.reason,
                            "seconds": round(o.seconds, 3),
                        }
                        for o in outcomes
                    ],
                    "activations": [
                        {
                            "text": a.mutant.text,
                            "operator": a.mutant.operator,
                            "verdicts": a.verdicts,
                            "reasons": a.reasons,
                        }
                        for a in acts
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    if args.null_checker and total_refuted:
        print(
            "the null checker refuted something: a refutation came from outside the kernel's "
            "checkers",
            file=sys.stderr,
        )
        return 1
    return 1 if score.wrong or tally["wrong"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
