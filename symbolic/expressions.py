"""The safe parser for user activations: ``--activation "x*sigmoid(x)"``.

The text is read with Python's ``ast`` module and a whitelist of node types, names and functions,
then built into a SymPy expression in :data:`symbolic.activations.z` node by node. User text is
never executed and never handed to SymPy's string parser. A bare table name (``relu``) is that
entry of :data:`symbolic.activations.ACTIVATIONS`; every table name is also a function
(``relu(x)**2``, ``gelu(2*x)``).

An activation maps R to R, so every part of the expression must be defined and real at every
real x, judged by its form: ``sqrt(x)``, ``log(x)``, ``1/x`` and ``x**x`` are rejected, while
``sqrt(abs(x))``, ``log(1 + exp(x))``, ``x/(1 + abs(x))`` and ``2**x`` are accepted.

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
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

from symbolic.activations import ACTIVATIONS, sympy_sigmoid, sympy_softplus, z
from symbolic.domain_sign import ACCURATE_BITS, Sign, accurate_value, sign_everywhere
from symbolic.errors import InvalidExpression

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

_QUOTE_CHARS = 60  # longer input is quoted by its prefix
_CLOSING = {"(": ")", "[": "]", "{": "}"}
_TOKEN = r"[A-Za-z_]\w*|[0-9.][\w.]*(?:[eE][+-][\w.]*)?|\*\*|//|<<|>>|\S"  # for counting


@dataclass(frozen=True)
class ParsedActivation:
    """A user activation: the ``text`` as given, its SymPy ``expr`` in ``z``, and ``name`` when
    the text was a bare table name (else None)."""

    text: str
    expr: sympy.Expr
    name: str | None = None


@dataclass(frozen=True)
class _Function:
    """A function callable in user text, with the Max/Min arguments it adds per call and per
    argument, and whether it introduces a Piecewise (both bound SymPy's work)."""

    name: str
    build: Callable[..., sympy.Expr]
    min_args: int = 1
    max_args: int = 1
    minmax_per_call: int = 0
    minmax_per_arg: int = 0
    piecewise: bool = False


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
    **{
        a.name: _Function(
            a.name,
            a.sympy_at,
            minmax_per_call=_minmax_args(a.expr),
            piecewise=a.expr.has(sympy.Piecewise),
        )
        for a in ACTIVATIONS.values()
    },
    **{f.name: f for f in _MATH_FUNCTIONS},
}
VARIABLES = {"x": z, "z": z}
CONSTANTS = {"pi": sympy.pi, "e": sympy.E}

_BINARY: dict[type, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[sympy.Expr], sympy.Expr]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_CHAIN_FAMILY = {ast.Add: "+", ast.Sub: "+", ast.Mult: "*", ast.Div: "*"}  # SymPy flattens these
# Rejected syntax, as (what it is, what to write instead); messages read "<what> at column N is
# not allowed; <hint>".
_REJECTED_OPERATORS: dict[type, tuple[str, str, str]] = {  # type: (symbol, what, hint)
    ast.FloorDiv: ("//", "floor division '//'", "use /"),
    ast.Mod: ("%", "remainder '%'", ""),
    ast.MatMult: ("@", "matrix product '@'", "use *"),
    ast.BitXor: ("^", "'^' (bitwise xor, not a power)", "use **"),
    ast.BitAnd: ("&", "bitwise '&'", ""),
    ast.BitOr: ("|", "bitwise '|'", ""),
    ast.LShift: ("<<", "shift '<<'", ""),
    ast.RShift: (">>", "shift '>>'", ""),
    ast.Invert: ("~", "bitwise '~'", "use - to negate"),
    ast.Not: ("not", "'not'", "use max, min or relu"),
}
_REJECTED_NODES: dict[type, tuple[str, str]] = {
    ast.Attribute: ("attribute access", "use a function name such as exp, log, relu"),
    ast.Subscript: ("a subscript", ""),
    ast.Lambda: ("lambda", "write the expression in x directly, e.g. x*sigmoid(x)"),
    ast.IfExp: ("a conditional expression", "use max, min or relu"),
    ast.Compare: ("a comparison", "use max, min or relu"),
    ast.BoolOp: ("'and'/'or'", "use max, min or relu"),
    ast.ListComp: ("a comprehension", ""),
    ast.SetComp: ("a comprehension", ""),
    ast.DictComp: ("a comprehension", ""),
    ast.GeneratorExp: ("a comprehension", ""),
    ast.List: ("a list", "use max(a, b) for a maximum"),
    ast.Tuple: ("a tuple", "use max(a, b) for a maximum"),
    ast.Set: ("a set", ""),
    ast.Dict: ("a dict", ""),
    ast.JoinedStr: ("an f-string", ""),
    ast.NamedExpr: ("assignment ':='", ""),
    ast.Starred: ("a starred argument", ""),
    ast.Await: ("'await'", ""),
    ast.Yield: ("'yield'", ""),
    ast.YieldFrom: ("'yield'", ""),
}
_REJECTED_CONSTANTS: dict[type, tuple[str, str]] = {  # bool before int: True is an int
    bool: ("True/False", "use 1 or 0"),
    str: ("a string", "write the expression itself, without quotes"),
    bytes: ("a bytes literal", ""),
    complex: ("a complex number", "activations are real"),
}


