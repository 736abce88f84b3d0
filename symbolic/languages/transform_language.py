"""The transform language: ``--transform "Q -> a*Q, K -> K/a"`` with ``--param "a > 0"``.

A transform is a simultaneous substitution of a layer's parameters, ``TARGET -> c * SOURCE``
separated by commas:

* ``TARGET`` is a parameter (``Q``) or one row of it, a unit (``Q[j]`` for every unit j, or a
  fixed unit ``Q[0]``); the parameters not named are left alone;
* the right side is a coefficient times one parameter (or row) of the same shape: numbers, the
  parameter of ``--param`` (default ``a > 0``; also ``a < 0``, ``a != 0``), ``+ - * /`` and
  ``**`` with a number as exponent (``a**(-2)*K``, ``K/a``, ``-Q``, ``K``).

Discrete transforms have no parameter (``Q -> K, K -> Q``); one-parameter ones do. Parsed by a
whitelist of ``ast`` nodes (the text becomes a dict display ``{Q: K, K: Q}`` of equal columns),
bounded, and checked against the layer; each rejection is a one-line ``InvalidExpression``.

>>> from symbolic.languages.layer_language import table_layer
>>> t = parse_transform("Q -> a*Q, K -> a**(-2)*K", table_layer("gated"))
>>> [(s.target.name, s.coefficient) for s in t.substitutions]
[('Q', a), ('K', a**(-2))]
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sympy

from symbolic.activations import ACTIVATIONS
from symbolic.errors import InvalidExpression
from symbolic.languages.domain_sign import no_root_in_domain
from symbolic.languages.layer_language import (
    Layer,
    LayerTextChecks,
    layer_error,
    parsed_tree,
    typed_number,
)
from symbolic.limits import BudgetExceeded, deadline

MAX_TRANSFORM_CHARS = 500
MAX_EXPONENT = 12  # |exponent| of a power in a coefficient, also once powers are combined
MAX_NUMBER_BITS = 128  # numerator and denominator of a number a coefficient builds
MAX_UNIT = 7  # the largest fixed unit index (Q[7]); explicit checks use n = index + 1 units
DEFAULT_PARAM = "a > 0"
_DOMAINS = {
    ast.Gt: ("positive", "a > 0"),
    ast.Lt: ("negative", "a < 0"),
    ast.NotEq: ("nonzero", "a != 0"),
}


@dataclass(frozen=True)
class Ref:
    """A parameter, or one of its rows: ``index`` is the unit symbol's name or a fixed row."""

    name: str
    index: str | int | None = None

    def __str__(self) -> str:
        return self.name if self.index is None else f"{self.name}[{self.index}]"


@dataclass(frozen=True)
class Substitution:
    target: Ref
    source: Ref
    coefficient: sympy.Expr


@dataclass(frozen=True)
class Transform:
    text: str
    substitutions: tuple[Substitution, ...]
    parameter: sympy.Symbol
    domain: str  # "a > 0"

    @property
    def one_parameter(self) -> bool:
        return any(self.parameter in s.coefficient.free_symbols for s in self.substitutions)

    @property
    def unit_index(self) -> str | None:
        """The name of the unit index (``j`` in ``Q[j]``), or None."""
        return next(
            (s.target.index for s in self.substitutions if isinstance(s.target.index, str)), None
        )

    @property
    def fixed_units(self) -> tuple[int, ...]:
        return tuple(
            sorted(
                {
                    r.index
                    for s in self.substitutions
                    for r in (s.target, s.source)
                    if isinstance(r.index, int)
                }
            )
        )

    @property
    def indexed(self) -> bool:
        return any(s.target.index is not None for s in self.substitutions)

    def per_unit(self) -> Transform | None:
        """The same scalings unit by unit (``Q -> a*Q`` becomes ``Q[j] -> a*Q[j]``), when every
        substitution maps a parameter with units to itself; else None."""
        if self.indexed or any(s.source != s.target for s in self.substitutions):
            return None
        subs = tuple(
            Substitution(Ref(s.target.name, "j"), Ref(s.source.name, "j"), s.coefficient)
            for s in self.substitutions
        )
        return Transform(self.shown_of(subs), subs, self.parameter, self.domain)

    def shown(self) -> str:
        return self.shown_of(self.substitutions)

    @staticmethod
    def shown_of(substitutions) -> str:
        return ", ".join(
            f"{s.target} -> {_coefficient_text(s.coefficient, s.source)}" for s in substitutions
        )


