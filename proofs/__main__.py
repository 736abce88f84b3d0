"""Check every theorem: ``python -m proofs``.

Discovers every theorem module — each ``proofs/<name>.py`` whose name does not start with ``_``
and that defines ``build_report`` — imports it once, calls ``build_report()`` in this process
and prints a dashboard: one row per claim (module, claim, theory item, verdict, methods, time),
one row per module, the claims that did not pass with the reason, and the overall status.
Modules run in the order of their module-level ``ORDER`` integer (then by name); a module that
fails to import or raises is reported as ``failed``, never skipped.

Exit codes: 0 every claim proved; 1 a claim refuted or failed, or a module crashed; 2 bad
usage; 3 something undecided, or no theorem module found.

    python -m proofs                          # the dashboard
    python -m proofs -v                       # every derivation, then the dashboard
    python -m proofs --list                   # the theorem modules, without checking them
    python -m proofs --only exchange --only scaling
    python -m proofs --strict                 # assumptions and oracle results count as unproved
    python -m proofs --json                   # schema transformer-proofs/report/v2
    python -m proofs --latex out.tex [--fragment]
    python -m proofs --smt2 out               # also export the obligations (docs/smt.md)
    python -m proofs --recheck out            # re-check them from the files alone
    python -m proofs --latex p.tex --rechecked out   # backing z3+cvc5 from that re-check

The JSON schema is documented in docs/json-schema.md, the options in docs/cli.md.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import pkgutil
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import proofs
from proofs._cli import (
    base_parser,
    emit_reports,
    export_evidence,
    recheck_main,
    timed_build,
    usage_error,
)
from symbolic.engine import (
    EXIT_OK,
    EXIT_UNKNOWN,
    FAILED,
    Report,
    Table,
    exit_code_for,
    overall_status,
)
from symbolic.errors import ToolkitError
from symbolic.render.text import MARK

PROG = "python -m proofs"
SCHEMA = "transformer-proofs/report/v2"  # bump the version on any incompatible change
LIST_SCHEMA = "transformer-proofs/modules/v1"
DEFAULT_ORDER = 1000  # modules without an ORDER run after those with one, by name
NO_MODULES = (
    "no theorem modules found (a theorem module is proofs/<name>.py defining "
    "build_report(); see docs/adding-a-theorem.md)"
)


@dataclass(frozen=True)
class TheoremModule:
    """A discovered module: imported once, or the error that stopped its import."""

    name: str
    module: ModuleType | None
    error: str = ""
    traceback: str = ""
    import_seconds: float = 0.0  # the first module imported also pays for shared imports

    @property
    def order(self) -> tuple[int, str]:
        order = getattr(self.module, "ORDER", DEFAULT_ORDER)
        return (order if isinstance(order, int) else DEFAULT_ORDER, self.name)

    @property
    def summary(self) -> str:
        doc = (getattr(self.module, "__doc__", None) or "").strip()
        return doc.splitlines()[0] if doc else ""


@dataclass(frozen=True)
class Run:
    """One module's check: its report, or the error that stopped it (a failure)."""

    name: str
    report: Report | None
    error: str = ""
    traceback: str = ""
    seconds: float = 0.0
    import_seconds: float = 0.0

    @property
    def status(self) -> str:
        return self.report.status if self.report is not None else FAILED

    def status_under(self, strict: bool) -> str:
        return self.report.status_under(strict) if self.report is not None else FAILED


# Command-line tools that live beside the theorem modules: discovery does not import them
# (proofs.symmetry would cost its engine's import). tests/proofs/test_main.py checks that every
# other module of the package is a theorem module and that these are not.
TOOL_MODULES = frozenset({"symmetry"})


def discover(package: ModuleType = proofs) -> list[TheoremModule]:
    """Every theorem module of ``package``, imported, in ``ORDER`` then name order (the
    package's ``TOOL_MODULES`` are not imported)."""
    tools = TOOL_MODULES if package is proofs else frozenset()
    found = [
        _load(
            info.name, lambda name=info.name: importlib.import_module(f"{package.__name__}.{name}")
        )
        for info in pkgutil.iter_modules(package.__path__)
        if not (info.name.startswith("_") or info.ispkg or info.name in tools)
    ]
    return sorted((m for m in found if m is not None), key=lambda m: m.order)


