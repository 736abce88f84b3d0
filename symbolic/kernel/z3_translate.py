"""SymPy → Z3: the translation the Z3 checker decides, keeping what the formula means.

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
  ``TypeError`` naming it (an ``InvalidArgument`` at the API).
"""

from __future__ import annotations

import time
from typing import Any

import sympy
import z3

from symbolic.errors import InvalidArgument
from symbolic.kernel.logic import Exists, ForAll, kind_and_sign, sympy_value


class Untranslatable(InvalidArgument, TypeError):
    """A formula (or part of one) that has no faithful Z3 translation."""


MAX_Z3_POWER = 64  # x**n is handed to Z3 as a product of |n| factors


# What ``sympy.Function(name, real=True)`` declares (real, so finite, complex, ...): with no
# declaration at all, the one declaration of a function Z3 can take as ℝ → ℝ.
_REAL_FUNCTION = dict(sympy.Function("probe", real=True)._kwargs)


def _sort_of(s: sympy.Symbol) -> tuple[str, str | None]:
    """``("integer" | "real", sign or None)`` read off ``s``'s assumptions, or refused."""
    found = kind_and_sign(s)
    if found is not None:
        return found
    if s.is_real is not True:
        raise Untranslatable(
            f"{s} is not declared real: Z3 decides formulas over ℝ "
            "(declare it real=True, positive=True, integer=True, ...)"
        )
    raise Untranslatable(
        f"the assumptions of {s} have no Z3 translation (real, integer and a sign have)"
    )


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


class Translator:
    """SymPy → Z3 for one formula, remembering what each Z3 name stands for (for the witness
    and for the translation back)."""

    def __init__(self, patterns: dict | None = None, quick_ms: int = 5000) -> None:
        self.patterns = patterns or {}  # ForAll → its trigger terms (from a Z3-built formula)
        self.used: set[str] = set()
        self.consts: dict[sympy.Symbol, tuple[str, Any, Any]] = {}  # free symbol → kind, term
        self.functions: dict[tuple, Any] = {}
        self.free_hypotheses: list = []
        self.top_denominators: list = []  # (Z3 d ≠ 0, SymPy d, condition) of free divisions
        self.nowhere: list = []  # (domain guards, denominator guards) of each quantifier
        self.names: dict[str, sympy.Basic] = {}  # z3 name → the SymPy symbol or function
        self.quantifiers: dict[int, tuple] = {}  # z3 quantifier id → (variables, domain, guarded)
        # the quick checks that drop a branch's needless guard share this many milliseconds:
        # past them a guard is kept (always sound), so that a Piecewise of many branches does
        # not take 0.5 s for each, whatever the time limit
        self.quick_end = time.monotonic() + quick_ms / 1000

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
        return self._bool(e, {}, self.top_denominators)

    # -- Boolean positions
    def _bool(self, e, env, dens) -> Any:
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
            return self._quantifier(e, env, dens)
        for cls, make in _RELATIONS.items():
            if type(e) is cls:
                if not (isinstance(e.lhs, sympy.Expr) and isinstance(e.rhs, sympy.Expr)):
                    raise Untranslatable(
                        f"{sympy.sstr(e)[:60]}: a relation between statements (use Equivalent)"
                    )
                return make(self._real(e.lhs, env, dens), self._real(e.rhs, env, dens))
        for cls, make in _CONNECTIVES.items():
            if type(e) is cls:
                return make(*[self._bool(a, env, dens) for a in e.args])
        raise Untranslatable(
            f"{sympy.sstr(e)[:60]} ({type(e).__name__}) is not a statement "
            "Z3 can decide (relations, connectives and quantifiers)"
        )

    def _quantifier(self, e, env, outer_dens: list) -> Any:
        if len(set(e.variables)) != len(e.variables):  # ∀ x ∈ [0, 1], x ∈ [5, 6]: which x?
            raise Untranslatable(f"the quantifier binds a variable twice: {sympy.sstr(e)[:60]}")
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
        body = self._bool(e.body, inner, dens)
        # a division is guarded at the quantifier binding one of its symbols; one in outer or
        # free symbols only goes up (∃y: y·x = 1/x is claimed where x ≠ 0, not ∃y: x ≠ 0 ∧ …)
        bound = set(e.variables)
        mine = [ok for ok, base, when in dens if _mentions(base, when) & bound]
        _add_new(outer_dens, [t for t in dens if not _mentions(*t[1:]) & bound])
        if mine:
            self.nowhere.append((list(guards), mine))
        guards += mine
        if isinstance(e, ForAll):
            q = z3.ForAll(
                consts,
                z3.Implies(z3.And(*guards), body) if guards else body,
                patterns=self._triggers(e, inner),
            )
        else:
            q = z3.Exists(consts, z3.And(*guards, body) if guards else body)
        self.quantifiers[q.get_id()] = (e.variables, e.domain, bool(guards))
        self.quantifiers[quantifier_key(q)] = self.quantifiers[q.get_id()]
        return q

    def _triggers(self, e, inner) -> list:
        """The quantifier's trigger terms, as the Z3 formula it came from gave them (a hint to
        Z3's instantiation; they do not change what the formula means)."""
        out = []
        for terms in self.patterns.get(e, ()):
            try:
                made = [self._real(t, inner, []) for t in terms]
                out.append(z3.MultiPattern(*made) if len(made) > 1 else made[0])
            except (Untranslatable, z3.Z3Exception):
                return []
        return out

    # -- real-valued positions
    def _real(self, e, env, dens) -> Any:
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
            return self._apply(e, env, dens)
        if isinstance(e, sympy.Piecewise):
            if e.args[-1].cond is not sympy.true:
                raise Untranslatable(
                    f"{sympy.sstr(e)[:60]}: a Piecewise needs a last branch "
                    "for every other case (cond True)"
                )
            # a division inside a branch is evaluated only when the branch is reached (its
            # guard) or taken (its value): claimed nonzero there, not everywhere
            reach_z3: list = []
            reach: list = []
            made = []
            for value, cond in e.args:
                here: list = []
                c = self._bool(cond, env, here)
                _add_new(dens, _when(here, reach_z3, reach, self.quick_end))
                here = []
                v = self._real(value, env, here)
                _add_new(dens, _when(here, [*reach_z3, c], [*reach, cond], self.quick_end))
                made.append((c, v))
                reach_z3.append(z3.Not(c))
                reach.append(sympy.Not(cond))
            out = made[-1][1]
            for c, v in reversed(made[:-1]):
                out = z3.If(c, v, out)
            return out
        if isinstance(e, sympy.floor):
            return z3.ToReal(z3.ToInt(self._real(e.args[0], env, dens)))
        if isinstance(e, sympy.Add):
            return z3.Sum(*[self._real(a, env, dens) for a in e.args])
        if isinstance(e, sympy.Mul):
            return z3.Product(*[self._real(a, env, dens) for a in e.args])
        if isinstance(e, sympy.Pow) and e.exp.is_Integer and abs(int(e.exp)) <= MAX_Z3_POWER:
            k = int(e.exp)
            base = self._real(e.base, env, dens)  # translated even for k = 0: its divisions count
            if k == 0:
                return z3.RealVal(1)
            power = z3.Product(*([base] * abs(k))) if abs(k) > 1 else base
            if k > 0:
                return power
            _add_new(dens, [(base != 0, e.base, None)])
            return z3.RealVal(1) / power
        raise Untranslatable(
            f"{sympy.sstr(e)[:60]} ({type(e).__name__}) has no Z3 translation "
            f"(polynomials, integer powers up to {MAX_Z3_POWER}, division, "
            "floor and uninterpreted functions have)"
        )

    def _apply(self, e, env, dens) -> Any:
        cls = e.func
        declared = {k: v for k, v in getattr(cls, "_kwargs", {}).items() if k != "commutative"}
        if declared and declared != _REAL_FUNCTION:
            shown = ", ".join(f"{k}={v}" for k, v in sorted(declared.items())[:3])
            raise Untranslatable(
                f"the function {cls.__name__} is declared {shown}, …: Z3 knows only real-valued "
                "uninterpreted functions, declared nothing or real=True (symbolic.uninterpreted)"
            )
        key = (cls, len(e.args))
        f = self.functions.get(key)
        if f is None:
            f = z3.Function(self._fresh(cls.__name__, cls), *([z3.RealSort()] * (len(e.args) + 1)))
            self.functions[key] = f
        return f(*[self._real(a, env, dens) for a in e.args])


