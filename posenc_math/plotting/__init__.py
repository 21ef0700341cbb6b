"""Figures for the site, built from the library's own tables.

matplotlib is an optional dependency (the ``plot`` extra); it is imported
only here.  Every helper returns the :class:`matplotlib.figure.Figure` it
drew, draws nothing random, and labels its axes.
"""

from .._extras import require_available
from .beyond import (
    alibi_bias_description,
    alibi_bias_maps,
    alibi_slope_description,
    alibi_slope_plot,
    extension_wavelengths,
    extension_wavelengths_description,
    rope_mean_score_description,
    rope_mean_score_plot,
    rope_score_decay,
    rope_score_decay_description,
    shaw_clipping_description,
    shaw_clipping_map,
    t5_bucket_description,
    t5_bucket_map,
    yarn_ramp_description,
    yarn_ramp_plot,
)
from .describe import curves_description
from .learned import (
    embedding_difference,
    embedding_difference_description,
    embedding_sum,
    naive_alternatives,
    pca_positions,
    pca_positions_description,
    position_vectors,
    position_vectors_description,
    similarity_matrices,
    step_sizes,
    step_sizes_description,
)
from .model_config import DescribedFigure, described, layer_wavelengths, layer_wavelengths_description
from .precision import (
    log_positions,
    phase_error_growth,
    phase_error_growth_description,
    position_spacing,
    position_spacing_description,
)
from .relative_attention import deberta_terms_description, deberta_terms_map, transformer_xl_terms_map
from .rope_variants import (
    FEATURE_SCHEMES,
    axial_score_map,
    longrope_wavelengths,
    longrope_wavelengths_description,
    mrope_position_ids,
    mrope_position_ids_description,
    rope_feature_description,
    rope_feature_map,
    xpos_decay,
    xpos_decay_description,
)
from .rotation import dials_animation, rope_pair_rotation, shift_hands
from .sinusoid import (
    bits_and_waves,
    clock_hands,
    offset_curve,
    offset_curve_description,
    table_panels,
    wavelength_plot,
)
from .tables import heatmap

# matplotlib is imported inside each helper; without it, say now which extra installs it.
require_available("matplotlib", "plot", "posenc_math.plotting")

__all__ = [
    "FEATURE_SCHEMES",
    "DescribedFigure",
    "alibi_bias_description",
    "alibi_bias_maps",
    "alibi_slope_description",
    "alibi_slope_plot",
    "axial_score_map",
    "bits_and_waves",
    "clock_hands",
    "curves_description",
    "deberta_terms_description",
    "deberta_terms_map",
    "described",
    "dials_animation",
    "embedding_difference",
    "embedding_difference_description",
    "embedding_sum",
    "extension_wavelengths",
    "extension_wavelengths_description",
    "heatmap",
    "layer_wavelengths",
    "layer_wavelengths_description",
    "log_positions",
    "longrope_wavelengths",
    "longrope_wavelengths_description",
    "mrope_position_ids",
    "mrope_position_ids_description",
    "naive_alternatives",
    "offset_curve",
    "offset_curve_description",
    "pca_positions",
    "pca_positions_description",
    "phase_error_growth",
    "phase_error_growth_description",
    "position_spacing",
    "position_spacing_description",
    "position_vectors",
    "position_vectors_description",
    "rope_feature_description",
    "rope_feature_map",
    "rope_mean_score_description",
    "rope_mean_score_plot",
    "rope_pair_rotation",
    "rope_score_decay",
    "rope_score_decay_description",
    "shaw_clipping_description",
    "shaw_clipping_map",
    "shift_hands",
    "similarity_matrices",
    "step_sizes",
    "step_sizes_description",
    "t5_bucket_description",
    "t5_bucket_map",
    "table_panels",
    "transformer_xl_terms_map",
    "wavelength_plot",
    "xpos_decay",
    "xpos_decay_description",
    "yarn_ramp_description",
    "yarn_ramp_plot",
]
