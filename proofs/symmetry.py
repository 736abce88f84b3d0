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

from numeric_checks.block_training import training_checks
from numeric_checks.blocks import block_check
from numeric_checks.symmetry import symmetry_check
from proofs._cli import run, torch_wanted
from symbolic.blocks import (
    BLOCKS,
    HEADS,
    MAX_HEADS,
    BlockDecision,
    BlockForm,
    check_heads,
    decide_candidate,
    key_shift_facts,
    norm_scale_facts,
    rope_rotation_facts,
)
from symbolic.blocks import candidates as block_candidates
from symbolic.blocks.laws import LAWS
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.errors import InvalidArgument
from symbolic.kernel import negate
from symbolic.languages.layer_language import Layer, resolve_layer
from symbolic.languages.transform_language import DEFAULT_PARAM, parse_param, parse_transform
from symbolic.symmetry.family import candidates
from symbolic.symmetry.invariance import (
    CONSERVATION,
    ActivationSpec,
    SymmetryDecision,
    decide,
    shown_function,
)

PROG = "python -m proofs.symmetry"
DEFAULT_ACTIVATION = "relu"
ALL = "all"  # --activation all: every activation of the table


def activation_spec(text: str) -> ActivationSpec:
    """A table name or an expression (the whitelist parser), with a numpy implementation."""
    from numeric_checks.activations import precise_function
    from symbolic.gated.analysis import parsed_item

    label, expr, act = parsed_item(text)
    if act is None:
        return ActivationSpec(label, expr, precise_function(expr))
    return ActivationSpec(label, expr, act.numpy, act.torch_fn if act.torch else None)


def _functions(layer: Layer, sigma: ActivationSpec) -> dict[str, ActivationSpec]:
    return {
        name: sigma if name == "sigma" else activation_spec(name) for name in layer.functions
    } | {"sigma": sigma}


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
        note = (
            f"F(x; Tθ) = F(x; θ) for all x, θ ({where}; {sigma}) with "
            f"F(x) = {decision.layer.text}, T: {t}{domain}"
        )
        if decision.conserved:
            note += f"; generator A = {decision.generator}, θᵀAθ = {decision.conserved}"
    elif decision.invariant is False:
        title = f"{name} is not invariant under {t} (σ = {decision.activation})"
        note = (
            f"F(x; Tθ) ≠ F(x; θ) at a certified witness ({where}) with "
            f"F(x) = {decision.layer.text}, T: {t}{domain}"
        )
    else:
        title = f"{name} under {t}: undecided (σ = {decision.activation})"
        known = "" if where == "—" else f" ({where}: not the general answer)"
        note = f"F(x; Tθ) = F(x; θ) with F(x) = {decision.layer.text}, T: {t} — undecided{known}"
    claim = Claim(
        _claim_name(decision),
        title,
        note,
        "D",
        kind="proposition",
        assumptions=tuple(
            f"{'σ' if f == 'sigma' else shown_function(f)}(z) = {activations[f].expr}"
            for f in decision.layer.functions
        ),
        uses=("conservation.noether",) if decision.conserved else (),
        statement=decision.statement,
    )
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


def decision_json(
    decision: SymmetryDecision,
    result: Result,
    per_unit: tuple[SymmetryDecision, Result] | None = None,
) -> dict[str, Any]:
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
        "evidence": {
            "claim": result.claim.to_json(),
            "steps": result.derivation.to_json(),
            "methods": list(result.methods),
            "numeric": [n.to_json() for n in result.numeric],
        },
        "witness": None if decision.witness is None else decision.witness.to_json(),
        "generator": decision.generator,
        "conserved": decision.conserved,
        "conserved_per_unit": unit.conserved if unit else None,
        "per_unit": None
        if per_unit is None
        else {
            "transform": per_unit[0].transform.shown(),
            "invariant": per_unit[0].invariant,
            "sizes": per_unit[0].sizes,
            "steps": per_unit[1].derivation.to_json(),
        },
        "conserved_by": CONSERVATION if decision.conserved else None,
    }


