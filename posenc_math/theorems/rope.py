"""Theorems of the RoPE page: relative scores, the two layouts, the long-term decay bound.

Every statement about a rotary width ``d = 2P`` is proved for a symbolic
number of pairs ``P``: a per-pair identity with a symbolic frequency, then a
sum over the pairs (:class:`~posenc_math.theorems.Termwise`), with the
vectors' components and the frequencies as undefined functions of the index
(``q(j)``, ``omega(j)``).  Index facts (which coordinate goes where) are
proved on symbolic integers, by cases.

Conventions are the library's: a RoPE pair ``(a, b)`` at position ``p``
becomes ``(a cos pw - b sin pw, a sin pw + b cos pw)``, i.e. it is turned by
``R(pw)`` with ``R(theta) = [[cos theta, -sin theta], [sin theta, cos
theta]]``.  Pair ``j`` of the half layout is ``(x_j, x_{j + P})``, of the
interleaved layout ``(x_{2j}, x_{2j+1})``.

Examples
--------
>>> rope_rotation(sympy.pi / 2) * Matrix([1, 0])  # (a, b) -> (a cos - b sin, a sin + b cos)
Matrix([
[0],
[1]])
"""

from __future__ import annotations

import numpy as np
import sympy
from sympy import Abs, Add, MatMul, Matrix, Mul, Sum, Transpose, cos, sin
from sympy import UnevaluatedExpr as Unevaluated
from sympy.matrices.expressions.matexpr import MatrixElement

from ..analysis import rope_mean_scores
from ..witnesses import rope as numeric
from ._common import indexed_function, w
from .core import Chain, Conclusion, Equal, Fact, Holds, Termwise, Theorem, Witness
from .language import BlockDiagonal, Definition, Largest, Stacked, undefined_function
from .registry import register

PAGE = "rope"
#: Query and key positions (real).
m_, n_ = sympy.symbols("m n", real=True)
#: The pair index and the number of pairs P = d/2.
j_ = sympy.Symbol("j", integer=True, nonnegative=True)
P_ = sympy.Symbol("P", integer=True, positive=True)
#: Components and frequencies as functions of their index.
q_, k_ = indexed_function("q", real=True), indexed_function("k", real=True)
freq_ = indexed_function("\\omega", positive=True)


def rope_rotation(angle: sympy.Expr) -> Matrix:
    """RoPE's 2 x 2 rotation [[cos, -sin], [sin, cos]]: (a, b) -> (a cos - b sin, a sin + b cos)."""
    return Matrix([[cos(angle), -sin(angle)], [sin(angle), cos(angle)]])


def _pair_dot(a, b, c, e, first, second):
    """<R(first)(a, b), R(second)(c, e)>, multiplied out: one pair's RoPE score."""
    return ((rope_rotation(first) * Matrix([a, b])).T * (rope_rotation(second) * Matrix([c, e])))[0]


def _pair_relative(a, b, c, e, angle):
    """The same score written with the offset angle only: (ac + be) cos + (bc - ae) sin."""
    return (a * c + b * e) * cos(angle) + (b * c - a * e) * sin(angle)


_theta = sympy.Symbol("theta", real=True)
#: R(theta), the 2 x 2 rotation RoPE applies to one pair.
ROTATION = Definition("R", (_theta,), rope_rotation(_theta), r"R\left({0}\right)")
#: R_p = blockdiag_j R(p omega_j): RoPE at position p, interleaved layout, P = d/2 pairs.
ROPE = Definition("R_pos", (m_,), BlockDiagonal(j_, P_, ROTATION(m_ * freq_(j_))), r"R_{{{0}}}")
#: q, k: vectors of length d = 2P, pair j being (q_{2j}, q_{2j+1}).
QUERY = Definition("q_vec", (), Stacked(j_, P_, Matrix([q_(2 * j_), q_(2 * j_ + 1)])), "q")
KEY = Definition("k_vec", (), Stacked(j_, P_, Matrix([k_(2 * j_), k_(2 * j_ + 1)])), "k")
_u, _v = sympy.MatrixSymbol("u", 2 * P_, 1), sympy.MatrixSymbol("v", 2 * P_, 1)
#: <u, v> = u^T v.
DOT = Definition(
    "dot", (_u, _v), MatrixElement(MatMul(Transpose(_u), _v), 0, 0), r"\left\langle {0}, {1} \right\rangle"
)


