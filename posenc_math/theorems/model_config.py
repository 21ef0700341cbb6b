"""Theorems of the model-config page: what three config keys guarantee, for every head.

- ``mrope-text-is-rope``: M-RoPE (``mrope_section``) at three equal ids is
  1-D RoPE, with the sections consecutive (Qwen2-VL, Qwen2.5-VL) or dealt in
  turn (Qwen3-VL).  Which id turns pair ``j`` is written with Iverson
  brackets on integers, ``[j < s] = min(max(s - j, 0), 1)``, so the kernel
  reads the layouts by its rules for ``min``, ``max`` and ``mod``; the proof
  checks, case by case, that the brackets pick the id each layout names.
- ``attention-factor-squared``: a factor on the cos/sin caches
  (``attention_factor``, YaRN's ``mscale``) scales every logit by its
  square; DeepSeek's ratio ``mscale(s, mu) / mscale(s, mu_all)`` with the
  logits times ``mscale(s, mu_all)**2`` scales them by ``mscale(s, mu)**2``.
- ``partial-rotary-pass-through``: the features outside ``rotary_dim``
  (first or last in the head) add a score that depends on no position.

Each holds for a symbolic number of pairs ``P``, with the vectors'
components and the frequencies as arbitrary functions of their index (the
notation of :mod:`posenc_math.theorems.rope`).

Examples
--------
>>> from posenc_math.theorems import get
>>> get("mrope-text-is-rope").scope
'general'
"""

from __future__ import annotations

import sympy
from sympy import (
    Add,
    BlockMatrix,
    Identity,
    MatMul,
    Matrix,
    MatrixSymbol,
    Max,
    Min,
    Mod,
    Mul,
    Pow,
    ZeroMatrix,
    cos,
    log,
    sin,
)

from ..witnesses import model_config as numeric
from .core import Chain, Conclusion, Equal, Theorem, Witness
from .language import BlockDiagonal, Definition, Stacked
from .registry import register
from .rope import DOT, KEY, P_, QUERY, ROPE, ROTATION, freq_, j_, k_, m_, n_, q_

PAGE = "model-config"

# --------------------------------------------------------------------------
# M-RoPE
#: The temporal, height and width ids of a token, and the one id p of a text token.
P_T, P_H, P_W = sympy.symbols("p_t p_h p_w", real=True)
POSITION = sympy.Symbol("p", real=True)
#: Pairs per id (mrope_section): s_t, s_h, s_w; the sections sum to P.
S_T, S_H, S_W = sympy.symbols("s_t s_h s_w", integer=True, nonnegative=True)
_s = sympy.Symbol("s", integer=True)
_r = sympy.Symbol("r", integer=True)
#: A pair index in a run of three (Qwen3-VL deals pairs 3i, 3i + 1, 3i + 2 to the three ids).
RUN = sympy.Symbol("i", integer=True, nonnegative=True)

#: [j < s] for integers: 1 when j < s, else 0.
BEFORE = Definition("iverson_before", (j_, _s), Min(Max(_s - j_, 0, evaluate=False), 1, evaluate=False), r"[{0} < {1}]")
#: [j = r (mod 3)] for integers j and r in {0, 1, 2}: 1 when j leaves the remainder r, else 0.
CONGRUENT = Definition(
    "iverson_congruent",
    (j_, _r),
    1 - Min(sympy.Abs(Mod(j_, 3) - _r, evaluate=False), 1, evaluate=False),
    r"[{0} \equiv {1} \ (\mathrm{{mod}}\ 3)]",
)


def _consecutive_id(j, t, h, w):
    first, second = BEFORE(j, S_T), BEFORE(j, Add(S_T, S_H, evaluate=False))
    return Add(
        Mul(t, first, evaluate=False),
        Mul(h, Add(second, -first, evaluate=False), evaluate=False),
        Mul(w, Add(1, -second, evaluate=False), evaluate=False),
        evaluate=False,
    )


