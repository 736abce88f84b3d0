"""The data, tables, JSON and arguments of ``python -m proofs.capacity`` (docs/capacity.md).

``capacity_data`` gathers every store's capacities under both laws, the softmax optimum and the
logit-scaling schedules' crossings into the ``--json`` document; ``tables`` lays them out for
the text report. Non-finite floats become null (JSON has no infinity).
"""

from __future__ import annotations

import argparse
import math

import mpmath

from symbolic.engine import Report, Table
from symbolic.errors import InvalidArgument
from symbolic.memory.capacity import (
    SOURCE_BETA,
    SOURCE_D,
    SOURCE_TOLERANCE,
    LawCapacity,
    StoreCapacity,
    rational,
)
from symbolic.memory.schedules import (
    QWEN_TRAINING_LENGTH,
    SCHEDULES,
    SEED_MEMORIES,
    Crossing,
    log_isr,
    schedule_isr,
    softmax_optimum,
)
from symbolic.memory.similarity_law import LAW_NAMES
from symbolic.versions import versions

MAX_D = 4096  # largest --d
MAX_BETA = 1000.0  # largest --beta
MIN_D = 3  # the exact law's density (1 − s²)^((d−3)/2) is bounded only from d = 3 on
ISR_GRID = (10**3, 10**4, 10**5, 10**6, SEED_MEMORIES)  # M where schedules' ISR is tabulated


def memories_text(c: Crossing) -> str:
    if c.memories is not None and math.isfinite(c.memories):
        return f"{c.memories:.4g}"
    return f"10^{c.log10_memories:.4f}"


def capacity_data(
    caps: dict[str, StoreCapacity],
    crossings: dict[str, dict[str, Crossing]],
    d: int,
    beta: float,
    L: int,
) -> dict:
    at_source = d == SOURCE_D and rational(beta) == SOURCE_BETA
    stores = {}
    for name, cap in caps.items():
        g, e = cap.gaussian, cap.exact
        src = cap.store.source
        stores[name] = {
            "title": cap.store.title,
            "weights": cap.store.weight_text,
            "gaussian": g.capacity.mid,
            "exact": e.capacity.mid,
            "source": float(src),
            "source_text": cap.store.source_text,
            "formula_gaussian": g.formula,
            "formula_exact": e.formula,
            "kind_gaussian": g.kind,
            "kind_exact": e.kind,
            "gaussian_interval": enclosure(g),
            "exact_interval": enclosure(e),
            "relative_difference": cap.relative_difference,
            "source_relative_difference_gaussian": (g.capacity.mid - src) / src
            if at_source
            else None,
            "source_relative_difference_exact": (e.capacity.mid - src) / src if at_source else None,
            "note": "; ".join(x for x in (cap.store.note, e.note) if x),
        }
    schedules = {}
    for name, by_law in crossings.items():
        sched = SCHEDULES[name]
        schedules[name] = {
            "title": sched.title,
            "formula": sched.formula,
            "isr": {
                law: {str(M): finite(schedule_isr(name, law, d, beta, L, M)) for M in ISR_GRID}
                for law in LAW_NAMES
            },
            "crossing": {
                law: {
                    "memories": finite(c.memories),
                    "log10_memories": c.log10_memories,
                    "beta_at_crossing": c.beta_at_root,
                    "bracket_ln_memories": [c.lo_x, c.hi_x],
                    "status": c.status,
                    "below_one_up_to_2e6": c.root_x is None or c.lo_x > math.log(SEED_MEMORIES),
                }
                for law, c in by_law.items()
            },
        }
    return json_safe(
        {
            "d": d,
            "beta": float(beta),
            "training_length": L,
            "source": {
                "d": SOURCE_D,
                "beta": SOURCE_BETA,
                "tolerance": float(SOURCE_TOLERANCE),
                "applies": at_source,
            },
            "stores": stores,
            "softmax": {"optimal_beta": softmax_optimum(d), "schedules": schedules},
        }
    )


ENCLOSED_KINDS = ("closed form", "certified numeric")


def enclosure(law: LawCapacity) -> list[float] | None:
    """``[lo, hi]`` with ``lo ≤ M* ≤ hi`` (ends rounded outward, ``CertifiedValue``), or None
    when the number is no enclosure of the capacity: a leading-order value (least squares under
    unit keys, 2d + 1) or an uncertified quadrature."""
    if law.kind not in ENCLOSED_KINDS:
        return None
    return [law.capacity.lo, law.capacity.hi]


def json_safe(x: object) -> object:
    """Non-finite floats (a capacity past 1.8e308) become null, everywhere in the data."""
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_safe(v) for v in x]
    return finite(x) if isinstance(x, float) else x


def finite(x: float | None) -> float | None:
    """JSON has no infinity: a number past the float range is null (``log10_memories`` keeps
    the crossing of such a schedule, e.g. d = 256, β = 16)."""
    return x if x is None or math.isfinite(x) else None


