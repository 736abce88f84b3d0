"""What an activation does to the two symmetries of the gated form (docs/theory.md A6, A7).

``analyze(expr, label)`` runs the decision procedures of ``symbolic.gated.properties`` (which
propose) and records the kernel's facts (which decide):

* ``exchange_symmetric``: Gated is invariant under Q ↔ K  ⇔  σ is linear (A6);
* ``homogeneity_degree``: the positive-homogeneity degree p; ``EVERY_DEGREE`` for σ ≡ 0; None
  when σ has none or it is undecided (A7);
* ``inverse_scaling_symmetric``: Gated is invariant under Q → αQ, K → K/α for all α > 0
  ⇔  ``∀α > 0, a: σ(αa) = α σ(a)`` (A7) — proved as that formula, or refuted at a certified
  point ``(α, a)``.

A broken symmetry always carries a certified witness; an undecided one is ``unknown``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import sympy

from symbolic.activations import z
from symbolic.calc import held_and
from symbolic.engine import PROVED, REFUTED, UNKNOWN, Claim, Derivation, Result, Step
from symbolic.gated.properties import (
    EVERY_DEGREE,
    SYMPY_GAVE_UP,
    Decision,
    candidate_points,
    decide_homogeneity,
    decide_linear,
    value_at,
)
from symbolic.kernel import (
    ALPHA,
    Fact,
    check_homogeneous,
    conj,
    counterexample,
    homogeneity_formula,
    literal_replace,
    undecided,
)
from symbolic.limits import BudgetExceeded, current_limits, deadline
from symbolic.render.formula_text import source_text
from symbolic.steps import certified_sign

SCALING_FACTORS = tuple(sympy.Rational(a) for a in ("2", "1/2", "3", "10"))
SCALING_TIMEOUT_S = 10.0  # the search for an explicit inverse-scaling witness
MAX_SCALING_TRIES = 200  # (α, a) pairs tried before the search gives up (unknown)


@dataclass(frozen=True)
class ActivationAnalysis:
    label: str
    expr: sympy.Expr
    linear: Decision
    homogeneity: Decision
    inverse_scaling: Decision

    @property
    def is_linear(self) -> bool | None:
        return _truth(self.linear)

    exchange_symmetric = is_linear

    @property
    def degree(self) -> sympy.Expr | None:
        return self.homogeneity.value if self.homogeneity.holds.proved else None

    @property
    def every_degree(self) -> bool:
        return self.degree == EVERY_DEGREE

    @property
    def inverse_scaling_symmetric(self) -> bool | None:
        return _truth(self.inverse_scaling)

    @property
    def decisions(self) -> tuple[Decision, Decision, Decision]:
        return self.linear, self.homogeneity, self.inverse_scaling

    @property
    def statement(self) -> sympy.Basic:
        """What the analysis states of σ: each property or, where it is refuted, its negation."""
        return decided_statement(self.decisions)

    @property
    def status(self) -> str:
        """The status of ``statement``: proved when every property is proved or its negation is
        (a refuted property is never itself reported proved); unknown when one is undecided."""
        return self.concluded.status

    @cached_property
    def concluded(self) -> Fact:
        """The kernel's conjunction of the decided facts (``conclusion``), made once."""
        return conclusion(self.decisions)

    @property
    def exchange_witness(self) -> tuple[sympy.Expr, sympy.Expr] | None:
        """(a, b) with σ(a)b ≠ σ(b)a: a = z0 where σ(z0) ≠ σ(1)z0, b = 1 (A6)."""
        w = self.linear.witness
        return None if w is None else (w, sympy.Integer(1))

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON (a fresh copy: rendering the formulas is done once per
        analysis, which exchange and scaling both report)."""
        return copy.deepcopy(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:
        return {
            "activation": self.label,
            "expression": shown_text(self.expr),
            "statement": source_text(self.statement),
            "linear": self.is_linear,
            "exchange_symmetric": self.exchange_symmetric,
            "homogeneity_degree": degree_json(self.degree),
            "homogeneous_of_every_degree": self.every_degree,
            "inverse_scaling_symmetric": self.inverse_scaling_symmetric,
            "status": self.status,
            "evidence": {
                "linear": _decision_json(self.linear),
                "exchange": {
                    "statement": "Gated(x; Q, K, V) = Gated(x; K, Q, V) for all x, Q, K, V",
                    "equivalent_to": "linear (docs/theory.md A6)",
                    "witness": None
                    if self.exchange_witness is None
                    else {"a": str(self.exchange_witness[0]), "b": str(self.exchange_witness[1])},
                },
                "homogeneity": {
                    **_decision_json(self.homogeneity),
                    "degree_exact": None if self.degree is None else shown_text(self.degree),
                },
                "inverse_scaling": _decision_json(self.inverse_scaling),
            },
        }


def shown_text(expr: sympy.Basic) -> str:
    from symbolic.render.formula_text import text

    return (
        text(expr) if not isinstance(expr, sympy.Basic) or expr.args or expr.is_Atom else str(expr)
    )


def degree_json(degree: sympy.Expr | None) -> int | str | None:
    """An integer degree as a number; any other degree exactly, as a string (``"3/2"``,
    ``"pi"``, ``"every"`` for σ ≡ 0) — never a rounded float; None when there is none."""
    if degree is None:
        return None
    if degree.is_Integer:
        return int(degree)
    return "every" if degree == EVERY_DEGREE else shown_text(degree)


def _truth(d: Decision) -> bool | None:
    return {PROVED: True, REFUTED: False}.get(d.holds.status)


def _decision_json(d: Decision) -> dict[str, Any]:
    return {
        "fact": {"statement": Step(d.holds, "").statement, **d.holds.to_json()},
        "verdict": d.holds.verdict.to_json(),
        "steps": [s.to_json() for s in d.steps],
    }


def _inverse_scaling(expr: sympy.Expr, homogeneity: Decision) -> Decision:
    """Gated keeps Q → αQ, K → K/α (all α > 0) ⇔ ``∀α > 0, a: σ(αa) = α σ(a)``."""
    p = homogeneity.value
    if homogeneity.holds.proved and (p == 1 or p == EVERY_DEGREE):
        if p != EVERY_DEGREE:
            return Decision(homogeneity.holds)
        # σ ≡ 0: its degree-1 instance from the identity σ = 0 already proved (by itself, the
        # identity was re-decided on σ as written and ran out of time for SiLU-made zeros)
        same = next((f for f in homogeneity.holds.parts if f.proved), None)
        return Decision(check_homogeneous(expr, z, 1, hint=sympy.Integer(0), given=same))
    # σ(αz) as written: SymPy's rebuild would take a branch at a closed irrational number by a
    # float (Max(0, z²·log(cos(1e-60))) → its negative argument), a different formula
    lhs, rhs = literal_replace(expr, {z: ALPHA * z}), ALPHA * expr
    free = lhs.free_symbols | rhs.free_symbols  # a constant σ has no z to assign
    for alpha, a in _scaling_candidates(expr, homogeneity):
        point = {k: v for k, v in ((ALPHA, alpha), (z, a)) if k in free}
        fact = counterexample(lhs, rhs, point, tuple(point))
        if fact.refuted:
            return Decision(fact, witness=a, value=alpha)
    reason = (
        "the degree is undecided"
        if homogeneity.holds.status == UNKNOWN
        else "no certified point (α, a) with σ(αa) ≠ ασ(a) among the candidates"
    )
    return Decision(undecided(homogeneity_formula(expr, z, 1), reason, "interval"))


def _scaling_candidates(expr: sympy.Expr, homogeneity: Decision):
    """(α, a) pairs most likely to break σ(αa) = ασ(a): (2, ±1) (a degree ≠ 1 shows there),
    (|z0|, sign z0) from the homogeneity witness, then a grid."""
    tried = 0
    w = homogeneity.witness
    first = [(sympy.Integer(2), sympy.Integer(1)), (sympy.Integer(2), sympy.Integer(-1))]
    sign = certified_sign(w) if w is not None and w != 0 else None
    if sign is not None:
        first.append((sign * sympy.sympify(w), sympy.Integer(sign)))
    yield from first
    for alpha in SCALING_FACTORS:
        for a in candidate_points(expr):
            tried += 1
            if tried > MAX_SCALING_TRIES:
                return
            yield alpha, a


_CACHE: dict[tuple, ActivationAnalysis] = {}
CACHE_SIZE = 256


def analyze(expr: sympy.Expr, label: str) -> ActivationAnalysis:
    """The analysis of σ; cached per (σ, label, limits in force), decided analyses only."""
    key = (expr, label, current_limits())
    if key in _CACHE:
        return _CACHE[key]
    result = _analyze(expr, label)
    if result.status == PROVED:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = result
    return result


def _analyze(expr: sympy.Expr, label: str) -> ActivationAnalysis:
    linear = decide_linear(expr)
    homogeneity = decide_homogeneity(expr, linear)
    try:
        with deadline(SCALING_TIMEOUT_S):
            inverse_scaling = _inverse_scaling(expr, homogeneity)
    except BudgetExceeded as exc:
        inverse_scaling = Decision(
            undecided(homogeneity_formula(expr, z, 1), f"witness search stopped: {exc}", "interval")
        )
    except SYMPY_GAVE_UP as exc:
        inverse_scaling = Decision(
            undecided(
                homogeneity_formula(expr, z, 1),
                f"witness search failed: {type(exc).__name__}",
                "interval",
            )
        )
    return ActivationAnalysis(label, expr, linear, homogeneity, inverse_scaling)


def _phrase(a: ActivationAnalysis) -> tuple[str, str]:
    """Title and statement of the claim that the analysis proves."""
    parts = [
        {
            PROVED: "σ is linear, so Gated keeps the exchange symmetry Q ↔ K",
            REFUTED: "σ is not linear, so Gated breaks the exchange symmetry Q ↔ K",
            UNKNOWN: "linearity of σ is undecided",
        }[a.linear.holds.status]
    ]
    if a.every_degree:
        parts.append("σ ≡ 0 is positively homogeneous of every degree")
    elif a.degree is not None:
        p = shown_text(a.degree)
        minus_p = f"−{p}" if a.degree.is_Atom else f"−({p})"  # α^(−(2 − c)), never α^(−2 − c)
        parts.append(
            f"σ is positively homogeneous of degree {p}, so Gated keeps "
            f"Q → αQ, K → α^({minus_p})K (α > 0)"
        )
    else:
        parts.append(
            {
                REFUTED: "σ is not positively homogeneous of any degree",
                UNKNOWN: "homogeneity of σ is undecided",
                PROVED: "homogeneity of σ is undecided",
            }[a.homogeneity.holds.status]
        )
    parts.append(
        {
            PROVED: "Gated keeps the inverse scaling Q → αQ, K → K/α",
            REFUTED: "Gated breaks the inverse scaling Q → αQ, K → K/α",
            UNKNOWN: "inverse scaling undecided",
        }[a.inverse_scaling.holds.status]
    )
    return f"symmetries of the gated form with σ = {a.label}", "; ".join(parts) + "."


def decided(d: Decision) -> Fact:
    """The decision as a fact: the property when proved (or undecided), its negation when
    refuted — then proved, by the certified witness (``¬∀…``, ``¬∃…``)."""
    return d.decided


def decided_statement(decisions: tuple[Decision, ...]) -> sympy.Basic:
    """The conjunction of what ``decisions`` state: each property's formula, negated where it is
    refuted (written out here, so a fact that concludes anything else does not prove it)."""
    return held_and(
        *(
            sympy.Not(d.holds.formula, evaluate=False) if d.holds.refuted else d.holds.formula
            for d in decisions
        )
    )


def conclusion(decisions: tuple[Decision, ...]) -> Fact:
    """The kernel's conjunction of the decided facts: proved only when each one is."""
    return conj(*(decided(d) for d in decisions))


