"""The checks of user text before and at ``ast.parse``, shared by the activation, layer and
transform languages: ASCII only, bracket depth, token count, and one-line syntax messages that
name the column (counted in the text as typed); and the tables of rejected syntax, each with
what to write instead."""

from __future__ import annotations

import ast
import difflib
import re
import warnings

from symbolic.errors import InvalidExpression
from symbolic.languages.expression_limits import MAX_DEPTH, MAX_TOKENS

_QUOTE_CHARS = 60  # longer input is quoted by its prefix
_CLOSING = {"(": ")", "[": "]", "{": "}"}
_TOKEN = r"[A-Za-z_]\w*|[0-9.][\w.]*(?:[eE][+-][\w.]*)?|\*\*|//|<<|>>|\S"  # for counting

# Rejected syntax, as (what it is, what to write instead); messages read "<what> at column N is
# not allowed; <hint>".
REJECTED_OPERATORS: dict[type, tuple[str, str, str]] = {  # type: (symbol, what, hint)
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
REJECTED_NODES: dict[type, tuple[str, str]] = {
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
REJECTED_CONSTANTS: dict[type, tuple[str, str]] = {  # bool before int: True is an int
    bool: ("True/False", "use 1 or 0"),
    str: ("a string", "write the expression itself, without quotes"),
    bytes: ("a bytes literal", ""),
    complex: ("a complex number", "activations are real"),
}


def quote_input(text: str) -> str:
    if len(text) <= _QUOTE_CHARS:
        return repr(text)
    return f"{text[:_QUOTE_CHARS]!r}... ({len(text)} characters)"


def input_error(text: str, what: str) -> InvalidExpression:
    """The one-line error about user input ``text``: ``--activation 'text' : what``."""
    return InvalidExpression(f"--activation {quote_input(text)} : {' '.join(what.split())}")


def did_you_mean(name: str, choices) -> str:
    close = difflib.get_close_matches(name.lower(), list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class TextChecks:
    """The checks of one text before its tree is built; ``error`` makes the one-line message."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.source = text.strip()
        self.lead = len(text) - len(text.lstrip())  # columns are reported in the original text

    def error(self, what: str) -> InvalidExpression:
        return input_error(self.text, what)

    def column(self, index: int) -> int:
        return self.lead + index + 1

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

    def segment(self, node: ast.expr) -> str:
        text = self.source[node.col_offset : node.end_col_offset]
        return text if len(text) <= 40 else text[:37] + "..."


def rejected_operator(op: ast.AST) -> tuple[str, str, str]:
    name = type(op).__name__
    return REJECTED_OPERATORS.get(type(op), (name, f"the operator {name}", ""))


def not_allowed(what: str, where: str, hint: str) -> str:
    return f"{what} {where} is not allowed" + (f"; {hint}" if hint else "")
