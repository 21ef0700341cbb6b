"""Witnesses of the relative page's theorems (see :mod:`posenc_math.theorems.relative`)."""

from __future__ import annotations

import functools

import mpmath
import numpy as np

from .. import encodings
from . import witness
from ._common import largest_error, mp_context, seeded

# --------------------------------------------------------------------------
# T5
#: (bidirectional, num_buckets, max_distance) of T5's encoder and decoder (T5, T5 v1.1, Flan-T5, mT5).
ENCODER = (True, 32, 128)
DECODER = (False, 32, 128)
#: Configurations on which the witness compares with exact arithmetic.
T5_WITNESS_CONFIGS = (ENCODER, DECODER, (True, 64, 256), (False, 16, 64), (False, 128, 512))


def half_of(bidirectional, buckets):
    """T5's n: the buckets of one side (half of them when bidirectional)."""
    return buckets // 2 if bidirectional else buckets


def buckets_of(offsets, config):
    """``t5_bucket`` of ``offsets`` with ``config = (bidirectional, num_buckets, max_distance)``."""
    bidirectional, buckets, distance = config
    return encodings.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=buckets, max_distance=distance)


def exact_buckets(offsets, config):
    """T5's buckets in exact arithmetic (40-digit logarithms), one logarithm per distance."""
    bidirectional, buckets, max_distance = config
    n = half_of(bidirectional, buckets)
    exact = n // 2
    per_distance = list(range(exact))  # distance -> bucket within its side
    denominator = mpmath.log(mpmath.mpf(max_distance) / exact)
    for distance in range(exact, max_distance + 1):
        value = mpmath.log(mpmath.mpf(distance) / exact) / denominator * (n - exact)
        nearest = mpmath.nint(value)
        # an exact boundary (distance / exact a rational power of max_distance / exact) is that integer
        whole = int(nearest) if abs(value - nearest) < mpmath.mpf(10) ** -30 else int(mpmath.floor(value))
        per_distance.append(min(exact + whole, n - 1))
    distance = np.abs(offsets) if bidirectional else np.maximum(-offsets, 0)
    side = np.asarray(per_distance)[np.minimum(distance, max_distance)]  # monotone, clamped: n - 1 beyond
    return side + (n * (offsets > 0) if bidirectional else 0)


@witness("t5-buckets")
def t5_buckets() -> float:
    """The number of offsets |r| <= 2 max_distance whose t5_bucket differs from :func:`exact_buckets`."""
    mismatches = 0
    with mp_context():
        for config in T5_WITNESS_CONFIGS:
            offsets = np.arange(-2 * config[2], 2 * config[2] + 1)
            got = buckets_of(offsets, config)
            exact = exact_buckets(offsets, config)
            mismatches += int(np.count_nonzero(got != exact))
    return float(mismatches)


# --------------------------------------------------------------------------
# Transformer-XL
#: Shifts the witness moves every query and key by (up to 2**40: the distance is computed in int64).
XL_SHIFTS = (0, 1, 977, 10**6, 2**40)


def _mp(array) -> list:
    """The rows of a float64 array (a vector is one row) as exact mpmath numbers."""
    return [[mpmath.mpf(float(x)) for x in row] for row in np.atleast_2d(array)]


def _dot(one, other):
    """The dot product of two float64 vectors, 40 digits (every product and the sum exact to 40 digits)."""
    return mpmath.fsum(x * y for x, y in zip(_mp(one)[0], _mp(other)[0], strict=True))


