"""What each RoPE key of a config does, found by taking it out.

:func:`config_key_effects` removes one key at a time from a model's config
(a top-level key such as ``rope_theta`` or ``rope_local_base_freq``, or one
entry of ``rope_scaling`` / ``rope_parameters``), reads the config again as
:func:`~posenc_math.rope_from_config` does (the family's default fills the
gap, as in transformers), and reports which layers compute something else
and what: the base, the rule, the rotated width, the layout, the attention
factor, the wavelengths.  A key whose removal changes nothing is one the
family's default already matches (or one transformers does not read); a
key whose removal makes the config unreadable is required.
:func:`key_effects_markdown` lays the result out as a table.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._words import number_words
from .rope_config import RopeLayer, _text_part, load_config, rope_layers

__all__ = ["ROPE_KEYS", "config_key_effects", "key_effects_markdown"]

#: Top-level keys (of the language model's part) that bear on RoPE.
ROPE_KEYS = (
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "partial_rotary_factor",
    "rotary_pct",
    "rotary_emb_base",
    "rotary_dim",
    "rope_local_base_freq",
    "head_dim",
    "qk_rope_head_dim",
    "qk_nope_head_dim",
    "rope_interleave",
    "max_position_embeddings",
    "original_max_position_embeddings",
    "layer_types",
    "no_rope_layers",
    "no_rope_layer_interval",
    "attn_temperature_tuning",
    "floor_scale",
    "attn_scale",
)

#: Fields of a layer compared, in the order a change is reported.
_FIELDS = (
    "kind",
    "rope_type",
    "base",
    "rotary_dim",
    "layout",
    "attention_factor",
    "mrope_section",
    "mrope_interleaved",
    "score_scale",
    "attn_temperature_tuning",
)


def _paths(text: dict) -> list[tuple[str, ...]]:
    """The RoPE key paths of a text config: top-level keys, then the entries of the rope dicts."""
    paths: list[tuple[str, ...]] = []
    for key in ROPE_KEYS:
        if key not in text:
            continue
        value = text[key]
        if key in ("rope_scaling", "rope_parameters") and isinstance(value, dict):
            for inner, inner_value in value.items():
                if isinstance(inner_value, dict):  # per layer type
                    paths.extend((key, inner, leaf) for leaf in inner_value)
                else:
                    paths.append((key, inner))
        else:
            paths.append((key,))
    return paths


def _value_at(text: dict, path: tuple[str, ...]) -> Any:
    value: Any = text
    for key in path:
        value = value[key]
    return value


def _short(value: Any) -> str:
    """A value for a table cell: lists of more than four numbers summarised."""
    if isinstance(value, list) and len(value) > 4:
        numbers = [item for item in value if isinstance(item, (int, float)) and not isinstance(item, bool)]
        if len(numbers) == len(value):
            return f"{len(value)} numbers, {number_words(min(numbers), 4)} to {number_words(max(numbers), 4)}"
        return f"a list of {len(value)}"
    if isinstance(value, float):
        return number_words(value, 6)
    return repr(value) if isinstance(value, str) else str(value)


def _format(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, float):
        return number_words(value, 6)
    if isinstance(value, tuple):
        return "/".join(str(item) for item in value)
    return str(value)


def _wavelength_change(before: RopeLayer, after: RopeLayer) -> str | None:
    """The pair whose wavelength changes most, and how many pairs change."""
    if before.kind != "rope" or after.kind != "rope":
        return None
    assert before.inv_freq is not None and after.inv_freq is not None
    if before.inv_freq.shape != after.inv_freq.shape:
        return None  # reported as a change of rotary_dim
    if np.array_equal(before.inv_freq, after.inv_freq):
        return None
    old, new = before.wavelengths, after.wavelengths
    with np.errstate(divide="ignore", invalid="ignore"):
        change = np.abs(np.log(new / old))
    change[~np.isfinite(change)] = np.inf
    changed = int(np.sum(~np.isclose(old, new, rtol=1e-12)))
    pair = int(np.argmax(change))
    return (
        f"{changed} of {old.shape[0]} pairs turn at other speeds; most, pair {pair}: "
        f"wavelength {number_words(old[pair], 4)} → {number_words(new[pair], 4)}"
    )


def _changes(before: RopeLayer, after: RopeLayer) -> list[str]:
    found = []
    for name in _FIELDS:
        old, new = getattr(before, name), getattr(after, name)
        if old != new and not (isinstance(old, float) and isinstance(new, float) and np.isclose(old, new, rtol=1e-12)):
            found.append(f"{name} {_format(old)} → {_format(new)}")
    wavelengths = _wavelength_change(before, after)
    if wavelengths is not None:
        found.append(wavelengths)
    return found


def _ranges(indices: list[int]) -> str:
    from .rope_check import _ranges as ranges

    return ranges(indices)


def config_key_effects(config: Mapping[str, Any] | str | os.PathLike[str]) -> list[dict[str, Any]]:
    """What each RoPE key of ``config`` does: the layers that change when it is removed, and how.

    Parameters
    ----------
    config : dict or str or os.PathLike
        A model's config, as for :func:`~posenc_math.rope_from_config`.

    Returns
    -------
    list of dict
        One per key present, in config order of :data:`ROPE_KEYS` (entries
        of ``rope_scaling`` / ``rope_parameters`` one by one, per layer type
        where nested), with ``key`` (the path, ``"rope_scaling.factor"``),
        ``value`` (short text), ``status`` (``"changes"``, ``"default"``:
        removing it changes nothing, or ``"required"``: the config cannot
        be read without it), ``layers`` (the changed layers as ranges),
        ``n_layers_changed``, ``changes`` (``"base 10,000 → 1 million"``, ... for
        the first changed layer; layers that change differently are grouped
        in ``groups``) and ``error`` (the message, for a required key).

    Examples
    --------
    >>> config = {"model_type": "gemma3_text", "num_hidden_layers": 6, "rope_theta": 1000000.0,
    ...           "rope_local_base_freq": 20000.0}
    >>> effect = config_key_effects(config)[1]
    >>> effect["key"], effect["status"], effect["layers"], effect["changes"][0]
    ('rope_local_base_freq', 'changes', '0-4', 'base 20,000 → 10,000')
    """
    loaded = load_config(config)
    text, _model_type = _text_part(loaded)
    nested = text is not loaded
    before = rope_layers(loaded)
    effects = []
    for path in _paths(text):
        trial = copy.deepcopy(loaded)
        trial_text = trial["text_config"] if nested else trial
        parent = _value_at(trial_text, path[:-1])
        del parent[path[-1]]
        effect: dict[str, Any] = {
            "key": ".".join(path),
            "value": _short(_value_at(text, path)),
            "status": "default",
            "layers": "",
            "n_layers_changed": 0,
            "changes": [],
            "groups": [],
            "error": None,
        }
        try:
            after = rope_layers(trial)
        except (ValueError, TypeError) as error:
            effect.update(status="required", error=str(error))
            effects.append(effect)
            continue
        if len(after) != len(before):
            effect.update(
                status="changes",
                changes=[f"num_hidden_layers {len(before)} → {len(after)}"],
                n_layers_changed=len(before),
            )
            effects.append(effect)
            continue
        groups: dict[tuple[str, ...], list[int]] = {}
        for old, new in zip(before, after, strict=True):
            changed = tuple(_changes(old, new))
            if changed:
                groups.setdefault(changed, []).append(old.layer)
        if groups:
            layers = sorted(index for indices in groups.values() for index in indices)
            first = next(iter(groups))
            effect.update(
                status="changes",
                layers=_ranges(layers),
                n_layers_changed=len(layers),
                changes=list(first),
                groups=[{"layers": _ranges(indices), "changes": list(key)} for key, indices in groups.items()],
            )
        effects.append(effect)
    return effects


def key_effects_markdown(effects: list[dict[str, Any]]) -> str:
    """:func:`config_key_effects` as a MyST definition list: each key and value, then what removing it changes.

    A list rather than a table: the changes are sentences, and a list keeps
    them readable on a phone.

    Examples
    --------
    >>> config = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000.0}
    >>> print(key_effects_markdown(config_key_effects(config)))
    `rope_theta` = 10,000
    : without it, nothing changes (the default gives the same)
    """
    items = []
    for effect in effects:
        if effect["status"] == "required":
            without = "the config cannot be read (required)"
        elif effect["status"] == "default":
            without = "nothing changes (the default gives the same)"
        else:
            parts = []
            for group in effect["groups"] or [{"layers": effect["layers"], "changes": effect["changes"]}]:
                where = f"layers {group['layers']}: " if group["layers"] else ""
                parts.append(where + "; ".join(group["changes"]))
            without = "; ".join(parts)
        items.append(f"`{effect['key']}` = {effect['value']}\n: without it, {without}")
    return "\n\n".join(items)
