"""The safe parser for user activations: ``--activation "x*sigmoid(x)"``.

The text is read with Python's ``ast`` module and a whitelist of node types, names and functions,
then built into a SymPy expression in :data:`symbolic.activations.z` node by node. User text is
never executed and never handed to SymPy's string parser. A bare table name (``relu``) is that
entry of :data:`symbolic.activations.ACTIVATIONS`; every table name is also a function
(``relu(x)**2``, ``gelu(2*x)``).

Every rejection is an :class:`~symbolic.errors.InvalidExpression` whose message is one line that
quotes the input and says what is wrong, where, and what to write instead.

The work is bounded whatever the input (see the ``MAX_*`` limits below): the text is measured
before ``ast.parse`` sees it, the tree before SymPy sees it, and every constant is estimated in
float64 *before* SymPy could evaluate it exactly (``10**10**10``) or to high precision
(``max(exp(exp(700)), 0)``).

>>> parse_activation("x*sigmoid(x)").expr
z/(1 + exp(-z))
>>> parse_activation("relu").name
'relu'
>>> parse_activation("1e-30*x").expr
z/1000000000000000000000000000000
>>> parse_activation("x*sigmoid(")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
symbolic.errors.InvalidExpression: --activation 'x*sigmoid(' : unexpected end of expression ...
"""

from __future__ import annotations

import ast
import difflib
import math
import operator
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import sympy

from symbolic.activations import ACTIVATIONS, sympy_sigmoid, sympy_softplus, z
from symbolic.errors import InvalidExpression

# Limits on the input, checked before ast.parse (whose own recursion fails near ~1000 levels).
MAX_INPUT_CHARS = 2000
MAX_TOKENS = 600  # names, numbers, operators and brackets
MAX_DEPTH = 40  # bracket nesting, and AST nesting where a chain a+b-c or a*b/c counts once
# Limits on the tree, checked before SymPy builds anything.
MAX_NODES = 400  # AST expression nodes
MAX_MINMAX_ARGS = 16  # arguments of max/min in total, relu-family calls included: SymPy's
#                       Max/Min compare their arguments pairwise (32 arguments take ~1 s)
# Limits on numbers.
MAX_LITERAL = 10**12  # |typed number|
MIN_LITERAL = Decimal("1e-100")  # smallest nonzero |typed number|
MAX_LITERAL_DIGITS = 30  # significant digits of a typed number
MAX_EXPONENT = 100  # |exponent| when the exponent of ** is a constant
MAX_CONSTANT = 1e300  # |every constant subexpression|, estimated in float64 ...
MIN_CONSTANT = 1e-300  # ... and nonzero ones at least this: SymPy's evalf stays cheap
MAX_RATIONAL_BITS = 2048  # numerator and denominator of an exact constant (~600 digits)
# Limits on the SymPy result, so that printing, substitution and simplification stay cheap.
MAX_TREE_SIZE = 2000  # nodes of the expression tree (gelu(gelu(...)) doubles it per level)

_QUOTE_CHARS = 60  # longer input is quoted by its prefix
_TOKEN = re.compile(r"[A-Za-z_]\w*|[0-9.][\w.]*(?:[eE][+-][\w.]*)?|\*\*|//|<<|>>|\S")


@dataclass(frozen=True)
class ParsedActivation:
    """A user activation: the ``text`` as given, its SymPy ``expr`` in ``z``, and ``name`` when
    the text was a bare table name (else None)."""

    text: str
    expr: sympy.Expr
    name: str | None = None


@dataclass(frozen=True)
class _Function:
    """A function callable in user text; ``minmax`` counts the Max/Min arguments it adds."""

    name: str
    build: Callable[..., sympy.Expr]
    min_args: int = 1
    max_args: int = 1
    minmax_per_call: int = 0
    minmax_per_arg: int = 0


def _minmax_args(expr: sympy.Expr) -> int:
    return sum(len(m.args) for m in expr.atoms(sympy.Max, sympy.Min))


