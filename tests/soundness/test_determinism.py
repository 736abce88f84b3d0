"""Determinism (issue 7): two runs print identical results, timings aside.

What ``python -m proofs.exchange --json`` and ``python -m proofs.scaling -v`` print — rendered
from the reports the suite built in this process (``tests/shared_reports.py``, after whatever the
suite has cached here) and from the same two reports built in one fresh interpreter (another
hash seed, cold caches) — must be the same JSON once the timing fields (``seconds``) are
removed, and the same text once ``in X.XX s`` and ``N.N ms`` are masked: witnesses, certified
intervals, step order, table rows — everything a user or a CI diff sees. A user activation's
``--json`` is compared between the command in process and in a fresh interpreter. In process,
the checks that draw random points (numeric cross-checks, the mutation engine) are seeded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import mutation_engine as mutation
import pytest
from commands import in_process

from proofs import exchange, reduction

ROOT = Path(__file__).resolve().parents[2]
REQUEST_TIMEOUT_S = 300.0  # a hang detector only
TIME_KEYS = frozenset({"seconds"})  # every wall-time field of the JSON documents
# "in 1.72 s", "3.2 ms", "0.01 s": wall times in the text renderings (tables and summaries).
TIME_TEXT = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b")
MODULES = ("proofs.exchange", "proofs.scaling")


def without_times(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: without_times(v) for k, v in doc.items() if k not in TIME_KEYS}
    if isinstance(doc, list):
        return [without_times(v) for v in doc]
    return doc


def masked(text: str) -> str:
    return TIME_TEXT.sub("<time>", text)


@pytest.fixture(scope="module")
def fresh() -> dict[str, str]:
    """The renderings and the user activations' JSON from one fresh interpreter
    (``tests/rendered_runs.py``)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "rendered_runs.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=REQUEST_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-800:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def shown() -> dict[str, str]:
    """The same renderings of the suite's reports in this process."""
    import shared_reports
    from rendered_runs import MODULES, rendered

    return rendered({m: shared_reports.report(m) for m in MODULES})


def first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if x != y:
            return f"line {i + 1}:\n  {x}\n  {y}"
    return "different lengths"


def test_time_fields_are_the_only_thing_masked():
    assert masked("proved in 1.72 s — 3.2 ms, 12 s") == "proved in <time> — <time>, <time>"
    assert masked("d = 64, M* = 2,731.67, relu2 3 samples") == (
        "d = 64, M* = 2,731.67, relu2 3 samples"
    )
    assert without_times({"seconds": 1.2, "a": [{"seconds": 3, "b": 1}]}) == {"a": [{"b": 1}]}


@pytest.mark.parametrize("module", MODULES[:1])  # the activation analyses: the riskiest part
def test_two_json_runs_are_identical_but_for_timings(module, shown, fresh):
    a, b = (without_times(json.loads(run[module])) for run in (shown, fresh))
    if a != b:
        sa, sb = (json.dumps(x, indent=1, sort_keys=True) for x in (a, b))
        pytest.fail(f"{module} --json differs: {first_difference(sa, sb)}")


@pytest.mark.parametrize("module", MODULES[1:])  # the other module, rendered as text
def test_two_text_runs_are_identical_but_for_timings(module, shown, fresh):
    a, b = masked(shown[module]), masked(fresh[module])
    assert a == b, f"{module} -v differs: {first_difference(a, b)}"


def test_the_rendering_is_what_the_commands_print(shown):
    """The two renderings are the commands' own output (so comparing them compares the
    commands): the JSON document and the verbose text."""
    import shared_reports

    exchange_out = in_process(
        "proofs.exchange", ["--json", "--no-torch"], report=shared_reports.report("exchange")
    )
    scaling_out = in_process(
        "proofs.scaling", ["-v", "--no-torch"], report=shared_reports.report("scaling")
    )
    assert without_times(json.loads(exchange_out.stdout)) == without_times(
        json.loads(shown["proofs.exchange"])
    )
    assert masked(scaling_out.stdout) == masked(shown["proofs.scaling"] + "\n")


@pytest.mark.xdist_group("shared-reports")  # where the fresh interpreter runs, once
def test_a_user_activation_gives_the_same_json_twice(fresh):
    from rendered_runs import USER_ACTIVATIONS

    here = in_process("proofs.exchange", USER_ACTIVATIONS)
    assert here.returncode == 0, here.stderr[-500:]
    there, status = fresh["user activations"], fresh["user activations: exit code and stderr"]
    assert status.startswith("0: "), status
    assert without_times(json.loads(here.stdout)) == without_times(json.loads(there))


def test_in_process_derivations_are_reproducible():
    a = without_times(exchange.lemma_derivation().to_json())
    b = without_times(exchange.lemma_derivation().to_json())
    assert a == b
    counts = [reduction.parameter_counts()[1].to_json() for _ in range(2)]
    assert counts[0] == counts[1]


def test_the_mutation_engine_is_reproducible():
    formula = exchange.lemma_derivation().steps[3].formula
    runs = [
        [
            (o.mutant.site, o.status, o.witness)
            for o in mutation.check_all(mutation.mutants(formula, "lemma step 4"))
        ]
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and runs[0]
