"""Re-check exported obligations from the files alone: ``python -m proofs --recheck DIR``.

No theorem code and no kernel checker is involved: every ``*.smt2`` under DIR is given, as
text, to Z3 and to cvc5 (``kernel.recheck.run_z3``/``run_cvc5``), and its answer compared with
the expected one its header names (``unsat``); every ``*.cert.json`` is re-evaluated here in
``mpmath.iv`` interval arithmetic by an evaluator of its own (``ivalue``), and must (1) decide
the claimed relation by itself and (2) overlap the exported enclosure, whose rational end
points must themselves decide it. An exact certificate is re-checked with exact rationals.

Exit codes: 0 every answer agrees; 1 a disagreement (a solver answered ``sat`` to a negated goal,
a certificate does not re-check, a file cannot be read); 3 cvc5 said ``unknown`` (or is not
installed), or no obligation was found.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import mpmath
import sympy
from mpmath import iv
from mpmath.libmp import to_rational

from symbolic.kernel.recheck import cvc5_available, cvc5_opinion, cvc5_version, run_z3, z3_version

EXIT_OK, EXIT_DISAGREE, EXIT_UNKNOWN = 0, 1, 3
RECHECK_BITS = (64, 256, 1024)


@dataclass(frozen=True)
class Row:
    obligation: str
    z3: str = "—"
    cvc5: str = "—"
    certificate: str = "—"
    ok: bool = True  # agrees with the expected answer
    unknown: bool = False  # cvc5 (the second check) did not decide it
    cvc5_answer: str = ""
    proof: tuple[int | None, int | None] = (None, None)  # cvc5's proof: steps, TRUST steps
    cvc5_options: str = ""
    digest: str = ""  # of the benchmark, comments and let-names aside (``digest``)

    def cells(self) -> tuple[str, str, str, str, str]:
        verdict = "DISAGREES" if not self.ok else "unknown" if self.unknown else "agrees"
        return (self.obligation, self.z3, self.cvc5, self.certificate, verdict)


def expected_answer(text: str) -> str | None:
    m = re.search(r"^;.*expected answer:\s*(sat|unsat)", text, flags=re.M)
    return m.group(1) if m else None


def recheck_smt2(path: Path, name: str, use_cvc5: bool) -> Row:
    text = path.read_text(encoding="utf-8")
    want = expected_answer(text)
    if want is None:
        return Row(name, "no expected answer in header", ok=False)
    z3_says = run_z3(text)
    second = cvc5_opinion(text) if use_cvc5 else {"cvc5": "not installed", "cvc5_options": ""}
    cvc5_says, options = second["cvc5"], second["cvc5_options"]
    ok = z3_says == want and cvc5_says in (want, "unknown", "not installed")
    shown = f"{cvc5_says} ({options})" if options else cvc5_says
    if cvc5_says == "unsat":
        steps, trust = second["cvc5_proof_steps"], second["cvc5_trust_steps"]
        shown += f"; proof {steps} steps, {trust} trust" if steps is not None else "; no proof"
    return Row(name, z3_says, shown, ok=ok, unknown=cvc5_says != want, cvc5_answer=cvc5_says,
               proof=(second.get("cvc5_proof_steps"), second.get("cvc5_trust_steps")),
               cvc5_options=options, digest=digest(text))


def digest(text: str) -> str:
    """The SHA-256 of a benchmark's meaning as text: comment lines dropped, Z3's ``let``s
    inlined (which terms Z3 let-binds, and their names ``$x80``, depend on what else its
    context holds), declarations sorted — the same obligation exported by two runs has one
    digest. A benchmark too large to inline is hashed as written."""
    import hashlib

    body = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
    try:
        commands = [_inline(c, {}) for c in _sexprs(body)]
        declared = sorted(_show(c) for c in commands if c and c[0] in _DECLARATIONS)
        canonical = "\n".join(declared + [_show(c) for c in commands
                                          if not (c and c[0] in _DECLARATIONS)])
    except (ValueError, RecursionError):
        canonical = body
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_DECLARATIONS = ("declare-fun", "declare-const", "declare-sort")
MAX_DIGEST_TOKENS = 200_000  # far beyond any obligation the toolkit writes


def _sexprs(text: str) -> list:
    """SMT-LIB 2 text as nested lists of atoms (no strings or quoted symbols expected)."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text)
    if len(tokens) > MAX_DIGEST_TOKENS:
        raise ValueError("benchmark too large to canonicalise")
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced parentheses")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0]


