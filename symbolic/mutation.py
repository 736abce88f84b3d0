"""Mutation testing of the proof engine: broken statements must never come out proved.

A derivation step ``lhs = rhs`` is *mutated* — a term's sign flipped, a term dropped, an
exponent changed, σ moved to the other factor, a positive symbol made negative, a constant
changed — and every mutant goes through the same checkers the theorem modules use
(``symbolic.check.decide_zero``, or ``dimension_free.matrix_identity`` between matrix
expressions). Independently of the checker's answer, a counterexample is searched: exact
rationals for the free symbols (positive ones where the symbol is positive, small integers for
integer ones and dimensions, random rational matrices for matrix symbols), activations of the
table for undefined functions (σ, g, h), and ``lhs − rhs`` at that point is certified nonzero
by ``symbolic.certify.certify_nonzero``.

Every mutant ends in one of these outcomes:

* ``refuted`` — the checker refuted it, or a certified witness shows it false;
* ``failed`` — not proved and no witness found (caught, but without a certificate; when the
  difference vanishes at every sampled point the mutant is probably equivalent, and
  ``Outcome.vanishes`` says so);
* ``equivalent`` — the checker proved it and it vanishes at every sampled point: the mutation
  did not change the statement's meaning (excluded from the score's denominator);
* ``unsound`` — the checker proved it although a certified witness shows it false: a
  soundness bug;
* ``suspect`` — the checker proved it but it does not vanish numerically (no certificate).

A mutant is *caught* when it is refuted or failed. ``score`` counts caught / (total −
equivalent); anything unsound or suspect is a bug to report.

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> sigma = sympy.Function("sigma")
>>> step = sympy.Eq(sigma(a) * b - sigma(b) * a, sigma(a) * b - sigma(b) * a, evaluate=False)
>>> outcomes = [check(m) for m in mutants(step)]
>>> sorted({o.status for o in outcomes})
['refuted']
"""

from __future__ import annotations

import random
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixElement

from symbolic.activations import ACTIVATIONS, z
from symbolic.budget import BudgetExceeded, time_limit
from symbolic.certify import certify_nonzero
from symbolic.check import decide_zero
from symbolic.engine import PROVED, REFUTED, Report, Step, Verdict

OPERATORS = ("sign", "drop", "exponent", "sigma_move", "sign_assumption", "constant")
MAX_MUTANTS_PER_FORMULA = 8  # a deterministic, operator-balanced sample of each step's mutants
WITNESS_TRIALS = 12  # random points tried per mutant
MUTANT_TIMEOUT_S = 20.0  # one mutant's whole check (checker + witness search)
NUMERIC_DIGITS = 50  # precision of the equivalence probe
NUMERIC_ZERO = sympy.Float("1e-40")  # |difference| below this at 50 digits counts as 0
SITE_CHARS = 60  # how much of a mutated subterm the description shows
# Activations substituted for undefined functions (σ, g, h), taken in turn: smooth and
# piecewise, odd and even, with σ(0) ≠ 0 and σ(0) = 0, so that a false identity about an
# arbitrary σ fails for one of them (exact values where they are rational, else intervals).
WITNESS_ACTIVATIONS = ("sigmoid", "relu2", "tanh", "softplus", "identity", "abs", "silu", "relu")
# Values of scalar symbols: exact rationals of several scales, inside and outside (−1, 1).
POSITIVE_VALUES = tuple(sympy.Rational(v) for v in (
    "2", "3", "1/2", "5", "1/3", "7/2", "4", "2/5", "9", "3/7", "6", "5/3", "8", "1/7"))
SMALL_INTEGERS = (1, 2, 3, 4)  # dimensions and integer exponents (finite sums stay small)
WHOLE_VALUES = (3, 5, 2, 7, 4, 9, 6)  # whole values of real symbols (odd d: Γ(d/2) closed)

STATUSES = ("refuted", "failed", "equivalent", "unsound", "suspect")
CAUGHT = ("refuted", "failed")


@dataclass(frozen=True)
class Mutant:
    """A deliberately broken statement ``lhs = rhs``, made from ``origin`` by ``operator``."""

    operator: str
    site: str
    lhs: sympy.Basic
    rhs: sympy.Basic
    origin: str = ""

    @property
    def formula(self) -> sympy.Basic:
        return sympy.Eq(self.lhs, self.rhs, evaluate=False)

    @property
    def description(self) -> str:
        return f"{self.origin}: {self.operator} at {self.site}"


