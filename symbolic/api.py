"""State and check your own claims: the kernel's public face for notebooks, pytest and CI.

>>> import sympy
>>> from symbolic import claim, equal, uninterpreted, assert_proved
>>> sigma = uninterpreted("sigma")
>>> a, b = sympy.symbols("a b", real=True)
>>> @claim("mine.antisymmetric", source="my note, eq. 3")
... def antisymmetric():
...     '''H(a, b) = σ(a)·b − σ(b)·a is antisymmetric.'''
...     h = sigma(a) * b - sigma(b) * a
...     yield equal(h.subs({a: b, b: a}, simultaneous=True), -h)
>>> assert_proved(antisymmetric())
>>> antisymmetric().status
'proved'

A ``@claim`` function yields steps — ``equal`` (SymPy identity; a false one is refuted at a
certified rational point), ``valid`` (Z3, with uninterpreted functions), ``nonzero`` and
``positive`` (exact or interval certificates), ``assume`` (an admitted hypothesis, counted) —
and calling it returns a ``Result``. ``python -m proofs --path DIR`` collects every module-level
``@claim`` of the modules in ``DIR``. Errors are ``InvalidArgument`` (a ``ValueError``).
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import sympy

from symbolic.engine import Claim, Derivation, Report, Result, Step
from symbolic.errors import InvalidArgument
from symbolic.kernel import (
    Fact,
    check_compare,
    check_equal,
    check_nonzero,
    check_sign,
    check_valid,
    check_valid_formula,
    counterexample,
)
from symbolic.kernel import assume as kernel_assume

TRIAL_VALUES = tuple(sympy.Rational(v) for v in ("1", "2", "-1", "1/2", "3", "-2", "0", "1/3"))
MAX_TRIALS = 64  # points tried for a counterexample to a false identity
CLAIM_MARK = "__transformer_proofs_claim__"


def uninterpreted(name: str) -> sympy.FunctionClass:
    """An arbitrary function ℝ → ℝ named ``name``: a SymPy function that ``valid`` hands to Z3
    as an uninterpreted function (nothing is assumed about it)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise InvalidArgument(f"name={name!r}: an uninterpreted function needs an identifier, "
                              "e.g. uninterpreted('sigma')")
    return sympy.Function(name, real=True)


def _points(variables: list[sympy.Symbol]) -> Iterator[dict]:
    values = [[v for v in TRIAL_VALUES if _fits(s, v)] for s in variables]
    for combo in itertools.islice(itertools.product(*values), MAX_TRIALS):
        yield dict(zip(variables, combo, strict=True))


def _fits(s: sympy.Symbol, v: sympy.Rational) -> bool:
    return not ((s.is_positive and v <= 0) or (s.is_negative and v >= 0) or
                (s.is_nonnegative and v < 0) or (s.is_nonzero and v == 0) or
                (s.is_integer and not v.is_integer))


COUNTEREXAMPLE_RULE = "certified counterexample at a rational point"


def equal(lhs: Any, rhs: Any, rule: str = "SymPy: lhs − rhs simplifies to 0",
          note: str = "") -> Step:
    """The step ``lhs = rhs`` for all values of the symbols (SymPy). When SymPy's rewrites do
    not prove it, rational points of the symbols' domains are tried (by the kernel first, then
    more here) and a certified difference refutes it (the witness is shown)."""
    lhs, rhs = _sympify(lhs, "lhs"), _sympify(rhs, "rhs")
    fact = check_equal(lhs, rhs)
    if fact.refuted and fact.verdict.witness:
        return Step(fact, COUNTEREXAMPLE_RULE, note)
    if fact.proved or fact.refuted:
        return Step(fact, rule, note)
    variables = sorted((lhs - rhs).free_symbols, key=str)
    if variables and not (lhs - rhs).atoms(sympy.core.function.AppliedUndef):
        for point in _points(variables):
            found = counterexample(lhs, rhs, point, tuple(variables))
            if found.refuted:
                return Step(found, COUNTEREXAMPLE_RULE, note)
    return Step(fact, rule, note)


def valid(formula: Any, rule: str = "Z3: is the negation unsat?", note: str = "") -> Step:
    """The step ``formula`` (a SymPy Boolean, or a function ``build(z3)`` returning a Z3
    formula), valid for all values of its symbols and uninterpreted functions (Z3)."""
    if callable(formula) and not isinstance(formula, sympy.Basic):
        return Step(check_valid(formula), rule, note)
    try:
        return Step(check_valid_formula(_sympify(formula, "formula")), rule, note)
    except TypeError as exc:
        raise InvalidArgument(f"valid(formula={formula!s:.60}): {exc}") from None


