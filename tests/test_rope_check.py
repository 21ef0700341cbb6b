"""rope_check: the per-layer table and the check of dumped cos/sin caches."""

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from posenc_math import mrope_positions, rope_from_config, rope_layers
from posenc_math.encodings.rope_check import ANGLE_TOLERANCE, angle_precision_position, check_cos_sin, layer_table
from posenc_math.encodings.rope_mistakes import mistaken_cos_sin

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"


def config(name):
    return CONFIGS / name


# --- where float32 and bfloat16 angles lose their first decimal --------------------


@pytest.mark.parametrize("dtype,numpy_type", [("float32", np.float32), ("bfloat16", ml_dtypes.bfloat16)])
def test_angle_precision_position_is_where_rounding_reaches_the_tolerance(dtype, numpy_type):
    """Below the position every angle rounds within 0.05 rad; at it, one rounds 0.05 or more away."""
    position = angle_precision_position([1.0], dtype)
    assert position == {"float32": 2**20, "bfloat16": 16}[dtype]

    def rounding_error(values):
        return np.abs(np.asarray(values, dtype=np.float64).astype(numpy_type).astype(np.float64) - values)

    below = np.linspace(position / 2, position, 100_001)[:-1]
    assert rounding_error(below).max() < ANGLE_TOLERANCE
    bits = {"float32": 24, "bfloat16": 8}[dtype]
    halfway = position + position * 2.0**-bits  # halfway between two neighbours just above
    assert rounding_error([halfway])[0] >= ANGLE_TOLERANCE
    # a slower fastest pair pushes the position out
    assert angle_precision_position([0.25, 0.01], dtype) == 4 * position


def test_angle_precision_position_input():
    assert angle_precision_position([0.0, 0.0]) is None
    with pytest.raises(ValueError, match="dtype must be one of"):
        angle_precision_position([1.0], "int8")
    with pytest.raises(ValueError, match="tolerance"):
        angle_precision_position([1.0], tolerance=0)


# --- the table ---------------------------------------------------------------------------


def test_layer_table_groups_identical_layers():
    rows = layer_table(config("gemma-3-1b-it.json"))
    assert [row["layers"] for row in rows] == ["0-4, 6-10, 12-16, 18-22, 24-25", "5, 11, 17, 23"]
    indices = sorted(index for row in rows for index in row["layer_indices"])
    assert indices == list(range(26))
    local, full = rows
    assert (local["base"], full["base"]) == (10000.0, 1e6)
    wavelengths = 2 * np.pi / rope_from_config(config("gemma-3-1b-it.json"), layer=5).inv_freq
    assert math.isclose(full["longest_wavelength"], wavelengths.max()) and math.isclose(
        full["shortest_wavelength"], 2 * np.pi
    )
    assert (full["float32_angle_position"], full["bfloat16_angle_position"]) == (2**20, 16)


def test_layer_table_nope_rows_and_notes():
    rope_row, nope_row = layer_table(config("llama-4-scout-17b-16e-instruct.json"))
    assert rope_row["layers"] == "0-2, 4-6, ..., 44-46" and nope_row["layers"] == "3, 7, ..., 47"
    assert nope_row["kind"] == "nope" and nope_row["query_temperature"] and nope_row["longest_wavelength"] is None
    (row,) = layer_table(config("deepseek-v3.json"))
    assert math.isclose(row["score_scale"], (0.1 * math.log(40) + 1) ** 2)
    (row,) = layer_table(config("edge_pythia-70m_generic-rope-keys.json"))
    assert len(row["notes"]) == 2
    proportional = layer_table(config("gemma-4-style_proportional.json"))[1]
    assert proportional["still_pairs"] == 192 and math.isfinite(proportional["longest_wavelength"])


# --- the check of a dump -------------------------------------------------------------------


def float32(arrays):
    return tuple(array.astype(np.float32) for array in arrays)


@pytest.mark.parametrize(
    "name,layer,positions",
    [
        ("llama-3.1-8b-instruct.json", 0, np.arange(0, 131072, 13)),
        ("phi-3.5-mini-instruct.json", 0, np.arange(5000)),
        ("gpt-oss-20b.json", 0, np.arange(2000)),
        ("qwen2-vl-7b-instruct.json", 0, mrope_positions([3, (1, 6, 8), 4])),
        ("deepseek-v3.json", 0, np.arange(100)),
    ],
)
def test_exact_caches_in_float32_agree(name, layer, positions):
    rope_layer = rope_from_config(config(name), layer=layer)
    cos, sin = float32(rope_layer.cos_sin(positions))
    result = check_cos_sin(config(name), cos, sin, positions=positions, layer=layer)
    assert result.agrees and result.form == "concatenated" and result.explanation is None
    assert result.worst_error <= 2**-24 * rope_layer.attention_factor * 2
    assert 0 < result.float32_error <= result.tolerance


def test_a_float32_computation_of_the_angles_agrees():
    """float32 frequencies times float32 positions, as transformers computes: within the tolerance."""
    rope_layer = rope_from_config(config("llama-3.1-8b-instruct.json"))
    positions = np.arange(0, 131072, 97)
    angles = positions.astype(np.float32)[:, None] * rope_layer.inv_freq.astype(np.float32)
    cos = np.cos(np.concatenate([angles, angles], axis=1).astype(np.float64)).astype(np.float32)
    sin = np.sin(np.concatenate([angles, angles], axis=1).astype(np.float64)).astype(np.float32)
    result = check_cos_sin(config("llama-3.1-8b-instruct.json"), cos, sin, positions=positions)
    assert result.agrees and result.worst_error > 100 * 2**-24  # float32 angles do err at these positions


