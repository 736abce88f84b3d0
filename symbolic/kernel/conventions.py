"""Terms whose SymPy value is a convention, not the mathematics a reader sees: never decided.

``convention_of(formula)`` names the first such term of a formula, or gives None. Every checked
fact is made through ``fact._fact``, which leaves a fact whose formula holds one *unknown*
(whatever its checker found), with that reason:

* a ``Derivative`` of a term with a kink or a jump in a differentiation variable (``Max``,
  ``Min``, ``Abs``, ``sign``, ``Heaviside``, ``floor``, ``Piecewise``, ...): SymPy differentiates
  ``max(0, x)`` to ``Heaviside(x)``, 1/2 at 0, where there is no derivative; and of any head not
  known continuous where it has a value (``discontinuity``: ``acot'(0) = −1`` was proved, acot
  jumps there; so was ``∂_y atan2(y, −1) = −1`` at 0), or of a head with a branch cut whose
  argument is not known real (``d/dy log(−1 + iy)`` at 0 crosses the cut); at a point
  (``Subs``), of a root whose base may be 0 there (``∂_x √(x² + y²)`` at (0, 0) was proved 0:
  SymPy's |x|' is sign(0));
* a ``Sum`` or ``Product`` whose bounds are not integers, or whose range ``a..b`` is not known
  to have ``b ≥ a − 1``: SymPy reads a reversed range by Karr's convention (``Sum(1, (k, 3, 1))``
  is −1 and ``Product(k, (k, 3, 1))`` is 1/2, where a reader's empty sum is 0 and empty product
  1), and sums ``k = 1/2, 3/2, …`` over a non-integer range;
* a ``Sum`` or ``Product`` over an infinite range whose terms hold a free symbol: whether it
  converges depends on that symbol, and SymPy's value of a divergent series is a convention
  (an infinite sum or product of numbers is decided by its value, or left undecided);
* an ``Integral`` with parameters (a symbol in a bound or in the integrand) over an infinite
  range, or of an integrand that is not continuous for every value of them: SymPy integrates
  ``1/x`` from 1 to ``y`` to ``log y`` also for ``y < 0``, where the range holds the pole;
* a ``Limit`` with parameters of a term with a kink or a jump: SymPy puts the point in
  (``lim_{x→y⁺} sign x = sign y``, false at ``y = 0``); a ``Limit`` of a term that jumps
  (``sign``, ``H``, ``floor``, ``Piecewise``, and any head ``discontinuity`` names), even at a
  number: SymPy takes the branch holding the point (``lim_{x→1⁻}`` of ``1 if x < 1 else 2`` is
  2 to SymPy, ``lim_{x→0⁻} li x`` is 0, where it is iπ); with parameters, of a cut head whose
  argument is not known real (``lim_{y→0⁻} √(x + iy) = √x`` was proved), or of ``b^e(x)`` with a
  base ``b`` in a parameter that may be 0 (``lim_{x→∞} y^(1/x) = 1`` was proved; 0 at y = 0);
* an ``Integral`` of ``δ`` with its mass at an end of the range or at a jump (``∫₀¹ δ = 1/2``
  to SymPy);
* a matrix whose size is not known to be a nonnegative integer (``Identity(k)`` for an integer
  ``k``: SymPy gives it the trace ``k`` also for ``k < 0``), and a ``Determinant`` or
  ``Permanent`` of a matrix whose size is not known positive: SymPy takes the determinant of a
  zero matrix to 0, and of a matrix of ones to 0 unless it is 1×1, also at size 0, where it is
  1 (the empty product): ``det 0₀ₓ₀ = 0`` was proved;
* a matrix power whose exponent is neither an integer literal nor known a positive integer:
  SymPy multiplies exponents, ``(A²)^(1/2)`` is ``A`` to it, where the principal root of
  ``(−I)² = I`` is ``I`` (``tr (A²)^(1/2) = tr A`` was proved), and takes ``0^k`` to ``0``
  also at ``k = 0``, where it is ``I`` (``tr 0₂ₓ₂^k = 0`` was proved for an integer k ≥ 0).

A derivative, sum, product, integral or limit of the plain kind is read as SymPy reads it.
"""

from __future__ import annotations

import sympy

# The heads whose value depends on a branch (the kernel's one list; ``branches`` decides them).
BRANCH_HEADS = (sympy.Max, sympy.Min, sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Piecewise)
# ... and every head with a kink or a jump: no derivative where it switches.
KINKED = (
    *BRANCH_HEADS,
    *(sympy.DiracDelta, sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod),
    *(sympy.re, sympy.im, sympy.arg, sympy.conjugate),
)


