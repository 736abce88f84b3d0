"""API red-team round 10b: matrices, complex numbers, number-theoretic assumptions, special
functions and floats in users' own claims (``docs/api.md``).

Classes fixed here (each test below failed before its fix):

* the determinant of a matrix that may be empty: SymPy takes ``det`` of a ``ZeroMatrix`` to 0,
  and of a ``OneMatrix`` to 0 unless it is 1×1, also at size 0, where the determinant is the
  empty product 1. ``det 0₀ₓ₀ = 0``, ``det 1₀ₓ₀ = 0``, ``det 0ₘₓₘ = 0`` and
  ``det(Cₘₓₘ − Cₘₓₘ) = 0`` for an integer ``m ≥ 0`` were proved, as was
  ``det diag(0ₘₓₘ, I₂) = 0`` (a block that may be empty, inside a matrix of positive size);
  and a matrix whose size is not known to be a nonnegative integer (``Identity(k)``, ``k`` an
  integer) was computed with all the same (``tr Identity(k) = k`` proved, though no matrix
  has size −1) (``kernel/conventions.py``);
* a matrix power with an exponent not known to be an integer, or a symbolic one that may be 0,
  inside a scalar claim: SymPy multiplies exponents, so ``tr (A²)^(1/2) = tr A`` and
  ``det (A²)^(1/2) = det A`` were proved; at ``A = −I₂`` the principal root of ``A² = I`` is
  ``I`` (trace 2, not −2), at ``A = diag(−1, 1)`` it is ``I`` again (det 1, not −1); and
  ``tr 0₂ₓ₂^k = 0`` was proved for an integer ``k ≥ 0`` (``0⁰ = I``, trace 2)
  (``kernel/conventions.py``; the matrix-identity check already left such powers undecided);
* a witness at a pole of a special function that SymPy leaves unevaluated: ``(1 − x)·₁F₀(1;;x)
  = 1`` (true wherever ₁F₀(1;;x) = 1/(1 − x) has a value) was refuted at x = 1, and its sign
  "positive" too, because SymPy takes ``0·₁F₀(1;;1)`` to 0; ``inst`` put x := 0 into
  ``Γ(0, x) = E₁(x)`` (E₁(0) = ∞) (``kernel/valueless.py``: a special function whose numeric
  value is none is a pole; ``kernel/points.py``, ``kernel/probes.py``: a point where a term of
  the formula, put in as written, has no value refutes nothing).

Truths: by SymPy's explicit matrices (``Matrix([[-1, 0], [0, -1]])**2`` raised to 1/2 is
computed from its Jordan form: the identity), by hand (the Leibniz formula over the empty set
of permutations is the empty product 1) and by SymPy's explicit ``Matrix`` of size 0, whose
``det`` is computed, not ruled.
"""

from __future__ import annotations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import api

m = sympy.Symbol("m", integer=True, nonnegative=True)
n = sympy.Symbol("n", integer=True, positive=True)
k = sympy.Symbol("k", integer=True)
C = sympy.MatrixSymbol("C", m, m)
D2 = sympy.MatrixSymbol("D", 2, 2)
I2 = sympy.Identity(2)
eq = api.equal
Det, Zero, One = sympy.Determinant, sympy.ZeroMatrix, sympy.OneMatrix


def status(step) -> str:
    return step.fact.status


def test_empty_determinant_is_one_by_computation():
    assert sympy.Matrix(0, 0, []).det() == 1  # the empty product, computed entry by entry
    assert sympy.diag(sympy.Matrix(0, 0, []), sympy.eye(2)).det() == 1  # diag(0₀ₓ₀, I₂) = I₂
    assert sympy.ones(1, 1).det() == 1 and sympy.zeros(2, 2).det() == 0


# --- the determinant of a matrix that may be empty -----------------------------------------------
NOT_PROVED = [  # false at size 0: each was proved
    ("det 0_{0x0} = 0", lambda: eq(Det(Zero(0, 0)), 0)),
    ("det 1_{0x0} = 0", lambda: eq(Det(One(0, 0)), 0)),
    ("det 0_{mxm} = 0, m >= 0", lambda: eq(Det(Zero(m, m)), 0)),
    ("det(C - C) = 0, m >= 0", lambda: eq(Det(C - C), 0)),
    ("tr Identity(k) = k, k any integer", lambda: eq(sympy.Trace(sympy.Identity(k)), k)),
    ("det diag(0_m, I_2) = 0", lambda: eq(Det(sympy.BlockDiagMatrix(Zero(m, m), I2)), 0)),
    ("det diag(C - C, D) = 0", lambda: eq(Det(sympy.BlockDiagMatrix(C - C, D2)), 0)),
]


