"""Theorems of the translation page: a shift of position is a linear map, for the whole encoding.

The sinusoidal encoding of even width ``d`` stacks ``d/2`` sine-cosine
pairs, pair ``i`` at the frequency ``omega_i = b^(-2i/d)``:
``PE(t) = stack_i (sin omega_i t, cos omega_i t)``, and the translation
matrix is ``T(k) = blockdiag_i B(omega_i k)``.  Both are
:class:`~posenc_math.theorems.language.Definition` objects over a symbolic
number of pairs, so the statements ``T(k) PE(t) = PE(t + k)``,
``T(k) T(l) = T(k + l)``, ``T(k)^T T(k) = I`` are about the whole ``d x d``
matrix for every even ``d``; the kernel reads the block-diagonal structure
by the rules that ``blockdiag-blockwise`` states.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["shift-full"])]
[('shift-full', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import I, MatMul, Matrix, Mul, Transpose, cos, exp, pi, sin

from ..witnesses import translation as numeric
from ._common import k, pair, rotation_block, t, ucos, usin, w
from .core import Chain, Conclusion, Equal, Theorem, Witness
from .language import BlockDiagonal, Definition, Stacked, undefined_function
from .registry import register

PAGE = "translation"

#: Symbols of the encoding: base b > 0, even width d, pair index i.
BASE = sympy.Symbol("b", positive=True)
WIDTH = sympy.Symbol("d", positive=True, even=True)
INDEX = sympy.Symbol("i", integer=True, nonnegative=True)
#: How pages wrote the frequency of pair i before it was a Definition (OMEGA).
OMEGA_I = sympy.Symbol("omega_i", positive=True)
#: A second offset (the group law composes k and l).
l_ = sympy.Symbol("l", real=True)
#: Angles of the angle-addition formulas.
x, y = sympy.symbols("x y", real=True)
theta = sympy.Symbol("theta", real=True)

#: omega_i = b^(-2i/d), the frequency of pair i.
OMEGA = Definition("omega", (INDEX,), BASE ** (-2 * INDEX / WIDTH), r"\omega_{{{0}}}")
#: B(theta), the 2 x 2 block that turns one pair by theta.
BLOCK = Definition("B", (theta,), rotation_block(theta), r"B({0})")
#: T(k) = blockdiag(B(omega_0 k), ..., B(omega_{d/2-1} k)), the translation matrix of width d.
T = Definition("T", (k,), BlockDiagonal(INDEX, WIDTH / 2, BLOCK(OMEGA(INDEX) * k)), r"T({0})")
#: PE(t), the encoding of position t: pair i is (sin omega_i t, cos omega_i t).
PE = Definition(
    "PE", (t,), Stacked(INDEX, WIDTH / 2, Matrix([sin(OMEGA(INDEX) * t), cos(OMEGA(INDEX) * t)])), r"\mathrm{{PE}}({0})"
)


def omega(index=INDEX, base=BASE, width=WIDTH):
    """The frequency of pair ``index``: ``base ** (-2 index / width)``."""
    return base ** (-2 * index / width)


def _euler_sine(angle):
    """``(e^{i angle} - e^{-i angle}) / (2i)`` as written."""
    return Mul(exp(I * angle) - exp(-I * angle), 1 / (2 * I), evaluate=False)


# --------------------------------------------------------------------------
@register("angle-addition", page=PAGE)
def angle_addition() -> Theorem:
    sine = Conclusion(sin(x + y), sin(x) * cos(y) + cos(x) * sin(y), over=(x, y))
    cosine = Conclusion(cos(x + y), cos(x) * cos(y) - sin(x) * sin(y), over=(x, y))
    plus, minus = (cos(x) + I * sin(x)) * (cos(y) + I * sin(y)), (cos(x) - I * sin(x)) * (cos(y) - I * sin(y))
    sine_chain = Chain(
        sine.lhs,
        [
            (_euler_sine(x + y), r"Euler: $\sin z = (e^{iz} - e^{-iz})/2i$"),
            (
                Mul(
                    Mul(exp(I * x), exp(I * y), evaluate=False) - Mul(exp(-I * x), exp(-I * y), evaluate=False),
                    1 / (2 * I),
                    evaluate=False,
                ),
                r"exponent law $e^{a + b} = e^a e^b$",
            ),
            (Mul(plus - minus, 1 / (2 * I), evaluate=False), r"Euler: $e^{\pm iz} = \cos z \pm i \sin z$"),
            (sine.rhs, "multiply out: the real parts cancel"),
        ],
    )
    cosine_chain = Chain(
        cosine.lhs,
        [
            (
                Mul(exp(I * (x + y)) + exp(-I * (x + y)), sympy.Rational(1, 2), evaluate=False),
                r"Euler: $\cos z = (e^{iz} + e^{-iz})/2$",
            ),
            (
                Mul(
                    Mul(exp(I * x), exp(I * y), evaluate=False) + Mul(exp(-I * x), exp(-I * y), evaluate=False),
                    sympy.Rational(1, 2),
                    evaluate=False,
                ),
                "exponent law",
            ),
            (Mul(plus + minus, sympy.Rational(1, 2), evaluate=False), "Euler for each factor"),
            (cosine.rhs, "multiply out: the imaginary parts cancel"),
        ],
    )
    return Theorem(
        id="angle-addition",
        title="Angle addition",
        conclusions=(sine, cosine),
        steps=(sine_chain, cosine_chain),
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
            r"From Euler's formula $e^{iz} = \cos z + i \sin z$ and the exponent law $e^{a+b} = e^a e^b$:",
            sine_chain,
            cosine_chain,
        ),
        lead="The rule every shift identity on this site rests on.",
        remarks=(
            "The checker has no angle-addition rule: it reads $\\sin$ and $\\cos$ by Euler's formula and "
            "exponentials by the exponent law, exactly the steps of this derivation."
        ),
    )


# --------------------------------------------------------------------------
@register("blockdiag-blockwise", page=PAGE)
def blockdiag_blockwise() -> Theorem:
    n = sympy.Symbol("n", integer=True, positive=True)
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    # Greek entries: no letter that means something else on the page (b the base, p and q positions, e the encoding)
    names = ("alpha", "beta", "gamma", "delta", "kappa", "mu", "nu", "rho", "sigma", "tau")
    entries = (undefined_function(name, real=True, latex="\\" + name) for name in names)
    alpha, beta, gamma, delta, kappa, mu, nu, rho, sigma, tau = entries
    A = Definition("A", (j,), Matrix([[alpha(j), beta(j)], [gamma(j), delta(j)]]), r"A_{{{0}}}")
    C = Definition("C", (j,), Matrix([[kappa(j), mu(j)], [nu(j), rho(j)]]), r"C_{{{0}}}")
    v = Definition("v", (j,), Matrix([sigma(j), tau(j)]), r"v_{{{0}}}")  # entries of its own, not C's
    diag_a = BlockDiagonal(j, n, A(j))
    acts = Conclusion(MatMul(diag_a, Stacked(j, n, v(j)), evaluate=False), Stacked(j, n, MatMul(A(j), v(j))), over=(n,))
    composes = Conclusion(
        MatMul(diag_a, BlockDiagonal(j, n, C(j)), evaluate=False), BlockDiagonal(j, n, MatMul(A(j), C(j))), over=(n,)
    )
    transposes = Conclusion(Transpose(diag_a), BlockDiagonal(j, n, Transpose(A(j))), over=(n,))
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
        negative_control=Conclusion(composes.lhs, BlockDiagonal(j, n, MatMul(C(j), A(j))), over=(n,)),
        scope="general",
        scope_note="symbolic in the number of blocks $n$ and in every entry of every block",
        proof=(
            r"Multiply the blocks as numbers are multiplied, keeping their order; the zero off-diagonal blocks "
            r"contribute nothing. These are the kernel's block rules, stated here as a theorem: they are checked "
            r"at every step that uses them by evaluating both sides at explicit sizes.",
        ),
        lead=r"For $n$ blocks $A_j$, $C_j$ ($2 \times 2$, any real entries) and columns $v_j$:",
    )


# --------------------------------------------------------------------------
def _shift_block_parts(frequency):
    start = MatMul(rotation_block(frequency * k), pair(frequency * t), evaluate=False)
    multiplied = Matrix(
        [
            sin(frequency * t) * cos(frequency * k) + cos(frequency * t) * sin(frequency * k),
            -sin(frequency * t) * sin(frequency * k) + cos(frequency * t) * cos(frequency * k),
        ]
    )
    return start, multiplied


@register("shift-block", page=PAGE)
def shift_block() -> Theorem:
    start = MatMul(BLOCK(w * k), pair(w * t), evaluate=False)
    _, multiplied = _shift_block_parts(w)
    goal = Conclusion(start, pair(w * sympy.Add(t, k, evaluate=False)), over=(w, t, k))
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
            MatMul(Transpose(BLOCK(w * k)), pair(w * t), evaluate=False), goal.rhs, over=(w, t, k)
        ),
        scope="general",
        uses=("angle-addition",),
        proof=("Multiply out and use angle addition in each row:", chain),
        lead="The matrix depends on the offset $k$ and the frequency only, not on the position $t$:",
    )


@register("shift-full", page=PAGE)
def shift_full() -> Theorem:
    goal = Conclusion(
        MatMul(T(k), PE(t), evaluate=False), PE(sympy.Add(t, k, evaluate=False)), over=(BASE, WIDTH, t, k)
    )
    pairs_turned = Stacked(
        INDEX, WIDTH / 2, MatMul(BLOCK(OMEGA(INDEX) * k), Matrix([sin(OMEGA(INDEX) * t), cos(OMEGA(INDEX) * t)]))
    )
    pairs_shifted = Stacked(INDEX, WIDTH / 2, Matrix([sin(OMEGA(INDEX) * (t + k)), cos(OMEGA(INDEX) * (t + k))]))
    chain = Chain(
        goal.lhs,
        [
            (pairs_turned, r"$T(k)$ is block-diagonal: it turns pair $i$ of $\mathrm{PE}(t)$ by $B(\omega_i k)$"),
            (pairs_shifted, r"the one-pair shift at $\omega = \omega_i$, for every pair $i$"),
            (goal.rhs, r"the definition of $\mathrm{PE}(t + k)$"),
        ],
    )
    return Theorem(
        id="shift-full",
        title="The whole encoding is shifted by a block-diagonal matrix $T(k)$",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 12 random (t, k, d, layout, spacing)",
            numeric.shift_full,
            1e-12,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(
            MatMul(T(k), PE(t), evaluate=False), PE(sympy.Add(t, -k, evaluate=False)), over=(BASE, WIDTH, t, k)
        ),
        scope="general",
        scope_note="symbolic in the base, the width $d$ (every even $d$: $d/2$ pairs), the position and the offset",
        uses=("shift-block", "blockdiag-blockwise"),
        proof=(
            r"$T(k)$ acts on $\mathrm{PE}(t)$ pair by pair ({prf:ref}`thm-blockdiag-blockwise`), and "
            r"{prf:ref}`thm-shift-block` shifts each pair:",
            chain,
        ),
        lead=r"For the encoding of every even width $d$ with base $b$:",
    )


# --------------------------------------------------------------------------
@register("shift-group", page=PAGE)
def shift_group() -> Theorem:
    compose = Conclusion(MatMul(T(k), T(l_), evaluate=False), T(k + l_), over=(BASE, WIDTH, k, l_))
    unit = Conclusion(T(sympy.S.Zero), sympy.Identity(WIDTH), over=(BASE, WIDTH))
    product = BlockDiagonal(INDEX, WIDTH / 2, MatMul(BLOCK(OMEGA(INDEX) * k), BLOCK(OMEGA(INDEX) * l_)))
    chain = Chain(
        compose.lhs,
        [
            (product, "block-diagonal matrices multiply block by block"),
            (compose.rhs, r"$B(\alpha) B(\beta) = B(\alpha + \beta)$ in each block: angle addition"),
        ],
    )
    unit_chain = Chain(
        unit.lhs,
        [
            (
                BlockDiagonal(INDEX, WIDTH / 2, BLOCK(Mul(OMEGA(INDEX), 0, evaluate=False))),
                r"the definition at $k = 0$",
            ),
            (unit.rhs, r"$\cos 0 = 1$, $\sin 0 = 0$: every block is $I$"),
        ],
    )
    return Theorem(
        id="shift-group",
        title=r"Shifts compose: $T(k)\,T(l) = T(k + l)$, $T(0) = I$",
        conclusions=(compose, unit),
        steps=(chain, unit_chain),
        witness=Witness(
            "translation_matrix(k) @ translation_matrix(l) vs the blocks of T(k + l) at 40 digits (d = 8, 64), "
            "and translation_matrix(0) vs I",
            numeric.shift_group,
            1e-11,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(MatMul(T(k), T(l_), evaluate=False), T(k - l_), over=(BASE, WIDTH, k, l_)),
        scope="general",
        scope_note="symbolic in the base, the width $d$ (every even $d$) and the offsets",
        uses=("angle-addition", "blockdiag-blockwise"),
        proof=("Block by block, by angle addition:", chain, unit_chain),
        lead=r"For every even width $d$ and base $b$, the translation matrices form a group:",
    )


@register("shift-orthogonal", page=PAGE)
def shift_orthogonal() -> Theorem:
    orthogonal = Conclusion(MatMul(Transpose(T(k)), T(k), evaluate=False), sympy.Identity(WIDTH), over=(BASE, WIDTH, k))
    back = Conclusion(Transpose(T(k)), T(-k), over=(BASE, WIDTH, k))
    transposed = BlockDiagonal(INDEX, WIDTH / 2, Transpose(BLOCK(OMEGA(INDEX) * k)))
    first = Chain(
        orthogonal.lhs,
        [
            (
                BlockDiagonal(INDEX, WIDTH / 2, MatMul(Transpose(BLOCK(OMEGA(INDEX) * k)), BLOCK(OMEGA(INDEX) * k))),
                "transpose and multiply block by block",
            ),
            (orthogonal.rhs, r"$B(\theta)^\top B(\theta) = I$: Pythagoras in each block"),
        ],
    )
    second = Chain(
        back.lhs,
        [
            (transposed, "transpose block by block"),
            (back.rhs, r"$B(\theta)^\top = B(-\theta)$: $\cos$ is even, $\sin$ is odd"),
        ],
    )
    return Theorem(
        id="shift-orthogonal",
        title="$T(k)$ is orthogonal and its transpose shifts back",
        conclusions=(orthogonal, back),
        steps=(first, second),
        witness=Witness(
            "max |T^T T - I| and |T(k)^T - T(-k)| for translation_matrix(k, 128), k = 9.5, -130.25",
            numeric.shift_orthogonal,
            1e-13,
            licenses="posenc_math.encodings.translation_matrix",
        ),
        negative_control=Conclusion(Transpose(T(k)), T(k), over=(BASE, WIDTH, k)),
        scope="general",
        scope_note="symbolic in the base, the width $d$ (every even $d$) and the offset",
        uses=("blockdiag-blockwise",),
        proof=(first, second),
        lead=r"For every even width $d$, base $b$ and offset $k$:",
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
        title="At real positions a sine alone cannot be shifted, linearly or otherwise: it needs its cosine partner",
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
            r"which is not $0$ unless $\sin\phi = 0$ (a shift by a multiple of half a period) or $\cos x = 0$. "
            r"So, for positions $t$ ranging over the real numbers, no function of $\sin\omega t$ alone gives "
            r"$\sin\omega(t+k)$ unless $\sin\phi = 0$: the cosine partner is needed. The argument needs "
            r"both $t$ and $\pi/\omega - t$ to be positions, so it says nothing about integer positions alone; "
            r"there, only a linear map is ruled out (position $0$ has sine $0$, and a linear map sends $0$ to $0$, "
            r"not to $\sin\phi$).",
        ),
        lead=r"With $x = \omega t$ for a real position $t$, and $\phi = \omega k$:",
    )
