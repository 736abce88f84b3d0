"""SymPy checkers: identities, identities on a domain, explicit matrices, signs.

``check_equal(lhs, rhs)`` decides ``lhs = rhs`` for all values of the free symbols (their SymPy
assumptions are the domain): a difference SymPy rewrites to exactly ``0`` is *proved*; one that
reduces to a closed number certified nonzero (exactly or by intervals), or whose value at a
point of the symbols' domains is certified nonzero, is *refuted* (the point is the witness);
anything else is *unknown* — an undecided simplification is never a pass. Every call runs under the
context's SymPy time limit (``symbolic.kernel.limits``).

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

import time

import sympy

from symbolic.kernel.branches import at, difference, has_huge_power, resolve_closed_branches
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.inputs import as_input, denominators, sympy_value
from symbolic.kernel.intervals import MAX_BITS, _in_domain, _sign_verdict, counterexample
from symbolic.kernel.limits import BudgetExceeded, current_limits, deadline
from symbolic.kernel.logic import ForAll, symbol_set
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, Verdict, _revise, _verdict, combine
from symbolic.versions import backend

# Long enough for every derivation in the toolkit (each takes milliseconds); short enough that a
# hostile expression gives `unknown` quickly.
SIMPLIFY_TIMEOUT_S = 3.0
SPLIT_TIMEOUT_S = 5.0  # splitting a piecewise difference into branches
CLOSED_BITS = 128  # a closed difference is first enclosed at this precision (quick), then SymPy
_PIECEWISE_HEADS = (sympy.Max, sympy.Min, sympy.Abs, sympy.Heaviside, sympy.sign, sympy.Piecewise)


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
        sympy.simplify,
        _exp_form,
    ):
        if rewrite is sympy.simplify and probe is not None:
            refuted = probe(original)
            if refuted is not None:
                return expr, refuted
        rewritten = rewrite(expr)
        if rewritten == 0:
            return rewritten, None
        if rewrite is not _exp_cancel:  # a quick try: simplify still gets the form before it
            expr = rewritten
    return expr, None


PROBE_VALUES = (
    sympy.Rational(7, 5),
    sympy.Rational(-3, 7),
    sympy.Integer(2),
    sympy.Integer(-3),
    sympy.Integer(0),
)  # tried in order; the first in a symbol's domain is its value
PROBE_BITS = 256  # a true identity's difference encloses 0: the probe gives up at this precision
PROBE_TIMEOUT_S = 0.5


def _probe_point(expr: sympy.Expr) -> dict | None:
    """A point of the domains of ``expr``'s free symbols (their SymPy assumptions), or None
    when a symbol is no plain scalar symbol or has no value of ``PROBE_VALUES`` in its domain."""
    point = {}
    for s in sorted(expr.free_symbols, key=str):
        if not isinstance(s, sympy.Symbol) or not s.is_commutative:
            return None
        value = next((v for v in PROBE_VALUES if _in_domain(s, v) is True), None)
        if value is None:
            return None
        point[s] = value
    return point or None


def _refuted_at_a_point(expr: sympy.Expr, defined: tuple = ()) -> Verdict | None:
    """``expr = 0`` for every value of its free symbols, refuted by ``counterexample`` at the
    point ``_probe_point`` chooses (in the kernel, inside each symbol's domain); None when
    there is no such point or the value there is not certified nonzero. ``defined``: the
    denominators of the formula ``expr`` came from (which building it may have cancelled);
    each must be certified nonzero at the point, where alone the formula claims anything."""
    if expr.has(
        sympy.MatrixExpr,
        sympy.Sum,
        sympy.Product,
        sympy.Integral,
        sympy.Derivative,
        sympy.core.function.AppliedUndef,
    ):
        return None
    point = _probe_point(expr)
    if point is None:
        return None
    for d in defined:
        if (
            not d.free_symbols <= set(point)
            or _sign_verdict(at(d, point), "≠", PROBE_TIMEOUT_S, PROBE_BITS).status != PROVED
        ):
            return None
    found = counterexample(expr, 0, point, timeout_s=PROBE_TIMEOUT_S, max_bits=PROBE_BITS).verdict
    if found.status != REFUTED:
        return None
    where = ", ".join(f"{k} = {v}" for k, v in found.witness)
    return _revise(found, reason=f"lhs − rhs is certified nonzero at {where}")


def zero_verdict(
    expr: sympy.Expr,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
    *,
    universal: bool = False,
    defined: tuple = (),
) -> Verdict:
    """Verdict on ``expr = 0`` identically (kernel-internal; the public face is ``check_*``).

    ``universal``: the claim is ``expr = 0`` for *every* value of its free symbols in their
    assumed domains (as ``check_equal`` states it), so a difference the cheap rewrites leave
    nonzero is tried at a point of those domains before ``simplify`` runs: certified nonzero
    there, it is refuted with the point as witness. Callers whose symbols range over less than
    their domains (a branch's region, a case ``t > 0`` of a larger claim) leave it off."""
    seconds = current_limits().sympy_seconds(timeout_s)
    start = time.perf_counter()
    label = backend("sympy")
    try:
        expr = as_input(expr)
    except ValueError as exc:  # nan, zoo: an undefined value is no identity
        return _verdict(UNKNOWN, "sympy", f"not a defined value: {exc}", backend=label)
    huge = has_huge_power(expr)
    if not expr.free_symbols and (huge or expr != 0):  # a number: an enclosure excluding 0
        nonzero = _sign_verdict(expr, "≠", timeout_s, MAX_BITS if huge else CLOSED_BITS)
        if nonzero.status == PROVED:
            return _revise(
                nonzero,
                status=REFUTED,
                reason="difference is a nonzero number",
                certificate=f"lhs − rhs: {nonzero.certificate}",
            )
    if huge:  # SymPy's rewrites would compute the power, in one call no limit interrupts
        return _verdict(
            UNKNOWN,
            "sympy",
            "a power too large to compute exactly; its enclosure does not decide",
            backend=label,
            timeout_s=seconds,
            seconds=time.perf_counter() - start,
        )
    try:
        with deadline(seconds) as dl:
            probe = (lambda e: _refuted_at_a_point(e, defined)) if universal else None
            reduced, refuted = _zero_form(expr, probe)
            if refuted is not None:
                return _revise(refuted, seconds=time.perf_counter() - start)
            closed = reduced.is_number and not reduced.free_symbols
    except BudgetExceeded as exc:
        return _verdict(
            UNKNOWN,
            "sympy",
            f"simplification undecided: {exc}",
            backend=label,
            timeout_s=seconds,
            seconds=time.perf_counter() - start,
        )
    except (
        RecursionError,
        MemoryError,
        OverflowError,
        TypeError,
        ValueError,
        AttributeError,
    ) as exc:
        return _verdict(
            UNKNOWN,
            "sympy",
            f"simplification failed: {type(exc).__name__}",
            backend=label,
            timeout_s=seconds,
            seconds=time.perf_counter() - start,
        )
    elapsed = time.perf_counter() - start
    if dl.expired:
        return _verdict(
            UNKNOWN,
            "sympy",
            f"time limit of {seconds:g} s passed",
            backend=label,
            timeout_s=seconds,
            seconds=elapsed,
        )
    if reduced == 0:
        return _verdict(
            PROVED,
            "sympy",
            "difference simplifies to 0",
            backend=label,
            timeout_s=seconds,
            seconds=elapsed,
        )
    if closed:  # a closed number: refuted only when certified nonzero
        nonzero = _sign_verdict(reduced, "≠", timeout_s, MAX_BITS)
        if nonzero.status == PROVED:
            return _revise(
                nonzero,
                status=REFUTED,
                reason="difference is a nonzero number",
                certificate=f"lhs − rhs: {nonzero.certificate}",
                seconds=elapsed + nonzero.seconds,
            )
        if nonzero.status == REFUTED:  # exactly 0 after all
            return _verdict(
                PROVED,
                "exact",
                "difference is exactly 0",
                backend=label,
                timeout_s=seconds,
                seconds=elapsed + nonzero.seconds,
            )
    return _verdict(
        UNKNOWN,
        "sympy",
        f"difference not reduced to 0: {_short(reduced)}",
        backend=label,
        timeout_s=seconds,
        seconds=elapsed,
    )


def _short(expr: sympy.Basic) -> str:
    try:
        return sympy.sstr(expr)[:120]
    except (ValueError, RecursionError):
        return type(expr).__name__


def _eq(lhs: sympy.Basic, rhs: sympy.Basic) -> sympy.Basic:
    return sympy.Eq(lhs, rhs, evaluate=False)


def _domain(expr: sympy.Basic) -> tuple[str, ...]:
    """The assumptions of the free real symbols, as shown beside a fact (``t ∈ (0, ∞)``), and
    the denominators that must be nonzero (``x − 1 ≠ 0``): an identity with a denominator is
    claimed only where it is defined."""
    from symbolic.kernel.logic import set_text

    out = []
    for s in sorted(getattr(expr, "free_symbols", set()), key=str):
        if isinstance(s, sympy.Symbol) and not isinstance(s, sympy.Dummy):
            dom = symbol_set(s)
            if dom != sympy.S.Reals:
                out.append(f"{s} ∈ {set_text(dom)}")
    out += [f"{sympy.sstr(d)} ≠ 0" for d in denominators(expr) if d.is_zero is not False]
    return tuple(out)


def check_equal(lhs: sympy.Expr, rhs: sympy.Expr, timeout_s: float = SIMPLIFY_TIMEOUT_S) -> Fact:
    """The fact ``lhs = rhs`` for every value of the free symbols (in their assumed domains)
    where its denominators are nonzero (shown in the domain: ``x − 1 ≠ 0``)."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    if isinstance(lhs, sympy.MatrixBase) and isinstance(rhs, sympy.MatrixBase):
        return check_matrix_equal(lhs, rhs, timeout_s)
    formula = _eq(lhs, rhs)
    start = time.perf_counter()
    seconds = current_limits().sympy_seconds(timeout_s)
    try:
        with deadline(seconds):  # building lhs − rhs is evaluation too
            diff = difference(lhs, rhs)
    except BudgetExceeded as exc:
        return _fact(
            formula,
            _verdict(
                UNKNOWN,
                "sympy",
                f"lhs − rhs not built: {exc}",
                timeout_s=seconds,
                seconds=time.perf_counter() - start,
            ),
            domain=_domain(formula),
        )
    return _fact(
        formula,
        zero_verdict(diff, timeout_s, universal=True, defined=denominators(lhs, rhs)),
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
            if _in_domain(sym, sympy.Integer(n)) is True
        ]
        grid = [{**g, sym: v} for g in grid for v in values]
    return grid


def check_matrix_equal(
    lhs: sympy.MatrixBase, rhs: sympy.MatrixBase, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``lhs = rhs`` between explicit matrices, decided entry by entry."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    formula = _eq(sympy.ImmutableMatrix(lhs), sympy.ImmutableMatrix(rhs))
    if len(lhs.shape) != len(rhs.shape):
        raise ValueError(f"shapes {lhs.shape} and {rhs.shape} have different ranks")
    shapes = shape_verdict(lhs.shape, rhs.shape)
    if shapes is not None:
        return _fact(formula, shapes)
    verdict = combine(
        (
            zero_verdict(difference(a, b), timeout_s, universal=True)
            for a, b in zip(lhs, rhs, strict=True)
        ),
        "entry",
    )
    return _fact(formula, verdict, domain=_domain(formula))


SINGULAR_TIMEOUT_S = 1.0  # solving a denominator for its real zeros


NOT_LISTED = "the zeros of a denominator are not a finite set SymPy can list"


def _singular(exprs: tuple, var: sympy.Symbol) -> tuple[sympy.FiniteSet | None, str]:
    """The real zeros of the denominators of ``exprs`` (in ``var``), or None and the reason when
    they are not a finite set SymPy can list (then no identity with them is decided)."""
    points: set = set()
    for d in denominators(*exprs):
        if assumed_sign(d, "nonzero")[0] is True:  # never 0 (SymPy's assumptions, as check_sign)
            continue
        if d.free_symbols - {var}:
            return None, f"{NOT_LISTED}: {d} depends on other symbols"
        try:
            with deadline(current_limits().sympy_seconds(SINGULAR_TIMEOUT_S)):
                zeros = sympy.solveset(d, var, domain=sympy.S.Reals)
        except BudgetExceeded as exc:
            return None, f"{NOT_LISTED}: {exc}"
        except (NotImplementedError, TypeError, ValueError) as exc:
            return None, f"{NOT_LISTED}: {type(exc).__name__}"
        if not isinstance(zeros, sympy.FiniteSet):
            return None, NOT_LISTED
        points |= set(zeros)
    return sympy.FiniteSet(*points), ""


def _without(domain: sympy.Set, points: sympy.FiniteSet) -> sympy.Set:
    """``domain ∖ points``, kept as a complement so that it prints ``ℝ ∖ {1}``."""
    inside = [q for q in points if domain.contains(q) is not sympy.false]
    if not inside:
        return domain
    return sympy.Complement(domain, sympy.FiniteSet(*inside), evaluate=False)


def check_zero_on(
    expr: sympy.Expr, var: sympy.Symbol, domain: sympy.Set, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``∀ var ∈ domain: expr = 0``; a piecewise ``expr`` is split into its branches
    (first match wins), each branch decided on the part of ``domain`` it owns. The zeros of
    ``expr``'s denominators are taken out of the domain (``∀ t ∈ (0, ∞) ∖ {1}: …``)."""
    expr = as_input(expr, "expr")
    singular, why = _singular((expr,), var)
    if singular is None:
        return _fact(ForAll((var,), _eq(expr, 0), domain=domain), _verdict(UNKNOWN, "sympy", why))
    domain = _without(domain, singular)
    formula = ForAll((var,), _eq(expr, 0), domain=domain)
    verdict = zero_verdict(expr, timeout_s)
    if verdict.status != UNKNOWN or not expr.has(*_PIECEWISE_HEADS):
        if verdict.status == REFUTED and domain.is_empty:
            verdict = _verdict(PROVED, "sympy", "the domain is empty")
        return _fact(formula, verdict)
    return _fact(formula, _split_verdict(expr, var, domain, timeout_s))


def _split_verdict(expr, var, domain, timeout_s) -> Verdict:
    start = time.perf_counter()
    seconds = current_limits().sympy_seconds(SPLIT_TIMEOUT_S)
    try:
        with deadline(seconds) as dl:
            folded = sympy.piecewise_fold(expr.rewrite(sympy.Piecewise))
            if not isinstance(folded, sympy.Piecewise):
                branches = [(folded, sympy.true)]
            else:
                branches = list(folded.args)
            verdicts = []
            covered: sympy.Set = sympy.EmptySet
            for value, cond in branches:  # first match wins: a branch owns what is left
                cond_set = domain if cond is sympy.true else cond.as_set().intersect(domain)
                region = sympy.Complement(cond_set, covered)
                covered = covered.union(cond_set)
                if region.is_empty:
                    continue
                v = zero_verdict(value, timeout_s)
                if v.status == PROVED:
                    verdicts.append(v)
                    continue
                if isinstance(region, sympy.FiniteSet):  # isolated points: decide each
                    v = combine(
                        [zero_verdict(value.xreplace({var: q}), timeout_s) for q in region], "point"
                    )
                elif (
                    v.status == REFUTED
                    and region.is_empty is False
                    and var not in value.free_symbols
                ):
                    # a constant nonzero branch on a nonempty region
                    v = _revise(v, reason=f"branch {_short(value)} ≠ 0 on {region}")
                elif v.status == REFUTED:
                    v = _revise(v, status=UNKNOWN, reason="branch not decided on its region")
                verdicts.append(v)
            result = combine(verdicts, "branch")
    except (
        BudgetExceeded,
        NotImplementedError,
        TypeError,
        ValueError,
        AttributeError,
        RecursionError,
    ) as exc:
        return _verdict(
            UNKNOWN,
            "sympy",
            f"piecewise split failed: {type(exc).__name__}",
            seconds=time.perf_counter() - start,
        )
    if dl.expired:
        return _verdict(
            UNKNOWN,
            "sympy",
            f"time limit of {seconds:g} s passed",
            timeout_s=seconds,
            seconds=time.perf_counter() - start,
        )
    return result


HALF_LINE = sympy.Interval.open(0, sympy.oo)
T = sympy.Symbol("t", positive=True)  # the point of the half-line in the cases below


def sign_cases(
    diff: sympy.Expr,
    var: sympy.Symbol,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
    skip_zero: bool = False,
) -> tuple[Fact, ...]:
    """``∀t > 0: diff(t) = 0``, ``∀t > 0: diff(−t) = 0`` and ``diff(0) = 0``: together
    ``∀ var ∈ ℝ: diff = 0`` (``skip_zero``: 0 is not in the domain, its case is left out)."""
    cases = (
        check_zero_on(diff.xreplace({var: T}), T, HALF_LINE, timeout_s),
        check_zero_on(diff.xreplace({var: -T}), T, HALF_LINE, timeout_s),
    )
    if skip_zero:
        return cases
    at0 = at(diff, {var: 0})
    return cases + (_fact(_eq(at0, 0), zero_verdict(at0, timeout_s)),)


def check_identity(
    lhs: sympy.Expr,
    rhs: sympy.Expr,
    var: sympy.Symbol,
    hint: sympy.Expr | None = None,
    timeout_s: float = SIMPLIFY_TIMEOUT_S,
) -> Fact:
    """The fact ``∀ var ∈ ℝ: lhs = rhs``, by cases: ``var = t > 0``, ``var = −t``, ``var = 0``.

    Where a denominator of ``lhs``, ``rhs`` (or ``hint``) vanishes the identity is not claimed:
    those points leave the domain, and it is shown (``∀ x ∈ ℝ ∖ {1}: (x² − x)/(x − 1) = x``);
    when SymPy cannot list them the identity is unknown.

    ``hint`` (proposed by untrusted code, e.g. SymPy's ``simplify`` of ``lhs``) is a form of
    ``lhs`` that is easier to decide: the kernel checks ``lhs = hint`` first, then the cases on
    ``hint − rhs``.
    """
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    hint = None if hint is None else as_input(hint, "hint")
    singular, why = _singular((lhs, rhs) + (() if hint is None else (hint,)), var)
    if singular is None:
        return _fact(
            ForAll((var,), _eq(lhs, rhs), domain=sympy.S.Reals), _verdict(UNKNOWN, "sympy", why)
        )
    domain = _without(sympy.S.Reals, singular)
    parts: tuple[Fact, ...] = ()
    middle = lhs
    if hint is not None:
        parts = (check_equal(lhs, hint, timeout_s),)
        middle = hint
    whole = zero_verdict(middle - rhs, timeout_s)  # for all var at once, when SymPy sees it
    if whole.status == PROVED:
        parts += (_fact(_eq(middle - rhs, 0), whole),)
    else:
        parts += sign_cases(middle - rhs, var, timeout_s, skip_zero=0 in singular)
    verdict = combine((p.verdict for p in parts), "case")
    if verdict.status == REFUTED:  # a refuted case is a refutation only with a witness point
        verdict = _revise(
            verdict,
            status=UNKNOWN,
            reason="a case was refuted without a point; use counterexample()",
        )
    return _fact(ForAll((var,), _eq(lhs, rhs), domain=domain), verdict, parts=parts)


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
    answer, reason = assumed_sign(expr, sign)
    if answer is True:
        verdict = _verdict(PROVED, "sympy", f"SymPy assumptions: {sign}", backend=label)
    else:  # "not positive for some value" is not a refutation of ∀: needs a witness
        verdict = _verdict(UNKNOWN, "sympy", reason, backend=label)
    return _fact(formula, verdict, domain=_domain(formula))


def assumed_sign(expr: sympy.Expr, sign: str) -> tuple[bool | None, str]:
    """SymPy's assumptions on ``expr``'s sign (``expr.is_positive``, ...) and why undecided."""
    try:
        answer = getattr(expr, f"is_{sign}")
    except (TypeError, ValueError, RecursionError) as exc:
        return None, f"assumptions failed: {type(exc).__name__}"
    return answer, f"assumptions cannot decide whether it is {sign}"
