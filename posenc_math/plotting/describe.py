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

__all__ = ["curves_description", "number_words"]


def number_words(value: float, digits: int = 2) -> str:
    """``value`` as a reader reads it: an integer without decimals, else ``digits`` significant digits.

    Examples
    --------
    >>> number_words(3.0), number_words(0.7416), number_words(-0.004567, 3)
    ('3', '0.74', '-0.00457')
    """
    value = float(value)
    if np.isfinite(value) and value == round(value):
        return str(round(value))
    return f"{value:.{digits}g}"


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
