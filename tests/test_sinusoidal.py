"""posenc_math.encodings.sinusoidal: formulas, layouts, spacings, bad input."""

import math

import numpy as np
import pytest
from bench import seed_formula
from conftest import exact_sin_cos, peak_of

from posenc_math import frequencies, sinusoidal, timing_signal, wavelengths


@pytest.mark.parametrize("spacing", ["paper", "tensor2tensor"])
@pytest.mark.parametrize("layout", ["interleaved", "split"])
@pytest.mark.parametrize("n_positions,dim", [(1, 2), (7, 6), (300, 512), (5000, 64)])
def test_table_matches_mpmath(n_positions, dim, layout, spacing, rng):
    table = sinusoidal(n_positions, dim, layout=layout, spacing=spacing)
    assert table.shape == (n_positions, dim) and table.dtype == np.float64
    n_pairs = dim // 2
    for _ in range(60):
        position, pair = int(rng.integers(n_positions)), int(rng.integers(n_pairs))
        sin, cos = exact_sin_cos(position, pair, dim, spacing=spacing)
        sin_col, cos_col = (2 * pair, 2 * pair + 1) if layout == "interleaved" else (pair, n_pairs + pair)
        assert abs(table[position, sin_col] - sin) < 1e-14
        assert abs(table[position, cos_col] - cos) < 1e-14


def test_large_table_matches_mpmath_and_seed_formula(rng):
    table = sinusoidal(8192, 1024)
    assert np.abs(table - seed_formula(8192, 1024)).max() < 1e-11
    for _ in range(200):
        position, pair = int(rng.integers(8192)), int(rng.integers(512))
        sin, cos = exact_sin_cos(position, pair, 1024)
        assert abs(table[position, 2 * pair] - sin) < 1e-12
        assert abs(table[position, 2 * pair + 1] - cos) < 1e-12


def test_every_row_of_a_blocked_table_is_exact():
    # Sizes that are not multiples of the block size exercise the tail block.
    for n_positions in (2, 3, 17, 101, 1000, 1025):
        table = sinusoidal(n_positions, 10)
        positions = np.arange(n_positions)[:, None]
        angles = positions * frequencies(10)
        assert np.abs(table[:, 0::2] - np.sin(angles)).max() < 1e-13
        assert np.abs(table[:, 1::2] - np.cos(angles)).max() < 1e-13


def test_parallel_fill_equals_serial_fill(monkeypatch):
    from posenc_math.encodings import _phase

    parallel = sinusoidal(3000, 512)
    monkeypatch.setattr(_phase, "PARALLEL_MIN_ELEMENTS", 10**12)
    assert _phase.worker_count(3000 * 512, 100) == 1
    assert np.array_equal(parallel, sinusoidal(3000, 512))


def test_split_is_a_column_permutation_of_interleaved():
    interleaved = sinusoidal(40, 16)
    split = sinusoidal(40, 16, layout="split")
    permutation = np.r_[np.arange(0, 16, 2), np.arange(1, 16, 2)]
    # Equal up to the last bit: the two layouts round their products apart.
    assert np.abs(split - interleaved[:, permutation]).max() <= 2.3e-16


def test_tensor2tensor_spacing_is_paper_spacing_with_another_base():
    dim, base = 64, 10000.0
    changed_base = base ** (dim / (dim - 2))
    t2t = sinusoidal(100, dim, spacing="tensor2tensor", base=base)
    paper = sinusoidal(100, dim, spacing="paper", base=changed_base)
    assert np.abs(t2t - paper).max() < 1e-12


def test_start_shifts_the_positions():
    assert np.abs(sinusoidal(10, 8, start=5) - sinusoidal(15, 8)[5:]).max() < 1e-15
    negative = sinusoidal(3, 4, start=-1)
    assert np.allclose(negative[0], [-math.sin(1), math.cos(1), -math.sin(0.01), math.cos(0.01)])


def test_odd_dim_pads_a_zero_column_or_raises():
    padded = sinusoidal(20, 9, odd="pad")
    assert padded.shape == (20, 9)
    assert np.array_equal(padded[:, -1], np.zeros(20))
    assert np.array_equal(padded[:, :-1], sinusoidal(20, 8))
    with pytest.raises(ValueError, match=r"dim must be even.*odd='pad'"):
        sinusoidal(20, 9)


def test_frequencies_and_wavelengths():
    assert np.allclose(frequencies(8), [1, 0.1, 0.01, 0.001], rtol=1e-15)
    assert np.allclose(frequencies(8, spacing="tensor2tensor"), 10.0 ** (-4 * np.arange(4) / 3), rtol=1e-15)
    lengths = wavelengths(512)
    assert lengths[0] == pytest.approx(2 * math.pi)
    assert lengths[-1] == pytest.approx(2 * math.pi * 10000 ** (510 / 512), rel=1e-14)
    assert lengths[-1] < 0.97 * 2 * math.pi * 10000  # not 2 pi base, as often written
    assert wavelengths(512, spacing="tensor2tensor")[-1] == pytest.approx(2 * math.pi * 10000, rel=1e-14)
    assert frequencies(5).shape == (2,)


