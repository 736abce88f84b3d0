"""Points of the symbols' domains: the witnesses that refute an identity.

``in_domain(symbol, value)`` judges whether a value satisfies a symbol's SymPy assumptions
(exactly for a rational, by certified signs otherwise); ``counterexample(lhs, rhs, point)``
refutes ``∀vars: lhs = rhs`` when ``lhs − rhs`` at ``point`` is certified nonzero and the point
lies in the domain where the identity is claimed.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy

from symbolic.kernel.branches import at
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.huge_powers import difference
from symbolic.kernel.inputs import as_input
from symbolic.kernel.inputs import denominators as negative_powers
from symbolic.kernel.interval_checks import CERTIFY_TIMEOUT_S, _sign_verdict, complex_safe
from symbolic.kernel.intervals import MAX_BITS
from symbolic.kernel.logic import ForAll, domain_of, literal_replace, sympy_value
from symbolic.kernel.valueless import pole_reason
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _verdict


def denominators(*exprs: sympy.Basic) -> tuple[sympy.Expr, ...]:
    """The bases that must be nonzero where a formula holding ``exprs`` is claimed: those of its
    negative powers (``inputs.denominators``) and of its powers whose exponent is not known
    nonnegative (``x^a·x^b = x^(a+b)`` has no value at x = 0, a = 2, b = −1: it is claimed
    for x ≠ 0, and shown so), unless known nonzero."""
    found = list(negative_powers(*exprs))
    for e in exprs:
        nodes = sympy.preorder_traversal(e) if isinstance(e, sympy.Basic) else ()
        for node in nodes:
            if (
                isinstance(node, sympy.Pow)
                and node.exp.is_nonnegative is not True
                and node.base.free_symbols
                and node.base.is_nonzero is not True
                and node.base not in found
            ):
                found.append(node.base)
    return tuple(found)


# A sign assumption of a symbol, as the relation to 0 certified for a value that is not rational
# (nonnegative as > 0: an irrational spelling of 0 stays undecided).
_SIGN_RELATIONS = {
    "positive": ">",
    "negative": "<",
    "nonzero": "≠",
    "nonnegative": ">",
    "nonpositive": "<",
}


def _read_off(
    value: sympy.Expr, facts: Mapping[str, bool], skip: frozenset = frozenset()
) -> bool | None:
    """Each assumption of ``facts`` (but those in ``skip``) read from ``value``'s own."""
    for key, wanted in facts.items():
        if key in skip:
            continue
        got = getattr(value, f"is_{key}", None)
        if got is None:
            return None
        if got != wanted:
            return False
    return True


def in_domain(symbol: sympy.Symbol, value: sympy.Expr) -> bool | None:
    """Does ``value`` satisfy the assumptions SymPy attaches to ``symbol``? None: undecided.

    A rational value is judged on every assumption (SymPy decides each of a rational number
    exactly: ``nonnegative``, ``even``, ``prime``, ...). Otherwise the signs are certified by
    intervals (``_SIGN_RELATIONS``) and the other assumptions read from the value."""
    value = as_input(value, str(symbol))  # never text: a number or a SymPy object
    facts = {k: v for k, v in symbol.assumptions0.items() if v is not None}
    if value.is_Rational:
        return _read_off(value, facts)
    if facts.get("integer") or facts.get("rational"):
        return False  # a rational number would have been given as one
    for wanted in sorted({rel for key, rel in _SIGN_RELATIONS.items() if facts.get(key)}):
        v = _sign_verdict(value, wanted, CERTIFY_TIMEOUT_S, MAX_BITS)
        if v.status != PROVED:
            return None if v.status == UNKNOWN else False
    return _read_off(value, facts, skip=frozenset(_SIGN_RELATIONS) | {"zero"})


POINT_ERRORS = (
    TypeError,
    ValueError,
    ZeroDivisionError,
    OverflowError,
    AttributeError,
    NotImplementedError,
    RecursionError,
)
FILL_VALUES = tuple(sympy.Rational(v) for v in ("1", "2", "1/2", "-1", "0", "7/5"))


