"""Stand-ins for steps and verdicts in the renderers' exact-string tests (test tooling).

The printers read steps and verdicts by attribute, so their tests use these doubles; real
steps need kernel facts (tests/kernel covers those).
"""

from __future__ import annotations

import dataclasses
import functools

import sympy

from symbolic import engine


@dataclasses.dataclass(frozen=True)
class Verdict:
    status: str
    method: str
    reason: str = ""
    witness: tuple = ()
    certificate: str = ""
    backend: str = ""
    timeout_s: float | None = None
    seconds: float = 0.0

    @classmethod
    def proved(cls, method, reason="", **kw):
        return cls("proved", method, reason, **kw)

    @classmethod
    def refuted(cls, method, reason="", **kw):
        return cls("refuted", method, reason, **kw)

    def to_json(self):
        return {
            "status": self.status,
            "method": self.method,
            "reason": self.reason,
            "witness": dict(self.witness) or None,
            "certificate": self.certificate or None,
            "backend": self.backend or None,
            "timeout_s": self.timeout_s,
            "seconds": self.seconds,
        }


@dataclasses.dataclass(frozen=True)
class Step:
    statement: str
    rule: str
    verdict: Verdict
    formula: object = None
    note: str = ""

    @property
    def kind(self):
        return {"definition": "definition", "assumption": "assumption", "oracle": "oracle"}.get(
            self.verdict.method, "checked"
        )

    def to_json(self):
        return {
            "statement": self.statement,
            "formula": None,
            "kind": self.kind,
            "domain": [],
            "note": self.note or None,
            "rule": self.rule,
            "verdict": self.verdict.to_json(),
        }


# --- Results ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, repr=False)
class Result(engine.Result):
    """``engine.Result`` over the step doubles above, which carry no kernel facts: its status is
    the steps' combined verdict (a disagreeing numeric check fails it), and what it rests on
    is its own assumption and oracle steps. For the renderers' tests only: the engine's
    judgement of real facts is tested in tests/symbolic/test_engine.py."""

    @functools.cached_property
    def _judgement(self) -> tuple[str, str]:
        bad = [n for n in self.numeric if not n.agrees]
        if bad:
            return "failed", f"numeric check disagrees: {bad[0].name}"
        verdict = self.derivation.verdict
        return verdict.status, verdict.reason

    @property
    def _own_admitted(self) -> tuple:
        return tuple(
            engine.Admitted(s.kind, s.statement, s.verdict.certificate)
            for s in self.derivation.steps
            if s.kind in ("assumption", "oracle")
        )


A, B = sympy.symbols("a b", real=True)
SQUARE = ((A + B) ** 2, A**2 + 2 * A * B + B**2)  # a statement the kernel proves


def kernel_result(
    name: str,
    title: str = "t",
    note: str = "",
    source: str = "A6",
    *,
    admitted: tuple = (),
    refuted: bool = False,
    numeric: tuple = (),
    inherited: tuple = (),
    **claim,
) -> engine.Result:
    """A result of real kernel facts: ``admitted`` (kind, statement) steps, then the statement
    ``(a + b)² = a² + 2ab + b²`` checked by SymPy (or ``1 = 2``, refuted)."""
    from symbolic.kernel import assume, check_equal, oracle

    steps = [
        engine.Step(
            assume(text) if kind == "assumption" else oracle(text, "quadrature", "[1.49, 1.51]"),
            f"{kind} admitted",
        )
        for kind, text in admitted
    ]
    fact = check_equal(1, 2) if refuted else check_equal(*SQUARE)
    steps.append(engine.Step(fact, "arithmetic" if refuted else "expand"))
    return engine.Result(
        engine.Claim(name, title, note, source, statement=fact.formula, **claim),
        engine.Derivation(tuple(steps)),
        numeric,
        inherited=inherited,
    )
