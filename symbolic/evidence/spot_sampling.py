"""The random points and stand-ins of a spot check (``spot_checks``): a value of a symbol in its
domain, off every small lattice where a function vanishes; a random σ of no special form; random
rational matrices and entries. Every draw comes from the caller's ``random.Random``, so a
formula's points are a function of its seed."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import sympy
from sympy.core.function import AppliedUndef

from symbolic.evidence.numbers import NotEnclosed, exact, in_set, satisfies

WIDE, LIMIT = 60, 9  # the width an integer is drawn from: any other; a sum's limit


def sample(
    rng: random.Random,
    s: sympy.Symbol,
    dom: sympy.Basic,
    width: int = 0,
    scale: int | None = None,
    fine: bool = False,
) -> Fraction | None:
    """A random value of ``s`` in ``dom``. An integer that sizes a matrix or indexes one is
    small (``width`` 0: sizes 2..3, indices 0..1: mostly in range), a sum's limit is drawn
    from −11..11 (2..12 positive: ``Σ_{i=1}^{m} i = 3m − 3`` holds at 2 and 3 alone), any
    other integer from −62..62 (an identity false only from n = 4 on is not missed by four points
    near 0). With ``scale``, any other symbol — a sum's limit too — first tries a value of that
    size (its sign as its assumptions say), anywhere between ``scale`` and ten times it.

    No point is drawn from a small set a formula can vanish on (red-team round 13): a far
    value is not only a multiple of ``scale``, an interval's point is not ``k/1000`` but a
    random fraction of a random prime denominator (``fine_fraction``), and with ``fine`` (a
    symbol in a function that vanishes on a lattice of rationals, ``LATTICE_HEADS``) a real
    value gets such a fine part too. Drawn from those sets,
    ``∀x ∈ [0, 1]: Π_{k<1000}(1000x − k) = 0``,
    ``∀n ∈ ℤ: Π(n − r) = 0`` over the 143 integers drawn, ``sin(M·π·x) = 0`` (M = lcm(1..97),
    every ``p/q`` drawn, q ≤ 97), ``Σ_{i=1}^{m} i = m(m + 1)/2 + Π_{|k|≤14}(m − k)`` (a limit
    only from −11..11) — each false — held at every point."""
    if scale is not None and width in (WIDE, LIMIT):  # a sum's limit too: −11..11 is 23 values
        size = abs(scale) * rng.randint(1, 9) + rng.randrange(abs(scale))  # not a lattice
        sign = 1 if s.is_nonnegative else -1 if s.is_nonpositive else (1 if scale > 0 else -1)
        far = [Fraction(sign * size), Fraction(sign * size + 1)]  # + 1: odd, ...
        if fine and not s.is_integer:
            far.insert(0, sign * (size + fine_fraction(rng)))
        for value in far:
            try:
                if satisfies(s, value) and in_set(value, dom):
                    return value
            except NotEnclosed:
                break
    wide = width
    for _ in range(40):
        if s.is_integer:
            value = Fraction(
                rng.randint(2, 3 + wide)
                if s.is_positive
                else rng.randint(0, 1 + wide)
                if s.is_nonnegative
                else rng.randint(-2 - wide, 2 + wide)
            )
        else:
            value = Fraction(rng.randint(-400, 400), rng.randint(1, 97))
        candidates = [value]
        if fine and not s.is_integer:  # off the lattice; on it where only it is in the
            candidates.insert(0, value + fine_fraction(rng) / rng.randint(1, 97))  # domain ({1, 2})
        if isinstance(dom, sympy.Interval) and dom.start.is_finite and dom.end.is_finite:
            a, b = (exact(dom.start), exact(dom.end))
            if a is not None and b is not None and not s.is_integer:
                candidates = [a + (b - a) * fine_fraction(rng)]  # k/1000: 999 roots of a product
            elif a is not None and b is not None and width and math.ceil(a) <= math.floor(b):
                # any integer of the interval, not only those of −62..62 in it: ∀n ∈ [0, 100]
                # ∩ ℤ: Π_{k ≤ 62}(n − k) = 0 held at every point drawn
                candidates.insert(0, Fraction(rng.randint(math.ceil(a), math.floor(b))))
        try:
            for value in candidates:
                if satisfies(s, value) and in_set(value, dom):
                    return value
        except NotEnclosed:
            return None
    return None


FINE_BITS = 32  # the bits of a fine part's random prime denominator

# Heads that vanish (or have poles) on a lattice of rationals SymPy evaluates exactly:
# sin(kπ) = cos((k + 1/2)π) = 0, 1/Γ(−k) = 0, binomial(n, k) = 0 for 0 ≤ n < k, …
LATTICE_HEADS = (
    sympy.sin,
    sympy.cos,
    sympy.gamma,
    sympy.factorial,
    sympy.binomial,
    sympy.RisingFactorial,
    sympy.hyper,
)


def fine_fraction(rng: random.Random) -> Fraction:
    """A random fraction in (0, 1) whose denominator is a random prime of ``FINE_BITS`` bits
    (about 10⁸ of them): ``sin(M·π·x)`` vanishes at every ``p/q`` with ``q | M``; an integer M of
    400 digits has at most 41 such primes — a formula of bounded size vanishes at few of these
    points. (Denominators of 40 bits and more made SymPy take seconds over a power ``t^p``.)"""
    q = int(sympy.nextprime(rng.getrandbits(FINE_BITS - 1) | (1 << (FINE_BITS - 1))))
    return Fraction(rng.randint(1, q - 1), q)


_RANDOM_VALUED = (
    AppliedUndef,
    sympy.MatrixSymbol,
    sympy.matrices.expressions.matexpr.MatrixElement,
    sympy.Indexed,
)


def lattice_values(body: sympy.Basic) -> bool:
    """Does an argument of a ``LATTICE_HEADS`` function hold σ, a matrix or an entry? Their
    random stand-ins then get fine parts too: ``sin(M·π·σ(0))`` and ``sin(12π·K[0, 1])`` were
    0 for every σ and matrix drawn (coefficients and entries of denominators ≤ 5)."""
    return any(a.has(*_RANDOM_VALUED) for n in body.atoms(*LATTICE_HEADS) for a in n.args)


def lattice_exposed(body: sympy.Basic) -> frozenset:
    """The symbols free in an argument of a ``LATTICE_HEADS`` function (through anything
    else): they get values off the lattice (``sample``'s ``fine``). Only they: a fine value
    in an exponent (``t^p``) can cost SymPy seconds to put in."""
    return frozenset(
        s
        for n in body.atoms(*LATTICE_HEADS)
        for a in n.args
        for s in a.free_symbols
        if isinstance(s, sympy.Symbol)
    )


def off_lattice(rng: random.Random, fine: bool) -> sympy.Rational:
    """0, or (``fine``) a random fine part (``fine_fraction``) to add to a drawn value."""
    if not fine:
        return sympy.S.Zero
    part = fine_fraction(rng)
    return sympy.Rational(part.numerator, part.denominator)


def random_functions(exprs, rng: random.Random, fine: bool = False) -> dict:
    """Every undefined function σ (in name order) replaced by a random function of no special
    form: ``c0 + c1·s + c2·s² + c3/(1 + (s − t)²)`` of ``s = Σ wᵢ·aᵢ``, a weight of its own for
    each argument (an identity for all σ holds for that one). A quadratic of ``a + b`` made
    ``σ(x + 1) − 3σ(x) + 3σ(x − 1) − σ(x − 2) = 0`` and ``σ(x, y) = σ(y, x)`` hold; with the bump
    centred at 0 (t = 0) the odd part of σ was linear, and ``exp(σ(x) − σ(−x)) =
    exp(x·(σ(1) − σ(−1)))`` (false for σ(z) = z³) held at every point."""
    heads = {a.func for e in exprs for a in e.atoms(AppliedUndef)}
    return {
        head: (
            [
                sympy.Rational(rng.randint(-9, 9), rng.randint(1, 5)) + off_lattice(rng, fine)
                for _ in range(3)
            ]
            + [sympy.Rational(rng.randint(1, 9), rng.randint(1, 5))]  # c3 ≠ 0: no polynomial
            + [sympy.Rational(rng.choice((-1, 1)) * rng.randint(1, 9), rng.randint(2, 5))],
            [sympy.Integer(w) for w in rng.sample(range(1, 10), 8)],  # distinct weights
        )
        for head in sorted(heads, key=str)
    }


def concrete_function(args: tuple, coefficients: list, weights: list) -> sympy.Expr:
    if len(args) > len(weights):
        raise NotEnclosed("a function of more than 8 arguments")
    s = sympy.Add(*(w * a for w, a in zip(weights, args, strict=False)))
    c = coefficients
    return c[0] + c[1] * s + c[2] * s**2 + c[3] / (1 + (s - c[4]) ** 2)  # t = c[4] ≠ 0


def random_matrices(exprs, rng: random.Random, fine: bool = False) -> dict:
    out = {}
    for m in sorted({m for e in exprs for m in e.atoms(sympy.MatrixSymbol)}, key=str):
        rows, cols = m.shape
        if not (isinstance(rows, sympy.Integer) and isinstance(cols, sympy.Integer)):
            raise NotEnclosed("a matrix of symbolic shape")
        out[m] = sympy.ImmutableMatrix(
            int(rows),
            int(cols),
            lambda i, j: (
                sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4)) + off_lattice(rng, fine)
            ),
        )
    return out


def random_entries(exprs, rng: random.Random, fine: bool = False) -> dict:
    """Every entry ``x[i, j]`` of an ``IndexedBase`` at integer indices (in name order) given
    a random rational: an identity for all entries holds for these."""
    found = {a for e in exprs for a in e.atoms(sympy.Indexed)}
    if any(not all(i.is_Integer for i in a.indices) for a in found):
        raise NotEnclosed("an entry at a symbolic index")
    return {
        a: sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4)) + off_lattice(rng, fine)
        for a in sorted(found, key=str)
    }