def _load(name: str, importer) -> TheoremModule | None:
    """Import one candidate module: a theorem module, the error that stopped its import (a
    failure to report, not to skip), or None when it is no theorem module."""
    start = time.perf_counter()
    try:
        module = importer()
    except Exception as exc:
        return TheoremModule(name, None, f"import failed: {_one_line(exc)}", traceback.format_exc())
    if not _is_theorem_module(module):
        return None
    return TheoremModule(name, module, import_seconds=time.perf_counter() - start)


ENTRY_POINT_GROUP = "transformer_proofs.theorems"  # a package's own theorem modules


def _is_theorem_module(module: ModuleType) -> bool:
    from symbolic.api import is_claim

    if not isinstance(module, ModuleType):
        return False
    return callable(getattr(module, "build_report", None)) or any(
        is_claim(obj) for obj in vars(module).values()
    )


def discover_path(folder: str) -> list[TheoremModule]:
    """Every theorem module in ``folder`` (``*.py`` not starting with ``_``): one that defines
    ``build_report()`` or any module-level ``@claim``. Imported by file, in name order."""
    root = Path(folder)
    if not root.is_dir():
        raise LookupError(f"--path {folder!r}: no such folder")

    def by_file(path: Path) -> ModuleType:
        name = f"user_theorems.{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    found = [
        _load(path.stem, lambda path=path: by_file(path))
        for path in sorted(root.glob("*.py"))
        if not path.name.startswith("_")
    ]
    return sorted((m for m in found if m is not None), key=lambda m: m.order)


def discover_entry_points() -> list[TheoremModule]:
    """Theorem modules that installed packages declare in the entry-point group
    ``transformer_proofs.theorems`` (``name = "package.module"``)."""
    from importlib.metadata import entry_points

    found = [_load(ep.name, ep.load) for ep in entry_points(group=ENTRY_POINT_GROUP)]
    return [m for m in found if m is not None]


def check(modules: Sequence[TheoremModule], args: argparse.Namespace | None = None) -> list[Run]:
    """Call each module's ``build_report()`` (under the time limits ``args`` set, if any); an
    exception is recorded as a failed run."""
    runs = []
    for m in modules:
        if m.module is None:
            runs.append(Run(m.name, None, m.error, m.traceback))
            continue
        start = time.perf_counter()
        try:
            from symbolic.api import report_of

            report = timed_build(lambda module=m.module: report_of(module), args)
        except Exception as exc:
            error, trace = f"build_report() raised {_one_line(exc)}", traceback.format_exc()
            if isinstance(exc, ToolkitError):  # the toolkit's own one-line refusal of an input:
                error, trace = error + _where(exc, m.module), ""  # the line that gave it, no
            runs.append(  # traceback (a bug, in the module or here, keeps its traceback)
                Run(m.name, None, error, trace, time.perf_counter() - start, m.import_seconds)
            )
            continue
        runs.append(Run(m.name, report, seconds=report.seconds, import_seconds=m.import_seconds))
    return _resolve_across(runs)


def _resolve_across(runs: list[Run]) -> list[Run]:
    """A claim that uses a claim of another module inherits what that one rests on."""
    from dataclasses import replace

    from symbolic.engine import resolve_reports

    checked = [r for r in runs if r.report is not None]
    resolved = iter(resolve_reports(r.report for r in checked))
    return [replace(r, report=next(resolved)) if r.report is not None else r for r in runs]


def _where(exc: BaseException, module: ModuleType) -> str:
    """`` (at FILE:LINE)``: the innermost line of ``module``'s own file that led to ``exc``."""
    own = getattr(module, "__file__", None)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == own]
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def overall(runs: Sequence[Run], strict: bool = False) -> str:
    """The status of the whole check: a module without claims, or no module, is unknown.
    ``strict``: a claim resting on an assumption or an oracle result is not proved."""
    return overall_status(r.status_under(strict) for r in runs)


