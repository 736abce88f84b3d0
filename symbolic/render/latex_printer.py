r"""The project's SymPy LaTeX printer: one settings object and a few ``_print_*`` rules.

``latex(expr)`` is ``sympy.latex`` with the house notation, so that a checked formula reads
like the paper it belongs to:

* activations and layer names are operators (``\operatorname{relu}``, ``\operatorname{Gated}``),
  ``σ`` / ``sigma`` is ``\sigma`` and ``Max(0, u)`` is ``\operatorname{relu}(u)``;
* Euler's number is an upright ``\mathrm{e}``, ``exp(u)`` is ``\mathrm{e}^{u}``;
* torch's SELU constants are the named ``\lambda_{\mathrm{SELU}}`` and ``\alpha_{\mathrm{SELU}}``
  (not 31-digit rationals); another long rational with a terminating decimal is that exact
  decimal;
* a transpose is ``^{\top}``; the kernel's quantifiers (``symbolic.kernel.logic.ForAll`` /
  ``Exists``) print themselves, each variable with its domain
  (``\forall t \in \left(0, \infty\right)\colon \ldots``).

Rules are data (``FUNCTION_NAMES``, ``NAMED_CONSTANTS``); the printer only looks them up.

>>> import sympy
>>> x = sympy.Symbol("x", real=True)
>>> latex(sympy.exp(-x) + sympy.Max(0, x))
'\\operatorname{relu}\\left(x\\right) + \\mathrm{e}^{- x}'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import precedence_traditional
from sympy.simplify.radsimp import fraction

from symbolic.activations import SELU_ALPHA, SELU_SCALE
from symbolic.render.formula_text import OrderedWithoutQuadrature, fast_precedence, memoised
from symbolic.render.latex_breaks import unbraced_call

# --- Rules as data -------------------------------------------------------------------------

# Function names (SymPy undefined functions) and how they are written. Any other multi-letter
# name is an \operatorname; a Greek name is its letter.
FUNCTION_NAMES = {
    "σ": r"\sigma",
    "sigma": r"\sigma",
    "φ": r"\varphi",
    "phi": r"\varphi",
    "relu": r"\operatorname{relu}",
    "silu": r"\operatorname{silu}",
    "gelu": r"\operatorname{gelu}",
    "sigmoid": r"\operatorname{sigmoid}",
    "softplus": r"\operatorname{softplus}",
    "Gated": r"\operatorname{Gated}",
    "Sym": r"\operatorname{Sym}",
    "MLP": r"\operatorname{MLP}",
    "BA": r"\operatorname{BA}",
}


@dataclass(frozen=True)
class NamedConstant:
    """An exact constant that the paper writes by name."""

    value: sympy.Rational
    latex: str
    meaning: str


NAMED_CONSTANTS = (
    NamedConstant(SELU_SCALE, r"\lambda_{\mathrm{SELU}}", "SELU's scale λ (torch)"),
    NamedConstant(SELU_ALPHA, r"\alpha_{\mathrm{SELU}}", "SELU's α (torch)"),
    NamedConstant(
        SELU_SCALE * SELU_ALPHA,
        r"\lambda_{\mathrm{SELU}}\alpha_{\mathrm{SELU}}",
        "their product λα",
    ),
)
LONG_DIGITS = 8  # a rational whose numerator or denominator has more digits is "long"


class _Constant(sympy.Symbol):
    """A symbol standing for an exact number in the printed formula only."""

    def __new__(cls, code: str):
        obj = super().__new__(cls, f" const[{code}]", positive=True)  # sorts before letters
        obj._code = code
        return obj

    def __getnewargs_ex__(self):
        return ((self._code,), {})

    def _latex(self, printer: LatexPrinter) -> str:
        return self._code


def _terminating_decimal(r: sympy.Rational) -> str | None:
    """The exact decimal of a rational whose denominator is 2^a·5^b, else None."""
    q = int(r.q)
    for p in (2, 5):
        while q % p == 0:
            q //= p
    if q != 1:
        return None
    frac, digits = Fraction(int(r.p), int(r.q)), 0
    while frac.denominator != 1:
        frac *= 10
        digits += 1
    sign = "-" if frac < 0 else ""
    text = str(abs(frac.numerator)).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits else f"{sign}{text}"


def _name_constants(expr: sympy.Basic) -> sympy.Basic:
    """Named constants, then long terminating rationals, replaced by printing-only symbols."""
    if not isinstance(expr, sympy.Basic):
        return expr
    named = {c.value: c.latex for c in NAMED_CONSTANTS}
    swap = {}
    for r in expr.atoms(sympy.Rational):
        if isinstance(r, sympy.Integer):
            continue
        sign, mag = (-1, -r) if r < 0 else (1, r)
        if mag in named:
            swap[r] = sign * _Constant(named[mag])
        elif max(len(str(abs(r.p))), len(str(r.q))) > LONG_DIGITS:
            decimal = _terminating_decimal(mag)
            if decimal is not None:
                swap[r] = sign * _Constant(decimal)
    return expr.xreplace(swap) if swap else expr


def _greek(name: str) -> str | None:
    """``\\alpha`` for ``α`` or ``alpha``; None for a name that is no Greek letter."""
    import unicodedata

    if len(name) == 1 and not name.isascii():
        uname = unicodedata.name(name, "")
        if uname.startswith("GREEK SMALL LETTER "):
            letter = uname.removeprefix("GREEK SMALL LETTER ").lower()
            return "\\" + {"lamda": "lambda"}.get(letter, letter)
        if uname.startswith("GREEK CAPITAL LETTER "):
            letter = uname.removeprefix("GREEK CAPITAL LETTER ").lower()
            return "\\" + {"lamda": "lambda"}.get(letter, letter).capitalize()
    return None


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def _word(name: str, font: str) -> str:
    """A multi-letter name in one font (``\\mathit{aa}``: not the product a·a); a Greek letter
    (already ``\\alpha``), a single letter or a number as it is."""
    return rf"{font}{{{name}}}" if _LATIN_WORD.fullmatch(name) and not name.isdigit() else name


TEX_OPERATORS = {"exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh"}  # \\exp, ...
LONG_FRAC_RATIO = 2  # breakable: a numerator twice as wide as its denominator is pulled out
FRACTION_CHARS = 30  # breakable: a fraction with a wider part is written with a slash
PRODUCT_CHARS = 24  # breakable: a wider product may break between its factors
EXPONENT_CHARS = 12  # breakable: a wider exponent of e is written exp(...)
SCRIPT_CHARS = 12  # breakable: a wider point of a derivative is written on the line
MATRIX_CHARS = 40  # a symbolic explicit matrix wider than this shows its shape and one entry


def _width(code: str) -> int:
    """Rough visible width of math-mode code (a command is one glyph, a break point none)."""
    code = re.sub(
        r"\\(left|right|[bB]igg?[lr]?|operatorname|mathrm|mathit|allowbreak)\b|\\\*", "", code
    )
    return len(re.sub(r"[{}^_\s&]", "", re.sub(r"\\[a-zA-Z]+", "x", code)))


SETTINGS = {
    "breakable": False,  # see ``breakable``: set by the document for a formula wider than a line
    "mul_symbol": None,  # juxtaposition
    "inv_trig_style": "abbreviated",
    "ln_notation": False,
    "imaginary_unit": "i",
    "mat_delim": "(",
}


def _traditional(item) -> int:
    """SymPy's ``precedence_traditional``, a matrix product's by ``fast_precedence``."""
    if isinstance(item, sympy.MatMul):
        return fast_precedence(item)
    return precedence_traditional(item)


class ProofsLatexPrinter(OrderedWithoutQuadrature, LatexPrinter):
    """``sympy.latex`` with the project's notation (see the module docstring)."""

    printmethod = "_latex"

    def __init__(self, settings: dict | None = None):
        settings = {**SETTINGS, **(settings or {})}
        self._breakable = bool(settings.pop("breakable"))
        if self._breakable:
            settings.setdefault("long_frac_ratio", LONG_FRAC_RATIO)
        super().__init__(settings)
        self._printed: dict = {}  # sub-expression → its code, within one printer

    def doprint(self, expr) -> str:
        return super().doprint(_name_constants(expr))

    # numbers and constants
    def _print_Exp1(self, expr, exp=None) -> str:
        return r"\mathrm{e}" if exp is None else rf"\mathrm{{e}}^{{{exp}}}"

    def _print_exp(self, expr, exp=None) -> str:
        power = self._print(expr.args[0])
        if self._breakable and _width(power) > EXPONENT_CHARS:  # a long exponent cannot break
            # \mathopen{}: no "exp(" in the source, which reads as SymPy syntax
            code = rf"\exp\mathopen{{}}\left({power}\right)"
            return code if exp is None else rf"{code}^{{{exp}}}"
        code = rf"\mathrm{{e}}^{{{power}}}"
        return rf"\left({code}\right)^{{{exp}}}" if exp is not None else code

    # fractions
    def _over(self, numerator: sympy.Basic, denominator: sympy.Basic) -> str | None:
        """Breakable: a fraction too wide to stay unbroken (a ``\\frac`` is one box: neither
        part can break) with its wide part on the line: ``(a) / (b)`` for a wide denominator,
        ``\\frac{1}{b} (a)`` for a wide numerator; None: a ``\\frac``."""
        if not self._breakable:
            return None
        den, num = self._print(denominator), self._print(numerator)
        if max(_width(den), _width(num)) <= FRACTION_CHARS:
            return None
        if isinstance(numerator, sympy.Add):
            num = rf"\left({num}\right)"
        if _width(den) <= FRACTION_CHARS:
            return rf"\frac{{1}}{{{den}}} \* {num}"
        return rf"{num} \Big/ \left({den}\right)"

    # stands between a product's factors until the product is printed; one space, as SymPy's
    # own separator, so that SymPy counts the same words when it splits a long fraction
    _FACTORS = " \x00"

    def _print_Mul(self, expr) -> str:
        if not self._breakable:
            return super()._print_Mul(expr)
        if expr.is_commutative:
            num, den = sympy.fraction(expr, exact=True)
            if den != 1 and (code := self._over(num, den)) is not None:
                return code
        # a wide product may break between its factors (\* shows a × at the break); the
        # factors' own products are printed (and decided) by the nested calls
        settings = self._settings
        outer, settings["mul_symbol_latex"] = settings["mul_symbol_latex"], self._FACTORS
        try:
            code = super()._print_Mul(expr)
        finally:
            settings["mul_symbol_latex"] = outer
        factor = r" \* " if _width(code.replace(self._FACTORS, " ")) > PRODUCT_CHARS else " "
        return code.replace(self._FACTORS, factor)

    def _needs_mul_brackets(self, expr, first=False, last=False) -> bool:
        """SymPy's, and a later factor printing with a leading minus (``x·((−1·y)·y)`` was
        ``x - y y``: SymPy asks ``could_extract_minus_sign``, no for unevaluated products)."""
        if super()._needs_mul_brackets(expr, first=first, last=last):
            return True
        return not first and expr.is_Mul and self._print(expr).startswith("-")

    def parenthesize(self, item, level, is_neg=False, strict=False) -> str:
        """SymPy's, with the precedence of a matrix product read off its leading factor
        (``_traditional``)."""
        prec = _traditional(item)
        if is_neg and strict or prec < level or (not strict and prec <= level):
            return self._add_parens(self._print(item))
        return self._print(item)

    def _print_MatMul(self, expr) -> str:
        """SymPy's, with ``Mul.could_extract_minus_sign`` read off the leading factor (SymPy
        tests ``self == -self`` first, a ``doit`` of the whole product: 5 s of a LaTeX report);
        a wide product may break between its factors (breakable)."""
        args, sign = list(expr.args), ""
        lead = args[0] if args else None
        if lead is not None and lead.is_Number and lead.is_extended_negative:
            sign = "- "
            args = args[1:] if lead == -1 else [-lead, *args[1:]]
        level = _traditional(expr)
        factors = [
            (rf"\left({c}\right)" if (c := self._print(x)).startswith("-") and i else c)
            if isinstance(x, sympy.Mul) and not isinstance(x, sympy.MatMul)
            else self.parenthesize(x, level, False)
            for i, x in enumerate(args)
        ]
        code = sign + " ".join(factors)
        if not self._breakable or _width(code) <= PRODUCT_CHARS:
            return code
        return sign + r" \allowbreak ".join(factors)

    def _print_Pow(self, expr) -> str:
        if self._breakable and expr.exp == -1 and (code := self._over(sympy.S.One, expr.base)):
            return code
        if expr.exp.is_negative and expr.base.is_commutative and fraction(expr, exact=True)[1] == 1:
            # SymPy's Mul printer hands an unsplittable (1/(−1))**(−2) back here: RecursionError
            return f"{self.parenthesize(expr.base, 60, strict=False)}^{{{self._print(expr.exp)}}}"
        return super()._print_Pow(expr)

    def _print_Subs(self, subs) -> str:
        code = super()._print_Subs(subs)
        if not self._breakable:
            return code
        # \left. ... \right| is one box: brackets that TeX may break between
        body, _, at = code.removeprefix(r"\left. ").rpartition(r" \right|")
        if _width(at) > SCRIPT_CHARS and (on_line := self._derivative_at(subs)) is not None:
            return on_line
        return rf"\Bigl[{body}\Bigr]{at}"

    def _derivative_at(self, subs) -> str | None:
        """Breakable: ``f'(a)`` or ``\\partial_{i} G(…, a, …)`` for a derivative of a function
        in one of its arguments at a point (the point on the line, where it may break, not in
        a subscript); None for any other substitution."""
        expr, old, new = subs.args
        if not isinstance(expr, sympy.Derivative) or len(old) != 1 or len(expr.variable_count) != 1:
            return None
        f, (v, n) = expr.expr, expr.variable_count[0]
        if (
            not isinstance(f, sympy.core.function.AppliedUndef)
            or v != old[0]
            or list(f.args).count(v) != 1
            or any(a.has(v) for a in f.args if a != v)
        ):
            return None
        head = self._function_head(type(f).__name__)
        args = ", ".join(self._print(new[0] if a == v else a) for a in f.args)
        if len(f.args) == 1:
            order = "\\prime" * n if n <= 3 else f"({n})"
            return rf"{{{head}}}^{{{order}}}\left({args}\right)"
        order = f"^{{{n}}}" if n > 1 else ""
        return rf"\partial_{{{f.args.index(v) + 1}}}{order} {head}\left({args}\right)"

    # names
    _function_name = False  # set while SymPy names a function (sin stays \sin)

    def _split_super_sub(self, name: str) -> tuple[str, list[str], list[str]]:
        base, supers, subs = super()._split_super_sub(name)
        if self._function_name:
            return base, supers, subs
        return (
            _word(base, r"\mathit"),
            [_word(s, r"\mathrm") for s in supers],
            [_word(s, r"\mathrm") for s in subs],
        )

    def _hprint_Function(self, func: str) -> str:
        self._function_name = True
        try:
            return super()._hprint_Function(func)
        finally:
            self._function_name = False

    def _print_Symbol(self, expr, style="plain") -> str:
        greek = _greek(expr.name)
        if greek is not None:
            return greek
        return super()._print_Symbol(expr, style=style)

    def _function_head(self, name: str) -> str:
        """``\\sigma``, ``\\theta_{0}``, ``\\ell``, ``f``; a word is an ``\\operatorname``."""
        if name in FUNCTION_NAMES:
            return FUNCTION_NAMES[name]
        if (greek := _greek(name)) is not None:
            return greek
        base, supers, subs = super()._split_super_sub(name)
        if (
            not supers
            and (base.startswith("\\") or len(base) == 1)
            and all(len(s) <= 2 or s.isdigit() for s in subs)
        ):
            return base + (f"_{{{' '.join(subs)}}}" if subs else "")
        escaped = name.replace("_", r"\_")
        return rf"\operatorname{{{escaped}}}"

    def _print_Function(self, expr, exp=None) -> str:
        name = type(expr).__name__
        if isinstance(expr, sympy.core.function.AppliedUndef) or name in FUNCTION_NAMES:
            head = self._function_head(name)
            args = ", ".join(self._print(a) for a in expr.args)
            if exp is not None:
                head = f"{{{head}}}^{{{exp}}}" if "_" in head else f"{head}^{{{exp}}}"
            return rf"{head}\left({args}\right)"
        return super()._print_Function(expr, exp)

    # logic
    def _print_BooleanTrue(self, expr) -> str:
        return r"\mathrm{true}"

    def _print_BooleanFalse(self, expr) -> str:
        return r"\mathrm{false}"

    def _print_Implies(self, expr, altchar=None) -> str:
        if expr.args[0] is sympy.true:  # "true ⇒ P" is P (a case that SymPy decided)
            return self._print(expr.args[1])
        return super()._print_Implies(expr, altchar)

    def _print_Max(self, expr, exp=None) -> str:
        others = [a for a in expr.args if a != 0]
        if len(expr.args) == 2 and len(others) == 1:
            code = rf"\operatorname{{relu}}\left({self._print(others[0])}\right)"
            return code if exp is None else rf"{code}^{{{exp}}}"
        return super()._print_Max(expr, exp)

    # matrices
    def _print_ElementwiseApplyFunction(self, expr) -> str:
        """``σ(xQKᵀ)``: a function applied entry by entry is written as applied (the
        convention of the paper), not as SymPy's ``(d ↦ σ(d))_∘(…)``."""
        f = expr.function
        body = getattr(f, "expr", None)
        variables = getattr(f, "variables", ())
        if (
            len(variables) == 1
            and isinstance(body, sympy.Function)
            and body.args == tuple(variables)
        ):
            name = type(body).__name__
            head = (
                rf"\{name}"
                if name in TEX_OPERATORS
                else self._function_head(name)
                if isinstance(body, sympy.core.function.AppliedUndef)
                else self._hprint_Function(name)
            )
            return rf"{head}\left({self._print(expr.expr)}\right)"
        return super()._print_ElementwiseApplyFunction(expr)

    def _explicit_matrix(self, expr) -> str | None:
        """A symbolic explicit matrix wider than ``MATRIX_CHARS``: its shape and its first
        entry, never every entry (None: print it in full)."""
        if all(e.is_number for e in expr) or expr.rows * expr.cols == 0:
            return None
        full = super()._print_MatrixBase(expr)
        if _width(full) <= MATRIX_CHARS:
            return None
        first = self._print(expr[0, 0])
        return (
            rf"\left[\, {first} \;\cdots \,\right]_{{{expr.rows} \times {expr.cols}}}"
            if expr.rows * expr.cols > 1
            else rf"\left[\, {first} \,\right]"
        )

    def _print_OneMatrix(self, expr) -> str:
        return r"\mathbf{1}"  # the all-ones column of x̃ = [x, 1]: 𝟏b_q, not the number 1 times b_q

    def _print_Transpose(self, expr) -> str:
        base = self._print(expr.arg)
        if not isinstance(expr.arg, sympy.MatrixSymbol):
            base = rf"\left({base}\right)"
        return rf"{base}^{{\top}}"

    def _print_hyper(self, expr, exp=None) -> str:
        """Breakable: ``{}_pF_q(a; b; z)`` on the line (SymPy's two-row form is one box)."""
        if not self._breakable or exp is not None:
            return super()._print_hyper(expr, exp)
        p, q = len(expr.ap), len(expr.bq)
        ap, bq, z = (
            self._hprint_vec(expr.ap),
            self._hprint_vec(expr.bq),
            self._print(expr.argument),
        )
        return rf"{{}}_{{{p}}}F_{{{q}}}\left({ap};\, {bq};\, {z}\right)"

    def _print(self, expr, **kwargs) -> str:
        """Each sub-expression printed once per printer and state: a breakable fraction prints
        its parts to measure them and, when they fit, SymPy prints them again — twice per
        level of nesting (9 s of the 18 s of ``python -m proofs --latex``)."""
        try:
            key = (
                expr,
                tuple(sorted(kwargs.items())),
                self._settings["mul_symbol_latex"],
                self._function_name,
            )
            return self._printed[key]
        except TypeError:  # an unhashable argument: printed as it is
            return self._print_once(expr, **kwargs)
        except KeyError:
            code = self._printed[key] = self._print_once(expr, **kwargs)
            return code

    def _print_once(self, expr, **kwargs) -> str:
        if isinstance(expr, sympy.MatrixBase) and (short := self._explicit_matrix(expr)):
            return short
        if expr is sympy.E:  # Exp1 prints itself as "e" (its own _latex) unless caught here
            return self._print_Exp1(expr)
        code = super()._print(expr, **kwargs)
        return unbraced_call(code) if self._breakable else code


def latex(expr: object, **settings) -> str:
    """Math-mode LaTeX of a SymPy object in the project's notation (memoised: the exports of
    one run print the same formulas in the document, the HTML pages and the appendix)."""
    return _latex_of(expr, tuple(sorted(settings.items())))


@memoised
def _latex_of(expr: object, settings: tuple) -> str:
    return ProofsLatexPrinter(dict(settings)).doprint(expr)
