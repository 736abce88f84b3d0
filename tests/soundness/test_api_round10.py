"""API red-team round 10: users' claims through ``equal``/``valid`` and the kernel's face.

Classes fixed here (each test below failed before its fix):

* a bound variable declared more than its range gives — a sum's index declared positive but
  run from −3, an integral's, a limit's or a ``Subs``'s variable declared positive but taken at
  negative numbers, a derivative in an integer variable — was decided under the *symbol's*
  assumptions: ``Σ_{k=−3}^{2} Σ_{j=1}^{k} 1 = −3`` was proved (Karr's reading of the inner sum,
  allowed because ``k`` was "positive"; the sum is 3), ``∫_{−2}^{−1} (log p² − 2 log p) dp = 0``
  and ``(log p² − 2 log p)|_{p=−1} = 0`` were proved (both are −2πi), ``d/dn (−1)ⁿ = iπ(−1)ⁿ``
  was proved for an integer n (``kernel/bound_ranges.py``);
* a ``Limit`` of a term that jumps, even at a number, was proved as SymPy computes it: SymPy
  takes the branch holding the point (``lim_{x→1⁻} (1 if x < 1 else 2) = 2`` was proved, and
  ``= 1`` refuted), or a head's value there (``lim_{x→0⁺} H(sin πx) = 1/2``,
  ``lim_{x→0⁺} sign ⌊x⌋ = 1``; both are wrong) (``kernel/conventions.py``);
* ``ForAll``/``Exists`` handed their variables to ``sympy.Tuple``, which ``sympify``-ed a
  string: ``ForAll(["__import__('os')…"], …)`` ran the text; one symbol (``ForAll(p, …)``)
  was a ``TypeError`` traceback (``kernel/logic.py``).

Truths: by hand (each ``why``), and by brute force over the integer ranges (the Hypothesis
test sums the empty-sum reading directly) or mpmath at 50 digits where a number decides it.
"""

from __future__ import annotations

import os

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Rational as R

from symbolic import api
from symbolic.errors import InvalidArgument
from symbolic.kernel import Exists, ForAll

x, y = sympy.symbols("x y", real=True)
n = sympy.Symbol("n", integer=True)
j = sympy.Symbol("j", integer=True)
N = sympy.Symbol("N", integer=True, nonnegative=True)
kp = sympy.Symbol("kp", integer=True, positive=True)
p = sympy.Symbol("p", positive=True)
eq, valid = api.equal, api.valid
pi, log, Sum, Integral, Limit, Subs = (
    sympy.pi,
    sympy.log,
    sympy.Sum,
    sympy.Integral,
    sympy.Limit,
    sympy.Subs,
)


def status(step) -> str:
    return step.fact.status


def inner_sum_value(lo: int, hi: int) -> int:
    """Σ_{k=lo}^{hi} Σ_{j=1}^{k} 1 with empty sums 0: the reader's value, by brute force."""
    return sum(sum(1 for _ in range(1, k + 1)) for k in range(lo, hi + 1))


LOG_GAP = log(p**2) - 2 * log(p)  # 0 for p > 0; −2πi at every p < 0


def test_log_gap_is_minus_two_pi_i_at_negative_points():
    with mpmath.workdps(50):
        for t in (-1, -2, mpmath.mpf(-1) / 3):
            assert mpmath.almosteq(mpmath.log(t**2) - 2 * mpmath.log(t), -2j * mpmath.pi)


# --- a bound variable declared more than its range gives ------------------------------------------
NOT_PROVED = [  # false as stated: each was proved
    ("inner sum, Karr", lambda: eq(Sum(Sum(1, (j, 1, kp)), (kp, -3, N)), N * (N + 1) / 2 - 6)),
    ("inner sum, closed", lambda: eq(Sum(Sum(1, (j, 1, kp)), (kp, -3, 2)), -3)),
    ("integral", lambda: eq(Integral(LOG_GAP, (p, -2, -1)), 0)),
    ("integral across 0", lambda: eq(Integral(LOG_GAP, (p, -1, 1)), 0)),
    ("subs", lambda: eq(Subs(LOG_GAP, p, -1), 0)),
    ("limit", lambda: eq(Limit(LOG_GAP, p, -1), 0)),
    ("sum over a pole", lambda: eq(Sum(log(kp**2) - 2 * log(kp), (kp, -2, 2)), 0)),
    (
        "derivative in an integer",
        lambda: eq(sympy.Derivative((-1) ** n, n), sympy.I * pi * (-1) ** n),
    ),
]
NOT_REFUTED = [  # true as stated (empty inner sums are 0): each was refuted
    ("inner sum", lambda: eq(Sum(Sum(1, (j, 1, kp)), (kp, -3, N)), N * (N + 1) / 2)),
    ("inner sum, closed", lambda: eq(Sum(Sum(1, (j, 1, kp)), (kp, -3, 2)), 3)),
]


@pytest.mark.parametrize("build", [b for _, b in NOT_PROVED], ids=[i for i, _ in NOT_PROVED])
def test_a_bound_variable_declared_more_than_its_range_proves_nothing(build):
    assert status(build()) != "proved"


