"""State and check your own claims: the kernel's public face for notebooks, pytest and CI.

>>> import sympy
>>> from symbolic import claim, equal, uninterpreted, assert_proved
>>> sigma = uninterpreted("sigma")
>>> a, b = sympy.symbols("a b", real=True)
>>> @claim("mine.antisymmetric", source="my note, eq. 3")
... def antisymmetric():
...     '''H(a, b) = σ(a)·b − σ(b)·a is antisymmetric, so H(a, b)·H(b, a) = −H(a, b)².'''
...     h = sigma(a) * b - sigma(b) * a
...     swapped = h.subs({a: b, b: a}, simultaneous=True)
...     yield equal(h * swapped, -h**2)
>>> assert_proved(antisymmetric())
>>> antisymmetric().status
'proved'

A ``@claim`` function yields steps — ``equal`` (SymPy identity; a false one is refuted at a
certified rational point), ``valid`` (Z3, with uninterpreted functions), ``nonzero`` and
``positive`` (exact or interval certificates), ``assume`` (an admitted hypothesis, counted) —
and calling it returns a ``Result``. ``python -m proofs --path DIR`` collects every module-level
``@claim`` of the modules in ``DIR``. Errors are ``InvalidArgument`` (a ``ValueError``).

Numbers are exact: a Python float is its binary value (``0.1`` is 3602879701896397/2⁵⁵), never
a nearby decimal, so ``equal(0.1 + 0.2, 0.3)`` is refuted. A symbol ranges over ℝ unless its
assumptions say less; an identity with a denominator is claimed where the denominator is
nonzero, by ``equal`` and ``valid`` alike (``docs/api.md``).
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
    as_input,
    check_compare,
    check_equal,
    check_matrix_equal,
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
        raise InvalidArgument(
            f"name={name!r}: an uninterpreted function needs an identifier, "
            "e.g. uninterpreted('sigma')"
        )
    return sympy.Function(name, real=True)


def _points(variables: list[sympy.Symbol]) -> Iterator[dict]:
    values = [[v for v in TRIAL_VALUES if _fits(s, v)] for s in variables]
    for combo in itertools.islice(itertools.product(*values), MAX_TRIALS):
        yield dict(zip(variables, combo, strict=True))


def _fits(s: sympy.Symbol, v: sympy.Rational) -> bool:
    return not (
        (s.is_positive and v <= 0)
        or (s.is_negative and v >= 0)
        or (s.is_nonnegative and v < 0)
        or (s.is_nonzero and v == 0)
        or (s.is_integer and not v.is_integer)
    )


COUNTEREXAMPLE_RULE = "certified counterexample at a rational point"


def equal(
    lhs: Any, rhs: Any, rule: str = "SymPy: lhs − rhs simplifies to 0", note: str = ""
) -> Step:
    """The step ``lhs = rhs`` for all values of the symbols where its denominators are nonzero
    (SymPy), or between two explicit matrices, entry by entry. When SymPy's rewrites do not
    prove it, rational points of the symbols' domains are tried (by the kernel first, then more
    here) and a certified difference refutes it (the witness is shown)."""
    lhs, rhs = _sympify(lhs, "lhs"), _sympify(rhs, "rhs")
    matrices = isinstance(lhs, sympy.MatrixBase), isinstance(rhs, sympy.MatrixBase)
    if any(matrices):
        if not all(matrices):
            raise InvalidArgument(
                f"equal(lhs={_short(lhs)}, rhs={_short(rhs)}): a matrix and a "
                "scalar; compare two matrices or two numbers"
            )
        try:
            return Step(check_matrix_equal(lhs, rhs), rule, note)
        except ValueError as exc:
            raise InvalidArgument(f"equal(lhs, rhs): {exc}") from None
    lhs, rhs = _scalar(lhs, "lhs"), _scalar(rhs, "rhs")
    fact = check_equal(lhs, rhs)
    if fact.refuted and fact.verdict.witness:
        return Step(fact, COUNTEREXAMPLE_RULE, note)
    if fact.proved or fact.refuted:
        return Step(fact, rule, note)
    free = lhs.free_symbols | rhs.free_symbols
    if (
        free
        and all(isinstance(s, sympy.Symbol) for s in free)
        and not (
            lhs.has(sympy.core.function.AppliedUndef) or rhs.has(sympy.core.function.AppliedUndef)
        )
    ):
        variables = sorted(free, key=str)
        for point in _points(variables):
            found = counterexample(lhs, rhs, point, tuple(variables))
            if found.refuted:
                return Step(found, COUNTEREXAMPLE_RULE, note)
    return Step(fact, rule, note)


def valid(formula: Any, rule: str = "Z3: is the negation unsat?", note: str = "") -> Step:
    """The step ``formula`` (a SymPy Boolean, or a function ``build(z3)`` returning a Z3
    formula), valid for all values of its symbols (in the domains their assumptions give, where
    its denominators are nonzero) and of its uninterpreted functions (Z3). A formula without a
    faithful Z3 translation is refused (``InvalidArgument``)."""
    try:
        if callable(formula) and not isinstance(formula, sympy.Basic):
            return Step(check_valid(formula), rule, note)
        return Step(check_valid_formula(_sympify(formula, "formula")), rule, note)
    except InvalidArgument as exc:
        raise InvalidArgument(f"valid(formula={_short(formula)}): {exc}") from None
    except TypeError as exc:
        raise InvalidArgument(f"valid(formula={_short(formula)}): {exc}") from None


def nonzero(expr: Any, note: str = "") -> Step:
    """The step ``expr ≠ 0``: certified for a closed expression (exact, or outward-rounded
    intervals), else by SymPy's assumptions."""
    expr = _scalar(_sympify(expr, "expr"), "expr")
    if expr.free_symbols:
        return Step(check_sign(expr, "nonzero"), "SymPy assumptions", note)
    return Step(check_nonzero(expr), "certified (exact or interval)", note)


