"""Theorems as objects: conclusions, steps, witnesses, controls; checked by the kernel.

A :class:`Theorem` states what it asserts as :class:`Conclusion` objects
(``lhs relation rhs`` for all values of the quantified symbols, whose
declared assumptions are the domain, under the hypotheses ``assuming``).
The statement a reader sees is printed from them.  This module builds and
reports; the trusted kernel (:mod:`posenc_math.theorems.kernel`) decides:

- every step: an :class:`Equal`, each ``=`` of a :class:`Chain`, a
  :class:`Termwise`, a :class:`Holds` and the instance of a :class:`Use`
  (the lemma's conclusion with the substitution applied, re-checked where it
  is used, not trusted) are decided by :func:`~.kernel.check_step`: two
  certificates, an exact normal form and interval arithmetic at sampled
  points, and no condition left that the hypotheses do not imply; a
  :class:`Fact` by its computation returning ``True``;
- every conclusion is *established* by those steps
  (:func:`~.kernel.established`), a conclusion named by a :class:`Fact`
  only in a theorem whose scope is not ``"general"``;
- the negative control is a one-change variant of a conclusion, and the
  kernel refutes it with a certified counterexample
  (:func:`~.kernel.judge_control`), under the same time bound as any step;
- the kernel's self-test passed (:func:`~.kernel.self_test`).

Besides, no step may be trivial (its sides identical before checking), the
free symbols of each conclusion must be its quantified symbols, and the
:class:`Witness` (40-digit mpmath against the numpy function the theorem
licenses) must stay within its tolerance.

Examples
--------
>>> from sympy import symbols, sin, cos
>>> a, b = symbols("a b", real=True)
>>> goal = Conclusion(sin(a + b), sin(a) * cos(b) + cos(a) * sin(b), over=(a, b))
>>> step = Equal(goal.lhs, goal.rhs, "angle addition")
>>> theorem = Theorem(
...     "demo", "demo", (goal,), (step,),
...     Witness("none needed here", lambda: 0.0, 0.0, licenses="math.sin"),
...     Conclusion(sin(a + b), sin(a) * cos(b) - cos(a) * sin(b), over=(a, b)),
...     scope="general")
>>> result = verify_theorem(theorem)
>>> result.status, result.negative_control, result.trivial_steps
('verified', 'rejected', 0)
>>> sorted(result.control_counterexample)
['a', 'b']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy

from . import kernel
from .kernel import Decision
from .printing import latex as _latex

__all__ = [
    "SCOPES",
    "Chain",
    "Conclusion",
    "Equal",
    "Fact",
    "Holds",
    "Result",
    "StepResult",
    "Termwise",
    "Theorem",
    "Use",
    "Witness",
    "verify_theorem",
]

#: The scope labels, from strongest to weakest.
SCOPES = ("general", "instances", "computation")

_RELATIONS = ("=", "<", "<=", "!=")
_LATEX_RELATION = {"=": "=", "<": "<", "<=": r"\le", "!=": r"\ne"}


def _key(expression):
    """A hashable, structural form of a side (matrices become immutable)."""
    if isinstance(expression, sympy.MatrixBase):
        return sympy.ImmutableMatrix(expression)
    return sympy.sympify(expression)


def _free_symbols(expression) -> set:
    return set(getattr(_key(expression), "free_symbols", set()))


def _hypotheses(value, name: str) -> tuple:
    value = tuple(value)
    for hypothesis in value:
        if not isinstance(hypothesis, sympy.core.relational.Relational):
            raise TypeError(f"{name} must hold SymPy relationals (Lt, Le, Gt, Ge, Ne); got {hypothesis!r}")
    return value


# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Conclusion:
    """``lhs relation rhs`` for all values of the symbols ``over`` that satisfy ``assuming``.

    The declared assumptions of the symbols in ``over`` are the domain (real,
    integer, positive, even, ...); ``assuming`` adds hypotheses the kernel
    reads (``Lt(j, P)``, ``Gt(b, 1)``: SymPy relationals); ``where`` adds
    words for the reader only (never a hypothesis).

    Examples
    --------
    >>> from sympy import Symbol, sin
    >>> x = Symbol("x", real=True)
    >>> print(Conclusion(sin(x) ** 2, 1 - sin(x) ** 2, over=(x,), relation="<=").latex())
    \\sin^{2}{\\left(x \\right)} \\le 1 - \\sin^{2}{\\left(x \\right)}
    """

    lhs: Any
    rhs: Any
    over: tuple
    relation: str = "="
    where: str = ""
    assuming: tuple = field(default=(), kw_only=True)

    def __post_init__(self):
        if self.relation not in _RELATIONS:
            raise ValueError(f"relation must be one of {', '.join(_RELATIONS)}; got {self.relation!r}")
        if not isinstance(self.over, tuple):
            raise TypeError(f"over must be a tuple of sympy symbols; got {type(self.over).__name__}")
        object.__setattr__(self, "assuming", _hypotheses(self.assuming, "assuming"))

    def latex(self) -> str:
        """``lhs relation rhs`` as LaTeX, named definitions by their names."""
        return f"{_latex(self.lhs)} {_LATEX_RELATION[self.relation]} {_latex(self.rhs)}"

    def free_symbols(self) -> set:
        """The free symbols of the sides and the hypotheses."""
        found = _free_symbols(self.lhs) | _free_symbols(self.rhs)
        return found.union(*(h.free_symbols for h in self.assuming))


# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Equal:
    """One equation ``lhs = rhs``, decided by the kernel."""

    lhs: Any
    rhs: Any
    why: str
    assuming: tuple = field(default=(), kw_only=True)

    relation = "="

    def checks(self):
        yield self

    def sides(self, context=None):
        return self.lhs, "=", self.rhs

    def decide(self, context=None) -> Decision:
        return kernel.check_step(self.lhs, "=", self.rhs, self.assuming)[0]

    def describe(self) -> str:
        return f"{_sstr(self.lhs)} = {_sstr(self.rhs)}"


@dataclass(frozen=True)
class Chain:
    """A chain ``start = e1 = e2 = ...``; ``links`` are ``(expression, why)`` pairs, each ``=`` checked."""

    start: Any
    links: Sequence[tuple[Any, str]]
    assuming: tuple = field(default=(), kw_only=True)

    def checks(self):
        previous = self.start
        for expression, why in self.links:
            yield Equal(previous, expression, why, assuming=self.assuming)
            previous = expression

    @property
    def end(self):
        return self.links[-1][0]


@dataclass(frozen=True)
class Termwise:
    """Two sums with the same index and limits, equal because their summands are.

    Build them unevaluated (``sympy.Sum``).  The kernel reads a sum over a
    symbolic number of terms as linear in its summand, so the two sums are
    equal when the summands, for an arbitrary index in range, are.
    """

    lhs_sum: Any
    rhs_sum: Any
    why: str
    assuming: tuple = field(default=(), kw_only=True)

    relation = "="

    @property
    def lhs(self):
        return self.lhs_sum

    @property
    def rhs(self):
        return self.rhs_sum

    def checks(self):
        yield self

    def decide(self, context=None) -> Decision:
        for side in (self.lhs_sum, self.rhs_sum):
            if not isinstance(side, sympy.Sum) or len(side.limits) != 1:
                return Decision(False, sympy.nan, "not a sum over one index: " + _sstr(side))
        if self.lhs_sum.limits != self.rhs_sum.limits:
            return Decision(False, sympy.nan, "the two sums have different indices or limits")
        return kernel.check_step(self.lhs_sum, "=", self.rhs_sum, self.assuming)[0]

    def sides(self, context=None):
        return self.lhs_sum, "=", self.rhs_sum

    def describe(self) -> str:
        return f"{_sstr(self.lhs_sum)} = {_sstr(self.rhs_sum)} (term by term)"


@dataclass(frozen=True)
class Use:
    """Conclusion ``conclusion`` of theorem ``theorem_id`` at ``substitution``, re-checked at the instance.

    The instance (the lemma's sides with the substitution applied, rebuilt
    without evaluation) is decided by the kernel like any step; the lemma
    must be listed in ``uses`` and verify too.  ``context`` maps ids to
    theorems (the registry's ``get``).
    """

    theorem_id: str
    substitution: Mapping
    why: str
    conclusion: int = 0
    assuming: tuple = field(default=(), kw_only=True)

    def checks(self):
        yield self

    def instance(self, context):
        if context is None:
            raise TypeError("a Use needs context= (a map from theorem ids to theorems, e.g. theorems.get)")
        used = context(self.theorem_id).conclusions[self.conclusion]
        mapping = dict(self.substitution)
        return used, kernel.instantiate(used.lhs, mapping), kernel.instantiate(used.rhs, mapping)

    def sides(self, context=None):
        used, lhs, rhs = self.instance(context)
        return lhs, used.relation, rhs

    def decide(self, context=None) -> Decision:
        used, lhs, rhs = self.instance(context)
        strangers = [s for s in dict(self.substitution) if s not in used.over]
        if strangers:
            return Decision(False, sympy.nan, f"{', '.join(map(str, strangers))} not quantified in {self.theorem_id}")
        return kernel.check_step(lhs, used.relation, rhs, self.assuming)[0]

    def describe(self) -> str:
        return f"{self.theorem_id} at {self.substitution}"


@dataclass(frozen=True)
class Holds:
    """An inequality (``a < b``, ``a <= b``, ``a != b``): decided by the kernel's rules of signs and intervals.

    Build the relational unevaluated (``sympy.Lt(a, b, evaluate=False)``).
    """

    relational: Any
    why: str
    assuming: tuple = field(default=(), kw_only=True)

    def __post_init__(self):
        if not isinstance(self.relational, (sympy.StrictLessThan, sympy.LessThan, sympy.Unequality)):
            raise TypeError(
                "relational must be an unevaluated sympy Lt, Le or Ne (evaluate=False); "
                f"got {type(self.relational).__name__} {self.relational!r}"
            )

    @property
    def relation(self) -> str:
        return {sympy.StrictLessThan: "<", sympy.LessThan: "<=", sympy.Unequality: "!="}[type(self.relational)]

    @property
    def lhs(self):
        return self.relational.lhs

    @property
    def rhs(self):
        return self.relational.rhs

    def checks(self):
        yield self

    def sides(self, context=None):
        return self.lhs, self.relation, self.rhs

    def decide(self, context=None) -> Decision:
        return kernel.check_step(self.lhs, self.relation, self.rhs, self.assuming)[0]

    def describe(self) -> str:
        return f"{_sstr(self.lhs)} {self.relation} {_sstr(self.rhs)}"


@dataclass(frozen=True)
class Fact:
    """A claim that is not a symbolic identity, decided by ``check() -> bool``.

    ``check`` must return exactly ``True``.  A Fact establishes a conclusion
    only when it names it (``establishes=``), and then the theorem's scope
    cannot be "general".  As a negative control, ``counterexample`` says
    where the claim fails (shown with the result).
    """

    claim: str
    check: Callable[[], object]
    why: str = ""
    establishes: Conclusion | None = None
    counterexample: Mapping | None = field(default=None, kw_only=True)

    def checks(self):
        yield self

    def sides(self, context=None):
        return None

    def decide(self, context=None) -> Decision:
        return kernel.check_fact(self.claim, self.check, self.establishes)[0]

    def describe(self) -> str:
        return self.claim


@dataclass(frozen=True)
class Witness:
    """A numeric witness: ``compute()`` returns the largest error found.

    It evaluates the conclusion at seeded random points with mpmath at
    ``digits`` significant digits and compares with the numpy function the
    theorem licenses (``licenses``, a dotted name such as
    ``"posenc_math.encodings.translation_matrix"``); it passes when the
    error is at most ``tolerance``.
    """

    description: str
    compute: Callable[[], float]
    tolerance: float
    licenses: str = ""
    digits: int = 40


@dataclass(frozen=True)
class Theorem:
    """A checked, citable statement.  See the module docstring.

    ``assuming`` holds hypotheses of every conclusion and step (SymPy
    relationals the kernel reads).
    """

    id: str
    title: str
    conclusions: Sequence[Conclusion]
    steps: Sequence[Any]
    witness: Witness
    negative_control: Any
    scope: str = "general"
    scope_note: str = ""
    uses: Sequence[str] = ()
    proof: Sequence[Any] = ()
    lead: str = ""
    remarks: str = ""
    #: Display only: ``{expression: symbol}`` pairs the page writes as the symbol, with "where symbol =
    #: expression" (prefer a :class:`~posenc_math.theorems.language.Definition`, which the kernel reads).
    notation: Mapping = field(default_factory=dict)
    assuming: tuple = field(default=(), kw_only=True)

    def checks(self) -> list:
        """Every check of the derivation, in order (step numbers start at 1)."""
        return [check for part in self.steps for check in part.checks()]


# --------------------------------------------------------------------------
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

    ``status`` is ``"verified"`` only when every step is proved, every
    conclusion is established, no step is trivial, the witness passed and
    the negative control was rejected with a certified counterexample
    (``control_counterexample``).  ``witness`` is ``"passed"``, ``"failed"``
    or, from ``verify_theorem(..., defer_witness=True)`` until
    ``core.judge_witness`` gives it its value, ``"pending"`` (and the status
    ``"pending"`` too if nothing else failed).  ``mode`` is ``"full"`` (every step certified twice:
    symbolically and by intervals) or ``"fast"`` (``verify_theorem(..., fast=True)``: a step the symbolic
    procedures prove is certified by them alone; see :func:`posenc_math.theorems.kernel.one_certificate`).
    """

    id: str
    title: str
    status: str
    scope: str
    scope_note: str
    steps: int
    trivial_steps: int
    seconds: float
    negative_control: str
    witness: str
    witness_error: float | None
    witness_tolerance: float | None
    uses: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    step_results: list = field(default_factory=list)
    control_counterexample: dict | None = None
    witness_description: str = field(default="", repr=False)
    mode: str = "full"

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def as_dict(self) -> dict:
        """The JSON form of ``posenc-math verify --json``."""
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "scope": self.scope,
            "steps": self.steps,
            "trivial_steps": self.trivial_steps,
            "witness": self.witness,
            "negative_control": self.negative_control,
            "uses": list(self.uses),
            "seconds": round(self.seconds, 4),
            "control_counterexample": self.control_counterexample,
            "mode": self.mode,
            "scope_note": self.scope_note,
            "witness_error": self.witness_error,
            "witness_tolerance": self.witness_tolerance,
            "failures": self.failures,
        }


