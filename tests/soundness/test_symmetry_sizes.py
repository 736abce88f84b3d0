"""Issue 26, part 1: a symmetry answer holds for the sizes it states.

The four defects of the issue, each with its truth established independently (hand derivation
recomputed in exact arithmetic or mpmath here, never the toolkit's own answer):

* a fixed-row transform is never "invariant" from a proof at explicit sizes: flipping rows 0..2
  of ``x Kᵀ V Kᵀ V`` is broken at n = 4 (x = 1, K = V = ones: 16 vs 4);
* a per-unit target mixed with a whole one is refused (exit 2, one line);
* a GELU break whose difference float64 cannot see is replayed in mpmath and exits 0;
* ``exp(exp(exp(exp(x))))`` with a sign flip ends (unknown or decided), never hangs.
"""

from __future__ import annotations

import json
import time

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks import symmetry as numeric
from proofs import symmetry
from symbolic.languages.layer_language import table_layer
from symbolic.languages.transform_language import parse_transform
from symbolic.symmetry.invariance import decide

FLIP3 = "K[0] -> -K[0], K[1] -> -K[1], K[2] -> -K[2]"
CHAIN = "x @ K.T @ V @ K.T @ V"


def _json(capsys, *argv) -> tuple[int, dict]:
    code = symmetry.main([*argv, "--json", "--no-torch"])
    return code, json.loads(capsys.readouterr().out)


def _chain(x: float, K: np.ndarray, V: np.ndarray) -> float:
    """x Kᵀ V Kᵀ V for d = 1 by hand: x (Σ_k K_k V_k)²."""
    return x * float(K @ V) ** 2


def test_the_hand_counterexample_at_four_units():
    """The issue's truth, by hand: K = V = (1,1,1,1), x = 1 gives 16 before, 4 after."""
    ones = np.ones(4)
    flipped = ones.copy()
    flipped[:3] *= -1
    assert _chain(1.0, ones, ones) == 16.0 and _chain(1.0, flipped, ones) == 4.0


def test_three_flipped_rows_are_broken_beyond_the_rows_named(capsys):
    code, out = _json(capsys, "--layer", CHAIN, "--transform", FLIP3, "--activation", "relu")
    assert out["invariant"] is False and out["decision"] == "broken" and code == 0
    w = out["witness"]
    assert w["sizes"]["n"] > 3  # the break needs a unit beyond the rows named
    K = np.array([[float(sympy.Rational(v)) for v in row] for row in w["K"]])
    V = np.array([[float(sympy.Rational(v)) for v in row] for row in w["V"]])
    x = np.array([[float(sympy.Rational(v)) for v in row] for row in w["x"]])
    flipped = K.copy()
    flipped[:3] *= -1
    after = (x @ flipped.T @ V @ flipped.T @ V)[0, w["entry"][1]]
    before = (x @ K.T @ V @ K.T @ V)[0, w["entry"][1]]
    assert after != before  # the witness, recomputed without the toolkit


def test_a_fixed_row_permutation_is_proved_at_every_n_beyond_the_rows(capsys):
    """Swapping units 0 and 1 of an MLP holds for every n ≥ 2 (relabel the sum's terms)."""
    code, out = _json(
        capsys,
        "--layer",
        "mlp",
        "--activation",
        "relu",
        "--transform",
        "K[0] -> K[1], K[1] -> K[0], V[0] -> V[1], V[1] -> V[0]",
    )
    assert code == 0 and out["invariant"] is True and out["sizes"] == "general d, every n ≥ 2"


def test_a_proof_at_explicit_sizes_only_is_unknown_never_invariant(capsys):
    """(x Kᵀ)⊙(x Kᵀ) is even in row 0 of K at every n (by hand: (−u)² = u²), but its output is
    indexed by units, so there is no general form: the proof at d = 2, n = 2 is stated with its
    sizes and the answer is unknown (exit 3), never invariant."""
    code, out = _json(
        capsys,
        "--layer",
        "(x @ K.T) * (x @ K.T)",
        "--transform",
        "K[0] -> -K[0]",
        "--activation",
        "relu",
    )
    assert code == 3 and out["invariant"] is None and out["decision"] == "unknown"
    assert out["sizes"] == "invariant at d = 2, n = 2 only"
    steps = out["evidence"]["steps"]
    assert steps[0]["verdict"]["status"] == "proved" and steps[-1]["verdict"]["status"] == "unknown"


