"""posenc_math.encodings.translation: T(k) shifts every row by k."""

import numpy as np
import pytest

from posenc_math import sinusoidal, translation_matrix


@pytest.mark.parametrize("spacing", ["paper", "tensor2tensor"])
@pytest.mark.parametrize("layout", ["interleaved", "split"])
@pytest.mark.parametrize("dim", [2, 4, 16, 128])
def test_translation_matrix_shifts_every_position(dim, layout, spacing, rng):
    table = sinusoidal(400, dim, layout=layout, spacing=spacing)
    for k in rng.integers(-150, 150, size=12):
        shift = translation_matrix(int(k), dim, layout=layout, spacing=spacing)
        for t in rng.integers(max(0, -k), min(400, 400 - k), size=8):
            assert np.abs(table[t + k] - shift @ table[t]).max() < 1e-12


def test_translation_matrix_is_orthogonal_and_a_group():
    a, b = translation_matrix(7, 32), translation_matrix(-19, 32)
    assert np.abs(a.T @ a - np.eye(32)).max() < 1e-14
    assert np.abs(a @ b - translation_matrix(-12, 32)).max() < 1e-13
    assert np.abs(a.T - translation_matrix(-7, 32)).max() < 1e-15


def test_translation_matrix_block_signs():
    shift = translation_matrix(1, 2)
    assert np.allclose(shift, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]])


def test_fractional_offsets_are_accepted():
    table = sinusoidal(3, 4)
    half = translation_matrix(0.5, 4)
    assert np.allclose(half @ half @ table[0], table[1])


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: translation_matrix(1, 7), ValueError, "dim must be even"),
        (lambda: translation_matrix(1, 0), ValueError, "dim must be an integer >= 2"),
        (lambda: translation_matrix("1", 8), TypeError, "k must be a real number"),
        (lambda: translation_matrix(float("nan"), 8), ValueError, "k must be finite"),
        (lambda: translation_matrix(1, 8, layout="x"), ValueError, "layout"),
        (lambda: translation_matrix(1, 8, base=-2), ValueError, "base"),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("k", [10**5 + 3, 10**9 + 7, 2**31 - 1, -(2**31) + 5, 2**53, -(2**53), 2**40 + 0.5])
def test_translation_matrix_is_exact_at_large_offsets(k):
    import mpmath

    dim = 16
    shift = translation_matrix(k, dim)
    with mpmath.workdps(40):
        for pair in range(dim // 2):
            angle = mpmath.mpf(k) * mpmath.power(10000, -mpmath.mpf(pair) / (dim // 2))
            assert abs(shift[2 * pair, 2 * pair] - float(mpmath.cos(angle))) < 1e-15
            assert abs(shift[2 * pair, 2 * pair + 1] - float(mpmath.sin(angle))) < 1e-15


@pytest.mark.parametrize("k", [1e300, -(2.0**53) - 2, 2**63, 10**400])
def test_offsets_beyond_2_53_are_refused_naming_k(k):
    with pytest.raises(ValueError, match=r"k must .*2\*\*53|k must be finite"):
        translation_matrix(k, 8)


def test_complex_offsets_are_refused():
    with pytest.raises(TypeError, match="k must be a real number, got a complex number"):
        translation_matrix(1 + 2j, 8)
    with pytest.raises(TypeError, match="k must be a real number"):
        translation_matrix(np.complex128(3), 8)
