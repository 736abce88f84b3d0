"""The re-check of certificates (issue 25): a closed comparison, a bound on an interval, an
identity refuted at a witness point, a degree refuted from two instances — each re-decided
by the re-check's own numbers (``symbolic.evidence.numbers``), no kernel code.

``check_comparison``, ``check_bound``, ``check_witness``, ``check_no_degree``: each returns
``(outcome, text)`` with outcome ``"proved"``, ``"refuted"``, ``"DISAGREES"`` or ``"unknown"``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from mpmath import iv

from symbolic.evidence.formula_reader import read_fraction
from symbolic.evidence.numbers import (
    NotEnclosed,
    difference,
    enclose,
    end_points,
    exact,
    in_set,
    ivalue,
    relation_holds,
    satisfies,
)
from symbolic.evidence.side_conditions import uncertified_divisor
from symbolic.kernel import Exists, ForAll
from symbolic.render.formula_text import source_text

BOUND_BITS, BOUND_PIECES = 128, 4096
CHECK_S = 60.0  # CPU seconds for one certificate (a bisection of 4096 pieces takes a few)


def check(role: str, formula: sympy.Basic, expected: str, cert: dict, read) -> tuple[str, str]:
    """The certificate of ``role`` (certificate, bound, witness) re-decided within
    ``CHECK_S`` CPU seconds: past them, ``unknown``."""
    from symbolic.limits import BudgetExceeded, deadline

    try:
        with deadline(CHECK_S):
            if role == "certificate":
                return check_comparison(formula, expected, cert)
            if role == "bound":
                return check_bound(formula)
            if degree_form(formula) is not None:
                return check_no_degree(formula, cert, read)
            return check_witness(formula, cert.get("point"), cert, read)
    except BudgetExceeded:
        return "unknown", f"not decided within {CHECK_S:.0f} CPU seconds"


def document_problem(doc: dict, schema: str, formula: sympy.Basic, status: str) -> str | None:
    """Why a certificate or spot-check file says something else than the manifest's fact —
    another schema, a formula text (what a reader of the file sees) that is not ``formula``
    printed, an expected outcome that is not the fact's status — or None. A file whose text
    said ``1 > 2`` over the ``srepr`` of ``3 > 2``, or ``proved`` of a refuted fact, passed.
    The text and the expectation are optional (the export writes both); never false."""
    if doc.get("schema") != schema:
        return f"the file is not a {schema} document"
    if "formula" in doc and doc["formula"] != source_text(formula):
        return "the file's formula text is not its formula"
    if "expected" in doc and doc["expected"] != status:
        return f"the file expects {str(doc.get('expected'))[:20]!r}, the step is {status!r}"
    return None


def _exported(cert: dict) -> tuple[Fraction, Fraction]:
    """The certificate's value or enclosure as exact end points (``lo ≤ hi`` checked)."""
    if "value" in cert:
        v = read_fraction(cert["value"])
        return v, v
    enc = cert.get("enclosure")
    if not isinstance(enc, dict):
        raise NotEnclosed("neither a value nor an enclosure")
    lo, hi = read_fraction(enc.get("lo")), read_fraction(enc.get("hi"))
    if lo > hi:
        raise ValueError(f"enclosure end points lo = {lo} > hi = {hi}")
    return lo, hi


def _compare(e: sympy.Expr, rel: str, cert: dict, want: bool) -> tuple[str, str]:
    lo, hi = _exported(cert)
    if relation_holds(rel, lo, hi) is not want:
        return "DISAGREES", f"the exported [{lo}, {hi}] does not decide {rel} 0 as claimed"
    decided, a, b, how = enclose(e, rel)
    if decided is None:
        return "unknown", f"{how}: {rel} 0 not decided"
    if decided is not want:
        return "DISAGREES", f"{how}: {rel} 0 is {decided}"
    if not (a <= hi and lo <= b):
        return "DISAGREES", f"{how}: disjoint from the exported enclosure"
    return ("proved" if want else "refuted"), f"{how}: {rel} 0"


def check_comparison(formula: sympy.Basic, expected: str, cert: dict) -> tuple[str, str]:
    """A closed comparison ``lhs rel rhs`` (the formula itself), re-decided."""
    if not isinstance(formula, sympy.core.relational.Relational) or formula.free_symbols:
        return "DISAGREES", "not a closed comparison"
    return _compare(difference(formula), formula.rel_op, cert, expected == "proved")


