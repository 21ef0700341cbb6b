import torch


def sinusoidal(n_positions, dim, base=10000.0, dtype=torch.float32):
    """Row p: sin(p w_i) in column 2i, cos(p w_i) in 2i + 1; w_i = base**(-2i/dim)."""
    inv_freq = base ** (-torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    angles = torch.arange(n_positions, dtype=torch.float64)[:, None] * inv_freq
    table = torch.empty(n_positions, dim, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.to(dtype)  # angles in float64, rounded once
