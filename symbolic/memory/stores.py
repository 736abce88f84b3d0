"""The one table of associative-memory stores (docs/theory.md Part B).

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
* ``projection`` — least squares, whose recall is not of the form ``Σ f(s_m) v_m``;
* ``tied`` — docs/theory.md C1: the symmetric rank-1 and the gated store with tied query/key
  vectors, one pair per activation of the table (``symbolic.memory.tied_memory`` derives them).

``part`` says which docs/theory.md part a store belongs to: ``B`` (the source's table, what
``proofs.capacity`` and ``--store all`` cover) or ``C1`` (``sym_<σ>``: weights ``σ(s²)``;
``gated_<σ>``: weights ``σ(s)·s``, for every σ of ``symbolic.activations``).

``theory_gaussian`` and ``theory_exact`` are docs/theory.md's capacities ``M*`` in closed form
in ``d`` (and ``beta``), under the Gaussian approximation and under the exact law: the statements
``proofs.capacity`` checks its derivations against (least squares: ``2d + 2`` for keys with
Gaussian entries, ``2d + 1`` to leading order for unit keys). None where no closed form is
claimed: a certified enclosure (``quadrature``) or ``symbolic.memory.tied_memory``'s forms
(``tied``).

``estimator`` is how the Monte Carlo (``numeric_checks.capacity``, ``numeric_checks.sweep``)
measures the store:

* ``weights`` — the terms ``(f(s)/f(1))²`` of real random keys (Rao–Blackwell: the values are
  integrated out);
* ``tilted`` — the same, and importance sampling by a mean shift towards the query where the
  weight's mass sits in the similarity's tail (the sweep's ``auto``: ``4β²/d > 8``);
* ``leverage`` — the leverages ``P_ii`` of the projection, by QR of real key matrices, at the
  two integers around the crossing.

``source`` is the seed's capacity at ``d = 64`` (``β = 8``), an "≈" figure (NaN and an empty
``source_text`` for a store the source does not list).

Adding a store is one entry here, appended at the end of the table (``numeric_checks.retrieval``
seeds a store's draws by its position, so a row inserted earlier would change other stores'
draws); the proofs, the Monte Carlo and the tests pick it up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import sympy

from symbolic.activations import ACTIVATIONS
from symbolic.memory.similarity_law import beta_, d_, s

Expectation = Literal["moments", "mgf", "quadrature", "projection", "tied"]
Estimator = Literal["weights", "tilted", "leverage"]
TIED_FORMS = ("sym", "gated")  # C1: σ(s²) (symmetric rank 1) and σ(s)·s (gated, q = k)


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
    part: str = "B"  # docs/theory.md part: "B" (the source's table) or "C1" (tied stores)
    form: str = ""  # C1: "sym" or "gated"
    activation: str = ""  # C1: the activation's name in symbolic.activations
    theory_gaussian: sympy.Expr | None = field(kw_only=True)  # M* in closed form (Gaussian law)
    theory_exact: sympy.Expr | None = field(kw_only=True)  # M* in closed form (exact law)
    estimator: Estimator = field(kw_only=True)  # how the Monte Carlo measures the store

    @property
    def uses_beta(self) -> bool:
        return self.weight is not None and beta_ in self.weight.free_symbols

    @property
    def scales_logits(self) -> bool:
        """The logit-scaling schedules apply (``β(M)``; their ISR is the MGF's)."""
        return self.expectation == "mgf"

    def theory(self, law: str) -> sympy.Expr | None:
        """``theory_gaussian`` or ``theory_exact``."""
        return self.theory_gaussian if law == "gaussian" else self.theory_exact


def _ratio(
    activation: str, gate_times_s: bool = False, of_square: bool = False
) -> Callable[[np.ndarray, float], np.ndarray]:
    """``σ(s)/σ(1)``, for a tied-key GLU ``σ(s)·s/σ(1)``, for the symmetric rank-1 form
    ``σ(s²)/σ(1)``, from the activation table."""
    act = ACTIVATIONS[activation].numpy
    at_one = float(act(np.array(1.0)))

    def weight(S: np.ndarray, beta: float) -> np.ndarray:  # noqa: ARG001 (same signature)
        out = np.asarray(act(S * S if of_square else S), dtype=float)
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


def _tied(form: str, activation: str) -> MemoryStore:
    """docs/theory.md C1: ``sym_<σ>`` (weights ``σ(s²)``, the symmetric rank-1 form with ``q = k``)
    or ``gated_<σ>`` (``σ(s)·s``, the gated form with tied query/key vectors)."""
    sym = form == "sym"
    weight = _sym(activation).subs(s, s**2) if sym else _sym(activation) * s
    return MemoryStore(
        f"{form}_{activation}",
        f"{'symmetric rank-1' if sym else 'gated'}, {activation}, tied keys",
        f"{activation}(s²)" if sym else f"{activation}(s)·s",
        weight,
        _ratio(activation, gate_times_s=not sym, of_square=sym),
        "tied",
        float("nan"),
        "",
        "docs/theory.md C1",
        part="C1",
        form=form,
        activation=activation,
        theory_gaussian=None,
        theory_exact=None,
        estimator="weights",
    )


STORES: dict[str, MemoryStore] = {
    m.name: m
    for m in (
        MemoryStore(
            "outer_product",
            "outer product W = Σ v_m k_mᵀ",
            "s",
            s,
            lambda S, beta: S,
            "moments",
            64,
            "≈ 64 (≈ d)",
            theory_gaussian=1 + d_,
            theory_exact=1 + d_,
            estimator="weights",
        ),
        MemoryStore(
            "least_squares",
            "least squares W = V K⁺ (optimal linear)",
            "P_mi",
            None,
            None,
            "projection",
            128,
            "≈ 128 (≈ 2d)",
            "exact recall for M ≤ d",
            theory_gaussian=2 * d_ + 2,
            theory_exact=2 * d_ + 1,
            estimator="leverage",
        ),
        MemoryStore(
            "relu",
            "MLP, ReLU",
            "relu(s)",
            _sym("relu"),
            _ratio("relu"),
            "moments",
            128,
            "≈ 128",
            theory_gaussian=1 + 2 * d_,
            theory_exact=1 + 2 * d_,
            estimator="weights",
        ),
        MemoryStore(
            "relu2",
            "MLP, ReLU²",
            "relu(s)²",
            _sym("relu2"),
            _ratio("relu2"),
            "moments",
            2700,
            "≈ 2,700",
            theory_gaussian=1 + 2 * d_**2 / sympy.factorial2(3),
            theory_exact=1 + 2 * d_ * (d_ + 2) / 3,
            estimator="weights",
        ),
        MemoryStore(
            "relu3",
            "MLP, ReLU³",
            "relu(s)³",
            _sym("relu3"),
            _ratio("relu3"),
            "moments",
            35000,
            "≈ 35,000",
            theory_gaussian=1 + 2 * d_**3 / sympy.factorial2(5),
            theory_exact=1 + 2 * d_ * (d_ + 2) * (d_ + 4) / 15,
            estimator="weights",
        ),
        MemoryStore(
            "glu_relu",
            "GLU, ReLU gate, tied keys",
            "relu(s)·s",
            _sym("relu") * s,
            _ratio("relu", gate_times_s=True),
            "moments",
            2700,
            "≈ 2,700",
            "the seed's 'squared-ReLU GLU'; relu(s)·s = relu(s)²",
            theory_gaussian=1 + 2 * d_**2 / sympy.factorial2(3),
            theory_exact=1 + 2 * d_ * (d_ + 2) / 3,
            estimator="weights",
        ),
        MemoryStore(
            "swiglu",
            "SwiGLU, tied keys",
            "silu(s)·s",
            _sym("silu") * s,
            _ratio("silu", gate_times_s=True),
            "quadrature",
            2900,
            "≈ 2,900",
            "gate input is s itself (unit keys, no √d scaling)",
            square_bound=s**4,
            theory_gaussian=None,
            theory_exact=None,
            estimator="weights",
        ),  # |silu(s)·s| = s²·sigmoid(s) ≤ s²
        MemoryStore(
            "softmax",
            "softmax attention",
            "exp(βs)/Z",
            sympy.exp(beta_ * s),
            _softmax_ratio,
            "mgf",
            1.2e6,
            "≈ 1.2 million (β = 8)",
            "the normalizer Z scales signal and interference alike",
            # ₀F₁(; d/2; β²) = Γ(d/2) β^(1−d/2) I_{d/2−1}(2β): the exact law's MGF
            theory_gaussian=1 + sympy.exp(2 * beta_ - 2 * beta_**2 / d_),
            theory_exact=1
            + sympy.exp(2 * beta_)
            / (sympy.gamma(d_ / 2) * beta_ ** (1 - d_ / 2) * sympy.besseli(d_ / 2 - 1, 2 * beta_)),
            estimator="tilted",
        ),
        *(_tied(form, act) for act in ACTIVATIONS for form in TIED_FORMS),
        # new stores go here, at the end: a store's random draws in numeric_checks.retrieval are
        # seeded by its position in the table
        MemoryStore(
            "relu4",
            "MLP, ReLU⁴",
            "relu(s)⁴",
            _sym("relu") ** 4,
            lambda S, beta: np.maximum(S, 0.0) ** 4,
            "moments",
            float("nan"),
            "",
            "not in the source's table: the ReLU^p family at p = 4 (as a function, gated_relu3)",
            theory_gaussian=1 + 2 * d_**4 / sympy.factorial2(7),
            theory_exact=1 + 2 * d_ * (d_ + 2) * (d_ + 4) * (d_ + 6) / 105,
            estimator="weights",
        ),
    )
}
# The source's table (docs/theory.md Part B): what proofs.capacity, `--store all` and the sweep's
# default grid cover. The C1 stores are asked for by name.
PART_B: dict[str, MemoryStore] = {n: m for n, m in STORES.items() if m.part == "B"}


def get(name: str) -> MemoryStore:
    """The table entry called ``name``; the error lists the valid names."""
    try:
        return STORES[name]
    except KeyError:
        raise KeyError(f"unknown store {name!r}; valid stores: {', '.join(STORES)}") from None
