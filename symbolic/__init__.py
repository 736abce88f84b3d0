"""Symbolic engine: claims, derivations, verdicts, backends (SymPy, Z3, intervals) and tables."""

from symbolic.engine import Claim, Derivation, Report, Result, Step, Table, Verdict
from symbolic.errors import InvalidArgument, InvalidExpression, ToolkitError

__all__ = [
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
