"""Issue 13's probes: every input that used to give a silent wrong answer or a
bare numpy/Python error now gives the right answer or a ValueError/TypeError
naming the argument."""

import numpy as np
import pytest

import posenc_math as pm
from posenc_math import analysis, conventions, precision


@pytest.mark.parametrize(
    "call,error,message",
    [
        (lambda: conventions.convention_table("fairseq", [1, 2, 3], 8, base=0), ValueError, "base must be .* > 1"),
        (lambda: conventions.convention_frequencies("hf-llama", 8, base=1), ValueError, "base must be .* > 1"),
        (lambda: conventions.convention_frequencies("hf-llama", 8, base="1e4"), TypeError, "base must be a real"),
        (lambda: conventions.convention_rotate("hf-llama", [[1j, 0.0]], [1]), TypeError, "x must be real"),
        (lambda: conventions.convention_table("fairseq", [2**60], 8), ValueError, "positions"),
        (lambda: conventions.convention_position_ids("hf-marian", [[1]], past_length=2**63), ValueError, "past_length"),
        (lambda: conventions.convention_bias("hf-t5", 10**7), MemoryError, "n_queries=10000000"),
        (lambda: pm.translation_matrix(1e300, 8), ValueError, r"k must satisfy \|k\| <= 2\*\*53"),
        (lambda: pm.sinusoidal(4, 8, start=2**63), ValueError, "start"),
        (lambda: pm.timing_signal(4, 8, start_index=2**63), ValueError, "start_index"),
        (lambda: pm.ntk_aware_base(1e4, 1e300, 4), ValueError, "NTK-aware base overflows"),
        (lambda: pm.sinusoidal(10**12, 10**12), MemoryError, "n_positions=1000000000000"),
        (lambda: pm.sinusoidal(4, 8, base=2 + 0j), TypeError, "base must be a real number, got a complex"),
        (lambda: pm.cosine_similarity_matrix([[1 + 1j, 0]]), TypeError, "table must be real"),
        (lambda: pm.cosine_similarity_matrix([[0.0, 0.0], [1.0, 0.0]]), ValueError, "row 0 is all zeros"),
        (lambda: analysis.table_from_frequencies(3, [1j]), TypeError, "freqs must be real"),
        (lambda: analysis.table_from_frequencies(3, [1.0], start=2**63), ValueError, "start"),
        (lambda: analysis.first_increase([1, 2j]), TypeError, "values must be real"),
        (lambda: analysis.closest_earlier_row([[1j]]), TypeError, "table must be real"),
        (lambda: analysis.dot_product_by_offset(10**18, 8), ValueError, "max_offset"),
        (lambda: analysis.low_precision_table(4, 8, "float16", start=2**63), ValueError, "start"),
        (lambda: precision.phase_error_bound([1j], "float32"), TypeError, "positions must be real"),
        (lambda: precision.phase_error_bound([1.0], "float32", frequency="1"), TypeError, "frequency"),
        (lambda: pm.alibi_bias(10**4, 10**5), MemoryError, "n_heads=10000"),
    ],
)
def test_probe_is_refused_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_cosine_similarity_of_huge_and_tiny_rows_is_right():
    assert pm.cosine_similarity_matrix([[1e200, 1e200], [1e200, 0.0]])[0, 1] == pytest.approx(0.5**0.5, rel=1e-15)
    tiny = pm.cosine_similarity_matrix([[1e-200, 1e-200], [1e-200, 0.0], [5e-324, 0.0]])
    assert tiny[0, 1] == pytest.approx(0.5**0.5, rel=1e-15) and tiny[1, 2] == 1.0
    mixed = pm.cosine_similarity_matrix([[1e300, -1e300], [1e-300, -1e-300]])
    assert mixed[0, 1] == pytest.approx(1.0, rel=1e-15)


def test_the_memory_error_is_also_a_value_error():
    with pytest.raises(ValueError, match=r"needs about .* bytes"):
        pm.sinusoidal(10**12, 10**12)


def test_fuzzed_inputs_give_an_answer_or_a_named_error(rng):
    # A brief fuzz: random sizes, bases, starts and dtypes, including extreme
    # ones; the only errors allowed are ValueError/TypeError naming an argument.
    names = ("n_positions", "dim", "base", "start", "dtype", "odd", "positions")
    specials = [0, 1, -1, 2, 3, 2**31, -(2**31), 2**53, 2**53 + 1, 2**63, 1e300, -1e-300, float("nan"), 1j, "8", None]

    def pick(options):
        return options[int(rng.integers(len(options)))]

    seen = set()
    for _ in range(300):
        n = pick([1, 2, 17, *specials])
        dim = pick([2, 3, 8, 64, *specials])
        base = pick([10000.0, 1.0000001, 1e300, 2, *specials])
        start = pick([0, -5, 10**9, 2**53 - 17, *specials])
        dtype = pick(["float64", "float16", "bfloat16", "int8", *specials])
        try:
            table = pm.sinusoidal(n, dim, base=base, start=start, dtype=dtype, odd="pad")
        except (ValueError, TypeError) as error:
            named = any(name in str(error) for name in names)
            seen.add((TypeError if isinstance(error, TypeError) else ValueError) if named else str(error))
        else:
            seen.add("answer")
            assert np.isfinite(table.astype(np.float64)).all() and np.abs(table.astype(np.float64)).max() <= 1.0
    assert seen == {ValueError, TypeError, "answer"}
