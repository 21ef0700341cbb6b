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

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike

from .._validate import as_array, check_int, check_table_fits
from .relative import _integer_offsets

__all__ = [
    "deberta_bucket_regions",
    "deberta_log_bucket",
    "deberta_relative_index",
    "deberta_scores",
    "transformer_xl_scores",
]


def _matrix(name: str, value: ArrayLike, columns: int | None = None) -> np.ndarray:
    array = as_array(name, value)
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
    array = as_array(name, value)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} must be real, got a complex array")
    array = array.astype(np.float64)
    if array.shape != (length,):
        raise ValueError(f"{name} must have shape ({length},), got {array.shape}")
    return array


def _positions(name: str, value: ArrayLike | None, length: int) -> np.ndarray:
    if value is None:
        return np.arange(length, dtype=np.int64)
    array = as_array(name, value)
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
    queries, keys, w_r = as_array("queries", queries), as_array("keys", keys), as_array("w_r", w_r)
    if queries.ndim == keys.ndim == w_r.ndim == 2:  # before any conversion: the float64 copies and the work
        n_pairs = queries.shape[0] * keys.shape[0]
        # the distances, the sinusoid of each (angles, sines, cosines) and its projection, then four terms
        check_table_fits(
            (queries.shape[0], keys.shape[0], queries.shape[1]),
            8,
            f"queries {queries.shape} and keys {keys.shape}",
            extra_bytes=8 * n_pairs * (8 + 2 * w_r.shape[1]) + 8 * (queries.size + keys.size + w_r.size),
        )
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


def _log32(values: np.ndarray | np.floating) -> np.ndarray:
    """The float32 nearest the natural logarithm of float32 ``values`` (through float64).

    numpy's and torch's own float32 logarithms are each within an ulp but
    differ from one another and from this on a few inputs; this one is the
    same on every machine.
    """
    return np.log(np.asarray(values, dtype=np.float64)).astype(np.float32)


def _deberta_sizes(position_buckets: object, max_relative_positions: object) -> tuple[int, int]:
    """Validate DeBERTa-v2's bucket settings; return ``(position_buckets, max_relative_positions)``."""
    buckets = check_int("position_buckets", position_buckets, minimum=2)
    largest = check_int("max_relative_positions", max_relative_positions, minimum=2)
    mid = buckets // 2
    # the logarithm's denominator, as transformers forms it: float32 of the double (M - 1) / mid
    if not _log32(np.float32((largest - 1) / mid)) > 0:
        raise ValueError(
            f"max_relative_positions must exceed position_buckets // 2 + 1 = {mid + 1} (the logarithmic buckets "
            f"stretch from distance {mid} to max_relative_positions - 1), got {largest} with "
            f"position_buckets={buckets}"
        )
    return buckets, largest


