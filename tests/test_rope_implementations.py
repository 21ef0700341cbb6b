"""posenc_math.encodings.rope_implementations: each implementation's arithmetic, reproduced."""

import json
from pathlib import Path

import numpy as np
import pytest

from posenc_math import rope_from_config
from posenc_math.encodings.rope_implementations import (
    IMPLEMENTATIONS,
    SOURCES,
    conformance_markdown,
    conformance_rows,
    implementation_cos_sin,
    sample_positions,
    unsupported,
)

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"
UNIT = 2.0**-24


def layer_of(name):
    return rope_from_config(CONFIGS / name)


def worst(layer, positions, implementation, **keywords):
    cos, sin = implementation_cos_sin(layer, positions, implementation, **keywords)
    half = layer.rotary_dim // 2
    exact_cos, exact_sin = layer.cos_sin(positions, seq_len=keywords.get("seq_len"))
    return max(np.abs(cos - exact_cos[:, :half]).max(), np.abs(sin - exact_sin[:, :half]).max())


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_every_implementation_is_exact_to_float32_near_zero(implementation):
    layer = layer_of("llama-2-7b-hf.json")
    assert worst(layer, np.arange(64), implementation) < 64 * 8 * UNIT


def test_float32_angles_lose_digits_in_proportion_to_the_position():
    layer = layer_of("llama-2-7b-hf.json")
    near, far = worst(layer, np.arange(256), "transformers"), worst(layer, np.arange(4096) + 60000, "transformers")
    assert far > 50 * near


def test_llama_cpp_repeated_multiplication_errs_more_than_one_rounding():
    """theta *= theta_scale once per pair: the angle of pair j carries about j roundings."""
    layer = layer_of("llama-2-7b-hf.json")
    positions = sample_positions(4096)
    assert worst(layer, positions, "llama.cpp") > 2 * worst(layer, positions, "transformers")
    # and stays below one float32 rounding per pair
    assert worst(layer, positions, "llama.cpp") < 64 * 4096 * UNIT


def test_vllm_dynamic_ntk_keeps_the_trained_base():
    layer = layer_of("llama-2-7b-hf_dynamic-ntk.json")
    positions = np.arange(0, 8192, 7)
    dynamic, _ = implementation_cos_sin(layer, positions, "vllm", seq_len=8192)
    plain = rope_from_config(json.loads((CONFIGS / "llama-2-7b-hf.json").read_text()))
    default, _ = implementation_cos_sin(plain, positions, "vllm")
    assert np.array_equal(dynamic, default)
    assert worst(layer, positions, "vllm", seq_len=8192) > 1.0
    assert worst(layer, positions, "transformers", seq_len=8192) < 1e-3


def test_longrope_factors_by_context_or_by_sequence():
    layer = layer_of("phi-3.5-mini-instruct.json")
    positions = np.arange(0, 4096, 3)
    assert worst(layer, positions, "transformers", seq_len=4096) < 1e-3  # short factors: the sequence fits
    for implementation in ("vllm", "llama.cpp"):  # long factors: the server's context is 131072
        assert worst(layer, positions, implementation, seq_len=4096) > 1.0
        assert worst(layer, positions, implementation, seq_len=4096, context=4096) < 1e-3
    assert worst(layer, positions, "mlx", seq_len=4096, context=4096) > 1.0  # mlx-lm: long factors always


def test_yarn_truncation_is_read_by_transformers_and_vllm_only():
    layer = layer_of("gpt-oss-20b.json")
    positions = sample_positions(131072, 512)
    assert worst(layer, positions, "transformers") < 0.02
    assert worst(layer, positions, "vllm") < 0.02
    assert worst(layer, positions, "llama.cpp") > 1.0
    assert worst(layer, positions, "mlx") > 1.0


def test_unsupported_rules_are_refused_with_the_reason():
    layer = layer_of("llama-2-7b-hf_dynamic-ntk.json")
    assert "no dynamic NTK" in unsupported("llama.cpp", layer)
    with pytest.raises(ValueError, match=r"llama\.cpp cannot compute"):
        implementation_cos_sin(layer, [0, 1], "llama.cpp")
    with pytest.raises(ValueError, match="implementation must be one of"):
        implementation_cos_sin(layer, [0, 1], "tensorrt")
    with pytest.raises(ValueError, match="positions must be a 1-D array of integers"):
        implementation_cos_sin(layer, [0.5], "vllm")
    with pytest.raises(ValueError, match="M-RoPE"):
        implementation_cos_sin(layer_of("qwen2.5-vl-7b-instruct.json"), [0, 1], "vllm")


def test_sample_positions():
    positions = sample_positions(100_000, 100)
    assert positions[0] == 0 and positions[-1] == 99_999
    assert np.all(np.diff(positions) > 0) and len(positions) <= 201
    assert np.array_equal(sample_positions(50, 100), np.arange(50))


def test_conformance_rows_and_table():
    rows = conformance_rows({"llama 2": (CONFIGS / "llama-2-7b-hf_dynamic-ntk.json", 8192)}, count=64)
    assert rows[0]["rope_type"] == "dynamic" and isinstance(rows[0]["llama.cpp"], str)
    assert rows[0]["vllm"] > 1.0 > rows[0]["transformers"]
    table = conformance_markdown(rows).splitlines()
    assert table[2].startswith("| llama 2 |") and "n/a" in table[2]


def test_every_source_names_files_at_commits():
    for name in IMPLEMENTATIONS:
        source = SOURCES[name]
        assert source.files and all(commit for _, commit in source.files)
