"""Where things are in the HTML blueprint: each module's page and source page, each claim's
anchor, and the index from claim names to the reports and results that hold them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symbolic.engine import Report, Result


def anchor(name: str) -> str:
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def module_file(module: str) -> str:
    return module.removeprefix("proofs.") + ".html"


def source_file(module: str) -> str:
    return f"src/{module.removeprefix('proofs.')}.py.html"


def claim_index(reports: Sequence[Report]) -> dict[str, tuple[Report, Result]]:
    index: dict[str, tuple[Report, Result]] = {}
    for rep in reports:
        for res in rep.results:
            index.setdefault(res.claim.name, (rep, res))
    return index
