"""Exchange symmetry of the gated MLP (docs/theory.md A5–A7; Breslow 2026).

The symmetric rank-1 form ``σ(xQᵀ ⊙ xKᵀ)V`` is invariant under ``Q ↔ K`` for every σ. The gated
form ``(σ(xQᵀ) ⊙ xKᵀ)V`` is invariant for all inputs and weights iff ``σ(a)b = σ(b)a`` for all
real a, b, iff σ is linear (the lemma ``∀a,b σ(a)b = σ(b)a ⇔ ∃c ∀z σ(z) = cz``). Every
activation gets a verdict on linearity and positive homogeneity (hence on the inverse-scaling
symmetry), each break with a certified witness.

Each claim's statement is a formula, and its derivation ends in a kernel fact of exactly it:

* ``exchange.lemma``: the four substitution identities of the argument (SymPy):
  H(a, 1) = σ(a)·1 − σ(1)·a = σ(a) − σ(1)a, (c·a)b − (c·b)a = 0,
  H(0, b) = σ(0)b − σ(b)·0 = σ(0)b, H(a, b)/(ab) = σ(a)/a − σ(b)/b;
* ``exchange.lemma_z3``: ``(∀a,b σ(a)b = σ(b)a) ⇔ ∀z σ(z) = σ(1)z``, ``(∀z σ(z) = cz) ⇒
  ∀a,b σ(a)b = σ(b)a`` and ``(∀a,b σ(a)b = σ(b)a) ⇒ σ(0) = 0``, over an uninterpreted σ (Z3,
  the ⇔ by the kernel's rule from its two directions);
* ``exchange.symmetric_invariant``: ``Σ_j σ((x·q_j)(x·k_j))V_jo = Σ_j σ((x·k_j)(x·q_j))V_jo``;
* ``exchange.gated_iff``: ``Gated(x; Q, K, V)_o − Gated(x; K, Q, V)_o = Σ_j H(x·q_j, x·k_j)V_jo``
  (general n, d) and, at d = n = 1, ``Gated(1; a, b, 1) − Gated(1; b, a, 1) = H(a, b)``;
* ``activation.<name>``: each property of σ (linear, homogeneous of some degree, inverse
  scaling), or its negation where it is refuted (``symbolic.gated.analysis``).

Run ``python -m proofs.exchange`` (``-v`` for every check, ``--json``, ``--latex``), or
``python -m proofs.exchange --activation "x*sigmoid(x)"`` for any activation.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from numeric_checks.activations import cross_check
from numeric_checks.exchange import exchange_identity_checks
from proofs._cli import run_with_activations
from symbolic.activations import Activation
from symbolic.calc import conjoined, held_and
from symbolic.engine import Claim, Derivation, Report, Result, Step, Table
from symbolic.gated.analysis import (
    ActivationAnalysis,
    analyze_item,
    as_result,
    parsed_item,
    shown_text,
    table_items,
)
from symbolic.kernel import ForAll, check_valid_formula, cong, conj, iff
from symbolic.steps import equal_step

ORDER = 10
PROG = "python -m proofs.exchange"

sigma = sympy.Function("sigma")
a, b, c, z = sympy.symbols("a b c z", real=True)
a_nz, b_nz = sympy.symbols("a b", real=True, nonzero=True)


def _mul(*factors: sympy.Expr) -> sympy.Expr:
    """A product kept as written (``σ(1·a)·(1·b)``): the layer's formula before evaluation."""
    return sympy.Mul(*factors, evaluate=False)


def h(u: sympy.Expr, v: sympy.Expr) -> sympy.Expr:
    """The exchange defect ``H(u, v) = σ(u)·v − σ(v)·u``."""
    return sigma(u) * v - sigma(v) * u


def h_at(u: sympy.Expr, v: sympy.Expr) -> sympy.Expr:
    """``H(u, v)`` at given u, v, kept as written: ``σ(a)·1 − σ(1)·a``, not yet simplified."""
    return sympy.Add(_mul(sigma(u), v), _mul(-1, _mul(sigma(v), u)), evaluate=False)


def h_linear(u: sympy.Expr, v: sympy.Expr) -> sympy.Expr:
    """``H(u, v)`` with ``σ(z) = c·z`` put in, kept as written: ``(c·u)·v − (c·v)·u``."""
    return sympy.Add(_mul(c * u, v), _mul(-1, _mul(c * v, u)), evaluate=False)