@dataclass(frozen=True)
class Outcome:
    """What the engine said about a mutant, and the certified counterexample if one exists."""

    mutant: Mutant
    status: str  # one of STATUSES
    checker: Verdict  # the checker's verdict on the mutant (never proved unless equivalent)
    witness: tuple[tuple[str, str], ...] = ()
    certificate: str = ""
    seconds: float = 0.0
    vanishes: bool | None = None  # failed / equivalent: ~0 at every sampled point?

    @property
    def caught(self) -> bool:
        return self.status in CAUGHT


@dataclass(frozen=True)
class Score:
    """Mutants caught out of the total, overall and per origin group (e.g. per module)."""

    counts: dict[str, Counter] = field(default_factory=dict)

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], group: Callable[[Outcome], str]) -> Score:
        counts: dict[str, Counter] = {}
        for o in outcomes:
            tally = counts.setdefault(group(o), Counter())
            tally[o.status] += 1
            if o.status == "failed" and o.vanishes:
                tally["failed_vanishing"] += 1
        return cls(counts)

    @property
    def mutants(self) -> int:
        c = self.total()
        return sum(c[s] for s in STATUSES)

    @property
    def caught(self) -> int:
        c = self.total()
        return c["refuted"] + c["failed"]

    @property
    def scored(self) -> int:
        return self.mutants - self.total()["equivalent"]

    def total(self, group: str | None = None) -> Counter:
        if group is not None:
            return self.counts.get(group, Counter())
        return sum(self.counts.values(), Counter())

    def line(self, group: str | None = None) -> str:
        c = self.total(group)
        mutants = sum(c[s] for s in STATUSES)
        scored = mutants - c["equivalent"]
        caught = c["refuted"] + c["failed"]
        vanishing = (f", {c['failed_vanishing']} of which vanish numerically"
                     if c["failed_vanishing"] else "")
        return (f"{caught}/{scored} caught ({c['refuted']} refuted with a certified witness, "
                f"{c['failed']} not proved without one{vanishing}); {c['equivalent']} "
                f"equivalent; {c['unsound'] + c['suspect']} proved wrongly")

    def text(self, title: str = "mutants") -> str:
        width = max((len(g) for g in self.counts), default=5)
        lines = [f"{title}: {self.line()}"]
        lines += [f"  {g:<{width}}  {self.line(g)}" for g in sorted(self.counts)]
        return "\n".join(lines)


# --- Making mutants -----------------------------------------------------------------------


def _is_matrix(e: Any) -> bool:
    return isinstance(e, sympy.MatrixExpr) or isinstance(e, sympy.MatrixBase)


_OPAQUE = (sympy.Indexed, sympy.IndexedBase, MatrixElement, sympy.MatrixSymbol, sympy.Symbol,
           sympy.Dummy, sympy.Number, sympy.NumberSymbol)


def _sites(expr: sympy.Basic, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...],
                                                                             sympy.Basic]]:
    """Every subterm a mutation may touch, with its path of argument positions, preorder."""
    yield path, expr
    if isinstance(expr, _OPAQUE) or not isinstance(expr, sympy.Basic):
        return
    for i, arg in enumerate(expr.args):
        if isinstance(arg, sympy.Basic) and not isinstance(arg, sympy.core.symbol.Str):
            yield from _sites(arg, (*path, i))


def _rebuild(expr: sympy.Basic, path: tuple[int, ...], make: Callable[[sympy.Basic],
                                                                         sympy.Basic | None]):
    """``expr`` with the subterm at ``path`` replaced by ``make(subterm)`` (None: removed)."""
    if not path:
        return make(expr)
    head, rest = path[0], path[1:]
    args = list(expr.args)
    new = _rebuild(args[head], rest, make)
    if new is None:
        del args[head]
    else:
        args[head] = new
    return expr.func(*args)


def _negate(e: sympy.Basic) -> sympy.Basic:
    return -e


def _is_term(parent: sympy.Basic | None) -> bool:
    """Is a subterm with this parent a term of a sum?"""
    return isinstance(parent, (sympy.Add, sympy.MatAdd))