# --------------------------------------------------------------------------
@register("rope-relative", page=PAGE)
def rope_relative() -> Theorem:
    q0, q1, k0, k1 = sympy.symbols("q_0 q_1 k_0 k_1", real=True)
    q, k = Matrix([q0, q1]), Matrix([k0, k1])
    score = MatMul(Transpose(MatMul(rope_rotation(m_ * w), q)), MatMul(rope_rotation(n_ * w), k), evaluate=False)
    relative = Matrix([[_pair_relative(q0, q1, k0, k1, (n_ - m_) * w)]])
    pair = Conclusion(score, relative, (q0, q1, k0, k1, m_, n_, w))
    query, key = QUERY(), KEY()
    whole = Conclusion(
        DOT(MatMul(ROPE(m_), query), MatMul(ROPE(n_), key)),
        DOT(query, MatMul(ROPE(n_ - m_), key)),
        (m_, n_, P_),
        where=r"$d = 2P$; $q_i, k_i$ any real components, $\omega_j > 0$ any frequencies (interleaved layout)",
    )

    def layout_sums(first, second):
        pair_scores = _pair_dot(q_(first), q_(second), k_(first), k_(second), m_ * freq_(j_), n_ * freq_(j_))
        offsets = _pair_relative(q_(first), q_(second), k_(first), k_(second), (n_ - m_) * freq_(j_))
        return Sum(pair_scores, (j_, 0, P_ - 1)), Sum(offsets, (j_, 0, P_ - 1))

    half_lhs, half_rhs = layout_sums(j_, j_ + P_)
    half = Conclusion(
        half_lhs,
        half_rhs,
        (m_, n_, P_),
        where=r"the half layout, pair $j$ being $(x_j, x_{j + P})$: the score grouped by pairs",
    )
    transposed = MatMul(q.T, rope_rotation(m_ * w).T, rope_rotation(n_ * w), k, evaluate=False)
    backwards = MatMul(q.T, rope_rotation(Unevaluated(-m_ * w)), rope_rotation(n_ * w), k, evaluate=False)
    combined = MatMul(q.T, rope_rotation((n_ - m_) * w), k, evaluate=False)
    chain = Chain(
        score,
        [
            (transposed, "transpose of a product"),
            (backwards, r"$R(\theta)^\top = R(-\theta)$: $\cos$ is even, $\sin$ is odd"),
            (combined, r"$R(a) R(b) = R(a + b)$: angle addition"),
            (relative, "multiply out"),
        ],
    )
    whole_chain = Chain(
        whole.lhs,
        [
            (
                DOT(query, MatMul(Transpose(ROPE(m_)), ROPE(n_), key)),
                r"$\langle A q, B k\rangle = \langle q, A^\top B k\rangle$",
            ),
            (
                DOT(
                    query,
                    MatMul(
                        BlockDiagonal(j_, P_, MatMul(Transpose(ROTATION(m_ * freq_(j_))), ROTATION(n_ * freq_(j_)))),
                        key,
                    ),
                ),
                "block by block",
            ),
            (whole.rhs, r"$R(a)^\top R(b) = R(b - a)$ in each pair: the pair identity"),
        ],
    )
    half_step = Termwise(half_lhs, half_rhs, r"each pair $j$, $(x_j, x_{j+P})$, by the pair identity")

    return Theorem(
        id="rope-relative",
        title="RoPE scores depend only on the offset, for every width and both layouts",
        conclusions=(whole, pair, half),
        steps=(whole_chain, chain, half_step),
        witness=Witness(
            "rope() scores <rope(q, m), rope(k, m + r)> at 8 query positions m < 5000 per offset r, and "
            "rope_relative_scores, vs the 40-digit pair formula; error / (|q||k|); d = 8, 64, 128, both layouts",
            numeric.rope_relative,
            1e-14,
            licenses="posenc_math.encodings.rope_analysis",
        ),
        negative_control=Conclusion(whole.lhs, DOT(query, MatMul(ROPE(m_ - n_), key)), (m_, n_, P_)),
        scope="general",
        scope_note="symbolic in the positions, the frequencies, the components and the number of pairs $P = d/2$",
        uses=("blockdiag-blockwise",),
        proof=(
            r"RoPE at position $p$ is the block-diagonal $R_p$; a rotation's transpose is the rotation backwards, "
            r"and two rotations add their angles, so, pair by pair,",
            whole_chain,
            r"For one pair, written out:",
            chain,
            r"In the half layout pair $j$ is $(x_j, x_{j+P})$; the score, grouped by pairs, is the same sum:",
            half_step,
        ),
        lead=(
            r"RoPE turns pair $j$ of a vector at position $p$ by the angle $p\,\omega_j$: "
            r"$R_p = \operatorname{blockdiag}_j R(p\,\omega_j)$."
        ),
    )