def _xl_exact_scores(queries, keys, u, v, w_r, query_positions, key_positions, base):
    """Transformer-XL's score, 40 digits, from (a) + (c) + (q_i + v).W_R R_{i-j} with R in its layout."""
    dim_r = w_r.shape[1]
    freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * p) / dim_r) for p in range(dim_r // 2)]
    q, k, w = _mp(queries), _mp(keys), _mp(w_r)
    u_, v_ = _mp(u)[0], _mp(v)[0]
    dim = len(u_)
    scores = []
    for qi, i in zip(q, query_positions, strict=True):
        weights = [mpmath.fsum((qi[a] + v_[a]) * w[a][m] for a in range(dim)) for m in range(dim_r)]
        row = []
        for kj, j in zip(k, key_positions, strict=True):
            angles = [(int(i) - int(j)) * f for f in freqs]
            relative = [mpmath.sin(t) for t in angles] + [mpmath.cos(t) for t in angles]
            row.append(
                mpmath.fsum(qi[a] * kj[a] + u_[a] * kj[a] for a in range(dim))
                + mpmath.fsum(c * r for c, r in zip(weights, relative, strict=True))
            )
        scores.append(row)
    return scores


@witness("transformer-xl-relative")
def transformer_xl_relative() -> float:
    """transformer_xl_scores with every position shifted against the 40-digit unshifted scores."""
    rng = seeded("transformer-xl-relative")
    nrng = np.random.default_rng(rng.randrange(2**32))
    errors = []
    with mp_context():
        for dim, dim_r, base in ((4, 6, 10000.0), (3, 4, 500.0)):
            queries, keys = nrng.normal(size=(2, 4, dim))
            u, v = nrng.normal(size=(2, dim))
            w_r = nrng.normal(size=(dim, dim_r))
            rows = np.array(sorted(rng.sample(range(60), 4)))
            cols = np.array(sorted(rng.sample(range(60), 4)))
            exact = _xl_exact_scores(queries, keys, u, v, w_r, rows, cols, base)
            scale = 1 + max(abs(value) for row in exact for value in row)
            for shift in XL_SHIFTS:
                got = encodings.transformer_xl_scores(
                    queries, keys, u, v, w_r, query_positions=rows + shift, key_positions=cols + shift, base=base
                )
                errors += [(mpmath.mpf(float(got[a, b])) - exact[a][b]) / scale for a in range(4) for b in range(4)]
    return largest_error(errors)


# --------------------------------------------------------------------------
# DeBERTa
#: (n_positions, k) on which the witness compares deberta_relative_index with the paper's cases.
DEBERTA_INDEX_SIZES = ((1, 1), (2, 1), (7, 1), (9, 2), (12, 5), (24, 4), (30, 16))
#: Rows prepended to the sequence: every position moves by s.
DEBERTA_SHIFTS = (0, 1, 5, 37)


def clipped_index(i: int, j: int, k: int) -> int:
    """DeBERTa's delta(i, j) for integers: i - j + k clipped to 0 .. 2k - 1 (the paper's three cases).

    Examples
    --------
    >>> [clipped_index(i, 0, 2) for i in range(-3, 4)]
    [0, 0, 1, 2, 3, 3, 3]
    """
    if i - j <= -k:
        return 0
    if i - j >= k:
        return 2 * k - 1
    return i - j + k


@witness("deberta-relative")
def deberta_relative() -> float:
    """deberta_relative_index against the paper's cases (mismatches), and deberta_scores of shifted rows."""
    rng = seeded("deberta-relative")
    nrng = np.random.default_rng(rng.randrange(2**32))
    mismatches = 0
    for n, k in DEBERTA_INDEX_SIZES:
        got = encodings.deberta_relative_index(n, k)
        expected = np.array([[clipped_index(i, j, k) for j in range(n)] for i in range(n)])
        mismatches += int(np.count_nonzero(got != expected))
    errors = [mismatches]
    with mp_context():
        for n, dim, k in ((6, 4, 2), (5, 3, 3)):
            qc, kc = nrng.normal(size=(2, n, dim))
            qr, kr = nrng.normal(size=(2, 2 * k, dim))
            norm = mpmath.sqrt(3 * dim)
            exact = [
                [
                    (
                        _dot(qc[i], kc[j])
                        + _dot(qc[i], kr[clipped_index(i, j, k)])
                        + _dot(kc[j], qr[clipped_index(j, i, k)])
                    )
                    / norm
                    for j in range(n)
                ]
                for i in range(n)
            ]
            scale = 1 + max(abs(value) for row in exact for value in row)
            for shift in DEBERTA_SHIFTS:
                # the same tokens after `shift` other ones: every position moves by shift
                before = nrng.normal(size=(4, shift, dim))
                got = encodings.deberta_scores(np.vstack([before[0], qc]), np.vstack([before[1], kc]), qr, kr)[
                    shift:, shift:
                ]
                errors += [(mpmath.mpf(float(got[i, j])) - exact[i][j]) / scale for i in range(n) for j in range(n)]
    return largest_error(errors)


# --------------------------------------------------------------------------
# DeBERTa-v2 and v3: logarithmic buckets
#: (position_buckets, max_relative_positions): the published setting (DeBERTa-v2, DeBERTaV3) first.
DEBERTA_V2: tuple[int, int] = (256, 512)
DEBERTA_V2_CONFIGS = (DEBERTA_V2, (128, 512), (64, 256), (512, 1024))
#: Every offset |d| <= this is enumerated.
DEBERTA_V2_REACH = 2**20


def log_buckets(offsets: np.ndarray | int, config: tuple[int, int]) -> np.ndarray:
    """``deberta_log_bucket`` of ``offsets`` with ``config = (position_buckets, max_relative_positions)``, an array."""
    buckets, largest = config
    return np.asarray(encodings.deberta_log_bucket(offsets, position_buckets=buckets, max_relative_positions=largest))


def offset_chunks(first: int, last: int, size: int = 16000):
    """``first, ..., last`` (int64) in consecutive arrays of at most ``size``, in order.

    An enumeration over a million offsets goes chunk by chunk: the default
    keeps an int64 chunk (125 KiB) under glibc's first threshold for mapping
    memory afresh, so its temporaries come from the allocator's free lists
    and stay in the cache, where whole-range ones (8 MiB each) each cost a
    new mapping and its page faults (in a new process the deberta-v2-buckets
    enumeration took several times as long).
    """
    for start in range(first, last + 1, size):
        yield np.arange(start, min(start + size, last + 1), dtype=np.int64)


def exact_log_buckets(
    distances: np.ndarray | list[int], config: tuple[int, int], *, up_to: int | None = None
) -> np.ndarray:
    """make_log_bucket_position for distances >= 0 in exact arithmetic (50-digit logarithms).

    With ``mid = B // 2`` and ``L = ln((M - 1) / mid)``: a distance ``<= mid`` is
    its own bucket; beyond, the bucket is ``mid + c`` for the smallest ``c >= 1``
    with ``ln(|d| / mid) / L * (mid - 1) <= c``, i.e. ``|d| <= mid e^(c L / (mid - 1))``,
    one exponential per bucket.  ``up_to`` (default: the largest distance
    given) is how far the buckets' ends are computed, once per ``config`` and
    ``up_to``.
    """
    distances = np.asarray(distances, dtype=np.int64)
    largest = int(distances.max(initial=0))
    top = largest if up_to is None else up_to
    if largest > top:
        raise ValueError(f"up_to must be at least the largest distance, {largest}; got {top}")
    mid = config[0] // 2
    beyond = mid + np.searchsorted(_bucket_ends(config, top), distances, side="left") + 1
    return np.where(distances <= mid, distances, beyond)


@functools.lru_cache(maxsize=16)
def _bucket_ends(config: tuple[int, int], top: int) -> np.ndarray:
    """The last distance of each logarithmic bucket ``mid + 1, mid + 2, ...`` until one reaches ``top``."""
    buckets, largest = config
    mid = buckets // 2
    with mp_context(50):
        scale = mpmath.log(mpmath.mpf(largest - 1) / mid) / (mid - 1)
        ends: list[int] = []
        c = 1
        while not ends or ends[-1] < top:
            end = mid * mpmath.exp(c * scale)
            nearest = mpmath.nint(end)
            # an end that is an integer (|d| = M - 1 at c = mid - 1) belongs to its bucket
            ends.append(int(nearest) if abs(end - nearest) < mpmath.mpf(10) ** -40 else int(mpmath.floor(end)))
            c += 1
    ends_array = np.asarray(ends, dtype=np.int64)
    ends_array.flags.writeable = False  # shared by every caller of the cache
    return ends_array


def float32_log_bucket(distance: int, config: tuple[int, int]) -> int:
    """make_log_bucket_position at one distance > mid, each step at 50 digits rounded to float32 where torch rounds.

    ``|d| / mid``, both logarithms (each the float32 nearest the exact one),
    their quotient and the product by ``mid - 1`` are float32; the
    denominator's argument is the float32 of the double ``(M - 1) / mid``.
    """
    buckets, largest = config
    mid = buckets // 2

    def single(value):
        with mpmath.workprec(24):
            return +value

    with mp_context(50):
        with mpmath.workprec(53):
            argument = mpmath.mpf(largest - 1) / mid  # the Python float
        quotient = single(mpmath.mpf(distance) / mid)
        ratio = single(single(mpmath.log(quotient)) / single(mpmath.log(single(argument))))
        return mid + int(mpmath.ceil(single(ratio * (mid - 1))))


@witness("deberta-v2-buckets")
def deberta_v2_buckets() -> float:
    """Offsets |d| <= 2**20 where deberta_log_bucket is neither the exact bucket nor transformers' float32 one.

    The library is compared with :func:`exact_log_buckets` at every offset of
    both signs; where they differ by one (float32 rounding can carry the
    product across one integer, no further), with :func:`float32_log_bucket`.
    """
    unexplained = 0
    for config in DEBERTA_V2_CONFIGS:
        for distances in offset_chunks(0, DEBERTA_V2_REACH):
            reference = exact_log_buckets(distances, config, up_to=DEBERTA_V2_REACH)
            got = log_buckets(distances, config)
            for index in np.nonzero(np.abs(got - reference) == 1)[0]:
                reference[index] = float32_log_bucket(int(distances[index]), config)
            unexplained += int(np.count_nonzero(got != reference))
            unexplained += int(np.count_nonzero(log_buckets(-distances, config) != -reference))
    return float(unexplained)
