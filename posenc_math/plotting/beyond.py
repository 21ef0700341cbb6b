"""Figures for the pages beyond the sinusoid: T5 buckets, RoPE, ALiBi, context extension.

Every helper computes what it draws with the library's own functions (so the
figure cannot drift from the code), draws nothing random unless given a seed,
labels its axes and returns the :class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int
from ..encodings.alibi import alibi_bias, alibi_slopes
from ..encodings.relative import relative_positions, shaw_clip, t5_bucket
from ..encodings.rope_analysis import rope_decay_bound, rope_relative_scores
from ..encodings.rope_scaling import extension_frequencies

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "alibi_bias_description",
    "alibi_bias_maps",
    "alibi_slope_description",
    "alibi_slope_plot",
    "extension_wavelengths",
    "extension_wavelengths_description",
    "rope_mean_score_description",
    "rope_mean_score_plot",
    "rope_score_decay",
    "rope_score_decay_description",
    "shaw_clipping_description",
    "shaw_clipping_map",
    "t5_bucket_description",
    "t5_bucket_map",
    "yarn_ramp_description",
    "yarn_ramp_plot",
]

#: Colours that stay apart in grayscale and for common colour blindness
#: (Okabe and Ito), one per rule or mode.
_COLOURS = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#CC79A7", "#0072B2"]


def shaw_clipping_map(*, max_distance: int = 4, n_positions: int = 16) -> Figure:
    """The embedding row Shaw et al. use for each (query, key) pair.

    Parameters
    ----------
    max_distance : int, default 4
        The clipping distance ``k``.
    n_positions : int, default 16
        Queries and keys shown.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> shaw_clipping_map().axes[0].get_xlabel()
    'key position j'
    """
    import matplotlib.pyplot as plt

    n_positions = check_int("n_positions", n_positions, minimum=1)
    rows = shaw_clip(relative_positions(n_positions), max_distance) + max_distance
    figure, axes = plt.subplots(figsize=(4.6, 3.8), layout="constrained")
    image = axes.imshow(rows, cmap="cividis", interpolation="nearest")
    axes.set_xlabel("key position j")
    axes.set_ylabel("query position i")
    axes.set_title(f"row clip(j - i, -{max_distance}, {max_distance}) + {max_distance}")
    figure.colorbar(image, ax=axes, label="embedding row")
    return figure


def shaw_clipping_description(*, max_distance: int = 4, n_positions: int = 16) -> str:
    """What :func:`shaw_clipping_map` draws, in words, from the same rows (for alt text).

    Parameters
    ----------
    max_distance, n_positions
        As for :func:`shaw_clipping_map`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = shaw_clipping_description(max_distance=2, n_positions=8)
    >>> "a diagonal band of 5 diagonals, offsets j - i from -2 to 2, uses rows 0 to 4, one per diagonal" in text
    True
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    offsets = np.arange(-(n_positions - 1), n_positions)
    rows = shaw_clip(offsets, max_distance) + max_distance
    lowest, highest = int(rows.min()), int(rows.max())
    first = int(offsets[rows == lowest].max())  # the band's edges: the last offset at the lowest row, the first at
    last = int(offsets[rows == highest].min())  # the highest
    return (
        f"A {n_positions} by {n_positions} grid coloured by embedding row (dark low, light high): a diagonal band of "
        f"{last - first + 1} diagonals, offsets j - i from {first} to {last}, uses rows "
        f"{int(rows[offsets == first][0])} to {int(rows[offsets == last][0])}, one per diagonal; above it every pair "
        f"uses row {highest}, the "
        f"lightest, and below it row {lowest}, the darkest."
    )


