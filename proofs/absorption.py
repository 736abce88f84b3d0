"""A static query adds nothing to an MLP (docs/theory.md A2).

Statement. For every activation σ and all x ∈ R^{B×d}, Q ∈ R^{d×d}, K ∈ R^{n×d},
V ∈ R^{n×d_out}: σ((xQ)Kᵀ)V = σ(x(KQᵀ)ᵀ)V, so the static-query layer is the ordinary MLP
with keys K' = KQᵀ; conversely every MLP is the static-query layer with Q = I. With biases,
σ((xQ + b_q)Kᵀ + b_k)V is the MLP with keys KQᵀ and bias b_qKᵀ + b_k: on the augmented token
x̃ = [x, 1] both are static-query layers of width d + 1.

The identities are proved at general B, d, n, d_out (SymPy ``MatrixSymbol`` algebra, σ an
uninterpreted function), cross-checked at explicit sizes with symbolic entries, and evaluated
on random float64 layers for every activation of the table (numpy; torch when installed).

Run: ``python -m proofs.absorption [-v] [--json] [--latex [FILE]] [--no-torch]``
"""

from __future__ import annotations

import sympy
from sympy import Identity, MatMul, Transpose

from numeric_checks import layers as numeric
from proofs._cli import run, torch_option
from symbolic import layers
from symbolic.check import equal_matrices_step
from symbolic.dimension_free import matrix_step
from symbolic.engine import Claim, Derivation, Report, Result
from symbolic.layers import symbolic_matrix

B, d, n, d_out = sympy.symbols("B d n d_out", integer=True, positive=True)
ORDER = 2  # place in `python -m proofs` (A2)
sigma = sympy.Function("sigma")  # uninterpreted: nothing is assumed about σ
GENERAL = "[general B, d, n, d_out]"
EXPLICIT = dict(B=2, d=3, n=2, d_out=2)  # sizes of the symbolic-entry cross-checks
AT_EXPLICIT = "[B=2, d=3, n=2, d_out=2; symbolic entries]"

x = sympy.MatrixSymbol("x", B, d)
Qs = sympy.MatrixSymbol("Q", d, d)
K = sympy.MatrixSymbol("K", n, d)
V = sympy.MatrixSymbol("V", n, d_out)
b_q = sympy.MatrixSymbol("b_q", 1, d)
b_k = sympy.MatrixSymbol("b_k", 1, n)

ASSUMPTIONS = ("B, d, n, d_out ≥ 1 symbolic (general dimension)",
               "σ: R → R arbitrary (an uninterpreted function)")

ABSORPTION = Claim(
    "absorption.static_query", "A static query matrix absorbs into the keys",
    "σ((xQ)Kᵀ)V = σ(x(KQᵀ)ᵀ)V for all x, Q ∈ R^{d×d}, K, V and every σ: the layer is the "
    "ordinary MLP with keys K' = KQᵀ, with identical outputs for every x.",
    "A2", assumptions=ASSUMPTIONS)
MLP_IS_STATIC_QUERY = Claim(
    "absorption.mlp_is_static_query", "Every MLP is a static-query layer",
    "σ(xKᵀ)V = σ((xI)Kᵀ)V, and with a bias σ(xKᵀ + b)V = σ((x̃ I)K̃ᵀ)V with x̃ = [x, 1], "
    "K̃ = [K, bᵀ].",
    "A2", kind="corollary", assumptions=ASSUMPTIONS)
WITH_BIASES = Claim(
    "absorption.with_biases", "Absorption with biases",
    "σ((xQ + b_q)Kᵀ + b_k)V = σ(x(KQᵀ)ᵀ + b')V with b' = b_qKᵀ + b_k: the biased static-query "
    "layer is the biased MLP with keys KQᵀ. Proof: on x̃ = [x, 1] it is the static-query layer "
    "with Q̃ = [[Q, 0], [b_q, 1]] and K̃ = [K, b_kᵀ], to which the unbiased case applies.",
    "A2", uses=("absorption.static_query",), assumptions=ASSUMPTIONS)


def absorption() -> Derivation:
    """(xQ)Kᵀ = x(KQᵀ)ᵀ, then σ(·)V of both sides, at general and at explicit sizes."""
    lhs = MatMul(MatMul(x, Qs, evaluate=False), Transpose(K), evaluate=False)
    rhs = MatMul(x, Transpose(MatMul(K, Transpose(Qs), evaluate=False)), evaluate=False)
    e = {k: symbolic_matrix(k, *shape) for k, shape in (
        ("x", (EXPLICIT["B"], EXPLICIT["d"])), ("Q", (EXPLICIT["d"], EXPLICIT["d"])),
        ("K", (EXPLICIT["n"], EXPLICIT["d"])), ("V", (EXPLICIT["n"], EXPLICIT["d_out"])))}
    return Derivation((
        matrix_step(lhs,
                    rhs,
                    "transpose of a product: (KQᵀ)ᵀ = QKᵀ; associativity",
                    note=f"{GENERAL} (xQ)Kᵀ = x(KQᵀ)ᵀ"),
        matrix_step(layers.static_query(x, Qs, K, V, sigma),
                    layers.mlp(x, layers.absorbed_keys(Qs, K), V, sigma),
                    "apply σ elementwise, then multiply by V, on both sides of step 1",
                    note=f"{GENERAL} static_query(x, Q, K, V, σ) = mlp(x, KQᵀ, V, σ)"),
        equal_matrices_step(layers.static_query(e["x"], e["Q"], e["K"], e["V"], sigma),
                            layers.mlp(e["x"], layers.absorbed_keys(e["Q"], e["K"]), e["V"],
                                       sigma),
                            "expand every entry",
                            note=f"{AT_EXPLICIT} static_query = mlp(x, KQᵀ, V, σ), entry by entry"),
    ))


