"""Adversarial campaign of issue 11: every entry of ``tests/soundness/adversarial_corpus.py``
through the real command line, compared with its independently established truth.

For each entry it runs, in a fresh interpreter (2 at a time, BLAS on one thread)::

    python -m proofs.exchange --activation=TEXT --json --no-torch

parses the JSON (``linear``, ``homogeneity_degree``, ``evidence.homogeneity.degree_exact`` and
its verdict, ``inverse_scaling_symmetric``, ``status``) and classifies the entry:

* ``right``: every verdict definite and matching, the expected exit code (0; 2 for invalid);
* ``unknown``: no definite verdict mismatches, at least one is null (acceptable);
* ``WRONG``: a definite verdict that contradicts the truth — the worst outcome;
* ``traceback``: stderr holds a Python traceback;
* ``rejected-valid``: exit 2 for a valid activation;
* ``accepted-invalid``: a verdict for an input that must be rejected;
* ``right-but-exit-1``: no verdict mismatches, but exit code 1 (e.g. a numeric cross-check
  misfired);
* ``incomplete-degree``: σ ≡ 0 reported with a single degree instead of "every degree" (true,
  but incomplete; not a failure);
* ``timeout`` / ``error``: the hang limit was reached / no JSON and no traceback.

Degrees are compared exactly: rationals as rationals, other constants by SymPy simplification
and then at 1000 digits; a float ``homogeneity_degree`` without an exact form is a format defect
(reported per entry, not a failure). σ ≡ 0 may be reported as "every degree" (a string such as
"any"/"every" in ``homogeneity_degree`` or ``degree_exact``, or a marker key set to true such as
``homogeneous_of_every_degree``) or as null with such a marker.

    python benchmarks/adversarial_campaign.py [--only FAMILY] [--limit N] [--json]
        [--repo PATH] [--jobs 2] [--timeout 300] [--save FILE] [--verify-truth]

``--repo PATH`` runs the toolkit of another checkout (cwd and PYTHONPATH of the subprocesses;
its ``.venv/bin/python`` when it exists). ``--verify-truth`` runs no toolkit: it re-establishes
every entry's truth with an mpmath evaluator of its own (700 digits; the toolkit's parser and
analysis are not used) at a grid of points of both signs plus the entry's own points, and
reports every entry whose recorded truth the numbers contradict.

Exit code: 0 iff zero WRONG, zero traceback and zero accepted-invalid (with ``--verify-truth``:
0 iff no entry is contradicted).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "soundness"))
from adversarial_corpus import CORPUS, Entry  # noqa: E402

FAILING = ("WRONG", "traceback", "accepted-invalid")
CLASSES = (
    "right",
    "unknown",
    "WRONG",
    "traceback",
    "rejected-valid",
    "accepted-invalid",
    "right-but-exit-1",
    "incomplete-degree",
    "timeout",
    "error",
)
EVERY_DEGREE_WORDS = ("any", "every", "all")


# -- classification of one toolkit answer -----------------------------------------------------
@dataclass
class Outcome:
    text: str
    family: str
    klass: str
    cause: str
    exit_code: int | None
    seconds: float
    expected: dict[str, Any] = field(default_factory=dict)
    got: dict[str, Any] = field(default_factory=dict)
    format_defects: list[str] = field(default_factory=list)


def expected_of(entry: Entry) -> dict[str, Any]:
    return {
        "linear": entry.linear,
        "degree": entry.degree,
        "inverse_scaling": entry.inverse_scaling,
    }


def _every_degree_marker(doc: dict[str, Any]) -> bool:
    """Does the answer say σ is homogeneous of every degree (σ ≡ 0)?"""
    hom = (doc.get("evidence") or {}).get("homogeneity") or {}
    for value in (doc.get("homogeneity_degree"), hom.get("degree_exact")):
        if isinstance(value, str) and value.strip().lower().split(" ")[0] in EVERY_DEGREE_WORDS:
            return True
    for key, value in (*doc.items(), *hom.items()):  # e.g. homogeneous_of_every_degree: true
        if any(w in key.lower() for w in ("every", "any_degree", "all_degrees")) and value is True:
            return True
    return False


def reported_degree(doc: dict[str, Any]) -> tuple[str, str | None, list[str]]:
    """(kind, degree, format defects): kind is 'degree' (degree = exact text), 'any', 'none'
    (homogeneous of no degree, refuted) or 'unknown'."""
    defects: list[str] = []
    hom = (doc.get("evidence") or {}).get("homogeneity") or {}
    status = (hom.get("verdict") or {}).get("status")
    number = doc.get("homogeneity_degree")
    exact = hom.get("degree_exact")
    if _every_degree_marker(doc):
        return "any", None, defects
    if isinstance(number, float):
        defects.append(
            f"homogeneity_degree is the float {number!r}"
            + ("" if exact is not None else " and there is no degree_exact")
        )
    if status == "refuted":
        return "none", None, defects
    if status != "proved":
        return "unknown", None, defects
    if exact is not None:
        return "degree", str(exact), defects
    if number is None:
        defects.append("homogeneity proved but no degree given")
        return "unknown", None, defects
    return "degree", number if isinstance(number, str) else repr(number), defects


def same_degree(expected: str, got: str) -> bool | None:
    """Exact comparison of two degree texts (SymPy syntax); None if it cannot be decided."""
    import sympy

    if expected.strip() == got.strip():
        return True
    try:
        a, b = sympy.sympify(expected), sympy.sympify(got)
    except (sympy.SympifyError, SyntaxError, TypeError, ValueError):
        return None
    if isinstance(b, sympy.Float):
        # a float degree can only be compared approximately: a format defect, judged at face value
        b = sympy.Rational(str(b))
    if a.is_Rational and b.is_Rational:
        return a == b
    try:
        if sympy.simplify(a - b) == 0:
            return True
        diff = sympy.N(a - b, 1000)
        if diff.is_Number:
            return bool(abs(diff) < sympy.Float("1e-950", 1000))  # not SymPy's BooleanFalse
    except Exception:  # noqa: BLE001 - undecidable comparison
        return None
    return None


def classify(
    entry: Entry,
    exit_code: int | None,
    stdout: str,
    stderr: str,
    seconds: float = 0.0,
    timed_out: bool = False,
) -> Outcome:
    out = Outcome(entry.text, entry.family, "error", "", exit_code, seconds, expected_of(entry))
    if timed_out:
        out.klass, out.cause = "timeout", f"no answer within {seconds:.0f} s"
        return out
    if "Traceback" in stderr:
        last = [ln for ln in stderr.strip().splitlines() if ln.strip()][-1:] or [""]
        out.klass, out.cause = "traceback", last[0][:200]
        return out
    if not entry.valid:
        if exit_code == 2:
            out.klass, out.cause = "right", "rejected"
        else:
            out.klass = "accepted-invalid"
            out.cause = f"exit {exit_code}; must be rejected ({entry.why})"
        return out
    if exit_code == 2:
        out.klass = "rejected-valid"
        out.cause = " ".join(stderr.strip().split())[:240] or "exit 2"
        return out
    try:
        doc = json.loads(stdout)
    except json.JSONDecodeError:
        out.klass, out.cause = "error", f"exit {exit_code}, no JSON on stdout: {stderr[-200:]!r}"
        return out
    if isinstance(doc, list):
        doc = doc[0]
    kind, degree, defects = reported_degree(doc)
    out.format_defects = defects
    got = {
        "linear": doc.get("linear"),
        "degree": degree
        if kind == "degree"
        else {"any": "any", "none": None, "unknown": "unknown"}[kind],
        "inverse_scaling": doc.get("inverse_scaling_symmetric"),
        "status": doc.get("status"),
        "numeric_agrees": doc.get("numeric_agrees"),
    }
    out.got = got
    wrong, unknown, notes = [], [], []
    for key in ("linear", "inverse_scaling"):
        if got[key] is None:
            unknown.append(key)
        elif got[key] != getattr(entry, key):
            wrong.append(f"{key}: expected {getattr(entry, key)}, got {got[key]}")
    incomplete = False
    if kind == "unknown":
        unknown.append("degree")
    elif entry.degree is None:
        if kind != "none":
            wrong.append(f"degree: expected none, got {degree if kind == 'degree' else kind}")
    elif entry.degree == "any":
        if kind == "none":
            wrong.append("degree: expected every degree (σ ≡ 0), got none")
        elif kind == "degree":
            incomplete = True
            notes.append(f"σ ≡ 0 reported as degree {degree} only")
    elif kind == "any":
        wrong.append(f"degree: expected {entry.degree}, got every degree")
    elif kind == "none":
        wrong.append(f"degree: expected {entry.degree}, got none")
    else:
        same = same_degree(entry.degree, degree)
        if same is False:
            wrong.append(f"degree: expected {entry.degree}, got {degree}")
        elif same is None:
            unknown.append("degree")
            notes.append(f"degree {degree!r} not comparable with {entry.degree!r}")
    if wrong:
        out.klass, out.cause = "WRONG", "; ".join(wrong)
    elif exit_code == 1:
        out.klass = "right-but-exit-1"
        out.cause = (
            "numeric cross-check disagrees"
            if got["numeric_agrees"] is False
            else f"status {got['status']}"
        ) + (f"; undecided: {', '.join(unknown)}" if unknown else "")
    elif unknown:
        out.klass, out.cause = "unknown", "undecided: " + ", ".join(unknown)
        if exit_code not in (3,):
            out.cause += f" (exit {exit_code}, expected 3)"
    elif incomplete:
        out.klass, out.cause = "incomplete-degree", "; ".join(notes)
    else:
        out.klass = "right"
        out.cause = "" if exit_code == 0 else f"exit {exit_code}, expected 0"
    if notes and out.klass not in ("incomplete-degree",):
        out.cause = "; ".join([out.cause, *notes]).strip("; ")
    return out


# -- running the toolkit -----------------------------------------------------------------------
def _python_of(repo: Path) -> str:
    venv = repo / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def run_entry(entry: Entry, repo: Path, timeout: float) -> Outcome:
    env = {
        **os.environ,
        "PYTHONPATH": str(repo),
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMEXPR_NUM_THREADS": "1",
        "VECLIB_MAXIMUM_THREADS": "1",
        "PYTHONHASHSEED": "0",
    }
    cmd = [
        _python_of(repo),
        "-m",
        "proofs.exchange",
        f"--activation={entry.text}",
        "--json",
        "--no-torch",
    ]
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # only the process group this call started
        proc.communicate()
        return classify(entry, None, "", "", time.perf_counter() - start, timed_out=True)
    return classify(entry, proc.returncode, stdout, stderr, time.perf_counter() - start)


# -- independent truth: an mpmath evaluator of the grammar -------------------------------------
class Undefined(Exception):
    """σ is undefined or not real at the point (or the text is not in the grammar)."""


class OutOfRange(Exception):
    """The value is beyond what the evaluator computes (e.g. exp(exp(2e12)))."""


def _mp():
    import mpmath

    return mpmath


def _functions(mp) -> dict[str, Any]:
    def real(v):
        if isinstance(v, mp.mpc):
            if v.imag != 0:
                raise Undefined("not real")
            v = v.real
        if not mp.isfinite(v):
            raise Undefined("not finite")
        return v

    def exp(u):
        if u > 10**15:
            raise OutOfRange("exp of a number above 1e15")
        return mp.exp(u)

    def log(u):
        if u <= mp.mpf(10) ** (-(mp.mp.dps - 50)):
            raise Undefined("log of a value ≤ 0")
        return mp.log(u)

    def sqrt(u):
        if u < 0:
            raise Undefined("sqrt of a negative value")
        return mp.sqrt(u)

    def sigmoid(u):
        return 1 / (1 + exp(-u)) if u > -(10**15) else mp.mpf(0)

    def softplus(u):
        return log(1 + exp(u)) if u < 10**6 else u + mp.log1p(mp.exp(-u))

    def relu(u):
        return max(u, mp.mpf(0))

    def elu(u, a=1):
        return u if u > 0 else a * mp.expm1(u)

    selu_a = mp.mpf("1.6732632423543772848170429916717")
    selu_s = mp.mpf("1.0507009873554804934193349852946")

    def erf(u):
        return mp.erf(u)

    table = {
        "identity": lambda u: u,
        "relu": relu,
        "leaky_relu": lambda u: max(u, u / 100),
        "abs": abs,
        "relu2": lambda u: relu(u) ** 2,
        "relu3": lambda u: relu(u) ** 3,
        "gelu": lambda u: u / 2 * (1 + erf(u / mp.sqrt(2))),
        "gelu_tanh": lambda u: (
            u / 2 * (1 + mp.tanh(mp.sqrt(2 / mp.pi) * (u + mp.mpf("0.044715") * u**3)))
        ),
        "quick_gelu": lambda u: u * sigmoid(mp.mpf("1.702") * u),
        "silu": lambda u: u * sigmoid(u),
        "mish": lambda u: u * mp.tanh(softplus(u)),
        "sigmoid": sigmoid,
        "tanh": mp.tanh,
        "softplus": softplus,
        "elu": elu,
        "selu": lambda u: selu_s * elu(u, selu_a),
        "hardtanh": lambda u: max(mp.mpf(-1), min(mp.mpf(1), u)),
        "relu6": lambda u: min(relu(u), mp.mpf(6)),
        "hardswish": lambda u: u * min(max(u + 3, mp.mpf(0)), mp.mpf(6)) / 6,
    }
    fns = {
        "exp": exp,
        "log": log,
        "sqrt": sqrt,
        "tanh": mp.tanh,
        "sinh": mp.sinh,
        "cosh": mp.cosh,
        "erf": erf,
        "erfc": mp.erfc,
        "sin": mp.sin,
        "cos": mp.cos,
        "sigmoid": sigmoid,
        "softplus": softplus,
        "abs": abs,
        "max": max,
        "min": min,
    }
    return {"real": real, "table": table, "fns": {**table, **fns}}


def _power(mp, a, b):
    if a == 0:
        if b <= 0:
            raise Undefined("0 to a power ≤ 0")
        return mp.mpf(0)
    if a < 0 and b != mp.floor(b):
        raise Undefined("a negative number to a fractional power")
    if abs(b * mp.log(abs(a))) > 10**15:
        raise OutOfRange("power beyond exp(1e15)")
    return a**b


class Evaluator:
    """σ(x) for user text, by the grammar of README.md, in mpmath at the current precision."""

    def __init__(self, text: str, extra: dict[str, Any] | None = None) -> None:
        self.mp = _mp()
        parts = _functions(self.mp)
        self.real, self.fns = parts["real"], {**parts["fns"], **(extra or {})}
        self.text = text
        source = text.strip()
        if not source or "#" in source or any(not " " <= c <= "~" for c in source):
            raise Undefined("not in the grammar (empty, comment or control character)")
        self.source = source
        if source in parts["table"]:
            self.tree = ast.Call(ast.Name(source), [ast.Name("x")], [])
            return
        try:
            self.tree = ast.parse(source, mode="eval").body
        except SyntaxError as exc:
            raise Undefined(f"syntax: {exc.msg}") from None
        self._vet(self.tree)

    def _vet(self, node: ast.AST) -> None:
        ok = (
            ast.BinOp,
            ast.UnaryOp,
            ast.Call,
            ast.Name,
            ast.Constant,
            ast.Add,
            ast.Sub,
            ast.Mult,
            ast.Div,
            ast.Pow,
            ast.UAdd,
            ast.USub,
            ast.Load,
        )
        for n in ast.walk(node):
            if not isinstance(n, ok):
                raise Undefined(f"{type(n).__name__} is not in the grammar")
            if isinstance(n, ast.Constant) and (
                isinstance(n.value, bool) or not isinstance(n.value, (int, float))
            ):
                raise Undefined(f"the constant {n.value!r} is not in the grammar")
            if isinstance(n, ast.Call):
                if not isinstance(n.func, ast.Name) or n.func.id not in self.fns or n.keywords:
                    raise Undefined("unknown function or keyword argument")
                want = (2, 12) if n.func.id in ("max", "min") else (1, 1)
                if not want[0] <= len(n.args) <= want[1]:
                    raise Undefined(f"{n.func.id} takes {want} arguments")
            if (
                isinstance(n, ast.Name)
                and n.id not in ("x", "z", "pi", "e")
                and not self._called(node, n)
            ):
                raise Undefined(f"unknown name {n.id!r}")

    @staticmethod
    def _called(root: ast.AST, name: ast.Name) -> bool:
        return any(isinstance(c, ast.Call) and c.func is name for c in ast.walk(root))

    def __call__(self, x):
        """σ(x), re-evaluated with as many extra digits as its largest intermediate has (so
        that cancellation such as cosh(370)² − sinh(370)² loses nothing)."""
        mp = self.mp
        self.peak = 0
        value = self.real(self._eval(self.tree, mp.mpf(x)))
        if self.peak > 20:
            with mp.workdps(mp.mp.dps + min(2 * self.peak, 20000) + 60):
                value = self.real(self._eval(self.tree, mp.mpf(x)))
        return +value

    def _track(self, v):
        if isinstance(v, self.mp.mpf) and v != 0 and self.mp.isfinite(v):
            self.peak = max(self.peak, int(self.mp.mag(v) * 0.30103) + 1)
        return v

    def _eval(self, node: ast.AST, x):
        return self._track(self._eval_node(node, x))

    def _eval_node(self, node: ast.AST, x):
        mp = self.mp
        if isinstance(node, ast.Constant):
            if isinstance(node.value, int):  # 0x10 and 0o17 as Python reads them
                return mp.mpf(node.value)
            segment = ast.get_source_segment(self.source, node)
            return mp.mpf(segment.replace("_", "")) if segment else mp.mpf(node.value)
        if isinstance(node, ast.Name):
            return {"x": x, "z": x, "pi": +mp.pi, "e": +mp.e, "E": +mp.e}[node.id]
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand, x)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = self._eval(node.left, x), self._eval(node.right, x)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                if abs(b) <= mp.mpf(10) ** (-(mp.mp.dps - 50)):
                    raise Undefined("division by zero")
                return a / b
            return _power(mp, a, b)
        if isinstance(node, ast.Call):
            args = [self.real(self._eval(a, x)) for a in node.args]
            return self.real(self.fns[node.func.id](*args))
        raise Undefined(type(node).__name__)


def point_value(text: str):
    """A point or degree written in an entry (mpmath syntax plus atanh, erfinv, polyroot)."""
    mp = _mp()

    def polyroot(*args):
        *coeffs, guess = args
        return mp.findroot(lambda t: mp.polyval(list(coeffs), t), guess)

    extra = {
        "atanh": mp.atanh,
        "asinh": mp.asinh,
        "acosh": mp.acosh,
        "erfinv": mp.erfinv,
        "polyroot": polyroot,
    }
    source = text.strip()
    tree = ast.parse(source, mode="eval").body
    ev = Evaluator.__new__(Evaluator)
    ev.mp, ev.real, ev.source, ev.peak = mp, (lambda v: v), source, 0
    ev.fns = {**_functions(mp)["fns"], **extra}
    return ev._eval(tree, mp.mpf(0))


GRID = (
    "0",
    "1/3",
    "1/2",
    "1",
    "3/2",
    "2",
    "3",
    "5",
    "7.25",
    "10",
    "0.001",
    "1e-7",
    "37",
    "1/7",
    "0.9",
)
ALPHAS = ("2", "1/2", "3", "10", "1/7")


def verify_truth(entry: Entry, dps: int = 700) -> list[str]:
    """Problems with the recorded truth of ``entry`` found numerically (empty: consistent)."""
    mp = _mp()
    mp.mp.dps = dps
    problems: list[str] = []
    tol = mp.mpf(10) ** (-(dps - 100))
    if entry.inverse_scaling is not None and entry.inverse_scaling != (
        entry.degree in ("1", "any")
    ):
        problems.append("inverse_scaling must be True iff degree is 1 or any")
    if entry.linear and entry.degree not in ("1", "any"):
        problems.append("a linear σ has degree 1 (or every degree when σ ≡ 0)")
    try:
        sigma = Evaluator(entry.text)
    except Undefined as exc:
        if entry.valid:
            problems.append(f"valid entry not in the grammar: {exc}")
        return problems
    zs = []
    for p in (*GRID, *entry.points):
        v = point_value(p)
        zs += [v, -v] if v != 0 else [v]
    values: dict[Any, Any] = {}
    undefined: list[str] = []

    def at(u):
        key = u
        if key not in values:
            try:
                values[key] = sigma(u)
            except Undefined as exc:
                undefined.append(f"{mp.nstr(u, 8)}: {exc}")
                values[key] = None
            except (OutOfRange, OverflowError, MemoryError, ValueError, ZeroDivisionError):
                values[key] = None  # beyond the evaluator: this point proves nothing
        return values[key]

    for u in zs:
        at(u)
    if not entry.valid:
        if not undefined:
            problems.append("invalid entry evaluates to a real number at every sample point")
        return problems
    if undefined:
        problems.append(f"valid entry undefined at {undefined[0]}")
        return problems

    def small(d, *scale):
        return abs(d) <= tol * (1 + sum(abs(s) for s in scale))

    one = at(mp.mpf(1))
    lin_defects = [
        u
        for u in zs
        if at(u) is not None and one is not None and not small(at(u) - one * u, at(u), one * u)
    ]
    if entry.linear and lin_defects:
        problems.append(f"recorded linear, but σ(z) ≠ σ(1)z at z = {mp.nstr(lin_defects[0], 12)}")
    if entry.linear is False and not lin_defects:
        problems.append("recorded not linear, but σ(z) = σ(1)z at every sample point")
    pairs = []
    for u in zs:
        for a in ALPHAS:
            alpha = point_value(a)
            s, t = at(u), at(alpha * u)
            if s is not None and t is not None:
                pairs.append((alpha, u, s, t))
    if entry.degree == "any":
        nonzero = [u for u in zs if at(u) is not None and not small(at(u))]
        if nonzero:
            problems.append(f"recorded σ ≡ 0, but σ({mp.nstr(nonzero[0], 12)}) ≠ 0")
    elif entry.degree is not None:
        p = point_value(entry.degree)
        bad = [(a, u) for a, u, s, t in pairs if not small(t - a**p * s, t, a**p * s)]
        if bad:
            a, u = bad[0]
            problems.append(
                f"recorded degree {entry.degree}, but σ(αz) ≠ α^p σ(z) at "
                f"α = {mp.nstr(a, 6)}, z = {mp.nstr(u, 12)}"
            )
        if all(small(s) for _, _, s, _ in pairs):
            problems.append("recorded a degree for what looks like σ ≡ 0")
    else:  # no degree: find a contradiction to every p
        implied, contradiction = [], None
        for a, u, s, t in pairs:
            zs_, zt = small(s), small(t)
            if zs_ and zt:
                continue
            if zs_ != zt or (s > 0) != (t > 0):
                contradiction = f"σ({mp.nstr(u, 8)}) and σ({mp.nstr(a * u, 8)}) differ in sign/zero"
                break
            implied.append((mp.log(t / s) / mp.log(a), a, u))
        if contradiction is None and implied:
            lo = min(implied, key=lambda r: r[0])
            hi = max(implied, key=lambda r: r[0])
            if hi[0] - lo[0] > tol * (1 + abs(hi[0])):
                contradiction = (
                    f"implied degrees {mp.nstr(lo[0], 8)} at z = {mp.nstr(lo[2], 8)} "
                    f"and {mp.nstr(hi[0], 8)} at z = {mp.nstr(hi[2], 8)}"
                )
        if contradiction is None:
            problems.append(
                "recorded no degree, but the sample points fit a single degree"
                + ("" if implied else " (σ ≡ 0 at every sample?)")
            )
    return problems


def _algebra_only(entry: Entry) -> bool:
    return "algebra" in entry.why


def _run_verify(entries: list[Entry], as_json: bool) -> int:
    bad, rows = 0, []
    for e in entries:
        start = time.perf_counter()
        problems = verify_truth(e)
        if problems and _algebra_only(e):
            problems = [f"(argued by algebra) {p}" for p in problems]
        rows.append(
            {
                "text": e.text,
                "family": e.family,
                "problems": problems,
                "seconds": round(time.perf_counter() - start, 3),
            }
        )
        bad += bool(problems) and not _algebra_only(e)
    if as_json:
        print(json.dumps({"entries": rows, "contradicted": bad}, indent=2, ensure_ascii=False))
    else:
        for r in rows:
            if r["problems"]:
                print(f"{r['family']:22} {r['text']!r}: {'; '.join(r['problems'])}")
        print(
            f"verify-truth: {len(rows)} entries, {bad} contradicted by the numbers "
            f"(mpmath, 700 digits)"
        )
    return 1 if bad else 0


# -- the campaign ------------------------------------------------------------------------------
def _select(args: argparse.Namespace) -> list[Entry]:
    entries = [e for e in CORPUS if args.only is None or e.family in args.only]
    if args.limit is not None:
        entries = entries[: args.limit]
    return entries


def main(argv: list[str] | None = None) -> int:
    families = sorted({e.family for e in CORPUS})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only",
        action="append",
        choices=families,
        metavar="FAMILY",
        help=f"only this family (repeatable): {', '.join(families)}",
    )
    parser.add_argument("--limit", type=int, help="only the first N selected entries")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--repo", type=Path, default=ROOT, help="checkout whose toolkit to run (default: this one)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="subprocesses at a time (2)")
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="hang limit per entry in seconds (300)"
    )
    parser.add_argument(
        "--save", type=Path, metavar="FILE", help="also write the JSON document to FILE"
    )
    parser.add_argument(
        "--verify-truth",
        action="store_true",
        help="re-establish the corpus truth with mpmath; run no toolkit",
    )
    args = parser.parse_args(argv)
    entries = _select(args)
    if args.verify_truth:
        return _run_verify(entries, args.json)
    repo = args.repo.resolve()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda e: run_entry(e, repo, args.timeout), entries))
    wall = time.perf_counter() - start
    counts = Counter(o.klass for o in outcomes)
    defects = [o for o in outcomes if o.format_defects]
    failed = sum(counts[k] for k in FAILING)
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    document = json.dumps(
        {
            "repo": str(repo),
            "commit": commit,
            "entries": len(outcomes),
            "seconds": round(wall, 1),
            "counts": {k: counts[k] for k in CLASSES},
            "format_defects": len(defects),
            "outcomes": [asdict(o) for o in outcomes],
        },
        indent=2,
        ensure_ascii=False,
        default=str,
    )
    if args.save:
        args.save.write_text(document + "\n", encoding="utf-8")
    if args.json:
        print(document)
    else:
        for o in outcomes:
            if o.klass != "right":
                print(f"{o.klass:17} {o.family:22} {o.text!r}: {o.cause}")
        for o in defects:
            print(f"{'format':17} {o.family:22} {o.text!r}: {'; '.join(o.format_defects)}")
        by_family = Counter((o.family, o.klass) for o in outcomes)
        print()
        print(f"{'family':22} " + " ".join(f"{k[:9]:>9}" for k in CLASSES))
        for fam in sorted({o.family for o in outcomes}):
            print(f"{fam:22} " + " ".join(f"{by_family[(fam, k)]:>9}" for k in CLASSES))
        print()
        print(
            f"adversarial campaign: {len(outcomes)} entries against {repo} ({commit}) in "
            f"{wall:.0f} s — "
            + ", ".join(f"{counts[k]} {k}" for k in CLASSES)
            + f"; {len(defects)} with format defects"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
