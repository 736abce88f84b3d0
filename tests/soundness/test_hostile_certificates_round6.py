"""Issue 25, red-team round 6: tampered exports (digests recomputed, as a forger does) that the
re-check read in a way another reader would not, or read outside the export folder.

* a JSON object with one key twice (a certificate's ``formula_srepr``, a claim's
  ``statement_srepr``): Python keeps the last, other readers the first — two documents in one
  file, now refused; ``NaN``/``Infinity`` (Python's extension, no JSON) likewise;
* an obligation under a folder that is a symbolic link (``m -> /elsewhere``): the file row
  disagreed, but the re-check still opened and solved the file outside DIR; now every folder
  on the way is opened without following a link, and the bytes checked are the bytes sealed;
* control characters in a manifest's names (ESC, C1, line breaks, bidi marks) reached the
  terminal through the table: now shown as escapes.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
import sympy
from forged_exports import fact_node, write_export
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.evidence import recheck as rc
from symbolic.evidence.files import read_json, read_under
from symbolic.evidence.formula_reader import read_formula
from symbolic.evidence.formula_smt import smt_obligation
from symbolic.evidence.manifest import CERT_SCHEMA, MANIFEST_NAME, Checks
from symbolic.evidence.solvers import cvc5_available

pytestmark = pytest.mark.xdist_group("hostile-certificates")

x = sympy.Symbol("x", real=True)


def U(cls, *args):
    return cls(*args, evaluate=False)


def _comparison_export(d: Path, cert_text=None) -> None:
    """One claim: the closed comparison 3 > 2 with its exact certificate."""
    f = U(sympy.Gt, sympy.Integer(3), sympy.Integer(2))
    cert = {"schema": CERT_SCHEMA, "formula_srepr": sympy.srepr(f), "value": "1"}
    text = cert_text(cert) if cert_text else json.dumps(cert)
    s1 = fact_node("s1", f, "exact", obligation=(Checks.CERTIFICATE, text))
    write_export(d, [s1], statement=s1)


def _identity_export(d: Path) -> None:
    f = U(sympy.Eq, U(sympy.Add, x, x), U(sympy.Mul, 2, x))
    s1 = fact_node(
        "s1", f, "sympy", obligation=(Checks.SMT, smt_obligation(read_formula(sympy.srepr(f))))
    )
    write_export(d, [s1], statement=s1)


# -- 1. one key twice ---------------------------------------------------------------------------


def test_a_certificate_with_a_key_twice_disagrees(tmp_path):
    """{"formula_srepr": "1 > 2", "formula_srepr": "3 > 2"}: the re-check read the last (and
    passed); a reader keeping the first sees a false comparison certified."""

    def doubled(cert):
        text = json.dumps(cert)
        false = sympy.srepr(U(sympy.Gt, sympy.Integer(1), sympy.Integer(2)))
        return text.replace('"formula_srepr"', f'"formula_srepr": "{false}", "formula_srepr"', 1)

    _comparison_export(tmp_path, doubled)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any("twice" in r.answer for r in rows if r.outcome == "DISAGREES")
    _comparison_export(tmp_path / "plain")  # the same export without the double key passes
    agreed = rc.EXIT_OK if cvc5_available() else rc.EXIT_UNKNOWN  # no second solver: unknown
    assert rc.recheck(tmp_path / "plain")[1] == agreed


def test_a_manifest_with_a_key_twice_disagrees(tmp_path):
    _identity_export(tmp_path)
    text = (tmp_path / MANIFEST_NAME).read_text(encoding="utf-8")
    false = sympy.srepr(U(sympy.Eq, sympy.Integer(1), sympy.Integer(0)))
    text = text.replace('"statement_srepr"', f'"statement_srepr": "{false}", "statement_srepr"', 1)
    (tmp_path / MANIFEST_NAME).write_text(text, encoding="utf-8")
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE and "twice" in rows[0].answer


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(literal):
    with pytest.raises(ValueError, match="not a JSON number"):
        read_json(f'{{"value": {literal}}}'.encode())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(json_values, st.text(max_size=3), json_values, json_values)
def test_json_is_read_as_json_and_a_doubled_key_refused(value, key, first, second):
    """Without a repeated key read_json is json.loads; with one, at any depth, it refuses."""
    text = json.dumps(value)
    assert read_json(text.encode()) == json.loads(text)
    k = json.dumps(key)
    doubled = f'{{"v": [{text}, {{{k}: {json.dumps(first)}, {k}: {json.dumps(second)}}}]}}'
    with pytest.raises(ValueError, match="twice"):
        read_json(doubled.encode())


# -- 2. a folder that is a symbolic link ----------------------------------------------------------


def test_an_obligation_under_a_linked_folder_is_never_opened(tmp_path, monkeypatch):
    """m -> outside/: every file of the export is under m, sealed. The re-check must not open
    what is outside DIR (it did: the file row disagreed, the fact was still re-checked)."""
    export, outside = tmp_path / "export", tmp_path / "outside"
    _identity_export(export)
    (export / "m").rename(outside)
    os.symlink(outside, export / "m")
    opened = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *, dir_fd=None):
        fd = real_open(path, flags, mode, dir_fd=dir_fd)  # what was opened, not attempted
        opened.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        return fd

    monkeypatch.setattr(os, "open", spy)
    rows, code, _ = rc.recheck(export)
    monkeypatch.undo()
    assert code == rc.EXIT_DISAGREE
    assert not [p for p in opened if p.startswith(str(outside.resolve()))]
    with pytest.raises(ValueError, match="folder 'm' refused"):
        read_under(export, "m/s1.obl.smt2")


@pytest.mark.parametrize("name", ["../x", "/etc/passwd", "m/../m/s1.obl.smt2", "m//s1", "", "."])
def test_read_under_takes_plain_relative_paths_only(tmp_path, name):
    with pytest.raises(ValueError):
        read_under(tmp_path, name)


def test_the_bytes_checked_are_the_bytes_sealed(tmp_path, monkeypatch):
    """A file swapped after the listing hashed it (and compared the digest with the manifest's)
    is not checked: the obligation's bytes must be the bytes hashed."""
    from symbolic.evidence import files

    _identity_export(tmp_path)
    real = files.listing

    def listing_then_swap(root, skip=()):
        found = real(root, skip)
        (Path(root) / "m" / "s1.obl.smt2").write_text("(assert false)\n(check-sat)\n")
        return found

    monkeypatch.setattr(rc, "listing", listing_then_swap)
    rows, code, _ = rc.recheck(tmp_path)
    assert code == rc.EXIT_DISAGREE
    assert any("listing hashed" in r.answer for r in rows if r.node == "s1")


# -- 3. control characters in what is printed ------------------------------------------------------


def test_control_characters_in_names_are_printed_as_escapes(tmp_path, monkeypatch):
    from proofs._cli import recheck_main

    _identity_export(tmp_path)
    data = json.loads((tmp_path / MANIFEST_NAME).read_text(encoding="utf-8"))
    data["claims"][0]["name"] = "m.claim\x1b[8m\x9b8m\u202e\nfake row"
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data), encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    recheck_main(str(tmp_path), "proofs")
    out.flush()
    shown = out.buffer.getvalue().decode("utf-8")
    assert not any(c in shown for c in "\x1b\x9b\u202e")
    assert "\\x1b[8m" in shown and "fake row" not in shown.split("\n")[0]
    assert not any(line.startswith("fake row") for line in shown.splitlines())


def test_a_division_in_a_piecewise_branch_is_claimed_only_where_the_branch_is_taken():
    """The kernel's Z3 path claims 1/x² ≠ 0 only where its branch is reached or taken; an
    obligation guarding it everywhere re-checked a weaker formula (Piecewise((−1, x = 0),
    (1/x², True)) ≥ 0 held 'where x ≠ 0' though it is false at x = 0)."""
    from symbolic.evidence.formula_smt import smt_obligation
    from symbolic.evidence.solvers import run_z3

    x, y = sympy.symbols("x y", real=True)
    at_zero = sympy.Eq(x, 0)
    assert run_z3(smt_obligation(sympy.Piecewise((1, at_zero), (1 / x**2, True)) > 0)) == "unsat"
    assert run_z3(smt_obligation(sympy.Piecewise((-1, at_zero), (1 / x**2, True)) >= 0)) == "sat"
    chained = sympy.Piecewise((1 / x, x > 0), (1 / y, y > 1), (0, True)) >= 0
    assert run_z3(smt_obligation(chained)) == "unsat"  # each divisor nonzero where it is taken
