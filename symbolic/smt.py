"""The Z3 bridge — the only module that imports ``z3``.

``prove(build)`` asks Z3 whether the negation of a formula is satisfiable: ``unsat`` means the
formula is *proved*, ``sat`` *refuted* (the model is the witness), ``unknown`` or a timeout is
*unknown*. The formula is built by a function of the ``z3`` module so that callers never
import it themselves.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import z3

from symbolic.budget import current_limits
from symbolic.engine import Step, Verdict

# Every lemma in the toolkit is decided in milliseconds; the margin is for slow machines.
Z3_TIMEOUT_MS = 5000


def version() -> str:
    return f"z3 {z3.get_version_string()}"


def prove(build: Callable[[Any], Any], timeout_ms: int = Z3_TIMEOUT_MS) -> Verdict:
    """Verdict on the formula ``build(z3)`` (valid for all values of its free constants).

    ``budget.limits(z3_timeout_ms=...)`` caps ``timeout_ms`` for every call in its block.
    """
    forced = current_limits().z3_timeout_ms
    if forced is not None:
        timeout_ms = min(timeout_ms, forced)
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    formula = build(z3)
    solver.add(z3.Not(formula))
    answer = solver.check()
    seconds = time.perf_counter() - start
    common = dict(backend=version(), timeout_s=timeout_ms / 1000, seconds=seconds)
    if answer == z3.unsat:
        return Verdict.proved("z3", "negation unsat", **common)
    if answer == z3.sat:
        model = solver.model()
        witness = tuple((str(d.name()), str(model[d])) for d in model.decls() if d.arity() == 0)
        return Verdict.refuted("z3", "negation sat: counter-model found", witness=witness,
                               **common)
    return Verdict.unknown("z3", f"solver said unknown ({solver.reason_unknown()})", **common)


def z3_step(statement: str, build: Callable[[Any], Any], rule: str = "Z3: is the negation unsat?",
            timeout_ms: int = Z3_TIMEOUT_MS) -> Step:
    """A derivation step whose statement Z3 checks."""
    return Step(statement, rule, prove(build, timeout_ms))


def uninterpreted_sigma(z3mod: Any, name: str = "sigma") -> Any:
    """An uninterpreted function σ: R → R (nothing assumed about it)."""
    return z3mod.Function(name, z3mod.RealSort(), z3mod.RealSort())
