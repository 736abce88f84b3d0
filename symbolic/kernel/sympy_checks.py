"""SymPy checkers: identities, identities on a domain, explicit matrices, signs.

``check_equal(lhs, rhs)`` decides ``lhs = rhs`` for all values of the free symbols (their SymPy
assumptions are the domain): a difference SymPy rewrites to exactly ``0`` is *proved*; one that
reduces to a closed number certified nonzero (exactly or by intervals), or whose value at a
point of the symbols' domains is certified nonzero, is *refuted* (the point is the witness);
anything else is *unknown* — an undecided simplification is never a pass. Every call runs under the
context's SymPy time limit (``symbolic.limits``).

>>> import sympy
>>> a, b = sympy.symbols("a b", real=True)
>>> check_equal((a + b)**2, a**2 + 2*a*b + b**2).status
'proved'
>>> check_equal(a * 2, a + 1).verdict.witness
(('a', '7/5'),)
>>> check_equal(sympy.sin(a)**2 + sympy.cos(a)**2, 1).status
'proved'
>>> check_equal(sympy.Integer(2), sympy.Integer(3)).status
'refuted'
"""

from __future__ import annotations

import functools

import sympy

from symbolic.kernel.branches import assumed_sign, at, resolve_closed_branches
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.float_blind import (
    float_blind_risk,
    has_closed_irrational,
    signs_for_numbers,
    with_signs_for_numbers,
)
from symbolic.kernel.huge_powers import difference, has_huge_power, powers_as_symbols
from symbolic.kernel.inputs import as_input
from symbolic.kernel.interval_checks import _sign_verdict, certified_sign, complex_safe
from symbolic.kernel.intervals import MAX_BITS
from symbolic.kernel.logic import divisor_conditions, domain_text, equation, sympy_value
from symbolic.kernel.points import denominators, in_domain
from symbolic.kernel.probes import (
    _defined_somewhere,
    _limit_doubted,
    _refuted_at_a_point,
    _refuted_at_points,
    _sign_refuted_at_a_point,
    _zero_contradicted,
    _zero_doubted,
)
from symbolic.kernel.trusted_forms import rewrite_trusted, sign_trusted
from symbolic.kernel.vacuity import vacuous_divisor
from symbolic.kernel.valueless import pole_reason
from symbolic.kernel.verdict import (
    PROVED,
    REFUTED,
    UNKNOWN,
    Clock,
    Verdict,
    _revise,
    _verdict,
    combine,
)
from symbolic.limits import BudgetExceeded, deadline
from symbolic.versions import backend

# Long enough for every derivation in the toolkit (each takes milliseconds); short enough that a
# hostile expression gives `unknown` quickly.
SIMPLIFY_TIMEOUT_S = 3.0
CLOSED_BITS = 128  # a closed difference is first enclosed at this precision (quick), then SymPy


def _exp_form(expr: sympy.Expr) -> sympy.Expr:
    """Hyperbolic functions written with exp, then simplified (catches disguised identities)."""
    if not expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth):
        return expr
    return sympy.simplify(sympy.expand(expr.rewrite(sympy.exp)))


EXP_CANCEL_S = 0.25  # the quick try's own CPU budget: with two variables (σ(αt)) it can blow up


def _exp_cancel(expr: sympy.Expr) -> sympy.Expr:
    """Hyperbolic functions written with exp, expanded and cancelled (no ``simplify``): the
    cheap way to see ``tanh(z) = (e^{2z} − 1)/(e^{2z} + 1)``; other expressions, and any that
    take longer than ``EXP_CANCEL_S``, unchanged. (An outer limit that fires inside is re-armed
    as the inner one ends, so it still stops the check.)"""
    if not expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth):
        return expr
    try:
        with deadline(EXP_CANCEL_S):
            return sympy.cancel(sympy.expand(expr.rewrite(sympy.exp)))
    except BudgetExceeded:
        return expr


_COMBINATORIAL = (sympy.gamma, sympy.functions.combinatorial.factorials.CombinatorialFunction)