@pytest.mark.parametrize("case", NOT_PROVED, ids=[c[0] for c in NOT_PROVED])
def test_not_proved_at_a_size_that_may_be_zero(case):
    assert status(case[1]()) != "proved"


STILL_DECIDED = [  # true, and decided as before
    ("det 0_{nxn} = 0, n >= 1", lambda: eq(Det(Zero(n, n)), 0), "proved"),
    ("det 0_{nxn} = 1, n >= 1", lambda: eq(Det(Zero(n, n)), 1), "refuted"),
    ("det I_2 = 1", lambda: eq(Det(sympy.Identity(2)), 1), "proved"),
    ("tr 0_{mxm} = 0", lambda: eq(sympy.Trace(Zero(m, m)), 0), "proved"),
    ("tr I_n = n", lambda: eq(sympy.Trace(sympy.Identity(n)), n), "proved"),
    ("det 1_{2x2} = 0", lambda: eq(Det(One(2, 2)), 0), "proved"),
    ("det diag(0_n, I_2) = 0", lambda: eq(Det(sympy.BlockDiagMatrix(Zero(n, n), I2)), 0), "proved"),
]


@pytest.mark.parametrize("case", STILL_DECIDED, ids=[c[0] for c in STILL_DECIDED])
def test_still_decided(case):
    assert status(case[1]()) == case[2]


@settings(max_examples=12, deadline=None)
@given(size=st.integers(min_value=0, max_value=3), ones=st.booleans())
def test_claimed_determinant_matches_the_computed_one(size, ones):
    """Whatever the kernel decides about det of a literal zero or ones matrix agrees with the
    determinant computed from its entries."""
    expr = Det(One(size, size) if ones else Zero(size, size))
    truth = (sympy.ones if ones else sympy.zeros)(size, size).det() if size else sympy.Integer(1)
    for claimed in (0, 1):
        verdict = status(eq(expr, claimed))
        if verdict == "proved":
            assert truth == claimed
        if verdict == "refuted":
            assert truth != claimed


def test_explicit_empty_matrix_still_decided():
    empty = sympy.ImmutableMatrix(0, 0, [])
    assert status(eq(Det(empty), 1)) == "proved"
    assert status(eq(Det(empty), 0)) == "refuted"


# --- a matrix power with an exponent not known to be an integer ---------------------------------
A = sympy.MatrixSymbol("A", 2, 2)
half = sympy.Rational(1, 2)
ROOT = sympy.MatPow(sympy.MatPow(A, 2), half)


def test_principal_root_of_a_square_is_not_the_matrix():
    minus_one = sympy.Matrix([[-1, 0], [0, -1]])
    root = sympy.Matrix([[-1, 0], [0, 1]])
    assert (minus_one**2) ** half == sympy.eye(2) and ((root**2) ** half).det() == 1
    assert minus_one.trace() == -2 and root.det() == -1


@pytest.mark.parametrize(
    "case",
    [
        lambda: eq(sympy.Trace(ROOT), sympy.Trace(A)),
        lambda: eq(Det(ROOT), Det(A)),
        lambda: eq(
            sympy.Trace(sympy.MatPow(sympy.MatPow(A, 2), sympy.Symbol("t", real=True))),
            sympy.Trace(sympy.MatPow(A, 2 * sympy.Symbol("t", real=True))),
        ),
        lambda: eq(sympy.Trace(sympy.MatPow(Zero(2, 2), k)), 0),
        lambda: eq(sympy.Trace(sympy.MatPow(Zero(2, 2), m)), 0),
    ],
    ids=["trace", "det", "symbolic exponent", "zero to the k", "zero to the k, k >= 0"],
)
def test_non_integer_matrix_power_not_proved(case):
    assert status(case()) != "proved"


