"""Identities between layer expressions at general dimension.

``check_matrix_expr_equal`` decides a ``MatrixExpr`` identity (transpose, inverse, block and
distributive rules) at symbolic shapes; ``check_sum_equal`` decides an identity between entries
written as finite sums with symbolic bounds, in a normal form that applies only linearity of sums
and renaming of bound indices (``sum_normal_form``). Both say *proved* only when the difference
reduces to zero; otherwise *unknown* (a shape mismatch is refuted).
"""

from __future__ import annotations

from functools import cache

import sympy
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction

from symbolic.kernel.fact import Fact, _fact
from symbolic.kernel.float_blind import float_blind_risk, signs_for_numbers
from symbolic.kernel.inputs import as_input
from symbolic.kernel.interval_checks import certified_sign
from symbolic.kernel.logic import equation
from symbolic.kernel.sympy_checks import (
    SIMPLIFY_TIMEOUT_S,
    _domain,
    shape_verdict,
    zero_verdict,
)
from symbolic.kernel.verdict import PROVED, REFUTED, UNKNOWN, Clock, _revise, _verdict
from symbolic.limits import BudgetExceeded, deadline
from symbolic.versions import backend


def check_matrix_expr_equal(
    lhs: sympy.MatrixExpr, rhs: sympy.MatrixExpr, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``lhs = rhs`` for all values of the matrix symbols, at their symbolic shapes."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    formula = equation(lhs, rhs)
    clock = Clock(timeout_s, "sympy", backend("sympy"))
    shapes = shape_verdict(lhs.shape, rhs.shape)
    if shapes is not None:
        if shapes.status == REFUTED and formula.has(sympy.Inverse, sympy.MatPow):
            # the shapes' witness may make an inverse undefined (a non-square D⁻¹): no claim
            shapes = _revise(
                shapes,
                status=UNKNOWN,
                reason="shapes differ where an inverse or power may be undefined",
            )
        return _fact(formula, shapes)
    odd_powers = [p for p in formula.atoms(sympy.MatPow) if not p.exp.is_Integer]
    if odd_powers:  # SymPy's rules for A^k, A^(1/2) at symbolic k are not sound (0⁰ = 0)
        why = f"a matrix power with exponent {sympy.sstr(odd_powers[0].exp)[:30]}"
        return _fact(formula, clock.verdict(UNKNOWN, why))
    sides = _signs_for_numbers(lhs, rhs)
    if sides is None:
        return _fact(formula, clock.verdict(UNKNOWN, FLOAT_BLIND))
    try:
        with deadline(clock.limit) as dl:
            zero = _reduces_to_zero(_matrix_normal_form(sides[0]) - _matrix_normal_form(sides[1]))
    except (BudgetExceeded, RecursionError, TypeError, ValueError, AttributeError) as exc:
        return _fact(formula, clock.verdict(UNKNOWN, f"matrix algebra undecided: {exc}"))
    if dl.expired:
        verdict = clock.verdict(UNKNOWN, f"time limit of {clock.limit:g} s passed")
    elif zero:
        verdict = clock.verdict(PROVED, f"MatrixExpr difference reduces to ZeroMatrix{lhs.shape}")
    else:
        verdict = clock.verdict(UNKNOWN, "MatrixExpr difference not reduced to zero")
    # shown with its scalars' sets and divisors, as a scalar identity: (αq)(k/α)ᵀ = qkᵀ holds
    # for α ≠ 0 only
    return _fact(formula, verdict, domain=_domain(formula))


FLOAT_BLIND = "SymPy would judge the sign of a closed number here by a float; it is not certified"


def _signs_for_numbers(lhs: sympy.Basic, rhs: sympy.Basic) -> tuple | None:
    """``lhs``, ``rhs`` with each closed number under a head that acts on its sign a symbol of
    its certified sign, shared by both (``float_blind``): the normal forms rebuild with SymPy's
    evaluation, which takes ``|w·log(cos 10⁻⁶⁰)|`` to ``log(cos 10⁻⁶⁰)·|w|`` by a float. A
    proof for every value of those symbols holds for the numbers; None: a number's sign is not
    certified."""
    if not (float_blind_risk(lhs) or float_blind_risk(rhs)):
        return lhs, rhs
    sides = signs_for_numbers((lhs, rhs), lambda c: certified_sign(c)[0])
    return None if any(map(float_blind_risk, sides)) else sides


def _reduces_to_zero(diff: sympy.MatrixExpr) -> bool:
    reduced = _matrix_normal_form(diff)
    if isinstance(reduced, sympy.ZeroMatrix) or reduced == 0:
        return True
    if isinstance(reduced, sympy.BlockMatrix):
        return all(_reduces_to_zero(b) for b in reduced.blocks)
    if isinstance(reduced, sympy.MatrixBase):
        return all(sympy.expand(e) == 0 for e in reduced)
    return False


def _matrix_normal_form(m: sympy.MatrixExpr) -> sympy.MatrixExpr:
    """``doit``, ``block_collapse``, ``expand`` — also inside every elementwise σ(·), so that
    σ(A) and σ(A') become identical when A and A' do (equal arguments, equal values)."""
    m = sympy.expand(sympy.block_collapse(m.doit())).doit()
    inner = {
        f: ElementwiseApplyFunction(
            sympy.Lambda(_ELEMENT, f.function(_ELEMENT)), _matrix_normal_form(f.expr)
        )
        for f in m.atoms(ElementwiseApplyFunction)
    }
    return m.xreplace(inner) if inner else m


_ELEMENT = sympy.Dummy("ω")  # the one bound variable of every normalized σ(·) (see above)


def sum_normal_form(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` with every finite sum rewritten by sound rules only.

    A sum over a single value is evaluated; factors free of a summation index move out of its
    sum and sums of terms split (linearity); bound indices are renamed by nesting depth
    (``Dummy`` symbols ``ι0``, ``ι1``, … from the outside in), so two sums that differ only in
    the names of their indices become identical. (SymPy flattens nested sums into one ``Sum``
    whose first limit is the innermost; the rules below respect that order.)
    """
    return _levels(_linear(expr), {}, 0)


def _linear(e: sympy.Basic) -> sympy.Basic:
    if not isinstance(e, sympy.Sum):
        return e.func(*(_linear(a) for a in e.args)) if e.args else e
    body = _linear(e.function)
    for v, lo, hi in e.limits:  # innermost first
        lo, hi = _linear(lo), _linear(hi)
        bound = {s for n in sympy.preorder_traversal(body) for s in getattr(n, "bound_symbols", ())}
        if lo == hi and not lo.free_symbols & bound:  # one value, put in (no index captured)
            body = body.xreplace({v: lo})
        else:
            body = _split_sum(body, v, lo, hi)
    return body


def _split_sum(body: sympy.Expr, v: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr) -> sympy.Expr:
    if body.is_Add:
        return sympy.Add(*(_split_sum(t, v, lo, hi) for t in body.args))
    factors = sympy.Mul.make_args(body)
    outside = [f for f in factors if v not in f.free_symbols]
    inside = [f for f in factors if v in f.free_symbols]
    if not inside:
        return sympy.Mul(*outside) * (hi - lo + 1)
    return sympy.Mul(*outside) * sympy.Sum(sympy.Mul(*inside), (v, lo, hi))


def _levels(e: sympy.Basic, env: dict, depth: int) -> sympy.Basic:
    if isinstance(e, sympy.Sum):
        limits = []
        for v, lo, hi in reversed(e.limits):  # outermost first
            name = _level(depth, bool(lo.is_integer))  # values lo, lo + 1, …: integers or not
            limits.append((name, _levels(lo, env, depth), _levels(hi, env, depth)))
            env, depth = {**env, v: name}, depth + 1
        return sympy.Sum(_levels(e.function, env, depth), *reversed(limits))
    if e in env:
        return env[e]
    return e.func(*(_levels(a, env, depth) for a in e.args)) if e.args else e


@cache
def _level(depth: int, integer: bool) -> sympy.Dummy:
    """The bound index at nesting ``depth``: one Dummy per depth, integer when its values
    lo, lo + 1, … are (an integer ``lo``; the index's own assumptions are dropped, which only
    weakens), real otherwise (Σ over r = 1/2, 3/2, … of (−1)^(2r) is not that of an integer
    index); never equal to a user symbol."""
    return sympy.Dummy(f"ι{depth}", **({"integer": True} if integer else {"real": True}))


def check_sum_equal(
    lhs: sympy.Expr, rhs: sympy.Expr, timeout_s: float = SIMPLIFY_TIMEOUT_S
) -> Fact:
    """The fact ``lhs = rhs`` between entries (finite sums), compared in ``sum_normal_form``."""
    lhs, rhs = as_input(lhs, "lhs"), as_input(rhs, "rhs")
    formula = equation(lhs, rhs)
    steps = [(lim[2] - lim[1]).is_integer for e in formula.atoms(sympy.Sum) for lim in e.limits]
    if not all(steps):  # limits a whole number of steps apart, or no claim here
        return _fact(formula, _verdict(UNKNOWN, "sympy", "sum limits not an integer apart"))
    sides = _signs_for_numbers(lhs, rhs)
    if sides is None:
        return _fact(formula, _verdict(UNKNOWN, "sympy", FLOAT_BLIND))
    try:
        normal = sum_normal_form(sides[0]) - sum_normal_form(sides[1])
    except (ValueError, TypeError) as exc:
        return _fact(formula, _verdict(UNKNOWN, "sympy", f"no sum normal form: {exc}"))
    verdict = zero_verdict(normal, timeout_s)
    if verdict.status == PROVED:
        verdict = _revise(verdict, reason="equal in sum normal form (linearity, index renaming)")
    return _fact(formula, verdict, domain=_domain(formula))
