"""Theorems of the binary page: bits are signs of sinusoids of halving frequency.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["binary-bit"])]
[('binary-bit', 'verified', 'instances')]
"""

from __future__ import annotations

import sympy
from sympy import Mod, floor, pi, sign

from ..witnesses import binary as numeric
from ._common import usin
from .core import Chain, Conclusion, Equal, Fact, Theorem, Witness
from .registry import register

PAGE = "binary"

#: Bits checked exhaustively over one whole period each: j = 0 .. MAX_BIT.
MAX_BIT = 16


def _one_period_each() -> bool:
    """Every t in one period 0 <= t < 2^(j+1), every j <= MAX_BIT: the sign formula gives bit j.

    float64 suffices and is certain here: the smallest |sine| is sin(pi / 2^(MAX_BIT+1)), about 2e-5, far
    above the rounding error of the angle (about 1e-15); a value closer to 0 than 1e-9 fails the check.
    """
    import numpy as np

    for bit in range(MAX_BIT + 1):
        positions = np.arange(2 ** (bit + 1))
        values = np.sin(np.pi * (positions + 0.5) / 2**bit)
        if float(np.abs(values).min()) < 1e-9:
            return False
        if not np.array_equal((1 - np.sign(values)) // 2, (positions >> bit) & 1):
            return False
    return True


@register("binary-bit", page=PAGE)
def binary_bit() -> Theorem:
    p = sympy.Symbol("p", integer=True, nonnegative=True)  # the position, as the page names it
    j = sympy.Symbol("j", integer=True, nonnegative=True)

    def angle(position):
        return pi * (position + sympy.Rational(1, 2)) / 2**j

    def bit(position):
        return Mod(floor(position / 2**j), 2)

    def half_of(numerator):  # (1 - sign)/2 as written; SymPy would distribute the 1/2 over the sum
        return sympy.Mul(numerator, sympy.Rational(1, 2), evaluate=False)

    main = Conclusion(
        bit(p),
        half_of(sympy.Add(1, -sign(sympy.sin(angle(p))), evaluate=False)),
        over=(p, j),
        where=(
            rf"the first line is checked for every position $p$ and every $j \le {MAX_BIT}$: the next two lines "
            rf"prove that both sides repeat, and one whole period is checked for each such $j$"
        ),
    )
    wave_period = Conclusion(usin(angle(p + 2 ** (j + 1))), sympy.sin(angle(p)), over=(p, j))
    bit_period = Conclusion(bit(p + 2 ** (j + 1)), bit(p), over=(p, j))
    halving = Conclusion(
        sympy.Mul(pi / 2 ** (j + 1), sympy.Pow(pi / 2**j, -1, evaluate=False), evaluate=False),
        sympy.Rational(1, 2),
        over=(j,),
    )
    wave_chain = Chain(
        wave_period.lhs,
        [
            (usin(sympy.Add(angle(p), 2 * pi, evaluate=False)), r"$2^{j+1} / 2^j = 2$"),
            (wave_period.rhs, r"sine has period $2\pi$"),
        ],
    )
    bit_step = Equal(bit_period.lhs, bit_period.rhs, r"adding $2^{j+1}$ adds 2 to $p / 2^j$: bit $j$ is unchanged")
    one_period = Fact(
        f"(1 - sign sin(pi (p + 1/2) / 2^j)) / 2 equals bit j of p for every p in one period, j = 0 .. {MAX_BIT}",
        _one_period_each,
        "exhaustive in float64; every |sine| is at least sin(pi / 2^(j+1)), far from 0, so its sign is certain",
        establishes=main,
    )
    halving_step = Equal(halving.lhs, halving.rhs, "each frequency is half the last")

    return Theorem(
        id="binary-bit",
        title=r"Bit $j$ of $p$ is the sign of a sinusoid of frequency $\pi / 2^j$",
        conclusions=(main, wave_period, bit_period, halving),
        steps=(wave_chain, bit_step, one_period, halving_step),
        witness=Witness(
            "binary(2^16, 16) against the 40-digit sign formula at 400 random (p, j): number of mismatched bits",
            numeric.binary_bit,
            0.0,
            licenses="posenc_math.encodings.binary",
        ),
        negative_control=Conclusion(
            bit(p), half_of(sympy.Add(1, sign(sympy.sin(angle(p))), evaluate=False)), over=(p, j)
        ),
        scope="instances",
        scope_note=(
            f"both sides have period $2^{{j+1}}$ in $p$, proved symbolically for every $j$; within one period "
            f"the formula is checked exhaustively for $j = 0, \\ldots, {MAX_BIT}$, so it holds for "
            f"every $p$ and $j \\le {MAX_BIT}$"
        ),
        proof=(
            r"Both sides repeat when $p$ grows by $2^{j+1}$:",
            wave_chain,
            bit_step,
            r"so it is enough to check one period, $0 \le p < 2^{j+1}$: there the angle runs through "
            r"$(0, \pi)$ while bit $j$ is $0$ and through $(\pi, 2\pi)$ while it is $1$.",
        ),
        lead=(
            r"For integers $p \ge 0$ and $j \ge 0$, bit $j$ of $p$ is $\lfloor p/2^j\rfloor \bmod 2$: divide "
            r"by $2^j$, round down ($\lfloor\cdot\rfloor$), and keep the remainder after dividing by $2$. The first "
            r"line says this bit is $1$ where the sinusoid is negative and $0$ where it is positive ($\operatorname"
            r"{sign}$ is $-1$, $0$ or $1$ as its argument is negative, zero or positive); the next two, that the "
            r"sinusoid and the bit both repeat every $2^{j+1}$ positions; the last, that each bit's frequency is "
            r"half the one before it. A first reading can skip the rest of this box and the proof after it:"
        ),
    )
