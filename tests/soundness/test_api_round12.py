"""API red-team round 12: what a *claim* says against what its derivation's facts say.

A claim is shown as its statement alone (``Proposition mine.x — ✓ proved``, the JSON's
``claim.statement``, ``python -m proofs --path``'s dashboard and exit code); its steps are shown
with their domains and definitions beside them. Classes fixed here (each test below failed
before its fix, in ``kernel/conclusions.py`` and ``Result._judgement``):

* a condition of the conclusion's domain that the statement does not say: ``trans`` or ``mp``
  through ``(x − 1)/(x − 1)`` carry ``x − 1 ≠ 0`` into a conclusion without that denominator, so
  ``[x = 1] = 0`` (the Iverson bracket, ``Piecewise((1, Eq(x, 1)), (0, True))``) was a *proved*
  claim, though it is 1 at x = 1 (truth by hand: evaluate at x = 1);
* a refutation that rests on an assumption: ``assume("…", ¬S)`` as the last step refuted S,
  ``x² + 1 > 0`` among them (exit 1, also under ``--strict``), and ``negate`` of a fact proved
  from an assumption was a *refuted* fact (from ``1 = 0``: ``¬∀x: x² < 0``, which is true, was
  refuted); an assumed premise certifies no falsity (``kernel.negate``, ``Result``);
* definitions not shown: ``unfold`` of ``c := 0`` yielded alone proved the claim ``c = 0`` with
  no definition shown or counted (the statement reads c as any real); a claim concluded by a
  definition step was proved by it; a derivation defining ``c := 0`` and ``c := 1`` proved
  ``c = 1``.

* a chain's condition on a divisor of the statement that sits in a ``Piecewise`` branch not
  taken where it vanishes: ``(x/x if x > 0 else [x = 0] + 1) = 1`` (2 at x = 0) was a proved
  claim while ``valid`` refuted the same formula;
* formulas shown as other formulas (``kernel/fact.py``, ``kernel/shown_names.py``): a function
  named ``assumed`` (every printer shows ``assumed(x)`` as ``x``: ``assumed(x) = x`` was
  refuted, shown as ``x = x``), a symbol named as a term of its own formula (``f(x)`` beside f
  applied to x: ``f(x) = f(x)`` refuted) or wholly in brackets (``(x) = x`` refuted);
* a binomial at negative integers, a convention (``kernel/fact.py``): SymPy's C(−1, −1) = 0
  against ``combsimp``'s Γ reading (limit 1): ``C(n + 5, n + 5) = 1`` proved for every integer
  n and ``C(n, n) = 1`` refuted at n = −3, and ``C(n + 9, n + 7) = (n + 8)(n + 9)/2`` proved,
  false at n = −10 by SymPy's own values.

A claim that states its condition, shows its definitions, or concludes through denominators
that are factors of its own stays proved (the positive controls). Truths: by evaluation at the
point named (SymPy's exact arithmetic), by hand, and the corpus of 224 claims in
/tmp/rt12-api/corpus.py (22 wrong before this round's fixes, none after).
"""

from __future__ import annotations

import subprocess
import sys

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import Step, assume, claim, equal, positive, uninterpreted, valid
from symbolic.calc import Calc
from symbolic.kernel import Exists, ForAll, define, mp, negate, trans, unfold

x = sympy.Symbol("x", real=True)
c = sympy.Symbol("c", real=True)


def U(head, *args):
    return head(*args, evaluate=False)


def one_over_one(point: sympy.Expr) -> sympy.Expr:
    """``(x − a)/(x − a)``, unevaluated: 1 where x ≠ a, no value at a."""
    d = U(sympy.Add, x, -point)
    return U(sympy.Mul, d, U(sympy.Pow, d, -1))


def bracket(point: sympy.Expr) -> sympy.Expr:
    """``[x = a]``: 1 at a, else 0."""
    return sympy.Piecewise((1, sympy.Eq(x, point)), (0, True))


def result_of(statement, *steps):
    @claim("round12.claim", statement=statement)
    def made():
        yield from steps

    return made()


def chain_through(point: sympy.Expr):
    """``[x = a] = (x − a)/(x − a) − 1`` (Z3, where x − a ≠ 0), ``… − 1 = 0`` (SymPy): trans."""
    middle = U(sympy.Add, one_over_one(point), -1)
    first = valid(U(sympy.Eq, bracket(point), middle)).fact
    second = equal(middle, 0).fact
    assert first.proved and second.proved
    return trans(first, second)


def test_a_chain_through_a_denominator_does_not_prove_a_claim_without_it():
    fact = chain_through(sympy.Integer(1))
    assert fact.proved and "x - 1 ≠ 0" in fact.domain  # the step is right, and says so
    result = result_of(U(sympy.Eq, bracket(sympy.Integer(1)), 0), Step(fact, "trans"))
    assert bracket(1).subs(x, 1) == 1  # the statement is false at x = 1
    assert result.status == "unknown" and "x - 1 ≠ 0" in result.reason
    assert result.to_json()["status"] == "unknown"


