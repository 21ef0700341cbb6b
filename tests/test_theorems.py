"""posenc_math.theorems (framework and the sinusoid-family theorems): every
registered theorem verifies with a rejected control, a passing witness and no
trivial step; and each way a theorem can be wrong makes verification fail."""

import dataclasses

import numpy as np
import pytest
import sympy
from sympy import cos, sin

from posenc_math import theorems
from posenc_math.theorems import (
    Conclusion,
    Equal,
    Fact,
    Holds,
    Termwise,
    Theorem,
    Use,
    Witness,
    registry,
    verify_theorem,
)

#: The theorems of the sinusoid family (this module's part of the registry).
SINUSOID_FAMILY = [
    "attention-permutation-equivariant",
    "binary-bit",
    "wavelength-range",
    "angle-addition",
    "blockdiag-blockwise",
    "shift-block",
    "shift-full",
    "shift-group",
    "shift-orthogonal",
    "single-sine-not-linear",
    "norm-constant",
    "dot-relative",
    "dot-symmetric",
    "distance-relative",
    "injective",
    "spacing-relation",
    "layout-permutation",
]

x, y = sympy.symbols("x y", real=True)
GOAL = Conclusion(sin(2 * x), 2 * sin(x) * cos(x), over=(x,))
CONTROL = Conclusion(sin(2 * x), sin(x) * cos(x), over=(x,))
WITNESS = Witness("none", lambda: 0.0, 0.0, licenses="numpy.sin")


def demo(**changes) -> Theorem:
    """A small correct theorem; tests break one thing at a time."""
    fields = {
        "id": "demo",
        "title": "double angle",
        "conclusions": (GOAL,),
        "steps": (Equal(GOAL.lhs, GOAL.rhs, "double angle"),),
        "witness": WITNESS,
        "negative_control": CONTROL,
        "scope": "general",
    }
    fields.update(changes)
    return Theorem(**fields)


def test_every_sinusoid_family_id_is_registered():
    assert set(SINUSOID_FAMILY) <= set(theorems.ids())


def test_ids_are_unique_and_kebab_case():
    ids = theorems.ids()
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i and "_" not in i for i in ids)


@pytest.mark.parametrize("theorem_id", SINUSOID_FAMILY)
def test_theorem_verifies(theorem_id):
    result = theorems.verify([theorem_id])[0]
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected"
    assert result.witness == "passed"
    assert result.trivial_steps == 0
    assert result.steps >= 1
    assert all(step.proved and step.residual == "0" for step in result.step_results)


@pytest.mark.parametrize("theorem_id", SINUSOID_FAMILY)
def test_theorem_has_what_a_reader_needs(theorem_id):
    theorem = theorems.get(theorem_id)
    assert theorem.title and theorem.conclusions and theorem.proof
    assert theorem.scope in theorems.SCOPES
    assert theorem.scope == "general" or theorem.scope_note
    assert isinstance(theorem.witness, Witness) and theorem.witness.licenses
    assert isinstance(theorem.negative_control, (Conclusion, Fact))
    assert all(check.why for check in theorem.checks())
    assert registry.page_of(theorem_id)


def test_most_of_the_family_is_general():
    general = [i for i in SINUSOID_FAMILY if theorems.get(i).scope == "general"]
    assert len(general) >= 0.8 * len(SINUSOID_FAMILY)


def test_the_demo_theorem_verifies():
    result = verify_theorem(demo())
    assert result.status == "verified", result.failures


# ---- each way to be wrong fails, by test -----------------------------------
def test_a_trivial_step_fails():
    trivial = Equal(sin(x), sin(x), "nothing")
    result = verify_theorem(demo(steps=(*demo().steps, trivial)))
    assert result.status == "failed" and result.trivial_steps == 1
    assert any("trivial" in failure for failure in result.failures)


def test_a_step_sympy_collapsed_while_building_is_trivial():
    collapsed = Equal(cos(-x), cos(x), "cos is even")  # SymPy wrote cos(-x) as cos(x) already
    result = verify_theorem(demo(steps=(*demo().steps, collapsed)))
    assert result.trivial_steps == 1 and result.status == "failed"


def test_no_checked_step_fails():
    result = verify_theorem(demo(steps=()))
    assert result.status == "failed"
    assert any("no checked step" in failure for failure in result.failures)


