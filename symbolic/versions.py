"""Versions of the backends that produced a result (for reports and reproducibility)."""

from __future__ import annotations

import platform
from functools import cache
from importlib import metadata

try:
    TOOLKIT_VERSION = metadata.version("transformer-proofs")
except metadata.PackageNotFoundError:  # a source tree without an install
    TOOLKIT_VERSION = "0+unknown"


@cache
def versions() -> dict[str, str | None]:
    """Python and the libraries the toolkit uses; None for an optional one not installed."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for dist in ("sympy", "z3-solver", "mpmath", "python-flint", "numpy", "torch"):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = None
    return found


def backend(name: str) -> str:
    """``"sympy 1.14.0"`` style label of one backend."""
    dist = {"z3": "z3-solver"}.get(name, name)
    return f"{name} {versions().get(dist) or '?'}"
