"""rope / rope_frequencies against transformers' rotary code."""

import numpy as np
import pytest

from posenc_math import rope, rope_frequencies


def llama_config(transformers, dim, base, parameters, max_position_embeddings):
    return transformers.LlamaConfig(
        hidden_size=dim * 4,
        num_attention_heads=4,
        head_dim=dim,
        max_position_embeddings=max_position_embeddings,
        rope_parameters=dict(parameters, rope_theta=base),
    )


@pytest.mark.parametrize("dim,base", [(8, 10000.0), (64, 10000.0), (128, 500000.0)])
def test_rotate_half_formula_in_float64(torch, dim, base, rng):
    """apply_rotary_pos_emb with cos/sin built as LlamaRotaryEmbedding does,
    in float64: the half layout, to rounding."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    batch, heads, n = 2, 3, 50
    q = rng.normal(size=(batch, heads, n, dim))
    k = rng.normal(size=(batch, heads, n, dim))
    positions = rng.integers(0, 4096, size=(batch, n))
    inv_freq, _ = rope_frequencies(dim, base=base)
    angles = torch.from_numpy(positions).double()[..., None] * torch.from_numpy(inv_freq)
    emb = torch.cat((angles, angles), dim=-1)
    q_ref, k_ref = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(k), emb.cos(), emb.sin())
    assert np.allclose(rope(q, positions[:, None, :], base=base), q_ref.numpy(), rtol=0, atol=1e-11)
    assert np.allclose(rope(k, positions[:, None, :], base=base), k_ref.numpy(), rtol=0, atol=1e-11)


def test_llama_rotary_embedding_float32(torch, transformers, rng):
    """The whole Llama path (LlamaRotaryEmbedding in float32), to float32 rounding."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    dim, n = 64, 300
    config = llama_config(transformers, dim, 500000.0, {"rope_type": "default"}, 8192)
    rotary = LlamaRotaryEmbedding(config)
    q = rng.normal(size=(1, 2, n, dim)).astype(np.float32)
    position_ids = torch.arange(n)[None, :]
    cos, sin = rotary(torch.from_numpy(q), position_ids)
    q_ref, _ = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(q), cos, sin)
    # float32 angles p * w are off by up to ~p * 6e-8 rad
    assert np.allclose(rope(q, np.arange(n), base=500000.0), q_ref.numpy(), rtol=0, atol=1e-4)


def test_gptj_interleaved(torch, rng):
    from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb, create_sinusoidal_positions

    dim, n = 16, 40
    x = rng.normal(size=(1, n, 2, dim))  # GPT-J: (batch, seq, heads, dim)
    table = create_sinusoidal_positions(n, dim).double()  # float32 angles
    sin, cos = torch.split(table[None], dim // 2, dim=-1)
    reference = apply_rotary_pos_emb(torch.from_numpy(x), sin, cos).numpy()
    ours = rope(np.swapaxes(x, 1, 2), np.arange(n), layout="interleaved")
    assert np.allclose(np.swapaxes(ours, 1, 2), reference, rtol=0, atol=1e-5)


def test_roformer_interleaved(torch, rng):
    from transformers.models.roformer.modeling_roformer import (
        RoFormerSelfAttention,
        RoFormerSinusoidalPositionalEmbedding,
    )

    dim, n = 16, 40
    table = RoFormerSinusoidalPositionalEmbedding(n, dim)
    table.weight.data = table.create_weight()
    sinusoidal_pos = table(torch.Size([1, n])).double()[None, None]
    q = rng.normal(size=(1, 2, n, dim))
    q_ref, _ = RoFormerSelfAttention.apply_rotary_position_embeddings(
        sinusoidal_pos, torch.from_numpy(q), torch.from_numpy(q)
    )
    assert np.allclose(rope(q, np.arange(n), layout="interleaved"), q_ref.numpy(), rtol=0, atol=1e-6)


CASES = [
    (128, 10000.0, {"rope_type": "default"}, 4096, None),
    (64, 10000.0, {"rope_type": "linear", "factor": 4.0}, 2048, None),
    (128, 10000.0, {"rope_type": "dynamic", "factor": 2.0}, 4096, 10000),
    (128, 10000.0, {"rope_type": "dynamic", "factor": 2.0}, 4096, 100),
    (128, 10000.0, {"rope_type": "dynamic", "factor": 1.0}, 4096, 16384),
    (
        128,
        500000.0,
        {
            "rope_type": "llama3",
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
        },
        131072,
        None,
    ),
    (
        64,
        500000.0,
        {
            "rope_type": "llama3",
            "factor": 32.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
        },
        131072,
        None,
    ),
    (128, 1000000.0, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}, 131072, None),
    (
        128,
        1000000.0,
        {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "truncate": False},
        131072,
        None,
    ),
    (
        64,
        10000.0,
        {
            "rope_type": "yarn",
            "factor": 40.0,
            "original_max_position_embeddings": 4096,
            "mscale": 1.0,
            "mscale_all_dim": 1.0,
            "beta_fast": 32,
            "beta_slow": 1,
        },
        163840,
        None,
    ),
    (
        64,
        10000.0,
        {
            "rope_type": "yarn",
            "factor": 40.0,
            "original_max_position_embeddings": 4096,
            "mscale": 0.707,
            "mscale_all_dim": 1.0,
        },
        163840,
        None,
    ),
    (
        128,
        10000.0,
        {
            "rope_type": "yarn",
            "factor": 8.0,
            "original_max_position_embeddings": 4096,
            "attention_factor": 0.9,
            "beta_fast": 16,
            "beta_slow": 2,
        },
        32768,
        None,
    ),
    (
        128,
        10000.0,
        {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 2048, "beta_fast": 0},
        32768,
        None,
    ),
    (32, 10000.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64}, 128, None),
]