def _inline(e, env: dict):
    if isinstance(e, str):
        return env.get(e, e)
    if len(e) == 3 and e[0] == "let" and isinstance(e[1], list):
        inner = dict(env)
        for name, value in e[1]:  # parallel let: values see the outer bindings
            inner[name] = _inline(value, env)
        return _inline(e[2], inner)
    return [_inline(x, env) for x in e]


def _show(e) -> str:
    return e if isinstance(e, str) else "(" + " ".join(_show(x) for x in e) + ")"


# --- an interval evaluator of its own ------------------------------------------------------


class NotEnclosed(Exception):
    pass


def _monotone(f, x):
    """``f`` increasing: [f(a)↓, f(b)↑] from mpmath's arbitrary-precision value, widened by
    2^-(prec-8) relative (mpmath's special functions are accurate to the working precision)."""
    a, b = (mpmath.mp.make_mpf(raw) for raw in x._mpi_)  # exact end points
    with mpmath.workprec(iv.prec + 32):
        lo, hi = f(a), f(b)
        eps = mpmath.mpf(2) ** (8 - iv.prec)
        tiny = mpmath.mpf(2) ** -1000
        lo, hi = lo - abs(lo) * eps - tiny, hi + abs(hi) * eps + tiny
    return iv.mpf([lo, hi])


def _decide(cond, env) -> bool:
    if cond in (sympy.true, True):
        return True
    if cond in (sympy.false, False):
        return False
    if isinstance(cond, sympy.And):
        return all(_decide(c, env) for c in cond.args)
    if isinstance(cond, sympy.Or):
        return any(_decide(c, env) for c in cond.args)
    if isinstance(cond, sympy.Not):
        return not _decide(cond.args[0], env)
    if isinstance(cond, sympy.core.relational.Relational):
        d = ivalue(cond.lhs - cond.rhs, env)
        op = cond.rel_op
        if op in (">", ">="):
            d, op = -d, "<" if op == ">" else "<="
        if op in ("<", "<="):
            if d.b < 0 or (op == "<=" and d.b <= 0):
                return True
            if d.a > 0 or (op == "<" and d.a >= 0):
                return False
        if op == "==" and (d.a > 0 or d.b < 0):
            return False
        if op == "!=" and (d.a > 0 or d.b < 0):
            return True
    raise NotEnclosed(f"condition {cond} not decided")


def ivalue(e: sympy.Expr, env: dict | None = None):
    """An ``mpmath.iv`` interval containing the value of the closed expression ``e``."""
    env = env or {}
    if e in env:
        return env[e]
    if e.is_Integer:
        return iv.mpf(int(e))
    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q)
    if e is sympy.pi:
        return iv.pi
    if e is sympy.E:
        return iv.e
    if isinstance(e, sympy.Add):
        total = iv.mpf(0)
        for a in e.args:
            total += ivalue(a, env)
        return total
    if isinstance(e, sympy.Mul):
        total = iv.mpf(1)
        for a in e.args:
            total *= ivalue(a, env)
        return total
    if isinstance(e, sympy.Pow):
        base, ex = e.args
        if ex.is_Integer:
            b = ivalue(base, env)
            n = int(ex)
            r = b ** abs(n) if n % 2 or b.a >= 0 or b.b <= 0 else _even_power(b, abs(n))
            return 1 / r if n < 0 else r
        if ex == sympy.S.Half:
            return iv.sqrt(ivalue(base, env))
        b = ivalue(base, env)
        if b.a <= 0:
            raise NotEnclosed(f"{base} ** {ex}: base not certified positive")
        return iv.exp(ivalue(ex, env) * iv.log(b))
    if isinstance(e, sympy.exp):
        return iv.exp(ivalue(e.args[0], env))
    if isinstance(e, sympy.log):
        x = ivalue(e.args[0], env)
        if x.a <= 0:
            raise NotEnclosed("log of a non-positive interval")
        return iv.log(x)
    if isinstance(e, sympy.tanh):
        x = ivalue(e.args[0], env)
        t = iv.exp(2 * x)
        return 1 - 2 / (t + 1)
    if isinstance(e, sympy.erf):
        return _monotone(mpmath.erf, ivalue(e.args[0], env))
    if isinstance(e, sympy.besseli) and e.args[0].is_Integer and e.args[0] >= 0:
        x = ivalue(e.args[1], env)
        if x.a <= 0:
            raise NotEnclosed("besseli at a non-positive argument")
        n = int(e.args[0])
        return _monotone(lambda t: mpmath.besseli(n, t), x)
    if isinstance(e, sympy.Abs):
        x = ivalue(e.args[0], env)
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return iv.mpf([0, max(-x.a, x.b)])
    if isinstance(e, (sympy.Max, sympy.Min)):
        xs = [ivalue(a, env) for a in e.args]
        pick = max if isinstance(e, sympy.Max) else min
        return iv.mpf([pick(x.a for x in xs), pick(x.b for x in xs)])
    if isinstance(e, sympy.Piecewise):
        for value, cond in e.args:
            if _decide(cond, env):
                return ivalue(value, env)
        raise NotEnclosed("no Piecewise branch applies")
    raise NotEnclosed(f"cannot enclose {type(e).__name__}")


