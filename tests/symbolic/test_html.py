"""The HTML blueprint: pages from report objects, the dot graph, and a real browser."""

from __future__ import annotations

import html
import shutil
import subprocess
import tempfile

import pytest
import sympy
from render_doubles import Result, Step, Verdict  # noqa: E402

from symbolic.engine import Claim, Derivation, Report
from symbolic.render import html_graphs, html_links, html_pages, html_site, html_status, html_text

NO_DOT = "Graphviz dot not installed (Debian: graphviz)"
NO_CHROMIUM = "chromium not installed (Debian: chromium)"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason=NO_DOT)
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason=NO_CHROMIUM)

a, b = sympy.symbols("a b", real=True)
PROVED = Verdict.proved("sympy", "ok", backend="sympy 1.14")
WITNESS = Verdict.proved(
    "interval", "sign", witness=(("a", "2"), ("b", "1")), certificate="value ∈ [-0.27, -0.26]"
)


def reports() -> list[Report]:
    lemma = Claim("lemma", "A lemma", "σ(a)b = σ(b)a", "A6", kind="lemma")
    uses = Claim("uses", "Uses it", "breaks", "A6, A7", uses=("lemma",))
    assumed = Claim("assumed", "Assumed", "needs Cauchy", "A7", uses=("lemma",))
    steps = (
        Step("ab = ba", "commutativity", PROVED, formula=sympy.Eq(a * b, b * a, evaluate=False)),
        Step("witness", "certified", WITNESS),
    )
    return [
        Report(
            "proofs.fake",
            "Fake",
            "A6",
            (
                Result(lemma, Derivation(steps)),
                Result(uses, Derivation(steps)),
                Result(
                    assumed,
                    Derivation((Step("measurable", "assumed", Verdict.proved("assumption")),)),
                ),
            ),
        ),
        Report(
            "proofs.other",
            "Other",
            "B",
            (
                Result(
                    Claim("bad", "Bad", "1 = 2", "B"),
                    Derivation((Step("1 = 2", "arith", Verdict.refuted("exact")),)),
                ),
            ),
        ),
    ]


def test_status_classes_colour_the_legend():
    results = [r for rep in reports() for r in rep.results]
    assert [html_status.status_class(r) for r in results] == [
        "proved",
        "proved",
        "assumptions",
        "refuted",
    ]


def test_dot_source_links_nodes_and_draws_uses():
    dot = html_graphs.dot_source(reports())
    assert '"lemma" -> "uses";' in dot and '"lemma" -> "assumed";' in dot
    assert 'URL="fake.html#claim-lemma"' in dot and html_status.STATUS_COLOURS["refuted"][0] in dot


def test_node_shapes_tell_lemmas_theorems_and_admitted_facts_apart():
    dot = html_graphs.dot_source(reports(), lines={"lemma": 12})
    assert '"lemma" [shape=ellipse' in dot and '"uses" [shape=box' in dot
    assert '"assumed#assumption0" [label="assumption", shape=octagon' in dot
    assert '"assumed#assumption0" -> "assumed" [style=dashed];' in dot
    assert 'tooltip="A lemma (proofs/fake.py:12)"' in dot  # where the claim is stated


def test_proved_including_every_ancestor():
    index = html_links.claim_index(reports())
    # lemma and uses rest on nothing admitted; assumed rests on an assumption; bad is refuted
    assert html_status.complete_claims(index) == {"lemma", "uses"}
    chain = [
        Report(
            "proofs.m",
            "M",
            "A6",
            (
                Result(
                    Claim("base", "b", "b", "A6"),
                    Derivation((Step("x", "a", Verdict.proved("assumption")),)),
                ),
                Result(
                    Claim("top", "t", "t", "A6", uses=("base",)),
                    Derivation((Step("y", "r", PROVED),)),
                ),
                Result(
                    Claim("loose", "l", "l", "A6", uses=("elsewhere",)),
                    Derivation((Step("z", "r", PROVED),)),
                ),
            ),
        )
    ]
    assert (
        html_status.complete_claims(html_links.claim_index(chain)) == set()
    )  # an ancestor is admitted
    dot = html_graphs.dot_source(chain)
    assert html_status.STATUS_COLOURS["complete"][0] not in dot


