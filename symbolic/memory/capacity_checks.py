"""The numeric cross-checks of ``proofs.capacity``'s claims (docs/capacity.md).

Each claim of Part B comes with checks that test its algebra on numbers: mpmath quadrature at
``NUMERIC_DPS`` digits against the closed forms, numpy random unit vectors against the laws,
QR of random key matrices against least squares' ISR. They are evidence, never proof: the
claims' verdicts come from the kernel.
"""

from __future__ import annotations

import math
from functools import cache

import mpmath
import numpy as np
import sympy

from symbolic.engine import NumericCheck
from symbolic.memory.capacity import CertifiedValue, rational, second_moment
from symbolic.memory.schedules import SCHEDULES, Crossing, log_isr
from symbolic.memory.similarity_law import (
    LAW_NAMES,
    beta_,
    d_,
    moment,
    mp_mgf2,
    quad_expectation,
    s,
)
from symbolic.memory.stores import MemoryStore

NUMERIC_DPS = 20  # mpmath digits of the quadrature cross-checks
QUAD_TOLERANCE = 1e-12  # relative: mpmath.quad at NUMERIC_DPS digits vs a closed form
SEED = 20240531  # the numpy cross-checks' random draws
GRID = 50  # points of the numeric check below each crossing
LS_DRAWS = 50  # key matrices of the least-squares cross-check (ISR known to ~0.1 %)
# The least-squares numeric cross-checks (a pseudo-inverse, QR of 2d+2 × d key matrices) cost
# ~d³ per matrix: above this dimension they run at LS_CHECK_MAX_D, and the check says so (the
# claims hold for every d; the check tests the algebra, which does not depend on d).
LS_CHECK_MAX_D = 96


def relative_check(
    name: str,
    got: float,
    want: float,
    tol: float,
    samples: int = 1,
    backend_name: str = "mpmath",
    detail: str = "",
) -> NumericCheck:
    """``|got − want|/|want| ≤ tol`` (``|got| ≤ tol`` when ``want`` is 0)."""
    err = abs(float(got) - float(want)) / abs(float(want)) if want else abs(float(got))
    return NumericCheck(name, backend_name, samples, err, tol, err <= tol, detail)


def law_checks(d: int) -> tuple[NumericCheck, ...]:
    """``∫ ρ = 1`` by quadrature and ``E[s⁴]`` from numpy unit vectors (lemma similarity-law)."""
    with mpmath.workdps(NUMERIC_DPS):
        total = quad_expectation("exact", d, lambda x: 1)
    rng = np.random.default_rng(SEED)
    pairs = 20_000
    k, q = (rng.standard_normal((pairs, d)) for _ in range(2))
    sims = (k * q).sum(1) / np.linalg.norm(k, axis=1) / np.linalg.norm(q, axis=1)
    fourth = float(np.mean(sims**4)) * d * (d + 2) / 3  # E[s⁴] = 3/(d(d+2)): ratio ≈ 1
    spread = math.sqrt(105 / 9 * d * (d + 2) / ((d + 4) * (d + 6)) - 1) / math.sqrt(pairs)
    numeric = (
        relative_check(f"∫ density = 1 at d = {d}", total, 1, QUAD_TOLERANCE),
        relative_check(
            f"E[s⁴]·d(d+2)/3 = 1 from {pairs} pairs of numpy unit vectors",
            fourth,
            1,
            5 * spread,
            pairs,
            "numpy",
            "tolerance 5 standard errors",
        ),
    )
    return numeric


def moment_checks(d: int) -> tuple[NumericCheck, ...]:
    """``E[s⁴]``, ``E[s⁶]`` by quadrature under both laws (lemma even-moments)."""
    numeric = []
    with mpmath.workdps(NUMERIC_DPS):
        for law in LAW_NAMES:
            for kk in (2, 3):  # E[s²] = 1/d is checked by capacity-outer_product
                got = quad_expectation(law, d, lambda x, kk=kk: x ** (2 * kk))
                numeric.append(
                    relative_check(
                        f"{law}: E[s^{2 * kk}] at d = {d}", got, moment(law, kk, d), QUAD_TOLERANCE
                    )
                )
    return tuple(numeric)


