r"""LaTeX rendering of reports: the only module that builds LaTeX.

``document(reports)`` is a standalone ``article`` using only ``PACKAGES`` (``amsmath``,
``amsthm``, ``booktabs``, ...), which ``pdflatex`` compiles with Debian's ``texlive-latex-base``
and ``texlive-latex-recommended``; ``document(reports, fragment=True)`` is the same body without
a preamble, for pasting into a paper; ``compile_pdf`` runs ``pdflatex`` on a document.
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

import re
import subprocess
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import sympy
from sympy.core.relational import Relational

from symbolic.engine import (
    NumericCheck,
    Report,
    Result,
    Step,
    Table,
    Verdict,
    overall_status,
)
from symbolic.render import MARK, cell_text, claims_table, summary_line

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
    "⊙": r"\odot", "∀": r"\forall", "∃": r"\exists", "∄": r"\nexists",
    "⇔": r"\Leftrightarrow", "⇒": r"\Rightarrow", "⇐": r"\Leftarrow",
    "⟺": r"\Longleftrightarrow", "⟹": r"\Longrightarrow", "⟸": r"\Longleftarrow",
    "↔": r"\leftrightarrow", "→": r"\to", "←": r"\leftarrow", "↦": r"\mapsto",
    "≠": r"\neq", "≤": r"\leq", "≥": r"\geq", "≈": r"\approx", "≡": r"\equiv",
    "≢": r"\not\equiv", "∼": r"\sim", "≃": r"\simeq", "≅": r"\cong", "∝": r"\propto",
    "≪": r"\ll", "≫": r"\gg", "∈": r"\in", "∉": r"\notin", "∋": r"\ni", "⊂": r"\subset",
    "⊃": r"\supset", "⊆": r"\subseteq", "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap",
    "∅": r"\emptyset", "∞": r"\infty", "∑": r"\sum", "∏": r"\prod", "∫": r"\int",
    "√": r"\surd", "·": r"\cdot", "⋅": r"\cdot", "×": r"\times", "÷": r"\div", "−": "-",
    "±": r"\pm", "∓": r"\mp", "∘": r"\circ", "⊗": r"\otimes", "⊕": r"\oplus",
    "∂": r"\partial", "∇": r"\nabla", "¬": r"\neg", "∧": r"\wedge", "∨": r"\vee",
    "⊤": r"\top", "⊥": r"\perp", "‖": r"\|", "∣": r"\mid", "∖": r"\setminus",
    "⟨": r"\langle", "⟩": r"\rangle", "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil",
    "⌉": r"\rceil", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}",
    "ℚ": r"\mathbb{Q}", "ℂ": r"\mathbb{C}", "⋯": r"\cdots", "′": r"{}^{\prime}",
    "″": r"{}^{\prime\prime}", "°": r"{}^{\circ}", "✓": r"\checkmark", "✗": r"\times",
    "∗": r"\ast", "⋆": r"\star", "ℓ": r"\ell", "∆": r"\Delta", "µ": r"\mu",
    "•": r"\bullet", "†": r"\dagger", "‡": r"\ddagger", "∎": r"\blacksquare",
}

# Text symbols available in OT1 (no TS1: that font is generated at compile time when absent).
TEXT_SYMBOLS = {
    "–": r"\textendash{}", "—": r"\textemdash{}", "‘": "`", "’": "'", "“": "``", "”": "''",
    "…": r"\ldots{}", "\u00a0": "~", "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}",
    "ø": r"\o{}", "Ø": r"\O{}", "œ": r"\oe{}", "Œ": r"\OE{}", "ł": r"\l{}", "Ł": r"\L{}",
    "ı": r"\i{}", "¡": r"\textexclamdown{}", "¿": r"\textquestiondown{}", "⁄": "/",
}

# Greek letters by Unicode name; small letters are \name unless listed, capitals are \Name
# only where TeX has one (the others look like Latin capitals).
_GREEK_LETTERS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
                  "kappa", "lamda", "mu", "nu", "xi", "omicron", "pi", "rho", "final sigma",
                  "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"}  # not archaic ones
_GREEK_SMALL_SPECIAL = {"omicron": "o", "lamda": r"\lambda", "final sigma": r"\varsigma",
                        "epsilon": r"\varepsilon", "phi": r"\varphi"}
_GREEK_CAPITALS = {"gamma", "delta", "theta", "lamda", "xi", "pi", "sigma", "upsilon", "phi",
                   "psi", "omega"}
_GREEK_LATIN_CAPITALS = dict(alpha="A", beta="B", epsilon="E", zeta="Z", eta="H", iota="I",
                             kappa="K", mu="M", nu="N", omicron="O", rho="P", tau="T", chi="X")
GREEK_VARIANTS = {"ϵ": r"\epsilon", "ϕ": r"\phi", "ϑ": r"\vartheta", "ϱ": r"\varrho",
                  "ϖ": r"\varpi", "ϰ": r"\varkappa"}

# Combining accents that OT1 can put on a Latin letter (code point of the combining mark).
ACCENTS = {0x300: r"\`", 0x301: r"\'", 0x302: r"\^", 0x303: r"\~", 0x304: r"\=", 0x306: r"\u",
           0x307: r"\.", 0x308: r'\"', 0x30A: r"\r", 0x30B: r"\H", 0x30C: r"\v", 0x327: r"\c"}

# Characters that get their own superscript rendering (THEORY.md writes transposes as xᵀ).
SUPERSCRIPT_SYMBOLS = {"ᵀ": r"\top"}


def _greek(char: str) -> str | None:
    name = unicodedata.name(char, "")
    for case in ("SMALL", "CAPITAL"):
        prefix = f"GREEK {case} LETTER "
        letter = name[len(prefix):].lower()
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
    parts = [chr(int(f, 16)) for f in fields[1 if tag else 0:]]
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
        ("<super>", "<sub>"))


_SCRIPTS = "".join(c for c in map(chr, range(0x80, 0x2100)) if _is_script(c))
# Plain-text notation turned into super/subscripts: x^{n×d}, α^(−1), t^p, q_{js}, and Q_j or
# M_ik where the base is a one-letter word (so that names like exchange_lemma keep their
# underscores).
_MARKUP = re.compile(
    r"\^\{(?P<sup>[^{}]*)\}"
    r"|\^\((?P<sup2>[^()]*)\)"
    r"|\^(?P<sup1>[−-]?\w+)"
    r"|_\{(?P<sub>[^{}]*)\}"
    rf"|(?<!\w)(?P<base>[^\W\d_])_(?P<sub1>(?:(?![{_SCRIPTS}])[^\W_]){{1,2}})(?:(?!\w)|(?=[{_SCRIPTS}]))"
)
_SCRIPT = {"super": r"\textsuperscript{%s}", "sub": r"\textsubscript{%s}"}


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
        kind, latex = _char(char)
        if kind != run_kind and run:
            out.append(_SCRIPT[run_kind] % "".join(run) if run_kind in _SCRIPT else "".join(run))
            run = []
        run_kind = kind
        run.append(latex)
    if run:
        out.append(_SCRIPT[run_kind] % "".join(run) if run_kind in _SCRIPT else "".join(run))
    return "".join(out)


def escape(text: str) -> str:
    """Any string as LaTeX text that compiles: specials escaped, Unicode math as math.

    Control characters and characters without a rule become a visible ``[U+XXXX]``; ``--`` is
    kept as two hyphens (no en-dash ligature); a line may break after ``*``, ``/``, ``_`` and
    a ``.`` between letters (SymPy strings and claim names have no spaces).
    """
    text, out, pos = unicodedata.normalize("NFC", text), [], 0
    for m in _MARKUP.finditer(text):
        out.append(_chars(text[pos:m.start()]))
        if m["base"]:
            out.append(_chars(m["base"]) + _SCRIPT["sub"] % escape(m["sub1"]))
        else:
            kind = "sub" if m["sub"] is not None else "super"
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(_SCRIPT[kind] % escape(inner))
        pos = m.end()
    out.append(_chars(text[pos:]))
    return _BREAKS.sub(r"\g<0>\\allowbreak{}", re.sub(r"-(?=-)", "-{}", "".join(out)))


_BREAKS = re.compile(r"(?:[*/]|\\_|(?<=[A-Za-z])\.(?=[A-Za-z]))(?!$)")


# --- Mathematics ----------------------------------------------------------------------------

RELATIONS = {"==": "=", "!=": r"\neq", "<": "<", "<=": r"\leq", ">": ">", ">=": r"\geq"}


def math(expr: object) -> str:
    """Math-mode LaTeX of a SymPy object (``sympy.latex``); non-ASCII output made safe."""
    try:
        code = sympy.latex(expr)
    except Exception:  # a printer bug must not lose the document: print the plain form
        return rf"\text{{{escape(sympy.sstr(expr))}}}"
    return re.sub(r"[^\x00-\x7f]", lambda m: rf"\text{{{escape(m[0])}}}", code)


# --- Claims, steps, derivations -------------------------------------------------------------

ENVIRONMENTS = ("theorem", "lemma", "proposition", "corollary", "claim")
STEP_WIDTH = r"0.6\linewidth"  # the statement column of a derivation
RULE_WIDTH = r"0.3\linewidth"  # the justification column
# Widths in "visible characters" of math (see ``visible_width``) at 11 pt on A4:
STEP_CHARS = 48  # one line of the statement column; a wider formula side is shown as text
ALIGNED_CHARS = 50  # widest lhs + widest rhs for aligning a derivation at its relations
DISPLAY_CHARS = 80  # a claim's displayed formula


def visible_width(code: str) -> int:
    """Rough width of math-mode LaTeX in characters: a command is one glyph, braces and
    script markers are nothing, a fraction is as wide as its wider part."""
    code = re.sub(r"\\(left|right|[bB]igg?[lr]?)\b|\\[,;:! ]|\\(operatorname|mathrm|text\w*|"
                  r"math\w+|displaystyle)\b", "", code)
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


def verdict_mark(v: Verdict) -> str:
    """``✓ sympy`` / ``✗ refuted (z3)`` / ``? unknown (sympy)``: the verdict of one step."""
    text = f"{MARK[v.status]} {v.method}" if v.status == "proved" else (
        f"{MARK[v.status]} {v.status} ({v.method})")
    return escape(text)


def _after_newline(row: str) -> str:
    """A row that follows ``\\\\`` or a booktabs rule: a leading ``[`` or ``*`` (after spaces,
    which TeX skips) would be read as their optional argument."""
    return "{}" + row if row.lstrip().startswith(("[", "*")) else row


def _relation(step: Step) -> tuple[str, str, str] | None:
    """``(lhs, relation, rhs)`` in LaTeX when the step's formula is a relation."""
    f = step.formula
    if isinstance(f, Relational) and f.rel_op in RELATIONS:
        return math(f.lhs), RELATIONS[f.rel_op], math(f.rhs)
    return None


def _trivial(step: Step) -> bool:
    """A formula whose sides SymPy already made identical (``(−u)(−v)`` is built as ``uv``):
    printing ``uv = uv`` would hide what was checked, so the statement is shown instead."""
    f = step.formula
    return isinstance(f, Relational) and f.lhs == f.rhs


def step_body(step: Step) -> str:
    """The statement of a step: its formula when it fits the column, else its text (an
    admitted fact stated in words is its words; a note follows in the rule column)."""
    if getattr(step.formula, "func", None) is not None and \
            step.formula.func.__name__ == "assumed":
        return escape(step.statement)
    parts = _relation(step)
    if parts is not None and max(visible_width(parts[0]), visible_width(parts[2])) <= STEP_CHARS:
        return rf"$\displaystyle {parts[0]} {parts[1]} {parts[2]}$"
    if parts is None and step.formula is not None:
        code = math(step.formula)
        if visible_width(code) <= STEP_CHARS:
            return rf"$\displaystyle {code}$"
    return escape(step.statement)


def justification(i: int, step: Step) -> str:
    """``(i) rule at witness ... ✓ method``, in the derivation's right-hand column."""
    why = escape(step.rule)
    if step.note:
        why = escape(step.note) + "; " + why
    if step.kind != "checked":
        why += rf" [{escape(step.kind)}]"
    if step.verdict.witness:
        why += " at " + escape(", ".join(f"{k} = {v}" for k, v in step.verdict.witness))
    return (rf"\parbox[t]{{{RULE_WIDTH}}}{{\raggedright\footnotesize ({i})~{why}"
            rf"\hfill {verdict_mark(step.verdict)}}}")


def step_latex(i: int, step: Step, aligned: bool = False) -> str:
    """One row of the derivation's ``align*``.

    ``aligned``: ``lhs &= rhs`` (the derivation is aligned at its relations); otherwise the
    statement in a left-aligned column whose lines may break.
    """
    if aligned:
        lhs, rel, rhs = _relation(step)  # type: ignore[misc]
        body = f"{lhs} &{rel} {rhs}"
    else:
        body = rf"&\parbox[t]{{{STEP_WIDTH}}}{{\raggedright {step_body(step)}}}"
    return f"{_after_newline(body)} &&{justification(i, step)}"


def aligned_at_relations(steps: Sequence[Step]) -> bool:
    """Whether every step is a relation and the widest sides fit one line together."""
    parts = [None if _trivial(s) else _relation(s) for s in steps]
    if not parts or any(p is None for p in parts):
        return False
    widest = max(visible_width(p[0]) for p in parts) + max(visible_width(p[2]) for p in parts)
    return widest <= ALIGNED_CHARS


def derivation_latex(steps: Sequence[Step]) -> str:
    """The derivation as ``align*`` (one row per step), or a sentence when it has no steps."""
    if not steps:
        return r"\noindent No derivation steps."
    aligned = aligned_at_relations(steps)
    rows = " \\\\\n".join(step_latex(i, s, aligned) for i, s in enumerate(steps, 1))
    return f"\\begin{{align*}}\n{rows}\n\\end{{align*}}"


NUMERIC_LISTED = 2  # more numeric checks than this are summarized in one sentence


def numeric_text(checks: Sequence[NumericCheck]) -> list[str]:
    """The numeric cross-checks, listed, or summarized with every disagreement named."""
    def one(n: NumericCheck) -> str:
        agree = "agrees" if n.agrees else "DISAGREES"
        return (f"numeric check {n.name} ({n.backend}, {n.samples} samples): max error "
                f"{n.max_error:.3g} vs tolerance {n.tolerance:.3g}, {agree}")

    if len(checks) <= NUMERIC_LISTED:
        return [one(n) for n in checks]
    backends = sorted({n.backend for n in checks})
    per = ", ".join(f"{b} {sum(n.backend == b for n in checks)}" for b in backends)
    bad = [n for n in checks if not n.agrees]
    text = (f"{len(checks)} numeric cross-checks ({per}; {sum(n.samples for n in checks)} "
            "samples), " + (f"{len(bad)} DISAGREE" if bad else
                            "all agree with the symbolic verdicts"))
    return [text] + [one(n) for n in bad]


def verification_line(result: Result) -> str:
    """How the result was verified: verdict, methods, backends, witnesses, numeric checks."""
    v = result.verdict
    steps = result.derivation.steps
    backends = sorted({s.verdict.backend for s in steps if s.verdict.backend})
    by = " + ".join(result.methods) or "nothing"
    head = (f"{MARK[result.status]} {result.status} by {by}"
            f" ({len(steps)} step{'s' * (len(steps) != 1)}, {v.seconds:.3f} s"
            + (f"; {', '.join(backends)}" if backends else "") + ")")
    parts = [escape(head)]
    witnessed = [s.verdict for s in steps if s.verdict.witness]
    for w in witnessed:
        text = "witness " + ", ".join(f"{k} = {val}" for k, val in w.witness)
        if w.certificate:
            text += f" certified by {w.method}: {w.certificate}"
        parts.append(escape(text))
    parts += [escape(t) for t in numeric_text(result.numeric)]
    if result.status != "proved":
        parts.append(escape(f"reason: {v.reason}"))
    return r"{\raggedright\noindent\textit{Verification.} " + "; ".join(parts) + ".\\par}"


class _Labels:
    """Where each claim is in the document, so that ``uses`` become ``\\ref``s when they can.

    Labels are unique even when two modules share a claim name; a use refers to the first.
    """

    def __init__(self, reports: Sequence[Report]):
        self.defined: dict[tuple[int, int], str] = {}  # (report index, result index) -> label
        self.by_name: dict[str, tuple[str, str]] = {}  # claim name -> (label, environment)
        self.taken: set[str] = set()
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


def claim_latex(result: Result, key: str, labels: _Labels) -> str:
    """The claim as an amsthm environment (statement, formula, assumptions), then a line with
    its name, its source item and the claims it uses."""
    c = result.claim
    env = environment(c.kind)
    lines = [rf"\begin{{{env}}}[{{{escape(c.title)}}}]\label{{{key}}}", escape(c.statement)]
    if c.formula is not None and visible_width(math(c.formula)) <= DISPLAY_CHARS:
        lines.append(rf"\[ {math(c.formula)} \]")
    if c.assumptions:
        lines.append(r"\par{\raggedright\emph{Assumptions:} "
                     + "; ".join(escape(a) for a in c.assumptions) + ".\\par}")
    lines.append(rf"\end{{{env}}}")
    meta = rf"{{\small\raggedright\noindent Claim \texttt{{{escape(c.name)}}}, " \
        rf"\texttt{{THEORY.md}} {escape(c.source)}"
    if c.uses:
        meta += "; uses " + ", ".join(labels.ref(u) for u in c.uses)
    lines.append(meta + ".\\par}")
    return "\n".join(lines)


def result_latex(result: Result, key: str, labels: _Labels) -> str:
    """Claim, derivation and verification line. Only a verified derivation is a ``proof``."""
    body = f"{derivation_latex(result.derivation.steps)}\n{verification_line(result)}"
    if result.status == "proved":
        proof = f"\\begin{{proof}}[Checked derivation]\n{body}\n\\end{{proof}}"
    else:
        proof = (rf"\paragraph{{Derivation \textbf{{not verified}}: {escape(result.status)}.}}"
                 f"\n{body}")
    return f"{claim_latex(result, key, labels)}\n{proof}"


# --- Tables ---------------------------------------------------------------------------------

_EXPONENT = re.compile(r"^(-?[\d,]*\.?\d*)e([+-]?)0*(\d+)$")


CELL_DIGITS = 6  # a rational with a longer numerator or denominator is shown as a decimal


def _readable(expr: sympy.Basic) -> sympy.Basic:
    """Long exact constants (torch's SELU constants, say) as decimals of ``CELL_DIGITS``."""
    long = {r: sympy.Float(r, CELL_DIGITS) for r in expr.atoms(sympy.Rational)
            if max(len(str(abs(r.p))), len(str(r.q))) > CELL_DIGITS}
    return expr.xreplace(long) if long else expr


def cell_latex(cell: object) -> str:
    """A table cell: SymPy as math (long constants as decimals), floats in scientific notation
    as ×10^k, the rest as text."""
    if isinstance(cell, sympy.Basic):
        return f"${math(_readable(cell))}$"
    text = cell_text(cell)
    m = _EXPONENT.match(text) if isinstance(cell, float) else None
    if m:
        sign = "-" if m[2] == "-" else ""
        return rf"${m[1].replace(',', '{,}')}\times 10^{{{sign}{m[3]}}}$"
    return escape(text)


def _is_number(cell: object) -> bool:
    return isinstance(cell, (int, float, sympy.Number)) and not isinstance(cell, bool)


def _tabular_parts(table: Table) -> tuple[str, str, list[str]]:
    """Column specification, header row and body rows (numeric columns right-aligned)."""
    align = "".join(
        "r" if any(_is_number(row[j]) for row in table.rows)
        and all(_is_number(row[j]) or row[j] is None for row in table.rows) else "l"
        for j in range(len(table.columns)))
    head = _after_newline(" & ".join(rf"\textbf{{{escape(c)}}}" for c in table.columns)) + r" \\"
    rows = [_after_newline(" & ".join(cell_latex(c) for c in row)) + r" \\"
            for row in table.rows]
    return align, head, rows


def tabular_latex(table: Table) -> str:
    """The ``booktabs`` tabular."""
    if not table.columns:
        return r"\textit{(empty table)}"
    align, head, rows = _tabular_parts(table)
    return "\n".join([rf"\begin{{tabular}}{{{align}}}", r"\toprule", head, r"\midrule", *rows,
                      r"\bottomrule", r"\end{tabular}"])


LONG_TABLE_ROWS = 30  # a table with more rows is a longtable that breaks across pages


def _notes(table: Table) -> str:
    return r"\\ ".join(escape(f"Note: {n}") for n in table.notes)


def table_latex(table: Table, key: str) -> str:
    """A ``table`` float (caption, label, the tabular fitted to the line width, notes), or a
    ``longtable`` when the table has more than ``LONG_TABLE_ROWS`` rows."""
    if len(table.rows) > LONG_TABLE_ROWS:
        return longtable_latex(table, key)
    lines = [r"\begin{table}[!htbp]", r"\centering", rf"\caption{{{escape(table.title)}}}",
             rf"\label{{{key}}}", rf"\proofsfit{{{tabular_latex(table)}}}"]
    if table.notes:
        lines.append(r"\par\smallskip\begin{minipage}{\linewidth}\footnotesize\raggedright "
                     f"{_notes(table)}\\end{{minipage}}")
    lines.append(r"\end{table}")
    return "\n".join(lines)


LONG_TABLE_CHARS = 95  # characters of footnote-size type across the line (with a margin)
COLUMN_PADDING_CHARS = 2  # the space between two columns, in characters
NARROWEST_WRAPPED = 0.15  # a wrapped column keeps at least this fraction of the line


def _fit_columns(table: Table, align: str) -> list[str]:
    """Column specifications of a longtable (which cannot be shrunk): when the table is wider
    than the line, its widest text column wraps in a ``p`` column of the width left."""
    specs = list(align)
    chars = [max([len(str(col)), *(len(cell_text(row[j])) for row in table.rows)])
             + COLUMN_PADDING_CHARS for j, col in enumerate(table.columns)]
    text_columns = [j for j, a in enumerate(align) if a == "l"]
    if sum(chars) <= LONG_TABLE_CHARS or not text_columns:
        return specs
    j = max(text_columns, key=lambda k: chars[k])
    room = max(NARROWEST_WRAPPED, (LONG_TABLE_CHARS - sum(chars) + chars[j]) / LONG_TABLE_CHARS)
    specs[j] = rf">{{\raggedright\arraybackslash}}p{{{room:.2f}\linewidth}}"
    return specs


def longtable_latex(table: Table, key: str) -> str:
    """A ``longtable`` in footnote-size type, its header repeated on every page."""
    align, head, rows = _tabular_parts(table)
    align = "".join(_fit_columns(table, align))
    lines = [r"\begingroup\footnotesize\setlength{\tabcolsep}{4pt}",
             rf"\begin{{longtable}}{{{align}}}",
             rf"\caption{{{escape(table.title)}}}\label{{{key}}} \\",
             r"\toprule", head, r"\midrule", r"\endfirsthead",
             rf"\multicolumn{{{len(table.columns)}}}{{l}}{{\textit{{(continued)}}}} \\",
             r"\toprule", head, r"\midrule", r"\endhead", r"\bottomrule", r"\endlastfoot",
             *rows, r"\end{longtable}", r"\endgroup"]
    if table.notes:
        lines.append(rf"{{\footnotesize\raggedright\noindent {_notes(table)}\par}}")
    return "\n".join(lines)




# --- Reports and the document ---------------------------------------------------------------


def report_latex(report: Report, labels: _Labels, index: int = 0) -> str:
    """One theorem module: a section with its results and its tables."""
    statuses = [r.status for r in report.results]
    parts = [rf"\section{{{escape(report.title)}}}\label{{{labels.unique('sec', report.module)}}}",
             rf"\noindent Module \texttt{{{escape(report.module)}}}, source \texttt{{THEORY.md}} "
             f"{escape(report.source)}: {escape(summary_line(statuses))} in "
             f"{report.seconds:.2f} s, overall \\textbf{{{escape(report.status)}}}."]
    parts += [result_latex(r, labels.defined[(index, i)], labels)
              for i, r in enumerate(report.results)]
    parts += [table_latex(t, labels.unique("tab", report.module, t.name)) for t in report.tables]
    return "\n\n".join(parts)


TITLE = "Machine-checked results: gated MLPs, bilinear attention and memory capacity"
PACKAGES = ("amsmath", "amssymb", "amsthm", "array", "booktabs", "graphicx", "longtable")
THEOREMS = (r"\newtheorem{theorem}{Theorem}[section]",
            r"\newtheorem{lemma}[theorem]{Lemma}",
            r"\newtheorem{proposition}[theorem]{Proposition}",
            r"\newtheorem{corollary}[theorem]{Corollary}",
            r"\newtheorem{claim}[theorem]{Claim}")
# \proofsfit{...}: typeset a tabular, shrunk to \linewidth only when it is wider.
MACROS = (r"\ifx\proofsbox\undefined\newsavebox{\proofsbox}\fi",
          r"\providecommand{\proofsfit}[1]{\sbox{\proofsbox}{#1}%",
          r"  \ifdim\wd\proofsbox>\linewidth\resizebox{\linewidth}{!}{\usebox{\proofsbox}}%",
          r"  \else\usebox{\proofsbox}\fi}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _body(reports: Sequence[Report]) -> str:
    from symbolic.versions import versions

    labels = _Labels(reports)
    statuses = [r.status for rep in reports for r in rep.results]
    tools = ", ".join(f"{k} {v}" for k, v in versions().items() if v)
    intro = (rf"\noindent {_count(len(statuses), 'claim')} from "
             rf"{_count(len(reports), 'theorem module')}: "
             rf"{escape(summary_line(statuses))}; overall \textbf{{{overall_status(statuses)}}}. "
             "Every step of every derivation was checked by the backend named beside it (SymPy, "
             "Z3, exact or interval arithmetic); a result's verification line lists its methods, "
             "witnesses and numeric cross-checks. "
             rf"Checked with {escape(tools)}. Regenerate with "
             r"\texttt{python -m proofs -{}-latex FILE.tex}.")
    if not reports:
        intro = r"\noindent No theorem modules found: nothing was checked."
    parts = [intro]
    if statuses:
        parts.append(table_latex(claims_table(reports), labels.unique("tab", "claims")))
    parts += [report_latex(r, labels, k) for k, r in enumerate(reports)]
    return "\n\n".join(parts) + "\n"


def document(reports: Sequence[Report], fragment: bool = False) -> str:
    """The reports as a standalone LaTeX ``article``, or as a fragment to paste into a paper."""
    macros = "\n".join(MACROS)
    if fragment:
        needs = "\n".join(
            ["% LaTeX fragment generated by transformer-proofs (python -m proofs --latex).",
             "% The paper's preamble needs:",
             f"%   \\usepackage{{{','.join(PACKAGES)}}}",
             *(f"%   {t}" for t in THEOREMS),
             "%   \\allowdisplaybreaks  % optional: lets long derivations break across pages",
             "%   \\setlength{\\emergencystretch}{3em}  % optional: fewer overfull lines"])
        return f"{needs}\n{macros}\n\n{_body(reports)}"
    preamble = "\n".join([
        r"\documentclass[11pt]{article}",
        r"\usepackage[a4paper,margin=2.2cm]{geometry}",
        f"\\usepackage{{{','.join(PACKAGES)}}}",
        *THEOREMS,
        r"\allowdisplaybreaks",
        r"\setlength{\emergencystretch}{3em}",
        macros,
        rf"\title{{{escape(reports[0].title) if len(reports) == 1 else TITLE}}}",
        r"\author{transformer-proofs}",
        r"\date{}",
    ])
    return (f"{preamble}\n\\begin{{document}}\n\\maketitle\n\n{_body(reports)}"
            "\\end{document}\n")


# --- Compiling (tests, benchmarks, users checking a document) -------------------------------

PDFLATEX = ("pdflatex", "-interaction=nonstopmode", "-halt-on-error",
            "-no-mktex=tfm", "-no-mktex=pk")  # a missing font is an error, never generated
MAX_RUNS = 3  # labels, then longtable widths, settle in at most three runs
PDFLATEX_TIMEOUT_S = 120


@dataclass(frozen=True)
class Compiled:
    """What ``pdflatex`` said about a document (from its final run's log)."""

    pdf: Path | None
    runs: int
    errors: tuple[str, ...]  # TeX's "! ..." error lines, or pdflatex's exit status
    warnings: tuple[str, ...]  # "LaTeX Warning: ..." and "Package ... Warning: ..." lines
    overfull: int  # overfull boxes: text or tables wider than the line

    @property
    def undefined_references(self) -> tuple[str, ...]:
        return tuple(w for w in self.warnings if "undefined" in w.lower())


def compile_pdf(tex: str, directory: Path | str, name: str = "document") -> Compiled:
    """Write ``tex`` to ``directory/name.tex`` and run ``pdflatex`` until references settle.

    Raises ``FileNotFoundError`` when ``pdflatex`` is not installed (Debian:
    ``texlive-latex-base`` and ``texlive-latex-recommended``).
    """
    directory = Path(directory)
    source = directory / f"{name}.tex"
    source.write_text(tex, encoding="utf-8")
    log_path = directory / f"{name}.log"
    runs = 0
    while runs < MAX_RUNS:
        runs += 1
        done = subprocess.run([*PDFLATEX, f"-output-directory={directory}", str(source)],
                              capture_output=True, stdin=subprocess.DEVNULL, check=False,
                              timeout=PDFLATEX_TIMEOUT_S, cwd=directory)
        log = log_path.read_text(encoding="latin-1") if log_path.exists() else ""
        if done.returncode or "Rerun" not in log:
            break
    lines = log.splitlines()
    errors = [line for line in lines if re.match(r"!( |pdfTeX error)", line)]  # not box dumps
    if done.returncode and not errors:
        errors.append(f"pdflatex exited with status {done.returncode}")
    pdf = directory / f"{name}.pdf"
    return Compiled(
        pdf=pdf if pdf.exists() else None,
        runs=runs,
        errors=tuple(errors),
        warnings=tuple(line for line in lines if re.match(r"(LaTeX|Package \w+) Warning", line)),
        overfull=sum(line.startswith("Overfull") for line in lines),
    )
