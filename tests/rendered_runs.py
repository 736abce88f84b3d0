"""What ``python -m proofs.exchange --json`` and ``python -m proofs.scaling -v`` print, rendered
from reports built as ``python -m proofs`` builds them, and what ``python -m proofs.exchange``
prints for user activations (test tooling, not installed). Run as a script, it does all three
in this fresh interpreter and prints them as one JSON object
(``tests/soundness/test_determinism.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULES = ("exchange", "scaling")
USER_ACTIVATIONS = [
    "--activation",
    "x*sigmoid(x)",
    "--activation",
    "relu(x)**2 + 1e-40*relu(x)**3",
    "--json",
    "--no-torch",
]  # the arguments of proofs.exchange


def rendered(reports: dict) -> dict[str, str]:
    from proofs._cli import json_document
    from symbolic.render.text import reports_text

    return {
        "proofs.exchange": json.dumps(json_document([reports["exchange"]])),
        "proofs.scaling": reports_text([reports["scaling"]], verbose=True),
    }


def main() -> None:
    sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).parent)]
    from commands import in_process

    from proofs.__main__ import check, discover

    runs = check([m for m in discover() if m.name in MODULES])
    shown = rendered({r.name: r.report for r in runs})
    user = in_process("proofs.exchange", USER_ACTIVATIONS)
    shown["user activations"] = user.stdout
    shown["user activations: exit code and stderr"] = f"{user.returncode}: {user.stderr[-500:]}"
    print(json.dumps(shown))


if __name__ == "__main__":
    main()
