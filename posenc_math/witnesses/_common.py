"""Small helpers of the witnesses (and of the theorems' computed facts); no SymPy."""

from __future__ import annotations

import random


def seeded(theorem_id: str) -> random.Random:
    """A random generator seeded by the theorem id: the same points every run."""
    return random.Random(theorem_id)


def mp_context(digits: int = 40):
    """An mpmath working precision of ``digits`` significant digits."""
    import mpmath

    return mpmath.workdps(digits)


def largest_error(errors) -> float:
    """The largest absolute value in ``errors`` (numbers or mpmath values), as a float.

    Raises
    ------
    ValueError
        When ``errors`` is empty: a witness that compared nothing proves nothing.

    Examples
    --------
    >>> largest_error([1e-3, -2e-3])
    0.002
    >>> largest_error([])
    Traceback (most recent call last):
    ...
    ValueError: errors is empty: a witness must compare at least one value
    """
    values = [abs(error) for error in errors]
    if not values:
        raise ValueError("errors is empty: a witness must compare at least one value")
    return float(max(values))
