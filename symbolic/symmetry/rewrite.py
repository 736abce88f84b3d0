"""How a scalar leaves σ(c·w): proposals about the activation, checked instance by instance,
and put in place by the kernel's rules.

``Rewriter`` rewrites every ``σ(c·w)`` of an expression (c: the transform's scalar) as the analysis
of σ proposes — ``c^p σ(w)`` for ``c > 0`` and σ positively homogeneous of degree p
(``symbolic.gated.analysis``), an identity of ``INTERTWINERS`` for ``c < 0`` (docs/theory.md, item
D: odd, even, ``σ(−y) = σ(y) − y``), ``σ(1)·c·w`` for a linear σ — and uses a rewrite only when the
kernel proves its instance ``∀t: σ(c·t) = R(t)`` for the real σ (``check_identity``). That rewrite
of σ-forms is a proposal only. ``Rewriter.in_kernel(expr)`` then derives it in the kernel, on
``inlined(expr)`` (every σ replaced by the activation's formula, the layer the claim is about): for
each rewritten ``σ(c·w)`` the instance fact is instantiated at ``t := w`` (``inst``: ``w`` must be
real, decided from the entries' assumptions, else refused), joined to the σ as written (a
sum-normal-form check when only the writing of ``c·w`` differs) by ``trans``, and put in place
inside the sums by congruence (``cong_in_sums``). No rewrite is applied outside the kernel; a wrong
proposal gives no proved chain.

``plausible(diff)`` is a numeric filter (a generic σ, random points): it only decides which
identities are worth a proof attempt, never whether one holds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import sympy
from sympy.core.function import AppliedUndef

from symbolic.activations import z
from symbolic.engine import Step, says_nothing
from symbolic.gated.witness import t_real
from symbolic.kernel import (
    Fact,
    RuleError,
    check_identity,
    check_sum_equal,
    cong_in_sums,
    inst,
    literal_replace,
    trans,
)
from symbolic.kernel import literal as as_written
from symbolic.languages.transform_language import domain_text
from symbolic.limits import BudgetExceeded, current_limits, deadline

SEED = 13  # the filter draws the same points on every run (issue 13)


@dataclass(frozen=True)
class ActivationSpec:
    """An activation as the layer calls it: label, SymPy expression in z, numpy callable, and
    for a table entry with a torch counterpart, a builder of torch's real function."""

    label: str
    expr: sympy.Expr
    numpy: Callable
    torch: Callable[[], Callable] | None = None  # builds torch's function (imports torch)


@dataclass(frozen=True)
class Intertwiner:
    """An identity ``σ(−y) = flip(σ(y), y)`` that some activations satisfy (docs/theory.md,
    item D)."""

    name: str
    flip: Callable[[sympy.Expr, sympy.Expr], sympy.Expr]

    def plausible(self, expr: sympy.Expr) -> bool:
        """Does σ = ``expr`` satisfy it at a few points? A proposal, never a fact."""
        return plausible(expr.xreplace({z: -z}) - self.flip(expr, z))


INTERTWINERS = {
    i.name: i
    for i in (
        Intertwiner("odd", lambda s, y: -s),  # tanh, erf: σ(−y) = −σ(y)
        Intertwiner("even", lambda s, y: s),  # abs: σ(−y) = σ(y)
        Intertwiner("reflection", lambda s, y: s - y),  # GELU, SiLU, ReLU: σ(−y) = σ(y) − y
    )
}


@dataclass
class ActivationFacts:
    """What the analysis of one activation proposes (its degree p, its slope if linear, the
    intertwiners it plausibly satisfies): proposals only; the instances used are checked."""

    spec: ActivationSpec
    cache: dict[str, bool] = field(default_factory=dict)
    found: dict[str, object] = field(default_factory=dict)

    def analysis(self):
        """``symbolic.gated.analysis.analyze`` of σ, once per instance (the analysis caches decided
        results only; an undecided one would be recomputed at every σ of the layer)."""
        from symbolic.gated.analysis import analyze

        if "analysis" not in self.found:
            self.found["analysis"] = analyze(self.spec.expr, self.spec.label)
        return self.found["analysis"]

    def linear_slope(self) -> sympy.Expr | None:
        d = self.analysis().linear
        return d.value if d.holds.proved else None

    def degree(self) -> sympy.Expr | None:
        from symbolic.gated.properties import EVERY_DEGREE

        d = self.analysis().homogeneity
        return d.value if d.holds.proved and d.value != EVERY_DEGREE else None

    def intertwiner(self) -> Intertwiner | None:
        """The first intertwiner σ plausibly satisfies. The filters share one budget: a σ too
        slow to evaluate for one (``exp(exp(exp(exp(x))))``) is as slow for the next."""
        start = time.process_time()
        for name, i in INTERTWINERS.items():
            if name not in self.cache:
                spent = time.process_time() - start
                self.cache[name] = spent < PLAUSIBLE_TIMEOUT_S and i.plausible(self.spec.expr)
            if self.cache[name]:
                return i
        return None


