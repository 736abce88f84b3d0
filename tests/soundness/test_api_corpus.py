"""A representative slice of the API corpus (issue 24), each entry in a forked child.

Each entry goes through the public API (``equal``, ``valid``, ``nonzero``, ``positive``,
``assume``, ``@claim``) and is classified against its independently established truth by the
campaign's own ``classify``: never WRONG, never a traceback, never a hang (the child is killed
after ``HANG_S``; no wall-clock assertion beyond that guard). ``unknown`` passes. The whole corpus
runs in ``benchmarks/api_campaign.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


campaign = _load("api_campaign", ROOT / "benchmarks" / "api_campaign.py")
corpus = campaign.load_corpus()
INDEX = {e.id: i for i, e in enumerate(corpus.CORPUS)}

SLICE = (
    "f.sum",
    "f.sqrt2",
    "f.ulp",
    "f.tiny_nz",
    "f.tiny_pos",
    "f.diff_pos",  # floats
    "sf.tenth",
    "sf.tenth_pos",  # SymPy Float
    "z.pos_cubic",
    "z.int_sq",
    "z.same_name",
    "z.dummy",
    "z.bool_em",
    "z.rational",  # Z3 meaning
    "zs.int_times2",
    "zs.toint",  # the formula shown is the one decided
    "d.eq_cancel",
    "d.va_cancel",
    "d.eq_xinv",
    "d.va_xinv",
    "d.va_eq0",  # one division
    "w.kronecker",
    "w.indexed_diff",  # witnesses
    "b.pow_eq",
    "b.true_false",
    "b.shapes",
    "b.matrix_scalar",  # bounds and bad arguments
    "c.liar",
    "c.always_pos",
    "c.shy",  # user classes
    "k.binom_false",
    "k.ramanujan_sign",  # control
    "k.heaviside_half",
    "d.exists_free_den",
    "z.fn_not_real",
    "w.matrix_undefined",  # red-team round of session 11
    "cl.statement",
    "cl.statement_bad",  # @claim(statement=...)
)


def test_the_corpus_is_large_and_spans_the_families():
    assert len(corpus.CORPUS) >= 150
    assert len({e.id for e in corpus.CORPUS}) == len(corpus.CORPUS)
    assert set(SLICE) <= set(INDEX)
    families = {corpus.CORPUS[INDEX[i]].family for i in SLICE}
    assert families == {e.family for e in corpus.CORPUS}


def test_every_truth_is_re_derived_by_mpmath():
    assert campaign.verify_truth(corpus) == []


@pytest.mark.parametrize("entry_id", SLICE)
def test_no_wrong_verdict_no_traceback_no_hang(entry_id):
    entry = corpus.CORPUS[INDEX[entry_id]]
    status, detail = campaign.run_isolated(INDEX[entry_id])
    verdict = campaign.classify(entry, status)
    assert verdict in ("right", "unknown"), (entry_id, status, detail)


@pytest.mark.parametrize(
    "status, expect, verdict",
    [
        ("proved", "false", "WRONG"),
        ("refuted", "true", "WRONG"),
        ("proved", "refuse", "WRONG"),
        ("refused", "true", "unknown"),
        ("refused", "refuse", "right"),
        ("unknown", "false", "unknown"),
        ("misshown", "true", "WRONG"),
        ("hang", "true", "hang"),
        ("admitted", "false", "WRONG"),
    ],
)
def test_the_classifier_is_strict(status, expect, verdict):
    entry = corpus.Entry("t", "t", lambda: None, expect, "")
    assert campaign.classify(entry, status) == verdict
