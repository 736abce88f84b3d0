"""Admitted facts: definitions and named assumptions, counted and shown, never proved.

* ``define(name, value)`` introduces a fresh name for a value (``c := σ(1)``): conservative,
  so it may stand in a derivation without weakening it, but it is shown as a definition.
* ``oracle(statement, method, certificate)`` admits a result certified by a procedure outside
  the kernel (counted, shown, refused by ``--strict`` like an assumption);
* ``assume(statement, formula=None)`` admits a hypothesis — e.g. the regularity of Cauchy's
  equation in ``scaling.converse``. A claim whose derivation contains one is shown
  ``✓ proved (1 assumption)``, lists it in JSON, and is *not* proved under ``--strict``.
"""

from __future__ import annotations

import sympy
from mpmath import iv

from symbolic.kernel.fact import ASSUMPTION, DEFINITION, ORACLE, Fact, _fact, fixed_names
from symbolic.kernel.inputs import as_input, denominators
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.intervals import START_BITS, CannotEnclose, enclose
from symbolic.kernel.logic import ForAll, divisor_text, domain_text, set_text, symbol_set
from symbolic.kernel.membership import member, unmet
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _revise, _verdict


def define(name: sympy.Symbol, value: sympy.Basic) -> Fact:
    """The definition ``name := value``; ``name`` must be a symbol that ``value`` does not use."""
    value = as_input(value, "value")
    if not isinstance(name, sympy.Symbol):
        raise TypeError(f"name={name!r}: a definition names a SymPy Symbol")
    if name in value.free_symbols:
        raise ValueError(f"define({name}, …): the name occurs in its own value")
    missing = unmet(value, name)  # c > 0 defined as −1 would prove anything
    if name.assumptions0 in ({}, {"commutative": True}) and not _real(value):
        missing = ["real"]  # a symbol declared nothing is real to the kernel (Z3 reads c² ≥ 0)
    if missing:
        raise ValueError(f"define({name}, …): the value is not decided to be {missing[0]}")
    formula = sympy.Eq(name, value, evaluate=False)
    return _fact(
        formula,
        _verdict(PROVED, "definition", "a definition (a fresh name), not a checked statement"),
        kind=DEFINITION,
    )


def _real(value: sympy.Basic) -> bool:
    """Is ``value`` a real number wherever it is defined, for every value of its symbols? By
    SymPy's assumptions, an enclosure (a closed value: only a finite real number has one), or
    its form: sums, products, integer powers and powers of a positive base, ``exp``, ``pFq``
    with p ≤ q and integrals of a real integrand over real bounds, of real terms."""
    if _real_form(value):  # first: SymPy's assumptions on a whole closed form can take long
        return True
    if member(value, sympy.S.Reals):
        return True
    return not value.free_symbols and certified_sign(value)[0] is not None


def _real_form(e: sympy.Basic) -> bool:
    if isinstance(e, (sympy.Add, sympy.Mul, sympy.exp)):
        return all(_real_form(a) for a in e.args)
    if isinstance(e, sympy.Pow):
        power = e.exp.is_integer or (e.base.is_positive and e.exp.is_extended_real)
        return bool(power) and _real_form(e.base) and _real_form(e.exp)
    if isinstance(e, sympy.hyper) and len(e.ap) <= len(e.bq):  # entire in z, real coefficients
        return all(_real_form(a) for a in (*e.ap, *e.bq, e.argument))
    if isinstance(e, sympy.Integral) and len(e.limits) == 1 and len(e.limits[0]) == 3:
        var, lo, hi = e.limits[0]
        if not (lo.is_extended_real and hi.is_extended_real):
            return False
        return bool(e.function.is_extended_real) or _real_on(e.function, var, lo, hi)
    return member(e, sympy.S.Reals)


def _real_on(f: sympy.Basic, var: sympy.Symbol, lo: sympy.Basic, hi: sympy.Basic) -> bool:
    """Is ``f`` real for every ``var`` in ``[lo, hi]`` (closed bounds)? Its form, with the base of
    each non-integer power enclosed over the range at or above 0."""
    if f.free_symbols - {var} or lo.free_symbols or hi.free_symbols:
        return False
    try:
        a, b = enclose(lo), enclose(hi)
        return bool(a.b <= b.a) and _real_over(f, var, iv.mpf([a.a, b.b]))
    except (CannotEnclose, ValueError, TypeError):
        return False


def _real_over(e: sympy.Basic, var: sympy.Symbol, box) -> bool:
    if not e.has(var):
        return _real(e)
    if e == var or isinstance(e, (sympy.Add, sympy.Mul, sympy.exp)):
        return all(_real_over(a, var, box) for a in e.args)
    if isinstance(e, sympy.Pow) and not e.exp.has(var) and _real(e.exp):
        if not e.exp.is_integer and not enclose(e.base, START_BITS, {var: box}).a >= 0:
            return False
        return _real_over(e.base, var, box)
    return False


ASSUMED = sympy.Function("assumed")  # the formula of an assumption stated only in words


