"""Witnesses of the why-positions page's theorems (see :mod:`posenc_math.theorems.why_positions`)."""

from __future__ import annotations

import numpy as np

from .. import encodings
from . import witness


@witness("attention-permutation-equivariant")
def attention_permutation_equivariant() -> float:
    """max |Attn(P X) - P Attn(X)| with random W_Q, W_K, W_V and permutations, n = 2, 5, 16, 64 tokens."""
    rng = np.random.default_rng(1)
    worst = 0.0
    for n in (2, 5, 16, 64):
        tokens = rng.normal(size=(n, 16))
        wq, wk, wv = (rng.normal(size=(16, 16)) / 4 for _ in range(3))
        order = rng.permutation(n)

        def attend(z, wq=wq, wk=wk, wv=wv):
            return encodings.dot_product_attention(z @ wq, z @ wk, z @ wv)

        worst = max(worst, float(np.abs(attend(tokens[order]) - attend(tokens)[order]).max()))
    return worst