def _interleaved_id(j, t, h, w):
    height = Mul(Add(h, -t, evaluate=False), CONGRUENT(j, 1), BEFORE(j, 3 * S_H), evaluate=False)
    width = Mul(Add(w, -t, evaluate=False), CONGRUENT(j, 2), BEFORE(j, 3 * S_W), evaluate=False)
    return Add(t, height, width, evaluate=False)


#: The id that turns pair j, sections consecutive (Qwen2-VL, Qwen2.5-VL): t for j < s_t, then h, then w.
CONSECUTIVE_ID = Definition(
    "id_consecutive",
    (j_, P_T, P_H, P_W),
    _consecutive_id(j_, P_T, P_H, P_W),
    r"\pi^{{\mathrm{{c}}}}_{{{0}}}({1}, {2}, {3})",
)
#: The id that turns pair j, sections dealt in turn (Qwen3-VL): h for j = 1 (mod 3) while j < 3 s_h, w for
#: j = 2 (mod 3) while j < 3 s_w, t for every other pair.
INTERLEAVED_ID = Definition(
    "id_interleaved",
    (j_, P_T, P_H, P_W),
    _interleaved_id(j_, P_T, P_H, P_W),
    r"\pi^{{\mathrm{{i}}}}_{{{0}}}({1}, {2}, {3})",
)


def _mrope(pair_id: Definition, superscript: str) -> Definition:
    block = ROTATION(Mul(pair_id(j_, P_T, P_H, P_W), freq_(j_), evaluate=False))
    return Definition(
        f"M_{superscript}",
        (P_T, P_H, P_W),
        BlockDiagonal(j_, P_, block),
        r"M^{{\mathrm{{" + superscript + r"}}}}({0}, {1}, {2})",
    )


#: M-RoPE at ids (p_t, p_h, p_w): pair j turned by R(pi_j omega_j), each layout.
MROPE_CONSECUTIVE = _mrope(CONSECUTIVE_ID, "c")
MROPE_INTERLEAVED = _mrope(INTERLEAVED_ID, "i")