def test_integer_matrix_powers_still_decided():
    assert status(eq(sympy.Trace(sympy.MatPow(A, 0)), 2)) == "proved"
    assert status(eq(Det(sympy.MatPow(A, -1)), 1 / Det(A))) == "proved"
    assert status(eq(sympy.Trace(sympy.MatPow(Zero(2, 2), n)), 0)) == "proved"
    assert sympy.Trace(sympy.MatPow(sympy.zeros(2, 2), 0)).doit() == 2  # 0⁰ = I


# --- a special function at a pole SymPy leaves unevaluated, as a witness --------------------------
x = sympy.Symbol("x", real=True)
ONE_F_ZERO = sympy.hyper([1], [], x)  # ₁F₀(1;;x) = 1/(1 − x), a pole at x = 1


def test_one_f_zero_is_one_over_one_minus_x():
    import mpmath

    with mpmath.workdps(50):
        t = mpmath.mpf(1) / 3  # the series, summed where it converges
        assert mpmath.almosteq(mpmath.nsum(lambda k: t**k, [0, mpmath.inf]), 1 / (1 - t))
    with pytest.raises(ZeroDivisionError):
        sympy.N(sympy.hyper([1], [], 1))  # mpmath: no value at the pole


def test_no_refutation_at_a_pole_of_a_special_function():
    # (1 − x)·₁F₀(1;;x) = 1 wherever it is defined; SymPy's 0·₁F₀(1;;1) = 0 refuted it at x = 1
    assert status(eq((1 - x) * ONE_F_ZERO, 1)) != "refuted"
    assert status(api.positive((1 - x) * ONE_F_ZERO)) != "refuted"
    # x·E₁(x) = 5 is false (at x = 1), but it was refuted at x = 0, where E₁(0) = ∞
    step = eq(x * sympy.expint(1, x), 5)
    assert status(step) != "refuted" or ("x", "0") not in step.fact.verdict.witness


def test_inst_refuses_a_pole_sympy_leaves_unevaluated():
    from symbolic.kernel import RuleError, inst

    fact = eq(sympy.uppergamma(0, x), sympy.expint(1, x)).fact  # Γ(0, x) = E₁(x)
    with pytest.raises(RuleError, match="no value"):
        inst(fact, {x: sympy.Integer(0)})  # E₁(0) = ∞


@settings(max_examples=10, deadline=None)
@given(num=st.integers(-6, 6), den=st.integers(1, 4))
def test_one_f_zero_identity_never_refuted(num, den):
    """At no rational point is ``(1 − x)·₁F₀(1;;x) − 1`` a certified nonzero number: where the
    term has a value it is 0."""
    from symbolic.kernel import counterexample

    point = {x: sympy.Rational(num, den)}
    assert counterexample((1 - x) * ONE_F_ZERO, 1, point).status != "refuted"


def test_a_divisor_undecided_in_time_is_unknown_and_asked_again(monkeypatch):
    """``certified_sign`` returned the other side's refutation when one side ran out of time, so
    the rules cached the divisor as 'not nonzero': under a tiny ``--sympy-timeout`` a later
    ``conj`` through ``exp(-2) + 1`` raised ``RuleError`` for the rest of the process."""
    import sys

    from symbolic.kernel import RuleError, check_equal, check_nonzero, conj

    checks = sys.modules[check_nonzero.__module__]
    real = checks._sign_verdict
    d = sympy.exp(-7) + 3
    x = sympy.Symbol("x", real=True)
    f1, f2 = check_equal(x / d + 1, (x + d) / d), check_equal(x, x)

    def out_of_time(value, rel, timeout_s, max_bits):
        v = real(value, rel, timeout_s, max_bits)
        if rel == ">" and value == d:  # as a time limit does, on one side only
            revise = sys.modules[type(v).__module__]._revise
            return revise(v, status="unknown", reason="undecided: the time limit was reached")
        return v

    monkeypatch.setattr(checks, "_sign_verdict", out_of_time)
    try:
        assert conj(f1, f2).status == "unknown"
    except RuleError as exc:
        pytest.fail(f"an undecided divisor was a RuleError: {exc}")
    monkeypatch.setattr(checks, "_sign_verdict", real)
    assert conj(f1, f2).status == "proved"  # asked again, not cached as undecided
