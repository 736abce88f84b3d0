"""The layer language: ``--layer "(sigma(x @ Q.T) * (x @ K.T)) @ V"``.

A layer is an expression in a token ``x`` (a 1×d row) and parameter matrices named by a
capital letter (``Q``, ``K``, ``V``, ``W1``, …; n×d unless the layer table states otherwise):

==============  ==================================================================
``A @ B``       matrix product (inner sizes must agree: ``x @ Q`` is an error, ``x @ Q.T`` is not)
``A.T``         transpose (the only attribute)
``A * B``       elementwise product ⊙ of equal shapes; ``2 * A``: a number times a matrix
``A + B``       sum and difference of equal shapes; ``-A``; ``A / 2``: division by a number
``sigma(A)``    the ``--activation``, elementwise; ``relu(A)``, ``silu(A)``, …: a table entry
==============  ==================================================================

It is parsed by a whitelist of Python ``ast`` nodes (never executed), bounded in length, nodes and
depth, and shape-checked; every rejection is an ``InvalidExpression`` with a one-line message.
A parsed layer is evaluated by ``evaluate`` on SymPy matrices, numpy or torch arrays (through
``symbolic.layers``' ``hadamard`` and ``apply``), and written entry by entry at general n, d
(finite sums with symbolic bounds) by ``entry``.

>>> layer = parse_layer("(sigma(x @ Q.T) * (x @ K.T)) @ V")
>>> layer.parameters, layer.shape
(('Q', 'K', 'V'), ('1', 'd'))
>>> parse_layer("sigma(x @ Q) @ V")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
symbolic.errors.InvalidExpression: --layer 'sigma(x @ Q) @ V' : x @ Q at column 7: ...
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import sympy

from symbolic import layers
from symbolic.activations import ACTIVATIONS
from symbolic.errors import InvalidExpression
from symbolic.languages.text_checks import TextChecks, did_you_mean, quote_input

MAX_LAYER_CHARS = 1000  # the table's layers take ~40; checked before anything else
MAX_LAYER_NODES = 200  # ast nodes
MAX_LAYER_DEPTH = 30  # ast nesting
MAX_PARAMETERS = 8  # distinct parameter matrices
MAX_NUMBER = 10**6  # |a typed number|, and at most MAX_DIGITS significant digits
MAX_DIGITS = 12
SIGMA = "sigma"  # the --activation
TOKEN = "x"
DIMS = ("1", "d", "n")  # the sizes a shape is made of
DEFAULT_SHAPE = ("n", "d")


@dataclass(frozen=True)
class Node:
    """One node of a parsed layer: ``op`` is ``x``, ``param``, ``number``, ``T``, ``@``, ``*``
    (elementwise), ``scale`` (number times matrix), ``+``, ``-``, ``neg`` or ``call``."""

    op: str
    args: tuple[Node, ...] = ()
    name: str = ""  # a parameter's or an activation's name
    value: sympy.Rational | None = None  # a number's, or a scale's factor
    shape: tuple[str, str] | None = None  # None: a number


@dataclass(frozen=True)
class Layer:
    """A parsed layer: the text, its tree, its parameters (in order of appearance) with shapes."""

    text: str
    root: Node
    shapes: tuple[tuple[str, tuple[str, str]], ...]
    table_name: str | None = None

    @property
    def parameters(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.shapes)

    @property
    def shape(self) -> tuple[str, str]:
        return self.root.shape  # type: ignore[return-value]

    def shape_of(self, name: str) -> tuple[str, str]:
        return dict(self.shapes)[name]

    @property
    def functions(self) -> tuple[str, ...]:
        """The activations called, in order of appearance (``sigma`` = the ``--activation``)."""
        return tuple(dict.fromkeys(n.name for n in _walk(self.root) if n.op == "call"))


def _walk(node: Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.args))


def layer_error(text: str, what: str, option: str = "--layer") -> InvalidExpression:
    return InvalidExpression(f"{option} {quote_input(text)} : {' '.join(what.split())}")


class LayerTextChecks(TextChecks):
    """The activation parser's checks before ``ast.parse`` (ASCII, brackets, tokens, syntax
    messages), reporting as ``--layer`` (or ``--transform``)."""

    def __init__(self, text: str, option: str) -> None:
        super().__init__(text)
        self.option = option

    def error(self, what: str) -> InvalidExpression:
        return layer_error(self.text, what, self.option)


def parsed_tree(
    text: str, option: str, max_chars: int, wrap: Callable[[str], str] | None = None
) -> tuple[ast.expr, LayerTextChecks]:
    """The ``ast`` expression of user text, after bounds on its length, characters, brackets
    and tokens (shared by the layer and transform languages). ``wrap`` rewrites the stripped
    text into Python syntax of the same length plus one leading character (columns still
    count in the text as typed)."""
    if not isinstance(text, str):
        raise InvalidExpression(f"{option} {text!r} : expected a string")
    if len(text) > max_chars:
        raise layer_error(text, f"too long: {len(text)} characters; at most {max_chars}", option)
    if not text.strip():
        raise layer_error(text, "empty; see --help for the language", option)
    if "#" in text:
        raise layer_error(
            text, f"'#' at column {text.index('#') + 1} is not allowed (no comments)", option
        )
    checks = LayerTextChecks(text, option)
    if wrap is not None:
        checks.source = wrap(checks.source)
        checks.lead -= 1
    checks.scan()
    tree = checks.syntax().body
    count = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_LAYER_NODES or depth > MAX_LAYER_DEPTH:
            raise checks.error(
                f"too large: at most {MAX_LAYER_NODES} nodes and "
                f"{MAX_LAYER_DEPTH} levels of nesting"
            )
        stack.extend((c, depth + 1) for c in ast.iter_child_nodes(node))
    return tree, checks


def typed_number(checks: LayerTextChecks, node: ast.Constant) -> sympy.Rational:
    """A typed int or float literal, exactly as typed (0.1 is 1/10), bounded in size."""
    where = f"at column {checks.column(node.col_offset)}"
    if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
        raise checks.error(f"the constant {node.value!r:.30} {where} is not allowed; only numbers")
    typed = checks.source[node.col_offset : node.end_col_offset].replace("_", "")
    try:
        exact = Decimal(typed)
    except InvalidOperation:
        raise checks.error(f"the number {typed!r:.30} {where} is not understood") from None
    if (
        abs(exact) > MAX_NUMBER
        or len(exact.as_tuple().digits) > MAX_DIGITS
        or (exact and abs(exact) < Decimal(1) / MAX_NUMBER)
    ):
        raise checks.error(
            f"the number {typed[:30]} {where} is out of range: between "
            f"1e-6 and 1e6 in size, at most {MAX_DIGITS} digits"
        )
    f = Fraction(exact)
    return sympy.Rational(f.numerator, f.denominator)


def parse_layer(
    text: str, shapes: Mapping[str, tuple[str, str]] | None = None, table_name: str | None = None
) -> Layer:
    """Parse and shape-check ``text``; ``shapes`` states parameter shapes other than n×d."""
    tree, checks = parsed_tree(text, "--layer", MAX_LAYER_CHARS)
    found: dict[str, tuple[str, str]] = {}
    root = _Builder(checks, dict(shapes or {}), found).build(tree)
    if root.shape is None or root.shape[0] != "1":
        got = "a number" if root.shape is None else "×".join(root.shape)
        raise checks.error(f"the layer must be a row (1×…) computed from the token x; got {got}")
    if not any(n.op == "x" for n in _walk(root)):
        raise checks.error("the layer does not use the token x")
    return Layer(text, root, tuple(found.items()), table_name)


class _Builder:
    def __init__(self, checks: LayerTextChecks, shapes: dict, found: dict) -> None:
        self.checks, self.shapes, self.found = checks, shapes, found

    def where(self, node: ast.AST) -> str:
        return f"at column {self.checks.column(getattr(node, 'col_offset', 0))}"

    def segment(self, node: ast.AST) -> str:
        return self.checks.source[node.col_offset : node.end_col_offset]

    def build(self, node: ast.expr) -> Node:
        handler = _HANDLERS.get(type(node))
        if handler is None:
            raise self.checks.error(
                f"{type(node).__name__.lower()} {self.where(node)} is not "
                "allowed; a layer uses x, capitalised parameters, @ .T * + - "
                "and activation calls"
            )
        return handler(self, node)

    def name(self, node: ast.Name) -> Node:
        name = node.id
        if name == TOKEN:
            return Node("x", shape=("1", "d"))
        if name[:1].isupper() and name.isidentifier() and name.isascii() and "__" not in name:
            if name not in self.found and len(self.found) >= MAX_PARAMETERS:
                raise self.checks.error(f"more than {MAX_PARAMETERS} parameter matrices")
            shape = tuple(self.shapes.get(name, DEFAULT_SHAPE))
            self.found.setdefault(name, shape)
            return Node("param", name=name, shape=shape)
        if name in ACTIVATIONS or name == SIGMA:
            raise self.checks.error(
                f"{name!r} {self.where(node)} is an activation; call it, e.g. {name}(x @ K.T)"
            )
        raise self.checks.error(
            f"unknown name {name!r} {self.where(node)}"
            f"{did_you_mean(name, [TOKEN, SIGMA, *ACTIVATIONS])}; the token is "
            "x, parameters are capitalised (Q, K, V, W1), activations are "
            "called (sigma(...), relu(...))"
        )

    def constant(self, node: ast.Constant) -> Node:
        return Node("number", value=typed_number(self.checks, node))

    def attribute(self, node: ast.Attribute) -> Node:
        if node.attr != "T":
            raise self.checks.error(
                f"attribute access '.{node.attr}' {self.where(node)} is "
                "not allowed; only .T (transpose)"
            )
        inner = self.build(node.value)
        if inner.shape is None:
            raise self.checks.error(
                f"{self.segment(node)} {self.where(node)}: a number has no transpose"
            )
        return Node("T", (inner,), shape=(inner.shape[1], inner.shape[0]))

    def unary(self, node: ast.UnaryOp) -> Node:
        inner = self.build(node.operand)
        if isinstance(node.op, ast.UAdd):
            return inner
        if not isinstance(node.op, ast.USub):
            raise self.checks.error(
                f"the operator {type(node.op).__name__} {self.where(node)} is not allowed; use -"
            )
        if inner.shape is None:
            return Node("number", value=-inner.value)
        return Node("neg", (inner,), shape=inner.shape)

    def binary(self, node: ast.BinOp) -> Node:
        left, right = self.build(node.left), self.build(node.right)
        op = type(node.op)
        if left.shape is None and right.shape is None:
            if op not in _NUMBER_OPS or (op is ast.Div and right.value == 0):
                raise self.checks.error(
                    f"{self.segment(node)} {self.where(node)}: numbers "
                    "combine only by + - * / (no division by 0)"
                )
            return Node("number", value=_NUMBER_OPS[op](left.value, right.value))
        if op is ast.MatMult:
            return self.matmul(node, left, right)
        if op is ast.Mult and (left.shape is None or right.shape is None):
            number, matrix = (left, right) if left.shape is None else (right, left)
            return Node("scale", (matrix,), value=number.value, shape=matrix.shape)
        if op is ast.Div and right.shape is None:
            if right.value == 0:
                raise self.checks.error(f"{self.segment(node)} {self.where(node)} divides by 0")
            return Node("scale", (left,), value=1 / right.value, shape=left.shape)
        if op in (ast.Mult, ast.Add, ast.Sub) and left.shape == right.shape:
            symbol = {ast.Mult: "*", ast.Add: "+", ast.Sub: "-"}[op]
            return Node(symbol, (left, right), shape=left.shape)
        if op in (ast.Mult, ast.Add, ast.Sub):
            raise self.checks.error(
                f"{self.segment(node)} {self.where(node)}: shapes "
                f"{_shape(left)} and {_shape(right)} differ; * + - need "
                "equal shapes (or a number)"
            )
        raise self.checks.error(
            f"the operator in {self.segment(node)} {self.where(node)} is not "
            "allowed; a layer uses @ * + - and / by a number (no **: "
            "write relu2(...) or A * A)"
        )

    def matmul(self, node: ast.BinOp, left: Node, right: Node) -> Node:
        if left.shape is None or right.shape is None:
            raise self.checks.error(
                f"{self.segment(node)} {self.where(node)}: @ multiplies "
                "matrices; use * for a number"
            )
        if left.shape[1] != right.shape[0]:
            hint = "; did you mean a transpose (.T)?" if left.shape[1] == right.shape[1] else ""
            raise self.checks.error(
                f"{self.segment(node)} {self.where(node)}: shapes "
                f"{_shape(left)} and {_shape(right)} do not match "
                f"({left.shape[1]} ≠ {right.shape[0]}){hint}"
            )
        return Node("@", (left, right), shape=(left.shape[0], right.shape[1]))

    def call(self, node: ast.Call) -> Node:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name is None:  # os.system(...), f(x)(y): only a plain name can be called
            raise self.checks.error(
                f"calling {self.segment(node.func)} {self.where(node)} is "
                "not allowed; call sigma (the --activation) or a table "
                f"activation by name: {', '.join(ACTIVATIONS)}"
            )
        if name != SIGMA and name not in ACTIVATIONS:
            hint = did_you_mean(name or "", [SIGMA, *ACTIVATIONS])
            raise self.checks.error(
                f"unknown function {name!r} {self.where(node)}{hint}; call "
                f"sigma (the --activation) or a table activation: "
                f"{', '.join(ACTIVATIONS)}"
            )
        if node.keywords or len(node.args) != 1:
            raise self.checks.error(f"{name} {self.where(node)} takes one argument, by position")
        inner = self.build(node.args[0])
        if inner.shape is None:
            raise self.checks.error(f"{name} {self.where(node)} applies to a matrix, not a number")
        return Node("call", (inner,), name=name, shape=inner.shape)


_NUMBER_OPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}
_HANDLERS = {
    ast.Name: _Builder.name,
    ast.Constant: _Builder.constant,
    ast.Attribute: _Builder.attribute,
    ast.UnaryOp: _Builder.unary,
    ast.BinOp: _Builder.binary,
    ast.Call: _Builder.call,
}


def _shape(node: Node) -> str:
    return "a number" if node.shape is None else "×".join(node.shape)


# --- evaluation ----------------------------------------------------------------------------


def evaluate(layer: Layer, x, values: Mapping[str, object], functions: Mapping[str, Callable]):
    """The layer at token ``x`` and parameter ``values`` (SymPy matrices, MatrixExprs, numpy or
    torch arrays); ``functions[name]`` is each activation called (elementwise)."""

    def value(node: Node):
        op = node.op
        if op == "x":
            return x
        if op == "param":
            return values[node.name]
        args = [value(a) for a in node.args]
        if op == "T":
            return args[0].T
        if op == "@":
            return args[0] @ args[1]
        if op == "*":
            return layers.hadamard(args[0], args[1])
        if op == "scale":
            return node.value * args[0] if _symbolic(args[0]) else float(node.value) * args[0]
        if op == "+":
            return args[0] + args[1]
        if op == "-":
            return args[0] - args[1]
        if op == "neg":
            return -args[0]
        return layers.apply(functions[node.name], args[0])  # call

    return value(layer.root)


def layer_at(layer: Layer, values: Mapping[str, object], functions: Mapping[str, Callable]):
    """``evaluate`` with the token given as ``values["x"]``."""
    return evaluate(layer, values[TOKEN], values, functions)


def symbol_values(layer: Layer, sizes: Mapping[str, int]) -> dict[str, sympy.Matrix]:
    """Explicit matrices of real symbols for the token and every parameter."""
    out = {"x": layers.symbolic_matrix(TOKEN, 1, sizes["d"])}
    for name, (rows, cols) in layer.shapes:
        out[name] = layers.symbolic_matrix(name, sizes[rows], sizes[cols])
    return out


def _symbolic(a) -> bool:
    return isinstance(a, (sympy.MatrixBase, sympy.MatrixExpr))


def entry(
    layer: Layer,
    sizes: Mapping[str, sympy.Expr],
    values: Mapping[str, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]],
    functions: Mapping[str, Callable],
    row: sympy.Expr,
    col: sympy.Expr,
    peel: int = 0,
) -> sympy.Expr:
    """Entry ``(row, col)`` of the layer at symbolic sizes: ``@`` becomes a finite sum over a fresh
    bound index (``k0, k1, …``) up to ``sizes[dim] − 1``; ``values[name](r, c)`` is a parameter's
    entry, the token's is ``x[c]`` (entries real). ``peel``: a sum over the units (``n``) is
    written with its first ``peel`` terms apart, ``f(0) + … + f(peel − 1) + Σ_{k=peel}^{n−1} f(k)``
    (``sizes["n"]`` is then ``peel + N``), so that fixed rows ``Q[0]`` appear by number."""
    fresh = (sympy.Symbol(f"k{i}", integer=True) for i in itertools.count())
    token = sympy.IndexedBase(TOKEN, real=True)

    def at(node: Node, r: sympy.Expr, c: sympy.Expr) -> sympy.Expr:
        op = node.op
        if op == "x":
            return token[c]
        if op == "param":
            return values[node.name](r, c)
        if op == "T":
            return at(node.args[0], c, r)
        if op == "@":
            k = next(fresh)
            dim = node.args[0].shape[1]
            inner = sizes[dim]
            first = peel if dim == "n" else 0
            apart = [
                at(node.args[0], r, sympy.Integer(i)) * at(node.args[1], sympy.Integer(i), c)
                for i in range(first)
            ]
            rest = sympy.Sum(at(node.args[0], r, k) * at(node.args[1], k, c), (k, first, inner - 1))
            return sympy.Add(*apart, rest)
        if op == "*":
            return at(node.args[0], r, c) * at(node.args[1], r, c)
        if op == "scale":
            return node.value * at(node.args[0], r, c)
        if op == "+":
            return at(node.args[0], r, c) + at(node.args[1], r, c)
        if op == "-":
            return at(node.args[0], r, c) - at(node.args[1], r, c)
        if op == "neg":
            return -at(node.args[0], r, c)
        return functions[node.name](at(node.args[0], r, c))  # call

    return at(layer.root, row, col)


def table_layer(name: str) -> Layer:
    """The layer of ``LAYER_FORMS[name]``, from its expression in this language."""
    form = layers.LAYER_FORMS[name]
    if form.expression is None:
        raise InvalidExpression(f"--layer {name!r} : {form.expression_note}")
    return parse_layer(form.expression, dict(form.shapes), table_name=name)


def resolve_layer(text: str) -> Layer:
    """A table name (``gated``) or an expression in the layer language."""
    if isinstance(text, str) and text.strip() in layers.LAYER_FORMS:
        return table_layer(text.strip())
    return parse_layer(text)


__all__ = [
    "DIMS",
    "Layer",
    "Node",
    "entry",
    "evaluate",
    "layer_at",
    "parse_layer",
    "parsed_tree",
    "resolve_layer",
    "symbol_values",
    "table_layer",
    "typed_number",
]
