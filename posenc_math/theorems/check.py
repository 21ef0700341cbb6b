"""The decision procedure: is ``lhs - rhs`` exactly zero?

A step of a derivation is accepted only when the difference ``E`` of its two
sides is *proved* to vanish.  There is no "probably equal": whatever the
procedure cannot bring to 0 is reported as undecided, which counts as a
failure.  ``simplify()`` is never called: it is a heuristic, not a proof
procedure.

What "proved" means
-------------------
``E`` vanishes at every point of the declared domain (the symbols' SymPy
assumptions) where ``E`` is defined, and that set is not empty: there is a
point of the domain where every denominator of ``E`` is nonzero.

The procedure
-------------
Refusals come first; each refuses a whole class of false "proofs".

1. **Exact numbers only.**  A step containing a SymPy ``Float`` anywhere is
   refused: rounding can make a false identity exact (``2.0**60 + 1`` is
   ``2.0**60``).
2. **Defined somewhere.**  ``nan``, ``zoo`` or an infinity refuses the step.
   ``tan``, ``cot``, ``sec``, ``csc`` (and the hyperbolic ones) are written
   with ``sin``/``cos`` (``sinh``/``cosh``) first, so that their poles are
   denominators.  Every *denominator* (every base raised to a power that
   is not known to be nonnegative, so ``x**(-1)`` and ``x**a`` with ``a``
   real, anywhere in the expression as written, before anything is combined
   or cancelled) and every argument of ``log`` must be certified
   nonzero: by SymPy's assumption system (``is_zero is False``), or by
   interval arithmetic (:mod:`mpmath.iv`) at one point of the declared
   domain, an enclosure that excludes 0.  An enclosure cannot be fooled by
   scale: ``10**170 * (sin(1)**2 + cos(1)**2 - 1)`` gives an interval that
   contains 0, so it is not certified.  A denominator that the reductions
   below bring to 0 (modulo the same relations the numerator is reduced by,
   numeric angles such as ``sin(1)`` included) is reported as identically
   zero.  Either way the step is refused: 0/0 proves nothing.
3. **Time bound.**  Each step gets :data:`TIME_BOUND` seconds of CPU time
   (a ``SIGPROF`` timer in the main thread, a forked process elsewhere), so
   the verdict does not depend on how busy the machine is; running out
   gives ``"undecided (time bound)"``, never a hang.

Then the difference is reduced, cheapest method first:

a. *Atomic angles.*  Each ``sin(t)``, ``cos(t)`` becomes a pair of
   polynomial variables ``s_t``, ``c_t`` for every distinct argument ``t``
   (``w*(t + k)`` and ``w*t + w*k`` are one argument; ``sinh``/``cosh``
   likewise, with ``c**2 - s**2 - 1``); the
   expression is put over one denominator and the numerator is reduced
   modulo the Pythagorean relations ``s_t**2 + c_t**2 - 1`` (they are a
   Groebner basis: their leading terms are coprime).  So
   ``sin(1000*x)**2 + cos(1000*x)**2 = 1`` is immediate, for symbolic
   multiples too.
b. *Common angles.*  The arguments are written as integer combinations of
   common atomic angles ``u = m/L`` (``x`` and ``x/2`` both become
   multiples of ``u = x/2``; numeric parts such as ``pi/3`` stay as they
   are), expanded with SymPy's angle-addition rule (``expand(trig=True)``),
   and reduced as in (a).
c. *Exponential form.*  Trigonometric and hyperbolic functions are
   rewritten with ``exp`` and the result expanded (``expand`` and
   ``powsimp`` without ``force``).  It runs only when ``exp``, ``I``,
   hyperbolic functions, ``log`` or non-integer powers take part: after (b),
   sines and cosines of distinct atomic angles satisfy no relation but
   Pythagoras, so it could not add anything else.

Order: (b) comes first when the arguments are fewer atomic angles than
arguments (they are related, as in angle addition, where (a) must fail) and
every argument is at most :data:`SMALL_MULTIPLE` times its atomic angles;
what (a) proves, (b) proves too, since the expanded functions still satisfy
Pythagoras.  Otherwise (a) comes first, so a large multiple is never
expanded when it need not be.

Skipping a method costs completeness, never soundness.  So does the cap
:data:`MAX_MULTIPLE`: an angle that is more than 64 times its atomic angle
is not expanded, and the step is undecided at once instead of running into
the time bound.

Why each accepted method only accepts true identities
-----------------------------------------------------
Every rewrite used holds at every point where both of its sides are
defined: angle addition and the multiple-angle formulas hold for all
complex arguments; ``sin z = (e^{iz} - e^{-iz})/(2i)`` and its companions
hold everywhere; ``expand``, ``powsimp`` and ``log`` splitting are applied
without ``force=True``, so SymPy applies a branch-dependent rule
(``(x*y)**a = x**a * y**a``, ``log(x*y) = log x + log y``,
``(x**a)**b = x**(a*b)``) only when the symbols' assumptions make it valid.
Putting a sum of fractions over one denominator ``N/D`` is field
arithmetic: at a point where the expression is defined, ``D`` is nonzero
and the value is ``N/D``.  Replacing ``sin(t)``, ``cos(t)`` by ``s``, ``c``
is evaluation of a polynomial; the relations ``s**2 + c**2 - 1`` hold at
every point, so a numerator in the ideal they generate vanishes at every
point (the ideal may be smaller than all true relations: that costs
completeness, never soundness).  Refusal step 2 makes the claim non-vacuous.

What is trusted
---------------
SymPy's polynomial arithmetic (``expand``, ``together``, ``cancel``,
``reduced`` and its Groebner-basis division), its angle-addition and
multiple-angle expansion (``expand(trig=True)``), its ``rewrite(exp)`` and
``powsimp``, its automatic evaluation (``sqrt(x**2)`` is ``Abs(x)`` for
real ``x``), its assumption system (``is_zero``, the conditions under
which it applies power and logarithm rules), and mpmath's interval
arithmetic (:mod:`mpmath.iv`), which certifies that a denominator is
nonzero at a point and that a negative control is false there.

Sampling
--------
:func:`sample_point` picks values that satisfy *every* assumption of each
symbol (integer, odd, even, prime, positive, negative, nonzero, rational,
real, ...): each candidate value's own SymPy facts are compared with all
of the symbol's facts, and a symbol no candidate satisfies is refused
(``None``), never sampled outside its domain.

Matrices are checked entry by entry.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy
from mpmath import iv

__all__ = [
    "TIME_BOUND",
    "Decision",
    "TimeBoundExceeded",
    "decide_equal",
    "decide_zero",
    "difference",
    "interval_value",
    "numeric_value",
    "sample_point",
    "shown_false",
    "small_point",
]

#: CPU seconds allowed for one step (one :func:`decide_equal` call), unless
#: the environment variable ``POSENC_MATH_TIME_BOUND`` says otherwise.
TIME_BOUND: float = float(os.environ.get("POSENC_MATH_TIME_BOUND", "5"))

#: Functions whose exponential form can reveal an identity (method c runs
#: only when one of these, or exp itself, occurs: elsewhere it cannot help).
_TRANSCENDENTAL = (
    sympy.functions.elementary.trigonometric.TrigonometricFunction,
    sympy.functions.elementary.hyperbolic.HyperbolicFunction,
)

UNDECIDED = "undecided"
TIME_BOUND_METHOD = "undecided (time bound)"


class TimeBoundExceeded(BaseException):
    """Raised inside a step that ran out of time.

    A ``BaseException``, so that SymPy's own ``except Exception`` clauses
    cannot swallow it.
    """


@dataclass(frozen=True)
class Decision:
    """The outcome of one check.

    Attributes
    ----------
    proved : bool
        True only when the residual was proved to be exactly 0.
    residual : object
        What was left after the last method tried, a SymPy expression (0
        when proved).
    method : str
        The method that reached 0, ``"undecided"``, ``"undecided (time
        bound)"``, or ``"refused: ..."`` with the reason.
    where : str
        For a matrix, the first entry that was not proved (``""`` otherwise).
    """

    proved: bool
    residual: object
    method: str
    where: str = ""


# --------------------------------------------------------------------------
# Time bound


_bound_state = threading.local()


#: CPU seconds between repeated alarms once a bound has run out (see :func:`_alarm`).
_REFIRE_SECONDS = 0.01


@contextmanager
def _alarm(seconds: float):
    """Raise :class:`TimeBoundExceeded` in the main thread after ``seconds`` of CPU time.

    The timer counts the process's CPU time (``ITIMER_PROF``), not the wall
    clock, so that a step's verdict does not depend on how busy the machine is.
    """
    armed = [True]

    def handler(signum, frame):
        if armed[0]:
            # Fire again soon: the signal can land inside a finalizer or a weakref
            # callback run by the garbage collector, where Python prints the
            # exception and carries on ("Exception ignored in ..."); the next
            # one lands in the step itself.
            signal.setitimer(signal.ITIMER_PROF, _REFIRE_SECONDS)
            raise TimeBoundExceeded

    old_handler = signal.signal(signal.SIGPROF, handler)
    old_delay, _ = signal.setitimer(signal.ITIMER_PROF, seconds)
    started = time.process_time()
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old_handler)
        if old_delay:  # someone else's timer was running: give it back what is left
            signal.setitimer(signal.ITIMER_PROF, max(old_delay - (time.process_time() - started), 1e-3))


def _in_forked_process(func: Callable[[], Any], seconds: float, timed_out: Any) -> tuple | None:
    """Run ``func`` in a forked child under the same bound: ``(its result,)``.

    ``None`` when the child did not answer within a generous wall-clock
    safety margin (it is then killed).
    """
    import multiprocessing
    import pickle

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child():
        _bound_state.active = False  # the child is single-threaded: its own CPU-time alarm applies
        try:
            result = _bounded(func, seconds, timed_out)
            try:
                payload = pickle.dumps((result,))
            except Exception:  # an unpicklable residual: keep the verdict, print the residual
                payload = pickle.dumps((Decision(result.proved, str(result.residual), result.method, result.where),))
        except Exception as error:
            payload = pickle.dumps(error)
        sender.send_bytes(payload)

    process = context.Process(target=child, daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(60 + 20 * seconds):
            return None
        result = pickle.loads(receiver.recv_bytes())
    except EOFError:  # the child died without answering
        return (Decision(False, sympy.nan, "error: the checking process died"),)
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if isinstance(result, Exception):
        raise result
    return result


def _bounded(func: Callable[[], Any], seconds: float | None, timed_out: Any = None) -> Any:
    """``func()`` within ``seconds``, or ``timed_out`` (default: an "undecided (time bound)" Decision).

    ``seconds`` are CPU seconds.  Nested calls run under the outermost
    bound.  In the main thread the bound is a ``SIGPROF`` timer; in another
    thread (where Python cannot receive signals) the step runs in a forked
    process under its own timer; where neither exists (Windows) the step
    runs unbounded.
    """
    if seconds is None or seconds <= 0 or getattr(_bound_state, "active", False):
        return func()
    if timed_out is None:
        timed_out = Decision(False, sympy.nan, TIME_BOUND_METHOD)
    _bound_state.active = True
    try:
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            try:
                with _alarm(seconds):
                    return func()
            except TimeBoundExceeded:
                return timed_out
        if hasattr(os, "fork"):
            answer = _in_forked_process(func, seconds, timed_out)
            return timed_out if answer is None else answer[0]
        return func()
    finally:
        _bound_state.active = False


def _seconds(time_bound: float | None) -> float:
    return TIME_BOUND if time_bound is None else time_bound


# --------------------------------------------------------------------------
# Sampling and interval arithmetic


def _candidates(symbol: sympy.Symbol, rng: random.Random) -> Iterable[sympy.Expr]:
    """Candidate values for ``symbol``, the likeliest first (each is checked)."""
    if symbol.is_integer:
        positives = list(range(2, 24))
        negatives = list(range(-23, -1))
        rng.shuffle(positives)
        rng.shuffle(negatives)
        yield from (sympy.Integer(v) for v in positives + negatives + [1, -1, 0])
        return
    reals = []
    for _ in range(6):
        value = sympy.Rational(rng.randint(1_000, 9_000), 4_096)  # in (0.24, 2.2)
        reals += [value, -value]
    if symbol.is_real is not True and symbol.is_imaginary is not True:
        # a complex symbol: a point off the real line first, then real ones
        for _ in range(3):
            yield sympy.Rational(rng.randint(1_000, 9_000), 4_096) + sympy.I * sympy.Rational(
                rng.randint(1_000, 9_000), 4_096
            ) * rng.choice((1, -1))
    yield from (value if rng.random() < 0.5 else -value for value in reals)
    yield from reals
    yield from (sympy.I * value for value in reals)  # imaginary symbols
    yield from (value * sympy.sqrt(2) for value in reals)  # irrational (algebraic)
    yield from (value * sympy.pi for value in reals)  # transcendental
    yield from (sympy.Integer(v) for v in (3, -3, 2, -2, 1, -1, 0))  # nonzero-only constraints etc.


def _satisfies(value: sympy.Expr, symbol: sympy.Symbol) -> bool:
    """True when ``value`` has every fact SymPy derives from ``symbol``'s assumptions."""
    return all(getattr(value, f"is_{fact}", None) is wanted for fact, wanted in symbol.assumptions0.items())


