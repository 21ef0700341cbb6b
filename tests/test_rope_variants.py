"""posenc_math.encodings.rope_variants: M-RoPE, axial RoPE, xPos.

The reference functions are transcriptions, in numpy and float64, of
transformers' Qwen2-VL rotary code (``Qwen2VLRotaryEmbedding.forward`` with
``recomposition_frequencies``, ``apply_rotary_pos_emb``) and of
rotary-embedding-torch 0.9 (``get_axial_freqs``, ``apply_rotary_emb``,
``get_scale``, ``rotate_queries_and_keys``), written from reading that code.
"""

import mpmath
import numpy as np
import pytest

from posenc_math import (
    axial_positions,
    axial_rope,
    mrope,
    mrope_positions,
    pixel_frequencies,
    rope,
    rope_frequencies,
    xpos,
    xpos_scales,
)

# --- transcriptions -----------------------------------------------------------


def hf_rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate((-x[..., half:], x[..., :half]), axis=-1)


def qwen2vl_cos_sin(position_ids, inv_freq, mrope_section, attention_scaling=1.0):
    """position_ids (3, batch, n) -> cos, sin of shape (batch, n, dim)."""
    freqs = position_ids[..., None].astype(np.float64) * inv_freq  # (3, batch, n, dim/2)
    cos = np.cos(freqs) * attention_scaling
    sin = np.sin(freqs) * attention_scaling

    def recomposition(freq):
        bounds = np.cumsum([0, *mrope_section])
        chunks = [freq[i % 3][..., bounds[i] : bounds[i + 1]] for i in range(len(mrope_section))]
        freq = np.concatenate(chunks, axis=-1)
        return np.concatenate((freq, freq), axis=-1)

    return recomposition(cos), recomposition(sin)


def hf_apply(q, cos, sin):
    """apply_rotary_pos_emb with unsqueeze_dim=1: q (batch, heads, n, dim)."""
    cos, sin = cos[:, None], sin[:, None]
    return q * cos + hf_rotate_half(q) * sin


def ret_rotate_half(x):
    """rotary-embedding-torch's rotate_half: '... (d r) -> ... d r', then (-x2, x1)."""
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    return np.stack((-pairs[..., 1], pairs[..., 0]), axis=-1).reshape(x.shape)


def ret_forward(t, freqs):
    """RotaryEmbedding.forward: einsum('..., f -> ... f') then repeat '(n r)', r=2."""
    return np.repeat(np.asarray(t, dtype=np.float64)[..., None] * freqs, 2, axis=-1)


