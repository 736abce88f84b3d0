"""Re-check an export from its files alone: ``python -m proofs --recheck DIR`` (issues 16, 25).

No theorem code and no kernel checker runs. The re-check starts from ``DIR/manifest.json``:

1. **The files.** Every file under DIR (``manifest.json`` and ``recheck.json`` aside) must be
   listed in the manifest with its SHA-256, and every listed file must be there, unchanged;
   a symbolic link is refused. Sizes are bounded.
2. **Each claim.** The last step's formula must be the claim's statement; the admitted facts
   it rests on are recomputed from its steps' kinds and compared with the manifest's list.
3. **Each fact** (every step, and the parts it rests on) is re-checked by what
   ``required_checks`` says its formula and method need — never by what a file says about
   itself. Every formula is read by ``symbolic.formula_reader`` (no code runs), and each
   obligation must *re-derive* the manifest's formula: a certificate or spot check carries
   the formula itself; an SMT obligation is printed again from the formula and must be the
   file byte for byte. Then: SMT obligations go to Z3 and cvc5 (the expected ``unsat`` comes
   from the manifest; ``(set-option …)`` and any command outside a short whitelist are
   refused, ``(set-info …)`` dropped); certificates are re-decided exactly or by an interval
   evaluator of our own (``symbolic.recheck_numbers``); other SymPy identities are
   spot-checked; a kernel rule's conclusion is re-derived from its premises.

Exit codes: 0 every check agrees; 1 a disagreement (a solver answered ``sat``, a certificate
does not re-check, a file is missing, extra, changed, unreadable or a symlink, a claim's last
step is not its statement); 3 something was not decided (cvc5 ``unknown`` or not installed,
an empty folder).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

from symbolic.formula_reader import UnreadableFormula, read_formula
from symbolic.recheck_numbers import NotEnclosed
from symbolic.recheck_numbers import degree_form as rn_degree_form

EXIT_OK, EXIT_DISAGREE, EXIT_UNKNOWN = 0, 1, 3
MANIFEST_NAME = "manifest.json"
MANIFEST_SCHEMA = "transformer-proofs/manifest/v2"
CERT_SCHEMA = "transformer-proofs/certificate/v2"
SPOT_SCHEMA = "transformer-proofs/spot-check/v1"
RECORD_NAME = "recheck.json"  # written by recheck(): what --rechecked DIR reads
RECORD_SCHEMA = "transformer-proofs/recheck/v1"
MAX_MANIFEST_BYTES = 256 * 2**20
MAX_FILE_BYTES = 8 * 2**20
MAX_FILES = 100_000
ADMITTED_KINDS = ("definition", "assumption", "oracle")


class Checks:
    """What re-checks a fact (``required_checks``), and the obligation roles of the export."""

    Z3 = "z3-benchmark"  # Z3's own benchmark: cvc5 and Z3 re-run it
    SMT = "smt"  # the formula printed as SMT-LIB 2 (formula_smt): cvc5 and Z3
    CERTIFICATE = "certificate"  # a closed comparison: exact or interval
    BOUND = "bound"  # ∀ x ∈ [lo, hi]: bisection
    WITNESS = "witness"  # an identity refuted at a point
    SPOT = "spot"  # SymPy + random points: spot-checked, never proved
    NEGATION = "negation"  # ¬F from its refuted part F
    RULE = "rule"  # a kernel inference rule: re-derived from its premises
    ADMITTED = "admitted"  # definitions, assumptions, oracle results
    NONE = "none"  # nothing re-checks it (counted)


def required_checks(
    formula: sympy.Basic, kind: str, method: str, status: str, witness: bool, has_smt2: bool = True
) -> frozenset[str]:
    """The checks a fact needs, from its formula, kind, method and status alone (the export
    writes them; the re-check refuses a manifest without them)."""
    from symbolic.formula_smt import smt_obligation
    from symbolic.kernel import ForAll

    if kind in ADMITTED_KINDS:
        return frozenset({Checks.ADMITTED})
    if method == "rule":
        return frozenset({Checks.RULE})
    methods = set(method.split("+"))
    relational = isinstance(formula, sympy.core.relational.Relational)
    if status == "proved" and isinstance(formula, sympy.Not):
        return frozenset({Checks.NEGATION})
    if (
        status == "proved"
        and relational
        and not formula.free_symbols
        and methods & {"exact", "interval"}
    ):
        return frozenset({Checks.CERTIFICATE})
    if "z3" in methods and status == "proved" and has_smt2:
        found = {Checks.Z3}
        if smt_obligation(formula) is not None:
            found.add(Checks.SMT)
        return frozenset(found)
    if methods & {"exact", "interval"}:
        if (
            status == "proved"
            and isinstance(formula, ForAll)
            and len(formula.variables) == 1
            and isinstance(formula.domain, sympy.Interval)
            and isinstance(formula.body, sympy.core.relational.Relational)
        ):
            return frozenset({Checks.BOUND})
        body = formula.body if isinstance(formula, ForAll) else formula
        if status == "refuted" and witness and isinstance(body, sympy.Eq):
            return frozenset({Checks.WITNESS})
        if status == "refuted" and witness and rn_degree_form(formula) is not None:
            return frozenset({Checks.WITNESS})  # ∃p ∀α, z: no degree (check_no_degree)
        return frozenset({Checks.NONE})
    if "sympy" in methods and status == "proved":
        if smt_obligation(formula) is not None:
            return frozenset({Checks.SMT})
        return frozenset({Checks.SPOT})
    return frozenset({Checks.NONE})


# -- files: no symlinks, bounded sizes --------------------------------------------------------


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, never through a symbolic link (the file or its folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent.is_symlink() or path.is_symlink():
        raise OSError(f"{path}: refusing to write through a symbolic link")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def read_file(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes (no symlink; at most ``limit`` bytes); ``ValueError`` else."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise ValueError(f"cannot read ({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("a symbolic link (refused)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("not a regular file")
    if info.st_size > limit:
        raise ValueError(f"{info.st_size} bytes; at most {limit}")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"more than {limit} bytes")
    return data


def _json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValueError(f"not JSON ({type(exc).__name__})") from None


def _listing(root: Path) -> tuple[dict[str, str], list[str]]:
    """Every regular file under ``root`` (relative path → SHA-256) and every entry refused
    (symlinks, special files), without following links."""
    found, refused = {}, []
    for folder, dirs, files in os.walk(root, followlinks=False):
        for d in list(dirs):
            if os.path.islink(os.path.join(folder, d)):
                refused.append(os.path.relpath(os.path.join(folder, d), root))
                dirs.remove(d)
        for name in files:
            full = os.path.join(folder, name)
            rel = Path(os.path.relpath(full, root)).as_posix()
            if rel in (MANIFEST_NAME, RECORD_NAME):
                continue
            if len(found) >= MAX_FILES:
                refused.append(f"{rel} (more than {MAX_FILES} files)")
                continue
            try:
                found[rel] = hashlib.sha256(read_file(Path(full))).hexdigest()
            except ValueError as exc:
                refused.append(f"{rel}: {exc}")
    return found, refused


# -- SMT-LIB: the commands a benchmark may hold -----------------------------------------------

ALLOWED_COMMANDS = (
    "set-logic",
    "declare-fun",
    "declare-const",
    "declare-sort",
    "define-fun",
    "define-sort",
    "assert",
    "check-sat",
    "exit",
)
MAX_DIGEST_TOKENS = 2_000_000
MAX_SMT_DEPTH = 400  # nesting of a benchmark's terms (Python's recursion stays far below)


def clean_benchmark(text: str) -> str:
    """The benchmark's commands, comments and ``(set-info …)`` dropped; ``ValueError`` for a
    command outside ``ALLOWED_COMMANDS`` (``set-option`` can redirect a solver's output to a
    file), a string literal, or anything but one ``(check-sat)``."""
    body = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
    if '"' in body:
        raise ValueError("a string literal (refused)")
    try:
        commands = _sexprs(body)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    kept = []
    for c in commands:
        if not isinstance(c, list) or not c or not isinstance(c[0], str):
            raise ValueError("a top-level atom")
        if c[0] == "set-info":
            continue  # :status is the manifest's, never the file's
        if c[0] not in ALLOWED_COMMANDS:
            raise ValueError(f"command ({c[0]} …) refused")
        kept.append(c)
    if sum(c[0] == "check-sat" for c in kept) != 1:
        raise ValueError("not exactly one (check-sat)")
    return "\n".join(_show(c) for c in kept) + "\n"


def digest(text: str) -> str:
    """The SHA-256 of a benchmark's meaning as text: comment lines dropped, Z3's ``let``s
    inlined (which terms Z3 let-binds, and their names ``$x80``, depend on what else its
    context holds), declarations sorted — the same obligation exported by two runs has one
    digest. A benchmark too large to inline is hashed as written."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
    try:
        commands = [_inline(c, {}) for c in _sexprs(body)]
        declared = sorted(_show(c) for c in commands if c and c[0] in _DECLARATIONS)
        canonical = "\n".join(
            declared + [_show(c) for c in commands if not (c and c[0] in _DECLARATIONS)]
        )
    except (ValueError, RecursionError):
        canonical = body
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_DECLARATIONS = ("declare-fun", "declare-const", "declare-sort")


