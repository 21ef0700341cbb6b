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
from .registry import register

PAGE = "sinusoidal"


@register("wavelength-range", page=PAGE)
def wavelength_range() -> Theorem:
    excess = sympy.Symbol("c", positive=True)
    base = 1 + excess  # b > 1, as an assumption SymPy can use
    d = sympy.Symbol("d", positive=True, even=True)
    # d = 2q + 4 >= 4 for the tensor2tensor spacing (it divides by d/2 - 1)
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    last = d / 2 - 1
    zero_power = sympy.Pow(base, sympy.Mul(-2, sympy.Integer(0), 1 / d, evaluate=False), evaluate=False)
    paper_first = sympy.Mul(2 * pi, sympy.Pow(zero_power, -1, evaluate=False), evaluate=False)
    paper_last = 2 * pi / base ** (-2 * last / d)
    exponent = sympy.Mul(-(q + 1), sympy.Pow(q + 1, -1, evaluate=False), evaluate=False)  # -i/(d/2-1)
    t2t_last = 2 * pi / sympy.Pow(base, exponent, evaluate=False)
    first = Conclusion(paper_first, 2 * pi, over=(excess, d))
    longest = Conclusion(paper_last, 2 * pi * base ** ((d - 2) / d), over=(excess, d))
    short = Conclusion(log(paper_last), log(2 * pi * base), over=(excess, d), relation="<")
    t2t = Conclusion(t2t_last, 2 * pi * base, over=(excess, q))
    first_step = Equal(first.lhs, first.rhs, r"$i = 0$: $\omega_0 = b^0 = 1$")
    longest_step = Equal(longest.lhs, longest.rhs, r"$i = d/2 - 1$: the exponent of $b$ in $\lambda_i$ is $(d - 2)/d$")
    logs = Chain(
        log(paper_last),
        [(log(2 * pi) + (d - 2) / d * log(base), r"logarithm of a product and of a power ($b > 0$)")],
    )
    right = Equal(log(2 * pi * base), log(2 * pi) + log(base), "logarithm of a product")
    below = Holds(
        sympy.Lt(log(2 * pi) + (d - 2) / d * log(base), log(2 * pi) + log(base), evaluate=False),
        r"the gap is $(2/d) \ln b$, positive because $b > 1$",
    )
    t2t_step = Equal(t2t.lhs, t2t.rhs, r"tensor2tensor: at $i = d/2 - 1$ the exponent is $-1$")

    return Theorem(
        id="wavelength-range",
        title="The wavelengths run from 2 pi to 2 pi b^((d-2)/d), not to 2 pi b",
        conclusions=(first, longest, short, t2t),
        steps=(first_step, longest_step, logs, right, below, t2t_step),
        witness=Witness(
            "wavelengths(d, base) first and last entries vs 40-digit values, relative error, "
            "d = 8 .. 1024, b = 10^4 and 5 x 10^5, both spacings",
            numeric.wavelength_range,
            1e-14,
            licenses="posenc_math.encodings.wavelengths",
        ),
        negative_control=Conclusion(paper_last, 2 * pi * base, over=(excess, d)),
        proof=(
            r"With the paper's spacing $\lambda_i = 2\pi/\omega_i = 2\pi b^{2i/d}$: $i = 0$ gives $2\pi$ and "
            r"$i = d/2 - 1$ gives $2\pi b^{(d-2)/d}$. In logarithms the last one is short of $2\pi b$ by "
            r"$(2/d)\ln b > 0$:",
            logs,
            below,
            r"With tensor2tensor's spacing $\omega_i = b^{-i/(d/2-1)}$, so the last exponent is $-1$ and "
            r"$\lambda_{d/2-1} = 2\pi b$ exactly (written with $d = 2q + 4$, $q \ge 0$).",
        ),
        lead=(
            r"With base $b = 1 + c > 1$ and even width $d$, the wavelengths $\lambda_i = 2\pi/\omega_i$ of the "
            r"paper's spacing $\omega_i = b^{-2i/d}$ satisfy $\lambda_0 = 2\pi$, "
            r"$\lambda_{d/2-1} = 2\pi b^{(d-2)/d}$ and $\ln\lambda_{d/2-1} < \ln 2\pi b$; tensor2tensor's spacing "
            r"reaches $2\pi b$ exactly:"
        ),
    )
