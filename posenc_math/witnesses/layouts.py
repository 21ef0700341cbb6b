"""Witnesses of the layouts page's theorems (see :mod:`posenc_math.theorems.layouts`)."""

from __future__ import annotations

import mpmath

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded


@witness("spacing-relation")
def spacing_relation() -> float:
    """sinusoidal at base 10000^(d/(d-2)) against tensor2tensor's sines at 40 digits."""
    rng = seeded("spacing-relation")
    errors = []
    with mp_context():
        for dim in (4, 8, 64, 512):
            table = encodings.sinusoidal(257, dim, base=10000.0 ** (dim / (dim - 2)))
            half = dim // 2
            for _ in range(8):
                position, pair_index = rng.randrange(257), rng.randrange(half)
                frequency = mpmath.mpf(10000) ** (-mpmath.mpf(pair_index) / (half - 1))
                errors.append(mpmath.mpf(float(table[position, 2 * pair_index])) - mpmath.sin(position * frequency))
    return largest_error(errors)


@witness("layout-permutation")
def layout_permutation() -> float:
    """The split layout's sine and cosine columns against the 40-digit values, every pair, d = 2 .. 128."""
    rng = seeded("layout-permutation")
    errors = []
    with mp_context():
        for dim in (*range(2, 18, 2), 32, 64, 128):
            split_table = encodings.sinusoidal(64, dim, layout="split")
            freqs = [mpmath.mpf(float(v)) for v in encodings.frequencies(dim)]
            half = dim // 2
            position = rng.randrange(64)
            for pair_index in range(half):
                angle = position * freqs[pair_index]
                errors.append(mpmath.mpf(float(split_table[position, pair_index])) - mpmath.sin(angle))
                errors.append(mpmath.mpf(float(split_table[position, half + pair_index])) - mpmath.cos(angle))
    return largest_error(errors)
