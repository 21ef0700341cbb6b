"""``make bench``, the RoPE section: ``rope`` on a real shape against a plain rotation.

Run with ``python tools/bench_rope.py``, or import it and call :func:`run`
(the rows ``(name, value, bar, ok)``; ``ok`` is None where there is no bar).

The shape is a model's: queries of shape (batch 2, heads 8, seq 4096,
head_dim 128) and transformers' ``position_ids`` of shape (batch, seq).
The reference is the plain numpy rotation transformers' code path would
give: float32 cos/sin of ``position_ids * inv_freq``, cast to the input's
dtype, then ``x * cos + rotate_half(x) * sin`` in that dtype.  Every figure
is a ratio of two measurements taken in the same run (best of several
repeats, the two alternating), so a shared, noisy machine moves both alike:

- time of ``posenc_math.rope`` / time of the plain rotation (bar <= 1.5);
- peak memory of ``rope`` (tracemalloc: numpy reports its allocations
  there) / the input's bytes (bar <= 3);
- accuracy: the largest error of sampled entries against 40-digit mpmath,
  in units of the dtype's spacing at the exact value (bar: 0.5, the
  result is the float64 value rounded once; the float64 value's own error,
  about 1e-9 of a float32 spacing, is allowed on top).

float32 and bfloat16 (ml_dtypes).
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

#: (name, value, bar, ok): ok is None where there is no bar.
Row = tuple[str, str, str, bool | None]

BATCH, HEADS, SEQ, HEAD_DIM = 2, 8, 4096, 128
TIME_BAR = 1.5
MEMORY_BAR = 3.0
#: Half a spacing (rounded once), plus the float64 computation's own error (about 1e-9 of a float32 spacing).
ULP_BAR = 0.5 + 2.0**-20


def plain_rotation(x: np.ndarray, position_ids: np.ndarray, inv_freq: np.ndarray) -> np.ndarray:
    """transformers' rotary path in plain numpy: float32 angles, cos/sin in x's dtype, ``rotate_half``."""
    freqs = position_ids[:, :, None].astype(np.float32) * inv_freq.astype(np.float32)[None, None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos = np.cos(emb).astype(x.dtype)[:, None]  # unsqueeze_dim=1: (batch, 1, seq, head_dim)
    sin = np.sin(emb).astype(x.dtype)[:, None]
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin


def best_times(functions: list[Callable[[], object]], *, repeat: int = 7) -> list[float]:
    """Best wall time of each function, the functions run in turn ``repeat`` times."""
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for i, function in enumerate(functions):
            began = time.perf_counter()
            function()
            best[i] = min(best[i], time.perf_counter() - began)
    return best


def traced_peak(function: Callable[[], object]) -> int:
    """Peak bytes allocated while ``function()`` runs (numpy reports its allocations to tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def ulp_error(x: np.ndarray, position_ids: np.ndarray, out: np.ndarray, *, samples: int = 200, seed: int = 0) -> float:
    """Largest error of sampled entries of ``out`` against 40-digit mpmath, in spacings of out's dtype.

    The spacing is that of the dtype at the exact value (``2**(e - p)`` for
    a value in ``[2**(e-1), 2**e)`` and ``p`` significant bits): a result
    rounded once is within 0.5 of it.
    """
    import math

    import ml_dtypes
    import mpmath

    bits = int(ml_dtypes.finfo(out.dtype).nmant) + 1
    rng = random.Random(seed)
    half = HEAD_DIM // 2
    worst = 0.0
    with mpmath.workdps(40):
        for _ in range(samples):
            b, h, n, j = rng.randrange(BATCH), rng.randrange(HEADS), rng.randrange(SEQ), rng.randrange(half)
            angle = int(position_ids[b, n]) * mpmath.power(10000, -mpmath.mpf(2 * j) / HEAD_DIM)
            first, second = mpmath.mpf(float(x[b, h, n, j])), mpmath.mpf(float(x[b, h, n, j + half]))
            exact = (
                first * mpmath.cos(angle) - second * mpmath.sin(angle),
                first * mpmath.sin(angle) + second * mpmath.cos(angle),
            )
            for column, value in ((j, exact[0]), (j + half, exact[1])):
                spacing = 2.0 ** (math.frexp(float(value))[1] - bits)
                worst = max(worst, float(abs(mpmath.mpf(float(out[b, h, n, column])) - value)) / spacing)
    return worst


def run() -> list[Row]:
    """Measure ``rope`` against the plain rotation, float32 and bfloat16."""
    import ml_dtypes

    from posenc_math import apply_rotary, rope, rope_cos_sin, rope_frequencies

    rng = np.random.default_rng(0)
    position_ids = np.tile(np.arange(SEQ), (BATCH, 1))
    inv_freq, _ = rope_frequencies(HEAD_DIM)
    rows: list[Row] = [
        ("shape (batch, heads, seq, head_dim); position_ids (batch, seq)", str((BATCH, HEADS, SEQ, HEAD_DIM)), "", None)
    ]
    for dtype in (np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)):
        x = rng.normal(size=(BATCH, HEADS, SEQ, HEAD_DIM)).astype(dtype)
        name = dtype.name

        def ours(x: np.ndarray = x) -> np.ndarray:
            return rope(x, position_ids)

        def plain(x: np.ndarray = x) -> np.ndarray:
            return plain_rotation(x, position_ids, inv_freq)

        def cached(x: np.ndarray = x) -> np.ndarray:
            cos, sin = rope_cos_sin(position_ids, inv_freq)
            return apply_rotary(x, cos, sin)

        t_ours, t_plain, t_cached = best_times([ours, plain, cached])
        ratio = t_ours / t_plain
        rows.append((f"{name}: plain rotate_half rotation (ms)", f"{t_plain * 1e3:.1f}", "", None))
        rows.append((f"{name}: rope (ms)", f"{t_ours * 1e3:.1f}", "", None))
        rows.append((f"{name}: rope time / plain time", f"{ratio:.2f}", f"<= {TIME_BAR}", ratio <= TIME_BAR))
        rows.append((f"{name}: rope_cos_sin + apply_rotary time / plain time", f"{t_cached / t_plain:.2f}", "", None))
        peak_ours = traced_peak(ours) / x.nbytes
        peak_plain = traced_peak(plain) / x.nbytes
        rows.append(
            (f"{name}: rope peak memory / input bytes", f"{peak_ours:.2f}", f"<= {MEMORY_BAR}", peak_ours <= MEMORY_BAR)
        )
        rows.append((f"{name}: plain rotation peak memory / input bytes", f"{peak_plain:.2f}", "", None))
        error = ulp_error(x, position_ids, ours())
        rows.append((f"{name}: rope error vs 40-digit mpmath (spacings)", f"{error:.4f}", "<= 0.5", error <= ULP_BAR))
    return rows


def main() -> int:
    """Print the rows; exit status 1 if a bar is missed."""
    failed = False
    for name, value, bar, ok in run():
        verdict = "" if ok is None else ("  PASS" if ok else "  FAIL")
        failed |= ok is False
        print(f"{name:<58} {value:>10} {bar:>8}{verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
