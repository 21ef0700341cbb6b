"""posenc_math.encodings.learned: a seeded table, a checked lookup, similarity, PCA."""

import numpy as np
import pytest

from posenc_math import (
    cosine_similarity_matrix,
    embedding_lookup,
    learned_table,
    principal_components,
)


def test_learned_table_is_seeded_truncated_normal():
    table = learned_table(512, 384, seed=3, std=0.02)
    assert table.shape == (512, 384) and table.dtype == np.float64
    assert np.array_equal(table, learned_table(512, 384, seed=3, std=0.02))
    assert not np.array_equal(table, learned_table(512, 384, seed=4, std=0.02))
    assert np.abs(table).max() <= 0.04
    # truncation at 2 sigma shrinks the spread to about 0.88 sigma
    assert 0.016 < table.std() < 0.019
    assert abs(table.mean()) < 1e-3


def test_learned_table_scales_with_std():
    assert np.allclose(learned_table(8, 4, seed=0, std=1.0) * 0.5, learned_table(8, 4, seed=0, std=0.5))


def test_lookup_is_row_selection():
    table = learned_table(10, 6, seed=0)
    ids = np.array([[3, 0], [9, 3]])
    rows = embedding_lookup(table, ids)
    assert rows.shape == (2, 2, 6)
    assert np.array_equal(rows[1, 1], table[3]) and np.array_equal(rows[0, 1], table[0])
    assert np.array_equal(embedding_lookup(table, np.arange(10)), table)
    assert embedding_lookup(table, []).shape == (0, 6)
    assert np.array_equal(embedding_lookup(table, np.int32(2)), table[2])


@pytest.mark.parametrize(
    "ids,error,message",
    [
        (-1, ValueError, r"ids must be in 0 \.\. 9"),
        ([0, 10], ValueError, r"the table has 10 rows\); got 10"),
        ([0.0, 1.0], TypeError, "ids must be integers"),
        (True, TypeError, "ids must be integers"),
    ],
)
def test_lookup_refuses_bad_ids(ids, error, message):
    with pytest.raises(error, match=message):
        embedding_lookup(np.zeros((10, 3)), ids)


def test_lookup_refuses_a_table_that_is_not_2d():
    with pytest.raises(ValueError, match="table must be a 2-D array"):
        embedding_lookup(np.zeros(5), [0])


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: learned_table(0, 4), ValueError, "n_positions"),
        (lambda: learned_table(4, 0), ValueError, "dim"),
        (lambda: learned_table(4, 4, seed=-1), ValueError, "seed"),
        (lambda: learned_table(4, 4, std=0.0), ValueError, "std must be a finite number > 0"),
        (lambda: learned_table(4, 4, std="0.02"), TypeError, "std must be a real number"),
        (lambda: learned_table(4.0, 4), TypeError, "n_positions must be an integer"),
    ],
)
def test_learned_table_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_cosine_similarity_matches_the_definition(rng):
    table = rng.standard_normal((7, 5))
    similarity = cosine_similarity_matrix(table)
    i, j = 2, 5
    expected = table[i] @ table[j] / np.linalg.norm(table[i]) / np.linalg.norm(table[j])
    assert similarity[i, j] == pytest.approx(expected, rel=1e-12)
    assert np.allclose(similarity, similarity.T)
    assert np.array_equal(np.diag(similarity), np.ones(7))
    # invariant to rescaling rows
    assert np.allclose(cosine_similarity_matrix(table * np.arange(1, 8)[:, None]), similarity)


def test_cosine_similarity_refuses_zero_rows_and_nan():
    with pytest.raises(ValueError, match="row 1 is all zeros"):
        cosine_similarity_matrix([[1.0, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="finite"):
        cosine_similarity_matrix([[1.0, np.nan]])
    with pytest.raises(ValueError, match="2-D"):
        cosine_similarity_matrix([1.0, 2.0])


def test_principal_components_recover_a_line_and_its_variance(rng):
    direction = np.array([3.0, 4.0, 0.0]) / 5.0
    along = np.linspace(-2, 2, 50)
    points = along[:, None] * direction + 1e-3 * rng.standard_normal((50, 3)) + 7.0
    projection, explained = principal_components(points, 2)
    assert projection.shape == (50, 2) and explained.shape == (2,)
    assert np.allclose(np.abs(projection[:, 0]), np.abs(along), atol=1e-2)
    assert explained[0] > 0.999 and explained.sum() <= 1.0 + 1e-12
    assert np.allclose(projection.mean(axis=0), 0.0)


def test_principal_components_match_the_covariance_eigenvalues(rng):
    points = rng.standard_normal((40, 6)) * np.array([5, 3, 2, 1, 0.5, 0.1])
    _, explained = principal_components(points, 3)
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(points.T)))[::-1]
    assert np.allclose(explained, eigenvalues[:3] / eigenvalues.sum())


