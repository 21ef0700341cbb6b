"""Theorems as objects: checked conclusions, checked steps, witnesses, controls.

A :class:`Theorem` states what it asserts as :class:`Conclusion` objects
(``lhs relation rhs`` for all values of the quantified symbols, whose SymPy
assumptions are the declared domain).  The statement a reader sees is
rendered from them, never typed separately.  Verification
(:func:`verify_theorem`) fails unless

- every step is proved: an :class:`Equal` or each ``=`` of a :class:`Chain`
  by :func:`~posenc_math.theorems.decide_equal` (the residual reduces to
  exactly 0), a :class:`Termwise` by proving the summands of two sums with
  the same index and limits equal (the lemma that lets a per-pair identity
  cover every width), a :class:`Use` by instantiating a conclusion of a
  theorem listed in ``uses`` at values inside its domain, a :class:`Holds`
  by SymPy's assumption system, a :class:`Fact` by a computation that
  returns ``True``;
- every conclusion is *established* by those steps: an equation when proved
  equations connect its two sides (structural equality of the endpoints,
  transitivity), an inequality by a proved :class:`Holds` (or :class:`Use`)
  of that relation between expressions equal to its sides, a conclusion
  named by a :class:`Fact` only in a theorem whose scope is not
  ``"general"``;
- no step is trivial (its two sides identical before checking), there is at
  least one checked step, the free symbols of each conclusion are exactly
  its quantified symbols;
- the :class:`Witness` (mandatory: 40-digit mpmath against the numpy
  function the theorem licenses) stays within its tolerance;
- the negative control, a wrong variant of the theorem's own conclusion, is
  not proved *and* is shown false at points sampled from its declared
  domain (or, for a computed control, a :class:`Fact` returns ``False``).

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
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy

from .check import Decision, decide_equal

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

_RELATIONS = {"=": None, "<": "is_positive", "<=": "is_nonnegative", "!=": None}
_LATEX_RELATION = {"=": "=", "<": "<", "<=": r"\le", "!=": r"\ne"}
_SYMPY_RELATION = {"<": sympy.StrictLessThan, "<=": sympy.LessThan, "!=": sympy.Unequality}


def _key(expression):
    """A hashable, structural form of a side (matrices become immutable)."""
    if isinstance(expression, sympy.MatrixBase):
        return sympy.ImmutableMatrix(expression)
    return sympy.sympify(expression)


def _free_symbols(expression) -> set:
    return set(getattr(_key(expression), "free_symbols", set()))


# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Conclusion:
    """``lhs relation rhs`` for all values of the symbols ``over``.

    The SymPy assumptions of the symbols in ``over`` are the declared
    domain (real, integer, positive, even, ...); ``where`` adds hypotheses
    in words (inline ``$math$``) only when they cannot be assumptions.

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

    def __post_init__(self):
        if self.relation not in _RELATIONS:
            raise ValueError(f"relation must be one of {', '.join(_RELATIONS)}; got {self.relation!r}")
        if not isinstance(self.over, tuple):
            raise TypeError(f"over must be a tuple of sympy symbols; got {type(self.over).__name__}")

    def latex(self) -> str:
        """``lhs relation rhs`` as LaTeX."""
        from .render import latex

        return f"{latex(self.lhs)} {_LATEX_RELATION[self.relation]} {latex(self.rhs)}"

    def free_symbols(self) -> set:
        return _free_symbols(self.lhs) | _free_symbols(self.rhs)


def _symbolic_matrix(expression) -> bool:
    """True for a matrix expression with matrix symbols of any size in it."""
    return isinstance(expression, sympy.MatrixExpr) and bool(expression.atoms(sympy.MatrixSymbol))


def _has_sum(expression) -> bool:
    return isinstance(expression, sympy.Basic) and expression.has(sympy.Sum)


