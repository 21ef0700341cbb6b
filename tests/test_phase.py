"""posenc_math.encodings._phase: exact frequencies, exact angle reduction,
rounding once to narrow formats, and the peak-memory estimate."""

from fractions import Fraction

import ml_dtypes
import mpmath
import numpy as np
import pytest
from conftest import peak_of

from posenc_math.encodings._phase import (
    exact_frequencies,
    frequencies_extended,
    reduced_angles,
    store_rounded,
    table_peak_bytes,
)


def exact_reduced(position, pair, denominator, base, *, numerator=1):
    """The exact angle ``p base**(-numerator pair / denominator)`` reduced to [-pi, pi], 40+ digits."""
    with mpmath.workdps(60):
        angle = mpmath.mpf(position) * mpmath.power(mpmath.mpf(base), -mpmath.mpf(numerator * pair) / denominator)
        return angle - 2 * mpmath.pi * mpmath.nint(angle / (2 * mpmath.pi))


def wrapped_error(got, exact):
    with mpmath.workdps(60):
        difference = mpmath.mpf(float(got)) - exact
        return abs(float(difference - 2 * mpmath.pi * mpmath.nint(difference / (2 * mpmath.pi))))


@pytest.mark.parametrize("n_pairs,base,denominator", [(1, 10000.0, 1), (64, 10000.0, 64), (1000, 500000.0, 999)])
def test_exact_frequencies_are_double_doubles_of_the_formula(n_pairs, base, denominator):
    hi, lo = exact_frequencies(n_pairs, base, denominator)
    with mpmath.workdps(50):
        for i in range(0, n_pairs, max(1, n_pairs // 37)):
            exact = mpmath.power(mpmath.mpf(base), -mpmath.mpf(i) / denominator)
            assert float(exact) == hi[i]  # hi is the correctly rounded float64
            assert abs((mpmath.mpf(hi[i]) + mpmath.mpf(lo[i]) - exact) / exact) < 2.0**-100


def test_exact_frequencies_in_chunks_equal_all_at_once():
    hi, lo = exact_frequencies(5000, 10000.0, 5000)
    for first, stop in [(0, 1), (17, 900), (4321, 5000), (70, 71)]:
        chunk_hi, chunk_lo = exact_frequencies(5000, 10000.0, 5000, first=first, stop=stop)
        assert np.array_equal(chunk_hi, hi[first:stop]) and np.array_equal(chunk_lo, lo[first:stop])


# Positions near 1e5, 1e9 and 2**31, both signs: the promise is 1e-14.
CENTRES = [10**5, 10**9, 2**31 - 20, -(10**9), -(2**31) + 20, -(10**5)]


@pytest.mark.parametrize("centre", CENTRES)
@pytest.mark.parametrize("base,dim", [(10000.0, 64), (500000.0, 128), (10.0, 8), (1e6, 4096)])
def test_rope_angles_are_exact_to_2_31(centre, base, dim, rng):
    # The RoPE angles p * base**(-2j/dim): integer and fractional positions.
    positions = centre + rng.integers(-20, 20, size=24).astype(np.float64)
    positions[::3] += 0.375
    angles = reduced_angles(positions, exact_frequencies(dim // 2, base, dim // 2))
    for row in range(0, 24, 2):
        for pair in rng.integers(0, dim // 2, size=6):
            error = wrapped_error(angles[row, pair], exact_reduced(positions[row], int(pair), dim // 2, base))
            assert error < 1e-15


def test_beyond_2_31_the_measured_bound_holds(rng):
    # Stated bound beyond 2**31: 1e-16 + |p w| 2**-100, far below 1e-15 up to
    # |p| = 2**53 (measured there: about 2.2e-16, one rounding).
    freqs = exact_frequencies(32, 10000.0, 32)
    for centre in (2**40, 2**50, 2**53 - 64, -(2**53) + 64):
        positions = centre + rng.integers(-32, 32, size=10)
        angles = reduced_angles(positions, freqs)
        for row in range(10):
            for pair in (0, 1, 5, 31):
                error = wrapped_error(angles[row, pair], exact_reduced(int(positions[row]), pair, 32, 10000.0))
                assert error < 1e-16 + abs(float(positions[row])) * 2.0**-100 + 3e-16


def test_longdouble_and_float64_frequencies_are_taken_as_given():
    freqs = frequencies_extended(16, 10000.0, 16)
    positions = np.arange(1000, 1010)
    from_double = reduced_angles(positions, freqs.astype(np.float64))
    with mpmath.workdps(40):
        sines = [[float(mpmath.sin(mpmath.mpf(int(p)) * mpmath.mpf(float(w)))) for w in freqs] for p in positions]
    assert np.abs(np.sin(from_double) - np.array(sines)).max() < 1e-15
    assert reduced_angles(positions, freqs).shape == (10, 16)


@pytest.mark.parametrize(
    "positions,freqs,message",
    [
        ([2.0**54], np.ones(2), r"\|positions\| <= 2\*\*53"),
        ([1.0, np.nan], np.ones(2), "finite"),
        ([2.0**50], np.full(2, 2.0**13), "2\\*\\*62"),
    ],
)
def test_reduced_angles_refuse_what_they_cannot_do_exactly(positions, freqs, message):
    with pytest.raises(ValueError, match=message):
        reduced_angles(np.array(positions), freqs)


def nearest(value, dtype) -> float:
    """Reference rounding of a float or a Fraction to nearest, ties to even, by exact rational distances."""
    if dtype == np.float32:
        step_bits, view, width = 0, np.uint32, np.float32
    elif dtype == np.float16:
        step_bits, view, width = 0, np.uint16, np.float16
    else:  # bfloat16: float32 bit patterns with the low 16 bits clear
        step_bits, view, width = 16, np.uint32, np.float32
    guess = np.array([float(value)], dtype=np.float64).astype(np.float32 if step_bits else width)
    bits = int(guess.view(view)[0]) >> step_bits << step_bits
    sign = bits & (1 << (8 * np.dtype(view).itemsize - 1))
    magnitude = bits ^ sign
    candidates = []
    for step in (-1, 0, 1):
        m = magnitude + (step << step_bits)
        if m < 0:
            continue
        candidate = np.array([sign | m], dtype=view).view(width)[0]
        if np.isfinite(candidate):
            candidates.append(float(candidate))
    exact = value if isinstance(value, Fraction) else Fraction(value)

    def key(c):
        mantissa_bit = (int(np.array([c], dtype=width).view(view)[0]) >> step_bits) & 1
        return (abs(Fraction(c) - exact), mantissa_bit)

    return min(candidates, key=key)


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
def test_store_rounded_rounds_once_to_nearest_even(name, rng):
    dtype = np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
    mantissa = {"float32": 24, "float16": 11, "bfloat16": 8}[name]
    # values just off a tie between two neighbours: rounding twice (via float32) gets these wrong
    ties = 1.0 + (2 * rng.integers(0, 2 ** (mantissa - 1), size=200) + 1) * 2.0**-mantissa
    values = np.concatenate(
        [ties + 2.0**-45, ties - 2.0**-45, ties, -ties, rng.uniform(-1, 1, size=400), [0.0, -0.0, 1.0, -1.0]]
    )
    values = values[np.abs(values) < 60000]
    out = np.empty(values.shape, dtype=dtype)
    store_rounded(out, values)
    expected = np.array([nearest(float(v), dtype.type if name != "bfloat16" else "bfloat16") for v in values])
    assert np.array_equal(out.astype(np.float64), expected)


@pytest.mark.parametrize(
    "n_positions,dim,layout,dtype",
    [
        (50_000, 32, "interleaved", "float64"),
        (50_000, 32, "split", "float32"),
        (1, 400_000, "interleaved", "float64"),
        (3, 200_000, "split", "bfloat16"),
        (300, 4096, "split", "float16"),
    ],
)
def test_peak_estimate_bounds_the_measured_peak(n_positions, dim, layout, dtype):
    from posenc_math import sinusoidal

    table, peak = peak_of(lambda: sinusoidal(n_positions, dim, layout=layout, dtype=dtype))
    assert peak <= table_peak_bytes(n_positions, dim, dim // 2, table.itemsize)


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
def test_rounded_once_rounds_a_double_double_to_nearest(name, rng):
    # hi a midpoint between two neighbours of the target format, lo a nudge:
    # hi alone would round to even; hi + lo must round toward lo.
    from posenc_math.encodings._phase import rounded_once

    mantissa = {"float32": 24, "float16": 11, "bfloat16": 8}[name]
    hi = 1.0 + (2 * rng.integers(0, 2 ** (mantissa - 1), size=300) + 1) * 2.0**-mantissa
    lo = rng.choice([-1.0, 1.0, 0.0], size=300) * 2.0**-70
    dtype = np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)
    got = rounded_once(hi, lo, dtype).astype(np.float64)
    key = "bfloat16" if name == "bfloat16" else dtype.type
    expected = [nearest(Fraction(float(h)) + Fraction(float(e)), key) for h, e in zip(hi, lo, strict=True)]
    assert np.array_equal(got, expected)
    assert not np.array_equal(hi.astype(dtype).astype(np.float64), expected)  # rounding hi alone is wrong
