"""Theorems beyond the sinusoid: RoPE, its layouts and the NTK base, ALiBi, T5 buckets.

Statements about every rotary width ``d`` are proved on one generic pair
with a symbolic frequency ``omega`` (RoPE rotates each pair on its own, with
its own ``omega_j``), on a small ``d`` with symbolic components where the
layout matters, and the assembly into ``d`` dimensions is checked against
the numpy functions (:func:`~posenc_math.rope`, ...) for many ``d``.
Claims about T5's buckets are exhaustive checks of :func:`~posenc_math.t5_bucket`
over every offset that can behave differently (the buckets are monotone in
the distance and constant from ``max_distance`` on).

Conventions are the library's: a RoPE pair ``(a, b)`` at position ``p``
becomes ``(a cos pw - b sin pw, a sin pw + b cos pw)``, i.e. it is turned
by ``R(pw)`` with ``R(theta) = [[cos theta, -sin theta], [sin theta, cos
theta]]``; T5's ``relative_position`` is key minus query.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.negative_control) for r in verify(["rope-layout-permutation"])]
[('rope-layout-permutation', 'verified', 'rejected')]
>>> rope_rotation(sympy.pi / 2) * Matrix([1, 0])  # (a, b) -> (a cos - b sin, a sin + b cos)
Matrix([
[0],
[1]])
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy
from sympy import Matrix, cos, exp, log, sin

from ..encodings import (
    alibi_bias,
    alibi_key_bias,
    alibi_slopes,
    causal_mask,
    interleaved_to_half,
    ntk_aware_base,
    rope,
    rope_frequencies,
    rope_relative_scores,
    softmax,
    t5_bucket,
)
from ._common import mp_context, seeded, t, w
from .check import decide_equal
from .core import Chain, Equal, Fact, Theorem, Witness
from .registry import register

PAGE_ROPE = "rope"
PAGE_CONTEXT = "context-extension"
PAGE_ALIBI = "alibi"
PAGE_RELATIVE = "relative"

#: Rotary widths on which the assembly of pairs is checked against rope().
ROPE_DIMS = (2, 4, 6, 8, 16, 64, 128, 256)
ROPE_LAYOUTS = ("half", "interleaved")

# Positions of query and key, their offset (key - query).
m_, n_, r_ = sympy.symbols("m n r", real=True)


def _largest(errors) -> float:
    return float(max(abs(e) for e in errors)) if errors else 0.0


def rope_rotation(angle):
    """RoPE's 2 x 2 rotation [[cos, -sin], [sin, cos]]: (a, b) -> (a cos - b sin, a sin + b cos)."""
    return Matrix([[cos(angle), -sin(angle)], [sin(angle), cos(angle)]])


def _pairs(dim, layout):
    """Index pairs (first, second) of each rotary pair in ``layout``."""
    h = dim // 2
    if layout == "half":
        return [(j, j + h) for j in range(h)]
    return [(2 * j, 2 * j + 1) for j in range(h)]


def _rope_symbolic(x, position, freqs, layout):
    """RoPE on a sympy column ``x``, written out pair by pair as the library defines it."""
    out = [None] * len(x)
    for (i, j), freq in zip(_pairs(len(x), layout), freqs):
        turned = rope_rotation(position * freq) * Matrix([x[i], x[j]])
        out[i], out[j] = turned[0], turned[1]
    return Matrix(out)


def _pair_score(q0, q1, k0, k1, angle):
    """One pair's contribution to <R(m w) q, R(n w) k>, with angle = (n - m) w."""
    return (q0 * k0 + q1 * k1) * cos(angle) + (q1 * k0 - q0 * k1) * sin(angle)


def _dot(u, v):
    return (u.T * v)[0]


