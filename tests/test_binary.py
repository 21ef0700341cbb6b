"""posenc_math.encodings.binary: bits, least significant first."""

import numpy as np
import pytest

from posenc_math import binary


def test_columns_are_bits_least_significant_first():
    bits = binary(16, 4)
    assert bits.dtype.kind == "i"
    assert np.array_equal(bits @ (2 ** np.arange(4)), np.arange(16))
    assert np.array_equal(bits[:, 0], np.arange(16) % 2)  # fastest column first


def test_rows_are_distinct_and_columns_have_period_two_to_the_j_plus_one():
    bits = binary(64, 6)
    assert len({tuple(row) for row in bits}) == 64
    for j in range(6):
        period = 2 ** (j + 1)
        assert np.array_equal(bits[period:, j], bits[:-period, j])


def test_too_few_bits_is_refused():
    with pytest.raises(ValueError, match="n_positions=17 needs n_bits >= 5"):
        binary(17, 4)
    assert binary(16, 4).shape == (16, 4)
    assert binary(1, 1).tolist() == [[0]]


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: binary(0, 3), ValueError, "n_positions"),
        (lambda: binary(4, 0), ValueError, "n_bits"),
        (lambda: binary(4.0, 3), TypeError, "n_positions must be an integer"),
        (lambda: binary(4, 64), ValueError, "n_bits must be <= 63"),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
