"""Noether's theorem for gradient flow, and what each layer conserves (docs/theory.md D).

If a linear one-parameter group ``θ → e^{tA}θ`` (A symmetric) leaves a layer ``F(x; θ)``
unchanged, then for every loss ``L(θ) = Σ_i ℓ(F(x_i; θ), y_i)`` (ℓ arbitrary)
``⟨∇L(θ), Aθ⟩ = 0``, so ``θᵀAθ`` is constant along gradient flow ``θ̇ = −∇L``
(Kunin et al. 2021; Du, Hu & Lee 2018). One gradient step of size η changes it by exactly
``η²·∇LᵀA∇L``; with weight decay λ it decays as ``e^{−2λt}``. Instances, per unit j:

* gated, σ positively homogeneous of degree p: ``‖q_j‖² − p‖k_j‖²`` (ReLU p = 1, ReLU² p = 2);
* gated, any σ: ``‖k_j‖² − ‖v_j‖²``;
* symmetric rank-1, any σ: ``‖q_j‖² − ‖k_j‖²``; degree-p σ: ``‖k_j‖² − p‖v_j‖²``;
* rank r, any σ: the r×r matrix ``Q_jᵀQ_j − K_jᵀK_j``;
* MLP ``σ(xW1ᵀ)W2`` with ReLU: ``‖w1_j‖² − ‖w2_j‖²``;
* gated SiLU and GELU: ``‖q_j‖² − ‖k_j‖²`` is *not* conserved (certified witness).

Each instance goes through the derivative identity ``⟨Aθ, ∇_θF⟩ = 0`` with σ uninterpreted,
and Euler's relation ``zσ'(z) = pσ(z)`` for the activation, checked on each half-line; the loss
stays uninterpreted. Sizes are explicit where the chain rule is needed (said in each step).
Each claim's statement is the conjunction of the kernel facts of its argument (the glue between
them — e.g. Euler's relation making E(·)·cofactor vanish — is the reading, said in its note).

Run ``python -m proofs.conservation`` (``-v``, ``--json``, ``--latex``); ``--train`` adds the
training check (real SGD on LLaMA-style ReGLU and SwiGLU blocks; torch when installed, else
numpy) and ``--plot FILE`` draws its drift against the step count.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import sympy
from sympy import MatAdd, MatMul, MatrixSymbol, Transpose, ZeroMatrix

from numeric_checks import conservation as numeric
from proofs._cli import run, torch_wanted, writable_file
from symbolic import layers
from symbolic.activations import ACTIVATIONS, z
from symbolic.calc import held_and
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    ForAll,
    check_equal,
    check_identity,
    check_matrix_expr_equal,
    check_nonzero,
    check_valid_formula,
    conj,
    counterexample,
    domain_of,
    negate,
)
from symbolic.layers import symbolic_matrix
from symbolic.steps import equal_step

ORDER = 45  # place in `python -m proofs` (Part D, after Part A)
PROG = "python -m proofs.conservation"

sigma = sympy.Function("sigma", real=True)  # uninterpreted: nothing is assumed about σ
F, loss, G = (sympy.Function(n, real=True) for n in ("F", "ell", "G"))
t, a, eta, lam = sympy.symbols("t a eta lambda", real=True)
p = sympy.Symbol("p", positive=True)
K_EXPLICIT = 2  # θ ∈ R^2 where the general theorem needs explicit coordinates
SIZES = {"d": 2, "n": 1, "d_out": 1}  # explicit layers: d = 2, one unit, one output
UNIT = 0  # the unit j whose rows the group rescales (other units do not depend on its rows)


def _coordinates(name: str, k: int = K_EXPLICIT) -> sympy.Matrix:
    return sympy.Matrix(k, 1, lambda i, _: sympy.Symbol(f"{name}_{i}", real=True))


def _symmetric(name: str, k: int = K_EXPLICIT) -> sympy.Matrix:
    """A symmetric k×k matrix of symbols (a_ij = a_ji)."""
    return sympy.Matrix(
        k, k, lambda i, j: sympy.Symbol(f"{name}_{min(i, j)}{max(i, j)}", real=True)
    )


def _quad(v: sympy.Matrix, A: sympy.Matrix, w: sympy.Matrix | None = None) -> sympy.Expr:
    """``vᵀAw`` (``vᵀAv`` without ``w``)."""
    return (v.T * A * (v if w is None else w))[0, 0]


def _gradient(f: sympy.Expr, theta: sympy.Matrix) -> sympy.Matrix:
    return sympy.Matrix([sympy.diff(f, s) for s in theta])


def _eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Eq:
    return sympy.Eq(lhs, rhs, evaluate=False)


def _conjunction(steps: Sequence[Step], rule: str = "") -> Step:
    """The conjunction of the steps' facts: the statement of a claim proved by several facts."""
    return Step(
        conj(*(st.fact for st in steps)), rule or f"conjunction of the {len(steps)} facts above"
    )


def _statement(*formulas: sympy.Basic) -> sympy.Basic:
    return held_and(*formulas)


# --- the general theorem --------------------------------------------------------------------

NOETHER_ASSUMPTIONS = (
    "F, ℓ arbitrary differentiable functions (uninterpreted)",
    f"θ ∈ R^{K_EXPLICIT} with explicit coordinates, A symmetric with symbolic "
    "entries, two data points (x_i, y_i)",
)


