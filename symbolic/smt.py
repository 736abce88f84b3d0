"""Z3 steps: the Z3 checker of the kernel (``symbolic.kernel.z3_checks``) as derivation steps.

A formula is built by a function of the ``z3`` module (``build(z3)``) so that callers never
import z3 themselves; the kernel checks it and the step shows exactly that formula.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from symbolic.engine import Step
from symbolic.kernel import Z3_TIMEOUT_MS, check_valid
from symbolic.kernel import z3_version as version

__all__ = ["Z3_TIMEOUT_MS", "uninterpreted_sigma", "version", "z3_step"]


def z3_step(
    build: Callable[[Any], Any],
    rule: str = "Z3: is the negation unsat?",
    *,
    note: str = "",
    timeout_ms: int = Z3_TIMEOUT_MS,
) -> Step:
    """A derivation step whose formula ``build(z3)`` Z3 checks."""
    return Step(check_valid(build, timeout_ms), rule, note)


def uninterpreted_sigma(z3mod: Any, name: str = "sigma") -> Any:
    """An uninterpreted function σ: R → R (nothing assumed about it)."""
    return z3mod.Function(name, z3mod.RealSort(), z3mod.RealSort())