def counterexample(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    point: Mapping[sympy.Symbol, sympy.Expr],
    variables: tuple[sympy.Symbol, ...] | None = None,
    timeout_s: float = CERTIFY_TIMEOUT_S,
    max_bits: int = MAX_BITS,
) -> Fact:
    """The identity ``∀ variables: lhs = rhs`` (where its denominators are nonzero), refuted when
    ``lhs − rhs`` at ``point`` is certified nonzero; else unknown.

    A witness is a point of the formula's variables: ``point`` may give values only to free
    symbols of ``lhs`` and ``rhs`` (genuine symbols: an ``Indexed`` entry is a function of its
    base, not a variable, and an uninterpreted function no number) — an extra or non-symbol key
    is a ``ValueError``. A variable it leaves out is given the first value of ``FILL_VALUES`` in
    its domain (it can only be one that cancels from ``lhs − rhs``: otherwise the difference is
    not a number there), so that the witness assigns every variable of the formula. Each value
    must lie in its symbol's domain, every denominator be certified nonzero there and every
    closed term have a value there (``valueless``), else unknown."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    point = {k: as_input(v, str(k)) for k, v in dict(point).items()}
    free = lhs.free_symbols | rhs.free_symbols
    not_symbols = sorted(str(k) for k in set(point) | free if not isinstance(k, sympy.Symbol))
    if not_symbols:
        raise ValueError(
            f"a witness assigns genuine symbols only, not {not_symbols} (an Indexed "
            "entry is a function of its base)"
        )
    if lhs.has(sympy.core.function.AppliedUndef) or rhs.has(sympy.core.function.AppliedUndef):
        raise ValueError("a point cannot refute an identity of uninterpreted functions")
    variables = tuple(variables or sorted(point, key=str))
    extra = set(point) - free
    if extra or set(variables) != set(point):
        raise ValueError(
            f"the point must assign the formula's variables "
            f"{sorted(map(str, free))} and nothing else"
            + (f"; {sorted(map(str, extra))} are not its variables" if extra else "")
            + ("; variables and point differ" if set(variables) != set(point) else "")
        )
    for v in sorted(free - set(point), key=str):  # cancelled from lhs − rhs: any value will do
        value = next((c for c in FILL_VALUES if in_domain(v, c) is True), None)
        if value is None:
            raise ValueError(f"the point gives no value for {v}")
        point[v] = value
    variables = tuple(sorted(point, key=str))
    formula = ForAll(variables, sympy.Eq(lhs, rhs, evaluate=False), domain=domain_of(variables))
    witness = tuple((str(v), sympy.sstr(point[v])) for v in variables)

    def unknown(reason: str, method: str = "interval", **kw) -> Fact:
        return _fact(formula, _verdict(UNKNOWN, method, reason, witness=witness, **kw))

    for v in variables:
        inside = in_domain(v, point[v])
        if inside is not True:
            why = "outside" if inside is False else "not certified inside"
            return unknown(f"{v} = {point[v]} is {why} the domain of {v}")
    try:
        instance = at(difference(lhs, rhs), point)
        singular = [at(d, point) for d in denominators(lhs, rhs)]
        pole = pole_reason(*(literal_replace(sympy_value(e), point) for e in (lhs, rhs)))
    except POINT_ERRORS as exc:
        return unknown(f"cannot evaluate at the point ({type(exc).__name__})")
    if pole is not None:  # SymPy's 0·₁F₀(1;;1) is 0: no value, so the point refutes nothing
        return unknown(f"the formula has no value at the point: {pole}")
    plain = complex_safe(lhs, rhs)  # a non-real value judged by its imaginary part
    for d in singular:  # the identity is claimed only where its denominators are nonzero
        if _sign_verdict(d, "≠", timeout_s, max_bits, plain).status != PROVED:
            return unknown("a denominator is not certified nonzero at the point")
    nonzero = _sign_verdict(instance, "≠", timeout_s, max_bits, plain)
    if nonzero.status != PROVED:
        reason = f"not certified at the point: {nonzero.reason}"
        return unknown(reason, nonzero.method, seconds=nonzero.seconds)
    verdict = _verdict(
        REFUTED,
        nonzero.method,
        "lhs − rhs is certified nonzero at the witness",
        witness=witness,
        certificate=nonzero.certificate,
        backend=nonzero.backend,
        timeout_s=nonzero.timeout_s,
        seconds=nonzero.seconds,
    )
    return _fact(formula, verdict)
