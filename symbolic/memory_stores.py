"""The one table of associative-memory stores (THEORY.md Part B).

``M`` pairs ``(k_m, v_m)`` of independent uniform unit vectors are stored; the query is a stored
key ``q = k_i`` and the recall is ``r = Σ_m w_m v_m``. For every store but least squares the
weights are ``w_m = f(s_m)`` of the similarity ``s_m = k_m·q``; ``weight`` is ``f`` as a SymPy
expression in ``s`` (and ``beta``), built from ``symbolic.activations.ACTIVATIONS``, and
``normalized_weight`` the numpy function ``f(s)/f(1)`` used by the Monte Carlo (for softmax it
is ``exp(β(s − 1))``, which cannot overflow; it may overwrite its argument). Tests check that
the two agree.

``expectation`` says how ``E[f(s)²]`` is obtained in closed form:

* ``moments`` — ``f²`` is a polynomial with even powers on each half-line (``relu^p``, outer
  product, ReLU GLU): a combination of the even moments ``E[s^(2k)]``;
* ``mgf`` — ``f(s)² = exp(2βs)``: the moment generating function;
* ``quadrature`` — no closed form (SwiGLU): a certified numeric enclosure;
* ``projection`` — least squares, whose recall is not of the form ``Σ f(s_m) v_m``.

``source`` is the seed's capacity at ``d = 64`` (``β = 8``), an "≈" figure.

Adding a store is one entry here; the proofs, the Monte Carlo and the tests pick it up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import sympy

from symbolic.activations import ACTIVATIONS
from symbolic.similarity_law import beta_, s

Expectation = Literal["moments", "mgf", "quadrature", "projection"]


@dataclass(frozen=True)
class MemoryStore:
    """One row of the store table."""

    name: str
    title: str
    weight_text: str
    weight: sympy.Expr | None
    normalized_weight: Callable[[np.ndarray, float], np.ndarray] | None
    expectation: Expectation
    source: float
    source_text: str
    note: str = ""
    square_bound: sympy.Expr | None = None  # c·s^(2j) ≥ f(s)² (tails of a certified quadrature)

    @property
    def uses_beta(self) -> bool:
        return self.weight is not None and beta_ in self.weight.free_symbols


def _ratio(activation: str, gate_times_s: bool = False
           ) -> Callable[[np.ndarray, float], np.ndarray]:
    """``σ(s)/σ(1)`` or, for a tied-key GLU, ``σ(s)·s/σ(1)``, from the activation table."""
    act = ACTIVATIONS[activation].numpy
    at_one = float(act(np.array(1.0)))

    def weight(S: np.ndarray, beta: float) -> np.ndarray:  # noqa: ARG001 (same signature)
        out = act(S)
        if gate_times_s:
            out = out * S
        out /= at_one
        return out

    return weight


def _softmax_ratio(S: np.ndarray, beta: float) -> np.ndarray:
    """``exp(β(S − 1))``, computed in place in ``S`` (the similarity block is not reused)."""
    S -= 1.0
    S *= beta
    return np.exp(S, out=S)


def _sym(activation: str) -> sympy.Expr:
    return ACTIVATIONS[activation].sympy_at(s)


STORES: dict[str, MemoryStore] = {
    m.name: m
    for m in (
        MemoryStore("outer_product", "outer product W = Σ v_m k_mᵀ", "s", s,
                    lambda S, beta: S, "moments", 64, "≈ 64 (≈ d)"),
        MemoryStore("least_squares", "least squares W = V K⁺ (optimal linear)", "P_mi",
                    None, None, "projection", 128, "≈ 128 (≈ 2d)",
                    "exact recall for M ≤ d"),
        MemoryStore("relu", "MLP, ReLU", "relu(s)", _sym("relu"), _ratio("relu"), "moments",
                    128, "≈ 128"),
        MemoryStore("relu2", "MLP, ReLU²", "relu(s)²", _sym("relu2"), _ratio("relu2"),
                    "moments", 2700, "≈ 2,700"),
        MemoryStore("relu3", "MLP, ReLU³", "relu(s)³", _sym("relu3"), _ratio("relu3"),
                    "moments", 35000, "≈ 35,000"),
        MemoryStore("glu_relu", "GLU, ReLU gate, tied keys", "relu(s)·s", _sym("relu") * s,
                    _ratio("relu", gate_times_s=True), "moments", 2700, "≈ 2,700",
                    "the seed's 'squared-ReLU GLU'; relu(s)·s = relu(s)²"),
        MemoryStore("swiglu", "SwiGLU, tied keys", "silu(s)·s", _sym("silu") * s,
                    _ratio("silu", gate_times_s=True), "quadrature", 2900, "≈ 2,900",
                    "gate input is s itself (unit keys, no √d scaling)",
                    square_bound=s**4),  # |silu(s)·s| = s²·sigmoid(s) ≤ s²
        MemoryStore("softmax", "softmax attention", "exp(βs)/Z", sympy.exp(beta_ * s),
                    _softmax_ratio, "mgf", 1.2e6, "≈ 1.2 million (β = 8)",
                    "the normalizer Z scales signal and interference alike"),
    )
}


def get(name: str) -> MemoryStore:
    """The table entry called ``name``; the error lists the valid names."""
    try:
        return STORES[name]
    except KeyError:
        raise KeyError(f"unknown store {name!r}; valid stores: {', '.join(STORES)}") from None
