"""Theorems about the sinusoidal encoding: shifts, norms, dot products, ranges.

Statements about every width ``d`` are proved on one generic sine-cosine
pair with a symbolic frequency ``omega`` (every pair of the encoding is such
a pair with its own ``omega_i``); the block-diagonal assembly into ``d``
dimensions is then checked against the numpy builders for many ``d``, both
layouts and both spacings.  The theorems say so in their assumptions.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy
from sympy import Matrix, cos, pi, sin

from ..encodings import frequencies, sinusoidal, translation_matrix, wavelengths
from ._common import a, b, k, mp_context, pair, rotation_block, s, seeded, t, w
from .core import Chain, Equal, Fact, Theorem, Witness
from .registry import register

PAGE_TRANSLATION = "translation"
PAGE_PROPERTIES = "properties"
PAGE_SINUSOIDAL = "sinusoidal"
PAGE_LAYOUTS = "layouts"

#: Widths, layouts and spacings on which block assemblies are checked.
ASSEMBLY_DIMS = (2, 4, 6, 16, 64, 128)
LAYOUTS = ("interleaved", "split")
SPACINGS = ("paper", "tensor2tensor")


def _mp_row(position, freqs, layout):
    """One row of the table at 40 digits: mpmath sin/cos of position * w_i."""
    sines = [mpmath.sin(position * mpmath.mpf(f)) for f in freqs]
    cosines = [mpmath.cos(position * mpmath.mpf(f)) for f in freqs]
    if layout == "interleaved":
        return [value for pair_ in zip(sines, cosines) for value in pair_]
    return sines + cosines


def _largest(errors) -> float:
    return float(max(abs(e) for e in errors))


# --------------------------------------------------------------------------
@register("angle-addition", page=PAGE_TRANSLATION)
def angle_addition() -> Theorem:
    euler = sympy.exp(sympy.I * (a + b))
    product = (cos(a) + sympy.I * sin(a)) * (cos(b) + sympy.I * sin(b))
    multiplied = (cos(a) * cos(b) - sin(a) * sin(b)) + sympy.I * (sin(a) * cos(b) + cos(a) * sin(b))

    def witness():
        rng = seeded("angle-addition")
        errors = []
        with mp_context():
            for _ in range(20):
                x, y = (mpmath.mpf(rng.uniform(-1e3, 1e3)) for _ in range(2))
                errors.append(mpmath.sin(x + y) - (mpmath.sin(x) * mpmath.cos(y) + mpmath.cos(x) * mpmath.sin(y)))
                errors.append(mpmath.cos(x + y) - (mpmath.cos(x) * mpmath.cos(y) - mpmath.sin(x) * mpmath.sin(y)))
        return _largest(errors)

    return Theorem(
        id="angle-addition",
        title="Angle addition",
        statement=r"\sin(a+b) = \sin a\cos b + \cos a\sin b,\qquad \cos(a+b) = \cos a\cos b - \sin a\sin b",
        assumptions=[
            "$a, b$ real",
            "the checker's trigonometric expansion, used for every step on this site, applies SymPy's own "
            "angle-addition rule; the chain derives the formulas from Euler's formula with exponentials "
            "only, so this theorem checks that rule against it rather than standing beneath it",
        ],
        steps=[
            Chain(
                euler,
                [
                    (sympy.exp(sympy.I * a) * sympy.exp(sympy.I * b), "exponent law"),
                    (product, "Euler's formula for each factor"),
                    (multiplied, "multiply out, collect real and imaginary parts"),
                ],
            ),
            Equal(sin(a + b), sin(a) * cos(b) + cos(a) * sin(b), "imaginary parts of both ends (checked by expansion)"),
            Equal(cos(a + b), cos(a) * cos(b) - sin(a) * sin(b), "real parts of both ends (checked by expansion)"),
        ],
        witness=Witness("both identities at 20 random (a, b) in [-1000, 1000]", witness, 1e-35),
        negative_control=Equal(sin(a + b), sin(a) * cos(b) - cos(a) * sin(b), "sign flipped"),
        negative_control_text=r"$\sin(a+b) = \sin a\cos b - \cos a\sin b$ (a sign flipped)",
    )


# --------------------------------------------------------------------------
def _shift_witness(theorem_id, n_cases=12):
    """translation_matrix(k, d) @ PE(t) against PE(t + k) at 40 digits."""

    def witness():
        rng = seeded(theorem_id)
        errors = []
        with mp_context():
            for _ in range(n_cases):
                dim = rng.choice((2, 8, 64))
                layout, spacing = rng.choice(LAYOUTS), rng.choice(SPACINGS)
                if spacing == "tensor2tensor" and dim == 2:
                    dim = 4
                position, offset = rng.randrange(0, 5000), rng.randrange(-300, 300)
                freqs = frequencies(dim, spacing=spacing)
                here = np.array([float(v) for v in _mp_row(position, freqs, layout)])
                there = _mp_row(position + offset, freqs, layout)
                shifted = translation_matrix(offset, dim, layout=layout, spacing=spacing) @ here
                errors += [mpmath.mpf(float(x)) - y for x, y in zip(shifted, there)]
        return _largest(errors)

    return witness


@register("shift-block", page=PAGE_TRANSLATION)
def shift_block() -> Theorem:
    block = rotation_block(w * k)
    multiplied = Matrix(
        [
            sin(w * t) * cos(w * k) + cos(w * t) * sin(w * k),
            -sin(w * t) * sin(w * k) + cos(w * t) * cos(w * k),
        ]
    )
    wrong = rotation_block(-w * k)  # the transpose: the usual sign slip
    return Theorem(
        id="shift-block",
        title="One sine-cosine pair is shifted by a rotation",
        statement=(
            r"\begin{pmatrix}\cos\omega k & \sin\omega k\\ -\sin\omega k & \cos\omega k\end{pmatrix}"
            r"\begin{pmatrix}\sin\omega t\\ \cos\omega t\end{pmatrix}"
            r"= \begin{pmatrix}\sin\omega(t+k)\\ \cos\omega(t+k)\end{pmatrix}"
            r"\\ \text{and the matrix does not depend on } t"
        ),
        assumptions=["$t, k$ real (positions and offsets)", r"$\omega > 0$ (any frequency)"],
        steps=[
            Chain(
                sympy.MatMul(block, pair(w * t), evaluate=False),
                [
                    (multiplied, "multiply the matrix and the column"),
                    (Matrix([sin(w * t + w * k), cos(w * t + w * k)]), "angle addition, both rows"),
                    (pair(w * (t + k)), "factor the frequency"),
                ],
            ),
            Fact(
                "the matrix has no t in it",
                lambda: t not in block.free_symbols,
                "it depends on the offset k and the frequency only",
            ),
        ],
        witness=Witness(
            "translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 12 random (t, k, d, layout, spacing)",
            _shift_witness("shift-block"),
            1e-12,
            licenses="translation_matrix",
        ),
        negative_control=Equal(wrong * pair(w * t), pair(w * (t + k)), "transposed block"),
        negative_control_text=(
            r"the transposed block $\begin{pmatrix}\cos\omega k & -\sin\omega k\\ "
            r"\sin\omega k & \cos\omega k\end{pmatrix}$ also shifts by $+k$ (it shifts by $-k$)"
        ),
    )


# --------------------------------------------------------------------------
def _assembled(offset, dim, layout, spacing, block):
    """blockdiag of the symbolic block (lambdified), evaluated at numpy's frequencies."""
    freqs = frequencies(dim, spacing=spacing)
    m = dim // 2
    matrix = np.zeros((dim, dim))
    for i, freq in enumerate(freqs):
        rows = [2 * i, 2 * i + 1] if layout == "interleaved" else [i, m + i]
        matrix[np.ix_(rows, rows)] = block(freq, offset)
    return matrix


