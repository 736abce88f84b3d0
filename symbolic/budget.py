"""Bounded work: a wall-clock limit for SymPy calls that can run away on hostile input.

Z3 has its own timeout (``symbolic.smt``); SymPy does not, so ``time_limit`` arms a
``SIGALRM`` timer around the call. It works in the main thread of a Unix process (where the
command-line tools run); elsewhere it cannot interrupt and the call runs unbounded, which the
caller learns from ``bounded()`` being False.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class BudgetExceeded(Exception):
    """The work did not finish within its time limit; the verdict is ``unknown``."""


def bounded() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``BudgetExceeded`` in the body after ``seconds`` of wall time (nests safely)."""
    if not bounded() or seconds <= 0:
        yield
        return

    def _alarm(signum, frame):  # noqa: ARG001
        raise BudgetExceeded(f"time limit of {seconds:g} s reached")

    started = time.monotonic()
    previous_handler = signal.signal(signal.SIGALRM, _alarm)
    previous_delay, _ = signal.getitimer(signal.ITIMER_REAL)
    delay = min(seconds, previous_delay) if previous_delay > 0 else seconds
    signal.setitimer(signal.ITIMER_REAL, delay)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay > 0:  # re-arm the outer limit with what is left of it
            left = previous_delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))


@dataclass(frozen=True)
class Limits:
    """Time limits of the backends. ``None`` means each call's own default."""

    z3_timeout_ms: int | None = None
    sympy_timeout_s: float | None = None


_current = Limits()


def current_limits() -> Limits:
    return _current


@contextmanager
def limits(z3_timeout_ms: int | None = None, sympy_timeout_s: float | None = None
           ) -> Iterator[None]:
    """Override the backends' time limits inside the block (e.g. a forced tiny Z3 timeout)."""
    global _current
    previous = _current
    _current = Limits(z3_timeout_ms if z3_timeout_ms is not None else previous.z3_timeout_ms,
                      sympy_timeout_s if sympy_timeout_s is not None
                      else previous.sympy_timeout_s)
    try:
        yield
    finally:
        _current = previous