def describe_allowed() -> str:
    """The names and operators user text may use, as one paragraph (for ``--help``)."""
    math_names = ", ".join(f.name for f in _MATH_FUNCTIONS if f.max_args == 1)
    return (
        "An activation is a table name or an expression in x (or z). Numbers: 2, 0.5, 1e-3. "
        "Operators: + - * / ** and unary -. Constants: pi, e. "
        f"Functions of one argument: {math_names} and every table name "
        f"({', '.join(ACTIVATIONS)}). max and min take 2 to {MAX_MINMAX_ARGS} arguments. "
        "Every part must be real at every real x: sqrt(abs(x)), not sqrt(x). "
        "Example: x*sigmoid(x), relu(x)**2, max(x, 0.01*x)."
    )


def parse_activation(text: str) -> ParsedActivation:
    """Parse ``text``: a table name (``relu``) or an expression in ``x`` (``x*sigmoid(x)``).

    Raises :class:`~symbolic.errors.InvalidExpression` (one line) for anything else.
    """
    if not isinstance(text, str):
        raise InvalidExpression(
            f"--activation {text!r} : expected a string, got {type(text).__name__}"
        )
    if len(text) > MAX_INPUT_CHARS:
        raise input_error(text, f"too long: {len(text)} characters; at most {MAX_INPUT_CHARS}")
    source = text.strip()
    if not source:
        raise input_error(
            text,
            "empty expression; give a table name such as relu "
            "or an expression in x such as x*sigmoid(x)",
        )
    if source in ACTIVATIONS:
        return ParsedActivation(text, ACTIVATIONS[source].expr, source)
    if "#" in source:  # Python's tokenizer would drop a comment silently
        raise input_error(
            text,
            f"'#' at column {source.index('#') + 1} is not part of an "
            "expression (comments are not accepted); remove it",
        )
    return ParsedActivation(text, ExpressionParser(text).parse())


def quote_input(text: str) -> str:
    if len(text) <= _QUOTE_CHARS:
        return repr(text)
    return f"{text[:_QUOTE_CHARS]!r}... ({len(text)} characters)"


def input_error(text: str, what: str) -> InvalidExpression:
    """The one-line error about user input ``text``: ``--activation 'text' : what``."""
    return InvalidExpression(f"--activation {quote_input(text)} : {' '.join(what.split())}")


class _Reject(Exception):
    """A problem with a constant, reported by the caller with the node's position."""


class _OutOfTime(BaseException):
    """Raised inside SymPy when the build is over time; not an Exception, so that SymPy's own
    ``except Exception`` clauses cannot swallow it."""


@contextmanager
def _cpu_deadline(seconds: float) -> Iterator[None]:
    """Raise _OutOfTime inside the block once it has used ``seconds`` of CPU time.

    In the main thread (the CLI) a virtual-time interval timer does it at no cost; on exit the
    previous SIGVTALRM handler and timer are restored. In other threads, where Python delivers
    no signals (and on platforms without setitimer), a trace function checks the clock every
    few hundred calls, which slows the build several times. Either way the check happens
    between Python operations: SymPy is pure Python, and the integers it works on are bounded
    above, so no single C call runs long.
    """
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def on_timer(signum, frame):
            raise _OutOfTime

        previous = signal.signal(signal.SIGVTALRM, on_timer)
        previous_timer = signal.setitimer(signal.ITIMER_VIRTUAL, max(seconds, 1e-6))  # 0: off
        try:
            yield
        finally:
            try:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            finally:
                signal.signal(signal.SIGVTALRM, previous)
                if previous_timer[0]:
                    signal.setitimer(signal.ITIMER_VIRTUAL, *previous_timer)
        return
    previous_tracer = sys.gettrace()
    deadline = time.thread_time() + seconds
    calls = 0

    def tracer(frame, event, arg):
        nonlocal calls
        calls += 1
        if calls % 256 == 0 and time.thread_time() > deadline:
            raise _OutOfTime
        return previous_tracer(frame, event, arg) if previous_tracer is not None else None

    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(previous_tracer)