def _sample_value(symbol: sympy.Symbol, rng: random.Random) -> sympy.Expr | None:
    """A value satisfying every assumption of ``symbol``, or ``None`` (refused)."""
    for value in _candidates(symbol, rng):
        if _satisfies(value, symbol):
            return value
    return None


def sample_point(symbols: Iterable[sympy.Symbol], seed: int = 0) -> dict | None:
    """Seeded values for ``symbols``, each inside its declared domain.

    Every assumption SymPy knows for a symbol (integer, odd, even, prime,
    positive, negative, nonzero, rational, real, ...) is honoured: a
    candidate is used only when its own facts agree with all of the
    symbol's.  Returns ``None`` when some symbol cannot be sampled.

    Examples
    --------
    >>> from sympy import Symbol
    >>> m = Symbol("m", odd=True, negative=True)
    >>> value = sample_point([m])[m]
    >>> bool(value.is_odd and value < 0)
    True
    >>> sample_point([Symbol("w", infinite=True)]) is None  # no finite value will do
    True
    """
    rng = random.Random(seed)
    point = {}
    for symbol in sorted(symbols, key=sympy.default_sort_key):
        value = _sample_value(symbol, rng)
        if value is None:
            return None
        point[symbol] = value
    return point


def small_point(symbols: Iterable[sympy.Symbol], seed: int = 0) -> dict | None:
    """Like :func:`sample_point`, but integer symbols take small values: the
    least ``v >= 2 + 2*seed`` (then any value) that satisfies every assumption.

    For the limits of a sum with a symbolic number of terms: the sum is
    written out at the point, so small values keep it short, and successive
    seeds still give distinct sizes.

    Examples
    --------
    >>> from sympy import Symbol
    >>> d = Symbol("d", integer=True, positive=True)
    >>> [small_point([d], seed)[d] for seed in range(3)]
    [2, 4, 6]
    >>> small_point([Symbol("m", odd=True)], 0)
    {m: 3}
    """
    rng = random.Random(seed)
    point = {}
    for symbol in sorted(symbols, key=sympy.default_sort_key):
        small = range(2 + 2 * seed, 66) if symbol.is_integer else range(0)
        value: sympy.Expr | None = next((sympy.Integer(v) for v in small if _satisfies(sympy.Integer(v), symbol)), None)
        if value is None:
            value = _sample_value(symbol, rng)
        if value is None:
            return None
        point[symbol] = value
    return point


