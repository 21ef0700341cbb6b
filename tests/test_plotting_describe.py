"""posenc_math.plotting.describe: alt text for line plots, read from the values drawn."""

import numpy as np
import pytest

from posenc_math.plotting import curves_description
from posenc_math.plotting.describe import number_words, slowdown_words


def test_a_curve_is_told_by_its_ends_and_extremes():
    values = np.array([0.5, 0.9, 0.2, 0.4])
    text = curves_description({"probe": values}, x_label="block", y_label="R^2", x=[10, 20, 30, 40])
    assert text == (
        "A line plot of R^2 against block, 10 to 40. "
        "probe: from 0.5 at 10 to 0.4 at 40, highest 0.9 at 20, lowest 0.2 at 30."
    )


def test_a_flat_curve_and_a_short_one_and_gaps():
    text = curves_description(
        {"flat": [2.0] * 5, "short": [1.0, 3.0], "gap": [np.nan, 1.0, np.nan]}, x_label="p", y_label="y"
    )
    assert "flat: flat at 2." in text
    assert "short: from 1 at 0 to 3 at 1" in text
    assert "gap: flat at 1 (ending at 1)." in text
    assert "nothing drawn" in curves_description({"none": [np.nan]}, x_label="p", y_label="y")


def test_bad_curves_are_refused():
    with pytest.raises(TypeError, match="curves"):
        curves_description({}, x_label="p", y_label="y")
    with pytest.raises(ValueError, match="1-D"):
        curves_description({"a": np.zeros((2, 2))}, x_label="p", y_label="y")
    with pytest.raises(ValueError, match="x must be"):
        curves_description({"a": [1.0, 2.0]}, x_label="p", y_label="y", x=[0])


def test_number_words():
    assert number_words(7.0) == "7" and number_words(0.96234) == "0.96" and number_words(1 / 15, 3) == "0.0667"
    assert number_words(2_600_000.0) == "2.6 million" and number_words(12_345.6) == "12,000"


def test_slowdown_words():
    assert slowdown_words([1.0, 1.0, 1.0 + 1e-12, 3.0, 8.0, 8.0], 8.0) == "1 up to pair 2, rising to 8 at pair 4"
    assert slowdown_words([1.0, 2.0, 3.0], 8.0) == "from 1 at pair 0 to 3 at pair 2"


def test_descriptions_hold_no_slash():
    """The site's accessibility test takes a "/" in alt text for a file path: descriptions spell fractions out."""
    from posenc_math import plotting

    texts = [
        plotting.alibi_slope_description(),
        plotting.alibi_bias_description(),
        plotting.t5_bucket_description(max_offset=40, n_positions=8),
        plotting.shaw_clipping_description(),
        plotting.rope_feature_description(head_dim=32),
        plotting.rope_score_decay_description(np.ones(16), np.ones(16), max_offset=50),
        plotting.xpos_decay_description(np.ones(32), np.ones(32), max_offset=50),
        plotting.deberta_terms_description(),
        plotting.position_spacing_description(),
    ]
    assert not [text for text in texts if "/" in text]