def _sexprs(text: str) -> list:
    """SMT-LIB 2 text as nested lists of atoms (``|quoted|`` symbols kept whole)."""
    tokens = re.findall(r"\(|\)|\|[^|]*\||[^\s()|]+", text)
    if len(tokens) > MAX_DIGEST_TOKENS:
        raise ValueError("benchmark too large")
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
            if len(stack) > MAX_SMT_DEPTH:
                raise ValueError("nested too deeply")
        elif tok == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced parentheses")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0]


def _inline(e, env: dict):
    if isinstance(e, str):
        return env.get(e, e)
    if len(e) == 3 and e[0] == "let" and isinstance(e[1], list):
        inner = dict(env)
        for name, value in e[1]:  # parallel let: values see the outer bindings
            inner[name] = _inline(value, env)
        return _inline(e[2], inner)
    return [_inline(x, env) for x in e]


def _show(e) -> str:
    return e if isinstance(e, str) else "(" + " ".join(_show(x) for x in e) + ")"


# -- rows -------------------------------------------------------------------------------------


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
        return self.outcome == "unknown"

    def cells(self) -> tuple[str, str, str, str, str]:
        return (self.claim, self.node, self.check, self.answer, self.outcome)


@dataclass
class _Context:
    root: Path
    use_cvc5: bool
    files: dict[str, str] = field(default_factory=dict)  # manifest: path → sha256