class _Unknown(Exception):
    """Interval evaluation is not possible (a function it does not know, a branch cut, ...)."""


def _ivc_mul(a, b):
    return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


def _ivc_inverse(a):
    norm = a[0] ** 2 + a[1] ** 2
    if 0 in norm:
        raise _Unknown("division by an interval containing 0")
    return (a[0] / norm, -a[1] / norm)


def _is_real(a) -> bool:
    return a[1].a == 0 and a[1].b == 0


def _ivc_exp(a):
    modulus = iv.exp(a[0])
    if _is_real(a):
        return (modulus, iv.mpf(0))
    return (modulus * iv.cos(a[1]), modulus * iv.sin(a[1]))


def _ivc_log(a):
    if _is_real(a) and a[0].a > 0:
        return (iv.log(a[0]), iv.mpf(0))
    if 0 in a[1] and not a[0].a > 0:
        raise _Unknown("logarithm on or near its branch cut")
    return (iv.log(a[0] ** 2 + a[1] ** 2) / 2, iv.atan2(a[1], a[0]))


def _ivc_sin(a):
    if _is_real(a):
        return (iv.sin(a[0]), iv.mpf(0))
    up, down = iv.exp(a[1]), iv.exp(-a[1])
    return (iv.sin(a[0]) * (up + down) / 2, iv.cos(a[0]) * (up - down) / 2)