# --------------------------------------------------------------------------
def _sstr(expression) -> str:
    """A printed side that never raises (SymPy's printer refuses integers of more than 4300 digits)."""
    try:
        return sympy.sstr(expression)
    except (ValueError, RecursionError):
        return f"<{type(expression).__name__} too large to print>"


def _cycle_through(theorem: Theorem, context) -> list[str] | None:
    """A ``uses`` path from ``theorem`` back to itself, or None."""
    stack = [(used, [theorem.id, used]) for used in theorem.uses]
    seen = set()
    while stack:
        current, path = stack.pop()
        if current == theorem.id:
            return path
        if current in seen:
            continue
        seen.add(current)
        try:
            following = context(current).uses
        except KeyError:
            continue
        stack += [(used, [*path, used]) for used in following]
    return None


def _no_context(theorem_id: str) -> Theorem:
    raise KeyError(f"{theorem_id!r}: no registry given (pass context=, e.g. posenc_math.theorems.get)")


def _structure_failures(theorem: Theorem, context) -> list[str]:
    """What is wrong with the theorem as declared, before anything is checked."""
    failures = []
    if theorem.scope not in SCOPES:
        failures.append(f"scope must be one of {', '.join(SCOPES)}; got {theorem.scope!r}")
    elif theorem.scope != "general" and not theorem.scope_note:
        failures.append(f"scope {theorem.scope!r} needs a scope_note stating the ranges checked")
    if not isinstance(theorem.witness, Witness):
        failures.append("no numeric witness: every theorem needs one")
    if not theorem.conclusions:
        failures.append("no conclusion: a theorem must state what it asserts")
    for number, conclusion in enumerate(theorem.conclusions, start=1):
        free, over = conclusion.free_symbols(), set(conclusion.over)
        if free != over:
            failures.append(
                f"conclusion {number}: free symbols {sorted(map(str, free))} are not its quantified symbols "
                f"{sorted(map(str, over))}"
            )
    if isinstance(theorem.negative_control, Conclusion):
        quantified = {symbol for conclusion in theorem.conclusions for symbol in conclusion.over}
        extra = set(theorem.negative_control.over) - quantified
        if extra:
            failures.append(
                f"negative control quantifies over {sorted(map(str, extra))}, which no conclusion does: "
                "it must be a variant of the theorem's own conclusion"
            )
    for check in theorem.checks():
        if isinstance(check, Use) and check.theorem_id not in theorem.uses:
            failures.append(f"a step uses {check.theorem_id!r}, which is not listed in uses")
    for used in theorem.uses:
        try:
            context(used)
        except KeyError:
            failures.append(f"uses {used!r}, which is not a registered theorem")
    cycle = _cycle_through(theorem, context)
    if cycle:
        failures.append("uses form a cycle: " + " -> ".join(cycle))
    ids = {id(part) for part in theorem.steps} | {id(check) for check in theorem.checks()}
    for item in theorem.proof:
        if not isinstance(item, str) and id(item) not in ids:
            failures.append(f"the proof shows a step that is not among the checked steps: {item!r}")
    return failures


