"""Retrieval error at capacity: how often the recall decodes to the wrong stored value.

Setting of docs/theory.md Part B: ``M`` pairs of independent uniform unit keys and values in
``R^d``, query ``q = k_i``, recall ``r = Σ_m w_m v_m``, ``w_m = f(s_m)``, ``s_m = k_m·q``.
The recall is **decoded to its nearest stored value**, ``argmax_m ⟨r, v_m⟩``; for unit values
this is also the nearest in Euclidean distance (``‖r − v_m‖² = ‖r‖² + 1 − 2⟨r, v_m⟩``), and a
positive factor on ``r`` (softmax's normalizer ``Z``) does not change it. Decoding errs when some
``j ≠ i`` scores higher than ``i``. Dividing by ``w_i = f(1)`` (``u_m = f(s_m)/f(1)``,
``c_mn = ⟨v_m, v_n⟩``):

    score_i = 1 + Σ_{m≠i} u_m c_mi,        score_j = u_j + c_ij + Σ_{m≠i,j} u_m c_mj.

Three models, each an approximation computed numerically (not a proof); ``n = Σ_{m≠i} u_m v_m``
is the interference, so ``score_i = 1 + ⟨n, v_i⟩`` and ``score_j = u_j + ⟨r_{−j}, v_j⟩`` with
``r_{−j} = r − u_j v_j`` independent of ``v_j``.

**Gaussian** (the form the Gaussian approximation gives):

* (A1) given the keys, each score's interference is Gaussian (central limit over the values)
  with its exact variance ``Σ u_m²·E[c²] = Σ u_m²/d``;
* (A2) ``Σ_{m≠i} u_m²`` is replaced by its mean ``ISR(M) = (M − 1)·E[u(s)²]``;
* (A3) the competitors' scores are independent given ``score_i`` (the covariances ``u_j/d`` of
  the shared terms ``⟨v_i, v_j⟩`` are dropped);
* (A4) the single cross term ``⟨v_i, v_j⟩`` is Gaussian ``N(0, 1/d)``.

With ``σ² = ISR/d`` and ``τ² = (1 + ISR)/d``:

    P(error) ≈ ∫ φ(z) (1 − (1 − p(z))^{M−1}) dz,    p(z) = E_s Φ̄((1 + σz − u(s))/τ).

**Spherical** (no central limit): a fixed vector's projection on an independent uniform unit
vector is its norm times a variable of the exact similarity law ``ρ`` — so ``⟨n, v_i⟩ = ‖n‖·t``
and ``⟨r_{−j}, v_j⟩ = ‖r_{−j}‖·t_j`` exactly, with ``t, t_j ~ ρ``. Approximations: (S1)
``‖n‖² → ISR`` (its mean), (S2) ``‖r_{−j}‖ → ‖r‖ = √(1 + ISR + 2√ISR·t)``, (S3) the ``t_j``
independent given ``t`` (A3). With ``F̄`` the tail of ``ρ``:

    P(error) ≈ ∫ ρ(t) (1 − (1 − p(t))^{M−1}) dt,    p(t) = E_s F̄((1 + √ISR·t − u(s))/‖r‖).

**Fluctuating** (S1 relaxed): the spherical model averaged over ``‖n‖²``, taken as a Gamma law
with its exact mean ``ISR`` and variance ``(M − 1)·Var(u²) + 2(M − 1)(M − 2)·E[u²]²/d``
(``norm_law``). The error is convex in the noise level, so this raises it; it matters most for
the stores with large ``M*``, whose error is an extreme over many competitors.

The Gaussian model puts Gaussian tails where the true projections have the lighter tails of
``ρ ∝ (1 − t²)^((d−3)/2)``; decoding errs in that far tail, so it over-estimates the error
(6–7× the Monte Carlo for the outer product and ReLU at d = 64). In both models the
similarities ``s`` of the competitors keep their exact law. The integrals are Gauss–Legendre
quadratures on fixed subintervals (float64; ``Φ̄`` by ``math.erfc``; ``F̄`` by a cumulative
Gauss–Legendre table), the quadrature error estimated by repeating them with half the nodes;
they agree with nested mpmath (tanh–sinh) quadrature to 15 digits, which takes about a minute
a value instead of ~0.1 s.
``numeric_checks.retrieval`` measures the same probability with real vectors.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from symbolic.errors import InvalidArgument
from symbolic.memory.capacity import rational, store_capacity
from symbolic.memory.stores import STORES

APPROXIMATIONS = {
    "gaussian": (
        "A1: each score's interference Gaussian given the keys (CLT over the values)",
        "A2: Σ u_m² replaced by its mean ISR(M)",
        "A3: competitors independent given the query's own score",
        "A4: the cross term ⟨v_i, v_j⟩ Gaussian N(0, 1/d)",
    ),
    "spherical": (
        "S1: ‖interference‖² replaced by its mean ISR(M)",
        "S2: ‖r − u_j v_j‖ replaced by ‖r‖",
        "S3 (= A3): competitors independent given the query's own score",
    ),
    "fluctuating": (
        "S1': ‖interference‖² Gamma with its exact mean and variance",
        "S2, S3 as in the spherical model",
    ),
}
MODELS = tuple(APPROXIMATIONS)
METHOD = "Gauss–Legendre quadrature of three approximate models (numeric, not certified)"
TAIL_CELLS = 1 << 14  # cells of the table of F̄ on [−1, 1]
SERIES_TERMS = 30  # terms of F̄'s series at x = 1 (see _tail_table)
NORM_SDS = 7  # the law of ‖n‖² is integrated over its mean ± 7 standard deviations
NODES = 32  # Gauss–Legendre nodes per subinterval; the error estimate repeats with NODES // 2
Z_POINTS = (-12, -6, -4, -2, 0, 2, 4, 12)  # |z| ≤ 12: φ beyond it is below 1e-31
S_POINTS = (-1, -0.5, 0, 0.25, 0.5, 0.75, 0.9, 0.97, 1)  # softmax's weight lives near s = 1
STORE_KINDS = ("moments", "mgf", "quadrature", "tied")  # weights w = f(s); not least squares
MAX_D = 4096  # as numeric_checks.capacity


@dataclass(frozen=True)
class RetrievalError:
    """The nearest-value decoding error at ``memories`` under the three models."""

    store: str
    d: int
    beta: float | None
    memories: int
    capacity: float  # M* under the exact law (symbolic.memory.capacity)
    isr: float  # ISR(memories) under the exact law
    gaussian: float  # P(error), Gaussian model
    spherical: float  # P(error), spherical model
    fluctuating: float  # P(error), spherical model averaged over the law of ‖n‖²
    quadrature_error: float  # largest |value − the same with half the nodes|
    method: str = METHOD

    def to_json(self) -> dict:
        return {
            "store": self.store,
            "d": self.d,
            "beta": self.beta,
            "memories": self.memories,
            "capacity": self.capacity,
            "isr": self.isr,
            "gaussian": self.gaussian,
            "spherical": self.spherical,
            "fluctuating": self.fluctuating,
            "quadrature_error": self.quadrature_error,
            "method": self.method,
            "approximations": {m: list(a) for m, a in APPROXIMATIONS.items()},
        }


def default_beta(d: int) -> float:
    """Softmax's inverse temperature when none is given: ``β = √d`` (8 at d = 64)."""
    return math.sqrt(d) if d >= 0 else math.nan  # a negative d: validate names --d first


