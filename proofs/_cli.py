"""The shared command-line runner of every theorem module.

A theorem module exposes ``build_report(**options) -> Report`` and ends with::

    if __name__ == "__main__":
        raise SystemExit(run(build_report, __doc__))

``run`` parses the common options (``--json``, ``--latex [FILE]``, ``--fragment``, ``-v``), plus
module-specific ones added by ``add_arguments``, builds the report, prints one rendering and
returns the exit code (0 proved, 1 failed or refuted, 2 bad usage, 3 unknown).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from symbolic.engine import EXIT_UNKNOWN, EXIT_USAGE, Report
from symbolic.errors import InvalidArgument, OneLineErrorParser, ToolkitError
from symbolic.kernel import RuleError


def base_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog=prog,
        description=(doc or "").strip().split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,  # --ver must not silently mean --verbose
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    out.add_argument(
        "--latex",
        nargs="?",
        const="-",
        type=writable_file,
        metavar="FILE",
        help="write a standalone LaTeX document to FILE (stdout when FILE is omitted)",
    )
    parser.add_argument(
        "--fragment", action="store_true", help="with --latex: no preamble, for pasting"
    )
    # --- paper output (issue 14): LaTeX layout options and the HTML blueprint ---------------
    parser.add_argument(
        "--appendix",
        action="store_true",
        help="with --latex: statements and proofs only, no summary or tables",
    )
    parser.add_argument(
        "--section-level",
        default="section",
        metavar="LEVEL",
        choices=("chapter", "section", "subsection", "subsubsection", "paragraph"),
        help="with --latex: sectioning command of a module (default section; "
        "subsection nests the fragment under a section of the paper)",
    )
    parser.add_argument(
        "--timings",
        action="store_true",
        help="with --latex: print check times (off: two runs are identical)",
    )
    parser.add_argument(
        "--html",
        metavar="DIR",
        type=_output_folder,
        help="write a static HTML blueprint (index with the dependency graph, "
        "one page per module) to DIR; needs Graphviz dot",
    )
    # --- end of paper output options ------------------------------------------------------
    # --- issue 16: the evidence, exported and re-checked (docs/smt.md) ------------------------
    parser.add_argument(
        "--smt2",
        metavar="DIR",
        default=None,
        type=_output_folder,
        help="also write DIR/manifest.json and an obligation for every kernel "
        "step of the run under DIR (Z3 benchmarks, formulas as SMT-LIB 2, "
        "certificates, spot checks), and re-run each Z3 benchmark with "
        "cvc5 (backing z3+cvc5)",
    )
    parser.add_argument(
        "--recheck",
        metavar="DIR",
        default=None,
        help="re-check the export under DIR from its manifest and files alone "
        "(Z3, cvc5, exact and interval arithmetic, spot checks; the result "
        "also goes to DIR/recheck.json); no theorem is run",
    )
    parser.add_argument(
        "--rechecked",
        metavar="DIR",
        default=None,
        help="say z3+cvc5 for the Z3 obligations that DIR/recheck.json (from "
        "--recheck DIR) shows cvc5 proved, without running cvc5 again",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show every step's check")
    parser.add_argument(
        "--no-torch",
        action="store_true",
        help="numpy cross-checks only (torch's are added when it is installed; "
        "importing it takes ~2 s)",
    )
    parser.add_argument(
        "--z3-timeout",
        type=_positive_int,
        metavar="MS",
        help="cap every Z3 call at MS milliseconds (a check that runs out of "
        "time is unknown: exit 3)",
    )
    parser.add_argument(
        "--sympy-timeout",
        type=_positive_float,
        metavar="S",
        help="cap every SymPy simplification at S seconds of CPU time (unknown when hit)",
    )
    return parser


def writable_file(text: str) -> str:
    """``-`` (stdout) or a file in an existing, writable folder: checked before any work."""
    import os

    if text == "-":
        return text
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"{text!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK) or os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r}: cannot write a file there")
    return text


def _output_folder(text: str) -> str:
    """A folder that exists, or can be made in an existing, writable one (``--smt2 DIR``)."""
    import os

    if os.path.isdir(text):
        if not os.access(text, os.W_OK):
            raise argparse.ArgumentTypeError(f"{text!r}: cannot write in that folder")
        return text
    parent = os.path.dirname(os.path.abspath(text))
    if os.path.exists(text) or not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text!r}: not a folder, and cannot be made there")
    return text


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of milliseconds, got {text!r}"
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}")
    return value


NO_TORCH_ENV = "TRANSFORMER_PROOFS_NO_TORCH"  # set to 1: --no-torch for every command


def torch_wanted(args: argparse.Namespace) -> bool:
    """Run the torch cross-checks: installed, and not declined with ``--no-torch`` (or the
    environment variable ``TRANSFORMER_PROOFS_NO_TORCH=1``)."""
    import os
    from importlib.util import find_spec

    declined = getattr(args, "no_torch", False) or os.environ.get(NO_TORCH_ENV) == "1"
    return not declined and find_spec("torch") is not None


def torch_option(args: argparse.Namespace) -> dict[str, bool]:
    """``build_report`` options of a module whose only option is ``torch``."""
    return {"torch": torch_wanted(args)}


def usage_error(prog: str, message: str) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def emit_reports(reports: Sequence[Report], args: argparse.Namespace, data: Any = None) -> None:
    """Print the reports in the rendering the options ask for (text, JSON or LaTeX).

    A reader that closes the pipe early (``| head``) ends the output quietly.
    """
    try:
        _emit(reports, args, data)
        sys.stdout.flush()
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _emit(reports: Sequence[Report], args: argparse.Namespace, data: Any = None) -> None:
    if getattr(args, "html", None):  # paper output (issue 14): the HTML blueprint
        from symbolic.render.html_site import write_site

        try:
            site = write_site(reports, args.html, data=data)
        except OSError as exc:
            raise InvalidArgument(
                f"--html {args.html!r}: cannot write the site ({exc.strerror or exc})"
            ) from None
        print(f"wrote {site}", file=sys.stderr)
        if not (args.json or args.latex is not None):
            return
    if args.json:
        doc = data if data is not None else json_document(reports)
        print(json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False))
    elif args.latex is not None:
        from symbolic.render.latex_document import document

        tex = document(
            reports,
            fragment=args.fragment,
            timings=args.timings,
            appendix=args.appendix,
            section_level=args.section_level,
        )
        if args.latex == "-":
            sys.stdout.write(tex)
        else:
            try:
                with open(args.latex, "w", encoding="utf-8") as fh:
                    fh.write(tex)
            except OSError as exc:
                raise InvalidArgument(
                    f"--latex {args.latex!r}: cannot write the file "
                    f"({exc.strerror or exc}); check the folder exists"
                ) from None
            print(f"wrote {args.latex}", file=sys.stderr)
    else:
        from symbolic.render.text import reports_text

        print(reports_text(reports, verbose=args.verbose))


def json_document(reports: Sequence[Report]) -> dict[str, Any]:
    from symbolic.backing import annotate_report
    from symbolic.versions import versions

    bodies = [annotate_report(r.to_json(), r) for r in reports]
    if len(reports) == 1:
        return {**bodies[0], "versions": versions()}
    return {"reports": bodies, "versions": versions()}


@dataclass(frozen=True)
class ModuleRun:
    """A module command's report under its short name (``scaling``), as ``python -m proofs``
    names it: what ``export`` walks."""

    name: str
    report: Report


def export_evidence(runs: Sequence[Any], args: argparse.Namespace, prog: str) -> list[Any]:
    """The second solver's answers for ``runs`` (issue 16): with ``--smt2 DIR`` write every
    obligation and certificate under DIR, re-run each obligation with Z3 and cvc5 and print
    what was written (stderr); with ``--rechecked DIR`` read them from ``DIR/recheck.json``.
    The runs come back carrying the answers (``Report.second_checks``: backing ``z3+cvc5``)."""
    from dataclasses import replace

    from symbolic.backing import rechecked_answers, with_second_checks
    from symbolic.evidence.export import export

    if args.smt2 is not None:
        try:
            exported = export(runs, args.smt2)
        except OSError as exc:
            raise InvalidArgument(
                f"--smt2 {args.smt2!r}: cannot write there ({exc.strerror or exc})"
            ) from None
        print(
            f"{prog}: wrote {len(exported.smt2)} Z3 benchmarks, {len(exported.obligations)} "
            f"SMT obligations, {len(exported.certificates)} certificates and "
            f"{len(exported.spot)} spot checks for {exported.steps} facts to {args.smt2}, "
            f"with manifest.json ({len(exported.skipped)} checked facts without an "
            "obligation)",
            file=sys.stderr,
        )
        answers = exported.answers
    elif args.rechecked is not None:
        try:
            answers = rechecked_answers(runs, args.rechecked)
        except ValueError as exc:
            raise InvalidArgument(f"--rechecked: {exc}") from None
    else:
        return list(runs)
    return [replace(r, report=with_second_checks(r.name, r.report, answers)) for r in runs]


def recheck_main(
    directory: str, prog: str, only: Sequence[str] = (), z3_timeout_ms: int | None = None
) -> int:
    """``--recheck DIR [--only NAME ...] [--z3-timeout MS]``: the table (obligation, z3, cvc5,
    certificate) and its exit code."""
    import os

    from symbolic.engine import Table
    from symbolic.evidence.recheck import UnknownName, recheck
    from symbolic.evidence.report import summary
    from symbolic.render.text import table_text

    if not os.path.isdir(directory):
        return usage_error(prog, f"--recheck {directory}: no such directory")
    from symbolic.limits import limits

    try:
        with limits(z3_timeout_ms=z3_timeout_ms):
            rows, code, versions = recheck(directory, only)
    except UnknownName as exc:
        return usage_error(prog, f"--only: {exc}")
    table = table_text(
        Table(
            "recheck",
            f"Re-checked from {directory}",
            ("claim", "fact", "check", "answer", "outcome"),
            tuple(r.cells() for r in rows),
        )
    )
    print(_printable(table))
    print(_printable(f"\n{prog} --recheck: {summary(rows, code, versions)}"))
    return code


def _printable(text: str) -> str:
    """``text`` as it can be printed: a lone surrogate (a folder name that is not UTF-8, or
    one a hostile file smuggled in) shown as its escape, never a UnicodeEncodeError."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def timed_build(
    build: Callable[..., Report], args: argparse.Namespace | None = None, **options: Any
) -> Report:
    """``build(**options)`` under the time limits the options ask for, with its wall time."""
    from dataclasses import replace

    from symbolic.engine import resolve_reports
    from symbolic.limits import limits

    start = time.perf_counter()
    with limits(getattr(args, "z3_timeout", None), getattr(args, "sympy_timeout", None)):
        report = resolve_reports([build(**options)])[0]
    return replace(report, seconds=time.perf_counter() - start)