def mgf_checks(d: int, beta: sympy.Rational) -> tuple[NumericCheck, ...]:
    """``E[exp(2βs)]`` by quadrature under both laws, and ₀F₁ against its Bessel form."""
    numeric = []
    with mpmath.workdps(NUMERIC_DPS):
        b = mpmath.mpf(beta)
        for law in LAW_NAMES:
            got = _quad_of(law, d, sympy.exp(2 * sympy.Rational(beta) * s))
            numeric.append(
                relative_check(
                    f"{law}: E[exp(2βs)] at d = {d}, β = {beta}",
                    got,
                    mp_mgf2(law, b, d),
                    QUAD_TOLERANCE,
                )
            )
        bessel = (
            mpmath.gamma(mpmath.mpf(d) / 2)
            * b ** (1 - mpmath.mpf(d) / 2)
            * mpmath.besseli(mpmath.mpf(d) / 2 - 1, 2 * b)
        )
        numeric.append(
            relative_check("₀F₁ = Bessel form", mp_mgf2("exact", b, d), bessel, QUAD_TOLERANCE)
        )
    return tuple(numeric)


@cache
def _quad_of(law: str, d: int, integrand: sympy.Expr, dps: int = NUMERIC_DPS) -> mpmath.mpf:
    """``E[integrand(s)]`` by ``quad_expectation`` at ``dps`` digits, once per run for each
    integrand (softmax's ``E[exp(2βs)]`` is the MGF lemma's too)."""
    with mpmath.workdps(dps):
        return quad_expectation(law, d, sympy.lambdify(s, integrand, "mpmath"))


def store_checks(store: MemoryStore, d: int, beta: sympy.Rational) -> tuple[NumericCheck, ...]:
    """``E[f(s)²]`` by quadrature against the closed form, under both laws."""
    values = {d_: d, beta_: beta}
    numeric: list[NumericCheck] = []
    with mpmath.workdps(NUMERIC_DPS):
        f2 = (store.weight**2).subs(beta_, beta)
        for law in LAW_NAMES:
            got = _quad_of(law, d, f2)
            want = second_moment(store, law).subs(values)
            want = sympy.lambdify((), want, "mpmath")()
            numeric.append(
                relative_check(f"{law}: E[f(s)²] by quadrature", got, want, QUAD_TOLERANCE)
            )
    return tuple(numeric)


def swiglu_check(store: MemoryStore, law: str, d: int, enc: CertifiedValue) -> NumericCheck:
    """mpmath's adaptive quadrature of the capacity inside the certified interval ``enc``."""
    with mpmath.workdps(NUMERIC_DPS):
        f2 = sympy.lambdify(s, store.weight**2, "mpmath")
        got = quad_expectation(law, d, f2)
        at_one = float(sympy.N(store.weight.subs(s, 1) ** 2, 20))
        inside = enc.lo <= 1 + at_one / float(got) <= enc.hi
    return NumericCheck(
        f"{law}: mpmath.quad capacity inside the certified interval",
        "mpmath",
        1,
        0.0 if inside else 1.0,
        0.0,
        inside,
        f"{1 + at_one / float(got):.10g} in [{enc.lo:.10g}, {enc.hi:.10g}]",
    )


def ls_recall_checks(d: int) -> tuple[NumericCheck, ...]:
    """``K⁺K = I`` for random unit keys (lemma ls-exact-recall)."""
    rng = np.random.default_rng(SEED)
    n = min(d, LS_CHECK_MAX_D)
    keys = rng.standard_normal((n, n))
    keys /= np.linalg.norm(keys, axis=0)
    err = float(np.abs(np.linalg.pinv(keys) @ keys - np.eye(n)).max())
    at = "" if n == d else f" (check run at d = {n} ≤ {LS_CHECK_MAX_D}, not {d})"
    numeric = (
        NumericCheck(
            f"max |K⁺K − I| for {n} unit keys in R^{n}{at}",
            "numpy",
            1,
            err,
            1e-8,
            err <= 1e-8,
            "float64; tolerance allows condition numbers ~1e7",
        ),
    )
    return numeric