def t5_bucket_description(
    *, num_buckets: int = 32, max_distance: int = 128, max_offset: int = 160, n_positions: int = 160
) -> str:
    """What :func:`t5_bucket_map` draws, in words, from the same buckets (for alt text).

    Parameters
    ----------
    num_buckets, max_distance, max_offset, n_positions
        As for :func:`t5_bucket_map`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = t5_bucket_description(num_buckets=8, max_distance=16, max_offset=20, n_positions=20)
    >>> "from 5 to 7 for positive offsets and from 1 to 3 for negative ones, and is flat from a distance of 6" in text
    True
    >>> "The decoder curve is 0 for every non-negative offset and climbs to 7, reached at offset -12." in text
    True
    """
    max_offset = check_int("max_offset", max_offset, minimum=1)
    n_positions = check_int("n_positions", n_positions, minimum=1)
    offsets = np.arange(-max_offset, max_offset + 1)
    encoder = t5_bucket(offsets, bidirectional=True, num_buckets=num_buckets, max_distance=max_distance)
    decoder = t5_bucket(offsets, bidirectional=False, num_buckets=num_buckets, max_distance=max_distance)
    positive, negative = encoder[offsets > 0], encoder[offsets < 0]
    # the distance from which each side's bucket no longer changes (up to max_offset)
    flat_from = max(
        next(d for d in range(1, max_offset + 1) if np.unique(encoder[side(offsets, d)]).size == 1)
        for side in (lambda o, d: o >= d, lambda o, d: o <= -d)
    )
    top = int(decoder.max())
    reached = int(offsets[decoder == top].max())
    edges = [f"{edge}" for edge in (-max_distance, max_distance) if abs(edge) <= max_offset]
    dotted = f", dotted lines at {' and '.join(edges)}" if edges else ""
    decoder_zero = bool((decoder[offsets >= 0] == 0).all())
    return (
        f"Top, two step curves of the bucket against the offset key - query from {-max_offset} to {max_offset}"
        f"{dotted}. The encoder curve is {int(encoder[offsets == 0][0])} at offset 0, climbs from {int(positive.min())}"
        f" to {int(positive.max())} for positive offsets and from {int(negative.min())} to {int(negative.max())} for"
        f" negative ones, and is flat from a distance of {flat_from} on. The decoder curve is "
        + ("0 for every non-negative offset" if decoder_zero else "not 0 for some non-negative offset")
        + f" and climbs to {top}, reached at offset {reached}. Below, left and right, the bucket of every query and key"
        f" pair over {n_positions} positions for each, the encoder's lower triangle in one set of shades and its"
        " upper triangle in a brighter set, the decoder's dark above the diagonal and brightening below it."
    )


def t5_bucket_map(
    *, num_buckets: int = 32, max_distance: int = 128, max_offset: int = 160, n_positions: int = 160
) -> Figure:
    """T5's buckets: against the offset, and over a (query, key) grid.

    Three panels: on top, the bucket of each offset ``key - query`` for the
    encoder (bidirectional) and the decoder (unidirectional), with the
    ``max_distance`` marked; below it, the bucket of every (query, key) pair
    for each of the two.

    Parameters
    ----------
    num_buckets, max_distance : int
        As in :func:`posenc_math.t5_bucket` (T5: 32 and 128).
    max_offset : int, default 160
        The offsets plotted run over ``-max_offset .. max_offset``.
    n_positions : int, default 160
        Size of the (query, key) grids.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = t5_bucket_map(max_offset=20, n_positions=20)
    >>> [axes.get_title().replace(chr(10), " ") for axes in figure.axes[:3]]  # the grids' titles on two lines
    ['bucket of each offset', 'encoder (bidirectional)', 'decoder (unidirectional)']
    """
    import matplotlib.pyplot as plt

    max_offset = check_int("max_offset", max_offset, minimum=1)
    n_positions = check_int("n_positions", n_positions, minimum=1)
    offsets = np.arange(-max_offset, max_offset + 1)
    # The line on top, the two grids below it: readable at a phone's width.
    figure = plt.figure(figsize=(6.4, 6.6), layout="constrained")
    panels = figure.subplot_mosaic([["line", "line"], ["encoder", "decoder"]], height_ratios=[1, 1.1])
    line_axes, encoder_axes, decoder_axes = panels["line"], panels["encoder"], panels["decoder"]
    for bidirectional, colour, style, label in (
        (True, _COLOURS[0], "-", "encoder (bidirectional)"),
        (False, _COLOURS[1], "--", "decoder (unidirectional)"),
    ):
        buckets = t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
        line_axes.step(offsets, buckets, where="mid", color=colour, linestyle=style, label=label)
    for edge in (-max_distance, max_distance):
        if edge <= max_offset:
            line_axes.axvline(edge, color="0.6", linewidth=0.8, linestyle=":")
    line_axes.set_xlabel("relative position (key - query)")
    line_axes.set_ylabel("bucket")
    line_axes.set_title("bucket of each offset")
    # The legend goes in a strip kept free under bucket 0 (below the decoder's flat line): anywhere
    # above it, a phone's larger text made it cover the encoder's steep middle.
    from matplotlib.ticker import MaxNLocator

    line_axes.set_yticks([tick for tick in MaxNLocator(integer=True).tick_values(0, num_buckets - 1) if tick >= 0])
    line_axes.set_ylim(-0.3 * num_buckets, num_buckets + 0.5)
    line_axes.legend(loc="lower right", fontsize=8, frameon=False)

    grid = relative_positions(n_positions)
    for axes, bidirectional, title in (
        (encoder_axes, True, "encoder (bidirectional)"),
        (decoder_axes, False, "decoder (unidirectional)"),
    ):
        image = axes.imshow(
            t5_bucket(grid, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance),
            cmap="cividis",
            vmin=0,
            vmax=num_buckets - 1,
            interpolation="nearest",
        )
        axes.set_title(title.replace(" (", "\n("))  # on two lines: one line ran into the other title on a phone
        axes.set_xlabel("key position")
        axes.set_ylabel("query position")
    figure.colorbar(image, ax=[encoder_axes, decoder_axes], label="bucket", shrink=0.9)
    return figure


