r"""LaTeX rendering of reports: the only module that builds LaTeX.

``document(reports)`` is a standalone ``article`` using only ``PACKAGES`` (``amsmath``,
``amsthm``, ``booktabs``, ...), which ``pdflatex`` compiles with Debian's ``texlive-latex-base``
and ``texlive-latex-recommended``; ``document(reports, fragment=True)`` is the same body without
a preamble, for pasting into a paper (``tests/pdf_tools.py`` compiles them in the test suite).
Everything is rendered from the engine's objects (``Claim``, ``Step``, ``Derivation``,
``Table``, ``Result``, ``Report``), the very objects the text and JSON outputs print:

* every claim is a ``theorem`` / ``lemma`` / ``proposition`` / ``corollary`` with a label, its
  statement, assumptions, the claims it uses (``\ref`` when they are in the document);
* its derivation is an ``align*`` of checked steps, each with its rule and verdict; only a
  derivation whose every step was verified is typeset as a ``proof`` (with a QED box);
* one line per result says how it was verified (methods, backends, witnesses, numeric checks);
* every table is a ``booktabs`` table, shrunk to the line width when it is wider (a
  ``longtable`` across pages when it is long).

Text (statements, rules, table cells) goes through ``escape``, which makes *any* string safe:
TeX's special characters are escaped, Unicode mathematics (σ ⊙ ∀ ∃ ⇔ ≤ ℝ ᵀ …) becomes math, and
a character with no rule becomes ``[U+XXXX]``. Formulas (``formula`` fields, SymPy cells) go
through ``math``, i.e. ``sympy.latex``. Only fonts of the default OT1/OML/OMS encodings and the
AMS fonts are used, so nothing needs a font generated at compile time.

>>> escape("σ(a)·b ≠ 50% of x_1")
'\\ensuremath{\\sigma}(a)\\ensuremath{\\cdot}b \\ensuremath{\\neq} 50\\% of x\\textsubscript{1}'
>>> math(sympy.sqrt(sympy.Symbol("d")))
'\\sqrt{d}'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import ceil as math_ceil

import sympy
from sympy.core.relational import Relational

from symbolic import sources
from symbolic.engine import (
    NumericCheck,
    Report,
    Result,
    Step,
    Table,
    Verdict,
    overall_status,
)
from symbolic.errors import InvalidArgument
from symbolic.languages.functions import FUNCTIONS
from symbolic.latex_printer import breakable as breakable_code
from symbolic.latex_printer import latex as printer_latex
from symbolic.latex_printer import sympy_spans
from symbolic.render import MARK, admitted_text, cell_text, summary_line

# --- Characters: rules as data -------------------------------------------------------------


@dataclass(frozen=True)
class CharRule:
    """How one character is written in LaTeX text mode.

    ``latex`` is math-mode code when ``math`` is true (wrapped in ``\\ensuremath``).
    """

    char: str
    latex: str
    math: bool = False

    @property
    def text(self) -> str:
        return f"\\ensuremath{{{self.latex}}}" if self.math else self.latex


# TeX's special characters, and the ASCII characters that the default OT1 font prints as
# something else (``<`` is ¡, ``|`` is —, ``"`` is ”).
ASCII_RULES = (
    CharRule("\\", r"\textbackslash{}"),
    CharRule("{", r"\{"),
    CharRule("}", r"\}"),
    CharRule("$", r"\$", math=True),  # text-mode \$ needs a generated font in sans/bold
    CharRule("&", r"\&"),
    CharRule("#", r"\#"),
    CharRule("%", r"\%"),
    CharRule("_", r"\_"),
    CharRule("~", r"\textasciitilde{}"),
    CharRule("^", r"\textasciicircum{}"),
    CharRule("<", r"\textless{}"),
    CharRule(">", r"\textgreater{}"),
    CharRule("|", r"\textbar{}"),
    CharRule('"', r'\texttt{"}'),
    CharRule("`", r"\`{}"),
)

MATH_SYMBOLS = {
    "⊙": r"\odot",
    "∀": r"\forall",
    "∃": r"\exists",
    "∄": r"\nexists",
    "⇔": r"\Leftrightarrow",
    "⇒": r"\Rightarrow",
    "⇐": r"\Leftarrow",
    "⟺": r"\Longleftrightarrow",
    "⟹": r"\Longrightarrow",
    "⟸": r"\Longleftarrow",
    "↔": r"\leftrightarrow",
    "→": r"\to",
    "←": r"\leftarrow",
    "↦": r"\mapsto",
    "≠": r"\neq",
    "≤": r"\leq",
    "≥": r"\geq",
    "≈": r"\approx",
    "≡": r"\equiv",
    "≢": r"\not\equiv",
    "∼": r"\sim",
    "≃": r"\simeq",
    "≅": r"\cong",
    "∝": r"\propto",
    "≪": r"\ll",
    "≫": r"\gg",
    "∈": r"\in",
    "∉": r"\notin",
    "∋": r"\ni",
    "⊂": r"\subset",
    "⊃": r"\supset",
    "⊆": r"\subseteq",
    "⊇": r"\supseteq",
    "∪": r"\cup",
    "∩": r"\cap",
    "∅": r"\emptyset",
    "∞": r"\infty",
    "∑": r"\sum",
    "∏": r"\prod",
    "∫": r"\int",
    "√": r"\surd",
    "·": r"\cdot",
    "⋅": r"\cdot",
    "×": r"\times",
    "÷": r"\div",
    "−": "-",
    "±": r"\pm",
    "∓": r"\mp",
    "∘": r"\circ",
    "⊗": r"\otimes",
    "⊕": r"\oplus",
    "∂": r"\partial",
    "∇": r"\nabla",
    "¬": r"\neg",
    "∧": r"\wedge",
    "∨": r"\vee",
    "⊤": r"\top",
    "⊥": r"\perp",
    "‖": r"\|",
    "∣": r"\mid",
    "∖": r"\setminus",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "⌊": r"\lfloor",
    "⌋": r"\rfloor",
    "⌈": r"\lceil",
    "⌉": r"\rceil",
    "ℝ": r"\mathbb{R}",
    "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}",
    "ℚ": r"\mathbb{Q}",
    "ℂ": r"\mathbb{C}",
    "⋯": r"\cdots",
    "′": r"{}^{\prime}",
    "″": r"{}^{\prime\prime}",
    "°": r"{}^{\circ}",
    "✓": r"\checkmark",
    "✗": r"\times",
    "∗": r"\ast",
    "⋆": r"\star",
    "ℓ": r"\ell",
    "∆": r"\Delta",
    "µ": r"\mu",
    "•": r"\bullet",
    "†": r"\dagger",
    "‡": r"\ddagger",
    "∎": r"\blacksquare",
}

# Text symbols available in OT1 (no TS1: that font is generated at compile time when absent).
TEXT_SYMBOLS = {
    "–": r"\textendash{}",
    "—": r"\textemdash{}",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
    "…": r"\ldots{}",
    "\u00a0": "~",
    "ß": r"\ss{}",
    "æ": r"\ae{}",
    "Æ": r"\AE{}",
    "ø": r"\o{}",
    "Ø": r"\O{}",
    "œ": r"\oe{}",
    "Œ": r"\OE{}",
    "ł": r"\l{}",
    "Ł": r"\L{}",
    "ı": r"\i{}",
    "¡": r"\textexclamdown{}",
    "¿": r"\textquestiondown{}",
    "⁄": "/",
}

# Greek letters by Unicode name; small letters are \name unless listed, capitals are \Name
# only where TeX has one (the others look like Latin capitals).
_GREEK_LETTERS = {
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lamda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "final sigma",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
}  # not archaic ones
_GREEK_SMALL_SPECIAL = {
    "omicron": "o",
    "lamda": r"\lambda",
    "final sigma": r"\varsigma",
    "epsilon": r"\varepsilon",
    "phi": r"\varphi",
}
_GREEK_CAPITALS = {
    "gamma",
    "delta",
    "theta",
    "lamda",
    "xi",
    "pi",
    "sigma",
    "upsilon",
    "phi",
    "psi",
    "omega",
}
_GREEK_LATIN_CAPITALS = dict(
    alpha="A",
    beta="B",
    epsilon="E",
    zeta="Z",
    eta="H",
    iota="I",
    kappa="K",
    mu="M",
    nu="N",
    omicron="O",
    rho="P",
    tau="T",
    chi="X",
)
GREEK_VARIANTS = {
    "ϵ": r"\epsilon",
    "ϕ": r"\phi",
    "ϑ": r"\vartheta",
    "ϱ": r"\varrho",
    "ϖ": r"\varpi",
    "ϰ": r"\varkappa",
}

# Combining accents that OT1 can put on a Latin letter (code point of the combining mark).
ACCENTS = {
    0x300: r"\`",
    0x301: r"\'",
    0x302: r"\^",
    0x303: r"\~",
    0x304: r"\=",
    0x306: r"\u",
    0x307: r"\.",
    0x308: r"\"",
    0x30A: r"\r",
    0x30B: r"\H",
    0x30C: r"\v",
    0x327: r"\c",
}

# Combining accents on a letter of mathematics (θ̇ is \dot{\theta}).
MATH_ACCENTS = {
    0x307: r"\dot",
    0x308: r"\ddot",
    0x302: r"\hat",
    0x303: r"\tilde",
    0x304: r"\bar",
    0x20D7: r"\vec",
}

# Characters that get their own superscript rendering (docs/theory.md writes transposes as xᵀ).
SUPERSCRIPT_SYMBOLS = {"ᵀ": r"\top"}


def _greek(char: str) -> str | None:
    name = unicodedata.name(char, "")
    for case in ("SMALL", "CAPITAL"):
        prefix = f"GREEK {case} LETTER "
        letter = name[len(prefix) :].lower()
        if name.startswith(prefix) and letter in _GREEK_LETTERS:
            if case == "SMALL":
                return _GREEK_SMALL_SPECIAL.get(letter, "\\" + letter)
            if letter in _GREEK_CAPITALS:
                return "\\" + ("lambda" if letter == "lamda" else letter).capitalize()
            return _GREEK_LATIN_CAPITALS.get(letter)
    return GREEK_VARIANTS.get(char)


def _rules() -> dict[str, CharRule]:
    rules = {r.char: r for r in ASCII_RULES}
    rules |= {c: CharRule(c, latex, math=True) for c, latex in MATH_SYMBOLS.items()}
    rules |= {c: CharRule(c, latex) for c, latex in TEXT_SYMBOLS.items()}
    return rules


CHAR_RULES: Mapping[str, CharRule] = _rules()
FALLBACK = r"\textsf{[U+%04X]}"  # a character with no rule: its code point, visibly


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
    greek = _greek(char)
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


def _is_script(char: str) -> bool:
    return char in SUPERSCRIPT_SYMBOLS or unicodedata.decomposition(char).startswith(
        ("<super>", "<sub>")
    )


_SCRIPTS = "".join(c for c in map(chr, range(0x80, 0x2100)) if _is_script(c))
# Plain-text notation turned into super/subscripts: x^{n×d}, α^(−1), t^p, q_{js}, and Q_j or
# M_ik where the base is a one-letter word, or a letter after a coefficient (1b_q: the ones
# column times b_q), so that names like exchange_lemma keep their underscores.
MARKUP = re.compile(
    r"(?<![\w\\])(?:R|ℝ)(?:\^\{(?P<rsup>[^{}]*)\}|\^(?P<rsup1>\w+))"  # ℝ^{n×d}, R^d
    r"|(?P<reals>(?<![\w\\])R(?=\s*→)|(?<=→ )R(?![\w^]))"  # σ: R → R
    r"|(?<=\s)~(?=\s)"  # s ~ Beta(a, b): "distributed as"
    r"|\^\{(?P<sup>[^{}]*)\}"
    r"|\^\((?P<sup2>(?:[^()]|\([^()]*\))*)\)"
    r"|\^(?P<sup1>[−-]?\w+(?:\.\d+)?)"
    r"|_\{(?P<sub>[^{}]*)\}"
    r"|(?<!\w)(?P<starbase>[A-Za-z])\*(?:_(?P<starsub>[A-Za-z]{1,6}))?(?![\w(])"
    rf"|(?<![^\W\d])(?P<base>[^\W\d_])_(?P<sub1>(?![{_SCRIPTS}])[^\W_](?:(?![{_SCRIPTS}])[^\W_A-Z]){{0,2}})"
    rf"(?:(?![^\W_A-Z])|(?=[{_SCRIPTS}]))"
)
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
        elif (greek := _greek(char)) is not None:
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
    ``breakable``: TeX may break it across lines (``latex_printer.breakable``)."""
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