def _registered_witness(theorem: Theorem) -> bool:
    """Whether the theorem's witness is the very function registered for its id in :mod:`posenc_math.witnesses`."""
    from ..witnesses import WITNESSES

    return WITNESSES.get(theorem.id) is theorem.witness.compute


def _witness_outcome(theorem: Theorem, witness_values: Mapping[str, float | str] | None) -> float | str:
    """The witness's largest error, or why it failed (``"ExceptionType: message"``).

    Taken from ``witness_values`` only when the theorem's witness is the very
    function registered for its id in :mod:`posenc_math.witnesses` (whose
    :func:`~posenc_math.witnesses.compute` gave those values); computed here
    otherwise.
    """
    if witness_values is not None and theorem.id in witness_values and _registered_witness(theorem):
        value = witness_values[theorem.id]
        return value if isinstance(value, str) else float(value)
    try:
        return float(theorem.witness.compute())
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def _check(check, hypotheses: tuple, context) -> tuple[Decision, Any, tuple | None]:
    """The kernel's decision on one check, its certificate, and the sides it relates."""
    if isinstance(check, Fact):
        decision, certificate = kernel.check_fact(check.claim, check.check, check.establishes)
        return decision, certificate, None
    if isinstance(check, Termwise):  # the shape comes first: two sums over one index, same limits
        for side in (check.lhs_sum, check.rhs_sum):
            if not isinstance(side, sympy.Sum) or len(side.limits) != 1:
                return Decision(False, sympy.nan, "not a sum over one index: " + _sstr(side)), None, None
        if check.lhs_sum.limits != check.rhs_sum.limits:
            return Decision(False, sympy.nan, "the two sums have different indices or limits"), None, None
    if isinstance(check, Use):
        used, lhs, rhs = check.instance(context)
        strangers = [s for s in dict(check.substitution) if s not in used.over]
        if strangers:
            reason = f"{', '.join(map(str, strangers))} not quantified in {check.theorem_id}"
            return Decision(False, sympy.nan, reason), None, None
        sides = (lhs, used.relation, rhs)
    else:
        sides = check.sides(context)
    lhs, relation, rhs = sides
    decision, certificate = kernel.check_step(lhs, relation, rhs, (*hypotheses, *check.assuming))
    return decision, certificate, sides


