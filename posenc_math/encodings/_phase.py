"""Exact phases and the block-rotation table builder.

Every sinusoidal table in the library is built here, and every RoPE angle
can be reduced here.  Three ideas make the tables exact, fast and lean:

* **Exact angles.**  A frequency ``w = scale * b ** (-i / D)`` is held as a
  double-double ``w_hi + w_lo`` (about 106 bits), computed by mpmath at 160
  bits.  The product ``p * w_hi`` is formed *exactly* as a sum of two
  doubles by Dekker's error-free two-product (Veltkamp splitting, no fused
  multiply-add needed), and so is ``k * C1`` for the number of turns
  ``k = rint(p w / 2 pi)`` and the leading double ``C1`` of 2 pi (held as
  ``C1 + C2 + C3``, about 160 bits).  ``p w_hi - k C1`` is then exact
  (Sterbenz), and the remaining terms, each at most about ``|p w| 2**-52``,
  are added in float64.  Only the reduced angle, in about ``[-pi, pi]``, is
  rounded.  For ``|p w| <= 2**31`` the reduced angle is within
  ``2.3e-16`` of the exact one (one rounding of a number below ``pi``; the
  other errors are below ``|p w| 2**-100 < 1e-21``); beyond, the bound
  grows as about ``1e-16 + |p w| 2**-100`` (measured in the tests and in
  ``make bench``).  Positions are accepted up to ``|p| <= 2**53`` and
  angles up to ``|p w| <= 2**62``.  Nothing depends on ``numpy.longdouble``,
  so every platform gets the same digits.

* **The translation theorem as an algorithm.**  With
  ``e(p) = cos(p w) + i sin(p w)`` we have ``e(a + b) = e(a) e(b)``.  The
  table is cut into blocks of ``B`` rows; one block of phasors ``e(r)``,
  ``0 <= r < B``, and one rotation ``e(jB)`` per block give every row with a
  single complex multiplication.  That needs ``(B + n/B) * m`` exact
  angles instead of ``n * m``.  Each row is one multiplication away from
  exact phasors, so rounding errors do not accumulate: every entry is within
  about ``1e-15`` of the exact sine or cosine.

* **Bounded memory.**  Columns are filled in chunks of pairs, so the
  intermediates (phasors, scratch, frequencies) stay a small fraction of the
  output; :func:`table_peak_bytes` states the peak in advance, and callers
  check it against the memory available before doing any work.  Tables in
  float32, float16 or bfloat16 are the float64 values rounded once (bfloat16
  through float32 with round-to-odd, which makes the two roundings one).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import mpmath
import numpy as np

__all__ = [
    "FREQUENCY_BYTES",
    "MAX_ANGLE",
    "build_table",
    "exact_frequencies",
    "fill_table",
    "frequencies_extended",
    "phasors",
    "progression_phasors",
    "reduced_angles",
    "rounded_once",
    "store_rounded",
    "table_peak_bytes",
    "two_product",
]

#: Double-double frequencies: ``(hi, lo)`` float64 arrays with ``w = hi + lo``.
DoubleDouble = tuple[np.ndarray, np.ndarray]

#: Veltkamp's splitter for float64: 2**27 + 1.
_SPLITTER = 134217729.0

#: Largest ``|p w|`` (radians) that :func:`reduced_angles` accepts.
MAX_ANGLE = 2.0**62

#: Positions accepted by :func:`reduced_angles`: every integer is exact below.
MAX_POSITION = 2**53


def _two_pi_parts() -> tuple[float, float, float]:
    with mpmath.workprec(240):
        two_pi = 2 * mpmath.pi
        first = float(two_pi)
        second = float(two_pi - first)
        third = float(two_pi - first - second)
    return first, second, third


def _split_scalar(value: float) -> tuple[float, float]:
    scaled = value * _SPLITTER
    high = scaled - (scaled - value)
    return high, value - high


#: 2 pi as three doubles (about 160 bits), the first split for two-product.
_TWO_PI_1, _TWO_PI_2, _TWO_PI_3 = _two_pi_parts()
_TWO_PI_1_HIGH, _TWO_PI_1_LOW = _split_scalar(_TWO_PI_1)
_INV_TWO_PI = 1.0 / _TWO_PI_1

#: 2 pi to more digits than any ``longdouble`` holds (kept for callers that
#: still reduce extended-precision products themselves).
_TWO_PI = np.longdouble("6.283185307179586476925286766559005768394")


def frequencies_extended(n_pairs: int, base: float, denominator: int) -> np.ndarray:
    """Return ``base ** (-i / denominator)`` for ``i < n_pairs`` as longdouble.

    Kept for callers that want a single array; :func:`exact_frequencies` is
    exact to about 106 bits where ``longdouble`` has at most 64.
    """
    exponents = np.arange(n_pairs, dtype=np.longdouble) / np.longdouble(denominator)
    return np.power(np.longdouble(base), -exponents)


# ----------------------------------------------------------------------------
# Error-free transformations on float64 arrays.


def _split(values):
    """Veltkamp's split: ``values = high + low``, each with at most 26 bits."""
    scaled = values * _SPLITTER
    high = scaled - (scaled - values)
    return high, values - high


