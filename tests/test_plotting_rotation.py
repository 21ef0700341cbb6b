"""Tests for posenc_math.plotting.rotation: the RoPE pair and the dials GIF."""

import io

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")

from posenc_math.plotting import dials_animation, rope_pair_rotation


def test_rope_pair_rotation_draws_the_rotated_points():
    figure = rope_pair_rotation([1.0, 0.5], [0.7], n_positions=6)
    drawn = figure.axes[0].collections[0].get_offsets()
    angles = 0.7 * np.arange(6)
    expected = np.stack([np.cos(angles) - 0.5 * np.sin(angles), np.sin(angles) + 0.5 * np.cos(angles)], axis=1)
    np.testing.assert_allclose(drawn, expected, atol=1e-12)
    # the length of the pair never changes
    np.testing.assert_allclose(np.hypot(drawn[:, 0], drawn[:, 1]), np.hypot(1.0, 0.5))


@pytest.mark.parametrize(
    "kwargs",
    [{"pair": [0.0, 0.0]}, {"pair": [1.0, 2.0, 3.0]}, {"frequencies": []}, {"frequencies": [-1.0]}],
)
def test_rope_pair_rotation_refuses_bad_input(kwargs):
    arguments = {"pair": [1.0, 0.0], "frequencies": [1.0]} | kwargs
    with pytest.raises(ValueError, match=r"pair|frequencies"):
        rope_pair_rotation(arguments["pair"], arguments["frequencies"])


def test_dials_animation_is_a_deterministic_gif_with_one_frame_per_position():
    from PIL import Image

    gif = dials_animation(4, n_positions=5, n_pairs=2)
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    assert image.n_frames == 5
    # deterministic: the site's reproducible-build check depends on it
    assert gif == dials_animation(4, n_positions=5, n_pairs=2)
    assert gif != dials_animation(4, n_positions=5, n_pairs=2, base=100.0)


def test_dials_animation_refuses_too_many_pairs():
    with pytest.raises(ValueError, match="n_pairs"):
        dials_animation(4, n_pairs=3)


def test_dials_animation_fits_a_phone_column_and_records_its_smallest_text():
    """Two dials to a row: narrower than a phone's 358 px text column, so the
    GIF is shown at its own size and its 9 pt titles stay 9 pt x 90 / 72 px."""
    from PIL import Image

    gif = dials_animation(8, n_positions=3, n_pairs=4)
    image = Image.open(io.BytesIO(gif))
    width, height = image.size
    assert width <= 358 < 2 * width and height > width
    assert image.info["comment"] == b"posenc-label-px=11.25"
    one_row = Image.open(io.BytesIO(dials_animation(8, n_positions=3, n_pairs=4, columns=4)))
    assert one_row.size[0] > 358 and one_row.size[1] < height
