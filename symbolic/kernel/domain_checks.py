"""Identities on a domain: ``check_zero_on`` (piecewise, split into branches) and
``check_identity`` (``∀ z ∈ ℝ``, by the cases z > 0, z < 0, z = 0).

The zeros of the denominators are taken out of the domain (``∀ t ∈ (0, ∞) ∖ {1}: …``); when
SymPy cannot list them the identity is unknown. Each difference is decided by ``zero_verdict``.
"""

from __future__ import annotations

import itertools

import sympy

from symbolic.kernel.branches import BRANCH_HEADS, assumed_sign, at, put
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.float_blind import float_blind_risk, signs_for_numbers
from symbolic.kernel.inputs import as_input
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import ForAll, domain_text, equation, exact_set, print_key
from symbolic.kernel.points import denominators, in_domain
from symbolic.kernel.sympy_checks import (
    SIMPLIFY_TIMEOUT_S,
    _short,
    check_equal,
    zero_verdict,
)
from symbolic.kernel.verdict import (
    PROVED,
    REFUTED,
    UNKNOWN,
    Clock,
    Verdict,
    _revise,
    _verdict,
    combine,
)
from symbolic.limits import BudgetExceeded, current_limits, deadline

SPLIT_TIMEOUT_S = 5.0  # splitting a piecewise difference into branches
SINGULAR_TIMEOUT_S = 1.0  # solving a denominator for its real zeros


NOT_LISTED = "the zeros of a denominator are not a finite set SymPy can list"


def _singular(exprs: tuple, var: sympy.Symbol) -> tuple[sympy.FiniteSet | None, str]:
    """The real zeros of the denominators of ``exprs`` (in ``var``), or None and the reason when
    they are not a finite set SymPy can list (then no identity with them is decided)."""
    points: set = set()
    for d in denominators(*exprs):
        if assumed_sign(d, "nonzero")[0] is True:  # never 0 (SymPy's assumptions, as check_sign)
            continue
        if d.free_symbols - {var}:
            return None, f"{NOT_LISTED}: {d} depends on other symbols"
        try:
            with deadline(current_limits().sympy_seconds(SINGULAR_TIMEOUT_S)):
                zeros = sympy.solveset(d, var, domain=sympy.S.Reals)
        except BudgetExceeded as exc:
            return None, f"{NOT_LISTED}: {exc}"
        except (NotImplementedError, TypeError, ValueError) as exc:
            return None, f"{NOT_LISTED}: {type(exc).__name__}"
        if not isinstance(zeros, sympy.FiniteSet):
            return None, NOT_LISTED
        points |= set(zeros)
    return sympy.FiniteSet(*points), ""


def _without(domain: sympy.Set, points: sympy.FiniteSet) -> sympy.Set:
    """``domain ∖ points``, kept as a complement so that it prints ``ℝ ∖ {1}``."""
    inside = [q for q in points if domain.contains(q) is not sympy.false]
    if not inside:
        return domain
    return sympy.Complement(domain, sympy.FiniteSet(*inside), evaluate=False)


