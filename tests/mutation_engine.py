"""Mutation testing of the proof engine (test and benchmark tooling, not installed).

A derivation step ``lhs = rhs`` is *mutated* — a term's sign flipped, a term dropped, an
exponent changed, σ moved to the other factor, a positive symbol made negative, a constant
changed — and every mutant goes to **the kernel**: the checker a theorem module would use
(``check_equal``; ``check_matrix_expr_equal`` between matrix expressions; ``check_sum_equal``
for finite sums). This module mints nothing: it only *proposes* points — exact rationals for
the symbols, activations of the table for undefined functions (σ, g, h), small dimensions and
rational matrices — and the kernel's ``counterexample(lhs, rhs, point, variables)`` decides
whether the instance is certified false there.

Every mutant ends in one of these outcomes:

* ``refuted`` — the kernel refuted it (the checker itself, or ``counterexample`` at a proposed
  point, with its certificate): the only way a mutant is *caught*;
* ``unknown`` — neither proved nor refuted; ``Outcome.vanishes`` says whether the difference
  is ~0 at every sampled point (then the mutant is probably equivalent) — *not* caught;
* ``equivalent`` — the checker proved it and it vanishes at every sampled point: the mutation
  did not change the statement's meaning (excluded from the score);
* ``unsound`` — the checker proved it although the kernel refutes it at a point: a bug;
* ``suspect`` — the checker proved it but it does not vanish numerically (no certificate).

``proved`` in the score is equivalent + unsound + suspect. ``null_checker()`` replaces every
backend's decider by one that answers ``unknown``: then nothing may be refuted.

Activation near-misses (``activation_mutants``) mutate a table activation — a tiny term added,
a constant nudged, a switch point moved, a kink added far away — into one whose linearity,
homogeneity degree and inverse-scaling symmetry are known by construction, and run it through
``analyze`` the way ``python -m proofs.exchange --activation TEXT`` does.

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> sigma = sympy.Function("sigma")
>>> step = sympy.Eq(sigma(a) * b - sigma(b) * a, sigma(a) * b - sigma(b) * a, evaluate=False)
>>> outcomes = [check(m) for m in mutants(step)]
>>> sorted({o.status for o in outcomes})
['refuted']
>>> all(o.deciding.refuted and o.certificate for o in outcomes)
True
"""

from __future__ import annotations

import random
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixElement

from symbolic.activations import ACTIVATIONS, z
from symbolic.engine import Report, Step
from symbolic.kernel import (
    CHECKED,
    Fact,
    check_equal,
    check_matrix_expr_equal,
    check_sum_equal,
    counterexample,
    undecided,
)
from symbolic.limits import BudgetExceeded, deadline

OPERATORS = ("sign", "drop", "exponent", "sigma_move", "sign_assumption", "constant")
MAX_MUTANTS_PER_FORMULA = 8  # a deterministic, operator-balanced sample of each step's mutants
WITNESS_TRIALS = 12  # random points proposed per mutant
MUTANT_TIMEOUT_S = 20.0  # one mutant's point search (the kernel's own limits apply inside)
NUMERIC_DIGITS = 50  # precision of the equivalence probe
NUMERIC_ZERO = sympy.Float("1e-40")  # |difference| below this at 50 digits counts as 0
SITE_CHARS = 60  # how much of a mutated subterm the description shows
# Activations substituted for undefined functions (σ, g, h), taken in turn: smooth and
# piecewise, odd and even, with σ(0) ≠ 0 and σ(0) = 0, so that a false identity about an
# arbitrary σ fails for one of them (exact values where they are rational, else intervals).
WITNESS_ACTIVATIONS = ("sigmoid", "relu2", "tanh", "softplus", "identity", "abs", "silu", "relu")
# Values of scalar symbols: exact rationals of several scales, inside and outside (−1, 1).
POSITIVE_VALUES = tuple(
    sympy.Rational(v)
    for v in ("2", "3", "1/2", "5", "1/3", "7/2", "4", "2/5", "9", "3/7", "6", "5/3", "8", "1/7")
)
SMALL_INTEGERS = (1, 2, 3, 4)  # dimensions and integer exponents (finite sums stay small)
WHOLE_VALUES = (3, 5, 2, 7, 4, 9, 6)  # whole values of real symbols (odd d: Γ(d/2) closed)