# --- Renderings -------------------------------------------------------------------------------


def modules_table(runs: Sequence[Run], strict: bool = False) -> Table:
    """One row per module: name, title, source items, claims, status, backing (every word its
    claims use, ``symbolic.backing``), time — or the error."""
    from symbolic.backing import report_backing

    rows = []
    for r in runs:
        if r.report is None:
            rows.append(
                (r.name, r.error, "—", 0, f"{MARK[FAILED]} {FAILED}", "—", f"{r.seconds:.2f} s")
            )
            continue
        rep = r.report
        status = rep.status_under(strict)
        resting = sum(1 for res in rep.results if res.rests_on)
        note = f" ({resting} resting on admitted facts)" if resting and status == "proved" else ""
        rows.append(
            (
                r.name,
                rep.title,
                rep.source,
                len(rep.results),
                f"{MARK[status]} {status}{note}",
                report_backing(rep),
                f"{r.seconds:.2f} s",
            )
        )
    return Table(
        "modules",
        "Theorem modules",
        ("module", "title", "source items", "claims", "status", "backing", "time"),
        tuple(rows),
    )


def dashboard(runs: Sequence[Run], seconds: float, strict: bool = False) -> str:
    """The status table of ``python -m proofs``: claims, modules, problems, overall line."""
    from symbolic.render.text import admitted_text, claims_table, summary_line, table_text

    reports = [r.report for r in runs if r.report is not None]
    parts = []
    if any(rep.results for rep in reports):
        parts.append(table_text(claims_table(reports, strict)))
    parts.append(table_text(modules_table(runs, strict)))
    problems = [
        f"  {rep.module} {res.claim.name}: {res.status} — {res.reason}"
        for rep in reports
        for res in rep.results
        if res.status != "proved"
    ]
    if strict:
        problems += [
            f"  {rep.module} {res.claim.name}: not proved under --strict — rests on"
            f"{admitted_text(res)}: "
            + "; ".join(
                s.statement + (f" (through {s.via})" if s.via else "") for s in res.rests_on
            )
            for rep in reports
            for res in rep.results
            if res.status == "proved" and res.rests_on
        ]
    problems += [f"  {r.name}: {r.error}" for r in runs if r.report is None]
    problems += [
        f"  {r.name}: no claims (a module must check at least one)"
        for r in runs
        if r.report is not None and not r.report.results
    ]
    if problems:
        parts.append("Not proved:\n" + "\n".join(problems))
    status = overall(runs, strict)
    claims = [
        res.strict_status() if strict else res.status for rep in reports for res in rep.results
    ]
    admitted = [
        res for rep in reports for res in rep.results if res.status == "proved" and res.rests_on
    ]
    facts = admitted_facts(admitted)
    resting = (
        f" ({len(admitted)} proved resting on admitted facts: "
        + ", ".join(
            _count(sum(1 for kind, *_ in facts if kind == k), noun)
            for k, noun in (("assumption", "assumption"), ("oracle", "oracle result"))
        )
        + ")"
        if admitted and not strict
        else ""
    )
    parts.append(
        f"{PROG}: {_count(len(claims), 'claim')} in {_count(len(runs), 'module')} — "
        f"{summary_line(claims)}{resting} — {status}{' under --strict' * strict} "
        f"(exit {exit_code_for(status)}) in {seconds:.2f} s"
    )
    return "\n\n".join(parts)


