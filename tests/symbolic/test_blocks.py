"""Block symmetries (issue 26): the attention sub-layer's candidates decided by the kernel, the
RoPE, softmax-shift and pre-norm facts, the conservation laws and their SGD drift.

Truth is established apart from the toolkit: the numpy sub-layer (``attention_numpy``, written
from the definitions) against the symbolic one at exact points; gradients against finite
differences; wrong variants (A instead of A^{−T}, a wrong sign in a law) must not be proved."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks import block_training
from numeric_checks.blocks import block_check
from proofs import symmetry
from symbolic.blocks import (
    BLOCKS,
    BlockForm,
    Candidate,
    attention,
    attention_numpy,
    block_context,
    candidates,
    decide_candidate,
    key_shift_facts,
    norm_scale_facts,
    parameters,
    rope_rotation_facts,
)
from symbolic.blocks import laws as block_laws
from symbolic.blocks.decide import _explicit_attention
from symbolic.blocks.proof import localised
from symbolic.blocks.transform import parse_block_transform, parse_groups
from symbolic.errors import InvalidExpression
from symbolic.kernel import check_matrix_expr_equal, counterexample

LLAMA = BLOCKS["llama_block"]
PLAIN = BlockForm("plain", "RMSNorm → attention", "rms", False, False, "", "relu")


def _by_name(block, name):
    return next(c for c in candidates(block) if c.name == name)


@pytest.mark.parametrize(("name", "outcome"), [("GL(r) of VO", "invariant")])
def test_llama_attention_candidates(name, outcome):
    """One candidate through the Python API (all of them: test_llama_block_discover)."""
    dec = decide_candidate(LLAMA, _by_name(LLAMA, name))
    assert dec.outcome == outcome
    assert dec.steps[-1].fact.proved and dec.statement == dec.steps[-1].formula
    if outcome == "invariant":  # no step with identical sides
        assert dec.statement.args[0] != dec.statement.args[1]
    checks = block_check(LLAMA, dec)
    assert checks and all(c.agrees for c in checks)


def test_gl_of_qk_without_rope_is_proved_and_a_wrong_action_is_not():
    """A^{−T} on the keys is the symmetry; A on both is not (broken at a certified point)."""
    right = decide_candidate(PLAIN, _by_name(PLAIN, "GL(r) of QK"))
    assert right.outcome == "invariant"
    good = _by_name(PLAIN, "GL(r) of QK")

    def wrong_act(p, g):
        out = dict(p)
        out["WQ0"], out["WK0"] = p["WQ0"] * g["A"], p["WK0"] * g["A"]
        return out

    wrong = decide_candidate(PLAIN, Candidate("wrong", "W_K → W_K A", good.group, wrong_act))
    assert wrong.outcome == "broken"
    assert all(c.agrees for c in block_check(PLAIN, wrong))


def test_the_numpy_sub_layer_is_the_symbolic_one_at_exact_points():
    """Two implementations, one from the definitions (numpy, RoPE by angle), one symbolic
    (C ⊙ Y + S ⊙ Y P): equal at a rational point (RoPE at ω = atan(4/3), causal mask)."""
    from symbolic.blocks import parameters
    from symbolic.blocks.decide import WITNESS_OMEGA

    rng = np.random.default_rng(3)
    for block in (LLAMA, BLOCKS["gpt2_block"]):
        values = {}
        for k, m in parameters(block).items():
            rows, cols = (2 if not str(s).isdigit() else int(s) for s in m.shape)
            values[k] = sympy.Matrix(
                rows,
                cols,
                lambda i, j: sympy.Rational(int(rng.integers(-4, 5)), int(rng.integers(1, 4))),
            )
        values["G"] = sympy.diag(sympy.Rational(3, 2), sympy.Rational(1, 2))
        X = sympy.Matrix([[1, -2], [sympy.Rational(1, 2), 3]])
        exact = _explicit_attention(block, X, values).evalf(30)
        ours = attention_numpy(
            block,
            np.array(X.tolist(), dtype=float),
            {k: np.array(v.tolist(), dtype=float) for k, v in values.items()},
            omega=np.array([float(WITNESS_OMEGA)]),
        )
        assert np.allclose(np.array(exact.tolist(), dtype=float), ours, rtol=1e-12, atol=1e-12)


def test_rope_commuting_rotations_and_a_reflection_that_does_not_commute():
    assert all(f.proved for f in rope_rotation_facts())
    q1, q2, k1, k2 = sympy.symbols("q1 q2 k1 k2", real=True)
    t, s, w = sympy.symbols("t s omega", real=True)

    def rot(a):
        return sympy.Matrix([[sympy.cos(a), sympy.sin(a)], [-sympy.sin(a), sympy.cos(a)]])

    q, k = sympy.Matrix([[q1, q2]]), sympy.Matrix([[k1, k2]])
    F = sympy.diag(1, -1)  # orthogonal, but F R(φ) F = R(−φ)
    with sympy.evaluate(False):
        lhs = (q * F * rot(w * t) * (k * F * rot(w * s)).T)[0, 0]
    rhs = sympy.expand((q * rot(w * t) * (k * rot(w * s)).T)[0, 0])
    point = {q1: 1, q2: 0, k1: 0, k2: 1, t: 1, s: 0, w: sympy.atan(sympy.Rational(4, 3))}
    fact = counterexample(lhs, rhs, point, (q1, q2, k1, k2, t, s, w))
    assert fact.refuted  # by hand: q R(−ω) kᵀ = −4/5 against q R(ω) kᵀ = 4/5


def test_softmax_shift_and_prenorm_scale_facts():
    moved, shift = key_shift_facts(BLOCKS["gpt2_block"])
    assert moved.proved and shift.proved
    exact, with_eps, residual = norm_scale_facts()
    assert exact.proved and with_eps.refuted and residual.refuted
    # by hand, the ε witness: 2x/√(4x²+ε) vs x/√(x²+ε) at x = 1/1000, ε = 1e-5
    x, e = 1e-3, 1e-5
    assert abs(2 * x / np.sqrt(4 * x * x + e) - x / np.sqrt(x * x + e)) > 0.1


@pytest.mark.parametrize("law", sorted(block_laws.LAWS))
def test_conservation_laws_are_proved(law):
    fact = block_laws.LAWS[law]().fact
    assert fact.proved and fact.formula.args[0] != fact.formula.args[1]


def test_a_wrong_law_is_not_proved():
    d, r = block_laws.d, block_laws.r
    eta = block_laws.ETA
    Wq, Wk = sympy.MatrixSymbol("W_Q", d, r), sympy.MatrixSymbol("W_K", d, r)
    G = sympy.MatrixSymbol("Γ", d, d)
    gq, gk = G * Wk, G.T * Wq
    q1, k1 = Wq - eta * gq, Wk - eta * gk
    wrong = Wq.T * Wq - Wk.T * Wk + eta**2 * (gq.T * gq + gk.T * gk)  # + where − belongs
    assert not check_matrix_expr_equal(q1.T * q1 - k1.T * k1, wrong).proved


def test_hand_gradients_match_finite_differences():
    p = block_training.initial()
    g = block_training.gradients(p)
    h = 1e-6
    for k in ("WQ", "WK", "bK", "WV", "WO"):
        for idx in [(0, 0), (1, 2)]:
            up, down = dict(p), dict(p)
            up[k], down[k] = p[k].copy(), p[k].copy()
            if idx[0] >= p[k].shape[0] or idx[1] >= p[k].shape[1]:
                continue
            up[k][idx] += h
            down[k][idx] -= h
            numeric = (block_training.loss(up) - block_training.loss(down)) / (2 * h)
            assert abs(numeric - g[k][idx]) <= 1e-6 * max(1.0, abs(numeric))


def test_training_drift_follows_eta_squared():
    checks = block_training.training_checks()
    assert all(c.agrees for c in checks)
    ratios = [float(c.detail.split()[-1]) for c in checks if c.detail.startswith("ratio")]
    assert len(ratios) == 2 and all(3.8 < x < 4.2 for x in ratios)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_one_step_changes_the_quantity_by_exactly_eta_squared(seed):
    """The discrete law for random data: measured drift = Σ η²(∇ᵀ∇ − ∇ᵀ∇) to rounding."""
    run = block_training.train(1e-4, steps=5, seed=seed)
    assert run.law_error["qk"] < 1e-6 and run.law_error["vo"] < 1e-6 and run.drift["bK"] < 1e-12


def test_a_bad_block_transform_is_one_line(capsys):
    code = symmetry.main(["--layer", "llama_block", "--transform", "Q -> K", "--no-torch"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "not a parameter" in err


@pytest.mark.slow  # ~8 s of CPU: every candidate of the block through the kernel
def test_llama_block_discover(capsys):
    code = symmetry.main(["--layer", "llama_block", "--discover", "--json", "--no-torch"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["layer"] == "llama_block"
    found = {s.get("symmetry") or s.get("transform"): s["decision"] for s in out["symmetries"]}
    assert found["head permutation"] == "invariant"
    assert found["GL(r) of QK with RoPE"] == "broken"
    assert found["GL(r) of VO"] == "invariant"
    assert found["RMSNorm gain absorption"] == "invariant"
    for s in out["symmetries"]:  # decided by the kernel as stated, confirmed numerically
        evidence = s["evidence"]
        assert evidence["claim"]["statement"] == evidence["steps"][-1]["formula"]
        assert evidence["numeric"] and all(n["agrees"] for n in evidence["numeric"])


# --- the matrix transform language ----------------------------------------------------------


def test_a_typed_gl_transform_is_the_table_candidate():
    cand = parse_block_transform("WV0 -> WV0 @ B, WO0 -> inv(B) @ WO0", LLAMA)
    assert cand.group["B"][2] == "GL" and str(cand.group["B"][0]) == "r"
    assert decide_candidate(LLAMA, cand).outcome == "invariant"


def test_an_orthogonal_qk_transform_with_rope_is_broken_at_a_reflection():
    """O(r) on QK with RoPE: a reflection does not commute with the rotations (by hand, the
    scores' entry flips sign: test_rope_commuting_rotations_and_a_reflection_…)."""
    cand = parse_block_transform(
        "WQ0 -> WQ0 @ A, WK0 -> WK0 @ inv(A).T", LLAMA, parse_groups("A in O")
    )
    dec = decide_candidate(LLAMA, cand)
    assert dec.outcome == "broken" and dec.witness["group"]["A"] == sympy.diag(1, -1)
    assert all(c.agrees for c in block_check(LLAMA, dec))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q -> Q @ A", "not a parameter"),
        ("WQ0 -> WK0 @ A", None),  # allowed: same shape (an exchange with a group element)
        ("WQ0 -> WQ0 @ WK0", "exactly one parameter"),
        ("WQ0 -> WQ0 @ A, WO0 -> A @ WO0", None),
        ("WQ0 -> WQ0 @ A, WV0 -> A @ WV0", "different sizes"),
        ("WQ0 -> __import__('os')", "the only call is inv"),
        ("WQ0 -> WQ0.shape", "only .T"),
        ("WQ0 -> WQ0 @ A, WQ0 -> WQ0", "twice"),
        ("WQ0: WQ0", "':' at column"),
    ],
)
def test_block_transform_parser(text, message):
    if message is None:
        assert parse_block_transform(text, LLAMA).group
        return
    with pytest.raises(InvalidExpression, match=message):
        parse_block_transform(text, LLAMA)


