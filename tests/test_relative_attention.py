"""Tests for posenc_math.encodings.relative_attention against loop transcriptions of the papers' equations."""

import math

import numpy as np
import pytest

from posenc_math import (
    deberta_bucket_regions,
    deberta_log_bucket,
    deberta_relative_index,
    deberta_scores,
    transformer_xl_scores,
)


def _txl_by_loops(q, k, u, v, w_r, rows, cols, base=10000.0):
    width = w_r.shape[1]
    scores = np.zeros((len(rows), len(cols)))
    for a, i in enumerate(rows):
        for b, j in enumerate(cols):
            distance = i - j
            sines = [math.sin(distance / base ** (2 * m / width)) for m in range(width // 2)]
            cosines = [math.cos(distance / base ** (2 * m / width)) for m in range(width // 2)]
            relative = w_r @ np.array(sines + cosines)
            scores[a, b] = q[a] @ k[b] + q[a] @ relative + u @ k[b] + v @ relative
    return scores


@pytest.fixture
def txl_inputs():
    rng = np.random.default_rng(3)
    return (
        rng.normal(size=(5, 6)),
        rng.normal(size=(4, 6)),
        rng.normal(size=6),
        rng.normal(size=6),
        rng.normal(size=(6, 8)),
    )


def test_transformer_xl_matches_the_paper(txl_inputs):
    q, k, u, v, w_r = txl_inputs
    rows, cols = np.array([3, 4, 5, 6, 7]), np.array([0, 2, 4, 6])
    scores, terms = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows, key_positions=cols, return_terms=True)
    np.testing.assert_allclose(scores, _txl_by_loops(q, k, u, v, w_r, rows, cols), atol=1e-12)
    assert set(terms) == {"a", "b", "c", "d"}
    np.testing.assert_allclose(terms["a"], q @ k.T)
    np.testing.assert_allclose(terms["c"][0], k @ u)
    np.testing.assert_allclose(terms["c"][3], k @ u)


def test_transformer_xl_depends_on_positions_only_through_their_difference(txl_inputs):
    q, k, u, v, w_r = txl_inputs
    rows, cols = np.arange(5), np.arange(4)
    here = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows, key_positions=cols)
    there = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows + 1000, key_positions=cols + 1000)
    np.testing.assert_allclose(here, there, atol=1e-9)
    moved = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows + 1, key_positions=cols)
    assert not np.allclose(here, moved)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"w_r": np.ones((6, 7))}, "rel_dim even"),
        ({"u": np.ones(5)}, "u must have shape"),
        ({"keys": np.ones((4, 5))}, "keys must have 6 columns"),
        ({"query_positions": [0.5, 1, 2, 3, 4]}, "query_positions"),
        ({"queries": np.ones((5, 6)) * 1j}, "queries must be real"),
    ],
)
def test_transformer_xl_refuses_bad_input(txl_inputs, change, match):
    q, k, u, v, w_r = txl_inputs
    arguments = {"queries": q, "keys": k, "u": u, "v": v, "w_r": w_r} | change
    positions = {key: arguments.pop(key) for key in ("query_positions",) if key in arguments}
    with pytest.raises((ValueError, TypeError), match=match):
        transformer_xl_scores(**arguments, **positions)


def test_deberta_relative_index_is_the_papers_delta():
    k = 3
    delta = deberta_relative_index(9, k)
    for i in range(9):
        for j in range(9):
            expected = 0 if i - j <= -k else 2 * k - 1 if i - j >= k else i - j + k
            assert delta[i, j] == expected


