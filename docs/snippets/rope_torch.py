import torch


def rope_inv_freq(dim, base=10000.0):
    """The frequency of pair j: w_j = base**(-2j/dim), j = 0 .. dim/2 - 1."""
    return 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim)


def rope_cos_sin(positions, inv_freq, dtype=torch.float32):
    """cos and sin of every angle p * w_j (computed in float32), each angle twice."""
    angles = positions.to(torch.float32)[:, None] * inv_freq
    angles = torch.cat((angles, angles), dim=-1)  # (n, dim)
    return angles.cos().to(dtype), angles.sin().to(dtype)


def rotate_half(x):
    """(x1, x2) -> (-x2, x1), for the two halves x1, x2 of the last axis."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, cos, sin):
    """Turn each pair (x[..., j], x[..., j + dim/2]) of x (..., n, dim)."""
    return x * cos + rotate_half(x) * sin