@overload
def deberta_log_bucket(
    relative_position: int | np.integer, *, position_buckets: int = ..., max_relative_positions: int = ...
) -> int: ...
@overload
def deberta_log_bucket(
    relative_position: np.ndarray | Sequence[int], *, position_buckets: int = ..., max_relative_positions: int = ...
) -> np.ndarray: ...
def deberta_log_bucket(
    relative_position: ArrayLike, *, position_buckets: int = 256, max_relative_positions: int = 512
) -> np.ndarray | int:
    """DeBERTa-v2/v3's logarithmic bucket of a relative position, bit for bit as transformers.

    With ``mid = position_buckets // 2``, ``M = max_relative_positions`` and
    ``r = query_position - key_position`` (DeBERTa's sign, the opposite of
    T5's):

    * ``|r| <= mid``: the bucket is ``r`` itself;
    * otherwise ``sign(r) * (mid + ceil(log(|r| / mid) / log((M - 1) / mid)
      * (mid - 1)))``, in float32 as transformers' ``make_log_bucket_position``
      computes it (``|r| / mid``, the logarithms, their quotient and the
      product in float32, the denominator's argument the float32 of the
      double ``(M - 1) / mid``).

    Each logarithm is the float32 nearest the exact one.  torch's float32
    logarithm is off by an ulp on some inputs, and where that moves the
    product across an integer transformers' bucket differs by one: for the
    published settings (256, 512) at 4 offsets of ``|r| <= 2**21``, the
    first at ``|r| = 403269``, far beyond DeBERTa's 512 positions (the
    opt-in reference suite checks every ``|r| <= 2**21``).

    The formula's ceiling keeps a few distances past ``mid`` exact too, and
    from ``|r| = M - 1`` on the buckets pass ``±(2 mid - 1)``; the model
    then clips the row of its table, ``bucket + position_buckets``, to
    ``[0, 2 position_buckets - 1]`` (:func:`deberta_relative_index`).
    :func:`deberta_bucket_regions` computes where each regime starts.

    Parameters
    ----------
    relative_position : int or array_like of int
        ``query_position - key_position``, any shape.
    position_buckets : int, default 256
        A model config's ``position_buckets`` (DeBERTa-v2 and v3: 256), >= 2.
    max_relative_positions : int, default 512
        The config's ``max_relative_positions``, or ``max_position_embeddings``
        when that is < 1 (512 for the published checkpoints); it must exceed
        ``position_buckets // 2 + 1``.

    Returns
    -------
    int or numpy.ndarray
        Buckets, int64, same shape as the input (a Python int for a scalar);
        odd in ``r`` and never decreasing.

    References
    ----------
    P. He, J. Gao, W. Chen, "DeBERTaV3: Improving DeBERTa using
    ELECTRA-Style Pre-Training with Gradient-Disentangled Embedding
    Sharing", ICLR 2023; transformers' ``make_log_bucket_position`` in
    ``models/deberta_v2/modeling_deberta_v2.py``.

    Examples
    --------
    >>> deberta_log_bucket([0, 5, -128, 130, 131, 132, 200, 511, 512, -5000])
    array([   0,    5, -128,  130,  131,  131,  169,  255,  256, -465])
    >>> deberta_log_bucket(3, position_buckets=4, max_relative_positions=16)
    3
    """
    offsets, scalar = _integer_offsets("relative_position", relative_position, "query position - key position")
    buckets, largest = _deberta_sizes(position_buckets, max_relative_positions)
    mid = buckets // 2
    # -2**63 is the one int64 whose magnitude does not fit in int64; its bucket is that of -(2**63 - 1)
    offsets = np.atleast_1d(np.maximum(offsets, -np.iinfo(np.int64).max))
    sign = np.sign(offsets).astype(np.float32)
    distance = np.where((offsets < mid) & (offsets > -mid), np.int64(mid - 1), np.abs(offsets))
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) when mid = 1: that branch is not taken
        ratio = _log32(distance.astype(np.float32) / np.float32(mid)) / _log32(np.float32((largest - 1) / mid))
        logarithmic = np.ceil(ratio * np.float32(mid - 1)) + np.float32(mid)
    bucket = np.where(distance <= mid, offsets.astype(np.float32), logarithmic * sign).astype(np.int64)
    return int(bucket[0]) if scalar else bucket.reshape(np.shape(relative_position))


def deberta_bucket_regions(position_buckets: int = 256, max_relative_positions: int = 512) -> dict[str, int | None]:
    """Where DeBERTa-v2's buckets are exact, where logarithmic, where the table row is clipped.

    Computed exhaustively from :func:`deberta_log_bucket` (buckets never
    decrease with the offset, so beyond the last offset examined every row
    stays clipped):

    * ``"exact_up_to"``: the largest ``E`` with ``bucket(r) = r`` for every
      ``|r| <= E``.  At least ``position_buckets // 2``; the ceiling in the
      formula keeps a few more.
    * ``"first_logarithmic"``: ``E + 1``, the first distance whose bucket
      is shared with a neighbour's; from there on buckets grow with the
      logarithm of the distance.
    * ``"last_row_from"`` / ``"first_row_from"``: the smallest ``r > 0``
      whose table row (``clip(bucket(r) + position_buckets, 0,
      2 position_buckets - 1)``) is the last, and the largest ``r < 0``
      whose row is the first: every key at least that far shares one row
      (``None`` if no offset reaches that row, as with ``position_buckets``
      of 2 or 3, whose buckets are only -1, 0 and 1).
    * ``"rows_used"``: how many of the ``2 position_buckets`` table rows any
      offset reads.

    Parameters
    ----------
    position_buckets : int, default 256
    max_relative_positions : int, default 512
        As for :func:`deberta_log_bucket`.

    Returns
    -------
    dict
        The keys above and ``"rows"`` (``2 position_buckets``).

    Examples
    --------
    >>> regions = deberta_bucket_regions()  # DeBERTa-v3's settings: 256 buckets, 512
    >>> regions["exact_up_to"], regions["last_row_from"], regions["first_row_from"]
    (131, 506, -512)
    """
    buckets, largest = _deberta_sizes(position_buckets, max_relative_positions)
    span = buckets
    check_table_fits((4 * largest + 1,), 64, f"max_relative_positions={largest}")
    reach = 2 * largest  # the rows are clipped from about max_relative_positions on
    offsets = np.arange(-reach, reach + 1, dtype=np.int64)
    bucket = deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest)
    row = np.clip(bucket + span, 0, 2 * span - 1)
    last, first = row == 2 * span - 1, row == 0
    inexact = np.abs(offsets[bucket != offsets])
    exact_up_to = int(inexact.min()) - 1 if inexact.size else reach
    return {
        "rows": 2 * span,
        "rows_used": int(np.unique(row).size),
        "exact_up_to": exact_up_to,
        "first_logarithmic": exact_up_to + 1,
        "last_row_from": int(offsets[last].min()) if last.any() else None,
        "first_row_from": int(offsets[first].max()) if first.any() else None,
    }


