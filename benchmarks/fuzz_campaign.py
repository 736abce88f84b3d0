"""Fuzz campaign of the user path: ``--activation`` text through the parser and the analysis.

Runs N inputs in this process through
``symbolic.languages.activation_language.parse_activation`` and
``symbolic.gated.analysis.analyze`` — the path ``python -m proofs.exchange --activation TEXT``
takes —
each under a wall-clock limit, and reports what the rules of issue 7 forbid:

* a **crash**: any exception other than ``InvalidExpression`` (a user error with a one-line
  message) — on the command line it would be a Python traceback;
* a **hang**: an input that runs past the per-input limit;
* a **bad message**: a rejection whose message is not one line quoting the input;
* a **code execution**: a marker file created by a payload (``open('MARKER', 'w')``,
  ``__import__('os').system('touch MARKER')``) — checked after every input;
* with ``--audit``, a **suspect verdict**: a property the analysis says is *proved* that fails
  numerically (mpmath, 60 digits, relative tolerance 1e-40), or a homogeneity / linearity
  *refutation* of a σ that is numerically homogeneous / linear at every sampled point. The
  audit is a numeric oracle, not a proof: every suspect is for a human to read.

Inputs come from three generators, mixed: random printable text, hostile templates (attribute
access, dunder names, imports, lambdas, huge literals and exponents, deep nesting, very long
input) with random parameters, and random expression trees over every name the parser accepts.

    python benchmarks/fuzz_campaign.py [--inputs 2000] [--seed 7] [--limit 60] [--audit]

Prints inputs tried, outcomes, every failure, the slowest inputs with their times and the peak
memory; exit code 0 when nothing broke the rules, 1 otherwise. Not a test: the suite runs a
smaller campaign (``tests/soundness/test_hostile_cli.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import string
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # runnable as a script from a checkout
    sys.path.insert(0, str(ROOT))

import mpmath  # noqa: E402
import sympy  # noqa: E402

from symbolic.activations import ACTIVATIONS, z  # noqa: E402
from symbolic.errors import InvalidExpression  # noqa: E402
from symbolic.gated.analysis import analyze  # noqa: E402
from symbolic.languages.activation_language import FUNCTIONS, parse_activation  # noqa: E402
from symbolic.limits import BudgetExceeded, deadline  # noqa: E402

DEFAULT_INPUTS = 2000
DEFAULT_SEED = 7
DEFAULT_LIMIT_S = 60.0  # per input; the analysis bounds itself at 20 s per decision (two)
HANG_GRACE_S = 30.0  # an input counts as a hang when it runs this much past the limit
SLOWEST_SHOWN = 5
AUDIT_DIGITS = 60
AUDIT_TOLERANCE = mpmath.mpf("1e-40")  # relative: far below any difference a verdict decides
REPLAY_DIGITS = 400  # a witness is replayed far beyond the 10⁻¹⁰⁰ constants the parser allows
REPLAY_TOLERANCE = mpmath.mpf("1e-350")
AUDIT_POINTS = ("0.37", "1.9", "-0.61", "-2.3", "5.5", "0.013", "-0.0071", "13.1", "-40", "250")
AUDIT_ALPHAS = ("0.3", "2.7", "11")

CONSTANTS = (
    "0",
    "1",
    "2",
    "3",
    "0.5",
    "1e-9",
    "1e-30",
    "0.05",
    "pi",
    "e",
    "10",
    "100",
    "1e6",
    "0.3",
    "7",
    "1e-100",
    "1e12",
    "0.0500001",
)
UNARY = tuple(sorted(n for n, f in FUNCTIONS.items() if f.max_args == 1))
POWERS = ("2", "3", "0.5", "1/3", "-1", "x", "2.5", "pi", "100", "0")


def random_tree(rng: random.Random, depth: int) -> str:
    """A random expression over every function, constant and operator the parser knows."""
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(("x", "x", "z", *CONSTANTS))
    k = rng.random()
    if k < 0.35:
        op = rng.choice(("+", "-", "*", "/", "**"))
        left, right = random_tree(rng, depth - 1), random_tree(rng, depth - 1)
        if op == "**" and rng.random() < 0.8:
            right = rng.choice(POWERS)
        return f"({left}){op}({right})"
    if k < 0.75:
        return f"{rng.choice(UNARY)}({random_tree(rng, depth - 1)})"
    if k < 0.85:
        args = ", ".join(random_tree(rng, depth - 1) for _ in range(rng.randint(2, 3)))
        return f"{rng.choice(('max', 'min'))}({args})"
    return f"-({random_tree(rng, depth - 1)})"


def hostile(rng: random.Random, marker: str) -> str:
    """An input built to break the parser: code, dunders, huge numbers, nesting, length."""
    n = rng.randint(1, 60)
    big = rng.choice(
        (
            "9**9**9",
            "10**10**10",
            "2**100000",
            "1e308*1e308",
            "x**10**6",
            "(2**100)**100",
            "1" + "0" * rng.randint(20, 400),
            "1e-400",
            "1e400",
            "exp(exp(exp(10)))",
            "x**1e12",
            "9" * rng.randint(30, 3000),
        )
    )
    templates = (
        f"__import__('os').system('touch {marker}')",
        f"open('{marker}', 'w')",
        f"exec(\"open('{marker}','w')\")",
        f'eval(\'open("{marker}", "w")\')',
        f"(lambda: open('{marker}', 'w'))()",
        "().__class__.__bases__[0].__subclasses__()",
        f"x.__class__.__init__.__globals__['os'].system('touch {marker}')",
        "__builtins__",
        "__import__",
        "globals()",
        "locals()",
        "vars()",
        "breakpoint()",
        f"[open('{marker}','w') for _ in range(1)]",
        "import os",
        "from os import system",
        f"x; open('{marker}', 'w')",
        "lambda x: x",
        "x if x else x",
        "x.real",
        "sympy.exp(x)",
        "relu.__call__(x)",
        big,
        f"{big}*x",
        f"x**{big}",
        f"relu(x)**{big}",
        "(" * n + "x" + ")" * n,
        "exp(" * n + "x" + ")" * n,
        "-" * (n * 20) + "x",
        "+".join(["x"] * (n * 20)),
        "x*" * (n * 40) + "x",
        "relu(" * n + "x" + ")" * n,
        "gelu(" * (n % 14) + "x" + ")" * (n % 14),
        "elu(" * (n % 6) + "x" + ")" * (n % 6),
        "max(" + ", ".join(f"relu(x+{k})" for k in range(n % 15 + 1)) + ")",
        "x" * (n * 50),
        "\x00x",
        "x\u202e",
        "ｘ",
        "x\n+1",
        "x\r",
        "\\x41",
        f"{rng.choice(UNARY)}({rng.choice(CONSTANTS)})**{rng.choice(POWERS)}",
        f"{rng.choice(UNARY)}({rng.choice(('1e6', '1e12', '-1e6', '700', '-700'))})",
        f"x**({rng.choice(('tanh(1500)', 'sigmoid(700)', '1+1e-100', 'erf(30)'))})",
    )
    return rng.choice(templates)


def random_text(rng: random.Random) -> str:
    alphabet = string.printable + "×·−∞αβσ"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))


def draw(rng: random.Random, marker: str) -> tuple[str, str]:
    """(generator, input text)."""
    k = rng.random()
    if k < 0.15:
        return "text", random_text(rng)
    if k < 0.35:
        return "hostile", hostile(rng, marker)
    return "tree", random_tree(rng, rng.randint(1, 4))


# --- the numeric audit of verdicts ------------------------------------------------------------


def _close(a, b, tolerance=AUDIT_TOLERANCE) -> bool:
    scale = max(abs(a), abs(b))
    return scale == 0 or abs(a - b) <= tolerance * scale


def _values(f, points) -> list:
    out = []
    for p in points:
        try:
            v = f(p)
        except (ArithmeticError, ValueError, TypeError):
            out.append(None)
            continue
        if isinstance(v, mpmath.mpc):
            v = v.real if abs(v.imag) <= AUDIT_TOLERANCE * max(abs(v), 1) else None
        out.append(v)
    return out


def audit(expr: sympy.Expr, an) -> list[str]:
    """Verdicts of the analysis that the numbers contradict (see the module docstring)."""
    problems: list[str] = []
    with mpmath.workdps(AUDIT_DIGITS):
        f = sympy.lambdify(z, expr, "mpmath")
        pts = [mpmath.mpf(p) for p in AUDIT_POINTS]
        alphas = [mpmath.mpf(a) for a in AUDIT_ALPHAS]
        s1 = _values(f, [mpmath.mpf(1)])[0]
        vals = _values(f, pts)
        if an.is_linear and s1 is not None:
            if not all(v is not None and _close(v, s1 * p) for p, v in zip(pts, vals, strict=True)):
                problems.append("linear proved, but σ(z) ≠ σ(1)·z numerically")
        if an.is_linear is False and s1 is not None and an.linear.witness is not None:
            z0 = an.linear.witness  # replay the certified witness at high precision
            with mpmath.workdps(REPLAY_DIGITS):
                at = _values(f, [mpmath.mpf(sympy.Rational(z0).p) / sympy.Rational(z0).q])[0]
                one = _values(f, [mpmath.mpf(1)])[0]
                if at is not None and one is not None and _close(at, one * z0, REPLAY_TOLERANCE):
                    problems.append(
                        f"linearity refuted at z0 = {z0}, but σ(z0) = σ(1)·z0 "
                        f"to {REPLAY_DIGITS} digits"
                    )

        def homogeneous(p) -> bool:
            for a in alphas:
                scaled = _values(f, [a * x for x in pts])
                for u, v in zip(scaled, vals, strict=True):
                    if u is None or v is None or not _close(u, a**p * v):
                        return False
            return True

        hom = an.homogeneity.holds.status
        if hom == "proved":
            p = mpmath.mpf(str(sympy.N(an.homogeneity.value, AUDIT_DIGITS)))
            if not homogeneous(p):
                problems.append(
                    f"degree {sympy.sstr(an.homogeneity.value)} proved, but "
                    "σ(αz) ≠ α^p σ(z) numerically"
                )
        s2 = _values(f, [mpmath.mpf(2)])[0]
        if hom == "refuted" and s1 and s2 and s2 / s1 > 0:
            p_hat = mpmath.log(s2 / s1, 2)
            if homogeneous(p_hat):
                problems.append(
                    f"homogeneity refuted, but σ is numerically homogeneous of "
                    f"degree {mpmath.nstr(p_hat, 8)}"
                )
        if an.inverse_scaling_symmetric and not homogeneous(1):
            problems.append("inverse scaling proved, but σ(αz) ≠ α σ(z) numerically")
    return problems


# --- the campaign -------------------------------------------------------------------------------


@dataclass
class Tally:
    tried: int = 0
    outcomes: Counter = field(default_factory=Counter)
    generators: Counter = field(default_factory=Counter)
    failures: list[dict] = field(default_factory=list)
    suspects: list[dict] = field(default_factory=list)
    times: list[tuple[float, str, str]] = field(default_factory=list)


def run_one(text: str, limit_s: float, do_audit: bool) -> tuple[str, str, list[str], float]:
    """(outcome, detail, audit problems, seconds of parse + analysis) of one input."""
    start = time.perf_counter()
    stage = "parse"
    try:
        with deadline(limit_s):
            parsed = parse_activation(text)
            stage = "analysis"  # its errors are quoted with the input by the command line
            an = analyze(parsed.expr, text)
            status = an.status
    except InvalidExpression as exc:
        message = str(exc)
        seconds = time.perf_counter() - start
        if "\n" in message or (stage == "parse" and not message.startswith("--activation ")):
            return "bad message", message, [], seconds
        return "rejected", message, [], seconds
    except BudgetExceeded as exc:
        return "hang", f"stopped at the limit: {exc}", [], time.perf_counter() - start
    except BaseException as exc:  # noqa: BLE001 — every other exception is a crash to report
        if isinstance(exc, KeyboardInterrupt):
            raise
        tb = traceback.format_exc(limit=-4)
        return (
            "crash",
            f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}\n{tb}",
            [],
            time.perf_counter() - start,
        )
    seconds = time.perf_counter() - start
    problems = []
    if do_audit:
        try:
            with deadline(limit_s):
                problems = audit(parsed.expr, an)
        except BaseException as exc:  # noqa: BLE001 — the oracle failing is not the toolkit's
            if isinstance(exc, KeyboardInterrupt):
                raise
            problems = []
    return status, "", problems, seconds


def campaign(n: int, seed: int, limit_s: float, do_audit: bool, quiet: bool = False) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        marker = str(Path(tmp) / "MARKER")
        for i in range(n):
            generator, text = draw(rng, marker)
            outcome, detail, problems, seconds = run_one(text, limit_s, do_audit)
            if seconds > limit_s + HANG_GRACE_S and outcome != "hang":
                outcome, detail = "hang", f"ran {seconds:.1f} s: past the {limit_s:g} s limit"
            if Path(marker).exists():
                outcome, detail = "code execution", "the marker file was created"
                Path(marker).unlink()
            tally.tried += 1
            tally.generators[generator] += 1
            tally.outcomes[outcome] += 1
            tally.times.append((seconds, text, outcome))
            row = {
                "i": i,
                "generator": generator,
                "input": text,
                "outcome": outcome,
                "seconds": round(seconds, 3),
                "detail": detail,
            }
            if outcome in ("crash", "hang", "bad message", "code execution"):
                tally.failures.append(row)
            if problems:
                tally.suspects.append({**row, "problems": problems})
            if not quiet and (i + 1) % 100 == 0:
                print(f"  {i + 1}/{n} inputs, {len(tally.failures)} failures", file=sys.stderr)
    return tally


def _short(text: str, width: int = 90) -> str:
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def summary(tally: Tally, limit_s: float) -> str:
    slowest = sorted(tally.times, reverse=True)[:SLOWEST_SHOWN]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = [
        f"fuzz campaign: {tally.tried} inputs tried ({', '.join(f'{k} {v}' for k, v in sorted(tally.generators.items()))}), "  # noqa: E501
        f"limit {limit_s:g} s per input",
        "outcomes: " + ", ".join(f"{k} {v}" for k, v in tally.outcomes.most_common()),
        f"failures (crash, hang, bad message, code execution): {len(tally.failures)}",
    ]
    for row in tally.failures:
        first = row["detail"].splitlines()[0] if row["detail"] else ""
        lines.append(f"  [{row['outcome']}] {_short(row['input'])} — {first[:160]}")
    if slowest:
        s, text, outcome = slowest[0]
        lines.append(f"slowest input: {_short(text)} in {s:.2f} s ({outcome})")
        lines += [f"  {t:7.2f} s  {_short(x)} ({o})" for t, x, o in slowest[1:]]
    lines.append(f"peak memory of the process: {peak_mb:.0f} MB")
    if tally.suspects:
        lines.append(f"suspect verdicts (numeric audit): {len(tally.suspects)}")
        lines += [f"  {_short(r['input'])}: {r['problems'][0]}" for r in tally.suspects]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=DEFAULT_INPUTS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT_S, help="seconds per input")
    parser.add_argument(
        "--audit", action="store_true", help="also check every decided verdict numerically (slower)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write every failure and suspect")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    print(f"table: {len(ACTIVATIONS)} activations; {len(FUNCTIONS)} functions in the parser")
    tally = campaign(args.inputs, args.seed, args.limit, args.audit, args.quiet)
    print(summary(tally, args.limit))
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "tried": tally.tried,
                    "outcomes": dict(tally.outcomes),
                    "failures": tally.failures,
                    "suspects": tally.suspects,
                    "slowest": [
                        {"seconds": s, "input": t, "outcome": o}
                        for s, t, o in sorted(tally.times, reverse=True)[:SLOWEST_SHOWN]
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    return 1 if tally.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
