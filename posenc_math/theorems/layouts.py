"""Theorems of the layouts page: the two spacings and the two layouts.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["layout-permutation"])]
[('layout-permutation', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import cos, sin

from ..witnesses import layouts as numeric
from ._common import s, t
from .core import Chain, Conclusion, Equal, Theorem, Witness
from .registry import register
from .translation import BASE, INDEX, OMEGA_I, WIDTH, omega

PAGE = "layouts"


@register("spacing-relation", page=PAGE)
def spacing_relation() -> Theorem:
    # d = 2q + 4 >= 4: SymPy then knows d/(d - 2) is real, so (b^x)^y = b^(xy).
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    d = 2 * q + 4
    m = d / 2
    new_base = BASE ** (d / (d - 2))
    start = sympy.Pow(new_base, -2 * INDEX / d, evaluate=False)
    goal = Conclusion(start, BASE ** (-INDEX / (m - 1)), over=(BASE, q, INDEX))
    chain = Chain(
        start,
        [
            (BASE ** (-2 * INDEX / (d - 2)), "power of a power"),
            (goal.rhs, r"$d - 2 = 2 (d/2 - 1)$"),
        ],
    )

    return Theorem(
        id="spacing-relation",
        title="tensor2tensor's spacing is the paper's with base b^(d/(d-2))",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "sinusoidal(base=10000**(d/(d-2))) against sin(t 10000^(-i/(d/2-1))) at 40 digits, d = 4 .. 512",
            numeric.spacing_relation,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(sympy.Pow(BASE, -2 * INDEX / d, evaluate=False), goal.rhs, over=(BASE, q, INDEX)),
        proof=(chain,),
        lead=(
            r"For every base $b > 0$, pair index $i \ge 0$ and even width $d = 2q + 4 \ge 4$, the paper's "
            r"frequency with base $b^{d/(d-2)}$ is tensor2tensor's frequency with base $b$:"
        ),
    )


@register("layout-permutation", page=PAGE)
def layout_permutation() -> Theorem:
    f = omega()
    # The split layout lists the sines of all pairs, then the cosines; the
    # interleaved layout lists pair by pair.  The dot product of two rows is
    # the sum of the products of matching entries in either order.
    split = sympy.Add(
        sympy.Sum(sin(f * t) * sin(f * s), (INDEX, 0, WIDTH / 2 - 1)),
        sympy.Sum(cos(f * t) * cos(f * s), (INDEX, 0, WIDTH / 2 - 1)),
        evaluate=False,
    )
    interleaved = sympy.Sum(sin(f * t) * sin(f * s) + cos(f * t) * cos(f * s), (INDEX, 0, WIDTH / 2 - 1))
    goal = Conclusion(split, interleaved, over=(BASE, WIDTH, t, s))
    step = Equal(split, interleaved, "two sums over the same pairs are one sum of the two terms")

    return Theorem(
        id="layout-permutation",
        title="The split layout is the interleaved one with permuted columns",
        conclusions=(goal,),
        steps=(step,),
        witness=Witness(
            "sinusoidal(layout='split') column i = sin(t omega_i), column d/2 + i = cos(t omega_i) at 40 digits, "
            "every even d to 16, and 32, 64, 128",
            numeric.layout_permutation,
            1e-12,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        notation={omega(): OMEGA_I},
        negative_control=Conclusion(
            split,
            sympy.Sum(sin(f * t) * cos(f * s) + cos(f * t) * sin(f * s), (INDEX, 0, WIDTH / 2 - 1)),
            over=(BASE, WIDTH, t, s),
        ),
        proof=(
            r"Column $2i$ of the interleaved layout is column $i$ of the split layout and column $2i+1$ is column "
            r"$d/2 + i$: a permutation $P$ of the columns, so $\mathrm{PE}_{\text{split}} = "
            r"\mathrm{PE}_{\text{interleaved}}\,P$. A dot product sums the same products in another order:",
            step,
        ),
        lead=(
            r"The split layout puts $\sin\omega_i t$ in column $i$ and $\cos\omega_i t$ in column $d/2 + i$; the "
            r"interleaved one in columns $2i$ and $2i+1$. For every even width $d$, base $b$ and positions $t, s$ "
            r"the dot products agree (so do norms and distances):"
        ),
    )