def assume(statement: str, formula: sympy.Basic | None = None) -> Fact:
    """The named assumption ``statement`` (with its formula when it has one)."""
    if not statement.strip():
        raise ValueError("an assumption needs a statement saying what is assumed")
    shown = (
        as_input(formula, "formula") if formula is not None else ASSUMED(sympy.Symbol(statement))
    )
    return _fact(
        shown,
        _verdict(
            PROVED,
            "assumption",
            "a hypothesis admitted by name, not derived",
            certificate=statement,
        ),
        kind=ASSUMPTION,
    )


def oracle(
    statement: str, method: str, certificate: str, formula: sympy.Basic | None = None
) -> Fact:
    """A result certified outside the kernel (``method`` says by what), admitted as such:
    shown ``(1 oracle result)``, listed in JSON, and not proved under ``--strict``."""
    if not statement.strip() or not certificate.strip():
        raise ValueError("an oracle result needs its statement and its certificate")
    shown = formula if formula is not None else ASSUMED(sympy.Symbol(statement))
    return _fact(
        shown, _verdict(PROVED, method, f"oracle: {method}", certificate=certificate), kind=ORACLE
    )


def undecided(formula: sympy.Basic, reason: str, method: str = "none") -> Fact:
    """The formula with verdict ``unknown`` — what a bounded search reports when it stops."""
    return _fact(formula, _verdict(UNKNOWN, method, reason))


def negate(fact: Fact) -> Fact:
    """``¬F`` from a checked fact ``F``: proved when F is refuted (a certified counterexample),
    refuted when F is proved resting on no assumption or oracle result, unknown otherwise.

    A fact with free symbols means "for all values" (where its denominators are nonzero), so
    its negation is formed on that quantified formula — ``¬∀ a ∈ ℝ: 2a = a + 1`` — never on the
    open one (``¬(2a = a + 1)`` would read "for all a", false at a = 1). A refuted fact over an
    uninterpreted function (its refutation picks one function) has no negation that a formula
    with a free function symbol could state: that negation is unknown."""
    if fact.admitted:
        raise ValueError("only a checked fact can be negated")
    extra = extra_conditions(fact, own_denominators=True)  # the negation binds those alone
    if extra:
        raise ValueError(
            f"the fact holds under {extra[0]!r}, which its formula does not state: no "
            "negation of it says what was shown"
        )
    fixed = fixed_names(fact) & fact.formula.free_symbols
    if fixed:  # a defined name is a constant: ¬∀ over it is not what the fact's negation says
        raise ValueError(
            f"{sorted(map(str, fixed))[0]} is fixed by a definition or an assumption: no "
            "negation binds it"
        )
    flip = {PROVED: REFUTED, REFUTED: PROVED, UNKNOWN: UNKNOWN}[fact.status]
    closed = _closed_formula(fact.formula)
    verdict = _revise(fact.verdict, status=flip)
    if flip == REFUTED and fact.rests_on:  # a proof from a hypothesis certifies no falsity
        verdict = _revise(
            fact.verdict,
            status=UNKNOWN,
            reason="the fact rests on an assumption or an oracle result: its negation is not "
            "refuted by it",
        )
    if flip == PROVED and closed.has(sympy.core.function.AppliedUndef):
        verdict = _revise(
            fact.verdict,
            status=UNKNOWN,
            reason="the refutation chose a function; "
            "¬∀ over a free function symbol is not what it showed",
        )
    return _fact(sympy.Not(closed, evaluate=False), verdict, parts=(fact,))


def extra_conditions(fact: Fact, own_denominators: bool = False) -> list[str]:
    """The conditions of ``fact``'s shown domain beyond its symbols' assumptions: one it was
    proved under (x ≠ 0, carried by ``mp`` or ``trans`` from a premise with a denominator) and
    its formula does not state. ``own_denominators``: d ≠ 0 for a denominator d of the formula
    itself is no extra (an instance keeps d; a negation guards it)."""
    symbols = fact.formula.atoms(sympy.Symbol)
    plain = {f"{s} ∈ {set_text(symbol_set(s))}" for s in symbols} | {
        domain_text(s) for s in symbols
    }
    if own_denominators:
        plain |= {divisor_text(d) for d in denominators(fact.formula)}
    return [d for d in fact.domain if d not in plain]


def _closed_formula(formula: sympy.Basic) -> sympy.Basic:
    """``formula`` with its free symbols bound by ``∀`` over their domains (the assumptions),
    where its denominators are nonzero: the statement a fact with free symbols makes."""
    free = sorted((s for s in formula.free_symbols if isinstance(s, sympy.Symbol)), key=str)
    if not free:
        return formula
    dens = [d for d in denominators(formula) if d.free_symbols & set(free)]
    body = (
        formula
        if not dens
        else sympy.Implies(
            sympy.And(*[sympy.Ne(d, 0, evaluate=False) for d in dens], evaluate=False),
            formula,
            evaluate=False,
        )
    )
    return ForAll(free, body)
