"""posenc-math: transformer positional encodings, with checked derivations.

Everything public is importable from here.  The numpy encodings live in
:mod:`posenc_math.encodings`; the SymPy theorems that license them in
:mod:`posenc_math.theorems` (imported lazily: ``import sympy`` is slow).
"""

from .encodings import (
    alibi_bias,
    alibi_key_bias,
    alibi_slopes,
    causal_mask,
    softmax,
    relative_positions,
    extension_frequencies,
    interleaved_to_half,
    ntk_aware_base,
    rope,
    rope_decay_bound,
    rope_frequencies,
    rope_relative_scores,
    shaw_clip,
    t5_bucket,
    binary,
    cosine_similarity_matrix,
    dot_product_attention,
    embedding_lookup,
    learned_table,
    principal_components,
    frequencies,
    sinusoidal,
    timing_signal,
    translation_matrix,
    wavelengths,
)
from . import conventions, precision, pretrained

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "alibi_bias",
    "alibi_key_bias",
    "alibi_slopes",
    "causal_mask",
    "softmax",
    "relative_positions",
    "extension_frequencies",
    "interleaved_to_half",
    "ntk_aware_base",
    "rope",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_relative_scores",
    "shaw_clip",
    "t5_bucket",
    "binary",
    "cosine_similarity_matrix",
    "dot_product_attention",
    "embedding_lookup",
    "learned_table",
    "conventions",
    "precision",
    "pretrained",
    "principal_components",
    "frequencies",
    "sinusoidal",
    "timing_signal",
    "translation_matrix",
    "wavelengths",
]
