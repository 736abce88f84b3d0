"""``python -m proofs.symmetry --layer llama_block --discover`` (and ``gpt2_block``): the block's
symmetries, each a claim whose statement is the formula of its last kernel-checked step.

* the attention sub-layer's candidates (``symbolic.blocks``): head permutation, GL(r) of QK and
  of VO, norm-gain absorption — proved at general T, d, r with 2 heads, or broken by a certified
  witness (full GL(r) of QK with RoPE);
* RoPE-commuting rotations (llama): the scores' entry at symbolic positions, 1 and 2 planes;
* the softmax shift realised by the key bias (gpt2);
* pre-norm scale invariance X → cX: RMSNorm(cX) = RMSNorm(X) at ε = 0; broken with ε > 0 and for
  the residual sum;
* the MLP's unit symmetries, per token, in the layer language (``symbolic.symmetry.decide``):
  unit permutation at every n ≥ 2, per-unit scalings as the activation allows;
* the conservation laws of the continuous groups (``symbolic.block_laws``), with the SGD drift
  measured (``numeric_checks.block_training``).
"""

from __future__ import annotations

from typing import Any

from numeric_checks.block_training import training_checks
from numeric_checks.blocks import block_check
from symbolic.block_laws import LAWS
from symbolic.blocks import (
    BLOCKS,
    BlockDecision,
    BlockForm,
    candidates,
    decide_candidate,
    key_shift_facts,
    norm_scale_facts,
    rope_rotation_facts,
)
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.kernel import negate

SOURCE = "D"


def _claim(name: str, title: str, note: str, steps: tuple[Step, ...], uses=()) -> Claim:
    return Claim(name, title, note, SOURCE, kind="proposition", uses=uses,
                 statement=steps[-1].formula)


def _row(part: str, symmetry: str, outcome: str, sizes: str, conserved: str = "—"):
    return (part, symmetry, outcome, sizes, conserved)


def _candidate_result(block: BlockForm, dec: BlockDecision) -> Result:
    c = dec.candidate
    verb = {"invariant": "is invariant under", "broken": "is not invariant under",
            "unknown": "undecided under"}[dec.outcome]
    note = f"{c.text} ({dec.sizes})"
    if dec.invariant and c.conserved:
        note += f"; conserved along gradient flow: {c.conserved}"
    claim = _claim(f"symmetry.{block.name}.{_slug(c.name)}",
                   f"{block.name}'s attention sub-layer {verb} {c.name}", note, dec.steps)
    return Result(claim, Derivation(dec.steps), block_check(block, dec))


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")[:40]


def _rope_result(block: BlockForm) -> Result:
    facts = rope_rotation_facts()
    steps = tuple(Step(f, "trigonometry (kernel)", note=f"{n} RoPE plane{'s' if n > 1 else ''}: "
                       "A a rotation in each plane, positions t, s and angles symbolic")
                  for n, f in zip((1, 2), facts, strict=True))
    claim = _claim(f"symmetry.{block.name}.rope_commuting_rotations",
                   f"{block.name}: rotations commuting with RoPE keep the scores",
                   "rope(q A, t)·rope(k A, s)ᵀ = rope(q, t)·rope(k, s)ᵀ for A = ⊕ R(α_i) in "
                   "RoPE's planes (r = 2 and r = 4; A^{−T} = A); the sub-layer depends on "
                   "W_Q, W_K only through these scores", steps)
    return Result(claim, Derivation(steps))


def _key_shift_result(block: BlockForm) -> Result:
    moved, shift = key_shift_facts(block)
    steps = (Step(moved, "matrix algebra (kernel)", note="b_K,0 → b_K,0 + c moves each row of "
                  "head 0's scores by a constant: S + (Q cᵀ/√r)·1ᵀ"),
             Step(shift, "sum normal form (kernel)", note="softmax(s + u·1) = softmax(s), "
                  "row by row, general T"))
    claim = _claim(f"symmetry.{block.name}.softmax_shift", f"{block.name}: the key bias only "
                   "shifts softmax's rows (Kunin et al. 2021's translation symmetry)",
                   "b_K,0 → b_K,0 + c for every c ∈ ℝ^{1×r}; its gradient is 0", steps)
    return Result(claim, Derivation(steps))