# Heads analytic wherever they have a value (entire or meromorphic): no jump whatever their
# arguments. An uninterpreted function (a smooth σ to the kernel) and matrix algebra too.
_ANALYTIC = (
    *(sympy.Add, sympy.Mul, sympy.exp, sympy.core.function.AppliedUndef),
    *(sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc, sympy.sinc),
    *(sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth, sympy.sech, sympy.csch),
    *(sympy.erf, sympy.erfc, sympy.erfi, sympy.Si, sympy.Shi, sympy.fresnels, sympy.fresnelc),
    *(sympy.gamma, sympy.digamma, sympy.trigamma, sympy.beta, sympy.factorial),
    *(sympy.RisingFactorial, sympy.FallingFactorial, sympy.binomial),
    *(sympy.airyai, sympy.airybi, sympy.airyaiprime, sympy.airybiprime),
    *(sympy.Derivative, sympy.Subs, sympy.Integral, sympy.Sum, sympy.Product, sympy.Limit),
    *(sympy.MatrixExpr, sympy.Indexed, sympy.Trace, sympy.Determinant, sympy.Tuple),
    sympy.matrices.expressions.matexpr.MatrixElement,
)
# ... analytic when their first argument (an order) is an integer: Jₙ, Iₙ, ψ⁽ⁿ⁾, ζ(s).
_INTEGER_ORDER = (sympy.besselj, sympy.besseli, sympy.polygamma)
# Heads with a branch cut on the real line, continuous along it (each checked at 50 digits at its
# branch points): no jump for real arguments; an argument off the real line may cross the cut
# (log(−1 + iy) jumps from −iπ to iπ at y = 0). Not here, for a jump where they have a value:
# acot, acoth (at 0), li (li(0⁻) = iπ, li(0) = 0), atan2, and every head not listed.
_CUT = (
    *(sympy.Pow, sympy.log),
    *(sympy.asin, sympy.acos, sympy.atan, sympy.asec, sympy.acsc),
    *(sympy.asinh, sympy.acosh, sympy.atanh, sympy.LambertW, sympy.loggamma),
    *(sympy.Ei, sympy.Ci, sympy.Chi, sympy.expint, sympy.polylog, sympy.zeta, sympy.hyper),
    *(sympy.erfinv, sympy.erfcinv, sympy.uppergamma, sympy.lowergamma),
    *(sympy.besselj, sympy.besseli, sympy.besselk, sympy.bessely, sympy.polygamma),
    *(sympy.elliptic_k, sympy.elliptic_e, sympy.elliptic_f, sympy.elliptic_pi),
    *(sympy.legendre, sympy.chebyshevt, sympy.chebyshevu, sympy.hermite, sympy.laguerre),
    *(sympy.jacobi, sympy.gegenbauer, sympy.assoc_legendre, sympy.assoc_laguerre),
)

# ... whose limits at a point on the cut SymPy takes on the side asked (checked at 50 digits);
# of the others (Ei, Ci, W, Li₂, K, ...) it puts the point in: ``lim_{y→0⁻} Ei(−1 + iy)`` is Ei(−1).
_ELEMENTARY_CUT = (sympy.Pow, sympy.log, sympy.asin, sympy.acos, sympy.atan, sympy.asec, sympy.acsc)
_ELEMENTARY_CUT += (sympy.asinh, sympy.acosh, sympy.atanh)


def discontinuity(node: sympy.Basic, complex_cuts: bool = False) -> str | None:
    """Why ``node``'s head may jump where it has a value (as a function of real variables), or
    None: an analytic head (``_ANALYTIC``; a power with an integer exponent or a positive base;
    ``Jₙ``, ``ψ⁽ⁿ⁾``, ``ζ(s)`` of an integer order), or a head of ``_CUT`` whose arguments are
    real (a symbol declared nothing is real, as everywhere in the kernel) — or, with
    ``complex_cuts`` (a limit at a number), any arguments of an ``_ELEMENTARY_CUT`` head.
    ``KINKED`` heads are the caller's."""
    if node.is_Atom or isinstance(node, sympy.logic.boolalg.Boolean):
        return None
    if isinstance(node, sympy.Pow) and (node.exp.is_integer or node.base.is_positive):
        return None
    if isinstance(node, _INTEGER_ORDER) and node.args[0].is_Integer:
        return None
    if isinstance(node, sympy.zeta) and len(node.args) == 1:
        return None
    if isinstance(node, _ANALYTIC):
        return None
    name = type(node).__name__
    if not isinstance(node, _CUT):
        return f"{name}, which is not known continuous where it has a value"
    if (complex_cuts and isinstance(node, _ELEMENTARY_CUT)) or all(_real(a) for a in node.args):
        return None
    return f"{name} of an argument not known real, which may cross its branch cut"