def _float_pow(b: float, p: float) -> float:
    v = b ** (int(p) if p.is_integer() else p)
    if isinstance(v, complex):
        raise ValueError("a negative number to a fractional power")
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
# Constant arguments of bounded functions SymPy may rewrite through exp stay where that exp
# stays within MAX_CONSTANT (exp, sinh and cosh are bounded by their own value): tanh(1e6) is
# 1.0 in float64, but simplify() turns it into exp(2e6) and runs out of memory. Keyed by class:
# how the argument enters the exponent.
_EXP_GROWTH: dict[type, Callable[[float], float]] = {
    sympy.tanh: lambda v: 2 * abs(v),
    sympy.erf: lambda v: v * v,
}
_RELATIONS = {
    sympy.StrictGreaterThan: operator.gt,
    sympy.GreaterThan: operator.ge,
    sympy.StrictLessThan: operator.lt,
    sympy.LessThan: operator.le,
}


@dataclass(frozen=True)
class _Info:
    """What the parser knows of one SymPy expression, computed bottom up once per expression:
    tree size, number of Piecewise, whether it is free of ``z`` and then its float64 estimate
    (None for booleans and other non-numbers), its sign by form, and the same of its args."""

    size: int
    pieces: int
    constant: bool
    value: float | None
    real: bool  # defined and real at every real x, by its form (see _sign) ...
    nonneg: bool  # ... and nonnegative
    positive: bool  # ... and positive
    kids: tuple[_Info, ...]  # of the arguments