# --------------------------------------------------------------------------
#: The permutation from the interleaved to the half layout: coordinate 2j goes to j, 2j + 1 to j + P.
PERMUTATION = Definition(
    "Pi",
    (),
    sympy.BlockMatrix([[BlockDiagonal(j_, P_, Matrix([[1, 0]]))], [BlockDiagonal(j_, P_, Matrix([[0, 1]]))]]),
    r"\Pi",
)
#: RoPE at position p in the half layout (GPT-NeoX, Llama): pair j is (x_j, x_{j+P}).
ROPE_HALF = Definition(
    "R_half",
    (m_,),
    sympy.BlockMatrix(
        [
            [
                BlockDiagonal(j_, P_, Matrix([[cos(m_ * freq_(j_))]])),
                BlockDiagonal(j_, P_, Matrix([[-sin(m_ * freq_(j_))]])),
            ],
            [
                BlockDiagonal(j_, P_, Matrix([[sin(m_ * freq_(j_))]])),
                BlockDiagonal(j_, P_, Matrix([[cos(m_ * freq_(j_))]])),
            ],
        ]
    ),
    r"R^{{\mathrm{{half}}}}_{{{0}}}",
)


@register("rope-layout-permutation", page=PAGE)
def rope_layout_permutation() -> Theorem:
    p = sympy.Symbol("p", real=True)
    perm = PERMUTATION()
    query, key = QUERY(), KEY()
    orthogonal = Conclusion(MatMul(Transpose(perm), perm), sympy.Identity(2 * P_), (P_,))
    same_rotation = Conclusion(MatMul(ROPE_HALF(p), perm), MatMul(perm, ROPE(p)), (p, P_))
    scores = Conclusion(
        DOT(MatMul(ROPE_HALF(m_), perm, query), MatMul(ROPE_HALF(n_), perm, key)),
        DOT(MatMul(ROPE(m_), query), MatMul(ROPE(n_), key)),
        (m_, n_, P_),
        where=r"$q_i, k_i$ any real components, $\omega_j > 0$ any frequencies",
    )
    steps = (
        Equal(orthogonal.lhs, orthogonal.rhs, r"each coordinate is moved by exactly one row of $\Pi$"),
        Equal(
            same_rotation.lhs,
            same_rotation.rhs,
            r"both turn $(x_{2j}, x_{2j+1})$ by $R(p\,\omega_j)$, in "
            r"coordinates $j, j + P$",
        ),
        Chain(
            scores.lhs,
            [
                (
                    DOT(MatMul(perm, ROPE(m_), query), MatMul(perm, ROPE(n_), key)),
                    r"$R^{\mathrm{half}}_p \Pi = \Pi R_p$",
                ),
                (scores.rhs, r"$\Pi^\top \Pi = I$: a permutation keeps dot products"),
            ],
        ),
    )
    return Theorem(
        id="rope-layout-permutation",
        title="Half and interleaved RoPE are the same rotation after a fixed permutation, for every even width",
        conclusions=(orthogonal, same_rotation, scores),
        steps=steps,
        witness=Witness(
            "rope(q[perm], m, layout='half') . rope(k[perm], m + r, layout='half') vs the 40-digit interleaved "
            "pair formula, error / (|q||k|), d = 6, 64, 128; interleaved_to_half(d) and its argsort vs "
            "pi and pi^-1, d = 2, 6, 64, 256",
            numeric.rope_layout_permutation,
            1e-14,
            licenses="posenc_math.encodings.interleaved_to_half",
        ),
        negative_control=Conclusion(MatMul(ROPE_HALF(p), Transpose(perm)), MatMul(perm, ROPE(p)), (p, P_)),
        scope="general",
        scope_note=(
            "symbolic in the position, the frequencies, the components and the number of pairs $P$ (every even $d$)"
        ),
        uses=("rope-relative",),
        proof=(
            r"$\Pi$ has 0/1 entries and $\Pi^\top\Pi = I$, so it is a permutation: `interleaved_to_half(d)`. "
            r"Half-layout RoPE turns $(x_j, x_{j+P})$ by $R(p\,\omega_j)$, interleaved RoPE turns "
            r"$(x_{2j}, x_{2j+1})$; after $\Pi$ these are the same coordinates:",
            *steps,
        ),
        lead=(
            r"$\Pi$ moves coordinate $2j$ to $j$ and $2j+1$ to $j + P$ ($d = 2P$); "
            r"$R^{\mathrm{half}}_p$ is RoPE in the half layout, $R_p$ in the interleaved one "
            r"({prf:ref}`thm-rope-relative`):"
        ),
    )


