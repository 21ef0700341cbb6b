"""Relative positions: Shaw et al.'s clipping and T5's logarithmic buckets.

A relative scheme looks at the offset between a key and a query instead of
their absolute positions.  Conventions, stated once and used throughout:

* ``relative_position = key_position - query_position`` (T5's
  ``memory_position - context_position``): a key *after* the query has a
  positive offset.
* Shaw et al. (2018) keep ``2 k + 1`` learned vectors and give an offset
  ``clip(relative_position, -k, k)``; the table row is that value ``+ k``.
* T5 (Raffel et al. 2020) maps an offset to one of ``num_buckets`` learned
  scalars per head: small distances get a bucket each, larger ones share
  logarithmically wider buckets, and everything from ``max_distance`` on
  shares the last one.  :func:`t5_bucket` reproduces the reference code
  (``_relative_position_bucket`` in Mesh TensorFlow and Hugging Face
  transformers) bit for bit, including its float32 logarithm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_array, check_int, check_table_fits, is_integer_array

__all__ = ["relative_positions", "shaw_clip", "t5_bucket"]


def _integer_offsets(
    name: str, relative_position: ArrayLike, meaning: str = "key position - query position"
) -> tuple[np.ndarray, bool]:
    """Return the offsets as an int64 array and whether the input was a scalar."""
    offsets = as_array(name, relative_position)
    if not is_integer_array(offsets):
        kind = "booleans" if offsets.dtype == np.bool_ else f"dtype {offsets.dtype}"
        raise TypeError(f"{name} must be an integer or an array of integers ({meaning}), got {kind}")
    if offsets.dtype.kind == "u" and offsets.size and offsets.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} values must fit in int64")
    # the int64 copy, the result and a few int64/float32 temporaries of the input's size
    check_table_fits(offsets.shape, 48, f"{name} of shape {offsets.shape}")
    return offsets.astype(np.int64), offsets.ndim == 0


def _same_kind(values: np.ndarray, scalar: bool) -> np.ndarray | int:
    return int(values) if scalar else values


def relative_positions(n_queries: int, n_keys: int | None = None, *, queries_at_end: bool = False) -> np.ndarray:
    """The matrix of offsets ``key - query`` that relative schemes look up.

    Parameters
    ----------
    n_queries : int
        Number of query positions, >= 1: ``0 .. n_queries - 1``, or the last
        ``n_queries`` key positions with ``queries_at_end``.
    n_keys : int, optional
        Number of key positions ``0 .. n_keys - 1``, >= 1; defaults to
        ``n_queries`` (self-attention).
    queries_at_end : bool, default False
        The queries are the last ``n_queries`` of the ``n_keys`` positions,
        as when decoding with a cache of keys (T5's ``compute_bias`` with a
        ``cache_position``, or the last rows of its square bias).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_queries, n_keys)``, int64, entry ``[i, j] = j - q_i`` with
        ``q_i = i`` (or ``n_keys - n_queries + i``).

    Examples
    --------
    >>> relative_positions(3)
    array([[ 0,  1,  2],
           [-1,  0,  1],
           [-2, -1,  0]])
    >>> relative_positions(1, 4, queries_at_end=True)  # one new token, three cached ones
    array([[-3, -2, -1,  0]])
    """
    n_queries = check_int("n_queries", n_queries, minimum=1)
    n_keys = n_queries if n_keys is None else check_int("n_keys", n_keys, minimum=1)
    if not isinstance(queries_at_end, (bool, np.bool_)):
        raise TypeError(f"queries_at_end must be True or False, got {queries_at_end!r}")
    if queries_at_end and n_queries > n_keys:
        raise ValueError(
            f"n_queries must be <= n_keys = {n_keys} when the queries are the last positions, got {n_queries}"
        )
    check_table_fits((n_queries, n_keys), 8, f"n_queries={n_queries}, n_keys={n_keys}")
    first = n_keys - n_queries if queries_at_end else 0
    queries = np.arange(first, first + n_queries, dtype=np.int64)
    return np.arange(n_keys, dtype=np.int64)[None, :] - queries[:, None]


@overload
def shaw_clip(relative_position: int | np.integer, max_distance: int) -> int: ...
@overload
def shaw_clip(relative_position: np.ndarray | Sequence[int], max_distance: int) -> np.ndarray: ...
def shaw_clip(relative_position: ArrayLike, max_distance: int) -> np.ndarray | int:
    """Shaw et al.'s clipped relative position ``clip(j - i, -k, k)``.

    Offsets beyond ``k = max_distance`` in either direction share the
    vector of the largest one, so a model has ``2 k + 1`` relative
    embeddings; the row of the table is the returned value ``+ k``.

    Parameters
    ----------
    relative_position : int or array_like of int
        ``key_position - query_position``.
    max_distance : int
        The clipping distance ``k``, >= 0 (``k = 0`` keeps no position
        information at all).

    Returns
    -------
    int or numpy.ndarray
        Same shape as the input (a Python int for a scalar), int64, in
        ``[-k, k]``.

    References
    ----------
    P. Shaw, J. Uszkoreit, A. Vaswani, "Self-Attention with Relative
    Position Representations", NAACL 2018.

    Examples
    --------
    >>> shaw_clip([-9, -2, 0, 3, 40], 4)
    array([-4, -2,  0,  3,  4])
    >>> shaw_clip(-7, 4) + 4  # row of the 9-row embedding table
    0
    """
    offsets, scalar = _integer_offsets("relative_position", relative_position)
    max_distance = check_int("max_distance", max_distance, minimum=0)
    return _same_kind(np.clip(offsets, -max_distance, max_distance), scalar)


@overload
def t5_bucket(
    relative_position: int | np.integer, *, bidirectional: bool = ..., num_buckets: int = ..., max_distance: int = ...
) -> int: ...
@overload
def t5_bucket(
    relative_position: np.ndarray | Sequence[int],
    *,
    bidirectional: bool = ...,
    num_buckets: int = ...,
    max_distance: int = ...,
) -> np.ndarray: ...
def t5_bucket(
    relative_position: ArrayLike, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> np.ndarray | int:
    """T5's relative-position bucket, bit for bit as the reference code.

    With ``n = num_buckets // 2`` when ``bidirectional`` (keys before and
    after the query get separate halves; a positive offset adds ``n``) and
    ``n = num_buckets`` otherwise (only keys at or before the query count;
    every later key falls in bucket 0), the distance ``r = |offset|``
    (bidirectional) or ``r = max(-offset, 0)`` (unidirectional) goes to

    * bucket ``r`` if ``r < n // 2`` (one exact bucket per small distance),
    * else ``min(n // 2 + int(log(r / (n//2)) / log(max_distance / (n//2))
      * (n - n//2)), n - 1)``, the logarithm computed in float32 as in the
      reference code, then truncated toward zero.

    Distances at or beyond ``max_distance`` all land in the last bucket of
    their half (``n - 1``).

    Parameters
    ----------
    relative_position : int or array_like of int
        ``key_position - query_position`` (T5's ``memory_position -
        context_position``), any shape.
    bidirectional : bool, default True
        True for the encoder (and T5's encoder-decoder cross attention does
        not use relative positions at all); False for the decoder's causal
        self-attention.
    num_buckets : int, default 32
        Number of buckets, >= 4 when bidirectional, >= 2 otherwise.  With
        ``bidirectional`` an odd count loses one bucket (T5 halves it with
        integer division).
    max_distance : int, default 128
        Distance from which every offset shares the last bucket; it must
        exceed the number of exact buckets ``n // 2``.

    Returns
    -------
    int or numpy.ndarray
        Bucket indices, int64, same shape as the input (a Python int for a
        scalar), in ``[0, num_buckets)``.

    References
    ----------
    C. Raffel et al., "Exploring the Limits of Transfer Learning with a
    Unified Text-to-Text Transformer", JMLR 21, 2020; the function
    ``_relative_position_bucket`` of Mesh TensorFlow and of Hugging Face
    ``transformers.models.t5.modeling_t5.T5Attention``.

    Examples
    --------
    >>> t5_bucket([-3, -1, 0, 1, 3])
    array([ 3,  1,  0, 17, 19])
    >>> t5_bucket([-8, -12, -16, -127, -128, -5000])
    array([ 8,  9, 10, 15, 15, 15])
    >>> t5_bucket([5, 0, -5, -40], bidirectional=False)
    array([ 0,  0,  5, 23])
    """
    offsets, scalar = _integer_offsets("relative_position", relative_position)
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise TypeError(f"bidirectional must be True or False, got {bidirectional!r}")
    num_buckets = check_int("num_buckets", num_buckets, minimum=4 if bidirectional else 2)
    max_distance = check_int("max_distance", max_distance, minimum=1)

    # -2**63 is the one int64 offset whose distance does not fit in int64
    # (abs and negation overflow to -2**63, a negative "bucket").  Every
    # distance from max_distance on shares the last bucket, so it is the
    # bucket of -(2**63 - 1).
    offsets = np.maximum(offsets, -np.iinfo(np.int64).max)
    buckets = np.zeros(offsets.shape, dtype=np.int64)
    n = num_buckets
    if bidirectional:
        n //= 2
        buckets += (offsets > 0).astype(np.int64) * n
        distance = np.abs(offsets)
    else:
        distance = -np.minimum(offsets, 0)
    max_exact = n // 2
    if max_distance <= max_exact:
        raise ValueError(
            f"max_distance must exceed the {max_exact} exact buckets "
            f"(num_buckets={num_buckets}, bidirectional={bool(bidirectional)}), got {max_distance}"
        )
    is_small = distance < max_exact
    # The reference computes in float32: log(r.float() / max_exact) /
    # log(max_distance / max_exact) * (n - max_exact), then .to(long).
    # Small distances are masked out first (log(0) is -inf).
    far = np.maximum(distance, max_exact).astype(np.float32)
    scaled = (
        np.log(far / np.float32(max_exact)) / np.float32(math.log(max_distance / max_exact)) * np.float32(n - max_exact)
    )
    large = max_exact + scaled.astype(np.int64)
    large = np.minimum(large, n - 1)
    buckets += np.where(is_small, distance, large)
    return _same_kind(buckets, scalar)