def _norm_scale_results(block: BlockForm) -> list[Result]:
    if block.norm != "rms":
        return []
    exact, with_eps, residual = norm_scale_facts()
    out = [Result(_claim(f"symmetry.{block.name}.prenorm_scale",
                         "a pre-norm sub-layer f(RMSNorm(X)) is invariant under X → cX, c > 0 "
                         "(ε = 0)", "entry (t, i) of RMSNorm, general d", (s := (Step(
                             exact, "sum normal form (kernel)"),))), Derivation(s))]
    for fact, what in ((with_eps, "with ε = 10⁻⁵ RMSNorm(cX) ≠ RMSNorm(X)"),
                       (residual, "the residual sum X + RMSNorm(X)·W is not invariant")):
        steps = (Step(negate(fact), "certified witness (kernel)"),)
        out.append(Result(_claim(f"symmetry.{block.name}.prenorm_scale_{_slug(what)[:12]}",
                                 f"X → cX: {what}", "d = 1, c = 2", steps), Derivation(steps)))
    return out


def _law_results(wanted: set[str]) -> list[Result]:
    training = training_checks()
    by_law = {"qk": [c for c in training if "W_Qᵀ" in c.name],
              "vo": [c for c in training if "W_Vᵀ" in c.name],
              "shift": [c for c in training if "key bias" in c.name], "gain": []}
    out = []
    for key in ("qk", "vo", "gain", "shift"):
        if key not in wanted:
            continue
        law = LAWS[key]()
        steps = (Step(law.fact, "chain rule written into the formula; matrix algebra (kernel)",
                      note=f"{law.group}: d/dt of {law.quantity} along θ̇ = −∇L"),)
        claim = _claim(f"conservation.block.{key}", f"conserved along gradient flow: "
                       f"{law.quantity}", f"the law of {law.group}; one SGD step changes it by "
                       "exactly η²(…), no first-order term (with biases: W stacked with its "
                       "bias row, the same identity)", steps,
                       uses=("conservation.noether",))
        out.append(Result(claim, Derivation(steps), tuple(by_law[key])))
    return out


MLP_CANDIDATES = {
    "llama_block": ("W1[0] -> W1[1], W1[1] -> W1[0], W3[0] -> W3[1], W3[1] -> W3[0], "
                    "W2[0] -> W2[1], W2[1] -> W2[0]",
                    "W3[j] -> a*W3[j], W2[j] -> W2[j]/a",
                    "W1[j] -> a*W1[j], W2[j] -> W2[j]/a"),
    "gpt2_block": ("W1[0] -> W1[1], W1[1] -> W1[0], W2[0] -> W2[1], W2[1] -> W2[0]",
                   "W1[j] -> a*W1[j], W2[j] -> W2[j]/a"),
}


def _mlp_results(block: BlockForm, torch: bool) -> tuple[list[Result], list, list]:
    from proofs.symmetry import _functions, activation_spec, decision_json, symmetry_result
    from symbolic.layer_language import parse_layer
    from symbolic.symmetry import decide
    from symbolic.transform_language import parse_param, parse_transform

    layer = parse_layer(block.mlp)
    acts = _functions(layer, activation_spec(block.mlp_activation))
    results, rows, objects = [], [], []
    for text in MLP_CANDIDATES[block.name]:
        d = decide(layer, parse_transform(text, layer, parse_param("a != 0")), acts)
        res = symmetry_result(d, acts, torch)
        results.append(res)
        rows.append(_row("MLP (per token)", text, d.outcome, d.sizes, d.conserved or "—"))
        objects.append(decision_json(d, res))
    return results, rows, objects


