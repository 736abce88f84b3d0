"""The re-check of one fact by its kind (issues 16, 25): what ``required_checks`` says its
formula and method need, from the export's files — Z3's benchmark and the SMT obligation by Z3
and cvc5 (``solvers``), a certificate by the re-check's own numbers (``certificates``), a spot
check (``spot_checks``; a ``≠``, ``<``, ``>`` also by its sign: ``spot_relations``), a kernel
rule re-derived from its premises (``rules``) with the kernel's side conditions
(``side_conditions``), ¬F from its refuted part; a rule step whose conditions are not shown to
hold together anywhere is ``unknown`` (``vacuity``). ``node_rows`` gives the fact's rows;
nothing here decides for the kernel.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import sympy

from symbolic.evidence import certificates
from symbolic.evidence.benchmarks import clean_benchmark, digest
from symbolic.evidence.files import read_json, read_under
from symbolic.evidence.formula_reader import formula_srepr, read_formula
from symbolic.evidence.manifest import (
    CERT_SCHEMA,
    SPOT_SCHEMA,
    Checks,
    domain_problem,
    manifest_formula,
    misleading_name,
    printed_alike,
    required_checks,
    same_formula,
)
from symbolic.evidence.numbers import NotEnclosed
from symbolic.evidence.report import Row, weakest
from symbolic.evidence.rules import derive, quantified
from symbolic.evidence.side_conditions import (
    captured_condition,
    condition_problem,
    conditions,
    definition_problem,
    fixed_names,
    uncertified_divisor,
)
from symbolic.evidence.spot_relations import relation_spot_check
from symbolic.evidence.vacuity import condition_rows


@dataclass
class Context:
    """What every check of a re-check reads: the folder, whether cvc5 runs, the manifest's
    files (path → SHA-256)."""

    root: Path
    use_cvc5: bool
    files: dict[str, str] = field(default_factory=dict)  # manifest: path → sha256
    answers: dict = field(default_factory=dict)  # (benchmark, strategy, proofs) → answers
    found: dict[str, str] | None = None  # the folder's listing: path → SHA-256 (when made)


def _obligation_text(ctx: Context, entry: dict) -> str:
    """The obligation's text: a file of the manifest read inside the folder (no folder on the
    way a symbolic link: ``read_under``), and the very bytes the listing hashed and compared
    with the manifest — never a file outside DIR, nor one swapped since (a changed file is
    still re-checked: its file row disagrees, and so may its solvers)."""
    name = entry.get("file") if isinstance(entry, dict) else None
    if not isinstance(name, str) or name not in ctx.files:
        raise ValueError(f"obligation {name!r} is not among the manifest's files")
    data = read_under(ctx.root, name)
    if ctx.found is not None and hashlib.sha256(data).hexdigest() != ctx.found.get(name):
        raise ValueError(f"{name}: not the file the folder's listing hashed (SHA-256)")
    return data.decode("utf-8")


def _solvers(ctx: Context, text: str, strategy: str | None, proofs: bool) -> dict[str, Any]:
    """Z3's and cvc5's answers (cvc5: the manifest's strategy first; a proof object only for
    Z3's own benchmarks); options are never taken from the file."""
    from symbolic.evidence.solvers import (
        CVC5_QUICK_UNITS,
        cvc5_opinion,
        run_cvc5_portfolio,
        run_z3,
        strategy_options,
    )

    cleaned = clean_benchmark(text)  # its commands whitelisted (ValueError else)
    if not proofs:  # an SMT obligation: the solvers get the very text that was compared
        cleaned = text  # with the formula's obligation, comments and all
    key = (cleaned, strategy, proofs)  # one run per distinct benchmark, however many facts cite it
    if key in ctx.answers:
        return ctx.answers[key]
    answers: dict[str, Any] = {"z3": run_z3(cleaned)}
    if ctx.use_cvc5 and not proofs:
        said, flags = run_cvc5_portfolio(cleaned, units=CVC5_QUICK_UNITS)
        answers.update({"cvc5": said, "cvc5_options": flags})
    elif ctx.use_cvc5:
        first = strategy_options(strategy) if isinstance(strategy, str) else None
        if isinstance(strategy, str) and first is None:
            raise ValueError(f"cvc5 strategy {strategy!r} is not one of the portfolio's")
        answers.update(cvc5_opinion(cleaned, first=first))
    else:
        answers.update({"cvc5": "not installed", "cvc5_options": ""})
    ctx.answers[key] = answers
    return answers


def _smt_row(
    ctx: Context, claim: str, node: dict, entry: dict, formula: sympy.Basic, role: str
) -> Row:
    files = (entry.get("file", ""),)
    text = _obligation_text(ctx, entry)
    from symbolic.evidence.formula_smt import asks_more, claimed_nowhere, smt_obligation

    if role == Checks.SMT:
        if smt_obligation(formula) != text:
            return Row(
                claim,
                node["id"],
                role,
                "the file is not the formula's obligation",
                "DISAGREES",
                files,
            )
    answers = _solvers(
        ctx,
        text,
        entry.get("cvc5_strategy") if role == Checks.Z3 else None,
        proofs=role == Checks.Z3,
    )
    z3, cvc5 = str(answers["z3"]), str(answers["cvc5"])
    said = {z3, cvc5}
    shown = f"z3 {z3}, cvc5 {cvc5}" + (
        f" ({answers['cvc5_options']})" if cvc5 == "unsat" and answers.get("cvc5_options") else ""
    )
    common = dict(
        files=files,
        z3=z3,
        cvc5=cvc5,
        cvc5_options=str(answers.get("cvc5_options")),
        proof=(answers.get("cvc5_proof_steps"), answers.get("cvc5_trust_steps")),
        digest=digest(text) if role == Checks.Z3 else "",
    )
    refutes = "sat" in said and ("unsat" in said or role == Checks.Z3 or not asks_more(formula))
    if refutes or any(a.startswith("error") for a in said):  # a sat of an obligation asking
        # more than the formula (an integer n read over the reals: n² ≠ 2 at √2) refutes nothing
        return Row(claim, node["id"], role, shown, "DISAGREES", **common)
    if role == Checks.Z3:  # Z3 proved it: the second engine is cvc5
        outcome = "proved" if cvc5 == "unsat" else "unknown"
        return Row(claim, node["id"], role, shown, outcome, second_engine=cvc5 == "unsat", **common)
    if "unsat" in said:  # a SymPy step (or a Z3 step's formula): either solver is a second
        empty = claimed_nowhere(formula, ctx.answers)
        if empty:  # 1/(x − x) = 5: unsat because no point is claimed, not because it holds
            return Row(claim, node["id"], role, f"{shown}; {empty}", "unknown", **common)
        return Row(claim, node["id"], role, shown, "proved", second_engine=True, **common)
    if node.get("method") == "sympy" and "sat" not in said:  # neither decided: the weak check
        outcome, text = relation_spot_check(formula)
        return Row(
            claim,
            node["id"],
            role,
            f"{shown}; {text}",
            "not re-checked" if outcome == "unknown" else outcome,
            **common,
        )
    if "sat" in said:
        shown += "; read over the reals, a symbol of more than real and a sign: refutes nothing"
    return Row(claim, node["id"], role, shown, "unknown", **common)


def _certificate_row(
    ctx: Context, claim: str, node: dict, entry: dict, formula: sympy.Basic, role: str
) -> Row:
    files = (entry.get("file", ""),)
    cert = read_json(_obligation_text(ctx, entry).encode("utf-8"))
    read = manifest_formula(cert.get("formula_srepr"), "cert") if isinstance(cert, dict) else None
    if read is None or not same_formula(read, formula):
        why = "the certificate's formula is not the step's"
        return Row(claim, node["id"], role, why, "DISAGREES", files)
    expected = node["status"]
    why = certificates.document_problem(cert, CERT_SCHEMA, read, expected)
    if why:
        return Row(claim, node["id"], role, why, "DISAGREES", files)
    outcome, text = certificates.check(role, formula, expected, cert, read_formula)
    if outcome in ("proved", "refuted") and outcome != expected:
        outcome, text = "DISAGREES", f"{text}, but the manifest says {expected}"
    return Row(claim, node["id"], role, text, outcome, files, second_engine=outcome == expected)


def _spot_row(ctx: Context, claim: str, node: dict, entry: dict, formula: sympy.Basic) -> Row:
    files = (entry.get("file", ""),)
    spot = read_json(_obligation_text(ctx, entry).encode("utf-8"))
    read = manifest_formula(spot.get("formula_srepr"), "spot") if isinstance(spot, dict) else None
    if read is None or not same_formula(read, formula):
        why = "the file's formula is not the step's"
        return Row(claim, node["id"], Checks.SPOT, why, "DISAGREES", files)
    why = certificates.document_problem(spot, SPOT_SCHEMA, read, str(node.get("status")))
    if why:
        return Row(claim, node["id"], Checks.SPOT, why, "DISAGREES", files)
    outcome, text = relation_spot_check(formula)
    return Row(
        claim,
        node["id"],
        Checks.SPOT,
        text,
        "not re-checked" if outcome == "unknown" else outcome,
        files,
    )


def _premise_formulas(node: dict, by_id: dict[str, dict]) -> list[sympy.Basic]:
    out = []
    for p in node.get("premises", []):
        if p not in by_id:
            raise ValueError(f"premise {p!r} is not a fact of this claim")
        out.append(by_id[p]["_formula"])
    return out


def node_rows(
    ctx: Context, claim: str, node: dict, by_id: dict[str, dict], outcomes: dict[str, str]
) -> list[Row]:
    """The re-check of one fact: what its formula and method require, from its files. A
    formula whose quantifier's variable prints like another symbol, or whose premises come
    back to it, disagrees; a fact always has a row (none would read as ``admitted``)."""
    formula = node["_formula"]
    need = required_checks(
        formula, str(node.get("kind")), str(node.get("method")), str(node.get("status")), True
    )
    nid = node["id"]
    clash = printed_alike(formula) or misleading_name(formula) or domain_problem(node, formula)
    if clash:
        return [Row(claim, nid, "formula", clash, "DISAGREES")]
    try:
        conditions(node, by_id)
    except ValueError as exc:
        return [Row(claim, nid, "formula", str(exc), "DISAGREES")]
    rows = _rows_by_need(ctx, claim, node, by_id, outcomes, need)
    rows += condition_rows(claim, node, by_id) if rows and all(r.ok for r in rows) else []
    if not rows:  # a fact nothing re-checked is never admitted (the weakest of no rows)
        return [Row(claim, nid, "fact", "no check re-checked it", "DISAGREES")]
    return rows


def _rows_by_need(
    ctx: Context,
    claim: str,
    node: dict,
    by_id: dict[str, dict],
    outcomes: dict[str, str],
    need: frozenset[str],
) -> list[Row]:
    formula, nid = node["_formula"], node["id"]
    status = node.get("status")
    if Checks.ADMITTED in need:
        problem = definition_problem(formula) if node.get("kind") == "definition" else None
        if status != "proved":  # the kernel admits a fact as asserted: an assumption
            # "refuted" made its negation pass as admitted, listed in rests_on as the very
            # formula it denies (¬(∀z: max(0, z) ≥ 0) proved, resting on ∀z: max(0, z) ≥ 0)
            problem = f"an admitted fact is asserted (status proved), not {status!r}"
        if problem:
            return [Row(claim, nid, Checks.ADMITTED, problem, "DISAGREES")]
        return [
            Row(claim, nid, Checks.ADMITTED, f"{node['kind']}: admitted, not proved", "admitted")
        ]
    if Checks.RULE in need:  # a kernel rule proves, or leaves undecided (kept undecided here)
        if status not in ("proved", "unknown"):
            why = f"a rule's conclusion is proved or unknown, not {status!r}"
            return [Row(claim, nid, Checks.RULE, why, "DISAGREES")]
        rows = _rule_rows(claim, node, by_id, outcomes)
        weak = status == "unknown" and rows[0].outcome in ("proved", "spot-checked")
        return (
            [replace(rows[0], answer=f"{rows[0].answer}; exported unknown", outcome="unknown")]
            if weak
            else rows
        )
    if Checks.NEGATION in need:
        return _negation_rows(claim, node, by_id, outcomes)
    if Checks.NONE in need:
        return [
            Row(
                claim,
                nid,
                Checks.NONE,
                f"{node.get('method')} {type(formula).__name__}: nothing re-checks it",
                "unknown",
            )
        ]
    return _obligation_rows(ctx, claim, node, need)


def _rule_rows(
    claim: str, node: dict, by_id: dict[str, dict], outcomes: dict[str, str]
) -> list[Row]:
    """A kernel rule's conclusion re-derived from its premises' formulas; as strong as the
    weakest premise. A name a definition fixes is a constant: ``gen`` and ``inst`` may not
    treat it as a variable (the kernel's side condition)."""
    formula, nid = node["_formula"], node["id"]
    try:
        detail = (
            manifest_formula(node["detail_srepr"], "detail")
            if node.get("detail_srepr") is not None
            else None
        )
        rule, premises = str(node.get("kernel_rule")), _premise_formulas(node, by_id)
        fixed = quantified(rule, premises, detail) & fixed_names(node.get("premises", []), by_id)
        if fixed:
            raise ValueError(
                f"{rule} over {sorted(map(str, fixed))[0]}, a defined name or free in an assumption"
            )
        problem = condition_problem(node, by_id) or (
            captured_condition(node, by_id, detail) if rule == "cong" else None
        )
        if problem:
            raise ValueError(problem)
        derived = derive(rule, premises, detail)
        divisor = uncertified_divisor(formula, *premises)
        if divisor:
            raise ValueError(f"divides by {divisor}, not certified nonzero")
    except (ValueError, TypeError) as exc:
        return [Row(claim, nid, Checks.RULE, f"not re-derived: {exc}", "DISAGREES")]
    if not same_formula(read_formula(formula_srepr(derived)), formula):
        return [
            Row(
                claim,
                nid,
                Checks.RULE,
                f"{node.get('kernel_rule')} concludes "
                f"{sympy.sstr(derived)[:80]}, not the step's formula",
                "DISAGREES",
            )
        ]
    premises = [outcomes.get(p, "unknown") for p in node.get("premises", [])]
    outcome = weakest(["proved", *("DISAGREES" if o == "refuted" else o for o in premises)])
    return [
        Row(
            claim,
            nid,
            Checks.RULE,
            f"{node.get('kernel_rule')} re-derived from "
            f"{', '.join(node.get('premises', [])) or 'no premises'}",
            outcome,
            second_engine=True,
        )
    ]


def _negation_rows(
    claim: str, node: dict, by_id: dict[str, dict], outcomes: dict[str, str]
) -> list[Row]:
    """¬F from a refuted part with the formula F: as strong as that part's refutation."""
    formula, nid = node["_formula"], node["id"]
    parts = [by_id[p] for p in node.get("premises", []) if p in by_id]
    inner = formula.args[0]
    if inner.free_symbols:  # ¬F of an open F would read "for all values, not F"
        return [Row(claim, nid, Checks.NEGATION, "the negated formula is not closed", "DISAGREES")]
    problem = condition_problem(node, by_id)
    if problem:
        return [Row(claim, nid, Checks.NEGATION, problem, "DISAGREES")]
    ok = [p for p in parts if same_formula(p["_formula"], inner) and p.get("status") == "refuted"]
    if not ok:
        return [
            Row(
                claim,
                nid,
                Checks.NEGATION,
                "no refuted part with the negated formula",
                "DISAGREES",
            )
        ]
    part = outcomes.get(ok[0]["id"], "unknown")  # as strong as the part's refutation
    outcome = (  # an admitted part is asserted, never refuted: the kernel negates none
        "proved" if part == "refuted" else "DISAGREES" if part in ("proved", "admitted") else part
    )
    return [
        Row(
            claim,
            nid,
            Checks.NEGATION,
            f"¬ of {ok[0]['id']} ({part})",
            outcome,
            second_engine=outcome == "proved",
        )
    ]


def _obligation_rows(ctx: Context, claim: str, node: dict, need: frozenset[str]) -> list[Row]:
    """A row per obligation the fact needs, each re-checked from its file."""
    formula, nid = node["_formula"], node["id"]
    entries = [e for e in node.get("obligations", []) if isinstance(e, dict)]
    by_role = {e.get("role"): e for e in entries}
    rows = []
    for role in sorted(need):
        entry = by_role.get(role)
        if entry is None:  # every role required_checks names (a spot check is needed only
            # where no SMT obligation is: the one is never in place of the other)
            rows.append(Row(claim, nid, role, "obligation missing from the manifest", "DISAGREES"))
            continue
        if entry.get("expected") not in (None, node.get("status"), "unsat"):
            rows.append(
                Row(claim, nid, role, "the obligation's expectation is not the step's", "DISAGREES")
            )
            continue
        try:
            if role in (Checks.Z3, Checks.SMT):
                row = _smt_row(ctx, claim, node, entry, formula, role)
                if role == Checks.Z3 and Checks.SMT not in need and row.outcome == "proved":
                    # Z3's own translation, bound by its digest only: with no obligation printed
                    # from the formula itself, nothing ties the answer to the formula
                    row = replace(
                        row,
                        answer=f"{row.answer}; not bound to the formula (outside the SMT fragment)",
                        outcome="unknown",
                        second_engine=False,
                    )
                rows.append(row)
            elif role in (Checks.CERTIFICATE, Checks.BOUND, Checks.WITNESS):
                rows.append(_certificate_row(ctx, claim, node, entry, formula, role))
            else:
                rows.append(_spot_row(ctx, claim, node, entry, formula))
        except NotEnclosed as exc:
            rows.append(
                Row(
                    claim,
                    nid,
                    role,
                    f"not enclosed: {exc}",
                    "unknown",
                    (str(entry.get("file", "")),),
                )
            )
        except (
            ValueError,
            TypeError,
            KeyError,
            AttributeError,
            RecursionError,
            OverflowError,
            ZeroDivisionError,
        ) as exc:
            rows.append(
                Row(
                    claim,
                    nid,
                    role,
                    f"error: {type(exc).__name__}: {' '.join(str(exc).split())[:160]}",
                    "DISAGREES",
                    (str(entry.get("file", "")),),
                )
            )
    return rows