def _assembly_matches() -> bool:
    block = sympy.lambdify((w, k), rotation_block(w * k), "numpy")
    for dim in ASSEMBLY_DIMS:
        for layout in LAYOUTS:
            for spacing in SPACINGS:
                if spacing == "tensor2tensor" and dim < 4:
                    continue
                for offset in (-7, 0, 1, 13, 1000):
                    built = translation_matrix(offset, dim, layout=layout, spacing=spacing)
                    if not np.allclose(built, _assembled(offset, dim, layout, spacing, block), rtol=0, atol=1e-12):
                        return False
    return True


@register("shift-full", page=PAGE_TRANSLATION)
def shift_full() -> Theorem:
    w0, w1 = sympy.symbols("omega_0 omega_1", positive=True)
    table_row = lambda position: Matrix(
        [sin(w0 * position), cos(w0 * position), sin(w1 * position), cos(w1 * position)]
    )
    full = sympy.diag(rotation_block(w0 * k), rotation_block(w1 * k))
    swapped = sympy.diag(rotation_block(w1 * k), rotation_block(w0 * k))
    return Theorem(
        id="shift-full",
        title="The whole encoding is shifted by a block-diagonal matrix T(k)",
        statement=(
            r"\mathrm{PE}(t+k) = T(k)\,\mathrm{PE}(t),\quad "
            r"\\ T(k) = \operatorname{blockdiag}\big(B(\omega_0 k), \dots, B(\omega_{d/2-1} k)\big),\ "
            r"B(\theta) = \begin{pmatrix}\cos\theta & \sin\theta\\ -\sin\theta & \cos\theta\end{pmatrix}"
        ),
        assumptions=[
            "$d$ even; interleaved layout (the split layout permutes rows and columns alike)",
            "proved on one generic pair with symbolic frequency (`shift-block`) and on $d = 4$ with two "
            "symbolic frequencies; every pair is such a pair, so it holds for every $d$",
            "the assembly into $d$ dimensions is checked against `translation_matrix` for $d$ in "
            + ", ".join(map(str, ASSEMBLY_DIMS))
            + ", both layouts, both spacings",
        ],
        steps=[
            Equal(rotation_block(w * k) * pair(w * t), pair(w * (t + k)), "shift-block, one pair"),
            Equal(full * table_row(t), table_row(t + k), "d = 4: each block acts on its own pair"),
            Fact(
                "translation_matrix(k, d, layout, spacing) equals the blocks assembled at numpy's frequencies",
                _assembly_matches,
                "block-diagonal assembly checked against the numpy builder",
            ),
        ],
        witness=Witness(
            "translation_matrix(k, d) @ PE(t) vs PE(t + k) at 40 digits, 24 random cases",
            _shift_witness("shift-full", 24),
            1e-12,
            licenses="translation_matrix",
        ),
        negative_control=Equal(swapped * table_row(t), table_row(t + k), "blocks in the wrong order"),
        negative_control_text="the blocks in the opposite order (each pair turned at the other pair's frequency) also shift",
    )


