"""What RoPE a model's ``config.json`` asks for, layer by layer.

:func:`rope_from_config` reads a Hugging Face config (the transformers 4.x
keys ``rope_theta``, ``rope_scaling``, ``partial_rotary_factor``,
``rotary_pct``, ``head_dim``, ... and the 5.x ``rope_parameters``, flat or
per layer type) with each family's own defaults and rules
(:mod:`.rope_families`), and returns a :class:`RopeLayer`: whether the
layer rotates at all, its frequencies as built at construction, its
attention factor, how many features it turns and how it pairs them.
:meth:`RopeLayer.cos_sin` gives the cos/sin caches the family's rotary
module computes for given position ids.  The frequency rules themselves are
:func:`~posenc_math.rope_frequencies`'.
"""

from __future__ import annotations

import copy
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from .._validate import check_int
from ._phase import reduced_angles
from .rope_families import GENERIC, ConfigView, Family, family_of
from .rope_scaling import _OPTIONAL, _REQUIRED, ROPE_TYPES, SCALING_KEYS, resembling, rope_frequencies

__all__ = ["RopeLayer", "load_config", "rope_from_config", "rope_layers"]

#: Sizes beyond any model, refused before lists or tables that large are built.
MAX_LAYERS = 100_000
MAX_HEAD_DIM = 65_536

#: Keys a rotary module reads besides the frequency rule's.
_MODEL_KEYS = ("mrope_section", "mrope_interleaved", "short_mscale", "long_mscale")

#: Top-level keys that bear on RoPE, for catching a misspelled one.
_ROPE_CONFIG_KEYS = (
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "partial_rotary_factor",
    "rotary_pct",
    "rotary_emb_base",
    "rotary_dim",
    "rope_local_base_freq",
    "no_rope_layers",
    "no_rope_layer_interval",
    "qk_rope_head_dim",
    "rope_interleave",
)

#: Published keys that mention RoPE but are not read by transformers' rotary code.
_HARMLESS_KEYS = ("rotary", "use_rope", "position_embedding_type", "rope_type")


def load_config(config) -> dict:
    """A config as a dict: a copy of ``config``, or ``config.json`` read from a path.

    Parameters
    ----------
    config : dict or str or os.PathLike
        What ``json.load`` gives for a ``config.json``, or its path.

    Returns
    -------
    dict

    Examples
    --------
    >>> load_config({"model_type": "llama"})
    {'model_type': 'llama'}
    """
    if isinstance(config, Mapping):
        return copy.deepcopy(dict(config))
    if isinstance(config, (str, bytes, os.PathLike)):
        try:
            with open(config, encoding="utf-8") as stream:
                loaded = json.load(stream)
        except FileNotFoundError:
            raise ValueError(f"config: no such file {os.fsdecode(config)!r}") from None
        except json.JSONDecodeError as error:
            raise ValueError(f"config: {os.fsdecode(config)!r} is not valid JSON ({error})") from None
        if not isinstance(loaded, dict):
            raise ValueError(f"config: {os.fsdecode(config)!r} holds a {type(loaded).__name__}, not a JSON object")
        return loaded
    raise TypeError(f"config must be a dict (a loaded config.json) or a path to one, got {type(config).__name__}")


def _text_part(config: dict) -> tuple[dict, Any]:
    """The language model's part of a config and its ``model_type``.

    Multimodal configs nest it under ``text_config`` (Gemma 3, Llama 4,
    Qwen3-VL); Qwen2-VL's and Qwen2.5-VL's published files keep its keys at
    the top level.
    """
    text = config.get("text_config")
    outer = config.get("model_type")
    if isinstance(text, dict):
        model_type = text.get("model_type")
        if model_type is None and isinstance(outer, str):
            model_type = f"{outer}_text" if family_of(f"{outer}_text") is not GENERIC else outer
        return text, model_type
    if text is not None:
        raise TypeError(f"config['text_config'] must be a dict or null, got {type(text).__name__}")
    return config, outer


