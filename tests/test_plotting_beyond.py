"""posenc_math.plotting.beyond: each figure draws the library's own numbers."""

import matplotlib

matplotlib.use("agg")

import numpy as np
import pytest

from posenc_math import alibi_bias, alibi_slopes, extension_frequencies, rope_relative_scores, t5_bucket
from posenc_math.plotting import (
    alibi_bias_description,
    alibi_bias_maps,
    alibi_slope_description,
    alibi_slope_plot,
    extension_wavelengths,
    extension_wavelengths_description,
    rope_score_decay,
    shaw_clipping_description,
    shaw_clipping_map,
    t5_bucket_description,
    t5_bucket_map,
)


def test_t5_bucket_map_draws_the_buckets():
    figure = t5_bucket_map(max_offset=40, n_positions=30)
    encoder_line, decoder_line = figure.axes[0].get_lines()[:2]
    offsets = np.arange(-40, 41)
    assert np.array_equal(encoder_line.get_ydata(), t5_bucket(offsets))
    assert np.array_equal(decoder_line.get_ydata(), t5_bucket(offsets, bidirectional=False))
    grid = figure.axes[2].get_images()[0].get_array()
    assert grid[29, 0] == t5_bucket(-29, bidirectional=False) and grid[0, 29] == 0


def test_shaw_map_rows():
    rows = shaw_clipping_map(max_distance=2, n_positions=6).axes[0].get_images()[0].get_array()
    assert rows[0, 5] == 4 and rows[5, 0] == 0 and rows[3, 3] == 2


def test_rope_score_decay_draws_scores(rng):
    q, k = rng.normal(size=(2, 16))
    line = rope_score_decay(q, k, max_offset=100).axes[0].get_lines()[0]
    assert np.allclose(line.get_ydata(), rope_relative_scores(q, k, np.arange(101)))


def test_alibi_descriptions_read_the_slopes_and_bias():
    text = alibi_slope_description((8, 12))
    assert "8 heads: a straight line (a geometric sequence) from 1 over 2 down to 1 over 256." in text
    ninth = alibi_slopes(12)[8]
    assert ninth > alibi_slopes(12)[0]  # the borrowed slopes start above the first
    assert f"12 heads: from 1 over 2 down to 1 over 256 at head 8, back up to {ninth:.4g} at head 9," in text
    bias = alibi_bias(8, 24)
    text = alibi_bias_description(8, 24, head=2)
    assert f"head 3 of 8 (slope {alibi_slopes(8)[2]:g})" in text.replace("1 over 8", "0.125")
    assert f"{bias[2, 23, 0]:.3g} at the bottom-left corner (query 23, key 0)" in text
    assert f"the flattest at {bias[7, 23, 0]:.3g}." in text
    with pytest.raises(ValueError, match="head"):
        alibi_bias_description(4, 6, head=4)


def test_alibi_figures():
    lines = alibi_slope_plot((4, 6)).axes[0].get_lines()
    assert np.array_equal(lines[1].get_ydata(), alibi_slopes(6))
    figure = alibi_bias_maps(4, 6, head=2)
    assert np.array_equal(figure.axes[0].get_images()[0].get_array().filled(np.nan)[5, :3], alibi_bias(4, 6)[2, 5, :3])
    assert np.array_equal(figure.axes[1].get_lines()[3].get_ydata(), alibi_bias(4, 6)[3, -1])
    with pytest.raises(ValueError, match="head"):
        alibi_bias_maps(4, 6, head=4)


def test_extension_wavelengths_draws_each_rule():
    figure = extension_wavelengths(16, base=10000.0, factor=4.0, original_max_position_embeddings=64)
    rules = extension_frequencies(16, base=10000.0, factor=4.0, original_max_position_embeddings=64)
    lines = figure.axes[0].get_lines()
    for line, inv_freq in zip(lines, rules.values(), strict=False):
        assert np.allclose(line.get_ydata(), 2 * np.pi / inv_freq)
    assert len(figure.axes[1].get_legend().get_texts()) == 5


