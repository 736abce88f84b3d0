"""The layer forms of docs/theory.md Part A, defined once for SymPy matrices, numpy and torch.

Tokens are rows: ``x`` has shape ``(B, d)`` (a SymPy ``Matrix`` of shape ``(1, d)`` works too).
Weights hold one row per unit: ``Q, K, V`` have shape ``(n, d)`` (``V``: ``(n, d_out)``).
Rank-r weights are sequences of ``n`` matrices of shape ``(d, r)``; full bilinear weights are
sequences of ``n`` matrices ``M_j`` of shape ``(d, d)``.

``sigma`` is applied elementwise: a SymPy ``Function``/``Lambda`` for SymPy matrices, a
callable on arrays for numpy and torch.

The same functions accept ``MatrixSymbol`` expressions of *symbolic* shape (``B × d`` with
``B, d`` SymPy symbols): σ becomes ``ElementwiseApplyFunction`` and ⊙ ``HadamardProduct``, so a
proof at general dimension manipulates the very layer the numeric checks evaluate.

>>> import sympy
>>> s = sympy.Function("sigma")
>>> x = sympy.Matrix([[2, 3]]); Q = sympy.Matrix([[1, 0]]); K = sympy.Matrix([[0, 1]])
>>> gated(x, Q, K, sympy.Matrix([[1]]), s)
Matrix([[3*sigma(2)]])
>>> symmetric_rank1(x, Q, K, sympy.Matrix([[1]]), s)
Matrix([[sigma(6)]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

Array = Any  # sympy.Matrix | numpy.ndarray | torch.Tensor


def _is_sympy(a: Array) -> bool:
    return isinstance(a, sympy.MatrixBase)


def _is_matrix_expr(a: Array) -> bool:
    """A SymPy matrix expression of symbolic shape (``MatrixSymbol`` algebra), not explicit."""
    return isinstance(a, sympy.MatrixExpr) and not _is_sympy(a)


def hadamard(a: Array, b: Array) -> Array:
    """Elementwise product ⊙."""
    if _is_matrix_expr(a) or _is_matrix_expr(b):
        return sympy.HadamardProduct(a, b)
    return a.multiply_elementwise(b) if _is_sympy(a) else a * b


def apply(sigma: Callable, a: Array) -> Array:
    """σ applied elementwise."""
    if _is_matrix_expr(a):
        from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

        return ElementwiseApplyFunction(sigma, a)
    return a.applyfunc(sigma) if _is_sympy(a) else sigma(a)


def _row_sums(a: Array) -> Array:
    """Sum over the last axis, keeping a column: shape (B, r) -> (B, 1)."""
    if _is_sympy(a):
        return a * sympy.ones(a.shape[1], 1)
    if _is_matrix_expr(a):
        return a @ sympy.OneMatrix(a.shape[1], 1)
    if hasattr(a, "dim"):  # torch
        return a.sum(-1, keepdim=True)
    return a.sum(-1, keepdims=True)


def _hstack(cols: Sequence[Array]) -> Array:
    if len(cols) == 1:
        return cols[0]
    if _is_sympy(cols[0]):
        return sympy.Matrix.hstack(*cols)
    if any(_is_matrix_expr(c) for c in cols):
        return sympy.BlockMatrix([list(cols)])
    first = cols[0]
    if hasattr(first, "dim"):  # torch
        import torch

        return torch.cat(list(cols), dim=-1)
    import numpy as np

    return np.concatenate(list(cols), axis=-1)


# --- A1, A2: key-value memory ------------------------------------------------------------


def mlp(x: Array, K: Array, V: Array, sigma: Callable) -> Array:
    """A1: ``σ(x Kᵀ) V = Σ_j σ(x·k_j) v_j``."""
    return apply(sigma, x @ K.T) @ V


def static_query(x: Array, Qs: Array, K: Array, V: Array, sigma: Callable) -> Array:
    """A2: a global query matrix ``Qs ∈ R^{d×d}``: ``σ((x Qs) Kᵀ) V``."""
    return apply(sigma, (x @ Qs) @ K.T) @ V


def absorbed_keys(Qs: Array, K: Array) -> Array:
    """A2: the keys ``K' = K Qsᵀ`` of the ordinary MLP equal to ``static_query``."""
    return K @ Qs.T


