"""The results table of a capacity sweep: a row per point, CSV/JSON, text and a plot.

``row`` turns a point's merged chunk statistics into one line of the table (estimate, 95 %
interval, the theory under both laws from ``symbolic.memory``); ``write_table``/``read_table``
write it atomically and read it back to resume; ``text_table`` prints it;
``plot_capacity_vs_d`` draws capacity against d.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from numeric_checks.capacity import Z95
from numeric_checks.sweep_chunks import Plan, merge_moments, merge_sums
from numeric_checks.sweep_grid import COLUMNS, KEY_COLUMNS, TRAINING_LENGTH, Point, cell
from symbolic.errors import InvalidArgument
from symbolic.memory.stores import STORES

# --- turning statistics into a row ---------------------------------------------------------


def _theory(point: Point) -> dict[str, Any]:
    from symbolic.memory.capacity import rational, store_capacity
    from symbolic.memory.schedules import schedule_isr

    if point.memories is None:
        cap = store_capacity(point.store, point.d, rational(point.beta or 8))
        return {
            "exact": cap.exact.capacity.mid,
            "gaussian": cap.gaussian.capacity.mid,
            "exact_kind": cap.exact.kind,
        }
    if STORES[point.store].scales_logits:  # ISR(M) under its schedule
        return {
            law: schedule_isr(
                point.schedule or "constant",
                law,
                point.d,
                point.beta,
                TRAINING_LENGTH,
                point.memories,
            )
            for law in ("exact", "gaussian")
        } | {"exact_kind": "closed form"}
    from symbolic.memory.capacity import isr

    return {
        law: isr(point.store, law, point.d, point.beta or 8, point.memories)
        for law in ("exact", "gaussian")
    } | {"exact_kind": store_capacity(point.store, point.d, rational(point.beta or 8)).exact.kind}


def row(point: Point, stats: list[dict], plans: list[Plan]) -> dict[str, Any]:
    """One line of the results table (no timings: the table of a rerun is byte-identical)."""
    out: dict[str, Any] = {c: getattr(point, c) for c in KEY_COLUMNS}
    out.update(_theory(point))
    out.update(
        effective_beta=point.effective_beta,
        chunks=sum(p.chunks for p in plans),
        pairs=sum(p.pairs for p in plans),
        capped=any(p.capped for p in plans),
    )
    if STORES[point.store].estimator == "leverage":
        isr_se = [_ratio(merge_sums(s)) for s in stats]
        (a, sa), (b, sb) = isr_se
        lo = plans[0].args[1]
        slope = b - a
        cap = lo + (1 - a) / slope
        se_cap = math.hypot(-(b - 1) / slope**2 * sa, -(1 - a) / slope**2 * sb)
        isr_m, isr_sd = (a, sa)
        out["memories"] = point.memories
        est, lo_ci, hi_ci = cap, cap - Z95 * se_cap, cap + Z95 * se_cap
        out["rel_se"] = se_cap / cap
    else:
        m = merge_moments(stats[0])
        mean, se = m["mean"], math.sqrt(m["m2"] / (m["n"] - 1) / m["n"])
        out["rel_se"] = se / mean
        if point.memories is None:
            est = 1 + 1 / mean
            lo_ci, hi_ci = 1 + 1 / (mean + Z95 * se), 1 + 1 / max(mean - Z95 * se, 1e-300)
            isr_m, isr_sd = (est - 1) * mean, (est - 1) * se  # ISR at the estimated M*: 1
        else:
            est = (point.memories - 1) * mean
            lo_ci, hi_ci = (
                est - Z95 * (point.memories - 1) * se,
                est + Z95 * (point.memories - 1) * se,
            )
            isr_m, isr_sd = est, (point.memories - 1) * se
    out.update(
        quantity="capacity" if point.memories is None else "isr",
        estimate=est,
        ci95_lo=lo_ci,
        ci95_hi=hi_ci,
        isr=isr_m,
        isr_ci95_lo=isr_m - Z95 * isr_sd,
        isr_ci95_hi=isr_m + Z95 * isr_sd,
    )
    exact = out.get("exact")
    out["estimate_vs_exact"] = (est / exact - 1) if exact and math.isfinite(exact) else None
    return {c: out.get(c) for c in COLUMNS}


def _ratio(t: dict) -> tuple[float, float]:
    """ISR = Σ interference / Σ signal over draws, delta-method standard error."""
    n = t["n"]
    r = t["i"] / t["s"]
    # Σ (i − r s)² = ii − 2r si + r² ss
    var = max(t["ii"] - 2 * r * t["si"] + r * r * t["ss"], 0.0) / (n - 1)
    return r, math.sqrt(var / n) / (t["s"] / n)


# --- the results table -----------------------------------------------------------------------


def write_table(path: str, rows: Sequence[dict]) -> None:
    """CSV or JSON by extension, written to a temporary file and renamed (never half a file)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        if path.endswith(".json"):
            json.dump([json_row(r) for r in rows], fh, indent=1)
        else:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS)
            writer.writeheader()
            for r in rows:
                writer.writerow({k: "" if v is None else v for k, v in r.items()})
    os.replace(tmp, path)


