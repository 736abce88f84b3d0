"""A formula over the reals as an SMT-LIB 2 obligation (issue 25): ``smt_obligation(formula)``.

The obligation asserts the symbols' domains (``positive`` → ``(> x 0.0)``, ...) and the
*negation* of the formula; ``unsat`` means the formula holds for every value of its symbols.
It covers polynomial and rational arithmetic (``+``, ``·``, integer powers, division), ``Max``,
``Min``, ``Abs``, ``Piecewise``, relations, the connectives, ``ForAll``/``Exists`` over
intervals and uninterpreted functions ℝⁿ → ℝ (σ). This covers SymPy identities of that
kind, re-checked by an SMT solver over the reals (non-linear real arithmetic), and the
formulas of the Z3 steps, re-derived from the formula rather than taken from Z3's own text.

An integer symbol is declared ``Real`` with its sign: the obligation then asks for more than
the formula (every real), so ``unsat`` still proves it; one that needs integrality is left
``unknown``. That holds only where the symbol is read universally — free, or bound by ``∀`` in
a positive place (by ``∃`` under a negation): ``∃q ∈ ℚ: q² = 2`` read over the reals is true,
and ``(∀n ∈ ℤ: 2n ≠ 1) ⇒ ⊥`` is proved. A bound variable whose assumptions say more than
real and a sign (integer, rational, odd, prime, ...) anywhere else leaves the fragment.
A term ``p/q`` is read as the kernel reads it: claimed where ``q ≠ 0``, that condition placed
at the quantifier binding one of ``q``'s symbols (at the top for free ones); a closed ``q``
must be known nonzero.

Anything else (``exp``, ``sqrt``, matrices, sums, ...) is outside the fragment: ``None``.
The export writes the text this function prints, and the re-check prints it again from the
manifest's formula and compares: the file is bound to the formula.
"""

from __future__ import annotations

import functools

import sympy
from sympy.core.function import AppliedUndef

from symbolic.kernel import Exists, ForAll

MAX_POWER = 32  # x**n is written as a product of n factors
MAX_PRINTED = 4_000_000  # characters of every term printed for one obligation (the toolkit's
# longest obligation has about 2,000)
HEADER = (
    "; transformer-proofs: the negation of a step's formula over the reals "
    "(issue 25); unsat: the formula holds"
)


class Outside(Exception):
    """The formula uses something the SMT fragment does not have."""


SIGNS = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero")


@functools.lru_cache(maxsize=256)
def _only_real_and_sign(assumptions: tuple) -> bool:
    """Whether these assumptions say exactly "real" and at most a sign: the set the obligation
    states of the symbol (its ``domain``), no more (integer, rational, odd, prime, ...)."""
    a = dict(assumptions)
    if a.get("real") is not True:
        return False
    return any(
        sympy.Symbol("t", real=True, **({sign: True} if sign else {})).assumptions0 == a
        for sign in (None, *SIGNS)
    )


def stated_exactly(s: sympy.Symbol) -> bool:
    """The obligation's reading of ``s`` (a real with its sign) is all its assumptions say."""
    return _only_real_and_sign(tuple(sorted(s.assumptions0.items())))


def asks_more(formula: sympy.Basic) -> bool:
    """Whether ``smt_obligation(formula)`` reads a symbol over more than its set (an integer,
    a rational, an odd number, ... over the reals): its ``sat`` then refutes the obligation,
    not the formula (``∀n ∈ ℤ: n² ≠ 2`` holds; n = √2 is no integer)."""
    return any(not stated_exactly(s) for s in formula.atoms(sympy.Symbol))


def smt_obligation(formula: sympy.Basic) -> str | None:
    """The SMT-LIB 2 text (negated formula, symbols' domains), or None outside the fragment."""
    try:
        return _Printer().benchmark(formula)
    except (Outside, RecursionError):
        return None


def claimed_somewhere(formula: sympy.Basic) -> list[str]:
    """Where ``smt_obligation(formula)`` claims it, each place as a benchmark whose ``sat``
    shows it is not empty: the free symbols' domains with the divisors claimed nonzero at the
    top, and each quantifier's set with those claimed there. ``1/(x − x) = 5`` or
    ``∀y: 1/(max(y, 0)·min(y, 0)) = 7`` is claimed nowhere: ``unsat`` would prove it
    vacuously. Empty outside the fragment and where no divisor is claimed."""
    printer = _Printer()
    try:
        printer.benchmark(formula)
        return [printer.place(conds, symbols) for conds, symbols in printer.places]
    except (Outside, RecursionError):
        return []


