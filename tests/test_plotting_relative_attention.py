"""posenc_math.plotting.relative_attention: the panels are the library's terms."""

import matplotlib

matplotlib.use("agg")

import numpy as np
import pytest

from posenc_math import deberta_relative_index, deberta_scores, transformer_xl_scores
from posenc_math.plotting import deberta_terms_description, deberta_terms_map, transformer_xl_terms_map


def _images(figure):
    return [axes.get_images()[0].get_array() for axes in figure.axes if axes.get_images()]


def test_transformer_xl_panels_are_the_four_terms():
    figure = transformer_xl_terms_map(n_positions=6, dim=4, seed=3)
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(2, 6, 4))
    u, v = rng.normal(size=(2, 4))
    w_r = rng.normal(size=(4, 4))
    _, terms = transformer_xl_scores(q, k, u, v, w_r, return_terms=True)
    images = _images(figure)
    assert len(images) == 4
    for image, name in zip(images, "abcd", strict=True):
        assert np.allclose(image, terms[name])
    # (d) depends on i - j only: constant along every diagonal
    assert np.allclose(np.diag(images[3], 1), images[3][0, 1])
    # (c) does not depend on the query: every row equal
    assert np.allclose(images[2], images[2][0])


def test_deberta_panels_are_delta_and_the_three_terms():
    figure = deberta_terms_map(n_positions=7, dim=3, max_relative_positions=2, seed=5)
    rng = np.random.default_rng(5)
    qc, kc = rng.normal(size=(2, 7, 3))
    qr, kr = rng.normal(size=(2, 4, 3))
    _, terms = deberta_scores(qc, kc, qr, kr, return_terms=True)
    images = _images(figure)
    assert np.array_equal(images[0], deberta_relative_index(7, 2))
    for image, name in zip(images[1:], ("c2c", "c2p", "p2c"), strict=True):
        assert np.allclose(image, terms[name])


@pytest.mark.parametrize("kwargs", [{"dim": 5}, {"n_positions": 0}, {"seed": -1}])
def test_transformer_xl_map_refuses_bad_input(kwargs):
    with pytest.raises((ValueError, TypeError)):
        transformer_xl_terms_map(**kwargs)


def test_deberta_map_refuses_bad_k():
    with pytest.raises(ValueError, match="max_relative_positions"):
        deberta_terms_map(max_relative_positions=0)


def test_deberta_description_reads_delta_and_holds_for_the_terms():
    text = deberta_terms_description(n_positions=16, max_relative_positions=4)
    assert "uses table rows 0 to 7: row 0 (dark) in the upper right, row 7 (light) in the lower left" in text
    # the words about the terms hold for the drawn terms: c2p constant along each row, p2c along each column,
    # outside the band
    images = _images(deberta_terms_map(n_positions=16, dim=8, max_relative_positions=4, seed=0))
    delta, c2p, p2c = images[0], images[2], images[3]
    for i in range(16):
        for edge in (0, 7):
            for values in (np.asarray(c2p[i][delta[i] == edge]), np.asarray(p2c[:, i][delta.T[:, i] == edge])):
                assert values.size == 0 or values.max() - values.min() < 1e-12