@pytest.mark.parametrize("dim,base,parameters,max_position_embeddings,seq_len", CASES)
def test_rope_init_functions(torch, transformers, dim, base, parameters, max_position_embeddings, seq_len):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = llama_config(transformers, dim, base, dict(parameters), max_position_embeddings)
    if parameters["rope_type"] == "default":
        reference, attention = LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        reference, attention = ROPE_INIT_FUNCTIONS[parameters["rope_type"]](config, None, seq_len=seq_len)
    ours, our_attention = rope_frequencies(
        dim, base=base, scaling=dict(parameters), seq_len=seq_len, max_position_embeddings=max_position_embeddings
    )
    # transformers computes base ** (2j / dim) in float32
    assert np.allclose(ours, reference.double().numpy(), rtol=5e-7, atol=0)
    assert our_attention == pytest.approx(float(attention), rel=1e-15)


@pytest.mark.parametrize("batch, heads", [(2, 3), (4, 4)])  # batch == heads: the shape that used to turn heads
def test_batch_position_ids_as_llama_passes_them(torch, transformers, rng, batch, heads):
    """position_ids (batch, n) through LlamaRotaryEmbedding and apply_rotary_pos_emb (unsqueeze_dim=1)
    against rope(q, position_ids) and apply_rotary with transformers' own caches."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    from posenc_math import apply_rotary

    dim, n = 64, 40
    config = llama_config(transformers, dim, 10000.0, {"rope_type": "default"}, 4096)
    rotary = LlamaRotaryEmbedding(config)
    q = rng.normal(size=(batch, heads, n, dim)).astype(np.float32)
    k = rng.normal(size=(batch, heads, n, dim)).astype(np.float32)
    position_ids = rng.integers(0, 3000, size=(batch, n))
    cos, sin = rotary(torch.from_numpy(q), torch.from_numpy(position_ids))  # (batch, n, dim), float32
    q_ref, k_ref = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(k), cos, sin)
    # the same caches applied by apply_rotary: float64 arithmetic rounded once, within a float32 ulp or two
    for x, reference in ((q, q_ref), (k, k_ref)):
        assert np.allclose(apply_rotary(x, cos.numpy(), sin.numpy()), reference.numpy(), rtol=0, atol=2e-6)
    # rope's exact angles: within float32's angle error (about position * 6e-8 rad)
    assert np.allclose(rope(q, position_ids), q_ref.numpy(), rtol=0, atol=2e-3)
    if batch == heads:  # the old reading, heads turned by the batch's ids, is far from it
        per_head = np.broadcast_to(position_ids[None, :, :], (batch, heads, n))
        assert not np.allclose(rope(q, per_head), q_ref.numpy(), rtol=0, atol=1e-2)


def test_mrope_batch_position_ids_as_qwen2vl_passes_them(torch, transformers, rng):
    """M-RoPE ids (3, batch, n): each sequence's ids for all its heads."""
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding, apply_rotary_pos_emb

    from posenc_math import mrope

    head_dim, sections, batch, heads, n = 32, [4, 6, 6], 2, 2, 12
    config = transformers.Qwen2VLTextConfig(
        hidden_size=head_dim * heads,
        num_attention_heads=heads,
        rope_parameters={"rope_type": "default", "rope_theta": 1e4, "mrope_section": sections},
    )
    rotary = Qwen2VLRotaryEmbedding(config)
    ids = rng.integers(0, 50, size=(3, batch, n))
    q = rng.normal(size=(batch, heads, n, head_dim))
    cos, sin = rotary(torch.from_numpy(q), torch.from_numpy(ids))
    q_ref, _ = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(q), cos.double(), sin.double())
    assert np.allclose(mrope(q, ids, sections), q_ref.numpy(), rtol=0, atol=2e-5)
