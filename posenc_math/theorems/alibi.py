"""Theorems of the ALiBi page: the geometric slopes, and why a key-only bias equals the relative one.

Softmax is invariant under a constant added to a row; it is proved for a
row of any length ``n`` (a sum with symbolic ``n``, term by term), with the
row's entries as an undefined real function ``x(j)``.  Each softmax entry is
written ``softmax_i(x) = 1 / sum_j e^{x_j - x_i}``, so the statement is an
identity between two sums.

Examples
--------
>>> from posenc_math.theorems import get
>>> get("alibi-geometric").scope
'general'
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy
from sympy import Add, Mul, Sum, exp, log

from .. import encodings
from ..witnesses import alibi as numeric
from ._common import indexed_function
from .core import Chain, Conclusion, Equal, Fact, Termwise, Theorem, Witness
from .language import Definition
from .registry import register

PAGE = "alibi"


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


def _slopes_geometric() -> bool:
    for n in numeric.POWERS_OF_TWO:
        slopes = encodings.alibi_slopes(n)
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
    return all(
        np.allclose(encodings.alibi_slopes(n), _paper_slopes(n), rtol=n * 2.0**-52, atol=0) for n in range(1, 257)
    )


def _others_not_geometric() -> bool:
    for n in range(3, 257):
        if n in numeric.POWERS_OF_TWO:
            continue
        ratios = encodings.alibi_slopes(n)[1:] / encodings.alibi_slopes(n)[:-1]
        if np.allclose(ratios, ratios[0], rtol=1e-9):
            return False
    return True


#: The exponent p of the head count n = 2^p, a head h, and the head count.
EXPONENT = sympy.Symbol("p", integer=True, nonnegative=True)
HEAD = sympy.Symbol("h", integer=True, positive=True)
#: n = 2^p heads (the hypothesis, as a definition the page shows as n).
HEADS = Definition("n", (EXPONENT,), 2**EXPONENT, "n")
#: The start of the paper's code: 2^(-2^(-(log2 n - 3))).
PAPER_START = Definition("start", (EXPONENT,), 2 ** (-(2 ** (-(log(HEADS(EXPONENT), 2) - 3)))), r"m_1")
#: The paper's list: slope of head h is start * start^(h - 1).
PAPER_SLOPE = Definition(
    "m", (HEAD, EXPONENT), Mul(PAPER_START(EXPONENT), PAPER_START(EXPONENT) ** (HEAD - 1), evaluate=False), r"m_{{{0}}}"
)


@register("alibi-geometric", page=PAGE)
def alibi_geometric() -> Theorem:
    p, h = EXPONENT, HEAD
    n = HEADS(p)
    slope = 2 ** (-8 * h / n)
    start_conclusion = Conclusion(PAPER_START(p), 2 ** (-8 / n), (p,))
    list_conclusion = Conclusion(PAPER_SLOPE(h, p), slope, (h, p))
    ratio = Mul(PAPER_SLOPE(h + 1, p), sympy.Pow(PAPER_SLOPE(h, p), -1, evaluate=False), evaluate=False)
    ratio_conclusion = Conclusion(ratio, 2 ** (-8 / n), (h, p))
    start_chain = Chain(
        PAPER_START(p),
        [
            (2 ** (-(2 ** (-(p - 3)))), r"$\log_2 n = \log_2 2^p = p$: here the hypothesis $n = 2^p$ is used"),
            (start_conclusion.rhs, r"$2^{-(p - 3)} = 8/2^p = 8/n$"),
        ],
    )
    steps = (
        start_chain,
        Equal(PAPER_SLOPE(h, p), slope, r"$2^{-8/n}\, 2^{-8(h-1)/n} = 2^{-8h/n}$"),
        Equal(ratio, ratio_conclusion.rhs, r"$2^{-8(h+1)/n} / 2^{-8h/n}$"),
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
    )

    return Theorem(
        id="alibi-geometric",
        title="For $n$ a power of two the ALiBi slopes are geometric, from $2^{-8/n}$ with ratio $2^{-8/n}$",
        conclusions=(start_conclusion, list_conclusion, ratio_conclusion),
        steps=steps,
        witness=Witness(
            "alibi_slopes(n) vs 40-digit 2^(-8h/n), relative error, n = 1, 2, 4, ..., 1024",
            numeric.alibi_geometric,
            2.3e-16,
            licenses="posenc_math.encodings.alibi_slopes",
        ),
        negative_control=Conclusion(ratio, 2 ** (-1 / n), (h, p)),
        scope="general",
        scope_note="symbolic in the head $h$ and the exponent $p$ of the head count $n = 2^p$",
        proof=(
            "The paper's code starts at $m_1 = 2^{-2^{-(\\log_2 n - 3)}}$ and multiplies by $m_1$ each time. For "
            "$n = 2^p$ the start is",
            start_chain,
            "and the list it builds is the geometric sequence",
            steps[1],
            "whose neighbours have the constant ratio",
            steps[2],
        ),
        lead=(
            "ALiBi's paper builds the slopes of $n = 2^p$ heads from a start $m_1$, multiplying by $m_1$ once "
            "more for each further head (the definitions under the statement):"
        ),
        remarks=(
            "For other n the slopes are those of the next lower power of two followed by every other slope of "
            "twice that many heads (checked against the paper's recursive code, n = 1 .. 256): not geometric."
        ),
    )


# --------------------------------------------------------------------------
def _key_only_numpy_check() -> bool:
    rng = np.random.default_rng(7)
    for n_heads, n in ((1, 1), (1, 5), (4, 7), (8, 16), (12, 33), (16, 64)):
        scores = rng.normal(scale=3.0, size=(n_heads, n, n))
        relative = encodings.softmax(scores + encodings.alibi_bias(n_heads, n))
        key_only = encodings.softmax(scores + encodings.alibi_key_bias(n_heads, n) + encodings.causal_mask(n))
        if not np.allclose(relative, key_only, rtol=1e-13, atol=1e-16):
            return False
    row = rng.normal(size=50)
    for c in (-1e3, -1.5, 7.0, 1e3, 1e5):
        # up to the rounding of row + c itself: half an ulp of |c| + |row| in each exponent
        rounding = 2 * np.spacing(abs(c) + np.abs(row).max()) + 1e-15
        if not np.allclose(encodings.softmax(row + c), encodings.softmax(row), rtol=rounding, atol=0):
            return False
    return True


def _difference(one, other):
    """``one - other`` kept as written (not cancelled), for displayed steps."""
    return Add(one, Mul(-1, other, evaluate=False), evaluate=False)


@register("softmax-shift-invariance", page=PAGE)
def softmax_shift_invariance() -> Theorem:
    i, n = sympy.symbols("i n", integer=True, nonnegative=True)
    j = sympy.Symbol("j", integer=True, nonnegative=True)
    l = sympy.Symbol("l", integer=True, nonnegative=True)  # noqa: E741 - the key whose weight is computed
    c = sympy.Symbol("c", real=True)
    m = sympy.Symbol("m", positive=True)
    x, scores = indexed_function("x", real=True), indexed_function("s", real=True)
    x_j, x_i = sympy.symbols("x_j x_i", real=True)

    term = Conclusion(exp(_difference(x_j + c, x_i + c)), exp(x_j - x_i), (x_j, x_i, c))
    shifted = Sum(exp(_difference(x(j) + c, x(i) + c)), (j, 0, n - 1))
    plain = Sum(exp(_difference(x(j), x(i))), (j, 0, n - 1))
    row = Conclusion(
        shifted,
        plain,
        (c, i, n),
        where=r"a row $x_0, \dots, x_{n-1}$ of real scores, $0 \le i < n$; "
        r"$\operatorname{softmax}_i(x) = 1 / \sum_j e^{x_j - x_i}$",
    )
    relative = Sum(exp(_difference(scores(j) - m * (i - j), scores(l) - m * (i - l))), (j, 0, i))
    key_only = Sum(exp(_difference(scores(j) + m * j, scores(l) + m * l)), (j, 0, i))
    alibi = Conclusion(
        relative,
        key_only,
        (m, i, l),
        where=r"query $i$ sees keys $0, \dots, i$ (causal mask); $0 \le l \le i$; slope $m > 0$; "
        r"scores $s_j$ real",
    )
    steps = (
        Equal(term.lhs, term.rhs, r"the two $c$ cancel in the exponent"),
        Termwise(shifted, plain, r"each term: the two $c$ cancel"),
        Termwise(relative, key_only, r"each term: $-m (i - j)$ and $m j$ differ by $m i$, the same for every key"),
        Fact(
            "softmax(scores + alibi_bias) == softmax(scores + alibi_key_bias + causal_mask) for "
            "(heads, n) in (1, 1), (1, 5), (4, 7), (8, 16), (12, 33), (16, 64); softmax(row + c) == "
            "softmax(row) for c in -1e3 .. 1e5 up to the rounding of row + c",
            _key_only_numpy_check,
            "the numpy functions",
        ),
    )

    return Theorem(
        id="softmax-shift-invariance",
        title="Softmax ignores a constant added to a row, so key-only ALiBi equals relative ALiBi",
        conclusions=(term, row, alibi),
        steps=steps,
        witness=Witness(
            "softmax of rows shifted by up to 800 (numpy subtracts the maximum) vs the 40-digit formula with "
            "nothing subtracted; key-only ALiBi attention (alibi_key_bias + causal_mask, 8 heads, 12 positions) "
            "vs 40-digit softmax with the relative bias -m (i - j); absolute error",
            numeric.softmax_shift_invariance,
            1e-14,
            licenses="posenc_math.encodings.softmax",
        ),
        negative_control=Conclusion(exp(_difference(x_j + c, x_i)), exp(x_j - x_i), (x_j, x_i, c)),
        scope="general",
        scope_note="symbolic in the row length $n$, the shift $c$, the slope $m$ and the positions",
        proof=(
            r"Entry $i$ of $\operatorname{softmax}(x)$ is $1 / \sum_j e^{x_j - x_i}$, and a constant added to "
            r"every entry cancels in each exponent:",
            steps[0],
            steps[1],
            r"ALiBi's relative bias $-m(i - j)$ and the key-only bias $m j$ differ by $m i$, a constant along "
            r"row $i$; the causal mask removes the same keys from both:",
            steps[2],
        ),
        lead=r"$\operatorname{softmax}_i(x) = e^{x_i} / \sum_j e^{x_j}$.",
    )
