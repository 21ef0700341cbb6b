"""The public decision procedure against identities written to break it (issue 22).

``posenc_math.theorems.decide_equal(lhs, rhs)`` (DESIGN.md) must never prove
a false identity, must answer within its time bound instead of hanging, must
not crash, and, for a false identity, must give a counterexample that an
independent evaluation confirms (``numeric``: mpmath on the expression as
written, at 50 digits or more).  The true identities must be proved; the ones
issue 22 requires ("complete where it should be") are tested apart from the
ones a careful checker should prove.

A false identity counts as proved only when ``proved`` is true and its
``conditions`` (the side conditions of the decision) do not exclude the point
where the case fails: "x/x = 1 provided x != 0" is a correct answer.

Each call of the checker runs in a forked process with a cap of
:data:`CAP` seconds: a hang detector, not a timing test.  The cases were
written without reading the checker.
"""

from __future__ import annotations

from typing import Any

import pytest
import sympy
from adversarial import numeric, sandbox
from adversarial.cases import FALSE, HOLES, TRUE, Case

#: Seconds before a call counts as a hang: a hang detector, not a timing test.  The checker's own bound
#: is a few seconds (5 s today), but on this machine (2 cores shared by several sessions) it stretched to
#: 22 s wall time under a load average of 9.5; the hangs this is for lasted minutes (a summation fallback
#: ran 70 s and 5 min).
CAP = 60.0
#: Points of the declared domain at which a true identity (and its conditions) are evaluated.
POINTS = 24

CONFIRMED = ("differ", "lhs undefined", "rhs undefined")


def _decide(case: Case) -> dict[str, Any]:
    from posenc_math.theorems import decide_equal

    return sandbox.summarize(decide_equal(case.lhs, case.rhs))


_DECISIONS: dict[str, sandbox.Outcome] = {}


def decision(case: Case) -> dict[str, Any]:
    """The checker's decision on ``case`` (computed once per session); fails on a crash or a hang."""
    if case.name not in _DECISIONS:
        _DECISIONS[case.name] = sandbox.run(_decide, case, cap=CAP)
    outcome = _DECISIONS[case.name]
    problem = outcome.problem()
    assert not problem, f"{case.name}: {problem}"
    return outcome.value


def conditions_of(summary: dict[str, Any]) -> list[Any]:
    """The decision's side conditions as a list ([] when it has none, or does not have the attribute)."""
    conditions = summary["conditions"]
    if sandbox.is_missing(conditions) or conditions is None:
        return []
    if isinstance(conditions, str):
        pytest.fail(f"conditions came back as text, not SymPy objects: {conditions}")
    if isinstance(conditions, sympy.Basic):
        return [] if conditions is sympy.true else [conditions]
    return list(conditions)


def holds_at(condition: Any, point: dict[Any, Any], digits: int = 40) -> bool | None:
    """Whether ``condition`` holds at ``point`` (None when it cannot be evaluated there)."""
    import mpmath

    with mpmath.workdps(numeric.working_digits(digits)):
        try:
            return numeric.Evaluator(point, digits).truth(condition)
        except (numeric.Undefined, numeric.BadPoint, NotImplementedError):
            return None


def _ids(cases: list[Case]) -> list[str]:
    return [c.name for c in cases]


REQUIRED = [c for c in TRUE if c.required]
SHOULD = [c for c in TRUE if not c.required]


# -- the cases themselves: checked without the checker ---------------------------------------
def test_the_suite_has_the_size_and_spread_the_issue_asks_for():
    names = [c.name for c in FALSE + TRUE]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(FALSE) >= 70 and len(TRUE) >= 45
    assert {c.hole for c in FALSE} == set(HOLES)
    assert all(sum(c.hole == hole for c in FALSE) >= 6 for hole in HOLES)
    assert len(REQUIRED) >= 40
    assert all(c.point is not None for c in FALSE) and all(c.point is None for c in TRUE)


@pytest.mark.parametrize("case", FALSE + TRUE, ids=_ids(FALSE + TRUE))
def test_a_case_declares_its_domain_and_is_not_trivial(case):
    declared = set(case.over)
    free = numeric.free_symbols(case.lhs, case.rhs)
    assert free == declared, f"over = {sorted(map(str, declared))}, free symbols {sorted(map(str, free))}"
    with numeric.deep_recursion():
        identical = case.lhs == case.rhs
    assert not identical, "both sides are the same expression: the case proves nothing"
    for symbol, value in (case.point or {}).items():
        if isinstance(symbol, sympy.Symbol):
            assert numeric.in_domain(symbol, value), f"{symbol} = {value} is outside its declared domain"


@pytest.mark.parametrize("case", FALSE, ids=_ids(FALSE))
def test_a_false_case_is_false_at_its_point(case):
    """Independent evidence: at ``case.point`` the sides differ, or exactly one is undefined."""
    found = numeric.verdict(case.lhs, case.rhs, case.point, case.digits)
    assert found in CONFIRMED, f"at {case.point}: {found}"


@pytest.mark.parametrize("case", TRUE, ids=_ids(TRUE))
def test_a_true_case_is_true_on_its_domain(case):
    """Both sides defined and equal (40 digits) at special and random points of the declared domain."""
    for point in numeric.sample_points([case.lhs, case.rhs], POINTS, seed=sum(map(ord, case.name))):
        found = numeric.compare(case.lhs, case.rhs, point, 40)
        assert found == "equal", f"at {point}: {found}"


