"""posenc_math.encodings._rotation: the chunked engine behind rope, apply_rotary and the variants.

What is checked here is behaviour, never timing (``tools/bench_rope.py``
measures speed): the result does not depend on how the rows are chunked or
whether a cos/sin table is used; it is the float64 formula rounded once;
the memory estimate bounds what tracemalloc sees; the guard refuses before
anything is allocated.
"""

import functools
import importlib

import ml_dtypes
import numpy as np
import pytest

from posenc_math import _validate, apply_rotary, axial_rope, mrope, rope, rope_cos_sin, rope_frequencies, xpos
from posenc_math.encodings import _rotation
from posenc_math.encodings._phase import reduced_angles, store_rounded
from posenc_math.encodings.rope_scaling import _angle_frequencies

rope_module = importlib.import_module("posenc_math.encodings.rope")

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


def reference_rope(x, positions_full, *, layout="half", rotary_dim=None, scale=1.0):
    """The float64 formula in one go (no chunks, no table), rounded once: what rope must equal bit for bit."""
    x = np.asarray(x)
    dim = x.shape[-1]
    width = dim if rotary_dim is None else rotary_dim
    m = width // 2
    angles = reduced_angles(np.broadcast_to(positions_full, x.shape[:-1]), _angle_frequencies(width, 10000.0))
    cos, sin = np.cos(angles), np.sin(angles)
    if scale != 1.0:
        cos, sin = cos * scale, sin * scale
    values = x.astype(np.float64)
    out = values.copy()
    if layout == "half":
        a, b = values[..., :m], values[..., m:width]
        out[..., :m], out[..., m:width] = a * cos - b * sin, a * sin + b * cos
    else:
        a, b = values[..., 0:width:2], values[..., 1:width:2]
        out[..., 0:width:2], out[..., 1:width:2] = a * cos - b * sin, a * sin + b * cos
    if x.dtype.kind != "f" and x.dtype != BFLOAT16:
        return out
    rounded = np.empty(out.shape, dtype=x.dtype)
    store_rounded(rounded, out)
    return rounded


CASES = [
    # (x shape, positions shape, what the positions mean, broadcast to x.shape[:-1])
    ((2, 3, 40, 16), (40,), lambda p: p[None, None, :]),
    ((2, 3, 40, 16), (2, 40), lambda p: p[:, None, :]),  # transformers' (batch, n)
    ((2, 3, 40, 16), (2, 3, 40), lambda p: p),
    ((2, 3, 40, 16), (1, 3, 40), lambda p: p),
    ((3, 40, 16), (3, 40), lambda p: p),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, BFLOAT16, np.int32], ids=str)
@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_rope_is_the_formula_rounded_once_however_it_is_chunked(dtype, layout, case, rng, monkeypatch):
    x_shape, positions_shape, meaning = CASES[case]
    x = (rng.normal(size=x_shape) * (5 if dtype == np.int32 else 1)).astype(dtype)
    positions = rng.integers(-(2**31), 2**31, size=positions_shape)
    positions[..., :3] = positions[..., 3:6]  # repeated positions: the distinct ones are computed once
    expected = reference_rope(x, meaning(positions), layout=layout, rotary_dim=12, scale=1.25)
    results = []
    for chunk_pairs, fraction in [(2**14, 0.5), (7, 0.5), (6, 0.0), (1, 1e9)]:  # rows per chunk 1..; table or not
        monkeypatch.setattr(_rotation, "CHUNK_PAIRS", chunk_pairs)
        monkeypatch.setattr(_rotation, "TABLE_FRACTION", fraction)
        results.append(rope(x, positions, layout=layout, rotary_dim=12, attention_factor=1.25))
    for out in results:
        assert out.dtype == (np.float64 if dtype == np.int32 else np.dtype(dtype))
        assert out.shape == x.shape and out.flags.c_contiguous
        np.testing.assert_array_equal(out, expected)