def _check_spelling(text: dict) -> list[str]:
    """Refuse a misspelled RoPE key; return notes on unknown RoPE-looking keys."""
    notes = []
    for key in text:
        if not isinstance(key, str) or key in _ROPE_CONFIG_KEYS or key in _HARMLESS_KEYS:
            continue
        if "rope" not in key and "rotary" not in key and "theta" not in key:
            continue
        guess = resembling(key, _ROPE_CONFIG_KEYS)
        if guess is not None and guess not in text:
            raise ValueError(
                f"config key {key!r} is not read by transformers; did you mean {guess!r}? "
                f"(RoPE keys read from a config: {', '.join(_ROPE_CONFIG_KEYS)})"
            )
        notes.append(f"config key {key!r} is not read for RoPE")
    return notes


def _layer_types(view: ConfigView, family: Family, n_layers: int, notes: list[str]) -> list[str]:
    given = view.get("layer_types")
    if given is None:
        layer_types = family.layer_types(view, n_layers)
    else:
        if not isinstance(given, list) or not all(isinstance(item, str) for item in given):
            raise TypeError(f"config['layer_types'] must be a list of strings, got {given!r}")
        if len(given) != n_layers:
            raise ValueError(
                f"config['layer_types'] must have one entry per layer (num_hidden_layers = {n_layers}), "
                f"got {len(given)}"
            )
        layer_types = list(given)
    return family.fix_layer_types(layer_types, notes)


def _where(layer: int, layer_type: str, family: Family) -> str:
    return f"layer {layer} ({layer_type}, {family.name})"


def _layer_parameters(
    parameters: dict, layer: int, layer_type: str, layer_types: list[str], family: Family
) -> dict | None:
    """The flat rope parameters of one layer (None: the config gives that layer type none)."""
    nested = [key for key in parameters if key in layer_types]
    if not nested:
        return parameters
    if layer_type not in parameters:
        raise ValueError(
            f"{_where(layer, layer_type, family)}: the rope parameters are given per layer type "
            f"({', '.join(nested)}) but not for {layer_type!r}"
        )
    return parameters[layer_type]


def _accepted(rope_type: str) -> tuple[str, ...]:
    return ("rope_type", "type", "rope_theta", "partial_rotary_factor", *_REQUIRED[rope_type], *_OPTIONAL[rope_type])


def _scaling_for(parameters: dict, where: str, notes: list[str]) -> tuple[str, dict, dict]:
    """Split a layer's rope parameters into (rope_type, the frequency rule's keys, the model's keys)."""
    parameters = dict(parameters)
    model_keys = {key: parameters.pop(key) for key in _MODEL_KEYS if key in parameters}
    rope_type = parameters.get("rope_type", parameters.get("type", "default"))
    if rope_type == "mrope":  # Qwen2-VL's legacy name for the default rule with sections
        rope_type = "default"
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        guess = resembling(str(rope_type), ROPE_TYPES)
        hint = f" (did you mean {guess!r}?)" if guess else ""
        raise ValueError(
            f"{where}: rope parameter 'rope_type' is {rope_type!r}{hint}; accepted: {', '.join(ROPE_TYPES)}"
        )
    parameters["rope_type"] = rope_type
    parameters.pop("type", None)
    if rope_type == "yarn" and parameters.get("factor") is None:
        # transformers' config validation (_validate_yarn_rope_parameters)
        # requires the key, although the frequency rule could infer it
        raise ValueError(
            f"{where}: rope_type 'yarn' needs rope parameter 'factor' (transformers' config classes refuse a "
            "YaRN config without it)"
        )
    accepted = _accepted(rope_type)
    for key in list(parameters):
        if key in accepted:
            continue
        if key not in SCALING_KEYS:
            guess = resembling(str(key), SCALING_KEYS)
            if guess is not None:
                raise ValueError(
                    f"{where}: rope parameter {key!r} is not a key transformers reads; did you mean {guess!r}? "
                    f"(rope_type {rope_type!r} reads: {', '.join(accepted)})"
                )
        notes.append(f"rope parameter {key!r} is not read by rope_type {rope_type!r}; ignored, as transformers does")
        parameters.pop(key)
    return rope_type, parameters, model_keys


