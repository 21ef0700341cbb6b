"""posenc_math.encodings.rope: rotations, layouts, frequency rules, bad input."""

import math

import mpmath
import numpy as np
import pytest

from posenc_math import (
    apply_rotary,
    extension_frequencies,
    interleaved_to_half,
    ntk_aware_base,
    rope,
    rope_cos_sin,
    rope_decay_bound,
    rope_frequencies,
    rope_relative_scores,
    rope_scores,
    yarn_ramp,
)
from posenc_math.encodings._phase import store_rounded

LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}


def exact_rope_pair(a, b, position, pair, dim, base=10000):
    with mpmath.workdps(40):
        angle = mpmath.mpf(position) * mpmath.power(base, -mpmath.mpf(2 * pair) / dim)
        c, s = mpmath.cos(angle), mpmath.sin(angle)
        return float(a * c - b * s), float(a * s + b * c)


def half_to_interleaved(dim):
    """Index i of the interleaved vector holds coordinate perm[i] of the half one."""
    m = dim // 2
    return np.ravel(np.column_stack([np.arange(m), np.arange(m, dim)]))


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_rope_matches_mpmath(layout, rng):
    dim, n = 16, 40
    x = rng.normal(size=(n, dim))
    positions = rng.integers(0, 10**6, size=n)
    out = rope(x, positions, layout=layout)
    for row in range(n):
        for j in range(dim // 2):
            first, second = (j, j + dim // 2) if layout == "half" else (2 * j, 2 * j + 1)
            a, b = exact_rope_pair(x[row, first], x[row, second], int(positions[row]), j, dim)
            # (a float64 product p * w is off by about 5e-11 here)
            assert abs(out[row, first] - a) < 1e-13 and abs(out[row, second] - b) < 1e-13


def test_rope_keeps_norms_and_position_zero(rng):
    x = rng.normal(size=(3, 7, 10))
    assert np.array_equal(rope(x, np.zeros(7, dtype=int)), x)
    assert np.allclose(np.linalg.norm(rope(x, np.arange(7)), axis=-1), np.linalg.norm(x, axis=-1))


def test_layouts_are_a_permutation_of_each_other(rng):
    dim = 12
    perm = half_to_interleaved(dim)
    x = rng.normal(size=(5, dim))
    positions = np.arange(5) * 7
    half = rope(x, positions, layout="half")
    interleaved = rope(x[:, perm], positions, layout="interleaved")
    assert np.allclose(interleaved, half[:, perm], rtol=0, atol=1e-14)
    assert not np.allclose(rope(x, positions, layout="interleaved"), half)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_scores_depend_only_on_offset(layout, rng):
    q, k = rng.normal(size=(2, 1, 32))

    def score(m, n):
        return float(rope(q, [m], layout=layout)[0] @ rope(k, [n], layout=layout)[0])

    for m, n in [(0, 5), (100, 105), (12345, 12350)]:
        assert score(m, n) == pytest.approx(score(0, 5), abs=1e-12)
    assert score(0, 6) != pytest.approx(score(0, 5), abs=1e-6)


def test_leading_axes_and_broadcast_positions(rng):
    x = rng.normal(size=(2, 3, 4, 8))  # batch, heads, n, dim
    positions = np.array([[0, 1, 2, 3], [10, 11, 12, 13]])[:, None, :]
    out = rope(x, positions)
    assert out.shape == x.shape
    assert np.allclose(out[1, 2], rope(x[1, 2], [10, 11, 12, 13]))
    assert np.allclose(rope(x, np.arange(4)), rope(x, np.arange(4)[None, None, :]))


def test_float32_in_float32_out_and_fractional_positions(rng):
    x = rng.normal(size=(4, 8)).astype(np.float32)
    out = rope(x, np.arange(4))
    assert out.dtype == np.float32
    assert rope(np.ones((2, 4), dtype=int), [0, 1]).dtype == np.float64
    inv_freq, _ = rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4})
    positions = np.arange(4)
    assert np.allclose(rope(x, positions, inv_freq=inv_freq), rope(x, positions / 4), atol=1e-6)


def test_inv_freq_overrides_base(rng):
    x = rng.normal(size=(3, 6))
    inv_freq, _ = rope_frequencies(6, base=500000.0)
    assert np.array_equal(rope(x, [1, 2, 3], inv_freq=inv_freq), rope(x, [1, 2, 3], base=500000.0))


# --- rope_frequencies --------------------------------------------------------


def test_default_and_linear():
    inv_freq, attention = rope_frequencies(128, base=500000.0)
    assert attention == 1.0
    assert np.allclose(inv_freq, 500000.0 ** (-np.arange(0, 128, 2) / 128), rtol=1e-15)
    linear, _ = rope_frequencies(128, base=500000.0, scaling={"rope_type": "linear", "factor": 8})
    assert np.allclose(linear, inv_freq / 8, rtol=1e-15)
    legacy, _ = rope_frequencies(128, base=500000.0, scaling={"type": "linear", "factor": 8})
    assert np.array_equal(legacy, linear)


def test_dynamic_ntk():
    scaling = {"rope_type": "dynamic", "factor": 2.0}
    default, _ = rope_frequencies(128)
    short, _ = rope_frequencies(128, scaling=scaling, seq_len=100, max_position_embeddings=4096)
    assert np.array_equal(short, default)
    # twice the trained length with factor 2: NTK scale s = 2 * 2 - (2 - 1) = 3
    doubled, _ = rope_frequencies(128, scaling=scaling, seq_len=8192, max_position_embeddings=4096)
    ntk_base = 10000.0 * 3.0 ** (128 / 126)
    assert np.allclose(doubled, ntk_base ** (-np.arange(0, 128, 2) / 128), rtol=1e-14)
    assert doubled[0] == 1.0 and doubled[-1] == pytest.approx(default[-1] / 3, rel=1e-14)
    # transformers 5.23 (float32) at seq_len 10000: pairs 0, 10, 20, 25, 30, 63
    longer, _ = rope_frequencies(128, scaling=scaling, seq_len=10000, max_position_embeddings=4096)
    reference = [
        1.0,
        0.19119858741760254,
        0.0365569032728672,
        0.015984967350959778,
        0.006989628542214632,
        2.9740866011707112e-05,
    ]
    assert np.allclose(longer[[0, 10, 20, 25, 30, 63]], reference, rtol=1e-6)


