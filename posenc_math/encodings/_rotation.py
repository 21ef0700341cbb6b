"""The engine that turns pairs of features: chunked, lean, one rounding.

:func:`~posenc_math.encodings.rope.rope`, :func:`~posenc_math.encodings.rope.apply_rotary`
and the variants of :mod:`~posenc_math.encodings.rope_variants` all end here.
Pair ``(a, b)`` of a row becomes ``(a c1 - b s1, a s2 + b c2)``, where
``c1 = c2`` and ``s1 = s2`` are the cosine and sine of the pair's angle
(scaled), except when a caller hands in cos/sin caches whose two halves
differ (:func:`~posenc_math.encodings.rope.apply_rotary` computes exactly
what ``x * cos + rotate_half(x) * sin`` computes).

How it stays fast and small:

* **One cos/sin row per distinct position row.**  The caller describes its
  positions by an *index*: an integer array that broadcasts to the rows of
  ``x`` (``x.shape[:-1]``) and names, for every row, a row of a cos/sin
  table with ``n_table`` rows.  Heads that share their positions share the
  index entry (a broadcast axis), so their table row is computed once.
  When the table is small next to the input (``TABLE_FRACTION``), it is
  computed once and rows are gathered from it; otherwise each chunk computes
  the rows it needs.
* **Chunks.**  Rows of ``x`` are taken ``chunk_rows`` at a time
  (``CHUNK_PAIRS`` pairs): the float64 scratch of a chunk is a few hundred
  kilobytes, so it stays in cache and nothing of the input's size is
  allocated except the output.
* **float64 arithmetic, one rounding.**  Each chunk of ``x`` is converted to
  float64, turned, and rounded once into the output's dtype (bfloat16 by
  round-to-odd through float32, see
  :func:`~posenc_math.encodings._phase.store_rounded`).

``plan(...).peak`` states the peak memory in advance from the same plan the
engine follows; callers check it against the memory available before they
allocate anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._phase import store_rounded

__all__ = [
    "CHUNK_PAIRS",
    "TABLE_FRACTION",
    "Plan",
    "TrigRows",
    "as_range",
    "plan",
    "rotate_pairs",
    "store_once",
    "table_budget",
]

#: Pairs per chunk: six float64 scratch arrays of this size stay in cache.
CHUNK_PAIRS = 2**14

#: A cos/sin table is computed up front only if it takes at most this
#: fraction of the input's bytes (otherwise every chunk computes its rows).
TABLE_FRACTION = 0.5

#: Bytes that the angle reduction and the conversions of one chunk may use
#: beyond the scratch arrays (``_phase.reduced_angles`` keeps about a dozen
#: arrays of 2**14 float64 values; ``store_rounded`` a few of the chunk's size).
_CHUNK_OVERHEAD = 12 * 8 * 2**14 + 40 * CHUNK_PAIRS

#: ``trig(rows) -> (c1, s1, c2, s2)``: float64 arrays of shape
#: ``(len(rows), n_pairs)`` for the given rows of the table (an integer
#: array, or a slice when they are consecutive); ``c2``/``s2`` may be the
#: same arrays as ``c1``/``s1``.
TrigRows = Callable[[np.ndarray | slice], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Plan:
    """How a rotation will run, and what it allocates."""

    n_rows: int
    n_pairs: int
    chunk_rows: int
    table: bool
    out_bytes: int
    copy_bytes: int
    table_bytes: int
    held_bytes: int

    @property
    def peak(self) -> int:
        """Peak bytes: output, a contiguous copy of ``x`` if needed, the table, what the caller holds, scratch.

        Scratch: four float64 arrays of a chunk (the two members of each
        pair, two products), up to four cos/sin arrays of a chunk (computed
        or gathered), two more for the angles, the chunk's row numbers, and
        the fixed overhead of the angle reduction and the rounding.
        """
        scratch = 10 * 8 * self.chunk_rows * self.n_pairs + 16 * self.chunk_rows + _CHUNK_OVERHEAD
        return self.out_bytes + self.copy_bytes + self.table_bytes + self.held_bytes + scratch


def table_budget(n_bytes: int) -> float:
    """Bytes a cos/sin table may take beside an input (or output) of ``n_bytes``."""
    return TABLE_FRACTION * n_bytes


def plan(
    x: np.ndarray,
    out_dtype: np.dtype,
    n_pairs: int,
    n_table: int | None,
    *,
    held_bytes: int = 0,
    table_row_bytes: int | None = None,
) -> Plan:
    """The plan for turning ``n_pairs`` pairs of every row of ``x``.

    ``n_table`` is the number of distinct cos/sin rows (``None``: one per
    row of ``x``, no table); ``table_row_bytes`` what one table row takes
    (default ``16 n_pairs``: a cosine and a sine per pair); ``held_bytes``
    what the caller holds during the rotation besides (an index array).
    """
    dim = x.shape[-1]
    n_rows = x.size // dim if dim else 0
    chunk_rows = max(1, min(n_rows, CHUNK_PAIRS // max(n_pairs, 1)))
    row_bytes = 16 * n_pairs if table_row_bytes is None else table_row_bytes
    table_bytes = 0 if n_table is None else row_bytes * n_table
    table = n_table is not None and 2 * n_table <= n_rows and table_bytes <= table_budget(x.nbytes)
    return Plan(
        n_rows=n_rows,
        n_pairs=n_pairs,
        chunk_rows=chunk_rows,
        table=table,
        out_bytes=x.size * np.dtype(out_dtype).itemsize,
        copy_bytes=0 if x.flags.c_contiguous else x.nbytes,
        table_bytes=table_bytes if table else 0,
        held_bytes=held_bytes,
    )


def _pair_columns(n_pairs: int, first: int, layout: str) -> tuple[slice, slice]:
    """Columns of the two members of every pair, the pairs starting at column ``first``."""
    if layout == "half":
        return slice(first, first + n_pairs), slice(first + n_pairs, first + 2 * n_pairs)
    return slice(first, first + 2 * n_pairs, 2), slice(first + 1, first + 2 * n_pairs, 2)


def store_once(dest: np.ndarray, values: np.ndarray) -> None:
    """``dest[...] = values`` rounded once (bfloat16 through round-to-odd)."""
    if dest.dtype.kind == "f":
        np.copyto(dest, values, casting="same_kind")  # numpy rounds float64 to float32/float16 once
    else:
        store_rounded(dest, values)


def _table(trig: TrigRows, n_table: int, n_pairs: int, chunk: int):
    """Every row of the cos/sin table, computed ``chunk`` rows at a time."""
    cos1 = np.empty((n_table, n_pairs))
    sin1 = np.empty((n_table, n_pairs))
    cos2, sin2 = cos1, sin1
    for start in range(0, n_table, chunk):
        rows = slice(start, min(start + chunk, n_table))
        c1, s1, c2, s2 = trig(rows)
        cos1[rows] = c1
        sin1[rows] = s1
        if c2 is not c1 or s2 is not s1:
            if cos2 is cos1:  # caches whose two halves differ: a second table
                cos2 = np.empty((n_table, n_pairs))
                sin2 = np.empty((n_table, n_pairs))
            cos2[rows] = c2
            sin2[rows] = s2
    return cos1, sin1, cos2, sin2


def _chunks(n_rows: int, chunk: int, sequence: int) -> list[tuple[int, int]]:
    """Row ranges of at most ``chunk`` rows; within one sequence of ``sequence`` rows when it is longer.

    Rows of one sequence (one batch entry and head) have consecutive cos/sin
    rows, so a chunk that stays inside a sequence reads its rows as a slice
    (a view) instead of gathering them.
    """
    if sequence < chunk or sequence <= 0:
        return [(start, min(start + chunk, n_rows)) for start in range(0, n_rows, chunk)]
    return [
        (start, min(start + chunk, first + sequence))
        for first in range(0, n_rows, sequence)
        for start in range(first, min(first + sequence, n_rows), chunk)
    ]


def as_range(rows: np.ndarray) -> np.ndarray | slice:
    """``rows`` as a slice when they are consecutive (then reading them is a view)."""
    count = rows.shape[0]
    if count and rows[-1] - rows[0] == count - 1 and (count < 3 or bool(np.all(np.diff(rows) == 1))):
        return slice(int(rows[0]), int(rows[0]) + count)
    return rows


def rotate_pairs(
    x: np.ndarray,
    out: np.ndarray,
    *,
    n_pairs: int,
    layout: str,
    trig: TrigRows,
    index: np.ndarray | None = None,
    n_table: int | None = None,
    first: int = 0,
    the_plan: Plan | None = None,
) -> None:
    """Turn ``n_pairs`` pairs of every row of ``x`` into ``out``, starting at column ``first``.

    ``x`` and ``out`` are C-contiguous with the same shape ``(..., dim)``;
    columns outside the pairs are left to the caller.  ``index`` (integers,
    ``n_table`` distinct values) broadcasts to ``x.shape[:-1]`` and names
    each row's row of the cos/sin table, whose rows ``trig`` computes;
    without it, row ``r`` of ``x`` (in C order) is table row ``r``.
    """
    dim = x.shape[-1]
    flat_x = x.reshape(-1, dim)
    flat_out = out.reshape(-1, dim)
    if the_plan is None:
        the_plan = plan(x, out.dtype, n_pairs, None if index is None else n_table)
    chunk = the_plan.chunk_rows
    first_cols, second_cols = _pair_columns(n_pairs, first, layout)
    row_index = None if index is None else np.broadcast_to(index, x.shape[:-1])
    tables = _table(trig, int(n_table or 0), n_pairs, chunk) if the_plan.table else None

    in_place = flat_x.dtype == np.float64
    first_values = np.empty((chunk, n_pairs)) if not in_place else None
    second_values = np.empty((chunk, n_pairs)) if not in_place else None
    work = np.empty((chunk, n_pairs))
    other = np.empty((chunk, n_pairs))
    sequence = x.shape[-2] if x.ndim >= 2 else the_plan.n_rows
    for start, stop in _chunks(the_plan.n_rows, chunk, sequence):
        count = stop - start
        rows = slice(start, stop) if row_index is None else as_range(row_index.flat[start:stop])
        if tables is None:
            c1, s1, c2, s2 = trig(rows)
        else:
            c1, s1 = tables[0][rows], tables[1][rows]
            c2, s2 = (c1, s1) if tables[2] is tables[0] else (tables[2][rows], tables[3][rows])
        a_in = flat_x[start:stop, first_cols]
        b_in = flat_x[start:stop, second_cols]
        if first_values is None or second_values is None:
            a, b = a_in, b_in
        else:
            a, b = first_values[:count], second_values[:count]
            np.copyto(a, a_in, casting="unsafe")  # exact: every input format fits in float64
            np.copyto(b, b_in, casting="unsafe")
        t, u = work[:count], other[:count]
        np.multiply(a, c1, out=t)
        np.multiply(b, s1, out=u)
        t -= u
        store_once(flat_out[start:stop, first_cols], t)
        np.multiply(a, s2, out=t)
        np.multiply(b, c2, out=u)
        t += u
        store_once(flat_out[start:stop, second_cols], t)
