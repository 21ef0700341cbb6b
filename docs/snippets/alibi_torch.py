import math

import torch


def alibi_slopes(n_heads):
    """2**(-8h/c) for h = 1 .. c, c the largest power of two <= n_heads;
    then every other slope of 2c heads (h = 1, 3, 5, ...) up to n_heads."""

    def geometric(n):
        return 2.0 ** (-8.0 * torch.arange(1, n + 1, dtype=torch.float32) / n)

    c = 2 ** math.floor(math.log2(n_heads))
    extra = geometric(2 * c)[0::2][: n_heads - c]
    return torch.cat((geometric(c), extra))


def alibi_bias(n_heads, n_positions):
    """(heads, queries, keys): -m_h * (i - j) for keys j <= i, -inf after i."""
    i = torch.arange(n_positions)[:, None]
    j = torch.arange(n_positions)[None, :]
    bias = -alibi_slopes(n_heads)[:, None, None] * (i - j)
    return bias.masked_fill(j > i, float("-inf"))
