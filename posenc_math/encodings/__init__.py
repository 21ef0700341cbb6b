"""numpy implementations of positional encodings."""

from .binary import binary
from .learned import (
    cosine_similarity_matrix,
    dot_product_attention,
    embedding_lookup,
    learned_table,
    principal_components,
)
from .sinusoidal import frequencies, sinusoidal, timing_signal, wavelengths
from .translation import translation_matrix

__all__ = [
    "binary",
    "cosine_similarity_matrix",
    "dot_product_attention",
    "embedding_lookup",
    "learned_table",
    "principal_components",
    "frequencies",
    "sinusoidal",
    "timing_signal",
    "translation_matrix",
    "wavelengths",
]
