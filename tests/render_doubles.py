"""Stand-ins for steps and verdicts in the renderers' exact-string tests (test tooling).

The printers read steps and verdicts by attribute, so their tests use these doubles; real
steps need kernel facts (tests/kernel covers those).
"""

from __future__ import annotations

import dataclasses


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
        return {"status": self.status, "method": self.method, "reason": self.reason,
                "witness": dict(self.witness) or None, "certificate": self.certificate or None,
                "backend": self.backend or None, "timeout_s": self.timeout_s,
                "seconds": self.seconds}


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
            self.verdict.method, "checked")

    def to_json(self):
        return {"statement": self.statement, "formula": None, "kind": self.kind, "domain": [],
                "note": self.note or None, "rule": self.rule, "verdict": self.verdict.to_json()}


