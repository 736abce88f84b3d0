"""Export every solver obligation and numeric certificate of a run as files (issue 16).

``export(runs, directory)`` walks every step's fact (and the parts it rests on) and writes

* ``<module>/<claim>.s<step>[.p<part>].smt2`` for each Z3 fact: the negated goal exactly as Z3
  decided it (``Fact.smt2``), made self-contained by ``kernel.recheck.standalone`` — header
  comments naming module, claim, step and the expected answer, ``(set-logic ALL)``,
  ``(check-sat)``; ``unsat`` means the step is proved;
* ``<module>/<claim>.s<step>[.p<part>].cert.json`` for each exact or interval certificate of a
  sign (``e ≠ 0``, ``a > b``, ``a < b``, and the identity refuted at a witness point): the
  formula as ``sympy.srepr``, the expression whose sign is claimed, the relation, the witness
  point, and the value (exact rational) or the enclosure's end points as exact rationals
  (outward-rounded, ``Enclosure.rational_bounds``) — schema ``transformer-proofs/certificate/v1``.

Nothing here decides anything; ``symbolic.recheck`` re-runs the files without this code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

from symbolic.kernel import CannotEnclose, Fact, tight_enclosure
from symbolic.kernel.logic import ForAll
from symbolic.kernel.recheck import standalone

CERT_SCHEMA = "transformer-proofs/certificate/v1"
CERT_METHODS = ("exact", "interval")


@dataclass
class Exported:
    smt2: list[Path] = field(default_factory=list)
    certificates: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # certified facts not exported, and why
    # (module, claim, step, part path) → both solvers' answers on the exported file
    answers: dict[tuple, dict] = field(default_factory=dict)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "claim"


def fact_tree(fact: Fact, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Fact]]:
    """A fact and the parts it rests on, each with its part path (``()`` for the fact)."""
    yield path, fact
    for k, part in enumerate(fact.parts, 1):
        yield from fact_tree(part, (*path, k))


def steps(runs: Sequence[Any]) -> Iterator[tuple[str, str, int, tuple[int, ...], Fact]]:
    """(module, claim, step index from 1, part path, fact) for every fact of every step, each
    fact once per claim (a step's fact is often a premise of a later rule step, e.g. ``trans``
    or ``conj``: it is exported where it first appears)."""
    for run in runs:
        if run.report is None:
            continue
        for res in run.report.results:
            for j, path, fact in claim_facts(res):
                yield run.name, res.claim.name, j, path, fact


def claim_facts(result: Any) -> Iterator[tuple[int, tuple[int, ...], Fact]]:
    """(step index from 1, part path, fact) of a claim's derivation, each fact once."""
    seen: set[int] = set()
    for j, step in enumerate(result.derivation.steps, 1):
        if getattr(step, "fact", None) is None:
            continue
        for path, fact in fact_tree(step.fact):
            if id(fact) not in seen:
                seen.add(id(fact))
                yield j, path, fact


def _sign_obligation(fact: Fact) -> tuple[sympy.Expr, str, dict] | None:
    """The expression whose sign the certificate decides, the relation, and the point."""
    f, status = fact.formula, fact.status
    if status == "proved" and isinstance(f, sympy.Ne) and f.rhs == 0:
        return f.lhs, "!=", {}
    if status == "proved" and isinstance(f, (sympy.StrictGreaterThan, sympy.StrictLessThan)):
        return f.lhs - f.rhs, ">" if isinstance(f, sympy.StrictGreaterThan) else "<", {}
    if status == "refuted" and isinstance(f, ForAll) and isinstance(f.args[1], sympy.Eq) \
            and fact.verdict.witness:
        body = f.args[1]
        names = {str(v): v for v in f.args[0]}
        point = {names[k]: sympy.sympify(v) for k, v in fact.verdict.witness}
        return body.lhs - body.rhs, "!=", point
    if status == "refuted" and isinstance(f, sympy.Eq) and fact.verdict.witness:
        names = {str(v): v for v in f.free_symbols}  # check_equal refuted at a point
        try:  # the kernel's probe points are rationals, shown as "7/5"
            point = {names[k]: sympy.Rational(v) for k, v in fact.verdict.witness}
        except (KeyError, TypeError, ValueError):
            return None
        return f.lhs - f.rhs, "!=", point
    return None


def _instance(expr: sympy.Expr, point: dict) -> sympy.Expr:
    from symbolic.kernel.branches import at

    return at(expr, point) if point else expr


def _rational(q: sympy.Rational) -> str:
    return f"{q.p}/{q.q}"


def _bound(fact: Fact) -> dict[str, Any] | None:
    """``∀ x ∈ [lo, hi]: e < b`` (or ``>``) proved by bisection: the obligation as data."""
    f = fact.formula
    if not (fact.status == "proved" and isinstance(f, ForAll) and len(f.variables) == 1
            and isinstance(f.domain, sympy.Interval)
            and isinstance(f.body, (sympy.StrictLessThan, sympy.StrictGreaterThan))):
        return None
    var, body, dom = f.variables[0], f.body, f.domain
    return {"schema": CERT_SCHEMA, "formula": sympy.sstr(f), "formula_srepr": sympy.srepr(f),
            "expected": "proved", "expression_srepr": sympy.srepr(body.lhs - body.rhs),
            "point": {}, "relation": ">" if isinstance(body, sympy.StrictGreaterThan) else "<",
            "for_all": {"variable": str(var), "lo_srepr": sympy.srepr(dom.start),
                        "hi_srepr": sympy.srepr(dom.end)},
            "method": fact.verdict.method, "kernel_certificate": fact.verdict.certificate,
            "backend": fact.verdict.backend}


