"""Numeric checks of issue 23's four statements (tools/theorem-drafts/issue23.md), each with its control.

These are the seeds of the theorems' witnesses: each statement is checked
against the library at many seeded points (and against mpmath at a few), and
each negative control is shown false the same way, so the check can fail.
"""

from pathlib import Path

import mpmath
import numpy as np
import pytest

from posenc_math import axial_rope, mrope, rope, rope_cos_sin, rope_from_config

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"
DIGITS = 40


@pytest.fixture
def rng():
    return np.random.default_rng(20231)


def scores(queries, keys):
    """q_m . k_n for every pair of rows."""
    return queries @ np.swapaxes(keys, -1, -2)


# --- 1. M-RoPE on text tokens is 1-D RoPE (both section layouts) -----------------------------------


@pytest.mark.parametrize(
    "name", ["qwen2.5-vl-7b-instruct.json", "qwen3-vl-8b-instruct.json", "qwen2-vl-7b-instruct.json"]
)
def test_mrope_text_tokens_are_one_dimensional_rope(name, rng):
    layer = rope_from_config(CONFIGS / name)
    positions = rng.integers(0, 2**20, size=500)
    cos, sin = layer.cos_sin(np.stack([positions] * 3))
    plain_cos, plain_sin = rope_cos_sin(positions, layer.inv_freq)
    assert np.array_equal(cos, plain_cos) and np.array_equal(sin, plain_sin)
    # the rotation itself, through the vectors
    x = rng.normal(size=(positions.size, layer.head_dim))
    assert np.allclose(layer.rotate(x, np.stack([positions] * 3)), layer.rotate(x, positions), atol=0, rtol=0)


def test_mrope_function_on_text_equals_rope_for_any_sections(rng):
    for sections in [(16, 24, 24), (24, 20, 20), (64, 0, 0), (1, 1, 62), (0, 64, 0)]:
        x = rng.normal(size=(50, 128))
        positions = rng.integers(0, 10**6, size=50)
        assert np.allclose(mrope(x, np.stack([positions] * 3), sections, base=1e6), rope(x, positions, base=1e6))


def test_mrope_text_statement_at_forty_digits(rng):
    """cos(p w_j) of each layout against mpmath, at random p: the pair's axis does not matter."""
    mpmath.mp.dps = DIGITS
    layer = rope_from_config(CONFIGS / "qwen3-vl-8b-instruct.json")
    for p in rng.integers(0, 2**16, size=5):
        cos, _ = layer.cos_sin(np.array([[p], [p], [p]]))
        for j in (0, 7, 31, 63):
            exact = mpmath.cos(int(p) * mpmath.power(mpmath.mpf(layer.base), mpmath.mpf(-2 * j) / 128))
            assert abs(cos[0, j] - float(exact)) < 1e-9


def test_control_one_id_off_is_not_one_dimensional_rope():
    """Negative control: ids (p, p + 1, p) (height one step on) differ from 1-D RoPE at p on the height pairs."""
    layer = rope_from_config(CONFIGS / "qwen2.5-vl-7b-instruct.json")
    positions = np.arange(100)
    cos, _ = layer.cos_sin(np.stack([positions, positions + 1, positions]))
    plain, _ = rope_cos_sin(positions, layer.inv_freq)
    # the first height pair turns at w_16 = 1e6 ** (-32 / 128), about 0.03 per step
    assert np.abs(cos - plain).max() > 0.01


# --- 2. Commuting multi-axis rotations: scores depend only on the offset vector -----------------


def test_axial_scores_depend_only_on_the_offset(rng):
    n, dim = 40, 64
    q, k = rng.normal(size=(n, dim)), rng.normal(size=(n, dim))
    positions = rng.integers(0, 500, size=(2, n))
    shift = rng.integers(-300, 300, size=(2, 1))
    first = scores(axial_rope(q, positions), axial_rope(k, positions))
    second = scores(axial_rope(q, positions + shift), axial_rope(k, positions + shift))
    assert np.allclose(first, second, atol=1e-9)


def test_mrope_scores_depend_only_on_the_offset_vector(rng):
    for sections in [(16, 24, 24), (8, 12, 12)]:
        dim = 2 * sum(sections)
        n = 30
        q, k = rng.normal(size=(n, dim)), rng.normal(size=(n, dim))
        positions = rng.integers(0, 1000, size=(3, n))
        shift = rng.integers(-500, 500, size=(3, 1))  # any vector: each axis moved by its own amount
        first = scores(mrope(q, positions, sections), mrope(k, positions, sections))
        second = scores(mrope(q, positions + shift, sections), mrope(k, positions + shift, sections))
        assert np.allclose(first, second, atol=1e-9)


def test_interleaved_mrope_scores_depend_only_on_the_offset_vector(rng):
    layer = rope_from_config(CONFIGS / "qwen3-vl-8b-instruct.json")
    n = 30
    q, k = rng.normal(size=(n, layer.head_dim)), rng.normal(size=(n, layer.head_dim))
    positions = rng.integers(0, 1000, size=(3, n))
    shift = rng.integers(-500, 500, size=(3, 1))
    first = scores(layer.rotate(q, positions), layer.rotate(k, positions))
    second = scores(layer.rotate(q, positions + shift), layer.rotate(k, positions + shift))
    assert np.allclose(first, second, atol=1e-9)


