import numpy as np


def sinusoidal(n_positions, dim, base=10000.0):
    """Row p: sin(p w_i) in column 2i, cos(p w_i) in 2i + 1; w_i = base**(-2i/dim)."""
    inv_freq = base ** (-np.arange(0, dim, 2) / dim)
    angles = np.arange(n_positions)[:, None] * inv_freq  # (n_positions, dim // 2)
    table = np.empty((n_positions, dim))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