def _side_mutations(side: sympy.Basic) -> Iterator[tuple[str, str, Callable[[], sympy.Basic]]]:
    """(operator, site, thunk building the mutated side) for one side of an equation."""
    parents: dict[tuple[int, ...], sympy.Basic] = {}
    for path, e in _sites(side):
        parent = parents.get(path[:-1]) if path else None
        parents[path] = e
        site = sympy.sstr(e)[:SITE_CHARS]
        if not path and not isinstance(e, (sympy.Add, sympy.MatAdd)) and e != 0:
            yield "sign", f"whole side {site}", lambda p=path: _rebuild(side, p, _negate)
            if not _is_matrix(e):
                yield "drop", f"whole side {site}", lambda: sympy.Integer(0)
        if _is_term(parent):
            yield "sign", site, lambda p=path: _rebuild(side, p, _negate)
            yield "drop", site, lambda p=path: _rebuild(side, p, lambda _: None)
        if isinstance(e, (sympy.Pow, sympy.MatPow)):
            new_exp = e.exp - 1 if e.exp == -1 else e.exp + 1
            power = sympy.MatPow if isinstance(e, sympy.MatPow) else sympy.Pow
            yield "exponent", f"{site} (exponent {sympy.sstr(e.exp)} → {sympy.sstr(new_exp)})", \
                lambda p=path, x=new_exp, f=power: _rebuild(side, p, lambda b: f(b.args[0], x))
        if isinstance(e, sympy.Mul) and e.is_commutative:
            for k, factor in enumerate(e.args):
                if isinstance(factor, AppliedUndef) and len(factor.args) == 1:
                    others = sympy.Mul(*(a for j, a in enumerate(e.args) if j != k))
                    if others.has(sympy.Symbol) or others.has(sympy.Indexed):
                        moved = factor.func(others) * factor.args[0]
                        yield "sigma_move", f"{site} → {sympy.sstr(moved)[:SITE_CHARS]}", \
                            lambda p=path, m=moved: _rebuild(side, p, lambda _: m)
        if isinstance(e, AppliedUndef) and len(e.args) == 1 and isinstance(e.args[0], sympy.Mul):
            factors = e.args[0].args
            for k, factor in enumerate(factors):
                if factor.is_number:
                    continue
                rest = sympy.Mul(*(a for j, a in enumerate(factors) if j != k))
                moved = e.func(rest) * factor
                yield "sigma_move", f"{site} → {sympy.sstr(moved)[:SITE_CHARS]}", \
                    lambda p=path, m=moved: _rebuild(side, p, lambda _: m)
        exponent = isinstance(parent, (sympy.Pow, sympy.MatPow)) and path[-1] == 1
        if isinstance(e, sympy.Rational) and not exponent:  # exponents: the operator above
            new_c = e - 1 if e == -1 else e + 1
            yield "constant", f"{site} → {sympy.sstr(new_c)} in {sympy.sstr(parent)[:40]}", \
                lambda p=path, c=new_c: _rebuild(side, p, lambda _: c)


def _negative_twin(s: sympy.Symbol) -> sympy.Symbol:
    """The same name, assumed negative (integer stays integer)."""
    return sympy.Symbol(s.name, negative=True, integer=True if s.is_integer else None)


def _assumption_mutations(lhs: sympy.Basic, rhs: sympy.Basic
                          ) -> Iterator[tuple[str, str, Callable[[], tuple[Any, Any]]]]:
    if lhs == rhs:  # a literal identity stays one whatever the symbol's sign
        return
    symbols = (lhs.free_symbols | rhs.free_symbols)
    for s in sorted((s for s in symbols if isinstance(s, sympy.Symbol) and s.is_positive),
                    key=lambda s: s.name):
        twin = _negative_twin(s)
        yield "sign_assumption", f"{s.name} > 0 → {s.name} < 0", \
            lambda s=s, twin=twin: (lhs.xreplace({s: twin}), rhs.xreplace({s: twin}))


def _seed(text: str) -> int:
    return zlib.crc32(text.encode())