STATUSES = ("refuted", "unknown", "equivalent", "unsound", "suspect")
PROVED_STATUSES = ("equivalent", "unsound", "suspect")
WRONG = ("unsound", "suspect")


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
    """What the kernel said about a mutant: the checker's fact and, when found, the kernel's
    refutation at a proposed point (``refutation``)."""

    mutant: Mutant
    status: str  # one of STATUSES
    fact: Fact  # the checker's fact on the mutant
    refutation: Fact | None = None  # the kernel's counterexample fact, when refuted at a point
    instance: tuple[tuple[str, str], ...] = ()  # functions, dimensions, matrices substituted
    seconds: float = 0.0
    vanishes: bool | None = None  # unknown / equivalent: ~0 at every sampled point?
    note: str = ""

    @property
    def caught(self) -> bool:
        return self.status == "refuted"

    @property
    def deciding(self) -> Fact:
        return self.refutation if self.refutation is not None else self.fact

    @property
    def witness(self) -> tuple[tuple[str, str], ...]:
        return self.instance + self.deciding.verdict.witness

    @property
    def certificate(self) -> str:
        return self.deciding.verdict.certificate if self.deciding.refuted else ""

    @property
    def reason(self) -> str:
        return self.note or self.deciding.verdict.reason


@dataclass(frozen=True)
class Score:
    """Refuted / unknown / proved mutants, overall and per origin group (e.g. per module)."""

    counts: dict[str, Counter] = field(default_factory=dict)

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], group: Callable[[Outcome], str]) -> Score:
        counts: dict[str, Counter] = {}
        for o in outcomes:
            tally = counts.setdefault(group(o), Counter())
            tally[o.status] += 1
            if o.status == "unknown" and o.vanishes:
                tally["unknown_vanishing"] += 1
        return cls(counts)

    @property
    def mutants(self) -> int:
        c = self.total()
        return sum(c[s] for s in STATUSES)

    @property
    def refuted(self) -> int:
        return self.total()["refuted"]

    @property
    def caught(self) -> int:
        return self.refuted

    @property
    def wrong(self) -> int:
        return sum(self.total()[s] for s in WRONG)

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
        proved = sum(c[s] for s in PROVED_STATUSES)
        vanishing = (
            f" ({c['unknown_vanishing']} vanish numerically)" if c["unknown_vanishing"] else ""
        )
        return (
            f"{mutants} mutants: {c['refuted']} refuted, {c['unknown']} unknown{vanishing}, "
            f"{proved} proved ({c['equivalent']} equivalent, "
            f"{c['unsound'] + c['suspect']} wrongly)"
        )

    def text(self, title: str = "mutants") -> str:
        width = max((len(g) for g in self.counts), default=5)
        lines = [f"{title}: {self.line()}"]
        lines += [f"  {g:<{width}}  {self.line(g)}" for g in sorted(self.counts)]
        return "\n".join(lines)


# --- Making mutants -----------------------------------------------------------------------


def _is_matrix(e: Any) -> bool:
    return isinstance(e, sympy.MatrixExpr) or isinstance(e, sympy.MatrixBase)


_OPAQUE = (
    sympy.Indexed,
    sympy.IndexedBase,
    MatrixElement,
    sympy.MatrixSymbol,
    sympy.Symbol,
    sympy.Dummy,
    sympy.Number,
    sympy.NumberSymbol,
)


def _sites(
    expr: sympy.Basic, path: tuple[int, ...] = ()
) -> Iterator[tuple[tuple[int, ...], sympy.Basic]]:
    """Every subterm a mutation may touch, with its path of argument positions, preorder."""
    yield path, expr
    if isinstance(expr, _OPAQUE) or not isinstance(expr, sympy.Basic):
        return
    for i, arg in enumerate(expr.args):
        if isinstance(arg, sympy.Basic) and not isinstance(arg, sympy.core.symbol.Str):
            yield from _sites(arg, (*path, i))


