"""LaTeX of tables: every ``Table`` a numbered, captioned ``booktabs`` tabular whose columns
wrap and share the line (set smaller, or as a paragraph per row, on a line too narrow), split
into chunks of ``TABLE_ROWS`` lines so that a long table breaks across pages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import ceil as math_ceil

import sympy

from symbolic.engine import Table
from symbolic.render.latex_printer import NAMED_CONSTANTS
from symbolic.render.latex_steps import visible_width
from symbolic.render.latex_text import escape, math, prose
from symbolic.render.text import cell_text


def _after_newline(row: str) -> str:
    """A row that follows ``\\\\`` or a booktabs rule: a leading ``[`` or ``*`` (after spaces,
    which TeX skips) would be read as their optional argument."""
    return "{}" + row if row.lstrip().startswith(("[", "*")) else row


_EXPONENT = re.compile(r"^(-?[\d,]*\.?\d*)e([+-]?)0*(\d+)$")
_POWER_TEN = re.compile(r"^10\^(-?\d+(?:\.\d+)?)$")  # capacity's "10^456.3393"


CELL_DIGITS = 6  # a rational with a longer numerator or denominator is shown as a decimal


def _readable(expr: sympy.Basic) -> sympy.Basic:
    """Long exact constants as decimals of ``CELL_DIGITS`` (named constants are kept)."""
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