def nonzero(expr: Any, note: str = "") -> Step:
    """The step ``expr ≠ 0`` for a closed expression (exact, or outward-rounded intervals)."""
    expr = _sympify(expr, "expr")
    if expr.free_symbols:
        return Step(check_sign(expr, "nonzero"), "SymPy assumptions", note)
    return Step(check_nonzero(expr), "certified (exact or interval)", note)


def positive(expr: Any, note: str = "") -> Step:
    """The step ``expr > 0``: certified for a closed expression, else by SymPy's assumptions."""
    expr = _sympify(expr, "expr")
    if expr.free_symbols:
        return Step(check_sign(expr, "positive"), "SymPy assumptions", note)
    return Step(check_compare(expr, ">", sympy.Integer(0)), "certified (exact or interval)",
                note)


def assume(statement: str, formula: Any = None, note: str = "") -> Step:
    """An admitted hypothesis: shown, counted (``✓ proved (1 assumption)``), refused by
    ``--strict``; never proved."""
    if not isinstance(statement, str) or not statement.strip():
        raise InvalidArgument("assume(statement=...): say in words what is assumed")
    shown = None if formula is None else _sympify(formula, "formula")
    return Step(kernel_assume(statement, shown), "assumption", note)


def _sympify(value: Any, name: str) -> sympy.Basic:
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return sympy.nsimplify(value) if isinstance(value, float) else sympy.Integer(value)
    raise InvalidArgument(f"{name}={value!r:.60}: expected a SymPy expression or a number "
                          "(build formulas from sympy.symbols and uninterpreted functions)")


def claim(name: str, source: str = "", title: str | None = None, kind: str = "proposition",
          uses: Iterable[str] = ()) -> Callable[[Callable[[], Iterable]], Callable[[], Result]]:
    """Decorator: a generator of steps becomes a function returning the checked ``Result``.

    The docstring's first line is the claim's statement; ``source`` says where it comes from.
    """
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument(f"claim(name={name!r}): a claim needs a name, e.g. 'mine.lemma'")

    def decorate(build: Callable[[], Iterable]) -> Callable[[], Result]:
        if not inspect.isgeneratorfunction(build):
            raise InvalidArgument(f"@claim({name!r}) on {build.__name__}: the function must "
                                  "yield its steps (equal, valid, nonzero, positive, assume)")
        doc = inspect.getdoc(build) or ""
        statement = doc.split("\n\n")[0].replace("\n", " ").strip() or name

        @functools.wraps(build)
        def run() -> Result:
            steps = []
            for item in build():
                if isinstance(item, Fact):
                    item = Step(item, "kernel check")
                if not isinstance(item, Step):
                    raise InvalidArgument(f"claim {name!r} yielded {type(item).__name__}: "
                                          "yield steps (equal, valid, nonzero, positive, assume)")
                steps.append(item)
            return Result(Claim(name, title or statement, statement, source or "user", kind,
                                uses=tuple(uses)), Derivation(tuple(steps)))

        setattr(run, CLAIM_MARK, name)
        return run

    return decorate


def is_claim(obj: Any) -> bool:
    return callable(obj) and hasattr(obj, CLAIM_MARK)


def report_of(module: Any) -> Report:
    """A module's report: its ``build_report()``, or every module-level ``@claim`` checked."""
    build = getattr(module, "build_report", None)
    if callable(build):
        return build()
    claims = [obj for _, obj in sorted(vars(module).items()) if is_claim(obj)]
    doc = (getattr(module, "__doc__", None) or "").strip()
    return Report(module.__name__, doc.splitlines()[0] if doc else module.__name__, "user",
                  tuple(c() for c in claims))


def assert_proved(result: Result) -> None:
    """Raise ``AssertionError`` naming the first step that is not proved, its verdict and
    witness (or the numeric check that disagrees)."""
    if not isinstance(result, Result):
        raise InvalidArgument(f"assert_proved({result!r:.60}): expected a Result (call the "
                              "@claim function)")
    if result.status == "proved":
        return
    for i, step in enumerate(result.derivation.steps, 1):
        if step.kind == "checked" and step.verdict.status != "proved":
            v = step.verdict
            witness = ", ".join(f"{k} = {val}" for k, val in v.witness)
            raise AssertionError(
                f"claim {result.claim.name}: step {i} ({step.statement}) is {v.status} by "
                f"{v.method}" + (f" at {witness}" if witness else "") +
                (f" [{v.certificate}]" if v.certificate else "") + f": {v.reason}")
    raise AssertionError(f"claim {result.claim.name} is {result.status}: {result.reason}")