def test_yarn_matches_transformers_values():
    qwen = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    inv_freq, attention = rope_frequencies(128, scaling=qwen)
    assert attention == pytest.approx(0.1 * math.log(4) + 1, rel=1e-15)
    assert np.allclose(
        inv_freq[[0, 10, 20, 25, 30, 63]],
        [
            1.0,
            0.23713736236095428,
            0.05623412877321243,
            0.0273841954767704,
            0.01333521492779255,
            2.8869548259535804e-05,
        ],
        rtol=1e-6,
    )
    untruncated, _ = rope_frequencies(128, base=1e6, scaling=dict(qwen, truncate=False))
    assert np.allclose(
        untruncated[[0, 10, 20, 25, 30, 63]],
        [
            1.0,
            0.11547820270061493,
            0.01333521492779255,
            0.004234358202666044,
            0.0010792376706376672,
            3.102344408034696e-07,
        ],
        rtol=1e-6,
    )
    deepseek = {
        "rope_type": "yarn",
        "factor": 40.0,
        "original_max_position_embeddings": 4096,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "beta_fast": 32,
        "beta_slow": 1,
    }
    inv_freq, attention = rope_frequencies(64, scaling=deepseek)
    assert attention == 1.0
    assert np.allclose(
        inv_freq[[0, 10, 20, 25, 30, 31]],
        [
            1.0,
            0.05623412877321243,
            0.0007905694073997438,
            1.8747354260995053e-05,
            4.445698323252145e-06,
            3.3338035336782923e-06,
        ],
        rtol=1e-6,
    )


def test_yarn_ramp_ends_and_defaults():
    scaling = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}
    default, _ = rope_frequencies(128)
    inv_freq, _ = rope_frequencies(128, scaling=scaling)
    ratio = default / inv_freq
    assert ratio[0] == 1.0 and ratio[-1] == pytest.approx(8.0)
    assert np.all(np.diff(ratio) >= -1e-12)  # more interpolation for slower pairs
    # zero or missing betas fall back to 32 and 1, as transformers' `or` does
    zeros, _ = rope_frequencies(128, scaling=dict(scaling, beta_fast=0, beta_slow=0))
    assert np.array_equal(zeros, inv_freq)
    explicit, _ = rope_frequencies(128, scaling=dict(scaling, beta_fast=32, beta_slow=1))
    assert np.array_equal(explicit, inv_freq)
    other, _ = rope_frequencies(128, scaling=dict(scaling, beta_fast=8))
    assert not np.array_equal(other, inv_freq)
    # fallbacks: original from max_position_embeddings, factor from the ratio
    fallback, _ = rope_frequencies(128, scaling={"rope_type": "yarn"}, max_position_embeddings=4096)
    assert np.array_equal(
        fallback,
        rope_frequencies(128, scaling={"rope_type": "yarn", "factor": 1.0, "original_max_position_embeddings": 4096})[
            0
        ],
    )
    assert rope_frequencies(128, scaling=dict(scaling, mscale=0.707, mscale_all_dim=1.0))[1] == pytest.approx(
        (0.1 * 0.707 * math.log(8) + 1) / (0.1 * math.log(8) + 1)
    )
    assert rope_frequencies(128, scaling=dict(scaling, attention_factor=0.5))[1] == 0.5


@pytest.mark.parametrize("dim, base, original", [(128, 500000.0, 8192), (64, 10000.0, 4096), (96, 1e6, 2048)])
def test_yarn_ramp_code_form_is_what_rope_frequencies_applies(dim, base, original):
    factor = 8.0
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": original}
    default, _ = rope_frequencies(dim, base=base)
    yarn, _ = rope_frequencies(dim, base=base, scaling=scaling)
    implied = (1 - yarn / default) / (1 - 1 / factor)
    np.testing.assert_allclose(
        yarn_ramp(dim, base=base, original_max_position_embeddings=original), implied, atol=1e-12
    )


def test_yarn_ramp_paper_form_is_linear_in_the_turns():
    dim, base, original = 128, 500000.0, 8192
    paper = yarn_ramp(dim, base=base, original_max_position_embeddings=original, form="paper")
    turns = original * base ** (-2 * np.arange(dim // 2) / dim) / (2 * np.pi)
    kept, divided = turns >= 32, turns <= 1
    assert np.all(paper[kept] == 0) and np.all(paper[divided] == 1)
    between = ~kept & ~divided
    np.testing.assert_allclose(paper[between], 1 - (turns[between] - 1) / 31, rtol=1e-12)
    # linear in the turns, so not linear in the pair index: the two forms differ inside the ramp
    code = yarn_ramp(dim, base=base, original_max_position_embeddings=original)
    assert np.abs(code - paper)[between].max() > 0.1


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"form": "transformers"}, "form"),
        ({"beta_fast": 1.0, "beta_slow": 32.0}, "beta_slow < beta_fast"),
        ({"beta_slow": 0.0}, "beta_slow"),
        ({"original_max_position_embeddings": 0}, "original_max_position_embeddings"),
    ],
)
def test_yarn_ramp_refuses_bad_input(arguments, message):
    with pytest.raises(ValueError, match=message):
        yarn_ramp(64, **({"original_max_position_embeddings": 4096} | arguments))


