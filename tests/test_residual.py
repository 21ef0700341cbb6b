"""posenc_math.residual: the toy residual-stream probe."""

import numpy as np
import pytest

from posenc_math import residual
from posenc_math.residual import position_readout


def test_input_readout_is_perfect_without_content():
    scores = position_readout(n_blocks=1, content_scale=0.0)
    assert scores[0] == pytest.approx(1.0, abs=1e-9)


def test_residual_keeps_more_position_than_no_residual():
    with_skip = position_readout(n_blocks=8)
    without = position_readout(n_blocks=8, residual=False)
    assert with_skip.shape == without.shape == (9,)
    assert with_skip[0] == without[0]  # same input, same seed
    assert with_skip[-1] > 0.8 * with_skip[0]
    assert without[-1] < 0.5 * without[0]


def test_larger_blocks_erode_the_residual_stream_more():
    small = position_readout(n_blocks=8, block_scale=0.25)
    large = position_readout(n_blocks=8, block_scale=4.0)
    assert small[-1] > large[-1]


def test_probe_scores_held_out_data():
    # a stream that is pure noise carries no position: held-out R^2 near or below 0
    rng = np.random.default_rng(1)
    noise = rng.normal(size=(8, 32, 16))
    table = rng.normal(size=(32, 16))
    assert residual._held_out_r2(noise, table, 4) < 0.05
    # the table itself plus an exact linear image of it is read back exactly
    mixed = np.broadcast_to(table @ rng.normal(size=(16, 16)), (8, 32, 16))
    assert residual._held_out_r2(mixed, table, 4) == pytest.approx(1.0, abs=1e-9)


def test_deterministic_for_a_seed():
    assert np.array_equal(position_readout(n_blocks=2, seed=3), position_readout(n_blocks=2, seed=3))


@pytest.mark.parametrize(
    "kwargs, error, name",
    [
        ({"width": 7}, ValueError, "width"),
        ({"n_blocks": 0}, ValueError, "n_blocks"),
        ({"n_sequences": 1}, ValueError, "n_sequences"),
        ({"block_scale": 0.0}, ValueError, "block_scale"),
        ({"content_scale": -1.0}, ValueError, "content_scale"),
        ({"residual": 1}, TypeError, "residual"),
        ({"block_scale": "big"}, TypeError, "block_scale"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, name):
    with pytest.raises(error, match=name):
        position_readout(**kwargs)


def test_the_blocks_use_hidden_factor(monkeypatch):
    """The site states the blocks' hidden width from HIDDEN_FACTOR: changing it must change the result."""
    assert residual.HIDDEN_FACTOR == 4
    default = position_readout(n_blocks=2)
    monkeypatch.setattr(residual, "HIDDEN_FACTOR", 2)
    assert not np.allclose(position_readout(n_blocks=2)[1:], default[1:])
