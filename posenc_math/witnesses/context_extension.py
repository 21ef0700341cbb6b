"""Witnesses of the context-extension page's theorems (see :mod:`posenc_math.theorems.context_extension`)."""

from __future__ import annotations

import mpmath

from .. import encodings
from . import witness
from ._common import largest_error, mp_context

#: YaRN configurations (dim, base, factor, original context, beta_fast, beta_slow, truncate) for the witness.
YARN_CONFIGS = (
    (128, 500000.0, 8.0, 8192, 32, 1, True),
    (128, 10000.0, 4.0, 4096, 32, 1, True),
    (64, 10000.0, 16.0, 2048, 32, 1, False),
    (128, 1000000.0, 4.0, 32768, 32, 1, True),
    (96, 10000.0, 40.0, 4096, 32, 1, True),
    (128, 10000.0, 2.0, 4096, 16, 2, False),
)


def yarn_scaling(factor: float, original: int, beta_fast: float, beta_slow: float, truncate: bool) -> dict:
    """The ``scaling`` dict (``rope_scaling`` of a model config) of YaRN with these parameters."""
    return {
        "rope_type": "yarn",
        "factor": factor,
        "original_max_position_embeddings": original,
        "beta_fast": beta_fast,
        "beta_slow": beta_slow,
        "truncate": truncate,
    }


def yarn_ramp_exact(
    dim: int,
    base: float,
    factor: float,
    original: int,
    beta_fast: float = 32,
    beta_slow: float = 1,
    truncate: bool = True,
) -> tuple:
    """YaRN's ramp ends, ramp and frequencies in 40-digit arithmetic (transformers' rule, independently).

    ``low = j(beta_fast)``, ``high = j(beta_slow)`` with ``j(beta) = d ln(L / (2 pi beta)) / (2 ln b)``,
    floored and ceiled when ``truncate``, clamped to ``[0, d - 1]``, ``high += 0.001`` when they meet;
    ``r(j) = clamp((j - low) / (high - low), 0, 1)`` and ``w'_j = w_j / s * r + w_j (1 - r)``.
    """
    with mp_context():

        def ramp_end(turns):
            return mpmath.mpf(dim) * mpmath.log(mpmath.mpf(original) / (turns * 2 * mpmath.pi)) / (2 * mpmath.log(base))

        low, high = ramp_end(mpmath.mpf(beta_fast)), ramp_end(mpmath.mpf(beta_slow))
        if truncate:
            low, high = mpmath.floor(low), mpmath.ceil(high)
        low, high = max(low, mpmath.mpf(0)), min(high, mpmath.mpf(dim - 1))
        if low == high:
            high += mpmath.mpf("0.001")
        ramp = [min(max((j - low) / (high - low), mpmath.mpf(0)), mpmath.mpf(1)) for j in range(dim // 2)]
        freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim) for j in range(dim // 2)]
        scaled = [f / factor * r + f * (1 - r) for f, r in zip(freqs, ramp, strict=True)]
    return low, high, ramp, scaled


@witness("ntk-base")
def ntk_base() -> float:
    """ntk_aware_base and the first and last rope_frequencies at that base vs 40-digit values, relative."""
    errors = []
    with mp_context():
        for dim in (4, 8, 64, 128, 256):
            for base in (10000.0, 500000.0, 1e6):
                for scale in (2.0, 4.0, 8.0, 16.0, 64.0):
                    exact = mpmath.mpf(base) * mpmath.mpf(scale) ** (mpmath.mpf(dim) / (dim - 2))
                    errors.append((mpmath.mpf(encodings.ntk_aware_base(base, scale, dim)) - exact) / exact)
                    inv_freq = encodings.rope_frequencies(dim, base=encodings.ntk_aware_base(base, scale, dim))[0]
                    slowest = mpmath.mpf(base) ** (-mpmath.mpf(dim - 2) / dim) / scale
                    errors.append((mpmath.mpf(inv_freq[-1]) - slowest) / slowest)
                    errors.append(mpmath.mpf(inv_freq[0]) - 1)
    return largest_error(errors)


@witness("yarn-ramp")
def yarn_ramp() -> float:
    """YaRN frequencies from rope_frequencies against :func:`yarn_ramp_exact`, relative, every config."""
    errors = []
    with mp_context():
        for dim, base, factor, original, fast, slow, truncate in YARN_CONFIGS:
            scaling = yarn_scaling(factor, original, fast, slow, truncate)
            computed, _ = encodings.rope_frequencies(dim, base=base, scaling=scaling)
            _, _, _, exact = yarn_ramp_exact(dim, base, factor, original, fast, slow, truncate)
            errors += [(mpmath.mpf(float(c)) - e) / e for c, e in zip(computed, exact, strict=True)]
    return largest_error(errors)