# --------------------------------------------------------------------------


def _aligned_decays_on_average() -> bool:
    """q = k: the mean score falls from d at r = 0 to a small fraction far away; independent q, k: mean ~ 0."""
    offsets = np.arange(0, 2001)
    aligned, expected = rope_mean_scores(128, offsets, n_samples=2000, seed=1, aligned=True)
    independent, _ = rope_mean_scores(128, offsets, n_samples=2000, seed=2, aligned=False)
    far = slice(1000, 2001)
    noise = np.sqrt(128 / 2000)  # standard deviation of a mean of 2000 scores of variance <= d
    return bool(
        abs(expected[0] - 128) < 1e-9
        and np.abs(aligned - expected).max() < 6 * noise * np.sqrt(2)
        and np.abs(expected[far]).mean() < 128 / 5
        and np.abs(independent).max() < 6 * noise
    )


_h = indexed_function("h")
_S = indexed_function("S")
_l = sympy.Symbol("l", integer=True)
#: The score's terms h_j (S_{j+1} - S_j), summed over the P pairs.
_SCORE_SUM = Sum(sympy.Mul(_h(j_), _S(j_ + 1) - _S(j_), evaluate=False), (j_, 0, P_ - 1))
#: The boundary term of summation by parts (0 when h_P = 0 and S_0 = 0).
_BOUNDARY = _h(P_) * _S(P_) - _h(0) * _S(0)
#: |boundary| as written (SymPy would take the sign out: |S_0 h_0 - S_P h_P|).
_ABS_BOUNDARY = Abs(_BOUNDARY, evaluate=False)
#: The largest step of h.
_LARGEST_STEP = Largest(Abs(_h(_l + 1) - _h(_l), evaluate=False), (_l, 0, P_ - 1))


def _moved(partial_at):
    """The sum summation by parts leaves, with ``S`` taken at ``partial_at(j)``."""
    return Sum(sympy.Mul(_S(partial_at(j_)), _h(j_ + 1) - _h(j_), evaluate=False), (j_, 0, P_ - 1))