def test_deberta_scores_match_the_paper():
    rng = np.random.default_rng(5)
    n, dim, k = 7, 4, 2
    qc, kc = rng.normal(size=(n, dim)), rng.normal(size=(n, dim))
    qr, kr = rng.normal(size=(2 * k, dim)), rng.normal(size=(2 * k, dim))

    def delta(i, j):
        return 0 if i - j <= -k else 2 * k - 1 if i - j >= k else i - j + k

    expected = np.array(
        [[qc[i] @ kc[j] + qc[i] @ kr[delta(i, j)] + kc[j] @ qr[delta(j, i)] for j in range(n)] for i in range(n)]
    ) / math.sqrt(3 * dim)
    scores, terms = deberta_scores(qc, kc, qr, kr, return_terms=True)
    np.testing.assert_allclose(scores, expected, atol=1e-12)
    assert set(terms) == {"c2c", "c2p", "p2c"}


def test_deberta_position_terms_depend_only_on_the_clipped_distance():
    rng = np.random.default_rng(6)
    qr, kr = rng.normal(size=(8, 4)), rng.normal(size=(8, 4))
    same = np.ones((12, 4))  # every token the same content: only positions differ
    _, terms = deberta_scores(same, same, qr, kr, return_terms=True)
    delta = deberta_relative_index(12, 4)
    for distance in np.unique(delta):
        assert np.ptp(terms["c2p"][delta == distance]) < 1e-12


def test_deberta_refuses_bad_input():
    good = np.ones((4, 4))
    with pytest.raises(ValueError, match="same even number of rows"):
        deberta_scores(good, good, np.ones((3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="self-attention"):
        deberta_scores(good, np.ones((5, 4)), np.ones((4, 4)), np.ones((4, 4)))
    with pytest.raises(ValueError, match="max_relative_positions"):
        deberta_relative_index(4, 0)


# --- DeBERTa-v2/v3: logarithmic buckets ------------------------------------------------

CONFIGS = [(256, 512), (128, 512), (64, 256), (256, 1024), (8, 64), (4, 16), (2, 16), (3, 7), (200, 333)]


def transcribed_bucket(r, buckets, largest):
    """make_log_bucket_position for one offset, step by step in float32 scalars (logarithms from mpmath)."""
    import mpmath

    def log32(value):
        with mpmath.workdps(50):
            return np.float32(float(mpmath.log(mpmath.mpf(float(value)))))

    mid = buckets // 2
    distance = mid - 1 if -mid < r < mid else abs(r)
    if distance <= mid:
        return r
    quotient = np.float32(np.float32(distance) / np.float32(mid))
    ratio = np.float32(log32(quotient) / log32(np.float32((largest - 1) / mid)))
    logarithmic = np.float32(np.ceil(np.float32(ratio * np.float32(mid - 1)))) + np.float32(mid)
    return int(logarithmic * np.float32(np.sign(r)))


@pytest.mark.parametrize("buckets, largest", CONFIGS)
def test_deberta_log_bucket_is_the_transcribed_float32_formula(buckets, largest):
    offsets = np.concatenate([np.arange(-3 * largest, 3 * largest + 1), [10**6 + 7, -(2**40), 2**53]])
    ours = deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest)
    expected = [transcribed_bucket(int(r), buckets, largest) for r in offsets]
    np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize("buckets, largest", CONFIGS)
def test_deberta_buckets_are_odd_monotone_and_exact_near_zero(buckets, largest):
    offsets = np.arange(-(2**20), 2**20 + 1)
    bucket = deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest)
    np.testing.assert_array_equal(bucket, -bucket[::-1])  # odd: the sign of r is kept
    assert np.all(np.diff(bucket) >= 0)  # never decreasing
    assert np.all(np.abs(bucket) <= np.abs(offsets))  # logarithmic: never further than the offset
    mid = buckets // 2
    near = np.abs(offsets) <= mid
    np.testing.assert_array_equal(bucket[near], offsets[near])


