"""The solver runner of the export and the re-check: Z3 and cvc5 on an SMT-LIB 2 file's text.

Outside the kernel the only module that imports ``z3`` (inside, ``z3_checks``), and the only
one that imports ``cvc5``. Nothing here makes a verdict: ``run_z3(text)`` and
``run_cvc5(text)`` return the solver's answer to the benchmark's ``(check-sat)`` —
``"unsat"``, ``"sat"``, ``"unknown"`` or ``"error: …"`` — and its version, from the text
alone. ``standalone(smt2)`` turns Z3's ``Solver.to_smt2()`` output into a file any SMT-LIB 2
solver runs unchanged.

    python -m symbolic.evidence.solvers [--z3|--cvc5 [--mbqi|--enum-inst|--nl-cov]] FILE.smt2 ...

(the ``cvc5`` wheel on PyPI ships no executable; this is its command line here).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Sequence

import z3

# cvc5 is limited by its resource units (``rlimit-per``), not by the clock, so that its answers
# do not depend on how loaded the machine is: about 100,000 units are a CPU-second of cvc5 here
# (exchange.lemma_z3 step 4 under --mbqi takes 182,920 units). The clock limit only guards
# against a hang.
CVC5_UNITS = 1_000_000  # one check from the command line
CVC5_WALL_MS = 20_000  # a second opinion, not a proof search: past this it says unknown
Z3_TIMEOUT_MS = 10000
# A solver's own limits do not reach everything it does: cvc5's and Z3's rewriters fold
# constants without looking at the clock (thirty squarings of 10 through define-fun, let or
# equalities, ``(^ 10.0 30000000.0)``: minutes and gigabytes). So each run is a child process
# held to HARD_FACTOR times its own limit of CPU seconds (plus HARD_SLACK_S) and
# HARD_MEMORY more bytes of address space, and killed past them (``isolated``).
HARD_FACTOR, HARD_SLACK_S = 1.5, 5.0
HARD_MEMORY = 3 * 2**30
OVER_LIMIT = "unknown: over the solver's hard limit"


def isolated(fn, *args, cpu_s: float):
    """``fn(*args)`` (a JSON value) computed in a forked child held to ``cpu_s`` CPU seconds
    and ``HARD_MEMORY`` more bytes of address space, and killed at twice ``cpu_s`` of wall
    time; None when it was killed, ran out or failed. Where ``fork`` is missing, in process."""
    if not hasattr(os, "fork"):
        return fn(*args)
    import gc
    import json
    import resource
    import select
    import signal
    import time

    size = _address_space()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its own limits, the parent's timers disarmed
        status = 1
        try:
            os.close(read_end)
            gc.disable()  # a collection would touch (and copy) every page of the parent's heap
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, signal.SIG_IGN)
            cpu = max(1, math.ceil(cpu_s))
            limits = [(resource.RLIMIT_CPU, (cpu, cpu + 2))]
            if size:
                limits.append((resource.RLIMIT_AS, (size + HARD_MEMORY, size + HARD_MEMORY)))
            for which, pair in limits:
                try:
                    resource.setrlimit(which, pair)
                except (ValueError, OSError):  # a system that refuses one: the wall clock stays
                    pass
            data = json.dumps(fn(*args)).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        except BaseException:  # noqa: BLE001 - the parent reads no answer: None
            pass
        os._exit(status)
    os.close(write_end)
    chunks, end = [], time.monotonic() + 2 * cpu_s + HARD_SLACK_S
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                break
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except BaseException:  # an interrupt: the child does not outlive the question
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except ValueError:
        return None


def _address_space() -> int:
    """This process's address space in bytes (Linux), 0 where unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def z3_version() -> str:
    return f"z3 {z3.get_version_string()}"


def cvc5_available() -> bool:
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True


def cvc5_version() -> str:
    import cvc5

    version = cvc5.Solver().getVersion()
    return f"cvc5 {version.decode() if isinstance(version, bytes) else version}"


