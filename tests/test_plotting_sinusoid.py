"""posenc_math.plotting.sinusoid: figures draw what they are given."""

import matplotlib

matplotlib.use("agg")

import numpy as np
import pytest

from posenc_math import binary, sinusoidal, wavelengths
from posenc_math.analysis import halving_frequencies, halving_sinusoids, table_from_frequencies
from posenc_math.plotting import (
    bits_and_waves,
    clock_hands,
    offset_curve,
    offset_curve_description,
    table_panels,
    wavelength_plot,
)


@pytest.fixture(autouse=True)
def close_figures():
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def test_wavelength_plot_draws_each_curve_and_the_reference_lines():
    paper, t2t = wavelengths(64), wavelengths(64, spacing="tensor2tensor")
    figure = wavelength_plot({"paper": paper, "tensor2tensor": t2t}, base=10000)
    axes = figure.axes[0]
    lines = axes.get_lines()
    assert np.allclose(lines[0].get_ydata(), paper) and np.allclose(lines[1].get_ydata(), t2t)
    levels = sorted(float(line.get_ydata()[0]) for line in lines[2:])
    assert levels == pytest.approx([2 * np.pi, 2 * np.pi * 10000])
    labels = [text.get_text() for text in axes.get_legend().get_texts()]
    assert labels == [f"paper (last: {paper[-1]:,.0f})", f"tensor2tensor (last: {t2t[-1]:,.0f})"]


def test_clock_hands_marks_repeats_only_for_commensurate_frequencies():
    commensurate = table_from_frequencies(40, halving_frequencies(3))
    slowed = table_from_frequencies(40, halving_frequencies(3) / np.pi)
    figure = clock_hands({"commensurate": commensurate, "slowed": slowed}, n_pairs=3)
    repeat_axes, slowed_axes = figure.axes[3], figure.axes[7]
    assert repeat_axes.get_legend() is not None
    assert "repeats from position 8" in repeat_axes.get_legend().get_texts()[0].get_text()
    assert slowed_axes.get_legend() is None
    # the dial of pair 1 shows the (sin, cos) points of columns 2, 3
    offsets = figure.axes[1].collections[0].get_offsets()
    assert np.allclose(offsets, commensurate[:, 2:4])


def test_clock_hands_checks_its_tables():
    with pytest.raises(TypeError, match="non-empty dict"):
        clock_hands([])
    with pytest.raises(ValueError, match="n_pairs=3 needs 6"):
        clock_hands({"small": sinusoidal(5, 4)}, n_pairs=3)


def test_bits_and_waves_shades_the_negative_positions():
    figure = bits_and_waves(binary(16, 4), halving_sinusoids(16, 4))
    assert len(figure.axes) == 4
    for bit, axes in enumerate(figure.axes):
        shaded = sorted(round(patch.get_x() + 0.5) for patch in axes.patches)
        assert shaded == [p for p in range(16) if (p >> bit) & 1]
    with pytest.raises(ValueError, match="same shape"):
        bits_and_waves(binary(8, 3), halving_sinusoids(8, 4))


def test_table_panels_share_one_colour_scale():
    tables = {"small": sinusoidal(8, 4) * 0.5, "big": sinusoidal(8, 4)}
    figure = table_panels(tables, columns=1)
    images = [axes.get_images()[0] for axes in figure.axes if axes.get_images()]
    assert [image.get_clim() for image in images] == [(-1.0, 1.0), (-1.0, 1.0)]
    assert np.array_equal(images[0].get_array(), tables["small"])
    with pytest.raises(ValueError, match="2-D"):
        table_panels({"bad": np.zeros(3)})


def test_offset_curve_marks_the_first_increase():
    values = [2.0, 1.0, 0.5, 0.7, 0.1]
    figure = offset_curve({"d": values}, first_increase={"d": 3})
    axes = figure.axes[0]
    marker_line = axes.get_lines()[1]
    assert list(marker_line.get_xdata()) == [2, 3]
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["d: rises at k = 3"]
    assert not axes.texts  # the note is in the legend, where it cannot run into a curve
    with pytest.raises(ValueError, match="past the end"):
        offset_curve({"d": values}, first_increase={"d": 5})


def test_offset_curve_description_reads_the_values_drawn():
    curves = {"d = 64": [32.0, 20.5, 21.0], "d = 128": [64.0, 50.0, 40.25]}
    text = offset_curve_description(curves, first_increase={"d = 64": 2})
    assert text == (
        "2 curves (d = 64, d = 128) against the offset from 0 to 2, starting at 32, 64 and ending at 21, 40.2"
        " respectively. Each first rise is marked at offset 2 (d = 64)."
    )
    assert "marked" not in offset_curve_description(curves)
    with pytest.raises(TypeError, match="curves"):
        offset_curve_description([1.0, 2.0])
