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
