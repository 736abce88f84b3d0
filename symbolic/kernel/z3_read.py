"""Z3 → SymPy: a formula built in Z3 read as SymPy, and the check that a translation comes back.

``to_sympy`` keeps sorts (an ``Int`` constant is an integer symbol, a ``Bool`` constant a
Boolean symbol, ``ToInt`` is ``floor``) and refuses what has no faithful counterpart; given the
``Translator`` that made a term, it maps constants and quantifiers back to the very SymPy symbols
and domains they came from. ``same`` compares a formula with its translation back.
"""

from __future__ import annotations

from typing import Any

import sympy
import z3

from symbolic.kernel.logic import Exists, ForAll
from symbolic.kernel.z3_translate import MAX_Z3_POWER, Untranslatable, quantifier_key

_BINARY = {
    z3.Z3_OP_EQ: lambda a, b: sympy.Eq(a, b, evaluate=False),
    z3.Z3_OP_LE: lambda a, b: sympy.LessThan(a, b, evaluate=False),
    z3.Z3_OP_LT: lambda a, b: sympy.StrictLessThan(a, b, evaluate=False),
    z3.Z3_OP_GE: lambda a, b: sympy.GreaterThan(a, b, evaluate=False),
    z3.Z3_OP_GT: lambda a, b: sympy.StrictGreaterThan(a, b, evaluate=False),
    z3.Z3_OP_IMPLIES: lambda a, b: sympy.Implies(a, b, evaluate=False),
    z3.Z3_OP_SUB: lambda a, b: sympy.Add(a, sympy.Mul(-1, b, evaluate=False), evaluate=False),
}
_NARY = {
    z3.Z3_OP_AND: lambda *xs: sympy.And(*xs, evaluate=False),
    z3.Z3_OP_OR: lambda *xs: sympy.Or(*xs, evaluate=False),
    z3.Z3_OP_ADD: lambda *xs: sympy.Add(*xs, evaluate=False),
    z3.Z3_OP_MUL: lambda *xs: sympy.Mul(*xs, evaluate=False),
}


def _rebuilt(e: sympy.Basic) -> sympy.Basic:
    """``e`` with its arithmetic evaluated and its logic left as built: the normal form in which
    a formula and its translation back are compared."""
    if isinstance(e, (ForAll, Exists)):
        return type(e)(e.variables, _rebuilt(e.body), e.domain)
    if not e.args or isinstance(e, sympy.Set):
        return e
    args = [_rebuilt(a) for a in e.args]
    if isinstance(e, sympy.Equivalent) and len(args) > 2:  # all equal: as Z3 states it
        pairs = [sympy.Equivalent(args[0], a, evaluate=False) for a in args[1:]]
        return sympy.And(*pairs, evaluate=False)
    if isinstance(e, (sympy.logic.boolalg.Boolean, sympy.core.relational.Relational)):
        return e.func(*args, evaluate=False)
    return e.func(*args)


def same(back: sympy.Basic, formula: sympy.Basic) -> bool:
    try:
        return _rebuilt(back) == _rebuilt(formula)
    except (TypeError, ValueError):
        return False


def _number(e: Any) -> sympy.Rational:
    """A Z3 numeral as a SymPy number; refused past the digits Python reads (4300 by default:
    more than the kernel's ``MAX_NUMBER_BITS`` anyway), where ``int`` raised ``ValueError``."""
    try:
        if z3.is_int_value(e):
            return sympy.Integer(e.as_long())
        return sympy.Rational(e.numerator_as_long(), e.denominator_as_long())
    except ValueError:
        raise Untranslatable(f"the number {str(e)[:30]}… has too many digits") from None


def _sort_symbol(name: str, sort: Any) -> sympy.Symbol:
    if sort == z3.RealSort():
        return sympy.Symbol(name, real=True)
    if sort == z3.IntSort():
        return sympy.Symbol(name, integer=True)
    if sort == z3.BoolSort():
        return sympy.Symbol(name)
    raise Untranslatable(
        f"{name} has the sort {sort}, which has no SymPy translation (Real, Int and Bool have)"
    )


