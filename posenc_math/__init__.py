"""posenc-math: transformer positional encodings, with checked derivations.

Everything public is importable from here.  The numpy encodings live in
:mod:`posenc_math.encodings`; the SymPy theorems that license them in
:mod:`posenc_math.theorems` (imported lazily: ``import sympy`` is slow).
"""

from . import conventions, precision, pretrained
from .encodings import (
    alibi_bias,
    alibi_key_bias,
    alibi_slopes,
    binary,
    causal_mask,
    cosine_similarity_matrix,
    deberta_relative_index,
    deberta_scores,
    dot_product_attention,
    embedding_lookup,
    extension_frequencies,
    frequencies,
    interleaved_to_half,
    learned_table,
    ntk_aware_base,
    principal_components,
    relative_positions,
    rope,
    rope_decay_bound,
    rope_frequencies,
    rope_relative_scores,
    shaw_clip,
    sinusoidal,
    softmax,
    t5_bucket,
    timing_signal,
    transformer_xl_scores,
    translation_matrix,
    wavelengths,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "alibi_bias",
    "alibi_key_bias",
    "alibi_slopes",
    "binary",
    "causal_mask",
    "conventions",
    "cosine_similarity_matrix",
    "deberta_relative_index",
    "deberta_scores",
    "dot_product_attention",
    "embedding_lookup",
    "extension_frequencies",
    "frequencies",
    "interleaved_to_half",
    "learned_table",
    "ntk_aware_base",
    "precision",
    "pretrained",
    "principal_components",
    "relative_positions",
    "rope",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_relative_scores",
    "shaw_clip",
    "sinusoidal",
    "softmax",
    "t5_bucket",
    "timing_signal",
    "transformer_xl_scores",
    "translation_matrix",
    "wavelengths",
]
