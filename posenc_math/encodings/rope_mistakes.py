"""Known mistakes in RoPE implementations, each computed so it can be recognised.

When someone's cos/sin caches differ from a model's, the difference usually
has one of a few causes: the pairs laid out the other way, the attention
factor left out, Gemma 3's local and global bases swapped, LongRoPE's short
and long factors switched one position too early or late, the partial
rotary factor ignored, YaRN's ramp truncated when the model says not to,
dynamic NTK not applied past the trained length, M-RoPE's sections laid out
the other way, positions rounded to bfloat16.  :func:`mistaken_cos_sin`
computes what each mistake gives for one layer of a config, so a dump can be
matched against them (``posenc-math check-config --compare``) and a page can
show the wrong and the right computation side by side.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .rope_config import RopeLayer, _thawed, load_config, rope_from_config, rope_layers
from .rope_scaling import rope_frequencies

__all__ = ["MISTAKES", "Mistake", "mistake", "mistaken_cos_sin"]

CosSin = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Mistake:
    """One known way of getting a layer's cos/sin wrong.

    Attributes
    ----------
    name : str
        Stable identifier (``"wrong_layout"``).
    title : str
        What to call it in a report.
    description : str
        What the wrong code does.
    """

    name: str
    title: str
    description: str


#: The mistakes :func:`mistaken_cos_sin` computes, in the order they are tried.
MISTAKES = (
    Mistake(
        "wrong_layout",
        "wrong layout",
        "the angles laid out for pairs (2j, 2j + 1), each repeated twice in a row, where the model pairs "
        "(j, j + rotary_dim / 2) and concatenates [angles, angles]",
    ),
    Mistake(
        "missing_attention_factor",
        "missing attention factor",
        "cos and sin not multiplied by the attention factor (YaRN's 0.1 ln(factor) + 1, LongRoPE's "
        "sqrt(1 + ln(factor) / ln(original)))",
    ),
    Mistake(
        "local_global_swapped",
        "local/global base swapped",
        "the layer computed with the rope parameters of the other layer type (Gemma 3: the local base 10 000 "
        "and no scaling on full-attention layers, or the global base and its scaling on sliding ones)",
    ),
    Mistake(
        "longrope_switch",
        "LongRoPE switch off by one",
        "LongRoPE's short and long factors chosen on the wrong side of the switch: the long factors from "
        "seq_len >= original_max_position_embeddings, or from max(position) > original instead of "
        "max(position) + 1 > original",
    ),
    Mistake(
        "partial_rotary_ignored",
        "partial rotary ignored",
        "the whole head turned, with frequencies base ** (-2 j / head_dim), where the model turns only the "
        "first rotary_dim features (or, for proportional rope, leaves the last pairs still)",
    ),
    Mistake(
        "partial_rotary_exponent",
        "partial rotary with the head's exponent",
        "the first rotary_dim features turned, but with the frequencies of the whole head, base ** "
        "(-2 j / head_dim), where the model uses base ** (-2 j / rotary_dim)",
    ),
    Mistake(
        "yarn_truncation",
        "YaRN truncation",
        "YaRN's ramp bounds floored and ceiled where the config says truncate: false (gpt-oss), or left "
        "unrounded where it does not",
    ),
    Mistake(
        "dynamic_ntk_not_applied",
        "dynamic NTK not applied",
        "the trained base kept past max_position_embeddings, where dynamic NTK raises it to "
        "base * (factor * seq_len / max - (factor - 1)) ** (d / (d - 2))",
    ),
    Mistake(
        "mrope_section_layout",
        "M-RoPE sections laid out the other way",
        "M-RoPE pairs taken from the three position ids in consecutive sections (Qwen2-VL) where the model "
        "deals them in turn (Qwen3-VL), or the reverse",
    ),
    Mistake(
        "positions_in_bfloat16",
        "positions in bfloat16",
        "the position ids rounded to bfloat16 (8 significant bits: every id above 256 moves) before the "
        "angles are formed, as under bfloat16 autocast",
    ),
)

_BY_NAME = {mistake.name: mistake for mistake in MISTAKES}


def _seq_len(layer: RopeLayer, positions, seq_len) -> int:
    if seq_len is not None:
        return int(seq_len)
    array = np.asarray(positions)
    return max(int(np.floor(array.max(initial=0))) + 1, 1) if array.size else 1


def _with_frequencies(layer: RopeLayer, inv_freq: np.ndarray, attention_factor: float) -> RopeLayer:
    """The layer with other frequencies (fixed: they no longer depend on seq_len)."""
    inv_freq = np.array(inv_freq, dtype=np.float64)
    inv_freq.flags.writeable = False
    return dataclasses.replace(
        layer,
        inv_freq=inv_freq,
        attention_factor=float(attention_factor),
        rotary_dim=2 * inv_freq.shape[0],
        rope_type="default" if layer.rope_type in ("dynamic", "longrope") else layer.rope_type,
        head_dim=max(layer.head_dim, 2 * inv_freq.shape[0]),
    )


def _wrong_layout(layer, positions, seq_len, config) -> CosSin | None:
    if layer.layout != "half" or layer.rotary_dim < 4:
        return None
    cos, sin = layer.cos_sin(positions, seq_len=seq_len)
    half = layer.rotary_dim // 2
    return np.repeat(cos[:, :half], 2, axis=1), np.repeat(sin[:, :half], 2, axis=1)


def _missing_factor(layer, positions, seq_len, config) -> CosSin | None:
    factor = layer.frequencies(seq_len=seq_len)[1]
    if factor == 1.0 or factor == 0.0:
        return None
    cos, sin = layer.cos_sin(positions, seq_len=seq_len)
    return cos / factor, sin / factor


def _swapped(layer, positions, seq_len, config) -> CosSin | None:
    for other in rope_layers(config):
        if other.kind != "rope" or other.layer_type == layer.layer_type:
            continue
        same = other.rotary_dim == layer.rotary_dim and other.base == layer.base
        if same and np.array_equal(np.asarray(other.inv_freq), np.asarray(layer.inv_freq)):
            continue
        if (other.mrope_section is None) != (layer.mrope_section is None):
            continue
        return other.cos_sin(positions, seq_len=seq_len)
    return None


def _longrope_switch(layer, positions, seq_len, config) -> CosSin | None:
    if layer.rope_type != "longrope" or layer.original_max_position_embeddings is None:
        return None
    original = layer.original_max_position_embeddings
    other_length = original if seq_len > original else original + 1
    inv_freq, factor = layer.frequencies(seq_len=other_length)
    return _with_frequencies(layer, inv_freq, factor).cos_sin(positions)


def _head_rule(layer: RopeLayer) -> tuple[dict, int]:
    """The layer's scaling dict and width with the partial factor dropped (the whole head)."""
    scaling = _thawed(layer.scaling)
    scaling.pop("partial_rotary_factor", None)
    if layer.rope_type == "proportional":
        scaling["rope_type"] = "linear" if scaling.get("factor") not in (None, 1, 1.0) else "default"
        if scaling["rope_type"] == "default":
            scaling.pop("factor", None)
    return scaling, layer.head_dim


