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
from ._phase import DoubleDouble, exact_frequencies, frequencies_extended, reduced_angles

__all__ = [
    "ROPE_TYPES",
    "extension_frequencies",
    "interleaved_to_half",
    "ntk_aware_base",
    "rope",
    "rope_cos_sin",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_relative_scores",
]

LAYOUTS = ("half", "interleaved")
#: The ``rope_type`` values :func:`rope_frequencies` accepts.
ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3", "longrope", "proportional")

# Keys each rope_type reads ("rope_type"/"type" and "rope_theta" are
# accepted for every type, as model configs carry them).
_REQUIRED = {
    "default": (),
    "linear": ("factor",),
    "dynamic": ("factor",),
    "yarn": (),  # factor and original_max_position_embeddings, with fallbacks
    "llama3": ("factor", "low_freq_factor", "high_freq_factor"),
    "longrope": ("short_factor", "long_factor"),
    "proportional": (),
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
    "longrope": ("original_max_position_embeddings", "factor", "attention_factor"),
    "proportional": ("factor",),
}
_COMMON = ("rope_type", "type", "rope_theta", "partial_rotary_factor")


def _check_rotary_dim(dim) -> int:
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotary dimensions come in pairs), got {dim}")
    return dim


def _default_frequencies(dim: int, base: float) -> np.ndarray:
    """``base ** (-2 j / dim)`` in extended precision."""
    return frequencies_extended(dim // 2, base, dim // 2)


def _angle_frequencies(dim: int, base: float) -> DoubleDouble:
    """``base ** (-2 j / dim)`` as exact double-doubles, for forming angles.

    :func:`~posenc_math.encodings._phase.reduced_angles` forms ``p w``
    exactly from these, so RoPE angles stay within about 2e-16 of the exact
    reduced angle for every ``|p| <= 2**31`` (longdouble frequencies alone
    leave about 4e-11 there).
    """
    return exact_frequencies(dim // 2, base, dim // 2)


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
    rope_type = check_choice("scaling['rope_type']", rope_type, ROPE_TYPES)
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


def _original_length(scaling: dict, max_position_embeddings, rope_type: str) -> int:
    """The pre-training context length of a ``yarn`` or ``longrope`` rule."""
    original = scaling.get("original_max_position_embeddings")
    if original is None:
        # transformers' standardize_rope_params falls back to the config's
        # max_position_embeddings.
        if max_position_embeddings is None:
            raise ValueError(
                f"rope_type '{rope_type}' needs scaling key 'original_max_position_embeddings' "
                "(or the max_position_embeddings argument to fall back on)"
            )
        original = max_position_embeddings
    return check_int("scaling['original_max_position_embeddings']", original, minimum=1)


def _yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def _yarn(dim, base, scaling, max_position_embeddings):
    original = _original_length(scaling, max_position_embeddings, "yarn")
    if scaling.get("factor") is None:
        if max_position_embeddings is None:
            raise ValueError(
                "rope_type 'yarn' needs scaling key 'factor' (or max_position_embeddings, "
                "to use max_position_embeddings / original_max_position_embeddings)"
            )
        factor = max_position_embeddings / original
        if factor < 1.0:
            raise ValueError(
                "rope_type 'yarn' without scaling['factor'] uses max_position_embeddings / "
                f"original_max_position_embeddings = {max_position_embeddings} / {original} = {factor!r}, "
                "which must be >= 1 (it stretches the context)"
            )
    else:
        factor = _factor(scaling, "yarn")

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
    for name, value in (("beta_fast", beta_fast), ("beta_slow", beta_slow)):
        if value < 0:
            raise ValueError(
                f"scaling['{name}'] must be > 0 (a number of turns over the original context; "
                f"0 or None takes the default), got {value!r}"
            )
    if beta_fast < beta_slow:
        raise ValueError(
            f"scaling needs beta_fast >= beta_slow (defaults 32 and 1), got beta_fast={beta_fast!r}, "
            f"beta_slow={beta_slow!r}"
        )
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


def _ext_factors(name: str, values, n_pairs: int) -> np.ndarray:
    """A longrope factor list: ``n_pairs`` finite numbers > 0."""
    if isinstance(values, (str, bytes, dict)) or np.ndim(values) != 1:
        raise TypeError(f"scaling['{name}'] must be a list of {n_pairs} numbers (one per rotary pair), got {values!r}")
    array = np.asarray(values)
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        raise TypeError(f"scaling['{name}'] must be a list of real numbers, got dtype {array.dtype}")
    if array.shape != (n_pairs,):
        raise ValueError(
            f"scaling['{name}'] must have one factor per rotary pair, {n_pairs} (dim // 2), got {array.shape[0]}"
        )
    if not np.isfinite(array).all() or (array <= 0).any():
        raise ValueError(f"scaling['{name}'] must hold finite numbers > 0, got {values!r}")
    return array.astype(np.longdouble)


def _longrope(dim, base, scaling, seq_len, max_position_embeddings):
    # Both lists are checked whichever is used: a wrong one fails now, not
    # when the context first grows past the original length.
    short = _ext_factors("short_factor", scaling["short_factor"], dim // 2)
    long = _ext_factors("long_factor", scaling["long_factor"], dim // 2)
    original = _original_length(scaling, max_position_embeddings, "longrope")
    attention_factor = scaling.get("attention_factor")
    if attention_factor is None:
        factor = scaling.get("factor")
        if factor is None:
            # Phi-3's configs give no factor: the stretch is the ratio of
            # the two context lengths.
            if max_position_embeddings is None:
                raise ValueError(
                    "rope_type 'longrope' needs scaling key 'factor' or 'attention_factor' (or "
                    "max_position_embeddings, to use max_position_embeddings / original_max_position_embeddings)"
                )
            factor = max_position_embeddings / original
        else:
            factor = check_real("scaling['factor']", factor)
        if factor <= 0:
            raise ValueError(f"scaling['factor'] must be > 0, got {factor!r}")
        if factor <= 1.0:
            attention_factor = 1.0
        elif original == 1:
            raise ValueError(
                "scaling['original_max_position_embeddings'] must be >= 2 for longrope's attention factor "
                "sqrt(1 + ln(factor) / ln(original)); or give scaling['attention_factor']"
            )
        else:
            attention_factor = math.sqrt(1 + math.log(factor) / math.log(original))
    else:
        attention_factor = check_real("scaling['attention_factor']", attention_factor)
        if attention_factor < 0:
            raise ValueError(f"scaling['attention_factor'] must be >= 0, got {attention_factor!r}")
    ext_factors = long if seq_len is not None and seq_len > original else short
    inv_freq = _default_frequencies(dim, base) / ext_factors
    return inv_freq.astype(np.float64), float(attention_factor)


def _proportional(head_dim, base, scaling, rotary_fraction):
    factor = 1.0 if scaling.get("factor") is None else _factor(scaling, "proportional")
    rotated_pairs = int(rotary_fraction * head_dim // 2)
    # The rotated pairs keep the exponents of the whole head (2 j / head_dim);
    # the other pairs get frequency 0 (they do not turn).
    inv_freq = np.zeros(head_dim // 2, dtype=np.longdouble)
    inv_freq[:rotated_pairs] = frequencies_extended(rotated_pairs, base, head_dim // 2)
    return (inv_freq / np.longdouble(factor)).astype(np.float64), 1.0


def _rotary_fraction(scaling: dict, rope_type: str) -> float:
    value = scaling.get("partial_rotary_factor")
    if value is None:
        return 1.0
    value = check_real("scaling['partial_rotary_factor']", value)
    low = 0.0 if rope_type == "proportional" else np.nextafter(0.0, 1.0)
    if not low <= value <= 1.0:
        bound = "0 <= " if rope_type == "proportional" else "0 < "
        raise ValueError(f"scaling['partial_rotary_factor'] must satisfy {bound}value <= 1, got {value!r}")
    return value


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
    ``longrope`` (Phi-3; needs ``short_factor``, ``long_factor``)
        ``w_j / ext_j`` with ``ext = long_factor`` when ``seq_len >
        original_max_position_embeddings`` (falls back to
        ``max_position_embeddings``) and ``short_factor`` otherwise, one
        factor per pair.  Attention factor ``sqrt(1 + ln(factor) /
        ln(original_max_position_embeddings))`` (1 if ``factor <= 1``) unless
        ``attention_factor`` is given; a missing ``factor`` is
        ``max_position_embeddings / original_max_position_embeddings``, as
        transformers derives it for Phi-3's configs.
    ``proportional`` (Gemma 4's full-attention layers)
        ``dim`` is the whole head.  The first ``int(partial_rotary_factor *
        dim // 2)`` pairs keep ``base ** (-2 j / dim)`` (the exponent of the
        whole head, not of the rotated part) and the other pairs get
        frequency 0, so they do not turn; all divided by ``factor`` (default
        1).  The result always has ``dim // 2`` entries.

    ``partial_rotary_factor`` (any other rope_type; GPT-NeoX, Phi, Phi-3)
        ``dim`` is the whole head and the rule runs on the rotated width
        ``int(dim * partial_rotary_factor)``, which must be even: the result
        has that width // 2 entries, for ``rope(..., rotary_dim=width)``.
        Without the key, ``dim`` is the rotated width itself.

    The YaRN ``beta_fast`` and ``beta_slow`` read 0 or None as their
    defaults (32 and 1), as transformers does; negative values, ``beta_fast <
    beta_slow`` and a ``factor`` below 1 are refused.

    transformers computes in float32; this function computes in float64
    (the base powers in extended precision), so the two agree to float32
    rounding.  The YaRN key ``truncate`` exists only in recent transformers;
    earlier versions always truncated, which is the default here too.

    Parameters
    ----------
    dim : int
        Number of rotary dimensions, even, >= 2 (> 2 for ``dynamic``); the
        whole head when ``scaling`` has ``partial_rotary_factor`` or
        ``rope_type`` is ``"proportional"``.
    base : float, default 10000.0
        The model's ``rope_theta``, > 1.
    scaling : dict, optional
        The ``rope_scaling`` / ``rope_parameters`` dict; ``rope_type`` (or the
        legacy ``type``) is one of ``"default"``, ``"linear"``, ``"dynamic"``,
        ``"yarn"``, ``"llama3"``, ``"longrope"``, ``"proportional"``.  Unknown
        keys are refused (a typo would otherwise be ignored silently).
    seq_len : int, optional
        Current sequence length (largest position + 1), >= 1; read by
        ``dynamic`` and ``longrope``.
    max_position_embeddings : int, optional
        The config's ``max_position_embeddings``, >= 1: needed by
        ``dynamic``, a fallback for ``yarn``, ``llama3`` and ``longrope``.

    Returns
    -------
    inv_freq : numpy.ndarray
        Shape ``(dim // 2,)`` (with ``partial_rotary_factor``: the rotated
        width // 2), float64, the angular frequency of each pair.
    attention_factor : float
        The factor transformers multiplies cos and sin by (1.0 except for
        YaRN and LongRoPE); pass it to :func:`rope` or :func:`rope_cos_sin`.

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
    >>> longrope = {"rope_type": "longrope", "short_factor": [1, 1, 2, 4], "long_factor": [1, 2, 4, 8],
    ...             "original_max_position_embeddings": 4096, "factor": 32.0}
    >>> inv_freq, attention = rope_frequencies(8, scaling=longrope, seq_len=5000)
    >>> inv_freq, round(attention, 6)
    (array([1.00e+00, 5.00e-02, 2.50e-03, 1.25e-04]), 1.190238)
    >>> rope_frequencies(8, scaling={"rope_type": "proportional", "partial_rotary_factor": 0.5})
    (array([1. , 0.1, 0. , 0. ]), 1.0)
    >>> rope_frequencies(8, scaling={"rope_type": "default", "partial_rotary_factor": 0.5})
    (array([1.  , 0.01]), 1.0)
    """
    base = check_base(base)
    if max_position_embeddings is not None:
        max_position_embeddings = check_int("max_position_embeddings", max_position_embeddings, minimum=1)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, minimum=1)
    rope_type, scaling = _read_scaling(scaling, base)
    rotary_fraction = _rotary_fraction(scaling, rope_type)
    if rope_type == "proportional":
        return _proportional(_check_rotary_dim(dim), base, scaling, rotary_fraction)
    if "partial_rotary_factor" in scaling and scaling["partial_rotary_factor"] is not None:
        head_dim = check_int("dim", dim, minimum=2)
        dim = int(head_dim * rotary_fraction)  # transformers' rounding
        if dim < 2 or dim % 2:
            raise ValueError(
                f"scaling['partial_rotary_factor'] = {rotary_fraction!r} turns int({head_dim} * "
                f"{rotary_fraction!r}) = {dim} features of a head of dim {head_dim}; that must be even and >= 2"
            )
    dim = _check_rotary_dim(dim)

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
    if rope_type == "longrope":
        return _longrope(dim, base, scaling, seq_len, max_position_embeddings)
    return _llama3(dim, base, scaling, max_position_embeddings)


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

    Pair ``(a, b)`` at position ``p`` with frequency ``w`` becomes
    ``(a cos pw - b sin pw, a sin pw + b cos pw)``, times
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
        first result of :func:`rope_frequencies`.  Finite and real.
    rotary_dim : int, optional
        Turn only the first ``rotary_dim`` features (even, ``<= dim``) and
        pass the others through unchanged, as GPT-NeoX, Phi and Phi-3 do with
        a partial rotary factor (transformers' ``apply_rotary_pos_emb``
        slices ``q[..., :rotary_dim]``).  Default: all of ``dim``, which must
        then be even.
    attention_factor : float, default 1.0
        Multiplies cos and sin, as transformers does with the second result
        of :func:`rope_frequencies` (YaRN, LongRoPE); >= 0.

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
        :func:`rope_frequencies` (not the whole tuple).
    attention_factor : float, default 1.0
        The second result of :func:`rope_frequencies`; >= 0.
    layout : {"half", "interleaved"}

    Returns
    -------
    cos, sin : numpy.ndarray
        Each of shape ``positions.shape + (2 m,)``, float64, the angles
        reduced in extended precision as in :func:`rope`.

    Examples
    --------
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
    freqs: DoubleDouble | np.ndarray
    if inv_freq is None:
        freqs = _angle_frequencies(dim, check_base(base))
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
            "offsets must be a 1-D array of integers (key - query positions), "
            f"got {offsets.dtype}, shape {offsets.shape}"
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