def _read(text: object, what: str) -> sympy.Basic:
    if not isinstance(text, str):
        raise UnreadableFormula(f"{what}: no formula")
    return read_formula(text)


def _same(a: sympy.Basic, b: sympy.Basic) -> bool:
    return sympy.srepr(a) == sympy.srepr(b)


def _obligation_text(ctx: _Context, entry: dict) -> str:
    name = entry.get("file") if isinstance(entry, dict) else None
    if not isinstance(name, str) or name not in ctx.files:
        raise ValueError(f"obligation {name!r} is not among the manifest's files")
    return read_file(ctx.root / name).decode("utf-8")


def _solvers(ctx: _Context, text: str, strategy: str | None, proofs: bool) -> dict[str, Any]:
    """Z3's and cvc5's answers (cvc5: the manifest's strategy first; a proof object only for
    Z3's own benchmarks); options are never taken from the file."""
    from symbolic.kernel.recheck import (
        CVC5_QUICK_UNITS,
        cvc5_opinion,
        run_cvc5_portfolio,
        run_z3,
        strategy_options,
    )

    cleaned = clean_benchmark(text)
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
    return answers


def _smt_row(
    ctx: _Context, claim: str, node: dict, entry: dict, formula: sympy.Basic, role: str
) -> Row:
    files = (entry.get("file", ""),)
    text = _obligation_text(ctx, entry)
    if role == Checks.SMT:
        from symbolic.formula_smt import smt_obligation

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
    if any(a == "sat" or a.startswith("error") for a in said):
        return Row(claim, node["id"], role, shown, "DISAGREES", **common)
    if role == Checks.Z3:  # Z3 proved it: the second engine is cvc5
        outcome = "proved" if cvc5 == "unsat" else "unknown"
        return Row(claim, node["id"], role, shown, outcome, second_engine=cvc5 == "unsat", **common)
    if "unsat" in said:  # a SymPy step (or a Z3 step's formula): either solver is a second
        return Row(claim, node["id"], role, shown, "proved", second_engine=True, **common)
    if node.get("method") == "sympy":  # neither solver decided it: the weak check instead
        from symbolic.recheck_numbers import spot_check

        outcome, text = spot_check(formula)
        return Row(
            claim,
            node["id"],
            role,
            f"{shown}; {text}",
            "not re-checked" if outcome == "unknown" else outcome,
            **common,
        )
    return Row(claim, node["id"], role, shown, "unknown", **common)


