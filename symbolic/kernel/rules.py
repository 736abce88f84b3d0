"""Inference rules: new facts from facts, so that a derivation's chain ends in its claim.

Each rule takes kernel facts (checked, admitted or made by a rule) and returns the fact the rule
concludes, with ``rule`` naming it, the premises in ``parts`` and its argument in ``detail``
(what ``--recheck`` re-derives the conclusion from). The conclusion holds when every premise
holds: it is *proved* when every premise is proved (admitted premises count, and the conclusion
rests on them: ``Fact.rests_on``), *unknown* otherwise — a rule never proves from an undecided or
refuted premise, and never refutes. A premise of the wrong shape raises ``RuleError``.

Substitution is literal (``logic.literal_replace``): nothing it rebuilds is evaluated again.

A fact with free symbols holds for every value of them in their assumed sets (``logic.symbol_set``);
the rules keep that reading:

============  ======================================================================================
``trans``     ``a₀ = a₁, a₁ = a₂, …, aₙ₋₁ = aₙ``  ⊢  ``a₀ = aₙ`` (the links must match exactly)
``symm``      ``a = b``  ⊢  ``b = a``
``cong``      ``a = b`` and a context ``Lambda(h, C)``  ⊢  ``C[h:=a] = C[h:=b]`` (no binder of C
              that encloses h may bind a symbol of a or b; ``cong_in_sums``: a finite sum or
              product around h may bind one whose assumed set contains ℤ)
``unfold``    a definition ``c := v`` and an expression E  ⊢  ``E = E[c:=v]``
``inst``      ``∀ v ∈ D: B`` (or an open fact in v) and terms ``t`` with ``t ∈ D`` decided from
              their assumptions  ⊢  ``B[v:=t]``
``mp``        ``A ⇒ B`` and ``A``  ⊢  ``B``
``conj``      ``A``, ``B``, …  ⊢  ``A ∧ B ∧ …``
``iff``       ``A ⇒ B`` and ``B ⇒ A``  ⊢  ``A ⇔ B``
``gen``       an open fact F in v (v over its assumed set D)  ⊢  ``∀ v ∈ D: F``
``scalar_transpose``  (no premise) a matrix expression E of shape 1×1  ⊢  ``E = Eᵀ``
============  ======================================================================================

>>> import sympy
>>> from symbolic.kernel import check_equal
>>> a = sympy.Symbol("a", real=True)
>>> f1 = check_equal((a + 1)**2, sympy.expand((a + 1)**2))
>>> f2 = check_equal(sympy.expand((a + 1)**2), (a + 2)*a + 1)
>>> trans(f1, f2).formula
Eq((a + 1)**2, a*(a + 2) + 1)
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy
from sympy.core.relational import Equality

from symbolic.errors import InvalidArgument, ToolkitError
from symbolic.kernel.admitted import extra_conditions
from symbolic.kernel.fact import DEFINITION, Fact, _fact, definitions, fixed_names
from symbolic.kernel.inputs import admitted_input, denominators
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import (
    ForAll,
    _Quantifier,
    conjunction,
    divisor_conditions,
    domain_of,
    domain_text,
    equation,
    exact_set,
    literal_replace,
    symbol_set,
    sympy_value,
)
from symbolic.kernel.membership import member, satisfies
from symbolic.kernel.vacuity import vacuous_divisor
from symbolic.kernel.valueless import pole_reason
from symbolic.kernel.verdict import PROVED, UNKNOWN, _verdict


class RuleError(ToolkitError, ValueError):
    """A rule was applied to premises of the wrong shape."""


def _holds(f: Fact) -> bool:
    return f.verdict.status == PROVED


_PUTS_TERMS = ("inst", "cong", "unfold", "scalar_transpose")  # terms from outside the facts


def _conclude(
    rule: str,
    formula: sympy.Basic,
    premises: tuple[Fact, ...],
    detail: sympy.Basic | None = None,
    domain: tuple[str, ...] | None = None,
) -> Fact:
    seconds = sum(p.verdict.seconds for p in premises)
    if len(premises) > 1:
        merged: dict = {}
        for p in premises:
            for name, values in definitions(p).items():
                merged.setdefault(name, set()).update(values)
        twice = sorted(str(n) for n, values in merged.items() if len(values) > 1)
        if twice:
            raise RuleError(f"{rule}: the premises define {twice[0]} differently")
        circular = _circular({n: next(iter(values)) for n, values in merged.items()})
        if circular:
            raise RuleError(f"{rule}: the premises define {circular} in terms of itself")
    try:  # the terms a rule puts in place are read as a checker's input is
        if rule in _PUTS_TERMS and admitted_input(formula, rule) is not formula:
            raise InvalidArgument(f"{rule}: a Float in the terms put in place; pass exact numbers")
    except InvalidArgument as exc:
        raise RuleError(str(exc)) from None
    undecided = _divisors_certified(rule, formula, *(p.formula for p in premises))
    defined = {n: v[0] for p in premises for n, v in definitions(p).items()}
    vacuous = vacuous_divisor(formula, *(p.formula for p in premises), defined=defined)
    if vacuous is not None:
        raise RuleError(
            f"{rule}: divides by {sympy.sstr(vacuous)[:60]}, and no point tried has every divisor "
            "nonzero (where a formula divides by 0 it claims nothing)"
        )
    pole = pole_reason(formula) if rule in _PUTS_TERMS else None
    if pole is not None and not any(pole_reason(p.formula) for p in premises):
        raise RuleError(f"{rule}: {pole}, so it claims nothing (x·Γ(x) = Γ(x + 1) at x := 0)")
    if undecided is not None:
        verdict = _verdict(UNKNOWN, "rule", undecided, seconds=seconds)
    elif all(_holds(p) for p in premises):
        verdict = _verdict(
            PROVED, "rule", f"{rule} from {len(premises)} premise(s)", seconds=seconds
        )
    else:
        bad = next(i for i, p in enumerate(premises, 1) if not _holds(p))
        verdict = _verdict(
            UNKNOWN,
            "rule",
            f"{rule}: premise {bad} is {premises[bad - 1].verdict.status}, so nothing follows",
            seconds=seconds,
        )
    if domain is None:
        domain = tuple(dict.fromkeys(d for p in premises for d in p.domain))
    return _fact(formula, verdict, domain=domain, parts=premises, rule=rule, detail=detail)


def _no_condition(fact: Fact, rule: str, own_denominators: bool = False) -> None:
    """Refused for a fact proved under a condition its formula does not state
    (``admitted.extra_conditions``): ``gen`` would drop it and ``inst`` instantiate where it
    fails."""
    extra = extra_conditions(fact, own_denominators)
    if extra:
        raise RuleError(
            f"{rule}: the fact holds under {extra[0]!r}, more than its symbols' "
            "assumptions: state that condition in the formula first"
        )


def _not_defined(fact: Fact, variables, rule: str) -> None:
    """Neither ``gen`` nor ``inst`` may treat as a variable a name a definition fixes (from
    ``c := 1``, ``gen`` would give ``∀c: c = 1`` and ``inst`` ``2 = 1``) or a symbol free in an
    assumption the fact rests on (∀-introduction's side condition)."""
    fixed = fixed_names(fact) & set(variables)
    if fixed:
        raise RuleError(
            f"{rule}: {', '.join(sorted(map(str, fixed)))} is a defined name or free in an "
            "assumption of this derivation (fixed there, not a variable)"
        )


def _equation(f: Fact, what: str) -> Equality:
    if not isinstance(f, Fact):
        raise RuleError(f"{what}: expected a kernel Fact, got {type(f).__name__}")
    if not isinstance(f.formula, Equality):
        raise RuleError(f"{what}: expected an equation, got {sympy.sstr(f.formula)[:80]}")
    return f.formula


def trans(*facts: Fact) -> Fact:
    """``a₀ = aₙ`` from the chain ``a₀ = a₁, …, aₙ₋₁ = aₙ`` (each link structurally equal)."""
    if len(facts) < 2:
        raise RuleError("trans: a chain needs at least two equations")
    eqs = [_equation(f, f"trans premise {i}") for i, f in enumerate(facts, 1)]
    for i, (left, right) in enumerate(zip(eqs, eqs[1:], strict=False), 1):
        if left.rhs != right.lhs:
            raise RuleError(
                f"trans: premise {i} ends in {sympy.sstr(left.rhs)[:60]} but premise "
                f"{i + 1} starts at {sympy.sstr(right.lhs)[:60]}"
            )
    return _conclude("trans", equation(eqs[0].lhs, eqs[-1].rhs), tuple(facts))


def symm(fact: Fact) -> Fact:
    """``b = a`` from ``a = b``."""
    eq = _equation(fact, "symm")
    return _conclude("symm", equation(eq.rhs, eq.lhs), (fact,))


def _bound(node: sympy.Basic) -> set:
    """The symbols ``node`` binds inside it: a quantifier's or Lambda's variables, the
    ``bound_symbols`` of a sum, integral, ``Subs``, ``ConditionSet``, ..., and the variables
    of a ``Derivative`` or ``Limit`` (free outside, but a term put in for another symbol must
    not bring them into the expression differentiated: d/dx (x·y) at y := x is not d/dx x²)."""
    if isinstance(node, (_Quantifier, sympy.Lambda)):
        return set(node.variables)
    if isinstance(node, sympy.Derivative):
        return set(node.variables)
    if isinstance(node, sympy.Limit):
        return {node.args[1]}
    return set(getattr(node, "bound_symbols", ()) or ())


def _not_rebound(body: sympy.Basic, replaced, what: str) -> None:
    """Refused when a binder inside ``body`` binds a symbol being replaced: there the symbol is
    another variable (``∃x`` inside ``∀x: …``, a sum over the defined name), and a replacement
    would reach into it (``∃x: x ≠ y`` at x := y became ``∃y: y ≠ y``)."""
    replaced = set(replaced)
    for node in sympy.preorder_traversal(body):
        rebound = _bound(node) & replaced
        if rebound:
            raise RuleError(
                f"{what}: {', '.join(sorted(map(str, rebound)))} is bound again inside the "
                "formula (another variable of the same name there); rename that bound variable"
            )


def _replace(
    context: sympy.Lambda, value: sympy.Basic, what: str, indices: bool = False
) -> sympy.Basic:
    """``C[h:=value]``, refusing a binder of C around h that would capture a symbol of value
    (``indices``: except a finite sum's or product's index ranging over integers, ``_index``)."""
    if not isinstance(context, sympy.Lambda) or len(context.variables) != 1:
        raise RuleError(f"{what}: the context is a Lambda of one hole, e.g. Lambda(h, f(h))")
    hole, body = context.variables[0], context.expr
    if not body.has(hole):
        raise RuleError(f"{what}: the hole {hole} does not occur in the context")
    _not_rebound(body, (hole,), what)
    free = value.free_symbols
    for node in sympy.preorder_traversal(body):
        if not (node.has(hole) and _bound(node) & free):
            continue
        if not (indices and _index(node, _bound(node) & free)):
            raise RuleError(
                f"{what}: a binder of the context would capture "
                f"{sorted(map(str, _bound(node) & free))}"
            )
    return _substitute(body, {hole: value})


def _index(node: sympy.Basic, captured: set) -> bool:
    """Is every captured symbol the index of a finite sum or product (``node``) whose assumed
    set contains ℤ? Such an index takes integer values only, at each of which the premise holds
    (a fact holds for every value of its free symbols in their assumed sets)."""
    return isinstance(node, (sympy.Sum, sympy.Product)) and all(
        isinstance(s, sympy.Symbol) and symbol_set(s) in (sympy.S.Integers, sympy.S.Reals)
        for s in captured
    )


def _substitute(expr: sympy.Basic, mapping: Mapping) -> sympy.Basic:
    """Replacement and nothing else: the rebuilt nodes are not evaluated, so the conclusion is
    the premise with the terms put in place (``Eq(…)`` does not collapse to ``True``)."""
    return literal_replace(expr, dict(mapping))


def cong(fact: Fact, context: sympy.Lambda) -> Fact:
    """``C[a] = C[b]`` from ``a = b``: equals put in the same context are equal."""
    eq = _equation(fact, "cong")
    lhs, rhs = _replace(context, eq.lhs, "cong"), _replace(context, eq.rhs, "cong")
    return _conclude("cong", equation(lhs, rhs), (fact,), detail=context)


def cong_in_sums(fact: Fact, context: sympy.Lambda) -> Fact:
    """``cong`` where the hole may lie inside finite sums or products whose index occurs in
    ``a = b`` (``a[k]·t`` rewritten inside ``Σ_k``): the premise holds for every integer value
    of the index, so the two sums agree term by term. The index's assumed set must contain ℤ
    (an ``integer=True`` symbol, or a real one); any other capture is refused as by ``cong``.
    Its conclusion is the one ``cong`` draws, and it is recorded as ``cong``."""
    eq = _equation(fact, "cong_in_sums")
    if isinstance(context, sympy.Lambda):  # an index fixed by a definition or an assumption
        bound = set().union(*(_bound(n) for n in sympy.preorder_traversal(context.expr)))
        _not_defined(fact, bound & fact.formula.free_symbols, "cong_in_sums")  # is no index
    lhs = _replace(context, eq.lhs, "cong_in_sums", indices=True)
    rhs = _replace(context, eq.rhs, "cong_in_sums", indices=True)
    if isinstance(context, sympy.Lambda):
        _no_condition_on(fact, bound & fact.formula.free_symbols)
    return _conclude("cong", equation(lhs, rhs), (fact,), detail=context)


def _no_condition_on(fact: Fact, indices: set) -> None:
    """A sum runs over every integer value of its index: a premise that holds only under a
    condition (``x ≠ 0``, from a denominator) does not hold term by term when the index is
    captured (``pw(x) = 0`` where x ≠ 0 gave Σ_{x=−1}^{1} pw(x) = 0, though pw(0) = 1). Refused
    when the premise carries a condition and captures an index, or divides by a captured one."""
    if not indices:
        return
    own = [d for d in denominators(fact.formula) if d.free_symbols & indices]
    if own or extra_conditions(fact, own_denominators=True):
        raise RuleError(
            "cong_in_sums: the premise holds under a condition (a denominator nonzero) and "
            f"the sum's index {', '.join(sorted(map(str, indices)))} takes every integer value"
        )


def unfold(definition: Fact, expr: sympy.Basic) -> Fact:
    """``E = E[c:=v]`` from the definition ``c := v``."""
    eq = _equation(definition, "unfold")
    if definition.kind != DEFINITION:
        raise RuleError("unfold: the premise must be a definition (symbolic.kernel.define)")
    if not expr.has(eq.lhs):
        raise RuleError(f"unfold: {eq.lhs} does not occur in {sympy.sstr(expr)[:60]}")
    _not_rebound(expr, (eq.lhs,), "unfold")
    _replace(sympy.Lambda(eq.lhs, expr), eq.rhs, "unfold")  # no binder captures the value
    return _conclude(
        "unfold", equation(expr, _substitute(expr, {eq.lhs: eq.rhs})), (definition,), detail=expr
    )


def _circular(values: Mapping) -> str | None:
    """A defined name whose value, unfolded through the other definitions, contains the name
    (``c := d + 1, d := c + 1`` proves 0 = 2), or None."""
    for start in values:
        seen, stack = set(), [start]
        while stack:
            for used in sympy_value(values[stack.pop()]).free_symbols & set(values):
                if used == start:
                    return str(start)
                if used not in seen:
                    seen.add(used)
                    stack.append(used)
    return None


def _closed_denominators(*exprs: sympy.Basic) -> set:
    return {
        n.base
        for e in exprs
        for n in sympy.preorder_traversal(e)
        if isinstance(n, sympy.Pow) and n.exp.is_negative and not n.base.free_symbols
    }


_NONZERO: dict = {}  # closed divisor → certified nonzero (exactly or by intervals)


def _divisors_certified(rule: str, *formulas: sympy.Basic) -> str | None:
    """Every closed divisor in a rule's premises and conclusion must be certified nonzero: a
    premise claims nothing where it divides by 0, so a chain through ``c·c⁻¹`` with
    ``c = max(1, 2) − 2`` would prove 1 = 0 (SymPy's ``is_zero`` of ``c`` is undecided). A divisor
    not certified nonzero is a ``RuleError``, except where the time limit stopped the
    certification: then the conclusion is unknown (the reason is returned) and the divisor is
    asked again next time (a tiny ``--sympy-timeout`` made 1/log 2 a lost report, cached)."""
    for d in _closed_denominators(*formulas):
        if d not in _NONZERO:
            sign, how = certified_sign(d, timeout_s=1.0)
            if sign is None and "time limit" in how.reason:
                return f"{rule}: divides by {sympy.sstr(d)[:60]}, not certified nonzero in time"
            if sign is not None:  # only a decided sign is kept: an undecided one is asked again
                _NONZERO[d] = sign != 0
        if not _NONZERO.get(d, False):
            raise RuleError(
                f"{rule}: divides by {sympy.sstr(d)[:60]}, not certified nonzero (where a "
                "formula divides by 0 it claims nothing)"
            )
    return None


def inst(fact: Fact, substitution: Mapping[sympy.Symbol, sympy.Basic]) -> Fact:
    """``B[v:=t]`` from ``∀ v ∈ D: B`` (or from an open fact, whose free symbols range over their
    assumed sets), each ``t`` decided to lie in ``v``'s set. Variables not substituted stay
    quantified."""
    if not isinstance(fact, Fact):
        raise RuleError(f"inst: expected a kernel Fact, got {type(fact).__name__}")
    if not substitution:
        raise RuleError("inst: nothing to substitute")
    f = fact.formula
    if isinstance(f, ForAll):
        ranges = dict(f.ranges())
        body = f.body
    else:
        ranges = {s: symbol_set(s) for s in f.free_symbols if isinstance(s, sympy.Symbol)}
        body = f
    _no_condition(fact, "inst", own_denominators=True)
    if not isinstance(f, ForAll):
        _not_defined(fact, substitution, "inst")
    for v, t in substitution.items():
        try:  # a term is read as a checker's input is, before its set is asked
            admitted_input(sympy_value(t), "inst")
        except InvalidArgument as exc:
            raise RuleError(str(exc)) from None
        if v not in ranges:
            raise RuleError(f"inst: {v} is not a variable of {sympy.sstr(f)[:60]}")
        if not (member(t, ranges[v]) and satisfies(t, v)):
            raise RuleError(
                f"inst: cannot decide that {sympy.sstr(t)[:40]} lies in the set of "
                f"{v}; declare its symbols' assumptions (e.g. positive=True)"
            )
    _not_rebound(body, substitution, "inst")
    captured = {s for t in substitution.values() for s in sympy_value(t).free_symbols}
    for node in sympy.preorder_traversal(body):
        if any(node.has(v) for v in substitution) and _bound(node) & captured:
            raise RuleError("inst: a binder of the formula would capture a symbol of the terms")
    new_body = _substitute(body, substitution)
    if any(d.is_zero for d in denominators(new_body)):
        raise RuleError("inst: the instance divides by 0 (where the premise claims nothing)")
    if isinstance(f, ForAll):
        rest = [(v, s) for v, s in f.ranges() if v not in substitution]
        if rest:
            new_body = ForAll([v for v, _ in rest], new_body, sympy.Tuple(*[s for _, s in rest]))
    detail = sympy.Tuple(*[sympy.Tuple(v, t) for v, t in substitution.items()])
    return _conclude("inst", new_body, (fact,), detail=detail, domain=_shown_domain(new_body))


def _shown_domain(formula: sympy.Basic) -> tuple[str, ...]:
    """The domain an instance shows: its symbols' sets and its own divisors nonzero (the
    premise's, ``y ≠ 0`` of ``y/y = 1``, would name a symbol put away)."""
    symbols = [s for s in formula.free_symbols if isinstance(s, sympy.Symbol)]
    shown = [domain_text(s) for s in sorted(symbols, key=str)]
    shown += divisor_conditions(denominators(formula))
    return tuple(d for d in shown if d)


def mp(implication: Fact, antecedent: Fact) -> Fact:
    """``B`` from ``A ⇒ B`` and ``A`` (A structurally equal)."""
    f = implication.formula
    if not isinstance(f, sympy.Implies):
        raise RuleError(f"mp: expected an implication, got {sympy.sstr(f)[:80]}")
    if f.args[0] != antecedent.formula:
        raise RuleError(
            f"mp: the antecedent {sympy.sstr(antecedent.formula)[:60]} is not "
            f"{sympy.sstr(f.args[0])[:60]}"
        )
    return _conclude("mp", f.args[1], (implication, antecedent))


def conj(*facts: Fact) -> Fact:
    """``A ∧ B ∧ …`` from ``A``, ``B``, …"""
    if len(facts) < 2:
        raise RuleError("conj: a conjunction needs at least two facts")
    return _conclude("conj", conjunction(*(f.formula for f in facts)), tuple(facts))


def iff(forward: Fact, backward: Fact) -> Fact:
    """``A ⇔ B`` from ``A ⇒ B`` and ``B ⇒ A``."""
    f, b = forward.formula, backward.formula
    if not (isinstance(f, sympy.Implies) and isinstance(b, sympy.Implies)):
        raise RuleError("iff: expected two implications")
    if f.args[0] != b.args[1] or f.args[1] != b.args[0]:
        raise RuleError("iff: the second implication is not the converse of the first")
    return _conclude(
        "iff", sympy.Equivalent(f.args[0], f.args[1], evaluate=False), (forward, backward)
    )


def gen(fact: Fact, variables: tuple[sympy.Symbol, ...]) -> Fact:
    """``∀ v ∈ D: F`` from an open fact F: a free symbol already ranges over every value of its
    assumed set D, so this only writes the quantifier. Refused for a fact whose shown domain
    says more than its symbols' assumptions (a condition it was proved under)."""
    if not isinstance(fact, Fact):
        raise RuleError(f"gen: expected a kernel Fact, got {type(fact).__name__}")
    variables = tuple(variables)
    if not variables:
        raise RuleError("gen: name the variables to quantify")
    free = fact.formula.free_symbols
    for v in variables:
        if not isinstance(v, sympy.Symbol) or v not in free:
            raise RuleError(f"gen: {v} is not a free symbol of {sympy.sstr(fact.formula)[:60]}")
    _not_defined(fact, variables, "gen")
    inexact = [str(v) for v in variables if isinstance(v, sympy.Symbol) and exact_set(v) is None]
    if inexact:
        raise RuleError(
            f"gen: the assumptions of {inexact[0]} (odd, prime, ...) are no set a quantifier "
            "writes: use a symbol that is real or integer with a sign at most"
        )
    _no_condition(fact, "gen")
    return _conclude(
        "gen",
        ForAll(variables, fact.formula, domain_of(variables)),
        (fact,),
        detail=sympy.Tuple(*variables),
    )


def scalar_transpose(expr: sympy.MatrixExpr) -> Fact:
    """``E = Eᵀ`` for a matrix expression of shape exactly 1×1 (a scalar is its own
    transpose): decided from the shape alone, which SymPy computes from the operands."""
    if not isinstance(expr, sympy.MatrixExpr) or expr.shape != (1, 1):
        raise RuleError(
            f"scalar_transpose: expected a 1×1 matrix expression, got shape "
            f"{getattr(expr, 'shape', None)}"
        )
    return _conclude(
        "scalar_transpose", equation(expr, sympy.Transpose(expr)), (), detail=expr, domain=()
    )


__all__ = [
    "RuleError",
    "conj",
    "cong",
    "cong_in_sums",
    "gen",
    "iff",
    "inst",
    "member",
    "mp",
    "scalar_transpose",
    "symm",
    "trans",
    "unfold",
]
