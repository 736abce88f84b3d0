"""A representative slice of the adversarial corpus (issue 11), in this process.

Each entry goes through ``proofs.exchange.main(["--activation=TEXT", "--json", "--no-torch"])``
and is classified against its independently established truth by the campaign runner's own
``classify``: never a WRONG verdict, never an exception, exit 0 or 3 for valid input and 2 for
invalid input. No wall-clock assertion: time limits may only turn a verdict into ``unknown``,
which passes. The whole corpus runs in ``benchmarks/adversarial_campaign.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from proofs import exchange

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    """The module at ``path`` (benchmarks/ is not a package), imported once."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


corpus = _load("adversarial_corpus", ROOT / "tests" / "soundness" / "adversarial_corpus.py")
campaign = _load("adversarial_campaign", ROOT / "benchmarks" / "adversarial_campaign.py")

BY_TEXT = {e.text: e for e in corpus.CORPUS}
SLICE = (
    "max(1, sigmoid(400) - 3*abs(x-1))",  # issue: a constant SymPy leaves unevaluated
    "elu(elu(x))",  # issue: traceback in the numpy evaluation of an ITE condition
    "x*(cosh(x)**2 - sinh(x)**2)",  # issue: float64 cancellation in the cross-check
    "x # comment",  # issue: must be rejected
    "softplus(x) - softplus(-x)",  # disguised linear
    "x + relu(softplus(x) - softplus(x + 1))",  # disguised linear: the relu is 0 everywhere
    "x + 1e-100*abs(x)",  # tiny perturbation that keeps degree 1
    "x + relu(x - 1e6)",  # far-away kink
    "max(x, 1.0000001*x)",  # nudged slope, degree 1, not linear
    "abs(x)**pi",  # transcendental degree
    "sigmoid(x) + sigmoid(-x)",  # degree-0 constant written obscurely
    "min(relu(x), relu(-x))",  # σ ≡ 0 written obscurely
    "relu(x)**2 - relu(-x)**2",  # odd trick: x|x|
    "max(min(max(min(x, 3*x), 0.5*x), 2*x), 0.25*x)",  # nested max/min
    "tanh(x*1e-12)*1e12",  # ≈ x, but not linear
    "sqrt(x)",  # undefined for x < 0
    "- - x",  # hostile but valid syntax
    "x + abs(softplus(-100) - softplus(-99))*x**2",  # session 12: |A| was built as 0 by a float
    "max(x, x + log(1+exp(-100)) - log(1+exp(-99)))",  # session 12: max took x + A by a float
)


def test_the_slice_spans_the_families():
    assert set(SLICE) <= set(BY_TEXT)
    families = {BY_TEXT[t].family for t in SLICE}
    assert len(families) >= 12, families


def _run(capsys, text: str) -> tuple[int, str, str]:
    try:
        code = exchange.main([f"--activation={text}", "--json", "--no-torch"])
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    except Exception as exc:  # noqa: BLE001 - any exception is a finding (a CLI traceback)
        pytest.fail(f"{text!r} raised {type(exc).__name__}: {exc}")
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("text", SLICE)
def test_never_wrong_and_the_right_exit_code(text, capsys):
    entry = BY_TEXT[text]
    code, stdout, stderr = _run(capsys, text)
    outcome = campaign.classify(entry, code, stdout, stderr)
    assert outcome.klass != "WRONG", f"{text!r}: {outcome.cause}"
    assert outcome.klass not in ("traceback", "accepted-invalid"), f"{text!r}: {outcome.cause}"
    if entry.valid:
        assert code in (0, 3), f"{text!r}: exit {code} ({outcome.klass}: {outcome.cause})"
    else:
        assert code == 2, f"{text!r}: exit {code}, must be rejected"
        assert stderr.strip() and "\n" not in stderr.strip(), "a one-line error"


def test_leading_minus_in_the_space_form(capsys):
    """``--activation "-x/3"`` is how users type it (issue 11): it must not be an argparse
    error."""
    code, stdout, stderr = _run_space_form(capsys, "-x/3")
    assert code == 0, stderr
    assert json.loads(stdout)["linear"] is True


def _run_space_form(capsys, text: str) -> tuple[int, str, str]:
    try:
        code = exchange.main(["--activation", text, "--json", "--no-torch"])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_classify_is_exact_about_degrees():
    """The runner's comparison: exact, and a definite mismatch is WRONG."""
    entry = BY_TEXT["relu(x)**tanh(345)"]
    doc = {
        "linear": False,
        "homogeneity_degree": 1.0,
        "inverse_scaling_symmetric": False,
        "status": "proved",
        "evidence": {"homogeneity": {"verdict": {"status": "proved"}, "degree_exact": "1"}},
    }
    wrong = campaign.classify(entry, 0, json.dumps(doc), "")
    assert wrong.klass == "WRONG" and wrong.format_defects
    doc["evidence"]["homogeneity"]["degree_exact"] = "tanh(345)"
    right = campaign.classify(entry, 0, json.dumps(doc), "")
    assert right.klass == "right"
    zero = BY_TEXT["0*x"]
    doc = {
        "linear": True,
        "homogeneity_degree": "any",
        "inverse_scaling_symmetric": True,
        "status": "proved",
        "evidence": {"homogeneity": {"verdict": {"status": "proved"}, "degree_exact": "any"}},
    }
    assert campaign.classify(zero, 0, json.dumps(doc), "").klass == "right"
    doc.update(homogeneity_degree=None, homogeneous_of_every_degree=True)
    doc["evidence"]["homogeneity"]["degree_exact"] = None
    assert campaign.classify(zero, 0, json.dumps(doc), "").klass == "right"
    doc.update(homogeneity_degree=1, homogeneous_of_every_degree=False)
    doc["evidence"]["homogeneity"]["degree_exact"] = "1"
    assert campaign.classify(zero, 0, json.dumps(doc), "").klass == "incomplete-degree"
    doc["evidence"]["homogeneity"]["verdict"]["status"] = "refuted"
    assert campaign.classify(zero, 0, json.dumps(doc), "").klass == "WRONG"
