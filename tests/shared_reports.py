"""The toolkit's own reports, built once per test process (test tooling, not installed).

Many tests read the same reports (the theory index, the JSON schema, the LaTeX and HTML
exports, each module's claims); building each once per pytest worker keeps the suite within
its budget. ``report(module)`` builds only that module, so a worker that runs one module's
tests builds one module; ``runs()`` builds the rest. Tests that check building itself (time
limits, crashes) build their own.
"""

from __future__ import annotations

_built: dict = {}  # module name -> its Run, built in this process


def _run(module) -> object:
    from proofs.__main__ import check

    if module.name not in _built:
        _built[module.name] = check([module])[0]
    return _built[module.name]


def runs() -> tuple:
    """Every theorem module's run, in discovery order."""
    from proofs.__main__ import discover

    return tuple(_run(m) for m in discover())


def report(module: str):
    """The report of ``proofs.<module>``."""
    from proofs.__main__ import discover

    for m in discover():
        if m.name == module:
            return _run(m).report
    raise LookupError(module)
