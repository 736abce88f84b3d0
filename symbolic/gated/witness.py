"""Certified witnesses in layers: a point where a difference of two layer forms is nonzero.

The search (``candidate_points``) only proposes points; the kernel's ``check_nonzero`` decides.
Used by the reduction and rank-r theorem modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import sympy

from symbolic.activations import Activation
from symbolic.gated.properties import candidate_points
from symbolic.kernel import Fact, check_nonzero

t_real = sympy.Symbol("t", real=True)
SHOWN_VALUE_CHARS = 60  # longer exact values are left to the certificate


def sympy_sigma(act: Activation) -> sympy.Lambda:
    """The table's σ as a SymPy ``Lambda`` (what ``layers`` applies entry by entry)."""
    return sympy.Lambda(t_real, act.sympy_at(t_real))


@dataclass(frozen=True)
class LayerWitness:
    """A certified point where a layer difference is nonzero (``point`` is the searched value)."""

    activation: Activation
    point: sympy.Rational
    values: dict[str, sympy.Matrix]
    exact: sympy.Expr
    fact: Fact  # the kernel's certificate that the difference is nonzero
    where: tuple[tuple[str, str], ...] = ()  # the witness's parameters, as shown


def certified_layer_witness(
    act: Activation,
    difference: Callable,
    values: Callable[[sympy.Expr], dict[str, sympy.Matrix]],
    points: Iterator[sympy.Rational] | None = None,
) -> LayerWitness | None:
    """The first of ``points`` where ``difference(σ, values(point))`` is certified ≠ 0.

    The layers are evaluated at each exact point (faster than substituting into the symbolic
    difference); the search only proposes points, the kernel's ``check_nonzero`` decides.
    """
    sig = sympy_sigma(act)
    for point in points or candidate_points(act.expr):
        at = values(point)
        exact = sympy.sympify(difference(sig, at))
        if exact.has(sympy.zoo, sympy.nan, sympy.I):
            continue
        fact = check_nonzero(exact)
        if fact.proved:
            return LayerWitness(act, point, at, exact, fact)
    return None