def ls_overload_checks(d: int) -> tuple[NumericCheck, ...]:
    """``ISR(2d + 2) = 1`` for Gaussian keys by QR (lemma ls-overload)."""
    rng = np.random.default_rng(SEED)
    n = min(d, LS_CHECK_MAX_D)
    m, draws = 2 * n + 2, LS_DRAWS
    keys = rng.standard_normal((draws, m, n))
    q, _ = np.linalg.qr(keys)
    lev = (q * q).sum(-1)
    got = float((lev - lev**2).mean() / (lev**2).mean())
    at = "" if n == d else f", check run at d = {n} ≤ {LS_CHECK_MAX_D}, not {d}"
    numeric = (
        relative_check(
            f"ISR({m}) = 1 for Gaussian keys ({draws} draws{at})",
            got,
            1,
            0.02,
            draws * m,
            "numpy",
            "tolerance: ~6 standard errors at d ≥ 8",
        ),
    )
    return numeric


def softmax_beta_checks(d: int) -> tuple[NumericCheck, ...]:
    """``ln(M* − 1)`` increasing in β and its asymptotic form (softmax-optimal-beta)."""
    with mpmath.workdps(NUMERIC_DPS):
        grid = [mpmath.mpf(b) for b in (1, 2, 4, 8, 16, 32, 64, 128)]
        caps = [2 * b - mpmath.log(mp_mgf2("exact", b, d)) for b in grid]
        increasing = all(b > a for a, b in zip(caps, caps[1:], strict=False))
        big = mpmath.mpf(50 * d * d)
        ratio = mpmath.exp(2 * big - mpmath.log(mp_mgf2("exact", big, d))) / (
            2
            * mpmath.sqrt(mpmath.pi)
            * big ** (mpmath.mpf(d - 1) / 2)
            / mpmath.gamma(mpmath.mpf(d) / 2)
        )
    numeric = (
        NumericCheck(
            "ln(M*−1) increasing on β = 1, 2, …, 128 (exact law)",
            "mpmath",
            len(grid),
            0.0 if increasing else 1.0,
            0.0,
            increasing,
        ),
        relative_check(
            f"asymptotic 2√π β^((d−1)/2)/Γ(d/2) at β = {int(big)}",
            ratio,
            1,
            d * d / float(big),
            detail="relative correction O(d²/β)",
        ),
    )
    return numeric


def schedule_checks(
    name: str, crossings: dict[str, Crossing], beta0: float, d: int, L: int
) -> tuple[NumericCheck, ...]:
    """``ln ISR < 0`` on GRID + 1 points of ``ln M`` below each crossing."""
    numeric = []
    with mpmath.workdps(NUMERIC_DPS):
        for law, c in crossings.items():
            if c.root_x is None:
                continue
            # ln ISR, not ISR: at β = 1e-300, ISR(2) = 1 − 2e-300 is below 1 but rounds to 1
            x_end = max(mpmath.log(2), min(c.root_x * (1 - 1e-3), c.lo_x))
            xs = [mpmath.log(2) + (x_end - mpmath.log(2)) * i / GRID for i in range(GRID + 1)]
            b0, lnL = mpmath.mpf(rational(beta0)), mpmath.log(L)
            worst = max(
                log_isr(mpmath.mp, law, d, SCHEDULES[name].beta(mpmath.mp, x, b0, lnL), x)
                for x in xs
            )
            numeric.append(
                NumericCheck(
                    f"{law}: ln ISR < 0 on {GRID + 1} points of ln M below the crossing",
                    "mpmath",
                    GRID + 1,
                    float(worst),
                    0.0,
                    bool(worst < 0),
                    expect="below",
                )
            )
    return tuple(numeric)