OPERATORS = {**{f.name: f.latex for f in FUNCTIONS}, "sqrt": r"\surd"}  # the functions table's
_OPERATOR = re.compile(rf"\b({'|'.join(OPERATORS)})\(")


def _escape_operators(text: str) -> str:
    """``escape``, with the function names of hand-written formulas (``exp(2βs)``) as math
    operators."""
    out, pos = [], 0
    for m in _OPERATOR.finditer(text):
        out.append(escape(text[pos : m.start()]) + rf"\ensuremath{{{OPERATORS[m[1]]}}}(")
        pos = m.end()
    return "".join(out) + escape(text[pos:])


# --- Claims, steps, derivations -------------------------------------------------------------

ENVIRONMENTS = ("theorem", "lemma", "proposition", "corollary", "claim")
DISPLAY_CHARS = 30  # a claim formula wider than this is set inline (it may break), not displayed:
# a display cannot break, and a two-column line holds about 40 characters of mathematics
BREAK_CHARS = 30  # a wider formula is printed so that TeX can break it (latex_printer.breakable)
SECTION_LEVELS = ("chapter", "section", "subsection", "subsubsection", "paragraph")


def visible_width(code: str) -> int:
    """Rough width of math-mode LaTeX in characters: a command is one glyph, braces, script
    markers and break points (``\\allowbreak``, ``\\*``) are nothing, a fraction is as wide as
    its wider part."""
    code = re.sub(
        r"\\(left|right|[bB]igg?[lr]?)\b|\\[,;:! *]|\\(operatorname|mathrm|text\w*|"
        r"math\w+|displaystyle|allowbreak)\b",
        "",
        code,
    )
    frac = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
    while frac.search(code):
        code = frac.sub(lambda m: "x" * max(len(m[1]), len(m[2])), code)
    code = re.sub(r"\\[a-zA-Z]+", "x", code)
    return len(re.sub(r"[{}^_\s&]", "", code))


