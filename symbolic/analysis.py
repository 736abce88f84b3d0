"""What an activation does to the two symmetries of the gated form (THEORY A6, A7).

``analyze(expr, label)`` runs the decision procedures of ``symbolic.properties`` and derives:

* ``exchange_symmetric``: Gated is invariant under Q ↔ K  ⇔  σ is linear (A6);
* ``homogeneity_degree``: the positive-homogeneity degree p, or None when σ has none (A7);
* ``inverse_scaling_symmetric``: Gated is invariant under Q → αQ, K → K/α for all α > 0
  ⇔  σ is positively homogeneous of degree 1 (A7).

Every verdict carries its derivation; a broken symmetry carries a certified witness.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import sympy

from symbolic.activations import z
from symbolic.budget import BudgetExceeded, time_limit
from symbolic.certify import certify_nonzero
from symbolic.engine import PROVED, REFUTED, UNKNOWN, Claim, Derivation, Result, Step, Verdict
from symbolic.properties import Decision, candidate_points, decide_homogeneity, decide_linear

SCALING_FACTORS = tuple(sympy.Rational(a) for a in ("2", "1/2", "3", "10"))
SCALING_TIMEOUT_S = 10.0  # the search for an explicit inverse-scaling witness


@dataclass(frozen=True)
class ActivationAnalysis:
    label: str
    expr: sympy.Expr
    linear: Decision
    homogeneity: Decision
    inverse_scaling: Decision

    @property
    def exchange_symmetric(self) -> bool | None:
        return _truth(self.linear.holds)

    @property
    def is_linear(self) -> bool | None:
        return _truth(self.linear.holds)

    @property
    def degree(self) -> sympy.Expr | None:
        return self.homogeneity.value if self.homogeneity.holds.status == PROVED else None

    @property
    def inverse_scaling_symmetric(self) -> bool | None:
        return _truth(self.inverse_scaling.holds)

    @property
    def status(self) -> str:
        decided = all(d.holds.status != UNKNOWN
                      for d in (self.linear, self.homogeneity, self.inverse_scaling))
        return PROVED if decided else UNKNOWN

    @property
    def exchange_witness(self) -> tuple[sympy.Expr, sympy.Expr] | None:
        """(a, b) with σ(a)b ≠ σ(b)a: a = z0 where σ(z0) ≠ σ(1)z0, b = 1 (A6)."""
        w = self.linear.witness
        return None if w is None else (w, sympy.Integer(1))

    def to_json(self) -> dict[str, Any]:
        degree = self.degree
        return {
            "activation": self.label,
            "expression": sympy.sstr(self.expr),
            "linear": self.is_linear,
            "exchange_symmetric": self.exchange_symmetric,
            "homogeneity_degree": _number(degree),
            "inverse_scaling_symmetric": self.inverse_scaling_symmetric,
            "status": self.status,
            "evidence": {
                "linear": _decision_json(self.linear),
                "exchange": {
                    "statement": "Gated(x; Q, K, V) = Gated(x; K, Q, V) for all x, Q, K, V",
                    "equivalent_to": "linear (THEORY A6)",
                    "witness": None if self.exchange_witness is None else
                    {"a": str(self.exchange_witness[0]), "b": str(self.exchange_witness[1])},
                },
                "homogeneity": {**_decision_json(self.homogeneity),
                                "degree_exact": None if degree is None else sympy.sstr(degree)},
                "inverse_scaling": _decision_json(self.inverse_scaling),
            },
        }


def _truth(v: Verdict) -> bool | None:
    return {PROVED: True, REFUTED: False}.get(v.status)


def _number(value: sympy.Expr | None) -> int | float | None:
    if value is None:
        return None
    if value.is_Integer:
        return int(value)
    return float(value)


def _decision_json(d: Decision) -> dict[str, Any]:
    return {
        "verdict": d.holds.to_json(),
        "steps": [s.to_json() for s in d.steps],
    }


def _inverse_scaling(expr: sympy.Expr, homogeneity: Decision) -> Decision:
    """Gated keeps Q → αQ, K → K/α (all α > 0) ⇔ σ(αa) = α σ(a) ⇔ degree 1."""
    p = homogeneity.value
    if homogeneity.holds.status == PROVED and p == 1:
        step = Step("σ(αa) = α σ(a) for all α > 0, a", "σ is positively homogeneous of degree 1",
                    homogeneity.holds)
        return Decision(homogeneity.holds, (step,))
    if homogeneity.holds.status == UNKNOWN:
        return Decision(homogeneity.holds, (Step("degree undecided", "A7", homogeneity.holds),))
    for alpha in SCALING_FACTORS:
        for a in candidate_points(expr):
            value = expr.subs(z, alpha * a) - alpha * expr.subs(z, a)
            cert = certify_nonzero(value)
            if cert.status == PROVED:
                witness = (("alpha", str(alpha)), ("a", str(a)))
                step = Step(f"σ({alpha}·{a}) − {alpha}·σ({a}) ≠ 0", f"certified ({cert.method})",
                            replace(cert, witness=witness))
                holds = Verdict.refuted(cert.method, f"σ(αa) ≠ ασ(a) at α = {alpha}, a = {a}",
                                        witness=witness, certificate=cert.certificate)
                return Decision(holds, (step,), witness=a, value=alpha)
    # No explicit point was certified. Still broken if σ has no degree at all, or a degree
    # certified ≠ 1 (then σ(2u) = 2^p σ(u) ≠ 2σ(u) where σ(u) ≠ 0); otherwise undecided.
    if homogeneity.holds.status == REFUTED:
        because = homogeneity.holds.negated("σ is not positively homogeneous of any degree")
        step = Step("σ(αa) ≠ α σ(a) for some α > 0, a", "A7: no degree at all", because)
    else:
        p_is_not_one = certify_nonzero(p - 1)
        step = Step(f"p − 1 = {sympy.sstr(p - 1)} ≠ 0, so σ(2u) = 2^p σ(u) ≠ 2σ(u)",
                    "A7: the degree is not 1", p_is_not_one)
        if p_is_not_one.status != PROVED:
            return Decision(Verdict.unknown(p_is_not_one.method, "cannot certify p ≠ 1"),
                            (step,))
    holds = Verdict.refuted(step.verdict.method, "σ is not positively homogeneous of degree 1",
                            certificate=step.verdict.certificate)
    return Decision(holds, (step,))


@lru_cache(maxsize=256)  # exchange and scaling analyse the same activations in one run
def analyze(expr: sympy.Expr, label: str) -> ActivationAnalysis:
    linear = decide_linear(expr)
    homogeneity = decide_homogeneity(expr, linear)
    try:
        with time_limit(SCALING_TIMEOUT_S):
            inverse_scaling = _inverse_scaling(expr, homogeneity)
    except BudgetExceeded as exc:
        v = Verdict.unknown("interval", f"witness search stopped: {exc}",
                            timeout_s=SCALING_TIMEOUT_S)
        inverse_scaling = Decision(v, (Step("σ(αa) = α σ(a)?", "time limit", v),))
    return ActivationAnalysis(label, expr, linear, homogeneity, inverse_scaling)


def _phrase(a: ActivationAnalysis) -> tuple[str, str]:
    """Title and statement of the claim that the analysis proves."""
    parts = []
    lin = a.linear.holds.status
    parts.append({PROVED: "σ is linear, so Gated keeps the exchange symmetry Q ↔ K",
                  REFUTED: "σ is not linear, so Gated breaks the exchange symmetry Q ↔ K",
                  UNKNOWN: "linearity of σ is undecided"}[lin])
    hom = a.homogeneity.holds.status
    if hom == PROVED:
        parts.append(f"σ is positively homogeneous of degree {sympy.sstr(a.degree)}, so Gated "
                     f"keeps Q → αQ, K → α^(−{sympy.sstr(a.degree)})K (α > 0)")
    else:
        parts.append({REFUTED: "σ is not positively homogeneous of any degree",
                      UNKNOWN: "homogeneity of σ is undecided"}[hom])
    inv = a.inverse_scaling.holds.status
    parts.append({PROVED: "Gated keeps the inverse scaling Q → αQ, K → K/α",
                  REFUTED: "Gated breaks the inverse scaling Q → αQ, K → K/α",
                  UNKNOWN: "inverse scaling undecided"}[inv])
    title = f"symmetries of the gated form with σ = {a.label}"
    return title, "; ".join(parts) + "."


def as_result(a: ActivationAnalysis, name: str, source: str = "A6, A7",
              numeric: tuple = ()) -> Result:
    """A Result whose claim states the decided properties; undecided parts make it unknown."""
    title, statement = _phrase(a)
    claim = Claim(name, title, statement, source, kind="proposition",
                  assumptions=(f"σ(z) = {sympy.sstr(a.expr)}",),
                  uses=("exchange.lemma", "exchange.gated_iff"))
    steps = (*a.linear.steps, *a.homogeneity.steps, *a.inverse_scaling.steps)
    if a.status == UNKNOWN:  # make the undecided part visible in the derivation's verdict
        pending = [d.holds for d in (a.linear, a.homogeneity, a.inverse_scaling)
                   if d.holds.status == UNKNOWN]
        steps = (*steps, Step("all properties decided", "decision procedures", pending[0]))
    elif any(s.verdict.status != PROVED for s in steps):
        # A half-line step that failed before a witness was found is superseded by the witness.
        steps = tuple(s for s in steps if s.verdict.status == PROVED)
    return Result(claim, Derivation(steps), numeric)