def _certificate_row(
    ctx: _Context, claim: str, node: dict, entry: dict, formula: sympy.Basic, role: str
) -> Row:
    from symbolic import recheck_numbers as rn

    files = (entry.get("file", ""),)
    cert = _json(_obligation_text(ctx, entry).encode("utf-8"))
    if not isinstance(cert, dict) or not _same(
        _read(cert.get("formula_srepr"), "certificate"), formula
    ):
        return Row(
            claim,
            node["id"],
            role,
            "the certificate's formula is not the step's",
            "DISAGREES",
            files,
        )
    expected = node["status"]
    if role == Checks.CERTIFICATE:
        outcome, text = rn.check_comparison(formula, expected, cert)
    elif role == Checks.BOUND:
        outcome, text = rn.check_bound(formula)
    elif rn.degree_form(formula) is not None:
        outcome, text = rn.check_no_degree(formula, cert, read_formula)
    else:
        outcome, text = rn.check_witness(formula, cert.get("point"), cert, read_formula)
    if outcome in ("proved", "refuted") and outcome != expected:
        outcome, text = "DISAGREES", f"{text}, but the manifest says {expected}"
    return Row(claim, node["id"], role, text, outcome, files, second_engine=outcome == expected)


def _spot_row(ctx: _Context, claim: str, node: dict, entry: dict, formula: sympy.Basic) -> Row:
    from symbolic.recheck_numbers import spot_check

    files = (entry.get("file", ""),)
    spot = _json(_obligation_text(ctx, entry).encode("utf-8"))
    if not isinstance(spot, dict) or not _same(
        _read(spot.get("formula_srepr"), "spot check"), formula
    ):
        return Row(
            claim,
            node["id"],
            Checks.SPOT,
            "the file's formula is not the step's",
            "DISAGREES",
            files,
        )
    outcome, text = spot_check(formula)
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