@cache
def _noether_facts() -> tuple[tuple[sympy.Basic, sympy.Basic, str, str], ...]:
    """(lhs, rhs, rule, note) of the four facts of Noether's theorem, lhs as written (built
    once: SymPy's derivatives of ℓ carry fresh bound symbols)."""
    theta, A = _coordinates("theta"), _symmetric("a")
    rho = sympy.Matrix([sympy.Function(f"rho_{i}", real=True)(t) for i in range(K_EXPLICIT)])
    orbit = theta + t * A * theta + t**2 * rho  # every curve with c(0) = θ, c'(0) = Aθ
    x1, x2, y1, y2 = sympy.symbols("x_1 x_2 y_1 y_2", real=True)
    data = ((x1, y1), (x2, y2))
    model = {x: F(x, *theta) for x, _ in data}
    along = {x: (_gradient(model[x], theta).T * A * theta)[0, 0] for x, _ in data}
    total = sum(loss(model[x], y) for x, y in data)
    partial = {x: sympy.diff(loss(model[x], y), model[x]) for x, y in data}
    flow = sympy.Matrix([sympy.Function(f"theta_{i}", real=True)(t) for i in range(K_EXPLICIT)])
    velocity = sympy.Matrix([sympy.Derivative(c, t) for c in flow])
    D1, D2, c1, c2, gA, qdot = sympy.symbols("D_1 D_2 c_1 c_2 gA Qdot", real=True)
    # written as Z3's answer reads back (0 = D_1, not D_1 = 0)
    glue = sympy.Implies(
        sympy.And(
            sympy.Eq(0, D1),
            sympy.Eq(0, D2),
            sympy.Eq(gA, c1 * D1 + c2 * D2),
            sympy.Eq(qdot, -2 * gA),
        ),
        sympy.Eq(0, qdot),
    )
    return (
        (
            sympy.diff(F(x1, *orbit), t).subs(t, 0).doit(),
            along[x1],
            f"chain rule at t = 0 (SymPy, θ ∈ R^{K_EXPLICIT}, F and ρ uninterpreted)",
            "d/dt F(x; c(t)) at t = 0 is ⟨∇_θF(x; θ), Aθ⟩ for every curve c(t) = θ + tAθ + "
            "t²ρ(t), among them c(t) = e^{tA}θ; invariance makes t ↦ F(x; e^{tA}θ) constant, so "
            "this derivative is 0: the premise, differentiated at t = 0, is "
            "⟨∇_θF(x_i; θ), Aθ⟩ = 0 (D_i = 0)",
        ),
        (
            (_gradient(total, theta).T * A * theta)[0, 0],
            sum(partial[x] * along[x] for x, _ in data),
            "chain rule for L = ℓ(F(x_1; θ), y_1) + ℓ(F(x_2; θ), y_2), ℓ uninterpreted",
            "⟨∇L, Aθ⟩ = Σ_i ∂₁ℓ(F(x_i; θ), y_i)·⟨∇_θF(x_i; θ), Aθ⟩ = Σ_i c_i·D_i",
        ),
        (
            sympy.Derivative(_quad(flow, A), t),
            2 * _quad(velocity, A, flow),
            "product rule; A = Aᵀ",
            "d/dt θᵀAθ = θ̇ᵀAθ + θᵀAθ̇ = 2⟨θ̇, Aθ⟩, which along θ̇ = −∇L is −2⟨∇L, Aθ⟩",
        ),
        (
            glue,
            None,
            "Z3: is the negation unsat?",
            "steps 1–3 combined: D_i = 0, ⟨∇L, Aθ⟩ = Σ c_i D_i and d/dt θᵀAθ = −2⟨∇L, Aθ⟩ "
            "(step 3 with θ̇ = −∇L) give d/dt θᵀAθ = 0",
        ),
    )


NOETHER = Claim(
    "conservation.noether",
    "Noether's theorem for gradient flow",
    "the four facts of the argument: if F(x; e^{tA}θ) = F(x; θ) for all t, x, θ with A "
    "symmetric, then for every loss L(θ) = Σ_i ℓ(F(x_i; θ), y_i) (ℓ arbitrary): (1) "
    "differentiating the invariance at t = 0 gives D_i = ⟨∇_θF(x_i; θ), Aθ⟩ = 0; (2) "
    "⟨∇L(θ), Aθ⟩ = Σ_i c_i D_i; (3) d/dt θᵀAθ = 2⟨θ̇, Aθ⟩, −2⟨∇L, Aθ⟩ along gradient flow "
    "θ̇ = −∇L(θ); (4) together, d/dt θᵀAθ = 0 (Z3, over the symbols D_i, c_i).",
    "D",
    assumptions=NOETHER_ASSUMPTIONS,
    statement=_statement(
        *(_eq(lhs, rhs) if rhs is not None else lhs for lhs, rhs, _, _ in _noether_facts())
    ),
)


def noether() -> Derivation:
    steps = [
        Step(check_valid_formula(lhs), rule, note=note)
        if rhs is None
        else equal_step(lhs, rhs, rule, note=note)
        for lhs, rhs, rule, note in _noether_facts()
    ]
    return Derivation((*steps, _conjunction(steps, "conjunction of steps 1–4")))


