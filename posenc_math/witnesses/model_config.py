"""Witnesses of the model-config page's theorems (see :mod:`posenc_math.theorems.model_config`).

Each compares what :func:`~posenc_math.rope_from_config` and the rotary
functions compute for published configs with the theorem's quantity in
40-digit arithmetic.  Which id turns pair ``j`` of an M-RoPE head is taken
from the theorem's brackets (:func:`pair_axes`), not from the library.
"""

from __future__ import annotations

import json

import mpmath
import numpy as np

from .. import encodings
from ..encodings.model_configs import published_config
from . import witness
from ._common import largest_error, mp_context, seeded

#: A GPT-NeoX head (Pythia-70m's keys) and a GLM-4 head (half the head turns, pairs interleaved).
GPT_NEOX = {"model_type": "gpt_neox", "hidden_size": 512, "num_attention_heads": 8, "rotary_pct": 0.25}
GLM = {
    "model_type": "glm",
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "head_dim": 128,
    "partial_rotary_factor": 0.5,
    "rope_theta": 10000.0,
}


def pair_axes(sections, interleaved: bool) -> list[int]:
    """The id (0 temporal, 1 height, 2 width) that turns each pair, by the theorem's brackets.

    Consecutive: ``t`` for ``j < s_t``, ``h`` for ``j < s_t + s_h``, ``w``
    after.  Interleaved: ``h`` for ``j = 1 (mod 3)``, ``j < 3 s_h``; ``w``
    for ``j = 2 (mod 3)``, ``j < 3 s_w``; ``t`` otherwise.

    Examples
    --------
    >>> pair_axes((1, 2, 1), False), pair_axes((1, 2, 1), True)
    ([0, 1, 1, 2], [0, 1, 2, 0])
    """
    s_t, s_h, s_w = sections
    n_pairs = s_t + s_h + s_w
    if not interleaved:
        return [0 if j < s_t else 1 if j < s_t + s_h else 2 for j in range(n_pairs)]
    return [1 if j % 3 == 1 and j < 3 * s_h else 2 if j % 3 == 2 and j < 3 * s_w else 0 for j in range(n_pairs)]