def _ivc_cos(a):
    if _is_real(a):
        return (iv.cos(a[0]), iv.mpf(0))
    up, down = iv.exp(a[1]), iv.exp(-a[1])
    return (iv.cos(a[0]) * (up + down) / 2, -iv.sin(a[0]) * (up - down) / 2)


def _ivc_pow(base, exponent_expr, exponent):
    if exponent_expr.is_Integer:
        n = int(exponent_expr)
        if n < 0:
            base, n = _ivc_inverse(base), -n
        if _is_real(base):
            return (base[0] ** n, iv.mpf(0))
        result = (iv.mpf(1), iv.mpf(0))
        while n:
            if n & 1:
                result = _ivc_mul(result, base)
            base = _ivc_mul(base, base)
            n >>= 1
        return result
    if _is_real(base) and _is_real(exponent) and base[0].a > 0:
        return (iv.exp(exponent[0] * iv.log(base[0])), iv.mpf(0))
    if exponent_expr == sympy.S.Half and _is_real(base) and base[0].a >= 0:
        return (iv.sqrt(base[0]), iv.mpf(0))
    return _ivc_exp(_ivc_mul(exponent, _ivc_log(base)))


def _ivc(expr):
    """An enclosure ``(re, im)`` of a numeric SymPy expression (raises :class:`_Unknown`)."""
    zero = iv.mpf(0)
    if expr.is_Integer:
        return (iv.mpf(int(expr)), zero)
    if expr.is_Rational:
        return (iv.mpf(int(expr.p)) / int(expr.q), zero)
    if expr is sympy.pi:
        return (iv.pi, zero)
    if expr is sympy.E:
        return (iv.e, zero)
    if expr is sympy.I:
        return (zero, iv.mpf(1))
    if expr.is_Add:
        re, im = zero, zero
        for term in expr.args:
            t = _ivc(term)
            re, im = re + t[0], im + t[1]
        return (re, im)
    if expr.is_Mul:
        result = (iv.mpf(1), zero)
        for factor in expr.args:
            result = _ivc_mul(result, _ivc(factor))
        return result
    if expr.is_Pow:
        return _ivc_pow(_ivc(expr.base), expr.exp, _ivc(expr.exp))
    if isinstance(expr, sympy.exp):
        return _ivc_exp(_ivc(expr.args[0]))
    if isinstance(expr, sympy.log) and len(expr.args) == 1:
        return _ivc_log(_ivc(expr.args[0]))
    if isinstance(expr, sympy.sin):
        return _ivc_sin(_ivc(expr.args[0]))
    if isinstance(expr, sympy.cos):
        return _ivc_cos(_ivc(expr.args[0]))
    if isinstance(expr, sympy.tan):
        return _ivc_mul(_ivc_sin(_ivc(expr.args[0])), _ivc_inverse(_ivc_cos(_ivc(expr.args[0]))))
    if isinstance(expr, (sympy.sinh, sympy.cosh)):
        a = _ivc(expr.args[0])
        up, down = _ivc_exp(a), _ivc_exp((-a[0], -a[1]))
        sign = -1 if isinstance(expr, sympy.sinh) else 1
        return ((up[0] + sign * down[0]) / 2, (up[1] + sign * down[1]) / 2)
    if isinstance(expr, sympy.Abs):
        a = _ivc(expr.args[0])
        return (iv.sqrt(a[0] ** 2 + a[1] ** 2), zero)
    if isinstance(expr, sympy.re):
        return (_ivc(expr.args[0])[0], zero)
    if isinstance(expr, sympy.im):
        return (_ivc(expr.args[0])[1], zero)
    if isinstance(expr, sympy.conjugate):
        a = _ivc(expr.args[0])
        return (a[0], -a[1])
    if isinstance(expr, (sympy.Sum, sympy.Product)):
        return _ivc_finite(expr)
    raise _Unknown(f"no interval rule for {type(expr).__name__}")


#: Most terms a Sum or Product with numeric limits is enclosed term by term with.
MAX_TERMS = 5_000


def _ivc_finite(expr):
    """A Sum or Product with integer limits, term by term (SymPy's convention for empty ranges)."""
    is_sum = isinstance(expr, sympy.Sum)
    *inner, (index, low, high) = expr.limits
    body = type(expr)(expr.function, *inner) if inner else expr.function
    if not (low.is_Integer and high.is_Integer) or high - low > MAX_TERMS:
        raise _Unknown("a sum or product without small integer limits")
    if high < low - 1:  # Karr's convention: a reversed range counts negatively
        raise _Unknown("a reversed range")
    result = (iv.mpf(0), iv.mpf(0)) if is_sum else (iv.mpf(1), iv.mpf(0))
    for value in range(int(low), int(high) + 1):
        term = _ivc(body.xreplace({index: sympy.Integer(value)}))
        result = (result[0] + term[0], result[1] + term[1]) if is_sum else _ivc_mul(result, term)
    return result


def interval_value(expr, point: dict | None = None, digits: int = 40):
    """An enclosure ``(re, im)`` (two :mod:`mpmath.iv` intervals) of ``expr`` at ``point``.

    ``None`` when it cannot be enclosed (a symbol left over, a function
    without an interval rule, a pole or branch cut inside the enclosure).

    Examples
    --------
    >>> from sympy import sin, cos
    >>> re, im = interval_value(10**170 * (sin(1) ** 2 + cos(1) ** 2 - 1))
    >>> 0 in re  # an enclosure: scale cannot hide a zero
    True
    """
    expr = sympy.sympify(expr)
    if point:
        expr = expr.xreplace(point)
    if expr.free_symbols:
        return None
    saved = iv.prec
    iv.prec = int(digits * 3.33) + 20
    try:
        return _ivc(expr)
    except (_Unknown, ZeroDivisionError, ValueError, TypeError, ArithmeticError):
        return None
    finally:
        iv.prec = saved


