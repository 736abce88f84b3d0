"""Plots of the capacity Monte Carlo (``python -m numeric_checks.capacity --plot FILE.png``).

``plot`` draws ISR against M for the asked stores — exact law (solid), Gaussian (dashed),
Monte Carlo points with 95 % intervals — and each capacity relative to the exact law; with a
store the logit-scaling schedules apply to (softmax), also ``<FILE>_schedules.png``: ISR under
each schedule against M. matplotlib is the ``plot`` extra.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import numpy as np

from numeric_checks.capacity import DEFAULT_SEED, Z95, estimate, estimate_isr
from symbolic.memory.capacity import rational, store_capacity
from symbolic.memory.stores import PART_B, STORES

PLOT_FRACTIONS = (1 / 16, 1 / 4, 1.0)  # MC points at these fractions of the exact capacity
SCHEDULE_POINTS = (10**4, 10**5, 10**6, 2 * 10**6)  # MC points of the schedules
PLOT_REL_SE = (3e-3, 1e-2)  # relative standard errors of the store and schedule MC points


def plot(
    path: str,
    d: int = 64,
    beta: float = 8.0,
    seed: int = DEFAULT_SEED,
    training_length: int = 2048,
    stores: Sequence[str] = tuple(PART_B),
    progress: bool = True,
) -> list[str]:
    """Write ``path`` (the ``stores``) and, when softmax (a store the logit-scaling schedules
    apply to) is among them,
    ``<path stem>_schedules.png``; returns the paths written. A progress bar (tqdm, on stderr,
    when installed) counts the Monte Carlo points."""
    stores = list(stores)
    with_schedules = any(STORES[n].scales_logits for n in stores)
    from symbolic.memory.schedules import SCHEDULES

    bar = _progress(
        len(stores) * len(PLOT_FRACTIONS)
        + (len(SCHEDULES) * len(SCHEDULE_POINTS) if with_schedules else 0),
        progress,
    )
    try:
        return _plot(path, d, beta, seed, training_length, stores, with_schedules, bar)
    finally:
        bar.close()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, wanted: bool):
    if not wanted:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    # shown only when the plot takes longer than 2 s
    return tqdm(total=total, unit="point", desc="plot", file=sys.stderr, delay=2.0)


def _plot(
    path: str,
    d: int,
    beta: float,
    seed: int,
    training_length: int,
    stores: list[str],
    with_schedules: bool,
    bar,
) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from symbolic.memory.capacity import isr
    from symbolic.memory.schedules import SCHEDULES, first_crossing, schedule_isr

    fig, (ax, ratio_ax) = plt.subplots(
        1, 2, figsize=(15, 6.5), gridspec_kw={"width_ratios": [1.6, 1]}
    )
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, name in enumerate(stores):
        color = colors[i % len(colors)]
        cap = store_capacity(name, d, rational(beta))
        leverage = STORES[name].estimator == "leverage"
        lo = d + 1 if leverage else 2
        grid = np.geomspace(lo, 3 * cap.exact.capacity.mid, 200)
        for law, style in (("exact", "-"), ("gaussian", "--")):
            ax.plot(
                grid,
                [isr(name, law, d, beta, m) for m in grid],
                style,
                color=color,
                lw=1.2,
                label=f"{name}" if law == "exact" else None,
            )
        ms = sorted({max(lo, round(f * cap.exact.capacity.mid)) for f in PLOT_FRACTIONS})
        points = []
        for m in ms:
            points.append(estimate_isr(name, d, m, beta, seed=seed, rel_se=PLOT_REL_SE[0]))
            bar.update(1)
        bar.update(len(PLOT_FRACTIONS) - len(ms))  # fractions that fell on the same M
        ax.errorbar(
            ms,
            [p[0] for p in points],
            yerr=[Z95 * p[1] for p in points],
            fmt="o",
            color=color,
            ms=4,
            capsize=3,
        )
        if leverage:
            est = estimate(name, d, None, beta, seed=seed)
            mc, ci = est.capacity, est.ci95
        else:  # the last point is at the capacity: M* = 1 + (M − 1)/ISR
            (isr_m, se, _, _), m = points[-1], ms[-1]
            mc = 1 + (m - 1) / isr_m
            ci = (1 + (m - 1) / (isr_m + Z95 * se), 1 + (m - 1) / (isr_m - Z95 * se))
        ref = cap.exact.capacity.mid
        ratio_ax.plot(
            i,
            cap.gaussian.capacity.mid / ref,
            "s",
            color="grey",
            ms=7,
            label="Gaussian / exact" if i == 0 else None,
        )
        ratio_ax.errorbar(
            i,
            mc / ref,
            yerr=[[(mc - ci[0]) / ref], [(ci[1] - mc) / ref]],
            fmt="o",
            color=color,
            capsize=4,
            label="Monte Carlo / exact (95% CI)" if i == 0 else None,
        )
    ax.axhline(1, color="black", lw=0.8)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="memories M",
        ylabel="ISR(M)",
        title=f"ISR against M, d = {d}, β = {beta:g}: exact law (solid), Gaussian "
        "(dashed), Monte Carlo (points, 95% CI)",
    )
    ax.set_ylim(1e-3, 10)
    ax.legend(fontsize=8, loc="upper left")
    ratio_ax.axhline(1, color="black", lw=0.8)
    ratio_ax.set_xticks(range(len(stores)), stores, rotation=45, ha="right")
    ratio_ax.set(ylabel="capacity / exact-law capacity", title="capacity relative to the exact law")
    ratio_ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

    if not with_schedules:
        return [path]
    stem = path[:-4] if path.endswith(".png") else path
    second = f"{stem}_schedules.png"
    fig, ax = plt.subplots(figsize=(10, 6.5))
    scaled = next(n for n in stores if STORES[n].scales_logits)  # the store β(M) scales
    grid = np.geomspace(10, 1e16, 300)
    crossings = []
    for i, name in enumerate(SCHEDULES):
        color = colors[i]
        for law, style in (("exact", "-"), ("gaussian", "--")):
            curve = np.array([schedule_isr(name, law, d, beta, training_length, m) for m in grid])
            curve[~np.isfinite(curve)] = np.nan  # past the float range: off the chart anyway
            ax.plot(
                grid,
                curve,
                style,
                color=color,
                lw=1.3,
                label=f"{SCHEDULES[name].title}" if law == "exact" else None,
            )
        b = [
            float(
                SCHEDULES[name].beta(
                    __import__("mpmath").mp, math.log(m), beta, math.log(training_length)
                )
            )
            for m in SCHEDULE_POINTS
        ]
        points = []
        for m, bb in zip(SCHEDULE_POINTS, b, strict=True):
            points.append(estimate_isr(scaled, d, m, bb, seed=seed, rel_se=PLOT_REL_SE[1]))
            bar.update(1)
        crossings.append(
            f"{SCHEDULES[name].title}: "
            + ", ".join(
                f"{law} {_fmt_m(first_crossing(name, law, d, beta, training_length).memories)}"
                for law in ("gaussian", "exact")
            )
        )
        ax.errorbar(
            SCHEDULE_POINTS,
            [p[0] for p in points],
            yerr=[Z95 * p[1] for p in points],
            fmt="o",
            color=color,
            capsize=3,
            ms=4,
        )
    ax.axhline(1, color="black", lw=0.8)
    ax.axvline(2e6, color="grey", lw=0.8, ls=":")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="memories M",
        ylabel="ISR(M)",
        title=f"Softmax logit scaling, d = {d}, β0 = {beta:g}, L = {training_length}: "
        "exact (solid), Gaussian (dashed), Monte Carlo (points)",
    )
    ax.set_ylim(1e-9, 1e3)
    ax.legend(fontsize=9, loc="upper left")
    ax.text(
        0.99,
        0.02,
        "first M with ISR = 1\n" + "\n".join(crossings),
        ha="right",
        va="bottom",
        transform=ax.transAxes,
        fontsize=9,
        bbox={"facecolor": "white", "alpha": 0.9, "edgecolor": "grey"},
    )
    fig.tight_layout()
    fig.savefig(second, dpi=110)
    plt.close(fig)
    return [path, second]


def _fmt_m(m: float | None) -> str:
    return "none" if m is None else f"{m:.3g}"