def _per_unit(
    decision: SymmetryDecision, activations, torch: bool = False
) -> tuple[SymmetryDecision, Result] | None:
    """For an invariant whole-matrix scaling of parameters with units: the same unit by unit
    (its conserved quantity is per unit, ``‖q_j‖² − ‖k_j‖²``)."""
    layer, unit = decision.layer, decision.transform.per_unit()
    if (
        not decision.conserved
        or unit is None
        or any(layer.shape_of(s.target.name)[0] != "n" for s in unit.substitutions)
    ):
        return None
    d = decide(layer, unit, activations)
    return d, symmetry_result(d, activations, torch)


def _cell(v: bool | None) -> str:
    return "?" if v is None else "yes" if v else "no"


def symmetry_table(decisions: Sequence[SymmetryDecision]) -> Table:
    rows = tuple(
        (
            d.activation,
            d.transform.shown(),
            _cell(d.invariant),
            ("every σ" if d.every_sigma else "σ's facts")
            if d.invariant
            else ("witness" if d.invariant is False else "—"),
            d.sizes,
            d.conserved or "—",
        )
        for d in decisions
    )
    return Table(
        "symmetries",
        "Which transformations leave the layer unchanged",
        ("activation", "transform", "invariant", "by", "sizes", "conserved"),
        rows,
        notes=(
            f"conserved: θᵀAθ for the generator A of a one-parameter group of "
            f"scalings; {CONSERVATION}.",
        ),
    )


def symmetry_report(
    layer: str = "gated",
    transform: str | None = None,
    param: str = DEFAULT_PARAM,
    activation: str = DEFAULT_ACTIVATION,
    discover: bool = False,
    torch: bool = False,
    heads: int | str | None = None,
) -> Report:
    """Decide ``transform`` (or, with ``discover``, the candidate family) for ``layer``;
    ``torch``: add the cross-checks with torch's real functions (the command line does, when
    torch is installed and ``--no-torch`` is not given); ``heads``: a block's number of heads
    (default 2; only for blocks)."""
    if isinstance(layer, str) and layer.strip() in BLOCKS:
        h = check_heads(HEADS if heads is None else heads)
        if discover and transform is not None:
            raise InvalidArgument(
                "--discover decides its own candidate transforms; drop --transform (or --discover)"
            )
        if not discover and transform is None:
            raise InvalidArgument(
                "--transform is required (or --discover for the candidate family)"
            )
        if activation != DEFAULT_ACTIVATION:
            raise InvalidArgument(
                f"--activation applies to layers, not to {layer.strip()} (a block's MLP has its "
                "own activation)"
            )
        if param != DEFAULT_PARAM and (discover or any(c in param for c in "<>=")):
            raise InvalidArgument(
                f"--param {param!r}: a block's transform takes group elements ('A in GL', "
                "'A in O', 'D diagonal'), and --discover none"
            )
        if discover:
            return block_report(layer.strip(), torch=torch, heads=h)
        return block_transform_report(layer.strip(), transform, param, heads=h)
    if heads is not None:
        raise InvalidArgument(
            f"--heads applies to the blocks ({', '.join(BLOCKS)}), not to {str(layer)[:40]!r}"
        )
    parsed = resolve_layer(layer)
    a = parse_param(param)
    if not discover and transform is None:
        raise InvalidArgument("--transform is required (or --discover for the candidate family)")
    if discover and transform is not None:
        raise InvalidArgument(
            "--discover decides its own candidate transforms; drop --transform (or --discover)"
        )
    from symbolic.activations import ACTIVATIONS

    texts = list(ACTIVATIONS) if activation.strip() == ALL else [activation]
    decisions, results, objects, rows = [], [], [], []
    for text in texts:
        activations = _functions(parsed, activation_spec(text))
        wanted = candidates(parsed, activations["sigma"], a.name) if discover else [transform]
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
    return Report(
        "proofs.symmetry",
        f"Symmetries of {_layer_name(parsed)}",
        "D",
        tuple(results),
        (symmetry_table(rows),),
        data=data,
    )