def _partial_ignored(layer, positions, seq_len, config) -> CosSin | None:
    frozen = layer.rope_type == "proportional" and bool(np.any(layer.inv_freq == 0))
    if layer.rotary_dim >= layer.head_dim and not frozen:
        return None
    scaling, width = _head_rule(layer)
    try:
        inv_freq, factor = rope_frequencies(
            width,
            base=layer.base,
            scaling=scaling,
            seq_len=seq_len,
            max_position_embeddings=layer.max_position_embeddings,
        )
    except (ValueError, TypeError):  # e.g. LongRoPE factors for the rotated pairs only
        return None
    return _with_frequencies(layer, inv_freq, factor).cos_sin(positions)


def _partial_exponent(layer, positions, seq_len, config) -> CosSin | None:
    if layer.rotary_dim >= layer.head_dim or layer.rope_type == "proportional":
        return None
    inv_freq, factor = layer.frequencies(seq_len=seq_len)
    n_pairs = layer.rotary_dim // 2
    ratio = layer.base ** (-2.0 * np.arange(n_pairs) / layer.head_dim) / layer.base ** (
        -2.0 * np.arange(n_pairs) / layer.rotary_dim
    )
    return _with_frequencies(layer, inv_freq * ratio, factor).cos_sin(positions)


def _yarn_truncation(layer, positions, seq_len, config) -> CosSin | None:
    if layer.rope_type != "yarn":
        return None
    scaling = _thawed(layer.scaling)
    scaling["truncate"] = not scaling.get("truncate", True)
    inv_freq, factor = rope_frequencies(
        layer.frequency_dim, base=layer.base, scaling=scaling, max_position_embeddings=layer.max_position_embeddings
    )
    if np.array_equal(inv_freq, layer.inv_freq):
        return None
    return _with_frequencies(layer, inv_freq, factor).cos_sin(positions)


