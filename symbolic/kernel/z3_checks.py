"""The Z3 checker: with ``z3_translate`` and ``z3_read``, the only kernel code that runs ``z3``.

``check_valid_formula(F)`` asks Z3 whether the negation of the SymPy formula ``F`` is
satisfiable: ``unsat`` means *proved*, ``sat`` *refuted* (the model's constants are the witness),
``unknown`` or a timeout *unknown*. ``check_valid(build)`` takes a Z3 formula ``build(z3)``,
translates it into SymPy (``z3_read.to_sympy``, keeping sorts: an ``Int`` constant is an integer
symbol, ``ToInt`` is ``floor``) and decides that SymPy formula the same way: there is one
translation (``z3_translate``), and the fact carries the formula it decided and the SMT-LIB 2
benchmark of the negated goal (``Fact.smt2``), which any SMT solver can re-run. The formula is
translated back from exactly the term Z3 decided (the hypotheses aside) and must give the
formula again (``z3_read.same``), or the step is refused.
"""

from __future__ import annotations

import contextlib
import numbers
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import mpmath
import sympy
import z3
from mpmath.libmp import to_rational

from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.inputs import admitted_input
from symbolic.kernel.logic import domain_text
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _verdict
from symbolic.kernel.z3_read import exact_floors, model_value, same, to_sympy
from symbolic.kernel.z3_translate import Translator, Untranslatable
from symbolic.limits import current_limits

# Every lemma in the toolkit is decided in milliseconds; the margin is for slow machines.
Z3_TIMEOUT_MS = 5000


def z3_version() -> str:
    return f"z3 {z3.get_version_string()}"


def uninterpreted(name: str = "sigma") -> Any:
    """An uninterpreted function ℝ → ℝ (nothing assumed about it)."""
    return z3.Function(name, z3.RealSort(), z3.RealSort())


def check_valid(build: Callable[[Any], Any], timeout_ms: int = Z3_TIMEOUT_MS) -> Fact:
    """The fact ``build(z3)`` (valid for all values of its free constants and functions),
    decided as its SymPy translation (one translation, both ways; see the module docstring)."""
    try:
        with exact_floats():
            formula = build(z3)
        if not z3.is_bool(formula):
            raise Untranslatable("build(z3) must return a Z3 Boolean formula")
        patterns: dict = {}
        shown = to_sympy(formula, patterns=patterns)
    except z3.Z3Exception as exc:
        raise Untranslatable(f"Z3 refused the formula: {exc}") from None
    return check_valid_formula(shown, timeout_ms, _patterns=patterns)


@contextlib.contextmanager
def exact_floats() -> Iterator[None]:
    """While ``build(z3)`` runs, a Python float becomes Z3's numeral of its exact binary value,
    as everywhere else in the kernel: Z3's own ``RealVal(0.1)`` reads the text ``'0.1'`` (1/10,
    which the float 0.1 is not) and ``IntVal(2.5)`` truncates to 2. ``RealVal``/``IntVal`` are
    looked up by name inside ``z3.z3`` (``x * 0.1``, an ``Int`` function applied to a float),
    so both names are replaced there and on ``z3`` for the call, and restored after. A
    non-integral float where an integer is needed is refused; a float built before the call
    (outside ``build``) cannot be told from a decimal numeral, so build every number inside."""
    real_val, int_val = _Z3_NUMERALS

    def exact_real(val: Any, ctx: Any = None) -> Any:
        return real_val(_exact_numeral(val, integer=False), ctx)

    def exact_int(val: Any, ctx: Any = None) -> Any:
        return int_val(_exact_numeral(val, integer=True), ctx)

    with _NUMERALS_PATCHED:  # one build at a time: two threads' patches never interleave
        for m in (z3.z3, z3):
            m.RealVal, m.IntVal = exact_real, exact_int
        try:
            yield
        finally:
            for m in (z3.z3, z3):
                m.RealVal, m.IntVal = real_val, int_val


_Z3_NUMERALS = (z3.z3.RealVal, z3.z3.IntVal)  # Z3's own, captured once
_NUMERALS_PATCHED = threading.RLock()


