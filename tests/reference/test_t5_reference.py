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
