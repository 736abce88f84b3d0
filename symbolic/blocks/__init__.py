"""Transformer blocks and their parameter symmetries (issue 26), decided by the kernel.

``forms``: the attention sub-layer at symbolic sizes and the block around it (SymPy and an
independent numpy form); ``candidates``: the groups acting on its parameters; ``proof``: an
identity proved where the group acts and carried up by the kernel's rules; ``decide``: one
candidate decided (identity, certified witness, or unknown); ``facts``: RoPE-commuting rotations
and pre-norm scale invariance; ``laws``: the conserved quantities; ``transform``: the
``--transform`` text of a block's parameters.
"""

from symbolic.blocks.candidates import Candidate, candidates, key_shift_facts
from symbolic.blocks.decide import BlockDecision, decide_candidate
from symbolic.blocks.facts import norm_scale_facts, rope_rotation_facts
from symbolic.blocks.forms import (
    BLOCKS,
    HEADS,
    MAX_HEADS,
    BlockForm,
    attention,
    attention_numpy,
    block_context,
    check_heads,
    parameters,
)

__all__ = [
    "BLOCKS",
    "HEADS",
    "MAX_HEADS",
    "BlockDecision",
    "BlockForm",
    "Candidate",
    "attention",
    "attention_numpy",
    "block_context",
    "candidates",
    "check_heads",
    "decide_candidate",
    "key_shift_facts",
    "norm_scale_facts",
    "parameters",
    "rope_rotation_facts",
]