def _rebuild(
    expr: sympy.Basic, path: tuple[int, ...], make: Callable[[sympy.Basic], sympy.Basic | None]
):
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
            yield (
                "exponent",
                f"{site} (exponent {sympy.sstr(e.exp)} → {sympy.sstr(new_exp)})",
                lambda p=path, x=new_exp, f=power: _rebuild(side, p, lambda b: f(b.args[0], x)),
            )
        if isinstance(e, sympy.Mul) and e.is_commutative:
            for k, factor in enumerate(e.args):
                if isinstance(factor, AppliedUndef) and len(factor.args) == 1:
                    others = sympy.Mul(*(a for j, a in enumerate(e.args) if j != k))
                    if others.has(sympy.Symbol) or others.has(sympy.Indexed):
                        moved = factor.func(others) * factor.args[0]
                        yield (
                            "sigma_move",
                            f"{site} → {sympy.sstr(moved)[:SITE_CHARS]}",
                            lambda p=path, m=moved: _rebuild(side, p, lambda _: m),
                        )
        if isinstance(e, AppliedUndef) and len(e.args) == 1 and isinstance(e.args[0], sympy.Mul):
            factors = e.args[0].args
            for k, factor in enumerate(factors):
                if factor.is_number:
                    continue
                rest = sympy.Mul(*(a for j, a in enumerate(factors) if j != k))
                moved = e.func(rest) * factor
                yield (
                    "sigma_move",
                    f"{site} → {sympy.sstr(moved)[:SITE_CHARS]}",
                    lambda p=path, m=moved: _rebuild(side, p, lambda _: m),
                )
        exponent = isinstance(parent, (sympy.Pow, sympy.MatPow)) and path[-1] == 1
        if isinstance(e, sympy.Rational) and not exponent:  # exponents: the operator above
            new_c = e - 1 if e == -1 else e + 1
            yield (
                "constant",
                f"{site} → {sympy.sstr(new_c)} in {sympy.sstr(parent)[:40]}",
                lambda p=path, c=new_c: _rebuild(side, p, lambda _: c),
            )


def _negative_twin(s: sympy.Symbol) -> sympy.Symbol:
    """The same name, assumed negative (integer stays integer)."""
    return sympy.Symbol(s.name, negative=True, integer=True if s.is_integer else None)


def _assumption_mutations(
    lhs: sympy.Basic, rhs: sympy.Basic
) -> Iterator[tuple[str, str, Callable[[], tuple[Any, Any]]]]:
    if lhs == rhs:  # a literal identity stays one whatever the symbol's sign
        return
    symbols = lhs.free_symbols | rhs.free_symbols
    for s in sorted(
        (s for s in symbols if isinstance(s, sympy.Symbol) and s.is_positive), key=lambda s: s.name
    ):
        twin = _negative_twin(s)
        yield (
            "sign_assumption",
            f"{s.name} > 0 → {s.name} < 0",
            lambda s=s, twin=twin: (lhs.xreplace({s: twin}), rhs.xreplace({s: twin})),
        )


def _seed(text: str) -> int:
    return zlib.crc32(text.encode())


def mutants(
    formula: sympy.Basic, origin: str = "", limit: int | None = MAX_MUTANTS_PER_FORMULA
) -> list[Mutant]:
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
    """Every checked step with an equation as its formula, labelled ``module: claim step N``.
    Definitions (``p := 1``, shown as ``p = 1``) and other admitted facts are no claims: a
    "mutant" ``p = 2`` of one would be refuted for saying ``p = 2`` for every ``p``."""
    found = []
    for result in report.results:
        for i, step in enumerate(result.derivation.steps, 1):
            if (
                isinstance(step.formula, sympy.Equality)
                and step.fact is not None
                and step.fact.kind == CHECKED
            ):
                found.append((f"{report.module}: {result.claim.name} step {i}", step))
    return found


def report_mutants(report: Report, limit: int | None = MAX_MUTANTS_PER_FORMULA) -> list[Mutant]:
    """The mutants of every equational step of a theorem module's report."""
    return [m for origin, step in harvest(report) for m in mutants(step.formula, origin, limit)]