class ExpressionParser:
    """One parse of one text: the checks before ``ast.parse``, the checks of the tree, and the
    bottom-up build, each SymPy result measured (see _Info) before the next step uses it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.source = text.strip()
        self.lead = len(text) - len(text.lstrip())  # columns are reported in the original text
        self.info: dict[sympy.Basic, _Info] = {}
        self.current = "it"  # the node being built, for the message when time runs out

    def error(self, what: str) -> InvalidExpression:
        return input_error(self.text, what)

    def column(self, index: int) -> int:
        return self.lead + index + 1

    def parse(self) -> sympy.Expr:
        self.scan()
        tree = self.syntax()
        self.vet(tree.body)
        try:
            with _cpu_deadline(MAX_BUILD_SECONDS):
                expr = self.build(tree.body)
        except RecursionError:
            raise self.error("too deeply nested for SymPy; simplify the expression") from None
        except _OutOfTime:
            raise self.error(
                f"SymPy needed more than {MAX_BUILD_SECONDS:g} s to build "
                f"{self.current}; simplify the expression"
            ) from None
        if not isinstance(expr, sympy.Expr) or expr.free_symbols - {z}:
            raise self.error(f"the result {expr} is not an expression in x")
        return expr

    # -- before ast.parse ------------------------------------------------------------------
    def scan(self) -> None:
        for i, ch in enumerate(self.source):
            if not " " <= ch <= "~":
                kind = "non-ASCII" if ord(ch) > 127 else "control"
                raise self.error(
                    f"{kind} character {ch!r} at column {self.column(i)} is not "
                    "allowed; write the expression in ASCII on one line"
                )
        depth = 0
        for i, ch in enumerate(self.source):
            depth += (ch in "([{") - (ch in ")]}")
            if depth > MAX_DEPTH:
                raise self.error(
                    f"brackets nested more than {MAX_DEPTH} deep at column "
                    f"{self.column(i)}; simplify the expression"
                )
        tokens = len(re.findall(_TOKEN, self.source))
        if tokens > MAX_TOKENS:
            raise self.error(f"too long: {tokens} tokens; at most {MAX_TOKENS}")

    def syntax(self) -> ast.Expression:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # e.g. SyntaxWarning for "1if x else 2"
                return ast.parse(self.source, mode="eval")
        except SyntaxError as exc:
            raise self.error(self.syntax_message(exc)) from None
        except (RecursionError, MemoryError):
            raise self.error(
                "too deeply nested for Python's parser; simplify the expression"
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
                    want = _CLOSING[opened.pop()[0]]
                    if ch != want:
                        return (
                            f"{ch!r} at column {self.column(i)} does not close the bracket "
                            f"before it; expected {want!r}"
                        )
            if opened:
                ch, i = opened[-1]
                want = _CLOSING[ch]
                return (
                    f"unexpected end of expression at column {end}; expected {want!r} "
                    f"to close {ch!r} at column {self.column(i)}"
                )
        offset = exc.offset or 0
        if exc.lineno not in (None, 1) or not 0 < offset <= len(self.source):
            return f"unexpected end of expression at column {end}; expected a number, x or '('"
        what = " ".join(str(exc.msg).split())
        near = self.source[offset - 1 : offset + 9]
        hint = "" if what != "invalid syntax" else "; expected an expression such as x*sigmoid(x)"
        return f"{what} at column {self.column(offset - 1)} (near {near!r}){hint}"

    # -- the tree, before SymPy --------------------------------------------------------------
    def vet(self, root: ast.expr) -> None:
        """Reject every node outside the whitelist, in source order; bound size and depth."""
        nodes = minmax = piecewise = 0
        stack: list[tuple[ast.AST, int]] = [(root, 1)]
        while stack:
            node, depth = stack.pop()
            nodes += 1
            where = f"at column {self.column(getattr(node, 'col_offset', 0))}"
            if nodes > MAX_NODES:
                raise self.error(
                    f"too many terms: more than {MAX_NODES} nodes; simplify the expression"
                )
            if depth > MAX_DEPTH:
                raise self.error(
                    f"nested more than {MAX_DEPTH} levels deep {where}; simplify the expression"
                )
            children: list[tuple[ast.AST, int]] = []
            if isinstance(node, ast.BinOp):
                self.vet_operator(node)
                chain = _CHAIN_FAMILY.get(type(node.op))
                same = (
                    isinstance(node.left, ast.BinOp)
                    and chain is not None
                    and _CHAIN_FAMILY.get(type(node.left.op)) == chain
                )
                children = [(node.left, 0 if same else 1), (node.right, 1)]
            elif isinstance(node, ast.UnaryOp):
                if type(node.op) not in _UNARY:
                    _, what, hint = _rejected_operator(node.op)
                    raise self.error(_not_allowed(what, where, hint))
                children = [(node.operand, 1)]
            elif isinstance(node, ast.Call):
                fn = self.vet_call(node, where)
                minmax += fn.minmax_per_call + fn.minmax_per_arg * len(node.args)
                if minmax > MAX_MINMAX_ARGS:
                    raise self.error(
                        f"too many max/min terms (relu-family calls included) "
                        f"{where}: at most {MAX_MINMAX_ARGS} arguments in total"
                    )
                piecewise += fn.piecewise
                if piecewise > MAX_PIECEWISE_CALLS:
                    raise self.error(
                        f"too many piecewise activations (elu, selu) {where}: "
                        f"at most {MAX_PIECEWISE_CALLS}"
                    )
                children = [(a, 1) for a in node.args]
            elif isinstance(node, ast.Name):
                self.vet_name(node, where)
            elif isinstance(node, ast.Constant):
                self.vet_constant(node, where)
            else:
                what, hint = _REJECTED_NODES.get(type(node), (type(node).__name__, ""))
                raise self.error(_not_allowed(what, where, hint))
            stack.extend((c, depth + cost) for c, cost in reversed(children))

    def vet_operator(self, node: ast.BinOp) -> None:
        if type(node.op) in _BINARY:
            return
        symbol, what, hint = _rejected_operator(node.op)
        i = self.source.find(symbol, node.left.end_col_offset, node.right.col_offset)
        where = f"at column {self.column(max(i, node.col_offset))}"
        raise self.error(_not_allowed(what, where, hint))

    def vet_call(self, node: ast.Call, where: str) -> _Function:
        if not isinstance(node.func, ast.Name):
            what, hint = _REJECTED_NODES.get(type(node.func), ("calling an expression", ""))
            raise self.error(_not_allowed(what, where, hint or "call a function by its name"))
        name = node.func.id
        fn = FUNCTIONS.get(name)
        if fn is None:
            if name in VARIABLES or name in CONSTANTS:
                raise self.error(
                    f"{name!r} {where} is not a function; write {name}*(...) to multiply"
                )
            if name.startswith("_"):
                raise self.error(
                    _not_allowed(f"the name {name!r}", where, "names may not start with '_'")
                )
            raise self.error(
                f"unknown function {name!r} {where}{did_you_mean(name, FUNCTIONS)}; "
                f"functions: {', '.join(sorted(FUNCTIONS))}"
            )
        if node.keywords:
            raise self.error(
                _not_allowed(f"a keyword argument of {name}", where, "pass arguments by position")
            )
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(_not_allowed(f"a starred argument of {name}", where, ""))
        if not fn.min_args <= len(node.args) <= fn.max_args:
            wanted = (
                f"{fn.min_args} argument"
                if fn.max_args == 1
                else f"{fn.min_args} to {fn.max_args} arguments"
            )
            raise self.error(f"{name} {where} takes {wanted}, got {len(node.args)}")
        return fn

    def vet_name(self, node: ast.Name, where: str) -> None:
        name = node.id
        if name.startswith("_"):
            raise self.error(
                _not_allowed(f"the name {name!r}", where, "names may not start with '_'")
            )
        if name in VARIABLES or name in CONSTANTS:
            return
        if name in FUNCTIONS:
            raise self.error(f"{name!r} {where} is a function here; call it, e.g. {name}(x)")
        valid = ", ".join([*VARIABLES, *CONSTANTS])
        hint = did_you_mean(name, [*VARIABLES, *CONSTANTS, *FUNCTIONS])
        raise self.error(
            f"unknown name {name!r} {where}{hint}; valid names: {valid} "
            f"and the functions {', '.join(sorted(FUNCTIONS))}"
        )

    def vet_constant(self, node: ast.Constant, where: str) -> None:
        for kind, (what, hint) in _REJECTED_CONSTANTS.items():
            if isinstance(node.value, kind):
                raise self.error(_not_allowed(what, where, hint))
        if not isinstance(node.value, (int, float)):
            raise self.error(_not_allowed(repr(node.value), where, ""))

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
            args = [self.build(a) for a in node.args]
            if fn.piecewise and self.measure(args[0]).pieces > MAX_PIECEWISE_NESTED:
                raise self.error(
                    f"{self.segment(node)!r} at column "
                    f"{self.column(node.col_offset)} nests piecewise activations "
                    f"too deeply: the argument of {fn.name} may hold at most "
                    f"{MAX_PIECEWISE_NESTED} elu/selu pieces"
                )
            return self.checked(node, fn.build, *args)
        if isinstance(node, ast.Name):
            return VARIABLES[node.id] if node.id in VARIABLES else CONSTANTS[node.id]
        return self.checked(node, lambda: self.number(node))

    def number(self, node: ast.Constant) -> sympy.Rational:
        """The literal exactly as typed: 0.1 is 1/10 and 1e-30 is 1/10**30, never a Float."""
        if isinstance(node.value, int):
            if abs(node.value) > MAX_LITERAL:
                raise _Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
            return sympy.Integer(node.value)
        typed = Decimal(self.source[node.col_offset : node.end_col_offset].replace("_", ""))
        size = typed.copy_abs()
        if size > MAX_LITERAL:
            raise _Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
        if size and size < MIN_LITERAL:
            raise _Reject(
                f"is too small; nonzero numbers must be at least {MIN_LITERAL:.0e} in size"
            )
        if len(typed.as_tuple().digits) > MAX_LITERAL_DIGITS:
            raise _Reject(f"has more than {MAX_LITERAL_DIGITS} significant digits")
        exact = Fraction(typed)
        return sympy.Rational(exact.numerator, exact.denominator)

    def binary(self, node: ast.BinOp, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        if isinstance(node.op, ast.Div) and right == 0:
            raise self.error(
                f"{self.segment(node)!r} at column {self.column(node.col_offset)} divides by zero"
            )
        if (
            isinstance(node.op, ast.Div)
            and right.has(z)
            and not (
                self.measure(right).positive
                or self.measure(-right).positive
                or self.positive_by_algebra(right)
                or _positive_by_algebra(-right)
            )
        ):
            # checked before SymPy cancels: x/x is undefined at x = 0, not the constant 1
            raise self.error(
                f"{self.segment(node)!r} at column {self.column(node.col_offset)} "
                "divides by a value that may be 0 "
                f"({_short(right.xreplace({z: sympy.Symbol('x')}))}); divide by a "
                "positive value such as 1 + abs(x)"
            )
        if isinstance(node.op, ast.Pow):
            try:
                self.check_power(left, right)
            except _Reject as exc:
                raise self.error(
                    f"{self.segment(node)!r} at column {self.column(node.col_offset)} {exc}"
                ) from None
        return self.checked(node, _BINARY[type(node.op)], left, right)

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
        if isinstance(exponent, sympy.Rational) and exponent.q > MAX_EXPONENT_RATIONAL:
            # SymPy looks for an exact root of that degree of each integer in the base
            raise _Reject(
                f"has the exponent {_short(exponent)}; a root of a number must "
                f"have degree at most {MAX_EXPONENT_RATIONAL}, e.g. 2**(1/3)"
            )
        if isinstance(base, sympy.Rational) and isinstance(exponent, sympy.Rational):
            size = max(int(base.p).bit_length(), int(base.q).bit_length())
            bits = size * abs(exponent.p) // exponent.q  # of the exact result
            if bits > MAX_RATIONAL_BITS:
                raise _Reject(f"would need about {bits} bits exactly; at most {MAX_RATIONAL_BITS}")

    def checked(self, node: ast.expr, build: Callable[..., sympy.Expr], *args) -> sympy.Expr:
        """``build(*args)``, with SymPy's errors and any unsafe constant reported at ``node``."""
        where = f"{self.segment(node)!r} at column {self.column(node.col_offset)}"
        self.current = where
        try:
            result = build(*args)
            info = self.measure(result)
        except _Reject as exc:
            raise self.error(f"{where} {exc}") from None
        except Exception as exc:  # SymPy's own limits ("not comparable", recursion): user input
            detail = " ".join(str(exc).split())[:200]
            raise self.error(
                f"SymPy could not build {where}: {type(exc).__name__}: {detail}"
            ) from None
        if info.size > MAX_TREE_SIZE:
            raise self.error(
                f"{where} grows to {info.size} SymPy nodes; at most "
                f"{MAX_TREE_SIZE}: nest fewer activations"
            )
        if not info.real and all(k.real for k in info.kids):
            info = self.real_by_algebra(result, info)
        if not info.real:
            raise self.error(f"{where} is not real at every real x: {self.not_real(result)}")
        return result

    def positive_by_algebra(self, e: sympy.Expr) -> bool:
        """Is ``e`` > 0 at every real x, decided exactly? Then the parser knows it from now."""
        if not sign_everywhere(e, z).positive:
            return False
        self.info[e] = replace(self.measure(e), nonneg=True, positive=True)
        return True

    def real_by_algebra(self, e: sympy.Expr, info: _Info) -> _Info:
        """``log(b)``, ``b**p``: real at every x when b's sign, decided exactly, allows it
        (``log(x**2 - 2*x + 2)``, ``sqrt(cosh(x) - 1)``, ``(1 - tanh(x)**2)**-1``,
        ``(-1 - x**2)**-1``)."""
        if isinstance(e, sympy.log):
            base, need_positive = e.args[0], True
        elif isinstance(e, sympy.Pow) and info.kids[1].value is not None:
            base, need_positive = e.base, info.kids[1].value < 0
        else:
            return info
        sign = sign_everywhere(base, z)
        if isinstance(e, sympy.log) and not sign.positive and _positive_in_exp_form(base):
            sign = Sign(nonneg=True, positive=True)  # log(cosh(x) + sinh(x)): e^x > 0
        if isinstance(e, sympy.Pow) and e.exp.is_Integer and e.exp < 0 and sign.negative:
            even = bool(e.exp.is_even)  # 1/(-1 - x**2): a negative base, never 0
            known = replace(info, real=True, nonneg=even, positive=even)
        elif not (sign.positive if need_positive else sign.nonneg):
            return info
        elif isinstance(e, sympy.log):
            known = replace(info, real=True)
        else:
            known = replace(info, real=True, nonneg=True, positive=sign.positive)
        self.info[e] = known
        return known

    def not_real(self, e: sympy.Basic) -> str:
        """Name the innermost part of ``e`` that is not real at every real x, and the fix."""
        while True:
            parts = (
                e.args[:1]
                if isinstance(e, ExprCondPair)
                else [a for a in e.args if isinstance(a, (sympy.Expr, ExprCondPair))]
            )
            inner = next((a for a in parts if not self.info[a].real), None)
            if inner is None:
                break
            e = inner
        shown = _short(e.xreplace({z: sympy.Symbol("x", real=True)}))
        if isinstance(e, sympy.log):
            return (
                f"{shown} is the log of a value that may be 0 or negative; "
                "use e.g. log(1 + exp(x)) or log(1 + x**2)"
            )
        if isinstance(e, sympy.Pow) and self.info[e.exp].value is not None:
            if self.info[e.exp].value < 0:
                return (
                    f"{shown} divides by a value that may be 0; divide by a positive "
                    "value such as 1 + abs(x)"
                )
            return (
                f"{shown} is a fractional power of a value that may be negative; "
                "use e.g. abs(x)**0.5 or relu(x)**0.5"
            )
        if isinstance(e, sympy.Pow):
            return (
                f"{shown} is a variable power of a base that may be 0 or negative; "
                "use a positive base, e.g. 2**x or exp(x)"
            )
        return f"{shown} is not known to be real"

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
        if isinstance(e, (sympy.Pow, sympy.exp)):
            _check_exponent(e, kids)
        size = 1 + sum(k.size for k in kids)
        if value is not None and size > MAX_CONSTANT_SIZE and not isinstance(e, sympy.Rational):
            raise _Reject(
                f"is a constant of {size} SymPy nodes; at most {MAX_CONSTANT_SIZE}: "
                "write it as a decimal"
            )
        pieces = isinstance(e, sympy.Piecewise) + sum(k.pieces for k in kids)
        info = _Info(size, pieces, constant, value, *_sign(e, kids, value), tuple(kids))
        self.info[e] = info
        return info

    def approximate(self, e: sympy.Expr, values: list[float | None]) -> float:
        if isinstance(e, sympy.Rational):
            bits = max(int(e.p).bit_length(), int(e.q).bit_length())
            if bits > MAX_RATIONAL_BITS:
                raise _Reject(f"gives an exact number of {bits} bits; at most {MAX_RATIONAL_BITS}")
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
        if e.is_Number or e is sympy.zoo:  # only Rationals are built; nan, oo, zoo mean trouble
            raise _Reject(f"is undefined (SymPy gives {e})")
        if isinstance(e, sympy.Piecewise):
            return self.approximate_piecewise(e)
        rule = _APPROX.get(type(e))
        if rule is None or any(v is None for v in values):
            raise _Reject(f"gives the constant {type(e).__name__}, which cannot be checked")
        growth = _EXP_GROWTH.get(type(e))
        if growth is not None and growth(values[0]) > math.log(MAX_CONSTANT):
            raise _Reject(
                f"saturates: {type(e).__name__} of a constant as large as "
                f"{values[0]:.3g} stands for an exponential beyond "
                f"{MAX_CONSTANT:.0e}; use a smaller argument"
            )
        try:
            value = rule(*values)
        except OverflowError:
            value = math.inf
        except ZeroDivisionError:
            raise _Reject("divides by zero") from None
        except ValueError:
            raise _Reject(
                "is undefined or not real (e.g. log or sqrt of a negative number)"
            ) from None
        if _ill_conditioned(e, values, value):  # float64 cannot tell its size or sign
            value = accurate_value(e)
            if value is None:
                raise _Reject(
                    "is a constant too close to 0 to tell its sign (below "
                    f"float64's range or within 2^-{ACCURATE_BITS} of it)"
                )
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
            if lhs is None or rhs is None:
                break
            if compare(lhs, rhs):
                return self.measure(piece).value
        raise _Reject("gives a piecewise constant whose case cannot be decided")

    def segment(self, node: ast.expr) -> str:
        text = self.source[node.col_offset : node.end_col_offset]
        return text if len(text) <= 40 else text[:37] + "..."


