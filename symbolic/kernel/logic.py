"""Quantified formulas as SymPy objects, so that every fact's formula is one SymPy tree.

``ForAll(variables, body, domain)`` and ``Exists(...)`` print as ``∀ t ∈ (0, ∞): …`` (text)
and ``\\forall t \\in (0, \\infty)\\colon …`` (LaTeX); Z3 formulas are translated into them
(``symbolic.kernel.z3_checks``). They carry no logic of their own: the checkers decide.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Mapping

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair
from sympy.logic.boolalg import Boolean, as_Boolean
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.printing.conventions import split_super_sub

from symbolic.errors import InvalidArgument

REALS = sympy.S.Reals


def sympy_value(value: object) -> sympy.Basic:
    """A SymPy object as it is, a Python int or float as its exact value; anything else (text
    above all: ``sympify`` would parse and evaluate it) refused. The kernel's ``sympify``."""
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(
            f"{value!r:.60}: the kernel takes SymPy objects and numbers, never text"
        )
    return (
        sympy.Integer(value)
        if isinstance(value, int)
        else sympy.Rational(*value.as_integer_ratio())
    )


def literal(func: type, args: list | tuple) -> sympy.Basic:
    """``func(*args)`` as written: SymPy's evaluation off for this node (``evaluate=False``).
    Not ``with sympy.evaluate(False)``, which clears SymPy's whole cache on entry and on exit
    (its cache does not know the global switch): that context is kept only for the few
    constructors that take no ``evaluate`` argument and may read the switch (``_switch_free``
    ones are built directly)."""
    if _switch_free(func, args):
        return func(*args)
    try:
        return func(*args, evaluate=False)
    except TypeError:
        with sympy.evaluate(False):
            return func(*args)


def _switch_free(func: type, args: list | tuple) -> bool:
    """Does ``func(*args)`` build the same node whatever SymPy's evaluation switch says? So for
    ``Transpose`` and ``Inverse`` (built as given), a ``Lambda`` applied elementwise to a matrix
    that is not 1×1 (only a 1×1 one is applied at once), and a ``Piecewise`` branch whose
    condition holds no ``Piecewise``."""
    if func in (sympy.Transpose, sympy.Inverse):
        return True
    if func is ElementwiseApplyFunction:
        return isinstance(args[0], sympy.Lambda) and getattr(args[1], "shape", None) != (1, 1)
    return func is ExprCondPair and not args[1].has(sympy.Piecewise)


def literal_replace(expr: sympy.Basic, rule: Mapping) -> sympy.Basic:
    """``expr.xreplace(rule)`` with every node it rebuilds built as written (``literal``):
    replacement and nothing else."""

    def walk(e: sympy.Basic) -> tuple[sympy.Basic, bool]:
        if e in rule:
            return rule[e], True
        args, changed = [], False
        for a in e.args:
            new, moved = walk(a) if isinstance(a, sympy.Basic) else (a, False)
            args.append(new)
            changed |= moved
        return (literal(e.func, args), True) if changed else (e, False)

    return walk(expr)[0] if rule else expr


