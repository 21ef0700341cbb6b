"""posenc_math.encodings.relative: offsets, Shaw clipping, T5 buckets."""

import warnings

import numpy as np
import pytest

from posenc_math import relative_positions, shaw_clip, t5_bucket

# First distance of each bucket (keys before the query), as transformers'
# T5Attention._relative_position_bucket gives them (torch 2.13, transformers
# 5.23), for the T5 defaults num_buckets=32, max_distance=128.
T5_ENCODER_STARTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91]
T5_DECODER_STARTS = [
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    19,
    21,
    24,
    27,
    31,
    35,
    40,
    46,
    52,
    59,
    67,
    77,
    87,
    99,
    113,
]


def test_relative_positions_is_key_minus_query():
    offsets = relative_positions(3, 5)
    assert offsets.shape == (3, 5) and offsets.dtype == np.int64
    assert offsets[2, 4] == 2 and offsets[2, 0] == -2
    assert np.array_equal(relative_positions(4), -relative_positions(4).T)


def test_shaw_clip_values_and_scalar():
    assert np.array_equal(shaw_clip(np.arange(-6, 7), 3), np.r_[[-3] * 4, -2, -1, 0, 1, 2, [3] * 4])
    assert shaw_clip(-100, 5) == -5 and isinstance(shaw_clip(-100, 5), int)
    assert np.array_equal(shaw_clip([[-1, 1]], 0), [[0, 0]])


def test_shaw_clip_uses_2k_plus_1_rows():
    rows = shaw_clip(relative_positions(50), 4) + 4
    assert set(np.unique(rows)) == set(range(9))


@pytest.mark.parametrize("bidirectional,starts", [(True, T5_ENCODER_STARTS), (False, T5_DECODER_STARTS)])
def test_t5_bucket_starts_match_reference(bidirectional, starts):
    distance = np.arange(0, 1000)
    buckets = t5_bucket(-distance, bidirectional=bidirectional)
    firsts = [int(np.flatnonzero(buckets == b)[0]) for b in np.unique(buckets)]
    assert firsts == starts
    assert np.all(np.diff(buckets) >= 0)  # never decreasing with distance


def test_t5_bucket_positive_offsets_take_the_upper_half():
    distance = np.arange(1, 500)
    assert np.array_equal(t5_bucket(distance), t5_bucket(-distance) + 16)
    assert t5_bucket(0) == 0


def test_t5_bucket_decoder_ignores_future_keys():
    assert np.all(t5_bucket(np.arange(0, 300), bidirectional=False) == 0)


def test_t5_bucket_exact_then_saturates():
    # small distances: one bucket each; from max_distance on: the last one
    assert np.array_equal(t5_bucket(-np.arange(8)), np.arange(8))
    assert np.all(t5_bucket(-np.arange(128, 10**6, 997)) == 15)
    assert t5_bucket(-127) == 15 and t5_bucket(127) == 31
    assert t5_bucket(-(2**40)) == 15


def test_t5_bucket_int64_extremes_saturate():
    # -2**63 has no int64 distance: it used to come back as bucket -2**63
    lowest, highest = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        assert t5_bucket(int(lowest)) == 15 and t5_bucket(int(highest)) == 31
        assert t5_bucket(int(lowest), bidirectional=False) == 31
        assert t5_bucket(int(highest), bidirectional=False) == 0
        both = t5_bucket(np.array([lowest, lowest + 1, -1]), num_buckets=64, max_distance=1000)
    assert both.tolist() == [31, 31, 1]


def test_t5_bucket_encoder_never_uses_bucket_16():
    # offset 0 goes to bucket 0, so the upper half's first bucket
    # (num_buckets // 2, "distance 0 after the query") is never reached
    offsets = np.arange(-(10**5), 10**5 + 1)
    assert set(np.unique(t5_bucket(offsets)).tolist()) == set(range(32)) - {16}
    assert set(np.unique(t5_bucket(offsets, bidirectional=False)).tolist()) == set(range(32))


def test_t5_bucket_shape_and_scalar():
    offsets = relative_positions(6, 9)
    buckets = t5_bucket(offsets, num_buckets=8, max_distance=16)
    assert buckets.shape == (6, 9) and buckets.dtype == np.int64
    assert isinstance(t5_bucket(3), int)


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: t5_bucket(1.5), TypeError, "relative_position"),
        (lambda: t5_bucket([True]), TypeError, "relative_position"),
        (lambda: t5_bucket(1, num_buckets=2), ValueError, "num_buckets"),
        (lambda: t5_bucket(1, bidirectional=False, num_buckets=1), ValueError, "num_buckets"),
        (lambda: t5_bucket(1, max_distance=8), ValueError, "max_distance"),
        (lambda: t5_bucket(1, bidirectional="yes"), TypeError, "bidirectional"),
        (lambda: shaw_clip(1, -1), ValueError, "max_distance"),
        (lambda: shaw_clip([0.5], 2), TypeError, "relative_position"),
        (lambda: relative_positions(0), ValueError, "n_queries"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_relative_positions_with_queries_at_the_end_of_the_keys():
    square = relative_positions(30)
    for n_queries in (1, 4, 30):
        np.testing.assert_array_equal(relative_positions(n_queries, 30, queries_at_end=True), square[-n_queries:])
    np.testing.assert_array_equal(
        relative_positions(2, 5, queries_at_end=True), [[-3, -2, -1, 0, 1], [-4, -3, -2, -1, 0]]
    )


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_buckets_of_a_decoding_step_are_the_last_rows(bidirectional):
    square = t5_bucket(relative_positions(300), bidirectional=bidirectional)
    step = t5_bucket(relative_positions(3, 300, queries_at_end=True), bidirectional=bidirectional)
    np.testing.assert_array_equal(step, square[-3:])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: relative_positions(4, 3, queries_at_end=True), ValueError, "n_queries must be <= n_keys"),
        (lambda: relative_positions(2, 3, queries_at_end=1), TypeError, "queries_at_end"),
        (lambda: relative_positions(True), TypeError, "n_queries must be an integer, got a bool"),
        (lambda: t5_bucket([[1, 2], [3]]), ValueError, "relative_position must be a rectangular array"),
    ],
)
def test_kv_cache_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