def test_an_unestablished_conclusion_fails():
    other = Conclusion(cos(2 * x), cos(x) ** 2 - sin(x) ** 2, over=(x,))
    result = verify_theorem(demo(conclusions=(GOAL, other)))
    assert result.status == "failed"
    assert any(failure.startswith("conclusion 2 is not established") for failure in result.failures)


def test_an_undeclared_free_symbol_fails():
    loose = Conclusion(sin(2 * x) + y, 2 * sin(x) * cos(x) + y, over=(x,))
    result = verify_theorem(demo(conclusions=(loose,), steps=(Equal(loose.lhs, loose.rhs, "double angle"),)))
    assert result.status == "failed"
    assert any("free symbols" in failure for failure in result.failures)


def test_a_true_control_fails():
    """A true control is never rejected: the checker proves it ("accepted") or, out of its short time
    bound for controls, leaves it undecided; either way the theorem fails."""
    result = verify_theorem(demo(negative_control=GOAL))
    assert result.status == "failed" and result.negative_control in ("accepted", "undecided")


def test_a_control_true_but_beyond_the_checker_is_undecided_and_fails():
    z = sympy.Symbol("z", positive=True)
    hard = Conclusion(sympy.atan(z) + sympy.atan(1 / z), sympy.pi / 2, over=(z,))
    result = verify_theorem(demo(negative_control=hard))
    assert result.negative_control == "undecided" and result.status == "failed"


def test_a_control_false_only_outside_its_domain_is_not_rejected():
    n = sympy.Symbol("n", integer=True)
    true_on_integers = Conclusion(sin(sympy.pi * n), sympy.Integer(0) * n, over=(n,))
    assert true_on_integers.free_symbols() != set(true_on_integers.over)  # SymPy evaluated sin(pi n) = 0
    result = verify_theorem(demo(negative_control=true_on_integers))
    assert result.negative_control != "rejected" and result.status == "failed"


def test_a_uses_cycle_fails():
    first = demo(id="first", uses=("second",))
    second = demo(id="second", uses=("first",))
    book = {"first": first, "second": second}
    result = verify_theorem(first, context=book.__getitem__)
    assert result.status == "failed"
    assert any("cycle" in failure for failure in result.failures)


def test_an_unknown_use_fails():
    result = verify_theorem(demo(uses=("no-such-theorem",)), context={}.__getitem__)
    assert any("not a registered theorem" in failure for failure in result.failures)


def test_a_use_step_must_be_listed_in_uses():
    step = Use("angle-addition", {}, "angle addition")
    result = verify_theorem(demo(steps=(*demo().steps, step)))
    assert any("not listed in uses" in failure for failure in result.failures)


def test_a_use_is_rechecked_at_its_instance_not_trusted():
    """An instance is decided like any step: a false one (outside the lemma's domain) is refuted."""
    injective = theorems.get("injective")
    n = injective.conclusions[1].over[1]
    decision = Use("injective", {n: sympy.Integer(0)}, "at n = 0", conclusion=1).decide(context=theorems.get)
    assert not decision.proved and decision.counterexample is not None


def test_a_true_instance_is_proved_even_outside_the_lemmas_domain():
    w = theorems.get("shift-block").conclusions[0].over[0]
    assert Use("shift-block", {w: 3 * w}, "triple frequency").decide(context=theorems.get).proved
    assert Use("shift-block", {w: x}, "any real frequency").decide(context=theorems.get).proved


def test_a_missing_witness_fails():
    result = verify_theorem(demo(witness=None))
    assert result.status == "failed" and result.witness == "failed"


def test_a_failing_witness_fails():
    result = verify_theorem(demo(witness=Witness("off", lambda: 1.0, 1e-12)))
    assert result.status == "failed" and result.witness == "failed"


def test_a_witness_that_compares_nothing_fails():
    from posenc_math.witnesses._common import largest_error

    result = verify_theorem(demo(witness=Witness("empty", lambda: largest_error([]), 1e-12)))
    assert result.status == "failed" and any("empty" in failure for failure in result.failures)


def test_a_conclusion_resting_on_a_fact_cannot_be_general():
    fact = Fact("sin 2x = 2 sin x cos x at 10 points", lambda: True, "numbers", establishes=GOAL)
    result = verify_theorem(demo(steps=(fact,)))
    assert any("cannot be 'general'" in failure for failure in result.failures)
    narrowed = verify_theorem(demo(steps=(fact,), scope="computation", scope_note="10 points"))
    assert narrowed.status == "verified", narrowed.failures