def validate(store: str, d: int, beta: float) -> None:
    """Bad input as ``InvalidArgument`` (``name=value``, and what is valid)."""
    if store not in STORES:
        raise InvalidArgument(
            f"--store {store}: unknown store; valid stores: "
            + ", ".join(n for n, m in STORES.items() if m.expectation in STORE_KINDS)
        )
    if STORES[store].expectation not in STORE_KINDS:
        raise InvalidArgument(
            f"--store {store}: its recall is a projection, not Σ f(s_m) v_m; choose a weight store"
        )
    if not 3 <= d <= MAX_D:
        raise InvalidArgument(f"--d {d}: the dimension must be an integer in [3, {MAX_D}]")
    if not (beta > 0 and math.isfinite(beta)):
        raise InvalidArgument(f"--beta {beta}: β must be positive and finite")


def capacity_memories(store: str, d: int, beta: float) -> tuple[float, int, float]:
    """``(M*, M, ln E[u²])``: the exact-law capacity, the integer ``M = round(M*)`` (≥ 2) at
    which errors are measured, and the slope of ``ISR(M) = (M − 1)·E[u²]``."""
    cap = store_capacity(store, d, rational(beta)).exact
    return cap.capacity.mid, max(2, round(cap.capacity.mid)), cap.log_isr_slope


