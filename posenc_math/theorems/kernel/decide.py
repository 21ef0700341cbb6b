"""The kernel's decisions: the only code that marks a step, an instance, a conclusion or a control checked.

:func:`decide` accepts ``lhs relation rhs`` only when two independent
certificates agree:

(i) *symbolic*: for ``=``, some procedure in :data:`PROCEDURES` shows the
    difference of the two sides to be 0 (and none shows it nonzero); for
    ``<``, ``<=``, ``!=``, the rules of signs show ``rhs - lhs`` positive,
    nonnegative, nonzero (:meth:`.normal.Translator.poly_sign`), and for an
    order both sides are shown real (a point where one is certainly not
    real refutes it);
(ii) *numeric*: both sides, as written, are evaluated with interval
    arithmetic at points of the declared domain (:mod:`.numeric`); the
    relation is confirmed at at least :data:`MIN_POINTS` of them, and at no
    point is it certified false.  A point where a side is undefined while
    every condition holds refuses the step.

The answer carries the *conditions* (divisors, as written, that must be
nonzero) that the hypotheses did not imply, and for a false statement a
*counterexample*: a point where the two sides are certified different.
A proof with conditions left over is not a checked step (:func:`check_step`).

Within :func:`one_certificate` (``posenc-math verify --fast``) a step that
certificate (i) proves is accepted on it alone: (ii) is not computed for it.
Negative controls and unproved steps are judged as always.

Before anything is certified, :func:`self_test` runs every procedure on a
battery of false identities: one answer "zero" fails every theorem
(``verify`` refuses to run).  A symbolic "zero" that the numeric
certificate contradicts is reported as a kernel inconsistency, never as a
proof.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixExpr

from .. import language as lang
from . import matrices, numeric
from .bound import TIME_BOUND, bounded
from .normal import NeedResidue, NeedSplit, Refused, Translator, _short, _walk, declared_domain, field_for

__all__ = [
    "MIN_POINTS",
    "PROCEDURES",
    "Checked",
    "Decision",
    "check_fact",
    "check_step",
    "decide",
    "decide_equal",
    "decide_zero",
    "established",
    "instantiate",
    "judge_control",
    "judge_fact_control",
    "one_certificate",
    "one_change",
    "self_test",
]

#: Points where the numeric certificate must confirm a statement.
MIN_POINTS = 2
#: Points sampled for a step; for a negative control, more are tried until one refutes it.
STEP_POINTS = 4
CONTROL_POINTS = 16

#: True within :func:`one_certificate`.
_ONE_CERTIFICATE: contextvars.ContextVar[bool] = contextvars.ContextVar("one_certificate", default=False)


@contextlib.contextmanager
def one_certificate(active: bool = True):
    """Within this context (``active=True``), a step that certificate (i) proves is certified by it alone.

    The fast mode of ``posenc-math verify --fast``: the interval evaluation
    of both sides (certificate (ii)) is skipped for such a step, and with it
    the check that no side is undefined where every condition holds.  A
    negative control is still rejected only with a counterexample that the
    intervals certify; one they refute is not also run through the symbolic
    procedures.  Steps the symbolic procedures do not prove and computed
    facts are judged as outside it.  A forked child inherits the setting.

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> x = symbols("x", real=True)
    >>> with one_certificate():
    ...     decide_equal(sin(2 * x), 2 * sin(x) * cos(x)).method
    'normal form; intervals skipped (one certificate)'
    """
    token = _ONE_CERTIFICATE.set(bool(active))
    try:
        yield
    finally:
        _ONE_CERTIFICATE.reset(token)


@dataclass(frozen=True)
class Decision:
    """The outcome of one decision.

    Attributes
    ----------
    proved : bool
        Both certificates succeeded (under ``conditions``, if any).
    residual : object
        The difference of the two sides as written when not proved (0 when proved).
    method : str
        What decided it, or ``"refused: ..."``, ``"undecided: ..."``, ``"counterexample"``.
    where : str
        Extra detail (a point, an entry).
    conditions : tuple
        ``Ne(divisor, 0)`` for each divisor, as written, that the hypotheses
        did not show nonzero: the statement holds where they hold.
    counterexample : dict or None
        A point (symbol name -> value: ints, numbers as strings, matrices as
        nested lists; arbitrary functions as ``"f(3)"``) where the two sides
        are certified to differ.
    """

    proved: bool
    residual: object
    method: str
    where: str = ""
    conditions: tuple = ()
    counterexample: dict | None = None


# --------------------------------------------------------------------------
# the current decision: hypotheses for the procedures (they take one argument, the difference)

_CONTEXT: contextvars.ContextVar = contextvars.ContextVar("posenc_kernel_context", default=None)


@dataclass
class _Context:
    hypotheses: tuple = ()
    analyses: dict = field(default_factory=dict)


@dataclass
class Analysis:
    """The normal form of a difference: zero in every case?  The conditions it needs."""

    zero: bool | None
    conditions: list
    reason: str = ""
    matrix: bool = False
    value: object = None  # the scalar normal form (one case only)
    translator: Any = None


def _split_facts(translator: Translator, hypotheses) -> None:
    for hypothesis in hypotheses:
        translator.facts += translator.fact(hypothesis)
        translator.facts_version += 1


def _negation(relational):
    negations = {
        sympy.StrictLessThan: sympy.GreaterThan,
        sympy.LessThan: sympy.StrictGreaterThan,
        sympy.StrictGreaterThan: sympy.LessThan,
        sympy.GreaterThan: sympy.StrictLessThan,
    }
    if type(relational) in negations:
        return negations[type(relational)](*relational.args, evaluate=False)
    if isinstance(relational, sympy.Equality):
        return sympy.Unequality(*relational.args, evaluate=False)
    if isinstance(relational, sympy.Unequality):
        return sympy.Equality(*relational.args, evaluate=False)
    raise Refused(f"cannot split on {relational}")


def analyse(expression, hypotheses: tuple = (), *, depth: int = 0, residues: dict | None = None) -> Analysis:
    """Translate ``expression`` (a difference, or a gap) under ``hypotheses``, splitting cases as branches need
    (a relational and its negation; an integer symbol's residues modulo D)."""
    field_ = field_for(expression, *hypotheses)
    translator = Translator(field_, matrices)
    translator.residues = dict(residues or {})
    try:
        _split_facts(translator, [h for h in hypotheses if not isinstance(h, sympy.Equality)])
        if any(isinstance(h, sympy.Equality) for h in hypotheses):
            raise Refused("an equation as a hypothesis is not read (state it as a definition)")
        if isinstance(expression, (sympy.MatrixBase, MatrixExpr)):
            value = translator.matrix(expression, {})
            zero = all(not c.num for c in value.terms.values())
            return Analysis(zero, list(translator.conditions), matrix=True)
        value = translator.scalar(expression, {})
        return Analysis(not value.num, list(translator.conditions), value=value, translator=translator)
    except (NeedSplit, NeedResidue) as split:
        if depth > 6:
            return Analysis(None, [], "refused: too many cases")
        if isinstance(split, NeedResidue):
            if split.symbol in translator.residues or declared_domain(split.symbol).kind != "integer":
                return Analysis(None, [], "refused: a residue split that does not apply")
            cases = [
                analyse(
                    expression,
                    hypotheses,
                    depth=depth + 1,
                    residues={**translator.residues, split.symbol: (split.modulus, r)},
                )
                for r in range(split.modulus)
            ]
        else:
            cases = [
                analyse(expression, (*hypotheses, split.relational), depth=depth + 1, residues=residues),
                analyse(expression, (*hypotheses, _negation(split.relational)), depth=depth + 1, residues=residues),
            ]
        if any(case.zero is None for case in cases):
            return Analysis(None, [], next(case.reason for case in cases if case.zero is None))
        return Analysis(
            all(case.zero for case in cases), [c for case in cases for c in case.conditions], matrix=cases[0].matrix
        )
    except Refused as refusal:
        return Analysis(None, [], f"refused: {refusal}")


def _analysis_of(difference) -> Analysis:
    context = _CONTEXT.get() or _Context()
    key = id(difference)
    if key not in context.analyses:
        context.analyses[key] = (difference, analyse(difference, context.hypotheses))
    return context.analyses[key][1]


def _normal_form(difference) -> bool | None:
    """Procedure: the scalar normal form of the difference is 0 (:mod:`.normal`)."""
    if isinstance(difference, (sympy.MatrixBase, MatrixExpr)):
        return None
    return True if _analysis_of(difference).zero else None


def _matrix_words(difference) -> bool | None:
    """Procedure: the matrix normal form (words in matrix atoms) of the difference is 0 (:mod:`.matrices`)."""
    if not isinstance(difference, (sympy.MatrixBase, MatrixExpr)):
        return None
    return True if _analysis_of(difference).zero else None


#: The symbolic procedures: name -> callable(difference) answering True (shown
#: zero), False (shown nonzero) or None (no answer).  The documented seam for
#: mutation tests: an entry that answers True wrongly is caught by
#: :func:`self_test`, which fails every theorem.
PROCEDURES: dict[str, Callable[[object], bool | None]] = {
    "normal form": _normal_form,
    "matrix words": _matrix_words,
}


def difference_of(lhs, rhs):
    """``lhs - rhs`` as written (no evaluation), entry by entry for explicit matrices."""
    if isinstance(lhs, sympy.MatrixBase) and isinstance(rhs, sympy.MatrixBase):
        if lhs.shape != rhs.shape:
            raise Refused(f"shapes differ: {lhs.shape} and {rhs.shape}")
        return sympy.ImmutableMatrix(
            lhs.rows,
            lhs.cols,
            [
                sympy.Add(lhs[i, j], sympy.Mul(-1, rhs[i, j], evaluate=False), evaluate=False)
                for i in range(lhs.rows)
                for j in range(lhs.cols)
            ],
        )
    if isinstance(lhs, (sympy.MatrixBase, MatrixExpr)) or isinstance(rhs, (sympy.MatrixBase, MatrixExpr)):
        if not (isinstance(lhs, (sympy.MatrixBase, MatrixExpr)) and isinstance(rhs, (sympy.MatrixBase, MatrixExpr))):
            raise Refused("a matrix compared with a scalar")
        return sympy.MatAdd(lhs, sympy.MatMul(sympy.S.NegativeOne, rhs, evaluate=False), evaluate=False)
    return sympy.Add(lhs, sympy.Mul(sympy.S.NegativeOne, rhs, evaluate=False), evaluate=False)


# --------------------------------------------------------------------------
# the numeric certificate


def _symbols(expressions) -> tuple[list, list, set]:
    """Free scalar symbols, matrix symbols, and the symbols that set sizes (sum limits, shapes, block counts)."""
    scalars, matrices, sizes = set(), set(), set()
    for expression in expressions:
        for node in _walk(expression):
            if isinstance(node, sympy.MatrixSymbol):
                for n in node.shape:
                    sizes |= set(sympy.sympify(n).free_symbols)
            elif isinstance(node, sympy.Sum):
                for _, low, high in node.limits:
                    sizes |= set(low.free_symbols) | set(high.free_symbols)
            elif isinstance(node, (lang.BlockDiagonal, lang.Stacked)):
                sizes |= set(node.count.free_symbols)
        free: set = getattr(expression, "free_symbols", set())
        scalars |= {s for s in free if isinstance(s, sympy.Symbol) and not isinstance(s, sympy.MatrixSymbol)}
        matrices |= {s for s in free if isinstance(s, sympy.MatrixSymbol)}
    for m in list(matrices):
        for n in m.shape:
            scalars |= set(sympy.sympify(n).free_symbols)
    order = sympy.default_sort_key
    return sorted(scalars, key=order), sorted(matrices, key=order), sizes & scalars


@dataclass
class NumericVerdict:
    confirmed: int = 0
    counterexample: dict | None = None
    refusal: str = ""
    kind: str = ""
    inside: bool | None = None  # whether every condition holds at the counterexample


def _conditions_at(conditions, point) -> bool | None:
    state: bool | None = True
    for written in conditions:
        holds = numeric.relation_at(sympy.Unequality(written, 0, evaluate=False), point)
        if holds is False:
            return False
        if holds is None:
            state = None
    return state


def _shown_point(point) -> dict:
    out = dict(point.shown)
    for (name, args), value in point.functions.items():
        text = point.function_text.get((name, args))
        out[f"{name}({', '.join(str(numeric.shown(a)) for a in args)})"] = text or numeric.shown(value)
    return out


def _side(expression, point):
    """``(value, None)``, or ``(None, "undefined")`` where it certainly is, ``(None, "ambiguous")``."""
    try:
        return numeric.evaluate(expression, point), None
    except numeric.Undefined:
        return None, "undefined"
    except numeric.Ambiguous:
        return None, "ambiguous"


def numeric_certificate(
    lhs,
    rhs,
    relation: str,
    hypotheses,
    conditions,
    wanted: int,
    *,
    stop_at_counterexample=True,
    extra: int = 0,
    precisions: tuple = (113, 400),
) -> NumericVerdict:
    """Evaluate both sides at points of the domain: how many confirm the relation, a counterexample, or why the
    step is refused (a side undefined or not enclosed where every condition holds).

    A counterexample is a point where the sides are certified different (``kind`` "differ") or where exactly
    one side is certainly undefined ("lhs undefined", "rhs undefined").
    """
    scalars, matrices, sizes = _symbols([lhs, rhs, *hypotheses])
    verdict = NumericVerdict()
    found = numeric.points(scalars, matrices, sizes, hypotheses, wanted, extra=extra, largest=6 if extra else 4)
    if not scalars and not matrices:
        found = iter([numeric.Point({}, {}, 0)])
    for point in found:
        state = _conditions_at(conditions, point)
        outcome, problems = None, (None, None)
        for bits in precisions:
            with numeric.working_precision(bits):
                try:
                    (left, lhs_problem), (right, rhs_problem) = _side(lhs, point), _side(rhs, point)
                    problems = (lhs_problem, rhs_problem)
                    outcome = None if (lhs_problem or rhs_problem) else _judge(left, right, relation)
                except (ZeroDivisionError, OverflowError, ValueError) as problem:
                    verdict.refusal = f"evaluation failed at {_shown_point(point)}: {problem}"
                    return verdict
            if outcome != "unknown":
                break
        one_undefined = sorted(p or "defined" for p in problems) == ["defined", "undefined"]
        if relation == "=" and one_undefined and verdict.counterexample is None:
            side = "lhs" if problems[0] == "undefined" else "rhs"
            verdict.counterexample, verdict.kind = _shown_point(point), f"{side} undefined"
            verdict.inside = state
        if outcome is None:
            if state is True and relation == "=" and not verdict.refusal:
                verdict.refusal = (
                    f"a side is {'undefined' if 'undefined' in problems else 'not enclosed'} at "
                    f"{_shown_point(point)} where every condition holds"
                )
            continue
        if outcome == "violated" and state is not None and (verdict.kind != "differ" or not verdict.counterexample):
            verdict.counterexample, verdict.kind, verdict.inside = _shown_point(point), "differ", state
            if stop_at_counterexample:
                return verdict
        elif outcome == "holds" and state is True:
            verdict.confirmed += 1
    return verdict


def _gap(lhs, rhs):
    """``rhs - lhs`` as written (unevaluated): what an inequality says is positive or nonnegative."""
    return sympy.Add(rhs, sympy.Mul(sympy.S.NegativeOne, lhs, evaluate=False), evaluate=False)


def _shown_real(translator: Translator, side) -> bool:
    """Whether the normal form shows ``side`` real at every point of the domain."""
    value = translator.scalar(side, {})
    return translator.real_poly(value.num) and (not value.den or translator.real_poly(value.den))


def _judge(left, right, relation: str) -> str:
    if relation == "=":
        return {"equal": "holds", "differ": "violated", "unknown": "unknown"}[numeric.compare(left, right)]
    if isinstance(left, list) or isinstance(right, list):
        return "unknown"
    if relation == "!=":  # complex values may differ too
        same = numeric.compare(left, right)
        return (
            "holds"
            if same == "differ"
            else "violated"
            if same == "equal" and isinstance(numeric.add(left, numeric.neg(right)), Fraction)
            else "unknown"
        )
    try:
        order = numeric.compare_real(left, right)
    except numeric.Undefined:  # a side certainly not real: no order holds between the two values
        return "violated"
    except numeric.Ambiguous:
        return "unknown"
    if order is None:
        if relation == "<=" and numeric.compare(left, right) == "equal":
            return "holds"
        return "unknown"
    if relation == "<":
        return "holds" if order < 0 else "violated"
    return "holds" if order <= 0 else "violated"


# --------------------------------------------------------------------------
# deciding


def _decide(lhs, rhs, relation: str, hypotheses: tuple, control: bool, quick: bool = False) -> Decision:
    for hypothesis in hypotheses:
        if not isinstance(hypothesis, sympy.core.relational.Relational):
            raise TypeError(f"a hypothesis must be a SymPy relational; got {hypothesis!r}")
    _one_symbol_a_name(lhs, rhs, *hypotheses)
    _functions_read(lhs, rhs, *hypotheses)
    if control and _ONE_CERTIFICATE.get():
        # one certificate: a control that the intervals refute at a point is rejected on that alone (the
        # symbolic procedures, which could only add a cross-check, are not run on it)
        verdict = numeric_certificate(lhs, rhs, relation, tuple(hypotheses), [], CONTROL_POINTS, extra=8)
        if verdict.kind == "differ":
            residual = difference_of(lhs, rhs) if relation == "=" else _gap(lhs, rhs)
            where = str(verdict.counterexample)
            return Decision(False, residual, "counterexample", where=where, counterexample=verdict.counterexample)
    extra: list = []
    if relation == "=":
        difference = difference_of(lhs, rhs)
        shown_zero, shown_nonzero, analysis = _procedures(difference, hypotheses)
        residual = difference
    else:
        gap = _gap(lhs, rhs)
        analysis = analyse(gap, tuple(hypotheses))
        shown_zero, shown_nonzero, residual = [], [], gap
        if analysis.zero is not None and analysis.value is not None:
            translator = analysis.translator
            wanted = {"<": ("pos",), "<=": ("pos", "nonneg", "zero"), "!=": ("pos", "neg", "nonzero")}[relation]
            try:
                sign = translator.written_sign(gap)
                if relation != "!=" and not (_shown_real(translator, lhs) and _shown_real(translator, rhs)):
                    sign = None  # an order between values not shown real: a real gap says nothing (I < I + 1)
            except (Refused, NeedSplit, NeedResidue):
                sign = None
            if sign in wanted:
                shown_zero = ["signs"]
    conditions = [written for written, _ in analysis.conditions] if analysis.zero is not None else []
    if analysis.zero is None and shown_zero:
        # a procedure says yes, but the kernel cannot read the statement: no conditions can be stated
        shown_zero = []
    symbolic = bool(shown_zero) and not shown_nonzero
    if symbolic and not control and _ONE_CERTIFICATE.get():
        stated = tuple(sympy.Unequality(c, 0, evaluate=False) for c in conditions)
        method = "+".join(shown_zero) + "; intervals skipped (one certificate)"
        return Decision(True, sympy.S.Zero, method, conditions=stated)
    wanted_points = CONTROL_POINTS if control else STEP_POINTS
    verdict = numeric_certificate(
        lhs, rhs, relation, tuple(hypotheses), conditions, wanted_points, extra=8 if control else 0
    )
    if relation == "<=" and not symbolic and analysis.zero is not None and verdict.kind != "differ":
        rule, extra = _inequality_rules(lhs, rhs, tuple(hypotheses))
        if rule:
            symbolic, shown_zero = True, [rule]
            conditions += [c for c in extra if c not in conditions]
            if extra:  # the numeric certificate again, now knowing the rule's conditions
                verdict = numeric_certificate(lhs, rhs, relation, tuple(hypotheses), conditions, wanted_points)
    stated = tuple(sympy.Unequality(c, 0, evaluate=False) for c in conditions)
    wider = not quick and (
        (not symbolic and verdict.kind != "differ") or (symbolic and stated and not verdict.counterexample)
    )
    if wider:  # not proved (or only where the conditions hold): look wider, and with more digits
        sharper = numeric_certificate(
            lhs, rhs, relation, tuple(hypotheses), conditions, CONTROL_POINTS, extra=24, precisions=(400,)
        )
        if sharper.kind == "differ" or (sharper.counterexample and not verdict.counterexample):
            verdict.counterexample, verdict.kind, verdict.inside = sharper.counterexample, sharper.kind, sharper.inside
    if verdict.kind == "differ":
        if symbolic and verdict.inside is True:
            return Decision(
                False,
                residual,
                "kernel inconsistency: " + ", ".join(shown_zero) + " showed it, the intervals refute it",
                where=str(verdict.counterexample),
                counterexample=verdict.counterexample,
            )
        if not symbolic:
            return Decision(
                False,
                residual,
                "counterexample",
                where=str(verdict.counterexample),
                counterexample=verdict.counterexample,
            )
    if not symbolic:
        reason = analysis.reason or "undecided: the normal form of the difference is not 0"
        if relation != "=" and analysis.zero is not None:
            reason = f"undecided: the rules of signs do not show {relation}"
        if verdict.refusal and not analysis.reason:
            reason = "refused: " + verdict.refusal
        if verdict.counterexample is not None:
            reason = f"counterexample ({verdict.kind}); " + reason
        return Decision(False, residual, reason, conditions=stated, counterexample=verdict.counterexample)
    # a proof: the counterexample, if any, lies outside the conditions (a side undefined, or a divisor 0)
    if verdict.refusal:
        return Decision(
            False, residual, "refused: " + verdict.refusal, conditions=stated, counterexample=verdict.counterexample
        )
    if verdict.confirmed < MIN_POINTS and not _closed(lhs, rhs, verdict):
        return Decision(
            False,
            residual,
            f"refused: the intervals confirmed it at {verdict.confirmed} point(s) only",
            conditions=stated,
            counterexample=verdict.counterexample,
        )
    method = "+".join(shown_zero) + f"; intervals at {verdict.confirmed} point(s)"
    return Decision(True, sympy.S.Zero, method, conditions=stated, counterexample=verdict.counterexample)


def _one_symbol_a_name(*expressions) -> None:
    """Refuse two different symbols of one name (``x`` real and ``x`` positive): a counterexample, keyed by
    name, could not say which one it sets."""
    seen: dict = {}
    for expression in expressions:
        for symbol in getattr(expression, "free_symbols", ()):
            other = seen.setdefault(str(symbol), symbol)
            if other is not symbol and (other != symbol or type(other) is not type(symbol)):
                raise Refused(f"two different symbols are both named {symbol}: name them apart")


#: What a ``sympy.Function(name, ...)`` may be declared, as SymPy records it (each declaration with all it
#: implies): nothing (complex values), ``real=True`` or ``positive=True``, the domains the kernel reads.
_FUNCTION_DECLARATIONS = tuple(
    dict(getattr(sympy.Function("probe", **declared), "_kwargs", {}) or {})
    for declared in ({}, {"real": True}, {"positive": True})
)


def _functions_read(*expressions) -> None:
    """Refuse an arbitrary function declared with assumptions the kernel does not read: its values would be
    sampled, and reasoned about, outside what the declaration allows (an ``integer`` function at 8/9, an
    ``infinite`` one at finite values, non-commuting values multiplied as numbers)."""
    for expression in expressions:
        for node in _walk(expression):
            if not isinstance(node, AppliedUndef):
                continue
            declared = dict(getattr(type(node), "_kwargs", {}) or {})
            if declared not in _FUNCTION_DECLARATIONS:
                shown = ", ".join(f"{k}={v!r}" for k, v in sorted(declared.items()) if v is not None)
                raise Refused(
                    f"the function {type(node).__name__} is declared with assumptions the kernel does not read "
                    f"({_short(shown)}): declare nothing, real=True or positive=True (or use "
                    "language.undefined_function)"
                )


def _procedures(difference, hypotheses) -> tuple[list, list, Analysis]:
    """Every procedure's answer on ``difference`` under ``hypotheses``: (shown zero by, shown nonzero by, the
    normal form's analysis, for its conditions)."""
    context = _Context(tuple(hypotheses))
    token = _CONTEXT.set(context)
    try:
        answers = {name: procedure(difference) for name, procedure in PROCEDURES.items()}
    finally:
        _CONTEXT.reset(token)
    analysis = context.analyses.get(id(difference), (None, None))[1] or analyse(difference, tuple(hypotheses))
    shown_zero = [name for name, answer in answers.items() if answer is True]
    shown_nonzero = [name for name, answer in answers.items() if answer is False]
    return shown_zero, shown_nonzero, analysis


def _inequality_rules(lhs, rhs, hypotheses: tuple) -> tuple[str | None, list]:
    """``lhs <= rhs`` by one of two stated rules, when the rules of signs do not show it: (the rule, the
    conditions it needs)."""
    for rule in (_triangle, _termwise):
        conditions = rule(lhs, rhs, hypotheses)
        if conditions is not None:
            return rule.__name__.strip("_"), conditions
    return None, []


def _bounded_by(term):
    """``u`` with ``|u| <= term`` by the written form of ``term``: ``|u|``; ``c |a| |b| ...`` (``c >= 0``
    rational) bounds ``|c a b ...|``; ``Sum(t, (j, a, b))`` bounds ``|Sum(u, (j, a, b))|`` when ``t`` bounds
    ``|u|`` and ``b - a + 1 >= 0`` (the normal form refuses a symbolic sum whose count it cannot show
    ``>= 0``, and the caller reads ``u``'s sums through it).  Else None."""
    if isinstance(term, sympy.Abs):
        return term.args[0]
    if isinstance(term, sympy.Mul):
        factors = []
        for factor in term.args:
            if isinstance(factor, sympy.Abs):
                factors.append(factor.args[0])
            elif isinstance(factor, sympy.Rational) and factor >= 0:
                factors.append(factor)
            else:
                return None
        return sympy.Mul(*factors, evaluate=False)
    if isinstance(term, sympy.Sum) and len(term.limits) == 1:
        inner = _bounded_by(term.function)
        return None if inner is None else sympy.Sum(inner, term.limits[0])
    return None


def _triangle(lhs, rhs, hypotheses: tuple) -> list | None:
    """Rule (the triangle inequality): ``|X| <= t_1 + ... + t_k`` when each written ``t_i`` bounds ``|u_i|``
    (:func:`_bounded_by`) and the procedures show ``X - (+-u_1 +- ... +- u_k) = 0`` for some signs
    (``|-u| = |u|``; at most 4 pieces).  The conditions of that equation are the rule's."""
    if not isinstance(lhs, sympy.Abs):
        return None
    pieces = [_bounded_by(term) for term in sympy.Add.make_args(rhs)]
    if any(piece is None for piece in pieces) or len(pieces) > 4:
        return None
    for piece in pieces:  # every sum's count must be shown >= 0, also for sums the equation cancels
        for node in _walk(piece):
            if isinstance(node, sympy.Sum) and not _count_shown(node.limits[-1], hypotheses):
                return None
    for signs in range(2 ** len(pieces)):
        signed = [
            piece if not (signs >> k) & 1 else sympy.Mul(sympy.S.NegativeOne, piece, evaluate=False)
            for k, piece in enumerate(pieces)
        ]
        difference = difference_of(lhs.args[0], sympy.Add(*signed, evaluate=False))
        shown_zero, shown_nonzero, analysis = _procedures(difference, hypotheses)
        if shown_zero and not shown_nonzero and analysis.zero is not None:
            return [written for written, _ in analysis.conditions]
    return None


def _count_shown(limit, hypotheses: tuple) -> bool:
    """``b - a + 1 >= 0`` for the limit ``(j, a, b)``, decided by the kernel (both certificates)."""
    _, low, high = limit
    below = sympy.Add(low, sympy.S.NegativeOne, evaluate=False)
    decision = _decide(below, high, "<=", hypotheses, False, quick=True)
    return decision.proved and not decision.conditions


def _sum_factor(side):
    """``(c, Sum(f, (j, a, b)))`` for a term written ``c * Sum(...)`` with one sum of one limit; else None."""
    if isinstance(side, sympy.Sum):
        return sympy.S.One, side
    if isinstance(side, sympy.Mul):
        sums = [factor for factor in side.args if isinstance(factor, sympy.Sum)]
        if len(sums) == 1:
            rest = [factor for factor in side.args if factor is not sums[0]]
            return sympy.Mul(*rest, evaluate=False), sums[0]
    return None


def _termwise(lhs, rhs, hypotheses: tuple) -> list | None:
    """Rule (sums compare termwise): ``A + c Sum(f, (j, a, b)) <= A + c' Sum(g, (i, a, b))`` when
    ``b - a + 1 >= 0`` and, for a fresh integer ``j0`` with ``a <= j0 <= b``, the kernel decides
    ``c f(j0) <= c' g(j0)`` (both certificates, no conditions left).  The terms ``A`` are the written terms
    the two sides share.  In that decision a term ``max_{a <= l <= b} e(l)`` (:class:`~..language.Largest`,
    same limits) comes with the hypothesis ``e(j0) <= max_{a <= l <= b} e(l)``: the largest value is at least
    each value."""
    left, right = list(sympy.Add.make_args(lhs)), list(sympy.Add.make_args(rhs))
    for term in list(left):
        if term in right:
            left.remove(term)
            right.remove(term)
    if len(left) != 1 or len(right) != 1:
        return None
    found_left, found_right = _sum_factor(left[0]), _sum_factor(right[0])
    if found_left is None or found_right is None:
        return None
    (c, first), (c2, second) = found_left, found_right
    if len(first.limits) != 1 or len(second.limits) != 1:
        return None
    (j, a, b), (i, a2, b2) = first.limits[0], second.limits[0]
    if a != a2 or b != b2 or not _count_shown(first.limits[0], hypotheses):
        return None
    j0 = sympy.Dummy("j", integer=True)
    f = sympy.Mul(c, instantiate(first.function, {j: j0}), evaluate=False)
    g = sympy.Mul(c2, instantiate(second.function, {i: j0}), evaluate=False)
    inside = (sympy.LessThan(a, j0, evaluate=False), sympy.LessThan(j0, b, evaluate=False))
    largest = tuple(
        sympy.LessThan(instantiate(node.body, {node.index: j0}), node, evaluate=False)
        for node in {*_walk(f), *_walk(g)}
        if isinstance(node, lang.Largest) and node.low == a and node.high == b
    )
    decision = _decide(f, g, "<=", (*hypotheses, *inside, *largest), False, quick=True)
    return [] if decision.proved and not decision.conditions else None


def _closed(lhs, rhs, verdict) -> bool:
    """A statement without symbols has one point: confirming it there is enough."""
    scalars, matrices, _ = _symbols([lhs, rhs])
    return not scalars and not matrices and verdict.confirmed >= 1


def _timed_out(lhs, rhs) -> Decision:
    return Decision(False, sympy.nan, "undecided (time bound)")


def decide(
    lhs, rhs, relation: str = "=", hypotheses: Iterable = (), *, time_bound: float | None = None, control: bool = False
) -> Decision:
    """Decide ``lhs relation rhs`` for every point of the declared domain that satisfies ``hypotheses``.

    Never raises on a statement (a refusal is a Decision); runs under
    ``time_bound`` CPU seconds (default :data:`posenc_math.theorems.TIME_BOUND`).
    """
    if relation not in ("=", "<", "<=", "!="):
        raise ValueError(f"relation must be one of =, <, <=, !=; got {relation!r}")
    for side, name in ((lhs, "lhs"), (rhs, "rhs")):
        _accepted(side, name)
    lhs, rhs = (sympy.sympify(side) if isinstance(side, (int, Fraction)) else side for side in (lhs, rhs))
    hypotheses = tuple(hypotheses)
    seconds = TIME_BOUND if time_bound is None else time_bound

    def run() -> Decision:
        try:
            return _decide(lhs, rhs, relation, hypotheses, control)
        except Refused as refusal:
            return Decision(False, sympy.nan, f"refused: {refusal}")
        except (
            RecursionError,
            MemoryError,
            ValueError,
            OverflowError,
            ZeroDivisionError,
            TypeError,
            AttributeError,
            IndexError,
            KeyError,
            NotImplementedError,
        ) as error:
            return Decision(False, sympy.nan, f"refused: {type(error).__name__}: {_short(str(error))}")

    died = Decision(False, sympy.nan, "refused: the checking process died")
    return bounded(run, seconds, _timed_out(lhs, rhs), died)


def _accepted(side, name: str) -> None:
    if isinstance(side, bool) or not isinstance(side, (sympy.Basic, sympy.MatrixBase, int, Fraction)):
        if type(side).__module__ == "numpy" and getattr(side, "shape", None) == ():
            return
        raise TypeError(
            f"{name} must be a SymPy expression, a SymPy Matrix or an exact number (int, Fraction); "
            f"got {type(side).__name__}"
        )


def decide_equal(lhs, rhs, *, time_bound: float | None = None) -> Decision:
    """Decide ``lhs == rhs`` on the declared domain (the symbols' own assumptions).

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> x = symbols("x", real=True)
    >>> decide_equal(sin(2 * x), 2 * sin(x) * cos(x)).proved
    True
    >>> wrong = decide_equal(sin(2 * x), sin(x) * cos(x))
    >>> wrong.proved, wrong.counterexample is not None
    (False, True)
    >>> from sympy import Mul, Pow
    >>> decide_equal(Mul(x, Pow(x, -1, evaluate=False), evaluate=False), 1).conditions  # x/x, as written
    (Ne(x, 0),)
    """
    if type(lhs).__module__ == "numpy":
        lhs = sympy.sympify(lhs.item())
    if type(rhs).__module__ == "numpy":
        rhs = sympy.sympify(rhs.item())
    return decide(lhs, rhs, "=", time_bound=time_bound)


def decide_zero(expr, *, time_bound: float | None = None) -> Decision:
    """Decide ``expr == 0`` (a scalar or an explicit matrix)."""
    zero = sympy.zeros(*expr.shape) if isinstance(expr, sympy.MatrixBase) else sympy.S.Zero
    if isinstance(expr, MatrixExpr) and not isinstance(expr, sympy.MatrixBase):
        zero = sympy.ZeroMatrix(*expr.shape)
    return decide(expr, zero, "=", time_bound=time_bound)


# --------------------------------------------------------------------------
# steps, instances, facts, conclusions, controls


class Checked:
    """A certificate that ``lhs relation rhs`` holds under ``hypotheses``: only this module makes them."""

    __slots__ = ("establishes", "hypotheses", "lhs", "relation", "rhs")

    def __init__(self, token, lhs, relation, rhs, hypotheses, establishes=None):
        if token is not _TOKEN:
            raise TypeError("only the kernel makes Checked certificates")
        self.lhs, self.relation, self.rhs = lhs, relation, rhs
        self.hypotheses, self.establishes = frozenset(hypotheses), establishes


_TOKEN = object()


def check_step(lhs, relation: str, rhs, hypotheses: Iterable = ()) -> tuple[Decision, Checked | None]:
    """Decide a step; a certificate only when it is proved with no condition left over."""
    hypotheses = tuple(hypotheses)
    decision = decide(lhs, rhs, relation, hypotheses)
    if decision.proved and decision.conditions:
        shown = ", ".join(sympy.sstr(c) for c in decision.conditions)
        return Decision(
            False,
            decision.residual,
            f"refused: holds only where {shown}, which the hypotheses do not imply",
            conditions=decision.conditions,
        ), None
    if not decision.proved:
        return decision, None
    return decision, Checked(_TOKEN, lhs, relation, rhs, hypotheses)


def check_fact(claim: str, check: Callable[[], object], establishes=None) -> tuple[Decision, Checked | None]:
    """Run a computed fact: it holds when ``check()`` returns exactly ``True`` within the time bound (a
    computation still running after :data:`~posenc_math.theorems.TIME_BOUND` CPU seconds is refused)."""
    outcome = _computed(claim, check)
    if outcome is None:
        return Decision(False, sympy.nan, f"refused: the computation ran past the time bound ({TIME_BOUND:g} s)"), None
    if not outcome:
        return Decision(False, sympy.S.false, "refuted"), None
    return Decision(True, sympy.S.Zero, "computation"), Checked(_TOKEN, None, "fact", None, (), establishes)


def _computed(claim: str, check: Callable[[], object]) -> bool | None:
    """``check()`` under the time bound: True or False, None when it ran out of time (``TypeError`` for
    anything but a bool)."""
    over = object()
    outcome = bounded(check, TIME_BOUND, over, over)
    if outcome is over:
        return None
    if not isinstance(outcome, bool):
        raise TypeError(
            f"the check of the fact {claim!r} returned {type(outcome).__name__} {outcome!r}; it must return a bool"
        )
    return outcome


def judge_fact_control(
    claim: str, check: Callable[[], object], counterexample, computed: bool
) -> tuple[str, dict | None, str]:
    """Judge a negative control that is a computed fact: ``(verdict, counterexample, why)``.

    Allowed only for a theorem whose conclusions rest on computed facts
    (``computed``: its scope is not ``"general"``); a general theorem's
    control must be a conclusion that :func:`judge_control` refutes with a
    certified counterexample.  The fact must name where it fails
    (``counterexample``, a non-empty dict, shown as given: no interval can
    certify a computation) and its check must return exactly ``False``.
    """
    if not computed:
        return "undecided", None, "a general theorem's control must be a conclusion, refuted with a certified point"
    if not isinstance(counterexample, dict) or not counterexample:
        return "undecided", None, "a computed control must name where it fails (Fact(..., counterexample={...}))"
    outcome = _computed(claim, check)
    if outcome is None:
        return "undecided", None, f"the computation ran past the time bound ({TIME_BOUND:g} s)"
    return (
        ("accepted", None, "the computed fact that should be false holds")
        if outcome
        else (
            "rejected",
            dict(counterexample),
            "",
        )
    )


def instantiate(expression, mapping: dict):
    """``expression`` with symbols replaced, rebuilt node by node without evaluation (as written)."""
    if not mapping:
        return expression
    if isinstance(expression, sympy.MatrixBase):
        return sympy.ImmutableMatrix(expression.rows, expression.cols, [instantiate(e, mapping) for e in expression])
    if not isinstance(expression, sympy.Basic):
        return expression
    if expression in mapping:
        return mapping[expression]
    if not expression.args or isinstance(expression, (sympy.Symbol, lang.Definition)):
        return expression
    if isinstance(expression, sympy.Sum):
        bound = {limit[0] for limit in expression.limits}
        inner = {k: v for k, v in mapping.items() if k not in bound}
        limits = [(i, instantiate(a, inner), instantiate(b, inner)) for i, a, b in expression.limits]
        return sympy.Sum(instantiate(expression.function, inner), *limits)
    if isinstance(expression, lang.Largest):
        inner = {k: v for k, v in mapping.items() if k != expression.index}
        return lang.Largest(
            instantiate(expression.body, inner),
            (expression.index, instantiate(expression.low, mapping), instantiate(expression.high, mapping)),
        )
    if isinstance(expression, (lang.BlockDiagonal, lang.Stacked)):
        inner = {k: v for k, v in mapping.items() if k != expression.index}
        return type(expression)(
            expression.index, instantiate(expression.count, mapping), instantiate(expression.block, inner)
        )
    args = [instantiate(arg, mapping) for arg in expression.args]
    if isinstance(expression, (sympy.Add, sympy.Mul, sympy.Pow, sympy.MatMul, sympy.MatAdd, sympy.Function)):
        try:
            return expression.func(*args, evaluate=False)
        except TypeError:
            return expression.func(*args)
    return expression.func(*args)


def _key(side):
    if isinstance(side, sympy.MatrixBase):
        return sympy.ImmutableMatrix(side)
    return sympy.sympify(side)


def established(conclusion_lhs, relation: str, conclusion_rhs, hypotheses, certificates: list[Checked]) -> bool:
    """Whether checked steps connect the two sides: equations by chains of ``=``, inequalities by chains of
    ``=``, ``<=``, ``<`` (strict if one link is), ``!=`` by one link between sides equal to the conclusion's.

    A step counts only when its hypotheses are among the conclusion's.
    """
    allowed = frozenset(hypotheses)
    edges = [c for c in certificates if c.relation != "fact" and c.hypotheses <= allowed]
    start, goal = _key(conclusion_lhs), _key(conclusion_rhs)
    if relation == "=" and start == goal:
        return True
    equal_links: dict = {}
    for c in edges:
        if c.relation == "=":
            a, b = _key(c.lhs), _key(c.rhs)
            equal_links.setdefault(a, set()).add(b)
            equal_links.setdefault(b, set()).add(a)

    def same(a) -> set:
        seen, stack = {a}, [a]
        while stack:
            for b in equal_links.get(stack.pop(), ()):
                if b not in seen:
                    seen.add(b)
                    stack.append(b)
        return seen

    if relation == "=":
        return goal in same(start)
    if relation == "!=":
        left, right = same(start), same(goal)
        return any(
            c.relation == "!="
            and ((_key(c.lhs) in left and _key(c.rhs) in right) or (_key(c.lhs) in right and _key(c.rhs) in left))
            for c in edges
        )
    # <= and <: a search over (node, strict so far)
    frontier, seen = [(node, False) for node in same(start)], set()
    while frontier:
        node, strict = frontier.pop()
        if (node, strict) in seen:
            continue
        seen.add((node, strict))
        if node in same(goal) and (strict or relation == "<="):
            return True
        for c in edges:
            if c.relation in ("<", "<=") and _key(c.lhs) == node:
                for nxt in same(_key(c.rhs)):
                    frontier.append((nxt, strict or c.relation == "<"))
    return False


def _nodes(expression) -> list:
    if isinstance(expression, sympy.MatrixBase):
        return [sympy.ImmutableMatrix(expression)]
    return [expression]


def _replacements(a, b, found: set) -> None:
    """Collect ``(old, new)`` at the outermost positions where ``a`` and ``b`` differ (terms of sums and factors
    of products matched regardless of order; one term added or dropped is one replacement)."""
    a, b = _key(a), _key(b)
    if a == b:
        return
    same_shape = type(a) is type(b) and len(a.args) == len(b.args) and a.args and not isinstance(a, sympy.Symbol)
    if isinstance(a, sympy.MatrixBase) and isinstance(b, sympy.MatrixBase) and a.shape != b.shape:
        same_shape = False
    if isinstance(a, (sympy.Add, sympy.Mul)) and not isinstance(a, sympy.MatMul) and type(a) is type(b):
        left, right = list(a.args), list(b.args)
        for x in list(left):
            if x in right:
                left.remove(x)
                right.remove(x)
        if len(left) == len(right) == 1:
            _replacements(left[0], right[0], found)
            return
        if len(left) + len(right) == 1:
            found.add((tuple(left), tuple(right)))
            return
        found.add((a, b))
        return
    if not same_shape:
        found.add((a, b))
        return
    if sorted(map(sympy.default_sort_key, a.args)) == sorted(map(sympy.default_sort_key, b.args)):
        found.add((a, b))  # the same parts in another order (a product's factors swapped): one change
        return
    for x, y in zip(a.args, b.args, strict=True):
        _replacements(x, y, found)


def one_change(a, b) -> int:
    """How many distinct replacements turn ``a`` into ``b`` (0: identical).

    One subexpression replaced by another, wherever it occurs (a frequency
    off, a sign flipped, a transpose dropped), counts as one.
    """
    found: set = set()
    _replacements(a, b, found)
    return len(found)


def judge_control(control_lhs, relation: str, control_rhs, hypotheses, conclusions) -> tuple[str, dict | None, str]:
    """``("rejected", counterexample, "")`` when the control is a one-change variant of a conclusion and a
    certified counterexample refutes it; else ``("accepted" | "undecided" | "not a variant", None, why)``.

    ``conclusions`` are ``(lhs, relation, rhs, hypotheses)``: a change of hypotheses counts as one change.
    """

    def changes_from(lhs, rel, rhs, assumed=()) -> int:
        found: set = set()
        _replacements(control_lhs, lhs, found)
        _replacements(control_rhs, rhs, found)
        swapped: set = set()  # the two sides exchanged (an inequality reversed) is one change
        _replacements(control_lhs, rhs, swapped)
        _replacements(control_rhs, lhs, swapped)
        changed = min(len(found) + (rel != relation), len(swapped) + 1)
        return changed + (frozenset(assumed) != frozenset(hypotheses))

    changes = min((changes_from(*conclusion) for conclusion in conclusions), default=99)
    if changes != 1:
        return (
            "not a variant",
            None,
            (f"the control differs from every conclusion in {changes} places; it must change exactly one thing"),
        )
    decision = decide(control_lhs, control_rhs, relation, tuple(hypotheses), control=True)
    if decision.proved:
        return "accepted", None, "the kernel proved the wrong variant"
    if decision.counterexample is not None and decision.method == "counterexample":
        return "rejected", decision.counterexample, ""
    return "undecided", None, decision.method


# --------------------------------------------------------------------------
# the self-test


def _battery() -> list:
    """Known-false identities (as differences) in every class the procedures read."""
    x, y = sympy.symbols("x y", real=True)
    z = sympy.Symbol("z")
    u = sympy.Symbol("u", positive=True)
    n = sympy.Symbol("n", integer=True, positive=True)
    j = sympy.Symbol("j", integer=True)
    d = sympy.Symbol("d", even=True, positive=True)
    f = lang.undefined_function("f_test", real=True)
    X, Y = sympy.MatrixSymbol("X", n, n), sympy.MatrixSymbol("Y", n, n)
    P = lang.PermutationSymbol("P", n, n)
    q = sympy.MatrixSymbol("q", 2, 1)
    block = sympy.Matrix([[sympy.cos(j * x), sympy.sin(j * x)], [-sympy.sin(j * x), sympy.cos(j * x)]])
    pairs = [
        (x + 1, x),
        (sympy.sin(x) ** 2, sympy.cos(x) ** 2),
        (sympy.sin(x + y), sympy.sin(x) * sympy.cos(y) - sympy.cos(x) * sympy.sin(y)),
        (sympy.exp(x + y), sympy.exp(x) + sympy.exp(y)),
        (sympy.log(z * y), sympy.log(z) + sympy.log(y)),
        (sympy.sqrt(x**2), x),
        (sympy.cos(sympy.pi / 7), sympy.Rational(9, 10)),
        (sympy.Sum(j, (j, 0, n - 1)), n**2 / 2),
        (sympy.Sum(1, (j, 0, d / 2 - 1)), d),
        (sympy.Abs(x), x),
        (sympy.floor(x / 2), x / 2),
        (sympy.floor(j / 2) + sympy.floor((j + 1) / 2), j + 1),
        (u ** sympy.Rational(1, 3), u / 3),
        (f(j + 1), f(j)),
        (sympy.Mul(X, Y), sympy.Mul(Y, X)),
        (sympy.Transpose(P), P),
        (lang.RowSoftmax(sympy.MatMul(P, X)), sympy.MatMul(P, lang.RowSoftmax(X))),
        (lang.BlockDiagonal(j, n, block), lang.BlockDiagonal(j, n, block.T)),
        (sympy.MatMul(sympy.Transpose(q), q), sympy.ImmutableMatrix([[0]])),
        (sympy.Matrix([[x, 1], [0, x]]) ** 2, sympy.Matrix([[x**2, 1], [0, x**2]])),
    ]
    return [difference_of(a, b) for a, b in pairs]


def _inequality_battery() -> list:
    """Known-false inequalities ``lhs <= rhs`` of the shapes the inequality rules read."""
    x, y = sympy.symbols("x y", real=True)
    n = sympy.Symbol("n", integer=True)
    m = sympy.Symbol("m", integer=True, positive=True)
    j = sympy.Symbol("j", integer=True)
    f = lang.undefined_function("f_test")
    half = sympy.Rational(1, 2)
    return [
        (sympy.Abs(x + 2 * y), sympy.Abs(x) + sympy.Abs(y)),
        (sympy.Abs(x + y), sympy.Abs(x) * sympy.Abs(y)),
        (sympy.Abs(sympy.Sum(f(j), (j, 0, n))), sympy.Sum(sympy.Abs(f(j)), (j, 0, n))),
        (sympy.Sum(sympy.Abs(f(j)), (j, 0, m - 1)), sympy.Sum(half * sympy.Abs(f(j)), (j, 0, m - 1))),
        (sympy.Sum(sympy.Abs(f(j)), (j, 0, m)), sympy.Sum(sympy.Abs(f(j)), (j, 0, m - 1))),
    ]


_SELF_TEST: dict = {}


def self_test() -> list[str]:
    """Failures of the procedures on known-false identities (empty: the kernel passed).

    Every procedure in ``kernel.PROCEDURES`` is asked about every difference;
    an answer ``True`` ("shown zero") to any of them is a failure.  The
    inequality rules (triangle, termwise) are asked about known-false
    inequalities.  Cached for the procedures as they are now.
    """
    key = tuple((name, id(procedure)) for name, procedure in PROCEDURES.items())
    if key in _SELF_TEST:
        return _SELF_TEST[key]

    def run() -> list[str]:
        failures = []
        for difference in _battery():
            context = _Context()
            token = _CONTEXT.set(context)
            try:
                for name, procedure in PROCEDURES.items():
                    try:
                        answer = procedure(difference)
                    except Exception as error:
                        failures.append(f"procedure {name!r} crashed on {_short(difference)}: {error}")
                        continue
                    if answer is True:
                        failures.append(f"procedure {name!r} proved the false identity {_short(difference)} = 0")
            finally:
                _CONTEXT.reset(token)
        for lhs, rhs in _inequality_battery():
            for rule in (_triangle, _termwise):
                try:
                    shown = rule(lhs, rhs, ()) is not None
                except Exception as error:
                    failures.append(f"rule {rule.__name__} crashed on {_short(lhs)} <= {_short(rhs)}: {error}")
                    continue
                if shown:
                    failures.append(f"rule {rule.__name__} proved the false {_short(lhs)} <= {_short(rhs)}")
        return failures

    failures = bounded(run, 10 * TIME_BOUND, ["the self-test ran out of time"])
    _SELF_TEST[key] = failures
    return failures
