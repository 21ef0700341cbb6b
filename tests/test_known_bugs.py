"""posenc_math.encodings.known_bugs: each public bug reproduced, with the thread's own numbers."""

import json
from pathlib import Path

import numpy as np
import pytest

from posenc_math import alibi_slopes, rope_from_config
from posenc_math.encodings.known_bugs import (
    KNOWN_BUGS,
    alibi_slopes_geometric,
    cos_sin_in_dtype,
    known_bug,
    reproduce,
)
from posenc_math.encodings.rope_mistakes import MISTAKES

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"


def run(name):
    bug = known_bug(name)
    return reproduce(name, None if bug.config is None else CONFIGS / bug.config)


def test_every_bug_has_a_thread_a_config_fixture_and_a_known_mistake():
    names = {mistake.name for mistake in MISTAKES}
    assert len(KNOWN_BUGS) >= 6
    for bug in KNOWN_BUGS:
        assert bug.threads and all(url.startswith("https://github.com/") for url in bug.threads)
        assert bug.mistake is None or bug.mistake in names
        assert bug.config is None or (CONFIGS / bug.config).is_file()
        result = run(bug.name)
        assert result.error.shape == (len(result.where),)
        assert np.isfinite(result.error).all()


def test_gpt_neox_1003_numbers():
    """The thread: emb[1857, 1] is 1044.2678 in float32 and 1045 in float16; cos differs by up to 0.7819."""
    facts = run("low_precision_cache").facts
    assert round(facts["thread angle float32"], 4) == 1044.2678
    assert facts["thread angle float16"] == 1045.0
    assert round(facts["thread worst cos difference"], 4) == 0.7819


def test_a_float32_cache_is_not_the_bug():
    """The control: the same computation in float32 stays within float32's error at these positions."""
    inv_freq = 10000.0 ** (-np.arange(0, 128, 2) / 128)
    positions = np.arange(4096)
    cos32, _ = cos_sin_in_dtype(positions, inv_freq, "float32")
    cos16, _ = cos_sin_in_dtype(positions, inv_freq, "float16")
    exact = np.cos(positions[:, None] * inv_freq)
    assert np.abs(cos32 - exact).max() < 1e-3 < np.abs(cos16 - exact).max()
    assert run("low_precision_cache").error[-1] > 1.0


def test_vllm_28244_numbers():
    """The pull request: unrounded, gpt-oss's ramp runs from 8.0928 to 17.398."""
    result = run("yarn_truncation")
    assert result.facts["low"] == pytest.approx(8.092779115512402, rel=1e-14)
    assert result.facts["high"] == pytest.approx(17.39802450158856, rel=1e-14)
    assert result.facts["pairs moved"] == 9
    assert result.error[-1] > 1.0


def test_yarn_truncation_needs_truncate_false():
    config = json.loads((CONFIGS / "gpt-oss-20b.json").read_text())
    config["rope_scaling"].pop("truncate")  # the default, truncate: true, is what vLLM computed
    layer = rope_from_config(config)
    assert "yarn_truncation" in known_bug("yarn_truncation").mistake
    assert reproduce("yarn_truncation", config).facts["pairs moved"] == 0  # rounding is then what the model wants
    assert layer.rope_type == "yarn"


def test_longrope_cached_keys_are_far_from_the_long_factors():
    result = run("longrope_stale_cache")
    assert result.facts["switch"] == 4097
    assert (result.error > 1.0).all()


def test_dynamic_ntk_stale_base_slows_the_slow_pairs():
    result = run("dynamic_ntk_stale_base")
    assert result.facts["slowest wavelength stale"] > 5 * result.facts["slowest wavelength trained"]
    assert (result.error > 0.5).all()


