"""Red-team round 12 of the symmetry engine (``python -m proofs.symmetry``) and its laws.

About 100 (layer, transform, domain, σ) cases — invariances that hold only for a range of the
parameter (``a > 0`` but not ``a < 0``; ``a**2``, ``(a**2)**(1/2)``, ``1 - a`` at ``a < 0``),
sign flips through odd, even and ``σ(−y) = σ(y) − y`` activations (and their odd and even
parts), unit permutations and cycles with and without their partners, fixed rows with scalings,
poles and zero coefficients — were decided by the tool and, independently, by an ``ast``
interpreter of the layer and transform texts in mpmath at 50 digits (sizes up to n = 6, random
values from the domain); every witness was replayed there at 50 digits. 23 block transforms
(GPT-2's biases: head swaps without them, the key bias scaled, GL(r) of QK with one bias left
behind; RoPE with orthogonal and diagonal elements; gain absorption with one head of two) were
decided and their witnesses replayed in an independent mpmath sub-layer. No wrong
invariant/broken verdict. The conserved quantities were integrated along gradient flow (RK4,
torch autograd). They found:

* ``gpt2_block --discover`` stated ``conservation.block.qk`` as "conserved along gradient flow:
  W_Qᵀ W_Q − W_Kᵀ W_K" and ``conservation.block.vo`` as "W_Vᵀ W_V − W_O W_Oᵀ". With biases the
  groups act on the stacked ``Ŵ = [W; b]`` and those quantities drift: RK4 gradient flow of a
  GPT-2 attention sub-layer (LayerNorm gain and bias, biases on Q, K, V, O, causal mask) to
  t = 3 moved ``W_Qᵀ W_Q − W_Kᵀ W_K`` by 8.0·10⁻³ (``Ŵ_Qᵀ Ŵ_Q − Ŵ_Kᵀ Ŵ_K``: 3.6·10⁻¹⁰) and
  ``W_Vᵀ W_V − W_O W_Oᵀ`` by 0.64 (stacked: 2·10⁻⁶). The laws are now stated for the stacked
  matrices (the identity is the same, at (d+1) rows); below, the rate d/dt of each quantity
  is computed from finite-difference gradients of an independent numpy sub-layer.
* ``--discover --param "b > 0"`` (a valid question) exited 2: the candidate rescalings were
  typed in ``a`` whatever the parameter's name, and ``a`` named no parameter.
* a parameter named like the proofs' own symbols was accepted and either left a decidable
  question unknown (``--param "d > 0"``, ``"o > 0"``: the size d, the output column o;
  ``"e > 0"``, ``"pi > 0"``) or proved a claim that printed two different ``n`` side by side
  (``K[0] -> n*K[0], V[0] -> V[0]/n`` "invariant, general d, every n ≥ 1"); such names are now
  refused with one line (exit 2).
"""

from __future__ import annotations

import keyword

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.symmetry import _law_results, activation_spec, symmetry_report
from symbolic.blocks.laws import LAWS
from symbolic.errors import InvalidExpression
from symbolic.languages import transform_language
from symbolic.languages.layer_language import table_layer
from symbolic.languages.transform_language import parse_param, parse_transform
from symbolic.symmetry.family import candidates

# --- the GPT-2 laws: the stacked quantity is conserved, the unstacked one drifts -------------

T_LEN, D, R = 3, 3, 2
SHAPES = {
    "g": (D,),
    "b": (D,),
    "WQ": (D, R),
    "WK": (D, R),
    "WV": (D, R),
    "WO": (R, D),
    "bQ": (R,),
    "bK": (R,),
    "bV": (R,),
    "bO": (D,),
}


def _gpt2_attention(p: dict, X: np.ndarray) -> np.ndarray:
    """One head of GPT-2's attention, written here from the definitions (LayerNorm with gain and
    bias, biases on Q, K, V and the output, causal mask, row softmax)."""
    c = X - X.mean(axis=1, keepdims=True)
    N = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5) * p["g"] + p["b"]
    q, k, v = (N @ p[f"W{w}"] + p[f"b{w}"] for w in "QKV")
    s = q @ k.T / np.sqrt(R) + np.triu(np.full((T_LEN, T_LEN), -1e9), 1)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v @ p["WO"] + p["bO"]


def _gradient(p: dict, X: np.ndarray, Y: np.ndarray, h: float = 1e-5) -> dict:
    """∇L of L = ½‖A(X) − Y‖² by central differences (error ~h², no autograd)."""

    def loss(q):
        return 0.5 * float(((_gpt2_attention(q, X) - Y) ** 2).sum())

    grad = {}
    for name, value in p.items():
        g = np.zeros_like(value)
        for idx in np.ndindex(value.shape):
            up = {**p, name: value.copy()}
            down = {**p, name: value.copy()}
            up[name][idx] += h
            down[name][idx] -= h
            g[idx] = (loss(up) - loss(down)) / (2 * h)
        grad[name] = g
    return grad


