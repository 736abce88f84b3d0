"""Numeric cross-check of a symmetry decision (``symbolic.symmetry.invariance``), in numpy
float64 and, when asked and installed, with torch's real ``torch.nn.functional`` activations.

* invariant: ``F(x; Tθ)`` and ``F(x; θ)`` agree on random layers (sizes ``SIZES``, a parameter
  value from its domain) to ``REL_TOL`` of the output's scale, or of the terms' when they are
  larger (``numeric_checks.term_scale``: a layer that cancels to 0 differs by round-off);
* not invariant: the layer evaluated at the witness (its exact values rounded to float64)
  reproduces the certified difference of that entry to ``WITNESS_REL_TOL``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import sympy

from numeric_checks.activations import REL_TOL, SEED, TORCH_REL_TOL, torch_available
from numeric_checks.term_scale import gap_over_terms, term_scale
from symbolic.activations import z
from symbolic.engine import NumericCheck
from symbolic.languages.layer_language import evaluate
from symbolic.limits import BudgetExceeded, deadline
from symbolic.symmetry.invariance import ActivationSpec, SymmetryDecision, transformed

TRIALS = 4  # random layers per invariance check
SIZES = {"1": 1, "d": 4, "n": 3}  # more units than any explicit proof uses
PARAM_VALUE = {"positive": 1.7, "negative": -1.3, "nonzero": -1.3}  # arbitrary, in the domain
# The witness's values are small rationals: rounding them to float64 moves the entry by a few
# ulps of its terms; 1e-9 relative to the largest term leaves a wide margin, while a certified
# difference is far above it (or the witness would not have been certified).
WITNESS_REL_TOL = 1e-9
# float64 resolves a difference only well above its rounding of the terms: below this fraction of
# the entries' size the witness is replayed in mpmath, at enough digits to see the difference
# (GELU's breaks where erf saturates differ by 1e-18 in entries of size 1).
FLOAT64_RESOLVES = 1e-6
GUARD_DIGITS = 20  # digits beyond those the difference needs
MAX_REPLAY_DIGITS = 2000
REPLAY_TIMEOUT_S = 20.0  # CPU seconds for the exact value and the mpmath replay


def _kind(decision: SymmetryDecision) -> str:
    a = decision.transform.parameter
    return "positive" if a.is_positive else "negative" if a.is_negative else "nonzero"


def _backends(activations: Mapping[str, ActivationSpec], names, torch: bool):
    """(backend, array converter, functions): numpy always; torch's real functions when asked,
    installed, and every activation called is a table entry with a torch counterpart."""
    yield "numpy", (lambda a: a), {n: activations[n].numpy for n in names}
    if torch and torch_available() and all(activations[n].torch for n in names):
        import torch as th

        yield (
            "torch",
            lambda a: th.tensor(a, dtype=th.float64),
            {n: activations[n].torch() for n in names},
        )


def symmetry_check(
    decision: SymmetryDecision, activations: Mapping[str, ActivationSpec], torch: bool = False
) -> tuple[NumericCheck, ...]:
    """The decision's numeric cross-checks (see the module docstring), per backend; a witness
    whose certified difference float64 cannot resolve is replayed in mpmath instead."""
    layer = decision.layer
    if decision.invariant is False and decision.witness is not None:
        try:
            with deadline(REPLAY_TIMEOUT_S):
                digits = _digits_needed(decision, activations)
                if digits is not None:
                    return (_mpmath_replay(decision, activations, digits),)
        except BudgetExceeded:  # never a pass: a replay that cannot finish is reported
            return (
                NumericCheck(
                    "the witness replayed at the precision its difference needs",
                    "mpmath",
                    0,
                    float("inf"),
                    0.0,
                    False,
                    detail=f"the replay did not finish within {REPLAY_TIMEOUT_S:g} s of CPU",
                ),
            )
    numpy_functions = {n: activations[n].numpy for n in layer.functions}
    return tuple(
        check
        for backend, to_backend, functions in _backends(activations, layer.functions, torch)
        for check in _checks(decision, backend, to_backend, functions, numpy_functions)
    )


def _checks(decision: SymmetryDecision, backend: str, to_backend, functions, numpy_functions):
    layer, transform = decision.layer, decision.transform
    tolerance = REL_TOL if backend == "numpy" else TORCH_REL_TOL
    if decision.invariant is True:
        rng = np.random.default_rng(SEED)
        n = (
            max(SIZES["n"], *(u + 1 for u in transform.fixed_units))
            if transform.fixed_units
            else SIZES["n"]
        )
        sizes = {**SIZES, "n": n}
        value = PARAM_VALUE[_kind(decision)] if transform.one_parameter else None
        worst, compared = 0.0, 0
        for trial in range(TRIALS):
            plain = {"x": rng.standard_normal((1, sizes["d"]))}
            plain.update(
                {name: rng.standard_normal((sizes[r], sizes[c])) for name, (r, c) in layer.shapes}
            )
            unit = trial % n if transform.unit_index is not None else None
            values = {k: to_backend(v) for k, v in plain.items()}
            moved = transformed(values, transform, value, unit, scalar=float)
            with np.errstate(all="ignore"):
                sides = [
                    _array(evaluate(layer, values["x"], v, functions)) for v in (moved, values)
                ]
                scale = max(
                    term_scale(layer, plain["x"], v, numpy_functions)
                    for v in (plain, transformed(plain, transform, value, unit, scalar=float))
                )
            if not all(np.all(np.isfinite(side)) for side in sides):
                continue  # overflow: nothing to compare (a NaN gap was read as agreement)
            compared += 1
            worst = max(worst, gap_over_terms(*sides, scale))
        name = "F(x; Tθ) = F(x; θ) on random layers"
        if not compared:
            return (
                NumericCheck(
                    name,
                    backend,
                    0,
                    0.0,  # JSON has no NaN
                    tolerance,
                    True,
                    "values beyond float64 range: nothing to compare",
                    expect="none",
                ),
            )
        skipped = TRIALS - compared
        return (
            NumericCheck(
                name,
                backend,
                compared,
                worst,
                tolerance,
                worst <= tolerance,
                f"{skipped} of {TRIALS} samples beyond float64 range" if skipped else "",
            ),
        )
    if decision.invariant is False and decision.witness is not None:
        w = decision.witness
        values = {
            k: to_backend(np.array(m.tolist(), dtype=np.float64)) for k, m in w.values.items()
        }
        value = None if w.parameter is None else float(w.parameter)
        moved = transformed(values, transform, value, w.unit, scalar=float)
        row, col = w.entry
        gap = float(
            _array(evaluate(layer, values["x"], moved, functions))[row, col]
            - _array(evaluate(layer, values["x"], values, functions))[row, col]
        )
        want = float(w.difference.evalf(30))
        error = abs(gap - want) / max(1.0, abs(want))
        return (
            NumericCheck(
                "the witness replayed: F(x; Tθ) − F(x; θ) at the certified entry",
                backend,
                1,
                error,
                WITNESS_REL_TOL,
                error <= WITNESS_REL_TOL and gap != 0.0,
                detail=f"float64 {gap:.6g}, exact {want:.6g}",
            ),
        )
    return ()


def _witness_sides(decision: SymmetryDecision, values, functions, scalar=float):
    """F(x; Tθ) and F(x; θ) at the witness's entry, in the arithmetic of ``values``."""
    w, layer = decision.witness, decision.layer
    value = w.parameter  # exact; ``scalar`` converts each coefficient at it
    moved = transformed(values, decision.transform, value, w.unit, scalar=scalar)
    row, col = w.entry
    return (
        evaluate(layer, values["x"], moved, functions)[row, col],
        evaluate(layer, values["x"], values, functions)[row, col],
    )