def test_llama3_regions():
    inv_freq, attention = rope_frequencies(128, base=500000.0, scaling=LLAMA3)
    default, _ = rope_frequencies(128, base=500000.0)
    wavelength = 2 * np.pi / default
    high = wavelength < 8192 / 4
    low = wavelength > 8192
    assert attention == 1.0
    assert np.array_equal(inv_freq[high], default[high])
    assert np.allclose(inv_freq[low], default[low] / 8, rtol=1e-15)
    medium = ~high & ~low
    assert medium.sum() == 6
    ratio = default[medium] / inv_freq[medium]
    assert np.all((ratio > 1) & (ratio < 8)) and np.all(np.diff(ratio) > 0)
    assert np.allclose(
        inv_freq[[0, 10, 20, 25, 30, 63]],
        [
            1.0,
            0.12868738174438477,
            0.016560440883040428,
            0.005940730683505535,
            0.0013718936825171113,
            3.068925877869333e-07,
        ],
        rtol=1e-6,
    )
    fallback, _ = rope_frequencies(
        128,
        base=500000.0,
        scaling={k: v for k, v in LLAMA3.items() if k != "original_max_position_embeddings"},
        max_position_embeddings=8192,
    )
    assert np.array_equal(fallback, inv_freq)


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: rope(np.ones((3, 5)), np.arange(3)), ValueError, "even"),
        (lambda: rope(np.ones(4), [0]), ValueError, "at least 2 axes"),
        (lambda: rope(np.ones((3, 4)), np.arange(4)), ValueError, "broadcast"),
        (lambda: rope(np.ones((3, 4)), 2), ValueError, "positions"),
        (lambda: rope(np.ones((3, 4)), [0, np.nan, 2]), ValueError, "finite"),
        (lambda: rope(np.ones((3, 4)), ["a", "b", "c"]), TypeError, "positions"),
        (lambda: rope(np.ones((3, 4), dtype=complex), np.arange(3)), TypeError, "real"),
        (lambda: rope(np.ones((3, 4)), np.arange(3), layout="neox"), ValueError, "'half', 'interleaved'"),
        (lambda: rope(np.ones((3, 4)), np.arange(3), inv_freq=[1.0]), ValueError, r"\(2,\)"),
        (lambda: rope(np.ones((3, 4)), np.arange(3), base=1.0), ValueError, "base"),
        (lambda: rope_frequencies(7), ValueError, "even"),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "ntk"}),
            ValueError,
            "'default', 'linear', 'dynamic', 'yarn', 'llama3'",
        ),
        (lambda: rope_frequencies(8, scaling={"rope_type": "linear"}), ValueError, r"\['factor'\]"),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "llama3", "factor": 8}),
            ValueError,
            r"\['low_freq_factor', 'high_freq_factor'\]",
        ),
        (
            lambda: rope_frequencies(8, scaling=dict(LLAMA3, original_max_position_embeddings=None)),
            ValueError,
            "original_max_position_embeddings",
        ),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "yarn", "factor": 4}),
            ValueError,
            "original_max_position_embeddings",
        ),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4, "beta_fast": 3}),
            ValueError,
            "beta_fast",
        ),
        (lambda: rope_frequencies(8, scaling={"rope_type": "linear", "factor": 0.5}), ValueError, ">= 1"),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "dynamic", "factor": 2}),
            ValueError,
            "max_position_embeddings",
        ),
        (
            lambda: rope_frequencies(2, scaling={"rope_type": "dynamic", "factor": 2}, max_position_embeddings=8),
            ValueError,
            "dim > 2",
        ),
        (lambda: rope_frequencies(8, seq_len=0), ValueError, "seq_len"),
        (lambda: rope_frequencies(8, base=10.0, scaling={"rope_theta": 20.0}), ValueError, "rope_theta"),
        (
            lambda: rope_frequencies(8, scaling={"rope_type": "linear", "type": "yarn", "factor": 2}),
            ValueError,
            "legacy",
        ),
        (lambda: rope_frequencies(8, scaling=[("rope_type", "linear")]), TypeError, "scaling"),
        (lambda: rope_frequencies(8, scaling=dict(LLAMA3, low_freq_factor=5.0)), ValueError, "low_freq_factor"),
        (
            lambda: rope_frequencies(
                8, scaling={"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 64, "truncate": "no"}
            ),
            TypeError,
            "truncate",
        ),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- NTK base, extension rules, scores and RoFormer's bound ------------------


def test_ntk_aware_base_divides_the_slowest_frequency_only():
    dim, scale = 128, 8.0
    new_base = ntk_aware_base(10000.0, scale, dim)
    old, _ = rope_frequencies(dim)
    new, _ = rope_frequencies(dim, base=new_base)
    assert new[0] == old[0] == 1.0
    assert new[-1] == pytest.approx(old[-1] / scale, rel=1e-13)
    assert np.all(new[1:] < old[1:])
    dynamic, _ = rope_frequencies(
        dim, scaling={"rope_type": "dynamic", "factor": 1.0}, seq_len=8 * 4096, max_position_embeddings=4096
    )
    assert np.allclose(dynamic, new, rtol=1e-14)


def test_extension_frequencies_rules():
    rules = extension_frequencies(128, base=500000.0, factor=8.0, original_max_position_embeddings=8192)
    default = rules["default"]
    assert np.allclose(rules["linear"], default / 8, rtol=1e-15)
    assert rules["ntk"][-1] == pytest.approx(default[-1] / 8, rel=1e-13)
    assert np.array_equal(rules["llama3"], rope_frequencies(128, base=500000.0, scaling=LLAMA3)[0])
    assert rules["yarn"][0] == 1.0 and rules["yarn"][-1] == pytest.approx(default[-1] / 8)


def test_relative_scores_equal_rotated_dot_products(rng):
    q, k = rng.normal(size=(2, 16))
    offsets = np.array([-40, -3, 0, 1, 7, 500])
    scores = rope_relative_scores(q, k, offsets)
    for offset, score in zip(offsets, scores, strict=True):
        for m in (0, 1000):
            rotated = rope(q[None], [m])[0] @ rope(k[None], [m + offset])[0]
            assert rotated == pytest.approx(score, abs=1e-11)


def test_roformer_bound_holds_and_scores_are_not_monotone(rng):
    q, k = rng.normal(size=(2, 128))
    offsets = np.arange(0, 2001)
    scores = np.abs(rope_relative_scores(q, k, offsets))
    bound = rope_decay_bound(q, k, offsets)
    assert np.all(scores <= bound * (1 + 1e-12))
    assert bound[0] > bound[200] > bound[2000] * 0.5  # decays on the whole
    assert 0.3 < np.mean(np.diff(scores) > 0) < 0.7  # |score| rises about as often as it falls
    assert scores[1000:].max() > scores[1:10].max()  # far offsets can outscore near ones


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: ntk_aware_base(10000.0, 0.5, 128), ValueError, "scale"),
        (lambda: ntk_aware_base(10000.0, 2.0, 2), ValueError, "dim"),
        (lambda: rope_relative_scores(np.ones(4), np.ones(6), [0]), ValueError, "same shape"),
        (lambda: rope_relative_scores(np.ones(5), np.ones(5), [0]), ValueError, "even"),
        (lambda: rope_relative_scores(np.ones(4), np.ones(4), [0.5]), TypeError, "offsets"),
        (lambda: rope_decay_bound(np.ones(4), np.ones(4), [0], inv_freq=[1.0]), ValueError, "inv_freq"),
        (lambda: extension_frequencies(128, factor=0.5), ValueError, "factor"),
    ],
)
def test_more_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_interleaved_to_half_permutation(rng):
    dim = 10
    perm = interleaved_to_half(dim)
    assert np.array_equal(np.sort(perm), np.arange(dim))
    assert np.array_equal(np.argsort(perm), half_to_interleaved(dim))
    x = rng.normal(size=(2, 6, dim))
    positions = np.arange(6) * 13
    assert np.allclose(
        rope(x[..., perm], positions, layout="half"),
        rope(x, positions, layout="interleaved")[..., perm],
        rtol=0,
        atol=1e-14,
    )
    q, k = rng.normal(size=(2, 6, dim))
    scores_half = rope(q[:, perm], positions, layout="half") @ rope(k[:, perm], positions, layout="half").T
    scores_interleaved = rope(q, positions, layout="interleaved") @ rope(k, positions, layout="interleaved").T
    assert np.allclose(scores_half, scores_interleaved, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="even"):
        interleaved_to_half(7)