# --- Checking mutants: the kernel decides, this module proposes -------------------------------


def _has_sum(e: sympy.Basic) -> bool:
    return isinstance(e, sympy.Basic) and e.has(sympy.Sum)


def checker_fact(lhs: sympy.Basic, rhs: sympy.Basic) -> Fact:
    """The kernel's fact on ``lhs = rhs``, from the checker a theorem module would use:
    ``check_matrix_expr_equal`` between matrix expressions, ``check_sum_equal`` between finite
    sums, ``check_equal`` otherwise."""
    if _is_matrix(lhs) or _is_matrix(rhs):
        if not (_is_matrix(lhs) and _is_matrix(rhs)):
            return undecided(
                sympy.Eq(sympy.Symbol("lhs"), sympy.Symbol("rhs")),
                "a matrix equated to a scalar: no checker applies",
            )
        return check_matrix_expr_equal(lhs, rhs)
    if _has_sum(lhs) or _has_sum(rhs):
        return check_sum_equal(lhs, rhs)
    return check_equal(lhs, rhs)


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
    swap = {
        s: sympy.Symbol(s.name, real=True)
        for s in expr.free_symbols
        if isinstance(s, sympy.Symbol) and not s.is_commutative
    }
    return expr.xreplace(swap) if swap else expr


def _functions(expr: sympy.Basic) -> list[Any]:
    return sorted({f.func for f in expr.atoms(AppliedUndef)}, key=lambda f: f.__name__)


@dataclass(frozen=True)
class Proposal:
    """An instance of a mutant proposed for the kernel: ``lhs = rhs`` with functions,
    dimensions, integers, matrices and array entries made concrete (``named``), and a point for
    the remaining real symbols — which ``counterexample`` checks against their domains."""

    pairs: tuple[tuple[sympy.Expr, sympy.Expr], ...]  # scalar (entry) equations to refute
    point: dict
    variables: tuple[sympy.Symbol, ...]
    named: tuple[tuple[str, str], ...]


def _concrete(side: sympy.Basic, subs: dict, explicit: dict) -> sympy.Basic:
    side = _commutative(side)
    for f, lam in subs.items():
        side = side.replace(f, lam)
    if explicit:
        side = side.xreplace(explicit).doit()
        if isinstance(side, sympy.MatrixExpr) and not isinstance(side, sympy.MatrixBase):
            side = side.as_explicit()
    elif _has_sum(side):
        side = side.doit()
    return side


def propose(lhs: sympy.Basic, rhs: sympy.Basic, rng: random.Random, trial: int) -> Proposal:
    """One proposed instance of ``lhs = rhs`` (untrusted: the kernel certifies or not)."""
    both = sympy.Tuple(_commutative(lhs), _commutative(rhs))
    named: list[tuple[str, str]] = []
    subs = {}
    for k, f in enumerate(_functions(both)):
        name = WITNESS_ACTIVATIONS[(trial + k) % len(WITNESS_ACTIVATIONS)]
        subs[f] = _activation_lambda(name)
        named.append((f.__name__, name))
    mats = sorted(both.atoms(sympy.MatrixSymbol), key=lambda m: m.name)
    dims = set().union(*(sympy.Tuple(*m.shape).free_symbols for m in mats))
    symbols = sorted(
        (s for s in both.free_symbols | dims if isinstance(s, sympy.Symbol)), key=lambda s: s.name
    )
    values = {
        s: sympy.Integer(rng.choice(SMALL_INTEGERS)) if s in dims else _value_for(s, rng, trial + k)
        for k, s in enumerate(symbols)
    }
    # integers and dimensions belong to the instance (sums and shapes become explicit); the
    # real symbols are the point the kernel checks against their domains.
    fixed = {s: v for s, v in values.items() if s in dims or s.is_integer}
    point = {s: v for s, v in values.items() if s not in fixed}
    named += [(s.name, str(v)) for s, v in fixed.items()]
    explicit = {}
    for m in mats:
        rows, cols = (int(sympy.sympify(n).xreplace(fixed)) for n in m.shape)
        entries = [_value_for(_ENTRY, rng, trial) for _ in range(rows * cols)]
        explicit[m] = sympy.ImmutableMatrix(rows, cols, entries)
        named.append((m.name, str(explicit[m].tolist())))
    sides = [s.xreplace(fixed) for s in both]
    sides = [_concrete(s, subs, explicit) for s in sides]
    leaves = sorted(
        sympy.Tuple(*sides).atoms(sympy.Indexed, MatrixElement), key=sympy.default_sort_key
    )
    if leaves:
        filled = {leaf: _value_for(_ENTRY, rng, trial) for leaf in leaves}
        sides = [s.xreplace(filled) for s in sides]
        named += [(sympy.sstr(k), str(v)) for k, v in filled.items()]
    left, right = sides
    if isinstance(left, sympy.MatrixBase) or isinstance(right, sympy.MatrixBase):
        if (
            not (isinstance(left, sympy.MatrixBase) and isinstance(right, sympy.MatrixBase))
            or left.shape != right.shape
        ):
            raise ValueError("not a pair of explicit matrices of one shape")
        pairs = tuple(zip(left, right, strict=True))
    else:
        pairs = ((left, right),)
    free = set().union(*(sympy.sympify(a - b).free_symbols for a, b in pairs))
    variables = tuple(sorted((s for s in point if s in free), key=lambda s: s.name))
    return Proposal(pairs, {s: point[s] for s in variables}, variables, tuple(named))