def test_rope_of_a_non_contiguous_view_equals_rope_of_its_copy(rng):
    x = rng.normal(size=(4, 20, 3, 8)).astype(np.float32).transpose(0, 2, 1, 3)  # (batch, heads, n, dim) view
    assert not x.flags.c_contiguous
    np.testing.assert_array_equal(rope(x, [[*range(20)]] * 4), rope(x.copy(), [[*range(20)]] * 4))


@pytest.mark.parametrize("dtype", [np.float32, BFLOAT16], ids=str)
def test_variants_and_apply_rotary_are_chunking_independent(dtype, rng, monkeypatch):
    x = rng.normal(size=(2, 3, 30, 12)).astype(dtype)
    ids = rng.integers(0, 1000, size=(3, 2, 30))
    inv_freq, _ = rope_frequencies(12)
    cos, sin = rope_cos_sin(ids[0], inv_freq)

    def calls():
        return [
            mrope(x, ids, [2, 2, 2]),
            axial_rope(x, ids[:2], layout="half"),
            xpos(x, ids[0], key=True),
            apply_rotary(x, cos, sin),
            rope_cos_sin(ids[0], inv_freq, dtype=dtype)[1],
        ]

    default = calls()
    monkeypatch.setattr(_rotation, "CHUNK_PAIRS", 5)
    monkeypatch.setattr(_rotation, "TABLE_FRACTION", 0.0)
    for chunked, whole in zip(calls(), default, strict=True):
        np.testing.assert_array_equal(chunked, whole)


def traced(function):
    import tracemalloc

    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = function()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


MEMORY_CASES = [
    # (x shape, dtype, positions shape): shared over heads, all distinct, a non-contiguous x
    ((2, 8, 1024, 128), np.float32, (2, 1024)),
    ((2, 8, 1024, 128), BFLOAT16, (2, 1024)),
    ((2, 8, 1024, 128), BFLOAT16, (2, 8, 1024)),
    ((16, 1024, 64), np.float32, (16, 1024)),
    ((4, 2, 2048, 64), np.float16, (2048,)),
]


