"""posenc_math.theorems.beyond: RoPE, the NTK base, ALiBi, softmax shifts, T5 buckets."""

import dataclasses
import json

import numpy as np
import pytest
import sympy

from posenc_math import cli, encodings
from posenc_math.theorems import Chain, Equal, Fact, beyond, get, page_of, verify_theorem

IDS = {
    "rope-relative": "rope",
    "rope-layout-permutation": "rope",
    "ntk-base": "context-extension",
    "alibi-geometric": "alibi",
    "softmax-shift-invariance": "alibi",
    "t5-buckets": "relative",
}


@pytest.fixture(scope="module")
def results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in IDS}


@pytest.mark.parametrize("theorem_id", IDS)
def test_theorem_verifies(results, theorem_id):
    result = results[theorem_id]
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected"
    assert result.ok and not result.failures
    assert result.steps == len(get(theorem_id).checks()) >= 4
    assert all(step.proved for step in result.step_results)
    assert result.witness_error is not None and result.witness_error <= result.witness_tolerance
    assert page_of(theorem_id) == IDS[theorem_id]


@pytest.mark.parametrize("theorem_id", IDS)
def test_theorem_is_complete(theorem_id):
    theorem = get(theorem_id)
    assert theorem.id == theorem_id
    assert theorem.title and theorem.statement and theorem.assumptions and theorem.negative_control_text
    assert theorem.witness.licenses and hasattr(encodings, theorem.witness.licenses)
    assert theorem.witness.digits >= 30


@pytest.mark.parametrize("theorem_id", IDS)
def test_negative_control_is_refused(theorem_id):
    decisions = [check.decide() for check in get(theorem_id).negative_control.checks()]
    assert not all(decision.proved for decision in decisions)
    assert all(decision.method in ("undecided", "fact") for decision in decisions if not decision.proved)


def _replace_step(theorem, index, step):
    steps = list(theorem.steps)
    steps[index] = step
    return dataclasses.replace(theorem, steps=steps)


def test_wrong_sign_in_an_equation_is_reported_by_number():
    theorem = get("ntk-base")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and "divided by s" in step.why)
    good = theorem.steps[index]
    number = sum(len(list(step.checks())) for step in theorem.steps[:index]) + 1
    broken = _replace_step(
        theorem, index, dataclasses.replace(good, rhs=good.rhs * sympy.Symbol("s", positive=True) ** 2)
    )
    result = verify_theorem(broken)
    assert result.status == "failed" and result.negative_control == "rejected"
    assert len(result.failures) == 1
    assert result.failures[0].startswith(f"step {number} (check: the slowest frequency is divided by s)")
    assert not result.step_results[number - 1].proved
    assert all(step.proved for step in result.step_results if step.number != number)


def test_wrong_sign_in_a_chain_link_is_reported_by_number():
    theorem = get("rope-relative")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Chain))
    chain = theorem.steps[index]
    links = list(chain.links)
    # link 3 is R(-m w) R(n w) = R((n - m) w); make it R((m - n) w)
    expression, why = links[2]
    links[2] = (expression.subs({beyond.n_: beyond.m_, beyond.m_: beyond.n_}, simultaneous=True), why)
    assert links[2][0] != expression
    broken = _replace_step(theorem, index, dataclasses.replace(chain, links=links))
    result = verify_theorem(broken)
    first = sum(len(list(step.checks())) for step in theorem.steps[:index]) + 1
    failed = [step.number for step in result.step_results if not step.proved]
    # the wrong link breaks its own step and the next one, which starts from it
    assert failed == [first + 2, first + 3]
    assert result.status == "failed"
    assert result.failures[0].startswith(f"step {first + 2} (R(a) R(b) = R(a + b): angle addition)")
    assert "residual" in result.failures[0]


def test_softmax_step_with_flipped_bias_fails():
    theorem = get("softmax-shift-invariance")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and "c = m i" in step.why)
    good = theorem.steps[index]
    m = sympy.Symbol("m", real=True)
    broken = _replace_step(theorem, index, dataclasses.replace(good, rhs=good.rhs.subs(m, -m)))
    result = verify_theorem(broken)
    assert result.status == "failed"
    number = sum(len(list(step.checks())) for step in theorem.steps[:index]) + 1
    assert [step.number for step in result.step_results if not step.proved] == [number]


def _fact(theorem_id, words):
    return next(step for step in get(theorem_id).steps if isinstance(step, Fact) and words in step.claim)


def test_layout_fact_notices_the_inverse_permutation(monkeypatch):
    fact = _fact("rope-layout-permutation", "interleaved_to_half")
    assert fact.decide().proved
    monkeypatch.setattr(beyond, "interleaved_to_half", lambda dim: np.argsort(encodings.interleaved_to_half(dim)))
    assert not fact.decide().proved


def test_rope_facts_and_witness_notice_a_rotation_the_other_way(monkeypatch):
    def backwards(x, positions, **kwargs):
        return encodings.rope(x, -np.asarray(positions), **kwargs)

    monkeypatch.setattr(beyond, "rope", backwards)
    assert not _fact("rope-relative", "equals R(p w_j)").decide().proved
    assert get("rope-relative").witness.compute() > 0.1


def test_alibi_fact_notices_slopes_in_the_wrong_order(monkeypatch):
    fact = _fact("alibi-geometric", "within one ulp")
    monkeypatch.setattr(beyond, "alibi_slopes", lambda n: encodings.alibi_slopes(n)[::-1])
    assert not fact.decide().proved


def test_key_only_fact_notices_a_wrong_sign(monkeypatch):
    fact = _fact("softmax-shift-invariance", "alibi_key_bias")
    monkeypatch.setattr(beyond, "alibi_key_bias", lambda h, n: -encodings.alibi_key_bias(h, n))
    assert not fact.decide().proved


def test_t5_facts_notice_query_minus_key(monkeypatch):
    monkeypatch.setattr(beyond, "t5_bucket", lambda r, **kw: encodings.t5_bucket(-np.asarray(r), **kw))
    theorem = get("t5-buckets")
    assert not _fact("t5-buckets", "exact buckets").decide().proved
    assert theorem.witness.compute() > 0


def test_t5_exact_arithmetic_agrees_with_float32():
    # the witness's claim, on one more configuration
    config = (True, 16, 64)
    offsets = np.arange(-200, 201)
    assert np.array_equal(beyond._exact_buckets_mp(offsets, config), beyond._buckets(offsets, config))


def test_cli_json_lists_the_beyond_theorems(capsys):
    assert cli.main(["verify", "--json", "alibi-geometric", "t5-buckets"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == ["alibi-geometric", "t5-buckets"]
    assert all(row["status"] == "verified" and row["negative_control"] == "rejected" for row in rows)
