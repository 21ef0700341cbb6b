"""rope_from_config against each family's own config class and rotary module in transformers.

For every fixture under tests/data/configs/, transformers builds its config
class from the same dict (``AutoConfig.for_model``) and the family's rotary
module from that; per layer, the cos/sin it computes for a set of position
ids (short, at the dynamic-NTK and LongRoPE switches, long) must match
``RopeLayer.cos_sin`` to float32 rounding, its ``inv_freq`` buffer must
match ``RopeLayer.frequencies`` to float32 rounding, and the attention
module of each layer, built on the meta device (no memory), must agree on
the layer's kind, head size, rotated width and score scale.
"""

import copy
import dataclasses
import importlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

from posenc_math import mrope_positions, rope_from_config, rope_layers
from posenc_math.encodings.rope_check import check_cos_sin

CONFIGS = Path(__file__).resolve().parents[1] / "data" / "configs"
FIXTURES = sorted(path.name for path in CONFIGS.glob("*.json"))

#: float32's unit roundoff.
UNIT = 2.0**-24

# text model_type -> (module, rotary class, how its forward is called and what it returns)
ROTARY = {
    "llama": ("llama", "LlamaRotaryEmbedding", "cat"),
    "qwen2": ("qwen2", "Qwen2RotaryEmbedding", "cat"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3RotaryEmbedding", "cat"),
    "deepseek_v2": ("deepseek_v2", "DeepseekV2RotaryEmbedding", "complex"),
    "mistral": ("mistral", "MistralRotaryEmbedding", "cat"),
    "glm4_moe": ("glm4_moe", "Glm4MoeRotaryEmbedding", "cat"),
    "gpt_oss": ("gpt_oss", "GptOssRotaryEmbedding", "pairs"),
    "phi3": ("phi3", "Phi3RotaryEmbedding", "cat"),
    "phimoe": ("phimoe", "PhimoeRotaryEmbedding", "cat"),
    "phi": ("phi", "PhiRotaryEmbedding", "cat"),
    "gpt_neox": ("gpt_neox", "GPTNeoXRotaryEmbedding", "cat"),
    "gemma3_text": ("gemma3", "Gemma3RotaryEmbedding", "layer_type"),
    "gemma4_text": ("gemma4", "Gemma4TextRotaryEmbedding", "layer_type"),
    "llama4_text": ("llama4", "Llama4TextRotaryEmbedding", "complex"),
    "qwen2_vl_text": ("qwen2_vl", "Qwen2VLRotaryEmbedding", "mrope"),
    "qwen2_5_vl_text": ("qwen2_5_vl", "Qwen2_5_VLRotaryEmbedding", "mrope"),
    "qwen3_vl_text": ("qwen3_vl", "Qwen3VLTextRotaryEmbedding", "mrope"),
    "qwen3_vl_moe_text": ("qwen3_vl_moe", "Qwen3VLMoeTextRotaryEmbedding", "mrope"),
    "gptj": ("gptj", "GPTJRotaryEmbedding", "gptj"),
    "cohere": ("cohere", "CohereRotaryEmbedding", "repeat"),
    "cohere2": ("cohere2", "Cohere2RotaryEmbedding", "repeat"),
    "glm": ("glm", "GlmRotaryEmbedding", "cat"),
    "glm4": ("glm4", "Glm4RotaryEmbedding", "cat"),
}

# text model_type -> attention class, built per layer on the meta device
ATTENTION = {
    "llama": ("llama", "LlamaAttention"),
    "qwen2": ("qwen2", "Qwen2Attention"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3Attention"),
    "deepseek_v2": ("deepseek_v2", "DeepseekV2Attention"),
    "mistral": ("mistral", "MistralAttention"),
    "glm4_moe": ("glm4_moe", "Glm4MoeAttention"),
    "gpt_oss": ("gpt_oss", "GptOssAttention"),
    "phi3": ("phi3", "Phi3Attention"),
    "phimoe": ("phimoe", "PhimoeAttention"),
    "phi": ("phi", "PhiAttention"),
    "gpt_neox": ("gpt_neox", "GPTNeoXAttention"),
    "gemma3_text": ("gemma3", "Gemma3Attention"),
    "gemma4_text": ("gemma4", "Gemma4TextAttention"),
    "llama4_text": ("llama4", "Llama4TextAttention"),
    "qwen2_vl_text": ("qwen2_vl", "Qwen2VLAttention"),
    "qwen2_5_vl_text": ("qwen2_5_vl", "Qwen2_5_VLAttention"),
    "qwen3_vl_text": ("qwen3_vl", "Qwen3VLTextAttention"),
    "qwen3_vl_moe_text": ("qwen3_vl_moe", "Qwen3VLMoeTextAttention"),
    "gptj": ("gptj", "GPTJAttention"),
    "cohere": ("cohere", "CohereAttention"),
    "cohere2": ("cohere2", "Cohere2Attention"),
    "glm": ("glm", "GlmAttention"),
    "glm4": ("glm4", "Glm4Attention"),
}


def _load(name):
    return json.loads((CONFIGS / name).read_text())


def _hf_text_config(transformers, data):
    data = copy.deepcopy(data)  # transformers writes into the nested rope dicts it is given
    model_type = data.pop("model_type")
    config = transformers.AutoConfig.for_model(model_type, **data)
    return config.get_text_config()


def _class(module, name):
    return getattr(importlib.import_module(f"transformers.models.{module}.modeling_{module}"), name)


def _position_sets(layer):
    """Short, at each switch the rule has, and long."""
    sets = {"short": np.arange(40)}
    top = layer.max_position_embeddings or 2048
    if layer.family == "GPT-J":  # a table of n_positions rows: no position beyond it
        sets["table end"] = np.array([0, 1, 2, 100, top - 2, top - 1])
        return sets
    if layer.rope_type == "longrope":
        original = layer.original_max_position_embeddings
        sets["longrope short at the switch"] = np.array([0, 1, 5, original - 2, original - 1])
        sets["longrope long past the switch"] = np.array([0, 1, 5, original - 1, original])
    if layer.rope_type == "dynamic":
        sets["dynamic at max"] = np.array([0, 3, top - 1])
        sets["dynamic past max"] = np.array([0, 3, top, 3 * top - 1])
    sets["long"] = np.array([0, 1, 7, 1000, 4095, 4096, 8191, 8192, 32767, 100_000, 131_071])
    return sets


def _hf_native(torch, rotary, style, positions, layer_type):
    """What the family's rotary module returns for these position ids (batch of 1)."""
    x = torch.zeros(1, dtype=torch.float32)
    ids = torch.from_numpy(np.asarray(positions, dtype=np.int64))
    if style == "mrope":
        ids = ids.reshape(3, 1, -1) if ids.ndim == 2 else ids[None, None, :].expand(3, 1, -1)
        return rotary(x, ids)
    if style == "layer_type":
        return rotary(x, ids[None, :], layer_type)
    return rotary(x, ids[None, :])


def _to_cat(torch, native, style):
    """The native output as (cos, sin) in the concatenated form, float64, one row per position."""
    if style == "gptj":
        sin, cos = native
        cos, sin = torch.cat([cos, cos], -1), torch.cat([sin, sin], -1)
    elif style == "complex":
        cos, sin = native.real, native.imag
        cos, sin = torch.cat([cos, cos], -1), torch.cat([sin, sin], -1)
    else:
        cos, sin = native
        if style == "pairs":
            cos, sin = torch.cat([cos, cos], -1), torch.cat([sin, sin], -1)
        elif style == "repeat":  # [w0, w0, w1, w1, ...] -> [w0, w1, ..., w0, w1, ...]
            cos, sin = cos[..., ::2], sin[..., ::2]
            cos, sin = torch.cat([cos, cos], -1), torch.cat([sin, sin], -1)
    return cos[0].double().numpy(), sin[0].double().numpy()


def _hf_cos_sin(torch, rotary, style, positions, layer_type):
    return _to_cat(torch, _hf_native(torch, rotary, style, positions, layer_type), style)


def _inv_freq_buffer(rotary, style, layer_type):
    if style == "gptj":
        return None
    if style == "layer_type":
        return getattr(rotary, f"{layer_type}_inv_freq")
    return rotary.inv_freq


def _tolerance(layer, positions, seq_len):
    """float32 rounding of the angle p w (a few units of p w) and of cos/sin."""
    inv_freq, attention_factor = layer.frequencies(seq_len=seq_len)
    largest = np.abs(np.asarray(positions)).max(axis=0) if np.ndim(positions) == 2 else np.abs(positions)
    angle = np.asarray(largest, dtype=np.float64)[..., None] * np.concatenate([inv_freq, inv_freq])
    return attention_factor * (8 * UNIT * angle + 8 * UNIT) + 1e-12


def _layers_to_check(name):
    """Every distinct (kind, layer type) once, with its first layer index."""
    chosen = {}
    for layer in rope_layers(CONFIGS / name):
        chosen.setdefault((layer.kind, layer.layer_type), layer.layer)
    return sorted(chosen.values())


CASES = [(name, index) for name in FIXTURES for index in _layers_to_check(name)]


@pytest.mark.parametrize("name,index", CASES)
def test_cos_sin_match_the_family_rotary_module(torch, transformers, name, index):
    data = _load(name)
    hf_config = _hf_text_config(transformers, data)
    layer = rope_from_config(data, layer=index)
    model_type = hf_config.model_type
    module, class_name, style = ROTARY[model_type]
    if layer.kind == "nope":
        pytest.skip("NoPE layer: no rotary embedding (its kind is checked against the attention module)")
    position_sets = _position_sets(layer)
    if layer.mrope_section is not None:
        position_sets["vision grids"] = mrope_positions([5, (1, 4, 6), 3, (2, 3, 3), 4])
    checked = 0
    for label, positions in position_sets.items():
        rotary = _class(module, class_name)(hf_config)  # fresh: dynamic NTK keeps state
        hf_cos, hf_sin = _hf_cos_sin(torch, rotary, style, positions, layer.layer_type)
        seq_len = int(np.max(positions)) + 1
        cos, sin = layer.cos_sin(positions, seq_len=seq_len)
        default_cos, default_sin = layer.cos_sin(positions)
        assert np.array_equal(cos, default_cos) and np.array_equal(sin, default_sin), "seq_len default"
        assert cos.shape == hf_cos.shape, (label, cos.shape, hf_cos.shape)
        tolerance = _tolerance(layer, positions, seq_len)
        for ours, theirs, what in ((cos, hf_cos, "cos"), (sin, hf_sin, "sin")):
            excess = np.abs(ours - theirs) - tolerance
            worst = np.unravel_index(np.argmax(excess), excess.shape)
            assert excess.max() <= 0, (
                f"{name} layer {index} {label}: {what} differs by {np.abs(ours - theirs)[worst]:.3g} at "
                f"row {worst[0]} column {worst[1]} (tolerance {tolerance[worst]:.3g})"
            )
        buffer = _inv_freq_buffer(rotary, style, layer.layer_type)
        # PhimoeRotaryEmbedding's buffer takes the long factors past the switch,
        # but its forward recomputes the short ones and uses those (the cos/sin
        # checked above): the buffer is not what it computes with.
        if buffer is not None and model_type != "phimoe":
            inv_freq, attention_factor = layer.frequencies(seq_len=seq_len)
            theirs = buffer.double().numpy()
            assert theirs.shape == inv_freq.shape
            assert np.allclose(inv_freq, theirs, rtol=8 * UNIT, atol=0), f"{name} layer {index} {label}: inv_freq"
            scaling = (
                getattr(rotary, f"{layer.layer_type}_attention_scaling")
                if style == "layer_type"
                else getattr(rotary, "attention_scaling", 1.0)
            )
            if model_type != "phimoe":  # its forward multiplies by short_mscale / long_mscale instead
                assert math.isclose(attention_factor, float(scaling), rel_tol=1e-6), "attention factor"
        checked += 1
    assert checked == len(position_sets)


def _attention(torch, hf_config, model_type, index):
    module, class_name = ATTENTION[model_type]
    with torch.device("meta"):
        return _class(module, class_name)(hf_config, index)


@pytest.mark.parametrize("name", FIXTURES)
def test_layer_kinds_and_sizes_match_the_attention_modules(torch, transformers, name):
    data = _load(name)
    hf_config = _hf_text_config(transformers, data)
    model_type = hf_config.model_type
    layers = rope_layers(data)
    assert len(layers) == hf_config.num_hidden_layers
    layer_types = getattr(hf_config, "layer_types", None)
    for layer in layers:
        if layer_types is not None:
            assert layer.layer_type == layer_types[layer.layer], (layer.layer, layer.layer_type)
    # one attention module per distinct layer description (meta device: no memory)
    for index in sorted({layer.layer for layer in layers if layer.layer < 8 or layer.layer == len(layers) - 1}):
        layer = layers[index]
        attention = _attention(torch, hf_config, model_type, index)
        head_dim = getattr(attention, "head_dim", None) or getattr(attention, "head_size", None)
        if model_type in ("deepseek_v3", "deepseek_v2"):
            head_dim = attention.qk_head_dim
            expected_scaling = attention.qk_head_dim**-0.5 * layer.score_scale
            assert math.isclose(attention.scaling, expected_scaling, rel_tol=1e-12)
            assert attention.qk_nope_head_dim == layer.rotary_offset
            assert attention.qk_rope_head_dim == layer.rotary_dim
        assert head_dim == layer.head_dim, (index, head_dim, layer.head_dim)
        if model_type == "llama4_text":
            assert bool(attention.use_rope) == (layer.kind == "rope"), index
            if layer.kind == "nope":
                assert bool(attention.attn_temperature_tuning) == layer.attn_temperature_tuning
                assert attention.floor_scale == layer.floor_scale and attention.attn_scale == layer.attn_scale
        elif model_type == "cohere2":
            # Cohere2Attention rotates only when it has a sliding window
            assert (attention.sliding_window is not None) == (layer.kind == "rope"), index
        else:
            assert layer.kind == "rope", index
        if model_type in ("phi", "gpt_neox"):
            assert attention.rotary_ndims == layer.rotary_dim
        if model_type == "gptj":
            assert attention.rotary_dim == layer.rotary_dim


def test_every_family_of_the_issue_has_a_fixture():
    """The families issue 23 names, each mirrored by at least one fixture."""
    families = {rope_from_config(CONFIGS / name).family for name in FIXTURES}
    wanted = {
        "Llama",
        "Qwen2",
        "DeepSeek-V3",
        "gpt-oss",
        "Phi-3",
        "GPT-NeoX (Pythia)",
        "Phi (Phi-1, Phi-2)",
        "Gemma 3",
        "Gemma 4",
        "Llama 4",
        "Qwen2-VL",
        "Qwen2.5-VL",
        "Qwen3-VL",
        "GPT-J",
        "Cohere (Command R)",
        "GLM",
    }
    assert wanted <= families, wanted - families
    rope_types = {layer.rope_type for name in FIXTURES for layer in rope_layers(CONFIGS / name)}
    assert {"default", "linear", "dynamic", "yarn", "llama3", "longrope", "proportional"} <= rope_types


def _hf_rotate(torch, model_type, native, q, layer):
    """Rotate q (batch, heads, n, head_dim) with the family's own apply function and cos/sin."""
    module = ROTARY[model_type][0]
    modeling = importlib.import_module(f"transformers.models.{module}.modeling_{module}")
    q = torch.from_numpy(q)
    if model_type == "deepseek_v2":  # complex frequencies on the last qk_rope_head_dim features
        nope, rot = q[..., : layer.rotary_offset], q[..., layer.rotary_offset :]
        turned, _ = modeling.apply_rotary_emb(rot, rot, native.to(torch.complex64))
        return torch.cat([nope, turned], -1).numpy()
    if model_type == "llama4_text":
        # (batch, n, heads, dim) and complex frequencies
        out, _ = modeling.apply_rotary_emb(q.transpose(1, 2), q.transpose(1, 2), native.to(torch.complex128))
        return out.transpose(1, 2).numpy()
    if model_type == "gptj":
        sin, cos = (part.double() for part in native)
        rotary_dim = layer.rotary_dim
        q = q.transpose(1, 2)  # (batch, n, heads, dim)
        turned = modeling.apply_rotary_pos_emb(q[..., :rotary_dim], sin, cos)
        return torch.cat([turned, q[..., rotary_dim:]], -1).transpose(1, 2).numpy()
    cos, sin = (part.double() for part in native)
    if model_type == "deepseek_v3":
        nope, rot = q[..., : layer.rotary_offset], q[..., layer.rotary_offset :]
        apply = (
            modeling.apply_rotary_pos_emb_interleave if layer.layout == "interleaved" else modeling.apply_rotary_pos_emb
        )
        turned, _ = apply(rot, rot, cos, sin)
        return torch.cat([nope, turned], -1).numpy()
    if model_type == "gemma4_text":
        return modeling.apply_rotary_pos_emb(q, cos, sin, unsqueeze_dim=1).numpy()
    if model_type == "phi":  # PhiAttention slices the rotated part itself
        rot, rest = q[..., : layer.rotary_dim], q[..., layer.rotary_dim :]
        turned, _ = modeling.apply_rotary_pos_emb(rot, rot, cos, sin)
        return torch.cat([turned, rest], -1).numpy()
    turned, _ = modeling.apply_rotary_pos_emb(q, q, cos, sin)
    return turned.numpy()


SCORE_CASES = [(name, index) for name, index in CASES if rope_from_config(CONFIGS / name, layer=index).kind == "rope"]


@pytest.mark.parametrize("name,index", SCORE_CASES)
def test_rotation_pairs_features_as_the_family_does(torch, transformers, name, index, rng):
    """Scores q_m . k_n after RopeLayer.rotate equal those after the family's own
    apply function: the layout, the rotated width and its offset in the head."""
    data = _load(name)
    hf_config = _hf_text_config(transformers, data)
    model_type = hf_config.model_type
    layer = rope_from_config(data, layer=index)
    module, class_name, style = ROTARY[model_type]
    positions = np.arange(24) if layer.mrope_section is None else mrope_positions([4, (1, 3, 4), 8])
    n = positions.shape[-1]
    q = rng.normal(size=(1, 2, n, layer.head_dim)) / math.sqrt(layer.head_dim)
    k = rng.normal(size=(1, 2, n, layer.head_dim)) / math.sqrt(layer.head_dim)
    native = _hf_native(torch, _class(module, class_name)(hf_config), style, positions, layer.layer_type)
    theirs = _hf_rotate(torch, model_type, native, q, layer) @ np.swapaxes(
        _hf_rotate(torch, model_type, native, k, layer), -1, -2
    )
    ours = layer.rotate(q, positions) @ np.swapaxes(layer.rotate(k, positions), -1, -2)
    # cos/sin in float32: each within ~8 u (p w + 1) of exact, times |q| |k| (about 1 here)
    scale = layer.attention_factor**2 * 16 * UNIT * (float(np.max(positions)) * float(layer.inv_freq.max()) + 1)
    assert np.abs(ours - theirs).max() <= 4 * scale, np.abs(ours - theirs).max()
    # the control: the other layout gives other scores (every family here turns >= 2 pairs)
    other = "half" if layer.layout == "interleaved" else "interleaved"
    wrong = dataclasses.replace(layer, layout=other)
    swapped = wrong.rotate(q, positions) @ np.swapaxes(wrong.rotate(k, positions), -1, -2)
    assert np.abs(swapped - theirs).max() > 100 * scale


# --- check-config --compare on transformers' own caches -----------------------------------


def _native_dump(torch, native, style):
    """transformers' caches as someone would dump them: its own columns, float32."""
    if style == "gptj":
        sin, cos = native
    elif style == "complex":
        cos, sin = native.real, native.imag
    else:
        cos, sin = native
    return cos[0].float().numpy(), sin[0].float().numpy()


@pytest.mark.parametrize("name,index", SCORE_CASES)
def test_check_cos_sin_accepts_transformers_caches(torch, transformers, name, index):
    """transformers' cos/sin, in the columns its rotary module returns (concatenated,
    one per pair, or repeated), agree with the exact values to float32's bound."""
    data = _load(name)
    hf_config = _hf_text_config(transformers, data)
    module, class_name, style = ROTARY[hf_config.model_type]
    layer = rope_from_config(data, layer=index)
    for label, positions in _position_sets(layer).items():
        native = _hf_native(torch, _class(module, class_name)(hf_config), style, positions, layer.layer_type)
        cos, sin = _native_dump(torch, native, style)
        result = check_cos_sin(data, cos, sin, positions=positions, layer=index)
        assert result.agrees, (label, result.worst_error, result.tolerance, result.form)


def _float32_cat(torch, inv_freq, positions, factor=1.0):
    angles = torch.from_numpy(np.asarray(positions))[:, None].float() * inv_freq.float()
    angles = torch.cat([angles, angles], -1)
    return (angles.cos() * factor).numpy(), (angles.sin() * factor).numpy()


def test_mistakes_made_with_transformers_code_are_named(torch, transformers):
    """Each mistake, committed with transformers' own modules on a wrongly read config,
    is what check_cos_sin names."""
    from transformers.modeling_rope_utils import _compute_longrope_parameters

    def hf(name, **changes):
        data = _load(name)
        text = data.get("text_config", data)
        text.update(changes)
        return data, _hf_text_config(transformers, data)

    def module(config, model_type=None):
        mod, class_name, _ = ROTARY[model_type or config.model_type]
        return _class(mod, class_name)(config)

    def named(config_name, cos, sin, positions, index=0):
        return check_cos_sin(_load(config_name), cos, sin, positions=positions, layer=index).explanation

    x = torch.zeros(1)
    ids = np.arange(600)
    position_ids = torch.from_numpy(ids)[None]

    # Gemma 3: the sliding layers' caches used on a full-attention layer
    _, config = hf("gemma-3-4b-it.json")
    cos, sin = module(config)(x, position_ids, "sliding_attention")
    assert named("gemma-3-4b-it.json", cos[0].numpy(), sin[0].numpy(), ids, 5) == "local_global_swapped"

    # gpt-oss: YaRN with the default truncation
    _, config = hf("gpt-oss-20b.json")
    config.rope_parameters["truncate"] = True
    cos, sin = module(config)(x, position_ids)
    assert named("gpt-oss-20b.json", cos[0].numpy(), sin[0].numpy(), ids) == "yarn_truncation"

    # Phi-3.5: the short factors still in use at seq_len 4097
    _, config = hf("phi-3.5-mini-instruct.json")
    inv_freq, factor = _compute_longrope_parameters(config, seq_len=4096)
    at_switch = np.r_[0:50, 4090:4097]
    cos, sin = _float32_cat(torch, inv_freq, at_switch, factor)
    assert named("phi-3.5-mini-instruct.json", cos, sin, at_switch) == "longrope_switch"

    # Pythia: the whole head turned (rotary_pct read as 1)
    _, config = hf("pythia-70m.json", rotary_pct=1.0)
    cos, sin = module(config)(x, position_ids)
    assert named("pythia-70m.json", cos[0].numpy(), sin[0].numpy(), ids) == "partial_rotary_ignored"

    # Qwen2.5 YaRN: the attention factor left out
    _, config = hf("qwen2.5-7b-instruct_yarn.json")
    rotary = module(config)
    cos, sin = rotary(x, position_ids)
    cos, sin = cos[0].numpy() / rotary.attention_scaling, sin[0].numpy() / rotary.attention_scaling
    assert named("qwen2.5-7b-instruct_yarn.json", cos, sin, ids) == "missing_attention_factor"

    # Llama 2 with dynamic NTK: the trained base kept past 4096
    _, config = hf("llama-2-7b-hf_dynamic-ntk.json", rope_scaling=None)
    long_ids = np.r_[0:50, 5990:6000]
    cos, sin = module(config)(x, torch.from_numpy(long_ids)[None])
    assert named("llama-2-7b-hf_dynamic-ntk.json", cos[0].numpy(), sin[0].numpy(), long_ids) == (
        "dynamic_ntk_not_applied"
    )

    # Qwen3-VL's sections laid out as Qwen2.5-VL's
    _, config = hf("qwen3-vl-8b-instruct.json")
    grid = mrope_positions([3, (2, 6, 6), 3])
    cos, sin = module(config, "qwen2_5_vl_text")(x, torch.from_numpy(grid)[:, None, :])
    assert named("qwen3-vl-8b-instruct.json", cos[0].numpy(), sin[0].numpy(), grid) == "mrope_section_layout"

    # Llama 2: Cohere's interleaved caches for a half-layout model
    _, config = hf("llama-2-7b-hf.json")
    cos, sin = module(config, "cohere")(x, position_ids)
    assert named("llama-2-7b-hf.json", cos[0].numpy(), sin[0].numpy(), ids) == "wrong_layout"

    # position ids in bfloat16 before the angles
    cos, sin = module(config)(x, position_ids.to(torch.bfloat16))
    assert named("llama-2-7b-hf.json", cos[0].numpy(), sin[0].numpy(), ids) == "positions_in_bfloat16"
