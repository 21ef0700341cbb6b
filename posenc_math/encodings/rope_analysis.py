"""What RoPE does to attention scores: relative scores and their long-term decay bound.

:func:`rope_relative_scores` is the score of a query and a key rotated by
RoPE as a function of their offset alone; :func:`rope_decay_bound` is
RoFormer's upper bound on its size (Su et al., section 3.4.3).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_base
from ._phase import DoubleDouble, reduced_angles
from .rope_scaling import _angle_frequencies

__all__ = ["rope_decay_bound", "rope_relative_scores"]


def _query_key_pairs(query, key, inv_freq, base):
    """Validate a query/key pair; return their complex pairs (half layout) and frequencies."""
    query = np.asarray(query)
    key = np.asarray(key)
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
        freqs = np.asarray(inv_freq)
        if freqs.dtype.kind not in "iuf" or freqs.shape != (n_pairs,) or not np.isfinite(freqs).all():
            raise ValueError(f"inv_freq must be a finite real array of shape ({n_pairs},)")
        freqs = freqs.astype(np.longdouble)
    q = query.astype(np.float64)
    k = key.astype(np.float64)
    return q[:n_pairs] + 1j * q[n_pairs:], k[:n_pairs] + 1j * k[n_pairs:], freqs


def _offsets(offsets) -> np.ndarray:
    offsets = np.asarray(offsets)
    if offsets.dtype == np.bool_ or offsets.dtype.kind not in "iu" or offsets.ndim != 1:
        raise TypeError(
            "offsets must be a 1-D array of integers (key - query positions), "
            f"got {offsets.dtype}, shape {offsets.shape}"
        )
    return offsets


def rope_relative_scores(query, key, offsets, *, base=10000.0, inv_freq=None) -> np.ndarray:
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
    offsets = _offsets(offsets)
    products = z_query * np.conj(z_key)
    angles = reduced_angles(-offsets, freqs)  # (n, n_pairs)
    return (np.cos(angles) * products.real - np.sin(angles) * products.imag).sum(axis=-1)


def rope_decay_bound(query, key, offsets, *, base=10000.0, inv_freq=None) -> np.ndarray:
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
    offsets = _offsets(offsets)
    products = np.append(z_query * np.conj(z_key), 0.0)
    largest_step = np.abs(np.diff(products)).max()
    angles = reduced_angles(-offsets, freqs)
    partial_sums = np.cumsum(np.cos(angles) + 1j * np.sin(angles), axis=-1)  # S_1 .. S_{d/2}
    return largest_step * np.abs(partial_sums).sum(axis=-1)
