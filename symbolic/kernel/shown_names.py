"""Names that print as something else: what is shown must be what is checked.

A formula's text prints a symbol or an undefined function by its name. A name printed as a
constant, a number or a formula's structure makes the text say another formula than the one
checked — a negative symbol named ``E`` is proved ``E < 0``, a zero one named ``1`` shows
``1 = 0``, a positive one named ``x**2 - 10`` ``x**2 - 10 > 0`` — and an undefined function named
as a function SymPy knows is read as that function: ``uninterpreted("exp")`` made
``exp(x + y) = exp(x)·exp(y)`` refuted. A checked fact holding such a name is ``unknown``
(``fact._fact``); the re-check refuses it in a manifest (``symbolic.evidence.manifest``, with
these tables).
"""

from __future__ import annotations

import functools
import re
import unicodedata

import sympy
from sympy.core.function import AppliedUndef, FunctionClass
from sympy.core.symbol import Str
from sympy.printing.conventions import split_super_sub

from symbolic.kernel.logic import domain_text, greek_spelled, print_key

CONSTANT_NAMES = frozenset(
    "pi e E I oo zoo nan inf Inf infinity Infinity NaN EulerGamma GoldenRatio Catalan "
    "TribonacciConstant true false True False None Reals Integers Naturals Naturals0 Complexes "
    "EmptySet UniversalSet".split()
)
NUMBER_LIKE = re.compile(r"[-+]?(\d|\.\d)")  # a name that starts as a number reads as one
ENCLOSED = re.compile(r"\(.*\)|\[.*\]|\{.*\}")  # (x), [x]: a grouping, read as x itself
STRUCTURE = re.compile(
    r"\s|[=<>!&|~;:\u2190-\u21ff\u2200-\u22ff]"  # relations, connectives, ∀ ∃ ≤ ⇒ ...
    r"|\*\*|/|[-+*](?=[^\W_]|\()"  # x**2, a/b, x-1, 2*x (K^+ and M*_{law} stay names)
    r"|[\\\u00b7\u00d7\u00f7\u2044\u00b9\u00b2\u00b3\u2070-\u207f]"  # \frac, x·x, x², ⁻¹
)
INVISIBLE = frozenset("Mn Me Cf Cc Co Cn Zs Zl Zp".split())  # é as e + ◌́, a zero-width space
# Spellings of functions a reader knows that SymPy spells otherwise (an uninterpreted ``arctan``).
READ_HEADS = frozenset(
    "arcsin arccos arctan arccot arcsinh arccosh arctanh ln lg sgn tg ctg".split()
)
# A symbol named as a function reads as one applied: LaTeX sets ``sin·x`` as *sin x*.
FUNCTION_WORDS = READ_HEADS | frozenset(
    "sin cos tan cot sec csc sinh cosh tanh coth exp log sqrt max min det lim sup erf".split()
)
CALL = re.compile(r"([A-Za-z_]\w*)\(")
PRINTED_HEADS = frozenset(
    "sqrt tan Eq Ne Lt Gt Le Ge Matrix exp_polar re im arg floor ceiling Max Min Abs".split()
)


@functools.cache
def sympy_heads() -> frozenset:
    """The names of SymPy's own functions (``exp``, ``gamma``, ``besseli``, …), and more."""
    own = {n for n in dir(sympy) if isinstance(getattr(sympy, n, None), FunctionClass)}
    return frozenset(own) | PRINTED_HEADS


@functools.lru_cache(maxsize=1 << 16)  # a run asks the same few names again and again
def name_problem(name: str, function: bool = False, heads: frozenset | None = None) -> str | None:
    """Why ``name`` (a symbol's, or with ``function`` an undefined function's) prints as
    something else, or None. ``heads``: the function names a formula's text can show."""
    heads = sympy_heads() if heads is None else heads
    seen = unicodedata.normalize("NFKC", name)  # ℯ, 𝑒 and e; ½ and 1⁄2; ＋ and +
    seen = seen.translate(LOOKALIKE)  # Cyrillic р and Latin p
    if any(unicodedata.category(ch) in INVISIBLE for ch in name) or any(
        n in CONSTANT_NAMES or NUMBER_LIKE.match(n) or STRUCTURE.search(n) or ENCLOSED.fullmatch(n)
        for n in (name, seen, greek_spelled(seen))
    ):
        return f"the name {name[:40]!r} prints as a number, a constant or a formula's structure"
    if _power_script(name):
        return f"the name {name[:40]!r} prints as a power"
    lowered = {h.lower() for h in heads} | READ_HEADS
    if not function and seen.lower() in FUNCTION_WORDS:
        return f"the name {name[:40]!r} prints as a function applied to what follows it"
    if function and greek_spelled(seen).lower() in lowered:
        return f"the name {name[:40]!r} prints as a function the formula does not apply"
    if any(m.group(1) in heads for m in CALL.finditer(seen)):
        return f"the name {name[:40]!r} prints as a function the formula does not apply"
    return None


def _power_script(name: str) -> bool:
    """A superscript that reads as an exponent of a letter: ``x^2``, ``x__2``, ``x^{-1}`` (LaTeX
    sets them as powers; ``K^+`` and ``W^Q`` stay names)."""
    base, supers, _ = split_super_sub(name)
    if not re.fullmatch(r"[^\W\d]\w*", base):  # ``f(1)^2``: the toolkit's name for f(1)²
        return False
    return any(re.fullmatch(r"[-+]?\d+(\.\d+)?", p.strip("{}")) for p in supers)


