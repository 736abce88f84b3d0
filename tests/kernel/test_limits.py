"""Limits are a context, honoured on every thread, part of every cache key, never swallowed."""

from __future__ import annotations

import threading
import time

import pytest
import sympy

from symbolic.gated.analysis import analyze
from symbolic.kernel import check_equal, sympy_checks
from symbolic.limits import BudgetExceeded, current_limits, deadline, limits

x = sympy.Symbol("x", real=True)
SLOW = 0.3  # CPU seconds of work a patched simplification takes (well above the tiny limits)


def _spin(seconds: float) -> None:
    """Work (not sleep) for ``seconds`` of CPU time: the limits count CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def _slow_zero_form(expr, probe=None):
    end = time.process_time() + SLOW
    while time.process_time() < end:  # swallow the interrupt, as a gc callback would
        try:
            _spin(0.01)
        except BudgetExceeded:
            pass
    return sympy.Integer(0), None


def test_limits_do_not_leak_between_threads():
    seen = {}

    def worker():
        seen["limits"] = current_limits()

    with limits(sympy_timeout_s=0.5):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert current_limits().sympy_timeout_s == 0.5
    assert seen["limits"].sympy_timeout_s is None
    assert current_limits().sympy_timeout_s is None


def test_limits_only_tighten():
    with limits(sympy_timeout_s=1.0), limits(sympy_timeout_s=5.0):
        assert current_limits().sympy_timeout_s == 1.0


def test_an_overrun_off_the_main_thread_is_unknown(monkeypatch):
    monkeypatch.setattr(sympy_checks, "_zero_form", _slow_zero_form)
    out = {}

    def worker():
        with limits(sympy_timeout_s=0.05):
            out["fact"] = check_equal(x + 1, x + 1 + 0 * x**2)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert out["fact"].status == "unknown", out["fact"].verdict


def test_a_swallowed_interrupt_still_gives_unknown(monkeypatch):
    monkeypatch.setattr(sympy_checks, "_zero_form", _slow_zero_form)
    with limits(sympy_timeout_s=0.05):
        fact = check_equal(x + 1, x + 2 - 1)
    assert fact.status == "unknown" and "time limit" in fact.verdict.reason
    monkeypatch.undo()
    assert check_equal(x + 1, x + 2 - 1).status == "proved"  # the same check, unbounded


def test_deadline_records_expiry_even_when_the_interrupt_is_caught():
    with deadline(0.02) as dl:
        try:
            _spin(0.2)
        except BudgetExceeded:
            pass
    assert dl.expired


def test_the_limit_counts_cpu_time_not_time_asleep():
    """A limit is CPU time: waiting (a neighbour holding the core) does not use it up, so a
    check's outcome does not depend on how busy the machine is."""
    with deadline(0.05) as dl:
        time.sleep(0.2)
    assert not dl.expired
    with deadline(0.05) as dl:
        try:
            _spin(0.2)
        except BudgetExceeded:
            pass
    assert dl.expired and dl.fired


def test_the_analysis_cache_respects_the_limits_in_force():
    from symbolic.activations import z

    relu = sympy.Max(z, 0)
    with limits(sympy_timeout_s=1e-6, z3_timeout_ms=1):
        tiny = analyze(relu, "relu-limits-test")
    full = analyze(relu, "relu-limits-test")
    assert full.status == "proved" and full.degree == 1
    assert tiny is not full


def test_the_interrupt_waits_for_an_uninterrupted_block():
    """The kernel's bookkeeping (``verdict._mint``) runs in ``uninterrupted()``: a limit that
    passes inside is raised just after the block, never inside it."""
    from symbolic.limits import uninterrupted

    reached_the_end = False
    with pytest.raises(BudgetExceeded), deadline(0.01) as dl:
        with uninterrupted():
            _spin(0.05)  # the limit passes here; the interrupt is held
            reached_the_end = True
        _spin(1.0)  # raised here, just after the block
    assert reached_the_end and dl.expired


def test_the_interrupt_never_enters_the_minting_block():
    """An interrupt raised inside ``_mint`` (between setting its flag and the ``try`` that
    restores it) left Verdicts constructible outside the kernel, once, in a test worker; the
    block now holds the interrupt until the door is shut."""
    from symbolic.kernel.verdict import KernelViolation, Verdict, _mint

    inside_done = False
    with pytest.raises(BudgetExceeded), deadline(0.01):
        with _mint():
            _spin(0.05)
            inside_done = True
        _spin(1.0)
    assert inside_done
    with pytest.raises(KernelViolation):
        Verdict("proved", "forged")


