"""The public decision procedure, and the samplers of earlier versions.

:func:`decide_equal`, :func:`decide_zero` and :class:`Decision` are the
trusted kernel's (:mod:`posenc_math.theorems.kernel`): an identity is
proved only when an exact normal form of the difference is 0 and interval
arithmetic at sampled points of the declared domain agrees; the answer
carries its side conditions and, for a false identity, a certified
counterexample.

:func:`sample_point` and :func:`small_point` pick values inside a
symbol's declared domain (they are not used by the kernel, which has its
own sampler).

Examples
--------
>>> from sympy import symbols, sin, cos
>>> x = symbols("x", real=True)
>>> decide_equal(cos(x) ** 2, 1 - sin(x) ** 2).proved
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import sympy

from .kernel import TIME_BOUND, Decision, decide_equal, decide_zero

__all__ = ["TIME_BOUND", "Decision", "decide_equal", "decide_zero", "sample_point", "small_point"]


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
        for _ in range(3):
            yield sympy.Rational(rng.randint(1_000, 9_000), 4_096) + sympy.I * sympy.Rational(
                rng.randint(1_000, 9_000), 4_096
            ) * rng.choice((1, -1))
    yield from (value if rng.random() < 0.5 else -value for value in reals)
    yield from reals
    yield from (sympy.I * value for value in reals)
    yield from (value * sympy.sqrt(2) for value in reals)
    yield from (value * sympy.pi for value in reals)
    yield from (sympy.Integer(v) for v in (3, -3, 2, -2, 1, -1, 0))


def _satisfies(value: sympy.Expr, symbol: sympy.Symbol) -> bool:
    """True when ``value`` has every fact SymPy derives from ``symbol``'s assumptions."""
    return all(getattr(value, f"is_{fact}", None) is wanted for fact, wanted in symbol.assumptions0.items())


def _sample_value(symbol: sympy.Symbol, rng: random.Random) -> sympy.Expr | None:
    for value in _candidates(symbol, rng):
        if _satisfies(value, symbol):
            return value
    return None


def sample_point(symbols: Iterable[sympy.Symbol], seed: int = 0) -> dict | None:
    """Seeded values for ``symbols``, each inside its declared domain; ``None`` when one cannot be sampled.

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
