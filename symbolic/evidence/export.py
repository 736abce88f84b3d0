"""Export every kernel step of a run as a manifest and obligation files (issues 16 and 25).

``export(runs, directory)`` writes ``DIR/manifest.json`` (schema
``transformer-proofs/manifest/v2``): the toolkit's and backends' versions, the SHA-256 of every
file it wrote, and per claim its statement (``srepr``), its ``uses``, the admitted facts it
rests on, and its steps in order — each fact (and the parts it rests on) with its formula,
kind, method, status, the derivation's rule, the kernel rule and premises of a rule step, and
the obligation files that re-check it. Which obligations a fact needs is decided by
``symbolic.evidence.manifest.required_checks`` — the re-check's own function, so that it can
refuse a manifest that leaves one out:

* ``<stem>.smt2`` — a Z3 fact's benchmark as Z3 decided it (``Fact.smt2``, made
  self-contained; no ``set-info :status``): re-run by cvc5 (and Z3);
* ``<stem>.obl.smt2`` — the fact's formula printed as an SMT-LIB 2 obligation over the reals
  (``symbolic.evidence.formula_smt``): SymPy identities of polynomial/rational arithmetic and
  the Z3 steps' formulas, re-checked by cvc5 and Z3; the re-check prints it again from the
  manifest;
* ``<stem>.cert.json`` — an exact/interval certificate: the formula itself (the claimed
  comparison, ``2817 > 8195/3``; a bound ``∀ x ∈ [lo, hi]: e < b``; an identity refuted at a
  witness point) with the exact value or the outward-rounded enclosure as exact rationals;
* ``<stem>.spot.json`` — any other SymPy identity: its formula, spot-checked by the re-check.

``<stem>`` is ``<module>/<claim>.s<step>[.p<part>]``. Nothing here decides anything.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from symbolic.evidence.certificates import degree_form
from symbolic.evidence.files import write_file
from symbolic.evidence.formula_reader import UnreadableFormula, formula_srepr, read_formula
from symbolic.evidence.formula_smt import smt_obligation
from symbolic.evidence.manifest import (
    CERT_SCHEMA,
    MANIFEST_NAME,
    MANIFEST_SCHEMA,
    RECORD_NAME,
    SPOT_SCHEMA,
    Checks,
    required_checks,
)
from symbolic.evidence.solvers import standalone
from symbolic.kernel import CannotEnclose, Fact, ForAll, tight_enclosure
from symbolic.render.formula_text import source_text


@dataclass
class Exported:
    smt2: list[Path] = field(default_factory=list)  # Z3's benchmarks
    obligations: list[Path] = field(default_factory=list)  # formulas printed as SMT-LIB 2
    certificates: list[Path] = field(default_factory=list)
    spot: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # checked facts with no obligation
    steps: int = 0  # every fact of every step (parts included)
    # (module, claim, step, part path) → both solvers' answers on an exported Z3 benchmark
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


def _stem(claim: str, j: int, path: tuple[int, ...]) -> str:
    return f"{_slug(claim)}.s{j:02d}" + "".join(f".p{k}" for k in path)


def _node_id(j: int, path: tuple[int, ...]) -> str:
    return f"s{j}" + "".join(f".p{k}" for k in path)


def _rational(q: sympy.Rational) -> str:
    return f"{q.p}/{q.q}"


def _benchmark(module: str, claim: str, j: int, path: tuple[int, ...], fact: Fact) -> str:
    """A Z3 fact's self-contained benchmark, with comments naming what it is (comments only:
    the re-check takes the expected answer from the manifest)."""
    header = [
        f"transformer-proofs obligation: module {module}, claim {claim}, step {j}"
        + (f", part {'.'.join(map(str, path))}" if path else ""),
        f"formula: {' '.join(source_text(fact.formula).split())}",
        "the negated goal; unsat: the step is proved (see manifest.json)",
    ]
    return standalone(fact.smt2, header)


def z3_obligations(runs: Sequence[Any]) -> Iterator[tuple[tuple, str, str]]:
    """(key, file path under the export folder, benchmark text) of every proved Z3 fact of
    ``runs``, as ``export`` writes them."""
    for module, claim, j, path, fact in steps(runs):
        if fact.smt2 and fact.status == "proved":
            yield (
                (module, claim, j, path),
                f"{module}/{_stem(claim, j, path)}.smt2",
                _benchmark(module, claim, j, path, fact),
            )


def second_check(text: str) -> dict[str, object]:
    """Z3 and cvc5 on the exported text, with their versions (cvc5: ``not installed``)."""
    from symbolic.evidence import solvers

    return {
        "z3": solvers.run_z3(text),
        "z3_version": solvers.z3_version(),
        **solvers.cvc5_opinion(text),
    }


def _with_strategy(text: str, answer: dict) -> str:
    """The benchmark with a comment naming the cvc5 options that proved it (for a reader;
    the re-check takes the strategy from the manifest)."""
    from symbolic.evidence.solvers import CVC5_OPTIONS_LINE

    if answer.get("cvc5") != "unsat":
        return text
    line = f"{CVC5_OPTIONS_LINE} {answer['cvc5_options'] or '(defaults)'}"
    head, sep, body = text.partition("\n(set-logic")
    return f"{head}\n{line}{sep}{body}"


# -- certificates -----------------------------------------------------------------------------


def _value_fields(value: sympy.Expr) -> dict[str, Any]:
    """The exact value, or the kernel's outward-rounded enclosure as exact rationals."""
    if not isinstance(value, sympy.Basic):
        raise TypeError(f"value={value!r:.60}: a certificate's value is a SymPy expression")
    if value.is_Rational:
        return {"value": _rational(value)}
    enc = tight_enclosure(value)
    lo, hi = enc.rational_bounds()
    return {"enclosure": {"lo": _rational(lo), "hi": _rational(hi), "bits": enc.bits}}


