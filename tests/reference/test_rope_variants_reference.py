"""The RoPE variants against transformers 5.x and rotary-embedding-torch themselves.

longrope (Phi-3), proportional (Gemma 4), partial rotary (Phi-3's
``partial_rotary_factor``), M-RoPE (Qwen2-VL), and rotary-embedding-torch's
axial RoPE and xPos.  transformers computes angles in float32, so its values
agree with ours to float32 rounding (about 6e-8 times the angle);
rotary-embedding-torch runs here in float64 and agrees to rounding.
"""

import importlib.util

import numpy as np
import pytest

from posenc_math import (
    axial_positions,
    axial_rope,
    mrope,
    mrope_positions,
    pixel_frequencies,
    rope,
    rope_cos_sin,
    rope_frequencies,
    xpos,
)

SHORT = [1.0, 1.1, 1.3, 1.7, 2.5, 4.0, 7.0, 9.5]
LONG = [1.0, 1.5, 2.5, 4.5, 8.0, 15.0, 30.0, 48.0]


def phi3_config(transformers, head_dim, parameters, max_position_embeddings=131072, original=4096):
    return transformers.Phi3Config(
        hidden_size=head_dim * 4,
        num_attention_heads=4,
        max_position_embeddings=max_position_embeddings,
        original_max_position_embeddings=original,
        rope_parameters=dict(parameters),
    )


@pytest.mark.parametrize("seq_len", [None, 4096, 4097, 100000])
@pytest.mark.parametrize("fraction", [1.0, 0.5])
def test_longrope_init_function(torch, transformers, seq_len, fraction):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    head_dim = int(16 / fraction)
    parameters = {
        "rope_type": "longrope",
        "short_factor": SHORT,
        "long_factor": LONG,
        "rope_theta": 10000.0,
        "partial_rotary_factor": fraction,
    }
    config = phi3_config(transformers, head_dim, parameters)
    reference, attention = ROPE_INIT_FUNCTIONS["longrope"](config, None, seq_len=seq_len)
    ours, our_attention = rope_frequencies(
        head_dim,
        scaling=dict(parameters, original_max_position_embeddings=4096),
        seq_len=seq_len,
        max_position_embeddings=131072,
    )
    assert np.allclose(ours, reference.double().numpy(), rtol=5e-7, atol=0)
    assert our_attention == pytest.approx(float(attention), rel=1e-15)


def test_phi3_rotary_embedding_switches_to_long_factors(torch, transformers, rng):
    """The whole Phi-3 path: Phi3RotaryEmbedding (dynamic longrope update) and its apply_rotary_pos_emb."""
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding, apply_rotary_pos_emb

    head_dim = 32
    parameters = {
        "rope_type": "longrope",
        "short_factor": SHORT,
        "long_factor": LONG,
        "rope_theta": 10000.0,
        "partial_rotary_factor": 0.5,
    }
    config = phi3_config(transformers, head_dim, parameters)
    rotary = Phi3RotaryEmbedding(config)
    q = rng.normal(size=(1, 2, 20, head_dim))
    for start in (0, 5000):  # within the original 4096 positions, then past them
        positions = np.arange(start, start + 20)
        cos, sin = rotary(torch.from_numpy(q), torch.from_numpy(positions)[None])
        q_ref, _ = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(q), cos.double(), sin.double())
        inv_freq, attention = rope_frequencies(
            head_dim,
            scaling=dict(parameters, original_max_position_embeddings=4096),
            seq_len=int(positions.max()) + 1,
            max_position_embeddings=131072,
        )
        ours = rope(q, positions, inv_freq=inv_freq, rotary_dim=16, attention_factor=attention)
        # float32 angles: off by up to ~p * 6e-8
        tolerance = 1e-3 if start else 2e-5
        assert np.allclose(ours, q_ref.numpy(), rtol=0, atol=tolerance)
        our_cos, our_sin = rope_cos_sin(positions, inv_freq, attention_factor=attention)
        assert np.allclose(our_cos, cos[0].double().numpy(), rtol=0, atol=tolerance)
        assert np.allclose(our_sin, sin[0].double().numpy(), rtol=0, atol=tolerance)


