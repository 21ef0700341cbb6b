"""ALiBi: attention with linear biases (Press, Smith and Lewis 2022).

ALiBi adds no vector to the tokens.  Head ``h`` adds ``-m_h (i - j)`` to the
score of query ``i`` against key ``j``: a penalty growing linearly with the
distance, steeper for heads with larger slopes ``m_h``.

Slopes, for ``n`` heads:

* ``n`` a power of two: ``m_h = 2 ** (-8 h / n)`` for ``h = 1 .. n``, a
  geometric sequence starting at ``2 ** (-8 / n)`` with that same ratio;
* otherwise, with ``c`` the largest power of two below ``n``: the ``c``
  slopes of ``c`` heads, then the first ``n - c`` of every other slope of
  ``2 c`` heads (``2 ** (-8 (2k - 1) / (2 c))``, ``k = 1, 2, ...``).  This is
  the rule of the paper's code and of BLOOM's ``build_alibi_tensor``.  MPT's
  ``build_mpt_alibi_tensor`` starts from the ``n'`` slopes of the next power
  of two ``n' > n`` and takes its even-numbered slopes first (``h = 2, 4,
  ...``, the code's ``slopes[1::2]``, which are the slopes of ``n' / 2 = c``
  heads), then its odd-numbered ones, and keeps the first ``n``: the same
  slopes in the same order.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .._validate import as_array, check_float_dtype, check_int, check_table_fits
from ._phase import store_rounded

__all__ = ["alibi_bias", "alibi_key_bias", "alibi_slopes", "causal_mask", "softmax"]


def _power_of_two_slopes(n_heads: int) -> np.ndarray:
    heads = np.arange(1, n_heads + 1, dtype=np.float64)
    return np.exp2(-8.0 * heads / n_heads)


def _rounded(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``values`` (float64) rounded once to ``dtype``."""
    if dtype == np.float64:
        return values
    out = np.empty(values.shape, dtype=dtype)
    store_rounded(out, values)
    return out


def alibi_slopes(n_heads: int, *, dtype: DTypeLike = "float64") -> np.ndarray:
    """The ALiBi slope of each head.

    Parameters
    ----------
    n_heads : int
        Number of attention heads, >= 1.
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format: the float64 slopes rounded once (``bfloat16`` needs
        ``pip install 'posenc-math[precision]'``).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_heads,)``, of ``dtype``, every slope in ``(0, 1)``.  For a
        power of two they decrease; otherwise the tail (borrowed from
        ``2 c`` heads, see the module docstring) starts again between the
        first two slopes.

    References
    ----------
    O. Press, N. A. Smith, M. Lewis, "Train Short, Test Long: Attention with
    Linear Biases Enables Input Length Extrapolation", ICLR 2022.

    Examples
    --------
    >>> alibi_slopes(8)
    array([0.5       , 0.25      , 0.125     , 0.0625    , 0.03125   ,
           0.015625  , 0.0078125 , 0.00390625])
    >>> alibi_slopes(12)[8:] ** -2  # the extra heads: 2^1, 2^3, 2^5, 2^7
    array([  2.,   8.,  32., 128.])
    """
    n_heads = check_int("n_heads", n_heads, minimum=1)
    dtype = check_float_dtype(dtype)
    check_table_fits((n_heads,), 24, f"n_heads={n_heads}")
    closest = 1 << (n_heads.bit_length() - 1)
    slopes = _power_of_two_slopes(closest)
    if closest != n_heads:
        extra = _power_of_two_slopes(2 * closest)[0::2][: n_heads - closest]
        slopes = np.concatenate([slopes, extra])
    return _rounded(slopes, dtype)


