"""Positive homogeneity of an activation σ (THEORY A7), decided on the formula itself.

``check_homogeneous(σ, z, p)``: the fact ``∀α > 0, z ∈ ℝ: σ(αz) = α^p σ(z)``, proved

* directly, by the cases ``z = t > 0``, ``z = −t``, ``z = 0`` of ``σ(αz) − α^p σ(z) = 0``; or
* by the characterization proved in ``scaling.degree_p`` — ``σ(t) = σ(1)t^p`` and
  ``σ(−t) = σ(−1)t^p`` for every ``t > 0``, and ``σ(0) = 0`` unless ``p = 0`` (certified) —
  each condition checked here; an undecided ``p ≠ 0`` with ``σ(0) ≠ 0`` is *unknown*.

``refute_homogeneous(σ, z, u, z0)``: the fact ``∃p ∀α > 0, z: σ(αz) = α^p σ(z)``, refuted:
``σ(u) ≠ 0`` is certified (``u = ±1``), so ``α = 2`` forces ``2^p = σ(2u)/σ(u)``; a ratio
certified ≤ 0 admits no real ``p``; otherwise, for that one ``p``, ``σ(z0) ≠ |z0|^p σ(sign z0)``
is certified. When ``σ(1) = σ(−1) = 0`` exactly, any ``σ(z0) ≠ 0`` refutes every degree.
"""

from __future__ import annotations

import sympy

from symbolic.kernel.branches import at, put
from symbolic.kernel.domain_checks import HALF_LINE, T, check_identity, check_zero_on
from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.inputs import as_input, denominators
from symbolic.kernel.interval_checks import CERTIFY_TIMEOUT_S, _sign_verdict
from symbolic.kernel.intervals import MAX_BITS
from symbolic.kernel.logic import Exists, ForAll, equation, literal, literal_replace, sympy_value
from symbolic.kernel.sympy_checks import zero_verdict
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, _verdict, combine

ALPHA = sympy.Symbol("alpha", positive=True)
DEGREE = sympy.Symbol("p", real=True)  # the degree p, bound by ∃ in refute_homogeneous


def homogeneity_formula(expr: sympy.Expr, var: sympy.Symbol, p: sympy.Expr) -> sympy.Basic:
    """``∀α > 0, z: σ(αz) = α^p·σ(z)`` as written: nothing evaluated, so the two sides stay
    the two sides of the definition (for σ(z) = z it reads ``α·z = α¹·z``, not ``αz = αz``)."""
    scaled = literal_replace(expr, {var: literal(sympy.Mul, (ALPHA, var))})
    body = equation(scaled, literal(sympy.Mul, (literal(sympy.Pow, (ALPHA, p)), expr)))
    return ForAll((ALPHA, var), body, domain=sympy.Tuple(HALF_LINE, sympy.S.Reals))


def _alone(expr: sympy.Expr, var: sympy.Symbol) -> None:
    """σ is a function of ``var`` alone: another symbol (a t, an α, a p) would be captured by
    the cases and the scaling."""
    if expr.free_symbols - {var}:
        raise ValueError(
            f"σ = {sympy.sstr(expr)[:60]}: a function of {var} alone, not of "
            f"{sorted(map(str, expr.free_symbols - {var}))}"
        )


def check_homogeneous(
    expr: sympy.Expr,
    var: sympy.Symbol,
    p: sympy.Expr,
    hint: sympy.Expr | None = None,
    given: Fact | None = None,
) -> Fact:
    """The fact ``∀α > 0, z: σ(αz) = α^p σ(z)`` (``hint``: a form of σ, checked equal first —
    or taken from ``given``, a proved fact whose formula is exactly ``∀z ∈ ℝ: σ(z) = hint``)."""
    expr, p = as_input(expr, "expr"), as_input(p, "p")
    _alone(expr, var)
    formula = homogeneity_formula(expr, var, p)
    parts: tuple[Fact, ...] = ()
    form = expr
    if hint is not None:
        wanted = ForAll((var,), equation(expr, sympy_value(hint)), domain=sympy.S.Reals)
        same = (
            given
            if given is not None and given.proved and given.formula == wanted
            else check_identity(expr, hint, var)
        )
        if (
            not same.proved
            or same.formula != wanted
            or denominators(sympy_value(hint))  # σ = hint only where hint is defined
        ):
            return _fact(
                formula,
                _verdict(
                    UNKNOWN, same.verdict.method, "the proposed form of σ was not proved equal"
                ),
                parts=(same,),
            )
        parts, form = (same,), sympy_value(hint)
    direct = _direct(form, var, p)
    if direct.status == PROVED:
        return _fact(
            formula,
            combine([*(f.verdict for f in parts), direct.verdict], "case"),
            parts=(*parts, direct),
        )
    conditions = _characterization(form, var, p)
    verdict = combine((f.verdict for f in (*parts, *conditions)), "condition")
    if verdict.status == REFUTED:  # a refutation needs a witness: see refute_homogeneous
        verdict = _verdict(
            UNKNOWN, verdict.method, f"a condition failed without a witness point: {verdict.reason}"
        )
    return _fact(formula, verdict, parts=(*parts, *conditions))


