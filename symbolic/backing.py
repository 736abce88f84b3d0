"""How each claim is backed (issue 16): the ``backing`` and ``solvers`` fields of ``--json``.

``backing(result, answers)`` names the backends a claim rests on, in a fixed order —
``z3+cvc5`` when every Z3 obligation of the claim was also answered ``unsat`` by cvc5 on its
exported file (``python -m proofs --smt2 DIR``), ``z3`` otherwise; then ``sympy``, ``exact``,
``interval``; ``admitted`` when a step is an assumption or an oracle result. ``answers`` maps
(module, claim, step, part path) to the second check of that Z3 obligation (``export``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

ORDER = ("z3", "sympy", "exact", "interval")


def backing(module: str, result: Any, answers: Mapping[tuple, dict] | None = None) -> str:
    steps = result.derivation.steps
    methods = {m for s in result.derivation.checked for m in s.verdict.method.split("+")}
    parts = [m for m in ORDER if m in methods]
    parts += sorted(methods - set(ORDER) - {"none"})
    if "z3" in parts and answers is not None:
        mine = [a for (mod, claim, *_), a in answers.items()
                if mod == module and claim == result.claim.name]
        if mine and all(a["cvc5"] == "unsat" for a in mine):
            parts[parts.index("z3")] = "z3+cvc5"
    if any(s.kind in ("assumption", "oracle") for s in steps):
        parts.append("admitted")
    return ", ".join(parts) or "none"


def annotate(doc: dict[str, Any], runs: Sequence[Any],
             answers: Mapping[tuple, dict] | None = None) -> dict[str, Any]:
    """Add ``backing`` to every claim of a ``--json`` document, and ``solvers`` (per Z3 step:
    both solvers' answers and versions) when the obligations were exported and re-run."""
    claims = doc["claims"]
    for run in runs:
        for res in run.report.results if run.report is not None else ():
            name = res.claim.name
            key = name if claims.get(name, {}).get("module") == run.name else f"{run.name}:{name}"
            if key not in claims:
                continue
            claims[key]["backing"] = backing(run.name, res, answers)
            if answers is not None:
                claims[key]["solvers"] = [
                    {"step": step, "part": list(path), **a}
                    for (mod, claim, step, path), a in sorted(answers.items(), key=str)
                    if mod == run.name and claim == name]
    return doc