def test_a_calc_chain_through_a_hole_is_no_proof_of_its_ends():
    """``symbolic.calc.Calc``, the documented way to write a chain: ``[x = 2] = (x − 2)/(x − 2)
    − 1 = 0`` ended in a proved claim ``[x = 2] = 0``."""
    by_z3 = lambda lhs, rhs: valid(U(sympy.Eq, lhs, rhs)).fact  # noqa: E731
    middle = U(sympy.Add, one_over_one(sympy.Integer(2)), -1)
    chain = Calc(bracket(sympy.Integer(2))).eq(middle, "Z3", check=by_z3).eq(0, "cancel")
    steps = chain.steps()
    assert steps[-1].fact.proved
    assert result_of(U(sympy.Eq, bracket(sympy.Integer(2)), 0), *steps).status == "unknown"


def test_a_chain_does_not_claim_a_branch_s_divisor_everywhere():
    """``S: (x/x if x > 0 else [x = 0] + 1) = 1`` is false at x = 0 (the second branch gives 2;
    ``valid(S)`` refutes it there), but a chain whose link ``mp`` came from ``x·x⁻¹ = 1``
    holds where x ≠ 0 — and x is a divisor of S, inside the branch not taken at 0. The claim S
    was proved while ``valid`` refuted the same formula."""
    xx = U(sympy.Mul, x, U(sympy.Pow, x, -1))
    lhs = sympy.Piecewise((xx, x > 0), (bracket(sympy.Integer(0)) + 1, True))
    middle = sympy.Piecewise((1, x > 0), (bracket(sympy.Integer(0)) + 1, True))
    statement = U(sympy.Eq, lhs, 1)
    assert lhs.subs(x, 0) == 2 and valid(statement).fact.status == "refuted"
    first = valid(U(sympy.Eq, lhs, middle)).fact
    implication = valid(sympy.Implies(U(sympy.Eq, xx, 1), U(sympy.Eq, middle, 1))).fact
    second = mp(implication, equal(xx, 1).fact)
    fact = trans(first, second)
    assert fact.proved
    assert result_of(statement, Step(fact, "trans")).status == "unknown"


def test_modus_ponens_does_not_drop_the_antecedent_s_denominator():
    holds = U(sympy.Eq, one_over_one(sympy.Integer(1)), 1)
    statement = U(sympy.Eq, bracket(sympy.Integer(1)), 0)
    implication = valid(sympy.Implies(holds, statement, evaluate=False)).fact
    antecedent = equal(holds.lhs, 1).fact
    concluded = mp(implication, antecedent)
    assert concluded.proved
    assert result_of(statement, Step(concluded, "mp")).status == "unknown"


def test_a_stated_condition_or_a_factor_of_its_own_denominator_stays_proved():
    guard = U(sympy.Ne, U(sympy.Add, x, -1), 0)
    statement = sympy.Implies(guard, U(sympy.Eq, bracket(sympy.Integer(1)), 0), evaluate=False)
    assert result_of(statement, valid(statement)).status == "proved"
    # 1/x + 1/(x + 1) = (2x + 1)/(x(x + 1)) = (2x + 1)·x⁻¹·(x + 1)⁻¹: the middle divides by
    # x(x + 1), whose factors are the statement's own denominators x and x + 1
    p = U(sympy.Add, x, 1)
    left = U(sympy.Add, U(sympy.Pow, x, -1), U(sympy.Pow, p, -1))
    middle = U(sympy.Mul, U(sympy.Add, U(sympy.Mul, 2, x), 1), U(sympy.Pow, U(sympy.Mul, x, p), -1))
    right = U(
        sympy.Mul, U(sympy.Add, U(sympy.Mul, 2, x), 1), U(sympy.Pow, x, -1), U(sympy.Pow, p, -1)
    )
    fact = trans(equal(left, middle).fact, equal(middle, right).fact)
    assert fact.proved
    assert result_of(U(sympy.Eq, left, right), Step(fact, "trans")).status == "proved"


def test_an_assumed_negation_refutes_nothing():
    statement = U(sympy.Gt, x**2 + 1, 0)  # true for every real x
    result = result_of(statement, assume("it fails", U(sympy.Not, statement)))
    assert result.status == "unknown" and result.strict_status() == "unknown"
    assert "assumption" in result.reason


