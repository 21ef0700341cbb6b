"""Multi-panel figures stay legible on a phone.

A phone shows a figure about 358 px wide.  The site saves figures at 100 dpi
with 10 pt labels, so a figure at most 6.4 inches wide shows its labels at
least about 8 px tall; wider figures with panels side by side (11 inches)
shrank them to 4 px.  The multi-panel helpers therefore stack their panels.
"""

import itertools

import matplotlib

matplotlib.use("agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

from posenc_math import analysis, principal_components, sinusoidal
from posenc_math.plotting import (
    alibi_bias_maps,
    clock_hands,
    extension_wavelengths,
    log_positions,
    naive_alternatives,
    offset_curve,
    pca_positions,
    phase_error_growth,
    position_spacing,
    position_vectors,
    similarity_matrices,
    t5_bucket_map,
    table_panels,
    xpos_decay,
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


def _points_inside(box, figure, renderer) -> int:
    """How many drawn points of the figure's lines fall inside ``box`` (display coordinates)."""
    count = 0
    for axes in figure.axes:
        for line in axes.get_lines():
            if not line.get_visible():
                continue
            xy = line.get_transform().transform(line.get_xydata())
            xy = xy[np.isfinite(xy).all(axis=1)]
            count += int(box.contains_points(xy).sum()) if len(xy) else 0
    return count


def _overlaps(figure) -> list[str]:
    """Notes and legends written on a plot that lie on its curves or on each other, as drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.path import Path

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = []
    for axes in figure.axes:
        boxes += [(f"note {text.get_text()!r}", text.get_window_extent(renderer)) for text in axes.texts]
        if axes.get_legend() is not None:
            boxes.append((f"legend of {axes.get_label() or 'a panel'}", axes.get_legend().get_window_extent(renderer)))
        boxes.append((f"y label {axes.get_ylabel()!r}", axes.yaxis.label.get_window_extent(renderer)))
    problems = []
    for name, box in boxes:
        if name.startswith("y label"):
            continue
        inside = _points_inside(Path(box.corners()[[0, 1, 3, 2]]), figure, renderer)
        if inside:
            problems.append(f"{name} lies on {inside} points of the curves")
    for (one, first), (other, second) in itertools.combinations(boxes, 2):
        if first.overlaps(second):
            problems.append(f"{one} overlaps {other}")
    return problems


OVERLAP_FIGURES = {
    "offset_curve": lambda: offset_curve(
        {f"d = {d}": analysis.dot_product_by_offset(120, d) for d in (64, 128, 512)},
        first_increase={
            f"d = {d}": analysis.first_increase(analysis.dot_product_by_offset(120, d)) for d in (64, 128, 512)
        },
    ),
    "position_spacing": lambda: position_spacing(),
    "phase_error_growth": lambda: phase_error_growth(log_positions(10**6, 60), 128),
    "xpos_decay": lambda: xpos_decay(np.ones(64), np.ones(64), max_offset=2048),
    "pca_positions": lambda: pca_positions(*principal_components(sinusoidal(512, 64))),
    "t5_bucket_map": lambda: t5_bucket_map(),
    "extension_wavelengths": lambda: extension_wavelengths(
        128, base=500000.0, factor=8.0, original_max_position_embeddings=8192
    ),
    "position_vectors": lambda: position_vectors(
        sinusoidal(300, 512), [0, 1, 2, 10, 50, 100, 150, 200, 250, 299], pairs=True
    ),
}


@pytest.mark.parametrize("name", sorted(OVERLAP_FIGURES))
@pytest.mark.parametrize("layout", ["wide", "phone"])
def test_notes_and_legends_keep_off_the_curves(name, layout):
    """Screenshots at 390 px (issue 24) showed notes on the curves: "rises at k = 6" across the
    d = 128 curve, 256 and 2,048 on the steps, two "p u" labels on each other, legends across the
    curves and the y label.  Every note, legend and axis label is clear of the curves and of the
    others, in the site's two renderings of the figure: for a laptop (text raised where the column
    shrinks a wide figure) and for a phone."""
    from posenc_docs.figure_display import laptop_figure, phone_figure

    figure = OVERLAP_FIGURES[name]()
    shown = phone_figure(figure) if layout == "phone" else laptop_figure(figure)
    try:
        assert not _overlaps(shown), _overlaps(shown)
    finally:
        plt.close(figure)
        plt.close(shown)
