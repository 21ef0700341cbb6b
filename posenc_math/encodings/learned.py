"""Learned absolute position embeddings: a trainable table and a lookup.

A learned encoding is a matrix with one row per position, initialised at
random and then trained with the rest of the model (BERT, GPT-2, MiniLM).
Reading it is an embedding lookup: row ``p`` for position ``p``.  Nothing
here trains; this module builds the freshly initialised table (seeded, so a
page shows the same numbers on every build), looks rows up with checked
indices, and gives the two tools the site uses to look inside any table,
learned or not: the cosine-similarity matrix and a principal-component
projection.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validate import (
    as_array,
    check_int,
    check_real,
    check_real_array,
    check_table,
    check_table_fits,
    is_integer_array,
)

__all__ = [
    "cosine_similarity_matrix",
    "dot_product_attention",
    "embedding_lookup",
    "learned_table",
    "principal_components",
]


def learned_table(n_positions: int, dim: int, *, seed: int = 0, std: float = 0.02) -> np.ndarray:
    """A freshly initialised learned position table, before any training.

    Entries are drawn independently from a normal distribution with mean 0
    and standard deviation ``std``, truncated at two standard deviations
    (resampled until inside), as the original BERT code initialises its
    embeddings (TensorFlow's ``truncated_normal_initializer`` with
    ``initializer_range = 0.02``; the Hugging Face PyTorch port draws a
    plain normal).  The generator is
    ``numpy.random.default_rng(seed)``, so one seed always gives one table.

    Parameters
    ----------
    n_positions : int
        Number of rows (the longest input the model can take), >= 1.
    dim : int
        Width of each row, >= 1.
    seed : int, default 0
        Seed of the random generator, >= 0.
    std : float, default 0.02
        Standard deviation of the initial values, > 0.

    Returns
    -------
    numpy.ndarray
        Shape ``(n_positions, dim)``, float64, every entry in
        ``[-2 std, 2 std]``.

    References
    ----------
    Devlin et al., "BERT: Pre-training of Deep Bidirectional Transformers
    for Language Understanding", 2019.

    Examples
    --------
    >>> table = learned_table(512, 384, seed=0)
    >>> table.shape
    (512, 384)
    >>> bool(np.abs(table).max() <= 0.04)
    True
    >>> again = learned_table(512, 384, seed=0)
    >>> bool((table == again).all())
    True
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = check_int("dim", dim, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    std = check_real("std", std)
    if std <= 0.0:
        raise ValueError(f"std must be a finite number > 0, got {std!r}")
    check_table_fits((n_positions, dim), 8, f"n_positions={n_positions}, dim={dim}")
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((n_positions, dim))
    outside = np.abs(table) > 2.0
    while outside.any():
        table[outside] = rng.standard_normal(int(outside.sum()))
        outside = np.abs(table) > 2.0
    return table * std


def embedding_lookup(table: ArrayLike, ids: ArrayLike) -> np.ndarray:
    """Rows of ``table`` at the integer indices ``ids``: ``table[ids]``, checked.

    This is all an embedding layer does in the forward pass: for positions
    ``ids = [0, 1, ..., n-1]`` it returns the first ``n`` rows of a position
    table; for token ids it returns their word vectors.  Unlike bare numpy
    indexing, a negative index is refused (numpy would silently read from
    the end of the table) and an index past the last row names the table's
    size.

    Parameters
    ----------
    table : array_like, shape (n_rows, dim)
        The embedding matrix.
    ids : int or array_like of int
        Indices in ``0 .. n_rows - 1``, any shape.

    Returns
    -------
    numpy.ndarray
        Shape ``numpy.shape(ids) + (dim,)``, the table's dtype.

    Examples
    --------
    >>> table = np.arange(12.0).reshape(4, 3)
    >>> embedding_lookup(table, [2, 0])
    array([[6., 7., 8.],
           [0., 1., 2.]])
    >>> embedding_lookup(table, 4)
    Traceback (most recent call last):
    ...
    ValueError: ids must be in 0 .. 3 (the table has 4 rows); got 4
    """
    table = as_array("table", table)
    if table.ndim != 2 or table.shape[0] == 0:
        raise ValueError(f"table must be a 2-D array (n_rows, dim) with n_rows >= 1, got shape {table.shape}")
    ids_array = as_array("ids", ids)
    empty_list = ids_array.size == 0 and ids_array.dtype == np.float64
    if not (is_integer_array(ids_array) or empty_list):
        raise TypeError(f"ids must be integers, got {type(ids).__name__} of dtype {ids_array.dtype}")
    check_table_fits(
        (*ids_array.shape, table.shape[1]),
        table.dtype.itemsize,
        f"ids of shape {ids_array.shape}",
        extra_bytes=10 * ids_array.size,
    )
    ids_array = ids_array.astype(np.int64)
    n_rows = table.shape[0]
    if ids_array.size:
        bad = ids_array[(ids_array < 0) | (ids_array >= n_rows)]
        if bad.size:
            raise ValueError(f"ids must be in 0 .. {n_rows - 1} (the table has {n_rows} rows); got {int(bad.flat[0])}")
    return table[ids_array]


def cosine_similarity_matrix(table: ArrayLike) -> np.ndarray:
    """Cosine similarity of every pair of rows.

    Entry ``(i, j)`` is ``<x_i, x_j> / (|x_i| |x_j|)``.  For a position
    table this shows how alike two positions look to the model, whatever the
    rows' lengths.  Each row is divided by its largest magnitude before its
    norm is taken, so rows of any finite size (``1e200`` or ``1e-200``,
    subnormal numbers included) give the right cosines without overflow or
    underflow.

    Parameters
    ----------
    table : array_like, shape (n_rows, dim)
        Finite real values; no row may be exactly all zeros (its direction
        is undefined: ``ValueError`` naming the row).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_rows, n_rows)``, symmetric, ones on the diagonal, values
        in ``[-1, 1]``.

    Examples
    --------
    >>> rows = [[1.0, 0.0], [1.0, 1.0], [0.0, -2.0]]
    >>> cosine_similarity_matrix(rows).round(3)
    array([[ 1.   ,  0.707,  0.   ],
           [ 0.707,  1.   , -0.707],
           [ 0.   , -0.707,  1.   ]])
    >>> cosine_similarity_matrix([[1e200, 1e200], [1e200, 0.0]]).round(4)
    array([[1.    , 0.7071],
           [0.7071, 1.    ]])
    """
    table = check_table("table", table, finite=True, axes="(rows, dim)")
    check_table_fits((table.shape[0], table.shape[0]), 8, f"table of shape {table.shape}", extra_bytes=2 * table.nbytes)
    largest = np.abs(table).max(axis=1)
    if (largest == 0.0).any():
        row = int(np.flatnonzero(largest == 0.0)[0])
        raise ValueError(f"table row {row} is all zeros; its cosine similarity is undefined")
    unit = table / largest[:, None]  # every row's largest entry is now +-1: no overflow, no underflow
    unit /= np.linalg.norm(unit, axis=1)[:, None]
    similarity = unit @ unit.T
    np.fill_diagonal(similarity, 1.0)
    return np.clip(similarity, -1.0, 1.0)


def principal_components(table: ArrayLike, n_components: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Project the rows onto their first principal components (numpy SVD).

    The rows are centred (their mean subtracted), then
    ``U S V^T = centred`` and the projection is ``U S`` restricted to the
    first ``n_components`` columns.  Each component's sign is fixed so that
    its largest-magnitude loading in ``V`` is positive, so the picture does
    not flip between numpy builds.

    Parameters
    ----------
    table : array_like, shape (n_rows, dim)
        Finite values, at least 2 rows.
    n_components : int, default 2
        How many components, in ``1 .. min(n_rows, dim)``.

    Returns
    -------
    projection : numpy.ndarray
        Shape ``(n_rows, n_components)``: the coordinates of each row.
    explained : numpy.ndarray
        Shape ``(n_components,)``: the fraction of the total variance each
        component carries.

    Examples
    --------
    >>> points = [[0.0, 0.0], [1.0, 0.1], [2.0, 0.0], [3.0, 0.1]]
    >>> projection, explained = principal_components(points, 1)
    >>> projection.ravel().round(2)
    array([-1.5, -0.5,  0.5,  1.5])
    >>> bool(explained[0] > 0.99)
    True
    """
    table = check_table("table", table, finite=True, axes="(rows, dim)")
    n_rows, dim = table.shape
    if n_rows < 2:
        raise ValueError(f"table must have at least 2 rows for a projection, got {n_rows}")
    n_components = check_int("n_components", n_components, minimum=1)
    if n_components > min(n_rows, dim):
        raise ValueError(
            f"n_components must be in 1 .. {min(n_rows, dim)} for a table of shape {table.shape}; got {n_components}"
        )
    centred = table - table.mean(axis=0)
    left, singular, right_t = np.linalg.svd(centred, full_matrices=False)
    total = float((singular**2).sum())
    signs = np.sign(right_t[np.arange(right_t.shape[0]), np.abs(right_t).argmax(axis=1)])
    signs[signs == 0] = 1.0
    projection = (left * singular * signs)[:, :n_components]
    explained = (singular**2 / total)[:n_components] if total > 0 else np.zeros(n_components)
    return projection, explained


def dot_product_attention(queries: ArrayLike, keys: ArrayLike, values: ArrayLike) -> np.ndarray:
    """Scaled dot-product attention, ``softmax(Q K^T / sqrt(d)) V``, in numpy.

    No mask and no positions: the function sees a set of vectors, which is
    why permuting its input rows permutes its output rows the same way
    (theorem ``attention-permutation-equivariant``).  The softmax subtracts
    each row's maximum first, so large scores do not overflow.

    Parameters
    ----------
    queries : array_like, shape (..., n, d)
    keys : array_like, shape (..., m, d)
    values : array_like, shape (..., m, d_v)

    Returns
    -------
    numpy.ndarray
        Shape ``(..., n, d_v)``, float64.

    References
    ----------
    Vaswani et al., "Attention Is All You Need", 2017, equation (1).

    Examples
    --------
    >>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> order = [2, 0, 1]
    >>> shuffled = x[order]
    >>> out = dot_product_attention(shuffled, shuffled, shuffled)
    >>> bool(np.allclose(out, dot_product_attention(x, x, x)[order]))
    True
    """
    raw = [as_array(name, value) for name, value in (("queries", queries), ("keys", keys), ("values", values))]
    if all(array.ndim >= 2 for array in raw):  # before any conversion: the float64 copies, the scores
        try:
            lead = np.broadcast_shapes(*(array.shape[:-2] for array in raw))
        except ValueError:
            raise ValueError(
                f"the leading axes of queries {raw[0].shape[:-2]}, keys {raw[1].shape[:-2]} and values "
                f"{raw[2].shape[:-2]} must broadcast together"
            ) from None
        n_scores = int(np.prod(lead, dtype=np.int64)) * raw[0].shape[-2] * raw[1].shape[-2]
        check_table_fits(
            (*lead, raw[0].shape[-2], raw[1].shape[-2]),
            8,
            f"queries {raw[0].shape} and keys {raw[1].shape}",
            extra_bytes=16 * n_scores + 9 * sum(array.size for array in raw),
        )
    queries, keys, values = raw
    arrays = []
    for name, value in (("queries", queries), ("keys", keys), ("values", values)):
        value = check_real_array(name, value, finite=False)
        if value.ndim < 2 or 0 in value.shape[-2:]:
            raise ValueError(f"{name} must have shape (..., n, d) with n, d >= 1, got {value.shape}")
        if not np.isfinite(value).all():
            raise ValueError(f"{name} must contain only finite numbers")
        arrays.append(value)
    queries, keys, values = arrays
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError(
            f"queries and keys must have the same last dimension d; got {queries.shape[-1]} and {keys.shape[-1]}"
        )
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError(
            f"keys and values must have the same number of rows m; got {keys.shape[-2]} and {values.shape[-2]}"
        )
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(queries.shape[-1])
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ values