def symmetry_json(report: Report, args: argparse.Namespace) -> Any:
    """One object for one decision; with ``--discover`` one object per activation listing its
    ``symmetries``; a list when several activations were decided."""
    if "block_json" in report.data:
        return report.data["block_json"]
    decisions = report.data["decisions"]
    if not report.data["discover"]:
        return decisions[0] if len(decisions) == 1 else decisions
    tables = [
        {
            "layer": report.title.removeprefix("Symmetries of "),
            "activation": act,
            "symmetries": [d for d in decisions if d["activation"] == act],
        }
        for act in dict.fromkeys(d["activation"] for d in decisions)
    ]
    return tables[0] if len(tables) == 1 else tables


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layer",
        default="gated",
        metavar="NAME_OR_EXPR",
        help="a layer table name (mlp, gated, symmetric_rank1, static_query), "
        "a block (llama_block, gpt2_block; with --discover) or an "
        "expression such as '(sigma(x @ Q.T) * (x @ K.T)) @ V'",
    )
    parser.add_argument(
        "--transform",
        metavar="SUBSTITUTION",
        help="e.g. 'Q -> K, K -> Q', 'Q -> a*Q, K -> K/a', 'Q[j] -> a*Q[j], K[j] -> K[j]/a'",
    )
    parser.add_argument(
        "--param",
        default=DEFAULT_PARAM,
        metavar="DOMAIN",
        help="the transform's parameter: 'a > 0' (default), 'a < 0', 'a != 0'",
    )
    parser.add_argument(
        "--activation",
        default=DEFAULT_ACTIVATION,
        metavar="EXPR_OR_NAME",
        help="σ: a table name, an expression in x, or 'all' (default relu)",
    )
    parser.add_argument(
        "--discover",
        action="store_true",
        help="decide the standard candidate family (docs/symmetry.md)",
    )
    parser.add_argument(
        "--heads",
        default=None,
        metavar="H",
        help=f"a block's number of attention heads, 1 to {MAX_HEADS} (default {HEADS}); every "
        "claim holds for the H stated",
    )


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "torch": torch_wanted(args),
        "layer": args.layer,
        "transform": args.transform,
        "param": args.param,
        "activation": args.activation,
        "discover": args.discover,
        "heads": args.heads,
    }


# --- blocks: --layer llama_block / gpt2_block -------------------------------------------------
# ``python -m proofs.symmetry --layer llama_block --discover`` (and ``gpt2_block``): the block's
# symmetries, each a claim whose statement is the formula of its last kernel-checked step.
#
# * the attention sub-layer's candidates (``symbolic.blocks``): head permutation, GL(r) of QK and
#   of VO, norm-gain absorption — proved at general T, d, r with 2 heads, or broken by a certified
#   witness (full GL(r) of QK with RoPE);
# * RoPE-commuting rotations (llama): the scores' entry at symbolic positions, 1 and 2 planes;
# * the softmax shift realised by the key bias (gpt2);
# * pre-norm scale invariance X → cX: RMSNorm(cX) = RMSNorm(X) at ε = 0; broken with ε > 0 and for
#   the residual sum;
# * the MLP's unit symmetries, per token, in the layer language (``symbolic.symmetry.invariance``):
#   unit permutation at every n ≥ 2, per-unit scalings as the activation allows;
# * the conservation laws of the continuous groups (``symbolic.blocks.laws``), with the SGD drift
#   measured (``numeric_checks.block_training``).

BLOCK_SOURCE = "D"


def _claim(name: str, title: str, note: str, steps: tuple[Step, ...], uses=()) -> Claim:
    return Claim(
        name, title, note, BLOCK_SOURCE, kind="proposition", uses=uses, statement=steps[-1].formula
    )


def _row(part: str, symmetry: str, outcome: str, sizes: str, conserved: str = "—"):
    return (part, symmetry, outcome, sizes, conserved)


