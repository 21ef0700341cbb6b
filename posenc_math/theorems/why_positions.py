"""Theorems of the why-positions page: attention alone is permutation-equivariant.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["attention-permutation-equivariant"])]
[('attention-permutation-equivariant', 'verified', 'instances')]
"""

from __future__ import annotations

import sympy

from ..witnesses import why_positions as numeric
from .core import Chain, Conclusion, Equal, Theorem, Witness
from .registry import register

PAGE = "why-positions"
N_TOKENS, WIDTH = 3, 2


def softmax_rows(scores: sympy.Matrix) -> sympy.Matrix:
    """Row-wise softmax of a symbolic matrix.

    Examples
    --------
    >>> softmax_rows(sympy.Matrix([[0, 0]]))
    Matrix([[1/2, 1/2]])
    """
    rows = []
    for i in range(scores.rows):
        total = sum(sympy.exp(scores[i, j]) for j in range(scores.cols))
        rows.append([sympy.exp(scores[i, j]) / total for j in range(scores.cols)])
    return sympy.Matrix(rows)


def permutation_matrix(order) -> sympy.Matrix:
    """P with (P X)[i] = X[order[i]].

    Examples
    --------
    >>> permutation_matrix((1, 0)) * sympy.Matrix([1, 2])
    Matrix([
    [2],
    [1]])
    """
    matrix = sympy.zeros(len(order), len(order))
    for row, column in enumerate(order):
        matrix[row, column] = 1
    return matrix


def _mul(*factors):
    return sympy.MatMul(*(sympy.ImmutableMatrix(f) for f in factors), evaluate=False)


@register("attention-permutation-equivariant", page=PAGE)
def attention_permutation_equivariant() -> Theorem:
    x = sympy.Matrix(N_TOKENS, WIDTH, sympy.symbols(f"x0:{N_TOKENS * WIDTH}", real=True))
    m = sympy.Matrix(WIDTH, WIDTH, sympy.symbols(f"m0:{WIDTH * WIDTH}", real=True))
    v = sympy.Matrix(WIDTH, WIDTH, sympy.symbols(f"v0:{WIDTH * WIDTH}", real=True))
    s = sympy.Matrix(N_TOKENS, N_TOKENS, sympy.symbols(f"s0:{N_TOKENS**2}", real=True))
    over_scores = tuple(x) + tuple(m)
    over_mix = tuple(s) + tuple(x) + tuple(v)
    conclusions, steps, shown = [], [], []
    for name, order in (("a swap", (1, 0, 2)), ("a 3-cycle", (1, 2, 0))):
        p = permutation_matrix(order)
        scores = Conclusion(_mul(p * x, m, (p * x).T), _mul(p, x * m * x.T, p.T), over=over_scores)
        mixed = Conclusion(_mul(softmax_rows(p * s * p.T), p * x, v), _mul(p, softmax_rows(s) * x * v), over=over_mix)
        conclusions += [scores, mixed]
        score_step = Equal(scores.lhs, scores.rhs, f"{name}: scores of $PX$ are $PSP^\\top$")
        chain = Chain(
            mixed.lhs,
            [
                (_mul(p, softmax_rows(s), p.T, p, x, v), f"{name}: softmax permutes with its rows and columns"),
                (mixed.rhs, f"{name}: $P^\\top P = I$"),
            ],
        )
        steps += [score_step, chain]
        shown.append(chain)

    p = permutation_matrix((1, 2, 0))
    # Display names (render only; the checker sees the matrices): the row sums of exp(S), the symbol
    # matrices by their letters, and the two products whose entries fill a page by what they are.
    names = {sympy.Add(*(sympy.exp(s[i, j]) for j in range(N_TOKENS))): sympy.Symbol(f"Z_{i}") for i in range(N_TOKENS)}
    names |= {
        sympy.ImmutableMatrix(value): sympy.MatrixSymbol(name, *value.shape)
        for value, name in (
            (x, "X"),
            (m, "M"),
            (v, "V"),
            (s, "S"),
            (x * m * x.T, r"{X M X^{\top}}"),
            (softmax_rows(s) * x * v, r"{\operatorname{softmax}(S)\, X V}"),
        )
    }
    return Theorem(
        id="attention-permutation-equivariant",
        title="Self-attention without positions is permutation-equivariant",
        conclusions=tuple(conclusions),
        steps=tuple(steps),
        witness=Witness(
            "max |Attn(P X) - P Attn(X)| with random W_Q, W_K, W_V and permutations, n = 2, 5, 16, 64 tokens",
            numeric.attention_permutation_equivariant,
            1e-12,
            licenses="posenc_math.encodings.dot_product_attention",
        ),
        negative_control=Conclusion(
            _mul(softmax_rows(p * s * p.T), p * x, v), _mul(p.T, softmax_rows(s) * x * v), over=over_mix
        ),
        scope="instances",
        notation=names,
        scope_note=(
            f"symbolic for n = {N_TOKENS} tokens of width {WIDTH} with a swap and a 3-cycle, which generate every "
            "permutation of 3 tokens (equivariance is kept under composition); numpy (dot_product_attention) for "
            "n = 2, 5, 16, 64 with random permutations"
        ),
        proof=(
            r"With $S = X M X^\top$ ($M = W_Q W_K^\top/\sqrt d$, $V = W_V$), the scores of $PX$ are "
            r"$P S P^\top$; softmax acts row by row, so it permutes with the rows and columns:",
            *shown,
        ),
        lead=(
            r"$\mathrm{Attn}(X) = \operatorname{softmax}(X M X^\top)\, X V$ with softmax row by row. "
            r"For a permutation matrix $P$, $\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)$:"
        ),
    )