def mutants(formula: sympy.Basic, origin: str = "",
            limit: int | None = MAX_MUTANTS_PER_FORMULA) -> list[Mutant]:
    """The mutants of the equation ``formula`` (an ``Eq``), deduplicated, at most ``limit``.

    When there are more, a sample is kept that takes every operator in turn (seeded by the
    formula's text, so the same formula always gives the same mutants).
    """
    lhs, rhs = formula.lhs, formula.rhs
    found: dict[str, list[Mutant]] = {op: [] for op in OPERATORS}
    seen = {(lhs, rhs)}

    def add(op: str, site: str, build: Callable[[], tuple[Any, Any]]) -> None:
        try:
            new = build()
        except Exception:  # noqa: BLE001 — an ill-formed mutant (e.g. a shape error) is skipped
            return
        if new in seen or any(x is None for x in new):
            return
        seen.add(new)
        found[op].append(Mutant(op, site, new[0], new[1], origin))

    for op, site, thunk in _side_mutations(lhs):
        add(op, f"lhs: {site}", lambda t=thunk: (t(), rhs))
    for op, site, thunk in _side_mutations(rhs):
        add(op, f"rhs: {site}", lambda t=thunk: (lhs, t()))
    for op, site, build in _assumption_mutations(lhs, rhs):
        add(op, site, build)
    every = [m for op in OPERATORS for m in found[op]]
    if limit is None or len(every) <= limit:
        return every
    rng = random.Random(_seed(sympy.sstr(formula)))
    pools = [rng.sample(found[op], len(found[op])) for op in OPERATORS if found[op]]
    kept: list[Mutant] = []
    while len(kept) < limit:
        for pool in pools:
            if pool and len(kept) < limit:
                kept.append(pool.pop())
    return kept


def harvest(report: Report) -> list[tuple[str, Step]]:
    """Every step with an equation as its formula, labelled ``module: claim step N``."""
    found = []
    for result in report.results:
        for i, step in enumerate(result.derivation.steps, 1):
            if isinstance(step.formula, sympy.Equality):
                found.append((f"{report.module}: {result.claim.name} step {i}", step))
    return found


def report_mutants(report: Report, limit: int | None = MAX_MUTANTS_PER_FORMULA
                   ) -> list[Mutant]:
    """The mutants of every equational step of a theorem module's report."""
    return [m for origin, step in harvest(report) for m in mutants(step.formula, origin, limit)]


# --- Checking mutants ---------------------------------------------------------------------


def checker_verdict(lhs: sympy.Basic, rhs: sympy.Basic) -> Verdict:
    """The engine's verdict on ``lhs = rhs``: the checker that checks such a step in a module.

    Equations between scalars (finite sums included) are ``equal_step``'s, i.e.
    ``decide_zero``; between matrix expressions ``matrix_step``'s, ``matrix_identity``.
    (``entry_step`` gives its steps no formula, so they are not harvested.)
    """
    if _is_matrix(lhs) or _is_matrix(rhs):
        from symbolic.dimension_free import matrix_identity

        if not (_is_matrix(lhs) and _is_matrix(rhs)):
            return Verdict.refuted("sympy", "a matrix equated to a scalar")
        return matrix_identity(lhs, rhs)
    return decide_zero(lhs - rhs)


def _activation_lambda(name: str) -> sympy.Lambda:
    w = sympy.Dummy("w", real=True)
    return sympy.Lambda(w, ACTIVATIONS[name].expr.subs(z, w))


def _value_for(s: sympy.Symbol, rng: random.Random, trial: int) -> sympy.Rational:
    if s.is_integer:
        if s.is_positive:
            return sympy.Integer(rng.choice(SMALL_INTEGERS))
        if s.is_nonnegative:
            return sympy.Integer(rng.choice((0, *SMALL_INTEGERS)))
        if s.is_negative:
            return -sympy.Integer(rng.choice(SMALL_INTEGERS))
        return sympy.Integer(rng.choice((-2, -1, 0, *SMALL_INTEGERS)))
    # Every third point is a whole number (Γ and Bessel functions then have closed forms),
    # every third one lies in (0, 1) (so that (1 − s²)^a stays real), the rest anywhere.
    magnitude = rng.choice(POSITIVE_VALUES)
    if trial % 3 == 0:
        magnitude = sympy.Integer(rng.choice(WHOLE_VALUES))
    elif trial % 3 == 2 and magnitude > 1:
        magnitude = 1 / (magnitude + 1)
    if s.is_positive or s.is_nonnegative:
        return magnitude
    if s.is_negative or s.is_nonpositive:
        return -magnitude
    return magnitude if rng.random() < 0.5 else -magnitude


