"""The translation matrix T(k): the linear map from PE(t) to PE(t + k)."""

from __future__ import annotations

import numpy as np

from .._validate import MAX_POSITION, check_choice, check_int, check_real, check_table_fits
from ._phase import reduced_angles
from .sinusoidal import LAYOUTS, _exact_frequencies

__all__ = ["translation_matrix"]


def translation_matrix(
    k: float, dim: int, *, base: float = 10000.0, layout: str = "interleaved", spacing: str = "paper"
) -> np.ndarray:
    """The matrix ``T`` with ``sinusoidal(...)[t + k] == T @ sinusoidal(...)[t]``.

    Each sine/cosine pair with frequency ``w`` is turned by the 2 x 2 block
    ``[[cos wk, sin wk], [-sin wk, cos wk]]``; ``T`` is block-diagonal in the
    interleaved layout and the same blocks, permuted, in the split layout.
    ``T`` depends on the offset ``k`` but not on the position ``t``
    (theorems ``shift-block`` and ``shift-full``).

    Parameters
    ----------
    k : int or float
        The offset, a real number with ``|k| <= 2**53`` (negative shifts
        backwards).  Larger offsets are refused: a float64 there is not even
        an integer apart from its neighbours, and the library promises exact
        angles only up to ``2**53``.
    dim : int
        Even width of the encoding, >= 2.
    base, layout, spacing
        As in :func:`posenc_math.sinusoidal`.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim, dim)``, float64, orthogonal.  Every entry is within
        1e-15 of the exact ``cos(k w_i)`` or ``sin(k w_i)`` for the float64
        value of ``k`` (exact angle reduction, see
        ``posenc_math.encodings._phase``).

    Raises
    ------
    ValueError
        ``|k| > 2**53``, ``k`` not finite, an odd or too small ``dim``, or a
        bad ``base``/``layout``/``spacing``.
    TypeError
        ``k`` not a real number (complex numbers included).

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
    if abs(k) > MAX_POSITION:
        raise ValueError(
            f"k must satisfy |k| <= 2**53 (= {MAX_POSITION}), where the rotation angles k w are exact; got k={k!r}"
        )
    dim = check_int("dim", dim, minimum=2)
    layout = check_choice("layout", layout, LAYOUTS)
    if dim % 2:
        raise ValueError(
            f"dim must be even for a translation matrix, got dim={dim} "
            "(the padding column of an odd table is constant; use dim - 1)"
        )
    check_table_fits((dim, dim), 8, f"dim={dim}")
    angles = reduced_angles(np.array(k), _exact_frequencies(dim, base, spacing), name="k")
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