def _mp_scores(query, key, offsets, dim, base, layout):
    """Exact RoPE scores for each offset (key - query), 40 digits, from the pair formula."""
    freqs = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * j) / dim) for j in range(dim // 2)]
    scores = []
    for offset in offsets:
        total = mpmath.mpf(0)
        for (i, j), freq in zip(_pairs(dim, layout), freqs):
            angle = offset * freq
            q0, q1, k0, k1 = (mpmath.mpf(float(v)) for v in (query[i], query[j], key[i], key[j]))
            total += (q0 * k0 + q1 * k1) * mpmath.cos(angle) + (q1 * k0 - q0 * k1) * mpmath.sin(angle)
        scores.append(total)
    return scores


def _numpy_scores(query, key, query_positions, offset, base, layout):
    """rope() scores <rope(q, m), rope(k, m + offset)> for each query position m."""
    m = np.asarray(query_positions)
    rq = rope(np.tile(query, (len(m), 1)), m, base=base, layout=layout)
    rk = rope(np.tile(key, (len(m), 1)), m + offset, base=base, layout=layout)
    return np.einsum("nd,nd->n", rq, rk)


# --------------------------------------------------------------------------
def _rope_assembly_matches() -> bool:
    """rope() equals the symbolic 2 x 2 rotation applied pair by pair, every listed d, both layouts."""
    theta = sympy.Symbol("theta", real=True)
    block = sympy.lambdify(theta, rope_rotation(theta), "numpy")
    rng = np.random.default_rng(5)
    positions = np.array([0, 1, 7, 100, 1000])
    for dim in ROPE_DIMS:
        x = rng.normal(size=(len(positions), dim))
        freqs = 10000.0 ** (-np.arange(0, dim, 2) / dim)
        rotations = np.asarray(block(positions[:, None] * freqs[None, :]))  # (2, 2, n, pairs)
        for layout in ROPE_LAYOUTS:
            first, second = np.array(_pairs(dim, layout)).T
            turned = np.einsum("abnp,bnp->anp", rotations, np.stack([x[:, first], x[:, second]]))
            expected = np.empty_like(x)
            expected[:, first], expected[:, second] = turned[0], turned[1]
            if not np.allclose(rope(x, positions, layout=layout), expected, rtol=0, atol=1e-11):
                return False
    return True


@register("rope-relative", page=PAGE_ROPE)
def rope_relative() -> Theorem:
    q0, q1, k0, k1 = sympy.symbols("q_0 q_1 k_0 k_1", real=True)
    q, k = Matrix([q0, q1]), Matrix([k0, k1])
    score = _dot(rope_rotation(m_ * w) * q, rope_rotation(n_ * w) * k)
    relative = _pair_score(q0, q1, k0, k1, (n_ - m_) * w)
    theta = sympy.Symbol("theta", real=True)
    turned = rope_rotation(theta) * q

    # d = 4, half layout: pairs (0, 2) and (1, 3), two symbolic frequencies.
    w0, w1 = sympy.symbols("omega_0 omega_1", positive=True)
    q4 = Matrix(sympy.symbols("q_0:4", real=True))
    k4 = Matrix(sympy.symbols("k_0:4", real=True))
    score4 = _dot(_rope_symbolic(q4, m_, (w0, w1), "half"), _rope_symbolic(k4, n_, (w0, w1), "half"))
    sum4 = sum(_pair_score(q4[i], q4[j], k4[i], k4[j], (n_ - m_) * f) for (i, j), f in zip(_pairs(4, "half"), (w0, w1)))

    def witness():
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
                for offset, value in zip(offsets, exact):
                    # the same offset at many query positions, up to 5000
                    starts = [rng.randrange(max(0, -offset), 5000) for _ in range(8)]
                    computed = _numpy_scores(query, key, starts, offset, base, layout)
                    errors += [(mpmath.mpf(float(c)) - value) / scale for c in computed]
                    if layout == "half":
                        via = rope_relative_scores(query, key, [offset], base=base)[0]
                        errors.append((mpmath.mpf(float(via)) - value) / scale)
        return _largest(errors)

    return Theorem(
        id="rope-relative",
        title="RoPE attention scores depend only on the offset",
        statement=(
            r"\langle R(m\omega)\,q,\ R(n\omega)\,k\rangle = \langle q,\ R((n-m)\omega)\,k\rangle"
            r" = (q_0k_0 + q_1k_1)\cos(n-m)\omega + (q_1k_0 - q_0k_1)\sin(n-m)\omega,\\"
            r"R(\theta) = \begin{pmatrix}\cos\theta & -\sin\theta\\ \sin\theta & \cos\theta\end{pmatrix};\\"
            r"\text{summed over the pairs, the score of a query at } m \text{ and a key at } n"
            r"\text{ is a function of } n - m \text{ alone}"
        ),
        assumptions=[
            "$m, n$ real positions of the query and the key; $q, k$ real",
            r"$\omega > 0$ (any frequency: every pair of every $d$, any base, any scaling rule)",
            "proved on one generic pair with symbolic frequency and on $d = 4$ (half layout) with two "
            "symbolic frequencies; each pair turns on its own, so the score is the sum over pairs for every $d$",
            "the pairwise assembly is checked against `rope()` for $d$ in "
            + ", ".join(map(str, ROPE_DIMS))
            + ", both layouts",
        ],
        steps=[
            Equal(
                turned[0] + sympy.I * turned[1],
                (q0 + sympy.I * q1) * exp(sympy.I * theta),
                "as a complex number q_0 + i q_1, R(theta) multiplies by e^{i theta}",
            ),
            Chain(
                score,
                [
                    (_dot(q, rope_rotation(m_ * w).T * rope_rotation(n_ * w) * k), "transpose of a product"),
                    (
                        _dot(q, rope_rotation(-m_ * w) * rope_rotation(n_ * w) * k),
                        "R(theta)^T = R(-theta): cos even, sin odd",
                    ),
                    (_dot(q, rope_rotation((n_ - m_) * w) * k), "R(a) R(b) = R(a + b): angle addition"),
                    (relative, "multiply out"),
                    (
                        sympy.re(
                            (q0 + sympy.I * q1) * sympy.conjugate(k0 + sympy.I * k1) * exp(-sympy.I * (n_ - m_) * w)
                        ),
                        "Re(z_q conj(z_k) e^{-i(n-m) omega}): the form rope_relative_scores evaluates",
                    ),
                ],
            ),
            Fact(
                "with n = m + r the score has no m in it",
                lambda: m_ not in relative.subs(n_, m_ + r_).free_symbols,
                "it depends on the offset r = n - m and the frequency only",
            ),
            Equal(score4, sum4, "d = 4, half layout: the score is the sum of the pairs' scores"),
            Fact(
                "rope(x, p, layout) equals R(p w_j) applied to each pair at numpy's frequencies, d in "
                + ", ".join(map(str, ROPE_DIMS))
                + ", both layouts",
                _rope_assembly_matches,
                "pairwise assembly checked against the numpy function",
            ),
        ],
        witness=Witness(
            "rope() scores <rope(q, m), rope(k, m + r)> at 8 query positions m < 5000 per offset r, and "
            "rope_relative_scores, vs the 40-digit pair formula; error / (|q||k|); d = 8, 64, 128",
            witness,
            1e-14,
            licenses="rope",
        ),
        negative_control=Equal(score, _dot(q, rope_rotation((m_ - n_) * w) * k), "offset m - n"),
        negative_control_text=(
            r"$\langle R(m\omega)q, R(n\omega)k\rangle = \langle q, R((m-n)\omega)k\rangle$"
            r" (query minus key: the sign slip)"
        ),
    )


# --------------------------------------------------------------------------
def _layout_numpy_check() -> bool:
    rng = np.random.default_rng(6)
    for dim in ROPE_DIMS:
        perm = interleaved_to_half(dim)
        explicit = [2 * j + s for s in (0, 1) for j in range(dim // 2)]
        if perm.tolist() != explicit:
            return False
        x = rng.normal(size=(2, 3, 9, dim))
        positions = np.array([0, 1, 2, 5, 31, 100, 999, 4096, 65535])
        half = rope(x[..., perm], positions, layout="half")
        interleaved = rope(x, positions, layout="interleaved")
        if not np.allclose(half, interleaved[..., perm], rtol=0, atol=1e-15):
            return False
        # scores between every pair of positions, both ways
        if not np.allclose(
            half @ np.swapaxes(half, -1, -2), interleaved @ np.swapaxes(interleaved, -1, -2), rtol=1e-13, atol=1e-13
        ):
            return False
    return True


@register("rope-layout-permutation", page=PAGE_ROPE)
def rope_layout_permutation() -> Theorem:
    dim = 6
    freqs = sympy.symbols(f"omega_0:{dim // 2}", positive=True)
    q = Matrix(sympy.symbols(f"q_0:{dim}", real=True))
    k = Matrix(sympy.symbols(f"k_0:{dim}", real=True))
    x = Matrix(sympy.symbols(f"x_0:{dim}", real=True))
    perm = [2 * j + s for s in (0, 1) for j in range(dim // 2)]  # [0, 2, 4, 1, 3, 5]
    P = sympy.zeros(dim, dim)
    for row, column in enumerate(perm):
        P[row, column] = 1  # (P x)_row = x[perm[row]]
    inverse = [perm.index(i) for i in range(dim)]  # argsort(perm): [0, 3, 1, 4, 2, 5]
    P_inv = sympy.zeros(dim, dim)
    for row, column in enumerate(inverse):
        P_inv[row, column] = 1

    def half(v, position):
        return _rope_symbolic(v, position, freqs, "half")

    def inter(v, position):
        return _rope_symbolic(v, position, freqs, "interleaved")

    score_half = _dot(half(P * q, m_), half(P * k, n_))
    score_inter = _dot(inter(q, m_), inter(k, n_))

    def witness():
        rng = seeded("rope-layout-permutation")
        nrng = np.random.default_rng(rng.randrange(2**32))
        errors = []
        with mp_context():
            for size, base in ((6, 10000.0), (64, 10000.0), (128, 500000.0)):
                p = interleaved_to_half(size)
                query, key = nrng.normal(size=size), nrng.normal(size=size)
                scale = np.linalg.norm(query) * np.linalg.norm(key)
                offsets = [rng.randrange(-300, 300) for _ in range(4)]
                exact = _mp_scores(query, key, offsets, size, base, "interleaved")
                for offset, value in zip(offsets, exact):
                    starts = [rng.randrange(max(0, -offset), 4000) for _ in range(6)]
                    computed = _numpy_scores(query[p], key[p], starts, offset, base, "half")
                    errors += [(mpmath.mpf(float(c)) - value) / scale for c in computed]
        return _largest(errors)

    return Theorem(
        id="rope-layout-permutation",
        title="Half and interleaved RoPE give the same scores after a fixed permutation",
        statement=(
            r"\pi = (0, 2, 4, \dots, d-2,\ 1, 3, \dots, d-1),\ \text{i.e. } \pi(s\,d/2 + j) = 2j + s:\\"
            r"\mathrm{RoPE}_{\text{half}}(x_\pi, p) = \mathrm{RoPE}_{\text{interleaved}}(x, p)_\pi,"
            r"\ \text{so}\\ \langle \mathrm{RoPE}_{\text{half}}(q_\pi, m), \mathrm{RoPE}_{\text{half}}(k_\pi, n)\rangle"
            r" = \langle \mathrm{RoPE}_{\text{interleaved}}(q, m), \mathrm{RoPE}_{\text{interleaved}}(k, n)\rangle"
        ),
        assumptions=[
            r"$x_\pi[i] = x[\pi(i)]$, with $\pi$ what `interleaved_to_half(d)` returns; permuting the rows "
            r"of a head's $W_Q$ and $W_K$ by $\pi$ (as conversion scripts do) permutes $q$ and $k$ by $\pi$",
            r"the same frequencies $\omega_j$ for pair $j$ in both layouts",
            "proved symbolically for $d = 6$ with symbolic components and three symbolic frequencies; "
            "checked against `rope()` and `interleaved_to_half` for $d$ in " + ", ".join(map(str, ROPE_DIMS)),
        ],
        steps=[
            Equal(P * x, Matrix([x[i] for i in perm]), "the permutation pi as a matrix: row i picks x[pi(i)]"),
            Equal(
                half(P * x, t),
                P * inter(x, t),
                "half-layout pair j of x_pi is (x_2j, x_2j+1), interleaved pair j of x: same rotation",
            ),
            Equal(sympy.MatMul(P.T, P, evaluate=False), sympy.eye(dim), "a permutation matrix is orthogonal"),
            Chain(
                score_half,
                [
                    (_dot(P * inter(q, m_), P * inter(k, n_)), "the previous step, for q at m and k at n"),
                    ((inter(q, m_).T * P.T * P * inter(k, n_))[0], "transpose of a product"),
                    (score_inter, "P^T P = I"),
                ],
            ),
            Fact(
                "interleaved_to_half(d) == [2j + s for s in (0, 1) for j < d/2], and rope(x[..., perm], "
                "layout='half') == rope(x, layout='interleaved')[..., perm] with equal scores, d in "
                + ", ".join(map(str, ROPE_DIMS)),
                _layout_numpy_check,
                "the numpy functions, positions up to 65535",
            ),
        ],
        witness=Witness(
            "rope(q[perm], m, layout='half') . rope(k[perm], m + r, layout='half') vs the 40-digit "
            "interleaved pair formula; error / (|q||k|); d = 6, 64, 128",
            witness,
            1e-14,
            licenses="interleaved_to_half",
        ),
        negative_control=Equal(half(P_inv * x, t), P_inv * inter(x, t), "the inverse permutation"),
        negative_control_text=(
            r"for $d = 6$, the inverse $\pi^{-1} = \operatorname{argsort}\pi = (0, 3, 1, 4, 2, 5)$"
            r" (the half-to-interleaved map) also turns interleaved RoPE into half RoPE"
        ),
    )


# --------------------------------------------------------------------------
@register("ntk-base", page=PAGE_CONTEXT)
def ntk_base() -> Theorem:
    b = sympy.Symbol("b", positive=True)
    s = sympy.Symbol("s", positive=True)
    # d = 2q + 4 >= 4: SymPy then knows d/(d - 2) is real, so (b^x)^y = b^(xy).
    d = 2 * sympy.Symbol("q", integer=True, nonnegative=True) + 4
    i = sympy.Symbol("i", integer=True, nonnegative=True)
    new = sympy.Symbol("b'", positive=True)
    log_new, log_b, log_s = sympy.symbols("beta' beta sigma", real=True)  # logs of b', b, s

    def freq(base, index):
        return base ** (-2 * index / d)

    lowest = d / 2 - 1
    # The condition on the lowest frequency, after taking logs of both sides.
    condition = -(d - 2) / d * log_new - (-(d - 2) / d * log_b - log_s)
    solved_log = log_b + d / (d - 2) * log_s
    ntk = b * s ** (d / (d - 2))

    def solved() -> bool:
        solutions = sympy.linsolve([condition], [log_new])
        if len(solutions) != 1:
            return False
        ((value,),) = solutions
        return decide_equal(value, solved_log).proved

    def numpy_check() -> bool:
        for dim in (4, 8, 64, 128, 256):
            for base in (10000.0, 500000.0):
                default = rope_frequencies(dim, base=base)[0]
                for scale in (1.0, 2.0, 8.0, 32.0):
                    new_base = ntk_aware_base(base, scale, dim)
                    if not math.isclose(new_base, base * scale ** (dim / (dim - 2)), rel_tol=1e-15):
                        return False
                    stretched = rope_frequencies(dim, base=new_base)[0]
                    if stretched[0] != 1.0 or not math.isclose(stretched[-1], default[-1] / scale, rel_tol=1e-13):
                        return False
                    # dynamic NTK with factor 1 at scale times the trained length is this rule
                    trained = 4096
                    dynamic = rope_frequencies(
                        dim,
                        base=base,
                        scaling={"rope_type": "dynamic", "factor": 1.0},
                        seq_len=int(scale * trained),
                        max_position_embeddings=trained,
                    )[0]
                    if not np.allclose(dynamic, stretched, rtol=1e-13, atol=0):
                        return False
        return True

    def witness():
        errors = []
        with mp_context():
            for dim in (4, 8, 64, 128, 256):
                for base in (10000.0, 500000.0, 1e6):
                    for scale in (2.0, 4.0, 8.0, 16.0, 64.0):
                        exact = mpmath.mpf(base) * mpmath.mpf(scale) ** (mpmath.mpf(dim) / (dim - 2))
                        errors.append((mpmath.mpf(ntk_aware_base(base, scale, dim)) - exact) / exact)
                        inv_freq = rope_frequencies(dim, base=ntk_aware_base(base, scale, dim))[0]
                        slowest = mpmath.mpf(base) ** (-mpmath.mpf(dim - 2) / dim) / scale
                        errors.append((mpmath.mpf(inv_freq[-1]) - slowest) / slowest)
                        errors.append(mpmath.mpf(inv_freq[0]) - 1)
        return _largest(errors)

    return Theorem(
        id="ntk-base",
        title="The NTK-aware base b s^(d/(d-2)) slows the slowest pair by s and keeps the fastest",
        statement=(
            r"\omega_i(b) = b^{-2i/d}:\quad \omega_0(b') = \omega_0(b)\ \text{and}\ "
            r"\omega_{d/2-1}(b') = \frac{\omega_{d/2-1}(b)}{s} \iff b' = b\,s^{d/(d-2)};\\"
            r"\text{in between } \omega_i(b') = \omega_i(b)\, s^{-2i/(d-2)}"
        ),
        assumptions=[
            r"$b > 0$ the trained base, $s > 0$ the context stretch ($s \ge 1$ in use)",
            r"$d$ even, $d \ge 4$, written $d = 2q + 4$ with $q \ge 0$ an integer",
            r"the condition is solved for $\beta' = \log b'$ (a linear equation; $b' = e^{\beta'} > 0$)",
        ],
        steps=[
            Equal(freq(new, 0), 1, "i = 0: the fastest pair has frequency 1 for every base"),
            Equal(freq(new, lowest), new ** (-(d - 2) / d), "i = d/2 - 1: the slowest pair"),
            Equal(log(new ** (-(d - 2) / d)), -(d - 2) / d * log(new), "log of the left side"),
            Equal(log(freq(b, lowest) / s), -(d - 2) / d * log(b) - log(s), "log of the right side"),
            Fact(
                "linsolve: -(d-2)/d beta' = -(d-2)/d beta - sigma has the one solution "
                "beta' = beta + d/(d-2) sigma (beta = log b, sigma = log s)",
                solved,
                "solve the condition for log b'",
            ),
            Equal(exp(solved_log.subs({log_b: log(b), log_s: log(s)})), ntk, "b' = exp(beta')"),
            Equal(freq(ntk, lowest), freq(b, lowest) / s, "check: the slowest frequency is divided by s"),
            Equal(freq(ntk, 0), freq(b, 0), "check: the fastest is unchanged"),
            Equal(
                (ntk / b) ** (-2 * i / d),
                s ** (-2 * i / (d - 2)),
                "every pair: omega_i(b') / omega_i(b) = (b'/b)^(-2i/d) = s^(-2i/(d-2)), from 1 down to 1/s",
            ),
            Fact(
                "ntk_aware_base(b, s, d) == b s^(d/(d-2)); rope_frequencies with that base keeps omega_0 = 1 "
                "and divides the last by s; the 'dynamic' rule with factor 1 at s times the trained length "
                "gives the same frequencies (d in 4, 8, 64, 128, 256)",
                numpy_check,
                "the numpy functions",
            ),
        ],
        witness=Witness(
            "ntk_aware_base and the first and last rope_frequencies at that base vs 40-digit values, "
            "relative error; d = 4 .. 256, bases 1e4, 5e5, 1e6, s = 2 .. 64",
            witness,
            1e-14,
            licenses="ntk_aware_base",
        ),
        negative_control=Equal(freq(b * s, lowest), freq(b, lowest) / s, "base times s"),
        negative_control_text=r"$b' = b\,s$ (multiplying the base by the stretch) divides the slowest frequency by $s$",
    )


# --------------------------------------------------------------------------
def _paper_slopes(n):
    """The recursive get_slopes of the ALiBi authors' code (Press et al.), transcribed."""

    def power_of_2(count):
        start = 2 ** (-(2 ** -(math.log2(count) - 3)))
        return [start * start**index for index in range(count)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + _paper_slopes(2 * closest)[0::2][: n - closest]


POWERS_OF_TWO = tuple(2**p for p in range(9))  # 1 .. 256


def _slopes_geometric() -> bool:
    for n in POWERS_OF_TWO:
        slopes = alibi_slopes(n)
        exact = np.array([float(mpmath.power(2, mpmath.mpf(-8 * h) / n)) for h in range(1, n + 1)])
        # within one ulp of the exact values (bit for bit powers of two for n <= 8)
        if not np.all(np.abs(slopes - exact) <= np.spacing(exact)):
            return False
        if n <= 8 and not np.array_equal(slopes, exact):
            return False
        ratio = 2.0 ** (-8 / n)
        if not (
            np.allclose(slopes[1:] / slopes[:-1], ratio, rtol=1e-15, atol=0)
            and abs(slopes[0] - ratio) <= np.spacing(ratio)
        ):
            return False
    return True


def _slopes_paper_rule() -> bool:
    # The paper's start * start**i carries about i rounding errors; alibi_slopes is correctly rounded.
    return all(np.allclose(alibi_slopes(n), _paper_slopes(n), rtol=n * 2.0**-52, atol=0) for n in range(1, 257))


def _others_not_geometric() -> bool:
    for n in range(3, 257):
        if n in POWERS_OF_TWO:
            continue
        ratios = alibi_slopes(n)[1:] / alibi_slopes(n)[:-1]
        if np.allclose(ratios, ratios[0], rtol=1e-9):
            return False
    return True


@register("alibi-geometric", page=PAGE_ALIBI)
def alibi_geometric() -> Theorem:
    n = sympy.Symbol("n", positive=True)
    h = sympy.Symbol("h", integer=True, positive=True)
    p = sympy.Symbol("p", integer=True, nonnegative=True)
    slope = 2 ** (-8 * h / n)
    start = 2 ** (-8 / n)
    # The paper's code for n = 2^p heads: start = 2^(-2^(-(log2 n - 3))), slopes start * start^i.
    paper_start = 2 ** (-(2 ** (-(log(2**p, 2) - 3))))

    def witness():
        errors = []
        with mp_context():
            for n_heads in POWERS_OF_TWO + (512, 1024):
                slopes = alibi_slopes(n_heads)
                for head, value in enumerate(slopes, start=1):
                    exact = mpmath.power(2, -mpmath.mpf(8 * head) / n_heads)
                    errors.append((mpmath.mpf(float(value)) - exact) / exact)
        return _largest(errors)

    return Theorem(
        id="alibi-geometric",
        title="For n a power of two the ALiBi slopes are geometric, from 2^(-8/n) with ratio 2^(-8/n)",
        statement=(
            r"m_h = 2^{-8h/n},\ h = 1, \dots, n:\quad m_1 = 2^{-8/n},\quad \frac{m_{h+1}}{m_h} = 2^{-8/n};\\"
            r"\text{the paper's start } 2^{-2^{-(\log_2 n - 3)}} \text{ is } 2^{-8/n}"
        ),
        assumptions=[
            r"$n$ heads; the formula is symbolic in $n > 0$; the paper uses it for $n = 2^p$ ($p \ge 0$ an integer)",
            r"for other $n$ the slopes are the $c$ slopes of $c = 2^{\lfloor \log_2 n\rfloor}$ heads followed by "
            "every other slope of $2c$ heads (the paper's recursive code): checked, and not geometric",
        ],
        steps=[
            Equal(paper_start, 2 ** (-8 / 2**p), "the paper's start for n = 2^p: 2^(-(p - 3)) = 8/2^p"),
            Equal(start * start ** (h - 1), slope, "the paper's list start * start^(h-1) is 2^(-8h/n)"),
            Equal(slope.subs(h, 1), start, "the first slope"),
            Equal(slope.subs(h, h + 1) / slope, start, "the ratio of neighbours"),
            Fact(
                "alibi_slopes(n) is 2^(-8h/n) to within one ulp (bit for bit for n <= 8), with first slope and "
                "neighbour ratios 2^(-8/n), for n = 1, 2, 4, ..., 256",
                _slopes_geometric,
                "the numpy function",
            ),
            Fact(
                "alibi_slopes(n) matches the paper's recursive get_slopes for every n = 1 .. 256, to n ulps (the "
                "paper's start * start**i accumulates one rounding per power)",
                _slopes_paper_rule,
                "the rule for head counts that are not powers of two",
            ),
            Fact(
                "for n not a power of two (3 .. 255) the slopes are not geometric",
                _others_not_geometric,
                "the hypothesis is needed: the borrowed slopes start again between m_1 and m_2",
            ),
        ],
        witness=Witness(
            "alibi_slopes(n) vs 40-digit 2^(-8h/n), relative error, n = 1, 2, 4, ..., 1024",
            witness,
            2.3e-16,
            licenses="alibi_slopes",
        ),
        negative_control=Equal(slope.subs(h, 1), sympy.Rational(1, 2), "first slope 1/2"),
        negative_control_text=r"$m_1 = \tfrac12$ for every $n$ (true only for $n = 8$)",
    )


# --------------------------------------------------------------------------
def _softmax_symbolic(values):
    exps = [exp(v) for v in values]
    total = sum(exps)
    return Matrix([e / total for e in exps])


def _key_only_numpy_check() -> bool:
    rng = np.random.default_rng(7)
    for n_heads, n in ((1, 1), (1, 5), (4, 7), (8, 16), (12, 33), (16, 64)):
        scores = rng.normal(scale=3.0, size=(n_heads, n, n))
        relative = softmax(scores + alibi_bias(n_heads, n))
        key_only = softmax(scores + alibi_key_bias(n_heads, n) + causal_mask(n))
        if not np.allclose(relative, key_only, rtol=1e-13, atol=1e-16):
            return False
    row = rng.normal(size=50)
    for c in (-1e3, -1.5, 7.0, 1e3, 1e5):
        # up to the rounding of row + c itself: half an ulp of |c| + |row| in each exponent
        rounding = 2 * np.spacing(abs(c) + np.abs(row).max()) + 1e-15
        if not np.allclose(softmax(row + c), softmax(row), rtol=rounding, atol=0):
            return False
    return True


@register("softmax-shift-invariance", page=PAGE_ALIBI)
def softmax_shift_invariance() -> Theorem:
    x = sympy.symbols("x_0:3", real=True)
    c = sympy.Symbol("c", real=True)
    scores = sympy.symbols("s_0:3", real=True)
    i, j, m = sympy.symbols("i j m", real=True)
    shifted = _softmax_symbolic([v + c for v in x])
    factored = Matrix([exp(v) * exp(c) for v in x]) / (exp(c) * sum(exp(v) for v in x))

    def witness():
        rng = seeded("softmax-shift-invariance")
        nrng = np.random.default_rng(rng.randrange(2**32))
        errors = []
        with mp_context():
            # softmax of a shifted row (numpy subtracts the row's maximum) vs the 40-digit formula
            # exp(x_i) / sum_j exp(x_j) on the very same float64 row, nothing subtracted
            for _ in range(6):
                row = nrng.normal(scale=4.0, size=7) + rng.choice((-700.0, -30.0, 0.5, 30.0, 700.0))
                exps = [mpmath.exp(mpmath.mpf(float(v))) for v in row]
                total = mpmath.fsum(exps)
                errors += [mpmath.mpf(float(a)) - e / total for a, e in zip(softmax(row), exps)]
            # key-only ALiBi (alibi_key_bias + mask) vs the 40-digit relative bias -m (i - j)
            n_heads, size = 8, 12
            raw = nrng.normal(size=(n_heads, size, size))
            attention = softmax(raw + alibi_key_bias(n_heads, size) + causal_mask(size))
            for head, slope in enumerate(alibi_slopes(n_heads)):
                for query in range(size):
                    exps = [
                        mpmath.exp(mpmath.mpf(float(raw[head, query, key])) - mpmath.mpf(float(slope)) * (query - key))
                        for key in range(query + 1)
                    ]
                    total = mpmath.fsum(exps)
                    errors += [mpmath.mpf(float(attention[head, query, key])) - e / total for key, e in enumerate(exps)]
                    errors += [mpmath.mpf(float(v)) for v in attention[head, query, query + 1 :]]
        return _largest(errors)

    return Theorem(
        id="softmax-shift-invariance",
        title="Softmax ignores a constant added to a row, so key-only ALiBi equals relative ALiBi",
        statement=(
            r"\operatorname{softmax}(x + c\mathbf 1) = \operatorname{softmax}(x);\ \text{hence, row by row,}\\"
            r"\operatorname{softmax}_j\big(s_{ij} - m(i - j)\big) = \operatorname{softmax}_j\big(s_{ij} + m j\big)"
            r"\ \text{(the causal mask removes the same keys from both)}"
        ),
        assumptions=[
            "$x, c$ real; proved on a 3-vector (a row with three unmasked keys), the same for any length",
            "the bias $m j$ depends on the key $j$ only (BLOOM's `build_alibi_tensor`); $-m (i - j)$ is the "
            "paper's; they differ by $m i$, a constant along row $i$",
            r"masked keys ($-\infty$) get weight 0 in both; the mask is the same for both biases",
        ],
        steps=[
            Chain(
                shifted,
                [
                    (factored, "exp(x + c) = exp(x) exp(c)"),
                    (_softmax_symbolic(x), "cancel exp(c) > 0"),
                ],
            ),
            Equal(m * j - (-m * (i - j)), m * i, "key-only bias minus relative bias"),
            Fact(
                "the difference m j + m (i - j) has no key index j in it",
                lambda: j not in sympy.expand(m * j + m * (i - j)).free_symbols,
                "a constant along row i",
            ),
            Equal(
                _softmax_symbolic([scores[key] - m * (i - key) for key in range(3)]),
                _softmax_symbolic([scores[key] + m * key for key in range(3)]),
                "the first step with c = m i, keys j = 0, 1, 2 of row i",
            ),
            Fact(
                "softmax(scores + alibi_bias) == softmax(scores + alibi_key_bias + causal_mask) for "
                "(heads, n) in (1, 1), (1, 5), (4, 7), (8, 16), (12, 33), (16, 64); softmax(row + c) == "
                "softmax(row) for c in -1e3 .. 1e5 up to the rounding of row + c",
                _key_only_numpy_check,
                "the numpy functions",
            ),
        ],
        witness=Witness(
            "softmax of rows shifted by up to 700 (numpy subtracts the maximum) vs the 40-digit formula with "
            "nothing subtracted; key-only ALiBi attention (alibi_key_bias + causal_mask, 8 heads, 12 positions) "
            "vs 40-digit softmax with the relative bias -m (i - j); absolute error",
            witness,
            1e-14,
            licenses="softmax",
        ),
        negative_control=Equal(_softmax_symbolic([c * v for v in x]), _softmax_symbolic(x), "scaling the row"),
        negative_control_text=r"$\operatorname{softmax}(c\,x) = \operatorname{softmax}(x)$ (a temperature does change it)",
    )


# --------------------------------------------------------------------------
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
    return t5_bucket(offsets, bidirectional=bidirectional, num_buckets=buckets, max_distance=distance)


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


@register("t5-buckets", page=PAGE_RELATIVE)
def t5_buckets() -> Theorem:
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
        statement=(
            r"r = \text{key} - \text{query},\ B \text{ buckets},\ \text{max distance } D,\ "
            r"n = B/2 \text{ (bidirectional) or } B \text{ (unidirectional)}:\\"
            r"\text{each distance below } n/2 \text{ gets a bucket of its own (the decoder's bucket 0 also takes "
            r"every later key)};\\ |r| \ge D \text{ shares the last of its side};"
            r"\ \text{bidirectionally, bucket } B/2 \text{ is never used.}\\ \text{T5 } (B, D) = (32, 128)\text{: the encoder "
            r"never uses bucket 16;}\\ \text{the last bucket starts at } |r| = 91 \text{ (decoder: 113), not 128}"
        ),
        assumptions=[
            "`t5_bucket` reproduces transformers' `T5Attention._relative_position_bucket` (float32 logarithm)",
            r"exhaustive over $|r| \le 4D$ and $|r| = 2^{20}, 2^{31}, 2^{40}, 2^{62}, 2^{63} - 1$ (and $r = -2^{63}$) for "
            "every configuration with "
            "$B$ in 8, 16, 32, 64, 128 and $D$ in 32, 64, 128, 256, 1024, both directions; "
            "beyond that the buckets are constant (monotone, clamped at the last)",
            "standard configuration: $B = 32$, $D = 128$ (T5, T5 v1.1, Flan-T5, mT5); "
            "encoder bidirectional, decoder unidirectional",
        ],
        steps=[
            Fact(
                "exact buckets: |r| < num_buckets/4 (bidirectional) or -r < num_buckets/2 (unidirectional) "
                "gets bucket |r| (+ num_buckets/2 for r > 0), and no other offset shares it (the decoder's "
                "bucket 0 also takes every future key r > 0)",
                _exact_buckets,
                "every configuration, every offset",
            ),
            Fact(
                "buckets never decrease with the distance, and from max_distance on every offset is in the last "
                "bucket of its side (n - 1, or 2n - 1 for keys after the query)",
                _saturates,
                "every configuration; so the enumeration covers every offset",
            ),
            Fact(
                "bidirectional: bucket num_buckets/2 (distance 0 after the query) is never used, since r = 0 "
                "goes to bucket 0",
                _bidirectional_middle_unused,
                "every bidirectional configuration",
            ),
            Fact(
                "T5 32/128: the encoder uses every bucket but 16, the decoder all 32; the last bucket starts at "
                "distance 91 (encoder) and 113 (decoder)",
                _standard_usage,
                "so 'saturates at max_distance' understates it: 91..127 already share the last bucket",
            ),
        ],
        witness=Witness(
            "t5_bucket (float32 logarithm, as the reference) vs the bucket in exact arithmetic (40-digit "
            "logarithm) on |r| <= 2 max_distance: number of offsets that differ, for 32/128 both directions, "
            "64/256, 16/64 and 128/512 unidirectional",
            witness,
            0.0,
            licenses="t5_bucket",
        ),
        negative_control=Fact(
            "every bucket 0 .. 31 is used by T5's encoder (bidirectional, 32 buckets, max_distance 128)",
            lambda: _used(ENCODER) == set(range(32)),
        ),
        negative_control_text="the encoder uses all 32 buckets (bucket 16 is never reached)",
    )