def to_sympy(
    e: Any, bound: tuple = (), tr: Any = None, patterns: dict | None = None
) -> sympy.Basic:
    """The Z3 expression ``e`` as a SymPy formula with the same meaning: ``Int`` constants are
    integer symbols, ``Bool`` constants Boolean symbols, ``ToReal`` is dropped (it keeps the
    value), ``ToInt`` is ``floor``; anything else without a faithful counterpart (integer
    division, ``mod``, other sorts, algebraic numbers) is refused (``Untranslatable``)."""
    if z3.is_quantifier(e):
        made = None
        if tr is not None and (e.is_forall() or e.is_exists()):
            made = tr.quantifiers.get(e.get_id()) or tr.quantifiers.get(quantifier_key(e))
        if made is not None:
            variables, domain, guarded = made
            inner = tuple(reversed(variables)) + bound
            body = e.body().arg(1) if guarded and e.is_forall() else e.body()
            if guarded and not e.is_forall():
                body = body.arg(body.num_args() - 1)
            cls = ForAll if e.is_forall() else Exists
            return cls(variables, to_sympy(body, inner, tr), domain=domain)
        if not (e.is_forall() or e.is_exists()):
            raise Untranslatable("lambda terms have no SymPy translation")
        names = [_sort_symbol(e.var_name(i), e.var_sort(i)) for i in range(e.num_vars())]
        inner = tuple(reversed(names)) + bound  # de Bruijn index 0 is the innermost variable
        body = to_sympy(e.body(), inner, tr, patterns)
        clash = {str(s) for s in body.free_symbols} & {str(n) for n in names}
        taken = {str(s) for s in body.free_symbols if s not in names}
        if clash & taken:
            raise Untranslatable("a bound variable has the name of a free constant")
        cls = ForAll if e.is_forall() else Exists
        domain = (
            sympy.Tuple(*[sympy.S.Integers if n.is_integer else sympy.S.Reals for n in names])
            if len(names) > 1
            else (sympy.S.Integers if names[0].is_integer else sympy.S.Reals)
        )
        made = cls(names, body, domain=domain)
        if patterns is not None and e.num_patterns():
            try:
                patterns[made] = [
                    [to_sympy(t, inner, tr) for t in e.pattern(i).children()]
                    for i in range(e.num_patterns())
                ]
            except Untranslatable:
                pass
        return made
    if z3.is_var(e):
        i = z3.get_var_index(e)
        if i >= len(bound) or (e.sort() == z3.IntSort()) != (bound[i].is_integer is True):
            # a z3.Var(i, sort) built by hand: bound by no quantifier, or of another sort
            raise Untranslatable(f"the variable {e} is bound by no quantifier of its sort")
        return bound[i]
    if z3.is_true(e):
        return sympy.true
    if z3.is_false(e):
        return sympy.false
    if z3.is_rational_value(e) or z3.is_int_value(e):
        return _number(e)
    if not z3.is_app(e):
        raise Untranslatable(f"{e} has no SymPy translation")
    decl = e.decl()
    kind = decl.kind()
    if kind == z3.Z3_OP_UNINTERPRETED:
        name = decl.name()
        if e.num_args() == 0:
            if tr is not None and name in tr.names:
                return tr.names[name]
            return _sort_symbol(name, e.sort())
        if (
            any(decl.domain(i) != z3.RealSort() for i in range(decl.arity()))
            or decl.range() != z3.RealSort()
        ):
            raise Untranslatable(
                f"the function {name} is not ℝ^k → ℝ: only real "
                "uninterpreted functions have a SymPy translation"
            )
        args = [to_sympy(a, bound, tr) for a in e.children()]
        f = (
            tr.names[name]
            if tr is not None and name in tr.names
            else sympy.Function(name, real=True)
        )
        return f(*args)
    if kind == z3.Z3_OP_ITE and not z3.is_bool(e):
        pieces = []
        while z3.is_app_of(e, z3.Z3_OP_ITE):  # If(c1, a, If(c2, b, d)): one Piecewise
            pieces.append(
                (to_sympy(e.arg(1), bound, tr, patterns), to_sympy(e.arg(0), bound, tr, patterns))
            )
            e = e.arg(2)
        pieces.append((to_sympy(e, bound, tr, patterns), sympy.true))
        return sympy.Piecewise(*pieces, evaluate=False)
    args = [to_sympy(a, bound, tr, patterns) for a in e.children()]
    if kind == z3.Z3_OP_TO_REAL:
        return args[0]
    if kind == z3.Z3_OP_TO_INT:
        return sympy.floor(args[0], evaluate=False)
    if kind == z3.Z3_OP_NOT:
        return sympy.Not(args[0], evaluate=False)
    if kind == z3.Z3_OP_UMINUS:
        return sympy.Mul(-1, args[0], evaluate=False)
    if kind == z3.Z3_OP_DISTINCT and len(args) == 2:
        return sympy.Ne(args[0], args[1], evaluate=False)
    if kind == z3.Z3_OP_EQ and z3.is_bool(e.arg(0)):
        return sympy.Equivalent(*args, evaluate=False)
    if kind == z3.Z3_OP_XOR:
        return sympy.Xor(*args, evaluate=False)
    if kind == z3.Z3_OP_DIV and not z3.is_int(e):
        return sympy.Mul(args[0], sympy.Pow(args[1], -1, evaluate=False), evaluate=False)
    if kind == z3.Z3_OP_POWER:
        exponent = args[1]
        if not (exponent.is_Integer and abs(int(exponent)) <= MAX_Z3_POWER):
            raise Untranslatable(f"the power {e} has no faithful SymPy translation")
        if int(exponent) < 0 or z3.is_int(e):
            raise Untranslatable(f"the power {e} has no faithful SymPy translation")
        return sympy.Pow(args[0], exponent, evaluate=False)
    if kind in _BINARY and len(args) == 2:
        return _BINARY[kind](*args)
    if kind in _NARY:
        return _NARY[kind](*args)
    raise Untranslatable(
        f"{str(e)[:60]}: the Z3 operation {decl.name()} has no SymPy "
        "translation here (integer division, mod, ite, ... are refused)"
    )