@pytest.mark.parametrize("rendering", ["wide", "phone"])
def test_extension_wavelengths_legend_clears_the_context_labels(rendering):
    """The legend overlapped the "extended context" label on the site's phone
    rendering (larger text, same panel): no text of a panel may touch its legend."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from posenc_docs.figure_display import phone_figure

    figure = extension_wavelengths()
    if rendering == "phone":
        figure = phone_figure(figure)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    for axes in figure.axes:
        legend = axes.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        for text in axes.texts:
            assert not box.overlaps(text.get_window_extent(renderer)), text.get_text()


def test_rope_mean_score_plot_draws_the_library_means():
    from posenc_math.analysis import rope_mean_scores
    from posenc_math.plotting import rope_mean_score_plot

    lines = rope_mean_score_plot(16, max_offset=60, n_samples=30, seed=3).axes[0].get_lines()
    mean, expected = rope_mean_scores(16, np.arange(61), n_samples=30, seed=3)
    assert np.allclose(lines[0].get_ydata(), mean) and np.allclose(lines[1].get_ydata(), expected)


def test_yarn_ramp_plot_matches_rope_frequencies():
    from posenc_math import rope_frequencies
    from posenc_math.plotting import yarn_ramp_plot

    figure = yarn_ramp_plot(64, base=10000.0, factor=4.0, original_max_position_embeddings=2048)
    exact, read = figure.axes[0].get_lines()[:2]
    assert np.allclose(exact.get_ydata(), read.get_ydata(), atol=1e-12)
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}
    ratio = rope_frequencies(64, scaling=scaling)[0] / rope_frequencies(64)[0]
    assert np.allclose(read.get_ydata(), (1 - ratio) / 0.75)
    with pytest.raises(ValueError, match="factor"):
        yarn_ramp_plot(64, base=10000.0, factor=1.0, original_max_position_embeddings=2048)


def test_shaw_and_t5_descriptions_read_the_rows_and_buckets():
    text = shaw_clipping_description(max_distance=3, n_positions=10)
    assert "a diagonal band of 7 diagonals, offsets j - i from -3 to 3, uses rows 0 to 6" in text
    assert "above it every pair uses row 6, the lightest, and below it row 0, the darkest." in text
    offsets = np.arange(-160, 161)
    encoder = t5_bucket(offsets, bidirectional=True)
    decoder = t5_bucket(offsets, bidirectional=False)
    text = t5_bucket_description()
    assert f"climbs from {encoder[offsets > 0].min()} to {encoder[offsets > 0].max()} for positive offsets" in text
    flat = int(offsets[(offsets > 0) & (encoder == encoder.max())].min())
    assert f"flat from a distance of {flat} on" in text
    assert f"climbs to {decoder.max()}, reached at offset {offsets[decoder == decoder.max()].max()}." in text


def test_extension_descriptions_read_the_frequencies():
    rules = extension_frequencies(128, base=500000.0, factor=8.0, original_max_position_embeddings=8192)
    text = extension_wavelengths_description(128, base=500000.0, factor=8.0, original_max_position_embeddings=8192)
    for name, label in (("yarn", "YaRN"), ("llama3", "Llama 3")):
        ratio = rules["default"] / rules[name]
        kept = int(np.flatnonzero(np.isclose(ratio, 1.0, rtol=0, atol=1e-9))[-1])
        full = int(np.flatnonzero(np.isclose(ratio, 8.0, rtol=1e-9, atol=0))[0])
        assert f"{label}: 1 up to pair {kept}, rising to 8 at pair {full}" in text
    assert "position interpolation: 8 at every pair" in text
    from posenc_math.plotting import yarn_ramp_description

    ramp = yarn_ramp_description(128, base=500000.0, factor=8.0, original_max_position_embeddings=8192)
    yarn_kept = int(np.flatnonzero(np.isclose(rules["default"] / rules["yarn"], 1.0, rtol=0, atol=1e-9))[-1])
    assert f"is 0 up to pair {yarn_kept}," in ramp
    with pytest.raises(ValueError, match="factor"):
        yarn_ramp_description(64, base=10000.0, factor=1.0, original_max_position_embeddings=2048)


def test_rope_score_descriptions_read_the_values_drawn():
    from posenc_math.analysis import rope_mean_scores
    from posenc_math.plotting import rope_mean_score_description, rope_score_decay_description

    query, key = np.random.default_rng(0).normal(size=(2, 32))
    scores = rope_relative_scores(query, key, np.arange(301))
    text = rope_score_decay_description(query, key, max_offset=300)
    assert f"highest {scores.max():.2g} at {int(np.argmax(scores))}, lowest {scores.min():.2g}" in text
    offsets = np.arange(201)
    aligned, expected = rope_mean_scores(32, offsets, n_samples=50, seed=0, aligned=True)
    text = rope_mean_score_description(32, max_offset=200, n_samples=50)
    assert f"key = query mean is {aligned[100]:.2g} at offset 100" in text
    assert f"by at most {np.abs(aligned - expected).max():.2g}." in text
