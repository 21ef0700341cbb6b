"""Why positions are needed: attention alone is permutation-equivariant."""

from __future__ import annotations

import numpy as np
import sympy

from ..encodings import dot_product_attention
from .core import Chain, Equal, Fact, Theorem, Witness
from .registry import register

N_TOKENS, WIDTH = 3, 2


def softmax_rows(scores: sympy.Matrix) -> sympy.Matrix:
    """Row-wise softmax of a symbolic matrix."""
    rows = []
    for i in range(scores.rows):
        total = sum(sympy.exp(scores[i, j]) for j in range(scores.cols))
        rows.append([sympy.exp(scores[i, j]) / total for j in range(scores.cols)])
    return sympy.Matrix(rows)


def permutation_matrix(order) -> sympy.Matrix:
    """P with (P X)[i] = X[order[i]]."""
    matrix = sympy.zeros(len(order), len(order))
    for row, column in enumerate(order):
        matrix[row, column] = 1
    return matrix


@register("attention-permutation-equivariant", page="why-positions")
def attention_permutation_equivariant() -> Theorem:
    x = sympy.Matrix(N_TOKENS, WIDTH, sympy.symbols(f"x0:{N_TOKENS * WIDTH}", real=True))
    m = sympy.Matrix(WIDTH, WIDTH, sympy.symbols(f"m0:{WIDTH * WIDTH}", real=True))
    v = sympy.Matrix(WIDTH, WIDTH, sympy.symbols(f"v0:{WIDTH * WIDTH}", real=True))
    s = sympy.Matrix(N_TOKENS, N_TOKENS, sympy.symbols(f"s0:{N_TOKENS**2}", real=True))
    e = sympy.Matrix(N_TOKENS, WIDTH, sympy.symbols(f"e0:{N_TOKENS * WIDTH}", real=True))
    steps = []
    for name, order in (("a swap", (1, 0, 2)), ("a 3-cycle", (1, 2, 0))):
        p = permutation_matrix(order)
        steps += [
            Equal((p * x) * m * (p * x).T, p * (x * m * x.T) * p.T, f"{name}: scores of P X are P S P^T"),
            Equal(
                softmax_rows(p * s * p.T),
                p * softmax_rows(s) * p.T,
                f"{name}: softmax permutes with its rows and columns",
            ),
            Equal(sympy.MatMul(p.T, p, evaluate=False), sympy.eye(N_TOKENS), f"{name}: P^T P = I"),
            Chain(
                softmax_rows(p * s * p.T) * (p * x) * v,
                [
                    (p * softmax_rows(s) * p.T * p * x * v, "the two steps above"),
                    (p * (softmax_rows(s) * x * v), "P^T P = I: Attn(P X) = P Attn(X)"),
                ],
            ),
        ]

    def numpy_check() -> bool:
        rng = np.random.default_rng(0)
        tokens = rng.normal(size=(9, 8))
        order = rng.permutation(9)
        out = dot_product_attention(tokens, tokens, tokens)
        return bool(
            np.allclose(dot_product_attention(tokens[order], tokens[order], tokens[order]), out[order], atol=1e-13)
        )

    def witness():
        rng = np.random.default_rng(1)
        worst = 0.0
        for n in (2, 5, 16, 64):
            tokens = rng.normal(size=(n, 16))
            wq, wk, wv = (rng.normal(size=(16, 16)) / 4 for _ in range(3))
            order = rng.permutation(n)
            attend = lambda z: dot_product_attention(z @ wq, z @ wk, z @ wv)  # noqa: E731
            worst = max(worst, float(np.abs(attend(tokens[order]) - attend(tokens)[order]).max()))
        return worst

    p = permutation_matrix((1, 2, 0))
    return Theorem(
        id="attention-permutation-equivariant",
        title="Self-attention without positions is permutation-equivariant",
        statement=(
            r"\mathrm{Attn}(X) = \operatorname{softmax}\!\big(X W_Q (X W_K)^\top/\sqrt{d}\big)\, X W_V"
            r"\\ \Longrightarrow\ \mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)\ \text{for every permutation matrix } P"
        ),
        assumptions=[
            r"softmax row by row; $M = W_Q W_K^\top/\sqrt d$ and $V = W_V$ any matrices",
            f"checked symbolically for $n = {N_TOKENS}$ tokens of width {WIDTH} with a swap and a 3-cycle, which "
            "generate every permutation of 3 tokens (equivariance is kept under composition); the algebra is "
            "the same for every $n$",
        ],
        steps=steps
        + [
            Fact(
                "dot_product_attention on 9 tokens: shuffled input gives the same rows shuffled",
                numpy_check,
                "the numpy function the pages use",
            )
        ],
        witness=Witness(
            "max |Attn(P X) - P Attn(X)| with random W_Q, W_K, W_V, n = 2 .. 64",
            witness,
            1e-12,
            licenses="dot_product_attention",
        ),
        negative_control=Equal(
            (p * x + e) * m * (p * x + e).T,
            p * ((x + e) * m * (x + e).T) * p.T,
            "positions added: still equivariant?",
        ),
        negative_control_text=(
            "with a position table $E$ added to the tokens, the scores of $PX + E$ are still the permuted "
            "scores of $X + E$"
        ),
    )
