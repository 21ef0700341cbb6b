"""Issue 25's probes on messages: a bool where a number is expected is called a bool (it used to be
called "a complex number", bool being a numbers.Complex), and nested lists of unequal lengths are refused
naming the argument (numpy's own message, "setting an array element with a sequence ... inhomogeneous
shape", names none)."""

import numpy as np
import pytest

import posenc_math as pm
from posenc_math import analysis, conventions, precision

BOOLS = [
    ("sinusoidal n_positions", lambda: pm.sinusoidal(True, 8), "n_positions"),
    ("sinusoidal base", lambda: pm.sinusoidal(4, 8, base=True), "base"),
    ("frequencies base", lambda: pm.frequencies(8, base=True), "base"),
    ("translation_matrix k", lambda: pm.translation_matrix(True, 8), "k"),
    ("rope base", lambda: pm.rope(np.ones((2, 8)), [0, 1], base=True), "base"),
    ("rope attention_factor", lambda: pm.rope(np.ones((2, 8)), [0, 1], attention_factor=True), "attention_factor"),
    ("rope rotary_dim", lambda: pm.rope(np.ones((2, 8)), [0, 1], rotary_dim=True), "rotary_dim"),
    ("rope positions", lambda: pm.rope(np.ones((2, 8)), [True, False]), "positions"),
    ("alibi_slopes n_heads", lambda: pm.alibi_slopes(True), "n_heads"),
    ("alibi_bias n_queries", lambda: pm.alibi_bias(2, 4, n_queries=True), "n_queries"),
    ("t5_bucket num_buckets", lambda: pm.t5_bucket(3, num_buckets=True), "num_buckets"),
    ("shaw_clip max_distance", lambda: pm.shaw_clip(3, True), "max_distance"),
    ("xpos_scales scale_base", lambda: pm.xpos_scales(8, [0], scale_base=True), "scale_base"),
    ("pixel_frequencies max_freq", lambda: pm.pixel_frequencies(8, max_freq=True), "max_freq"),
    ("learned_table std", lambda: pm.learned_table(4, 4, std=True), "std"),
    ("timing_signal min_timescale", lambda: pm.timing_signal(4, 8, min_timescale=True), "min_timescale"),
    ("softmax axis", lambda: pm.softmax([1.0, 2.0], axis=True), "axis"),
    ("binary n_bits", lambda: pm.binary(4, True), "n_bits"),
    (
        "deberta_log_bucket position_buckets",
        lambda: pm.deberta_log_bucket(3, position_buckets=True),
        "position_buckets",
    ),
    ("deberta_relative_index n_positions", lambda: pm.deberta_relative_index(True, 2), "n_positions"),
    ("convention_bias n_queries", lambda: conventions.convention_bias("hf-t5", True), "n_queries"),
    ("phase_error_bound frequency", lambda: precision.phase_error_bound([1.0], "float32", frequency=True), "frequency"),
    ("dot_product_by_offset max_offset", lambda: analysis.dot_product_by_offset(True, 8), "max_offset"),
]


@pytest.mark.parametrize("name, call, argument", BOOLS, ids=[probe[0] for probe in BOOLS])
def test_a_bool_is_called_a_bool(name, call, argument):
    with pytest.raises(TypeError) as refused:
        call()
    message = str(refused.value)
    assert argument in message and ("a bool" in message or "booleans" in message), message
    assert "complex" not in message, message