def _digits_needed(decision: SymmetryDecision, activations) -> int | None:
    """None when float64 resolves the certified difference; else the mpmath digits that do."""
    import mpmath

    w = decision.witness
    values = {k: np.array(m.tolist(), dtype=np.float64) for k, m in w.values.items()}
    functions = {n: activations[n].numpy for n in decision.layer.functions}
    with np.errstate(all="ignore"):
        sides = _witness_sides(decision, values, functions)
    scale = max([1.0, *(abs(float(v)) for v in sides if np.isfinite(v))])  # none: both overflow
    want = abs(float(w.difference.evalf(30)))
    if not np.isfinite(want):  # beyond float64 (exp(exp(x))): mpmath has no exponent limit
        return 15 + GUARD_DIGITS
    if want > FLOAT64_RESOLVES * scale and all(np.isfinite(v) for v in sides):
        return None
    if want == 0.0:  # below float's range: the exact size decides the digits
        want = float(mpmath.mpf(sympy.Abs(w.difference).evalf(60)))
    orders = 0 if want == 0 else max(0, int(np.ceil(np.log10(scale / want))))
    return min(MAX_REPLAY_DIGITS, 15 + orders + GUARD_DIGITS)


def _mpmath_replay(decision: SymmetryDecision, activations, digits: int) -> NumericCheck:
    """The witness replayed in mpmath at ``digits``: the layer evaluated (numpy object arrays of
    mpf, σ by ``lambdify(..., "mpmath")``) independently of the kernel's exact value, compared
    with the certified difference evaluated at the same precision."""
    import mpmath

    w = decision.witness
    with mpmath.workdps(digits):

        def mp(v):
            v = sympy.sympify(v)
            if v.is_Rational:
                return mpmath.mpf(int(v.p)) / int(v.q)
            return mpmath.mpf(str(v.evalf(digits)))

        values = {
            k: np.array([[mp(v) for v in row] for row in m.tolist()], dtype=object)
            for k, m in w.values.items()
        }
        functions = {
            n: np.vectorize(sympy.lambdify(z, activations[n].expr, "mpmath"), otypes=[object])
            for n in decision.layer.functions
        }
        after, before = _witness_sides(decision, values, functions, scalar=mp)
        gap = after - before
        want = mpmath.mpf(str(w.difference.evalf(digits)))
        error = float(abs(gap - want) / max(mpmath.mpf(1), abs(want)))
        tolerance = float(mpmath.mpf(10) ** (-(digits - GUARD_DIGITS // 2)))
        relative = float(abs(gap - want) / abs(want)) if want != 0 else float("inf")
        agrees = gap != 0 and relative <= 1e-6
        return NumericCheck(
            "the witness replayed at the precision its difference needs: "
            "F(x; Tθ) − F(x; θ) at the certified entry",
            "mpmath",
            1,
            error,
            tolerance,
            agrees and error <= tolerance,
            detail=f"mpmath at {digits} digits {mpmath.nstr(gap, 6)}, exact {mpmath.nstr(want, 6)}",
        )


def _array(a) -> np.ndarray:
    return a.numpy() if hasattr(a, "numpy") else np.asarray(a)