def exact_floors(e: Any, rounds: int = 8) -> Any:
    """``e`` (a term Z3's model evaluator gave back) with every ``ToInt`` of a numeral replaced by
    its floor, computed exactly, and simplified again, until none is left: Z3's evaluator leaves
    ``ToInt(93733.6279558470?)`` of an algebraic number as it is, so a counter-model holding one
    neither evaluates its formula to true nor gives its constant a numeral."""
    for _ in range(rounds):
        found: dict = {}
        stack = [e]
        while stack:
            t = stack.pop()
            if z3.is_app_of(t, z3.Z3_OP_TO_INT) and _is_numeral(t.arg(0)):
                found[t.get_id()] = (t, z3.IntVal(_floor(t.arg(0))))
            elif z3.is_app(t):
                stack += t.children()
        if not found:
            return e
        e = z3.simplify(z3.substitute(e, *found.values()))
    return e


def _is_numeral(v: Any) -> bool:
    return z3.is_rational_value(v) or z3.is_int_value(v) or z3.is_algebraic_value(v)


def _floor(v: Any) -> int:
    """⌊v⌋ of a Z3 numeral, exactly: for an algebraic number, from enclosures narrowed until
    both ends have one floor (an algebraic value is irrational, so some width separates it from
    the integers), refused when 10⁻³²⁰ does not."""
    if not z3.is_algebraic_value(v):
        return int(sympy.floor(to_sympy(v)))
    for digits in (20, 80, 320):
        mid, eps = to_sympy(v.approx(digits)), sympy.Rational(1, 10**digits)
        lo, hi = sympy.floor(mid - eps), sympy.floor(mid + eps)
        if lo == hi:
            return int(lo)
    raise Untranslatable(f"the floor of {v} was not decided")


def model_value(v: Any) -> str:
    """A value of Z3's model, written exactly: an integer or a fraction ``p/q``, ``True`` or
    ``False``, an algebraic number as SymPy's exact root (``-sqrt(2)``, ``CRootOf(t**3 - t - 1,
    0)``), never Z3's truncated decimal ``-1.4142135623?``. Refused (``Untranslatable``) for
    anything else."""
    if z3.is_true(v) or z3.is_false(v):
        return str(z3.is_true(v))
    if z3.is_int_value(v) or z3.is_rational_value(v):
        return v.as_string()  # Z3's exact "p/q", also past the digits Python's int reads
    if z3.is_algebraic_value(v):
        try:
            return _algebraic(v)
        except Untranslatable:  # Z3's own (root-obj p i) is exact too
            return v.sexpr()
    raise Untranslatable(f"the model value {str(v)[:60]} has no exact SymPy translation")


def _algebraic(v: Any) -> str:
    """Z3's ``(root-obj p i)``, the i-th real root of ``p``, as SymPy's ``CRootOf(p, k)`` (its
    real roots first, ascending, from 0), in radicals for a quadratic ``p``. The index is checked
    exactly, not taken on trust: ``p`` is square-free with exactly ``k`` real roots below Z3's
    enclosure of its root (within 10⁻⁴⁰) and one inside (Sturm counts). A polynomial of degree
    above ``MAX_Z3_POWER`` is shown as Z3 writes it (``root-obj``), which is exact too."""
    t = sympy.Symbol("t")
    poly = sympy.Poly([to_sympy(c) for c in reversed(v.poly())], t)  # Z3: constant term first
    if poly.degree() > MAX_Z3_POWER:
        return v.sexpr()
    mid, eps = to_sympy(v.approx(40)), sympy.Rational(1, 10**40)
    lo, hi = mid - eps, mid + eps
    k = poly.count_roots(None, lo)
    if not poly.is_sqf or poly.count_roots(lo, hi) != 1 or poly.eval(lo) == 0:
        raise Untranslatable(f"the algebraic number {v} was not read back exactly")
    if poly.degree() == 2:
        shown = sympy.rootof(poly, k, radicals=True)
        if (
            sympy.StrictLessThan(lo, shown) is sympy.true
            and sympy.StrictLessThan(shown, hi) is sympy.true
        ):
            return sympy.sstr(shown)
    return f"CRootOf({sympy.sstr(poly.as_expr())}, {k})"
