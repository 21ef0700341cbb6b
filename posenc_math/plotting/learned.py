"""Figures for the pages on why positions are needed and on learned tables.

Every helper takes arrays the library computed (a position table, a
sentence's embeddings, a projection), draws nothing random and returns the
:class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int, check_table
from ..encodings.binary import binary
from ..encodings.learned import cosine_similarity_matrix

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "embedding_difference",
    "embedding_difference_description",
    "embedding_sum",
    "naive_alternatives",
    "pca_positions",
    "pca_positions_description",
    "position_vectors",
    "position_vectors_description",
    "similarity_matrices",
    "step_sizes",
    "step_sizes_description",
]


def position_vectors(
    table: ArrayLike,
    positions: Sequence[int],
    *,
    token_vector: ArrayLike | None = None,
    token_label: str = "token",
    columns: int = 5,
    pairs: bool = False,
    shared_scale: bool = True,
    ylim: tuple[float, float] | None = None,
) -> Figure:
    """Line plots of rows of a position table, one panel per position.

    Each panel plots the row's value against the dimension index, by default
    all on one y-scale, so a reader compares their size and shape;
    ``token_vector`` adds a last panel with a token embedding on the same
    scale.

    Parameters
    ----------
    table : array_like, shape (n_positions, dim)
    positions : sequence of int
        Rows to show, each in ``0 .. n_positions - 1``.
    token_vector : array_like, shape (dim,), optional
        A word embedding to show beside the positions.
    token_label : str
        Title of the token panel.
    columns : int, default 5
        Panels per row.
    pairs : bool, default False
        Read the row as interleaved sine/cosine pairs (columns ``2i``,
        ``2i + 1``) and draw the two as separate lines against the pair
        index ``i``. Drawn against the dimension index, an interleaved row
        alternates between its sine and cosine at every column and the two
        curves blur into one band.
    shared_scale : bool, default True
        One y-scale for every panel. With False each panel gets its own, so
        small rows stay readable beside a large one.
    ylim : tuple of float, optional
        Fixed y-limits for every panel (implies a shared scale); values
        outside are clipped by the axes.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> figure = position_vectors(sinusoidal(20, 16), [0, 1, 10])
    >>> [axes.get_title() for axes in figure.axes if axes.get_visible()]
    ['position 0', 'position 1', 'position 10']
    >>> figure = position_vectors(sinusoidal(20, 16), [3], pairs=True)
    >>> [line.get_label() for line in figure.axes[0].lines[:2]]
    ['sin (column 2i)', 'cos (column 2i + 1)']
    """
    import matplotlib.pyplot as plt

    from ..encodings.learned import embedding_lookup

    table = check_table("table", table)
    rows = embedding_lookup(table, np.asarray(positions, dtype=np.int64).ravel())
    titles = [f"position {int(p)}" for p in np.asarray(positions).ravel()]
    if token_vector is not None:
        token_vector = np.asarray(token_vector, dtype=np.float64)
        if token_vector.shape != (table.shape[1],):
            raise ValueError(f"token_vector must have shape ({table.shape[1]},), got {token_vector.shape}")
        rows = np.vstack([rows, token_vector])
        titles.append(token_label)
    if pairs and table.shape[1] % 2:
        raise ValueError(f"pairs=True needs an even number of columns, got {table.shape[1]}")
    columns = check_int("columns", columns, minimum=1)
    n_panels = len(rows)
    n_rows = -(-n_panels // columns)
    figure, grid = plt.subplots(
        n_rows,
        columns,
        figsize=(2.1 * columns, 1.7 * n_rows),
        sharex=True,
        sharey=bool(shared_scale) or ylim is not None,
        layout="constrained",
        squeeze=False,
    )
    for index, axes in enumerate(grid.flat):
        if index >= n_panels:
            axes.set_visible(False)
            continue
        is_token = token_vector is not None and index == n_panels - 1
        row = rows[index]
        if pairs:
            pair_index = np.arange(table.shape[1] // 2)
            axes.plot(pair_index, row[0::2], linewidth=0.7, color="C0", label="sin (column 2i)")
            axes.plot(pair_index, row[1::2], linewidth=0.7, color="C2", linestyle="--", label="cos (column 2i + 1)")
        else:
            axes.plot(np.arange(table.shape[1]), row, linewidth=0.6, color="C1" if is_token else "C0")
        axes.set_title(titles[index], fontsize=9)
        axes.axhline(0.0, color="0.6", linewidth=0.4)
        if ylim is not None:
            axes.set_ylim(*ylim)
    if pairs:
        # above the panels: inside the first one it covered its flat sine line at 0 once a laptop's
        # column needed its text larger
        figure.legend(handles=grid.flat[0].lines[:2], loc="outside upper center", ncols=2, frameon=False)
    for axes in grid[-1]:
        axes.set_xlabel("pair index i" if pairs else "dimension")
    for axes in grid[:, 0]:
        axes.set_ylabel("value")
    return figure


def similarity_matrices(tables: dict[str, ArrayLike], *, limit: int | None = None) -> Figure:
    """Cosine-similarity matrices of position tables, one under the other.

    Parameters
    ----------
    tables : dict of str to array_like
        Panel title to position table (rows are positions).  All panels
        share the colour scale -1 .. 1.
    limit : int, optional
        Show only the first ``limit`` positions of each table.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from posenc_math import sinusoidal
    >>> figure = similarity_matrices({"sinusoidal": sinusoidal(32, 16)})
    >>> figure.axes[0].get_title()
    'sinusoidal'
    """
    import matplotlib.pyplot as plt

    if not isinstance(tables, dict) or not tables:
        raise TypeError("tables must be a non-empty dict of title -> table")
    # One matrix under the other: side by side, three matrices shrink to a
    # third of a phone's width each.
    figure, axes_list = plt.subplots(
        len(tables), 1, figsize=(4.8, 4.0 * len(tables)), layout="constrained", squeeze=False
    )
    image = None
    for axes, (title, table) in zip(axes_list[:, 0], tables.items(), strict=True):
        table = check_table(f"tables[{title!r}]", table)
        if limit is not None:
            table = table[:limit]
        image = axes.imshow(
            cosine_similarity_matrix(table),
            cmap="RdBu_r",
            vmin=-1.0,
            vmax=1.0,
            interpolation="nearest",
            origin="upper",
        )
        axes.set_title(title)
        axes.set_xlabel("position")
        axes.set_ylabel("position")
    assert image is not None  # at least one panel was drawn (checked above)
    figure.colorbar(image, ax=axes_list[:, 0].tolist(), label="cosine similarity", shrink=0.9 / len(tables))
    return figure


def _sentence_parts(tokens, token, position, total) -> tuple[list[str], list[np.ndarray]]:
    """The token labels and the three (n_tokens, dim) tables of one sentence, checked to agree."""
    labels = [str(t) for t in tokens]
    parts = [check_table(name, value) for name, value in (("token", token), ("position", position), ("total", total))]
    if len({part.shape for part in parts}) != 1 or parts[0].shape[0] != len(labels):
        raise ValueError(
            "token, position and total must have one shape (n_tokens, dim) with "
            f"n_tokens = len(tokens) = {len(labels)}; got {[part.shape for part in parts]}"
        )
    return labels, parts


def embedding_sum(
    tokens: Sequence[str], token: ArrayLike, position: ArrayLike, total: ArrayLike, *, max_dims: int | None = None
) -> Figure:
    """A sentence's token embeddings, position embeddings and their sum.

    Three heatmaps with one row per token (labelled with the token) and a
    shared colour scale, read left to right as ``token + position = sum``. (BERT-style models
    apply a LayerNorm to the sum before the first layer; the third panel is
    the sum itself.)

    Parameters
    ----------
    tokens : sequence of str
        The tokens, one per row.
    token, position, total : array_like, shape (n_tokens, dim)
        What is added, and the result.
    max_dims : int, optional
        Show only the first ``max_dims`` dimensions (wide tables become
        unreadable strips).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> values = np.ones((2, 4))
    >>> figure = embedding_sum(["a", "b"], values, values, 2 * values)
    >>> [axes.get_title() for axes in figure.axes[:3]]
    ['token embedding', '+ position embedding', '= sum (before LayerNorm)']
    """
    import matplotlib.pyplot as plt

    tokens, parts = _sentence_parts(tokens, token, position, total)
    if max_dims is not None:
        parts = [part[:, :max_dims] for part in parts]
    limit = max(float(np.abs(part).max()) for part in parts) or 1.0
    figure, axes_list = plt.subplots(1, 3, figsize=(11, 0.28 * len(tokens) + 1.6), sharey=True, layout="constrained")
    titles = ["token embedding", "+ position embedding", "= sum (before LayerNorm)"]
    for axes, part, title in zip(axes_list, parts, titles, strict=True):
        image = axes.imshow(part, aspect="auto", cmap="RdBu_r", vmin=-limit, vmax=limit, interpolation="nearest")
        axes.set_title(title, fontsize=10)
        axes.set_xlabel("dimension")
    axes_list[0].set_yticks(range(len(tokens)), [f"{i}: {t}" for i, t in enumerate(tokens)])
    figure.colorbar(image, ax=axes_list.tolist(), label="value", shrink=0.9)
    return figure


def embedding_difference(
    tokens: Sequence[str],
    token: ArrayLike,
    position: ArrayLike,
    total: ArrayLike,
    first: int,
    second: int,
) -> Figure:
    """What separates two rows of a sentence's input: token, position and sum.

    One panel against the dimension: row ``second`` minus row ``first`` of
    the token embeddings, of the position embeddings and of their sum. For
    two occurrences of one token the token difference is zero everywhere,
    and the difference of the sums is exactly the difference of the
    position rows.

    Parameters
    ----------
    tokens : sequence of str
        The tokens, one per row.
    token, position, total : array_like, shape (n_tokens, dim)
        What is added, and the result.
    first, second : int
        The two rows to compare.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> token = np.ones((2, 4))
    >>> position = np.arange(8.0).reshape(2, 4)
    >>> figure = embedding_difference(["a", "a"], token, position, token + position, 0, 1)
    >>> [line.get_label() for line in figure.axes[0].lines[:3]]
    ['sum', 'position embedding', 'token embedding']
    >>> figure.axes[0].lines[0].get_ydata().tolist()
    [4.0, 4.0, 4.0, 4.0]
    """
    import matplotlib.pyplot as plt

    tokens, parts = _sentence_parts(tokens, token, position, total)
    first, second = (check_int(name, row, minimum=0) for name, row in (("first", first), ("second", second)))
    if max(first, second) >= len(tokens):
        raise ValueError(f"first and second must be rows 0 .. {len(tokens) - 1}, got {first} and {second}")
    token_gap, position_gap, total_gap = (part[second] - part[first] for part in parts)
    dims = np.arange(parts[0].shape[1])
    figure, axes = plt.subplots(figsize=(7.5, 3.0), layout="constrained")
    axes.plot(dims, total_gap, color="C3", linewidth=3.0, alpha=0.45, label="sum")
    axes.plot(dims, position_gap, color="C0", linewidth=0.9, linestyle="--", label="position embedding")
    axes.plot(dims, token_gap, color="0.2", linewidth=1.2, label="token embedding")
    axes.axhline(0.0, color="0.6", linewidth=0.4)
    axes.set_xlabel("dimension")
    axes.set_ylabel("difference")
    axes.set_title(f"row {second} ({tokens[second]}) minus row {first} ({tokens[first]})", fontsize=10)
    # one row along the top, over headroom kept free of the curves (at the upper right it lay on them)
    low, high = axes.get_ylim()
    axes.set_ylim(low, high + 0.4 * (high - low))
    axes.legend(fontsize=8, loc="upper center", ncols=3, frameon=False, handlelength=1.5, columnspacing=1.0)
    return figure


def pca_positions(projection: ArrayLike, explained: ArrayLike, *, label_every: int = 100, n_first: int = 40) -> Figure:
    """The positions of a table in the plane of its first two principal components.

    Top: every position as a point, coloured by position.  Bottom: the two
    coordinates against the position for the first ``n_first`` positions,
    which shows how the points move from one position to the next (two
    curves a quarter period apart mean the positions go round a circle).

    Parameters
    ----------
    projection : array_like, shape (n_positions, 2)
        From :func:`posenc_math.principal_components`.
    explained : array_like, shape (2,)
        Fraction of variance of each component (shown on the axes).
    label_every : int, default 100
        Write the position number next to every ``label_every``-th point.
    n_first : int, default 40
        Positions shown in the bottom panel.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> line = np.c_[np.arange(5.0), np.zeros(5)]
    >>> figure = pca_positions(line, [0.9, 0.1], label_every=2)
    >>> figure.axes[0].get_xlabel()
    'component 1 (90.0% of variance)'
    """
    import matplotlib.pyplot as plt

    projection = check_table("projection", projection)
    explained = np.asarray(explained, dtype=np.float64).ravel()
    if projection.shape[1] != 2 or explained.shape != (2,):
        raise ValueError(
            f"projection must have shape (n_positions, 2) and explained shape (2,); "
            f"got {projection.shape} and {explained.shape}"
        )
    label_every = check_int("label_every", label_every, minimum=1)
    n_first = min(check_int("n_first", n_first, minimum=2), len(projection))
    figure, (plane, curves) = plt.subplots(2, 1, figsize=(6.4, 8.2), layout="constrained", height_ratios=[1.5, 1])
    points = plane.scatter(projection[:, 0], projection[:, 1], c=np.arange(len(projection)), cmap="cividis", s=9)
    # A label near one already written goes below its point instead of above (MiniLM's 200 and
    # 500 lie side by side and their labels overlapped); "near" is a tenth of the cloud's size.
    size = float(np.ptp(projection, axis=0).max()) or 1.0
    written: list[np.ndarray] = []
    for position in range(0, len(projection), label_every):
        point = projection[position]
        crowded = any(np.abs(point - other).max() < size / 10 for other in written)
        offset = (4, -11) if crowded else (4, 4)
        plane.annotate(str(position), point, textcoords="offset points", xytext=offset, fontsize=8)
        written.append(point)
    plane.set_aspect("equal", adjustable="datalim")
    plane.set_xlabel(f"component 1 ({100 * explained[0]:.1f}% of variance)")
    plane.set_ylabel(f"component 2 ({100 * explained[1]:.1f}% of variance)")
    figure.colorbar(points, ax=plane, label="position")
    first = np.arange(n_first)
    curves.plot(first, projection[:n_first, 0], marker="o", markersize=3, label="component 1")
    curves.plot(first, projection[:n_first, 1], marker="s", markersize=3, linestyle="--", label="component 2")
    curves.axhline(0.0, color="0.6", linewidth=0.4)
    curves.set_xlabel(f"position (0 .. {n_first - 1})")
    curves.set_ylabel("coordinate")
    # above the panel: inside, every place is crossed by the curves (issue 24)
    curves.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, frameon=False)
    return figure


def naive_alternatives(*, n_positions: int = 16, short: int = 5, long: int = 17) -> Figure:
    """Three naive position codes and what goes wrong with each.

    Top: raw counting, ``p`` itself, grows without bound.  Middle:
    counting normalised to ``[0, 1]``, ``p / (n - 1)``, for a ``short`` and a
    ``long`` sequence: the same position gets a different value and the step
    between neighbours is ``1 / (n - 1)``, so it depends on the length.
    Bottom: the bits of ``p`` (:func:`posenc_math.binary`), which are bounded
    and length-independent but discrete, and jump: going from 7 to 8 flips
    four bits at once.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = naive_alternatives(n_positions=8, short=3, long=5)
    >>> [axes.get_title() for axes in figure.axes[:3]]
    ['raw count p', 'normalised p / (n - 1)', 'binary code of p']
    """
    import matplotlib.pyplot as plt

    n_positions = check_int("n_positions", n_positions, minimum=2)
    short = check_int("short", short, minimum=2)
    long = check_int("long", long, minimum=2)
    figure, (count_axes, norm_axes, bit_axes) = plt.subplots(3, 1, figsize=(6.4, 8.1), layout="constrained")
    positions = np.arange(n_positions)
    count_axes.plot(positions, positions, marker="o", markersize=3)
    count_axes.set_title("raw count p")
    count_axes.set_xlabel("position p")
    count_axes.set_ylabel("code value")
    for n, marker in ((short, "o"), (long, "s")):
        steps = np.arange(n)
        norm_axes.plot(steps, steps / (n - 1), marker=marker, markersize=3, label=f"n = {n} (step {1 / (n - 1):.3g})")
    norm_axes.set_title("normalised p / (n - 1)")
    norm_axes.set_xlabel("position p")
    norm_axes.legend(fontsize=8)
    bits = binary(n_positions, max(int(n_positions - 1).bit_length(), 1))
    bit_axes.imshow(bits.T, aspect="auto", cmap="cividis", interpolation="nearest", origin="lower")
    bit_axes.set_title("binary code of p")
    bit_axes.set_xlabel("position p")
    bit_axes.set_ylabel("bit (0 = least significant)")
    bit_axes.set_yticks(range(bits.shape[1]))
    return figure


def _steps(tables: dict[str, ArrayLike]) -> dict[str, np.ndarray]:
    """``|e(p + 1) - e(p)|`` of each table."""
    if not isinstance(tables, dict) or not tables:
        raise TypeError("tables must be a non-empty dict of label -> table")
    steps = {}
    for label, table in tables.items():
        table = np.asarray(table, dtype=np.float64)
        if table.ndim == 1:
            table = table[:, None]
        table = check_table(f"tables[{label!r}]", table)
        if table.shape[0] < 2:
            raise ValueError(f"tables[{label!r}] needs at least 2 positions")
        steps[label] = np.linalg.norm(np.diff(table, axis=0), axis=1)
    return steps


def step_sizes_description(tables: dict[str, ArrayLike]) -> str:
    """What :func:`step_sizes` draws, in words, from the same steps (for alt text).

    Examples
    --------
    >>> text = step_sizes_description({"count": np.arange(5.0), "jumps": np.array([0.0, 1.0, 3.0])})
    >>> print(text.replace(". ", ".\\n"))
    A line plot of the step |e(p+1) - e(p)| against position p, 0 to 3.
    count: flat at 1.
    jumps: from 1 at 0 to 2 at 1, highest 2 at 1, lowest 1 at 0.
    """
    from .describe import curves_description

    return curves_description(_steps(tables), x_label="position p", y_label="the step |e(p+1) - e(p)|")


def step_sizes(tables: dict[str, ArrayLike]) -> Figure:
    """Distance between neighbouring positions, ``|e(p + 1) - e(p)|``, per code.

    A good code moves by the same amount at every step, whatever the length
    of the sequence; the figure shows which codes do.

    Parameters
    ----------
    tables : dict of str to array_like
        Legend label to position table (rows are positions; a 1-D array is
        one value per position).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = step_sizes({"count": np.arange(5.0)})
    >>> figure.axes[0].get_ylabel()
    '|e(p+1) - e(p)|'
    """
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.5, 3.4), layout="constrained")
    markers = "osd^v<>"
    for index, (label, steps) in enumerate(_steps(tables).items()):
        axes.plot(
            np.arange(len(steps)), steps, marker=markers[index % len(markers)], markersize=3, linewidth=1, label=label
        )
    axes.set_xlabel("position p")
    axes.set_ylabel("|e(p+1) - e(p)|")
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return figure


def position_vectors_description(
    table: ArrayLike,
    positions: Sequence[int],
    *,
    token_vector: ArrayLike | None = None,
    token_label: str = "token",
    ylim: tuple[float, float] | None = None,
) -> str:
    """What :func:`position_vectors` draws, in words, from the same rows (for alt text).

    Each panel is told by its largest entry (by size, with its dimension)
    and the size within which 95% of its entries lie; with ``ylim``, how
    many entries fall outside the common scale.

    Examples
    --------
    >>> table = np.zeros((3, 100))
    >>> table[1, 7] = 2.0
    >>> table[2] = np.linspace(-0.1, 0.1, 100)
    >>> print(position_vectors_description(table, [1, 2], ylim=(-0.5, 0.5)).replace("; ", ";\\n"))
    2 small line plots of value against dimension, on one vertical scale from -0.5 to 0.5;
    position 1: largest entry 2 at dimension 7, 95% of entries within plus or minus 0, 1 entry off the scale;
    position 2: largest entry -0.1 at dimension 0, 95% of entries within plus or minus 0.096.
    """
    from .describe import number_words

    table = check_table("table", table)
    rows = {f"position {int(p)}": table[int(p)] for p in positions}
    if token_vector is not None:
        rows[token_label] = np.asarray(token_vector, dtype=np.float64)
    scale = (
        "each scaled to its own range"
        if ylim is None
        else f"on one vertical scale from {number_words(ylim[0])} to {number_words(ylim[1])}"
    )
    parts = [f"{len(rows)} small line plots of value against dimension, {scale}"]
    for label, row in rows.items():
        largest = int(np.argmax(np.abs(row)))
        bulk = float(np.quantile(np.abs(row), 0.95))
        text = (
            f"{label}: largest entry {number_words(row[largest])} at dimension {largest}, 95% of entries within "
            f"plus or minus {number_words(bulk)}"
        )
        if ylim is not None:
            off = int(np.count_nonzero((row < ylim[0]) | (row > ylim[1])))
            if off:
                text += f", {off} {'entry' if off == 1 else 'entries'} off the scale"
        parts.append(text)
    return "; ".join(parts) + "."


def embedding_difference_description(
    token: ArrayLike, position: ArrayLike, total: ArrayLike, first: int, second: int
) -> str:
    """What :func:`embedding_difference` draws, in words, from the same rows (for alt text).

    Examples
    --------
    >>> token = np.ones((2, 3))
    >>> position = np.array([[0.0, 0.25, 0.25], [0.5, 0.25, -0.25]])
    >>> print(embedding_difference_description(token, position, token + position, 0, 1).replace(". ", ".\\n"))
    A line plot of row 1 minus row 0 against dimension, 0 to 2.
    sum: from 0.5 at 0 to -0.5 at 2, highest 0.5 at 0, lowest -0.5 at 2.
    position embedding: from 0.5 at 0 to -0.5 at 2, highest 0.5 at 0, lowest -0.5 at 2.
    token embedding: flat at 0.
    The sum's difference equals the position difference within 0 at every dimension.
    """
    from .describe import curves_description

    gaps = {
        name: np.asarray(rows, dtype=np.float64)[second] - np.asarray(rows, dtype=np.float64)[first]
        for name, rows in (("sum", total), ("position embedding", position), ("token embedding", token))
    }
    apart = float(np.abs(gaps["sum"] - gaps["position embedding"]).max())
    return (
        curves_description(gaps, x_label="dimension", y_label=f"row {second} minus row {first}")
        + f" The sum's difference equals the position difference within {apart:.2g} at every dimension."
    )


def pca_positions_description(projection: ArrayLike, explained: ArrayLike, *, n_first: int = 40) -> str:
    """What :func:`pca_positions` draws, in words, from the same projection (for alt text).

    Examples
    --------
    >>> angles = np.arange(8) * np.pi / 2
    >>> ring = np.c_[np.cos(angles), np.sin(angles)]
    >>> text = pca_positions_description(ring, [0.5, 0.5], n_first=4)
    >>> print(text.replace(", coloured", ",\\ncoloured").replace(". ", ".\\n"))
    Top, a scatter plot of 8 positions on the first two principal components (50% and 50% of the variance),
    coloured by position, at distances 1 to 1 from the origin.
    Bottom, the two coordinates for positions 0 to 3, between -1 and 1.
    """
    from .describe import number_words

    projection = check_table("projection", projection)
    explained = np.asarray(explained, dtype=np.float64).ravel()
    n_first = min(check_int("n_first", n_first, minimum=2), len(projection))
    radii = np.linalg.norm(projection, axis=1)
    shown = projection[:n_first]
    return (
        f"Top, a scatter plot of {len(projection)} positions on the first two principal components "
        f"({100 * explained[0]:.0f}% and {100 * explained[1]:.0f}% of the variance), coloured by position, at "
        f"distances {number_words(radii.min())} to {number_words(radii.max())} from the origin. Bottom, the two "
        f"coordinates for positions 0 to {n_first - 1}, between {number_words(shown.min())} and "
        f"{number_words(shown.max())}."
    )
