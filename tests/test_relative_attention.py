"""Tests for posenc_math.encodings.relative_attention against loop transcriptions of the papers' equations."""

import math

import numpy as np
import pytest

from posenc_math import deberta_relative_index, deberta_scores, transformer_xl_scores


def _txl_by_loops(q, k, u, v, w_r, rows, cols, base=10000.0):
    width = w_r.shape[1]
    scores = np.zeros((len(rows), len(cols)))
    for a, i in enumerate(rows):
        for b, j in enumerate(cols):
            distance = i - j
            sines = [math.sin(distance / base ** (2 * m / width)) for m in range(width // 2)]
            cosines = [math.cos(distance / base ** (2 * m / width)) for m in range(width // 2)]
            relative = w_r @ np.array(sines + cosines)
            scores[a, b] = q[a] @ k[b] + q[a] @ relative + u @ k[b] + v @ relative
    return scores


@pytest.fixture
def txl_inputs():
    rng = np.random.default_rng(3)
    return (
        rng.normal(size=(5, 6)),
        rng.normal(size=(4, 6)),
        rng.normal(size=6),
        rng.normal(size=6),
        rng.normal(size=(6, 8)),
    )


def test_transformer_xl_matches_the_paper(txl_inputs):
    q, k, u, v, w_r = txl_inputs
    rows, cols = np.array([3, 4, 5, 6, 7]), np.array([0, 2, 4, 6])
    scores, terms = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows, key_positions=cols, return_terms=True)
    np.testing.assert_allclose(scores, _txl_by_loops(q, k, u, v, w_r, rows, cols), atol=1e-12)
    assert set(terms) == {"a", "b", "c", "d"}
    np.testing.assert_allclose(terms["a"], q @ k.T)
    np.testing.assert_allclose(terms["c"][0], k @ u)
    np.testing.assert_allclose(terms["c"][3], k @ u)


def test_transformer_xl_depends_on_positions_only_through_their_difference(txl_inputs):
    q, k, u, v, w_r = txl_inputs
    rows, cols = np.arange(5), np.arange(4)
    here = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows, key_positions=cols)
    there = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows + 1000, key_positions=cols + 1000)
    np.testing.assert_allclose(here, there, atol=1e-9)
    moved = transformer_xl_scores(q, k, u, v, w_r, query_positions=rows + 1, key_positions=cols)
    assert not np.allclose(here, moved)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"w_r": np.ones((6, 7))}, "rel_dim even"),
        ({"u": np.ones(5)}, "u must have shape"),
        ({"keys": np.ones((4, 5))}, "keys must have 6 columns"),
        ({"query_positions": [0.5, 1, 2, 3, 4]}, "query_positions"),
        ({"queries": np.ones((5, 6)) * 1j}, "queries must be real"),
    ],
)
def test_transformer_xl_refuses_bad_input(txl_inputs, change, match):
    q, k, u, v, w_r = txl_inputs
    arguments = {"queries": q, "keys": k, "u": u, "v": v, "w_r": w_r} | change
    positions = {key: arguments.pop(key) for key in ("query_positions",) if key in arguments}
    with pytest.raises((ValueError, TypeError), match=match):
        transformer_xl_scores(**arguments, **positions)


def test_deberta_relative_index_is_the_papers_delta():
    k = 3
    delta = deberta_relative_index(9, k)
    for i in range(9):
        for j in range(9):
            expected = 0 if i - j <= -k else 2 * k - 1 if i - j >= k else i - j + k
            assert delta[i, j] == expected


def test_deberta_scores_match_the_paper():
    rng = np.random.default_rng(5)
    n, dim, k = 7, 4, 2
    qc, kc = rng.normal(size=(n, dim)), rng.normal(size=(n, dim))
    qr, kr = rng.normal(size=(2 * k, dim)), rng.normal(size=(2 * k, dim))

    def delta(i, j):
        return 0 if i - j <= -k else 2 * k - 1 if i - j >= k else i - j + k

    expected = np.array(
        [[qc[i] @ kc[j] + qc[i] @ kr[delta(i, j)] + kc[j] @ qr[delta(j, i)] for j in range(n)] for i in range(n)]
    ) / math.sqrt(3 * dim)
    scores, terms = deberta_scores(qc, kc, qr, kr, return_terms=True)
    np.testing.assert_allclose(scores, expected, atol=1e-12)
    assert set(terms) == {"c2c", "c2p", "p2c"}


def test_deberta_position_terms_depend_only_on_the_clipped_distance():
    rng = np.random.default_rng(6)
    qr, kr = rng.normal(size=(8, 4)), rng.normal(size=(8, 4))
    same = np.ones((12, 4))  # every token the same content: only positions differ
    _, terms = deberta_scores(same, same, qr, kr, return_terms=True)
    delta = deberta_relative_index(12, 4)
    for distance in np.unique(delta):
        assert np.ptp(terms["c2p"][delta == distance]) < 1e-12


def test_deberta_refuses_bad_input():
    good = np.ones((4, 4))
    with pytest.raises(ValueError, match="same even number of rows"):
        deberta_scores(good, good, np.ones((3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="self-attention"):
        deberta_scores(good, np.ones((5, 4)), np.ones((4, 4)), np.ones((4, 4)))
    with pytest.raises(ValueError, match="max_relative_positions"):
        deberta_relative_index(4, 0)