def rope_score_decay(query: ArrayLike, key: ArrayLike, *, max_offset: int = 2000, base: float = 10000.0) -> Figure:
    """RoPE scores of one query/key pair against the offset, with RoFormer's bound.

    Top: the score ``<R(m) q, R(m + r) k>`` for ``r = 0 .. max_offset``
    with the bound of :func:`posenc_math.rope_decay_bound` (both signs).
    Bottom: ``|score|`` and the bound divided by its value at ``r = 0``, on a
    log scale, so that the bound's decay and the scores' lack of it can be
    compared.

    Parameters
    ----------
    query, key : array_like, shape (dim,)
        Real vectors (half layout), e.g. drawn with a seeded generator.
    max_offset : int, default 2000
    base : float, default 10000.0

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = rope_score_decay(np.ones(8), np.ones(8), max_offset=50)
    >>> figure.axes[1].get_yscale()
    'log'
    """
    import matplotlib.pyplot as plt

    max_offset = check_int("max_offset", max_offset, minimum=1)
    offsets = np.arange(0, max_offset + 1)
    scores = rope_relative_scores(query, key, offsets, base=base)
    bound = rope_decay_bound(query, key, offsets, base=base)
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(8, 5.4), layout="constrained", sharex=True)
    top.plot(offsets, scores, color=_COLOURS[6], linewidth=0.8, label="score")
    top.axhline(0, color="0.6", linewidth=0.6)
    top.set_ylabel("score")
    top.set_title("score of one query/key pair against the offset")
    scale = np.abs(scores).max() * 1.1 or 1.0
    top.set_ylim(-scale, scale)
    top.legend(loc="upper right", fontsize=8, frameon=False)

    bottom.semilogy(offsets, np.abs(scores) / bound[0], color=_COLOURS[6], linewidth=0.6, label="|score| / bound(0)")
    bottom.semilogy(offsets, bound / bound[0], color=_COLOURS[4], linewidth=1.4, label="RoFormer bound / bound(0)")
    bottom.set_xlabel("offset r = n - m (positions)")
    bottom.set_ylabel("relative size")
    # above the panel, in a row of its own: at its lower left it lay on the score's deepest dips
    bottom.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, fontsize=8, frameon=False)
    return figure


def rope_score_decay_description(
    query: ArrayLike, key: ArrayLike, *, max_offset: int = 2000, base: float = 10000.0
) -> str:
    """What :func:`rope_score_decay` draws, in words, from the same scores and bound (for alt text).

    Examples
    --------
    >>> text = rope_score_decay_description(np.ones(8), np.ones(8), max_offset=50)
    >>> text.split(". ")[0]
    'Two panels sharing the offset axis from 0 to 50'
    """
    from .describe import curves_description

    max_offset = check_int("max_offset", max_offset, minimum=1)
    offsets = np.arange(0, max_offset + 1)
    scores = rope_relative_scores(query, key, offsets, base=base)
    bound = rope_decay_bound(query, key, offsets, base=base)
    top = curves_description({"score": scores}, x_label="the offset", y_label="the score")
    bottom = curves_description(
        {
            "RoFormer bound relative to bound(0)": bound / bound[0],
            "|score| relative to bound(0)": np.abs(scores) / bound[0],
        },
        x_label="the offset",
        y_label="relative size (log scale)",
    )
    median = float(np.median(np.abs(scores) / bound))
    return (
        f"Two panels sharing the offset axis from 0 to {max_offset}. Top: {top} Bottom: {bottom} The score's size is "
        f"a median {median:.2g} of the bound."
    )