def _product_error(a, a_high, a_low, b, b_high, b_low, product):
    """Dekker: the exact ``a * b - product`` when ``product = fl(a * b)``."""
    error = a_high * b_high
    error -= product
    error += a_high * b_low
    error += a_low * b_high
    error += a_low * b_low
    return error


def _dd_multiply(a_hi, a_lo, b_hi, b_lo) -> DoubleDouble:
    """Product of two double-doubles, relative error about 2**-104."""
    product = a_hi * b_hi
    a_high, a_low = _split(a_hi)
    b_high, b_low = _split(b_hi)
    error = _product_error(a_hi, a_high, a_low, b_hi, b_high, b_low, product)
    error += a_hi * b_lo + a_lo * b_hi
    hi = product + error
    return hi, error - (hi - product)


# ----------------------------------------------------------------------------
# Frequencies as double-doubles.


@functools.lru_cache(maxsize=256)
def _geometric_dd(base: float, base_divisor: float, denominator: int, scale: float, first: int, step: int, count: int):
    """``scale * (base / base_divisor) ** (-(first + step t) / denominator)``, ``t < count``.

    ``denominator`` may be a fraction ``(numerator, denominator)`` given as
    an int or as a tuple (the exponent is then ``-numerator * i / denominator``).

    mpmath at 160 bits, one power and then repeated multiplication (each
    step loses about 2**-160), rounded to double-doubles.
    """
    numerator, denominator = denominator if isinstance(denominator, tuple) else (1, denominator)
    with mpmath.workprec(160):
        ratio_base = mpmath.mpf(base) / mpmath.mpf(base_divisor)
        ratio = mpmath.power(ratio_base, -mpmath.mpf(numerator * step) / denominator)
        value = mpmath.mpf(scale) * mpmath.power(ratio_base, -mpmath.mpf(numerator * first) / denominator)
        hi = np.empty(count)
        lo = np.empty(count)
        for t in range(count):
            hi[t] = float(value)
            lo[t] = float(value - hi[t])
            value *= ratio
    hi.flags.writeable = False
    lo.flags.writeable = False
    return hi, lo


#: Peak bytes per frequency of :func:`exact_frequencies` (the double-double
#: result and the temporaries of its product).
FREQUENCY_BYTES = 96

#: Length of the fine table in :func:`exact_frequencies` (at most).
_FINE_MAX = 1024


def exact_frequencies(
    n_pairs: int,
    base: float,
    denominator: int | tuple[int, int],
    *,
    scale: float = 1.0,
    base_divisor: float = 1.0,
    first: int = 0,
    stop: int | None = None,
) -> DoubleDouble:
    """Frequencies ``scale * (base / base_divisor) ** (-i / denominator)`` as double-doubles.

    For ``first <= i < stop`` (default: all ``n_pairs``); a ``denominator``
    given as ``(a, b)`` means the exponent ``-a i / b``.  ``hi`` is the
    float64 nearest the exact value (within an ulp of it) and ``hi + lo`` is
    within about ``2**-104`` relative.  Two levels of mpmath values,
    ``i = q S + t`` with ``S = min(isqrt(n_pairs), 1024)``, are multiplied as
    double-doubles, so a million pairs cost about two thousand mpmath
    products.
    """
    if first == 0 and (stop is None or stop == n_pairs) and n_pairs <= _CACHED_PAIRS:
        return _all_frequencies(n_pairs, float(base), denominator, float(scale), float(base_divisor))
    return _frequencies_range(n_pairs, base, denominator, scale, base_divisor, first, n_pairs if stop is None else stop)