def environment(kind: str) -> str:
    """The amsthm environment of a claim kind (unknown kinds are ``claim``)."""
    return kind.lower() if kind.lower() in ENVIRONMENTS else "claim"


def label(*parts: str) -> str:
    """A ``\\label`` key: letters, digits and ``:.-`` kept, anything else hex-coded."""
    key = ":".join(parts)
    return re.sub(r"[^A-Za-z0-9.:-]", lambda m: f"+{ord(m[0]):x}+", key)


def verdict_mark(v: Verdict, rule: str | None = None) -> str:
    """``✓ sympy`` / ``✗ refuted (z3)`` / ``? unknown (sympy)``: the verdict of one step; a fact
    made by a kernel inference rule (``method == "rule"``) is ``✓ by trans`` (its rule)."""
    method = f"by {rule}" if v.method == "rule" and rule else v.method
    text = (
        f"{MARK[v.status]} {method}"
        if v.status == "proved"
        else (f"{MARK[v.status]} {v.status} ({method})")
    )
    return escape(text)


def _after_newline(row: str) -> str:
    """A row that follows ``\\\\`` or a booktabs rule: a leading ``[`` or ``*`` (after spaces,
    which TeX skips) would be read as their optional argument."""
    return "{}" + row if row.lstrip().startswith(("[", "*")) else row


# Step API: after the kernel redesign a step has ``formula`` (what was checked), ``note``
# (prose) and ``kind`` (checked / definition / assumption); before it, only ``statement``,
# ``rule``, ``verdict`` and an optional ``formula``. Both are read through these helpers.


def step_kind(step: Step) -> str:
    """``checked``, ``definition``, ``assumption`` or ``oracle``."""
    kind = getattr(step, "kind", None)
    if kind:
        return str(kind)
    return {"definition": "definition", "assumption": "assumption"}.get(
        step.verdict.method, "checked"
    )


def step_note(step: Step) -> str:
    """The prose beside a step's formula ("" when none)."""
    note = getattr(step, "note", "") or ""
    f = getattr(step, "formula", None)
    if not note and isinstance(f, Relational) and f.lhs == f.rhs:
        return step.statement  # SymPy made both sides identical: say what was meant
    return note


def formula_latex(f: sympy.Basic) -> str:
    """A formula in math mode (``$...$``, so that a long one breaks at its relations and, when
    wider than ``BREAK_CHARS``, at the operators inside its parentheses)."""

    def code(breakable: bool) -> str:
        if isinstance(f, Relational) and f.rel_op in RELATIONS:
            return f"{math(f.lhs, breakable)} {RELATIONS[f.rel_op]} {math(f.rhs, breakable)}"
        return math(f, breakable)

    short = code(False)
    return rf"$\displaystyle {short if visible_width(short) <= BREAK_CHARS else code(True)}$"


def step_formula(step: Step) -> sympy.Basic | None:
    """The formula to typeset: None when there is none, or when it is a bare truth value
    (a formula SymPy evaluated while building it, which says nothing about the step)."""
    f = getattr(step, "formula", None)
    if getattr(f, "func", None) is not None and f.func.__name__ == "assumed":
        return None  # an admitted fact stated only in words: its words are the statement
    return None if isinstance(f, (bool, sympy.logic.boolalg.BooleanAtom)) else f