def block_report(name: str, torch: bool = False) -> Report:
    """Every candidate of the block decided (see the module docstring)."""
    block = BLOCKS[name]
    results, rows, objects = [], [], []
    laws = set()
    for cand in candidates(block):
        dec = decide_candidate(block, cand)
        res = _candidate_result(block, dec)
        results.append(res)
        rows.append(_row("attention", cand.name, dec.outcome, dec.sizes,
                         cand.conserved if dec.invariant and cand.conserved else "—"))
        objects.append(_block_json(dec, res))
        if dec.invariant and cand.law:
            laws.add(cand.law)
    if block.rope:
        res = _rope_result(block)
        results.append(res)
        rows.append(_row("attention", "RoPE-commuting rotations", _outcome(res),
                         "r = 2 and 4; positions symbolic"))
    if block.biases:
        res = _key_shift_result(block)
        results.append(res)
        rows.append(_row("attention", "softmax shift (key bias)", _outcome(res), "general T",
                         "b_K (gradient 0)"))
        laws.add("shift")
    for res in _norm_scale_results(block):
        results.append(res)
        rows.append(_row("norm", res.claim.title, _outcome(res), "general d" if
                         res.claim.name.endswith("prenorm_scale") else "d = 1"))
    mlp, mlp_rows, mlp_objects = _mlp_results(block, torch)
    results += mlp
    rows += mlp_rows
    objects += mlp_objects
    for res in _law_results(laws):
        results.append(res)
        rows.append(_row("law", res.claim.title, _outcome(res), "general d, r"))
    table = Table("block_symmetries", f"Symmetries of {name}: {block.title}",
                  ("part", "symmetry", "decision", "sizes", "conserved"), tuple(rows),
                  notes=("invariant: the kernel proved the sub-layer identity; broken: a "
                         "certified witness; the block depends on these parameters only "
                         "through the sub-layer shown.",))
    data = {"discover": True, "decisions": objects,
            "block_json": {"layer": name, "title": block.title, "symmetries": objects}}
    return Report("proofs.symmetry", f"Symmetries of {name}", SOURCE, tuple(results), (table,),
                  data=data)


def _outcome(res: Result) -> str:
    if res.status == "proved":
        return "broken" if res.derivation.steps[-1].formula.func.__name__ == "Not" else \
            "invariant"
    return res.status


def _block_json(dec: BlockDecision, res: Result) -> dict[str, Any]:
    return {"part": "attention", "symmetry": dec.candidate.name,
            "transform": dec.candidate.text, "decision": dec.outcome, "status": res.status,
            "sizes": dec.sizes, "conserved": dec.candidate.conserved if dec.invariant else None,
            "witness": None if dec.witness is None else {
                "sizes": dec.witness["sizes"], "entry": list(dec.witness["entry"]),
                "values": {k: [[str(v) for v in row] for row in m.tolist()]
                           for k, m in dec.witness["values"].items()},
                "group": {k: [[str(v) for v in row] for row in m.tolist()]
                          for k, m in dec.witness["group"].items()},
                "difference": str(dec.witness["difference"])[:400]},
            "evidence": {"claim": res.claim.to_json(), "steps": res.derivation.to_json(),
                         "numeric": [n.to_json() for n in res.numeric]}}


def block_transform_report(name: str, transform: str, param: str | None) -> Report:
    """One typed matrix transform of the block's attention sub-layer, decided."""
    from symbolic.block_transform import parse_block_transform, parse_groups

    block = BLOCKS[name]
    cand = parse_block_transform(transform, block, parse_groups(param))
    dec = decide_candidate(block, cand)
    res = _candidate_result(block, dec)
    table = Table("block_symmetries", f"{name}: {cand.text}",
                  ("part", "symmetry", "decision", "sizes", "conserved"),
                  (_row("attention", cand.text, dec.outcome, dec.sizes),))
    obj = _block_json(dec, res)
    return Report("proofs.symmetry", f"Symmetries of {name}", SOURCE, (res,), (table,),
                  data={"discover": False, "decisions": [obj], "block_json": obj})
