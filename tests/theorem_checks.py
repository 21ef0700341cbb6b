"""Checks shared by the tests of the theorem modules (one test file per page)."""

from __future__ import annotations

import dataclasses

from posenc_math.theorems import get, page_of


def assert_verified_on_page(result, theorem_id: str, page: str, scope: str = "general") -> None:
    """The theorem verified, its control was shown false, its witness calls the library, and the
    human proof displays only checked steps."""
    assert result.status == "verified", result.failures
    assert result.negative_control == "rejected"
    assert result.witness == "passed" and result.trivial_steps == 0
    assert result.scope == scope
    assert page_of(theorem_id) == page
    theorem = get(theorem_id)
    assert theorem.witness.licenses.startswith("posenc_math.encodings.")
    assert all(any(item is step for step in theorem.steps) for item in theorem.proof if not isinstance(item, str))


def replace_step(theorem, index: int, step):
    """``theorem`` with step ``index`` replaced (to break one step on purpose)."""
    steps = list(theorem.steps)
    steps[index] = step
    return dataclasses.replace(theorem, steps=tuple(steps))
