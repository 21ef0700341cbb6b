"""Theorems of the relative-positions page: T5's buckets, Transformer-XL and DeBERTa.

T5's bucket function takes a float32 logarithm, so its claims are checked by
enumeration, not symbolically: every offset ``|r| <= 4 max_distance`` and a
few far offsets up to the int64 range, for each listed configuration.  The
statement says exactly which configurations and offsets that covers.

Transformer-XL's and DeBERTa's relative-score properties are proved
symbolically.  Transformer-XL's position terms are a sum over the ``h``
sinusoid pairs of its relative encoding, with the projected weights and the
frequencies as undefined functions of the pair index, so the proof holds
for every width.  DeBERTa's clipped index is the definition :data:`DELTA`,
``delta(i, j) = min(max(i - j + k, 0), 2k - 1)`` (the library's ``np.clip``);
the kernel reads ``min`` and ``max`` by its rules of signs, under each
conclusion's hypotheses (``i - j >= k``, ...).

Examples
--------
>>> from posenc_math.theorems import get
>>> get("t5-buckets").scope, get("deberta-relative").scope
('computation', 'general')
>>> i, j = sympy.symbols("i j", integer=True)
>>> DELTA(i, j).unfolded()
Min(2*k - 1, Max(0, i - j + k))
"""

from __future__ import annotations

import functools

import numpy as np
import sympy
from sympy import Abs, Add, Max, Min, Mul, Sum, cos, sin

from .. import encodings
from ..witnesses import relative as numeric
from ._common import indexed_function
from .core import Chain, Conclusion, Equal, Fact, Termwise, Theorem, Witness
from .language import Definition, undefined_function
from .registry import register

PAGE = "relative"
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


def _span(config):
    """Every offset whose bucket is not forced by the saturation fact: |r| <= 4 max_distance."""
    return np.arange(-4 * config[2], 4 * config[2] + 1)


def _exact_buckets() -> bool:
    for config in T5_CONFIGS:
        bidirectional, buckets, _ = config
        n = numeric.half_of(bidirectional, buckets)
        offsets = _span(config)
        got = numeric.buckets_of(offsets, config)
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
        n = numeric.half_of(bidirectional, buckets)
        for sign in (-1, 1) if bidirectional else (-1,):
            last = n - 1 + (n if sign > 0 else 0)
            got = numeric.buckets_of(sign * np.arange(0, 4 * max_distance + 1), config)  # index = distance
            if np.any(np.diff(got) < 0) or got.max() != last:
                return False
            if not np.all(got[max_distance:] == last) or not np.all(numeric.buckets_of(sign * FAR, config) == last):
                return False
        if numeric.buckets_of(np.iinfo(np.int64).min, config) != n - 1:
            return False
    return True


def _first_distance_of_last_bucket(config) -> int:
    dist = np.arange(0, config[2] + 1)
    got = numeric.buckets_of(-dist, config)
    return int(dist[got == got.max()].min())


def _used(config) -> set:
    return set(np.unique(numeric.buckets_of(_span(config), config)).tolist())


def _standard_usage() -> bool:
    return (
        _used(numeric.ENCODER) == set(range(32)) - {16}
        and _used(numeric.DECODER) == set(range(32))
        and _first_distance_of_last_bucket(numeric.ENCODER) == 91
        and _first_distance_of_last_bucket(numeric.DECODER) == 113
    )


