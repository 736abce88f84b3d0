"""``valueless`` asks each node of a formula whether it is a candidate (a closed function
application or power, no binder or huge power inside) from its children's answers, once per
node. The answer must be the one SymPy's own ``free_symbols``, ``has`` and ``has_huge_power``
give, node by node, for every kind of node (binders, Lambda, Indexed, huge powers)."""

from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.kernel.huge_powers import has_huge_power
from symbolic.kernel.valueless import _BINDERS, _Subtrees, valueless

x, y = sympy.symbols("x y", real=True)
k = sympy.Symbol("k", integer=True)
A = sympy.IndexedBase("A")


def reference(node: sympy.Basic) -> bool:
    """The candidate test as the subtree questions state it, asked of ``node`` alone."""
    return (
        isinstance(node, (sympy.Function, sympy.Pow))
        and not node.free_symbols
        and not node.has(*_BINDERS)
        and not has_huge_power(node)
    )


# built unevaluated throughout: SymPy would compute the huge power while building a product,
# or while asking an assumption (Max); a Lambda inside arithmetic breaks SymPy's assumptions
LEAVES = [
    x,
    y,
    sympy.Integer(0),
    sympy.Integer(2),
    sympy.Rational(1, 3),
    sympy.pi,
    A[k],
    A[1],
    sympy.Pow(3, 10**5, evaluate=False),  # huge to has_huge_power, computable by SymPy
]


def _unary(e):
    return st.sampled_from(
        [
            lambda a: sympy.sin(a, evaluate=False),
            lambda a: sympy.gamma(a, evaluate=False),
            lambda a: sympy.log(a, evaluate=False),
            lambda a: sympy.Pow(a, -1, evaluate=False),
            lambda a: sympy.Pow(a, sympy.Rational(1, 2), evaluate=False),
            lambda a: sympy.Sum(sympy.Mul(a, k, evaluate=False), (k, 1, 3)),
            lambda a: sympy.Integral(sympy.Mul(a, x, evaluate=False), (x, 0, 1)),
            lambda a: sympy.Subs(a, x, 1),
            lambda a: sympy.exp(a, evaluate=False),
        ]
    ).map(lambda f: f(e))


def _binary(pair):
    a, b = pair
    return st.sampled_from(
        [
            sympy.Add(a, b, evaluate=False),
            sympy.Mul(a, b, evaluate=False),
        ]
    )


exprs = st.recursive(
    st.sampled_from(LEAVES),
    lambda inner: st.one_of(inner.flatmap(_unary), st.tuples(inner, inner).flatmap(_binary)),
    max_leaves=8,
)


def _agrees(e: sympy.Basic) -> None:
    walk = _Subtrees()
    for node in sympy.preorder_traversal(e):
        assert walk.candidate(node) == reference(node), node


@settings(max_examples=30, deadline=None)
@given(exprs)
def test_each_node_gets_the_answer_of_its_own_subtree(e):
    _agrees(e)


def test_binders_lambdas_indexed_and_huge_powers():
    closed_gamma = sympy.gamma(0, evaluate=False)
    for e in [
        sympy.sin(sympy.Integral(x, (x, 0, 1)), evaluate=False),  # closed, but a binder inside
        sympy.sin(sympy.Lambda(x, x), evaluate=False),  # Lambda binds x: closed
        sympy.gamma(A[1], evaluate=False),  # Indexed: a free symbol
        sympy.sin(sympy.Pow(3, 10**9, evaluate=False), evaluate=False),  # a huge power inside
        sympy.Add(closed_gamma, x, evaluate=False),
        sympy.Max(closed_gamma, sympy.Integer(1), evaluate=False),
        sympy.gamma(sympy.Lambda(x, x + closed_gamma), evaluate=False),
    ]:
        _agrees(e)


def test_the_poles_are_still_found_deep_inside():
    pole = sympy.gamma(0, evaluate=False)
    e = x
    for _ in range(40):
        e = sympy.sin(e + 1, evaluate=False)
    assert valueless(e + pole) == pole
    summed = sympy.Sum(k * pole, (k, 1, 2))
    assert valueless(sympy.sin(summed + x)) == summed  # a closed sum: computed
    assert valueless(e) is None
