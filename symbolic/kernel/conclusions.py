"""Does a derivation's conclusion establish a claim's statement, as the statement is shown?

A claim is shown as its statement alone; the facts of its derivation are shown with their
domains and definitions beside them. So a conclusion proves the statement only when nothing it
rests on is hidden from the statement's reader:

* no condition of its domain that the statement does not say itself (a chain ``trans`` or ``mp``
  through ``(x − 1)/(x − 1)`` holds where ``x − 1 ≠ 0``: ``[x = 1] = 0`` "proved" that way is
  false at x = 1). A statement says its symbols' sets and that its own denominators are nonzero
  (``docs/api.md``); anything else is unstated;
* no definition of a name the statement mentions that the derivation does not show (``c = 0``
  "proved" by ``unfold`` of ``c := 0`` reads as a claim about every real c), unless a claim it
  uses shows it among its steps, and no name given two values anywhere in the
  derivation (``c := 0``, ``c := 1`` and then ``c = 1``);
* the conclusion itself is checked: a definition concludes nothing.

A refutation by a proved negation ``¬S`` must stand on its own: resting on an assumption or an
oracle result, or on a condition ``¬S`` does not state, it is no certified counterexample.
"""

from __future__ import annotations

from collections.abc import Iterable

import sympy

from symbolic.kernel.fact import DEFINITION, Fact, definitions
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import divisor_text, domain_text, set_text, symbol_set
from symbolic.kernel.points import denominators


def unstated_conditions(fact: Fact, statement: sympy.Basic) -> list[str]:
    """The conditions shown beside ``fact`` (its domain) that ``statement`` does not say: not a
    set of one of its symbols, nor one of its own denominators nonzero (also only where a
    ``Piecewise`` branch is reached: ``d ≠ 0 where …``, as ``valid`` claims it), nor a divisor
    of a premise each of whose factors is one of those or known nonzero (``β^(1−d/2)·I(β)``
    with β > 0, where the statement divides by ``I(β)``)."""
    if not fact.domain:
        return []
    symbols = set(statement.atoms(sympy.Symbol))
    for values in definitions(fact).values():  # a defined name stands for its value's symbols
        symbols |= {s for v in values for s in v.atoms(sympy.Symbol)}
    said = _sets_of(symbols)
    pending = [d for d in fact.domain if d not in said]
    if not pending:  # the common case: the costlier questions below are not asked
        return []
    # the set of a symbol the statement does not hold free (a sum's index bound by
    # ``cong_in_sums``, a premise's variable eliminated by ``trans``) is no condition on it:
    # every set is nonempty. Not one printed as a statement's symbol: its text would pass for
    # a condition on that one
    names = {str(s) for s in statement.free_symbols}
    bound = {s for s in _symbols_of(fact) - statement.free_symbols if str(s) not in names}
    said = _sets_of(bound)
    pending = [d for d in pending if d not in said]
    if not pending:
        return []
    divisors = denominators(statement)  # of negative powers and of powers of unknown sign
    own = list(divisors)
    if fact.rule:  # a chain may hold where a branch's divisor is 0 and the branch is not taken
        unbranched = _unbranched(statement)
        own = [d for d in own if d in unbranched]
    shown = [divisor_text(d) for d in own]
    anywhere = [divisor_text(d) for d in divisors]
    terms = _divisors_of(fact)
    out = []
    for d in pending:
        bare, guarded = d.split(" where ", 1)[0], " where " in d  # weaker than bare d ≠ 0
        if bare in shown or (guarded and bare in anywhere):
            continue
        if bare in terms and _implied_nonzero(terms[bare], own):
            continue
        out.append(d)
    return out


def _sets_of(symbols: set) -> set[str]:
    """The conditions saying the sets of ``symbols`` (``x ∈ ℝ``, ``a > 0``), as domains show
    them."""
    real = [s for s in symbols if s.is_real is not False]
    return {f"{s} ∈ {set_text(symbol_set(s))}" for s in real} | {domain_text(s) for s in real}


def _unbranched(statement: sympy.Basic) -> set:
    """The divisors of ``statement`` outside every ``Piecewise``: those it divides by wherever
    it has a value. A checker's own fact claims a branch's divisor nonzero everywhere too
    (``equal``, documented), but a chain through ``x·x⁻¹ = 1`` carries ``x ≠ 0`` into a
    statement whose ``x/x`` sits in a branch not taken at 0, which ``valid`` refutes there."""
    found: set = set()
    stack = [statement]
    while stack:
        n = stack.pop()
        if isinstance(n, sympy.Piecewise):
            continue
        if isinstance(n, sympy.Pow) and n.exp.is_nonnegative is not True:
            found.add(n.base)
        stack += [a for a in n.args if isinstance(a, sympy.Basic)]
    return found


