"""Theorems of the layouts page: the two spacings and the two layouts.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["layout-permutation"])]
[('layout-permutation', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import BlockMatrix, MatMul, Matrix, Transpose, cos, sin

from ..witnesses import layouts as numeric
from ._common import t
from .core import Chain, Conclusion, Equal, Theorem, Witness
from .language import BlockDiagonal, Definition, Stacked
from .registry import register
from .sinusoidal import OMEGA_T2T
from .translation import BASE, INDEX, OMEGA, PE, WIDTH

_base = sympy.Symbol("beta", positive=True)
#: The paper's frequency of pair i with base beta: beta^(-2i/d).
FREQUENCY = Definition("omega_base", (INDEX, _base), _base ** (-2 * INDEX / WIDTH), r"\omega_{{{0}}}({1})")

PAGE = "layouts"


@register("spacing-relation", page=PAGE)
def spacing_relation() -> Theorem:
    at_least_four = sympy.GreaterThan(WIDTH, 4, evaluate=False)
    new_base = BASE ** (WIDTH / (WIDTH - 2))
    start = FREQUENCY(INDEX, new_base)
    goal = Conclusion(start, OMEGA_T2T(INDEX), over=(BASE, WIDTH, INDEX), assuming=(at_least_four,))
    chain = Chain(
        start,
        [
            (BASE ** (-2 * INDEX / (WIDTH - 2)), "power of a power"),
            (goal.rhs, r"$d - 2 = 2 (d/2 - 1)$"),
        ],
        assuming=(at_least_four,),
    )

    return Theorem(
        id="spacing-relation",
        title="tensor2tensor's spacing is the paper's with base $b^{d/(d-2)}$",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "sinusoidal(base=10000**(d/(d-2))) against sin(t 10000^(-i/(d/2-1))) at 40 digits, d = 4 .. 512",
            numeric.spacing_relation,
            1e-11,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(
            FREQUENCY(INDEX, BASE), goal.rhs, over=(BASE, WIDTH, INDEX), assuming=(at_least_four,)
        ),
        proof=(chain,),
        lead=(
            r"For every base $b > 0$, pair index $i \ge 0$ and even width $d \ge 4$, the paper's frequency "
            r"$\omega_i(b) = b^{-2i/d}$ with base $b^{d/(d-2)}$ is tensor2tensor's frequency with base $b$:"
        ),
    )


#: The fixed permutation: row i of the first half takes coordinate 2i, row i of the second half 2i + 1.
PERMUTATION = Definition(
    "Pi",
    (),
    BlockMatrix(
        [[BlockDiagonal(INDEX, WIDTH / 2, Matrix([[1, 0]]))], [BlockDiagonal(INDEX, WIDTH / 2, Matrix([[0, 1]]))]]
    ),
    r"\Pi",
)
#: The split layout: the sines of all pairs, then their cosines.
PE_SPLIT = Definition(
    "PE_split",
    (t,),
    BlockMatrix(
        [
            [Stacked(INDEX, WIDTH / 2, Matrix([sin(OMEGA(INDEX) * t)]))],
            [Stacked(INDEX, WIDTH / 2, Matrix([cos(OMEGA(INDEX) * t)]))],
        ]
    ),
    r"\mathrm{{PE}}_{{\mathrm{{split}}}}({0})",
)


@register("layout-permutation", page=PAGE)
def layout_permutation() -> Theorem:
    permuted = Conclusion(PE_SPLIT(t), MatMul(PERMUTATION(), PE(t)), over=(BASE, WIDTH, t))
    orthogonal = Conclusion(MatMul(Transpose(PERMUTATION()), PERMUTATION()), sympy.Identity(WIDTH), over=(WIDTH,))
    steps = (
        Equal(permuted.lhs, permuted.rhs, r"row $i$ of $\Pi$ picks the sine of pair $i$, row $d/2 + i$ its cosine"),
        Equal(orthogonal.lhs, orthogonal.rhs, r"each coordinate is picked by exactly one row"),
    )
    return Theorem(
        id="layout-permutation",
        title="The split layout is the interleaved one with permuted columns",
        conclusions=(permuted, orthogonal),
        steps=steps,
        witness=Witness(
            "sinusoidal(layout='split') column i = sin(t omega_i), column d/2 + i = cos(t omega_i) at 40 digits, "
            "every even d to 16, and 32, 64, 128",
            numeric.layout_permutation,
            1e-12,
            licenses="posenc_math.encodings.sinusoidal",
        ),
        negative_control=Conclusion(PE_SPLIT(t), MatMul(Transpose(PERMUTATION()), PE(t)), over=(BASE, WIDTH, t)),
        scope="general",
        scope_note="symbolic in the base, the position and the width $d$ (every even $d$)",
        proof=(
            r"$\Pi$ has 0/1 entries and $\Pi^\top \Pi = I$, so it is a permutation matrix; it takes the "
            r"interleaved encoding to the split one:",
            *steps,
            r"So dot products, norms and distances, which a permutation keeps, are the same in both layouts.",
        ),
        lead=(
            r"The interleaved layout $\mathrm{PE}(t)$ puts $\sin\omega_i t$ and $\cos\omega_i t$ in coordinates "
            r"$2i$ and $2i+1$; the split layout in $i$ and $d/2 + i$. For every even width $d$:"
        ),
    )
