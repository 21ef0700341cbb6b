import numpy as np


def rope_inv_freq(dim, base=10000.0):
    """The frequency of pair j: w_j = base**(-2j/dim), j = 0 .. dim/2 - 1."""
    return base ** (-np.arange(0, dim, 2) / dim)


def rope_cos_sin(positions, inv_freq):
    """cos and sin of every angle p * w_j, each twice: (n, dim), halves equal."""
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq
    angles = np.concatenate([angles, angles], axis=-1)  # (n, dim)
    return np.cos(angles), np.sin(angles)


def rotate_half(x):
    """(x1, x2) -> (-x2, x1), for the two halves x1, x2 of the last axis."""
    x1, x2 = np.split(x, 2, axis=-1)
    return np.concatenate([-x2, x1], axis=-1)


def apply_rope(x, cos, sin):
    """Turn each pair (x[..., j], x[..., j + dim/2]) of x (..., n, dim)."""
    return x * cos + rotate_half(x) * sin
