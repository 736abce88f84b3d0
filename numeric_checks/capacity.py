"""Monte Carlo of associative-memory capacity with real random unit vectors (docs/theory.md B).

Store ``M`` pairs of random unit keys and values, query with stored keys, measure interference
and signal, estimate ``ISR(M)`` with a 95 % confidence interval and the capacity where
``ISR = 1``. Keys are real vectors drawn with numpy (not samples of the similarity law); the
memory is streamed in chunks, so RAM does not grow with ``M``, and the queries are batched as
one matrix product per chunk.

Two estimators (every result names the one it used):

* ``rao-blackwell`` (default) — the values are integrated out analytically: for independent
  unit values ``E_v‖Σ_m w_m v_m‖² = Σ_m w_m²``, so each query contributes the exact conditional
  interference ``Σ_{m≠i} (w_m/w_i)²`` of its real keys. Distinct pairs of keys have independent
  similarities, so the queries of one memory are uncorrelated but for the one pair they share
  (a factor ``1 + (Q−1)/(M−1)`` on the variance, applied). One memory draw suffices.
* ``direct`` — real values too: the recall ``Σ_m w_m v_m`` is computed and
  ``‖recall − w_i v_i‖²`` measured. With positive weights every query of one memory shares the
  component ``w̄·Σ_m v_m`` (docs/theory.md's pitfall), so the confidence interval comes from
  independent memory draws (batch means), never from the queries of one memory.

Softmax uses unnormalized weights ``exp(β s)``: the normalizer ``Z`` scales a query's signal
and interference alike. Least squares computes the leverages ``P_ii`` of the projection
``P = Kᵀ(KKᵀ)⁻¹K`` (QR of the key matrix): signal ``P_ii²``, interference ``P_ii − P_ii²``.

    python -m numeric_checks.capacity --store softmax --d 64 --beta 8 --memories 2000000 --json
    python -m numeric_checks.capacity --store all --d 64 --plot capacity.png
    python -m numeric_checks.capacity --store relu2 --d 16 --plot relu2.png   # one store
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from symbolic.errors import InvalidArgument, OneLineErrorParser, check_writable
from symbolic.memory.capacity import rational, store_capacity
from symbolic.memory.stores import PART_B, STORES

ESTIMATORS = ("rao-blackwell", "direct")
DEFAULT_SEED = 20240531
Z95 = 1.959963984540054  # two-sided 95 % normal quantile
# Elements of one chunk's similarity block (queries × keys, float64): 4M = 32 MB.
CHUNK_ELEMENTS = 1 << 22
# Relative standard error aimed at by the default sample size (95 % CI ≈ ±0.2 %): the
# (query, key) pairs needed are CV²/TARGET_REL_SE², CV² being the squared coefficient of
# variation of one term (f(s)/f(1))² under the exact law (2 for the outer product, ~30 for
# softmax at d = 64, β = 8, ~70 for ReLU³) — the theory only sizes the sample.
TARGET_REL_SE = 1e-3
PAIRS_RANGE = (100_000, 200_000_000)
MAX_QUERIES = 64  # queries per memory draw when M > ALL_QUERIES_UP_TO
ALL_QUERIES_UP_TO = 1024  # small memories are queried with every stored key
LS_DRAWS = 1000  # least-squares memory draws per M (its capacity CI is ~±0.01 at d = 64)
DIRECT_DRAWS = 200  # memory draws of the direct estimator
MAX_D = 4096  # as proofs.capacity
# Work bound of one estimate, in estimated seconds on one core: each key costs d Gaussian draws
# (~20 ns each, NORMAL_S) and Q·d multiply-adds (~0.05 ns, MULADD_S). Beyond MAX_SECONDS the run
# is refused up front with the figure and what to do, instead of running for many minutes
# (d = 100000 ran 5 minutes); the default table at d = 64 is estimated at a few seconds.
NORMAL_S, MULADD_S = 2e-8, 5e-11
MAX_SECONDS = 120.0


@dataclass(frozen=True)
class Estimate:
    """ISR(M) measured by Monte Carlo, and the capacity it implies."""

    store: str
    d: int
    beta: float | None
    memories: int
    isr: float
    isr_ci95: tuple[float, float]
    capacity: float
    ci95: tuple[float, float]
    estimator: str
    draws: int
    queries: int
    seed: int
    seconds: float
    theory: dict[str, float]  # capacity under each law (symbolic.memory.capacity)
    capped: bool = False  # the sample size for TARGET_REL_SE was cut to PAIRS_RANGE[1]

    def to_json(self) -> dict:
        out = asdict(self)
        out["isr_ci95"], out["ci95"] = list(self.isr_ci95), list(self.ci95)
        return out


def unit_rows(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Rows uniform on the unit sphere (normalized Gaussian vectors), float64."""
    x = rng.standard_normal(shape)
    x /= np.sqrt(np.einsum("...i,...i->...", x, x))[..., None]
    return x


