"""Solver limits (issue 7): a backend that runs out of time gives ``unknown`` and exit code 3 —
never ``proved``, never a pass.

End to end (the command's ``main``; the third also as a real process):
``python -m proofs.exchange --z3-timeout 1`` and ``--sympy-timeout 0.0001`` exit 3
and say ``unknown``; an activation whose linearity SymPy cannot decide within the budget is
``"status": "unknown"`` in the JSON, exit 3. In process: ``budget.limits(z3_timeout_ms=1)``
leaves the Z3 lemma unknown, and a tiny SymPy budget leaves a hard identity unknown; in both
cases nothing that ran out of time is reported proved.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import sympy
from commands import in_process, in_subprocess

from proofs import exchange
from symbolic.engine import EXIT_UNKNOWN
from symbolic.kernel import check_valid, zero_verdict
from symbolic.limits import limits
from symbolic.steps import equal_step

pytestmark = pytest.mark.xdist_group("solver-limits")  # one worker: the runs fixture, once


def prove(build, timeout_ms):
    return check_valid(build, timeout_ms).verdict


HARD_IDENTITY = "2*sigmoid(2*x) - 1 - tanh(x) + x"  # = x, which SymPy needs simplify() to see


@pytest.fixture(scope="module")
def runs() -> dict[str, subprocess.CompletedProcess]:
    """The three end-to-end runs: two through ``main`` in this process, one a real process."""
    return {
        "z3": in_process("proofs.exchange", ["--z3-timeout", "1", "--no-torch"]),
        "sympy": in_process("proofs.exchange", ["--sympy-timeout", "0.0001", "--no-torch"]),
        "activation": in_subprocess(
            "proofs.exchange",
            ["--activation", HARD_IDENTITY, "--sympy-timeout", "0.0001", "--json"],
        ),
    }


def test_a_tiny_z3_timeout_is_unknown_and_exit_3_end_to_end(runs):
    done = runs["z3"]
    assert "Traceback" not in done.stderr
    assert done.returncode == EXIT_UNKNOWN, done.stdout[-800:]
    assert "unknown" in done.stdout
    summary = done.stdout.strip().splitlines()[-1]
    assert "— unknown" in summary and "0 refuted" in summary, summary


def test_a_tiny_sympy_timeout_is_unknown_and_exit_3_end_to_end(runs):
    done = runs["sympy"]
    assert "Traceback" not in done.stderr
    assert done.returncode == EXIT_UNKNOWN, done.stdout[-800:]
    assert "[unknown]" in done.stdout
    # the limit interrupted SymPy's work (reached) or the work ended past it (passed): which one
    # depends on where the timer's tick falls, never on the verdict, unknown either way
    assert re.search(r"time limit of 0\.0001 s (reached|passed)", done.stdout), done.stdout[-800:]
    assert "— unknown" in done.stdout.strip().splitlines()[-1]


def test_an_undecided_linearity_is_unknown_in_the_json_and_exit_3(runs):
    done = runs["activation"]
    assert "Traceback" not in done.stderr
    assert done.returncode == EXIT_UNKNOWN
    doc = json.loads(done.stdout)
    assert doc["status"] == "unknown"
    assert doc["linear"] is None and doc["exchange_symmetric"] is None
    reason = doc["evidence"]["linear"]["verdict"]["reason"]
    assert "time limit of 0.0001 s reached" in reason, reason  # the cap reached the search too


# --- in process ---------------------------------------------------------------------------------


def test_a_one_millisecond_z3_budget_leaves_the_lemma_unknown():
    with limits(z3_timeout_ms=1):
        derivation = exchange.lemma_z3_derivation()
    assert derivation.verdict.status == "unknown"
    for step in derivation.steps:
        assert step.verdict.status in ("proved", "unknown"), step.statement
        if step.verdict.method == "z3":  # the closing conjunction is a rule, no solver run
            assert step.verdict.timeout_s == 0.001
    undecided = [s.verdict for s in derivation.steps if s.verdict.status == "unknown"]
    assert undecided and all("unknown" in v.reason for v in undecided)


def test_the_z3_budget_is_restored_after_the_block():
    with limits(z3_timeout_ms=1):
        pass
    assert exchange.lemma_z3_derivation().verdict.status == "proved"


def test_a_z3_timeout_never_proves_a_false_formula():
    def false_but_hard(z3):  # ∀u,v σ(u)v = σ(v)u ⇒ σ(x) = σ(2)·x: false (σ(z) = z, x = 1)
        s = z3.Function("sigma", z3.RealSort(), z3.RealSort())
        u, v, x = z3.Reals("u v x")
        return z3.Implies(z3.ForAll([u, v], s(u) * v == s(v) * u), s(x) == s(2) * x)

    for timeout_ms in (1, 50):
        assert prove(false_but_hard, timeout_ms=timeout_ms).status in ("unknown", "refuted")


def test_a_tiny_sympy_budget_leaves_a_hard_identity_unknown():
    z = sympy.Symbol("z", real=True)
    hard = 2 / (1 + sympy.exp(-2 * z)) - 1 - sympy.tanh(z)
    with limits(sympy_timeout_s=1e-4):
        verdict = zero_verdict(hard)
        step = equal_step(hard, 0, "exp form")
    assert verdict.status == "unknown" and "time limit" in verdict.reason
    assert step.verdict.status == "unknown" and verdict.timeout_s == 1e-4
    assert zero_verdict(hard).status == "proved"  # with the default budget it is an identity


def test_an_undecided_step_makes_the_report_exit_3_never_0():
    with limits(sympy_timeout_s=1e-4):
        report = exchange.build_report(activations=[HARD_IDENTITY + " + 0*x**3"])
    assert report.status == "unknown" and report.exit_code == EXIT_UNKNOWN


def test_the_sympy_cap_bounds_the_activation_analysis_too(monkeypatch):
    """``--sympy-timeout`` caps the analysis's own searches (linearity, homogeneity), not only
    the kernel's simplifications. The search is made to work 0.5 CPU seconds (as a hard
    simplification would); under a cap of 0.01 s it is stopped — "analysis stopped", unknown —
    where the analysis's own 8 s limit would have let it run."""
    import time

    from symbolic.gated import properties as properties
    from symbolic.gated.analysis import analyze
    from symbolic.languages.activation_language import parse_activation

    search = properties._decide_linear

    def slow_search(expr):
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
        return search(expr)

    monkeypatch.setattr(properties, "_decide_linear", slow_search)
    expr = parse_activation(HARD_IDENTITY).expr
    with limits(sympy_timeout_s=0.01):
        capped = analyze(expr, "hard-identity-capped")
    assert capped.linear.holds.status == "unknown"
    reason = capped.linear.holds.reason
    assert reason.startswith("analysis stopped") and "time limit of 0.01 s reached" in reason
