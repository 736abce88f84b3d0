"""Limits on the backends' work: a context, honoured on every thread, never swallowed.

``limits(z3_timeout_ms=..., sympy_timeout_s=...)`` sets the limits for the code in its block
(a ``ContextVar``, so a limit set in one thread, task or test does not leak into another).
Every checker runs its work under ``deadline(seconds)``, which

* arms a ``SIGPROF`` timer where one can interrupt (the main thread of a Unix process) and
  raises ``BudgetExceeded`` in the work, and
* records when the limit was passed, so that a check that overran — off the main thread, or
  because the interrupt was raised where it is swallowed (a ``gc`` callback) — is reported
  ``unknown`` by its checker all the same (``Deadline.expired``).

An overrun never turns into a pass: at the bound the answer is ``unknown``.

The interrupt never lands in the limits' own bookkeeping (arming, disarming and re-arming the
timer, restoring the handler) nor in ``uninterrupted()`` blocks: there it is held and raised
1 ms of CPU time later. Cut in half, that bookkeeping left the enclosing limit without a timer,
and its work ran unbounded (seen: ``expand_log`` for minutes under ``--sympy-timeout 0.0001``).
A limit also gives back mpmath's precisions and SymPy's global switches (``evaluate``,
``distribute``, ``exp_is_pow``) as it found them: an interrupt landing in a ``finally`` that
restores them (``with sympy.evaluate(False)``'s own, mpmath's, or ours) would otherwise leave
them changed — every later ``1 + 2*64`` unevaluated, for every check after it in the process.

Limits are in seconds of this process's CPU time (``time.process_time``, ``ITIMER_PROF``), not
wall time: a neighbour on a busy machine takes wall time, not CPU time, so where a check ends
does not depend on how loaded the machine is.
"""

from __future__ import annotations

import _weakrefset
import gc
import signal
import threading
import time
import types
import weakref
from contextvars import ContextVar
from dataclasses import dataclass, field

import mpmath
from sympy.core.parameters import global_parameters


class BudgetExceeded(Exception):
    """The work did not finish within its time limit; the verdict is ``unknown``."""


@dataclass(frozen=True)
class Limits:
    """Caps on the backends' time limits. ``None``: each call's own default."""

    z3_timeout_ms: int | None = None
    sympy_timeout_s: float | None = None

    def sympy_seconds(self, default: float) -> float:
        return default if self.sympy_timeout_s is None else min(default, self.sympy_timeout_s)

    def z3_ms(self, default: int) -> int:
        return default if self.z3_timeout_ms is None else min(default, self.z3_timeout_ms)


_LIMITS: ContextVar[Limits] = ContextVar(
    "symbolic.limits",
    default=Limits(),  # noqa: B039 - Limits is a frozen dataclass
)


def current_limits() -> Limits:
    return _LIMITS.get()


class _Capped:
    """``limits(...)``: a class, so that its ``__exit__`` is protected code (an interrupt
    landing before the reset would leave the caps in force after the block)."""

    def __init__(self, z3_timeout_ms: int | None, sympy_timeout_s: float | None):
        self.caps = z3_timeout_ms, sympy_timeout_s

    def __enter__(self) -> Limits:
        outer, (z3_ms, sympy_s) = _LIMITS.get(), self.caps
        inner = Limits(
            _tighter(outer.z3_timeout_ms, z3_ms), _tighter(outer.sympy_timeout_s, sympy_s)
        )
        self.token = _LIMITS.set(inner)
        return inner

    def __exit__(self, *exc: object) -> bool:
        _LIMITS.reset(self.token)
        return False


def limits(z3_timeout_ms: int | None = None, sympy_timeout_s: float | None = None) -> _Capped:
    """Cap the backends' time limits inside the block (caps only tighten, never loosen)."""
    return _Capped(z3_timeout_ms, sympy_timeout_s)


def _tighter(a, b):
    return b if a is None else a if b is None else min(a, b)


