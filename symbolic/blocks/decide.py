"""One candidate decided: the kernel's identity at symbolic sizes, else a certified witness at
explicit sizes, else unknown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy

from symbolic.blocks.candidates import Candidate
from symbolic.blocks.forms import (
    BLOCK_TIMEOUT_S,
    EPSILON,
    HEADS,
    BlockForm,
    T,
    attention,
    block_context,
    d,
    head_count,
    parameters,
    r,
)
from symbolic.blocks.proof import localised
from symbolic.engine import Step
from symbolic.kernel import (
    check_matrix_expr_equal,
    cong,
    counterexample,
    literal_replace,
    negate,
    undecided,
)


@dataclass(frozen=True)
class BlockDecision:
    """One candidate decided: ``invariant`` True (kernel proof), False (certified witness) or
    None (unknown); ``sizes`` says where it holds."""

    block: str
    candidate: Candidate
    invariant: bool | None
    steps: tuple[Step, ...]
    sizes: str
    witness: Mapping[str, Any] | None = None
    numeric_values: Mapping[str, Any] = field(default_factory=dict)
    heads: int = HEADS

    @property
    def outcome(self) -> str:
        return {True: "invariant", False: "broken", None: "unknown"}[self.invariant]

    @property
    def statement(self) -> sympy.Basic:
        return self.steps[-1].formula


def general_sizes(heads: int = HEADS) -> str:
    return f"general T, d, r; {heads} head{'s' if heads != 1 else ''}"


def decide_candidate(block: BlockForm, cand: Candidate, heads: int = HEADS) -> BlockDecision:
    """The kernel's identity on the sub-layer at symbolic sizes (``symbolic.blocks.proof``: the
    kernel decides the subterms the group acts on, its rules carry them to the whole; else the
    whole at once); when it is not proved, a certified witness at explicit sizes; else
    unknown. The witness is sought before the whole identity (the costlier try)."""
    p = parameters(block, heads)
    g = {k: sympy.MatrixSymbol(k, rows, cols) for k, (rows, cols, _) in cand.group.items()}
    before = attention(block, p)
    moved = cand.act(p, g)  # the candidates' matrix products do not read the evaluation switch
    # A(X; gθ) as written: W_V B B⁻¹ W_O is not folded into A(X; θ)
    after = literal_replace(before, {p[k]: v for k, v in moved.items() if v != p[k]})
    fact = localised(after, before, set(g.values()), BLOCK_TIMEOUT_S, checks=6 + 4 * heads)
    found = None
    if fact is None:
        found = block_witness(block, cand, heads)
    if fact is None and found is None:
        fact = check_matrix_expr_equal(after, before, timeout_s=BLOCK_TIMEOUT_S)
    if fact is not None and fact.proved:
        how = (
            "kernel checks on the subterms the group acts on, carried to the whole by cong "
            "and trans"
            if fact.rule
            else "matrix algebra (transpose, inverse, products inside softmax and the norms)"
        )
        kinds = ", ".join(f"{k} {kind}" for k, (_, _, kind) in cand.group.items())
        steps = [
            Step(
                fact,
                f"{general_sizes(heads)}: {how}",
                note=f"A(X; gθ) = A(X; θ){' for ' + kinds if kinds else ''}",
            )
        ]
        context = block_context(block)
        carried = None if context is None else cong(fact, context)
        if carried is not None and carried.proved:  # else the claim stays the sub-layer's:
            # an unproved last step made the row "invariant" with the claim unknown (exit 3)
            steps.append(
                Step(
                    carried,
                    "cong: the block is X + A followed by H + MLP(norm₂(H)), whose parameters "
                    "the group does not move (kernel rule)",
                    note="block(X; gθ) = block(X; θ)",
                )
            )
        return BlockDecision(
            block.name, cand, True, tuple(steps), general_sizes(heads), heads=heads
        )
    if found is not None:
        witness, wfact = found
        return BlockDecision(
            block.name,
            cand,
            False,
            (
                Step(
                    negate(wfact),
                    "certified witness: one entry of A(X; gθ) − A(X; θ) is nonzero (kernel)",
                ),
            ),
            witness_sizes_text(heads),
            witness=witness,
            heads=heads,
        )
    return BlockDecision(
        block.name,
        cand,
        None,
        (
            Step(
                undecided(
                    fact.formula,
                    "neither the matrix identity nor a certified witness within the bounds",
                    "sympy+interval",
                ),
                "bounded search",
            ),
        ),
        "—",
        heads=heads,
    )


# --- witnesses at explicit sizes: T = 2, d = 2, r = 2, one head moved ---------------------------

WITNESS_T, WITNESS_D, WITNESS_R = 2, 2, 2


def witness_sizes_text(heads: int = HEADS) -> str:
    return (
        f"T = {WITNESS_T}, d = {WITNESS_D}, r = {WITNESS_R}, {general_sizes(heads).split('; ')[1]}"
    )


WITNESS_OMEGA = sympy.atan(sympy.Rational(4, 3))  # cos ω = 3/5, sin ω = 4/5: exact tables


def _rope_tables(t_len: int, width: int) -> tuple[sympy.Matrix, sympy.Matrix, sympy.Matrix]:
    """C, S (positions 0..T−1, the frequency ω = atan(4/3) in every plane, so that the cosines
    and sines at positions 0 and 1 are rational) and the pair rotation P."""
    C = sympy.Matrix(t_len, width, lambda t, i: sympy.cos(t * WITNESS_OMEGA))
    S = sympy.Matrix(t_len, width, lambda t, i: sympy.sin(t * WITNESS_OMEGA))
    P = sympy.zeros(width, width)
    for i in range(0, width, 2):
        P[i, i + 1], P[i + 1, i] = 1, -1
    return C, S, P


# Further group elements, tried when the first ones give no witness: the k-th element of one
# group gets the k-th matrix (two elements of one transform are then different matrices, so that
# ``W B C`` against ``W C B`` is told apart), each of its group; 1×1 elements are numbers.
WITNESS_CHOICES = {
    "GL": ([[2, 1], [0, 1]], [[1, 0], [1, 3]], [[1, 2], [-1, 1]]),
    "O": (  # a reflection (no RoPE rotation commutes with it), a rotation (B² ≠ I), another
        [[1, 0], [0, -1]],
        [["3/5", "-4/5"], ["4/5", "3/5"]],
        [[0, 1], [1, 0]],
    ),
    "diagonal": ([[2, 0], [0, "1/2"]], [[-1, 0], [0, 3]], [[3, 0], [0, -2]]),
}
WITNESS_SCALARS = {"GL": (2, 3, -2), "O": (-1, -1, -1), "diagonal": (2, -1, 3)}
WITNESS_ATTEMPTS = 2  # choices of the group elements; 6 points each


def witness_groups(cand: Candidate) -> list[dict[str, sympy.Matrix]]:
    """Exact group elements for the witness search, one dict per attempt: each element at its
    size at the witness sizes (1×1 elements acting on a bias from the left are numbers), each
    in its group (an orthogonal one orthogonal, a diagonal one diagonal)."""
    sizes = {T: WITNESS_T, d: WITNESS_D, r: WITNESS_R}
    attempts = []
    for attempt in range(WITNESS_ATTEMPTS):
        g = {}
        for i, (k, (rows, _, kind)) in enumerate(sorted(cand.group.items())):
            n = sizes.get(rows, rows)
            if kind not in WITNESS_CHOICES or n not in (1, 2):
                return attempts
            pick = (i + attempt) % len(WITNESS_CHOICES[kind])
            if n == 1:
                g[k] = sympy.Matrix([[WITNESS_SCALARS[kind][pick]]])
            else:
                g[k] = sympy.Matrix(WITNESS_CHOICES[kind][pick]).applyfunc(sympy.Rational)
        if g not in attempts:  # no group element (a permutation): one attempt
            attempts.append(g)
    return attempts


def block_witness(block: BlockForm, cand: Candidate, heads: int = HEADS):
    """A certified nonzero entry of ``A(X; gθ) − A(X; θ)`` at small exact values (explicit
    sizes, causal mask, RoPE at positions 0 and 1), or None. The point is fixed: symbols for
    X's first row, exact rationals elsewhere; the kernel's ``counterexample`` decides, on
    every entry of the last row."""
    import random

    rng = random.Random(13)
    values = [sympy.Rational(v) for v in ("1", "-1", "2", "1/2", "-2", "3/2")]
    sizes = {T: WITNESS_T, d: WITNESS_D, r: WITNESS_R}
    p = parameters(block, heads)
    explicit = {
        k: sympy.Matrix(
            *[sizes.get(s, s) for s in m.shape],
            lambda i, j, k=k: (
                sympy.Symbol(f"{k}_{i}{j}", real=True) if k != "G" or i == j else sympy.Integer(0)
            ),
        )
        for k, m in p.items()
    }  # the gain is diagonal
    X = sympy.Matrix(WITNESS_T, WITNESS_D, lambda i, j: sympy.Symbol(f"X_{i}{j}", real=True))
    before_all = None
    for g in witness_groups(cand):
        try:
            moved = cand.act(explicit, g)
            after_all = _explicit_attention(block, X, moved)
            if before_all is None:
                before_all = _explicit_attention(block, X, explicit)
        except (TypeError, ValueError):
            return None
        for col in range(WITNESS_D):
            entry = (WITNESS_T - 1, col)
            after, before = after_all[entry], before_all[entry]
            symbols = sorted((after - before).free_symbols, key=str)
            for _ in range((6 if col == 0 else 3) if symbols else 1):
                point = {s: rng.choice(values) for s in symbols}
                if not _worth_certifying(after - before, point):
                    continue
                fact = counterexample(after, before, point, tuple(symbols))
                if fact.refuted:
                    return _witness_record(
                        heads, entry, X, explicit, g, point, after - before
                    ), fact
    return None


def _worth_certifying(difference: sympy.Expr, point: Mapping) -> bool:
    """A numeric filter, never a verdict: is the difference visibly nonzero at 30 digits? An
    entry the group leaves alone (a reflection fixes a column; B·B⁻ᵀ = I for an orthogonal B)
    would cost the kernel a certification attempt per point for nothing."""
    try:
        value = sympy.N(difference.xreplace(point), 30)
        return not (value.is_number and abs(value) < sympy.Float("1e-25"))
    except (TypeError, ValueError, ArithmeticError):
        return True


def _witness_record(heads, entry, X, explicit, g, point, difference) -> dict[str, Any]:
    rest = {
        v: sympy.Integer(1)
        for m in (X, *explicit.values())
        for v in m.free_symbols
        if v not in point
    }  # the difference has none
    values = {k: m.xreplace({**rest, **point}) for k, m in {"X": X, **explicit}.items()}
    return {
        "sizes": witness_sizes_text(heads),
        "entry": entry,
        "values": values,
        "group": dict(g),
        "difference": difference.xreplace(point),
    }


def _explicit_attention(
    block: BlockForm, X: sympy.Matrix, p: Mapping[str, sympy.Matrix]
) -> sympy.Matrix:
    """The sub-layer on explicit matrices (causal mask, RoPE tables of ``_rope_tables``)."""
    t_len, width = X.shape
    y = X - X * sympy.ones(width, width) / width if block.norm == "layer" else X
    rows = [
        sympy.sqrt(sum(y[i, j] ** 2 for j in range(width)) / width + EPSILON) for i in range(t_len)
    ]
    normed = sympy.Matrix(t_len, width, lambda i, j: y[i, j] / rows[i]) * p["G"]
    if block.biases:
        normed = normed + sympy.ones(t_len, 1) * p["b"]
    C, S, P = _rope_tables(t_len, WITNESS_R)
    out = sympy.zeros(t_len, width)
    for h in range(head_count(p)):

        def affine(w, h=h):
            z = normed * p[f"W{w}{h}"]
            return z + sympy.ones(t_len, 1) * p[f"b{w}{h}"] if block.biases else z

        q, k, v = affine("Q"), affine("K"), affine("V")
        if block.rope:
            q = q.multiply_elementwise(C) + (q * P).multiply_elementwise(S)
            k = k.multiply_elementwise(C) + (k * P).multiply_elementwise(S)
        scores = q * k.T / sympy.sqrt(WITNESS_R)
        weights = sympy.zeros(t_len, t_len)
        for i in range(t_len):  # causal: position i sees 0..i
            e = [sympy.exp(scores[i, j]) for j in range(i + 1)]
            for j in range(i + 1):
                weights[i, j] = e[j] / sum(e)
        out = out + weights * v * p[f"WO{h}"]
    return out + sympy.ones(t_len, 1) * p["bO"] if block.biases else out
