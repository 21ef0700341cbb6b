"""Does position information added at the input survive a stack of blocks?

A toy, not a trained model: random pre-norm MLP blocks (seeded), with and
without the residual connection, and a linear probe (least squares) that
tries to read the input's sinusoidal position vector back from the stream
after each block.

With the residual connection block ``l`` computes
``h_{l+1} = h_l + f_l(h_l)``, so ``h_L = h_0 + f_0(h_0) + ... + f_{L-1}(h_{L-1})``:
the input sum ``h_0 = content + position`` is carried forward unchanged and
only has later terms added to it. Without it, ``h_{l+1} = f_l(h_l)`` and the
input reaches layer ``L`` only through ``L`` nonlinear maps.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_int, check_real
from .encodings.sinusoidal import sinusoidal

__all__ = ["HIDDEN_FACTOR", "position_readout"]

#: The hidden width of each MLP block, in multiples of the stream's width (the transformer's usual 4).
HIDDEN_FACTOR = 4


def _layer_norm(h: np.ndarray) -> np.ndarray:
    centred = h - h.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred**2).mean(axis=-1, keepdims=True) + 1e-6)


def _held_out_r2(features: np.ndarray, target: np.ndarray, n_train: int) -> float:
    """R^2 of a least-squares linear map (with intercept) fitted on the first
    ``n_train`` sequences and scored on the rest."""
    n_seq, n_pos, width = features.shape
    design = np.concatenate([features, np.ones((n_seq, n_pos, 1))], axis=-1)
    goal = np.broadcast_to(target, (n_seq, *target.shape))
    train_x, test_x = design[:n_train].reshape(-1, width + 1), design[n_train:].reshape(-1, width + 1)
    train_y, test_y = goal[:n_train].reshape(-1, target.shape[1]), goal[n_train:].reshape(-1, target.shape[1])
    weights, *_ = np.linalg.lstsq(train_x, train_y, rcond=None)
    residual = test_y - test_x @ weights
    total = test_y - test_y.mean(axis=0)
    return float(1.0 - np.sum(residual**2) / np.sum(total**2))


def position_readout(
    *,
    n_blocks: int = 12,
    width: int = 64,
    n_positions: int = 64,
    n_sequences: int = 16,
    block_scale: float = 0.5,
    content_scale: float = 0.5,
    residual: bool = True,
    seed: int = 0,
) -> np.ndarray:
    """How well a linear probe reads the input's position vector after each block.

    The input is ``h_0[s, p] = c[s, p] + PE(p)``: standard normal content
    vectors times ``content_scale`` (new ones for every sequence ``s``) plus
    the sinusoidal table :func:`~posenc_math.sinusoidal` (interleaved,
    base 10000). Block ``l`` is
    ``f_l(h) = relu(LN(h) W1) W2`` with ``W1`` of shape ``(width, H)``,
    ``H = HIDDEN_FACTOR * width`` (4 times the width), entries of variance
    ``1 / width``, and ``W2`` of shape ``(H, width)``, entries of variance
    ``block_scale**2 / H``;
    LN centres and scales each row (no learned gain). With ``residual`` the
    stream is ``h + f(h)``, else ``f(h)``. After each block a least-squares
    linear map (with intercept) from the stream to ``PE(p)`` is fitted on the
    first half of the sequences and scored on the other half.

    Parameters
    ----------
    n_blocks : int, default 12
    width : int, default 64
        Width of the stream (even).
    n_positions : int, default 64
    n_sequences : int, default 16
        At least 2; half for fitting, half for scoring.
    block_scale : float, default 0.5
        Scale of each block's output (positive).
    content_scale : float, default 0.5
        Scale of the content vectors (non-negative).
    residual : bool, default True
    seed : int, default 0
        Seed of ``numpy.random.default_rng``: content, then ``W1``,
        ``W2`` block by block (the same weights with and without residual).

    Returns
    -------
    numpy.ndarray, shape (n_blocks + 1,)
        Held-out R^2 of the probe on the input (entry 0) and after each block;
        1 means the position vector is read back exactly.

    Examples
    --------
    >>> with_skip = position_readout(n_blocks=4)
    >>> without = position_readout(n_blocks=4, residual=False)
    >>> bool(with_skip[-1] > without[-1])
    True
    """
    n_blocks = check_int("n_blocks", n_blocks, minimum=1)
    width = check_int("width", width, minimum=2)
    if width % 2:
        raise ValueError(f"width must be even (the sinusoid pairs sin and cos), got {width}")
    n_positions = check_int("n_positions", n_positions, minimum=2)
    n_sequences = check_int("n_sequences", n_sequences, minimum=2)
    block_scale = check_real("block_scale", block_scale)
    content_scale = check_real("content_scale", content_scale)
    if not block_scale > 0:
        raise ValueError(f"block_scale must be positive, got {block_scale}")
    if content_scale < 0:
        raise ValueError(f"content_scale must be non-negative, got {content_scale}")
    if not isinstance(residual, bool):
        raise TypeError(f"residual must be a bool, got {type(residual).__name__}")
    seed = check_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    table = sinusoidal(n_positions, width)
    stream = content_scale * rng.normal(size=(n_sequences, n_positions, width)) + table
    n_train = n_sequences // 2
    scores = [_held_out_r2(stream, table, n_train)]
    for _ in range(n_blocks):
        hidden = HIDDEN_FACTOR * width
        w1 = rng.normal(scale=1 / np.sqrt(width), size=(width, hidden))
        w2 = rng.normal(scale=block_scale / np.sqrt(hidden), size=(hidden, width))
        update = np.maximum(_layer_norm(stream) @ w1, 0.0) @ w2
        stream = stream + update if residual else update
        scores.append(_held_out_r2(stream, table, n_train))
    return np.asarray(scores)
