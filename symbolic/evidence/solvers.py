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
    within ``timeout_ms`` or the tighter cap of ``limits(z3_timeout_ms=...)``."""
    from symbolic.limits import current_limits

    ctx = z3.Context()
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
        if answer != "unknown":
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
    (``options`` as ``--name=value``)."""
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
