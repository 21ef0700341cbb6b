"""posenc_math.theorems.relative: T5's buckets, by exhaustive computation."""

import json

import numpy as np

from posenc_math import cli, encodings
from posenc_math.theorems import Fact, get, page_of, relative, verify_theorem


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


def test_t5_exact_arithmetic_agrees_with_float32():
    # the witness's claim, on one more configuration
    config = (True, 16, 64)
    offsets = np.arange(-200, 201)
    assert np.array_equal(relative._exact_buckets_mp(offsets, config), relative._buckets(offsets, config))


def test_cli_json_lists_the_beyond_theorems(capsys):
    assert cli.main(["verify", "--json", "alibi-geometric", "t5-buckets", "yarn-ramp"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == ["alibi-geometric", "t5-buckets", "yarn-ramp"]
    assert all(row["status"] == "verified" and row["negative_control"] == "rejected" for row in rows)
    assert [row["scope"] for row in rows] == ["general", "computation", "general"]
    assert all(row["trivial_steps"] == 0 and row["witness"] == "passed" for row in rows)
