"""The safe parser for user activations: ``--activation "x*sigmoid(x)"``.

The text is read with Python's ``ast`` module and a whitelist of node types, names and functions,
then built into a SymPy expression in :data:`symbolic.activations.z` node by node. User text is
never executed and never handed to SymPy's string parser. A bare table name (``relu``) is that
entry of :data:`symbolic.activations.ACTIVATIONS`; every table name is also a function
(``relu(x)**2``, ``gelu(2*x)``).

An activation maps R to R, so every part of the expression must be defined and real at every
real x, judged by its form: ``sqrt(x)``, ``log(x)``, ``1/x``, ``x/(1 + sin(x))`` and ``x**x`` are
rejected, while ``sqrt(abs(x))``, ``log(1 + exp(x))``, ``x/(1 + abs(x))``, ``x/(2 + sin(x))``,
``x/(-1 - x**2)`` and ``2**x`` are accepted (``domain_sign`` decides the harder signs).

Every rejection is an :class:`~symbolic.errors.InvalidExpression` whose message is one line that
quotes the input and says what is wrong, where, and what to write instead.

The work is bounded whatever the input (``expression_limits``): the text is measured before
``ast.parse`` sees it (``text_checks``), the tree before SymPy sees it (``vet``), every constant
is estimated in float64 before SymPy could evaluate it (``expression_estimates``), and the build
runs under the kernel's CPU-time limit. The functions callable here are the rows of the functions
table (``symbolic.languages.functions``), the activations of ``symbolic.activations`` and a few
built from them (``sqrt``, ``sigmoid``, ``softplus``) or by structure (``abs``, ``max``, ``min``).

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
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

import sympy

from symbolic.activations import ACTIVATIONS, sympy_sigmoid, sympy_softplus, z
from symbolic.errors import InvalidExpression
from symbolic.kernel import (
    BRANCH_HEADS,
    PROVED,
    has_closed_irrational,
    literal,
    literal_replace,
    resolve_closed_branches,
    zero_verdict,
)
from symbolic.languages import functions
from symbolic.languages.expression_estimates import ConstantEstimates, check_size, float_pow
from symbolic.languages.expression_limits import (
    MAX_BUILD_SECONDS,
    MAX_DEPTH,
    MAX_EXPONENT,
    MAX_EXPONENT_RATIONAL,
    MAX_INPUT_CHARS,
    MAX_LITERAL,
    MAX_LITERAL_DIGITS,
    MAX_MINMAX_ARGS,
    MAX_NODES,
    MAX_PIECEWISE_CALLS,
    MAX_PIECEWISE_NESTED,
    MAX_RATIONAL_BITS,
    MAX_TREE_SIZE,
    MIN_LITERAL,
    NearZero,
    Reject,
    short,
)
from symbolic.languages.expression_powers import power as _power
from symbolic.languages.expression_signs import Info, SignsByAlgebra, positive_everywhere
from symbolic.languages.text_checks import (
    REJECTED_CONSTANTS,
    REJECTED_NODES,
    TextChecks,
    did_you_mean,
    input_error,
    not_allowed,
    rejected_operator,
)
from symbolic.limits import BudgetExceeded, deadline

MAX_ZERO_CONSTANTS = 8  # constants of one node proved exactly 0 (log(8) - 3*log(2)) ...
ZERO_PROOF_SECONDS = 0.5  # ... each within this: the build's own limit still bounds them all


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


def _branch(head: type, *args: sympy.Expr) -> sympy.Expr:
    """``head(*args)`` with its branch taken only where the kernel's enclosures decide it when an
    argument holds a closed irrational number: SymPy would compare the arguments by a
    low-precision float (``|log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹)|`` came out 0, ``max(x, x + that)``
    its second argument, ``max(0, log(cos(1e-60)))`` the negative ``log(cos(1e-60))``)."""
    if not any(has_closed_irrational(a) for a in args):
        return head(*args)
    return resolve_closed_branches(literal(head, args))


def _table_function(a) -> Callable[[sympy.Expr], sympy.Expr]:
    """σ of the table at an argument; one with branches (relu, elu, ...) at an argument holding a
    closed irrational number is substituted as written, its closed branches taken as ``_branch``
    takes them (SymPy built relu(log(1 + e⁻¹⁰⁰) − log(1 + e⁻⁹⁹)) and relu(log(cos(1e-60))) as
    the negative argument, elu(−log(cos(1e-60))) by its negative branch)."""
    if not a.expr.has(*BRANCH_HEADS):
        return a.sympy_at

    def at_argument(v: sympy.Expr) -> sympy.Expr:
        if not has_closed_irrational(v):
            return a.sympy_at(v)
        return resolve_closed_branches(literal_replace(a.expr, {z: v}))

    return at_argument


def _minmax_args(expr: sympy.Expr) -> int:
    return sum(len(m.args) for m in expr.atoms(sympy.Max, sympy.Min))


_MATH_FUNCTIONS = (
    *(_Function(name, f.head) for f in functions.FUNCTIONS for name in f.names),
    _Function("sqrt", lambda a: _power(a, sympy.Rational(1, 2))),  # built from the table's
    # functions or by structure
    _Function("sigmoid", sympy_sigmoid),
    _Function("softplus", sympy_softplus),
    _Function("abs", lambda a: _branch(sympy.Abs, a)),
    _Function("max", lambda *a: _branch(sympy.Max, *a), 2, MAX_MINMAX_ARGS, minmax_per_arg=1),
    _Function("min", lambda *a: _branch(sympy.Min, *a), 2, MAX_MINMAX_ARGS, minmax_per_arg=1),
)
FUNCTIONS: dict[str, _Function] = {
    **{
        a.name: _Function(
            a.name,
            _table_function(a),
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


class ExpressionParser(TextChecks, ConstantEstimates, SignsByAlgebra):
    """One parse of one text: the checks before ``ast.parse``, the checks of the tree, and the
    bottom-up build, each SymPy result measured (see Info) before the next step uses it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.info: dict[sympy.Basic, Info] = {}
        self.current = "it"  # the node being built, for the message when time runs out

    def parse(self) -> sympy.Expr:
        self.scan()
        tree = self.syntax()
        self.vet(tree.body)
        try:
            with deadline(MAX_BUILD_SECONDS) as limit:
                expr = self.build(tree.body)
        except RecursionError:
            raise self.error("too deeply nested for SymPy; simplify the expression") from None
        except BudgetExceeded:
            expr = None
        if expr is None or limit.expired:  # off the main thread the limit is only recorded
            raise self.error(
                f"SymPy needed more than {MAX_BUILD_SECONDS:g} s to build "
                f"{self.current}; simplify the expression"
            )
        if not isinstance(expr, sympy.Expr) or expr.free_symbols - {z}:
            raise self.error(f"the result {expr} is not an expression in x")
        return expr

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
                    _, what, hint = rejected_operator(node.op)
                    raise self.error(not_allowed(what, where, hint))
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
                what, hint = REJECTED_NODES.get(type(node), (type(node).__name__, ""))
                raise self.error(not_allowed(what, where, hint))
            stack.extend((c, depth + cost) for c, cost in reversed(children))

    def vet_operator(self, node: ast.BinOp) -> None:
        if type(node.op) in _BINARY:
            return
        symbol, what, hint = rejected_operator(node.op)
        i = self.source.find(symbol, node.left.end_col_offset, node.right.col_offset)
        where = f"at column {self.column(max(i, node.col_offset))}"
        raise self.error(not_allowed(what, where, hint))

    def vet_call(self, node: ast.Call, where: str) -> _Function:
        if not isinstance(node.func, ast.Name):
            what, hint = REJECTED_NODES.get(type(node.func), ("calling an expression", ""))
            raise self.error(not_allowed(what, where, hint or "call a function by its name"))
        name = node.func.id
        fn = FUNCTIONS.get(name)
        if fn is None:
            if name in VARIABLES or name in CONSTANTS:
                raise self.error(
                    f"{name!r} {where} is not a function; write {name}*(...) to multiply"
                )
            if name.startswith("_"):
                raise self.error(
                    not_allowed(f"the name {name!r}", where, "names may not start with '_'")
                )
            raise self.error(
                f"unknown function {name!r} {where}{did_you_mean(name, FUNCTIONS)}; "
                f"functions: {', '.join(sorted(FUNCTIONS))}"
            )
        if node.keywords:
            raise self.error(
                not_allowed(f"a keyword argument of {name}", where, "pass arguments by position")
            )
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(not_allowed(f"a starred argument of {name}", where, ""))
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
                not_allowed(f"the name {name!r}", where, "names may not start with '_'")
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
        for kind, (what, hint) in REJECTED_CONSTANTS.items():
            if isinstance(node.value, kind):
                raise self.error(not_allowed(what, where, hint))
        if not isinstance(node.value, (int, float)):
            raise self.error(not_allowed(repr(node.value), where, ""))

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
                raise Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
            return sympy.Integer(node.value)
        typed = Decimal(self.source[node.col_offset : node.end_col_offset].replace("_", ""))
        size = typed.copy_abs()
        if size > MAX_LITERAL:
            raise Reject(f"is too large; numbers must be at most {MAX_LITERAL:.0e} in size")
        if size and size < MIN_LITERAL:
            raise Reject(
                f"is too small; nonzero numbers must be at least {MIN_LITERAL:.0e} in size"
            )
        if len(typed.as_tuple().digits) > MAX_LITERAL_DIGITS:
            raise Reject(f"has more than {MAX_LITERAL_DIGITS} significant digits")
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
                or self.positive_by_algebra(right)
                or self.negative_divisor(right)
            )
        ):
            # checked before SymPy cancels: x/x is undefined at x = 0, not the constant 1
            raise self.error(
                f"{self.segment(node)!r} at column {self.column(node.col_offset)} "
                "divides by a value that may be 0 "
                f"({short(right.xreplace({z: sympy.Symbol('x')}))}); divide by a "
                "positive value such as 1 + abs(x)"
            )
        if isinstance(node.op, ast.Pow):
            try:
                self.check_power(left, right)
            except Reject as exc:
                raise self.error(
                    f"{self.segment(node)!r} at column {self.column(node.col_offset)} {exc}"
                ) from None
        build = _power if isinstance(node.op, ast.Pow) else _BINARY[type(node.op)]
        return self.checked(node, build, left, right)

    def negative_divisor(self, right: sympy.Expr) -> bool:
        """Is ``right`` < 0 at every real x? Then ``1/right`` is real: recorded, since SymPy
        builds ``left/right`` as ``left·right⁻¹`` without asking (``x/(-1 - x**2)`` was refused
        as "divides by a value that may be 0" after this very check had passed)."""
        try:
            if not (self.measure(-right).positive or positive_everywhere(-right)):
                return False
            inverse = sympy.Pow(right, -1)
            known = replace(self.measure(inverse), real=True, nonneg=False, positive=False)
        except Reject:
            return False
        self.info[inverse] = known
        return True

    def check_power(self, base: sympy.Expr, exponent: sympy.Expr) -> None:
        """Bound base**exponent before SymPy evaluates it (it computes Integer powers at once)."""
        b, p = self.measure(base), self.measure(exponent)
        if p.value is None:
            if b.value is not None and b.value < 0:
                raise Reject("is not real: a negative number to a variable power")
            return
        if abs(p.value) > MAX_EXPONENT:
            raise Reject(f"has too large an exponent; |exponent| must be at most {MAX_EXPONENT}")
        if b.value is None:
            return
        if b.value == 0 and p.value < 0:
            raise Reject("divides by zero")
        try:
            estimate = float_pow(b.value, p.value)
        except ValueError as exc:
            raise Reject(f"is not real: {exc}") from None
        except (OverflowError, ZeroDivisionError):
            estimate = math.inf
        check_size(estimate, exactly_zero=b.value == 0)
        if isinstance(exponent, sympy.Rational) and exponent.q > MAX_EXPONENT_RATIONAL:
            # SymPy looks for an exact root of that degree of each integer in the base
            raise Reject(
                f"has the exponent {short(exponent)}; a root of a number must "
                f"have degree at most {MAX_EXPONENT_RATIONAL}, e.g. 2**(1/3)"
            )
        if isinstance(base, sympy.Rational) and isinstance(exponent, sympy.Rational):
            size = max(int(base.p).bit_length(), int(base.q).bit_length())
            bits = size * abs(exponent.p) // exponent.q  # of the exact result
            if bits > MAX_RATIONAL_BITS:
                raise Reject(f"would need about {bits} bits exactly; at most {MAX_RATIONAL_BITS}")

    def measure_zeros(self, result: sympy.Expr) -> tuple[Info, sympy.Expr]:
        """``measure(result)``, where each constant too close to 0 for an enclosure to tell its
        sign (``log(8) - 3*log(2)``, ``sinh(1) + cosh(1) - e``) becomes the exact 0 it is when
        the kernel proves it 0, and stays an error otherwise (``erf(30) - 1``, −2.6e-393, is
        no 0). The branches SymPy took at such a constant while building are all the same
        then: max(0, c), |c|, c·f are 0 whichever it chose."""
        for _ in range(MAX_ZERO_CONSTANTS):
            try:
                return self.measure(result), result
            except NearZero as exc:
                proof = zero_verdict(exc.constant, timeout_s=ZERO_PROOF_SECONDS)
                if proof.status != PROVED:
                    raise
                result = result.xreplace({exc.constant: sympy.Integer(0)})
        return self.measure(result), result

    def checked(self, node: ast.expr, build: Callable[..., sympy.Expr], *args) -> sympy.Expr:
        """``build(*args)``, with SymPy's errors and any unsafe constant reported at ``node``."""
        where = f"{self.segment(node)!r} at column {self.column(node.col_offset)}"
        self.current = where
        try:
            result = build(*args)
            info, result = self.measure_zeros(result)
        except Reject as exc:
            raise self.error(f"{where} {exc}") from None
        except BudgetExceeded:
            raise
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
