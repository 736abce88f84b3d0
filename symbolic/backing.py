"""How each claim's evidence is backed (issue 16): one vocabulary for every rendering.

``backing(result, checks)`` names what a claim rests on, with the words of ``BACKING`` in its
order, joined by ``", "`` (``"z3+cvc5, sympy, exact"``). ``z3+cvc5`` is said only for a claim
whose every Z3 obligation cvc5 also answered ``unsat`` on its exported SMT-LIB 2 file *in this
run* (``--smt2 DIR``): ``checks`` are those answers (``Report.second_checks``, keyed by claim,
step and part path). Otherwise the claim says what ran, ``z3``; ``python -m proofs --smt2 DIR``
or ``--recheck DIR`` runs the second solver. The dashboard, the text, the LaTeX verification
line, the HTML blueprint and ``--json`` (``backing``, and ``solvers`` with the answers) all
use these words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

# The vocabulary, in the order the words are listed: word → what it means.
BACKING: dict[str, str] = {
    "z3+cvc5": "Z3 proved the obligation, and cvc5 answered unsat on its exported SMT-LIB 2 file",
    "z3": "Z3 proved the obligation (negation unsat); not re-checked by a second solver in "
          "this run — python -m proofs --smt2 DIR runs cvc5 on it",
    "sympy": "a SymPy identity or simplification, checked by the kernel",
    "exact": "exact rational arithmetic",
    "interval": "outward-rounded interval arithmetic (mpmath iv)",
    "assumption": "a named assumption: admitted, not proved",
    "oracle": "a result certified outside the kernel (oracle): admitted, not proved",
}
SEPARATOR = ", "
CHECKED_METHODS = ("z3", "sympy", "exact", "interval")  # verdict methods with a word above


def _words(result: Any, checks: Mapping[tuple, dict] | None) -> set[str]:
    steps = result.derivation.steps
    found = {m for s in result.derivation.checked for m in s.verdict.method.split("+")} - {"none"}
    if "z3" in found and checks:
        mine = [a for (claim, *_), a in checks.items() if claim == result.claim.name]
        if mine and all(a.get("cvc5") == "unsat" for a in mine):
            found = (found - {"z3"}) | {"z3+cvc5"}
    return found | {s.kind for s in steps if s.kind in ("assumption", "oracle")}


def ordered(words: Iterable[str]) -> str:
    """The words in vocabulary order (any word outside it after them, sorted); ``none``."""
    words = set(words)
    known = [w for w in BACKING if w in words]
    return SEPARATOR.join(known + sorted(words - set(BACKING))) or "none"


def backing(result: Any, checks: Mapping[tuple, dict] | None = None) -> str:
    """How one claim is backed: ``"z3+cvc5, sympy"``, ``"exact, interval, oracle"``, …"""
    return ordered(_words(result, checks))


def report_backing(report: Any) -> str:
    """Every word any claim of a module uses (the dashboard's module row)."""
    words: set[str] = set()
    for res in report.results:
        words |= _words(res, report.second_checks)
    return ordered(words)


def claim_backing(report: Any, result: Any) -> str:
    return backing(result, report.second_checks)


def with_second_checks(name: str, report: Any, answers: Mapping[tuple, dict] | None) -> Any:
    """``report`` carrying the second solver's answers of module ``name`` (``export``'s keys
    are (module, claim, step, part path))."""
    if report is None or answers is None:
        return report
    mine = {tuple(key[1:]): a for key, a in answers.items() if key[0] == name}
    return replace(report, second_checks=mine)


def evidence_fields(report: Any, result: Any) -> dict[str, Any]:
    """``backing``, and with exported obligations ``solvers`` (per Z3 step: both solvers'
    answers, options, versions and cvc5's proof size): what ``--json`` adds to a claim."""
    fields: dict[str, Any] = {"backing": claim_backing(report, result)}
    if report.second_checks is not None:
        fields["solvers"] = [{"step": step, "part": list(path), **a}
                             for (claim, step, path), a in sorted(report.second_checks.items(),
                                                                  key=str)
                             if claim == result.claim.name]
    return fields


def annotate_report(body: dict[str, Any], report: Any) -> dict[str, Any]:
    """A report's JSON (``Report.to_json``) with ``evidence_fields`` in each result."""
    for entry, res in zip(body["results"], report.results, strict=True):
        entry.update(evidence_fields(report, res))
    return body


def annotate(doc: dict[str, Any], runs: Sequence[Any]) -> dict[str, Any]:
    """``evidence_fields`` in every claim of a ``python -m proofs --json`` document, in the
    claim index and in each module's results."""
    claims = doc["claims"]
    for run, module in zip(runs, doc["modules"], strict=True):
        report = run.report
        if report is None:
            continue
        annotate_report(module, report)
        for res in report.results:
            name = res.claim.name
            key = name if claims.get(name, {}).get("module") == run.name else f"{run.name}:{name}"
            if key in claims:
                claims[key].update(evidence_fields(report, res))
    return doc