def _exact_numeral(val: Any, integer: bool) -> Any:
    """What ``RealVal``/``IntVal`` are given, as the exact value it holds: Z3 reads any other
    object as its text, and ``str`` of a SymPy ``Float``, an ``mpmath.mpf`` or a NumPy
    ``float32`` is a rounded decimal (``RealVal(np.float32(0.1))`` was 1/10, where the number
    is 13421773/134217728). Text is read as written (decimal numerals are exact); an object
    that is no real number, or has a fraction where Z3 needs an integer, is refused."""
    if isinstance(val, (str, bool, int)):
        return val
    ratio = _ratio(val)
    if ratio is None:
        raise Untranslatable(
            f"{val!r:.60} ({type(val).__name__}) is not a number Z3 can take exactly "
            "(Python and NumPy numbers, fractions, SymPy rationals and floats are)"
        )
    p, q = ratio
    if integer:
        if q != 1:
            raise Untranslatable(f"{val!r:.60} where Z3 needs an integer (Z3 would truncate it)")
        return p
    return f"{p}/{q}"


def _ratio(val: Any) -> tuple[int, int] | None:
    """``val`` as an exact fraction ``(p, q)``, or None when it is no finite real number."""
    if isinstance(val, numbers.Integral):
        return int(val), 1
    if isinstance(val, sympy.Basic):
        if isinstance(val, sympy.Float) and val.is_finite:
            val = sympy.Rational(val)
        return (int(val.p), int(val.q)) if isinstance(val, sympy.Rational) else None
    if isinstance(val, mpmath.mpf):
        return to_rational(val._mpf_) if mpmath.isfinite(val) else None
    try:
        p, q = val.as_integer_ratio()  # float, NumPy floats, Fraction, Decimal: exact
    except (AttributeError, TypeError, ValueError, OverflowError):
        return None
    return (int(p), int(q)) if isinstance(p, numbers.Integral) else None


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
    timeout_ms = current_limits().z3_ms(timeout_ms)
    beyond = _beyond_time_limits(formula)
    if beyond is not None:
        verdict = _verdict(UNKNOWN, "z3", beyond, backend=z3_version(), timeout_s=timeout_ms / 1000)
        return _fact(formula, verdict)
    tr = Translator(_patterns or {}, quick_ms=timeout_ms)
    try:
        core = tr.formula(formula)
    except z3.Z3Exception as exc:
        raise Untranslatable(f"Z3 refused the translation: {exc}") from None
    back = to_sympy(core, (), tr)  # exactly the term Z3 decides
    if not same(back, formula):
        raise Untranslatable(
            f"the Z3 translation of {sympy.sstr(formula)[:60]} does not translate "
            f"back to it (got {sympy.sstr(back)[:60]})"
        )
    hypotheses = tr.free_hypotheses + [ok for ok, _, _ in tr.top_denominators]
    nowhere = [(tr.free_hypotheses, hypotheses)] if tr.top_denominators else []
    defined = _defined_somewhere(formula, [*nowhere, *tr.nowhere], timeout_ms)
    goal = z3.Implies(z3.And(*hypotheses), core) if hypotheses else core
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("timeout", int(timeout_ms))
    solver.add(z3.Not(goal))
    smt2 = solver.to_smt2()
    answer = solver.check() if defined else None
    seconds = time.perf_counter() - start
    common = dict(backend=z3_version(), timeout_s=timeout_ms / 1000, seconds=seconds)
    if answer == z3.unsat:
        verdict = _verdict(PROVED, "z3", "negation unsat", **common)
    elif answer == z3.sat:
        verdict = _refutation(solver.model(), tr, goal, common)
    elif answer is None:
        verdict = _verdict(UNKNOWN, "z3", f"{_UNDECIDED_DOMAIN} in time", **common)
    else:
        verdict = _verdict(
            UNKNOWN, "z3", f"solver said unknown ({solver.reason_unknown()})", **common
        )
    return _fact(formula, verdict, smt2=smt2, domain=_shown_domain(formula, tr))


# Z3's nonlinear arithmetic does not look at its clock (nor at ``interrupt``) while it isolates
# the roots of high-degree polynomials in several variables: x⁶⁴ = 3x + 1 ∧ y⁶⁰ − xy = 2 never
# returned, degrees 28 and 26 took 29 s under a 1 s limit, 20 and 18 about 3 s. Past this
# product of the two highest degrees of different variables the claim is not handed to Z3.
MAX_DEGREE_PRODUCT = 400


