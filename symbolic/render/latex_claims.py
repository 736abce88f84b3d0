r"""LaTeX of claims and results: each claim an amsthm environment (``theorem``, ``lemma``, ...)
with its label, statement, assumptions, source item (``\cite``) and the claims it uses
(``\ref``s), then its derivation (a ``proof`` only when every step was verified) and one line
saying how it was verified.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symbolic import sources
from symbolic.engine import NumericCheck, Report, Result, Step
from symbolic.render.latex_steps import derivation_latex, formula_latex, step_kind, visible_width
from symbolic.render.latex_text import escape, prose
from symbolic.render.text import MARK, admitted_text, plural

ENVIRONMENTS = ("theorem", "lemma", "proposition", "corollary", "claim")
DISPLAY_CHARS = 30  # a claim formula wider than this is set inline (it may break), not displayed:
# a display cannot break, and a two-column line holds about 40 characters of mathematics


def environment(kind: str) -> str:
    """The amsthm environment of a claim kind (unknown kinds are ``claim``)."""
    return kind.lower() if kind.lower() in ENVIRONMENTS else "claim"


def label(*parts: str) -> str:
    """A ``\\label`` key: letters, digits and ``:.-`` kept, anything else hex-coded."""
    key = ":".join(parts)
    return re.sub(r"[^A-Za-z0-9.:-]", lambda m: f"+{ord(m[0]):x}+", key)


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
    inside = [plural(len(steps), "step")]
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


class Labels:
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


def claim_latex(result: Result, key: str, labels: Labels) -> str:
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
    result: Result, key: str, labels: Labels, timings: bool = False, backing: str | None = None
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