def _special_cancel(expr: sympy.Expr) -> sympy.Expr:
    """Two of ``simplify``'s own passes tried alone, cheaply: ``hyperexpand`` where a
    hypergeometric function stands, then ``combsimp`` (Γ, factorials, rising factorials) and
    ``cancel``; unchanged when neither applies or within ``EXP_CANCEL_S`` nothing came of it."""
    special = expr.has(sympy.hyper)
    if not (special or expr.has(*_COMBINATORIAL)):
        return expr
    if special:
        _hyperexpand_tables()
    try:
        with deadline(EXP_CANCEL_S):
            if special:
                expr = sympy.hyperexpand(expr)
            return sympy.cancel(sympy.combsimp(expr)) if expr.has(*_COMBINATORIAL) else expr
    except BudgetExceeded:
        return expr


@functools.cache
def _hyperexpand_tables() -> None:
    """SymPy builds ``hyperexpand``'s table of formulas on its first call (~0.2 s of CPU): built
    once, outside the quick try's budget, which would otherwise depend on what ran before."""
    sympy.hyperexpand(sympy.hyper((), (sympy.Rational(3, 2),), sympy.Symbol("z")))


QUICK_TRIES = (_exp_cancel, _special_cancel)  # their forms are not handed on to simplify
# What a rewrite may raise: NotImplementedError (SymPy's limit of x**y at 0, ...),
# ArithmeticError (mpmath's own pole, cot 0, inside an evaluation), ...
REWRITE_ERRORS = (RecursionError, MemoryError, OverflowError, TypeError, ValueError)
REWRITE_ERRORS += (AttributeError, NotImplementedError, ArithmeticError)


def _zero_form(expr: sympy.Expr, probe=None) -> tuple[sympy.Expr, Verdict | None]:
    """Cheap rewrites first, ``simplify`` last; stop at the first that reaches 0. ``probe`` (of
    the original ``expr``) runs before ``simplify``: a refutation it returns ends the search.
    Each rewrite is an identity of expressions (``cancel`` up to removable singularities), so
    whichever reaches 0 first proves the same thing."""
    original = expr
    if expr == 0:
        return expr, None
    for rewrite in (
        resolve_closed_branches,
        sympy.expand,
        sympy.cancel,
        _exp_cancel,
        _special_cancel,
        sympy.simplify,
        _exp_form,
    ):
        if rewrite is sympy.simplify and probe is not None:
            refuted = probe(original)
            if refuted is not None:
                return expr, refuted
        rewritten = rewrite(expr)
        if rewritten.free_symbols - original.free_symbols:  # a bound variable let out: no
            return expr, None  # identity (simplify of Subs(d/dx |x|, x, 1) − 1 held a free x)
        if rewritten == 0:
            return rewritten, None
        if rewrite not in QUICK_TRIES:  # simplify still gets the form before a quick try
            expr = rewritten
    return expr, None