# --------------------------------------------------------------------------
@register("shift-group", page=PAGE_TRANSLATION)
def shift_group() -> Theorem:
    product = rotation_block(w * a) * rotation_block(w * b)
    entries = Matrix(
        [
            [cos(w * a) * cos(w * b) - sin(w * a) * sin(w * b), cos(w * a) * sin(w * b) + sin(w * a) * cos(w * b)],
            [-(sin(w * a) * cos(w * b) + cos(w * a) * sin(w * b)), cos(w * a) * cos(w * b) - sin(w * a) * sin(w * b)],
        ]
    )

    def numpy_group() -> bool:
        for dim, layout, spacing in ((64, "interleaved", "paper"), (64, "split", "tensor2tensor")):
            left = translation_matrix(17, dim, layout=layout, spacing=spacing) @ translation_matrix(
                -5, dim, layout=layout, spacing=spacing
            )
            if not np.allclose(left, translation_matrix(12, dim, layout=layout, spacing=spacing), atol=1e-13):
                return False
            if not np.array_equal(translation_matrix(0, dim, layout=layout, spacing=spacing), np.eye(dim)):
                return False
        return True

    return Theorem(
        id="shift-group",
        title="Shifts compose: T(a) T(b) = T(a + b), T(0) = I",
        statement=r"T(a)\,T(b) = T(a+b),\qquad T(0) = I",
        assumptions=[
            "$a, b$ real offsets",
            "proved per block with symbolic frequency; $T(k)$ is block-diagonal (`shift-full`)",
        ],
        steps=[
            Chain(
                sympy.MatMul(rotation_block(w * a), rotation_block(w * b), evaluate=False),
                [
                    (entries, "multiply the two blocks"),
                    (rotation_block(w * a + w * b), "angle addition in each entry"),
                    (rotation_block(w * (a + b)), "factor the frequency"),
                ],
            ),
            Equal(rotation_block(w * 0), sympy.eye(2), "cos 0 = 1, sin 0 = 0"),
            Fact(
                "translation_matrix(17) @ translation_matrix(-5) == translation_matrix(12) and translation_matrix(0) == I (d = 64)",
                numpy_group,
                "the numpy builder obeys the same law",
            ),
        ],
        negative_control=Equal(product, rotation_block(w * (a - b)), "offsets subtracted"),
        negative_control_text="$T(a)\\,T(b) = T(a - b)$",
    )


