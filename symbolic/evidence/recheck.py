"""Re-check an export from its files alone: ``python -m proofs --recheck DIR`` (issues 16, 25).

No theorem code and no kernel checker runs. The re-check starts from ``DIR/manifest.json``:

1. **The files.** Every file under DIR (``manifest.json`` and ``recheck.json`` aside) must be
   listed in the manifest with its SHA-256, and every listed file must be there, unchanged;
   a symbolic link is refused. Sizes are bounded (``files``).
2. **Each claim.** The last step's formula must be the claim's statement; the admitted facts
   it rests on are recomputed from its steps' kinds and compared with the manifest's list.
3. **Each fact** (every step, and the parts it rests on) is re-checked by what
   ``required_checks`` (``manifest``) says its formula and method need — never by what a file
   says about itself (``fact_checks``). Every formula is read by ``formula_reader`` (no code
   runs), and each obligation must *re-derive* the manifest's formula: a certificate or spot
   check carries the formula itself; an SMT obligation is printed again from the formula
   (``formula_smt``) and must be the file byte for byte. Then: SMT obligations go to Z3 and
   cvc5 (``solvers``; the expected ``unsat`` comes from the manifest; ``(set-option …)`` and
   any command outside a short whitelist are refused, ``(set-info …)`` dropped:
   ``benchmarks``); certificates are re-decided exactly or by an interval evaluator of our own
   (``certificates``, ``numbers``); other SymPy identities are spot-checked
   (``spot_checks``); a kernel rule's conclusion is re-derived from its premises (``rules``).

The rows, counts, summary and the record ``DIR/recheck.json`` are ``report``'s. Exit codes: 0
every check agrees; 1 a disagreement (a solver answered ``sat``, a certificate does not
re-check, a file is missing, extra, changed, unreadable or a symlink, a claim's last step is
not its statement); 3 something was not decided (cvc5 ``unknown`` or not installed, an empty
folder).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from pathlib import Path

import sympy

from symbolic.evidence.fact_checks import Context, node_rows
from symbolic.evidence.files import listing
from symbolic.evidence.formula_reader import UnreadableFormula
from symbolic.evidence.manifest import (
    MANIFEST_NAME,
    RECORD_NAME,
    manifest_formula,
    misleading_name,
    read_manifest,
    same_formula,
)
from symbolic.evidence.names import lookalike_names
from symbolic.evidence.report import CONCLUDES, Row, combine, finish, weakest
from symbolic.evidence.vacuity import unshown
from symbolic.render.formula_text import source_text

EXIT_OK, EXIT_DISAGREE, EXIT_UNKNOWN = 0, 1, 3


class UnknownName(ValueError):
    """``--only NAME`` names neither a module nor a claim of the export."""


def recheck(
    directory: str | Path, only: Collection[str] = ()
) -> tuple[list[Row], int, dict[str, str]]:
    """The export under ``directory`` re-checked; (rows, exit code, versions). ``only``: the
    modules or claims to re-check (every file's digest is checked all the same);
    ``UnknownName`` for a name that is neither. The result is also written to ``DIR/recheck.json``
    (``record``; never through a symlink)."""
    import mpmath

    from symbolic.evidence.solvers import cvc5_available, cvc5_version, z3_version

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
        return rows, finish(root, rows, EXIT_DISAGREE, versions), versions
    claims = _selected(manifest["claims"], only)
    ctx = Context(root, use_cvc5, dict(manifest["files"]))
    rows = _file_rows(ctx, manifest)
    names = Counter(str(c.get("name")) for c in manifest["claims"] if isinstance(c, dict))
    twice = {n for n, k in names.items() if k > 1}
    for claim in claims:
        try:
            if not isinstance(claim, dict):
                raise ValueError("a claim that is not an object")
            if str(claim.get("name")) in twice:  # uses and rests-on rows go by name: a second
                # claim of one name (in another module) hid the first one's admitted facts
                raise ValueError("two claims of the export have this name")
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
    return rows, finish(root, rows, code, versions), versions


def _selected(claims: list, only: Collection[str]) -> list:
    """The manifest's claims named in ``only`` (by module or by claim name); all without it."""
    if not only:
        return claims
    names = {(str(c.get("module")), str(c.get("name"))) for c in claims if isinstance(c, dict)}
    for wanted in only:
        if not any(wanted in pair for pair in names):
            raise UnknownName(f"{wanted!r} is neither a module nor a claim of this export")
    return [
        c
        for c in claims
        if isinstance(c, dict) and (str(c.get("module")) in only or str(c.get("name")) in only)
    ]


def recheck_claim(ctx: Context, claim: dict) -> list[Row]:
    """A claim's rows: each of its facts re-checked (parts first), then its binding."""
    name = str(claim.get("name"))
    label = f"{claim.get('module')}:{name}"
    nodes: list[dict] = []
    _flatten(claim.get("steps", []), nodes)
    by_id: dict[str, dict] = {}
    rows: list[Row] = []
    for node in nodes:
        node["_formula"] = manifest_formula(node.get("formula_srepr"), f"step {node['id']}")
        if node["id"] in by_id:
            raise ValueError(f"two facts of the claim have the id {node['id']!r}")
        by_id[node["id"]] = node
    outcomes: dict[str, str] = {}
    for node in nodes:
        mine = node_rows(ctx, label, node, by_id, outcomes)
        outcomes[node["id"]] = combine(mine)
        rows += mine
    rows += _claim_rows(label, claim, nodes, outcomes)
    return rows


def _flatten(nodes: list, into: list[dict]) -> None:
    for node in nodes:
        if not isinstance(node, dict) or not isinstance(node.get("id"), str) or not node["id"]:
            raise ValueError("a step without an id")  # "" is the id of a claim's own row
        own = sorted(k for k in node if not isinstance(k, str) or k.startswith("_"))
        if own:  # the re-check keeps what it derives in a node under "_" keys (its formula,
            # its conditions): "_conditions": null in a step switched its checks off
            raise ValueError(
                f"step {node['id']!r} has the key {str(own[0])[:40]!r}, not one the export writes"
            )
        _flatten(node.get("parts", []), into)  # parts before the fact that rests on them
        into.append(node)


def _claim_rows(label: str, claim: dict, nodes: list[dict], outcomes: dict[str, str]) -> list[Row]:
    """The claim's row: its binding — the last step is the statement, every text is its
    formula printed, ``rests_on`` lists every admitted fact it contains (parts too) — and as
    outcome what its steps re-check to: the last step's refutation refutes it (an admitted last
    step admits it); otherwise the weakest of its steps (a refuted earlier step proves nothing:
    unknown). A claim without a statement formula is not re-checked (its steps are; exit 3,
    never a pass); one ending in a definition is unknown."""
    steps = claim.get("steps", [])
    problems = []
    statement = claim.get("statement_srepr")
    if statement is not None:
        stated = manifest_formula(statement, "statement")
        if not steps or not same_formula(stated, steps[-1]["_formula"]):
            problems.append("the last step's formula is not the claim's statement")
        if claim.get("statement") != source_text(stated):
            problems.append("the statement's text is not its formula")
        misleading = misleading_name(stated)  # its text would say another formula
        if misleading:
            problems.append(f"the statement: {misleading}")
    alike = lookalike_names([n["_formula"] for n in nodes])  # ∃x: x > х (Cyrillic х)
    if alike:
        problems.append(alike)
    for n in nodes:
        if n.get("formula") != source_text(n["_formula"]):
            problems.append(f"step {n['id']}: its text is not its formula")
            break
    admitted = sorted(
        source_text(n["_formula"]) for n in nodes if n.get("kind") in ("assumption", "oracle")
    )
    if not isinstance(claim.get("uses", []), list):
        problems.append("its uses is not a list of claim names")
    listed = claim.get("rests_on", [])
    if not isinstance(listed, list) or sorted(map(str, listed)) != admitted:
        problems.append("rests_on is not the admitted facts the claim contains")
    if problems:
        return [Row(label, "", "claim", "; ".join(problems), "DISAGREES")]
    if statement is None and claim.get("statement") is not None:  # the export writes both or
        return [  # neither: a text with no formula would be read and never compared
            Row(label, "", "claim", "a statement text with no formula to bind it", "unknown")
        ]
    if statement is None:
        return [Row(label, "", "claim", "no statement formula to bind", "not re-checked")]
    last = steps[-1]
    if last.get("kind") == "definition":
        return [Row(label, "", "claim", "a definition concludes nothing", "unknown")]
    concluded = outcomes[last["id"]]
    if concluded in ("refuted", "admitted"):  # the statement refuted, or itself admitted
        return [Row(label, "", "claim", CONCLUDES, concluded)]
    earlier = ("unknown" if outcomes[n["id"]] == "refuted" else outcomes[n["id"]] for n in steps)
    outcome = weakest(earlier)
    hidden = (
        unshown(last, {n["id"]: n for n in nodes})
        if outcome in ("proved", "spot-checked")
        else None
    )
    if hidden:  # pw(x) = 1 proved where x ≠ 1 only
        return [Row(label, "", "claim", f"{CONCLUDES}, but it {hidden}", "unknown")]
    return [Row(label, "", "claim", CONCLUDES, outcome)]


def _resting_rows(claims: list) -> list[Row]:
    """A row per claim that rests on admitted facts — its own (``rests_on``) or those of a
    claim it ``uses``, transitively: counted apart, as ``--strict`` would."""
    claims = [c for c in claims if isinstance(c, dict)]
    uses = {
        str(c.get("name")): [str(u) for u in _listed(c.get("uses")) if isinstance(u, str)]
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


def _listed(value: object) -> list:
    """A manifest list (``uses``), or nothing when it is not one (the claim's own row says so)."""
    return value if isinstance(value, list) else []


def _file_rows(ctx: Context, manifest: dict) -> list[Row]:
    found, refused = listing(ctx.root, skip=(MANIFEST_NAME, RECORD_NAME))
    ctx.found = found  # an obligation is read only as the bytes hashed here
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
