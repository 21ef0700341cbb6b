"""Figures of turning: a shift of the position turning every dial by its own
fixed angle, a RoPE pair rotating with position, and the sinusoid's dials
animated as the position grows.

Both helpers compute what they draw with the library's own functions
(:func:`posenc_math.rope`, :func:`posenc_math.sinusoidal`), draw nothing
random, and are deterministic: the same arguments give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int
from ..encodings.rope import rope
from ..encodings.sinusoidal import frequencies, sinusoidal
from ..encodings.translation import translation_matrix
from .sinusoid import dial_face

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["dials_animation", "rope_pair_rotation", "shift_hands"]

#: Colours of the hand before and after the shift (Okabe-Ito blue and vermillion).
_BEFORE, _AFTER = "#0072B2", "#D55E00"


def shift_hands(
    dim: int,
    offset: int,
    *,
    positions: Sequence[int] = (1, 20),
    base: float = 10000.0,
    n_pairs: int | None = None,
) -> Figure:
    """Shifting the position by ``offset`` turns every dial by its own fixed angle.

    One row of dials per starting position ``t`` in ``positions``, one dial
    per sine/cosine pair ``i`` of :func:`posenc_math.sinusoidal`
    ``(., dim, base=base)``.  On each dial the hand of pair ``i`` at
    position ``t``, the point ``(sin t ω_i, cos t ω_i)`` (so the hands turn
    clockwise from twelve o'clock as the position grows), and the same hand
    after the shift, computed as :func:`posenc_math.translation_matrix`
    ``(offset, dim)`` times the row of ``t``.  An arc marks the turn; the
    label under each dial gives its angle ``ω_i * offset``, which is the
    same in every row: it depends on the pair and the offset, not on ``t``.

    Parameters
    ----------
    dim : int
        Width of the table (even, at least 2).
    offset : int
        The shift ``k``.
    positions : sequence of int, default (1, 20)
        Starting positions ``t``, one row each (non-negative).
    base : float, default 10000.0
        The frequency base.
    n_pairs : int, optional
        Dials per row, the first ``n_pairs`` pairs (default: all, at most 4
        so that a phone shows the labels).

    Returns
    -------
    matplotlib.figure.Figure
        Axes in row-major order: ``figure.axes[row * n_pairs + i]``.

    Examples
    --------
    >>> figure = shift_hands(8, 3, positions=(1, 20), base=100.0)
    >>> [axes.get_title() for axes in figure.axes[:2]]
    ['pair 0', 'pair 1']
    >>> figure.axes[0].get_xlabel(), figure.axes[4].get_xlabel()
    ('turned 3 rad', 'turned 3 rad')
    """
    import matplotlib.pyplot as plt

    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (sine/cosine pairs), got {dim}")
    offset = check_int("offset", offset)
    starts = [check_int(f"positions[{row}]", start, minimum=0) for row, start in enumerate(positions)]
    if not starts:
        raise ValueError("positions must name at least one starting position")
    n_pairs = min(dim // 2, 4) if n_pairs is None else check_int("n_pairs", n_pairs, minimum=1)
    if n_pairs > dim // 2:
        raise ValueError(f"n_pairs must be at most dim // 2 = {dim // 2}, got {n_pairs}")
    table = sinusoidal(max(starts) + 1, dim, base=base)
    shift = translation_matrix(offset, dim, base=base)
    turns = frequencies(dim, base=base)[:n_pairs] * offset
    circle = np.linspace(0.0, 2 * np.pi, 181)
    figure, grid = plt.subplots(
        len(starts), n_pairs, figsize=(6.4, 1.75 * len(starts) + 0.5), layout="constrained", squeeze=False
    )
    for row, start in enumerate(starts):
        before = table[start]
        after = shift @ before
        for pair in range(n_pairs):
            axes = grid[row, pair]
            dial_face(axes, f"pair {pair}" if row == 0 else "", circle=circle, limit=1.15, linewidth=0.8)
            turn = turns[pair]
            start_angle = np.arctan2(before[2 * pair], before[2 * pair + 1])
            arc = start_angle + np.linspace(0.0, turn, 60)
            axes.plot(0.42 * np.sin(arc), 0.42 * np.cos(arc), color="0.3", linewidth=1.2)
            for point, colour in ((before, _BEFORE), (after, _AFTER)):
                axes.annotate(
                    "",
                    xy=(point[2 * pair], point[2 * pair + 1]),
                    xytext=(0.0, 0.0),
                    arrowprops={"arrowstyle": "-|>", "color": colour, "linewidth": 1.8, "mutation_scale": 11},
                )
            axes.set_xlabel(f"turned {turn:.2g} rad", fontsize=9)
        grid[row, 0].set_ylabel(f"t = {start}", fontsize=10)
    figure.legend(
        handles=[
            plt.Line2D([], [], color=_BEFORE, linewidth=2, label="hand at position t"),
            plt.Line2D([], [], color=_AFTER, linewidth=2, label=f"at t + {offset}: T({offset}) times it"),
        ],
        loc="outside lower center",
        ncols=2,
        fontsize=9,
        frameon=False,
    )
    return figure


def rope_pair_rotation(pair: ArrayLike, frequencies: ArrayLike, *, n_positions: int = 12) -> Figure:
    """One query pair ``(x1, x2)`` rotated by RoPE at positions ``0 .. n_positions - 1``.

    One panel per frequency: the pair at each position is a point on the
    circle of radius ``|(x1, x2)|``, numbered by its position (every few
    positions where the points crowd), with the arrow
    of position 0 and of the last position. Each step turns the pair by the
    same angle, the frequency, in radians.

    Parameters
    ----------
    pair : array_like, shape (2,)
        The pair before rotation (position 0 leaves it unchanged).
    frequencies : sequence of float
        Angular frequencies, one panel each (radians per position).
    n_positions : int, default 12
        Positions drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = rope_pair_rotation([1.0, 0.0], [1.0, 0.1], n_positions=5)
    >>> [axes.get_title() for axes in figure.axes]
    ['ω = 1 rad per position', 'ω = 0.1 rad per position']
    >>> np.allclose(figure.axes[0].collections[0].get_offsets()[1], [np.cos(1.0), np.sin(1.0)])
    True
    """
    import matplotlib.pyplot as plt

    pair = np.asarray(pair, dtype=np.float64)
    if pair.shape != (2,) or not np.all(np.isfinite(pair)) or not np.any(pair):
        raise ValueError(f"pair must be a finite, nonzero vector of shape (2,), got {pair!r}")
    frequencies = np.asarray(frequencies, dtype=np.float64).ravel()
    if frequencies.size == 0 or not np.all(np.isfinite(frequencies)) or np.any(frequencies <= 0):
        raise ValueError(f"frequencies must be a non-empty sequence of positive numbers, got {frequencies!r}")
    n_positions = check_int("n_positions", n_positions, minimum=2)
    positions = np.arange(n_positions)
    radius = float(np.hypot(*pair))
    figure, axes_list = plt.subplots(
        1, len(frequencies), figsize=(3.4 * len(frequencies), 3.6), layout="constrained", squeeze=False
    )
    circle = np.linspace(0.0, 2 * np.pi, 181)
    for axes, frequency in zip(axes_list[0], frequencies, strict=True):
        turned = rope(np.tile(pair, (n_positions, 1)), positions, inv_freq=[frequency], layout="interleaved")
        axes.plot(radius * np.cos(circle), radius * np.sin(circle), color="0.8", linewidth=0.6)
        axes.scatter(turned[:, 0], turned[:, 1], c=positions, cmap="cividis", s=28, zorder=3)
        for end, colour in ((0, "C0"), (n_positions - 1, "C3")):
            axes.annotate(
                "",
                xy=(turned[end, 0], turned[end, 1]),
                xytext=(0.0, 0.0),
                arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 1.4},
            )
        # Label every position when neighbours are far enough apart on the
        # circle to keep the numbers legible, otherwise every few.
        every = max(1, int(np.ceil(0.35 / frequency)))
        for position in sorted({*positions[::every], n_positions - 1}):
            x, y = turned[position] * 1.16
            axes.text(x, y, str(position), fontsize=8, ha="center", va="center")
        axes.set_aspect("equal")
        limit = 1.35 * radius
        axes.set_xlim(-limit, limit)
        axes.set_ylim(-limit, limit)
        axes.set_xlabel("first coordinate")
        axes.set_title(f"ω = {frequency:g} rad per position", fontsize=10)
    axes_list[0, 0].set_ylabel("second coordinate")
    return figure


def dials_animation(
    dim: int = 8,
    *,
    n_positions: int = 48,
    n_pairs: int = 4,
    base: float = 10000.0,
    interval_ms: int = 250,
    dpi: int = 90,
    columns: int = 2,
) -> bytes:
    """The hands of the first ``n_pairs`` sine/cosine dials turning, as a GIF.

    Frame ``p`` shows every pair ``(sin p ω_i, cos p ω_i)`` of row ``p`` of
    :func:`posenc_math.sinusoidal` ``(n_positions, dim)`` as a hand on a
    dial, the earlier positions as a fading trail. The fast pair turns about
    once every six positions, the slower ones a little further each step.

    Parameters
    ----------
    dim : int, default 8
        Width of the table (``n_pairs <= dim // 2``).
    n_positions : int, default 48
        Frames, one per position ``0 .. n_positions - 1``.
    n_pairs : int, default 4
        Dials drawn.
    base : float, default 10000.0
        The frequency base.
    interval_ms : int, default 250
        Time per frame.
    dpi : int, default 90
        Resolution of the frames.
    columns : int, default 2
        Dials side by side; more go on further rows.  Two dials to a row
        keep the GIF narrower than a phone's text column (342 px at the
        defaults), so it is shown at its own size, labels included.

    Returns
    -------
    bytes
        The GIF file, looping forever; the same arguments give the same
        bytes.  Its comment says how large its smallest text is, in the
        image's pixels: ``posenc-label-px=N`` (font size in points x dpi
        / 72; the site's tests read it).

    Examples
    --------
    >>> gif = dials_animation(4, n_positions=3, n_pairs=2)
    >>> gif[:6]
    b'GIF89a'
    >>> gif == dials_animation(4, n_positions=3, n_pairs=2)
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text
    from PIL import Image

    dim = check_int("dim", dim, minimum=2)
    n_pairs = check_int("n_pairs", n_pairs, minimum=1)
    if n_pairs > dim // 2:
        raise ValueError(f"n_pairs must be at most dim // 2 = {dim // 2}, got {n_pairs}")
    n_positions = check_int("n_positions", n_positions, minimum=2)
    interval_ms = check_int("interval_ms", interval_ms, minimum=20)
    columns = min(check_int("columns", columns, minimum=1), n_pairs)
    rows = -(-n_pairs // columns)
    table = sinusoidal(n_positions, dim, base=base)
    figure, axes_grid = plt.subplots(
        rows, columns, figsize=(1.9 * columns, 2.1 * rows + 0.3), layout="constrained", squeeze=False
    )
    for spare in axes_grid.flat[n_pairs:]:
        spare.set_visible(False)
    circle = np.linspace(0.0, 2 * np.pi, 121)
    hands, trails = [], []
    for pair, axes in enumerate(axes_grid.flat[:n_pairs]):
        dial_face(axes, f"pair {pair}", circle=circle, limit=1.15, linewidth=0.8)
        (trail,) = axes.plot([], [], color="C0", alpha=0.45, linestyle="none", marker="o", markersize=2.5)
        (hand,) = axes.plot([], [], color="C3", linewidth=2.2, marker="o", markevery=[1], markersize=4)
        hands.append(hand)
        trails.append(trail)
    label = figure.suptitle("position 0", fontsize=10)

    def draw(position):
        for pair, (hand, trail) in enumerate(zip(hands, trails, strict=True)):
            sines, cosines = table[: position + 1, 2 * pair], table[: position + 1, 2 * pair + 1]
            trail.set_data(sines, cosines)
            hand.set_data([0.0, sines[-1]], [0.0, cosines[-1]])
        label.set_text(f"position {position}")
        return [*hands, *trails, label]

    # One draw per frame: constrained layout runs once, on the first frame,
    # and the axes keep that place (matplotlib's animation writers draw each
    # frame three times and lay the figure out again every time).
    figure.set_dpi(dpi)
    canvas = FigureCanvasAgg(figure)
    try:
        draw(n_positions - 1)  # the longest title and trails
        canvas.draw()
        figure.set_layout_engine("none")
        frames = []
        for position in range(n_positions):
            draw(position)
            canvas.draw()
            frames.append(Image.fromarray(np.asarray(canvas.buffer_rgba())).convert("RGB"))
    finally:
        plt.close(figure)
    smallest = min(
        float(text.get_fontsize()) for text in figure.findobj(Text) if text.get_visible() and text.get_text()
    )
    gif = io.BytesIO()
    frames[0].save(
        gif,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=interval_ms,
        loop=0,
        comment=f"posenc-label-px={smallest * dpi / 72:.2f}".encode("ascii"),
    )
    return gif.getvalue()
