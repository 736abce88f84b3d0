"""Monte Carlo with real vectors against the theory: small d (fast) and d = 64 (slow)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numeric_checks.capacity import estimate, estimate_isr, main, weight_draw
from symbolic.errors import InvalidArgument

SMALL_D = 8
# At d = 8 the two laws are far apart (relu2: 32.3 vs 43.7; softmax at β = 2: 8.4 vs 11.8),
# so the Monte Carlo must side with the exact law and exclude the Gaussian one.
WEIGHT_STORES = ["outer_product", "relu", "relu2", "relu3", "glu_relu", "swiglu", "softmax"]


SIGMAS = 4  # a test band of 4 standard errors: a correct estimator fails it once in 16,000


def _within(e, value: float) -> bool:
    """Is ``value`` within SIGMAS standard errors of the Monte Carlo capacity?"""
    se = (e.ci95[1] - e.ci95[0]) / (2 * 1.959963984540054)
    return abs(e.capacity - value) <= SIGMAS * se


@pytest.mark.parametrize("store", WEIGHT_STORES)
def test_small_d_capacity_matches_the_exact_law(store):
    e = estimate(store, SMALL_D, beta=2.0, rel_se=3e-3)
    exact, gauss = e.theory["exact"], e.theory["gaussian"]
    assert _within(e, exact), (e.capacity, e.ci95, exact)
    assert abs(e.capacity / exact - 1) < 0.02
    if abs(gauss / exact - 1) >= 0.03:
        assert not _within(e, gauss)


def test_small_d_least_squares_lies_below_the_leading_order():
    # unit keys: the leading order is 2d + 1 = 17; the 1/d term is not derived (Monte Carlo:
    # ≈ −1.5/d = −0.19 at d = 8). The band says what is known: within 2.5/d of 2d + 1, and
    # below it by more than 4 standard errors (the earlier "+1/(2d)" correction had the sign
    # wrong and a ±2 % band hid it).
    e = estimate("least_squares", SMALL_D)
    se = (e.ci95[1] - e.ci95[0]) / (2 * 1.96)
    lead = 2 * SMALL_D + 1
    assert abs(e.capacity - lead) < 2.5 / SMALL_D
    assert e.capacity < lead - SIGMAS * se, (e.capacity, se)


def test_least_squares_recalls_exactly_up_to_d():
    isr, se, _, _ = estimate_isr("least_squares", SMALL_D, SMALL_D, draws=50)
    assert isr == pytest.approx(0, abs=1e-12)  # float64 round-off of P_ii = 1


@pytest.mark.parametrize("store", ["relu2", "softmax"])
def test_direct_estimator_with_real_values_agrees(store):
    rb = estimate_isr(store, SMALL_D, 40, 2.0)
    direct = estimate_isr(store, SMALL_D, 40, 2.0, estimator="direct", draws=400)
    assert abs(rb[0] - direct[0]) < 3 * np.hypot(rb[1], direct[1])


def test_result_does_not_depend_on_the_chunk_size():
    a = estimate_isr("softmax", SMALL_D, 1000, 2.0, queries=16, draws=3)
    b = estimate_isr("softmax", SMALL_D, 1000, 2.0, queries=16, draws=3, chunk=97)
    assert a[0] == pytest.approx(b[0], rel=1e-12)


def test_seeded_and_reproducible():
    assert estimate_isr("relu", SMALL_D, 30, draws=5, seed=1) == estimate_isr(
        "relu", SMALL_D, 30, draws=5, seed=1
    )
    assert estimate_isr("relu", SMALL_D, 30, draws=5, seed=1) != estimate_isr(
        "relu", SMALL_D, 30, draws=5, seed=2
    )


def test_shared_component_of_one_memory():
    """docs/theory.md's pitfall: with positive weights the queries of one memory share w̄·Σ v_m,
    so their direct interference estimates are positively correlated."""
    rng = np.random.default_rng(0)
    draws = [
        weight_draw(
            "softmax",
            SMALL_D,
            200,
            50,
            2.0,
            np.random.default_rng(i),
            np.random.default_rng(rng.integers(1 << 30)),
        )
        for i in range(200)
    ]
    x = np.asarray(draws)
    within = np.corrcoef(x[:, 0], x[:, 1])[0, 1]
    assert within > 0.1


def test_cli_json(capsys):
    # 2000 draws (of the default ~22,000): the interval is wider and still must hold 2d + 1
    assert main(["--store", "relu", "--d", str(SMALL_D), "--json", "--draws", "2000"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["store"] == "relu" and doc["estimator"] == "rao-blackwell"
    lo, hi = doc["ci95"]
    assert lo <= doc["capacity"] <= hi and lo <= 2 * SMALL_D + 1 <= hi


@pytest.mark.parametrize(
    "argv",
    [
        ["--store", "hopfield"],
        ["--store", "relu", "--d", "2"],
        ["--store", "relu", "--memories", "1"],
    ],
)
def test_cli_bad_input(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


def test_direct_estimator_needs_several_draws():
    with pytest.raises(InvalidArgument, match="draws"):
        estimate_isr("relu", SMALL_D, 20, estimator="direct", draws=1)


@pytest.mark.slow
def test_d64_tells_the_exact_law_from_the_gaussian():
    """d = 64, β = 8: within 2 % of the exact law, and the Gaussian value (3-6 % off) more than
    4 standard errors away, for ReLU², SwiGLU and softmax."""
    for store in ("relu2", "swiglu", "softmax"):
        # rel_se 3.5e-3: 4 standard errors (1.4 %) each side of the exact law stay clear of
        # the Gaussian value, 3.1-5.8 % away (the estimate lies within 4 of the exact)
        e = estimate(store, 64, beta=8.0, rel_se=3.5e-3)
        exact, gauss = e.theory["exact"], e.theory["gaussian"]
        assert abs(e.capacity / exact - 1) < 0.02, (store, e.capacity, exact)
        assert _within(e, exact), (store, e.ci95, exact)
        assert not _within(e, gauss), (store, e.ci95, gauss)


# --- bad input and bounded work (issue 11) -------------------------------------------------


@pytest.mark.parametrize(
    "argv, text",
    [
        (["--draws", "0"], "--draws 0"),
        (["--memories", "0"], "--memories 0"),
        (["--queries", "0", "--store", "relu"], "--queries 0"),
        (["--d", "100000"], "--d 100000"),
        (["--d", "4096", "--store", "relu2"], "estimated at"),
        (["--d", "4096", "--store", "least_squares"], "QR factorisations"),
        (["--beta", "inf"], "--beta inf"),  # was a TypeError traceback from SymPy
        (["--seed", "-1"], "--seed -1"),  # was numpy's ValueError traceback
        (["--plot", "/proc/no-such.png"], "cannot write there"),  # was a traceback after the run
        (["--bogus"], "unrecognized arguments"),  # was argparse's usage dump (several lines)
    ],
)
def test_bad_or_unbounded_input_is_one_line_exit_2(argv, text, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert text in err and "\n" not in err and "Traceback" not in err


def test_plot_without_matplotlib_fails_before_any_work(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    called = []
    monkeypatch.setattr("numeric_checks.capacity.estimate", lambda *a, **k: called.append(a))
    assert main(["--plot", "x.png"]) == 2
    assert "matplotlib" in capsys.readouterr().err and not called


def test_source_column_only_at_the_source_setting(capsys):
    from dataclasses import replace

    from numeric_checks.capacity import _text

    assert main(["--store", "relu", "--d", "8", "--draws", "2"]) == 0  # the header only
    assert "source" not in capsys.readouterr().out.splitlines()[0]
    e = estimate("relu", SMALL_D, draws=1)
    assert "source" in _text([replace(e, d=64)], 8.0).splitlines()[0]
    assert "source" not in _text([replace(e, d=64)], 4.0).splitlines()[0]


def test_plot_draws_the_asked_stores_only_with_a_progress_count(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="the plot extra")
    from numeric_checks import capacity_plot as capacity

    seen, counted = [], []

    def fake_isr(store, d, m, beta, **kw):  # the Monte Carlo itself is tested above
        seen.append(store)
        return (m / 200.0, 0.001, 1, 64)

    class Bar:
        def update(self, n=1):
            counted.append(n)

        def close(self):
            pass

    monkeypatch.setattr(capacity, "estimate_isr", fake_isr)
    monkeypatch.setattr(
        capacity, "_progress", lambda total, wanted: (counted.append(-total), Bar())[1]
    )
    out = str(tmp_path / "one.png")
    written = capacity.plot(out, d=8, stores=["relu2"])
    assert written == [out] and sorted(p.name for p in tmp_path.iterdir()) == ["one.png"]
    assert set(seen) == {"relu2"}  # the other stores are neither estimated nor drawn
    assert -counted[0] == sum(counted[1:]) == len(capacity.PLOT_FRACTIONS)