# --- instances: rescalings of one unit's rows -----------------------------------------------


def _row_dot(x: sympy.Matrix, W: sympy.Matrix, j: int = UNIT) -> sympy.Expr:
    """``x·w_j`` for the row j of W."""
    return (x * W[j, :].T)[0, 0]


@dataclass(frozen=True)
class Instance:
    """A layer, a rescaling of unit j's rows by ``a^e`` (one exponent per weight), and the
    conserved ``Σ e·‖row_j‖²``. ``euler`` is the unit's term of ``⟨Aθ, ∇F⟩`` written with
    ``E(z) = zσ'(z) − pσ(z)`` (None: ``⟨Aθ, ∇F⟩ = 0`` for every σ); ``gates`` are the table
    activations whose degree p is checked by Euler's relation."""

    key: str
    title: str
    layer: Callable
    weights: tuple[str, ...]
    exponents: tuple[tuple[str, sympy.Expr], ...]
    quantity: str
    euler: Callable | None = None
    gates: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()


def _gated_euler(E, x, W):
    return E(_row_dot(x, W["Q"])) * _row_dot(x, W["K"]) * W["V"][UNIT, 0]


def _symmetric_euler(E, x, W):
    return E(_row_dot(x, W["Q"]) * _row_dot(x, W["K"])) * W["V"][UNIT, 0]


def _mlp_euler(E, x, W):
    return E(_row_dot(x, W["W1"])) * W["W2"][UNIT, 0]


HOMOGENEOUS = ("relu", "relu2")  # degrees 1 and 2 (each Euler check costs ~0.05 s)
INSTANCES = (
    Instance(
        "gated_qk",
        "gated, degree-p σ: ‖q_j‖² − p‖k_j‖²",
        layers.gated,
        ("Q", "K", "V"),
        (("Q", 1), ("K", -p)),
        "‖q_j‖² − p‖k_j‖²",
        _gated_euler,
        HOMOGENEOUS,
        ("scaling.generalized_symmetry",),
    ),
    Instance(
        "gated_kv",
        "gated, any σ: ‖k_j‖² − ‖v_j‖²",
        layers.gated,
        ("Q", "K", "V"),
        (("K", 1), ("V", -1)),
        "‖k_j‖² − ‖v_j‖²",
    ),
    Instance(
        "symmetric_qk",
        "symmetric rank-1, any σ: ‖q_j‖² − ‖k_j‖²",
        layers.symmetric_rank1,
        ("Q", "K", "V"),
        (("Q", 1), ("K", -1)),
        "‖q_j‖² − ‖k_j‖²",
        uses=("scaling.symmetric_invariant",),
    ),
    Instance(
        "symmetric_kv",
        "symmetric rank-1, degree-p σ: ‖k_j‖² − p‖v_j‖²",
        layers.symmetric_rank1,
        ("Q", "K", "V"),
        (("K", 1), ("V", -p)),
        "‖k_j‖² − p‖v_j‖²",
        _symmetric_euler,
        ("relu",),
    ),
    Instance(
        "mlp",
        "MLP σ(xW1ᵀ)W2, degree-p σ (ReLU): ‖w1_j‖² − p‖w2_j‖²",
        layers.mlp,
        ("W1", "W2"),
        (("W1", 1), ("W2", -p)),
        "‖w1_j‖² − p‖w2_j‖²",
        _mlp_euler,
        ("relu",),
    ),
)


def _weights(inst: Instance) -> dict[str, sympy.Matrix]:
    cols = {"V": SIZES["d_out"], "W2": SIZES["d_out"]}
    return {
        w: symbolic_matrix(w.lower(), SIZES["n"], cols.get(w, SIZES["d"])) for w in inst.weights
    }


def _velocity(inst: Instance, W: dict[str, sympy.Matrix]) -> dict[sympy.Symbol, sympy.Expr]:
    """The generator's velocity Aθ: entry θ of unit j's row of weight w moves at e_w·θ."""
    return {s: e * s for w, e in inst.exponents for s in W[w][UNIT, :]}


