"""Verdicts, and the guard that lets only the kernel make them.

A ``Verdict`` says what a backend decided: ``proved``, ``refuted`` or ``unknown``, with the
method, the witness of a refutation, the certificate, the backend's version, its time limit and
the time taken. It can be *read* anywhere but *made* only inside ``symbolic.kernel``: its
``__post_init__`` refuses to run unless the kernel's private ``_mint()`` block is active, so
``Verdict("proved", ...)``, ``dataclasses.replace(verdict, status="proved")`` and any
constructor call from outside raise ``KernelViolation``. (Python cannot stop code that reaches
into the kernel's private names or ``object.__setattr__``; ``tests/test_architecture.py``
fails on any module outside the kernel that does.)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, Literal

from symbolic.errors import ToolkitError
from symbolic.limits import current_limits, uninterrupted

Status = Literal["proved", "refuted", "unknown"]
PROVED: Status = "proved"
REFUTED: Status = "refuted"
UNKNOWN: Status = "unknown"

_MINTING: ContextVar[bool] = ContextVar("symbolic.kernel.minting", default=False)


class KernelViolation(ToolkitError, TypeError):
    """Code outside ``symbolic.kernel`` tried to make a verdict or a fact."""


@contextmanager
def _mint() -> Iterator[None]:
    """The only door through which a Verdict or a Fact is constructed (kernel-private). The
    time limit's interrupt waits until the door is shut again: raised between setting the flag
    and the ``try`` that restores it, it left the door open for the rest of the context (seen:
    ``Verdict("proved", ...)`` outside the kernel no longer raised, later in a test worker)."""
    with uninterrupted():
        previous = _MINTING.get()
        _MINTING.set(True)
        try:
            yield
        finally:
            _MINTING.set(previous)


def _guard(kind: str) -> None:
    if not _MINTING.get():
        raise KernelViolation(
            f"a {kind} can only be made by symbolic.kernel (a checker, "
            "define or assume); build steps from kernel facts"
        )


class Sealed:
    """Kernel objects are final and stay in their process: no subclass (a subclass could lie
    about ``status``), no pickling (a pickle is code to whoever loads it; evidence leaves the
    process as exported files, re-checked by ``--recheck``), copies are the object itself."""

    __slots__ = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        if not cls.__module__.startswith("symbolic.kernel."):
            raise KernelViolation(f"{cls.__name__}: kernel objects cannot be subclassed")
        super().__init_subclass__(**kw)

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise KernelViolation(
            f"a {type(self).__name__} cannot be pickled: export the evidence "
            "(python -m proofs --smt2 DIR) and re-check it (--recheck DIR)"
        )

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: Any) -> Any:
        return self


@dataclass(frozen=True, slots=True)
class Verdict(Sealed):
    """What a backend decided about one formula. Never a bare bool.

    ``witness`` maps names to exact values (strings) for a refutation; ``certificate`` says how
    a number was certified (an exact value or an outward-rounded interval).
    """

    status: Status
    method: str
    reason: str = ""
    witness: tuple[tuple[str, str], ...] = ()
    certificate: str = ""
    backend: str = ""
    timeout_s: float | None = None
    seconds: float = 0.0

    def __post_init__(self) -> None:
        _guard("verdict")
        if self.status not in (PROVED, REFUTED, UNKNOWN):
            raise KernelViolation(f"status={self.status!r}: expected proved, refuted or unknown")

    def __init_subclass__(cls, **kw: Any) -> None:
        raise KernelViolation("Verdict is final: it cannot be subclassed")

    @property
    def decided(self) -> bool:
        return self.status != UNKNOWN

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "method": self.method,
            "reason": self.reason,
            "witness": dict(self.witness) or None,
            "certificate": self.certificate or None,
            "backend": self.backend or None,
            "timeout_s": self.timeout_s,
            "seconds": round(self.seconds, 4),
        }


def _verdict(status: Status, method: str, reason: str = "", **kw: Any) -> Verdict:
    with _mint():
        return Verdict(status, method, reason, **kw)


def _revise(v: Verdict, **changes: Any) -> Verdict:
    with _mint():
        return replace(v, **changes)


class Clock:
    """A check's time: its limit (``timeout_s`` under the context's cap) and the time since it
    started. ``verdict`` fills in both, and the check's method and backend, unless given."""

    def __init__(self, timeout_s: float, method: str, backend: str = "") -> None:
        self.limit = current_limits().sympy_seconds(timeout_s)
        self.method, self.backend = method, backend
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def verdict(self, status: Status, reason: str, **kw: Any) -> Verdict:
        fields = {"method": self.method, "backend": self.backend, "timeout_s": self.limit}
        fields.update(kw)
        fields.setdefault("seconds", self.elapsed)
        return _verdict(status, fields.pop("method"), reason, **fields)


def combine(verdicts: Iterable[Verdict], what: str = "step") -> Verdict:
    """Conjunction: proved iff every verdict is proved; refuted if one is (named); else unknown.

    An empty conjunction is unknown, never a pass.
    """
    verdicts = tuple(verdicts)
    seconds = sum(v.seconds for v in verdicts)
    methods = sorted({m for v in verdicts for m in v.method.split("+")})
    method = "+".join(methods) if methods else "none"
    for i, v in enumerate(verdicts, 1):
        if v.status == REFUTED:
            return _revise(v, reason=f"{what} {i} refuted: {v.reason}", seconds=seconds)
    for i, v in enumerate(verdicts, 1):
        if v.status == UNKNOWN:
            return _revise(v, reason=f"{what} {i} undecided: {v.reason}", seconds=seconds)
    if not verdicts:
        return _verdict(UNKNOWN, "none", f"no {_plural(what)}", seconds=seconds)
    return _verdict(
        PROVED, method, f"all {len(verdicts)} {_plural(what)} verified", seconds=seconds
    )


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")  # branches