def _decide_blocks(lhs, rhs) -> Decision:
    """Equality of block-matrix expressions with symbolic blocks.

    Both sides go through :func:`sympy.block_collapse` (block products,
    sums and transposes by the rules of block algebra); they must then
    agree block by block: structurally for blocks with matrix symbols, by
    :func:`~posenc_math.theorems.decide_equal` for explicit blocks.
    """
    left, right = (sympy.block_collapse(side) for side in (lhs, rhs))
    if left == right:
        return Decision(True, sympy.S.Zero, "block algebra")
    blocks = []
    for side in (left, right):
        if isinstance(side, sympy.BlockMatrix):
            blocks.append(side.blocks)
        else:
            blocks.append(None)
    if blocks[0] is None or blocks[1] is None or blocks[0].shape != blocks[1].shape:
        return Decision(False, sympy.nan, "undecided: different block structure")
    for one, other in zip(blocks[0], blocks[1], strict=True):
        if one == other:
            continue
        if _symbolic_matrix(one) or _symbolic_matrix(other):
            return Decision(False, sympy.nan, f"undecided: blocks {one} and {other} differ")
        decision = decide_equal(one, other)
        if not decision.proved:
            return decision
    return Decision(True, sympy.S.Zero, "block algebra")


def _explicit_values(expressions, rng) -> dict:
    """A random integer matrix (sizes 1 to 3) for every matrix symbol in ``expressions``."""
    symbols = sorted(set().union(*(e.atoms(sympy.MatrixSymbol) for e in expressions)), key=str)
    sizes: dict = {}
    for symbol in symbols:
        for dimension in symbol.shape:
            for size in getattr(dimension, "free_symbols", ()):
                sizes.setdefault(size, rng.randint(1, 3))
    matrices = {}
    for symbol in symbols:
        rows, cols = (int(sympy.sympify(n).xreplace(sizes)) for n in symbol.shape)
        matrices[symbol] = sympy.ImmutableMatrix(rows, cols, lambda i, j: rng.randint(-5, 5))
    return matrices


# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Equal:
    """One equation ``lhs = rhs``, checked by :func:`~posenc_math.theorems.decide_equal`."""

    lhs: Any
    rhs: Any
    why: str

    relation = "="

    def checks(self):
        yield self

    def decide(self, context=None) -> Decision:
        if _symbolic_matrix(self.lhs) or _symbolic_matrix(self.rhs):
            return _decide_blocks(self.lhs, self.rhs)
        decision = decide_equal(self.lhs, self.rhs)
        if not decision.proved and any(_has_sum(side) for side in (self.lhs, self.rhs)):
            # a sum in closed form (SymPy's summation, e.g. sum of 1 over d/2 terms = d/2)
            summed = decide_equal(*(sympy.sympify(side).doit() for side in (self.lhs, self.rhs)))
            if summed.proved:
                return Decision(True, sympy.S.Zero, "summation+" + summed.method)
        return decision

    def sides(self, context=None):
        return self.lhs, "=", self.rhs

    def describe(self) -> str:
        return f"{sympy.sstr(self.lhs)} = {sympy.sstr(self.rhs)}"


@dataclass(frozen=True)
class Chain:
    """A chain ``start = e1 = e2 = ...``; ``links`` are ``(expression, why)`` pairs.

    Each ``=`` is checked on its own, so a wrong link is reported by number
    even when the ends happen to agree.
    """

    start: Any
    links: Sequence[tuple[Any, str]]

    def checks(self):
        previous = self.start
        for expression, why in self.links:
            yield Equal(previous, expression, why)
            previous = expression

    @property
    def end(self):
        return self.links[-1][0]