@register("shift-orthogonal", page=PAGE_TRANSLATION)
def shift_orthogonal() -> Theorem:
    block = rotation_block(w * k)
    return Theorem(
        id="shift-orthogonal",
        title="T(k) is orthogonal and its transpose shifts back",
        statement=r"T(k)^\top T(k) = I,\qquad T(k)^\top = T(-k)",
        assumptions=["$k$ real", "proved per block with symbolic frequency; $T(k)$ is block-diagonal (`shift-full`)"],
        steps=[
            Chain(
                sympy.MatMul(block.T, block, evaluate=False),
                [
                    (
                        Matrix([[cos(w * k) ** 2 + sin(w * k) ** 2, 0], [0, sin(w * k) ** 2 + cos(w * k) ** 2]]),
                        "multiply; the off-diagonal terms cancel",
                    ),
                    (sympy.eye(2), "Pythagoras"),
                ],
            ),
            Chain(
                block.T,
                [
                    (Matrix([[cos(-w * k), sin(-w * k)], [-sin(-w * k), cos(-w * k)]]), "cos is even, sin is odd"),
                    (rotation_block(w * (-k)), "the block at offset -k"),
                ],
            ),
            Fact(
                "translation_matrix(k).T @ translation_matrix(k) == I and translation_matrix(k).T == translation_matrix(-k) (d = 128)",
                lambda: bool(
                    np.allclose(translation_matrix(9.5, 128).T @ translation_matrix(9.5, 128), np.eye(128), atol=1e-14)
                    and np.allclose(translation_matrix(9.5, 128).T, translation_matrix(-9.5, 128), atol=1e-15)
                ),
                "the numpy builder",
            ),
        ],
        negative_control=Equal(block.T, rotation_block(w * k), "symmetric block"),
        negative_control_text="$T(k)$ is symmetric: $T(k)^\\top = T(k)$",
    )


# --------------------------------------------------------------------------
@register("single-sine-not-linear", page=PAGE_TRANSLATION)
def single_sine_not_linear() -> Theorem:
    x, phi, scale = sympy.Symbol("x", real=True), sympy.Symbol("phi", real=True), sympy.Symbol("lambda", real=True)

    def fits():
        positions = np.arange(200.0)
        freq, offset = 0.3, 4.0
        target = np.sin(freq * (positions + offset))
        alone = np.sin(freq * positions)[:, None]
        with_partner = np.column_stack([np.sin(freq * positions), np.cos(freq * positions)])
        residual_alone = np.linalg.lstsq(alone, target, rcond=None)[1]
        residual_pair = np.linalg.lstsq(with_partner, target, rcond=None)[1]
        return float(residual_alone[0]), float(residual_pair[0]) if len(residual_pair) else 0.0

    return Theorem(
        id="single-sine-not-linear",
        title="A sine alone cannot be shifted linearly: it needs its cosine partner",
        statement=(
            r"\lambda \sin x = \sin(x+\varphi) \text{ for all } x \implies \sin\varphi = 0"
            r"\ \text{(a shift by a multiple of half a period).}\\"
            r"\text{Worse: } \sin(\pi - x) = \sin x \text{ while } \sin(x+\varphi) - \sin(\pi - x + \varphi) = 2\sin\varphi\cos x,\\"
            r"\text{so no function of } \sin\omega t \text{ alone gives } \sin\omega(t+k)."
        ),
        assumptions=[r"$x = \omega t$ ranges over all reals", r"$\varphi = \omega k$"],
        steps=[
            Chain(
                (scale * sin(x) - sin(x + phi)).subs(x, 0),
                [(-sin(phi), "evaluate at x = 0")],
            ),
            Fact(
                "sin(phi) = 0 on [0, 2 pi] only at phi in {0, pi, 2 pi}",
                lambda: sympy.solveset(sin(phi), phi, sympy.Interval(0, 2 * pi)) == sympy.FiniteSet(0, pi, 2 * pi),
                "so a linear map of sin(x) alone shifts only by multiples of half a period",
            ),
            Equal(sin(pi - x), sin(x), "two positions with the same sine"),
            Chain(
                sin(x + phi) - sin(pi - x + phi),
                [(2 * sin(phi) * cos(x), "difference of sines")],
            ),
            Fact(
                "least squares: sin(w(t+k)) from sin(wt) alone leaves a residual > 1; from (sin wt, cos wt) < 1e-20",
                lambda: (lambda r: r[0] > 1.0 and r[1] < 1e-20)(fits()),
                "on 200 positions, w = 0.3, k = 4",
            ),
        ],
        negative_control=Equal(cos(w * k) * sin(w * t), sin(w * (t + k)), "scale the sine by cos(wk)"),
        negative_control_text=r"$\sin\omega(t+k) = \cos(\omega k)\,\sin\omega t$",
    )


