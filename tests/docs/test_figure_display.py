"""posenc_docs.figure_display: the phone rendering keeps what each panel says."""

from __future__ import annotations

import matplotlib

matplotlib.use("agg")

from posenc_docs.figure_display import PHONE_COLUMNS, phone_figure

from posenc_math.plotting import shift_hands


def test_regridded_panels_keep_their_own_labels():
    """The home page's dials (two rows of four, one row per position, each
    dial labelled with its own turn) went onto four rows of two on a phone
    with every row called "t = 1" and every dial the first dial's angle."""
    wide = shift_hands(16, 3, positions=(1, 30))
    labels = [(axes.get_xlabel(), axes.get_ylabel()) for axes in wide.axes]
    phone = phone_figure(wide)
    columns = {axes.get_subplotspec().get_gridspec().get_geometry()[1] for axes in phone.axes}
    assert columns == {PHONE_COLUMNS} and PHONE_COLUMNS < 4
    assert [axes.get_xlabel() for axes in phone.axes] == [x for x, _ in labels]
    assert len({x for x, _ in labels}) == 4  # one angle per pair
    rows = [axes.get_ylabel() for axes in phone.axes if axes.get_ylabel()]
    assert rows == ["t = 1", "t = 30"]


def test_a_shared_label_is_written_once_on_the_outer_panels():
    import matplotlib.pyplot as plt

    figure, grid = plt.subplots(1, 4, figsize=(8, 2), layout="constrained")
    for axes in grid:
        axes.plot([0, 1])
        axes.set_xlabel("position")
    grid[0].set_ylabel("value")
    phone = phone_figure(figure)
    xlabels = [axes.get_xlabel() for axes in phone.axes]
    assert xlabels == ["", "", "position", "position"]
    assert [axes.get_ylabel() for axes in phone.axes] == ["value", "", "value", ""]


def test_renderings_record_their_collisions():
    """The site's test of collisions reads them from each PNG: a title under a neighbouring
    colour bar is recorded, a clean figure records none (an empty chunk, not a missing one)."""
    import matplotlib.pyplot as plt
    from posenc_docs.figure_display import COLLISIONS_KEY, png_text, render_png

    figure = plt.figure(figsize=(4, 2))
    panel, bar = figure.add_axes((0.1, 0.1, 0.4, 0.6)), figure.add_axes((0.55, 0.1, 0.05, 0.85))
    for axes in (panel, bar):
        axes.set_xticks([]), axes.set_yticks([])
    panel.set_title("a title wider than its panel")
    try:
        assert (
            png_text(render_png(figure, rendering="wide", dpi=100))[COLLISIONS_KEY]
            == "'a title wider than its panel' reaches into another panel"
        )
        panel.set_title("short")
        assert png_text(render_png(figure, rendering="wide", dpi=100))[COLLISIONS_KEY] == ""
    finally:
        plt.close(figure)


def test_a_wide_figure_shows_its_labels_at_the_laptop_minimum():
    """Ten panels drawn 10.5 inches wide: a laptop's 736 px column showed their 7 pt legend at 6.8 px."""
    import matplotlib.pyplot as plt
    from posenc_docs.figure_display import LAPTOP_COLUMN_PX, MIN_LAPTOP_LABEL_PX, label_css_px, laptop_png

    figure, grid = plt.subplots(2, 5, figsize=(10.5, 3.4), layout="constrained")
    for axes in grid.flat:
        axes.plot([0, 1], label="line")
    grid[0, 0].legend(fontsize=7)
    try:
        shown = label_css_px(laptop_png(figure), LAPTOP_COLUMN_PX)
        assert MIN_LAPTOP_LABEL_PX <= shown < MIN_LAPTOP_LABEL_PX * 1.2
        assert grid[0, 0].get_legend().get_texts()[0].get_fontsize() == 7  # the figure itself is not changed
    finally:
        plt.close(figure)


def test_a_legend_on_its_curves_is_a_collision():
    """rope's score figure had its legend at the lower left, on the score's deepest dips."""
    import matplotlib.pyplot as plt
    from posenc_docs.figure_display import text_collisions

    figure, axes = plt.subplots(figsize=(4, 3))
    x = [i / 50 for i in range(51)]
    axes.plot(x, x, label="line")
    try:
        axes.legend(loc="center")
        assert any("legend" in problem and "points of its curves" in problem for problem in text_collisions(figure))
        axes.legend(loc="upper left")
        assert text_collisions(figure) == []
    finally:
        plt.close(figure)