@pytest.mark.parametrize("buckets, largest", CONFIGS)
def test_deberta_bucket_regions_are_what_every_offset_shows(buckets, largest):
    regions = deberta_bucket_regions(buckets, largest)
    offsets = np.arange(-(2**16), 2**16 + 1)
    bucket = deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest)
    row = np.clip(bucket + buckets, 0, 2 * buckets - 1)
    exact = regions["exact_up_to"]
    assert exact >= buckets // 2 and regions["first_logarithmic"] == exact + 1
    inside = np.abs(offsets) <= exact
    np.testing.assert_array_equal(bucket[inside], offsets[inside])
    assert deberta_log_bucket(exact + 1, position_buckets=buckets, max_relative_positions=largest) != exact + 1
    assert deberta_log_bucket(-exact - 1, position_buckets=buckets, max_relative_positions=largest) != -exact - 1
    last, first = regions["last_row_from"], regions["first_row_from"]
    if last is None:  # three buckets: -1, 0, 1 read rows 2..4 of 6
        assert buckets == 3 and row.max() < 2 * buckets - 1
    else:
        assert np.all(row[offsets >= last] == 2 * buckets - 1) and row[offsets == last - 1][0] < 2 * buckets - 1
    if first is None:  # two or three buckets: -1, 0, 1, and the first row is never read
        assert buckets < 4 and row.min() > 0
    else:
        assert np.all(row[offsets <= first] == 0) and row[offsets == first + 1][0] > 0
    assert regions["rows"] == 2 * buckets and regions["rows_used"] == np.unique(row).size


def test_deberta_v3_regions_in_numbers():
    """DeBERTa-v3 (256 buckets, 512): exact to 131, one row per offset; rows clipped from 506 and -512 on."""
    assert deberta_bucket_regions(256, 512) == {
        "rows": 512,
        "rows_used": 512,
        "exact_up_to": 131,
        "first_logarithmic": 132,
        "last_row_from": 506,
        "first_row_from": -512,
    }


def test_deberta_v2_relative_index_reads_the_bucketed_row():
    n, buckets, largest = 700, 256, 512
    index = deberta_relative_index(n, largest, position_buckets=buckets)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    bucket = deberta_log_bucket(i - j, position_buckets=buckets, max_relative_positions=largest)
    np.testing.assert_array_equal(index, np.clip(bucket + buckets, 0, 2 * buckets - 1))
    assert index.shape == (n, n) and index.min() == 0 and index.max() == 2 * buckets - 1


@pytest.mark.parametrize("buckets", [None, 256])
def test_deberta_relative_index_for_queries_at_the_end_of_the_keys(buckets):
    """Decoding with a cache: the last n_queries positions are the queries, rows of the square index."""
    square = deberta_relative_index(600, 512 if buckets else 24, position_buckets=buckets)
    for n_queries in (1, 7, 600):
        last = deberta_relative_index(600, 512 if buckets else 24, position_buckets=buckets, n_queries=n_queries)
        np.testing.assert_array_equal(last, square[-n_queries:])


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: deberta_log_bucket([1.5]), TypeError, "relative_position.*query position - key position"),
        (lambda: deberta_log_bucket([True]), TypeError, "booleans"),
        (lambda: deberta_log_bucket([[1, 2], [3]]), ValueError, "relative_position must be a rectangular array"),
        (lambda: deberta_log_bucket(3, position_buckets=True), TypeError, "position_buckets.*a bool"),
        (lambda: deberta_log_bucket(3, position_buckets=1), ValueError, "position_buckets"),
        (lambda: deberta_log_bucket(3, max_relative_positions=129), ValueError, r"exceed position_buckets // 2 \+ 1"),
        (lambda: deberta_log_bucket(3, max_relative_positions=128.0), TypeError, "max_relative_positions"),
        (lambda: deberta_bucket_regions(256, 100), ValueError, "max_relative_positions"),
        (lambda: deberta_relative_index(4, 2, n_queries=5), ValueError, "n_queries must be <= n_positions"),
        (lambda: deberta_relative_index(4, 2, n_queries=0), ValueError, "n_queries"),
        (lambda: deberta_relative_index(4, 512, position_buckets=256.0), TypeError, "position_buckets"),
        (lambda: deberta_relative_index(10**7, 4), ValueError, r"n_positions=10000000.*more than"),
    ],
)
def test_deberta_v2_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