def ret_lang_freqs(dim, theta=10000.0):
    return 1.0 / theta ** (np.arange(0, dim, 2)[: dim // 2].astype(np.float64) / dim)


def ret_get_axial_freqs(freqs, dims, pixel):
    all_freqs = []
    for ind, size in enumerate(dims):
        pos = np.linspace(-1, 1, size) if pixel else np.arange(size)
        axis_freqs = ret_forward(pos, freqs)  # (size, dim)
        shape = [1] * len(dims) + [axis_freqs.shape[-1]]
        shape[ind] = size
        all_freqs.append(axis_freqs.reshape(shape))
    all_freqs = np.broadcast_arrays(*all_freqs)
    return np.concatenate(all_freqs, axis=-1)


def ret_apply_rotary_emb(freqs, t, scale=1.0):
    rot_dim = freqs.shape[-1]
    middle, right = t[..., :rot_dim], t[..., rot_dim:]
    transformed = (middle * np.cos(freqs) * scale) + (ret_rotate_half(middle) * np.sin(freqs) * scale)
    return np.concatenate((transformed, right), axis=-1)


def ret_xpos_queries_and_keys(q, k, dim, scale_base=512, theta=10000.0):
    seq_len = q.shape[-2]
    seq = np.arange(seq_len, dtype=np.float64)
    freqs = ret_forward(seq, ret_lang_freqs(dim, theta))
    zeta = (np.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim)
    power = (seq - len(seq) // 2) / scale_base
    scale = np.repeat(zeta ** power[:, None], 2, axis=-1)
    return ret_apply_rotary_emb(freqs, q, scale=scale), ret_apply_rotary_emb(freqs, k, scale=scale**-1)


# --- mrope ----------------------------------------------------------------------


def qwen2vl_positions(rng, batch, n):
    """A vision block (t, h, w grid) between text tokens, as get_rope_index lays them out."""
    text_before, grid, text_after = 5, (2, 3, 4), n - 5 - 24
    t, h, w = np.meshgrid(*(np.arange(size) for size in grid), indexing="ij")
    vision = np.stack([t.ravel(), h.ravel(), w.ravel()]) + text_before
    before = np.tile(np.arange(text_before), (3, 1))
    after = np.tile(np.arange(text_after) + vision.max() + 1, (3, 1))
    ids = np.concatenate([before, vision, after], axis=1)
    return np.broadcast_to(ids[:, None, :], (3, batch, n)).copy()


@pytest.mark.parametrize("dim,sections", [(128, (16, 24, 24)), (16, (2, 3, 3)), (16, (0, 4, 4))])
def test_mrope_matches_qwen2vl_transcription(dim, sections, rng):
    batch, heads, n = 2, 3, 40
    position_ids = qwen2vl_positions(rng, batch, n)
    inv_freq, _ = rope_frequencies(dim, base=1e6)
    q = rng.normal(size=(batch, heads, n, dim))
    cos, sin = qwen2vl_cos_sin(position_ids, inv_freq, sections, attention_scaling=1.2)
    reference = hf_apply(q, cos, sin)
    ours = mrope(q, position_ids[:, :, None, :], sections, base=1e6, attention_factor=1.2)
    assert np.allclose(ours, reference, rtol=0, atol=1e-12)


def test_mrope_text_tokens_are_ordinary_rope(rng):
    """Three equal ids: M-RoPE is RoPE at that position, bit for bit."""
    dim, n = 128, 64
    x = rng.normal(size=(2, n, dim))
    text = rng.integers(0, 2**20, size=n)
    for sections in [(16, 24, 24), (64, 0, 0), (10, 20, 34)]:
        assert np.array_equal(mrope(x, np.stack([text] * 3), sections), rope(x, text))
    inv_freq, _ = rope_frequencies(dim, scaling={"rope_type": "linear", "factor": 2.0})
    assert np.array_equal(
        mrope(x, [text, text, text], (16, 24, 24), inv_freq=inv_freq), rope(x, text, inv_freq=inv_freq)
    )
    # and not when the ids differ: the height id moves only the height section
    ids = np.stack([text, text + 1, text])
    moved = mrope(x, ids, (16, 24, 24)) != rope(x, text)
    assert moved[..., 16:40].any() and moved[..., 80:104].any()
    assert not moved[..., :16].any() and not moved[..., 40:80].any() and not moved[..., 104:].any()


def test_mrope_pair_matches_mpmath():
    """One pair of the width section, against 40-digit values."""
    dim, sections, pair = 16, (2, 3, 3), 6  # pair 6 is in the width section
    x = np.zeros((1, dim))
    x[0, pair], x[0, pair + dim // 2] = 0.6, -0.8
    ids = np.array([[3], [70000], [12345678]])
    out = mrope(x, ids, sections)
    with mpmath.workdps(40):
        angle = 12345678 * mpmath.power(10000, -mpmath.mpf(2 * pair) / dim)
        a = float(0.6 * mpmath.cos(angle) + 0.8 * mpmath.sin(angle))
        b = float(0.6 * mpmath.sin(angle) - 0.8 * mpmath.cos(angle))
    assert out[0, pair] == pytest.approx(a, abs=2e-15)
    assert out[0, pair + dim // 2] == pytest.approx(b, abs=2e-15)


def test_mrope_keeps_bfloat16(rng):
    import ml_dtypes

    x = rng.normal(size=(4, 16)).astype(ml_dtypes.bfloat16)
    ids = rng.integers(0, 100, size=(3, 4))
    out = mrope(x, ids, (2, 3, 3))
    assert out.dtype == x.dtype
    assert np.array_equal(out, mrope(x.astype(np.float64), ids, (2, 3, 3)).astype(ml_dtypes.bfloat16))


def qwen2vl_get_rope_index(segments):
    """Qwen2VLModel.get_rope_index for one sequence (spatial merge already applied, time_interval 1)."""
    current_pos, pieces = 0, []
    for segment in segments:
        if isinstance(segment, int):
            pieces.append(np.tile(np.arange(segment), (3, 1)) + current_pos)
            current_pos += segment
        else:
            grid_t, grid_h, grid_w = segment
            position_temporal = np.arange(grid_t)
            position_height = np.arange(grid_h) + current_pos
            position_width = np.arange(grid_w) + current_pos
            t, h, w = np.meshgrid(position_temporal, position_height, position_width, indexing="ij")
            ids = np.stack([t, h, w]).reshape(3, -1)
            ids[0] += current_pos
            pieces.append(ids)
            current_pos += max(grid_h, grid_w)
    return np.concatenate(pieces, axis=1)


@pytest.mark.parametrize(
    "segments",
    [[5, (1, 4, 6), 3], [(2, 3, 3)], [1, (1, 1, 1), (3, 2, 5), 7], [4], [(4, 2, 2), 2]],
)
def test_mrope_positions_match_get_rope_index(segments):
    assert np.array_equal(mrope_positions(segments), qwen2vl_get_rope_index(segments))


# --- axial ----------------------------------------------------------------------


@pytest.mark.parametrize("pixel", [False, True])
@pytest.mark.parametrize("extra", [0, 6])
def test_axial_rope_matches_rotary_embedding_torch(pixel, extra, rng):
    axis_dim, height, width = 8, 5, 7
    freqs = pixel_frequencies(axis_dim, max_freq=64.0) if pixel else ret_lang_freqs(axis_dim)
    table = ret_get_axial_freqs(freqs, (height, width), pixel)  # (height, width, 2 * axis_dim)
    x = rng.normal(size=(2, height, width, 2 * axis_dim + extra))
    reference = ret_apply_rotary_emb(table, x)
    flat = x.reshape(2, height * width, -1)
    grid = axial_positions((height, width), normalized=pixel)
    ours = axial_rope(flat, grid, inv_freq=freqs) if (pixel or extra) else axial_rope(flat, grid)
    assert np.allclose(ours.reshape(x.shape), reference, rtol=0, atol=1e-13)


def test_axial_scores_depend_on_offsets_along_each_axis(rng):
    q, k = rng.normal(size=(2, 1, 16))
    grid = axial_positions((50, 60))

    def score(a, b):
        return float(axial_rope(q, grid[:, [a]])[0] @ axial_rope(k, grid[:, [b]])[0])

    # cells (1, 2) -> (4, 7) and (20, 30) -> (23, 35): the same offset (3, 5)
    assert score(1 * 60 + 2, 4 * 60 + 7) == pytest.approx(score(20 * 60 + 30, 23 * 60 + 35), abs=1e-12)
    # (3, 5) and (5, 3) differ: the axes are not interchangeable
    assert score(0, 3 * 60 + 5) != pytest.approx(score(0, 5 * 60 + 3), abs=1e-6)


def test_axial_positions_and_pixel_frequencies():
    grid = axial_positions((2, 3, 4))
    assert grid.shape == (3, 24)
    assert grid[:, 5].tolist() == [0, 1, 1]  # row-major: the last axis varies fastest
    assert np.array_equal(axial_positions((4,), normalized=True)[0], np.linspace(-1, 1, 4))
    assert np.allclose(pixel_frequencies(6, max_freq=10.0), np.pi * np.array([1.0, 3.0, 5.0]))


# --- xPos -----------------------------------------------------------------------


def test_xpos_matches_rotary_embedding_torch(rng):
    dim, n = 16, 33
    q = rng.normal(size=(2, n, dim))
    k = rng.normal(size=(2, n, dim))
    ref_q, ref_k = ret_xpos_queries_and_keys(q, k, dim)
    positions = np.arange(n)
    ours_q = xpos(q, positions, center=n // 2)
    ours_k = xpos(k, positions, key=True, center=n // 2)
    assert np.allclose(ours_q, ref_q, rtol=0, atol=1e-13)
    assert np.allclose(ours_k, ref_k, rtol=0, atol=1e-13)


def test_xpos_scores_decay_with_offset_only(rng):
    q, k = rng.normal(size=(2, 1, 32))

    def score(m, n, center=0.0):
        return float(xpos(q, [m], center=center)[0] @ xpos(k, [n], key=True, center=center)[0])

    assert score(10, 3) == pytest.approx(score(1010, 1003), rel=1e-11)
    assert score(10, 3) == pytest.approx(score(10, 3, center=500.0), rel=1e-11)  # the center cancels
    # per pair, the score carries zeta_j ** ((m - n) / scale_base) times the RoPE score
    zeta_power = xpos_scales(32, [7])[0]  # zeta ** (7 / 512)
    q_rope, k_rope = rope(q, [10], layout="interleaved")[0], rope(k, [3], layout="interleaved")[0]
    assert score(10, 3) == pytest.approx(float((q_rope * k_rope * np.repeat(zeta_power, 2)).sum()), rel=1e-12)
    scales = xpos_scales(32, np.array([0, 512, 1024]))
    assert np.allclose(scales[2], scales[1] ** 2, rtol=1e-15)
    assert (np.diff(scales, axis=0) < 0).all()  # every pair shrinks as the position grows


def test_xpos_without_scale_is_rope(rng):
    x = rng.normal(size=(5, 8))
    # at the center every scale is 1: plain RoPE, interleaved
    assert np.allclose(xpos(x, [7] * 5, center=7), rope(x, [7] * 5, layout="interleaved"), rtol=0, atol=1e-15)


# --- bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: mrope(np.ones((2, 16)), np.zeros((3, 2)), (2, 3, 2)), ValueError, "sections must sum to dim // 2 = 8"),
        (lambda: mrope(np.ones((2, 16)), np.zeros((3, 2)), (4, 4)), TypeError, "sections"),
        (lambda: mrope(np.ones((2, 16)), np.zeros((3, 2)), (4, 4, -0.5)), TypeError, r"sections\[2\]"),
        (lambda: mrope(np.ones((2, 16)), np.zeros((3, 2)), (10, -1, -1)), ValueError, r"sections\[1\]"),
        (
            lambda: mrope(np.ones((2, 16)), np.zeros((2, 2)), (2, 3, 3)),
            ValueError,
            r"positions must have shape \(3, n\)",
        ),
        (lambda: mrope(np.ones((2, 16)), np.zeros(2), (2, 3, 3)), ValueError, "positions must have shape"),
        (lambda: mrope(np.ones((2, 16)), np.zeros((3, 5)), (2, 3, 3)), ValueError, "positions"),
        (lambda: mrope(np.ones((2, 15)), np.zeros((3, 2)), (2, 3, 3)), ValueError, "dim"),
        (lambda: mrope(np.ones((2, 16)) * 1j, np.zeros((3, 2)), (2, 3, 3)), TypeError, "x must be real"),
        (
            lambda: mrope(np.ones((2, 16)), np.zeros((3, 2)), (2, 3, 3), inv_freq=rope_frequencies(16)),
            TypeError,
            "rope_frequencies",
        ),
        (lambda: axial_rope(np.ones((6, 12)), axial_positions((2, 3)), base=1.0), ValueError, "base"),
        (lambda: axial_rope(np.ones((6, 10)), axial_positions((2, 3))), ValueError, "blocks"),
        (lambda: axial_rope(np.ones((6, 8)), axial_positions((2, 3)), inv_freq=np.ones(3)), ValueError, "inv_freq"),
        (lambda: axial_rope(np.ones((6, 8)), np.arange(6)), ValueError, r"positions must have shape \(n_axes, n\)"),
        (lambda: axial_rope(np.ones((6, 8)), axial_positions((2, 2))), ValueError, "positions"),
        (lambda: axial_positions(5), TypeError, "shape"),
        (lambda: axial_positions((2, 0)), ValueError, r"shape\[1\]"),
        (lambda: axial_positions(()), ValueError, "shape"),
        (lambda: axial_positions((2, 2), normalized="yes"), TypeError, "normalized"),
        (lambda: pixel_frequencies(7), ValueError, "dim"),
        (lambda: pixel_frequencies(8, max_freq=0), ValueError, "max_freq"),
        (lambda: xpos(np.ones((2, 8)), [0, 1], scale_base=0), ValueError, "scale_base"),
        (lambda: xpos(np.ones((2, 8)), [0, 1], key="yes"), TypeError, "key"),
        (lambda: xpos(np.ones((2, 8)), [0, 1], center=float("inf")), ValueError, "center"),
        (lambda: xpos(np.ones((2, 8)), [0, 1, 2]), ValueError, "positions"),
        (lambda: xpos_scales(5, [0]), ValueError, "dim"),
        (lambda: mrope_positions(5), TypeError, "segments"),
        (lambda: mrope_positions([]), ValueError, "segments"),
        (lambda: mrope_positions([3, (1, 2)]), TypeError, r"segments\[1\]"),
        (lambda: mrope_positions([0]), ValueError, r"segments\[0\]"),
        (lambda: mrope_positions([(1, 0, 2)]), ValueError, r"segments\[0\]\[1\]"),
        (lambda: mrope_positions(["ab"]), TypeError, r"segments\[0\]"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_mrope_with_batch_position_ids_turns_every_head_of_its_sequence(rng):
    """(3, batch, n) as Qwen2-VL passes them, for x of shape (batch, heads, n, dim)."""
    x = rng.normal(size=(2, 3, 10, 16))
    ids = rng.integers(0, 40, size=(3, 2, 10))
    out = mrope(x, ids, [2, 3, 3])
    for b in range(2):
        for h in range(3):
            np.testing.assert_array_equal(out[b, h], mrope(x[b, h], ids[:, b], [2, 3, 3]))
    np.testing.assert_array_equal(out, mrope(x, ids[:, :, None, :], [2, 3, 3]))
    with pytest.raises(ValueError, match=r"\(3, batch, n\)"):
        mrope(x, ids[:2], [2, 3, 3])


@pytest.mark.parametrize("side", ["left", "right"])
def test_mrope_positions_of_a_padded_batch(side):
    sequences = [[2, (1, 2, 3), 2], [4], [(2, 2, 2)]]
    lengths = [10, 4, 8]
    width = 12
    mask = np.zeros((3, width), dtype=int)
    for row, length in enumerate(lengths):
        if side == "left":
            mask[row, width - length :] = 1
        else:
            mask[row, :length] = 1
    positions = mrope_positions(sequences, attention_mask=mask)
    assert positions.shape == (3, 3, width) and positions.dtype == np.int64
    for row, sequence in enumerate(sequences):
        np.testing.assert_array_equal(positions[:, row, mask[row] == 1], mrope_positions(sequence))
        assert np.all(positions[:, row, mask[row] == 0] == 0)  # padding: 0, as transformers 5.x
    np.testing.assert_array_equal(mrope_positions(sequences, attention_mask=mask.astype(bool)), positions)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: mrope_positions([[3]], attention_mask=[[1, 1]]), ValueError, r"segments\[0\] has 3 tokens.*2 ones"),
        (lambda: mrope_positions([[2], [2]], attention_mask=[[1, 1]]), ValueError, "one sequence of segments per row"),
        (lambda: mrope_positions([[2]], attention_mask=[[1, 2]]), ValueError, "attention_mask must hold only 0"),
        (lambda: mrope_positions([[2]], attention_mask=[1, 1]), ValueError, r"\(batch, length\)"),
        (
            lambda: mrope_positions([[2]], attention_mask=[[1, 1], [1]]),
            ValueError,
            "attention_mask must be a rectangular",
        ),
        (lambda: mrope_positions([[True]], attention_mask=[[1]]), TypeError, r"segments\[0\]\[0\]"),
        (lambda: mrope_positions([10**12]), ValueError, r"segments with 1000000000000 tokens.*more than"),
        (lambda: mrope_positions([(1, 10**6, 10**6)]), ValueError, "more than"),
    ],
)
def test_mrope_positions_batch_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()