def _excludes_zero(enclosure) -> bool:
    return enclosure is not None and not (0 in enclosure[0] and 0 in enclosure[1])


def _narrow_value(enclosure):
    """The midpoint as a complex number when it is within 1e-20 of the true value or the enclosure excludes 0."""
    re, im = enclosure
    width = max(mpmath.mpf(re.delta.b), mpmath.mpf(im.delta.b))
    if width < 1e-20 or _excludes_zero(enclosure):
        return complex(float(mpmath.mpf(re.mid.a)), float(mpmath.mpf(im.mid.a)))
    return None


def numeric_value(expr, seed: int = 0, *, time_bound: float | None = None):
    """``expr`` at a seeded point of the declared domain, certified by interval arithmetic.

    Returns a complex number ``v`` such that the true value is either
    within ``1e-20`` of ``v`` or nonzero with the sign pattern of ``v``
    (so ``abs(v) > 1e-12`` proves the value is not 0); ``None`` when the
    expression cannot be evaluated there (a matrix, a pole, a symbol that
    cannot be sampled, an enclosure too wide to tell).

    Examples
    --------
    >>> from sympy import Symbol, sin
    >>> x = Symbol("x", real=True)
    >>> abs(numeric_value(sin(x) ** 2 + sin(x + 1) - sin(x + 1) - sin(x) ** 2)) < 1e-25
    True
    """
    if isinstance(expr, (sympy.MatrixBase, sympy.MatrixExpr)):
        return None
    value = _bounded(lambda: _numeric_value(sympy.sympify(expr), seed), _seconds(time_bound), timed_out=False)
    return None if value is False else value


def _numeric_value(expr, seed: int):
    point = sample_point(expr.free_symbols, seed)
    if point is None:
        return None
    value = expr.xreplace(point)
    if value.is_Rational:  # exact (Mod, floor, ... of exact numbers evaluate exactly)
        return complex(value)
    for digits in (40, 300):
        enclosure = interval_value(value, digits=digits)
        if enclosure is None:
            return None
        narrow = _narrow_value(enclosure)
        if narrow is not None:
            return narrow
    return None


def shown_false(lhs, rhs, seeds: Iterable[int] = (0, 1, 2), *, time_bound: float | None = None) -> bool:
    """True when ``lhs != rhs`` at some seeded point of the declared domain, certified.

    The difference (every entry, for matrices) is enclosed with interval
    arithmetic at points that satisfy every symbol's assumptions; one
    enclosure that excludes 0 shows the equation false.

    Examples
    --------
    >>> from sympy import Mod, Symbol
    >>> m = Symbol("m", odd=True)
    >>> shown_false(Mod(m**2, 8), 1)  # true for odd m: never "shown false"
    False
    >>> shown_false(Mod(m**2, 8), 0)
    True
    """
    return _bounded(lambda: _shown_false(lhs, rhs, tuple(seeds)), _seconds(time_bound), timed_out=False) is True


def _shown_false(lhs, rhs, seeds: tuple) -> bool:
    try:
        gap = difference(lhs, rhs)
    except ValueError:
        return False
    entries = list(gap) if isinstance(gap, sympy.MatrixBase) else [sympy.sympify(gap)]
    symbols = set().union(*(entry.free_symbols for entry in entries))
    for seed in seeds:
        point = sample_point(symbols, seed)
        if point is None:
            return False
        for entry in entries:
            value = entry.xreplace(point)
            if value.is_Rational:
                if value != 0:
                    return True
                continue
            for digits in (40, 300):
                enclosure = interval_value(value, digits=digits)
                if enclosure is None or _excludes_zero(enclosure):
                    break
            if _excludes_zero(enclosure):
                return True
    return False


# --------------------------------------------------------------------------
# Normal forms


def _normal_exponents(expr):
    """Write every symbolic exponent as a cancelled rational function.

    An exponent without a sum in it (``-2*i/d``) is a monomial, which SymPy
    keeps in one canonical form by itself; only the others are cancelled.
    """
    return expr.replace(
        lambda e: e.is_Pow and not e.exp.is_Number and e.exp.has(sympy.Add),
        lambda e: sympy.Pow(e.base, sympy.cancel(e.exp)),
    )


_RECIPROCALS = {
    sympy.tan: lambda t: sympy.sin(t) / sympy.cos(t),
    sympy.cot: lambda t: sympy.cos(t) / sympy.sin(t),
    sympy.sec: lambda t: 1 / sympy.cos(t),
    sympy.csc: lambda t: 1 / sympy.sin(t),
    sympy.tanh: lambda t: sympy.sinh(t) / sympy.cosh(t),
    sympy.coth: lambda t: sympy.cosh(t) / sympy.sinh(t),
    sympy.sech: lambda t: 1 / sympy.cosh(t),
    sympy.csch: lambda t: 1 / sympy.sinh(t),
}


def _with_sin_cos(expr):
    """``tan``, ``sec``, ... written with ``sin``/``cos``, so their poles are denominators."""
    if not expr.has(*_RECIPROCALS):
        return expr
    return expr.replace(lambda e: type(e) in _RECIPROCALS, lambda e: _RECIPROCALS[type(e)](e.args[0]))


