"""posenc_math.plotting.rope_variants: each figure draws the library's own numbers."""

import matplotlib

matplotlib.use("agg")

import itertools

import numpy as np
import pytest

from posenc_math import mrope_positions, rope_frequencies, xpos_scales
from posenc_math.plotting import (
    axial_score_map,
    longrope_wavelengths,
    mrope_position_ids,
    rope_feature_map,
    xpos_decay,
)
from posenc_math.plotting.rope_variants import FEATURE_SCHEMES


def test_rope_feature_map_finds_each_features_role():
    figure = rope_feature_map(head_dim=32)
    roles = dict(zip(FEATURE_SCHEMES, np.asarray(figure.axes[0].get_images()[0].get_array()), strict=True))
    position, nothing = 1, 0
    assert (roles["Llama: every pair"] == position).all()
    assert (roles["GPT-NeoX, StableLM: partial 0.25"] == [position] * 8 + [nothing] * 24).all()
    assert (roles["Phi: partial 0.5"] == [position] * 16 + [nothing] * 16).all()
    # proportional: the first 4 of 16 pairs in each half turn (half layout)
    expected = ([position] * 4 + [nothing] * 12) * 2
    assert (roles["Gemma 4 global: proportional 0.25"] == expected).all()
    # M-RoPE sections (4, 6, 6) of 16 pairs, repeated for both halves: temporal 2, height 3, width 4
    assert (roles["Qwen2-VL: M-RoPE"] == ([2] * 4 + [3] * 6 + [4] * 6) * 2).all()
    assert (roles["axial 2-D (rotary-embedding-torch)"] == [3] * 16 + [4] * 16).all()


def test_rope_feature_map_refuses_unknown_rows_and_sizes():
    with pytest.raises(ValueError, match="scheme must be one of"):
        rope_feature_map(["Mistral"])
    with pytest.raises(ValueError, match="head_dim"):
        rope_feature_map(head_dim=40)


def test_mrope_position_ids_draws_the_three_ids():
    segments = [3, (2, 2, 3), 4]
    lines = mrope_position_ids(segments).axes[0].get_lines()
    ids = mrope_positions(segments)
    for axis in range(3):
        assert np.array_equal(lines[axis].get_ydata(), ids[axis])


def test_axial_score_map_peaks_where_query_and_key_meet():
    scores = np.asarray(axial_score_map(np.ones(16), np.ones(16), (9, 9)).axes[0].get_images()[0].get_array())
    assert scores.shape == (9, 9)
    assert np.unravel_index(np.argmax(scores), scores.shape) == (4, 4)  # offset 0: the largest score
    assert scores[4, 4] == pytest.approx(16.0)


def test_xpos_decay_draws_the_scales():
    figure = xpos_decay(np.ones(16), np.ones(16), max_offset=100, pairs=(0, 7))
    first, last = figure.axes[0].get_lines()
    scales = xpos_scales(16, np.arange(101))
    assert np.array_equal(first.get_ydata(), scales[:, 0])
    assert np.array_equal(last.get_ydata(), scales[:, 7])
    rope_line, xpos_line = figure.axes[1].get_lines()
    assert rope_line.get_ydata()[0] == pytest.approx(16.0) == xpos_line.get_ydata()[0]


def test_longrope_wavelengths_uses_the_factor_lists():
    figure = longrope_wavelengths(
        8, short_factor=[1, 1, 1, 2], long_factor=[1, 2, 4, 8], original_max_position_embeddings=64
    )
    trained, short, long = figure.axes[0].get_lines()[:3]
    default = 2 * np.pi / rope_frequencies(8)[0]
    assert np.allclose(short.get_ydata(), default * [1, 1, 1, 2], rtol=1e-15)
    assert np.allclose(long.get_ydata(), default * [1, 2, 4, 8], rtol=1e-15)
    assert np.allclose(trained.get_ydata(), default, rtol=1e-15)


def test_rope_feature_map_leaves_the_map_room_on_a_phone():
    """On the site's phone rendering the one-line row labels and a three-column
    legend (wider than the figure, so the image was cropped wider and shrunk)
    left the map under a third of the image wide, its tick labels run together."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from posenc_docs.figure_display import phone_figure

    figure = phone_figure(rope_feature_map(head_dim=64))
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    drawn = figure.get_tightbbox(renderer)  # what the saved, cropped image holds (inches)
    axes = figure.axes[0].get_window_extent(renderer)
    assert axes.width / figure.dpi >= 0.4 * drawn.width, (axes.width / figure.dpi, drawn.width)
    ticks = [label.get_window_extent(renderer) for label in figure.axes[0].get_xticklabels() if label.get_text()]
    assert not any(one.overlaps(other) for one, other in itertools.pairwise(ticks)), "x tick labels overlap"
