"""Machine-checked claims about transformer layers: state them, check them, render them.

The public surface (about a dozen names): ``claim`` turns a generator of checked steps into a
``Result``; ``equal``, ``valid``, ``nonzero``, ``positive`` are steps decided by the trusted
kernel (SymPy, Z3, exact/interval certificates); ``uninterpreted`` is an arbitrary σ: ℝ → ℝ;
``assume`` admits a hypothesis (counted, never proved); ``assert_proved`` fails naming the step.
``Result`` and ``Report`` render themselves in Jupyter. See docs/api.md.
"""

from symbolic.api import (
    assert_proved,
    assume,
    claim,
    equal,
    nonzero,
    positive,
    uninterpreted,
    valid,
)
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table, Verdict
from symbolic.errors import InvalidArgument, InvalidExpression, ToolkitError
from symbolic.versions import TOOLKIT_VERSION as __version__

__all__ = [
    "__version__",
    "assert_proved",
    "assume",
    "claim",
    "equal",
    "nonzero",
    "positive",
    "uninterpreted",
    "valid",
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