def zero_verdict(
    expr: sympy.Expr,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
    *,
    universal: bool = False,
    defined: tuple = (),
    complex_ok: bool = False,
) -> Verdict:
    """Verdict on ``expr = 0`` identically (kernel-internal; the public face is ``check_*``).

    ``universal``: the claim is ``expr = 0`` for *every* value of its free symbols in their
    assumed domains (as ``check_equal`` states it), so a difference the cheap rewrites leave
    nonzero is tried at a point of those domains before ``simplify`` runs: certified nonzero
    there, it is refuted with the point as witness. Callers whose symbols range over less than
    their domains (a branch's region, a case ``t > 0`` of a larger claim) leave it off."""
    clock = Clock(timeout_s, "sympy", backend("sympy"))
    try:
        expr = as_input(expr)
    except ValueError as exc:  # nan, zoo: an undefined value is no identity
        return _verdict(UNKNOWN, "sympy", f"not a defined value: {exc}", backend=clock.backend)
    pole = pole_reason(expr)  # Γ(0) − Γ(0): SymPy cancels it, but it is defined nowhere
    if pole is not None:
        return _verdict(UNKNOWN, "sympy", pole, backend=clock.backend)
    huge = has_huge_power(expr)
    if not expr.free_symbols and (huge or expr != 0):  # a number: an enclosure excluding 0
        bits = MAX_BITS if huge else CLOSED_BITS  # ``complex_ok``: of arithmetic, roots, log
        nonzero = _sign_verdict(expr, "≠", timeout_s, bits, complex_ok)  # (complex_safe)
        if nonzero.status == PROVED:
            return _nonzero_difference(nonzero, defined)
    if huge:  # SymPy's rewrites would compute the power, in one call no limit interrupts
        value = powers_as_symbols(expr, clock.limit)  # what holds for every h holds here
        if value == 0:  # (h + 1 − h is 1, whatever h is)
            return _proved(clock, "difference is 0 with each huge power a symbol", defined)
        if value is not None and value.is_Rational:
            why = f"with each huge power a symbol, lhs − rhs = {value}"
            return _nonzero_difference(clock.verdict(PROVED, why, certificate=why), defined)
        reason = "a power too large to compute exactly; its enclosure does not decide"
        return clock.verdict(UNKNOWN, reason)
    if float_blind_risk(expr):  # also a closed one: Integral(|c|, …), floor(c), (c²)^(1/2)
        return _float_blind_verdict(expr, clock, timeout_s, universal, defined)
    try:
        with deadline(clock.limit) as dl:
            probe = (lambda e: _refuted_at_a_point(e, defined)) if universal else None
            early = probe is not None and not rewrite_trusted(expr)
            # before a rewrite SymPy may get wrong: every probe point
            refuted = _refuted_at_points(expr, defined) if early else None
            if refuted is not None:
                return _revise(refuted, seconds=clock.elapsed)
            reduced, refuted = _zero_form(expr, None if early else probe)
            if refuted is not None:
                return _revise(refuted, seconds=clock.elapsed)
            closed = reduced.is_number and not reduced.free_symbols
    except BudgetExceeded as exc:
        return clock.verdict(UNKNOWN, f"simplification undecided: {exc}")
    except REWRITE_ERRORS as e:
        return clock.verdict(UNKNOWN, f"simplification failed: {type(e).__name__}")
    elapsed = clock.elapsed
    if dl.expired:
        return clock.verdict(UNKNOWN, f"time limit of {clock.limit:g} s passed")
    contradicted = _zero_contradicted(expr) if reduced == 0 else None
    if contradicted is not None:  # SymPy judged a closed part 0 by a float
        if not expr.free_symbols:
            return _nonzero_difference(contradicted, defined)
        refuted = _refuted_at_points(expr, defined) if universal else None
        if refuted is not None:
            return _revise(refuted, seconds=clock.elapsed)
        reason = "SymPy rewrote the difference to 0, but its value at a point is certified nonzero"
        return clock.verdict(UNKNOWN, reason)
    doubt = _zero_doubted(expr) if reduced == 0 and has_closed_irrational(expr) else None
    doubt = doubt or (_limit_doubted(expr) if reduced == 0 else None)  # generic parameters
    if doubt is not None:  # no enclosure held the number: an evaluation vetoes, never refutes
        return clock.verdict(UNKNOWN, doubt)
    if reduced == 0:
        return _proved(clock, "difference simplifies to 0", defined)
    if closed:  # a closed number: refuted only when certified nonzero
        nonzero = _sign_verdict(reduced, "≠", timeout_s, MAX_BITS, complex_ok)
        seconds = elapsed + nonzero.seconds
        if nonzero.status == PROVED:
            return _nonzero_difference(nonzero, defined, seconds=seconds)
        if nonzero.status == REFUTED:  # exactly 0 after all
            exact = {"method": "exact", "seconds": seconds}
            return _proved(clock, "difference is exactly 0", defined, **exact)
    reason = f"difference not reduced to 0: {_short(reduced)}"
    return clock.verdict(UNKNOWN, reason, seconds=elapsed)


