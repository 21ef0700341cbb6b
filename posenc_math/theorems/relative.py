"""Theorems of the relative-positions page: T5's buckets, by exhaustive computation.

T5's bucket function takes a float32 logarithm, so its claims are checked by
enumeration, not symbolically: every offset ``|r| <= 4 max_distance`` and a
few far offsets up to the int64 range, for each listed configuration.  The
statement says exactly which configurations and offsets that covers.

Examples
--------
>>> from posenc_math.theorems import get
>>> get("t5-buckets").scope
'computation'
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy
from sympy import Abs, Function

from .. import encodings
from ._common import mp_context
from .core import Conclusion, Fact, Theorem, Witness
from .registry import register

PAGE = "relative"
#: (bidirectional, num_buckets, max_distance) of T5's encoder and decoder (T5, T5 v1.1, Flan-T5, mT5).
ENCODER = (True, 32, 128)
DECODER = (False, 32, 128)
#: Configurations for the claims that hold for every configuration.
T5_CONFIGS = tuple(
    (bidirectional, buckets, distance)
    for bidirectional in (True, False)
    for buckets in (8, 16, 32, 64, 128)
    for distance in (32, 64, 128, 256, 1024)
    if distance > (buckets // 2 if bidirectional else buckets) // 2
)
#: Distances far beyond any max_distance, up to the int64 range (the
#: offset -2**63 is checked too: its distance does not fit in int64).
FAR = np.array([2**20, 2**31, 2**40, 2**62, 2**63 - 1])


def _half(bidirectional, buckets):
    """T5's n: the buckets of one side (half of them when bidirectional)."""
    return buckets // 2 if bidirectional else buckets


def _buckets(offsets, config):
    bidirectional, buckets, distance = config
    return encodings.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=buckets, max_distance=distance)


def _span(config):
    """Every offset whose bucket is not forced by the saturation fact: |r| <= 4 max_distance."""
    return np.arange(-4 * config[2], 4 * config[2] + 1)


def _exact_buckets() -> bool:
    for config in T5_CONFIGS:
        bidirectional, buckets, _ = config
        n = _half(bidirectional, buckets)
        offsets = _span(config)
        got = _buckets(offsets, config)
        distance = np.abs(offsets) if bidirectional else np.maximum(-offsets, 0)
        small = distance < n // 2
        expected = distance + (n * (offsets > 0) if bidirectional else 0)
        if not np.array_equal(got[small], expected[small]):
            return False
        # one offset per small bucket: the decoder's bucket 0 also takes every future key
        counts = np.bincount(got, minlength=buckets)
        alone = offsets[small] if bidirectional else offsets[small & (offsets < 0)]
        if not np.all(counts[got[np.isin(offsets, alone)]] == 1):
            return False
        if not bidirectional and not np.array_equal(offsets[got == 0], offsets[offsets >= 0]):
            return False
    return True


def _saturates() -> bool:
    for config in T5_CONFIGS:
        bidirectional, buckets, max_distance = config
        n = _half(bidirectional, buckets)
        for sign in (-1, 1) if bidirectional else (-1,):
            last = n - 1 + (n if sign > 0 else 0)
            got = _buckets(sign * np.arange(0, 4 * max_distance + 1), config)  # index = distance
            if np.any(np.diff(got) < 0) or got.max() != last:
                return False
            if not np.all(got[max_distance:] == last) or not np.all(_buckets(sign * FAR, config) == last):
                return False
        if _buckets(np.iinfo(np.int64).min, config) != n - 1:
            return False
    return True


def _first_distance_of_last_bucket(config) -> int:
    dist = np.arange(0, config[2] + 1)
    got = _buckets(-dist, config)
    return int(dist[got == got.max()].min())


def _used(config) -> set:
    return set(np.unique(_buckets(_span(config), config)).tolist())


def _standard_usage() -> bool:
    return (
        _used(ENCODER) == set(range(32)) - {16}
        and _used(DECODER) == set(range(32))
        and _first_distance_of_last_bucket(ENCODER) == 91
        and _first_distance_of_last_bucket(DECODER) == 113
    )