_MATH_FUNCTIONS = (
    _Function("exp", sympy.exp),
    _Function("log", sympy.log),
    _Function("sqrt", sympy.sqrt),
    _Function("tanh", sympy.tanh),
    _Function("sinh", sympy.sinh),
    _Function("cosh", sympy.cosh),
    _Function("erf", sympy.erf),
    _Function("sigmoid", sympy_sigmoid),
    _Function("softplus", sympy_softplus),
    _Function("abs", sympy.Abs),
    _Function("max", sympy.Max, 2, MAX_MINMAX_ARGS, minmax_per_arg=1),
    _Function("min", sympy.Min, 2, MAX_MINMAX_ARGS, minmax_per_arg=1),
)
FUNCTIONS: dict[str, _Function] = {
    **{a.name: _Function(a.name, a.sympy_at, minmax_per_call=_minmax_args(a.expr))
       for a in ACTIVATIONS.values()},
    **{f.name: f for f in _MATH_FUNCTIONS},
}
VARIABLES = {"x": z, "z": z}
CONSTANTS = {"pi": sympy.pi, "e": sympy.E}

_BINARY: dict[type, tuple[str, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.Pow: ("**", operator.pow),
}
_UNARY: dict[type, Callable[[sympy.Expr], sympy.Expr]] = {
    ast.UAdd: operator.pos, ast.USub: operator.neg,
}
_CHAIN_FAMILY = {ast.Add: "+", ast.Sub: "+", ast.Mult: "*", ast.Div: "*"}  # SymPy flattens these
_REJECTED_OPERATORS: dict[type, tuple[str, str]] = {
    ast.FloorDiv: ("//", "floor division '//' is not allowed; use /"),
    ast.Mod: ("%", "remainder '%' is not allowed"),
    ast.MatMult: ("@", "matrix product '@' is not allowed; use *"),
    ast.BitXor: ("^", "'^' is bitwise xor, not a power; use **"),
    ast.BitAnd: ("&", "bitwise '&' is not allowed"),
    ast.BitOr: ("|", "bitwise '|' is not allowed"),
    ast.LShift: ("<<", "shift '<<' is not allowed"),
    ast.RShift: (">>", "shift '>>' is not allowed"),
    ast.Invert: ("~", "bitwise '~' is not allowed; use - for negation"),
    ast.Not: ("not", "'not' is not allowed"),
}
_REJECTED_NODES: dict[type, str] = {
    ast.Attribute: "attribute access is not allowed; use a function name such as exp, log, relu",
    ast.Subscript: "subscripts are not allowed",
    ast.Lambda: "lambda is not allowed; write the expression in x directly, e.g. x*sigmoid(x)",
    ast.IfExp: "conditional expressions are not allowed; use max, min or relu",
    ast.Compare: "comparisons are not allowed; use max, min or relu",
    ast.BoolOp: "'and'/'or' are not allowed; use max, min or relu",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.List: "lists are not allowed; use max(a, b) for a maximum",
    ast.Tuple: "tuples are not allowed; use max(a, b) for a maximum",
    ast.Set: "sets are not allowed",
    ast.Dict: "dicts are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.NamedExpr: "assignment ':=' is not allowed",
    ast.Starred: "starred arguments are not allowed",
    ast.Await: "'await' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
}


def describe_allowed() -> str:
    """The names and operators user text may use, as one paragraph (for ``--help``)."""
    math_names = ", ".join(f.name for f in _MATH_FUNCTIONS if f.max_args == 1)
    return (
        "An activation is a table name or an expression in x (or z). Numbers: 2, 0.5, 1e-3. "
        "Operators: + - * / ** and unary -. Constants: pi, e. "
        f"Functions of one argument: {math_names} and every table name ({', '.join(ACTIVATIONS)}). "
        f"max and min take 2 to {MAX_MINMAX_ARGS} arguments. "
        "Example: x*sigmoid(x), relu(x)**2, max(x, 0.01*x)."
    )


def parse_activation(text: str) -> ParsedActivation:
    """Parse ``text``: a table name (``relu``) or an expression in ``x`` (``x*sigmoid(x)``).

    Raises :class:`~symbolic.errors.InvalidExpression` (one line) for anything else.
    """
    if not isinstance(text, str):
        raise InvalidExpression(f"--activation {text!r} : expected a string, "
                                f"got {type(text).__name__}")
    if len(text) > MAX_INPUT_CHARS:
        raise _error(text, f"too long: {len(text)} characters; at most {MAX_INPUT_CHARS}")
    source = text.strip()
    if not source:
        raise _error(text, "empty expression; give a table name such as relu "
                           "or an expression in x such as x*sigmoid(x)")
    if source in ACTIVATIONS:
        return ParsedActivation(text, ACTIVATIONS[source].expr, source)
    return ParsedActivation(text, _Parser(text).parse())


def _quote(text: str) -> str:
    if len(text) <= _QUOTE_CHARS:
        return repr(text)
    return f"{text[:_QUOTE_CHARS]!r}... ({len(text)} characters)"


def _error(text: str, what: str) -> InvalidExpression:
    return InvalidExpression(f"--activation {_quote(text)} : {' '.join(what.split())}")


class _Reject(Exception):
    """A problem with a constant, reported by the caller with the node's position."""


def _float_pow(b: float, p: float) -> float:
    v = b ** (int(p) if p.is_integer() else p)
    if isinstance(v, complex):
        raise ValueError("a negative number to a fractional power is not real")
    return float(v)


# float64 estimates of the constants SymPy may produce, keyed by the SymPy class.
_APPROX: dict[type, Callable[..., float]] = {
    sympy.Add: lambda *v: math.fsum(v),
    sympy.Mul: lambda *v: math.prod(v),
    sympy.Pow: _float_pow,
    sympy.exp: math.exp,
    sympy.log: math.log,
    sympy.erf: math.erf,
    sympy.tanh: math.tanh,
    sympy.sinh: math.sinh,
    sympy.cosh: math.cosh,
    sympy.Abs: abs,
    sympy.Max: max,
    sympy.Min: min,
}
_RELATIONS = {sympy.StrictGreaterThan: operator.gt, sympy.GreaterThan: operator.ge,
              sympy.StrictLessThan: operator.lt, sympy.LessThan: operator.le}


@dataclass(frozen=True)
class _Info:
    """Tree size of a SymPy expression and, when it is constant, its float64 estimate."""

    size: int
    constant: bool
    value: float | None


class _Parser:
    """One parse of one text: the checks before ``ast.parse``, the checks of the tree, and the
    bottom-up build with a float64 estimate of every constant (memoised by expression)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.source = text.strip()
        self.lead = len(text) - len(text.lstrip())  # columns are reported in the original text
        self.info: dict[sympy.Basic, _Info] = {}

    def error(self, what: str) -> InvalidExpression:
        return _error(self.text, what)

    def column(self, index: int) -> int:
        return self.lead + index + 1

    def parse(self) -> sympy.Expr:
        self.scan()
        tree = self.syntax()
        self.vet(tree.body)
        try:
            expr = self.build(tree.body)
        except RecursionError:
            raise self.error("too deeply nested for SymPy; simplify the expression") from None
        if not isinstance(expr, sympy.Expr) or expr.free_symbols - {z}:
            raise self.error(f"the result {expr} is not an expression in x")
        return expr

    # -- before ast.parse ------------------------------------------------------------------
    def scan(self) -> None:
        for i, ch in enumerate(self.source):
            if not " " <= ch <= "~":
                kind = "non-ASCII" if ord(ch) > 127 else "control"
                raise self.error(f"{kind} character {ch!r} at column {self.column(i)} is not "
                                 "allowed; write the expression in ASCII on one line")
        tokens = len(_TOKEN.findall(self.source))
        if tokens > MAX_TOKENS:
            raise self.error(f"too long: {tokens} tokens; at most {MAX_TOKENS}")
        depth = 0
        for i, ch in enumerate(self.source):
            depth += (ch in "([{") - (ch in ")]}")
            if depth > MAX_DEPTH:
                raise self.error(f"brackets nested more than {MAX_DEPTH} deep at column "
                                 f"{self.column(i)}; simplify the expression")

    def syntax(self) -> ast.Expression:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. SyntaxWarning for "1if x else 2"
                return ast.parse(self.source, mode="eval")
        except SyntaxError as exc:
            raise self.error(self.syntax_message(exc)) from None
        except (RecursionError, MemoryError):
            raise self.error("too deeply nested for Python's parser; simplify the expression"
                             ) from None
        except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
            raise self.error(f"not an expression: {exc}") from None

    def syntax_message(self, exc: SyntaxError) -> str:
        end = self.column(len(self.source))
        if not any(q in self.source for q in "'\""):
            opened: list[tuple[str, int]] = []
            for i, ch in enumerate(self.source):
                if ch in "([{":
                    opened.append((ch, i))
                elif ch in ")]}":
                    if not opened:
                        return f"unmatched {ch!r} at column {self.column(i)}"
                    want = {"(": ")", "[": "]", "{": "}"}[opened.pop()[0]]
                    if ch != want:
                        return f"{ch!r} at column {self.column(i)} does not close the bracket " \
                               f"before it; expected {want!r}"
            if opened:
                ch, i = opened[-1]
                want = {"(": ")", "[": "]", "{": "}"}[ch]
                return (f"unexpected end of expression at column {end}; expected {want!r} "
                        f"to close {ch!r} at column {self.column(i)}")
        offset = exc.offset or 0
        if exc.lineno not in (None, 1) or not 0 < offset <= len(self.source):
            return f"unexpected end of expression at column {end}; expected a number, x or '('"
        what = " ".join(str(exc.msg).split())
        near = self.source[offset - 1:offset + 9]
        hint = "" if what != "invalid syntax" else "; expected an expression such as x*sigmoid(x)"
        return f"{what} at column {self.column(offset - 1)} (near {near!r}){hint}"

    # -- the tree, before SymPy --------------------------------------------------------------
    def vet(self, root: ast.expr) -> None:
        """Reject every node outside the whitelist, in source order; bound size and depth."""
        nodes = minmax = 0
        stack: list[tuple[ast.AST, int]] = [(root, 1)]
        while stack:
            node, depth = stack.pop()
            nodes += 1
            where = f"at column {self.column(getattr(node, 'col_offset', 0))}"
            if nodes > MAX_NODES:
                raise self.error(f"too many terms: more than {MAX_NODES} nodes; "
                                 "simplify the expression")
            if depth > MAX_DEPTH:
                raise self.error(f"nested more than {MAX_DEPTH} levels deep {where}; "
                                 "simplify the expression")
            children: list[tuple[ast.AST, int]] = []
            if isinstance(node, ast.BinOp):
                self.vet_operator(node)
                chain = _CHAIN_FAMILY.get(type(node.op))
                same = isinstance(node.left, ast.BinOp) and \
                    chain is not None and _CHAIN_FAMILY.get(type(node.left.op)) == chain
                children = [(node.left, 0 if same else 1), (node.right, 1)]
            elif isinstance(node, ast.UnaryOp):
                if type(node.op) not in _UNARY:
                    raise self.error(f"{_REJECTED_OPERATORS[type(node.op)][1]} {where}")
                children = [(node.operand, 1)]
            elif isinstance(node, ast.Call):
                fn = self.vet_call(node, where)
                minmax += fn.minmax_per_call + fn.minmax_per_arg * len(node.args)
                if minmax > MAX_MINMAX_ARGS:
                    raise self.error(f"too many max/min terms (relu-family calls included) "
                                     f"{where}: at most {MAX_MINMAX_ARGS} arguments in total")
                children = [(a, 1) for a in node.args]
            elif isinstance(node, ast.Name):
                self.vet_name(node, where)
            elif isinstance(node, ast.Constant):
                self.vet_constant(node, where)
            else:
                what = _REJECTED_NODES.get(type(node), f"{type(node).__name__} is not allowed")
                raise self.error(f"{what} {where}")
            stack.extend((c, depth + cost) for c, cost in reversed(children))

    def vet_operator(self, node: ast.BinOp) -> None:
        if type(node.op) in _BINARY:
            return
        symbol, what = _REJECTED_OPERATORS[type(node.op)]
        i = self.source.find(symbol, node.left.end_col_offset, node.right.col_offset)
        raise self.error(f"{what} at column {self.column(max(i, node.col_offset))}")

    def vet_call(self, node: ast.Call, where: str) -> _Function:
        if not isinstance(node.func, ast.Name):
            what = _REJECTED_NODES.get(type(node.func), "only named functions can be called")
            raise self.error(f"{what} {where}")
        name = node.func.id
        fn = FUNCTIONS.get(name)
        if fn is None:
            if name in VARIABLES or name in CONSTANTS:
                raise self.error(f"{name!r} {where} is not a function; write {name}*(...) "
                                 "to multiply")
            if name.startswith("_"):
                raise self.error(f"names starting with '_' such as {name!r} are not allowed "
                                 f"{where}")
            raise self.error(f"unknown function {name!r} {where}{_suggest(name, FUNCTIONS)}; "
                             f"functions: {', '.join(sorted(FUNCTIONS))}")
        if node.keywords:
            raise self.error(f"keyword arguments are not allowed in {name}(...) {where}")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(f"starred arguments are not allowed in {name}(...) {where}")
        if not fn.min_args <= len(node.args) <= fn.max_args:
            wanted = (f"{fn.min_args} argument" if fn.max_args == 1
                      else f"{fn.min_args} to {fn.max_args} arguments")
            raise self.error(f"{name} takes {wanted}, got {len(node.args)} {where}")
        return fn

    def vet_name(self, node: ast.Name, where: str) -> None:
        name = node.id
        if name.startswith("_"):
            raise self.error(f"names starting with '_' such as {name!r} are not allowed {where}")
        if name in VARIABLES or name in CONSTANTS:
            return
        if name in FUNCTIONS:
            raise self.error(f"{name!r} {where} is a function here; call it, e.g. {name}(x)")
        valid = ", ".join([*VARIABLES, *CONSTANTS])
        hint = _suggest(name, [*VARIABLES, *CONSTANTS, *FUNCTIONS])
        raise self.error(f"unknown name {name!r} {where}{hint}; valid names: {valid} "
                         f"and the functions {', '.join(sorted(FUNCTIONS))}")

    def vet_constant(self, node: ast.Constant, where: str) -> None:
        value = node.value
        kinds = {bool: "True/False are not allowed; use 1 or 0",
                 str: "strings are not allowed", bytes: "bytes are not allowed",
                 complex: "complex numbers are not allowed; activations are real"}
        for kind, what in kinds.items():
            if isinstance(value, kind):
                raise self.error(f"{what} {where}")
        if not isinstance(value, (int, float)):
            raise self.error(f"{value!r} is not allowed {where}")

    # -- SymPy, bottom up -------------------------------------------------------------------
    def build(self, node: ast.expr) -> sympy.Expr:
        if isinstance(node, ast.BinOp):
            spine = []  # a left-nested chain a+b+c+... is built iteratively, not recursively
            while isinstance(node, ast.BinOp):
                spine.append(node)
                node = node.left
            acc = self.build(node)
            for op in reversed(spine):
                acc = self.binary(op, acc, self.build(op.right))
            return acc
        if isinstance(node, ast.UnaryOp):
            return self.checked(node, _UNARY[type(node.op)], self.build(node.operand))
        if isinstance(node, ast.Call):
            fn = FUNCTIONS[node.func.id]
            return self.checked(node, fn.build, *(self.build(a) for a in node.args))
        if isinstance(node, ast.Name):
            return VARIABLES[node.id] if node.id in VARIABLES else CONSTANTS[node.id]
        return self.checked(node, lambda: self.number(node))

    def number(self, node: ast.Constant) -> sympy.Rational:
        """The literal exactly as typed: 0.1 is 1/10 and 1e-30 is 1/10**30, never a Float."""
        if isinstance(node.value, int):
            if abs(node.value) > MAX_LITERAL:
                raise _Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
            return sympy.Integer(node.value)
        typed = Decimal(self.source[node.col_offset:node.end_col_offset].replace("_", ""))
        size = typed.copy_abs()
        if size > MAX_LITERAL:
            raise _Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
        if size and size < MIN_LITERAL:
            raise _Reject(f"is too small; nonzero numbers must be at least {MIN_LITERAL} in size")
        if len(typed.as_tuple().digits) > MAX_LITERAL_DIGITS:
            raise _Reject(f"has more than {MAX_LITERAL_DIGITS} significant digits")
        exact = Fraction(typed)
        return sympy.Rational(exact.numerator, exact.denominator)

    def binary(self, node: ast.BinOp, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        if isinstance(node.op, ast.Div) and right == 0:
            raise self.error(f"division by zero at column {self.column(node.col_offset)} "
                             f"in {self.segment(node)!r}")
        if isinstance(node.op, ast.Pow):
            try:
                self.check_power(left, right)
            except _Reject as exc:
                raise self.error(f"{self.segment(node)!r} at column "
                                 f"{self.column(node.col_offset)} {exc}") from None
        return self.checked(node, _BINARY[type(node.op)][1], left, right)

    def check_power(self, base: sympy.Expr, exponent: sympy.Expr) -> None:
        """Bound base**exponent before SymPy evaluates it (it computes Integer powers at once)."""
        b, p = self.measure(base), self.measure(exponent)
        if p.value is None:
            if b.value is not None and b.value < 0:
                raise _Reject("is not real: a negative number to a variable power")
            return
        if abs(p.value) > MAX_EXPONENT:
            raise _Reject(f"has too large an exponent; |exponent| must be at most {MAX_EXPONENT}")
        if b.value is None:
            return
        if b.value == 0 and p.value < 0:
            raise _Reject("divides by zero")
        try:
            estimate = _float_pow(b.value, p.value)
        except ValueError as exc:
            raise _Reject(f"is not real: {exc}") from None
        except (OverflowError, ZeroDivisionError):
            estimate = math.inf
        _check_size(estimate, exactly_zero=b.value == 0)
        if isinstance(base, sympy.Rational) and isinstance(exponent, sympy.Rational):
            bits = max(int(base.p).bit_length(), int(base.q).bit_length()) * abs(exponent.p)
            if bits > MAX_RATIONAL_BITS:
                raise _Reject(f"would need about {bits} bits exactly; "
                              f"at most {MAX_RATIONAL_BITS}")

    def checked(self, node: ast.expr, build: Callable[..., sympy.Expr], *args) -> sympy.Expr:
        """``build(*args)``, with SymPy's errors and any unsafe constant reported at ``node``."""
        where = f"{self.segment(node)!r} at column {self.column(node.col_offset)}"
        try:
            result = build(*args)
            info = self.measure(result)
        except _Reject as exc:
            raise self.error(f"{where} {exc}") from None
        except (ArithmeticError, ValueError, TypeError, NotImplementedError) as exc:
            raise self.error(f"SymPy could not build {where}: {exc}") from None
        if info.size > MAX_TREE_SIZE:
            raise self.error(f"{where} grows to {info.size} SymPy nodes; at most "
                             f"{MAX_TREE_SIZE}: nest fewer activations")
        return result

    def measure(self, e: sympy.Basic) -> _Info:
        """Size and float64 estimate of ``e``; raise _Reject for a constant SymPy could only
        handle at great cost (huge, tiny, inexact zero) or that is not a real number."""
        known = self.info.get(e)
        if known is not None:
            return known
        kids = [self.measure(a) for a in e.args]
        constant = e != z and all(k.constant for k in kids)
        value = None
        if constant and isinstance(e, sympy.Expr):
            value = self.approximate(e, [k.value for k in kids])
        info = _Info(1 + sum(k.size for k in kids), constant, value)
        self.info[e] = info
        return info

    def approximate(self, e: sympy.Expr, values: list[float | None]) -> float:
        if isinstance(e, sympy.Rational):
            bits = max(int(e.p).bit_length(), int(e.q).bit_length())
            if bits > MAX_RATIONAL_BITS:
                raise _Reject(f"gives an exact number of {bits} bits; at most "
                              f"{MAX_RATIONAL_BITS}")
            try:
                value = int(e.p) / int(e.q)
            except OverflowError:
                value = math.inf
            _check_size(value, exactly_zero=e.p == 0)
            return value
        if e is sympy.pi or e is sympy.E:
            return float(e)
        if e is sympy.I:
            raise _Reject("is not real")
        if e in (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            raise _Reject(f"is undefined (SymPy gives {e})")
        if isinstance(e, sympy.Piecewise):
            return self.approximate_piecewise(e)
        rule = _APPROX.get(type(e))
        if rule is None or any(v is None for v in values):
            raise _Reject(f"gives the constant {type(e).__name__}, which cannot be checked")
        try:
            value = rule(*values)
        except OverflowError:
            value = math.inf
        except ZeroDivisionError:
            raise _Reject("divides by zero") from None
        except ValueError:
            raise _Reject("is undefined or not real (e.g. log or sqrt of a negative number)"
                          ) from None
        _check_size(value, exactly_zero=False)
        return value

    def approximate_piecewise(self, e: sympy.Piecewise) -> float:
        for piece, condition in e.args:
            if condition is sympy.true:
                return self.measure(piece).value
            compare = _RELATIONS.get(type(condition))
            if compare is None:
                break
            lhs, rhs = (self.measure(s).value for s in condition.args)
            if compare(lhs, rhs):
                return self.measure(piece).value
        raise _Reject("gives a piecewise constant whose case cannot be decided")

    def segment(self, node: ast.expr) -> str:
        text = self.source[node.col_offset:node.end_col_offset]
        return text if len(text) <= 40 else text[:37] + "..."


def _check_size(value: float, *, exactly_zero: bool) -> None:
    """Constants stay within [MIN_CONSTANT, MAX_CONSTANT] in size, or are exactly 0."""
    if math.isnan(value):
        raise _Reject("is undefined")
    if not abs(value) <= MAX_CONSTANT:
        raise _Reject(f"is too large: constants must be at most {MAX_CONSTANT:.0e} in size")
    if not exactly_zero and abs(value) < MIN_CONSTANT:
        raise _Reject(f"is too small: constants must be exactly 0 or at least "
                      f"{MIN_CONSTANT:.0e} in size (to float64 precision)")


def _suggest(name: str, choices) -> str:
    close = difflib.get_close_matches(name.lower(), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