def positive(expr: Any, note: str = "") -> Step:
    """The step ``expr > 0``: certified for a closed expression, else by SymPy's assumptions."""
    expr = _scalar(_sympify(expr, "expr"), "expr")
    if expr.free_symbols:
        return Step(check_sign(expr, "positive"), "SymPy assumptions", note)
    return Step(check_compare(expr, ">", sympy.Integer(0)), "certified (exact or interval)", note)


def assume(statement: str, formula: Any = None, note: str = "") -> Step:
    """An admitted hypothesis: shown, counted (``✓ proved (1 assumption)``), refused by
    ``--strict``; never proved."""
    if not isinstance(statement, str) or not statement.strip():
        raise InvalidArgument("assume(statement=...): say in words what is assumed")
    shown = None if formula is None else _sympify(formula, "formula")
    return Step(kernel_assume(statement, shown), "assumption", note)


def _short(value: Any) -> str:
    if callable(value) and not isinstance(value, sympy.Basic):
        return "build(z3)"
    try:
        text = sympy.sstr(value) if isinstance(value, sympy.Basic) else repr(value)
    except Exception:  # noqa: BLE001 - a value that cannot print is named by its type
        text = type(value).__name__
    text = " ".join(text.split())  # one line: a matrix prints on several
    return text if len(text) <= 60 else text[:57] + "..."


def _sympify(value: Any, name: str) -> sympy.Basic:
    """A SymPy object the kernel may read (``symbolic.kernel.inputs``): SymPy's own classes,
    a Python int, a float as its exact binary value; nothing else, and no text."""
    return as_input(value, name)


def _scalar(value: sympy.Basic, name: str) -> sympy.Expr:
    if isinstance(value, (sympy.MatrixBase, sympy.MatrixExpr)):
        raise InvalidArgument(f"{name}={_short(value)}: a matrix, where a number is expected")
    if not isinstance(value, sympy.Expr):
        raise InvalidArgument(
            f"{name}={_short(value)}: a {type(value).__name__}, where a "
            "number is expected (a statement goes to valid())"
        )
    return value


def claim(
    name: str,
    source: str = "",
    title: str | None = None,
    kind: str = "proposition",
    uses: Iterable[str] = (),
    statement: Any = None,
) -> Callable[[Callable[[], Iterable]], Callable[[], Result]]:
    """Decorator: a generator of steps becomes a function returning the checked ``Result``.

    ``statement`` is the theorem, a SymPy formula (read like any other argument); without it,
    the claim states the formula of its last step. The docstring's first paragraph is the
    note (prose shown beside the statement, never instead of it); ``source`` says where it
    comes from.
    """
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument(f"claim(name={name!r}): a claim needs a name, e.g. 'mine.lemma'")
    stated = None if statement is None else _sympify(statement, "statement")
    if stated is not None and not isinstance(stated, sympy.logic.boolalg.Boolean):
        raise InvalidArgument(
            f"claim({name!r}, statement={_short(stated)}): a statement is a "
            "formula (Eq, a relation, Implies, ForAll, ...)"
        )

    def decorate(build: Callable[[], Iterable]) -> Callable[[], Result]:
        if not inspect.isgeneratorfunction(build):
            raise InvalidArgument(
                f"@claim({name!r}) on {build.__name__}: the function must "
                "yield its steps (equal, valid, nonzero, positive, assume)"
            )
        doc = inspect.getdoc(build) or ""
        note = doc.split("\n\n")[0].replace("\n", " ").strip()

        @functools.wraps(build)
        def run() -> Result:
            steps = []
            for item in build():
                if isinstance(item, Fact):
                    item = Step(item, "kernel check")
                if not isinstance(item, Step):
                    raise InvalidArgument(
                        f"claim {name!r} yielded {type(item).__name__}: "
                        "yield steps (equal, valid, nonzero, positive, assume)"
                    )
                steps.append(item)
            formula = stated if stated is not None else steps[-1].formula if steps else None
            return Result(
                Claim(
                    name,
                    title or note or name,
                    note,
                    source or "user",
                    kind,
                    uses=tuple(uses),
                    statement=formula,
                ),
                Derivation(tuple(steps)),
            )

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
    return Report(
        module.__name__,
        doc.splitlines()[0] if doc else module.__name__,
        "user",
        tuple(c() for c in claims),
    )


def assert_proved(result: Result) -> None:
    """Raise ``AssertionError`` naming the first step that is not proved, its verdict and
    witness (or the numeric check that disagrees)."""
    if not isinstance(result, Result):
        raise InvalidArgument(
            f"assert_proved({result!r:.60}): expected a Result (call the @claim function)"
        )
    if result.status == "proved":
        return
    for i, step in enumerate(result.derivation.steps, 1):
        if step.kind == "checked" and step.verdict.status != "proved":
            v = step.verdict
            witness = ", ".join(f"{k} = {val}" for k, val in v.witness)
            raise AssertionError(
                f"claim {result.claim.name}: step {i} ({step.statement}) is {v.status} by "
                f"{v.method}"
                + (f" at {witness}" if witness else "")
                + (f" [{v.certificate}]" if v.certificate else "")
                + f": {v.reason}"
            )
    raise AssertionError(f"claim {result.claim.name} is {result.status}: {result.reason}")
