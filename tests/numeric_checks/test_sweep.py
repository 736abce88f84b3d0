"""numeric_checks.sweep: the grid, chunk determinism, merging, resuming, Dask, bad input."""

from __future__ import annotations

import builtins
import json
import math
import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric_checks import sweep, sweep_chunks, sweep_grid
from numeric_checks.importance import importance_pairs, tilt
from numeric_checks.sweep import grid, main, plan, run_sweep
from numeric_checks.sweep_chunks import merge_moments

for _k, _v in sweep.BLAS_ENV.items():  # one BLAS thread here too, as in the workers
    os.environ.setdefault(_k, _v)

SMALL = dict(stores=["relu2", "softmax"], ds=[8], betas=[2.0], rel_se=3e-2)


def _rows(**kw):
    return run_sweep(grid(**SMALL), progress=False, **kw)


def test_grid_dedupes_stores_that_ignore_beta():
    pts = grid(["relu", "softmax"], [8, 16], [2.0, "sqrt"])
    assert sum(p.store == "relu" for p in pts) == 2  # β and schedules do not apply
    assert {p.beta for p in pts if p.store == "softmax"} == {2.0, math.sqrt(8), 4.0}


def test_auto_estimator_takes_importance_sampling_in_the_heavy_tail():
    (p,) = grid(["softmax"], [64], [22.8])
    assert p.estimator == "importance"
    (q,) = grid(["softmax"], [64], [8.0])
    assert q.estimator == "rao-blackwell"


@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=60), st.integers(1, 59))
def test_merged_moments_equal_the_whole_sample(xs, cut):
    y = np.array(xs)
    cut = min(cut, len(xs) - 1)
    parts = [sweep_chunks._moments(y[:cut]), sweep_chunks._moments(y[cut:])]
    m = merge_moments(parts)
    assert m["n"] == y.size
    assert m["mean"] == pytest.approx(y.mean(), abs=1e-9 * (1 + abs(y).max()))
    assert m["m2"] == pytest.approx(np.square(y - y.mean()).sum(), rel=1e-9, abs=1e-6)


def test_chunks_are_deterministic_and_distinct():
    (p,) = grid(["relu2"], [8], rel_se=3e-2)
    (pl,) = plan(p)
    a, b = (pl.function(*pl.args, 0) for _ in range(2))
    assert a == b  # the same chunk from its own SeedSequence child
    assert pl.function(*pl.args, 1) != a


def test_serial_sweep_matches_the_exact_law():
    rows = _rows(workers=0)
    for r in rows:
        se = r["rel_se"] * r["estimate"]
        assert abs(r["estimate"] - r["exact"]) < 4 * se * (1 + 1e-9), r
        assert r["ci95_lo"] < r["estimate"] < r["ci95_hi"]


@given(st.integers(0, 2**31))
def test_importance_sampling_is_unbiased_for_softmax(seed):
    # E[exp(2β(s − 1))] = e^(−2β) ₀F₁(; d/2; β²) under the exact law; the shifted keys and the
    # likelihood ratio never use that law. (400 seeds: max |z| = 3.85, 95.75 % within 1.96.)
    import mpmath

    d, beta = 16, 4.0
    exact = float(mpmath.exp(-2 * beta) * mpmath.hyp0f1(d / 2, beta**2))
    y = importance_pairs("softmax", d, beta, tilt(d, beta), 20_000, np.random.default_rng(seed))
    se = y.std(ddof=1) / math.sqrt(y.size)
    assert abs(y.mean() - exact) < 5 * se


def test_resume_skips_finished_points(tmp_path, monkeypatch):
    out = str(tmp_path / "t.csv")
    first = _rows(workers=0, out=out)
    assert len(sweep.read_table(out)) == len(first)
    monkeypatch.setattr(sweep, "plan", lambda *a, **k: pytest.fail("recomputed a point"))
    again = run_sweep(grid(**SMALL), workers=0, progress=False, out=out, done=sweep.read_table(out))
    assert [r["store"] for r in again] == [r["store"] for r in first]
    assert open(out).read().count("\n") == len(first) + 1


@pytest.mark.parametrize(
    "argv, text",
    [
        (["--store", "nope"], "unknown store"),
        (["--d", "2"], "--d 2"),
        (["--d", "8,x"], "comma-separated"),
        (["--beta", "-1", "--store", "softmax"], "--beta -1"),
        (["--schedule", "yarn", "--store", "softmax"], "--memories"),
        (["--workers", "-1"], "--workers -1"),
        (["--out", "/no/such/dir/t.csv"], "folder"),
        (["--out", "t.txt"], ".csv or .json"),
        (["--d", "1e400"], "'1e400'"),  # was an OverflowError traceback
        (["--memories", "inf"], "'inf'"),
        (["--seed", "-1"], "--seed -1"),  # was numpy's ValueError traceback, after Dask started
        (["--workers", "100000"], "--workers 100000"),  # would start 100,000 processes
        (["--out", "/proc/no-such.csv"], "cannot write there"),  # was a traceback after the run
        (["--plot", "/proc/no-such.png"], "cannot write there"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, text, capsys):
    try:
        code = main(argv + ["--no-progress"])
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert text in err and "\n" not in err and "Traceback" not in err


def test_without_dask_one_line_naming_the_extra(monkeypatch, capsys):
    real = builtins.__import__

    def no_dask(name, *a, **k):
        if name.startswith("dask") or name.startswith("distributed"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    assert main(["--store", "relu", "--d", "8", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "transformer-proofs[sweep]" in err and "--workers 0" in err and "\n" not in err
    # the single-process path needs no Dask
    assert (
        main(
            [
                "--store",
                "relu",
                "--d",
                "8",
                "--workers",
                "0",
                "--no-progress",
                "--json",
                "--rel-se",
                "0.03",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)[0]["store"] == "relu"


@pytest.mark.slow
def test_auto_estimator_decides_on_the_scheduled_beta():
    # YaRN raises β = 8 to β(10⁶) ≈ 21 at d = 64: 4β²/d ≈ 27 > 8, the heavy tail.
    (p,) = grid(["softmax"], [64], [8.0], ["yarn"], [10**6])
    assert p.effective_beta > 20
    assert p.estimator == "importance"
    (q,) = grid(["softmax"], [64], [8.0], ["yarn"], [10**3])
    assert 4 * q.effective_beta**2 / 64 < sweep_grid.IMPORTANCE_ABOVE
    assert q.estimator == "rao-blackwell"


def test_every_store_weight_survives_pickling_after_use():
    # A Dask task pickled by value carries the weight functions it reaches. np.vectorize(erf)
    # holds an unpicklable ufunc once called: the gelu stores then could not be sent.
    cloudpickle = pytest.importorskip("cloudpickle", reason="the sweep extra (dask)")
    from symbolic.memory.stores import STORES

    s = np.linspace(-1, 1, 9)
    for name, store in STORES.items():
        if store.normalized_weight is None:
            continue
        before = store.normalized_weight(s.copy(), 2.0)
        again = cloudpickle.loads(cloudpickle.dumps(store.normalized_weight))
        assert np.array_equal(again(s.copy(), 2.0), before), name