def _even_power(b, n):
    m = iv.mpf(max(-b.a, b.b)) ** n
    return iv.mpf([0, m.b]) if n else iv.mpf(1)


def _holds(lo: Fraction | mpmath.mpf, hi, rel: str) -> bool:
    return {"!=": lo > 0 or hi < 0, ">": lo > 0, "<": hi < 0}[rel]


def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _outside_domain(expr: sympy.Expr, by_name: dict) -> str:
    """The first symbol whose value at the witness breaks one of its assumptions (a rational
    value is judged exactly on each; any other value is not accepted as a witness), or ''."""
    for s in sorted(expr.free_symbols, key=str):
        if str(s) not in by_name:
            continue
        value = by_name[str(s)]  # read by eval_srepr: a SymPy object
        for key, want in s.assumptions0.items():
            if want is None:
                continue
            if not value.is_Rational or getattr(value, f"is_{key}", None) != want:
                return f"{s} = {value} is not {'' if want else 'non-'}{key}"
    return ""


def recheck_certificate(path: Path, name: str) -> Row:
    try:
        cert = json.loads(path.read_text(encoding="utf-8"))
        expr = eval_srepr(cert["expression_srepr"])
        point = {sympy.Symbol(k, real=True): eval_srepr(v) for k, v in cert["point"].items()}
        rel = cert["relation"]
        expected = cert["expected"]
        if expected not in ("proved", "refuted") or rel not in ("!=", ">", "<"):
            return Row(name, certificate=f"bad certificate ({expected}, {rel})", ok=False)
        if "for_all" in cert:
            return _recheck_bound(cert, expr, rel, name)
        if point:  # the kernel's symbols carry assumptions: substitute by name
            by_name = {str(k): v for k, v in point.items()}
            outside = _outside_domain(expr, by_name)
            if outside:
                return Row(name, certificate=f"witness outside the domain: {outside}", ok=False)
            expr = expr.xreplace({s: by_name[str(s)] for s in expr.free_symbols
                                  if str(s) in by_name})
        if expr.free_symbols:
            return Row(name, certificate=f"free symbols {sorted(map(str, expr.free_symbols))}",
                       ok=False)
        if "value" in cert:
            value = sympy.sympify(expr.doit())
            claimed = _fraction(cert["value"])
            if not value.is_Rational or Fraction(int(value.p), int(value.q)) != claimed:
                return Row(name, certificate=f"exact value {value} ≠ claimed {claimed}",
                           ok=False)
            ok = _holds(claimed, claimed, rel)
            return Row(name, certificate=f"exact {claimed} {rel} 0: "
                       f"{'yes' if ok else 'NO'}", ok=ok)
        lo, hi = (_fraction(cert["enclosure"][k]) for k in ("lo", "hi"))
        if not _holds(lo, hi, rel):
            return Row(name, certificate=f"exported enclosure does not decide {rel} 0", ok=False)
        for bits in RECHECK_BITS:
            old = iv.prec
            iv.prec = bits
            try:
                box = ivalue(expr)
            except (NotEnclosed, ZeroDivisionError, ValueError) as exc:
                return Row(name, certificate=f"not re-enclosed: {exc}", ok=False, unknown=True)
            finally:
                iv.prec = old
            a, b = (_exact(raw) for raw in box._mpi_)
            if _holds(a, b, rel):
                overlap = a <= hi and lo <= b
                return Row(name, certificate=f"iv {bits} bits: {rel} 0"
                           + ("" if overlap else ", DISJOINT from exported"), ok=overlap)
        return Row(name, certificate=f"iv at {RECHECK_BITS[-1]} bits: {rel} 0 not decided",
                   ok=False, unknown=True)
    except Exception as exc:  # an unreadable or malformed file is a disagreement
        return Row(name, certificate=f"error: {type(exc).__name__}: {exc}", ok=False)


