"""Decision procedures for an activation σ (a SymPy expression in ``activations.z``).

* ``decide_linear``: is ``σ(z) = σ(1)·z`` for every real z (THEORY A6)? Refuted by a certified
  witness ``z0`` with ``σ(z0) − σ(1)·z0 ≠ 0``; proved by SymPy on each half-line ``z = ±t``
  (``t > 0``, piecewise branches split) plus ``σ(0) = 0`` exactly.
* ``decide_homogeneity``: the complete procedure of THEORY A7. If σ is positively homogeneous
  of degree p then ``σ(2) = 2^p σ(1)`` (or ``σ(−2) = 2^p σ(−1)``), which fixes ``p``; then σ is
  homogeneous iff ``σ(t) = σ(1) t^p`` and ``σ(−t) = σ(−1) t^p`` for ``t > 0`` (and ``σ(0) = 0``
  when ``p ≠ 0``). Each condition is proved by SymPy or refuted by a certified witness.

Witnesses are found by trying points (simple rationals, and scaled copies of the constants in σ
so that kinks at ``1e-9`` are found) and certified exactly or by interval arithmetic; the
search is never the proof.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import mpmath
import sympy

from symbolic.activations import z
from symbolic.budget import BudgetExceeded, time_limit
from symbolic.certify import MAX_BITS, certified_sign, certify_nonzero
from symbolic.check import decide_zero, equal_step
from symbolic.engine import PROVED, REFUTED, UNKNOWN, Step, Verdict, combine
from symbolic.errors import InvalidExpression

t = sympy.Symbol("t", positive=True)  # a point of the open half-line z > 0

# Points tried first: simple rationals of both signs and several scales.
BASE_POINTS = tuple(
    sympy.Rational(v)
    for v in ("2", "-1", "-2", "1/2", "-1/2", "3", "-3", "1/3", "0", "10", "-10", "1/10",
              "-1/10", "7/3", "-7/3", "100", "-100", "1/1000", "-1/1000")
)
SEARCH_BITS = 256  # first-pass precision of the witness search
SECOND_PASS_POINTS = 6  # points retried at full precision (differences below 2^-256)
MAX_DERIVED_POINTS = 40  # points made from σ's own constants (kinks, thresholds)
ANALYSIS_TIMEOUT_S = 8.0  # each decision (linearity, homogeneity) of one activation
CANONICAL_TIMEOUT_S = 5.0  # SymPy's simplify of σ itself, tried only when undecided


def value_at(expr: sympy.Expr, point: sympy.Expr) -> sympy.Expr:
    """σ(point), checked to be a real number (bad activations are user errors)."""
    try:
        value = expr.subs(z, point)
        undefined = value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo)
        not_real = value.is_real is False or value.has(sympy.I)
    except (ValueError, TypeError, OverflowError, MemoryError, RecursionError) as exc:
        raise InvalidExpression(f"the activation cannot be evaluated at x = {point} "
                                f"({type(exc).__name__}); simplify it or bound its size") from None
    if undefined:
        raise InvalidExpression(f"the activation is undefined at x = {point}")
    if not_real:
        raise InvalidExpression(f"the activation is not real-valued at x = {point}")
    return value


def candidate_points(expr: sympy.Expr) -> Iterator[sympy.Rational]:
    """Base points, then points made from σ's own rational constants c: ±c, ±c/2, ±2c, ±(c+1),
    ±3c/2, and midpoints between two constants (a bump at or between thresholds is found)."""
    seen: set[sympy.Expr] = set()
    for p in BASE_POINTS:
        seen.add(p)
        yield p
    for p in kink_points(expr):  # where a max/min/abs/piecewise switches: bumps live there
        if p not in seen:
            seen.add(p)
            yield p
    constants = sorted({abs(a) for a in expr.atoms(sympy.Rational) if a != 0 and abs(a) != 1},
                       key=lambda c: abs(sympy.log(c, 10)))
    derived = [q for c in constants for q in (c, c / 2, 2 * c, c + 1, c * sympy.Rational(3, 2))]
    derived += [(c1 + c2) / 2 for i, c1 in enumerate(constants) for c2 in constants[i + 1:]]
    count = 0
    for p in derived:
        for q in (p, -p):
            if q not in seen and count < MAX_DERIVED_POINTS:
                seen.add(q)
                count += 1
                yield q


MAX_KINK_POINTS = 16  # roots of switching arguments tried as witness points
KINK_TIMEOUT_S = 2.0


def _switching_arguments(expr: sympy.Expr) -> list[sympy.Expr]:
    """Expressions in z whose sign decides a branch: Abs/sign/Heaviside arguments, differences
    of Max/Min arguments, and Piecewise conditions."""
    found = []
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, (sympy.Abs, sympy.sign, sympy.Heaviside)):
            found.append(node.args[0])
        elif isinstance(node, (sympy.Max, sympy.Min)):
            found += [a - b for i, a in enumerate(node.args) for b in node.args[i + 1:]]
        elif isinstance(node, sympy.Piecewise):
            found += [c.lhs - c.rhs for _, c in node.args
                      if isinstance(c, sympy.core.relational.Relational)]
    return [a for a in found if a.has(z)]


ROOT_STARTS = tuple(range(-10, 11))  # starting points of the numeric root search
ROOT_DIGITS = 40  # a numeric root becomes a rational this close to it: far inside a 1e-9 tent


def _numeric_roots(arg: sympy.Expr) -> list[sympy.Rational]:
    """Rationals within 1e-30 of real roots of ``arg`` that SymPy cannot solve in closed form.

    Only candidate points: a witness found there is still certified exactly or by intervals.
    """
    found: list[sympy.Rational] = []
    with mpmath.workdps(ROOT_DIGITS + 10):
        f = numeric_function(arg)
        for start in ROOT_STARTS:
            try:
                root = mpmath.findroot(f, mpmath.mpf(start), tol=mpmath.mpf(10) ** -ROOT_DIGITS)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):
                continue
            if mpmath.im(root) == 0:
                q = sympy.Rational(mpmath.nstr(mpmath.re(root), ROOT_DIGITS))
                if all(abs(q - other) > sympy.Rational(1, 10**12) for other in found):
                    found.append(q)
    return found


def numeric_function(arg: sympy.Expr):
    """``arg`` as an mpmath function of z (by substitution: no code generation)."""
    def f(x):
        value = arg.subs(z, sympy.Float(x, ROOT_DIGITS + 10)).evalf(ROOT_DIGITS + 10)
        return mpmath.mpf(str(value)) if value.is_real else mpmath.mpc(complex(value))

    return f


def kink_points(expr: sympy.Expr) -> list[sympy.Expr]:
    """Real roots (exact closed forms) of the switching arguments of σ, at most a few."""
    points: list[sympy.Expr] = []
    try:
        with time_limit(KINK_TIMEOUT_S):
            for arg in _switching_arguments(expr):
                roots = sympy.solveset(arg, z, domain=sympy.S.Reals)
                if not isinstance(roots, sympy.FiniteSet):
                    roots = _numeric_roots(arg)
                for r in roots:
                    if r.is_real and r.is_finite and r not in points:
                        points.append(r)
                if len(points) >= MAX_KINK_POINTS:
                    break
    except (BudgetExceeded, NotImplementedError, TypeError, ValueError, RecursionError):
        pass
    return points[:MAX_KINK_POINTS]


def find_witness(difference: sympy.Expr, points: Iterator[sympy.Rational],
                 variable: sympy.Symbol = z) -> tuple[sympy.Rational, Verdict] | None:
    """The first point where ``difference`` is certified nonzero, with its certificate.

    A first pass stops at ``SEARCH_BITS`` so that points where the difference is exactly 0 are
    cheap; a second pass goes to the full precision for differences that are nonzero by a hair.
    """
    tried: list[tuple[sympy.Rational, sympy.Expr]] = []
    for p in points:  # first pass, lazily: most witnesses are among the first points
        try:
            value = difference.subs(variable, p)
        except (ZeroDivisionError, ValueError):
            continue
        if value.has(sympy.zoo, sympy.nan, sympy.I):
            continue
        verdict = certify_nonzero(value, max_bits=SEARCH_BITS)
        if verdict.status == PROVED:
            return p, verdict
        tried.append((p, value))
    for p, value in tried[:SECOND_PASS_POINTS]:
        verdict = certify_nonzero(value, max_bits=MAX_BITS)
        if verdict.status == PROVED:
            return p, verdict
    return None


_PIECEWISE_HEADS = (sympy.Max, sympy.Min, sympy.Abs, sympy.Heaviside, sympy.sign,
                    sympy.Piecewise)


POSITIVE_REALS = sympy.Interval.open(0, sympy.oo)


def decide_identically_zero(expr: sympy.Expr, domain: sympy.Set = POSITIVE_REALS) -> Verdict:
    """Verdict on ``expr(t) = 0`` for every ``t`` in ``domain``, splitting piecewise branches."""
    verdict = decide_zero(expr)
    if verdict.status != UNKNOWN or not expr.has(*_PIECEWISE_HEADS):
        return verdict
    try:
        with time_limit(5.0):
            folded = sympy.piecewise_fold(expr.rewrite(sympy.Piecewise))
            if not isinstance(folded, sympy.Piecewise):
                return decide_zero(folded)
            branch_verdicts = []
            covered: sympy.Set = sympy.EmptySet
            for value, cond in folded.args:  # first match wins: a branch owns what is left
                cond_set = domain if cond is sympy.true else cond.as_set().intersect(domain)
                region, covered = sympy.Complement(cond_set, covered), covered.union(cond_set)
                v = decide_zero(value)
                if v.status != PROVED:
                    if region.is_empty:
                        continue
                    if isinstance(region, sympy.FiniteSet):  # isolated points: check each
                        v = combine([decide_zero(value.subs(var, q)) for var in value.free_symbols
                                     for q in region] or [decide_zero(value)], "point")
                    if v.status == REFUTED:  # a constant nonzero branch on a nonempty region
                        return replace(v, reason=f"branch {sympy.sstr(value)} ≠ 0 on {region}")
                branch_verdicts.append(v)
            return combine(branch_verdicts, "branch")
    except (BudgetExceeded, NotImplementedError, TypeError, ValueError) as exc:
        return Verdict.unknown("sympy", f"piecewise split failed: {exc}")


@dataclass(frozen=True)
class Decision:
    """A decided (or undecided) property of σ with its derivation steps."""

    holds: Verdict  # verdict on the property itself (proved = σ has it)
    steps: tuple[Step, ...]
    witness: sympy.Rational | None = None  # z0 refuting the property, when found
    value: sympy.Expr | None = None  # the parameter found: slope c or degree p


def _witness_step(what: str, point, verdict: Verdict, formula: sympy.Basic | None = None) -> Step:
    return Step(what, f"certified at z0 = {point} ({verdict.method})",
                replace(verdict, witness=(("z0", str(point)),)), formula=formula)


def simplified(expr: sympy.Expr) -> tuple[sympy.Expr, Step] | None:
    """σ rewritten by SymPy into a shorter equal form (exp form for hyperbolic functions)."""
    try:
        with time_limit(CANONICAL_TIMEOUT_S):
            forms = []
            if expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.exp):
                forms.append(sympy.cancel(sympy.expand(expr.rewrite(sympy.exp))))
            if not forms or sympy.count_ops(forms[0]) > 3:
                forms.append(sympy.simplify(expr))
                if expr.has(sympy.sinh, sympy.cosh, sympy.tanh, sympy.exp):
                    forms.append(sympy.simplify(expr.rewrite(sympy.exp)))
    except (BudgetExceeded, RecursionError, TypeError, ValueError, OverflowError, MemoryError):
        return None
    best = min(forms, key=sympy.count_ops)
    if sympy.count_ops(best) >= sympy.count_ops(expr):
        return None
    verdict = Verdict.proved("sympy", "SymPy rewrote σ (simplify, exp form)")
    return best, Step(f"σ(z) = {sympy.sstr(best)}", "simplify", verdict,
                      formula=sympy.Eq(expr, best, evaluate=False))


def decide_linear(expr: sympy.Expr) -> Decision:
    """Is σ(z) = σ(1)·z for every real z?"""
    return _bounded(_decide_linear, expr)


def _bounded(decide, expr: sympy.Expr) -> Decision:
    start = time.perf_counter()
    try:
        with time_limit(ANALYSIS_TIMEOUT_S):
            return decide(expr)
    except BudgetExceeded as exc:
        v = Verdict.unknown("sympy", f"analysis stopped: {exc}", timeout_s=ANALYSIS_TIMEOUT_S,
                            seconds=time.perf_counter() - start)
        return Decision(v, (Step("σ analysed", "time limit", v),))


def _decide_linear(expr: sympy.Expr) -> Decision:
    c = value_at(expr, sympy.Integer(1))
    define = Step(f"c := σ(1) = {sympy.sstr(c)}", "substitute z = 1 (b = 1 in the lemma)",
                  Verdict.proved("definition", "a definition, nothing to check"))
    diff = expr - c * z
    found = find_witness(diff, candidate_points(expr))
    if found:
        point, cert = found
        step = _witness_step(f"σ({point}) − σ(1)·{point} ≠ 0, so σ(z) ≠ c·z", point, cert)
        holds = Verdict.refuted(cert.method, f"σ(z0) ≠ σ(1)·z0 at z0 = {point}",
                                witness=(("z0", str(point)),), certificate=cert.certificate,
                                backend=cert.backend, seconds=cert.seconds)
        return Decision(holds, (define, step), witness=point, value=c)
    steps = [define]
    found_form = simplified(expr)  # no witness: σ may be linear in disguise
    if found_form:
        expr, form_step = found_form
        diff = expr - c * z
        steps.append(form_step)
    pos = Step("σ(t) − c·t = 0 for t > 0", "SymPy on the half-line z = t > 0",
               decide_identically_zero(diff.subs(z, t)))
    neg = Step("σ(−t) + c·t = 0 for t > 0", "SymPy on the half-line z = −t < 0",
               decide_identically_zero(diff.subs(z, -t)))
    steps += [pos, neg]
    decision = _with_origin(expr, "substitute z = 0", steps, value=c)
    return replace(decision, value=c)


MAX_DEGREE_DENOMINATOR = 1000  # rational degrees tried exactly: p = a/b with b ≤ this


def _exact_degree(ratio: sympy.Expr) -> sympy.Expr:
    """p with 2^p = ratio: a rational when one is verified exactly, else an exact closed form.

    Candidates read off the float value (a rational with a small denominator) or from
    ``expand_log`` are kept only when SymPy proves ``2^p = ratio``; otherwise p stays the exact
    ``log(ratio)/log(2)``. The degree is never rounded.
    """
    closed = sympy.log(ratio) / sympy.log(2)
    if closed.is_Rational:
        return closed
    approx = sympy.N(closed, 40)
    if approx.is_Number and approx.is_real:
        guess = sympy.Rational(approx).limit_denominator(MAX_DEGREE_DENOMINATOR)
        close = abs(guess - approx) < sympy.Rational(1, 10**25)
        if close and decide_zero(2**guess - ratio, timeout_s=1.0).status == PROVED:
            return guess
    expanded = sympy.expand_log(sympy.log(ratio), force=True) / sympy.log(2)
    if expanded.is_number and sympy.count_ops(expanded) < sympy.count_ops(closed):
        if decide_zero(2**expanded - ratio, timeout_s=1.0).status == PROVED:
            return expanded  # e.g. log(2**pi)/log(2) -> pi, verified 2^p = ratio
    return closed


def decide_homogeneity(expr: sympy.Expr, linear: Decision | None = None) -> Decision:
    """Is σ positively homogeneous of some degree p? ``value`` is p when it is.

    When ``linear`` proves σ(z) = c·z, degree 1 follows at once (c·αz = α·c·z).
    """
    if linear is not None and linear.holds.status == PROVED:
        c, alpha = linear.value, sympy.Symbol("alpha", positive=True)
        step = equal_step(c * alpha * z, alpha * (c * z), "σ(z) = c·z (proved linear)",
                          "σ(αz) = c·αz = α·σ(z) for every α > 0")
        return Decision(step.verdict, (step,), value=sympy.Integer(1))
    return _bounded(_decide_homogeneity, expr)


def _side_values(expr: sympy.Expr, sign: int) -> tuple[sympy.Expr, sympy.Expr, Verdict]:
    one = value_at(expr, sympy.Integer(sign))
    two = value_at(expr, sympy.Integer(2 * sign))
    return one, two, certify_nonzero(one)


def _decide_homogeneity(expr: sympy.Expr, allow_simplify: bool = True) -> Decision:
    s_pos, s_pos2, pos_nonzero = _side_values(expr, 1)
    s_neg, s_neg2, neg_nonzero = _side_values(expr, -1)
    steps: list[Step] = []
    if pos_nonzero.status == PROVED:
        sign, one, two, certificate = 1, s_pos, s_pos2, pos_nonzero
    elif neg_nonzero.status == PROVED:
        sign, one, two, certificate = -1, s_neg, s_neg2, neg_nonzero
    elif pos_nonzero.status == REFUTED and neg_nonzero.status == REFUTED:
        return _homogeneity_when_zero_at_units(expr)
    else:
        v = Verdict.unknown("interval", "cannot decide whether σ(1) or σ(−1) is zero")
        return Decision(v, (Step("σ(±1) ≠ 0?", "interval arithmetic", v),))
    u = "1" if sign > 0 else "−1"
    steps.append(Step(f"σ({u}) = {sympy.sstr(one)} ≠ 0", "certified", certificate))
    ratio = two / one
    ratio_positive = certify_nonzero(ratio)
    if ratio_positive.status == PROVED and certified_sign(ratio) == -1:
        refute = Verdict.refuted(ratio_positive.method,
                                 f"σ({2 * sign})/σ({u}) = {sympy.sstr(ratio)} < 0 but 2^p > 0",
                                 witness=(("alpha", "2"), ("z0", u)),
                                 certificate=ratio_positive.certificate)
        steps.append(Step(f"σ(2·{u})/σ({u}) = {sympy.sstr(ratio)} < 0 < 2^p", "α = 2",
                          Verdict.proved(refute.method, "sign certified", witness=refute.witness,
                                         certificate=refute.certificate)))
        return Decision(refute, tuple(steps), witness=sympy.Integer(sign))
    if ratio == 0:
        refute = Verdict.refuted("exact", f"σ({2 * sign}) = 0 ≠ 2^p σ({u})",
                                 witness=(("alpha", "2"), ("z0", u)))
        steps.append(Step(f"σ(2·{u}) = 0 ≠ 2^p·σ({u})", "α = 2",
                          Verdict.proved("exact", "σ(2u) = 0 exactly", witness=refute.witness)))
        return Decision(refute, tuple(steps), witness=sympy.Integer(sign))
    p = _exact_degree(ratio)
    steps.append(Step(f"p = log2(σ({2 * sign})/σ({u})) = {sympy.sstr(p)}",
                      "α = 2 forces σ(2z) = 2^p σ(z)",
                      Verdict.proved("definition", "p is defined by 2^p = σ(2u)/σ(u)")))
    return _check_degree(expr, p, s_pos, s_neg, steps, allow_simplify)


def _check_degree(expr, p, s_pos, s_neg, steps: list[Step], allow_simplify: bool) -> Decision:
    sides = ((1, t, s_pos, "σ(t) = σ(1)·t^p for t > 0"),
             (-1, -t, s_neg, "σ(−t) = σ(−1)·t^p for t > 0"))
    for sign, arg, unit_value, _ in sides:
        diff = expr.subs(z, arg) - unit_value * t**p
        found = find_witness(diff, (q for q in candidate_points(expr) if q > 0), variable=t)
        if found:
            point, cert = found
            z0 = sign * point
            holds = Verdict.refuted(cert.method,
                                    f"σ({z0}) ≠ σ({sign})·|{z0}|^p with the forced p",
                                    witness=(("z0", str(z0)), ("p", sympy.sstr(p))),
                                    certificate=cert.certificate, backend=cert.backend)
            steps.append(Step(f"σ({z0}) − σ({sign})·({point})^p ≠ 0", f"certified at z0 = {z0}",
                              replace(cert, witness=holds.witness)))
            return Decision(holds, tuple(steps), witness=z0, value=None)
    found_form = simplified(expr) if allow_simplify else None
    if found_form:  # no witness: σ may be homogeneous in disguise; start again on the new form
        form, form_step = found_form
        again = _decide_homogeneity(form, allow_simplify=False)
        return replace(again, steps=(form_step, *again.steps))
    for _, arg, unit_value, text in sides:
        diff = expr.subs(z, arg) - unit_value * t**p
        steps.append(Step(text, "SymPy on the half-line", decide_identically_zero(diff)))
    p_nonzero = certify_nonzero(p)
    if p_nonzero.status == PROVED:
        return _with_origin(expr, "p ≠ 0 forces σ(0) = α^p σ(0) = 0", steps, value=p)
    if p_nonzero.status == UNKNOWN:  # fine either way when σ(0) = 0; undecided otherwise
        steps.append(Step("σ(0) = 0 (needed unless p = 0)", "substitute z = 0",
                          decide_zero(value_at(expr, sympy.Integer(0)))))
    holds = combine((s.verdict for s in steps), "condition")
    return Decision(holds, tuple(steps), value=p if holds.status == PROVED else None)


def _with_origin(expr, rule: str, steps: list[Step], **found) -> Decision:
    """Append the step ``σ(0) = 0`` and decide; a certified ``σ(0) ≠ 0`` refutes instead."""
    at0 = value_at(expr, sympy.Integer(0))
    nonzero = certify_nonzero(at0)
    if nonzero.status == PROVED:
        witness = (("z0", "0"),)
        steps.append(Step(f"σ(0) = {sympy.sstr(at0)} ≠ 0", rule, replace(nonzero, witness=witness)))
        holds = Verdict.refuted(nonzero.method, f"σ(0) ≠ 0 (rule: {rule})", witness=witness,
                                certificate=nonzero.certificate)
        return Decision(holds, tuple(steps), witness=sympy.Integer(0))
    steps.append(Step("σ(0) = 0", rule, decide_zero(at0)))
    holds = combine((s.verdict for s in steps), "condition")
    value = found.get("value") if holds.status == PROVED else None
    return Decision(holds, tuple(steps), value=value)


def _homogeneity_when_zero_at_units(expr) -> Decision:
    """σ(1) = σ(−1) = 0: homogeneous (of every degree) iff σ vanishes on z ≠ 0."""
    steps = [Step("σ(1) = σ(−1) = 0", "exact", Verdict.proved("exact", "both values are 0"))]
    found = find_witness(expr, candidate_points(expr))
    if found:
        point, cert = found
        holds = Verdict.refuted(cert.method, f"σ({point}) ≠ 0 = |{point}|^p σ(±1)",
                                witness=(("z0", str(point)),), certificate=cert.certificate)
        steps.append(Step(f"σ({point}) ≠ 0", f"certified at z0 = {point}",
                          replace(cert, witness=holds.witness)))
        return Decision(holds, tuple(steps), witness=point)
    for arg, text in ((t, "σ(t) = 0 for t > 0"), (-t, "σ(−t) = 0 for t > 0")):
        steps.append(Step(text, "SymPy on the half-line",
                          decide_identically_zero(expr.subs(z, arg))))
    # σ ≡ 0: homogeneous of every degree; report degree 1 (the one inverse scaling needs).
    return _with_origin(expr, "substitute z = 0", steps, value=sympy.Integer(1))
