"""posenc_math.theorems: every registered theorem verifies, every negative
control is refused, a broken step is reported by number, and the witnesses
really call the numpy code they license."""

import dataclasses

import numpy as np
import pytest

import posenc_math.theorems.sinusoid as sinusoid_module
from posenc_math import theorems
from posenc_math.theorems import Chain, Equal, Fact, registry, verify_theorem

ISSUE_3_IDS = [
    "angle-addition",
    "shift-block",
    "shift-full",
    "shift-group",
    "shift-orthogonal",
    "norm-constant",
    "dot-relative",
    "dot-symmetric",
    "distance-relative",
    "injective",
    "wavelength-range",
    "layout-permutation",
    "spacing-relation",
    "binary-bit",
    "attention-permutation-equivariant",
    "single-sine-not-linear",
]


def test_every_required_id_is_registered():
    assert set(ISSUE_3_IDS) <= set(theorems.ids())


def test_ids_are_unique_and_kebab_case():
    ids = theorems.ids()
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i and "_" not in i for i in ids)


@pytest.mark.parametrize("theorem_id", theorems.ids())
def test_theorem_verifies(theorem_id):
    result = theorems.verify([theorem_id])[0]
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected"
    assert result.steps >= 1
    assert all(step.proved and step.residual == "0" for step in result.step_results)


@pytest.mark.parametrize("theorem_id", theorems.ids())
def test_negative_control_is_refused_by_the_checker(theorem_id):
    control = theorems.get(theorem_id).negative_control
    decisions = [check.decide() for check in control.checks()]
    assert not all(decision.proved for decision in decisions)


@pytest.mark.parametrize("theorem_id", theorems.ids())
def test_theorem_has_what_a_reader_needs(theorem_id):
    theorem = theorems.get(theorem_id)
    assert theorem.title and theorem.statement and theorem.negative_control_text
    assert theorem.assumptions
    assert all(check.why for check in theorem.checks() if not isinstance(check, Fact))
    assert all(isinstance(part, (Chain, Equal, Fact)) for part in theorem.steps)
    assert registry.page_of(theorem_id)


def test_a_broken_step_is_reported_with_its_number_sides_and_residual():
    theorem = theorems.get("shift-block")
    chain = theorem.steps[0]
    expression, why = chain.links[1]
    broken_links = list(chain.links)
    broken_links[1] = (expression.subs(sinusoid_module.k, -sinusoid_module.k), "angle addition with a sign slip")
    broken = dataclasses.replace(theorem, steps=[dataclasses.replace(chain, links=broken_links), *theorem.steps[1:]])
    result = verify_theorem(broken)
    assert result.status == "failed"
    assert len(result.failures) == 2  # the broken link, and the next one that starts from it
    assert result.failures[0].startswith("step 2 (angle addition with a sign slip)")
    assert "residual at entry (0, 0)" in result.failures[0]
    assert "could not be reduced to 0" in result.failures[0]
    assert [s.number for s in result.step_results if not s.proved] == [2, 3]


def test_an_accepted_negative_control_fails_the_theorem():
    theorem = theorems.get("shift-block")
    accepted = dataclasses.replace(theorem, negative_control=theorem.steps[0])
    result = verify_theorem(accepted)
    assert result.status == "failed" and result.negative_control == "accepted"


def test_an_undecided_fact_is_a_failure():
    theorem = theorems.get("injective")
    unsure = dataclasses.replace(theorem, steps=[Fact("SymPy does not know", lambda: None)])
    result = verify_theorem(unsure)
    assert result.status == "failed"
    assert "step 1" in result.failures[0]


def test_shift_witness_calls_translation_matrix(monkeypatch):
    """Break the numpy builder (transpose): the witness must notice."""
    real = sinusoid_module.translation_matrix
    monkeypatch.setattr(sinusoid_module, "translation_matrix", lambda *a, **kw: real(*a, **kw).T)
    result = verify_theorem(theorems.get("shift-block"))
    assert result.status == "failed"
    assert result.witness_error > 1e-3
    assert any(f.startswith("witness:") for f in result.failures)


def test_norm_witness_calls_sinusoidal(monkeypatch):
    real = sinusoid_module.sinusoidal
    monkeypatch.setattr(sinusoid_module, "sinusoidal", lambda *a, **kw: 1.001 * real(*a, **kw))
    result = verify_theorem(theorems.get("norm-constant"))
    assert result.status == "failed" and result.witness_error > 1e-3


def test_assembly_fact_calls_translation_matrix(monkeypatch):
    """shift-full's block-diagonal assembly is compared with the numpy builder."""
    real = sinusoid_module.translation_matrix
    monkeypatch.setattr(sinusoid_module, "translation_matrix", lambda k, dim, **kw: real(k, dim, **kw)[::-1, ::-1])
    result = verify_theorem(theorems.get("shift-full"))
    assert any(f.startswith("step 3") for f in result.failures)


def test_unknown_id_names_the_known_ones():
    with pytest.raises(KeyError, match="known ids: angle-addition"):
        theorems.get("shift-blocks")
    with pytest.raises(KeyError):
        theorems.verify(["shift-block", "nope"])


def test_result_as_dict_has_the_documented_keys():
    record = theorems.verify_one("dot-relative").as_dict()
    assert {"id", "title", "status", "steps", "seconds", "negative_control"} <= set(record)
    assert isinstance(record["seconds"], float) and record["seconds"] >= 0


def test_layout_permutation_matches_the_numpy_column_order():
    # the permutation the theorem states is the one the site's layout page uses
    dim = 10
    columns = np.r_[0:dim:2, 1:dim:2]
    from posenc_math import sinusoidal

    assert np.allclose(sinusoidal(30, dim)[:, columns], sinusoidal(30, dim, layout="split"), atol=1e-15)


def test_a_fact_must_return_a_plain_bool():
    """np.True_ from a control would read as 'refused'; it is an error instead."""
    theorem = theorems.get("injective")
    numpy_fact = Fact("numpy says yes", lambda: np.bool_(True))
    result = verify_theorem(dataclasses.replace(theorem, steps=[numpy_fact]))
    assert result.status == "failed" and "must return a bool" in result.failures[0]
    result = verify_theorem(dataclasses.replace(theorem, negative_control=numpy_fact))
    assert result.negative_control == "crashed" and result.status == "failed"


def test_a_control_the_checker_cannot_prove_but_that_is_true_is_not_rejected():
    """A gap in the checker must not pass for a refusal: the control is also
    evaluated numerically, and a true identity is 'undecided'."""
    import sympy

    y = sympy.Symbol("y", positive=True)
    true_but_hard = Equal(sympy.atan(y) + sympy.atan(1 / y), sympy.pi / 2, "true, beyond the checker")
    assert not true_but_hard.decide().proved
    result = verify_theorem(dataclasses.replace(theorems.get("shift-block"), negative_control=true_but_hard))
    assert result.negative_control == "undecided" and result.status == "failed"
