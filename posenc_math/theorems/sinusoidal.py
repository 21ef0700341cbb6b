"""Theorems of the sinusoidal page: the range of the wavelengths.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["wavelength-range"])]
[('wavelength-range', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import log, pi

from ..witnesses import sinusoidal as numeric
from .core import Chain, Conclusion, Equal, Holds, Theorem, Witness
from .language import Definition
from .registry import register
from .translation import BASE, INDEX, OMEGA, WIDTH

PAGE = "sinusoidal"

#: lambda_i = 2 pi / omega_i, the wavelength of pair i (the paper's spacing).
WAVELENGTH = Definition("lambda", (INDEX,), 2 * pi / OMEGA(INDEX), r"\lambda_{{{0}}}")
#: tensor2tensor's frequency of pair i: b^(-i/(d/2 - 1)), and its wavelength.
OMEGA_T2T = Definition("omega_t2t", (INDEX,), BASE ** (-INDEX / (WIDTH / 2 - 1)), r"\omega^{{\mathrm{{t2t}}}}_{{{0}}}")
WAVELENGTH_T2T = Definition("lambda_t2t", (INDEX,), 2 * pi / OMEGA_T2T(INDEX), r"\lambda^{{\mathrm{{t2t}}}}_{{{0}}}")


@register("wavelength-range", page=PAGE)
def wavelength_range() -> Theorem:
    last = WIDTH / 2 - 1
    above_one = sympy.StrictGreaterThan(BASE, 1, evaluate=False)
    at_least_four = sympy.GreaterThan(WIDTH, 4, evaluate=False)
    first = Conclusion(WAVELENGTH(sympy.S.Zero), 2 * pi, over=(BASE, WIDTH))
    longest = Conclusion(WAVELENGTH(last), 2 * pi * BASE ** ((WIDTH - 2) / WIDTH), over=(BASE, WIDTH))
    short = Conclusion(
        log(WAVELENGTH(last)), log(2 * pi * BASE), over=(BASE, WIDTH), relation="<", assuming=(above_one,)
    )
    t2t = Conclusion(WAVELENGTH_T2T(last), 2 * pi * BASE, over=(BASE, WIDTH), assuming=(at_least_four,))
    first_step = Equal(first.lhs, first.rhs, r"$i = 0$: $\omega_0 = b^0 = 1$")
    longest_step = Equal(longest.lhs, longest.rhs, r"$i = d/2 - 1$: the exponent of $b$ in $\lambda_i$ is $(d - 2)/d$")
    logs = Chain(
        log(WAVELENGTH(last)),
        [(log(2 * pi) + (WIDTH - 2) / WIDTH * log(BASE), r"logarithm of a product and of a power ($b > 0$)")],
    )
    right = Equal(log(2 * pi * BASE), log(2 * pi) + log(BASE), "logarithm of a product")
    below = Holds(
        sympy.Lt(log(2 * pi) + (WIDTH - 2) / WIDTH * log(BASE), log(2 * pi) + log(BASE), evaluate=False),
        r"the gap is $(2/d) \ln b$, positive because $b > 1$",
        assuming=(above_one,),
    )
    t2t_step = Equal(
        t2t.lhs, t2t.rhs, r"tensor2tensor: at $i = d/2 - 1$ the exponent is $-1$", assuming=(at_least_four,)
    )

    return Theorem(
        id="wavelength-range",
        title=r"The wavelengths run from $2\pi$ to $2\pi b^{(d-2)/d}$, not to $2\pi b$",
        conclusions=(first, longest, short, t2t),
        steps=(first_step, longest_step, logs, right, below, t2t_step),
        witness=Witness(
            "wavelengths(d, base) first and last entries vs 40-digit values, relative error, "
            "d = 8 .. 1024, b = 10^4 and 5 x 10^5, both spacings",
            numeric.wavelength_range,
            1e-14,
            licenses="posenc_math.encodings.wavelengths",
        ),
        negative_control=Conclusion(WAVELENGTH(last), 2 * pi * BASE, over=(BASE, WIDTH)),
        proof=(
            r"With the paper's spacing $\lambda_i = 2\pi/\omega_i = 2\pi b^{2i/d}$: $i = 0$ gives $2\pi$ and "
            r"$i = d/2 - 1$ gives $2\pi b^{(d-2)/d}$. In logarithms the last one is short of $2\pi b$ by "
            r"$(2/d)\ln b > 0$:",
            logs,
            below,
            r"With tensor2tensor's spacing $\omega_i = b^{-i/(d/2-1)}$ the last exponent is $-1$, so "
            r"$\lambda_{d/2-1} = 2\pi b$ exactly.",
        ),
        lead=(
            r"The wavelengths $\lambda_i = 2\pi/\omega_i$ of the paper's spacing $\omega_i = b^{-2i/d}$ (even width "
            r"$d$, base $b$), and those of tensor2tensor's spacing (for $d \ge 4$):"
        ),
    )