def standalone(smt2: str, header: Sequence[str] = ()) -> str:
    """Z3's ``to_smt2()`` text as a self-contained benchmark: header comments, ``(set-logic
    ALL)`` (cvc5 requires a logic) and a final ``(exit)``; Z3's ``(set-info :status …)`` is
    dropped (the expected answer is the manifest's: a ``:status unsat`` line turned cvc5's
    ``sat`` into an error). The assertions themselves are kept byte for byte."""
    body = re.sub(r"^\(set-info :status \w+\)\n?", "", smt2, flags=re.M)
    if "(set-logic" not in body:
        body = "(set-logic ALL)\n" + body
    lines = [f"; {line}" for line in header]
    return "\n".join(lines) + ("\n" if lines else "") + body.rstrip() + "\n(exit)\n"


def run_z3(text: str, timeout_ms: int = Z3_TIMEOUT_MS) -> str:
    """Z3's answer to the benchmark's ``(check-sat)`` (a fresh context, from the text alone),
    within ``timeout_ms`` or the tighter cap of ``limits(z3_timeout_ms=...)`` — in a child
    process held to hard limits (``isolated``): past them, ``unknown``."""
    from symbolic.limits import current_limits

    ms = current_limits().z3_ms(int(timeout_ms))
    forked = hasattr(os, "fork")
    if forked and not _SPARE:
        _SPARE.append(z3.Context())
    hard = HARD_FACTOR * ms / 1000 + HARD_SLACK_S
    answer = isolated(_z3_here, text, timeout_ms, forked, cpu_s=hard)
    return answer if isinstance(answer, str) else OVER_LIMIT


_SPARE_CVC5: list = []
_SPARE: list = []  # a Z3 context made once here, used only by forked children (a fresh copy
# each: what a child does to it dies with the child), saving each child making one


def _z3_here(text: str, timeout_ms: int, spare: bool = False) -> str:
    from symbolic.limits import current_limits

    ctx = _SPARE[0] if spare and _SPARE else z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", current_limits().z3_ms(int(timeout_ms)))
    try:
        solver.from_string(_without_commands(text))
    except z3.Z3Exception as exc:
        return f"error: {exc}"
    return str(solver.check())


def _without_commands(text: str) -> str:
    """Z3's ``from_string`` takes declarations and assertions; ``check-sat``/``exit`` it runs
    itself (``set-logic``/``set-info`` it accepts)."""
    return re.sub(r"^\((check-sat|exit)\)\s*$", "", text, flags=re.M)


# cvc5's strategies, tried in this order until one answers: its defaults, the two quantifier
# instantiation strategies its command line offers (--enum-inst, --mbqi: Z3's default), and
# --nl-cov — cylindrical algebraic coverings, a complete procedure for nonlinear real
# arithmetic that cvc5 turns on by itself only for QF_NRA-like logics, never for the (set-logic
# ALL) of our benchmarks. scaling.degree_one step 6 needs it: once e-matching instantiates the
# quantified shape at α·a and a, what remains is nonlinear (α·max(a, 0) against max(α·a, 0), and
# α·σ(a)), which cvc5's default incremental linearisation does not close (it runs until the
# resource limit), while the coverings decide it in 37,570 units. scaling.converse step 3
# (σ(αβ·a0) two ways, then g(αβ) = g(α)g(β)) is closed by the coverings only with the
# linearisation off (--nl-ext=none); with it on, cvc5 runs to its limit.
CVC5_PORTFOLIO: tuple[tuple[tuple[str, str], ...], ...] = (
    (),
    (("enum-inst", "true"),),
    (("mbqi", "true"),),
    (("nl-cov", "true"),),
    (("nl-cov", "true"), ("nl-ext", "none")),
)
CVC5_QUICK_UNITS = 100_000  # a first pass: every strategy with this many resource units ...
CVC5_PORTFOLIO_UNITS = 400_000  # ... then every strategy again with these
CVC5_OPTIONS_LINE = "; cvc5 options:"  # header line: the strategy that answered at export


