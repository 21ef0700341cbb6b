"""rope_from_config: published configs (trimmed, under tests/data/configs) read layer by layer.

The expected values are computed here from the rules themselves
(rope_frequencies, the formulas of each family), not copied from the reader;
the opt-in tests/reference suite compares the same fixtures with
transformers' own modules.
"""

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from posenc_math import RopeLayer, mrope, rope, rope_frequencies, rope_from_config, rope_layers
from posenc_math.encodings.rope_families import FAMILIES, family_of

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"
FIXTURES = sorted(path.name for path in CONFIGS.glob("*.json"))


def load(name):
    return json.loads((CONFIGS / name).read_text())


def kinds(name):
    return [layer.kind for layer in rope_layers(CONFIGS / name)]


@pytest.mark.parametrize("name", FIXTURES)
def test_every_fixture_reads_every_layer(name):
    data = load(name)
    layers = rope_layers(CONFIGS / name)
    text = data.get("text_config", data)
    assert len(layers) == text.get("num_hidden_layers", text.get("n_layer"))
    for layer in layers:
        assert isinstance(layer, RopeLayer)
        if layer.kind == "rope":
            assert layer.inv_freq.shape == (layer.rotary_dim // 2,)
            assert layer.inv_freq.dtype == np.float64 and not layer.inv_freq.flags.writeable
            assert 2 <= layer.rotary_dim <= layer.head_dim
            cos, sin = layer.cos_sin(np.arange(5))
            assert cos.shape == sin.shape == (5, layer.rotary_dim)
            assert np.allclose(cos[0], layer.attention_factor) and np.allclose(sin[0], 0.0)
        else:
            assert layer.inv_freq is None and layer.rope_type is None and layer.rotary_dim == 0


def test_a_path_and_the_loaded_dict_give_the_same_layer():
    by_path = rope_from_config(CONFIGS / "llama-3.1-8b-instruct.json", layer=3)
    by_dict = rope_from_config(load("llama-3.1-8b-instruct.json"), layer=3)
    by_text = rope_from_config(str(CONFIGS / "llama-3.1-8b-instruct.json"), layer=3)
    assert np.array_equal(by_path.inv_freq, by_dict.inv_freq) and np.array_equal(by_text.inv_freq, by_dict.inv_freq)


def test_the_config_given_is_not_changed():
    data = load("gemma-3-4b-it.json")
    before = json.dumps(data, sort_keys=True)
    rope_layers(data)
    assert json.dumps(data, sort_keys=True) == before


# --- Llama: 2, 3.1 (4.x and 5.x keys), linear, dynamic NTK ----------------------


def test_llama_2_default():
    layer = rope_from_config(CONFIGS / "llama-2-7b-hf.json", layer=31)
    assert (layer.rope_type, layer.base, layer.rotary_dim, layer.layout) == ("default", 10000.0, 128, "half")
    assert np.allclose(layer.inv_freq, 10000.0 ** (-np.arange(0, 128, 2) / 128), rtol=1e-15)


@pytest.mark.parametrize("name", ["llama-3.1-8b-instruct.json", "llama-3.1-8b-instruct_transformers5.json"])
def test_llama_3_1_reads_4x_and_5x_keys_alike(name):
    layer = rope_from_config(CONFIGS / name)
    scaling = {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
    expected, _ = rope_frequencies(128, base=500000.0, scaling=scaling)
    assert np.array_equal(layer.inv_freq, expected)
    assert layer.original_max_position_embeddings == 8192 and layer.max_position_embeddings == 131072


def test_linear_divides_every_frequency():
    layer = rope_from_config(CONFIGS / "vicuna-7b-v1.5-16k.json")
    plain = rope_from_config(CONFIGS / "llama-2-7b-hf.json")
    assert layer.rope_type == "linear" and np.allclose(layer.inv_freq * 4, plain.inv_freq, rtol=1e-15)


def test_dynamic_ntk_reads_seq_len():
    layer = rope_from_config(CONFIGS / "llama-2-7b-hf_dynamic-ntk.json")
    plain = rope_from_config(CONFIGS / "llama-2-7b-hf.json")
    assert np.array_equal(layer.inv_freq, plain.inv_freq)  # as built: unscaled
    # up to max_position_embeddings (4096) nothing changes
    assert np.array_equal(layer.cos_sin(np.arange(4096))[0], plain.cos_sin(np.arange(4096))[0])
    # one past it, the base grows to b (2 * 4097 / 4096 - 1) ** (128 / 126)
    positions = np.array([0, 5, 4096])
    base = 10000.0 * (2.0 * 4097 / 4096 - 1.0) ** (128 / 126)
    expected = np.outer(positions, base ** (-np.arange(0, 128, 2) / 128))
    assert np.allclose(layer.cos_sin(positions)[0][:, :64], np.cos(expected), atol=1e-12)
    # seq_len given explicitly wins over the positions
    assert np.array_equal(layer.cos_sin(positions, seq_len=4096)[0], plain.cos_sin(positions)[0])
    inv_freq, factor = layer.frequencies(seq_len=8192)
    assert factor == 1.0 and inv_freq[-1] < plain.inv_freq[-1]


# --- Qwen2.5 YaRN, DeepSeek-V3, gpt-oss -----------------------------------------


def test_qwen2_5_yarn():
    layer = rope_from_config(CONFIGS / "qwen2.5-7b-instruct_yarn.json")
    assert layer.rope_type == "yarn" and layer.rotary_dim == 128
    assert math.isclose(layer.attention_factor, 0.1 * math.log(4.0) + 1.0, rel_tol=1e-15)
    cos, _ = layer.cos_sin([0])
    assert np.allclose(cos, layer.attention_factor)


def test_deepseek_v3_decoupled_rotary_head():
    layer = rope_from_config(CONFIGS / "deepseek-v3.json", layer=60)
    assert (layer.rotary_dim, layer.head_dim, layer.rotary_offset, layer.layout) == (64, 192, 128, "interleaved")
    assert layer.attention_factor == 1.0  # mscale / mscale_all_dim, both 1
    assert math.isclose(layer.score_scale, (0.1 * math.log(40) + 1.0) ** 2, rel_tol=1e-15)
    assert layer.original_max_position_embeddings == 4096
    # rotate turns only the last 64 features, in pairs (2j, 2j + 1)
    x = np.zeros((1, 192))
    x[0, 128] = 1.0
    turned = layer.rotate(x, [3])
    assert np.allclose(turned[0, :128], 0.0) and np.allclose(turned[0, 128:130], [math.cos(3), math.sin(3)])


def test_deepseek_rope_interleave_false_is_half():
    assert rope_from_config(CONFIGS / "edge_deepseek-v3_rope-interleave-false.json").layout == "half"


def test_gpt_oss_yarn_without_truncation_on_sliding_and_full_layers():
    layers = rope_layers(CONFIGS / "gpt-oss-20b.json")
    assert [layer.layer_type for layer in layers[:4]] == ["sliding_attention", "full_attention"] * 2
    scaling = {
        "rope_type": "yarn",
        "factor": 32.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "original_max_position_embeddings": 4096,
    }
    untruncated, factor = rope_frequencies(64, base=150000.0, scaling=dict(scaling, truncate=False))
    truncated, _ = rope_frequencies(64, base=150000.0, scaling=scaling)
    assert not np.array_equal(untruncated, truncated)
    for layer in layers[:2]:
        assert np.array_equal(layer.inv_freq, untruncated) and layer.attention_factor == factor
    defaults = rope_from_config(CONFIGS / "edge_gpt-oss-20b_class-defaults.json")
    assert np.array_equal(defaults.inv_freq, untruncated) and defaults.base == 150000.0


# --- Phi-3.5 LongRoPE, Phi-4-mini, Phi-2, Pythia -----------------------------------


def test_phi_3_5_longrope_switches_past_the_original_context():
    data = load("phi-3.5-mini-instruct.json")
    layer = rope_from_config(data)
    short = 10000.0 ** (-np.arange(0, 96, 2) / 96) / np.array(data["rope_scaling"]["short_factor"])
    long = 10000.0 ** (-np.arange(0, 96, 2) / 96) / np.array(data["rope_scaling"]["long_factor"])
    assert np.allclose(layer.inv_freq, short, rtol=1e-14)
    assert math.isclose(layer.attention_factor, math.sqrt(1 + math.log(131072 / 4096) / math.log(4096)))
    # seq_len = max(position) + 1: 4096 keeps the short factors, 4097 takes the long ones
    at, past = layer.cos_sin(np.arange(4096)), layer.cos_sin(np.arange(4097))
    assert np.allclose(at[0][1, :48], layer.attention_factor * np.cos(short), atol=1e-13)
    assert np.allclose(past[0][1, :48], layer.attention_factor * np.cos(long), atol=1e-13)
    assert np.allclose(layer.frequencies(seq_len=4097)[0], long, rtol=1e-14)


def test_phi_3_reads_the_top_level_original_context():
    layer = rope_from_config(CONFIGS / "edge_phi-3.5-mini_original-inside-rope-scaling.json")
    assert layer.original_max_position_embeddings == 4096  # Phi3Config's default wins over the 8192 inside
    assert any("replaced by the top-level value 4096" in note for note in layer.notes)


def test_phi_3_5_moe_switches_only_its_mscale_as_transformers_does():
    data = load("edge_phi-3.5-moe_short-mscale-1.json")
    layer = rope_from_config(data)
    short = 10000.0 ** (-np.arange(0, 128, 2) / 128) / np.array(data["rope_scaling"]["short_factor"])
    assert np.allclose(layer.inv_freq, short, rtol=1e-14) and layer.attention_factor == 1.0
    inv_freq, factor = layer.frequencies(seq_len=4097)
    assert np.array_equal(inv_freq, layer.inv_freq) and factor == data["rope_scaling"]["long_mscale"]
    assert layer.frequencies(seq_len=4096)[1] == 1.0
    assert any("short factors at every length" in note for note in layer.notes)


def test_phi_4_mini_partial_longrope():
    layer = rope_from_config(CONFIGS / "phi-4-mini-instruct.json")
    assert (layer.rotary_dim, layer.head_dim, layer.rope_type) == (96, 128, "longrope")
    x = np.arange(128.0)[None, :]
    assert np.array_equal(layer.rotate(x, [7])[0, 96:], x[0, 96:])  # the last 32 pass through


@pytest.mark.parametrize(
    "name,rotary_dim,head_dim",
    [("phi-2.json", 32, 80), ("pythia-70m.json", 16, 64), ("glm-4-9b-chat-hf.json", 64, 128)],
)
def test_partial_rotary(name, rotary_dim, head_dim):
    layer = rope_from_config(CONFIGS / name)
    assert (layer.rotary_dim, layer.head_dim) == (rotary_dim, head_dim)
    assert np.allclose(layer.inv_freq, 10000.0 ** (-np.arange(0, rotary_dim, 2) / rotary_dim), rtol=1e-15)


def test_gpt_neox_reads_its_own_keys_only():
    layer = rope_from_config(CONFIGS / "edge_pythia-70m_generic-rope-keys.json")
    assert (layer.base, layer.rotary_dim) == (10000.0, 16)  # not rope_theta 20000, not partial 0.5
    assert len(layer.notes) == 2


def test_llama_does_not_apply_a_partial_factor_to_its_default_rule():
    layer = rope_from_config(CONFIGS / "edge_llama-2-7b_partial-rotary-not-read.json")
    assert layer.rotary_dim == 128 and "not applied" in layer.notes[0]


# --- Gemma 3 and Gemma 4 --------------------------------------------------------------


@pytest.mark.parametrize("name", ["gemma-3-4b-it.json", "gemma-3-4b-it_transformers5.json"])
def test_gemma_3_local_and_global_layers(name):
    layers = rope_layers(CONFIGS / name)
    assert [layer.layer_type for layer in layers[:6]] == ["sliding_attention"] * 5 + ["full_attention"]
    local, full = layers[0], layers[5]
    assert (local.base, local.rope_type, full.base, full.rope_type) == (10000.0, "default", 1e6, "linear")
    assert np.allclose(local.inv_freq, 10000.0 ** (-np.arange(0, 256, 2) / 256), rtol=1e-15)
    assert np.allclose(full.inv_freq, 1e6 ** (-np.arange(0, 256, 2) / 256) / 8, rtol=1e-15)
    assert layers[33].layer_type == "sliding_attention" and layers[29].layer_type == "full_attention"


def test_gemma_3_nested_yarn_ignores_truncate_as_transformers_does():
    layer = rope_from_config(CONFIGS / "edge_gemma-3-1b_yarn-truncate-false-nested.json", layer=5)
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192}
    assert np.array_equal(layer.inv_freq, rope_frequencies(256, base=1e6, scaling=scaling)[0])
    assert any("truncate" in note for note in layer.notes)


def test_gemma_4_proportional_full_layers():
    layers = rope_layers(CONFIGS / "gemma-4-style_proportional.json")
    sliding, full = layers[0], layers[5]
    assert (sliding.head_dim, sliding.rotary_dim, sliding.base) == (256, 256, 10000.0)
    assert (full.head_dim, full.rotary_dim, full.rope_type) == (512, 512, "proportional")
    # 0.25 of the head's 256 pairs turn, with the exponents of the whole head; the rest are frozen
    assert np.allclose(full.inv_freq[:64], 1e6 ** (-np.arange(0, 128, 2) / 512), rtol=1e-15)
    assert np.all(full.inv_freq[64:] == 0) and np.isinf(full.wavelengths[64:]).all()
    forced = rope_layers(CONFIGS / "edge_gemma-4-style_last-layer-forced-full.json")
    assert forced[-1].layer_type == "full_attention" and "forces the last layer" in forced[-1].notes[0]


# --- Llama 4, Cohere 2: NoPE layers ---------------------------------------------------


def test_llama_4_nope_layers_and_their_temperature():
    layers = rope_layers(CONFIGS / "llama-4-scout-17b-16e-instruct.json")
    assert [layer.kind for layer in layers[:8]] == ["rope", "rope", "rope", "nope"] * 2
    rope_layer, nope_layer = layers[0], layers[3]
    assert rope_layer.layout == "interleaved" and rope_layer.layer_type == "chunked_attention"
    # llama3 with low_freq_factor == high_freq_factor == 1: a sharp cut at wavelength 8192
    wavelengths = 2 * np.pi / (500000.0 ** (-np.arange(0, 128, 2) / 128))
    expected = np.where(wavelengths > 8192, 1 / 16, 1.0) * 500000.0 ** (-np.arange(0, 128, 2) / 128)
    assert np.allclose(rope_layer.inv_freq, expected, rtol=1e-15)
    assert nope_layer.attn_temperature_tuning and nope_layer.floor_scale == 8192
    scale = nope_layer.query_scale([0, 8190, 8191, 3 * 8192 - 1])
    assert np.allclose(scale, [1.0, 1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(4)], rtol=1e-15)
    assert np.array_equal(rope_layer.query_scale([8191]), [1.0])
    with pytest.raises(ValueError, match=r"layer 3 .*NoPE"):
        nope_layer.cos_sin([0, 1])
    x = np.ones((2, 128))
    assert np.array_equal(nope_layer.rotate(x, [0, 1]), x)


def test_llama_4_default_interval():
    assert kinds("edge_llama-4-scout_rope-interval-3.json") == ["rope", "rope", "nope"] * 2 + ["rope", "rope"]


def test_cohere_2_turns_only_sliding_layers():
    assert kinds("c4ai-command-r7b-12-2024.json")[:8] == ["rope", "rope", "rope", "nope"] * 2
    assert kinds("edge_command-r7b_default-pattern.json") == ["rope", "rope", "rope", "nope"] * 2


# --- M-RoPE ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["qwen2-vl-7b-instruct.json", "qwen2.5-vl-7b-instruct.json"])
def test_qwen2_vl_mrope_from_a_flat_multimodal_file(name, rng):
    layer = rope_from_config(CONFIGS / name)
    assert (layer.mrope_section, layer.mrope_interleaved, layer.base) == ((16, 24, 24), False, 1e6)
    positions = rng.integers(0, 500, size=(3, 20))
    x = rng.normal(size=(20, 128))
    assert np.allclose(layer.rotate(x, positions), mrope(x, positions, [16, 24, 24], base=1e6), atol=1e-12)
    text = np.arange(20)
    assert np.array_equal(layer.cos_sin(text)[0], layer.cos_sin(np.stack([text] * 3))[0])
    assert np.allclose(layer.rotate(x, text), rope(x, text, base=1e6), atol=1e-12)


def test_qwen3_vl_interleaved_mrope():
    layer = rope_from_config(CONFIGS / "qwen3-vl-8b-instruct.json")
    assert (layer.mrope_section, layer.mrope_interleaved, layer.base) == ((24, 20, 20), True, 5e6)
    positions = np.array([[1], [10], [100]])
    cos, _ = layer.cos_sin(positions)
    axis = np.argmin(np.abs(cos[0, :64, None] - np.cos(positions[:, 0] * layer.inv_freq[:, None])), axis=1)
    expected = np.zeros(64, dtype=int)
    expected[1:60:3], expected[2:60:3] = 1, 2  # pairs 1, 4, ... height; 2, 5, ... width; the rest temporal
    assert np.array_equal(axis, expected)
    flag_ignored = rope_from_config(CONFIGS / "edge_qwen3-vl-8b_mrope-interleaved-false.json")
    assert flag_ignored.mrope_interleaved and "not read" in flag_ignored.notes[0]


def test_default_mrope_section():
    assert rope_from_config(CONFIGS / "edge_qwen2-vl-7b_default-mrope-section.json").mrope_section == (16, 24, 24)


# --- GPT-J, Cohere, GLM: interleaved pairs ---------------------------------------------


@pytest.mark.parametrize(
    "name,rotary_dim,base",
    [("gpt-j-6b.json", 64, 10000.0), ("c4ai-command-r-v01.json", 128, 8e6), ("glm-4-9b-0414.json", 64, 10000.0)],
)
def test_interleaved_families(name, rotary_dim, base):
    layer = rope_from_config(CONFIGS / name)
    assert (layer.layout, layer.rotary_dim, layer.base) == ("interleaved", rotary_dim, base)
    x = np.zeros((1, layer.head_dim))
    x[0, 2] = 1.0  # pair 1 is features (2, 3)
    turned = layer.rotate(x, [1])
    angle = layer.inv_freq[1]
    assert np.allclose(turned[0, 2:4], [math.cos(angle), math.sin(angle)], atol=1e-15)


# --- what the reader refuses -----------------------------------------------------------


def llama(**changes):
    """Llama 3.1's config with keys changed (None: removed)."""
    data = load("llama-3.1-8b-instruct.json")
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.parametrize(
    "config,layer,error,words",
    [
        (llama(rope_scaling={"rope_type": "ntk", "factor": 2.0}), 0, ValueError, r"layer 0 .*'rope_type' is 'ntk'"),
        (llama(rope_scaling={"rope_type": "yarm", "factor": 2.0}), 0, ValueError, "did you mean 'yarn'"),
        (llama(rope_scaling={"rope_type": "llama3", "factor": 8.0}), 2, ValueError, r"layer 2 .*low_freq_factor"),
        (llama(rope_scaling={"rope_type": "linear", "factr": 2.0}), 0, ValueError, "did you mean 'factor'"),
        (llama(rope_scaling={"rope_typ": "linear", "factor": 2.0}), 0, ValueError, "did you mean 'rope_type'"),
        (llama(rope_theta=None, rope_thetta=1e6), 0, ValueError, "did you mean 'rope_theta'"),
        (llama(), 32, ValueError, r"layer must be in 0 \.\. 31"),
        (llama(), -1, ValueError, r"layer must be in 0 \.\. 31"),
        (llama(), 1.0, TypeError, "layer must be an integer"),
        (dict(llama(), num_hidden_layers=None), 0, ValueError, "num_hidden_layers"),
        (llama(layer_types=["full_attention"] * 3), 0, ValueError, "one entry per layer"),
        (llama(rope_scaling={"rope_type": "linear", "factor": 0.5}), 0, ValueError, r"factor.*>= 1"),
        (llama(head_dim=127), 0, ValueError, "even"),
        (llama(num_hidden_layers=10**20), 0, ValueError, "num_hidden_layers'] must be at most"),
        (llama(head_dim=10**9), 0, ValueError, "at most 65536 features"),
        ([("model_type", "llama")], 0, TypeError, "config must be a dict"),
        (str(CONFIGS / "no-such-model.json"), 0, ValueError, "no such file"),
    ],
)
def test_bad_input_is_named(config, layer, error, words):
    with pytest.raises(error, match=words):
        rope_from_config(config, layer=layer)


@pytest.mark.parametrize(
    "section,words",
    [([16, 24, 25], r"sum 65"), ([32, 32], "three integers"), ([16, 24, -24], "three integers"), ("16,24,24", "three")],
)
def test_malformed_mrope_section(section, words):
    data = load("qwen2-vl-7b-instruct.json")
    data["rope_scaling"]["mrope_section"] = section
    with pytest.raises(ValueError, match=rf"layer 0 .*'mrope_section'.*{words}"):
        rope_from_config(data)


def test_nested_parameters_must_cover_the_layer_type():
    data = load("gemma-4-style_proportional.json")
    del data["rope_parameters"]["sliding_attention"]
    with pytest.raises(ValueError, match=r"layer 0 \(sliding_attention, Gemma 4\).*not for 'sliding_attention'"):
        rope_from_config(data)
    assert rope_from_config(data, layer=5).rope_type == "proportional"


def test_unknown_keys_that_resemble_nothing_are_ignored_with_a_note():
    layer = rope_from_config(llama(rope_scaling={"rope_type": "linear", "factor": 2.0, "finetuned": True}))
    assert layer.rope_type == "linear" and "'finetuned'" in layer.notes[0]


def test_an_unknown_model_type_is_read_with_the_generic_rules():
    data = load("llama-2-7b-hf.json")
    data["model_type"] = "my_llama"
    data["partial_rotary_factor"] = 0.5
    layer = rope_from_config(data)
    assert family_of("my_llama").name == layer.family == "generic (Llama-like)"
    assert layer.rotary_dim == 64 and "not in the family table" in layer.notes[0]


def test_a_batch_of_one_is_read_as_its_row():
    layer = rope_from_config(CONFIGS / "llama-2-7b-hf.json")
    assert np.array_equal(layer.cos_sin(np.arange(4)[None])[0], layer.cos_sin(np.arange(4))[0])
    vision = rope_from_config(CONFIGS / "qwen2-vl-7b-instruct.json")
    ids = np.array([[0, 1, 1], [0, 1, 2], [0, 2, 3]])
    assert np.array_equal(vision.cos_sin(ids[:, None, :])[1], vision.cos_sin(ids)[1])


def test_positions_are_checked():
    layer = rope_from_config(CONFIGS / "llama-2-7b-hf.json")
    with pytest.raises(ValueError, match=r"shape \(n,\)"):
        layer.cos_sin(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="positions"):
        layer.cos_sin(["a"])
    with pytest.raises(ValueError, match="finite"):
        layer.cos_sin([np.nan])
    with pytest.raises(ValueError, match="seq_len"):
        layer.cos_sin([1], seq_len=0)
    with pytest.raises(ValueError, match=r"\(3, n\)"):
        rope_from_config(CONFIGS / "qwen3-vl-8b-instruct.json").cos_sin(np.zeros((2, 4)))
    with pytest.raises(ValueError, match="head_dim = 128"):
        layer.rotate(np.zeros((3, 64)), [0, 1, 2])


def test_rope_layer_is_frozen():
    layer = rope_from_config(CONFIGS / "llama-2-7b-hf.json")
    with pytest.raises(dataclasses.FrozenInstanceError):
        layer.base = 5.0
    with pytest.raises(ValueError, match="read-only"):
        layer.inv_freq[0] = 2.0
    with pytest.raises(TypeError):
        layer.scaling["factor"] = 2.0


def test_every_family_in_the_table_has_a_fixture():
    covered = {rope_from_config(CONFIGS / name).family for name in FIXTURES}
    missing = {family.name for family in FAMILIES.values()} - covered
    assert not missing, missing


def test_fuzzed_configs_give_layers_or_a_named_error(rng):
    """Wrong types, nulls and extreme values in the keys read: a layer whose caches
    are finite, or a ValueError/TypeError; never another exception."""
    values = [None, 0, -1, 1, 3, 0.5, 1e300, float("nan"), "x", [], {}, [1, 2], True, 10**20]
    keys = ["rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor", "head_dim", "hidden_size"]
    keys += ["num_attention_heads", "num_hidden_layers", "max_position_embeddings", "layer_types", "no_rope_layers"]
    keys += ["rotary_pct", "rotary_dim", "rope_local_base_freq", "qk_rope_head_dim", "global_head_dim"]
    inner = ["rope_type", "factor", "original_max_position_embeddings", "low_freq_factor", "short_factor"]
    inner += ["mrope_section", "beta_fast", "attention_factor", "mscale_all_dim", "truncate", "rope_theta"]
    outcomes = set()
    for _ in range(150):
        data = load(FIXTURES[int(rng.integers(len(FIXTURES)))])
        text = data["text_config"] if isinstance(data.get("text_config"), dict) else data
        for _ in range(int(rng.integers(1, 3))):
            value = values[int(rng.integers(len(values)))]
            scaling = text.get("rope_scaling") or text.get("rope_parameters")
            if rng.random() < 0.5 and isinstance(scaling, dict):
                scaling[inner[int(rng.integers(len(inner)))]] = value
            else:
                text[keys[int(rng.integers(len(keys)))]] = value
        try:
            for layer in rope_layers(data)[:2]:
                if layer.kind == "rope":
                    assert np.isfinite(layer.cos_sin(np.arange(3))[0]).all()
            outcomes.add("layers")
        except (ValueError, TypeError):
            outcomes.add("named error")
    assert outcomes == {"layers", "named error"}


def test_yarn_without_factor_is_refused_as_transformers_config_classes_do():
    """transformers 5.x validates YaRN parameters when the config is built: 'factor' is required
    (KeyError), although its frequency function would fall back on max / original."""
    config = json.loads((CONFIGS / "gpt-oss-20b.json").read_text())
    del config["rope_scaling"]["factor"]
    with pytest.raises(ValueError, match="needs rope parameter 'factor'"):
        rope_from_config(config)
