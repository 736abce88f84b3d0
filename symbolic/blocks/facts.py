"""Block facts beside the candidates: RoPE-commuting rotations and pre-norm scale invariance."""

from __future__ import annotations

import sympy

from symbolic.blocks.forms import (
    BLOCK_TIMEOUT_S,
    EPSILON,
    d,
)
from symbolic.kernel import (
    Fact,
    check_equal,
    check_sum_equal,
    counterexample,
)

# --- RoPE-commuting rotations: the scores' entry at symbolic positions -----------------------


def rope_rotation_facts() -> list[Fact]:
    """``rope(q A, t)·rope(k A^{−T}, s)ᵀ = rope(q, t)·rope(k, s)ᵀ`` for A acting in each RoPE
    plane as ``a I + b J`` (J the quarter turn: the matrices that commute with every rotation,
    i.e. the scaled rotations, a² + b² ≠ 0), one and two planes (``check_equal``). A position's
    rotation is ``[[c, s], [−s, c]]`` with c, s symbolic (cos and sin of any position times any
    frequency), so the identity is rational: A^{−T} = A/(a² + b²), written out."""
    facts = []
    for planes in (1, 2):
        q = sympy.Matrix(1, 2 * planes, lambda i, j: sympy.Symbol(f"q{j}", real=True))
        k = sympy.Matrix(1, 2 * planes, lambda i, j: sympy.Symbol(f"k{j}", real=True))
        at_t, at_s, A, A_inv_T = (
            sympy.diag(*[_plane(f"{n}{i}", f"{m}{i}", inv) for i in range(planes)])
            for n, m, inv in (
                ("c_t", "s_t", False),
                ("c_s", "s_s", False),
                ("a", "b", False),
                ("a", "b", True),
            )
        )
        # Kept under the context (it clears SymPy's cache; two entries per run): the entry's
        # tree is whatever SymPy's explicit matrix product builds with evaluation off
        with sympy.evaluate(False):
            lhs = (q * A * at_t * (k * A_inv_T * at_s).T)[0, 0]
        rhs = sympy.expand((q * at_t * (k * at_s).T)[0, 0])
        facts.append(check_equal(lhs, rhs, timeout_s=BLOCK_TIMEOUT_S))
    return facts


def _plane(cos_name: str, sin_name: str, inverse_transpose: bool) -> sympy.Matrix:
    """``[[c, s], [−s, c]]`` (c, s real symbols), or its inverse transpose
    ``[[c, s], [−s, c]]/(c² + s²)``."""
    c, s = sympy.Symbol(cos_name, real=True), sympy.Symbol(sin_name, real=True)
    scale = 1 / (c**2 + s**2) if inverse_transpose else 1
    return sympy.Matrix([[c * scale, s * scale], [-s * scale, c * scale]])


# --- pre-norm scale invariance: X → cX, c > 0 ------------------------------------------------


def norm_scale_facts() -> tuple[Fact, Fact, Fact]:
    """Entry (t, i) of RMSNorm at general d: (1) ``RMSNorm(cX) = RMSNorm(X)`` for c > 0 when
    ε = 0 (sum normal form), so any f(RMSNorm(X)) is invariant; (2) with ε > 0 it is not
    (a certified witness at d = 1, ε = 10⁻⁵, X = 1/1000, c = 2); (3) the residual sum
    ``X + RMSNorm(X)·W`` is not invariant even at ε = 0 (d = 1, X = W = 1, c = 2)."""
    c = sympy.Symbol("c", positive=True)
    X = sympy.IndexedBase("X", real=True)
    i, k = sympy.symbols("i k", integer=True)
    eps = sympy.Symbol("epsilon", nonnegative=True)

    def rms(scale, e):
        return scale * X[i] / sympy.sqrt(sympy.Sum(scale**2 * X[k] ** 2, (k, 0, d - 1)) / d + e)

    exact = check_sum_equal(rms(c, 0), rms(1, 0))
    x, w = sympy.symbols("x w", real=True)

    def rms1(scale, e):  # d = 1
        return scale * x / sympy.sqrt(scale**2 * x**2 + e)

    with_eps = counterexample(
        rms1(c, eps), rms1(1, eps), {c: 2, x: sympy.Rational(1, 1000), eps: EPSILON}, (c, x, eps)
    )
    residual = counterexample(
        c * x + rms1(c, 0) * w, x + rms1(1, 0) * w, {c: 2, x: 1, w: 1}, (c, x, w)
    )
    return exact, with_eps, residual
