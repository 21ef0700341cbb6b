"""posenc_math.plotting.precision: the figures draw the module's numbers."""

import matplotlib

matplotlib.use("agg")

import numpy as np

from posenc_math.plotting import log_positions, phase_error_growth, position_spacing
from posenc_math.precision import phase_error


def test_phase_error_growth_draws_the_largest_error():
    positions = log_positions(5000, 20)
    figure = phase_error_growth(positions, dim=16)
    line = figure.axes[0].get_lines()[0]  # "all bfloat16"
    formats = {"position_dtype": "bfloat16", "frequency_dtype": "bfloat16", "angle_dtype": "bfloat16"}
    expected = np.abs(phase_error(positions, 16, **formats)).max(axis=1)
    drawn = np.asarray(line.get_ydata(), dtype=float)
    assert np.allclose(drawn[np.isfinite(drawn)], expected[np.isfinite(drawn)])


def test_position_spacing_marks_the_limits():
    figure = position_spacing(2**26)
    labels = [text.get_text() for text in figure.axes[0].texts]
    assert {"256", "2,048", "16,777,216"} <= set(labels)


def test_log_positions_are_distinct_and_bounded():
    positions = log_positions(10**6)
    assert positions[0] == 1 and positions[-1] == 10**6 and np.all(np.diff(positions) > 0)
