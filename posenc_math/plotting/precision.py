"""Figures for the precision page: phase error against position, and positions
as low-precision formats hold them.

Each helper computes what it draws with :mod:`posenc_math.precision` (exact
angles from mpmath), draws nothing random and returns the
:class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int
from .._words import number_words
from ..analysis import exact_integer_limit
from ..precision import phase_error, phase_error_bound

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "log_positions",
    "phase_error_growth",
    "phase_error_growth_description",
    "position_spacing",
    "position_spacing_description",
]

_COLOURS = {"bfloat16": "#D55E00", "float16": "#0072B2", "float32": "#009E73", "float64": "#000000"}
_STYLES = {"bfloat16": "-", "float16": "--", "float32": "-.", "float64": ":"}

#: The scenarios of :func:`phase_error_growth`: label -> formats.
SCENARIOS = {
    "all bfloat16": {"position_dtype": "bfloat16", "frequency_dtype": "bfloat16", "angle_dtype": "bfloat16"},
    "all float16": {"position_dtype": "float16", "frequency_dtype": "float16", "angle_dtype": "float16"},
    "all float32": {"position_dtype": "float32", "frequency_dtype": "float32", "angle_dtype": "float32"},
    "positions bfloat16, rest float32": {
        "position_dtype": "bfloat16",
        "frequency_dtype": "float32",
        "angle_dtype": "float32",
    },
}


def log_positions(stop: int, count: int = 120) -> np.ndarray:
    """About ``count`` distinct integers from 1 to ``stop``, evenly spaced on a log scale.

    Examples
    --------
    >>> log_positions(1000, 10)
    array([   1,    2,    5,   10,   22,   46,  100,  215,  464, 1000])
    """
    stop = check_int("stop", stop, minimum=2)
    count = check_int("count", count, minimum=2)
    return np.unique(np.round(np.geomspace(1, stop, count)).astype(np.int64))


def _largest_errors(
    positions: np.ndarray, dim: int, base: float, scenarios: dict[str, dict[str, str]]
) -> dict[str, np.ndarray]:
    """Per scenario, the largest phase error over the pairs at each position (nan where a position overflows)."""
    largest = {}
    for label, formats in scenarios.items():
        error = np.abs(phase_error(positions, dim, base=base, **formats))
        with np.errstate(all="ignore"):
            largest[label] = np.where(
                np.isnan(error).any(axis=1), np.nan, np.nanmax(np.nan_to_num(error, nan=0.0), axis=1)
            )
    return largest


def phase_error_growth_description(
    positions: ArrayLike, dim: int = 128, *, base: float = 10000.0, scenarios: dict[str, dict[str, str]] | None = None
) -> str:
    """What :func:`phase_error_growth` draws, in words, from the same errors (for alt text).

    For each scenario: the first drawn position where the largest error
    reaches one radian (where the line nears pi and the angle stops meaning
    anything), the error at the last position it holds, and where a format
    cannot hold the positions; for a scenario that differs from another only
    in its positions' format, the last position up to which the two agree.

    Parameters
    ----------
    positions, dim, base, scenarios
        As for :func:`phase_error_growth`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = phase_error_growth_description([1, 10, 100, 100_000], dim=8, scenarios={"f16": SCENARIOS["all float16"]})
    >>> text.split(". ")[1]
    'f16: 3.7 × 10⁻⁵ radians at position 100; no value from position 100,000 on, which it cannot hold.'
    """
    positions = np.asarray(positions)
    scenarios = SCENARIOS if scenarios is None else scenarios
    largest = _largest_errors(positions, dim, base, scenarios)
    sentences = [
        f"Log-log plot of the largest phase error over the pairs against the position, from {int(positions[0]):,} "
        f"to {int(positions[-1]):,}, for dim {dim} and base {base:g}, with a horizontal line at π."
    ]
    for label, worst in largest.items():
        held = ~np.isnan(worst)
        parts = []
        formats = scenarios[label]
        mixed = formats.get("position_dtype") != formats.get("angle_dtype")
        same_but_positions = [
            other
            for other, others in scenarios.items()
            if mixed
            and {k: v for k, v in others.items() if k != "position_dtype"}
            == {k: v for k, v in formats.items() if k != "position_dtype"}
            and others.get("position_dtype") == others.get("angle_dtype")
        ]
        for other in same_but_positions:
            agree = worst == largest[other]
            if agree.all():
                parts.append(f"the same errors as {other} at every position drawn")
            elif agree[0]:
                last_same = int(positions[np.argmin(agree) - 1])
                parts.append(f"the same errors as {other} up to position {last_same:,}")
        reaching = np.flatnonzero(held & (worst >= 1.0))
        if reaching.size:
            parts.append(f"error reaches one radian at position {int(positions[reaching[0]]):,}")
        if held.any():
            last = np.flatnonzero(held)[-1]
            parts.append(f"{number_words(float(worst[last]))} radians at position {int(positions[last]):,}")
        if not held.all():
            parts.append(
                f"no value from position {int(positions[np.flatnonzero(~held)[0]]):,} on, which it cannot hold"
            )
        sentences.append(f"{label}: " + "; ".join(parts) + ".")
    return " ".join(sentences)


def phase_error_growth(
    positions: ArrayLike, dim: int = 128, *, base: float = 10000.0, scenarios: dict[str, dict[str, str]] | None = None
) -> Figure:
    """Largest phase error over the pairs, against the position, per scenario.

    One line per scenario (default ``SCENARIOS``: everything in bfloat16, in float16, in float32, and
    bfloat16 positions with float32 angles): ``max_j |computed -
    exact|`` from :func:`posenc_math.precision.phase_error`, on log-log axes,
    with the one-rounding bound ``p u`` of each format dashed in grey.
    Positions a format cannot hold (float16 beyond 65,504) leave a gap.

    Parameters
    ----------
    positions : array_like of int
        Positions >= 1, e.g. :func:`log_positions`.
    dim : int, default 128
    base : float, default 10000.0
    scenarios : dict, optional
        Label -> keyword arguments of :func:`~posenc_math.precision.computed_angles`.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> figure = phase_error_growth([1, 10, 100], dim=8)
    >>> figure.axes[0].get_xscale(), figure.axes[0].get_yscale()
    ('log', 'log')
    """
    import matplotlib.pyplot as plt

    positions = np.asarray(positions)
    scenarios = SCENARIOS if scenarios is None else scenarios
    figure, axes = plt.subplots(figsize=(8, 4.6), layout="constrained")
    for label, worst in _largest_errors(positions, dim, base, scenarios).items():
        formats = scenarios[label]
        worst = np.where(worst > 0, worst, np.nan)  # exact angles have no place on a log axis
        kind = formats.get("angle_dtype", "float64")
        if label.startswith("positions"):
            # rounded and exact positions alternate: dots, not a line
            axes.loglog(positions, worst, ".", color="#CC79A7", markersize=4, label=label)
        else:
            axes.loglog(positions, worst, _STYLES[kind], color=_COLOURS[kind], linewidth=1.5, label=label)
    # The bounds in the legend, not beside their lines: beside them, the labels of bfloat16 and
    # float16 met at the top of a phone's narrower figure (issue 24).  Above pi a bound says
    # nothing (errors are wrapped to [-pi, pi]): it stops there, and the band above pi holds
    # the label of the pi line alone.
    for index, name in enumerate(("bfloat16", "float16", "float32")):
        bound = phase_error_bound(positions, name)
        axes.loglog(
            positions,
            np.where(bound <= np.pi, bound, np.nan),
            color="0.6",
            linewidth=0.7,
            linestyle=(0, (4, 3)),
            label=r"$p\,u$: one rounding of the angle" if index == 0 else None,
        )
    axes.axhline(np.pi, color="0.3", linewidth=0.8)
    axes.annotate(
        r"$\pi$: the angle is meaningless",
        (positions[0], np.pi),
        xytext=(2, 3),
        textcoords="offset points",
        fontsize=8,
        color="0.3",
    )
    axes.set_ylim(top=20.0)
    axes.set_xlabel("position p")
    axes.set_ylabel("largest phase error over the pairs (rad)")
    axes.set_title(rf"angle $p\,\omega_j$ against mpmath, dim {dim}, base {base:g}")
    axes.legend(fontsize=8, frameon=False, loc="lower right")
    return figure


def _largest_held(name: str) -> float:
    """The largest finite number of a format (bfloat16 has float32's exponent range)."""
    return float(np.finfo(np.float16).max) if name == "float16" else float(np.finfo(np.float32).max)


def position_spacing(stop: int = 10**8, *, formats: Sequence[str] = ("bfloat16", "float16", "float32")) -> Figure:
    """The gap between neighbouring numbers each format holds, near each position.

    Positions ``p`` and ``p + 1`` stay distinct while the gap is at most 1;
    it doubles at every power of two.  Computed with ``numpy.spacing`` in
    each format at every power of two up to ``stop`` (float16 ends at its
    largest number, 65,504).  The last exact position of each format
    (:func:`~posenc_math.analysis.exact_integer_limit`) is marked.

    Parameters
    ----------
    stop : int, default 10**8
    formats : sequence of str

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> line = position_spacing(2**12, formats=("bfloat16",)).axes[0].get_lines()[0]
    >>> line.get_ydata()[[0, 8, 9, 12]].tolist()     # at 1, 256, 512, 4096
    [0.0078125, 2.0, 4.0, 32.0]
    """
    import matplotlib.pyplot as plt

    from ..analysis import resolve_float_dtype

    stop = check_int("stop", stop, minimum=2)
    powers = 2.0 ** np.arange(int(np.log2(stop)) + 1)
    figure, axes = plt.subplots(figsize=(8, 4.2), layout="constrained")
    for name in formats:
        dtype = resolve_float_dtype(name)
        finite = powers[powers <= _largest_held(name)]
        gaps = np.spacing(finite.astype(dtype)).astype(np.float64)
        limit = exact_integer_limit(name)
        # the last exact position goes into the legend: written beside its dot, 256 and 2,048 sat
        # on the curves and 16,777,216 ran past the frame on a phone (issue 24)
        label = f"{name}: exact up to {limit:,} (dot)"
        axes.step(finite, gaps, where="post", color=_COLOURS[name], linestyle=_STYLES[name], linewidth=1.5, label=label)
        axes.plot([limit], [float(np.spacing(dtype.type(limit)))], "o", color=_COLOURS[name], markersize=5)
    axes.axhline(1.0, color="0.3", linewidth=0.8, label="gap 1: neighbours still distinct")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log", base=2)
    axes.set_xlabel("position p")
    axes.set_ylabel("gap to the next number held")
    # above the frame: inside, its longer lines reached the bfloat16 steps on a phone
    axes.legend(fontsize=8, frameon=False, loc="lower left", bbox_to_anchor=(0, 1))
    return figure


def position_spacing_description(
    stop: int = 10**8, *, formats: Sequence[str] = ("bfloat16", "float16", "float32")
) -> str:
    """What :func:`position_spacing` draws, in words, from the same formats (for alt text).

    Parameters
    ----------
    stop, formats
        As for :func:`position_spacing`.

    Returns
    -------
    str

    Examples
    --------
    >>> text = position_spacing_description(2**20, formats=("bfloat16", "float16"))
    >>> print(text.split(". ")[1].replace("; ", ";\\n"))
    The gap passes 1 after position 256 in bfloat16, 2,048 in float16 (the dots);
    float16's staircase stops at 32,768, the last power of two below its largest number, 65,504.
    """
    from ..analysis import resolve_float_dtype

    stop = check_int("stop", stop, minimum=2)
    names = list(formats)
    gap_at_one = {name: float(np.spacing(resolve_float_dtype(name).type(1.0))) for name in names}
    highest = sorted(names, key=lambda name: -gap_at_one[name])
    text = (
        f"{len(names)} rising staircases on log-log axes at the powers of two up to {2 ** int(np.log2(stop)):,}, "
        f"one per format, each step a doubling of the gap; highest first: {', '.join(highest)}. The gap passes 1 after "
        "position " + ", ".join(f"{exact_integer_limit(name):,} in {name}" for name in names) + " (the dots)"
    )
    ends = [name for name in names if _largest_held(name) < stop]
    ends_text = "; ".join(
        f"{name}'s staircase stops at {2 ** int(np.log2(_largest_held(name))):,}, the last power of two below its "
        f"largest number, {_largest_held(name):,.0f}"
        for name in ends
    )
    return text + (f"; {ends_text}." if ends else ".")