# --------------------------------------------------------------------------
def _numpy_sums_witness(theorem_id, quantity):
    """Compare a quantity over rows of the numpy table with its 40-digit formula."""

    def witness():
        rng = seeded(theorem_id)
        errors = []
        for dim, spacing in ((128, "paper"), (64, "tensor2tensor"), (512, "paper")):
            freqs = frequencies(dim, spacing=spacing)
            table = sinusoidal(4096, dim, spacing=spacing)
            with mp_context():
                for _ in range(6):
                    position = rng.randrange(0, 2048)
                    offset = rng.randrange(-position, 2048)
                    computed, exact = quantity(table, freqs, position, offset)
                    errors.append(mpmath.mpf(float(computed)) - exact)
        return _largest(errors)

    return witness


@register("norm-constant", page=PAGE_PROPERTIES)
def norm_constant() -> Theorem:
    d = sympy.Symbol("d", positive=True, even=True)
    i = sympy.Symbol("i", integer=True, nonnegative=True)

    def quantity(table, freqs, position, offset):
        return table[position] @ table[position], mpmath.mpf(len(freqs))

    return Theorem(
        id="norm-constant",
        title="Every position has the same norm, the square root of d/2",
        statement=r"\lVert \mathrm{PE}(t) \rVert^2 = \sum_{i=0}^{d/2-1} \big(\sin^2\omega_i t + \cos^2 \omega_i t\big) = \frac d2",
        assumptions=["$d$ even", "proved per pair with symbolic frequency, then summed over the $d/2$ pairs"],
        steps=[
            Chain((pair(w * t).T * pair(w * t))[0], [(sympy.S.One, "Pythagoras: one pair contributes 1")]),
            Equal(sympy.Sum(1, (i, 0, d / 2 - 1)).doit(), d / 2, "d/2 pairs"),
        ],
        witness=Witness(
            "row norms of sinusoidal tables (d = 128, 64, 512) against d/2",
            _numpy_sums_witness("norm-constant", quantity),
            1e-12,
            licenses="sinusoidal",
        ),
        negative_control=Equal((pair(w * t).T * pair(w * t))[0] * d / 2, d, "counting each pair twice"),
        negative_control_text=r"$\lVert\mathrm{PE}(t)\rVert^2 = d$ (each pair counted twice)",
    )


@register("dot-relative", page=PAGE_PROPERTIES)
def dot_relative() -> Theorem:
    def quantity(table, freqs, position, offset):
        exact = mpmath.fsum(mpmath.cos(mpmath.mpf(f) * offset) for f in freqs)
        return table[position] @ table[position + offset], exact

    dot = (pair(w * t).T * pair(w * (t + k)))[0]
    return Theorem(
        id="dot-relative",
        title="The dot product depends only on the offset",
        statement=r"\mathrm{PE}(t)\cdot\mathrm{PE}(t+k) = \sum_{i=0}^{d/2-1} \cos(\omega_i k)\quad\text{for every } t",
        assumptions=["$t, k$ real", "proved per pair with symbolic frequency, then summed over the pairs"],
        steps=[
            Chain(
                dot,
                [
                    (sin(w * t) * sin(w * t + w * k) + cos(w * t) * cos(w * t + w * k), "one pair's contribution"),
                    (cos(w * t + w * k - w * t), "cos(x - y) = cos x cos y + sin x sin y"),
                    (cos(w * k), "t cancels"),
                ],
            ),
        ],
        witness=Witness(
            "PE(t) . PE(t + k) from sinusoidal tables vs the sum of cos(w_i k) at 40 digits",
            _numpy_sums_witness("dot-relative", quantity),
            1e-11,
            licenses="sinusoidal",
        ),
        negative_control=Equal(dot, cos(w * (t + k)), "depends on the position"),
        negative_control_text=r"one pair contributes $\cos\omega(t+k)$, which depends on the position",
    )