def _check_sizes(
    n_heads: object, n_positions: object, dtype: object, *, square: bool, n_queries: object = None
) -> tuple[int, int, int, np.dtype]:
    """Validate the sizes and check the peak memory before any work; return them and the dtype."""
    n_heads = check_int("n_heads", n_heads, minimum=1)
    n_positions = check_int("n_positions", n_positions, minimum=1)
    queries = n_positions if n_queries is None else check_int("n_queries", n_queries, minimum=1)
    if queries > n_positions:
        raise ValueError(
            f"n_queries must be <= n_positions = {n_positions} (the queries are the last positions), got {queries}"
        )
    dtype = check_float_dtype(dtype)
    what = f"n_heads={n_heads}, n_positions={n_positions}, n_queries={queries}, dtype={dtype.name}"
    if square:
        # the offsets (float64) and the causal mask, plus a float64 head and
        # the rounding's temporaries for a narrower format
        pairs = queries * n_positions
        extra = 9 * pairs + (0 if dtype == np.float64 else 24 * pairs)
        check_table_fits((n_heads, queries, n_positions), dtype.itemsize, what, extra_bytes=extra)
    else:
        check_table_fits((n_heads, 1, n_positions), dtype.itemsize + 24, what)
    return n_heads, n_positions, queries, dtype


def alibi_bias(
    n_heads: int,
    n_positions: int,
    *,
    causal: bool = True,
    dtype: DTypeLike = "float64",
    n_queries: int | None = None,
) -> np.ndarray:
    """The bias ALiBi adds to the attention scores of each head.

    Parameters
    ----------
    n_heads : int
        Number of heads, >= 1.
    n_positions : int
        Sequence length, >= 1: the keys ``0 .. n_positions - 1`` (and the
        queries, unless ``n_queries`` says otherwise).
    causal : bool, default True
        True: entry ``[h, i, j] = -m_h (i - j)`` for keys ``j <= i`` and
        ``-inf`` for ``j > i``, so the causal mask is part of the bias (the
        setting of the paper, a decoder).  False: ``-m_h |i - j|`` for every
        pair, the symmetric variant that bidirectional encoders with ALiBi
        use (the paper defines no encoder version).
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format: the float64 bias (each entry one product of a slope
        and an exact integer offset) rounded once.
    n_queries : int, optional
        Only the last ``n_queries`` positions are queries (``i = n_positions
        - n_queries .. n_positions - 1``), as when decoding with a cache of
        keys: the result is the last ``n_queries`` rows of the square bias.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_heads, n_queries, n_positions)`` (``n_queries`` defaults
        to ``n_positions``), of ``dtype``; the diagonal ``j = i`` is 0.  The
        peak memory (checked before any work) is the output plus about
        ``9 n_queries n_positions`` bytes.

    Examples
    --------
    >>> alibi_bias(1, 3)[0]
    array([[ 0.        ,        -inf,        -inf],
           [-0.00390625,  0.        ,        -inf],
           [-0.0078125 , -0.00390625,  0.        ]])
    >>> alibi_bias(2, 3, causal=False)[0]
    array([[ 0.    , -0.0625, -0.125 ],
           [-0.0625,  0.    , -0.0625],
           [-0.125 , -0.0625,  0.    ]])
    >>> alibi_bias(1, 3, n_queries=1)[0]  # the newest token against the cache
    array([[-0.0078125 , -0.00390625,  0.        ]])
    """
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    n_heads, n_positions, n_queries, dtype = _check_sizes(n_heads, n_positions, dtype, square=True, n_queries=n_queries)
    keys = np.arange(n_positions, dtype=np.float64)
    queries = keys[n_positions - n_queries :]
    offset = keys[None, :] - queries[:, None]  # j - i, exact integers
    mask = offset > 0 if causal else None
    if not causal:
        np.abs(offset, out=offset)
        np.negative(offset, out=offset)
        offset += 0.0  # -0.0 on the diagonal becomes +0.0
    out = np.empty((n_heads, n_queries, n_positions), dtype=dtype)
    scratch = None if dtype == np.float64 else np.empty((n_queries, n_positions))
    for head, slope in enumerate(alibi_slopes(n_heads)):
        target = out[head] if scratch is None else scratch
        np.multiply(offset, slope, out=target)  # -m (i - j), +0.0 on the diagonal
        if mask is not None:
            np.copyto(target, -np.inf, where=mask)
        if scratch is not None:
            store_rounded(out[head], scratch)
    return out