CANCELLATION = 2.0**-40  # |a + b + ...| below this share of the largest term: float64 may lie


def _ill_conditioned(e: sympy.Expr, values: list[float], value: float) -> bool:
    """Is the float64 estimate of the constant ``e`` possibly wrong in sign or size: tiny (or
    0.0 for a constant that is not exactly 0), a sum that cancels, or a log near 1?"""
    if abs(value) < MIN_CONSTANT:
        return True
    if isinstance(e, sympy.Add):
        return abs(value) < CANCELLATION * max(abs(v) for v in values)
    if isinstance(e, sympy.log):
        return abs(values[0] - 1) < 2.0**-20
    return False


def _check_size(value: float, *, exactly_zero: bool) -> None:
    """Constants stay within [MIN_CONSTANT, MAX_CONSTANT] in size, or are exactly 0."""
    if math.isnan(value):
        raise _Reject("is undefined")
    if not abs(value) <= MAX_CONSTANT:
        raise _Reject(f"is too large: constants must be at most {MAX_CONSTANT:.0e} in size")
    if not exactly_zero and abs(value) < MIN_CONSTANT:
        raise _Reject(
            f"is too small: constants must be exactly 0 or at least "
            f"{MIN_CONSTANT:.0e} in size (to float64 precision)"
        )


