"""The Z3 checker — with ``symbolic.smt``'s re-exports, the only code that imports ``z3``.

``check_valid_formula(F)`` asks Z3 whether the negation of the SymPy formula ``F`` is
satisfiable: ``unsat`` means *proved*, ``sat`` *refuted* (the model's constants are the witness),
``unknown`` or a timeout *unknown*. ``check_valid(build)`` takes a Z3 formula ``build(z3)``,
translates it into SymPy (``to_sympy``, keeping sorts: an ``Int`` constant is an integer symbol,
``ToInt`` is ``floor``) and decides that SymPy formula the same way: there is one translation,
and the fact carries the formula it decided and the SMT-LIB 2 benchmark of the negated goal
(``Fact.smt2``), which any SMT solver can re-run.

The translation (``_Translator``) keeps what the formula means:

* symbols are identified by identity, not by name: ``Symbol('x', positive=True)``,
  ``Symbol('x', real=True)``, a ``Dummy('x')`` and a bound ``x`` are different Z3 constants;
* a symbol's assumptions become hypotheses: ``integer`` an ``Int`` constant (used through
  ``ToReal``, so that no division is ever integer division), ``positive`` ``x > 0``, and so on;
  a symbol without assumptions ranges over ℝ; other assumptions (``rational``, ``even``,
  ``prime``, not real) are refused;
* a symbol in a Boolean position is a ``Bool`` constant;
* a division is claimed only where its denominator is nonzero (Z3's own division is total:
  ``x/0`` is some number): each denominator ``d`` adds the hypothesis ``d ≠ 0`` at the
  quantifier that binds its variables (at the top for free ones), as ``equal`` claims an
  identity only where it is defined (``docs/api.md``). A formula defined nowhere is refused;
* anything else (``sin``, ``sqrt``, integer division, bit-vectors, ...) is refused with a
  ``TypeError`` naming it (an ``InvalidArgument`` at the API);
* the formula is translated back from exactly the term Z3 decided (the hypotheses aside) and
  must give the formula again (``_same``), or the step is refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sympy
import z3

from symbolic.errors import InvalidArgument
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.inputs import admitted_input, sympy_value
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


class Untranslatable(InvalidArgument, TypeError):
    """A formula (or part of one) that has no faithful Z3 translation."""


MAX_Z3_POWER = 64  # x**n is handed to Z3 as a product of |n| factors


def check_valid(build: Callable[[Any], Any], timeout_ms: int = Z3_TIMEOUT_MS) -> Fact:
    """The fact ``build(z3)`` (valid for all values of its free constants and functions),
    decided as its SymPy translation (one translation, both ways; see the module docstring)."""
    try:
        formula = build(z3)
        if not z3.is_bool(formula):
            raise Untranslatable("build(z3) must return a Z3 Boolean formula")
        patterns: dict = {}
        shown = to_sympy(formula, patterns=patterns)
    except z3.Z3Exception as exc:
        raise Untranslatable(f"Z3 refused the formula: {exc}") from None
    return check_valid_formula(shown, timeout_ms, _patterns=patterns)


def check_valid_formula(
    formula: sympy.Basic, timeout_ms: int = Z3_TIMEOUT_MS, *, _patterns: dict | None = None
) -> Fact:
    """The fact ``formula`` (a SymPy Boolean: relations, ∧ ∨ ¬ ⇒ ⇔, ``logic.ForAll``/``Exists``,
    undefined functions ℝ → ℝ as uninterpreted Z3 functions), valid for all values of its free
    symbols in their domains wherever its denominators are nonzero, decided by Z3."""
    formula = admitted_input(formula, "formula")
    if not isinstance(formula, sympy.logic.boolalg.Boolean):
        raise Untranslatable(
            f"formula={sympy.sstr(formula)[:60]}: expected a statement "
            "(a relation, a connective or a quantifier), not a value"
        )
    tr = _Translator(_patterns or {})
    try:
        core = tr.formula(formula)
    except z3.Z3Exception as exc:
        raise Untranslatable(f"Z3 refused the translation: {exc}") from None
    back = tr.back(core)
    if not _same(back, formula):
        raise Untranslatable(
            f"the Z3 translation of {sympy.sstr(formula)[:60]} does not translate "
            f"back to it (got {sympy.sstr(back)[:60]})"
        )
    timeout_ms = current_limits().z3_ms(timeout_ms)
    hypotheses = tr.free_hypotheses + [d != 0 for d in tr.top_denominators]
    if tr.top_denominators and _unsat(z3.And(*hypotheses), timeout_ms):
        raise Untranslatable(
            f"{sympy.sstr(formula)[:60]} is defined nowhere: a denominator is 0 for every value"
        )
    goal = z3.Implies(z3.And(*hypotheses), core) if hypotheses else core
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(z3.Not(goal))
    smt2 = solver.to_smt2()
    answer = solver.check()
    seconds = time.perf_counter() - start
    common = dict(backend=version(), timeout_s=timeout_ms / 1000, seconds=seconds)
    if answer == z3.unsat:
        verdict = _verdict(PROVED, "z3", "negation unsat", **common)
    elif answer == z3.sat:
        model = solver.model()
        witness = tuple(
            (tr.shown_name(d.name()), str(model[d])) for d in model.decls() if d.arity() == 0
        )
        verdict = _verdict(
            REFUTED, "z3", "negation sat: counter-model found", witness=witness, **common
        )
    else:
        verdict = _verdict(
            UNKNOWN, "z3", f"solver said unknown ({solver.reason_unknown()})", **common
        )
    return _fact(formula, verdict, smt2=smt2, domain=_shown_domain(formula, tr))


def _unsat(hypotheses: Any, timeout_ms: int) -> bool:
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(hypotheses)
    return solver.check() == z3.unsat


def _shown_domain(formula: sympy.Basic, tr: _Translator) -> tuple[str, ...]:
    from symbolic.kernel.logic import set_text, symbol_set

    out = []
    for s in sorted(tr.free_symbols, key=str):
        dom = symbol_set(s) if s.is_real else sympy.S.Reals
        if dom != sympy.S.Reals:
            out.append(f"{s} ∈ {set_text(dom)}")
    out += [f"{sympy.sstr(d)} ≠ 0" for d in tr.top_denominator_exprs if d.is_zero is not False]
    return tuple(out)


_SIGNS = ("zero", "positive", "negative", "nonnegative", "nonpositive", "nonzero")


def _sort_of(s: sympy.Symbol) -> tuple[str, str | None]:
    """``("integer" | "real", sign or None)`` read off ``s``'s assumptions, or refused."""
    a = s.assumptions0
    if a in ({}, {"commutative": True}):
        return "real", None  # no assumptions: a real variable (docs/api.md)
    if s.is_real is not True:
        raise Untranslatable(
            f"{s} is not declared real: Z3 decides formulas over ℝ "
            "(declare it real=True, positive=True, integer=True, ...)"
        )
    kind = "integer" if s.is_integer else "real"
    sign = next((k for k in _SIGNS if a.get(k)), None)
    canon = sympy.Symbol("t", **{kind: True}, **({sign: True} if sign else {})).assumptions0
    if canon != a:
        extra = sorted(k for k in set(a) | set(canon) if a.get(k) != canon.get(k))
        raise Untranslatable(
            f"the assumptions {', '.join(extra)} of {s} have no Z3 translation "
            "(real, integer and a sign have)"
        )
    return kind, sign


