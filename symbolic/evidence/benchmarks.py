"""SMT-LIB 2 benchmarks as text (issues 16, 25): the commands a benchmark may hold
(``clean_benchmark``), and the digest of its meaning that ``--rechecked`` matches (``digest``).
"""

from __future__ import annotations

import hashlib
import re

ALLOWED_COMMANDS = (
    "set-logic",
    "declare-fun",
    "declare-const",
    "declare-sort",
    "define-fun",
    "define-sort",
    "assert",
    "check-sat",
    "exit",
)
MAX_DIGEST_TOKENS = 2_000_000
MAX_SMT_DEPTH = 400  # nesting of a benchmark's terms (Python's recursion stays far below)


_LEXEMES = re.compile(r'\|[^|]*\||\||"|;[^\n]*|[^|";]+')


def _without_comments(text: str) -> str:
    """The text with its comments dropped, read as a solver reads it: a ``;`` inside a
    ``|quoted symbol|`` starts no comment. A quoted symbol holding ``;``, ``\\`` or a line
    break (a name no export writes, which would read differently to another reader), an
    unterminated ``|`` and a string literal are refused (``ValueError``)."""
    out = []
    for m in _LEXEMES.finditer(text):
        lexeme = m.group()
        if lexeme == '"':
            raise ValueError("a string literal (refused)")
        if lexeme == "|":
            raise ValueError("an unterminated |quoted symbol| (refused)")
        if lexeme.startswith("|") and any(c in lexeme for c in ";\\\n\r"):
            raise ValueError("a |quoted symbol| holding ';', '\\' or a line break (refused)")
        if not lexeme.startswith(";"):
            out.append(lexeme)
    return "".join(out)


def clean_benchmark(text: str) -> str:
    """The benchmark's commands, comments and ``(set-info …)`` dropped; ``ValueError`` for a
    command outside ``ALLOWED_COMMANDS`` (``set-option`` can redirect a solver's output to a
    file), a string literal, a quoted symbol that would hide a comment (``_without_comments``),
    or anything but one ``(check-sat)``."""
    body = _without_comments(text)
    try:
        commands = _sexprs(body)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    kept = []
    for c in commands:
        if not isinstance(c, list) or not c or not isinstance(c[0], str):
            raise ValueError("a top-level atom")
        if c[0] == "set-info":
            continue  # :status is the manifest's, never the file's
        if c[0] not in ALLOWED_COMMANDS:
            raise ValueError(f"command ({c[0]} …) refused")
        kept.append(c)
    if sum(c[0] == "check-sat" for c in kept) != 1:
        raise ValueError("not exactly one (check-sat)")
    return "\n".join(_show(c) for c in kept) + "\n"


def digest(text: str) -> str:
    """The SHA-256 of a benchmark's meaning as text: comment lines dropped, Z3's ``let``s
    inlined (which terms Z3 let-binds, and their names ``$x80``, depend on what else its
    context holds), declarations sorted — the same obligation exported by two runs has one
    digest. A benchmark too large to inline is hashed as written."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
    try:
        commands = [_inline(c, {}) for c in _sexprs(body)]
        declared = sorted(_show(c) for c in commands if c and c[0] in _DECLARATIONS)
        canonical = "\n".join(
            declared + [_show(c) for c in commands if not (c and c[0] in _DECLARATIONS)]
        )
    except (ValueError, RecursionError):
        canonical = body
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_DECLARATIONS = ("declare-fun", "declare-const", "declare-sort")


def _sexprs(text: str) -> list:
    """SMT-LIB 2 text as nested lists of atoms (``|quoted|`` symbols kept whole)."""
    tokens = re.findall(r"\(|\)|\|[^|]*\||[^\s()|]+", text)
    if len(tokens) > MAX_DIGEST_TOKENS:
        raise ValueError("benchmark too large")
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
            if len(stack) > MAX_SMT_DEPTH:
                raise ValueError("nested too deeply")
        elif tok == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced parentheses")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ValueError("unbalanced parentheses")
    return stack[0]


def _inline(e, env: dict):
    if isinstance(e, str):
        return env.get(e, e)
    if len(e) == 3 and e[0] == "let" and isinstance(e[1], list):
        inner = dict(env)
        for name, value in e[1]:  # parallel let: values see the outer bindings
            inner[name] = _inline(value, env)
        return _inline(e[2], inner)
    return [_inline(x, env) for x in e]


def _show(e) -> str:
    return e if isinstance(e, str) else "(" + " ".join(_show(x) for x in e) + ")"