def _sign(e: sympy.Basic, kids: list[_Info], value: float | None) -> tuple[bool, bool, bool]:
    """(real, nonnegative, positive) for every real x, judged by the form of ``e`` alone: a
    value is real when it is defined and real at every real x, which an activation must be.

    Conservative (``1 - sigmoid(x)`` is not known positive) and cheap: no SymPy assumption
    queries, which are what runs away on large inputs.
    """
    if value is not None:
        return True, value >= 0, value > 0
    if e == z:
        return True, False, False
    real = all(k.real for k in kids)
    if isinstance(e, sympy.Pow):
        base, power = kids
        if e.exp.is_Integer and e.exp > 0:
            return base.real, base.nonneg or e.exp.is_even and base.real, base.positive
        if power.value is not None and power.value > 0:  # a fractional power such as sqrt
            return base.nonneg, base.nonneg, base.positive
        real = base.positive and power.real  # 1/b, b**(-1/2), b**x: b must be positive
        return real, real, real
    if isinstance(e, (sympy.exp, sympy.cosh)):
        return real, real, real
    if isinstance(e, sympy.log):  # log(1 + nonnegative) >= 0, as in softplus
        at_least_one = (
            isinstance(e.args[0], sympy.Add)
            and all(k.nonneg for k in kids[0].kids)
            and sum(k.value for k in kids[0].kids if k.value is not None) >= 1
        )
        return kids[0].positive, at_least_one, False
    if isinstance(e, sympy.Abs):
        return real, True, False
    if isinstance(e, (sympy.Add, sympy.Max)):
        at_least = any if isinstance(e, sympy.Max) else all
        nonneg = at_least(k.nonneg for k in kids)
        if isinstance(e, sympy.Max) and any(-a in e.args for a in e.args):  # max(x, -x) = |x|
            nonneg = True
        return real, nonneg, nonneg and any(k.positive for k in kids)
    if isinstance(e, (sympy.Mul, sympy.Min, sympy.Piecewise)):
        return real, all(k.nonneg for k in kids), all(k.positive for k in kids)
    if isinstance(e, (sympy.tanh, sympy.sinh, sympy.erf, ExprCondPair)):  # keep the sign
        return kids[0].real, kids[0].nonneg, kids[0].positive
    return False, False, False


