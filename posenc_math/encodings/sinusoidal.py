"""The sinusoidal encoding of Vaswani et al. in the layouts code uses.

Conventions, stated once: a table has one row per position and ``dim``
columns; ``m = dim // 2`` sine/cosine pairs share the angular frequencies
``w_0 > w_1 > ... > w_{m-1}``.

* ``spacing="paper"``: ``w_i = base ** (-2 i / dim)`` (Vaswani et al. 2017,
  the PyTorch tutorial, Hugging Face Marian).  The slowest wavelength is
  ``2 pi base ** ((dim - 2) / dim)``, *not* ``2 pi base``.
* ``spacing="tensor2tensor"``: ``w_i = base ** (-i / (m - 1))``
  (tensor2tensor's ``get_timing_signal_1d``, fairseq, Hugging Face M2M100);
  the slowest wavelength is exactly ``2 pi base``.
* ``layout="interleaved"``: column ``2i`` is ``sin(p w_i)``, ``2i + 1`` is
  ``cos(p w_i)``.  ``layout="split"``: ``[sin(p w_0..w_{m-1}) |
  cos(p w_0..w_{m-1})]``.

For an odd ``dim`` the ``m`` pairs are those of ``dim - 1`` and a zero column
is appended (``odd="pad"``, the tensor2tensor and fairseq convention).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_base, check_choice, check_int, check_real, check_table_fits
from ._phase import fill_table, frequencies_extended

__all__ = ["frequencies", "sinusoidal", "timing_signal", "wavelengths"]

LAYOUTS = ("interleaved", "split")
SPACINGS = ("paper", "tensor2tensor")
ODD_RULES = ("error", "pad")


def _pair_count(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    return dim // 2


def _frequencies_extended(dim, base, spacing) -> np.ndarray:
    """Validated frequencies in extended precision (see ``frequencies``)."""
    n_pairs = _pair_count(dim)
    base = check_base(base)
    spacing = check_choice("spacing", spacing, SPACINGS)
    if spacing == "paper":
        denominator = n_pairs
    else:
        denominator = max(n_pairs - 1, 1)
    return frequencies_extended(n_pairs, base, denominator)


def frequencies(dim, *, base=10000.0, spacing="paper") -> np.ndarray:
    """Angular frequencies of the ``dim // 2`` sine/cosine pairs.

    Parameters
    ----------
    dim : int
        Width of the encoding, at least 2.  An odd width has ``dim // 2``
        pairs, the same as ``dim - 1``.
    base : float, default 10000.0
        The base of the geometric progression, a finite number > 1.
    spacing : {"paper", "tensor2tensor"}
        ``"paper"``: ``w_i = base ** (-2 i / dim)``;
        ``"tensor2tensor"``: ``w_i = base ** (-i / (dim // 2 - 1))``.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, float64, decreasing from ``w_0 = 1``.

    References
    ----------
    .. [1] A. Vaswani et al., "Attention is all you need", NeurIPS 2017.

    Examples
    --------
    >>> frequencies(8)
    array([1.   , 0.1  , 0.01 , 0.001])
    >>> float(frequencies(8, spacing="tensor2tensor")[-1])
    0.0001
    """
    return _frequencies_extended(dim, base, spacing).astype(np.float64)


def wavelengths(dim, *, base=10000.0, spacing="paper") -> np.ndarray:
    """Wavelengths ``2 pi / w_i`` of the pairs, in positions.

    Parameters are those of :func:`frequencies`.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, increasing from ``2 pi``.  With the paper's
        spacing the last is ``2 pi base ** ((dim - 2) / dim)``; with
        tensor2tensor's it is ``2 pi base``.

    Examples
    --------
    >>> w = wavelengths(512)
    >>> round(float(w[0]), 6), round(float(w[-1] / (2 * np.pi)))
    (6.283185, 9647)
    >>> round(wavelengths(512, spacing="tensor2tensor")[-1] / (2 * np.pi))
    10000
    """
    freqs = _frequencies_extended(dim, base, spacing)
    return (2 * np.pi / freqs).astype(np.float64)


def _table(n_positions, width, freqs, *, start, layout, pad, what) -> np.ndarray:
    """Allocate and fill an ``(n_positions, width)`` table."""
    check_table_fits((n_positions, width), 8, what)
    out = np.empty((n_positions, width), dtype=np.float64)
    n_paired = 2 * freqs.shape[0]
    if pad:
        out[:, n_paired:] = 0.0
    fill_table(out[:, :n_paired], start, freqs, layout)
    return out


def sinusoidal(
    n_positions,
    dim,
    *,
    base=10000.0,
    layout="interleaved",
    spacing="paper",
    start=0,
    odd="error",
) -> np.ndarray:
    """The sinusoidal position table, one row per position.

    Parameters
    ----------
    n_positions : int
        Number of rows (positions ``start .. start + n_positions - 1``), >= 1.
    dim : int
        Number of columns, >= 2; odd only with ``odd="pad"``.
    base : float, default 10000.0
        Base of the frequency progression, finite and > 1.
    layout : {"interleaved", "split"}
        Column order; see the module docstring.
    spacing : {"paper", "tensor2tensor"}
        Frequency progression; see :func:`frequencies`.
    start : int, default 0
        First position (fairseq, for example, starts after the padding index).
    odd : {"error", "pad"}
        What an odd ``dim`` does: raise, or append a zero column to the table
        of ``dim - 1``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, dim)``, float64.

    Raises
    ------
    TypeError
        A size that is not an integer, a base that is not a number.
    ValueError
        Sizes < 1, an odd ``dim`` with ``odd="error"``, a base <= 1 or not
        finite, an unknown ``layout``/``spacing``/``odd``, or a table larger
        than the memory available.

    Notes
    -----
    Angles are reduced in extended precision and the rows are produced by
    block rotations (the translation theorem used as an algorithm), so the
    table agrees with the exact formula to about 1e-15 and is built several
    times faster than ``np.sin``/``np.cos`` over the whole table.

    Examples
    --------
    >>> table = sinusoidal(3, 4)
    >>> table.round(4)
    array([[ 0.    ,  1.    ,  0.    ,  1.    ],
           [ 0.8415,  0.5403,  0.01  ,  1.    ],
           [ 0.9093, -0.4161,  0.02  ,  0.9998]])
    >>> sinusoidal(3, 4, layout="split")[1].round(4)
    array([0.8415, 0.01  , 0.5403, 1.    ])
    >>> sinusoidal(2, 5, odd="pad")[:, -1]
    array([0., 0.])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = check_int("dim", dim, minimum=2)
    layout = check_choice("layout", layout, LAYOUTS)
    odd = check_choice("odd", odd, ODD_RULES)
    start = check_int("start", start)
    if dim % 2 and odd == "error":
        raise ValueError(
            f"dim must be even for a sinusoidal table, got dim={dim}; "
            "pass odd='pad' to append a zero column to the table of dim - 1"
        )
    freqs = _frequencies_extended(dim, base, spacing)
    return _table(
        n_positions,
        dim,
        freqs,
        start=start,
        layout=layout,
        pad=bool(dim % 2),
        what=f"n_positions={n_positions}, dim={dim}",
    )


def timing_signal(length, channels, min_timescale=1.0, max_timescale=1.0e4, start_index=0) -> np.ndarray:
    """tensor2tensor's ``get_timing_signal_1d``, argument for argument.

    For readers porting tensor2tensor code: the split layout
    ``[sin | cos]``, timescales from ``min_timescale`` to ``max_timescale`` in
    a geometric progression over ``channels // 2`` pairs, a zero column for
    an odd ``channels``, and the leading batch axis of size 1.

    Parameters
    ----------
    length : int
        Number of positions, >= 1.
    channels : int
        Width, >= 2.
    min_timescale, max_timescale : float
        Positive, ``max_timescale > min_timescale``.
    start_index : int
        First position.

    Returns
    -------
    numpy.ndarray
        Shape ``(1, length, channels)``, float64.

    Notes
    -----
    tensor2tensor multiplies the inverse timescales by ``min_timescale``
    where ``1 / min_timescale`` would give the stated timescales; the two
    agree for the default ``min_timescale=1``.  This function reproduces the
    code, not the docstring, so ported results stay identical.

    Examples
    --------
    >>> signal = timing_signal(4, 6)
    >>> signal.shape
    (1, 4, 6)
    >>> bool(np.allclose(signal[0], sinusoidal(4, 6, layout="split",
    ...                                        spacing="tensor2tensor")))
    True
    """
    length = check_int("length", length, minimum=1)
    channels = check_int("channels", channels, minimum=2)
    min_timescale = check_real("min_timescale", min_timescale)
    max_timescale = check_real("max_timescale", max_timescale)
    start_index = check_int("start_index", start_index)
    if min_timescale <= 0:
        raise ValueError(f"min_timescale must be > 0, got {min_timescale!r}")
    if max_timescale <= min_timescale:
        raise ValueError(
            "max_timescale must be greater than min_timescale, got "
            f"min_timescale={min_timescale!r}, max_timescale={max_timescale!r}"
        )
    n_pairs = channels // 2
    freqs = np.longdouble(min_timescale) * frequencies_extended(
        n_pairs, max_timescale / min_timescale, max(n_pairs - 1, 1)
    )
    table = _table(
        length,
        channels,
        freqs,
        start=start_index,
        layout="split",
        pad=bool(channels % 2),
        what=f"length={length}, channels={channels}",
    )
    return table[None]