@pytest.mark.parametrize(
    "text",
    ["K[j] -> a*K[j], V -> V/a", "V -> V/a, K[j] -> a*K[j]", "K[j] -> a*K[j], V[0] -> V[0]/a"],
)
def test_per_unit_mixed_with_whole_or_fixed_rows_is_refused(capsys, text):
    code = symmetry.main(["--layer", "mlp", "--transform", text, "--no-torch"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "per unit" in err


def test_identity_transform_is_refused(capsys):
    code = symmetry.main(["--layer", "mlp", "--transform", "K -> K", "--no-torch"])
    assert code == 2 and "changes nothing" in capsys.readouterr().err


def _gelu_mp(t):
    return t * (1 + mpmath.erf(t / mpmath.sqrt(2))) / 2


def test_gelu_break_where_erf_saturates_exits_zero(capsys):
    code, out = _json(
        capsys,
        "--layer",
        "mlp",
        "--transform",
        "K[j] -> a*K[j], V[j] -> V[j]/a",
        "--activation",
        "gelu",
    )
    assert code == 0 and out["decision"] == "broken"
    checks = out["evidence"]["numeric"]
    assert checks and all(c["agrees"] for c in checks)
    w = out["witness"]
    # independently: mpmath at 60 digits, GELU by its definition
    with mpmath.workdps(60):
        q = lambda v: mpmath.mpf(sympy.Rational(v).p) / sympy.Rational(v).q  # noqa: E731
        x, K, V, a = q(w["x"][0][0]), q(w["K"][0][0]), q(w["V"][0][0]), q(w["parameter"])
        diff = _gelu_mp(a * K * x) * V / a - _gelu_mp(K * x) * V
        assert diff != 0
        assert abs(float(diff)) < 1e-6  # float64 could not have seen it in entries of size 1
        assert any(c["backend"] == "mpmath" for c in checks)


def test_a_wrong_difference_fails_the_mpmath_replay():
    """The replay is a check: a tampered certified difference (sign flipped) disagrees."""
    from dataclasses import replace

    from proofs.symmetry import _functions, activation_spec

    layer = table_layer("mlp")
    t = parse_transform("K[j] -> a*K[j], V[j] -> V[j]/a", layer)
    acts = _functions(layer, activation_spec("gelu"))
    d = decide(layer, t, acts)
    assert d.invariant is False
    good = numeric.symmetry_check(d, acts)
    assert all(c.agrees for c in good)
    bad = replace(d, witness=replace(d.witness, difference=-d.witness.difference))
    assert not any(c.agrees for c in numeric.symmetry_check(bad, acts))


def test_a_tower_of_exponentials_ends(capsys):
    """A hang detector only: the command ends (decided or unknown), exit 0 or 3. Under a small
    SymPy cap, as a hang that ignored the limits would still hang."""
    code = symmetry.main(
        [
            "--sympy-timeout",
            "0.5",
            "--layer",
            "mlp",
            "--transform",
            "K -> -K",
            "--activation",
            "exp(exp(exp(exp(x))))",
            "--no-torch",
        ]
    )
    capsys.readouterr()
    assert code in (0, 3)


@settings(max_examples=15, deadline=None)
@given(st.integers(4, 7), st.integers(1, 3), st.data())
def test_flipping_some_but_not_all_rows_changes_the_chain(n, m, data):
    """The property behind the first defect, in plain numpy: flipping rows 0..m−1 < n of K in
    x Kᵀ V Kᵀ V changes it whenever Σ_{k<m} K_k V_k ≠ 0 and Σ_{k≥m} K_k V_k ≠ 0."""
    K = np.array(data.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)), float)
    V = np.array(data.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n)), float)
    flipped = K.copy()
    flipped[:m] *= -1
    assert _chain(1.0, flipped, V) != _chain(1.0, K, V)


@settings(max_examples=6, deadline=None)
@given(st.integers(2, 4), st.data())
def test_permuting_named_units_consistently_is_proved_and_alone_is_not(m, data):
    """Relabelling units 0..m−1 of an MLP in K and V together changes nothing (the sum over
    units is reordered), at every n ≥ m; relabelling them in K alone breaks it for ReLU (by
    hand: n = m, one unit active in x Kᵀ, V distinct per unit). Truth by hand, not by the
    toolkit: the first is a reordering of a finite sum."""
    perm = data.draw(st.permutations(range(m)).filter(lambda p: list(p) != list(range(m))))
    both = ", ".join(f"{w}[{i}] -> {w}[{perm[i]}]" for w in "KV" for i in range(m))
    alone = ", ".join(f"K[{i}] -> K[{perm[i]}]" for i in range(m))
    layer = table_layer("mlp")
    from proofs.symmetry import _functions, activation_spec

    acts = _functions(layer, activation_spec("relu"))
    kept = decide(layer, parse_transform(both, layer), acts)
    assert kept.invariant is True and kept.sizes == f"general d, every n ≥ {m}"
    broken = decide(layer, parse_transform(alone, layer), acts)
    assert broken.invariant is False


def test_a_replay_that_cannot_finish_is_never_a_pass(monkeypatch):
    from proofs.symmetry import _functions, activation_spec

    layer = table_layer("mlp")
    acts = _functions(layer, activation_spec("gelu"))
    d = decide(layer, parse_transform("K[j] -> a*K[j], V[j] -> V[j]/a", layer), acts)

    # A replay that cannot finish: it burns CPU until the limit interrupts it (a replay of the
    # real witness may finish inside one timer tick when SymPy's cache is warm). Were the limit
    # never to fire, it would return after 5 s and the float checks would stand in for it.
    def endless(decision, activations):
        end = time.process_time() + 5.0
        while time.process_time() < end:
            pass

    monkeypatch.setattr(numeric, "_digits_needed", endless)
    monkeypatch.setattr(numeric, "REPLAY_TIMEOUT_S", 0.05)
    checks = numeric.symmetry_check(d, acts)
    assert [c.backend for c in checks] == ["mpmath"], checks
    assert not checks[0].agrees and "did not finish" in checks[0].detail