def _candidate_result(block: BlockForm, dec: BlockDecision) -> Result:
    c = dec.candidate
    verb = {
        "invariant": "is invariant under",
        "broken": "is not invariant under",
        "unknown": "undecided under",
    }[dec.outcome]
    note = f"{c.text} ({dec.sizes})"
    if dec.invariant and c.conserved:
        note += f"; conserved along gradient flow: {c.conserved}"
    whole = dec.invariant is True and len(dec.steps) > 1  # carried to the block by cong
    claim = _claim(
        f"symmetry.{block.name}.{_slug(c.name)}",
        f"{block.name} {verb} {c.name} (its attention sub-layer, then the block by cong)"
        if whole
        else f"{block.name}'s attention sub-layer {verb} {c.name}",
        note,
        dec.steps,
    )
    return Result(claim, Derivation(dec.steps), block_check(block, dec))


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")[:40]


def _rope_result(block: BlockForm) -> Result:
    facts = rope_rotation_facts()
    steps = tuple(
        Step(
            f,
            "rational identity (kernel)",
            note=f"{n} RoPE plane{'s' if n > 1 else ''}: "
            "A = a I + b J in each plane, the rotations at positions t, s symbolic",
        )
        for n, f in zip((1, 2), facts, strict=True)
    )
    claim = _claim(
        f"symmetry.{block.name}.rope_commuting_rotations",
        f"{block.name}: rotations commuting with RoPE keep the scores",
        "rope(q A, t)·rope(k A^{−T}, s)ᵀ = rope(q, t)·rope(k, s)ᵀ for A = ⊕ (a_i I + b_i J) "
        "in RoPE's planes (the matrices commuting with every rotation: scaled rotations, "
        "a_i² + b_i² ≠ 0; r = 2 and r = 4), every position and frequency (the rotations' "
        "cosines and sines symbolic); the sub-layer depends on W_Q, W_K only through "
        "these scores",
        steps,
    )
    return Result(claim, Derivation(steps))


def _key_shift_result(block: BlockForm) -> Result:
    moved, shift = key_shift_facts(block)
    steps = (
        Step(
            moved,
            "matrix algebra (kernel)",
            note="b_K,0 → b_K,0 + c moves each row of "
            "head 0's scores by a constant: S + (Q cᵀ/√r)·1ᵀ",
        ),
        Step(
            shift,
            "sum normal form (kernel)",
            note="softmax(s + u·1) = softmax(s), row by row, general T",
        ),
    )
    claim = _claim(
        f"symmetry.{block.name}.softmax_shift",
        f"{block.name}: the key bias only "
        "shifts softmax's rows (Kunin et al. 2021's translation symmetry)",
        "b_K,0 → b_K,0 + c for every c ∈ ℝ^{1×r}; its gradient is 0",
        steps,
    )
    return Result(claim, Derivation(steps))


def _norm_scale_results(block: BlockForm) -> list[Result]:
    if block.norm != "rms":
        return []
    exact, with_eps, residual = norm_scale_facts()
    out = [
        Result(
            _claim(
                f"symmetry.{block.name}.prenorm_scale",
                "a pre-norm sub-layer f(RMSNorm(X)) is invariant under X → cX, c > 0 (ε = 0)",
                "entry (t, i) of RMSNorm, general d",
                (s := (Step(exact, "sum normal form (kernel)"),)),
            ),
            Derivation(s),
        )
    ]
    for fact, what in (
        (with_eps, "with ε = 10⁻⁵ RMSNorm(cX) ≠ RMSNorm(X)"),
        (residual, "the residual sum X + RMSNorm(X)·W is not invariant"),
    ):
        steps = (Step(negate(fact), "certified witness (kernel)"),)
        out.append(
            Result(
                _claim(
                    f"symmetry.{block.name}.prenorm_scale_{_slug(what)[:12]}",
                    f"X → cX: {what}",
                    "d = 1, c = 2",
                    steps,
                ),
                Derivation(steps),
            )
        )
    return out


