"""docs/theory.md and docs/references.bib: every claim's source resolves to an item, every
item's references are bibliography entries, and the LaTeX export cites only those keys and
never names THEORY.md."""

from __future__ import annotations

import re

import pytest

from proofs.__main__ import discover
from symbolic import sources
from symbolic.render.latex_document import document

REQUIRED_ITEMS = ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "B", "C1", "C2", "C3", "D")
REQUIRED_KEYS = (
    "breslow2026",
    "wang-associative-memory",
    "geva2021",
    "shazeer2020",
    "su2021logn",
    "qwen2023",
    "peng2023yarn",
    "krotov2016",
    "demircigil2017",
    "ramsauer2020",
    "kunin2021",
    "du2018",
    "marcotte2023",
    "godfrey2022",
    "zhao2022",
)


@pytest.fixture(scope="module")
def reports():
    import shared_reports

    return [r.report for r in shared_reports.runs() if r.report is not None]


def test_theory_has_every_item_with_statement_proof_and_references():
    items = sources.items()
    assert set(REQUIRED_ITEMS) <= set(items)
    for item in items.values():
        assert "Proved by:" in item.text, item.id
        assert item.references, item.id


def test_every_reference_is_a_bibliography_entry():
    keys = sources.bib_keys()
    assert set(REQUIRED_KEYS) <= keys
    cited = {k for item in sources.items().values() for k in item.references}
    assert cited <= keys, cited - keys


def test_every_bibliography_entry_has_an_author_and_a_year_or_note():
    for key, entry in sources.bib_entries().items():
        assert "author" in entry, key
        assert "year" in entry or "note" in entry, key


def _module_claims():
    """The claims theorem modules define at module level (no checking needed)."""
    from symbolic.engine import Claim

    for m in discover():
        for value in vars(m.module).values():
            for claim in value.values() if isinstance(value, dict) else (value,):
                if isinstance(claim, Claim):
                    yield claim


def test_every_module_level_claim_source_resolves():
    claims = list(_module_claims())
    assert len(claims) > 20
    for claim in claims:
        assert sources.resolve(claim.source), claim.name


@pytest.mark.slow
def test_every_claim_source_resolves(reports):
    for rep in reports:
        sources.resolve(rep.source)
        for res in rep.results:
            assert sources.resolve(res.claim.source), res.claim.name


@pytest.mark.parametrize("source", ["THEORY.md A6", "A9", "", "E1"])
def test_a_source_that_names_no_item_is_refused(source):
    with pytest.raises(sources.UnresolvedSource, match="docs/theory.md"):
        sources.resolve(source)


def test_ranges_expand():
    assert sources.identifiers("A1, A3–A5") == ["A1", "A3", "A4", "A5"]
    assert sources.identifiers("A5-A7") == ["A5", "A6", "A7"]


@pytest.mark.slow
def test_the_export_cites_known_keys_has_no_raw_sympy_and_is_deterministic(reports):
    tex = document(reports)
    assert "THEORY.md" not in tex and "THEORY" not in tex
    for raw in ("**", "besseli(", "Piecewise((", "exp(", "tanh(log"):
        assert raw not in tex, raw
    assert "b\\textsubscript{qK}" not in tex
    keys = {k for group in re.findall(r"\\cite\{([^}]*)\}", tex) for k in group.split(",")}
    assert keys and keys <= sources.bib_keys()
    assert document(reports) == tex
    assert re.search(r"\d\.\d{3} s\b", tex) is None  # no timings by default