# --- A2 with biases: the augmented token x̃ = [x, 1] ---------------------------------------
# A bias is a row: shape (1, n) for SymPy, (n,) or (1, n) for numpy and torch.


def mlp_with_bias(x: Array, K: Array, b: Array, V: Array, sigma: Callable) -> Array:
    """A1 as real code has it: ``σ(x Kᵀ + b) V``."""
    return apply(sigma, _add_row(x @ K.T, b)) @ V


def static_query_with_bias(
    x: Array, Qs: Array, bq: Array, K: Array, bk: Array, V: Array, sigma: Callable
) -> Array:
    """A2 with biases: ``σ((x Qs + b_q) Kᵀ + b_k) V``."""
    return apply(sigma, _add_row(_add_row(x @ Qs, bq) @ K.T, bk)) @ V


def absorbed_bias(bq: Array, K: Array, bk: Array) -> Array:
    """A2: the bias ``b' = b_q Kᵀ + b_k`` of the ordinary MLP equal to the biased static query."""
    return _add_row(_as_row(bq) @ K.T, bk)


def augment(x: Array) -> Array:
    """``x̃ = [x, 1]``: a column of ones appended, shape (B, d + 1)."""
    return _hstack([x, _constant(x, 1, x.shape[0], 1)])


def augmented_keys(K: Array, b: Array) -> Array:
    """``K̃ = [K, bᵀ]``, shape (n, d + 1), so that ``x̃ K̃ᵀ = x Kᵀ + b``."""
    return _hstack([K, _as_row(b).T])


def augmented_query(Qs: Array, b: Array) -> Array:
    """``Q̃ = [[Qs, 0], [b, 1]]``, shape (d + 1, d + 1), so that ``x̃ Q̃ = [x Qs + b, 1]``."""
    d = Qs.shape[0]
    return _block([[Qs, _constant(Qs, 0, d, 1)], [_as_row(b), _constant(Qs, 1, 1, 1)]])


def _is_symbolic(a: Array) -> bool:
    return _is_sympy(a) or _is_matrix_expr(a)


def _as_row(b: Array) -> Array:
    """A bias as a (1, n) row (SymPy biases must be rows already)."""
    return b if _is_symbolic(b) else b.reshape(1, -1)


def _add_row(a: Array, b: Array) -> Array:
    """``a + 1 b``: the row ``b`` added to every row of ``a``."""
    b = _as_row(b)
    if _is_symbolic(a):  # SymPy does not broadcast
        return a + _constant(a, 1, a.shape[0], 1) @ b
    return a + b


def _constant(like: Array, value: int, rows: Any, cols: Any) -> Array:
    """A ``rows × cols`` matrix filled with ``value`` (0 or 1), of the same kind as ``like``."""
    if _is_sympy(like):
        return sympy.ones(rows, cols) * value
    if _is_matrix_expr(like):
        return sympy.OneMatrix(rows, cols) if value else sympy.ZeroMatrix(rows, cols)
    if hasattr(like, "dim"):  # torch
        import torch

        return torch.full((rows, cols), value, dtype=like.dtype, device=like.device)
    import numpy as np

    return np.full((rows, cols), value, dtype=like.dtype)


def _block(rows: Sequence[Sequence[Array]]) -> Array:
    """The block matrix ``[[A, B], [C, D]]`` of the blocks' kind."""
    first = rows[0][0]
    if _is_sympy(first):
        return sympy.Matrix.vstack(*(sympy.Matrix.hstack(*r) for r in rows))
    if _is_matrix_expr(first):
        return sympy.BlockMatrix([list(r) for r in rows])
    if hasattr(first, "dim"):  # torch
        import torch

        return torch.cat([torch.cat(list(r), dim=-1) for r in rows], dim=0)
    import numpy as np

    return np.block([list(r) for r in rows])


