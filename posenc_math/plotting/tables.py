"""Pictures of whole position tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def heatmap(
    table: ArrayLike,
    *,
    title: str | None = None,
    xlabel: str = "dimension",
    ylabel: str = "position",
    cmap: str = "RdBu_r",
) -> Figure:
    """Draw a position table as an image, one row per position.

    Parameters
    ----------
    table : array_like, shape (n_positions, dim)
        The values to show, e.g. ``sinusoidal(50, 512)``.
    title : str, optional
        Axes title.
    xlabel, ylabel : str
        Axis labels.
    cmap : str, default "RdBu_r"
        A diverging map centred on zero (values are symmetric around 0 and
        the map reads in grayscale by lightness).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> figure = heatmap(sinusoidal(10, 16))
    >>> figure.axes[0].get_xlabel()
    'dimension'
    """
    import matplotlib.pyplot as plt

    table = check_table("table", table)
    limit = float(np.abs(table).max()) or 1.0
    figure, axes = plt.subplots(figsize=(8, 3.2), layout="constrained")
    image = axes.imshow(table, aspect="auto", cmap=cmap, vmin=-limit, vmax=limit, interpolation="nearest")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    if title:
        axes.set_title(title)
    figure.colorbar(image, ax=axes, label="value")
    return figure
