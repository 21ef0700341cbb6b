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
from numpy.typing import DTypeLike

from .._validate import (
    MAX_POSITION,
    check_base,
    check_choice,
    check_float_dtype,
    check_int,
    check_memory,
    check_real,
)
from ._phase import FREQUENCY_BYTES, build_table, exact_frequencies, table_peak_bytes

__all__ = ["frequencies", "sinusoidal", "timing_signal", "wavelengths"]

LAYOUTS = ("interleaved", "split")
SPACINGS = ("paper", "tensor2tensor")
ODD_RULES = ("error", "pad")


def _pair_count(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    return dim // 2


def _spacing_denominator(n_pairs: int, spacing: str) -> int:
    return n_pairs if spacing == "paper" else max(n_pairs - 1, 1)


def _exact_frequencies(dim, base, spacing, *, first=0, stop=None):
    """Validated frequencies as double-doubles (see ``_phase.exact_frequencies``)."""
    n_pairs = _pair_count(dim)
    base = check_base(base)
    spacing = check_choice("spacing", spacing, SPACINGS)
    count = n_pairs if stop is None else stop - first
    check_memory(FREQUENCY_BYTES * count, f"the frequencies of dim={dim}")
    return exact_frequencies(n_pairs, base, _spacing_denominator(n_pairs, spacing), first=first, stop=stop)


def frequencies(dim: int, *, base: float = 10000.0, spacing: str = "paper") -> np.ndarray:
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
        Shape ``(dim // 2,)``, float64, decreasing from ``w_0 = 1``: each
        the float64 nearest the exact ``base ** (-2 i / dim)`` (computed by
        mpmath; the tables use these values to about 106 bits).

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
    return _exact_frequencies(dim, base, spacing)[0].copy()


def wavelengths(dim: int, *, base: float = 10000.0, spacing: str = "paper") -> np.ndarray:
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
    hi, lo = _exact_frequencies(dim, base, spacing)
    return 2 * np.pi / hi * (1.0 - lo / hi)


def _check_positions(n_positions: int, start: int, start_name: str, count_name: str) -> None:
    """Refuse positions beyond 2**53 (not exact in float64) before any work."""
    last = start + n_positions - 1
    if abs(start) > MAX_POSITION or abs(last) > MAX_POSITION:
        raise ValueError(
            f"positions {start_name} .. {start_name} + {count_name} - 1 must lie within |p| <= 2**53 "
            f"(exact in float64); got {start_name}={start}, {count_name}={n_positions}"
        )


def _table(n_positions, width, n_pairs, frequencies_of, *, start, layout, dtype, what) -> np.ndarray:
    """Check the peak memory, then allocate and fill an ``(n_positions, width)`` table."""
    check_memory(table_peak_bytes(n_positions, width, n_pairs, dtype.itemsize), what)
    return build_table(
        n_positions, width, n_pairs, start=start, layout=layout, dtype=dtype, frequencies_of=frequencies_of
    )


def sinusoidal(
    n_positions: int,
    dim: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    spacing: str = "paper",
    start: int = 0,
    odd: str = "error",
    dtype: DTypeLike = "float64",
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
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format of the result (a name, a numpy type or a dtype):
        the float64 table rounded once to nearest.  ``bfloat16`` needs the
        ``ml_dtypes`` package (``pip install 'posenc-math[precision]'``).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, dim)``, of ``dtype``.

    Raises
    ------
    TypeError
        A size that is not an integer, a base that is not a number.
    ValueError
        Sizes < 1, an odd ``dim`` with ``odd="error"``, a base <= 1 or not
        finite, an unknown ``layout``/``spacing``/``odd``/``dtype``,
        positions beyond ``|p| <= 2**53``, or a table whose peak memory
        (estimated before any work) exceeds the memory available; that last
        error is also a ``MemoryError``.

    Notes
    -----
    Guaranteed accuracy: for every position ``|p| <= 2**31`` every float64
    entry is within 1e-14 of the exact ``sin(p w_i)`` or ``cos(p w_i)``
    (the frequencies are exact to about 106 bits and the angle is reduced
    exactly, see ``posenc_math.encodings._phase``; measured: below 1e-15).
    Up to ``|p| <= 2**53`` the error stays below 1e-14 as well (measured
    about 4e-16 near 2**53, tested).  Rows come from block rotations (the
    translation theorem used as an algorithm), so the table is built several
    times faster than ``np.sin``/``np.cos`` over the whole table, and the
    peak memory is at most about 1.3 times the output for tall tables and
    twice it for wide ones.

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
    >>> sinusoidal(2, 4, dtype="float16")[1]
    array([0.8413, 0.5405, 0.01  , 1.    ], dtype=float16)
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = check_int("dim", dim, minimum=2)
    layout = check_choice("layout", layout, LAYOUTS)
    odd = check_choice("odd", odd, ODD_RULES)
    start = check_int("start", start)
    base = check_base(base)
    spacing = check_choice("spacing", spacing, SPACINGS)
    dtype = check_float_dtype(dtype)
    if dim % 2 and odd == "error":
        raise ValueError(
            f"dim must be even for a sinusoidal table, got dim={dim}; "
            "pass odd='pad' to append a zero column to the table of dim - 1"
        )
    _check_positions(n_positions, start, "start", "n_positions")
    n_pairs = dim // 2
    denominator = _spacing_denominator(n_pairs, spacing)
    return _table(
        n_positions,
        dim,
        n_pairs,
        lambda first, stop: exact_frequencies(n_pairs, base, denominator, first=first, stop=stop),
        start=start,
        layout=layout,
        dtype=dtype,
        what=f"sinusoidal(n_positions={n_positions}, dim={dim}, dtype={dtype.name})",
    )


def timing_signal(
    length: int,
    channels: int,
    min_timescale: float = 1.0,
    max_timescale: float = 1.0e4,
    start_index: int = 0,
    *,
    dtype: DTypeLike = "float64",
) -> np.ndarray:
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
        First position, ``|start_index| <= 2**53`` (as every position).
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format: the float64 signal rounded once (see
        :func:`sinusoidal`).

    Returns
    -------
    numpy.ndarray
        Shape ``(1, length, channels)``, of ``dtype``; as accurate as
        :func:`sinusoidal` for the exact ``min_timescale`` times
        ``(max_timescale / min_timescale) ** (-i / (channels // 2 - 1))``.

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
    dtype = check_float_dtype(dtype)
    _check_positions(length, start_index, "start_index", "length")
    n_pairs = channels // 2
    denominator = max(n_pairs - 1, 1)

    def frequencies_of(first, stop):
        return exact_frequencies(
            n_pairs,
            max_timescale,
            denominator,
            scale=min_timescale,
            base_divisor=min_timescale,
            first=first,
            stop=stop,
        )

    table = _table(
        length,
        channels,
        n_pairs,
        frequencies_of,
        start=start_index,
        layout="split",
        dtype=dtype,
        what=f"timing_signal(length={length}, channels={channels}, dtype={dtype.name})",
    )
    return table[None]
