"""Tests for posenc_math.plotting.rotation: the RoPE pair and the dials GIF."""

import io

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")

from posenc_math.plotting import dials_animation, rope_pair_rotation, shift_hands


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


def _arrow_tips(axes):
    """The tips of the hands drawn on a dial, in drawing order (before, after)."""
    return [np.array(annotation.xy) for annotation in axes.texts if annotation.arrow_patch is not None]


def test_shift_hands_draws_the_table_rows_and_their_shift():
    from posenc_math import sinusoidal

    figure = shift_hands(16, 3, positions=(1, 30), n_pairs=4)
    table = sinusoidal(34, 16)
    for row, start in enumerate((1, 30)):
        for pair in range(4):
            before, after = _arrow_tips(figure.axes[row * 4 + pair])
            np.testing.assert_allclose(before, table[start, 2 * pair : 2 * pair + 2], atol=1e-12)
            np.testing.assert_allclose(after, table[start + 3, 2 * pair : 2 * pair + 2], atol=1e-12)


def test_shift_hands_turns_each_hand_by_the_same_angle_in_every_row():
    figure = shift_hands(16, 3, positions=(1, 30, 500))
    frequencies = 10000.0 ** (-2 * np.arange(4) / 16)
    for pair in range(4):
        turns = []
        for row in range(3):
            before, after = _arrow_tips(figure.axes[row * 4 + pair])
            # the hand is (sin x, cos x): its angle from twelve o'clock, clockwise
            turned = np.arctan2(after[0], after[1]) - np.arctan2(before[0], before[1])
            turns.append(np.mod(turned, 2 * np.pi))
        np.testing.assert_allclose(turns, np.mod(3 * frequencies[pair], 2 * np.pi), atol=1e-12)
        labels = {figure.axes[row * 4 + pair].get_xlabel() for row in range(3)}
        assert labels == {f"turned {3 * frequencies[pair]:.2g} rad"}


def test_shift_hands_fits_a_phone():
    figure = shift_hands(16, 3)
    assert figure.get_size_inches()[0] <= 6.4
    assert len(figure.axes) == 2 * 4


@pytest.mark.parametrize(
    "arguments, error, message",
    [
        ({"dim": 7, "offset": 3}, ValueError, "dim must be even"),
        ({"dim": 8, "offset": 1.5}, TypeError, "offset"),
        ({"dim": 8, "offset": 3, "positions": ()}, ValueError, "positions"),
        ({"dim": 8, "offset": 3, "positions": (-1,)}, ValueError, r"positions\[0\]"),
        ({"dim": 8, "offset": 3, "n_pairs": 5}, ValueError, "n_pairs"),
    ],
)
def test_shift_hands_refuses_bad_input(arguments, error, message):
    with pytest.raises(error, match=message):
        shift_hands(**arguments)


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