_T = sympy.Symbol("t", real=True)  # the argument of σ in an instance fact
_T_OTHER = sympy.Symbol("s", real=True)  # … when the transform's parameter is named t


def instance_variable(parameter: sympy.Symbol) -> sympy.Symbol:
    """The quantified variable of the instance facts: ``t``, or ``s`` when the transform's
    parameter is itself named ``t`` (two symbols of one name in ``∀t: σ(t·t) = …`` would print
    alike, and the kernel refuses such a quantifier)."""
    return _T_OTHER if parameter.name == _T.name else _T


_INSTANCES: dict[tuple, Fact] = {}  # instance facts, per (σ, instance, limits in force)


def inlined(
    expr: sympy.Basic, facts: Mapping[str, ActivationFacts], literal: bool = True
) -> sympy.Basic:
    """``expr`` with every ``σ(u)`` (σ named in ``facts``) replaced by the activation's formula
    at ``u``. ``literal``: nothing is evaluated, so the result is ``expr`` but at the σ's (where
    a kernel rule looks for them); else the nodes around are evaluated (the claim's statement).
    Built node by node (``as_written``, ``literal_replace``), not under ``sympy.evaluate``, which
    clears SymPy's whole cache on entry and exit."""
    if isinstance(expr, AppliedUndef) and expr.func.__name__ in facts:
        arg = inlined(expr.args[0], facts, literal)
        sigma = facts[expr.func.__name__].spec.expr
        return literal_replace(sigma, {z: arg}) if literal else sigma.xreplace({z: arg})
    if not expr.args:
        return expr
    args = tuple(inlined(a, facts, literal) for a in expr.args)
    if args == expr.args:
        return expr
    return as_written(expr.func, args) if literal else expr.func(*args)


Link = tuple[str, Fact, sympy.Expr | None]  # ("normal", fact, None) or ("rewrite", fact, w)


