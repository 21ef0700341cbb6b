"""The translation matrix T(k): the linear map from PE(t) to PE(t + k)."""

from __future__ import annotations

import numpy as np

from .._validate import check_choice, check_int, check_real, check_table_fits
from ._phase import reduced_angles
from .sinusoidal import LAYOUTS, _frequencies_extended

__all__ = ["translation_matrix"]


def translation_matrix(k, dim, *, base=10000.0, layout="interleaved", spacing="paper"):
    """The matrix ``T`` with ``sinusoidal(...)[t + k] == T @ sinusoidal(...)[t]``.

    Each sine/cosine pair with frequency ``w`` is turned by the 2 x 2 block
    ``[[cos wk, sin wk], [-sin wk, cos wk]]``; ``T`` is block-diagonal in the
    interleaved layout and the same blocks, permuted, in the split layout.
    ``T`` depends on the offset ``k`` but not on the position ``t``
    (theorems ``shift-block`` and ``shift-full``).

    Parameters
    ----------
    k : int or float
        The offset; any finite real number (negative shifts backwards).
    dim : int
        Even width of the encoding, >= 2.
    base, layout, spacing
        As in :func:`posenc_math.sinusoidal`.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim, dim)``, float64, orthogonal.

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> table = sinusoidal(20, 8)
    >>> shift = translation_matrix(5, 8)
    >>> bool(np.allclose(table[12], shift @ table[7]))
    True
    >>> translation_matrix(np.pi / 2, 2).round(12) + 0.0
    array([[ 0.,  1.],
           [-1.,  0.]])
    """
    k = check_real("k", k)
    dim = check_int("dim", dim, minimum=2)
    layout = check_choice("layout", layout, LAYOUTS)
    if dim % 2:
        raise ValueError(
            f"dim must be even for a translation matrix, got dim={dim} "
            "(the padding column of an odd table is constant; use dim - 1)"
        )
    check_table_fits((dim, dim), 8, f"dim={dim}")
    angles = reduced_angles(np.array(k), _frequencies_extended(dim, base, spacing))
    cos, sin = np.cos(angles), np.sin(angles)
    n_pairs = dim // 2
    if layout == "interleaved":
        sin_rows = np.arange(0, dim, 2)
        cos_rows = sin_rows + 1
    else:
        sin_rows = np.arange(n_pairs)
        cos_rows = sin_rows + n_pairs
    matrix = np.zeros((dim, dim))
    matrix[sin_rows, sin_rows] = cos
    matrix[sin_rows, cos_rows] = sin
    matrix[cos_rows, sin_rows] = -sin
    matrix[cos_rows, cos_rows] = cos
    return matrix
