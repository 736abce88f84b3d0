"""How far past its end a time limit runs, with many limits nested inside it.

An outer ``deadline(LIMIT)`` runs N inner ``deadline`` blocks (an inner check each, as an
activation analysis runs hundreds of kernel checks under its own limit), then works until it is
interrupted. Printed per N: the CPU seconds the outer block took, the ratio to its limit
(1.00 is exact; the interrupt arrives at the system's next tick), and the cost of one inner
limit's bookkeeping in microseconds. Limits count CPU time, so the figures do not depend on
other load on the machine. ``--repo`` runs another checkout's limits (``symbolic.limits``, or
``symbolic.kernel`` in a checkout from before they left it) for a before/after comparison.

    python benchmarks/limit_overrun.py [--limit 0.5] [--repo DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

COUNTS = (0, 100, 1000, 5000)


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def overrun(kernel, limit: float, inner: int) -> tuple[float, float | None]:
    """(CPU seconds of the outer block, microseconds per inner limit; None below the clock's
    resolution)."""
    start = time.process_time()
    spent_inner = 0.0
    try:
        with kernel.deadline(limit):
            t = time.process_time()
            for _ in range(inner):
                with kernel.deadline(10.0):
                    pass
            spent_inner = time.process_time() - t
            _spin(60.0 + limit)
    except kernel.BudgetExceeded:
        pass
    return time.process_time() - start, 1e6 * spent_inner / inner if spent_inner else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=0.5, help="the outer limit (CPU s)")
    parser.add_argument(
        "--repo",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="checkout whose time limits to time (default: this one)",
    )
    args = parser.parse_args(argv)
    if not 0 < args.limit <= 10:
        parser.error(f"--limit {args.limit}: give a limit in (0, 10] seconds")
    sys.path.insert(0, str(args.repo.resolve()))
    try:
        import symbolic.limits as kernel
    except ImportError:  # a checkout from before the limits left the kernel
        import symbolic.kernel as kernel

    print(f"outer limit {args.limit:g} s of CPU time, kernel from {args.repo}")
    print(f"{'inner limits':>12}  {'outer ran':>9}  {'ratio':>6}  {'µs per inner':>12}")
    for n in COUNTS:
        ran, per = overrun(kernel, args.limit, n)
        cost = "—" if per is None else f"{per:.1f}"
        print(f"{n:>12}  {ran:>8.3f}s  {ran / args.limit:>6.2f}  {cost:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