def certificate(fact: Fact) -> dict[str, Any] | None:
    """The certificate of an exact/interval fact: its formula (the comparison itself), with
    the value or enclosure of ``lhs − rhs`` (at the witness point of a refutation); None when
    the fact has no certificate of that form. A bound ``∀ x ∈ [lo, hi]: e rel b`` carries its
    formula only: the re-check bisects ``[lo, hi]`` itself."""
    f = fact.formula
    body: dict[str, Any] = {
        "schema": CERT_SCHEMA,
        "formula": _as_reread(f),
        "formula_srepr": formula_srepr(f),
        "expected": fact.status,
        "method": fact.verdict.method,
        "kernel_certificate": fact.verdict.certificate,
        "backend": fact.verdict.backend,
    }
    if isinstance(f, ForAll) and fact.status == "proved":
        return body
    if isinstance(f, sympy.core.relational.Relational) and not f.free_symbols:
        return {**body, **_value_fields(f.lhs - f.rhs)}
    if fact.status == "refuted" and fact.verdict.witness and degree_form(f) is not None:
        found = dict(fact.verdict.witness)
        try:  # refute_homogeneous's witness: u = ±1 and a rational z0
            u, z0 = (Fraction(found[k]) for k in ("u", "z0"))
        except (KeyError, TypeError, ValueError):
            return None
        if abs(u) != 1:
            return None
        return {
            **body,
            "degree_witness": {
                k: sympy.srepr(sympy.Rational(v.numerator, v.denominator))
                for k, v in (("u", u), ("z0", z0))
            },
        }
    if fact.status == "refuted" and fact.verdict.witness:
        eq = f.body if isinstance(f, ForAll) else f
        names = {str(v): v for v in (f.variables if isinstance(f, ForAll) else f.free_symbols)}
        try:  # the kernel's witness values are rationals, shown as "7/5"
            point = {names[k]: sympy.Rational(v) for k, v in fact.verdict.witness}
        except (KeyError, TypeError, ValueError):
            return None
        from symbolic.kernel import at

        return {
            **body,
            "point": {str(k): sympy.srepr(v) for k, v in point.items()},
            **_value_fields(at(eq.lhs - eq.rhs, point)),
        }
    return None