def _check_exponent(e: sympy.Pow | sympy.exp, kids: list[_Info]) -> None:
    """Bound the exponent of a power as SymPy has built it; SymPy's own rewriting of powers is
    what turns big numbers there into big work.

    * |exponent| stays within MAX_EXPONENT also after SymPy combines powers.
    * A variable exponent of a rational base has a constant part within MAX_EXPONENT:
      SymPy's factor_terms (used by max and min) computes base**constant exactly.
    * Numbers in a variable exponent, or in the exponent of a power that may be complex
      (x**(1/3), exp(sqrt(x))), stay within MAX_EXPONENT_RATIONAL: SymPy's realness queries
      (made by tanh, max, abs, ...) run a polynomial gcd of that degree
      (tanh(x**(123456789/10**9)) never returns).
    """
    if isinstance(e, sympy.exp):
        exponent, info = e.args[0], kids[0]
        bounded = not info.real
    else:
        exponent, info = e.exp, kids[1]
        if info.value is not None and abs(info.value) > MAX_EXPONENT:
            raise _Reject(
                f"gives the exponent {exponent} once SymPy combines powers; "
                f"|exponent| must be at most {MAX_EXPONENT}"
            )
        if exponent.is_Integer:
            return
        constant_part = exponent.as_coeff_Add()[0]
        if e.base.is_Rational and not info.constant and abs(constant_part) > MAX_EXPONENT:
            raise _Reject(
                f"has the constant {_short(constant_part)} in a variable exponent "
                f"of {_short(e.base)}; it must be at most {MAX_EXPONENT} in size"
            )
        # e.g. 2**(1/3); a real constant power of a base that is ≥ 0 for every x (abs(x),
        # relu(x)) stays real and cheap: abs(x)**1.0000001 is a valid activation
        cheap_real = info.constant and info.real and kids[0].nonneg and e.base.free_symbols
        bounded = not cheap_real and (not info.constant or not (kids[0].positive and info.real))
    if not bounded:
        return
    numbers = [exponent] if exponent.is_Rational else exponent.atoms(sympy.Rational)
    worst = max((max(abs(int(r.p)), int(r.q)) for r in numbers), default=0)
    if worst > MAX_EXPONENT_RATIONAL:
        raise _Reject(
            f"has {_number(worst)} in an exponent; numerators and denominators in "
            f"a variable exponent or in a power of x must be at most "
            f"{MAX_EXPONENT_RATIONAL}, e.g. x**(1/3), 2**(x/3)"
        )


