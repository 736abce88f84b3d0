"""symbolic.layers: the layer forms on every backend, the bias helpers, and the two checkers of
identities at general dimension (``matrix_identity`` and the sum normal form)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st
from sympy import Identity, Inverse, MatMul, MatrixSymbol, Sum, Transpose

from symbolic import layers, steps
from symbolic.activations import ACTIVATIONS
from symbolic.engine import Derivation
from symbolic.kernel import sum_normal_form
from symbolic.steps import entry_identity, exchange_outer_sums

B, d, n, r = sympy.symbols("B d n r", integer=True, positive=True)
i, j, k = sympy.symbols("i j k", integer=True)
sigma = sympy.Function("sigma")
x = MatrixSymbol("x", B, d)
Q = MatrixSymbol("Q", d, d)
K = MatrixSymbol("K", n, d)
V = MatrixSymbol("V", n, d)
ROUND_OFF = 1e-12  # float64 layers of width ≤ 6: errors are ~1e-15


def test_docstring_examples_run():
    assert doctest.testmod(layers, raise_on_error=True).attempted > 0


# --- The forms on SymPy matrices, numpy and torch -----------------------------------------------


def _explicit(name: str, rows: int, cols: int) -> sympy.Matrix:
    return layers.symbolic_matrix(name, rows, cols)


def test_gated_and_symmetric_rank1_entries_at_explicit_size():
    xs, qs, ks, vs = (
        _explicit(nm, *sh)
        for nm, sh in (("x", (1, 2)), ("Q", (1, 2)), ("K", (1, 2)), ("V", (1, 1)))
    )
    a = qs[0, 0] * xs[0, 0] + qs[0, 1] * xs[0, 1]
    b = ks[0, 0] * xs[0, 0] + ks[0, 1] * xs[0, 1]
    assert sympy.expand(layers.gated(xs, qs, ks, vs, sigma)[0, 0] - sigma(a) * b * vs[0, 0]) == 0
    assert (
        sympy.expand(
            layers.symmetric_rank1(xs, qs, ks, vs, sigma)[0, 0]
            - sigma(sympy.expand(a * b)) * vs[0, 0]
        )
        == 0
    )


@pytest.mark.parametrize("form", sorted(layers.LAYER_FORMS))
def test_every_form_agrees_between_sympy_and_numpy(form):
    rng = np.random.default_rng(0)
    dims = dict(B=2, d=3, n=2, r=2)
    weights = _random_weights(form, rng, **dims)
    xv = rng.standard_normal((dims["B"], dims["d"]))
    numeric = layers.LAYER_FORMS[form].fn(xv, *weights, np.tanh)
    as_sympy = [
        [sympy.Matrix(w) for w in a] if isinstance(a, list) else sympy.Matrix(a) for a in weights
    ]
    exact = layers.LAYER_FORMS[form].fn(sympy.Matrix(xv), *as_sympy, sympy.tanh)
    assert np.allclose(np.array(exact.evalf(), dtype=float), numeric, rtol=0, atol=ROUND_OFF)


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
@pytest.mark.parametrize("form", sorted(layers.LAYER_FORMS))
def test_every_form_agrees_between_torch_and_numpy(form):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    weights = _random_weights(form, rng, B=3, d=4, n=3, r=2)
    xv = rng.standard_normal((3, 4))
    to_t = lambda a: torch.from_numpy(a)  # noqa: E731
    t_weights = [[to_t(w) for w in a] if isinstance(a, list) else to_t(a) for a in weights]
    got = layers.LAYER_FORMS[form].fn(to_t(xv), *t_weights, ACTIVATIONS["silu"].torch_fn())
    want = layers.LAYER_FORMS[form].fn(xv, *weights, ACTIVATIONS["silu"].numpy)
    assert np.allclose(got.numpy(), want, rtol=0, atol=ROUND_OFF)


def _random_weights(form: str, rng, B: int, d: int, n: int, r: int) -> list:
    g = lambda *s: rng.standard_normal(s)  # noqa: E731
    return {
        "mlp": [g(n, d), g(n, d)],
        "static_query": [g(d, d), g(n, d), g(n, d)],
        "bilinear": [[g(d, d) for _ in range(n)], g(n, d)],
        "rank_r": [[g(d, r) for _ in range(n)], [g(d, r) for _ in range(n)], g(n, d)],
        "gated_rank_r": [[g(d, r) for _ in range(n)], [g(d, r) for _ in range(n)], g(n, d)],
        "symmetric_rank1": [g(n, d), g(n, d), g(n, d)],
        "gated": [g(n, d), g(n, d), g(n, d)],
    }[form]


def test_matrix_expressions_of_symbolic_shape():
    assert isinstance(layers.hadamard(x * Q, x), sympy.HadamardProduct)
    from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

    assert isinstance(layers.apply(sigma, x * K.T), ElementwiseApplyFunction)
    assert layers.gated(x, K, K, V, sigma).shape == (B, d)
    assert layers.rank_r_scores(
        MatrixSymbol("x", 1, d), [MatrixSymbol("Q", d, r)], [MatrixSymbol("K", d, r)]
    ).shape == (1, 1)


def test_explicit_sympy_matrices_keep_their_behaviour():
    m = sympy.Matrix([[1, 2]])
    assert layers.hadamard(m, m) == sympy.Matrix([[1, 4]])
    assert layers.apply(sympy.Lambda(sympy.Symbol("t"), 2 * sympy.Symbol("t")), m) == 2 * m


# --- Bias helpers -----------------------------------------------------------------------------


def test_augmented_shapes_and_values_numpy():
    xv, qv, bq = np.arange(6.0).reshape(2, 3), np.eye(3), np.array([1.0, 2.0, 3.0])
    assert layers.augment(xv).tolist() == [[0, 1, 2, 1], [3, 4, 5, 1]]
    qt = layers.augmented_query(qv, bq)
    assert qt.shape == (4, 4) and qt[3].tolist() == [1, 2, 3, 1] and qt[:3, 3].tolist() == [0] * 3
    kt = layers.augmented_keys(np.ones((2, 3)), np.array([7.0, 8.0]))
    assert kt[:, 3].tolist() == [7, 8]


def test_augmented_token_exactly_sympy():
    xs, qs, ks = _explicit("x", 2, 3), _explicit("Q", 3, 3), _explicit("K", 2, 3)
    bq, bk, vs = _explicit("bq", 1, 3), _explicit("bk", 1, 2), _explicit("V", 2, 2)
    lhs = layers.static_query_with_bias(xs, qs, bq, ks, bk, vs, sigma)
    aug = layers.static_query(
        layers.augment(xs), layers.augmented_query(qs, bq), layers.augmented_keys(ks, bk), vs, sigma
    )
    absorbed = layers.mlp_with_bias(
        xs, layers.absorbed_keys(qs, ks), layers.absorbed_bias(bq, ks, bk), vs, sigma
    )
    assert (lhs - aug).applyfunc(sympy.expand) == sympy.zeros(2, 2)
    assert (lhs - absorbed).applyfunc(sympy.expand) == sympy.zeros(2, 2)


@given(
    st.integers(1, 4),
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from(sorted(ACTIVATIONS)),
)
def test_bias_absorption_property(batch, dim, units, seed, act):
    """σ((xQ + b_q)Kᵀ + b_k)V = σ(x̃Q̃K̃ᵀ)V = σ(x(KQᵀ)ᵀ + b_qKᵀ + b_k)V on random layers."""
    rng = np.random.default_rng(seed)
    xv, qv = rng.standard_normal((batch, dim)), rng.standard_normal((dim, dim)) / np.sqrt(dim)
    kv, vv = rng.standard_normal((units, dim)) / np.sqrt(dim), rng.standard_normal((units, 2))
    bq, bk = rng.standard_normal(dim), rng.standard_normal(units)
    s = ACTIVATIONS[act].numpy
    lhs = layers.static_query_with_bias(xv, qv, bq, kv, bk, vv, s)
    aug = layers.static_query(
        layers.augment(xv), layers.augmented_query(qv, bq), layers.augmented_keys(kv, bk), vv, s
    )
    absorbed = layers.mlp_with_bias(
        xv, layers.absorbed_keys(qv, kv), layers.absorbed_bias(bq, kv, bk), vv, s
    )
    scale = max(1.0, np.abs(lhs).max())
    assert np.abs(lhs - aug).max() <= ROUND_OFF * scale
    assert np.abs(lhs - absorbed).max() <= ROUND_OFF * scale


def test_parameter_count_formulas():
    assert layers.parameter_count("bilinear", n=3, d=4) == 60
    assert layers.parameter_count("rank_r", n=3, d=4, r=2) == 60
    assert layers.parameter_count("gated", n=11008, d=4096) == 3 * 11008 * 4096
    n_, d_ = (sympy.Symbol(s, integer=True, positive=True) for s in "nd")
    assert layers.parameter_count("mlp") == 2 * n_ * d_


# --- matrix_identity: proves the true, never the false ------------------------------------------


def test_matrix_identity_proves_absorption_at_general_dimension():
    lhs = MatMul(MatMul(x, Q, evaluate=False), Transpose(K), evaluate=False)
    rhs = MatMul(x, Transpose(MatMul(K, Transpose(Q), evaluate=False)), evaluate=False)
    v = steps.matrix_identity(lhs, rhs)
    assert v.status == "proved" and v.method == "sympy" and "ZeroMatrix" in v.reason


def test_matrix_identity_proves_the_gl_symmetry():
    qj, kj, a = MatrixSymbol("Q", d, r), MatrixSymbol("K", d, r), MatrixSymbol("A", r, r)
    moved = MatMul(
        qj, a, Transpose(MatMul(kj, Transpose(Inverse(a)), evaluate=False)), evaluate=False
    )
    assert steps.matrix_identity(moved, qj * kj.T).status == "proved"


@pytest.mark.parametrize(
    "case",
    ["no transpose", "inverse not transposed", "gated vs sym", "bias missing", "wrong shape"],
)
def test_matrix_identity_never_proves_a_false_identity(case):
    qj, kj, a = MatrixSymbol("Q", d, r), MatrixSymbol("K", d, r), MatrixSymbol("A", r, r)
    bq, bk = MatrixSymbol("b_q", 1, d), MatrixSymbol("b_k", 1, n)
    lhs, rhs = {
        "no transpose": (x * Q * K.T, x * (K * Q).T),
        "inverse not transposed": (
            MatMul(qj, a, Transpose(MatMul(kj, Inverse(a), evaluate=False)), evaluate=False),
            qj * kj.T,
        ),
        "gated vs sym": (
            layers.gated(x, K, K, V, sigma),
            layers.symmetric_rank1(x, K, K, V, sigma),
        ),
        "bias missing": (
            layers.static_query_with_bias(x, Q, bq, K, bk, V, sigma),
            layers.mlp_with_bias(x, layers.absorbed_keys(Q, K), bq * K.T, V, sigma),
        ),
        "wrong shape": (x * K.T, x),
    }[case]
    verdict = steps.matrix_identity(lhs, rhs)
    assert verdict.status != "proved"
    if case == "wrong shape":
        assert verdict.status == "refuted" and "shapes differ" in verdict.reason


def test_a_failing_step_fails_the_derivation():
    good = steps.matrix_step(x * Identity(d), x, "identity", note="good")
    bad = steps.matrix_step(x * Q, x, "wrong", note="bad")
    derivation = Derivation((good, bad))
    assert good.verdict.status == "proved"
    assert derivation.verdict.status == "unknown" and "step 2" in derivation.verdict.reason


# --- The sum normal form ----------------------------------------------------------------------

xs1 = MatrixSymbol("x", 1, d)


def test_index_names_do_not_matter():
    a = Sum(xs1[0, i] * K[j, i], (i, 0, d - 1))
    b = Sum(xs1[0, k] * K[j, k], (k, 0, d - 1))
    assert a != b and sum_normal_form(a) == sum_normal_form(b)
    assert entry_identity(a, b).status == "proved"


def test_linearity_moves_constants_and_splits_sums():
    c = sympy.Symbol("c")
    a = Sum(c * (xs1[0, i] + K[0, i]), (i, 0, d - 1))
    b = c * Sum(xs1[0, k], (k, 0, d - 1)) + c * Sum(K[0, j], (j, 0, d - 1))
    assert entry_identity(sympy.expand(a), b).status == "proved"


def test_single_value_sums_are_evaluated():
    assert sum_normal_form(Sum(K[i, 0], (i, 2, 2))) == K[2, 0]


def test_different_sums_are_not_identified():
    a = Sum(xs1[0, i] * K[j, i], (i, 0, d - 1))
    assert entry_identity(a, Sum(xs1[0, i] * K[i, j], (i, 0, d - 1))).status != "proved"
    assert entry_identity(a, Sum(xs1[0, i] * K[j, i], (i, 0, d - 2))).status != "proved"


def test_a_user_symbol_named_like_a_level_is_not_captured():
    iota = sympy.Symbol("ι0", integer=True)
    a = Sum(K[i, 0] * iota, (i, 0, d - 1))
    b = Sum(K[iota, 0] * i, (i, 0, d - 1))
    assert entry_identity(a, b).status != "proved"


def test_a_quadratic_form_equals_its_transpose_via_fubini():
    m = MatrixSymbol("M", d, d)
    s_m, s_mt = (xs1 * m * xs1.T)[0, 0], (xs1 * m.T * xs1.T)[0, 0]
    assert entry_identity(s_mt, s_m).status != "proved"  # needs the exchange of sums
    assert entry_identity(exchange_outer_sums(s_mt), s_m).status == "proved"


def test_exchange_outer_sums_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="expected a double sum"):
        exchange_outer_sums(Sum(K[i, 0], (i, 0, d - 1)))
    with pytest.raises(ValueError, match="depend on each other"):
        exchange_outer_sums(Sum(K[i, j], (i, 0, j), (j, 0, d - 1)))


@given(st.permutations(["i", "j", "k", "l"]))
def test_normal_form_is_invariant_under_renaming(names):
    """Σ_a Σ_b x_a K_ab x_b written with any two index names has one normal form."""
    a_, b_ = (sympy.Symbol(nm, integer=True) for nm in names[:2])
    expr = Sum(xs1[0, a_] * K[a_, b_] * xs1[0, b_], (a_, 0, d - 1), (b_, 0, n - 1))
    ref = Sum(xs1[0, i] * K[i, j] * xs1[0, j], (i, 0, d - 1), (j, 0, n - 1))
    assert sum_normal_form(expr) == sum_normal_form(ref)