def test_a_computed_control_needs_a_computed_theorem_and_a_named_counterexample():
    """Adversarial round 3: a Fact that returns False was taken as a rejected control for any theorem, with
    whatever counterexample it named (or none)."""
    false_fact = Fact("1 + 1 = 3", lambda: False, counterexample={"x": 0})
    general = verify_theorem(demo(negative_control=false_fact))
    assert general.status == "failed" and general.negative_control == "undecided"
    assert any("must be a conclusion" in failure for failure in general.failures)
    computed = {"scope": "computation", "scope_note": "10 points"}
    unnamed = verify_theorem(demo(negative_control=Fact("1 + 1 = 3", lambda: False), **computed))
    assert unnamed.status == "failed" and any("name where it fails" in f for f in unnamed.failures)
    named = verify_theorem(demo(negative_control=false_fact, **computed))
    assert named.ok and named.control_counterexample == {"x": 0}
    holds = verify_theorem(demo(negative_control=Fact("1 + 1 = 2", lambda: True, counterexample={"x": 0}), **computed))
    assert holds.negative_control == "accepted" and holds.status == "failed"


def test_instances_need_a_scope_note():
    result = verify_theorem(demo(scope="instances"))
    assert any("scope_note" in failure for failure in result.failures)


def test_a_proof_may_show_only_checked_steps():
    stray = Equal(sin(x), sin(x + 2 * sympy.pi), "period")
    result = verify_theorem(demo(proof=("text", stray)))
    assert any("not among the checked steps" in failure for failure in result.failures)


def test_a_broken_link_is_reported_with_its_number_sides_and_residual():
    theorem = theorems.get("shift-block")
    chain = theorem.steps[0]
    expression, _ = chain.links[1]
    k = theorem.conclusions[0].over[2]
    links = list(chain.links)
    links[1] = (expression.subs(k, -k), "angle addition with a sign slip")
    broken = dataclasses.replace(chain, links=links)
    result = verify_theorem(dataclasses.replace(theorem, steps=(broken,), proof=(broken,)))
    assert result.status == "failed"
    assert result.failures[0].startswith("step 2 (angle addition with a sign slip)")
    assert result.failures[0].endswith("[counterexample]")
    assert [s.number for s in result.step_results if not s.proved] == [2, 3]


def test_a_fact_must_return_a_plain_bool():
    numpy_fact = Fact("numpy says yes", lambda: np.bool_(True), "numpy")
    result = verify_theorem(demo(steps=(*demo().steps, numpy_fact)))
    assert result.status == "failed" and any("must return a bool" in f for f in result.failures)


# ---- the step kinds ---------------------------------------------------------
def test_termwise_needs_the_same_index_and_limits():
    i, n = sympy.Symbol("i", integer=True), sympy.Symbol("n", integer=True, positive=True)
    same = Termwise(sympy.Sum(sin(x + i) ** 2 + cos(x + i) ** 2, (i, 0, n)), sympy.Sum(1, (i, 0, n)), "Pythagoras")
    assert same.decide().proved
    shifted = Termwise(same.lhs_sum, sympy.Sum(1, (i, 1, n)), "Pythagoras")
    assert not shifted.decide().proved
    wrong = Termwise(same.lhs_sum, sympy.Sum(2, (i, 0, n)), "Pythagoras")
    assert not wrong.decide().proved


def test_holds_uses_assumptions_and_refuses_what_is_unknown():
    p = sympy.Symbol("p", positive=True)
    assert Holds(sympy.Lt(p, p + 1, evaluate=False), "+1").decide().proved
    assert not Holds(sympy.Lt(x, x**2, evaluate=False), "not for x in (0, 1)").decide().proved
    with pytest.raises(TypeError, match="evaluate=False"):
        Holds(sympy.Lt(p, p + 1), "evaluated to True")


def test_block_algebra_refuses_a_swapped_product():
    m = sympy.Symbol("m", integer=True, positive=True)
    a, b = sympy.MatrixSymbol("A", m, m), sympy.MatrixSymbol("B", m, m)
    assert not Equal(a * b, b * a, "commute?").decide().proved


