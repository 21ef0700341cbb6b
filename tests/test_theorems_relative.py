"""posenc_math.theorems.relative: T5's buckets, Transformer-XL's and DeBERTa's relative scores."""

import dataclasses
import json

import numpy as np
import pytest
import sympy
from theorem_checks import assert_verified_on_page, replace_step

from posenc_math import cli, encodings
from posenc_math.encodings import relative_attention
from posenc_math.theorems import Chain, Equal, Fact, Termwise, decide_equal, get, page_of, relative, verify_theorem

RELATIVE_SCORE_IDS = ("transformer-xl-relative", "deberta-relative")


def test_t5_buckets_verifies_as_a_computation():
    result = verify_theorem(get("t5-buckets"))
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected" and result.witness == "passed"
    assert result.scope == "computation" and "4D" in result.scope_note
    assert page_of("t5-buckets") == "relative"
    theorem = get("t5-buckets")
    established = [step.establishes for step in theorem.steps if isinstance(step, Fact) and step.establishes]
    assert len(established) == len(theorem.conclusions)


def test_t5_facts_and_witness_notice_query_minus_key(monkeypatch):
    real = encodings.t5_bucket
    monkeypatch.setattr(encodings, "t5_bucket", lambda r, **kw: real(-np.asarray(r), **kw))
    theorem = get("t5-buckets")
    exact = next(step for step in theorem.steps if isinstance(step, Fact) and "exact buckets" in step.claim)
    assert not exact.decide().proved
    assert theorem.witness.compute() > 0
    assert verify_theorem(theorem).status == "failed"