def admitted_facts(results: Sequence[Any]) -> set[tuple[str, str, str, str]]:
    """The distinct admitted facts that ``results`` rest on, as (kind, owner, statement,
    certificate): one assumption or oracle result counts once however many claims rest on it —
    its own claim's (owner: that claim) or inherited through uses (owner: ``Admitted.via``, the
    claim it belongs to). Summing each claim's list counted Cauchy's equation, admitted once by
    ``scaling.converse``, 21 times."""
    return {
        (a.kind, a.via or res.claim.name, a.statement, a.certificate)
        for res in results
        for a in res.rests_on
    }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def claims_index(runs: Sequence[Run]) -> dict[str, dict[str, Any]]:
    """Every claim by name, with its module, status, methods and the claims it uses / is used by.

    Names are unique across the toolkit; a repeated name is keyed ``<module>:<name>``.
    """
    index: dict[str, dict[str, Any]] = {}
    for run in runs:
        for res in run.report.results if run.report is not None else ():
            c = res.claim
            key = c.name if c.name not in index else f"{run.name}:{c.name}"
            index[key] = {
                "module": run.name,
                "title": c.title,
                "kind": c.kind,
                "source": c.source,
                "statement": res.claim.to_json()["statement"],
                "status": res.status,
                "strict_status": res.strict_status(),
                "assumptions": [s.statement for s in res.assumptions],
                "oracles": [s.statement for s in res.oracles],
                "definitions": len(res.definitions),
                "methods": list(res.methods),
                "seconds": round(res.verdict.seconds, 4),
                "uses": list(c.uses),
                "used_by": [],
            }
    for key, entry in index.items():
        for used in entry["uses"]:
            if used in index:
                index[used]["used_by"].append(key)
    return index


def json_report(
    runs: Sequence[Run], seconds: float, strict: bool = False, answers: dict | None = None
) -> dict[str, Any]:
    """The ``--json`` document (schema ``transformer-proofs/report/v2``, docs/json-schema.md);
    ``answers``: the second solver's answers from ``--smt2`` (issue 16), unless the runs'
    reports carry them already (``export_evidence``)."""
    from dataclasses import replace

    from symbolic.backing import annotate, with_second_checks
    from symbolic.versions import versions

    if answers is not None:
        runs = [replace(r, report=with_second_checks(r.name, r.report, answers)) for r in runs]

    status = overall(runs, strict)
    claims = claims_index(runs)
    statuses = [c["status"] for c in claims.values()]
    modules = []
    for r in runs:
        body = (
            r.report.to_json()
            if r.report is not None
            else {
                "module": f"proofs.{r.name}",
                "title": None,
                "source": None,
                "status": FAILED,
                "seconds": round(r.seconds, 4),
                "results": [],
                "tables": [],
                "data": {},
            }
        )
        modules.append(
            {
                "name": r.name,
                **body,
                "exit_code": exit_code_for(r.status),
                "error": r.error or None,
                "import_seconds": round(r.import_seconds, 4),
            }
        )
    return annotate(
        {
            "schema": SCHEMA,
            "status": status,
            "exit_code": exit_code_for(status),
            "strict": strict,
            "summary": {
                "modules": len(runs),
                "claims": len(claims),
                **{s: statuses.count(s) for s in ("proved", "refuted", "unknown", "failed")},
                "resting_on_admitted": sum(
                    1 for c in claims.values() if c["assumptions"] or c["oracles"]
                ),
            },
            "seconds": round(seconds, 4),
            "versions": versions(),
            "modules": modules,
            "claims": claims,
            "missing_uses": sorted(
                {u for c in claims.values() for u in c["uses"] if u not in claims}
            ),
        },
        runs,
    )


def list_text(modules: Sequence[TheoremModule]) -> str:
    from symbolic.render.text import table_text

    rows = tuple((m.name, m.order[0], m.error or m.summary) for m in modules)
    return table_text(
        Table(
            "modules",
            "Theorem modules (python -m proofs.<module>)",
            ("module", "order", "about"),
            rows,
        )
    )


def list_json(modules: Sequence[TheoremModule]) -> dict[str, Any]:
    return {
        "schema": LIST_SCHEMA,
        "modules": [
            {"name": m.name, "order": m.order[0], "summary": m.summary, "error": m.error or None}
            for m in modules
        ],
    }


