"""The wavelength of every rotated pair, layer by layer, of models read from their configs.

:func:`layer_wavelengths` draws, for each model, one column of points per
layer (one point per rotated pair, positions per turn on a log scale), so
Gemma 3's local and global layers, Llama 4's layers without positions and
gpt-oss's two attention types are seen side by side.
:func:`layer_wavelengths_description` says in words what the figure shows,
computed from the same layers, for its alt text; :func:`described` attaches
such a description to a figure so that it travels with the image (a PNG
text chunk, read by the site as the image's alt text).
"""

from __future__ import annotations

import io
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._words import number_words
from ..encodings.rope_check import layer_table
from ..encodings.rope_config import RopeLayer, load_config, rope_layers

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["DescribedFigure", "described", "layer_wavelengths", "layer_wavelengths_description"]

#: Colour and marker of each layer type (Okabe-Ito colours).
_LAYER_STYLES = {
    "full_attention": ("#0072B2", "o"),
    "sliding_attention": ("#E69F00", "s"),
    "chunked_attention": ("#009E73", "D"),
}
_OTHER_STYLE = ("#CC79A7", "^")
_NOPE_COLOUR = "#D55E00"

Config = Mapping[str, Any] | str | os.PathLike[str]


def _models(configs: Mapping[str, Config]) -> list[tuple[str, dict, list[RopeLayer]]]:
    if not isinstance(configs, Mapping) or not configs:
        raise ValueError("configs must be a non-empty mapping of model name -> config (a dict or a path)")
    models = []
    for name, config in configs.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"configs' keys must be model names (non-empty strings), got {name!r}")
        loaded = load_config(config)
        models.append((name, loaded, rope_layers(loaded)))
    return models


def _trained_context(layers: list[RopeLayer]) -> tuple[int | None, str]:
    """The context the model was trained on before extension, and its key."""
    for layer in layers:
        if layer.original_max_position_embeddings is not None:
            return int(layer.original_max_position_embeddings), "original_max_position_embeddings"
    for layer in layers:
        if layer.max_position_embeddings is not None:
            return int(layer.max_position_embeddings), "max_position_embeddings"
    return None, ""