def bare_truth(step: Step) -> bool:
    """A step whose formula SymPy evaluated to True or False, and whose text says no more: its
    note (else its rule) is shown as its statement."""
    f = getattr(step, "formula", None)
    return isinstance(f, (bool, sympy.logic.boolalg.BooleanAtom)) and step.statement.startswith(
        str(f)
    )


def step_body(step: Step) -> str:
    """The statement of a step: its formula in math mode, or (no formula) its text; a formula
    that SymPy evaluated to a truth value while building it says nothing, so its note is the
    statement (never a bare "True")."""
    f = step_formula(step)
    if f is not None:
        return formula_latex(f)
    if bare_truth(step):
        domain = step.statement[len(str(step.formula)) :]
        said = step_note(step) or step.rule
        if not said:
            return rf"\textit{{(checked; SymPy evaluated it to {str(step.formula).lower()})}}"
        return prose(said) + prose(domain)
    return prose(step.statement)


def justification(step: Step) -> str:
    """Rule, note, witness and verdict of a step, in small type under its statement."""
    kind = step_kind(step)
    note = step_note(step)
    if bare_truth(step):  # the note, else the rule, is the statement
        note, rule = "", (step.rule if note else "")
    else:
        rule = step.rule
    parts = [prose(rule)] if rule else []
    if note:
        parts.append(prose(note))
    if step.verdict.witness:
        parts.append("at " + prose(", ".join(f"{k} = {v}" for k, v in step.verdict.witness)))
    mark = {
        "definition": r"\textit{definition}",
        "assumption": r"\textit{assumption (admitted, not checked)}",
        "oracle": r"\textit{oracle result (certified outside the kernel)}",
    }.get(kind, verdict_mark(step.verdict, getattr(getattr(step, "fact", None), "rule", None)))
    return "; ".join(parts) + (r" \hfill " if parts else "") + mark


def step_latex(i: int, step: Step) -> str:
    """One step: ``(i)`` statement, then its justification."""
    return (
        rf"\item[({i})] {step_body(step)}\par"
        "\n"
        rf"{{\footnotesize {justification(step)}\par}}"
    )


def derivation_latex(steps: Sequence[Step]) -> str:
    """The derivation as a list of steps (it breaks across pages and columns), or a sentence
    when it has no steps."""
    if not steps:
        return r"\noindent No derivation steps."
    rows = "\n".join(step_latex(i, s) for i, s in enumerate(steps, 1))
    return f"\\begin{{proofsteps}}\n{rows}\n\\end{{proofsteps}}"


NUMERIC_LISTED = 2  # more numeric checks than this are summarized in one sentence


def numeric_text(checks: Sequence[NumericCheck]) -> list[str]:
    """The numeric cross-checks, listed, or summarized with every disagreement named."""

    def one(n: NumericCheck) -> str:
        return f"numeric check {n.name} ({n.backend}, {n.samples} samples): {n.measured()}" + (
            "" if n.agrees else ", DISAGREES"
        )

    if len(checks) <= NUMERIC_LISTED:
        return [one(n) for n in checks]
    backends = sorted({n.backend for n in checks})
    per = ", ".join(f"{b} {sum(n.backend == b for n in checks)}" for b in backends)
    bad = [n for n in checks if not n.agrees]
    text = (
        f"{len(checks)} numeric cross-checks ({per}; {sum(n.samples for n in checks)} "
        "samples), " + (f"{len(bad)} DISAGREE" if bad else "all agree with the symbolic verdicts")
    )
    return [text] + [one(n) for n in bad]


def admitted(result: Result) -> tuple[Step, ...]:
    """The definition and assumption steps a result rests on (``Result.admitted`` when the
    kernel provides it)."""
    found = getattr(result, "admitted", None)
    if found is not None:
        return tuple(found)
    return tuple(s for s in result.derivation.steps if step_kind(s) != "checked")


def status_text(result: Result) -> str:
    """``proved``, ``proved (1 assumption, 1 oracle result)``, ``refuted``, ...: an oracle
    result is never called an assumption; admitted facts inherited through ``uses`` are
    counted too."""
    return result.status + (admitted_text(result) if result.status == "proved" else "")


def inherited_latex(result: Result) -> str | None:
    """The admitted facts a result rests on through the claims it uses (``Result.inherited``:
    ``Admitted`` facts, each with the used claim it comes ``via``), or None when none."""
    found = tuple(getattr(result, "inherited", ()) or ())
    if not found:
        return None
    items = [
        f"{escape(a.kind)} {prose(a.statement)}"
        + (rf" (via \texttt{{{escape(a.via)}}})" if a.via else "")
        for a in found
    ]
    return "rests, through the claims it uses, on " + "; ".join(items)


def verification_line(result: Result, timings: bool = False, backing: str | None = None) -> str:
    """How the result was verified: verdict, methods, backends, what backs it (``backing``, in
    the words of ``symbolic.backing``; without a second solver when not given), witnesses,
    numeric checks. Times only with ``timings`` (so that two runs give the same file)."""
    from symbolic.backing import backing as backing_of

    v = result.verdict
    steps = result.derivation.steps
    backends = sorted({s.verdict.backend for s in steps if s.verdict.backend})
    by = " + ".join(result.methods) or "nothing"
    inside = [_count(len(steps), "step")]
    if timings:
        inside[0] += f", {v.seconds:.3f} s"
    if backends:
        inside.append(", ".join(backends))
    parts = [
        escape(f"{MARK[result.status]} {status_text(result)} by {by} ({'; '.join(inside)})"),
        prose(f"backed by {backing or backing_of(result)}"),
    ]
    for w in (s.verdict for s in steps if s.verdict.witness):
        text = "witness " + ", ".join(f"{k} = {val}" for k, val in w.witness)
        if w.certificate:
            text += f" certified by {w.method}: {w.certificate}"
        parts.append(prose(text))
    parts += [prose(t) for t in numeric_text(result.numeric)]
    if (inherited := inherited_latex(result)) is not None:
        parts.append(inherited)
    if result.status != "proved":
        parts.append(prose(f"reason: {v.reason}"))
    return r"{\raggedright\noindent\textit{Verification.} " + "; ".join(parts) + ".\\par}"