def _bidirectional_middle_unused() -> bool:
    return all(config[1] // 2 not in _used(config) and 0 in _used(config) for config in T5_CONFIGS if config[0])


@register("t5-buckets", page=PAGE)
def t5_buckets() -> Theorem:
    r = sympy.Symbol("r", integer=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    distance = sympy.Symbol("D", integer=True, positive=True)
    bucket = undefined_function("bucket", real=True, latex=r"\operatorname{bucket}")
    encoder = undefined_function("bucket_enc", real=True, latex=r"\operatorname{bucket}^{\mathrm{enc}}")
    configs = (
        r"checked for every configuration with $B \in \{8, 16, 32, 64, 128\}$ buckets and max distance "
        r"$D \in \{32, 64, 128, 256, 1024\}$ ($D > n/2$), both directions, $n = B/2$ (bidirectional) or $B$ "
        r"buckets per side; at $|r| \le 4D$ and $|r| = 2^{20}, 2^{31}, 2^{40}, 2^{62}, 2^{63} - 1$, $r = -2^{63}$"
    )
    exact = Conclusion(
        bucket(r),
        -r,
        (r, n),
        where=r"$r$ = key $-$ query; no other offset shares the bucket; " + configs,
        assuming=(sympy.LessThan(r, 0, evaluate=False), sympy.StrictLessThan(-r, n / 2, evaluate=False)),
    )
    after = Conclusion(
        bucket(r),
        r + n,
        (r, n),
        where="bidirectional configurations; no other offset shares the bucket",
        assuming=(sympy.StrictGreaterThan(r, 0, evaluate=False), sympy.StrictLessThan(r, n / 2, evaluate=False)),
    )
    saturated = Conclusion(
        bucket(r),
        n - 1,
        (r, n, distance),
        where=r"buckets never decrease with $|r|$ (bidirectionally, $r \ge D$ gives $2n - 1$); the same configurations",
        assuming=(sympy.LessThan(r, -distance, evaluate=False),),
    )
    unused = Conclusion(
        encoder(r),
        sympy.Integer(16),
        (r,),
        relation="!=",
        where=r"T5's encoder: bidirectional, $B = 32$, $D = 128$; every integer $r$ (by the saturation above); "
        r"bidirectionally bucket $B/2$ is never used, for every configuration checked",
    )
    standard = Fact(
        "T5 32/128: the encoder uses every bucket but 16, the decoder all 32; the last bucket starts at "
        "distance 91 (encoder) and 113 (decoder)",
        _standard_usage,
        "so 'saturates at max_distance' understates it: 91..127 already share the last bucket",
    )
    exact_check = Fact(
        "exact buckets: |r| < num_buckets/4 (bidirectional) or -r < num_buckets/2 (unidirectional) "
        "gets bucket |r| (+ num_buckets/2 for r > 0), and no other offset shares it (the decoder's "
        "bucket 0 also takes every future key r > 0)",
        _exact_buckets,
        "every listed configuration, every offset |r| <= 4 max_distance",
        establishes=exact,
    )
    steps = (
        exact_check,
        Fact(exact_check.claim, _exact_buckets, "the keys after the query, bidirectionally", establishes=after),
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
            lambda: _bidirectional_middle_unused() and 16 not in _used(numeric.ENCODER),
            "every listed bidirectional configuration",
            establishes=unused,
        ),
        standard,
    )

    return Theorem(
        id="t5-buckets",
        title="T5's buckets: which are exact, where they saturate, and bucket 16 is never used",
        conclusions=(exact, after, saturated, unused),
        steps=steps,
        witness=Witness(
            "t5_bucket (float32 logarithm, as the reference) vs the bucket in exact arithmetic (40-digit "
            "logarithm) on |r| <= 2 max_distance: number of offsets that differ, for 32/128 both directions, "
            "64/256, 16/64 and 128/512 unidirectional",
            numeric.t5_buckets,
            0.0,
            licenses="posenc_math.encodings.t5_bucket",
        ),
        negative_control=Fact(
            "every bucket 0 .. 31 is used by T5's encoder (bidirectional, 32 buckets, max_distance 128)",
            lambda: _used(numeric.ENCODER) == set(range(32)),
            counterexample={"bucket": 16, "bidirectional": 1, "num_buckets": 32, "max_distance": 128},
        ),
        scope="computation",
        scope_note=(
            r"exhaustive over $|r| \le 4D$ and six far offsets up to the int64 range, for "
            + str(len(T5_CONFIGS))
            + r" configurations ($B \in \{8, \ldots, 128\}$, $D \in \{32, \ldots, 1024\}$, both directions); "
            r"beyond $4D$ the buckets are "
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


# --------------------------------------------------------------------------
# Transformer-XL (Dai et al. 2019, section 3.3)
#: Query and key positions and the common shift (integers, as the library takes them).
I_, J_, S_ = sympy.symbols("i j s", integer=True)
#: The pair index and the number of sinusoid pairs h (the relative encoding has 2h coordinates).
P_ = sympy.Symbol("p", integer=True, nonnegative=True)
H_ = sympy.Symbol("h", integer=True, positive=True)
#: z = W_R^T (q_i + v), coordinate by coordinate; omega_p the frequency of pair p.
Z_ = indexed_function("z", real=True)
FREQ_ = indexed_function("\\omega", positive=True)


def _minus(one, other):
    """``one - other`` as the library computes it (query position minus key position), kept as written."""
    return Add(one, Mul(-1, other, evaluate=False), evaluate=False)


def _xl_position_terms(x_sin, x_cos, y_sin, y_cos, angle):
    """Terms (b) + (d) of one sinusoid pair: q.W_R R and v.W_R R, read off the same R."""
    return Add(x_sin * sin(angle), x_cos * cos(angle), y_sin * sin(angle), y_cos * cos(angle), evaluate=False)


def _xl_regrouped(x_sin, x_cos, y_sin, y_cos, angle):
    """(q + v).W_R R for one pair: the two terms regrouped."""
    return Add(Mul(x_sin + y_sin, sin(angle), evaluate=False), Mul(x_cos + y_cos, cos(angle), evaluate=False))


@register("transformer-xl-relative", page=PAGE)
def transformer_xl_relative() -> Theorem:
    x_sin, x_cos, y_sin, y_cos = sympy.symbols("x_p x_{p+h} y_p y_{p+h}", real=True)
    omega = sympy.Symbol("omega_p", positive=True)
    shifted = Mul(omega, _minus(Add(I_, S_, evaluate=False), Add(J_, S_, evaluate=False)), evaluate=False)
    offset = omega * (I_ - J_)
    pair_start = _xl_position_terms(x_sin, x_cos, y_sin, y_cos, shifted)
    pair_regrouped = _xl_regrouped(x_sin, x_cos, y_sin, y_cos, shifted)
    pair_end = _xl_regrouped(x_sin, x_cos, y_sin, y_cos, offset)
    pair_symbols = (x_sin, x_cos, y_sin, y_cos, omega, I_, J_, S_)
    pair = Conclusion(
        pair_start,
        pair_end,
        pair_symbols,
        where=r"one sinusoid pair $p$ of frequency $\omega_p$; $x = W_R^{\top} q_i$ and $y = W_R^{\top} v$ "
        r"(coordinate $p$ meets $\sin$, coordinate $p + h$ meets $\cos$)",
    )

    pair_shifted = Mul(FREQ_(P_), _minus(Add(I_, S_, evaluate=False), Add(J_, S_, evaluate=False)), evaluate=False)

    def pair_term(angle):
        return Add(Z_(P_) * sin(angle), Z_(P_ + H_) * cos(angle), evaluate=False)

    sum_start = Sum(pair_term(pair_shifted), (P_, 0, H_ - 1))
    sum_end = Sum(pair_term(FREQ_(P_) * (I_ - J_)), (P_, 0, H_ - 1))
    every_width = Conclusion(
        sum_start,
        sum_end,
        (I_, J_, S_, H_),
        where=r"(b) + (d) $= z^{\top} R_{i-j}$ with $z = W_R^{\top} (q_i + v)$, summed over the $h$ pairs of "
        r"$R_{i-j}$: $\sin(\omega_p (i - j))$ for $p < h$, then the cosines (Transformer-XL's layout), any "
        r"frequencies $\omega_p > 0$; (a) $q_i^{\top} k_j$ and (c) $u^{\top} k_j$ do not involve positions",
    )
    chain = Chain(
        pair_start,
        [
            (pair_regrouped, r"(b) and (d) read the same $R$"),
            (pair_end, r"the shift cancels in $i - j$"),
        ],
    )
    cancel = Termwise(sum_start, sum_end, "each pair: the shift cancels")

    return Theorem(
        id="transformer-xl-relative",
        title="Transformer-XL's position terms depend only on $i - j$, for every width",
        conclusions=(pair, every_width),
        steps=(chain, cancel),
        witness=Witness(
            "transformer_xl_scores with every query and key moved by s = 0, 1, 977, 10^6, 2^40 vs the "
            "40-digit (a) + (c) + (q_i + v).W_R R_{i-j} at the unshifted offsets; error / (1 + largest score); "
            "widths 4 and 3, relative widths 6 and 4, bases 10^4 and 500",
            numeric.transformer_xl_relative,
            1e-14,
            licenses="posenc_math.encodings.transformer_xl_scores",
        ),
        negative_control=Conclusion(
            pair_start, _xl_regrouped(x_sin, x_cos, y_sin, y_cos, omega * (I_ + J_)), pair_symbols
        ),
        scope="general",
        scope_note=(
            "symbolic in the positions, the shift, the projected weights, the frequencies and the number of "
            "sinusoid pairs h"
        ),
        proof=(
            r"Terms (b) and (d) multiply the same vector $W_R R_{i-j}$, so they regroup into "
            r"$(q_i + v)^{\top} W_R R_{i-j}$; for one sinusoid pair, with both positions moved by $s$,",
            chain,
            r"The relative encoding is a sum over its $h$ pairs, each handled alone, so the same holds at every "
            r"width:",
            cancel,
        ),
        lead=(
            r"Transformer-XL's score is the sum of terms (a) to (d) above; positions enter only in (b) "
            r"$q_i^{\top} W_R R_{i-j}$ and (d) $v^{\top} W_R R_{i-j}$."
        ),
        remarks=(
            r"The negative control reads $R_{j-i}$, the key-minus-query offset of T5 on this page: the sine terms "
            r"change sign, so it is not Transformer-XL's score."
        ),
    )


# --------------------------------------------------------------------------
# DeBERTa (He et al. 2021, section 3.1)
#: Half the number of rows of DeBERTa's relative table (k > 0): it has 2k rows.
K = sympy.Symbol("k", integer=True, positive=True)


def clip(value, last):
    """``min(max(value, 0), last)`` as written (unevaluated): the library's ``np.clip(value, 0, last)``."""
    return Min(Max(value, 0, evaluate=False), last, evaluate=False)


_query, _key = sympy.symbols("i_q j_k", integer=True)
#: delta(i, j) = clip(i - j + k, 0, 2k - 1): the row of the relative table query i and key j read.
DELTA = Definition("delta", (_query, _key), clip(_query - _key + K, 2 * K - 1), r"\delta\left({0}, {1}\right)")


@register("deberta-relative", page=PAGE)
def deberta_relative() -> Theorem:
    d = sympy.Symbol("d", integer=True, positive=True)
    content = sympy.Symbol("c", real=True)
    c2p, p2c = indexed_function("f", real=True), indexed_function("g", real=True)
    moved_i, moved_j = Add(I_, S_, evaluate=False), Add(J_, S_, evaluate=False)
    index = Conclusion(DELTA(moved_i, moved_j), DELTA(I_, J_), (I_, J_, S_, K))

    def score(query, key):
        # c2p reads row delta(i, j), p2c row delta(j, i): the key seen from the query's place
        total = Add(content, c2p(DELTA(query, key)), p2c(DELTA(key, query)), evaluate=False)
        return Mul(total, sympy.Pow(sympy.sqrt(3 * d), -1, evaluate=False), evaluate=False)

    scores = Conclusion(
        score(moved_i, moved_j),
        score(I_, J_),
        (content, I_, J_, S_, K, d),
        where=r"the same two tokens moved from $i, j$ to $i + s, j + s$: $c = Q^c_i \cdot K^c_j$, "
        r"$f_r = Q^c_i \cdot K^r_r$ and $g_r = K^c_j \cdot Q^r_r$ for table row $r$; width $d$",
    )
    after = sympy.GreaterThan(I_ - J_, K, evaluate=False)
    last = Conclusion(
        DELTA(I_, J_), 2 * K - 1, (I_, J_, K), where="a query $k$ or more positions after its key", assuming=(after,)
    )
    boundary = Conclusion(DELTA(J_ + K - 1, J_), 2 * K - 1, (J_, K), where="a query $k - 1$ after its key")
    before = sympy.LessThan(I_ - J_, -K, evaluate=False)
    first = Conclusion(
        DELTA(I_, J_),
        sympy.S.Zero,
        (I_, J_, K),
        where="a query $k$ or more positions before its key",
        assuming=(before,),
    )
    inside = Conclusion(
        DELTA(I_, J_),
        I_ - J_ + K,
        (I_, J_, K),
        where=r"offsets $-k \le i - j < k$: each reads its own row",
        assuming=(sympy.GreaterThan(I_ - J_, -K, evaluate=False), sympy.StrictLessThan(I_ - J_, K, evaluate=False)),
    )
    steps = (
        Equal(index.lhs, index.rhs, r"the clip reads $(i + s) - (j + s) = i - j$ only"),
        Equal(scores.lhs, scores.rhs, "both rows unchanged"),
        Equal(last.lhs, last.rhs, r"$i - j + k \ge 2k > 2k - 1$: clipped to the last row", assuming=last.assuming),
        Equal(boundary.lhs, boundary.rhs, "already the last row"),
        Equal(first.lhs, first.rhs, r"$i - j + k \le 0$: the first row", assuming=first.assuming),
        Equal(inside.lhs, inside.rhs, r"$0 \le i - j + k \le 2k - 1$: not clipped", assuming=inside.assuming),
    )
    return Theorem(
        id="deberta-relative",
        title="DeBERTa's scores depend on the positions only through the clipped offset",
        conclusions=(index, scores, last, boundary, first, inside),
        steps=steps,
        witness=Witness(
            "deberta_relative_index vs the paper's three cases (mismatches, n <= 30, k <= 16); deberta_scores "
            "of the same tokens after s = 0, 1, 5, 37 other ones vs the 40-digit three-term score at the "
            "unshifted positions, error / (1 + largest score)",
            numeric.deberta_relative,
            1e-14,
            licenses="posenc_math.encodings.deberta_scores",
        ),
        negative_control=Conclusion(DELTA(I_, J_), 2 * K, (I_, J_, K), assuming=(after,)),
        scope="general",
        scope_note="symbolic in the positions, the shift, the table size $2k$, the width $d$ and the content terms",
        proof=(
            r"The index is the offset plus $k$, clipped: $\delta(i, j) = \min(\max(i - j + k, 0), 2k - 1)$ "
            r"(the library's np.clip), so moving both positions by $s$ changes nothing,",
            steps[0],
            r"and the score, which meets positions only in the rows it reads, is unchanged too:",
            steps[1],
            r"Beyond the clip every offset reads the same row, inside it each its own:",
            steps[2],
            steps[3],
            steps[4],
            steps[5],
        ),
        lead=(
            r"DeBERTa's table has $2k$ rows; query $i$ and key $j$ read row $\delta(i, j)$ (content to "
            r"position) and row $\delta(j, i)$ (position to content)."
        ),
        remarks=(
            r"Offsets $-k, \dots, k - 1$ each read their own row; the last row is shared from $i - j = k - 1$ on. "
            r"The negative control is Shaw et al.'s clip to $[-k, k]$, whose table has $2k + 1$ rows."
        ),
    )


# --------------------------------------------------------------------------
# DeBERTa-v2 and v3: logarithmic buckets (transformers' make_log_bucket_position, float32)
#: Far offsets whose rows are checked too (up to the int64 range).
DEBERTA_FAR = np.array([2**31, 2**40, 2**62, 2**63 - 1])


def _rows(buckets_of_offsets: np.ndarray, config: tuple[int, int]) -> np.ndarray:
    """The table row a bucket reads: clip(bucket + B, 0, 2B - 1)."""
    return np.clip(buckets_of_offsets + config[0], 0, 2 * config[0] - 1)


def _regions(config: tuple[int, int]) -> dict[str, int | None]:
    return encodings.deberta_bucket_regions(*config)


@functools.cache
def _deberta_enumeration() -> dict[str, bool]:
    """Each claim of deberta-v2-buckets, enumerated once per process over every |d| <= 2**20 and each setting.

    ``"exact"``: bucket(d) = d for |d| <= E and |bucket(d)| < |d| beyond (so E is the largest such);
    ``"odd"``, ``"monotone"``; ``"rows"``: the row is the last exactly from L on and the first exactly up to F,
    also at far offsets up to the int64 range.  The distances go in order, a chunk at a time
    (:func:`~posenc_math.witnesses.relative.offset_chunks`), each with both signs; ``"monotone"`` carries each
    chunk's last buckets to the next.
    """
    found = {"exact": True, "odd": True, "monotone": True, "rows": True}
    for config in numeric.DEBERTA_V2_CONFIGS:
        regions = _regions(config)
        exact_up_to, last_from, first_from = regions["exact_up_to"], regions["last_row_from"], regions["first_row_from"]
        last, first = 2 * config[0] - 1, 0
        # every setting here has all three regions (only 2 or 3 buckets lack the clipped rows)
        assert exact_up_to is not None and last_from is not None and first_from is not None, config
        previous_ahead = previous_behind = None
        for distances in numeric.offset_chunks(0, numeric.DEBERTA_V2_REACH):
            ahead, behind = numeric.log_buckets(distances, config), numeric.log_buckets(-distances, config)
            near = int(np.searchsorted(distances, exact_up_to, side="right"))  # distances[:near] <= E
            for got, offsets in ((ahead, distances), (behind, -distances)):
                found["exact"] &= bool(
                    np.array_equal(got[:near], offsets[:near]) and np.all(np.abs(got[near:]) < distances[near:])
                )
                # rows lie in [first, last]: the last row exactly where offset >= L, the first exactly where <= F
                rows = _rows(got, config)
                found["rows"] &= bool(
                    np.array_equal(rows == last, offsets >= last_from)
                    and np.array_equal(rows == first, offsets <= first_from)
                )
            found["odd"] &= bool(np.array_equal(behind, -ahead))
            # bucket(d) never decreases for d = 0, 1, ... and never increases for d = 0, -1, ...
            found["monotone"] &= bool(
                np.all(np.diff(ahead) >= 0)
                and np.all(np.diff(behind) <= 0)
                and (previous_ahead is None or (ahead[0] >= previous_ahead and behind[0] <= previous_behind))
            )
            previous_ahead, previous_behind = ahead[-1], behind[-1]
        far = _rows(numeric.log_buckets(np.concatenate([DEBERTA_FAR, -DEBERTA_FAR]), config), config)
        found["rows"] &= bool(
            np.all(far[: DEBERTA_FAR.size] == last)
            and np.all(far[DEBERTA_FAR.size :] == first)
            and _rows(numeric.log_buckets(np.iinfo(np.int64).min, config), config) == first
        )
    return found


def _first_shared(config: tuple[int, int]) -> int:
    """The smallest d > 0 whose bucket is its predecessor's."""
    offsets = np.arange(0, 4 * config[1] + 1)
    got = numeric.log_buckets(offsets, config)
    return int(offsets[1:][got[1:] == got[:-1]].min())


@register("deberta-v2-buckets", page=PAGE)
def deberta_v2_buckets() -> Theorem:
    d = sympy.Symbol("d", integer=True)
    buckets, largest = numeric.DEBERTA_V2
    regions = _regions(numeric.DEBERTA_V2)
    exact_up_to, last_from, first_from = regions["exact_up_to"], regions["last_row_from"], regions["first_row_from"]
    bucket = undefined_function("bucket_v2", real=True, latex=r"\operatorname{bucket}")
    row = Definition(
        "row_v2",
        (d,),
        Min(Max(Add(bucket(d), buckets, evaluate=False), 0, evaluate=False), 2 * buckets - 1, evaluate=False),
        r"\operatorname{{row}}({0})",
    )
    power = sympy.Pow(2, 20, evaluate=False)
    assert int(power) == numeric.DEBERTA_V2_REACH
    reach = sympy.LessThan(Abs(d), power, evaluate=False)
    others = "; ".join(
        f"({b}, {m}): $E = {r['exact_up_to']}$, $L = {r['last_row_from']}$, $F = {r['first_row_from']}$"
        for (b, m), r in ((config, _regions(config)) for config in numeric.DEBERTA_V2_CONFIGS[1:])
    )
    exact = Conclusion(
        bucket(d),
        d,
        (d,),
        where=rf"$B = {buckets}$ buckets, $M = {largest}$ (DeBERTa-v2, DeBERTaV3)",
        assuming=(sympy.LessThan(Abs(d), exact_up_to, evaluate=False),),
    )
    smaller = Conclusion(
        Abs(bucket(d)),
        Abs(d),
        (d,),
        relation="<",
        assuming=(sympy.StrictGreaterThan(Abs(d), exact_up_to, evaluate=False), reach),
    )
    odd = Conclusion(bucket(-d), -bucket(d), (d,), assuming=(reach,))
    monotone = Conclusion(
        bucket(d),
        bucket(d + 1),
        (d,),
        relation="<=",
        assuming=(sympy.GreaterThan(d, -power, evaluate=False), sympy.StrictLessThan(d, power, evaluate=False)),
    )
    last = Conclusion(
        row(d),
        2 * buckets - 1,
        (d,),
        where=(
            r"beyond $|d| \le 2^{20}$ the rows are checked only at $d = 2^{31}, 2^{40}, 2^{62}, 2^{63} - 1$ "
            r"(the last row) and $d = -2^{31}, -2^{40}, -2^{62}, -(2^{63} - 1), -2^{63}$ (the first)"
        ),
        assuming=(sympy.GreaterThan(d, last_from, evaluate=False), sympy.LessThan(d, power, evaluate=False)),
    )
    first = Conclusion(
        row(d),
        sympy.S.Zero,
        (d,),
        assuming=(sympy.LessThan(d, first_from, evaluate=False), sympy.GreaterThan(d, -power, evaluate=False)),
    )
    steps = (
        Fact(
            f"bucket(d) = d for every |d| <= {exact_up_to}, and |bucket(d)| < |d| for {exact_up_to} < |d| <= 2^20",
            lambda: _deberta_enumeration()["exact"],
            "every |d| <= 2^20, each setting with its own E",
            establishes=exact,
        ),
        Fact(
            "the same enumeration: no offset beyond E keeps its own value",
            lambda: _deberta_enumeration()["exact"],
            "every |d| <= 2^20, each setting",
            establishes=smaller,
        ),
        Fact(
            "bucket(-d) = -bucket(d) for every |d| <= 2^20",
            lambda: _deberta_enumeration()["odd"],
            "each setting",
            establishes=odd,
        ),
        Fact(
            "bucket(d) <= bucket(d + 1) for every -2^20 <= d < 2^20",
            lambda: _deberta_enumeration()["monotone"],
            "each setting",
            establishes=monotone,
        ),
        Fact(
            f"row(d) = {2 * buckets - 1} exactly for {last_from} <= d <= 2^20 and row(d) = 0 exactly for "
            f"-2^20 <= d <= {first_from}, and both at d = ±2^31, ±2^40, ±2^62, ±(2^63 - 1), -2^63",
            lambda: _deberta_enumeration()["rows"],
            "each setting with its own L and F",
            establishes=last,
        ),
        Fact(
            "the same enumeration, the first row",
            lambda: _deberta_enumeration()["rows"],
            "each setting",
            establishes=first,
        ),
    )
    shared = _first_shared(numeric.DEBERTA_V2)
    return Theorem(
        id="deberta-v2-buckets",
        title=(
            f"DeBERTa-v2's buckets: exact up to {exact_up_to}, then logarithmic, odd and never decreasing; rows "
            f"clipped from {last_from} and {first_from}"
        ),
        conclusions=(exact, smaller, odd, monotone, last, first),
        steps=steps,
        witness=Witness(
            "deberta_log_bucket at every |d| <= 2^20, both signs, for (B, M) = (256, 512), (128, 512), (64, 256), "
            "(512, 1024), vs make_log_bucket_position's formula in exact arithmetic (50-digit logarithms) and, at "
            "the few offsets where they differ, vs its float32 steps carried out at 50 digits, each rounded to "
            "the nearest float32: the number of offsets that match neither",
            numeric.deberta_v2_buckets,
            0.0,
            licenses="posenc_math.encodings.deberta_log_bucket",
        ),
        negative_control=Fact(
            f"every |d| <= {buckets} gets its own bucket (B = {buckets}, M = {largest})",
            lambda: (
                len(set(numeric.log_buckets(np.arange(-buckets, buckets + 1), numeric.DEBERTA_V2).tolist()))
                == 2 * buckets + 1
            ),
            counterexample={
                "d": shared,
                "bucket(d)": int(numeric.log_buckets(shared, numeric.DEBERTA_V2)),
                "bucket(d - 1)": int(numeric.log_buckets(shared - 1, numeric.DEBERTA_V2)),
                "position_buckets": buckets,
                "max_relative_positions": largest,
            },
        ),
        scope="computation",
        scope_note=(
            f"exhaustive over every $|d| \\le 2^{{20}}$ (no larger $d$ except the far offsets named) for $(B, M) = "
            f"({buckets}, {largest})$ and the settings {others}; the buckets are those of deberta_log_bucket "
            "(make_log_bucket_position's formula, each float32 step rounded to nearest), matched against the "
            "formula in exact arithmetic by the witness"
        ),
        proof=(
            r"Every offset with $|d| \le 2^{20}$ is enumerated, for each setting listed, and the rows are computed "
            r"at the far offsets named. Nothing here is argued for the offsets in between: the statement stops at "
            r"$2^{20}$.",
        ),
        lead=(
            r"$d = i - j$, query minus key; $\operatorname{bucket}$ is the formula of transformers' "
            r"`make_log_bucket_position` in float32, each step rounded to the nearest float32 "
            rf"(`posenc_math.deberta_log_bucket`), with $B = {buckets}$ `position_buckets` and $M = {largest}$ "
            r"`max_relative_positions`, and the model reads row $\operatorname{row}(d)$ of its table of $2B$ rows. "
            rf"With $E = {exact_up_to}$, $L = {last_from}$, $F = {first_from}$:"
        ),
        remarks=(
            r"In these four settings transformers' own buckets (torch) agree with these for every $|d| \le 2^{16}$; "
            r"beyond, torch's float32 logarithm is an ulp off on a few inputs and moves its bucket by one there "
            r"(the opt-in reference suite compares every $|d| \le 2^{21}$). "
            rf"The negative control claims every $|d| \le {buckets}$ its own bucket; $d = {shared}$ shares "
            rf"bucket {int(numeric.log_buckets(shared, numeric.DEBERTA_V2))} with $d - 1$."
        ),
    )
