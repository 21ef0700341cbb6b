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

from ..encodings import frequencies, sinusoidal, wavelengths
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
