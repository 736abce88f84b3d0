"""Formulas and prose as HTML: ``mathml`` (a SymPy object as MathML, through the project's
LaTeX printer: the paper's notation), ``prose_html`` (text with its SymPy-syntax spans as MathML
and its plain notation as scripts), ``scripts_html`` and ``plain_text`` (the same notation in
markup, or in Unicode for a tooltip).
"""

from __future__ import annotations

import html
import re

import sympy

from symbolic.render.latex_printer import latex as printer_latex
from symbolic.render.latex_spans import parse_span, sympy_spans
from symbolic.render.latex_symbols import MARKUP


def _merge_italic_words(code: str) -> str:
    """``\\mathit{aa}`` comes out of latex2mathml letter by letter: make it one identifier."""
    return re.sub(
        r'<mrow>((?:<mi mathvariant="italic">[^<]*</mi>)+)</mrow>',
        lambda m: (
            '<mi mathvariant="italic">' + "".join(re.findall(r">([^<]*)</mi>", m[1])) + "</mi>"
        ),
        code,
    )


def mathml(expr: sympy.Basic, display: bool = False) -> str:
    """``<math>`` of a SymPy object: the project's LaTeX printer (the paper's notation: no
    SymPy function names) converted by latex2mathml; the LaTeX as code if that fails."""
    try:
        code = printer_latex(expr)
    except Exception:  # a printer bug must not lose the page
        return f"<code>{html.escape(sympy.sstr(expr))}</code>"
    try:
        from latex2mathml.converter import convert
    except ImportError:  # pragma: no cover - a declared dependency
        return f"<code>{html.escape(code)}</code>"
    try:
        return _merge_italic_words(convert(code, display="block" if display else "inline"))
    except Exception:
        return f"<code>{html.escape(code)}</code>"


def scripts_html(text: str) -> str:
    """Plain text with its notation as HTML (the LaTeX printer's rules, ``latex_symbols.MARKUP``):
    ``R^{d×d}`` is ℝ<sup>d×d</sup>, ``E[s^(2k)]`` has a superscript, ``Σ_{m≠i}`` a
    subscript, ``d_out`` is d<sub>out</sub>; the rest escaped."""
    out, pos = [], 0
    for m in MARKUP.finditer(text):
        out.append(html.escape(text[pos : m.start()]))
        if m[0] == "~":
            out.append("∼")
        elif m["reals"]:
            out.append("ℝ")
        elif m["rsup"] is not None or m["rsup1"] is not None:
            power = m["rsup"] if m["rsup"] is not None else m["rsup1"]
            out.append(f"ℝ<sup>{html.escape(power)}</sup>")
        elif m["starbase"]:
            out.append(
                html.escape(m["starbase"])
                + "<sup>*</sup>"
                + (f"<sub>{html.escape(m['starsub'])}</sub>" if m["starsub"] else "")
            )
        elif m["base"]:
            out.append(f"{html.escape(m['base'])}<sub>{html.escape(m['sub1'])}</sub>")
        else:
            tag = "sub" if m["sub"] is not None else "sup"
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(f"<{tag}>{scripts_html(inner)}</{tag}>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def prose_html(text: str) -> str:
    """Text with its SymPy-syntax spans as MathML, its plain notation (scripts, ℝ) as HTML,
    the rest escaped."""
    out, pos = [], 0
    for a, b, _ in sympy_spans(text):
        expr = parse_span(text[a:b])
        out.append(scripts_html(text[pos:a]))
        out.append(mathml(expr) if expr is not None else html.escape(text[a:b]))
        pos = b
    out.append(scripts_html(text[pos:]))
    return "".join(out)


# --- Plain text, for tooltips ---------------------------------------------------------------


_SUPERSCRIPTS = str.maketrans(
    "0123456789+-−=()abcdefghijklmnoprstuvwxyzT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀ"
)
_SUBSCRIPTS = str.maketrans(
    "0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"
)


def plain_text(text: str) -> str:
    """Text for a tooltip (no markup there): ``α^(−p)`` is α⁻ᵖ, ``q_js`` is qⱼₛ, ``R^d`` is ℝᵈ
    where Unicode has the script letters (else the script is written ``^(…)`` or ``_(…)``)."""

    def script(inner: str, table: dict) -> str:
        out = inner.translate(table)
        if all(not c.isascii() or not c.isalnum() for c in out):
            return out
        return f"{'_' if table is _SUBSCRIPTS else '^'}({inner})"

    out, pos = [], 0
    for m in MARKUP.finditer(text):
        out.append(text[pos : m.start()])
        if m[0] == "~":
            out.append("∼")
        elif m["reals"]:
            out.append("ℝ")
        elif m["rsup"] is not None or m["rsup1"] is not None:
            out.append(
                "ℝ" + script(m["rsup"] if m["rsup"] is not None else m["rsup1"], _SUPERSCRIPTS)
            )
        elif m["starbase"]:
            out.append(
                m["starbase"] + "*" + (script(m["starsub"], _SUBSCRIPTS) if m["starsub"] else "")
            )
        elif m["base"]:
            out.append(m["base"] + script(m["sub1"], _SUBSCRIPTS))
        else:
            inner = next(g for g in (m["sup"], m["sup2"], m["sup1"], m["sub"]) if g is not None)
            out.append(script(inner, _SUBSCRIPTS if m["sub"] is not None else _SUPERSCRIPTS))
        pos = m.end()
    return "".join(out) + text[pos:]
