"""posenc_math.plotting.model_config: the figure draws each layer's own wavelengths, and says so in words."""

import io
import itertools
from pathlib import Path

import matplotlib

matplotlib.use("agg")

import numpy as np
import pytest
from PIL import Image

from posenc_math import rope_layers
from posenc_math.plotting import described, layer_wavelengths, layer_wavelengths_description

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"
LLAMA4 = CONFIGS / "llama-4-scout-17b-16e-instruct.json"
GEMMA3 = CONFIGS / "gemma-3-4b-it.json"


def points(axes) -> np.ndarray:
    """(x, y) of every point the panel scatters."""
    return np.concatenate([collection.get_offsets() for collection in axes.collections])


def test_each_layer_is_a_column_of_its_own_wavelengths():
    figure = layer_wavelengths({"Gemma 3 4B": GEMMA3})
    drawn = points(figure.axes[0])
    for layer in rope_layers(GEMMA3):
        column = np.sort(drawn[drawn[:, 0] == layer.layer, 1])
        assert np.allclose(column, np.sort(layer.wavelengths))
    # the local (sliding) and global (full) layers are drawn in different colours
    colours = {tuple(collection.get_facecolor()[0]) for collection in figure.axes[0].collections}
    assert len(colours) == 2


def test_nope_layers_are_crosses_below_every_wavelength():
    figure = layer_wavelengths({"Llama 4 Scout": LLAMA4})
    layers = rope_layers(LLAMA4)
    nope = [layer.layer for layer in layers if layer.kind == "nope"]
    crosses = figure.axes[0].collections[-1].get_offsets()
    assert list(crosses[:, 0]) == nope == [3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47]
    lowest = min(float(layer.wavelengths.min()) for layer in layers if layer.kind == "rope")
    assert (crosses[:, 1] < lowest).all()


def test_the_trained_context_line_is_the_original_context():
    figure = layer_wavelengths({"Llama 4 Scout": LLAMA4, "Gemma 3 4B": GEMMA3})
    lines = [axes.get_lines()[0].get_ydata()[0] for axes in figure.axes[:2]]
    assert lines == [8192, 131072]  # Llama 4: original_max_position_embeddings; Gemma 3: max_position_embeddings


def test_the_description_is_computed_from_the_layers():
    text = layer_wavelengths_description({"Gemma 3 4B": GEMMA3})
    assert text.startswith("One panel,")
    assert "Gemma 3 4B: 34 layers." in text
    # Gemma 3's full layers: linear scaling by 8 makes the fastest pair turn every 16 pi positions
    assert "Layers 5, 11, ..., 29 (full attention): 128 pairs from 50.3 to" in text
    assert "trained context, 131,072 positions (max_position_embeddings)" in text
    changed = json_with(GEMMA3, rope_local_base_freq=20000.0)
    assert layer_wavelengths_description({"Gemma 3 4B": changed}) != text


def json_with(path: Path, **text_keys) -> dict:
    import json

    config = json.loads(path.read_text())
    config["text_config"].update(text_keys)
    return config


def test_the_description_names_nope_layers():
    text = layer_wavelengths_description({"Llama 4 Scout": LLAMA4})
    assert "Layers 3, 7, ..., 47 (full attention): no rotary embedding" in text


def test_described_png_carries_the_description():
    description = layer_wavelengths_description({"Llama 4 Scout": LLAMA4})
    shown = described(layer_wavelengths({"Llama 4 Scout": LLAMA4}), description)
    image = Image.open(io.BytesIO(shown.png()))
    assert image.text["Description"] == description
    assert shown._repr_png_() == shown.png()


def test_a_pyplot_figure_described_is_shown_once():
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots()
    axes.plot([0, 1], [1, 0])
    shown = described(figure, "a line going down")
    # off pyplot's list (a notebook's inline backend would show it again, without its description) ...
    assert figure.number not in plt.get_fignums()
    # ... and still drawn whole
    assert Image.open(io.BytesIO(shown.png())).text["Description"] == "a line going down"


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="configs must be a non-empty mapping"):
        layer_wavelengths({})
    with pytest.raises(ValueError, match="columns must be an integer"):
        layer_wavelengths({"x": LLAMA4}, columns=0)
    figure = layer_wavelengths({"x": LLAMA4})
    with pytest.raises(ValueError, match="at least three words"):
        described(figure, "plot")
    with pytest.raises(TypeError, match="matplotlib Figure"):
        described("figure.png", "a plot of things")


def test_four_models_stay_legible_on_a_phone():
    """The model-config page shows four models, two panels a row.  Its
    five-entry legend on one row was wider than the phone rendering, so the
    crop widened the image and shrank it: the panels drew at a fraction of
    the column, their titles and y labels ran into each other."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from posenc_docs.figure_display import phone_figure

    files = {  # the page's four, as it names them
        "Llama 3.1 8B": "llama-3.1-8b-instruct.json",
        "Gemma 3 4B": GEMMA3.name,
        "Llama 4 Scout": LLAMA4.name,
        "gpt-oss-20b": "gpt-oss-20b.json",
    }
    figure = phone_figure(layer_wavelengths({name: CONFIGS / file for name, file in files.items()}))
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    width = figure.get_figwidth() * figure.dpi
    legend = figure.legends[0].get_window_extent(renderer)
    assert legend.x0 >= 0 and legend.x1 <= width, (legend.x0, legend.x1, width)
    panels = [axes.get_window_extent(renderer) for axes in figure.axes]
    assert min(panel.width for panel in panels) >= 0.3 * width
    titles = [axes.title.get_window_extent(renderer) for axes in figure.axes]
    assert not any(one.overlaps(other) for one, other in itertools.combinations(titles, 2))
    labelled = [axes for axes in figure.axes if axes.get_ylabel()]
    assert len(labelled) == 2  # one y label a row