def rope_mean_score_description(
    dim: int = 128, *, max_offset: int = 2000, n_samples: int = 2000, base: float = 10000.0, seed: int = 0
) -> str:
    """What :func:`rope_mean_score_plot` draws, in words, from the same means (for alt text).

    Examples
    --------
    >>> print(rope_mean_score_description(8, max_offset=4, n_samples=20).split(". ")[0])
    A line plot of the mean score against the offset, 0 to 4
    """
    from ..analysis import rope_mean_scores
    from .describe import curves_description

    max_offset = check_int("max_offset", max_offset, minimum=1)
    offsets = np.arange(0, max_offset + 1)
    aligned, expected = rope_mean_scores(dim, offsets, base=base, n_samples=n_samples, seed=seed, aligned=True)
    independent, _ = rope_mean_scores(dim, offsets, base=base, n_samples=n_samples, seed=seed + 1, aligned=False)
    hundred = offsets <= min(100, max_offset)
    tail = offsets >= max_offset // 2
    return (
        curves_description(
            {
                f"mean over {n_samples} draws, key = query": aligned,
                "its expectation": expected,
                "mean, independent key": independent,
            },
            x_label="the offset",
            y_label="the mean score",
        )
        + f" The key = query mean is {float(aligned[hundred][-1]):.2g} at offset {int(offsets[hundred][-1])} and "
        f"between {float(aligned[tail].min()):.2g} and {float(aligned[tail].max()):.2g} over the second half; it "
        f"differs from its expectation by at most {float(np.abs(aligned - expected).max()):.2g}."
    )


def rope_mean_score_plot(
    dim: int = 128, *, max_offset: int = 2000, n_samples: int = 2000, base: float = 10000.0, seed: int = 0
) -> Figure:
    """The RoPE score averaged over seeded random vectors against the offset.

    Two cases, from :func:`posenc_math.analysis.rope_mean_scores`: the key
    equal to the query (the mean, and its exact expectation
    ``2 sum_j cos(r w_j)``), and an independent key (mean 0 at every offset).

    Parameters
    ----------
    dim : int, default 128
    max_offset : int, default 2000
    n_samples : int, default 2000
    base : float, default 10000.0
    seed : int, default 0
        The aligned case uses ``seed``, the independent one ``seed + 1``.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = rope_mean_score_plot(8, max_offset=50, n_samples=20)
    >>> len(figure.axes[0].get_lines()) >= 3
    True
    """
    import matplotlib.pyplot as plt

    from ..analysis import rope_mean_scores

    max_offset = check_int("max_offset", max_offset, minimum=1)
    offsets = np.arange(0, max_offset + 1)
    aligned, expected = rope_mean_scores(dim, offsets, base=base, n_samples=n_samples, seed=seed, aligned=True)
    independent, _ = rope_mean_scores(dim, offsets, base=base, n_samples=n_samples, seed=seed + 1, aligned=False)
    figure, axis = plt.subplots(figsize=(8, 3.6), layout="constrained")
    axis.plot(offsets, aligned, color=_COLOURS[6], linewidth=0.8, label=f"mean over {n_samples} draws, key = query")
    axis.plot(offsets, expected, color=_COLOURS[1], linewidth=1.2, linestyle="--", label="its expectation")
    axis.plot(offsets, independent, color=_COLOURS[3], linewidth=0.8, label="mean, independent key")
    axis.axhline(0, color="0.6", linewidth=0.6)
    axis.set_xlabel("offset r = n - m (positions)")
    axis.set_ylabel("mean score")
    axis.set_title(f"RoPE score averaged over random vectors (d = {dim})")
    axis.legend(loc="upper right", fontsize=8, frameon=False)
    return figure