_SIGN_HYPOTHESIS = {
    "zero": lambda t: t == 0,
    "positive": lambda t: t > 0,
    "negative": lambda t: t < 0,
    "nonnegative": lambda t: t >= 0,
    "nonpositive": lambda t: t <= 0,
    "nonzero": lambda t: t != 0,
}
# Called as methods: ``a > b`` with ``b`` a numeral (a subclass of ``a``'s type) would run
# ``b < a`` first, and the term built would not translate back to the relation stated.
_RELATIONS = {
    sympy.Equality: lambda a, b: a.__eq__(b),
    sympy.Unequality: lambda a, b: a.__ne__(b),
    sympy.StrictLessThan: lambda a, b: a.__lt__(b),
    sympy.LessThan: lambda a, b: a.__le__(b),
    sympy.StrictGreaterThan: lambda a, b: a.__gt__(b),
    sympy.GreaterThan: lambda a, b: a.__ge__(b),
}
_CONNECTIVES = {
    sympy.And: z3.And,
    sympy.Or: z3.Or,
    sympy.Not: z3.Not,
    sympy.Implies: z3.Implies,
    sympy.Equivalent: lambda *xs: _all_equal(xs),
    sympy.Xor: lambda *xs: _xor(xs),
}


def _all_equal(xs):
    return z3.And(*[xs[0] == x for x in xs[1:]]) if len(xs) > 2 else xs[0] == xs[1]