def check_bound(formula: sympy.Basic) -> tuple[str, str]:
    """``∀ x ∈ [lo, hi]: lhs rel rhs`` by a bisection of its own (on the closed interval)."""
    if not (
        isinstance(formula, ForAll)
        and len(formula.variables) == 1
        and isinstance(formula.domain, sympy.Interval)
        and isinstance(formula.body, sympy.core.relational.Relational)
    ):
        return "DISAGREES", "not a bound ∀ x ∈ [lo, hi]: lhs rel rhs"
    var, body = formula.variables[0], formula.body
    if body.free_symbols - {var}:
        return "DISAGREES", "a bound with other free symbols"
    rel, gap_expr = body.rel_op, difference(body)
    old = iv.prec
    iv.prec = BOUND_BITS
    try:
        lo, hi = ivalue(formula.domain.start), ivalue(formula.domain.end)
        pending, done = [iv.mpf([lo.a, hi.b])], 0
        while pending:
            piece = pending.pop()
            gap = ivalue(gap_expr, {var: piece})
            decided = relation_holds(rel, *end_points(gap))
            if decided:
                done += 1
                continue
            if decided is False:
                return "DISAGREES", f"{rel} fails on all of [{piece.a}, {piece.b}]"
            if done + len(pending) >= BOUND_PIECES:
                return "unknown", f"not decided in {BOUND_PIECES} pieces"
            mid = iv.mpf((piece.a + piece.b) / 2).a
            pending += [iv.mpf([piece.a, mid]), iv.mpf([mid, piece.b])]
    except (NotEnclosed, ZeroDivisionError, ValueError, OverflowError) as exc:
        return "unknown", f"not re-enclosed: {exc}"
    finally:
        iv.prec = old
    return "proved", f"∀ {var}: {rel} on {done} iv pieces"


def check_witness(formula: sympy.Basic, point: dict, cert: dict, read) -> tuple[str, str]:
    """An identity ``∀ v ∈ D: lhs = rhs`` (or ``lhs = rhs`` in its free symbols) refuted at a
    witness point: every variable given a rational in its domain (its assumptions and the
    quantifier's set, from the manifest's formula), and ``lhs − rhs ≠ 0`` there."""
    if isinstance(formula, ForAll):
        ranges, body = formula.ranges(), formula.body
    else:
        ranges, body = [(s, sympy.S.Reals) for s in formula.free_symbols], formula
    if any(not isinstance(v, sympy.Symbol) for v, _ in ranges) or body.has(
        sympy.Indexed, sympy.matrices.expressions.matexpr.MatrixElement
    ):  # x[0 + 1] and x[1] are one entry, not two variables
        return "DISAGREES", "a witness gives values to plain symbols, never to entries"
    if not isinstance(body, sympy.Eq):
        return "DISAGREES", "a witness refutes an identity lhs = rhs only"
    if not isinstance(point, dict) or set(point) != {str(v) for v, _ in ranges}:
        return "DISAGREES", "the witness does not give every variable a value"
    values = {}
    for v, dom in ranges:
        q = read(point[str(v)])
        if not isinstance(q, sympy.Rational):
            return "DISAGREES", f"{v} = {q} is not a rational"
        value = Fraction(int(q.p), int(q.q))
        if not satisfies(v, value) or not in_set(value, dom):
            return "DISAGREES", f"witness outside the domain: {v} = {value}"
        values[v] = q
    e = _at(difference(body), values)
    if e.free_symbols:
        return "DISAGREES", f"free symbols at the witness: {sorted(map(str, e.free_symbols))}"
    undefined = _undefined(e)
    if undefined:
        return "unknown", f"{undefined} at the witness: the formula claims nothing there"
    outcome, text = _compare(e, "!=", cert, True)
    if outcome == "proved":
        return "refuted", f"{text} at {', '.join(f'{k} = {v}' for k, v in values.items())}"
    return outcome, text


def _at(e: sympy.Basic, values: dict) -> sympy.Basic:
    """``e`` with the values put in, nothing evaluated: a symbol counts 0 bits when read, so
    ``x**x`` at ``x = 10**40`` must never be computed exactly (the evaluators bound it)."""
    with sympy.evaluate(False):
        return e.xreplace(values)


def _undefined(e: sympy.Basic) -> str | None:
    """Why a closed ``e`` has no value to refute with: ∞, zoo or nan in it, or a divisor not
    certified nonzero (where a formula divides by 0 it claims nothing); None when defined."""
    if e.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        return "an infinity or nan"
    divisor = uncertified_divisor(e)
    return f"the divisor {divisor}, not certified nonzero," if divisor else None