def _symbols_of(fact: Fact) -> set:
    """Every symbol of the formulas of ``fact`` and its premises."""
    found: set = set()
    for f in _premises(fact):
        found |= f.formula.atoms(sympy.Symbol)
    return found


def _premises(fact: Fact) -> list[Fact]:
    """``fact`` and every premise under it, each once (a derivation shares premises)."""
    seen: dict[int, Fact] = {}
    stack = [fact]
    while stack:
        f = stack.pop()
        if id(f) not in seen:
            seen[id(f)] = f
            stack.extend(f.parts)
    return list(seen.values())


def _divisors_of(fact: Fact) -> dict[str, sympy.Expr]:
    """``"d ≠ 0"`` → ``d`` for every divisor of the formulas of ``fact`` and its premises: the
    terms behind the conditions of its domain."""
    found: dict[str, sympy.Expr] = {}
    for f in _premises(fact):
        for d in denominators(f.formula):
            found.setdefault(divisor_text(d), d)
    return found


def _implied_nonzero(d: sympy.Expr, own: list) -> bool:
    """Is ``d ≠ 0`` implied by the statement's own denominators ``own`` being nonzero: is each
    factor of ``d`` (or the base of a power) one of them, or nonzero by SymPy's assumptions?"""
    for factor in sympy.Mul.make_args(d):
        base = factor.base if isinstance(factor, sympy.Pow) else factor
        if factor in own or base in own or _nonzero(factor) or _nonzero(base):
            continue
        return False
    return True


def _nonzero(e: sympy.Expr) -> bool:
    """Nonzero by SymPy's assumptions (as ``points.denominators`` drops a divisor), a closed
    number only when certified (SymPy judges those by a float: ``float_blind``)."""
    if not e.free_symbols:
        return certified_sign(e)[0] not in (None, 0)
    return e.is_nonzero is True


def _shown(name: sympy.Basic, value: sympy.Basic) -> str:
    return f"{sympy.sstr(name)} := {sympy.sstr(value)}"


def conclusion_gap(
    facts: Iterable[Fact],
    conclusion: Fact,
    statement: sympy.Basic,
    shown_elsewhere: frozenset = frozenset(),
) -> str | None:
    """Why the proved ``conclusion`` (whose formula is ``statement``), at the end of a
    derivation of ``facts``, does not establish the statement as shown; None when it does.
    ``shown_elsewhere``: the definitions the claims it uses show among their steps (their
    conclusions carry the names in: ``proofs.tied_memory``)."""
    if conclusion.kind == DEFINITION:
        return (
            f"the conclusion is the definition {_shown(*conclusion.formula.args)}, which "
            "names a value and proves nothing"
        )
    facts = tuple(facts)
    values: dict[sympy.Basic, list[sympy.Basic]] = {}
    for f in (*facts, conclusion):
        for name, found in definitions(f).items():
            values.setdefault(name, [])
            values[name] += [v for v in found if v not in values[name]]
    twice = sorted((str(n), vs) for n, vs in values.items() if len(vs) > 1)
    if twice:
        name, vs = twice[0]
        return (
            f"the derivation defines {name} twice ({name} := {sympy.sstr(vs[0])}, "
            f"{name} := {sympy.sstr(vs[1])}): from two values anything follows"
        )
    shown = {f.formula for f in facts if f.kind == DEFINITION} | set(shown_elsewhere)
    free = statement.free_symbols
    for name, found in definitions(conclusion).items():
        hidden = [v for v in found if sympy.Eq(name, v, evaluate=False) not in shown]
        if name in free and hidden:
            return (
                f"it rests on the definition {_shown(name, hidden[0])}, which is not among "
                f"its steps: the statement reads {name} as a variable (yield the definition)"
            )
    extra = unstated_conditions(conclusion, statement)
    if extra:
        return (
            f"it is proved only where {extra[0]}, which the statement does not say "
            "(state the condition in the statement, e.g. with Implies)"
        )
    return None


def refutation_gap(negation: Fact) -> str | None:
    """Why the proved negation ``¬S`` is no refutation of ``S``: it rests on an assumption or
    an oracle result, or holds only under a condition ``¬S`` does not state; None otherwise."""
    rests = negation.rests_on
    if rests:
        kind = "an assumption" if rests[0].kind == "assumption" else "an oracle result"
        return f"its negation rests on {kind}, which refutes nothing"
    extra = unstated_conditions(negation, negation.formula)
    if extra:
        return f"its negation is proved only where {extra[0]}, which refutes nothing"
    return None
