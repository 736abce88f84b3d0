"""Is a layer invariant under a transformation of its parameters? (THEORY Part D)

``decide(layer, transform, activations)`` returns a ``SymmetryDecision``: invariant yes, no or
undecided, with the kernel facts that decide it. The search here only proposes; the kernel
decides on the formula that is shown:

1. **General n, d** (whole-matrix transforms): entry ``(0, o)`` of ``F(x; Tθ)`` and of
   ``F(x; θ)``, written as finite sums with symbolic bounds, with σ an *uninterpreted* function,
   are compared in sum normal form (``check_sum_equal``). When a σ argument carries a scalar
   ``c`` of the transform, the facts about the activation propose how to move it out —
   ``σ(cw) = c^p σ(w)`` for ``c > 0`` when σ is positively homogeneous of degree p, and for
   ``c < 0`` an identity of ``INTERTWINERS``: ``σ(−w) = −σ(w)`` (odd), ``σ(−w) = σ(w)`` (even),
   ``σ(−w) = σ(w) − w`` (GELU, SiLU, ReLU); ``σ(w) = σ(1)·w`` when σ is linear. Each rewrite
   is used only when the kernel proves its instance ``∀t: σ(c·t) = R(t)`` for the real σ
   (shown as a step); the rewritten entries are then compared again.
2. **A certified witness** (``F(x; Tθ) ≠ F(x; θ)``): exact rational ``x``, parameters and ``a``
   at small explicit sizes, with the real σ; the kernel's ``counterexample`` certifies one entry
   of the difference nonzero (exactly or by outward-rounded intervals).
3. **Explicit sizes** (per-unit and fixed-row transforms, or when 1 is undecided): explicit
   symbolic matrices at ``d = 2`` and ``n = 2`` (or enough units for the rows named), every unit
   j, uninterpreted σ and the same instance facts (``check_matrix_equal``).

Otherwise ``unknown``. Every kernel call runs under the kernel's limits; the witness search is
bounded by ``MAX_WITNESS_TRIES`` and ``WITNESS_TIMEOUT_S``.

For a one-parameter group of scalings ``θ_M → a^{λ_M} θ_M`` the ``generator`` is
``A = dT_a/da|_{a=1} = diag(λ_M I_M)``; when the layer is invariant, ``θᵀAθ = Σ λ_M ‖M‖²`` is the
``conserved`` quantity of gradient flow — THEORY Part D's Noether theorem, proved in
``proofs.conservation`` (``conservation.noether``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from symbolic.activations import z
from symbolic.budget import BudgetExceeded, current_limits, time_limit
from symbolic.engine import Step
from symbolic.kernel import (
    Fact,
    check_identity,
    check_matrix_equal,
    check_sum_equal,
    counterexample,
    negate,
    undecided,
)
from symbolic.layer_language import Layer, entry, evaluate
from symbolic.layer_witness import t_real
from symbolic.layers import symbolic_matrix
from symbolic.transform_language import Transform, domain_text

GENERAL = "general n, d"
EXPLICIT_SIZES = {"d": 2, "n": 2}  # explicit-size proofs (more units when a row is named)
WITNESS_SIZES = ({"d": 1, "n": 1}, {"d": 2, "n": 2})  # tried in this order
WITNESS_VALUES = tuple(sympy.Rational(v) for v in ("1", "2", "-1", "1/2", "3", "-2", "-1/2",
                                                   "1/3", "3/2"))
PARAM_VALUES = {"positive": ("2", "1/2", "3"), "negative": ("-1", "-2", "-1/2"),
                "nonzero": ("-1", "2", "1/2")}
DRAWS_PER_VALUE = 2  # random points per (size, parameter value)
MAX_WITNESS_TRIES = 24  # points evaluated before the search gives up
WITNESS_TIMEOUT_S = 10.0
SEED = 13  # the witness search draws the same points on every run (issue 13)
NEGLIGIBLE = 1e-20  # a difference this small at 30 digits is left uncertified (likely 0)
CONSERVATION = ("conserved along gradient flow of any loss by THEORY Part D's Noether theorem, "
                "proved in proofs.conservation (conservation.noether)")


@dataclass(frozen=True)
class ActivationSpec:
    """An activation as the layer calls it: label, SymPy expression in z, numpy callable."""

    label: str
    expr: sympy.Expr
    numpy: Callable


@dataclass(frozen=True)
class Witness:
    """Exact values where ``F(x; Tθ) ≠ F(x; θ)``, and the certified entry of the difference."""

    sizes: Mapping[str, int]
    values: Mapping[str, sympy.Matrix]  # x and the parameters
    parameter: sympy.Expr | None
    unit: int | None
    entry: tuple[int, int]
    difference: sympy.Expr
    fact: Fact

    def to_json(self) -> dict[str, Any]:
        return {"sizes": dict(self.sizes), "unit": self.unit,
                **{k: [[sympy.sstr(v) for v in row] for row in m.tolist()]
                   for k, m in self.values.items()},
                "parameter": None if self.parameter is None else sympy.sstr(self.parameter),
                "entry": list(self.entry), "difference": sympy.sstr(self.difference)[:400],
                "certificate": self.fact.verdict.certificate}


@dataclass(frozen=True)
class SymmetryDecision:
    layer: Layer
    transform: Transform
    activation: str
    invariant: bool | None
    steps: tuple[Step, ...]
    sizes: str  # GENERAL, "d = 2, n = 2", or the witness's sizes
    every_sigma: bool = False  # proved with σ uninterpreted and no fact about it
    witness: Witness | None = None
    generator: str | None = None
    conserved: str | None = None

    @property
    def status(self) -> str:
        return "unknown" if self.invariant is None else "proved"


# --- facts about σ that move a scalar out of σ(c·w) --------------------------------------


@dataclass(frozen=True)
class Intertwiner:
    """An identity ``σ(−y) = flip(σ(y), y)`` that some activations satisfy (THEORY Part D)."""

    name: str
    flip: Callable[[sympy.Expr, sympy.Expr], sympy.Expr]

    def plausible(self, expr: sympy.Expr) -> bool:
        """Does σ = ``expr`` satisfy it at a few points? A proposal, never a fact."""
        return _plausible(expr.xreplace({z: -z}) - self.flip(expr, z))


INTERTWINERS = {i.name: i for i in (
    Intertwiner("odd", lambda s, y: -s),  # tanh, erf: σ(−y) = −σ(y)
    Intertwiner("even", lambda s, y: s),  # abs: σ(−y) = σ(y)
    Intertwiner("reflection", lambda s, y: s - y),  # GELU, SiLU, ReLU: σ(−y) = σ(y) − y
)}


@dataclass
class _Facts:
    """What the analysis of one activation proposes (its degree p, its slope if linear, the
    intertwiners it plausibly satisfies): proposals only; the instances used are checked."""

    spec: ActivationSpec
    cache: dict[str, bool] = field(default_factory=dict)

    def analysis(self):
        from symbolic.analysis import analyze

        return analyze(self.spec.expr, self.spec.label)

    def linear_slope(self) -> sympy.Expr | None:
        d = self.analysis().linear
        return d.value if d.holds.proved else None

    def degree(self) -> sympy.Expr | None:
        from symbolic.properties import EVERY_DEGREE

        d = self.analysis().homogeneity
        return d.value if d.holds.proved and d.value != EVERY_DEGREE else None

    def intertwiner(self) -> Intertwiner | None:
        for name, i in INTERTWINERS.items():
            if name not in self.cache:
                self.cache[name] = i.plausible(self.spec.expr)
            if self.cache[name]:
                return i
        return None


_T = sympy.Symbol("t", real=True)  # the argument of σ in an instance fact
_INSTANCES: dict[tuple, Fact] = {}  # instance facts, per (σ, instance, limits in force)


class _Rewriter:
    """Rewrites every σ(c·w) (c: the transform's scalar) as the facts about σ propose —
    ``c^p σ(w)`` (degree p, c > 0), by an intertwiner (c < 0), ``σ(1)·c·w`` (σ linear) — and
    uses a rewrite only when the kernel proves its instance ``∀t: σ(c·t) = R(t)`` for the
    real σ (``check_identity``); ``steps()`` are those instance facts. Replacing σ(c·w) by R(w)
    inside a larger expression is the one rule applied here, outside the kernel."""

    def __init__(self, facts: Mapping[str, _Facts], parameter: sympy.Symbol) -> None:
        self.facts, self.parameter = facts, parameter
        self.used: dict[tuple, Step] = {}
        self.changed = False

    def steps(self) -> list[Step]:
        return list(self.used.values())

    def __call__(self, expr: sympy.Expr) -> sympy.Expr:
        names = set(self.facts)
        return expr.replace(lambda e: isinstance(e, AppliedUndef) and e.func.__name__ in names,
                            self.call)

    def call(self, applied: AppliedUndef) -> sympy.Expr:
        facts, fn = self.facts[applied.func.__name__], applied.func
        arg = applied.args[0]
        slope = facts.linear_slope()
        if slope is not None:
            c, w, form = sympy.Integer(1), arg, slope * _T
        else:
            c, w = self.split(arg)
            form = None if c == 1 else self.proposal(facts, fn, c)
        if form is None or not self.verified(facts, fn, c, form):
            return fn(arg)
        self.changed = True
        return form.xreplace({_T: w})

    def proposal(self, facts: _Facts, fn, c: sympy.Expr) -> sympy.Expr | None:
        """R(t) with σ(c·t) = R(t) as the facts propose; None when none applies."""
        if c.is_negative:
            turn = facts.intertwiner()
            if turn is None:
                return None
            inner = self.proposal(facts, fn, -c) if -c != 1 else None
            return turn.flip(fn(-c * _T) if inner is None else inner, -c * _T)
        p = facts.degree()
        return c**p * fn(_T) if c.is_positive and p is not None else None

    def verified(self, facts: _Facts, fn, c: sympy.Expr, form: sympy.Expr) -> bool:
        """The kernel's ``∀t: σ(c·t) = R(t)`` for the real σ, recorded as a step when proved."""
        sigma = facts.spec.expr
        real = form.replace(lambda e: isinstance(e, AppliedUndef) and e.func == fn,
                            lambda e: sigma.xreplace({z: e.args[0]}))
        lhs = sigma.xreplace({z: c * _T})
        key = (sigma, lhs, real, current_limits())
        if key not in _INSTANCES:
            if not _plausible(lhs - real):
                return False
            _INSTANCES[key] = check_identity(lhs, real, _T)
        fact = _INSTANCES[key]
        if fact.proved:
            where = "" if self.parameter not in c.free_symbols else \
                f" ({domain_text(self.parameter)})"
            self.used.setdefault(key, Step(fact, f"instance for σ = {facts.spec.label}: cases "
                                           "t > 0, t < 0, t = 0 (kernel)",
                                           note=f"σ({sympy.sstr(c * _T)}) rewritten{where}"))
        return fact.proved

    def split(self, arg: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
        """``arg = c·w`` with c a number times powers of the transform's parameter."""
        number, rest = sympy.factor_terms(arg).as_coeff_Mul()
        scalar, other = [], []
        for f in sympy.Mul.make_args(rest):
            (scalar if f.free_symbols <= {self.parameter} else other).append(f)
        return number * sympy.Mul(*scalar), sympy.Mul(*other)


# --- applying a transform --------------------------------------------------------------------


def transformed(values: Mapping[str, Any], transform: Transform, value: Any,
                unit: int | None = None, scalar: Callable = lambda c: c) -> dict[str, Any]:
    """The parameters after the transform at parameter ``value`` (``unit``: the row of ``Q[j]``);
    simultaneous, on SymPy matrices or numpy arrays (``scalar`` converts each coefficient)."""
    out = dict(values)
    for s in transform.substitutions:
        c = scalar(s.coefficient if value is None else
                   s.coefficient.xreplace({transform.parameter: value}))
        source = values[s.source.name]
        if s.target.index is None:
            out[s.target.name] = c * source
            continue
        rows = unit if isinstance(s.target.index, str) else s.target.index
        src = unit if isinstance(s.source.index, str) else s.source.index
        if out[s.target.name] is values[s.target.name]:
            out[s.target.name] = values[s.target.name].copy()
        out[s.target.name][rows, :] = c * source[src, :]
    return out


def _rows_needed(transform: Transform) -> int:
    return max((*transform.fixed_units, 0)) + 1


def _sizes_list(transform: Transform, base: Mapping[str, int]) -> dict[str, int]:
    n = max(base["n"], _rows_needed(transform) if transform.fixed_units else 1)
    return {"1": 1, "d": base["d"], "n": n}


def _units(transform: Transform, n: int) -> list[int | None]:
    return list(range(n)) if transform.unit_index is not None else [None]


def symbol_values(layer: Layer, sizes: Mapping[str, int]) -> dict[str, sympy.Matrix]:
    """Explicit matrices of real symbols for the token and every parameter."""
    out = {"x": symbolic_matrix("x", 1, sizes["d"])}
    for name, (rows, cols) in layer.shapes:
        out[name] = symbolic_matrix(name, sizes[rows], sizes[cols])
    return out


def _layer_at(layer: Layer, values: Mapping[str, Any], functions: Mapping[str, Callable]):
    return evaluate(layer, values["x"], values, functions)


# --- the decision ----------------------------------------------------------------------------


def decide(layer: Layer, transform: Transform,
           activations: Mapping[str, ActivationSpec]) -> SymmetryDecision:
    """Invariant, not invariant (certified witness) or unknown; see the module docstring."""
    facts = {name: _Facts(activations[name]) for name in layer.functions}
    label = activations["sigma"].label if "sigma" in activations else "—"
    generator, conserved = generator_of(layer, transform)
    common = dict(layer=layer, transform=transform, activation=label, generator=generator)
    if not transform.indexed:
        found = _general_proof(layer, transform, facts)
        if found is not None:
            steps, every = found
            return SymmetryDecision(invariant=True, steps=steps, sizes=GENERAL,
                                    every_sigma=every, conserved=conserved, **common)
    witness = _witness(layer, transform, activations)
    if witness is not None:
        step = Step(negate(witness.fact), "certified witness: one entry of F(x; Tθ) − F(x; θ) "
                    "is nonzero (kernel)")
        shown = ", ".join(f"{k} = {v}" for k, v in witness.sizes.items())
        return SymmetryDecision(invariant=False, steps=(step,), sizes=shown, witness=witness,
                                **common)
    facts = {name: _Facts(activations[name]) for name in layer.functions}
    found = _explicit_proof(layer, transform, facts)
    if found is not None:
        steps, every, sizes = found
        return SymmetryDecision(invariant=True, steps=steps, sizes=sizes, every_sigma=every,
                                conserved=conserved, **common)
    fact = undecided(_statement(layer, transform),
                     "neither a proof (general n, d or explicit sizes) nor a certified witness "
                     "within the bounds", "sympy+interval")
    return SymmetryDecision(invariant=None, steps=(Step(fact, "bounded search"),), sizes="—",
                            **common)


def _statement(layer: Layer, transform: Transform) -> sympy.Basic:
    """``F(x; Tθ) = F(x; θ)``: entry (0, o) at general n, d, or at explicit sizes (unit 0)."""
    if not transform.indexed:
        after, before = _general_entries(layer, transform)
        return sympy.Eq(after, before, evaluate=False)
    sizes = _sizes_list(transform, EXPLICIT_SIZES)
    values, functions = symbol_values(layer, sizes), _uninterpreted(layer)
    unit = 0 if transform.unit_index is not None else None
    after = _layer_at(layer, transformed(values, transform, transform.parameter, unit), functions)
    return sympy.Eq(sympy.ImmutableMatrix(after), sympy.ImmutableMatrix(
        _layer_at(layer, values, functions)), evaluate=False)


def _uninterpreted(layer: Layer) -> dict[str, Callable]:
    return {name: sympy.Function(name) for name in layer.functions}


def _general_entries(layer: Layer, transform: Transform) -> tuple[sympy.Expr, sympy.Expr]:
    """Entry (0, o) of F(x; Tθ) and F(x; θ) at general n, d, σ uninterpreted."""
    n, d = sympy.symbols("n d", integer=True, positive=True)
    sizes = {"1": sympy.Integer(1), "d": d, "n": n}
    o = sympy.Symbol("o", integer=True)
    bases = {name: sympy.IndexedBase(name) for name in layer.parameters}
    plain = {name: (lambda r, c, b=b: b[r, c]) for name, b in bases.items()}
    moved = dict(plain)
    for s in transform.substitutions:
        moved[s.target.name] = (lambda r, c, b=bases[s.source.name], k=s.coefficient:
                                k * b[r, c])
    functions = _uninterpreted(layer)
    return (entry(layer, sizes, moved, functions, sympy.Integer(0), o),
            entry(layer, sizes, plain, functions, sympy.Integer(0), o))


def _general_proof(layer: Layer, transform: Transform, facts: Mapping[str, _Facts]
                   ) -> tuple[tuple[Step, ...], bool] | None:
    from symbolic.dimension_free import sum_normal_form

    after, before = _general_entries(layer, transform)
    rule = f"{GENERAL}: entry (0, o) as finite sums, sum normal form (σ uninterpreted)"
    if _plausible(after - before):
        fact = check_sum_equal(after, before)
        if fact.proved:
            return (Step(fact, rule, note="F(x; Tθ) = F(x; θ) for every σ"),), True
    rewriter = _Rewriter(facts, transform.parameter)
    try:
        normal = sum_normal_form(after), sum_normal_form(before)
        rewritten = rewriter(normal[0]), rewriter(normal[1])
    except (TypeError, ValueError, RecursionError):
        return None
    if not rewriter.changed or not _plausible(rewritten[0] - rewritten[1]):
        return None
    both = rewritten[1] != normal[1]  # the facts rewrite F(x; θ) too (a linear σ)
    fact = check_sum_equal(rewritten[0], rewritten[1] if both else before)
    if not fact.proved:
        return None
    normal_form = f"{GENERAL}: sum normal form"
    steps = (*rewriter.steps(),
             Step(check_sum_equal(after, normal[0]), normal_form,
                  note="F(x; Tθ), entry (0, o), the scalars moved out of the sums"),
             *([Step(check_sum_equal(before, normal[1]), normal_form,
                     note="F(x; θ), entry (0, o)")] if both else []),
             Step(fact, f"{GENERAL}: the instances above applied to every σ(c·w)"
                  f"{' of both sides' if both else ''}, then sum normal form",
                  note="F(x; Tθ) = F(x; θ)"))
    return steps, False


def _explicit_proof(layer: Layer, transform: Transform, facts: Mapping[str, _Facts]
                    ) -> tuple[tuple[Step, ...], bool, str] | None:
    sizes = _sizes_list(transform, EXPLICIT_SIZES)
    values = symbol_values(layer, sizes)
    functions = _uninterpreted(layer)
    before = _layer_at(layer, values, functions)
    a = transform.parameter
    shown = f"d = {sizes['d']}, n = {sizes['n']}"
    main, every = [], True
    rewriter = _Rewriter(facts, a)
    for unit in _units(transform, sizes["n"]):
        after = _layer_at(layer, transformed(values, transform, a, unit), functions)
        where = "" if unit is None else f", unit j = {unit}"
        fact = None
        if _plausible_matrix(after - before):
            fact = check_matrix_equal(after, before)
        if fact is None or not fact.proved:
            sides = after.applyfunc(rewriter), before.applyfunc(rewriter)
            every = False
            if not rewriter.changed or not _plausible_matrix(sides[0] - sides[1]):
                return None
            fact = check_matrix_equal(*sides)
            if not fact.proved:
                return None
        main.append(Step(fact, f"explicit symbolic matrices, {shown}{where}"
                         f"{'' if every else ': the instances above applied to every σ(c·w)'}"))
    steps = (*([] if every else rewriter.steps()), *main)
    return steps, every, shown + (" (every unit j)" if transform.unit_index else "")


# --- a numeric filter: which identities are worth a proof attempt (proposals only) ----------

GENERIC_SIGMA = sympy.Lambda(t_real, sympy.sin(t_real) + t_real**2 / 3 + t_real)  # no symmetry
PLAUSIBLE_POINTS = 3  # random points at which a candidate identity must hold
PLAUSIBLE_TOLERANCE = 1e-9  # |difference| at 30 digits (values are O(1))
FILTER_SIZES = {"n": 2, "d": 2}  # symbolic sizes replaced by these for the filter


def _plausible(diff: sympy.Expr) -> bool:
    """Does ``diff = 0`` hold at a few pseudo-random points (σ uninterpreted: a generic σ;
    symbolic sizes n, d: 2)? Never decides anything; a False only saves a proof attempt."""
    rng = random.Random(SEED)
    try:
        e = diff.xreplace({s: FILTER_SIZES[s.name] for s in diff.free_symbols
                           if s.name in FILTER_SIZES and s.is_integer})
        e = _unrolled(e).replace(lambda f: isinstance(f, AppliedUndef),
                                 lambda f: GENERIC_SIGMA(*f.args))
        atoms = sorted(e.atoms(sympy.Indexed) | {s for s in e.free_symbols
                                                  if isinstance(s, sympy.Symbol)}, key=str)
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


def _plausible_matrix(diff: sympy.Matrix) -> bool:
    return all(_plausible(e) for e in diff)


def _concrete(activations: Mapping[str, ActivationSpec], layer: Layer) -> dict[str, Callable]:
    return {name: sympy.Lambda(t_real, activations[name].expr.xreplace({z: t_real}))
            for name in layer.functions}


def _witness(layer: Layer, transform: Transform, activations: Mapping[str, ActivationSpec]
             ) -> Witness | None:
    try:
        with time_limit(WITNESS_TIMEOUT_S):
            return _search_witness(layer, transform, activations)
    except (BudgetExceeded, ValueError, TypeError, ArithmeticError, RecursionError):
        return None


def _candidates(layer: Layer, transform: Transform):
    rng = random.Random(SEED)
    a = transform.parameter
    kind = "positive" if a.is_positive else "negative" if a.is_negative else "nonzero"
    params = [sympy.Rational(v) for v in PARAM_VALUES[kind]] if transform.one_parameter \
        else [None]
    for base in WITNESS_SIZES:
        sizes = _sizes_list(transform, base)
        for value in params:
            for _ in range(DRAWS_PER_VALUE):
                for unit in _units(transform, sizes["n"]):
                    yield sizes, value, unit, rng


def _search_witness(layer: Layer, transform: Transform,
                    activations: Mapping[str, ActivationSpec]) -> Witness | None:
    functions = _concrete(activations, layer)
    for tries, (sizes, value, unit, rng) in enumerate(_candidates(layer, transform)):
        if tries >= MAX_WITNESS_TRIES:
            return None
        symbols = symbol_values(layer, sizes)
        point = {s: rng.choice(WITNESS_VALUES) for m in symbols.values() for s in m}
        exact = {k: m.xreplace(point) for k, m in symbols.items()}
        diff = _layer_at(layer, transformed(exact, transform, value, unit), functions) - \
            _layer_at(layer, exact, functions)
        col = _visible_entry(diff)
        if col is None:
            continue
        a = transform.parameter
        lhs = _layer_at(layer, transformed(symbols, transform, a, unit), functions)[0, col]
        rhs = _layer_at(layer, symbols, functions)[0, col]
        full = dict(point)
        if transform.one_parameter:
            full[a] = value
        variables = tuple(sorted((lhs - rhs).free_symbols | set(full) & {a}, key=str))
        fact = counterexample(lhs, rhs, {v: full[v] for v in variables}, variables)
        if fact.refuted:
            return Witness({"d": sizes["d"], "n": sizes["n"]}, exact,
                           value if transform.one_parameter else None, unit, (0, col),
                           diff[0, col], fact)
    return None


def _visible_entry(diff: sympy.Matrix) -> int | None:
    """The first entry of a difference that is clearly nonzero at 30 digits (a proposal)."""
    for col in range(diff.shape[1]):
        value = diff[0, col]
        if value == 0 or value.has(sympy.zoo, sympy.nan, sympy.I):
            continue
        try:
            approx = complex(value.evalf(30))
        except (TypeError, ValueError):
            continue
        if abs(approx.imag) < NEGLIGIBLE and abs(approx.real) > NEGLIGIBLE:
            return col
    return None


# --- generator and conserved quantity --------------------------------------------------------


def generator_of(layer: Layer, transform: Transform) -> tuple[str | None, str | None]:
    """``(A, θᵀAθ)`` as text for a one-parameter group of scalings ``θ_M → a^{λ_M} θ_M``
    (through the identity at a = 1); (None, None) for any other transform."""
    a = transform.parameter
    if not transform.one_parameter or a.is_negative:
        return None, None
    exponents = []
    for s in transform.substitutions:
        if s.source != s.target:
            return None, None
        lam = sympy.diff(s.coefficient, a).xreplace({a: 1})
        if not lam.is_Rational or sympy.simplify(s.coefficient - a**lam) != 0:
            return None, None
        exponents.append((s.target, lam))
    kept = [(ref, lam) for ref, lam in exponents if lam != 0]
    if not kept:
        return None, None
    generator = "diag(" + ", ".join(f"{_number(lam)}·I_{_block(ref)}" for ref, lam in kept) + ")"
    terms = []
    for i, (ref, lam) in enumerate(kept):
        sign = "−" if lam < 0 else ("" if i == 0 else "+")
        size = abs(lam)
        weight = "" if size == 1 else (f"{size}" if size.is_Integer else f"({size})")
        terms.append(f"{sign} {weight}‖{_block(ref)}‖²".strip() if i else
                     f"{sign}{weight}‖{_block(ref)}‖²")
    return generator, " ".join(terms)


def _number(lam: sympy.Rational) -> str:
    return str(lam).replace("-", "−")


def _block(ref) -> str:
    if ref.index is None:
        return ref.name
    return f"{ref.name.lower()}_{ref.index}"


__all__ = ["CONSERVATION", "GENERAL", "INTERTWINERS", "ActivationSpec", "SymmetryDecision",
           "Witness", "decide", "generator_of", "symbol_values", "transformed"]

