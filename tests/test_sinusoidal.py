"""posenc_math.encodings.sinusoidal: formulas, layouts, spacings, bad input."""

import math

import numpy as np
import pytest
from conftest import exact_sin_cos

from posenc_math import frequencies, sinusoidal, timing_signal, wavelengths
from posenc_math.bench import seed_formula


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
    with pytest.raises(ValueError, match="dim must be even.*odd='pad'"):
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