def _units():
    """The unit sums of the forms at general n, d: ``x·q_j``, ``x·k_j``, ``V_jo`` and Σ_j."""
    n, d = sympy.symbols("n d", integer=True, positive=True)
    j, i, o = sympy.symbols("j i o", integer=True)
    x, Q, K, V = (sympy.IndexedBase(s) for s in ("x", "Q", "K", "V"))
    u = sympy.Sum(x[i] * Q[j, i], (i, 0, d - 1))  # x·q_j
    v = sympy.Sum(x[i] * K[j, i], (i, 0, d - 1))  # x·k_j
    return (lambda body: sympy.Sum(body, (j, 0, n - 1))), u, v, V[j, o]


# --- the statements ------------------------------------------------------------------------------

EXCHANGE = ForAll((a, b), sympy.Eq(sigma(a) * b, sigma(b) * a))  # ∀a,b: σ(a)b = σ(b)a


LINEAR = ForAll((z,), sympy.Eq(sigma(z), sigma(1) * z))  # ∀z: σ(z) = σ(1)·z
LEMMA_PARTS = (
    sympy.Implies(EXCHANGE, LINEAR),  # (⇒), with c = σ(1)
    sympy.Implies(LINEAR, EXCHANGE),  # (⇐) at c = σ(1)
    sympy.Implies(ForAll((z,), sympy.Eq(sigma(z), c * z)), EXCHANGE),  # (⇐) for every c
    sympy.Implies(EXCHANGE, sympy.Eq(0, sigma(0))),  # (Z3 reads σ(0) = 0 back as 0 = σ(0))
)
LEMMA_STATEMENT = held_and(sympy.Equivalent(EXCHANGE, LINEAR, evaluate=False), *LEMMA_PARTS[2:])

SUBSTITUTIONS = tuple(
    sympy.Eq(lhs, rhs, evaluate=False)
    for lhs, rhs in (
        (h_at(a, 1), sigma(a) - sigma(1) * a),  # b = 1
        (h_linear(a, b), 0),  # σ(z) = c·z
        (h_at(0, b), sigma(0) * b),  # a = 0
        (h(a_nz, b_nz) / (a_nz * b_nz), sigma(a_nz) / a_nz - sigma(b_nz) / b_nz),  # a, b ≠ 0
    )
)
SUBSTITUTION_STATEMENT = held_and(*SUBSTITUTIONS)


def _symmetric_sides():
    total, u, v, vo = _units()
    return (total(sigma(_mul(u, v)) * vo), total(sigma(_mul(v, u)) * vo))


SYMMETRIC_STATEMENT = sympy.Eq(*_symmetric_sides(), evaluate=False)


def _gated_defect():
    """``Gated(x; Q, K, V)_o − Gated(x; K, Q, V)_o = Σ_j H(x·q_j, x·k_j)·V_jo`` (general n, d)."""
    total, u, v, vo = _units()
    return sympy.Eq(
        total(sigma(u) * v * vo) - total(sigma(v) * u * vo), total(h(u, v) * vo), evaluate=False
    )


def _unit_gated(q: sympy.Expr, k: sympy.Expr) -> sympy.Expr:
    """``Gated(1; q, k, 1) = σ(1·q)·(1·k)·1``: d = n = 1, x = 1, V = 1, as written."""
    return _mul(sigma(_mul(1, q)), _mul(1, k), 1)


def _gated_specialised():
    return sympy.Eq(_unit_gated(a, b) - _unit_gated(b, a), h(a, b), evaluate=False)


GATED_STATEMENT = held_and(_gated_defect(), _gated_specialised())

