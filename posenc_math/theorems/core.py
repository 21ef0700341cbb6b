"""Theorems as objects: statements, checked steps, witnesses, negative controls.

A :class:`Theorem` holds everything a reader needs to cite and re-check it:

- a stable ``id`` (``"shift-block"``; readers cite it, it is never renamed),
  a ``title``, a ``statement`` (display LaTeX; ``\\\\`` breaks lines) and its
  ``assumptions`` (text, with inline math between ``$`` signs);
- ``steps``: the derivation, a list of checks.  A :class:`Chain`
  ``e0 = e1 = ... = en`` contributes one check per ``=`` (each with its
  justification), an :class:`Equal` one check, a :class:`Fact` one check of
  a claim that is not an equation (an exhaustive enumeration, SymPy's
  assumption system, a comparison with the numpy builder);
- a :class:`Witness`: numbers at 30+ digits (mpmath) at seeded random points,
  compared with the numpy function the theorem licenses;
- a ``negative_control``: a plausible wrong variant (a sign flipped, a
  frequency off, a transpose) that the same checker must refuse, and its
  ``negative_control_text`` (text with inline ``$`` math).

:func:`verify_theorem` runs all of them and returns a :class:`Result`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import sympy

from .check import Decision, decide_equal

__all__ = [
    "Chain",
    "Equal",
    "Fact",
    "Result",
    "StepResult",
    "Theorem",
    "Witness",
    "verify_theorem",
]


@dataclass(frozen=True)
class Equal:
    """One equation ``lhs = rhs``, checked by :func:`~posenc_math.theorems.decide_equal`."""

    lhs: object
    rhs: object
    why: str

    def checks(self):
        yield self

    def decide(self) -> Decision:
        return decide_equal(self.lhs, self.rhs)

    def describe(self) -> str:
        return f"{sympy.sstr(self.lhs)} = {sympy.sstr(self.rhs)}"


@dataclass(frozen=True)
class Chain:
    """A chain ``start = e1 = e2 = ...``; ``links`` are ``(expression, why)`` pairs.

    Each ``=`` is checked on its own, so a wrong link is reported by number
    even when the ends happen to agree.
    """

    start: object
    links: Sequence[tuple[object, str]]

    def checks(self):
        previous = self.start
        for expression, why in self.links:
            yield Equal(previous, expression, why)
            previous = expression


@dataclass(frozen=True)
class Fact:
    """A claim that is not an equation, decided by ``check() -> bool``.

    ``check`` must return exactly ``True`` for the fact to hold; anything
    else (``False``, ``None`` for "SymPy does not know") is a failure.
    """

    claim: str
    check: Callable[[], object]
    why: str = ""

    def checks(self):
        yield self

    def decide(self) -> Decision:
        outcome = self.check()
        if not (outcome is None or isinstance(outcome, (bool, sympy.logic.boolalg.BooleanAtom))):
            # np.True_ and friends: a negative control returning one would
            # read as refused; insist on a plain answer.
            raise TypeError(
                f"the check of the fact {self.claim!r} returned {type(outcome).__name__} {outcome!r}; "
                "it must return a bool (or a SymPy boolean, or None for 'does not know')"
            )
        proved = bool(outcome is True or outcome == sympy.true)
        return Decision(proved, sympy.S.Zero if proved else outcome, "fact" if proved else "undecided")

    def describe(self) -> str:
        return self.claim


@dataclass(frozen=True)
class Witness:
    """A numeric witness: ``compute()`` returns the largest error found.

    It evaluates both sides at seeded random points with mpmath at
    ``digits`` significant digits and compares with the numpy function the
    theorem licenses (named in ``licenses``); it passes when the error is at
    most ``tolerance``.
    """

    description: str
    compute: Callable[[], float]
    tolerance: float
    licenses: str = ""
    digits: int = 40


@dataclass(frozen=True)
class Theorem:
    """A checked, citable statement.  See the module docstring."""

    id: str
    title: str
    statement: str
    assumptions: Sequence[str]
    steps: Sequence[object]
    negative_control: object
    negative_control_text: str
    witness: Witness | None = None
    remarks: str = ""

    def checks(self) -> list:
        """Every check of the derivation, in order (step numbers start at 1)."""
        return [check for part in self.steps for check in part.checks()]


@dataclass
class StepResult:
    """One numbered step: why, what the checker said, and for a failing step
    what was claimed (both sides) and the residual."""

    number: int
    claim: str
    why: str
    proved: bool
    method: str
    residual: str


@dataclass
class Result:
    """What :func:`verify_theorem` found.

    ``status`` is ``"verified"`` only when every step is proved, the witness
    is within its tolerance, and the negative control was refused and shown
    false (``negative_control == "rejected"``; otherwise ``"accepted"``,
    ``"undecided"`` or ``"crashed"``).
    """

    id: str
    title: str
    status: str
    steps: int
    seconds: float
    negative_control: str
    witness_error: float | None
    witness_tolerance: float | None
    failures: list = field(default_factory=list)
    step_results: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == "verified" and self.negative_control == "rejected"

    def as_dict(self) -> dict:
        """The JSON form of ``posenc-math verify --json``."""
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            "negative_control": self.negative_control,
            "witness_error": self.witness_error,
            "witness_tolerance": self.witness_tolerance,
            "failures": self.failures,
        }


def _judge_negative_control(control) -> str:
    """``"rejected"``, ``"accepted"`` or ``"undecided"`` for a (wrong) control.

    Rejected means the checker refuses it *and* it is shown false: a Fact
    that returns False, or an equation whose two sides differ numerically at
    a seeded point.  A control the checker merely fails to prove, but that
    looks true numerically, is "undecided": a gap in the checker must not
    pass as a refusal.  Each check is decided once.
    """
    from .check import difference, numeric_value

    decided = [(check, check.decide()) for check in control.checks()]
    if all(decision.proved for _, decision in decided):
        return "accepted"
    for check, decision in decided:
        if decision.proved:
            continue
        if isinstance(check, Fact):
            if decision.residual is False:  # what the check returned
                return "rejected"
            continue
        try:
            gap = difference(check.lhs, check.rhs)
        except ValueError:  # sides of different shapes: not a refutation by value
            continue
        entries = list(gap) if isinstance(gap, sympy.MatrixBase) else [gap]
        for seed in range(3):
            values = [numeric_value(entry, seed) for entry in entries]
            if any(value is not None and abs(value) > 1e-12 for value in values):
                return "rejected"
    return "undecided"


def verify_theorem(theorem: Theorem) -> Result:
    """Check every step, the witness and the negative control of ``theorem``.

    A failing step is reported with its number, both sides and the residual.

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> a, b = symbols("a b", real=True)
    >>> wrong = Theorem(
    ...     id="demo", title="demo", statement="", assumptions=[],
    ...     steps=[Chain(sin(a + b), [(sin(a) * cos(b) - cos(a) * sin(b), "sign flipped")])],
    ...     negative_control=Equal(sin(a), cos(a), "wrong"), negative_control_text="")
    >>> result = verify_theorem(wrong)
    >>> result.status, result.negative_control
    ('failed', 'rejected')
    >>> print(result.failures[0])  # doctest: +ELLIPSIS
    step 1 (sign flipped): sin(a + b) = sin(a)*cos(b) - sin(b)*cos(a); residual 2*sin(b)*cos(a)...
    """
    started = time.perf_counter()
    failures, step_results = [], []
    checks = theorem.checks()
    for number, check in enumerate(checks, start=1):
        try:
            decision = check.decide()
        except Exception as error:  # a crash in a check is a failure, said as such
            decision = Decision(False, f"{type(error).__name__}: {error}", "error")
        residual = "0" if decision.proved else sympy.sstr(decision.residual)
        # Printing both sides is slow; only a failing step needs them.
        claim = "" if decision.proved else check.describe()
        step_results.append(StepResult(number, claim, check.why, decision.proved, decision.method, residual))
        if not decision.proved:
            where = f" at {decision.where}" if decision.where else ""
            failures.append(
                f"step {number} ({check.why}): {claim}; residual{where} {residual}"
                + ("" if decision.method == "undecided" else f" [{decision.method}]")
                + ("; could not be reduced to 0" if decision.method == "undecided" else "")
            )
    witness_error = None
    if theorem.witness is not None:
        try:
            witness_error = float(theorem.witness.compute())
        except Exception as error:
            failures.append(f"witness: {type(error).__name__}: {error}")
        else:
            if not witness_error <= theorem.witness.tolerance:
                failures.append(
                    f"witness: largest error {witness_error:.3g} exceeds {theorem.witness.tolerance:.3g} "
                    f"({theorem.witness.description})"
                )
    try:
        negative = _judge_negative_control(theorem.negative_control)
    except Exception as error:
        negative = "crashed"
        failures.append(f"negative control crashed: {type(error).__name__}: {error}")
    if negative == "accepted":
        failures.append(f"negative control accepted: {theorem.negative_control_text}")
    elif negative == "undecided":
        failures.append(
            f"negative control not refuted: the checker did not prove it, but it is not shown false "
            f"either: {theorem.negative_control_text}"
        )
    status = "verified" if not failures else "failed"
    return Result(
        id=theorem.id,
        title=theorem.title,
        status=status,
        steps=len(checks),
        seconds=time.perf_counter() - started,
        negative_control=negative,
        witness_error=witness_error,
        witness_tolerance=None if theorem.witness is None else theorem.witness.tolerance,
        failures=failures,
        step_results=step_results,
    )
