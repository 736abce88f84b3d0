r"""LaTeX of text and of single formulas: ``escape`` (any string, safe), ``math`` (a SymPy
object, through the project's printer) and ``prose`` (text that embeds SymPy syntax).

Text (statements, rules, table cells) goes through ``escape``, which makes *any* string safe:
TeX's special characters are escaped, Unicode mathematics (σ ⊙ ∀ ∃ ⇔ ≤ ℝ ᵀ …) becomes math, and
a character with no rule becomes ``[U+XXXX]`` (the rules: ``latex_symbols``). Formulas
(``formula`` fields, SymPy cells) go through ``math``, i.e. ``sympy.latex`` with the house
notation (``latex_printer``). Only fonts of the default OT1/OML/OMS encodings and the AMS fonts
are used, so nothing needs a font generated at compile time.

>>> escape("σ(a)·b ≠ 50% of x_1")
'\\ensuremath{\\sigma}(a)\\ensuremath{\\cdot}b \\ensuremath{\\neq} 50\\% of x\\textsubscript{1}'
>>> math(sympy.sqrt(sympy.Symbol("d")))
'\\sqrt{d}'
"""

from __future__ import annotations

import functools
import re
import unicodedata

import sympy

from symbolic.render.latex_breaks import breakable as breakable_code
from symbolic.render.latex_printer import latex as printer_latex
from symbolic.render.latex_spans import sympy_spans
from symbolic.render.latex_symbols import (
    ACCENTS,
    CHAR_RULES,
    FALLBACK,
    MARKUP,
    MATH_ACCENTS,
    MATH_SYMBOLS,
    SUPERSCRIPT_SYMBOLS,
    greek_command,
)


def _char(char: str) -> tuple[str, str]:
    """``(kind, latex)`` of one character; kind is ``text``, ``super`` or ``sub``."""
    if char in CHAR_RULES:
        return "text", CHAR_RULES[char].text
    if " " <= char <= "~":
        return "text", char
    if char in SUPERSCRIPT_SYMBOLS:
        return "super", f"\\ensuremath{{{SUPERSCRIPT_SYMBOLS[char]}}}"
    if char.isspace():
        return "text", " "
    greek = greek_command(char)
    if greek is not None:
        return "text", greek if greek.isalpha() else f"\\ensuremath{{{greek}}}"
    return _decomposed(char)


def _decomposed(char: str) -> tuple[str, str]:
    """Superscripts, subscripts, accented letters and compatibility forms, via Unicode data."""
    fields = unicodedata.decomposition(char).split()
    if not fields:
        return "text", FALLBACK % ord(char)
    tag = fields[0] if fields[0].startswith("<") else ""
    parts = [chr(int(f, 16)) for f in fields[1 if tag else 0 :]]
    if tag in ("<super>", "<sub>"):
        return tag[1:-1], "".join(_char(p)[1] for p in parts)
    if not tag and len(parts) == 2 and unicodedata.combining(parts[1]):
        base, accent = _char(parts[0])[1], ACCENTS.get(ord(parts[1]))
        if accent and parts[0].isascii() and parts[0].isalpha():
            return "text", f"{accent}{{{base}}}"
        return "text", base  # an accent OT1 cannot place: keep the letter
    if all(unicodedata.combining(p) == 0 for p in parts):
        return "text", "".join(_char(p)[1] for p in parts)
    return "text", FALLBACK % ord(char)


_SCRIPT = {"super": r"\textsuperscript{%s}", "sub": r"\textsubscript{%s}"}


_ENSUREMATH = "\\ensuremath{"


def _math_text(text: str) -> str | None:
    """Plain mathematics (``d×d``, ``n+1``, ``2k``) as math-mode code; None when it has a
    character that is not a letter, digit, operator or Unicode mathematics."""
    out = []
    for char in text:
        if char.isascii() and (char.isalnum() or char in "+-=()/,. "):
            out.append(char)
        elif char == "−":
            out.append("-")
        elif char in MATH_SYMBOLS:
            out.append(MATH_SYMBOLS[char] + " ")
        elif (greek := greek_command(char)) is not None:
            out.append(greek + " ")
        else:
            return None
    return "".join(out).strip()


_BEFORE_MINUS = " ([{,;:=·*/\u2212+"  # a hyphen after one of these, before a digit, is a minus


def _chars(text: str) -> str:
    """Character by character; runs of Unicode super/subscripts become one command; a combining
    accent after a Latin letter is put on it."""
    out: list[str] = []
    run_kind, run = "text", []
    for i, char in enumerate(text):
        accent = ACCENTS.get(ord(char))
        if accent and i and text[i - 1].isascii() and text[i - 1].isalpha() and run:
            run[-1] = f"{accent}{{{run[-1]}}}"
            continue
        math_accent = MATH_ACCENTS.get(ord(char))
        if math_accent and run and run[-1].startswith(_ENSUREMATH):
            letter = run[-1][len(_ENSUREMATH) : -1]
            run[-1] = f"{_ENSUREMATH}{math_accent}{{{letter}}}}}"
            continue
        kind, latex = _char(char)
        if (
            char == "-"
            and text[i + 1 : i + 2].isdigit()
            and (i == 0 or text[i - 1] in _BEFORE_MINUS)
        ):
            latex = r"\ensuremath{-}"  # a negative number: a true minus, not a hyphen
        if kind != run_kind and run:
            out.append(_SCRIPT[run_kind] % "".join(run) if run_kind in _SCRIPT else "".join(run))
            run = []
        run_kind = kind
        run.append(latex)
    if run:
        out.append(_SCRIPT[run_kind] % "".join(run) if run_kind in _SCRIPT else "".join(run))
    return "".join(out)