# --- A3, A4, A5: bilinear attention, rank 1, gated ----------------------------------------


def bilinear_scores(x: Array, Ms: Sequence[Array]) -> Array:
    """A3: scores ``x M_j xᵀ`` of every unit, shape (B, n)."""
    return _hstack([_row_sums(hadamard(x @ M, x)) for M in Ms])


def bilinear(x: Array, Ms: Sequence[Array], V: Array, sigma: Callable) -> Array:
    """A3: ``Σ_j σ(x M_j xᵀ) v_j`` with ``M_j = Q_j K_jᵀ``."""
    return apply(sigma, bilinear_scores(x, Ms)) @ V


def rank_r_scores(x: Array, Qs: Sequence[Array], Ks: Sequence[Array]) -> Array:
    """A8: ``Σ_s (x·q_js)(x·k_js)`` for ``Q_j, K_j ∈ R^{d×r}``, shape (B, n)."""
    return _hstack([_row_sums(hadamard(x @ Q, x @ K)) for Q, K in zip(Qs, Ks, strict=True)])


def rank_r(x: Array, Qs: Sequence[Array], Ks: Sequence[Array], V: Array, sigma: Callable) -> Array:
    """A8: bilinear attention with ``M_j = Q_j K_jᵀ`` of rank ≤ r."""
    return apply(sigma, rank_r_scores(x, Qs, Ks)) @ V


def gated_rank_r(
    x: Array, Qs: Sequence[Array], Ks: Sequence[Array], V: Array, sigma: Callable
) -> Array:
    """A8 with σ moved onto the query factor: ``Σ_s σ(x·q_js)(x·k_js)``."""
    cols = [_row_sums(hadamard(apply(sigma, x @ Q), x @ K)) for Q, K in zip(Qs, Ks, strict=True)]
    return _hstack(cols) @ V


def symmetric_rank1(x: Array, Q: Array, K: Array, V: Array, sigma: Callable) -> Array:
    """A4: ``σ((x Qᵀ) ⊙ (x Kᵀ)) V`` — the symmetric rank-1 bilinear form."""
    return apply(sigma, hadamard(x @ Q.T, x @ K.T)) @ V


def gated(x: Array, Q: Array, K: Array, V: Array, sigma: Callable) -> Array:
    """A5: ``(σ(x Qᵀ) ⊙ (x Kᵀ)) V`` — the gated MLP (GLU family)."""
    return hadamard(apply(sigma, x @ Q.T), x @ K.T) @ V


@dataclass(frozen=True)
class LayerForm:
    """A row of the layer-form table: name, THEORY item, formula, implementation, storage."""

    name: str
    source: str
    formula: str
    fn: Callable[..., Array]
    weights: str  # what the weights are
    parameters: str  # storage per layer as a formula in n, d, r
    expression: str | None = None  # the form in the layer language (languages.layer_language)
    shapes: tuple[tuple[str, tuple[str, str]], ...] = ()  # parameters that are not n×d
    expression_note: str = ""  # why a form has no expression


SUM_OVER_UNITS = (
    "a sum over units with a d×r (or d×d) factor per unit: the layer language has "
    "no index notation for it; use python -m proofs.rank_r (its GL(r) and Q ↔ K "
    "symmetries) — at r = 1 it is the symmetric_rank1 (or gated) form"
)