def find_refutation(
    lhs: sympy.Basic, rhs: sympy.Basic, trials: int = WITNESS_TRIALS, seed: int = 0
) -> tuple[Fact, tuple[tuple[str, str], ...]] | None:
    """The kernel's refutation of ``lhs = rhs`` at a proposed instance: (the kernel's
    ``counterexample`` fact, the instance's substitutions), or None."""
    rng = random.Random(seed)
    for trial in range(trials):
        try:
            proposal = propose(lhs, rhs, rng, trial)
        except (BudgetExceeded, RecursionError):
            raise
        except Exception:  # noqa: BLE001 — an instance where the statement is not defined
            continue
        for a, b in proposal.pairs:
            if not (sympy.sympify(a - b).free_symbols <= set(proposal.variables)):
                continue
            try:
                fact = counterexample(a, b, proposal.point, proposal.variables)
            except (ValueError, TypeError):
                continue
            if fact.refuted:
                return fact, proposal.named
    return None


def vanishes_numerically(
    lhs: sympy.Basic, rhs: sympy.Basic, trials: int = WITNESS_TRIALS, seed: int = 1
) -> bool | None:
    """True if ``lhs − rhs`` is ~0 at every sampled instance (50 digits), False if not, None if
    none could be evaluated. A classification of proved/unknown mutants, never a verdict."""
    rng = random.Random(seed)
    evaluated = False
    for trial in range(trials):
        try:
            proposal = propose(lhs, rhs, rng, trial)
            for a, b in proposal.pairs:
                approx = sympy.N(sympy.sympify(a - b).xreplace(proposal.point), NUMERIC_DIGITS)
                if not approx.is_Number or approx.has(sympy.zoo, sympy.nan):
                    continue
                evaluated = True
                if abs(approx) > NUMERIC_ZERO:
                    return False
        except (BudgetExceeded, RecursionError):
            raise
        except Exception:  # noqa: BLE001 — an instance where the statement is not defined
            continue
    return True if evaluated else None


def _seed(text: str) -> int:
    return zlib.crc32(text.encode())


def check(mutant: Mutant, timeout_s: float = MUTANT_TIMEOUT_S) -> Outcome:
    """The kernel's checker on the mutant, then the kernel's ``counterexample`` at proposed
    instances; classified as in the module docstring."""
    start = time.perf_counter()
    seed = _seed(mutant.description + sympy.sstr(mutant.formula))
    fact = checker_fact(mutant.lhs, mutant.rhs)
    found, zero, note = None, None, ""
    if not fact.refuted:
        try:
            with deadline(timeout_s):
                found = find_refutation(mutant.lhs, mutant.rhs, seed=seed)
                if found is None:
                    zero = vanishes_numerically(mutant.lhs, mutant.rhs, seed=seed + 1)
        except (BudgetExceeded, RecursionError) as exc:
            note = f"point search stopped: {exc}"
    seconds = time.perf_counter() - start
    refutation, instance = found if found is not None else (None, ())
    if fact.proved:
        status = "unsound" if refutation is not None else ("equivalent" if zero else "suspect")
    elif fact.refuted or refutation is not None:
        status = "refuted"
    else:
        status = "unknown"
    return Outcome(mutant, status, fact, refutation, instance, seconds, zero, note)