def test_cli_json_lists_the_beyond_theorems(capsys):
    assert cli.main(["verify", "--json", "alibi-geometric", "t5-buckets", "yarn-ramp"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == ["alibi-geometric", "t5-buckets", "yarn-ramp"]
    assert all(row["status"] == "verified" and row["negative_control"] == "rejected" for row in rows)
    assert [row["scope"] for row in rows] == ["general", "computation", "general"]
    assert all(row["trivial_steps"] == 0 and row["witness"] == "passed" for row in rows)


# ---- Transformer-XL and DeBERTa -------------------------------------------------
@pytest.fixture(scope="module")
def relative_results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in RELATIVE_SCORE_IDS}


@pytest.mark.parametrize("theorem_id", RELATIVE_SCORE_IDS)
def test_relative_score_theorem_verifies_in_general(relative_results, theorem_id):
    result = relative_results[theorem_id]
    assert_verified_on_page(result, theorem_id, "relative", scope="general")
    assert result.steps >= 2 and all(step.proved for step in result.step_results)


def test_transformer_xl_holds_for_every_number_of_pairs():
    theorem = get("transformer-xl-relative")
    (every_width,) = [step for step in theorem.steps if isinstance(step, Termwise)]
    h = sympy.Symbol("h", integer=True, positive=True)
    assert every_width.lhs_sum.limits[0][1:] == (0, h - 1)
    assert theorem.conclusions[1].over == (relative.I_, relative.J_, relative.S_, h)


def test_transformer_xl_wrong_regrouping_fails_its_step():
    theorem = get("transformer-xl-relative")
    chain = theorem.steps[0]
    assert isinstance(chain, Chain)
    regrouped, why = chain.links[0]
    sine, cosine = regrouped.args  # (x + y) sin, (x' + y') cos: swap the weights of sin and cos
    swapped = sine.args[0] * cosine.args[1] + cosine.args[0] * sine.args[1]
    broken = dataclasses.replace(chain, links=[(swapped, why), chain.links[1]])
    result = verify_theorem(replace_step(theorem, 0, broken))
    assert result.status == "failed"
    assert [step.number for step in result.step_results if not step.proved] == [1, 2]


def test_transformer_xl_witness_notices_absolute_positions(monkeypatch):
    real = encodings.transformer_xl_scores

    def absolute(*args, query_positions=None, **kwargs):
        scores = real(*args, query_positions=query_positions, **kwargs)
        return scores + 1e-9 * np.asarray(query_positions)[:, None]

    monkeypatch.setattr(encodings, "transformer_xl_scores", absolute)
    theorem = get("transformer-xl-relative")
    assert theorem.witness.compute() > theorem.witness.tolerance
    assert verify_theorem(theorem).status == "failed"


def test_transformer_xl_witness_notices_key_minus_query(monkeypatch):
    # the library reading R_{j-i} (the negative control's convention) fails the witness
    real = relative_attention._split_sinusoid
    monkeypatch.setattr(relative_attention, "_split_sinusoid", lambda distances, *a: real(-distances, *a))
    theorem = get("transformer-xl-relative")
    assert theorem.witness.compute() > 1e-3


def test_delta_is_the_library_index():
    i, j = sympy.symbols("i j", integer=True)
    delta = relative.DELTA(i, j)
    assert delta.definition.body.xreplace(dict(zip(delta.definition.params, (i, j), strict=True))) == sympy.Min(
        sympy.Max(i - j + relative.K, 0), 2 * relative.K - 1
    )
    assert sympy.latex(delta) == r"\delta\left(i, j\right)"
    for n, k in ((1, 1), (6, 2), (11, 3), (9, 8)):
        table = [[int(relative.DELTA(a, b).unfolded().xreplace({relative.K: k})) for b in range(n)] for a in range(n)]
        assert np.array_equal(encodings.deberta_relative_index(n, k), table)


def test_deberta_shift_is_proved_only_for_a_common_shift():
    i, j, s = relative.I_, relative.J_, relative.S_
    delta = relative.DELTA
    assert decide_equal(delta(i + s, j + s), delta(i, j)).proved
    assert not decide_equal(delta(i + s, j), delta(i, j)).proved
    assert not decide_equal(delta(j, i), delta(i, j)).proved


def test_deberta_wrong_last_row_fails_its_step():
    theorem = get("deberta-relative")
    index = next(
        i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and "clipped to the last row" in step.why
    )
    step = theorem.steps[index]
    broken = verify_theorem(replace_step(theorem, index, dataclasses.replace(step, rhs=2 * relative.K)))
    assert [s.number for s in broken.step_results if not s.proved] == [index + 1]


def test_deberta_witness_notices_a_transposed_index(monkeypatch):
    # p2c reading delta(i, j) and c2p delta(j, i): still shift-invariant, but not DeBERTa's score
    real = relative_attention.deberta_relative_index
    monkeypatch.setattr(relative_attention, "deberta_relative_index", lambda n, k: real(n, k).T)
    theorem = get("deberta-relative")
    assert theorem.witness.compute() > 1e-3
    assert verify_theorem(theorem).status == "failed"


def test_deberta_witness_notices_an_unclipped_index(monkeypatch):
    real = encodings.deberta_relative_index
    monkeypatch.setattr(encodings, "deberta_relative_index", lambda n, k: np.minimum(real(n, k), 2 * k - 2))
    assert get("deberta-relative").witness.compute() >= 1


# ---- DeBERTa-v2 and v3: logarithmic buckets ---------------------------------------------
@pytest.fixture
def fresh_enumeration():
    """The enumeration is cached per process: recompute it around a test that breaks the library."""
    relative._deberta_enumeration.cache_clear()
    yield
    relative._deberta_enumeration.cache_clear()


def test_deberta_v2_buckets_verifies_as_a_computation():
    result = verify_theorem(get("deberta-v2-buckets"))
    assert_verified_on_page(result, "deberta-v2-buckets", "relative", scope="computation")
    assert "2^{20}" in result.scope_note
    theorem = get("deberta-v2-buckets")
    established = [step.establishes for step in theorem.steps if isinstance(step, Fact) and step.establishes]
    assert set(map(id, established)) == set(map(id, theorem.conclusions))


def test_deberta_v2_statement_uses_the_libraries_regions():
    regions = encodings.deberta_bucket_regions(256, 512)
    exact, smaller, _, _, last, first = get("deberta-v2-buckets").conclusions
    d = exact.over[0]
    assert exact.assuming == (sympy.LessThan(sympy.Abs(d), regions["exact_up_to"]),)
    assert sympy.StrictGreaterThan(sympy.Abs(d), regions["exact_up_to"]) in smaller.assuming
    assert sympy.GreaterThan(d, regions["last_row_from"]) in last.assuming
    assert sympy.LessThan(d, regions["first_row_from"]) in first.assuming
    assert (last.rhs, first.rhs) == (511, 0)


@pytest.mark.parametrize("beyond", [2**20 + 1, -(2**20) - 1, 2**40])
def test_deberta_v2_claims_nothing_beyond_what_is_enumerated(beyond):
    """Every conclusion's hypotheses exclude offsets past 2^20: the facts enumerate no further
    (the rows' far offsets are spot checks, named in words, not a claim for every d)."""
    for conclusion in get("deberta-v2-buckets").conclusions:
        (d,) = conclusion.over
        assert any(hypothesis.subs(d, beyond) == sympy.false for hypothesis in conclusion.assuming), conclusion


def test_deberta_v2_facts_and_witness_notice_key_minus_query(monkeypatch, fresh_enumeration):
    real = encodings.deberta_log_bucket
    monkeypatch.setattr(encodings, "deberta_log_bucket", lambda r, **kw: real(-np.asarray(r), **kw))
    theorem = get("deberta-v2-buckets")
    monotone = next(step for step in theorem.steps if isinstance(step, Fact) and "bucket(d + 1)" in step.claim)
    assert not monotone.decide().proved
    assert theorem.witness.compute() > 0
    assert verify_theorem(theorem).status == "failed"


def test_deberta_v2_monotone_fact_sees_across_its_chunks(monkeypatch, fresh_enumeration):
    """A bucket one too low at the first distance of a chunk, on both sides: every comparison inside a
    chunk still holds, so only the carry from the chunk before can find it."""
    boundary = next(iter(relative.numeric.offset_chunks(0, 2**20)))[-1] + 1
    real = encodings.deberta_log_bucket

    def lower(r, **kw):
        r = np.asarray(r)
        return real(r, **kw) - np.sign(r) * (np.abs(r) == boundary)

    assert real(boundary) == real(boundary - 1)  # so one lower is a decrease
    monkeypatch.setattr(encodings, "deberta_log_bucket", lower)
    facts = {step.claim: step.decide().proved for step in get("deberta-v2-buckets").steps if isinstance(step, Fact)}
    assert [claim for claim, proved in facts.items() if not proved] == [
        "bucket(d) <= bucket(d + 1) for every -2^20 <= d < 2^20"
    ]


@pytest.mark.parametrize("claim", ["exact", "rows"])
def test_deberta_v2_exact_and_rows_facts_can_fail(monkeypatch, fresh_enumeration, claim):
    """One offset moved, on both signs: E + 1 kept as its own bucket (so E is not the largest exact offset), or
    L - 1 already in the last row (so L is not where the last row starts); only that fact fails."""
    real = encodings.deberta_log_bucket
    regions = encodings.deberta_bucket_regions(256, 512)
    moved, value = (
        (regions["exact_up_to"] + 1, regions["exact_up_to"] + 1)
        if claim == "exact"
        else (regions["last_row_from"] - 1, 255)
    )

    def changed(r, **kw):
        r = np.asarray(r)
        out = real(r, **kw)
        if (kw.get("position_buckets"), kw.get("max_relative_positions")) != (256, 512):
            return out
        return np.where(np.abs(r) == moved, np.sign(r) * value, out)

    monkeypatch.setattr(encodings, "deberta_log_bucket", changed)
    assert relative._deberta_enumeration() == {"exact": True, "odd": True, "monotone": True, "rows": True} | {
        claim: False
    }


def test_offset_chunks_cover_the_range_once_in_order():
    chunks = list(relative.numeric.offset_chunks(-5, 9, size=4))
    assert [c.tolist() for c in chunks] == [[-5, -4, -3, -2], [-1, 0, 1, 2], [3, 4, 5, 6], [7, 8, 9]]
    assert all(c.dtype == np.int64 for c in chunks)
    assert np.array_equal(np.concatenate(list(relative.numeric.offset_chunks(0, 2**20))), np.arange(2**20 + 1))


def test_deberta_v2_witness_notices_one_wrong_bucket_the_facts_allow(monkeypatch, fresh_enumeration):
    """In each setting a bucket one too high at the last offset of its bucket, on both sides: still odd,
    monotone, exact near zero and clipped where stated (every fact holds), but not the formula's: only the
    witness can tell."""
    real = encodings.deberta_log_bucket

    def last_of_a_bucket(**kw):
        offsets = np.arange(5000, 7000)
        buckets = real(offsets, **kw)
        return int(offsets[:-1][buckets[1:] > buckets[:-1]][0])  # bucket(d + 1) = bucket(d) + 1

    def off_by_one(r, **kw):
        r = np.asarray(r)
        return real(r, **kw) + np.sign(r) * (np.abs(r) == last_of_a_bucket(**kw))

    monkeypatch.setattr(encodings, "deberta_log_bucket", off_by_one)
    theorem = get("deberta-v2-buckets")
    assert all(step.decide().proved for step in theorem.steps)
    assert theorem.witness.compute() == 2 * len(relative.numeric.DEBERTA_V2_CONFIGS)
    assert verify_theorem(theorem).status == "failed"


def test_deberta_v2_control_names_two_offsets_that_share_a_bucket():
    result = verify_theorem(get("deberta-v2-buckets"))
    point = result.control_counterexample
    assert (point["position_buckets"], point["max_relative_positions"]) == (256, 512)
    d = point["d"]
    assert d <= 256 and point["bucket(d)"] == point["bucket(d - 1)"]
    assert encodings.deberta_log_bucket(d) == encodings.deberta_log_bucket(d - 1) == point["bucket(d)"]
    assert d == encodings.deberta_bucket_regions(256, 512)["exact_up_to"] + 1
