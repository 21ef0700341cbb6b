"""Shared fixtures: a seeded generator and 40-digit mpmath reference values."""

import mpmath
import numpy as np
import pytest
from bench import traced_peak


@pytest.fixture
def rng():
    """A generator with a fixed seed: tests are the same on every run."""
    return np.random.default_rng(20171206)


def exact_sin_cos(position, pair, dim, *, base=10000, spacing="paper", digits=40):
    """sin and cos of ``position * w_pair`` from the formula, at ``digits``."""
    with mpmath.workdps(digits):
        n_pairs = dim // 2
        denominator = n_pairs if spacing == "paper" else max(n_pairs - 1, 1)
        angle = mpmath.mpf(position) * mpmath.power(base, -mpmath.mpf(pair) / denominator)
        return float(mpmath.sin(angle)), float(mpmath.cos(angle))


#: ``(function(), peak bytes)`` as tracemalloc sees them: the memory tests
#: measure exactly as ``make bench`` does.
peak_of = traced_peak

#: The outside rounds: scripts run by hand (minutes each: many refusals take the kernel's time bound) and
#: their shared evaluator, not test modules; collecting them would import their cases on every worker.
collect_ignore = [
    "adversarial/round2.py",
    "adversarial/round3.py",
    "adversarial/round4.py",
    "adversarial/outside.py",
]
