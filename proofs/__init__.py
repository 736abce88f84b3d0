"""Theorem modules: python -m proofs.<name>; python -m proofs checks them all."""
