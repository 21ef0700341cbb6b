"""Figures for the pages on the sinusoidal encoding, the binary counter,
layouts and corrections.

Every helper takes arrays the library computed, draws nothing random and
returns the :class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int, check_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

__all__ = [
    "bits_and_waves",
    "clock_hands",
    "offset_curve",
    "offset_curve_description",
    "table_panels",
    "wavelength_plot",
]


def _curves(name: str, curves: object) -> dict[str, np.ndarray]:
    if not isinstance(curves, dict) or not curves:
        raise TypeError(f"{name} must be a non-empty dict of label -> 1-D array")
    out = {}
    for label, values in curves.items():
        values = np.asarray(values, dtype=np.float64)
        if values.ndim != 1 or values.size == 0:
            raise ValueError(f"{name}[{label!r}] must be a non-empty 1-D array, got shape {values.shape}")
        out[str(label)] = values
    return out


def wavelength_plot(wavelengths: dict[str, ArrayLike], *, base: float | None = None) -> Figure:
    """Wavelength of each sine/cosine pair against the pair index, log scale.

    Parameters
    ----------
    wavelengths : dict of str to array_like
        Legend label to the wavelengths of the pairs (from
        :func:`posenc_math.wavelengths`), e.g. one entry per spacing.
    base : float, optional
        Draw the reference lines ``2 pi`` and ``2 pi base`` (the range the
        paper's text gives).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import wavelengths
    >>> figure = wavelength_plot({"paper": wavelengths(16)}, base=10000)
    >>> figure.axes[0].get_yscale()
    'log'
    """
    import matplotlib.pyplot as plt

    checked = _curves("wavelengths", wavelengths)
    figure, axes = plt.subplots(figsize=(7.5, 3.6), layout="constrained")
    styles = [("o", "-"), ("s", "--"), ("^", ":"), ("d", "-.")]
    for index, (label, values) in enumerate(checked.items()):
        marker, line = styles[index % len(styles)]
        pairs = np.arange(values.size)
        axes.plot(
            pairs,
            values,
            linestyle=line,
            marker=marker,
            markevery=max(values.size // 16, 1),
            markersize=4,
            label=f"{label} (last: {values[-1]:,.0f})",
        )
    if base is not None:
        for value, text in ((2 * np.pi, "2\u03c0"), (2 * np.pi * float(base), f"2\u03c0 \u00d7 {float(base):g}")):
            axes.axhline(value, color="0.45", linewidth=0.8, linestyle=(0, (1, 2)))
            axes.annotate(text, (0, value), textcoords="offset points", xytext=(2, 3), fontsize=8, color="0.3")
    axes.set_yscale("log")
    axes.set_xlabel("pair index i (columns 2i, 2i+1)")
    axes.set_ylabel("wavelength 2\u03c0 / \u03c9\u1d62 (positions)")
    axes.legend(fontsize=8, loc="lower right")
    return figure


def dial_face(axes, title: str, *, circle: np.ndarray, limit: float, linewidth: float) -> None:
    """A dial: the unit circle in grey on square axes from ``-limit`` to ``limit``, no ticks, ``title`` above.

    Drawn first, so what the caller adds (hands, points) lies on top; the
    fixed limits keep later artists from rescaling the dial.
    """
    axes.plot(np.cos(circle), np.sin(circle), color="0.75", linewidth=linewidth)
    axes.set_aspect("equal")
    axes.set_xlim(-limit, limit)
    axes.set_ylim(-limit, limit)
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_title(title, fontsize=9)


def clock_hands(tables: dict[str, ArrayLike], *, n_pairs: int = 4, n_positions: int | None = None) -> Figure:
    """Each sine/cosine pair as the hand of a dial, and whether rows repeat.

    Two rows of panels per table.  Dial ``j`` shows where pair ``j``'s hand
    points, ``(sin, cos)`` of columns ``2j, 2j + 1`` (interleaved layout),
    at every position, coloured by position.  The panel under the dials
    plots, for every position, the distance to the closest earlier row
    (:func:`posenc_math.analysis.closest_earlier_row`): a drop to zero is a
    position the encoding cannot tell from an earlier one.

    Parameters
    ----------
    tables : dict of str to array_like
        Row title to an interleaved table (rows are positions).
    n_pairs : int, default 4
        Dials drawn per table (the first ``n_pairs`` pairs).
    n_positions : int, optional
        Use only the first ``n_positions`` rows.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> figure = clock_hands({"paper": sinusoidal(20, 8)}, n_pairs=2)
    >>> figure.axes[0].get_title()
    'pair 0'
    """
    import matplotlib.pyplot as plt

    from ..analysis import closest_earlier_row

    if not isinstance(tables, dict) or not tables:
        raise TypeError("tables must be a non-empty dict of title -> table")
    n_pairs = check_int("n_pairs", n_pairs, minimum=1)
    checked = {}
    for title, table in tables.items():
        table = check_table(f"tables[{title!r}]", table)
        if n_positions is not None:
            table = table[: check_int("n_positions", n_positions, minimum=2)]
        if table.shape[1] < 2 * n_pairs:
            raise ValueError(f"tables[{title!r}] has {table.shape[1]} columns; n_pairs={n_pairs} needs {2 * n_pairs}")
        checked[str(title)] = table
    n_rows = len(checked)
    # Per table, a row of dials and the distance curve under it, at a width
    # a phone shows without shrinking the labels out of sight.
    figure = plt.figure(figsize=(6.4, 3.5 * n_rows), layout="constrained")
    layout = figure.add_gridspec(2 * n_rows, n_pairs, height_ratios=[1.0, 0.75] * n_rows)
    dials = []
    distance_axes = []
    circle = np.linspace(0.0, 2 * np.pi, 181)
    points = None
    for row, (title, table) in enumerate(checked.items()):
        positions = np.arange(table.shape[0])
        for pair in range(n_pairs):
            axes = figure.add_subplot(layout[2 * row, pair])
            dials.append(axes)
            dial_face(axes, f"pair {pair}", circle=circle, limit=1.2, linewidth=0.6)
            sines, cosines = table[:, 2 * pair], table[:, 2 * pair + 1]
            axes.plot([0, sines[-1]], [0, cosines[-1]], color="0.25", linewidth=1.2)
            points = axes.scatter(sines, cosines, c=positions, cmap="cividis", s=10, zorder=3)
            if pair == 0:
                axes.set_ylabel(title, fontsize=9)
        nearest = closest_earlier_row(table)
        axes = figure.add_subplot(layout[2 * row + 1, :])
        distance_axes.append(axes)
        axes.plot(positions[1:], nearest[1:], marker="o", markersize=2.5, linewidth=0.8)
        repeats = positions[1:][nearest[1:] < 1e-9]
        if repeats.size:
            axes.plot(
                repeats,
                nearest[repeats],
                linestyle="none",
                marker="x",
                color="C3",
                markersize=6,
                label=f"repeats from position {repeats[0]}",
            )
            axes.legend(fontsize=7, loc="upper right")
        axes.set_ylim(bottom=0.0)
        axes.set_ylabel("distance to closest\nearlier row", fontsize=8)
        axes.set_title(f"{title}: does a row come back?", fontsize=9)
    distance_axes[-1].set_xlabel("position")
    assert points is not None  # at least one panel was drawn (checked above)
    figure.colorbar(points, ax=dials, label="position", shrink=0.6)
    return figure


def bits_and_waves(bits: ArrayLike, waves: ArrayLike) -> Figure:
    """Bit columns of the positions beside sinusoids of halving frequency.

    One panel per bit ``j``: the bit as a step line and the sinusoid
    ``waves[:, j]`` as points, with the region where the sinusoid is
    negative shaded.  Where they agree, the bit is 1 exactly on the shaded
    positions.

    Parameters
    ----------
    bits : array_like, shape (n_positions, n_bits)
        From :func:`posenc_math.binary`.
    waves : array_like, shape (n_positions, n_bits)
        From :func:`posenc_math.analysis.halving_sinusoids`.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import binary
    >>> from posenc_math.analysis import halving_sinusoids
    >>> figure = bits_and_waves(binary(8, 3), halving_sinusoids(8, 3))
    >>> figure.axes[0].get_title(loc="left")
    'bit 0 (period 2)'
    """
    import matplotlib.pyplot as plt

    bits = check_table("bits", bits)
    waves = check_table("waves", waves)
    if bits.shape != waves.shape:
        raise ValueError(f"bits and waves must have the same shape, got {bits.shape} and {waves.shape}")
    n_positions, n_bits = bits.shape
    figure, grid = plt.subplots(
        n_bits, 1, figsize=(8, 1.35 * n_bits + 0.6), sharex=True, layout="constrained", squeeze=False
    )
    positions = np.arange(n_positions)
    for bit, axes in enumerate(grid[:, 0]):
        negative = waves[:, bit] < 0
        for position in positions[negative]:
            axes.axvspan(position - 0.5, position + 0.5, color="0.88", linewidth=0)
        axes.step(positions, bits[:, bit], where="mid", color="C1", linewidth=1.5, label="bit")
        axes.plot(positions, waves[:, bit], color="C0", marker="o", markersize=3, linewidth=0.8, label="sinusoid")
        axes.axhline(0.0, color="0.5", linewidth=0.5)
        axes.set_ylim(-1.15, 1.15)
        axes.set_yticks([-1, 0, 1])
        axes.set_title(f"bit {bit} (period {2 ** (bit + 1)})", fontsize=9, loc="left")
    handles, labels = grid[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, fontsize=8, loc="outside upper right", ncols=2, frameon=False)
    grid[-1, 0].set_xlabel("position p (shaded: sinusoid < 0)")
    grid[-1, 0].set_xticks(positions if n_positions <= 32 else positions[:: max(n_positions // 16, 1)])
    return figure


def table_panels(
    tables: dict[str, ArrayLike], *, columns: int | None = None, xlabel: str = "column", ylabel: str = "position"
) -> Figure:
    """Several tables as heatmaps, on one colour scale.

    The figure is 6.4 inches wide whatever the number of columns, so that a
    phone shows its labels (see ``tests/test_plotting_phone.py``).

    Parameters
    ----------
    tables : dict of str to array_like
        Panel title to a 2-D table (rows are positions).
    columns : int, optional
        Panels per row (default: one, the panels one under the other).
    xlabel, ylabel : str
        Axis labels.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> figure = table_panels({"a": sinusoidal(8, 4), "b": sinusoidal(8, 4, layout="split")})
    >>> [axes.get_title() for axes in figure.axes[:2]]
    ['a', 'b']
    """
    import matplotlib.pyplot as plt

    if not isinstance(tables, dict) or not tables:
        raise TypeError("tables must be a non-empty dict of title -> table")
    checked = {str(title): check_table(f"tables[{title!r}]", table) for title, table in tables.items()}
    columns = 1 if columns is None else check_int("columns", columns, minimum=1)
    n_rows = -(-len(checked) // columns)
    limit = max(float(np.abs(table).max()) for table in checked.values()) or 1.0
    panel_height = 2.3 if columns == 1 else 2.9
    figure, grid = plt.subplots(
        n_rows, columns, figsize=(6.4, panel_height * n_rows + 0.3), layout="constrained", squeeze=False
    )
    image = None
    for index, axes in enumerate(grid.flat):
        if index >= len(checked):
            axes.set_visible(False)
            continue
        title, table = list(checked.items())[index]
        image = axes.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-limit, vmax=limit, interpolation="nearest")
        axes.set_title(title, fontsize=9)
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
    assert image is not None  # at least one panel was drawn (checked above)
    figure.colorbar(image, ax=[a for a in grid.flat if a.get_visible()], label="value", shrink=0.85)
    return figure


def offset_curve(
    curves: dict[str, ArrayLike],
    *,
    first_increase: dict[str, int] | None = None,
    ylabel: str | None = None,
) -> Figure:
    """A quantity against the offset ``k``, with the first place it rises marked.

    Parameters
    ----------
    curves : dict of str to array_like
        Legend label to values at offsets ``0, 1, ...`` (e.g. from
        :func:`posenc_math.analysis.dot_product_by_offset`).
    first_increase : dict of str to int, optional
        Label to the offset to mark (from
        :func:`posenc_math.analysis.first_increase`).
    ylabel : str, optional
        Label of the y axis; by default the dot product of the encodings of
        ``t`` and ``t + k``, typeset (``⟨PE(t), PE(t + k)⟩``).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = offset_curve({"d = 4": [2.0, 1.5, 0.6, 0.8]}, first_increase={"d = 4": 3})
    >>> figure.axes[0].get_xlabel()
    'offset k (positions)'
    """
    import matplotlib.pyplot as plt

    checked = _curves("curves", curves)
    marks = {} if first_increase is None else dict(first_increase)
    figure, axes = plt.subplots(figsize=(7.5, 3.5), layout="constrained")
    markers = "osd^v"
    handles: list[Line2D | tuple[Line2D, Line2D]] = []
    labels: list[str] = []
    for index, (label, values) in enumerate(checked.items()):
        offsets = np.arange(values.size)
        (line,) = axes.plot(offsets, values, linewidth=1.1)
        handle: Line2D | tuple[Line2D, Line2D] = line
        offset = marks.get(label)
        if offset is not None:
            offset = check_int("first_increase offset", offset, minimum=1)
            if offset >= values.size:
                raise ValueError(f"first_increase[{label!r}]={offset} is past the end of the curve")
            (mark,) = axes.plot(
                [offset - 1, offset],
                values[[offset - 1, offset]],
                linestyle="none",
                marker=markers[index % len(markers)],
                color=line.get_color(),
                markersize=6,
            )
            # said in the legend, not beside the mark: beside it, the note ran into the
            # next curve where curves lie close (a phone's narrower figure, issue 24)
            handle = (line, mark)
            label = f"{label}: rises at k = {offset}"
        handles.append(handle)
        labels.append(label)
    axes.axhline(0.0, color="0.6", linewidth=0.5)
    axes.set_xlabel("offset k (positions)")
    axes.set_ylabel(r"$\langle PE(t), PE(t + k) \rangle$" if ylabel is None else ylabel)
    axes.legend(handles, labels, fontsize=8, loc="upper right")
    return figure


def _number(value: float) -> str:
    """``value`` as a reader reads it: an integer without decimals, else three significant digits."""
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:.3g}"


def offset_curve_description(curves: dict[str, ArrayLike], *, first_increase: dict[str, int] | None = None) -> str:
    """What :func:`offset_curve` draws, in words, from the same values (for alt text).

    Parameters
    ----------
    curves, first_increase
        As for :func:`offset_curve`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = offset_curve_description({"d = 4": [2.0, 1.5, 0.6, 0.8]}, first_increase={"d = 4": 3})
    >>> for sentence in text.split(". "):
    ...     print(sentence)
    One curve (d = 4) against the offset from 0 to 3, starting at 2 and ending at 0.8
    Its first rise is marked at offset 3.
    """
    checked = _curves("curves", curves)
    marks = {} if first_increase is None else dict(first_increase)
    count = "One curve" if len(checked) == 1 else f"{len(checked)} curves"
    labels = ", ".join(checked)
    lengths = {values.size for values in checked.values()}
    span = f"from 0 to {lengths.pop() - 1}" if len(lengths) == 1 else "over their offsets"
    starts = ", ".join(_number(values[0]) for values in checked.values())
    ends = ", ".join(_number(values[-1]) for values in checked.values())
    plural = len(checked) > 1
    text = (
        f"{count} ({labels}) against the offset {span}, starting at {starts}"
        f" and ending at {ends}{' respectively' if plural else ''}."
    )
    marked = [
        (label, check_int("first_increase offset", marks[label], minimum=1)) for label in checked if label in marks
    ]
    if marked:
        places = ", ".join(f"{offset} ({label})" if plural else str(offset) for label, offset in marked)
        text += f" {'Each' if plural else 'Its'} first rise is marked at offset {places}."
    return text