def layer_wavelengths(configs: Mapping[str, Config], *, columns: int = 2) -> Figure:
    """Wavelength of every rotated pair of every layer, one panel per model.

    Each layer is a column of points, one per rotated pair at ``2 pi / w``
    (positions per turn, log scale), coloured by the layer's attention type;
    a layer without rotary embedding (NoPE) is a cross at the bottom of its
    panel; pairs that do not turn (``proportional`` rope) are not drawn.
    The dotted line is the context the model was trained on before
    extension (``original_max_position_embeddings``, else
    ``max_position_embeddings``).

    Parameters
    ----------
    configs : mapping
        Model name -> its config (a loaded ``config.json`` or a path), as for
        :func:`~posenc_math.rope_from_config`.
    columns : int, default 2
        Panels per row.

    Returns
    -------
    matplotlib.figure.Figure
        Not registered with pyplot (show it by returning it from a notebook
        cell, or through :func:`described`).

    Examples
    --------
    >>> config = {"model_type": "gemma3_text", "num_hidden_layers": 6, "rope_theta": 1000000.0,
    ...           "rope_local_base_freq": 10000.0, "max_position_embeddings": 32768}
    >>> figure = layer_wavelengths({"Gemma 3 (6 layers)": config})
    >>> figure.axes[0].get_title(), figure.axes[0].get_yscale()
    ('Gemma 3 (6 layers)', 'log')
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"columns must be an integer >= 1, got {columns!r}")
    models = _models(configs)
    columns = min(columns, len(models))
    rows = math.ceil(len(models) / columns)
    figure = Figure(figsize=(4.2 * columns, 3.2 * rows), layout="constrained")
    axes_grid = np.atleast_1d(figure.subplots(rows, columns, squeeze=False).ravel())
    seen: dict[str, Line2D] = {}
    for index, (axes, (name, _config, layers)) in enumerate(zip(axes_grid, models, strict=False)):
        turning = [layer.wavelengths[np.isfinite(layer.wavelengths)] for layer in layers if layer.kind == "rope"]
        lowest = min(float(values.min()) for values in turning) if turning else 1.0
        for layer_type in dict.fromkeys(layer.layer_type for layer in layers):
            colour, marker = _LAYER_STYLES.get(layer_type, _OTHER_STYLE)
            xs, ys = [], []
            for layer in layers:
                if layer.kind == "rope" and layer.layer_type == layer_type:
                    values = layer.wavelengths[np.isfinite(layer.wavelengths)]
                    xs.append(np.full(values.shape, layer.layer))
                    ys.append(values)
            if xs:
                label = layer_type.replace("_", " ")
                axes.scatter(np.concatenate(xs), np.concatenate(ys), s=4, color=colour, marker=marker, lw=0)
                seen.setdefault(label, Line2D([], [], ls="", marker=marker, color=colour, label=label))
        nope = [layer.layer for layer in layers if layer.kind == "nope"]
        if nope:
            axes.scatter(nope, np.full(len(nope), lowest / 3), s=18, color=_NOPE_COLOUR, marker="x")
            seen.setdefault("no rotary (NoPE)", Line2D([], [], ls="", marker="x", color=_NOPE_COLOUR, label="NoPE"))
        context, _key = _trained_context(layers)
        if context is not None:
            axes.axhline(context, color="#555555", ls=":", lw=1)
        axes.set_yscale("log")
        axes.set_title(name)
        axes.set_xlabel("layer")
        if index % columns == 0:  # once per row: on a phone each panel's own label ran into its neighbour
            axes.set_ylabel("wavelength (positions)")
        axes.set_xlim(-1, len(layers))
    for axes in axes_grid[len(models) :]:
        axes.set_visible(False)
    handles = list(seen.values())
    handles.append(Line2D([], [], color="#555555", ls=":", lw=1, label="trained context"))
    # at most two entries a row: five made the legend wider than the phone
    # rendering, which the crop then widened and shrank, panels and all
    figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 2), frameon=False)
    return figure


def layer_wavelengths_description(configs: Mapping[str, Config]) -> str:
    """What :func:`layer_wavelengths` draws, in words, from the same layers (for alt text).

    Parameters
    ----------
    configs : mapping
        As for :func:`layer_wavelengths`.

    Returns
    -------
    str

    Examples
    --------
    >>> config = {"model_type": "gemma3_text", "num_hidden_layers": 6, "rope_theta": 1000000.0,
    ...           "rope_local_base_freq": 10000.0, "max_position_embeddings": 32768}
    >>> print(layer_wavelengths_description({"Gemma 3": config}))  # doctest: +NORMALIZE_WHITESPACE
    One panel, one column of points per layer, one point per rotated pair at its wavelength in positions
    on a log scale. Gemma 3: 6 layers. Layers 0-4 (sliding attention): 128 pairs from 6.28 to 58,500
    positions per turn. Layer 5 (full attention): 128 pairs from 6.28 to 5.64 million positions per turn.
    A dotted line marks the trained context, 32,768 positions (max_position_embeddings).
    """
    models = _models(configs)
    count = "One panel" if len(models) == 1 else f"{len(models)} panels, one per model"
    parts = [
        f"{count}, one column of points per layer, one point per rotated pair at its wavelength in positions "
        "on a log scale."
    ]
    for name, config, layers in models:
        parts.append(f"{name}: {len(layers)} layers.")
        for row in layer_table(config):
            which = "Layer" if len(row["layer_indices"]) == 1 else "Layers"
            kind = row["layer_type"].replace("_", " ")
            if row["kind"] == "nope":
                parts.append(f"{which} {row['layers']} ({kind}): no rotary embedding, a cross at the bottom.")
                continue
            pairs = row["rotary_dim"] // 2 - row["still_pairs"]
            parts.append(
                f"{which} {row['layers']} ({kind}): {pairs} pairs from {number_words(row['shortest_wavelength'], 3)} "
                f"to {number_words(row['longest_wavelength'], 3)} positions per turn."
            )
        context, key = _trained_context(layers)
        if context is not None:
            parts.append(f"A dotted line marks the trained context, {context:,} positions ({key}).")
    return " ".join(parts)


@dataclass(frozen=True)
class DescribedFigure:
    """A figure with a description of what it shows, for readers who cannot see it.

    A notebook shows it as a PNG whose ``Description`` text chunk holds the
    description; the site's figure extension makes that the image's alt
    text.  Build it with :func:`described`.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    description : str
    """

    figure: Any
    description: str

    def png(self) -> bytes:
        """The figure as PNG bytes (tight bounding box), its description in a ``Description`` chunk."""
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", bbox_inches="tight", metadata={"Description": self.description})
        return buffer.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:
        return f"<figure: {self.description}>"


def described(figure: Figure, description: str) -> DescribedFigure:
    """``figure`` with ``description`` attached (see :class:`DescribedFigure`).

    A figure made with pyplot is closed there (taken off pyplot's list of
    open figures, still drawable), so a notebook shows it once: described.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    description : str
        What the figure shows, in words; any Unicode (π, ≤, 10⁻⁵): text that is
        not Latin-1 goes into an ``iTXt`` chunk (UTF-8), as Pillow writes it.

    Returns
    -------
    DescribedFigure

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> shown = described(Figure(figsize=(1, 1)), "An empty square.")
    >>> shown.png()[:8] == b"\\x89PNG\\r\\n\\x1a\\n", b"An empty square." in shown.png()
    (True, True)
    >>> import io
    >>> from PIL import Image
    >>> Image.open(io.BytesIO(described(Figure(), "A line at π, 3.7 × 10⁻⁵ high.").png())).text["Description"]
    'A line at π, 3.7 × 10⁻⁵ high.'
    """
    from matplotlib.figure import Figure

    if not isinstance(figure, Figure):
        raise TypeError(f"figure must be a matplotlib Figure, got {type(figure).__name__}")
    if not isinstance(description, str) or len(description.split()) < 3:
        raise ValueError(f"description must be a sentence of at least three words, got {description!r}")
    if "matplotlib.pyplot" in sys.modules:
        # a figure made with pyplot would be shown a second time, undescribed, by a notebook's inline
        # backend at the end of the cell; closing it there leaves the Figure whole for the PNG
        sys.modules["matplotlib.pyplot"].close(figure)
    return DescribedFigure(figure, description)
