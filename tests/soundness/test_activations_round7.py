"""Activation red-team round 7: closed constants whose float value is blind to their sign.

``log(cos(1e-60)) ≈ −5·10⁻¹²¹`` and ``log(cosh(1e-60)) ≈ +5·10⁻¹²¹``: cos(10⁻⁶⁰) and cosh(10⁻⁶⁰)
round to 1.0 in any float evaluation, so SymPy, which takes the branch of ``Max``/``Min``/``Abs``
and of a Piecewise (elu) at a closed number by a float, took ``relu(log(cos(1e-60)))`` as the
negative ``log(cos(1e-60))``, ``max(x, x + log(cos(1e-60)))`` as its second argument and
``sqrt(log(cos(1e-60))**2)`` as the negative ``log(cos(1e-60))``. The activation was then built
wrong, and the kernel's verdicts, correct about the built expression, were wrong about the input:
``x + relu(log(cos(1e-60)))`` (σ = x) was reported not linear, with a certified "witness".

Truth of every case by hand (the sign of L) and by the adversarial campaign's own mpmath
evaluator at 700 digits (``benchmarks/adversarial_campaign.py --verify-truth``); the cases are
in ``tests/soundness/adversarial_corpus.py``, family ``r7-float-blind-constant``.
"""

from __future__ import annotations

import json

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs import exchange
from symbolic.activations import z
from symbolic.errors import InvalidExpression
from symbolic.gated.properties import value_at
from symbolic.kernel import literal
from symbolic.languages.activation_language import parse_activation

L_NEG = "log(cos(1e-60))"  # < 0
L_POS = "log(cosh(1e-60))"  # > 0


@pytest.mark.parametrize(
    "text",
    [
        f"x + relu(-{L_POS})",
        f"x + relu({L_NEG})",
        f"x + relu6({L_NEG})",
        f"x + abs(x)*relu({L_NEG})",
        f"min(0, {L_POS})*exp(x) + x",
        f"x*max(1, 1 - {L_POS})",
    ],
)
def test_a_branch_at_a_float_blind_constant_is_taken_by_its_true_sign(text):
    """σ = x exactly: the branch at the closed constant is 0 (or 1), never the constant."""
    assert parse_activation(text).expr == z


def test_an_exponent_with_such_a_branch_stays_exactly_one():
    assert parse_activation(f"abs(x)**(1 + relu(-{L_POS}))").expr == sympy.Abs(z)


@pytest.mark.parametrize(
    "text",
    [
        f"max(x, x + {L_NEG})",  # = x; SymPy built x + L
        f"x + relu(x**2*{L_NEG})",  # = x; SymPy built x + x²L
    ],
)
def test_a_branch_with_x_is_never_built_as_the_wrong_argument(text):
    expr = parse_activation(text).expr
    assert expr != z + sympy.Symbol("unused")  # a real expression
    assert not (expr - z).is_Mul and not (expr - z).is_Pow  # not x + L, not x + x²L
    assert expr.has(sympy.Max) or expr == z


@pytest.mark.parametrize(
    "text",
    [
        f"x + sqrt({L_NEG}**2) + {L_NEG}",  # = x; SymPy built x + 2L
        f"sqrt(x**2*{L_NEG}**2) + abs(x)*{L_NEG}",  # ≡ 0; SymPy built 2|x|L
        f"relu(-sqrt({L_NEG}**2)) + x",  # = x; SymPy built x − L
        f"({L_NEG}**2)**0.5*x",  # = |L|x; SymPy built Lx
    ],
)
def test_a_power_sympy_rewrites_by_a_float_sign_is_refused(text):
    """SymPy's |L| = L at such an L cannot be seen by any later step: a one-line input error."""
    with pytest.raises(InvalidExpression, match="rewritten by SymPy"):
        parse_activation(text)


def test_ordinary_powers_of_irrational_constants_are_untouched():
    assert parse_activation("sqrt(x**2*2)").expr == sympy.sqrt(2) * sympy.Abs(z)
    assert parse_activation("abs(x)**sqrt(2)").expr == sympy.Abs(z) ** sympy.sqrt(2)
    assert parse_activation("sqrt(pi**2)*x").expr == sympy.pi * z


def test_the_value_of_sigma_at_a_point_takes_the_true_branch():
    """σ(1) with a branch that only a point makes closed: the kernel's enclosures decide it."""
    # built as written: SymPy's own Max would already take z²·L (it judges L ≥ 0 by a float)
    branch = literal(
        sympy.Max, (sympy.Integer(0), z**2 * sympy.log(sympy.cos(sympy.Rational(1, 10**60))))
    )
    expr = z + branch
    assert value_at(expr, sympy.Integer(1)) == 1


def _verdicts(text: str, capsys) -> tuple[int, dict]:
    code = exchange.main([f"--activation={text}", "--json", "--no-torch"])
    out = capsys.readouterr().out
    doc = json.loads(out)
    return code, doc["activations"][0] if "activations" in doc else doc


@pytest.mark.parametrize(
    "text, linear",
    [
        (f"x + relu({L_NEG})", True),  # was: not linear, proved
        (f"x + relu(x**2*{L_NEG})", True),  # was: not linear, proved
    ],
)
def test_the_command_line_is_never_wrong(text, linear, capsys):
    code, a = _verdicts(text, capsys)
    assert a["linear"] in (linear, None)
    assert a["inverse_scaling_symmetric"] in (linear, None)
    assert code in (0, 3)


def test_inverse_scaling_of_an_exactly_linear_exponent(capsys):
    code, a = _verdicts(f"abs(x)**(1 + relu(-{L_POS}))", capsys)
    assert a["homogeneity_degree"] in (1, None)  # was 1 − log(cosh(1e-60))
    assert a["inverse_scaling_symmetric"] in (True, None)  # was False, proved


@settings(max_examples=25, deadline=None)
@given(
    k=st.integers(min_value=20, max_value=95),
    head=st.sampled_from(["relu", "relu6"]),
    use_cos=st.booleans(),
)
def test_relu_of_a_float_blind_constant_of_either_sign(k, head, use_cos):
    """relu(log(cos(10⁻ᵏ))) = 0 (the log is < 0) and relu(−log(cosh(10⁻ᵏ))) = 0: x + that is x,
    for every k where the constant is far below float64's resolution of 1."""
    inner = f"log(cos(1e-{k}))" if use_cos else f"-log(cosh(1e-{k}))"
    assert parse_activation(f"x + {head}({inner})").expr == z
    if head == "relu":  # max(x, x + c) with c < 0 is x, never x + c
        built = parse_activation(f"max(x, x + {inner})").expr
        assert built == z or built.has(sympy.Max)
