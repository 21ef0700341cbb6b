"""Argument checks shared by every public function.

Each check raises ``TypeError`` for a value of the wrong kind and
``ValueError`` for a value of the right kind outside the accepted range, and
its message names the argument and what is accepted.  Nothing here is public
API; the public functions call these before any numpy work so that a bad
argument never surfaces as a broadcast error or a NaN table.
"""

from __future__ import annotations

import math
import numbers
import os

import numpy as np

__all__ = [
    "check_base",
    "check_choice",
    "check_int",
    "check_int_array",
    "check_real",
    "check_table",
    "check_table_fits",
    "is_integer_array",
]


def check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    """Return ``value`` as a Python int, or raise naming ``name``.

    Booleans and floats are refused even when integral (``3.0``): a size
    given as a float is usually a bug upstream.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def check_real(name: str, value: object) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_base(value: object, name: str = "base") -> float:
    """Return a frequency base: a finite real number greater than 1."""
    value = check_real(name, value)
    if value <= 1.0:
        raise ValueError(f"{name} must be a finite number > 1, got {value!r}")
    return value


def check_choice(name: str, value: object, accepted: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the ``accepted`` strings."""
    if not isinstance(value, str) or value not in accepted:
        listed = ", ".join(repr(a) for a in accepted)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def _available_memory_bytes() -> int | None:
    """Memory the kernel says is available now, or ``None`` if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_table_fits(shape: tuple[int, ...], itemsize: int, what: str) -> None:
    """Refuse a table that would not fit in the memory available now.

    ``what`` describes the request (``"n_positions=..., dim=..."``) so the
    message says exactly which sizes were asked for.
    """
    n_bytes = itemsize
    for extent in shape:
        n_bytes *= extent
    available = _available_memory_bytes()
    if available is not None and n_bytes > available:
        raise ValueError(
            f"a table of shape {shape} ({what}) needs {n_bytes / 2**30:.1f} GiB, "
            f"more than the {available / 2**30:.1f} GiB of memory available; "
            "ask for fewer positions or a smaller dim"
        )


def check_table(name: str, value: object, *, finite: bool = False, axes: str = "(positions, dim)") -> np.ndarray:
    """Return ``value`` as a non-empty 2-D float64 array, or raise naming ``name``.

    ``axes`` names the two axes in the message; with ``finite=True`` NaN and
    infinities are refused too.

    Examples
    --------
    >>> check_table("table", [[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_table("table", [1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: table must be a non-empty 2-D array (positions, dim), got shape (2,)
    """
    table = np.asarray(value, dtype=np.float64)
    if table.ndim != 2 or 0 in table.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array {axes}, got shape {table.shape}")
    if finite and not np.isfinite(table).all():
        raise ValueError(f"{name} must contain only finite numbers")
    return table


def is_integer_array(array: np.ndarray) -> bool:
    """True for arrays of signed or unsigned integers (booleans are not)."""
    return array.dtype != np.bool_ and array.dtype.kind in "iu"


def check_int_array(name: str, value: object, *, ndim: int | None = None) -> np.ndarray:
    """Return ``value`` as a numpy integer array (its own dtype), or raise
    ``TypeError`` naming ``name``; with ``ndim`` the number of axes is checked too.

    Examples
    --------
    >>> check_int_array("positions", [0, 5, 7], ndim=1)
    array([0, 5, 7])
    >>> check_int_array("positions", [0.0, 5.0], ndim=1)
    Traceback (most recent call last):
    ...
    TypeError: positions must be a 1-D array of integers, got dtype float64, shape (2,)
    """
    array = np.asarray(value)
    if not is_integer_array(array) or (ndim is not None and array.ndim != ndim):
        kind = "an array of integers" if ndim is None else f"a {ndim}-D array of integers"
        raise TypeError(f"{name} must be {kind}, got dtype {array.dtype}, shape {array.shape}")
    return array
