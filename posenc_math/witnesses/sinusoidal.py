"""Witnesses of the sinusoidal page's theorems (see :mod:`posenc_math.theorems.sinusoidal`)."""

from __future__ import annotations

import mpmath

from .. import encodings
from . import witness
from ._common import largest_error, mp_context


@witness("wavelength-range")
def wavelength_range() -> float:
    """The first and last wavelengths against 2 pi and 2 pi b^((d-2)/d) (tensor2tensor: 2 pi b), relative."""
    errors = []
    with mp_context():
        for dim in (8, 64, 128, 512, 1024):
            for b_ in (10000.0, 500000.0):
                lam = encodings.wavelengths(dim, base=b_)
                bm = mpmath.mpf(b_)
                errors.append((mpmath.mpf(float(lam[0])) - 2 * mpmath.pi) / (2 * mpmath.pi))
                exact = 2 * mpmath.pi * bm ** (mpmath.mpf(dim - 2) / dim)
                errors.append((mpmath.mpf(float(lam[-1])) - exact) / exact)
                lam2 = encodings.wavelengths(dim, base=b_, spacing="tensor2tensor")
                errors.append((mpmath.mpf(float(lam2[-1])) - 2 * mpmath.pi * bm) / (2 * mpmath.pi * bm))
    return largest_error(errors)