def _must_be_nonzero(expr) -> dict:
    """Every denominator (base of a power not known nonnegative) and every ``log`` argument in ``expr``.

    A dict from the expression to what it is (``"denominator"``, ``"log argument"``).
    """
    found: dict = {}
    for node in sympy.preorder_traversal(expr):
        if node.is_Pow and not node.exp.is_nonnegative:
            # a negative power, or one that may be negative (x**a with a real):
            # 0**a * 0**(-a) would otherwise "equal" 1
            found.setdefault(node.base, "denominator")
        elif isinstance(node, sympy.log):
            found.setdefault(node.args[0], "log argument")
    return found


def _short(expr, limit: int = 100) -> str:
    text = sympy.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _pythagorean_remainder(expr):
    """Reduce ``expr`` modulo ``s**2 + c**2 - 1`` (``c**2 - s**2 - 1``) per distinct argument.

    Returns 0 when the numerator of ``expr`` (over one denominator) lies in
    the ideal of those relations; otherwise what is left, in the original
    functions.
    """
    trig = expr.atoms(sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)
    replacements, relations, gens = {}, [], []
    for family, (sine, cosine) in enumerate(((sympy.sin, sympy.cos), (sympy.sinh, sympy.cosh))):
        # one pair of variables per angle, however it is written (w*(t + k) is w*t + w*k)
        by_angle: dict = {}
        for f in trig:
            if isinstance(f, (sine, cosine)):
                by_angle.setdefault(sympy.expand(f.args[0]), set()).add(f)
        for index, angle in enumerate(sorted(by_angle, key=sympy.default_sort_key)):
            s, c = sympy.Dummy(f"s{family}_{index}"), sympy.Dummy(f"c{family}_{index}")
            for f in by_angle[angle]:
                replacements[f] = s if isinstance(f, sine) else c
            relations.append(s**2 + c**2 - 1 if family == 0 else c**2 - s**2 - 1)
            gens += [s, c]
    substituted = expr.xreplace(replacements) if replacements else expr
    numerator = substituted
    for _ in range(3):  # expanding can bring out new fractions (a log of a quotient, a split exponent)
        if any(p.exp.is_negative for p in numerator.atoms(sympy.Pow)):
            numerator = sympy.together(numerator).as_numer_denom()[0]
        numerator = sympy.expand(numerator)
        if not any(p.exp.is_negative for p in numerator.atoms(sympy.Pow)):
            break
    if numerator == 0:
        return sympy.S.Zero
    if not relations:
        return expr if numerator.has(*_TRANSCENDENTAL) else numerator
    try:
        _, remainder = sympy.reduced(numerator, relations, *gens, order="grevlex")
    except (sympy.PolynomialError, sympy.polys.polyerrors.GeneratorsNeeded):
        return expr
    if remainder == 0:
        return sympy.S.Zero
    back = {v: k for k, v in replacements.items()}  # any one spelling of the angle will do
    return sympy.sympify(remainder).xreplace(back)


#: Largest total multiple of the atomic angles that method b expands (``sin(64*u)``
#: is a polynomial of degree 64); beyond it the step is left undecided at once
#: instead of running into the time bound.
MAX_MULTIPLE = 64
#: Largest total multiple for which method b is tried before method a (see ``_reduce``).
SMALL_MULTIPLE = 4

_CONSTANT = "numeric part"


class _TooLarge(Exception):
    """An angle is too large a multiple of its atomic angle to expand."""


def _common_angles(expr, largest: int = MAX_MULTIPLE):
    """Write every trigonometric argument as an integer combination of common atomic angles.

    Each argument is expanded into ``sum(c_i * m_i) + k`` with rational
    ``c_i``, non-numeric monomials ``m_i`` and a numeric part ``k``.  For
    each ``m`` the greatest common divisor ``g`` of its coefficients (over
    all arguments) defines the atomic angle ``u = g*m`` (a fresh symbol), so
    ``x`` and ``x/2`` become ``2u`` and ``u``, while ``1000*x`` alone stays
    one angle; every argument is then an integer combination of the ``u``
    plus ``k``, and ``expand(trig=True)`` writes each function of it as a
    polynomial in ``sin(u)``, ``cos(u)``, ``sin(k)``, ``cos(k)``.  Returns
    the rewritten expression and the map from each fresh symbol back to its
    angle, or ``None`` when that changes nothing.
    """
    functions = expr.atoms(sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)
    decomposed: dict = {}
    coefficients: dict = {}
    for f in functions:
        terms: dict = {}
        for term in sympy.Add.make_args(sympy.expand(f.args[0])):
            coefficient, monomial = term.as_coeff_Mul()
            if term.is_Rational:  # a rational angle: a multiple of the atomic angle 1/L
                coefficient, monomial = term, sympy.S.One
            elif monomial.is_number:  # any other numeric part (pi/3, sqrt(2), ...) stays as it is
                terms[_CONSTANT] = terms.get(_CONSTANT, 0) + term
                continue
            elif not coefficient.is_Rational:
                coefficient, monomial = sympy.S.One, term
            terms[monomial] = terms.get(monomial, 0) + coefficient
        for monomial, coefficient in terms.items():
            if monomial is not _CONSTANT and coefficient != 0:
                coefficients.setdefault(monomial, set()).add(abs(coefficient))
        decomposed[f] = terms
    unit = {
        m: sympy.Rational(math.gcd(*(int(c.p) for c in cs)), math.lcm(*(int(c.q) for c in cs)))
        for m, cs in coefficients.items()
    }
    atoms = {m: sympy.Dummy(f"u{index}") for index, m in enumerate(sorted(unit, key=sympy.default_sort_key))}
    replacements, changed = {}, False
    for f, terms in decomposed.items():
        multiples = {m: value / unit[m] for m, value in terms.items() if m is not _CONSTANT and value != 0}
        if sum(abs(k) for k in multiples.values()) > largest:
            raise _TooLarge
        constant = terms.get(_CONSTANT, 0)
        angle = sympy.Add(constant, *(k * atoms[m] for m, k in multiples.items()))
        if constant == 0 and len(multiples) == 1 and next(iter(multiples.values())) == 1:
            replacements[f] = type(f)(angle)  # already one atomic angle: renamed only
            continue
        changed = True
        replacements[f] = sympy.expand(type(f)(angle), trig=True)
    if not changed:
        return None
    return expr.xreplace(replacements), {u: unit[m] * m for m, u in atoms.items()}


