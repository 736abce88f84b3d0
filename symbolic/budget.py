"""Bounded work for untrusted code (witness search, decision heuristics): the kernel's limits.

``time_limit(seconds)`` stops a search with ``BudgetExceeded`` (see ``symbolic.kernel.limits``:
a context, in CPU seconds, enforced on the main thread by ``SIGPROF`` and recorded everywhere).
A search that stops reports ``unknown`` through ``symbolic.kernel.undecided``; it never decides
anything.
"""

from __future__ import annotations

from symbolic.kernel import (
    BudgetExceeded,
    Limits,
    current_limits,
    deadline,
    interruptible,
    limits,
)

time_limit = deadline
bounded = interruptible

__all__ = [
    "BudgetExceeded",
    "Limits",
    "bounded",
    "current_limits",
    "deadline",
    "interruptible",
    "limits",
    "time_limit",
]