@register("mrope-text-is-rope", page=PAGE)
def mrope_text_is_rope() -> Theorem:
    p = POSITION
    consecutive = Conclusion(
        MROPE_CONSECUTIVE(p, p, p),
        ROPE(p),
        (p, P_, S_T, S_H),
        where=r"consecutive sections $s_t, s_h, s_w$ (Qwen2-VL, Qwen2.5-VL), $s_t + s_h + s_w = P$",
    )
    interleaved = Conclusion(
        MROPE_INTERLEAVED(p, p, p),
        ROPE(p),
        (p, P_, S_H, S_W),
        where=r"sections dealt in turn (Qwen3-VL); $\omega_j > 0$ any frequencies",
    )
    one_id = (
        Equal(
            CONSECUTIVE_ID(j_, p, p, p),
            p,
            r"the three brackets add up to 1",
        ),
        Equal(INTERLEAVED_ID(j_, p, p, p), p, r"the brackets multiply $p - p = 0$"),
    )
    chains = tuple(
        Chain(
            goal.lhs,
            [
                (
                    BlockDiagonal(j_, P_, ROTATION(Mul(pair_id(j_, p, p, p), freq_(j_), evaluate=False))),
                    "the definition",
                ),
                (goal.rhs, r"$\pi_j(p, p, p) = p$ for every pair $j$: block $j$ is $R(p\,\omega_j)$"),
            ],
        )
        for goal, pair_id in ((consecutive, CONSECUTIVE_ID), (interleaved, INTERLEAVED_ID))
    )
    ids = (P_T, P_H, P_W)

    def case(pair, expected, why, *assuming, pair_id=CONSECUTIVE_ID):
        return Equal(pair_id(pair, *ids), expected, why, assuming=assuming)

    le, ge = sympy.LessThan, sympy.GreaterThan
    consecutive_cases = (
        case(j_, P_T, r"$j < s_t$", le(j_, S_T - 1, evaluate=False)),
        case(j_, P_H, r"$s_t \le j < s_t + s_h$", ge(j_, S_T, evaluate=False), le(j_, S_T + S_H - 1, evaluate=False)),
        case(j_, P_W, r"$j \ge s_t + s_h$", ge(j_, S_T + S_H, evaluate=False)),
    )
    interleaved_cases = (
        case(3 * RUN + 1, P_H, r"$i < s_h$", le(RUN, S_H - 1, evaluate=False), pair_id=INTERLEAVED_ID),
        case(3 * RUN + 2, P_W, r"$i < s_w$", le(RUN, S_W - 1, evaluate=False), pair_id=INTERLEAVED_ID),
        case(3 * RUN, P_T, r"every $i$", pair_id=INTERLEAVED_ID),
        case(3 * RUN + 1, P_T, r"$i \ge s_h$", ge(RUN, S_H, evaluate=False), pair_id=INTERLEAVED_ID),
        case(3 * RUN + 2, P_T, r"$i \ge s_w$", ge(RUN, S_W, evaluate=False), pair_id=INTERLEAVED_ID),
    )
    return Theorem(
        id="mrope-text-is-rope",
        title="M-RoPE on a text token is 1-D RoPE, for both section layouts",
        conclusions=(consecutive, interleaved),
        steps=(*one_id, *chains, *consecutive_cases, *interleaved_cases),
        witness=Witness(
            "RopeLayer.cos_sin of Qwen2.5-VL and Qwen3-VL at random ids (t, h, w) < 2^17 vs the 40-digit "
            "cos and sin of pi_j(t, h, w) omega_j (each layout's brackets, omega_j = b^(-2j/d)); at three equal ids "
            "vs rope_cos_sin (the difference must be 0); mrope() at random ids vs the 40-digit rotation, and at "
            "equal ids vs rope() (difference 0), sections (16, 24, 24), (1, 1, 62), (0, 64, 0)",
            numeric.mrope_text_is_rope,
            1e-9,
            licenses="posenc_math.encodings.rope_config.RopeLayer.cos_sin",
        ),
        negative_control=Conclusion(
            MROPE_CONSECUTIVE(p, p + 1, p), ROPE(p), (p, P_, S_T, S_H), where="the height id one step on"
        ),
        scope="general",
        scope_note=(
            "symbolic in the id $p$, the number of pairs $P = d/2$, the section sizes and the frequencies; the "
            "library's layouts against the brackets at 40 digits (witness)"
        ),
        proof=(
            r"Whatever the layout, $\pi_j$ picks one of the three ids, and for a text token they are all $p$:",
            *one_id,
            r"so every block of $M(p, p, p)$ is $R(p\,\omega_j)$, the block of $R_p$:",
            *chains,
            r"The brackets say what the layouts say. Consecutive sections:",
            *consecutive_cases,
            r"Dealt in turn, for pairs $j = 3i, 3i + 1, 3i + 2$:",
            *interleaved_cases,
        ),
        lead=(
            r"A token has three ids, temporal, height and width; M-RoPE turns pair $j$ of a head with $P$ pairs "
            r"by the id $\pi_j$ its layout picks: $M(p_t, p_h, p_w) = \operatorname{blockdiag}_j "
            r"R(\pi_j\,\omega_j)$, and $R_p = \operatorname{blockdiag}_j R(p\,\omega_j)$ is 1-D RoPE "
            r"({prf:ref}`thm-rope-relative`). A text token has $p_t = p_h = p_w = p$:"
        ),
        remarks=(
            r"The statement is about the rotation; which features form pair $j$ (half or interleaved layout) is a "
            r"fixed permutation of the head ({prf:ref}`thm-rope-layout-permutation`). The negative control moves "
            r"the height id one step: every pair of the height section then turns by $(p + 1)\,\omega_j$."
        ),
    )


# --------------------------------------------------------------------------
# the attention factor
ALPHA = sympy.Symbol("alpha", real=True)
#: YaRN's factor s and the mscale parameters mu (mscale) and mu_all (mscale_all_dim).
FACTOR = sympy.Symbol("s", positive=True)
MU = sympy.Symbol("mu", real=True)
MU_ALL = sympy.Symbol("mu_all", nonnegative=True)