def _node_rows(
    ctx: _Context, claim: str, node: dict, by_id: dict[str, dict], outcomes: dict[str, str]
) -> list[Row]:
    """The re-check of one fact: what its formula and method require, from its files."""
    from symbolic.recheck_rules import derive

    formula = node["_formula"]
    need = required_checks(
        formula, str(node.get("kind")), str(node.get("method")), str(node.get("status")), True
    )
    entries = [e for e in node.get("obligations", []) if isinstance(e, dict)]
    by_role = {e.get("role"): e for e in entries}
    nid = node["id"]
    if Checks.ADMITTED in need:
        return [
            Row(claim, nid, Checks.ADMITTED, f"{node['kind']}: admitted, not proved", "admitted")
        ]
    if Checks.RULE in need:
        try:
            derived = derive(
                str(node.get("kernel_rule")),
                _premise_formulas(node, by_id),
                _read(node["detail_srepr"], "detail")
                if node.get("detail_srepr") is not None
                else None,
            )
        except (ValueError, TypeError) as exc:
            return [Row(claim, nid, Checks.RULE, f"not re-derived: {exc}", "DISAGREES")]
        if not _same(read_formula(sympy.srepr(derived)), formula):
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
        weakest = _weakest(["proved", *("DISAGREES" if o == "refuted" else o for o in premises)])
        return [
            Row(
                claim,
                nid,
                Checks.RULE,
                f"{node.get('kernel_rule')} re-derived from "
                f"{', '.join(node.get('premises', [])) or 'no premises'}",
                weakest,
                second_engine=True,
            )
        ]
    if Checks.NEGATION in need:
        parts = [by_id[p] for p in node.get("premises", []) if p in by_id]
        inner = formula.args[0]
        ok = [p for p in parts if _same(p["_formula"], inner) and p.get("status") == "refuted"]
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
        outcome = "proved" if part == "refuted" else "DISAGREES" if part == "proved" else part
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
    if Checks.NONE in need:
        return [
            Row(
                claim,
                nid,
                Checks.NONE,
                f"{node.get('method')} {type(formula).__name__}: no obligation exported",
                "not re-checked",
            )
        ]
    rows = []
    for role in sorted(need):
        entry = by_role.get(role)
        if entry is None:
            if role == Checks.SPOT and by_role:
                continue
            rows.append(Row(claim, nid, role, "obligation missing from the manifest", "DISAGREES"))
            continue
        if entry.get("expected") not in (None, node.get("status"), "unsat"):
            rows.append(
                Row(claim, nid, role, "the obligation's expectation is not the step's", "DISAGREES")
            )
            continue
        try:
            if role in (Checks.Z3, Checks.SMT):
                rows.append(_smt_row(ctx, claim, node, entry, formula, role))
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


def _flatten(nodes: list, into: list[dict]) -> None:
    for node in nodes:
        if not isinstance(node, dict) or not isinstance(node.get("id"), str):
            raise ValueError("a step without an id")
        _flatten(node.get("parts", []), into)  # parts before the fact that rests on them
        into.append(node)


ORDER = ("DISAGREES", "unknown", "not re-checked", "spot-checked", "refuted", "proved")


def _weakest(outcomes) -> str:
    outs = set(outcomes)
    return next((o for o in ORDER if o in outs), "admitted")


def _combine(rows: list[Row]) -> str:
    return _weakest(r.outcome for r in rows)


def recheck_claim(ctx: _Context, claim: dict) -> list[Row]:
    name = str(claim.get("name"))
    label = f"{claim.get('module')}:{name}"
    nodes: list[dict] = []
    _flatten(claim.get("steps", []), nodes)
    by_id: dict[str, dict] = {}
    rows: list[Row] = []
    for node in nodes:
        node["_formula"] = _read(node.get("formula_srepr"), f"step {node['id']}")
        by_id[node["id"]] = node
    outcomes: dict[str, str] = {}
    for node in nodes:
        mine = _node_rows(ctx, label, node, by_id, outcomes)
        outcomes[node["id"]] = _combine(mine)
        rows += mine
    rows += _claim_rows(
        label, claim, _weakest("proved" if o == "refuted" else o for o in outcomes.values())
    )
    return rows


CONCLUDES = "the last step concludes the statement"