#: Whole frequency sets up to this size are cached (read-only arrays).
_CACHED_PAIRS = 2**16


@functools.lru_cache(maxsize=128)
def _all_frequencies(n_pairs, base, denominator, scale, base_divisor) -> DoubleDouble:
    hi, lo = _frequencies_range(n_pairs, base, denominator, scale, base_divisor, 0, n_pairs)
    hi.flags.writeable = False
    lo.flags.writeable = False
    return hi, lo


def _frequencies_range(n_pairs, base, denominator, scale, base_divisor, first, stop) -> DoubleDouble:
    step = max(1, min(math.isqrt(n_pairs), _FINE_MAX))
    coarse_first, coarse_stop = first // step, (stop - 1) // step + 1
    fine_hi, fine_lo = _geometric_dd(float(base), float(base_divisor), denominator, 1.0, 0, 1, step)
    coarse_hi, coarse_lo = _geometric_dd(
        float(base),
        float(base_divisor),
        denominator,
        float(scale),
        coarse_first * step,
        step,
        coarse_stop - coarse_first,
    )
    hi, lo = _dd_multiply(coarse_hi[:, None], coarse_lo[:, None], fine_hi[None, :], fine_lo[None, :])
    offset = first - coarse_first * step
    return hi.ravel()[offset : offset + stop - first], lo.ravel()[offset : offset + stop - first]


def _as_double_double(freqs) -> DoubleDouble:
    """Frequencies given as a ``(hi, lo)`` pair, a float64 array or a longdouble array."""
    if isinstance(freqs, tuple):
        hi, lo = freqs
        return np.asarray(hi, dtype=np.float64), np.asarray(lo, dtype=np.float64)
    freqs = np.asarray(freqs)
    hi = freqs.astype(np.float64)
    if freqs.dtype == np.longdouble and np.dtype(np.longdouble).itemsize > 8:
        return hi, (freqs - hi.astype(np.longdouble)).astype(np.float64)
    return hi, np.zeros_like(hi)


# ----------------------------------------------------------------------------
# Angles and phasors.

#: Elements per block of the angle reduction: its temporaries stay in cache.
_REDUCE_BLOCK = 2**14


def _reduce_block(positions, pos_high, pos_low, hi, hi_high, hi_low, lo, out) -> None:
    """``out = outer(positions, hi + lo)`` reduced modulo 2 pi (see the module docstring)."""
    product = positions * hi
    error = _product_error(positions, pos_high, pos_low, hi, hi_high, hi_low, product)
    error += positions * lo
    turns = np.rint(product * _INV_TWO_PI)
    turns_high, turns_low = _split(turns)
    whole = turns * _TWO_PI_1
    error -= _product_error(turns, turns_high, turns_low, _TWO_PI_1, _TWO_PI_1_HIGH, _TWO_PI_1_LOW, whole)
    error -= turns * _TWO_PI_2
    error -= turns * _TWO_PI_3
    np.subtract(product, whole, out=out)  # exact: Sterbenz
    out += error