@dataclass
class Deadline:
    """A time limit being enforced; ``expired`` once it has been passed, interrupted or not."""

    seconds: float
    started: float = field(default_factory=time.process_time)
    fired: bool = False
    finished: float | None = None

    @property
    def elapsed(self) -> float:
        return (self.finished or time.process_time()) - self.started

    @property
    def expired(self) -> bool:
        return self.fired or self.elapsed > self.seconds


def interruptible() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


_HELD = threading.local()  # depth of uninterrupted() blocks on this thread
HELD_RETRY_S = 1e-3  # a held interrupt is raised this much CPU time later
_PROTECTED: set[types.CodeType] = set()  # code the interrupt never lands in (filled below)
PROTECTED_DEPTH = 4  # frames looked at: the bookkeeping's own, and what it calls
_STACK = threading.local()  # the CPU-time ends of the limits armed on this thread, outermost first


def _held(frame: types.FrameType | None) -> bool:
    """Must an interrupt arriving in ``frame`` wait? Inside ``uninterrupted()``, in the
    limits' bookkeeping (or a function it called: the dataclass ``__init__``, a property), or
    in a callback of the interpreter's whose exceptions are swallowed."""
    if getattr(_HELD, "depth", 0):
        return True
    first = frame
    for _ in range(PROTECTED_DEPTH):
        if frame is None:
            break
        if frame.f_code in _PROTECTED:
            return True
        frame = frame.f_back
    return _in_swallowing_callback(first)


def _in_swallowing_callback(frame: types.FrameType | None) -> bool:
    """Is ``frame`` inside a ``gc`` callback (Hypothesis registers one) or a ``__del__``?
    An exception raised there is not the work's: the interpreter reports it as "unraisable"
    and goes on, so the limit would be lost (``PytestUnraisableExceptionWarning`` in every
    run). Held, the interrupt lands in the work 1 ms after the callback returns."""
    callbacks = {c.__code__ for c in gc.callbacks if hasattr(c, "__code__")}
    while frame is not None:
        code = frame.f_code
        if code in callbacks or code.co_name == "__del__" or code.co_filename in _WEAKREF_FILES:
            return True
        frame = frame.f_back
    return False


# A weak reference's callback (``WeakKeyDictionary``'s ``remove``, ``WeakSet``'s ``_remove``,
# ``weakref.finalize``) runs when the collector drops a key: an exception there is unraisable
# too (seen: "Exception ignored in: WeakKeyDictionary.__init__.<locals>.remove").
_WEAKREF_FILES = frozenset(
    getattr(m, "__file__", "") for m in (weakref, _weakrefset) if getattr(m, "__file__", "")
)


def _ends() -> list[float]:
    if not hasattr(_STACK, "ends"):
        _STACK.ends = []
    return _STACK.ends


class _Uninterrupted:
    """``uninterrupted()``: a class, not a generator, so that its ``__enter__`` and ``__exit__``
    are the protected code itself (a generator's ``contextlib`` wrapper runs a few steps of
    its own before the generator)."""

    def __enter__(self) -> None:
        _HELD.depth = getattr(_HELD, "depth", 0) + 1

    def __exit__(self, *exc: object) -> bool:
        _HELD.depth -= 1
        return False


def uninterrupted() -> _Uninterrupted:
    """A block the time limit's interrupt does not enter: it fires just after the block ends.
    For the kernel's own bookkeeping (``verdict._mint`` setting and restoring its flag), which
    an exception raised between two of its steps would leave half done."""
    return _Uninterrupted()


_SWITCHES = ("evaluate", "distribute", "exp_is_pow")


def _sympy_switches() -> tuple:
    return tuple(getattr(global_parameters, name) for name in _SWITCHES)


def _set_sympy_switches(values: tuple) -> None:
    for name, value in zip(_SWITCHES, values, strict=True):
        setattr(global_parameters, name, value)


