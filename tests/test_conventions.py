"""posenc_math.conventions: every row of the conventions table against its source.

Each ``reference_*`` function below re-implements one codebase's formula in
numpy, line by line from the file named in its docstring (the code that was
read is paraphrased, in float64 so that the comparison checks the formula,
layout, denominator, offsets and odd widths, not float32 rounding).  The
number formats (the "dtype" column) are checked against float32
re-implementations in ``test_number_formats_*``; the opt-in suite
``tests/reference`` compares with the real Hugging Face,
rotary-embedding-torch and x-transformers code.
"""

import math

import numpy as np
import pytest

from posenc_math import alibi_slopes, t5_bucket
from posenc_math.conventions import (
    CONVENTIONS,
    convention,
    convention_bias,
    convention_details,
    convention_frequencies,
    convention_names,
    convention_position_ids,
    convention_rotate,
    convention_table,
    conventions_overview,
)
from posenc_math.precision import computed_angles

POSITIONS = np.array([0, 1, 2, 3, 17, 100, 511, 4095])


# --- re-implementations, each from its published source ---------------------


def reference_tensor2tensor(length, channels, start_index=0, min_timescale=1.0, max_timescale=1.0e4):
    """tensorflow/tensor2tensor, tensor2tensor/layers/common_attention.py
    (75b75f2e), get_timing_signal_1d: split [sin | cos], increment
    log(max/min) / (num_timescales - 1), zero column for odd channels."""
    position = np.arange(length, dtype=np.float64) + start_index
    num_timescales = channels // 2
    log_timescale_increment = math.log(max_timescale / min_timescale) / (num_timescales - 1)
    inv_timescales = min_timescale * np.exp(np.arange(num_timescales) * -log_timescale_increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    return np.pad(signal, [[0, 0], [0, channels % 2]])


def reference_fairseq(num_embeddings, embedding_dim, padding_idx=None):
    """facebookresearch/fairseq, fairseq/modules/sinusoidal_positional_embedding.py
    (0491f269), SinusoidalPositionalEmbedding.get_embedding."""
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = np.exp(np.arange(half_dim, dtype=np.float64) * -emb)
    emb = np.arange(num_embeddings, dtype=np.float64)[:, None] * emb[None, :]
    emb = np.concatenate([np.sin(emb), np.cos(emb)], axis=1)
    if embedding_dim % 2 == 1:
        emb = np.concatenate([emb, np.zeros((num_embeddings, 1))], axis=1)
    if padding_idx is not None:
        emb[padding_idx, :] = 0
    return emb


def reference_make_positions(tokens, padding_idx):
    """fairseq/utils.py (0491f269), make_positions: cumsum of the non-pad mask."""
    mask = (tokens != padding_idx).astype(np.int64)
    return np.cumsum(mask, axis=1) * mask + padding_idx


def reference_pytorch_tutorial(max_len, d_model):
    """pytorch/tutorials, beginner_source/transformer_tutorial.py (00109f5a),
    PositionalEncoding (the (max_len, 1, d) buffer, squeezed)."""
    position = np.arange(max_len)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    pe = np.zeros((max_len, d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)  # fails for odd d_model, as torch does
    return pe


def reference_annotated_transformer(max_len, d_model):
    """harvardnlp/annotated-transformer, the_annotated_transformer.py
    (0a91a254), PositionalEncoding: the same lines as the tutorial,
    batch-first."""
    pe = np.zeros((max_len, d_model))
    position = np.arange(0, max_len)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def reference_marian(n_pos, dim):
    """huggingface/transformers, models/marian/modeling_marian.py,
    MarianSinusoidalPositionalEmbedding.create_weight (also RoFormer's)."""
    position_enc = np.array([[pos / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for pos in range(n_pos)])
    out = np.empty((n_pos, dim))
    sentinel = dim // 2 if dim % 2 == 0 else (dim // 2) + 1
    out[:, 0:sentinel] = np.sin(position_enc[:, 0::2])
    out[:, sentinel:] = np.cos(position_enc[:, 1::2])
    return out


def reference_m2m100_position_ids(input_ids, padding_idx, past_key_values_length=0):
    """huggingface/transformers, models/m2m_100/modeling_m2m_100.py,
    create_position_ids_from_input_ids."""
    mask = (input_ids != padding_idx).astype(np.int64)
    incremental_indices = (np.cumsum(mask, axis=1) + past_key_values_length) * mask
    return incremental_indices + padding_idx


def rotate_half(x):
    """models/llama/modeling_llama.py, rotate_half."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def reference_llama(x, position_ids, base=10000.0):
    """models/llama/modeling_llama.py: LlamaRotaryEmbedding.forward
    (cat(freqs, freqs)) and apply_rotary_pos_emb."""
    dim = x.shape[-1]
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
    freqs = np.asarray(position_ids, dtype=np.float64)[:, None] * inv_freq
    emb = np.concatenate([freqs, freqs], axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


def rotate_every_two(x):
    """models/gptj/modeling_gptj.py, rotate_every_two (also
    rotary-embedding-torch's and x-transformers' rotate_half)."""
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.stack([-x2, x1], axis=-1).reshape(x.shape)


def reference_gptj(x, position_ids, rotary_dim):
    """models/gptj/modeling_gptj.py: create_sinusoidal_positions, the
    sin/cos split, repeat_interleave and the pass-through of the rest."""
    inv_freq = 1.0 / (10000 ** (np.arange(0, rotary_dim, 2) / rotary_dim))
    sinusoid_inp = np.asarray(position_ids, dtype=np.float64)[:, None] * inv_freq
    sin = np.repeat(np.sin(sinusoid_inp), 2, axis=-1)
    cos = np.repeat(np.cos(sinusoid_inp), 2, axis=-1)
    rot, rest = x[..., :rotary_dim], x[..., rotary_dim:]
    return np.concatenate([rot * cos + rotate_every_two(rot) * sin, rest], axis=-1)


def reference_roformer(x, position_ids):
    """models/roformer/modeling_roformer.py: Marian's table, chunk into sin
    and cos, each repeated per pair; rotate_half_query_layer."""
    dim = x.shape[-1]
    table = reference_marian(int(np.max(position_ids)) + 1, dim)[position_ids]
    sin, cos = table[..., : dim // 2], table[..., dim // 2 :]
    sin_pos = np.stack([sin, sin], axis=-1).reshape(table.shape)
    cos_pos = np.stack([cos, cos], axis=-1).reshape(table.shape)
    rotated = np.stack([-x[..., 1::2], x[..., ::2]], axis=-1).reshape(x.shape)
    return x * cos_pos + rotated * sin_pos


def reference_rotary_embedding_torch(x, dim, offset=0, theta=10000.0):
    """lucidrains/rotary-embedding-torch 0.9.1: freqs = 1 / theta **
    (arange(0, dim, 2)[:dim // 2] / dim), repeated (n r), positions
    arange(n) + offset, the middle slice rotated."""
    freqs = 1.0 / (theta ** (np.arange(0, dim, 2)[: dim // 2] / dim))
    seq = np.arange(x.shape[-2], dtype=np.float64) + offset
    angles = np.repeat(seq[:, None] * freqs, 2, axis=-1)
    rot_dim = angles.shape[-1]
    middle, right = x[..., :rot_dim], x[..., rot_dim:]
    return np.concatenate([middle * np.cos(angles) + rotate_every_two(middle) * np.sin(angles), right], axis=-1)


def reference_x_transformers(x, rotary_emb_dim, base=10000.0):
    """lucidrains/x-transformers 2.31.10: inv_freq = 1 / base ** (arange(0,
    dim, 2) / dim), stack((freqs, freqs)) -> (d r), apply_rotary_pos_emb on
    the first rot_dim coordinates."""
    inv_freq = 1.0 / (base ** (np.arange(0, rotary_emb_dim, 2) / rotary_emb_dim))
    t = np.arange(x.shape[-2], dtype=np.float64)
    freqs = np.repeat(t[:, None] * inv_freq, 2, axis=-1)
    rot_dim = freqs.shape[-1]
    t_rot, t_unrotated = x[..., :rot_dim], x[..., rot_dim:]
    return np.concatenate([t_rot * np.cos(freqs) + rotate_every_two(t_rot) * np.sin(freqs), t_unrotated], axis=-1)


def reference_t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """models/t5/modeling_t5.py, T5Attention._relative_position_bucket
    (the logarithm in float32, as relative_position.float() does)."""
    relative_buckets = np.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).astype(np.int64) * num_buckets
        relative_position = np.abs(relative_position)
    else:
        relative_position = -np.minimum(relative_position, 0)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) for the small ones
        large = max_exact + (
            np.log(relative_position.astype(np.float32) / np.float32(max_exact))
            / np.float32(math.log(max_distance / max_exact))
            * np.float32(num_buckets - max_exact)
        ).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return relative_buckets + np.where(is_small, relative_position, large)


def reference_bloom_alibi(attention_mask, num_heads):
    """models/bloom/modeling_bloom.py, _get_alibi_slopes and
    build_alibi_tensor (float64 here)."""
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = 2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3)))
    slopes = base ** np.arange(1, 1 + closest_power_of_2)
    if closest_power_of_2 != num_heads:
        extra_base = 2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3)))
        num_remaining_heads = min(closest_power_of_2, num_heads - closest_power_of_2)
        slopes = np.concatenate([slopes, extra_base ** np.arange(1, 1 + 2 * num_remaining_heads, 2)])
    arange_tensor = ((np.cumsum(attention_mask, axis=-1) - 1) * attention_mask)[:, None, :]
    return slopes[None, :, None] * arange_tensor  # (batch, heads, keys)


def reference_mpt_alibi(num_heads, sequence_length, alibi_bias_max=8):
    """models/mpt/modeling_mpt.py, build_mpt_alibi_tensor."""
    alibi = np.arange(1 - sequence_length, 1).reshape(1, 1, sequence_length)
    num_heads_power_of_2 = 2 ** math.ceil(math.log2(num_heads))
    base = np.arange(1, num_heads_power_of_2 + 1) * (alibi_bias_max / num_heads_power_of_2)
    slopes = (1.0 / np.power(2, base)).reshape(num_heads_power_of_2, 1, 1)
    if num_heads_power_of_2 != num_heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:num_heads]
    return (alibi * slopes)[:, 0, :]


# --- the table itself ----------------------------------------------------------


def test_every_row_is_complete_and_cited():
    assert len(CONVENTIONS) == 14 and len({row.name for row in CONVENTIONS}) == 14
    for row in CONVENTIONS:
        for field in ("formula", "denominator", "layout", "dtype", "positions", "odd_dim", "source"):
            assert getattr(row, field).strip(), (row.name, field)
        assert row.cite


def test_cited_keys_are_in_the_bibliography():
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    keys = set()
    for bib in docs.glob("*.bib"):
        keys.update(re.findall(r"@\w+\{([^,]+),", bib.read_text(encoding="utf-8")))
    missing = {key for row in CONVENTIONS for key in row.cite} - keys
    assert not missing


def test_overview_and_details_render_every_row():
    overview = conventions_overview()
    assert all(f"| {row.name} |" in overview for row in CONVENTIONS)
    details = convention_details("hf-marian")
    assert "{cite:p}`wolf2020transformers`" in details and "\nOdd width\n: " in details


# --- absolute tables ----------------------------------------------------------


@pytest.mark.parametrize("dim", [4, 6, 64, 512, 7, 65])
def test_tensor2tensor(dim):
    ours = convention_table("tensor2tensor", np.arange(600), dim)
    assert np.allclose(ours, reference_tensor2tensor(600, dim), rtol=0, atol=1e-12)


def test_tensor2tensor_start_index():
    ours = convention_table("tensor2tensor", np.arange(10, 60), 32)
    assert np.allclose(ours, reference_tensor2tensor(50, 32, start_index=10), rtol=0, atol=1e-12)


@pytest.mark.parametrize("dim", [4, 16, 512, 9])
def test_fairseq_table_and_padding_row(dim):
    ours = convention_table("fairseq", np.arange(600), dim)
    assert np.allclose(ours, reference_fairseq(600, dim, padding_idx=1), rtol=0, atol=1e-12)
    assert not ours[1].any() and ours[0].any()


def test_fairseq_refuses_dim_2_as_it_divides_by_zero():
    with pytest.raises(ZeroDivisionError):
        reference_fairseq(3, 2)
    with pytest.raises(ValueError, match="dim >= 4"):
        convention_table("fairseq", [0], 2)


def test_fairseq_positions_skip_left_padding(rng):
    tokens = rng.integers(4, 100, size=(3, 9))
    tokens[0, :4] = 1
    tokens[2, :1] = 1
    mask = (tokens != 1).astype(int)
    assert np.array_equal(convention_position_ids("fairseq", mask), reference_make_positions(tokens, 1))


@pytest.mark.parametrize(
    "name,reference",
    [("pytorch-tutorial", reference_pytorch_tutorial), ("annotated-transformer", reference_annotated_transformer)],
)
@pytest.mark.parametrize("dim", [2, 8, 512])
def test_paper_interleaved(name, reference, dim):
    ours = convention_table(name, np.arange(5000), dim)
    assert np.allclose(ours, reference(5000, dim), rtol=0, atol=1e-11)


@pytest.mark.parametrize(
    "name,reference",
    [("pytorch-tutorial", reference_pytorch_tutorial), ("annotated-transformer", reference_annotated_transformer)],
)
def test_paper_interleaved_fails_for_odd_width_like_the_code(name, reference):
    with pytest.raises(ValueError):  # noqa: PT011 (numpy's broadcast message; torch raises RuntimeError)
        reference(10, 7)
    with pytest.raises(ValueError, match="odd dim"):
        convention_table(name, np.arange(10), 7)


@pytest.mark.parametrize("name", ["pytorch-tutorial", "annotated-transformer"])
def test_no_offset_in_the_tutorials(name):
    with pytest.raises(ValueError, match="no position offset"):
        convention_position_ids(name, [[1, 1]], past_length=3)


@pytest.mark.parametrize("dim", [2, 8, 512, 5, 7, 513])
def test_marian_including_the_extra_sine(dim):
    ours = convention_table("hf-marian", np.arange(300), dim)
    assert np.allclose(ours, reference_marian(300, dim), rtol=0, atol=1e-12)


def test_marian_positions_count_padding_and_the_cache():
    assert np.array_equal(convention_position_ids("hf-marian", [[0, 1, 1]], past_length=5), [[5, 6, 7]])


@pytest.mark.parametrize("dim", [8, 1024, 11])
def test_m2m100_is_fairseq(dim):
    ours = convention_table("hf-m2m100", np.arange(300), dim)
    assert np.allclose(ours, reference_fairseq(300, dim, padding_idx=1), rtol=0, atol=1e-12)


@pytest.mark.parametrize("past", [0, 7])
def test_m2m100_position_ids(rng, past):
    tokens = rng.integers(4, 100, size=(4, 12))
    tokens[1, :5] = 1
    tokens[3, -2:] = 1  # right padding too
    mask = (tokens != 1).astype(int)
    assert np.array_equal(
        convention_position_ids("hf-m2m100", mask, past_length=past),
        reference_m2m100_position_ids(tokens, 1, past),
    )


def test_frequencies_of_each_spacing():
    assert np.allclose(convention_frequencies("tensor2tensor", 8), [1, 10000 ** (-1 / 3), 10000 ** (-2 / 3), 1e-4])
    assert np.allclose(convention_frequencies("hf-marian", 8), 10000.0 ** (-np.arange(4) / 4))
    with pytest.raises(ValueError, match="kind"):
        convention_frequencies("hf-t5", 8)


# --- rotations -------------------------------------------------------------------


@pytest.mark.parametrize("dim,base", [(8, 10000.0), (128, 500000.0)])
def test_llama(rng, dim, base):
    x = rng.normal(size=(3, 40, dim))
    positions = rng.integers(0, 8192, size=40)
    assert np.allclose(
        convention_rotate("hf-llama", x, positions, base=base), reference_llama(x, positions, base), rtol=0, atol=1e-9
    )


def test_llama_odd_head_fails_like_the_code(rng):
    with pytest.raises(ValueError):  # noqa: PT011 (numpy's broadcast message: cos has 8 columns, the head 7)
        reference_llama(np.ones((2, 7)), [0, 1])
    with pytest.raises(ValueError, match="odd rotary"):
        convention_rotate("hf-llama", np.ones((2, 7)), [0, 1])


def test_gptj_partial_rotation(rng):
    x = rng.normal(size=(2, 30, 256))
    positions = np.arange(30) + 1000
    ours = convention_rotate("hf-gptj", x, positions, rotary_dim=64)
    assert np.allclose(ours, reference_gptj(x, positions, 64), rtol=0, atol=1e-10)
    assert np.array_equal(ours[..., 64:], x[..., 64:])


def test_roformer(rng):
    x = rng.normal(size=(2, 50, 64))
    positions = np.arange(50)
    assert np.allclose(
        convention_rotate("hf-roformer", x, positions), reference_roformer(x, positions), rtol=0, atol=1e-12
    )


def test_rotary_embedding_torch(rng):
    x = rng.normal(size=(2, 40, 48))
    ours = convention_rotate("rotary-embedding-torch", x, np.arange(40) + 5, rotary_dim=32)
    assert np.allclose(ours, reference_rotary_embedding_torch(x, 32, offset=5), rtol=0, atol=1e-12)


@pytest.mark.parametrize("head_dim,rotary_dim", [(64, None), (64, 64), (16, 7)])
def test_x_transformers(rng, head_dim, rotary_dim):
    x = rng.normal(size=(2, 30, head_dim))
    used = head_dim // 2 if rotary_dim is None else rotary_dim
    ours = convention_rotate("x-transformers", x, np.arange(30), rotary_dim=rotary_dim)
    assert np.allclose(ours, reference_x_transformers(x, used), rtol=0, atol=1e-12)


def test_x_transformers_odd_rotary_dim_needs_room():
    with pytest.raises(ValueError, match="rotates 8 coordinates"):
        convention_rotate("x-transformers", np.ones((2, 7)), [0, 1], rotary_dim=7)


def test_layouts_differ_by_the_permutation(rng):
    from posenc_math import interleaved_to_half

    x = rng.normal(size=(10, 16))
    perm = interleaved_to_half(16)
    half = convention_rotate("hf-llama", x[:, perm], np.arange(10))
    interleaved = convention_rotate("hf-roformer", x, np.arange(10))
    assert np.allclose(half, interleaved[:, perm], rtol=0, atol=1e-13)


# --- biases ------------------------------------------------------------------------


def test_t5_bucket_row():
    offsets = np.arange(-1000, 1001)
    for bidirectional in (True, False):
        assert np.array_equal(
            t5_bucket(offsets, bidirectional=bidirectional), reference_t5_bucket(offsets, bidirectional=bidirectional)
        )
    grid = convention_bias("hf-t5", 5, 9, past_length=4)
    expected = reference_t5_bucket(np.arange(9)[None, :] - (np.arange(5) + 4)[:, None])
    assert np.array_equal(grid, expected)


@pytest.mark.parametrize("n_heads", [1, 8, 12, 112])
def test_bloom_bias_and_positions(n_heads):
    mask = np.array([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    reference = reference_bloom_alibi(mask, n_heads)
    # BLOOM raises a base to the power k, the library computes 2 ** (-8 k / n):
    # equal up to float64 rounding of the power
    assert np.allclose(reference[1], convention_bias("hf-bloom", 6, n_heads=n_heads), rtol=1e-13, atol=0)
    assert np.allclose(
        reference[0], alibi_slopes(n_heads)[:, None] * convention_position_ids("hf-bloom", mask)[0], rtol=1e-13, atol=0
    )


@pytest.mark.parametrize("n_heads", [1, 2, 3, 8, 12, 24, 32])
def test_mpt_bias(n_heads):
    assert np.allclose(
        convention_bias("hf-mpt", 11, n_heads=n_heads), reference_mpt_alibi(n_heads, 11), rtol=1e-13, atol=0
    )


def test_bias_needs_a_bias_convention():
    with pytest.raises(ValueError, match="kind"):
        convention_bias("fairseq", 3)


# --- number formats (the dtype column) ------------------------------------------


def float32_tensor2tensor_angles(positions, channels):
    """get_timing_signal_1d's scaled_time in float32, as tf.to_float makes it."""
    num_timescales = channels // 2
    increment = np.float32(math.log(1.0e4) / (num_timescales - 1))
    inv_timescales = np.exp(np.arange(num_timescales, dtype=np.float32) * -increment)
    return np.asarray(positions, dtype=np.float32)[:, None] * inv_timescales[None, :]


def float32_llama_angles(positions, dim, base=10000.0):
    """LlamaRotaryEmbedding: float32 inv_freq, position_ids.float() * inv_freq."""
    inv_freq = (1.0 / (np.float32(base) ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)))).astype(
        np.float32
    )
    return np.asarray(positions, dtype=np.float32)[:, None] * inv_freq


def test_number_formats_llama_angles_are_float32():
    positions = np.array([1, 1000, 123457, 5_000_001])
    row = convention("hf-llama")
    ours = computed_angles(
        positions,
        64,
        position_dtype=row.position_dtype,
        frequency_dtype=row.frequency_dtype,
        angle_dtype=row.angle_dtype,
    )
    theirs = float32_llama_angles(positions, 64).astype(np.float64)
    assert np.array_equal(ours, ours.astype(np.float32))  # float32 values
    # the code's own float32 power may differ from the correctly rounded
    # frequency by an ulp: allow 2 ulps of the angle
    assert np.all(np.abs(ours - theirs) <= 2 * np.spacing(np.abs(theirs).astype(np.float32)))


def test_number_formats_t2t_angles_are_float32():
    positions = np.arange(1, 20000, 7)
    theirs = float32_tensor2tensor_angles(positions, 64).astype(np.float64)
    exact = np.outer(positions, convention_frequencies("tensor2tensor", 64))
    relative = np.abs(theirs - exact) / exact
    # float32-sized errors: far above float64's 1e-16, below float16's 5e-4
    # (the float32 increment, multiplied by up to 31 in the exponent, adds
    # a few ulps)
    assert 1e-8 < relative.max() < 2e-5
    assert np.array_equal(theirs, theirs.astype(np.float32))


def test_marian_and_roformer_angles_are_float64():
    for name in ("hf-marian", "hf-roformer"):
        row = convention(name)
        assert (row.position_dtype, row.frequency_dtype, row.angle_dtype) == ("float64",) * 3


def test_rotary_embedding_torch_positions_follow_the_queries():
    assert convention("rotary-embedding-torch").position_dtype == "input"
    held = computed_angles([256, 257], 4, position_dtype="bfloat16", frequency_dtype="float32", angle_dtype="float32")
    assert np.array_equal(held[0], held[1])


def test_bad_names_and_masks():
    with pytest.raises(ValueError, match="name must be one of"):
        convention("llama")
    with pytest.raises(ValueError, match="kind must be one of"):
        convention_names("sinusoid")
    with pytest.raises(ValueError, match="attention_mask"):
        convention_position_ids("fairseq", [[0, 2]])
    with pytest.raises(TypeError, match="positions"):
        convention_table("fairseq", [0.5], 8)
    assert convention_names("rotary") == (
        "hf-llama",
        "hf-gptj",
        "hf-roformer",
        "rotary-embedding-torch",
        "x-transformers",
    )
