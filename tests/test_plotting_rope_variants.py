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
    longrope_wavelengths_description,
    mrope_position_ids,
    mrope_position_ids_description,
    rope_feature_description,
    rope_feature_map,
    xpos_decay,
    xpos_decay_description,
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


def test_rope_feature_description_tells_the_runs_drawn():
    text = rope_feature_description(head_dim=32)
    assert text.startswith("6 rows of 32 cells, one per scheme.")
    assert "GPT-NeoX, StableLM: partial 0.25: black (position) for 0 to 7, grey (passes through) for 8 to 31." in text
    qwen = (
        "orange (temporal id) for 0 to 3, blue (height id or row) for 4 to 9, green (width id or column) for 10 to 15"
    )
    assert f"Qwen2-VL: M-RoPE: {qwen}, orange (temporal id) for 16 to 19," in text
    with pytest.raises(ValueError, match="head_dim"):
        rope_feature_description(head_dim=40)


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


def test_longrope_description_reads_the_lines_drawn():
    long_factor = [1.0] * 3 + [2.0, 4.0, 8.0]
    text = longrope_wavelengths_description(
        12, short_factor=[1.0] * 6, long_factor=long_factor, original_max_position_embeddings=64
    )
    figure = longrope_wavelengths(
        12, short_factor=[1.0] * 6, long_factor=long_factor, original_max_position_embeddings=64
    )
    long_line = figure.axes[0].get_lines()[2].get_ydata()
    assert "short factors: on the trained line at every pair;" in text
    assert "long factors: on the trained line up to pair 2, then above it" in text
    assert f"reaching {float(f'{long_line[-1]:.2g}'):,.0f} at pair 5." in text  # two significant digits


def test_mrope_and_xpos_descriptions_read_the_values_drawn():
    text = mrope_position_ids_description([4, (1, 3, 4), 5])
    ids = mrope_positions([4, (1, 3, 4), 5])
    assert "Tokens 0 to 3 (text): all three ids 0, 1, 2, 3." in text
    assert "width " + ", ".join(str(v) for v in ids[2, 4:16]) + "." in text
    assert "Tokens 16 to 20 (text): all three ids " + ", ".join(str(v) for v in ids[0, 16:]) + "." in text
    figure = xpos_decay(np.ones(64), np.ones(64), max_offset=256)
    text = xpos_decay_description(np.ones(64), np.ones(64), max_offset=256)
    pair_15 = figure.axes[0].get_lines()[3].get_ydata()
    assert f"pair 15: from 1 at 0 to {pair_15[-1]:.2g} at 256" in text
    rope_line = figure.axes[1].get_lines()[0].get_ydata()
    assert f"lowest {rope_line.min():.2g} at {int(np.argmin(rope_line))}" in text


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