def _rates(seed: int) -> dict[str, float]:
    """max |d/dt C| along θ̇ = −∇L at a random point, for the stated and the stacked C."""
    rng = np.random.default_rng(seed)
    p = {k: rng.normal(size=s) * 0.8 for k, s in SHAPES.items()}
    X, Y = rng.normal(size=(T_LEN, D)), rng.normal(size=(T_LEN, D))
    g = _gradient(p, X, Y)

    def gram_rate(w, gw, left=True):  # d/dt (wᵀw) (or w wᵀ) along ẇ = −gw
        return -(gw.T @ w + w.T @ gw) if left else -(gw @ w.T + w @ gw.T)

    def outer(v, gv):  # the bias row's part of the stacked Gram matrix
        return -(np.outer(gv, v) + np.outer(v, gv))

    qk = gram_rate(p["WQ"], g["WQ"]) - gram_rate(p["WK"], g["WK"])
    vo = gram_rate(p["WV"], g["WV"]) - gram_rate(p["WO"], g["WO"], left=False)
    return {
        "qk stated": np.abs(qk).max(),
        "qk stacked": np.abs(qk + outer(p["bQ"], g["bQ"]) - outer(p["bK"], g["bK"])).max(),
        "vo stated": np.abs(vo).max(),
        "vo stacked": np.abs(vo + outer(p["bV"], g["bV"])).max(),
        "key bias": np.abs(g["bK"]).max(),
    }


@pytest.mark.parametrize("seed", [0, 1])
def test_with_biases_only_the_stacked_quantities_are_conserved(seed):
    """The truth, independently of the tool: the rate of the stacked quantities is 0 (to the
    finite differences' error), that of W_Qᵀ W_Q − W_Kᵀ W_K and W_Vᵀ W_V − W_O W_Oᵀ is not."""
    rates = _rates(seed)
    for law in ("qk", "vo"):  # finite differences: ~1e-9 of the rates' size
        assert rates[f"{law} stated"] > 1e-2
        assert rates[f"{law} stacked"] < 1e-6 * rates[f"{law} stated"]
    assert rates["key bias"] < 1e-6  # the softmax shift: b_K never moves


def test_the_block_laws_with_biases_state_the_stacked_quantities():
    results = {r.claim.name: r for r in _law_results({"qk", "vo"}, biases=True)}
    qk, vo = results["conservation.block.qk"], results["conservation.block.vo"]
    for result, bias in ((qk, "b_Qᵀ b_Q"), (vo, "b_Vᵀ b_V")):
        assert result.status == "proved"
        assert "Ŵ" in result.claim.title and bias in result.claim.title
        assert "Ŵ" in str(result.claim.statement)  # the identity is about the stacked matrix


def test_the_block_laws_without_biases_are_unchanged():
    for key, shown in (("qk", "W_Qᵀ W_Q − W_Kᵀ W_K"), ("vo", "W_Vᵀ W_V − W_O W_Oᵀ")):
        law = LAWS[key](False)
        assert law.fact.proved and law.quantity == shown and "Ŵ" not in str(law.fact.formula)
        assert LAWS[key](True).fact.proved


# --- --discover with a parameter not named a -------------------------------------------------


def test_discover_writes_its_rescalings_in_the_parameter_given():
    report = symmetry_report(layer="mlp", discover=True, param="b > 0", activation="relu")
    rows = {d["transform"]: d for d in report.data["decisions"]}
    scaling = rows["K[j] -> b*K[j], V[j] -> V[j]/b"]
    assert scaling["decision"] == "invariant"
    assert scaling["sizes"].endswith("(every unit k with its own b[k])")
    assert scaling["conserved"] == "‖k_j‖² − ‖v_j‖²"


def reserved_name(name: str) -> bool:
    return transform_language.reserved_name(name)


NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True).filter(
    lambda s: s not in ("x", "j") and not keyword.iskeyword(s) and not reserved_name(s)
)


@settings(max_examples=25, deadline=None)
@given(name=NAMES, sign=st.sampled_from([">", "<", "!="]))
def test_every_candidate_of_discover_parses_whatever_the_parameter_is_named(name, sign):
    layer = table_layer("gated")
    parameter = parse_param(f"{name} {sign} 0")
    for text in candidates(layer, activation_spec("relu2"), parameter.name):
        t = parse_transform(text, layer, parameter)  # raised InvalidExpression for b, c, …
        assert t.one_parameter == (f"{name}*" in text)


# --- parameter names the proofs use themselves -------------------------------------------------


@pytest.mark.parametrize("name", ["d", "n", "o", "k0", "k12", "e", "pi", "sigma", "relu", "exp"])
def test_a_parameter_named_like_the_proofs_own_symbols_is_refused(name):
    with pytest.raises(InvalidExpression, match="names something of its own"):
        parse_param(f"{name} > 0")


def test_the_command_refuses_a_parameter_named_n_with_one_line(capsys):
    from proofs import symmetry

    code = symmetry.main(
        ["--layer", "mlp", "--transform", "K[0] -> n*K[0], V[0] -> V[0]/n", "--param", "n > 0"]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "names something of its own" in err


@pytest.mark.parametrize("name", ["a", "b", "c", "t", "s", "alpha", "gamma", "lam", "k"])
def test_ordinary_parameter_names_are_accepted(name):
    assert parse_param(f"{name} != 0").name == name