def check_zero_on(
    expr: sympy.Expr, var: sympy.Symbol, domain: sympy.Set, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``∀ var ∈ domain: expr = 0``; a piecewise ``expr`` is split into its branches
    (first match wins), each branch decided on the part of ``domain`` it owns. The zeros of
    ``expr``'s denominators are taken out of the domain (``∀ t ∈ (0, ∞) ∖ {1}: …``)."""
    expr = as_input(expr, "expr")
    singular, why = _singular((expr,), var)
    if singular is None:
        return _fact(
            ForAll((var,), equation(expr, 0), domain=domain), _verdict(UNKNOWN, "sympy", why)
        )
    domain = _without(domain, singular)
    formula = ForAll((var,), equation(expr, 0), domain=domain)
    ranged = _ranged(var, domain)
    verdict = zero_verdict(expr, timeout_s)
    if verdict.status != UNKNOWN or not expr.has(*BRANCH_HEADS):
        if verdict.status == REFUTED and ranged is not None and ranged.is_empty:
            verdict = _verdict(PROVED, "sympy", "the domain is empty")
        elif verdict.status == PROVED and ranged is not None and ranged.is_empty:
            reason = f"vacuously: {var} ranges over no value ({verdict.reason})"
            verdict = _revise(verdict, reason=reason)  # never shown as a proof of the term
        elif verdict.status == REFUTED and not (
            ranged is not None and ranged.is_empty is False and var not in expr.free_symbols
        ):  # a refutation needs a point: a nonzero constant on a domain known to have one
            verdict = _revise(
                verdict,
                status=UNKNOWN,
                reason="refuted only where the domain "
                "is known to be nonempty and the value constant",
            )
        return _fact(formula, verdict, domain=_free_domain(formula))
    if float_blind_risk(expr):  # SymPy's split would take c's branch by its float sign
        verdict = _float_blind_split(expr, var, domain, timeout_s)
    else:
        verdict = _split_verdict(expr, var, domain, timeout_s)
    return _fact(formula, verdict, domain=_free_domain(formula))


def _free_domain(formula: sympy.Basic) -> tuple[str, ...]:
    """The sets of the formula's free symbols (``p ∈ (0, ∞)``), shown beside it: ``|p| − p = 0``
    holds for a positive p only."""
    free = sorted((s for s in formula.free_symbols if isinstance(s, sympy.Symbol)), key=str)
    return tuple(d for d in map(domain_text, free) if d is not None)


def _ranged(var: sympy.Symbol, domain: sympy.Set) -> sympy.Set | None:
    """What ``∀ var ∈ domain`` ranges over: ``domain`` ∩ the set ``var``'s own assumptions give
    (``∀ n ∈ [1/4, 3/4] ∩ ℤ`` over no point, ``∀ p ∈ [−1, 0] ∩ (0, ∞)`` neither); None when
    those assumptions are no set (odd, prime, ...) and ``domain`` is no finite set whose points
    are each decided: then no point of it is known."""
    own = exact_set(var)
    if own is None:  # a finite domain: its points judged one by one
        if not isinstance(domain, sympy.FiniteSet):
            return None
        inside = {q: in_domain(var, q) for q in domain}
        return (
            None if None in inside.values() else sympy.FiniteSet(*(q for q in domain if inside[q]))
        )
    return domain if own == sympy.S.Reals else domain.intersect(own)


def _float_blind_split(expr, var, domain, timeout_s) -> Verdict:
    """The split of ``expr`` with each closed number a symbol of its certified sign: SymPy's
    rewriting into ``Piecewise`` and folding decide a condition ``x ≥ x + c`` by ``c``'s float
    (``Max(x, x + log(cos 10⁻⁶⁰))`` became ``x + log(cos 10⁻⁶⁰)`` everywhere). Only a proof
    carries over from the symbols to the numbers; anything else is unknown."""
    general = signs_for_numbers((expr,), lambda c: certified_sign(c, timeout_s)[0])[0]
    if general != expr and not float_blind_risk(general):
        found = _split_verdict(general, var, domain, timeout_s)
        if found.status == PROVED:
            return _revise(
                found,
                reason=f"{found.reason}, for every number of the closed constants' certified signs",
            )
    reason = "SymPy judges the sign of a closed number here by a float: not decided by its split"
    return _verdict(UNKNOWN, "sympy", reason)


SPLIT_ERRORS = (BudgetExceeded, NotImplementedError, TypeError, ValueError, AttributeError)


def _split_verdict(expr, var, domain, timeout_s) -> Verdict:
    """``expr = 0`` on ``domain`` (∩ ``var``'s own set), branch by branch. A branch condition
    is a set of ``var`` only when ``var`` is its one symbol: one on another symbol (``y ≥ 0``
    in ``|y|``) says nothing of where ``var`` lies, and the split is not decided."""
    clock = Clock(SPLIT_TIMEOUT_S, "sympy")
    ranged = _ranged(var, domain)
    if ranged is not None:
        domain = ranged
    try:
        with deadline(clock.limit) as dl:
            folded = sympy.piecewise_fold(expr.rewrite(sympy.Piecewise))
            if isinstance(folded, sympy.Piecewise):
                branches = list(folded.args)
            else:
                branches = [(folded, sympy.true)]
            other = set().union(*(c.free_symbols for _, c in branches)) - {var}
            if other:
                reason = f"a branch condition on {', '.join(sorted(map(str, other)))}, not {var}"
                return clock.verdict(UNKNOWN, reason, backend="", timeout_s=None)
            verdicts = []
            covered: sympy.Set = sympy.EmptySet
            for value, cond in branches:  # first match wins: a branch owns what is left
                cond_set = domain if cond is sympy.true else cond.as_set().intersect(domain)
                region = sympy.Complement(cond_set, covered)
                covered = covered.union(cond_set)
                if not region.is_empty:
                    verdicts.append(_branch_verdict(value, var, region, timeout_s))
            result = combine(verdicts, "branch")
            if result.status == REFUTED and ranged is None:  # no point of var's set is known
                result = _revise(result, status=UNKNOWN, reason="a branch on a set not known")
    except (*SPLIT_ERRORS, RecursionError) as exc:
        reason = f"piecewise split failed: {type(exc).__name__}"
        return clock.verdict(UNKNOWN, reason, backend="", timeout_s=None)
    if dl.expired:
        return clock.verdict(UNKNOWN, f"time limit of {clock.limit:g} s passed")
    return result


def _branch_verdict(value, var, region, timeout_s) -> Verdict:
    """``value = 0`` on ``region``: refuted only for a constant nonzero branch."""
    v = zero_verdict(value, timeout_s)
    if v.status == PROVED:
        return v
    if isinstance(region, sympy.FiniteSet):  # isolated points: decide each
        return combine([zero_verdict(value.xreplace({var: q}), timeout_s) for q in region], "point")
    if v.status == REFUTED and region.is_empty is False and var not in value.free_symbols:
        return _revise(v, reason=f"branch {_short(value)} ≠ 0 on {region}")  # constant, nonzero
    if v.status == REFUTED:
        return _revise(v, status=UNKNOWN, reason="branch not decided on its region")
    return v


HALF_LINE = sympy.Interval.open(0, sympy.oo)
T = sympy.Symbol("t", positive=True)  # the point of the half-line in the cases below


def half_line_point(*exprs: sympy.Basic) -> sympy.Symbol:
    """``T``, or a positive symbol named u, v, w, t2, t3, ... when an expression already has a
    symbol that prints like it (the user's own t would be captured: x³ = x·t² by cases x = t,
    −t, 0; and ``t_`` prints as t in LaTeX)."""
    shown = {print_key(s.name) for e in exprs for s in e.free_symbols if hasattr(s, "name")}
    for name in itertools.chain(("t", "u", "v", "w"), (f"t{k}" for k in itertools.count(2))):
        if print_key(name) not in shown:
            return T if name == "t" else sympy.Symbol(name, positive=True)
    raise AssertionError("unreachable")


def sign_cases(
    diff: sympy.Expr,
    var: sympy.Symbol,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
    skip_zero: bool = False,
) -> tuple[Fact, ...]:
    """``∀t > 0: diff(t) = 0``, ``∀t > 0: diff(−t) = 0`` and ``diff(0) = 0``: together
    ``∀ var ∈ ℝ: diff = 0`` (``skip_zero``: 0 is not in the domain, its case is left out)."""
    t = half_line_point(diff)
    cases = (
        check_zero_on(put(diff, {var: t}), t, HALF_LINE, timeout_s),
        check_zero_on(put(diff, {var: -t}), t, HALF_LINE, timeout_s),
    )
    if skip_zero:
        return cases
    at0 = at(diff, {var: 0})
    return cases + (_fact(equation(at0, 0), zero_verdict(at0, timeout_s)),)


def check_identity(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    var: sympy.Symbol,
    hint: sympy.Expr | None = None,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
) -> Fact:
    """The fact ``∀ var ∈ ℝ: lhs = rhs``, by cases: ``var = t > 0``, ``var = −t``, ``var = 0``.

    Where a denominator of ``lhs``, ``rhs`` (or ``hint``) vanishes the identity is not claimed:
    those points leave the domain, and it is shown (``∀ x ∈ ℝ ∖ {1}: (x² − x)/(x − 1) = x``);
    when SymPy cannot list them the identity is unknown.

    ``hint`` (proposed by untrusted code, e.g. SymPy's ``simplify`` of ``lhs``) is a form of
    ``lhs`` that is easier to decide: the kernel checks ``lhs = hint`` first, then the cases on
    ``hint − rhs``.
    """
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    hint = None if hint is None else as_input(hint, "hint")
    singular, why = _singular((lhs, rhs) + (() if hint is None else (hint,)), var)
    if singular is None:
        return _fact(
            ForAll((var,), equation(lhs, rhs), domain=sympy.S.Reals),
            _verdict(UNKNOWN, "sympy", why),
        )
    domain = _without(sympy.S.Reals, singular)
    parts: tuple[Fact, ...] = ()
    middle = lhs
    if hint is not None:
        parts = (check_equal(lhs, hint, timeout_s),)
        middle = hint
    whole = zero_verdict(middle - rhs, timeout_s)  # for all var at once, when SymPy sees it
    if whole.status == PROVED:
        parts += (_fact(equation(middle - rhs, 0), whole),)
    else:
        parts += sign_cases(middle - rhs, var, timeout_s, skip_zero=0 in singular)
    verdict = combine((p.verdict for p in parts), "case")
    if verdict.status == REFUTED:  # a refuted case is a refutation only with a witness point
        verdict = _revise(
            verdict,
            status=UNKNOWN,
            reason="a case was refuted without a point; use counterexample()",
        )
    formula = ForAll((var,), equation(lhs, rhs), domain=domain)
    return _fact(formula, verdict, parts=parts, domain=_free_domain(formula))