def _cache_block(factor, angle):
    return Matrix([[factor * cos(angle), -factor * sin(angle)], [factor * sin(angle), factor * cos(angle)]])


#: The rotation a model builds from the caches a cos and a sin: pair j turned by them.
CACHED = Definition(
    "R_cached", (ALPHA, m_), BlockDiagonal(j_, P_, _cache_block(ALPHA, m_ * freq_(j_))), r"\tilde R^{{{0}}}_{{{1}}}"
)
#: transformers' yarn_get_mscale(s, mu) = 0.1 mu ln s + 1 (for s > 1; at s = 1 it is 1 as well).
MSCALE = Definition(
    "mscale", (FACTOR, MU), Mul(sympy.Rational(1, 10), MU, log(FACTOR)) + 1, r"\operatorname{{mscale}}({0}, {1})"
)
#: DeepSeek's factor on cos and sin: mscale(s, mu) / mscale(s, mu_all).
RATIO = Definition(
    "alpha_ratio",
    (FACTOR, MU, MU_ALL),
    Mul(MSCALE(FACTOR, MU), Pow(MSCALE(FACTOR, MU_ALL), -1, evaluate=False), evaluate=False),
    r"\alpha_{{{1}, {2}}}",
)


def _scores(rotation_m, rotation_n):
    return DOT(MatMul(rotation_m, QUERY()), MatMul(rotation_n, KEY()))


@register("attention-factor-squared", page=PAGE)
def attention_factor_squared() -> Theorem:
    plain = _scores(ROPE(m_), ROPE(n_))
    squared = Conclusion(
        _scores(CACHED(ALPHA, m_), CACHED(ALPHA, n_)),
        Mul(Pow(ALPHA, 2, evaluate=False), plain, evaluate=False),
        (ALPHA, m_, n_, P_),
        where=r"$q, k$ any real vectors of $2P$ components, $\omega_j > 0$ any frequencies",
    )
    at_least_one = sympy.GreaterThan(FACTOR, 1, evaluate=False)
    ratio = RATIO(FACTOR, MU, MU_ALL)
    deepseek = Conclusion(
        Mul(Pow(ratio, 2, evaluate=False), Pow(MSCALE(FACTOR, MU_ALL), 2, evaluate=False), evaluate=False),
        Pow(MSCALE(FACTOR, MU), 2, evaluate=False),
        (FACTOR, MU, MU_ALL),
        where=r"DeepSeek puts $\alpha_{\mu, \mu_{all}}$ on cos and sin and multiplies every logit by "
        r"$\operatorname{mscale}(s, \mu_{all})^2$, so by the first line the logits are scaled by "
        r"$\operatorname{mscale}(s, \mu)^2$; YaRN factor $s \ge 1$",
        assuming=(at_least_one,),
    )
    blocks = BlockDiagonal(j_, P_, Mul(ALPHA, ROTATION(m_ * freq_(j_)), evaluate=False))
    first = Chain(
        squared.lhs,
        [
            (
                DOT(
                    MatMul(blocks, QUERY()), MatMul(BlockDiagonal(j_, P_, Mul(ALPHA, ROTATION(n_ * freq_(j_)))), KEY())
                ),
                r"each block of $\tilde R^{\alpha}_p$ is $\alpha R(p\,\omega_j)$",
            ),
            (squared.rhs, r"$\langle \alpha u, \alpha v\rangle = \alpha^2 \langle u, v\rangle$"),
        ],
    )
    second = Equal(
        deepseek.lhs,
        deepseek.rhs,
        r"$\operatorname{mscale}(s, \mu_{all}) \ge 1$ for $s \ge 1$, $\mu_{all} \ge 0$: it cancels",
        assuming=(at_least_one,),
    )
    return Theorem(
        id="attention-factor-squared",
        title="A factor on cos and sin scales every logit by its square (YaRN; DeepSeek's ratio form)",
        conclusions=(squared, deepseek),
        steps=(first, second),
        witness=Witness(
            "RopeLayer.rotate scores of Qwen2.5 (YaRN, s = 4), gpt-oss-20b (s = 32) and rope(attention_factor=a) "
            "vs the 40-digit (0.1 ln s + 1)^2 times the pair formula, error / (|q||k|); DeepSeek-V3 and a variant "
            "with mscale 1, mscale_all_dim 0.707: attention_factor^2 score_scale vs mscale(s, mu)^2 and "
            "score_scale vs mscale(s, mu_all)^2 at 40 digits",
            numeric.attention_factor_squared,
            1e-13,
            licenses="posenc_math.encodings.rope_config.rope_from_config",
        ),
        negative_control=Conclusion(
            squared.lhs, Mul(ALPHA, plain, evaluate=False), (ALPHA, m_, n_, P_), where="the factor itself"
        ),
        scope="general",
        scope_note=(
            "symbolic in the factor, the positions, the number of pairs $P = d/2$, the components and frequencies, "
            r"and in DeepSeek's $s$, $\mu$, $\mu_{\mathrm{all}}$"
        ),
        proof=(
            r"Multiplying cos and sin by $\alpha$ multiplies the whole rotation by $\alpha$, and a dot product of "
            r"two vectors each scaled by $\alpha$ is scaled by $\alpha^2$:",
            first,
            r"DeepSeek puts a ratio on cos and sin and the rest on the logits; together they make the square of "
            r"the numerator:",
            second,
        ),
        lead=(
            r"A model that multiplies its cos and sin caches by $\alpha$ turns pair $j$ of a query at position $p$ "
            r"by $\tilde R^{\alpha}_p$; YaRN takes $\alpha = \operatorname{mscale}(s, 1) = 0.1 \ln s + 1$ for "
            r"the factor $s$ (transformers' default), and with both `mscale` $= \mu$ and `mscale_all_dim` "
            r"$= \mu_{all}$ given, $\alpha = \alpha_{\mu, \mu_{all}}$. For every $P$ pairs:"
        ),
        remarks=(
            r"So YaRN's attention factor acts as a softmax temperature $1/\alpha^2$ on every logit, at every "
            r"position alike. DeepSeek-V3 has $\mu = \mu_{all} = 1$: $\alpha = 1$ on cos and sin, and its logits "
            r"carry YaRN's $(0.1 \ln s + 1)^2$ instead. The negative control scales the logits by $\alpha$."
        ),
    )


