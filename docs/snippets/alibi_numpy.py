import math

import numpy as np


def alibi_slopes(n_heads):
    """2**(-8h/c) for h = 1 .. c, c the largest power of two <= n_heads;
    then every other slope of 2c heads (h = 1, 3, 5, ...) up to n_heads."""

    def geometric(n):
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)

    c = 2 ** math.floor(math.log2(n_heads))
    extra = geometric(2 * c)[0::2][: n_heads - c]
    return np.concatenate([geometric(c), extra])


def alibi_bias(n_heads, n_positions):
    """(heads, queries, keys): -m_h * (i - j) for keys j <= i, -inf after i."""
    i = np.arange(n_positions)[:, None]
    j = np.arange(n_positions)[None, :]
    bias = -alibi_slopes(n_heads)[:, None, None] * (i - j)
    return np.where(j <= i, bias, -np.inf)
