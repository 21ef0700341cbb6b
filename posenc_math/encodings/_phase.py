"""Accurate phases and the block-rotation table builder.

Every sinusoidal table in the library is built here.  Two ideas make it both
exact and fast:

* **Accurate angles.**  The angle ``p * w`` is formed in extended precision
  (``numpy.longdouble``) and reduced modulo 2 pi before the float64 ``sin`` /
  ``cos``.  A float64 product ``p * w`` near p = 8192 is already off by up to
  half an ulp of 8192 (about 1e-12 rad); the reduced extended product is off by
  about 1e-16.  Frequencies are also kept in extended precision, so the table
  matches the exact formula, not the formula evaluated with rounded
  frequencies.  On platforms where ``longdouble`` is plain float64 the result
  is as accurate as the naive formula, no worse.

* **The translation theorem as an algorithm.**  With
  ``e(p) = cos(p w) + i sin(p w)`` we have ``e(a + b) = e(a) e(b)``.  The
  table is cut into blocks of ``B`` rows; one block of phasors ``e(r)``,
  ``0 <= r < B``, and one rotation ``e(jB)`` per block give every row with a
  single complex multiplication.  That needs ``(B + n/B) * m`` sine/cosine
  pairs instead of ``n * m``.  Each row is one multiplication away from
  accurately computed phasors, so rounding errors do not accumulate.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = [
    "fill_table",
    "frequencies_extended",
    "phasors",
    "progression_phasors",
    "reduced_angles",
]

#: 2 pi to more digits than any ``longdouble`` holds.
_TWO_PI = np.longdouble("6.283185307179586476925286766559005768394")


def frequencies_extended(n_pairs: int, base: float, denominator: int) -> np.ndarray:
    """Return ``base ** (-i / denominator)`` for ``i < n_pairs`` as longdouble."""
    exponents = np.arange(n_pairs, dtype=np.longdouble) / np.longdouble(denominator)
    return np.power(np.longdouble(base), -exponents)


#: 2 pi as a sum of three doubles (Cody and Waite): the first two have 28
#: significant bits, so ``k * part`` is exact for integers ``|k| < 2**24``.
_TWO_PI_PARTS = (
    float.fromhex("0x1.921fb54000000p+2"),
    float.fromhex("0x1.10b4612000000p-28"),
    float.fromhex("-0x1.676733ae8fe48p-58"),
)
#: Integer positions below this magnitude take the all-float64 path.
_EXACT_LIMIT = 2**26


def _split(freqs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split frequencies into float64 parts: 26 bits, 27 bits, and the rest.

    ``p * high`` and ``p * middle`` are exact for integers ``|p| < 2**26``.
    """
    as_double = freqs.astype(np.float64)
    scaled = as_double * (2.0**27 + 1.0)  # Veltkamp's split
    high = scaled - (scaled - as_double)
    middle = as_double - high
    rest = (freqs - as_double.astype(freqs.dtype)).astype(np.float64)
    return high, middle, rest


def reduced_angles(positions, freqs: np.ndarray) -> np.ndarray:
    """Return ``outer(positions, freqs)`` reduced to about [-pi, pi], as float64.

    ``positions`` are integers or floats (any shape), ``freqs`` a 1-D array
    (longdouble for full accuracy).  Integer positions below ``2**26`` use
    exact float64 products and a three-part 2 pi (about 1e-16 rad of error);
    others form the product in extended precision.  Either way only the
    reduced angle is rounded to float64.
    """
    positions = np.asarray(positions)
    if positions.dtype.kind in "iu" and np.abs(positions).max(initial=0) < _EXACT_LIMIT:
        high, middle, rest = _split(freqs)
        whole = positions.astype(np.float64)[..., None]
        turns = np.rint(whole * (high / _TWO_PI_PARTS[0]))
        angles = whole * high - turns * _TWO_PI_PARTS[0]
        angles -= turns * _TWO_PI_PARTS[1]
        angles += whole * middle
        angles += whole * rest
        angles -= turns * _TWO_PI_PARTS[2]
        return angles
    extended = positions.astype(np.longdouble)[..., None] * freqs
    extended -= _TWO_PI * np.rint(extended / _TWO_PI)
    return extended.astype(np.float64)


