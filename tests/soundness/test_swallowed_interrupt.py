"""A time limit's interrupt that a library swallows and turns into another error (mpmath's
``ivmpf`` comparison converts its operand under a bare ``except:`` and answers
``NotImplemented``: ``gap.b < 0`` became ``TypeError`` under ``--sympy-timeout 0.000001``) is
still the limit: ``BudgetExceeded``, so the check is ``unknown``, never a crash."""

from __future__ import annotations

import pytest

from symbolic.limits import BudgetExceeded, deadline, interruptible

pytestmark = pytest.mark.skipif(not interruptible(), reason="needs SIGPROF on the main thread")


def _swallowing_library():
    while True:
        try:
            sum(range(10_000))
        except:  # noqa: E722 - what mpmath's ivmpf._compare does
            raise TypeError("'<' not supported between instances of 'ivmpf' and 'int'") from None


def test_a_swallowed_interrupt_comes_back_as_the_limit():
    with pytest.raises(BudgetExceeded, match="swallowed"), deadline(0.01):
        _swallowing_library()


def test_an_error_before_the_limit_stays_what_it_is():
    with pytest.raises(ZeroDivisionError), deadline(60):
        _ = 1 / 0


def test_an_interrupt_in_a_weak_reference_callback_lands_in_the_work():
    """A weak reference's callback (``weakref.finalize``, ``WeakKeyDictionary``'s ``remove``)
    runs when the collector drops its key; an exception raised there is unraisable, so the
    limit was lost ("Exception ignored in: ... remove" in a suite run) and the work ran on.
    Held, it lands in the work just after the callback returns."""
    import weakref

    class Key:
        pass

    def callback():  # about half of the time is spent here
        sum(range(5_000))

    with pytest.raises(BudgetExceeded), deadline(0.005):
        for _ in range(20_000):  # seconds of work: the limit must end it well before
            key = Key()
            weakref.finalize(key, callback)
            del key
            sum(range(5_000))
