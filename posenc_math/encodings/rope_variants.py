"""RoPE beyond one sequence axis: multimodal (Qwen2-VL), axial 2-D, and xPos.

All three keep RoPE's pair rotation ``(a, b) -> (a cos t - b sin t,
a sin t + b cos t)`` and change only which position turns which pair, or
add a scale:

* :func:`mrope` (Qwen2-VL's multimodal RoPE): each token has three ids
  (temporal, height, width); the pairs are cut into three consecutive
  sections and section ``s`` turns by id ``s``.  A text token has three
  equal ids, and then this is ordinary RoPE.
* :func:`axial_rope` (rotary-embedding-torch's ``get_axial_freqs``): the
  features are cut into one block per axis of an image (or video); block
  ``a`` is ordinary RoPE of the coordinate along axis ``a``.
* :func:`xpos` (Sun et al., "A Length-Extrapolatable Transformer"): RoPE
  whose pair ``j`` is also scaled by ``zeta_j ** (p / scale_base)`` in
  queries and by its inverse in keys, so the score of a query at ``m`` and a
  key at ``n`` carries ``zeta_j ** ((m - n) / scale_base)``, a decay with
  distance.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._validate import (
    as_array,
    check_base,
    check_choice,
    check_int,
    check_memory,
    check_real,
    check_table_fits,
)
from ._phase import _as_double_double, exact_frequencies, reduced_angles
from ._rotation import plan, rotate_pairs, table_budget
from .rope import (
    LAYOUTS,
    _attention_factor,
    _check_angle_range,
    _frequencies_array,
    _positions_array,
    _PositionTable,
    _rope_peak,
    _uses_unique,
    _vectors,
    _what,
    position_rows,
)

__all__ = [
    "axial_positions",
    "axial_rope",
    "mrope",
    "mrope_positions",
    "pixel_frequencies",
    "xpos",
    "xpos_scales",
]


def _checked_vectors(x: ArrayLike) -> tuple[np.ndarray, np.dtype]:
    values, out_dtype = _vectors(x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, dim) with at least 2 axes, got shape {values.shape}")
    return values, out_dtype


def _axis_positions(positions: ArrayLike, n_axes: int | None, rows: tuple[int, ...]) -> np.ndarray:
    """Positions with a leading axis of ids (one per axis), the rest aligned to ``rows`` as :func:`rope`'s.

    Returns a view with the ids on the *last* axis: shape ``rows``-aligned
    (length 1 where shared) ``+ (n_axes,)``.
    """
    positions = _positions_array(positions)
    if positions.ndim < 2 or (n_axes is not None and positions.shape[0] != n_axes):
        wanted = f"({n_axes}, n)" if n_axes is not None else "(n_axes, n)"
        batch = f" or ({n_axes}, batch, n) for x of shape (batch, heads, n, dim)" if len(rows) == 3 else ""
        raise ValueError(
            f"positions must have shape {wanted}{batch}: one row of ids per axis, then one id per row of x; "
            f"got shape {positions.shape}"
        )
    return position_rows(np.moveaxis(positions, 0, -1), rows, "positions[s]", trailing=1)


def _pairs_slice(freqs, start: int, stop: int):
    """Frequencies ``start:stop`` of an array or of a double-double ``(hi, lo)``."""
    if isinstance(freqs, tuple):
        return tuple(part[start:stop] for part in freqs)
    return freqs[start:stop]


def mrope(
    x: ArrayLike,
    positions: ArrayLike,
    sections: Sequence[int],
    *,
    base: float = 10000.0,
    inv_freq: ArrayLike | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    """Qwen2-VL's multimodal rotary embedding (M-RoPE), half layout.

    Every token carries three position ids, temporal, height and width.  The
    ``dim // 2`` pairs (half layout: pair ``j`` is ``(x[j], x[j + dim/2])``)
    are cut into three consecutive sections of ``sections[0]``,
    ``sections[1]`` and ``sections[2]`` pairs; a pair in section ``s`` turns
    by ``positions[s] * w_j``.  This is transformers'
    ``Qwen2VLRotaryEmbedding`` with its ``mrope_section`` (``[16, 24, 24]``
    for Qwen2-VL's head of 128): the angle table of each id is split at the
    section boundaries, section ``s`` taken from id ``s``, then repeated for
    both halves.  For a text token the three ids are equal, and M-RoPE is
    ordinary :func:`rope` at that position.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real query or key vectors, ``dim`` even; float16/bfloat16 input comes
        back in its own dtype (computed in float64, rounded once).
    positions : array_like, shape (3, n)
        Temporal, height and width ids of each token; ``positions[s]`` may
        have any shape that broadcasts to ``x.shape[:-1]``.  Integers or
        finite reals.
    sections : sequence of three ints
        Pairs per id, each >= 0, summing to ``dim // 2``.
    base : float, default 10000.0
        ``rope_theta``; frequencies ``base ** (-2 j / dim)``.  Not used when
        ``inv_freq`` is given.
    inv_freq : array_like, optional
        Shape ``(dim // 2,)``, e.g. the first result of
        :func:`~posenc_math.rope_frequencies`.
    attention_factor : float, default 1.0
        Multiplies cos and sin, as transformers does.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; ``x``'s dtype if that is a float type, else
        float64.

    References
    ----------
    P. Wang et al., "Qwen2-VL: Enhancing Vision-Language Model's Perception
    of the World at Any Resolution", 2024, section 2.1.

    Examples
    --------
    >>> from posenc_math import rope
    >>> x = np.ones((1, 8))
    >>> np.array_equal(mrope(x, [[2], [2], [2]], [2, 1, 1]), rope(x, [2]))  # a text token
    True
    >>> mrope(x, [[0], [1], [0]], [2, 1, 1]).round(4)  # only pair 2 turns, by the height id
    array([[1.    , 1.    , 0.99  , 1.    , 1.    , 1.    , 1.0099, 1.    ]])
    """
    values, out_dtype = _checked_vectors(x)
    dim = values.shape[-1]
    if dim < 2 or dim % 2:
        raise ValueError(f"the last axis of x (dim) must be even and >= 2, got {dim} in shape {values.shape}")
    n_pairs = dim // 2
    sections = _sections(sections, n_pairs)
    ids = _axis_positions(positions, 3, values.shape[:-1])
    freqs = _as_double_double(
        exact_frequencies(n_pairs, check_base(base), n_pairs)
        if inv_freq is None
        else _frequencies_array(inv_freq, n_pairs)
    )
    scale = _attention_factor(attention_factor)
    _check_angle_range(ids, freqs)
    bounds = np.cumsum([0, *sections])
    section_freqs = [_pairs_slice(freqs, bounds[s], bounds[s + 1]) for s in range(3)]

    def angles_of(rows: np.ndarray) -> np.ndarray:
        angles = np.empty((rows.shape[0], n_pairs))
        for s in range(3):
            angles[:, bounds[s] : bounds[s + 1]] = reduced_angles(rows[:, s], section_freqs[s])
        return angles

    return _rotate_rows(values, out_dtype, [(ids, angles_of, 0)], n_pairs=n_pairs, layout="half", scale=scale)


class _IdRows:
    """Rows of ids (one per axis) that a rotation reads, and their cos/sin rows."""

    def __init__(
        self,
        ids: np.ndarray,
        rows_shape: tuple[int, ...],
        angles_of: Callable[[np.ndarray], np.ndarray],
        scale: float,
    ) -> None:
        lead = ids.shape[:-1]
        self.ids = np.ascontiguousarray(ids).reshape(-1, ids.shape[-1])
        self.index = None if lead == rows_shape else np.arange(self.ids.shape[0]).reshape(lead)
        self.angles_of = angles_of
        self.scale = scale

    def trig(self, table_rows: np.ndarray | slice) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        angles = self.angles_of(self.ids[table_rows])
        cos = np.cos(angles)
        sin = np.sin(angles, out=angles)
        if self.scale != 1.0:
            cos *= self.scale
            sin *= self.scale
        return cos, sin, cos, sin


#: A block of a rotation: ids (rows aligned as :func:`rope`'s positions,
#: ids on the last axis), the angles of rows of ids, and the first column.
_Block = tuple[np.ndarray, Callable[[np.ndarray], np.ndarray], int]


def _rotate_rows(
    values: np.ndarray, out_dtype: np.dtype, blocks: list[_Block], *, n_pairs: int, layout: str, scale: float
) -> np.ndarray:
    """Turn ``n_pairs`` pairs of each block of ``values`` by the angles of its rows of ids (lean, chunked).

    Columns after the last block pass through.
    """
    rows_shape = values.shape[:-1]
    ids = blocks[0][0]
    n_ids = math.prod(ids.shape[:-1])
    direct = ids.shape[:-1] == rows_shape
    held = (0 if direct else 8 * n_ids) + 8 * ids.size  # the index, the ids made contiguous
    the_plan = plan(values, out_dtype, n_pairs, None if direct else n_ids, held_bytes=held)
    check_memory(the_plan.peak, _what(values))
    values = np.ascontiguousarray(values)
    out = np.empty(values.shape, dtype=out_dtype)
    covered = max(first for _, _, first in blocks) + 2 * n_pairs
    if covered < values.shape[-1]:
        np.copyto(out[..., covered:], values[..., covered:], casting="unsafe")
    for block_ids, angles_of, first in blocks:
        table = _IdRows(block_ids, rows_shape, angles_of, scale)
        rotate_pairs(
            values,
            out,
            n_pairs=n_pairs,
            layout=layout,
            trig=table.trig,
            index=table.index,
            n_table=n_ids,
            first=first,
            the_plan=the_plan,
        )
    return out


#: One segment of a multimodal sequence: a text run (its length) or a vision grid (t, h, w).
Segment = int | Sequence[int]


def _parse_segments(segments: object, name: str) -> tuple[list[tuple[int, ...]], int]:
    """Validate a sequence of segments; return them as tuples (``(n,)`` or ``(t, h, w)``) and the token count."""
    if isinstance(segments, (str, bytes, numbers.Integral)) or not hasattr(segments, "__iter__"):
        raise TypeError(f"{name} must be a sequence of text lengths and (t, h, w) grids, got {segments!r}")
    parsed: list[tuple[int, ...]] = []
    total = 0
    for index, segment in enumerate(segments):
        where = f"{name}[{index}]"
        if isinstance(segment, numbers.Integral) and not isinstance(segment, (bool, np.bool_)):
            parsed.append((check_int(where, segment, minimum=1),))
        elif isinstance(segment, (str, bytes)) or np.ndim(segment) != 1 or len(segment) != 3:
            kind = "a bool " if isinstance(segment, (bool, np.bool_)) else ""
            raise TypeError(
                f"{where} must be a text length (int) or a (t, h, w) grid of three ints, got {kind}{segment!r}"
            )
        else:
            parsed.append(tuple(check_int(f"{where}[{axis}]", size, minimum=1) for axis, size in enumerate(segment)))
        total += math.prod(parsed[-1])
    if not parsed:
        raise ValueError(f"{name} must hold at least one text run or grid")
    return parsed, total


def _fill_positions(parsed: list[tuple[int, ...]], out: np.ndarray) -> None:
    """Write the ids of ``parsed`` segments into ``out`` of shape ``(3, n_tokens)``."""
    counter = 0
    start = 0
    for segment in parsed:
        if len(segment) == 1:
            (length,) = segment
            out[:, start : start + length] = np.arange(counter, counter + length, dtype=np.int64)
            counter += length
            start += length
            continue
        t, h, w = segment
        cells = out[:, start : start + t * h * w].reshape(3, t, h, w)
        cells[0] = np.arange(t, dtype=np.int64)[:, None, None] + counter
        cells[1] = np.arange(h, dtype=np.int64)[None, :, None] + counter
        cells[2] = np.arange(w, dtype=np.int64)[None, None, :] + counter
        counter += max(h, w)
        start += t * h * w


def mrope_positions(
    segments: Sequence[Segment] | Sequence[Sequence[Segment]], *, attention_mask: ArrayLike | None = None
) -> np.ndarray:
    """Qwen2-VL's three position ids for a sequence of text runs and image/video grids (or a padded batch).

    Following transformers' ``Qwen2VLModel.get_rope_index``: a run of ``n``
    text tokens gets ids ``c, c + 1, ..., c + n - 1`` on all three axes and
    moves the counter ``c`` on by ``n``; a vision grid of ``t x h x w``
    tokens (the grid after the vision encoder's spatial merge) gets the ids
    ``(c + i, c + j, c + k)`` of its cells in row-major order, and moves the
    counter on by ``max(h, w)``.

    A batch: give ``attention_mask`` of shape ``(batch, length)`` (1 for a
    token, 0 for padding, on either side) and one sequence of segments per
    row.  Each sequence's ids go, in order, to the places where its row of
    the mask is 1; padding gets 0, as transformers 5.x writes (4.x wrote 1;
    attention never reads them).  The next text token of sequence ``b``
    continues at ``positions[:, b].max() + 1``.

    Parameters
    ----------
    segments : sequence
        Each item an int >= 1 (a run of text tokens) or a triple of ints >= 1
        ``(t, h, w)`` (one image, ``t = 1``, or a video); with
        ``attention_mask``, one such sequence per row of the mask.
    attention_mask : array_like of 0/1 or bool, shape (batch, length), optional
        Row ``b`` must have as many ones as sequence ``b`` has tokens.

    Returns
    -------
    numpy.ndarray
        Shape ``(3, n_tokens)`` (or ``(3, batch, length)`` with
        ``attention_mask``), int64: temporal, height and width ids, for
        :func:`mrope`.

    Examples
    --------
    >>> mrope_positions([2, (1, 2, 3), 2])
    array([[0, 1, 2, 2, 2, 2, 2, 2, 5, 6],
           [0, 1, 2, 2, 2, 3, 3, 3, 5, 6],
           [0, 1, 2, 3, 4, 2, 3, 4, 5, 6]])
    >>> mask = [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]  # left padding
    >>> mrope_positions([[1, (1, 1, 2)], [5]], attention_mask=mask)[1]  # the height ids
    array([[0, 0, 0, 1, 1],
           [0, 1, 2, 3, 4]])
    """
    if attention_mask is None:
        parsed, total = _parse_segments(segments, "segments")
        check_table_fits((3, total), 8, f"segments with {total} tokens")
        out = np.empty((3, total), dtype=np.int64)
        _fill_positions(parsed, out)
        return out
    mask = as_array("attention_mask", attention_mask)
    if mask.ndim != 2 or not (mask.dtype == np.bool_ or mask.dtype.kind in "iu"):
        raise ValueError(
            f"attention_mask must be a (batch, length) array of 0 and 1 (or bool), got dtype {mask.dtype}, "
            f"shape {mask.shape}"
        )
    check_table_fits((3, *mask.shape), 8, f"attention_mask of shape {mask.shape}", extra_bytes=48 * mask.shape[1])
    if mask.size and (mask.min() < 0 or mask.max() > 1):
        raise ValueError("attention_mask must hold only 0 (padding) and 1 (a token)")
    if isinstance(segments, (str, bytes)) or not hasattr(segments, "__len__") or len(segments) != mask.shape[0]:
        raise ValueError(
            f"with attention_mask, segments must hold one sequence of segments per row of the mask ({mask.shape[0]})"
        )
    batch, length = mask.shape
    out = np.zeros((3, batch, length), dtype=np.int64)
    for row, sequence in enumerate(segments):
        parsed, total = _parse_segments(sequence, f"segments[{row}]")
        places = np.flatnonzero(mask[row])
        if total != places.size:
            raise ValueError(
                f"segments[{row}] has {total} tokens but row {row} of attention_mask has {places.size} ones"
            )
        ids = np.empty((3, total), dtype=np.int64)
        _fill_positions(parsed, ids)
        out[:, row, places] = ids
    return out


def _sections(sections, n_pairs: int) -> tuple[int, int, int]:
    if isinstance(sections, (str, bytes)) or np.ndim(sections) != 1 or len(sections) != 3:
        raise TypeError(f"sections must be three integers (temporal, height, width pairs), got {sections!r}")
    checked = tuple(check_int(f"sections[{i}]", value, minimum=0) for i, value in enumerate(sections))
    if sum(checked) != n_pairs:
        raise ValueError(
            f"sections must sum to dim // 2 = {n_pairs} (one section per pair), got {list(checked)} "
            f"summing to {sum(checked)}"
        )
    return checked  # type: ignore[return-value]


def axial_positions(shape: Sequence[int], *, normalized: bool = False) -> np.ndarray:
    """The coordinates of every cell of a grid, one row per axis.

    Cells are listed in row-major order (the last axis varies fastest), as
    a flattened image or video is.  With ``normalized=True`` the coordinate
    along an axis of ``size`` cells is ``linspace(-1, 1, size)``, as
    rotary-embedding-torch's ``get_axial_freqs`` uses for
    ``freqs_for="pixel"``; otherwise it is ``0, 1, ..., size - 1``.

    Parameters
    ----------
    shape : sequence of int
        Cells along each axis, each >= 1 (e.g. ``(height, width)``).
    normalized : bool, default False

    Returns
    -------
    numpy.ndarray
        Shape ``(len(shape), prod(shape))``: int64, or float64 when
        normalized.  Pass it to :func:`axial_rope` (or, for three axes, to
        :func:`mrope`).

    Examples
    --------
    >>> axial_positions((2, 3))
    array([[0, 0, 0, 1, 1, 1],
           [0, 1, 2, 0, 1, 2]])
    >>> axial_positions((2, 3), normalized=True)[1]
    array([-1.,  0.,  1., -1.,  0.,  1.])
    """
    if isinstance(shape, (numbers.Integral, str, bytes)) or np.ndim(shape) != 1:
        raise TypeError(f"shape must be a sequence of axis sizes, e.g. (height, width), got {shape!r}")
    sizes = [check_int(f"shape[{i}]", size, minimum=1) for i, size in enumerate(shape)]
    if not sizes:
        raise ValueError("shape must name at least one axis")
    if not isinstance(normalized, (bool, np.bool_)):
        raise TypeError(f"normalized must be True or False, got {normalized!r}")
    check_table_fits((len(sizes), int(np.prod(sizes, dtype=object))), 8, f"shape={tuple(sizes)}")
    axes: list[np.ndarray] = (
        [np.linspace(-1.0, 1.0, size) for size in sizes]
        if normalized
        else [np.arange(size, dtype=np.int64) for size in sizes]
    )
    grids = np.meshgrid(*axes, indexing="ij")
    return np.stack([grid.reshape(-1) for grid in grids])


def pixel_frequencies(dim: int, *, max_freq: float = 10.0) -> np.ndarray:
    """rotary-embedding-torch's frequencies for pixel coordinates in [-1, 1].

    ``w_j = pi * linspace(1, max_freq / 2, dim // 2)[j]``
    (``RotaryEmbedding(dim, freqs_for="pixel", max_freq=...)``): evenly
    spaced, from half a turn to ``max_freq / 4`` turns per unit.

    Parameters
    ----------
    dim : int
        Rotated features per axis, even, >= 2.
    max_freq : float, default 10.0
        > 0; rotary-embedding-torch suggests the image size in pixels.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, float64.

    Examples
    --------
    >>> pixel_frequencies(8, max_freq=8.0) / np.pi
    array([1., 2., 3., 4.])
    """
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotated features come in pairs), got {dim}")
    max_freq = check_real("max_freq", max_freq)
    if max_freq <= 0:
        raise ValueError(f"max_freq must be > 0, got {max_freq!r}")
    check_table_fits((dim // 2,), 16, f"dim={dim}")
    return np.linspace(1.0, max_freq / 2, dim // 2) * np.pi


def axial_rope(
    x: ArrayLike,
    positions: ArrayLike,
    *,
    base: float = 10000.0,
    inv_freq: ArrayLike | None = None,
    layout: str = "interleaved",
) -> np.ndarray:
    """Axial rotary embedding of a grid (an image, a video), as rotary-embedding-torch builds it.

    With ``A`` axes, the features are cut into consecutive blocks of
    ``axis_dim`` features, one block per axis; block ``a`` is ordinary RoPE of
    the coordinate ``positions[a]`` with the same frequencies in every block.
    Features after the ``A * axis_dim`` rotated ones pass through.  This is
    ``apply_rotary_emb(rotary.get_axial_freqs(*shape), x)`` of
    rotary-embedding-torch, whose pairs are interleaved (``(2j, 2j + 1)``).
    Two tokens' scores then depend on their offset along each axis, not on
    where they are.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real vectors, one per cell (row-major), float16/bfloat16 kept.
    positions : array_like, shape (A, n)
        Coordinates of each cell, e.g. :func:`axial_positions`;
        ``positions[a]`` may have any shape that broadcasts to
        ``x.shape[:-1]``.
    base : float, default 10000.0
        Frequencies ``base ** (-2 j / axis_dim)`` with ``axis_dim = dim //
        A`` (which must then be even), rotary-embedding-torch's
        ``freqs_for="lang"``.  Not used when ``inv_freq`` is given.
    inv_freq : array_like, shape (m,), optional
        The frequencies of one block (e.g. :func:`pixel_frequencies`);
        ``axis_dim = 2 m`` and ``A * axis_dim <= dim``.
    layout : {"interleaved", "half"}
        Pairing within each block.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; its dtype if a float type, else float64.

    Examples
    --------
    >>> x = np.ones((6, 4))
    >>> grid = axial_positions((2, 3))  # a 2 x 3 image
    >>> axial_rope(x, grid)[4].round(4)  # row 1, column 1: each block turned by 1 radian
    array([-0.3012,  1.3818, -0.3012,  1.3818])
    """
    values, out_dtype = _checked_vectors(x)
    dim = values.shape[-1]
    ids = _axis_positions(positions, None, values.shape[:-1])
    n_axes = ids.shape[-1]
    layout = check_choice("layout", layout, LAYOUTS)
    if inv_freq is None:
        axis_dim = dim // n_axes
        if axis_dim < 2 or axis_dim % 2 or axis_dim * n_axes != dim:
            raise ValueError(
                f"dim (the last axis of x, {dim}) must split into {n_axes} blocks of an even number of features "
                "(one per axis); or give inv_freq to rotate fewer features"
            )
        freqs = exact_frequencies(axis_dim // 2, check_base(base), axis_dim // 2)
    else:
        given = _frequencies_array(inv_freq, None)
        freqs = _as_double_double(given)
        axis_dim = 2 * given.shape[0]
        if axis_dim * n_axes > dim:
            raise ValueError(
                f"inv_freq has {given.shape[0]} frequencies, so {n_axes} axes rotate {axis_dim * n_axes} features; "
                f"x has only dim = {dim}"
            )
    _check_angle_range(ids, freqs)

    def angles_of(rows: np.ndarray) -> np.ndarray:
        return reduced_angles(rows[:, 0], freqs)

    blocks: list[_Block] = [(ids[..., a : a + 1], angles_of, a * axis_dim) for a in range(n_axes)]
    return _rotate_rows(values, out_dtype, blocks, n_pairs=axis_dim // 2, layout=layout, scale=1.0)


def xpos_scales(dim: int, positions: ArrayLike, *, scale_base: float = 512.0, center: float = 0.0) -> np.ndarray:
    """xPos's per-pair scale ``zeta_j ** ((p - center) / scale_base)``.

    ``zeta_j = (2 j + 0.4 dim) / (1.4 dim)`` (rotary-embedding-torch's
    ``(arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)``; ``gamma = 0.4`` in
    Sun et al.), from 2/7 for the fastest pair towards 1 for the slowest:
    fast pairs decay most.

    Parameters
    ----------
    dim : int
        Rotated features, even, >= 2.
    positions : array_like
        Integer or finite real positions, at least one axis.
    scale_base : float, default 512.0
        > 0; larger means slower decay.
    center : float, default 0.0
        Subtracted from the positions; rotary-embedding-torch's
        ``rotate_queries_and_keys`` uses ``n // 2`` for ``n`` positions.  It
        cancels in every query-key score.

    Returns
    -------
    numpy.ndarray
        Shape ``positions.shape + (dim // 2,)``, float64.

    Examples
    --------
    >>> xpos_scales(4, [0, 512]).round(4)
    array([[1.    , 1.    ],
           [0.2857, 0.6429]])
    """
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotated features come in pairs), got {dim}")
    positions = _positions_array(positions)
    scale_base = check_real("scale_base", scale_base)
    if scale_base <= 0:
        raise ValueError(f"scale_base must be > 0, got {scale_base!r}")
    center = check_real("center", center)
    # the result, and the positions' powers beside it
    check_table_fits(
        (*positions.shape, dim // 2),
        8,
        f"positions of shape {positions.shape} and dim={dim}",
        extra_bytes=16 * positions.size + 24 * dim,
    )
    zeta = (np.arange(0, dim, 2, dtype=np.float64) + 0.4 * dim) / (1.4 * dim)
    power = (positions.astype(np.float64) - center) / scale_base
    return zeta ** power[..., None]


def xpos(
    x: ArrayLike,
    positions: ArrayLike,
    *,
    key: bool = False,
    base: float = 10000.0,
    scale_base: float = 512.0,
    center: float = 0.0,
    inv_freq: ArrayLike | None = None,
    layout: str = "interleaved",
) -> np.ndarray:
    """xPos: RoPE with a per-pair scale that decays with distance.

    A query at position ``p`` becomes ``rope(x, p)`` with pair ``j`` times
    ``zeta_j ** ((p - center) / scale_base)`` (:func:`xpos_scales`); a key
    (``key=True``) the same with the inverse scale.  A query at ``m`` and a
    key at ``n`` then score pair ``j`` with the factor ``zeta_j ** ((m - n)
    / scale_base)``: still a function of the offset only.  Conventions of
    rotary-embedding-torch (``RotaryEmbedding(dim, use_xpos=True)``):
    interleaved pairs, ``scale_base`` 512, and ``rotate_queries_and_keys``
    centers at ``n // 2``.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real vectors, ``dim`` even; float16/bfloat16 kept.
    positions : array_like
        One position per row of ``x`` (broadcasting to ``x.shape[:-1]``).
    key : bool, default False
        Scale as a key (``zeta ** -power``) instead of a query.
    base : float, default 10000.0
        Frequencies ``base ** (-2 j / dim)`` unless ``inv_freq`` is given.
    scale_base : float, default 512.0
    center : float, default 0.0
    inv_freq : array_like, shape (dim // 2,), optional
    layout : {"interleaved", "half"}

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; its dtype if a float type, else float64.

    References
    ----------
    Y. Sun et al., "A Length-Extrapolatable Transformer", ACL 2023.

    Examples
    --------
    >>> q = xpos(np.ones((1, 4)), [512])
    >>> k = xpos(np.ones((1, 4)), [512], key=True)
    >>> float((q * k).sum())  # same position: the scales cancel
    4.0
    """
    values, out_dtype = _checked_vectors(x)
    dim = values.shape[-1]
    if dim < 2 or dim % 2:
        raise ValueError(f"the last axis of x (dim) must be even and >= 2, got {dim} in shape {values.shape}")
    if not isinstance(key, (bool, np.bool_)):
        raise TypeError(f"key must be True (scale as a key) or False (as a query), got {key!r}")
    layout = check_choice("layout", layout, LAYOUTS)
    rows = position_rows(_positions_array(positions), values.shape[:-1])
    n_pairs = dim // 2
    freqs = _as_double_double(
        exact_frequencies(n_pairs, check_base(base), n_pairs)
        if inv_freq is None
        else _frequencies_array(inv_freq, n_pairs)
    )
    xpos_scales(dim, np.zeros(1), scale_base=scale_base, center=center)  # checks scale_base and center
    scale_base, center = float(scale_base), float(center)
    _check_angle_range(rows, freqs)
    check_memory(_rope_peak(values, out_dtype, n_pairs, rows), f"xpos of {_what(values)}")
    unique = _uses_unique(rows, table_budget(values.nbytes))

    def row_scales(row_positions: np.ndarray) -> np.ndarray:
        scales = xpos_scales(dim, row_positions, scale_base=scale_base, center=center)
        return 1.0 / scales if key else scales

    values = np.ascontiguousarray(values)
    out = np.empty(values.shape, dtype=out_dtype)
    table = _PositionTable(rows, freqs, 1.0, values.shape[:-1], unique=unique, row_scales=row_scales)
    rotate_pairs(
        values,
        out,
        n_pairs=n_pairs,
        layout=layout,
        trig=table.trig,
        index=table.index,
        n_table=table.n_table,
        the_plan=plan(
            values, out_dtype, n_pairs, None if table.index is None else table.n_table, held_bytes=table.held_bytes
        ),
    )
    return out
