"""The export's format (issues 16, 25): the names and schemas of its files, what re-checks a
fact (``Checks``, ``required_checks`` — written by the export, demanded by the re-check), and
the manifest read and validated, with the formulas it holds (read, never evaluated).
"""

from __future__ import annotations

import re
from pathlib import Path

import sympy
from sympy.core.function import AppliedUndef, UndefinedFunction
from sympy.core.symbol import Str

from symbolic.evidence.certificates import degree_form
from symbolic.evidence.files import read_file, read_json
from symbolic.evidence.formula_reader import UnreadableFormula, canonical_srepr, read_formula
from symbolic.kernel import PRINTED_HEADS, domain_text, name_problem

MANIFEST_NAME = "manifest.json"
MANIFEST_SCHEMA = "transformer-proofs/manifest/v2"
CERT_SCHEMA = "transformer-proofs/certificate/v2"
SPOT_SCHEMA = "transformer-proofs/spot-check/v1"
RECORD_NAME = "recheck.json"  # written by recheck(): what --rechecked DIR reads
RECORD_SCHEMA = "transformer-proofs/recheck/v1"
MAX_MANIFEST_BYTES = 256 * 2**20
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
    from symbolic.evidence.formula_smt import smt_obligation
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
        if status == "refuted" and witness and degree_form(formula) is not None:
            return frozenset({Checks.WITNESS})  # ∃p ∀α, z: no degree (check_no_degree)
        return frozenset({Checks.NONE})
    if "sympy" in methods and status == "proved":
        if smt_obligation(formula) is not None:
            return frozenset({Checks.SMT})
        return frozenset({Checks.SPOT})
    return frozenset({Checks.NONE})


def read_manifest(root: Path) -> dict:
    """``DIR/manifest.json``; ``ValueError`` naming what is wrong."""
    data = read_json(read_file(root / MANIFEST_NAME, MAX_MANIFEST_BYTES))
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


def manifest_formula(text: object, what: str) -> sympy.Basic:
    """A formula of the manifest (its ``srepr`` text), read; ``UnreadableFormula`` else. A
    function with assumptions (``Function('f', positive=True)``) is refused: ``srepr`` never
    writes them, so no comparison sees them — an inst at ``f(x)`` of a positive f concluded
    ``f(x) > 0`` of the f every other formula shows."""
    if not isinstance(text, str):
        raise UnreadableFormula(f"{what}: no formula")
    formula = read_formula(text)
    for n in sympy.preorder_traversal(formula):
        head = n.func if isinstance(n, AppliedUndef) else n
        if isinstance(head, UndefinedFunction) and head != sympy.Function(head.__name__):
            raise UnreadableFormula(f"{what}: the function {head.__name__} has assumptions")
    return formula


# What a formula's text prints for something that is not a name: the kernel's table
# (``symbolic.kernel.shown_names``), with every head the formula reader knows.
def _printed_heads() -> frozenset:
    from symbolic.evidence.formula_reader import NODES

    return frozenset(NODES) | PRINTED_HEADS


def _name_problem(name: str, function: bool = False) -> str | None:
    from symbolic.evidence.names import character_problem

    unseen = character_problem(name)  # an invisible, combining or look-alike character
    return unseen or name_problem(name, function, heads=_printed_heads())


def misleading_name(formula: sympy.Basic) -> str | None:
    """Why a name in ``formula`` (a symbol's, an undefined function's, a matrix's) prints as
    something else — a number, a constant, a relation, an operator between terms, a known
    function applied, a character that does not print as itself (``names``) — or None. The
    words of an assumption stated in words (``assumed(Symbol(text))``) are not a name of the
    formula: only an invisible character is refused in them."""
    from symbolic.evidence.names import character_problem
    from symbolic.kernel import ASSUMED

    stack = [formula]
    while stack:
        n = stack.pop()
        if isinstance(n, AppliedUndef) and n.func == ASSUMED:
            words = [a.name for a in n.args if isinstance(a, sympy.Symbol)]
            problem = next(filter(None, (character_problem(w, words=True) for w in words)), None)
            if problem:  # a bidi override in the words turns the rest of the line around
                return problem
            continue
        if isinstance(n, AppliedUndef):
            problem = _name_problem(n.func.__name__, function=True)
            if problem:
                return problem
        if isinstance(n, (sympy.Symbol, Str)):
            problem = _name_problem(n.name)
            if problem:
                return problem
        stack += [a for a in n.args if isinstance(a, sympy.Basic)]
    return None


def same_formula(a: sympy.Basic, b: sympy.Basic) -> bool:
    """The same formula, node for node (symbols SymPy holds equal read as one)."""
    return canonical_srepr(a) == canonical_srepr(b)


def printed_alike(formula: sympy.Basic) -> str | None:
    """A quantifier's variable and another symbol of that name in its body (other assumptions)
    print alike: the text says another formula than the one checked (``∀ x ∈ ℝ`` over a
    positive ``x``). Why, or None (the kernel refuses to make such a formula)."""
    from symbolic.evidence.names import alike_symbols
    from symbolic.kernel import Exists, ForAll

    for q in formula.atoms(ForAll, Exists):
        for v in q.variables:
            if any(str(s) == str(v) and s != v for s in q.body.atoms(sympy.Symbol)):
                return f"the quantifier's variable {v} and another symbol {v} print alike"
    return alike_symbols(formula)  # a sum's index, Ne(x, x) of a positive and a negative x


# -- the sets a step's ``domain`` shows (red-team round 13) -------------------------------------


def domain_problem(node: dict, formula: sympy.Basic) -> str | None:
    """What a step's ``domain`` — the only place a reader of the manifest sees its symbols'
    sets (a formula's text prints ``x`` alike for a real and a positive x) — says that its
    formula does not: not a list of texts, or a set ``x ∈ S`` of a symbol of the formula that
    is the set of no symbol of that name (``|x| = −x``, proved of a negative x, shown with
    ``x ∈ (0, ∞)``: false as read; ``x ∈ ℤ`` over a real x: a claim narrower than the one
    checked). Why, or None. (A set left out is not refused: the kernel's own domains leave
    some out, a definition's and a ``cong``'s.)"""
    domain = node.get("domain", [])
    if not isinstance(domain, list) or not all(isinstance(d, str) for d in domain):
        return "its domain is not a list of texts"
    symbols: dict[str, set] = {}
    for s in formula.free_symbols:
        if isinstance(s, sympy.Symbol):
            symbols.setdefault(str(s), set()).add(domain_text(s))
    for entry in domain:
        name = entry.split(" ∈ ", 1)[0] if " ∈ " in entry else None
        if name in symbols and entry not in symbols[name]:
            return f"its domain shows {entry[:60]!r}, not the set of its symbol {name[:40]}"
    return None