class _Armed:
    """``deadline(seconds)`` on a thread that can be interrupted: ``__enter__`` arms the timer
    (for this limit, or the enclosing one's end if sooner), ``__exit__`` disarms it, gives the
    handler and mpmath's precisions back and re-arms the enclosing limit. Both are protected."""

    def __init__(self, dl: Deadline):
        self.dl = dl
        self.exiting = False

    def _alarm(self, signum, frame) -> None:  # noqa: ARG002
        self.dl.fired = True
        if _held(frame):  # in bookkeeping that must not be cut in half: interrupt just after
            if not self.exiting:  # (in this limit's own exit: the exit re-arms what is left)
                signal.setitimer(signal.ITIMER_PROF, HELD_RETRY_S)
            return
        raise BudgetExceeded(f"time limit of {self.dl.seconds:g} s reached")

    def __enter__(self) -> Deadline:
        dl, ends = self.dl, _ends()
        self.precisions = mpmath.mp.prec, mpmath.iv.prec
        self.switches = _sympy_switches()
        self.depth = len(ends)  # __exit__ cuts the stack back to this, whatever is above it
        self.previous_handler = signal.signal(signal.SIGPROF, self._alarm)
        try:
            previous_delay, _ = signal.getitimer(signal.ITIMER_PROF)
            # The enclosing limit's end in CPU time: from the stack, not read back from the
            # timer, which the system rounds up to its tick (re-armed from it after each of
            # thousands of inner checks, an outer limit of 5 s once ran 25 s).
            self.outer_end = (
                ends[-1] if ends else (dl.started + previous_delay if previous_delay > 0 else None)
            )  # another timer
            end = dl.started + dl.seconds
            if self.outer_end is not None:
                end = min(end, self.outer_end)
            ends.append(end)
            signal.setitimer(signal.ITIMER_PROF, max(end - time.process_time(), 1e-6))
        except BaseException:  # not armed after all: leave everything as it was
            del ends[self.depth :]
            signal.signal(signal.SIGPROF, self.previous_handler)
            raise
        return dl

    def __exit__(self, *exc: object) -> bool:
        # A signal that arrived just before the timer was disarmed is handled here (at the
        # latest when the handler is swapped back): held, and not re-armed — re-armed, it
        # went off under the default handler once this was the outermost limit, and killed
        # the process ("Profiling timer expired").
        self.exiting = True
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, self.previous_handler)
        del _ends()[self.depth :]
        self.dl.finished = time.process_time()
        if (mpmath.mp.prec, mpmath.iv.prec) != self.precisions:
            mpmath.mp.prec, mpmath.iv.prec = self.precisions
        if _sympy_switches() != self.switches:
            _set_sympy_switches(self.switches)
        if self.outer_end is not None:  # re-arm the enclosing limit with what is left of it
            signal.setitimer(signal.ITIMER_PROF, max(self.outer_end - self.dl.finished, 1e-4))
        error = exc[1] if len(exc) > 1 else None
        if self.dl.fired and isinstance(error, Exception) and not isinstance(error, BudgetExceeded):
            # The interrupt was swallowed by a library and came back as another error: mpmath's
            # ivmpf comparison converts its operand under a bare ``except:`` and answers
            # NotImplemented, so ``gap.b < 0`` raised TypeError. Past the limit it is the limit.
            raise BudgetExceeded(
                f"time limit of {self.dl.seconds:g} s reached "
                f"(seen as {type(error).__name__} where a library swallowed the interrupt)"
            ) from error
        return False


class _Unarmed:
    """``deadline(seconds)`` where no interrupt can be delivered: expiry is only recorded."""

    def __init__(self, dl: Deadline):
        self.dl = dl

    def __enter__(self) -> Deadline:
        return self.dl

    def __exit__(self, *exc: object) -> bool:
        self.dl.finished = time.process_time()
        return False


def deadline(seconds: float) -> _Armed | _Unarmed:
    """Run the body under a limit of ``seconds`` of CPU time (nests; inner limits never extend
    outer ones). Raises ``BudgetExceeded`` where it can interrupt; always records expiry."""
    dl = Deadline(max(seconds, 0.0))
    return _Armed(dl) if interruptible() else _Unarmed(dl)


_PROTECTED.update(
    f.__code__
    for f in (
        _Uninterrupted.__enter__,
        _Uninterrupted.__exit__,
        _Armed.__enter__,
        _Armed.__exit__,
        _Armed._alarm,
        _Capped.__enter__,
        _Capped.__exit__,
    )
)
