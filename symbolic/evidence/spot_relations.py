"""A spot check of ``≠``, ``<`` or ``>`` (red-team round 11): random points cannot refute one.

A false ``a ≠ b`` or ``a > b`` fails only where the two sides meet — for the analytic sides
these formulas have, a set of measure zero — and a random rational point never lands there:
``∀x: e^x ≠ 2`` (false at x = ln 2) and ``(e^x − 2)² > 0`` were ``spot-checked`` (exit 0).
Such a formula is spot-checked only when, beside its points, the sign it claims of
``lhs − rhs`` follows from its symbols' assumptions (SymPy's, a number's sign certified:
``side_conditions.has``; the toolkit's one, ``2x·(4x/(x + 1)²)^(d/2 − 3/2)·e^{…}/(x + 1) > 0``
for positive x, d, β, does); ``unknown`` else. ``=``, ``≤`` and ``≥`` are left to the points
(a false one fails on an open set, or at a threshold ``spot_points`` finds).
"""

from __future__ import annotations

import sympy

from symbolic.evidence.numbers import difference
from symbolic.evidence.side_conditions import has
from symbolic.evidence.spot_checks import spot_check
from symbolic.kernel import ForAll

_SIGN = {"!=": "nonzero", ">": "positive", "<": "negative"}


def relation_spot_check(formula: sympy.Basic) -> tuple[str, str]:
    """``spot_check(formula)``, with a ``≠``, ``<`` or ``>`` spot-checked only where its
    symbols' assumptions give the sign it claims (``unknown`` else)."""
    outcome, text = spot_check(formula)
    body = formula.body if isinstance(formula, ForAll) else formula
    sign = _SIGN.get(getattr(body, "rel_op", None))
    if sign is None or outcome != "spot-checked":
        return outcome, text
    if has(difference(body), sign):
        return outcome, f"{text}; lhs − rhs {sign} by its symbols' assumptions"
    return "unknown", (
        f"not spot-checked ({text}; a {body.rel_op} fails only where its sides meet, which "
        "random points do not find, and its symbols' assumptions do not give it)"
    )
