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
