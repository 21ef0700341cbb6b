"""Rotary position embeddings (RoPE) and the frequency rules that stretch them.

RoPE (Su et al., RoFormer) rotates each pair ``(a, b)`` of a query or key
vector at position ``p`` by the angle ``p w``:
``(a, b) -> (a cos pw - b sin pw, a sin pw + b cos pw)``.  Two codebases
pair the coordinates differently:

* ``layout="half"``: pair ``j`` is ``(x[j], x[j + dim/2])`` (GPT-NeoX,
  Llama, Hugging Face's ``rotate_half``);
* ``layout="interleaved"``: pair ``j`` is ``(x[2j], x[2j + 1])`` (GPT-J's
  ``rotate_every_two``, RoFormer, the complex-number view of Meta's Llama
  reference code).

Pair ``j`` turns with ``w_j = base ** (-2 j / dim)`` unless a rule of
:func:`rope_frequencies` (position interpolation, NTK-aware, dynamic NTK,
YaRN, Llama 3) changes the frequencies.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_base, check_choice, check_int, check_real, check_table_fits
from ._phase import frequencies_extended, reduced_angles

__all__ = [
    "ROPE_TYPES",
    "extension_frequencies",
    "interleaved_to_half",
    "ntk_aware_base",
    "rope",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_relative_scores",
]

LAYOUTS = ("half", "interleaved")
#: The ``rope_type`` values :func:`rope_frequencies` accepts.
ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3")

# Keys each rope_type reads ("rope_type"/"type" and "rope_theta" are
# accepted for every type, as model configs carry them).
_REQUIRED = {
    "default": (),
    "linear": ("factor",),
    "dynamic": ("factor",),
    "yarn": (),  # factor and original_max_position_embeddings, with fallbacks
    "llama3": ("factor", "low_freq_factor", "high_freq_factor"),
}
_OPTIONAL = {
    "default": (),
    "linear": (),
    "dynamic": (),
    "yarn": (
        "factor",
        "original_max_position_embeddings",
        "attention_factor",
        "beta_fast",
        "beta_slow",
        "mscale",
        "mscale_all_dim",
        "truncate",
    ),
    "llama3": ("original_max_position_embeddings",),
}
_COMMON = ("rope_type", "type", "rope_theta")


def _check_rotary_dim(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotary dimensions come in pairs), got {dim}")
    return dim


def _default_frequencies(dim: int, base: float) -> np.ndarray:
    """``base ** (-2 j / dim)`` in extended precision."""
    return frequencies_extended(dim // 2, base, dim // 2)


def _positive(name: str, value) -> float:
    value = check_real(name, value)
    if value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def _factor(scaling: dict, rope_type: str) -> float:
    factor = check_real("scaling['factor']", scaling["factor"])
    if factor < 1.0:
        raise ValueError(
            f"scaling['factor'] must be >= 1 for rope_type {rope_type!r} (it stretches the context), got {factor!r}"
        )
    return factor


def _read_scaling(scaling, base: float) -> tuple[str, dict]:
    """Validate a scaling dict; return its rope_type and the dict."""
    if scaling is None:
        return "default", {}
    if not isinstance(scaling, dict):
        raise TypeError(f"scaling must be a dict (a model config's rope_scaling) or None, got {type(scaling).__name__}")
    if "rope_type" in scaling and "type" in scaling and scaling["rope_type"] != scaling["type"]:
        raise ValueError(
            f"scaling has both 'rope_type' {scaling['rope_type']!r} and the legacy 'type' "
            f"{scaling['type']!r}; they must agree"
        )
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    check_choice("scaling['rope_type']", rope_type, ROPE_TYPES)
    accepted = _COMMON + _REQUIRED[rope_type] + _OPTIONAL[rope_type]
    unknown = sorted(set(scaling) - set(accepted), key=str)
    if unknown:
        raise ValueError(
            f"scaling keys {unknown} are not used by rope_type {rope_type!r}; accepted keys: {', '.join(accepted)}"
        )
    missing = [key for key in _REQUIRED[rope_type] if scaling.get(key) is None]
    if missing:
        raise ValueError(f"rope_type {rope_type!r} needs scaling keys {missing}; missing from {scaling!r}")
    if "rope_theta" in scaling and check_base(scaling["rope_theta"], "scaling['rope_theta']") != base:
        raise ValueError(
            f"scaling['rope_theta'] = {scaling['rope_theta']!r} disagrees with base = {base!r}; "
            "pass the model's rope_theta as base"
        )
    return rope_type, scaling


def _yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def _yarn(dim, base, scaling, max_position_embeddings):
    original = scaling.get("original_max_position_embeddings")
    if original is None:
        # transformers' standardize_rope_params falls back to the config's
        # max_position_embeddings.
        if max_position_embeddings is None:
            raise ValueError(
                "rope_type 'yarn' needs scaling key 'original_max_position_embeddings' "
                "(or the max_position_embeddings argument to fall back on)"
            )
        original = max_position_embeddings
    original = check_int("scaling['original_max_position_embeddings']", original, minimum=1)
    if scaling.get("factor") is None:
        if max_position_embeddings is None:
            raise ValueError(
                "rope_type 'yarn' needs scaling key 'factor' (or max_position_embeddings, "
                "to use max_position_embeddings / original_max_position_embeddings)"
            )
        factor = max_position_embeddings / original
    else:
        factor = check_real("scaling['factor']", scaling["factor"])
        if factor <= 0:
            raise ValueError(f"scaling['factor'] must be > 0, got {factor!r}")

    attention_factor = scaling.get("attention_factor")
    mscale = scaling.get("mscale")
    mscale_all_dim = scaling.get("mscale_all_dim")
    if attention_factor is None:
        if mscale and mscale_all_dim:  # both present and non-zero, as transformers tests
            attention_factor = _yarn_mscale(factor, check_real("scaling['mscale']", mscale)) / _yarn_mscale(
                factor, check_real("scaling['mscale_all_dim']", mscale_all_dim)
            )
        else:
            attention_factor = _yarn_mscale(factor)
    else:
        attention_factor = check_real("scaling['attention_factor']", attention_factor)
        if attention_factor < 0:
            raise ValueError(f"scaling['attention_factor'] must be >= 0, got {attention_factor!r}")

    # `or`: a missing, None or zero value takes the paper's default, exactly
    # as transformers reads them.
    beta_fast = check_real("scaling['beta_fast']", scaling.get("beta_fast") or 32)
    beta_slow = check_real("scaling['beta_slow']", scaling.get("beta_slow") or 1)
    truncate = scaling.get("truncate", True)
    if not isinstance(truncate, (bool, np.bool_)):
        raise TypeError(f"scaling['truncate'] must be True or False, got {truncate!r}")

    def correction_dim(rotations):
        # the dimension index whose wavelength fits `rotations` times into
        # the original context
        return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001  # transformers' guard against a zero-width ramp

    extrapolation = _default_frequencies(dim, base).astype(np.float64)
    interpolation = extrapolation / factor
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    # ramp 0: keep the frequency (fast pairs); ramp 1: divide by the factor
    inv_freq = interpolation * ramp + extrapolation * (1.0 - ramp)
    return inv_freq, float(attention_factor)


def _llama3(dim, base, scaling, max_position_embeddings):
    factor = _factor(scaling, "llama3")
    low_freq_factor = check_real("scaling['low_freq_factor']", scaling["low_freq_factor"])
    high_freq_factor = check_real("scaling['high_freq_factor']", scaling["high_freq_factor"])
    if not 0 < low_freq_factor < high_freq_factor:
        raise ValueError(
            "scaling needs 0 < low_freq_factor < high_freq_factor, got "
            f"low_freq_factor={low_freq_factor!r}, high_freq_factor={high_freq_factor!r}"
        )
    original = scaling.get("original_max_position_embeddings", max_position_embeddings)
    if original is None:
        raise ValueError(
            "rope_type 'llama3' needs scaling key 'original_max_position_embeddings' "
            "(or the max_position_embeddings argument to fall back on)"
        )
    original = check_int("scaling['original_max_position_embeddings']", original, minimum=1)

    inv_freq = _default_frequencies(dim, base).astype(np.float64)
    wavelength = 2 * math.pi / inv_freq
    low_freq_wavelength = original / low_freq_factor  # longer than this: divide by factor
    high_freq_wavelength = original / high_freq_factor  # shorter than this: keep
    smooth = (original / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    result = np.where(wavelength > low_freq_wavelength, inv_freq / factor, inv_freq)
    medium = ~(wavelength < high_freq_wavelength) & ~(wavelength > low_freq_wavelength)
    return np.where(medium, smoothed, result), 1.0


def rope_frequencies(dim, *, base=10000.0, scaling=None, seq_len=None, max_position_embeddings=None):
    """Rotary frequencies under the context-extension rules models ship with.

    The rules and their defaults are those of Hugging Face transformers'
    ``modeling_rope_utils`` (version 5.x), keyed as a model config's
    ``rope_scaling`` / ``rope_parameters``:

    ``default``
        ``w_j = base ** (-2 j / dim)``.
    ``linear`` (position interpolation, Chen et al. 2023; needs ``factor``)
        ``w_j / factor``: position ``p`` turns like position ``p / factor``.
    ``dynamic`` (dynamic NTK; needs ``factor`` and ``max_position_embeddings``)
        the default rule with base ``base * (factor * L / M - (factor - 1))
        ** (dim / (dim - 2))``, where ``M = max_position_embeddings`` and
        ``L = max(seq_len, M)`` (``seq_len`` defaults to ``M``): unchanged
        up to ``M``, beyond it the NTK-aware base ``base * s ** (dim /
        (dim - 2))`` for the scale ``s = factor L / M - (factor - 1)``
        (``s = L / M`` when ``factor`` is 1).
    ``yarn`` (Peng et al. 2024)
        per pair, a ramp between keeping ``w_j`` (pairs that turn more than
        ``beta_fast`` = 32 times over the original context) and ``w_j /
        factor`` (fewer than ``beta_slow`` = 1 turn); the ramp bounds are
        floored/ceiled unless ``truncate`` is False, and clamped to
        ``[0, dim - 1]``.  Attention factor ``0.1 ln(factor) + 1`` (1 if
        ``factor <= 1``), or ``mscale``-based when both ``mscale`` and
        ``mscale_all_dim`` are given, or ``attention_factor`` itself.
        ``original_max_position_embeddings`` falls back to
        ``max_position_embeddings``; a missing ``factor`` to
        ``max_position_embeddings / original_max_position_embeddings``.
    ``llama3`` (needs ``factor``, ``low_freq_factor``, ``high_freq_factor``, ``original_max_position_embeddings``)
        ``original_max_position_embeddings`` falls back to
        ``max_position_embeddings``.  Wavelengths shorter than ``original / high_freq_factor`` keep their
        frequency, longer than ``original / low_freq_factor`` divide it by
        ``factor``, and in between interpolate with weight
        ``s = (original / wavelength - low_freq_factor) / (high_freq_factor -
        low_freq_factor)``: ``(1 - s) w / factor + s w``.

    transformers computes in float32; this function computes in float64
    (the base powers in extended precision), so the two agree to float32
    rounding.  The YaRN key ``truncate`` exists only in recent transformers;
    earlier versions always truncated, which is the default here too.

    Parameters
    ----------
    dim : int
        Number of rotary dimensions, even, >= 2 (> 2 for ``dynamic``).  For a
        model with a partial rotary factor pass the rotated width.
    base : float, default 10000.0
        The model's ``rope_theta``, > 1.
    scaling : dict, optional
        The ``rope_scaling`` dict; ``rope_type`` (or the legacy ``type``) is
        one of ``"default"``, ``"linear"``, ``"dynamic"``, ``"yarn"``,
        ``"llama3"``.  Unknown keys are refused (a typo would otherwise be
        ignored silently).
    seq_len : int, optional
        Current sequence length, >= 1; read only by ``dynamic``.
    max_position_embeddings : int, optional
        The config's ``max_position_embeddings``, >= 1: needed by
        ``dynamic``, a fallback for ``yarn`` and ``llama3``.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)``, float64, the angular frequency of each pair.
    attention_factor : float
        The factor transformers multiplies cos and sin by (1.0 except for
        YaRN).

    References
    ----------
    J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position
    Embedding", 2021.  S. Chen et al., "Extending Context Window of Large
    Language Models via Positional Interpolation", 2023.  bloc97, "NTK-Aware
    Scaled RoPE", 2023.  B. Peng et al., "YaRN: Efficient Context Window
    Extension of Large Language Models", ICLR 2024.  Llama Team, "The Llama 3
    Herd of Models", 2024.

    Examples
    --------
    >>> inv_freq, attention = rope_frequencies(8)
    >>> inv_freq, attention
    (array([1.   , 0.1  , 0.01 , 0.001]), 1.0)
    >>> rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4})[0]
    array([0.25   , 0.025  , 0.0025 , 0.00025])
    >>> yarn = {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 64}
    >>> inv_freq, attention = rope_frequencies(8, scaling=yarn)
    >>> inv_freq, round(attention, 6)
    (array([1.00e+00, 6.25e-02, 2.50e-03, 2.50e-04]), 1.138629)
    """
    dim = _check_rotary_dim(dim)
    base = check_base(base)
    if max_position_embeddings is not None:
        max_position_embeddings = check_int("max_position_embeddings", max_position_embeddings, minimum=1)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, minimum=1)
    rope_type, scaling = _read_scaling(scaling, base)

    if rope_type == "default":
        return _default_frequencies(dim, base).astype(np.float64), 1.0
    if rope_type == "linear":
        factor = _factor(scaling, rope_type)
        return (_default_frequencies(dim, base) / np.longdouble(factor)).astype(np.float64), 1.0
    if rope_type == "dynamic":
        factor = _factor(scaling, rope_type)
        if max_position_embeddings is None:
            raise ValueError("rope_type 'dynamic' needs max_position_embeddings (the trained context length)")
        if dim == 2:
            raise ValueError("rope_type 'dynamic' needs dim > 2 (its base exponent is dim / (dim - 2))")
        length = max_position_embeddings if seq_len is None else max(seq_len, max_position_embeddings)
        new_base = base * (factor * length / max_position_embeddings - (factor - 1)) ** (dim / (dim - 2))
        return _default_frequencies(dim, new_base).astype(np.float64), 1.0
    if rope_type == "yarn":
        return _yarn(dim, base, scaling, max_position_embeddings)
    return _llama3(dim, base, scaling, max_position_embeddings)


def _positions_array(positions) -> np.ndarray:
    positions = np.asarray(positions)
    if positions.dtype == np.bool_ or positions.dtype.kind not in "iuf":
        raise TypeError(f"positions must be integers or real numbers, got dtype {positions.dtype}")
    if positions.dtype.kind == "f" and not np.isfinite(positions).all():
        raise ValueError("positions must be finite (found NaN or infinity)")
    if positions.ndim == 0:
        raise ValueError("positions must have at least one axis (one position per row of x), got a scalar")
    return positions


def rope(x, positions, *, base=10000.0, layout="half", inv_freq=None) -> np.ndarray:
    """Rotate query or key vectors by their positions (rotary embedding).

    Pair ``(a, b)`` at position ``p`` with frequency ``w`` becomes
    ``(a cos pw - b sin pw, a sin pw + b cos pw)``.  The angle ``p w`` is
    reduced modulo 2 pi in extended precision before the float64 sine and
    cosine (see ``posenc_math.encodings._phase``), so large positions
    lose no accuracy to the product.

    Parameters
    ----------
    x : array_like, shape (..., n, dim)
        Real vectors, one per position along the second-to-last axis, with
        any leading (batch, head) axes; ``dim`` even.
    positions : array_like
        Position of each row: shape ``(n,)``, or any shape that broadcasts
        to ``x.shape[:-1]`` (e.g. ``(batch, 1, n)`` for ``x`` of shape
        ``(batch, heads, n, dim)``).  Integers or finite reals (position
        interpolation gives fractional positions); negative positions are
        allowed (a rotation by a negative angle) although models start at 0.
    base : float, default 10000.0
        ``rope_theta``; frequencies ``base ** (-2 j / dim)``.  Not used when
        ``inv_freq`` is given.
    layout : {"half", "interleaved"}
        ``"half"`` pairs ``(j, j + dim/2)`` (GPT-NeoX, Llama);
        ``"interleaved"`` pairs ``(2j, 2j + 1)`` (GPT-J, RoFormer).
    inv_freq : array_like, optional
        Shape ``(dim // 2,)``: the frequency of each pair, e.g. the first
        result of :func:`rope_frequencies`.  Finite and real.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``; float64, or ``x``'s dtype if that is a float
        type (the computation is float64 either way).

    Examples
    --------
    >>> rope([[1.0, 0.0]], [1], base=10000.0)  # one pair turned by 1 radian
    array([[0.54030231, 0.84147098]])
    >>> x = np.arange(8.0).reshape(2, 4)
    >>> rope(x, [0, 1], layout="half")[1]  # pairs (4, 6) and (5, 7)
    array([-2.88761669,  4.92975117,  6.60769777,  7.04964917])
    >>> rope(x, [0, 1], layout="interleaved")[1]  # pairs (4, 5) and (6, 7)
    array([-2.0461457 ,  6.06739547,  5.92970117,  7.059649  ])
    """
    array = np.asarray(x)
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        raise TypeError(f"x must be a real array, got dtype {array.dtype}")
    if array.ndim < 2:
        raise ValueError(f"x must have shape (..., n, dim) with at least 2 axes, got shape {array.shape}")
    dim = array.shape[-1]
    if dim < 2 or dim % 2:
        raise ValueError(f"the last axis of x (dim) must be even and >= 2, got {dim} in shape {array.shape}")
    layout = check_choice("layout", layout, LAYOUTS)
    n_pairs = dim // 2

    positions = _positions_array(positions)
    try:
        shape = np.broadcast_shapes(positions.shape, array.shape[:-1])
    except ValueError:
        shape = None
    if shape != array.shape[:-1]:
        raise ValueError(
            f"positions of shape {positions.shape} do not broadcast to x.shape[:-1] = {array.shape[:-1]}; "
            "give one position per row of x, shape (n,) or e.g. (batch, 1, n)"
        )

    if inv_freq is None:
        freqs = _default_frequencies(dim, check_base(base))
    else:
        freqs = np.asarray(inv_freq)
        if freqs.dtype == np.bool_ or freqs.dtype.kind not in "iuf":
            raise TypeError(f"inv_freq must be real, got dtype {freqs.dtype}")
        if freqs.shape != (n_pairs,):
            raise ValueError(f"inv_freq must have shape (dim // 2,) = ({n_pairs},), got {freqs.shape}")
        if not np.isfinite(freqs).all():
            raise ValueError("inv_freq must be finite (found NaN or infinity)")
        freqs = freqs.astype(np.longdouble)

    check_table_fits(array.shape, 8, f"x of shape {array.shape}")
    angles = reduced_angles(positions, freqs)  # positions.shape + (n_pairs,)
    cos = np.cos(angles)
    sin = np.sin(angles)
    values = array.astype(np.float64, copy=False)
    if layout == "half":
        first, second = values[..., :n_pairs], values[..., n_pairs:]
    else:
        first, second = values[..., 0::2], values[..., 1::2]
    out = np.empty(array.shape, dtype=np.float64)
    if layout == "half":
        out_first, out_second = out[..., :n_pairs], out[..., n_pairs:]
    else:
        out_first, out_second = out[..., 0::2], out[..., 1::2]
    out_first[...] = first * cos - second * sin
    out_second[...] = first * sin + second * cos
    if array.dtype.kind == "f" and array.dtype != np.float64:
        return out.astype(array.dtype)
    return out


def ntk_aware_base(base, scale, dim) -> float:
    """The NTK-aware base ``b' = b s ** (dim / (dim - 2))`` (bloc97, 2023).

    It is the base whose slowest pair turns ``s`` times slower than with
    ``b`` while the fastest pair (frequency 1) is unchanged: solving
    ``b' ** (-(dim - 2) / dim) = b ** (-(dim - 2) / dim) / s`` for ``b'``
    (the theorem ``ntk-base``).

    Parameters
    ----------
    base : float
        The trained base, > 1.
    scale : float
        The context stretch ``s``, >= 1.
    dim : int
        Rotary dimensions, even, > 2.

    Returns
    -------
    float

    Examples
    --------
    >>> round(ntk_aware_base(10000.0, 8.0, 128))
    82685
    """
    base = check_base(base)
    scale = check_real("scale", scale)
    if scale < 1:
        raise ValueError(f"scale must be >= 1 (a context stretch), got {scale!r}")
    dim = _check_rotary_dim(dim)
    if dim == 2:
        raise ValueError("dim must be > 2 for the NTK-aware base (its exponent is dim / (dim - 2))")
    try:
        new_base = base * scale ** (dim / (dim - 2))
    except OverflowError:
        new_base = math.inf
    if not math.isfinite(new_base):
        raise ValueError(f"the NTK-aware base overflows float64 for base={base!r}, scale={scale!r}, dim={dim}")
    return new_base


def extension_frequencies(
    dim, *, base=10000.0, factor=8.0, original_max_position_embeddings=8192, low_freq_factor=1.0, high_freq_factor=4.0
) -> dict:
    """Frequencies of every context-extension rule for one head, side by side.

    Each rule stretches a context of ``original_max_position_embeddings``
    by ``factor``: position interpolation (``linear``), the NTK-aware base
    (``ntk``: :func:`ntk_aware_base`, what ``dynamic`` uses at
    ``factor`` times the trained length with ``factor`` 1), ``yarn`` with its
    defaults, and ``llama3`` with ``low_freq_factor`` / ``high_freq_factor``.

    Parameters
    ----------
    dim : int
        Rotary dimensions, even, > 2.
    base : float, default 10000.0
    factor : float, default 8.0
        Context stretch, >= 1.
    original_max_position_embeddings : int, default 8192
        The trained context length.
    low_freq_factor, high_freq_factor : float
        Llama 3's band limits (1 and 4 in Llama 3.1).

    Returns
    -------
    dict
        ``{"default", "linear", "ntk", "yarn", "llama3"}`` -> inverse
        frequencies, each of shape ``(dim // 2,)``.

    Examples
    --------
    >>> rules = extension_frequencies(128, base=500000.0)
    >>> list(rules)
    ['default', 'linear', 'ntk', 'yarn', 'llama3']
    >>> [float(rules[name][0]) for name in rules]  # the fastest pair
    [1.0, 0.125, 1.0, 1.0, 1.0]
    """
    original = check_int("original_max_position_embeddings", original_max_position_embeddings, minimum=1)
    scale = check_real("factor", factor)
    dim = _check_rotary_dim(dim)
    rules = {
        "default": rope_frequencies(dim, base=base)[0],
        "linear": rope_frequencies(dim, base=base, scaling={"rope_type": "linear", "factor": scale})[0],
        "ntk": rope_frequencies(dim, base=ntk_aware_base(base, scale, dim))[0],
        "yarn": rope_frequencies(
            dim,
            base=base,
            scaling={"rope_type": "yarn", "factor": scale, "original_max_position_embeddings": original},
        )[0],
        "llama3": rope_frequencies(
            dim,
            base=base,
            scaling={
                "rope_type": "llama3",
                "factor": scale,
                "low_freq_factor": low_freq_factor,
                "high_freq_factor": high_freq_factor,
                "original_max_position_embeddings": original,
            },
        )[0],
    }
    return rules


def _query_key_pairs(query, key, inv_freq, base):
    """Validate a query/key pair; return their complex pairs (half layout) and frequencies."""
    query = np.asarray(query)
    key = np.asarray(key)
    for name, vector in (("query", query), ("key", key)):
        if vector.dtype == np.bool_ or vector.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be a real vector, got dtype {vector.dtype}")
        if vector.ndim != 1 or vector.shape[0] < 2 or vector.shape[0] % 2:
            raise ValueError(f"{name} must be a 1-D vector of even length >= 2, got shape {vector.shape}")
        if not np.isfinite(vector).all():
            raise ValueError(f"{name} must be finite")
    if query.shape != key.shape:
        raise ValueError(f"query and key must have the same shape, got {query.shape} and {key.shape}")
    dim = query.shape[0]
    n_pairs = dim // 2
    if inv_freq is None:
        freqs = _default_frequencies(dim, check_base(base))
    else:
        freqs = np.asarray(inv_freq)
        if freqs.dtype.kind not in "iuf" or freqs.shape != (n_pairs,) or not np.isfinite(freqs).all():
            raise ValueError(f"inv_freq must be a finite real array of shape ({n_pairs},)")
        freqs = freqs.astype(np.longdouble)
    q = query.astype(np.float64)
    k = key.astype(np.float64)
    return q[:n_pairs] + 1j * q[n_pairs:], k[:n_pairs] + 1j * k[n_pairs:], freqs


def _offsets(offsets) -> np.ndarray:
    offsets = np.asarray(offsets)
    if offsets.dtype == np.bool_ or offsets.dtype.kind not in "iu" or offsets.ndim != 1:
        raise TypeError(
            f"offsets must be a 1-D array of integers (key - query positions), got {offsets.dtype}, shape {offsets.shape}"
        )
    return offsets


def rope_relative_scores(query, key, offsets, *, base=10000.0, inv_freq=None) -> np.ndarray:
    """The RoPE attention score ``<R(m) q, R(m + r) k>`` for each offset ``r``.

    By the theorem ``rope-relative`` the score does not depend on ``m``;
    with the pairs of the half layout read as complex numbers
    ``z = x[j] + i x[j + dim/2]`` it is ``Re sum_j z_q conj(z_k) e^{-i r w_j}``.

    Parameters
    ----------
    query, key : array_like, shape (dim,)
        Real vectors in the half layout, ``dim`` even.
    offsets : array_like of int, shape (n,)
        Key position minus query position.
    base : float, default 10000.0
    inv_freq : array_like, optional
        Frequencies instead of ``base ** (-2 j / dim)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)``, float64.

    Examples
    --------
    >>> q = np.array([1.0, 0.0]); k = np.array([1.0, 0.0])
    >>> rope_relative_scores(q, k, [0, 1, 2])  # cos(r)
    array([ 1.        ,  0.54030231, -0.41614684])
    """
    z_query, z_key, freqs = _query_key_pairs(query, key, inv_freq, base)
    offsets = _offsets(offsets)
    products = z_query * np.conj(z_key)
    angles = reduced_angles(-offsets, freqs)  # (n, n_pairs)
    return (np.cos(angles) * products.real - np.sin(angles) * products.imag).sum(axis=-1)


def rope_decay_bound(query, key, offsets, *, base=10000.0, inv_freq=None) -> np.ndarray:
    """RoFormer's upper bound on ``|score(r)|`` (Su et al., section 3.4.3).

    With ``h_j = z_q conj(z_k)`` (``h_{d/2} = 0``) and the partial sums
    ``S_j(r) = sum_{k < j} e^{-i r w_k}``, Abel summation gives
    ``|score(r)| <= (max_j |h_{j+1} - h_j|) * sum_{j=1}^{d/2} |S_j(r)|``.
    The bound decays (on average) with ``|r|``; the score itself is not
    monotone in ``|r|``.

    Parameters and Returns are those of :func:`rope_relative_scores`; the
    result is >= ``abs(rope_relative_scores(...))`` everywhere.

    Examples
    --------
    >>> q = np.ones(8); k = np.ones(8)
    >>> bool(np.all(rope_decay_bound(q, k, np.arange(100)) >= abs(rope_relative_scores(q, k, np.arange(100)))))
    True
    """
    z_query, z_key, freqs = _query_key_pairs(query, key, inv_freq, base)
    offsets = _offsets(offsets)
    products = np.append(z_query * np.conj(z_key), 0.0)
    largest_step = np.abs(np.diff(products)).max()
    angles = reduced_angles(-offsets, freqs)
    partial_sums = np.cumsum(np.cos(angles) + 1j * np.sin(angles), axis=-1)  # S_1 .. S_{d/2}
    return largest_step * np.abs(partial_sums).sum(axis=-1)


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
