"""numpy implementations of positional encodings."""

from .alibi import alibi_bias, alibi_key_bias, alibi_slopes, causal_mask, softmax
from .binary import binary
from .learned import (
    cosine_similarity_matrix,
    dot_product_attention,
    embedding_lookup,
    learned_table,
    principal_components,
)
from .relative import relative_positions, shaw_clip, t5_bucket
from .relative_attention import (
    deberta_bucket_regions,
    deberta_log_bucket,
    deberta_relative_index,
    deberta_scores,
    transformer_xl_scores,
)
from .rope import apply_rotary, interleaved_to_half, rope, rope_cos_sin
from .rope_analysis import rope_decay_bound, rope_relative_scores, rope_scores
from .rope_config import RopeLayer, rope_from_config, rope_layers
from .rope_scaling import extension_frequencies, ntk_aware_base, rope_frequencies, yarn_ramp
from .rope_variants import (
    axial_positions,
    axial_rope,
    mrope,
    mrope_positions,
    pixel_frequencies,
    xpos,
    xpos_scales,
)
from .sinusoidal import frequencies, sinusoidal, timing_signal, wavelengths
from .translation import translation_matrix

__all__ = [
    "RopeLayer",
    "alibi_bias",
    "alibi_key_bias",
    "alibi_slopes",
    "apply_rotary",
    "axial_positions",
    "axial_rope",
    "binary",
    "causal_mask",
    "cosine_similarity_matrix",
    "deberta_bucket_regions",
    "deberta_log_bucket",
    "deberta_relative_index",
    "deberta_scores",
    "dot_product_attention",
    "embedding_lookup",
    "extension_frequencies",
    "frequencies",
    "interleaved_to_half",
    "learned_table",
    "mrope",
    "mrope_positions",
    "ntk_aware_base",
    "pixel_frequencies",
    "principal_components",
    "relative_positions",
    "rope",
    "rope_cos_sin",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_from_config",
    "rope_layers",
    "rope_relative_scores",
    "rope_scores",
    "shaw_clip",
    "sinusoidal",
    "softmax",
    "t5_bucket",
    "timing_signal",
    "transformer_xl_scores",
    "translation_matrix",
    "wavelengths",
    "xpos",
    "xpos_scales",
    "yarn_ramp",
]