def _proved(clock: Clock, reason: str, defined: tuple, **changes) -> Verdict:
    """``lhs − rhs = 0`` proved where the formula's denominators ``defined`` are nonzero — unless
    they are nonzero together nowhere (``vacuity``: ``z/z = 1`` with ``z = x − x`` unevaluated, or
    sin² + cos² − 1): a formula defined nowhere claims nothing, as ``valid`` refuses it."""
    divisors = tuple(sympy.Pow(d, -1, evaluate=False) for d in defined)
    vacuous = vacuous_divisor(*divisors) if divisors else None
    if vacuous is not None:
        why = f"defined nowhere: {_short(vacuous)} is 0 at every point tried, so it claims nothing"
        return clock.verdict(UNKNOWN, why, **changes)
    return clock.verdict(PROVED, reason, **changes)


def _float_blind_verdict(expr, clock, timeout_s, universal: bool, defined: tuple) -> Verdict:
    """``expr = 0`` where SymPy would take a branch or a root by the float sign of a closed
    number (``Max(x, x + log(cos(10⁻⁶⁰)))`` built as ``x + log(cos(10⁻⁶⁰))``): proved only with
    each such number a symbol of its certified sign, refuted only at a point of ``expr`` itself
    (enclosures; a closed ``expr``: its own enclosure), else unknown — never by SymPy's rewrite
    of the number."""
    general = signs_for_numbers((expr,), lambda c: certified_sign(c, timeout_s)[0])[0]
    if general != expr and not float_blind_risk(general):
        found = zero_verdict(general, timeout_s, universal=False, defined=defined)
        if found.status == PROVED:
            reason = f"{found.reason}, for every number of the closed constants' certified signs"
            return _revise(found, reason=reason, seconds=clock.elapsed)
    if not expr.free_symbols:  # branches decided by enclosures, never by SymPy's float
        nonzero = _sign_verdict(at(expr, {}), "≠", timeout_s, MAX_BITS)
        if nonzero.status == PROVED:
            return _nonzero_difference(nonzero, defined, seconds=clock.elapsed)
    refuted = _refuted_at_points(expr, defined) if universal else None
    if refuted is not None:
        return _revise(refuted, seconds=clock.elapsed)
    reason = "SymPy judges the sign of a closed number here by a float: not decided by its rewrites"
    return clock.verdict(UNKNOWN, reason)


def _nonzero_difference(nonzero: Verdict, defined: tuple = (), **changes) -> Verdict:
    """``lhs − rhs = 0`` refuted by the certificate that the difference is a nonzero number —
    where the formula claims anything: its denominators ``defined`` must be certified nonzero
    at one point (1/d + 1 = 1/d with d ≡ 0 is defined nowhere: unknown, never refuted)."""
    if defined and not _defined_somewhere(defined):
        return _revise(
            nonzero,
            status=UNKNOWN,
            reason="the difference is a nonzero number, but no point "
            "where the formula is defined was found",
            **changes,
        )
    return _revise(
        nonzero,
        status=REFUTED,
        reason="difference is a nonzero number",
        certificate=f"lhs − rhs: {nonzero.certificate}",
        **changes,
    )


def _short(expr: sympy.Basic) -> str:
    try:
        return sympy.sstr(expr)[:120]
    except (ValueError, RecursionError):
        return type(expr).__name__


def _domain(expr: sympy.Basic) -> tuple[str, ...]:
    """The assumptions of the free real symbols, as shown beside a fact (``t ∈ (0, ∞)``), and
    the denominators that must be nonzero (``x − 1 ≠ 0``): an identity with a denominator is
    claimed only where it is defined."""
    out = []
    for s in sorted(getattr(expr, "free_symbols", set()), key=str):
        if isinstance(s, sympy.Symbol):  # a Dummy too: |d| = d holds for a positive d only
            shown = domain_text(s)
            if shown is not None:
                out.append(shown)
    out += divisor_conditions(denominators(expr))
    return tuple(out)


