"""Witnesses of the binary page's theorems (see :mod:`posenc_math.theorems.binary`)."""

from __future__ import annotations

import mpmath

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded


def _bit_from_sign(position: int, bit: int, flip: int = -1) -> int:
    """(1 - sign sin(pi (t + 1/2) / 2^j)) / 2 at the current mpmath precision (``flip=+1``: read the wrong way)."""
    value = mpmath.sin(mpmath.pi * (position + mpmath.mpf(1) / 2) / 2**bit)
    return int((1 + flip * mpmath.sign(value)) / 2)


@witness("binary-bit")
def binary_bit() -> float:
    """The number of mismatches between binary(2**16, 16) and the sign formula at 400 seeded (t, j)."""
    rng = seeded("binary-bit")
    bits = 16
    table = encodings.binary(2**bits, bits)
    mismatches = 0
    with mp_context():
        for _ in range(400):
            position, which = rng.randrange(2**bits), rng.randrange(bits)
            mismatches += int(table[position, which]) != _bit_from_sign(position, which)
    return largest_error([mismatches])