@pytest.mark.parametrize("fraction", [0.25, 0.5, 1.0])
@pytest.mark.parametrize("factor", [None, 4.0])
def test_proportional_init_function(torch, transformers, fraction, factor):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    parameters = {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": fraction}
    if factor is not None:
        parameters["factor"] = factor
    config = transformers.LlamaConfig(
        hidden_size=256 * 4, num_attention_heads=4, head_dim=256, rope_parameters=dict(parameters)
    )
    reference, attention = ROPE_INIT_FUNCTIONS["proportional"](config, None)
    ours, our_attention = rope_frequencies(256, base=1e6, scaling=parameters)
    assert np.allclose(ours, reference.double().numpy(), rtol=5e-7, atol=0)
    assert our_attention == float(attention)


@pytest.mark.parametrize("rope_type", ["default", "linear", "yarn"])
def test_partial_rotary_factor_init_functions(torch, transformers, rope_type):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    parameters = {"rope_type": rope_type, "rope_theta": 10000.0, "partial_rotary_factor": 0.4}
    if rope_type != "default":
        parameters["factor"] = 4.0
    if rope_type == "yarn":
        parameters["original_max_position_embeddings"] = 1024
    config = transformers.LlamaConfig(
        hidden_size=80 * 4,
        num_attention_heads=4,
        head_dim=80,
        max_position_embeddings=4096,
        rope_parameters=dict(parameters),
    )
    if rope_type == "default":  # Llama's default ignores the factor; use the Phi-3 rule (which reads it)
        from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

        reference, attention = Phi3RotaryEmbedding.compute_default_rope_parameters(config)
        assert LlamaRotaryEmbedding is not None
    else:
        reference, attention = ROPE_INIT_FUNCTIONS[rope_type](config, None)
    ours, our_attention = rope_frequencies(80, scaling=parameters, max_position_embeddings=4096)
    assert ours.shape == (16,)
    assert np.allclose(ours, reference.double().numpy(), rtol=5e-7, atol=0)
    assert our_attention == pytest.approx(float(attention), rel=1e-15)


def test_qwen2vl_mrope(torch, transformers, rng):
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding, apply_rotary_pos_emb

    head_dim, sections, n = 128, [16, 24, 24], 50
    config = transformers.Qwen2VLTextConfig(
        hidden_size=head_dim * 4,
        num_attention_heads=4,
        rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": sections},
    )
    rotary = Qwen2VLRotaryEmbedding(config)
    t, h, w = np.meshgrid(np.arange(2), np.arange(4), np.arange(5), indexing="ij")
    vision = np.stack([t.ravel(), h.ravel(), w.ravel()]) + 3
    ids = np.concatenate(
        [np.tile(np.arange(3), (3, 1)), vision, np.tile(np.arange(n - 43) + vision.max() + 1, (3, 1))], axis=1
    )
    q = rng.normal(size=(1, 2, n, head_dim))
    cos, sin = rotary(torch.from_numpy(q), torch.from_numpy(ids)[:, None, :])
    q_ref, _ = apply_rotary_pos_emb(torch.from_numpy(q), torch.from_numpy(q), cos.double(), sin.double())
    ours = mrope(q, ids[:, None, None, :], sections, base=1e6)
    assert np.allclose(ours, q_ref.numpy(), rtol=0, atol=2e-5)


@pytest.fixture(scope="module")
def rotary_embedding_torch():
    if importlib.util.find_spec("rotary_embedding_torch") is None:
        pytest.skip("needs rotary-embedding-torch: pip install -e '.[reference]'")
    import rotary_embedding_torch

    return rotary_embedding_torch


@pytest.mark.parametrize("freqs_for", ["lang", "pixel"])
def test_axial_rope(torch, rotary_embedding_torch, freqs_for, rng):
    from rotary_embedding_torch import RotaryEmbedding, apply_rotary_emb

    axis_dim, height, width, extra = 16, 6, 9, 8
    rotary = RotaryEmbedding(dim=axis_dim, freqs_for=freqs_for, max_freq=32).double()
    freqs = rotary.get_axial_freqs(height, width)
    x = rng.normal(size=(1, height, width, 2 * axis_dim + extra))
    reference = apply_rotary_emb(freqs, torch.from_numpy(x)).numpy()
    inv_freq = pixel_frequencies(axis_dim, max_freq=32) if freqs_for == "pixel" else rope_frequencies(axis_dim)[0]
    grid = axial_positions((height, width), normalized=freqs_for == "pixel")
    ours = axial_rope(x.reshape(1, height * width, -1), grid, inv_freq=inv_freq).reshape(x.shape)
    # the module's frequencies are float32 parameters even after .double()
    assert np.allclose(ours, reference, rtol=0, atol=1e-5)


def test_xpos(torch, rotary_embedding_torch, rng):
    from rotary_embedding_torch import RotaryEmbedding

    dim, n = 32, 64
    rotary = RotaryEmbedding(dim=dim, use_xpos=True, cache_if_possible=False)
    q = rng.normal(size=(1, 2, n, dim)).astype(np.float32)
    k = rng.normal(size=(1, 2, n, dim)).astype(np.float32)
    q_ref, k_ref = rotary.rotate_queries_and_keys(torch.from_numpy(q), torch.from_numpy(k))
    ours_q = xpos(q.astype(np.float64), np.arange(n), center=n // 2)
    ours_k = xpos(k.astype(np.float64), np.arange(n), key=True, center=n // 2)
    assert np.allclose(ours_q, q_ref.double().numpy(), rtol=0, atol=1e-4)
    assert np.allclose(ours_k, k_ref.double().numpy(), rtol=0, atol=1e-4)


def test_qwen2vl_get_rope_index(torch, transformers):
    """mrope_positions against Qwen2VLModel.get_rope_index (called on a stand-in holding only its config)."""
    import types

    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel

    merge = 2
    stand_in = types.SimpleNamespace(
        config=types.SimpleNamespace(vision_config=types.SimpleNamespace(spatial_merge_size=merge))
    )
    stand_in.get_vision_position_ids = types.MethodType(Qwen2VLModel.get_vision_position_ids, stand_in)
    segments = [5, (1, 3, 4), 2, (2, 2, 5), 3]
    types_row, grids = [], []
    for segment in segments:
        if isinstance(segment, int):
            types_row += [0] * segment
        else:
            types_row += [1] * int(np.prod(segment))
            grids.append([segment[0], segment[1] * merge, segment[2] * merge])  # the grid before the merge
    mm_token_type_ids = torch.tensor([types_row])
    input_ids = torch.zeros_like(mm_token_type_ids)
    position_ids, _ = Qwen2VLModel.get_rope_index(
        stand_in, input_ids, mm_token_type_ids, image_grid_thw=torch.tensor(grids)
    )
    assert np.array_equal(mrope_positions(segments), position_ids[:, 0].numpy())


def test_qwen2vl_get_rope_index_of_a_padded_batch(torch, transformers):
    """mrope_positions(..., attention_mask=) against get_rope_index on a left- and a right-padded sequence."""
    import types

    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel

    merge = 2
    stand_in = types.SimpleNamespace(
        config=types.SimpleNamespace(vision_config=types.SimpleNamespace(spatial_merge_size=merge))
    )
    stand_in.get_vision_position_ids = types.MethodType(Qwen2VLModel.get_vision_position_ids, stand_in)
    sequences = [[3, (1, 2, 2), 2], [2, (1, 1, 3), 4]]
    width = 14
    masks, types_rows, grids = [], [], []
    for row, segments in enumerate(sequences):
        kinds = []
        for segment in segments:
            if isinstance(segment, int):
                kinds += [0] * segment
            else:
                kinds += [1] * int(np.prod(segment))
                grids.append([segment[0], segment[1] * merge, segment[2] * merge])
        pad = width - len(kinds)
        left = row == 0
        masks.append([0] * pad + [1] * len(kinds) if left else [1] * len(kinds) + [0] * pad)
        types_rows.append([0] * pad + kinds if left else kinds + [0] * pad)
    mask = torch.tensor(masks)
    mm_token_type_ids = torch.tensor(types_rows)
    position_ids, _ = Qwen2VLModel.get_rope_index(
        stand_in,
        torch.zeros_like(mm_token_type_ids),
        mm_token_type_ids,
        image_grid_thw=torch.tensor(grids),
        attention_mask=mask,
    )
    np.testing.assert_array_equal(mrope_positions(sequences, attention_mask=mask.numpy()), position_ids.numpy())