def test_principal_components_sign_is_fixed(rng):
    points = rng.standard_normal((20, 4))
    first, _ = principal_components(points, 2)
    again, _ = principal_components(-points, 2)
    # negating the data flips U or V; the sign rule keeps loadings positive,
    # so the projection of -x is minus the projection of x
    assert np.allclose(again, -first)


def test_principal_components_bad_input():
    with pytest.raises(ValueError, match=r"n_components must be in 1 \.\. 2"):
        principal_components(np.eye(3)[:, :2], 3)
    with pytest.raises(ValueError, match="at least 2 rows"):
        principal_components([[1.0, 2.0]])
    with pytest.raises(TypeError, match="n_components must be an integer"):
        principal_components(np.eye(3), 1.5)


def test_attention_is_permutation_equivariant_without_positions(rng):
    from posenc_math import dot_product_attention

    x = rng.standard_normal((6, 4))
    order = rng.permutation(6)
    assert np.allclose(dot_product_attention(x[order], x[order], x[order]), dot_product_attention(x, x, x)[order])
    # adding a position table to the inputs breaks it
    positions = learned_table(6, 4, seed=0, std=1.0)
    shuffled = x[order] + positions
    assert not np.allclose(
        dot_product_attention(shuffled, shuffled, shuffled),
        dot_product_attention(x + positions, x + positions, x + positions)[order],
    )


def test_attention_matches_the_formula_and_survives_large_scores():
    from posenc_math import dot_product_attention

    q = np.array([[1.0, 0.0]])
    k = np.array([[1.0, 0.0], [0.0, 1.0]])
    v = np.array([[10.0], [20.0]])
    weight = np.exp(1 / np.sqrt(2)) / (np.exp(1 / np.sqrt(2)) + 1.0)
    assert dot_product_attention(q, k, v)[0, 0] == pytest.approx(10 * weight + 20 * (1 - weight))
    assert np.isfinite(dot_product_attention(q * 1e4, k * 1e4, v)).all()
    with pytest.raises(ValueError, match="queries and keys must have the same last dimension"):
        dot_product_attention(np.ones((2, 3)), np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="keys and values must have the same number of rows"):
        dot_product_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((3, 2)))


