"""The HTML blueprint: pages from report objects, the dot graph, and a real browser."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

import pytest
import sympy
from render_doubles import Step, Verdict  # noqa: E402

from symbolic import html as site
from symbolic.engine import Claim, Derivation, Report, Result

NO_DOT = "Graphviz dot not installed (Debian: graphviz)"
NO_CHROMIUM = "chromium not installed (Debian: chromium)"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason=NO_DOT)
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason=NO_CHROMIUM)

a, b = sympy.symbols("a b", real=True)
PROVED = Verdict.proved("sympy", "ok", backend="sympy 1.14")
WITNESS = Verdict.proved("interval", "sign", witness=(("a", "2"), ("b", "1")),
                         certificate="value ∈ [-0.27, -0.26]")


def reports() -> list[Report]:
    lemma = Claim("lemma", "A lemma", "σ(a)b = σ(b)a", "A6", kind="lemma")
    uses = Claim("uses", "Uses it", "breaks", "A6, A7", uses=("lemma",))
    assumed = Claim("assumed", "Assumed", "needs Cauchy", "A7", uses=("lemma",))
    steps = (Step("ab = ba", "commutativity", PROVED,
                  formula=sympy.Eq(a * b, b * a, evaluate=False)),
             Step("witness", "certified", WITNESS))
    return [Report("proofs.fake", "Fake", "A6", (
        Result(lemma, Derivation(steps)), Result(uses, Derivation(steps)),
        Result(assumed, Derivation((Step("measurable", "assumed", Verdict.proved("assumption")),
                                    ))))),
            Report("proofs.other", "Other", "B", (
                Result(Claim("bad", "Bad", "1 = 2", "B"),
                       Derivation((Step("1 = 2", "arith", Verdict.refuted("exact")),))),))]


def test_status_classes_colour_the_legend():
    results = [r for rep in reports() for r in rep.results]
    assert [site.status_class(r) for r in results] == ["proved", "proved", "assumptions",
                                                        "refuted"]


def test_dot_source_links_nodes_and_draws_uses():
    dot = site.dot_source(reports())
    assert '"lemma" -> "uses";' in dot and '"lemma" -> "assumed";' in dot
    assert 'URL="fake.html#claim-lemma"' in dot and site.STATUS_COLOURS["refuted"][0] in dot


def test_steps_show_mathml_backend_witness_and_certificate():
    index = site._claim_index(reports())
    code = site.claim_html(reports()[0].results[0], index, ["uses"])
    assert "<math" in code and "sympy 1.14" in code
    assert "witness a = 2, b = 1" in code and "certificate: value ∈ [-0.27, -0.26]" in code
    assert 'href="fake.html#claim-uses"' in code and 'href="theory.html#A6"' in code


def test_each_claim_and_module_says_how_it_is_backed():
    reps = reports()
    index = site._claim_index(reps)
    lemma, _, assumed = reps[0].results
    assert 'backed by <span class="backing">sympy, interval</span>' in site.claim_html(
        lemma, index, [])
    assert 'backed by <span class="backing">assumption</span>' in site.module_page(
        reps[0], index, {})
    assert "backed by sympy, interval, assumption)" in site.index_page(reps, "<svg></svg>")


def test_missing_dot_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(site.shutil, "which", lambda name: None)
    with pytest.raises(site.GraphvizMissing, match="apt-get install graphviz"):
        site.write_site(reports(), tmp_path / "site")
    assert not (tmp_path / "site").exists()


@needs_dot
def test_site_is_written_offline(tmp_path):
    index = site.write_site(reports(), tmp_path)
    text = index.read_text(encoding="utf-8")
    assert "<svg" in text and 'href="fake.html"' in text
    for page in tmp_path.glob("*.html"):
        body = page.read_text(encoding="utf-8")
        assert "<script" not in body and "http://" not in body.replace(
            "http://www.w3.org", "") and "https://" not in body


CHROMIUM = ("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync")


def _chromium(*args: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp()
    return subprocess.run([*CHROMIUM, f"--user-data-dir={profile}", *args], capture_output=True,
                          text=True, timeout=90, check=False)


@needs_dot
@needs_chromium
@pytest.mark.slow
def test_a_real_browser_renders_the_graph_and_the_math(tmp_path):
    index = site.write_site(reports(), tmp_path / "site")
    page = tmp_path / "site" / "fake.html"
    shot = tmp_path / "index.png"
    _chromium(f"--screenshot={shot}", "--window-size=1000,800", index.as_uri())
    assert shot.exists()
    data = shot.read_bytes()
    assert len(set(data[200:])) > 50  # not a blank image (a blank PNG compresses to few bytes)
    dom = _chromium("--dump-dom", page.as_uri()).stdout
    assert "<math" in dom and 'href="index.html"' in dom and 'href="theory.html#A6"' in dom
    index_dom = _chromium("--dump-dom", index.as_uri()).stdout
    assert "<svg" in index_dom and "fake.html#claim-lemma" in index_dom