@register("dot-symmetric", page=PAGE_PROPERTIES)
def dot_symmetric() -> Theorem:
    def quantity(table, freqs, position, offset):
        back = min(abs(offset), position)
        return table[position] @ table[position - back], mpmath.fsum(mpmath.cos(mpmath.mpf(f) * back) for f in freqs)

    return Theorem(
        id="dot-symmetric",
        title="The dot product is the same for offsets k and -k",
        statement=r"\mathrm{PE}(t)\cdot\mathrm{PE}(t-k) = \mathrm{PE}(t)\cdot\mathrm{PE}(t+k) = \sum_i \cos(\omega_i k)",
        assumptions=["$t, k$ real", "per pair, with symbolic frequency; `dot-relative` for the sum"],
        steps=[
            Chain(
                (pair(w * t).T * pair(w * (t - k)))[0],
                [(cos(-w * k), "dot-relative with offset -k"), (cos(w * k), "cos is even")],
            ),
        ],
        witness=Witness(
            "PE(t) . PE(t - k) from sinusoidal tables vs the sum of cos(w_i k)",
            _numpy_sums_witness("dot-symmetric", quantity),
            1e-11,
            licenses="sinusoidal",
        ),
        negative_control=Equal(sin(-w * k), sin(w * k), "sin treated as even"),
        negative_control_text=r"$\sin(-\omega k) = \sin(\omega k)$ (what a symmetric sine term would need)",
    )


@register("distance-relative", page=PAGE_PROPERTIES)
def distance_relative() -> Theorem:
    diff = pair(w * (t + k)) - pair(w * t)

    def quantity(table, freqs, position, offset):
        gap = table[position + offset] - table[position]
        exact = 4 * mpmath.fsum(mpmath.sin(mpmath.mpf(f) * offset / 2) ** 2 for f in freqs)
        return gap @ gap, exact

    return Theorem(
        id="distance-relative",
        title="Distances depend only on the offset",
        statement=r"\lVert \mathrm{PE}(t+k) - \mathrm{PE}(t) \rVert^2 = 4\sum_{i=0}^{d/2-1} \sin^2\!\frac{\omega_i k}{2}",
        assumptions=["$t, k$ real", "per pair with symbolic frequency, then summed"],
        steps=[
            Chain(
                (diff.T * diff)[0],
                [
                    (
                        2 - 2 * (sin(w * t) * sin(w * (t + k)) + cos(w * t) * cos(w * (t + k))),
                        "expand; Pythagoras twice",
                    ),
                    (2 - 2 * cos(w * k), "dot-relative"),
                    (4 * sin(w * k / 2) ** 2, "half-angle formula"),
                ],
            ),
        ],
        witness=Witness(
            "squared distances between rows of sinusoidal tables vs 4 sum sin^2(w_i k / 2) at 40 digits",
            _numpy_sums_witness("distance-relative", quantity),
            1e-10,
            licenses="sinusoidal",
        ),
        negative_control=Equal((diff.T * diff)[0], 2 * sin(w * k / 2) ** 2, "factor 2 instead of 4"),
        negative_control_text=r"the squared distance is $2\sum_i \sin^2(\omega_i k/2)$ (a factor 2 lost)",
    )


def _is_multiples_of_two_pi(solutions) -> bool:
    """True when ``solutions`` is the set {2 pi n : n integer}, as SymPy writes it."""
    if not isinstance(solutions, sympy.ImageSet) or solutions.base_sets != (sympy.S.Integers,):
        return False
    (variable,) = solutions.lamda.variables
    return sympy.expand(solutions.lamda.expr - 2 * pi * variable) == 0


@register("injective", page=PAGE_PROPERTIES)
def injective() -> Theorem:
    x = sympy.Symbol("x", real=True)
    base = sympy.Symbol("b", positive=True)
    d = sympy.Symbol("d", positive=True, even=True)
    gap = (cos(t) - cos(s)) ** 2 + (sin(t) - sin(s)) ** 2

    def first_frequency_is_one() -> bool:
        return all(frequencies(dim, spacing=spacing)[0] == 1.0 for dim in (4, 8, 64, 512) for spacing in SPACINGS)

    return Theorem(
        id="injective",
        title="Distinct integer positions get distinct encodings",
        statement=r"t \ne s \text{ integers} \implies \mathrm{PE}(t) \ne \mathrm{PE}(s)",
        assumptions=[
            r"positions $t, s$ are integers (for real positions the first pair alone repeats every $2\pi$)",
            r"the first pair has frequency $\omega_0 = b^0 = 1$, in both spacings, for every base $b$ and width $d$",
            r"$\pi$ is irrational (Lambert, 1761; SymPy's assumption system knows it)",
            "exact arithmetic: in floating point, distinct rows can round to the same numbers (see the precision page)",
        ],
        steps=[
            Equal(base ** (-2 * 0 / d), 1, "omega_0 = 1 with the paper's spacing"),
            Fact(
                "frequencies(d)[0] == 1.0 for d in 4, 8, 64, 512 and both spacings",
                first_frequency_is_one,
                "the numpy builder",
            ),
            Chain(gap, [(2 - 2 * cos(t - s), "expand, Pythagoras, angle subtraction")]),
            Fact(
                "cos x = 1 exactly for x in {2 pi n : n integer}",
                lambda: _is_multiples_of_two_pi(sympy.solveset(cos(x) - 1, x, sympy.S.Reals)),
                "so equal first pairs force t - s = 2 pi n",
            ),
            Fact(
                "pi is irrational, so t - s = 2 pi n with t - s a nonzero integer is impossible",
                lambda: sympy.pi.is_rational is False,
                "hence n = 0 and t = s",
            ),
        ],
        negative_control=Fact(
            "with the commensurate first frequency omega_0 = pi the same argument goes through: "
            "cos(pi n) = 1 has no nonzero integer solution n",
            lambda: all(cos(pi * m) != 1 for m in range(1, 5)),
        ),
        negative_control_text=(
            r"with the commensurate $\omega_0 = \pi$ positions $t$ and $t+2$ would still differ "
            r"(they do not: $\cos 2\pi = 1$)"
        ),
    )


