"""The trusted kernel: the only code that makes a verdict.

Every checker takes the obligation itself — a SymPy identity with its domain, a Z3 formula, an
exact or interval comparison of closed expressions — decides it and returns a ``Fact`` carrying
the formula that was checked. ``Verdict`` and ``Fact`` refuse construction outside the kernel
(``verdict.KernelViolation``). Witness search, decision heuristics, parsers and renderers live
outside and can only propose; definitions and assumptions are admitted facts, counted apart.

==================  ===========================================================================
``check_equal``     ``lhs = rhs`` for all values of the symbols (SymPy)
``check_identity``  ``∀ z ∈ ℝ: lhs = rhs`` by the cases z > 0, z < 0, z = 0 (SymPy)
``check_zero_on``   ``∀ t ∈ D: e = 0``, splitting piecewise branches (SymPy)
``check_matrix_equal`` / ``check_matrix_expr_equal`` / ``check_sum_equal``  matrices (SymPy)
``check_sign``      ``e > 0`` etc. for all values (SymPy assumptions; intervals for numbers)
``check_valid``     a Z3 formula over uninterpreted functions (Z3; SMT-LIB 2 kept);
                    ``check_valid_formula``: the same for a formula stated in SymPy
``check_nonzero``   ``e ≠ 0`` for a closed e (exact or intervals)
``check_compare``   ``a < b`` / ``a > b`` for closed a, b (exact or intervals)
``check_bound_on``  ``∀ x ∈ [lo, hi]: e < bound`` (interval bisection)
``counterexample``  ``∀ vars: lhs = rhs`` refuted at a certified point
``check_homogeneous`` / ``refute_homogeneous``  positive homogeneity of σ (THEORY A7)
``define`` / ``assume`` / ``oracle``  admitted facts; ``undecided``: ``unknown`` when a search stops
``negate``          ¬F from a refuted (or proved) checked fact
``combine``         conjunction of verdicts (empty: unknown)
``trans`` / ``symm`` / ``cong`` / ``unfold`` / ``inst`` / ``mp`` / ``conj`` / ``iff`` / ``gen``
                    inference rules:
                    new facts from facts (``symbolic.kernel.rules``)
``limits``          the backends' time limits, a context
==================  ===========================================================================
"""

from symbolic.kernel.admitted import assume, define, negate, oracle, undecided
from symbolic.kernel.fact import ASSUMPTION, CHECKED, DEFINITION, ORACLE, Fact
from symbolic.kernel.homogeneity import check_homogeneous, refute_homogeneous
from symbolic.kernel.intervals import (
    CannotEnclose,
    Enclosure,
    check_bound_on,
    check_compare,
    check_nonzero,
    counterexample,
    enclose,
    tight_enclosure,
)
from symbolic.kernel.limits import BudgetExceeded, Limits, current_limits, deadline, limits
from symbolic.kernel.logic import Exists, ForAll
from symbolic.kernel.matrices import check_matrix_expr_equal, check_sum_equal, sum_normal_form
from symbolic.kernel.rules import (
    RuleError,
    cong,
    conj,
    gen,
    iff,
    inst,
    member,
    mp,
    scalar_transpose,
    symm,
    trans,
    unfold,
)
from symbolic.kernel.sympy_checks import (
    check_equal,
    check_identity,
    check_matrix_equal,
    check_sign,
    check_zero_on,
)
from symbolic.kernel.verdict import (
    PROVED,
    REFUTED,
    UNKNOWN,
    KernelViolation,
    Status,
    Verdict,
    combine,
)
from symbolic.kernel.z3_checks import check_valid, check_valid_formula, uninterpreted

__all__ = [
    "ASSUMPTION",
    "CHECKED",
    "DEFINITION",
    "ORACLE",
    "PROVED",
    "REFUTED",
    "UNKNOWN",
    "BudgetExceeded",
    "CannotEnclose",
    "Enclosure",
    "Exists",
    "Fact",
    "ForAll",
    "KernelViolation",
    "Limits",
    "Status",
    "Verdict",
    "assume",
    "check_bound_on",
    "check_compare",
    "check_equal",
    "check_identity",
    "check_matrix_equal",
    "check_matrix_expr_equal",
    "check_nonzero",
    "check_sign",
    "check_homogeneous",
    "check_sum_equal",
    "check_valid",
    "check_valid_formula",
    "check_zero_on",
    "combine",
    "counterexample",
    "current_limits",
    "deadline",
    "define",
    "enclose",
    "limits",
    "negate",
    "oracle",
    "refute_homogeneous",
    "sum_normal_form",
    "tight_enclosure",
    "uninterpreted",
    "undecided",
    "RuleError",
    "conj",
    "cong",
    "gen",
    "iff",
    "inst",
    "member",
    "mp",
    "scalar_transpose",
    "symm",
    "trans",
    "unfold",
]
