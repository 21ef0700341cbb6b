"""posenc_math.theorems.alibi: geometric slopes, softmax shift invariance and key-only ALiBi."""

import dataclasses

import numpy as np
import pytest
import sympy
from theorem_checks import assert_verified_on_page, replace_step

from posenc_math import encodings
from posenc_math.theorems import Equal, Fact, Termwise, get, verify_theorem

IDS = ("alibi-geometric", "softmax-shift-invariance")


@pytest.fixture(scope="module")
def results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in IDS}


@pytest.mark.parametrize("theorem_id", IDS)
def test_theorem_verifies_with_its_control_rejected(results, theorem_id):
    assert_verified_on_page(results[theorem_id], theorem_id, "alibi")


def test_wrong_ratio_is_reported_by_number():
    theorem = get("alibi-geometric")
    index = next(
        i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and step.why.endswith("= 2^{-8h/n}$")
    )
    step = theorem.steps[index]
    broken = verify_theorem(replace_step(theorem, index, dataclasses.replace(step, rhs=1 / step.rhs)))
    number = sum(len(list(part.checks())) for part in theorem.steps[:index]) + 1
    assert [s.number for s in broken.step_results if not s.proved] == [number]
    assert any(f.startswith(f"step {number} (") for f in broken.failures)


def test_softmax_over_every_row_length():
    theorem = get("softmax-shift-invariance")
    sums = [step for step in theorem.steps if isinstance(step, Termwise)]
    assert len(sums) == 2
    n = sympy.Symbol("n", integer=True, nonnegative=True)
    assert sums[0].lhs_sum.limits[0][2] == n - 1


def test_flipped_bias_in_the_alibi_sum_fails_its_step():
    theorem = get("softmax-shift-invariance")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Termwise) and "m i" in step.why)
    step = theorem.steps[index]
    m = sympy.Symbol("m", positive=True)
    flipped = step.rhs_sum.func(step.rhs_sum.function.subs(m, -m), *step.rhs_sum.limits)
    broken = verify_theorem(replace_step(theorem, index, dataclasses.replace(step, rhs_sum=flipped)))
    assert [s.number for s in broken.step_results if not s.proved] == [index + 1]


def test_slopes_witness_notices_slopes_in_the_wrong_order(monkeypatch):
    real = encodings.alibi_slopes
    monkeypatch.setattr(encodings, "alibi_slopes", lambda n: real(n)[::-1])
    theorem = get("alibi-geometric")
    assert theorem.witness.compute() > theorem.witness.tolerance
    fact = next(step for step in theorem.steps if isinstance(step, Fact) and "within one ulp" in step.claim)
    assert not fact.decide().proved


def test_softmax_witness_notices_a_wrong_key_bias_sign(monkeypatch):
    real = encodings.alibi_key_bias
    monkeypatch.setattr(encodings, "alibi_key_bias", lambda h, n: -real(h, n))
    theorem = get("softmax-shift-invariance")
    assert theorem.witness.compute() > theorem.witness.tolerance


def test_softmax_witness_notices_a_softmax_without_the_shift(monkeypatch):
    def naive(x, axis=-1):
        e = np.exp(np.asarray(x, dtype=np.float64))
        return e / e.sum(axis=axis, keepdims=True)

    monkeypatch.setattr(encodings, "softmax", naive)
    theorem = get("softmax-shift-invariance")
    with np.errstate(all="ignore"):
        error = theorem.witness.compute()
    assert not error <= theorem.witness.tolerance  # overflow at +700 gives nan or a large error
