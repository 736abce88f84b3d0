"""The standard candidate symmetries of a layer, for ``python -m proofs.symmetry --discover``.

For a layer and an activation σ, as transform texts (each then parsed and decided like a typed
``--transform``):

* **unit permutation** ``P[0] -> P[1], P[1] -> P[0]`` of every parameter with one row per unit;
* **exchange** ``P -> R, R -> P`` of every pair of same-shaped parameters;
* **per-unit rescaling** ``P[j] -> a*P[j], R[j] -> a**(-e)*R[j]`` of every pair, with ``e = 1`` and
  ``e = p`` when σ is positively homogeneous of degree ``p ≠ 1`` (both orders then; only a ``p``
  the transform language can write, a rational with numerator at most 12 — not √2, π or 13/2);
  parameters without units (``Q ∈ R^{d×d}`` of the static query) are rescaled whole;
* **sign flips** ``P -> -P, R -> -R`` of every pair, and ``P -> -P`` alone when σ is odd, even
  or satisfies ``σ(−z) = σ(z) − z`` (GELU, SiLU: the intertwiners of docs/theory.md, item D).

Which of them hold is decided by ``symbolic.symmetry.invariance.decide``; this module only proposes.
"""

from __future__ import annotations

from itertools import combinations

import sympy

from symbolic.languages.layer_language import Layer
from symbolic.languages.transform_language import MAX_EXPONENT, MAX_NUMBER_BITS
from symbolic.symmetry.rewrite import ActivationFacts, ActivationSpec


def _degree(spec: ActivationSpec) -> sympy.Expr | None:
    from symbolic.gated.analysis import analyze
    from symbolic.gated.properties import EVERY_DEGREE

    d = analyze(spec.expr, spec.label).homogeneity
    return d.value if d.holds.proved and d.value not in (None, EVERY_DEGREE) else None


def expressible(e: sympy.Expr) -> bool:
    """Can the transform language write ``a**(−e)``? Its exponents are rationals with a
    numerator of size at most ``MAX_EXPONENT`` (and at most ``MAX_NUMBER_BITS`` bits): a degree
    such as √2, π, 13 or 13/2 is not, and a candidate typed with it was refused as bad input
    (exit 2) — a valid question answered as a user error. Such a rescaling is left out."""
    return (
        e.is_Rational
        and abs(int(e.p)) <= MAX_EXPONENT  # the language bounds a power's numerator (13/2: no)
        and int(e.q).bit_length() <= MAX_NUMBER_BITS
    )


def _has_sign_identity(spec: ActivationSpec) -> bool:
    return ActivationFacts(spec).intertwiner() is not None  # its filters share one budget


def _scaled(name: str, e: sympy.Expr, a: str = "a") -> str:
    """``name`` times ``a^(−e)``, as typed: ``K/a``, ``a**(-2)*K``."""
    return f"{name}/{a}" if e == 1 else f"{a}**({sympy.sstr(-e)})*{name}"


def candidates(layer: Layer, spec: ActivationSpec, parameter: str = "a") -> list[str]:
    """The candidate transforms of ``layer`` with σ = ``spec``, in a fixed order; the
    rescalings are written in the transform's ``parameter`` (the name ``--param`` gave: with
    ``--param "b > 0"`` a candidate in ``a`` was refused as naming no parameter, exit 2)."""
    params = layer.parameters
    units = [p for p in params if layer.shape_of(p)[0] == "n"]
    out = []
    if units:
        out.append(", ".join(f"{p}[0] -> {p}[1], {p}[1] -> {p}[0]" for p in units))
    pairs = list(combinations(params, 2))
    out += [f"{p} -> {r}, {r} -> {p}" for p, r in pairs if layer.shape_of(p) == layer.shape_of(r)]
    p_deg = _degree(spec)
    exponents = [sympy.Integer(1)]
    if p_deg is not None and p_deg != 1 and expressible(p_deg):
        exponents.append(p_deg)
    for p, r in pairs:
        for e in exponents:
            orders = [(p, r)] if e == 1 else [(p, r), (r, p)]
            for first, second in orders:
                out.append(_rescaling(layer, first, second, e, parameter))
    out += [f"{p} -> -{p}, {r} -> -{r}" for p, r in pairs]
    if _has_sign_identity(spec):
        out += [f"{p} -> -{p}" for p in params]
    return list(dict.fromkeys(out))


def _rescaling(layer: Layer, first: str, second: str, e: sympy.Expr, a: str = "a") -> str:
    if all(layer.shape_of(m)[0] == "n" for m in (first, second)):
        return f"{first}[j] -> {a}*{first}[j], {second}[j] -> {_scaled(second + '[j]', e, a)}"
    return f"{first} -> {a}*{first}, {second} -> {_scaled(second, e, a)}"


__all__ = ["candidates"]