def run(
    build: Callable[..., Report],
    doc: str | None,
    prog: str,
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
    options: Callable[[argparse.Namespace], dict[str, Any]] | None = None,
    argv: Sequence[str] | None = None,
    json_data: Callable[[Report, argparse.Namespace], Any] | None = None,
) -> int:
    """The one runner of every module command: parse ``argv``, build the module's report under
    the time limits the options set (``--z3-timeout``, ``--sympy-timeout``), print it, return
    the exit code. ``json_data(report, args)`` replaces the ``--json`` document when given
    (and not None)."""
    parser = base_parser(prog, doc)
    if add_arguments:
        add_arguments(parser)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(attach_dash_values(argv, parser, VALUE_OPTIONS))
    if args.fragment and args.latex is None:
        return usage_error(prog, "--fragment goes with --latex")
    if args.recheck is not None:  # issue 16: from the files alone, no theorem is run
        return recheck_main(args.recheck, prog, z3_timeout_ms=args.z3_timeout)
    try:
        report = timed_build(build, args, **(options(args) if options else {}))
        name = report.module.rsplit(".", 1)[-1]
        report = export_evidence([ModuleRun(name, report)], args, prog)[0].report
        data = json_data(report, args) if (args.json and json_data) else None
        emit_reports([report], args, data=data)
    except RuleError as exc:  # the kernel refused one of the derivation's own steps
        print(
            f"{prog}: unknown: the kernel refused a step ({exc}); nothing is claimed",
            file=sys.stderr,
        )
        return EXIT_UNKNOWN
    except ToolkitError as exc:
        return usage_error(prog, str(exc))
    return report.exit_code


