"""rope_mistakes: each known mistake computed, and only where it changes something."""

from pathlib import Path

import numpy as np
import pytest

from posenc_math import rope_frequencies, rope_from_config
from posenc_math.encodings.rope_mistakes import MISTAKES, mistake, mistaken_cos_sin

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"


def config(name):
    return CONFIGS / name


def test_every_mistake_is_computed_for_some_published_config():
    seen = set()
    cases = [
        ("gemma-3-1b-it.json", 5, np.arange(600)),
        ("phi-4-mini-instruct.json", 0, np.r_[0:50, 4090:4097]),
        ("gpt-oss-20b.json", 1, np.arange(0, 20000, 97)),
        ("llama-2-7b-hf_dynamic-ntk.json", 0, np.r_[0:50, 5990:6000]),
        ("pythia-70m.json", 0, np.arange(300)),
        ("qwen3-vl-8b-instruct.json", 0, np.array([[0, 1, 2, 2, 2], [0, 1, 2, 3, 4], [0, 1, 5, 6, 7]])),
    ]
    for name, layer, positions in cases:
        exact = rope_from_config(config(name), layer=layer).cos_sin(positions)
        for found, (cos, sin) in mistaken_cos_sin(config(name), positions, layer=layer).items():
            seen.add(found)
            assert cos.shape != exact[0].shape or not np.allclose(cos, exact[0], atol=1e-6), (name, found)
            assert cos.shape == sin.shape
    assert seen == {item.name for item in MISTAKES}


def test_wrong_layout_and_missing_factor():
    layer = rope_from_config(config("qwen2.5-7b-instruct_yarn.json"))
    cos, sin = layer.cos_sin(np.arange(10))
    found = mistaken_cos_sin(config("qwen2.5-7b-instruct_yarn.json"), np.arange(10))
    assert np.array_equal(found["wrong_layout"][0], np.repeat(cos[:, :64], 2, axis=1))
    assert np.allclose(found["missing_attention_factor"][1] * layer.attention_factor, sin, rtol=1e-15)


def test_interleaved_families_have_no_layout_mistake():
    """Their caches are the same in either layout; only q and k are paired differently."""
    for name in ("c4ai-command-r-v01.json", "gpt-j-6b.json", "deepseek-v3.json", "glm-4-9b-0414.json"):
        assert "wrong_layout" not in mistaken_cos_sin(config(name), np.arange(10))


def test_local_global_swapped_is_the_other_layer_type():
    found = mistaken_cos_sin(config("gemma-3-4b-it.json"), np.arange(50), layer=5)["local_global_swapped"]
    local = rope_from_config(config("gemma-3-4b-it.json"), layer=0).cos_sin(np.arange(50))
    assert np.array_equal(found[0], local[0]) and np.array_equal(found[1], local[1])


def test_longrope_switch_takes_the_other_factors():
    name = config("phi-3.5-mini-instruct.json")
    layer = rope_from_config(name)
    short = layer.cos_sin(np.arange(4096))[0][-1]
    long = layer.cos_sin(np.arange(4097))[0][-2]
    assert not np.allclose(short, long)
    assert np.allclose(mistaken_cos_sin(name, np.arange(4097))["longrope_switch"][0][-2], short, atol=1e-13)
    assert np.allclose(mistaken_cos_sin(name, np.arange(4096))["longrope_switch"][0][-1], long, atol=1e-13)


def test_partial_rotary_ignored_turns_the_whole_head():
    cos, _ = mistaken_cos_sin(config("pythia-70m.json"), [3])["partial_rotary_ignored"]
    assert cos.shape == (1, 64)
    assert np.allclose(cos[0, :32], np.cos(3 * rope_frequencies(64)[0]), atol=1e-15)
    exponent, _ = mistaken_cos_sin(config("pythia-70m.json"), [3])["partial_rotary_exponent"]
    assert np.allclose(exponent[0, :8], np.cos(3 * 10000.0 ** (-np.arange(0, 16, 2) / 64)), atol=1e-15)


def test_yarn_truncation_flips_the_config():
    scaling = {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0}
    scaling["original_max_position_embeddings"] = 4096
    truncated, factor = rope_frequencies(64, base=150000.0, scaling=scaling)
    cos, _ = mistaken_cos_sin(config("gpt-oss-20b.json"), [1000])["yarn_truncation"]
    assert np.allclose(cos[0, :32], factor * np.cos(1000 * truncated), atol=1e-12)


def test_dynamic_ntk_only_past_the_trained_length():
    name = config("llama-2-7b-hf_dynamic-ntk.json")
    assert "dynamic_ntk_not_applied" not in mistaken_cos_sin(name, np.arange(4096))
    plain = rope_from_config(config("llama-2-7b-hf.json")).cos_sin([0, 5000])
    found = mistaken_cos_sin(name, [0, 5000])["dynamic_ntk_not_applied"]
    assert np.array_equal(found[0], plain[0])


def test_mrope_layout_only_for_vision_positions():
    name = config("qwen2-vl-7b-instruct.json")
    assert "mrope_section_layout" not in mistaken_cos_sin(name, np.arange(10))  # text: three equal ids
    assert "mrope_section_layout" in mistaken_cos_sin(name, [[0, 1], [0, 2], [0, 3]])


def test_bfloat16_positions_round_ids_above_256():
    name = config("llama-2-7b-hf.json")
    assert "positions_in_bfloat16" not in mistaken_cos_sin(name, np.arange(257))
    cos, _ = mistaken_cos_sin(name, [257, 300])["positions_in_bfloat16"]
    exact = rope_from_config(name).cos_sin([256, 300])[0]  # 257 rounds to 256 (ties to even), 300 stays
    assert np.array_equal(cos, exact)


def test_a_nope_layer_has_no_mistakes_and_names_are_checked():
    assert mistaken_cos_sin(config("llama-4-scout-17b-16e-instruct.json"), [1, 2], layer=3) == {}
    assert mistake("wrong_layout").title == "wrong layout"
    with pytest.raises(ValueError, match="name must be one of"):
        mistake("typo")
    with pytest.raises(ValueError, match="seq_len"):
        mistaken_cos_sin(config("llama-2-7b-hf.json"), [1], seq_len=0)


def test_descriptions_are_sentences():
    for item in MISTAKES:
        assert item.name and item.title and len(item.description) > 40
    assert len({item.name for item in MISTAKES}) == len(MISTAKES)