@functools.lru_cache(maxsize=16384)  # pure; the exports escape the same strings again and again
def escape(text: str) -> str:
    """Any string as LaTeX text that compiles: specials escaped, Unicode math as math.

    Control characters and characters without a rule become a visible ``[U+XXXX]``; ``--`` is
    kept as two hyphens (no en-dash ligature); a line may break after ``*``, ``/``, ``_`` and
    a ``.`` between letters (SymPy strings and claim names have no spaces).
    """
    text, out, pos = unicodedata.normalize("NFC", text), [], 0
    for m in MARKUP.finditer(text):
        out.append(_chars(text[pos : m.start()]))
        if m[0] == "~":
            out.append(r"\ensuremath{\sim}")
        elif m["reals"]:
            out.append(r"\ensuremath{\mathbb{R}}")
        elif m["rsup"] is not None or m["rsup1"] is not None:
            power = m["rsup"] if m["rsup"] is not None else m["rsup1"]
            code = _math_text(power)
            out.append(
                rf"\ensuremath{{\mathbb{{R}}^{{{code}}}}}"
                if code is not None
                else r"\ensuremath{\mathbb{R}}" + _SCRIPT["super"] % escape(power)
            )
        elif m["starbase"]:
            out.append(
                _chars(m["starbase"])
                + _SCRIPT["super"] % "*"
                + (_SCRIPT["sub"] % escape(m["starsub"]) if m["starsub"] else "")
            )
        elif m["base"]:
            out.append(_chars(m["base"]) + _SCRIPT["sub"] % escape(m["sub1"]))
        else:
            kind = "sub" if m["sub"] is not None else "super"
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(_SCRIPT[kind] % escape(inner))
        pos = m.end()
    out.append(_chars(text[pos:]))
    return _BREAKS.sub(r"\g<0>\\allowbreak{}", re.sub(r"-(?=-)", "-{}", "".join(out)))


_BREAKS = re.compile(r"(?:[*/]|\\_|(?<=[A-Za-z])\.(?=[A-Za-z]))(?!$|\})")


# --- Mathematics ----------------------------------------------------------------------------


RELATIONS = {"==": "=", "!=": r"\neq", "<": "<", "<=": r"\leq", ">": ">", ">=": r"\geq"}


def math(expr: object, breakable: bool = False) -> str:
    """Math-mode LaTeX of a SymPy object (the project printer); non-ASCII output made safe.
    ``breakable``: TeX may break it across lines (``latex_breaks.breakable``)."""
    try:
        code = printer_latex(expr, breakable=True) if breakable else printer_latex(expr)
        if breakable:
            code = breakable_code(code)
    except Exception:  # a printer bug must not lose the document: print the plain form
        return rf"\text{{{escape(sympy.sstr(expr))}}}"
    return re.sub(r"[^\x00-\x7f]", lambda m: rf"\text{{{escape(m[0])}}}", code)


_FLOAT = re.compile(r"(?<![\w.])(?P<m>-?\d+(?:\.\d+)?)e(?P<s>[+-]?)0*(?P<e>\d+)(?![\w.])")


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@functools.lru_cache(maxsize=16384)  # pure, as escape
def prose(text: str) -> str:
    """Text that may embed formulas: SymPy syntax (``2*d**2/3 + 1``, ``exp(-1)``) and floats in
    scientific notation (``1.2e+06``) are typeset as math, the rest goes through ``escape``."""
    spans = [(a, b, code) for a, b, code in sympy_spans(text)]
    spans += [
        (m.start(), m.end(), rf"{m['m']}\times 10^{{{'-' if m['s'] == '-' else ''}{m['e']}}}")
        for m in _FLOAT.finditer(text)
        if not any(a <= m.start() < b for a, b, _ in spans)
    ]
    out, pos = [], 0
    for a, b, code in sorted(spans):
        if a < pos:
            continue
        out.append(_escape_operators(text[pos:a]))
        out.append("$" + _NON_ASCII.sub("", code) + "$")
        pos = b
    out.append(_escape_operators(text[pos:]))
    return "".join(out)


_OPERATOR = re.compile(r"\b(exp|log|tanh|sinh|cosh|sqrt|erf)\(")
OPERATORS = {
    "exp": r"\exp",
    "log": r"\log",
    "tanh": r"\tanh",
    "sinh": r"\sinh",
    "cosh": r"\cosh",
    "sqrt": r"\surd",
    "erf": r"\operatorname{erf}",
}


def _escape_operators(text: str) -> str:
    """``escape``, with the function names of hand-written formulas (``exp(2βs)``) as math
    operators."""
    out, pos = [], 0
    for m in _OPERATOR.finditer(text):
        out.append(escape(text[pos : m.start()]) + rf"\ensuremath{{{OPERATORS[m[1]]}}}(")
        pos = m.end()
    return "".join(out) + escape(text[pos:])