def _coefficient_text(c: sympy.Expr, ref: Ref) -> str:
    if c == 1:
        return str(ref)
    if c == -1:
        return f"-{ref}"
    if c.is_Pow and c.exp == -1 and c.base.is_Atom:
        return f"{ref}/{sympy.sstr(c.base)}"
    return f"{sympy.sstr(c)}*{ref}" if c.is_Atom else f"({sympy.sstr(c)})*{ref}"


def parse_param(text: str) -> sympy.Symbol:
    """``a > 0`` / ``a < 0`` / ``a != 0``: the transform's parameter, its domain as assumptions."""
    tree, checks = parsed_tree(text, "--param", 40)
    ok = (
        isinstance(tree, ast.Compare)
        and len(tree.ops) == 1
        and type(tree.ops[0]) in _DOMAINS
        and isinstance(tree.left, ast.Name)
        and isinstance(tree.comparators[0], ast.Constant)
        and tree.comparators[0].value == 0
        and not isinstance(tree.comparators[0].value, bool)
    )
    name = tree.left.id if ok else ""
    if (
        not ok
        or not name.isidentifier()
        or not name[:1].islower()
        or name in ("x", "j")
        or name.startswith("_")
        or len(name) > 12
    ):
        raise checks.error(
            "expected a lower-case name compared with 0: 'a > 0', 'a < 0' or 'a != 0'"
        )
    if reserved_name(name):
        raise checks.error(
            f"{name!r} names something of its own in the proofs (a size d, n, the output "
            "column o, a sum index k0, k1, …, a constant e, pi, a function or activation); "
            "call the parameter e.g. a, b or c"
        )
    kind = _DOMAINS[type(tree.ops[0])][0]
    return sympy.Symbol(name, real=True, **{kind: True})


# the engine's own symbols (sizes d, n, the output column o, the sums' indices k0, k1, …),
# SymPy's constants and the functions a formula shows: a parameter of one of these names printed
# as the other (every n ≥ 1 beside a scale n) or made the kernel refuse the claim (unknown)
_RESERVED = frozenset(
    {"d", "n", "o", "e", "pi", "oo", "zoo", "nan", "sigma", "exp", "log", "ln", "sqrt", "erf"}
    | {"sin", "cos", "tan", "tanh", "sinh", "cosh", "abs", "max", "min", "sign", "Max", "Min"}
)


def reserved_name(name: str) -> bool:
    """Is ``name`` one the proofs use for something else (see ``_RESERVED``), a sum index
    (``k0``, ``k12``) or an activation of the table?"""
    return name in _RESERVED or name in ACTIVATIONS or (name[:1] == "k" and name[1:].isdigit())


def domain_text(parameter: sympy.Symbol) -> str:
    op = ">" if parameter.is_positive else "<" if parameter.is_negative else "!="
    return f"{parameter.name} {op} 0"


def substitution_tree(text: Any, max_chars: int, right: str, example: str):
    """``TARGET -> RIGHT, ...`` read by the whitelist parser as the dict ``{TARGET: RIGHT, ...}``
    (``--transform``): the tree and its checks, or a one-line error (a ``:``, ``{`` or ``}`` of
    the user's own, or no substitution)."""
    if isinstance(text, str):
        for bad in ":{}":
            if bad in text:
                raise layer_error(
                    text,
                    f"{bad!r} at column {text.index(bad) + 1} is not "
                    f"allowed; write TARGET -> {right}, ...",
                    "--transform",
                )
    tree, checks = parsed_tree(
        text, "--transform", max_chars, wrap=lambda s: "{" + s.replace("->", ": ") + "}"
    )
    if not isinstance(tree, ast.Dict) or not tree.keys or None in tree.keys:
        raise checks.error(
            f"expected substitutions TARGET -> {right} separated by commas, e.g. {example}"
        )
    return tree, checks