# --- Command line -----------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = base_parser(PROG, __doc__)
    p.epilog = "\n\n".join(__doc__.split("\n\n")[2:4])  # exit codes and examples
    p.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        default=[],
        help="check only this module (repeatable; e.g. --only exchange); with "
        "--recheck, a module or a claim of the export",
    )
    p.add_argument(
        "--path",
        action="append",
        metavar="DIR",
        default=[],
        help="check the theorem modules in DIR instead of the toolkit's own "
        "(repeatable); a module needs only its @claim functions",
    )
    p.add_argument(
        "--list", action="store_true", help="list the theorem modules without checking them"
    )
    p.add_argument(
        "--version",
        action="version",
        version=version_text(),
        help="print the toolkit's version and those of SymPy, Z3 and mpmath",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="a claim that rests on an assumption or an oracle result is not proved "
        "(exit 3, the claims named)",
    )
    return p


def version_text() -> str:
    from symbolic.versions import TOOLKIT_VERSION as __version__
    from symbolic.versions import versions

    v = versions()
    return (
        f"transformer-proofs {__version__} (sympy {v['sympy']}, z3-solver {v['z3-solver']}, "
        f"mpmath {v['mpmath']}, python {v['python']})"
    )


def select(modules: Sequence[TheoremModule], only: Sequence[str]) -> list[TheoremModule]:
    """The modules named by ``--only`` (``exchange`` or ``proofs.exchange``), in run order."""
    wanted = {name.removeprefix("proofs.") for name in only}
    unknown = sorted(wanted - {m.name for m in modules})
    if unknown:
        valid = ", ".join(m.name for m in modules) or "(none found)"
        raise LookupError(
            f"--only {unknown[0]!r}: no theorem module of that name; valid names: {valid}"
        )
    return [m for m in modules if m.name in wanted] if wanted else list(modules)


def main(argv: Sequence[str] | None = None, package: ModuleType = proofs) -> int:
    """``python -m proofs [options]``; ``package`` is where theorem modules are discovered."""
    start = time.perf_counter()
    args = parser().parse_args(argv)
    if args.fragment and args.latex is None:
        return usage_error(PROG, "--fragment goes with --latex")
    if args.recheck is not None:  # issue 16: from the files alone, no theorem module
        return recheck_main(args.recheck, PROG, args.only, args.z3_timeout)
    if args.path:
        try:
            modules = [m for folder in args.path for m in discover_path(folder)]
        except LookupError as exc:
            return usage_error(PROG, str(exc.args[0]))
    else:
        modules = discover(package) + (discover_entry_points() if package is proofs else [])
    if args.list:
        print(json.dumps(list_json(modules), indent=2) if args.json else list_text(modules))
        if not modules:
            print(f"{PROG}: {NO_MODULES}", file=sys.stderr)
        return EXIT_OK if modules else EXIT_UNKNOWN
    try:
        modules = select(modules, args.only)
    except LookupError as exc:
        return usage_error(PROG, str(exc.args[0]))
    runs = check(modules, args)
    seconds = time.perf_counter() - start
    for r in runs:
        if r.traceback:
            print(f"{PROG}: module {r.name}: {r.error}\n{r.traceback}", file=sys.stderr)
    try:  # issue 16: --smt2 exports the obligations (and --rechecked reads a re-check)
        runs = export_evidence(runs, args, PROG)
    except ToolkitError as exc:
        return usage_error(PROG, str(exc))
    reports = [r.report for r in runs if r.report is not None]
    if args.html:  # paper output (issue 14): the HTML blueprint, from the --json document
        try:
            emit_reports(reports, args, data=json_report(runs, seconds, args.strict))
        except ToolkitError as exc:
            return usage_error(PROG, str(exc))
        if not (args.json or args.latex is not None):
            print(dashboard(runs, seconds, args.strict))
    elif args.json or args.latex is not None:
        emit_reports(
            reports, args, data=json_report(runs, seconds, args.strict) if args.json else None
        )
    else:
        if args.verbose and reports:
            from symbolic.render.text import reports_text

            print(reports_text(reports, verbose=True) + "\n")
        print(dashboard(runs, seconds, args.strict))
    if not runs:
        print(f"{PROG}: {NO_MODULES}", file=sys.stderr)
    return exit_code_for(overall(runs, args.strict))


def entry_point() -> int:
    """The ``proofs`` console script: ``python -m proofs`` under another name."""
    try:
        return main()
    except BrokenPipeError:  # python -m proofs | head: stop quietly, like other filters
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(entry_point())