RAGGED = [[1, 2], [3]]
RAGGED_PROBES = [
    ("rope x", lambda: pm.rope(RAGGED, [0, 1]), "x"),
    ("rope positions", lambda: pm.rope(np.ones((2, 8)), RAGGED), "positions"),
    ("rope inv_freq", lambda: pm.rope(np.ones((2, 2)), [0, 1], inv_freq=[[1.0], []]), "inv_freq"),
    ("rope_cos_sin positions", lambda: pm.rope_cos_sin(RAGGED, [1.0]), "positions"),
    ("apply_rotary cos", lambda: pm.apply_rotary(np.ones((2, 4)), RAGGED, RAGGED), "cos"),
    ("mrope positions", lambda: pm.mrope(np.ones((2, 8)), [[0, 1], [0, 1], [0]], [2, 1, 1]), "positions"),
    ("axial_rope positions", lambda: pm.axial_rope(np.ones((2, 8)), RAGGED), "positions"),
    ("xpos positions", lambda: pm.xpos(np.ones((2, 8)), RAGGED), "positions"),
    ("xpos_scales positions", lambda: pm.xpos_scales(8, RAGGED), "positions"),
    ("mrope_positions attention_mask", lambda: pm.mrope_positions([[1]], attention_mask=RAGGED), "attention_mask"),
    ("rope_scores queries", lambda: pm.rope_scores(RAGGED, RAGGED), "queries"),
    ("rope_relative_scores query", lambda: pm.rope_relative_scores(RAGGED, [1, 2], [0]), "query"),
    ("rope_relative_scores offsets", lambda: pm.rope_relative_scores([1, 2], [1, 2], RAGGED), "offsets"),
    ("rope_decay_bound key", lambda: pm.rope_decay_bound([1, 2], RAGGED, [0]), "key"),
    ("t5_bucket relative_position", lambda: pm.t5_bucket(RAGGED), "relative_position"),
    ("shaw_clip relative_position", lambda: pm.shaw_clip(RAGGED, 2), "relative_position"),
    ("deberta_log_bucket relative_position", lambda: pm.deberta_log_bucket(RAGGED), "relative_position"),
    ("softmax scores", lambda: pm.softmax(RAGGED), "scores"),
    ("cosine_similarity_matrix table", lambda: pm.cosine_similarity_matrix(RAGGED), "table"),
    ("embedding_lookup table", lambda: pm.embedding_lookup(RAGGED, [0]), "table"),
    ("embedding_lookup ids", lambda: pm.embedding_lookup(np.ones((3, 2)), RAGGED), "ids"),
    ("dot_product_attention queries", lambda: pm.dot_product_attention(RAGGED, RAGGED, RAGGED), "queries"),
    ("transformer_xl_scores queries", lambda: pm.transformer_xl_scores(RAGGED, RAGGED, [1], [1], RAGGED), "queries"),
    ("deberta_scores content_queries", lambda: pm.deberta_scores(RAGGED, RAGGED, RAGGED, RAGGED), "content_queries"),
    ("convention_table positions", lambda: conventions.convention_table("fairseq", RAGGED, 8), "positions"),
    ("convention_position_ids", lambda: conventions.convention_position_ids("hf-llama", RAGGED), "attention_mask"),
    ("phase_error_bound positions", lambda: precision.phase_error_bound(RAGGED, "float32"), "positions"),
    ("count_distinct_rows table", lambda: analysis.count_distinct_rows(RAGGED), "table"),
    ("first_repeated_row table", lambda: analysis.first_repeated_row(RAGGED), "table"),
    ("rope_mean_scores offsets", lambda: analysis.rope_mean_scores(8, RAGGED), "offsets"),
]


@pytest.mark.parametrize("name, call, argument", RAGGED_PROBES, ids=[probe[0] for probe in RAGGED_PROBES])
def test_ragged_nested_lists_name_the_argument(name, call, argument):
    with pytest.raises(ValueError, match=rf"\b{argument} must be a rectangular array.*ragged"):
        call()


def test_the_message_says_what_was_passed():
    from posenc_math._validate import check_int, check_real

    with pytest.raises(TypeError, match=r"base must be a real number, got a bool True"):
        check_real("base", True)
    with pytest.raises(TypeError, match=r"base must be a real number, got a complex number \(1\+2j\)"):
        check_real("base", 1 + 2j)
    with pytest.raises(TypeError, match=r"dim must be an integer, got a bool False"):
        check_int("dim", np.bool_(False))
