"""Plain-text rendering of the formulas kernel facts carry (``a*b = b*a``, ``∀ t ∈ (0, ∞): …``).

A step's statement is this rendering of the formula that was checked — never text typed beside
it. ``sigma`` prints as ``σ``; relations and connectives as ``= ≠ < ≤ ∧ ∨ ⇒ ⇔ ⊕ ¬``; a definition
as ``c := σ(1)``; an assumption stated in words as those words.
"""

from __future__ import annotations

import functools

import sympy
from sympy.core.function import AppliedUndef
from sympy.core.mul import _keep_coeff
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.precedence import precedence as _sympy_precedence
from sympy.printing.str import StrPrinter

GREEK = {"sigma": "σ", "alpha": "α", "beta": "β", "lambda": "λ"}
UNEVALUATED = (sympy.Integral, sympy.Sum, sympy.Product)


class OrderedWithoutQuadrature:
    """A printer mixin. SymPy orders an Add's terms by their numeric value where a term is a
    number (``as_terms`` calls ``complex(term)``): for a definite integral that is an mpmath
    quadrature, seconds per print (10 s of a whole LaTeX report). An Add holding such a term
    keeps SymPy's canonical order of its arguments instead."""

    def _as_ordered_terms(self, expr, order=None):
        if any(t.has(*UNEVALUATED) and t.is_number for t in expr.args):
            return list(expr.args)
        return super()._as_ordered_terms(expr, order=order)


def fast_precedence(item) -> int:
    """SymPy's ``precedence``, without negating a matrix product to ask whether it can lose a
    minus sign: ``Mul.could_extract_minus_sign`` tests ``self == -self`` first, and for a
    ``MatMul`` ``-self`` is a ``doit`` of the whole product — once per factor and per level, the
    printer's time for a nested product (14 s for one attention block's statement). For a
    ``MatMul`` that test never holds when its leading factor is a negative number (negation
    flips it) and is moot otherwise, so the answer is unchanged."""
    if isinstance(item, sympy.MatMul):
        lead = item.args[0] if item.args else None
        if lead is not None and lead.is_Number and lead.is_extended_negative:
            return _sympy_precedence(item)
        return PRECEDENCE["Mul"]  # precedence_Mul's answer when no minus sign comes out
    return _sympy_precedence(item)


class FastMatMul:
    """A printer mixin: StrPrinter's parenthesize, MatMul and Add, with ``fast_precedence``."""

    def parenthesize(self, item, level, strict=False):
        p = fast_precedence(item)
        if p < level or (not strict and p <= level):
            return f"({self._print(item)})"
        return self._print(item)

    def _print_MatMul(self, expr):
        c, m = expr.as_coeff_mmul()
        sign = ""
        if c.is_number:
            re, im = c.as_real_imag()
            if (im.is_zero and re.is_negative) or (re.is_zero and im.is_negative):
                expr = _keep_coeff(-c, m)
                sign = "-"
        level = fast_precedence(expr)
        return sign + "*".join(self.parenthesize(arg, level) for arg in expr.args)

    def _print_Add(self, expr, order=None):  # StrPrinter's, with fast_precedence
        prec = fast_precedence(expr)
        out = []
        for term in self._as_ordered_terms(expr, order=order):
            t = self._print(term)
            sign = "+"
            if t.startswith("-") and not term.is_Add:
                sign, t = "-", t[1:]
            out += [sign, f"({t})" if fast_precedence(term) < prec or term.is_Add else t]
        sign = out.pop(0)
        return ("" if sign == "+" else sign) + " ".join(out)


class SourcePrinter(FastMatMul, OrderedWithoutQuadrature, StrPrinter):
    """``sympy.sstr``'s printer (the same text, but an Add holding a definite integral or sum
    keeps its canonical order: ``OrderedWithoutQuadrature``), with ``FastMatMul``."""