def _real(arg: sympy.Basic) -> bool:
    """Is ``arg`` real wherever it has a value, by SymPy's assumptions, with each real symbol (or
    one declared nothing) taken nonzero (1/x is real where it has a value; continuous there, as
    the caller checks its subterms, and real on a dense set, it is real)? A tuple: each entry."""
    if isinstance(arg, sympy.Tuple):
        return all(_real(a) for a in arg)
    try:
        return arg.xreplace(_nonzero_reals(arg)).is_extended_real is True
    except (TypeError, ValueError, AttributeError, RecursionError):
        return False


def _nonzero_reals(arg: sympy.Basic) -> dict:
    out = {}
    for s in getattr(arg, "free_symbols", ()):
        plain = s.assumptions0 in ({}, {"commutative": True})
        if isinstance(s, sympy.Symbol) and (plain or s.is_extended_real) and not s.is_zero:
            own = {k: v for k, v in s.assumptions0.items() if v is True}
            out[s] = sympy.Dummy(s.name, **{**own, "real": True, "nonzero": True})
    return out


class _Convention(Exception):
    """One of the terms the module docstring lists (its message says which, and why)."""


def convention_of(formula: sympy.Basic) -> str | None:
    """Why ``formula``'s meaning rests on a SymPy convention (a derivative at a kink, a reversed
    or non-integer range, an infinite sum or product with parameters), or None."""
    if not isinstance(formula, sympy.Basic) or not formula.has(
        sympy.Derivative, sympy.Sum, sympy.Product, sympy.Integral, sympy.Limit, sympy.MatrixExpr
    ):
        return None
    try:
        traversal = sympy.preorder_traversal(formula)
        for node in traversal:
            if isinstance(node, sympy.MatrixExpr):
                _matrix_size(node)
            elif isinstance(node, (sympy.Determinant, sympy.Permanent)):
                _empty_determinant(node)
            if isinstance(node, sympy.Subs) and _away_from_kinks(node):
                traversal.skip()  # a derivative at a point where no branch switches
            elif isinstance(node, sympy.Subs):
                _root_at_zero(node)
            elif isinstance(node, sympy.Derivative):
                _derivative(node)
            elif isinstance(node, (sympy.Sum, sympy.Product)):
                _bounds(node)
            elif isinstance(node, sympy.Integral):
                _integral(node)
            elif isinstance(node, sympy.Limit):
                _limit(node)
    except _Convention as exc:
        return str(exc)
    return None


SWITCHING = (sympy.Max, sympy.Min, sympy.Abs, sympy.sign, sympy.Heaviside)
_BINDERS = (sympy.Subs, sympy.Integral, sympy.Sum, sympy.Product, sympy.Lambda, sympy.Limit)
_BINDERS += (sympy.concrete.expr_with_limits.ExprWithLimits,)


def _away_from_kinks(node: sympy.Subs) -> bool:
    """``Subs(Derivative(...), x, c)`` at a rational point where every Max/Min/|·|/sign/H of
    the derivative switches nowhere (each argument, each difference of Max/Min arguments, a
    nonzero rational there; continuous, so nonzero nearby): one smooth branch around c, whose
    derivative is the classical one (relu'(1) = 1). Any other kinked head, or a point that is
    not rational, or a binder inside (a Sum's range, an inner Subs or Integral moves the kink
    and is checked where it stands): not known."""
    point = dict(zip(node.variables, node.point, strict=True))
    if not all(isinstance(v, sympy.Rational) for v in point.values()):
        return False
    free = node.expr.free_symbols
    if not set(point) <= free or not all(s in point for s in free if isinstance(s, sympy.Symbol)):
        return False
    if any(isinstance(n, _BINDERS) for n in sympy.preorder_traversal(node.expr)):
        return False
    for sub in sympy.preorder_traversal(node.expr):
        if isinstance(sub, KINKED) and not isinstance(sub, SWITCHING):
            return False
        if not isinstance(sub, SWITCHING) and discontinuity(sub) is not None:
            return False  # acot, atan2, a cut crossed: judged by _derivative
        if _root(sub) and not (sub.base.xreplace(point).is_Rational and sub.base.xreplace(point)):
            return False  # √(x² + y²) at (0, 0): no derivative (judged by _root_at_zero)
        if isinstance(sub, SWITCHING):
            args = sub.args
            sides = [a - b for i, a in enumerate(args) for b in args[i + 1 :]]
            for side in sides if isinstance(sub, (sympy.Max, sympy.Min)) else args[:1]:
                value = side.xreplace(point)
                if not isinstance(value, sympy.Rational) or value == 0:
                    return False
    return True