# --- Variants models ship: longrope, proportional, partial rotary ------------
# The hf_* functions are transcriptions of transformers 5.x's
# modeling_rope_utils (and of the models' apply_rotary_pos_emb), written from
# reading that source, in float64 so the comparison can be tight.


def hf_default(dim, base):
    return 1.0 / base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim)


def hf_longrope(head_dim, base, parameters, max_position_embeddings, seq_len):
    dim = int(head_dim * parameters.get("partial_rotary_factor", 1.0))
    factor = parameters.get("factor")
    attention_factor = parameters.get("attention_factor")
    original = parameters["original_max_position_embeddings"]
    if factor is None:
        factor = max_position_embeddings / original
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    if seq_len and seq_len > original:
        ext_factors = np.array(parameters["long_factor"], dtype=np.float64)
    else:
        ext_factors = np.array(parameters["short_factor"], dtype=np.float64)
    shape = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    return 1.0 / (ext_factors * base**shape), attention_factor


def hf_proportional(head_dim, base, parameters):
    factor = parameters.get("factor", 1.0)
    proportion = parameters.get("partial_rotary_factor", 1.0)
    rope_angles = int(proportion * head_dim // 2)
    rotated = 1.0 / base ** (np.arange(0, 2 * rope_angles, 2, dtype=np.int64).astype(np.float64) / head_dim)
    nope_angles = head_dim // 2 - rope_angles
    inv_freq = np.concatenate([rotated, np.zeros(nope_angles)]) if nope_angles > 0 else rotated
    return inv_freq / factor, 1.0


def hf_rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return np.concatenate((-x2, x1), axis=-1)


def hf_apply_rotary_pos_emb(q, cos, sin):
    """transformers' apply_rotary_pos_emb (Phi-3, GPT-NeoX style partial rotary)."""
    rotary_dim = cos.shape[-1]
    q_rot, q_pass = q[..., :rotary_dim], q[..., rotary_dim:]
    return np.concatenate([(q_rot * cos) + (hf_rotate_half(q_rot) * sin), q_pass], axis=-1)


def hf_cos_sin(positions, inv_freq, attention_scaling):
    """LlamaRotaryEmbedding.forward: emb = cat(freqs, freqs); cos, sin times the scaling."""
    freqs = np.asarray(positions, dtype=np.float64)[..., None] * inv_freq
    emb = np.concatenate((freqs, freqs), axis=-1)
    return np.cos(emb) * attention_scaling, np.sin(emb) * attention_scaling


PHI3_LIKE = {
    "rope_type": "longrope",
    "short_factor": [1.0, 1.1, 1.3, 1.7, 2.5, 4.0, 7.0, 9.5],
    "long_factor": [1.0, 1.5, 2.5, 4.5, 8.0, 15.0, 30.0, 48.0],
    "original_max_position_embeddings": 4096,
}


@pytest.mark.parametrize(
    "parameters,max_position_embeddings,seq_len",
    [
        (PHI3_LIKE, 131072, None),  # at load time: short factors
        (PHI3_LIKE, 131072, 4096),  # exactly the original length: still short
        (PHI3_LIKE, 131072, 4097),  # one past it: long
        (dict(PHI3_LIKE, factor=8.0), 131072, 9000),  # an explicit factor wins over the ratio
        (dict(PHI3_LIKE, attention_factor=1.25), 131072, 9000),
        (dict(PHI3_LIKE, factor=1.0), 4096, 10),  # factor <= 1: attention factor 1
    ],
)
def test_longrope_matches_transcription(parameters, max_position_embeddings, seq_len):
    reference, reference_attention = hf_longrope(16, 10000.0, parameters, max_position_embeddings, seq_len)
    ours, attention = rope_frequencies(
        16, scaling=dict(parameters), seq_len=seq_len, max_position_embeddings=max_position_embeddings
    )
    assert np.allclose(ours, reference, rtol=1e-15, atol=0)
    assert attention == pytest.approx(reference_attention, rel=1e-15)


def test_longrope_chooses_long_factors_past_the_original_length():
    short, attention = rope_frequencies(16, scaling=PHI3_LIKE, seq_len=4096, max_position_embeddings=131072)
    long, _ = rope_frequencies(16, scaling=PHI3_LIKE, seq_len=4097, max_position_embeddings=131072)
    default, _ = rope_frequencies(16)
    assert np.allclose(short * PHI3_LIKE["short_factor"], default, rtol=1e-15)
    assert np.allclose(long * PHI3_LIKE["long_factor"], default, rtol=1e-15)
    # Phi-3-mini-128k: 131072 / 4096 = 32, sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12)
    assert attention == pytest.approx(math.sqrt(17 / 12), rel=1e-15)


def test_longrope_with_partial_rotary_factor():
    parameters = dict(PHI3_LIKE, partial_rotary_factor=0.5)
    reference, reference_attention = hf_longrope(32, 10000.0, parameters, 131072, 5000)
    ours, attention = rope_frequencies(32, scaling=parameters, seq_len=5000, max_position_embeddings=131072)
    assert ours.shape == (8,)
    assert np.allclose(ours, reference, rtol=1e-15, atol=0)
    assert attention == pytest.approx(reference_attention, rel=1e-15)


@pytest.mark.parametrize(
    "head_dim,parameters",
    [
        (256, {"rope_type": "proportional", "partial_rotary_factor": 0.25}),  # Gemma 4 full attention
        (256, {"rope_type": "proportional", "partial_rotary_factor": 0.25, "factor": 8.0}),
        (64, {"rope_type": "proportional"}),  # no factor: every pair turns
        (64, {"rope_type": "proportional", "partial_rotary_factor": 0.0}),  # nothing turns
        (80, {"rope_type": "proportional", "partial_rotary_factor": 0.3}),  # int(0.3 * 80 // 2) = 12
    ],
)
def test_proportional_matches_transcription(head_dim, parameters):
    reference, _ = hf_proportional(head_dim, 1e6, parameters)
    ours, attention = rope_frequencies(head_dim, base=1e6, scaling=dict(parameters))
    assert ours.shape == (head_dim // 2,)
    assert np.allclose(ours, reference, rtol=1e-15, atol=0)
    assert attention == 1.0


def test_proportional_keeps_the_whole_head_exponent():
    # the rotated pairs turn as in a head of 256, not as in a head of 64
    ours, _ = rope_frequencies(256, base=1e6, scaling={"rope_type": "proportional", "partial_rotary_factor": 0.25})
    whole, _ = rope_frequencies(256, base=1e6)
    assert np.array_equal(ours[:32], whole[:32])
    assert not ours[32:].any()
    # zero frequencies: those pairs do not turn at any position
    x = np.random.default_rng(0).normal(size=(3, 256))
    turned = rope(x, [0, 1000, 77777], inv_freq=ours)
    assert np.array_equal(turned[:, 32:128], x[:, 32:128])
    assert np.array_equal(turned[:, 160:], x[:, 160:])


@pytest.mark.parametrize(
    "scaling",
    [
        {"rope_type": "default"},
        {"rope_type": "linear", "factor": 4.0},
        {"rope_type": "dynamic", "factor": 2.0},
        {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 512},
        dict(LLAMA3, original_max_position_embeddings=512),
    ],
)
@pytest.mark.parametrize("head_dim,fraction", [(64, 0.5), (80, 0.4), (128, 0.25), (96, 1.0)])
def test_partial_rotary_factor_runs_the_rule_on_the_rotated_width(scaling, head_dim, fraction):
    rotated = int(head_dim * fraction)
    ours, attention = rope_frequencies(
        head_dim, scaling=dict(scaling, partial_rotary_factor=fraction), seq_len=3000, max_position_embeddings=1024
    )
    direct, direct_attention = rope_frequencies(rotated, scaling=scaling, seq_len=3000, max_position_embeddings=1024)
    assert ours.shape == (rotated // 2,)
    assert np.array_equal(ours, direct)
    assert attention == direct_attention
    if scaling["rope_type"] == "default":
        assert np.allclose(ours, hf_default(rotated, 10000.0), rtol=1e-15, atol=0)


# --- rope: partial rotation, attention factor, number formats, caches --------


@pytest.mark.parametrize(
    "rotary_dim,scaling",
    [(2, None), (8, None), (32, None), (16, dict(PHI3_LIKE, partial_rotary_factor=0.5))],
)
def test_rope_partial_rotary_matches_apply_rotary_pos_emb(rotary_dim, scaling, rng):
    head_dim, n = 32, 40
    x = rng.normal(size=(2, 3, n, head_dim))
    positions = rng.integers(0, 5000, size=(2, 1, n))
    if scaling is None:
        inv_freq, attention = rope_frequencies(rotary_dim)
    else:  # Phi-3 style: longrope on half of the head, with its attention factor
        inv_freq, attention = rope_frequencies(head_dim, scaling=scaling, max_position_embeddings=131072)
        assert attention > 1
    cos, sin = hf_cos_sin(positions, inv_freq, attention)
    reference = hf_apply_rotary_pos_emb(x, cos, sin)
    ours = rope(x, positions, inv_freq=inv_freq, rotary_dim=rotary_dim, attention_factor=attention)
    assert np.allclose(ours, reference, rtol=0, atol=1e-11)
    assert np.array_equal(ours[..., rotary_dim:], x[..., rotary_dim:])


def test_rope_attention_factor_scales_every_rotated_feature(rng):
    x = rng.normal(size=(5, 16))
    plain = rope(x, np.arange(5), rotary_dim=8)
    scaled = rope(x, np.arange(5), rotary_dim=8, attention_factor=1.5)
    assert np.allclose(scaled[:, :8], 1.5 * plain[:, :8], rtol=1e-15)
    assert np.array_equal(scaled[:, 8:], x[:, 8:])  # the pass-through part is not scaled


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_rope_cos_sin_are_the_caches_rope_uses(layout, rng):
    inv_freq, attention = rope_frequencies(
        16, scaling={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 256}
    )
    positions = rng.integers(0, 10**6, size=(2, 30))
    cos, sin = rope_cos_sin(positions, inv_freq, attention_factor=attention, layout=layout)
    assert cos.shape == sin.shape == (2, 30, 16)
    if layout == "half":
        reference_cos, reference_sin = hf_cos_sin(positions % 100, inv_freq, attention)  # shape only
        assert reference_cos.shape == cos.shape
        small = rng.integers(0, 100, size=(2, 30))
        reference_cos, reference_sin = hf_cos_sin(small, inv_freq, attention)
        small_cos, small_sin = rope_cos_sin(small, inv_freq, attention_factor=attention)
        assert np.allclose(small_cos, reference_cos, rtol=0, atol=1e-13)
        assert np.allclose(small_sin, reference_sin, rtol=0, atol=1e-13)
        rotate = hf_rotate_half
    else:
        assert np.array_equal(cos[..., 0::2], cos[..., 1::2])

        def rotate(x):  # rotary-embedding-torch's rotate_half: pairs (2j, 2j + 1)
            return np.stack((-x[..., 1::2], x[..., 0::2]), axis=-1).reshape(x.shape)

    x = rng.normal(size=(2, 30, 16))
    expected = rope(x, positions, inv_freq=inv_freq, layout=layout, attention_factor=attention)
    assert np.allclose(x * cos + rotate(x) * sin, expected, rtol=0, atol=1e-13)


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16", "float32"])
def test_rope_keeps_low_precision_dtypes_rounding_once(dtype_name, rng):
    import ml_dtypes

    dtype = np.dtype(getattr(ml_dtypes, dtype_name)) if dtype_name == "bfloat16" else np.dtype(dtype_name)
    x = rng.normal(size=(2, 50, 16)).astype(dtype)
    positions = np.arange(50) * 97
    out = rope(x, positions, rotary_dim=12, attention_factor=1.1)
    assert out.dtype == dtype
    exact = rope(x.astype(np.float64), positions, rotary_dim=12, attention_factor=1.1)
    once = np.empty(exact.shape, dtype=dtype)
    store_rounded(once, exact)  # the float64 result rounded once (bfloat16: not through a float32 tie)
    assert np.array_equal(out, once)
    if dtype_name == "float32":
        return  # there transformers' float32 angles (off by ~p * 6e-8) dominate
    # transformers' path: float32 cos/sin rounded to the dtype, arithmetic in the dtype
    inv_freq, _ = rope_frequencies(12)
    cos, sin = hf_cos_sin(positions, inv_freq.astype(np.float32), 1.1)
    hf = hf_apply_rotary_pos_emb(x, cos.astype(np.float32).astype(dtype), sin.astype(np.float32).astype(dtype))
    spacing = float(ml_dtypes.finfo(dtype).eps)
    assert np.max(np.abs(hf.astype(np.float64) - exact) / np.maximum(np.abs(exact), 1)) < 8 * spacing


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: rope(np.ones((2, 8)), [0, 1], rotary_dim=3), ValueError, "rotary_dim must be even"),
        (lambda: rope(np.ones((2, 8)), [0, 1], rotary_dim=10), ValueError, r"rotary_dim must be <= dim"),
        (lambda: rope(np.ones((2, 8)), [0, 1], rotary_dim=0), ValueError, "rotary_dim"),
        (lambda: rope(np.ones((2, 8)), [0, 1], rotary_dim=4.0), TypeError, "rotary_dim"),
        (lambda: rope(np.ones((2, 7)), [0, 1]), ValueError, "rotary_dim"),
        (lambda: rope(np.ones((2, 8)), [0, 1], attention_factor=-1), ValueError, "attention_factor"),
        (lambda: rope(np.ones((2, 8)), [0, 1], attention_factor=float("nan")), ValueError, "attention_factor"),
        (lambda: rope(np.ones((2, 8)), [0, 1], inv_freq=rope_frequencies(8)), TypeError, "tuple.*rope_frequencies"),
        (lambda: rope(np.ones((2, 8)), [0, 1], inv_freq=np.ones(3)), ValueError, r"inv_freq must have shape \(4,\)"),
        (lambda: rope(np.ones((2, 8)), [0, 1], inv_freq=np.ones(4) * 1j), TypeError, "inv_freq must be real"),
        (lambda: rope(np.ones((2, 8), dtype=complex), [0, 1]), TypeError, "x must be real.*imaginary"),
        (lambda: rope(np.ones((2, 8)), [0, 1j]), TypeError, "positions must be real"),
        (lambda: rope(np.ones((2, 8)), [[0, 1, 2]]), ValueError, "positions of shape"),
        (lambda: rope_cos_sin([0, 1], rope_frequencies(8)), TypeError, "tuple.*rope_frequencies"),
        (lambda: rope_cos_sin([0, 1], None), TypeError, "inv_freq"),
        (lambda: rope_cos_sin([0, 1], np.ones((2, 2))), ValueError, "inv_freq must be a 1-D"),
        (lambda: rope_cos_sin(3, np.ones(2)), ValueError, "positions"),
        (lambda: rope_cos_sin([0, 1], np.ones(2), layout="split"), ValueError, "layout"),
        (lambda: rope_cos_sin([0, 1], np.ones(2), attention_factor="2"), TypeError, "attention_factor"),
        # rope_frequencies: the new keys
        (lambda: rope_frequencies(16, scaling=dict(PHI3_LIKE, short_factor=[1.0] * 7)), ValueError, "short_factor"),
        (lambda: rope_frequencies(16, scaling=dict(PHI3_LIKE, long_factor="big")), TypeError, "long_factor"),
        (lambda: rope_frequencies(16, scaling=dict(PHI3_LIKE, long_factor=[0.0] * 8)), ValueError, "long_factor"),
        (
            lambda: rope_frequencies(16, scaling={k: v for k, v in PHI3_LIKE.items() if k != "long_factor"}),
            ValueError,
            "long_factor",
        ),
        (lambda: rope_frequencies(16, scaling=PHI3_LIKE), ValueError, "'factor' or 'attention_factor'"),
        (
            lambda: rope_frequencies(16, scaling=dict(PHI3_LIKE, original_max_position_embeddings=1, factor=2.0)),
            ValueError,
            "original_max_position_embeddings",
        ),
        (
            lambda: rope_frequencies(16, scaling={"rope_type": "default", "partial_rotary_factor": 1.5}),
            ValueError,
            "partial_rotary_factor",
        ),
        (
            lambda: rope_frequencies(16, scaling={"rope_type": "default", "partial_rotary_factor": 0.0}),
            ValueError,
            "partial_rotary_factor",
        ),
        (
            lambda: rope_frequencies(20, scaling={"rope_type": "default", "partial_rotary_factor": 0.25}),
            ValueError,
            r"int\(20 \* 0.25\) = 5 .*even",
        ),
        (
            lambda: rope_frequencies(16, scaling={"rope_type": "default", "partial_rotary_factor": "half"}),
            TypeError,
            "partial_rotary_factor",
        ),
        (
            lambda: rope_frequencies(16, scaling={"rope_type": "proportional", "factor": 0.5}),
            ValueError,
            "factor",
        ),
        (lambda: rope_frequencies(16, scaling={"rope_type": "proportional", "beta_fast": 2}), ValueError, "beta_fast"),
        # yarn: a shrinking factor and negative betas are refused like the other rules
        (
            lambda: rope_frequencies(
                8, scaling={"rope_type": "yarn", "factor": 0.5, "original_max_position_embeddings": 64}
            ),
            ValueError,
            ">= 1",
        ),
        (
            lambda: rope_frequencies(
                8, scaling={"rope_type": "yarn", "original_max_position_embeddings": 64}, max_position_embeddings=32
            ),
            ValueError,
            ">= 1",
        ),
        (
            lambda: rope_frequencies(
                8, scaling={"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 64, "beta_fast": -1}
            ),
            ValueError,
            "beta_fast",
        ),
        (
            lambda: rope_frequencies(
                8, scaling={"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 64, "beta_slow": -1}
            ),
            ValueError,
            "beta_slow",
        ),
        (
            lambda: rope_frequencies(
                8,
                scaling={
                    "rope_type": "yarn",
                    "factor": 4,
                    "original_max_position_embeddings": 64,
                    "beta_fast": 2,
                    "beta_slow": 4,
                },
            ),
            ValueError,
            "beta_fast >= beta_slow",
        ),
    ],
)
def test_variant_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("position", [10**5 + 3, 10**9 + 7, 2**31 - 7, -(2**31) + 5])
def test_rope_angles_exact_at_large_positions(position):
    """RoPE's default frequencies form p * w exactly: within 1e-14 of 40-digit values up to |p| = 2**31."""
    dim = 16
    x = np.tile([1.0, 0.0], dim // 2)[None, :]
    out = rope(x, [position], layout="interleaved")[0]
    with mpmath.workdps(40):
        for j in range(dim // 2):
            angle = position * mpmath.mpf(10000) ** (-mpmath.mpf(2 * j) / dim)
            assert abs(out[2 * j] - float(mpmath.cos(angle))) < 1e-14
            assert abs(out[2 * j + 1] - float(mpmath.sin(angle))) < 1e-14


@pytest.mark.parametrize("rope_type", ["yarn", "longrope"])
def test_missing_original_length_is_named_and_falls_back_on_max_position_embeddings(rope_type):
    scaling = {"rope_type": rope_type, "factor": 4.0}
    if rope_type == "longrope":
        scaling |= {"short_factor": [1.0] * 32, "long_factor": [1.0] * 32}
    with pytest.raises(
        ValueError, match=f"rope_type '{rope_type}' needs scaling key 'original_max_position_embeddings'"
    ):
        rope_frequencies(64, scaling=scaling)
    fallback = rope_frequencies(64, scaling=scaling, max_position_embeddings=2048)
    explicit = rope_frequencies(64, scaling={**scaling, "original_max_position_embeddings": 2048})
    for got, expected in zip(fallback, explicit, strict=True):  # frequencies and attention factor
        np.testing.assert_array_equal(got, expected)


# --- position ids as models pass them ------------------------------------------


def test_batch_position_ids_turn_every_head_of_their_sequence(rng):
    """transformers' position_ids (batch, n) with x (batch, heads, n, dim): sequence b's ids, all its heads."""
    for batch, heads in [(2, 4), (4, 4), (3, 1)]:  # batch == heads once: that shape used to turn heads
        x = rng.normal(size=(batch, heads, 6, 8))
        ids = rng.integers(0, 5000, size=(batch, 6))
        out = rope(x, ids)
        for b in range(batch):
            for h in range(heads):
                np.testing.assert_array_equal(out[b, h], rope(x[b, h], ids[b]))
        np.testing.assert_array_equal(out, rope(x, ids[:, None, :]))  # the explicit (batch, 1, n) form


def test_batch_position_ids_as_hf_apply_rotary_pos_emb_with_unsqueeze_dim_1(rng):
    x = rng.normal(size=(2, 3, 5, 8))
    ids = np.array([[0, 1, 2, 3, 4], [7, 8, 9, 10, 11]])
    inv_freq, attention = rope_frequencies(8)
    cos, sin = hf_cos_sin(ids, inv_freq, attention)  # (batch, n, dim), as LlamaRotaryEmbedding returns them
    expected = hf_apply_rotary_pos_emb(x, cos[:, None], sin[:, None])  # unsqueeze_dim=1
    assert np.allclose(rope(x, ids), expected, rtol=0, atol=1e-13)


@pytest.mark.parametrize(
    "x_shape, positions_shape, words",
    [
        ((2, 3, 5, 8), (3, 5), r"\(batch, n\) = \(2, 5\) as transformers' position_ids"),  # heads' ids: refused
        ((2, 3, 4, 5, 8), (2, 5), r"\(2, 1, 1, 5\)"),  # 5-D x: only (n,) or one axis per axis
        ((2, 3, 5, 8), (2, 3, 1, 5), "do not fit"),
        ((2, 3, 5, 8), (6,), r"\(n,\) = \(5,\)"),
        ((5, 8), (2, 5), "x.shape"),
    ],
)
def test_position_shapes_that_do_not_fit_are_refused_saying_how_to_pass_them(x_shape, positions_shape, words):
    with pytest.raises(ValueError, match=words) as error:
        rope(np.ones(x_shape), np.zeros(positions_shape, dtype=int))
    assert "never broadcast against the heads axis" in str(error.value)


def test_broadcast_positions_are_computed_once(rng):
    x = rng.normal(size=(2, 3, 5, 8))
    ids = rng.integers(0, 100, size=(2, 5))
    full = np.broadcast_to(ids[:, None, :], (2, 3, 5))  # what a user may pass instead of (batch, 1, n)
    np.testing.assert_array_equal(rope(x, full), rope(x, ids))


@pytest.mark.parametrize("dtype_name", ["float32", "bfloat16"])
def test_rope_on_a_model_shape_is_mpmath_rounded_once(dtype_name, rng):
    import ml_dtypes

    dtype = np.dtype(getattr(ml_dtypes, dtype_name)) if dtype_name == "bfloat16" else np.dtype(dtype_name)
    x = rng.normal(size=(2, 3, 7, 8)).astype(dtype)
    ids = rng.integers(0, 2**31, size=(2, 7))
    out = rope(x, ids)
    for b, h, n, j in [(0, 0, 0, 0), (1, 2, 6, 3), (1, 0, 3, 1), (0, 2, 5, 2)]:
        a, c = exact_rope_pair(float(x[b, h, n, j]), float(x[b, h, n, j + 4]), int(ids[b, n]), j, 8)
        for column, exact in ((j, a), (j + 4, c)):
            once = np.empty((), dtype=dtype)
            store_rounded(once, np.array(exact))
            assert out[b, h, n, column] == once


# --- apply_rotary and the caches ---------------------------------------------------


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("dtype_name", ["float64", "float32", "bfloat16"])
def test_apply_rotary_with_rope_cos_sin_equals_rope_bit_for_bit(layout, dtype_name, rng):
    import ml_dtypes

    dtype = np.dtype(getattr(ml_dtypes, dtype_name)) if dtype_name == "bfloat16" else np.dtype(dtype_name)
    inv_freq, attention = rope_frequencies(
        12, scaling={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64}
    )
    ids = rng.integers(0, 10**6, size=(2, 9))
    cos, sin = rope_cos_sin(ids, inv_freq, attention_factor=attention, layout=layout)  # once ...
    for _ in ("queries", "keys"):  # ... for the queries and the keys
        x = rng.normal(size=(2, 4, 9, 16)).astype(dtype)
        expected = rope(x, ids, inv_freq=inv_freq, attention_factor=attention, layout=layout, rotary_dim=12)
        np.testing.assert_array_equal(apply_rotary(x, cos, sin, layout=layout), expected)


def test_apply_rotary_computes_the_models_formula_whatever_the_caches(rng):
    """x * cos + rotate_half(x) * sin, exactly (float64, rounded once), even for caches whose halves differ."""
    x = rng.normal(size=(2, 3, 4, 8))
    cos, sin = rng.normal(size=(2, 2, 4, 8))
    expected = x * cos[:, None] + hf_rotate_half(x) * sin[:, None]
    np.testing.assert_array_equal(apply_rotary(x, cos, sin), expected)
    pairs = np.stack((-x[..., 1::2], x[..., 0::2]), axis=-1).reshape(x.shape)  # rotary-embedding-torch's
    np.testing.assert_array_equal(
        apply_rotary(x, cos, sin, layout="interleaved"), x * cos[:, None] + pairs * sin[:, None]
    )


def test_apply_rotary_takes_caches_in_any_float_format_and_rounds_once(rng):
    import ml_dtypes

    bfloat16 = np.dtype(ml_dtypes.bfloat16)
    x = rng.normal(size=(1, 2, 5, 8)).astype(bfloat16)
    cos, sin = rope_cos_sin(np.arange(5), rope_frequencies(8)[0], dtype=bfloat16)  # a model's bfloat16 cache
    out = apply_rotary(x, cos, sin)
    exact = apply_rotary(x.astype(np.float64), cos.astype(np.float64), sin.astype(np.float64))
    once = np.empty(exact.shape, dtype=bfloat16)
    store_rounded(once, exact)
    assert out.dtype == bfloat16
    np.testing.assert_array_equal(out, once)


@pytest.mark.parametrize("dtype_name", ["float32", "float16", "bfloat16"])
def test_rope_cos_sin_in_a_narrow_format_is_the_float64_cache_rounded_once(dtype_name):
    import ml_dtypes

    dtype = np.dtype(getattr(ml_dtypes, dtype_name)) if dtype_name == "bfloat16" else np.dtype(dtype_name)
    ids = np.arange(0, 10**6, 997).reshape(2, -1)
    inv_freq, _ = rope_frequencies(32, scaling={"rope_type": "linear", "factor": 2.0})
    for layout in ("half", "interleaved"):
        wide = rope_cos_sin(ids, inv_freq, attention_factor=1.5, layout=layout)
        narrow = rope_cos_sin(ids, inv_freq, attention_factor=1.5, layout=layout, dtype=dtype_name)
        for got, values in zip(narrow, wide, strict=True):
            once = np.empty(values.shape, dtype=dtype)
            store_rounded(once, values)
            assert got.dtype == dtype and got.shape == (*ids.shape, 32)
            np.testing.assert_array_equal(got, once)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((2, 8)), np.ones((2, 6))), ValueError, "same shape"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((2, 10)), np.ones((2, 10))), ValueError, "<= dim"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((2, 7)), np.ones((2, 7))), ValueError, "even"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((3, 8)), np.ones((3, 8))), ValueError, "cos of shape"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((2, 8), int), np.ones((2, 8), int)), TypeError, "float"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones(8), np.ones(8)), ValueError, "at least 2 axes"),
        (lambda: apply_rotary(np.ones((2, 8)), np.ones((2, 8)), np.ones((2, 8)), layout="x"), ValueError, "layout"),
        (lambda: rope_cos_sin([0, 1], np.ones(2), dtype="int8"), ValueError, "dtype"),
        (lambda: rope(np.ones((2, 8)), [[0, 1], [2]]), ValueError, "positions must be a rectangular array"),
        (lambda: rope([[1.0, 2.0], [3.0]], [0, 1]), ValueError, "x must be a rectangular array"),
    ],
)
def test_apply_rotary_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- scores for a decoding step ------------------------------------------------------


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_rope_scores_put_the_queries_at_the_end_of_the_keys(layout, rng):
    keys = rng.normal(size=(2, 3, 50, 16))
    queries_all = rng.normal(size=(2, 3, 50, 16))
    full = rope_scores(queries_all, keys, layout=layout, rotary_dim=12)
    expected = rope(queries_all, np.arange(50), layout=layout, rotary_dim=12) @ np.swapaxes(
        rope(keys, np.arange(50), layout=layout, rotary_dim=12), -1, -2
    )
    np.testing.assert_array_equal(full, expected)
    for n_queries in (1, 6):
        step = rope_scores(queries_all[..., -n_queries:, :], keys, layout=layout, rotary_dim=12)
        assert step.shape == (2, 3, n_queries, 50)
        np.testing.assert_allclose(step, full[..., -n_queries:, :], rtol=0, atol=1e-12)


