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