# -- the checker -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", FALSE, ids=_ids(FALSE))
def test_a_false_identity_is_not_proved(case):
    """No crash, no hang, and no proof (unless its conditions exclude the point where it fails)."""
    summary = decision(case)
    if not summary["proved"]:
        return
    excluded = [c for c in conditions_of(summary) if holds_at(c, case.point) is False]
    assert excluded, (
        f"PROVED A FALSE IDENTITY ({case.hole}: {case.note}); method {summary['method']!r}, "
        f"conditions {sandbox.safe_str(summary['conditions'])}; it fails at {case.point}"
    )


def _read_counterexample(summary: dict[str, Any]) -> dict[Any, Any]:
    found = summary["counterexample"]
    assert not sandbox.is_missing(found), (
        "Decision has no attribute 'counterexample' (DESIGN.md: a point where the difference is certified "
        "nonzero; issue 22, the kernel) - not implemented yet"
    )
    assert found is not None, f"no counterexample for a false identity (method {summary['method']!r})"
    assert isinstance(found, dict), f"a counterexample is a dict from symbol (or name) to value, not {found!r}"
    return found


#: False identities the kernel refuses without a point: what they are written in lies outside
#: its language, or they are too large to evaluate within the time bound. Issue 22 asks for
#: a refusal there (never a proof, never a crash: test_a_false_identity_is_not_proved), not
#: for a counterexample. (Added by the lead after the kernel landed; the cases are unchanged.)
REFUSED_WITHOUT_A_POINT = {
    "integral-exp-exp-over-a-period": "integrals are outside the kernel's language",
    "integral-atan-tan-across-a-pole": "integrals are outside the kernel's language",
    "integral-rational-doit-wrong": "integrals are outside the kernel's language",
    "integral-inside-a-matrix-product": "integrals are outside the kernel's language",
    "derivative-of-abs-at-zero": "derivatives are outside the kernel's language",
    "alternating-harmonic-sign": "infinite sums are outside the kernel's language",
    "infinite-sum-without-closed-form": "infinite sums are outside the kernel's language",
    "infinite-product": "infinite products are outside the kernel's language",
    "basel-plus-a-hair": "infinite sums are outside the kernel's language",
    "nested-sine-2000-deep": "refused on its nesting depth before any evaluation",
    "nested-additions-3000-deep": "refused on its nesting depth before any evaluation",
    "long-geometric-sum-at-one": "refused on the time bound",
    "factorial-ratio-of-a-million": "refused: a factorial of a million is beyond the kernel's sizes",
}


def test_the_refusals_without_a_point_name_real_cases():
    assert set(REFUSED_WITHOUT_A_POINT) <= {case.name for case in FALSE}


@pytest.mark.parametrize("case", FALSE, ids=_ids(FALSE))
def test_a_false_identity_has_a_counterexample_that_an_independent_evaluation_confirms(case):
    summary = decision(case)
    if case.name in REFUSED_WITHOUT_A_POINT:
        assert not summary["proved"], "a case refused without a point must not be proved"
        if summary["counterexample"] is None:
            return
    point = _read_counterexample(summary)
    named = {numeric.name_of(key): value for key, value in point.items()}
    for symbol in numeric.free_symbols(case.lhs, case.rhs):
        assert symbol.name in named, f"the counterexample {point} gives no value to {symbol}"
        if isinstance(symbol, sympy.Symbol) and not isinstance(symbol, sympy.MatrixSymbol):
            assert numeric.in_domain(symbol, named[symbol.name]), (
                f"the counterexample puts {symbol} = {named[symbol.name]} outside its declared domain"
            )
    found = numeric.verdict(case.lhs, case.rhs, named, case.digits)
    assert found in CONFIRMED, f"at the checker's counterexample {point}: {found}"


def _assert_proved(case: Case) -> None:
    summary = decision(case)
    assert summary["proved"] is True, f"not proved: method {summary['method']!r}, residual {summary['residual']}"
    conditions = conditions_of(summary)
    if conditions:
        for point in numeric.sample_points([case.lhs, case.rhs], POINTS, seed=sum(map(ord, case.name))):
            for condition in conditions:
                assert holds_at(condition, point) is True, (
                    f"the condition {sandbox.safe_str(condition)} excludes {point}, where the identity holds "
                    "(conditions must not cut the declared domain)"
                )


@pytest.mark.parametrize("case", REQUIRED, ids=_ids(REQUIRED))
def test_a_true_identity_the_issue_requires_is_proved(case):
    _assert_proved(case)


#: True identities a careful checker should prove that the kernel does not yet: strict, so
#: that proving one fails this list (added by the lead after the kernel landed).
NOT_YET_PROVED = {
    "telescoping-sum": "needs partial fractions inside a sum with a symbolic number of terms",
    "sines-over-a-symbolic-period": "needs sums of roots of unity of a symbolic order",
}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=NOT_YET_PROVED[case.name]))
        if case.name in NOT_YET_PROVED
        else case
        for case in SHOULD
    ],
    ids=_ids(SHOULD),
)
def test_a_true_identity_a_careful_checker_proves_is_proved(case):
    _assert_proved(case)