@pytest.mark.parametrize("text", ["A in SL", "A", "a in GL", "A in GL, B"])
def test_group_parser_refuses(text):
    with pytest.raises(InvalidExpression):
        parse_groups(text)


# --- proofs localised by the kernel's rules; the number of heads --------------------------


def test_a_localised_proof_ends_in_the_identity_as_written():
    """VO: the kernel decides W_V B · B^{−1} W_O = W_V W_O inside head 0; cong and trans carry it
    to Eq(A(X; gθ), A(X; θ)), the formula the whole check would have had."""
    dec = decide_candidate(PLAIN, _by_name(PLAIN, "GL(r) of VO"))
    fact = dec.steps[0].fact
    assert dec.outcome == "invariant" and fact.rule in ("cong", "trans")
    lhs, rhs = fact.formula.args
    assert lhs != rhs and rhs == attention(PLAIN, parameters(PLAIN))
    leaves = []

    def walk(f):
        if f.parts:
            for part in f.parts:
                walk(part)
        else:
            leaves.append(f)

    walk(fact)
    assert leaves and all(f.proved and not f.rule for f in leaves)
    assert all("B" in str(f.formula) for f in leaves)  # only where B acts


def test_localisation_never_proves_a_wrong_action():
    """W_O → B W_O (B instead of B^{−1}): no subterm is proved, the whole is broken."""
    good = _by_name(PLAIN, "GL(r) of VO")

    def wrong_act(p, g):
        return {**p, "WV0": p["WV0"] * g["B"], "WO0": g["B"] * p["WO0"]}

    wrong = Candidate("wrong", "W_O → B W_O", good.group, wrong_act)
    p = parameters(PLAIN)
    g = {"B": sympy.MatrixSymbol("B", *good.group["B"][:2])}
    before = attention(PLAIN, p)
    with sympy.evaluate(False):
        after = before.xreplace({p[k]: v for k, v in wrong_act(p, g).items() if v != p[k]})
    assert localised(after, before, {g["B"]}, 10.0) is None
    assert decide_candidate(PLAIN, wrong).outcome == "broken"