def check_equal(lhs: sympy.Expr, rhs: sympy.Expr, timeout_s: float = SIMPLIFY_TIMEOUT_S) -> Fact:
    """The fact ``lhs = rhs`` for every value of the free symbols (in their assumed domains)
    where its denominators are nonzero (shown in the domain: ``x − 1 ≠ 0``)."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    if isinstance(lhs, sympy.MatrixBase) and isinstance(rhs, sympy.MatrixBase):
        return check_matrix_equal(lhs, rhs, timeout_s)
    formula = equation(lhs, rhs)
    clock = Clock(timeout_s, "sympy")
    pole = pole_reason(lhs, rhs)
    if pole is not None:
        return _fact(formula, clock.verdict(UNKNOWN, pole), domain=_domain(formula))
    try:
        with deadline(clock.limit):  # building lhs − rhs is evaluation too
            diff = difference(lhs, rhs)
    except BudgetExceeded as exc:
        verdict = clock.verdict(UNKNOWN, f"lhs − rhs not built: {exc}")
        return _fact(formula, verdict, domain=_domain(formula))
    return _fact(
        formula,
        zero_verdict(
            diff,
            timeout_s,
            universal=True,
            defined=denominators(lhs, rhs),
            complex_ok=complex_safe(lhs, rhs),
        ),
        domain=_domain(formula),
    )


SHAPE_POINTS = 3  # dimensions 1..3 are tried for a point where two symbolic shapes differ


def shape_verdict(lhs_shape: tuple, rhs_shape: tuple) -> Verdict | None:
    """What two shapes say of ``lhs = rhs``: None when every dimension is the same (identical,
    or proved equal); refuted when one differs — by a nonzero number, or at a point of positive
    integer dimensions, certified by exact arithmetic (the point is the witness); unknown when
    neither is decided. Decided by ``zero_verdict`` and ``_sign_verdict`` like any other
    difference (so the null checker of the mutation tests reaches it too)."""
    undecided = []
    for a, b in zip(lhs_shape, rhs_shape, strict=True):
        diff = sympy_value(a) - sympy_value(b)
        if diff == 0:
            continue
        same = zero_verdict(diff)
        if same.status == PROVED:
            continue
        if same.status == REFUTED:
            return _revise(same, reason=f"shapes differ: {lhs_shape} vs {rhs_shape} ({a} ≠ {b})")
        for point in _dimension_points(sorted(diff.free_symbols, key=str)):
            value = diff.xreplace(point)
            if not value.is_Rational:
                continue
            nonzero = _sign_verdict(value, "≠", SIMPLIFY_TIMEOUT_S, MAX_BITS)
            if nonzero.status == PROVED:
                shown = tuple((str(k), str(v)) for k, v in point.items())
                where = ", ".join(f"{k} = {v}" for k, v in shown)
                return _verdict(
                    REFUTED,
                    "exact",
                    f"shapes differ: {lhs_shape} vs {rhs_shape} at {where} ({a} ≠ {b})",
                    witness=shown,
                    certificate=f"{a} − ({b}) = {value} at {where}",
                    backend=backend("sympy"),
                )
        undecided.append(f"{a} vs {b}")
    if undecided:
        return _verdict(
            UNKNOWN, "exact", f"shapes may differ: {'; '.join(undecided)}", backend=backend("sympy")
        )
    return None


def _dimension_points(symbols: list) -> list[dict]:
    """Points of positive integer dimensions — only for symbols declared positive integers, and
    only values inside each one's domain (an ``even`` n is never 1): a point outside a
    symbol's domain witnesses nothing."""
    if not symbols or len(symbols) > 4 or not all(s.is_integer and s.is_positive for s in symbols):
        return []
    grid = [{}]
    for sym in symbols:
        values = [
            sympy.Integer(n)
            for n in range(1, SHAPE_POINTS + 1)
            if in_domain(sym, sympy.Integer(n)) is True
        ]
        grid = [{**g, sym: v} for g in grid for v in values]
    return grid


