"""Rotary position embeddings (RoPE) and the frequency rules that stretch them.

RoPE (Su et al., RoFormer) rotates each pair ``(x1, x2)`` of a query or key
vector at position ``p`` by the angle ``p w``:
``(x1, x2) -> (x1 cos pw - x2 sin pw, x1 sin pw + x2 cos pw)``.  Two codebases
pair the coordinates differently:

* ``layout="half"``: pair ``j`` is ``(x[j], x[j + dim/2])`` (GPT-NeoX,
  Llama, Hugging Face's ``rotate_half``);
* ``layout="interleaved"``: pair ``j`` is ``(x[2j], x[2j + 1])`` (GPT-J's
  ``rotate_every_two``, RoFormer, the complex-number view of Meta's Llama
  reference code).

Pair ``j`` turns with ``w_j = base ** (-2 j / dim)`` unless a rule of
:func:`~posenc_math.encodings.rope_scaling.rope_frequencies` (position interpolation, NTK-aware, dynamic NTK,
YaRN, Llama 3) changes the frequencies.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .._validate import (
    MAX_POSITION,
    as_array,
    check_base,
    check_choice,
    check_float_dtype,
    check_int,
    check_memory,
    check_real,
    check_table_fits,
)
from ._phase import MAX_ANGLE, DoubleDouble, _as_double_double, reduced_angles
from ._rotation import CHUNK_PAIRS, as_range, plan, rotate_pairs, store_once, table_budget
from .rope_scaling import _angle_frequencies

__all__ = ["LAYOUTS", "apply_rotary", "interleaved_to_half", "rope", "rope_cos_sin"]

#: The two ways codebases pair a rotary vector's features.
LAYOUTS = ("half", "interleaved")


def _positions_array(positions: ArrayLike, name: str = "positions") -> np.ndarray:
    positions = as_array(name, positions)
    if positions.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {positions.dtype} (its imaginary part would be lost)")
    if positions.dtype == np.bool_:
        raise TypeError(f"{name} must be integers or real numbers, got booleans (dtype bool)")
    if positions.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be integers or real numbers, got dtype {positions.dtype}")
    if positions.dtype.kind == "f" and not np.isfinite(_squeeze_shared(positions)).all():
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    if positions.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (one position per row of x), got a scalar")
    return positions


def _is_ml_float(dtype: np.dtype) -> bool:
    """Whether ``dtype`` is one of ml_dtypes' floating types (bfloat16, float8_*)."""
    if dtype.kind != "V" or dtype.names is not None:
        return False
    try:
        import ml_dtypes
    except ImportError:  # nobody could have made such an array
        return False
    try:
        ml_dtypes.finfo(dtype)
    except (ValueError, TypeError, KeyError):
        return False
    return True


def _vectors(x: ArrayLike, name: str = "x") -> tuple[np.ndarray, np.dtype]:
    """Validate real input without copying it; return it and the dtype of the result.

    float16/float32/float64 and ml_dtypes floats (bfloat16, ...) come back in
    their own dtype; integers come back as float64.
    """
    array = as_array(name, x)
    if array.dtype.kind == "c":
        raise TypeError(
            f"{name} must be real, got complex dtype {array.dtype}: its imaginary part would be lost; "
            "rotate the real and imaginary parts separately"
        )
    if _is_ml_float(array.dtype):
        return array, array.dtype
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real array (integer, float or an ml_dtypes float), got dtype {array.dtype}")
    out_dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float64)
    return array, out_dtype


def _frequencies_array(inv_freq: ArrayLike, n_pairs: int | None, name: str = "inv_freq") -> np.ndarray:
    """Validate given frequencies (``n_pairs`` of them, or any number >= 1); return them as longdouble."""
    if (
        isinstance(inv_freq, tuple)
        and len(inv_freq) == 2
        and np.ndim(inv_freq[0]) == 1
        and isinstance(inv_freq[1], (float, int))
    ):
        raise TypeError(
            f"{name} got the (inv_freq, attention_factor) tuple that rope_frequencies returns; "
            f"pass its first element as {name} and its second as attention_factor"
        )
    freqs = as_array(name, inv_freq)
    if freqs.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {freqs.dtype}")
    if freqs.dtype == np.bool_ or freqs.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be real, got dtype {freqs.dtype}")
    if n_pairs is None:
        if freqs.ndim != 1 or freqs.shape[0] == 0:
            raise ValueError(f"{name} must be a 1-D array of at least one frequency (one per pair), got {freqs.shape}")
    elif freqs.shape != (n_pairs,):
        raise ValueError(f"{name} must have shape ({n_pairs},) (one frequency per rotated pair), got {freqs.shape}")
    if not np.isfinite(freqs).all():
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    return freqs.astype(np.longdouble)