def read_table(path: str) -> list[dict]:
    """A previous run's rows (key columns as text), or [] when the file does not exist."""
    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            if path.endswith(".json"):
                rows = json.load(fh)
            else:
                rows = list(csv.DictReader(fh))
    except (OSError, ValueError) as exc:
        raise InvalidArgument(
            f"--out {path}: cannot read it to resume ({exc}); move it away or pick another file"
        ) from None
    if rows and set(KEY_COLUMNS) - set(rows[0]):
        raise InvalidArgument(
            f"--out {path}: not a sweep table (columns "
            f"{', '.join(sorted(set(KEY_COLUMNS) - set(rows[0])))} missing)"
        )
    for r in rows:
        for c in KEY_COLUMNS:
            r[c] = cell(r[c]) if not isinstance(r[c], str) else r[c]
    return rows


def json_row(r: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}


def text_table(rows: Sequence[dict]) -> str:
    head = (
        f"{'store':<14} {'d':>5} {'beta':>7} {'schedule':<9} {'M':>9} {'estimator':<13} "
        f"{'quantity':<8} {'estimate [95% CI]':<36} {'exact':>12} {'Gaussian':>12} "
        f"{'MC/exact':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        est = f"{_num(r['estimate'])} [{_num(r['ci95_lo'])}, {_num(r['ci95_hi'])}]"
        vs = r["estimate_vs_exact"]
        lines.append(
            f"{r['store']:<14} {r['d']:>5} {_num(r['beta']):>7} {r['schedule'] or '':<9} "
            f"{_num(r['memories']):>9} {r['estimator']:<13} {r['quantity']:<8} {est:<36} "
            f"{_num(r['exact']):>12} {_num(r['gaussian']):>12} "
            f"{'' if vs in (None, '') else f'{float(vs):+.2%}':>9}"
            + ("  (capped)" if str(r["capped"]) == "True" else "")
        )
    return "\n".join(lines)


def _num(x: Any) -> str:
    if x in (None, ""):
        return ""
    x = float(x)
    return f"{x:.5g}" if math.isfinite(x) else str(x)


# --- plot --------------------------------------------------------------------------------------


def plot_capacity_vs_d(rows: Sequence[dict], path: str) -> str:
    """Capacity against d for every store in ``rows`` (capacity rows of the constant schedule):
    exact law (solid), Gaussian (dashed), Monte Carlo (points with 95 % intervals), log–log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    caps = [
        r for r in rows if r["quantity"] == "capacity" and r["schedule"] in (None, "", "constant")
    ]
    stores = list(dict.fromkeys(r["store"] for r in caps))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, store in enumerate(stores):
        rs = sorted((r for r in caps if r["store"] == store), key=lambda r: int(r["d"]))
        d = np.array([int(r["d"]) for r in rs])
        c = colors[i % len(colors)]
        ax.plot(d, [float(r["exact"]) for r in rs], "-", color=c, label=store)
        ax.plot(d, [float(r["gaussian"]) for r in rs], "--", color=c, lw=0.9)
        est = np.array([float(r["estimate"]) for r in rs])
        err = [
            est - np.array([float(r["ci95_lo"]) for r in rs]),
            np.array([float(r["ci95_hi"]) for r in rs]) - est,
        ]
        ax.errorbar(d, est, yerr=err, fmt="o", color=c, ms=4, capsize=3)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="d",
        ylabel="capacity M* (ISR = 1)",
        title="Capacity vs d: exact (solid), Gaussian (dashed), Monte Carlo (points, "
        "95% CI); softmax β = √d",
    )
    ax.set_xticks(
        sorted({int(r["d"]) for r in caps}), [str(x) for x in sorted({int(r["d"]) for r in caps})]
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