@pytest.mark.parametrize("x_shape, dtype, positions_shape", MEMORY_CASES)
def test_rope_peak_memory_is_estimated_from_above_and_stays_within_3x_the_input(x_shape, dtype, positions_shape, rng):
    x = rng.normal(size=x_shape).astype(dtype)
    positions = rng.permutation(np.arange(int(np.prod(positions_shape)))).reshape(positions_shape)
    _, peak = traced(lambda: rope(x, positions))
    rows = rope_module.position_rows(positions, x.shape[:-1])
    estimate = rope_module._rope_peak(x, x.dtype, x.shape[-1] // 2, rows)
    assert peak <= estimate, (peak, estimate)  # the guard counts at least what is allocated
    assert estimate <= 1.6 * peak + 2**21, (peak, estimate)  # ... and not wildly more
    assert peak <= 3 * x.nbytes, peak / x.nbytes


def test_non_contiguous_input_is_copied_once_and_counted(rng):
    x = rng.normal(size=(8, 1024, 2, 128)).astype(np.float32).transpose(0, 2, 1, 3)
    _, peak = traced(lambda: rope(x, np.arange(1024)))
    estimate = rope_module._rope_peak(x, x.dtype, 64, rope_module.position_rows(np.arange(1024), x.shape[:-1]))
    assert x.nbytes * 2 <= estimate and peak <= estimate


@pytest.mark.parametrize(
    "call",
    [
        lambda x: rope(x, np.arange(x.shape[-2])),
        lambda x: rope(x, np.arange(2 * x.shape[-2]).reshape(2, -1)),
        lambda x: apply_rotary(x, *caches(x.shape[-2])),
        lambda x: mrope(x, np.zeros((3, x.shape[-2]), dtype=int), [32, 16, 16]),
        lambda x: xpos(x, np.arange(x.shape[-2])),
    ],
    ids=["rope", "rope-batch-ids", "apply_rotary", "mrope", "xpos"],
)
def test_the_guard_refuses_before_allocating(call, monkeypatch):
    x = np.zeros((2, 8, 2048, 128), dtype=np.float32)  # 16.8 MB: above the size the guard skips
    caches(x.shape[-2])  # made before, not counted
    monkeypatch.setattr(_validate, "_available_memory_bytes", lambda: 2**20)
    with pytest.raises(_validate.MemoryLimitError, match=r"x of shape \(2, 8, 2048, 128\)"):
        call(x)
    _, peak = traced(lambda: _refused(call, x))
    assert peak < 2**19  # nothing of the input's size was allocated before the refusal


@functools.cache
def caches(n_positions):
    return rope_cos_sin(np.arange(n_positions), rope_frequencies(128)[0])


def _refused(call, x):
    try:
        call(x)
    except MemoryError:
        return None
    raise AssertionError("not refused")


def test_the_estimate_of_a_huge_request_is_refused_by_name():
    x = np.broadcast_to(np.float32(1.0), (2**20, 64, 4096, 128))  # 2**45 elements, no memory behind them
    with pytest.raises(ValueError, match=r"rope of x of shape \(1048576, 64, 4096, 128\).*more than"):
        rope(x, np.arange(4096))


FREQS = rope_frequencies(128)[0]


def caches_of(x):
    return rope_cos_sin(np.tile(np.arange(x.shape[-2]), (x.shape[0], 1)), FREQS)


ESTIMATED = [
    # (name, inputs made beforehand from x, the call)
    ("rope", lambda x: (np.arange(x.shape[-2]),), lambda x, p: rope(x, p)),
    ("apply_rotary", caches_of, lambda x, caches: apply_rotary(x, *caches)),
    (
        "apply_rotary per head",
        lambda x: [np.broadcast_to(c[:, None], x.shape) for c in caches_of(x)],
        lambda x, caches: apply_rotary(x, *caches),
    ),
    (
        "rope_cos_sin",
        lambda x: (np.arange(x.shape[0] * x.shape[-2]).reshape(x.shape[0], -1),),
        lambda x, p: rope_cos_sin(p, FREQS),
    ),
    (
        "rope_cos_sin bfloat16",
        lambda x: (np.arange(4 * x.shape[-2]),),
        lambda x, p: rope_cos_sin(p, FREQS, dtype="bfloat16"),
    ),
    (
        "mrope",
        lambda x: (np.tile(np.arange(x.shape[-2]), (3, x.shape[0], 1)),),
        lambda x, p: mrope(x, p, [32, 16, 16]),
    ),
    ("axial_rope", lambda x: (np.tile(np.arange(x.shape[-2]), (2, 1)),), lambda x, p: axial_rope(x, p)),
    ("xpos", lambda x: (np.arange(x.shape[-2]),), lambda x, p: xpos(x, p)),
]


@pytest.mark.parametrize("dtype", [np.float32, BFLOAT16], ids=["float32", "bfloat16"])
@pytest.mark.parametrize("name, prepare, call", ESTIMATED, ids=[entry[0] for entry in ESTIMATED])
def test_the_guard_counts_at_least_what_is_allocated(name, prepare, call, dtype, rng, monkeypatch):
    """The peak each function checks against the memory available bounds what tracemalloc sees."""
    x = rng.normal(size=(2, 4, 1024, 128)).astype(dtype)
    inputs = prepare(x)
    variants = importlib.import_module("posenc_math.encodings.rope_variants")
    estimates = []
    for module in (rope_module, variants):
        monkeypatch.setattr(module, "check_memory", lambda n_bytes, what: estimates.append(n_bytes))
    single = inputs[0] if len(inputs) == 1 else inputs
    _, peak = traced(lambda: call(x, single))
    assert len(estimates) == 1 and peak <= estimates[0], (peak, estimates)
