"""The public API (issue 12): the contract example verbatim, a false step, Z3 over an
uninterpreted σ, notebook rendering, user theorem modules via --path, --version."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import sympy
from commands import in_process
from hypothesis import given
from hypothesis import strategies as st

import symbolic
from symbolic import assert_proved, assume, claim, equal, nonzero, positive, uninterpreted, valid
from symbolic.errors import InvalidArgument
from symbolic.kernel import ForAll

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = '''
import sympy
from symbolic import claim, equal, valid, nonzero, uninterpreted, assert_proved

sigma = uninterpreted("sigma")
a, b = sympy.symbols("a b", real=True)

@claim("mine.antisymmetric", source="my note, eq. 3")
def antisymmetric():
    """H(a, b) = σ(a)·b − σ(b)·a is antisymmetric, so H(a, b)·H(b, a) = −H(a, b)²."""
    h = sigma(a) * b - sigma(b) * a
    swapped = h.subs({a: b, b: a}, simultaneous=True)
    yield equal(h * swapped, -h**2)

assert_proved(antisymmetric())
'''

a, b = sympy.symbols("a b", real=True)
sigma = uninterpreted("sigma")


def test_the_contract_example_runs_verbatim():
    namespace: dict = {}
    exec(compile(CONTRACT, "contract", "exec"), namespace)  # noqa: S102
    assert namespace["antisymmetric"]().status == "proved"


def test_the_surface_is_small_and_versioned():
    assert {
        "claim",
        "equal",
        "valid",
        "nonzero",
        "positive",
        "uninterpreted",
        "assume",
        "assert_proved",
    } <= set(symbolic.__all__)
    assert len(symbolic.__all__) <= 24 and symbolic.__version__


def test_a_false_step_is_refuted_with_a_named_witness():
    @claim("mine.false")
    def false():
        """a·b = a + b."""
        yield equal(a * b, a + b)

    result = false()
    assert result.status == "refuted"
    with pytest.raises(AssertionError, match=r"step 1 .* refuted .* at a = 7/5, b = 7/5"):
        assert_proved(result)


@given(st.integers(-20, 20), st.integers(1, 20))
def test_true_polynomial_identities_are_proved_false_ones_refuted(m, k):
    assert equal((a + m) ** 2, a**2 + 2 * m * a + m**2).verdict.status == "proved"
    assert equal((a + m) ** 2, a**2 + 2 * m * a + m**2 + k).verdict.status == "refuted"


def test_z3_over_an_uninterpreted_sigma():
    u, v, x = sympy.symbols("u v x", real=True)
    hyp = ForAll((u, v), sympy.Eq(sigma(u) * v, sigma(v) * u))
    assert valid(sympy.Implies(hyp, sympy.Eq(sigma(x), sigma(1) * x))).verdict.status == "proved"
    wrong = valid(sympy.Eq(sigma(u) * v, sigma(v) * u))
    assert wrong.verdict.status == "refuted" and wrong.verdict.witness


def test_certificates_and_assumptions():
    assert nonzero(sympy.exp(1) - sympy.Rational(271828, 100000)).verdict.status == "proved"
    assert positive(sympy.pi - 3).verdict.status == "proved"
    assert positive(a**2 + 1).verdict.status == "proved"

    @claim("mine.assumed")
    def assumed():
        """Rests on a hypothesis."""
        yield assume("σ is measurable")
        yield equal(sympy.Add(a, a, evaluate=False), 2 * a)

    r = assumed()
    assert r.status == "proved" and r.strict_status() == "unknown" and len(r.assumptions) == 1


def test_errors_are_phrased_for_the_api():
    with pytest.raises(InvalidArgument, match="expected a SymPy expression"):
        equal("a", a)
    with pytest.raises(InvalidArgument, match="must yield"):
        claim("x")(lambda: None)
    with pytest.raises(InvalidArgument, match="identifier"):
        uninterpreted("not a name")


def test_notebook_rendering_shows_the_derivation():
    namespace: dict = {}
    exec(compile(CONTRACT, "contract", "exec"), namespace)  # noqa: S102
    shown = namespace["antisymmetric"]()._repr_markdown_()
    assert shown.startswith("**Proposition `mine.antisymmetric`** (my note, eq. 3)")
    assert "1. `(a*σ(b) - b*σ(a))*(b*σ(a) - a*σ(b)) = -(b*σ(a) - a*σ(b))**2`" in shown
    assert "**✓ proved by sympy**" in shown and "Result(" not in shown


MODULE = '''
"""My layer."""
import sympy
from symbolic import claim, equal

a, b = sympy.symbols("a b", real=True)


@claim("mine.layer")
def layer():
    """(a + b)² = a² + 2ab + b²."""
    yield equal((a + b) ** 2, {rhs})
'''


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_user_theorem_modules_via_path(tmp_path):
    good, bad = tmp_path / "good", tmp_path / "bad"
    for folder, rhs in ((good, "a**2 + 2*a*b + b**2"), (bad, "a**2 + b**2")):
        folder.mkdir()
        (folder / "my_layer.py").write_text(textwrap.dedent(MODULE.format(rhs=rhs)))
    ok = _run("--path", str(good), cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "mine.layer" in ok.stdout and "1 proved" in ok.stdout
    # the same command in process (a real process above shows the user's module imported there)
    wrong = in_process("proofs", ["--path", str(bad), "--json"], cwd=tmp_path)
    assert wrong.returncode == 1 and '"refuted"' in wrong.stdout
    missing = in_process("proofs", ["--path", str(tmp_path / "nope")], cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_version_and_no_prefix_options(tmp_path):
    out = in_process("proofs", ["--version"], cwd=tmp_path)
    assert out.returncode == 0 and "transformer-proofs" in out.stdout and "sympy" in out.stdout
    assert in_process("proofs", ["--ver"], cwd=tmp_path).returncode == 2