VALUE_OPTIONS = ("--activation", "--layer", "--transform", "--param")


def attach_dash_values(
    argv: list[str], parser: argparse.ArgumentParser, names: Sequence[str]
) -> list[str]:
    """``--activation -x/3`` → ``--activation=-x/3``: a value that starts with ``-`` but is no
    option of ``parser`` belongs to the option before it (argparse would reject it)."""
    known = set(parser._option_string_actions)
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if (
            token in names
            and token in known
            and nxt is not None
            and nxt.startswith("-")
            and nxt.split("=")[0] not in known
        ):
            out.append(f"{token}={nxt}")
            i += 2
            continue
        out.append(token)
        i += 1
    return out


def activation_json(report: Report) -> object:
    """DESIGN's ``--activation --json`` contract: one object per activation (a list when
    several were given), from ``report.data["activations"]``; the per-activation results are
    the report's last ones, and each object says whether their numeric checks agree."""
    objects = [dict(o) for o in report.data["activations"]]
    for obj, result in zip(objects, report.results[-len(objects) :], strict=True):
        obj["numeric_agrees"] = all(n.agrees for n in result.numeric)
    return objects[0] if len(objects) == 1 else objects


def add_activation_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--activation",
        action="append",
        metavar="EXPR_OR_NAME",
        help="analyse this activation: a table name (relu, gelu, ...) or an "
        "expression in x such as 'x*sigmoid(x)'; repeatable",
    )


def run_with_activations(
    build: Callable[..., Report], doc: str | None, prog: str, argv: Sequence[str] | None = None
) -> int:
    """``run`` for a module whose report can be asked about user activations
    (``--activation``, repeatable): ``build(activations=..., torch=...)``."""
    return run(
        build,
        doc,
        prog,
        add_activation_argument,
        lambda a: {"activations": a.activation, "torch": torch_wanted(a)},
        argv,
        lambda report, a: activation_json(report) if a.activation else None,
    )
