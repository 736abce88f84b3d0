"""Capacity sweeps: Monte Carlo over stores × d × β × schedules × M, on Dask (docs/theory.md C3).

Each grid point is split into fixed chunks of real random vectors. Chunk ``i`` of a point draws
from its own generator, ``SeedSequence(entropy=(seed, *point), spawn_key=(i,))`` — one child per
*chunk*, not per worker — and returns partial sufficient statistics (count, sum and centred
sum of squares; least squares: the sums and cross-products of signal and interference). The
client merges them in chunk order, so a point's numbers are bitwise identical whichever worker
ran which chunk and however many workers there were (tested).

What a chunk measures (every row names its estimator):

* weight stores, ``rao-blackwell`` — ``Q = 64`` fresh random unit queries against ``K`` fresh
  unit keys, terms ``y = (f(s)/f(1))²`` for all ``Q·K`` pairs (values integrated out:
  ``E_v‖Σ w_m v_m‖² = Σ w_m²``). Two pairs share at most one vector, and pairs sharing one
  vector have independent similarities, so the terms are pairwise uncorrelated and
  ``se = sd/√n`` is exact. ISR(M) = (M − 1)·E[y] (lemma ``isr-weights``), so
  ``M̂* = 1 + 1/Ê[y]`` — a sweep estimates ``E[y]`` and never stores ``M`` keys (softmax at
  d = 256 has M* ≈ 10¹³);
* ``importance`` — the same ``E[y]`` from keys shifted towards their query, with exact
  likelihood-ratio weights (``numeric_checks.importance``): the heavy tail of softmax at large β;
  ``auto`` (default) picks it for softmax (the store table's ``tilted`` stores) when
  ``4β²/d > 8`` and ``rao-blackwell`` otherwise, on the β the point uses (under
  ``--schedule logn``/``yarn`` that is β(M), not the base β);
* ``qr`` (least squares, the table's ``leverage`` stores) — leverages ``P_ii`` of
  ``P = Kᵀ(KKᵀ)⁻¹K`` by QR of real unit key matrices at the two integers around the crossing,
  capacity by linear interpolation.

The sample size aims at a relative standard error ``--rel-se`` (default 3e-3) from the exact
law's CV² of ``y``; when it would exceed ``--max-pairs`` it is capped, and the row says so
(``capped``, the achieved ``rel_se``) and a warning is printed: never silently.

Results: one tidy table, a row per grid point (``--out FILE.csv`` or ``.json``; rows are
written as points finish, and a rerun with the same ``--out`` skips the points already there).

    python -m numeric_checks.sweep                                # the default grid, local Dask
    python -m numeric_checks.sweep --store relu2,softmax --d 16,32,64 --beta 4,8 --json
    python -m numeric_checks.sweep --store softmax --d 64 --beta 8 --schedule yarn,logn \\
        --memories 10000,1000000,2000000
    python -m numeric_checks.sweep --scheduler tcp://10.0.0.5:8786 --out sweep.csv
    python -m numeric_checks.sweep --workers 0 --store relu --d 8     # in this process, no Dask
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from numeric_checks.sweep_chunks import MAX_PAIRS, MIN_PAIRS, Plan, plan
from numeric_checks.sweep_grid import (
    DEFAULT_D,
    DEFAULT_REL_SE,
    DEFAULT_SEED,
    DEFAULT_STORES,
    KEY_COLUMNS,
    Point,
    cell,
    grid,
)
from numeric_checks.sweep_table import (
    json_row,
    plot_capacity_vs_d,
    read_table,
    row,
    text_table,
    write_table,
)
from symbolic.errors import InvalidArgument, OneLineErrorParser, check_writable

EXTRA = "pip install 'transformer-proofs[sweep]'  (or: pip install 'dask[distributed]' tqdm)"
BLAS_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


# --- running ---------------------------------------------------------------------------------


class DaskMissing(InvalidArgument):
    """``dask[distributed]`` is needed for this run and is not installed."""


def _dask_client(workers: int | None, scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise DaskMissing(
            f"{'--scheduler' if scheduler else '--workers'} needs Dask, which is "
            f"not installed: {EXTRA}; or run in this process with --workers 0"
        ) from None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise InvalidArgument(
                f"--scheduler {scheduler}: cannot connect ({exc}); start "
                "one with 'dask scheduler' and 'dask worker ADDRESS'"
            ) from None
        client.run(os.environ.update, BLAS_ENV)  # later BLAS pools; nanny sets them at spawn
        return client, None
    import logging

    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        # the cluster's own transient errors (a heartbeat retried under load) are logged with a
        # traceback; they are retried by Dask, and a task that fails raises in this process
        silence_logs=logging.CRITICAL,
        env=dict(BLAS_ENV),
    )
    return Client(cluster), cluster


def run_sweep(
    points: Sequence[Point],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    out: str | None = None,
    max_pairs: int = MAX_PAIRS,
    progress: bool = True,
    done: Sequence[dict] = (),
    client: Any = None,
) -> list[dict[str, Any]]:
    """Estimate every point; ``workers=0`` runs the chunks in this process (no Dask).

    ``client``: an open ``dask.distributed.Client`` to use (and leave open) instead of starting
    a cluster. Rows already in ``done`` (a previous run's table, same key columns) are kept, not
    redone; with ``out`` the table is rewritten as each point finishes.
    """
    have = {
        tuple(cell(r[c]) if not isinstance(r[c], str) else r[c] for c in KEY_COLUMNS): r
        for r in done
    }
    rows = {p: have[p.key()] for p in points if p.key() in have}
    todo = [p for p in points if p not in rows]
    plans = {p: plan(p, max_pairs) for p in todo}
    for p, ps in plans.items():
        if any(x.capped for x in ps):
            print(
                f"numeric_checks.sweep: warning: {p.store} d={p.d} beta={p.beta}: the "
                f"sample is capped at --max-pairs {max_pairs:g}; its rel_se is reported",
                file=sys.stderr,
            )
    tasks = [(p, j, i) for p in todo for j, pl in enumerate(plans[p]) for i in range(pl.chunks)]
    results: dict[tuple, dict] = {}
    remaining = {p: sum(pl.chunks for pl in plans[p]) for p in todo}
    bar = _bar(len(tasks), progress)

    def finished(task: tuple, stats: dict) -> None:
        p, j, i = task
        results[task] = stats
        remaining[p] -= 1
        bar.update(1)
        if remaining[p] == 0:
            stats_by_plan = [
                [results.pop((p, jj, ii)) for ii in range(pl.chunks)]
                for jj, pl in enumerate(plans[p])
            ]
            rows[p] = row(p, stats_by_plan, plans[p])
            if out:
                write_table(out, [rows[q] for q in points if q in rows])

    if workers == 0:
        for t in tasks:
            pl = plans[t[0]][t[1]]
            finished(t, pl.function(*pl.args, t[2]))
    elif tasks and client is not None:
        _run_on(client, tasks, plans, finished)
    elif tasks:
        client, cluster = _dask_client(workers, scheduler)
        try:
            _run_on(client, tasks, plans, finished)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    bar.close()
    table = [rows[p] for p in points]
    if out:
        write_table(out, table)
    return table


def _run_on(
    client: Any,
    tasks: list[tuple],
    plans: dict[Point, list[Plan]],
    finished: Callable[[tuple, dict], None],
) -> None:
    """Submit every chunk and hand each result to ``finished`` as it arrives."""
    from dask.distributed import as_completed

    futures = {}
    for t in tasks:
        pl = plans[t[0]][t[1]]
        futures[client.submit(pl.function, *pl.args, t[2], pure=False)] = t
    for fut in as_completed(futures):
        finished(futures[fut], fut.result())


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, wanted: bool):
    if not wanted or total == 0:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, unit="chunk", desc="sweep", file=sys.stderr, mininterval=0.5)


# --- command line ----------------------------------------------------------------------------


def comma_list(kind: Callable[[str], Any], name: str) -> Callable[[str], list]:
    def parse(text: str) -> list:
        try:
            items = [kind(x.strip()) for x in text.split(",") if x.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r}: expected a comma-separated list of {name}"
            ) from None
        if not items:
            raise argparse.ArgumentTypeError(f"{text!r}: empty list")
        return items

    return parse


def _beta(text: str) -> float | str:
    return "sqrt" if text == "sqrt" else float(text)


MAX_LOCAL_WORKERS = 4 * (os.cpu_count() or 1)  # more processes than that only share the cores


def integer_text(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        value = float(text)  # 1e6 is accepted; inf, nan and 1e400 are not
    if not math.isfinite(value) or value != int(value):
        raise ValueError(text)
    return int(value)


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m numeric_checks.sweep"
    parser = OneLineErrorParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store",
        type=comma_list(str, "store names"),
        default=list(DEFAULT_STORES),
        help="stores (default: all)",
    )
    parser.add_argument(
        "--d",
        type=comma_list(integer_text, "integers"),
        default=list(DEFAULT_D),
        help="dimensions (default 8,16,32,64,128,256)",
    )
    parser.add_argument(
        "--beta",
        type=comma_list(_beta, "numbers or 'sqrt'"),
        default=["sqrt"],
        help="softmax β values, or 'sqrt' for β = √d (default)",
    )
    parser.add_argument(
        "--schedule",
        type=comma_list(str, "schedule names"),
        default=["constant"],
        help="softmax logit scaling: constant, logn, yarn (need --memories)",
    )
    parser.add_argument(
        "--memories",
        type=comma_list(integer_text, "integers"),
        help="M values: estimate ISR(M) there (default: the capacity)",
    )
    parser.add_argument("--estimator", default="auto", help="auto | rao-blackwell | importance")
    parser.add_argument(
        "--rel-se",
        type=float,
        default=DEFAULT_REL_SE,
        help=f"target relative standard error (default {DEFAULT_REL_SE:g})",
    )
    parser.add_argument(
        "--max-pairs",
        type=integer_text,
        default=MAX_PAIRS,
        help=f"cap on the pairs of one point (default {MAX_PAIRS:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="local Dask workers (default: one per core); 0 runs in this process without Dask",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="use an existing Dask cluster (tcp://host:8786)"
    )
    parser.add_argument("--seed", type=integer_text, default=DEFAULT_SEED)
    parser.add_argument(
        "--out", metavar="FILE", help="results table (.csv or .json); a rerun resumes from it"
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--plot", metavar="FILE.png", help="capacity against d (matplotlib)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        if args.workers is not None and args.workers < 0:
            raise InvalidArgument(f"--workers {args.workers}: give 0 (in this process) or more")
        if args.seed < 0:  # numpy's SeedSequence takes no negative entropy
            raise InvalidArgument(f"--seed {args.seed}: give a non-negative integer")
        if args.workers is not None and args.workers > MAX_LOCAL_WORKERS:
            raise InvalidArgument(
                f"--workers {args.workers}: at most {MAX_LOCAL_WORKERS} local worker processes "
                "(more machines: --scheduler)"
            )
        if args.workers is not None and args.scheduler:
            raise InvalidArgument("--workers and --scheduler exclude each other")
        if args.max_pairs < MIN_PAIRS:
            raise InvalidArgument(f"--max-pairs {args.max_pairs}: at least {MIN_PAIRS}")
        if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
            raise InvalidArgument(f"--out {args.out}: folder does not exist")
        if args.out and not args.out.endswith((".csv", ".json")):
            raise InvalidArgument(f"--out {args.out}: use a .csv or .json file name")
        for option, path in (("--out", args.out), ("--plot", args.plot)):
            if path:
                check_writable(path, option)
        if args.plot:
            from importlib.util import find_spec

            if find_spec("matplotlib") is None:
                raise InvalidArgument(
                    "--plot needs matplotlib: pip install 'transformer-proofs[plot]'"
                )
        points = grid(
            args.store,
            args.d,
            args.beta,
            args.schedule,
            args.memories,
            args.estimator,
            args.seed,
            args.rel_se,
        )  # bad input first: exit 2
        if args.workers != 0:  # fail before any work when Dask is missing
            try:
                import dask.distributed  # noqa: F401
            except ImportError:
                raise DaskMissing(
                    f"Dask is not installed: {EXTRA}; or run in this process with --workers 0"
                ) from None
        done = read_table(args.out) if args.out else []
        rows = run_sweep(
            points,
            workers=args.workers,
            scheduler=args.scheduler,
            out=args.out,
            max_pairs=args.max_pairs,
            progress=not args.no_progress,
            done=done,
        )
        if args.plot:
            plot_capacity_vs_d(rows, args.plot)
    except InvalidArgument as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([json_row(r) for r in rows], indent=1))
    else:
        print(text_table(rows))
    print(
        f"{len(rows)} points in {time.perf_counter() - start:.1f} s"
        + (f"; table: {Path(args.out).resolve()}" if args.out else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    # Run the module's own import, not this ``__main__`` copy: Dask pickles the task functions
    # by reference (``numeric_checks.sweep.weight_chunk``), which a worker imports; functions of
    # ``__main__`` would be pickled by value with everything their globals reach.
    from numeric_checks.sweep import main as _main

    sys.exit(_main())
