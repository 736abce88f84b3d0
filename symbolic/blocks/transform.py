"""Matrix transformations of a block's parameters: ``--transform "WQ0 -> WQ0 @ A, WK0 -> WK0 @
inv(A).T"`` with ``--param "A in GL"`` (issue 26).

A transform is a simultaneous substitution ``TARGET -> PRODUCT, …`` of the attention sub-layer's
parameters (``symbolic.blocks.parameters``: ``G``, ``WQ0``, ``WK0``, ``WV0``, ``WO0``, ``WQ1``, …,
and for ``gpt2_block`` the biases ``b``, ``bO``, ``bQ0``, …). A product is ``@`` of factors:
exactly one parameter and any number of group elements — a capital name that is no parameter
(``A``, ``B``, ``D``), its transpose ``A.T``, inverse ``inv(A)`` or ``inv(A).T``. Group elements are
square; their size is the side of the parameter they multiply (``WQ0 @ A``: r×r). ``--param``
names each one's group, comma separated: ``A in GL`` (default), ``A in O`` (orthogonal),
``D diagonal`` (invertible diagonal). The group matters where a witness is sought: a break of an
O(r) claim is certified at an orthogonal matrix (a reflection), of a GL claim at
``[[2, 1], [0, 1]]``. Parsed by a whitelist of ``ast`` nodes (never executed), bounded; every
rejection is one line.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

import sympy

from symbolic.blocks.candidates import Candidate, inverse, product
from symbolic.blocks.forms import HEADS, BlockForm, attention, block_context, parameters
from symbolic.kernel import name_problem
from symbolic.languages.layer_language import layer_error
from symbolic.languages.transform_language import substitution_tree

MAX_CHARS = 400
# the block's own square matrices (symbolic.blocks.forms): a group element so named would be the
# same symbol as RoPE's pair rotation P (r×r) or the MLP's gain G2 (d×d) in the formula shown
RESERVED = frozenset({"P", "G2"})


def own_names(block: BlockForm, params) -> frozenset[str]:
    """The names the block's formulas give matrices and sizes of their own, beyond its
    parameters: the input ``X``, the mask ``M``, RoPE's ``C_rope``, ``S_rope``, ``P``, the sequence
    length ``T``, and around the sub-layer the hole ``Ah``, the MLP's ``W1``, ``W2``, ``W3`` and
    gain ``G2``. A group element so named printed alike with a different matrix (``WV0 @ W1``:
    the claim showed ``invariant`` and its block step was unknown, "two different symbols print
    alike"; ``WV0 @ X`` left a decidable question unknown)."""
    formulas = [attention(block, params)]
    context = block_context(block)
    if context is not None:
        formulas += [context.expr, *context.variables]
    names = {str(getattr(s, "name", s)) for f in formulas for s in f.free_symbols}
    return (frozenset(names) | RESERVED) - set(params)


GROUPS = {"GL": "GL", "O": "O", "diagonal": "diagonal"}


def parse_groups(text: str | None) -> dict[str, str]:
    """``A in GL, D diagonal`` → {"A": "GL", "D": "diagonal"}; None or the scalar default: {}."""
    if text is None or not text.strip() or ">" in text or "<" in text or "!=" in text:
        return {}
    out = {}
    for part in text.split(","):
        words = part.split()
        if len(words) == 3 and words[1] == "in" and words[2] in ("GL", "O"):
            name, kind = words[0], words[2]
        elif len(words) == 2 and words[1] == "diagonal":
            name, kind = words[0], "diagonal"
        else:
            raise layer_error(
                text,
                f"{part.strip()!r}: expected 'A in GL', 'A in O' or 'D diagonal', comma separated",
                "--param",
            )
        if not (name.isidentifier() and name[:1].isupper() and len(name) <= 8):
            raise layer_error(
                text, f"{name!r}: a group element is a capital name such as A", "--param"
            )
        if name in out:
            raise layer_error(text, f"{name!r} is given a group twice", "--param")
        out[name] = kind
    return out


def parse_block_transform(
    text: str, block: BlockForm, groups: Mapping[str, str] | None = None, heads: int = HEADS
) -> Candidate:
    """The transform as a ``Candidate`` of ``symbolic.blocks`` (decided like the table's), for
    the sub-layer with ``heads`` heads."""
    params = parameters(block, heads)
    tree, checks = substitution_tree(
        text, MAX_CHARS, "PRODUCT", "'WQ0 -> WQ0 @ A, WK0 -> WK0 @ inv(A).T'"
    )
    reserved = own_names(block, params)
    groups = dict(groups or {})
    sizes: dict[str, Any] = {}
    subs = []
    for key, value in zip(tree.keys, tree.values, strict=True):
        if not isinstance(key, ast.Name) or key.id not in params:
            shown = key.id if isinstance(key, ast.Name) else type(key).__name__.lower()
            raise checks.error(
                f"{shown!r} is not a parameter of {block.name}'s attention; its "
                f"parameters: {', '.join(params)}"
            )
        factors = _factors(value, checks, params, reserved)
        sources = [f for f in factors if f[0] in params]
        if len(sources) != 1:
            raise checks.error(
                f"the right side of {key.id} -> … must be a product with exactly "
                "one parameter, e.g. WQ0 @ A or inv(B) @ WO0"
            )
        where = factors.index(sources[0])
        rows, cols = params[sources[0][0]].shape
        if (rows, cols) != params[key.id].shape or sources[0][1] or sources[0][2]:
            raise checks.error(
                f"{key.id} -> …: the parameter on the right must be {key.id}'s "
                "shape, untransposed and not inverted"
            )
        for i, (name, _, _) in enumerate(factors):
            if name in params:
                continue
            side = rows if i < where else cols
            if sizes.setdefault(name, side) != side:
                raise checks.error(
                    f"{name} multiplies sides of different sizes ({sizes[name]}"
                    f" and {side}); a group element is one square matrix"
                )
        subs.append((key.id, tuple(factors)))
    if len({k for k, _ in subs}) != len(subs):
        raise checks.error("a target is substituted twice")
    if all(len(factors) == 1 and factors[0][0] == key for key, factors in subs):
        raise checks.error("the transform changes nothing (every target maps to itself)")
    unknown = set(groups) - set(sizes)
    if unknown:
        raise checks.error(f"--param names {sorted(unknown)[0]}, which the transform does not use")
    group = {name: (size, size, groups.get(name, "GL")) for name, size in sizes.items()}

    def act(p: Mapping[str, Any], g: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(p)
        for target, factors in subs:
            value = None
            for name, transposed, inverted in factors:
                m = p[name] if name in p else g[name]
                m = inverse(m) if inverted else m
                m = m.T if transposed else m
                value = m if value is None else product(value, m)
            out[target] = value
        return out

    symbols = {k: sympy.MatrixSymbol(k, rows, cols) for k, (rows, cols, _) in group.items()}
    if all(v == params[k] for k, v in act(params, symbols).items()):
        # A @ inv(A): SymPy folds the product to the parameter itself, and the claim would
        # relate a formula to itself (no evidence); the transform is the identity
        raise checks.error("the transform changes nothing (every target is its own value)")
    shown = ", ".join(f"{t} -> {' @ '.join(_factor_text(f) for f in fs)}" for t, fs in subs)
    kinds = ", ".join(f"{n} ∈ {k}" for n, (_, _, k) in group.items())
    return Candidate("the transform", f"{shown}{'; ' + kinds if kinds else ''}", group, act)


def _factor_text(f: tuple[str, bool, bool]) -> str:
    name, transposed, inverted = f
    text = f"inv({name})" if inverted else name
    return f"{text}.T" if transposed else text


def _factors(
    node: ast.expr, checks, params, reserved: frozenset[str] = RESERVED
) -> list[tuple[str, bool, bool]]:
    """A product ``F @ F @ …`` as (name, transposed, inverted) factors: parameters (the biases
    are lower case: ``bV0``) and capital group names."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return _factors(node.left, checks, params, reserved) + _factors(
            node.right, checks, params, reserved
        )
    transposed = False
    if isinstance(node, ast.Attribute):
        if node.attr != "T":
            raise checks.error(f"'.{node.attr}' is not allowed; only .T (transpose)")
        transposed, node = True, node.value
    inverted = False
    if isinstance(node, ast.Call):
        if not (
            isinstance(node.func, ast.Name)
            and node.func.id == "inv"
            and len(node.args) == 1
            and not node.keywords
        ):
            raise checks.error("the only call is inv(A), of one group element")
        inverted, node = True, node.args[0]
        if isinstance(node, ast.Attribute) and node.attr == "T":
            transposed, node = not transposed, node.value
    if (
        not isinstance(node, ast.Name)
        or not (node.id in params or node.id[:1].isupper())
        or "__" in node.id
    ):
        raise checks.error(
            f"{type(node).__name__.lower()} is not allowed in a product; use "
            "parameters, capital group names, .T, inv(...) and @"
        )
    problem = None if node.id in params else name_problem(node.id)
    if problem:  # I, E (constants), Max (a function): the kernel refuses the claim (unknown)
        raise checks.error(f"group element {node.id!r}: {problem}; call it e.g. A, B or D")
    if node.id not in params and node.id in reserved:
        raise checks.error(
            f"{node.id!r} names a matrix of the block itself (the input X, the mask M, RoPE's "
            "C_rope, S_rope and pair rotation P, the MLP's W1, W2, W3 and gain G2, the hole "
            "Ah) or its length T; call the group element e.g. A, B or D"
        )
    return [(node.id, transposed, inverted)]


__all__ = ["parse_block_transform", "parse_groups"]