def parse_transform(text: str, layer: Layer, parameter: sympy.Symbol | None = None) -> Transform:
    """Parse ``text`` and check it against ``layer`` (names, shapes, units)."""
    parameter = parameter if parameter is not None else parse_param(DEFAULT_PARAM)
    tree, checks = substitution_tree(
        text, MAX_TRANSFORM_CHARS, "EXPR", "'Q -> K, K -> Q' or 'Q -> a*Q, K -> K/a'"
    )
    builder = _Coefficients(checks, layer, parameter)
    subs = tuple(builder.substitution(k, v) for k, v in zip(tree.keys, tree.values, strict=True))
    _check_units(checks, layer, subs)
    return Transform(text, subs, parameter, domain_text(parameter))


def _check_units(checks: LayerTextChecks, layer: Layer, subs: tuple[Substitution, ...]) -> None:
    targets = [s.target for s in subs]
    if len(set(targets)) != len(targets):
        raise checks.error("a target is substituted twice")
    whole = {t.name for t in targets if t.index is None}
    rows = {t.name for t in targets if t.index is not None}
    if whole & rows:
        raise checks.error(
            f"{sorted(whole & rows)[0]} is substituted whole and by rows; choose one"
        )
    names = {r.index for s in subs for r in (s.target, s.source) if isinstance(r.index, str)}
    if len(names) > 1:
        raise checks.error(f"one unit index per transform; got {', '.join(sorted(names))}")
    if names and (whole or any(isinstance(t.index, int) for t in targets)):
        other = next(str(t) for t in targets if not isinstance(t.index, str))
        unit = next(str(t) for t in targets if isinstance(t.index, str))
        raise checks.error(
            f"{unit} is per unit but {other} is not: a per-unit transform names "
            f"rows of every target ({other.split('[')[0]}[j] -> …), a whole or "
            "fixed-row transform names none"
        )
    if all(s.source == s.target and s.coefficient == 1 for s in subs):
        raise checks.error("the transform changes nothing (every target maps to itself)")
    for s in subs:
        if (s.target.index is None) != (s.source.index is None):
            raise checks.error(
                f"{s.target} -> {s.source}: a row maps to a row, a matrix to a matrix"
            )
        if isinstance(s.target.index, str) and s.source.index != s.target.index:
            raise checks.error(
                f"{s.target} -> {s.source}: unit {s.target.index} maps to "
                "itself (fixed rows such as Q[0] -> Q[1] permute units)"
            )
        if layer.shape_of(s.target.name) != layer.shape_of(s.source.name):
            raise checks.error(
                f"{s.target} -> {s.source}: shapes "
                f"{'×'.join(layer.shape_of(s.target.name))} and "
                f"{'×'.join(layer.shape_of(s.source.name))} differ"
            )


