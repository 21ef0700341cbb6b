import torch


def learned_table(n_positions, dim):
    """A position table as BERT's: an embedding layer, one vector per position."""
    return torch.nn.Embedding(n_positions, dim)


def position_vectors(table, n_tokens):
    """The vectors added to the tokens of a sequence: rows 0 .. n_tokens - 1
    (an IndexError past the last row)."""
    return table(torch.arange(n_tokens))
