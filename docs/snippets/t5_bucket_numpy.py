import numpy as np


def t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each offset key - query: exact for short distances,
    logarithmic for longer ones, one last bucket from about max_distance on."""
    relative_position = np.asarray(relative_position, dtype=np.int64)
    bucket = np.zeros_like(relative_position)
    if bidirectional:  # encoder: half the buckets for keys after the query
        num_buckets //= 2
        bucket += (relative_position > 0) * num_buckets
        distance = np.abs(relative_position)
    else:  # decoder: only keys before the query
        distance = np.maximum(-relative_position, 0)
    max_exact = num_buckets // 2
    # the logarithm in float32, truncated toward zero, as T5's code computes it
    ratio = np.maximum(distance, 1).astype(np.float32) / max_exact
    scaled = np.log(ratio) / np.log(max_distance / max_exact)
    large = max_exact + (scaled * (num_buckets - max_exact)).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return bucket + np.where(distance < max_exact, distance, large)
