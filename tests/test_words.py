"""posenc_math._words: numbers written as a reader reads them."""

import math

import numpy as np
import pytest

from posenc_math._words import number_words


@pytest.mark.parametrize(
    "value, digits, text",
    [
        (10000.0, 6, "10,000"),  # not 10000.0
        (183_345.2, 4, "183,300"),  # not 1.833e+05
        (1987.4, 4, "1,987"),
        (8.0, 2, "8"),
        (1.3688945, 6, "1.36889"),
        (2_559_000.0, 4, "2.559 million"),
        (3.2e9, 2, "3.2 billion"),
        (8.9e-16, 2, "8.9 × 10⁻¹⁶"),
        (np.float32(0.5), 2, "0.5"),
    ],
)
def test_number_words_never_writes_program_output(value, digits, text):
    assert number_words(value, digits) == text
    assert "e+" not in text and "e-" not in text and not text.endswith(".0")


def test_number_words_keeps_non_finite_values_visible():
    assert number_words(math.inf) == "inf" and number_words(math.nan) == "nan"
