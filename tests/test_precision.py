"""posenc_math.precision: angles in low precision against mpmath."""

import mpmath
import numpy as np
import pytest

from posenc_math.precision import (
    FORMATS,
    computed_angles,
    exact_angles,
    first_merged_position,
    phase_error,
    phase_error_bound,
    rounded_positions,
    unit_roundoff,
)

ALL = {name: {"position_dtype": name, "frequency_dtype": name, "angle_dtype": name} for name in FORMATS}


@pytest.mark.parametrize("base", [10000.0, 500000.0, 2.5])
def test_exact_angles_match_mpmath_at_80_digits(rng, base):
    # small, large (up to 2**52) and negative positions: the fixed-point integers must not run out of bits
    positions = np.concatenate([rng.integers(0, 10**9, size=5), rng.integers(-(2**52), 2**52, size=5)])
    ours = exact_angles(positions, 16, base=base)
    with mpmath.workdps(80):
        for row, p in enumerate(positions.tolist()):
            for j in range(8):
                angle = mpmath.mpf(p) * mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / 16)
                reduced = angle - 2 * mpmath.pi * mpmath.nint(angle / (2 * mpmath.pi))
                assert ours[row, j] == float(reduced)


def test_float64_angles_are_float64_accurate():
    positions = np.array([1, 1000, 10**6])
    error = phase_error(positions, 64, **ALL["float64"])
    assert np.all(np.abs(error) <= positions[:, None] * 2.0**-52)


@pytest.mark.parametrize("name", ["bfloat16", "float16", "float32"])
def test_error_within_the_rounding_bounds(name):
    positions = np.unique(np.geomspace(1, 60000, 200).astype(np.int64))
    error = np.abs(phase_error(positions, 64, **ALL[name]))
    # three roundings (position, frequency, product): (1 + u)^3 - 1 < 3.1 u
    bound = 3.1 * phase_error_bound(positions, name)[:, None]
    limit = np.broadcast_to(np.minimum(bound, np.pi), error.shape)
    finite = np.isfinite(error)
    assert np.all(error[finite] <= limit[finite] + 1e-15)


def test_first_merged_positions():
    assert first_merged_position(64, stop=70000, **ALL["bfloat16"]) == 257
    assert first_merged_position(64, stop=70000, **ALL["float16"]) == 2049
    assert first_merged_position(64, start=2**24 - 100, stop=2**24 + 100, **ALL["float32"]) == 2**24 + 1
    assert first_merged_position(64, start=2**24 - 100, stop=2**24 + 100) is None  # float64


def test_positions_alone_decide_the_merge():
    # rotary-embedding-torch with bfloat16 queries: float32 angles do not help
    assert first_merged_position(128, stop=1000, position_dtype="bfloat16") == 257


def test_gpt_neox_issue_1003_numbers():
    formats = ALL["float16"]
    assert computed_angles([1857], 32, **formats)[0, 1] == 1045.0
    exact = 1857 * 10000 ** (-2 / 32)
    assert abs(exact - 1044.2678) < 1e-4


def test_float16_overflows():
    assert np.array_equal(rounded_positions([65504, 65519, 65520], "float16"), [65504, 65504, np.inf])
    error = phase_error([65520], 8, **ALL["float16"])
    assert np.isnan(error).all()


def test_limits_and_roundoff():
    assert [unit_roundoff(name) for name in FORMATS] == [2.0**-8, 2.0**-11, 2.0**-24, 2.0**-53]
    assert unit_roundoff("float32") == 2.0**-24 and unit_roundoff("float64") == 2.0**-53


def test_bad_input():
    with pytest.raises(TypeError, match="positions"):
        computed_angles([1.5], 8)
    with pytest.raises(ValueError, match="even"):
        exact_angles([1], 7)
    with pytest.raises(ValueError, match="position_dtype must be one of"):
        computed_angles([1], 8, position_dtype="int8")
    with pytest.raises(ValueError, match="2\\*\\*22"):
        first_merged_position(8, stop=2**23)
    with pytest.raises(ValueError, match="frequency"):
        phase_error_bound([1], "float32", frequency=0.0)


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
def test_computed_angles_round_the_exact_product_once(name, rng):
    # The product of the held position and frequency is exact; rounding it to
    # the angle's format must be one rounding to nearest, checked with rationals.
    from fractions import Fraction

    from test_phase import nearest

    from posenc_math import precision

    positions = rng.integers(1, 60000, size=40)
    angles = precision.computed_angles(positions, 64, position_dtype="float64", frequency_dtype=name, angle_dtype=name)
    freqs = precision.computed_angles([1], 64, position_dtype="float64", frequency_dtype=name, angle_dtype="float64")[0]
    key = np.float32 if name == "float32" else (np.float16 if name == "float16" else "bfloat16")
    for row, position in enumerate(positions):
        for pair in (0, 3, 17, 31):
            exact = Fraction(int(position)) * Fraction(float(freqs[pair]))
            if abs(exact) < 60000 or name != "float16":
                assert angles[row, pair] == nearest(exact, key)