def test_the_module_graph_has_a_node_per_module_and_counted_edges():
    reps = reports()
    reps.append(
        Report(
            "proofs.third",
            "Third",
            "A6",
            (
                Result(
                    Claim("t1", "t", "t", "A6", uses=("lemma", "uses")),
                    Derivation((Step("y", "r", PROVED),)),
                ),
            ),
        )
    )
    dot = html_graphs.module_dot(reps)
    assert dot.count("shape=folder") == 3
    assert '"proofs.fake" -> "proofs.third" [label="2"' in dot
    assert 'URL="third.html"' in dot


def test_claim_lines_find_plain_and_formatted_names():
    source = "\n".join(
        [
            "X = Claim(",
            '    "plain.name", "title",',
            ")",
            "for a in ACTS:",
            "    c = Claim(",
            '        f"act.{a.name}-x", "t")',
            'uses = ("act.relu-x",)',
        ]
    )
    assert html_site.claim_lines(source, ["plain.name", "act.relu-x", "missing"]) == {
        "plain.name": 2,
        "act.relu-x": 6,
    }


RAW_NAMES = (
    "piecewise(",
    "forall(",
    "risingfactorial",
    "elementwiseapplyfunction",
    "blockmatrix",
    ">True<",
    "\\operatorname",
    "\\mathit",
    "Σ_{",
    "^(",
    "R^d",
)


@pytest.mark.parametrize(
    "expr",
    [
        sympy.Piecewise((a, a > 0), (0, True)),
        sympy.RisingFactorial(a, 3),
        sympy.BlockMatrix([[sympy.MatrixSymbol("A", 2, 2), sympy.ZeroMatrix(2, 2)]]),
        sympy.Implies(sympy.true, sympy.Eq(a, b), evaluate=False),
        sympy.Function("theta_0")(a) + sympy.Symbol("aa"),
    ],
    ids=["piecewise", "rising", "block", "true", "names"],
)
def test_mathml_comes_from_the_latex_printer_without_sympy_names(expr):
    code = html_text.mathml(expr)
    assert code.startswith("<math") and not [r for r in RAW_NAMES if r.lower() in code.lower()]


def test_a_multi_letter_name_is_one_identifier():
    assert '<mi mathvariant="italic">aa</mi>' in html_text.mathml(sympy.Symbol("aa"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Q ∈ R^{d×d}", "Q ∈ ℝ<sup>d×d</sup>"),
        ("Σ_{m≠i} x", "Σ<sub>m≠i</sub> x"),
        ("E[s^(2k)]", "E[s<sup>2k</sup>]"),
        ("d_out < 3", "d<sub>out</sub> &lt; 3"),
        ("s ~ Beta", "s ∼ Beta"),
    ],
)
def test_prose_notation_becomes_html(text, expected):
    assert html_text.prose_html(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("K → α^(−p)K", "K → α⁻ᵖK"),
        ("q_js", "qⱼₛ"),
        ("R^d", "ℝᵈ"),
        ("x^{QK}", "x^(QK)"),
    ],
)
def test_tooltips_are_plain_unicode(text, expected):
    assert html_text.plain_text(text) == expected


def test_a_step_sympy_evaluated_to_true_shows_its_rule():
    step = Step("True", "σ(1) certified nonzero", PROVED, formula=sympy.true)
    code = html_pages.step_html(step)
    assert code.startswith("<li>σ(1) certified nonzero<div") and "True" not in code


def test_an_oracle_step_is_not_called_an_assumption():
    step = Step("∫ f = 1.5", "quadrature", Verdict.proved("oracle"))
    assert "oracle result (certified outside the kernel)" in html_pages.step_html(step)


def test_the_index_lists_the_modules_before_the_graph():
    page = html_pages.index_page(reports(), "<svg></svg>")
    assert page.index("<h2>Modules</h2>") < page.index("<svg") and 'href="graph.html"' in page


def test_steps_show_mathml_backend_witness_and_certificate():
    index = html_links.claim_index(reports())
    code = html_pages.claim_html(reports()[0].results[0], index, ["uses"])
    assert "<math" in code and "sympy 1.14" in code
    assert "witness a = 2, b = 1" in code and "certificate: value ∈ [-0.27, -0.26]" in code
    assert 'href="fake.html#claim-uses"' in code and 'href="theory.html#A6"' in code


