"""Measurements on sinusoidal tables: the numbers the explainer pages quote.

Each function computes one thing a page states, so that the page shows a
computed number instead of an asserted one:

* :func:`dot_product_by_offset`, :func:`distance_by_offset` and
  :func:`first_increase`: how alike two positions ``k`` apart are, and
  whether that similarity really "decays" with ``k`` (it does not, strictly).
* :func:`halving_frequencies`, :func:`table_from_frequencies`,
  :func:`closest_earlier_row`, :func:`first_repeated_row` and
  :func:`count_distinct_rows`: the "clock" picture, where commensurate
  frequencies make the table periodic and the paper's do not.
* :func:`halving_sinusoids`: sinusoids whose signs are the bits of the
  position (the binary-counter analogy).
* :func:`low_precision_table`, :func:`exact_integer_limit` and
  :func:`rounding_bound`: what low floating-point precision does to a table.
* :func:`rope_mean_scores`: when the RoPE score decays on average over
  random vectors (aligned query and key) and when it does not (independent).

All arrays are float64 unless stated otherwise.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from ._validate import (
    FLOAT_DTYPES,
    MAX_POSITION,
    as_array,
    check_base,
    check_choice,
    check_float_dtype,
    check_int,
    check_real_array,
    check_table_fits,
)
from .encodings._phase import reduced_angles
from .encodings.sinusoidal import LAYOUTS, SPACINGS, _exact_frequencies, frequencies

__all__ = [
    "closest_earlier_row",
    "count_distinct_rows",
    "distance_by_offset",
    "dot_product_by_offset",
    "exact_integer_limit",
    "first_increase",
    "first_repeated_row",
    "halving_frequencies",
    "halving_sinusoids",
    "low_precision_table",
    "resolve_float_dtype",
    "rope_mean_scores",
    "rounding_bound",
    "table_from_frequencies",
]

#: Offsets summed per block in :func:`dot_product_by_offset` (bounds memory).
_BLOCK = 4096


def _even_dim(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (sine/cosine pairs), got dim={dim}")
    return dim


def _finite_table(name, table) -> np.ndarray:
    table = check_real_array(name, table)
    if table.ndim != 2 or 0 in table.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array (positions, dim), got shape {table.shape}")
    if not np.isfinite(table).all():
        raise ValueError(f"{name} must contain only finite values")
    return table


def _check_start(start: int, n_positions: int) -> None:
    if abs(start) > MAX_POSITION or abs(start + n_positions - 1) > MAX_POSITION:
        raise ValueError(
            f"positions start .. start + n_positions - 1 must lie within |p| <= 2**53; "
            f"got start={start}, n_positions={n_positions}"
        )


def dot_product_by_offset(
    max_offset: int, dim: int, *, base: float = 10000.0, spacing: str = "paper", _arrays: int = 1
) -> np.ndarray:
    """``<PE(t), PE(t + k)>`` for ``k = 0 .. max_offset``.

    The dot product of two rows of a sinusoidal table depends only on their
    offset ``k`` (theorem ``dot-relative``):
    ``<PE(t), PE(t + k)> = sum_i cos(k w_i)``.  That sum is what this
    function evaluates, in blocks, so offsets far beyond any table that fits
    in memory can be examined; the angles ``k w_i`` are exact (see
    ``posenc_math.encodings._phase``).  The layout does not matter (it only
    permutes columns).

    Parameters
    ----------
    max_offset : int
        Largest offset, >= 0 (the result has ``max_offset + 1`` entries,
        checked against the memory available).
    dim : int
        Even width of the table, >= 2.
    base, spacing
        As in :func:`posenc_math.frequencies`.

    Returns
    -------
    numpy.ndarray
        Shape ``(max_offset + 1,)``; entry 0 is ``dim / 2`` (the squared norm
        of every row).

    Examples
    --------
    >>> dots = dot_product_by_offset(3, 4)
    >>> dots.round(4)
    array([2.    , 1.5403, 0.5837, 0.0096])
    >>> from posenc_math import sinusoidal
    >>> table = sinusoidal(3, 4)
    >>> bool(np.isclose(dots[2], table[0] @ table[2]))
    True
    """
    max_offset = check_int("max_offset", max_offset, minimum=0)
    dim = _even_dim(dim)
    if max_offset > MAX_POSITION:
        raise ValueError(f"max_offset must be <= 2**53 (offsets exact in float64), got {max_offset}")
    freqs = _exact_frequencies(dim, base, spacing)
    # _arrays: how many arrays of this size the caller will hold at its peak
    check_table_fits((_arrays * (max_offset + 1),), 8, f"max_offset={max_offset}", extra_bytes=24 * _BLOCK * dim)
    out = np.empty(max_offset + 1, dtype=np.float64)
    for start in range(0, max_offset + 1, _BLOCK):
        offsets = np.arange(start, min(start + _BLOCK, max_offset + 1), dtype=np.int64)
        out[start : start + len(offsets)] = np.cos(reduced_angles(offsets, freqs)).sum(axis=1)
    return out


def distance_by_offset(max_offset: int, dim: int, *, base: float = 10000.0, spacing: str = "paper") -> np.ndarray:
    """Euclidean distance ``|PE(t + k) - PE(t)|`` for ``k = 0 .. max_offset``.

    Every row has squared norm ``dim / 2``, so the squared distance is
    ``dim - 2 <PE(t), PE(t + k)>`` (theorem ``distance-relative``), the same
    for every ``t``.  Hence ``distance_by_offset(n - 1, dim)[1:].min()`` is
    the distance between the two closest rows of *any* table of ``n``
    consecutive positions.

    Parameters are those of :func:`dot_product_by_offset`.

    Returns
    -------
    numpy.ndarray
        Shape ``(max_offset + 1,)``, entry 0 is 0.

    Examples
    --------
    >>> distance_by_offset(2, 4).round(4)
    array([0.    , 0.9589, 1.6831])
    """
    dots = dot_product_by_offset(max_offset, dim, base=base, spacing=spacing, _arrays=3)
    squared = np.maximum(dim - 2.0 * dots, 0.0)
    squared[0] = 0.0
    return np.sqrt(squared)


def first_increase(values: ArrayLike) -> int | None:
    """The first index ``k >= 1`` with ``values[k] > values[k - 1]``, or ``None``.

    Applied to :func:`dot_product_by_offset` it answers "does the
    similarity decay with distance?": a monotone decay has no such ``k``.

    Parameters
    ----------
    values : array_like, shape (n,)
        Finite numbers.

    Returns
    -------
    int or None

    Examples
    --------
    >>> first_increase([3.0, 2.0, 2.5, 1.0])
    2
    >>> first_increase([3.0, 2.0, 2.0]) is None
    True
    """
    values = check_real_array("values", values)
    if values.ndim != 1:
        raise ValueError(f"values must be 1-D, got shape {values.shape}")
    rises = np.flatnonzero(np.diff(values) > 0)
    return int(rises[0]) + 1 if rises.size else None


def halving_frequencies(n_pairs: int, *, first_period: float = 2.0) -> np.ndarray:
    """Commensurate angular frequencies ``w_j = 2 pi / (first_period 2^j)``.

    Pair ``j`` turns once every ``first_period * 2 ** j`` positions: each
    hand is twice as slow as the one before, like the bits of a binary
    counter (bit ``j`` has period ``2 ** (j + 1)``, the default).  All
    periods divide the last one, so a table built from them repeats with
    that period.

    Parameters
    ----------
    n_pairs : int
        Number of frequencies, >= 1.
    first_period : float, default 2.0
        Period of pair 0 in positions, a finite number > 0.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_pairs,)``.

    Examples
    --------
    >>> (2 * np.pi / halving_frequencies(4)).round(6)
    array([ 2.,  4.,  8., 16.])
    """
    from ._validate import check_real

    n_pairs = check_int("n_pairs", n_pairs, minimum=1)
    first_period = check_real("first_period", first_period)
    if first_period <= 0:
        raise ValueError(f"first_period must be a finite number > 0, got {first_period!r}")
    if n_pairs > 1000:
        raise ValueError(f"n_pairs must be <= 1000 (2 ** n_pairs overflows), got {n_pairs}")
    return 2.0 * np.pi / (first_period * 2.0 ** np.arange(n_pairs))


def table_from_frequencies(n_positions: int, freqs: ArrayLike, *, start: int = 0) -> np.ndarray:
    """An interleaved sine/cosine table for any angular frequencies.

    Column ``2j`` is ``sin(p w_j)``, column ``2j + 1`` is ``cos(p w_j)``
    for ``p = start .. start + n_positions - 1``: the layout of
    :func:`posenc_math.sinusoidal`, with the frequencies given instead of
    derived from a base, so that commensurate frequencies can be compared
    with the paper's.

    Parameters
    ----------
    n_positions : int
        Number of rows, >= 1.
    freqs : array_like, shape (n_pairs,)
        Finite real angular frequencies, radians per position (taken as the
        exact values of their float64s).
    start : int, default 0
        First position; every position within ``|p| <= 2**53``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, 2 * n_pairs)``; angles reduced exactly, so
        entries are within about 1e-15 of the exact sines and cosines.

    Examples
    --------
    >>> from posenc_math import frequencies, sinusoidal
    >>> bool(np.allclose(table_from_frequencies(5, frequencies(8)), sinusoidal(5, 8)))
    True
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    start = check_int("start", start)
    freqs = check_real_array("freqs", freqs)
    if freqs.ndim != 1 or freqs.size == 0:
        raise ValueError(f"freqs must be a non-empty 1-D array, got shape {freqs.shape}")
    _check_start(start, n_positions)
    check_table_fits(
        (n_positions, 2 * freqs.size),
        8,
        f"n_positions={n_positions}, n_pairs={freqs.size}",
        extra_bytes=24 * n_positions * freqs.size,
    )
    angles = reduced_angles(np.arange(start, start + n_positions, dtype=np.int64), freqs)
    table = np.empty((n_positions, 2 * freqs.size), dtype=np.float64)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table