def decision_steps(d: Decision, rule: str) -> tuple[Step, ...]:
    """The steps shown for a decision: what led to it, then its fact — negated when refuted,
    so that a decided property is a proved step (¬∀…, certified at the witness)."""
    return (*d.steps, Step(decided(d), rule))


CONCLUSION_RULE = "the decisions together (conjunction)"


RULES = (
    "linearity: counterexample or cases z > 0, z < 0, z = 0 (kernel)",
    "homogeneity: forced degree and certified point, or the cases (kernel)",
    "inverse scaling: σ(αa) = ασ(a), proved or refuted at a certified (α, a) (kernel)",
)


def as_result(
    a: ActivationAnalysis, name: str, source: str = "A6, A7", numeric: tuple = ()
) -> Result:
    """A Result whose statement is the decided properties (``ActivationAnalysis.statement``);
    undecided parts make it unknown."""
    title, note = _phrase(a)
    claim = Claim(
        name,
        title,
        note,
        source,
        kind="proposition",
        assumptions=(f"σ(z) = {shown_text(a.expr)}",),
        uses=("exchange.lemma", "exchange.gated_iff", "scaling.degree_p"),
        statement=a.statement,
    )
    steps = tuple(
        s for d, rule in zip(a.decisions, RULES, strict=True) for s in decision_steps(d, rule)
    )
    return Result(claim, Derivation((*steps, Step(a.concluded, CONCLUSION_RULE))), numeric)