CITE_KEYS = 2  # keys in one \cite (its list cannot break across lines)


class _Labels:
    """Where each claim is in the document, so that ``uses`` become ``\\ref``s when they can.

    Labels are unique even when two modules share a claim name; a use refers to the first.
    """

    def __init__(self, reports: Sequence[Report]):
        self.defined: dict[tuple[int, int], str] = {}  # (report index, result index) -> label
        self.by_name: dict[str, tuple[str, str]] = {}  # claim name -> (label, environment)
        self.taken: set[str] = set()
        self.cited: dict[str, None] = {}  # bibliography keys, in order of first citation
        for k, report in enumerate(reports):
            for i, r in enumerate(report.results):
                key = self.unique("claim", report.module, r.claim.name)
                self.defined[(k, i)] = key
                self.by_name.setdefault(r.claim.name, (key, environment(r.claim.kind)))

    def unique(self, *parts: str) -> str:
        """A label key not used before in this document."""
        base = key = label(*parts)
        while key in self.taken:
            key = f"{base}-{len(self.taken)}"
        self.taken.add(key)
        return key

    def ref(self, name: str) -> str:
        code = rf"\texttt{{{escape(name)}}}"
        if name not in self.by_name:
            return code + " (not in this document)"
        key, env = self.by_name[name]
        return rf"{env.capitalize()}~\ref{{{key}}} ({code})"

    def source(self, source: str) -> str:
        """``docs/theory.md A6 (Exchange symmetry) \\cite{...}``; an unresolved source is
        printed as given, marked."""
        try:
            found = sources.resolve(source)
        except sources.UnresolvedSource:
            return rf"{escape(source)} (\textit{{not an item of {sources.THEORY_NAME}}})"
        keys = list(dict.fromkeys(k for item in found for k in item.references))
        self.cited.update(dict.fromkeys(keys))
        items = ", ".join(f"{escape(i.id)} ({escape(i.title)})" for i in found)
        # LaTeX never breaks a line inside one \cite: at most CITE_KEYS keys in each
        cite = (
            "~"
            + ", ".join(
                rf"\cite{{{','.join(keys[i : i + CITE_KEYS])}}}"
                for i in range(0, len(keys), CITE_KEYS)
            )
            if keys
            else ""
        )
        return rf"\texttt{{{sources.THEORY_NAME}}} {items}{cite}"


def claim_latex(result: Result, key: str, labels: _Labels) -> str:
    """The claim as an amsthm environment (formula, statement, assumptions), then a line with
    its name, its source item and the claims it uses."""
    c = result.claim
    env = environment(c.kind)
    # ragged right: a statement's formulas break at their operators, and a justified line
    # could not stretch around them in a narrow column
    lines = [rf"\begin{{{env}}}[{escape(c.title)}]\label{{{key}}}\raggedright"]
    f = c.statement
    if f is not None:
        code = formula_latex(f)
        # a short formula is displayed; a longer one is centred lines that TeX may break
        lines.append(
            rf"\[ {code[1:-1]} \]"
            if visible_width(code) <= DISPLAY_CHARS
            else rf"\par{{\centering {code}\par}}"
        )
        lines.append(prose(c.note))
    else:
        lines.append(prose(c.note))
    if c.assumptions:
        lines.append(
            r"\par{\raggedright\emph{Assumptions:} "
            + "; ".join(prose(a) for a in c.assumptions)
            + ".\\par}"
        )
    lines.append(rf"\end{{{env}}}")
    meta = (
        rf"{{\small\raggedright\noindent Claim \texttt{{{escape(c.name)}}}; source "
        f"{labels.source(c.source)}"
    )
    if c.uses:
        meta += "; uses " + ", ".join(labels.ref(u) for u in c.uses)
    lines.append(meta + ".\\par}")
    return "\n".join(lines)


def result_latex(
    result: Result, key: str, labels: _Labels, timings: bool = False, backing: str | None = None
) -> str:
    """Claim, derivation and verification line. Only a verified derivation is a ``proof``."""
    body = (
        f"{derivation_latex(result.derivation.steps)}\n"
        f"{verification_line(result, timings, backing)}"
    )
    if result.status == "proved":
        rests = admitted_text(result)  # in the text: the title is a box that cannot break
        rests = f"It rests on {escape(rests.strip(' ()'))}.\n" if rests else ""
        proof = f"\\begin{{proof}}[Checked derivation]\n{rests}{body}\n\\end{{proof}}"
    else:
        proof = (
            rf"\paragraph{{Derivation \textbf{{not verified}}: {escape(result.status)}.}}"
            f"\n{body}"
        )
    return f"{claim_latex(result, key, labels)}\n{proof}"


# --- Tables ---------------------------------------------------------------------------------

_EXPONENT = re.compile(r"^(-?[\d,]*\.?\d*)e([+-]?)0*(\d+)$")
_POWER_TEN = re.compile(r"^10\^(-?\d+(?:\.\d+)?)$")  # capacity's "10^456.3393"


CELL_DIGITS = 6  # a rational with a longer numerator or denominator is shown as a decimal


def _readable(expr: sympy.Basic) -> sympy.Basic:
    """Long exact constants as decimals of ``CELL_DIGITS`` (named constants are kept)."""
    from symbolic.latex_printer import NAMED_CONSTANTS

    named = {c.value for c in NAMED_CONSTANTS}
    long = {
        r: sympy.Float(r, CELL_DIGITS)
        for r in expr.atoms(sympy.Rational)
        if max(len(str(abs(r.p))), len(str(r.q))) > CELL_DIGITS and abs(r) not in named
    }
    return expr.xreplace(long) if long else expr


