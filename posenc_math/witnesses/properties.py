"""Witnesses of the properties page's theorems (see :mod:`posenc_math.theorems.properties`)."""

from __future__ import annotations

import mpmath

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded


def _over_table_rows(theorem_id: str, quantity) -> float:
    """A quantity over rows of ``sinusoidal`` tables against its 40-digit formula.

    ``quantity(table, freqs, position, offset)`` returns (numpy value,
    mpmath value); the frequencies are the library's own, at 40 digits.
    """
    rng = seeded(theorem_id)
    errors = []
    for dim, spacing in ((128, "paper"), (64, "tensor2tensor")):
        freqs = [mpmath.mpf(float(f)) for f in encodings.frequencies(dim, spacing=spacing)]
        table = encodings.sinusoidal(2048, dim, spacing=spacing)
        with mp_context():
            for _ in range(5):
                position = rng.randrange(0, 1024)
                offset = rng.randrange(-position, 1024)
                computed, exact = quantity(table, freqs, position, offset)
                errors.append(mpmath.mpf(float(computed)) - exact)
    return largest_error(errors)


@witness("norm-constant")
def norm_constant() -> float:
    """|PE(t)|^2 from sinusoidal against d/2."""

    def quantity(table, freqs, position, offset):
        return table[position] @ table[position], mpmath.mpf(len(freqs))

    return _over_table_rows("norm-constant", quantity)


@witness("dot-relative")
def dot_relative() -> float:
    """PE(t) . PE(t + k) from sinusoidal against sum_i cos(omega_i k) at 40 digits."""

    def quantity(table, freqs, position, offset):
        exact = mpmath.fsum(mpmath.cos(f * offset) for f in freqs)
        return table[position] @ table[position + offset], exact

    return _over_table_rows("dot-relative", quantity)


@witness("dot-symmetric")
def dot_symmetric() -> float:
    """PE(t) . PE(t - k) from sinusoidal against sum_i cos(omega_i k) at 40 digits."""

    def quantity(table, freqs, position, offset):
        step = min(abs(offset), position)
        return table[position] @ table[position - step], mpmath.fsum(mpmath.cos(f * step) for f in freqs)

    return _over_table_rows("dot-symmetric", quantity)


@witness("distance-relative")
def distance_relative() -> float:
    """|PE(t + k) - PE(t)|^2 from sinusoidal against 4 sum_i sin^2(omega_i k / 2) at 40 digits."""

    def quantity(table, freqs, position, offset):
        gap = table[position + offset] - table[position]
        exact = 4 * mpmath.fsum(mpmath.sin(f * offset / 2) ** 2 for f in freqs)
        return gap @ gap, exact

    return _over_table_rows("distance-relative", quantity)


@witness("injective")
def injective() -> float:
    """The first pair's squared distance between positions 0 and n against 4 sin^2(n/2), relative."""
    errors = []
    table = encodings.sinusoidal(2049, 64)
    with mp_context():
        for offset in (1, 2, 7, 44, 355, 710, 2048):
            numpy_gap = float(((table[offset, :2] - table[0, :2]) ** 2).sum())
            exact = 4 * mpmath.sin(mpmath.mpf(offset) / 2) ** 2
            errors.append((mpmath.mpf(numpy_gap) - exact) / exact)
    return largest_error(errors)
