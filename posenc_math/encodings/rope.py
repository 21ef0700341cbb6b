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

import numpy as np

from .._validate import check_base, check_choice, check_int, check_real, check_table_fits
from ._phase import reduced_angles
from .rope_scaling import _angle_frequencies, _check_rotary_dim

__all__ = ["LAYOUTS", "interleaved_to_half", "rope", "rope_cos_sin"]

#: The two ways codebases pair a rotary vector's features.
LAYOUTS = ("half", "interleaved")


def _positions_array(positions, name: str = "positions") -> np.ndarray:
    positions = np.asarray(positions)
    if positions.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {positions.dtype} (its imaginary part would be lost)")
    if positions.dtype == np.bool_ or positions.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be integers or real numbers, got dtype {positions.dtype}")
    if positions.dtype.kind == "f" and not np.isfinite(positions).all():
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


def _real_vectors(x, name: str = "x") -> tuple[np.ndarray, np.dtype]:
    """Validate real input; return it as float64 and the dtype to return.

    float16/float32 and ml_dtypes floats (bfloat16, ...) come back in their
    own dtype; integers come back as float64.
    """
    array = np.asarray(x)
    if array.dtype.kind == "c":
        raise TypeError(
            f"{name} must be real, got complex dtype {array.dtype}: its imaginary part would be lost; "
            "rotate the real and imaginary parts separately"
        )
    if _is_ml_float(array.dtype):
        return array.astype(np.float64), array.dtype
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real array (integer, float or an ml_dtypes float), got dtype {array.dtype}")
    out_dtype = array.dtype if array.dtype.kind == "f" else np.dtype(np.float64)
    return array.astype(np.float64, copy=False), out_dtype


def _frequencies_array(inv_freq, n_pairs: int | None, name: str = "inv_freq") -> np.ndarray:
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
    try:
        freqs = np.asarray(inv_freq)
    except ValueError as error:  # ragged nesting
        raise TypeError(f"{name} must be a 1-D array of real numbers, got {type(inv_freq).__name__}") from error
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


def _attention_factor(value) -> float:
    value = check_real("attention_factor", value)
    if value < 0:
        raise ValueError(f"attention_factor must be >= 0 (it multiplies cos and sin), got {value!r}")
    return value


def _check_positions_fit(positions: np.ndarray, rows: tuple[int, ...], name: str = "positions") -> None:
    try:
        shape = np.broadcast_shapes(positions.shape, rows)
    except ValueError:
        shape = None
    if shape != rows:
        raise ValueError(
            f"{name} of shape {positions.shape} do not broadcast to x.shape[:-1] = {rows}; "
            "give one position per row of x, shape (n,) or e.g. (batch, 1, n)"
        )