def reduced_angles(positions, freqs, *, name: str = "positions") -> np.ndarray:
    """Return ``outer(positions, freqs)`` reduced to about ``[-pi, pi]``, as float64.

    Parameters
    ----------
    positions : array_like
        Integers or finite floats, any shape, ``|p| <= 2**53``.
    freqs : tuple of two arrays, or array
        1-D frequencies: a double-double ``(hi, lo)`` from
        :func:`exact_frequencies` (exact), a float64 array (taken as exact
        values) or a longdouble array (its extra bits are kept).
    name : str
        The argument named in error messages.

    Returns
    -------
    numpy.ndarray
        Shape ``positions.shape + (len(freqs),)``.  Within ``2.3e-16`` of the
        exact reduced angle for ``|p w| <= 2**31``, about
        ``1e-16 + |p w| 2**-100`` beyond (see the module docstring).
    """
    positions = np.asarray(positions)
    hi, lo = _as_double_double(freqs)
    if positions.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be integers or real numbers, got dtype {positions.dtype}")
    flat = positions.astype(np.float64).ravel()
    largest = float(np.abs(flat).max(initial=0.0))  # NaN and infinity propagate
    if not math.isfinite(largest):
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    if largest > MAX_POSITION:
        raise ValueError(f"{name} must satisfy |{name}| <= 2**53, got a value of magnitude {largest:.6g}")
    if largest * float(np.abs(hi).max(initial=0.0)) > MAX_ANGLE:
        raise ValueError(
            f"{name} times the frequencies exceed 2**62 radians, beyond the range where angles are computed "
            f"accurately (largest |{name}| = {largest:.6g}, largest frequency {float(np.abs(hi).max()):.6g})"
        )
    n_rows, n_cols = flat.size, hi.size
    out = np.empty((n_rows, n_cols), dtype=np.float64)
    if out.size == 0:
        return out.reshape((*positions.shape, n_cols))
    col_step = min(n_cols, _REDUCE_BLOCK)
    row_step = max(1, _REDUCE_BLOCK // col_step)
    for c0 in range(0, n_cols, col_step):
        cols = slice(c0, min(c0 + col_step, n_cols))
        col_hi = hi[None, cols]
        col_hi_high, col_hi_low = _split(col_hi)
        col_lo = lo[None, cols]
        for r0 in range(0, n_rows, row_step):
            rows = slice(r0, min(r0 + row_step, n_rows))
            column = flat[rows, None]
            column_high, column_low = _split(column)
            _reduce_block(column, column_high, column_low, col_hi, col_hi_high, col_hi_low, col_lo, out[rows, cols])
    return out.reshape((*positions.shape, n_cols))


def phasors(positions, freqs) -> np.ndarray:
    """Return ``exp(1j * outer(positions, freqs))`` as complex128 (exact angles)."""
    angles = reduced_angles(positions, freqs)
    out = np.empty(angles.shape, dtype=np.complex128)
    np.cos(angles, out=out.real)
    np.sin(angles, out=out.imag)
    return out


def block_size(n_positions: int) -> int:
    """Rows per block: about sqrt(n), which minimises ``B + n / B``."""
    return max(1, math.isqrt(n_positions))


def progression_phasors(first: int, step: int, count: int, freqs) -> np.ndarray:
    """Return ``e(first + step * r)`` for ``r < count``, shape ``(count, m)``.

    The same square-root split once more: ``r = q a + b`` with
    ``q ~ sqrt(count)``, so only about ``2 sqrt(count)`` rows are evaluated
    directly and each result is one multiplication (one rounding) away from
    them.
    """
    inner = block_size(count)
    n_outer = -(-count // inner)
    near = phasors(first + step * np.arange(inner, dtype=np.int64), freqs)
    if n_outer == 1:
        return near[:count]
    far = phasors(step * inner * np.arange(n_outer, dtype=np.int64), freqs)
    out = far[:, None, :] * near[None, :, :]
    return out.reshape(n_outer * inner, -1)[:count]


# ----------------------------------------------------------------------------
# Storing in a narrower format.


def store_rounded(dest: np.ndarray, values: np.ndarray) -> None:
    """``dest[...] = values``, each float64 value rounded once to ``dest.dtype``.

    numpy rounds float64 to float32 and to float16 correctly (once).
    ``ml_dtypes`` converts float64 to bfloat16 through float32, rounding
    twice; rounding to float32 *to odd* first (truncate, then set the last
    bit when anything was cut off) makes the second rounding give the
    correctly rounded bfloat16, as float32 has more than 8 + 2 bits.
    """
    if dest.dtype.name != "bfloat16":
        with np.errstate(over="ignore"):  # beyond the format's range rounds to +-inf
            dest[...] = values
        return
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        single = values.astype(np.float32)
        back = single.astype(np.float64)
    inexact = back != values
    inexact &= ~np.isnan(values)
    bits = single.view(np.uint32)
    bits -= (inexact & (np.abs(back) > np.abs(values))).astype(np.uint32)  # truncate toward zero
    bits |= inexact.astype(np.uint32)  # sticky bit: round to odd
    dest[...] = single


def two_product(a, b) -> DoubleDouble:
    """``(p, e)`` with ``p = fl(a * b)`` and ``p + e == a * b`` exactly (Dekker)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    product = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    return product, _product_error(a, a_high, a_low, b, b_high, b_low, product)


def rounded_once(hi, lo, dtype) -> np.ndarray:
    """The double-double ``hi + lo`` (``hi`` its nearest float64) rounded once to ``dtype``.

    float64: ``hi``.  Narrower formats: round to float64 *to odd* first (of
    the two doubles around ``hi + lo`` take the one with an odd last bit),
    which makes the final rounding to nearest the correct one, as float64
    has more than the target's bits + 2.  Non-finite ``hi`` is kept as is.
    """
    dtype = np.dtype(dtype)
    hi = np.asarray(hi, dtype=np.float64)
    lo = np.asarray(lo, dtype=np.float64)
    if dtype == np.float64:
        return hi.copy()
    with np.errstate(invalid="ignore"):
        even = (hi.view(np.int64) & 1) == 0
        move = even & (lo != 0) & np.isfinite(hi) & np.isfinite(lo)
        odd = np.where(move, np.nextafter(hi, np.copysign(np.inf, lo)), hi)
    out = np.empty(hi.shape, dtype=dtype)
    store_rounded(out, odd)
    return out


# ----------------------------------------------------------------------------
# Tables.

#: Tables with fewer elements than this are filled on one thread.
PARALLEL_MIN_ELEMENTS = 2**20

#: Tables with at most this many rows are computed directly (no rotations).
DIRECT_MAX_ROWS = 16

#: Intermediates of one column chunk are kept below about this many bytes.
CHUNK_BYTES = 2**23


def worker_count(n_elements: int, n_blocks: int) -> int:
    """Threads for a table: one per available core (at most 4) for big tables.

    numpy releases the GIL inside ufuncs, so the block products run in
    parallel; filling memory is bandwidth-bound, and two writers reach more
    of it than one.
    """
    if n_elements < PARALLEL_MIN_ELEMENTS:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4, n_blocks // 4))


def _progression_bytes(count: int) -> int:
    """Peak bytes per pair of :func:`progression_phasors` for ``count`` rows."""
    inner = block_size(count)
    n_outer = -(-count // inner)
    rows = inner if n_outer == 1 else n_outer * inner + inner + n_outer
    # complex results, plus the float64 angles of the rows evaluated directly
    return 16 * rows + 8 * (inner + n_outer)


def _plan(n_positions: int, n_pairs: int, itemsize: int) -> tuple[int, int]:
    """Pairs per column chunk and the peak bytes of one chunk's intermediates."""
    if n_positions <= DIRECT_MAX_ROWS:
        # blocks that stay in cache: frequencies, angles, sines and cosines
        chunk = max(1, min(n_pairs, 2 * _REDUCE_BLOCK // n_positions))
        per_pair = 24 * n_positions + 96
        return chunk, chunk * per_pair + 12 * 8 * _REDUCE_BLOCK
    else:
        block = block_size(n_positions)
        n_blocks = -(-n_positions // block)
        workers = worker_count(n_positions * 2 * n_pairs, n_blocks)
        head = _progression_bytes(block)
        turns = _progression_bytes(n_blocks)
        # head and turns live together; head_pairs (interleaved) or one
        # scratch block per worker (split, narrow formats) comes on top.
        per_pair = head + turns + 16 * block * max(workers, 1) + 96
    chunk = max(1, min(n_pairs, CHUNK_BYTES // per_pair))
    # the angle reduction's own blocks: about a dozen arrays of _REDUCE_BLOCK
    reduce_bytes = 12 * 8 * _REDUCE_BLOCK
    return chunk, chunk * per_pair + reduce_bytes


def table_peak_bytes(n_positions: int, width: int, n_pairs: int, itemsize: int) -> int:
    """Estimated peak memory of :func:`build_table`: the output plus intermediates.

    An upper bound; ``tests/test_sinusoidal.py`` checks it against
    ``tracemalloc`` (numpy reports its allocations there).
    """
    _, working = _plan(n_positions, n_pairs, itemsize)
    return n_positions * width * itemsize + working


def _fill_direct(sin_out, cos_out, start, freqs) -> None:
    """Few rows: sines and cosines of the exact angles, written in place."""
    angles = reduced_angles(start + np.arange(sin_out.shape[0], dtype=np.int64), freqs)
    if sin_out.dtype == np.float64:
        np.sin(angles, out=sin_out)
        np.cos(angles, out=cos_out)
        return
    store_rounded(sin_out, np.sin(angles))
    store_rounded(cos_out, np.cos(angles))


def fill_table(sin_out, cos_out, start: int, freqs, *, pairs_view=None) -> None:
    """Write ``sin``/``cos`` of ``(start + row) * freqs`` into ``sin_out``/``cos_out``.

    ``sin_out`` and ``cos_out`` have shape ``(n, m)`` with ``m`` the number of
    frequencies (views into the table).  ``pairs_view``, when given, is the
    same columns viewed as complex128 pairs ``(sin, cos)`` of a float64
    interleaved table; the rotations are then written straight into it.
    """
    n_positions = sin_out.shape[0]
    if n_positions <= DIRECT_MAX_ROWS:
        _fill_direct(sin_out, cos_out, start, freqs)
        return
    block = block_size(n_positions)
    n_blocks = -(-n_positions // block)
    head = progression_phasors(start, 1, block, freqs)  # e(start + r)
    turns = progression_phasors(0, block, n_blocks, freqs)  # e(j B)

    if pairs_view is not None:
        # A float pair (sin x, cos x) read as one complex number is
        # sin x + i cos x = i * conj(e(x)); conjugation and the factor i
        # commute with the product rule, so multiply conjugates.
        head_pairs = np.empty_like(head)
        head_pairs.real = head.imag
        head_pairs.imag = head.real
        del head
        np.conjugate(turns, out=turns)

        def fill_blocks(blocks: range) -> None:
            for j in blocks:
                rows = slice(j * block, min((j + 1) * block, n_positions))
                np.multiply(head_pairs[: rows.stop - rows.start], turns[j], out=pairs_view[rows])

    else:

        def fill_blocks(blocks: range) -> None:
            scratch = np.empty_like(head)
            for j in blocks:
                rows = slice(j * block, min((j + 1) * block, n_positions))
                count = rows.stop - rows.start
                np.multiply(head[:count], turns[j], out=scratch[:count])
                store_rounded(sin_out[rows], scratch[:count].imag)
                store_rounded(cos_out[rows], scratch[:count].real)

    workers = worker_count(n_positions * 2 * sin_out.shape[1], n_blocks)
    if workers == 1:
        fill_blocks(range(n_blocks))
        return
    bounds = [n_blocks * w // workers for w in range(workers + 1)]
    chunks = [range(lo, hi) for lo, hi in itertools.pairwise(bounds)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in [pool.submit(fill_blocks, chunk) for chunk in chunks]:
            done.result()


def build_table(
    n_positions: int,
    width: int,
    n_pairs: int,
    *,
    start: int,
    layout: str,
    dtype: np.dtype,
    frequencies_of: Callable[[int, int], DoubleDouble],
) -> np.ndarray:
    """Allocate and fill an ``(n_positions, width)`` sine/cosine table.

    ``n_pairs`` pairs fill the first ``2 * n_pairs`` columns in ``layout``
    (``"interleaved"``: sin, cos, sin, cos, ...; ``"split"``: all sines,
    then all cosines); columns beyond are zero.  ``frequencies_of(first,
    stop)`` returns the double-double frequencies of pairs
    ``first .. stop - 1``.  The caller checks :func:`table_peak_bytes`
    against the memory available first; ``start`` and
    ``start + n_positions - 1`` must be within ``2**53``.
    """
    dtype = np.dtype(dtype)
    out = np.empty((n_positions, width), dtype=dtype)
    if width > 2 * n_pairs:
        out[:, 2 * n_pairs :] = 0
    chunk, _ = _plan(n_positions, n_pairs, dtype.itemsize)
    for first in range(0, n_pairs, chunk):
        stop = min(first + chunk, n_pairs)
        freqs = frequencies_of(first, stop)
        pairs_view = None
        if layout == "interleaved":
            sin_out, cos_out = out[:, 2 * first : 2 * stop : 2], out[:, 2 * first + 1 : 2 * stop : 2]
            if dtype == np.float64:
                pairs_view = out[:, 2 * first : 2 * stop].view(np.complex128)
        else:
            sin_out, cos_out = out[:, first:stop], out[:, n_pairs + first : n_pairs + stop]
        fill_table(sin_out, cos_out, start, freqs, pairs_view=pairs_view)
    return out
