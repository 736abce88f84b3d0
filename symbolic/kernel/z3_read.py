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
    if isinstance(e, (sympy.logic.boolalg.Boolean, sympy.core.relational.Relational)):
        return e.func(*args, evaluate=False)
    return e.func(*args)


def same(back: sympy.Basic, formula: sympy.Basic) -> bool:
    try:
        return _rebuilt(back) == _rebuilt(formula)
    except (TypeError, ValueError):
        return False


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
        return bound[z3.get_var_index(e)]
    if z3.is_true(e):
        return sympy.true
    if z3.is_false(e):
        return sympy.false
    if z3.is_rational_value(e):
        return sympy.Rational(e.numerator_as_long(), e.denominator_as_long())
    if z3.is_int_value(e):
        return sympy.Integer(e.as_long())
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
