"""Is a layer invariant under a transformation of its parameters? (docs/theory.md, item D)

``invariance``: the decision (kernel identity, certified witness, or unknown) and the conserved
quantity; ``rewrite``: how a scalar leaves σ(c·w), through the kernel's rules; ``witness``:
certified points where a transform is no symmetry; ``family``: the standard candidates of a
layer for ``--discover``.
"""