def _root(sub: sympy.Basic) -> bool:
    """``b^e`` with ``e`` not known an integer or ≥ 1 (√b, b^y): maybe no derivative at b = 0."""
    if not isinstance(sub, sympy.Pow) or sub.exp.is_integer:
        return False
    return (sub.exp - 1).is_nonnegative is not True


def _root_at_zero(node: sympy.Subs) -> None:
    """A derivative taken at a point (``Subs``) where the base of a root it differentiates may
    be 0: the derivative may not exist there, whatever SymPy's rewrite makes of it."""
    if not node.expr.has(sympy.Derivative):
        return
    point = dict(zip(node.variables, node.point, strict=True))
    for sub in sympy.preorder_traversal(node.expr):
        if isinstance(sub, sympy.Derivative):
            roots = [r for r in sympy.preorder_traversal(sub.expr) if _root(r)]
            for r in roots:
                if not (r.base.free_symbols & set(sub.variables)):
                    continue
                value = r.base.xreplace(point)
                if value.is_zero is not False or value.free_symbols:
                    raise _Convention(
                        f"{_short(node)} takes a derivative at a point where the base of "
                        f"{_short(r)} may be 0, where it may have none (√(x² + y²) at (0, 0) "
                        "is |x| along y = 0, whose derivative at 0 is sign(0) = 0 to SymPy): "
                        "state it at a point where the base is nonzero"
                    )


def _derivative(node: sympy.Derivative) -> None:
    variables = set(node.variables)
    for sub in sympy.preorder_traversal(node.expr):
        if not (getattr(sub, "free_symbols", set()) & variables):
            continue
        if isinstance(sub, KINKED):
            raise _Convention(
                f"{_short(node)} differentiates {type(sub).__name__}, which has a kink "
                "or a jump; SymPy's derivative there is a convention (max(0, x)' is "
                "Heaviside(x), 1/2 at 0, where no derivative exists): state the derivative "
                "where it exists (a one-sided Limit of the difference quotient, or the "
                "derivative of each branch)"
            )
        why = discontinuity(sub)
        if why is not None:
            raise _Convention(
                f"{_short(node)} differentiates {why}; SymPy's derivative is its formula's "
                "value, also where the term jumps (acot'(0) = −1 to SymPy, where acot jumps "
                "from −π/2 to π/2; d/dy log(−1 + iy) at 0 crosses log's cut): state the "
                "derivative where it exists"
            )


def _bounds(node: sympy.Sum | sympy.Product) -> None:
    what = "sum" if isinstance(node, sympy.Sum) else "product"
    for limit in node.limits:
        if len(limit) != 3:
            raise _Convention(f"{_short(node)} has a {what} without both bounds")
        index, lo, hi = limit
        infinite = lo.is_infinite or hi.is_infinite
        if infinite:
            parameters = node.function.free_symbols - set(node.variables)
            if parameters:
                raise _Convention(
                    f"{_short(node)} is an infinite {what} whose terms hold "
                    f"{', '.join(sorted(map(str, parameters)))}; whether it converges depends "
                    "on them and SymPy's value of a divergent series is a convention: "
                    "state it for a finite range, or for numbers"
                )
            upward = (lo.is_integer or lo is sympy.S.NegativeInfinity) and hi is sympy.S.Infinity
            if not (upward or (lo is sympy.S.NegativeInfinity and hi.is_integer)):
                raise _Convention(
                    f"{_short(node)}: an infinite {what} runs from an integer or −∞ "
                    "up to ∞ (or from −∞ up to an integer)"
                )
            continue
        if lo.is_integer is not True or hi.is_integer is not True:
            raise _Convention(
                f"{_short(node)} has bounds not known to be integers; SymPy would "
                f"{what} over {index} = {lo}, {lo} + 1, … (declare the bounds integer=True)"
            )
        if (hi - lo + 1).is_nonnegative is not True:
            raise _Convention(
                f"{_short(node)}: {hi} ≥ {lo} − 1 is not known; SymPy reads a reversed "
                f"range by Karr's convention (Sum(1, (k, 3, 1)) = −1, not the empty {what}): "
                "declare the bounds so that the range is never reversed (e.g. n "
                "nonnegative=True)"
            )