def strategy_name(options: tuple[tuple[str, str], ...]) -> str:
    """``(("nl-cov", "true"), ("nl-ext", "none"))`` → ``"--nl-cov --nl-ext=none"``."""
    return " ".join(f"--{k}" if v == "true" else f"--{k}={v}" for k, v in options)


_STRATEGY = {strategy_name(o): o for o in CVC5_PORTFOLIO}


def strategy_options(flags: str) -> tuple[tuple[str, str], ...] | None:
    """``"--nl-cov"`` → ``(("nl-cov", "true"),)`` for a strategy of ``CVC5_PORTFOLIO``
    (``""``: the defaults); None for anything else (a file cannot set other cvc5 options)."""
    return _STRATEGY.get(" ".join(flags.split()))


def run_cvc5_portfolio(
    text: str, units: int = CVC5_PORTFOLIO_UNITS, first: tuple[tuple[str, str], ...] | None = None
) -> tuple[str, str]:
    """cvc5's answer and the command-line options that gave it (``""``: the defaults): the
    strategy ``first`` (the header's), then every strategy of ``CVC5_PORTFOLIO`` with
    ``CVC5_QUICK_UNITS``, then with ``units``; ``unknown`` only when every attempt said so."""
    attempts = (
        ([(first, units)] if first is not None else [])
        + [(o, min(CVC5_QUICK_UNITS, units)) for o in CVC5_PORTFOLIO]
        + [(o, units) for o in CVC5_PORTFOLIO]
    )
    for options, limit in attempts:
        answer = run_cvc5(text, limit, options)
        if answer != "unknown":  # OVER_LIMIT too: the next strategy would run as long
            return answer, strategy_name(options)
    return "unknown", "defaults, " + ", ".join(strategy_name(o) for o in CVC5_PORTFOLIO if o)


CVC5_PROOF_UNITS = 1_000_000  # exchange.lemma_z3 step 4's proof takes 173,935 units


def cvc5_proof(
    text: str, options: tuple[tuple[str, str], ...] = (), units: int = CVC5_PROOF_UNITS
) -> tuple[int, int] | None:
    """cvc5's proof object for an ``unsat`` benchmark: (distinct proof steps, steps by a
    ``TRUST`` rule — justified by no checkable rule), or None when no proof was produced.
    (With ``--produce-proofs`` cvc5 may not decide what it decided without: its coverings
    solver then drops the variable elimination it has no proofs for, and says unknown.)"""
    stats: list[tuple[int, int]] = []
    run_cvc5(text, units, (*options, ("produce-proofs", "true")), proof=stats)
    return stats[0] if stats else None


def cvc5_opinion(text: str, first: tuple[tuple[str, str], ...] | None = None) -> dict[str, object]:
    """The second check of one benchmark: cvc5's answer, the strategy that gave it (``first``,
    a strategy of the portfolio named by the manifest, is tried first), its version, and for
    ``unsat`` the size of its proof object (``cvc5_proof_steps``, ``cvc5_trust_steps``; None:
    no proof). ``cvc5: not installed`` without the cvc5 package. Options are never read from
    the benchmark."""
    if not cvc5_available():
        return {
            "cvc5": "not installed",
            "cvc5_options": "",
            "cvc5_version": "",
            "cvc5_proof_steps": None,
            "cvc5_trust_steps": None,
        }
    said, flags = run_cvc5_portfolio(text, first=first)
    options = strategy_options(flags) if said == "unsat" else None
    stats = cvc5_proof(text, options) if options is not None else None
    return {
        "cvc5": said,
        "cvc5_options": flags,
        "cvc5_version": cvc5_version(),
        "cvc5_proof_steps": stats[0] if stats else None,
        "cvc5_trust_steps": stats[1] if stats else None,
    }


# what a benchmark may ask cvc5 to do: never set an option (an output channel is a file)
SAFE_COMMANDS = (
    "set-logic",
    "set-info",
    "declare-fun",
    "declare-const",
    "declare-sort",
    "define-fun",
    "define-sort",
    "assert",
    "check-sat",
    "exit",
)


