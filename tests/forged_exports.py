"""A hand-made one-claim export, as a forger writes one: fact nodes with the formula printed as
the export prints it, obligation files sealed with their SHA-256 (the forger rewrites the
digests). Shared by the hostile-certificate tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import sympy

from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.manifest import MANIFEST_NAME, MANIFEST_SCHEMA, Checks


def fact_node(
    node_id: str,
    formula,
    method: str,
    kind: str = "checked",
    status: str = "proved",
    obligation=None,
    rule=None,
    premises=(),
    detail=None,
    parts=(),
) -> dict:
    """A fact of the manifest; ``obligation`` is ``(role, text)``, written by ``write_export``."""
    entry = {
        "id": node_id,
        "formula": sympy.sstr(read_formula(sympy.srepr(formula))),  # as the export prints it
        "formula_srepr": sympy.srepr(formula),
        "kind": kind,
        "method": method,
        "status": status,
        "domain": [],
        "kernel_rule": rule,
        "detail_srepr": None if detail is None else sympy.srepr(detail),
        "premises": list(premises),
        "obligations": [],
        "parts": list(parts),
        "rule": "forged",
    }
    if obligation:
        entry["_write"] = obligation
    return entry


def write_export(d: Path, nodes: list[dict], rests_on=None, statement=None) -> None:
    """The sealed manifest of one claim with these steps (parts included). ``rests_on``: as
    given, or (None) the formulas of the assumptions and oracle results among the nodes."""
    files: dict[str, str] = {}
    admitted: list[str] = []

    def walk(ns):
        for n in ns:
            walk(n.get("parts", []))
            if n["kind"] in ("assumption", "oracle"):
                admitted.append(n["formula"])
            role, text = n.pop("_write", (None, None))
            if role:
                ext = {Checks.SMT: "obl.smt2", Checks.SPOT: "spot.json"}.get(role, "json")
                name = f"m/{n['id']}.{ext}"
                (d / "m").mkdir(parents=True, exist_ok=True)
                (d / name).write_text(text, encoding="utf-8")
                files[name] = hashlib.sha256(text.encode()).hexdigest()
                expected = "unsat" if role == Checks.SMT else n["status"]
                n["obligations"] = [{"role": role, "expected": expected, "file": name}]

    walk(nodes)
    d.mkdir(parents=True, exist_ok=True)
    claim = {
        "module": "m",
        "name": "m.claim",
        "statement": None if statement is None else statement["formula"],
        "statement_srepr": None if statement is None else statement["formula_srepr"],
        "uses": [],
        "rests_on": sorted(admitted) if rests_on is None else list(rests_on),
        "steps": nodes,
    }
    data = {"schema": MANIFEST_SCHEMA, "versions": {}, "files": files, "claims": [claim]}
    (d / MANIFEST_NAME).write_text(json.dumps(data), encoding="utf-8")


def zero_everywhere(x: sympy.Symbol) -> sympy.Expr:
    """(x + 1)² − x² − 2x − 1, built unevaluated: zero for every real x (expand it), though
    SymPy's ``is_zero`` says None. A divisor that is 0 everywhere: rule steps claimed where it
    is nonzero hold nowhere."""
    two = sympy.Integer(2)
    return sympy.Add(
        sympy.Pow(sympy.Add(x, 1, evaluate=False), two, evaluate=False),
        sympy.Mul(-1, sympy.Pow(x, two, evaluate=False), evaluate=False),
        sympy.Mul(-2, x, evaluate=False),
        sympy.Integer(-1),
        evaluate=False,
    )


def one_is_zero_rules(d: sympy.Expr, y: sympy.Symbol, h: sympy.Symbol) -> list[dict]:
    """Five rule steps s4–s8 that chain ``1 = 0`` from premises s1 ``y/y = 1``, s2 ``d = 0`` and
    s3 ``0/y = 0``: ``inst`` at y := d, ``symm``, ``cong`` into h/d, ``inst``, ``trans``. Each
    holds only where d ≠ 0: nowhere, for ``d = zero_everywhere(x)``."""

    def u(cls, *args):
        return cls(*args, evaluate=False)

    one, zero, over_d = sympy.Integer(1), sympy.Integer(0), u(sympy.Pow, d, -1)
    at_d = sympy.Tuple(sympy.Tuple(y, d))
    return [
        fact_node(
            "s4",
            u(sympy.Eq, u(sympy.Mul, d, over_d), one),
            "rule",
            rule="inst",
            premises=["s1"],
            detail=at_d,
        ),
        fact_node(
            "s5", u(sympy.Eq, one, u(sympy.Mul, d, over_d)), "rule", rule="symm", premises=["s4"]
        ),
        fact_node(
            "s6",
            u(sympy.Eq, u(sympy.Mul, d, over_d), u(sympy.Mul, zero, over_d)),
            "rule",
            rule="cong",
            premises=["s2"],
            detail=sympy.Lambda(h, u(sympy.Mul, h, over_d)),
        ),
        fact_node(
            "s7",
            u(sympy.Eq, u(sympy.Mul, zero, over_d), zero),
            "rule",
            rule="inst",
            premises=["s3"],
            detail=at_d,
        ),
        fact_node("s8", u(sympy.Eq, one, zero), "rule", rule="trans", premises=["s5", "s6", "s7"]),
    ]
