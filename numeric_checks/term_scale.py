"""The size of the terms a layer's float64 evaluation adds up, entry by entry.

A cross-check compares ``F(x; Tθ)`` with ``F(x; θ)`` to a tolerance relative to a scale. The
output's own size is no scale when the layer cancels: ``(x Kᵀ) V − x (Kᵀ V)`` and
``relu(x Kᵀ) V − relu(−x Kᵀ) V − x Kᵀ V`` are 0 exactly, and in float64 two equal layers
evaluated on rescaled weights differ by round-off of the *terms* (~10⁻¹⁶ of them), which is all
of the output's size — a proved invariance was reported ``failed`` (exit 1). The rounding error
of an evaluation is a few ulps of the terms it combines, so the tolerance is taken relative to
them: this module carries, beside each node's value ``v``, a bound ``m`` on the magnitude of
the terms that made it (``|v| ≤ m``):

* a token or parameter: ``|v|``; ``Aᵀ``: ``m_Aᵀ``; ``c·A``: ``|c|·m_A``; ``−A``: ``m_A``;
* ``A ± B``: ``m_A + m_B``; ``A ⊙ B``: ``m_A ⊙ m_B``; ``A @ B``: ``m_A @ m_B``;
* ``σ(A)``: ``|σ(v_A)| + s·m_A``, with ``s`` σ's local slope (a central difference): an error
  ``ε·m_A`` in the argument moves σ by about ``s·ε·m_A``.

A numeric filter, never a verdict: it only sets the scale of a cross-check's tolerance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from symbolic.languages.layer_language import Layer, Node

SLOPE_STEP = 1e-6  # relative step of the central difference that estimates σ's slope


def term_scale(
    layer: Layer, x: np.ndarray, values: Mapping[str, np.ndarray], functions: Mapping[str, Callable]
) -> float:
    """The largest finite term magnitude of the layer's output entries (0.0 when none is)."""

    def walk(node: Node) -> tuple[np.ndarray, np.ndarray]:
        op = node.op
        if op == "x":
            v = np.asarray(x, dtype=np.float64)
            return v, np.abs(v)
        if op == "param":
            v = np.asarray(values[node.name], dtype=np.float64)
            return v, np.abs(v)
        args = [walk(a) for a in node.args]
        (va, ma), (vb, mb) = args[0], (args[1] if len(args) > 1 else (None, None))
        if op == "T":
            return va.T, ma.T
        if op == "@":
            return va @ vb, ma @ mb
        if op == "*":
            return va * vb, ma * mb
        if op == "scale":
            c = float(node.value)
            return c * va, abs(c) * ma
        if op == "+":
            return va + vb, ma + mb
        if op == "-":
            return va - vb, ma + mb
        if op == "neg":
            return -va, ma
        f = functions[node.name]  # call: σ elementwise
        out = np.asarray(f(va), dtype=np.float64)
        h = SLOPE_STEP * (1.0 + np.abs(va))
        slope = np.abs(np.asarray(f(va + h), dtype=np.float64) - f(va - h)) / (2 * h)
        return out, np.abs(out) + slope * ma

    with np.errstate(all="ignore"):
        _, m = walk(layer.root)
    finite = np.asarray(m)[np.isfinite(m)]
    return float(np.max(finite, initial=0.0))


def gap_over_terms(a: np.ndarray, b: np.ndarray, scale: float) -> float:
    """Largest ``|a − b|`` relative to the larger of the outputs' size and the terms' ``scale``
    (``numeric_checks.activations.relative_gap`` with the terms counted)."""
    a, b = np.asarray(a), np.asarray(b)
    size = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)))
    return float(np.max(np.abs(a - b), initial=0.0)) / max(size, scale, 1e-300)


__all__ = ["gap_over_terms", "term_scale"]
