"""The one table of activations.

Each entry gives the SymPy expression in ``z``, an independent numpy implementation (so that the
two can be cross-checked), the real ``torch.nn.functional`` call (built lazily: torch is
optional), and the properties docs/theory.md states for it (used only as expectations in tests and
in the theorem tables; the verdicts themselves are always computed).

Adding an activation is one entry in ``ACTIVATIONS``; every theorem, check and test picks it up.
An elementary function its expression uses must be a row of the functions table
(``symbolic.languages.functions``); see docs/adding-an-activation.md.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy
from sympy.core.parameters import global_parameters

from symbolic.kernel import literal_replace

z = sympy.Symbol("z", real=True)

# torch's SELU constants (torch/nn/functional.py docs; Klambauer et al. 2017), as exact decimals.
SELU_ALPHA = sympy.Rational("1.6732632423543772848170429916717")
SELU_SCALE = sympy.Rational("1.0507009873554804934193349852946")
LEAKY_SLOPE = sympy.Rational(1, 100)  # torch's default negative_slope
GELU_TANH_CUBIC = sympy.Rational("0.044715")  # Hendrycks & Gimpel's tanh approximation
QUICK_GELU_SCALE = sympy.Rational("1.702")  # OpenAI CLIP's sigmoid approximation of GELU

_vector_erf = np.vectorize(math.erf, otypes=[float])


def _erf(x: np.ndarray) -> np.ndarray:
    """``erf`` elementwise. A module function (pickled by reference), not the ``np.vectorize``
    object itself: once called, that holds a ufunc which pickle cannot serialize, so a closure
    reaching it (a Dask task pickled by value) could not be sent to a worker."""
    return _vector_erf(x)


def np_sigmoid(x: np.ndarray) -> np.ndarray:
    # Stable for large |x|: exp never overflows.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _np_softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def _np_elu(x: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0.0)))


def sympy_sigmoid(e: sympy.Expr) -> sympy.Expr:
    return 1 / (1 + sympy.exp(-e))


def sympy_softplus(e: sympy.Expr) -> sympy.Expr:
    return sympy.log(1 + sympy.exp(e))


def sympy_relu(e: sympy.Expr) -> sympy.Expr:
    return sympy.Max(0, e)


@dataclass(frozen=True)
class Activation:
    """One activation function σ: R → R.

    ``degree`` is docs/theory.md's positive-homogeneity degree (None: not homogeneous of any degree)
    and ``linear`` whether σ(z) = σ(1)·z; both are *expectations* that tests compare against
    the computed verdicts.
    """

    name: str
    expr: sympy.Expr
    numpy: Callable[[np.ndarray], np.ndarray]
    torch: Callable[[Any], Callable[[Any], Any]] | None
    torch_name: str
    linear: bool
    degree: sympy.Rational | int | None
    note: str = ""

    def sympy_at(self, value: sympy.Expr) -> sympy.Expr:
        """σ(value) as a SymPy expression (computed once per expression, value and SymPy's
        evaluate flag: the theorem modules ask for the same σ(q·k) many times)."""
        return _substituted(self.expr, value, global_parameters.evaluate)

    def torch_fn(self) -> Callable[[Any], Any]:
        """The real torch implementation (imports torch; raise ImportError when absent)."""
        import torch
        import torch.nn.functional as F  # noqa: N812

        if self.torch is None:
            raise LookupError(f"activation {self.name!r} has no torch counterpart")
        return self.torch((torch, F))


@functools.lru_cache(maxsize=4096)
def _substituted(expr: sympy.Expr, value: sympy.Expr, evaluate: bool) -> sympy.Expr:
    return expr.subs(z, value) if evaluate else literal_replace(expr, {z: value})


def _act(name, expr, np_fn, torch_fn, torch_name, linear=False, degree=None, note=""):
    return Activation(name, expr, np_fn, torch_fn, torch_name, linear, degree, note)


_r = sympy.Max(0, z)
ACTIVATIONS: dict[str, Activation] = {
    a.name: a
    for a in (
        _act(
            "identity",
            z,
            lambda x: x,
            lambda t: lambda x: x,
            "torch.nn.Identity",
            linear=True,
            degree=1,
            note="bilinear GLU",
        ),
        _act(
            "relu",
            _r,
            lambda x: np.maximum(x, 0.0),
            lambda t: t[1].relu,
            "F.relu",
            degree=1,
            note="ReGLU",
        ),
        _act(
            "leaky_relu",
            sympy.Max(z, LEAKY_SLOPE * z),
            lambda x: np.where(x > 0, x, 0.01 * x),
            lambda t: lambda x: t[1].leaky_relu(x, negative_slope=0.01),
            "F.leaky_relu(negative_slope=0.01)",
            degree=1,
        ),
        _act("abs", sympy.Abs(z), np.abs, lambda t: t[0].abs, "torch.abs", degree=1),
        _act(
            "relu2",
            _r**2,
            lambda x: np.maximum(x, 0.0) ** 2,
            lambda t: lambda x: t[1].relu(x) ** 2,
            "F.relu(x)**2",
            degree=2,
            note="squared ReLU (Primer)",
        ),
        _act(
            "relu3",
            _r**3,
            lambda x: np.maximum(x, 0.0) ** 3,
            lambda t: lambda x: t[1].relu(x) ** 3,
            "F.relu(x)**3",
            degree=3,
        ),
        _act(
            "gelu",
            z / 2 * (1 + sympy.erf(z / sympy.sqrt(2))),
            lambda x: 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0))),
            lambda t: t[1].gelu,
            "F.gelu",
            note="GEGLU",
        ),
        _act(
            "gelu_tanh",
            z / 2 * (1 + sympy.tanh(sympy.sqrt(2 / sympy.pi) * (z + GELU_TANH_CUBIC * z**3))),
            lambda x: 0.5 * x * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
            lambda t: lambda x: t[1].gelu(x, approximate="tanh"),
            "F.gelu(approximate='tanh')",
        ),
        _act(
            "quick_gelu",
            z * sympy_sigmoid(QUICK_GELU_SCALE * z),
            lambda x: x * np_sigmoid(1.702 * x),
            lambda t: lambda x: x * t[0].sigmoid(1.702 * x),
            "x*torch.sigmoid(1.702*x)",
        ),
        _act(
            "silu",
            z * sympy_sigmoid(z),
            lambda x: x * np_sigmoid(x),
            lambda t: t[1].silu,
            "F.silu",
            note="SwiGLU (LLaMA)",
        ),
        _act(
            "mish",
            z * sympy.tanh(sympy_softplus(z)),
            lambda x: x * np.tanh(_np_softplus(x)),
            lambda t: t[1].mish,
            "F.mish",
        ),
        _act(
            "sigmoid",
            sympy_sigmoid(z),
            np_sigmoid,
            lambda t: t[0].sigmoid,
            "torch.sigmoid",
            note="original GLU",
        ),
        _act("tanh", sympy.tanh(z), np.tanh, lambda t: t[0].tanh, "torch.tanh"),
        _act("softplus", sympy_softplus(z), _np_softplus, lambda t: t[1].softplus, "F.softplus"),
        _act(
            "elu",
            sympy.Piecewise((z, z > 0), (sympy.exp(z) - 1, True)),
            _np_elu,
            lambda t: t[1].elu,
            "F.elu",
        ),
        _act(
            "selu",
            SELU_SCALE * sympy.Piecewise((z, z > 0), (SELU_ALPHA * (sympy.exp(z) - 1), True)),
            lambda x: float(SELU_SCALE) * _np_elu(x, float(SELU_ALPHA)),
            lambda t: t[1].selu,
            "F.selu",
        ),
        _act(
            "hardtanh",
            sympy.Max(-1, sympy.Min(1, z)),
            lambda x: np.clip(x, -1.0, 1.0),
            lambda t: t[1].hardtanh,
            "F.hardtanh",
        ),
        _act(
            "relu6",
            sympy.Min(_r, 6),
            lambda x: np.clip(x, 0.0, 6.0),
            lambda t: t[1].relu6,
            "F.relu6",
        ),
        _act(
            "snake",
            z + sympy.sin(z) ** 2,
            lambda x: x + np.sin(x) ** 2,
            lambda t: lambda x: x + t[0].sin(x) ** 2,
            "x + torch.sin(x)**2",
            note="Snake, a = 1 (Ziyin et al. 2020)",
        ),
        _act(
            "hardswish",
            z * sympy.Min(sympy.Max(z + 3, 0), 6) / 6,
            lambda x: x * np.clip(x + 3.0, 0.0, 6.0) / 6.0,
            lambda t: t[1].hardswish,
            "F.hardswish",
        ),
    )
}


def get(name: str) -> Activation:
    """The table entry called ``name``; the error lists the valid names."""
    try:
        return ACTIVATIONS[name]
    except KeyError:
        valid = ", ".join(ACTIVATIONS)
        raise KeyError(f"unknown activation {name!r}; valid names: {valid}") from None