def test_forms_of_a_dump():
    name = config("c4ai-command-r-v01.json")
    cos, sin = rope_from_config(name).cos_sin(np.arange(30))
    repeated = check_cos_sin(name, np.repeat(cos[:, :64], 2, axis=1), np.repeat(sin[:, :64], 2, axis=1))
    pairs = check_cos_sin(name, cos[:, :64], sin[:, :64])
    assert (repeated.form, repeated.agrees) == ("repeated", True)
    assert (pairs.form, pairs.agrees) == ("pairs", True)
    batched = check_cos_sin(name, cos[None, None], sin[None, None])
    assert batched.agrees


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_half_precision_dumps_are_held_to_their_own_rounding(dtype):
    name = config("llama-2-7b-hf.json")
    cos, sin = rope_from_config(name).cos_sin(np.arange(300))
    result = check_cos_sin(name, cos.astype(dtype), sin.astype(dtype))
    assert result.agrees and result.worst_error > 2**-24


def test_bfloat16_stored_without_ml_dtypes_reads_back():
    """np.savez keeps a bfloat16 array as 2-byte void; read back, it is bfloat16 again."""
    name = config("llama-2-7b-hf.json")
    cos, sin = rope_from_config(name).cos_sin(np.arange(300))
    as_void = [array.astype(ml_dtypes.bfloat16).view("V2") for array in (cos, sin)]
    assert check_cos_sin(name, *as_void).agrees


CASES = [
    ("gemma-3-1b-it.json", 5, np.arange(600)),
    ("gemma-3-4b-it.json", 0, np.arange(600)),
    ("phi-3.5-mini-instruct.json", 0, np.r_[0:100, 4090:4097]),  # seq_len 4097: long factors
    ("phi-3.5-mini-instruct.json", 0, np.r_[0:100, 4090:4096]),  # seq_len 4096: short factors
    ("phi-4-mini-instruct.json", 0, np.arange(300)),
    ("gpt-oss-20b.json", 1, np.arange(0, 60000, 97)),
    ("qwen2.5-7b-instruct_yarn.json", 0, np.arange(600)),
    ("llama-2-7b-hf_dynamic-ntk.json", 0, np.r_[0:100, 4000:4100, 5990:6000]),
    ("pythia-70m.json", 0, np.arange(600)),
    ("phi-2.json", 0, np.arange(600)),
    ("qwen3-vl-8b-instruct.json", 0, mrope_positions([4, (2, 8, 8), 6])),
    ("qwen2.5-vl-7b-instruct.json", 0, mrope_positions([4, (2, 8, 8), 6])),
    ("deepseek-v3.json", 0, np.arange(600)),
    ("gemma-4-style_proportional.json", 5, np.arange(600)),
    ("gemma-4-style_proportional.json", 0, np.arange(600)),
    ("vicuna-7b-v1.5-16k.json", 0, np.arange(600)),
]


@pytest.mark.parametrize("name,layer,positions", CASES)
def test_each_mistake_is_named_from_its_dump(name, layer, positions):
    """A float32 dump of each mistake is explained by that mistake, and by no other."""
    mistakes = mistaken_cos_sin(config(name), positions, layer=layer)
    assert mistakes
    for mistake_name, arrays in mistakes.items():
        cos, sin = float32(arrays)
        result = check_cos_sin(config(name), cos, sin, positions=positions, layer=layer)
        assert not result.agrees, mistake_name
        assert result.explanation == mistake_name, (mistake_name, result.candidates[:3])
        assert [item["name"] for item in result.candidates if item["matches"]] == [mistake_name]


def test_an_unknown_difference_is_not_explained():
    name = config("llama-2-7b-hf.json")
    cos, sin = rope_from_config(name).cos_sin(np.arange(100))
    result = check_cos_sin(name, cos * 0.9, sin * 0.9)
    assert not result.agrees and result.explanation is None and result.candidates
    assert math.isclose(result.worst_error, 0.1, rel_tol=1e-9)


def test_bad_dumps_are_named():
    name = config("llama-2-7b-hf.json")
    cos, sin = rope_from_config(name).cos_sin(np.arange(10))
    with pytest.raises(ValueError, match="same shape"):
        check_cos_sin(name, cos, sin[:5])
    with pytest.raises(ValueError, match="positions give 3 rows but cos has 10"):
        check_cos_sin(name, cos, sin, positions=[0, 1, 2])
    with pytest.raises(ValueError, match="finite"):
        check_cos_sin(name, cos * np.nan, sin)
    with pytest.raises(TypeError, match="float arrays"):
        check_cos_sin(name, cos.astype(int), sin.astype(int))
    with pytest.raises(ValueError, match=r"shape \(n, columns\)"):
        check_cos_sin(name, cos[0], sin[0])
    with pytest.raises(ValueError, match="NoPE"):
        check_cos_sin(config("llama-4-scout-17b-16e-instruct.json"), cos, sin, layer=3)


def test_every_rope_layer_of_every_fixture_checks_its_own_caches():
    for path in sorted(CONFIGS.glob("*.json")):
        for layer in rope_layers(path)[:6]:
            if layer.kind != "rope":
                continue
            cos, sin = float32(layer.cos_sin(np.arange(64)))
            assert check_cos_sin(path, cos, sin, layer=layer.layer).agrees, (path.name, layer.layer)
