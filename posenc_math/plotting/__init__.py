"""Figures for the site, built from the library's own tables.

matplotlib is an optional dependency (the ``plot`` extra); it is imported
only here.  Every helper returns the :class:`matplotlib.figure.Figure` it
drew, draws nothing random, and labels its axes.
"""

from .beyond import (
    alibi_bias_maps,
    alibi_slope_plot,
    extension_wavelengths,
    rope_mean_score_plot,
    rope_score_decay,
    shaw_clipping_map,
    t5_bucket_map,
    yarn_ramp_plot,
)
from .learned import (
    embedding_sum,
    naive_alternatives,
    pca_positions,
    position_vectors,
    similarity_matrices,
    step_sizes,
)
from .precision import log_positions, phase_error_growth, position_spacing
from .sinusoid import bits_and_waves, clock_hands, offset_curve, table_panels, wavelength_plot
from .tables import heatmap

__all__ = [
    "alibi_bias_maps",
    "alibi_slope_plot",
    "bits_and_waves",
    "clock_hands",
    "embedding_sum",
    "extension_wavelengths",
    "heatmap",
    "log_positions",
    "naive_alternatives",
    "offset_curve",
    "pca_positions",
    "phase_error_growth",
    "position_spacing",
    "position_vectors",
    "rope_mean_score_plot",
    "rope_score_decay",
    "shaw_clipping_map",
    "similarity_matrices",
    "step_sizes",
    "t5_bucket_map",
    "table_panels",
    "wavelength_plot",
    "yarn_ramp_plot",
]