# Integrands continuous in every variable, for every value of every symbol: built from these.
_CONTINUOUS = (sympy.Add, sympy.Mul, sympy.exp, sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)
_CONTINUOUS += (sympy.tanh, sympy.atan, sympy.erf, sympy.erfc, sympy.Abs, sympy.Max, sympy.Min)


def _integral(node: sympy.Integral) -> None:
    """An integral with parameters (a symbol in a bound, or in the integrand besides its
    variables) is read as SymPy reads it only over finite bounds of a continuous integrand: SymPy
    integrates ``1/x`` from 1 to ``y`` to ``log(y)``, also for ``y < 0``, where the range holds
    the pole and the integral has no value; ``∫₀^∞ e^{−yx}`` converges for ``y > 0`` alone."""
    _delta_at_a_jump(node)
    variables = set(node.variables)
    bounds = [b for limit in node.limits for b in limit[1:]]
    parameters = (node.function.free_symbols - variables) | set().union(
        *(b.free_symbols for b in bounds)
    )
    if not parameters:
        return
    if len(bounds) != 2 * len(node.limits) or any(b.is_finite is not True for b in bounds):
        raise _Convention(
            f"{_short(node)} has parameters {', '.join(sorted(map(str, parameters)))} and a "
            "bound not known finite: whether it converges depends on them"
        )
    for sub in sympy.preorder_traversal(node.function):
        if sub.is_Atom:
            continue
        power = isinstance(sub, sympy.Pow) and sub.exp.is_integer and sub.exp.is_nonnegative
        if not (power or isinstance(sub, _CONTINUOUS)):
            raise _Convention(
                f"{_short(node)} has parameters {', '.join(sorted(map(str, parameters)))} and "
                f"an integrand with {type(sub).__name__}, which may have a pole or no real "
                "value inside the range for some of them (SymPy integrates 1/x from 1 to y to "
                "log(y), also for y < 0): state it for numbers, or for a continuous integrand"
            )


def _delta_at_a_jump(node: sympy.Integral) -> None:
    """An integral of ``δ`` with its mass at an end of the range, or at another jump: a
    convention (SymPy's ``∫₀¹ δ(x) dx`` is H(0) = 1/2; 1 and 0 are as common)."""
    jumps = [j for j in node.function.atoms(*JUMPING) if j.func is not sympy.DiracDelta]
    for at in (d.args[0] for d in node.function.atoms(sympy.DiracDelta)):
        for limit in (lim for lim in node.limits if lim[0] in at.free_symbols):
            ends = [b for b in limit[1:] if b.is_finite is not False]
            if (
                len(limit) != 3
                or any(at.xreplace({limit[0]: b}).is_zero is not False for b in ends)
                or any(limit[0] in j.free_symbols for j in jumps)
            ):
                raise _Convention(
                    f"{_short(node)} integrates δ({_short(at)}) with its mass at an end of the "
                    "range or at a jump: a convention (SymPy's ∫₀¹ δ(x) dx is H(0) = 1/2)"
                )


# The kinked heads that jump (|·|, max, min, re, im and conjugate are continuous).
_CONTINUOUS_KINKS = (sympy.Max, sympy.Min, sympy.Abs, sympy.re, sympy.im, sympy.conjugate)
JUMPING = tuple(h for h in KINKED if h not in _CONTINUOUS_KINKS)