_ENTRY = sympy.Symbol("entry", real=True)  # the assumptions of a matrix or array entry


def _commutative(expr: sympy.Basic) -> sympy.Basic:
    """Noncommutative symbols (``K``, ``Kᵀ`` of a matrix identity written with symbols)
    replaced by real ones: a 1×1 instance of the statement, so a witness there is a witness."""
    swap = {s: sympy.Symbol(s.name, real=True) for s in expr.free_symbols
            if isinstance(s, sympy.Symbol) and not s.is_commutative}
    return expr.xreplace(swap) if swap else expr


def _functions(expr: sympy.Basic) -> list[Any]:
    return sorted({f.func for f in expr.atoms(AppliedUndef)}, key=lambda f: f.__name__)


def _instance(expr: sympy.Basic, rng: random.Random, trial: int
              ) -> tuple[sympy.Basic, list[tuple[str, str]]]:
    """``expr`` at one random point: functions, dimensions and symbols made concrete."""
    named: list[tuple[str, str]] = []
    for k, f in enumerate(_functions(expr)):
        name = WITNESS_ACTIVATIONS[(trial + k) % len(WITNESS_ACTIVATIONS)]
        expr = expr.replace(f, _activation_lambda(name))
        named.append((f.__name__, name))
    mats = sorted(expr.atoms(sympy.MatrixSymbol), key=lambda m: m.name)
    dims = set().union(*(sympy.Tuple(*m.shape).free_symbols for m in mats))
    scalars = sorted((s for s in expr.free_symbols | dims if isinstance(s, sympy.Symbol)),
                     key=lambda s: s.name)
    values = {s: sympy.Integer(rng.choice(SMALL_INTEGERS)) if s in dims
              else _value_for(s, rng, trial + k) for k, s in enumerate(scalars)}
    named += [(s.name, str(v)) for s, v in values.items()]
    if mats:  # matrix symbols of symbolic shape: random rational matrices of a drawn shape
        explicit = {}
        for m in mats:
            rows, cols = (int(sympy.sympify(n).xreplace(values)) for n in m.shape)
            entries = [_value_for(_ENTRY, rng, trial) for _ in range(rows * cols)]
            explicit[m] = sympy.ImmutableMatrix(rows, cols, entries)
            named.append((m.name, str(explicit[m].tolist())))
        expr = expr.xreplace(explicit).subs(values).doit()
        if isinstance(expr, sympy.MatrixExpr) and not isinstance(expr, sympy.MatrixBase):
            expr = expr.as_explicit()
        return expr, named
    expr = expr.xreplace(values)
    if expr.has(sympy.Sum):
        expr = expr.doit()
    leaves = sorted(expr.atoms(sympy.Indexed, MatrixElement), key=sympy.default_sort_key)
    if leaves:
        filled = {leaf: _value_for(_ENTRY, rng, trial) for leaf in leaves}
        expr = expr.xreplace(filled)
        named += [(sympy.sstr(k), str(v)) for k, v in filled.items()]
    return expr, named


def _closed_numbers(value: sympy.Basic) -> list[sympy.Expr]:
    """The closed scalar values to certify: the entries of a matrix, or the value itself."""
    items = list(value) if isinstance(value, sympy.MatrixBase) else [value]
    out = []
    for v in items:
        v = sympy.sympify(v)
        if v.free_symbols or v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo, sympy.I):
            continue
        if not v.is_number or v.is_real is False:
            continue
        out.append(v)
    return out


HALF = sympy.Rational(1, 2)


def _elementary_bessel(value: sympy.Expr) -> sympy.Expr:
    """Bessel I of half-integer order in elementary form: ``expand_func`` lowers the order to
    ±1/2, and ``I_{1/2}(x) = √(2/(πx)) sinh x``, ``I_{−1/2}(x) = √(2/(πx)) cosh x``."""
    def base(nu: sympy.Expr, x: sympy.Expr) -> sympy.Expr:
        if nu == HALF:
            return sympy.sqrt(2 / (sympy.pi * x)) * sympy.sinh(x)
        if nu == -HALF:
            return sympy.sqrt(2 / (sympy.pi * x)) * sympy.cosh(x)
        return sympy.besseli(nu, x)

    return sympy.expand_func(value).replace(sympy.besseli, base)