class _Coefficients:
    """The right side of one substitution: a coefficient (numbers and the parameter) times
    one parameter reference."""

    def __init__(self, checks: LayerTextChecks, layer: Layer, parameter: sympy.Symbol) -> None:
        self.checks, self.layer, self.parameter = checks, layer, parameter
        self.refs: dict[sympy.Symbol, Ref] = {}

    def where(self, node: ast.AST) -> str:
        return f"at column {self.checks.column(getattr(node, 'col_offset', 0))}"

    def ref(self, node: ast.expr) -> Ref:
        index: str | int | None = None
        base = node
        if isinstance(node, ast.Subscript):
            base, sl = node.value, node.slice
            if (
                isinstance(sl, ast.Name)
                and sl.id.isidentifier()
                and sl.id[:1].islower()
                and sl.id != self.parameter.name
                and not sl.id.startswith("_")
            ):
                index = sl.id
            elif (
                isinstance(sl, ast.Constant) and type(sl.value) is int and 0 <= sl.value <= MAX_UNIT
            ):
                index = sl.value
            else:
                raise self.checks.error(
                    f"the row {self.where(node)} must be a unit index "
                    f"(Q[j]) or a number 0..{MAX_UNIT} (Q[0])"
                )
        if not isinstance(base, ast.Name) or base.id not in self.layer.parameters:
            shown = base.id if isinstance(base, ast.Name) else type(base).__name__.lower()
            raise self.checks.error(
                f"{shown!r} {self.where(node)} is not a parameter of the "
                f"layer; its parameters: {', '.join(self.layer.parameters)}"
            )
        if index is not None and self.layer.shape_of(base.id)[0] != "n":
            raise self.checks.error(
                f"{base.id}[{index}] {self.where(node)}: {base.id} is "
                f"{'×'.join(self.layer.shape_of(base.id))}; only n×… "
                "parameters have one row per unit"
            )
        return Ref(base.id, index)

    def substitution(self, key: ast.expr, value: ast.expr) -> Substitution:
        target = self.ref(key)
        self.refs = {}
        rhs = self.build(value)
        if len(self.refs) != 1:
            raise self.checks.error(
                f"the right side of {target} -> … {self.where(value)} must "
                "be a coefficient times one parameter, e.g. a*Q or K/a"
            )
        ((placeholder, source),) = self.refs.items()
        coefficient = sympy.cancel(rhs / placeholder)
        if placeholder in coefficient.free_symbols or coefficient.has(sympy.zoo, sympy.nan):
            raise self.checks.error(
                f"the right side of {target} -> … {self.where(value)} must "
                "be linear: a coefficient times one parameter"
            )
        return Substitution(target, source, coefficient)

    def build(self, node: ast.expr) -> sympy.Expr:
        if isinstance(node, (ast.Name, ast.Subscript)) and not (
            isinstance(node, ast.Name) and node.id == self.parameter.name
        ):
            ref = self.ref(node)
            placeholder = sympy.Dummy(str(ref))
            self.refs[placeholder] = ref
            return placeholder
        if isinstance(node, ast.Name):
            return self.parameter
        if isinstance(node, ast.Constant):
            return typed_number(self.checks, node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.build(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = self.build(node.left), self.build(node.right)
            if isinstance(node.op, ast.Pow):
                self.check_power(node, left, right)
            if isinstance(node.op, ast.Div) and (right == 0 or right.has(*self.refs)):
                raise self.checks.error(
                    f"division {self.where(node)}: divide by a number or "
                    "the parameter, never by 0 or a matrix"
                )
            if isinstance(node.op, ast.Div):  # a pole inside the domain: undefined there
                self.check_nonzero(node, right, "division")
            return self.bounded(node, _OPS[type(node.op)](left, right))
        raise self.checks.error(
            f"{type(node).__name__.lower()} {self.where(node)} is not "
            "allowed; a coefficient uses numbers, the parameter, + - * / "
            "and ** with a number as exponent"
        )

    def check_power(self, node: ast.BinOp, base: sympy.Expr, exponent: sympy.Expr) -> None:
        if base.has(*self.refs) or not exponent.is_Rational or abs(exponent) > MAX_EXPONENT:
            raise self.checks.error(
                f"power {self.where(node)}: the exponent must be a number "
                f"of size at most {MAX_EXPONENT}, the base a scalar"
            )
        if base == 0 and exponent < 0:
            raise self.checks.error(f"power {self.where(node)}: 0 to a negative power")
        if exponent.is_negative:
            self.check_nonzero(node, base, "power")
        if not exponent.is_Integer and not (
            base.is_positive or (base.is_nonnegative and exponent > 0)
        ):
            raise self.checks.error(
                f"power {self.where(node)}: a root of a base that may be negative is not "
                "real; a reparametrisation of real weights needs a real coefficient "
                "(declare the parameter's sign with --param, e.g. a > 0)"
            )

    def check_nonzero(self, node: ast.BinOp, divisor: sympy.Expr, what: str) -> None:
        """A divisor must be nonzero on the whole domain as written (``cancel`` made
        ``(a - 2)/(a**2 - 2*a)*K`` ``K/a``, proved invariant for every a > 0)."""
        if divisor.is_zero is not False and not no_root_in_domain(divisor, self.parameter):
            raise self.checks.error(
                f"{what} {self.where(node)}: {sympy.sstr(divisor)[:40]} may be 0 for "
                f"{domain_text(self.parameter)}; the transform must be defined on the whole "
                "domain (divide by a value never 0 there, e.g. a or a**2 + 1)"
            )

    def bounded(self, node: ast.BinOp, value: sympy.Expr) -> sympy.Expr:
        """``value``, unless what the nesting built is beyond the language's sizes (a power
        of a power multiplies exponents: ((a + 1)**12)**12 is (a + 1)**144)."""
        for n in sympy.preorder_traversal(value):
            if isinstance(n, sympy.Pow) and n.exp.is_Rational and abs(n.exp.p) > MAX_EXPONENT:
                raise self.checks.error(
                    f"{self.where(node)}: a power beyond exponent {MAX_EXPONENT} "
                    f"({sympy.sstr(n)[:40]})"
                )
            if (
                isinstance(n, sympy.Rational)
                and max(abs(int(n.p)).bit_length(), int(n.q).bit_length()) > MAX_NUMBER_BITS
            ):
                raise self.checks.error(
                    f"{self.where(node)}: a number of more than {MAX_NUMBER_BITS} bits"
                )
        return value


_OPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


# --- applying a transform, and its generator -----------------------------------------------


def transformed(
    values: Mapping[str, Any],
    transform: Transform,
    value: Any,
    unit: int | None = None,
    scalar: Callable = lambda c: c,
) -> dict[str, Any]:
    """The parameters after the transform at parameter ``value`` (``unit``: the row of ``Q[j]``);
    simultaneous, on SymPy matrices, numpy arrays or torch tensors (``scalar`` converts each
    coefficient)."""
    out = dict(values)
    for s in transform.substitutions:
        c = scalar(
            s.coefficient if value is None else s.coefficient.xreplace({transform.parameter: value})
        )
        source = values[s.source.name]
        if s.target.index is None:
            out[s.target.name] = c * source
            continue
        rows = unit if isinstance(s.target.index, str) else s.target.index
        src = unit if isinstance(s.source.index, str) else s.source.index
        if out[s.target.name] is values[s.target.name]:
            m = values[s.target.name]
            out[s.target.name] = m.clone() if hasattr(m, "clone") else m.copy()  # torch: clone
        out[s.target.name][rows, :] = c * source[src, :]
    return out


def _rows_needed(transform: Transform) -> int:
    return max((*transform.fixed_units, 0)) + 1


def explicit_sizes(transform: Transform, base: Mapping[str, int]) -> dict[str, int]:
    n = max(base["n"], _rows_needed(transform) if transform.fixed_units else 1)
    return {"1": 1, "d": base["d"], "n": n}


def units(transform: Transform, n: int) -> list[int | None]:
    return list(range(n)) if transform.unit_index is not None else [None]


def generator_of(transform: Transform) -> tuple[str | None, str | None]:
    """``(A, θᵀAθ)`` as text for a one-parameter group of scalings ``θ_M → a^{λ_M} θ_M``
    (through the identity at a = 1); (None, None) for any other transform."""
    a = transform.parameter
    if not transform.one_parameter or a.is_negative:
        return None, None
    exponents = []
    for s in transform.substitutions:
        if s.source != s.target:
            return None, None
        lam = sympy.diff(s.coefficient, a).xreplace({a: 1})
        # a power a^λ has |λ| ≤ MAX_EXPONENT here (the language writes no larger one): (a + 1)**12
        # has λ = 12·2¹¹, and simplify((a + 1)**12 − a**24576) hung; bounded all the same
        try:
            with deadline(2.0):
                power = lam.is_Rational and abs(lam) <= MAX_EXPONENT
                power = power and sympy.simplify(s.coefficient - a**lam) == 0
        except (BudgetExceeded, TypeError, ValueError, RecursionError):
            power = False
        if not power:
            return None, None
        exponents.append((s.target, lam))
    kept = [(ref, lam) for ref, lam in exponents if lam != 0]
    if not kept:
        return None, None
    generator = "diag(" + ", ".join(f"{_number(lam)}·I_{_block(ref)}" for ref, lam in kept) + ")"
    terms = []
    for i, (ref, lam) in enumerate(kept):
        sign = "−" if lam < 0 else ("" if i == 0 else "+")
        size = abs(lam)
        weight = "" if size == 1 else (f"{size}" if size.is_Integer else f"({size})")
        terms.append(
            f"{sign} {weight}‖{_block(ref)}‖²".strip() if i else f"{sign}{weight}‖{_block(ref)}‖²"
        )
    return generator, " ".join(terms)


def _number(lam: sympy.Rational) -> str:
    return str(lam).replace("-", "−")


def _block(ref) -> str:
    if ref.index is None:
        return ref.name
    return f"{ref.name.lower()}_{ref.index}"


__all__ = [
    "DEFAULT_PARAM",
    "InvalidExpression",
    "Ref",
    "Substitution",
    "Transform",
    "domain_text",
    "explicit_sizes",
    "generator_of",
    "parse_param",
    "parse_transform",
    "transformed",
    "units",
]
