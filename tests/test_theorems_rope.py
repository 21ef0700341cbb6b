"""posenc_math.theorems.rope: relative scores, the two layouts, the long-term decay bound."""

import dataclasses
import importlib

import numpy as np
import pytest
import sympy

from posenc_math import encodings
from posenc_math.theorems import Chain, Fact, Termwise, get, page_of, rope, verify_theorem

SCOPES = {"rope-relative": "general", "rope-layout-permutation": "general", "rope-long-term-decay": "instances"}


@pytest.fixture(scope="module")
def results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in SCOPES}


@pytest.mark.parametrize("theorem_id", SCOPES)
def test_theorem_verifies_with_its_control_rejected(results, theorem_id):
    result = results[theorem_id]
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected"
    assert result.witness == "passed" and result.witness_error <= result.witness_tolerance
    assert result.trivial_steps == 0
    assert all(step.proved for step in result.step_results)
    assert result.scope == SCOPES[theorem_id] and result.scope_note
    assert page_of(theorem_id) == "rope"


@pytest.mark.parametrize("theorem_id", SCOPES)
def test_proof_displays_only_checked_steps(theorem_id):
    theorem = get(theorem_id)
    shown = [item for item in theorem.proof if not isinstance(item, str)]
    assert shown and all(any(item is step for step in theorem.steps) for item in shown)
    assert theorem.witness.licenses.startswith("posenc_math.encodings.")


def test_rope_relative_covers_every_width_and_both_layouts():
    theorem = get("rope-relative")
    sums = [step for step in theorem.steps if isinstance(step, Termwise)]
    assert len(sums) == 2
    for step in sums:
        (_, low, high) = step.lhs_sum.limits[0]
        assert low == 0 and high == rope.P_ - 1  # a symbolic number of pairs
    assert {c.over for c in theorem.conclusions[1:]} == {(rope.m_, rope.n_, rope.P_)}


def _replace_step(theorem, index, step):
    steps = list(theorem.steps)
    steps[index] = step
    return dataclasses.replace(theorem, steps=tuple(steps))


def test_wrong_sign_in_a_chain_link_is_reported_by_number():
    theorem = get("rope-relative")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Chain))
    chain = theorem.steps[index]
    links = list(chain.links)
    expression, why = links[2]  # R(-m w) R(n w) = R((n - m) w); make it R((m - n) w)
    links[2] = (expression.subs({rope.n_: rope.m_, rope.m_: rope.n_}, simultaneous=True), why)
    broken = verify_theorem(_replace_step(theorem, index, dataclasses.replace(chain, links=links)))
    first = sum(len(list(step.checks())) for step in theorem.steps[:index]) + 1
    assert [step.number for step in broken.step_results if not step.proved] == [first + 2, first + 3]
    assert broken.status == "failed"
    assert any(f.startswith(f"step {first + 2} ($R(a) R(b) = R(a + b)$: angle addition)") for f in broken.failures)


def test_wrong_sign_in_a_pair_sum_is_reported_by_number():
    theorem = get("rope-relative")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Termwise))
    step = theorem.steps[index]
    flipped = step.rhs_sum.func(step.rhs_sum.function.subs(rope.n_, -rope.n_), *step.rhs_sum.limits)
    broken = verify_theorem(_replace_step(theorem, index, dataclasses.replace(step, rhs_sum=flipped)))
    number = sum(len(list(s.checks())) for s in theorem.steps[:index]) + 1
    assert [s.number for s in broken.step_results if not s.proved] == [number]
    assert any(failure.startswith(f"step {number} (") for failure in broken.failures)


def test_layout_index_facts_refuse_the_inverse_in_place_of_pi():
    theorem = get("rope-layout-permutation")
    step = theorem.steps[0]
    swapped = sympy.Transpose(sympy.Matrix([rope.pi_inverse_map(rope.j_), rope.pi_inverse_map(rope.j_ + rope.P_SPLIT)]))
    broken = verify_theorem(_replace_step(theorem, 0, dataclasses.replace(step, lhs=swapped)))
    assert broken.status == "failed" and not broken.step_results[0].proved


def test_rope_witness_notices_a_rotation_the_other_way(monkeypatch):
    real = encodings.rope
    monkeypatch.setattr(encodings, "rope", lambda x, positions, **kw: real(x, -np.asarray(positions), **kw))
    assert get("rope-relative").witness.compute() > 0.1


def test_layout_witness_notices_the_inverse_permutation(monkeypatch):
    real = encodings.interleaved_to_half
    monkeypatch.setattr(encodings, "interleaved_to_half", lambda dim: np.argsort(real(dim)))
    theorem = get("rope-layout-permutation")
    assert theorem.witness.compute() > theorem.witness.tolerance


def test_decay_witness_notices_a_halved_bound(monkeypatch):
    real = encodings.rope_decay_bound
    monkeypatch.setattr(encodings, "rope_decay_bound", lambda *a, **kw: real(*a, **kw) / 2)
    assert get("rope-long-term-decay").witness.compute() > 0.4


def test_decay_evidence_notices_a_score_that_ignores_the_offset(monkeypatch):
    rope_encodings = importlib.import_module("posenc_math.encodings.rope_analysis")  # the module, not the function

    fact = next(step for step in get("rope-long-term-decay").steps if isinstance(step, Fact))
    assert fact.decide().proved
    real = rope_encodings.rope_relative_scores

    def frozen(query, key, offsets, **kw):
        return real(query, key, np.zeros_like(np.asarray(offsets)), **kw)

    monkeypatch.setattr(rope_encodings, "rope_relative_scores", frozen)
    assert not fact.decide().proved


def test_summation_by_parts_is_checked_for_the_listed_pair_counts():
    theorem = get("rope-long-term-decay")
    equations = [c for c in theorem.conclusions if c.relation == "="]
    assert len(equations) == len(rope.ABEL_PAIRS)
    assert theorem.conclusions[-1].relation == "<="
