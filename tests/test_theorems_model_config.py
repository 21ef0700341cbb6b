"""posenc_math.theorems.model_config: M-RoPE on text, the attention factor squared, partial rotary."""

import dataclasses

import numpy as np
import pytest
import sympy
from theorem_checks import assert_verified_on_page, replace_step

from posenc_math import encodings, rope_from_config
from posenc_math.encodings.model_configs import published_config
from posenc_math.theorems import Equal, get, kernel, model_config, verify_theorem
from posenc_math.theorems.language import unfold
from posenc_math.witnesses import model_config as numeric

IDS = ("mrope-text-is-rope", "attention-factor-squared", "partial-rotary-pass-through")


@pytest.fixture(scope="module")
def results():
    return {theorem_id: verify_theorem(get(theorem_id)) for theorem_id in IDS}


@pytest.mark.parametrize("theorem_id", IDS)
def test_theorem_verifies_with_its_control_rejected(results, theorem_id):
    assert_verified_on_page(results[theorem_id], theorem_id, "model-config")


def test_the_mrope_control_is_refuted_where_a_height_pair_exists(results):
    point = results["mrope-text-is-rope"].control_counterexample
    assert point["s_h"] >= 1 and point["s_t"] < point["P"]  # some pair reads the height id


@pytest.mark.parametrize("sections", [(16, 24, 24), (24, 20, 20), (1, 1, 62), (0, 64, 0), (5, 0, 3)])
@pytest.mark.parametrize("interleaved", [False, True])
def test_the_brackets_pick_the_id_the_library_uses(sections, interleaved):
    """The witness reads pairs' ids from the theorem's brackets; the library from transformers' layouts."""
    layer = dataclasses.replace(
        rope_from_config(published_config("qwen3-vl-8b-instruct.json")),
        mrope_section=sections,
        mrope_interleaved=interleaved,
        rotary_dim=2 * sum(sections),
    )
    assert numeric.pair_axes(sections, interleaved) == layer._pair_axes().tolist()


@pytest.mark.parametrize("interleaved", [False, True])
def test_the_brackets_evaluate_to_each_layouts_id(interleaved):
    """The definitions the kernel reads, evaluated at integers, are the layouts' ids."""
    sections = (2, 3, 4) if not interleaved else (3, 4, 2)
    pair_id = model_config.INTERLEAVED_ID if interleaved else model_config.CONSECUTIVE_ID
    ids = dict(zip((model_config.P_T, model_config.P_H, model_config.P_W), (10, 20, 30), strict=True))
    sizes = dict(zip((model_config.S_T, model_config.S_H, model_config.S_W), sections, strict=True))
    expected = [(10, 20, 30)[axis] for axis in numeric.pair_axes(sections, interleaved)]
    got = []
    for j in range(sum(sections)):
        got.append(int(unfold(pair_id(j, *ids)).xreplace({**ids, **sizes})))
    assert got == expected


def test_a_case_with_the_wrong_id_fails():
    theorem = get("mrope-text-is-rope")
    index = next(i for i, step in enumerate(theorem.steps) if isinstance(step, Equal) and step.why == r"$i < s_h$")
    wrong = dataclasses.replace(theorem.steps[index], rhs=model_config.P_W)
    broken = verify_theorem(replace_step(theorem, index, wrong))
    number = sum(len(list(step.checks())) for step in theorem.steps[:index]) + 1
    assert broken.status == "failed"
    assert [step.number for step in broken.step_results if not step.proved] == [number]


def test_the_logits_scale_by_the_square_not_the_factor(results):
    point = results["attention-factor-squared"].control_counterexample
    assert sympy.sympify(point["alpha"]) not in (0, 1)


def test_deepseek_without_the_logit_factor_is_not_the_square():
    """The ratio alone is not mscale(s, mu)**2: a false identity the kernel refutes."""
    _, deepseek = get("attention-factor-squared").conclusions
    ratio_only = deepseek.lhs.args[0]
    decision = kernel.decide(ratio_only, deepseek.rhs, "=", deepseek.assuming)
    assert not decision.proved and decision.counterexample is not None


def test_the_passed_term_reads_no_position():
    first, last, offset = get("partial-rotary-pass-through").conclusions
    for conclusion in (first, last, offset):
        passed = conclusion.rhs.args[-1]
        assert passed.free_symbols.isdisjoint({model_config.m_, model_config.n_})


def test_attention_witness_notices_a_factor_left_off_the_sine(monkeypatch):
    real = encodings.rope_config.RopeLayer.cos_sin

    def cos_scaled_only(self, positions, **kw):
        cos, sin = real(self, positions, **kw)
        return cos, sin / self.attention_factor

    monkeypatch.setattr(encodings.rope_config.RopeLayer, "cos_sin", cos_scaled_only)
    assert get("attention-factor-squared").witness.compute() > 1e-3


def test_partial_rotary_witness_notices_passed_features_that_see_the_position(monkeypatch):
    real = encodings.rope_config.RopeLayer.rotate

    def passed_turned(self, x, positions, **kw):
        out = real(self, x, positions, **kw)
        passed = np.ones(self.head_dim, dtype=bool)
        passed[self.rotary_offset : self.rotary_offset + self.rotary_dim] = False
        out[..., passed] *= np.cos(np.asarray(positions, dtype=float))[:, None]
        return out

    monkeypatch.setattr(encodings.rope_config.RopeLayer, "rotate", passed_turned)
    assert get("partial-rotary-pass-through").witness.compute() > 1e-3


def test_mrope_witness_notices_the_other_layout(monkeypatch):
    real = encodings.rope_config.RopeLayer._pair_axes

    def flipped(self):
        return np.array(numeric.pair_axes(self.mrope_section, not self.mrope_interleaved))

    monkeypatch.setattr(encodings.rope_config.RopeLayer, "_pair_axes", flipped)
    assert get("mrope-text-is-rope").witness.compute() > 1e-3
    monkeypatch.setattr(encodings.rope_config.RopeLayer, "_pair_axes", real)