class Rewriter:
    """Rewrites every σ(c·w) (c: the transform's scalar) as the facts about σ propose —
    ``c^p σ(w)`` (degree p, c > 0), by an intertwiner (c < 0), ``σ(1)·c·w`` (σ linear) — and
    uses a rewrite only when the kernel proves its instance ``∀t: σ(c·t) = R(t)`` for the
    real σ (``check_identity``). The rewritten σ-form is a proposal; ``in_kernel`` derives the
    rewrite of the real layer with the kernel's rules, and ``steps()`` are the instance facts
    it used."""

    def __init__(
        self,
        facts: Mapping[str, ActivationFacts],
        parameter: sympy.Symbol,
        per_unit: sympy.IndexedBase | None = None,
    ) -> None:
        self.facts, self.parameter, self.per_unit = facts, parameter, per_unit
        self.t = instance_variable(parameter)
        self.used: dict[tuple, Step] = {}
        self.rewrites: dict[AppliedUndef, tuple[sympy.Expr, tuple]] = {}  # σ(c·w) ↦ (w, key)
        self.in_chain: set[tuple] = set()  # the instances a kernel chain used
        self.changed = False

    def steps(self) -> list[Step]:
        """The instance facts the kernel's chains (``in_kernel``) used."""
        return [step for key, step in self.used.items() if key in self.in_chain]

    def in_kernel(
        self, start: sympy.Basic, expr: sympy.Basic, check: Callable = check_sum_equal
    ) -> tuple[list[Link], sympy.Basic] | None:
        """The kernel's chain ``start = E₁ = … = Eₖ`` (``start``: ``expr`` with σ the activation),
        one rewrite per σ(c·w) of ``expr`` rewritten by ``__call__`` (a linear σ needs none:
        inlined, it is a polynomial): the instance ``∀t: σ(c·t) = R(t)`` at ``t := w``
        (``inst``: w must be real), joined by ``trans`` to σ(c·w) as inlined when c·w is written
        otherwise (``check_sum_equal``), put in place inside the sums by ``cong_in_sums``.
        Before each rewrite, a ``check`` link (``check_sum_equal``; ``check_matrix_equal`` for
        a matrix) to the expression it rewrites when that is written otherwise (the sum normal
        form; the ``1·`` a rebuilt ``Sum`` gains). Returns the links and ``Eₖ``; None when a
        link is not proved or cannot be made (a σ nested in a rewritten one, a w not known to
        be real)."""
        prev, base = start, inlined(expr, self.facts)
        links: list[Link] = []
        used = set()
        nodes = [n for n in sympy.preorder_traversal(expr) if n in self.rewrites]
        for node in dict.fromkeys(nodes):
            w, key = self.rewrites[node]
            facts = self.facts[node.func.__name__]
            if facts.linear_slope() is not None and facts.spec.expr.is_polynomial(z):
                continue  # inlined, c·w is a polynomial already (relu(w) − relu(−w) is not)
            seen = inlined(node, self.facts)
            if not base.has(seen):
                return None
            try:
                at = inst(_INSTANCES[key], {self.t: w})
                if at.formula.lhs == at.formula.rhs:  # σ(c·w) is R(w) as written (σ constant)
                    continue  # no rewrite to make; a step X = X would be no evidence
                if at.formula.lhs != seen:
                    at = trans(check_sum_equal(seen, at.formula.lhs), at)
                hole = sympy.Dummy("h")
                context = base.xreplace({seen: hole})  # evaluated: the path to h loses its 1·
                link = cong_in_sums(at, sympy.Lambda(hole, context))
            except RuleError:
                return None
            if link.formula.lhs != prev:
                links.append(("normal", check(prev, link.formula.lhs), None))
            links.append(("rewrite", link, w))
            used.add(key)
            prev = base = link.formula.rhs
        if not all(fact.proved for _, fact, _ in links):
            return None
        self.in_chain |= used
        return links, prev

    def __call__(self, expr: sympy.Expr) -> sympy.Expr:
        names = set(self.facts)
        return expr.replace(
            lambda e: isinstance(e, AppliedUndef) and e.func.__name__ in names, self.call
        )

    def call(self, applied: AppliedUndef) -> sympy.Expr:
        facts, fn = self.facts[applied.func.__name__], applied.func
        arg = applied.args[0]
        slope = facts.linear_slope()
        if slope is not None:
            c, w, form = sympy.Integer(1), arg, slope * self.t
        else:
            c, w = self.split(arg)
            form = None if c == 1 else self.proposal(facts, fn, c)
        key = None if form is None else self.verified(facts, fn, c, form)
        if key is None and slope is None:
            # the number may be the layer's own (σ(−(x Kᵀ)) under K → aK): move out the
            # transform's scalar alone, σ(a·(−w)) = a·σ(−w) for a > 0 by the degree, where no
            # identity moves −a out (abs(x) + x: σ(−y) = σ(y) − 2y is no intertwiner)
            c, w = self.split(arg, numbers=False)
            form = None if c == 1 else self.proposal(facts, fn, c)
            key = None if form is None else self.verified(facts, fn, c, form)
        if key is None:
            return fn(arg)
        self.changed = True
        self.rewrites[applied] = (w, key)
        return form.xreplace({self.t: w})

    def proposal(self, facts: ActivationFacts, fn, c: sympy.Expr) -> sympy.Expr | None:
        """R(t) with σ(c·t) = R(t) as the facts propose; None when none applies."""
        if c.is_negative:
            turn = facts.intertwiner()
            if turn is None:
                return None
            inner = self.proposal(facts, fn, -c) if -c != 1 else None
            return turn.flip(fn(-c * self.t) if inner is None else inner, -c * self.t)
        p = facts.degree()
        if p is None or not (c.is_positive or p.is_integer):
            return None
        # c > 0 by the degree; a c of either sign only with an integer p (x³ at a ≠ 0): a
        # proposal, which the kernel's instance ∀t: σ(c·t) = c^p σ(t) confirms or not
        return c**p * fn(self.t)

    def verified(self, facts: ActivationFacts, fn, c: sympy.Expr, form: sympy.Expr) -> tuple | None:
        """The kernel's ``∀t: σ(c·t) = R(t)`` for the real σ, recorded as a step when proved:
        its key in ``_INSTANCES``, or None when it is not proved."""
        sigma = facts.spec.expr
        real = form.replace(
            lambda e: isinstance(e, AppliedUndef) and e.func == fn,
            lambda e: sigma.xreplace({z: e.args[0]}),
        )
        # σ(c·t) as written: tanh(−t), never −tanh(t); c·t unevaluated too
        lhs = literal_replace(sigma, {z: as_written(sympy.Mul, (c, self.t))})
        key = (sigma, lhs, real, current_limits())
        if key not in _INSTANCES:
            if not plausible(lhs - real):
                return None
            _INSTANCES[key] = check_identity(lhs, real, self.t)
        fact = _INSTANCES[key]
        if fact.proved and not says_nothing(fact.formula):
            where = f" ({domain_text(self.parameter)})" if c.free_symbols else ""
            self.used.setdefault(
                key,
                Step(
                    fact,
                    f"instance for σ = {facts.spec.label}: cases t > 0, t < 0, t = 0 (kernel)",
                    note=f"σ({sympy.sstr(c * self.t)}) rewritten{where}",
                ),
            )
        return key if fact.proved else None

    def split(self, arg: sympy.Expr, numbers: bool = True) -> tuple[sympy.Expr, sympy.Expr]:
        """``arg = c·w`` with c a number times powers of the transform's parameter (or of the
        per-unit parameters ``a[k]``); ``numbers=False``: the number stays in w."""
        number, rest = sympy.factor_terms(arg).as_coeff_Mul()
        scalar, other = [], []
        for f in sympy.Mul.make_args(rest):
            (scalar if self.is_scalar(f) else other).append(f)
        if not numbers:
            return sympy.Mul(*scalar), number * sympy.Mul(*other)
        return number * sympy.Mul(*scalar), sympy.Mul(*other)

    def is_scalar(self, f: sympy.Expr) -> bool:
        units = {i: sympy.Integer(1) for i in f.atoms(sympy.Indexed) if i.base == self.per_unit}
        return not f.xreplace({**units, self.parameter: sympy.Integer(1)}).free_symbols


