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
from sympy import Transpose

from numeric_checks import layers as numeric
from proofs._cli import run, torch_option
from symbolic import layers
from symbolic.calc import Calc, held_and, in_context, rule_step
from symbolic.engine import Claim, Derivation, Report, Result
from symbolic.kernel import check_matrix_expr_equal, cong, conj
from symbolic.layers import symbolic_matrix
from symbolic.steps import equal_matrices_step, matrix_step

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

ASSUMPTIONS = (
    "B, d, n, d_out ≥ 1 symbolic (general dimension)",
    "σ: R → R arbitrary (an uninterpreted function)",
)

P, S, A = layers.held_product, layers.held_sum, layers.held_apply
ONE = sympy.OneMatrix(B, 1)  # a column of ones: 1b adds the row b to every row
SCORE = sympy.MatrixSymbol("h", B, n)  # the hole of the layer context: σ(·)V around a score


def layer(score: sympy.MatrixExpr) -> sympy.MatrixExpr:
    """``σ(score)V``: the layer around its score matrix, as written."""
    return P(A(sigma, score), V)


LAYER = sympy.Lambda(SCORE, layer(SCORE))
AUGMENTED_SCORE = sympy.MatrixSymbol("h", B, d + 1)  # a hole for the augmented token x̃


def _eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Eq:
    return sympy.Eq(lhs, rhs, evaluate=False)


def _augmented(x_: sympy.MatrixExpr) -> sympy.BlockMatrix:
    """``x̃ = [x, 1]``."""
    return sympy.BlockMatrix([[x_, ONE]])


def _keys(K_: sympy.MatrixExpr, bias: sympy.MatrixExpr) -> sympy.BlockMatrix:
    """``K̃ = [K, bᵀ]``."""
    return sympy.BlockMatrix([[K_, Transpose(bias)]])


# the scores of each form, as the paper writes them
STATIC_SCORE = P(P(x, Qs), Transpose(K))  # (xQ)Kᵀ
ABSORBED_SCORE = P(x, Transpose(P(K, Transpose(Qs))))  # x(KQᵀ)ᵀ: the MLP with keys KQᵀ
XT, KB = _augmented(x), sympy.MatrixSymbol("b", 1, n)
BIASED_STATIC_SCORE = S(P(S(P(x, Qs), P(ONE, b_q)), Transpose(K)), P(ONE, b_k))
ABSORBED_BIAS = S(P(b_q, Transpose(K)), b_k)  # b' = b_qKᵀ + b_k
BIASED_MLP_SCORE = S(P(x, Transpose(P(K, Transpose(Qs)))), P(ONE, ABSORBED_BIAS))

ABSORPTION = Claim(
    "absorption.static_query",
    "A static query matrix absorbs into the keys",
    "for all x, Q ∈ R^{d×d}, K, V and every σ: the layer is the ordinary MLP with keys "
    "K' = KQᵀ, with identical outputs for every x.",
    "A2",
    assumptions=ASSUMPTIONS,
    statement=_eq(layer(STATIC_SCORE), layer(ABSORBED_SCORE)),
)
MLP_IS_STATIC_QUERY = Claim(
    "absorption.mlp_is_static_query",
    "Every MLP is a static-query layer",
    "σ(xKᵀ)V is the static-query layer with Q = I, and σ(xKᵀ + 1b)V the static-query layer "
    "with Q = I_(d+1) on x̃ = [x, 1] with keys K̃ = [K, bᵀ].",
    "A2",
    kind="corollary",
    assumptions=ASSUMPTIONS,
    statement=held_and(
        _eq(layer(P(x, Transpose(K))), layer(P(P(x, sympy.Identity(d)), Transpose(K)))),
        _eq(
            layer(S(P(x, Transpose(K)), P(ONE, KB))),
            layer(P(P(XT, sympy.Identity(d + 1)), Transpose(_keys(K, KB)))),
        ),
    ),
)
WITH_BIASES = Claim(
    "absorption.with_biases",
    "Absorption with biases",
    "the biased static-query layer σ((xQ + 1b_q)Kᵀ + 1b_k)V is the biased MLP with keys KQᵀ and "
    "bias b' = b_qKᵀ + b_k. Proof: on x̃ = [x, 1] it is the static-query layer with "
    "Q̃ = [[Q, 0], [b_q, 1]] and K̃ = [K, b_kᵀ], to which the unbiased case applies.",
    "A2",
    uses=("absorption.static_query",),
    assumptions=ASSUMPTIONS,
    statement=_eq(layer(BIASED_STATIC_SCORE), layer(BIASED_MLP_SCORE)),
)


