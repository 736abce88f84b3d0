"""Red-team round 6 corpus for ``python -m proofs.symmetry``: (layer, transform, domain, σ)
cases whose truth is established independently of the tool — by hand (the ``why`` of each
case) and by an mpmath evaluation of the layer before and after the transform at random points
(``independent_truth``), written here from scratch (numpy object arrays of mpmath numbers; no
code of the tool is used). ``witness_refutes`` replays a witness the tool printed in the same
independent evaluator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

mp = mpmath.mp


def _relu(t):
    return t if t > 0 else mpmath.mpf(0)


SIGMAS: dict[str, Callable] = {
    "relu": _relu,
    "identity": lambda t: t,
    "leaky_relu": lambda t: t if t > 0 else t / 100,
    "abs": abs,
    "gelu": lambda t: t * (1 + mpmath.erf(t / mpmath.sqrt(2))) / 2,
    "silu": lambda t: t / (1 + mpmath.exp(-t)),
    "tanh": mpmath.tanh,
    "softplus": lambda t: mpmath.log(1 + mpmath.exp(t)),
    "relu3": lambda t: _relu(t) ** 3,
    "x**3": lambda t: t**3,
    "x**2": lambda t: t**2,
    "-x/3": lambda t: -t / 3,
    "2": lambda t: mpmath.mpf(2),
    "0": lambda t: mpmath.mpf(0),
    "max(x, 0.5*x)": lambda t: max(t, t / 2),
    "max(x, (1-1e-30)*x)": lambda t: max(t, (1 - mpmath.mpf(10) ** -30) * t),
    "relu(x)**(1+1e-30)": lambda t: _relu(t) ** (1 + mpmath.mpf(10) ** -30),
    "relu(x)**1.5": lambda t: _relu(t) ** mpmath.mpf(1.5),
    "x + exp(-600)*x**2": lambda t: t + mpmath.exp(-600) * t**2,
    "relu(x) + exp(-600)*x": lambda t: _relu(t) + mpmath.exp(-600) * t,
    "tanh(x) + exp(-600)": lambda t: mpmath.tanh(t) + mpmath.exp(-600),
    "abs(x) - exp(-600)*abs(x)": lambda t: abs(t) * (1 - mpmath.exp(-600)),
    "x + 1e-30*x**2": lambda t: t + mpmath.mpf(10) ** -30 * t**2,
    "max(x, 0) - max(-x, 0)": lambda t: t,  # = x: linear in disguise
    "abs(x) + x": lambda t: abs(t) + t,  # 2 relu: homogeneous, not odd/even
}


def ew(f, m):
    return np.vectorize(f, otypes=[object])(m)


# layers: (x, P, s) -> 1×out object array; x is 1×d, parameters n×d (Q of static_query d×d)
LAYERS: dict[str, Callable] = {
    "gated": lambda x, P, s: (ew(s, x @ P["Q"].T) * (x @ P["K"].T)) @ P["V"],
    "mlp": lambda x, P, s: ew(s, x @ P["K"].T) @ P["V"],
    "symmetric_rank1": lambda x, P, s: ew(s, (x @ P["Q"].T) * (x @ P["K"].T)) @ P["V"],
    "static_query": lambda x, P, s: ew(s, (x @ P["Q"]) @ P["K"].T) @ P["V"],
    "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V": lambda x, P, s: (
        ew(s, x @ P["K"].T) @ P["V"] - ew(s, -(x @ P["K"].T)) @ P["V"]
    ),
    "sigma(x @ Q.T) @ V + sigma(x @ K.T) @ W": lambda x, P, s: (
        ew(s, x @ P["Q"].T) @ P["V"] + ew(s, x @ P["K"].T) @ P["W"]
    ),
    "x @ Q.T @ K": lambda x, P, s: x @ P["Q"].T @ P["K"],
    "(sigma(x @ Q.T) * sigma(x @ K.T)) @ V": lambda x, P, s: (
        (ew(s, x @ P["Q"].T) * ew(s, x @ P["K"].T)) @ P["V"]
    ),
    "(x @ K.T) * (x @ K.T)": lambda x, P, s: (x @ P["K"].T) * (x @ P["K"].T),
    "x @ K.T @ V @ K.T @ V": lambda x, P, s: x @ P["K"].T @ P["V"] @ P["K"].T @ P["V"],
    "sigma(x @ K.T) @ V + sigma(x @ K.T) @ V": lambda x, P, s: 2 * (ew(s, x @ P["K"].T) @ P["V"]),
    "sigma(2 * (x @ Q.T)) * (x @ K.T) @ V": lambda x, P, s: (
        (ew(s, 2 * (x @ P["Q"].T)) * (x @ P["K"].T)) @ P["V"]
    ),
}

PARAMS = {
    "gated": "QKV",
    "mlp": "KV",
    "symmetric_rank1": "QKV",
    "static_query": "QKV",
    "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V": "KV",
    "sigma(x @ Q.T) @ V + sigma(x @ K.T) @ W": "QKVW",
    "x @ Q.T @ K": "QK",
    "(sigma(x @ Q.T) * sigma(x @ K.T)) @ V": "QKV",
    "(x @ K.T) * (x @ K.T)": "K",
    "x @ K.T @ V @ K.T @ V": "KV",
    "sigma(x @ K.T) @ V + sigma(x @ K.T) @ V": "KV",
    "sigma(2 * (x @ Q.T)) * (x @ K.T) @ V": "QKV",
}

# transforms: (P, a, j) -> P'; j: the unit of a per-unit transform
Transform = Callable[[dict, object, int], dict]


def _whole(**coef) -> Transform:
    """``M -> c(a) * S`` for each M: (S, c)."""

    def t(P, a, j):
        out = dict(P)
        for m, (src, c) in coef.items():
            out[m] = c(a) * P[src]
        return out

    return t


def _unit(**coef) -> Transform:
    """``M[j] -> c(a) * M[j]``."""

    def t(P, a, j):
        out = {k: v.copy() for k, v in P.items()}
        for m, c in coef.items():
            out[m][j, :] = c(a) * P[m][j, :]
        return out

    return t


def _rows(perm: dict) -> Transform:
    """``M[i] -> S[k]`` for (M, i): (S, k)."""

    def t(P, a, j):
        out = {k: v.copy() for k, v in P.items()}
        for (m, i), (s, k) in perm.items():
            out[m][i, :] = P[s][k, :]
        return out

    return t


ONE = lambda a: 1  # noqa: E731
NEG = lambda a: -1  # noqa: E731

TRANSFORMS: dict[str, Transform] = {
    "Q -> K, K -> Q": _whole(Q=("K", ONE), K=("Q", ONE)),
    "Q -> a*Q, K -> K/a": _whole(Q=("Q", lambda a: a), K=("K", lambda a: 1 / a)),
    "Q -> a*Q, K -> -K/a": _whole(Q=("Q", lambda a: a), K=("K", lambda a: -1 / a)),
    "Q -> -a*Q, K -> -K/a": _whole(Q=("Q", lambda a: -a), K=("K", lambda a: -1 / a)),
    "Q -> a*Q, K -> a**(-3)*K": _whole(Q=("Q", lambda a: a), K=("K", lambda a: a**-3)),
    "Q -> a*Q, K -> a**(-2)*K": _whole(Q=("Q", lambda a: a), K=("K", lambda a: a**-2)),
    "Q -> a*Q, K -> a**(-1.5)*K": _whole(Q=("Q", lambda a: a), K=("K", lambda a: a**-1.5)),
    "Q -> a**2*Q, K -> a**(-2)*K": _whole(Q=("Q", lambda a: a**2), K=("K", lambda a: a**-2)),
    "Q -> a**3*Q, K -> a**(-3)*K": _whole(Q=("Q", lambda a: a**3), K=("K", lambda a: a**-3)),
    "Q -> (a+1)*Q, K -> K/(a+1)": _whole(Q=("Q", lambda a: a + 1), K=("K", lambda a: 1 / (a + 1))),
    "Q -> (a-1)*Q, K -> K/(a-1)": _whole(Q=("Q", lambda a: a - 1), K=("K", lambda a: 1 / (a - 1))),
    "Q -> (a-1)*Q": _whole(Q=("Q", lambda a: a - 1)),
    "Q -> -Q, K -> -K": _whole(Q=("Q", NEG), K=("K", NEG)),
    "Q -> -Q": _whole(Q=("Q", NEG)),
    "K -> -K": _whole(K=("K", NEG)),
    "K -> -K, V -> -V": _whole(K=("K", NEG), V=("V", NEG)),
    "K -> a*K, V -> V/a": _whole(K=("K", lambda a: a), V=("V", lambda a: 1 / a)),
    "Q -> K, K -> Q, V -> W, W -> V": _whole(
        Q=("K", ONE), K=("Q", ONE), V=("W", ONE), W=("V", ONE)
    ),
    "Q -> a*Q, V -> V/a": _whole(Q=("Q", lambda a: a), V=("V", lambda a: 1 / a)),
    "Q -> a*Q, K -> K/(2*a)": _whole(Q=("Q", lambda a: a), K=("K", lambda a: 1 / (2 * a))),
    "Q -> 2*a*Q, K -> K/(2*a)": _whole(Q=("Q", lambda a: 2 * a), K=("K", lambda a: 1 / (2 * a))),
    "K[j] -> a*K[j], V[j] -> V[j]/a": _unit(K=lambda a: a, V=lambda a: 1 / a),
    "Q[j] -> a*Q[j], K[j] -> K[j]/a": _unit(Q=lambda a: a, K=lambda a: 1 / a),
    "Q[j] -> -Q[j], K[j] -> -K[j]": _unit(Q=NEG, K=NEG),
    "K[0] -> -K[0]": _rows({("K", 0): ("K", 0)}),  # sign applied below
    "K[0] -> K[1], K[1] -> K[0], V[0] -> V[1], V[1] -> V[0]": _rows(
        {("K", 0): ("K", 1), ("K", 1): ("K", 0), ("V", 0): ("V", 1), ("V", 1): ("V", 0)}
    ),
    "K[0] -> K[1], K[1] -> K[0]": _rows({("K", 0): ("K", 1), ("K", 1): ("K", 0)}),
    "K[0] -> K[1], K[1] -> K[2], K[2] -> K[0], V[0] -> V[1], V[1] -> V[2], V[2] -> V[0]": _rows(
        {
            ("K", 0): ("K", 1),
            ("K", 1): ("K", 2),
            ("K", 2): ("K", 0),
            ("V", 0): ("V", 1),
            ("V", 1): ("V", 2),
            ("V", 2): ("V", 0),
        }
    ),
    "K[0] -> K[1], K[1] -> K[2], K[2] -> K[0], V[0] -> V[2], V[1] -> V[0], V[2] -> V[1]": _rows(
        {
            ("K", 0): ("K", 1),
            ("K", 1): ("K", 2),
            ("K", 2): ("K", 0),
            ("V", 0): ("V", 2),
            ("V", 1): ("V", 0),
            ("V", 2): ("V", 1),
        }
    ),
}


def _neg_rows(rows):
    def t(P, a, j):
        out = {k: v.copy() for k, v in P.items()}
        for i in rows:
            out["K"][i, :] = -P["K"][i, :]
        return out

    return t


TRANSFORMS["K[0] -> -K[0]"] = _neg_rows([0])
TRANSFORMS["K[0] -> -K[0], K[1] -> -K[1], K[2] -> -K[2]"] = _neg_rows([0, 1, 2])


@dataclass(frozen=True)
class Case:
    layer: str
    transform: str
    param: str
    activation: str
    invariant: bool  # the truth
    why: str
    dps: int = 50  # digits the independent check needs

    @property
    def id(self) -> str:
        return f"{self.layer} | {self.transform} | {self.param} | {self.activation}"


G, M, S = "gated", "mlp", "symmetric_rank1"
QK, SC = "Q -> K, K -> Q", "Q -> a*Q, K -> K/a"
POS, NEGP, NZ = "a > 0", "a < 0", "a != 0"
CASES = [
    Case(G, QK, POS, "relu", False, "relu(1)(-1) = -1 vs relu(-1)·1 = 0"),
    Case(G, QK, POS, "identity", True, "(x·q)(x·k) symmetric"),
    Case(G, QK, POS, "-x/3", True, "linear σ: −(x·q)(x·k)/3 symmetric"),
    Case(G, QK, POS, "x + exp(-600)*x**2", False, "σ(q)k − σ(k)q = ε qk(q − k)", 700),
    Case(G, QK, POS, "max(x, (1-1e-30)*x)", False, "q = 1, k = −1: 1e-30", 60),
    Case(G, QK, POS, "x + 1e-30*x**2", False, "ε qk(q − k) ≠ 0", 60),
    Case(G, QK, POS, "max(x, 0) - max(-x, 0)", True, "σ = x"),
    Case(G, SC, POS, "relu", True, "relu(a t) = a relu(t), a > 0"),
    Case(G, SC, NEGP, "relu", False, "a = −1: relu(−q)(−k) ≠ relu(q)k"),
    Case(G, SC, NZ, "relu", False, "contains a = −1"),
    Case(G, SC, POS, "leaky_relu", True, "degree 1"),
    Case(G, SC, NEGP, "leaky_relu", False, "leaky(−t)·(−1) ≠ leaky(t)"),
    Case(G, SC, POS, "abs", True, "degree 1"),
    Case(G, SC, NZ, "abs", False, "|a|/a = −1 at a < 0"),
    Case(G, "Q -> a*Q, K -> -K/a", NEGP, "abs", True, "|a q|(−k/a) = |q|k for a < 0"),
    Case(G, "Q -> a*Q, K -> -K/a", POS, "abs", False, "|a q|(−k/a) = −|q|k for a > 0"),
    Case(G, SC, POS, "gelu", False, "gelu not homogeneous"),
    Case(G, SC, POS, "silu", False, "silu not homogeneous"),
    Case(G, "Q -> a*Q, K -> a**(-3)*K", NZ, "x**3", True, "(aq)³k/a³ = q³k, all a ≠ 0"),
    Case(G, "Q -> a*Q, K -> a**(-3)*K", POS, "relu3", True, "degree 3"),
    Case(G, "Q -> a*Q, K -> a**(-3)*K", NEGP, "relu3", False, "relu3(−q) ≠ −relu3(q)"),
    Case(G, "Q -> a*Q, K -> a**(-2)*K", NZ, "x**2", True, "(aq)²k/a² = q²k"),
    Case(G, "Q -> a**2*Q, K -> a**(-2)*K", NEGP, "relu", True, "a² > 0"),
    Case(G, "Q -> a**3*Q, K -> a**(-3)*K", NEGP, "relu", False, "a³ < 0"),
    Case(G, "Q -> -Q, K -> -K", POS, "tanh", True, "odd σ"),
    Case(G, "Q -> -Q, K -> -K", POS, "relu", False, "relu(−q)(−k) ≠ relu(q)k"),
    Case(G, "Q -> -Q", POS, "abs", True, "even σ"),
    Case(G, "Q -> -Q, K -> -K", POS, "x**3", True, "odd σ"),
    Case(G, "Q -> -Q, K -> -K", POS, "x + exp(-600)*x**2", False, "2ε q²k", 700),
    Case(G, "Q -> -Q, K -> -K", POS, "tanh(x) + exp(-600)", False, "2ε k", 700),
    Case(G, "Q -> -a*Q, K -> -K/a", POS, "identity", True, "(−aq)(−k/a) = qk"),
    Case(G, "Q -> -a*Q, K -> -K/a", NZ, "identity", True, "(−aq)(−k/a) = qk"),
    Case(G, SC, POS, "relu(x)**(1+1e-30)", False, "a^{1e-30} ≠ 1 at a ≠ 1", 80),
    Case(G, SC, POS, "relu(x)**1.5", False, "a^{1/2} ≠ 1"),
    Case(G, "Q -> a*Q, K -> a**(-1.5)*K", POS, "relu(x)**1.5", True, "degree 3/2"),
    Case(G, SC, POS, "relu(x) + exp(-600)*x", True, "degree 1 for a > 0", 700),
    Case(G, SC, NZ, "relu(x) + exp(-600)*x", False, "a = −1: 2ε q k", 700),
    Case(G, SC, NZ, "abs(x) - exp(-600)*abs(x)", False, "even: sign(a)", 700),
    Case(G, SC, POS, "abs(x) - exp(-600)*abs(x)", True, "degree 1", 700),
    Case(G, SC, POS, "max(x, 0.5*x)", True, "degree 1"),
    Case(G, SC, NEGP, "max(x, 0.5*x)", False, "not odd"),
    Case(G, SC, POS, "2", False, "σ constant: 2·(k/a)"),
    Case(G, "Q -> -Q", POS, "2", True, "Q does not matter"),
    Case(G, QK, POS, "0", True, "layer is 0"),
    Case(G, SC, NZ, "0", True, "layer is 0"),
    Case(G, "Q -> (a+1)*Q, K -> K/(a+1)", POS, "relu", True, "a + 1 > 0"),
    Case(G, "Q -> (a+1)*Q, K -> K/(a+1)", NEGP, "relu", False, "a < −1: a + 1 < 0"),
    Case(G, "Q -> (a-1)*Q, K -> K/(a-1)", POS, "relu", False, "a ∈ (0, 1): a − 1 < 0"),
    Case(G, "Q -> (a-1)*Q", POS, "relu", False, "a = 2 doubles, a = 1/2 negates"),
    Case(G, "Q -> a*Q, K -> K/(2*a)", POS, "relu", False, "halves the output"),
    Case(G, "Q -> 2*a*Q, K -> K/(2*a)", POS, "relu", True, "2a > 0"),
    Case(G, "Q -> a*Q, V -> V/a", POS, "relu", True, "degree 1"),
    Case(G, "Q[j] -> a*Q[j], K[j] -> K[j]/a", POS, "relu", True, "per unit, degree 1"),
    Case(G, "Q[j] -> a*Q[j], K[j] -> K[j]/a", NZ, "relu", False, "a = −1"),
    Case(G, "Q[j] -> -Q[j], K[j] -> -K[j]", POS, "tanh", True, "odd, per unit"),
    Case(M, "K[0] -> K[1], K[1] -> K[0], V[0] -> V[1], V[1] -> V[0]", POS, "gelu", True, "perm"),
    Case(M, "K[0] -> K[1], K[1] -> K[0]", POS, "relu", False, "keys swapped, values not"),
    Case(
        M,
        "K[0] -> K[1], K[1] -> K[2], K[2] -> K[0], V[0] -> V[1], V[1] -> V[2], V[2] -> V[0]",
        POS,
        "silu",
        True,
        "same 3-cycle",
    ),
    Case(
        M,
        "K[0] -> K[1], K[1] -> K[2], K[2] -> K[0], V[0] -> V[2], V[1] -> V[0], V[2] -> V[1]",
        POS,
        "silu",
        False,
        "inverse cycles",
    ),
    Case(M, "K[j] -> a*K[j], V[j] -> V[j]/a", POS, "relu", True, "degree 1"),
    Case(M, "K[j] -> a*K[j], V[j] -> V[j]/a", NZ, "relu", False, "a = −1"),
    Case(M, "K[j] -> a*K[j], V[j] -> V[j]/a", POS, "silu", False, "not homogeneous"),
    Case(M, "K[j] -> a*K[j], V[j] -> V[j]/a", NZ, "identity", True, "linear"),
    Case(M, "K -> -K, V -> -V", POS, "relu", False, "relu(−t)(−v) ≠ relu(t)v"),
    Case(M, "K -> -K, V -> -V", POS, "tanh", True, "odd"),
    Case(M, "K -> -K, V -> -V", POS, "abs(x) + x", False, "σ(−t) = σ(t) − 2t"),
    Case(M, "K -> a*K, V -> V/a", POS, "softplus", False, "not homogeneous"),
    Case(S, "Q -> -Q, K -> -K", POS, "silu", True, "product unchanged"),
    Case(S, "Q -> -Q", POS, "abs", True, "even"),
    Case(S, "Q -> -Q", POS, "relu", False, "not even"),
    Case(S, QK, POS, "silu", True, "product symmetric"),
    Case(S, "Q[j] -> a*Q[j], K[j] -> K[j]/a", NZ, "gelu", True, "product unchanged"),
    Case(S, SC, NZ, "gelu", True, "product unchanged"),
    Case(S, "K -> -K, V -> -V", POS, "x**3", True, "odd: σ(−u)(−v)"),
    Case("static_query", SC, NZ, "silu", True, "x(aQ)(K/a)ᵀ"),
    Case("static_query", "Q -> -Q, K -> -K", POS, "silu", True, "product"),
    Case("static_query", "Q -> -Q", POS, "silu", False, "silu not even"),
    Case(
        "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V",
        "K -> -K, V -> -V",
        POS,
        "relu",
        True,
        "linear",
    ),
    Case("sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V", "K -> -K", POS, "relu", False, "−tV"),
    Case(
        "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V",
        "K -> a*K, V -> V/a",
        NZ,
        "relu",
        True,
        "linear",
    ),
    Case(
        "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V",
        "K -> a*K, V -> V/a",
        NZ,
        "softplus",
        True,
        "sp(t) − sp(−t) = t",
    ),
    Case(
        "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V",
        "K -> a*K, V -> V/a",
        NZ,
        "gelu",
        True,
        "gelu(t) − gelu(−t) = t",
    ),
    Case(
        "sigma(x @ K.T) @ V - sigma(-(x @ K.T)) @ V",
        "K -> a*K, V -> V/a",
        NZ,
        "tanh",
        False,
        "2tanh(at)/a",
    ),
    Case(
        "sigma(x @ Q.T) @ V + sigma(x @ K.T) @ W",
        "Q -> K, K -> Q, V -> W, W -> V",
        POS,
        "silu",
        True,
        "swap terms",
    ),
    Case("sigma(x @ Q.T) @ V + sigma(x @ K.T) @ W", QK, POS, "silu", False, "values not swapped"),
    Case("x @ Q.T @ K", SC, NZ, "relu", True, "no σ"),
    Case("x @ Q.T @ K", QK, POS, "relu", False, "x Kᵀ Q ≠ x Qᵀ K"),
    Case("(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", QK, POS, "gelu", True, "symmetric"),
    Case("(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", "Q -> -Q, K -> -K", POS, "gelu", False, "not"),
    Case("(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", "Q -> -Q, K -> -K", POS, "tanh", True, "odd·odd"),
    Case("(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", SC, POS, "relu", True, "a·(1/a)"),
    Case("(sigma(x @ Q.T) * sigma(x @ K.T)) @ V", SC, POS, "relu3", True, "a³·a⁻³"),
    Case("(x @ K.T) * (x @ K.T)", "K[0] -> -K[0]", POS, "relu", True, "square"),
    Case(
        "x @ K.T @ V @ K.T @ V",
        "K[0] -> -K[0], K[1] -> -K[1], K[2] -> -K[2]",
        POS,
        "relu",
        False,
        "n = 4",
    ),
    Case(
        "sigma(x @ K.T) @ V + sigma(x @ K.T) @ V", "K -> a*K, V -> V/a", POS, "relu", True, "2× mlp"
    ),
    Case("sigma(2 * (x @ Q.T)) * (x @ K.T) @ V", SC, POS, "relu", True, "degree 1"),
    Case("sigma(2 * (x @ Q.T)) * (x @ K.T) @ V", "Q -> -Q, K -> -K", POS, "relu", False, "not odd"),
    Case("sigma(2 * (x @ Q.T)) * (x @ K.T) @ V", "Q -> -Q, K -> -K", POS, "tanh", True, "odd"),
]


def _draw(rng: random.Random, param: str) -> mpmath.mpf:
    v = mpmath.mpf(rng.uniform(0.2, 3.0))
    if param == "a < 0" or (param == "a != 0" and rng.random() < 0.5):
        return -v
    return v


def _rand(rng, shape):
    return np.array(
        [[mpmath.mpf(rng.uniform(-2, 2)) for _ in range(shape[1])] for _ in range(shape[0])],
        dtype=object,
    )


def shapes(case: Case, d: int, n: int) -> dict[str, tuple[int, int]]:
    out = {p: (n, d) for p in PARAMS[case.layer]}
    if case.layer == "static_query":
        out["Q"] = (d, d)
    return out


def difference(case: Case, x, P, a, j) -> mpmath.mpf:
    s = SIGMAS[case.activation]
    f = LAYERS[case.layer]
    after = f(x, TRANSFORMS[case.transform](P, a, j), s)
    before = f(x, P, s)
    return max(abs(u - v) for u, v in zip(after.ravel(), before.ravel(), strict=True))


def independent_truth(case: Case, trials: int = 12, seed: int = 6) -> bool:
    """At random points (d = 3, n = 4, the parameter drawn from its domain, every unit): True
    when every difference is below 10^(−dps+10) relative, False when one is above 10^(−dps/2+…)
    — chosen so the near-misses of the corpus are resolved at their ``dps``."""
    rng = random.Random(seed)
    with mpmath.workdps(case.dps):
        tol = mpmath.mpf(10) ** (-(case.dps - 12))
        for _ in range(trials):
            d, n = 3, 4
            x = _rand(rng, (1, d))
            P = {k: _rand(rng, sh) for k, sh in shapes(case, d, n).items()}
            a = _draw(rng, case.param)
            for j in range(n):
                if difference(case, x, P, a, j) > tol:
                    return False
        return True


def _q(text: str) -> mpmath.mpf:
    f = Fraction(text)
    return mpmath.mpf(f.numerator) / f.denominator


def witness_refutes(case: Case, witness: dict) -> tuple[bool, str]:
    """The witness printed by the tool, replayed here: does F(x; Tθ) ≠ F(x; θ) there?"""
    with mpmath.workdps(max(case.dps, 50) + 20):
        x = np.array([[_q(v) for v in row] for row in witness["x"]], dtype=object)
        P = {
            k: np.array([[_q(v) for v in row] for row in witness[k]], dtype=object)
            for k in PARAMS[case.layer]
        }
        a = _q(witness["parameter"]) if witness.get("parameter") is not None else mpmath.mpf(1)
        if case.param == "a > 0" and a <= 0 or case.param == "a < 0" and a >= 0 or a == 0:
            return False, f"parameter {a} outside {case.param}"
        j = witness.get("unit") or 0
        diff = difference(case, x, P, a, j)
        tol = mpmath.mpf(10) ** (-(max(case.dps, 50) + 5))
        return diff > tol, mpmath.nstr(diff, 8)
