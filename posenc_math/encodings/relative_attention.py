"""Relative attention that splits the score into terms: Transformer-XL and DeBERTa.

Both replace the absolute position added to the input by position terms
inside the attention score that depend on the query and key positions only
through their *relative* distance.

Transformer-XL (Dai et al., 2019, section 3.3) scores query ``i`` against
key ``j`` as the sum of four terms::

    (a) q_i . k_j              content against content
    (b) q_i . W_r R_{i-j}      content against relative position
    (c) u   . k_j              a global content bias
    (d) v   . W_r R_{i-j}      a global position bias

where ``R_{i-j}`` is the sinusoid of the distance ``i - j`` (not learned;
Transformer-XL's layout puts all sines first, then all cosines) and ``u``,
``v`` are learned vectors shared by every query.

DeBERTa (He et al., 2021, section 3.1) keeps one content vector and looks up
one *relative* position vector per pair, from a table of ``2k`` rows indexed
by the clipped distance::

    delta(i, j) = 0          if i - j <= -k
                  2k - 1     if i - j >= k
                  i - j + k  otherwise

and scores with three terms, scaled by ``1 / sqrt(3 d)``::

    content-to-content   Qc_i . Kc_j
    content-to-position  Qc_i . Kr_{delta(i, j)}
    position-to-content  Kc_j . Qr_{delta(j, i)}
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int

__all__ = ["deberta_relative_index", "deberta_scores", "transformer_xl_scores"]


def _matrix(name: str, value: ArrayLike, columns: int | None = None) -> np.ndarray:
    array = np.asarray(value)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} must be real, got a complex array")
    try:
        array = array.astype(np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a real numeric array") from error
    if array.ndim != 2 or 0 in array.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {array.shape}")
    if columns is not None and array.shape[1] != columns:
        raise ValueError(f"{name} must have {columns} columns, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite")
    return array


def _vector(name: str, value: ArrayLike, length: int) -> np.ndarray:
    array = np.asarray(value)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} must be real, got a complex array")
    array = array.astype(np.float64)
    if array.shape != (length,):
        raise ValueError(f"{name} must have shape ({length},), got {array.shape}")
    return array


def _positions(name: str, value: ArrayLike | None, length: int) -> np.ndarray:
    if value is None:
        return np.arange(length, dtype=np.int64)
    array = np.asarray(value)
    if array.dtype.kind not in "iu" or array.shape != (length,):
        raise ValueError(f"{name} must be {length} integer positions, got dtype {array.dtype} shape {array.shape}")
    return array.astype(np.int64)


def _split_sinusoid(distances: np.ndarray, width: int, base: float) -> np.ndarray:
    """Transformer-XL's R: sines of every frequency, then cosines."""
    inv_freq = base ** (-np.arange(0, width, 2, dtype=np.float64) / width)
    angles = distances[..., None].astype(np.float64) * inv_freq
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def transformer_xl_scores(
    queries: ArrayLike,
    keys: ArrayLike,
    u: ArrayLike,
    v: ArrayLike,
    w_r: ArrayLike,
    *,
    query_positions: ArrayLike | None = None,
    key_positions: ArrayLike | None = None,
    base: float = 10000.0,
    return_terms: bool = False,
) -> Any:
    """Transformer-XL's attention scores, the sum of its four terms.

    Parameters
    ----------
    queries : array_like, shape (n_queries, dim)
        Content queries ``q_i`` (already projected).
    keys : array_like, shape (n_keys, dim)
        Content keys ``k_j`` (already projected).
    u, v : array_like, shape (dim,)
        The learned global content and position biases.
    w_r : array_like, shape (dim, rel_dim)
        The projection of the relative sinusoid; ``rel_dim`` must be even.
    query_positions, key_positions : array_like of int, optional
        Positions of the queries and keys (default ``0, 1, ...``).
    base : float, default 10000.0
        Base of the sinusoid's frequencies.
    return_terms : bool, default False
        Also return the four terms, as a dict ``{"a", "b", "c", "d"}``.

    Returns
    -------
    numpy.ndarray, shape (n_queries, n_keys)
        The scores (unscaled, as in the paper); with ``return_terms``, a pair
        ``(scores, terms)``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> q, k = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    >>> u, v, w_r = rng.normal(size=4), rng.normal(size=4), rng.normal(size=(4, 6))
    >>> scores = transformer_xl_scores(q, k, u, v, w_r)
    >>> shifted = transformer_xl_scores(q, k, u, v, w_r, query_positions=[5, 6, 7], key_positions=[5, 6, 7])
    >>> bool(np.allclose(scores, shifted))
    True
    """
    queries = _matrix("queries", queries)
    dim = queries.shape[1]
    keys = _matrix("keys", keys, dim)
    u, v = _vector("u", u, dim), _vector("v", v, dim)
    w_r = _matrix("w_r", w_r)
    if w_r.shape[0] != dim or w_r.shape[1] % 2:
        raise ValueError(f"w_r must have shape ({dim}, rel_dim) with rel_dim even, got {w_r.shape}")
    if not (isinstance(base, (int, float)) and np.isfinite(base) and base > 1):
        raise ValueError(f"base must be a finite number > 1, got {base!r}")
    rows = _positions("query_positions", query_positions, queries.shape[0])
    cols = _positions("key_positions", key_positions, keys.shape[0])
    relative = _split_sinusoid(rows[:, None] - cols[None, :], w_r.shape[1], float(base))
    projected = relative @ w_r.T  # W_r R_{i-j}: (n_queries, n_keys, dim)
    terms = {
        "a": queries @ keys.T,
        "b": np.einsum("id,ijd->ij", queries, projected),
        "c": np.broadcast_to(keys @ u, (queries.shape[0], keys.shape[0])).copy(),
        "d": projected @ v,
    }
    scores = terms["a"] + terms["b"] + terms["c"] + terms["d"]
    return (scores, terms) if return_terms else scores


