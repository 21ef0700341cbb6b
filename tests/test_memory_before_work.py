"""Issue 25's probes: every function that allocates from a size refuses a size it cannot hold, with a
ValueError naming the argument, before it allocates anything of that size.

The sizes are far beyond any machine (petabytes), so the refusal does not depend on the memory this one
has; inputs are numpy broadcast views, which take no memory however large they look.  tracemalloc (numpy
reports its allocations there) shows what was allocated before the refusal.  Until issue 25 these raised
numpy's bare MemoryError ("Unable to allocate ...") or ran out of memory.
"""

import tracemalloc

import numpy as np
import pytest

import posenc_math as pm
from posenc_math import analysis, precision

HUGE = 10**7


def huge(shape, dtype=np.float64, value=1):
    """An array of ``shape`` that takes no memory (every element the same)."""
    return np.broadcast_to(np.asarray(value, dtype=dtype), shape)


PROBES = [
    ("deberta_relative_index", lambda: pm.deberta_relative_index(HUGE, 4), "n_positions=10000000"),
    (
        "deberta_relative_index v2",
        lambda: pm.deberta_relative_index(HUGE, 512, position_buckets=256, n_queries=HUGE // 2),
        "n_queries=5000000",
    ),
    ("interleaved_to_half", lambda: pm.interleaved_to_half(10**15), "dim=1000000000000000"),
    ("pixel_frequencies", lambda: pm.pixel_frequencies(10**15), "dim=1000000000000000"),
    ("xpos_scales", lambda: pm.xpos_scales(HUGE, huge((HUGE,), np.int64)), r"positions of shape \(10000000,\) and dim"),
    ("mrope_positions text", lambda: pm.mrope_positions([10**15]), "segments with 1000000000000000 tokens"),
    ("mrope_positions grids", lambda: pm.mrope_positions([(1, HUGE, HUGE)] * 2), "segments with"),
    (
        "mrope_positions batch",
        lambda: pm.mrope_positions([[1]] * 10, attention_mask=huge((10, 10**15), np.int8)),
        r"attention_mask of shape \(10, 1000000000000000\)",
    ),
    (
        "transformer_xl_scores",
        lambda: pm.transformer_xl_scores(huge((HUGE, 8)), huge((HUGE, 8)), np.ones(8), np.ones(8), np.ones((8, 8))),
        r"queries \(10000000, 8\)",
    ),
    (
        "deberta_scores",
        lambda: pm.deberta_scores(huge((HUGE, 2)), huge((HUGE, 2)), np.ones((4, 2)), np.ones((4, 2))),
        r"content_queries of shape \(10000000, 2\)",
    ),
    ("cosine_similarity_matrix", lambda: pm.cosine_similarity_matrix(huge((HUGE, 1))), r"table of shape"),
    (
        "dot_product_attention",
        lambda: pm.dot_product_attention(huge((HUGE, 2)), huge((HUGE, 2)), huge((HUGE, 2))),
        r"queries \(10000000, 2\)",
    ),
    (
        "embedding_lookup",
        lambda: pm.embedding_lookup(np.ones((3, 1000)), huge((HUGE, 100), np.int64, 0)),
        r"ids of shape \(10000000, 100\)",
    ),
    (
        "rope_relative_scores",
        lambda: pm.rope_relative_scores(np.ones(2000), np.ones(2000), huge((10**12,), np.int64)),
        r"offsets of shape \(1000000000000,\)",
    ),
    (
        "rope_decay_bound",
        lambda: pm.rope_decay_bound(np.ones(2000), np.ones(2000), huge((10**12,), np.int64)),
        r"offsets of shape",
    ),
    ("t5_bucket", lambda: pm.t5_bucket(huge((HUGE, HUGE), np.int64)), r"relative_position of shape"),
    ("shaw_clip", lambda: pm.shaw_clip(huge((HUGE, HUGE), np.int64), 4), r"relative_position of shape"),
    ("deberta_log_bucket", lambda: pm.deberta_log_bucket(huge((HUGE, HUGE), np.int64)), r"relative_position of"),
    ("softmax", lambda: pm.softmax(huge((HUGE, HUGE))), r"scores of shape \(10000000, 10000000\)"),
    (
        "phase_error_bound",
        lambda: precision.phase_error_bound(huge((HUGE, HUGE), np.int64), "float32"),
        r"positions of shape",
    ),
    (
        "rope_cos_sin",
        lambda: pm.rope_cos_sin(huge((HUGE, HUGE), np.int64), np.ones(4)),
        r"positions of shape \(10000000, 10000000\)",
    ),
    (
        "rope_mean_scores",
        lambda: analysis.rope_mean_scores(HUGE, huge((HUGE,), np.int64)),
        "n_samples=400, dim=10000000",
    ),
    ("rope", lambda: pm.rope(huge((HUGE, HUGE, 8), np.float32), huge((HUGE,), np.int64)), r"x of shape \(10000000,"),
    (
        "apply_rotary",
        lambda: pm.apply_rotary(huge((HUGE, HUGE, 8), np.float32), huge((HUGE, 8)), huge((HUGE, 8))),
        r"x of shape",
    ),
    (
        "mrope",
        lambda: pm.mrope(huge((HUGE, HUGE, 8), np.float32), huge((3, HUGE), np.int64, 0), [2, 1, 1]),
        r"x of shape",
    ),
    (
        "axial_rope",
        lambda: pm.axial_rope(huge((HUGE, HUGE, 8), np.float32), huge((2, HUGE), np.int64, 0)),
        r"x of shape",
    ),
    ("xpos", lambda: pm.xpos(huge((HUGE, HUGE, 8), np.float32), huge((HUGE,), np.int64)), r"x of shape"),
    ("rope_scores", lambda: pm.rope_scores(huge((HUGE, 8)), huge((HUGE, 8))), r"queries \(10000000, 8\)"),
    ("alibi_bias n_queries", lambda: pm.alibi_bias(8, HUGE, n_queries=HUGE // 2), "n_queries=5000000"),
    (
        "relative_positions at the end",
        lambda: pm.relative_positions(HUGE, HUGE, queries_at_end=True),
        "n_queries=10000000, n_keys=10000000",
    ),
    ("rope_frequencies", lambda: pm.rope_frequencies(10**15), "dim=1000000000000000"),
]


@pytest.mark.parametrize(
    "name, call, words", PROBES, ids=[p.values[0] if hasattr(p, "marks") else p[0] for p in PROBES]
)
def test_a_size_that_cannot_be_held_is_refused_by_name_before_any_work(name, call, words):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        with pytest.raises(ValueError, match=words) as refused:
            call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(refused.value, MemoryError)  # MemoryLimitError: a ValueError and a MemoryError
    assert "more than" in str(refused.value) and "bytes" in str(refused.value)
    assert peak < 2**24, f"{name} allocated {peak} bytes before refusing"
