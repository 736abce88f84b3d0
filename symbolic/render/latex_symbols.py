"""How each character is written in LaTeX: the rules as data (``CHAR_RULES``: TeX's specials,
Unicode mathematics, Greek letters, accents, super- and subscripts), and ``MARKUP``, the plain
notation of statements and docs/theory.md (``R^d``, ``x^{n×d}``, ``q_js``) that the renderers
set as scripts.

``latex_text.escape`` applies these rules; the HTML blueprint reads ``MARKUP`` too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

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


def greek_command(char: str) -> str | None:
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
