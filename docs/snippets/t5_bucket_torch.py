import math

import torch


def t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each offset key - query (an integer tensor): exact for
    short distances, logarithmic for longer ones, one last bucket from about
    max_distance on."""
    bucket = torch.zeros_like(relative_position)
    if bidirectional:  # encoder: half the buckets for keys after the query
        num_buckets //= 2
        bucket += (relative_position > 0).to(torch.long) * num_buckets
        distance = relative_position.abs()
    else:  # decoder: only keys before the query
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    ratio = distance.clamp(min=1).float() / max_exact
    scaled = torch.log(ratio) / math.log(max_distance / max_exact)
    large = max_exact + (scaled * (num_buckets - max_exact)).to(torch.long)
    large = large.clamp(max=num_buckets - 1)
    return bucket + torch.where(distance < max_exact, distance, large)
