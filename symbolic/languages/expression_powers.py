"""Powers in user activations, built by SymPy and checked where SymPy may judge a sign by a float.

SymPy rewrites ``(c²)^(1/2)`` as ``|c|`` and takes ``|c|`` as ``c`` when a float says ``c ≥ 0``;
for a closed number whose float value is blind to its sign (``log(cos(1e-60)) ≈ −5·10⁻¹²¹``:
cos(10⁻⁶⁰) rounds to 1.0) that is the wrong sign, and nothing after the build can see it.
"""

from __future__ import annotations

import sympy

from symbolic.activations import z
from symbolic.kernel import (
    CannotEnclose,
    has_closed_irrational,
    literal,
    literal_replace,
    tight_enclosure,
)
from symbolic.languages.expression_limits import Reject, short

SAMPLE_POINTS = tuple(sympy.Rational(v) for v in ("1", "-1", "1/2", "-2"))
REWRITE_CHECK_BITS = 1024


def power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr:
    """``base**exponent``, where SymPy rewrote a power of a base holding a closed irrational
    number, checked against the power as written at a few points by the kernel's enclosures:
    SymPy takes |c| as c by a float (``(log(cos(1e-60))²)^(1/2)`` came out ``log(cos(1e-60))``,
    a negative number), which no later step can see; a rewrite that differs is refused."""
    result = base**exponent
    written = literal(sympy.Pow, (base, exponent))
    if exponent.is_Integer or not has_closed_irrational(base) or result == written:
        return result
    for point in SAMPLE_POINTS if result.has(z) or base.has(z) else (sympy.Integer(0),):
        at_point = {z: point}
        difference = literal(
            sympy.Add,
            (
                literal_replace(result, at_point),
                literal(sympy.Mul, (sympy.Integer(-1), literal_replace(written, at_point))),
            ),
        )
        try:
            box = tight_enclosure(difference, max_bits=REWRITE_CHECK_BITS)
        except CannotEnclose:
            continue
        if box.excludes_zero:
            where = f" at x = {point}" if result.has(z) or base.has(z) else ""
            raise Reject(
                f"is rewritten by SymPy to {short(result)}, which differs from it{where} "
                "(a sign SymPy judged by a float); write the power another way, "
                "e.g. abs(c) for sqrt(c**2)"
            )
    return result
