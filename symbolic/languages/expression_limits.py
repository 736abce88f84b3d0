"""The bounds on user text and on what SymPy builds from it (the activation parser's limits).

The work of a parse is bounded whatever the input: the text is measured before ``ast.parse``
sees it, the tree before SymPy sees it, and every constant is estimated in float64 before SymPy
could evaluate it exactly or to high precision; ``MAX_BUILD_SECONDS`` is the last guard.
"""

from __future__ import annotations

from decimal import Decimal

import sympy

# Limits on the input, checked before ast.parse (whose own recursion fails near ~1000 levels).
MAX_INPUT_CHARS = 2000
MAX_TOKENS = 600  # names, numbers, operators and brackets
MAX_DEPTH = 40  # bracket nesting, and AST nesting where a chain a+b-c or a*b/c counts once
# Limits on the tree, checked before SymPy builds anything.
MAX_NODES = 400  # AST expression nodes
MAX_MINMAX_ARGS = 12  # arguments of max/min in total, relu-family calls included: SymPy's
#                       Max/Min compare their arguments pairwise (32 arguments take ~1 s)
MAX_PIECEWISE_CALLS = 8  # calls of piecewise table entries (elu, selu) ...
MAX_PIECEWISE_NESTED = 2  # ... whose argument holds at most this many Piecewise already: SymPy
#                           rewrites the condition `arg > 0` case by case (elu^4(x) takes ~2 s)
# Limits on numbers.
MAX_LITERAL = 10**12  # |typed number|
MIN_LITERAL = Decimal("1e-100")  # smallest nonzero |typed number|
MAX_LITERAL_DIGITS = 30  # significant digits of a typed number
MAX_EXPONENT = 100  # |exponent| when the exponent of ** is a constant, also after SymPy
#                     combines powers: ((x**2)**2)**2... would reach x**(2**39)
MAX_EXPONENT_RATIONAL = 10**4  # numerators/denominators in a variable exponent or a power of x,
#                                and the degree of a root of a number: SymPy's gcd and root
#                                search work in that degree (10**5 takes ~0.5 s; see below)
MAX_CONSTANT = 1e306  # |every constant subexpression|, estimated in float64 ...
MIN_CONSTANT = 1e-300  # ... and nonzero ones at least this: SymPy's evalf stays cheap
MAX_RATIONAL_BITS = 2048  # numerator and denominator of an exact constant (~600 digits)
MAX_CONSTANT_SIZE = 60  # SymPy nodes of any other constant: max, min, abs and elu compare it by
#                         evalf, which walks the tree at rising precision (pi - 3 +
#                         mish(mish(mish(gelu_tanh(-pi)))), 211 nodes, takes ~4 s in max(x, .))
# Limits on the SymPy result, so that printing, substitution and simplification stay cheap.
MAX_TREE_SIZE = 2000  # nodes of the expression tree (gelu(gelu(...)) doubles it per level)
# The last guard, for SymPy paths the bounds above miss: the assumption queries made while
# building (max, abs, elu ask whether tanh(...) is finite) can expand their arguments, e.g.
# (x + sqrt(x) + exp(x) + erf(x) + 1)**20, without end. Typical input builds in milliseconds;
# the slowest valid input found by fuzzing took about 1 s.
MAX_BUILD_SECONDS = 2.0  # CPU time


class Reject(Exception):
    """A problem with a constant, reported by the caller with the node's position."""


class NearZero(Reject):
    """A constant whose sign no enclosure within the parser's precision decides: it may be
    exactly 0 written another way (``log(8) - 3*log(2)``), which the caller may prove."""

    def __init__(self, message: str, constant: sympy.Expr) -> None:
        super().__init__(message)
        self.constant = constant


def number_text(n: int) -> str:
    return str(n) if n < 10**15 else f"a {len(str(n))}-digit number"


def short(e: sympy.Expr) -> str:
    text = str(e)
    return text if len(text) <= 40 else text[:37] + "..."