@pytest.mark.parametrize("heads", [1, 3])
def test_heads_are_a_parameter(heads):
    names = [c.name for c in candidates(PLAIN, heads)]
    assert ("head permutation" in names) == (heads >= 2)
    assert sum(1 for k in parameters(PLAIN, heads) if k.startswith("WO")) == heads
    dec = decide_candidate(PLAIN, _by_name(PLAIN, "GL(r) of VO"), heads)
    assert dec.outcome == "invariant" and f"{heads} head" in dec.sizes and dec.heads == heads
    assert all(c.agrees for c in block_check(PLAIN, dec))


def test_the_head_permutation_with_three_heads():
    dec = decide_candidate(PLAIN, _by_name(PLAIN, "head permutation"), 3)
    assert dec.outcome == "invariant" and "3 heads" in dec.sizes
    assert "WO2" in str(dec.statement)


@pytest.mark.parametrize("bad", ["0", "7", "x", "-1", "2.5", "²", "", "9" * 5000])
def test_bad_heads_are_one_line(bad, capsys):
    code = symmetry.main(
        ["--layer", "llama_block", "--discover", "--heads", bad, "--no-torch", "--json"]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "--heads" in err


def test_heads_only_for_blocks(capsys):
    code = symmetry.main(["--layer", "mlp", "--discover", "--heads", "3", "--no-torch"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "blocks" in err


def test_the_rope_commutant_inverse_is_the_inverse_transpose():
    """The rational RoPE identity writes A^{−T} out; it is A's inverse transpose."""
    from symbolic.blocks.facts import _plane

    A, inv_t = _plane("a", "b", False), _plane("a", "b", True)
    assert sympy.simplify(inv_t - A.inv().T) == sympy.zeros(2, 2)


def test_the_block_follows_from_the_sub_layer_by_cong():
    """The last step is the whole block's identity, from the sub-layer's by the kernel's cong:
    the block around the hole is X + A, then H + MLP(norm₂(H)) with the MLP's own parameters."""
    dec = decide_candidate(LLAMA, _by_name(LLAMA, "GL(r) of VO"))
    sub, whole = (s.fact for s in dec.steps)
    assert whole.rule == "cong" and whole.proved and whole.parts == (sub,)
    context = block_context(LLAMA)
    with sympy.evaluate(False):
        for side in (0, 1):
            expected = context.expr.xreplace({context.variables[0]: sub.formula.args[side]})
            assert dec.statement.args[side] == expected
    names = {str(m) for m in dec.statement.atoms(sympy.MatrixSymbol)}
    assert {"W1", "W2", "W3", "G2", "WV0", "WO0", "B"} <= names
    broken = decide_candidate(LLAMA, _by_name(LLAMA, "GL(r) of QK with RoPE"))
    assert len(broken.steps) == 1  # a break is the sub-layer's: not carried to the block


def test_the_printers_print_matrix_products_as_sympy_does(monkeypatch):
    """symbolic.render.formula_text skips SymPy's negation of a MatMul to find its precedence (a
    doit of the whole product): the text is unchanged, minus signs and parentheses included
    (the text printer compared with itself on SymPy's three methods: ``FastMatMul``'s)."""
    from symbolic.render.formula_text import source_text

    n_ = sympy.Symbol("n", integer=True, positive=True)
    A, B, C = (sympy.MatrixSymbol(s, n_, n_) for s in "ABC")
    c = sympy.Symbol("c")
    exprs = [
        -A * B,
        A * (-B),
        (A + B) * C,
        -(A * B) + C,
        sympy.MatMul(-2, A, B) - C,
        sympy.MatMul(c, A) - sympy.MatMul(-c, B),
        sympy.MatMul(sympy.Rational(-1, 3), A + B, C.T),
        sympy.HadamardProduct(-A * B, C) - A.I * B,
        sympy.Eq(A * B - C, -(B * A), evaluate=False),
    ]
    plain = PLAIN
    exprs.append(attention(plain, parameters(plain)))
    from sympy.printing.str import StrPrinter

    from symbolic.render.formula_text import _PRINTER, FastMatMul, TextPrinter

    fast = [_PRINTER.doprint(e) for e in exprs]
    for e in exprs:
        assert source_text(e) == sympy.sstr(e)
    for k in ("parenthesize", "_print_MatMul", "_print_Add"):
        monkeypatch.setattr(FastMatMul, k, getattr(StrPrinter, k))
    old = TextPrinter(_PRINTER._settings)
    assert fast == [old.doprint(e) for e in exprs]


def test_a_bias_is_a_factor_of_a_gpt2_transform():
    """The biases are lower case (bV0): the parser takes them as parameters, and the typed
    transform of docs/symmetry.md is the table's VO candidate, proved."""
    gpt2 = BLOCKS["gpt2_block"]
    cand = parse_block_transform("WV1 -> WV1 @ B, bV1 -> bV1 @ B, WO1 -> inv(B) @ WO1", gpt2)
    assert decide_candidate(gpt2, cand).outcome == "invariant"
    with pytest.raises(InvalidExpression, match="not allowed in a product"):
        parse_block_transform("WV0 -> WV0 @ x", gpt2)