LEMMA = Claim(
    "exchange.lemma",
    "exchange lemma: the substitutions that prove it (SymPy)",
    "H(a, b) = σ(a)·b − σ(b)·a. (⇒) b = 1 gives H(a, 1) = σ(a) − σ(1)·a, so H ≡ 0 gives "
    "σ(z) = c·z with c = σ(1); (⇐) σ(z) = c·z makes H(a, b) = c·a·b − c·b·a = 0; a = 0 gives "
    "H(0, b) = σ(0)·b, so σ(0) = 0; dividing by a·b ≠ 0, σ(z)/z is constant on z ≠ 0. The "
    "statement is these four identities; the equivalence ∀a,b: σ(a)b = σ(b)a ⇔ ∃c ∀z: "
    "σ(z) = c·z follows from them in first-order logic, which exchange.lemma_z3 checks whole.",
    "A6",
    kind="lemma",
    assumptions=("σ: ℝ → ℝ arbitrary (uninterpreted)",),
    statement=SUBSTITUTION_STATEMENT,
)
LEMMA_Z3 = Claim(
    "exchange.lemma_z3",
    "exchange lemma, by Z3 over an uninterpreted σ",
    "∀a,b ∈ ℝ: σ(a)·b = σ(b)·a  ⇔  ∃c ∀z: σ(z) = c·z, stated as ⇔ with c = σ(1), and ⇐ "
    "for every c; then σ(0) = 0. (σ(z)/z constant on z ≠ 0 is σ(z) = σ(1)·z "
    "divided by z; exchange.lemma shows the division.)",
    "A6",
    kind="lemma",
    assumptions=LEMMA.assumptions,
    statement=LEMMA_STATEMENT,
)
SYM = Claim(
    "exchange.symmetric_invariant",
    "the symmetric rank-1 form is exchange-invariant",
    "Sym(x; Q, K, V)_o = Σ_j σ((x·q_j)(x·k_j)) V_jo = Σ_j σ((x·k_j)(x·q_j)) V_jo = "
    "Sym(x; K, Q, V)_o for every σ, x, Q, K, V and any d, n",
    "A4, A6",
    statement=SYMMETRIC_STATEMENT,
)
GATED = Claim(
    "exchange.gated_iff",
    "the gated form is exchange-invariant iff σ is linear: the two identities that prove it",
    "The statement is the two identities of the argument: Gated(x; Q, K, V) − Gated(x; K, Q, V) "
    "= Σ_j H(x·q_j, x·k_j) V_jo for general n, d (so σ linear, H ≡ 0 by exchange.lemma, "
    "keeps the symmetry), and at d = n = 1, x = 1, V = 1, Q = a, K = b the difference is "
    "H(a, b) (so the symmetry for all layers forces H ≡ 0, σ linear). Together: invariant for "
    "all d, n, x, Q, K, V ⇔ ∀a,b: σ(a)b = σ(b)a ⇔ σ linear.",
    "A5, A6",
    uses=("exchange.lemma", "exchange.lemma_z3"),
    statement=GATED_STATEMENT,
)


def _concluded(steps: list[Step], rule: str, note: str = "") -> Derivation:
    """The steps, then their conjunction: the claim's statement."""
    return Derivation(conjoined(steps, rule, note))


def lemma_derivation() -> Derivation:
    rules = (
        ("(⇒) substitute b = 1", "H(a, 1) = σ(a) − σ(1)·a: H ≡ 0 gives σ(a) = σ(1)·a, c = σ(1)"),
        ("(⇐) substitute σ(z) = c·z", "σ(z) = c·z gives H(a, b) = c·a·b − c·b·a = 0"),
        ("substitute a = 0", "H(0, b) = σ(0)·b, so H ≡ 0 gives σ(0) = 0 (b = 1)"),
        ("divide by a·b ≠ 0", "σ(a)/a − σ(b)/b = H(a, b)/(a·b): σ(z)/z constant on z ≠ 0"),
    )
    steps = [
        equal_step(f.lhs, f.rhs, rule, note=note)
        for f, (rule, note) in zip(SUBSTITUTIONS, rules, strict=True)
    ]
    return _concluded(steps, "the four substitutions together")


def lemma_z3_derivation() -> Derivation:
    notes = (
        "(∀a,b σ(a)b = σ(b)a) ⇒ σ(z) = σ(1)·z for every z  [∃c: take c = σ(1)]",
        "(∀z σ(z) = σ(1)·z) ⇒ σ(a)·b = σ(b)·a for every a, b",
        "(∀z σ(z) = c·z) ⇒ σ(a)·b = σ(b)·a for every a, b, whatever c",
        "(∀a,b σ(a)b = σ(b)a) ⇒ σ(0) = 0",
    )
    forward, backward, any_c, zero = (
        Step(check_valid_formula(f), "Z3 over an uninterpreted σ: negation unsat", note=n)
        for f, n in zip(LEMMA_PARTS, notes, strict=True)
    )
    both = Step(
        iff(forward.fact, backward.fact),
        "⇔ from ⇒ and ⇐ (steps 1, 2)",
        note="∀a,b: σ(a)b = σ(b)a  ⇔  ∀z: σ(z) = σ(1)·z",
    )
    return Derivation(
        (
            forward,
            backward,
            both,
            any_c,
            zero,
            Step(conj(both.fact, any_c.fact, zero.fact), "steps 3, 4 and 5 together"),
        )
    )