def quantifier_key(q: Any) -> tuple:
    """A quantifier made by a ``Translator``, found again inside an enclosing one: there Z3 has
    rebuilt it (the outer variables became bound ones), so its id is new, but its variables keep
    their names, which the translator made unique (``_fresh``)."""
    return (q.is_forall(), tuple(q.var_name(i) for i in range(q.num_vars())))


def _add_new(dens: list, found: list) -> None:
    """``found``'s (Z3 condition ``d ≠ 0``, SymPy base ``d``, SymPy condition under which it is
    evaluated or None) appended to ``dens``, each (base, condition) once."""
    for ok, base, when in found:
        if all(base != b or when != w for _, b, w in dens):
            dens.append((ok, base, when))


def _when(found: list, reach_z3: list, reach: list, quick_end: float) -> list:
    """``found``'s divisions, claimed nonzero only under the conditions ``reach`` (a Piecewise
    branch reached or taken): ``reach → d ≠ 0``."""
    if not reach:
        return found
    out = []
    for ok, base, when in found:
        cond = sympy.And(*reach, *([when] if when is not None else []))
        if cond is sympy.false:
            continue
        claimed = z3.Implies(z3.And(*reach_z3), ok)
        if not _needed(claimed, quick_end):  # the branch's guard rules d = 0 out (x ≠ 0 → 1/x)
            continue
        out.append((claimed, base, None if cond is sympy.true else cond))
    return out


def _needed(claimed: Any, quick_end: float) -> bool:
    """Is ``claimed`` not already valid (a quick Z3 check, at most 0.5 s and only while the
    translation's budget lasts; undecided: kept, shown)?"""
    ms = min(500, int((quick_end - time.monotonic()) * 1000))
    if ms <= 0:
        return True
    solver = z3.Solver()
    solver.set("timeout", ms)
    solver.add(z3.Not(claimed))
    return solver.check() != z3.unsat


def _mentions(base: sympy.Basic, when: sympy.Basic | None) -> set:
    return base.free_symbols | (when.free_symbols if when is not None else set())


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
        inside, removed = _in_set(x, whole), _in_set(x, cut)
        outside = z3.BoolVal(False) if removed is None else z3.Not(removed)  # minus ℝ: empty
        return outside if inside is None else z3.And(inside, outside)
    if s is sympy.S.EmptySet:
        return z3.BoolVal(False)
    raise Untranslatable(f"no Z3 translation for the domain {s}")


def _number(v: sympy.Basic) -> Any:
    v = sympy_value(v)
    if not v.is_Rational:
        raise Untranslatable(f"the domain's end point {v} is not rational")
    return z3.RealVal(f"{v.p}/{v.q}")
