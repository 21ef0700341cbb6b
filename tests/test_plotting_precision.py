"""posenc_math.plotting.precision: the figures draw the module's numbers."""

import matplotlib

matplotlib.use("agg")

import numpy as np
import pytest

from posenc_math.plotting import (
    log_positions,
    phase_error_growth,
    phase_error_growth_description,
    position_spacing,
    position_spacing_description,
)
from posenc_math.plotting.precision import SCENARIOS
from posenc_math.precision import phase_error


def test_phase_error_growth_draws_the_largest_error():
    positions = log_positions(5000, 20)
    figure = phase_error_growth(positions, dim=16)
    line = figure.axes[0].get_lines()[0]  # "all bfloat16"
    formats = {"position_dtype": "bfloat16", "frequency_dtype": "bfloat16", "angle_dtype": "bfloat16"}
    expected = np.abs(phase_error(positions, 16, **formats)).max(axis=1)
    drawn = np.asarray(line.get_ydata(), dtype=float)
    assert np.allclose(drawn[np.isfinite(drawn)], expected[np.isfinite(drawn)])


def test_position_spacing_marks_the_limits():
    figure = position_spacing(2**26)
    labels = [text.get_text() for text in figure.axes[0].get_legend().get_texts()]
    for name, limit in (("bfloat16", "256"), ("float16", "2,048"), ("float32", "16,777,216")):
        assert f"{name}: exact up to {limit} (dot)" in labels
    assert not figure.axes[0].texts  # in the legend, where no label meets a curve or the frame


def test_log_positions_are_distinct_and_bounded():
    positions = log_positions(10**6)
    assert positions[0] == 1 and positions[-1] == 10**6 and np.all(np.diff(positions) > 0)


def test_phase_error_growth_description_reads_the_errors_drawn():
    positions = log_positions(10**5, 40)
    text = phase_error_growth_description(positions, dim=16)
    largest = {label: np.abs(phase_error(positions, 16, **formats)).max(axis=1) for label, formats in SCENARIOS.items()}
    first_radian = int(positions[np.argmax(largest["all bfloat16"] >= 1.0)])
    assert f"all bfloat16: error reaches one radian at position {first_radian:,};" in text
    assert f"{largest['all float32'][-1]:.2g} radians at position 100,000." in text
    overflow = int(positions[np.argmax(positions > 65_504)])
    assert f"no value from position {overflow:,} on, which it cannot hold" in text
    # bfloat16 holds every position up to 256: there the mixed scenario is all float32
    same_up_to = int(positions[positions <= 256][-1])
    assert f"positions bfloat16, rest float32: the same errors as all float32 up to position {same_up_to:,};" in text


@pytest.mark.parametrize("formats, expected", [(("float32",), "16,777,216 in float32"), (("float16",), "65,504")])
def test_position_spacing_description_names_the_limits(formats, expected):
    assert expected in position_spacing_description(2**26, formats=formats)
    assert "largest number" not in position_spacing_description(2**10, formats=("float16",))
