"""Numeric cross-checks: implementations agree, and a wrong verdict is caught."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy

from numeric_checks.activations import cross_check, implementations_agree, torch_available
from numeric_checks.evaluate import numpy_function
from symbolic.activations import ACTIVATIONS, z
from symbolic.gated.analysis import analyze
from symbolic.kernel import negate


@pytest.mark.xdist_group("shared-reports")  # torch is imported on one worker only
@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_numpy_sympy_and_torch_agree(name):
    checks = implementations_agree(ACTIVATIONS[name])
    assert all(c.agrees for c in checks), [c for c in checks if not c.agrees]
    assert len(checks) == (2 if torch_available() else 1)


def test_a_wrong_exchange_verdict_is_caught():
    act = ACTIVATIONS["silu"]
    honest = analyze(act.expr, "silu")
    assert all(c.agrees for c in cross_check(honest, act))
    lying = replace(
        honest, linear=replace(honest.linear, holds=negate(honest.linear.holds), witness=None)
    )
    failures = [c for c in cross_check(lying, act) if not c.agrees]
    assert any("Q ↔ K" in c.name for c in failures)


def test_a_wrong_scaling_verdict_is_caught():
    act = ACTIVATIONS["relu"]
    honest = analyze(act.expr, "relu")
    lying = replace(
        honest,
        inverse_scaling=replace(honest.inverse_scaling, holds=negate(honest.inverse_scaling.holds)),
    )
    assert any(not c.agrees and "2Q" in c.name for c in cross_check(lying, act))


def test_tiny_nonlinearity_is_reported_below_resolution_not_as_disagreement():
    expr = z + sympy.Rational(1, 10**30) * z**2
    checks = cross_check(analyze(expr, "tiny"))
    assert all(c.agrees for c in checks)
    assert any("below float64 resolution" in c.detail for c in checks)


def test_tree_evaluator_handles_piecewise_and_max():
    f = numpy_function(ACTIVATIONS["elu"].expr + sympy.Max(z, 0))
    import numpy as np

    assert np.allclose(f(np.array([-1.0, 0.0, 2.0])), [np.expm1(-1.0), 0.0, 4.0])


def test_float64_overflow_is_nothing_to_compare_not_a_disagreement():
    from numeric_checks.activations import expected_check

    for symmetric in (True, False):
        check = expected_check(
            "gated form: Q ↔ K", "numpy", float("nan"), symmetric, None, float("inf")
        )
        assert check.agrees and "beyond float64 range" in check.detail


@pytest.mark.parametrize(
    "text",
    [
        "x + relu(-(x-1)*(x-1.0000001))",  # PolynomialError in the homogeneity search
        pytest.param(
            "x + relu(min(x - tanh(200), 1 - x))",  # "not comparable" (numeric check)
            marks=pytest.mark.slow,
        ),  # ~8 s of undecided searches
    ],
)
def test_valid_activations_that_crashed_get_a_report(text):
    from tests.commands import in_process

    done = in_process("proofs.exchange", ["--activation", text])
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode in (0, 3)  # decided or unknown; never a crash
    assert text in done.stdout


def test_check_lines_say_what_they_measured():
    from numeric_checks.activations import REL_TOL, expected_check

    kept = expected_check("gated form: Q ↔ K", "numpy", 3e-15, True, None)
    broken = expected_check("gated form: Q ↔ K", "numpy", 1.02, False, 0.5)
    missing = expected_check("gated form: Q ↔ K", "numpy", 0.0, False, 0.5)
    assert kept.measured() == f"agrees to 3e-15 (tolerance {REL_TOL:.3g})"
    assert broken.agrees and broken.measured().startswith(
        "differs by 1.02 where the verdict predicts a difference"
    )
    assert not missing.agrees and "differs by only 0" in missing.measured()


def test_the_text_report_reads_agrees_or_differs_never_error_vs_tolerance():
    from tests.commands import in_process

    done = in_process("proofs.exchange", ["--activation", "relu", "-v"])
    lines = [x for x in done.stdout.splitlines() if "numeric check" in x]
    assert lines and not any("max error" in x for x in lines)
    assert any("differs by" in x and "predicts a difference" in x for x in lines)
    assert any("agrees to" in x for x in lines)
