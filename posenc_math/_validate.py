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
from typing import cast

import numpy as np

__all__ = [
    "FLOAT_DTYPES",
    "MAX_POSITION",
    "MemoryLimitError",
    "as_array",
    "check_base",
    "check_choice",
    "check_float_dtype",
    "check_int",
    "check_int_array",
    "check_memory",
    "check_position",
    "check_real",
    "check_real_array",
    "check_table",
    "check_table_fits",
    "is_integer_array",
]

#: Positions (and offsets) are accepted up to this magnitude: every integer
#: up to 2**53 is exact in float64, and the angle reduction of
#: ``encodings._phase`` is accurate there (see its module docstring).
MAX_POSITION = 2**53

#: The float formats a table can be stored in.
FLOAT_DTYPES = ("float64", "float32", "float16", "bfloat16")


class MemoryLimitError(ValueError, MemoryError):
    """A request whose estimated peak memory exceeds what is available.

    Both a ``ValueError`` (the sizes asked for are the problem) and a
    ``MemoryError`` (what numpy would raise, later and without a message).
    """


def check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    """Return ``value`` as a Python int, or raise naming ``name``.

    Booleans and floats are refused even when integral (``3.0``): a size
    given as a float is usually a bug upstream.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got a bool {bool(value)}")
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def check_real(name: str, value: object) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``.

    Complex numbers are refused (``TypeError``) rather than losing their
    imaginary part; integers too large for a float are a ``ValueError``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number, got a bool {bool(value)}")
    if not isinstance(value, numbers.Real):
        kind = "a complex number" if isinstance(value, numbers.Complex) else type(value).__name__
        raise TypeError(f"{name} must be a real number, got {kind} {value!r}")
    try:
        value = float(value)
    except OverflowError:
        bits = int(cast(numbers.Integral, value)).bit_length()  # only integers overflow float()
        raise ValueError(f"{name} must be finite, got an integer of {bits} bits, too large for a float") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_position(name: str, value: object) -> int:
    """Return an integer position with ``|value| <= 2**53``, or raise naming ``name``."""
    value = check_int(name, value)
    if abs(value) > MAX_POSITION:
        raise ValueError(f"{name} must be an integer with |{name}| <= 2**53 (exact in float64), got {value}")
    return value


def as_array(name: str, value: object) -> np.ndarray:
    """``numpy.asarray(value)``, with nested sequences of unequal lengths refused by name.

    numpy refuses a ragged nesting (``[[1, 2], [3]]``) with a message about
    "an inhomogeneous shape" that does not say which argument it was; this
    names it.

    Examples
    --------
    >>> as_array("positions", [[0, 1], [2]])
    Traceback (most recent call last):
    ...
    ValueError: positions must be a rectangular array; got nested sequences of unequal lengths (ragged)
    """
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(value)
    except ValueError as error:
        raise ValueError(
            f"{name} must be a rectangular array; got nested sequences of unequal lengths (ragged)"
        ) from error


def check_real_array(name: str, value: object, *, finite: bool = True) -> np.ndarray:
    """Return ``value`` as a float64 array, refusing what is not real numbers.

    Complex input is a ``TypeError`` (numpy would drop the imaginary part
    with only a warning), as are booleans, strings and objects; NaN or
    infinity is a ``ValueError`` when ``finite``.
    """
    array = as_array(name, value)
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        kind = "complex" if array.dtype.kind == "c" else str(array.dtype)
        raise TypeError(f"{name} must be real numbers, got an array of dtype {kind}")
    if array.dtype != np.float64:  # the float64 copy, and the finiteness mask
        check_table_fits(array.shape, 9, f"{name} of shape {array.shape}")
    array = array.astype(np.float64, copy=False)
    if finite and not np.isfinite(array).all():
        raise ValueError(f"{name} must contain only finite numbers (found NaN or infinity)")
    return array


def check_float_dtype(value: object, name: str = "dtype") -> np.dtype:
    """The numpy dtype for float64, float32, float16 or bfloat16.

    Accepts the names, numpy types and dtypes (``np.float32``,
    ``ml_dtypes.bfloat16``).  ``bfloat16`` needs the ``ml_dtypes`` package,
    the ``posenc-math[precision]`` extra.
    """
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        value = np.dtype(value).name
    value = check_choice(name, value, FLOAT_DTYPES)
    if value == "bfloat16":
        try:
            import ml_dtypes
        except ImportError as error:  # pragma: no cover - depends on the install
            raise ImportError(
                f"{name}='bfloat16' needs the ml_dtypes package: pip install 'posenc-math[precision]'"
            ) from error
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(value)


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


#: Requests below this many bytes are not checked against the memory available.
_SMALL_BYTES = 2**24

#: numpy cannot allocate more than this many bytes in one array.
_NUMPY_LIMIT = np.iinfo(np.intp).max


def check_memory(n_bytes: int, what: str) -> None:
    """Refuse work whose estimated peak memory ``n_bytes`` is not available now.

    Call it before any work, with the peak (output and intermediates).
    ``what`` describes the request (``"n_positions=..., dim=..."``) so the
    message says exactly which sizes were asked for.  Raises
    :class:`MemoryLimitError` (a ``ValueError`` and a ``MemoryError``).
    """
    if n_bytes < _SMALL_BYTES:  # not worth reading /proc/meminfo for
        return
    available = _available_memory_bytes()
    if n_bytes > _NUMPY_LIMIT or (available is not None and n_bytes > available):
        have = "an unknown amount" if available is None else f"the {available / 2**30:.1f} GiB"
        raise MemoryLimitError(
            f"{what} needs about {n_bytes:.3g} bytes ({n_bytes / 2**30:.1f} GiB) at its peak, "
            f"more than {have} of memory available; ask for fewer positions or a smaller dim"
        )


def check_table_fits(shape: tuple[int, ...], itemsize: int, what: str, *, extra_bytes: int = 0) -> None:
    """Refuse a table of ``shape`` (plus ``extra_bytes`` of intermediates) that would not fit.

    A shorthand for :func:`check_memory` with the output's size computed
    from ``shape`` and ``itemsize``; the message names ``what`` and the shape.
    """
    n_bytes = itemsize
    for extent in shape:
        n_bytes *= extent
    check_memory(n_bytes + extra_bytes, f"a table of shape {shape} ({what})")


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
    table = check_real_array(name, value, finite=False)
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
    array = as_array(name, value)
    if not is_integer_array(array) or (ndim is not None and array.ndim != ndim):
        kind = "an array of integers" if ndim is None else f"a {ndim}-D array of integers"
        raise TypeError(f"{name} must be {kind}, got dtype {array.dtype}, shape {array.shape}")
    return array
