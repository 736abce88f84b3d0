r"""Where TeX may break a printed formula: the post-processing of the LaTeX printer's code.

``breakable(code)`` makes ``\left( ... \right)`` pairs fixed-size delimiters and adds
``\allowbreak`` after commas, between factors and inside long numbers, so that an inline formula
wider than a line can break; ``unbraced_call`` drops the braces SymPy puts around a function call
(a braced call is one box); ``compact`` folds runs of spaces.
"""

from __future__ import annotations

import re

from sympy.printing.latex import accepted_latex_functions

_CALL_HEAD = re.compile(
    r"(?:\\(?P<command>[A-Za-z]+)|\\operatorname\{[^{}]*\})(?:\^\{.*\}|\^\w)?", re.S
)


def unbraced_call(code: str) -> str:
    """``\\log\\left(x \\right)`` for SymPy's ``\\log{\\left(x \\right)}``: braces make the
    call one box, which no line may break inside."""
    if not code.endswith(r"\right)}"):
        return code
    depth, pairs = 0, 0
    for i in range(len(code) - 1, -1, -1):
        depth += {"}": 1, "{": -1}.get(code[i], 0)
        if code.startswith(r"\right", i):
            pairs += 1
        elif code.startswith(r"\left", i):
            pairs -= 1
        if depth == 0:
            break
    else:
        return code
    head, inner = code[:i], code[i + 1 : -1]
    call = _CALL_HEAD.fullmatch(head)
    if (
        pairs
        or not inner.startswith(r"\left(")
        or call is None
        or (call["command"] is not None and call["command"] not in accepted_latex_functions)
        or _matching_right(inner) != len(inner) - len(r"\right)")
    ):
        return code
    return head + inner


def _matching_right(code: str) -> int:
    """Where the ``\\right`` matching the ``\\left`` that ``code`` starts with begins (-1)."""
    depth = 0
    for m in re.finditer(r"\\(left|right)(?![A-Za-z])", code):
        depth += 1 if m[1] == "left" else -1
        if depth == 0:
            return m.start()
    return -1


_DELIMITER = re.compile(r"\\(left|right)(\(|\)|\[|\]|\\\{|\\\}|\.|\||\\\||\\lbrace|\\rbrace)")
_LONG_DIGITS = re.compile(r"\d{16,}")  # an exact number this long may break ...
DIGIT_GROUP = 10  # ... after every this many digits
_TALL = re.compile(r"\\(frac|sum|prod|int|begin|sqrt|binom)(?![A-Za-z])")  # \sum_ too
_PAIRS = {"(": ")", "[": "]", r"\{": r"\}", r"\lbrace": r"\rbrace"}


def breakable(code: str) -> str:
    """``code`` with ``\\left( ... \\right)`` pairs made fixed-size delimiters (``(``, or
    ``\\Bigl(`` around a fraction or a sum), so that TeX can break an inline formula inside
    them, after a relation or a binary operator; a comma in them may break too. Other pairs
    (``\\left.``, ``\\left|``) are kept."""
    found = list(_DELIMITER.finditer(code))
    middles = [m.start() for m in re.finditer(r"\\middle(?![A-Za-z])", code)]
    stack, swap, middled, k = [], {}, set(), 0
    for i, m in enumerate(found):
        while k < len(middles) and middles[k] < m.start():  # a \middle needs the \left and
            middled.update(stack[-1:])  # \right of its own pair (not those around that pair)
            k += 1
        if m[1] == "left":
            stack.append(i)
        elif stack:
            j = stack.pop()
            opening = found[j]
            if _PAIRS.get(opening[2]) == m[2] and j not in middled:
                tall = _TALL.search(code, opening.end(), m.start()) is not None
                swap[j] = rf"\Bigl{opening[2]}" if tall else opening[2]
                swap[i] = rf"\Bigr{m[2]}" if tall else m[2]
    out, pos = [], 0
    for i, m in enumerate(found):
        out.append(code[pos : m.start()])
        out.append(swap.get(i, m[0]))
        pos = m.end()
    out.append(code[pos:])
    code = re.sub(r"(?<!\\), ", r",\\allowbreak ", "".join(out))  # not after a thin space \,
    code = _LONG_DIGITS.sub(
        lambda m: r"\allowbreak ".join(
            m[0][i : i + DIGIT_GROUP] for i in range(0, len(m[0]), DIGIT_GROUP)
        ),
        code,
    )
    code = code.replace(r"\colon ", r"\colon\allowbreak ")
    return _FACTOR_BREAK.sub(r"\g<0>\\allowbreak ", code)


# Between two factors set side by side: after a closing parenthesis, before a letter, an
# opening parenthesis or a command (not a script: ``)^{2}`` stays together).
_FACTOR_BREAK = re.compile(
    r"(?:\\Bigr\)|(?<!\\right)\)) (?=[A-Za-z(\\])(?!\\right|\\end|\\\*|\\allowbreak)"
)


_SPACES = re.compile(r"\s+")


def compact(code: str) -> str:
    """``code`` with runs of spaces made one (for width estimates and tests)."""
    return _SPACES.sub(" ", code).strip()
