"""posenc_math.theorems.context_extension: the NTK-aware base and YaRN's ramp."""

import dataclasses

import pytest
import sympy
from theorem_checks import assert_verified_on_page, replace_step

from posenc_math import encodings
from posenc_math.theorems import Equal, Fact, get, verify_theorem

IDS = ("ntk-base", "yarn-ramp")


@pytest.fixture(scope="module")
def results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in IDS}


@pytest.mark.parametrize("theorem_id", IDS)
def test_theorem_verifies_with_its_control_rejected(results, theorem_id):
    assert_verified_on_page(results[theorem_id], theorem_id, "context-extension")


def test_wrong_power_in_an_equation_is_reported_by_number():
    theorem = get("ntk-base")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and "divided by $s$" in step.why)
    good = theorem.steps[index]
    s = sympy.Symbol("s", positive=True)
    broken = verify_theorem(replace_step(theorem, index, dataclasses.replace(good, rhs=good.rhs * s**2)))
    number = index + 1
    assert broken.status == "failed" and broken.negative_control == "rejected"
    assert [step.number for step in broken.step_results if not step.proved] == [number]
    assert any(f.startswith(f"step {number} (check: the slowest frequency is divided by $s$)") for f in broken.failures)


def test_yarn_ramp_end_without_two_pi_fails():
    theorem = get("yarn-ramp")
    step = theorem.steps[0]
    wrong = dataclasses.replace(step, lhs=step.lhs.subs(sympy.pi, sympy.Rational(1, 2)))
    broken = verify_theorem(replace_step(theorem, 0, wrong))
    assert not broken.step_results[0].proved and broken.status == "failed"


def test_yarn_witness_notices_ramp_ends_not_truncated(monkeypatch):
    real = encodings.rope_frequencies

    def flipped(dim, **kw):
        scaling = dict(kw.get("scaling") or {})
        if scaling.get("rope_type") == "yarn":
            scaling["truncate"] = not scaling.get("truncate", True)  # floor/ceil of the ends the other way
            kw["scaling"] = scaling
        return real(dim, **kw)

    monkeypatch.setattr(encodings, "rope_frequencies", flipped)
    theorem = get("yarn-ramp")
    assert theorem.witness.compute() > 1e-3


def test_yarn_fact_notices_a_frequency_not_divided(monkeypatch):
    real = encodings.rope_frequencies

    def undivided(dim, **kw):
        scaling = dict(kw.get("scaling") or {})
        if scaling.get("rope_type") == "yarn":
            scaling["factor"] = 1.0
            kw["scaling"] = scaling
        return real(dim, **kw)

    monkeypatch.setattr(encodings, "rope_frequencies", undivided)
    fact = next(step for step in get("yarn-ramp").steps if isinstance(step, Fact))
    assert not fact.decide().proved


def test_ntk_witness_notices_a_base_times_the_stretch(monkeypatch):
    monkeypatch.setattr(encodings, "ntk_aware_base", lambda base, scale, dim: base * scale)
    theorem = get("ntk-base")
    assert theorem.witness.compute() > theorem.witness.tolerance
