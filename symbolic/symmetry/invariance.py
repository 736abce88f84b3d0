"""Is a layer invariant under a transformation of its parameters? (docs/theory.md, item D)

``decide(layer, transform, activations)`` returns a ``SymmetryDecision``: invariant yes, no or
undecided, with the kernel facts that decide it. The search here only proposes; the kernel
decides on the formula that is shown:

1. **General n, d** (whole-matrix transforms, per-unit scalings; fixed rows ``Q[0] … Q[m−1]``
   at general d and every n ≥ m, the first m units of every sum written apart and n = m + N):
   entry ``(0, o)`` of ``F(x; Tθ)`` and of ``F(x; θ)``, written as finite sums with symbolic
   bounds and real entries, with σ an *uninterpreted* function,
   are compared in sum normal form (``check_sum_equal``). When a σ argument carries a scalar
   ``c`` of the transform, the facts about the activation propose how to move it out —
   ``σ(cw) = c^p σ(w)`` for ``c > 0`` when σ is positively homogeneous of degree p, and for
   ``c < 0`` an identity of ``INTERTWINERS``: ``σ(−w) = −σ(w)`` (odd), ``σ(−w) = σ(w)`` (even),
   ``σ(−w) = σ(w) − w`` (GELU, SiLU, ReLU); ``σ(w) = σ(1)·w`` when σ is linear. A rewrite is
   proposed only when the kernel proves its instance ``∀t: σ(c·t) = R(t)`` for the real σ
   (shown as a step). The claim is then about the layer with σ the activation: the kernel
   derives ``F(x; Tθ) = F(x; θ)`` for the *original* entries by its rules — the entry in sum
   normal form (``check_sum_equal``), each σ(c·w) rewritten by ``inst`` of the instance at
   ``t := w`` (w must be real: the entries are declared real) and ``cong_in_sums`` (congruence
   inside the sums), the rewritten entries compared (``check_sum_equal``), and ``trans`` along
   the chain (a linear σ, inlined, needs no rewrite).
2. **A certified witness** (``F(x; Tθ) ≠ F(x; θ)``): exact rational ``x``, parameters and ``a``
   at small explicit sizes (for fixed rows also beyond the rows named), with the real σ; the
   kernel's ``counterexample`` certifies one entry of the difference nonzero (exactly or by
   outward-rounded intervals).
   Per-unit scalings (``Q[j] -> a*Q[j], …``) are decided there too, with a parameter ``a[k]``
   of its own for every unit (``unit_parameters``).
3. **Explicit sizes** (other per-unit transforms, or when 1 is undecided): explicit symbolic
   matrices at ``d = 2`` and ``n = 2`` (or enough units for the rows named), every unit j,
   uninterpreted σ, or σ the activation and the same chain of kernel rules
   (``check_matrix_equal``). A proof here holds at those sizes only: the decision is
   ``unknown``, with the proved steps and the sizes stated, never the general answer.

Otherwise ``unknown``. ``Q[j]`` means each unit j alone (with its own ``a[k]`` for a scaling);
a transform mixing per-unit and whole targets is refused by the parser. No inference is made
here outside the kernel: the search proposes the rewrites, the kernel's ``inst``, ``cong`` and
``trans`` carry them out, and the decision's last fact states the original layer's invariance.
Every kernel call runs under the kernel's
limits; the witness search is bounded by ``MAX_WITNESS_TRIES`` and ``WITNESS_TIMEOUT_S``.

For a one-parameter group of scalings ``θ_M → a^{λ_M} θ_M`` the ``generator`` is
``A = dT_a/da|_{a=1} = diag(λ_M I_M)``; when the layer is invariant, ``θᵀAθ = Σ λ_M ‖M‖²`` is the
``conserved`` quantity of gradient flow — Noether's theorem for gradient flow (docs/theory.md,
item D), proved in ``proofs.conservation`` (``conservation.noether``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import sympy

from symbolic.calc import reversed_step
from symbolic.engine import Step, says_nothing
from symbolic.kernel import (
    check_matrix_equal,
    check_sum_equal,
    name_problem,
    negate,
    trans,
    undecided,
)
from symbolic.languages.layer_language import Layer, entry, layer_at, symbol_values
from symbolic.languages.transform_language import (
    Transform,
    explicit_sizes,
    generator_of,
    transformed,
    units,
)
from symbolic.symmetry.rewrite import (
    INTERTWINERS,
    ActivationFacts,
    ActivationSpec,
    Rewriter,
    inlined,
    plausible,
    plausible_matrix,
)
from symbolic.symmetry.witness import Witness, find_witness

GENERAL = "general n, d"
PER_UNIT = " (every unit k with its own {}[k])"  # the transform's parameter, a[k] or b[k]
EXPLICIT_SIZES = {"d": 2, "n": 2}  # explicit-size proofs (more units when a row is named)
CONSERVATION = (
    "conserved along gradient flow of any loss by Noether's theorem for gradient "
    "flow (docs/theory.md, item D), proved in proofs.conservation "
    "(conservation.noether)"
)


@dataclass(frozen=True)
class SymmetryDecision:
    """The answer for one layer, transform and activation: ``invariant`` True (proved), False
    (certified witness) or None (unknown), the kernel-checked steps, and for a group of
    scalings its generator and, when invariant, the conserved quantity ``θᵀAθ``."""

    layer: Layer
    transform: Transform
    activation: str
    invariant: bool | None
    steps: tuple[Step, ...]
    sizes: str  # GENERAL, "d = 2, n = 2", or the witness's sizes
    every_sigma: bool = False  # proved with σ uninterpreted and no fact about it
    witness: Witness | None = None
    generator: str | None = None
    conserved: str | None = None

    @property
    def status(self) -> str:
        """``decided`` (invariant or broken) or ``unknown``: the search's outcome, not the
        kernel's verdict on a step (that is the claim's status)."""
        return "unknown" if self.invariant is None else "decided"

    @property
    def outcome(self) -> str:
        """``invariant``, ``broken`` (a certified witness) or ``unknown``."""
        return {True: "invariant", False: "broken", None: "unknown"}[self.invariant]

    @property
    def statement(self) -> sympy.Basic:
        """The formula the claim states: the last step's (the invariance equation of the original
        layer, decided — with σ the activation when its facts were used —, its negation at a
        witness, or the equation left undecided)."""
        return self.steps[-1].formula


def decide(
    layer: Layer, transform: Transform, activations: Mapping[str, ActivationSpec]
) -> SymmetryDecision:
    """Invariant, not invariant (certified witness) or unknown; see the module docstring."""
    facts = {shown_function(name): ActivationFacts(activations[name]) for name in layer.functions}
    label = activations["sigma"].label if "sigma" in activations else "—"
    generator, conserved = generator_of(transform)
    common = dict(layer=layer, transform=transform, activation=label, generator=generator)
    per_unit = unit_parameters(transform) is not None
    if has_general_form(layer, transform):
        found = _general_proof(layer, transform, facts)
        if found is not None:
            steps, every = found
            return SymmetryDecision(
                invariant=True,
                steps=steps,
                sizes=general_sizes(transform)
                + (PER_UNIT.format(transform.parameter.name) if per_unit else ""),
                every_sigma=every,
                conserved=conserved,
                **common,
            )
    witness = find_witness(layer, transform, activations)
    if witness is not None:
        step = Step(
            negate(witness.fact),
            "certified witness: one entry of F(x; Tθ) − F(x; θ) is nonzero (kernel)",
        )
        shown = ", ".join(f"{k} = {v}" for k, v in witness.sizes.items())
        return SymmetryDecision(
            invariant=False, steps=(step,), sizes=shown, witness=witness, **common
        )
    found = _explicit_proof(layer, transform, facts)
    statement = _statement(layer, transform)
    if found is not None:  # a proof at explicit sizes only: never the general answer
        steps, every, sizes = found
        fact = undecided(
            statement,
            f"proved at {sizes} only; no proof at general sizes and no "
            "certified witness within the bounds (the witness search covers small "
            "sizes only)",
            "sympy+interval",
        )
        return SymmetryDecision(
            invariant=None,
            steps=(*steps, Step(fact, "bounded search")),
            sizes=f"invariant at {sizes} only",
            every_sigma=every,
            **common,
        )
    fact = undecided(
        statement, "neither a proof nor a certified witness within the bounds", "sympy+interval"
    )
    return SymmetryDecision(
        invariant=None, steps=(Step(fact, "bounded search"),), sizes="—", **common
    )


def _statement(layer: Layer, transform: Transform) -> sympy.Basic:
    """``F(x; Tθ) = F(x; θ)``: entry (0, o) at general sizes, or at explicit sizes (unit 0)."""
    if has_general_form(layer, transform):
        after, before = _distinct(layer, transform, *_general_entries(layer, transform))
        return sympy.Eq(after, before, evaluate=False)
    sizes = explicit_sizes(transform, EXPLICIT_SIZES)
    values, functions = symbol_values(layer, sizes), _uninterpreted(layer)
    unit = 0 if transform.unit_index is not None else None
    a = transform.parameter
    after = layer_at(layer, transformed(values, transform, a, unit), functions)
    before = layer_at(layer, values, functions)
    if after == before:  # SymPy folded the transform away ((x·v)(x·k), x − x): as written, or
        # the claim would relate a formula to itself: "failed" (exit 1), not unknown
        with sympy.evaluate(False):
            after = layer_at(layer, transformed(values, transform, a, unit), functions)
    return sympy.Eq(sympy.ImmutableMatrix(after), sympy.ImmutableMatrix(before), evaluate=False)


def shown_function(name: str) -> str:
    """The name of the uninterpreted function standing for the layer's function ``name``: the
    name itself, unless it is one SymPy prints for a function of its own (``abs``, ``tanh``: the
    kernel refuses a formula whose undefined ``tanh`` reads as the real one, so every general
    proof of ``tanh(x @ K.T) @ V`` was left unknown), then ``σ_abs``, ``σ_tanh``."""
    return name if name_problem(name, function=True) is None else f"σ_{name}"


def _uninterpreted(layer: Layer) -> dict[str, Callable]:
    """The layer's functions, uninterpreted (named by ``shown_function``; the activation
    facts are keyed by the same names)."""
    return {name: sympy.Function(shown_function(name)) for name in layer.functions}


def unit_parameters(transform: Transform) -> sympy.IndexedBase | None:
    """For a per-unit group of scalings ``P[j] -> c(a)*P[j], …`` with ``c(1) = 1`` and 1 in the
    domain: the parameters ``a[k]``, one per unit, for the general-n statement. Invariance for
    every ``a[0], …, a[n−1]`` gives unit j alone at ``a[k] = 1`` (k ≠ j), and conversely by
    composing units. None for any other transform."""
    a = transform.parameter
    subs = transform.substitutions
    if (
        transform.unit_index is None
        or transform.fixed_units
        or a.is_negative
        or any(
            s.source != s.target
            or a not in s.coefficient.free_symbols
            or s.coefficient.xreplace({a: 1}) != 1
            for s in subs
        )
    ):
        return None
    return sympy.IndexedBase(
        a.name, **{k: v for k, v in a.assumptions0.items() if k in ("positive", "nonzero", "real")}
    )


def rows_named(transform: Transform) -> int:
    """m: the fixed rows ``Q[0] … Q[m−1]`` a transform names (0 when none)."""
    return max(transform.fixed_units) + 1 if transform.fixed_units else 0


def has_general_form(layer: Layer, transform: Transform) -> bool:
    """Can ``F(x; Tθ)`` be written entry by entry at symbolic sizes? Whole-matrix transforms and
    per-unit scalings at general n, d; fixed rows at general d and every n ≥ m (the first m
    units written apart), unless the output itself is indexed by units."""
    if not transform.indexed or unit_parameters(transform) is not None:
        return True
    return transform.unit_index is None and "n" not in layer.shape


def general_sizes(transform: Transform) -> str:
    m = rows_named(transform)
    return GENERAL if not m else f"general d, every n ≥ {m}"


def _general_entries(layer: Layer, transform: Transform) -> tuple[sympy.Expr, sympy.Expr]:
    """Entry (0, o) of F(x; Tθ) and F(x; θ) at general n, d, σ uninterpreted, entries real (a
    per-unit transform with its own parameter ``a[k]`` for every unit k; fixed rows with the
    first m units written apart and n = m + N)."""
    d = sympy.Symbol("d", integer=True, positive=True)
    m = rows_named(transform)
    n = (
        sympy.Symbol("n", integer=True, positive=True)
        if not m
        else m + sympy.Symbol("N", integer=True, nonnegative=True)
    )
    sizes = {"1": sympy.Integer(1), "d": d, "n": n}
    o = sympy.Symbol("o", integer=True)
    bases = {name: sympy.IndexedBase(name, real=True) for name in layer.parameters}
    plain = {name: (lambda r, c, b=b: b[r, c]) for name, b in bases.items()}
    moved = dict(plain)
    per_unit = unit_parameters(transform)
    a = transform.parameter
    rows = {}
    for s in transform.substitutions:
        if isinstance(s.target.index, int):
            rows[s.target.name, s.target.index] = s
            continue
        moved[s.target.name] = lambda r, c, b=bases[s.source.name], k=s.coefficient: (
            (k if per_unit is None else k.xreplace({a: per_unit[r]})) * b[r, c]
        )
    for name in {name for name, _ in rows}:
        moved[name] = lambda r, c, name=name: _row_value(rows, bases, name, r, c)
    functions = _uninterpreted(layer)
    return (
        entry(layer, sizes, moved, functions, sympy.Integer(0), o, peel=m),
        entry(layer, sizes, plain, functions, sympy.Integer(0), o, peel=m),
    )


def _row_value(
    rows: Mapping, bases: Mapping, name: str, r: sympy.Expr, c: sympy.Expr
) -> sympy.Expr:
    """Entry (r, c) of a parameter after a fixed-row transform: a named row by number; any other
    row (a unit k ≥ m of the sum written apart) is left alone."""
    s = rows.get((name, int(r))) if r.is_Integer else None
    if s is None:
        return bases[name][r, c]
    return s.coefficient * bases[s.source.name][s.source.index, c]


def _general_proof(
    layer: Layer, transform: Transform, facts: Mapping[str, ActivationFacts]
) -> tuple[tuple[Step, ...], bool] | None:
    from symbolic.kernel import sum_normal_form

    after, before = _general_entries(layer, transform)
    general = general_sizes(transform)
    rule = f"{general}: entry (0, o) as finite sums, sum normal form (σ uninterpreted)"
    if plausible(after - before):
        fact = check_sum_equal(*_distinct(layer, transform, after, before))
        if fact.proved:
            return (Step(fact, rule, note="F(x; Tθ) = F(x; θ) for every σ"),), True
    rewriter = Rewriter(facts, transform.parameter, unit_parameters(transform))
    try:
        normal = sum_normal_form(after), sum_normal_form(before)
        rewritten = rewriter(normal[0]), rewriter(normal[1])
    except (TypeError, ValueError, RecursionError):
        return None
    if not rewriter.changed or not plausible(rewritten[0] - rewritten[1]):
        return None
    chain = _kernel_chain(rewriter, (after, before), normal, check_sum_equal, general)
    if chain is None:
        return None
    steps = (*rewriter.steps(), *chain)
    return (steps, False) if all(step.fact.proved for step in steps) else None


def _reversed(steps: list[Step]) -> list[Step]:
    return [reversed_step(s) for s in reversed(steps)]


NORMAL_NOTE = {
    check_sum_equal: "sum normal form: the scalars moved out of the sums",
    check_matrix_equal: "the entries as written",
}
_SAID = "F(x; Tθ) = F(x; θ), σ the activation (kernel rules inst, cong, trans)"


def _kernel_chain(
    rewriter: Rewriter,
    sides: tuple[sympy.Basic, sympy.Basic],
    forms: tuple[sympy.Basic, sympy.Basic],
    check: Callable,
    where: str,
) -> list[Step] | None:
    """``F(x; Tθ) = F(x; θ)`` with σ the activation, by the kernel: each side from its entry
    (or matrix) through the σ(c·w) the rewriter rewrote in its ``forms`` (its sum normal form,
    or itself), a ``check`` that the two ends agree, and ``trans`` along the chain (the other
    side's steps turned by ``symm``). None when a step is not proved."""
    starts = [inlined(side, rewriter.facts, literal=False) for side in sides]
    if starts[0] == starts[1]:  # SymPy folded the transform away (tanh(−u)² is tanh(u)²)
        starts = [inlined(side, rewriter.facts) for side in sides]
    found = [
        _real_chain(rewriter, start, form, check) for start, form in zip(starts, forms, strict=True)
    ]
    if any(f is None for f in found):
        return None
    (left, left_end), (right, right_end) = found
    # both sides rewritten to one expression (σ(−2w) and σ(2w) to 2σ(w) for an even,
    # homogeneous σ): the chains meet, and a step comparing it with itself (X = X, refused
    # below as no evidence) would leave a decided invariance unknown; trans joins them directly
    middle = None if left_end == right_end else check(left_end, right_end)
    if middle is not None and not middle.proved:
        return None
    compared = (
        []
        if middle is None
        else [Step(middle, f"{where}: the rewritten sides compared", note="they agree")]
    )
    steps = [*left, *compared, *_reversed(right)]
    if not steps:
        return None  # nothing rewritten and nothing compared: no evidence
    if len(steps) > 1:
        closing = trans(*(s.fact for s in steps))
        steps.append(Step(closing, "transitivity: the chain of the steps above", note=_SAID))
    if any(says_nothing(step.fact.formula) for step in steps):
        return None  # X = X is no evidence: σ constant made both sides one expression
    return steps


def _real_chain(
    rewriter: Rewriter, start: sympy.Basic, normal: sympy.Basic, check: Callable
) -> tuple[list[Step], sympy.Basic] | None:
    """One side of the invariance with σ the activation, from its entry ``start`` through
    each σ(c·w) the rewriter rewrote in its sum normal form, by the kernel's rules
    (``Rewriter.in_kernel``): the steps and the last expression (no step when nothing is
    rewritten); None when the kernel does not prove them."""
    found = rewriter.in_kernel(start, normal, check)
    if found is None:
        return None
    links, end = found
    steps = [
        Step(fact, "the same, written as the rewrite needs it", note=NORMAL_NOTE[check])
        if kind == "normal"
        else Step(
            fact,
            "an instance above at t := w (inst: w is real), put in place in the sums (cong)",
            note="σ(c·w) replaced by R(w) inside the sums",
        )
        for kind, fact, _ in links
    ]
    return steps, end


def _distinct(
    layer: Layer, transform: Transform, after: sympy.Expr, before: sympy.Expr
) -> tuple[sympy.Expr, sympy.Expr]:
    """The two sides of ``F(x; Tθ) = F(x; θ)`` as different expressions: when SymPy's automatic
    ordering makes them identical (``Q ↔ K`` in ``σ((x Qᵀ)⊙(x Kᵀ))``), ``F(x; Tθ)`` is built
    again without evaluation, so that the step shows the transform it checks."""
    if after != before:
        return after, before
    # Kept under the context (it clears SymPy's cache): the entry is built by the layer language
    # (sums, whose constructor reads the switch), and SymPy folding the transform away is rare.
    with sympy.evaluate(False):
        again, _ = _general_entries(layer, transform)
    return again, before


def _explicit_proof(
    layer: Layer, transform: Transform, facts: Mapping[str, ActivationFacts]
) -> tuple[tuple[Step, ...], bool, str] | None:
    sizes = explicit_sizes(transform, EXPLICIT_SIZES)
    values = symbol_values(layer, sizes)
    functions = _uninterpreted(layer)
    before = layer_at(layer, values, functions)
    a = transform.parameter
    shown = f"d = {sizes['d']}, n = {sizes['n']}"
    main, every = [], True
    rewriter = Rewriter(facts, a)
    for unit in units(transform, sizes["n"]):
        after = layer_at(layer, transformed(values, transform, a, unit), functions)
        if after == before:  # SymPy folded the transform away ((−u)² is u²): as written
            # under the context, as _distinct: the layer's matrix algebra is the language's
            with sympy.evaluate(False):
                after = layer_at(layer, transformed(values, transform, a, unit), functions)
        where = "" if unit is None else f", unit j = {unit}"
        fact = None
        if plausible_matrix(after - before):
            fact = check_matrix_equal(after, before)
        if fact is not None and fact.proved:
            main.append(Step(fact, f"explicit symbolic matrices, {shown}{where}"))
            continue
        sides = after.applyfunc(rewriter), before.applyfunc(rewriter)
        every = False
        if not rewriter.changed or not plausible_matrix(sides[0] - sides[1]):
            return None
        matrices = sympy.ImmutableMatrix(after), sympy.ImmutableMatrix(before)
        chain = _kernel_chain(
            rewriter, matrices, matrices, check_matrix_equal, f"explicit, {shown}{where}"
        )
        if chain is None:
            return None
        main.extend(chain)
    steps = (*([] if every else rewriter.steps()), *main)
    return steps, every, shown + (" (every unit j)" if transform.unit_index else "")


__all__ = [
    "CONSERVATION",
    "GENERAL",
    "INTERTWINERS",
    "ActivationSpec",
    "SymmetryDecision",
    "Witness",
    "decide",
    "generator_of",
    "symbol_values",
    "transformed",
]