# --------------------------------------------------------------------------
# partial rotary
#: Features that pass through (d = 2P + M).
PASSED = sympy.Symbol("M", integer=True, nonnegative=True)
Q_PASS, K_PASS = MatrixSymbol(r"q_{\mathrm{pass}}", PASSED, 1), MatrixSymbol(r"k_{\mathrm{pass}}", PASSED, 1)
#: The rotated features of q and k: pair j is (q_{2j}, q_{2j+1}) (interleaved; see rope-layout-permutation).
Q_ROT = Definition("q_rot", (), Stacked(j_, P_, Matrix([q_(2 * j_), q_(2 * j_ + 1)])), r"q_{{\mathrm{{rot}}}}")
K_ROT = Definition("k_rot", (), Stacked(j_, P_, Matrix([k_(2 * j_), k_(2 * j_ + 1)])), r"k_{{\mathrm{{rot}}}}")
_ROTATED_FIRST = BlockMatrix([[ROPE(m_), ZeroMatrix(2 * P_, PASSED)], [ZeroMatrix(PASSED, 2 * P_), Identity(PASSED)]])
_ROTATED_LAST = BlockMatrix([[Identity(PASSED), ZeroMatrix(PASSED, 2 * P_)], [ZeroMatrix(2 * P_, PASSED), ROPE(m_)]])
#: The head's rotation when the first 2P features turn (GPT-NeoX, Phi, GLM) and when the last do (DeepSeek).
FIRST = Definition("T_first", (m_,), _ROTATED_FIRST, r"T_{{{0}}}")
LAST = Definition("T_last", (m_,), _ROTATED_LAST, r"T'_{{{0}}}")