@register("rope-long-term-decay", page=PAGE)
def rope_long_term_decay() -> Theorem:
    by_parts = Conclusion(
        _SCORE_SUM,
        _BOUNDARY - _moved(lambda j: j + 1),
        (P_,),
        where=r"$h_j, S_j$ any complex numbers",
    )
    termwise = Sum(
        sympy.Mul(Abs(_S(j_ + 1)), Abs(_h(j_ + 1) - _h(j_), evaluate=False), evaluate=False), (j_, 0, P_ - 1)
    )
    bound = Conclusion(
        Abs(_SCORE_SUM),
        _ABS_BOUNDARY + _LARGEST_STEP * Sum(Abs(_S(j_ + 1)), (j_, 0, P_ - 1)),
        (P_,),
        relation="<=",
        where=r"$h_j, S_j$ any complex numbers",
    )
    steps = (
        Equal(
            by_parts.lhs,
            by_parts.rhs,
            r"multiply out, and shift the index of $\sum_j h_{j+1} S_{j+1}$ by one: the terms meet but for "
            r"$j = 0$ and $j = P$",
        ),
        Equal(bound.lhs, Abs(by_parts.rhs, evaluate=False), "summation by parts, inside the absolute value"),
        Holds(
            sympy.LessThan(Abs(by_parts.rhs, evaluate=False), _ABS_BOUNDARY + termwise, evaluate=False),
            r"the triangle inequality, $|a b| = |a|\,|b|$",
        ),
        Holds(
            sympy.LessThan(_ABS_BOUNDARY + termwise, bound.rhs, evaluate=False),
            r"term by term: each $|h_{j+1} - h_j|$ is at most the largest",
        ),
    )
    evidence = Fact(
        "q = k Gaussian (d = 128, base 10000): the mean score over 2000 seeded draws follows its expectation "
        "2 sum_j cos(r w_j), which is d at r = 0 and averages below d/5 in magnitude over r = 1000..2000; for "
        "independent q, k the mean stays within sampling noise (6 standard errors) of 0 at every r <= 2000",
        _aligned_decays_on_average,
        "computed evidence for when the score itself decays on average (not a conclusion)",
    )
    return Theorem(
        id="rope-long-term-decay",
        title="RoFormer's long-term decay bound: summation by parts, then the largest step of h",
        conclusions=(by_parts, bound),
        steps=(*steps, evidence),
        witness=Witness(
            "rope_decay_bound vs the 40-digit bound max_j |h_{j+1} - h_j| sum_j |S_{j+1}(r)|, relative error, and "
            "|score| <= bound at 40 digits; d = 8, 64, 128, offsets up to 3000",
            numeric.rope_long_term_decay,
            1e-12,
            licenses="posenc_math.encodings.rope_decay_bound",
        ),
        negative_control=Conclusion(
            _SCORE_SUM, _BOUNDARY - _moved(lambda j: j), (P_,), where=r"$h_j, S_j$ any complex numbers"
        ),
        scope="general",
        scope_note=(
            "symbolic in the number of pairs $P$ (every width $d = 2P$) and in the $h_j$, $S_j$; the assembled bound "
            "for RoPE's own $h$ and $S$ at 40 digits for $d = 8, 64, 128$ (witness)"
        ),
        proof=(
            r"Summation by parts moves the differences from $S$ onto $h$:",
            steps[0],
            r"Take absolute values; the triangle inequality bounds the sum by the sum of the absolute values, "
            r"and each $|h_{j+1} - h_j|$ by the largest of them:",
            *steps[1:],
            r"With $S_0 = 0$ and $h_P = 0$ the boundary term is 0, and this is RoFormer's bound "
            r"$|\text{score}| \le \max_j |h_{j+1} - h_j| \sum_j |S_{j+1}|$: a bound, not the score.",
        ),
        uses=("rope-relative",),
        lead=(
            r"RoPE's score at offset $r$ is $\operatorname{Re}\sum_{j<P} h_j\,e^{-i r\omega_j}$ "
            r"({prf:ref}`thm-rope-relative`), $P = d/2$, with $h_j = z_{q,j}\overline{z_{k,j}}$. "
            r"Write $S_j = \sum_{l<j} e^{-i r \omega_l}$, so "
            r"$S_{j+1} - S_j = e^{-i r\omega_j}$ and $S_0 = 0$; put $h_P = 0$. For any complex $h_j$, $S_j$ and "
            r"every number of pairs $P$:"
        ),
        remarks=(
            r"The bound decays (with wiggles) as $|r|$ grows; the score of one pair of vectors does not. On average "
            r"over random $q = k$ it does (its mean is $2\sum_j \cos(r\omega_j)$); for independent $q$ and $k$ its "
            r"mean is $0$ at every offset."
        ),
    )