def _dynamic_not_applied(layer, positions, seq_len, config) -> CosSin | None:
    if layer.rope_type != "dynamic":
        return None
    if np.array_equal(layer.frequencies(seq_len=seq_len)[0], layer.inv_freq):
        return None
    return _with_frequencies(layer, layer.inv_freq, layer.attention_factor).cos_sin(positions)


def _mrope_layout(layer, positions, seq_len, config) -> CosSin | None:
    if layer.mrope_section is None:
        return None
    return dataclasses.replace(layer, mrope_interleaved=not layer.mrope_interleaved).cos_sin(positions, seq_len=seq_len)


def _bfloat16_positions(layer, positions, seq_len, config) -> CosSin | None:
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover - the precision extra is missing
        return None
    array = np.asarray(positions)
    rounded = array.astype(ml_dtypes.bfloat16).astype(np.float64)
    if np.array_equal(rounded, array):
        return None
    return layer.cos_sin(rounded, seq_len=seq_len)


_COMPUTE: dict[str, Callable[..., CosSin | None]] = {
    "wrong_layout": _wrong_layout,
    "missing_attention_factor": _missing_factor,
    "local_global_swapped": _swapped,
    "longrope_switch": _longrope_switch,
    "partial_rotary_ignored": _partial_ignored,
    "partial_rotary_exponent": _partial_exponent,
    "yarn_truncation": _yarn_truncation,
    "dynamic_ntk_not_applied": _dynamic_not_applied,
    "mrope_section_layout": _mrope_layout,
    "positions_in_bfloat16": _bfloat16_positions,
}


def mistaken_cos_sin(config, positions, *, layer=0, seq_len=None) -> dict[str, CosSin]:
    """What each known mistake gives for one layer's cos/sin.

    Only mistakes that change something for this layer and these positions
    are returned: a wrong layout for a half-layout layer, a missing
    attention factor where it is not 1, swapped layer types where the
    types differ, the LongRoPE switch for ``longrope``, an ignored partial
    rotary factor where one applies, flipped YaRN truncation where it moves
    a frequency, dynamic NTK left out past ``max_position_embeddings``, the
    other M-RoPE section layout, positions rounded to bfloat16 where one
    moves (needs ``ml_dtypes``).  For an interleaved family the two layouts
    give the same caches (only the pairing of q and k differs), so no
    layout mistake is listed.

    Parameters
    ----------
    config : dict or str or os.PathLike
        A model's config, as for :func:`~posenc_math.rope_from_config`.
    positions : array_like
        Position ids, as for :meth:`~posenc_math.RopeLayer.cos_sin`.
    layer : int, default 0
    seq_len : int, optional
        Default ``floor(max(positions)) + 1``.

    Returns
    -------
    dict
        Mistake name (see :data:`MISTAKES`) -> ``(cos, sin)``, float64, in
        the concatenated form; the shape can differ from the layer's
        (``partial_rotary_ignored`` turns the whole head).

    Examples
    --------
    >>> config = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
    ...           "max_position_embeddings": 64,
    ...           "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16}}
    >>> sorted(mistaken_cos_sin(config, range(8)))
    ['missing_attention_factor', 'wrong_layout']
    >>> cos, sin = mistaken_cos_sin(config, range(8))["missing_attention_factor"]
    >>> float(cos[0, 0])
    1.0
    """
    loaded = load_config(config)
    rope_layer = rope_from_config(loaded, layer=layer)
    if rope_layer.kind != "rope":
        return {}
    positions = np.asarray(positions)
    rope_layer.cos_sin(positions, seq_len=seq_len)  # validates positions and seq_len
    length = _seq_len(rope_layer, positions, seq_len)
    exact_cos, exact_sin = rope_layer.cos_sin(positions, seq_len=length)
    found = {}
    for mistake in MISTAKES:
        result = _COMPUTE[mistake.name](rope_layer, positions, length, loaded)
        if result is None:
            continue
        cos, sin = result
        if cos.shape == exact_cos.shape and np.array_equal(cos, exact_cos) and np.array_equal(sin, exact_sin):
            continue  # no difference at these positions
        found[mistake.name] = result
    return found


def mistake(name: str) -> Mistake:
    """The :class:`Mistake` called ``name``."""
    if name not in _BY_NAME:
        raise ValueError(f"name must be one of {', '.join(_BY_NAME)}; got {name!r}")
    return _BY_NAME[name]