def run_cvc5(
    text: str,
    units: int = CVC5_UNITS,
    options: tuple[tuple[str, str], ...] = (),
    proof: list | None = None,
) -> str:
    """cvc5's answer to the benchmark's ``(check-sat)`` within ``units`` resource units:
    parsed by ``cvc5.InputParser`` and run command by command, as the cvc5 command line does
    (``options`` as ``--name=value``) — in a child process held to hard limits
    (``isolated``): past them, ``OVER_LIMIT``, and a portfolio stops there."""
    if hasattr(os, "fork") and not _SPARE_CVC5:  # cvc5's first solver sets up what every
        import cvc5  # later one reuses: made once here, not once per child

        _SPARE_CVC5.append(cvc5.Solver())
    found = isolated(
        _cvc5_here,
        text,
        units,
        [list(o) for o in options],
        proof is not None,
        cpu_s=_cvc5_hard_seconds(units),
    )
    if not (isinstance(found, list) and len(found) == 2 and isinstance(found[0], str)):
        return OVER_LIMIT
    if proof is not None and isinstance(found[1], list):
        proof.append(tuple(found[1]))
    return found[0]


def _cvc5_hard_seconds(units: int) -> float:
    """The CPU seconds a cvc5 run of ``units`` resource units may take: about 100,000 units
    a second, four times over (a slower machine), never past its wall-clock limit."""
    return HARD_SLACK_S + min(4 * int(units) / 100_000, HARD_FACTOR * CVC5_WALL_MS / 1000)


def _cvc5_here(text: str, units: int, options: list, want_proof: bool) -> list:
    stats: list = []
    answer = _run_cvc5_here(text, units, tuple(map(tuple, options)), stats if want_proof else None)
    return [answer, list(stats[0]) if stats else None]


def _run_cvc5_here(
    text: str,
    units: int = CVC5_UNITS,
    options: tuple[tuple[str, str], ...] = (),
    proof: list | None = None,
) -> str:
    import cvc5

    solver = cvc5.Solver()
    solver.setOption("rlimit-per", str(int(units)))
    solver.setOption("tlimit-per", str(CVC5_WALL_MS))
    for name, value in options:
        solver.setOption(name, value)
    symbols = cvc5.SymbolManager(solver)
    parser = cvc5.InputParser(solver, symbols)
    answers = []
    try:
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "benchmark")
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if not str(cmd).lstrip("( ").startswith(SAFE_COMMANDS):
                return f"error: command {str(cmd)[:40]!r} refused"
            out = cmd.invoke(solver, symbols)
            if "check-sat" in str(cmd):
                answers.append(out.strip())
    except Exception as exc:  # cvc5 raises RuntimeError/CVC5ApiException on bad input
        return f"error: {' '.join(str(exc).split())}"
    if len(answers) != 1:
        return f"error: {len(answers)} check-sat answers"
    answer = answers[0]
    if proof is not None and answer == "unsat":
        try:
            seen, stack, trust = set(), list(solver.getProof()), 0
            while stack:
                step = stack.pop()
                if step in seen:
                    continue
                seen.add(step)
                trust += "TRUST" in str(step.getRule())
                stack.extend(step.getChildren())
            proof.append((len(seen), trust))
        except Exception:  # noqa: BLE001 - no proof for this strategy: report none
            pass
    return answer if answer in ("sat", "unsat") else "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    solver, options = "z3", []
    if args and args[0] in ("--z3", "--cvc5"):
        solver = args.pop(0)[2:]
    while args and args[0].startswith("--"):  # cvc5 options: --mbqi, --enum-inst, --name=value
        name, _, value = args.pop(0)[2:].partition("=")
        options.append((name, value or "true"))
    if not args:
        usage = "usage: python -m symbolic.evidence.solvers [--z3|--cvc5] FILE.smt2 ..."
        print(usage, file=sys.stderr)
        return 2
    for path in args:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        print(run_cvc5(text, options=tuple(options)) if solver == "cvc5" else run_z3(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