@pytest.mark.parametrize("build", [b for _, b in NOT_REFUTED], ids=[i for i, _ in NOT_REFUTED])
def test_a_bound_variable_declared_more_than_its_range_refutes_nothing(build):
    assert status(build()) != "refuted"


def test_a_bound_variable_within_its_range_is_still_decided():
    k = sympy.Symbol("k", integer=True, positive=True)
    assert status(eq(Sum(k, (k, 1, N)), N * (N + 1) / 2)) == "proved"
    assert status(eq(Integral(sympy.exp(-p), (p, 0, sympy.oo)), 1)) == "proved"
    assert status(eq(Limit(sympy.sin(p) / p, p, 0), 1)) == "proved"  # dir '+': p > 0
    root2 = sympy.sqrt(2)
    assert status(eq(Subs(sympy.Derivative(p**2, p), p, root2), 2 * root2)) == "proved"
    assert status(eq(Subs(LOG_GAP, p, 3), 0)) == "proved"
    assert "declared" in eq(Subs(LOG_GAP, p, -1), 0).fact.verdict.reason


@settings(max_examples=20, deadline=None)
@given(st.integers(-4, 2), st.integers(0, 5))
def test_an_inner_sum_over_a_positive_index_is_never_decided_wrongly(lo, width):
    """The reader's value (empty inner sums 0) is never refuted; SymPy's (Karr's inner sum from
    1 to k is k for every integer k) is never proved where the two differ."""
    hi = lo + width
    claim = Sum(Sum(1, (j, 1, kp)), (kp, lo, hi))
    truth, karr = inner_sum_value(lo, hi), sum(range(lo, hi + 1))
    assert status(eq(claim, truth)) != "refuted"
    if karr != truth:
        assert status(eq(claim, karr)) != "proved"
    else:  # the range gives what kp is declared (lo ≥ 1): still decided
        assert lo < 1 or status(eq(claim, truth)) == "proved"


# --- a limit of a term that jumps -----------------------------------------------------------------
STEP = sympy.Piecewise((1, x < 1), (2, True))


@pytest.mark.parametrize(
    "limit, wrong",
    [
        (Limit(STEP, x, 1, "-"), 2),  # SymPy: 2; the limit from the left is 1
        (Limit(STEP, x, 1, "+-"), 2),  # no limit: 1 from the left, 2 from the right
        (Limit(sympy.Heaviside(sympy.sin(pi * x)), x, 0, "+"), R(1, 2)),  # it is 1
        (Limit(sympy.sign(sympy.floor(x)), x, 0, "+"), 1),  # ⌊x⌋ = 0 on (0, 1): it is 0
        (Limit(sympy.Heaviside(x**2 - 2), x, sympy.sqrt(2), "-"), R(1, 2)),  # it is 0
    ],
    ids=["step-left", "step-both", "heaviside-sin", "sign-floor", "heaviside-root"],
)
def test_a_limit_of_a_jump_is_not_decided_by_sympys_branch_at_the_point(limit, wrong):
    assert status(eq(limit, wrong)) != "proved"


def test_the_true_limit_of_a_step_is_not_refuted_and_a_smooth_limit_still_proved():
    assert status(eq(Limit(STEP, x, 1, "-"), 1)) != "refuted"
    assert status(eq(Limit(sympy.sign(sympy.floor(x)), x, 0, "+"), 0)) != "refuted"
    assert status(eq(Limit((sympy.exp(x) - 1 - x) / x**2, x, 0), R(1, 2))) == "proved"
    assert status(eq(Limit(x * sympy.sin(1 / x), x, 0, "+-"), 0)) == "proved"


# --- quantifier variables are symbols, never text -------------------------------------------------
def test_a_quantifiers_variable_given_as_text_is_refused_and_never_run():
    flag = "RT10_QUANTIFIER_TEXT_RAN"
    os.environ.pop(flag, None)
    text = f"__import__('os').environ.__setitem__('{flag}', '1')"
    for make in (ForAll, Exists):
        for variables in ([text], (text,), text, 3, [x, 3]):
            with pytest.raises(InvalidArgument):
                make(variables, x > 0)
        with pytest.raises(InvalidArgument):
            make((x,), x > 0, domain="Reals")
    assert flag not in os.environ


def test_a_quantifier_over_one_symbol_needs_no_tuple():
    assert status(valid(ForAll(p, p > 0))) == "proved"
    assert status(valid(Exists(p, p < 0))) == "refuted"
    f = ForAll(x, x**2 >= 0)
    assert f == ForAll((x,), x**2 >= 0) and f.func(*f.args) == f


def test_certified_numbers_of_text_are_refused_and_never_run():
    """``symbolic.steps.certified_float``/``certified_sign`` took ``sympify`` of their argument:
    text was parsed and run."""
    from symbolic.steps import certified_float, certified_sign

    flag = "RT10_CERTIFIED_TEXT_RAN"
    os.environ.pop(flag, None)
    text = f"__import__('os').environ.__setitem__('{flag}', '1') or 1"
    for certified in (certified_float, certified_sign):
        with pytest.raises(InvalidArgument):
            certified(text)
    assert flag not in os.environ
    assert certified_sign(sympy.pi - 3) == 1 and certified_float(sympy.Integer(2)) == 2.0
