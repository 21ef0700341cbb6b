"""posenc_math.encodings.alibi: slopes, biases, the key-only variant."""

import math

import numpy as np
import pytest

from posenc_math import alibi_bias, alibi_key_bias, alibi_slopes, causal_mask, softmax


def paper_slopes(n):
    """The recursive get_slopes of the ALiBi authors' code, transcribed."""

    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + paper_slopes(2 * closest)[0::2][: n - closest]


@pytest.mark.parametrize("n_heads", list(range(1, 70)))
def test_slopes_match_the_paper_code(n_heads):
    slopes = alibi_slopes(n_heads)
    assert slopes.shape == (n_heads,) and slopes.dtype == np.float64
    assert np.allclose(slopes, paper_slopes(n_heads), rtol=1e-14, atol=0)


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8, 16, 32, 64])
def test_power_of_two_slopes_are_geometric(n_heads):
    slopes = alibi_slopes(n_heads)
    ratio = 2.0 ** (-8 / n_heads)
    assert slopes[0] == pytest.approx(ratio, rel=1e-15)
    assert np.allclose(slopes[1:] / slopes[:-1], ratio, rtol=1e-14)


def test_non_power_of_two_borrows_every_other_slope():
    assert np.array_equal(alibi_slopes(12)[:8], alibi_slopes(8))
    assert np.array_equal(alibi_slopes(12)[8:], alibi_slopes(16)[0::2][:4])


def test_causal_bias():
    bias = alibi_bias(4, 6)
    slopes = alibi_slopes(4)
    assert bias.shape == (4, 6, 6)
    i, j = 5, 2
    assert bias[1, i, j] == -slopes[1] * (i - j)
    assert np.all(np.isneginf(bias[:, np.triu_indices(6, 1)[0], np.triu_indices(6, 1)[1]]))
    assert np.all(np.diagonal(bias, axis1=1, axis2=2) == 0)
    assert not np.signbit(np.diagonal(bias, axis1=1, axis2=2)).any()  # +0.0, not -0.0


def test_non_causal_bias_is_symmetric():
    bias = alibi_bias(3, 7, causal=False)
    assert np.array_equal(bias, np.swapaxes(bias, 1, 2))
    assert bias[2, 0, 6] == -alibi_slopes(3)[2] * 6
    assert np.isfinite(bias).all()


def test_softmax_and_mask(rng):
    scores = rng.normal(size=(3, 5, 5))
    weights = softmax(scores + causal_mask(5))
    assert np.allclose(weights.sum(axis=-1), 1.0)
    assert np.all(weights[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0)
    assert np.allclose(weights[:, 0, 0], 1.0)
    row = scores[0, 4]
    assert np.allclose(softmax(row), np.exp(row) / np.exp(row).sum(), rtol=1e-14)
    assert np.allclose(softmax(row + 1000.0), softmax(row), rtol=1e-14)  # no overflow
    assert np.allclose(softmax(scores, axis=0).sum(axis=0), 1.0)
    for bad, error in (
        ([np.nan, 0.0], ValueError),
        ([np.inf], ValueError),
        ([-np.inf, -np.inf], ValueError),
        (["a"], TypeError),
        (3.0, ValueError),
    ):
        with pytest.raises(error, match=r"scores|slice"):
            softmax(bad)


def test_key_only_bias_gives_the_same_attention(rng):
    n_heads, n = 5, 9
    scores = rng.normal(size=(n_heads, n, n))
    relative = softmax(scores + alibi_bias(n_heads, n))
    key_only = softmax(scores + alibi_key_bias(n_heads, n) + causal_mask(n))
    assert alibi_key_bias(n_heads, n).shape == (n_heads, 1, n)
    assert np.allclose(relative, key_only, rtol=1e-13, atol=1e-15)
    # and the bias matrices themselves differ by m_h * i along each row
    difference = alibi_key_bias(n_heads, n) - np.where(np.isinf(alibi_bias(n_heads, n)), 0, alibi_bias(n_heads, n))
    lower = np.tril_indices(n)
    expected = alibi_slopes(n_heads)[:, None] * lower[0][None, :]
    assert np.allclose(difference[:, lower[0], lower[1]], expected)


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: alibi_slopes(0), ValueError, "n_heads"),
        (lambda: alibi_slopes(2.0), TypeError, "n_heads"),
        (lambda: alibi_bias(2, 0), ValueError, "n_positions"),
        (lambda: alibi_bias(2, 3, causal=None), TypeError, "causal"),
        (lambda: alibi_key_bias(-1, 3), ValueError, "n_heads"),
        (lambda: alibi_bias(8, 10**7), ValueError, "memory"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("n_heads", [1, 5, 8, 12])
def test_alibi_tables_are_the_float64_tables_rounded_once(name, n_heads):
    from test_sinusoidal import rounded_reference

    for causal in (True, False):
        reference = alibi_bias(n_heads, 9, causal=causal)
        table = alibi_bias(n_heads, 9, causal=causal, dtype=name)
        assert table.dtype.name == name
        finite = np.isfinite(reference)
        assert np.array_equal(np.isfinite(table.astype(np.float64)), finite)
        expected = rounded_reference(np.where(finite, reference, 0.0), name).astype(np.float64)
        assert np.array_equal(table.astype(np.float64)[finite], expected[finite])
    slopes = alibi_slopes(n_heads, dtype=name)
    assert np.array_equal(slopes.astype(np.float64), rounded_reference(alibi_slopes(n_heads), name).astype(np.float64))
    key = alibi_key_bias(n_heads, 9, dtype=name)
    assert np.array_equal(
        key.astype(np.float64), rounded_reference(alibi_key_bias(n_heads, 9), name).astype(np.float64)
    )


def test_alibi_bias_peak_memory_is_checked_and_small(monkeypatch):
    import tracemalloc

    tracemalloc.start()
    tracemalloc.reset_peak()
    table = alibi_bias(8, 300)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= table.nbytes + 9 * 300**2 + 2**16
    with pytest.raises(MemoryError, match=r"n_heads=64, n_positions=1000000.*bytes"):
        alibi_bias(64, 10**6)
    with pytest.raises(ValueError, match="dtype must be one of"):
        alibi_bias(2, 3, dtype="int8")


@pytest.mark.parametrize("dtype", ["float64", "bfloat16"])
@pytest.mark.parametrize("causal", [True, False])
def test_alibi_bias_for_queries_at_the_end_of_the_keys(dtype, causal):
    """Decoding with a cache: n_queries new tokens against every key are the last rows of the square bias."""
    square = alibi_bias(12, 40, causal=causal, dtype=dtype)
    for n_queries in (1, 5, 40):
        last = alibi_bias(12, 40, causal=causal, dtype=dtype, n_queries=n_queries)
        assert last.shape == (12, n_queries, 40) and last.dtype == square.dtype
        np.testing.assert_array_equal(last, square[:, -n_queries:])
    step = alibi_bias(12, 40, n_queries=1)[:, 0]  # the newest token sees every key: no -inf
    assert np.isfinite(step).all() and np.all(step[:, -1] == 0)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: alibi_bias(2, 3, n_queries=4), ValueError, "n_queries must be <= n_positions"),
        (lambda: alibi_bias(2, 3, n_queries=0), ValueError, "n_queries"),
        (lambda: alibi_bias(2, 3, n_queries=True), TypeError, "n_queries must be an integer, got a bool"),
        (lambda: alibi_bias(64, 10**6, n_queries=10**4), ValueError, r"n_queries=10000.*more than"),
    ],
)
def test_alibi_n_queries_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