def deberta_relative_index(n_positions: int, max_relative_positions: int) -> np.ndarray:
    """DeBERTa's clipped relative distance ``delta(i, j)`` for every pair.

    Parameters
    ----------
    n_positions : int
        Sequence length ``n``.
    max_relative_positions : int
        ``k``: distances at or beyond ``k`` share the last row, at or below
        ``-k`` the first; the table has ``2k`` rows.

    Returns
    -------
    numpy.ndarray of int64, shape (n_positions, n_positions)
        Entry ``(i, j)`` is ``delta(i, j)`` in ``0 .. 2k - 1``.

    Examples
    --------
    >>> deberta_relative_index(4, 2)
    array([[2, 1, 0, 0],
           [3, 2, 1, 0],
           [3, 3, 2, 1],
           [3, 3, 3, 2]])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    k = check_int("max_relative_positions", max_relative_positions, minimum=1)
    positions = np.arange(n_positions, dtype=np.int64)
    distance = positions[:, None] - positions[None, :]
    return np.clip(distance + k, 0, 2 * k - 1)


def deberta_scores(
    content_queries: ArrayLike,
    content_keys: ArrayLike,
    position_queries: ArrayLike,
    position_keys: ArrayLike,
    *,
    return_terms: bool = False,
) -> Any:
    """DeBERTa's disentangled attention scores for one head (self-attention).

    Parameters
    ----------
    content_queries, content_keys : array_like, shape (n_positions, dim)
        ``Qc = H W_q,c`` and ``Kc = H W_k,c``.
    position_queries, position_keys : array_like, shape (2k, dim)
        ``Qr = P W_q,r`` and ``Kr = P W_k,r``, one row per clipped relative
        distance (``k`` is half the number of rows).
    return_terms : bool, default False
        Also return the three terms as a dict ``{"c2c", "c2p", "p2c"}``.

    Returns
    -------
    numpy.ndarray, shape (n_positions, n_positions)
        ``(c2c + c2p + p2c) / sqrt(3 dim)``; with ``return_terms``, a pair
        ``(scores, terms)`` (terms unscaled).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> qc, kc = rng.normal(size=(5, 4)), rng.normal(size=(5, 4))
    >>> qr, kr = rng.normal(size=(6, 4)), rng.normal(size=(6, 4))
    >>> deberta_scores(qc, kc, qr, kr).shape
    (5, 5)
    """
    content_queries = _matrix("content_queries", content_queries)
    n_positions, dim = content_queries.shape
    content_keys = _matrix("content_keys", content_keys, dim)
    if content_keys.shape[0] != n_positions:
        raise ValueError(
            f"content_keys must have {n_positions} rows like content_queries (self-attention), "
            f"got {content_keys.shape[0]}"
        )
    position_queries = _matrix("position_queries", position_queries, dim)
    position_keys = _matrix("position_keys", position_keys, dim)
    rows = position_keys.shape[0]
    if rows % 2 or position_queries.shape[0] != rows:
        raise ValueError(
            "position_queries and position_keys must have the same even number of rows (2k), got "
            f"{position_queries.shape[0]} and {rows}"
        )
    delta = deberta_relative_index(n_positions, rows // 2)
    terms = {
        "c2c": content_queries @ content_keys.T,
        # Qc_i . Kr_{delta(i, j)}
        "c2p": np.take_along_axis(content_queries @ position_keys.T, delta, axis=1),
        # Kc_j . Qr_{delta(j, i)}: entry (i, j) reads row delta(j, i) = delta.T[i, j]
        "p2c": np.take_along_axis(content_keys @ position_queries.T, delta, axis=1).T,
    }
    scores = (terms["c2c"] + terms["c2p"] + terms["p2c"]) / np.sqrt(3 * dim)
    return (scores, terms) if return_terms else scores
