"""posenc_math.analysis: the measurements the explainer pages quote."""

import numpy as np
import pytest

from posenc_math import binary, frequencies, sinusoidal
from posenc_math.analysis import (
    closest_earlier_row,
    count_distinct_rows,
    distance_by_offset,
    dot_product_by_offset,
    exact_integer_limit,
    first_increase,
    first_repeated_row,
    halving_frequencies,
    halving_sinusoids,
    low_precision_table,
    resolve_float_dtype,
    rounding_bound,
    table_from_frequencies,
)


@pytest.mark.parametrize("spacing", ["paper", "tensor2tensor"])
def test_dot_product_by_offset_matches_the_table_at_every_start(spacing):
    table = sinusoidal(200, 32, spacing=spacing)
    dots = dot_product_by_offset(150, 32, spacing=spacing)
    for start in (0, 7, 49):
        assert np.allclose(table[start : start + 151] @ table[start], dots, atol=1e-12)
    assert dots[0] == pytest.approx(16.0)


def test_dot_product_by_offset_crosses_block_boundaries():
    # more offsets than one block of the implementation
    dots = dot_product_by_offset(9000, 8)
    expected = np.cos(np.outer(np.arange(9001.0), frequencies(8))).sum(axis=1)
    assert np.allclose(dots, expected, atol=1e-12)


def test_distance_by_offset_is_the_row_distance():
    table = sinusoidal(60, 16)
    distances = distance_by_offset(50, 16)
    assert np.allclose(np.linalg.norm(table[3:54] - table[3], axis=1), distances, atol=1e-12)
    assert distances[0] == 0.0


def test_similarity_rises_again_at_offset_12_for_d_128():
    # the example: not a monotone decay
    dots = dot_product_by_offset(64, 128)
    assert first_increase(dots) == 12
    assert dots[12] > dots[11] and np.all(np.diff(dots[:12]) < 0)


def test_first_increase():
    assert first_increase([5.0, 4.0, 3.0]) is None
    assert first_increase([1.0, 2.0]) == 1
    assert first_increase([2.0]) is None
    with pytest.raises(ValueError, match="1-D"):
        first_increase([[1.0, 2.0]])
    with pytest.raises(ValueError, match="finite"):
        first_increase([1.0, np.nan])


def test_halving_frequencies_are_commensurate_and_the_table_repeats():
    freqs = halving_frequencies(4)
    assert np.allclose(2 * np.pi / freqs, [2, 4, 8, 16])
    table = table_from_frequencies(64, freqs)
    # period 16: rows 16.. equal rows 0.. (to rounding), none earlier
    assert np.allclose(table[16:], table[:-16], atol=1e-12)
    nearest = closest_earlier_row(table)
    assert nearest[16] < 1e-12 and nearest[1:16].min() > 0.1
    assert count_distinct_rows(np.round(table, 9) + 0.0) == 16


def test_slower_incommensurate_frequencies_never_come_back():
    # the same halving hands slowed by a factor pi: w_j = 2 ** -j, w_0 = 1
    slower = halving_frequencies(4) / np.pi
    assert np.allclose(slower, [1.0, 0.5, 0.25, 0.125])
    table = table_from_frequencies(64, slower)
    nearest = closest_earlier_row(table)
    assert nearest[1:].min() > 0.05
    assert count_distinct_rows(table) == 64


def test_table_from_frequencies_is_the_interleaved_table():
    assert np.allclose(table_from_frequencies(20, frequencies(16)), sinusoidal(20, 16), atol=1e-12)
    assert np.allclose(table_from_frequencies(5, frequencies(8), start=100), sinusoidal(5, 8, start=100), atol=1e-12)
    with pytest.raises(ValueError, match="freqs must be a non-empty 1-D"):
        table_from_frequencies(3, [])
    with pytest.raises(ValueError, match="finite"):
        table_from_frequencies(3, [1.0, np.inf])
    with pytest.raises(TypeError, match="n_positions must be an integer"):
        table_from_frequencies(3.0, [1.0])


def test_halving_sinusoids_signs_are_the_bits():
    waves = halving_sinusoids(256, 8)
    assert np.array_equal((waves < 0).astype(int), binary(256, 8))
    assert np.abs(waves).min() > 0.0
    for j in range(8):
        period = 2 ** (j + 1)
        assert np.allclose(waves[period:, j], waves[:-period, j], atol=1e-12)
    with pytest.raises(ValueError, match="n_bits must be <= 63"):
        halving_sinusoids(4, 64)


def test_closest_earlier_row_and_repeats():
    table = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    assert np.allclose(closest_earlier_row(table), [np.inf, np.sqrt(2), 0.0, np.sqrt(0.5)])
    assert first_repeated_row(table) == (2, 0)
    assert first_repeated_row(table, start=-5) == (-3, -5)
    assert count_distinct_rows(table) == 3
    assert first_repeated_row(np.array([[0.0], [-0.0]])) == (1, 0)
    with pytest.raises(ValueError, match="2-D"):
        closest_earlier_row([1.0, 2.0])
    with pytest.raises(ValueError, match="2-D"):
        first_repeated_row(np.zeros(3))