def test_negating_a_proof_from_an_assumption_refutes_nothing():
    """From the assumption 1 = 0, ``∀x: x² < 0`` follows (mp); its negation ``¬∀x: x² < 0`` is
    true, but ``negate`` made it a *refuted* fact, and the claim stating it was refuted (exit 1,
    also under ``--strict``)."""
    absurd = U(sympy.Eq, 1, 0)
    false = ForAll(x, U(sympy.Lt, x**2, 0))
    implication = valid(sympy.Implies(absurd, false, evaluate=False)).fact
    from_absurd = mp(implication, assume("absurd", absurd).fact)
    assert from_absurd.proved and from_absurd.rests_on
    negation = negate(from_absurd)
    assert negation.status == "unknown"
    result = result_of(negation.formula, Step(negation, "negate"))
    assert result.status == "unknown" and result.strict_status() == "unknown"


def test_a_proved_negation_still_refutes():
    square = sympy.Symbol("s", real=True)
    statement = Exists(square, U(sympy.Lt, square**2, 0))  # false
    result = result_of(statement, valid(U(sympy.Not, statement)))
    assert result.status == "refuted"


def test_a_definition_reached_through_a_rule_must_be_shown():
    definition = define(c, 0)
    statement = U(sympy.Eq, c, 0)
    hidden = result_of(statement, Step(unfold(definition, c), "unfold"))
    assert hidden.status == "unknown" and "c := 0" in hidden.reason
    shown = result_of(statement, Step(definition, "define"), Step(unfold(definition, c), "unfold"))
    assert shown.status == "proved" and len(shown.definitions) == 1


def test_a_definition_concludes_nothing():
    result = result_of(U(sympy.Eq, c, 0), positive(1 + x**2), Step(define(c, 0), "define"))
    assert result.status == "unknown" and "definition" in result.reason


def test_one_name_defined_twice_proves_nothing():
    zero, one = define(c, 0), define(c, 1)
    result = result_of(
        U(sympy.Eq, c, 1), Step(zero, "define"), Step(one, "define"), Step(unfold(one, c), "u")
    )
    assert result.status == "unknown" and "twice" in result.reason


@settings(max_examples=12, deadline=None)
@given(st.integers(-5, 5))
def test_no_chain_through_a_hole_proves_the_bracket_zero(a):
    """``[x = a] = 0`` is false at x = a for every a: a chain through ``(x − a)/(x − a)`` never
    makes it a proved claim (truth: the bracket is 1 at a, by evaluation)."""
    point = sympy.Integer(a)
    assert bracket(point).subs(x, point) == 1
    statement = U(sympy.Eq, bracket(point), 0)
    result = result_of(statement, Step(chain_through(point), "trans"))
    assert result.status != "proved"


