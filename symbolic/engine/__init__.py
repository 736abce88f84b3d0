"""The proof engine's objects: claims, steps and derivations (``claims``); results, tables and
reports (``results``). Everything is a frozen dataclass; nothing prints. Text, JSON and LaTeX
are renderings of these objects (``symbolic.render``); verdicts and facts come from the trusted
kernel (``symbolic.kernel``) and nowhere else.
"""

from symbolic.engine.claims import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    FAILED,
    Admitted,
    Claim,
    Derivation,
    NumericCheck,
    Step,
    same_statement,
    says_nothing,
)
from symbolic.engine.results import (
    Report,
    Result,
    Table,
    exit_code_for,
    overall_status,
    resolve_reports,
    resolve_uses,
)
from symbolic.kernel import PROVED, REFUTED, UNKNOWN, Verdict, combine

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "EXIT_USAGE",
    "FAILED",
    "PROVED",
    "REFUTED",
    "UNKNOWN",
    "Admitted",
    "Claim",
    "Derivation",
    "NumericCheck",
    "Report",
    "Result",
    "Step",
    "Table",
    "Verdict",
    "combine",
    "exit_code_for",
    "overall_status",
    "resolve_reports",
    "resolve_uses",
    "same_statement",
    "says_nothing",
]