def cell_latex(cell: object) -> str:
    """A table cell: SymPy as math (long constants as decimals), floats in scientific notation
    as ×10^k, ``10^x`` strings as powers, the rest as text (SymPy syntax in it as math)."""
    if isinstance(cell, sympy.Basic):
        return f"${math(_readable(cell))}$"
    text = cell_text(cell)
    m = _EXPONENT.match(text) if isinstance(cell, float) else None
    if m:
        sign = "-" if m[2] == "-" else ""
        return rf"${m[1].replace(',', '{,}')}\times 10^{{{sign}{m[3]}}}$"
    p = _POWER_TEN.match(text)
    if p:
        return rf"$10^{{{p[1]}}}$"
    return prose(text)


def _is_number(cell: object) -> bool:
    return isinstance(cell, (int, float, sympy.Number)) and not isinstance(cell, bool)


COLUMN_NAMES = {"THEORY": "source", "THEORY item": "source"}  # items of docs/theory.md


def _tabular_parts(table: Table) -> tuple[str, str, list[str]]:
    """Column specification, header row and body rows (numeric columns right-aligned)."""
    align = "".join(
        "r"
        if any(_is_number(row[j]) for row in table.rows)
        and all(_is_number(row[j]) or row[j] is None for row in table.rows)
        else "l"
        for j in range(len(table.columns))
    )
    head = (
        _after_newline(
            " & ".join(rf"\textbf{{{escape(COLUMN_NAMES.get(c, c))}}}" for c in table.columns)
        )
        + r" \\"
    )
    rows = [_after_newline(" & ".join(cell_latex(c) for c in row)) + r" \\" for row in table.rows]
    return align, head, rows


def tabular_latex(table: Table) -> str:
    """The ``booktabs`` tabular (all rows)."""
    if not table.columns:
        return r"\textit{(empty table)}"
    align, head, rows = _tabular_parts(table)
    return _tabular(align, head, rows)


