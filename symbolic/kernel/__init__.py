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
==================  ===========================================================================

Users import this face, never a submodule (``tests/test_kernel_layering.py``). Inside, imports
go one way, each module importing only those listed before it (and, from outside, only the
leaves ``symbolic.errors``, ``symbolic.versions`` and ``symbolic.limits``: the CPU-time limits
every check runs under, which can only turn a check into *unknown*):

``conventions`` (terms whose SymPy value is a convention: a derivative at a kink, a reversed
or non-integer range, an integral with parameters over a pole, a limit at a parameter of a
jump; a fact holding one is unknown) · ``verdict`` (``Verdict``, the minting door)
· ``logic`` (``ForAll``/``Exists``, sets, ``sympy_value``) · ``inputs`` (what the kernel reads)
· ``float_blind`` (closed numbers whose sign SymPy judges by a float) · ``huge_powers`` ·
``valueless`` (closed terms without a value, ``Γ(0)``, ``log 0``: a fact holding one is
unknown) · ``fact`` · ``special`` · ``intervals`` (enclosures) · ``interval_checks`` (signs,
comparisons, bounds) · ``branches`` (``at``, branches decided by enclosures) · ``points``
(``counterexample``) · ``sympy_checks`` (``check_equal``, ``zero_verdict``) · ``domain_checks``
(``check_zero_on``, ``check_identity``) · ``homogeneity`` · ``matrices`` · ``admitted`` ·
``rules`` · ``conclusions`` (does a derivation's conclusion establish a claim's statement as
shown: no unstated condition, no hidden or twice-given definition) · ``z3_translate`` ·
``z3_read`` · ``z3_checks``.

What the kernel trusts: SymPy — its rewrites (``expand``, ``cancel``, ``simplify``, its passes
``hyperexpand`` and ``combsimp`` tried alone first, ...) reaching exactly 0, its assumptions
system, ``solveset`` listing a denominator's zeros, ``piecewise_fold``/``as_set`` for branches,
matrix-expression algebra, root isolation, ``expand(complex=True)`` writing a closed number of
arithmetic, roots, log and the elementary functions as a + b·i (``interval_checks``);
``mpmath.iv``'s outward rounding of arithmetic and elementary functions; Z3; and Arb
(python-flint: FLINT's ball arithmetic) for erf, erfc, Γ, Iν and ₀F₁ (``special``). It has no
hand-written series of its own.
"""

from symbolic.kernel.admitted import ASSUMED, assume, define, negate, oracle, undecided
from symbolic.kernel.branches import BRANCH_HEADS, at, put, resolve_closed_branches
from symbolic.kernel.conclusions import conclusion_gap, refutation_gap, unstated_conditions
from symbolic.kernel.domain_checks import check_identity, check_zero_on
from symbolic.kernel.fact import ASSUMPTION, CHECKED, DEFINITION, ORACLE, Fact
from symbolic.kernel.float_blind import float_blind_risk, has_closed_irrational
from symbolic.kernel.homogeneity import (
    ALPHA,
    DEGREE,
    check_homogeneous,
    homogeneity_formula,
    refute_homogeneous,
)
from symbolic.kernel.inputs import as_input
from symbolic.kernel.interval_checks import (
    CERTIFY_TIMEOUT_S,
    check_bound_on,
    check_compare,
    check_nonzero,
)
from symbolic.kernel.intervals import (
    MAX_BITS,
    START_BITS,
    CannotEnclose,
    Enclosure,
    enclose,
    tight_enclosure,
)
from symbolic.kernel.logic import (
    Exists,
    ForAll,
    conjunction,
    domain_of,
    domain_text,
    literal,
    literal_replace,
)
from symbolic.kernel.matrices import check_matrix_expr_equal, check_sum_equal, sum_normal_form
from symbolic.kernel.points import counterexample
from symbolic.kernel.rules import (
    RuleError,
    cong,
    cong_in_sums,
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
from symbolic.kernel.shown_names import (
    CONSTANT_NAMES,
    PRINTED_HEADS,
    misleading_name,
    name_problem,
)
from symbolic.kernel.special import SeriesTooLong
from symbolic.kernel.special import gamma as gamma_interval
from symbolic.kernel.special import hyp0f1 as hyp0f1_interval
from symbolic.kernel.sympy_checks import (
    SIMPLIFY_TIMEOUT_S,
    check_equal,
    check_matrix_equal,
    check_sign,
    zero_verdict,
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
from symbolic.kernel.z3_checks import (
    Z3_TIMEOUT_MS,
    check_valid,
    check_valid_formula,
    uninterpreted,
    z3_version,
)

__all__ = [
    "domain_text",
    "float_blind_risk",
    "has_closed_irrational",
    "BRANCH_HEADS",
    # facts and verdicts
    "ASSUMPTION",
    "CHECKED",
    "DEFINITION",
    "ORACLE",
    "PROVED",
    "REFUTED",
    "UNKNOWN",
    "Fact",
    "KernelViolation",
    "Status",
    "Verdict",
    "combine",
    # formulas and inputs
    "ASSUMED",
    "CONSTANT_NAMES",
    "PRINTED_HEADS",
    "misleading_name",
    "name_problem",
    "Exists",
    "ForAll",
    "as_input",
    "conjunction",
    "domain_of",
    "literal",
    "literal_replace",
    # checkers
    "check_bound_on",
    "check_compare",
    "check_equal",
    "check_homogeneous",
    "check_identity",
    "check_matrix_equal",
    "check_matrix_expr_equal",
    "check_nonzero",
    "check_sign",
    "check_sum_equal",
    "check_valid",
    "check_valid_formula",
    "check_zero_on",
    "counterexample",
    "refute_homogeneous",
    "zero_verdict",
    # admitted facts and rules
    "conclusion_gap",
    "refutation_gap",
    "unstated_conditions",
    "RuleError",
    "assume",
    "conj",
    "cong",
    "cong_in_sums",
    "define",
    "gen",
    "iff",
    "inst",
    "member",
    "mp",
    "negate",
    "oracle",
    "scalar_transpose",
    "symm",
    "trans",
    "undecided",
    "unfold",
    # what the checkers are built from, for untrusted code to read
    "ALPHA",
    "CERTIFY_TIMEOUT_S",
    "DEGREE",
    "MAX_BITS",
    "SIMPLIFY_TIMEOUT_S",
    "START_BITS",
    "Z3_TIMEOUT_MS",
    "CannotEnclose",
    "Enclosure",
    "SeriesTooLong",
    "at",
    "put",
    "enclose",
    "homogeneity_formula",
    "gamma_interval",
    "hyp0f1_interval",
    "resolve_closed_branches",
    "sum_normal_form",
    "tight_enclosure",
    "uninterpreted",
    "z3_version",
]