def verify_theorem(
    theorem: Theorem,
    *,
    context: Callable[[str], Theorem] | None = None,
    witness_values: Mapping[str, float | str] | None = None,
    defer_witness: bool = False,
    fast: bool = False,
) -> Result:
    """Check ``theorem``: kernel self-test, steps, conclusions, witness and negative control.

    ``context`` maps a theorem id to the theorem; it resolves ``uses``
    (``posenc_math.theorems.verify_theorem`` passes the registry's).  A
    failing step is reported with its number, both sides and the residual.
    ``witness_values`` (theorem id -> largest error, from
    :func:`posenc_math.witnesses.compute`, perhaps in another process) stand
    in for computing the witness here, when it is the registered one.
    ``defer_witness=True`` leaves a registered witness ``"pending"`` (its
    value is still being computed elsewhere): ``core.judge_witness`` judges
    it when the value comes.  ``fast=True`` certifies a step that the
    symbolic procedures prove by them alone, without the interval
    cross-check (:func:`posenc_math.theorems.kernel.one_certificate`); the
    result's ``mode`` says ``"fast"``.

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> a, b = symbols("a b", real=True)
    >>> goal = Conclusion(sin(a + b), sin(a) * cos(b) + cos(a) * sin(b), over=(a, b))
    >>> wrong = Theorem(
    ...     "demo", "demo", (goal,),
    ...     (Chain(sin(a + b), [(sin(a) * cos(b) - cos(a) * sin(b), "sign flipped")]),),
    ...     Witness("-", lambda: 0.0, 0.0), Conclusion(sin(a + b), cos(a) * sin(b), over=(a, b)))
    >>> result = verify_theorem(wrong)
    >>> result.status, result.negative_control
    ('failed', 'rejected')
    >>> print(result.failures[0])  # doctest: +ELLIPSIS
    step 1 (sign flipped): sin(a + b) = sin(a)*cos(b) - sin(b)*cos(a); ... [counterexample]
    """
    with kernel.one_certificate(fast):
        result = _verify(theorem, context or _no_context, witness_values, defer_witness)
    result.mode = "fast" if fast else "full"
    return result


