"""Hostile ``--layer`` / ``--transform`` / ``--param`` input for ``python -m proofs.symmetry``
(issue 13): never executed, never a hang, never a traceback — a parsed layer or transform, or a
one-line error and exit 2.

* Hypothesis fuzzes the two parsers with hostile trees (dunder names, imports, lambdas,
  attribute access other than ``.T``, subscripts, huge numbers and exponents, deep nesting) and
  with random unicode; payloads that would create a marker file never do.
* A curated list goes through the whole command in process (``main([...])``): exit 2, one line
  on stderr, nothing on stdout, no file created; 10⁶-character input included.
* One subprocess run checks the same contract end to end (no traceback reaches the user).

Hang detectors only: no test asserts how long anything takes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proofs import symmetry
from symbolic.errors import InvalidExpression
from symbolic.languages.layer_language import parse_layer, table_layer
from symbolic.languages.transform_language import parse_param, parse_transform
from symbolic.limits import BudgetExceeded, deadline

ROOT = Path(__file__).resolve().parents[2]
PARSE_HANG_S = 20.0  # the parsers bound themselves long before this: reaching it is a hang
REQUEST_TIMEOUT_S = 120.0  # per subprocess: a timeout is a hang
MARKER = "MARKER"
NAMES = [
    "__import__",
    "__class__",
    "__builtins__",
    "os",
    "open",
    "eval",
    "exec",
    "getattr",
    "sympy",
    "x",
    "Q",
    "K",
    "V",
    "W1",
    "T",
    "a",
    "j",
    "sigma",
    "relu",
    "silu",
    "_",
    "Q__x",
]
HUGE = [
    "9**9**9",
    "10**10**10",
    "1e308",
    "1e-400",
    "9" * 400,
    "a**1000",
    "a**(10**10)",
    "(2**100)**100",
]


def _payloads(marker: Path) -> list[str]:
    m = str(marker)
    return [
        f"__import__('os').system('touch {m}')",
        f"open('{m}', 'w')",
        f"(lambda: open('{m}', 'w'))()",
        "x.__class__.__init__.__globals__['os']",
        f"exec(\"open('{m}', 'w')\")",
        f"[open('{m}', 'w') for _ in ()]",
        f"x; open('{m}', 'w')",
        "Q.T.__class__",
        "Q.__dict__",
    ]


def _tree(marker: Path) -> st.SearchStrategy[str]:
    leaves = st.one_of(
        st.sampled_from(NAMES),
        st.sampled_from(HUGE),
        st.sampled_from(_payloads(marker)),
        st.integers(-(10**20), 10**20).map(str),
    )

    def grow(kids):
        return st.one_of(
            st.tuples(
                kids,
                st.sampled_from(
                    ["@", "*", "+", "-", "/", "**", "//", "%", " -> ", ", ", ":", " if x else "]
                ),
                kids,
            ).map(lambda t: f"({t[0]}){t[1]}({t[2]})"),
            st.tuples(kids, st.sampled_from(["T", "__class__", "shape", "foo"])).map(
                lambda t: f"({t[0]}).{t[1]}"
            ),
            st.tuples(st.sampled_from(NAMES), st.lists(kids, max_size=2)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
            st.tuples(kids, kids).map(lambda t: f"({t[0]})[{t[1]}]"),
            kids.map(lambda k: f"lambda: {k}"),
            st.tuples(kids, st.integers(1, 60)).map(lambda t: "(" * t[1] + t[0] + ")" * t[1]),
            st.tuples(kids, st.integers(1, 50)).map(lambda t: "sigma(" * t[1] + t[0] + ")" * t[1]),
        )

    return st.recursive(leaves, grow, max_leaves=8)


def _parse_all(text: str) -> None:
    """The layer, transform and parameter parsers: a result or a one-line InvalidExpression."""
    gated = table_layer("gated")
    for option, parse in (
        ("--layer", parse_layer),
        ("--param", parse_param),
        ("--transform", lambda t: parse_transform(t, gated)),
    ):
        try:
            with deadline(PARSE_HANG_S):
                parse(text)
        except InvalidExpression as exc:
            message = str(exc)
            assert "\n" not in message and message.startswith(f"{option} "), message
        except BudgetExceeded:
            pytest.fail(f"{option} {text[:80]!r} hangs")


@pytest.fixture(scope="module")
def marker(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hostile_symmetry") / MARKER


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_trees_parse_or_are_rejected_and_never_run(marker, data):
    text = data.draw(_tree(marker))
    _parse_all(text)
    assert not marker.exists(), f"{text!r} created a file"


@settings(max_examples=40, deadline=None)  # tests/soundness/test_hostile_cli.py fuzzes the
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=120))  # shared checks harder
def test_any_unicode_text_parses_or_is_rejected(text):
    _parse_all(text)


CURATED = [
    ["--layer", "__import__('os').system('echo hi')", "--transform", "Q -> K"],
    ["--layer", "x.__class__", "--transform", "Q -> K"],
    ["--layer", "(lambda: x)()", "--transform", "Q -> K"],
    ["--layer", "sigma(x @ Q.T).shape @ V", "--transform", "Q -> K"],
    ["--layer", "sigma(" * 500 + "x @ Q.T" + ")" * 500 + " @ V", "--transform", "Q -> K"],
    ["--layer", "x" * 10**6, "--transform", "Q -> K"],
    ["--layer", "sigma(x @ Q\u1d40) @ V", "--transform", "Q -> K"],  # a unicode 'ᵀ'
    ["--layer", "sigma(x @ Ｑ.T) @ V", "--transform", "Q -> K"],  # fullwidth Q
    ["--layer", "gated", "--transform", "Q -> a**(10**10)*Q"],
    ["--layer", "gated", "--transform", "Q -> __import__('os')"],
    ["--layer", "gated", "--transform", "Q -> Q.__class__"],
    ["--layer", "gated", "--transform", "{Q: K}"],
    ["--layer", "gated", "--transform", "Q -> K, " * 10**5],
    ["--layer", "gated", "--transform", "Q -> K\x00"],
    ["--layer", "gated", "--transform", "Q -> a*Q", "--param", "__import__('os') > 0"],
    ["--layer", "gated", "--transform", "Q -> a*Q", "--param", "a > 0; import os"],
    ["--layer", "gated", "--transform", "Q -> a*Q", "--activation", "__import__('os')"],
    ["--layer", "rank_r", "--transform", "Q -> K"],
    # a coefficient that is not real on the parameter's domain: no reparametrisation of real
    # weights (the engine decided it over ℂ, then the numeric check crashed)
    [
        "--layer",
        "x @ K.T @ V",
        "--transform",
        "K -> a**(1/2)*K, V -> V/a**(1/2)",
        "--param",
        "a < 0",
    ],
    [
        "--layer",
        "x @ K.T @ V",
        "--transform",
        "K -> a**(1/2)*K, V -> V/a**(1/2)",
        "--param",
        "a != 0",
    ],
    ["--layer", "x @ K.T @ V", "--transform", "K -> (-a)**(1/2)*K"],
    ["--layer", "x @ K.T @ V", "--transform", "K -> (-1)**(1/2)*K"],
    # nested powers: each exponent within the bound, what they build beyond it
    ["--layer", "gated", "--transform", "Q -> ((a + 1)**12)**12*Q"],
    ["--layer", "gated", "--transform", "Q -> (((a + 1)**12)**12)**12*Q"],
    ["--layer", "gated", "--transform", "Q -> ((2**12)**12)**12*Q"],
    ["--layer", "gated", "--transform", "Q -> (((2**12)**12)**12)**12*Q"],
    # a block transform that changes nothing, as the layer language refuses it
    ["--layer", "llama_block", "--transform", "WQ0 -> WQ0"],
    # options a block does not read are refused, not silently dropped; one group per element
    ["--layer", "llama_block", "--discover", "--activation", "gelu"],
    ["--layer", "gpt2_block", "--discover", "--param", "a > 1"],
    [
        "--layer",
        "llama_block",
        "--transform",
        "WQ0 -> WQ0 @ A, WK0 -> WK0 @ inv(A).T",
        "--param",
        "A in GL, A in O",
    ],
]


@pytest.mark.parametrize("argv", CURATED, ids=lambda a: repr(" ".join(a))[:50])
def test_curated_hostile_commands_exit_2_with_one_line(argv, capsys, marker):
    assert symmetry.main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "Traceback" not in out.err
    assert out.err.startswith("python -m proofs.symmetry: error: ")
    assert not marker.exists()


def test_the_real_command_prints_no_traceback():
    argv = CURATED[0]
    done = subprocess.run(
        [sys.executable, "-m", "proofs.symmetry", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=REQUEST_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