def phasors(positions, freqs: np.ndarray) -> np.ndarray:
    """Return ``exp(1j * outer(positions, freqs))`` as complex128."""
    angles = reduced_angles(positions, freqs)
    out = np.empty(angles.shape, dtype=np.complex128)
    np.cos(angles, out=out.real)
    np.sin(angles, out=out.imag)
    return out


def block_size(n_positions: int) -> int:
    """Rows per block: about sqrt(n), which minimises ``B + n / B``."""
    return max(1, math.isqrt(n_positions))


def progression_phasors(first: int, step: int, count: int, freqs: np.ndarray) -> np.ndarray:
    """Return ``e(first + step * r)`` for ``r < count``, shape ``(count, m)``.

    The same square-root split once more: ``r = q a + b`` with
    ``q ~ sqrt(count)``, so only about ``2 sqrt(count)`` rows are evaluated
    directly and each result is one multiplication (one rounding) away from
    them.
    """
    inner = block_size(count)
    n_outer = -(-count // inner)
    near = phasors(first + step * np.arange(inner), freqs)
    far = phasors(step * inner * np.arange(n_outer), freqs)
    out = far[:, None, :] * near[None, :, :]
    return out.reshape(n_outer * inner, -1)[:count]


#: Tables with fewer elements than this are filled on one thread.
PARALLEL_MIN_ELEMENTS = 2**20


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


def fill_table(out: np.ndarray, start: int, freqs: np.ndarray, layout: str) -> None:
    """Write ``sin``/``cos`` of ``(start + row) * freqs`` into ``out``.

    ``out`` has shape ``(n, 2 * m)`` with ``m = len(freqs)`` and a contiguous
    last axis (it may be a column slice of a wider array).  ``layout`` is
    ``"interleaved"`` (sin, cos, sin, cos, ...) or ``"split"``
    (all sines, then all cosines).
    """
    n_positions = out.shape[0]
    n_pairs = freqs.shape[0]
    block = block_size(n_positions)
    n_blocks = -(-n_positions // block)
    head = progression_phasors(start, 1, block, freqs)  # e(start + r)
    turns = progression_phasors(0, block, n_blocks, freqs)  # e(j B)

    if layout == "interleaved":
        # A float pair (sin x, cos x) read as one complex number is
        # sin x + i cos x = i * conj(e(x)); conjugation and the factor i
        # commute with the product rule, so multiply conjugates.
        pairs = out.view(np.complex128)
        head_pairs = np.empty_like(head)
        head_pairs.real = head.imag
        head_pairs.imag = head.real
        np.conjugate(turns, out=turns)

        def fill_blocks(blocks: range) -> None:
            for j in blocks:
                rows = slice(j * block, min((j + 1) * block, n_positions))
                np.multiply(head_pairs[: rows.stop - rows.start], turns[j], out=pairs[rows])

    else:

        def fill_blocks(blocks: range) -> None:
            scratch = np.empty_like(head)
            for j in blocks:
                rows = slice(j * block, min((j + 1) * block, n_positions))
                count = rows.stop - rows.start
                np.multiply(head[:count], turns[j], out=scratch[:count])
                out[rows, :n_pairs] = scratch[:count].imag
                out[rows, n_pairs:] = scratch[:count].real

    workers = worker_count(out.size, n_blocks)
    if workers == 1:
        fill_blocks(range(n_blocks))
        return
    bounds = [n_blocks * w // workers for w in range(workers + 1)]
    chunks = [range(lo, hi) for lo, hi in zip(bounds, bounds[1:])]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in [pool.submit(fill_blocks, chunk) for chunk in chunks]:
            done.result()