def check_all(items: Sequence[Mutant], timeout_s: float = MUTANT_TIMEOUT_S) -> list[Outcome]:
    return [check(m, timeout_s) for m in items]


def module_name(outcome: Outcome) -> str:
    """The group of an outcome: the origin's module (``proofs.exchange``) or the origin."""
    return outcome.mutant.origin.split(":")[0]


# --- The null checker: every backend answers unknown -------------------------------------------


@contextmanager
def null_checker() -> Iterator[None]:
    """Replace the deciders inside every kernel checker by one that answers ``unknown``: SymPy
    (``zero_verdict``, the assumptions of ``check_sign``, the matrix-expression normal form),
    intervals and exact arithmetic (``_sign_verdict``, which also decides shapes), Z3
    (``check_valid``).
    The unknown verdicts are the kernel's own (``undecided``); nothing here mints. Under it, no
    mutant may be refuted — a refutation would come from outside the checkers."""
    import symbolic.gated.analysis as analysis
    import symbolic.kernel as kernel
    import symbolic.steps as steps
    from symbolic.kernel import (
        branches,
        domain_checks,
        homogeneity,
        interval_checks,
        matrices,
        points,
        sympy_checks,
        z3_checks,
    )

    def unknown(*args: Any, **kwargs: Any):  # noqa: ARG001
        return undecided(sympy.true, "null checker: every backend answers unknown").verdict

    def unknown_z3(build: Any, *args: Any, **kwargs: Any) -> Fact:  # noqa: ARG001
        return undecided(sympy.true, "null checker: Z3 answers unknown", "z3")

    def undecided_sign(expr: Any, sign: str) -> tuple[None, str]:  # noqa: ARG001
        return None, "null checker: SymPy's assumptions answer unknown"

    patches = [
        (sympy_checks, "zero_verdict", unknown),
        (domain_checks, "zero_verdict", unknown),
        (matrices, "zero_verdict", unknown),
        (sympy_checks, "assumed_sign", undecided_sign),
        (domain_checks, "assumed_sign", undecided_sign),
        (branches, "assumed_sign", undecided_sign),
        (matrices, "_reduces_to_zero", lambda diff: False),  # noqa: ARG005
        (homogeneity, "zero_verdict", unknown),
        (interval_checks, "_sign_verdict", unknown),
        (points, "_sign_verdict", unknown),
        (sympy_checks, "_sign_verdict", unknown),
        (homogeneity, "_sign_verdict", unknown),
        (z3_checks, "check_valid", unknown_z3),
        (kernel, "check_valid", unknown_z3),
        (steps, "check_valid", unknown_z3),
        (analysis, "_CACHE", {}),
    ]  # decided analyses are cached: none may be reused
    saved = [(mod, name, getattr(mod, name)) for mod, name, _ in patches]
    try:
        for mod, name, new in patches:
            setattr(mod, name, new)
        yield
    finally:
        for mod, name, old in saved:
            setattr(mod, name, old)


# --- Near-miss mutants of the per-activation decision procedures --------------------------------

NUDGE = sympy.Rational(1, 9999)  # 1 + 1/9999 = 10000/9999: within the parser's cap of 10⁴
TINY_NUDGE = sympy.Rational(1, 10**9)  # 1 + 1e-9: the parser rejects it (issue 11, open)


@dataclass(frozen=True)
class ActivationMutant:
    """A table activation made into a near-miss, as the user's text for ``--activation``, with
    the truth known by construction: linear, the positive-homogeneity degree (None: none),
    inverse-scaling symmetric."""

    operator: str
    origin: str  # the table activation
    text: str
    linear: bool
    degree: sympy.Expr | None
    inverse: bool