def certificate(fact: Fact) -> dict[str, Any] | None:
    """The certificate of a sign fact as data, or None when the fact is not of that form.
    A bound ``∀ x ∈ [lo, hi]: e rel b`` is exported as its obligation (``for_all``): the
    re-check bisects ``[lo, hi]`` itself."""
    bound = _bound(fact)
    if bound is not None:
        return bound
    found = _sign_obligation(fact)
    if found is None:
        return None
    expr, rel, point = found
    value = sympy.sympify(_instance(expr, point))
    body: dict[str, Any] = {
        "schema": CERT_SCHEMA,
        "formula": sympy.sstr(fact.formula),
        "formula_srepr": sympy.srepr(fact.formula),
        "expected": fact.status,  # proved: the relation holds; refuted: the identity fails
        "expression_srepr": sympy.srepr(expr),
        "point": {str(k): sympy.srepr(v) for k, v in point.items()},
        "relation": rel,  # expression (at the point) rel 0
        "method": fact.verdict.method,
        "kernel_certificate": fact.verdict.certificate,
        "backend": fact.verdict.backend,
    }
    if value.is_Rational:
        body["value"] = _rational(value)
    else:
        enc = tight_enclosure(value)
        lo, hi = enc.rational_bounds()
        body["enclosure"] = {"lo": _rational(lo), "hi": _rational(hi), "bits": enc.bits}
    return body


def second_check(text: str) -> dict[str, object]:
    """Z3 and cvc5 on the exported text, with their versions (cvc5: ``not installed``)."""
    from symbolic.kernel import recheck as rk

    return {"z3": rk.run_z3(text), "z3_version": rk.z3_version(), **rk.cvc5_opinion(text)}


def _with_strategy(text: str, answer: dict) -> str:
    """The benchmark with a header line naming the cvc5 options that proved it (the re-check
    tries them first; ``cvc5 --nl-cov FILE`` by hand)."""
    from symbolic.kernel.recheck import CVC5_OPTIONS_LINE

    if answer.get("cvc5") != "unsat":
        return text
    line = f"{CVC5_OPTIONS_LINE} {answer['cvc5_options'] or '(defaults)'}"
    head, sep, body = text.partition("\n(set-logic")
    return f"{head}\n{line}{sep}{body}"


def _stem(claim: str, j: int, path: tuple[int, ...]) -> str:
    return f"{_slug(claim)}.s{j:02d}" + "".join(f".p{k}" for k in path)


def _benchmark(module: str, claim: str, j: int, path: tuple[int, ...], fact: Fact) -> str:
    """A Z3 fact's self-contained benchmark, with the header naming what it is."""
    header = [f"transformer-proofs obligation: module {module}, claim {claim}, step {j}"
              + (f", part {'.'.join(map(str, path))}" if path else ""),
              f"formula: {' '.join(sympy.sstr(fact.formula).split())}",
              "the negated goal; expected answer: unsat (the step is proved)",
              f"decided by {fact.verdict.backend}: {fact.status}"]
    return standalone(fact.smt2, header)


def z3_obligations(runs: Sequence[Any]) -> Iterator[tuple[tuple, str, str]]:
    """(key, file path under the export folder, benchmark text) of every proved Z3 fact of
    ``runs``, as ``export`` writes them (before the cvc5 strategy line)."""
    for module, claim, j, path, fact in steps(runs):
        if fact.smt2 and fact.status == "proved":
            yield ((module, claim, j, path), f"{module}/{_stem(claim, j, path)}.smt2",
                   _benchmark(module, claim, j, path, fact))


def export(runs: Sequence[Any], directory: str | Path, second: bool = True) -> Exported:
    """Write every Z3 obligation and every sign certificate of ``runs`` under ``directory``;
    ``second``: re-run each written benchmark with Z3 and cvc5 (``Exported.answers``)."""
    out, done = Path(directory), Exported()
    for module, claim, j, path, fact in steps(runs):
        where = out / module
        stem = _stem(claim, j, path)
        if fact.smt2:
            if fact.status != "proved":
                done.skipped.append(f"{module} {claim} step {j}: Z3 said {fact.status}")
                continue
            where.mkdir(parents=True, exist_ok=True)
            target = where / f"{stem}.smt2"
            text = _benchmark(module, claim, j, path, fact)
            if second:
                answer = second_check(text)
                done.answers[(module, claim, j, path)] = {"file": target.name, **answer}
                text = _with_strategy(text, answer)
            target.write_text(text, encoding="utf-8")
            done.smt2.append(target)
            continue
        if fact.kind != "checked" or fact.verdict.method not in CERT_METHODS:
            continue
        if fact.status == "proved" and isinstance(fact.formula, sympy.Not):
            continue  # ¬F from its refuted part, which is exported itself
        try:
            cert = certificate(fact)
        except (CannotEnclose, TypeError, ValueError) as exc:
            done.skipped.append(f"{module} {claim} step {j}: {exc}")
            continue
        if cert is None:
            done.skipped.append(f"{module} {claim} step {j}: {type(fact.formula).__name__} "
                                f"certificate ({fact.verdict.method}) not exported")
            continue
        cert = {"module": module, "claim": claim, "step": j, "part": list(path), **cert}
        where.mkdir(parents=True, exist_ok=True)
        target = where / f"{stem}.cert.json"
        target.write_text(json.dumps(cert, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        done.certificates.append(target)
    return done