BOUND_BITS, BOUND_PIECES = 128, 4096


def _recheck_bound(cert: dict, expr: sympy.Expr, rel: str, name: str) -> Row:
    """``∀ x ∈ [lo, hi]: expr rel 0`` by a bisection of its own into at most BOUND_PIECES."""
    spec = cert["for_all"]
    var = next((s for s in expr.free_symbols if str(s) == spec["variable"]), None)
    if var is None or len(expr.free_symbols) != 1 or rel not in ("<", ">"):
        return Row(name, certificate="malformed bound certificate", ok=False)
    old = iv.prec
    iv.prec = BOUND_BITS
    try:
        lo, hi = ivalue(eval_srepr(spec["lo_srepr"])), ivalue(eval_srepr(spec["hi_srepr"]))
        pending, done = [iv.mpf([lo.a, hi.b])], 0
        while pending:
            piece = pending.pop()
            gap = ivalue(expr, {var: piece})
            if (rel == ">" and gap.a > 0) or (rel == "<" and gap.b < 0):
                done += 1
                continue
            if done + len(pending) >= BOUND_PIECES:
                return Row(name, certificate=f"bound not decided in {BOUND_PIECES} pieces",
                           ok=False, unknown=True)
            mid = iv.mpf((piece.a + piece.b) / 2).a
            pending += [iv.mpf([piece.a, mid]), iv.mpf([mid, piece.b])]
    except (NotEnclosed, ZeroDivisionError, ValueError) as exc:
        return Row(name, certificate=f"bound not re-enclosed: {exc}", ok=False, unknown=True)
    finally:
        iv.prec = old
    return Row(name, certificate=f"∀ {var} ∈ [lo, hi]: {rel} 0 on {done} iv pieces")


def _exact(raw) -> Fraction:
    """An mpmath raw float (sign, man, exp, bc) as an exact fraction."""
    p, q = to_rational(raw)
    return Fraction(p, q)


MAX_SREPR_CHARS = 200_000  # a certificate's formula: far beyond any the toolkit writes
MAX_SREPR_DEPTH = 200


def eval_srepr(text: str) -> sympy.Basic:
    """``sympy.srepr`` text back to a SymPy object by a whitelist ``ast`` reader: only calls of
    SymPy class names (and the kernel's ForAll/Exists) on numbers, strings, tuples and keyword
    constants; nothing is executed. Anything else raises ``ValueError``."""
    import ast

    from sympy.functions.elementary.piecewise import ExprCondPair

    from symbolic.kernel.logic import Exists, ForAll

    if len(text) > MAX_SREPR_CHARS:
        raise ValueError(f"formula of {len(text)} characters; at most {MAX_SREPR_CHARS}")
    names = {"ForAll": ForAll, "Exists": Exists, "ExprCondPair": ExprCondPair}

    def callable_named(name: str):
        if name in names:
            return names[name]
        obj = getattr(sympy, name, None)
        if name.startswith("_") or not isinstance(obj, type) or not issubclass(obj, sympy.Basic):
            if name not in ("Symbol", "Integer", "Rational", "Float", "Function", "Dummy"):
                raise ValueError(f"{name!r} is not a SymPy class")
        if obj is None:
            raise ValueError(f"{name!r} is not a SymPy name")
        return obj

    def build(node: ast.AST, depth: int = 0):
        if depth > MAX_SREPR_DEPTH:
            raise ValueError("formula nested too deeply")
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
                isinstance(node.operand, ast.Constant):
            return -node.operand.value
        if isinstance(node, ast.Name) and not node.id.startswith("_") and \
                isinstance(getattr(sympy, node.id, None), sympy.Basic):
            return getattr(sympy, node.id)  # pi, E, oo, true, Reals, ...: SymPy's constants
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(build(e, depth + 1) for e in node.elts)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            fn = callable_named(node.func.id)
            args = [build(a, depth + 1) for a in node.args]
            kwargs = {k.arg: build(k.value, depth + 1) for k in node.keywords
                      if isinstance(k.arg, str)}
            if len(kwargs) != len(node.keywords):
                raise ValueError("** arguments are not accepted")
            return fn(*args, **kwargs)
        raise ValueError(f"{type(node).__name__} is not part of a SymPy srepr")

    return build(ast.parse(text, mode="eval").body)