def _along(f: sympy.Expr, velocity: dict[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """``⟨Aθ, ∇_θ f⟩``."""
    return sum(v * sympy.diff(f, s) for s, v in velocity.items())


def _euler_form(degree: sympy.Expr, sig: Callable = sigma) -> Callable[[sympy.Expr], sympy.Expr]:
    """``u ↦ E(u)`` with ``E(z) = zσ'(z) − pσ(z)`` (σ' at u: SymPy's ``Subs`` for an
    uninterpreted σ)."""
    form = z * sympy.diff(sig(z), z) - degree * sig(z)
    return lambda u: form.subs(z, u)


@cache
def _euler_sides(gate: str) -> tuple[sympy.Expr, sympy.Expr]:
    """``zσ'(z)`` and ``pσ(z)`` for a table activation (differentiated once: the statement and
    the step share them)."""
    act = ACTIVATIONS[gate]
    return z * sympy.diff(act.expr, z), act.degree * act.expr


def euler_formula(gate: str) -> sympy.Basic:
    """Euler's relation ``∀z: zσ'(z) = pσ(z)`` for a table activation, as the kernel states it."""
    return ForAll((z,), _eq(*_euler_sides(gate)), domain=sympy.S.Reals)


@cache
def euler_step(gate: str) -> Step:
    """Euler's relation ``∀z: zσ'(z) = pσ(z)`` for a table activation, by the cases z > 0,
    z < 0, z = 0 (the table proposes p; the kernel checks it)."""
    act = ACTIVATIONS[gate]
    fact = check_identity(*_euler_sides(gate), z)
    return Step(
        fact,
        "SymPy on z = t > 0, z = −t, z = 0",
        note=f"Euler's relation for σ = {gate}, p = {act.degree}: zσ'(z) = pσ(z) "
        "(at z = 0 both sides are 0 whatever value σ'(0) is given)",
    )


@dataclass(frozen=True)
class InstanceFact:
    """One fact of an instance's argument: ``lhs = rhs`` checked by ``check`` (or Euler's
    relation for ``gate``), with the rule and note its step shows."""

    lhs: sympy.Basic
    rhs: sympy.Basic
    rule: str
    note: str
    check: Callable = check_equal
    gate: str = ""

    @property
    def formula(self) -> sympy.Basic:
        return euler_formula(self.gate) if self.gate else _eq(self.lhs, self.rhs)

    def step(self) -> Step:
        if self.gate:
            return euler_step(self.gate)
        return Step(self.check(self.lhs, self.rhs), self.rule, note=self.note)


@cache
def instance_facts(inst: Instance) -> tuple[InstanceFact, ...]:
    """The facts an instance's conservation rests on, each side as written (built once: the
    derivatives of an uninterpreted σ carry fresh bound symbols)."""
    x = symbolic_matrix("x", 1, SIZES["d"])
    W = _weights(inst)
    f = inst.layer(x, *(W[w] for w in inst.weights), sigma)[0, 0]
    velocity = _velocity(inst, W)
    shown = ", ".join(f"{w}_j → a^({e})·{w}_j" for w, e in inst.exponents)
    sizes = f"d = {SIZES['d']}, one unit j, one output"
    moved = {w: M.copy() for w, M in W.items()}
    for w, e in inst.exponents:
        moved[w][UNIT, :] = a**e * W[w][UNIT, :]
    start = sympy.Matrix(
        [moved[w][UNIT, i] for w, _ in inst.exponents for i in range(W[w].shape[1])]
    )
    facts = [
        InstanceFact(
            sympy.ImmutableMatrix(
                start.applyfunc(lambda e: sympy.Subs(sympy.Derivative(e, a), a, 1))
            ),
            sympy.ImmutableMatrix(list(velocity.values())),
            "d/da at a = 1",
            f"the group {shown} (a = e^t > 0) has velocity Aθ at the identity, A = diag "
            "of the exponents: θᵀAθ = " + inst.quantity,
            check_matrix_expr_equal,
        )
    ]
    if inst.euler is None:
        facts.append(
            InstanceFact(
                inst.layer(x, *(moved[w] for w in inst.weights), sigma)[0, 0],
                f,
                f"SymPy, {sizes}, σ uninterpreted",
                f"invariance: F(x; {shown}) = F(x; θ) for every σ",
            )
        )
        facts.append(
            InstanceFact(
                _along(f, velocity),
                0,
                f"chain rule, {sizes}, σ uninterpreted",
                f"⟨Aθ, ∇_θF⟩ = 0 for every σ: {inst.quantity} is conserved (conservation.noether)",
            )
        )
        return tuple(facts)
    facts.append(
        InstanceFact(
            _along(f, velocity),
            inst.euler(_euler_form(p), x, W),
            f"chain rule, {sizes}, σ uninterpreted, p symbolic",
            "⟨Aθ, ∇_θF⟩ = E(·)·(cofactor) with E(z) = zσ'(z) − pσ(z): zero for "
            "every x, θ iff Euler's relation holds",
        )
    )
    for gate in inst.gates:
        act = ACTIVATIONS[gate]
        sig = sympy.Lambda(z, act.expr)
        concrete = inst.layer(x, *(W[w] for w in inst.weights), sig)[0, 0]
        velocity_p = {s: v.subs(p, act.degree) for s, v in velocity.items()}
        facts.append(
            InstanceFact(
                _along(concrete, velocity_p),
                inst.euler(_euler_form(act.degree, sig), x, W),
                f"chain rule, {sizes}, σ = {gate}",
                f"σ = {gate}: ⟨Aθ, ∇_θF⟩ = E_σ(·)·(cofactor)",
            )
        )
        facts.append(InstanceFact(None, None, "", "", gate=gate))
    return tuple(facts)


def instance_derivation(inst: Instance) -> Derivation:
    steps = [fact.step() for fact in instance_facts(inst)]
    return Derivation((*steps, _conjunction(steps)))


def instance_claim(inst: Instance) -> Claim:
    gates = (
        f"; checked for σ ∈ {{{', '.join(inst.gates)}}} (p from Euler's relation)"
        if inst.gates
        else ""
    )
    reading = (
        "the facts of the argument: the group's velocity Aθ, and ⟨Aθ, ∇_θF⟩ = 0 (for every σ)"
        if inst.euler is None
        else "the facts of the argument: the group's velocity Aθ, ⟨Aθ, ∇_θF⟩ = E(·)·(cofactor) "
        "with E(z) = zσ'(z) − pσ(z) for σ uninterpreted and for each σ checked, and "
        "Euler's relation E ≡ 0 for that σ, so ⟨Aθ, ∇_θF⟩ = 0"
    )
    return Claim(
        f"conservation.{inst.key}",
        inst.title,
        f"{reading}; with conservation.noether: under gradient flow of any loss, "
        f"{inst.quantity} is conserved per unit j for the layer {inst.layer.__name__}"
        + gates
        + ".",
        "D",
        kind="corollary",
        assumptions=(
            f"explicit sizes: d = {SIZES['d']}, one unit (units do not "
            f"interact), d_out = {SIZES['d_out']}",
        ),
        uses=("conservation.noether", *inst.uses),
        statement=_statement(*(fact.formula for fact in instance_facts(inst))),
    )


# --- rank r: a matrix of conserved quantities ------------------------------------------------


def _gram_rate(velocity: sympy.MatrixExpr, W: MatrixSymbol) -> sympy.MatrixExpr:
    """``d/dt WᵀW = ẆᵀW + WᵀẆ``, kept unevaluated so that the step shows it."""
    return MatAdd(
        MatMul(Transpose(velocity), W, evaluate=False),
        MatMul(Transpose(W), velocity, evaluate=False),
        evaluate=False,
    )


@cache
def _rank_r_facts() -> tuple[tuple[sympy.Basic, sympy.Basic, Callable, str, str], ...]:
    """(lhs, rhs, checker, rule, note) of the rank-r argument: the gradients on the left, the
    products ΓK and ΓᵀQ as written on the right (the kernel multiplies them out)."""
    Q, K = symbolic_matrix("Q", 2, 2), symbolic_matrix("K", 2, 2)
    m = symbolic_matrix("m", 2, 2)
    M = Q * K.T
    objective = G(*M)
    at_m = dict(zip(m, M, strict=True))
    gamma = sympy.Matrix(2, 2, lambda i, j: sympy.diff(G(*m), m[i, j]).subs(at_m))
    grad = {
        name: sympy.ImmutableMatrix(W.applyfunc(lambda s: sympy.diff(objective, s)))
        for name, W in (("Q", Q), ("K", K))
    }
    gamma = sympy.ImmutableMatrix(gamma)
    d, r = sympy.symbols("d r", integer=True, positive=True)
    Qs, Ks, Gs = MatrixSymbol("Q_j", d, r), MatrixSymbol("K_j", d, r), MatrixSymbol("Gamma", d, d)
    dq = MatMul(-1, Gs, Ks, evaluate=False)  # the flow: Q̇ = −∇_Q L = −ΓK
    dk = MatMul(-1, Transpose(Gs), Qs, evaluate=False)  # K̇ = −∇_K L = −ΓᵀQ
    return (
        (
            grad["Q"],
            MatMul(gamma, sympy.ImmutableMatrix(K), evaluate=False),
            check_matrix_expr_equal,
            "chain rule, d = r = 2, G uninterpreted",
            "L = G(Q_jK_jᵀ): ∇_Q L = ΓK_j with Γ_ab = ∂G/∂M_ab (the product as written)",
        ),
        (
            grad["K"],
            MatMul(Transpose(gamma), sympy.ImmutableMatrix(Q), evaluate=False),
            check_matrix_expr_equal,
            "chain rule, d = r = 2, G uninterpreted",
            "∇_K L = ΓᵀQ_j",
        ),
        (
            MatAdd(_gram_rate(dq, Qs), -_gram_rate(dk, Ks), evaluate=False),
            ZeroMatrix(r, r),
            check_matrix_expr_equal,
            "MatrixExpr algebra at general d, r",
            "d/dt(Q_jᵀQ_j − K_jᵀK_j) = −(KᵀΓᵀQ + QᵀΓK) + (QᵀΓK + KᵀΓᵀQ) = 0",
        ),
    )


RANK_R = Claim(
    "conservation.rank_r",
    "rank r, any σ: Q_jᵀQ_j − K_jᵀK_j",
    "the three facts of the argument: the rank-r layer depends on (Q_j, K_j) only through "
    "M_j = Q_jK_jᵀ, so for every loss ∇_Q L = ΓK_j and ∇_K L = ΓᵀQ_j with Γ = ∂L/∂M_j (chain "
    "rule at d = r = 2); along gradient flow the r×r matrix Q_jᵀQ_j − K_jᵀK_j then has "
    "derivative 0 (general d, r): the GL(r) symmetry's Noether charge is conserved.",
    "D, A8",
    kind="corollary",
    uses=("conservation.noether", "rank_r.scores", "rank_r.gl"),
    assumptions=("chain rule at explicit d = r = 2; the Gram identity at general d, r",),
    statement=_statement(*(_eq(lhs, rhs) for lhs, rhs, *_ in _rank_r_facts())),
)


def rank_r() -> Derivation:
    steps = [
        Step(check(lhs, rhs), rule, note=note) for lhs, rhs, check, rule, note in _rank_r_facts()
    ]
    return Derivation((*steps, _conjunction(steps, "conjunction of steps 1–3")))


# --- SiLU and GELU gates: not conserved ------------------------------------------------------

BROKEN_GATES = ("silu", "gelu")
WITNESS = {"x": (1, 0), "q": (1, 0), "k": (1, 0), "v": 1, "y": 0}


@cache
def _broken_facts() -> tuple[tuple[str, sympy.Expr, sympy.Expr, sympy.Expr, dict, tuple], ...]:
    """Per gate: E(1) = 1·σ'(1) − σ(1) (SymPy differentiates σ; the kernel's simplification
    does not prove the derivative at 1 equal to it, so the step shows the value's expression),
    d/dt(‖q‖² − ‖k‖²) for the squared error, the witness point and the variables."""
    x, q, k = (symbolic_matrix(n, 1, 2) for n in ("x", "q", "k"))
    v, y = symbolic_matrix("v", 1, 1), sympy.Symbol("y", real=True)
    point = {
        **dict(zip(x, WITNESS["x"], strict=True)),
        **dict(zip(q, WITNESS["q"], strict=True)),
        **dict(zip(k, WITNESS["k"], strict=True)),
        v[0, 0]: WITNESS["v"],
        y: WITNESS["y"],
    }
    point = {s: sympy.Integer(val) for s, val in point.items()}
    facts = []
    for gate in BROKEN_GATES:
        sig = sympy.Lambda(z, ACTIVATIONS[gate].expr)
        objective = (layers.gated(x, q, k, v, sig)[0, 0] - y) ** 2 / 2
        rate = -2 * (_along(objective, {s: s for s in q}) - _along(objective, {s: s for s in k}))
        facts.append(
            (
                gate,
                None,
                _euler_form(1, sig)(sympy.Integer(1)),
                rate,
                point,
                tuple(sorted(point, key=str)),
            )
        )
    return tuple(facts)


def _not_conserved(rate: sympy.Expr, variables: tuple) -> sympy.Basic:
    """¬∀ θ, x, y: d/dt(‖q‖² − ‖k‖²) = 0."""
    return sympy.Not(ForAll(variables, _eq(rate, 0), domain=domain_of(variables)), evaluate=False)


BROKEN = Claim(
    "conservation.gated_qk_broken",
    "gated SiLU and GELU: ‖q_j‖² − ‖k_j‖² is not conserved",
    "for σ = SiLU and σ = GELU, Euler's relation zσ'(z) = σ(z) fails at z = 1, and "
    "d/dt(‖q_j‖² − ‖k_j‖²) = −2(⟨q_j, ∇_q L⟩ − ⟨k_j, ∇_k L⟩) is not 0 for every x, θ, y: it is "
    "nonzero for the squared error L = ½(F(x; θ) − y)² at x = (1, 0), q = k = (1, 0), v = 1, "
    "y = 0 (certified).",
    "D",
    kind="corollary",
    uses=("conservation.gated_qk",),
    assumptions=("d = 2, one unit, one output",),
    statement=_statement(
        *(
            f
            for _, _, value, rate, _, variables in _broken_facts()
            for f in (sympy.Ne(value, 0, evaluate=False), _not_conserved(rate, variables))
        )
    ),
)


def broken() -> Derivation:
    steps = []
    for gate, _, value, rate, point, variables in _broken_facts():
        steps.append(
            Step(
                check_nonzero(value),
                "certified (exact or interval)",
                note=f"σ = {gate}: E(1) = 1·σ'(1) − σ(1) ≠ 0 (p = 1 fails; no "
                "degree p fits: scaling)",
            )
        )
        fact = negate(counterexample(rate, 0, point, variables))
        steps.append(
            Step(
                fact,
                f"certified at the witness ({fact.verdict.method})",
                note=f"σ = {gate}: d/dt(‖q‖² − ‖k‖²) = −2(⟨q, ∇_q L⟩ − ⟨k, ∇_k L⟩) "
                "≠ 0 at the witness: not conserved",
            )
        )
    return Derivation((*steps, _conjunction(steps)))


# --- discrete steps and weight decay ---------------------------------------------------------


@cache
def _discrete_facts() -> tuple[tuple[sympy.Basic, sympy.Basic, Callable, str, str], ...]:
    k = sympy.Symbol("k", integer=True, positive=True)
    th, g, A = MatrixSymbol("theta", k, 1), MatrixSymbol("g", k, 1), MatrixSymbol("A", k, k)
    theta, gv, As = _coordinates("theta"), _coordinates("g"), _symmetric("a")
    return (
        (
            (th - eta * g).T * A * (th - eta * g) - th.T * A * th,
            eta**2 * g.T * A * g - eta * (g.T * A * th + th.T * A * g),
            check_matrix_expr_equal,
            "MatrixExpr algebra at general k",
            "(θ − ηg)ᵀA(θ − ηg) − θᵀAθ = η²gᵀAg − η(gᵀAθ + θᵀAg), any A",
        ),
        (
            _quad(theta - eta * gv, As) - _quad(theta, As),
            eta**2 * _quad(gv, As) - 2 * eta * _quad(gv, As, theta),
            check_equal,
            f"expand, k = {K_EXPLICIT}, A = Aᵀ",
            "with A symmetric: η²gᵀAg − 2η⟨g, Aθ⟩; g = ∇L with ⟨∇L, Aθ⟩ = 0 "
            "(conservation.noether) leaves exactly η²·∇LᵀA∇L",
        ),
    )


DISCRETE = Claim(
    "conservation.discrete_step",
    "one gradient step changes θᵀAθ by exactly η²·∇LᵀA∇L",
    "For θ' = θ − η∇L: θ'ᵀAθ' − θᵀAθ = η²∇LᵀA∇L − η(∇LᵀAθ + θᵀA∇L) (any A, general "
    "dimension) = η²∇LᵀA∇L − 2η⟨∇L, Aθ⟩ (A symmetric); with ⟨∇L, Aθ⟩ = 0 (a symmetry) the "
    "change is exactly η²·∇LᵀA∇L.",
    "D",
    uses=("conservation.noether",),
    assumptions=(f"general dimension k (MatrixSymbol); A symmetric at explicit k = {K_EXPLICIT}",),
    statement=_statement(*(_eq(lhs, rhs) for lhs, rhs, *_ in _discrete_facts())),
)


def _steps_of(facts) -> list[Step]:
    return [Step(check(lhs, rhs), rule, note=note) for lhs, rhs, check, rule, note in facts]


def discrete_step() -> Derivation:
    steps = _steps_of(_discrete_facts())
    return Derivation((*steps, _conjunction(steps, "conjunction of steps 1, 2")))


@cache
def _decay_facts() -> tuple[tuple[sympy.Basic, sympy.Basic, Callable, str, str], ...]:
    theta, g, A = _coordinates("theta"), _coordinates("g"), _symmetric("a")
    flow = sympy.Matrix([sympy.Function(f"theta_{i}", real=True)(t) for i in range(K_EXPLICIT)])
    rate = sympy.diff(_quad(flow, A), t).subs(
        {sympy.Derivative(c, t): -gi - lam * c for c, gi in zip(flow, g, strict=True)}
    )
    q0 = sympy.Symbol("Q_0", real=True)
    Qf = sympy.Function("Q", real=True)
    solution = q0 * sympy.exp(-2 * lam * t)
    return (
        (
            rate,
            -2 * _quad(g, A, flow) - 2 * lam * _quad(flow, A),
            check_equal,
            "product rule; A = Aᵀ; θ̇ = −g − λθ",
            "d/dt θᵀAθ = −2⟨∇L, Aθ⟩ − 2λθᵀAθ = −2λQ when ⟨∇L, Aθ⟩ = 0",
        ),
        (
            sympy.ImmutableMatrix([sympy.Derivative(solution, t), sympy.Subs(solution, t, 0)]),
            sympy.ImmutableMatrix([-2 * lam * solution, q0]),
            check_matrix_expr_equal,
            "differentiate; t = 0",
            "Q(t) = Q_0·e^{−2λt} solves Q' = −2λQ with Q(0) = Q_0",
        ),
        (
            sympy.Derivative(Qf(t) * sympy.exp(2 * lam * t), t),
            (sympy.Derivative(Qf(t), t) + 2 * lam * Qf(t)) * sympy.exp(2 * lam * t),
            check_equal,
            "product rule, Q uninterpreted",
            "uniqueness: any solution of Q' = −2λQ has (Q·e^{2λt})' = 0, so Q(t)e^{2λt} = Q(0)",
        ),
        (
            _quad((1 - eta * lam) * theta - eta * g, A),
            (1 - eta * lam) ** 2 * _quad(theta, A)
            - 2 * eta * (1 - eta * lam) * _quad(g, A, theta)
            + eta**2 * _quad(g, A),
            check_equal,
            f"expand, k = {K_EXPLICIT}, A = Aᵀ",
            "one step with decay: (1 − ηλ)²Q − 2η(1 − ηλ)⟨g, Aθ⟩ + η²gᵀAg",
        ),
    )


DECAY = Claim(
    "conservation.weight_decay",
    "with weight decay θᵀAθ decays as e^{−2λt}",
    "the four facts of the argument: along θ̇ = −∇L − λθ with ⟨∇L, Aθ⟩ = 0, Q(t) = θᵀAθ "
    "satisfies Q' = −2λQ; Q(t) = Q(0)·e^{−2λt} solves it, and is the only solution "
    "((Q·e^{2λt})' = (Q' + 2λQ)e^{2λt} = 0); one step θ' = (1 − ηλ)θ − η∇L gives "
    "Q' = (1 − ηλ)²Q + η²∇LᵀA∇L.",
    "D",
    uses=("conservation.noether",),
    assumptions=(f"θ ∈ R^{K_EXPLICIT}, A symmetric with symbolic entries",),
    statement=_statement(*(_eq(lhs, rhs) for lhs, rhs, *_ in _decay_facts())),
)


def weight_decay() -> Derivation:
    steps = _steps_of(_decay_facts())
    return Derivation((*steps, _conjunction(steps, "conjunction of steps 1–4")))


# --- the report ------------------------------------------------------------------------------


def instances_table(results: Sequence[Result]) -> Table:
    status = {r.claim.name: r.status for r in results}
    rows = [
        (
            inst.layer.__name__,
            ", ".join(f"{w}_j → a^({e}){w}_j" for w, e in inst.exponents),
            inst.quantity,
            ", ".join(inst.gates) if inst.gates else "any σ",
            status[f"conservation.{inst.key}"],
        )
        for inst in INSTANCES
    ]
    rows.append(
        (
            "rank_r",
            "(Q_j, K_j) → (Q_jB, K_jB^(−T))",
            "Q_jᵀQ_j − K_jᵀK_j",
            "any σ",
            status[RANK_R.name],
        )
    )
    rows.append(
        (
            "gated",
            "Q_j → aQ_j, K_j → K_j/a",
            "‖q_j‖² − ‖k_j‖² not conserved",
            ", ".join(BROKEN_GATES),
            status[BROKEN.name],
        )
    )
    return Table(
        "conserved",
        "What gradient flow conserves, per unit j (Noether)",
        ("layer", "symmetry", "conserved quantity", "σ", "status"),
        tuple(rows),
        notes=(
            "every loss ℓ(F(x; θ), y), any data; discrete steps add exactly "
            "η²·∇LᵀA∇L, weight decay λ multiplies by e^{−2λt}",
        ),
    )


def training_table(runs: Sequence[numeric.Run]) -> Table:
    rows = []
    for r in runs:
        for q in numeric.QUANTITIES:
            rows.append(
                (
                    r.gate,
                    numeric.QUANTITY_TEXT[q],
                    r.eta,
                    r.steps,
                    f"{r.total_drift(q):.6e}",
                    f"{float(max(abs(r.eta2[q]))):.6e}",
                    f"{r.law_error(q):.3e}",
                )
            )
    ratio_notes = tuple(
        f"{gate} {numeric.QUANTITY_TEXT[q]}: drift(2η)/drift(η) = "
        + ", ".join(f"{x:.4f}" for x in numeric.ratios(runs, gate, q))
        + " (η² law: 4; first order: 2)"
        for gate in numeric.GATES
        for q in numeric.QUANTITIES
    )
    return Table(
        "training",
        f"Training check: LLaMA-style block, plain SGD ({runs[0].backend})",
        ("gate", "quantity", "η", "steps", "max_j |drift|", "max_j |Σ η²gᵀAg|", "law miss (rel.)"),
        tuple(rows),
        notes=ratio_notes,
    )


def build_report(train: bool = False, torch: bool = False, steps: int = numeric.STEPS) -> Report:
    """Every claim of D; ``train`` adds the training check (torch when asked and installed)."""
    gates = numeric.pairing_checks()
    results = [Result(NOETHER, noether(), gates[:1])]
    results += [
        Result(
            instance_claim(inst),
            instance_derivation(inst),
            numeric.invariance_checks(inst.layer, inst.weights, inst.exponents, inst.gates),
        )
        for inst in INSTANCES
    ]
    results.append(Result(RANK_R, rank_r()))
    discrete = numeric.step_checks()
    tables, data = [], {}
    if train:
        runs, checks = numeric.training_report(steps, torch)
        discrete += checks
        tables.append(training_table(runs))
        data = {
            "training": numeric.records(runs),
            "ratios": {
                f"{g}.{q}": numeric.ratios(runs, g, q)
                for g in numeric.GATES
                for q in numeric.QUANTITIES
            },
        }
    results += [
        Result(BROKEN, broken(), gates[1:]),
        Result(DISCRETE, discrete_step(), discrete),
        Result(DECAY, weight_decay()),
    ]
    return Report(
        "proofs.conservation",
        "Noether's theorem for gradient flow",
        "D",
        tuple(results),
        (instances_table(results), *tables),
        data=data,
    )


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--train",
        action="store_true",
        help="add the training check: SGD on LLaMA-style ReGLU and SwiGLU "
        f"blocks at η = {', '.join(f'{e:g}' for e in numeric.ETAS)} "
        "(torch when installed, else numpy)",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=numeric.STEPS,
        metavar="T",
        help=f"gradient steps per training run (default {numeric.STEPS}, "
        f"at most {numeric.MAX_STEPS})",
    )
    parser.add_argument(
        "--plot",
        type=writable_file,
        metavar="FILE.png",
        help="with the training check: drift against step count, log scale "
        "(needs matplotlib: the 'plot' extra)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    built: list[Report] = []

    def options(args: argparse.Namespace) -> dict:
        from importlib.util import find_spec

        if args.plot and find_spec("matplotlib") is None:
            raise InvalidArgument("--plot needs matplotlib: pip install 'transformer-proofs[plot]'")
        if not 1 <= args.steps <= numeric.MAX_STEPS:
            raise InvalidArgument(f"--steps {args.steps}: expected 1 to {numeric.MAX_STEPS}")
        plot_to.append(args.plot)
        return {
            "train": args.train or bool(args.plot),
            "torch": torch_wanted(args),
            "steps": args.steps,
        }

    def build(**kw) -> Report:
        built.append(build_report(**kw))
        return built[-1]

    plot_to: list[str | None] = []
    code = run(build, __doc__, PROG, _add_arguments, options, argv)
    if built and plot_to and plot_to[0]:
        import sys

        print(f"wrote {numeric.plot(built[-1].data['training'], plot_to[0])}", file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
