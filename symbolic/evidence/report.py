"""The re-check's result (issues 16, 25): a ``Row`` per re-checked fact, file or claim, the
counts and the summary line, and the record ``DIR/recheck.json`` that ``--rechecked`` reads.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from symbolic.evidence.files import read_file, read_json, write_file
from symbolic.evidence.manifest import RECORD_NAME, RECORD_SCHEMA, Checks

CONCLUDES = "the last step concludes the statement"


@dataclass(frozen=True)
class Row:
    """One re-checked fact (or a file or claim problem)."""

    claim: str
    node: str  # "s3", "s3.p1"; "" for a claim or file row
    check: str  # a Checks role, "file", "claim"
    answer: str
    outcome: str  # proved | refuted | spot-checked | admitted | not re-checked | unknown
    #               | DISAGREES
    files: tuple[str, ...] = ()
    z3: str = ""
    cvc5: str = ""
    cvc5_options: str = ""
    proof: tuple[int | None, int | None] = (None, None)
    digest: str = ""  # of a Z3 benchmark (``digest``): what --rechecked matches
    second_engine: bool = False  # decided by an engine other than the one that proved it

    @property
    def ok(self) -> bool:
        return self.outcome != "DISAGREES"

    @property
    def unknown(self) -> bool:
        """Undecided: ``unknown``, and ``not re-checked`` (no engine decided it: a spot check
        that evaluated no point — ``∫₀^y e^{x³} dx = 1`` passed with exit 0) is as undecided:
        exit 3, never a pass. A claim with no statement formula is ``not re-checked`` too: its
        steps bind to nothing, so an export with the statement removed and the steps swapped
        proved nothing stated."""
        return self.outcome in ("unknown", "not re-checked")

    def cells(self) -> tuple[str, str, str, str, str]:
        """The row as the table prints it, every cell plain text (``shown``)."""
        return tuple(
            shown(c) for c in (self.claim, self.node, self.check, self.answer, self.outcome)
        )


_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def shown(cell: object) -> str:
    """``cell`` as plain text: a control character from a hostile manifest's names or formulas
    (a line break that would fake a row, an ESC or C1 sequence a terminal obeys — conceal the
    rest, move the cursor —) or a bidi or zero-width mark is shown as its escape."""
    return _UNSHOWN.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(cell))


ORDER = ("DISAGREES", "unknown", "not re-checked", "spot-checked", "refuted", "proved")


def weakest(outcomes) -> str:
    """The weakest of ``outcomes`` (in ``ORDER``); ``admitted`` when none is checked."""
    outs = set(outcomes)
    return next((o for o in ORDER if o in outs), "admitted")


def combine(rows: list[Row]) -> str:
    """The outcome of a fact re-checked by ``rows``: the weakest (no row is no check: it
    disagrees, never ``admitted``)."""
    return weakest(r.outcome for r in rows) if rows else "DISAGREES"


def finish(root: Path, rows: list[Row], code: int, versions: dict[str, str]) -> int:
    """``code``, the record written to ``root/recheck.json`` first (when it can be)."""
    try:
        write_file(
            root / RECORD_NAME,
            (
                json.dumps(record(rows, code, versions), indent=1, ensure_ascii=False) + "\n"
            ).encode(),
        )
    except OSError:
        pass  # a read-only (or symlinked) record is not written; the re-check stands
    return code


def record(rows: list[Row], code: int, versions: dict[str, str]) -> dict:
    """The re-check as data: per Z3 benchmark its digest and both solvers' answers."""
    return {
        "schema": RECORD_SCHEMA,
        "exit_code": code,
        "versions": versions,
        "obligations": [
            {
                "file": r.files[0] if r.files else "",
                "digest": r.digest,
                "agrees": r.ok and r.outcome == "proved",
                "z3": r.z3,
                "cvc5": r.cvc5,
                "cvc5_options": r.cvc5_options,
                "cvc5_proof_steps": r.proof[0],
                "cvc5_trust_steps": r.proof[1],
            }
            for r in rows
            if r.digest
        ],
        "counts": dict(counts(rows)),
    }