# --- a numeric filter: which identities are worth a proof attempt (proposals only) ----------

GENERIC_SIGMA = sympy.Lambda(t_real, sympy.sin(t_real) + t_real**2 / 3 + t_real)  # no symmetry
PLAUSIBLE_POINTS = 3  # random points at which a candidate identity must hold
PLAUSIBLE_TOLERANCE = 1e-9  # |difference| at 30 digits (values are O(1))
PLAUSIBLE_TIMEOUT_S = 2.0  # CPU seconds for the whole filter; past it: not worth an attempt
FILTER_SIZES = {"n": 2, "d": 2, "N": 1}  # symbolic sizes replaced by these for the filter


def plausible(diff: sympy.Expr) -> bool:
    """Does ``diff = 0`` hold at a few pseudo-random points (σ uninterpreted: a generic σ;
    symbolic sizes n, d: 2)? Never decides anything; a False only saves a proof attempt.
    Bounded by ``PLAUSIBLE_TIMEOUT_S`` (``exp(exp(exp(exp(x))))`` at x = 10 would not end):
    past it the answer is False, so no proof is attempted and the outcome can only be a
    witness or unknown."""
    try:
        with deadline(PLAUSIBLE_TIMEOUT_S):
            return _plausible(diff)
    except BudgetExceeded:
        return False


def _plausible(diff: sympy.Expr) -> bool:
    rng = random.Random(SEED)
    try:
        e = diff.xreplace(
            {
                s: FILTER_SIZES[s.name]
                for s in diff.free_symbols
                if s.name in FILTER_SIZES and s.is_integer
            }
        )
        e = _unrolled(e).replace(
            lambda f: isinstance(f, AppliedUndef), lambda f: GENERIC_SIGMA(*f.args)
        )
        atoms = sorted(
            e.atoms(sympy.Indexed) | {s for s in e.free_symbols if isinstance(s, sympy.Symbol)},
            key=str,
        )
        for _ in range(PLAUSIBLE_POINTS):
            point = {v: _filter_value(v, rng) for v in atoms}
            value = complex(e.xreplace(point).evalf(30))
            if abs(value) > PLAUSIBLE_TOLERANCE:
                return False
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return True  # cannot tell: let the kernel decide
    return True


def _unrolled(e: sympy.Basic) -> sympy.Basic:
    """Finite sums with integer bounds written out term by term (cheaper than ``doit``)."""
    if isinstance(e, sympy.Sum):
        body = _unrolled(e.function)
        for k, lo, hi in e.limits:  # innermost first
            body = sympy.Add(*(body.xreplace({k: i}) for i in range(int(lo), int(hi) + 1)))
        return body
    return e.func(*(_unrolled(a) for a in e.args)) if e.args else e


def _filter_value(v: sympy.Basic, rng: random.Random) -> sympy.Rational:
    size = sympy.Rational(rng.randint(3, 70), 7)  # 3/7 .. 10: both sides of kinks at ±6
    if getattr(v, "is_positive", False):
        return size
    if getattr(v, "is_negative", False):
        return -size
    return size if rng.random() < 0.5 else -size


def plausible_matrix(diff: sympy.Matrix) -> bool:
    return all(plausible(e) for e in diff)


__all__ = [
    "INTERTWINERS",
    "ActivationFacts",
    "ActivationSpec",
    "Intertwiner",
    "Rewriter",
    "inlined",
    "plausible",
    "plausible_matrix",
]
