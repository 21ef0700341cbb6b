"""Binary position codes: the discrete ancestor of the sinusoidal table."""

from __future__ import annotations

import numpy as np

from .._validate import check_int, check_table_fits

__all__ = ["binary"]


def binary(n_positions: int, n_bits: int) -> np.ndarray:
    """Bits of the positions ``0 .. n_positions - 1``, least significant first.

    Column ``j`` is bit ``j`` of the position, so column 0 flips at every
    step, as column 0 of the sinusoidal table oscillates fastest; bit ``j``
    has period ``2 ** (j + 1)`` (theorem ``binary-bit``).

    Parameters
    ----------
    n_positions : int
        Number of rows, >= 1.
    n_bits : int
        Number of columns, >= 1; the positions must fit:
        ``n_positions <= 2 ** n_bits``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, n_bits)``, int64 zeros and ones.

    Examples
    --------
    >>> binary(4, 3)
    array([[0, 0, 0],
           [1, 0, 0],
           [0, 1, 0],
           [1, 1, 0]])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    n_bits = check_int("n_bits", n_bits, minimum=1)
    needed = (n_positions - 1).bit_length()
    if needed > n_bits:
        raise ValueError(
            f"n_bits={n_bits} cannot tell {n_positions} positions apart; "
            f"n_positions={n_positions} needs n_bits >= {needed}"
        )
    if n_bits > 63:
        raise ValueError(f"n_bits must be <= 63 (int64 positions), got {n_bits}")
    check_table_fits((n_positions, n_bits), 8, f"n_positions={n_positions}, n_bits={n_bits}")
    positions = np.arange(n_positions, dtype=np.int64)[:, None]
    return (positions >> np.arange(n_bits, dtype=np.int64)) & 1
