"""Symbolic engine: claims, derivations, verdicts, backends (SymPy, Z3, intervals) and tables."""

from importlib import metadata as _metadata

from symbolic.engine import Claim, Derivation, Report, Result, Step, Table, Verdict
from symbolic.errors import InvalidArgument, InvalidExpression, ToolkitError

try:
    __version__ = _metadata.version("transformer-proofs")
except _metadata.PackageNotFoundError:  # a source tree without an install
    __version__ = "0+unknown"

__all__ = [
    "__version__",
    "Claim",
    "Derivation",
    "InvalidArgument",
    "InvalidExpression",
    "Report",
    "Result",
    "Step",
    "Table",
    "ToolkitError",
    "Verdict",
]