def test_an_interrupt_never_cuts_the_bookkeeping_of_a_limit_in_half():
    """Thousands of inner limits inside an outer one: after each, the outer limit's handler is
    back and its timer runs, and the outer limit still interrupts its work at its own end.
    (Re-armed from the timer, which the system rounds up to its tick, the outer limit ran 8 s
    here. An interrupt landing in the disarming is provoked deterministically below.)"""
    import signal

    if not limits_module().interruptible():
        pytest.skip("no interval timer here")
    with pytest.raises(BudgetExceeded), deadline(0.4) as outer:
        outer_handler = signal.getsignal(signal.SIGPROF)
        for _ in range(INNER_LIMITS):
            try:
                with deadline(1e-6):
                    pass
            except BudgetExceeded:
                pass
            assert signal.getsignal(signal.SIGPROF) is outer_handler
            assert signal.getitimer(signal.ITIMER_PROF)[0] > 0
        _spin(30.0)  # interrupted at the outer limit
    # CPU time, not wall time: the same on a busy machine. Re-armed from the timer (which the
    # system rounds up to its tick) after each inner limit, the outer one ran for 5-10 s.
    assert outer.expired and outer.elapsed < 1.5, outer


INNER_LIMITS = 2000


def limits_module():
    import importlib

    return importlib.import_module("symbolic.limits")


def test_a_limit_gives_back_mpmath_precisions_as_it_found_them():
    """An interrupt landing in a ``finally`` that restores mpmath's precision (mpmath's own, or
    ours) left it changed: at 2 bits, the numeric cross-checks of a later table disagreed and
    claims came out ``failed`` under ``--sympy-timeout 0.0001``. The limit gives them back."""
    import mpmath

    with pytest.raises(BudgetExceeded), deadline(0.01):
        mpmath.mp.prec, mpmath.iv.prec = 2, 7  # what an interrupted restore leaves
        _spin(1.0)
    assert (mpmath.mp.prec, mpmath.iv.prec) == (53, 53)
    with mpmath.workprec(80), deadline(1.0):  # inside an outer precision: given back to it
        mpmath.iv.prec = 300
    assert mpmath.mp.prec == 53 and mpmath.iv.prec == 53


def test_a_limit_whose_exit_was_skipped_does_not_outlive_the_enclosing_one():
    """The ends of the armed limits form a stack; each limit's exit cuts it back to where it
    was entered. Were an inner exit ever skipped, the end it left behind (already passed, later)
    would make every later limit fire at once: every check ``unknown``."""
    if not limits_module().interruptible():
        pytest.skip("no interval timer here")
    outer = deadline(0.05)
    outer.__enter__()
    deadline(10.0).__enter__()  # entered, never exited
    outer.__exit__(None, None, None)
    _spin(0.1)  # the outer end is now in the past
    with deadline(1.0) as dl:
        _spin(0.1)  # not interrupted
    assert not dl.expired and limits_module()._ends() == []


def test_an_interrupt_held_in_the_last_exit_leaves_no_timer_behind(monkeypatch):
    """A signal that arrives just as the outermost limit disarms its timer is handled in its
    exit (held: the exit is protected). Re-armed there for "1 ms later", it went off once the
    default handler was back, and killed a test worker ("Profiling timer expired"). Here the
    signal is delivered at exactly that moment; nothing may be armed afterwards."""
    import signal
    import sys

    if not limits_module().interruptible():
        pytest.skip("no interval timer here")
    real, delivered = signal.setitimer, []

    def disarm_then_deliver(which, seconds, *rest):
        done = real(which, seconds, *rest)
        if seconds == 0 and not delivered:  # the pending signal, handled in the exit
            delivered.append(True)
            signal.getsignal(signal.SIGPROF)(signal.SIGPROF, sys._getframe(1))
        return done

    monkeypatch.setattr(signal, "setitimer", disarm_then_deliver)
    with deadline(1.0) as dl:
        pass
    left = signal.getitimer(signal.ITIMER_PROF)[0]
    real(signal.ITIMER_PROF, 0)  # (a broken exit would have the timer kill this process)
    assert delivered and dl.expired and left == 0


@pytest.mark.parametrize(
    "switch, changed", [("evaluate", False), ("distribute", False), ("exp_is_pow", True)]
)
def test_a_limit_gives_back_sympys_global_switches_as_it_found_them(switch, changed):
    """An interrupt landing in ``with sympy.evaluate(False)``'s own restore left evaluation off
    for the rest of the process (seen under load: ``1 + 2*64 != 129`` in every later test). The
    limit's exit gives the switch back, also when it ends by the limit."""
    from sympy.core.parameters import global_parameters

    before = getattr(global_parameters, switch)
    try:
        with pytest.raises(BudgetExceeded), deadline(5.0):
            setattr(global_parameters, switch, changed)  # an interrupted restore, as it leaves it
            raise BudgetExceeded("as the limit would")
        assert getattr(global_parameters, switch) == before
        with deadline(5.0):
            setattr(global_parameters, switch, changed)
        assert getattr(global_parameters, switch) == before
        assert sympy.Integer(1) + 2 * sympy.Integer(64) == 129
    finally:
        setattr(global_parameters, switch, before)


def test_switches_set_before_a_limit_are_kept():
    """The limit restores what it found, not SymPy's defaults: an enclosing ``evaluate(False)``
    is still off after the limit ends."""
    from sympy.core.parameters import global_parameters

    with sympy.evaluate(False):
        with deadline(5.0):
            pass
        assert global_parameters.evaluate is False
    assert global_parameters.evaluate is True