# ---- witnesses call the functions they license -------------------------------
def test_shift_witness_calls_translation_matrix(monkeypatch):
    from posenc_math import encodings

    real = encodings.translation_matrix
    monkeypatch.setattr(encodings, "translation_matrix", lambda *a, **kw: real(*a, **kw).T)
    result = verify_theorem(theorems.get("shift-block"))
    assert result.status == "failed" and result.witness_error > 1e-3


def test_norm_witness_calls_sinusoidal(monkeypatch):
    from posenc_math import encodings

    real = encodings.sinusoidal
    monkeypatch.setattr(encodings, "sinusoidal", lambda *a, **kw: 1.001 * real(*a, **kw))
    result = verify_theorem(theorems.get("norm-constant"))
    assert result.status == "failed" and result.witness_error > 1e-3


@pytest.mark.parametrize("theorem_id", SINUSOID_FAMILY)
def test_every_witness_calls_its_licensed_function(theorem_id, monkeypatch):
    import importlib

    theorem = theorems.get(theorem_id)
    module_name, _, name = theorem.witness.licenses.rpartition(".")
    module = importlib.import_module(module_name)
    calls = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    theorem.witness.compute()
    assert calls, f"{theorem_id}'s witness does not call {theorem.witness.licenses}"


# ---- registry -----------------------------------------------------------------
def test_unknown_id_names_the_known_ones():
    with pytest.raises(KeyError, match="known ids:"):
        theorems.get("shift-blocks")
    with pytest.raises(KeyError):
        theorems.verify(["shift-block", "nope"])


def test_dependencies_are_registered_and_acyclic():
    graph = theorems.dependencies()
    for theorem_id, used in graph.items():
        assert set(used) <= set(graph), theorem_id
    assert "blockdiag-blockwise" in graph["shift-full"]


def test_a_theorem_using_a_failing_theorem_fails(monkeypatch):
    registry.ids()
    broken = dataclasses.replace(
        theorems.get("shift-block"), negative_control=theorems.get("shift-block").conclusions[0]
    )
    monkeypatch.setitem(registry._BUILDERS, "shift-block", lambda: broken)
    (result,) = theorems.verify(["shift-full"])
    assert result.status == "failed" and any("'shift-block'" in failure for failure in result.failures)


def test_result_as_dict_has_the_documented_keys():
    record = theorems.verify_one("dot-relative").as_dict()
    keys = {
        "id",
        "title",
        "status",
        "scope",
        "steps",
        "trivial_steps",
        "witness",
        "negative_control",
        "uses",
        "seconds",
    }
    assert keys <= set(record)
    assert record["witness"] == "passed" and record["uses"] == ["angle-addition"]


def test_processes_give_the_same_results():
    wanted = ["shift-block", "norm-constant", "injective"]
    one = [r.as_dict() for r in theorems.verify(wanted)]
    two = [r.as_dict() for r in theorems.verify(wanted, processes=2)]
    for record in one + two:
        record.pop("seconds")
    assert one == two


def test_layout_permutation_matches_the_numpy_column_order():
    from posenc_math import sinusoidal

    dim = 10
    columns = np.r_[0:dim:2, 1:dim:2]
    assert np.allclose(sinusoidal(30, dim)[:, columns], sinusoidal(30, dim, layout="split"), atol=1e-15)


def test_a_control_about_other_symbols_fails():
    """The control must be a variant of the theorem's own conclusion, not any false statement."""
    z = sympy.Symbol("z", real=True)
    unrelated = Conclusion(sin(z), cos(z), over=(z,))
    result = verify_theorem(demo(negative_control=unrelated))
    assert result.status == "failed"
    assert any("variant of the theorem's own conclusion" in failure for failure in result.failures)


def test_verify_can_remember_its_results_for_verify_one():
    from posenc_math.theorems import registry

    registry._RESULTS.pop("shift-full", None)
    registry._RESULTS.pop("shift-block", None)
    (result,) = theorems.verify(["shift-full"], processes=2, remember=True)
    assert theorems.verify_one("shift-full") is result
    assert "shift-block" in result.uses and theorems.verify_one("shift-block").ok  # what it uses is kept too
    (fresh,) = theorems.verify(["shift-full"])
    assert fresh is not result  # without remember=True, verify checks afresh and keeps nothing


def test_a_definition_names_each_parameter_once():
    from posenc_math.theorems.language import Definition

    with pytest.raises(ValueError, match="params of Dup: each parameter once; x is repeated"):
        Definition("Dup", (x, x), x, r"\operatorname{dup}({0}, {1})")