def _pair_views(array: np.ndarray, n_pairs: int, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """The two members of every pair among the first ``2 n_pairs`` features."""
    if layout == "half":
        return array[..., :n_pairs], array[..., n_pairs : 2 * n_pairs]
    return array[..., 0 : 2 * n_pairs : 2], array[..., 1 : 2 * n_pairs : 2]


def _rotate(values: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str) -> np.ndarray:
    """Turn pair j of the first ``2 len(cos)`` features; the rest pass through.

    ``cos`` and ``sin`` have one column per pair (already scaled).
    """
    n_pairs = cos.shape[-1]
    out = np.array(values, dtype=np.float64, copy=True)
    first, second = _pair_views(values, n_pairs, layout)
    out_first, out_second = _pair_views(out, n_pairs, layout)
    out_first[...] = first * cos - second * sin
    out_second[...] = first * sin + second * cos
    return out


def _rotary_width(rotary_dim, dim: int, name: str = "rotary_dim") -> int:
    if rotary_dim is None:
        return dim
    rotary_dim = check_int(name, rotary_dim, minimum=2)
    if rotary_dim % 2:
        raise ValueError(f"{name} must be even (rotated features come in pairs), got {rotary_dim}")
    if rotary_dim > dim:
        raise ValueError(f"{name} must be <= dim, the last axis of x ({dim}), got {rotary_dim}")
    return rotary_dim


def rope(
    x, positions, *, base=10000.0, layout="half", inv_freq=None, rotary_dim=None, attention_factor=1.0
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
        Position of each row: shape ``(n,)``, or any shape that broadcasts
        to ``x.shape[:-1]`` (e.g. ``(batch, 1, n)`` for ``x`` of shape
        ``(batch, heads, n, dim)``).  Integers or finite reals (position
        interpolation gives fractional positions); negative positions are
        allowed (a rotation by a negative angle) although models start at 0.
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
        Same shape as ``x``, in ``x``'s dtype if that is a float type
        (float16 and bfloat16 included), else float64.  The computation is
        float64 either way and the result is rounded once to the dtype.
        transformers instead computes cos and sin in float32, rounds them to
        the input dtype and multiplies in that dtype, so the two differ by a
        few units in the last place of float16/bfloat16.

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
    """
    values, out_dtype = _real_vectors(x)
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

    positions = _positions_array(positions)
    _check_positions_fit(positions, values.shape[:-1])
    freqs = _angle_frequencies(width, check_base(base)) if inv_freq is None else _frequencies_array(inv_freq, n_pairs)

    check_table_fits(values.shape, 8, f"x of shape {values.shape}")
    angles = reduced_angles(positions, freqs)  # positions.shape + (n_pairs,)
    out = _rotate(values, scale * np.cos(angles), scale * np.sin(angles), layout)
    if out_dtype != np.float64:
        return out.astype(out_dtype)
    return out


def rope_cos_sin(positions, inv_freq, *, attention_factor=1.0, layout="half") -> tuple[np.ndarray, np.ndarray]:
    """The cos and sin caches a model's rotary embedding builds.

    ``cos[..., c] = attention_factor * cos(p w_j)`` (and ``sin`` likewise),
    where column ``c`` belongs to pair ``j``: with ``layout="half"`` the
    angles are repeated as ``[w_0 .. w_{m-1}, w_0 .. w_{m-1}]`` (transformers'
    ``torch.cat((freqs, freqs), dim=-1)``), with ``layout="interleaved"``
    each angle twice in a row ``[w_0, w_0, w_1, w_1, ...]``
    (rotary-embedding-torch's ``repeat(..., '... n -> ... (n r)', r=2)``).
    A model then computes ``x * cos + rotate_half(x) * sin``; :func:`rope`
    gives the same result directly.

    Parameters
    ----------
    positions : array_like
        Integer or finite real positions, any shape with at least one axis.
    inv_freq : array_like, shape (m,)
        The frequency of each pair, e.g. the first result of
        :func:`~posenc_math.rope_frequencies` (not the whole tuple).
    attention_factor : float, default 1.0
        The second result of :func:`~posenc_math.rope_frequencies`; >= 0.
    layout : {"half", "interleaved"}

    Returns
    -------
    cos, sin : numpy.ndarray
        Each of shape ``positions.shape + (2 m,)``, float64, the angles
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
    """
    positions = _positions_array(positions)
    if inv_freq is None:
        raise TypeError("inv_freq must be given (e.g. rope_frequencies(dim)[0])")
    freqs = _frequencies_array(inv_freq, None)
    layout = check_choice("layout", layout, LAYOUTS)
    scale = _attention_factor(attention_factor)
    check_table_fits((*positions.shape, 2 * freqs.shape[0]), 16, f"positions of shape {positions.shape}")
    angles = reduced_angles(positions, freqs)
    cos = scale * np.cos(angles)
    sin = scale * np.sin(angles)
    if layout == "half":
        return np.concatenate([cos, cos], axis=-1), np.concatenate([sin, sin], axis=-1)
    return np.repeat(cos, 2, axis=-1), np.repeat(sin, 2, axis=-1)


def interleaved_to_half(dim) -> np.ndarray:
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
    dim = _check_rotary_dim(dim)
    return np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)]).astype(np.int64)