def _frequencies(base: float, dim: int) -> list:
    """omega_j = base^(-2j/dim) at the working precision."""
    return [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim) for j in range(dim // 2)]


def _pairs(layout: str, n_pairs: int, start: int = 0) -> list[tuple[int, int]]:
    """Feature indices (first, second) of each pair: ``(j, j + P)`` (half) or ``(2j, 2j + 1)``."""
    if layout == "half":
        return [(start + j, start + j + n_pairs) for j in range(n_pairs)]
    return [(start + 2 * j, start + 2 * j + 1) for j in range(n_pairs)]


def pair_score(query, key, pairs, frequencies, offsets) -> mpmath.mpf:
    """sum_j <R(m w_j) q_j, R(n w_j) k_j> = sum_j (q_a k_a + q_b k_b) cos(r_j w_j) + (q_b k_a - q_a k_b) sin(r_j w_j).

    ``offsets[j]`` is the key's minus the query's position for pair ``j`` (rope-relative).
    """
    total = mpmath.mpf(0)
    for (a, b), frequency, offset in zip(pairs, frequencies, offsets, strict=True):
        qa, qb, ka, kb = (mpmath.mpf(float(v)) for v in (query[a], query[b], key[a], key[b]))
        cos, sin = mpmath.cos_sin(mpmath.mpf(offset) * frequency)
        total += (qa * ka + qb * kb) * cos + (qb * ka - qa * kb) * sin
    return total


def _mscale(factor, mu) -> mpmath.mpf:
    return mpmath.mpf("0.1") * mpmath.mpf(mu) * mpmath.log(mpmath.mpf(factor)) + 1


@witness("mrope-text-is-rope")
def mrope_text_is_rope() -> float:
    """cos/sin of Qwen2.5-VL and Qwen3-VL against the brackets at 40 digits; text ids against 1-D RoPE."""
    rng = seeded("mrope-text-is-rope")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for name in ("qwen2.5-vl-7b-instruct.json", "qwen3-vl-8b-instruct.json"):
            layer = encodings.rope_from_config(published_config(name))
            assert layer.mrope_section is not None and layer.base is not None and layer.inv_freq is not None
            half = layer.rotary_dim // 2
            axes = pair_axes(layer.mrope_section, layer.mrope_interleaved)
            frequencies = _frequencies(layer.base, layer.rotary_dim)
            ids = nrng.integers(0, 2**17, size=(3, 6))
            cos, sin = layer.cos_sin(ids)
            for token in range(ids.shape[1]):
                for j in range(half):
                    exact_cos, exact_sin = mpmath.cos_sin(int(ids[axes[j], token]) * frequencies[j])
                    for column in (j, j + half):
                        errors.append(mpmath.mpf(float(cos[token, column])) - exact_cos)
                        errors.append(mpmath.mpf(float(sin[token, column])) - exact_sin)
            text = nrng.integers(0, 2**17, size=50)
            cos_text, sin_text = layer.cos_sin(np.stack([text] * 3))
            plain_cos, plain_sin = encodings.rope_cos_sin(text, layer.inv_freq)
            errors += [float(np.abs(cos_text - plain_cos).max()), float(np.abs(sin_text - plain_sin).max())]
        for sections in ((16, 24, 24), (1, 1, 62), (0, 64, 0)):
            x = nrng.normal(size=(4, 128))
            ids = nrng.integers(0, 5000, size=(3, 4))
            turned = encodings.mrope(x, ids, sections)
            axes = pair_axes(sections, False)
            frequencies = _frequencies(10000.0, 128)
            for token in range(4):
                scale = float(np.linalg.norm(x[token]))
                for j, (a, b) in enumerate(_pairs("half", 64)):
                    cos, sin = mpmath.cos_sin(int(ids[axes[j], token]) * frequencies[j])
                    xa, xb = mpmath.mpf(float(x[token, a])), mpmath.mpf(float(x[token, b]))
                    errors.append((mpmath.mpf(float(turned[token, a])) - (xa * cos - xb * sin)) / scale)
                    errors.append((mpmath.mpf(float(turned[token, b])) - (xa * sin + xb * cos)) / scale)
            text = nrng.integers(0, 5000, size=4)
            errors.append(
                float(np.abs(encodings.mrope(x, np.stack([text] * 3), sections) - encodings.rope(x, text)).max())
            )
    return largest_error(errors)


@witness("attention-factor-squared")
def attention_factor_squared() -> float:
    """Scores of YaRN layers against (0.1 ln s + 1)^2 times the pair formula; DeepSeek's factors at 40 digits."""
    rng = seeded("attention-factor-squared")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for name in ("qwen2.5-7b-instruct_yarn.json", "gpt-oss-20b.json"):
            layer = encodings.rope_from_config(published_config(name))
            assert layer.inv_freq is not None
            factor = _mscale(layer.scaling["factor"], 1)
            errors.append(mpmath.mpf(layer.attention_factor) - factor)
            half = layer.rotary_dim // 2
            frequencies = [mpmath.mpf(float(w)) for w in layer.inv_freq]
            for _ in range(6):
                query, key = nrng.normal(size=layer.head_dim), nrng.normal(size=layer.head_dim)
                m, n = (int(v) for v in nrng.integers(0, 30000, size=2))
                score = float(layer.rotate(query[None], [m])[0] @ layer.rotate(key[None], [n])[0])
                exact = factor**2 * pair_score(query, key, _pairs(layer.layout, half), frequencies, [n - m] * half)
                errors.append((mpmath.mpf(score) - exact) / float(np.linalg.norm(query) * np.linalg.norm(key)))
        inv_freq, _ = encodings.rope_frequencies(64)
        frequencies = [mpmath.mpf(float(w)) for w in inv_freq]
        for alpha in (0.5, 1.7, 3.25):
            query, key = nrng.normal(size=64), nrng.normal(size=64)
            m, n = (int(v) for v in nrng.integers(0, 5000, size=2))
            turned_q = encodings.rope(query[None], [m], inv_freq=inv_freq, attention_factor=alpha)[0]
            turned_k = encodings.rope(key[None], [n], inv_freq=inv_freq, attention_factor=alpha)[0]
            exact = mpmath.mpf(alpha) ** 2 * pair_score(query, key, _pairs("half", 32), frequencies, [n - m] * 32)
            errors.append(
                (mpmath.mpf(float(turned_q @ turned_k)) - exact) / float(np.linalg.norm(query) * np.linalg.norm(key))
            )
        deepseek = published_config("deepseek-v3.json")
        config = json.loads(deepseek.read_text())
        variant = json.loads(json.dumps(config))
        variant["rope_scaling"]["mscale_all_dim"] = 0.707
        for read in (config, variant):
            layer = encodings.rope_from_config(read)
            scaling = read["rope_scaling"]
            mu, mu_all = (
                _mscale(scaling["factor"], scaling["mscale"]),
                _mscale(scaling["factor"], scaling["mscale_all_dim"]),
            )
            errors.append((mpmath.mpf(layer.attention_factor) - mu / mu_all) / (mu / mu_all))
            errors.append((mpmath.mpf(layer.score_scale) - mu_all**2) / mu_all**2)
            total = mpmath.mpf(layer.attention_factor) ** 2 * mpmath.mpf(layer.score_scale)
            errors.append((total - mu**2) / mu**2)
    return largest_error(errors)


@witness("partial-rotary-pass-through")
def partial_rotary_pass_through() -> float:
    """Scores of partially rotary heads against the rotated pair formula plus the pass-through dot product."""
    rng = seeded("partial-rotary-pass-through")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    heads: list = [
        published_config("phi-2.json"),
        published_config("deepseek-v3.json"),
        GPT_NEOX,
        GLM,
    ]
    with mp_context():
        for config in heads:
            layer = encodings.rope_from_config(config)
            assert layer.inv_freq is not None
            half, start = layer.rotary_dim // 2, layer.rotary_offset
            pairs = _pairs(layer.layout, half, start)
            turned = {i for pair in pairs for i in pair}
            passed = [i for i in range(layer.head_dim) if i not in turned]
            assert passed and len(turned) == layer.rotary_dim
            frequencies = [mpmath.mpf(float(w)) for w in layer.inv_freq]
            for _ in range(5):
                query, key = nrng.normal(size=layer.head_dim), nrng.normal(size=layer.head_dim)
                m, n = (int(v) for v in nrng.integers(0, 5000, size=2))
                score = float(layer.rotate(query[None], [m])[0] @ layer.rotate(key[None], [n])[0])
                content = mpmath.fsum(mpmath.mpf(float(query[i])) * mpmath.mpf(float(key[i])) for i in passed)
                exact = pair_score(query, key, pairs, frequencies, [n - m] * half) + content
                errors.append((mpmath.mpf(score) - exact) / float(np.linalg.norm(query) * np.linalg.norm(key)))
        for dim, rotary in ((64, 16), (80, 32), (96, 96)):
            inv_freq, _ = encodings.rope_frequencies(rotary)
            frequencies = [mpmath.mpf(float(w)) for w in inv_freq]
            pairs = _pairs("half", rotary // 2)
            passed = list(range(rotary, dim))
            query, key = nrng.normal(size=dim), nrng.normal(size=dim)
            m, n = (int(v) for v in nrng.integers(0, 5000, size=2))
            score = float(
                encodings.rope(query[None], [m], rotary_dim=rotary)[0]
                @ encodings.rope(key[None], [n], rotary_dim=rotary)[0]
            )
            content = mpmath.fsum(mpmath.mpf(float(query[i])) * mpmath.mpf(float(key[i])) for i in passed)
            exact = pair_score(query, key, pairs, frequencies, [n - m] * (rotary // 2)) + content
            errors.append((mpmath.mpf(score) - exact) / float(np.linalg.norm(query) * np.linalg.norm(key)))
    return largest_error(errors)