def _limit(node: sympy.Limit) -> None:
    """A limit with parameters (at a point ``y``, or of a term in ``y``) of a term with a kink
    or a jump: SymPy puts the point in (``lim_{x→y⁺} sign x`` is ``sign(y)``, 0 at ``y = 0``,
    where the limit is 1). A limit of a term that jumps, even at a number: SymPy takes the
    branch holding the point, or a head's value there (``lim_{x→1⁻}`` of ``1 if x < 1 else 2``
    is 2 to SymPy, and ``lim_{x→0⁺} H(sin πx)`` is H(0) = 1/2, where both are 1)."""
    parameters = node.free_symbols
    term = node.args[0]
    kinked = next((s for s in sympy.preorder_traversal(term) if isinstance(s, KINKED)), None)
    if parameters and kinked is not None:
        raise _Convention(
            f"{_short(node)} has parameters {', '.join(sorted(map(str, parameters)))} and "
            f"{type(kinked).__name__}, which jumps: SymPy puts the point in (the limit of sign(x) "
            "at y from the right is sign(y), 0 at y = 0, where it is 1): state it for numbers"
        )
    jump = next((s for s in sympy.preorder_traversal(term) if isinstance(s, JUMPING)), None)
    if jump is not None:
        raise _Convention(
            f"{_short(node)} is a limit of {type(jump).__name__}, which jumps: SymPy takes the "
            "branch or the value at the point (the limit of 1 if x < 1 else 2 at 1 from the "
            "left is 2 to SymPy, where it is 1): state the limit of each branch"
        )
    variable = node.args[1]
    for sub in sympy.preorder_traversal(term):
        if parameters and _generic_power(sub, variable, parameters):
            raise _Convention(
                f"{_short(node)} has parameters and a power {_short(sub)} whose base may be 0: "
                "SymPy computes b^e as exp(e·log b), for b ≠ 0 only (the limit of y^(1/x) at ∞ "
                "is 1 to SymPy, where at y = 0 it is 0): state it for a base known nonzero"
            )
        if variable not in getattr(sub, "free_symbols", ()) or isinstance(sub, KINKED):
            continue
        why = discontinuity(sub, complex_cuts=not parameters)
        if why is not None:
            raise _Convention(
                f"{_short(node)} is a limit of {why}: SymPy puts the point in where the term may "
                "jump (the limit of li(x) at 0 from the left is 0 to SymPy, where it is iπ; the "
                "limit of √(y + ix) at x → 0⁻ is √y, false for y < 0): state it where the term is "
                "continuous"
            )


def _generic_power(sub: sympy.Basic, variable: sympy.Symbol, parameters: set) -> bool:
    """``b^e`` with ``e`` in the limit's variable, not an integer, and ``b`` in a parameter and
    maybe 0: SymPy's limit holds for ``b ≠ 0`` only."""
    if not isinstance(sub, sympy.Pow) or sub.exp.is_integer or variable not in sub.exp.free_symbols:
        return False
    return bool(sub.base.free_symbols & parameters) and sub.base.is_nonzero is not True


def _matrix_size(node: sympy.MatrixExpr) -> None:
    power = node.exp if isinstance(node, sympy.MatPow) else sympy.S.One
    if not (power.is_Integer or (power.is_integer and power.is_positive)):
        raise _Convention(
            f"{_short(node)} is a matrix power with exponent {_short(power)}, neither an integer "
            "nor known a positive integer; SymPy multiplies exponents ((A²)^(1/2) is A to it, "
            "where the principal root of (−I)² = I is I) and takes 0^k to 0 also at k = 0: "
            "state it for integer exponents, or declare k positive=True"
        )
    for size in map(sympy.sympify, node.shape):  # an explicit matrix's sizes are ints
        if not (size.is_integer and size.is_nonnegative):
            raise _Convention(
                f"{_short(node)} has a size {size} not known to be a nonnegative integer; SymPy "
                "computes with it all the same (the trace of Identity(k) is k also for k < 0): "
                "declare the size integer=True, nonnegative=True"
            )


def _empty_determinant(node: sympy.Expr) -> None:
    if isinstance(node.args[0], sympy.MatrixBase):
        return  # explicit entries: SymPy computes the determinant from them (1 at size 0)
    for inner in sympy.preorder_traversal(node.args[0]):  # diag(0ₘ, I₂) is 0 to SymPy at m = 0
        sizes = getattr(inner, "shape", ()) if isinstance(inner, sympy.MatrixExpr) else ()
        if any(sympy.sympify(size).is_positive is not True for size in sizes):
            raise _Convention(
                f"{_short(node)} is the {type(node).__name__.lower()} of a matrix holding "
                f"{_short(inner)}, whose size is not known positive; SymPy takes the determinant "
                "of a zero matrix to 0 (and of a matrix of ones not 1×1) also at size 0, where "
                "it is 1 (the empty product): declare the size positive=True"
            )


def _short(node: sympy.Basic) -> str:
    text = " ".join(sympy.sstr(node).split())
    return text if len(text) <= 60 else text[:57] + "..."
