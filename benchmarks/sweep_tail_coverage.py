"""Benchmark: coverage of the 95 % intervals for softmax in the heavy tail (d = 64, β = 22.8).

β = 22.8 is YaRN's β at 2·10⁶ memories (β0 = 8, L = 2048). For each of ``--seeds`` seeds one
estimate of ``E[y]``, ``y = exp(2β(s − 1))²/…`` (the term whose mean gives ISR), is made with
each estimator and its 95 % interval ``mean ± 1.96·sd/√n`` is checked against the exact law's
value ``e^{−2β}·₀F₁(; d/2; β²)`` (50-digit mpmath):

* ``rao-blackwell`` — plain sampling, fresh unit queries × unit keys (the sweep's chunks);
* ``importance`` — keys shifted towards their query with likelihood-ratio weights.

Prints the coverage of each with its binomial standard error and the ratio of the mean
reported standard error to the spread of the estimates across seeds (1 when honest).

    python benchmarks/sweep_tail_coverage.py [--seeds 200] [--pairs 262144]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

for _k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_k, "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from numeric_checks.importance import importance_pairs, tilt  # noqa: E402
from numeric_checks.sweep_chunks import QUERIES, weight_chunk  # noqa: E402

D, BETA, Z95 = 64, 22.8, 1.959963984540054


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=1 << 18, help="pairs per estimate")
    args = ap.parse_args()
    with mpmath.workdps(50):
        b = mpmath.mpf(BETA)
        exact = float(mpmath.exp(-2 * b) * mpmath.hyp0f1(D / 2, b**2))
    keys = args.pairs // QUERIES
    out = {}
    for name in ("rao-blackwell", "importance"):
        means, ses, covered = [], [], 0
        for seed in range(args.seeds):
            if name == "importance":
                y = importance_pairs(
                    "softmax", D, BETA, tilt(D, BETA), args.pairs, np.random.default_rng([seed, 1])
                )
                n, mean, sd = y.size, float(y.mean()), float(y.std(ddof=1))
            else:
                m = weight_chunk("softmax", D, BETA, keys, [seed, 2], 0)
                n, mean, sd = m["n"], m["mean"], math.sqrt(m["m2"] / (m["n"] - 1))
            se = sd / math.sqrt(n)
            means.append(mean)
            ses.append(se)
            covered += abs(mean - exact) <= Z95 * se
        cov = covered / args.seeds
        out[name] = {
            "coverage": cov,
            "coverage_se": math.sqrt(cov * (1 - cov) / args.seeds),
            "reported_se_over_true_spread": float(np.mean(ses) / np.std(means, ddof=1)),
            "mean_relative_error": float(np.mean(means) / exact - 1),
        }
    doc = {"d": D, "beta": BETA, "seeds": args.seeds, "pairs": args.pairs, "exact": exact, **out}
    print(json.dumps(doc, indent=2))
    for name, v in out.items():
        print(
            f"{name:<14} 95% CI coverage {v['coverage']:.1%} ± {v['coverage_se']:.1%} over "
            f"{args.seeds} seeds; reported se / true spread "
            f"{v['reported_se_over_true_spread']:.2f}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