# --------------------------------------------------------------------------
# several axes: axial RoPE, M-RoPE
#: The axis a_j of pair j, and a position vector's coordinate along an axis: x_a (query), y_a (key), c_a (a shift).
AXIS = undefined_function("a", real=True)
QUERY_AT, KEY_AT, SHIFT = (undefined_function(name, real=True, latex=rf"\mathbf{{{name}}}") for name in "xyc")


def _axes_rotation(name: str, coordinate, shown: str) -> Definition:
    """blockdiag_j R(coordinate(j) omega_j): pair j turned by the coordinate its axis reads."""
    return Definition(name, (), BlockDiagonal(j_, P_, ROTATION(Mul(coordinate, freq_(j_), evaluate=False))), shown)


def _along(position):
    return position(AXIS(j_))


#: R_x, R_y: the rotations at the query's and the key's position vectors; R_{y-x} at their difference.
AXES_X = _axes_rotation("R_x", _along(QUERY_AT), r"R_{{\mathbf{{x}}}}")
AXES_Y = _axes_rotation("R_y", _along(KEY_AT), r"R_{{\mathbf{{y}}}}")
AXES_OFFSET = _axes_rotation(
    "R_y_minus_x", Add(_along(KEY_AT), -_along(QUERY_AT), evaluate=False), r"R_{{\mathbf{{y}} - \mathbf{{x}}}}"
)
AXES_BACKWARDS = _axes_rotation(
    "R_x_minus_y", Add(_along(QUERY_AT), -_along(KEY_AT), evaluate=False), r"R_{{\mathbf{{x}} - \mathbf{{y}}}}"
)
AXES_X_SHIFTED = _axes_rotation(
    "R_x_plus_c", Add(_along(QUERY_AT), _along(SHIFT), evaluate=False), r"R_{{\mathbf{{x}} + \mathbf{{c}}}}"
)
AXES_Y_SHIFTED = _axes_rotation(
    "R_y_plus_c", Add(_along(KEY_AT), _along(SHIFT), evaluate=False), r"R_{{\mathbf{{y}} + \mathbf{{c}}}}"
)


#: The common shift of both position vectors in the non-commuting example, and the change of score it must exceed.
NON_COMMUTING_SHIFT, NON_COMMUTING_CHANGE = (0.9, -0.6), 0.1


def _non_commuting_rotations_see_positions() -> bool:
    """A 3-D block turned about x by the first coordinate, then about y by the second: a common shift of the
    two position vectors changes the score (the rotations do not commute)."""

    def turned(vector, angles):
        a, b = angles
        about_x = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
        about_y = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
        return about_y @ about_x @ vector

    query, key = np.array([0.3, -1.2, 0.8]), np.array([1.1, 0.4, -0.5])
    x, y, shift = np.array([0.3, 1.1]), np.array([1.7, 0.2]), np.array(NON_COMMUTING_SHIFT)
    before = turned(query, x) @ turned(key, y)
    after = turned(query, x + shift) @ turned(key, y + shift)
    return bool(abs(before - after) > NON_COMMUTING_CHANGE)