def _chunks(M: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, M, size):
        yield start, min(M, start + size)


def weight_draw(
    store: str,
    d: int,
    M: int,
    Q: int,
    beta: float,
    rng: np.random.Generator,
    values_rng: np.random.Generator | None = None,
    chunk: int | None = None,
) -> np.ndarray:
    """One memory of ``M`` pairs, queried with its first ``Q`` keys.

    Returns, per query, the interference in units of the signal: ``Σ_{m≠i} (w_m/w_i)²``
    (Rao–Blackwell, ``values_rng`` None) or ``‖Σ_{m≠i} (w_m/w_i) v_m‖²`` with real values.
    Keys (and values) are drawn chunk by chunk from their own generators, so the result does
    not depend on the chunk size.
    """
    ratio = STORES[store].normalized_weight
    chunk = max(Q, chunk or CHUNK_ELEMENTS // max(Q, d))  # the first chunk holds the queries
    acc = np.zeros(Q) if values_rng is None else np.zeros((Q, d))
    queries = own = None
    for start, stop in _chunks(M, chunk):
        keys = unit_rows(rng, (stop - start, d))
        if queries is None:
            queries = keys[:Q].copy()
            own = np.arange(Q)
        w = ratio(queries @ keys.T, beta)  # (Q, chunk): w_m / w_i, w_i = f(1)
        if start == 0:
            w[own, own] = 0.0  # the signal term is not interference
        if values_rng is None:
            np.square(w, out=w)
            acc += w.sum(axis=1)
        else:
            acc += w @ unit_rows(values_rng, (stop - start, d))
    if values_rng is None:
        return acc
    return np.einsum("qd,qd->q", acc, acc)


def _ls_draw(
    d: int, M: int, draws: int, rng: np.random.Generator, values_rng: np.random.Generator | None
) -> tuple[np.ndarray, np.ndarray]:
    """Least squares: per draw, summed signal and interference over all M queries."""
    keys = unit_rows(rng, (draws, M, d))
    q, _ = np.linalg.qr(keys)  # columns of q span the row space of K (Kᵀ = q r)
    if values_rng is None:
        lev = np.einsum("rmd,rmd->rm", q, q)  # P_ii
        return (lev**2).sum(1), (lev - lev**2).sum(1)
    P = q @ q.transpose(0, 2, 1)  # (draws, M, M) projection
    values = unit_rows(values_rng, (draws, M, d))
    recall = P @ values  # row i: Σ_m P_im v_m
    diag = np.einsum("rii->ri", P)
    interference = recall - diag[..., None] * values
    signal = np.einsum("rm,rmd->rm", diag, values)
    return (
        np.einsum("rmd,rmd->r", signal, signal),
        np.einsum("rmd,rmd->r", interference, interference),
    )


def estimate_isr(
    store: str,
    d: int,
    M: int,
    beta: float = 8.0,
    *,
    queries: int | None = None,
    draws: int | None = None,
    seed: int = DEFAULT_SEED,
    estimator: str = "rao-blackwell",
    chunk: int | None = None,
    rel_se: float = TARGET_REL_SE,
) -> tuple[float, float, int, int]:
    """``(ISR, standard error, draws, queries)`` at ``M`` memories.

    Without ``draws``, enough memory draws are made for a relative standard error ``rel_se``.
    """
    _validate(store, d, M, beta, estimator)
    seeds = np.random.SeedSequence([seed, d, M, ESTIMATORS.index(estimator)])
    direct = estimator == "direct"
    if STORES[store].estimator == "leverage":
        draws = draws or (DIRECT_DRAWS if direct else LS_DRAWS)
        key_seed, value_seed = seeds.spawn(2)
        key_rng = np.random.default_rng(key_seed)
        value_rng = np.random.default_rng(value_seed) if direct else None
        batch = max(1, CHUNK_ELEMENTS // (M * max(M, d)))  # bounded memory, any d and M
        parts = [
            _ls_draw(d, M, stop - start, key_rng, value_rng)
            for start, stop in _chunks(draws, batch)
        ]
        signal = np.concatenate([p[0] for p in parts])
        interference = np.concatenate([p[1] for p in parts])
        ratio = interference.sum() / signal.sum()
        resid = interference - ratio * signal  # delta method for a ratio of means
        se = resid.std(ddof=1) / math.sqrt(draws) / signal.mean()
        return float(ratio), float(se), draws, M
    Q = min(M, queries or (M if M <= ALL_QUERIES_UP_TO else MAX_QUERIES))
    if draws is None:
        draws = (
            DIRECT_DRAWS
            if direct
            else max(1, math.ceil(pairs_needed(store, d, beta, rel_se) / (Q * (M - 1))))
        )
    seconds = draws * M * d * ((2 if direct else 1) * NORMAL_S + Q * MULADD_S)
    if seconds > MAX_SECONDS:
        raise InvalidArgument(
            f"--store {store} --d {d} --memories {M}: {draws} draw(s) of {M:,} keys are "
            f"estimated at ~{seconds:.2g} s (bound {MAX_SECONDS:g} s); give fewer "
            "--memories/--draws, or run it on a cluster: python -m numeric_checks.sweep"
        )
    per_draw = []
    for child in seeds.spawn(draws):
        key_seed, value_seed = child.spawn(2)
        per_draw.append(
            weight_draw(
                store,
                d,
                M,
                Q,
                beta,
                np.random.default_rng(key_seed),
                np.random.default_rng(value_seed) if direct else None,
                chunk,
            )
        )
    x = np.asarray(per_draw)  # (draws, Q)
    isr = float(x.mean())
    if direct:
        if draws < 2:
            raise InvalidArgument(
                "--draws 1: the direct estimator needs independent memory "
                "draws for its confidence interval; use --draws 2 or more"
            )
        se = x.mean(axis=1).std(ddof=1) / math.sqrt(draws)
    else:  # uncorrelated queries up to the one pair two queries share
        se = x.std(ddof=1) * math.sqrt((1 + (Q - 1) / (M - 1)) / x.size) if x.size > 1 else 0.0
    return isr, float(se), draws, Q


def pairs_needed(
    store: str, d: int, beta: float, rel_se: float = TARGET_REL_SE, cap: bool = True
) -> int:
    """Pairs for a relative standard error ``rel_se``: CV² of (f(s)/f(1))², exact law.

    With ``cap`` the count is clipped to ``PAIRS_RANGE``; callers report when that happened
    (``Estimate.capped``)."""
    want = max(int(term_cv2(store, d, beta) / rel_se**2), PAIRS_RANGE[0])
    return min(want, PAIRS_RANGE[1]) if cap else want


def term_cv2(store: str, d: int, beta: float) -> float:
    """Squared coefficient of variation of one term ``(f(s)/f(1))²`` under the exact law."""
    import mpmath
    import sympy

    from symbolic.memory.similarity_law import beta_, quad_expectation, s

    f = STORES[store].weight.subs(beta_, rational(beta)) / STORES[store].weight.subs(
        {s: 1, beta_: rational(beta)}
    )
    f2 = sympy.lambdify(s, f**2, "mpmath")
    with mpmath.workdps(15):
        m2 = quad_expectation("exact", d, f2)
        m4 = quad_expectation("exact", d, lambda x: f2(x) ** 2)
    return float(m4 / m2**2 - 1)


def estimate(store: str, d: int, M: int | None = None, beta: float = 8.0, **kw) -> Estimate:
    """ISR at ``M`` (default: near the exact-law capacity) and the capacity it implies.

    Weight stores: ``ISR(M) = (M − 1)·E[f²]/f(1)²`` exactly (memories are exchangeable), so
    ``M̂* = 1 + (M − 1)/ISR̂`` with the CI mapped through. Least squares: ISR is measured at the
    two integers ``M, M + 1`` (default: around the crossing) and interpolated linearly.
    """
    start = time.perf_counter()
    _validate(store, d, 2 if M is None else M, beta, kw.get("estimator", "rao-blackwell"))
    for name in ("draws", "queries"):
        if kw.get(name) is not None and kw[name] < 1:
            raise InvalidArgument(f"--{name} {kw[name]}: give at least 1")
    theory = {
        law: store_capacity(store, d, rational(beta)).law(law).capacity.mid
        for law in ("gaussian", "exact")
    }
    est = kw.pop("estimator", "rao-blackwell")
    seed = kw.pop("seed", DEFAULT_SEED)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgument(f"--seed {seed}: give a non-negative integer")
    if STORES[store].estimator == "leverage":
        lo = max(d + 1, math.floor(theory["exact"]) if M is None else M)
        if kw.get("draws") is None and 2 * lo * d * d * LS_DRAWS * MULADD_S > MAX_SECONDS:
            raise InvalidArgument(
                f"--store {store} --d {d}: {LS_DRAWS} QR factorisations "
                f"of {lo} × {d} key matrices exceed the work bound; give "
                "--draws, or use python -m numeric_checks.sweep"
            )
        a = estimate_isr(store, d, lo, beta, seed=seed, estimator=est, **kw)
        b = estimate_isr(store, d, lo + 1, beta, seed=seed, estimator=est, **kw)
        slope = b[0] - a[0]
        cap = lo + (1 - a[0]) / slope
        # independent draws at the two points: delta method for (1 − a)/(b − a)
        da, db = -(b[0] - 1) / slope**2, -(1 - a[0]) / slope**2
        se_cap = math.hypot(da * a[1], db * b[1])
        isr, se, draws, Q, M = a[0], a[1], a[2] + b[2], a[3], lo
        ci = (cap - Z95 * se_cap, cap + Z95 * se_cap)
    else:
        M = M if M is not None else max(2, round(theory["exact"]))
        isr, se, draws, Q = estimate_isr(store, d, M, beta, seed=seed, estimator=est, **kw)
        cap = 1 + (M - 1) / isr
        hi_isr, lo_isr = isr + Z95 * se, max(isr - Z95 * se, 1e-300)
        ci = (1 + (M - 1) / hi_isr, 1 + (M - 1) / lo_isr)
    capped = (
        STORES[store].estimator != "leverage"
        and est != "direct"
        and kw.get("draws") is None
        and pairs_needed(store, d, beta, kw.get("rel_se", TARGET_REL_SE), cap=False)
        > PAIRS_RANGE[1]
    )
    return Estimate(
        store,
        d,
        beta if STORES[store].uses_beta else None,
        M,
        isr,
        (isr - Z95 * se, isr + Z95 * se),
        cap,
        ci,
        est,
        draws,
        Q,
        seed,
        time.perf_counter() - start,
        theory,
        capped,
    )


def _validate(store: str, d: int, M: int, beta: float, estimator: str) -> None:
    if store not in STORES:
        raise InvalidArgument(
            f"--store {store}: unknown store; valid stores: all, " + ", ".join(STORES)
        )
    if not 3 <= d <= MAX_D:
        raise InvalidArgument(f"--d {d}: the dimension must be an integer in [3, {MAX_D}]")
    if M < 2:
        raise InvalidArgument(f"--memories {M}: store at least 2 memories")
    if not 0 < beta < math.inf:
        raise InvalidArgument(f"--beta {beta}: β must be positive and finite")
    if estimator not in ESTIMATORS:
        raise InvalidArgument(
            f"--estimator {estimator}: valid estimators: " + ", ".join(ESTIMATORS)
        )


# --- command line ----------------------------------------------------------------------------


def _text(estimates: Sequence[Estimate], beta: float) -> str:
    e = estimates[0]
    at_source = e.d == 64 and beta == 8  # the seed's figures belong to d = 64, β = 8 only
    head = (
        f"{'store':<14} {'M':>8}  {'ISR(M) [95% CI]':<28} {'MC capacity [95% CI]':<38} "
        f"{'Gaussian':>10} {'exact':>10} "
        + (f"{'source':>8} " if at_source else "")
        + f"{'MC/exact':>9}"
    )
    lines = [head, "-" * len(head)]
    for e in estimates:
        isr = f"{e.isr:.5f} [{e.isr_ci95[0]:.5f}, {e.isr_ci95[1]:.5f}]"
        cap = f"{e.capacity:,.6g} [{e.ci95[0]:,.6g}, {e.ci95[1]:,.6g}]"
        lines.append(
            f"{e.store:<14} {e.memories:>8}  {isr:<28} {cap:<38} {e.theory['gaussian']:>10,.6g} "
            f"{e.theory['exact']:>10,.6g} "
            + (f"{STORES[e.store].source:>8,.6g} " if at_source else "")
            + f"{e.capacity / e.theory['exact'] - 1:>+9.2%}"
            + ("  capped" if e.capped else "")
        )
    lines.append(
        f"d = {e.d}, β = {beta:g}, estimator {e.estimator}, seed {e.seed}"
        + ("; source: the seed's figures at d = 64, β = 8" if at_source else "")
        + "; least squares 'exact' is the unit-key leading order 2d + 1"
    )
    if any(x.capped for x in estimates):
        lines.append(
            f"capped: the sample for a {TARGET_REL_SE:g} relative standard error "
            f"would exceed {PAIRS_RANGE[1]:.0e} pairs; the interval is the achieved one"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m numeric_checks.capacity"
    parser = OneLineErrorParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default="all", help="a store name or 'all' (default)")
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--beta", type=float, default=8.0)
    parser.add_argument("--memories", type=int, help="M (default: near the exact capacity)")
    parser.add_argument("--queries", type=int, help=f"queries per draw (default {MAX_QUERIES})")
    parser.add_argument("--draws", type=int, help="independent memory draws")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--estimator", default="rao-blackwell", choices=ESTIMATORS)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="ISR against M for the --store stores; with softmax, also "
        "FILE_schedules.png (the logit-scaling schedules)",
    )
    args = parser.parse_args(argv)
    names = list(PART_B) if args.store == "all" else [args.store]
    try:
        if args.plot:  # before any work: a file that cannot be written is a one-line error
            check_writable(args.plot, "--plot")
    except InvalidArgument as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.plot:  # before any work: a missing extra is a one-line error, not a traceback
        from importlib.util import find_spec

        if find_spec("matplotlib") is None:
            print(
                f"{prog}: error: --plot needs matplotlib: pip install 'transformer-proofs[plot]'",
                file=sys.stderr,
            )
            return 2
    try:
        estimates = [
            estimate(
                n,
                args.d,
                args.memories,
                args.beta,
                queries=args.queries,
                draws=args.draws,
                seed=args.seed,
                estimator=args.estimator,
            )
            for n in names
        ]
        if args.plot:
            from numeric_checks.capacity_plot import plot

            written = plot(args.plot, args.d, args.beta, args.seed, stores=names)
            print(f"{prog}: wrote {', '.join(written)}", file=sys.stderr)
    except InvalidArgument as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        docs = [e.to_json() for e in estimates]
        print(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2))
    else:
        print(_text(estimates, args.beta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