def halving_sinusoids(n_positions: int, n_bits: int) -> np.ndarray:
    """``sin(pi (p + 1/2) / 2^j)``: sinusoids whose signs are the bits of ``p``.

    Column ``j`` has period ``2 ** (j + 1)``, as bit ``j`` of
    :func:`posenc_math.binary`, and is sampled half a step late, so that no
    sample falls on a zero.  Bit ``j`` of ``p`` is 1 exactly when the
    column is negative: ``binary(n, b) == (halving_sinusoids(n, b) < 0)``
    (theorem ``binary-bit``).

    Parameters
    ----------
    n_positions : int
        Number of rows (positions ``0 .. n_positions - 1``), >= 1.
    n_bits : int
        Number of columns, >= 1 and <= 63.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, n_bits)``, values in ``[-1, 1]``, none zero.

    Examples
    --------
    >>> from posenc_math import binary
    >>> waves = halving_sinusoids(8, 3)
    >>> bool(np.array_equal(waves < 0, binary(8, 3) == 1))
    True
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    n_bits = check_int("n_bits", n_bits, minimum=1)
    if n_bits > 63:
        raise ValueError(f"n_bits must be <= 63, got {n_bits}")
    check_table_fits((n_positions, n_bits), 8, f"n_positions={n_positions}, n_bits={n_bits}")
    positions = np.arange(n_positions, dtype=np.float64) + 0.5
    return np.sin(np.pi * positions[:, None] / 2.0 ** np.arange(n_bits))


def closest_earlier_row(table: ArrayLike) -> np.ndarray:
    """For each row ``p``, the distance to the nearest row ``q < p``.

    Entry 0 is ``inf`` (no earlier row).  A value of (nearly) zero at ``p``
    means position ``p`` looks like an earlier position: the encoding has
    come back to where it was.

    Parameters
    ----------
    table : array_like, shape (n_positions, dim)
        Finite values; at most 20,000 rows (the work grows as the square).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions,)``.

    Examples
    --------
    >>> closest_earlier_row([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    array([inf,  5.,  1.])
    """
    table = _finite_table("table", table)
    n_rows = table.shape[0]
    if n_rows > 20_000:
        raise ValueError(f"table must have at most 20000 rows, got {n_rows}")
    out = np.full(n_rows, np.inf)
    for row in range(1, n_rows):
        out[row] = np.sqrt(((table[:row] - table[row]) ** 2).sum(axis=1).min())
    return out


def _row_keys(table):
    table = np.ascontiguousarray(table)
    if table.dtype.kind == "f":
        table = table + table.dtype.type(0)  # -0.0 and 0.0 become the same bytes
    return [row.tobytes() for row in table]


def first_repeated_row(table: ArrayLike, *, start: int = 0) -> tuple[int, int] | None:
    """The first row that is bit-for-bit equal to an earlier row, or ``None``.

    Parameters
    ----------
    table : array_like, shape (n_positions, dim)
        Any numeric dtype; compared exactly in that dtype (so a float16
        table is compared at float16 precision).
    start : int, default 0
        Position of row 0, added to the answer (pass the ``start`` the table
        was built with to get positions rather than row indices).

    Returns
    -------
    tuple of (int, int) or None
        ``(p, q)`` with ``q < p`` and row ``p`` equal to row ``q``, for the
        smallest such ``p``.

    Examples
    --------
    >>> first_repeated_row(np.array([[1, 2], [3, 4], [1, 2]]))
    (2, 0)
    >>> first_repeated_row(np.array([[1, 2], [3, 4], [1, 2]]), start=10)
    (12, 10)
    >>> first_repeated_row(np.eye(3)) is None
    True
    """
    start = check_int("start", start)
    table = as_array("table", table)
    if table.ndim != 2 or 0 in table.shape:
        raise ValueError(f"table must be a non-empty 2-D array, got shape {table.shape}")
    seen: dict[bytes, int] = {}
    for row, key in enumerate(_row_keys(table)):
        if key in seen:
            return start + row, start + seen[key]
        seen[key] = row
    return None


def count_distinct_rows(table: ArrayLike) -> int:
    """How many different rows a table has, compared exactly in its dtype.

    Examples
    --------
    >>> count_distinct_rows([[1.0, 0.0], [1.0, 0.0], [0.0, -0.0], [0.0, 0.0]])
    2
    """
    table = as_array("table", table)
    if table.ndim != 2 or 0 in table.shape:
        raise ValueError(f"table must be a non-empty 2-D array, got shape {table.shape}")
    return len(set(_row_keys(table)))


_DTYPES = FLOAT_DTYPES


def resolve_float_dtype(dtype: DTypeLike) -> np.dtype:
    """The numpy dtype for one of ``"float16"``, ``"bfloat16"``, ``"float32"``, ``"float64"``.

    ``bfloat16`` comes from the ``ml_dtypes`` package (the ``precision``
    extra); without it the error says ``pip install 'posenc-math[precision]'``.

    Examples
    --------
    >>> resolve_float_dtype("float16")
    dtype('float16')
    """
    return check_float_dtype(dtype)


def _finfo(dtype):
    if dtype.name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.finfo(dtype)
    return np.finfo(dtype)


def exact_integer_limit(dtype: DTypeLike) -> int:
    """The largest ``N`` such that every integer ``0 .. N`` is exact in ``dtype``.

    That is ``2 ** (mantissa bits + 1)``.  Position ``N + 1`` is the first
    that rounds to a neighbour, so a table whose positions are held in
    ``dtype`` repeats a row there.

    Parameters
    ----------
    dtype : {"float16", "bfloat16", "float32", "float64"}

    Returns
    -------
    int

    Examples
    --------
    >>> [exact_integer_limit(name) for name in ("bfloat16", "float16", "float32")]
    [256, 2048, 16777216]
    """
    dtype = resolve_float_dtype(dtype)
    return 2 ** (int(_finfo(dtype).nmant) + 1)


def low_precision_table(
    n_positions: int,
    dim: int,
    dtype: DTypeLike,
    *,
    start: int = 0,
    base: float = 10000.0,
    spacing: str = "paper",
    layout: str = "interleaved",
) -> np.ndarray:
    """A sinusoidal table computed the way a low-precision implementation does.

    Every intermediate is rounded to ``dtype``, as when the positions, the
    frequencies and the product are tensors of that type (mixed-precision
    training, a model cast to half precision): the positions
    ``start, start + 1, ...`` are rounded to ``dtype``, the frequencies
    too, their product is rounded, and so is the sine or cosine.  Each
    operation is evaluated in float64 and rounded once, the best any
    hardware can do in ``dtype``.

    Parameters
    ----------
    n_positions, dim, start, base, spacing, layout
        As in :func:`posenc_math.sinusoidal` (``dim`` even).
    dtype : {"float16", "bfloat16", "float32", "float64"}

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, dim)``, of ``dtype``.

    Examples
    --------
    >>> table = low_precision_table(4, 8, "float16", start=2047)
    >>> first_repeated_row(table, start=2047)   # 2049 rounds to 2048
    (2049, 2048)
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = _even_dim(dim)
    start = check_int("start", start)
    check_base(base)
    check_choice("spacing", spacing, SPACINGS)
    layout = check_choice("layout", layout, LAYOUTS)
    dtype = resolve_float_dtype(dtype)
    _check_start(start, n_positions)
    # positions, angles, sines, cosines and the float64 table
    check_table_fits((n_positions, dim), 8, f"n_positions={n_positions}, dim={dim}", extra_bytes=24 * n_positions * dim)

    def rounded(values):
        return np.asarray(values, dtype=np.float64).astype(dtype).astype(np.float64)

    positions = rounded(np.arange(start, start + n_positions, dtype=np.float64))
    freqs = rounded(frequencies(dim, base=base, spacing=spacing))
    angles = rounded(np.outer(positions, freqs))
    sines, cosines = rounded(np.sin(angles)), rounded(np.cos(angles))
    table = np.empty((n_positions, dim), dtype=np.float64)
    if layout == "interleaved":
        table[:, 0::2], table[:, 1::2] = sines, cosines
    else:
        half = dim // 2
        table[:, :half], table[:, half:] = sines, cosines
    return table.astype(dtype)


def rounding_bound(dim: int, dtype: DTypeLike) -> float:
    """How far rounding a sinusoidal row to ``dtype`` can move it (Euclidean).

    Every entry lies in ``[-1, 1]``, where rounding to nearest moves a
    value by at most half the spacing of ``dtype`` in ``[1/2, 1)``, which
    is ``eps / 4`` (``eps`` is the spacing just above 1).  So a row moves by
    at most ``sqrt(dim) * eps / 4``, and two rows whose exact distance
    exceeds twice that bound stay different after rounding.

    Parameters
    ----------
    dim : int
        Width of the row, >= 1.
    dtype : {"float16", "bfloat16", "float32", "float64"}

    Returns
    -------
    float

    Examples
    --------
    >>> round(rounding_bound(512, "float16"), 6)
    0.005524
    """
    dim = check_int("dim", dim, minimum=1)
    dtype = resolve_float_dtype(dtype)
    return float(np.sqrt(dim) * float(_finfo(dtype).eps) / 4.0)


def rope_mean_scores(
    dim: int,
    offsets: ArrayLike,
    *,
    base: float = 10000.0,
    n_samples: int = 400,
    seed: int = 0,
    aligned: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """The RoPE score averaged over seeded random vectors, and its exact expectation.

    Each sample draws a query with independent standard normal components;
    the key is the query itself (``aligned=True``) or a second independent
    draw.  The score at offset ``r`` is
    :func:`~posenc_math.rope_relative_scores`.  Its expectation is
    ``2 sum_j cos(r w_j)`` for aligned vectors (each pair contributes
    ``|z_j|**2 cos(r w_j)`` and ``E|z_j|**2 = 2``) and 0 for independent ones.

    Parameters
    ----------
    dim : int
        Even width, >= 2.
    offsets : array_like of int
        Key position minus query position.
    base : float, default 10000.0
    n_samples : int, default 400
        Number of seeded random draws, >= 1.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``.
    aligned : bool, default True
        Key equal to the query (True) or independent of it (False).

    Returns
    -------
    mean : numpy.ndarray
        The sample mean of the score at each offset, float64.
    expected : numpy.ndarray
        The exact expectation at each offset, float64.

    Examples
    --------
    >>> mean, expected = rope_mean_scores(8, [0, 1, 1000], n_samples=200)
    >>> float(expected[0])  # 2 * (number of pairs): E|q|**2 = dim
    8.0
    >>> bool(abs(mean[0] - 8) < 1)
    True
    """
    from .encodings.rope_analysis import rope_relative_scores
    from .encodings.rope_scaling import rope_frequencies

    dim = _even_dim(dim)
    n_samples = check_int("n_samples", n_samples, minimum=1)
    # queries, keys and their complex products; the angles of every offset and pair, their cosines and sines
    n_offsets = as_array("offsets", offsets).size
    check_table_fits(
        (n_samples, dim),
        8,
        f"n_samples={n_samples}, dim={dim}, {n_offsets} offsets",
        extra_bytes=8 * 3 * n_samples * dim + 8 * 6 * n_offsets * (dim // 2),
    )
    if not isinstance(aligned, (bool, np.bool_)):
        raise TypeError(f"aligned must be True or False, got {aligned!r}")
    rng = np.random.default_rng(seed)
    queries = rng.normal(size=(n_samples, dim))
    keys = queries if aligned else rng.normal(size=(n_samples, dim))
    # The score is linear in h_j = z_q conj(z_k), so the mean of the scores is
    # the score of the mean h: one call of rope_relative_scores with
    # h_mean = z conj(1), i.e. the query (Re h, Im h) against the key (1, 0).
    half = dim // 2
    products = (queries[:, :half] + 1j * queries[:, half:]) * (keys[:, :half] - 1j * keys[:, half:])
    mean_products = products.mean(axis=0)
    query = np.concatenate([mean_products.real, mean_products.imag])
    key = np.concatenate([np.ones(half), np.zeros(half)])
    mean = rope_relative_scores(query, key, offsets, base=base)
    if aligned:
        freqs, _ = rope_frequencies(dim, base=base)
        expected = 2.0 * np.cos(np.multiply.outer(np.asarray(offsets, dtype=np.float64), freqs)).sum(axis=-1)
    else:
        expected = np.zeros(mean.shape)
    return mean, expected
