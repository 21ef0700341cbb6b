"""t5_bucket against transformers' T5Attention._relative_position_bucket."""

import itertools

import numpy as np
import pytest

from posenc_math import t5_bucket

CONFIGS = [
    (bidirectional, num_buckets, max_distance)
    for bidirectional, num_buckets, max_distance in itertools.product(
        [True, False], [4, 8, 16, 32, 33, 64, 128], [8, 20, 128, 256, 1000]
    )
    if max_distance > (num_buckets // 2 if bidirectional else num_buckets) // 2
]


@pytest.mark.parametrize("bidirectional,num_buckets,max_distance", CONFIGS)
def test_t5_bucket_bit_for_bit(torch, bidirectional, num_buckets, max_distance):
    from transformers.models.t5.modeling_t5 import T5Attention

    offsets = np.arange(-70_000, 70_001, dtype=np.int64)
    reference = T5Attention._relative_position_bucket(
        torch.from_numpy(offsets),
        bidirectional=bidirectional,
        num_buckets=num_buckets,
        max_distance=max_distance,
    ).numpy()
    ours = t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    assert np.array_equal(ours, reference)


def test_t5_compute_bias_layout(torch):
    """T5's relative_position = memory_position - context_position is ours."""
    from transformers.models.t5.modeling_t5 import T5Attention

    from posenc_math import relative_positions

    context = torch.arange(7)[:, None]
    memory = torch.arange(11)[None, :]
    reference = T5Attention._relative_position_bucket(memory - context, bidirectional=True)
    assert np.array_equal(t5_bucket(relative_positions(7, 11)), reference.numpy())


@pytest.mark.parametrize("n_queries, n_keys", [(1, 40), (3, 300), (40, 40)])
def test_t5_compute_bias_of_a_decoding_step(torch, transformers, n_queries, n_keys):
    """T5Attention.compute_bias with the cache already holding n_keys - n_queries tokens (the decoder)."""
    from transformers.models.t5.modeling_t5 import T5Attention

    from posenc_math import relative_positions

    config = transformers.T5Config(d_model=16, d_kv=4, num_heads=4, is_decoder=True)
    attention = T5Attention(config, has_relative_attention_bias=True)
    past = n_keys - n_queries
    with torch.no_grad():
        bias = attention.compute_bias(n_queries, n_keys, past_seen_tokens=past)[0].numpy()  # (heads, q, k)
        table = attention.relative_attention_bias.weight.numpy()  # (num_buckets, heads)
    buckets = t5_bucket(relative_positions(n_queries, n_keys, queries_at_end=True), bidirectional=False)
    np.testing.assert_array_equal(np.moveaxis(table[buckets], -1, 0), bias)