def tables(data: dict) -> tuple[Table, ...]:
    d, beta = data["d"], data["beta"]
    rows = tuple(
        (
            name,
            v["weights"],
            v["source"] if data["source"]["applies"] else None,
            v["gaussian"],
            v["exact"],
            "" if v["relative_difference"] is None else f"{v['relative_difference']:+.2%}",
            v["kind_exact"],
        )
        for name, v in data["stores"].items()
    )
    stores = Table(
        "capacities",
        f"Capacity M* (ISR = 1) at d = {d}, β = {beta:g}",
        ("store", "f(s)", "source", "Gaussian", "exact", "exact vs Gaussian", "exact kind"),
        rows,
        (
            "source: the seed's figure at d = 64, β = 8 ('≈')",
            "least squares 'Gaussian': keys with i.i.d. N(0, 1/d) entries; 'exact': "
            "unit keys, leading order in 1/d",
        ),
    )
    sched_rows = []
    for name, v in data["softmax"]["schedules"].items():
        for law in LAW_NAMES:
            c = v["crossing"][law]
            where = (
                None
                if c["log10_memories"] is None
                else f"{c['memories']:.4g}"
                if c["memories"] is not None
                else f"10^{c['log10_memories']:.2f}"
            )
            sched_rows.append(
                (
                    name,
                    law,
                    v["isr"][law][str(10**6)],
                    v["isr"][law][str(SEED_MEMORIES)],
                    where,
                    c["beta_at_crossing"],
                    c["below_one_up_to_2e6"],
                )
            )
    sched = Table(
        "schedules",
        f"Softmax logit scaling (β0 = {beta:g}, L = {data['training_length']}, d = {d})",
        (
            "schedule",
            "law",
            "ISR(1e6)",
            "ISR(2e6)",
            "first M with ISR = 1",
            "β there",
            "ISR < 1 up to 2e6",
        ),
        tuple(sched_rows),
    )
    opt = data["softmax"]["optimal_beta"]
    best = Table(
        "optimal-beta",
        "Softmax: capacity-maximizing β",
        ("law", "β*", "M*(β*)", "note"),
        (
            (
                "gaussian",
                opt["gaussian"]["beta"],
                opt["gaussian"]["capacity"],
                opt["gaussian"]["formula"],
            ),
            (
                "exact",
                "none (M* increases with β)",
                opt["exact"]["capacity_at_gaussian_optimum"],
                "M* at the Gaussian optimum β = d/2; " + opt["exact"]["formula"],
            ),
        ),
    )
    return stores, sched, best


def report_json(report: Report, args: object) -> dict:
    """``--json``: the report's data, its status, every claim's status, timing, versions."""
    return {
        **report.data,
        "status": report.status,
        "claims": {r.claim.name: r.status for r in report.results},
        "seconds": round(report.seconds, 3),
        "versions": versions(),
    }


# --- command line ----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--d``, ``--beta``, ``--training-length``."""
    parser.add_argument("--d", type=int, default=SOURCE_D, help="key dimension (default 64)")
    parser.add_argument(
        "--beta",
        type=float,
        default=SOURCE_BETA,
        help="softmax inverse temperature β (default 8 = √64)",
    )
    parser.add_argument(
        "--training-length",
        type=int,
        default=QWEN_TRAINING_LENGTH,
        metavar="L",
        help="training length of the logit-scaling schedules (default 2048, Qwen)",
    )


def validate_arguments(d: int, beta: float, training_length: int) -> None:
    """``InvalidArgument`` (one line, exit 2) for a dimension, β or L the report cannot use."""
    if int(d) != d or d < MIN_D:
        raise InvalidArgument(f"--d {d}: the dimension must be an integer ≥ {MIN_D}")
    if int(d) == d and d > MAX_D:
        raise InvalidArgument(
            f"--d {d}: at most {MAX_D} (the exact-law series are summed to a fixed precision)"
        )
    if not (beta > 0 and math.isfinite(beta) and beta <= MAX_BETA):
        raise InvalidArgument(f"--beta {beta}: β must be a positive number ≤ {MAX_BETA:g}")
    if int(training_length) != training_length or training_length < 2:
        raise InvalidArgument(f"--training-length {training_length}: L must be an integer ≥ 2")
    d, beta_q = int(d), rational(beta)
    with mpmath.workdps(30):
        laws = [
            law
            for law in LAW_NAMES
            if log_isr(mpmath.mp, law, d, mpmath.mpf(beta_q.p) / beta_q.q, mpmath.log(2)) >= 0
        ]
        if laws:  # named: at d = 3, β = 8 only the Gaussian law has ISR(2) ≥ 1 (exact: 1/32)
            raise InvalidArgument(
                f"--d {d} --beta {beta:g}: softmax interference already "
                f"equals the signal at M = 2 under the {' and the '.join(laws)} law "
                "(ISR(2) ≥ 1), so there is no crossing to find; use a smaller β for this d"
            )