def degree_form(formula: sympy.Basic):
    """``∃p ∀α ∈ (0, ∞), z ∈ ℝ: A(α, z) = α^p·R(z)`` read off the formula: (p, α, z, A, R),
    or None when it has another shape. ``R`` is what multiplies ``α^p``; neither ``A`` nor
    ``R`` may hold ``p``, and ``R`` not ``α``."""
    if not (isinstance(formula, Exists) and len(formula.variables) == 1):
        return None
    inner = formula.body
    if formula.domain != sympy.S.Reals or not isinstance(inner, ForAll):
        return None
    ranges = list(inner.ranges())
    if len(ranges) != 2 or not isinstance(inner.body, sympy.Eq):
        return None
    (p,), ((alpha, a_dom), (z, z_dom)) = formula.variables, ranges
    if a_dom != sympy.Interval.open(0, sympy.oo) or z_dom != sympy.S.Reals:
        return None
    lhs, rhs = inner.body.lhs, inner.body.rhs
    factors = list(sympy.Mul.make_args(rhs))
    power = sympy.Pow(alpha, p, evaluate=False)
    if sum(1 for f in factors if f == power) != 1:
        return None
    factors.remove(power)
    rest = sympy.Mul(*factors, evaluate=False) if factors else sympy.S.One
    if p in lhs.free_symbols or rest.free_symbols - {z} or lhs.free_symbols - {alpha, z}:
        return None
    plain = sympy.Symbol("t", real=True).assumptions0
    if alpha.assumptions0 != sympy.Symbol("t", positive=True).assumptions0 or (
        z.assumptions0 != plain
    ):  # the instances below put in α = 2, |z0| and z = ±1: nothing else may be assumed
        return None
    return p, alpha, z, lhs, rest


def check_no_degree(formula: sympy.Basic, cert: dict, read) -> tuple[str, str]:
    """``∃p ∀α > 0, z: A(α, z) = α^p·R(z)`` refuted from two of its instances, at the
    certificate's ``u = ±1`` and ``z0 ≠ 0`` (rationals):

    * α = |z0|, z = sign(z0) needs A(|z0|, sign z0) = |z0|^p·R(sign z0). Where R(sign z0) is
      exactly 0 and A(|z0|, sign z0) ≠ 0, no p satisfies it.
    * Otherwise α = 2, z = u needs 2^p·R(u) = A(2, u): with R(u) ≠ 0, 2^p = A(2, u)/R(u), so
      no p when that ratio is ≤ 0, else only p = log₂ of it; then the first instance at that
      p must fail (≠ 0, certified).

    Every value is decided by the re-check's own exact or interval evaluation."""
    shape = degree_form(formula)
    if shape is None:
        return "DISAGREES", "not of the form ∃p ∀α > 0, z: A(α, z) = α^p·R(z)"
    p, alpha, z, lhs, rest = shape
    wit = cert.get("degree_witness")
    if not isinstance(wit, dict) or set(wit) != {"u", "z0"}:
        return "DISAGREES", "the certificate gives no witness u, z0"
    u, z0 = read(wit["u"]), read(wit["z0"])
    if u not in (sympy.S.One, sympy.S.NegativeOne) or not isinstance(z0, sympy.Rational):
        return "DISAGREES", "u must be ±1 and z0 a rational"
    if z0 == 0:
        return "DISAGREES", "z0 = 0"
    sign, size = (sympy.S.One if z0 > 0 else sympy.S.NegativeOne), abs(z0)
    at_z0 = _at(lhs, {alpha: size, z: sign})
    r_sign = _at(rest, {z: sign})
    r_u, at_2u = _at(rest, {z: u}), _at(lhs, {alpha: sympy.Integer(2), z: u})
    where = f"u = {u}, z0 = {z0}"
    undefined = _undefined(at_z0) or _undefined(r_sign)
    if undefined:
        return "unknown", f"{undefined} in an instance: it claims nothing there ({where})"
    if exact(r_sign) == 0:
        decided, _, _, how = enclose(at_z0, "!=")
        if decided is True:
            return "refuted", f"{how}: R({sign}) = 0 but A({size}, {sign}) ≠ 0 ({where})"
        return "unknown", f"{how}: A({size}, {sign}) ≠ 0 not decided ({where})"
    undefined = _undefined(r_u) or _undefined(at_2u)
    if undefined:
        return "unknown", f"{undefined} in an instance: it claims nothing there ({where})"
    if enclose(r_u, "!=")[0] is not True:
        return "unknown", f"R({u}) ≠ 0 not decided ({where})"
    ratio = sympy.Mul(at_2u, sympy.Pow(r_u, -1, evaluate=False), evaluate=False)
    decided, _, _, how = enclose(ratio, ">")
    if decided is False:
        return "refuted", f"{how}: 2^p = A(2, {u})/R({u}) ≤ 0 has no real p ({where})"
    if decided is None:
        return "unknown", f"{how}: the sign of A(2, {u})/R({u}) not decided ({where})"
    with sympy.evaluate(False):  # nothing computed: the evaluators bound the work
        forced = sympy.Mul(sympy.log(ratio), sympy.Pow(sympy.log(2), -1))
        miss = sympy.Add(at_z0, sympy.Mul(-1, sympy.Pow(size, forced), r_sign))
    decided, _, _, how = enclose(miss, "!=")
    if decided is True:
        return "refuted", f"{how}: p = log₂(A(2, {u})/R({u})) misses at α = {size} ({where})"
    return "unknown", f"{how}: the miss at α = {size} not decided ({where})"
