"""rope_frequencies' reading of scaling dicts: misspelled keys, and Llama 4's sharp llama3 cut."""

import numpy as np
import pytest

from posenc_math import rope_frequencies
from posenc_math.encodings.rope_scaling import SCALING_KEYS, resembling


@pytest.mark.parametrize(
    "scaling,words",
    [
        ({"rope_type": "linear", "factr": 2.0}, r"'factr' .*did you mean 'factor'\?"),
        ({"rope_typ": "linear", "factor": 2.0}, r"'rope_typ' .*did you mean 'rope_type'\?"),
        ({"type": "yarm", "factor": 2.0}, r"got 'yarm' \(did you mean 'yarn'\?\)"),
        ({"rope_type": "linear", "factor": 2.0, "low_freq_factr": 1.0}, r"resembles 'low_freq_factor'.*'llama3'"),
        ({"rope_type": "default", "factor": 2.0}, r"'factor' is read by rope_type 'linear'.*not 'default'"),
        ({"rope_type": "linear", "factor": 2.0, "finetuned": True}, r"'finetuned' is not used by rope_type 'linear'"),
    ],
)
def test_a_misspelled_key_names_the_key_it_resembles(scaling, words):
    with pytest.raises(ValueError, match=words):
        rope_frequencies(8, scaling=scaling)


def test_resembling_needs_a_close_match():
    assert resembling("original_max_positions", SCALING_KEYS) == "original_max_position_embeddings"
    assert resembling("beta", SCALING_KEYS) is None


def test_llama3_with_equal_band_factors_cuts_sharply():
    """Llama 4 Scout: low_freq_factor = high_freq_factor = 1; wavelengths above
    the original context divide by the factor, the others keep their frequency."""
    scaling = {
        "rope_type": "llama3",
        "factor": 16.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 1.0,
        "original_max_position_embeddings": 8192,
    }
    inv_freq, factor = rope_frequencies(128, base=500000.0, scaling=scaling)
    plain = 500000.0 ** (-np.arange(0, 128, 2) / 128)
    long = 2 * np.pi / plain > 8192
    assert factor == 1.0 and 0 < long.sum() < 64
    assert np.allclose(inv_freq, np.where(long, plain / 16, plain), rtol=1e-15)
    with pytest.raises(ValueError, match="low_freq_factor <= high_freq_factor"):
        rope_frequencies(128, base=500000.0, scaling=dict(scaling, low_freq_factor=2.0))