# --------------------------------------------------------------------------
@register("wavelength-range", page=PAGE_SINUSOIDAL)
def wavelength_range() -> Theorem:
    base = sympy.Symbol("b", positive=True)
    d = sympy.Symbol("d", positive=True, even=True)
    i = sympy.Symbol("i", integer=True, nonnegative=True)
    m = d / 2
    paper = base ** (-2 * i / d)
    t2t = base ** (-i / (m - 1))
    longest_paper = (2 * pi / paper).subs(i, m - 1)
    longest_t2t = (2 * pi / t2t).subs(i, m - 1)

    def witness():
        errors = []
        with mp_context():
            for dim in (8, 64, 128, 512, 1024):
                for b_ in (10000.0, 500000.0):
                    lam = wavelengths(dim, base=b_)
                    bm = mpmath.mpf(b_)
                    errors.append((mpmath.mpf(lam[0]) - 2 * mpmath.pi) / (2 * mpmath.pi))
                    exact = 2 * mpmath.pi * bm ** (mpmath.mpf(dim - 2) / dim)
                    errors.append((mpmath.mpf(lam[-1]) - exact) / exact)
                    lam2 = wavelengths(dim, base=b_, spacing="tensor2tensor")
                    errors.append((mpmath.mpf(lam2[-1]) - 2 * mpmath.pi * bm) / (2 * mpmath.pi * bm))
        return _largest(errors)

    return Theorem(
        id="wavelength-range",
        title="The wavelengths run from 2 pi to 2 pi b^((d-2)/d), not to 2 pi b",
        statement=(
            r"\lambda_i = \frac{2\pi}{\omega_i}:\quad \text{paper spacing } \lambda_0 = 2\pi,\ "
            r"\lambda_{d/2-1} = 2\pi\, b^{(d-2)/d} < 2\pi b;\\"
            r"\text{tensor2tensor spacing } \lambda_{d/2-1} = 2\pi b \text{ exactly.}"
        ),
        assumptions=["$b > 1$ the base", r"$d$ even, $d \ge 4$ for the tensor2tensor spacing"],
        steps=[
            Equal((2 * pi / paper).subs(i, 0), 2 * pi, "i = 0: omega_0 = 1"),
            Chain(longest_paper, [(2 * pi * base ** ((d - 2) / d), "i = d/2 - 1: exponent (d-2)/d")]),
            Equal(longest_paper / (2 * pi * base), base ** (-2 / d), "short of 2 pi b by the factor b^(-2/d)"),
            Equal(
                (2 * pi / paper).subs(i, i + 1) / (2 * pi / paper),
                base ** (2 / d),
                "consecutive wavelengths grow by b^(2/d)",
            ),
            Equal(longest_t2t, 2 * pi * base, "tensor2tensor: i = d/2 - 1 gives exactly 2 pi b"),
        ],
        witness=Witness(
            "wavelengths(d, base) first and last entries vs 40-digit values, relative error",
            witness,
            1e-14,
            licenses="wavelengths",
        ),
        negative_control=Equal(longest_paper, 2 * pi * base, "the often-quoted 2 pi b"),
        negative_control_text=r"with the paper's spacing $\lambda_{d/2-1} = 2\pi b$ (as often written)",
    )