def misleading_name(formula: sympy.Basic, words_of=None) -> str | None:
    """The first name of ``formula`` that prints as something else (``name_problem``), or None.
    ``words_of``: the undefined function whose arguments are words, not names (an assumption
    stated in words), skipped."""
    stack = [formula]
    while stack:
        n = stack.pop()
        if isinstance(n, AppliedUndef) and words_of is not None and n.func == words_of:
            continue
        problem = None
        if isinstance(n, AppliedUndef):
            problem = name_problem(n.func.__name__, function=True)
        elif isinstance(n, (sympy.Symbol, sympy.MatrixSymbol, Str)):
            problem = name_problem(str(n.name))
        if problem:
            return problem
        stack += [a for a in n.args if isinstance(a, sympy.Basic)]
    return _named_as_a_term(formula) or lookalike_twins(formula)


def _flat(text: str) -> str:
    return greek_spelled(unicodedata.normalize("NFKC", text)).replace("**", "^").replace(" ", "")


def _named_as_a_term(formula: sympy.Basic) -> str | None:
    """A symbol named as a term the formula holds prints as that term: a symbol named ``f(x)``
    beside the function f applied to x showed ``f(x) = f(x)``, refuted by Z3."""
    odd = [s for s in formula.atoms(sympy.Symbol) if re.search(r"[(\[{]", s.name)]
    if not odd:
        return None
    terms = {
        _flat(sympy.sstr(t))
        for t in sympy.preorder_traversal(formula)
        if t.args and isinstance(t, sympy.Expr)
    }
    for s in sorted(odd, key=lambda s: s.name):
        if _flat(s.name) in terms:
            return f"the name {s.name[:40]!r} prints as the term {s.name[:40]} of the formula"
    return None


# Constants the LaTeX printer sets as one letter, and that letter's name: a symbol γ beside
# EulerGamma shows ``γ < γ``.
LETTER_CONSTANTS = {
    sympy.EulerGamma: "gamma",
    sympy.GoldenRatio: "phi",
    sympy.Catalan: "G",
    sympy.I: "i",
    sympy.E: "e",
    sympy.pi: "pi",
}
# Letters of other alphabets drawn as a Latin one (Cyrillic а, Greek Α and ο), by the name the
# Greek ones get in ``logic.print_key``.
LOOKALIKE = str.maketrans(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408\u0405",
    "aeopcyxijshABEKMHOPCTXIJS",
)
GREEK_LOOKALIKE = {
    "Alpha": "A",
    "Beta": "B",
    "Epsilon": "E",
    "Zeta": "Z",
    "Eta": "H",
    "Iota": "I",
    "Kappa": "K",
    "Mu": "M",
    "Nu": "N",
    "Omicron": "O",
    "omicron": "o",
    "Rho": "P",
    "Tau": "T",
    "Upsilon": "Y",
    "Chi": "X",
    "phi": "varphi",
}


@functools.lru_cache(maxsize=1 << 16)
def _drawn(name: str) -> str:
    """What ``name`` looks like once printed, more loosely than ``logic.print_key``: by its
    compatibility form (𝑥 as x), without invisible marks, with look-alike letters as Latin ones
    and without the braces of a LaTeX script (``x_{1}`` as ``x_1``)."""
    seen = unicodedata.normalize("NFKC", name)
    seen = "".join(ch for ch in seen if unicodedata.category(ch) not in INVISIBLE)
    seen = greek_spelled(seen.translate(LOOKALIKE)).replace("{", "").replace("}", "")
    base, supers, subs = split_super_sub(seen)
    part = lambda p: GREEK_LOOKALIKE.get(p, "varphi" if p == "varphi" else p)  # noqa: E731
    return print_key(
        part(base)
        + "".join(f"__{part(p)}" for p in supers if p)
        + "".join(f"_{part(p)}" for p in subs if p)
    )


def lookalike_twins(formula: sympy.Basic) -> str | None:
    """Two different names of one conjunct of ``formula`` that print alike (``logic.print_key``,
    more loosely: é and e + ◌́, Cyrillic а and a, ``x_{1}`` and ``x_1``, a symbol γ and
    EulerGamma), or None. Conjuncts are read apart: a conjunction of lemmas may use one letter
    with other assumptions in each, each lemma shown as a step of its own. A ``Dummy`` stays
    apart from a symbol of its name (the text shows it as ``_x``)."""
    if isinstance(formula, sympy.And):
        return next(filter(None, map(lookalike_twins, formula.args)), None)
    named: dict = {}
    for s in formula.free_symbols:  # (a Dummy prints as _x in text: apart from x)
        if isinstance(s, (sympy.Symbol, sympy.MatrixSymbol)):
            dummy = "_" if isinstance(s, sympy.Dummy) else ""
            named.setdefault(dummy + _drawn(str(s.name)), set()).add(s)
    atoms = formula.atoms(AppliedUndef, sympy.NumberSymbol, type(sympy.I))  # one walk
    for f in {a.func for a in atoms if isinstance(a, AppliedUndef)}:
        named.setdefault(_drawn(f.__name__), set()).add(f)
    for constant in atoms & LETTER_CONSTANTS.keys():
        named.setdefault(_drawn(LETTER_CONSTANTS[constant]), set()).add(constant)
    twins = [sorted(map(_shown, items)) for items in named.values() if len(items) > 1]
    if not twins:
        return None
    first, second = min(twins)[:2]
    return f"two different symbols print alike ({first}, {second}): rename one"


def _shown(item: object) -> str:
    """A twin as the message names it: a symbol with its domain (``alpha ∈ (0, ∞)``)."""
    if isinstance(item, type):
        return f"the function {item.__name__}"
    if isinstance(item, sympy.Symbol):
        return domain_text(item) or repr(item.name)
    return repr(str(item))