def deberta_relative_index(
    n_positions: int,
    max_relative_positions: int,
    *,
    position_buckets: int | None = None,
    n_queries: int | None = None,
) -> np.ndarray:
    """The row of DeBERTa's relative-position table that each query/key pair reads.

    DeBERTa (v1): ``delta(i, j) = clip(i - j + k, 0, 2k - 1)`` with
    ``k = max_relative_positions``.  DeBERTa-v2/v3 (``position_buckets``
    given): the offset first goes to its logarithmic bucket
    (:func:`deberta_log_bucket`), and the row is ``clip(bucket(i - j) + B, 0,
    2B - 1)`` with ``B = position_buckets``, as transformers'
    ``DisentangledSelfAttention`` forms ``c2p_pos``.

    Parameters
    ----------
    n_positions : int
        Sequence length ``n`` (the keys ``0 .. n - 1``), >= 1.
    max_relative_positions : int
        v1: ``k``, the table has ``2k`` rows.  v2: the config's
        ``max_relative_positions`` (or ``max_position_embeddings``), the
        distance the logarithmic buckets stretch to.
    position_buckets : int, optional
        v2's ``position_buckets`` (256 in the published checkpoints); the
        table then has ``2 position_buckets`` rows.
    n_queries : int, optional
        Only the last ``n_queries`` positions are queries (``i = n -
        n_queries .. n - 1``), as when decoding with a cache of keys; the
        result is the last ``n_queries`` rows of the square one.  (For
        queries numbered from 0, as transformers' ``build_relative_position``
        does for a query sequence shorter than the keys, take the first rows
        of the square result.)

    Returns
    -------
    numpy.ndarray of int64, shape (n_queries, n_positions)
        Entry ``(q, j)`` is the table row for query ``i = n - n_queries + q``
        and key ``j``.

    Examples
    --------
    >>> deberta_relative_index(4, 2)
    array([[2, 1, 0, 0],
           [3, 2, 1, 0],
           [3, 3, 2, 1],
           [3, 3, 3, 2]])
    >>> deberta_relative_index(4, 2, n_queries=1)  # the last query against every key
    array([[3, 3, 3, 2]])
    >>> deberta_relative_index(300, 512, position_buckets=256, n_queries=1)[0, [0, 100, 299]]
    array([462, 425, 256])
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    n_queries = n_positions if n_queries is None else check_int("n_queries", n_queries, minimum=1)
    if n_queries > n_positions:
        raise ValueError(
            f"n_queries must be <= n_positions = {n_positions} (the queries are the last positions), got {n_queries}"
        )
    if position_buckets is None:
        k = check_int("max_relative_positions", max_relative_positions, minimum=1)
    else:
        k, _ = _deberta_sizes(position_buckets, max_relative_positions)
    what = f"n_positions={n_positions}, n_queries={n_queries}"
    check_table_fits((n_queries, n_positions), 8, what, extra_bytes=24 * n_queries * n_positions)
    queries = np.arange(n_positions - n_queries, n_positions, dtype=np.int64)
    distance = queries[:, None] - np.arange(n_positions, dtype=np.int64)[None, :]
    if position_buckets is None:
        return np.clip(distance + k, 0, 2 * k - 1)
    bucket = deberta_log_bucket(distance, position_buckets=k, max_relative_positions=max_relative_positions)
    return np.clip(bucket + k, 0, 2 * k - 1)


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
    content_queries = as_array("content_queries", content_queries)
    if content_queries.ndim == 2:  # before any conversion: the float64 copies and the n x n work
        n_positions = content_queries.shape[0]
        check_table_fits(
            (n_positions, n_positions),
            8,
            f"content_queries of shape {content_queries.shape}",
            extra_bytes=8 * (6 * n_positions**2 + 4 * content_queries.size),
        )
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
    # the index, the two products it gathers from, the three terms and their sum
    check_table_fits(
        (n_positions, n_positions),
        8,
        f"content_queries of shape {content_queries.shape}",
        extra_bytes=8 * (6 * n_positions**2 + 2 * n_positions * rows),
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