def error_probability(
    store: str, d: int, memories: int | None = None, beta: float | None = None
) -> RetrievalError:
    """P(nearest-value decoding errs) at ``memories`` (default: ``round(M*)``), every model."""
    beta = default_beta(d) if beta is None else beta
    validate(store, d, beta)
    capacity, at_capacity, slope = capacity_memories(store, d, beta)
    M = at_capacity if memories is None else memories
    if M < 1:
        raise InvalidArgument(f"--memories {M}: store at least 1 memory")
    isr = (M - 1) * math.exp(slope)
    u = lambda t: STORES[store].normalized_weight(np.array(t, dtype=float), beta)  # noqa: E731
    values = {m: model_probability(m, u, d, M, isr) for m in MODELS}
    error = max(abs(values[m] - model_probability(m, u, d, M, isr, NODES // 2)) for m in MODELS)
    return RetrievalError(
        store,
        d,
        beta if STORES[store].uses_beta else None,
        M,
        capacity,
        isr,
        values["gaussian"],
        values["spherical"],
        values["fluctuating"],
        error,
    )


@cache
def _legendre(points: tuple[float, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes and weights, ``n`` per subinterval between ``points``."""
    x, w = np.polynomial.legendre.leggauss(n)
    edges = np.asarray(points, dtype=float)
    half = np.diff(edges)[:, None] / 2
    return ((half * (x + 1) + edges[:-1, None]).ravel(), (half * w).ravel())


def similarity_density(d: int, t: np.ndarray) -> np.ndarray:
    """The exact law of ``s = k·q``: ``c_d (1 − s²)^((d−3)/2)`` on ``[−1, 1]``."""
    log_c = math.lgamma(d / 2) - math.lgamma((d - 1) / 2) - 0.5 * math.log(math.pi)
    with np.errstate(divide="ignore"):  # t = ±1 at d < 3 does not occur: d ≥ 3
        return np.exp(log_c + (d - 3) / 2 * np.log1p(-t * t))


@cache
def _tail_table(d: int) -> tuple[np.ndarray, float]:
    """``g = F̄^p/(1 − x)`` on the uniform grid of ``[−1, 1]``, and ``p = 2/(d − 1)``.

    With ``ρ(t) = c_d (1 − t)^k (1 + t)^k``, ``k = (d − 3)/2``, ``F̄(1 − ε) = C ε^(k+1) S(ε)``
    where ``C = c_d 2^k/(k + 1)`` and ``S(ε) = Σ_j binom(k, j) (−ε/2)^j (k + 1)/(k + 1 + j)``,
    so ``g = C^p S^p`` is analytic and positive up to ``x = 1``: linear interpolation of ``g``
    keeps relative accuracy ``O(h²)`` in the far tail, where interpolating ``F̄`` itself loses
    ``O((h/(1 − x))²)``. ``S`` is summed where ``kε/2 ≤ 1/4``; below, the quadrature of ``ρ``
    over each cell is added from there down."""
    edges = np.linspace(-1.0, 1.0, TAIL_CELLS + 1)
    eps = 1 - edges
    k, p = (d - 3) / 2, 2 / (d - 1)
    log_c = math.lgamma(d / 2) - math.lgamma((d - 1) / 2) - 0.5 * math.log(math.pi)
    log_big_c = log_c + k * math.log(2) - math.log(k + 1)
    near = eps <= (0.5 / k if k else 2.0)
    series, term = np.zeros(near.sum()), np.ones(near.sum())
    for j in range(SERIES_TERMS):  # |term ratio| ≤ 1/4: 2^-54 after 27 terms
        series += term * (k + 1) / (k + 1 + j)
        term = term * (k - j) / (j + 1) * (-eps[near] / 2)
    g = np.empty(TAIL_CELLS + 1)
    g[near] = np.exp(p * (log_big_c + np.log(series)))
    first = int(np.argmax(near))  # the tail at edges[first] is C ε^(k+1) S(ε)
    if first:
        nodes, weights = _legendre(tuple(edges[: first + 1]), 8)
        mass = (similarity_density(d, nodes) * weights).reshape(first, 8).sum(axis=1)
        at_first = math.exp(log_big_c + (k + 1) * math.log(eps[first])) * series[0]
        tail = np.cumsum(mass[::-1])[::-1] + at_first
        g[:first] = (tail / tail[0]) ** p / eps[:first]
    return g, p


def similarity_tail(d: int, x: np.ndarray) -> np.ndarray:
    """``F̄(x) = P(t > x)`` for ``t`` of the exact law (1 below −1, 0 above 1), from the
    table of ``_tail_table`` interpolated linearly on its uniform grid."""
    g, p = _tail_table(d)
    x = np.clip(x, -1.0, 1.0)
    pos = (x + 1.0) * (TAIL_CELLS / 2)
    cell = np.minimum(pos.astype(np.intp), TAIL_CELLS - 1)
    frac = pos - cell
    return ((1 - x) * (g[cell] + frac * (g[cell + 1] - g[cell]))) ** (1 / p)


_erfc = np.frompyfunc(math.erfc, 1, 1)


def normal_tail(x: np.ndarray) -> np.ndarray:
    """``Φ̄(x) = P(N(0, 1) > x)``, with full relative accuracy far in the tail."""
    return _erfc(np.asarray(x) / math.sqrt(2)).astype(float) / 2


def model_probability(
    model: str,
    u: Callable[[np.ndarray], np.ndarray],
    d: int,
    M: int,
    isr: float,
    nodes: int = NODES,
) -> float:
    """``∫ g(x) (1 − (1 − p(x))^{M−1}) dx`` of the module docstring; ``model`` is
    ``gaussian`` (``x = z ~ φ``), ``spherical`` (``x = t ~ ρ``, ``‖n‖² = ISR``) or
    ``fluctuating`` (the spherical one averaged over ``‖n‖² ~ Gamma``, ``norm_law``)."""
    if M <= 1:
        return 0.0  # no competitor
    s, ws = _legendre(S_POINTS, nodes)
    ws = ws * similarity_density(d, s)
    us = u(s)
    if model == "gaussian":
        x, wx = _legendre(Z_POINTS, nodes)
        wx = wx * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        level, scale = 1 + math.sqrt(isr / d) * x, math.sqrt((1 + isr) / d)
        return _miss(wx, normal_tail((level[:, None] - us[None, :]) / scale) @ ws, M)
    if model == "spherical":
        return _spherical(us, s, ws, d, M, isr)
    g, wg = norm_law(us, ws, d, M, isr, max(4, nodes // 2))
    return float(sum(w * _spherical(us, s, ws, d, M, n2) for n2, w in zip(g, wg, strict=True)))


def _spherical(us: np.ndarray, s: np.ndarray, ws: np.ndarray, d: int, M: int, n2: float) -> float:
    """The spherical model with ``‖n‖² = n2``: ``t`` on the nodes ``s`` of ``ρ``."""
    n = math.sqrt(n2)
    norm_r = np.sqrt(np.maximum(1 + n2 + 2 * n * s, 1e-300))
    p = similarity_tail(d, (1 + n * s[:, None] - us[None, :]) / norm_r[:, None]) @ ws
    return _miss(ws, p, M)


def _miss(weights: np.ndarray, p: np.ndarray, M: int) -> float:
    """``Σ weights·(1 − (1 − p)^{M−1})``, without cancellation for tiny ``p``."""
    with np.errstate(divide="ignore"):  # p = 1: log1p(−1) = −inf, miss = 1
        return float(weights @ -np.expm1((M - 1) * np.log1p(-np.clip(p, 0.0, 1.0))))


def norm_law(
    us: np.ndarray, ws: np.ndarray, d: int, M: int, isr: float, nodes: int = NODES
) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of ``‖n‖²`` as a Gamma law with its exact mean ``ISR`` and variance
    ``(M − 1)·Var(u²) + 2(M − 1)(M − 2)E[u²]²/d`` (the diagonal ``Σ u_m²`` and the
    uncorrelated cross terms ``Σ_{m≠m'} u_m u_m' ⟨v_m, v_m'⟩``); Gauss–Legendre on ±7 sd."""
    m2, m4 = ws @ us**2, ws @ us**4
    var = (M - 1) * (m4 - m2 * m2) + 2 * (M - 1) * (M - 2) * m2 * m2 / d
    shape, scale = isr * isr / var, var / isr
    sd = math.sqrt(var)
    lo, hi = max(isr - NORM_SDS * sd, 0.0), isr + NORM_SDS * sd
    g, wg = _legendre((lo, isr, hi), nodes)
    log_pdf = (
        (shape - 1) * np.log(np.maximum(g, 1e-300))
        - g / scale
        - math.lgamma(shape)
        - shape * math.log(scale)
    )
    w = wg * np.exp(log_pdf)
    return g, w / w.sum()  # renormalized: the tail beyond 7 sd is 2e-5 at shape 4 (d = 16)