def equation(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Basic:
    """``lhs = rhs`` as written: unevaluated (SymPy would make ``Eq(x, x)`` the value True)."""
    return sympy.Eq(lhs, rhs, evaluate=False)


def conjunction(*formulas: sympy.Basic) -> sympy.Basic:
    """``A ∧ B ∧ …`` as ``sympy.And`` builds it (nested conjunctions flattened, ``true``
    dropped, duplicates merged, arguments in SymPy's order) without its pass that puts every
    relation into canonical form to find equivalent ones: on formulas holding sums, derivatives
    or ``Max`` that pass is most of the cost, and it only ever shortens a conjunction."""
    args: list[sympy.Basic] = []
    for f in formulas:
        f = as_Boolean(f)
        if f is sympy.false:
            return sympy.false
        if f is not sympy.true:
            args.extend(f.args if isinstance(f, sympy.And) else (f,))
    unique = frozenset(args)
    if len(unique) < 2:
        return sympy.And(*formulas)
    held = sympy.Basic.__new__(sympy.And, *sympy.ordered(unique))
    held._argset = unique  # as LatticeOp.__new__ sets it
    return held


def _bound_symbols(variables: object) -> list[sympy.Symbol]:
    """A quantifier's variables: one symbol, or an iterable of symbols — never text
    (``sympy.Tuple`` would ``sympify`` a string, parsing and evaluating it)."""
    if isinstance(variables, sympy.Symbol):
        return [variables]
    text_or_term = isinstance(variables, (str, bytes, sympy.Basic))
    if not isinstance(variables, sympy.Tuple) and (
        text_or_term or not isinstance(variables, Iterable)
    ):
        raise InvalidArgument(
            f"{variables!r:.60}: a quantifier binds a symbol or a tuple of symbols"
        )
    out = list(variables)
    bad = next((v for v in out if not isinstance(v, sympy.Symbol)), None)
    if bad is not None:
        raise InvalidArgument(
            f"{bad!r:.60}: a quantifier binds SymPy symbols, never text or numbers"
        )
    return out


def print_key(name: str) -> str:
    """What a name looks like once printed: as LaTeX sets it (``split_super_sub``: ``x_1`` and
    ``x1`` both x with subscript 1), a Greek letter and its name alike (the text printer shows
    ``alpha`` as α, LaTeX both as alpha; an empty script, ``t_`` as ``t_{}``, shows nothing)."""
    base, supers, subs = split_super_sub(name)
    supers, subs = (tuple(greek_spelled(p) for p in parts if p) for parts in (supers, subs))
    return repr((greek_spelled(base), supers, subs))


def greek_spelled(text: str) -> str:
    out = []
    for ch in text:
        greek = unicodedata.name(ch, "") if ord(ch) > 127 else ""
        if greek.startswith(("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")):
            letter = greek.rsplit(" ", 1)[1].lower()
            ch = letter if "SMALL" in greek else letter.capitalize()
        out.append(ch)
    named = "".join(out)
    return {"lamda": "lambda", "Lamda": "Lambda"}.get(
        named, named
    )  # Unicode's and SymPy's spelling


def symbol_key(s: sympy.Symbol) -> str:
    """``print_key`` of a symbol's name; a ``Dummy`` prints as ``_t``, apart from ``t``."""
    return ("_" if isinstance(s, sympy.Dummy) else "") + print_key(s.name)


class _Quantifier(Boolean):
    symbol_text = "?"
    symbol_latex = "?"
    # Its scope runs to the end of the text: inside ∧, ∨, ¬ or ⇒ it is parenthesised
    # (lowest precedence for the text printer, a Boolean for the LaTeX one).
    precedence = 1
    is_Boolean = True

    def __new__(
        cls,
        variables: Iterable[sympy.Symbol],
        body: sympy.Basic,
        domain: sympy.Set | sympy.Tuple | None = None,
    ):
        variables = sympy.Tuple(*_bound_symbols(variables))
        if domain is not None and not isinstance(domain, (sympy.Set, sympy.Tuple)):
            raise InvalidArgument(f"domain={domain!r:.60}: a quantifier's domain is a SymPy Set")
        domain = domain_of(variables) if domain is None else domain
        if isinstance(domain, sympy.Tuple) and len(domain) != len(variables):
            raise InvalidArgument(
                f"a quantifier over {len(variables)} variable(s) takes one set or one per "
                f"variable, not {len(domain)}"
            )
        if isinstance(domain, sympy.Tuple) and len(set(domain)) == 1:
            domain = domain[0]  # one canonical form: the same set for every variable is one set
        body = sympy_value(body)
        names = {symbol_key(v): v for v in variables}
        twin = next((s for s in body.atoms(sympy.Symbol) if names.get(symbol_key(s), s) != s), None)
        if twin is not None:  # ∀ x ∈ ℝ over a body whose x is a second, positive symbol
            raise InvalidArgument(
                f"the quantifier's variable {twin} and another symbol of that name in its body "
                "(other assumptions) would print alike: rename one"
            )
        return sympy.Basic.__new__(cls, variables, body, domain)

    @property
    def variables(self) -> tuple[sympy.Symbol, ...]:
        return tuple(self.args[0])

    @property
    def body(self) -> sympy.Basic:
        return self.args[1]

    @property
    def domain(self) -> sympy.Set | sympy.Tuple:
        """One set for every variable, or a ``Tuple`` of sets, one per variable."""
        return self.args[2]

    def ranges(self) -> tuple[tuple[sympy.Symbol, sympy.Set], ...]:
        d = self.domain
        sets = tuple(d) if isinstance(d, sympy.Tuple) else (d,) * len(self.variables)
        return tuple(zip(self.variables, sets, strict=True))

    @property
    def free_symbols(self):
        return self.body.free_symbols - set(self.variables)

    def _sympystr(self, printer) -> str:
        parts = []
        for v, s in self.ranges():  # the variable's own assumptions narrow the set: shown too
            own, extra = _narrowing(v, s)
            shown = set_text(s) + (f" ∩ {set_text(own)}" if own is not None else "")
            parts.append(f"{printer._print(v)} ∈ {shown}" + "".join(f" ({a})" for a in extra))
        return f"{self.symbol_text} {', '.join(parts)}: {printer._print(self.body)}"

    def _latex(self, printer) -> str:
        def one(s):
            return r"\mathbb{R}" if s == REALS else printer._print(s)

        parts = []
        for v, s in self.ranges():
            own, extra = _narrowing(v, s)
            shown = one(s) + (rf" \cap {one(own)}" if own is not None else "")
            tail = "".join(rf" \text{{ ({a})}}" for a in extra)
            parts.append(rf"{printer._print(v)} \in {shown}{tail}")
        return rf"{self.symbol_latex} {', '.join(parts)}\colon {printer._print(self.body)}"


class ForAll(_Quantifier):
    symbol_text = "∀"
    symbol_latex = r"\forall"


class Exists(_Quantifier):
    symbol_text = "∃"
    symbol_latex = r"\exists"


POSITIVE = sympy.Interval.open(0, sympy.oo)
NEGATIVE = sympy.Interval.open(-sympy.oo, 0)
NONNEGATIVE = sympy.Interval(0, sympy.oo)
NONZERO = sympy.Union(NEGATIVE, POSITIVE)


def symbol_set(v: sympy.Symbol) -> sympy.Set:
    """The set a real symbol ranges over, read off its SymPy assumptions."""
    if v.is_integer:
        if v.is_positive:
            return sympy.S.Naturals
        return sympy.S.Naturals0 if v.is_nonnegative else sympy.S.Integers
    if v.is_positive:
        return POSITIVE
    if v.is_negative:
        return NEGATIVE
    if v.is_nonnegative:
        return NONNEGATIVE
    return NONZERO if v.is_nonzero else REALS


SIGNS = ("zero", "positive", "negative", "nonnegative", "nonpositive", "nonzero")


# Assumptions no set of ``symbol_set`` states: named beside it wherever a domain is shown.
ADJECTIVES = (
    "even",
    "odd",
    "prime",
    "composite",
    "rational",
    "irrational",
    "algebraic",
    "transcendental",
    "noninteger",
    "zero",
)


def extra_assumptions(v: sympy.Symbol) -> tuple[str, ...]:
    """What ``v`` is declared beyond ``symbol_set(v)``: ``("odd",)`` for an odd integer (shown
    as ``o ∈ ℤ (odd)``, never as plain ℤ), ``("prime",)``, ``("rational",)``, ..."""
    return _extra(tuple(sorted(v.assumptions0.items())), symbol_set(v))


@functools.lru_cache(maxsize=256)  # per set of assumptions: deducing them is slow
def _extra(assumptions: tuple, dom: sympy.Set) -> tuple[str, ...]:
    a = dict(assumptions)
    kind = "integer" if dom.is_subset(sympy.S.Integers) else "real"
    canon = sympy.Symbol("t", **{kind: True}).assumptions0
    found = [k for k in ADJECTIVES if a.get(k) and not canon.get(k)]
    implied = {  # rational says algebraic, prime says ... : only what no other one says
        k
        for other in found
        for k, v in sympy.Symbol("t", **{kind: True, other: True}).assumptions0.items()
        if v and k != other
    }
    return tuple(k for k in found if k not in implied)


def divisor_text(d: sympy.Expr) -> str:
    """The condition a divisor ``d`` puts on a formula, as its domain shows it: ``d ≠ 0``, and
    for a noncommutative ``d`` (an element of SymPy's matrix-like ring) ``d invertible`` —
    SymPy cancels ``G⁻¹G`` to 1, which holds where G is invertible, not wherever G ≠ 0."""
    text = sympy.sstr(d)
    return f"{text} invertible" if d.is_commutative is False else f"{text} ≠ 0"


def divisor_conditions(divisors) -> list[str]:
    """``divisor_text`` of each of ``divisors`` that may be 0 (a noncommutative one always:
    SymPy calls it nonzero, as it is no number)."""
    return [
        divisor_text(d) for d in divisors if d.is_zero is not False or d.is_commutative is False
    ]


def domain_text(v: sympy.Symbol) -> str | None:
    """``v ∈ S`` as a fact's domain shows it (``o ∈ ℤ (odd)``), or None for a plain real."""
    dom, extra = symbol_set(v), extra_assumptions(v)
    if dom == REALS and not extra:
        return None
    return f"{v} ∈ {set_text(dom)}" + "".join(f" ({a})" for a in extra)


def _narrowing(v: sympy.Symbol, s: sympy.Set) -> tuple[sympy.Set | None, tuple[str, ...]]:
    """What ``v``'s own assumptions add to a quantifier's set ``s``: its ``symbol_set`` when
    that does not contain ``s`` (``∀ x ∈ [−1, 1] ∩ (0, ∞)`` for a positive x), and its other
    assumptions (odd, prime, ...)."""
    own = symbol_set(v)
    try:
        contained = own == REALS or own == s or s.is_subset(own) is True
    except (TypeError, ValueError, NotImplementedError):
        contained = False
    return (None if contained else own), extra_assumptions(v)


def kind_and_sign(v: sympy.Symbol) -> tuple[str, str | None] | None:
    """``("integer" | "real", sign or None)`` when ``v``'s assumptions are exactly those (no
    assumptions at all: a real symbol); None for any other (odd, prime, rational, complex,
    ...). What a quantifier's set and the Z3 translation can state of a variable."""
    a = v.assumptions0
    if a in ({}, {"commutative": True}):
        return "real", None
    if v.is_real is not True:
        return None
    kind = "integer" if v.is_integer else "real"
    sign = next((k for k in SIGNS if a.get(k)), None)
    canon = sympy.Symbol("t", **{kind: True}, **({sign: True} if sign else {})).assumptions0
    return (kind, sign) if canon == a else None


def exact_set(v: sympy.Symbol) -> sympy.Set | None:
    """``symbol_set(v)`` when it is exactly the set ``v``'s assumptions say (real or integer,
    with a sign at most, not zero); None for assumptions no such set writes (odd, even, prime,
    rational, imaginary, ...)."""
    found = kind_and_sign(v)
    return symbol_set(v) if found is not None and found[1] != "zero" else None


def domain_of(variables: Iterable[sympy.Symbol]) -> sympy.Set | sympy.Tuple:
    """One set when every variable ranges over the same one, else a ``Tuple`` of sets."""
    sets = [symbol_set(v) for v in variables]
    if not sets:
        return REALS
    return sets[0] if all(s == sets[0] for s in sets) else sympy.Tuple(*sets)


def set_text(s: sympy.Set) -> str:
    """``ℝ``, ``(0, ∞)``, ``[−1, 1]``, ``ℝ∖{0}``: a set as a reader writes it."""
    if s == REALS:
        return "ℝ"
    if s == sympy.S.Integers:
        return "ℤ"
    if s == sympy.S.Naturals:
        return "ℕ₊"
    if s == sympy.S.Naturals0:
        return "ℕ"
    if isinstance(s, sympy.Interval):

        def end(x):
            return "∞" if x == sympy.oo else "−∞" if x == -sympy.oo else sympy.sstr(x)

        return (
            ("(" if s.left_open else "[")
            + f"{end(s.start)}, {end(s.end)}"
            + (")" if s.right_open else "]")
        )
    if s == NONZERO:
        return "ℝ∖{0}"
    if isinstance(s, sympy.Complement):  # a domain with points taken out: ℝ ∖ {1}
        return f"{set_text(s.args[0])} ∖ {set_text(s.args[1])}"
    if isinstance(s, sympy.FiniteSet):
        return "{" + ", ".join(sympy.sstr(v) for v in s) + "}"
    return sympy.sstr(s)
