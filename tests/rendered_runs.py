"""What ``python -m proofs.exchange --json`` and ``python -m proofs.scaling -v`` print, rendered
from reports built as ``python -m proofs`` builds them (test tooling, not installed). Run as a
script, it builds the two reports in this fresh interpreter and prints the renderings as JSON
(``tests/soundness/test_determinism.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULES = ("exchange", "scaling")


def rendered(reports: dict) -> dict[str, str]:
    from proofs._cli import json_document
    from symbolic.render import reports_text

    return {"proofs.exchange": json.dumps(json_document([reports["exchange"]])),
            "proofs.scaling": reports_text([reports["scaling"]], verbose=True)}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from proofs.__main__ import check, discover

    runs = check([m for m in discover() if m.name in MODULES])
    print(json.dumps(rendered({r.name: r.report for r in runs})))


if __name__ == "__main__":
    main()