def reference_timing_signal(length, channels, min_timescale, max_timescale, start_index):
    """tensor2tensor's get_timing_signal_1d transcribed to numpy."""
    position = np.arange(length, dtype=np.float64) + start_index
    num_timescales = channels // 2
    increment = math.log(max_timescale / min_timescale) / max(num_timescales - 1, 1)
    inv_timescales = min_timescale * np.exp(np.arange(num_timescales) * -increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    signal = np.pad(signal, [[0, 0], [0, channels % 2]])
    return signal[None]


@pytest.mark.parametrize("args", [(10, 8, 1.0, 1.0e4, 0), (33, 7, 1.0, 1.0e4, 3), (50, 64, 2.0, 500.0, 10)])
def test_timing_signal_reproduces_tensor2tensor(args):
    ours = timing_signal(*args)
    assert ours.shape == (1, args[0], args[1])
    assert np.abs(ours - reference_timing_signal(*args)).max() < 1e-12


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: sinusoidal(0, 8), ValueError, "n_positions must be an integer >= 1"),
        (lambda: sinusoidal(-3, 8), ValueError, "n_positions"),
        (lambda: sinusoidal(10.0, 8), TypeError, "n_positions must be an integer"),
        (lambda: sinusoidal(True, 8), TypeError, "n_positions"),
        (lambda: sinusoidal(10, 0), ValueError, "dim must be an integer >= 2"),
        (lambda: sinusoidal(10, 8.5), TypeError, "dim must be an integer"),
        (lambda: sinusoidal(10, "8"), TypeError, "dim"),
        (lambda: sinusoidal(10, 8, base=1.0), ValueError, "base must be a finite number > 1"),
        (lambda: sinusoidal(10, 8, base=0.5), ValueError, "base"),
        (lambda: sinusoidal(10, 8, base=float("nan")), ValueError, "base must be finite"),
        (lambda: sinusoidal(10, 8, base=float("inf")), ValueError, "base must be finite"),
        (lambda: sinusoidal(10, 8, base="10000"), TypeError, "base must be a real number"),
        (lambda: sinusoidal(10, 8, layout="concat"), ValueError, "layout must be one of 'interleaved', 'split'"),
        (lambda: sinusoidal(10, 8, spacing="fairseq"), ValueError, "spacing must be one of 'paper', 'tensor2tensor'"),
        (lambda: sinusoidal(10, 8, odd="drop"), ValueError, "odd must be one of"),
        (lambda: sinusoidal(10, 8, start=1.5), TypeError, "start must be an integer"),
        (lambda: sinusoidal(10**9, 10**6), ValueError, r"n_positions=1000000000, dim=1000000.*GiB"),
        (lambda: frequencies(1), ValueError, "dim must be an integer >= 2"),
        (lambda: wavelengths(8, spacing="x"), ValueError, "spacing"),
        (lambda: timing_signal(0, 8), ValueError, "length"),
        (lambda: timing_signal(4, 8, min_timescale=0.0), ValueError, "min_timescale must be > 0"),
        (lambda: timing_signal(4, 8, 10.0, 5.0), ValueError, "max_timescale must be greater"),
    ],
)
def test_bad_input_is_refused_with_a_message_that_names_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- exact at any context length (issue 13, item 3) ---------------------------------


@pytest.mark.parametrize("centre", [10**5, 10**9, 2**31 - 64, -(10**9), -(2**31) + 1, 2**53 - 64])
@pytest.mark.parametrize("spacing", ["paper", "tensor2tensor"])
@pytest.mark.parametrize("dim,base", [(64, 10000.0), (256, 500000.0), (10, 10.0)])
def test_table_is_exact_at_large_positions(centre, spacing, dim, base, rng):
    # 1e-14 is promised for |p| <= 2**31 (the last centre checks it holds to 2**53).
    n_positions = 64
    for layout in ("interleaved", "split"):
        table = sinusoidal(n_positions, dim, start=centre, base=base, spacing=spacing, layout=layout)
        n_pairs = dim // 2
        for _ in range(12):
            row, pair = int(rng.integers(n_positions)), int(rng.integers(n_pairs))
            sin, cos = exact_sin_cos(centre + row, pair, dim, base=base, spacing=spacing)
            sin_col, cos_col = (2 * pair, 2 * pair + 1) if layout == "interleaved" else (pair, n_pairs + pair)
            assert abs(table[row, sin_col] - sin) < 1e-14
            assert abs(table[row, cos_col] - cos) < 1e-14