def _sections(value, n_pairs: int, where: str) -> tuple[int, int, int]:
    accepted = f"three integers >= 0 (temporal, height, width pairs) summing to rotary_dim / 2 = {n_pairs}"
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 3
        or not all(isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value)
    ):
        raise ValueError(f"{where}: rope parameter 'mrope_section' must be {accepted}; got {value!r}")
    if sum(value) != n_pairs:
        raise ValueError(
            f"{where}: rope parameter 'mrope_section' must be {accepted}; got {value!r} (sum {sum(value)})"
        )
    return (int(value[0]), int(value[1]), int(value[2]))


def _frozen(value):
    """A read-only copy: dicts as mapping proxies, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def _thawed(value):
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    return value


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64)
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class RopeLayer:
    """The rotary embedding of one layer of a model, read from its config.

    Built by :func:`rope_from_config`; its fields are the parameters below,
    read-only.  Equality is identity (the fields hold arrays and mappings).

    Parameters
    ----------
    kind : str
        ``"rope"``, or ``"nope"``: the layer adds no position information
        (Llama 4's every fourth layer, Cohere 2's full-attention layers).
    inv_freq
        The angular frequency of each rotated pair, a read-only float64
        array of length ``rotary_dim // 2``, as the rotary module builds it
        at construction: dynamic NTK unscaled, LongRoPE with its short
        factors.  None for a NoPE layer.
    attention_factor : float
        What the rotary module multiplies cos and sin by (YaRN, LongRoPE;
        1.0 otherwise).
    rotary_dim : int
        Features turned per head (0 for NoPE); ``proportional`` rope counts
        the whole head, its last pairs with frequency 0.
    head_dim : int
        Features of a query/key head (DeepSeek: ``qk_nope_head_dim +
        qk_rope_head_dim``).
    layout : str
        ``"half"`` or ``"interleaved"``: how the family pairs features when it rotates: ``(j, j + r/2)``
        (``rotate_half``) or ``(2j, 2j + 1)``.
    mrope_section : tuple or None
        Multimodal RoPE's pairs per temporal, height and width id.
    rope_type : str or None
        The frequency rule (``"default"``, ``"linear"``, ``"dynamic"``,
        ``"yarn"``, ``"llama3"``, ``"longrope"``, ``"proportional"``); None
        for NoPE.
    base : float or None
        The layer's ``rope_theta``.
    scaling
        A read-only mapping: the rule's keys, as passed to :func:`~posenc_math.rope_frequencies`
        (read-only; lists as tuples).
    max_position_embeddings : int or None
    original_max_position_embeddings : int or None
        The pre-training context the rule reads (``yarn``, ``llama3``,
        ``longrope``).
    layer : int
    layer_type : str
        ``"full_attention"``, ``"sliding_attention"``, ...
    n_layers : int
    family : str
        The family whose rules were applied (``"generic (Llama-like)"`` for
        a ``model_type`` not in :data:`~posenc_math.encodings.rope_families.FAMILIES`).
    model_type : str or None
    rotary_offset : int
        Index of the first rotated feature within the head (DeepSeek turns
        the last ``qk_rope_head_dim`` features: ``qk_nope_head_dim``).
    longrope_mscale : tuple or None
        Phi-3.5-MoE's ``(short_mscale, long_mscale)``: its attention factor
        below and beyond the original context (its frequencies keep the
        short factors, as transformers computes them).
    mrope_interleaved : bool
        M-RoPE pairs dealt to the three ids in turn (Qwen3-VL) rather than
        in consecutive sections (Qwen2-VL).
    score_scale : float
        A factor on the attention logits besides ``1 / sqrt(head_dim)``:
        DeepSeek's ``mscale(factor, mscale_all_dim) ** 2``.
    attn_temperature_tuning : bool
        Llama 4's NoPE layers scale queries by :meth:`query_scale`.
    floor_scale, attn_scale : float or None
        Llama 4's temperature parameters.
    notes : tuple of str
        How the config was read where transformers does something a reader
        might not expect (keys ignored, values replaced).
    """

    kind: str
    inv_freq: np.ndarray | None
    attention_factor: float
    rotary_dim: int
    head_dim: int
    layout: str
    mrope_section: tuple[int, int, int] | None
    rope_type: str | None
    base: float | None = None
    scaling: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    max_position_embeddings: int | None = None
    original_max_position_embeddings: int | None = None
    layer: int = 0
    layer_type: str = "full_attention"
    n_layers: int = 1
    family: str = ""
    model_type: str | None = None
    rotary_offset: int = 0
    mrope_interleaved: bool = False
    score_scale: float = 1.0
    attn_temperature_tuning: bool = False
    floor_scale: float | None = None
    attn_scale: float | None = None
    notes: tuple[str, ...] = ()
    frequency_dim: int = 0
    longrope_mscale: tuple[float, float] | None = None

    def _check_rope(self) -> None:
        if self.kind != "rope" or self.inv_freq is None:
            raise ValueError(
                f"layer {self.layer} ({self.layer_type}) is a NoPE layer: it has no rotary embedding "
                "(kind 'nope'), so no cos/sin"
            )

    def frequencies(self, *, seq_len=None) -> tuple[np.ndarray, float]:
        """``(inv_freq, attention_factor)`` for a sequence of ``seq_len`` positions.

        Differs from ``inv_freq`` only for ``dynamic`` (beyond
        ``max_position_embeddings``) and ``longrope`` (long factors beyond
        ``original_max_position_embeddings``), the two rules that read the
        sequence length.

        Parameters
        ----------
        seq_len : int, optional
            Largest position + 1, >= 1.  Default: as built at construction.

        Returns
        -------
        inv_freq : numpy.ndarray
        attention_factor : float
        """
        self._check_rope()
        assert self.inv_freq is not None
        if self.longrope_mscale is not None:
            # Phi-3.5-MoE in transformers: the short factors at every length,
            # short_mscale up to the original context, long_mscale beyond it
            long = seq_len is not None and check_int("seq_len", seq_len, minimum=1) > (
                self.original_max_position_embeddings or 0
            )
            return self.inv_freq, self.longrope_mscale[1 if long else 0]
        if seq_len is None or self.rope_type not in ("dynamic", "longrope"):
            if seq_len is not None:
                check_int("seq_len", seq_len, minimum=1)
            return self.inv_freq, self.attention_factor
        assert self.base is not None, "a RoPE layer has a base"
        inv_freq, attention_factor = rope_frequencies(
            self.frequency_dim,
            base=self.base,
            scaling=_thawed(self.scaling),
            seq_len=check_int("seq_len", seq_len, minimum=1),
            max_position_embeddings=self.max_position_embeddings,
        )
        return _read_only(inv_freq), attention_factor

    def _positions(self, positions) -> np.ndarray:
        array = np.asarray(positions)
        if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
            raise TypeError(f"positions must be integers or real numbers, got dtype {array.dtype}")
        if array.dtype.kind == "f" and not np.isfinite(array).all():
            raise ValueError("positions must be finite (found NaN or infinity)")
        # a batch of one, (1, n) or (3, 1, n) as transformers passes position_ids
        while array.ndim > 1 and array.shape[-2] == 1:
            array = array.reshape(*array.shape[:-2], array.shape[-1])
        if self.mrope_section is not None:
            if array.ndim == 1:
                return np.broadcast_to(array, (3, array.shape[0]))  # text tokens: three equal ids
            if array.ndim != 2 or array.shape[0] != 3:
                raise ValueError(
                    "positions of an M-RoPE layer must have shape (3, n) (temporal, height and width ids) "
                    f"or (n,) for text; got shape {array.shape}"
                )
            return array
        if array.ndim != 1:
            raise ValueError(f"positions must have shape (n,), got shape {array.shape}")
        return array

    def _pair_axes(self) -> np.ndarray:
        """Which of the three M-RoPE ids turns each pair."""
        assert self.mrope_section is not None
        n_pairs = self.rotary_dim // 2
        if not self.mrope_interleaved:
            return np.repeat(np.arange(3), self.mrope_section)
        # Qwen3VLTextRotaryEmbedding.recomposition_frequencies: pairs 1, 4,
        # 7, ... below 3 * section[1] take the height id, 2, 5, ... below
        # 3 * section[2] the width id, the rest the temporal id.
        axes = np.zeros(n_pairs, dtype=np.int64)
        for axis in (1, 2):
            axes[axis : min(3 * self.mrope_section[axis], n_pairs) : 3] = axis
        return axes

    def cos_sin(self, positions, *, seq_len=None) -> tuple[np.ndarray, np.ndarray]:
        """The cos and sin caches the family's rotary module builds for ``positions``.

        ``cos[i] = attention_factor * cos(p_i * [w, w])`` (the concatenated
        form ``cat(freqs, freqs)``, whatever the layout; an interleaved
        family pairs column ``j`` with ``j + rotary_dim / 2`` of this form
        when it rotates features ``2j`` and ``2j + 1``), and ``sin`` alike.
        transformers computes the same in float32.

        Parameters
        ----------
        positions : array_like
            Position ids, shape ``(n,)``; an M-RoPE layer takes ``(3, n)``
            (temporal, height, width; ``(n,)`` means text, three equal ids).
            A batch of one, ``(1, n)`` or ``(3, 1, n)`` as transformers passes
            ``position_ids``, is read as ``(n,)`` or ``(3, n)``.  Integers or
            finite reals.
        seq_len : int, optional
            The sequence length ``dynamic`` and ``longrope`` read; default
            ``floor(max(positions)) + 1``, as transformers takes
            ``max(position_ids) + 1``.

        Returns
        -------
        cos, sin : numpy.ndarray
            float64, shape ``(n, rotary_dim)``.

        Examples
        --------
        >>> layer = rope_from_config({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 8})
        >>> cos, sin = layer.cos_sin([0, 1])
        >>> cos.shape, cos[1, [0, 4]]
        ((2, 8), array([0.54030231, 0.54030231]))
        """
        self._check_rope()
        array = self._positions(positions)
        if seq_len is None:
            seq_len = int(np.floor(array.max(initial=0))) + 1 if array.size else 1
            seq_len = max(seq_len, 1)
        inv_freq, attention_factor = self.frequencies(seq_len=seq_len)
        if self.mrope_section is None:
            angles = reduced_angles(array, inv_freq)
        else:
            per_axis = np.stack([reduced_angles(array[axis], inv_freq) for axis in range(3)])
            angles = per_axis[self._pair_axes(), :, np.arange(inv_freq.shape[0])].T
        cos = attention_factor * np.cos(angles)
        sin = attention_factor * np.sin(angles)
        return np.concatenate([cos, cos], axis=-1), np.concatenate([sin, sin], axis=-1)

    def rotate(self, x, positions, *, seq_len=None) -> np.ndarray:
        """Rotate query or key heads as this layer does (a NoPE layer returns them unchanged).

        Features ``rotary_offset .. rotary_offset + rotary_dim`` of each head
        turn, paired by ``layout``, with the angles of :meth:`cos_sin`;
        the others pass through.  The result keeps every feature in its place
        (DeepSeek's transformers code returns the rotated features of its
        interleaved pairs reordered, evens then odds; scores are the same).

        Parameters
        ----------
        x : array_like, shape (..., n, head_dim)
            Real query or key vectors, one row per position.
        positions : array_like
            As for :meth:`cos_sin`.
        seq_len : int, optional
            As for :meth:`cos_sin`.

        Returns
        -------
        numpy.ndarray
            float64, the shape of ``x``.

        Examples
        --------
        >>> layer = rope_from_config({"model_type": "gptj", "n_embd": 64, "n_head": 4, "rotary_dim": 4})
        >>> x = np.zeros((1, 16)); x[0, 0] = 1.0
        >>> layer.rotate(x, [1])[0, :3]  # interleaved: feature 0 turns towards feature 1
        array([0.54030231, 0.84147098, 0.        ])
        """
        array = np.asarray(x)
        if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
            raise TypeError(f"x must be a real array, got dtype {array.dtype}")
        if array.ndim < 2 or array.shape[-1] != self.head_dim:
            raise ValueError(f"x must have shape (..., n, head_dim = {self.head_dim}), got shape {array.shape}")
        out = np.array(array, dtype=np.float64)
        if self.kind == "nope":
            return out
        cos, sin = self.cos_sin(positions, seq_len=seq_len)
        if cos.shape[0] != array.shape[-2]:
            raise ValueError(f"positions give {cos.shape[0]} rows but x has {array.shape[-2]} (its axis -2)")
        half = self.rotary_dim // 2
        cos, sin = cos[:, :half], sin[:, :half]
        start = self.rotary_offset
        block = out[..., start : start + self.rotary_dim]
        if self.layout == "half":
            first, second = block[..., :half].copy(), block[..., half:].copy()
            block[..., :half] = first * cos - second * sin
            block[..., half:] = first * sin + second * cos
        else:
            first, second = block[..., 0::2].copy(), block[..., 1::2].copy()
            block[..., 0::2] = first * cos - second * sin
            block[..., 1::2] = first * sin + second * cos
        return out

    @property
    def wavelengths(self) -> np.ndarray:
        """``2 pi / inv_freq`` per pair (infinite for a pair that does not turn)."""
        self._check_rope()
        assert self.inv_freq is not None
        with np.errstate(divide="ignore"):
            return 2 * np.pi / self.inv_freq

    def query_scale(self, positions) -> np.ndarray:
        """Llama 4's attention temperature on a NoPE layer's queries (1 elsewhere).

        ``log1p(floor((p + 1) / floor_scale)) * attn_scale + 1`` at cache
        position ``p`` (transformers counts ``p`` from the start of the cache,
        not from the position ids).

        Parameters
        ----------
        positions : array_like
            Positions, integers >= 0.

        Returns
        -------
        numpy.ndarray
            float64, the shape of ``positions``.
        """
        array = np.asarray(positions)
        if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
            raise TypeError(f"positions must be integers or real numbers, got dtype {array.dtype}")
        if not (self.attn_temperature_tuning and self.kind == "nope"):
            return np.ones(array.shape)
        assert self.floor_scale is not None and self.attn_scale is not None
        return np.log1p(np.floor((array.astype(np.float64) + 1.0) / self.floor_scale)) * self.attn_scale + 1.0


def _positive_real(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def _build(config: dict, layer) -> RopeLayer:
    text, model_type = _text_part(config)
    family = family_of(model_type)
    notes = _check_spelling(text)
    if family.model_types == ():
        notes.insert(0, f"model_type {model_type!r} is not in the family table; generic (Llama-like) rules applied")
    view = ConfigView(text, family)
    n_layers = view.integer("num_hidden_layers")
    if n_layers > MAX_LAYERS:
        raise ValueError(f"config['num_hidden_layers'] must be at most {MAX_LAYERS}, got {n_layers}")
    if isinstance(layer, (bool, np.bool_)) or not isinstance(layer, (int, np.integer)):
        raise TypeError(f"layer must be an integer in 0 .. {n_layers - 1}, got {layer!r}")
    layer = int(layer)
    if not 0 <= layer < n_layers:
        raise ValueError(f"layer must be in 0 .. {n_layers - 1} (num_hidden_layers = {n_layers}), got {layer}")
    layer_types = _layer_types(view, family, n_layers, notes)
    layer_type = layer_types[layer]
    where = _where(layer, layer_type, family)
    qk_head = family.qk_head(view, layer, layer_type)
    common: dict[str, Any] = {
        "layer": layer,
        "layer_type": layer_type,
        "n_layers": n_layers,
        "family": family.name,
        "model_type": model_type if isinstance(model_type, str) else None,
    }
    max_position_embeddings = view.get("max_position_embeddings")
    if max_position_embeddings is not None:
        max_position_embeddings = check_int("config['max_position_embeddings']", max_position_embeddings, minimum=1)
    common["max_position_embeddings"] = max_position_embeddings

    kind = family.kind(view, layer, layer_type)
    parameters = family.parameters(view, layer_types, notes)
    own = _layer_parameters(parameters, layer, layer_type, layer_types, family)
    if own is None:
        notes.append(f"the rope parameters for layer type {layer_type!r} are null: no rotary embedding")
        kind = "nope"
    rotary_head = family.rotary_head(view, layer, layer_type)
    head_dim = qk_head if qk_head > 0 else rotary_head
    if max(rotary_head, head_dim) > MAX_HEAD_DIM:
        raise ValueError(
            f"{where}: the head must have at most {MAX_HEAD_DIM} features, got {max(rotary_head, head_dim)} "
            "(from head_dim, or hidden_size / num_attention_heads)"
        )
    if kind == "nope":
        extra: dict[str, Any] = {}
        if family.temperature_tuning:
            extra = {
                "attn_temperature_tuning": bool(view.get("attn_temperature_tuning")),
                "floor_scale": _positive_real("config['floor_scale']", view.get("floor_scale")),
                "attn_scale": float(view.get("attn_scale")),
            }
        return RopeLayer(
            "nope", None, 1.0, 0, head_dim, family.layout, None, None, notes=tuple(notes), **common, **extra
        )
    assert own is not None
    if not isinstance(own, dict):
        raise TypeError(f"{where}: the rope parameters must be a dict, got {own!r}")
    rope_type, scaling, model_keys = _scaling_for(own, where, notes)
    base = scaling.get("rope_theta")
    if base is None:
        raise ValueError(f"{where}: missing required key 'rope_theta' (the base; a number > 1)")
    scaling.pop("rope_theta")
    partial = scaling.get("partial_rotary_factor")
    if rope_type == "proportional":
        frequency_dim = rotary_dim = rotary_head
    elif partial is not None and (rope_type != "default" or family.default_rule_partial):
        frequency_dim = rotary_head
        rotary_dim = int(rotary_head * partial) if isinstance(partial, (int, float)) else -1
    else:
        if partial is not None and partial != 1:
            notes.append(
                f"partial_rotary_factor {partial!r} is not applied: {family.name}'s default rule turns the whole head"
            )
        scaling.pop("partial_rotary_factor", None)
        frequency_dim = rotary_dim = rotary_head
    if rotary_dim < 2 or rotary_dim % 2 or rotary_dim > head_dim:
        raise ValueError(
            f"{where}: the rotated width must be an even number of features in 2 .. head_dim = {head_dim}; "
            f"got {rotary_dim} (head {rotary_head}, partial_rotary_factor {partial!r})"
        )
    try:
        inv_freq, attention_factor = rope_frequencies(
            frequency_dim,
            base=base,
            scaling=scaling,
            max_position_embeddings=max_position_embeddings,
        )
    except (ValueError, TypeError) as error:
        raise type(error)(f"{where}: {error}") from None
    original = scaling.get("original_max_position_embeddings") if rope_type in ("yarn", "llama3", "longrope") else None

    mrope_section = None
    interleaved = False
    section = model_keys.get("mrope_section")
    if family.mrope is not None or section is not None:
        if section is None:
            section = family.mrope_section
        mrope_section = _sections(section, rotary_dim // 2, where)
        wanted = model_keys.get("mrope_interleaved")
        if family.mrope is not None:
            interleaved = family.mrope == "interleaved"
            if wanted is not None and bool(wanted) != interleaved:
                notes.append(
                    f"mrope_interleaved {wanted!r} is not read: {family.name} always lays its sections out "
                    f"{'interleaved' if interleaved else 'in consecutive runs'}"
                )
        else:
            interleaved = bool(wanted)
    mscale = None
    if family.longrope_mscale and rope_type == "longrope":
        values = []
        for key in ("short_mscale", "long_mscale"):
            value = model_keys.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise TypeError(f"{where}: rope parameter {key!r} must be a number, got {value!r}")
            values.append(float(value))
        mscale = (values[0], values[1])
        attention_factor = mscale[0]
        notes.append(
            "transformers' Phi-3.5-MoE keeps LongRoPE's short factors at every length and switches only the "
            "attention factor (short_mscale / long_mscale): PhimoeRotaryEmbedding.forward recomputes the "
            "frequencies without seq_len"
        )
    else:
        for key in ("short_mscale", "long_mscale"):
            if key in model_keys:
                notes.append(f"rope parameter {key!r} is read by Phi-3.5-MoE only; ignored")
    layout = family.layout
    if family.name == "DeepSeek-V3" and not view.get("rope_interleave", True):
        layout = "half"
    return RopeLayer(
        "rope",
        _read_only(inv_freq),
        float(attention_factor),
        rotary_dim,
        head_dim,
        layout,
        mrope_section,
        rope_type,
        base=float(base),
        scaling=_frozen(scaling),
        original_max_position_embeddings=original,
        rotary_offset=family.rotary_offset(view),
        mrope_interleaved=interleaved,
        score_scale=float(family.score_scale(view, dict(scaling, rope_type=rope_type))),
        notes=tuple(notes),
        frequency_dim=frequency_dim,
        longrope_mscale=mscale,
        **common,
    )


def rope_from_config(config: Mapping[str, Any] | str | os.PathLike[str], *, layer: int = 0) -> RopeLayer:
    """The rotary embedding of one layer of a model, from its ``config.json``.

    Reads what transformers 5.x reads, with each family's defaults where the
    file is silent (:mod:`~posenc_math.encodings.rope_families`):

    * the 4.x keys ``rope_theta``, ``rope_scaling`` (``rope_type`` or the
      older ``type``), a top-level ``partial_rotary_factor`` and
      ``original_max_position_embeddings``, ``rotary_pct`` /
      ``rotary_emb_base`` (GPT-NeoX), ``rotary_dim`` (GPT-J),
      ``rope_local_base_freq`` (Gemma 3), ``head_dim``;
    * the 5.x ``rope_parameters``, with ``rope_theta`` and
      ``partial_rotary_factor`` inside, flat or per layer type
      (``{"full_attention": {...}, "sliding_attention": {...}}``, chosen by
      ``layer_types`` or the family's default pattern);
    * multimodal configs: the language model under ``text_config``, or at
      the top level (Qwen2-VL's and Qwen2.5-VL's flat files);
    * per layer: Gemma 3's local and global bases, Gemma 4's proportional
      full layers with their wider head, Llama 4's NoPE layers and their
      attention temperature, Cohere 2's NoPE full layers, gpt-oss's sliding
      and full layers, M-RoPE sections (Qwen2-VL consecutive, Qwen3-VL
      interleaved), DeepSeek's decoupled rotary head and ``mscale``.

    Where transformers reads a config in a way one might not expect (a key
    ignored, a value replaced), the layer's ``notes`` say so.
    Keys a rule does not read are ignored, as transformers does, unless they
    look like a misspelling of one it does (``factr``, ``rope_typ``,
    ``rope_thetta``): those are refused with the key they resemble.

    Parameters
    ----------
    config : dict or str or os.PathLike
        A loaded ``config.json`` or its path.
    layer : int, default 0
        Layer index, ``0 <= layer < num_hidden_layers``.

    Returns
    -------
    RopeLayer

    Raises
    ------
    ValueError
        An unknown ``rope_type``, a missing required key, a layer out of
        range, a malformed ``mrope_section``, a misspelled key: the message
        names the key, the layer and what is accepted.
    TypeError
        A config that is not a dict or path, a value of the wrong type.

    Examples
    --------
    >>> llama31 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    ...            "num_hidden_layers": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
    ...            "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
    ...                             "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}
    >>> layer = rope_from_config(llama31, layer=5)
    >>> layer.kind, layer.rope_type, layer.rotary_dim, layer.layout, layer.attention_factor
    ('rope', 'llama3', 128, 'half', 1.0)
    >>> float(layer.inv_freq[0]), float(layer.inv_freq[-1] * 8 / 500000.0 ** (-126 / 128))
    (1.0, 1.0)
    >>> gemma3 = {"model_type": "gemma3_text", "num_hidden_layers": 6, "rope_theta": 1000000.0,
    ...           "rope_local_base_freq": 10000.0, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
    >>> [(layer.layer_type, layer.base, layer.rope_type) for layer in rope_layers(gemma3)][4:]
    [('sliding_attention', 10000.0, 'default'), ('full_attention', 1000000.0, 'linear')]
    >>> rope_from_config({"model_type": "llama4_text", "num_hidden_layers": 8}, layer=3).kind
    'nope'
    """
    return _build(load_config(config), layer)


def rope_layers(config: Mapping[str, Any] | str | os.PathLike[str]) -> list[RopeLayer]:
    """:func:`rope_from_config` for every layer, in order.

    Parameters
    ----------
    config : dict or str or os.PathLike

    Returns
    -------
    list of RopeLayer
        One per layer (``num_hidden_layers``).

    Examples
    --------
    >>> [layer.kind for layer in rope_layers({"model_type": "llama4_text", "num_hidden_layers": 8})]
    ['rope', 'rope', 'rope', 'nope', 'rope', 'rope', 'rope', 'nope']
    """
    loaded = load_config(config)
    first = _build(loaded, 0)
    return [first, *(_build(loaded, layer) for layer in range(1, first.n_layers))]