# With biases, the matrix a law's identity is about: each bias moves with the weight it is
# stacked with (the norm's bias b moves with its gain G, not with the W's).
STACKED = {
    "qk": "W_Q and W_K each with its bias row",
    "vo": "W_V with its bias row b_V",
    "gain": "G with the norm's bias b, so g_i² + b_i² − Σ ‖W_i,:‖²",
    "shift": "the key bias alone, nothing stacked",
}


def _law_results(
    wanted: set[str], torch: bool = False, norm: str = "rms", biases: bool = False
) -> list[Result]:
    """The laws of the continuous groups found, with the numpy SGD checks and, with ``torch``,
    real torch training of a small block with the block's norm (``numeric_checks.block_torch``;
    a LayerNorm's bias moves with its gain)."""
    from numeric_checks.block_torch import law_checks

    training = training_checks()
    trained = law_checks(norm=norm) if torch else {}
    by_law = {
        "qk": [c for c in training if "W_Qᵀ" in c.name],
        "vo": [c for c in training if "W_Vᵀ" in c.name],
        "shift": [c for c in training if "key bias" in c.name],
        "gain": [],
    }
    out = []
    for key in ("qk", "vo", "gain", "shift"):
        if key not in wanted:
            continue
        law = LAWS[key](biases)  # with biases: the stacked quantity, the one conserved
        steps = (
            Step(
                law.fact,
                "chain rule written into the formula; matrix algebra (kernel)",
                note=f"{law.group}: d/dt of {law.quantity} along θ̇ = −∇L",
            ),
        )
        claim = _claim(
            f"conservation.block.{key}",
            f"conserved along gradient flow: {law.quantity}",
            f"the law of {law.group}; one SGD step changes it by "
            "exactly η²(…), no first-order term (with biases, the same identity for the "
            f"stacked matrix: {STACKED[key]})",
            steps,
            uses=("conservation.noether",),
        )
        out.append(Result(claim, Derivation(steps), tuple(by_law[key]) + trained.get(key, ())))
    return out


def _mlp_results(block: BlockForm, torch: bool) -> tuple[list[Result], list, list]:
    from symbolic.languages.layer_language import parse_layer

    layer = parse_layer(block.mlp)
    acts = _functions(layer, activation_spec(block.mlp_activation))
    results, rows, objects = [], [], []
    a = parse_param(DEFAULT_PARAM)
    for text in candidates(layer, acts["sigma"]):  # the family, per the activation's facts
        t = parse_transform(text, layer, a)
        if any(s.source.name != s.target.name for s in t.substitutions):
            continue  # an exchange of W1, W3, W2: no symmetry of an MLP's units to look for
        d = decide(layer, t, acts)
        res = symmetry_result(d, acts, torch)
        results.append(res)
        rows.append(_row("MLP (per token)", text, d.outcome, d.sizes, d.conserved or "—"))
        objects.append(decision_json(d, res))
    return results, rows, objects