LAYER_FORMS: dict[str, LayerForm] = {
    f.name: f
    for f in (
        LayerForm("mlp", "A1", "σ(x Kᵀ) V", mlp, "K, V ∈ R^{n×d}", "2*n*d", "sigma(x @ K.T) @ V"),
        LayerForm(
            "static_query",
            "A2",
            "σ((x Q) Kᵀ) V",
            static_query,
            "Q ∈ R^{d×d}; K, V ∈ R^{n×d}",
            "d**2 + 2*n*d",
            "sigma((x @ Q) @ K.T) @ V",
            (("Q", ("d", "d")),),
        ),
        LayerForm(
            "bilinear",
            "A3",
            "Σ_j σ(x Q_j K_jᵀ xᵀ) v_j",
            bilinear,
            "M_j = Q_j K_jᵀ ∈ R^{d×d}; V ∈ R^{n×d}",
            "n*d**2 + n*d",
            expression_note=SUM_OVER_UNITS,
        ),
        LayerForm(
            "rank_r",
            "A8",
            "Σ_j σ(Σ_s (x·q_js)(x·k_js)) v_j",
            rank_r,
            "Q_j, K_j ∈ R^{d×r}; V ∈ R^{n×d}",
            "2*n*d*r + n*d",
            expression_note=SUM_OVER_UNITS,
        ),
        LayerForm(
            "symmetric_rank1",
            "A4",
            "σ((x Qᵀ) ⊙ (x Kᵀ)) V",
            symmetric_rank1,
            "Q, K, V ∈ R^{n×d}",
            "3*n*d",
            "sigma((x @ Q.T) * (x @ K.T)) @ V",
        ),
        LayerForm(
            "gated",
            "A5",
            "(σ(x Qᵀ) ⊙ (x Kᵀ)) V",
            gated,
            "Q, K, V ∈ R^{n×d}",
            "3*n*d",
            "(sigma(x @ Q.T) * (x @ K.T)) @ V",
        ),
        LayerForm(
            "gated_rank_r",
            "A8",
            "Σ_j (Σ_s σ(x·q_js)(x·k_js)) v_j",
            gated_rank_r,
            "Q_j, K_j ∈ R^{d×r}; V ∈ R^{n×d}",
            "2*n*d*r + n*d",
            expression_note=SUM_OVER_UNITS,
        ),
    )
}


def parameter_count(form: str, **sizes: int) -> sympy.Expr:
    """The ``parameters`` formula of ``LAYER_FORMS[form]`` in n, d, r (positive integer symbols),
    evaluated at ``sizes`` (e.g. ``d=4, n=3``) when given."""
    names = {s.name: s for s in sympy.symbols("n d r", integer=True, positive=True)}
    formula = sympy.sympify(LAYER_FORMS[form].parameters, locals=names)
    return formula.subs({names[k]: v for k, v in sizes.items()})


def symbolic_matrix(name: str, rows: int, cols: int) -> sympy.Matrix:
    """A matrix of real symbols ``name_i_j`` (explicit sizes, for SymPy derivations)."""
    return sympy.Matrix(rows, cols, lambda i, j: sympy.Symbol(f"{name}_{i}_{j}", real=True))


# --- Unevaluated forms, for derivations -----------------------------------------------------
# SymPy rewrites as it builds: (KQᵀ)ᵀ becomes QKᵀ, products flatten, and σ(·) elementwise gets a
# fresh bound variable each time. A step between two forms built by the functions above can so
# come out as X = X. Derivations write the forms they relate with these builders, which keep
# every product, sum, transpose and σ as written; the kernel's checkers and rules relate them.

ELEMENT = sympy.Symbol("u", real=True)  # the bound variable of every σ applied elementwise


def held_product(*factors: sympy.Basic) -> sympy.MatrixExpr:
    """``A B …`` as written (no flattening, no transposes pushed inward)."""
    return sympy.MatMul(*factors, evaluate=False)


def held_sum(*terms: sympy.Basic) -> sympy.MatrixExpr:
    """``A + B + …`` as written."""
    return sympy.MatAdd(*terms, evaluate=False)


def held_apply(sigma: Callable, a: sympy.MatrixExpr) -> sympy.MatrixExpr:
    """σ applied elementwise to ``a``, always with the bound variable ``ELEMENT`` (so two
    forms that apply σ to the same matrix are structurally equal)."""
    from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

    return ElementwiseApplyFunction(sympy.Lambda(ELEMENT, sigma(ELEMENT)), a)