RECORD_NAME = "recheck.json"  # written by recheck(): what --rechecked DIR reads
RECORD_SCHEMA = "transformer-proofs/recheck/v1"


def record(rows: list[Row], code: int, versions: dict[str, str]) -> dict:
    """The re-check as data: per SMT obligation its digest and both solvers' answers."""
    return {"schema": RECORD_SCHEMA, "exit_code": code, "versions": versions,
            "obligations": [{"file": r.obligation, "digest": r.digest, "agrees": r.ok,
                             "z3": r.z3, "cvc5": r.cvc5_answer, "cvc5_options": r.cvc5_options,
                             "cvc5_proof_steps": r.proof[0], "cvc5_trust_steps": r.proof[1]}
                            for r in rows if r.digest],
            "certificates": [{"file": r.obligation, "agrees": r.ok} for r in rows
                             if r.certificate != "—"]}


def read_record(directory: str | Path) -> dict:
    """``DIR/recheck.json`` as written by ``recheck``; ``ValueError`` naming what is wrong."""
    path = Path(directory) / RECORD_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read a re-check record ({type(exc).__name__}); "
                         f"run python -m proofs --recheck {directory} first") from None
    if not isinstance(data, dict) or data.get("schema") != RECORD_SCHEMA \
            or not isinstance(data.get("obligations"), list):
        raise ValueError(f"{path}: not a {RECORD_SCHEMA} record")
    return data


def recheck(directory: str | Path) -> tuple[list[Row], int, dict[str, str]]:
    """Every obligation under ``directory`` re-checked; (rows, exit code, versions). The
    result is also written to ``DIR/recheck.json`` (``record``)."""
    root = Path(directory)
    use_cvc5 = cvc5_available()
    versions = {"z3": z3_version(), "cvc5": cvc5_version() if use_cvc5 else "not installed",
                "mpmath": f"mpmath {mpmath.__version__}"}
    rows = []
    for path in sorted(root.rglob("*.smt2")):
        rows.append(recheck_smt2(path, str(path.relative_to(root)), use_cvc5))
    for path in sorted(root.rglob("*.cert.json")):
        rows.append(recheck_certificate(path, str(path.relative_to(root))))
    if any(not r.ok for r in rows):
        code = EXIT_DISAGREE
    elif not rows or any(r.unknown for r in rows) or not use_cvc5:
        code = EXIT_UNKNOWN
    else:
        code = EXIT_OK
    try:
        (root / RECORD_NAME).write_text(json.dumps(record(rows, code, versions), indent=2,
                                                   ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError:
        pass  # a read-only export is re-checked all the same; only the record is missing
    return rows, code, versions


def summary(rows: list[Row], code: int, versions: dict[str, str]) -> str:
    smt = [r for r in rows if r.z3 != "—"]
    certs = [r for r in rows if r.certificate != "—"]
    proofs = [r.proof for r in smt if r.proof[0] is not None]
    return (f"{len(smt)} SMT obligations — z3 unsat {sum(r.z3 == 'unsat' for r in smt)}, "
            f"cvc5 unsat {sum(r.cvc5_answer == 'unsat' for r in smt)}, "
            f"cvc5 unknown {sum(r.cvc5_answer == 'unknown' for r in smt)}, "
            f"cvc5 proofs {len(proofs)} ({sum(p[0] for p in proofs)} steps, "
            f"{sum(p[1] for p in proofs)} trust); "
            f"{len(certs)} certificates — {sum(r.ok for r in certs)} rechecked; "
            f"{sum(not r.ok for r in rows)} disagreements ({versions['z3']}, {versions['cvc5']}, "
            f"{versions['mpmath']}) — exit {code}")
