"""The binary-counter analogy: bits are signs of sinusoids of halving frequency."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy
from sympy import Mod, floor, pi, sin

from ..analysis import halving_sinusoids
from ..encodings import binary
from ._common import mp_context
from .core import Chain, Equal, Fact, Theorem, Witness
from .registry import register

#: Bits checked exhaustively over one whole period each: j = 0 .. MAX_BIT.
MAX_BIT = 10


def _bit_from_sign(position: int, bit: int, sign_flip: int = -1) -> int:
    """(1 - sign sin(pi (t + 1/2) / 2^j)) / 2 at 30 digits (``sign_flip=+1``: the wrong variant)."""
    value = mpmath.sin(mpmath.pi * (position + mpmath.mpf(1) / 2) / 2**bit)
    return int((1 + sign_flip * mpmath.sign(value)) / 2)


def _one_period_each(sign_flip: int = -1) -> bool:
    with mp_context(30):
        return all(
            _bit_from_sign(position, bit, sign_flip) == (position >> bit) & 1
            for bit in range(MAX_BIT + 1)
            for position in range(2 ** (bit + 1))
        )


@register("binary-bit", page="binary")
def binary_bit() -> Theorem:
    t = sympy.Symbol("t", integer=True, nonnegative=True)
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    i = sympy.Symbol("i", integer=True, nonnegative=True)
    base = sympy.Symbol("b", positive=True)
    d = sympy.Symbol("d", positive=True, even=True)
    wave = lambda position: sin(pi * (position + sympy.Rational(1, 2)) / 2**j)  # noqa: E731
    bit = lambda position: Mod(floor(position / 2**j), 2)  # noqa: E731

    def witness():
        n_bits = 16
        waves = halving_sinusoids(2**n_bits, n_bits)
        mismatches = np.count_nonzero((waves < 0) != (binary(2**n_bits, n_bits) == 1))
        return float(mismatches)

    return Theorem(
        id="binary-bit",
        title="Bit j of t is the sign of a sinusoid of frequency pi / 2^j",
        statement=(
            r"\operatorname{bit}_j(t) = \frac{1 - \operatorname{sign}\sin\big(\pi (t + \tfrac12)/2^j\big)}{2}"
            r"\ \text{for every integer } t \ge 0;\\ \text{the frequencies } \pi/2^j \text{ halve from bit to bit,}"
            r"\text{ where the sinusoidal encoding's shrink by the factor } b^{-2/d}"
        ),
        assumptions=[
            r"$t \ge 0$ and $j \ge 0$ integers",
            f"both sides have period $2^{{j+1}}$ in $t$ (proved symbolically); one period is checked "
            f"exhaustively for $j = 0, \\dots, {MAX_BIT}$ with 30-digit signs",
        ],
        steps=[
            Chain(
                wave(t + 2 ** (j + 1)),
                [
                    (sin(pi * (t + sympy.Rational(1, 2)) / 2**j + 2 * pi), "2^(j+1) / 2^j = 2"),
                    (wave(t), "sine has period 2 pi"),
                ],
            ),
            Equal(bit(t + 2 ** (j + 1)), bit(t), "adding 2^(j+1) adds 2 to t / 2^j: bit j is unchanged"),
            Fact(
                f"(1 - sign sin(pi (t + 1/2) / 2^j)) / 2 equals bit j of t for t in one period, j = 0 .. {MAX_BIT}",
                _one_period_each,
                "exhaustive, 30-digit mpmath; no sample is near a zero of the sine",
            ),
            Equal((pi / 2 ** (j + 1)) / (pi / 2**j), sympy.Rational(1, 2), "binary: each frequency is half the last"),
            Equal(base ** (-2 * (i + 1) / d) / base ** (-2 * i / d), base ** (-2 / d), "sinusoidal: ratio b^(-2/d)"),
        ],
        witness=Witness(
            "binary(2^16, 16) against the signs of halving_sinusoids: number of mismatched bits",
            witness,
            0.0,
            licenses="binary",
        ),
        negative_control=Fact(
            "bit j of t equals (1 + sign sin(pi (t + 1/2) / 2^j)) / 2",
            lambda: _one_period_each(sign_flip=+1),
        ),
        negative_control_text=r"$\operatorname{bit}_j(t) = (1 + \operatorname{sign}\sin(\pi(t+\tfrac12)/2^j))/2$ (the sign read the wrong way)",
    )
