"""Evidence: the export of every kernel fact as files, and their independent re-check.

Nothing here makes a verdict (only ``symbolic.kernel`` does): the export writes what the kernel
decided, the re-check re-decides it from the files alone, with engines of its own.

===================  ===========================================================================
``export``           ``python -m proofs --smt2 DIR``: the manifest and the obligation files
``recheck``          ``python -m proofs --recheck DIR``: the files, each claim, each fact
``manifest``         the export's format: file names, schemas, ``required_checks``, reading it
``files``            files read and written safely (no symlinks, bounded sizes, JSON)
``benchmarks``       SMT-LIB 2 text: the commands a benchmark may hold, its digest
``fact_checks``      one fact re-checked by its role (solvers, certificate, spot, rule, ¬F)
``certificates``     comparisons, bounds, witnesses, degree refutations re-decided
``spot_checks``      SymPy identities evaluated at random points (spot-checked, never proved)
``numbers``          the re-check's interval evaluator and exact rationals
``rules``            the kernel's inference rules re-derived
``side_conditions``  their side conditions: fixed names, definitions, conditions, divisors
``formula_reader``   ``srepr`` text read by a whitelist (no code runs)
``formula_smt``      a formula over the reals printed as an SMT-LIB 2 obligation
``solvers``          Z3 and cvc5 run on a benchmark's text (the only z3 import outside the kernel)
``report``           the rows, counts, summary line and the record ``recheck.json``
===================  ===========================================================================
"""