def yarn_ramp_description(
    dim: int,
    *,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    beta_fast: float = 32,
    beta_slow: float = 1,
) -> str:
    """What :func:`yarn_ramp_plot` draws, in words, from the same ramps (for alt text).

    Parameters
    ----------
    dim, base, factor, original_max_position_embeddings, beta_fast, beta_slow
        As for :func:`yarn_ramp_plot`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = yarn_ramp_description(64, base=10000.0, factor=4.0, original_max_position_embeddings=2048)
    >>> print(text.replace("; ", ";\\n").replace(". ", ".\\n"))
    Ramp value from 0 to 1 against pair index 0 to 31.
    The exact ramp (line) is 0 up to pair 8, rises to 1 at pair 21 and stays at 1;
    the dots read off rope_frequencies lie within 2e-16 of it at every pair.
    Dotted vertical lines at 8 and 21.
    """
    from ..encodings.rope_scaling import rope_frequencies
    from ..witnesses.context_extension import yarn_ramp_exact

    if not factor > 1:
        raise ValueError(f"factor must be > 1 (a stretch), got {factor!r}")
    scaling = {
        "rope_type": "yarn",
        "factor": factor,
        "original_max_position_embeddings": original_max_position_embeddings,
        "beta_fast": beta_fast,
        "beta_slow": beta_slow,
    }
    default, _ = rope_frequencies(dim, base=base)
    scaled, _ = rope_frequencies(dim, base=base, scaling=scaling)
    low, high, ramp, _ = yarn_ramp_exact(dim, base, factor, original_max_position_embeddings, beta_fast, beta_slow)
    exact = np.array([float(r) for r in ramp])
    read = (1 - scaled / default) / (1 - 1 / factor)
    gap = float(np.abs(read - exact).max())
    last_zero = int(np.flatnonzero(exact == 0)[-1])
    first_one = int(np.flatnonzero(exact == 1)[0])
    within = f"within {gap:.0e} of it" if gap > 0 else "exactly on it"
    return (
        f"Ramp value from 0 to 1 against pair index 0 to {exact.size - 1}. The exact ramp (line) is 0 up to pair "
        f"{last_zero}, rises to 1 at pair {first_one} and stays at 1; the dots read off rope_frequencies lie "
        f"{within} at every pair. Dotted vertical lines at {float(low):.3g} and {float(high):.3g}."
    )