def test_plots_draw_what_they_are_given():
    import matplotlib

    matplotlib.use("agg")
    from posenc_math import sinusoidal
    from posenc_math.plotting import embedding_sum, pca_positions, position_vectors, similarity_matrices, step_sizes

    table = sinusoidal(30, 8)
    figure = position_vectors(table, [0, 5], token_vector=np.ones(8), token_label="token 'x'")
    lines = [axes.lines[0].get_ydata() for axes in figure.axes if axes.get_visible()]
    assert np.array_equal(lines[1], table[5]) and np.array_equal(lines[2], np.ones(8))
    figure = similarity_matrices({"a": table, "b": table}, limit=10)
    assert np.allclose(figure.axes[0].images[0].get_array(), cosine_similarity_matrix(table[:10]))
    figure = embedding_sum(["x", "y"], table[:2], table[2:4], table[:2] + table[2:4], max_dims=4)
    assert figure.axes[2].images[0].get_array().shape == (2, 4)
    projection, explained = principal_components(table)
    figure = pca_positions(projection, explained)
    assert np.allclose(figure.axes[0].collections[0].get_offsets(), projection)
    figure = step_sizes({"count": np.arange(4.0)})
    assert np.array_equal(figure.axes[0].lines[0].get_ydata(), [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="token_vector must have shape"):
        position_vectors(table, [0], token_vector=np.ones(3))
    with pytest.raises(ValueError, match="n_tokens = len"):
        embedding_sum(["x"], table[:2], table[:2], table[:2])


def test_step_sizes_description_reads_the_steps_drawn():
    pytest.importorskip("matplotlib")
    from posenc_math import binary, sinusoidal
    from posenc_math.plotting import step_sizes_description

    text = step_sizes_description({"n = 8": np.arange(8) / 7, "bits": binary(16, 4), "sin": sinusoidal(16, 8)})
    assert "n = 8: flat at 0.14 (ending at 6)." in text
    assert "bits: from 1 at 0 to 1 at 14, highest 2 at 7, lowest 1 at 0." in text  # 7 -> 8 flips all four bits
    step = float(np.linalg.norm(sinusoidal(16, 8)[1] - sinusoidal(16, 8)[0]))
    assert f"sin: flat at {step:.2g}." in text
    with pytest.raises(TypeError, match="tables"):
        step_sizes_description([1, 2])


def test_position_vectors_pairs_split_sine_and_cosine():
    pytest.importorskip("matplotlib")
    from posenc_math import sinusoidal
    from posenc_math.plotting import position_vectors

    table = sinusoidal(12, 16)
    figure = position_vectors(table, [7], pairs=True)
    sine, cosine = figure.axes[0].lines[:2]
    np.testing.assert_array_equal(sine.get_ydata(), table[7, 0::2])
    np.testing.assert_array_equal(cosine.get_ydata(), table[7, 1::2])
    with pytest.raises(ValueError, match="even number of columns"):
        position_vectors(table[:, :15], [0], pairs=True)


def test_position_vectors_scales():
    pytest.importorskip("matplotlib")
    from posenc_math.plotting import position_vectors

    table = np.vstack([np.full(8, 2.0), np.full(8, 0.01)])
    own = position_vectors(table, [0, 1], shared_scale=False)
    assert own.axes[0].get_ylim() != own.axes[1].get_ylim()
    shared = position_vectors(table, [0, 1])
    assert shared.axes[0].get_ylim() == shared.axes[1].get_ylim()
    fixed = position_vectors(table, [0, 1], shared_scale=False, ylim=(-0.15, 0.15))
    assert fixed.axes[0].get_ylim() == fixed.axes[1].get_ylim() == (-0.15, 0.15)


def test_embedding_difference_draws_row_differences():
    pytest.importorskip("matplotlib")
    from posenc_math.plotting import embedding_difference

    rng = np.random.default_rng(0)
    token = np.vstack([rng.normal(size=6)] * 3)
    position = rng.normal(size=(3, 6))
    figure = embedding_difference(["a", "b", "a"], token, position, token + position, 0, 2)
    total_line, position_line, token_line = figure.axes[0].lines[:3]
    np.testing.assert_allclose(total_line.get_ydata(), position[2] - position[0])
    np.testing.assert_allclose(position_line.get_ydata(), position[2] - position[0])
    np.testing.assert_array_equal(token_line.get_ydata(), np.zeros(6))
    with pytest.raises(ValueError, match="first and second"):
        embedding_difference(["a", "b", "a"], token, position, token + position, 0, 3)


def test_learned_descriptions_read_the_rows_drawn():
    pytest.importorskip("matplotlib")
    from posenc_math.plotting import (
        embedding_difference_description,
        pca_positions_description,
        position_vectors_description,
    )

    rng = np.random.default_rng(0)
    table = rng.normal(scale=0.05, size=(6, 40))
    table[0, 3] = 1.5
    text = position_vectors_description(table, [0, 4], ylim=(-0.1, 0.1))
    off = int(np.count_nonzero(np.abs(table[4]) > 0.1))
    assert "position 0: largest entry 1.5 at dimension 3" in text
    assert f"{np.quantile(np.abs(table[4]), 0.95):.2g}" in text.split("position 4")[1]
    assert (f"{off} entr" in text.split("position 4")[1]) == (off > 0)
    token = np.ones((2, 40))
    text = embedding_difference_description(token, table[:2], token + table[:2], 0, 1)
    assert f"lowest {np.min(table[1] - table[0]):.2g} at {np.argmin(table[1] - table[0])}" in text
    assert "token embedding: flat at 0." in text
    text = pca_positions_description(table[:, :2], [0.25, 0.125], n_first=3)
    assert "(25% and 12% of the variance)" in text
    assert f"between {table[:3, :2].min():.2g} and {table[:3, :2].max():.2g}." in text
