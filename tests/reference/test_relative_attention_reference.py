"""DeBERTa-v2/v3's logarithmic buckets against transformers' make_log_bucket_position and build_relative_position."""

import numpy as np
import pytest

from posenc_math import deberta_log_bucket, deberta_relative_index

CONFIGS = [(256, 512), (128, 512), (64, 256), (32, 128), (256, 1024), (512, 1024), (8, 64), (4, 16), (200, 333)]


@pytest.mark.parametrize("buckets, largest", CONFIGS)
def test_make_log_bucket_position_every_offset(torch, buckets, largest):
    """Every |r| <= 2**21: equal, except where torch's float32 logarithm is not the nearest float32 (then by one),
    and never within 2**16 (DeBERTa's sequences are at most 512 long)."""
    from transformers.models.deberta_v2.modeling_deberta_v2 import make_log_bucket_position

    offsets = np.arange(-(2**21), 2**21 + 1, dtype=np.int64)
    reference = make_log_bucket_position(torch.from_numpy(offsets), buckets, largest).to(torch.long).numpy()
    ours = deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest)
    differ = ours != reference
    assert np.all(np.abs(ours - reference) <= 1)
    assert not np.any(differ & (np.abs(offsets) <= 2**16))
    mid = buckets // 2
    for r in offsets[differ]:  # each difference is torch's logarithm, not the formula
        quotient = np.float32(abs(int(r))) / np.float32(mid)
        torch_log = torch.log(torch.tensor([quotient], dtype=torch.float32)).numpy()[0]
        nearest = np.float32(np.log(np.float64(quotient)))
        assert torch_log != nearest, r
    assert differ.sum() <= 8


@pytest.mark.parametrize("buckets, largest", [(256, 512), (64, 256)])
@pytest.mark.parametrize("n_queries, n_keys", [(600, 600), (1, 600), (7, 300)])
def test_build_relative_position_and_the_rows_read(torch, buckets, largest, n_queries, n_keys):
    """build_relative_position(query, key) and the rows DisentangledSelfAttention's c2p gathers
    (clip(bucket + position_buckets, 0, 2 position_buckets - 1)); transformers numbers queries from 0."""
    from transformers.models.deberta_v2.modeling_deberta_v2 import build_relative_position

    query = torch.zeros(1, n_queries, 4)
    key = torch.zeros(1, n_keys, 4)
    relative = build_relative_position(query, key, bucket_size=buckets, max_position=largest)[0].numpy()
    rows = np.clip(relative + buckets, 0, 2 * buckets - 1)
    square = deberta_relative_index(n_keys, largest, position_buckets=buckets)
    np.testing.assert_array_equal(square[:n_queries], rows)  # queries 0 .. n_queries - 1
    ours_at_end = deberta_relative_index(n_keys, largest, position_buckets=buckets, n_queries=n_queries)
    np.testing.assert_array_equal(ours_at_end, square[n_keys - n_queries :])