@dataclass(frozen=True)
class Termwise:
    """Two sums with the same index and limits are equal when their summands are.

    ``lhs_sum`` and ``rhs_sum`` are ``sympy.Sum`` objects (build them
    unevaluated).  The summands are compared by
    :func:`~posenc_math.theorems.decide_equal` with the index an integer:
    a per-pair identity then holds for any number of pairs, however large.
    """

    lhs_sum: Any
    rhs_sum: Any
    why: str

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
                return Decision(False, sympy.nan, "not a sum over one index: " + sympy.sstr(side))
        (index, low, high), (other, low2, high2) = self.lhs_sum.limits[0], self.rhs_sum.limits[0]
        if (index, low, high) != (other, low2, high2):
            return Decision(False, sympy.nan, "the two sums have different indices or limits")
        # The summands are compared with the index an integer in range: the
        # index's own assumptions are used only when the range implies them.
        allowed = {"integer": True, "nonnegative": True} if low.is_nonnegative else {"integer": True}
        if _declared(index) == allowed:
            return decide_equal(self.lhs_sum.function, self.rhs_sum.function)
        term = sympy.Dummy(str(index), **allowed)
        return decide_equal(
            self.lhs_sum.function.xreplace({index: term}), self.rhs_sum.function.xreplace({index: term})
        )

    def sides(self, context=None):
        return self.lhs_sum, "=", self.rhs_sum

    def describe(self) -> str:
        return f"{sympy.sstr(self.lhs_sum)} = {sympy.sstr(self.rhs_sum)} (term by term)"


def _declared(symbol) -> dict:
    """The assumptions a symbol was created with, e.g. ``{"integer": True, "nonnegative": True}``."""
    return {fact: value for fact, value in getattr(symbol, "_assumptions_orig", {}).items() if value is not None}


def _domain_violations(symbol, value) -> list[str]:
    """The assumptions of ``symbol`` that ``value`` is not known to satisfy."""
    if isinstance(symbol, sympy.MatrixSymbol):
        shape = getattr(value, "shape", None)
        return [] if shape is not None else [f"{value} is not a matrix"]
    problems = []
    for fact, wanted in sorted(symbol.assumptions0.items()):
        if wanted is None or fact in ("commutative",):
            continue
        have = getattr(sympy.sympify(value), f"is_{fact}", None)
        if have is not wanted:
            problems.append(f"{fact}={wanted} (is {have})")
    return problems


@dataclass(frozen=True)
class Use:
    """Instantiate conclusion ``conclusion`` of theorem ``theorem_id`` at ``substitution``.

    Each substituted symbol must be replaced by an expression SymPy knows to
    satisfy every assumption of the symbol (so a theorem about real ``t`` is
    used at real values only).  The instance counts as established; the
    theorem used must be listed in ``uses`` and must itself verify.
    """

    theorem_id: str
    substitution: Mapping
    why: str
    conclusion: int = 0

    def checks(self):
        yield self

    def instance(self, context):
        used = context(self.theorem_id).conclusions[self.conclusion]
        mapping = dict(self.substitution)
        lhs = used.lhs.xreplace(mapping) if hasattr(used.lhs, "xreplace") else used.lhs
        rhs = used.rhs.xreplace(mapping) if hasattr(used.rhs, "xreplace") else used.rhs
        return used, lhs, rhs

    def sides(self, context=None):
        if context is None:
            from .registry import get as context
        used, lhs, rhs = self.instance(context)
        return lhs, used.relation, rhs

    def decide(self, context=None) -> Decision:
        if context is None:
            from .registry import get as context
        used, _, _ = self.instance(context)
        problems = []
        for symbol, value in dict(self.substitution).items():
            if symbol not in used.over:
                problems.append(f"{symbol} is not a quantified symbol of {self.theorem_id}")
                continue
            problems += [f"{symbol} -> {value}: {p}" for p in _domain_violations(symbol, value)]
        if problems:
            return Decision(False, sympy.nan, "outside the domain: " + "; ".join(problems))
        return Decision(True, sympy.S.Zero, f"instance of {self.theorem_id}")

    def describe(self) -> str:
        return f"{self.theorem_id} at {self.substitution}"


