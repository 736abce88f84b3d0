"""Rigorous interval enclosures of special functions, consulted by ``symbolic.kernel.intervals``.

``SPECIAL`` maps a SymPy function class to a callable taking ``mpmath.iv`` intervals (one per
argument) and returning an interval guaranteed to contain the function's value on them.
An entry belongs here only with a proof of its enclosure (series with a bounded remainder,
monotonicity) and tests against high-precision values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SPECIAL: dict[type, Callable[..., Any]] = {}
