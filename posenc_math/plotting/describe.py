"""Alt text for line plots, read from the values drawn.

A figure's alt text typed into a notebook cell's metadata drifts from the
data when the code changes; :func:`curves_description` says in words what
a set of curves does (where each starts and ends, its lowest and highest
point, or that it is flat), from the same arrays the plot draws, for
:func:`~posenc_math.plotting.described`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from .._words import number_words

__all__ = ["curves_description", "number_words", "slowdown_words"]


def curves_description(
    curves: Mapping[str, ArrayLike],
    *,
    x_label: str,
    y_label: str,
    x: ArrayLike | None = None,
    digits: int = 2,
    flat_tolerance: float = 1e-9,
) -> str:
    """What a line plot of ``curves`` shows, in words (for alt text).

    Parameters
    ----------
    curves : mapping of str to array_like
        Legend label to the values drawn (1-D, NaN where nothing is drawn).
    x_label, y_label : str
        What the axes show.
    x : array_like, optional
        The x value of each point (default ``0, 1, ...``).
    digits : int, default 2
        Significant digits of the numbers told.
    flat_tolerance : float, default 1e-9
        A curve whose values differ by at most this is told as flat.

    Returns
    -------
    str

    Examples
    --------
    >>> text = curves_description({"a": [0.74, 0.72, 0.70], "b": [1, 1]}, x_label="block", y_label="R^2")
    >>> print(text.replace(". ", ".\\n"))
    A line plot of R^2 against block, 0 to 2.
    a: from 0.74 at 0 to 0.7 at 2, highest 0.74 at 0, lowest 0.7 at 2.
    b: flat at 1 (ending at 1).
    """
    if not isinstance(curves, Mapping) or not curves:
        raise TypeError("curves must be a non-empty mapping of label -> 1-D values")
    arrays = {}
    for label, values in curves.items():
        array = np.asarray(values, dtype=np.float64)
        if array.ndim != 1 or array.size == 0:
            raise ValueError(f"curves[{label!r}] must be a non-empty 1-D array, got shape {array.shape}")
        arrays[str(label)] = array
    longest = max(array.size for array in arrays.values())
    xs = np.arange(longest, dtype=np.float64) if x is None else np.asarray(x, dtype=np.float64)
    if xs.ndim != 1 or xs.size < longest:
        raise ValueError(f"x must be 1-D with at least {longest} values, got shape {xs.shape}")

    def at(index: int) -> str:
        return number_words(xs[index], 6)

    sentences = [f"A line plot of {y_label} against {x_label}, {at(0)} to {at(longest - 1)}."]
    for label, array in arrays.items():
        drawn = np.flatnonzero(np.isfinite(array))
        if drawn.size == 0:
            sentences.append(f"{label}: nothing drawn.")
            continue
        values = array[drawn]
        end = "" if drawn[-1] == longest - 1 else f" (ending at {at(drawn[-1])})"
        if values.max() - values.min() <= flat_tolerance:
            sentences.append(f"{label}: flat at {number_words(values[0], digits)}{end}.")
            continue
        high, low = drawn[np.argmax(values)], drawn[np.argmin(values)]
        sentences.append(
            f"{label}: from {number_words(values[0], digits)} at {at(drawn[0])} to {number_words(values[-1], digits)}"
            f" at {at(drawn[-1])}, highest {number_words(array[high], digits)} at {at(high)}, lowest "
            f"{number_words(array[low], digits)} at {at(low)}."
        )
    return " ".join(sentences)


def slowdown_words(ratio: ArrayLike, factor: float, *, tolerance: float = 1e-9) -> str:
    """How a context-extension rule slows the pairs (``w_j / w'_j`` per pair), in words.

    Examples
    --------
    >>> slowdown_words([1.0, 1.0, 2.5, 4.0, 4.0], 4.0)
    '1 up to pair 1, rising to 4 at pair 3'
    >>> slowdown_words([4.0, 4.0], 4.0), slowdown_words([1.0, 1.0], 4.0), slowdown_words([1.5, 2.0], 4.0)
    ('4 at every pair', '1 at every pair', 'from 1.5 at pair 0 to 2 at pair 1')
    """
    ratio = np.asarray(ratio, dtype=np.float64)
    kept = np.abs(ratio - 1.0) <= tolerance
    full = np.abs(ratio - factor) <= tolerance * factor
    if full.all():
        return f"{number_words(factor, 6)} at every pair"
    if kept.all():
        return "1 at every pair"
    if kept[0] and full[-1]:
        last_kept = int(np.argmin(kept)) - 1
        first_full = int(ratio.size - np.argmin(full[::-1]))
        return f"1 up to pair {last_kept}, rising to {number_words(factor, 6)} at pair {first_full}"
    return f"from {number_words(ratio[0], 3)} at pair 0 to {number_words(ratio[-1], 3)} at pair {ratio.size - 1}"