@register("partial-rotary-pass-through", page=PAGE)
def partial_rotary_pass_through() -> Theorem:
    q_rot, k_rot = Q_ROT(), K_ROT()
    rotated = DOT(MatMul(ROPE(m_), q_rot), MatMul(ROPE(n_), k_rot))
    passed = DOT(Q_PASS, K_PASS)
    query_first, key_first = BlockMatrix([[q_rot], [Q_PASS]]), BlockMatrix([[k_rot], [K_PASS]])
    query_last, key_last = BlockMatrix([[Q_PASS], [q_rot]]), BlockMatrix([[K_PASS], [k_rot]])
    over = (m_, n_, P_, PASSED, Q_PASS, K_PASS)
    first = Conclusion(
        DOT(MatMul(FIRST(m_), query_first), MatMul(FIRST(n_), key_first)),
        Add(rotated, passed, evaluate=False),
        over,
        where=r"the first $2P$ of $d = 2P + M$ features turn (GPT-NeoX, Phi, GLM)",
    )
    last = Conclusion(
        DOT(MatMul(LAST(m_), query_last), MatMul(LAST(n_), key_last)),
        Add(rotated, passed, evaluate=False),
        over,
        where=r"the last $2P$ turn (DeepSeek's decoupled rotary head)",
    )
    offset = Conclusion(
        first.lhs,
        Add(DOT(q_rot, MatMul(ROPE(n_ - m_), k_rot)), passed, evaluate=False),
        over,
        where=r"any real components, $\omega_j > 0$ any frequencies",
    )
    steps = (
        Equal(
            first.lhs,
            first.rhs,
            r"block by block: $T_p$ turns $q_{\mathrm{rot}}$ by $R_p$ and keeps $q_{\mathrm{pass}}$",
        ),
        Equal(last.lhs, last.rhs, r"the same, with the blocks in the other order"),
        Chain(
            first.lhs,
            [
                (first.rhs, "the first statement"),
                (offset.rhs, r"rope-relative: $\langle R_m u, R_n v\rangle = \langle u, R_{n-m} v\rangle$"),
            ],
        ),
    )
    return Theorem(
        id="partial-rotary-pass-through",
        title="Features outside rotary_dim add a score that depends on no position",
        conclusions=(first, last, offset),
        steps=steps,
        witness=Witness(
            "RopeLayer.rotate scores of Phi-2 (partial 0.4), DeepSeek-V3 (the last 64 of 192, interleaved), a "
            "GPT-NeoX head (rotary_pct 0.25) and a GLM head (half the head, interleaved), and "
            "rope(rotary_dim=r), at random positions < 5000, vs the 40-digit rotated pair formula plus the "
            "pass-through dot product; error / (|q||k|)",
            numeric.partial_rotary_pass_through,
            1e-13,
            licenses="posenc_math.encodings.rope_config.RopeLayer.rotate",
        ),
        negative_control=Conclusion(
            first.lhs, Add(DOT(q_rot, k_rot), passed, evaluate=False), over, where="the rotated part position-free"
        ),
        scope="general",
        scope_note=(
            "symbolic in the positions, the number of rotated pairs $P$, the number of passed features $M$, the "
            "components and the frequencies"
        ),
        uses=("rope-relative",),
        proof=(
            r"$T_p$ is block-diagonal with the blocks $R_p$ and $I_M$; the dot product of two stacked vectors is "
            r"the sum of the blocks' dot products, and $I_M$ leaves $q_{\mathrm{pass}}$ as it is at every position:",
            *steps[:2],
            r"The rotated term depends on the offset only ({prf:ref}`thm-rope-relative`); the passed one on no "
            r"position at all:",
            steps[2],
        ),
        lead=(
            r"A head of $d = 2P + M$ features turns $2P$ of them, $q_{\mathrm{rot}}$, by RoPE ($R_p$, "
            r"{prf:ref}`thm-rope-relative`) and passes $M$ through, $q_{\mathrm{pass}}$; $T_p$ and $T'_p$ are its "
            r"rotation with the turned features first or last. For every $P$ and $M$:"
        ),
        remarks=(
            r"So a partially rotary head attends with a sum of a relative term and a content term with no "
            r"position in it; the negative control claims the rotated term is position-free too."
        ),
    )