def test_each_claim_and_module_says_how_it_is_backed():
    reps = reports()
    index = html_links.claim_index(reps)
    lemma, _, assumed = reps[0].results
    assert 'backed by <span class="backing">sympy, interval</span>' in html_pages.claim_html(
        lemma, index, []
    )
    assert 'backed by <span class="backing">assumption</span>' in html_pages.module_page(
        reps[0], index, {}
    )
    assert "backed by sympy, interval, assumption</td>" in html_pages.index_page(
        reps, "<svg></svg>"
    )


def test_missing_dot_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(html_graphs.shutil, "which", lambda name: None)
    with pytest.raises(html_graphs.GraphvizMissing, match="apt-get install graphviz"):
        html_site.write_site(reports(), tmp_path / "site")
    assert not (tmp_path / "site").exists()


@needs_dot
def test_site_is_written_offline(tmp_path):
    index = html_site.write_site(reports(), tmp_path)
    text = index.read_text(encoding="utf-8")
    assert "<svg" in text and 'href="fake.html"' in text
    for page in tmp_path.glob("*.html"):
        body = page.read_text(encoding="utf-8")
        assert (
            "<script" not in body
            and "http://" not in body.replace("http://www.w3.org", "")
            and "https://" not in body
        )


CHROMIUM = (
    "chromium",
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _chromium(*args: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp()
    return subprocess.run(
        [*CHROMIUM, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


@needs_dot
@needs_chromium
@pytest.mark.slow
def test_a_real_browser_renders_the_graph_and_the_math(tmp_path):
    index = html_site.write_site(reports(), tmp_path / "site")
    page = tmp_path / "site" / "fake.html"
    shot = tmp_path / "index.png"
    _chromium(f"--screenshot={shot}", "--window-size=1000,800", index.as_uri())
    assert shot.exists()
    data = shot.read_bytes()
    assert len(set(data[200:])) > 50  # not a blank image (a blank PNG compresses to few bytes)
    dom = _chromium("--dump-dom", page.as_uri()).stdout
    assert "<math" in dom and 'href="index.html"' in dom and 'href="theory.html#A6"' in dom
    assert "<svg" in dom and "fake.html#claim-lemma" in dom  # the module's own graph
    index_dom = _chromium("--dump-dom", index.as_uri()).stdout
    assert "<svg" in index_dom and 'href="fake.html"' in index_dom
    graph_dom = _chromium("--dump-dom", (tmp_path / "site" / "graph.html").as_uri()).stdout
    assert "fake.html#claim-lemma" in graph_dom


SCREEN = (1400, 2000)  # the index must fit in this window (issue 28)


@needs_dot
@needs_chromium
@pytest.mark.slow
@pytest.mark.xdist_group("shared-reports")  # reads tests/shared_reports.py
def test_the_real_blueprint_fits_a_screen_and_shows_no_raw_names(tmp_path):
    """The blueprint of the real theorem modules in a real browser: the index (modules, then
    their graph) fits in a 1400×2000 window, and neither its DOM nor any page (no JavaScript:
    a page's DOM is its text) has a SymPy function name or plain-text notation."""
    pil = pytest.importorskip("PIL.Image")
    import shared_reports

    index = html_site.write_site(
        [r.report for r in shared_reports.runs() if r.report], tmp_path / "site"
    )
    shot = tmp_path / "index.png"
    _chromium(
        f"--screenshot={shot}",
        f"--window-size={SCREEN[0]},{SCREEN[1]}",
        "--hide-scrollbars",
        index.as_uri(),
    )
    image = pil.open(shot).convert("L")
    assert image.size == SCREEN
    bottom = image.crop((0, SCREEN[1] - 300, SCREEN[0], SCREEN[1]))
    assert bottom.getextrema() == (255, 255)  # blank: the page ended above it
    assert len(image.getcolors(256)) > 20  # and it is not blank itself
    dom = _chromium("--dump-dom", index.as_uri()).stdout
    assert "</html>" in dom and "<svg" in dom
    assert [raw for raw in RAW_NAMES if raw.lower() in dom.lower()] == []
    for page in sorted((tmp_path / "site").glob("*.html")):
        text = html.unescape(page.read_text(encoding="utf-8")).lower()
        assert [raw for raw in RAW_NAMES if raw.lower() in text] == [], page.name
