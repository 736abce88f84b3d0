"""What the kernel accepts: SymPy's own node types, numbers as their exact values.

``admitted_input(e, name)`` is called by every checker entry point on what it is given:

* every node of ``e`` must be an instance of a class SymPy itself defines (looked up by module and
  name, so a user subclass of ``Expr``, ``Symbol`` or ``Function`` — whose ``_eval_simplify`` or
  ``_eval_is_positive`` could say anything — is refused by name), of the kernel's ``ForAll`` /
  ``Exists``, or an undefined function made by ``sympy.Function(name, **assumptions)`` (as
  ``symbolic.uninterpreted`` makes them) carrying no methods of its own;
* ``nan`` and ``zoo`` are refused (not numbers), and so is a division by an exact 0;
* a SymPy ``Float`` is replaced by its exact binary value (``Rational(*f.as_integer_ratio())``),
  so that no later step rounds: ``Float('0.1') − 1/10`` is 1/180143985094819840, never 0.

Refusals raise ``InvalidArgument`` naming the argument and the class.
"""

from __future__ import annotations

import sys

import sympy
from mpmath.libmp import to_rational
from sympy.core.function import AppliedUndef, UndefinedFunction

from symbolic.errors import InvalidArgument
from symbolic.kernel.logic import Exists, ForAll, literal_replace

_CHECKED: dict[type, bool] = {}
MAX_NUMBER_BITS = 12_000  # ~3,600 digits: Python prints no integer past 4,300 digits
_PLAIN_FUNCTION_METHODS = frozenset(
    k for k, v in vars(sympy.Function("probe")).items() if callable(v)
)


def _sympy_own(cls: type) -> bool:
    """Is ``cls`` the class SymPy defines under its module and name (not a look-alike)?"""
    module = getattr(cls, "__module__", None) or ""
    if not (module == "sympy" or module.startswith("sympy.")):
        return False
    owner: object = sys.modules.get(module)
    for part in cls.__qualname__.split("."):
        owner = getattr(owner, part, None)
    return owner is cls


def _undefined_function(cls: type) -> bool:
    """An undefined function made by ``sympy.Function(name, ...)`` with no methods added."""
    if type(cls) is not UndefinedFunction or not issubclass(cls, AppliedUndef):
        return False
    return not any(callable(v) and k not in _PLAIN_FUNCTION_METHODS for k, v in vars(cls).items())


def accepted_class(cls: type) -> bool:
    known = _CHECKED.get(cls)
    if known is None:
        known = cls in (ForAll, Exists) or _sympy_own(cls) or _undefined_function(cls)
        _CHECKED[cls] = known
    return known


def _nodes(e: sympy.Basic):
    if isinstance(e, sympy.MatrixBase):
        for entry in e:
            yield from _nodes(entry)
        return
    yield from sympy.preorder_traversal(e)


def exact_float(f: sympy.Float) -> sympy.Rational:
    """A SymPy ``Float`` as the rational number its binary digits denote."""
    if not f.is_finite:
        raise InvalidArgument(f"{f} is not a real number")
    p, q = to_rational(f._mpf_)
    return sympy.Rational(p, q)


