"""The grid of a capacity sweep (``numeric_checks.sweep``): its points and their key columns.

A ``Point`` is a store at ``d`` (softmax: ``beta``, ``schedule``), at ``memories`` M (None: the
capacity itself), with an estimator, seed and target precision; ``grid`` builds the points of
stores × d × β × schedules × M and picks each point's estimator from the store table's
strategy (``symbolic.memory.stores``). A point's key columns (``KEY_COLUMNS``) name it in the
results table, and its entropy seeds its chunks.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from symbolic.errors import InvalidArgument
from symbolic.memory.stores import PART_B, STORES

DEFAULT_STORES = tuple(PART_B)  # the C1 stores (sym_*, gated_*) are asked for by name
DEFAULT_D = (8, 16, 32, 64, 128, 256)
DEFAULT_SEED = 20240531
DEFAULT_REL_SE = 3e-3  # relative standard error of E[y] per point (capacity to ~±0.6 %)
IMPORTANCE_ABOVE = 8.0  # auto: importance sampling for softmax when 4β²/d exceeds this
MAX_D = 4096
TRAINING_LENGTH = 2048
ESTIMATORS = ("auto", "rao-blackwell", "importance")
SCHEDULE_NAMES = ("constant", "logn", "yarn")
KEY_COLUMNS = ("store", "d", "beta", "schedule", "memories", "estimator", "seed", "rel_se_target")
COLUMNS = KEY_COLUMNS + (
    "quantity",
    "estimate",
    "ci95_lo",
    "ci95_hi",
    "exact",
    "gaussian",
    "exact_kind",
    "estimate_vs_exact",
    "isr",
    "isr_ci95_lo",
    "isr_ci95_hi",
    "effective_beta",
    "pairs",
    "chunks",
    "rel_se",
    "capped",
)


@dataclass(frozen=True)
class Point:
    """One grid point: a store at ``d`` (softmax: ``beta``, ``schedule``), at ``memories`` M
    (None: the capacity itself), with an estimator, seed and target precision."""

    store: str
    d: int
    beta: float | None
    schedule: str | None
    memories: int | None
    estimator: str
    seed: int
    rel_se_target: float

    def key(self) -> tuple[str, ...]:
        return tuple(cell(getattr(self, c)) for c in KEY_COLUMNS)

    def entropy(self) -> list[int]:
        digest = hashlib.sha256(repr(self.key()).encode()).digest()
        return [self.seed, *(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))]

    @property
    def effective_beta(self) -> float | None:
        """β(M) under the schedule (β itself without one)."""
        if self.beta is None or self.schedule in (None, "constant"):
            return self.beta
        import mpmath

        from symbolic.memory.schedules import SCHEDULES

        with mpmath.workdps(30):
            return float(
                SCHEDULES[self.schedule].beta(
                    mpmath.mp,
                    mpmath.log(self.memories),
                    mpmath.mpf(self.beta),
                    mpmath.log(TRAINING_LENGTH),
                )
            )


def cell(x: Any) -> str:
    """A key column as the text the results table holds (so resumed keys compare equal)."""
    if x is None:
        return ""
    if isinstance(x, float):
        return repr(x)
    return str(x)


# --- the grid ----------------------------------------------------------------------------


def grid(
    stores: Iterable[str] = DEFAULT_STORES,
    ds: Iterable[int] = DEFAULT_D,
    betas: Iterable[float | str] = ("sqrt",),
    schedules: Iterable[str] = ("constant",),
    memories: Iterable[int] | None = None,
    estimator: str = "auto",
    seed: int = DEFAULT_SEED,
    rel_se: float = DEFAULT_REL_SE,
) -> list[Point]:
    """The points of stores × d × β × schedules × M (β and schedules only matter for softmax).

    ``betas`` holds numbers or ``"sqrt"`` (β = √d). Without ``memories`` a point estimates the
    capacity; schedules other than ``constant`` need ``memories`` (they are defined in M).
    """
    stores, ds, betas, schedules = list(stores), list(ds), list(betas), list(schedules)
    ms = list(memories) if memories else [None]
    _validate(stores, ds, betas, schedules, ms, estimator, rel_se)
    points: list[Point] = []
    for store in stores:
        uses_beta = STORES[store].uses_beta
        for d in ds:
            for beta in betas if uses_beta else [None]:
                b = None if beta is None else (math.sqrt(d) if beta == "sqrt" else float(beta))
                for sched in schedules if uses_beta else [None]:
                    for m in ms:
                        p = Point(store, d, b, sched, m, estimator, seed, rel_se)
                        # on the β the point uses: β(M) under a schedule, not the base β
                        est = _estimator(store, d, p.effective_beta, estimator)
                        p = dataclasses.replace(p, estimator=est)
                        if p not in points:
                            points.append(p)
    return points


def _estimator(store: str, d: int, beta: float | None, asked: str) -> str:
    """The estimator of a point: the store's strategy (``symbolic.memory.stores``) and ``asked``."""
    strategy = STORES[store].estimator
    if strategy == "leverage":
        return "qr"
    if asked == "importance" or (
        asked == "auto" and strategy == "tilted" and 4 * beta * beta / d > IMPORTANCE_ABOVE
    ):
        return "importance"
    return "rao-blackwell"


def _validate(
    stores: list[str],
    ds: list[int],
    betas: list,
    schedules: list[str],
    ms: list,
    estimator: str,
    rel_se: float,
) -> None:
    for s in stores:
        if s not in STORES:
            raise InvalidArgument(f"--store {s}: unknown store; valid stores: " + ", ".join(STORES))
    for d in ds:
        if not 3 <= d <= MAX_D:
            raise InvalidArgument(f"--d {d}: the dimension must be an integer in [3, {MAX_D}]")
    for b in betas:
        if b != "sqrt" and not (isinstance(b, (int, float)) and 0 < b <= 1000 and math.isfinite(b)):
            raise InvalidArgument(f"--beta {b}: β must be 'sqrt' or a number in (0, 1000]")
    for sc in schedules:
        if sc not in SCHEDULE_NAMES:
            raise InvalidArgument(f"--schedule {sc}: valid schedules: " + ", ".join(SCHEDULE_NAMES))
    if any(sc != "constant" for sc in schedules) and ms == [None]:
        raise InvalidArgument("--schedule logn/yarn set β from M: give --memories too")
    for m in ms:
        if m is not None and not 2 <= m <= 10**18:
            raise InvalidArgument(f"--memories {m}: M must be an integer in [2, 1e18]")
    if estimator not in ESTIMATORS:
        raise InvalidArgument(
            f"--estimator {estimator}: valid estimators: " + ", ".join(ESTIMATORS)
        )
    if not 1e-5 <= rel_se <= 0.5:
        raise InvalidArgument(f"--rel-se {rel_se}: must lie in [1e-5, 0.5]")