def _tabular(align: str, head: str, rows: Sequence[str]) -> str:
    return "\n".join(
        [
            rf"\begin{{tabular}}{{{align}}}",
            r"\toprule",
            head,
            r"\midrule",
            *rows,
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )


TABLE_ROWS = 24  # a longer table is set as several tabulars of this many lines (pages break)
NARROW_EM = 28  # a two-column article's column in \footnotesize ems
CHAR_EM = 0.55  # width of an ASCII character of text or mathematics, generously (em)
WIDE_CHAR = 2  # a non-ASCII character (an arrow, ≡, ✓) counts as this many
TABCOLSEP_EM = 0.75  # LaTeX's \tabcolsep (6 pt) in \footnotesize ems (8 pt), rounded up
HEADER_FACTOR = 1.2  # a bold header character is this much wider
COLUMN_CHARS = 28  # a column's share of the line is at most this many characters' worth


def _notes(table: Table) -> str:
    return r"\\ ".join(prose(f"Note: {n}") for n in table.notes)


_TOKEN_BREAKS = re.compile(r"[\s_/*-]+|(?<=[A-Za-z])\.(?=[A-Za-z])")


def _text_width(text: str) -> float:
    """Width of text in characters: capitals and digits a little wider, non-ASCII wide."""
    return sum(
        1 if c.islower() or c in " .,;:()" else 1.3 if c.isascii() else WIDE_CHAR for c in text
    )


def _cell_widths(cell: object, code: str) -> tuple[float, float]:
    """``(unbreakable, natural)`` width of a cell in characters: a formula cannot break, text
    breaks at spaces, hyphens, underscores, slashes and dots between words."""
    formulas = re.findall(r"\$([^$]*)\$", code)
    text = re.sub(r"\$[^$]*\$", " ", code) if formulas else cell_text(cell)
    words = [_text_width(w) for w in _TOKEN_BREAKS.split(text)]
    unbreakable = max([*(visible_width(f) for f in formulas), *words])
    natural = sum(visible_width(f) for f in formulas) + _text_width(text)
    return unbreakable, natural


def column_shares(table: Table) -> tuple[tuple[tuple[float, float], ...], float]:
    """Each column's width as ``(em, share)``: its widest unbreakable cell (header words
    included), plus its share of the rest of the line (the shares add up to 1, by how much
    wider the column's text is); and the narrowest line (em) that holds them."""
    columns = []
    for j, name in enumerate(table.columns):
        unbreakable = HEADER_FACTOR * max(
            _text_width(w) for w in _TOKEN_BREAKS.split(COLUMN_NAMES.get(name, name))
        )
        natural = unbreakable
        for row in table.rows:
            u, n = _cell_widths(row[j], cell_latex(row[j]))
            unbreakable, natural = max(unbreakable, u), max(natural, n)
        columns.append((unbreakable, max(unbreakable, min(natural, COLUMN_CHARS))))
    slack = [w - u for u, w in columns]
    total = sum(slack)
    shares = [x / total if total else 1 / len(columns) for x in slack]
    widths = tuple((round(u * CHAR_EM, 1), f) for (u, _), f in zip(columns, shares, strict=True))
    return widths, sum(w for w, _ in widths) + TABCOLSEP_EM * 2 * (len(columns) - 1)


def _wrapped(
    table: Table, widths: Sequence[tuple[float, float]], rows: Sequence[Sequence[object]]
) -> str:
    """A tabular exactly as wide as the line: each column a paragraph of its width."""
    n = len(table.columns)
    numeric = [
        all(_is_number(r[j]) or r[j] is None for r in table.rows)
        and any(_is_number(r[j]) for r in table.rows)
        for j in range(n)
    ]
    fixed = sum(w for w, _ in widths)
    slack = rf"(\linewidth-{2 * (n - 1)}\tabcolsep-{fixed:.1f}em)"
    spec = "".join(
        rf"p{{\dimexpr{w:.1f}em+{slack}*{int(f * 1000)}/1000\relax}}" for w, f in widths
    )  # shares rounded down: never wider than the line

    def line(cells: Sequence[str]) -> str:
        return (
            " & ".join(
                (r"\raggedleft " if numeric[j] else r"\raggedright ") + c
                for j, c in enumerate(cells)
            )
            + r" \tabularnewline"
        )

    head = line([rf"\textbf{{{escape(COLUMN_NAMES.get(c, c))}}}" for c in table.columns])
    body = [line([cell_latex(c) for c in row]) for row in rows]
    return "\n".join(
        [
            rf"\begin{{tabular}}{{@{{}}{spec}@{{}}}}",
            r"\toprule",
            head,
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )


def _records(table: Table) -> str:
    """The rows as paragraphs of ``column: value`` (a line too narrow for the columns)."""
    heads = [rf"\textbf{{{escape(COLUMN_NAMES.get(c, c))}:}}" for c in table.columns]
    rows = [
        r"\noindent "
        + "; ".join(f"{h} {cell_latex(c)}" for h, c in zip(heads, row, strict=True))
        + r"\par"
        for row in table.rows
    ]
    return "{\\raggedright\n" + "\n".join(rows) + "\\par}"


def _chunks(table: Table, widths: Sequence[tuple[float, float]], need: float) -> list[tuple]:
    """The rows in chunks of at most ``TABLE_ROWS`` lines (a tabular cannot break across pages
    or columns): a row whose cell is wider than its column takes several lines (columns as on
    a line of ``NARROW_EM``, or of the table's narrowest line when that is wider)."""
    spare = max(need, NARROW_EM) - need
    chunks, chunk, lines = [], [], 0
    for row in table.rows:
        height = max(
            (
                math_ceil(_cell_widths(c, cell_latex(c))[1] * CHAR_EM / (w + spare * f))
                for c, (w, f) in zip(row, widths, strict=True)
            ),
            default=1,
        )
        if chunk and lines + height > TABLE_ROWS:
            chunks.append(tuple(chunk))
            chunk, lines = [], 0
        chunk.append(row)
        lines += max(height, 1)
    return [*chunks, tuple(chunk)] if chunk or not chunks else chunks


def table_latex(table: Table, key: str) -> str:
    """A numbered, captioned table in the text (not a float: it stays where it is, in one or two
    columns). Its columns wrap and share the line, so that every chunk of ``TABLE_ROWS`` rows (a
    long table breaks across pages) is exactly the line's width; on a line too narrow for its
    widest unbreakable cells (``column_shares``) the table is set smaller, and on a line too
    narrow even for that, each row is a paragraph instead."""
    caption = (
        r"{\centering\refstepcounter{table}"
        rf"\label{{{key}}}"
        rf"\textbf{{Table~\thetable.}} {escape(table.title)}\par\nopagebreak\smallskip}}"
    )
    if not table.columns:
        return f"{caption}\n\\noindent\\textit{{(empty table)}}\\par"
    widths, need = column_shares(table)
    chunks = _chunks(table, widths, need)
    tabulars = []
    for n, chunk in enumerate(chunks):
        if n:
            tabulars.append(
                r"\par\smallskip{\centering\small\textit{Table~\thetable, "
                r"continued}\par\nopagebreak}"
            )
        tabulars.append(rf"\noindent{_wrapped(table, widths, chunk)}\par")
    # \footnotesize; on a narrower line \scriptsize (the widths are in ems of the font in
    # force); on a line narrower still, a paragraph per row
    parts = [
        r"\par\medskip",
        caption,
        r"{\footnotesize",
        rf"\ifdim\linewidth<{need:.1f}em{{\scriptsize",
        rf"\ifdim\linewidth<{need:.1f}em\footnotesize",
        _records(table),
        r"\else",
        *tabulars,
        r"\fi}\else",
        *tabulars,
        r"\fi}",
    ]
    if table.notes:
        parts.append(rf"{{\footnotesize\raggedright\noindent {_notes(table)}\par}}")
    parts.append(r"\medskip")
    return "\n".join(parts)


def claims_table(reports: Sequence[Report], timings: bool = False) -> Table:
    """One row per claim: module, claim, source items, verdict, backing (and time)."""
    from symbolic.backing import claim_backing

    columns = ("module", "claim", "source", "verdict", "backing") + (("time",) * timings)
    rows = []
    for rep in reports:
        for res in rep.results:
            row = (
                rep.module.removeprefix("proofs."),
                res.claim.name,
                res.claim.source,
                f"{MARK[res.status]} {status_text(res)}",
                claim_backing(rep, res),
            )
            rows.append(row + ((f"{res.verdict.seconds:.2f} s",) * timings))
    return Table("claims", "Claims checked", columns, tuple(rows))


# --- Reports and the document ---------------------------------------------------------------


def report_latex(
    report: Report,
    labels: _Labels,
    index: int = 0,
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> str:
    """One theorem module: a section with its results (and, unless ``appendix``, its tables)."""
    from symbolic.backing import claim_backing

    statuses = [r.status for r in report.results]
    key = labels.unique("sec", report.module)
    intro = (
        rf"{{\raggedright\noindent Module \texttt{{{escape(report.module)}}} "
        rf"(\texttt{{python -m {escape(report.module)}}}); source "
        f"{labels.source(report.source)}: {escape(summary_line(statuses))}"
    )
    if timings:
        intro += f" in {report.seconds:.2f} s"
    intro += f", overall \\textbf{{{escape(report.status)}}}.\\par}}"
    parts = [rf"\{section_level}{{{escape(report.title)}}}\label{{{key}}}", intro]
    parts += [
        result_latex(r, labels.defined[(index, i)], labels, timings, claim_backing(report, r))
        for i, r in enumerate(report.results)
    ]
    if not appendix:
        parts += [
            table_latex(t, labels.unique("tab", report.module, t.name)) for t in report.tables
        ]
    return "\n\n".join(parts)


TITLE = "Machine-checked results: gated MLPs, bilinear attention and memory capacity"
PACKAGES = ("amsmath", "amssymb", "amsthm")  # required
OPTIONAL_PACKAGES = ("booktabs",)  # nicer rules
THEOREMS = (
    ("theorem", r"\newtheorem{theorem}{Theorem}[section]"),
    ("lemma", r"\newtheorem{lemma}[theorem]{Lemma}"),
    ("proposition", r"\newtheorem{proposition}[theorem]{Proposition}"),
    ("corollary", r"\newtheorem{corollary}[theorem]{Corollary}"),
    ("claim", r"\newtheorem{claim}[theorem]{Claim}"),
)
# Everything the body needs beyond PACKAGES, each defined only when the paper has not:
# theorem environments, the step list, booktabs rules.
MACROS = (
    *(rf"\ifx\{env}\undefined{code}\fi" for env, code in THEOREMS),
    r"\ifx\proofsteps\undefined\newenvironment{proofsteps}{\begin{list}{}{%",
    r"  \setlength{\leftmargin}{2.2em}\setlength{\labelwidth}{2em}\setlength{\labelsep}{0.2em}%",
    r"  \setlength{\itemsep}{2pt}\setlength{\parsep}{0pt}\setlength{\topsep}{3pt}}%",
    r"  \raggedright}{\end{list}}\fi",
    r"\providecommand{\toprule}{\hline}\providecommand{\midrule}{\hline}",
    r"\providecommand{\bottomrule}{\hline}",
)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _authors(field: str) -> str:
    """``Mor Geva, Roei Schuster and Jonathan Berant`` from BibTeX's ``Last, First and ...``."""
    names = [
        " ".join(reversed([p.strip() for p in n.split(",", 1)])) if "," in n else n.strip()
        for n in re.split(r"\s+and\s+", field)
        if n.strip()
    ]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def bibliography_latex(keys: Sequence[str]) -> str:
    """A ``thebibliography`` of the cited keys, from docs/references.bib (standalone document:
    no BibTeX run needed)."""
    entries = sources.bib_entries()
    items = []
    for k in keys:
        e = entries.get(k)
        if e is None:
            continue
        venue = (
            e.get("booktitle")
            or e.get("journal")
            or (f"arXiv:{e['eprint']}" if "eprint" in e else "")
        )
        fields = [
            _authors(e.get("author", "")),
            rf"\emph{{{e['title']}}}" if "title" in e else "",
            venue,
            e.get("year", ""),
        ]
        items.append(rf"\bibitem{{{k}}} " + ". ".join(f.rstrip(".") for f in fields if f) + ".")
    if not items:
        return ""
    return "\n".join([r"\begin{thebibliography}{99}", *items, r"\end{thebibliography}"])


def _body(
    reports: Sequence[Report],
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> tuple[str, list[str]]:
    """The document body, and the bibliography keys it cites."""
    from symbolic.versions import versions

    labels = _Labels(reports)
    statuses = [r.status for rep in reports for r in rep.results]
    parts = []
    if not appendix:
        tools = ", ".join(f"{k} {v}" for k, v in versions().items() if v)
        intro = (
            rf"{{\raggedright\noindent {_count(len(statuses), 'claim')} from "
            rf"{_count(len(reports), 'theorem module')}: "
            rf"{escape(summary_line(statuses))}; overall "
            rf"\textbf{{{overall_status(statuses)}}}. "
            "Every step of every derivation was checked by the backend named beside it "
            "(SymPy, Z3, exact or interval arithmetic); a result's verification line lists "
            "its methods, witnesses and numeric cross-checks. Each claim names its source, "
            rf"an item of \texttt{{{sources.THEORY_NAME}}}. "
            rf"Checked with {escape(tools)}. Regenerate with "
            r"\texttt{python -m proofs -{}-latex FILE.tex}.\par}"
        )
        if not reports:
            intro = r"\noindent No theorem modules found: nothing was checked."
        parts.append(intro)
        if statuses:
            parts.append(
                table_latex(claims_table(reports, timings), labels.unique("tab", "claims"))
            )
    parts += [
        report_latex(r, labels, k, timings=timings, appendix=appendix, section_level=section_level)
        for k, r in enumerate(reports)
    ]
    return "\n\n".join(parts) + "\n", list(labels.cited)


def document(
    reports: Sequence[Report],
    fragment: bool = False,
    *,
    timings: bool = False,
    appendix: bool = False,
    section_level: str = "section",
) -> str:
    """The reports as a standalone LaTeX ``article``, or as a fragment to paste into a paper.

    ``appendix``: statements and proofs only (no summary, claims table or module tables).
    ``section_level``: the sectioning command of a module (``subsection`` to nest the fragment
    under a section of the paper). ``timings``: print check times (they differ run to run, so
    they are off by default and two runs give byte-identical files).
    """
    if section_level not in SECTION_LEVELS:
        raise InvalidArgument(
            f"section_level={section_level!r}: expected one of {', '.join(SECTION_LEVELS)}"
        )
    body, cited = _body(reports, timings=timings, appendix=appendix, section_level=section_level)
    macros = "\n".join(MACROS)
    if fragment:
        needs = "\n".join(
            [
                "% LaTeX fragment generated by transformer-proofs (python -m proofs --latex).",
                "% Safe to \\input into an article, one or two columns. The preamble needs:",
                f"%   \\usepackage{{{','.join(PACKAGES)}}}",
                f"% and optionally \\usepackage{{{','.join(OPTIONAL_PACKAGES)}}} (booktabs rules).",
                "% Tables wrap to the line. Theorem environments (theorem, lemma,",
                "% proposition, corollary, claim) are defined below unless the paper has them.",
                "% \\cite keys are those of docs/references.bib (\\bibliography{references}).",
            ]
        )
        return f"{needs}\n{macros}\n\n{body}"
    preamble = "\n".join(
        [
            r"\documentclass[11pt]{article}",
            r"\usepackage[a4paper,margin=2.2cm]{geometry}",
            f"\\usepackage{{{','.join(PACKAGES + OPTIONAL_PACKAGES)}}}",
            r"\setlength{\emergencystretch}{3em}",
            macros,
            rf"\title{{{escape(reports[0].title) if len(reports) == 1 else TITLE}}}",
            r"\author{transformer-proofs}",
            r"\date{}",
        ]
    )
    bib = bibliography_latex(cited)
    return (
        f"{preamble}\n\\begin{{document}}\n\\maketitle\n\n{body}"
        + (f"\n{bib}\n" if bib else "")
        + "\\end{document}\n"
    )
