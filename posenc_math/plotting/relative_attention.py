"""Figures for relative attention that splits the score into terms.

Transformer-XL's four terms and DeBERTa's clipped distance and three terms,
each computed with :mod:`posenc_math.encodings.relative_attention` on seeded
random vectors (a picture of the formulas' structure, not of a trained model).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._validate import check_int
from ..encodings.relative_attention import deberta_relative_index, deberta_scores, transformer_xl_scores

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["deberta_terms_description", "deberta_terms_map", "transformer_xl_terms_map"]

_TXL_TITLES = {
    "a": "(a) content . content",
    "b": "(b) content . position",
    "c": "(c) u . content",
    "d": "(d) v . position",
}
_DEBERTA_TITLES = {"c2c": "content to content", "c2p": "content to position", "p2c": "position to content"}


def _panel(figure: Figure, axes: Axes, data: np.ndarray, title: str, cmap: str = "RdBu_r") -> None:
    from matplotlib.ticker import MaxNLocator

    limit = float(np.max(np.abs(data))) or 1.0
    image = axes.imshow(data, cmap=cmap, vmin=-limit, vmax=limit, interpolation="nearest")
    axes.set_title(title, fontsize=9)
    axes.set_xlabel("key position j")
    axes.set_ylabel("query position i")
    # the colour bar under its panel: beside it, a phone's square panels left their titles running
    # under the neighbouring bar ("(a) content . conten")
    bar = figure.colorbar(image, ax=axes, shrink=0.8, location="bottom")
    bar.ax.xaxis.set_major_locator(MaxNLocator(4, symmetric=True))


def transformer_xl_terms_map(*, n_positions: int = 16, dim: int = 8, seed: int = 0) -> Figure:
    """Transformer-XL's four score terms as heatmaps, for seeded random vectors.

    Parameters
    ----------
    n_positions : int, default 16
        Queries and keys, at positions ``0 .. n_positions - 1``.
    dim : int, default 8
        Width of the projected queries and keys (and of the relative sinusoid).
    seed : int, default 0
        Seed of ``numpy.random.default_rng`` for queries, keys, ``u``,
        ``v`` and ``W_r`` (standard normal entries).

    Returns
    -------
    matplotlib.figure.Figure
        Two by two panels (a), (b), (c), (d), each on its own symmetric colour
        scale; the image arrays are the terms returned by
        :func:`~posenc_math.transformer_xl_scores`.

    Examples
    --------
    >>> transformer_xl_terms_map().axes[0].get_title()
    '(a) content . content'
    """
    import matplotlib.pyplot as plt

    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (the sinusoid has sine and cosine halves), got {dim}")
    seed = check_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    queries, keys = rng.normal(size=(2, n_positions, dim))
    u, v = rng.normal(size=(2, dim))
    w_r = rng.normal(size=(dim, dim))
    _, terms = transformer_xl_scores(queries, keys, u, v, w_r, return_terms=True)
    figure, grid = plt.subplots(2, 2, figsize=(7.0, 6.2), layout="constrained")
    for axes, name in zip(grid.flat, "abcd", strict=True):
        _panel(figure, axes, terms[name], _TXL_TITLES[name])
    return figure


def deberta_terms_description(*, n_positions: int = 16, max_relative_positions: int = 4) -> str:
    """What :func:`deberta_terms_map` draws, in words, from the same index (for alt text).

    The table rows of ``delta(i, j)`` are read from
    :func:`~posenc_math.deberta_relative_index`; the three terms are told in
    words (they are drawn from seeded random vectors).

    Parameters
    ----------
    n_positions, max_relative_positions
        As for :func:`deberta_terms_map`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = deberta_terms_description(n_positions=6, max_relative_positions=2)
    >>> "uses table rows 0 to 3: row 0 (dark) in the upper right, row 3 (light) in the lower left" in text
    True
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    k = check_int("max_relative_positions", max_relative_positions, minimum=1)
    delta = deberta_relative_index(n_positions, k)
    return (
        f"Four {n_positions} by {n_positions} heatmaps. The first, delta(i, j), uses table rows {int(delta.min())} to "
        f"{int(delta.max())}: row {int(delta[0, -1])} ({'dark' if delta[0, -1] == delta.min() else 'light'}) in the "
        f"upper right, row {int(delta[-1, 0])} ({'dark' if delta[-1, 0] == delta.min() else 'light'}) in the lower "
        "left, with a band of graded shades between them along the diagonal. The content-to-content term is "
        "irregular; the content-to-position term is constant within each row on either side of the band; the "
        "position-to-content term is constant within each column on either side of the band."
    )


def deberta_terms_map(*, n_positions: int = 16, dim: int = 8, max_relative_positions: int = 4, seed: int = 0) -> Figure:
    """DeBERTa's clipped distance delta(i, j) and its three score terms.

    Parameters
    ----------
    n_positions : int, default 16
        Sequence length.
    dim : int, default 8
        Width of the projected content and position vectors.
    max_relative_positions : int, default 4
        ``k``; the relative table has ``2k`` rows.
    seed : int, default 0
        Seed of ``numpy.random.default_rng`` for the content queries and
        keys and the relative query and key tables (standard normal entries).

    Returns
    -------
    matplotlib.figure.Figure
        Two by two panels: ``delta(i, j)`` from
        :func:`~posenc_math.deberta_relative_index`, then the terms
        content-to-content, content-to-position and position-to-content
        returned by :func:`~posenc_math.deberta_scores` (unscaled).

    Examples
    --------
    >>> deberta_terms_map().axes[0].get_title()
    'delta(i, j), k = 4'
    """
    import matplotlib.pyplot as plt

    n_positions = check_int("n_positions", n_positions, minimum=1)
    dim = check_int("dim", dim, minimum=1)
    k = check_int("max_relative_positions", max_relative_positions, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    content_queries, content_keys = rng.normal(size=(2, n_positions, dim))
    position_queries, position_keys = rng.normal(size=(2, 2 * k, dim))
    _, terms = deberta_scores(content_queries, content_keys, position_queries, position_keys, return_terms=True)
    figure, grid = plt.subplots(2, 2, figsize=(7.0, 6.2), layout="constrained")
    delta = deberta_relative_index(n_positions, k)
    axes = grid.flat[0]
    image = axes.imshow(delta, cmap="cividis", interpolation="nearest")
    axes.set_title(f"delta(i, j), k = {k}", fontsize=9)
    axes.set_xlabel("key position j")
    axes.set_ylabel("query position i")
    figure.colorbar(image, ax=axes, shrink=0.8, label="table row")
    for axes, name in zip(list(grid.flat)[1:], ("c2c", "c2p", "p2c"), strict=True):
        _panel(figure, axes, terms[name], _DEBERTA_TITLES[name])
    return figure
