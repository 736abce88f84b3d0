"""Where SymPy's assumptions system is trusted, and where a point must be tried first.

SymPy's ``is_positive`` of a symbolic expression is derived by each head's own handler, and
some handlers are wrong: ``atan(n)`` of a nonnegative integer n is called positive (atan 0 = 0),
``binomial(n, o)`` nonzero (binomial(2, 3) = 0), ``s² − 2`` nonzero for an irrational s (√2),
``((−1)^{n/2})²`` positive. ``expand`` evaluates ``sign``, ``Max`` and ``Abs`` through the same
handlers.

* ``sign_trusted(e)``: ``check_sign`` takes SymPy's sign of ``e`` only when ``e`` is built from
  real symbols (real or integer, odd or even, with a sign at most) and numbers by ``+``, ``×``,
  integer powers (or powers of a positive base), ``exp``, ``log`` of a positive argument,
  ``|·|``, ``max`` and ``min`` — handlers short enough to read;
* ``rewrite_trusted(e)``: ``zero_verdict`` lets SymPy's rewrites decide ``e = 0`` before a point
  has been tried only for those forms and the smooth elementary functions and branches of the
  activation table; anything else is tried at a point first (a wrong rewrite to 0 is then
  refuted by the point, never proved).
"""

from __future__ import annotations

import sympy
from sympy.logic.boolalg import Boolean

from symbolic.kernel.logic import kind_and_sign

_SIGN_HEADS = (
    sympy.Add,
    sympy.Mul,
    sympy.Pow,
    sympy.exp,
    sympy.log,
    sympy.Abs,
    sympy.Max,
    sympy.Min,
)
_REWRITE_HEADS = _SIGN_HEADS + (
    sympy.Piecewise,
    sympy.Heaviside,
    sympy.sign,
    sympy.erf,
    sympy.erfc,
    sympy.tanh,
    sympy.sinh,
    sympy.cosh,
    sympy.sin,
    sympy.cos,
    sympy.Tuple,
    sympy.functions.elementary.piecewise.ExprCondPair,
)


def _trusted(e: sympy.Basic, heads: tuple) -> bool:
    for node in sympy.preorder_traversal(e):
        if isinstance(node, sympy.Symbol):
            if kind_and_sign(node) is None and not _parity(node):  # prime, irrational, ...
                return False
        elif isinstance(node, (sympy.Rational, sympy.NumberSymbol)):
            continue
        elif isinstance(node, Boolean) and heads is _REWRITE_HEADS:
            continue  # a branch's condition: relations and connectives of the trusted terms
        elif not isinstance(node, heads):
            return False
        elif isinstance(node, sympy.Pow) and not (node.exp.is_integer or node.base.is_positive):
            return False
        elif isinstance(node, sympy.log) and not node.args[0].is_positive:
            return False
    return True


def _parity(v: sympy.Symbol) -> bool:
    """An odd or even integer, with a sign at most: ``kind_and_sign`` of the same symbol
    without its parity (SymPy reads odd as a nonzero integer, even as an integer)."""
    given = dict(getattr(v, "_assumptions_orig", {}) or {})
    if not (given.pop("odd", None) or given.pop("even", None)):
        return False
    return kind_and_sign(sympy.Symbol("t", integer=True, **given)) is not None


def sign_trusted(e: sympy.Basic) -> bool:
    """Is SymPy's sign of ``e`` (every value of its symbols) taken as decided?"""
    return _trusted(e, _SIGN_HEADS)


def rewrite_trusted(e: sympy.Basic) -> bool:
    """May SymPy's rewrites decide ``e = 0`` before a point is tried?"""
    return _trusted(e, _REWRITE_HEADS)
