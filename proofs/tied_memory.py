"""What symmetry breaking buys, measured as memory (docs/theory.md C1).

Store ``M`` pairs with tied query/key vectors ``q_m = k_m`` and query with a stored key. The
symmetric rank-1 form scores ``(x·q)(x·k) = s²`` and weighs a memory by ``σ(s²)``; the gated form
weighs it by ``σ(s)·s``. As for every weight store (``capacity.isr-weights``),
``M* = 1 + σ(1)²/E[f(s)²]``.

* ``σ(s²)`` is even in ``s`` for every σ: a key with ``s ≈ −1`` weighs what one with ``s ≈ 1``
  does, so anti-aligned keys carry half of the interference, and ``−k_i`` is recalled as
  strongly as ``k_i`` itself (the ``α = −1`` case of the inverse scaling, A7).
* ReLU: the gate removes exactly that half, ``M*_gated − 1 = 2(M*_sym − 1)`` under both laws.
* ReLU²: ``σ(s²) = s⁴`` is of higher degree than ``relu(s)²·s``: the symmetric store holds more
  for ``d > 8`` (exact law; ``d > 14`` Gaussian) — symmetry breaking is not free capacity.
* Every activation whose squared weight is a polynomial on each half of ``[−1, 1]`` gets its
  capacity in closed form in ``d`` under the exact law (supported on ``[−1, 1]``), and under the
  Gaussian law too when the polynomials hold on every ``t > 0`` (hardtanh, ReLU6, hard-swish:
  on ``|s| ≤ 1`` only, so their Gaussian capacity is numeric); the half-line polynomials are
  checked by the kernel (``∀ t ∈ (0, 1]``, or ``∀ t > 0``). The others are tabulated from a
  numeric quadrature and say so.

Statements: ``σ((−s)²) = σ(s²) ∧ σ((−1)²) = σ(1)``; ``M*_sym,law = …`` and ``M*_gated,law = …``
(``M*`` defined as ``1 + f(1)²/(½ Σ (c⁺ₙ + c⁻ₙ) E|s|ⁿ)``, checked against the closed form);
``M*_gated − 1 = 2(M*_sym − 1)`` (ReLU) and ``M*_sym − M*_gated = …`` (ReLU²), both laws.

Run ``python -m proofs.tied_memory [--d 64] [-v] [--json] [--latex FILE]``; Monte Carlo with
real vectors: ``python -m numeric_checks.sweep --workers 0 --store sym_relu,gated_relu --d 64``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from functools import cache

import numpy as np
import sympy

from proofs._cli import run
from symbolic.activations import ACTIVATIONS
from symbolic.calc import Calc
from symbolic.engine import Claim, Derivation, NumericCheck, Report, Result, Step, Table
from symbolic.errors import InvalidArgument
from symbolic.kernel import Fact, check_equal, check_zero_on, cong, symm
from symbolic.memory.capacity_formulas import (
    HALF,
    capacity_chain,
    concluded,
    conjunction,
    eq,
    lemma_facts,
    moment_form,
    put,
)
from symbolic.memory.similarity_law import LAW_NAMES, d_, s
from symbolic.memory.stores import STORES, TIED_FORMS
from symbolic.memory.tied_memory import (
    SIDES,
    TiedForm,
    abs_moment,
    closed_law,
    numeric_halves,
    t,
    tied_form,
    tied_table,
)
from symbolic.steps import equal_step

ORDER = 55  # after proofs.capacity (Part B) in `python -m proofs`
SOURCE = "C1"
DEFAULT_D = 64
MAX_D = 4096
SEED = 20261201  # the numeric evenness check's random similarities
QUAD_TOLERANCE = 1e-9  # Gauss–Legendre (128 nodes per half-line) vs closed form, relative
UNIT = sympy.Interval.Lopen(0, 1)  # the exact law's half-support, t = |s|
T_POS = sympy.Symbol("t", positive=True)  # s = ±t on a whole half-line
U = sympy.Symbol("u", nonnegative=True)  # t = 1 − u/(1 + u) = 1/(1 + u) runs over (0, 1]
# Written 1 − u/(1 + u), SymPy sees t ≤ 1 at once (1 − t = u/(1 + u) ≥ 0), so every Min/Max
# branch of hardtanh, ReLU6 and hard-swish settles without splitting the piecewise difference.
UNIT_POINT = 1 - U / (1 + U)
QUICK_TIMEOUT_S = 1.0  # the substitution route settles in < 0.1 s CPU or not at all
sigma = sympy.Function("sigma")  # uninterpreted: nothing is assumed about σ
H, H2 = sympy.symbols("h h2")  # holes of the contexts equals are put in (kernel rule cong)


def _name(form: str, act: str) -> str:
    return f"{form}_{act}"


def evenness_statement() -> sympy.Basic:
    """``σ((−s)²) = σ(s²) ∧ σ((−1)²) = σ(1)`` for an uninterpreted σ."""
    return conjunction(
        eq(put(sigma(s**2), {s: -s}), sigma(s**2)), eq(put(sigma(s**2), {s: -1}), sigma(1))
    )


def evenness() -> Result:
    steps = []
    for point, rule, note in (
        (-s, "(−s)² = s²", "f(−s) = f(s) for f(s) = σ(s²)"),
        (-1, "(−1)² = 1", "the key −k_i: weight σ(1), the signal's"),
    ):
        square = equal_step(put(s**2, {s: point}), (s**2).subs(s, -point), rule)
        steps += [
            square,
            Step(cong(square.fact, sympy.Lambda(H, sigma(H))), "σ of equals (σ arbitrary)", note),
        ]
    steps = concluded(steps, steps[1::2])
    statement = evenness_statement()
    claim = Claim(
        "tied.symmetric-even",
        "The symmetric tied store cannot tell s from −s",
        "σ((−s)²) = σ(s²) for every σ: with tied keys the symmetric rank-1 weight is even in s, "
        "so a key at similarity −s weighs what one at s does; the law of s being even, "
        "E[f²; s < 0] = E[f²; s > 0] (anti-aligned keys carry half the interference), and the "
        "key −k_i gets the signal's own weight σ(1)",
        SOURCE,
        "lemma",
        ("σ: R → R arbitrary (an uninterpreted function)",),
        uses=("similarity-law",),
        statement=statement,
    )
    rng = np.random.default_rng(SEED)
    sims = rng.uniform(-1, 1, 1000)
    worst = max(
        float(
            np.max(
                np.abs(
                    STORES[_name("sym", a)].normalized_weight(sims.copy(), 1.0)
                    - STORES[_name("sym", a)].normalized_weight(-sims, 1.0)
                )
            )
        )
        for a in ACTIVATIONS
    )
    return Result(
        claim,
        Derivation(steps),
        (
            NumericCheck(
                "σ(s²) = σ((−s)²) at 1000 random s, every table activation",
                "numpy",
                1000 * len(ACTIVATIONS),
                worst,
                0.0,
                worst == 0.0,
                "squaring ±s gives the same float: the error is exactly 0",
            ),
        ),
    )


def half_line_step(f: sympy.Expr, sign: int, poly: sympy.Expr, everywhere: bool, note: str) -> Step:
    """The kernel fact ``f(±t)² = P(t)`` for every ``t > 0`` (``everywhere``) or every
    ``0 < t ≤ 1``. ``t > 0`` is a positive symbol; ``0 < t ≤ 1`` is ``t = 1 − u/(1 + u)``,
    ``u ≥ 0``, which settles the branches of hardtanh, ReLU6 and hard-swish at once; otherwise
    the kernel splits the piecewise difference over ``(0, 1]``."""
    if everywhere:
        return Step(
            check_equal(
                *_sides(f.xreplace({s: sign * T_POS}), f, sign * T_POS, poly.xreplace({t: T_POS}))
            ),
            "substitute s = ±t, t > 0",
            note=note,
        )
    fact = check_equal(
        *_sides(
            f.xreplace({s: sign * UNIT_POINT}), f, sign * UNIT_POINT, poly.xreplace({t: UNIT_POINT})
        ),
        QUICK_TIMEOUT_S,
    )
    if fact.proved:
        return Step(fact, "substitute s = ±(1 − u/(1 + u)), u ≥ 0 (0 < |s| ≤ 1)", note=note)
    return Step(
        check_zero_on(f.subs(s, sign * t) ** 2 - poly, t, UNIT),
        "kernel: the difference on (0, 1], branch by branch",
        note=note,
    )


def _sides(
    at: sympy.Expr, f: sympy.Expr, point: sympy.Expr, poly: sympy.Expr
) -> tuple[sympy.Expr, sympy.Expr]:
    """``f(point)²`` (squared unevaluated; ``Subs`` where that would equal ``P``) and ``P``."""
    lhs = sympy.Pow(at, 2, evaluate=False)
    return (sympy.Subs(f**2, s, point) if lhs == poly else lhs), poly


# --- capacities in closed form ---------------------------------------------------------------

N_ = sympy.Symbol("n", integer=True, nonnegative=True)
ABS_MOMENT = {  # E|s|^n (the module docstring of symbolic.memory.tied_memory)
    "exact": sympy.gamma(d_ / 2)
    * sympy.gamma((N_ + 1) / 2)
    / (sympy.sqrt(sympy.pi) * sympy.gamma((d_ + N_) / 2)),
    "gaussian": (2 / d_) ** (N_ / 2) * sympy.gamma((N_ + 1) / 2) / sympy.sqrt(sympy.pi),
}


def abs_moment_form(law: str, n: int) -> sympy.Expr:
    """``E|s|^n`` written at ``n`` (even n: lemma even-moments' ``E[s^n]``)."""
    return moment_form(law, n // 2) if n % 2 == 0 else put(ABS_MOMENT[law], {N_: n})


def second_form(form: TiedForm, law: str) -> sympy.Expr:
    """``E[f(s)²] = ½ Σ_n (c⁺_n + c⁻_n) E|s|^n`` from ``f(±t)² = Σ c±_n tⁿ`` (even law)."""
    terms = [
        abs_moment_form(law, n) if c == 1 else sympy.Mul(c, abs_moment_form(law, n), evaluate=False)
        for (n,), c in sympy.Poly(sympy.expand(form.plus + form.minus), t).terms()
    ]
    total = terms[0] if len(terms) == 1 else sympy.Add(*terms, evaluate=False)
    return sympy.Mul(HALF, total, evaluate=False)


def mstar(form_name: str, law: str) -> sympy.Symbol:
    """The name ``M*`` of a tied store's capacity (``sym`` or ``gated``) under a law."""
    return sympy.Symbol(
        f"M*_{form_name},{law}"
    )  # a name for its value (its sign is not SymPy's to decide)


def closed_laws(form: TiedForm) -> tuple[str, ...]:
    """The laws under which the half-line polynomials give ``E[f²]``: both when they hold on
    every ``t > 0``; else only the exact law, supported on ``[−1, 1]`` (the Gaussian law also
    weighs ``|s| > 1``, where the polynomial is not ``f²``: no closed form is claimed there)."""
    return tuple(LAW_NAMES) if form.everywhere else ("exact",)


def capacity_statement(act: str) -> sympy.Basic:
    """``M*_form,law = closed form in d`` for both forms, under each law the polynomials of
    that form reach (``closed_laws``)."""
    return conjunction(
        *(
            eq(mstar(f, law), closed_law(tied_form(_name(f, act)), law)[0])
            for f in TIED_FORMS
            for law in closed_laws(tied_form(_name(f, act)))
        )
    )


@cache
def capacity_steps(act: str, form_name: str, law: str) -> tuple[Step, ...]:
    """``M* := 1 + f(1)²/E[f(s)²]`` unfolded and checked against the closed form; the last
    step is ``M*_form,law = closed form``."""
    form = tied_form(_name(form_name, act))
    expr, second = closed_law(form, law)[0], second_form(form, law)
    facts = [
        (odd_moment_fact(law, n), f"E|s|^{n} (Beta integral)")
        if n % 2
        else lemma_facts(law, (n,))[0]
        for n in _degrees(form)
    ]
    return capacity_chain(
        _name(form_name, act),
        law,
        sympy.Pow(put(form.store.weight, {s: 1}), 2, evaluate=False),
        second,
        expr,
        "cancel to a rational function of d",
        mstar(form_name, law),
        facts,
    )


def _degrees(form: TiedForm) -> list[int]:
    return [n for (n,), _ in sympy.Poly(sympy.expand(form.plus + form.minus), t).terms()]


@cache
def odd_moment_fact(law: str, n: int) -> Fact:
    """``E|s|^n`` for odd ``n``: the Γ form at ``n`` and its value (checked once)."""
    return check_equal(put(ABS_MOMENT[law], {N_: n}), abs_moment(law, n))


def closed_result(act: str, d: int) -> Result:
    """Both tied forms of one activation, both laws, in closed form in d."""
    chains, steps, numeric = [], [], []
    for form_name in TIED_FORMS:
        form = tied_form(_name(form_name, act))
        f = form.store.weight
        for side, sign in SIDES:
            poly = form.plus if side == "plus" else form.minus
            steps.append(
                half_line_step(
                    f,
                    sign,
                    poly,
                    form.everywhere,
                    f"{form_name}: f({'' if sign > 0 else '−'}t)² = "
                    f"{sympy.sstr(poly)} for " + ("t > 0" if form.everywhere else "0 < t ≤ 1"),
                )
            )
        for law in closed_laws(form):
            expr, plus, minus = closed_law(form, law)
            steps += capacity_steps(act, form_name, law)
            chains.append(steps[-1])
            got = 1 + 1 / sum(numeric_halves(form.store, law, d))
            want = float(expr.subs(d_, d))
            err = abs(got - want) / want
            numeric.append(
                NumericCheck(
                    f"{form_name}, {law}: Gauss–Legendre M* at d = {d}",
                    "numpy",
                    2,
                    err,
                    QUAD_TOLERANCE,
                    err <= QUAD_TOLERANCE,
                )
            )
    whole = [f for f in TIED_FORMS if tied_form(_name(f, act)).everywhere]
    partial = [f for f in TIED_FORMS if f not in whole]
    laws = "both laws"
    if partial:  # a polynomial of |s| ≤ 1 only: no Gaussian closed form (the law weighs |s| > 1)
        laws = (f"both laws for {', '.join(whole)}; " if whole else "") + (
            f"the exact law only for {', '.join(partial)} (the polynomial holds on |s| ≤ 1 only "
            "and the Gaussian law also weighs |s| > 1: that capacity is numeric, in the table)"
        )
    claim = Claim(
        f"tied.capacity-{act}",
        f"Tied-key capacities, {act}",
        f"weights {act}(s²) (sym) and {act}(s)·s (gated), {laws}",
        SOURCE,
        uses=("isr-weights", "even-moments", "tied.symmetric-even"),
        statement=capacity_statement(act),
    )
    return Result(claim, Derivation(concluded(steps, chains)), tuple(numeric))


def _used(step: Step, claim: str) -> Step:
    """The conclusion of another claim's chain, shown as what it is."""
    return Step(step.fact, f"proved in {claim}", step.note)


def doubling_statement(law: str) -> sympy.Basic:
    """``M*_gated − 1 = 2(M*_sym − 1)``."""
    return eq(put(H - 1, {H: mstar("gated", law)}), put(DOUBLED, {H: mstar("sym", law)}))


DOUBLED = sympy.Mul(2, H - 1, evaluate=False)  # 2(h − 1), not distributed


def relu_doubles() -> Result:
    claim = Claim(
        "tied.relu-gate-doubles",
        "The ReLU gate doubles the tied capacity",
        "M*_gated − 1 = 2(M*_sym − 1) for σ = relu under both laws: relu(s²) = s² weighs "
        "anti-aligned keys like aligned ones, relu(s)·s = relu(s)² silences them",
        SOURCE,
        uses=("tied.capacity-relu",),
        statement=conjunction(*(doubling_statement(law) for law in LAW_NAMES)),
    )
    steps, parts = [], []
    for law in LAW_NAMES:
        gated, sym = (
            _used(capacity_steps("relu", f, law)[-1], "tied.capacity-relu")
            for f in ("gated", "sym")
        )
        left = cong(gated.fact, sympy.Lambda(H, H - 1))
        right = symm(cong(sym.fact, sympy.Lambda(H, DOUBLED)))
        calc = (
            Calc(left.formula.lhs)
            .eq(left.formula.rhs, "subtract 1", by=left)
            .eq(right.formula.lhs, "the closed forms of tied.capacity-relu; expand")
            .eq(right.formula.rhs, "subtract 1, double", by=right)
        )
        steps += [gated, sym, *calc.steps(note=f"{law}: M*_gated − 1 = 2(M*_sym − 1)")]
        parts.append(steps[-1])
    return Result(claim, Derivation(concluded(steps, parts)))


CROSSOVER = {
    "exact": d_ * (d_ - 8) * (d_ + 2) * (d_ + 4) / 105,
    "gaussian": d_**3 * (d_ - 14) / 105,
}


def crossover_statement(law: str) -> sympy.Basic:
    """``M*_sym − M*_gated = …``."""
    return eq(put(H - H2, {H: mstar("sym", law), H2: mstar("gated", law)}), CROSSOVER[law])


def relu2_crossover() -> Result:
    claim = Claim(
        "tied.relu2-symmetric-wins",
        "For ReLU² the symmetric tied store holds more",
        "M*_sym − M*_gated = d(d − 8)(d + 2)(d + 4)/105 (exact law) and d³(d − 14)/105 "
        "(Gaussian): relu(s²)² = s⁸ has higher degree than relu(s)⁴s², so above d = 8 "
        "(Gaussian: 14) the symmetric form stores more despite its anti-aligned interference",
        SOURCE,
        uses=("tied.capacity-relu2",),
        statement=conjunction(*(crossover_statement(law) for law in LAW_NAMES)),
    )
    steps, parts = [], []
    for law in LAW_NAMES:
        sym, gated = (
            _used(capacity_steps("relu2", f, law)[-1], "tied.capacity-relu2")
            for f in ("sym", "gated")
        )
        first = cong(sym.fact, sympy.Lambda(H, put(H - H2, {H2: mstar("gated", law)})))
        closed_sym = sym.formula.rhs
        second = cong(gated.fact, sympy.Lambda(H2, put(H - H2, {H: closed_sym})))
        calc = (
            Calc(first.formula.lhs)
            .eq(first.formula.rhs, "M*_sym's closed form", by=first)
            .eq(second.formula.rhs, "M*_gated's closed form", by=second)
            .eq(CROSSOVER[law], "factor")
        )
        steps += [
            sym,
            gated,
            *calc.steps(note=f"{law}: M*_sym − M*_gated = {sympy.sstr(CROSSOVER[law])}"),
        ]
        parts.append(steps[-1])
    return Result(claim, Derivation(concluded(steps, parts)))


def build_report(d: int = DEFAULT_D) -> Report:
    """The C1 claims, and the table of every activation × form × law at dimension ``d``."""
    if int(d) != d or not 3 <= d <= MAX_D:
        raise InvalidArgument(f"--d {d}: the dimension must be an integer in [3, {MAX_D}]")
    d = int(d)
    closed = [a for a in ACTIVATIONS if all(tied_form(_name(f, a)).closed for f in TIED_FORMS)]
    results = [
        evenness(),
        *(closed_result(a, d) for a in closed),
        relu_doubles(),
        relu2_crossover(),
    ]
    rows = tied_table(d)
    data = {
        "d": d,
        "stores": rows,
        "closed_form_activations": closed,
        "numeric_activations": [a for a in ACTIVATIONS if a not in closed],
    }
    return Report(
        "proofs.tied_memory",
        "Tied-key memories: symmetric vs gated",
        SOURCE,
        tuple(results),
        (table(rows, d),),
        data,
    )


def _fmt(x: float | None) -> str:
    return "undefined" if x is None else f"{x:,.6g}"


def table(rows: list[dict], d: int) -> Table:
    by = {(r["activation"], r["form"]): r for r in rows}
    out = []
    for act in ACTIVATIONS:
        sym, gated = by[act, "sym"], by[act, "gated"]
        kinds = sorted(
            {sym["kind_exact"], gated["kind_exact"], sym["kind_gaussian"], gated["kind_gaussian"]}
        )
        ratio = None if None in (sym["exact"], gated["exact"]) else gated["exact"] / sym["exact"]
        out.append(
            (
                act,
                _fmt(sym["gaussian"]),
                _fmt(sym["exact"]),
                _fmt(gated["gaussian"]),
                _fmt(gated["exact"]),
                "" if ratio is None else f"{ratio:.3f}",
                f"{gated['anti_aligned_share']:.3f}",
                ", ".join(kinds),
            )
        )
    return Table(
        "tied",
        f"Tied-key capacity M* at d = {d}: σ(s²) (sym) vs σ(s)·s (gated)",
        (
            "activation",
            "sym Gaussian",
            "sym exact",
            "gated Gaussian",
            "gated exact",
            "gated/sym (exact)",
            "gated anti-aligned share",
            "kind",
        ),
        tuple(out),
        (
            "anti-aligned share: E[f²; s < 0]/E[f²] under the exact law; 0.5 for every "
            "symmetric store (tied.symmetric-even)",
            "numeric: Gauss–Legendre quadrature of f itself, not certified (the Gaussian "
            "column of hardtanh, ReLU6, hard-swish: their polynomial holds on |s| ≤ 1 only, "
            "and the Gaussian law also weighs |s| > 1)",
        ),
    )


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--d", type=int, default=DEFAULT_D, help="key dimension (default 64)")


def main(argv: Sequence[str] | None = None) -> int:
    return run(
        build_report,
        __doc__,
        "python -m proofs.tied_memory",
        _add_arguments,
        lambda a: {"d": a.d},
        argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