def test_rope_scores_of_one_query_are_the_relative_scores(rng):
    q, k = rng.normal(size=(2, 32))
    keys = np.tile(k, (40, 1))
    step = rope_scores(q[None, :], keys)[0]  # the query at position 39, keys at 0..39
    np.testing.assert_allclose(step, rope_relative_scores(q, k, np.arange(40) - 39), rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: rope_scores(np.ones((5, 8)), np.ones((4, 8))), ValueError, "must not outnumber the keys"),
        (lambda: rope_scores(np.ones((1, 8)), np.ones((4, 6))), ValueError, "same dim"),
        (lambda: rope_scores(np.ones((2, 1, 8)), np.ones((3, 4, 8))), ValueError, "broadcast"),
        (lambda: rope_scores(np.ones(8), np.ones((4, 8))), ValueError, "queries must have shape"),
        (lambda: rope_scores(np.ones((1, 8)), np.ones((4, 8)), layout="x"), ValueError, "layout"),
    ],
)
def test_rope_scores_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_position_shapes_on_the_api_page_are_the_ones_rope_accepts(rng):
    """docs/api.md's table of accepted shapes, read and tried: every row is accepted with its meaning."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    lines = page.split("(api-rope-shapes)=")[1].splitlines()[:40]
    rows = [line for line in lines if line.startswith("| ") and "---" not in line][1:]  # without the header
    sizes = {"batch": 2, "heads": 3, "n": 5, "dim": 8, "1": 1}
    assert len(rows) == 3
    for row in rows:
        positions_cell, x_cell = row.split("|")[1:3]
        positions_shape = tuple(
            sizes[s.strip()] for s in re.findall(r"`\(([^`]*)\)`", positions_cell)[-1].split(",") if s.strip()
        )
        if "any" in x_cell:
            x_shape = (2, 3, 5, 8)
        else:
            dims = re.findall(r"`\(([^`]*)\)`", x_cell)[0].replace("...", "batch, heads").split(",")
            x_shape = tuple(sizes[s.strip()] for s in dims)
        x = rng.normal(size=x_shape)
        positions = rng.integers(0, 100, size=positions_shape)
        out = rope(x, positions)
        full = np.broadcast_to(positions[:, None, :] if positions.ndim == 2 else positions, x_shape[:-1])
        for index in np.ndindex(*x_shape[:-2]):
            np.testing.assert_array_equal(out[index], rope(x[index], full[index]))