def alibi_key_bias(n_heads: int, n_positions: int, *, dtype: DTypeLike = "float64") -> np.ndarray:
    """ALiBi as BLOOM computes it: a bias ``m_h j`` on the key position only.

    Every query row gets the same bias ``m_h j``, which differs from
    :func:`alibi_bias` by ``m_h i``, a constant along the row; softmax does
    not change when a constant is added to a row, so after the causal mask
    both give the same attention (the theorem ``softmax-shift-invariance``).

    Parameters
    ----------
    n_heads : int
        Number of heads, >= 1.
    n_positions : int
        Sequence length, >= 1.
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format: the float64 bias rounded once.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_heads, 1, n_positions)``, of ``dtype``, broadcasting over
        the query axis.

    Examples
    --------
    >>> alibi_key_bias(2, 4)[:, 0]
    array([[0.        , 0.0625    , 0.125     , 0.1875    ],
           [0.        , 0.00390625, 0.0078125 , 0.01171875]])
    """
    n_heads, n_positions, _, dtype = _check_sizes(n_heads, n_positions, dtype, square=False)
    positions = np.arange(n_positions, dtype=np.float64)
    return _rounded(alibi_slopes(n_heads)[:, None, None] * positions[None, None, :], dtype)


def causal_mask(n_positions: int) -> np.ndarray:
    """The additive causal mask: 0 where key ``j <= i``, ``-inf`` above the diagonal.

    Parameters
    ----------
    n_positions : int
        Sequence length, >= 1.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, n_positions)``, float64.

    Examples
    --------
    >>> causal_mask(3)
    array([[  0., -inf, -inf],
           [  0.,   0., -inf],
           [  0.,   0.,   0.]])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    check_table_fits((n_positions, n_positions), 8, f"n_positions={n_positions}")
    mask = np.zeros((n_positions, n_positions))
    mask[np.triu_indices(n_positions, 1)] = -np.inf
    return mask


def softmax(scores: ArrayLike, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``, with ``-inf`` entries (masked keys) given weight 0.

    The maximum of each slice is subtracted first, which changes nothing
    (adding a constant to every entry of a slice leaves the softmax as it
    is: the theorem ``softmax-shift-invariance``) and keeps ``exp`` from
    overflowing.

    Parameters
    ----------
    scores : array_like
        Real scores; ``-inf`` marks an excluded entry.  Every slice needs at
        least one finite entry, and none may be NaN or ``+inf``.
    axis : int, default -1

    Returns
    -------
    numpy.ndarray
        Same shape, float64, non-negative, each slice summing to 1.

    Examples
    --------
    >>> softmax([0.0, np.log(3.0), -np.inf])
    array([0.25, 0.75, 0.  ])
    >>> np.allclose(softmax([1.0, 2.0, 3.0]), softmax([101.0, 102.0, 103.0]))
    True
    """
    values = as_array("scores", scores)
    if values.dtype == np.bool_ or values.dtype.kind not in "iuf":
        raise TypeError(f"scores must be real numbers, got dtype {values.dtype}")
    # the float64 copy, the shifted scores, the weights, and the checks' masks
    check_table_fits(values.shape, 8, f"scores of shape {values.shape}", extra_bytes=18 * values.size)
    values = values.astype(np.float64)
    if values.ndim == 0:
        raise ValueError("scores must have at least one axis")
    axis = check_int("axis", axis)
    if not -values.ndim <= axis < values.ndim:
        raise ValueError(
            f"axis must be in -{values.ndim} .. {values.ndim - 1} (scores has {values.ndim} axes), got {axis}"
        )
    if np.isnan(values).any() or np.isposinf(values).any():
        raise ValueError("scores must not contain NaN or +inf (use -inf to mask an entry)")
    largest = values.max(axis=axis, keepdims=True)
    if np.isneginf(largest).any():
        raise ValueError("every softmax slice needs at least one entry that is not -inf")
    weights = np.exp(values - largest)
    return weights / weights.sum(axis=axis, keepdims=True)