def _verify(theorem: Theorem, context, witness_values, defer_witness: bool) -> Result:
    started = time.perf_counter()
    failures, step_results, certificates = [], [], []
    checks = theorem.checks()
    broken_kernel = kernel.self_test()
    if broken_kernel:  # a kernel that proves a false identity certifies nothing: no step is run
        return Result(
            id=theorem.id,
            title=theorem.title,
            status="failed",
            scope=theorem.scope,
            scope_note=theorem.scope_note,
            steps=len(checks),
            trivial_steps=0,
            seconds=time.perf_counter() - started,
            negative_control="undecided",
            witness="failed",
            witness_error=None,
            witness_tolerance=theorem.witness.tolerance if isinstance(theorem.witness, Witness) else None,
            uses=list(theorem.uses),
            failures=[f"kernel self-test failed: {failure}" for failure in broken_kernel],
        )
    hypotheses = tuple(theorem.assuming)
    trivial = 0
    for number, check in enumerate(checks, start=1):
        try:
            sides = check.sides(context) if not isinstance(check, Fact) else None
            if sides is not None and _key(sides[0]) == _key(sides[2]):
                trivial += 1
                decision, certificate = (
                    Decision(False, sympy.S.Zero, "trivial: both sides identical before checking"),
                    None,
                )
            else:
                decision, certificate, sides = _check(check, hypotheses, context)
        except Exception as error:  # a crash in a check is a failure, said as such
            decision, certificate = Decision(False, f"{type(error).__name__}: {error}", "error"), None
        residual = "0" if decision.proved else _sstr(decision.residual)
        claim = "" if decision.proved else check.describe()
        why = getattr(check, "why", "")
        step_results.append(StepResult(number, claim, why, decision.proved, decision.method, residual))
        if certificate is None:
            where = f" at {decision.where}" if decision.where else ""
            failures.append(f"step {number} ({why}): {claim}; residual{where} {residual} [{decision.method}]")
            continue
        certificates.append(certificate)
    if not checks:
        failures.append("no checked step: a theorem with nothing checked does not verify")
    if trivial:
        failures.append(f"{trivial} trivial step(s): both sides identical before checking")
    failures[:0] = _structure_failures(theorem, context)
    facts = [c.establishes for c in certificates if c.relation == "fact" and c.establishes is not None]
    for number, conclusion in enumerate(theorem.conclusions, start=1):
        allowed = (*hypotheses, *conclusion.assuming)
        if kernel.established(conclusion.lhs, conclusion.relation, conclusion.rhs, allowed, certificates):
            continue
        if any(conclusion is named for named in facts):
            if theorem.scope == "general":
                failures.append(f"conclusion {number} rests on a computed fact, so the scope cannot be 'general'")
            continue
        failures.append(f"conclusion {number} is not established by the checked steps: {conclusion.latex()}")
    witness, witness_error = "failed", None
    if isinstance(theorem.witness, Witness):
        if defer_witness and _registered_witness(theorem):
            witness = "pending"
        else:
            witness, witness_error = _witness_verdict(
                _witness_outcome(theorem, witness_values),
                theorem.witness.tolerance,
                theorem.witness.description,
                failures,
            )
    negative, counterexample = _judge_control(theorem, hypotheses, failures)
    return Result(
        id=theorem.id,
        title=theorem.title,
        status="failed" if failures else "pending" if witness == "pending" else "verified",
        scope=theorem.scope,
        scope_note=theorem.scope_note,
        steps=len(checks),
        trivial_steps=trivial,
        seconds=time.perf_counter() - started,
        negative_control=negative,
        witness=witness,
        witness_error=witness_error,
        witness_tolerance=theorem.witness.tolerance if isinstance(theorem.witness, Witness) else None,
        uses=list(theorem.uses),
        failures=failures,
        step_results=step_results,
        control_counterexample=counterexample,
        witness_description=theorem.witness.description if isinstance(theorem.witness, Witness) else "",
    )