def absorption() -> Derivation:
    """(xQ)Kᵀ = x(KQᵀ)ᵀ; the same σ(·)V of both sides (congruence); explicit sizes too."""
    e = {
        k: symbolic_matrix(k, *shape)
        for k, shape in (
            ("x", (EXPLICIT["B"], EXPLICIT["d"])),
            ("Q", (EXPLICIT["d"], EXPLICIT["d"])),
            ("K", (EXPLICIT["n"], EXPLICIT["d"])),
            ("V", (EXPLICIT["n"], EXPLICIT["d_out"])),
        )
    }
    scores = matrix_step(
        STATIC_SCORE,
        ABSORBED_SCORE,
        "transpose of a product: (KQᵀ)ᵀ = QKᵀ; associativity",
        note=f"{GENERAL} (xQ)Kᵀ = x(KQᵀ)ᵀ",
    )
    return Derivation(
        (
            scores,
            equal_matrices_step(
                layers.static_query(e["x"], e["Q"], e["K"], e["V"], sigma),
                layers.mlp(e["x"], layers.absorbed_keys(e["Q"], e["K"]), e["V"], sigma),
                "expand every entry",
                note=f"{AT_EXPLICIT} static_query = mlp(x, KQᵀ, V, σ), entry by entry",
            ),
            in_context(
                scores,
                SCORE,
                layer(SCORE),
                "step 1 inside σ(·)V (congruence: equal scores give equal layers)",
                note=f"{GENERAL} static_query(x, Q, K, V, σ) = mlp(x, KQᵀ, V, σ)",
            ),
        )
    )


def mlp_is_static_query() -> Derivation:
    """Q = I; and a bias as the last column of K̃ acting on x̃ = [x, 1], with Q = I_(d+1)."""
    identity = matrix_step(
        P(x, Transpose(K)),
        P(P(x, sympy.Identity(d)), Transpose(K)),
        "I is the identity of the matrix product",
        note=f"{GENERAL} xKᵀ = (xI)Kᵀ",
    )
    plain = in_context(
        identity,
        SCORE,
        layer(SCORE),
        "step 1 inside σ(·)V (congruence)",
        note=f"{GENERAL} mlp(x, K, V, σ) = static_query(x, I, K, V, σ)",
    )
    kt = _keys(K, KB)
    biased = (
        Calc(S(P(x, Transpose(K)), P(ONE, KB)))
        .eq(
            P(XT, Transpose(kt)),
            "block matrix product: [x, 1][K, bᵀ]ᵀ = xKᵀ + 1b",
            check=check_matrix_expr_equal,
            note=f"{GENERAL} xKᵀ + 1b = x̃K̃ᵀ (x̃ = [x, 1], K̃ = [K, bᵀ], 1 ∈ R^{{B×1}})",
        )
        .eq(
            P(P(XT, sympy.Identity(d + 1)), Transpose(kt)),
            "I_(d+1) is the identity",
            check=check_matrix_expr_equal,
            note=f"{GENERAL} x̃K̃ᵀ = (x̃I)K̃ᵀ",
        )
        .steps(note=f"{GENERAL} xKᵀ + 1b = (x̃I)K̃ᵀ")
    )
    with_bias = in_context(
        biased[-1],
        SCORE,
        layer(SCORE),
        "step 5 inside σ(·)V (congruence)",
        note=f"{GENERAL} mlp_with_bias(x, K, b, V, σ) = static_query(x̃, I_(d+1), K̃, V, σ)",
    )
    return Derivation(
        (
            identity,
            plain,
            *biased,
            with_bias,
            rule_step(conj(plain.fact, with_bias.fact), "conjunction of steps 2 and 6"),
        )
    )


