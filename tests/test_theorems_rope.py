"""posenc_math.theorems.rope: relative scores, the two layouts, the long-term decay bound."""

import dataclasses
import importlib

import numpy as np
import pytest
import sympy

from posenc_math import encodings
from posenc_math.theorems import Chain, Fact, Termwise, get, kernel, page_of, rope, verify_theorem
from posenc_math.theorems.language import Largest

SCOPES = {
    "rope-relative": "general",
    "rope-layout-permutation": "general",
    "rope-long-term-decay": "general",
    "multi-axis-relative": "general",
}


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
    whole = theorem.conclusions[0]
    assert whole.over == (rope.m_, rope.n_, rope.P_)  # the whole vector, a symbolic number of pairs
    assert rope.ROPE(rope.m_).definition.body.count == rope.P_
    sums = [step for step in theorem.steps if isinstance(step, Termwise)]
    assert len(sums) == 1  # the half layout, pair by pair
    (_, low, high) = sums[0].lhs_sum.limits[0]
    assert low == 0 and high == rope.P_ - 1


def _replace_step(theorem, index, step):
    steps = list(theorem.steps)
    steps[index] = step
    return dataclasses.replace(theorem, steps=tuple(steps))


def test_wrong_sign_in_a_chain_link_is_reported_by_number():
    theorem = get("rope-relative")
    index = next(
        i
        for i, step in enumerate(theorem.steps)
        if isinstance(step, Chain) and any("angle addition" in why for _, why in step.links)
    )
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


def test_the_layout_step_refuses_the_inverse_permutation():
    theorem = get("rope-layout-permutation")
    index = next(i for i, step in enumerate(theorem.steps) if "coordinates $j, j + P$" in getattr(step, "why", ""))
    step = theorem.steps[index]
    inverse = sympy.MatMul(rope.ROPE_HALF(sympy.Symbol("p", real=True)), sympy.Transpose(rope.PERMUTATION()))
    broken = verify_theorem(_replace_step(theorem, index, dataclasses.replace(step, lhs=inverse)))
    assert broken.status == "failed" and not broken.step_results[index].proved


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


def test_the_decay_bound_is_a_conclusion_for_every_number_of_pairs():
    theorem = get("rope-long-term-decay")
    by_parts, bound = theorem.conclusions
    assert by_parts.relation == "=" and bound.relation == "<="
    assert by_parts.over == bound.over == (rope.P_,)  # a symbolic number of pairs, not instances
    assert any(isinstance(node, Largest) for node in sympy.preorder_traversal(bound.rhs))
    assert verify_theorem(theorem).status == "verified"


def test_the_decay_bound_without_the_boundary_term_is_not_proved():
    """Summation by parts leaves h_P S_P - h_0 S_0: the bound without it is false for general h, S."""
    _, bound = get("rope-long-term-decay").conclusions
    without = bound.rhs.args[1] if isinstance(bound.rhs.args[0], sympy.Abs) else bound.rhs.args[0]
    decision = kernel.decide(bound.lhs, without, "<=")
    assert not decision.proved and decision.counterexample is not None


def test_multi_axis_statement_covers_any_assignment_of_pairs():
    relative, _ = get("multi-axis-relative").conclusions
    assert relative.over == (rope.P_,)  # the axes, positions and assignment are arbitrary functions
    block = rope.AXES_X().definition.body.block
    assert any(isinstance(node, rope.AXIS) for node in sympy.preorder_traversal(block))


def test_non_commuting_rotations_are_seen_and_the_evidence_can_fail(monkeypatch):
    fact = next(step for step in get("multi-axis-relative").steps if isinstance(step, Fact))
    assert fact.decide().proved
    monkeypatch.setattr(rope.np, "cos", lambda angle: np.ones_like(angle))  # every rotation the identity
    monkeypatch.setattr(rope.np, "sin", lambda angle: np.zeros_like(angle))
    assert not fact.decide().proved


def test_multi_axis_witness_notices_a_shift_seen_by_one_axis(monkeypatch):
    real = encodings.axial_rope
    monkeypatch.setattr(
        encodings,
        "axial_rope",
        lambda x, ids, **kw: real(x, np.asarray(ids) * [[1], [2]][: len(ids)] if len(ids) == 2 else ids, **kw),
    )
    assert get("multi-axis-relative").witness.compute() > 1e-3
