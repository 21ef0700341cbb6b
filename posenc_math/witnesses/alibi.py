"""Witnesses of the ALiBi page's theorems (see :mod:`posenc_math.theorems.alibi`)."""

from __future__ import annotations

import mpmath
import numpy as np

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded

#: Head counts for which ALiBi's slopes form one geometric sequence: 1 .. 256.
POWERS_OF_TWO = tuple(2**p for p in range(9))


@witness("alibi-geometric")
def alibi_geometric() -> float:
    """alibi_slopes(n) against 2^(-8h/n) at 40 digits, relative, n a power of two up to 1024."""
    errors = []
    with mp_context():
        for n_heads in (*POWERS_OF_TWO, 512, 1024):
            slopes = encodings.alibi_slopes(n_heads)
            ratio = mpmath.power(2, -mpmath.mpf(8) / n_heads)
            for head, value in enumerate(slopes, start=1):
                exact = ratio**head  # 2^(-8h/n); an integer power, exact to the working 40 digits
                errors.append((mpmath.mpf(float(value)) - exact) / exact)
    return largest_error(errors)


@witness("softmax-shift-invariance")
def softmax_shift_invariance() -> float:
    """softmax of shifted rows, and key-only ALiBi with its mask, against the 40-digit formulas."""
    rng = seeded("softmax-shift-invariance")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        # softmax of a shifted row (numpy subtracts the row's maximum) vs the 40-digit formula
        # exp(x_i) / sum_j exp(x_j) on the very same float64 row, nothing subtracted
        # shifts beyond float64's exp range (|x| > 709.8) included: exp alone would overflow or give 0/0
        for shift in (-800.0, -700.0, -30.0, 0.5, 30.0, 700.0, 800.0):
            row = nrng.normal(scale=4.0, size=7) + shift
            exps = [mpmath.exp(mpmath.mpf(float(v))) for v in row]
            total = mpmath.fsum(exps)
            errors += [mpmath.mpf(float(a)) - e / total for a, e in zip(encodings.softmax(row), exps, strict=True)]
        # key-only ALiBi (alibi_key_bias + mask) vs the 40-digit relative bias -m (i - j)
        n_heads, size = 8, 12
        raw = nrng.normal(size=(n_heads, size, size))
        attention = encodings.softmax(raw + encodings.alibi_key_bias(n_heads, size) + encodings.causal_mask(size))
        for head, slope in enumerate(encodings.alibi_slopes(n_heads)):
            for query in range(size):
                exps = [
                    mpmath.exp(mpmath.mpf(float(raw[head, query, key])) - mpmath.mpf(float(slope)) * (query - key))
                    for key in range(query + 1)
                ]
                total = mpmath.fsum(exps)
                errors += [mpmath.mpf(float(attention[head, query, key])) - e / total for key, e in enumerate(exps)]
                errors += [mpmath.mpf(float(v)) for v in attention[head, query, query + 1 :]]
    return largest_error(errors)
