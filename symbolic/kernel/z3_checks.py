"""The Z3 checker — with ``symbolic.smt``'s re-exports, the only code that imports ``z3``.

``check_valid(build)`` asks Z3 whether the negation of the formula ``build(z3)`` is satisfiable:
``unsat`` means *proved*, ``sat`` *refuted* (the model's constants are the witness), ``unknown``
or a timeout *unknown*. The fact carries the formula translated into SymPy (``to_sympy``: the
quantifiers become ``logic.ForAll``/``Exists``, uninterpreted functions SymPy functions) — the
very formula Z3 decided — and the SMT-LIB 2 benchmark of the negated goal (``Fact.smt2``), which
any SMT solver can re-run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy
import z3

from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.limits import current_limits
from symbolic.kernel.logic import Exists, ForAll
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _verdict

# Every lemma in the toolkit is decided in milliseconds; the margin is for slow machines.
Z3_TIMEOUT_MS = 5000


def version() -> str:
    return f"z3 {z3.get_version_string()}"


def uninterpreted(name: str = "sigma") -> Any:
    """An uninterpreted function ℝ → ℝ (nothing assumed about it)."""
    return z3.Function(name, z3.RealSort(), z3.RealSort())


def check_valid(build: Callable[[Any], Any], timeout_ms: int = Z3_TIMEOUT_MS) -> Fact:
    """The fact ``build(z3)`` (valid for all values of its free constants and functions)."""
    timeout_ms = current_limits().z3_ms(timeout_ms)
    formula = build(z3)
    if not z3.is_bool(formula):
        raise TypeError("build(z3) must return a Z3 Boolean formula")
    shown = to_sympy(formula)
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(z3.Not(formula))
    smt2 = solver.to_smt2()
    answer = solver.check()
    seconds = time.perf_counter() - start
    common = dict(backend=version(), timeout_s=timeout_ms / 1000, seconds=seconds)
    if answer == z3.unsat:
        verdict = _verdict(PROVED, "z3", "negation unsat", **common)
    elif answer == z3.sat:
        model = solver.model()
        witness = tuple((str(d.name()), str(model[d])) for d in model.decls() if d.arity() == 0)
        verdict = _verdict(REFUTED, "z3", "negation sat: counter-model found", witness=witness,
                           **common)
    else:
        verdict = _verdict(UNKNOWN, "z3", f"solver said unknown ({solver.reason_unknown()})",
                           **common)
    return _fact(shown, verdict, smt2=smt2)


# --- Z3 → SymPy, for showing the formula that was checked --------------------------------------

_BINARY = {
    z3.Z3_OP_EQ: lambda a, b: sympy.Eq(a, b, evaluate=False),
    z3.Z3_OP_LE: lambda a, b: sympy.LessThan(a, b, evaluate=False),
    z3.Z3_OP_LT: lambda a, b: sympy.StrictLessThan(a, b, evaluate=False),
    z3.Z3_OP_GE: lambda a, b: sympy.GreaterThan(a, b, evaluate=False),
    z3.Z3_OP_GT: lambda a, b: sympy.StrictGreaterThan(a, b, evaluate=False),
    z3.Z3_OP_IMPLIES: lambda a, b: sympy.Implies(a, b, evaluate=False),
    z3.Z3_OP_SUB: lambda a, b: sympy.Add(a, sympy.Mul(-1, b, evaluate=False), evaluate=False),
    z3.Z3_OP_DIV: lambda a, b: sympy.Mul(a, sympy.Pow(b, -1, evaluate=False), evaluate=False),
    z3.Z3_OP_POWER: lambda a, b: sympy.Pow(a, b, evaluate=False),
}
_NARY = {
    z3.Z3_OP_AND: lambda *xs: sympy.And(*xs, evaluate=False),
    z3.Z3_OP_OR: lambda *xs: sympy.Or(*xs, evaluate=False),
    z3.Z3_OP_ADD: lambda *xs: sympy.Add(*xs, evaluate=False),
    z3.Z3_OP_MUL: lambda *xs: sympy.Mul(*xs, evaluate=False),
}


def to_sympy(e: Any, bound: tuple[sympy.Symbol, ...] = ()) -> sympy.Basic:
    """The Z3 expression ``e`` as a SymPy object (for printing; the check ran on ``e``)."""
    if z3.is_quantifier(e):
        names = [sympy.Symbol(e.var_name(i), real=True) for i in range(e.num_vars())]
        # de Bruijn index 0 is the innermost (last) bound variable
        inner = tuple(reversed(names)) + bound
        body = to_sympy(e.body(), inner)
        cls = ForAll if e.is_forall() else Exists
        return cls(names, body, domain=sympy.S.Reals)
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
    if z3.is_algebraic_value(e):
        return sympy.Symbol(str(e))
    kind = e.decl().kind()
    args = [to_sympy(a, bound) for a in e.children()]
    if kind == z3.Z3_OP_UNINTERPRETED:
        if not args:
            return sympy.Symbol(e.decl().name(), real=True)
        return sympy.Function(e.decl().name())(*args)
    if kind == z3.Z3_OP_NOT:
        return sympy.Not(args[0], evaluate=False)
    if kind == z3.Z3_OP_UMINUS:
        return sympy.Mul(-1, args[0], evaluate=False)
    if kind == z3.Z3_OP_DISTINCT and len(args) == 2:
        return sympy.Ne(args[0], args[1], evaluate=False)
    if kind == z3.Z3_OP_ITE:
        return sympy.Piecewise((args[1], args[0]), (args[2], True), evaluate=False)
    if kind in (z3.Z3_OP_TO_REAL, z3.Z3_OP_TO_INT):
        return args[0]
    if kind in _BINARY and len(args) == 2:
        return _BINARY[kind](*args)
    if kind in _NARY:
        return _NARY[kind](*args)
    return sympy.Function(f"z3_{e.decl().name()}")(*args)


# --- SymPy → Z3, so that a formula stated in SymPy is decided by Z3 as stated ------------------


def check_valid_formula(formula: sympy.Basic, timeout_ms: int = Z3_TIMEOUT_MS) -> Fact:
    """The fact ``formula`` (a SymPy Boolean: relations, ∧ ∨ ¬ ⇒, ``logic.ForAll``/``Exists``,
    undefined functions ℝ → ℝ as uninterpreted Z3 functions), valid for all values of its free
    symbols, decided by Z3 on the translation of exactly that formula."""
    return check_valid(lambda z3mod: to_z3(formula, {}), timeout_ms)


def to_z3(e: sympy.Basic, env: dict) -> Any:
    """The SymPy object ``e`` as a Z3 term over the reals (``env``: bound variables)."""
    if isinstance(e, (ForAll, Exists)):
        inner = dict(env)
        names = [z3.Real(str(v)) for v in e.variables]
        inner.update(zip(e.variables, names, strict=True))
        body = to_z3(e.body, inner)
        guards = [_in_set(n, s) for n, (_, s) in zip(names, e.ranges(), strict=True)]
        guards = [g for g in guards if g is not None]
        if isinstance(e, ForAll):
            return z3.ForAll(names, z3.Implies(z3.And(*guards), body) if guards else body)
        return z3.Exists(names, z3.And(*guards, body) if guards else body)
    if e in env:
        return env[e]
    if e is sympy.true or e is True:
        return z3.BoolVal(True)
    if e is sympy.false or e is False:
        return z3.BoolVal(False)
    if isinstance(e, sympy.Symbol):
        return z3.Real(e.name)
    if e.is_Rational:
        return z3.RealVal(f"{e.p}/{e.q}")
    if isinstance(e, sympy.core.function.AppliedUndef):
        f = z3.Function(e.func.__name__, *([z3.RealSort()] * (len(e.args) + 1)))
        return f(*(to_z3(a, env) for a in e.args))
    args = [to_z3(a, env) for a in e.args]
    if isinstance(e, sympy.Add):
        return z3.Sum(*args)
    if isinstance(e, sympy.Mul):
        return z3.Product(*args)
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        n = int(e.exp)
        if n == 0:
            return z3.RealVal(1)
        power = z3.Product(*([args[0]] * abs(n))) if abs(n) > 1 else args[0]
        return power if n > 0 else 1 / power
    table = {sympy.Equality: lambda a, b: a == b, sympy.Unequality: lambda a, b: a != b,
             sympy.StrictLessThan: lambda a, b: a < b, sympy.LessThan: lambda a, b: a <= b,
             sympy.StrictGreaterThan: lambda a, b: a > b, sympy.GreaterThan: lambda a, b: a >= b,
             sympy.And: z3.And, sympy.Or: z3.Or, sympy.Not: z3.Not, sympy.Implies: z3.Implies,
             sympy.Equivalent: lambda a, b: a == b}
    for cls, make in table.items():
        if isinstance(e, cls):
            return make(*args)
    raise TypeError(f"no Z3 translation for {type(e).__name__} (polynomial arithmetic, "
                    "relations, connectives, quantifiers and undefined functions only)")


def _in_set(x: Any, s: sympy.Set) -> Any:
    if s == sympy.S.Reals:
        return None
    if isinstance(s, sympy.Interval):
        parts = []
        if s.start != -sympy.oo:
            lo = to_z3(s.start, {})
            parts.append(x > lo if s.left_open else x >= lo)
        if s.end != sympy.oo:
            hi = to_z3(s.end, {})
            parts.append(x < hi if s.right_open else x <= hi)
        return z3.And(*parts) if parts else None
    raise TypeError(f"no Z3 translation for the domain {s}")
