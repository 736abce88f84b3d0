"""The toolkit's own reports, built once per test process (test tooling, not installed).

Many tests read the same reports (the theory index, the JSON schema, the LaTeX and HTML
exports, each module's claims); building them once per pytest worker keeps the suite within
its budget. Tests that check building itself (time limits, crashes) build their own.
"""

from __future__ import annotations

from functools import cache


@cache
def runs() -> tuple:
    from proofs.__main__ import check, discover

    return tuple(check(discover()))


def report(module: str):
    """The report of ``proofs.<module>`` from the shared run."""
    for r in runs():
        if r.name == module:
            return r.report
    raise LookupError(module)
