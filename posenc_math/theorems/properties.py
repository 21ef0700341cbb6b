"""Theorems of the properties page: norms, dot products, distances, injectivity.

Each statement is about the whole encoding ``PE(t)`` of every even width
``d`` with base ``b`` (:data:`~posenc_math.theorems.translation.PE`: the
stack of the ``d/2`` sine-cosine pairs, pair ``i`` at
``omega_i = b^(-2i/d)``); ``<u, v> = u^T v`` is the dot product.  The kernel
reads ``PE(t)^T PE(s)`` as the sum of the pairs' dot products over a
symbolic number of pairs, so nothing is checked for one width only.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["dot-relative"])]
[('dot-relative', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import MatAdd, MatMul, Transpose, cos, pi, sin
from sympy.matrices.expressions.matexpr import MatrixElement

from ..witnesses import properties as numeric
from ._common import k, t
from .core import Chain, Conclusion, Equal, Holds, Theorem, Witness
from .language import Definition
from .registry import register
from .translation import BASE, INDEX, OMEGA, PE, WIDTH

PAGE = "properties"

_u, _v = sympy.MatrixSymbol("u", WIDTH, 1), sympy.MatrixSymbol("v", WIDTH, 1)
#: <u, v> = u^T v, the dot product of two columns of length d.
DOT = Definition("dot", (_u, _v), MatrixElement(MatMul(Transpose(_u), _v), 0, 0), r"\langle {0}, {1} \rangle")
#: ||u||^2 = <u, u>.
SQUARED_NORM = Definition("sqnorm", (_u,), DOT(_u, _u), r"\lVert {0} \rVert^2")


def pairs(summand):
    """``Sum(summand, (i, 0, d/2 - 1))``: one term per sine-cosine pair."""
    return sympy.Sum(summand, (INDEX, 0, WIDTH / 2 - 1))


def _difference(one, other):
    return MatAdd(one, MatMul(-1, other), evaluate=False)


# --------------------------------------------------------------------------
@register("norm-constant", page=PAGE)
def norm_constant() -> Theorem:
    f = OMEGA(INDEX)
    goal = Conclusion(SQUARED_NORM(PE(t)), WIDTH / 2, over=(BASE, WIDTH, t))
    chain = Chain(
        goal.lhs,
        [
            (pairs(sin(f * t) ** 2 + cos(f * t) ** 2), r"the squares of the $d/2$ pairs"),
            (pairs(sympy.Integer(1)), r"Pythagoras: each pair contributes 1"),
            (goal.rhs, r"$d/2$ pairs"),
        ],
    )
    return Theorem(
        id="norm-constant",
        title=r"Every position has the same norm, $\sqrt{d/2}$",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "squared row norms of sinusoidal tables (d = 128, 64; both spacings) against d/2",
            numeric.norm_constant,
            1e-12,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(SQUARED_NORM(PE(t)), WIDTH, over=(BASE, WIDTH, t)),
        proof=(r"$\lVert\mathrm{PE}(t)\rVert^2$ is the sum of the squares of the $d/2$ pairs:", chain),
        lead=r"For every even width $d$, base $b$ and position $t$:",
    )


@register("dot-relative", page=PAGE)
def dot_relative() -> Theorem:
    f = OMEGA(INDEX)
    goal = Conclusion(DOT(PE(t), PE(sympy.Add(t, k, evaluate=False))), pairs(cos(f * k)), over=(BASE, WIDTH, t, k))
    chain = Chain(
        goal.lhs,
        [
            (pairs(sin(f * t) * sin(f * (t + k)) + cos(f * t) * cos(f * (t + k))), "the dot product, pair by pair"),
            (goal.rhs, r"$\cos(x - y) = \cos x \cos y + \sin x \sin y$, and $t$ cancels"),
        ],
    )
    return Theorem(
        id="dot-relative",
        title="The dot product depends only on the offset",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "PE(t) . PE(t + k) from sinusoidal tables vs the sum of cos(omega_i k) at 40 digits",
            numeric.dot_relative,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(goal.lhs, pairs(cos(f * (t + k))), over=(BASE, WIDTH, t, k)),
        uses=("angle-addition",),
        proof=(
            r"Pair $i$ contributes $\sin\omega_i t\,\sin\omega_i(t+k) + \cos\omega_i t\,\cos\omega_i(t+k) "
            r"= \cos(\omega_i(t+k) - \omega_i t) = \cos\omega_i k$, for every pair:",
            chain,
        ),
        lead=r"For every even width $d$, base $b$, position $t$ and offset $k$:",
    )


@register("dot-symmetric", page=PAGE)
def dot_symmetric() -> Theorem:
    f = OMEGA(INDEX)
    goal = Conclusion(
        DOT(PE(t), PE(sympy.Add(t, -k, evaluate=False))),
        DOT(PE(t), PE(sympy.Add(t, k, evaluate=False))),
        over=(BASE, WIDTH, t, k),
    )
    chain = Chain(
        goal.lhs,
        [
            (pairs(sin(f * t) * sin(f * (t - k)) + cos(f * t) * cos(f * (t - k))), "the dot product, pair by pair"),
            (pairs(cos(f * k)), r"$\cos(x - y) = \cos x \cos y + \sin x \sin y$; $\cos$ is even"),
            (goal.rhs, "dot-relative"),
        ],
    )
    return Theorem(
        id="dot-symmetric",
        title="The dot product is the same for offsets $k$ and $-k$",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "PE(t) . PE(t - k) from sinusoidal tables vs the sum of cos(omega_i k) at 40 digits",
            numeric.dot_symmetric,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(goal.lhs, DOT(PE(t), PE(t + 2 * k)), over=(BASE, WIDTH, t, k)),
        uses=("dot-relative",),
        proof=(
            r"Pair $i$ contributes $\cos(\omega_i t - \omega_i(t-k)) = \cos\omega_i k$, the same as for the "
            r"offset $+k$ ({prf:ref}`thm-dot-relative`):",
            chain,
        ),
        lead=r"For every even width $d$, base $b$, position $t$ and offset $k$:",
    )


@register("distance-relative", page=PAGE)
def distance_relative() -> Theorem:
    f = OMEGA(INDEX)
    gap = _difference(PE(sympy.Add(t, k, evaluate=False)), PE(t))
    goal = Conclusion(SQUARED_NORM(gap), 4 * pairs(sin(f * k / 2) ** 2), over=(BASE, WIDTH, t, k))
    chain = Chain(
        goal.lhs,
        [
            (pairs((sin(f * (t + k)) - sin(f * t)) ** 2 + (cos(f * (t + k)) - cos(f * t)) ** 2), "pair by pair"),
            (pairs(2 - 2 * cos(f * k)), "expand; Pythagoras twice; dot-relative for the cross term"),
            (pairs(4 * sin(f * k / 2) ** 2), "half-angle formula"),
            (goal.rhs, "take the constant 4 out of the sum"),
        ],
    )
    return Theorem(
        id="distance-relative",
        title="Distances depend only on the offset",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "squared distances between rows of sinusoidal tables vs 4 sum sin^2(omega_i k / 2) at 40 digits",
            numeric.distance_relative,
            1e-10,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(goal.lhs, 2 * pairs(sin(f * k / 2) ** 2), over=(BASE, WIDTH, t, k)),
        uses=("dot-relative",),
        proof=(
            r"Per pair, $(\sin a - \sin c)^2 + (\cos a - \cos c)^2 = 2 - 2\cos(a - c)$, and "
            r"$1 - \cos x = 2\sin^2(x/2)$:",
            chain,
        ),
        lead=r"For every even width $d$, base $b$, position $t$ and offset $k$:",
    )


@register("injective", page=PAGE)
def injective() -> Theorem:
    n = sympy.Symbol("n", integer=True, nonzero=True)
    position = sympy.Symbol("t", integer=True)
    first = Conclusion(OMEGA(sympy.Integer(0)), sympy.Integer(1), over=(BASE, WIDTH))
    gap = (sin(position + n) - sin(position)) ** 2 + (cos(position + n) - cos(position)) ** 2
    apart = Conclusion(sympy.Integer(0), gap, over=(position, n), relation="<")
    frequency_one = Equal(first.lhs, first.rhs, "the exponent of pair 0 is 0")
    chain = Chain(
        gap,
        [
            (2 - 2 * cos(n), r"expand; Pythagoras twice; $\cos(x - y)$"),
            (4 * sin(n / 2) ** 2, "half-angle formula"),
        ],
    )
    positive = Holds(
        sympy.Lt(0, 4 * sin(n / 2) ** 2, evaluate=False),
        r"$\sin(n/2) \ne 0$ for a nonzero integer $n$: $n/2$ is not a multiple of $\pi$, since $\pi$ is irrational",
    )

    control_gap = (sin(pi * (position + n)) - sin(pi * position)) ** 2 + (
        cos(pi * (position + n)) - cos(pi * position)
    ) ** 2
    return Theorem(
        id="injective",
        title="Distinct integer positions get distinct encodings",
        conclusions=(first, apart),
        steps=(frequency_one, chain, positive),
        witness=Witness(
            "squared distance of the first pair of sinusoidal(2049, 64) between positions 0 and n vs "
            "4 sin^2(n/2) at 40 digits, relative, n up to 2048 (including 355 and 710, near multiples of 2 pi)",
            numeric.injective,
            1e-9,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(sympy.Integer(0), control_gap, over=(position, n), relation="<"),
        proof=(
            r"Pair $0$ has frequency $\omega_0 = b^0 = 1$ for every base and width. Its squared distance between "
            r"positions $t$ and $t + n$ is",
            chain,
            r"and $\sin(n/2) \ne 0$ for a nonzero integer $n$, because $n/2$ is not a multiple of the irrational "
            r"$\pi$. So the first pairs, and hence the encodings, of two distinct integer positions differ.",
        ),
        lead=(
            r"Pair $0$ of the encoding has frequency $1$, and for integer positions $t \ne t + n$ its two values "
            r"are at a positive distance, so $\mathrm{PE}(t) \ne \mathrm{PE}(t+n)$ (in exact arithmetic; in "
            r"floating point distinct rows can round alike, see the precision page):"
        ),
        remarks=(
            "For real positions the first pair alone repeats every $2\\pi$; the argument needs integer positions."
        ),
    )