def _claim_rows(label: str, claim: dict, facts: str) -> list[Row]:
    """The claim's row: its binding (last step = statement, rests_on), and as outcome the
    weakest of its facts' (a refuted part of a proved ¬F counts as proved)."""
    steps = claim.get("steps", [])
    problems = []
    statement = claim.get("statement_srepr")
    if statement is not None:
        if not steps or not _same(_read(statement, "statement"), steps[-1]["_formula"]):
            problems.append("the last step's formula is not the claim's statement")
    admitted = sorted(
        sympy.sstr(n["_formula"]) for n in steps if n.get("kind") in ("assumption", "oracle")
    )
    listed = claim.get("rests_on", [])
    if not isinstance(listed, list) or sorted(map(str, listed)) != admitted:
        problems.append("rests_on is not the claim's admitted steps")
    if problems:
        return [Row(label, "", "claim", "; ".join(problems), "DISAGREES")]
    if statement is None:
        return [Row(label, "", "claim", "no statement formula to bind", facts)]
    return [Row(label, "", "claim", CONCLUDES, facts)]


def _resting_rows(claims: list) -> list[Row]:
    """A row per claim that rests on admitted facts — its own (``rests_on``) or those of a
    claim it ``uses``, transitively: counted apart, as ``--strict`` would."""
    claims = [c for c in claims if isinstance(c, dict)]
    uses = {
        str(c.get("name")): [str(u) for u in c.get("uses", []) if isinstance(u, str)]
        for c in claims
    }
    own = {str(c.get("name")): bool(c.get("rests_on")) for c in claims}
    rows = []
    for c in claims:
        name, seen, stack, found = str(c.get("name")), set(), [str(c.get("name"))], []
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            if own.get(n):
                found.append(n)
            stack += uses.get(n, [])
        if found:
            via = sorted(set(found) - {name})
            rows.append(
                Row(
                    f"{c.get('module')}:{name}",
                    "",
                    "rests on",
                    "admitted facts" + (f" (through {', '.join(via)})" if via else ""),
                    "admitted",
                )
            )
    return rows


def _file_rows(ctx: _Context, manifest: dict) -> list[Row]:
    found, refused = _listing(ctx.root)
    rows = [Row("", "", "file", f"{r}", "DISAGREES") for r in refused]
    listed = ctx.files
    for name in sorted(set(found) - set(listed)):
        rows.append(Row("", "", "file", f"{name}: not in the manifest", "DISAGREES", (name,)))
    for name in sorted(set(listed) - set(found)):
        if not any(r.startswith(name) for r in refused):
            rows.append(Row("", "", "file", f"{name}: missing", "DISAGREES", (name,)))
    for name in sorted(set(listed) & set(found)):
        if found[name] != listed[name]:
            rows.append(
                Row(
                    "",
                    "",
                    "file",
                    f"{name}: changed since the export (SHA-256)",
                    "DISAGREES",
                    (name,),
                )
            )
    return rows


def read_manifest(root: Path) -> dict:
    """``DIR/manifest.json``; ``ValueError`` naming what is wrong."""
    data = _json(read_file(root / MANIFEST_NAME, MAX_MANIFEST_BYTES))
    if not isinstance(data, dict) or data.get("schema") != MANIFEST_SCHEMA:
        raise ValueError(f"not a {MANIFEST_SCHEMA} manifest")
    files = data.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v)
        for k, v in files.items()
    ):
        raise ValueError("its 'files' is not a map of paths to SHA-256 digests")
    if any(".." in Path(k).parts or Path(k).is_absolute() for k in files):
        raise ValueError("a file path outside the export folder")
    if not isinstance(data.get("claims"), list):
        raise ValueError("no 'claims' list")
    return data


