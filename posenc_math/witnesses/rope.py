"""Witnesses of the RoPE page's theorems (see :mod:`posenc_math.theorems.rope`)."""

from __future__ import annotations

import mpmath
import numpy as np

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded


def _pairs(dim, layout):
    """Index pairs (first, second) of each rotary pair in ``layout``."""
    h = dim // 2
    if layout == "half":
        return [(j, j + h) for j in range(h)]
    return [(2 * j, 2 * j + 1) for j in range(h)]


def _mp_scores(query, key, offsets, dim, base, layout):
    """Exact RoPE scores for each offset (key - query), 40 digits, from the pair formula."""
    freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim) for j in range(dim // 2)]
    # per pair, the coefficients of cos and sin: (q0 k0 + q1 k1) and (q1 k0 - q0 k1)
    pairs = []
    for i, j in _pairs(dim, layout):
        q0, q1, k0, k1 = (mpmath.mpf(float(v)) for v in (query[i], query[j], key[i], key[j]))
        pairs.append((q0 * k0 + q1 * k1, q1 * k0 - q0 * k1))
    scores = []
    for offset in offsets:
        total = mpmath.mpf(0)
        for (along, across), freq in zip(pairs, freqs, strict=True):
            cos, sin = mpmath.cos_sin(offset * freq)
            total += along * cos + across * sin
        scores.append(total)
    return scores


def _numpy_scores(query, key, query_positions, offset, base, layout):
    """rope() scores <rope(q, m), rope(k, m + offset)> for each query position m."""
    m = np.asarray(query_positions)
    rq = encodings.rope(np.tile(query, (len(m), 1)), m, base=base, layout=layout)
    rk = encodings.rope(np.tile(key, (len(m), 1)), m + offset, base=base, layout=layout)
    return np.einsum("nd,nd->n", rq, rk)


@witness("rope-relative")
def rope_relative() -> float:
    """rope() and rope_relative_scores against the 40-digit pair formula, error / (|q||k|)."""
    rng = seeded("rope-relative")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for dim, base, layout in (
            (8, 10000.0, "half"),
            (64, 10000.0, "interleaved"),
            (128, 500000.0, "half"),
            (128, 10000.0, "interleaved"),
        ):
            query, key = nrng.normal(size=dim), nrng.normal(size=dim)
            scale = np.linalg.norm(query) * np.linalg.norm(key)
            offsets = [rng.randrange(-400, 400) for _ in range(5)] + [0]
            exact = _mp_scores(query, key, offsets, dim, base, layout)
            for offset, value in zip(offsets, exact, strict=True):
                # the same offset at many query positions, up to 5000
                starts = [rng.randrange(max(0, -offset), 5000) for _ in range(8)]
                computed = _numpy_scores(query, key, starts, offset, base, layout)
                errors += [(mpmath.mpf(float(c)) - value) / scale for c in computed]
                if layout == "half":
                    via = encodings.rope_relative_scores(query, key, [offset], base=base)[0]
                    errors.append((mpmath.mpf(float(via)) - value) / scale)
    return largest_error(errors)


@witness("rope-layout-permutation")
def rope_layout_permutation() -> float:
    """Half-layout scores of permuted vectors against the interleaved pair formula; the index map itself."""
    rng = seeded("rope-layout-permutation")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for size, base in ((6, 10000.0), (64, 10000.0), (128, 500000.0)):
            p = encodings.interleaved_to_half(size)
            query, key = nrng.normal(size=size), nrng.normal(size=size)
            scale = np.linalg.norm(query) * np.linalg.norm(key)
            offsets = [rng.randrange(-300, 300) for _ in range(4)]
            exact = _mp_scores(query, key, offsets, size, base, "interleaved")
            for offset, value in zip(offsets, exact, strict=True):
                starts = [rng.randrange(max(0, -offset), 4000) for _ in range(6)]
                computed = _numpy_scores(query[p], key[p], starts, offset, base, "half")
                errors += [(mpmath.mpf(float(c)) - value) / scale for c in computed]
        # the index map itself, against the two formulas above
        for size in (2, 6, 64, 256):
            perm = encodings.interleaved_to_half(size)
            half = size // 2
            errors += [int(perm[i]) - (2 * i if i < half else 2 * (i - half) + 1) for i in range(size)]
            inverse = np.argsort(perm)
            errors += [int(inverse[x]) - (x // 2 + half * (x % 2)) for x in range(size)]
    return largest_error(errors)


@witness("rope-long-term-decay")
def rope_long_term_decay() -> float:
    """rope_decay_bound against the 40-digit bound, relative; and the bound holds for the 40-digit scores."""
    rng = seeded("rope-long-term-decay")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for dim, base in ((8, 10000.0), (64, 10000.0), (128, 500000.0)):
            query, key = nrng.normal(size=dim), nrng.normal(size=dim)
            offsets = [0, 1] + [rng.randrange(-3000, 3000) for _ in range(6)]
            bound = encodings.rope_decay_bound(query, key, offsets, base=base)
            scores = _mp_scores(query, key, offsets, dim, base, "half")
            freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim) for j in range(dim // 2)]
            half = dim // 2
            products = [
                mpmath.mpc(float(query[j]), float(query[j + half]))
                * mpmath.conj(mpmath.mpc(float(key[j]), float(key[j + half])))
                for j in range(half)
            ] + [mpmath.mpc(0)]
            largest = max(abs(products[j + 1] - products[j]) for j in range(half))
            for offset, value, computed in zip(offsets, scores, bound, strict=True):
                partial, total = mpmath.mpc(0), mpmath.mpf(0)
                for freq in freqs:
                    partial += mpmath.expj(-offset * freq)
                    total += abs(partial)
                exact = largest * total
                errors.append((mpmath.mpf(float(computed)) - exact) / exact)
                if abs(value) > exact:  # the bound must hold, at 40 digits
                    errors.append(mpmath.mpf(1))
    return largest_error(errors)


def _axes_score(query, key, pairs, frequencies, axes, query_at, key_at):
    """The 40-digit score of pairs turned by the coordinate of their axis: the pair formula at y_a - x_a."""
    offsets = [int(key_at[axis]) - int(query_at[axis]) for axis in axes]
    total = mpmath.mpf(0)
    for (i, j), freq, offset in zip(pairs, frequencies, offsets, strict=True):
        q0, q1, k0, k1 = (mpmath.mpf(float(v)) for v in (query[i], query[j], key[i], key[j]))
        cos, sin = mpmath.cos_sin(offset * freq)
        total += (q0 * k0 + q1 * k1) * cos + (q1 * k0 - q0 * k1) * sin
    return total


@witness("multi-axis-relative")
def multi_axis_relative() -> float:
    """axial_rope, mrope and Qwen3-VL's rotation at x, y and x + c, y + c against the 40-digit offset formula."""
    from ..encodings.model_configs import published_config
    from .model_config import pair_axes

    rng = seeded("multi-axis-relative")
    nrng = np.random.default_rng(rng.randrange(2**32))
    qwen3 = encodings.rope_from_config(published_config("qwen3-vl-8b-instruct.json"))
    assert qwen3.mrope_section is not None and qwen3.base is not None

    def axial(n_axes, axis_dim):
        def rotate(x, ids):
            return encodings.axial_rope(x, ids)

        pairs = [(a * axis_dim + 2 * j, a * axis_dim + 2 * j + 1) for a in range(n_axes) for j in range(axis_dim // 2)]
        freqs = [mpmath.power(10000, -mpmath.mpf(2 * j) / axis_dim) for j in range(axis_dim // 2)] * n_axes
        axes = [a for a in range(n_axes) for _ in range(axis_dim // 2)]
        return rotate, n_axes * axis_dim, n_axes, pairs, freqs, axes

    def sectioned(sections, interleaved, base, rotate):
        half = sum(sections)
        freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / (2 * half)) for j in range(half)]
        return rotate, 2 * half, 3, [(j, j + half) for j in range(half)], freqs, pair_axes(sections, interleaved)

    errors = []
    with mp_context():
        schemes = (
            axial(2, 16),
            axial(3, 16),
            sectioned((16, 24, 24), False, 10000.0, lambda x, ids: encodings.mrope(x, ids, (16, 24, 24))),
            sectioned(qwen3.mrope_section, True, qwen3.base, qwen3.rotate),
        )
        for rotate, dim, n_axes, pairs, freqs, axes in schemes:
            for _ in range(4):
                query, key = nrng.normal(size=dim), nrng.normal(size=dim)
                scale = np.linalg.norm(query) * np.linalg.norm(key)
                at = nrng.integers(0, 3000, size=(n_axes, 2))  # column 0: the query's vector, 1: the key's
                shift = nrng.integers(-1000, 1000, size=(n_axes, 1))
                exact = _axes_score(query, key, pairs, freqs, axes, at[:, 0], at[:, 1])
                for ids in (at, at + shift):
                    turned_q = rotate(query[None], ids[:, :1])[0]
                    turned_k = rotate(key[None], ids[:, 1:])[0]
                    errors.append((mpmath.mpf(float(turned_q @ turned_k)) - exact) / scale)
    return largest_error(errors)
