"""Symmetries of any layer, decided (docs/theory.md, item D).

Is a layer ``F(x; θ)`` invariant under a transformation ``T`` of its parameters? The answer is
*yes* with a kernel-checked proof (at general n, d where the matrix algebra carries it, else at
explicit sizes, said which), *no* with a certified witness (exact x, parameters and ``a``, and
an entry of ``F(x; Tθ) − F(x; θ)`` certified nonzero), or *unknown* at the bounds. A decided
answer is a proved claim (exit 0), as in ``proofs.exchange`` where "SiLU breaks Q ↔ K" is
proved; unknown exits 3, bad input 2. For a one-parameter group of scalings the generator A and,
when the layer is invariant, the conserved quantity θᵀAθ are reported (conserved along
gradient flow by Part D's Noether theorem, proved in ``proofs.conservation``).

Run ``python -m proofs.symmetry --layer gated --transform "Q -> K, K -> Q" --activation silu``
(``--json``, ``--latex``, ``-v``); ``--discover`` decides the standard candidate family
(``--activation all``: for every activation of the table). See docs/symmetry.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from numeric_checks.symmetry import symmetry_check
from proofs._cli import run, torch_wanted
from symbolic.engine import Claim, Derivation, Report, Result, Table
from symbolic.errors import InvalidArgument
from symbolic.layer_language import Layer, resolve_layer
from symbolic.symmetry import CONSERVATION, ActivationSpec, SymmetryDecision, decide
from symbolic.symmetry_family import candidates
from symbolic.transform_language import DEFAULT_PARAM, parse_param, parse_transform

PROG = "python -m proofs.symmetry"
DEFAULT_ACTIVATION = "relu"
ALL = "all"  # --activation all: every activation of the table


def activation_spec(text: str) -> ActivationSpec:
    """A table name or an expression (the whitelist parser), with a numpy implementation."""
    from numeric_checks.activations import precise_function
    from symbolic.analysis import parsed_item

    label, expr, act = parsed_item(text)
    if act is None:
        return ActivationSpec(label, expr, precise_function(expr))
    return ActivationSpec(label, expr, act.numpy, act.torch_fn if act.torch else None)


def _functions(layer: Layer, sigma: ActivationSpec) -> dict[str, ActivationSpec]:
    return {name: sigma if name == "sigma" else activation_spec(name)
            for name in layer.functions} | {"sigma": sigma}


def _layer_name(layer: Layer) -> str:
    return layer.table_name or "the layer"


def symmetry_result(decision: SymmetryDecision, activations, torch: bool = False) -> Result:
    """The decided answer as a proved claim (or an unknown one), with its numeric checks."""
    t, name = decision.transform.shown(), _layer_name(decision.layer)
    domain = f" ({decision.transform.domain})" if decision.transform.one_parameter else ""
    where = decision.sizes
    sigma = "every σ" if decision.every_sigma else f"σ = {decision.activation}"
    if decision.invariant is True:
        title = f"{name} is invariant under {t}"
        note = (f"F(x; Tθ) = F(x; θ) for all x, θ ({where}; {sigma}) with "
                f"F(x) = {decision.layer.text}, T: {t}{domain}")
        if decision.conserved:
            note += f"; generator A = {decision.generator}, θᵀAθ = {decision.conserved}"
    elif decision.invariant is False:
        title = f"{name} is not invariant under {t} (σ = {decision.activation})"
        note = (f"F(x; Tθ) ≠ F(x; θ) at a certified witness ({where}) with "
                f"F(x) = {decision.layer.text}, T: {t}{domain}")
    else:
        title = f"{name} under {t}: undecided (σ = {decision.activation})"
        known = "" if where == "—" else f" ({where}: not the general answer)"
        note = (f"F(x; Tθ) = F(x; θ) with F(x) = {decision.layer.text}, T: {t} — undecided"
                f"{known}")
    claim = Claim(_claim_name(decision), title, note, "D", kind="proposition",
                  assumptions=tuple(f"{'σ' if f == 'sigma' else f}(z) = {activations[f].expr}"
                                    for f in decision.layer.functions),
                  uses=("conservation.noether",) if decision.conserved else (),
                  statement=decision.statement)
    return Result(claim, Derivation(decision.steps), symmetry_check(decision, activations, torch))


def _claim_name(decision: SymmetryDecision) -> str:
    """``symmetry.<layer>.<activation>.<digest of layer, transform, activation>``: short, and
    distinct for distinct questions."""
    import hashlib

    def slug(text: str) -> str:
        return "".join(ch if ch.isalnum() else "_" for ch in text)[:24]

    key = f"{decision.layer.text}|{decision.transform.shown()}|{decision.activation}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    return f"symmetry.{slug(_layer_name(decision.layer))}.{slug(decision.activation)}.{digest}"


def decision_json(decision: SymmetryDecision, result: Result,
                  per_unit: tuple[SymmetryDecision, Result] | None = None) -> dict[str, Any]:
    unit = per_unit[0] if per_unit and per_unit[0].invariant else None
    return {
        "layer": decision.layer.table_name or decision.layer.text,
        "layer_expression": decision.layer.text,
        "transform": decision.transform.text,
        "transform_parsed": decision.transform.shown(),
        "param": decision.transform.domain,
        "activation": decision.activation,
        "invariant": decision.invariant,
        "status": result.status,  # the claim's: proved, unknown or failed
        "decision": decision.outcome,  # invariant, broken or unknown
        "sizes": decision.sizes,
        "every_sigma": decision.every_sigma,
        "evidence": {"claim": result.claim.to_json(), "steps": result.derivation.to_json(),
                     "methods": list(result.methods),
                     "numeric": [n.to_json() for n in result.numeric]},
        "witness": None if decision.witness is None else decision.witness.to_json(),
        "generator": decision.generator,
        "conserved": decision.conserved,
        "conserved_per_unit": unit.conserved if unit else None,
        "per_unit": None if per_unit is None else {
            "transform": per_unit[0].transform.shown(), "invariant": per_unit[0].invariant,
            "sizes": per_unit[0].sizes, "steps": per_unit[1].derivation.to_json()},
        "conserved_by": CONSERVATION if decision.conserved else None,
    }


def _per_unit(decision: SymmetryDecision, activations, torch: bool = False
              ) -> tuple[SymmetryDecision, Result] | None:
    """For an invariant whole-matrix scaling of parameters with units: the same unit by unit
    (its conserved quantity is per unit, ``‖q_j‖² − ‖k_j‖²``)."""
    layer, unit = decision.layer, decision.transform.per_unit()
    if not decision.conserved or unit is None or any(
            layer.shape_of(s.target.name)[0] != "n" for s in unit.substitutions):
        return None
    d = decide(layer, unit, activations)
    return d, symmetry_result(d, activations, torch)


def _cell(v: bool | None) -> str:
    return "?" if v is None else "yes" if v else "no"


def symmetry_table(decisions: Sequence[SymmetryDecision]) -> Table:
    rows = tuple((d.activation, d.transform.shown(), _cell(d.invariant),
                  ("every σ" if d.every_sigma else "σ's facts") if d.invariant else
                  ("witness" if d.invariant is False else "—"),
                  d.sizes, d.conserved or "—") for d in decisions)
    return Table("symmetries", "Which transformations leave the layer unchanged",
                 ("activation", "transform", "invariant", "by", "sizes", "conserved"), rows,
                 notes=(f"conserved: θᵀAθ for the generator A of a one-parameter group of "
                        f"scalings; {CONSERVATION}.",))


def symmetry_report(layer: str = "gated", transform: str | None = None,
                    param: str = DEFAULT_PARAM, activation: str = DEFAULT_ACTIVATION,
                    discover: bool = False, torch: bool = False) -> Report:
    """Decide ``transform`` (or, with ``discover``, the candidate family) for ``layer``;
    ``torch``: add the cross-checks with torch's real functions (the command line does, when
    torch is installed and ``--no-torch`` is not given)."""
    from symbolic.blocks import BLOCKS

    if isinstance(layer, str) and layer.strip() in BLOCKS:
        from proofs._blocks import block_report, block_transform_report

        if discover and transform is not None:
            raise InvalidArgument("--discover decides its own candidate transforms; drop "
                                  "--transform (or --discover)")
        if not discover and transform is None:
            raise InvalidArgument("--transform is required (or --discover for the candidate "
                                  "family)")
        if discover:
            return block_report(layer.strip(), torch=torch)
        return block_transform_report(layer.strip(), transform, param)
    parsed = resolve_layer(layer)
    a = parse_param(param)
    if not discover and transform is None:
        raise InvalidArgument("--transform is required (or --discover for the candidate family)")
    if discover and transform is not None:
        raise InvalidArgument("--discover decides its own candidate transforms; drop --transform "
                              "(or --discover)")
    from symbolic.activations import ACTIVATIONS

    texts = list(ACTIVATIONS) if activation.strip() == ALL else [activation]
    decisions, results, objects, rows = [], [], [], []
    for text in texts:
        activations = _functions(parsed, activation_spec(text))
        wanted = candidates(parsed, activations["sigma"]) if discover else [transform]
        for t in wanted:
            d = decide(parsed, parse_transform(t, parsed, a), activations)
            r = symmetry_result(d, activations, torch)
            decisions.append(d)
            results.append(r)
            rows.append(d)
            unit = _per_unit(d, activations, torch)
            if unit is not None:
                results.append(unit[1])
                rows.append(unit[0])
            objects.append(decision_json(d, r, unit))
    data = {"decisions": objects, "discover": discover, "activations": texts}
    return Report("proofs.symmetry", f"Symmetries of {_layer_name(parsed)}", "D",
                  tuple(results), (symmetry_table(rows),), data=data)


def symmetry_json(report: Report, args: argparse.Namespace) -> Any:
    """One object for one decision; with ``--discover`` one object per activation listing its
    ``symmetries``; a list when several activations were decided."""
    if "block_json" in report.data:
        return report.data["block_json"]
    decisions = report.data["decisions"]
    if not report.data["discover"]:
        return decisions[0] if len(decisions) == 1 else decisions
    tables = [{"layer": report.title.removeprefix("Symmetries of "), "activation": act,
               "symmetries": [d for d in decisions if d["activation"] == act]}
              for act in dict.fromkeys(d["activation"] for d in decisions)]
    return tables[0] if len(tables) == 1 else tables


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layer", default="gated", metavar="NAME_OR_EXPR",
                        help="a layer table name (mlp, gated, symmetric_rank1, static_query), "
                             "a block (llama_block, gpt2_block; with --discover) or an "
                             "expression such as '(sigma(x @ Q.T) * (x @ K.T)) @ V'")
    parser.add_argument("--transform", metavar="SUBSTITUTION",
                        help="e.g. 'Q -> K, K -> Q', 'Q -> a*Q, K -> K/a', "
                             "'Q[j] -> a*Q[j], K[j] -> K[j]/a'")
    parser.add_argument("--param", default=DEFAULT_PARAM, metavar="DOMAIN",
                        help="the transform's parameter: 'a > 0' (default), 'a < 0', 'a != 0'")
    parser.add_argument("--activation", default=DEFAULT_ACTIVATION, metavar="EXPR_OR_NAME",
                        help="σ: a table name, an expression in x, or 'all' (default relu)")
    parser.add_argument("--discover", action="store_true",
                        help="decide the standard candidate family (docs/symmetry.md)")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {"torch": torch_wanted(args),
            "layer": args.layer, "transform": args.transform, "param": args.param,
            "activation": args.activation, "discover": args.discover}


def main(argv: Sequence[str] | None = None) -> int:
    return run(symmetry_report, __doc__, PROG, add_arguments, _options, argv, symmetry_json)


if __name__ == "__main__":
    raise SystemExit(main())