def _positive_by_algebra(e: sympy.Expr) -> bool:
    """Is ``e`` > 0 at every real x (decided exactly)?"""
    return sign_everywhere(e, z).positive


POSITIVITY_TIMEOUT_S = 1.0  # SymPy's exp form of a log argument, tried when its form says nothing


def _positive_in_exp_form(arg: sympy.Expr) -> bool:
    """Is ``arg`` positive for every real x once written with exp and simplified (bounded)?"""
    from symbolic.budget import BudgetExceeded, time_limit

    if arg.count_ops() > MAX_CONSTANT_SIZE:
        return False
    try:
        with time_limit(POSITIVITY_TIMEOUT_S):
            return sympy.simplify(arg.rewrite(sympy.exp)).is_positive is True
    except (BudgetExceeded, RecursionError, TypeError, ValueError, AttributeError):
        return False


def _number(n: int) -> str:
    return str(n) if n < 10**15 else f"a {len(str(n))}-digit number"


def _short(e: sympy.Expr) -> str:
    text = str(e)
    return text if len(text) <= 40 else text[:37] + "..."


def _rejected_operator(op: ast.AST) -> tuple[str, str, str]:
    name = type(op).__name__
    return _REJECTED_OPERATORS.get(type(op), (name, f"the operator {name}", ""))


def _not_allowed(what: str, where: str, hint: str) -> str:
    return f"{what} {where} is not allowed" + (f"; {hint}" if hint else "")


def did_you_mean(name: str, choices) -> str:
    close = difflib.get_close_matches(name.lower(), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