def claimed_nowhere(formula: sympy.Basic, answers: dict) -> str | None:
    """Why an ``unsat`` of ``smt_obligation(formula)`` may be vacuous — a place where it
    claims the formula that Z3 does not show to hold a point — or None (``answers`` caches
    Z3's answers by text)."""
    from symbolic.evidence.solvers import run_z3

    for text in claimed_somewhere(formula):
        key = (text, "claimed somewhere")
        if key not in answers:
            answers[key] = run_z3(text)
        if answers[key] != "sat":
            return f"no point shown where its divisors are nonzero (z3 {answers[key]})"
    return None


def _num(q: sympy.Rational) -> str:
    p, d = int(q.p), int(q.q)
    text = f"{abs(p)}.0" if d == 1 else f"(/ {abs(p)}.0 {d}.0)"
    return f"(- {text})" if p < 0 else text


class _Printer:
    def __init__(self) -> None:
        self.names: dict[sympy.Symbol, str] = {}
        self.functions: dict[str, int] = {}
        self.quantified = False
        self.guards: list[tuple[str, frozenset]] = []  # (q ≠ 0, q's symbols) not yet placed
        self.printed: dict[str, sympy.Basic] = {}  # SMT name → the symbol it prints
        self.places: list[tuple[list[str], frozenset]] = []  # where divisors are claimed ≠ 0
        self.spent = 0  # characters printed so far (``_spend``)

    def name(self, s: sympy.Symbol) -> str:
        text = s.name if not isinstance(s, sympy.Dummy) else f"{s.name}_{s.dummy_index}"
        if "|" in text or "\\" in text or not text:
            raise Outside("a name SMT-LIB cannot quote")
        if self.printed.setdefault(text, s) != s:  # x and x > 0, a Dummy x_5 and a Symbol x_5
            raise Outside(f"two symbols print as {text}")
        return f"|{text}|"

    def function_name(self, f) -> str:
        """An uninterpreted function's SMT name: two functions of one name (``f`` and a real
        ``f``, distinct to SymPy) would be merged into one, so they leave the fragment."""
        text = f.__name__
        if "|" in text or "\\" in text or not text:
            raise Outside("a name SMT-LIB cannot quote")
        if self.printed.setdefault(text, f) != f:
            raise Outside(f"two functions or symbols print as {text}")
        return f"|{text}|"

    def domain(self, s: sympy.Symbol, term: str) -> list[str]:
        if s.is_real is not True:
            raise Outside(f"{s} is not declared real")
        out = []
        for key, text in (
            ("positive", f"(> {term} 0.0)"),
            ("negative", f"(< {term} 0.0)"),
            ("nonnegative", f"(>= {term} 0.0)"),
            ("nonpositive", f"(<= {term} 0.0)"),
            ("nonzero", f"(not (= {term} 0.0))"),
        ):
            if s.assumptions0.get(key) is True:
                out.append(text)
        return out

    def benchmark(self, formula: sympy.Basic) -> str:
        body = self.boolean(formula, 1)
        top = [g for g, _ in self.guards]  # divisions in free symbols: claimed where ≠ 0
        free = sorted((s for s in formula.free_symbols), key=lambda s: self.name(s))
        for s in free:
            if not isinstance(s, sympy.Symbol):
                raise Outside("a free symbol that is not a plain symbol")
        lines = [HEADER]
        if self.quantified:
            logic = "ALL"
        else:
            logic = "QF_UFNRA" if self.functions else "QF_NRA"
        lines.append(f"(set-logic {logic})")
        lines += [f"(declare-fun {self.name(s)} () Real)" for s in free]
        lines += [
            f"(declare-fun {f} ({' '.join(['Real'] * n)}) Real)"
            for f, n in sorted(self.functions.items())
        ]
        for s in free:
            lines += [f"(assert {d})" for d in self.domain(s, self.term(s))]
        lines += [f"(assert {g})" for g in dict.fromkeys(top)]
        lines += [f"(assert (not {body}))", "(check-sat)", "(exit)"]
        if top:
            domains = [d for s in free for d in self.domain(s, self.term(s))]
            symbols = frozenset(free).union(*(syms for _, syms in self.guards))
            self.places.append(([*domains, *top], symbols))
        return "\n".join(lines) + "\n"

    def place(self, conds: list[str], symbols: frozenset) -> str:
        """A benchmark asserting ``conds`` over ``symbols`` (all declared free)."""
        named = sorted(symbols, key=lambda s: self.name(s))
        lines = [HEADER, "(set-logic ALL)"]
        lines += [f"(declare-fun {self.name(s)} () Real)" for s in named]
        lines += [
            f"(declare-fun {f} ({' '.join(['Real'] * n)}) Real)"
            for f, n in sorted(self.functions.items())
        ]
        lines += [f"(assert {c})" for c in dict.fromkeys(conds)]
        return "\n".join([*lines, "(check-sat)", "(exit)"]) + "\n"

    # -- Booleans ----------------------------------------------------------------------------
    def boolean(self, f: sympy.Basic, polarity: int) -> str:
        """``f`` as SMT-LIB; ``polarity`` +1 where it is asserted (an even number of negations
        and antecedents above it), −1 under an odd number, 0 both (a ``Piecewise`` condition)."""
        return self._spend(self._boolean(f, polarity))

    def _boolean(self, f: sympy.Basic, polarity: int) -> str:
        if f is sympy.true:
            return "true"
        if f is sympy.false:
            return "false"
        if isinstance(f, sympy.Not):
            return f"(not {self.boolean(f.args[0], -polarity)})"
        if isinstance(f, (sympy.And, sympy.Or)):
            op = "and" if isinstance(f, sympy.And) else "or"
            return f"({op} {' '.join(self.boolean(a, polarity) for a in f.args)})"
        if isinstance(f, sympy.Implies):
            a, b = f.args
            return f"(=> {self.boolean(a, -polarity)} {self.boolean(b, polarity)})"
        if isinstance(f, (ForAll, Exists)):
            return self.quantifier(f, polarity)
        if isinstance(f, sympy.core.relational.Relational):
            return self.atom(f)
        raise Outside(type(f).__name__)

    def atom(self, f: sympy.core.relational.Relational) -> str:
        op = {"==": "=", "!=": "distinct", "<": "<", "<=": "<=", ">": ">", ">=": ">="}.get(f.rel_op)
        if op is None:
            raise Outside(f.rel_op)
        return f"({op} {self.term(f.lhs)} {self.term(f.rhs)})"  # its divisions: self.guards

    def quantifier(self, f: ForAll | Exists, polarity: int) -> str:
        self.quantified = True
        bound, conds = [], []
        # read universally (∀ asserted, ∃ denied), a variable may range over more than its
        # assumptions say (every real for an integer): the obligation only grows stronger
        universal = polarity == (1 if isinstance(f, ForAll) else -1)
        for v, dom in f.ranges():
            if not isinstance(v, sympy.Symbol):
                raise Outside("a bound variable that is not a symbol")
            if not universal and not stated_exactly(v):
                raise Outside(f"{v}: more than real and a sign, read existentially")
            bound.append(f"({self.name(v)} Real)")
            conds += self.domain(v, self.term(v)) + self.interval(dom, self.term(v))
        outer, self.guards = self.guards, []
        body = self.boolean(f.body, polarity)
        # a division is guarded at the quantifier binding one of its symbols (as the kernel
        # claims it: ∃y: 1/y = 0 is ∃y: y ≠ 0 ∧ 1/y = 0), one in outer symbols goes up
        variables = set(f.variables)
        here = [(g, syms) for g, syms in self.guards if syms & variables]
        conds += list(dict.fromkeys(g for g, _ in here))
        if here:
            symbols = frozenset(variables).union(*(syms for _, syms in here))
            self.places.append((list(conds), symbols))
        outer += [(g, syms) for g, syms in self.guards if not syms & variables]
        self.guards = outer
        head = f"({' '.join(bound)})"
        if isinstance(f, ForAll):
            inner = f"(=> (and {' '.join(conds)}) {body})" if conds else body
            return f"(forall {head} {inner})"
        inner = f"(and {' '.join(conds)} {body})" if conds else body
        return f"(exists {head} {inner})"

    def interval(self, dom: sympy.Basic, v: str) -> list[str]:
        if dom == sympy.S.Reals:
            return []
        if not isinstance(dom, sympy.Interval):
            raise Outside(f"a domain {type(dom).__name__}")
        out = []
        if dom.start.is_finite:
            out.append(f"({'<' if dom.left_open else '<='} {self.closed(dom.start)} {v})")
        if dom.end.is_finite:
            out.append(f"({'<' if dom.right_open else '<='} {v} {self.closed(dom.end)})")
        return out

    def closed(self, e: sympy.Basic) -> str:
        if e.free_symbols:
            raise Outside("an interval end with symbols")
        return self.term(e)

    # -- terms -------------------------------------------------------------------------------
    def _only_where(self, mark: int, conditions: list[str], symbols: frozenset) -> None:
        """The guards added since ``mark`` claimed only under ``conditions``: ``c → d ≠ 0``."""
        if not conditions:
            return
        where = conditions[0] if len(conditions) == 1 else f"(and {' '.join(conditions)})"
        self.guards[mark:] = [
            (f"(=> {where} {g})", syms | symbols) for g, syms in self.guards[mark:]
        ]

    def term(self, e: sympy.Basic) -> str:
        return self._spend(self._term(e))

    def _spend(self, text: str) -> str:
        """``text``, counted against ``MAX_PRINTED``: a power repeats its base's text, ``Max``
        and ``|·|`` their arguments' (``ite``), so a formula of a few hundred characters —
        ``|||…|x|…|||`` thirty deep, or ``((x^32)^32)^…`` — printed gigabytes."""
        self._charge(len(text))
        return text

    def _charge(self, size: int) -> None:
        self.spent += size
        if self.spent > MAX_PRINTED:
            raise Outside("an obligation too long to print")

    def _term(self, e: sympy.Basic) -> str:
        if isinstance(e, sympy.Rational):
            return _num(e)
        if isinstance(e, sympy.Symbol):
            if e.is_real is not True:
                raise Outside(f"{e} is not declared real")
            return self.name(e)
        if isinstance(e, sympy.Add):
            return f"(+ {' '.join(self.term(a) for a in e.args)})"
        if isinstance(e, sympy.Mul):
            return f"(* {' '.join(self.term(a) for a in e.args)})"
        if isinstance(e, sympy.Pow):
            base, ex = e.args
            if not isinstance(ex, sympy.Integer) or abs(int(ex)) > MAX_POWER:
                raise Outside("a power that is not a small integer")
            n = int(ex)
            if n == 0:
                return "1.0"
            b = self.term(base)
            self._charge(len(b) * abs(n))  # before the product is built
            power = b if abs(n) == 1 else f"(* {' '.join([b] * abs(n))})"
            if n > 0:
                return power
            if not base.free_symbols:  # a closed divisor must be known nonzero: 1/0 means nothing
                if base.is_zero is not False:
                    raise Outside("a division by a closed number not known to be nonzero")
            else:
                self.guards.append((f"(not (= {power} 0.0))", frozenset(base.free_symbols)))
            return f"(/ 1.0 {power})"
        if isinstance(e, (sympy.Max, sympy.Min)):
            args = [self.term(a) for a in e.args]
            op = ">=" if isinstance(e, sympy.Max) else "<="
            out = args[0]
            for a in args[1:]:
                out = f"(ite ({op} {out} {a}) {out} {a})"
            return out
        if isinstance(e, sympy.Abs):
            a = self.term(e.args[0])
            return f"(ite (>= {a} 0.0) {a} (- {a}))"
        if isinstance(e, sympy.Piecewise):
            if e.args[-1].cond is not sympy.true:
                raise Outside("a Piecewise without an otherwise branch")
            # a division in a branch is evaluated only where the branch is reached (its
            # condition) or taken (its value): claimed nonzero there, as the kernel claims it
            reach: list[str] = []
            symbols: frozenset = frozenset()
            made = []
            for value, cond in e.args:
                mark = len(self.guards)
                c = self.boolean(cond, 0) if cond is not sympy.true else "true"
                self._only_where(mark, reach, symbols)
                mark = len(self.guards)
                v = self.term(value)
                taken = reach if cond is sympy.true else [*reach, c]
                self._only_where(mark, taken, symbols | cond.free_symbols)
                made.append((c, v))
                reach.append(f"(not {c})")
                symbols |= cond.free_symbols
            out = made[-1][1]
            for c, v in reversed(made[:-1]):
                out = f"(ite {c} {v} {out})"
            return out
        if isinstance(e, AppliedUndef):
            if e.is_extended_real is False:  # declared imaginary (say): no function ℝⁿ → ℝ
                raise Outside(f"{e.func} is declared not real")
            name = self.function_name(e.func)
            if self.functions.setdefault(name, len(e.args)) != len(e.args):
                raise Outside("a function used with two arities")
            return f"({name} {' '.join(self.term(a) for a in e.args)})"
        raise Outside(type(e).__name__)
