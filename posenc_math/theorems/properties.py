"""Theorems of the properties page: norms, dot products, distances, injectivity.

Each statement is about the encoding of every even width ``d`` with base
``b``: a sum over the ``d/2`` pairs, pair ``i`` at ``omega_i = b^(-2i/d)``,
with ``d``, ``b`` and the pair index symbolic.  A :class:`~.core.Termwise`
step proves two such sums equal by proving their summands equal for an
arbitrary pair, so nothing is checked for one width only.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["dot-relative"])]
[('dot-relative', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import cos, pi, sin

from ..witnesses import properties as numeric
from ._common import k, t
from .core import Chain, Conclusion, Equal, Holds, Termwise, Theorem, Witness
from .registry import register
from .translation import BASE, INDEX, OMEGA_I, WIDTH, omega

PAGE = "properties"


def pairs(summand):
    """``Sum(summand, (i, 0, d/2 - 1))``: one term per sine-cosine pair."""
    return sympy.Sum(summand, (INDEX, 0, WIDTH / 2 - 1))


# --------------------------------------------------------------------------
@register("norm-constant", page=PAGE)
def norm_constant() -> Theorem:
    f = omega()
    squares = pairs(sin(f * t) ** 2 + cos(f * t) ** 2)
    ones = pairs(sympy.Integer(1))
    goal = Conclusion(squares, WIDTH / 2, over=(BASE, WIDTH, t))
    termwise = Termwise(squares, ones, "Pythagoras: each pair contributes 1")
    count = Equal(ones, WIDTH / 2, r"$d/2$ pairs")

    return Theorem(
        id="norm-constant",
        title="Every position has the same norm, the square root of d/2",
        conclusions=(goal,),
        steps=(termwise, count),
        witness=Witness(
            "squared row norms of sinusoidal tables (d = 128, 64; both spacings) against d/2",
            numeric.norm_constant,
            1e-12,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        notation={omega(): OMEGA_I},
        negative_control=Conclusion(squares, WIDTH, over=(BASE, WIDTH, t)),
        proof=(
            r"$\lVert\mathrm{PE}(t)\rVert^2$ is the sum of the squares of the $d/2$ pairs, each "
            r"$\sin^2 + \cos^2 = 1$:",
            termwise,
            count,
        ),
        lead=r"For every even width $d$, base $b$ and position $t$:",
    )


@register("dot-relative", page=PAGE)
def dot_relative() -> Theorem:
    f = omega()
    dot = pairs(sin(f * t) * sin(f * (t + k)) + cos(f * t) * cos(f * (t + k)))
    goal = Conclusion(dot, pairs(cos(f * k)), over=(BASE, WIDTH, t, k))
    termwise = Termwise(dot, goal.rhs, r"$\cos(x - y) = \cos x \cos y + \sin x \sin y$, and $t$ cancels")

    return Theorem(
        id="dot-relative",
        title="The dot product depends only on the offset",
        conclusions=(goal,),
        steps=(termwise,),
        witness=Witness(
            "PE(t) . PE(t + k) from sinusoidal tables vs the sum of cos(omega_i k) at 40 digits",
            numeric.dot_relative,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        notation={omega(): OMEGA_I},
        negative_control=Conclusion(dot, pairs(cos(f * (t + k))), over=(BASE, WIDTH, t, k)),
        uses=("angle-addition",),
        proof=(
            r"Pair $i$ contributes $\sin\omega_i t\,\sin\omega_i(t+k) + \cos\omega_i t\,\cos\omega_i(t+k) "
            r"= \cos(\omega_i(t+k) - \omega_i t) = \cos\omega_i k$, for every pair:",
            termwise,
        ),
        lead=r"$\mathrm{PE}(t)\cdot\mathrm{PE}(t+k)$, for every even width $d$, base $b$ and position $t$:",
    )


@register("dot-symmetric", page=PAGE)
def dot_symmetric() -> Theorem:
    f = omega()
    back = pairs(sin(f * t) * sin(f * (t - k)) + cos(f * t) * cos(f * (t - k)))
    goal = Conclusion(back, pairs(cos(f * k)), over=(BASE, WIDTH, t, k))
    termwise = Termwise(back, goal.rhs, r"$\cos(x - y) = \cos x \cos y + \sin x \sin y$; $\cos$ is even")

    return Theorem(
        id="dot-symmetric",
        title="The dot product is the same for offsets k and -k",
        conclusions=(goal,),
        steps=(termwise,),
        witness=Witness(
            "PE(t) . PE(t - k) from sinusoidal tables vs the sum of cos(omega_i k) at 40 digits",
            numeric.dot_symmetric,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        notation={omega(): OMEGA_I},
        negative_control=Conclusion(back, pairs(-cos(f * k)), over=(BASE, WIDTH, t, k)),
        uses=("dot-relative",),
        proof=(
            r"Pair $i$ contributes $\cos(\omega_i t - \omega_i(t-k)) = \cos\omega_i k$, the same as for the offset "
            r"$+k$ (dot-relative):",
            termwise,
        ),
        lead=r"$\mathrm{PE}(t)\cdot\mathrm{PE}(t-k)$ equals $\mathrm{PE}(t)\cdot\mathrm{PE}(t+k)$:",
    )


@register("distance-relative", page=PAGE)
def distance_relative() -> Theorem:
    f = omega()
    squared = pairs((sin(f * (t + k)) - sin(f * t)) ** 2 + (cos(f * (t + k)) - cos(f * t)) ** 2)
    middle = pairs(2 - 2 * cos(f * k))
    goal = Conclusion(squared, 4 * pairs(sin(f * k / 2) ** 2), over=(BASE, WIDTH, t, k))
    first = Termwise(squared, middle, "expand; Pythagoras twice; dot-relative for the cross term")
    second = Termwise(middle, pairs(4 * sin(f * k / 2) ** 2), "half-angle formula")
    factor = Equal(second.rhs_sum, goal.rhs, "take the constant 4 out of the sum")

    return Theorem(
        id="distance-relative",
        title="Distances depend only on the offset",
        conclusions=(goal,),
        steps=(first, second, factor),
        witness=Witness(
            "squared distances between rows of sinusoidal tables vs 4 sum sin^2(omega_i k / 2) at 40 digits",
            numeric.distance_relative,
            1e-10,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        notation={omega(): OMEGA_I},
        negative_control=Conclusion(squared, 2 * pairs(sin(f * k / 2) ** 2), over=(BASE, WIDTH, t, k)),
        uses=("dot-relative",),
        proof=(
            r"Per pair, $(\sin a - \sin c)^2 + (\cos a - \cos c)^2 = 2 - 2\cos(a - c)$, and "
            r"$1 - \cos x = 2\sin^2(x/2)$:",
            first,
            second,
        ),
        lead=r"$\lVert\mathrm{PE}(t+k) - \mathrm{PE}(t)\rVert^2$, for every even width $d$, base $b$ and position $t$:",
    )


@register("injective", page=PAGE)
def injective() -> Theorem:
    n = sympy.Symbol("n", integer=True, nonzero=True)
    position = sympy.Symbol("t", integer=True)
    first = Conclusion(
        sympy.Pow(BASE, sympy.Mul(-2, sympy.Integer(0), 1 / WIDTH, evaluate=False), evaluate=False),
        sympy.Integer(1),
        over=(BASE, WIDTH),
    )
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
