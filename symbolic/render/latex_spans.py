"""SymPy syntax inside prose: ``sympy_spans`` finds the formulas that statements written before
steps carried formulas embed as ``sympy.sstr`` output (``M* = 2*d**2/3 + 1``) and prints each
with the project's LaTeX printer.

The spans are parsed by a small recursive-descent parser (numbers, names, + − * / **, calls,
comparisons): nothing is evaluated, an unknown name is a symbol or an undefined function. The
LaTeX document (``latex_text.prose``) and the HTML blueprint (``html_text.prose_html``) use it.
"""

from __future__ import annotations

import re

import sympy

from symbolic.render.latex_printer import latex

_SYMPY_FUNCTIONS = {
    "exp": sympy.exp,
    "log": sympy.log,
    "sqrt": sympy.sqrt,
    "erf": sympy.erf,
    "tanh": sympy.tanh,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
    "gamma": sympy.gamma,
    "besseli": sympy.besseli,
    "Abs": sympy.Abs,
    "Max": sympy.Max,
    "Min": sympy.Min,
    "factorial2": sympy.factorial2,
    "hyper": sympy.hyper,
    "Piecewise": sympy.Piecewise,
}
_CONSTANTS = {
    "E": sympy.E,
    "pi": sympy.pi,
    "oo": sympy.oo,
    "True": sympy.true,
    "False": sympy.false,
}
# A span is SymPy syntax when it has one of these (a lone ``a/b`` or ``relu(s)`` reads fine).
_MARKERS = re.compile(
    r"\*\*|[A-Za-z0-9)]\*[A-Za-z0-9(]|\b(?:exp|log|sqrt|erf|tanh|besseli|"
    r"Piecewise|Abs|Max|Min|gamma|factorial2|hyper)\(|\d{9,}/\d{9,}"
)
_RUN = re.compile(r"[A-Za-z0-9_.()*/+\- ,<>]+")
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e[+-]?\d+)?)|(?P<name>[A-Za-z_]\w*)|"
    r"(?P<op>\*\*|<=|>=|[-+*/(),<>]))"
)
MAX_SPAN = 400  # longer runs are left as text
MAX_EXPONENT = 64  # a larger numeric exponent is kept unevaluated (no 10**10**10 blow-up)


class _Syntax(Exception):
    pass


def _arithmetic(e: sympy.Basic) -> sympy.Expr:
    """``e`` when arithmetic applies to it (not a tuple, comparison or truth value)."""
    if not isinstance(e, sympy.Expr):
        raise _Syntax(type(e).__name__)
    return e


class _SpanParser:
    def __init__(self, text: str):
        self.tokens, pos = [], 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip():
                    raise _Syntax(text[pos:])
                break
            kind = next(k for k in ("num", "name", "op") if m[k] is not None)
            self.tokens.append((kind, m[kind]))
            pos = m.end()
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise _Syntax(value or "end")
        self.i += 1
        return tok

    def parse(self) -> sympy.Basic:
        e = self.comparison()
        if self.peek() is not None:
            raise _Syntax("trailing")
        return e

    def comparison(self) -> sympy.Basic:
        e = self.sum()
        tok = self.peek()
        ops = {
            "<": sympy.StrictLessThan,
            ">": sympy.StrictGreaterThan,
            "<=": sympy.LessThan,
            ">=": sympy.GreaterThan,
        }
        if tok and tok[1] in ops:
            self.take()
            return ops[tok[1]](e, self.sum(), evaluate=False)  # keep "z > 0" as written
        return e

    def sum(self) -> sympy.Basic:
        terms = [self.product()]
        if len(self.tokens) > self.i and self.tokens[self.i][1] in "+-":
            _arithmetic(terms[0])
        while (tok := self.peek()) and tok[1] in "+-" and tok[0] == "op":
            self.take()
            t = _arithmetic(self.product())
            terms.append(t if tok[1] == "+" else -t)
        return terms[0] if len(terms) == 1 else sympy.Add(*terms)

    def product(self) -> sympy.Basic:
        e = self.unary()
        while (tok := self.peek()) and tok[1] in ("*", "/"):
            self.take()
            f = _arithmetic(self.unary())
            e = _arithmetic(e) * f if tok[1] == "*" else _arithmetic(e) / f
        return e

    def unary(self) -> sympy.Basic:
        if (tok := self.peek()) and tok[1] == "-":
            self.take()
            return -_arithmetic(self.unary())
        return self.power()

    def power(self) -> sympy.Basic:
        base = self.atom()
        if (tok := self.peek()) and tok[1] == "**":
            self.take()
            exponent, base = _arithmetic(self.unary()), _arithmetic(base)
            small = not (exponent.is_Number and abs(exponent) > MAX_EXPONENT)
            return sympy.Pow(base, exponent, evaluate=small)
        return base

    def atom(self) -> sympy.Basic:
        kind, value = self.take()
        if kind == "num":
            return sympy.Float(value) if ("." in value or "e" in value) else sympy.Integer(value)
        if kind == "name":
            if (tok := self.peek()) and tok[1] == "(":
                self.take("(")
                args = [self.comparison()]
                while (tok := self.peek()) and tok[1] == ",":
                    self.take()
                    args.append(self.tuple_or_comparison())
                self.take(")")
                return self.call(value, args)
            return _CONSTANTS.get(value) or sympy.Symbol(value)
        if value == "(":
            first = self.tuple_or_comparison(opened=True)
            return first
        raise _Syntax(value)

    def tuple_or_comparison(self, opened: bool = False) -> sympy.Basic:
        if not opened:
            if (tok := self.peek()) and tok[1] == "(":
                self.take()
                return self.tuple_or_comparison(opened=True)
            return self.comparison()
        if (tok := self.peek()) and tok[1] == ")":
            self.take()
            return sympy.Tuple()
        items, trailing = [self.comparison()], False
        while (tok := self.peek()) and tok[1] == ",":
            self.take()
            if (tok := self.peek()) and tok[1] == ")":
                trailing = True
                break
            items.append(self.comparison())
        self.take(")")
        if trailing:
            return sympy.Tuple(*items)
        if len(items) == 1:
            return items[0] if self.peek() is None or self.peek()[1] != "**" else items[0]
        return sympy.Tuple(*items)

    @staticmethod
    def call(name: str, args: list[sympy.Basic]) -> sympy.Basic:
        if name == "Piecewise":
            return sympy.Piecewise(*(tuple(a) for a in args), evaluate=False)
        fn = _SYMPY_FUNCTIONS.get(name)
        if fn is None:
            return sympy.Function(name)(*args)
        return fn(*args)


def parse_span(text: str) -> sympy.Basic | None:
    """A SymPy-syntax span as an (unevaluated) SymPy object, or None when it is not one."""
    try:
        return _SpanParser(text).parse()
    except (_Syntax, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError):
        return None


def sympy_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, latex)`` of every SymPy-syntax span of ``text``, left to right."""
    found = []
    for run in _RUN.finditer(text):
        chunk = run[0]
        if len(chunk) > MAX_SPAN or not _MARKERS.search(chunk):
            continue
        words = [m.span() for m in re.finditer(r"\S+", chunk)]
        a = 0
        while a < len(words):  # the longest parseable run of whole words with a marker
            for b in range(len(words), a, -1):
                start, end = words[a][0], words[b - 1][1]
                piece = chunk[start:end].rstrip(",")
                if _MARKERS.search(piece) and (expr := parse_span(piece)) is not None:
                    found.append(
                        (run.start() + start, run.start() + start + len(piece), latex(expr))
                    )
                    a = b
                    break
            else:
                a += 1
    return found