def _non_commuting(vector, angles):
    """A 3-D rotation about x by angles[0] then about y by angles[1]: the two do not commute."""
    a, b = angles
    about_x = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    about_y = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    return about_y @ about_x @ vector


def test_control_non_commuting_rotations_see_absolute_positions(rng):
    """Negative control: with rotations about two axes of one 3-D block, shifting both positions
    by the same vector changes the score."""
    q, k = rng.normal(size=3), rng.normal(size=3)
    p, p2, shift = np.array([0.3, 1.1]), np.array([1.7, 0.2]), np.array([0.9, -0.6])
    first = _non_commuting(q, p) @ _non_commuting(k, p2)
    second = _non_commuting(q, p + shift) @ _non_commuting(k, p2 + shift)
    assert abs(first - second) > 1e-3


# --- 3. A factor on cos and sin scales every logit by its square ----------------------------------


@pytest.mark.parametrize("name", ["qwen2.5-7b-instruct_yarn.json", "gpt-oss-20b.json"])
def test_attention_factor_scales_logits_by_its_square(name, rng):
    import dataclasses

    layer = rope_from_config(CONFIGS / name)
    assert layer.attention_factor != 1.0
    unit = dataclasses.replace(layer, attention_factor=1.0)
    n = 64
    q, k = rng.normal(size=(n, layer.head_dim)), rng.normal(size=(n, layer.head_dim))
    positions = rng.integers(0, 4096, size=n)
    scaled = scores(layer.rotate(q, positions), layer.rotate(k, positions))
    plain = scores(unit.rotate(q, positions), unit.rotate(k, positions))
    assert np.allclose(scaled, layer.attention_factor**2 * plain, rtol=1e-12, atol=1e-12)
    # the control: a factor on the logits of the factor itself (not its square) is refuted
    assert not np.allclose(scaled, layer.attention_factor * plain, rtol=1e-6)


def test_yarn_factor_is_point_one_log_s_plus_one_at_forty_digits():
    mpmath.mp.dps = DIGITS
    layer = rope_from_config(CONFIGS / "qwen2.5-7b-instruct_yarn.json")
    factor = layer.scaling["factor"]
    assert abs(layer.attention_factor - float(mpmath.mpf("0.1") * mpmath.log(factor) + 1)) < 1e-15


def test_deepseek_ratio_form_moves_the_square_to_the_logits():
    """DeepSeek: cos/sin times mscale(s, mu) / mscale(s, mu_all), logits times mscale(s, mu_all) ** 2:
    together the logits are scaled by mscale(s, mu) ** 2."""
    mpmath.mp.dps = DIGITS
    layer = rope_from_config(CONFIGS / "deepseek-v3.json")
    scaling = layer.scaling
    s = mpmath.mpf(scaling["factor"])

    def mscale(mu):
        return mpmath.mpf("0.1") * mpmath.mpf(mu) * mpmath.log(s) + 1

    total = layer.attention_factor**2 * layer.score_scale
    assert abs(total - float(mscale(scaling["mscale"]) ** 2)) < 1e-12
    assert abs(layer.score_scale - float(mscale(scaling["mscale_all_dim"]) ** 2)) < 1e-12
    # control: the ratio alone (without the logit factor) is not the total
    assert abs(layer.attention_factor**2 - float(mscale(scaling["mscale"]) ** 2)) > 0.5


# --- 4. Features outside rotary_dim: a position-independent score ----------------------------------


@pytest.mark.parametrize("name", ["phi-2.json", "glm-4-9b-chat-hf.json", "deepseek-v3.json", "pythia-70m.json"])
def test_pass_through_features_give_a_position_independent_score(name, rng):
    layer = rope_from_config(CONFIGS / name)
    assert layer.rotary_dim < layer.head_dim
    n = 32
    q, k = rng.normal(size=(n, layer.head_dim)), rng.normal(size=(n, layer.head_dim))
    start, stop = layer.rotary_offset, layer.rotary_offset + layer.rotary_dim
    rotated = np.zeros(layer.head_dim, dtype=bool)
    rotated[start:stop] = True
    for positions in (rng.integers(0, 5000, size=n), rng.integers(0, 5000, size=n)):
        total = scores(layer.rotate(q, positions), layer.rotate(k, positions))
        turned = scores(layer.rotate(q, positions)[:, rotated], layer.rotate(k, positions)[:, rotated])
        assert np.allclose(total - turned, scores(q[:, ~rotated], k[:, ~rotated]), atol=1e-9)


def test_control_the_rotated_block_is_not_position_independent(rng):
    """Negative control: the same split applied to the rotated features changes with the positions."""
    layer = rope_from_config(CONFIGS / "phi-2.json")
    q, k = rng.normal(size=(8, layer.head_dim)), rng.normal(size=(8, layer.head_dim))
    block = slice(0, layer.rotary_dim)
    one = scores(layer.rotate(q, np.arange(8))[:, block], layer.rotate(k, np.arange(8))[:, block])
    other = scores(layer.rotate(q, np.arange(8) * 3)[:, block], layer.rotate(k, np.arange(8) * 3)[:, block])
    assert np.abs(one - other).max() > 0.1