def test_the_command_line_does_not_fail_a_true_claim_on_an_assumed_negation(tmp_path):
    """``python -m proofs --path DIR``: the claim ``x² + 1 > 0`` concluded by an assumed
    negation was refuted, exit 1 (a CI job failed on a true lemma); it is undecided, exit 3."""
    (tmp_path / "mine.py").write_text(
        "import sympy\n"
        "from symbolic import assume, claim\n"
        "x = sympy.Symbol('x', real=True)\n"
        "S = sympy.Gt(x**2 + 1, 0, evaluate=False)\n"
        "@claim('mine.assumed_negation', statement=S)\n"
        "def assumed_negation():\n"
        "    yield assume('it fails', sympy.Not(S, evaluate=False))\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "--path", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "1 unknown" in done.stdout


def test_a_function_named_assumed_is_not_shown_as_its_argument():
    """Every printer shows ``assumed(…)`` as its argument alone (the kernel's assumption stated in
    words), so ``uninterpreted("assumed")`` made ``assumed(x) = x`` show as ``x = x`` — refuted
    by Z3 (it picks assumed(2) ≠ 2), a true-looking formula refuted."""
    for forged in (uninterpreted("assumed"), sympy.Function("assumed")):
        fact = valid(sympy.Eq(forged(x), x)).fact
        assert fact.status == "unknown" and "prints as its argument" in fact.reason
    words = assume("the weights are tied").fact  # the kernel's own words: shown as words
    assert words.kind == "assumption" and words.status == "proved"


def test_a_symbol_named_as_a_term_of_its_formula_is_not_decided():
    """A symbol named ``f(x)`` beside the uninterpreted f applied to x: ``f(x) = f(x)`` was shown
    refuted (Z3 gives the symbol 1 and f(0) another value); a symbol named ``(x)`` or ``[x]``
    showed ``(x) = x`` refuted. The names the toolkit uses (``f(1)^2``, ``E[f(s)^2]``) stay
    names where no such term is beside them."""
    f = uninterpreted("f")
    for name, term in (("f(x)", f(x)), ("f(1)", f(1)), ("f(1)^2", f(1) ** 2), ("(x)", x)):
        fact = valid(sympy.Eq(sympy.Symbol(name, real=True), term)).fact
        assert fact.status == "unknown", name
    for name in ("f(1)^2", "E[f(s)^2]"):
        named = sympy.Symbol(name, positive=True)
        assert positive(named + 1).fact.status == "proved"


def test_a_binomial_at_negative_integers_is_a_convention():
    """SymPy (with Knuth) takes C(−1, −1) = 0; ``combsimp`` reads C(a, b) as
    Γ(a + 1)/(Γ(b + 1)·Γ(a − b + 1)), whose limit there is 1. So ``C(n + 5, n + 5) = 1`` was
    proved for every integer n while ``C(n, n) = 1`` was refuted at n = −3 — the first implies
    the second; and ``C(n + 9, n + 7) = (n + 8)(n + 9)/2`` was proved, though SymPy's own
    C(−1, −3) is 0 and the right side 1 at n = −10. Where both arguments may be negative
    integers with b ≤ a, no verdict; elsewhere the two readings agree and stay decided."""
    n = sympy.Symbol("n", integer=True)
    N = sympy.Symbol("N", integer=True, nonnegative=True)
    k = sympy.Symbol("k", integer=True)
    assert sympy.binomial(-1, -1) == 0 and sympy.binomial(-1, -3) == 0  # SymPy's values
    for lhs, rhs in (
        (sympy.binomial(n + 5, n + 5), 1),
        (sympy.binomial(n, n), 1),
        (sympy.binomial(n + 9, n + 7), (n + 8) * (n + 9) / 2),
        (sympy.binomial(x + 7, x + 6), x + 7),
    ):
        assert equal(lhs, rhs).fact.status == "unknown", lhs
    assert equal(sympy.binomial(x, 2), x * (x - 1) / 2).fact.status == "proved"
    assert equal(sympy.binomial(N, k), sympy.binomial(N, N - k)).fact.status == "proved"


def _named(name, statement, steps, uses=()):
    @claim(name, statement=statement, uses=uses)
    def made():
        yield from steps

    return made()


def test_a_definition_hidden_behind_uses_must_be_shown_by_a_used_claim():
    """Naming a claim in ``uses`` lets a step unfold a definition that claim shows, not any
    definition: ``c = 0`` from a hidden ``c := 0`` stays unknown when the used claim shows no
    such step (the exemption once held for any ``uses``)."""
    from symbolic.engine import resolve_uses

    definition = define(c, 0)
    statement = U(sympy.Eq, c, 0)
    unfolded = Step(unfold(definition, c), "unfold")
    square = U(sympy.Eq, (x + 1) ** 2, x**2 + 2 * x + 1)
    other = _named("round12.other", square, [Step(valid(square).fact, "expand")])
    shows = _named("round12.shows", statement, [Step(definition, "define"), unfolded])
    behind_other = _named("round12.behind_other", statement, [unfolded], ("round12.other",))
    behind_shows = _named("round12.behind_shows", statement, [unfolded], ("round12.shows",))
    missing = _named("round12.missing", statement, [unfolded], ("round12.not_run",))
    resolved = {
        r.claim.name: r for r in resolve_uses([other, shows, behind_other, behind_shows, missing])
    }
    assert resolved["round12.shows"].status == "proved"
    assert resolved["round12.behind_shows"].status == "proved"
    assert resolved["round12.behind_other"].status == "unknown"
    assert "c := 0" in resolved["round12.behind_other"].reason
    assert resolved["round12.missing"].status == "unknown"


def _scaled_outer(a: sympy.Symbol) -> sympy.Expr:
    """(a·q)(k/a)ᵀ, unevaluated (SymPy would cancel a at once)."""
    n = sympy.Symbol("n", integer=True, positive=True)
    q, k = sympy.MatrixSymbol("q", n, 1), sympy.MatrixSymbol("k", n, 1)
    left = sympy.MatMul(a, q, evaluate=False)
    right = sympy.Transpose(sympy.MatMul(sympy.Pow(a, -1), k, evaluate=False))
    return sympy.MatMul(left, right, evaluate=False), q * k.T


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([{"real": True}, {"positive": True}, {"nonzero": True, "real": True}]))
def test_a_matrix_identity_shows_where_it_is_claimed(assumptions):
    """(a·q)(k/a)ᵀ = qkᵀ has no value at a = 0: a matrix checker's fact shows ``a ≠ 0`` (or a's
    set) beside it, as a scalar identity does (it was shown with no condition)."""
    from symbolic.kernel import check_matrix_expr_equal

    a = sympy.Symbol("a", **assumptions)
    fact = check_matrix_expr_equal(*_scaled_outer(a))
    assert fact.proved
    if a.is_nonzero:
        assert any(d.startswith("a ∈") for d in fact.domain)
    else:
        assert "a ≠ 0" in fact.domain
