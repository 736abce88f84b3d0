"""Names that print as something else: what is shown must be what is checked.

A formula's text prints a symbol or an undefined function by its name. A name printed as a
constant, a number or a formula's structure makes the text say another formula than the one
checked — a negative symbol named ``E`` is proved ``E < 0``, a zero one named ``1`` shows
``1 = 0``, a positive one named ``x**2 - 10`` ``x**2 - 10 > 0`` — and an undefined function named
as a function SymPy knows is read as that function: ``uninterpreted("exp")`` made
``exp(x + y) = exp(x)·exp(y)`` refuted. A checked fact holding such a name is ``unknown``
(``fact._fact``); the re-check refuses it in a manifest (``symbolic.evidence.manifest``, with
these tables).
"""

from __future__ import annotations

import functools
import re

import sympy
from sympy.core.function import AppliedUndef, FunctionClass
from sympy.core.symbol import Str

CONSTANT_NAMES = frozenset(
    "pi E I oo zoo nan EulerGamma GoldenRatio Catalan TribonacciConstant true false True "
    "False None Reals Integers Naturals Naturals0 Complexes EmptySet UniversalSet".split()
)
NUMBER_LIKE = re.compile(r"[-+]?(\d|\.\d)")  # a name that starts as a number reads as one
STRUCTURE = re.compile(
    r"\s|[=<>!&|~;:\u2190-\u21ff\u2200-\u22ff]"  # relations, connectives, ∀ ∃ ≤ ⇒ ...
    r"|\*\*|/|[-+*](?=[^\W_]|\()"  # x**2, a/b, x-1, 2*x (K^+ and M*_{law} stay names)
)
CALL = re.compile(r"([A-Za-z_]\w*)\(")
PRINTED_HEADS = frozenset(
    "sqrt tan Eq Ne Lt Gt Le Ge Matrix exp_polar re im arg floor ceiling Max Min Abs".split()
)


@functools.cache
def sympy_heads() -> frozenset:
    """The names of SymPy's own functions (``exp``, ``gamma``, ``besseli``, …), and more."""
    own = {n for n in dir(sympy) if isinstance(getattr(sympy, n, None), FunctionClass)}
    return frozenset(own) | PRINTED_HEADS


def name_problem(name: str, function: bool = False, heads: frozenset | None = None) -> str | None:
    """Why ``name`` (a symbol's, or with ``function`` an undefined function's) prints as
    something else, or None. ``heads``: the function names a formula's text can show."""
    heads = sympy_heads() if heads is None else heads
    if name in CONSTANT_NAMES or NUMBER_LIKE.match(name) or STRUCTURE.search(name):
        return f"the name {name[:40]!r} prints as a number, a constant or a formula's structure"
    if function and name in heads or any(m.group(1) in heads for m in CALL.finditer(name)):
        return f"the name {name[:40]!r} prints as a function the formula does not apply"
    return None


def misleading_name(formula: sympy.Basic, words_of=None) -> str | None:
    """The first name of ``formula`` that prints as something else (``name_problem``), or None.
    ``words_of``: the undefined function whose arguments are words, not names (an assumption
    stated in words), skipped."""
    stack = [formula]
    while stack:
        n = stack.pop()
        if isinstance(n, AppliedUndef) and words_of is not None and n.func == words_of:
            continue
        problem = None
        if isinstance(n, AppliedUndef):
            problem = name_problem(n.func.__name__, function=True)
        elif isinstance(n, (sympy.Symbol, sympy.MatrixSymbol, Str)):
            problem = name_problem(str(n.name))
        if problem:
            return problem
        stack += [a for a in n.args if isinstance(a, sympy.Basic)]
    return None
