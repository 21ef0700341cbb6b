"""Theorems of the translation page: a shift of position is a linear map.

The sinusoidal encoding of width ``d = 2n`` is ``n`` sine-cosine pairs, pair
``i`` at the frequency ``omega_i = b^(-2i/d)``.  Every statement about the
whole width is proved in two parts, both symbolic:

- for one pair with a symbolic frequency (``shift-block``, ``shift-group``,
  ``shift-orthogonal``), instantiated at ``omega_i = b^(-2i/d)`` with
  symbolic ``b``, ``d`` and ``i`` (``shift-full``);
- the lemma ``blockdiag-blockwise``: a block-diagonal matrix acts on a
  stacked vector block by block, multiplies and transposes block by block,
  for blocks of any (symbolic) size.  Applied once per added pair (induction
  on the number of pairs), it lifts the per-pair statements to ``T(k)`` of
  every width.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["shift-full"])]
[('shift-full', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import Matrix, cos, pi, sin

from ..witnesses import translation as numeric
from ._common import block_as_written, k, pair, rotation_block, t, ucos, usin, w
from .core import Chain, Conclusion, Equal, Theorem, Use, Witness
from .registry import register

PAGE = "translation"

#: Symbols of the encoding: base b > 1, even width d, pair index i.
BASE = sympy.Symbol("b", positive=True)
WIDTH = sympy.Symbol("d", positive=True, even=True)
INDEX = sympy.Symbol("i", integer=True, nonnegative=True)
#: How pages write the frequency of pair i (display only; see Theorem.notation).
OMEGA_I = sympy.Symbol("omega_i", positive=True)
#: A second offset (the group law composes k and l).
l_ = sympy.Symbol("l", real=True)
#: Angles of the angle-addition formulas.
x, y = sympy.symbols("x y", real=True)


def omega(index=INDEX, base=BASE, width=WIDTH):
    """The frequency of pair ``index``: ``base ** (-2 index / width)``."""
    return base ** (-2 * index / width)


# --------------------------------------------------------------------------
@register("angle-addition", page=PAGE)
def angle_addition() -> Theorem:
    euler = sympy.exp(sympy.I * (x + y))
    product = (cos(x) + sympy.I * sin(x)) * (cos(y) + sympy.I * sin(y))
    multiplied = (cos(x) * cos(y) - sin(x) * sin(y)) + sympy.I * (sin(x) * cos(y) + cos(x) * sin(y))
    euler_chain = Chain(
        euler,
        [
            (sympy.Mul(sympy.exp(sympy.I * x), sympy.exp(sympy.I * y), evaluate=False), "exponent law"),
            (product, "Euler's formula for each factor"),
            (multiplied, "multiply out, collect real and imaginary parts"),
        ],
    )
    sine = Conclusion(sin(x + y), sin(x) * cos(y) + cos(x) * sin(y), over=(x, y))
    cosine = Conclusion(cos(x + y), cos(x) * cos(y) - sin(x) * sin(y), over=(x, y))
    sine_step = Equal(sine.lhs, sine.rhs, "imaginary parts of both ends")
    cosine_step = Equal(cosine.lhs, cosine.rhs, "real parts of both ends")

    return Theorem(
        id="angle-addition",
        title="Angle addition",
        conclusions=(sine, cosine),
        steps=(euler_chain, sine_step, cosine_step),
        witness=Witness(
            "the right-hand sides in numpy float64 at 20 random (x, y) in [-1000, 1000] vs sin(x + y), cos(x + y) "
            "at 40 digits",
            numeric.angle_addition,
            1e-12,
            licenses="numpy.sin",
        ),
        negative_control=Conclusion(sin(x + y), sin(x) * cos(y) - cos(x) * sin(y), over=(x, y)),
        scope="general",
        proof=(
            r"By Euler's formula $e^{i\theta} = \cos\theta + i\sin\theta$:",
            euler_chain,
            "Comparing imaginary and real parts of the two ends gives both formulas.",
        ),
        lead="The rule every shift identity on this site rests on.",
        remarks=(
            "The checker's own expansion of $\\sin(x+y)$ applies SymPy's angle-addition rule; the chain derives "
            "the formulas from exponentials, so this theorem checks that rule rather than standing beneath it."
        ),
    )


# --------------------------------------------------------------------------
@register("blockdiag-blockwise", page=PAGE)
def blockdiag_blockwise() -> Theorem:
    size = sympy.Symbol("m", integer=True, positive=True)
    A, C = sympy.MatrixSymbol("A", size, size), sympy.MatrixSymbol("C", size, size)
    B, D = sympy.MatrixSymbol("B", 2, 2), sympy.MatrixSymbol("D", 2, 2)
    u, v = sympy.MatrixSymbol("u", size, 1), sympy.MatrixSymbol("v", 2, 1)
    acts = Conclusion(
        sympy.MatMul(sympy.BlockDiagMatrix(A, B), sympy.BlockMatrix([[u], [v]]), evaluate=False),
        sympy.BlockMatrix([[A * u], [B * v]]),
        over=(A, B, u, v),
    )
    composes = Conclusion(
        sympy.MatMul(sympy.BlockDiagMatrix(A, B), sympy.BlockDiagMatrix(C, D), evaluate=False),
        sympy.BlockDiagMatrix(A * C, B * D),
        over=(A, B, C, D),
    )
    transposes = Conclusion(
        sympy.Transpose(sympy.BlockDiagMatrix(A, B)),
        sympy.BlockDiagMatrix(A.T, B.T),
        over=(A, B),
    )
    steps = tuple(
        Equal(c.lhs, c.rhs, why)
        for c, why in zip(
            (acts, composes, transposes), ("block product", "block product", "block transpose"), strict=True
        )
    )

    return Theorem(
        id="blockdiag-blockwise",
        title="A block-diagonal matrix acts block by block",
        conclusions=(acts, composes, transposes),
        steps=steps,
        witness=Witness(
            "translation_matrix(k, d) entry by entry (interleaved, d = 2, 8, 64) against blockdiag(B(omega_i k)) "
            "at 40 digits: zero outside the 2 x 2 diagonal blocks",
            numeric.blockdiag_blockwise,
            1e-12,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(composes.lhs, sympy.BlockDiagMatrix(C * A, D * B), over=(A, B, C, D)),
        scope="general",
        proof=(
            r"Multiply the blocks as numbers are multiplied, keeping their order; the zero off-diagonal blocks "
            r"contribute nothing. With $A$ the matrix of the first $n$ pairs and $B$ the block of pair $n$, this "
            r"is the step from $n$ to $n + 1$ pairs of an induction on the number of pairs.",
        ),
        lead=r"For square $A$ of any size $m$, $2\times 2$ blocks $B$, $D$, and columns $u$, $v$:",
    )


# --------------------------------------------------------------------------


def _shift_block_parts(frequency):
    block = rotation_block(frequency * k)
    start = sympy.MatMul(block, pair(frequency * t), evaluate=False)
    multiplied = Matrix(
        [
            sin(frequency * t) * cos(frequency * k) + cos(frequency * t) * sin(frequency * k),
            -sin(frequency * t) * sin(frequency * k) + cos(frequency * t) * cos(frequency * k),
        ]
    )
    return start, multiplied


@register("shift-block", page=PAGE)
def shift_block() -> Theorem:
    start, multiplied = _shift_block_parts(w)
    goal = Conclusion(start, pair(w * (t + k)), over=(w, t, k))
    chain = Chain(
        start,
        [
            (multiplied, "multiply the matrix and the column"),
            (
                Matrix([sin(sympy.Add(w * t, w * k, evaluate=False)), cos(sympy.Add(w * t, w * k, evaluate=False))]),
                "angle addition, both rows",
            ),
            (goal.rhs, "factor the frequency"),
        ],
    )
    return Theorem(
        id="shift-block",
        title="One sine-cosine pair is shifted by a rotation",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 12 random (t, k, d, layout, spacing)",
            numeric.shift_block,
            1e-12,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(
            sympy.MatMul(rotation_block(-w * k), pair(w * t), evaluate=False), goal.rhs, over=(w, t, k)
        ),
        scope="general",
        uses=("angle-addition",),
        proof=("Multiply out and use angle addition in each row:", chain),
        lead="The matrix depends on the offset $k$ and the frequency only, not on the position $t$:",
    )


@register("shift-full", page=PAGE)
def shift_full() -> Theorem:
    frequency = omega()
    start, _ = _shift_block_parts(w)
    instance = Use("shift-block", {w: frequency}, r"shift-block at the frequency of pair $i$")
    goal = Conclusion(
        start.xreplace({w: frequency}),
        pair(w * (t + k)).xreplace({w: frequency}),
        over=(BASE, WIDTH, INDEX, t, k),
        where=(
            r"$0 \le i < d/2$; $T(k) = \operatorname{blockdiag}\big(B(\omega_0 k), \dots, "
            r"B(\omega_{d/2-1} k)\big)$ with $B(\theta) = \begin{pmatrix}\cos\theta & \sin\theta\\ "
            r"-\sin\theta & \cos\theta\end{pmatrix}$ acts on $\mathrm{PE}(t)$ pair by pair "
            r"(blockdiag-blockwise), so this is $T(k)\,\mathrm{PE}(t) = \mathrm{PE}(t+k)$ for every even $d$"
        ),
    )
    return Theorem(
        id="shift-full",
        title="The whole encoding is shifted by a block-diagonal matrix T(k)",
        conclusions=(goal,),
        steps=(instance,),
        witness=Witness(
            "translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 12 random (t, k, d, layout, spacing)",
            numeric.shift_full,
            1e-12,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(start.xreplace({w: omega(INDEX + 1)}), goal.rhs, over=(BASE, WIDTH, INDEX, t, k)),
        scope="general",
        uses=("shift-block", "blockdiag-blockwise"),
        notation={frequency: OMEGA_I},
        proof=(
            r"Pair $i$ of $\mathrm{PE}(t)$ is $(\sin\omega_i t, \cos\omega_i t)$ with $\omega_i = b^{-2i/d} > 0$, "
            r"so shift-block applies to it with $\omega = \omega_i$.",
            instance,
            r"Stacking the pairs: $T(k)$ is block-diagonal, and blockdiag-blockwise, applied once per added pair, "
            r"says $T(k)\,\mathrm{PE}(t)$ is the column of the shifted pairs, which is $\mathrm{PE}(t+k)$.",
        ),
        lead=r"For the encoding of even width $d$ with base $b$, pair $i$ of $T(k)\,\mathrm{PE}(t)$ is",
    )


# --------------------------------------------------------------------------
@register("shift-group", page=PAGE)
def shift_group() -> Theorem:
    product = sympy.MatMul(rotation_block(w * k), rotation_block(w * l_), evaluate=False)
    entries = Matrix(
        [
            [cos(w * k) * cos(w * l_) - sin(w * k) * sin(w * l_), cos(w * k) * sin(w * l_) + sin(w * k) * cos(w * l_)],
            [
                -(sin(w * k) * cos(w * l_) + cos(w * k) * sin(w * l_)),
                cos(w * k) * cos(w * l_) - sin(w * k) * sin(w * l_),
            ],
        ]
    )
    compose = Conclusion(product, rotation_block(w * (k + l_)), over=(w, k, l_))
    unit = Conclusion(block_as_written(sympy.Mul(w, 0, evaluate=False)), sympy.eye(2), over=(w,))
    chain = Chain(
        product,
        [
            (entries, "multiply the two blocks"),
            (rotation_block(sympy.Add(w * k, w * l_, evaluate=False)), "angle addition in each entry"),
            (compose.rhs, "factor the frequency"),
        ],
    )
    unit_step = Equal(unit.lhs, unit.rhs, r"$\cos 0 = 1$, $\sin 0 = 0$")

    return Theorem(
        id="shift-group",
        title="Shifts compose: T(k) T(l) = T(k + l), T(0) = I",
        conclusions=(compose, unit),
        steps=(chain, unit_step),
        witness=Witness(
            "translation_matrix(k) @ translation_matrix(l) vs the blocks of T(k + l) at 40 digits (d = 8, 64), "
            "and translation_matrix(0) vs I",
            numeric.shift_group,
            1e-11,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(product, rotation_block(w * (k - l_)), over=(w, k, l_)),
        scope="general",
        uses=("angle-addition", "blockdiag-blockwise"),
        proof=(
            "For one block, multiply and use angle addition:",
            chain,
            r"$T(k)\,T(l)$ multiplies block by block (blockdiag-blockwise), so the law holds for $T$ of every "
            r"width; at $k = 0$ every block is $I$.",
        ),
        lead=r"For every frequency $\omega > 0$ the blocks $B(\omega k)$, and so the matrices $T(k)$, satisfy",
    )


@register("shift-orthogonal", page=PAGE)
def shift_orthogonal() -> Theorem:
    block = rotation_block(w * k)
    gram = sympy.MatMul(block.T, block, evaluate=False)
    orthogonal = Conclusion(gram, sympy.eye(2), over=(w, k))
    back = Conclusion(
        sympy.Transpose(sympy.ImmutableMatrix(block)), block_as_written(sympy.Mul(w, -k, evaluate=False)), over=(w, k)
    )
    first = Chain(
        gram,
        [
            (
                Matrix([[cos(w * k) ** 2 + sin(w * k) ** 2, 0], [0, sin(w * k) ** 2 + cos(w * k) ** 2]]),
                "multiply; the off-diagonal terms cancel",
            ),
            (orthogonal.rhs, "Pythagoras"),
        ],
    )
    second = Chain(
        back.lhs,
        [
            (Matrix([[cos(w * k), -sin(w * k)], [sin(w * k), cos(w * k)]]), "transpose"),
            (back.rhs, r"$\cos$ is even, $\sin$ is odd"),
        ],
    )

    return Theorem(
        id="shift-orthogonal",
        title="T(k) is orthogonal and its transpose shifts back",
        conclusions=(orthogonal, back),
        steps=(first, second),
        witness=Witness(
            "max |T^T T - I| and |T(k)^T - T(-k)| for translation_matrix(k, 128), k = 9.5, -130.25",
            numeric.shift_orthogonal,
            1e-13,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(back.lhs, block, over=(w, k)),
        scope="general",
        uses=("blockdiag-blockwise",),
        proof=(
            first,
            second,
            r"Transposes and products of $T(k)$ go block by block (blockdiag-blockwise), so "
            r"$T(k)^\top T(k) = I$ and $T(k)^\top = T(-k)$ for every width.",
        ),
        lead=r"For every frequency $\omega > 0$ and offset $k$, the block $B(\omega k)$, and so $T(k)$, satisfies",
    )


# --------------------------------------------------------------------------
@register("single-sine-not-linear", page=PAGE)
def single_sine_not_linear() -> Theorem:
    phi = sympy.Symbol("phi", real=True)
    mirror = Conclusion(usin(pi - x), sin(x), over=(x,))
    gap = Conclusion(sin(x + phi) - usin(pi - x + phi), 2 * sin(phi) * cos(x), over=(x, phi))
    mirror_step = Chain(
        mirror.lhs,
        [
            (sympy.Add(usin(pi) * cos(x), -ucos(pi) * sin(x), evaluate=False), "angle subtraction"),
            (mirror.rhs, r"$\sin\pi = 0$, $\cos\pi = -1$"),
        ],
    )
    gap_step = Chain(
        gap.lhs,
        [
            (
                sin(x) * cos(phi) + cos(x) * sin(phi) - (usin(pi - x) * cos(phi) + ucos(pi - x) * sin(phi)),
                "angle addition in both terms",
            ),
            (
                sympy.Add(sin(x) * cos(phi), cos(x) * sin(phi), -sin(x) * cos(phi), cos(x) * sin(phi), evaluate=False),
                r"$\sin(\pi - x) = \sin x$, $\cos(\pi - x) = -\cos x$",
            ),
            (gap.rhs, "collect"),
        ],
    )

    return Theorem(
        id="single-sine-not-linear",
        title="A sine alone cannot be shifted linearly: it needs its cosine partner",
        conclusions=(mirror, gap),
        steps=(mirror_step, gap_step),
        witness=Witness(
            "sin(x + phi) - sin(pi - x + phi) in numpy vs 2 sin(phi) cos(x) at 40 digits, 20 random points",
            numeric.single_sine_not_linear,
            1e-12,
            licenses="numpy.sin",
        ),
        negative_control=Conclusion(gap.lhs, sympy.Integer(0), over=(x, phi)),
        scope="general",
        uses=("angle-addition",),
        proof=(
            r"The positions $x$ and $\pi - x$ have the same sine, so any function of $\sin x$ alone gives them "
            r"the same output; their shifted values differ:",
            gap_step,
            r"which is not $0$ unless $\sin\varphi = 0$ (a shift by a multiple of half a period) or $\cos x = 0$. "
            r"So no function of $\sin\omega t$ alone gives $\sin\omega(t+k)$: the cosine partner is needed.",
        ),
        lead=r"With $x = \omega t$ and $\varphi = \omega k$:",
    )