@register("multi-axis-relative", page=PAGE)
def multi_axis_relative() -> Theorem:
    query, key = QUERY(), KEY()
    scores = DOT(MatMul(AXES_X(), query), MatMul(AXES_Y(), key))
    where = (
        r"$a_j$ any assignment of the $P$ pairs to axes; $\mathbf{x}_{a}, \mathbf{y}_{a}, \mathbf{c}_{a}$ any real "
        r"coordinates; $q, k$ any real components, $\omega_j > 0$ any frequencies"
    )
    relative = Conclusion(scores, DOT(query, MatMul(AXES_OFFSET(), key)), (P_,), where=where)
    shifted = Conclusion(DOT(MatMul(AXES_X_SHIFTED(), query), MatMul(AXES_Y_SHIFTED(), key)), scores, (P_,))
    per_pair = BlockDiagonal(
        j_,
        P_,
        MatMul(
            Transpose(ROTATION(Mul(_along(QUERY_AT), freq_(j_), evaluate=False))),
            ROTATION(Mul(_along(KEY_AT), freq_(j_), evaluate=False)),
        ),
    )
    first = Chain(
        relative.lhs,
        [
            (
                DOT(query, MatMul(Transpose(AXES_X()), AXES_Y(), key)),
                r"$\langle A q, B k\rangle = \langle q, A^\top B k\rangle$",
            ),
            (DOT(query, MatMul(per_pair, key)), "block by block"),
            (
                relative.rhs,
                r"$R(\alpha)^\top R(\beta) = R(\beta - \alpha)$ in each pair: two rotations of one plane commute",
            ),
        ],
    )
    moved = Add(
        Add(_along(KEY_AT), _along(SHIFT), evaluate=False),
        -Add(_along(QUERY_AT), _along(SHIFT), evaluate=False),
        evaluate=False,
    )
    second = Chain(
        shifted.lhs,
        [
            (
                DOT(query, MatMul(BlockDiagonal(j_, P_, ROTATION(Mul(moved, freq_(j_), evaluate=False))), key)),
                r"the first statement at $\mathbf{x} + \mathbf{c}$, $\mathbf{y} + \mathbf{c}$",
            ),
            (DOT(query, MatMul(AXES_OFFSET(), key)), r"$\mathbf{c}$ cancels in every pair"),
            (shifted.rhs, "the first statement, read backwards"),
        ],
    )
    evidence = Fact(
        "two rotations of one 3-D block that do not commute (about the first axis by x_1, then about the second "
        f"by x_2): moving both position vectors by {NON_COMMUTING_SHIFT} changes the score by more than "
        f"{NON_COMMUTING_CHANGE}",
        _non_commuting_rotations_see_positions,
        "computed: without the block structure the statement fails",
    )
    return Theorem(
        id="multi-axis-relative",
        title="With commuting rotations, multi-axis scores depend only on the offset vector (axial RoPE, M-RoPE)",
        conclusions=(relative, shifted),
        steps=(first, second, evidence),
        witness=Witness(
            "axial_rope (2 and 3 axes), mrope (sections 16/24/24) and Qwen3-VL's RopeLayer.rotate (interleaved "
            "sections) scores at position vectors x, y and at x + c, y + c, c any integer vector, vs the "
            "40-digit pair formula at the offsets y_a - x_a of each pair's axis; error / (|q||k|)",
            numeric.multi_axis_relative,
            1e-13,
            licenses="posenc_math.encodings.axial_rope",
        ),
        negative_control=Conclusion(scores, DOT(query, MatMul(AXES_BACKWARDS(), key)), (P_,), where=where),
        scope="general",
        scope_note=(
            "symbolic in the number of pairs $P = d/2$, the assignment of pairs to axes (any number of axes), the "
            "position vectors, the shift, the components and the frequencies"
        ),
        uses=("blockdiag-blockwise",),
        proof=(
            r"Each pair turns in a plane of its own, and two rotations of one plane commute and add their angles; "
            r"so, pair by pair, whatever axis the pair reads:",
            first,
            r"A common shift $\mathbf{c}$ of both position vectors moves every pair's two coordinates alike:",
            second,
            evidence,
        ),
        lead=(
            r"A multi-axis scheme gives each token a position vector, $\mathbf{x}$ for the query and $\mathbf{y}$ for "
            r"the key (an image's row and column for axial RoPE, M-RoPE's temporal, height and width ids), and "
            r"assigns pair $j$ of the $P$ pairs to an axis $a_j$; pair $j$ turns by the coordinate it reads: "
            r"$R_{\mathbf{x}} = \operatorname{blockdiag}_j R(\mathbf{x}_{a_j}\omega_j)$. For every $P$:"
        ),
        remarks=(
            r"Axial RoPE gives each axis a block of consecutive pairs; M-RoPE gives them consecutive sections "
            r"or deals them in turn ({prf:ref}`thm-mrope-text-is-rope`): the statement covers every "
            r"assignment. The negative control reads the offset the other way, $\mathbf{x} - \mathbf{y}$."
        ),
    )