def test_wide_table_is_exact_in_every_column_chunk(rng):
    # 300,000 pairs span several column chunks and both frequency levels.
    table = sinusoidal(2, 600_000, start=123_456_789)
    for pair in rng.integers(0, 300_000, size=40):
        sin, cos = exact_sin_cos(123_456_790, int(pair), 600_000)
        assert abs(table[1, 2 * pair] - sin) < 1e-14 and abs(table[1, 2 * pair + 1] - cos) < 1e-14


def test_positions_beyond_2_53_are_refused():
    for call in (
        lambda: sinusoidal(10, 8, start=2**63),
        lambda: sinusoidal(10, 8, start=2**53 - 5),
        lambda: timing_signal(4, 8, start_index=-(2**60)),
    ):
        with pytest.raises(ValueError, match=r"2\*\*53"):
            call()


# --- number formats (issue 13, item 2) ---------------------------------------------


def rounded_reference(table, name):
    """The float64 table rounded once, by exact rational comparison (tests/test_phase.py)."""
    from test_phase import nearest

    if name in ("float32", "float16"):  # numpy's own conversions round once (IEEE)
        return table.astype(name)
    flat = np.array([nearest(float(v), "bfloat16") for v in table.ravel()])
    return flat.reshape(table.shape)


@pytest.mark.parametrize("name", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("layout", ["interleaved", "split"])
def test_dtype_is_the_float64_table_rounded_once(name, layout):
    reference = sinusoidal(40, 18, layout=layout, start=1000)
    table = sinusoidal(40, 18, layout=layout, start=1000, dtype=name)
    assert table.dtype.name == name and table.shape == (40, 18)
    assert np.array_equal(table.astype(np.float64), rounded_reference(reference, name).astype(np.float64))
    padded = sinusoidal(3, 7, odd="pad", dtype=name)
    assert np.array_equal(padded[:, -1].astype(np.float64), np.zeros(3))


def test_dtype_accepts_numpy_types_and_refuses_others():
    import ml_dtypes

    assert sinusoidal(4, 8, dtype=np.float32).dtype == np.float32
    assert sinusoidal(4, 8, dtype=ml_dtypes.bfloat16).dtype == np.dtype(ml_dtypes.bfloat16)
    assert timing_signal(3, 6, dtype="float16").dtype == np.float16
    with pytest.raises(ValueError, match="dtype must be one of"):
        sinusoidal(4, 8, dtype="int32")
    with pytest.raises(ValueError, match="dtype must be one of"):
        sinusoidal(4, 8, dtype=np.complex128)


def test_timing_signal_dtype_is_rounded_once():
    reference = timing_signal(30, 12, 2.0, 500.0, 7)
    assert np.array_equal(timing_signal(30, 12, 2.0, 500.0, 7, dtype="float16"), reference.astype(np.float16))


def test_bfloat16_without_ml_dtypes_names_the_extra(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ml_dtypes(name, *args, **kwargs):
        if name == "ml_dtypes":
            raise ImportError("No module named 'ml_dtypes'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ml_dtypes)
    with pytest.raises(ImportError, match=r"posenc-math\[precision\]"):
        sinusoidal(4, 8, dtype="bfloat16")


# --- memory (issue 13, item 4) -----------------------------------------------------


@pytest.mark.parametrize(
    "n_positions,dim,layout,dtype,bar",
    [
        (100_000, 32, "interleaved", "float64", 1.3),  # tall
        (100_000, 32, "split", "float64", 1.3),
        (20_000, 100, "interleaved", "float32", 1.3),
        (2_000, 2048, "split", "float64", 1.3),
        (1, 2_000_000, "interleaved", "float64", 2.0),  # wide
        (1, 2_000_000, "split", "float16", 2.0),
        (8, 500_000, "split", "float64", 2.0),
    ],
)
def test_peak_memory_is_close_to_the_output(n_positions, dim, layout, dtype, bar):
    # numpy reports its allocations to tracemalloc: the peak includes every intermediate.
    table, peak = peak_of(lambda: sinusoidal(n_positions, dim, layout=layout, dtype=dtype))
    assert peak / table.nbytes <= bar


def test_the_guard_counts_the_peak_before_any_work(monkeypatch):
    from posenc_math import _validate

    with pytest.raises(MemoryError, match=r"n_positions=1000000000000, dim=1000000000000.*8e\+24 bytes"):
        sinusoidal(10**12, 10**12)
    with pytest.raises(ValueError, match=r"dim=10000000000.*bytes"):
        sinusoidal(1, 10**10)
    # refused before anything is allocated: with 17 MiB "available", an 18 MB
    # table is refused at a negligible peak (below 16 MiB nothing is checked)
    monkeypatch.setattr(_validate, "_available_memory_bytes", lambda: 17 * 2**20)

    def refused():
        with pytest.raises(MemoryError, match="dim=2300000"):
            sinusoidal(1, 2_300_000)

    _, peak = peak_of(refused)
    assert peak < 100_000