def _arguments(expr) -> set:
    """The distinct arguments of the sines, cosines (and hyperbolic ones) in ``expr``, expanded."""
    return {sympy.expand(f.args[0]) for f in expr.atoms(sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)}


def _reduce(expr):
    """``(method, residual)``: the residual is 0 when one of the methods proves ``expr == 0``."""
    if expr == 0:
        return "expand", sympy.S.Zero
    expanded = sympy.expand(expr)
    if expanded == 0:
        return "expand", sympy.S.Zero
    if any(p.exp.is_negative for p in expanded.atoms(sympy.Pow)) and sympy.cancel(sympy.together(expanded)) == 0:
        return "rational normal form", sympy.S.Zero
    has_trig = expr.has(sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)
    # (b) before (a) when the arguments are related (fewer atomic angles than
    # arguments) and each is a small multiple of its atomic angles: whatever
    # (a) proves, (b) proves too (the expanded functions satisfy Pythagoras),
    # and (a) would fail on every angle-addition step first.  Independent
    # angles and large multiples go to (a) first: sin(50x)**2 + cos(50x)**2 = 1 at once.
    small, small_remainder = None, None
    if has_trig:
        with contextlib.suppress(_TooLarge):
            small = _common_angles(expr, largest=SMALL_MULTIPLE)
    if small is not None and len(_arguments(expr)) <= len(small[1]):
        small = None  # the angles are independent: (a) sees everything (b) would
    if small is not None:
        small_remainder = _pythagorean_remainder(small[0])
        if small_remainder == 0:
            return "angle addition + pythagorean reduction", sympy.S.Zero
    remainder = _pythagorean_remainder(expanded)
    if remainder == 0:
        return ("pythagorean reduction" if has_trig else "rational normal form"), sympy.S.Zero
    residual = remainder
    angles_done = False
    if has_trig:
        try:
            common = _common_angles(expr) if small is None else small
        except _TooLarge:
            return UNDECIDED, residual  # the exponential form would be as large
        angles_done = True
        if common is not None:
            rewritten, back = common
            remainder = small_remainder if common is small else _pythagorean_remainder(rewritten)
            if remainder == 0:
                return "angle addition + pythagorean reduction", sympy.S.Zero
            residual = sympy.sympify(remainder).xreplace(back)  # what is left, in the atomic angles
    # After (b), sines and cosines of distinct atomic angles satisfy no relation
    # but Pythagoras; the exponential form can add something only when exp, I,
    # hyperbolic functions, logarithms or non-integer powers take part.
    needs_exponential = expr.has(sympy.exp, sympy.I, sympy.sinh, sympy.cosh, sympy.log) or any(
        not p.exp.is_Integer for p in expr.atoms(sympy.Pow)
    )
    if expr.has(sympy.exp, *_TRANSCENDENTAL) and (needs_exponential or not angles_done):
        exponential = sympy.expand(sympy.powsimp(sympy.expand(expr.rewrite(sympy.exp))))
        if exponential == 0:
            return "exponential form", sympy.S.Zero
        if any(p.exp.is_negative for p in exponential.atoms(sympy.Pow)):
            numerator, _ = exponential.as_numer_denom()
            if sympy.expand(numerator) == 0:
                return "exponential form", sympy.S.Zero
    return UNDECIDED, residual


def _certified_nonzero(bases: list) -> tuple[bool, object]:
    """``(True, None)`` when every base is nonzero somewhere in the domain (one common point).

    Otherwise ``(False, base)`` with the first base not certified.
    """
    pending = []
    for base in bases:
        if base.is_Rational and base != 0:
            continue
        if not base.is_number and base.is_zero is False:
            # SymPy's assumption system: nonzero everywhere in the domain.  Not
            # asked about numbers: for those it falls back on floating point.
            continue
        pending.append(base)
    if not pending:
        return True, None
    symbols = set().union(*(base.free_symbols for base in pending))
    last = pending[0]
    for seed in range(4):
        point = sample_point(symbols, seed)
        if point is None:
            break
        for base in pending:
            value = base.xreplace(point)
            if value.is_Rational and value != 0:
                continue
            if not _excludes_zero(interval_value(value)):
                last = base
                break
        else:
            return True, None
    return False, last


def _refusal(expr) -> Decision | None:
    """A refusing Decision when ``expr`` is outside what may be checked, else ``None``."""
    floats = expr.atoms(sympy.Float)
    if floats:
        example = sorted(floats, key=sympy.default_sort_key)[0]
        return Decision(
            False, expr, f"refused: inexact number {example} (a Float); write exact numbers (Integer, Rational)"
        )
    if expr.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        return Decision(False, expr, "refused: undefined (nan, zoo or an infinity in the expression)")
    return None


def _decide_scalar(expr) -> Decision:
    expr = sympy.sympify(expr)
    refused = _refusal(expr)
    if refused is not None:
        return refused
    expr = _with_sin_cos(_normal_exponents(expr))
    bases = _must_be_nonzero(expr)
    if bases:
        certified, base = _certified_nonzero(list(bases))
        if not certified:
            what = f"the {bases[base]} {_short(base)}"
            if _reduce(base)[1] == 0:
                return Decision(False, expr, f"refused: {what} is identically zero")
            return Decision(False, expr, f"refused: {what} is not certified nonzero at any sampled point")
    method, residual = _reduce(expr)
    return Decision(residual == 0, residual, method)