def analyze_item(label: str, expr: sympy.Expr) -> ActivationAnalysis:
    """``analyze``, with a user-input error naming the input (e.g. σ not real-valued)."""
    from symbolic.errors import InvalidExpression
    from symbolic.languages.activation_language import input_error

    try:
        return analyze(expr, label)
    except InvalidExpression as exc:
        raise input_error(label, str(exc)) from None


def table_items() -> list[tuple[str, sympy.Expr, Any]]:
    """(name, σ, table entry) for every activation of the table."""
    from symbolic.activations import ACTIVATIONS

    return [(name, act.expr, act) for name, act in ACTIVATIONS.items()]


def parsed_item(text: str) -> tuple[str, sympy.Expr, Any]:
    """(text, σ, table entry or None) for user text, parsed by the whitelist parser."""
    from symbolic.activations import ACTIVATIONS
    from symbolic.languages.activation_language import parse_activation

    parsed = parse_activation(text)
    return text, parsed.expr, ACTIVATIONS.get(parsed.name) if parsed.name else None


__all__ = [
    "CONCLUSION_RULE",
    "ActivationAnalysis",
    "analyze",
    "analyze_item",
    "as_result",
    "conclusion",
    "decided",
    "decided_statement",
    "decision_steps",
    "degree_json",
    "parsed_item",
    "table_items",
    "value_at",
]