def _attention_factor(value: object) -> float:
    value = check_real("attention_factor", value)
    if value < 0:
        raise ValueError(f"attention_factor must be >= 0 (it multiplies cos and sin), got {value!r}")
    return value


def position_rows(
    positions: np.ndarray, rows: tuple[int, ...], name: str = "positions", *, trailing: int = 0
) -> np.ndarray:
    """Positions (or cos/sin caches) with one leading axis per axis of ``rows = x.shape[:-1]``.

    The accepted leading shapes (the array's shape without its last
    ``trailing`` axes), with ``x`` of shape ``(..., n, dim)``:

    * ``(n,)``: the same positions for every sequence and head;
    * ``(batch, n)`` when ``x`` is ``(batch, heads, n, dim)``: transformers'
      ``position_ids``, sequence ``b``'s positions for every head of sequence
      ``b`` (``apply_rotary_pos_emb`` with ``unsqueeze_dim=1``);
    * ``x.shape[:-1]`` itself, with length 1 on axes that share positions
      (``(batch, 1, n)``), aligned axis by axis.

    Any other shape is refused with a message saying how to pass it;
    positions are never matched against the heads axis by numpy's
    right-aligned broadcasting.  Broadcast axes (stride 0) come back with
    length 1, so what is shared is computed once.
    """
    lead = positions.shape[: positions.ndim - trailing]
    n = rows[-1]
    expanded: np.ndarray | None = None
    if len(lead) == len(rows):
        expanded = positions
    elif len(lead) == 1:
        expanded = np.expand_dims(positions, tuple(range(len(rows) - 1)))
    elif len(lead) == 2 and len(rows) == 3:
        expanded = np.expand_dims(positions, 1)
    if expanded is None or any(p not in (1, r) for p, r in zip(expanded.shape, rows, strict=False)):
        what = f"{name} of shape {positions.shape}" + (f" (leading shape {lead})" if trailing else "")
        how = f"(n,) = ({n},) for every sequence"
        if len(rows) == 3:
            how += f"; (batch, n) = ({rows[0]}, {n}) as transformers' position_ids, each sequence's for all its heads"
        if len(rows) > 1:
            shared = (rows[0], *([1] * (len(rows) - 2)), n)
            how += f"; or {rows} with 1 on the axes that share them, e.g. {shared}"
        raise ValueError(
            f"{what} do not fit x.shape[:-1] = {rows} (one per row of x): pass shape {how}. "
            "They are never broadcast against the heads axis"
        )
    return _squeeze_shared(expanded, trailing)


def _squeeze_shared(array: np.ndarray, trailing: int = 0) -> np.ndarray:
    """``array`` with every broadcast leading axis (stride 0, as ``numpy.broadcast_to`` makes) cut to length 1."""
    index = tuple(
        slice(0, 1) if stride == 0 and extent > 1 and axis < array.ndim - trailing else slice(None)
        for axis, (stride, extent) in enumerate(zip(array.strides, array.shape, strict=True))
    )
    return array[index]


def _check_angle_range(positions: np.ndarray, freqs: DoubleDouble, name: str = "positions") -> None:
    """Refuse positions that :func:`~posenc_math.encodings._phase.reduced_angles` would refuse, before any work."""
    positions = _squeeze_shared(positions)  # the same values, each once per broadcast axis
    if positions.size == 0:
        return
    largest = max(abs(float(positions.max())), abs(float(positions.min())))
    if largest > MAX_POSITION:
        raise ValueError(f"{name} must satisfy |{name}| <= 2**53, got a value of magnitude {largest:.6g}")
    fastest = float(np.max(np.abs(freqs[0]), initial=0.0))
    if largest * fastest > MAX_ANGLE:
        raise ValueError(
            f"{name} times the frequencies exceed 2**62 radians, beyond the range where angles are computed "
            f"accurately (largest |{name}| = {largest:.6g}, largest frequency {fastest:.6g})"
        )


