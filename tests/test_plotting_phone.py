"""Multi-panel figures stay legible on a phone.

A phone shows a figure about 358 px wide.  The site saves figures at 100 dpi
with 10 pt labels, so a figure at most 6.4 inches wide shows its labels at
least about 8 px tall; wider figures with panels side by side (11 inches)
shrank them to 4 px.  The multi-panel helpers therefore stack their panels.
"""

import matplotlib

matplotlib.use("agg")

import matplotlib.pyplot as plt
import pytest

from posenc_math import principal_components, sinusoidal
from posenc_math.plotting import (
    alibi_bias_maps,
    clock_hands,
    naive_alternatives,
    pca_positions,
    similarity_matrices,
    t5_bucket_map,
    table_panels,
)

#: Widest figure (inches) whose 10 pt labels a phone still shows legibly.
PHONE_WIDTH = 6.4

TABLE = sinusoidal(40, 8)

FIGURES = {
    "t5_bucket_map": lambda: t5_bucket_map(max_offset=20, n_positions=20),
    "alibi_bias_maps": lambda: alibi_bias_maps(8, 24),
    "similarity_matrices": lambda: similarity_matrices({"a": TABLE, "b": TABLE, "c": TABLE}),
    "pca_positions": lambda: pca_positions(*principal_components(TABLE)),
    "naive_alternatives": lambda: naive_alternatives(),
    "clock_hands": lambda: clock_hands({"a": TABLE, "b": TABLE, "c": TABLE}, n_pairs=4),
    "table_panels": lambda: table_panels({"a": TABLE, "b": TABLE, "c": TABLE}),
    "table_panels, two columns": lambda: table_panels({"a": TABLE, "b": TABLE, "c": TABLE, "d": TABLE}, columns=2),
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_multi_panel_figure_fits_a_phone(name):
    figure = FIGURES[name]()
    try:
        width = figure.get_size_inches()[0]
        assert width <= PHONE_WIDTH + 1e-9, f"{name} is {width} inches wide"
        figure.canvas.draw()
        # no more than two panels share a row: each plotting panel (not a
        # colour bar) spans at least 40% of the figure's width, or is a dial
        panels = [axes for axes in figure.axes if axes.get_label() != "<colorbar>"]
        rows = {}
        for axes in panels:
            box = axes.get_position()
            rows.setdefault(round(box.y0, 2), []).append(box.width)
        widest_row = max(len(widths) for widths in rows.values())
        limit = 4 if name == "clock_hands" else 2
        assert widest_row <= limit, f"{name}: {widest_row} panels side by side"
    finally:
        plt.close(figure)


def test_stacked_panels_keep_their_order():
    """The panels are drawn in the order the docstrings and tests name them."""
    figure = alibi_bias_maps(4, 6)
    try:
        figure.canvas.draw()
        matrix, lines = figure.axes[0], figure.axes[1]
        assert matrix.get_images() and lines.get_lines()
        assert matrix.get_position().y0 > lines.get_position().y1
    finally:
        plt.close(figure)