def certify(value: sympy.Expr) -> Verdict:
    """``certify_nonzero``, retried with Bessel functions of half-integer order (which the
    interval evaluator has no rule for) written in elementary form."""
    verdict = certify_nonzero(value)
    if verdict.status == PROVED or not value.has(sympy.besseli):
        return verdict
    try:
        with time_limit(2.0):
            elementary = _elementary_bessel(value)
    except (BudgetExceeded, ArithmeticError, ValueError, TypeError):
        return verdict
    if elementary.has(sympy.besseli):
        return verdict
    retried = certify_nonzero(elementary)
    return retried if retried.status == PROVED else verdict


def find_counterexample(lhs: sympy.Basic, rhs: sympy.Basic, trials: int = WITNESS_TRIALS,
                        seed: int = 0) -> tuple[tuple[tuple[str, str], ...], Verdict] | None:
    """A point where ``lhs − rhs`` is certified nonzero, as (witness, certificate verdict)."""
    difference = _commutative(lhs - rhs)
    rng = random.Random(seed)
    for trial in range(trials):
        try:
            value, named = _instance(difference, rng, trial)
        except (BudgetExceeded, RecursionError):
            raise
        except Exception:  # noqa: BLE001 — a point where the statement is not defined
            continue
        for number in _closed_numbers(value):
            verdict = certify(number)
            if verdict.status == PROVED:
                return tuple(named), verdict
    return None


def vanishes_numerically(lhs: sympy.Basic, rhs: sympy.Basic, trials: int = WITNESS_TRIALS,
                         seed: int = 1) -> bool | None:
    """True if ``lhs − rhs`` is ~0 at every sampled point (50 digits), False if not, None if no
    point could be evaluated."""
    difference = _commutative(lhs - rhs)
    rng = random.Random(seed)
    evaluated = False
    for trial in range(trials):
        try:
            value, _ = _instance(difference, rng, trial)
            numbers = _closed_numbers(value)
            for number in numbers:
                approx = sympy.N(number, NUMERIC_DIGITS)
                if not approx.is_Number:
                    continue
                evaluated = True
                if abs(approx) > NUMERIC_ZERO:
                    return False
        except (BudgetExceeded, RecursionError):
            raise
        except Exception:  # noqa: BLE001 — a point where the statement is not defined
            continue
    return True if evaluated else None


def check(mutant: Mutant, timeout_s: float = MUTANT_TIMEOUT_S) -> Outcome:
    """Run a mutant through the engine and the counterexample search; classify the outcome."""
    start = time.perf_counter()
    seed = _seed(mutant.description + sympy.sstr(mutant.formula))
    try:
        with time_limit(timeout_s):
            verdict = checker_verdict(mutant.lhs, mutant.rhs)
            found = find_counterexample(mutant.lhs, mutant.rhs, seed=seed)
            zero = None
            if found is None and verdict.status != REFUTED:
                zero = vanishes_numerically(mutant.lhs, mutant.rhs, seed=seed + 1)
    except (BudgetExceeded, RecursionError) as exc:
        verdict = Verdict.unknown("sympy", f"mutant check stopped: {exc}")
        return Outcome(mutant, "failed", verdict, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    witness, certificate = ((), "") if found is None else (found[0], found[1].certificate)
    if verdict.status == PROVED:
        if found is not None:
            status = "unsound"
        else:
            status = "equivalent" if zero else "suspect"
    elif verdict.status == REFUTED or found is not None:
        status = "refuted"
        certificate = certificate or verdict.certificate
    else:
        status = "failed"
    return Outcome(mutant, status, verdict, witness, certificate, seconds, zero)


def check_all(items: Sequence[Mutant], timeout_s: float = MUTANT_TIMEOUT_S) -> list[Outcome]:
    return [check(m, timeout_s) for m in items]


def module_name(outcome: Outcome) -> str:
    """The group of an outcome: the origin's module (``proofs.exchange``) or the origin."""
    return outcome.mutant.origin.split(":")[0]