def _decide(expr) -> Decision:
    if isinstance(expr, sympy.MatrixExpr) and not isinstance(expr, sympy.MatrixBase):
        if expr.is_ZeroMatrix:
            return Decision(True, expr, "expand")
        return Decision(False, expr, "undecided (a symbolic matrix expression: give its entries)")
    if isinstance(expr, sympy.MatrixBase):
        methods = set()
        for row, column in ((r, c) for r in range(expr.rows) for c in range(expr.cols)):
            decision = _decide_scalar(expr[row, column])
            if not decision.proved:  # the first entry that fails is reported
                return Decision(False, decision.residual, decision.method, where=f"entry ({row}, {column})")
            methods.add(decision.method)
        return Decision(True, sympy.zeros(*expr.shape), "+".join(sorted(methods)))
    return _decide_scalar(expr)


def decide_zero(expr, *, time_bound: float | None = None) -> Decision:
    """Decide whether a scalar or matrix expression is identically zero.

    Parameters
    ----------
    expr : sympy expression or sympy Matrix
    time_bound : float, optional
        Seconds allowed (default :data:`TIME_BOUND`); running out gives the
        method ``"undecided (time bound)"``.

    Returns
    -------
    Decision
        ``proved`` is True only when every entry was proved to be 0.

    Examples
    --------
    >>> from sympy import symbols, sin, cos
    >>> a, b = symbols("a b", real=True)
    >>> decide_zero(sin(a + b) - sin(a) * cos(b) - cos(a) * sin(b)).proved
    True
    >>> decide_zero(sin(a + b) - sin(a) * cos(b) + cos(a) * sin(b)).proved
    False
    >>> decide_zero((sin(a) ** 2 + cos(a) ** 2 - 1) / (sin(1) ** 2 + cos(1) ** 2 - 1)).method
    'refused: the denominator -1 + cos(1)**2 + sin(1)**2 is identically zero'
    """
    expr = _checked_side(expr, "expr", "decide_zero")
    if isinstance(expr, sympy.MatrixExpr):
        expr = expr.doit()
    return _bounded(lambda: _decide(expr), _seconds(time_bound))


def _checked_side(value, name: str, caller: str):
    """``value`` as SymPy, or ``TypeError`` naming the argument and what is accepted."""
    if isinstance(value, (sympy.MatrixBase, sympy.MatrixExpr, sympy.Expr)):
        return value
    accepted = "a SymPy expression, a SymPy Matrix or a number"
    number = isinstance(value, (int, float, complex)) or _is_numpy_number(value)
    if isinstance(value, bool) or not number:
        raise TypeError(f"{caller}: {name} must be {accepted}; got {type(value).__name__} {value!r:.60}")
    return sympy.sympify(value)


def _is_numpy_number(value) -> bool:
    return type(value).__module__ == "numpy" and hasattr(value, "dtype") and getattr(value, "shape", None) == ()


def difference(lhs, rhs):
    """``lhs - rhs`` as :func:`decide_equal` checks it; ``ValueError`` when shapes differ.

    Unevaluated matrix products (kept for display) are multiplied out
    directly: converting them entry by entry goes through symbolic sums.
    """
    lhs, rhs = (_checked_side(side, name, "difference") for side, name in ((lhs, "lhs"), (rhs, "rhs")))
    lhs, rhs = (side.doit() if isinstance(side, sympy.MatrixExpr) else side for side in (lhs, rhs))
    shapes = [side.shape if isinstance(side, (sympy.MatrixBase, sympy.MatrixExpr)) else None for side in (lhs, rhs)]
    if shapes[0] != shapes[1]:
        described = ["a scalar" if shape is None else f"{shape}" for shape in shapes]
        raise ValueError(f"shapes differ: {described[0]} vs {described[1]}")
    if isinstance(lhs, sympy.MatrixBase) or isinstance(rhs, sympy.MatrixBase):
        lhs, rhs = sympy.Matrix(lhs), sympy.Matrix(rhs)
    return lhs - rhs


def decide_equal(lhs: Any, rhs: Any, *, time_bound: float | None = None) -> Decision:
    """Decide ``lhs == rhs`` by deciding ``lhs - rhs == 0``.

    Both sides are inspected before they are subtracted, so a Float that
    the subtraction would cancel still refuses the step.

    Examples
    --------
    >>> from sympy import symbols, sin, cos, Matrix
    >>> x = symbols("x", real=True)
    >>> decide_equal(Matrix([sin(2 * x)]), Matrix([2 * sin(x) * cos(x)])).proved
    True
    >>> decide_equal(cos(x) ** 2, 1 - sin(x) ** 2).method
    'pythagorean reduction'
    >>> decide_equal((x + 2.0**60) * (x + 1), x**2 + 2**60 * x + 2**60).method
    'refused: inexact number 1.15292150460685e+18 (a Float); write exact numbers (Integer, Rational)'
    """

    for side, name in ((lhs, "lhs"), (rhs, "rhs")):
        _checked_side(side, name, "decide_equal")

    def run() -> Decision:
        try:
            residual = difference(lhs, rhs)
        except ValueError as error:
            return Decision(False, sympy.nan, str(error))
        for side in (lhs, rhs):
            refused = _refusal(sympy.sympify(side))
            if refused is not None:
                return Decision(False, residual, refused.method)
        return _decide(residual)

    return _bounded(run, _seconds(time_bound))
