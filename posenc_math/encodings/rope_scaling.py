"""RoPE's frequencies and the rules that stretch them (model configs' ``rope_scaling``).

Pair ``j`` of a ``dim``-wide rotary vector turns with
``w_j = base ** (-2 j / dim)``; :func:`rope_frequencies` applies a rule of a
model config's ``rope_scaling`` / ``rope_parameters`` (position
interpolation, dynamic NTK, YaRN, Llama 3, LongRoPE, proportional) as
transformers does, :func:`ntk_aware_base` and :func:`extension_frequencies`
compare the rules.  Applying the rotation is :mod:`.rope`'s job.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validate import check_base, check_choice, check_int, check_real, check_table_fits
from ._phase import DoubleDouble, exact_frequencies, frequencies_extended

__all__ = [
    "ROPE_TYPES",
    "SCALING_KEYS",
    "extension_frequencies",
    "ntk_aware_base",
    "resembling",
    "rope_frequencies",
    "yarn_ramp",
]

#: The ``rope_type`` values of a config's ``rope_scaling`` that :func:`rope_frequencies` reads.
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

#: Every key some rope_type reads, for suggesting the one a misspelled key resembles.
SCALING_KEYS = tuple(
    dict.fromkeys(_COMMON + tuple(key for keys in (*_REQUIRED.values(), *_OPTIONAL.values()) for key in keys))
)


def resembling(word: str, candidates) -> str | None:
    """The candidate ``word`` most resembles (difflib ratio >= 0.75), or None.

    Examples
    --------
    >>> resembling("factr", SCALING_KEYS), resembling("rope_typ", SCALING_KEYS)
    ('factor', 'rope_type')
    >>> resembling("finetuned", SCALING_KEYS) is None
    True
    """
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.75)
    return matches[0] if matches else None


def _unknown_key_message(key: str, rope_type: str, accepted: tuple[str, ...]) -> str:
    """What to say about a key that ``rope_type`` does not read."""
    if key in SCALING_KEYS:
        readers = [name for name in ROPE_TYPES if key in _REQUIRED[name] + _OPTIONAL[name]]
        return (
            f"scaling key {key!r} is read by rope_type {' / '.join(repr(name) for name in readers)}, not {rope_type!r}"
        )
    guess = resembling(key, accepted)
    if guess is not None:
        return f"scaling key {key!r} is not a key rope_type {rope_type!r} reads; did you mean {guess!r}?"
    guess = resembling(key, SCALING_KEYS)
    if guess is not None:
        other = [name for name in ROPE_TYPES if guess in _REQUIRED[name] + _OPTIONAL[name]]
        return (
            f"scaling key {key!r} is not a key rope_type {rope_type!r} reads; it resembles {guess!r}, "
            f"which rope_type {' / '.join(repr(name) for name in other)} reads"
        )
    return f"scaling key {key!r} is not used by rope_type {rope_type!r}"


def _check_rotary_dim(dim: object) -> int:
    dim = check_int("dim", dim, minimum=2)
    if dim % 2:
        raise ValueError(f"dim must be even (rotary dimensions come in pairs), got {dim}")
    # dim / 2 frequencies, in extended precision and as double-doubles, a few arrays at a time
    check_table_fits((dim // 2,), 64, f"dim={dim}")
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
    for key in scaling:
        if key not in SCALING_KEYS and resembling(str(key), ("rope_type",)):
            raise ValueError(
                f"scaling key {key!r} is not a scaling key; did you mean 'rope_type'? (without it the rule is "
                f"'default' or the legacy 'type'); accepted rope_type values: {', '.join(ROPE_TYPES)}"
            )
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    if isinstance(rope_type, str) and rope_type not in ROPE_TYPES and (guess := resembling(rope_type, ROPE_TYPES)):
        raise ValueError(
            f"scaling['rope_type'] must be one of {', '.join(repr(name) for name in ROPE_TYPES)}; "
            f"got {rope_type!r} (did you mean {guess!r}?)"
        )
    rope_type = check_choice("scaling['rope_type']", rope_type, ROPE_TYPES)
    accepted = _COMMON + _REQUIRED[rope_type] + _OPTIONAL[rope_type]
    unknown = sorted(set(scaling) - set(accepted), key=str)
    if unknown:
        messages = "; ".join(_unknown_key_message(str(key), rope_type, accepted) for key in unknown)
        raise ValueError(f"{messages}; keys rope_type {rope_type!r} accepts: {', '.join(accepted)}")
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

    extrapolation = _default_frequencies(dim, base).astype(np.float64)
    interpolation = extrapolation / factor
    ramp = _yarn_index_ramp(dim, base, original, beta_fast, beta_slow, truncate)
    # ramp 0: keep the frequency (fast pairs); ramp 1: divide by the factor
    inv_freq = interpolation * ramp + extrapolation * (1.0 - ramp)
    return inv_freq, float(attention_factor)


def _yarn_index_ramp(dim, base, original, beta_fast, beta_slow, truncate=True) -> np.ndarray:
    """YaRN's ramp as its reference code and transformers compute it: linear in the pair index."""

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
    return np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)