@register("spacing-relation", page=PAGE_LAYOUTS)
def spacing_relation() -> Theorem:
    base = sympy.Symbol("b", positive=True)
    # d = 2q + 4 >= 4: SymPy then knows d/(d - 2) is real, so (b^x)^y = b^(xy).
    d = 2 * sympy.Symbol("q", integer=True, nonnegative=True) + 4
    i = sympy.Symbol("i", integer=True, nonnegative=True)
    m = d / 2
    new_base = base ** (d / (d - 2))

    def numpy_check() -> bool:
        for dim in (4, 8, 64, 512):
            t2t = sinusoidal(257, dim, spacing="tensor2tensor")
            paper = sinusoidal(257, dim, base=10000.0 ** (dim / (dim - 2)))
            if not np.allclose(t2t, paper, rtol=0, atol=1e-10):
                return False
        return True

    return Theorem(
        id="spacing-relation",
        title="tensor2tensor's spacing is the paper's with base b^(d/(d-2))",
        statement=(
            r"b^{-i/(d/2-1)} = \big(b^{d/(d-2)}\big)^{-2i/d}:\\ \text{tensor2tensor's frequencies with base } b"
            r"\text{ are the paper's with base } b^{d/(d-2)}"
        ),
        assumptions=["$b > 0$", r"$d$ even, $d \ge 4$, written $d = 2q + 4$ with $q \ge 0$ an integer"],
        steps=[
            Chain(
                sympy.Pow(new_base, -2 * i / d, evaluate=False),
                [(base ** (-2 * i / (d - 2)), "power of a power"), (base ** (-i / (m - 1)), "d - 2 = 2 (d/2 - 1)")],
            ),
            Fact(
                "sinusoidal(spacing='tensor2tensor') == sinusoidal(base=10000**(d/(d-2))) for d in 4, 8, 64, 512",
                numpy_check,
                "the numpy builder, 257 positions, to 1e-10",
            ),
        ],
        negative_control=Equal(base ** (-2 * i / d), base ** (-i / (m - 1)), "the same base in both"),
        negative_control_text=r"the two spacings agree with the same base $b$",
    )


@register("layout-permutation", page=PAGE_LAYOUTS)
def layout_permutation() -> Theorem:
    w_ = sympy.symbols("omega_0:3", positive=True)
    inter = Matrix([[f(x * t) for x in w_ for f in (sin, cos)]])
    split = Matrix([[sin(x * t) for x in w_] + [cos(x * t) for x in w_]])
    dim, m = 6, 3
    perm = sympy.zeros(dim, dim)
    for i in range(m):
        perm[2 * i, i] = 1
        perm[2 * i + 1, m + i] = 1
    u = Matrix([sympy.symbols(f"u0:{dim}", real=True)])
    v = Matrix([sympy.symbols(f"v0:{dim}", real=True)])

    def numpy_check() -> bool:
        for size in range(2, 66, 2):
            columns = np.concatenate([np.arange(0, size, 2), np.arange(1, size, 2)])
            for spacing in SPACINGS:
                if spacing == "tensor2tensor" and size < 4:
                    continue
                if not np.allclose(
                    sinusoidal(50, size, layout="split", spacing=spacing),
                    sinusoidal(50, size, spacing=spacing)[:, columns],
                    rtol=0,
                    atol=1e-15,
                ):
                    return False
        return True

    return Theorem(
        id="layout-permutation",
        title="The split layout is the interleaved one with permuted columns",
        statement=(
            r"\mathrm{PE}_{\text{split}}(t) = \mathrm{PE}_{\text{interleaved}}(t)\,P,\quad "
            r"P_{2i,\,i} = P_{2i+1,\,d/2+i} = 1;\quad P P^\top = I,\\"
            r"\text{so dot products and distances are the same in both layouts}"
        ),
        assumptions=[
            "rows are encodings (row vectors); $d$ even",
            "proved symbolically for $d = 6$ with three symbolic frequencies; the column map is checked "
            "against the numpy builder for every even $d$ up to 64",
        ],
        steps=[
            Equal(inter * perm, split, "column 2i goes to i, column 2i+1 to d/2 + i"),
            Equal(sympy.MatMul(perm, perm.T, evaluate=False), sympy.eye(dim), "a permutation matrix is orthogonal"),
            Chain(
                ((u * perm) * (v * perm).T)[0],
                [(((u * perm * perm.T) * v.T)[0], "transpose of a product"), ((u * v.T)[0], "P P^T = I")],
            ),
            Fact(
                "sinusoidal(layout='split') == sinusoidal()[:, evens + odds] to 1e-15, every even d to 64, both spacings",
                numpy_check,
                "the numpy builder",
            ),
        ],
        negative_control=Equal(inter, split, "no permutation"),
        negative_control_text="the two layouts are the same vector",
    )
