"""LaTeX of derivations: each step's statement (its formula, else its text) and its
justification (rule, note, witness, verdict), as a list that breaks across pages and columns.

The step helpers (``step_kind``, ``step_formula``, ``bare_truth``, ``step_note``) are shared by
the HTML blueprint and the notebook displays, so that every rendering reads a step alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy
from sympy.core.relational import Relational
from sympy.printing.latex import accepted_latex_functions

from symbolic.engine import Step, Verdict
from symbolic.render.latex_text import RELATIONS, escape, math, prose
from symbolic.render.text import MARK

BREAK_CHARS = 30  # a wider formula is printed so that TeX can break it (latex_breaks.breakable)


def visible_width(code: str) -> int:
    """Rough width of math-mode LaTeX in characters: a command is one glyph (a function name
    such as ``\\tanh`` its letters), braces, script
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
    code = re.sub(  # \tanh is four glyphs wide, \alpha one
        r"\\([a-zA-Z]+)",
        lambda m: "x" * (len(m[1]) if m[1] in accepted_latex_functions else 1),
        code,
    )
    return len(re.sub(r"[{}^_\s&]", "", code))


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