def check_matrix_equal(
    lhs: sympy.MatrixBase, rhs: sympy.MatrixBase, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``lhs = rhs`` between explicit matrices, decided entry by entry."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    formula = equation(sympy.ImmutableMatrix(lhs), sympy.ImmutableMatrix(rhs))
    if len(lhs.shape) != len(rhs.shape):
        raise ValueError(f"shapes {lhs.shape} and {rhs.shape} have different ranks")
    shapes = shape_verdict(lhs.shape, rhs.shape)
    if shapes is not None:
        return _fact(formula, shapes)
    defined = denominators(lhs, rhs)  # the whole equation is claimed only where all are ≠ 0
    verdict = combine(
        (
            zero_verdict(difference(a, b), timeout_s, universal=True, defined=defined)
            for a, b in zip(lhs, rhs, strict=True)
        ),
        "entry",
    )
    return _fact(formula, verdict, domain=_domain(formula))


SIGNS = ("positive", "negative", "nonnegative", "nonpositive", "nonzero")
_SIGN_RELATION = {
    "positive": (sympy.StrictGreaterThan, 0),
    "negative": (sympy.StrictLessThan, 0),
    "nonnegative": (sympy.GreaterThan, 0),
    "nonpositive": (sympy.LessThan, 0),
    "nonzero": (sympy.Ne, 0),
}


def check_sign(expr: sympy.Expr, sign: str) -> Fact:
    """The fact ``expr > 0`` (``positive``; or ``negative``, ``nonnegative``, ``nonpositive``,
    ``nonzero``) for every value of its symbols, decided by SymPy's assumptions system."""
    if sign not in SIGNS:
        raise ValueError(f"sign={sign!r}: expected one of {', '.join(SIGNS)}")
    expr = as_input(expr, "expr")
    rel, zero = _SIGN_RELATION[sign]
    formula = rel(expr, zero, evaluate=False)
    label = backend("sympy")
    if not expr.free_symbols and sign in ("positive", "negative", "nonzero"):
        wanted = {"positive": ">", "negative": "<", "nonzero": "≠"}[sign]  # a number: certify
        return _fact(formula, _sign_verdict(expr, wanted, SIMPLIFY_TIMEOUT_S, MAX_BITS))
    if not expr.free_symbols:  # ≥ 0, ≤ 0 of a number: certified too, never SymPy's guess
        got, decided = certified_sign(expr, SIMPLIFY_TIMEOUT_S)
        ok = {"nonnegative": (0, 1), "nonpositive": (0, -1)}[sign]
        status = UNKNOWN if got is None else PROVED if got in ok else REFUTED
        why = "sign not certified" if got is None else f"{decided.reason}: sign {got}"
        return _fact(formula, _revise(decided, status=status, reason=why))
    refuted = _sign_refuted_at_a_point(expr, sign)
    if refuted is not None:
        return _fact(formula, refuted, domain=_domain(formula))
    # closed numbers as symbols of their certified signs: SymPy's own sign of log(cos(1e-60))
    # is a float's (float_blind); an answer for every number of those signs holds for them
    judged, note = expr, ""
    if has_closed_irrational(expr):
        general = with_signs_for_numbers(expr, lambda c: certified_sign(c, SIMPLIFY_TIMEOUT_S)[0])
        judged = general if general is not None else None
        note = ", for every number of the closed constants' certified signs"
    trusted = judged is not None and sign_trusted(judged)
    answer, reason = assumed_sign(judged, sign) if trusted else (None, _UNTRUSTED)
    if answer is True:
        verdict = _verdict(PROVED, "sympy", f"SymPy assumptions: {sign}{note}", backend=label)
    else:  # "not positive for some value" is not a refutation of ∀: needs a witness
        verdict = _verdict(UNKNOWN, "sympy", reason, backend=label)
    return _fact(formula, verdict, domain=_domain(formula))


_UNTRUSTED = (
    "SymPy's sign is taken only of +, ×, powers, exp, log, |·|, max, min of real symbols "
    "(trusted_forms)"
)
