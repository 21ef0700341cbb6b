"""Witnesses of the translation page's theorems (see :mod:`posenc_math.theorems.translation`)."""

from __future__ import annotations

import mpmath
import numpy as np

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded


@witness("angle-addition")
def angle_addition() -> float:
    """The right-hand sides in numpy float64 at 20 seeded (x, y) vs sin(x + y), cos(x + y) at 40 digits."""
    rng = seeded("angle-addition")
    errors = []
    with mp_context():
        for _ in range(20):
            u, v = rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3)
            exact_sine = mpmath.sin(mpmath.mpf(u) + mpmath.mpf(v))
            exact_cosine = mpmath.cos(mpmath.mpf(u) + mpmath.mpf(v))
            errors.append(np.sin(u) * np.cos(v) + np.cos(u) * np.sin(v) - exact_sine)
            errors.append(np.cos(u) * np.cos(v) - np.sin(u) * np.sin(v) - exact_cosine)
    return largest_error(errors)


@witness("blockdiag-blockwise")
def blockdiag_blockwise() -> float:
    """translation_matrix(k, d): zero outside its 2 x 2 diagonal blocks, each block the 40-digit rotation."""
    rng = seeded("blockdiag-blockwise")
    errors = []
    with mp_context():
        for dim in (2, 8, 64):
            offset = rng.uniform(-300, 300)
            matrix = encodings.translation_matrix(offset, dim)
            freqs = encodings.frequencies(dim)
            outside = matrix.copy()
            for start in range(0, dim, 2):
                outside[start : start + 2, start : start + 2] = 0
            errors.append(mpmath.mpf(float(abs(outside).max())))  # zero outside the diagonal blocks
            for pair_index in range(dim // 2):
                angle = mpmath.mpf(float(freqs[pair_index])) * mpmath.mpf(offset)
                block = [[mpmath.cos(angle), mpmath.sin(angle)], [-mpmath.sin(angle), mpmath.cos(angle)]]
                for row in range(2):
                    for col in range(2):
                        got = float(matrix[2 * pair_index + row, 2 * pair_index + col])
                        errors.append(mpmath.mpf(got) - block[row][col])
    return largest_error(errors)


def _shifted_rows(theorem_id: str, n_cases: int = 12) -> float:
    """translation_matrix(k, d) @ PE(t) against PE(t + k) at 40 digits, seeded by ``theorem_id``."""
    rng = seeded(theorem_id)
    errors = []
    with mp_context():
        for _ in range(n_cases):
            dim = rng.choice((2, 8, 64))
            layout, spacing = rng.choice(("interleaved", "split")), rng.choice(("paper", "tensor2tensor"))
            if spacing == "tensor2tensor" and dim == 2:
                dim = 4
            position, offset = rng.randrange(0, 5000), rng.randrange(-300, 300)
            freqs = encodings.frequencies(dim, spacing=spacing)

            def row(p, freqs=freqs, layout=layout):
                sines = [mpmath.sin(p * mpmath.mpf(float(f))) for f in freqs]
                cosines = [mpmath.cos(p * mpmath.mpf(float(f))) for f in freqs]
                if layout == "interleaved":
                    return [value for both in zip(sines, cosines, strict=True) for value in both]
                return sines + cosines

            here = np.array([float(v) for v in row(position)])
            shifted = encodings.translation_matrix(offset, dim, layout=layout, spacing=spacing) @ here
            errors += [mpmath.mpf(float(got)) - want for got, want in zip(shifted, row(position + offset), strict=True)]
    return largest_error(errors)


@witness("shift-block")
def shift_block() -> float:
    """translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 12 seeded (t, k, d, layout, spacing)."""
    return _shifted_rows("shift-block")


@witness("shift-full")
def shift_full() -> float:
    """The same as :func:`shift_block`, at other seeded points."""
    return _shifted_rows("shift-full", 12)


@witness("shift-group")
def shift_group() -> float:
    """T(k) T(l) against the 40-digit rotation by (k + l) per pair, and T(0) against the identity."""
    rng = seeded("shift-group")
    errors = []
    with mp_context():
        for dim, layout in ((8, "interleaved"), (64, "split")):
            first, second = rng.uniform(-300, 300), rng.uniform(-300, 300)
            composed = encodings.translation_matrix(first, dim, layout=layout) @ encodings.translation_matrix(
                second, dim, layout=layout
            )
            freqs = encodings.frequencies(dim)
            half = dim // 2
            for i, f in enumerate(freqs):
                rows = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, half + i)
                angle = mpmath.mpf(float(f)) * (mpmath.mpf(first) + mpmath.mpf(second))
                errors.append(mpmath.mpf(float(composed[rows[0], rows[0]])) - mpmath.cos(angle))
                errors.append(mpmath.mpf(float(composed[rows[0], rows[1]])) - mpmath.sin(angle))
            errors.append(mpmath.mpf(float(np.abs(encodings.translation_matrix(0, dim) - np.eye(dim)).max())))
    return largest_error(errors)


@witness("shift-orthogonal")
def shift_orthogonal() -> float:
    """max |T^T T - I| and |T(k)^T - T(-k)| for translation_matrix(k, 128), k = 9.5, -130.25."""
    errors = []
    with mp_context():
        for offset in (9.5, -130.25):
            matrix = encodings.translation_matrix(offset, 128)
            errors.append(mpmath.mpf(float(np.abs(matrix.T @ matrix - np.eye(128)).max())))
            errors.append(mpmath.mpf(float(np.abs(matrix.T - encodings.translation_matrix(-offset, 128)).max())))
    return largest_error(errors)


@witness("single-sine-not-linear")
def single_sine_not_linear() -> float:
    """sin(x + phi) - sin(pi - x + phi) in numpy vs 2 sin(phi) cos(x) at 40 digits, 20 seeded points."""
    rng = seeded("single-sine-not-linear")
    errors = []
    with mp_context():
        for _ in range(20):
            u, p = rng.uniform(-50, 50), rng.uniform(-50, 50)
            exact = 2 * mpmath.sin(mpmath.mpf(p)) * mpmath.cos(mpmath.mpf(u))
            errors.append(np.sin(u + p) - np.sin(np.pi - u + p) - exact)
    return largest_error(errors)
