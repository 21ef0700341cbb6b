"""tools/bench_rope.py (make bench's RoPE section): what it compares is what it says, on a small shape.

No timing here: the bench measures speed as ratios in one run; these tests check that the reference
rotation is the plain rotate_half rotation transformers computes, and that the accuracy figure can tell a
result rounded once from one that is not.
"""

import importlib.util
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from posenc_math import rope, rope_frequencies

SPEC = importlib.util.spec_from_file_location(
    "bench_rope", Path(__file__).resolve().parent.parent / "tools" / "bench_rope.py"
)
bench_rope = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench_rope)


@pytest.fixture
def small(monkeypatch):
    for name, value in (("BATCH", 2), ("HEADS", 3), ("SEQ", 64), ("HEAD_DIM", 16)):
        monkeypatch.setattr(bench_rope, name, value)
    return 2, 3, 64, 16


def test_the_plain_rotation_is_rotate_half_with_float32_angles(small, rng):
    batch, _, n, dim = small
    x = rng.normal(size=small).astype(np.float32)
    ids = rng.integers(0, 2000, size=(batch, n))
    inv_freq, _ = rope_frequencies(dim)
    plain = bench_rope.plain_rotation(x, ids, inv_freq)
    angles = ids[:, :, None].astype(np.float32) * inv_freq.astype(np.float32)
    cos, sin = (
        np.cos(np.concatenate([angles, angles], -1))[:, None],
        np.sin(np.concatenate([angles, angles], -1))[:, None],
    )
    rotated = np.concatenate([-x[..., dim // 2 :], x[..., : dim // 2]], axis=-1)
    np.testing.assert_array_equal(plain, x * cos + rotated * sin)
    # the same rotation as rope's, to float32's angle error: a like-for-like time ratio
    assert np.allclose(plain, rope(x, ids), rtol=0, atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, ml_dtypes.bfloat16], ids=["float32", "bfloat16"])
def test_the_accuracy_figure_tells_once_rounded_from_plain(dtype, small, rng):
    batch, _, n, dim = small
    x = rng.normal(size=small).astype(dtype)
    ids = np.tile(np.arange(1000, 1000 + n), (batch, 1))
    assert bench_rope.ulp_error(x, ids, rope(x, ids)) <= 0.5
    inv_freq, _ = rope_frequencies(dim)
    assert bench_rope.ulp_error(x, ids, bench_rope.plain_rotation(x, ids, inv_freq)) > 0.5