def mlp_is_static_query() -> Derivation:
    """Q = I, and a bias as the last column of K̃ acting on x̃ = [x, 1]."""
    b = sympy.MatrixSymbol("b", 1, n)
    eye = Identity(d)
    return Derivation((
        matrix_step(MatMul(MatMul(x, eye, evaluate=False),
                                                       Transpose(K), evaluate=False),
                    x * K.T,
                    "I is the identity of the matrix product",
                    note=f"{GENERAL} (xI)Kᵀ = xKᵀ"),
        matrix_step(layers.mlp(x, K, V, sigma),
                    layers.static_query(x, eye, K, V, sigma),
                    "apply σ elementwise and multiply by V",
                    note=f"{GENERAL} mlp(x, K, V, σ) = static_query(x, I, K, V, σ)"),
        matrix_step(layers.augment(x) @ layers.augmented_keys(K, b).T,
                    x * K.T + sympy.OneMatrix(B, 1) * b,
                    "block matrix product",
                    note=f"{GENERAL} x̃ K̃ᵀ = xKᵀ + 1b  (x̃ = [x, 1], K̃ = [K, bᵀ], 1 ∈ R^{{B×1}})"),
        matrix_step(layers.mlp_with_bias(x, K, b, V, sigma),
                    layers.static_query(layers.augment(x), Identity(d + 1),
                                        layers.augmented_keys(K, b), V, sigma),
                    "step 3 inside σ; I_(d+1) is the identity",
                    note=f"{GENERAL} mlp_with_bias(x, K, b, V, σ) = static_query(x̃, I_(d+1), K̃, V, σ)"),
    ))


def with_biases() -> Derivation:
    """The biased layer is a static-query layer on x̃; absorb Q̃ into K̃ by A2 at width d + 1."""
    xt, Qt, Kt = layers.augment(x), layers.augmented_query(Qs, b_q), layers.augmented_keys(K, b_k)
    one = sympy.OneMatrix(B, 1)
    absorbed = layers.augmented_keys(layers.absorbed_keys(Qs, K),
                                     layers.absorbed_bias(b_q, K, b_k))
    return Derivation((
        matrix_step(xt @ Qt,
                    sympy.BlockMatrix([[x * Qs + one * b_q, one]]),
                    "block matrix product",
                    note=f"{GENERAL} x̃Q̃ = [xQ + 1b_q, 1]"),
        matrix_step((xt @ Qt) @ Kt.T,
                    (x * Qs + one * b_q) * K.T + one * b_k,
                    "block matrix product",
                    note=f"{GENERAL} (x̃Q̃)K̃ᵀ = (xQ + 1b_q)Kᵀ + 1b_k"),
        matrix_step(layers.static_query_with_bias(x, Qs, b_q, K, b_k, V, sigma),
                    layers.static_query(xt, Qt, Kt, V, sigma),
                    "step 2 inside σ",
                    note=f"{GENERAL} static_query_with_bias(x, Q, b_q, K, b_k, V, σ) "
                    "= static_query(x̃, Q̃, K̃, V, σ)"),
        matrix_step(layers.static_query(xt, Qt, Kt, V, sigma),
                    layers.mlp(xt, layers.absorbed_keys(Qt, Kt), V, sigma),
                    "absorption.static_query at width d + 1",
                    note=f"{GENERAL} static_query(x̃, Q̃, K̃, V, σ) = mlp(x̃, K̃Q̃ᵀ, V, σ)"),
        matrix_step(layers.absorbed_keys(Qt, Kt),
                    absorbed,
                    "block matrix product; (b_qKᵀ)ᵀ = Kb_qᵀ",
                    note=f"{GENERAL} K̃Q̃ᵀ = [KQᵀ, (b_qKᵀ + b_k)ᵀ]"),
        matrix_step(layers.mlp(xt, layers.absorbed_keys(Qt, Kt), V, sigma),
                    layers.mlp_with_bias(x, layers.absorbed_keys(Qs, K),
                                         layers.absorbed_bias(b_q, K, b_k), V, sigma),
                    "step 5, then the block product x̃K̃'ᵀ = xK'ᵀ + 1b'",
                    note=f"{GENERAL} mlp(x̃, K̃Q̃ᵀ, V, σ) = mlp_with_bias(x, KQᵀ, b_qKᵀ + b_k, V, σ)"),
    ))


def build_report(torch: bool = False) -> Report:
    """Every claim of A2 with its derivation and numeric cross-checks."""
    def checks(*names: str):
        return numeric.checks(names, torch=torch)

    results = (
        Result(ABSORPTION, absorption(), checks("absorption")),
        Result(MLP_IS_STATIC_QUERY, mlp_is_static_query(),
               checks("mlp_is_static_query", "biased_mlp_is_static_query")),
        Result(WITH_BIASES, with_biases(),
               checks("absorption_with_bias", "augmented_static_query")),
    )
    return Report("proofs.absorption", "Static query absorption", "A2", results)


def main(argv: list[str] | None = None) -> int:
    return run(build_report, __doc__, "python -m proofs.absorption",
               options=torch_option, argv=argv)


if __name__ == "__main__":
    raise SystemExit(main())
