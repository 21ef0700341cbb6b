"""Theorems of the why-positions page: attention alone is permutation-equivariant.

``Attn(X) = softmax(X M X^T) X W_V`` (softmax row by row) for ``n`` tokens of
width ``w``, both symbolic: ``X`` is an ``n x w`` matrix symbol, ``P`` a
permutation symbol (any ``n x n`` permutation matrix).  The kernel reads
``(PX)^T = X^T P^T``, ``P^T P = I`` and ``softmax(P S P^T) = P softmax(S) P^T``
(softmax acts on each row alone and does not care about the order within a
row), so ``Attn(PX) = P Attn(X)`` is proved for every ``n`` at once.

Examples
--------
>>> from posenc_math.theorems import verify
>>> [(r.id, r.status, r.scope) for r in verify(["attention-permutation-equivariant"])]
[('attention-permutation-equivariant', 'verified', 'general')]
"""

from __future__ import annotations

import sympy
from sympy import MatMul, Transpose

from ..witnesses import why_positions as numeric
from .core import Chain, Conclusion, Theorem, Witness
from .language import Definition, PermutationSymbol, RowSoftmax
from .registry import register

PAGE = "why-positions"
#: The number of tokens and their width.
N_TOKENS = sympy.Symbol("n", integer=True, positive=True)
WIDTH = sympy.Symbol("w", integer=True, positive=True)
X = sympy.MatrixSymbol("X", N_TOKENS, WIDTH)
M = sympy.MatrixSymbol("M", WIDTH, WIDTH)
#: The value weights; named W_V, not V, because the page calls the values X W_V "V".
W_V = sympy.MatrixSymbol("W_V", WIDTH, WIDTH)
P = PermutationSymbol("P", N_TOKENS, N_TOKENS)
_Z = sympy.MatrixSymbol("Z", N_TOKENS, WIDTH)
#: Attn(Z) = softmax(Z M Z^T) Z W_V: self-attention without positions (M = W_Q W_K^T / sqrt d).
ATTENTION = Definition(
    "Attn", (_Z,), MatMul(RowSoftmax(MatMul(_Z, M, Transpose(_Z))), _Z, W_V), r"\mathrm{{Attn}}\left({0}\right)"
)


def softmax_rows(scores: sympy.Matrix) -> sympy.Matrix:
    """Row-wise softmax of an explicit symbolic matrix (for pages that show one).

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


@register("attention-permutation-equivariant", page=PAGE)
def attention_permutation_equivariant() -> Theorem:
    px = MatMul(P, X)
    goal = Conclusion(ATTENTION(px), MatMul(P, ATTENTION(X)), over=(X, M, W_V, P))
    scores = MatMul(px, M, Transpose(px))
    chain = Chain(
        goal.lhs,
        [
            (MatMul(RowSoftmax(scores), px, W_V), r"the definition at $PX$"),
            (
                MatMul(RowSoftmax(MatMul(P, X, M, Transpose(X), Transpose(P))), P, X, W_V),
                r"$(PX)^\top = X^\top P^\top$",
            ),
            (
                MatMul(P, RowSoftmax(MatMul(X, M, Transpose(X))), Transpose(P), P, X, W_V),
                "softmax acts on each row alone: it permutes with the rows and the columns",
            ),
            (goal.rhs, r"$P^\top P = I$"),
        ],
    )
    return Theorem(
        id="attention-permutation-equivariant",
        title="Self-attention without positions is permutation-equivariant",
        conclusions=(goal,),
        steps=(chain,),
        witness=Witness(
            "max |Attn(P X) - P Attn(X)| with random W_Q, W_K, W_V and permutations, n = 2, 5, 16, 64 tokens",
            numeric.attention_permutation_equivariant,
            1e-12,
            licenses="posenc_math.encodings.dot_product_attention",
        ),
        negative_control=Conclusion(ATTENTION(px), MatMul(Transpose(P), ATTENTION(X)), over=(X, M, W_V, P)),
        scope="general",
        scope_note=(
            "symbolic in the number of tokens $n$, the width $w$, the matrices $M$, $W_V$ and the permutation $P$"
        ),
        proof=(
            r"With $M = W_Q W_K^\top/\sqrt d$, the scores of $PX$ are $P (X M X^\top) P^\top$, and "
            r"softmax acts row by row, so it permutes with the rows and columns:",
            chain,
        ),
        lead=(
            r"$\mathrm{Attn}(X) = \operatorname{softmax}(X M X^\top)\, X W_V$ with softmax row by row, for $n$ tokens "
            r"of width $w$ and any permutation matrix $P$:"
        ),
    )
