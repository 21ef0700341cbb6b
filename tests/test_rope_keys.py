"""posenc_math.encodings.rope_keys: what each RoPE key does, found by removing it."""

from pathlib import Path

import pytest

from posenc_math.encodings.rope_keys import ROPE_KEYS, config_key_effects, key_effects_markdown

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"


def by_key(path):
    return {effect["key"]: effect for effect in config_key_effects(CONFIGS / path)}


def test_gemma3_local_base_moves_only_the_sliding_layers():
    config = {
        "model_type": "gemma3_text",
        "num_hidden_layers": 12,
        "rope_theta": 1000000.0,
        "rope_local_base_freq": 20000.0,
    }
    effect = {item["key"]: item for item in config_key_effects(config)}["rope_local_base_freq"]
    assert effect["status"] == "changes"
    assert effect["layers"] == "0-4, 6-10"  # layers 5 and 11 are full attention: global base
    assert effect["changes"][0] == "base 20,000 → 10,000"  # Gemma3TextConfig's default local base


def test_llama31_scaling_keys():
    effects = by_key("llama-3.1-8b-instruct.json")
    assert effects["rope_theta"]["changes"][0] == "base 500,000 → 10,000"
    assert effects["rope_scaling.factor"]["status"] == "required"
    assert "factor" in effects["rope_scaling.factor"]["error"]
    assert effects["rope_scaling.rope_type"]["changes"][0] == "rope_type llama3 → default"
    assert effects["max_position_embeddings"]["status"] == "default"


def test_yarn_truncate_false_moves_the_ramp_pairs_of_gpt_oss():
    effect = by_key("gpt-oss-20b.json")["rope_scaling.truncate"]
    assert effect["status"] == "changes" and effect["n_layers_changed"] == 24
    assert effect["changes"][0].startswith("9 of 32 pairs turn at other speeds")


def test_llama4_nope_pattern_is_the_default():
    effects = by_key("llama-4-scout-17b-16e-instruct.json")
    assert effects["no_rope_layers"]["status"] == "default"
    assert effects["rope_scaling.rope_type"]["layers"] == "0-2, 4-6, ..., 44-46"  # the NoPE layers do not change


def test_nested_per_layer_type_parameters_are_read_one_by_one():
    effects = by_key("gemma-3-4b-it_transformers5.json")
    keys = [key for key in effects if key.startswith("rope_parameters.")]
    assert "rope_parameters.sliding_attention.rope_theta" in keys
    assert "rope_parameters.full_attention.factor" in keys
    sliding = effects["rope_parameters.sliding_attention.rope_theta"]
    assert sliding["status"] == "default"  # 10000, Gemma 3's own default local base


def test_every_key_path_starts_with_a_known_key():
    for path in CONFIGS.glob("*.json"):
        for effect in config_key_effects(path):
            assert effect["key"].split(".")[0] in ROPE_KEYS, (path.name, effect["key"])


def test_markdown_has_one_item_per_key():
    effects = config_key_effects(CONFIGS / "deepseek-v3.json")
    items = key_effects_markdown(effects).split("\n\n")
    assert len(items) == len(effects)
    assert items[0] == "`rope_theta` = 10000\n: without it, nothing changes (the default gives the same)"


def test_a_config_that_cannot_be_read_is_refused():
    with pytest.raises(TypeError, match="config must be a dict"):
        config_key_effects(42)
