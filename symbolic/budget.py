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