def symmetric_derivation() -> Derivation:
    total, u, v, vo = _units()
    hole = sympy.Symbol("w")
    swap = equal_step(
        _mul(u, v), _mul(v, u), "commutativity of ℝ", note="(x·q_j)(x·k_j) = (x·k_j)(x·q_j)"
    )
    term = Step(
        cong(swap.fact, sympy.Lambda(hole, sigma(hole) * vo)),
        "congruence: put both sides in σ(·)·V_jo",
        note="σ((x·q_j)(x·k_j))·V_jo = σ((x·k_j)(x·q_j))·V_jo for every unit j",
    )
    lhs, rhs = _symmetric_sides()
    whole = equal_step(
        lhs,
        rhs,
        "sum over the units j = 0, …, n − 1",
        note="Sym(x; Q, K, V)_o = Sym(x; K, Q, V)_o  (general n, d, any σ)",
    )
    return Derivation((swap, term, whole))


def gated_derivation() -> Derivation:
    defect, special = _gated_defect(), _gated_specialised()
    return _concluded(
        [
            equal_step(
                defect.lhs,
                defect.rhs,
                "general n, d: linearity of Σ",
                note="Gated(x; Q, K, V)_o − Gated(x; K, Q, V)_o = Σ_j H(x·q_j, x·k_j) V_jo: "
                "zero when H ≡ 0, i.e. (exchange.lemma) when σ is linear",
            ),
            equal_step(
                special.lhs,
                special.rhs,
                "(⇒) specialise d = n = 1, x = 1, V = 1, Q = a, K = b",
                note="Gated(1; a, b, 1) − Gated(1; b, a, 1) = σ(a)·b − σ(b)·a = H(a, b): "
                "invariance for every layer forces H ≡ 0",
            ),
        ],
        "both identities",
    )


def analyse_all(
    items: Sequence[tuple[str, sympy.Expr, Activation | None]], torch: bool = False
) -> list[tuple[ActivationAnalysis, Result]]:
    """Analysis and checked result of each (label, σ, table entry or None)."""
    out = []
    for label, expr, act in items:
        analysis = analyze_item(label, expr)
        out.append(
            (
                analysis,
                as_result(
                    analysis,
                    f"activation.{_slug(label)}",
                    numeric=cross_check(analysis, act, torch),
                ),
            )
        )
    return out


def _slug(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in label)[:40]


def _kept(v: bool | None) -> str:
    return "?" if v is None else "kept" if v else "broken"


def _degree_cell(an: ActivationAnalysis) -> str:
    if an.degree is not None:
        return "every" if an.every_degree else shown_text(an.degree)
    return "none" if an.homogeneity.holds.status == "refuted" else "?"


def activation_table(analyses: Sequence[ActivationAnalysis]) -> Table:
    rows = []
    for an in analyses:
        witness = an.exchange_witness
        rows.append(
            (
                an.label,
                "?" if an.is_linear is None else "yes" if an.is_linear else "no",
                _kept(an.exchange_symmetric),
                _degree_cell(an),
                _kept(an.inverse_scaling_symmetric),
                "—" if witness is None else f"a = {witness[0]}, b = {witness[1]}",
                an.status,
            )
        )
    return Table(
        "activations",
        "What each activation does to the gated form's symmetries",
        ("activation", "linear", "Q↔K", "degree p", "Q→αQ, K→K/α", "exchange witness", "status"),
        tuple(rows),
        notes=(
            "Q↔K kept ⇔ σ linear (A6); Q→αQ, K→K/α (α > 0) kept ⇔ degree 1 (A7).",
            "The symmetric rank-1 form keeps both symmetries for every σ.",
        ),
    )


def theorem_results(torch: bool = False) -> list[Result]:
    return [
        Result(LEMMA, lemma_derivation()),
        Result(LEMMA_Z3, lemma_z3_derivation()),
        Result(SYM, symmetric_derivation(), exchange_identity_checks("symmetric", torch)),
        Result(GATED, gated_derivation(), exchange_identity_checks("gated", torch)),
    ]


def build_report(activations: Sequence[str] | None = None, torch: bool = False) -> Report:
    """The exchange theorems and the activation table; or only the given activations.

    ``torch``: add the cross-checks on torch's real functions (the command line does, when
    torch is installed).
    """
    if activations:
        items = [parsed_item(text) for text in activations]
        theorems: list[Result] = []
    else:
        items, theorems = table_items(), theorem_results(torch)
    analysed = analyse_all(items, torch)
    analyses = [an for an, _ in analysed]
    return Report(
        "proofs.exchange",
        "Exchange symmetry of the gated MLP",
        "A5–A7",
        tuple(theorems + [r for _, r in analysed]),
        (activation_table(analyses),),
        data={"activations": [an.to_json() for an in analyses]},
    )


def main(argv: Sequence[str] | None = None) -> int:
    return run_with_activations(build_report, __doc__, PROG, argv)


if __name__ == "__main__":
    raise SystemExit(main())