def block_report(name: str, torch: bool = False, heads: int = HEADS) -> Report:
    """Every candidate of the block decided (see the module docstring), with ``heads`` heads."""
    block = BLOCKS[name]
    results, rows, objects = [], [], []
    laws = set()
    for cand in block_candidates(block, heads):
        dec = decide_candidate(block, cand, heads)
        res = _candidate_result(block, dec)
        results.append(res)
        rows.append(
            _row(
                "attention",
                cand.name,
                dec.outcome,
                dec.sizes,
                cand.conserved if dec.invariant and cand.conserved else "—",
            )
        )
        objects.append(_block_json(dec, res))
        if dec.invariant and cand.law:
            laws.add(cand.law)
    if block.rope:
        res = _rope_result(block)
        results.append(res)
        rows.append(
            _row(
                "attention",
                "RoPE-commuting rotations",
                _outcome(res),
                "r = 2 and 4; positions symbolic",
            )
        )
    if block.biases:
        res = _key_shift_result(block)
        results.append(res)
        rows.append(
            _row(
                "attention",
                "softmax shift (key bias)",
                _outcome(res),
                "general T",
                "b_K (gradient 0)",
            )
        )
        laws.add("shift")
    for res in _norm_scale_results(block):
        results.append(res)
        rows.append(
            _row(
                "norm",
                res.claim.title,
                _outcome(res),
                "general d" if res.claim.name.endswith("prenorm_scale") else "d = 1",
            )
        )
    mlp, mlp_rows, mlp_objects = _mlp_results(block, torch)
    results += mlp
    rows += mlp_rows
    objects += mlp_objects
    for res in _law_results(laws, torch, block.norm, block.biases):
        results.append(res)
        rows.append(_row("law", res.claim.title, _outcome(res), "general d, r"))
    table = Table(
        "block_symmetries",
        f"Symmetries of {name} with {heads} head{'s' if heads != 1 else ''}: {block.title}",
        ("part", "symmetry", "decision", "sizes", "conserved"),
        tuple(rows),
        notes=(
            "invariant: the kernel proved the sub-layer identity; broken: a "
            "certified witness; the block depends on these parameters only "
            f"through the sub-layer shown; the attention claims are decided for H = {heads} "
            "heads (--heads).",
        ),
    )
    data = {
        "discover": True,
        "decisions": objects,
        "block_json": {
            "layer": name,
            "title": block.title,
            "heads": heads,
            "symmetries": objects,
        },
    }
    return Report(
        "proofs.symmetry",
        f"Symmetries of {name}",
        BLOCK_SOURCE,
        tuple(results),
        (table,),
        data=data,
    )


def _outcome(res: Result) -> str:
    if res.status == "proved":
        return "broken" if res.derivation.steps[-1].formula.func.__name__ == "Not" else "invariant"
    return res.status


def _block_json(dec: BlockDecision, res: Result) -> dict[str, Any]:
    return {
        "part": "attention",
        "symmetry": dec.candidate.name,
        "transform": dec.candidate.text,
        "decision": dec.outcome,
        "status": res.status,
        "sizes": dec.sizes,
        "heads": dec.heads,
        "conserved": dec.candidate.conserved if dec.invariant else None,
        "witness": None
        if dec.witness is None
        else {
            "sizes": dec.witness["sizes"],
            "entry": list(dec.witness["entry"]),
            "values": {
                k: [[str(v) for v in row] for row in m.tolist()]
                for k, m in dec.witness["values"].items()
            },
            "group": {
                k: [[str(v) for v in row] for row in m.tolist()]
                for k, m in dec.witness["group"].items()
            },
            "difference": str(dec.witness["difference"])[:400],
        },
        "evidence": {
            "claim": res.claim.to_json(),
            "steps": res.derivation.to_json(),
            "numeric": [n.to_json() for n in res.numeric],
        },
    }


def block_transform_report(
    name: str, transform: str, param: str | None, heads: int = HEADS
) -> Report:
    """One typed matrix transform of the block's attention sub-layer, decided."""
    from symbolic.blocks.transform import parse_block_transform, parse_groups

    block = BLOCKS[name]
    cand = parse_block_transform(transform, block, parse_groups(param), heads)
    dec = decide_candidate(block, cand, heads)
    res = _candidate_result(block, dec)
    table = Table(
        "block_symmetries",
        f"{name}: {cand.text}",
        ("part", "symmetry", "decision", "sizes", "conserved"),
        (_row("attention", cand.text, dec.outcome, dec.sizes),),
    )
    obj = _block_json(dec, res) | {"heads": heads}
    return Report(
        "proofs.symmetry",
        f"Symmetries of {name}",
        BLOCK_SOURCE,
        (res,),
        (table,),
        data={"discover": False, "decisions": [obj], "block_json": obj},
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run(symmetry_report, __doc__, PROG, add_arguments, _options, argv, symmetry_json)


if __name__ == "__main__":
    raise SystemExit(main())