def _direct(form, var, p) -> Fact:
    diff = put(form, {var: ALPHA * var}) - ALPHA**p * form
    # α > 0 and t > 0 range over their whole domains here, so a case that fails may be
    # refuted at a point before simplify runs; only a proof of all three is used
    cases = [
        zero_verdict(put(diff, {var: T}), universal=True),
        zero_verdict(put(diff, {var: -T}), universal=True),
        zero_verdict(at(diff, {var: 0}), universal=True),
    ]
    body = equation(diff, 0)
    return _fact(
        ForAll((ALPHA, var), body, domain=sympy.Tuple(HALF_LINE, sympy.S.Reals)),
        combine(cases, "case"),
    )


def _characterization(form, var, p) -> tuple[Fact, ...]:
    one, minus_one = at(form, {var: 1}), at(form, {var: -1})
    pos = check_zero_on(put(form, {var: T}) - one * T**p, T, HALF_LINE)
    neg = check_zero_on(put(form, {var: -T}) - minus_one * T**p, T, HALF_LINE)
    at0 = at(form, {var: 0})
    origin = _fact(equation(at0, 0), zero_verdict(at0))
    if origin.status != PROVED:
        p_zero = zero_verdict(p)
        if p_zero.status == PROVED:  # degree 0: σ(αz) = σ(z) puts no condition on σ(0)
            origin = _fact(equation(DEGREE, 0).xreplace({DEGREE: p}), p_zero)
        else:
            origin = _fact(
                sympy.Or(equation(p, 0), equation(at0, 0)),
                _verdict(UNKNOWN, "sympy", "neither σ(0) = 0 nor p = 0 decided"),
            )
    return pos, neg, origin


def refute_homogeneous(
    expr: sympy.Expr, var: sympy.Symbol, u: sympy.Integer, z0: sympy.Rational
) -> Fact:
    """The fact ``∃p ∀α > 0, z: σ(αz) = α^p σ(z)``, refuted by the forced degree (see above)."""
    expr = as_input(expr, "expr")
    _alone(expr, var)
    formula = Exists((DEGREE,), homogeneity_formula(expr, var, DEGREE))
    z0 = as_input(z0, "z0")
    if u not in (1, -1) or z0.free_symbols:
        raise ValueError("u must be ±1 and z0 a closed real number")
    witness = (("u", str(u)), ("z0", sympy.sstr(z0)))

    def certify(value, wanted):
        return _sign_verdict(value, wanted, CERTIFY_TIMEOUT_S, MAX_BITS)  # values read by as_input

    side = certify(z0, ">")
    if side.status == PROVED:
        sign = sympy.Integer(1)
    elif certify(z0, "<").status == PROVED:
        sign = sympy.Integer(-1)
    else:
        return _fact(
            formula,
            _verdict(UNKNOWN, "interval", "the sign of z0 is not certified", witness=witness),
        )

    s_u, s_2u = at(expr, {var: u}), at(expr, {var: 2 * u})
    s_pos, s_neg = at(expr, {var: 1}), at(expr, {var: -1})
    at_z0, at_sign = at(expr, {var: z0}), at(expr, {var: sign})
    units_zero = zero_verdict(s_pos).status == PROVED and zero_verdict(s_neg).status == PROVED
    if units_zero:  # σ(±1) = 0: every degree demands σ(z0) = |z0|^p·0 = 0
        v = certify(at_z0, "≠")
        return _refuted_or_unknown(formula, v, witness, "σ(±1) = 0 but σ(z0) ≠ 0")
    nonzero_u = certify(s_u, "≠")
    if nonzero_u.status != PROVED:
        return _fact(
            formula, _verdict(UNKNOWN, nonzero_u.method, "σ(u) ≠ 0 not certified", witness=witness)
        )
    ratio = s_2u / s_u
    if certify(ratio, "<").status == PROVED or zero_verdict(ratio).status == PROVED:
        v = combine([nonzero_u, certify(-ratio if ratio != 0 else 1, ">")], "condition")
        return _refuted_or_unknown(formula, v, witness, "σ(2u)/σ(u) ≤ 0 < 2^p: no real degree")
    forced = sympy.log(ratio) / sympy.log(2)
    miss = certify(at_z0 - (sign * z0) ** forced * at_sign, "≠")
    return _refuted_or_unknown(
        formula,
        combine([nonzero_u, miss], "condition"),
        (*witness, ("p", sympy.sstr(forced))),
        "α = 2 forces 2^p = σ(2u)/σ(u); with that p, σ(z0) ≠ |z0|^p σ(sign z0)",
        miss.certificate,
    )


def _refuted_or_unknown(formula, v, witness, why: str, certificate: str = "") -> Fact:
    if v.status == PROVED:
        return _fact(
            formula,
            _verdict(
                REFUTED,
                v.method,
                why,
                witness=witness,
                certificate=certificate or v.certificate,
                backend=v.backend,
                seconds=v.seconds,
            ),
        )
    return _fact(
        formula,
        _verdict(
            UNKNOWN, v.method, f"not certified: {v.reason}", witness=witness, seconds=v.seconds
        ),
    )