def _witness_verdict(
    outcome: float | str, tolerance: float, description: str, failures: list
) -> tuple[str, float | None]:
    """``("passed" | "failed", largest error)`` for a witness's outcome; a failure is added to ``failures``."""
    if isinstance(outcome, str):
        failures.append(f"witness: {outcome}")
        return "failed", None
    if outcome <= tolerance:
        return "passed", outcome
    failures.append(f"witness: largest error {outcome:.3g} exceeds {tolerance:.3g} ({description})")
    return "failed", outcome


def judge_witness(result: Result, outcome: float | str) -> None:
    """Give a pending witness its value: ``outcome`` is the largest error (or ``"ExceptionType: message"``)
    that :func:`posenc_math.witnesses.compute` gave for ``result.id``.  ``result`` is updated in place: its
    witness is judged against its tolerance and its status becomes ``"verified"`` or ``"failed"``.
    ``ValueError`` if its witness is not pending.
    """
    if result.witness != "pending":
        raise ValueError(f"result: the witness of {result.id!r} is not pending (it is {result.witness!r})")
    if result.witness_tolerance is None:
        raise ValueError(f"result: {result.id!r} has no witness tolerance to judge its witness by")
    if not isinstance(outcome, str):
        outcome = float(outcome)
    result.witness, result.witness_error = _witness_verdict(
        outcome, result.witness_tolerance, result.witness_description, result.failures
    )
    result.status = "failed" if result.failures else "verified"


