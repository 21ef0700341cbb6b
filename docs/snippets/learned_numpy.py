import numpy as np


def learned_table(n_positions, dim, std=0.02, seed=0):
    """An untrained table: one vector per position, entries from N(0, std**2)."""
    return np.random.default_rng(seed).normal(0.0, std, size=(n_positions, dim))


def position_vectors(table, n_tokens):
    """The vectors added to the tokens of a sequence: rows 0 .. n_tokens - 1."""
    if n_tokens > len(table):
        raise ValueError(f"{n_tokens} tokens, but the table has {len(table)} rows")
    return table[:n_tokens]