def test_exact_integer_limit():
    assert exact_integer_limit("float16") == 2048
    assert exact_integer_limit("bfloat16") == 256
    assert exact_integer_limit("float32") == 2**24
    assert exact_integer_limit(np.float64) == 2**53
    for name in ("float16", "bfloat16", "float32"):
        dtype = resolve_float_dtype(name)
        limit = exact_integer_limit(name)
        assert float(np.array(limit, dtype=np.float64).astype(dtype)) == limit
        assert float(np.array(limit + 1, dtype=np.float64).astype(dtype)) != limit + 1


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
def test_low_precision_table_repeats_rows_past_the_integer_limit(name):
    limit = exact_integer_limit(name)
    table = low_precision_table(limit + 40, 64, name)
    assert table.dtype == resolve_float_dtype(name)
    assert first_repeated_row(table) == (limit + 1, limit)
    near = low_precision_table(4, 64, name, start=limit - 1)
    assert first_repeated_row(near, start=limit - 1) == (limit + 1, limit)
    assert count_distinct_rows(table[: limit + 1]) == limit + 1


def test_low_precision_table_in_float64_is_the_exact_table():
    assert np.allclose(low_precision_table(300, 32, "float64"), sinusoidal(300, 32), atol=1e-12)
    split = low_precision_table(10, 8, "float32", layout="split")
    assert np.allclose(split, sinusoidal(10, 8, layout="split"), atol=1e-6)


def test_exact_table_rounded_to_float16_keeps_rows_distinct():
    # the bound is honest: the closest rows are far apart compared with rounding
    closest = distance_by_offset(3000, 512)[1:].min()
    assert closest > 2 * rounding_bound(512, "float16")
    rounded = sinusoidal(3000, 512).astype(np.float16)
    assert count_distinct_rows(rounded) == 3000
    moved = np.linalg.norm(rounded.astype(np.float64) - sinusoidal(3000, 512), axis=1).max()
    assert moved <= rounding_bound(512, "float16")


def test_rounding_bound_values():
    assert rounding_bound(1, "float16") == pytest.approx(2.0**-12)
    assert rounding_bound(4, "float32") == pytest.approx(2 * 2.0**-25)


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: dot_product_by_offset(-1, 8), ValueError, "max_offset"),
        (lambda: dot_product_by_offset(3, 7), ValueError, "dim must be even"),
        (lambda: dot_product_by_offset(3, 8, spacing="t2t"), ValueError, "spacing must be one of"),
        (lambda: halving_frequencies(0), ValueError, "n_pairs"),
        (lambda: halving_frequencies(3, first_period=0), ValueError, "first_period"),
        (lambda: resolve_float_dtype("float8"), ValueError, "dtype must be one of"),
        (lambda: low_precision_table(4, 8, "int8"), ValueError, "dtype must be one of"),
        (lambda: low_precision_table(4, 8, "float16", layout="rows"), ValueError, "layout must be one of"),
        (lambda: low_precision_table(4, 8, "float16", base=1.0), ValueError, "base must be"),
        (lambda: rounding_bound(0, "float16"), ValueError, "dim"),
        (lambda: closest_earlier_row(np.zeros((20_001, 1))), ValueError, "at most 20000 rows"),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_rope_mean_scores_is_the_mean_of_the_scores():
    from posenc_math import rope_relative_scores
    from posenc_math.analysis import rope_mean_scores

    offsets = [0, 3, 50, 1000]
    for aligned in (True, False):
        mean, expected = rope_mean_scores(16, offsets, n_samples=7, seed=5, aligned=aligned)
        rng = np.random.default_rng(5)
        queries = rng.normal(size=(7, 16))
        keys = queries if aligned else rng.normal(size=(7, 16))
        direct = np.mean([rope_relative_scores(q, k, offsets) for q, k in zip(queries, keys, strict=True)], axis=0)
        assert np.allclose(mean, direct, rtol=1e-12, atol=1e-12)
        if aligned:
            freqs = 10000.0 ** (-np.arange(0, 16, 2) / 16)
            assert np.allclose(expected, 2 * np.cos(np.outer(offsets, freqs)).sum(axis=1))
        else:
            assert not np.any(expected)


def test_rope_mean_scores_decays_for_aligned_vectors_only():
    from posenc_math.analysis import rope_mean_scores

    offsets = np.arange(0, 2001)
    aligned, expected = rope_mean_scores(128, offsets, n_samples=2000, seed=0)
    independent, _ = rope_mean_scores(128, offsets, n_samples=2000, seed=1, aligned=False)
    assert expected[0] == pytest.approx(128)
    assert np.abs(expected[1000:]).mean() < 128 / 5 < expected[1:101].mean()
    assert np.abs(aligned - expected).max() < 3 and np.abs(independent).max() < 1.5


def test_rope_mean_scores_refuses_bad_input():
    from posenc_math.analysis import rope_mean_scores

    with pytest.raises(ValueError, match="n_samples"):
        rope_mean_scores(8, [0], n_samples=0)
    with pytest.raises(ValueError, match="dim"):
        rope_mean_scores(7, [0])
    with pytest.raises(TypeError, match="aligned"):
        rope_mean_scores(8, [0], aligned="yes")