def activation_mutants() -> list[ActivationMutant]:
    """Near-misses of table activations (a tiny term, a nudged exponent, a moved switch point,
    a far kink). Every one is nonlinear and not inverse-scaling symmetric; the degree is known."""
    out = []
    for name, degree in (
        ("identity", None),
        ("relu", None),
        ("leaky_relu", None),
        ("abs", None),
        ("tanh", None),
        ("sigmoid", None),
        ("silu", None),
        ("relu2", 2),
    ):  # relu² + εz² is still homogeneous of degree 2
        out.append(
            ActivationMutant(
                "tiny_term",
                name,
                f"{name}(x) + 1e-12*x**2",
                False,
                None if degree is None else sympy.Integer(degree),
                False,
            )
        )
    for name, p in (("relu", 1), ("abs", 1), ("relu2", 2)):
        out.append(
            ActivationMutant(
                "constant_nudged", name, f"{name}(x)**(10000/9999)", False, p * (1 + NUDGE), False
            )
        )
        out.append(
            ActivationMutant(
                "constant_nudged",
                name,
                f"{name}(x)**(1 + 1e-9)",
                False,
                p * (1 + TINY_NUDGE),
                False,
            )
        )
    out.append(ActivationMutant("switch_moved", "relu", "max(x, 1e-9)", False, None, False))
    for name in ("relu", "leaky_relu", "abs", "relu2"):
        out.append(ActivationMutant("switch_moved", name, f"{name}(x - 1e-9)", False, None, False))
    for name in ("identity", "relu", "abs", "tanh", "sigmoid", "relu2"):
        out.append(
            ActivationMutant("far_kink", name, f"{name}(x) + relu(x - 1e6)", False, None, False)
        )
    return out


@dataclass(frozen=True)
class ActivationOutcome:
    """Per property: ``refuted`` / ``proved`` (right), ``unknown``, or ``wrong``."""

    mutant: ActivationMutant
    verdicts: dict[str, str]  # property → right-refuted / right-proved / unknown / wrong
    reasons: dict[str, str]
    seconds: float

    @property
    def wrong(self) -> list[str]:
        return [p for p, v in self.verdicts.items() if v == "wrong"]


def _judge(status: str, truth: bool) -> str:
    if status == "unknown":
        return "unknown"
    right = (status == "proved") == truth
    return ("refuted" if status == "refuted" else "proved") if right else "wrong"


def check_activation(m: ActivationMutant) -> ActivationOutcome:
    """The mutant through ``proofs.exchange``'s ``--activation`` path (``parsed_item``, then
    ``analyze_item``), each of its three decisions judged against the truth."""
    from symbolic.errors import ToolkitError
    from symbolic.gated.analysis import analyze_item, parsed_item

    start = time.perf_counter()
    try:
        label, expr, _ = parsed_item(m.text)
        an = analyze_item(label, expr)
    except ToolkitError as exc:  # a valid near-miss rejected: reported, never a verdict
        why = str(exc).splitlines()[0]
        return ActivationOutcome(
            m,
            dict.fromkeys(("linear", "homogeneity", "inverse_scaling"), "rejected"),
            {"input": why},
            time.perf_counter() - start,
        )
    hom = an.homogeneity
    verdicts = {
        "linear": _judge(an.linear.holds.status, m.linear),
        "inverse_scaling": _judge(an.inverse_scaling.holds.status, m.inverse),
    }
    if m.degree is None:
        verdicts["homogeneity"] = _judge(hom.holds.status, False)
    elif hom.holds.status == "proved":
        verdicts["homogeneity"] = "proved" if sympy.simplify(hom.value - m.degree) == 0 else "wrong"
    else:
        verdicts["homogeneity"] = "wrong" if hom.holds.status == "refuted" else "unknown"
    reasons = {
        "linear": an.linear.holds.verdict.reason,
        "homogeneity": hom.holds.verdict.reason,
        "inverse_scaling": an.inverse_scaling.holds.verdict.reason,
    }
    return ActivationOutcome(m, verdicts, reasons, time.perf_counter() - start)
