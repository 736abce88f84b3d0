"""A time limit's interrupt never lands in another library's callback (a ``gc`` callback, a
``__del__``), where the interpreter would swallow it as "unraisable": it lands in the work
just after the callback returns."""

from __future__ import annotations

import gc
import sys
import time

import pytest

from symbolic.limits import BudgetExceeded, deadline, interruptible

pytestmark = pytest.mark.skipif(not interruptible(), reason="needs the SIGPROF timer")


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class _Slow:
    def __del__(self):
        _spin(0.05)


def _unraisable_during(work, monkeypatch) -> tuple[list, bool]:
    seen: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_type))
    stopped = False
    try:
        with deadline(0.01):
            work()
            _spin(1.0)  # the work after the callback: the limit must stop it
    except BudgetExceeded:
        stopped = True
    return seen, stopped


def test_an_interrupt_due_in_a_gc_callback_lands_after_it(monkeypatch):
    def callback(phase, info):  # a library's gc callback (Hypothesis has one)
        if phase == "start":
            _spin(0.05)

    gc.callbacks.append(callback)
    try:
        seen, stopped = _unraisable_during(gc.collect, monkeypatch)
    finally:
        gc.callbacks.remove(callback)
    assert seen == [] and stopped


def test_an_interrupt_due_in_a_finalizer_lands_after_it(monkeypatch):
    def work():
        x = _Slow()
        del x

    seen, stopped = _unraisable_during(work, monkeypatch)
    assert seen == [] and stopped