@dataclass(frozen=True)
class Holds:
    """An inequality (``a < b``, ``a <= b``, ``a != b``), decided by SymPy's assumptions.

    Build the relational unevaluated (``sympy.Lt(a, b, evaluate=False)``).
    ``a < b`` holds when ``(b - a).is_positive is True``; ``a <= b`` when it
    is nonnegative; ``a != b`` when ``(a - b).is_zero is False``.
    """

    relational: Any
    why: str

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
        gap = self.rhs - self.lhs
        for form in (gap, sympy.expand(gap)):  # expanding changes the form, not the value
            known = (
                form.is_zero is False
                if self.relation == "!="
                else getattr(form, str(_RELATIONS[self.relation])) is True
            )
            if known:
                return Decision(True, sympy.S.Zero, "assumptions")
        return Decision(False, gap, "undecided")

    def describe(self) -> str:
        return f"{sympy.sstr(self.lhs)} {self.relation} {sympy.sstr(self.rhs)}"


@dataclass(frozen=True)
class Fact:
    """A claim that is not a symbolic identity, decided by ``check() -> bool``.

    ``check`` must return exactly ``True`` (a plain bool) for the fact to
    hold.  A Fact establishes a conclusion only when it names it
    (``establishes=``), and then the theorem's scope cannot be "general".
    """

    claim: str
    check: Callable[[], object]
    why: str = ""
    establishes: Conclusion | None = None

    def checks(self):
        yield self

    def sides(self, context=None):
        return None

    def decide(self, context=None) -> Decision:
        outcome = self.check()
        if not isinstance(outcome, bool):
            raise TypeError(
                f"the check of the fact {self.claim!r} returned {type(outcome).__name__} {outcome!r}; "
                "it must return a bool"
            )
        return Decision(outcome, sympy.S.Zero if outcome else outcome, "computation" if outcome else "refuted")

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
    """A checked, citable statement.  See the module docstring."""

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
    #: Display only: ``{expression: symbol}`` pairs the page writes as the
    #: symbol (``b**(-2*i/d)`` as ``omega_i``), with "where symbol = expression".
    notation: Mapping = field(default_factory=dict)

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
    the negative control was rejected (shown false).
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
            "scope_note": self.scope_note,
            "witness_error": self.witness_error,
            "witness_tolerance": self.witness_tolerance,
            "failures": self.failures,
        }


# --------------------------------------------------------------------------
#: Seconds the checker gets to (wrongly) prove a negative control.  A control
#: is rejected only when it is shown false at sampled points of its domain;
#: the checker must then not prove it: a checker that says yes to everything
#: is caught at once, and trying longer to prove what is shown false would
#: only test the checker's soundness, which its own test suite does.
CONTROL_TIME_BOUND = 0.002


def _checker_proves(lhs, rhs) -> bool:
    return decide_equal(lhs, rhs, time_bound=CONTROL_TIME_BOUND).proved


def _shown_false(lhs, rhs) -> bool:
    """``lhs = rhs`` fails at a point sampled from the declared domain (the checker's sampler).

    Sums over a symbolic number of terms are first given a sampled number of
    terms (inside the domain of the symbols in their limits) and written out.
    """
    from . import check

    sums = [side.atoms(sympy.Sum) for side in (lhs, rhs) if isinstance(side, sympy.Basic)]
    limits = {symbol for found in sums for total in found for symbol in _limit_symbols(total)}
    if not limits:
        return check.shown_false(lhs, rhs, seeds=(0, 1, 2, 3))
    for seed in range(4):
        point = check.small_point(limits, seed)
        if point is None:
            return False
        left, right = (sympy.sympify(side).xreplace(point).doit() for side in (lhs, rhs))
        if check.shown_false(left, right, seeds=(seed,)):
            return True
    return False


def _limit_symbols(total) -> set:
    return {symbol for _, low, high in total.limits for symbol in (low.free_symbols | high.free_symbols)}