def _xor(xs):
    out = xs[0]
    for x in xs[1:]:
        out = z3.Xor(out, x)
    return out


class _Translator:
    """SymPy → Z3 for one formula, remembering what each Z3 name stands for (for the witness
    and for the translation back)."""

    def __init__(self, patterns: dict | None = None) -> None:
        self.patterns = patterns or {}  # ForAll → its trigger terms (from a Z3-built formula)
        self.used: set[str] = set()
        self.consts: dict[sympy.Symbol, tuple[str, Any, Any]] = {}  # free symbol → kind, term
        self.functions: dict[tuple, Any] = {}
        self.free_hypotheses: list = []
        self.top_denominators: list = []
        self.top_denominator_exprs: list = []
        self.names: dict[str, sympy.Basic] = {}  # z3 name → the SymPy symbol or function
        self.quantifiers: dict[int, tuple] = {}  # z3 quantifier id → (variables, domain, guarded)

    @property
    def free_symbols(self):
        return [s for s, (kind, _, _) in self.consts.items() if kind != "bool"]

    def shown_name(self, name: str) -> str:
        """The symbol's name, or the Z3 name (``x!1``) when another symbol has the same."""
        what = self.names.get(name)
        if what is None or sum(str(w) == str(what) for w in self.names.values()) > 1:
            return name
        return str(what)

    def _fresh(self, base: str, what: sympy.Basic) -> str:
        name, k = base, 1
        while name in self.used:
            name, k = f"{base}!{k}", k + 1
        self.used.add(name)
        self.names[name] = what
        return name

    def _variable(self, s: sympy.Symbol):
        """A fresh Z3 constant for the real variable ``s``: (constant, term, hypothesis)."""
        kind, sign = _sort_of(s)
        name = self._fresh(s.name, s)
        const = z3.Int(name) if kind == "integer" else z3.Real(name)
        term = z3.ToReal(const) if kind == "integer" else const
        return const, term, (_SIGN_HYPOTHESIS[sign](term) if sign else None)

    def formula(self, e: sympy.Basic) -> Any:
        return self._bool(e, {}, self.top_denominators, self.top_denominator_exprs)

    # -- Boolean positions
    def _bool(self, e, env, dens, den_exprs) -> Any:
        if e is sympy.true:
            return z3.BoolVal(True)
        if e is sympy.false:
            return z3.BoolVal(False)
        if isinstance(e, sympy.Symbol):
            if e in env:
                raise Untranslatable(f"the bound variable {e} is used as a statement")
            known = self.consts.get(e)
            if known is None:
                if e.assumptions0 not in ({}, {"commutative": True}):
                    raise Untranslatable(f"{e} is used as a statement but declared a number")
                const = z3.Bool(self._fresh(e.name, e))
                self.consts[e] = known = ("bool", const, const)
            if known[0] != "bool":
                raise Untranslatable(f"{e} is used both as a number and as a statement")
            return known[2]
        if isinstance(e, (ForAll, Exists)):
            return self._quantifier(e, env)
        for cls, make in _RELATIONS.items():
            if type(e) is cls:
                if not (isinstance(e.lhs, sympy.Expr) and isinstance(e.rhs, sympy.Expr)):
                    raise Untranslatable(
                        f"{sympy.sstr(e)[:60]}: a relation between statements (use Equivalent)"
                    )
                return make(
                    self._real(e.lhs, env, dens, den_exprs), self._real(e.rhs, env, dens, den_exprs)
                )
        for cls, make in _CONNECTIVES.items():
            if type(e) is cls:
                return make(*[self._bool(a, env, dens, den_exprs) for a in e.args])
        raise Untranslatable(
            f"{sympy.sstr(e)[:60]} ({type(e).__name__}) is not a statement "
            "Z3 can decide (relations, connectives and quantifiers)"
        )

    def _quantifier(self, e, env) -> Any:
        inner = dict(env)
        consts, guards = [], []
        for v, dom in e.ranges():
            if not isinstance(v, sympy.Symbol):
                raise Untranslatable(f"a quantifier binds symbols, not {v}")
            const, term, hyp = self._variable(v)
            consts.append(const)
            inner[v] = term
            guards += [g for g in (hyp, _in_set(term, dom)) if g is not None]
        dens: list = []
        body = self._bool(e.body, inner, dens, [])
        guards += [d != 0 for d in dens]
        if isinstance(e, ForAll):
            q = z3.ForAll(
                consts,
                z3.Implies(z3.And(*guards), body) if guards else body,
                patterns=self._triggers(e, inner),
            )
        else:
            q = z3.Exists(consts, z3.And(*guards, body) if guards else body)
        self.quantifiers[q.get_id()] = (e.variables, e.domain, bool(guards))
        return q

    def _triggers(self, e, inner) -> list:
        """The quantifier's trigger terms, as the Z3 formula it came from gave them (a hint to
        Z3's instantiation; they do not change what the formula means)."""
        out = []
        for terms in self.patterns.get(e, ()):
            try:
                made = [self._real(t, inner, [], []) for t in terms]
                out.append(z3.MultiPattern(*made) if len(made) > 1 else made[0])
            except (Untranslatable, z3.Z3Exception):
                return []
        return out

    # -- real-valued positions
    def _real(self, e, env, dens, den_exprs) -> Any:
        if e in env:
            return env[e]
        if isinstance(e, sympy.Symbol):
            known = self.consts.get(e)
            if known is None:
                const, term, hyp = self._variable(e)
                self.consts[e] = known = ("real", const, term)
                if hyp is not None:
                    self.free_hypotheses.append(hyp)
            if known[0] == "bool":
                raise Untranslatable(f"{e} is used both as a number and as a statement")
            return known[2]
        if isinstance(e, sympy.Rational):
            return z3.RealVal(f"{e.p}/{e.q}")
        if isinstance(e, sympy.core.function.AppliedUndef):
            return self._apply(e, env, dens, den_exprs)
        if isinstance(e, sympy.Piecewise):
            if e.args[-1].cond is not sympy.true:
                raise Untranslatable(
                    f"{sympy.sstr(e)[:60]}: a Piecewise needs a last branch "
                    "for every other case (cond True)"
                )
            out = self._real(e.args[-1].expr, env, dens, den_exprs)
            for value, cond in reversed(e.args[:-1]):
                out = z3.If(
                    self._bool(cond, env, dens, den_exprs),
                    self._real(value, env, dens, den_exprs),
                    out,
                )
            return out
        if isinstance(e, sympy.floor):
            return z3.ToReal(z3.ToInt(self._real(e.args[0], env, dens, den_exprs)))
        if isinstance(e, sympy.Add):
            return z3.Sum(*[self._real(a, env, dens, den_exprs) for a in e.args])
        if isinstance(e, sympy.Mul):
            return z3.Product(*[self._real(a, env, dens, den_exprs) for a in e.args])
        if isinstance(e, sympy.Pow) and e.exp.is_Integer and abs(int(e.exp)) <= MAX_Z3_POWER:
            k = int(e.exp)
            if k == 0:
                return z3.RealVal(1)
            base = self._real(e.base, env, dens, den_exprs)
            power = z3.Product(*([base] * abs(k))) if abs(k) > 1 else base
            if k > 0:
                return power
            dens.append(base)
            if e.base not in den_exprs:
                den_exprs.append(e.base)
            return z3.RealVal(1) / power
        raise Untranslatable(
            f"{sympy.sstr(e)[:60]} ({type(e).__name__}) has no Z3 translation "
            f"(polynomials, integer powers up to {MAX_Z3_POWER}, division, "
            "floor and uninterpreted functions have)"
        )

    def _apply(self, e, env, dens, den_exprs) -> Any:
        cls = e.func
        assumed = {k for k, v in getattr(cls, "_kwargs", {}).items() if v}
        if not assumed <= set(sympy.Symbol("t", real=True).assumptions0):
            raise Untranslatable(
                f"the function {cls.__name__} is declared "
                f"{', '.join(sorted(assumed))}: Z3 knows only real-valued "
                "uninterpreted functions (symbolic.uninterpreted)"
            )
        key = (cls, len(e.args))
        f = self.functions.get(key)
        if f is None:
            f = z3.Function(self._fresh(cls.__name__, cls), *([z3.RealSort()] * (len(e.args) + 1)))
            self.functions[key] = f
        return f(*[self._real(a, env, dens, den_exprs) for a in e.args])

    def back(self, e: Any) -> sympy.Basic:
        """The Z3 term ``e`` translated back, constants to the very SymPy symbols they stand for
        and quantifiers to the variables and domains they were made from (their guards off)."""
        return to_sympy(e, (), self)


