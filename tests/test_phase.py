"""posenc_math.encodings._phase: the accurate angle reduction."""

import mpmath
import numpy as np

from posenc_math.encodings._phase import frequencies_extended, reduced_angles


def test_reduced_angles_match_mpmath_on_both_paths(rng):
    # The bound grows with the position only through the extended-precision
    # frequencies (about 1e-19 relative); plain float64 products would be off
    # by up to 1.1e-16 * position, a thousand times more.
    freqs = frequencies_extended(64, 10000.0, 64)
    positions = rng.integers(0, 2**20, size=200)
    fast = reduced_angles(positions, freqs)  # exact float64 products
    slow = reduced_angles(positions.astype(np.float64), freqs)  # extended products
    assert np.abs(fast).max() <= np.pi + 1e-12
    with mpmath.workdps(40):
        for row, position in enumerate(positions[:60]):
            bound = 2e-15 + 2e-19 * position
            for pair in (0, 1, 31, 63):
                angle = position * mpmath.power(10000, -mpmath.mpf(pair) / 64)
                for got in (fast[row, pair], slow[row, pair]):
                    assert abs(float(mpmath.sin(angle)) - np.sin(got)) < bound