def test_alibi_geometric_slopes():
    for n_heads in (1, 2, 4, 8, 16, 32, 64):
        assert np.array_equal(alibi_slopes_geometric(n_heads), alibi_slopes(n_heads))
    for n_heads in (12, 40, 112):
        assert not np.allclose(alibi_slopes_geometric(n_heads), alibi_slopes(n_heads))
    result = run("alibi_geometric_slopes")
    assert result.facts["heads"] == 40 and result.facts["power-of-two heads equal"]
    assert result.error[-1] == pytest.approx(4096 * result.facts["worst slope difference"])


def test_mnn_4133_text_is_the_same_and_images_are_not():
    """The pull request: the blocked layout behaves the same on text, not on images."""
    result = run("mrope_blocked_for_interleaved")
    assert result.where == ("text tokens", "image tokens")
    assert result.error[0] == 0.0 and result.error[1] > 1.0


def test_partial_rotary_head_exponent_agrees_at_zero_and_drifts():
    config = CONFIGS / "phi-2.json"
    result = reproduce("partial_rotary_head_exponent", config)
    assert result.facts == {"rotary_dim": 32, "head_dim": 80}
    assert result.error[0] < result.error[-1]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="name must be one of"):
        reproduce("no_such_bug")
    assert reproduce("yarn_truncation").facts == reproduce("yarn_truncation", CONFIGS / "gpt-oss-20b.json").facts
    with pytest.raises(ValueError, match="dtype must be one of"):
        cos_sin_in_dtype([0, 1], [1.0], "int8")
    with pytest.raises(ValueError, match="positions must be a 1-D array of integers"):
        cos_sin_in_dtype([0.5], [1.0])


def test_check_config_names_the_mistake_of_each_rope_bug_with_one():
    """A dump made the way each buggy code made it, computed independently of rope_mistakes,
    is named by check_cos_sin as the bug's mistake."""
    import dataclasses

    from posenc_math.encodings.rope_check import check_cos_sin

    # vLLM before its fix: gpt-oss read with YaRN's default rounding
    config = json.loads((CONFIGS / "gpt-oss-20b.json").read_text())
    rounded = json.loads(json.dumps(config))
    rounded["rope_scaling"].pop("truncate")
    positions = np.arange(0, 131072, 61)
    cos, sin = rope_from_config(rounded).cos_sin(positions)
    assert check_cos_sin(config, cos, sin, positions=positions).explanation == known_bug("yarn_truncation").mistake
    # Phi-3 before the fix: keys cached with the short factors, read after the switch
    phi = CONFIGS / "phi-3.5-mini-instruct.json"
    positions = np.arange(4096)
    cos, sin = rope_from_config(phi).cos_sin(positions, seq_len=4096)
    result = check_cos_sin(phi, cos, sin, positions=positions, seq_len=4097)
    assert result.explanation == known_bug("longrope_stale_cache").mistake
    # MNN: Qwen3-VL laid out in consecutive sections
    qwen3 = CONFIGS / "qwen3-vl-8b-instruct.json"
    from posenc_math import mrope_positions

    ids = mrope_positions([8, (1, 16, 16), 8])
    blocked = dataclasses.replace(rope_from_config(qwen3), mrope_interleaved=False)
    cos, sin = blocked.cos_sin(ids)
    result = check_cos_sin(qwen3, cos, sin, positions=ids)
    assert result.explanation == known_bug("mrope_blocked_for_interleaved").mistake
    # pie: the head's frequencies for the rotated features
    phi2 = rope_from_config(CONFIGS / "phi-2.json")
    inv_freq = phi2.base ** (-2.0 * np.arange(phi2.rotary_dim // 2) / phi2.head_dim)
    positions = np.arange(0, 2048, 3)
    angles = positions[:, None] * inv_freq[None, :]
    cos, sin = np.cos(np.concatenate([angles, angles], 1)), np.sin(np.concatenate([angles, angles], 1))
    result = check_cos_sin(CONFIGS / "phi-2.json", cos, sin, positions=positions)
    assert result.explanation == known_bug("partial_rotary_head_exponent").mistake
