"""posenc_math.conventions against the code of each row that PyPI ships:
Hugging Face Marian, M2M100, RoFormer and BLOOM (no weights needed),
rotary-embedding-torch and x-transformers."""

import numpy as np
import pytest

from posenc_math.conventions import (
    convention_position_ids,
    convention_rotate,
    convention_table,
)
from posenc_math.precision import first_merged_position


@pytest.mark.parametrize("dim", [8, 512, 7, 65])
def test_marian_table(torch, dim):
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    reference = MarianSinusoidalPositionalEmbedding(300, dim).create_weight().double().numpy()
    # float64 angles stored as float32: rounding of values in [-1, 1]
    assert np.allclose(convention_table("hf-marian", np.arange(300), dim), reference, rtol=0, atol=6e-8)


@pytest.mark.parametrize("dim", [8, 1024, 11])
def test_m2m100_table(torch, dim):
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding

    reference = M2M100SinusoidalPositionalEmbedding.get_embedding(300, dim, 1).double().numpy()
    # float32 angles: off by up to about p * 2**-24 rad for p < 300
    assert np.allclose(convention_table("hf-m2m100", np.arange(300), dim), reference, rtol=0, atol=3e-5)


@pytest.mark.parametrize("past", [0, 6])
def test_m2m100_position_ids(torch, rng, past):
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding

    tokens = rng.integers(4, 1000, size=(3, 10))
    tokens[0, :4] = 1
    tokens[2, -3:] = 1
    reference = M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids(
        torch.from_numpy(tokens), 1, past
    ).numpy()
    mask = (tokens != 1).astype(int)
    assert np.array_equal(convention_position_ids("hf-m2m100", mask, past_length=past), reference)


def test_roformer_rotation(torch, rng):
    from transformers.models.roformer.modeling_roformer import (
        RoFormerSelfAttention,
        RoFormerSinusoidalPositionalEmbedding,
    )

    dim, n = 64, 200
    table = RoFormerSinusoidalPositionalEmbedding(n, dim).create_weight().double()
    q = rng.normal(size=(1, 2, n, dim))
    reference, _ = RoFormerSelfAttention.apply_rotary_position_embeddings(
        table[None, None], torch.from_numpy(q), torch.from_numpy(q)
    )
    ours = convention_rotate("hf-roformer", q, np.arange(n))
    assert np.allclose(ours, reference.numpy(), rtol=0, atol=1e-6)


def test_bloom_positions_with_left_padding(torch):
    from transformers.models.bloom.modeling_bloom import _get_alibi_slopes, build_alibi_tensor

    mask = np.array([[0, 0, 0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]])
    n_heads = 4
    reference = build_alibi_tensor(torch.from_numpy(mask), n_heads, torch.float64).numpy()
    slopes = _get_alibi_slopes(n_heads, torch.device("cpu")).double().numpy()
    positions = convention_position_ids("hf-bloom", mask)
    expected = (slopes[None, :, None] * positions[:, None, :]).reshape(2 * n_heads, 1, -1)
    assert np.array_equal(reference, expected)


def test_rotary_embedding_torch(torch, rng):
    pytest.importorskip("rotary_embedding_torch")
    from rotary_embedding_torch import RotaryEmbedding

    rotary = RotaryEmbedding(dim=32)
    q = rng.normal(size=(1, 2, 300, 48))
    reference = rotary.rotate_queries_or_keys(torch.from_numpy(q), offset=7).numpy()
    ours = convention_rotate("rotary-embedding-torch", q, np.arange(300) + 7, rotary_dim=32)
    # float32 angles for positions below 310
    assert np.allclose(ours, reference, rtol=0, atol=1e-4)


def test_rotary_embedding_torch_bfloat16_positions_merge(torch):
    pytest.importorskip("rotary_embedding_torch")
    from rotary_embedding_torch import RotaryEmbedding

    q = torch.ones(1, 1, 600, 32, dtype=torch.bfloat16)
    out = RotaryEmbedding(dim=32).rotate_queries_or_keys(q)[0, 0]
    first = next(p for p in range(1, 600) if torch.equal(out[p], out[p - 1]))
    assert first == first_merged_position(32, stop=600, position_dtype="bfloat16") == 257


@pytest.mark.parametrize("head_dim,rotary_dim", [(64, 32), (64, 64), (16, 7)])
def test_x_transformers(torch, rng, head_dim, rotary_dim):
    pytest.importorskip("x_transformers")
    from x_transformers.x_transformers import RotaryEmbedding, apply_rotary_pos_emb

    rotary = RotaryEmbedding(rotary_dim)
    freqs, scale = rotary.forward_from_seq_len(200)
    q = rng.normal(size=(1, 2, 200, head_dim))
    reference = apply_rotary_pos_emb(torch.from_numpy(q), freqs, scale).numpy()
    ours = convention_rotate("x-transformers", q, np.arange(200), rotary_dim=rotary_dim)
    assert np.allclose(ours, reference, rtol=0, atol=1e-4)