def recheck(
    directory: str | Path, only: Collection[str] = ()
) -> tuple[list[Row], int, dict[str, str]]:
    """The export under ``directory`` re-checked; (rows, exit code, versions). ``only``: the
    modules or claims to re-check (every file's digest is checked all the same); ``ValueError``
    for a name that is neither. The result is also written to ``DIR/recheck.json``
    (``record``; never through a symlink)."""
    import mpmath

    from symbolic.kernel.recheck import cvc5_available, cvc5_version, z3_version

    root = Path(directory)
    use_cvc5 = cvc5_available()
    versions = {
        "z3": z3_version(),
        "cvc5": cvc5_version() if use_cvc5 else "not installed",
        "mpmath": f"mpmath {mpmath.__version__}",
        "sympy": f"sympy {sympy.__version__}",
    }
    try:
        manifest = read_manifest(root)
    except ValueError as exc:
        rows = [Row("", "", "file", f"{MANIFEST_NAME}: {exc}", "DISAGREES")]
        return rows, _finish(root, rows, EXIT_DISAGREE, versions), versions
    claims = _selected(manifest["claims"], only)
    ctx = _Context(root, use_cvc5, dict(manifest["files"]))
    rows = _file_rows(ctx, manifest)
    for claim in claims:
        try:
            if not isinstance(claim, dict):
                raise ValueError("a claim that is not an object")
            rows += recheck_claim(ctx, claim)
        except (UnreadableFormula, ValueError, TypeError, KeyError) as exc:
            name = claim.get("name") if isinstance(claim, dict) else "?"
            rows.append(Row(str(name), "", "claim", f"unreadable: {exc}", "DISAGREES"))
        except Exception as exc:  # noqa: BLE001 - a row, never a traceback, for any input
            name = claim.get("name") if isinstance(claim, dict) else "?"
            rows.append(
                Row(
                    str(name),
                    "",
                    "claim",
                    f"cannot re-check: {type(exc).__name__}: {' '.join(str(exc).split())[:160]}",
                    "DISAGREES",
                )
            )
    rows += [
        r
        for r in _resting_rows(manifest["claims"])
        if not only or r.claim in {f"{c.get('module')}:{c.get('name')}" for c in claims}
    ]
    if any(not r.ok for r in rows):
        code = EXIT_DISAGREE
    elif not claims or any(r.unknown for r in rows) or not use_cvc5:
        code = EXIT_UNKNOWN
    else:
        code = EXIT_OK
    return rows, _finish(root, rows, code, versions), versions


def _selected(claims: list, only: Collection[str]) -> list:
    """The manifest's claims named in ``only`` (by module or by claim name); all without it."""
    if not only:
        return claims
    names = {(c.get("module"), c.get("name")) for c in claims if isinstance(c, dict)}
    for wanted in only:
        if not any(wanted in pair for pair in names):
            raise ValueError(f"{wanted!r} is neither a module nor a claim of this export")
    return [
        c
        for c in claims
        if isinstance(c, dict) and (c.get("module") in only or c.get("name") in only)
    ]


def _finish(root: Path, rows: list[Row], code: int, versions: dict[str, str]) -> int:
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
        data = _json(read_file(path))
    except ValueError as exc:
        raise ValueError(
            f"{path}: cannot read a re-check record ({exc}); "
            f"run python -m proofs --recheck {directory} first"
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("schema") != RECORD_SCHEMA
        or not isinstance(data.get("obligations"), list)
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
            c["claims bound"] += r.answer == CONCLUDES
        else:
            c["file problems"] += 1
    for fact_rows in facts.values():
        c["facts"] += 1
        c[f"facts {_combine(fact_rows)}"] += 1
        c["facts by a second engine"] += (
            any(r.second_engine for r in fact_rows) and _combine(fact_rows) == "proved"
        )
        for r in fact_rows:
            c[f"check {r.check}"] += 1
    c["disagreements"] = sum(not r.ok for r in rows)
    return c


def summary(rows: list[Row], code: int, versions: dict[str, str]) -> str:
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
        f"{c['claims spot-checked']}, not re-checked {c['claims not re-checked']}, "
        f"disagreeing {c['claims DISAGREES']}; resting on admitted facts, directly or "
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
