"""Adversarial campaign of issue 24: every claim of ``tests/soundness/api_corpus.py`` through the
public API (``equal``, ``valid``, ``nonzero``, ``positive``, ``assume``, ``@claim``), compared
with its independently established truth.

Each entry runs in a forked child of this process (so a hang or a crash is contained) and is
classified:

* ``right``: proved when true, refuted when false, ``InvalidArgument`` when it must be refused;
* ``unknown``: undecided, or refused with ``InvalidArgument`` though it has a truth (acceptable);
* ``WRONG``: proved when false, refuted when true, a verdict on what must be refused, or a
  decided fact whose displayed formula is not the one decided (the entry's ``shown`` test);
* ``traceback``: any other exception;
* ``hang``: no answer within ``--timeout`` seconds of wall time (the child is killed).

    python benchmarks/api_campaign.py [--only FAMILY] [--timeout 60] [--verbose] [--verify-truth]

``--verify-truth`` runs no toolkit: it re-derives every entry's truth with the entry's mpmath
function and reports each one the numbers contradict. Exit code: 0 iff zero WRONG, traceback and
hang (with ``--verify-truth``: iff no entry is contradicted).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import sys
import traceback
from collections import Counter
from pathlib import Path

import mpmath

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
HANG_S = 60.0  # wall-clock seconds before an entry counts as a hang (the kernel's limits are ~5 s)


def load_corpus():
    name = "api_corpus"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, ROOT / "tests" / "soundness" / "api_corpus.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def outcome(entry) -> tuple[str, str]:
    """Run one entry in this process: (status, detail); status is proved, refuted, unknown,
    failed, refused or traceback."""
    from symbolic.errors import InvalidArgument

    try:
        got = entry.build()
    except InvalidArgument as exc:
        return "refused", str(exc).splitlines()[0][:160]
    except Exception:  # noqa: BLE001 - the campaign counts tracebacks
        return "traceback", traceback.format_exc(limit=3).strip().splitlines()[-1][:200]
    fact = getattr(got, "fact", None)
    status = got.status if fact is None else fact.status
    if fact is not None and fact.admitted:
        status = "admitted"
    detail = ""
    try:
        detail = str(getattr(got, "statement", "") or "")[:160]
        if (
            fact is not None
            and entry.shown is not None
            and status in ("proved", "refuted")
            and not entry.shown(fact)
        ):
            return "misshown", detail
    except Exception:  # noqa: BLE001
        return "traceback", traceback.format_exc(limit=2).strip().splitlines()[-1][:200]
    return status, detail


def classify(entry, status: str) -> str:
    if status in ("traceback", "hang"):
        return status
    if status == "misshown":
        return "WRONG"
    if entry.expect == "refuse":
        return {"refused": "right", "proved": "WRONG", "refuted": "WRONG", "admitted": "WRONG"}.get(
            status, "unknown"
        )
    good, bad = ("proved", "refuted") if entry.expect == "true" else ("refuted", "proved")
    if status == good:
        return "right"
    if status in (bad, "admitted"):
        return "WRONG"
    return "unknown"


def _child(entry_index: int, conn) -> None:
    corpus = load_corpus()
    try:
        conn.send(outcome(corpus.CORPUS[entry_index]))
    finally:
        conn.close()


def run_isolated(index: int, timeout: float = HANG_S) -> tuple[str, str]:
    """The entry's outcome from a forked child; ("hang", ...) when it outlives ``timeout``."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(index, child))
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                return parent.recv()
            except EOFError:
                pass
            proc.join(5)
            return "traceback", f"child died (exit code {proc.exitcode})"
        return "hang", f"no answer within {timeout:g} s"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()


def verify_truth(corpus) -> list[str]:
    bad = []
    for e in corpus.CORPUS:
        if e.mp is None:
            if e.expect != "refuse":
                bad.append(f"{e.id}: no mpmath check")
            continue
        try:
            with mpmath.workdps(corpus.DPS):
                value = bool(e.mp())
        except Exception as exc:  # noqa: BLE001
            bad.append(f"{e.id}: mpmath check raised {type(exc).__name__}: {exc}")
            continue
        if value != (e.expect == "true"):
            bad.append(f"{e.id}: mpmath says {value}, recorded {e.expect}")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="one family")
    ap.add_argument("--timeout", type=float, default=HANG_S)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--verify-truth", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    corpus = load_corpus()
    if args.verify_truth:
        bad = verify_truth(corpus)
        for line in bad:
            print(line)
        print(f"{len(corpus.CORPUS)} entries, {len(bad)} contradicted")
        return 1 if bad else 0
    counts: Counter = Counter()
    families = Counter(e.family for e in corpus.CORPUS)
    for index, entry in enumerate(corpus.CORPUS):
        if args.only and entry.family != args.only:
            continue
        status, detail = run_isolated(index, args.timeout)
        verdict = classify(entry, status)
        counts[verdict] += 1
        if args.verbose or verdict in ("WRONG", "traceback", "hang"):
            print(f"{verdict:9} {entry.id:22} expect={entry.expect:6} got={status:9} {detail}")
    print(
        f"{sum(counts.values())} claims ({len(families)} families): "
        + ", ".join(f"{k} {counts[k]}" for k in ("right", "unknown", "WRONG", "traceback", "hang"))
    )
    return 1 if counts["WRONG"] or counts["traceback"] or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
