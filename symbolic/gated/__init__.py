"""Part A: what an activation σ does to the gated form ``(σ(xQᵀ) ⊙ xKᵀ)V`` (docs/theory.md A6, A7).

``properties``: the decision procedures for σ (linear, positively homogeneous of a degree);
``analysis``: the verdict on the two symmetries (exchange ``Q ↔ K``, inverse scaling) with its
certified witnesses; ``witness``: a certified point where two layer forms differ.
"""