def _judge_negative_control(control) -> str:
    """``"rejected"``, ``"accepted"`` or ``"undecided"`` for a (wrong) control.

    Rejected means it is shown false at a point sampled from its declared
    domain (a Fact: it returns False) *and* the checker does not prove it.
    A control the checker does not prove but that is not shown false is
    "undecided": a gap in the checker must not pass for a refusal.
    """
    from .check import numeric_value

    if isinstance(control, Fact):
        return "rejected" if control.decide().proved is False else "accepted"
    if not isinstance(control, Conclusion):
        raise TypeError(f"a negative control is a Conclusion or a Fact; got {type(control).__name__}")
    if control.free_symbols() != set(control.over):
        return "undecided"
    if control.relation == "=" and (_symbolic_matrix(control.lhs) or _symbolic_matrix(control.rhs)):
        if _decide_blocks(control.lhs, control.rhs).proved:
            return "accepted"
        import random

        for seed in range(4):
            values = _explicit_values((control.lhs, control.rhs), random.Random(seed))
            try:
                left, right = (
                    sympy.Matrix(sympy.block_collapse(side.xreplace(values)).as_explicit())
                    for side in (control.lhs, control.rhs)
                )
            except (ValueError, TypeError, sympy.ShapeError):
                continue
            if left.shape == right.shape and left != right:
                return "rejected"
        return "undecided"
    if control.relation == "=":
        if not _shown_false(control.lhs, control.rhs):
            return "accepted" if _checker_proves(control.lhs, control.rhs) else "undecided"
        return "accepted" if _checker_proves(control.lhs, control.rhs) else "rejected"
    if Holds(_SYMPY_RELATION[control.relation](control.lhs, control.rhs, evaluate=False), "").decide().proved:
        return "accepted"
    for seed in range(4):
        value = numeric_value(control.rhs - control.lhs, seed)
        if value is None or abs(value.imag) > 1e-12:
            continue
        if (control.relation == "<" and value.real <= 1e-12) or (control.relation == "<=" and value.real < -1e-12):
            return "rejected"
        if control.relation == "!=" and abs(value) < 1e-25:
            return "rejected"
    return "undecided"


class _Classes:
    """Union-find over expressions: which sides are proved equal."""

    def __init__(self):
        self.parent: dict = {}

    def find(self, item):
        item = _key(item)
        self.parent.setdefault(item, item)
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a, b) -> None:
        self.parent[self.find(a)] = self.find(b)

    def same(self, a, b) -> bool:
        return self.find(a) == self.find(b)


def _established(conclusion: Conclusion, equal: _Classes, relations: list) -> bool:
    if conclusion.relation == "=":
        return _key(conclusion.lhs) == _key(conclusion.rhs) or equal.same(conclusion.lhs, conclusion.rhs)
    return any(
        relation == conclusion.relation and equal.same(lhs, conclusion.lhs) and equal.same(rhs, conclusion.rhs)
        for lhs, relation, rhs in relations
    )


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


def _default_context(theorem_id: str) -> Theorem:
    from .registry import get

    return get(theorem_id)