def read_record(directory: str | Path) -> dict:
    """``DIR/recheck.json`` as written by ``recheck``; ``ValueError`` naming what is wrong."""
    path = Path(directory) / RECORD_NAME
    try:
        data = read_json(read_file(path))
    except ValueError as exc:
        raise ValueError(
            f"{path}: cannot read a re-check record ({exc}); "
            f"run python -m proofs --recheck {directory} first"
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("schema") != RECORD_SCHEMA
        or not isinstance(data.get("obligations"), list)
        or not isinstance(data.get("versions", {}), dict)
        or not all(
            isinstance(o, dict) and isinstance(o.get("digest"), str) for o in data["obligations"]
        )
    ):
        raise ValueError(f"{path}: not a {RECORD_SCHEMA} record")
    return data


def counts(rows: list[Row]) -> Counter:
    """Facts by outcome and by check, claims by outcome."""
    c: Counter = Counter()
    facts: dict[tuple[str, str], list[Row]] = {}
    for r in rows:
        if r.node:
            facts.setdefault((r.claim, r.node), []).append(r)
        elif r.check == "rests on":
            c["claims resting on admitted facts"] += 1
        elif r.check == "claim":
            c[f"claims {r.outcome}"] += 1
            c["claims"] += 1
            c["claims bound"] += r.answer.startswith(CONCLUDES)  # "…; but it holds where …"
        else:
            c["file problems"] += 1
    for fact_rows in facts.values():
        c["facts"] += 1
        c[f"facts {combine(fact_rows)}"] += 1
        c["facts by a second engine"] += (
            any(r.second_engine for r in fact_rows) and combine(fact_rows) == "proved"
        )
        for r in fact_rows:
            c[f"check {r.check}"] += 1
    c["disagreements"] = sum(not r.ok for r in rows)
    return c


def summary(rows: list[Row], code: int, versions: dict[str, str]) -> str:
    """The one-line summary that ``python -m proofs --recheck`` prints."""
    c = counts(rows)
    checked = c["facts"] - c["facts admitted"]
    exported = checked - c["check none"]
    share = f"{100 * exported / checked:.0f}%" if checked else "—"
    smt = [r for r in rows if r.check in (Checks.Z3, Checks.SMT)]
    proofs = [r.proof for r in smt if r.proof[0] is not None]
    kinds = ", ".join(
        f"{k.removeprefix('check ')} {v}" for k, v in sorted(c.items()) if k.startswith("check ")
    )
    return (
        f"{c['claims']} claims ({c['claims bound']} bound to their statement formula; "
        f"every fact proved again {c['claims proved']}, some spot-checked "
        f"{c['claims spot-checked']}, refuted {c['claims refuted']}, admitted "
        f"{c['claims admitted']}, not re-checked {c['claims not re-checked']}, unknown "
        f"{c['claims unknown']}, disagreeing {c['claims DISAGREES']}; resting on admitted "
        "facts, directly or "
        f"through uses, {c['claims resting on admitted facts']}); {c['facts']} facts — "
        f"proved {c['facts proved']} (by a second engine {c['facts by a second engine']}), "
        f"refuted {c['facts refuted']}, spot-checked {c['facts spot-checked']}, admitted "
        f"{c['facts admitted']}, not re-checked {c['facts not re-checked']}, unknown "
        f"{c['facts unknown']}; checks: {kinds}; {exported} of {checked} checked facts "
        f"exported ({share}); cvc5 proofs {len(proofs)} "
        f"({sum(p[0] for p in proofs)} steps, {sum(p[1] or 0 for p in proofs)} trust); "
        f"{c['disagreements']} disagreements ({versions['z3']}, {versions['cvc5']}, "
        f"{versions['mpmath']}) — exit {code}"
    )
