"""The implementer pages against transformers 5.x itself (opt-in, like the rest of tests/reference).

- The conformance matrix's transformers column: for every case of
  ``CONFORMANCE_CASES``, the family's own rotary module computes cos/sin
  whose worst error against the exact values is the one the reproduction
  (``implementation_cos_sin(..., "transformers")``) gives, entry by entry
  within float32 rounding.
- The "what each key does" tables of the model-config page: for every
  config the page reads and every RoPE key whose removal the table says
  changes nothing or changes some layers, transformers' rotary module built
  from the config without that key computes what ``rope_from_config`` says.
"""

import copy
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from posenc_math import rope_from_config, rope_layers
from posenc_math.encodings.rope_implementations import CONFORMANCE_CASES, implementation_cos_sin, sample_positions
from posenc_math.encodings.rope_keys import _paths, _value_at, config_key_effects

HERE = Path(__file__).resolve().parent
CONFIGS = HERE.parents[0] / "data" / "configs"
PAGE_CONFIGS = HERE.parents[1] / "posenc_math" / "data" / "configs"
UNIT = 2.0**-24

_spec = importlib.util.spec_from_file_location("rope_config_reference", HERE / "test_rope_config_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)


def _rotary(transformers, data):
    hf_config = reference._hf_text_config(transformers, data)
    module, class_name, style = reference.ROTARY[hf_config.model_type]
    return reference._class(module, class_name)(hf_config), style


@pytest.mark.parametrize("label", list(CONFORMANCE_CASES))
def test_conformance_transformers_column_is_transformers(torch, transformers, label):
    name, length = CONFORMANCE_CASES[label]
    data = json.loads((CONFIGS / name).read_text())
    layer = rope_from_config(data)
    positions = sample_positions(length)
    rotary, style = _rotary(transformers, data)
    hf_cos, hf_sin = reference._hf_cos_sin(torch, rotary, style, positions, layer.layer_type)
    half = layer.rotary_dim // 2
    hf_cos, hf_sin = hf_cos[:, :half], hf_sin[:, :half]
    cos, sin = implementation_cos_sin(layer, positions, "transformers", seq_len=length)
    exact_cos, exact_sin = (part[:, :half] for part in layer.cos_sin(positions, seq_len=length))
    inv_freq, factor = layer.frequencies(seq_len=length)
    bound = factor * (4 * UNIT * positions[:, None] * inv_freq[None, :] + 4 * UNIT)
    assert (np.abs(cos - hf_cos) <= bound).all() and (np.abs(sin - hf_sin) <= bound).all()
    theirs = max(np.abs(hf_cos - exact_cos).max(), np.abs(hf_sin - exact_sin).max())
    ours = max(np.abs(cos - exact_cos).max(), np.abs(sin - exact_sin).max())
    assert ours == pytest.approx(theirs, rel=0.05, abs=1e-6), (label, ours, theirs)


def _key_cases():
    cases = []
    for path in sorted(PAGE_CONFIGS.glob("*.json")):
        data = json.loads(path.read_text())
        for effect in config_key_effects(data):
            if effect["status"] != "required":
                cases.append((path.name, effect["key"]))
    return cases


def _without(data, key):
    trial = copy.deepcopy(data)
    text = trial["text_config"] if isinstance(trial.get("text_config"), dict) else trial
    path = tuple(key.split("."))
    if path not in _paths(text):  # keys with dots of their own are not used by these configs
        raise AssertionError(key)
    del _value_at(text, path[:-1])[path[-1]]
    return trial


@pytest.mark.parametrize("name,key", _key_cases())
def test_removing_a_key_changes_what_transformers_computes_as_the_table_says(torch, transformers, name, key):
    data = _without(json.loads((PAGE_CONFIGS / name).read_text()), key)
    rotary, style = _rotary(transformers, data)
    chosen = {}
    for layer in rope_layers(data):
        chosen.setdefault((layer.kind, layer.layer_type), layer)
    positions = np.array([0, 1, 7, 100, 1000, 4095, 4096, 8191, 32767])
    for layer in chosen.values():
        if layer.kind != "rope":
            continue
        if layer.mrope_section is not None:
            positions = np.stack([positions] * 3)
        rotary, style = _rotary(transformers, data)  # fresh: dynamic NTK keeps state
        hf_cos, hf_sin = reference._hf_cos_sin(torch, rotary, style, positions, layer.layer_type)
        cos, sin = layer.cos_sin(positions)
        tolerance = reference._tolerance(layer, positions, int(np.max(positions)) + 1)
        assert (np.abs(cos - hf_cos) <= tolerance).all(), (name, key, layer.layer)
        assert (np.abs(sin - hf_sin) <= tolerance).all(), (name, key, layer.layer)