def _judge_control(theorem: Theorem, hypotheses: tuple, failures: list) -> tuple[str, dict | None]:
    control = theorem.negative_control
    try:
        if isinstance(control, Fact):
            verdict, counterexample, why = kernel.judge_fact_control(
                control.claim, control.check, control.counterexample, computed=theorem.scope != "general"
            )
            if verdict != "rejected":
                failures.append(f"negative control {'accepted' if verdict == 'accepted' else 'not refuted'}: {why}")
            return verdict, counterexample
        if not isinstance(control, Conclusion):
            raise TypeError(f"a negative control is a Conclusion or a Fact; got {type(control).__name__}")
        conclusions = [(c.lhs, c.relation, c.rhs, (*hypotheses, *c.assuming)) for c in theorem.conclusions]
        verdict, counterexample, why = kernel.judge_control(
            control.lhs, control.relation, control.rhs, (*hypotheses, *control.assuming), conclusions
        )
    except Exception as error:
        failures.append(f"negative control crashed: {type(error).__name__}: {error}")
        return "crashed", None
    if verdict == "accepted":
        failures.append("negative control accepted: the checker proved a statement that should be false")
    elif verdict == "undecided":
        failures.append(f"negative control not refuted: no certified counterexample ({why})")
    elif verdict == "not a variant":
        failures.append(f"negative control is not a variant of a conclusion: {why}")
        verdict = "undecided"
    return verdict, counterexample