def _bidirectional_middle_unused() -> bool:
    return all(config[1] // 2 not in _used(config) and 0 in _used(config) for config in T5_CONFIGS if config[0])


#: Configurations on which the witness compares with exact arithmetic.
T5_WITNESS_CONFIGS = (ENCODER, DECODER, (True, 64, 256), (False, 16, 64), (False, 128, 512))


def _exact_buckets_mp(offsets, config):
    """T5's buckets in exact arithmetic (40-digit logarithms), one logarithm per distance."""
    bidirectional, buckets, max_distance = config
    n = _half(bidirectional, buckets)
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


@register("t5-buckets", page=PAGE)
def t5_buckets() -> Theorem:
    r = sympy.Symbol("r", integer=True)
    bucket = Function("bucket")
    encoder = Function("bucket_enc")
    configs = (
        r"every configuration with $B \in \{8, 16, 32, 64, 128\}$ buckets and max distance "
        r"$D \in \{32, 64, 128, 256, 1024\}$ ($D > n/2$), both directions; $n = B/2$ (bidirectional) or $B$; "
        r"$r$ = key $-$ query with $|r| \le 4D$, and $|r| = 2^{20}, 2^{31}, 2^{40}, 2^{62}, 2^{63} - 1$, $r = -2^{63}$"
    )
    exact = Conclusion(
        bucket(r),
        Abs(r),
        (r,),
        where=r"$r \le 0$, $|r| < n/2$ (bidirectionally also $0 < r < n/2$, in bucket $r + B/2$); no other "
        r"offset shares the bucket, except that the decoder's bucket 0 also takes every $r > 0$. Checked for "
        + configs,
    )
    saturated = Conclusion(
        bucket(r),
        sympy.Symbol("n", integer=True, positive=True) - 1,
        (r, sympy.Symbol("n", integer=True, positive=True)),
        where=r"$r \le -D$ (bidirectionally, $r \ge D$ gives $2n - 1$); buckets never decrease with $|r|$; the "
        r"same configurations and offsets",
    )
    unused = Conclusion(
        encoder(r),
        sympy.Integer(16),
        (r,),
        relation="!=",
        where=r"T5's encoder: bidirectional, $B = 32$, $D = 128$; every offset (by the saturation above); "
        r"bidirectionally bucket $B/2$ is never used for every configuration checked",
    )
    standard = Fact(
        "T5 32/128: the encoder uses every bucket but 16, the decoder all 32; the last bucket starts at "
        "distance 91 (encoder) and 113 (decoder)",
        _standard_usage,
        "so 'saturates at max_distance' understates it: 91..127 already share the last bucket",
    )
    steps = (
        Fact(
            "exact buckets: |r| < num_buckets/4 (bidirectional) or -r < num_buckets/2 (unidirectional) "
            "gets bucket |r| (+ num_buckets/2 for r > 0), and no other offset shares it (the decoder's "
            "bucket 0 also takes every future key r > 0)",
            _exact_buckets,
            "every listed configuration, every offset |r| <= 4 max_distance",
            establishes=exact,
        ),
        Fact(
            "buckets never decrease with the distance, and from max_distance on every offset is in the last "
            "bucket of its side (n - 1, or 2n - 1 for keys after the query), up to |r| = 2^63 - 1 and r = -2^63",
            _saturates,
            "every listed configuration",
            establishes=saturated,
        ),
        Fact(
            "bidirectional: bucket num_buckets/2 (distance 0 after the query) is never used, since r = 0 "
            "goes to bucket 0; the T5 encoder (32/128) never uses bucket 16",
            lambda: _bidirectional_middle_unused() and 16 not in _used(ENCODER),
            "every listed bidirectional configuration",
            establishes=unused,
        ),
        standard,
    )

    def witness():
        mismatches = 0
        with mp_context():
            for config in T5_WITNESS_CONFIGS:
                offsets = np.arange(-2 * config[2], 2 * config[2] + 1)
                got = _buckets(offsets, config)
                exact = _exact_buckets_mp(offsets, config)
                mismatches += int(np.count_nonzero(got != exact))
        return float(mismatches)

    return Theorem(
        id="t5-buckets",
        title="T5's buckets: which are exact, where they saturate, and bucket 16 is never used",
        conclusions=(exact, saturated, unused),
        steps=steps,
        witness=Witness(
            "t5_bucket (float32 logarithm, as the reference) vs the bucket in exact arithmetic (40-digit "
            "logarithm) on |r| <= 2 max_distance: number of offsets that differ, for 32/128 both directions, "
            "64/256, 16/64 and 128/512 unidirectional",
            witness,
            0.0,
            licenses="posenc_math.encodings.t5_bucket",
        ),
        negative_control=Fact(
            "every bucket 0 .. 31 is used by T5's encoder (bidirectional, 32 buckets, max_distance 128)",
            lambda: _used(ENCODER) == set(range(32)),
        ),
        scope="computation",
        scope_note=(
            "exhaustive over |r| <= 4D and six far offsets up to the int64 range, for "
            + str(len(T5_CONFIGS))
            + " configurations (B in 8 .. 128, D in 32 .. 1024, both directions); beyond 4D the buckets are "
            "constant by the saturation fact, which is itself checked only on those offsets"
        ),
        proof=(
            "Every offset that can behave differently is enumerated, for each configuration listed; T5's buckets "
            "are monotone in the distance and constant from the max distance on, so the far offsets add nothing "
            "new.",
            standard,
        ),
        lead=(
            r"$r = $ key $-$ query, $B$ buckets, max distance $D$, $n = B/2$ buckets per side (bidirectional) or "
            r"$n = B$ (unidirectional)."
        ),
    )
