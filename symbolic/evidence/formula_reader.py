"""A reader of ``sympy.srepr`` text that cannot run code (issue 25).

``read_formula(text)`` turns the ``srepr`` of a formula back into the SymPy object, by a
whitelist: the text is parsed by ``ast`` (never evaluated), and each call is one of the node
types of ``NODES`` applied to arguments that are themselves parsed nodes. Literals are bounded
integers (``Integer(12)``, ``Rational(1, 3)``), booleans (assumptions) and strings, and a
string only ever becomes a *name* (``Symbol('x')``, ``Function('sigma')``, ``Str('W')``) —
never text handed to SymPy, whose constructors would ``sympify`` (``eval``) it. Bounds on the
text's size, the nesting depth, the number of nodes, integer digits, powers and the arguments
of factorials keep a hostile formula from taking unbounded time or memory. Anything else
raises ``UnreadableFormula`` (a ``ValueError``) naming what was refused.

>>> import sympy
>>> x = sympy.Symbol("x", positive=True)
>>> f = sympy.Eq(sympy.exp(x) * 2, x**2 + 1)
>>> sympy.srepr(read_formula(sympy.srepr(f))) == sympy.srepr(f)
True
>>> try:
...     read_formula("exp('__import__(\\"os\\")')")
... except UnreadableFormula as exc:
...     print(f"{type(exc).__name__}: {exc}")
UnreadableFormula: exp: argument 1 is a string; only names take strings
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from fractions import Fraction

import sympy
from sympy.core.assumptions import _assume_defined
from sympy.core.symbol import Str
from sympy.functions.elementary.piecewise import ExprCondPair
from sympy.functions.special.hyper import TupleArg
from sympy.matrices.expressions.applyfunc import ElementwiseApplyFunction
from sympy.matrices.expressions.matexpr import MatrixElement
from sympy.printing.repr import ReprPrinter

from symbolic.kernel import ASSUMED, Exists, ForAll
from symbolic.languages.functions import FUNCTIONS
from symbolic.render.formula_text import OrderedWithoutQuadrature, memoised

MAX_CHARS = 2_000_000  # one formula's text: far beyond any the toolkit writes
MAX_DEPTH = 120  # nesting of calls (Python's own parser stops at 200 parentheses)
MAX_NODES = 200_000
MAX_DIGITS = 400  # of one integer literal
MAX_EXPONENT = 256  # |n| of an integer power ...
MAX_POWER_BITS = 20_000  # ... and the size of a number raised to it
MAX_FACTORIAL_ARG = 1000  # factorial, gamma, RisingFactorial at an integer
MAX_NAME = 4000  # characters of a name (an admitted statement is a Symbol named by its text)


class UnreadableFormula(ValueError):
    """The text is not a formula this reader accepts (the message says why)."""


def _relational(cls):
    return lambda lhs, rhs: cls(lhs, rhs, evaluate=False)


def _unevaluated(cls):
    return lambda *args: cls(*args, evaluate=False)


def _applied(cls):
    """A head applied to parsed arguments, unevaluated: ``srepr`` shows a formula as it was
    built (the kernel's ``1·x`` stays ``1·x``), and nothing is computed while reading."""
    return lambda *args: cls(*args, evaluate=False)


_FACTORIAL_LIKE = (
    sympy.factorial,
    sympy.gamma,
    sympy.RisingFactorial,
    sympy.binomial,
    sympy.FallingFactorial,
)

# node name → constructor taking parsed SymPy arguments only
NODES: dict[str, Callable[..., sympy.Basic]] = {
    "Add": _applied(sympy.Add),
    "Mul": _applied(sympy.Mul),
    "Tuple": lambda *a: sympy.Tuple(*a),
    "TupleArg": lambda *a: TupleArg(*a),  # hyper's parameter lists
    "Equality": _relational(sympy.Eq),
    "Unequality": _relational(sympy.Ne),
    "StrictGreaterThan": _relational(sympy.Gt),
    "StrictLessThan": _relational(sympy.Lt),
    "GreaterThan": _relational(sympy.Ge),
    "LessThan": _relational(sympy.Le),
    "Not": _unevaluated(sympy.Not),
    "And": _unevaluated(sympy.And),
    "Or": _unevaluated(sympy.Or),
    "Implies": _unevaluated(sympy.Implies),
    "Equivalent": _unevaluated(sympy.Equivalent),
    "ForAll": lambda v, body, dom: ForAll(v, body, dom),
    "Exists": lambda v, body, dom: Exists(v, body, dom),
    "ExprCondPair": lambda e, c: ExprCondPair(e, c),
    "Piecewise": _applied(sympy.Piecewise),
    "Lambda": lambda sig, body: sympy.Lambda(sig, body),
    "Interval": lambda a, b, lo=sympy.false, ro=sympy.false: sympy.Interval(a, b, lo, ro),
    "Union": lambda *sets: sympy.Union(*sets, evaluate=False),
    "Derivative": lambda e, *v: sympy.Derivative(e, *v),
    "Subs": lambda e, v, p: sympy.Subs(e, v, p),
    "Sum": lambda e, *lim: sympy.Sum(e, *lim),
    "Integral": lambda e, *lim: sympy.Integral(e, *lim),
    "hyper": lambda ap, bq, z: sympy.hyper(ap, bq, z, evaluate=False),
    "Indexed": lambda b, *i: sympy.Indexed(b, *i),
    "IndexedBase": lambda b: sympy.IndexedBase(b),
    "MatrixSymbol": lambda n, r, c: sympy.MatrixSymbol(n, r, c),
    "MatrixElement": lambda m, i, j: MatrixElement(m, i, j),
    "MatMul": _applied(sympy.MatMul),
    "MatAdd": _applied(sympy.MatAdd),
    "HadamardProduct": _applied(sympy.HadamardProduct),
    "Transpose": lambda m: sympy.Transpose(m),
    "Inverse": lambda *a: sympy.Inverse(*a),
    "Identity": lambda n: sympy.Identity(n),
    "ZeroMatrix": lambda r, c: sympy.ZeroMatrix(r, c),
    "OneMatrix": lambda r, c: sympy.OneMatrix(r, c),
    "BlockMatrix": lambda rows: sympy.BlockMatrix(rows),
    "ElementwiseApplyFunction": lambda f, m: ElementwiseApplyFunction(f, m),
    "ImmutableDenseMatrix": lambda rows: sympy.ImmutableDenseMatrix(rows),
}
for _name, _cls in (
    *((f.name, f.head) for f in FUNCTIONS),  # the elementary functions' table
    ("Pow", sympy.Pow),
    ("atan", sympy.atan),
    ("besseli", sympy.besseli),
    ("Abs", sympy.Abs),
    ("Max", sympy.Max),
    ("Min", sympy.Min),
    ("Heaviside", sympy.Heaviside),
    ("sign", sympy.sign),
    ("gamma", sympy.gamma),
    ("factorial", sympy.factorial),
    ("RisingFactorial", sympy.RisingFactorial),
    ("binomial", sympy.binomial),
):
    NODES[_name] = _applied(_cls)

CONSTANTS: dict[str, sympy.Basic] = {
    "pi": sympy.pi,
    "E": sympy.E,
    "oo": sympy.oo,
    "zoo": sympy.zoo,
    "nan": sympy.nan,
    "I": sympy.I,
    "EulerGamma": sympy.EulerGamma,
    "true": sympy.true,
    "false": sympy.false,
    "Reals": sympy.S.Reals,
    "Naturals": sympy.S.Naturals,
    "Naturals0": sympy.S.Naturals0,
    "Integers": sympy.S.Integers,
    "EmptySet": sympy.S.EmptySet,
}
ASSUMPTION_KEYS = frozenset(_assume_defined)


def read_formula(text: str) -> sympy.Basic:
    """The SymPy object whose ``srepr`` is ``text``; ``UnreadableFormula`` for anything else."""
    if not isinstance(text, str):
        raise UnreadableFormula(f"a formula is srepr text, not {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise UnreadableFormula(f"formula of {len(text)} characters; at most {MAX_CHARS}")
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise UnreadableFormula(f"not srepr text ({type(exc).__name__})") from None
    reader = _Reader()
    try:
        result = reader.node(tree, 0)
    except RecursionError:
        raise UnreadableFormula("formula nested too deeply") from None
    except UnreadableFormula:
        raise
    except (TypeError, ValueError, AttributeError, IndexError, KeyError) as exc:
        # a whitelisted constructor refused its (parsed) arguments
        raise UnreadableFormula(
            f"malformed formula ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})"
        ) from None
    if not isinstance(result, sympy.Basic):
        raise UnreadableFormula("the text is not a SymPy formula")
    return result


class _Reader:
    def __init__(self) -> None:
        self.nodes = 0
        self.bits: dict = {}  # node → bound on its exact value's bits (``_bits``)

    def node(self, n: ast.AST, depth: int):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise UnreadableFormula(f"more than {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise UnreadableFormula(f"nested deeper than {MAX_DEPTH}")
        if isinstance(n, ast.Name):
            if n.id in CONSTANTS:
                return CONSTANTS[n.id]
            raise UnreadableFormula(f"{n.id!r} is not a constant this reader knows")
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            inner = self.node(n.operand, depth + 1)
            if inner in (sympy.oo,):
                return sympy.S.NegativeInfinity
            raise UnreadableFormula("a minus sign only before oo")
        if isinstance(n, ast.List):
            return [self.node(e, depth + 1) for e in n.elts]
        if not isinstance(n, ast.Call):
            raise UnreadableFormula(f"{type(n).__name__} is not part of a formula")
        if isinstance(n.func, ast.Call):  # Function('sigma')(Symbol('x'))
            head = self.node(n.func, depth + 1)
            if not isinstance(head, sympy.core.function.UndefinedFunction):
                raise UnreadableFormula("only an undefined function is applied to arguments")
            if n.keywords:
                raise UnreadableFormula("an applied function takes no keywords")
            return head(*self.args(n, depth, "function"))
        if (
            isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == "Interval"
            and n.func.attr in _INTERVALS
        ):
            a, b = self.args(n, depth, "Interval")
            return _INTERVALS[n.func.attr](a, b)
        if not isinstance(n.func, ast.Name):
            raise UnreadableFormula("a call of something that is not a node name")
        name = n.func.id
        if name in _LEAVES:
            return _LEAVES[name](self, n)
        if name not in NODES:
            raise UnreadableFormula(f"{name!r} is not a node type this reader accepts")
        if n.keywords:
            raise UnreadableFormula(f"{name}: keywords are not accepted")
        args = self.args(n, depth, name)
        _check_bounds(name, args, self.bits)
        return NODES[name](*args)

    def args(self, n: ast.Call, depth: int, name: str) -> list:
        out = []
        for k, a in enumerate(n.args, 1):
            if isinstance(a, ast.Constant):
                what = "a string" if isinstance(a.value, str) else "a bare literal"
                raise UnreadableFormula(f"{name}: argument {k} is {what}; only names take strings")
            out.append(self.node(a, depth + 1))
        return out


_INTERVALS = {
    "open": sympy.Interval.open,
    "Lopen": sympy.Interval.Lopen,
    "Ropen": sympy.Interval.Ropen,
}


def _int_literal(a: ast.AST, where: str) -> int:
    negative = isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub)
    c = a.operand if negative else a
    if not (isinstance(c, ast.Constant) and type(c.value) is int):
        raise UnreadableFormula(f"{where}: expected an integer literal")
    if len(str(abs(c.value))) > MAX_DIGITS:
        raise UnreadableFormula(f"{where}: an integer of more than {MAX_DIGITS} digits")
    return -c.value if negative else c.value


_NAME_OK = re.compile(r"[^\x00-\x1f\x7f]+")


def _name(n: ast.Call, what: str) -> str:
    if (
        not n.args
        or not isinstance(n.args[0], ast.Constant)
        or not isinstance(n.args[0].value, str)
    ):
        raise UnreadableFormula(f"{what}: expected a name string")
    text = n.args[0].value
    if len(text) > MAX_NAME or not _NAME_OK.fullmatch(text):
        raise UnreadableFormula(
            f"{what}: a name of {len(text)} characters or with control characters"
        )
    return text


def _assumptions(n: ast.Call, what: str, extra: tuple[str, ...] = ()) -> dict:
    out = {}
    for kw in n.keywords:
        if kw.arg in extra:
            out[kw.arg] = _int_literal(kw.value, f"{what} {kw.arg}")
            continue
        if (
            kw.arg not in ASSUMPTION_KEYS
            or not isinstance(kw.value, ast.Constant)
            or type(kw.value.value) is not bool
        ):
            raise UnreadableFormula(f"{what}: {kw.arg}= is not an assumption with a bool value")
        out[kw.arg] = kw.value.value
    return out


def _symbol(reader: _Reader, n: ast.Call) -> sympy.Symbol:
    if len(n.args) != 1:
        raise UnreadableFormula("Symbol: one name")
    return sympy.Symbol(_name(n, "Symbol"), **_assumptions(n, "Symbol"))


def _dummy(reader: _Reader, n: ast.Call) -> sympy.Dummy:
    if len(n.args) != 1:
        raise UnreadableFormula("Dummy: one name")
    kw = _assumptions(n, "Dummy", extra=("dummy_index",))
    return sympy.Dummy(_name(n, "Dummy"), **kw)


def _function(reader: _Reader, n: ast.Call):
    if len(n.args) != 1:
        raise UnreadableFormula("Function: one name")
    return sympy.Function(_name(n, "Function"), **_assumptions(n, "Function"))


def _str(reader: _Reader, n: ast.Call) -> Str:
    if len(n.args) != 1 or n.keywords:
        raise UnreadableFormula("Str: one name")
    return Str(_name(n, "Str"))


def _integer(reader: _Reader, n: ast.Call) -> sympy.Integer:
    if len(n.args) != 1 or n.keywords:
        raise UnreadableFormula("Integer: one integer literal")
    return sympy.Integer(_int_literal(n.args[0], "Integer"))


def _rational(reader: _Reader, n: ast.Call) -> sympy.Rational:
    if len(n.args) != 2 or n.keywords:
        raise UnreadableFormula("Rational: two integer literals")
    p, q = (_int_literal(a, "Rational") for a in n.args)
    if q == 0:
        raise UnreadableFormula("Rational: a zero denominator")
    return sympy.Rational(p, q)


_LEAVES = {
    "Symbol": _symbol,
    "Dummy": _dummy,
    "Function": _function,
    "Str": _str,
    "Integer": _integer,
    "Rational": _rational,
}
NODES["assumed"] = _applied(ASSUMED)  # an assumption stated only in words


def _bits(e: sympy.Basic, known: dict) -> int:
    """An upper bound on the bits of the exact number a closed tower of rationals, powers,
    products and sums denotes (0 for anything else): ``((2^256)^256)^256`` is 2^24 bits,
    though each of its exponents is within ``MAX_EXPONENT``."""
    found = known.get(e)
    if found is None:
        if isinstance(e, sympy.Rational):
            found = max(abs(int(e.p)).bit_length(), int(e.q).bit_length())
        elif isinstance(e, sympy.Pow) and isinstance(e.exp, sympy.Rational):
            found = _bits(e.base, known) * max(abs(int(e.exp.p)), 1)
        elif isinstance(e, (sympy.Mul, sympy.Add)):
            found = sum(_bits(a, known) for a in e.args) + len(e.args)
        else:
            found = 0
        known[e] = found
    return found


_ONE_ARGUMENT = frozenset(f.name for f in FUNCTIONS)  # log(8, 2) has a base: SymPy reads
# args[0] alone (log(2, −8) "real"), and so would the interval evaluator (ln 8 for log₂ 8)


def _check_bounds(name: str, args: list, known: dict) -> None:
    if name in _ONE_ARGUMENT and len(args) != 1:
        raise UnreadableFormula(f"{name}: one argument (a base or another is not read)")
    if name == "Pow" and len(args) == 2:
        base, ex = args
        if isinstance(ex, sympy.Rational) and not isinstance(ex, sympy.Integer):
            ex = sympy.Integer(ex.p)
        if isinstance(ex, sympy.Integer):
            if abs(int(ex)) > MAX_EXPONENT:
                raise UnreadableFormula(f"Pow: exponent {_short(ex)} beyond ±{MAX_EXPONENT}")
            if _bits(base, known) * abs(int(ex)) > MAX_POWER_BITS:
                raise UnreadableFormula("Pow: a number too large to raise to that power")
    if name in ("Mul", "Add") and sum(_bits(a, known) for a in args) > 8 * MAX_POWER_BITS:
        raise UnreadableFormula(f"{name}: exact numbers too large together")
    if name in {c.__name__ for c in _FACTORIAL_LIKE}:
        for a in args:
            if isinstance(a, sympy.Number) and not (abs(a) <= MAX_FACTORIAL_ARG):
                raise UnreadableFormula(f"{name}: argument {_short(a)} beyond ±{MAX_FACTORIAL_ARG}")


def _short(n: sympy.Basic) -> str:
    text = str(n)
    return text if len(text) <= 20 else f"{text[:8]}…({len(text)} characters)"


class _Repr(OrderedWithoutQuadrature, ReprPrinter):
    """``sympy.srepr``'s printer, but an Add holding a definite integral or sum keeps its
    canonical order of arguments (SymPy's ordering would evaluate it by quadrature: seconds per
    formula). The text reads back to the same formula."""


@memoised
def formula_srepr(e: sympy.Basic) -> str:
    """``sympy.srepr(e)``, without quadrature (``_Repr``): the ``srepr`` texts of the export."""
    return _Repr().doprint(e)


class _CanonicalPrinter(OrderedWithoutQuadrature, ReprPrinter):
    def _print_Symbol(self, expr) -> str:
        d = dict(sorted(expr.assumptions0.items()))
        if expr.is_Dummy:
            d["dummy_index"] = expr.dummy_index
        attr = "".join(f", {k}={v}" for k, v in d.items())
        return f"{type(expr).__name__}({expr.name!r}{attr})"


def canonical_srepr(e: sympy.Basic) -> str:
    """``srepr`` with every symbol's assumptions in full: SymPy holds ``x`` nonzero and ``x``
    real and nonzero to be one symbol (and its cache hands out either object for a term built
    from them), so two reads of one formula may ``srepr`` differently; this text does not."""
    return _CanonicalPrinter().doprint(e)


MAX_FRACTION_DIGITS = 400
_DIGITS = rf"[0-9]{{1,{MAX_FRACTION_DIGITS}}}"  # ASCII: \d took "１/１" and "٣" too
_FRACTION = re.compile(rf"(-?)({_DIGITS})(?:/({_DIGITS}))?")


def read_fraction(text: object) -> Fraction:
    """``"-7/3"`` or ``"12"`` as an exact fraction: ASCII digits only, at most
    ``MAX_FRACTION_DIGITS`` each (no exponent notation: ``Fraction("1e1000000000")`` would not
    return; no other script's digits, which print as other glyphs)."""
    m = _FRACTION.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise UnreadableFormula(
            f"{str(text)[:40]!r}: not a fraction p/q of at most {MAX_FRACTION_DIGITS} digits"
        )
    sign, p, q = m.groups()
    if q is not None and int(q) == 0:
        raise UnreadableFormula("a fraction with a zero denominator")
    return Fraction(int(sign + p), int(q) if q else 1)
