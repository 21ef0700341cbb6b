"""What RoPE does to attention scores: relative scores and their long-term decay bound.

:func:`rope_relative_scores` is the score of a query and a key rotated by
RoPE as a function of their offset alone; :func:`rope_decay_bound` is
RoFormer's upper bound on its size (Su et al., section 3.4.3).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_array, check_base, check_memory, check_table_fits
from ._phase import DoubleDouble, reduced_angles
from .rope import _vectors, rope
from .rope_scaling import _angle_frequencies

__all__ = ["rope_decay_bound", "rope_relative_scores", "rope_scores"]


def _query_key_pairs(query, key, inv_freq, base):
    """Validate a query/key pair; return their complex pairs (half layout) and frequencies."""
    query = as_array("query", query)
    key = as_array("key", key)
    for name, vector in (("query", query), ("key", key)):
        if vector.dtype == np.bool_ or vector.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be a real vector, got dtype {vector.dtype}")
        if vector.ndim != 1 or vector.shape[0] < 2 or vector.shape[0] % 2:
            raise ValueError(f"{name} must be a 1-D vector of even length >= 2, got shape {vector.shape}")
        if not np.isfinite(vector).all():
            raise ValueError(f"{name} must be finite")
    if query.shape != key.shape:
        raise ValueError(f"query and key must have the same shape, got {query.shape} and {key.shape}")
    dim = query.shape[0]
    n_pairs = dim // 2
    freqs: DoubleDouble | np.ndarray
    if inv_freq is None:
        freqs = _angle_frequencies(dim, check_base(base))
    else:
        freqs = as_array("inv_freq", inv_freq)
        if freqs.dtype.kind not in "iuf" or freqs.shape != (n_pairs,) or not np.isfinite(freqs).all():
            raise ValueError(f"inv_freq must be a finite real array of shape ({n_pairs},)")
        freqs = freqs.astype(np.longdouble)
    q = query.astype(np.float64)
    k = key.astype(np.float64)
    return q[:n_pairs] + 1j * q[n_pairs:], k[:n_pairs] + 1j * k[n_pairs:], freqs


def _offsets(offsets: ArrayLike, n_pairs: int) -> np.ndarray:
    offsets = as_array("offsets", offsets)
    if offsets.dtype == np.bool_ or offsets.dtype.kind not in "iu" or offsets.ndim != 1:
        raise TypeError(
            "offsets must be a 1-D array of integers (key - query positions), "
            f"got {offsets.dtype}, shape {offsets.shape}"
        )
    # the angles of every offset and pair, and their cosines, sines and products
    check_table_fits(
        (offsets.shape[0], n_pairs),
        8,
        f"offsets of shape {offsets.shape} and {n_pairs} pairs",
        extra_bytes=8 * 5 * offsets.shape[0] * n_pairs,
    )
    return offsets


def rope_relative_scores(
    query: ArrayLike, key: ArrayLike, offsets: ArrayLike, *, base: float = 10000.0, inv_freq: ArrayLike | None = None
) -> np.ndarray:
    """The RoPE attention score ``<R(m) q, R(m + r) k>`` for each offset ``r``.

    By the theorem ``rope-relative`` the score does not depend on ``m``;
    with the pairs of the half layout read as complex numbers
    ``z = x[j] + i x[j + dim/2]`` it is ``Re sum_j z_q conj(z_k) e^{-i r w_j}``.

    Parameters
    ----------
    query, key : array_like, shape (dim,)
        Real vectors in the half layout, ``dim`` even.
    offsets : array_like of int, shape (n,)
        Key position minus query position.
    base : float, default 10000.0
    inv_freq : array_like, optional
        Frequencies instead of ``base ** (-2 j / dim)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)``, float64.

    Examples
    --------
    >>> q = np.array([1.0, 0.0]); k = np.array([1.0, 0.0])
    >>> rope_relative_scores(q, k, [0, 1, 2])  # cos(r)
    array([ 1.        ,  0.54030231, -0.41614684])
    """
    z_query, z_key, freqs = _query_key_pairs(query, key, inv_freq, base)
    offsets = _offsets(offsets, z_query.shape[0])
    products = z_query * np.conj(z_key)
    angles = reduced_angles(-offsets, freqs)  # (n, n_pairs)
    return (np.cos(angles) * products.real - np.sin(angles) * products.imag).sum(axis=-1)


def rope_decay_bound(
    query: ArrayLike, key: ArrayLike, offsets: ArrayLike, *, base: float = 10000.0, inv_freq: ArrayLike | None = None
) -> np.ndarray:
    """RoFormer's upper bound on ``|score(r)|`` (Su et al., section 3.4.3).

    With ``h_j = z_q conj(z_k)`` (``h_{d/2} = 0``) and the partial sums
    ``S_j(r) = sum_{k < j} e^{-i r w_k}``, Abel summation gives
    ``|score(r)| <= (max_j |h_{j+1} - h_j|) * sum_{j=1}^{d/2} |S_j(r)|``.
    The bound decays (on average) with ``|r|``; the score itself is not
    monotone in ``|r|``.

    Parameters and Returns are those of :func:`rope_relative_scores`; the
    result is >= ``abs(rope_relative_scores(...))`` everywhere.

    Examples
    --------
    >>> q = np.ones(8); k = np.ones(8)
    >>> bool(np.all(rope_decay_bound(q, k, np.arange(100)) >= abs(rope_relative_scores(q, k, np.arange(100)))))
    True
    """
    z_query, z_key, freqs = _query_key_pairs(query, key, inv_freq, base)
    offsets = _offsets(offsets, z_query.shape[0])
    products = np.append(z_query * np.conj(z_key), 0.0)
    largest_step = np.abs(np.diff(products)).max()
    angles = reduced_angles(-offsets, freqs)
    partial_sums = np.cumsum(np.cos(angles) + 1j * np.sin(angles), axis=-1)  # S_1 .. S_{d/2}
    return largest_step * np.abs(partial_sums).sum(axis=-1)


def rope_scores(
    queries: ArrayLike,
    keys: ArrayLike,
    *,
    base: float = 10000.0,
    layout: str = "half",
    inv_freq: ArrayLike | None = None,
    rotary_dim: int | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    """Attention scores ``<R(q_pos) q, R(k_pos) k>`` of rotated queries against rotated keys, as decoding forms them.

    The keys sit at positions ``0 .. n_keys - 1`` and the ``n_queries``
    queries at the *end* of them, ``n_keys - n_queries .. n_keys - 1``: the
    new tokens of a step of decoding with a cache of keys (``n_queries =
    n_keys`` is the whole sequence at once).  Each is turned by
    :func:`~posenc_math.rope` with the same settings, in float64, and the
    dot products are taken (unscaled).

    Parameters
    ----------
    queries : array_like, shape (..., n_queries, dim)
    keys : array_like, shape (..., n_keys, dim)
        Real vectors; the leading axes (batch, heads) must broadcast
        together, and ``n_queries <= n_keys``.
    base, layout, inv_freq, rotary_dim, attention_factor
        As for :func:`~posenc_math.rope`.

    Returns
    -------
    numpy.ndarray
        Shape ``(..., n_queries, n_keys)``, float64: entry ``[..., i, j]``
        is the score of query ``n_keys - n_queries + i`` against key ``j``.

    Examples
    --------
    >>> q, k = np.ones((1, 2)), np.ones((3, 2))  # one new query, three keys
    >>> rope_scores(q, k, base=10000.0)  # 2 cos(r) for offsets r = 2, 1, 0
    array([[-0.83229367,  1.08060461,  2.        ]])
    >>> bool(np.allclose(rope_scores(np.ones((3, 2)), k)[-1], rope_scores(q, k)[0]))  # the last row
    True
    """
    query_values, _ = _vectors(queries, "queries")
    key_values, _ = _vectors(keys, "keys")
    for name, values in (("queries", query_values), ("keys", key_values)):
        if values.ndim < 2:
            raise ValueError(f"{name} must have shape (..., n, dim) with at least 2 axes, got shape {values.shape}")
    if query_values.shape[-1] != key_values.shape[-1]:
        raise ValueError(
            f"queries and keys must have the same dim (last axis), got {query_values.shape} and {key_values.shape}"
        )
    n_queries, n_keys = query_values.shape[-2], key_values.shape[-2]
    if n_queries > n_keys:
        raise ValueError(
            f"queries must not outnumber the keys (the queries are the last {n_queries} of the n_keys positions), "
            f"got {n_queries} queries and {n_keys} keys"
        )
    try:
        lead = np.broadcast_shapes(query_values.shape[:-2], key_values.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading axes of queries {query_values.shape[:-2]} and keys {key_values.shape[:-2]} must broadcast "
            "together (e.g. the same (batch, heads))"
        ) from None
    out_bytes = 8 * math.prod(lead) * n_queries * n_keys
    check_memory(
        out_bytes + 3 * 8 * (query_values.size + key_values.size) + 2**22,
        f"rope_scores of queries {query_values.shape} and keys {key_values.shape}",
    )
    turned_queries, turned_keys = (
        rope(
            values.astype(np.float64, copy=False),
            np.arange(first, n_keys),
            base=base,
            layout=layout,
            inv_freq=inv_freq,
            rotary_dim=rotary_dim,
            attention_factor=attention_factor,
        )
        for values, first in ((query_values, n_keys - n_queries), (key_values, 0))
    )
    return np.matmul(turned_queries, np.swapaxes(turned_keys, -1, -2))