def yarn_ramp_plot(
    dim: int,
    *,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    beta_fast: float = 32,
    beta_slow: float = 1,
) -> Figure:
    """YaRN's ramp per pair: the exact ramp, and the one read off :func:`posenc_math.rope_frequencies`.

    The ramp read off the library is ``(1 - w'_j / w_j) / (1 - 1 / s)``
    (0 keeps the frequency, 1 divides it by the stretch ``s``); the exact
    one is the 40-digit ramp of the theorem ``yarn-ramp``.  Dotted lines
    mark the ramp's ends.

    Parameters
    ----------
    dim : int
    base : float
    factor : float
        The stretch ``s``, > 1.
    original_max_position_embeddings : int
    beta_fast, beta_slow : float, default 32 and 1

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = yarn_ramp_plot(64, base=10000.0, factor=4.0, original_max_position_embeddings=2048)
    >>> len(figure.axes[0].get_lines()) >= 2
    True
    """
    import matplotlib.pyplot as plt

    from ..encodings.rope_scaling import rope_frequencies
    from ..witnesses.context_extension import yarn_ramp_exact

    if not factor > 1:
        raise ValueError(f"factor must be > 1 (a stretch), got {factor!r}")
    scaling = {
        "rope_type": "yarn",
        "factor": factor,
        "original_max_position_embeddings": original_max_position_embeddings,
        "beta_fast": beta_fast,
        "beta_slow": beta_slow,
    }
    default, _ = rope_frequencies(dim, base=base)
    scaled, _ = rope_frequencies(dim, base=base, scaling=scaling)
    low, high, ramp, _ = yarn_ramp_exact(dim, base, factor, original_max_position_embeddings, beta_fast, beta_slow)
    pairs = np.arange(dim // 2)
    figure, axis = plt.subplots(figsize=(8, 3.4), layout="constrained")
    axis.plot(pairs, [float(r) for r in ramp], color=_COLOURS[1], linewidth=2.2, label="exact ramp r(j)")
    axis.plot(
        pairs,
        (1 - scaled / default) / (1 - 1 / factor),
        "o",
        color=_COLOURS[6],
        markersize=3,
        label="read off rope_frequencies",
    )
    for end in (low, high):
        axis.axvline(float(end), color="0.5", linewidth=0.8, linestyle=":")
    axis.set_xlabel("pair index j")
    axis.set_ylabel("ramp (0 keep, 1 divide by s)")
    axis.set_title("YaRN: keep, blend, divide")
    axis.legend(loc="lower right", fontsize=8, frameon=False)
    return figure


def _slope_label(value: float) -> str:
    """A slope as the reader reads it: ``1/256`` when it is one over an integer, else four digits."""
    from fractions import Fraction

    fraction = Fraction(float(value)).limit_denominator(2**20)
    if fraction.numerator == 1 and float(fraction) == value:
        return f"1/{fraction.denominator}"
    return f"{value:.4g}"


def _slope_words(value: float) -> str:
    """A slope for alt text: ``1 over 256`` (a "/" reads as a file path to accessibility checkers)."""
    return _slope_label(value).replace("1/", "1 over ")


def _checked_head(head: int, n_heads: int) -> int:
    head = check_int("head", head, minimum=0)
    if head >= n_heads:
        raise ValueError(f"head must be below n_heads={n_heads}, got {head}")
    return head


def alibi_slope_description(head_counts: Sequence[int] = (8, 12, 16, 32)) -> str:
    """What :func:`alibi_slope_plot` draws, in words, from the same slopes (for alt text).

    Parameters
    ----------
    head_counts : sequence of int
        As for :func:`alibi_slope_plot`.

    Returns
    -------
    str

    Examples
    --------
    >>> print(alibi_slope_description((4, 6)).replace(". ", ".\\n"))
    2 marked lines of the slope (log scale) against the head index.
    4 heads: a straight line (a geometric sequence) from 1 over 4 down to 1 over 256.
    6 heads: from 1 over 4 down to 1 over 256 at head 4, back up to 1 over 2 at head 5, then down to 1 over 8 at head 6.
    """
    parts = [f"{len(head_counts)} marked lines of the slope (log scale) against the head index."]
    for n_heads in head_counts:
        slopes = alibi_slopes(n_heads)
        first, last = _slope_words(slopes[0]), _slope_words(slopes[-1])
        rises = np.flatnonzero(np.diff(slopes) > 0)
        if rises.size == 0 and np.allclose(slopes[1:] / slopes[:-1], slopes[1] / slopes[0] if n_heads > 1 else 1.0):
            parts.append(f"{n_heads} heads: a straight line (a geometric sequence) from {first} down to {last}.")
            continue
        text = f"{n_heads} heads: from {first}"
        start = 0
        for rise in rises:
            text += f" down to {_slope_words(slopes[rise])} at head {rise + 1}, back up to "
            text += f"{_slope_words(slopes[rise + 1])} at head {rise + 2},"
            start = int(rise) + 1
        text += f" then down to {last} at head {n_heads}." if start < n_heads - 1 else "."
        parts.append(text)
    return " ".join(parts)


def alibi_bias_description(n_heads: int = 8, n_positions: int = 24, *, head: int = 0) -> str:
    """What :func:`alibi_bias_maps` draws, in words, from the same bias (for alt text).

    Parameters
    ----------
    n_heads, n_positions, head
        As for :func:`alibi_bias_maps`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = alibi_bias_description(4, 6)
    >>> text.startswith("Top: the causal bias of head 1 of 4 (slope 1 over 4) over 6 query and key positions")
    True
    >>> print(text[text.index("and -1.25") :].replace("; ", ";\\n").replace(". ", ".\\n"))
    and -1.25 at the bottom-left corner (query 5, key 0);
    the masked upper triangle is blank.
    Below: 4 straight lines, the bias the last query puts on each key, meeting at 0 at key 5;
    the steepest starts at -1.25 at key 0, the flattest at -0.0195.
    """
    bias = alibi_bias(n_heads, n_positions)
    slopes = alibi_slopes(n_heads)
    head = _checked_head(head, n_heads)
    last = n_positions - 1
    corner = float(bias[head, last, 0])
    starts = bias[:, last, 0]
    return (
        f"Top: the causal bias of head {head + 1} of {n_heads} (slope {_slope_words(slopes[head])}) over "
        f"{n_positions} query and key positions, a lower-triangular heatmap, {float(bias[head, last, last]):.3g} on "
        f"the diagonal and {corner:.3g} at the bottom-left corner (query {last}, key 0); the masked upper triangle "
        f"is blank. Below: {n_heads} straight lines, the bias the last query puts on each key, meeting at "
        f"{float(bias[0, last, last]):.3g} at key {last}; the steepest starts at {float(starts.min()):.3g} at key 0, "
        f"the flattest at {float(starts.max()):.3g}."
    )


def alibi_slope_plot(head_counts: Sequence[int] = (8, 12, 16, 32)) -> Figure:
    """ALiBi slopes against the head index, one line per head count.

    Parameters
    ----------
    head_counts : sequence of int
        Numbers of heads to compare; non-powers of two show the borrowed
        slopes at the end.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> alibi_slope_plot((4, 6)).axes[0].get_yscale()
    'log'
    """
    import matplotlib.pyplot as plt

    markers = "osD^vP"
    figure, axes = plt.subplots(figsize=(7, 3.6), layout="constrained")
    # Slopes shared by two head counts (12 heads start with the 8 of 8 heads) fall on one point: hollow
    # markers, larger for the earlier counts, ring each other instead of one hiding the other.
    for index, n_heads in enumerate(head_counts):
        slopes = alibi_slopes(n_heads)
        axes.semilogy(
            np.arange(1, n_heads + 1),
            slopes,
            marker=markers[index % len(markers)],
            markersize=4 + 2.5 * (len(head_counts) - 1 - index),
            markerfacecolor="none",
            markeredgewidth=1.3,
            linewidth=1.0,
            color=_COLOURS[index % len(_COLOURS)],
            label=f"{n_heads} heads",
        )
    axes.set_xlabel("head h")
    axes.set_ylabel("slope m_h (log scale)")
    axes.legend(fontsize=8, frameon=False)
    return figure


def alibi_bias_maps(n_heads: int = 8, n_positions: int = 24, *, head: int = 0) -> Figure:
    """The causal ALiBi bias: one head's matrix, and the last row of every head.

    Top: the bias ``-m (i - j)`` of one head over the (query, key) grid,
    masked entries (``j > i``) blank.  Bottom: the bias the last query puts
    on each key, one line per head: straight lines of slope ``m_h``.

    Parameters
    ----------
    n_heads : int, default 8
    n_positions : int, default 24
    head : int, default 0
        Head (from 0) whose matrix is drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> [axes.get_title() for axes in alibi_bias_maps(4, 6).axes[:2]]
    ['head 1 of 4, m = 1/4', 'last query, every head']
    """
    import matplotlib.pyplot as plt

    bias = alibi_bias(n_heads, n_positions)
    slopes = alibi_slopes(n_heads)
    head = _checked_head(head, n_heads)
    slope_label = _slope_label

    # One panel under the other, so that a phone shows each at full width.
    figure, (matrix_axes, line_axes) = plt.subplots(
        2, 1, figsize=(6.4, 7.4), layout="constrained", height_ratios=[1.15, 1]
    )
    image = matrix_axes.imshow(np.ma.masked_invalid(bias[head]), cmap="cividis", interpolation="nearest")
    matrix_axes.set_title(f"head {head + 1} of {n_heads}, m = {slope_label(slopes[head])}")
    matrix_axes.set_xlabel("key position j")
    matrix_axes.set_ylabel("query position i")
    figure.colorbar(image, ax=matrix_axes, label="bias -m (i - j)")
    keys = np.arange(n_positions)
    for index in range(n_heads):
        line_axes.plot(
            keys,
            bias[index, -1],
            color=_COLOURS[index % len(_COLOURS)],
            linestyle=("-", "--", "-.", ":")[(index // len(_COLOURS)) % 4],
            label=f"h={index + 1}, m={slope_label(slopes[index])}",
        )
    line_axes.set_title("last query, every head")
    line_axes.set_xlabel("key position j")
    line_axes.set_ylabel(f"bias for query i = {n_positions - 1}")
    # under the lines, in room kept free below the steepest one: "best" chose a place on the lines
    # once a phone's text was larger
    low, high = line_axes.get_ylim()
    line_axes.set_ylim(low - 0.6 * (high - low), high)
    line_axes.legend(fontsize=7, frameon=False, ncols=2 if n_heads > 6 else 1, loc="lower center")
    return figure


_RULE_LABELS = {
    "default": "trained (no rule)",
    "linear": "position interpolation",
    "ntk": "NTK-aware base",
    "yarn": "YaRN",
    "llama3": "Llama 3",
}


def extension_wavelengths_description(
    dim: int = 128,
    *,
    base: float = 500000.0,
    factor: float = 8.0,
    original_max_position_embeddings: int = 8192,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> str:
    """What :func:`extension_wavelengths` draws, in words, from the same frequencies (for alt text).

    Parameters
    ----------
    dim, base, factor, original_max_position_embeddings, low_freq_factor, high_freq_factor
        As for :func:`extension_wavelengths`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = extension_wavelengths_description(16, base=10000.0, factor=4.0, original_max_position_embeddings=64)
    >>> print(text.split(". ")[-1])
    Llama 3: 1 up to pair 0, rising to 4 at pair 3.
    """
    from .describe import number_words, slowdown_words

    rules = extension_frequencies(
        dim,
        base=base,
        factor=factor,
        original_max_position_embeddings=original_max_position_embeddings,
        low_freq_factor=low_freq_factor,
        high_freq_factor=high_freq_factor,
    )
    pairs = dim // 2
    wavelengths = ", ".join(
        f"{_RULE_LABELS[name]} from {number_words(2 * np.pi / inv_freq[0], 2)} to "
        f"{number_words(2 * np.pi / inv_freq[-1], 2)}"
        for name, inv_freq in rules.items()
    )
    slowdowns = ". ".join(
        f"{_RULE_LABELS[name]}: {slowdown_words(rules['default'] / inv_freq, factor)}"
        for name, inv_freq in rules.items()
        if name != "default"
    )
    return (
        f"Top, {len(rules)} lines of wavelength against pair index 0 to {pairs - 1} on a log scale, dotted lines at "
        f"the trained context {original_max_position_embeddings:,} and the extended one "
        f"{number_words(factor * original_max_position_embeddings, 6)}: {wavelengths}. Bottom, the slow-down per "
        f"pair. {slowdowns}."
    )


def extension_wavelengths(
    dim: int = 128,
    *,
    base: float = 500000.0,
    factor: float = 8.0,
    original_max_position_embeddings: int = 8192,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> Figure:
    """Wavelength of each rotary pair before and after each extension rule.

    Top: wavelength ``2π / ω_j`` per pair (log scale) for the trained
    frequencies and each rule of :func:`posenc_math.extension_frequencies`,
    with the trained and the extended context lengths marked.  Bottom: how
    much each rule slows each pair (``w_j / w'_j``), between 1 (kept) and
    ``factor`` (interpolated).

    Parameters
    ----------
    dim : int, default 128
        Rotary dimensions, even, > 2.
    base : float, default 500000.0
    factor : float, default 8.0
        Context stretch, >= 1.
    original_max_position_embeddings : int, default 8192
        The trained context length.
    low_freq_factor, high_freq_factor : float
        Llama 3's band limits; all as for :func:`posenc_math.extension_frequencies`.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = extension_wavelengths(16, base=10000.0, factor=4.0, original_max_position_embeddings=64)
    >>> figure.axes[0].get_yscale()
    'log'
    """
    import matplotlib.pyplot as plt

    rules = extension_frequencies(
        dim,
        base=base,
        factor=factor,
        original_max_position_embeddings=original_max_position_embeddings,
        low_freq_factor=low_freq_factor,
        high_freq_factor=high_freq_factor,
    )
    labels = _RULE_LABELS
    styles = {"default": "-", "linear": "--", "ntk": "-.", "yarn": ":", "llama3": "-"}
    pairs = np.arange(dim // 2)
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6.4), layout="constrained", sharex=True)
    for index, (name, inv_freq) in enumerate(rules.items()):
        colour = _COLOURS[index]
        width = 2.2 if name == "default" else 1.3
        top.semilogy(pairs, 2 * np.pi / inv_freq, styles[name], color=colour, linewidth=width, label=labels[name])
        bottom.plot(pairs, rules["default"] / inv_freq, styles[name], color=colour, linewidth=width, label=labels[name])
    top.axhline(original_max_position_embeddings, color="0.5", linewidth=0.8, linestyle=":")
    top.axhline(factor * original_max_position_embeddings, color="0.5", linewidth=0.8, linestyle=":")
    top.annotate(
        "trained context",
        (0, original_max_position_embeddings),
        xytext=(2, 4),
        textcoords="offset points",
        fontsize=9,
        color="0.3",
    )
    top.annotate(
        "extended context",
        (0, factor * original_max_position_embeddings),
        xytext=(2, 4),
        textcoords="offset points",
        fontsize=9,
        color="0.3",
    )
    top.set_ylabel("wavelength (positions)")
    top.set_title(f"dim {dim}, base {base:g}, factor {factor:g}, trained context {original_max_position_embeddings}")
    # The legend goes in the bottom panel's empty middle-left: in the top
    # panel's upper left it sat on the "extended context" label, and on the
    # phone rendering (larger text) the two overlapped.  Notes and legend at 9 pt: at 8 pt they
    # read as small print at a laptop's 736 px column, the figure drawn 800 px wide.
    bottom.legend(fontsize=9, frameon=False, loc="center left")
    bottom.set_xlabel(r"pair $j$ (frequency $\mathrm{base}^{-2j/\mathrm{dim}}$)")
    bottom.set_ylabel("slow-down w / w'")
    return figure
