"""How each claim's evidence is backed (issue 16): one vocabulary for every rendering.

``backing(result, checks)`` names what a claim rests on, with the words of ``BACKING`` in its
order, joined by ``", "`` (``"z3+cvc5, sympy, exact"``). ``z3+cvc5`` is said only for a claim
whose every Z3 obligation cvc5 also answered ``unsat`` on its exported SMT-LIB 2 file — in this
run (``--smt2 DIR``), or in the record of a re-check of that very benchmark (``--rechecked
DIR`` reads ``DIR/recheck.json``, written by ``--recheck DIR``): ``checks`` are those answers
(``Report.second_checks``, keyed by claim, step and part path). Otherwise the claim says what
ran, ``z3``. The dashboard, the text, the LaTeX verification
line, the HTML blueprint and ``--json`` (``backing``, and ``solvers`` with the answers) all
use these words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

# The vocabulary, in the order the words are listed: word → what it means.
BACKING: dict[str, str] = {
    "z3+cvc5": "Z3 proved the obligation, and cvc5 answered unsat on its exported SMT-LIB 2 "
    "file (in this run, or in the re-check record --rechecked DIR reads)",
    "z3": "Z3 proved the obligation (negation unsat); no second solver's answer in this run — "
    "python -m proofs --smt2 DIR runs cvc5 on it",
    "sympy": "a SymPy identity or simplification, checked by the kernel",
    "exact": "exact rational arithmetic",
    "interval": "outward-rounded interval arithmetic (mpmath iv; Arb balls for erf, erfc, Γ, "
    "I_ν, ₀F₁)",
    "assumption": "a named assumption: admitted, not proved",
    "oracle": "a result certified outside the kernel (oracle): admitted, not proved",
}
SEPARATOR = ", "
CHECKED_METHODS = ("z3", "sympy", "exact", "interval")  # verdict methods with a word above


def _z3_obligations(result: Any) -> set[tuple] | None:
    """The keys (claim, step, part path) of every Z3 check the claim rests on; None when one
    of them has no SMT-LIB 2 benchmark (it cannot have been re-checked)."""
    from symbolic.evidence.export import claim_facts

    keys = set()
    for j, step in enumerate(result.derivation.steps, 1):  # renderer tests: plain steps
        if getattr(step, "fact", None) is None and step.verdict.method == "z3":
            keys.add((result.claim.name, j, ()))
    for j, path, node in claim_facts(result):  # each fact once, as export writes them
        if node.verdict.method == "z3":
            if not node.smt2:
                return None
            keys.add((result.claim.name, j, path))
    return keys


def _words(result: Any, checks: Mapping[tuple, dict] | None) -> set[str]:
    steps = result.derivation.steps
    # a kernel rule adds no backend: its premises carry theirs
    found = {m for s in result.derivation.checked for m in s.verdict.method.split("+")} - {
        "none",
        "rule",
    }
    if "z3" in found and checks:
        keys = _z3_obligations(result)
        if keys and all(checks.get(k, {}).get("cvc5") == "unsat" for k in keys):
            found = (found - {"z3"}) | {"z3+cvc5"}
    inherited = {a.kind for a in getattr(result, "rests_on", ())}  # also through rules and uses
    return found | {s.kind for s in steps if s.kind in ("assumption", "oracle")} | inherited


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
        fields["solvers"] = [
            {"step": step, "part": list(path), **a}
            for (claim, step, path), a in sorted(report.second_checks.items(), key=str)
            if claim == result.claim.name
        ]
    return fields


def rechecked_answers(runs: Sequence[Any], directory: str) -> dict[tuple, dict]:
    """The second checks a re-check record (``DIR/recheck.json``, written by ``--recheck
    DIR``) holds for the Z3 obligations of ``runs``: an obligation counts only when the record
    has its very benchmark (same ``digest``) with Z3 and cvc5 both ``unsat``; any other is
    ``cvc5: not in the re-check record`` (backing ``z3``). ``ValueError`` for a bad record."""
    from symbolic.evidence.benchmarks import digest
    from symbolic.evidence.export import z3_obligations
    from symbolic.evidence.report import read_record

    data = read_record(directory)
    versions = data.get("versions", {})
    by_digest = {o.get("digest"): o for o in data["obligations"] if isinstance(o, dict)}
    answers = {}
    for key, path, text in z3_obligations(runs):
        seen = by_digest.get(digest(text), {})
        proved = seen.get("agrees") is True and seen.get("z3") == seen.get("cvc5") == "unsat"
        answers[key] = {
            "file": path.rsplit("/", 1)[-1],
            "z3": "unsat" if proved else "not in the re-check record",
            "z3_version": str(versions.get("z3", "")),
            "cvc5": "unsat" if proved else "not in the re-check record",
            "cvc5_options": str(seen.get("cvc5_options", "")) if proved else "",
            "cvc5_version": str(versions.get("cvc5", "")),
            "cvc5_proof_steps": _count(seen, "cvc5_proof_steps", proved),
            "cvc5_trust_steps": _count(seen, "cvc5_trust_steps", proved),
        }
    return answers


def _count(entry: Mapping, key: str, proved: bool) -> int | None:
    value = entry.get(key)
    return value if proved and isinstance(value, int) and not isinstance(value, bool) else None


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