# -- the export -------------------------------------------------------------------------------


def _previous_files(out: Path) -> list[Path]:
    """The files a previous export listed in ``out/manifest.json`` (removed before writing)."""
    try:
        data = json.loads((out / MANIFEST_NAME).read_text(encoding="utf-8"))
        return [out / name for name in data.get("files", {}) if ".." not in Path(name).parts]
    except (OSError, ValueError, AttributeError):
        return []


def _versions() -> dict[str, str | None]:
    from symbolic.evidence import solvers
    from symbolic.versions import TOOLKIT_VERSION as __version__
    from symbolic.versions import versions

    found = {
        "toolkit": f"transformer-proofs {__version__}",
        **versions(),
        "cvc5": solvers.cvc5_version() if solvers.cvc5_available() else None,
    }
    return dict(found)


class _Writer:
    def __init__(self, out: Path, second: bool) -> None:
        self.out, self.second, self.done = out, second, Exported()
        self.files: dict[str, str] = {}

    def write(self, rel: str, text: str) -> str:
        data = text.encode("utf-8")
        write_file(self.out / rel, data)
        self.files[rel] = hashlib.sha256(data).hexdigest()
        return rel

    def node(
        self,
        module: str,
        claim: str,
        j: int,
        path: tuple[int, ...],
        fact: Fact,
        ids: dict[int, str],
    ) -> dict[str, Any]:
        node_id = _node_id(j, path)
        ids.setdefault(id(fact), node_id)
        self.done.steps += 1
        premises, parts = [], []
        for k, part in enumerate(fact.parts, 1):
            if id(part) in ids:  # a premise that is another step of the derivation
                premises.append(ids[id(part)])
                continue
            child = self.node(module, claim, j, (*path, k), part, ids)
            premises.append(child["id"])
            parts.append(child)
        detail = getattr(fact, "detail", None)
        entry: dict[str, Any] = {
            "id": node_id,
            "formula": _as_reread(fact.formula),
            "formula_srepr": formula_srepr(fact.formula),
            "kind": fact.kind,
            "method": fact.verdict.method,
            "status": fact.status,
            "domain": list(fact.domain),
            "kernel_rule": getattr(fact, "rule", None) or None,
            "detail_srepr": formula_srepr(detail) if detail is not None else None,
            "premises": premises,
            "obligations": self.obligations(module, claim, j, path, fact),
            "parts": parts,
        }
        return entry

    def obligations(
        self, module: str, claim: str, j: int, path: tuple[int, ...], fact: Fact
    ) -> list[dict[str, Any]]:
        try:  # the formula as the re-check reads it back from the manifest
            formula = read_formula(formula_srepr(fact.formula))
        except UnreadableFormula as exc:
            self.done.skipped.append(f"{module} {claim} step {j}: {exc}")
            return []
        need = required_checks(
            formula,
            fact.kind,
            fact.verdict.method,
            fact.status,
            bool(fact.verdict.witness),
            bool(fact.smt2),
        )
        stem = f"{module}/{_stem(claim, j, path)}"
        where = f"{module} {claim} step {j}" + (f" part {path}" if path else "")
        out: list[dict[str, Any]] = []
        if Checks.Z3 in need:
            text = _benchmark(module, claim, j, path, fact)
            entry: dict[str, Any] = {"role": Checks.Z3, "expected": "unsat", "cvc5_strategy": None}
            if self.second:
                answer = second_check(text)
                self.done.answers[(module, claim, j, path)] = {
                    "file": f"{stem}.smt2".rsplit("/", 1)[-1],
                    **answer,
                }
                text = _with_strategy(text, answer)
                if answer.get("cvc5") == "unsat":
                    entry["cvc5_strategy"] = answer["cvc5_options"]
            entry["file"] = self.write(f"{stem}.smt2", text)
            self.done.smt2.append(self.out / entry["file"])
            out.append(entry)
        if Checks.SMT in need:
            text = smt_obligation(formula)
            if text is not None:
                out.append(
                    {
                        "role": Checks.SMT,
                        "expected": "unsat",
                        "file": self.write(f"{stem}.obl.smt2", text),
                    }
                )
                self.done.obligations.append(self.out / out[-1]["file"])
        if Checks.CERTIFICATE in need or Checks.BOUND in need or Checks.WITNESS in need:
            role = next(r for r in (Checks.CERTIFICATE, Checks.BOUND, Checks.WITNESS) if r in need)
            try:
                cert = certificate(fact)
            except (CannotEnclose, TypeError, ValueError) as exc:
                cert, why = None, str(exc)
            else:
                why = f"{type(fact.formula).__name__} certificate not exported"
            if cert is None:
                self.done.skipped.append(f"{where}: {why}")
            else:
                cert = {"module": module, "claim": claim, "step": j, "part": list(path), **cert}
                out.append(
                    {
                        "role": role,
                        "expected": fact.status,
                        "file": self.write(
                            f"{stem}.cert.json",
                            json.dumps(cert, indent=2, ensure_ascii=False) + "\n",
                        ),
                    }
                )
                self.done.certificates.append(self.out / out[-1]["file"])
        if Checks.SPOT in need and not out:
            spot = {
                "schema": SPOT_SCHEMA,
                "module": module,
                "claim": claim,
                "step": j,
                "part": list(path),
                "formula": _as_reread(fact.formula),
                "formula_srepr": formula_srepr(fact.formula),
                "expected": fact.status,
            }
            out.append(
                {
                    "role": Checks.SPOT,
                    "expected": fact.status,
                    "file": self.write(
                        f"{stem}.spot.json", json.dumps(spot, indent=2, ensure_ascii=False) + "\n"
                    ),
                }
            )
            self.done.spot.append(self.out / out[-1]["file"])
        if not out and Checks.NONE in need:
            self.done.skipped.append(
                f"{where}: {fact.verdict.method} {type(fact.formula).__name__} has no obligation"
            )
        return out