def admitted_input(e: sympy.Basic, name: str = "expr") -> sympy.Basic:
    """``e`` with every ``Float`` made exact, after checking that the kernel may read it."""
    if not isinstance(e, (sympy.Basic, sympy.MatrixBase)):
        raise InvalidArgument(f"{name}={e!r:.60}: expected a SymPy object")
    floats = set()
    for node in _nodes(e):
        cls = type(node)
        if not accepted_class(cls):
            raise InvalidArgument(
                f"{name}: {cls.__module__}.{cls.__qualname__} is not one of SymPy's own classes; "
                "the kernel reads only SymPy's node types (use symbolic.uninterpreted for an "
                "arbitrary function)"
            )
        if node is sympy.nan or node is sympy.zoo:
            raise InvalidArgument(f"{name}: {node} is not a number (a division by 0, or ∞ − ∞?)")
        if isinstance(node, sympy.Float):
            floats.add(node)
        if (
            isinstance(node, sympy.Rational)
            and max(abs(int(node.p)).bit_length(), int(node.q).bit_length()) > MAX_NUMBER_BITS
        ):
            raise InvalidArgument(f"{name}: a number of more than {MAX_NUMBER_BITS} bits")
        if isinstance(node, sympy.Symbol) and (
            node.is_infinite or node.is_finite is False or _extended(node)
        ):
            raise InvalidArgument(
                f"{name}: {node} is declared infinite or extended real (it may be ±∞, where "
                "u − u = 0 fails); the kernel reads numbers: declare it real"
            )
        if isinstance(node, sympy.log) and len(node.args) != 1:  # SymPy reads args[0] alone
            raise InvalidArgument(  # (log(2, -8) would be real): the base is no argument here
                f"{name}: {sympy.sstr(node)[:60]} has a base; write log(x)/log(b)"
            )
        if isinstance(node, sympy.Pow) and node.base == 0 and node.exp.is_negative:
            raise InvalidArgument(f"{name}: {sympy.sstr(node)} divides by 0")
        if isinstance(node, sympy.Subs) and _sequential_trap(node):
            raise InvalidArgument(
                f"{name}: {sympy.sstr(node)[:60]} substitutes variables that occur in its own "
                "points; SymPy evaluates a Subs one variable after the other "
                "(Subs(f(a, b), (a, b), (b, a)) comes out f(a, a)): substitute into fresh symbols "
                "first"
            )
    if not floats:
        return e
    exact = {f: exact_float(f) for f in floats}
    if isinstance(e, sympy.MatrixBase):
        return e.applyfunc(lambda entry: _replace(entry, exact))
    return _replace(e, exact)


def _extended(s: sympy.Symbol) -> bool:
    """Declared an extended real (``extended_real``, ``extended_positive``, ``noninteger``, ...):
    it ranges over ℝ ∪ {±∞} too, where SymPy's own rewrites (``u − u`` is built as 0, ``u/u`` as
    1) do not hold. A symbol declared nothing ranges over ℝ (``docs/api.md``)."""
    return s.is_extended_real is True and s.is_finite is not True


def _sequential_trap(node: sympy.Subs) -> bool:
    """A ``Subs`` whose value SymPy gets wrong: ``doit`` substitutes the variables in turn, so a
    point that mentions another of the variables is rewritten again (a swap becomes a copy)."""
    variables = set(node.variables)
    return len(variables) > 1 and any(p.free_symbols & variables for p in node.point)


def _replace(e: sympy.Basic, exact: dict) -> sympy.Basic:
    """Floats replaced without evaluating anything else (an unevaluated power stays one)."""
    return literal_replace(e, exact)


def denominators(*exprs: sympy.Basic) -> tuple[sympy.Expr, ...]:
    """The bases of the negative powers in ``exprs`` that depend on a variable: where one of them
    is 0 the formula is undefined, and an identity is claimed only where none is."""
    found: list[sympy.Expr] = []
    for e in exprs:
        for node in _nodes(e) if isinstance(e, (sympy.Basic, sympy.MatrixBase)) else ():
            if (
                isinstance(node, sympy.Pow)
                and node.exp.is_negative
                and node.base.free_symbols
                and node.base not in found
            ):
                found.append(node.base)
    return tuple(found)


def as_input(value: object, name: str = "expr") -> sympy.Basic:
    """A checker's argument as SymPy: a Python int as an ``Integer``, a float as its exact binary
    value (never ``nsimplify``: 0.1 is 3602879701896397/36028797018963968), SymPy objects
    through ``admitted_input``; anything else refused."""
    if isinstance(value, bool):
        raise InvalidArgument(
            f"{name}={value!r}: a Python bool is not a number (use sympy.true in a formula)"
        )
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidArgument(f"{name}={value!r}: not a real number")
        return sympy.Rational(*value.as_integer_ratio())
    if not isinstance(value, (sympy.Basic, sympy.MatrixBase)):
        raise InvalidArgument(
            f"{name}={value!r:.60}: expected a SymPy expression or a number "
            "(build formulas from sympy.symbols; text is never parsed)"
        )
    return admitted_input(value, name)
