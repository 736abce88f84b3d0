"""Running the toolkit's commands from tests (test tooling, not installed).

``in_process`` runs a command's ``main`` in this process — what ``python -m module`` runs, without
the interpreter's start-up and imports (about 1.5 s a request) — and reports what the
interpreter would: ``SystemExit`` gives its code, any other exception a traceback on stderr and
exit 1. ``in_subprocess`` runs the real command in a fresh interpreter, for what only a process
shows (start-up imports, hash randomisation, the streams of a real exit).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def in_process(
    module: str, args: list[str], cwd: Path | None = None, report=None
) -> subprocess.CompletedProcess:
    """``python -m module args`` (in ``cwd`` when given) through ``module.main`` here. With
    ``report`` (the suite's shared one, ``tests/shared_reports.py``), the module's
    ``build_report`` answers it instead of building it again, unless asked about activations:
    what the command prints of that report."""
    mod = importlib.import_module("proofs.__main__" if module == "proofs" else module)
    out, err = io.StringIO(), io.StringIO()
    where = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
    built = contextlib.nullcontext()
    if report is not None:
        from unittest import mock

        build = mod.build_report
        built = mock.patch.object(
            mod, "build_report", lambda **kw: build(**kw) if kw.get("activations") else report
        )
    with where, built, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main = mod.main
        try:
            code = main(list(args))
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
        except BaseException:  # noqa: BLE001 - the interpreter would print it: so do we
            traceback.print_exc()
            code = 1
    return subprocess.CompletedProcess([module, *args], code, out.getvalue(), err.getvalue())


def in_subprocess(
    module: str, args: list[str], cwd: Path = ROOT, timeout: float = 300.0
) -> subprocess.CompletedProcess:
    """``python -m module args`` in a fresh interpreter that imports this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