def _in_set(x: Any, s: sympy.Set) -> Any:
    if s == sympy.S.Reals:
        return None
    if s == sympy.S.Integers:
        return z3.IsInt(x)
    if s == sympy.S.Naturals:
        return z3.And(z3.IsInt(x), x >= 1)
    if s == sympy.S.Naturals0:
        return z3.And(z3.IsInt(x), x >= 0)
    if isinstance(s, sympy.Interval):
        parts = []
        if s.start != -sympy.oo:
            lo = _number(s.start)
            parts.append(x > lo if s.left_open else x >= lo)
        if s.end != sympy.oo:
            hi = _number(s.end)
            parts.append(x < hi if s.right_open else x <= hi)
        return z3.And(*parts) if parts else None
    if isinstance(s, sympy.FiniteSet):
        return z3.Or(*[x == _number(v) for v in s])
    if isinstance(s, sympy.Union):
        parts = [_in_set(x, a) for a in s.args]
        return None if any(p is None for p in parts) else z3.Or(*parts)
    if isinstance(s, sympy.Complement):
        whole, cut = s.args
        inside = _in_set(x, whole)
        outside = z3.Not(_in_set(x, cut))
        return outside if inside is None else z3.And(inside, outside)
    raise Untranslatable(f"no Z3 translation for the domain {s}")


def _number(v: sympy.Basic) -> Any:
    v = sympy_value(v)
    if not v.is_Rational:
        raise Untranslatable(f"the domain's end point {v} is not rational")
    return z3.RealVal(f"{v.p}/{v.q}")


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


# --- Z3 → SymPy: for a formula built in Z3, and to check that a translation comes back -----------


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


def _same(back: sympy.Basic, formula: sympy.Basic) -> bool:
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
    e: Any, bound: tuple = (), tr: _Translator | None = None, patterns: dict | None = None
) -> sympy.Basic:
    """The Z3 expression ``e`` as a SymPy formula with the same meaning: ``Int`` constants are
    integer symbols, ``Bool`` constants Boolean symbols, ``ToReal`` is dropped (it keeps the
    value), ``ToInt`` is ``floor``; anything else without a faithful counterpart (integer
    division, ``mod``, other sorts, algebraic numbers) is refused (``Untranslatable``)."""
    if z3.is_quantifier(e):
        made = tr.quantifiers.get(e.get_id()) if tr is not None else None
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