def _claim(writer: _Writer, module: str, res: Any) -> dict[str, Any]:
    claim = res.claim
    statement = getattr(claim, "statement", None)
    ids: dict[int, str] = {}
    nodes = []
    for j, step in enumerate(res.derivation.steps, 1):
        entry = writer.node(module, claim.name, j, (), step.fact, ids)
        entry["rule"] = step.rule
        nodes.append(entry)
    return {
        "module": module,
        "name": claim.name,
        "kind": claim.kind,
        "statement": _as_reread(statement) if statement is not None else None,
        "statement_srepr": formula_srepr(statement) if statement is not None else None,
        "uses": list(claim.uses),
        # the admitted facts among its steps and their parts (what rests on them through
        # ``uses`` the re-check derives), printed as every formula text is: read back
        "rests_on": _admitted(nodes),
        "steps": nodes,
    }


def _admitted(nodes: list[dict]) -> list[str]:
    """The texts of the assumptions and oracle results among ``nodes`` and their parts."""
    out = []
    for n in nodes:
        out += _admitted(n.get("parts", []))
        if n["kind"] in ("assumption", "oracle"):
            out.append(n["formula"])
    return out


def _as_reread(formula: sympy.Basic) -> str:
    try:
        return source_text(read_formula(formula_srepr(formula)))
    except UnreadableFormula:
        return source_text(formula)  # the re-check reports the formula unreadable


def export(runs: Sequence[Any], directory: str | Path, second: bool = True) -> Exported:
    """Write the manifest and every obligation of ``runs`` under ``directory``; ``second``:
    re-run each Z3 benchmark with Z3 and cvc5 at once (``Exported.answers``: backing)."""
    out = Path(directory)
    for old in _previous_files(out) + [out / RECORD_NAME]:
        if old.is_file() and not old.is_symlink():
            old.unlink()
    writer = _Writer(out, second)
    claims = [
        _claim(writer, run.name, res)
        for run in runs
        if run.report is not None
        for res in run.report.results
    ]
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "versions": _versions(),
        "files": dict(sorted(writer.files.items())),
        "claims": claims,
    }
    write_file(
        out / MANIFEST_NAME,
        (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode("utf-8"),
    )
    return writer.done