def yarn_ramp(
    dim: int,
    *,
    base: float = 10000.0,
    original_max_position_embeddings: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    form: str = "code",
) -> np.ndarray:
    """YaRN's blend per pair: 0 keeps pair ``j``'s frequency, 1 divides it by the factor.

    Pair ``j`` turns ``r_j = L w_j / (2 pi)`` times over the trained context
    ``L``; pairs with ``r_j >= beta_fast`` are kept, pairs with
    ``r_j <= beta_slow`` divided, and the ones between blended by a ramp.
    The paper and the code differ in the ramp:

    - ``form="code"``: linear in the pair index ``j``, between the indices
      where ``r_j`` equals ``beta_fast`` (floored) and ``beta_slow``
      (ceiled), clamped to ``[0, dim - 1]``.  This is YaRN's reference code
      (``find_correction_range``, ``linear_ramp_mask``) and transformers'
      ``_compute_yarn_parameters``, what :func:`rope_frequencies` computes
      for ``rope_type="yarn"`` and what models run;
    - ``form="paper"``: linear in ``r_j`` itself, ``1 - clamp((r_j -
      beta_slow) / (beta_fast - beta_slow), 0, 1)``, the ramp of the paper's
      section 3.2 (its ``gamma(r)`` with ``alpha = beta_slow``, ``beta =
      beta_fast``, read as the share of interpolation).

    Parameters
    ----------
    dim : int
        Rotary dimensions, even, >= 2.
    base : float, default 10000.0
        The trained base, > 1.
    original_max_position_embeddings : int
        The trained context ``L``.
    beta_fast, beta_slow : float, default 32 and 1
        Turns over ``L`` above which a pair is kept, below which it is
        divided; ``beta_fast > beta_slow > 0``.
    form : {"code", "paper"}, default "code"

    Returns
    -------
    numpy.ndarray
        Shape ``(dim // 2,)``, values in ``[0, 1]``.

    References
    ----------
    Peng, Quesnelle, Fan and Shippole, "YaRN: Efficient Context Window
    Extension of Large Language Models", ICLR 2024, section 3.2; the code:
    github.com/jquesnelle/yarn, ``scaled_rope/LlamaYaRNScaledRotaryEmbedding.py``.

    Examples
    --------
    >>> code = yarn_ramp(128, base=500000.0, original_max_position_embeddings=8192)
    >>> paper = yarn_ramp(128, base=500000.0, original_max_position_embeddings=8192, form="paper")
    >>> int(np.sum(code == 0)), int(np.sum(code == 1))
    (19, 29)
    >>> int(np.sum(paper == 0)), int(np.sum(paper == 1))
    (19, 29)
    >>> round(float(np.abs(code - paper).max()), 2)
    0.37
    """
    dim = _check_rotary_dim(dim)
    base = check_base(base)
    original = check_int("original_max_position_embeddings", original_max_position_embeddings, minimum=1)
    beta_fast = check_real("beta_fast", beta_fast)
    beta_slow = check_real("beta_slow", beta_slow)
    if not 0 < beta_slow < beta_fast:
        raise ValueError(f"need 0 < beta_slow < beta_fast, got beta_slow={beta_slow!r}, beta_fast={beta_fast!r}")
    form = check_choice("form", form, ("code", "paper"))
    if form == "code":
        return _yarn_index_ramp(dim, base, original, beta_fast, beta_slow)
    turns = original * _default_frequencies(dim, base).astype(np.float64) / (2 * math.pi)
    return 1.0 - np.clip((turns - beta_slow) / (beta_fast - beta_slow), 0.0, 1.0)


def _llama3(dim, base, scaling, max_position_embeddings):
    factor = _factor(scaling, "llama3")
    low_freq_factor = check_real("scaling['low_freq_factor']", scaling["low_freq_factor"])
    high_freq_factor = check_real("scaling['high_freq_factor']", scaling["high_freq_factor"])
    if not 0 < low_freq_factor <= high_freq_factor:
        raise ValueError(
            "scaling needs 0 < low_freq_factor <= high_freq_factor, got "
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
    result = np.where(wavelength > low_freq_wavelength, inv_freq / factor, inv_freq)
    if low_freq_factor == high_freq_factor:
        # No band in between (Llama 4 Scout: both 1): a sharp cut at the
        # original context.  A wavelength exactly on the cut would be 0 / 0
        # in transformers' smoothing; it keeps its frequency here.
        return result, 1.0
    smooth = (original / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq / factor + smooth * inv_freq
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


def rope_frequencies(
    dim: int,
    *,
    base: float = 10000.0,
    scaling: Mapping[str, Any] | None = None,
    seq_len: int | None = None,
    max_position_embeddings: int | None = None,
) -> tuple[np.ndarray, float]:
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
        low_freq_factor)``: ``(1 - s) w / factor + s w``.  With ``low_freq_factor ==
        high_freq_factor`` (Llama 4 Scout: both 1) there is no band in
        between, only the cut.
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

    A key the rule does not read is refused, and the message names the key
    it resembles (``factr`` -> ``factor``, ``rope_typ`` -> ``rope_type``).

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
        YaRN and LongRoPE); pass it to :func:`~posenc_math.rope` or :func:`~posenc_math.rope_cos_sin`.

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
        # factor * L / M - (factor - 1), written so that L = M gives exactly 1
        scale = factor * (length - max_position_embeddings) / max_position_embeddings + 1.0
        try:
            new_base = base * scale ** (dim / (dim - 2))
        except OverflowError:
            new_base = math.inf
        if not math.isfinite(new_base):
            raise ValueError(
                f"rope_type 'dynamic': the base grows past float64 (base {base!r}, scaling['factor'] {factor!r}, "
                f"seq_len {length}, max_position_embeddings {max_position_embeddings})"
            )
        return _default_frequencies(dim, new_base).astype(np.float64), 1.0
    if rope_type == "yarn":
        return _yarn(dim, base, scaling, max_position_embeddings)
    if rope_type == "longrope":
        return _longrope(dim, base, scaling, seq_len, max_position_embeddings)
    return _llama3(dim, base, scaling, max_position_embeddings)


def ntk_aware_base(base: float, scale: float, dim: int) -> float:
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
    dim: int,
    *,
    base: float = 10000.0,
    factor: float = 8.0,
    original_max_position_embeddings: int = 8192,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> dict[str, np.ndarray]:
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