def with_biases() -> Derivation:
    """The biased layer is a static-query layer on x̃; absorb Q̃ into K̃ (A2 at width d + 1)."""
    Qt, Kt = layers.augmented_query(Qs, b_q), _keys(K, b_k)
    absorbed = sympy.BlockMatrix([[P(K, Transpose(Qs)), Transpose(ABSORBED_BIAS)]])
    keys = matrix_step(
        P(Kt, Transpose(Qt)),
        absorbed,
        "block matrix product; (b_qKᵀ)ᵀ = Kb_qᵀ",
        note=f"{GENERAL} K̃Q̃ᵀ = [KQᵀ, (b_qKᵀ + b_k)ᵀ]",
    )
    hole = sympy.MatrixSymbol("k", n, d + 1)
    scores = (
        Calc(BIASED_STATIC_SCORE)
        .eq(
            P(P(XT, Qt), Transpose(Kt)),
            "block matrix product: x̃Q̃ = [xQ + 1b_q, 1], times K̃ᵀ = [Kᵀ; b_k]",
            check=check_matrix_expr_equal,
            note=f"{GENERAL} (xQ + 1b_q)Kᵀ + 1b_k = (x̃Q̃)K̃ᵀ",
        )
        .eq(
            P(XT, Transpose(P(Kt, Transpose(Qt)))),
            "absorption.static_query's first step at width d + 1: (x̃Q̃)K̃ᵀ = x̃(K̃Q̃ᵀ)ᵀ",
            check=check_matrix_expr_equal,
            note=f"{GENERAL} (x̃Q̃)K̃ᵀ = x̃(K̃Q̃ᵀ)ᵀ",
        )
        .eq(
            P(XT, Transpose(absorbed)),
            "step 1 inside x̃(·)ᵀ (congruence)",
            by=cong(keys.fact, sympy.Lambda(hole, P(XT, Transpose(hole)))),
            note=f"{GENERAL} x̃(K̃Q̃ᵀ)ᵀ = x̃[KQᵀ, b'ᵀ]ᵀ",
        )
        .eq(
            BIASED_MLP_SCORE,
            "block matrix product: x̃[K', b'ᵀ]ᵀ = xK'ᵀ + 1b'",
            check=check_matrix_expr_equal,
            note=f"{GENERAL} x̃[KQᵀ, b'ᵀ]ᵀ = x(KQᵀ)ᵀ + 1b'",
        )
        .steps(note=f"{GENERAL} (xQ + 1b_q)Kᵀ + 1b_k = x(KQᵀ)ᵀ + 1(b_qKᵀ + b_k)")
    )
    return Derivation(
        (
            keys,
            *scores,
            in_context(
                scores[-1],
                SCORE,
                layer(SCORE),
                "step 6 inside σ(·)V (congruence)",
                note=f"{GENERAL} static_query_with_bias(x, Q, b_q, K, b_k, V, σ) = "
                "mlp_with_bias(x, KQᵀ, b_qKᵀ + b_k, V, σ)",
            ),
        )
    )


def build_report(torch: bool = False) -> Report:
    """Every claim of A2 with its derivation and numeric cross-checks."""

    def checks(*names: str):
        return numeric.checks(names, torch=torch)

    results = (
        Result(ABSORPTION, absorption(), checks("absorption")),
        Result(
            MLP_IS_STATIC_QUERY,
            mlp_is_static_query(),
            checks("mlp_is_static_query", "biased_mlp_is_static_query"),
        ),
        Result(
            WITH_BIASES, with_biases(), checks("absorption_with_bias", "augmented_static_query")
        ),
    )
    return Report("proofs.absorption", "Static query absorption", "A2", results)


def main(argv: list[str] | None = None) -> int:
    return run(
        build_report, __doc__, "python -m proofs.absorption", options=torch_option, argv=argv
    )


if __name__ == "__main__":
    raise SystemExit(main())