def _witness_outcome(theorem: Theorem, witness_values: Mapping[str, float | str] | None) -> float | str:
    """The witness's largest error, or why it failed (``"ExceptionType: message"``).

    Taken from ``witness_values`` only when the theorem's witness is the very
    function registered for its id in :mod:`posenc_math.witnesses` (whose
    :func:`~posenc_math.witnesses.compute` gave those values); computed here
    otherwise.
    """
    if witness_values is not None and theorem.id in witness_values:
        from ..witnesses import WITNESSES

        if WITNESSES.get(theorem.id) is theorem.witness.compute:
            value = witness_values[theorem.id]
            return value if isinstance(value, str) else float(value)
    try:
        return float(theorem.witness.compute())
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def verify_theorem(
    theorem: Theorem,
    *,
    context: Callable[[str], Theorem] | None = None,
    witness_values: Mapping[str, float | str] | None = None,
) -> Result:
    """Check ``theorem``: steps, conclusions, witness and negative control.

    ``context`` maps a theorem id to the theorem (default: the registry); it
    resolves ``uses``.  A failing step is reported with its number, both
    sides and the residual.  ``witness_values`` (theorem id -> largest error,
    from :func:`posenc_math.witnesses.compute`, perhaps in another process)
    stand in for computing the witness here, when it is the registered one.

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> a, b = symbols("a b", real=True)
    >>> goal = Conclusion(sin(a + b), sin(a) * cos(b) + cos(a) * sin(b), over=(a, b))
    >>> wrong = Theorem(
    ...     "demo", "demo", (goal,),
    ...     (Chain(sin(a + b), [(sin(a) * cos(b) - cos(a) * sin(b), "sign flipped")]),),
    ...     Witness("-", lambda: 0.0, 0.0), Conclusion(sin(a), cos(a), over=(a,)))
    >>> result = verify_theorem(wrong)
    >>> result.status, result.negative_control
    ('failed', 'rejected')
    >>> print(result.failures[0])  # doctest: +ELLIPSIS
    step 1 (sign flipped): sin(a + b) = sin(a)*cos(b) - sin(b)*cos(a); residual ...
    """
    context = context or _default_context
    started = time.perf_counter()
    failures, step_results = [], []
    checks = theorem.checks()
    equal, relations, by_fact = _Classes(), [], []
    trivial = 0
    for number, check in enumerate(checks, start=1):
        sides = None
        try:
            sides = check.sides(context)
            if sides is not None and _key(sides[0]) == _key(sides[2]):
                trivial += 1
                decision = Decision(False, sympy.S.Zero, "trivial: both sides identical before checking")
            else:
                decision = check.decide(context)
        except Exception as error:  # a crash in a check is a failure, said as such
            decision = Decision(False, f"{type(error).__name__}: {error}", "error")
        residual = "0" if decision.proved else sympy.sstr(decision.residual)
        claim = "" if decision.proved else check.describe()
        why = getattr(check, "why", "")
        step_results.append(StepResult(number, claim, why, decision.proved, decision.method, residual))
        if not decision.proved:
            where = f" at {decision.where}" if decision.where else ""
            failures.append(f"step {number} ({why}): {claim}; residual{where} {residual} [{decision.method}]")
            continue
        if isinstance(check, Fact):
            if check.establishes is not None:
                by_fact.append(check.establishes)
        elif sides is not None:
            lhs, relation, rhs = sides
            if relation == "=":
                equal.union(lhs, rhs)
            else:
                relations.append((lhs, relation, rhs))
    if not checks:
        failures.append("no checked step: a theorem with nothing checked does not verify")
    if trivial:
        failures.append(f"{trivial} trivial step(s): both sides identical before checking")
    failures[:0] = _structure_failures(theorem, context)
    for number, conclusion in enumerate(theorem.conclusions, start=1):
        if _established(conclusion, equal, relations):
            continue
        if any(conclusion is named for named in by_fact):
            if theorem.scope == "general":
                failures.append(f"conclusion {number} rests on a computed fact, so the scope cannot be 'general'")
            continue
        failures.append(f"conclusion {number} is not established by the checked steps: {conclusion.latex()}")
    witness, witness_error = "failed", None
    if isinstance(theorem.witness, Witness):
        outcome = _witness_outcome(theorem, witness_values)
        if isinstance(outcome, str):
            failures.append(f"witness: {outcome}")
        else:
            witness_error = outcome
            if witness_error <= theorem.witness.tolerance:
                witness = "passed"
            else:
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
        failures.append("negative control accepted: the checker proved a statement that should be false")
    elif negative == "undecided":
        failures.append("negative control not refuted: not proved, but not shown false on its domain either")
    return Result(
        id=theorem.id,
        title=theorem.title,
        status="verified" if not failures else "failed",
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
    )