def _rotary_width(rotary_dim: object, dim: int, name: str = "rotary_dim") -> int:
    if rotary_dim is None:
        return dim
    width = check_int(name, rotary_dim, minimum=2)
    if width % 2:
        raise ValueError(f"{name} must be even (rotated features come in pairs), got {width}")
    if width > dim:
        raise ValueError(f"{name} must be <= dim, the last axis of x ({dim}), got {width}")
    return width


#: Bytes per element of :func:`numpy.unique` with ``return_inverse`` (its
#: sorted copy, permutation, mask, cumulative sums and the inverse).
_UNIQUE_BYTES = 48


def _uses_unique(rows: np.ndarray, budget: float) -> bool:
    """Whether to look for repeated positions: only when that costs little next to the input."""
    return rows.size > 1 and _UNIQUE_BYTES * rows.size <= budget


class _PositionTable:
    """The distinct positions of a rotation, and how each row of ``x`` finds its cos/sin row."""

    def __init__(
        self,
        rows: np.ndarray,
        freqs: DoubleDouble,
        scale: float,
        rows_shape: tuple[int, ...],
        *,
        unique: bool,
        row_scales: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self.freqs = freqs
        self.scale = scale
        self.row_scales = row_scales
        self.values: np.ndarray = rows
        self.index: np.ndarray | None = None
        self.n_table = int(rows.size)
        self.held_bytes = 0
        if unique:
            values, inverse = np.unique(rows, return_inverse=True)
            self.values = values
            self.index = inverse.reshape(rows.shape)
            self.n_table = int(values.size)
            self.held_bytes = values.nbytes + inverse.nbytes
        elif rows.shape != rows_shape:  # shared positions, too many to sort: one table row per entry
            self.index = np.arange(rows.size).reshape(rows.shape)
            self.held_bytes = self.index.nbytes

    def trig(self, table_rows: np.ndarray | slice) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """cos and sin (times the attention factor) of the given table rows."""
        positions = self.values[table_rows] if self.values.ndim == 1 else self.values.flat[table_rows]
        angles = reduced_angles(positions, self.freqs)
        cos = np.cos(angles)
        sin = np.sin(angles, out=angles)
        if self.scale != 1.0:
            cos *= self.scale
            sin *= self.scale
        if self.row_scales is not None:  # xPos: a scale per position and pair
            scales = self.row_scales(positions)
            cos *= scales
            sin *= scales
        return cos, sin, cos, sin


def _rope_peak(values: np.ndarray, out_dtype: np.dtype, n_pairs: int, rows: np.ndarray) -> int:
    """Peak bytes of :func:`rope` (an upper bound): output, scratch, and the positions' table."""
    budget = table_budget(values.nbytes)
    plain = plan(values, out_dtype, n_pairs, None)
    if _uses_unique(rows, budget):
        # np.unique's temporaries; then its values and inverse, and a table of at most `budget` bytes
        table = min(16 * n_pairs * rows.size, int(budget))
        return plain.peak + max(_UNIQUE_BYTES * rows.size, 16 * rows.size + table)
    if rows.shape == values.shape[:-1]:
        return plain.peak
    return plan(values, out_dtype, n_pairs, rows.size, held_bytes=8 * rows.size).peak


def _what(x: np.ndarray) -> str:
    return f"x of shape {x.shape} and dtype {x.dtype.name}"


def rope(
    x: ArrayLike,
    positions: ArrayLike,
    *,
    base: float = 10000.0,
    layout: str = "half",
    inv_freq: ArrayLike | None = None,
    rotary_dim: int | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    """Rotate query or key vectors by their positions (rotary embedding).

    Pair ``(x1, x2)`` at position ``p`` with frequency ``w`` becomes
    ``(x1 cos pw - x2 sin pw, x1 sin pw + x2 cos pw)``, times
    ``attention_factor``.  The angle ``p w`` is reduced modulo 2 pi in
    extended precision before the float64 sine and cosine (see
    ``posenc_math.encodings._phase``), so large positions lose no accuracy
    to the product.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real vectors, one per position along the second-to-last axis, with
        any leading (batch, head) axes.  float64, float32, float16, an
        ml_dtypes float (bfloat16) or integers; complex input is refused.
    positions : array_like
        Position of each row, in one of these shapes (``x`` of shape
        ``(..., n, dim)``):

        * ``(n,)``: the same positions for every sequence and head;
        * ``(batch, n)`` for ``x`` of shape ``(batch, heads, n, dim)``:
          transformers' ``position_ids``, each sequence's positions for all
          of its heads;
        * ``x.shape[:-1]`` with length 1 on the axes that share positions,
          e.g. ``(batch, 1, n)``, aligned axis by axis.

        Any other shape is refused, saying how to pass it (positions are
        never matched against the heads axis).  Integers or finite reals
        (position interpolation gives fractional positions); negative
        positions are allowed (a rotation by a negative angle) although
        models start at 0.
    base : float, default 10000.0
        ``rope_theta``; frequencies ``base ** (-2 j / rotary_dim)``.  Not
        used when ``inv_freq`` is given.
    layout : {"half", "interleaved"}
        ``"half"`` pairs ``(j, j + rotary_dim/2)`` (GPT-NeoX, Llama);
        ``"interleaved"`` pairs ``(2j, 2j + 1)`` (GPT-J, RoFormer).
    inv_freq : array_like, optional
        Shape ``(rotary_dim // 2,)``: the frequency of each pair, e.g. the
        first result of :func:`~posenc_math.rope_frequencies`.  Finite and real.
    rotary_dim : int, optional
        Turn only the first ``rotary_dim`` features (even, ``<= dim``) and
        pass the others through unchanged, as GPT-NeoX, Phi and Phi-3 do with
        a partial rotary factor (transformers' ``apply_rotary_pos_emb``
        slices ``q[..., :rotary_dim]``).  Default: all of ``dim``, which must
        then be even.
    attention_factor : float, default 1.0
        Multiplies cos and sin, as transformers does with the second result
        of :func:`~posenc_math.rope_frequencies` (YaRN, LongRoPE); >= 0.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x`` (C-contiguous), in ``x``'s dtype if that is a
        float type (float16 and bfloat16 included), else float64.  The
        computation is float64 either way and the result is rounded once to
        the dtype.  transformers instead computes cos and sin in float32,
        rounds them to the input dtype and multiplies in that dtype, so the
        two differ by a few units in the last place of float16/bfloat16.

    Notes
    -----
    The cosine and sine are computed once per distinct position, not once
    per head, and the rows of ``x`` are turned a chunk at a time, so the
    memory used is the output plus a few hundred kilobytes (plus at most
    half the input's bytes for the cos/sin rows, and a copy of ``x`` when it
    is not C-contiguous).  The peak is estimated and checked against the
    memory available before anything is allocated.

    Examples
    --------
    >>> rope([[1.0, 0.0]], [1], base=10000.0)  # one pair turned by 1 radian
    array([[0.54030231, 0.84147098]])
    >>> x = np.arange(8.0).reshape(2, 4)
    >>> rope(x, [0, 1], layout="half")[1]  # pairs (4, 6) and (5, 7)
    array([-2.88761669,  4.92975117,  6.60769777,  7.04964917])
    >>> rope(x, [0, 1], layout="interleaved")[1]  # pairs (4, 5) and (6, 7)
    array([-2.0461457 ,  6.06739547,  5.92970117,  7.059649  ])
    >>> rope(x, [0, 1], rotary_dim=2)[1]  # only the pair (4, 5) turns
    array([-2.0461457 ,  6.06739547,  6.        ,  7.        ])
    >>> rope([[1.0, 0.0]], [0], attention_factor=2.0)
    array([[2., 0.]])

    Batch-shaped ids as transformers passes them: sequence 1 is shifted by
    3, and every one of its heads turns with it.

    >>> q = np.ones((2, 4, 5, 8))  # (batch, heads, n, head_dim)
    >>> ids = np.array([[0, 1, 2, 3, 4], [3, 4, 5, 6, 7]])  # (batch, n)
    >>> turned = rope(q, ids)
    >>> bool(np.array_equal(turned[1, 2], rope(q[1, 2], ids[1])))
    True
    """
    values, out_dtype = _vectors(x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, dim) with at least 2 axes, got shape {values.shape}")
    dim = values.shape[-1]
    if rotary_dim is None and (dim < 2 or dim % 2):
        raise ValueError(
            f"the last axis of x (dim) must be even and >= 2, got {dim} in shape {values.shape}; "
            "or give an even rotary_dim <= dim to turn only the first features"
        )
    width = _rotary_width(rotary_dim, dim)
    layout = check_choice("layout", layout, LAYOUTS)
    scale = _attention_factor(attention_factor)
    n_pairs = width // 2

    rows = position_rows(_positions_array(positions), values.shape[:-1])
    freqs = _as_double_double(
        _angle_frequencies(width, check_base(base)) if inv_freq is None else _frequencies_array(inv_freq, n_pairs)
    )
    _check_angle_range(rows, freqs)
    check_memory(_rope_peak(values, out_dtype, n_pairs, rows), f"rope of {_what(values)}")
    unique = _uses_unique(rows, table_budget(values.nbytes))

    values = np.ascontiguousarray(values)
    out = np.empty(values.shape, dtype=out_dtype)
    if width < dim:
        np.copyto(out[..., width:], values[..., width:], casting="unsafe")
    table = _PositionTable(rows, freqs, scale, values.shape[:-1], unique=unique)
    n_table = None if table.index is None else table.n_table
    rotate_pairs(
        values,
        out,
        n_pairs=n_pairs,
        layout=layout,
        trig=table.trig,
        index=table.index,
        n_table=table.n_table,
        the_plan=plan(values, out_dtype, n_pairs, n_table, held_bytes=table.held_bytes),
    )
    return out


def _cos_sin_array(value: ArrayLike, name: str) -> np.ndarray:
    array = as_array(name, value)
    if array.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {array.dtype}")
    if not (array.dtype.kind == "f" or _is_ml_float(array.dtype)):
        raise TypeError(
            f"{name} must be a float array (float64, float32, float16 or bfloat16), got dtype {array.dtype}"
        )
    if array.ndim < 2:
        raise ValueError(f"{name} must have shape (..., n, rotary_dim), at least 2 axes; got shape {array.shape}")
    return array


def apply_rotary(x: ArrayLike, cos: ArrayLike, sin: ArrayLike, *, layout: str = "half") -> np.ndarray:
    """Turn ``x`` with given cos/sin caches, as models do: ``x * cos + rotate_half(x) * sin``.

    The caches are what :func:`rope_cos_sin` returns (or a model's rotary
    embedding): compute them once and apply them to the queries and the keys.
    Exactly ``x * cos + rotate(x) * sin`` is computed, in float64 and rounded
    once to ``x``'s dtype: with ``layout="half"`` (transformers'
    ``rotate_half``) feature ``j < r/2`` becomes ``x[j] cos[j] - x[j + r/2]
    sin[j]`` and feature ``j + r/2`` becomes ``x[j + r/2] cos[j + r/2] + x[j]
    sin[j + r/2]``; with ``layout="interleaved"`` the same for the pairs
    ``(2j, 2j + 1)`` (rotary-embedding-torch's ``rotate_half``).  With the
    caches of :func:`rope_cos_sin` (float64) the result equals :func:`rope`'s
    bit for bit.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real vectors (float64, float32, float16, bfloat16 or integers).
    cos, sin : array_like, shape (..., n, r)
        The caches, ``r`` even and ``<= dim``: the first ``r`` features turn,
        the rest pass through (partial rotary).  Their leading shape follows
        the rule of :func:`rope`'s positions: ``(n, r)`` for every sequence,
        ``(batch, n, r)`` for ``x`` of shape ``(batch, heads, n, dim)`` (the
        caches transformers' rotary embedding returns, which
        ``apply_rotary_pos_emb`` unsqueezes at axis 1), or ``x``'s own
        leading shape with length 1 where shared.  Any float dtype.
    layout : {"half", "interleaved"}

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; its dtype if a float type, else float64.

    Examples
    --------
    >>> from posenc_math import rope_frequencies
    >>> inv_freq, attention = rope_frequencies(8)
    >>> cos, sin = rope_cos_sin([[0, 1, 2]], inv_freq)  # (batch, n, 8)
    >>> q, k = np.ones((1, 2, 3, 8)), np.full((1, 2, 3, 8), 0.5)  # (batch, heads, n, head_dim)
    >>> q_turned, k_turned = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
    >>> bool(np.array_equal(q_turned, rope(q, [[0, 1, 2]])))
    True
    """
    values, out_dtype = _vectors(x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, dim) with at least 2 axes, got shape {values.shape}")
    layout = check_choice("layout", layout, LAYOUTS)
    cos_array = _cos_sin_array(cos, "cos")
    sin_array = _cos_sin_array(sin, "sin")
    if cos_array.shape != sin_array.shape:
        raise ValueError(f"cos and sin must have the same shape, got {cos_array.shape} and {sin_array.shape}")
    dim = values.shape[-1]
    width = _rotary_width(cos_array.shape[-1], dim, "cos.shape[-1] (the rotated features)")
    rows_shape = values.shape[:-1]
    cos_table = position_rows(cos_array, rows_shape, "cos", trailing=1)
    sin_table = position_rows(sin_array, rows_shape, "sin", trailing=1)
    if cos_table.shape != sin_table.shape:  # one of them was broadcast where the other was not
        cos_table = np.broadcast_to(cos_table, np.broadcast_shapes(cos_table.shape, sin_table.shape))
        sin_table = np.broadcast_to(sin_table, cos_table.shape)
    table_shape = cos_table.shape[:-1]
    direct = table_shape == rows_shape
    n_table = math.prod(table_shape)
    held = 0 if direct else 8 * n_table
    for table in (cos_table, sin_table):
        if not table.flags.c_contiguous:
            held += n_table * width * table.dtype.itemsize
    the_plan = plan(values, out_dtype, width // 2, None, held_bytes=held)
    check_memory(the_plan.peak, f"apply_rotary of {_what(values)}")

    cos_flat = np.ascontiguousarray(cos_table).reshape(-1, width)
    sin_flat = np.ascontiguousarray(sin_table).reshape(-1, width)
    if layout == "half":
        first, second = slice(0, width // 2), slice(width // 2, width)
    else:
        first, second = slice(0, width, 2), slice(1, width, 2)

    def trig(table_rows: np.ndarray | slice) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        c = cos_flat[table_rows].astype(np.float64, copy=False)
        s = sin_flat[table_rows].astype(np.float64, copy=False)
        return c[:, first], s[:, first], c[:, second], s[:, second]

    values = np.ascontiguousarray(values)
    out = np.empty(values.shape, dtype=out_dtype)
    if width < dim:
        np.copyto(out[..., width:], values[..., width:], casting="unsafe")
    index = None if direct else np.arange(n_table).reshape(table_shape)
    rotate_pairs(values, out, n_pairs=width // 2, layout=layout, trig=trig, index=index, the_plan=the_plan)
    return out


def rope_cos_sin(
    positions: ArrayLike,
    inv_freq: ArrayLike,
    *,
    attention_factor: float = 1.0,
    layout: str = "half",
    dtype: DTypeLike = "float64",
) -> tuple[np.ndarray, np.ndarray]:
    """The cos and sin caches a model's rotary embedding builds.

    ``cos[..., c] = attention_factor * cos(p w_j)`` (and ``sin`` likewise),
    where column ``c`` belongs to pair ``j``: with ``layout="half"`` the
    angles are repeated as ``[w_0 .. w_{m-1}, w_0 .. w_{m-1}]`` (transformers'
    ``torch.cat((freqs, freqs), dim=-1)``), with ``layout="interleaved"``
    each angle twice in a row ``[w_0, w_0, w_1, w_1, ...]``
    (rotary-embedding-torch's ``repeat(..., '... n -> ... (n r)', r=2)``).
    A model then computes ``x * cos + rotate_half(x) * sin``;
    :func:`apply_rotary` does that, and :func:`rope` gives the same result
    directly.

    Parameters
    ----------
    positions : array_like
        Integer or finite real positions, any shape with at least one axis,
        e.g. transformers' ``position_ids`` of shape ``(batch, n)``.
    inv_freq : array_like, shape (m,)
        The frequency of each pair, e.g. the first result of
        :func:`~posenc_math.rope_frequencies` (not the whole tuple).
    attention_factor : float, default 1.0
        The second result of :func:`~posenc_math.rope_frequencies`; >= 0.
    layout : {"half", "interleaved"}
    dtype : {"float64", "float32", "float16", "bfloat16"}, default "float64"
        Number format of the caches: the float64 values rounded once.

    Returns
    -------
    cos, sin : numpy.ndarray
        Each of shape ``positions.shape + (2 m,)``, of ``dtype``, the angles
        reduced in extended precision as in :func:`rope`.

    Examples
    --------
    >>> from posenc_math import rope_frequencies
    >>> inv_freq, attention = rope_frequencies(4)
    >>> cos, sin = rope_cos_sin([0, 1], inv_freq, attention_factor=attention)
    >>> cos
    array([[1.        , 1.        , 1.        , 1.        ],
           [0.54030231, 0.99995   , 0.54030231, 0.99995   ]])
    >>> rope_cos_sin([1], inv_freq, layout="interleaved")[1]
    array([[0.84147098, 0.84147098, 0.00999983, 0.00999983]])
    >>> rope_cos_sin([1], inv_freq, dtype="float32")[0].dtype
    dtype('float32')
    """
    positions = _positions_array(positions)
    if inv_freq is None:
        raise TypeError("inv_freq must be given (e.g. rope_frequencies(dim)[0])")
    freqs = _as_double_double(_frequencies_array(inv_freq, None))
    layout = check_choice("layout", layout, LAYOUTS)
    scale = _attention_factor(attention_factor)
    out_dtype = check_float_dtype(dtype)
    n_pairs = freqs[0].shape[0]
    n_rows = positions.size
    chunk = max(1, min(n_rows, CHUNK_PAIRS // n_pairs))
    out_bytes = 2 * n_rows * 2 * n_pairs * out_dtype.itemsize
    budget = table_budget(out_bytes)
    unique = _uses_unique(positions, budget)
    flat_bytes = 0 if positions.flags.c_contiguous else positions.nbytes
    # the outputs, a chunk's angles, cos and sin (and the angle reduction's blocks), the positions' table
    peak = out_bytes + flat_bytes + 3 * 8 * chunk * n_pairs + 12 * 8 * 2**14
    if unique:
        peak += max(_UNIQUE_BYTES * n_rows, 16 * n_rows + min(16 * n_pairs * n_rows, int(budget)))
    check_memory(
        peak, f"rope_cos_sin of positions of shape {positions.shape} and {n_pairs} frequencies, dtype={out_dtype.name}"
    )
    _check_angle_range(positions, freqs)
    cos_out = np.empty((n_rows, 2 * n_pairs), dtype=out_dtype)
    sin_out = np.empty((n_rows, 2 * n_pairs), dtype=out_dtype)
    columns = (slice(0, n_pairs), slice(n_pairs, None)) if layout == "half" else (slice(0, None, 2), slice(1, None, 2))
    flat = positions.reshape(-1)
    table = _PositionTable(flat, freqs, scale, flat.shape, unique=unique)
    tables = None
    if table.index is not None and 2 * table.n_table <= n_rows and 16 * n_pairs * table.n_table <= budget:
        tables = np.empty((table.n_table, n_pairs)), np.empty((table.n_table, n_pairs))
        for start in range(0, table.n_table, chunk):
            rows = slice(start, min(start + chunk, table.n_table))
            tables[0][rows], tables[1][rows], _, _ = table.trig(rows)
    for start in range(0, n_rows, chunk):
        rows = slice(start, min(start + chunk, n_rows))
        if table.index is None:
            cos, sin, _, _ = table.trig(rows)
        else:
            wanted = as_range(table.index[rows])
            cos, sin, _, _ = table.trig(wanted) if tables is None else (tables[0][wanted], tables[1][wanted], 0, 0)
        for column in columns:
            store_once(cos_out[rows, column], cos)
            store_once(sin_out[rows, column], sin)
    shape = (*positions.shape, 2 * n_pairs)
    return cos_out.reshape(shape), sin_out.reshape(shape)


def interleaved_to_half(dim: int) -> np.ndarray:
    """The coordinate permutation from the interleaved to the half layout.

    ``x_half = x_interleaved[..., perm]``: coordinate ``s * dim/2 + j`` of
    the half layout is coordinate ``2 j + s`` of the interleaved one
    (``s`` = 0 or 1), so ``perm = [0, 2, 4, ..., 1, 3, 5, ...]``.  Applied to
    the rows of a head's query and key weights it turns a model trained with
    one layout into the other (Hugging Face's ``convert_llama_weights_to_hf``
    does this with ``view(heads, dim // 2, 2, ...).transpose(1, 2)``), and
    ``rope(x[..., perm], layout="half") == rope(x, layout="interleaved")[..., perm]``
    (the theorem ``rope-layout-permutation``).

    Parameters
    ----------
    dim : int
        Rotary dimensions of one head, even, >= 2.

    Returns
    -------
    numpy.ndarray
        Shape ``(dim,)``, int64, a permutation; its inverse
        (``numpy.argsort(perm)``) goes from half to interleaved.

    Examples
    --------
    >>> interleaved_to_half(8)
    array([0, 2, 4, 6, 1, 3, 5, 7])
    """
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotary dimensions come in pairs), got {dim}")
    check_table_fits((dim,), 16, f"dim={dim}")
    return np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)]).astype(np.int64)