def _beyond_time_limits(formula: sympy.Basic) -> str | None:
    degree: dict = {}
    for node in sympy.preorder_traversal(formula):
        if isinstance(node, sympy.Pow) and node.exp.is_Integer and abs(node.exp) >= 2:
            for s in node.base.free_symbols:
                degree[s] = max(degree.get(s, 0), abs(int(node.exp)))
    top = sorted(degree.values(), reverse=True)[:2]
    if len(top) == 2 and top[0] * top[1] >= MAX_DEGREE_PRODUCT:
        return (
            f"polynomials of degrees {top[0]} and {top[1]} in two variables: Z3 does not keep "
            "its time limit there (not attempted)"
        )
    return None


def _refutation(model: Any, tr: Translator, goal: Any, common: dict) -> Any:
    """Z3's ``sat`` as a refutation, its counter-model checked and written exactly: the negated
    goal, evaluated in the model (every constant given a value), must be true — a formula with
    quantifiers Z3's evaluator may leave undecided, and then Z3's answer stands — and the
    witness gives every free symbol its exact value (a fraction, an algebraic number as its
    ``CRootOf``), not Z3's truncated decimal (``1.4142135623?``). Otherwise unknown."""
    try:
        checked = exact_floors(model.eval(z3.Not(goal), model_completion=True))
    except Untranslatable:
        checked = None
    if not z3.is_true(checked) and (z3.is_false(checked) or not tr.quantifiers):
        return _verdict(
            UNKNOWN,
            "z3",
            "Z3 said sat, but its counter-model does not refute the formula",
            **common,
        )
    try:
        witness = tuple(
            (tr.shown_name(const.decl().name()), model_value(exact_floors(model.eval(const, True))))
            for _, const, _ in tr.consts.values()
        )
    except Untranslatable as exc:
        return _verdict(UNKNOWN, "z3", f"the counter-model is not exact: {exc}", **common)
    return _verdict(REFUTED, "z3", "negation sat: counter-model found", witness=witness, **common)


_UNDECIDED_DOMAIN = "whether a denominator is nonzero anywhere in the domain was not decided"


def _defined_somewhere(formula: sympy.Basic, cases: list, timeout_ms: int) -> bool:
    """Is each (domain, denominators ≠ 0) of ``cases`` — the top, then each quantifier's —
    satisfiable, so that the formula is defined somewhere? True when decided so, False when Z3
    did not decide it within ``timeout_ms`` for all of them together (the claim is then
    unknown: a formula whose denominators vanish everywhere would be proved vacuously, as
    1/d² > 0 was for d = ⌊n(n+1)/2⌋ − n(n+1)/2, which is 0 for every integer n); refused
    when they vanish everywhere in a domain that is not empty."""
    end = time.monotonic() + timeout_ms / 1000
    for domain, denominators in cases:
        somewhere = _satisfiable(z3.And(*domain, *denominators), end)
        if somewhere is None:
            return False
        if not somewhere and _satisfiable(z3.And(*domain), end) is not False:
            raise Untranslatable(
                f"{sympy.sstr(formula)[:60]} is defined nowhere: a denominator is 0 for "
                "every value of its variables in their domain"
            )
    return True


def _satisfiable(hypotheses: Any, end: float) -> bool | None:
    """Z3's sat (True) or unsat (False) by the time ``end``; None when undecided."""
    ms = int((end - time.monotonic()) * 1000)
    if ms <= 0:
        return None
    solver = z3.Solver()
    solver.set("timeout", ms)
    solver.add(hypotheses)
    answer = solver.check()
    return None if answer == z3.unknown else answer == z3.sat


def _shown_domain(formula: sympy.Basic, tr: Translator) -> tuple[str, ...]:
    out = []
    for s in sorted(tr.free_symbols, key=str):
        shown = domain_text(s) if s.is_real else None
        if shown is not None:
            out.append(shown)
    out += [
        f"{sympy.sstr(d)} ≠ 0" + ("" if when is None else f" where {sympy.sstr(when)}")
        for _, d, when in tr.top_denominators
        if d.is_zero is not False
    ]
    return tuple(out)
