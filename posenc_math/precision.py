"""Phase errors of sinusoidal and rotary angles held in low precision.

An implementation computes the angle ``p w_j`` of position ``p`` and pair
``j`` from two numbers, the position and the frequency, each held in some
number format, and rounds their product to a third.  This module evaluates
exactly that: every input is rounded to its format, the product is formed
exactly and rounded once to the angle's format (the best any hardware does
in that format), and the result is compared with the exact angle from
mpmath.

* :func:`exact_angles`: ``p * base ** (-2 j / dim)`` reduced modulo 2 pi,
  from mpmath at 40 digits;
* :func:`computed_angles`: the same angle with the positions, frequencies
  and product held in chosen formats (``float16``, ``bfloat16`` via
  ``ml_dtypes``, ``float32``, ``float64``);
* :func:`phase_error`: their difference, wrapped to ``[-pi, pi]``;
* :func:`first_merged_position`: the first position whose angles all equal
  those of the position before it, so that the encoding can no longer tell
  the two apart;
* :func:`posenc_math.analysis.exact_integer_limit`: the format's limit on
  positions (``2 ** (mantissa bits + 1)``);
* :func:`phase_error_bound`: the rounding bound ``|p w| u`` that explains
  why float32 angles are accurate enough for today's contexts and
  half-precision ones are not.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from ._validate import (
    as_array,
    check_base,
    check_choice,
    check_int,
    check_int_array,
    check_real,
    check_real_array,
    check_table_fits,
)
from .analysis import exact_integer_limit, resolve_float_dtype
from .encodings._phase import exact_frequencies, rounded_once, two_product

__all__ = [
    "FORMATS",
    "computed_angles",
    "exact_angles",
    "first_merged_position",
    "phase_error",
    "phase_error_bound",
    "rounded_positions",
    "unit_roundoff",
]

#: The number formats this module knows, narrowest first.
FORMATS = ("bfloat16", "float16", "float32", "float64")


def _dtype(name, value):
    if isinstance(value, str):
        check_choice(name, value, FORMATS)
    return resolve_float_dtype(value)


def _positions(positions) -> np.ndarray:
    positions = check_int_array("positions", positions, ndim=1)
    if positions.size and int(np.abs(positions).max()) >= 2**53:
        raise ValueError("positions must be below 2**53 in magnitude (exact in float64)")
    return positions.astype(np.int64)


def _pairs(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (sine/cosine pairs), got dim={dim}")
    return dim // 2


def exact_angles(positions: ArrayLike, dim: int, *, base: float = 10000.0, digits: int = 40) -> np.ndarray:
    """Exact angles ``p * base ** (-2 j / dim)``, reduced to ``[-pi, pi]``.

    The frequencies and ``2 pi`` are fixed to more than ``digits``
    significant digits (mpmath, ``digits * log2(10) + 64`` bits) and the
    products and the reduction are exact integer arithmetic, so the float64
    result is the exact angle correctly rounded (up to an error far below
    ``10**-digits``).

    Parameters
    ----------
    positions : array_like of int, shape (n,)
    dim : int
        Even width (``dim // 2`` pairs).
    base : float, default 10000.0
    digits : int, default 40

    Returns
    -------
    numpy.ndarray
        Shape ``(n, dim // 2)``, float64.

    Examples
    --------
    >>> exact_angles([1, 7], 4).round(6)
    array([[1.      , 0.01    ],
           [0.716815, 0.07    ]])
    """
    positions = _positions(positions)
    n_pairs = _pairs(dim)
    base = check_base(base)
    digits = check_int("digits", digits, minimum=20)
    check_table_fits((positions.size, n_pairs), 8, f"{positions.size} positions, dim={dim}")
    # Fixed point with `bits` fraction bits: every frequency and 2 pi as an
    # integer (mpmath, correctly rounded), then exact integer arithmetic.  The
    # fixed-point error of an angle is below |p| 2**-bits < 2**(53 - bits), far
    # below 10**-digits; Python's int / int is correctly rounded to float64.
    bits = math.ceil(digits * math.log2(10)) + 64
    with mpmath.workprec(bits + 64):
        freqs = [
            int(mpmath.nint(mpmath.ldexp(mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim), bits)))
            for j in range(n_pairs)
        ]
        turn = int(mpmath.nint(mpmath.ldexp(2 * mpmath.pi, bits)))
    half_turn, unit = turn // 2, 1 << bits
    out = np.empty((positions.size, n_pairs), dtype=np.float64)
    for row, position in enumerate(positions.tolist()):
        for j, freq in enumerate(freqs):
            angle = position * freq
            out[row, j] = (angle - turn * ((angle + half_turn) // turn)) / unit  # in [-pi, pi)
    return out


def rounded_positions(positions: ArrayLike, dtype: DTypeLike) -> np.ndarray:
    """Positions as ``dtype`` holds them, back in float64.

    Examples
    --------
    >>> rounded_positions([255, 256, 257, 258, 259], "bfloat16")
    array([255., 256., 256., 258., 260.])
    >>> rounded_positions([65519, 65520], "float16")     # float16 tops out at 65504
    array([65504.,    inf])
    """
    positions = _positions(positions)
    dtype = _dtype("dtype", dtype)
    with np.errstate(over="ignore"):
        return positions.astype(np.float64).astype(dtype).astype(np.float64)


def computed_angles(
    positions: ArrayLike,
    dim: int,
    *,
    base: float = 10000.0,
    position_dtype: DTypeLike = "float64",
    frequency_dtype: DTypeLike = "float64",
    angle_dtype: DTypeLike = "float64",
) -> np.ndarray:
    """Angles ``p w_j`` as code computes them with numbers held in given formats.

    The position ``p`` is rounded to ``position_dtype``, the exact frequency
    ``base ** (-2 j / dim)`` to ``frequency_dtype``, and their product (formed
    exactly) to ``angle_dtype``.  For example:

    * Hugging Face Llama: everything float32;
    * a model cast to bfloat16 whose rotary buffers follow it (the bug
      reports cited on the precision page): everything bfloat16;
    * rotary-embedding-torch with bfloat16 queries: positions bfloat16,
      frequencies and angles float32.

    Parameters
    ----------
    positions : array_like of int, shape (n,)
    dim : int
        Even width.
    base : float, default 10000.0
    position_dtype, frequency_dtype, angle_dtype : str
        One of ``"bfloat16"``, ``"float16"``, ``"float32"``, ``"float64"``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, dim // 2)``, float64 holding values of ``angle_dtype``
        (not reduced modulo 2 pi: that is what the code passes to sin and
        cos).  A position beyond the format's range is ``inf``.

    Examples
    --------
    >>> computed_angles([257], 4, position_dtype="bfloat16")
    array([[256.  ,   2.56]])
    >>> computed_angles([1857], 32, position_dtype="float16", frequency_dtype="float16",
    ...                 angle_dtype="float16")[0, 1].item()   # GPT-NeoX issue 1003
    1045.0
    """
    positions = _positions(positions)
    n_pairs = _pairs(dim)
    base = check_base(base)
    position_dtype = _dtype("position_dtype", position_dtype)
    frequency_dtype = _dtype("frequency_dtype", frequency_dtype)
    angle_dtype = _dtype("angle_dtype", angle_dtype)
    check_table_fits(
        (positions.size, n_pairs),
        16,
        f"{positions.size} positions, dim={dim}",
        extra_bytes=48 * positions.size * n_pairs,
    )
    held_positions = rounded_once(positions.astype(np.float64), 0.0, position_dtype).astype(np.float64)
    held_freqs = rounded_once(*exact_frequencies(n_pairs, base, n_pairs), frequency_dtype).astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        product, error = two_product(held_positions[:, None], held_freqs[None, :])  # exact: product + error
        error[~np.isfinite(product)] = 0.0
        return rounded_once(product, error, angle_dtype).astype(np.float64)


def phase_error(positions: ArrayLike, dim: int, *, base: float = 10000.0, **formats: DTypeLike) -> np.ndarray:
    """Computed minus exact angle, wrapped to ``[-pi, pi]``.

    Parameters
    ----------
    positions, dim, base
        As in :func:`computed_angles`.
    **formats
        ``position_dtype``, ``frequency_dtype``, ``angle_dtype`` as in
        :func:`computed_angles`.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, dim // 2)``; ``nan`` where the position overflowed.

    Examples
    --------
    >>> error = phase_error([1857], 32, position_dtype="float16",
    ...                     frequency_dtype="float16", angle_dtype="float16")
    >>> round(float(error[0, 1]), 4)
    0.7322
    """
    exact = exact_angles(positions, dim, base=base)
    computed = computed_angles(positions, dim, base=base, **formats)
    with np.errstate(invalid="ignore"):
        difference = np.remainder(computed - exact + np.pi, 2 * np.pi) - np.pi
    difference[~np.isfinite(computed)] = np.nan
    return difference


def first_merged_position(
    dim: int, *, start: int = 1, stop: int, base: float = 10000.0, **formats: DTypeLike
) -> int | None:
    """The first position whose computed angles all equal the previous position's.

    From there on the encoding (a table row, or the rotation of a query)
    of ``p`` is exactly that of ``p - 1``.

    Parameters
    ----------
    dim : int
        Even width.
    start, stop : int
        Search ``start <= p < stop`` (``start >= 1``), at most 2**22
        positions at a time.
    base : float, default 10000.0
    **formats
        As in :func:`computed_angles`.

    Returns
    -------
    int or None

    Examples
    --------
    >>> first_merged_position(64, stop=5000, position_dtype="bfloat16")
    257
    >>> first_merged_position(64, stop=5000, position_dtype="float16")
    2049
    >>> first_merged_position(64, stop=5000) is None
    True
    """
    start = check_int("start", start, minimum=1)
    stop = check_int("stop", stop, minimum=start + 1)
    if stop - start > 2**22:
        raise ValueError(f"search at most 2**22 positions at a time, got {stop - start}")
    angles = computed_angles(np.arange(start - 1, stop), dim, base=base, **formats)
    same = np.all(angles[1:] == angles[:-1], axis=1)
    hits = np.flatnonzero(same)
    return int(hits[0]) + start if hits.size else None


def unit_roundoff(dtype: DTypeLike) -> float:
    """Half the spacing of ``dtype`` just above 1: the relative rounding error.

    Examples
    --------
    >>> [unit_roundoff(name) for name in ("bfloat16", "float16")]
    [0.00390625, 0.00048828125]
    """
    # eps / 2 = 2 ** -(mantissa bits + 1): one over the exact-integer limit.
    return 1.0 / exact_integer_limit(_dtype("dtype", dtype))


def phase_error_bound(positions: ArrayLike, dtype: DTypeLike, *, frequency: float = 1.0) -> np.ndarray:
    """Worst-case phase error from rounding an angle ``p w`` to ``dtype``.

    Rounding to nearest moves ``p w`` by at most ``|p w| u`` (``u`` from
    :func:`unit_roundoff`), and rounding the position or the frequency
    first moves it by at most as much again each.  This returns ``|p w| u``,
    the error of one rounding; the angles of the fastest pair (``w = 1``)
    are the largest.

    Parameters
    ----------
    positions : array_like of float
    dtype : str
    frequency : float, default 1.0

    Examples
    --------
    >>> phase_error_bound([131072], "float32").round(5)     # 128k positions
    array([0.00781])
    """
    raw = as_array("positions", positions)
    check_table_fits(raw.shape, 33, f"positions of shape {raw.shape}")  # the float64 copy, |p|, the bound, masks
    positions = check_real_array("positions", raw)
    frequency = check_real("frequency", frequency)
    if frequency <= 0:
        raise ValueError(f"frequency must be a finite number > 0, got {frequency!r}")
    with np.errstate(over="ignore"):
        bound = np.abs(positions) * frequency * unit_roundoff(dtype)
    if not np.isfinite(bound).all():
        raise ValueError(f"positions times frequency overflow float64 (frequency={frequency!r})")
    return bound
