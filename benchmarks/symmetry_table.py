"""The discovered symmetry table over the whole activation table, checked against
``proofs.exchange`` and ``proofs.scaling`` (issue 13).

For every activation: ``python -m proofs.symmetry --layer L --discover`` on the gated and the
symmetric rank-1 forms, then the rows that the two theorem modules also decide are compared:

* gated ``Q -> K, K -> Q`` kept  ⇔  ``exchange_symmetric`` (proofs.exchange);
* gated ``Q[j] -> a*Q[j], K[j] -> K[j]/a`` kept  ⇔  ``inverse_scaling_symmetric``
  (proofs.scaling); with degree p ≠ 1, ``K[j] -> a**(-p)*K[j]`` kept (its generalized symmetry);
* the symmetric rank-1 form keeps ``Q -> K, K -> Q`` and ``Q[j] -> a*Q[j], K[j] -> K[j]/a``.

Prints the table (activation × symmetry × conserved quantity), the number of comparisons, the
disagreements (none expected) and the wall time. The test suite runs a representative subset
(tests/proofs/test_symmetry.py); this script runs all of it::

    python benchmarks/symmetry_table.py [--layer gated] [--activation relu --activation silu]
"""

from __future__ import annotations

import argparse
import time

from proofs import exchange, scaling
from proofs.symmetry import symmetry_report
from symbolic.activations import ACTIVATIONS

EXCHANGE = "Q -> K, K -> Q"
INVERSE = "Q[j] -> a*Q[j], K[j] -> K[j]/a"


def expectations(name: str) -> dict[tuple[str, str], bool | None]:
    """What proofs.exchange and proofs.scaling decide, as (layer, transform) → kept."""
    ex = exchange.build_report(activations=[name]).data["activations"][0]
    sc = scaling.build_report(activations=[name]).data["activations"][0]
    want = {
        ("gated", EXCHANGE): ex["exchange_symmetric"],
        ("gated", INVERSE): sc["inverse_scaling_symmetric"],
        ("symmetric_rank1", EXCHANGE): True,
        ("symmetric_rank1", INVERSE): True,
    }
    p = sc["homogeneity_degree"]
    if p not in (None, 1, "every"):
        want[("gated", f"Q[j] -> a*Q[j], K[j] -> a**(-{p})*K[j]")] = True
    return want


def compare(name: str, layers=("gated", "symmetric_rank1")) -> tuple[list, list, int]:
    """(table rows, disagreements, comparisons) for one activation."""
    found = {}
    rows = []
    for layer in layers:
        report = symmetry_report(layer=layer, activation=name, discover=True)
        for d in report.data["decisions"]:
            found[(layer, d["transform"])] = d["invariant"]
            rows.append((name, layer, d["transform"], d["invariant"], d["conserved"]))
    bad, count = [], 0
    for key, want in expectations(name).items():
        if key[0] not in layers:
            continue
        count += 1
        if found.get(key, "missing") != want:
            bad.append((name, *key, found.get(key, "missing"), want))
    return rows, bad, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--activation", action="append", choices=list(ACTIVATIONS))
    parser.add_argument("--layer", action="append", choices=["gated", "symmetric_rank1"])
    args = parser.parse_args()
    start = time.perf_counter()
    rows, bad, count = [], [], 0
    for name in args.activation or ACTIVATIONS:
        r, b, c = compare(name, tuple(args.layer or ("gated", "symmetric_rank1")))
        rows += r
        bad += b
        count += c
    for name, layer, transform, kept, conserved in rows:
        mark = {True: "yes", False: "no", None: "?"}[kept]
        print(f"{name:11} {layer:16} {transform:48} {mark:4} {conserved or ''}")
    print(
        f"{len(rows)} decisions, {count} compared with proofs.exchange/proofs.scaling, "
        f"{len(bad)} disagreements, {sum(r[3] is None for r in rows)} unknown, "
        f"{time.perf_counter() - start:.1f} s"
    )
    for b in bad:
        print("DISAGREES:", b)


if __name__ == "__main__":
    main()