class TextPrinter(FastMatMul, OrderedWithoutQuadrature, StrPrinter):
    def parenthesize(self, item, level, strict=False):
        """A fraction ``p/q`` printed as a factor is bracketed. SymPy's Mul printer works at
        Add's precedence when the product can lose a minus sign, and left a fraction of its
        denominator bare: ``Mul(-1, 2, Pow(5/3, -1))`` printed ``-1*2/5/3`` (that reads −2/15;
        it is −6/5) and ``-1/1/2`` stood for −2 — a displayed formula that is not the checked
        one (the LaTeX printer showed them right)."""
        if level <= PRECEDENCE["Mul"] and (
            (isinstance(item, sympy.Rational) and item.q != 1)
            or (
                isinstance(item, sympy.Pow)
                and item.is_commutative
                and item.exp in (-1, sympy.Rational(-1, 2))
            )
        ):  # a reciprocal prints as 1/y: (1/y)**(-1) was "1/1/y" in a denominator
            return f"({self._print(item)})"
        return super().parenthesize(item, level, strict)

    def _print_Mul(self, expr) -> str:
        """StrPrinter's, but an unevaluated product's first denominator factor that is a sum
        keeps its brackets: SymPy prints it bare when it could lose a minus sign, and
        ``Mul(1/2, 1/(3 − x))`` read ``1/(-x + 3*2)``."""
        args = expr.args
        unevaluated = args[0] is sympy.S.One or any(
            isinstance(a, sympy.Number) or (a.is_Pow and all(ai.is_Integer for ai in a.args))
            for a in args[1:]
        )
        if unevaluated:
            bases = [
                a.base
                for a in args
                if isinstance(a, sympy.Pow) and bool(a.exp.as_coeff_Mul()[0] < 0)
            ]
            if len(bases) > 1 and bases[0].is_Add:
                first = args.index(
                    next(a for a in args if isinstance(a, sympy.Pow) and a.base is bases[0])
                )
                bracket = sympy.Pow(
                    sympy.Symbol(f"({self._print(bases[0])})"), args[first].exp, evaluate=False
                )
                rest = args[:first] + (bracket,) + args[first + 1 :]
                return super()._print_Mul(sympy.Mul(*rest, evaluate=False))
        return super()._print_Mul(expr)

    def _print_Symbol(self, expr) -> str:
        return GREEK.get(expr.name, expr.name)

    def _print_Function(self, expr) -> str:
        name = expr.func.__name__
        if name == "assumed":
            return str(expr.args[0])
        args = ", ".join(self._print(a) for a in expr.args)
        return f"{GREEK.get(name, name)}({args})"

    def _print_Relational(self, expr) -> str:
        op = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥"}.get(expr.rel_op, expr.rel_op)
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"

    _print_Equality = _print_Unequality = _print_Relational
    _print_StrictLessThan = _print_StrictGreaterThan = _print_Relational
    _print_LessThan = _print_GreaterThan = _print_Relational

    def _join(self, expr, op: str) -> str:
        return f" {op} ".join(
            self.parenthesize(a, 0)
            if isinstance(a, sympy.Basic) and a.args and not a.is_Atom
            else self._print(a)
            for a in expr.args
        )

    def _connect(self, expr, op: str, loose: tuple) -> str:
        """``expr``'s arguments joined by ``op``, each of a ``loose`` connective in brackets."""
        return f" {op} ".join(
            f"({self._print(a)})" if len(a.args) > 1 and isinstance(a, loose) else self._print(a)
            for a in expr.args
        )

    def _print_And(self, expr) -> str:
        return self._connect(expr, "∧", (sympy.Or, sympy.Implies, sympy.Xor, sympy.Equivalent))

    def _print_Or(self, expr) -> str:
        return self._connect(expr, "∨", (sympy.Implies, sympy.Xor, sympy.Equivalent))

    def _print_Xor(self, expr) -> str:  # SymPy's "a ^ b" reads as a power, or as a ∧ b
        loose = (sympy.And, sympy.Or, sympy.Implies, sympy.Equivalent)
        return self._connect(expr, "⊕", loose)

    def _print_Equivalent(self, expr) -> str:
        return self._connect(expr, "⇔", (sympy.Implies, sympy.Equivalent))

    def _print_Implies(self, expr) -> str:
        a, b = expr.args
        return f"({self._print(a)}) ⇒ {self._print(b)}"

    def _print_Not(self, expr) -> str:
        return f"¬({self._print(expr.args[0])})"

    def _print_ElementwiseApplyFunction(self, expr) -> str:
        """``σ(A)`` for an uninterpreted σ applied entry by entry (``Lambda(u, σ(u))`` over
        ``A``), as the LaTeX shows it; any other function keeps SymPy's ``Lambda(u, …).(A)``
        (``exp(A)`` would read as the matrix exponential)."""
        f = expr.function
        body = f.expr if isinstance(f, sympy.Lambda) and len(f.variables) == 1 else None
        if isinstance(body, AppliedUndef) and body.args == tuple(f.variables):
            name = body.func.__name__
            return f"{GREEK.get(name, name)}({self._print(expr.expr)})"
        return super()._print_ElementwiseApplyFunction(expr)

    def _print_OneMatrix(self, expr) -> str:
        return "𝟏"  # the all-ones column: 𝟏*b_q reads as a matrix product, 1*b_q as a scalar

    def _print_ImmutableDenseMatrix(self, expr) -> str:
        if expr.shape[0] * expr.shape[1] > 4:
            return f"[{expr.shape[0]}×{expr.shape[1]} matrix]"
        return self._print_MatrixBase(expr)

    _print_ImmutableMatrix = _print_ImmutableDenseMatrix


_PRINTER = TextPrinter({"order": "none"})


def memoised(print_formula):
    """``print_formula`` memoised by its arguments (a formula, hashable settings): the JSON,
    text, LaTeX and HTML renderings of one run print the same formulas again and again. SymPy's
    equality tells ``1.0`` from ``1.00`` and ``x`` from a positive ``x``, so a hit is the same
    formula; unhashable arguments are printed afresh."""
    cached = functools.lru_cache(maxsize=16384)(print_formula)

    @functools.wraps(print_formula)
    def call(*args):
        try:
            hash(args)
        except TypeError:
            return print_formula(*args)
        return cached(*args)

    return call


@memoised
def text(expr: sympy.Basic) -> str:
    """A formula in plain text; a printer failure (4300-digit integers, …) is named, not raised."""
    try:
        return " ".join(_PRINTER.doprint(expr).split())  # one line: matrices print on several
    except (ValueError, RecursionError) as exc:
        return f"<formula not printable: {type(exc).__name__}>"


@memoised
def source_text(expr: sympy.Basic) -> str:
    """``sympy.sstr(expr)``: the ``formula`` field of the JSON."""
    return SourcePrinter().doprint(expr)


def formula_text(fact) -> str:
    """The statement of a fact: its formula (``:=`` for a definition), with its domain."""
    f = fact.formula
    if fact.kind == "definition" and isinstance(f, sympy.Equality):
        shown = f"{text(f.lhs)} := {text(f.rhs)}"
    else:
        shown = text(f)
    if fact.domain:
        shown += f"   [{', '.join(d for d in fact.domain)}]"
    return shown
