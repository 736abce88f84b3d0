"""Associative memories (docs/theory.md Parts B and C1): the store table, the similarity laws,
capacities under both laws, the formulas the capacity claims are stated in, retrieval error
and the tied-key stores.

* ``stores`` — the one table of stores: weights, theory forms, estimator strategy;
* ``similarity_law`` — the exact and Gaussian laws of ``s = k·q`` and their expectations;
* ``capacity`` — ``M*`` of every store under both laws; ``schedules`` — softmax logit scaling;
* ``capacity_formulas``, ``capacity_identities``, ``capacity_checks``, ``capacity_report`` — the
  statements, identities, checks and tables of ``proofs.capacity`` and ``proofs.tied_memory``;
* ``retrieval``, ``tied_memory`` — retrieval error at capacity; the C1 stores.
"""
